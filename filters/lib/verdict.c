/*
 * verdict.c: the verdict of a time account, for account(1) of a run and
 * sweepsum(1) of a configuration.  One rule in one place, so that a
 * configuration of one run has its run's verdict, word for word.
 *
 * The rule reads the idle time by the length of its gaps, not their
 * number: a few long gaps are the CPU away (data loading, Python, I/O),
 * where CUDA graphs do not help; many short ones are the cost of each
 * kernel, where graphs or fusion do.  It was calibrated on the real
 * traces of tests/verdict.test.
 */
#include <math.h>
#include <stdio.h>

#include "h3prof.h"

const char *const gaplen_name[NGAPLEN] = { "short", "medium", "long" };
const char *const gapcause_name[NGAPCAUSE] = {
	"host", "launch", "queued", "unknown"
};

const char verdict_rule[] = "the first that holds: empty (a span of 0); "
    "no kernels; communication-exposed (exposed communication 10% of the "
    "span or more, and no less than the copies); copy-exposed (copies not "
    "under compute 10% or more); GPU-bound (idle below 10%); host-bound "
    "(half of idle or more in gaps of 1 ms or more whose call came late "
    "or was running); sync-bound (half or more in gaps of 10 µs or more "
    "queued in time); launch-bound (half or more in gaps under 10 µs, or "
    "under 1 ms whose call came late or was running); else idle, split by "
    "length and cause";

/* A percent of a / b, 0 where b is 0. */
static double
pct(double a, double b)
{
	return b == 0 ? 0 : 100.0 * a / b;
}

/* A count, rounded, its thousands set apart by commas: 9,925. */
static void
count(FILE *fp, double n)
{
	char buf[32];
	int len, i;

	len = snprintf(buf, sizeof(buf), "%.0f", n);
	for (i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			putc(',', fp);
		putc(buf[i], fp);
	}
}

/* A count of things named one or many as it rounds, and "per run" where
   it is a mean of runs'. */
static void
counted(FILE *fp, const struct verdict_figures *v, double n,
    const char *one, const char *many)
{
	count(fp, n);
	putc(' ', fp);
	fputs(n >= 0.5 && n < 1.5 ? one : many, fp);
	if (v->means)
		fputs(" per run", fp);
}

/* A time in the unit that suits it, to three digits: 4.1 µs, 1.2 s. */
static void
duration(FILE *fp, double ns)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	int u;

	for (u = 0; u < 3 && fabs(ns) >= 999.5; u++)
		ns /= 1000;
	fprintf(fp, fabs(ns) >= 999.5 ? "%.0f %s" : "%.3g %s", ns, unit[u]);
}

/* The longest gap and where it starts; of runs, its mean length. */
static void
longest(FILE *fp, const struct verdict_figures *v)
{
	fputs("; the longest ", fp);
	duration(fp, v->longest_gap_ns);
	if (v->means)
		fputs(" on average", fp);
	else {
		fputs(" at ", fp);
		duration(fp, v->longest_gap_at_ns);
	}
}

/* The sum of gap_ns, or of gap_count, over the lengths a to b, causes
   c to d. */
static double
sum(const double g[NGAPLEN][NGAPCAUSE], int a, int b, int c, int d)
{
	double s = 0;
	int i, j;

	for (i = a; i <= b; i++)
		for (j = c; j <= d; j++)
			s += g[i][j];
	return s;
}

/*
 * The line, by verdict_rule: the first that holds.  The tests compare
 * as account(1) did in integers, exact in doubles for any span below
 * 2^53 / 10 ns (10 days).
 */
