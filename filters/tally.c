/*
 * tally: counts and sums of the lines of an interval stream, in all and
 * by kind, category and, for kernels, device and stream, in any order and
 * in constant memory.  See tally(1).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Distinct names a table holds: a trace has a handful. */
#define MAXNAMES	1024

/* The lines of one kind, category, or device and stream. */
struct sum {
	struct group	 name;		/* as in the keys: "kernel", "0.7" */
	int64_t		 count;
	int64_t		 ns;
};

/* Sums by name in first-seen order. */
struct table {
	const char	*what;		/* the first part of its keys */
	struct groups	 sums;
};

/*
 * One set of facts: the lines it counts (onlykind, or all), their totals
 * and their sums by kind, category and, with bystream, of kernels by
 * device and stream.  tally computes the facts of -o and, with -S, a
 * second set in the same pass.
 */
struct facts {
	const char	*prefix;	/* before each key */
	const char	*onlykind;	/* count lines of this kind alone */
	char		 option;	/* that asked for onlykind: k or S */
	int		 bystream;	/* -s: kernels by device and stream */
	int64_t		 count, ns, start, end;
	struct table	 kinds, categories, streams;
};

/* The name device.stream of the line at hand: shorter than the line. */
static char streamname[H3_MAXLINE];

static _Noreturn void usage(int);

/* A part of a key holds letters, digits, _ and -: a dot would split it. */
static void
checkpart(const char *what, const char *s, const struct lines *at)
{
	if (*s == '\0' || s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] != '\0')
		errx(1, "%s: %s \"%.40s\" cannot be part of a fact key: "
		    "letters, digits, _ and - only", lines_at(at),
		    what, s);
}

/* Count a line of ns under the name a, or a "." b where b is not NULL. */
static void
add(struct table *t, const char *a, const char *b, int64_t ns,
    const struct lines *at)
{
	struct sum *s;
	const char *name = a;
	size_t alen, blen, len;

	len = alen = strlen(a);
	if (b != NULL) {
		blen = strlen(b);
		memcpy(streamname, a, alen);
		streamname[alen] = '.';
		memcpy(streamname + alen + 1, b, blen);
		name = streamname;
		len = alen + 1 + blen;
	}
	s = groups_get(&t->sums, name, len);
	if (s->count == 0) {	/* first sight */
		if (t->sums.n > MAXNAMES)
			errx(1, "%s: more than %d distinct names in %s "
			    "keys", lines_at(at), MAXNAMES, t->what);
		if (b == NULL)
			checkpart(t->what, a, at);
		else {
			checkpart("device", a, at);
			checkpart(t->what, b, at);
		}
	}
	s->count++;
	s->ns += ns;
}

/* Facts WHAT.NAME.count and WHAT.NAME.ns for each name, in first-seen order. */
static void
put_table(const char *prefix, const struct table *t)
{
	const struct sum *sums = t->sums.recs;
	char *stem;
	size_t i;

	for (i = 0; i < t->sums.n; i++) {
		if (asprintf(&stem, "%s%s.%s.", prefix, t->what,
		    sums[i].name.key) == -1)
			err(1, NULL);
		put_fact(stem, "count", sums[i].count);
		put_fact(stem, "ns", sums[i].ns);
		free(stem);
	}
}

/*
 * Set up f to count the lines of onlykind (all if NULL), which option
 * asked for, and the kernels by stream if bystream.
 */
static void
facts_init(struct facts *f, const char *prefix, const char *onlykind,
    char option, int bystream)
{
	f->prefix = prefix;
	f->onlykind = onlykind;
	f->option = option;
	f->bystream = bystream;
	f->count = f->ns = f->end = 0;
	f->start = INT64_MAX;
	f->kinds = (struct table){ "kind", { .size = sizeof(struct sum) } };
	f->categories = (struct table){ "category",
	    { .size = sizeof(struct sum) } };
	f->streams = (struct table){ "stream",
	    { .size = sizeof(struct sum) } };
}

/* Count the line iv into f, if it is of f's kind. */
static void
count(struct facts *f, const struct interval *iv, const struct lines *at)
{
	int64_t len;

	if (f->onlykind != NULL) {
		if (!iv->full)
			errx(1, "%s: -%c needs full interval lines; this "
			    "one is bare", lines_at(at), f->option);
		if (strcmp(iv->kind, f->onlykind) != 0)
			return;
	}
	len = iv->end - iv->start;
	/* Every other sum is part of this one: one check does. */
	if (len > INT64_MAX - f->ns)
		errx(1, "%s: the sum of ns overflows 64 bits",
		    lines_at(at));
	f->ns += len;
	f->count++;
	if (iv->start < f->start)
		f->start = iv->start;
	if (iv->end > f->end)
		f->end = iv->end;
	if (!iv->full)
		return;
	add(&f->kinds, iv->kind, NULL, len, at);
	if (strcmp(iv->category, "-") != 0)
		add(&f->categories, iv->category, NULL, len, at);
	if (f->bystream && strcmp(iv->kind, "kernel") == 0)
		add(&f->streams, iv->device, iv->stream, len, at);
}

/* The facts of f, on stdout. */
static void
put_facts(const struct facts *f)
{
	put_fact(f->prefix, "count", f->count);
	put_fact(f->prefix, "ns", f->ns);
	if (f->count > 0) {
		put_fact(f->prefix, "start", f->start);
		put_fact(f->prefix, "end", f->end);
		put_fact(f->prefix, "span_ns", f->end - f->start);
	}
	put_table(f->prefix, &f->kinds);
	put_table(f->prefix, &f->categories);
	put_table(f->prefix, &f->streams);
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	/* The facts of -o (or stdout), and the kernels' facts of -S. */
	struct facts all, kernels;
	const char *prefix = "", *onlykind = NULL;
	const char *outpath = NULL;	/* -o: the facts there, not stdout */
	const char *kernelpath = NULL;	/* -S: the kernels' facts there */
	const char *kernelprefix = "";	/* -P: before the keys of -S */
	int ch, bystream = 0;

	while ((ch = getopt_long(argc, argv, "hk:o:P:p:S:s", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'k':
			onlykind = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'P':
			kernelprefix = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'S':
			kernelpath = optarg;
			break;
		case 's':
			bystream = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);

	facts_init(&all, prefix, onlykind, 'k', bystream);
	/* What tally -s -k kernel -p kernelprefix would print. */
	facts_init(&kernels, kernelprefix, "kernel", 'S', 1);
	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	if (outpath != NULL)
		out_stdout(outpath);
	while (ivin_next(&in, &iv)) {
		count(&all, &iv, &in.in);
		if (kernelpath != NULL)
			count(&kernels, &iv, &in.in);
	}
	ivin_close(&in);

	put_facts(&all);
	if (kernelpath != NULL) {
		out_stdout_next(kernelpath);
		put_facts(&kernels);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: tally [-hs] [-k kind] [-o output] [-P prefix] "
	    "[-p prefix] [-S output] [file]\n", status);
}
