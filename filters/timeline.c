/*
 * timeline: the kernels of an interval stream sorted by start, drawn
 * into pixel columns: for each device and stream, the runs of columns
 * in which one category had the most kernel time.  See timeline(1).
 */
#include <err.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Widest strip, in columns: far beyond any screen. */
#define MAXWIDTH	100000
/* Distinct lanes and categories: a trace has a handful of each. */
#define MAXNAMES	1024

/* A device and stream: its kernel ns by category and column. */
struct lane {
	struct group	 name;		/* "device\tstream" */
	int64_t		*ns;		/* ns[category * width + column] */
};

/* The lanes and the categories, in first-seen order. */
static struct groups lanes = { .size = sizeof(struct lane) };
static struct groups categories = { .size = sizeof(struct group) };
/* Categories each lane's ns has room for. */
static size_t catcap;
/* Columns of the strip, and the ns each covers. */
static int64_t width = 1000, colns;
/* The device and stream of the line at hand: shorter than the line. */
static char lanename[H3_MAXLINE];

static _Noreturn void usage(int);

/* Make room in every lane for category number n. */
static void
growcategories(size_t n)
{
	struct lane *l = lanes.recs;
	size_t i, newcap;

	if (n < catcap)
		return;
	newcap = catcap ? 2 * catcap : 8;
	for (i = 0; i < lanes.n; i++) {
		l[i].ns = reallocarray(l[i].ns, newcap * width, sizeof(int64_t));
		if (l[i].ns == NULL)
			err(1, NULL);
		memset(l[i].ns + catcap * width, 0,
		    (newcap - catcap) * width * sizeof(int64_t));
	}
	catcap = newcap;
}

static struct lane *
getlane(const struct interval *iv, const struct lines *at)
{
	struct lane *l;
	size_t dlen = strlen(iv->device), slen = strlen(iv->stream);

	memcpy(lanename, iv->device, dlen);
	lanename[dlen] = '\t';
	memcpy(lanename + dlen + 1, iv->stream, slen);
	l = groups_get(&lanes, lanename, dlen + 1 + slen);
	if (l->ns == NULL) {
		if (lanes.n > MAXNAMES)
			errx(1, "%s: more than %d devices and streams",
			    lines_at(at), MAXNAMES);
		if (catcap == 0)
			catcap = 8;
		if ((l->ns = calloc(catcap * width, sizeof(int64_t))) == NULL)
			err(1, NULL);
	}
	return l;
}

static size_t
getcategory(const char *name, const struct lines *at)
{
	struct group *g;
	size_t n = categories.n;

	g = groups_get(&categories, name, strlen(name));
	if (categories.n > n) {
		if (categories.n > MAXNAMES)
			errx(1, "%s: more than %d categories", lines_at(at),
			    MAXNAMES);
		growcategories(n);
	}
	return g - (struct group *)categories.recs;
}

/* Add the kernel time from start to end, ns from the origin, to a lane. */
static void
add(struct lane *l, size_t cat, int64_t start, int64_t end)
{
	int64_t c, from, to, *ns = l->ns + cat * width;

	if (end > width * colns)	/* past the span it was given */
		end = width * colns;
	for (c = start / colns; c * colns < end; c++) {
		from = c * colns > start ? c * colns : start;
		to = (c + 1) * colns < end ? (c + 1) * colns : end;
		ns[c] += to - from;
	}
}

/* A device or stream number before a name, then names in byte order. */
static int
cmppart(const char *a, size_t alen, const char *b, size_t blen)
{
	int an = alen > 0 && strspn(a, "0123456789") == alen;
	int bn = blen > 0 && strspn(b, "0123456789") == blen;
	int c;

	if (an != bn)
		return bn - an;
	if (an && alen != blen)		/* no leading zeros in numbers */
		return (alen > blen) - (alen < blen);
	c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : (alen > blen) - (alen < blen);
}