void
verdict_write(FILE *fp, const struct verdict_figures *v)
{
	double span = v->span_ns, idle = v->idle_ns, late, waited, each,
	    nlate, nwaited, neach;

	/* In gaps of 1 ms or more whose call came late or was running. */
	late = sum(v->gap_ns, GAP_LONG, GAP_LONG, GAP_HOST, GAP_LAUNCH);
	nlate = sum(v->gap_count, GAP_LONG, GAP_LONG, GAP_HOST, GAP_LAUNCH);
	/* In gaps of 10 µs or more whose work was queued in time. */
	waited = sum(v->gap_ns, GAP_MEDIUM, GAP_LONG, GAP_QUEUED, GAP_QUEUED);
	nwaited = sum(v->gap_count, GAP_MEDIUM, GAP_LONG, GAP_QUEUED,
	    GAP_QUEUED);
	/* Back to back, or late by less than 1 ms: each kernel's cost. */
	each = sum(v->gap_ns, GAP_SHORT, GAP_SHORT, GAP_HOST, GAP_UNKNOWN) +
	    sum(v->gap_ns, GAP_MEDIUM, GAP_MEDIUM, GAP_HOST, GAP_LAUNCH);
	neach = sum(v->gap_count, GAP_SHORT, GAP_SHORT, GAP_HOST,
	    GAP_UNKNOWN) + sum(v->gap_count, GAP_MEDIUM, GAP_MEDIUM, GAP_HOST,
	    GAP_LAUNCH);

	if (span == 0)
		fprintf(fp, "empty: no GPU time");
	else if (v->kernels == 0)
		fprintf(fp, "no kernels: copies and memsets only, %.0f%% of "
		    "the span", pct(v->copies_ns, span));
	else if (10 * v->comm_exposed_ns >= span &&
	    v->comm_exposed_ns >= v->copies_ns)
		fprintf(fp, "communication-exposed: %.0f%% of the span is "
		    "communication not under compute; %.0f%% of it hidden",
		    pct(v->comm_exposed_ns, span), pct(v->comm_union_ns -
		    v->comm_exposed_ns, v->comm_union_ns));
	else if (10 * v->copies_ns >= span)
		fprintf(fp, "copy-exposed: %.0f%% of the span is copies not "
		    "under compute", pct(v->copies_ns, span));
	else if (10 * idle < span)
		fprintf(fp, "GPU-bound: idle %.0f%% of the span",
		    pct(idle, span));
	else if (2 * late >= idle) {
		fprintf(fp, "host-bound: idle %.0f%% of the span, %.0f%% of "
		    "it in ", pct(idle, span), pct(late, idle));
		counted(fp, v, nlate, "gap", "gaps");
		fputs(" of 1 ms or more that the CPU launched late", fp);
		longest(fp, v);
	} else if (2 * waited >= idle) {
		fprintf(fp, "sync-bound: idle %.0f%% of the span, %.0f%% of "
		    "it in ", pct(idle, span), pct(waited, idle));
		counted(fp, v, nwaited, "gap", "gaps");
		fputs(" of 10 µs or more whose work was queued in time "
		    "(events, other streams, synchronization)", fp);
		longest(fp, v);
	} else if (2 * each >= idle) {
		fprintf(fp, "launch-bound: idle %.0f%% of the span, %.0f%% of "
		    "it in ", pct(idle, span), pct(each, idle));
		counted(fp, v, neach, "gap", "gaps");
		fputs(" under 1 ms between kernels of ", fp);
		duration(fp, v->kernel_ns / v->kernels);
		fputs(" on average; launch calls of ", fp);
		duration(fp, v->call_p50_ns);
		fputs(" (median); ", fp);
		counted(fp, v, v->short_kernels, "kernel", "kernels");
		fputs(" shorter than their launch call", fp);
	} else {
		fprintf(fp, "idle: %.0f%% of the span, %.0f%% of it in gaps of "
		    "1 ms or more, %.0f%% under 10 µs; host-bound %.0f%%, in "
		    "the launch call %.0f%%, queued %.0f%%, unknown %.0f%%",
		    pct(idle, span), pct(sum(v->gap_ns, GAP_LONG, GAP_LONG,
		    GAP_HOST, GAP_UNKNOWN), idle), pct(sum(v->gap_ns,
		    GAP_SHORT, GAP_SHORT, GAP_HOST, GAP_UNKNOWN), idle),
		    pct(v->idle_host_ns, idle), pct(v->idle_launch_ns, idle),
		    pct(v->idle_queued_ns, idle), pct(v->idle_unknown_ns, idle));
		if (v->longest_gap_ns > 0)
			longest(fp, v);
	}
}
