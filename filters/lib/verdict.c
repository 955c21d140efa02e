/*
 * verdict.c: the verdict of a time account, for account(1) of a run and
 * sweepsum(1) of a configuration.  One rule in one place, so that a
 * configuration of one run has its run's verdict, word for word.
 */
#include <math.h>
#include <stdio.h>

#include "h3prof.h"

const char verdict_rule[] = "communication-exposed if exposed "
    "communication is 10% of the span or more and no less than the "
    "copies; else copy-exposed if copies not under compute are 10% or "
    "more; else GPU-bound if idle is below 10%; else launch-bound if "
    "host-bound and in-call idle are half of idle or more; else waiting "
    "if queued idle is half or more; else the idle split";

/* A percent of a / b, 0 where b is 0. */
static double
pct(double a, double b)
{
	return b == 0 ? 0 : 100.0 * a / b;
}

/*
 * The line, by verdict_rule: the first that holds.  The tests compare
 * as account(1) did in integers, exact in doubles for any span below
 * 2^53 / 10 ns (10 days); a count of a mean that is no integer has a
 * decimal.
 */
void
verdict_write(FILE *fp, const struct verdict_figures *v)
{
	double span = v->span_ns, idle = v->idle_ns;

	if (span == 0)
		fprintf(fp, "empty: no GPU time");
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
		fprintf(fp, "GPU-bound: idle %.0f%%", pct(idle, span));
	else if (2 * (v->idle_host_ns + v->idle_launch_ns) >= idle)
		fprintf(fp, "launch-bound: idle %.0f%%, %.0f%% of it host-bound "
		    "and %.0f%% in the launch call; %.*f kernels shorter than "
		    "their launch call", pct(idle, span),
		    pct(v->idle_host_ns, idle), pct(v->idle_launch_ns, idle),
		    v->short_kernels == floor(v->short_kernels) ? 0 : 1,
		    v->short_kernels);
	else if (2 * v->idle_queued_ns >= idle)
		fprintf(fp, "waiting: idle %.0f%%, %.0f%% of it queued (events, "
		    "other streams, syncs)", pct(idle, span),
		    pct(v->idle_queued_ns, idle));
	else
		fprintf(fp, "idle %.0f%%: host-bound %.0f%%, in the launch call "
		    "%.0f%%, queued %.0f%%, unknown %.0f%%", pct(idle, span),
		    pct(v->idle_host_ns, idle), pct(v->idle_launch_ns, idle),
		    pct(v->idle_queued_ns, idle), pct(v->idle_unknown_ns, idle));
}