static int
cmplane(const void *pa, const void *pb)
{
	const struct lane *a = pa, *b = pb;
	const char *at = strchr(a->name.key, '\t');
	const char *bt = strchr(b->name.key, '\t');
	int c;

	c = cmppart(a->name.key, at - a->name.key, b->name.key,
	    bt - b->name.key);
	if (c)
		return c;
	return cmppart(at + 1, strlen(at + 1), bt + 1, strlen(bt + 1));
}

/* The category with the most ns in column c, ties to the first name; -1 if none. */
static long
dominant(const struct lane *l, int64_t c)
{
	const struct group *cats = categories.recs;
	long best = -1;
	size_t i;
	int64_t ns;

	for (i = 0; i < categories.n; i++) {
		ns = l->ns[i * width + c];
		if (ns == 0)
			continue;
		if (best == -1 || ns > l->ns[best * width + c] ||
		    (ns == l->ns[best * width + c] &&
		    strcmp(cats[i].key, cats[best].key) < 0))
			best = i;
	}
	return best;
}

/* Each lane's runs of columns of one dominant category. */
static void
put_lanes(void)
{
	const struct group *cats = categories.recs;
	struct lane *l = lanes.recs;
	size_t i;
	int64_t c, first = 0;
	long cat, runcat;

	if (lanes.n > 0)	/* qsort(3) takes no null pointer */
		qsort(l, lanes.n, sizeof(*l), cmplane);
	for (i = 0; i < lanes.n; i++) {
		runcat = -1;
		for (c = 0; c <= width; c++) {
			cat = c < width ? dominant(&l[i], c) : -1;
			if (cat == runcat)
				continue;
			if (runcat != -1)
				printf("%zu\t%s\t%" PRId64 "\t%" PRId64 "\t%s\n",
				    i, l[i].name.key, first * colns, c * colns,
				    cats[runcat].key);
			runcat = cat;
			first = c;
		}
	}
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	struct lane *l;
	int64_t origin = 0, span = -1;
	const char *outpath = NULL;	/* -o: the lanes there, not stdout */
	int ch, first = 1, header = 0;
	size_t cat;

	while ((ch = getopt_long(argc, argv, "Hhl:o:w:", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'H':
			header = 1;
			break;
		case 'h':
			usage(0);
		case 'l':
			if (parse_ns(optarg, &span) == -1)
				errx(EXIT_USAGE, "-l %s: not a span in ns",
				    optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'w':
			if (parse_ns(optarg, &width) == -1 || width < 1 ||
			    width > MAXWIDTH)
				errx(EXIT_USAGE, "-w %s: not a width from 1 to "
				    "%d columns", optarg, MAXWIDTH);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || span < 0)
		usage(EXIT_USAGE);
	/* Columns of whole ns that cover the span, at least 1 ns each. */
	colns = span / width + (span % width != 0);
	if (colns == 0)
		colns = 1;
	/* The columns' ends, up to width * colns, are int64_t. */
	if (colns > INT64_MAX / width)
		errx(EXIT_USAGE, "span %lld: too long for %lld columns",
		    (long long)span, (long long)width);

	ivin_open(&in, argc == 1 ? argv[0] : "-", 1);
	if (outpath != NULL)
		out_stdout(outpath);
	buffer_stdout();
	/* -H: the table's header, as the run page's strip.tsv has it. */
	if (header)
		fputs("lane\tdevice\tstream\tstart_ns\tend_ns\tcategory\n",
		    stdout);
	while (ivin_next(&in, &iv)) {
		if (!iv.full)
			errx(1, "%s: timeline needs full interval lines; "
			    "this one is bare", lines_at(&in.in));
		if (first) {
			origin = iv.start;
			first = 0;
		}
		if (strcmp(iv.kind, "kernel") != 0)
			continue;
		/* The lane first: a new category grows the lanes there are. */
		l = getlane(&iv, &in.in);
		cat = getcategory(iv.category, &in.in);
		add(l, cat, iv.start - origin, iv.end - origin);
	}
	ivin_close(&in);
	put_lanes();
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: timeline [-hH] [-o output] [-w width] -l span [file]\n", status);
}
