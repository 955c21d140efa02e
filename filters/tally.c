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

/* Sums by kind, by category, and of kernels by device and stream. */
static struct table kinds = { "kind", { .size = sizeof(struct sum) } };
static struct table categories = { "category",
	{ .size = sizeof(struct sum) } };
static struct table streams = { "stream", { .size = sizeof(struct sum) } };
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

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	const char *prefix = "", *onlykind = NULL;
	const char *outpath = NULL;	/* -o: the facts there, not stdout */
	int64_t count = 0, ns = 0, start = INT64_MAX, end = 0, len;
	int ch, bystream = 0;

	while ((ch = getopt_long(argc, argv, "hk:o:p:s", helpopt,
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
		case 'p':
			prefix = optarg;
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

	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	if (outpath != NULL)
		out_stdout(outpath);
	while (ivin_next(&in, &iv)) {
		if (onlykind != NULL) {
			if (!iv.full)
				errx(1, "%s: -k needs full interval lines; "
				    "this one is bare", lines_at(&in.in));
			if (strcmp(iv.kind, onlykind) != 0)
				continue;
		}
		len = iv.end - iv.start;
		/* Every other sum is part of this one: one check does. */
		if (len > INT64_MAX - ns)
			errx(1, "%s: the sum of ns overflows 64 bits",
			    lines_at(&in.in));
		ns += len;
		count++;
		if (iv.start < start)
			start = iv.start;
		if (iv.end > end)
			end = iv.end;
		if (!iv.full)
			continue;
		add(&kinds, iv.kind, NULL, len, &in.in);
		if (strcmp(iv.category, "-") != 0)
			add(&categories, iv.category, NULL, len, &in.in);
		if (bystream && strcmp(iv.kind, "kernel") == 0)
			add(&streams, iv.device, iv.stream, len, &in.in);
	}
	ivin_close(&in);

	put_fact(prefix, "count", count);
	put_fact(prefix, "ns", ns);
	if (count > 0) {
		put_fact(prefix, "start", start);
		put_fact(prefix, "end", end);
		put_fact(prefix, "span_ns", end - start);
	}
	put_table(prefix, &kinds);
	put_table(prefix, &categories);
	put_table(prefix, &streams);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: tally [-hs] [-k kind] [-o output] [-p prefix] [file]\n", status);
}
