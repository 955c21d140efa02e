/*
 * gapstat: the reference's launch-gap statistics of an interval stream
 * sorted by start, or with -u those of the idle gaps between its union.
 * See gapstat(1).
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "h3prof.h"

/* The positive gaps, kept for -q only. */
static int64_t	*gaps;
/* Gaps held in gaps, and room for how many. */
static size_t	 ngaps, gapscap;
/* Bins of -b, ten a decade: bin k holds the gaps below edge[k] and not
   below edge[k - 1] (1 for k = 0), their count and their sum. */
#define NBINS		189
static int64_t	 edge[NBINS], bincount[NBINS], binns[NBINS];

static _Noreturn void usage(int);

static void
keep(int64_t gap)
{
	if (ngaps == gapscap) {
		gapscap = gapscap ? 2 * gapscap : 4096;
		if ((gaps = reallocarray(gaps, gapscap, sizeof(*gaps))) == NULL)
			err(1, NULL);
	}
	gaps[ngaps++] = gap;
}

static int
cmpgap(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Count a gap in its bin of -b. */
static void
bin(int64_t gap)
{
	size_t lo = 0, hi = NBINS - 1, mid;

	while (lo < hi) {	/* the first edge above the gap */
		mid = (lo + hi) / 2;
		if (edge[mid] > gap)
			hi = mid;
		else
			lo = mid + 1;
	}
	bincount[lo]++;
	binns[lo] += gap;
}

/* The p-th percentile of the sorted gaps by nearest rank, 0 if none. */
static int64_t
percentile(size_t p)
{
	if (ngaps == 0)
		return 0;
	return gaps[(p * ngaps + 99) / 100 - 1];
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	char avg[PYFLOAT_MAX];
	const char *prefix = "", *kind = NULL;
	const char *binpath = NULL;	/* -B: the bins as a table, there */
	const char *outpath = NULL;	/* -o: the facts there, not stdout */
	FILE *binfp = NULL;
	int64_t start = 0, end = 0, gap, count = 0, total = 0, max = 0;
	int ch, idle = 0, quantiles = 0, bins = 0, first = 1;
	size_t k;
	char key[48];

	while ((ch = getopt_long(argc, argv, "B:bhk:o:p:qu", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'B':
			binpath = optarg;
			bins = 1;
			break;
		case 'b':
			bins = 1;
			break;
		case 'h':
			usage(0);
		case 'k':
			kind = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'q':
			quantiles = 1;
			break;
		case 'u':
			idle = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);
	/* 10^((k + 1) / 10) rounded: the last, 10^18.9, is below 2^63. */
	for (k = 0; k < NBINS; k++)
		edge[k] = llround(pow(10, (k + 1) / 10.0));

	/*
	 * Gaps lie between runs of intervals.  The reference takes each gap
	 * from the end of the interval before in (start, end) order, and
	 * between intervals of one start that gap is never positive: a run
	 * is the intervals of one start, ending where the longest ends.
	 * With -u a run is a union interval, as merge(1) builds it.
	 */
	ivin_open(&in, argc == 1 ? argv[0] : "-", 1);
	in.kind = kind;
	if (outpath != NULL)
		out_stdout(outpath);
	if (binpath != NULL)
		binfp = out_open(binpath);
	while (ivin_next(&in, &iv)) {
		if (!first && (idle ? iv.start <= end : iv.start == start)) {
			if (iv.end > end)
				end = iv.end;
			continue;
		}
		/* Gaps never overlap in time, so total cannot overflow. */
		if (!first && iv.start > end) {
			gap = iv.start - end;
			count++;
			total += gap;
			if (gap > max)
				max = gap;
			if (quantiles)
				keep(gap);
			if (bins)
				bin(gap);
		}
		start = iv.start;
		end = iv.end;
		first = 0;
	}
	ivin_close(&in);

	put_fact(prefix, "count", count);
	put_fact(prefix, "total_ns", total);
	put_fact(prefix, "max_ns", max);
	/* As the reference: the integer 0 when there is no gap. */
	if (count == 0)
		put_fact(prefix, "average_ns", 0);
	else {
		pyfloat(avg, pydiv(total, count));
		printf("%saverage_ns\t%s\n", prefix, avg);
	}
	if (quantiles) {
		if (ngaps > 0)		/* qsort(3) takes no null pointer */
			qsort(gaps, ngaps, sizeof(*gaps), cmpgap);
		put_fact(prefix, "p50_ns", percentile(50));
		put_fact(prefix, "p90_ns", percentile(90));
		put_fact(prefix, "p99_ns", percentile(99));
	}
	/* The table of -B, as h3prof(5)'s gapbins.tsv: the facts' bins. */
	if (binfp != NULL) {
		fputs("edge_ns\tcount\ttotal_ns\n", binfp);
		for (k = 0; k < NBINS; k++)
			if (bincount[k] != 0)
				fprintf(binfp, "%lld\t%lld\t%lld\n",
				    (long long)edge[k], (long long)bincount[k],
				    (long long)binns[k]);
		out_close(binfp, binpath);
	}
	for (k = 0; bins && binfp == NULL && k < NBINS; k++) {
		if (bincount[k] == 0)
			continue;
		snprintf(key, sizeof(key), "bin.%lld.count",
		    (long long)edge[k]);
		put_fact(prefix, key, bincount[k]);
		snprintf(key, sizeof(key), "bin.%lld.ns", (long long)edge[k]);
		put_fact(prefix, key, binns[k]);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: gapstat [-bhqu] [-B bins] [-k kind] [-o output] [-p prefix] [file]\n",
	    status);
}
