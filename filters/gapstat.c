/*
 * gapstat: the reference's launch-gap statistics of an interval stream
 * sorted by start, or with -u those of the idle gaps between its union.
 * See gapstat(1).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Bins of -b, ten a decade: bin k holds the gaps below edge[k] and not
   below edge[k - 1] (1 for k = 0). */
#define NBINS		189
static int64_t	 edge[NBINS];

/*
 * One set of gaps: its options, and the figures of the gaps so far.
 * gapstat measures the gaps of -o's set and, with -U, the idle gaps of a
 * second set in the same pass.
 */
struct gaps {
	const char	*prefix;	/* before each key */
	int		 idle;		/* -u: between the union of intervals */
	int		 quantiles;	/* -q: keep the gaps to sort them */
	int		 bins;		/* -b or -B: count them by bin */
	int		 first;		/* no interval yet */
	int64_t		 start, end;	/* of the run of intervals at hand */
	int64_t		 count, total, max;
	int64_t		*kept;		/* the positive gaps, for -q only */
	size_t		 nkept, keptcap;
	int64_t		 bincount[NBINS], binns[NBINS];
};

static _Noreturn void usage(int);

static int
cmpgap(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Count a gap in its bin of -b. */
static void
bin(struct gaps *g, int64_t gap)
{
	size_t lo = 0, hi = NBINS - 1, mid;

	while (lo < hi) {	/* the first edge above the gap */
		mid = (lo + hi) / 2;
		if (edge[mid] > gap)
			hi = mid;
		else
			lo = mid + 1;
	}
	g->bincount[lo]++;
	g->binns[lo] += gap;
}

/* The p-th percentile of the sorted gaps by nearest rank, 0 if none. */
static int64_t
percentile(const struct gaps *g, size_t p)
{
	if (g->nkept == 0)
		return 0;
	return g->kept[(p * g->nkept + 99) / 100 - 1];
}

/*
 * Take the next interval of g's set, in start order.  Gaps lie between
 * runs of intervals.  The reference takes each gap from the end of the
 * interval before in (start, end) order, and between intervals of one
 * start that gap is never positive: a run is the intervals of one start,
 * ending where the longest ends.  With -u a run is a union interval, as
 * merge(1) builds it.
 */
static void
gaps_add(struct gaps *g, const struct interval *iv)
{
	int64_t gap;

	if (!g->first && (g->idle ? iv->start <= g->end :
	    iv->start == g->start)) {
		if (iv->end > g->end)
			g->end = iv->end;
		return;
	}
	/* Gaps never overlap in time, so total cannot overflow. */
	if (!g->first && iv->start > g->end) {
		gap = iv->start - g->end;
		g->count++;
		g->total += gap;
		if (gap > g->max)
			g->max = gap;
		if (g->quantiles) {
			g->kept = grow(g->kept, &g->keptcap, g->nkept,
			    sizeof(*g->kept));
			g->kept[g->nkept++] = gap;
		}
		if (g->bins)
			bin(g, gap);
	}
	g->start = iv->start;
	g->end = iv->end;
	g->first = 0;
}

/* The facts of g on stdout; its bins too, unless binfp takes them. */
static void
put_gaps(struct gaps *g, FILE *binfp, const char *binpath)
{
	char avg[PYFLOAT_MAX], key[48];
	size_t k;

	put_fact(g->prefix, "count", g->count);
	put_fact(g->prefix, "total_ns", g->total);
	put_fact(g->prefix, "max_ns", g->max);
	/* As the reference: the integer 0 when there is no gap. */
	if (g->count == 0)
		put_fact(g->prefix, "average_ns", 0);
	else {
		pyfloat(avg, pydiv(g->total, g->count));
		printf("%saverage_ns\t%s\n", g->prefix, avg);
	}
	if (g->quantiles) {
		if (g->nkept > 0)	/* qsort(3) takes no null pointer */
			qsort(g->kept, g->nkept, sizeof(*g->kept), cmpgap);
		put_fact(g->prefix, "p50_ns", percentile(g, 50));
		put_fact(g->prefix, "p90_ns", percentile(g, 90));
		put_fact(g->prefix, "p99_ns", percentile(g, 99));
	}
	/* The table of -B, as h3prof(5)'s gapbins.tsv: the facts' bins. */
	if (binfp != NULL) {
		fputs("edge_ns\tcount\ttotal_ns\n", binfp);
		for (k = 0; k < NBINS; k++)
			if (g->bincount[k] != 0)
				fprintf(binfp, "%lld\t%lld\t%lld\n",
				    (long long)edge[k],
				    (long long)g->bincount[k],
				    (long long)g->binns[k]);
		out_close(binfp, binpath);
	}
	for (k = 0; g->bins && binfp == NULL && k < NBINS; k++) {
		if (g->bincount[k] == 0)
			continue;
		snprintf(key, sizeof(key), "bin.%lld.count",
		    (long long)edge[k]);
		put_fact(g->prefix, key, g->bincount[k]);
		snprintf(key, sizeof(key), "bin.%lld.ns", (long long)edge[k]);
		put_fact(g->prefix, key, g->binns[k]);
	}
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	/* The gaps of -o (or stdout), and the idle gaps of -U. */
	struct gaps gaps = { .prefix = "", .first = 1 };
	struct gaps idle = { .prefix = "", .first = 1, .idle = 1,
	    .quantiles = 1 };
	const char *kind = NULL;	/* -k: the kind of -o's gaps */
	const char *binpath = NULL;	/* -B: the bins as a table, there */
	const char *outpath = NULL;	/* -o: the facts there, not stdout */
	const char *idlepath = NULL;	/* -U: the idle facts there */
	FILE *binfp = NULL;
	int ch;
	size_t k;

	while ((ch = getopt_long(argc, argv, "B:bhk:o:P:p:qU:u", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'B':
			binpath = optarg;
			break;
		case 'b':
			gaps.bins = 1;
			break;
		case 'h':
			usage(0);
		case 'k':
			kind = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'P':
			idle.prefix = optarg;
			break;
		case 'p':
			gaps.prefix = optarg;
			break;
		case 'q':
			gaps.quantiles = 1;
			break;
		case 'U':
			idlepath = optarg;
			break;
		case 'u':
			gaps.idle = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);
	/* -B's bins are those of -U's gaps where it is given. */
	if (binpath != NULL && idlepath != NULL)
		idle.bins = 1;
	else if (binpath != NULL)
		gaps.bins = 1;
	/* 10^((k + 1) / 10) rounded: the last, 10^18.9, is below 2^63. */
	for (k = 0; k < NBINS; k++)
		edge[k] = llround(pow(10, (k + 1) / 10.0));

	ivin_open(&in, argc == 1 ? argv[0] : "-", 1);
	/* With -U every line is read, for the idle gaps; the loop below
	   picks out -k's kind.  Without, the reader passes over the rest. */
	if (idlepath == NULL)
		in.kind = kind;
	if (outpath != NULL)
		out_stdout(outpath);
	if (binpath != NULL)
		binfp = out_open(binpath);
	while (ivin_next(&in, &iv)) {
		/* A bare line has no kind: -k reads it. */
		if (kind == NULL || !iv.full || strcmp(iv.kind, kind) == 0)
			gaps_add(&gaps, &iv);
		if (idlepath != NULL)
			gaps_add(&idle, &iv);
	}
	ivin_close(&in);

	if (idlepath == NULL)
		put_gaps(&gaps, binfp, binpath);
	else {
		put_gaps(&gaps, NULL, NULL);
		out_stdout_next(idlepath);
		put_gaps(&idle, binfp, binpath);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: gapstat [-bhqu] [-B bins] [-k kind] [-o output] "
	    "[-P prefix] [-p prefix] [-U output] [file]\n",
	    status);
}
