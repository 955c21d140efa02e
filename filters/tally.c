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
/* Hash slots of a table: a power of two, never more than half full. */
#define NSLOTS		(2 * MAXNAMES)

/* The lines of one kind, category, or device and stream. */
struct sum {
	char		*name;		/* as in the keys: "kernel", "0.7" */
	uint32_t	 hash;
	int64_t		 count;
	int64_t		 ns;
};

/* Sums by name in first-seen order, found through an open hash. */
struct table {
	const char	*what;		/* the first part of its keys */
	struct sum	 sums[MAXNAMES];
	size_t		 n;
	uint16_t	 slots[NSLOTS];	/* 1 + index into sums; 0: empty */
};

/* Sums by kind, by category, and of kernels by device and stream. */
static struct table kinds = { .what = "kind" };
static struct table categories = { .what = "category" };
static struct table streams = { .what = "stream" };

static _Noreturn void usage(int);

/* FNV-1a of s, going on from h. */
static uint32_t
hash(uint32_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Whether name is a, or a "." b where b is not NULL. */
static int
same(const char *name, const char *a, const char *b)
{
	for (; *a != '\0' && *name == *a; name++, a++)
		;
	if (*a != '\0')
		return 0;
	if (b == NULL)
		return *name == '\0';
	return *name == '.' && strcmp(name + 1, b) == 0;
}

/* A part of a key holds letters, digits, _ and -: a dot would split it. */
static void
checkpart(const char *what, const char *s, const struct lines *at)
{
	if (*s == '\0' || s[strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] != '\0')
		errx(1, "%s:%lu: %s \"%.40s\" cannot be part of a fact key: "
		    "letters, digits, _ and - only", at->path, at->lineno,
		    what, s);
}

/* The sum named a, or a "." b, added to t on first sight. */
static struct sum *
lookup(struct table *t, const char *a, const char *b, const struct lines *at)
{
	struct sum *s;
	uint32_t h;
	size_t i;
	int n;

	h = hash(2166136261u, a);
	if (b != NULL)
		h = hash(hash(h, "."), b);
	for (i = h % NSLOTS; t->slots[i] != 0; i = (i + 1) % NSLOTS) {
		s = &t->sums[t->slots[i] - 1];
		if (s->hash == h && same(s->name, a, b))
			return s;
	}
	if (t->n == MAXNAMES)
		errx(1, "%s:%lu: more than %d distinct names in %s keys",
		    at->path, at->lineno, MAXNAMES, t->what);
	if (b == NULL) {
		checkpart(t->what, a, at);
		n = asprintf(&t->sums[t->n].name, "%s", a);
	} else {
		checkpart("device", a, at);
		checkpart(t->what, b, at);
		n = asprintf(&t->sums[t->n].name, "%s.%s", a, b);
	}
	if (n == -1)
		err(1, NULL);
	s = &t->sums[t->n++];
	s->hash = h;
	t->slots[i] = t->n;
	return s;
}

static void
add(struct sum *s, int64_t ns)
{
	s->count++;
	s->ns += ns;
}

/* Facts WHAT.NAME.count and WHAT.NAME.ns for each name, in first-seen order. */
static void
put_table(const char *prefix, const struct table *t)
{
	char *stem;
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (asprintf(&stem, "%s%s.%s.", prefix, t->what,
		    t->sums[i].name) == -1)
			err(1, NULL);
		put_fact(stem, "count", t->sums[i].count);
		put_fact(stem, "ns", t->sums[i].ns);
		free(stem);
	}
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	const char *prefix = "", *onlykind = NULL;
	int64_t count = 0, ns = 0, start = INT64_MAX, end = 0, len;
	int ch, bystream = 0;

	while ((ch = getopt_long(argc, argv, "hk:p:s", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'k':
			onlykind = optarg;
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
	while (ivin_next(&in, &iv)) {
		if (onlykind != NULL) {
			if (!iv.full)
				errx(1, "%s:%lu: -k needs full interval lines; "
				    "this one is bare", in.in.path,
				    in.in.lineno);
			if (strcmp(iv.kind, onlykind) != 0)
				continue;
		}
		len = iv.end - iv.start;
		/* Every other sum is part of this one: one check does. */
		if (len > INT64_MAX - ns)
			errx(1, "%s:%lu: the sum of ns overflows 64 bits",
			    in.in.path, in.in.lineno);
		ns += len;
		count++;
		if (iv.start < start)
			start = iv.start;
		if (iv.end > end)
			end = iv.end;
		if (!iv.full)
			continue;
		add(lookup(&kinds, iv.kind, NULL, &in.in), len);
		if (strcmp(iv.category, "-") != 0)
			add(lookup(&categories, iv.category, NULL, &in.in),
			    len);
		if (bystream && strcmp(iv.kind, "kernel") == 0)
			add(lookup(&streams, iv.device, iv.stream, &in.in),
			    len);
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
	usage_exit("usage: tally [-hs] [-k kind] [-p prefix] [file]\n", status);
}
