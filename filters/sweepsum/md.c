/*
 * sweepsum: summary.md, for a person and a pull-request comment: the
 * headline, the configurations fastest first, their differences from
 * the fastest, their kernels in other, warnings and failed runs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* Categories summary.md names for each configuration's difference. */
#define MAXWHY		3
/* Cells of a table row begin and end so. */
#define CELL	" | "

/* The figure of a run named name, NaN where it has none. */
static double
runfig(const struct run *r, const char *name)
{
	const struct name *f;
	size_t i;

	if ((f = groups_find(&figs, name, strlen(name))) == NULL)
		return NAN;
	for (i = 0; i < r->nvals; i++)
		if (r->vals[i].fig == f->index)
			return r->vals[i].isnull ? NAN : r->vals[i].v;
	return NAN;
}

/*
 * The runs whose report says their CUDA graph launches hide their
 * kernels (reportjson(1) graphs): their category tables miss those
 * kernels, which the summary's figures cannot show.
 */
static void
graphwarnings(FILE *fp)
{
	const struct run *r;
	double hidden;
	int any = 0;

	for (r = runs; r < runs + nreports; r++) {
		hidden = runfig(r, "graphs.launches_without_kernels");
		if (!(hidden > 0))
			continue;
		if (!any++)
			fputs("## Warnings\n\n", fp);
		fputs("- ", fp);
		mdtext(fp, r->name, r->namelen, 0);
		fputs(": ", fp);
		putnum(fp, hidden);
		fputs(" of ", fp);
		putnum(fp, runfig(r, "graphs.launches"));
		fputs(" CUDA graph launches show none of their kernels: the "
		    "category table misses them; profile with "
		    "`--cuda-graph-trace=node` to see them.\n", fp);
	}
	if (any)
		putc('\n', fp);
}

/*
 * A kernel name shortened: without a leading "void " and the parameter
 * list at its end, cut to 72 characters; ` as '.  Characters counted as
 * jq counts them, a byte that is not UTF-8 as one.
 */
void
shortname(FILE *fp, const char *s, size_t len)
{
	const char *end, *p, *at = NULL, *cut;
	uint32_t cp;
	size_t n, count;
	int depth = 0, bad;
	char *buf, *b;

	if (len >= 5 && memcmp(s, "void ", 5) == 0) {
		s += 5;
		len -= 5;
	}
	end = s + len;
	if (len > 0 && end[-1] == ')') {
		for (p = end - 1; p >= s; p--)
			if (*p == ')')
				depth++;
			else if (*p == '(' && --depth == 0) {
				at = p;
				break;
			}
		if (at != NULL && at > s)
			end = at;
	}
	for (p = s, count = 0, cut = NULL; p < end; p += n, count++) {
		if (count == 71)
			cut = p;
		n = character(p, end, &cp, &bad);
	}
	if (count > 72)
		end = cut;
	buf = copy(s, end - s);
	for (b = buf; b < buf + (end - s); b++)
		if (*b == '`')
			*b = '\'';
	mdtext(fp, buf, end - s, MD_CELL | MD_CODE);
	if (count > 72)
		fputs("…", fp);
	free(buf);
}

/* The runs of a group, by name, or by count and range when many. */
static void
runsnamed(FILE *fp, const struct conf *g)
{
	size_t i;

	if (g->n <= 4) {
		fprintf(fp, "%zu run%s: ", g->n, g->n > 1 ? "s" : "");
		for (i = 0; i < g->n; i++) {
			if (i > 0)
				fputs(", ", fp);
			mdtext(fp, g->runs[i]->name, g->runs[i]->namelen,
			    MD_CELL);
		}
	} else {
		fprintf(fp, "%zu runs: ", g->n);
		mdtext(fp, g->runs[0]->name, g->runs[0]->namelen, MD_CELL);
		fputs(" … ", fp);
		mdtext(fp, g->runs[g->n - 1]->name,
		    g->runs[g->n - 1]->namelen, MD_CELL);
	}
}

/* A difference of time in ms, signed, in ms or below 1 ms in µs, with
   three digits or so. */
static void
putdelta(FILE *fp, double ms)
{
	double v = fabs(ms) >= 1 ? fabs(ms) : fabs(ms) * 1000;

	putc(ms < 0 ? '-' : '+', fp);
	fixed(fp, v, v >= 100 ? 0 : v >= 10 ? 1 : 2);
	fputs(fabs(ms) >= 1 ? " ms " : " µs ", fp);
}

/* What differs from the fastest: each group's test and categories. */
static void
differences(FILE *fp)
{
	const struct conf *g;
	const struct group *k;
	size_t i, j, namelen;

	fputs("## Differences from the fastest\n\n"
	    "Against the fastest, ", fp);
	named(fp, bytime[0]);
	fputs(": each configuration's GPU span (Welch's t-test of its runs' "
	    "spans against the fastest's, within noise where p ≥ 0.05), "
	    "then the categories whose time per run differs most, largest "
	    "first; all of them are in summary.json (groups[].why).\n\n",
	    fp);
	for (i = 1; i < ntimed; i++) {
		g = bytime[i];
		fputs("- ", fp);
		named(fp, g);
		fputs(": ", fp);
		against(fp, g);
		if (g->nwhy == 0)
			fputs("; no category's time differs", fp);
		/* A category of less than 1% of the largest difference
		   explains nothing. */
		for (j = 0; j < g->nwhy && j < MAXWHY && !(fabs(g->why[j].ms) <
		    fabs(g->why[0].ms) / 100); j++) {
			fputs(j == 0 ? ": " : ", ", fp);
			putdelta(fp, g->why[j].ms);
			k = groups_nth(&figs, g->why[j].fig);
			category(k->key, k->keylen, &namelen);
			mdtext(fp, k->key + 11, namelen, MD_CELL);
			if (isnan(g->why[j].pct))
				fputs(" (none in the fastest)", fp);
			else {
				fputs(" (", fp);
				if (g->why[j].pct >= 0)
					putc('+', fp);
				fixed(fp, g->why[j].pct,
				    fabs(g->why[j].pct) >= 10 ? 0 : 1);
				fputs("%)", fp);
			}
		}
		fputs("\n", fp);
	}
	putc('\n', fp);
}

/* Whether any group has a verdict: whether the table shows accounts. */
static int
anyverdict(void)
{
	size_t i;

	for (i = 0; i < confs.n; i++)
		if (byname[i]->verdict != NULL)
			return 1;
	return 0;
}

/*
 * The table of the configurations, fastest first, with the category
 * figures cats; where a group has a time account, its idle split and
 * verdict too, and where none has, not those columns.
 */
static void
configurations(FILE *fp, const size_t *cats, size_t ncats)
{
	struct conf **sorted = bytime, *g;
	const struct stats *span;
	const struct group *k;
	size_t namelen, i, j;
	int account = anyverdict(), c;

	fputs("## Configurations\n\n"
	    "Fastest first: the mean over the runs of a configuration, "
	    "± the sample standard deviation; × fastest is the ratio "
	    "of GPU spans. Every figure is in groups.csv, every run in "
	    "summary.csv.", fp);
	/* On a line of its own, in the same paragraph: no line of
	   summary.md grows long. */
	if (account)
		fputs("\nIdle ms splits by cause as the time account tells it "
		    "(account(1)): host-bound (the CPU launched late), in the "
		    "launch call, queued (an event, another stream, a sync) and "
		    "unknown; the verdict is the account's rule applied to these "
		    "means. Both are empty where a configuration's runs have no "
		    "time account.", fp);
	fputs("\n\n| configuration | n | GPU span ms | × fastest | kernel ms "
	    "| kernel busy union %", fp);
	for (i = 0; i < ncats; i++) {
		k = groups_nth(&figs, cats[i]);
		category(k->key, k->keylen, &namelen);
		fputs(CELL, fp);
		mdtext(fp, k->key + 11, namelen, MD_CELL);
		if (k->key[k->keylen - 1] == '\n')
			putc(' ', fp);
		fputs(" ms", fp);
	}
	fputs(" | idle ms", fp);
	if (account)
		fputs(" | host-bound ms | in launch call ms | queued ms "
		    "| unknown ms | verdict", fp);
	fputs(" |\n| --- |", fp);
	for (i = 0; i < 6 + ncats + (account ? 4 : 0); i++)
		fputs(" ---: |", fp);
	if (account)
		fputs(" --- |", fp);
	putc('\n', fp);
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		fputs("| ", fp);
		named(fp, g);
		fprintf(fp, CELL "%zu" CELL, g->n);
		if ((span = groupfig(g, "gpu_span_ns")) != NULL &&
		    !isnan(span->mean)) {
			fixed(fp, span->mean / 1e6, 3);
			if (!isnan(span->stddev)) {
				fputs(" ± ", fp);
				fixed(fp, span->stddev / 1e6, 3);
			}
		}
		fputs(CELL, fp);
		fixed(fp, g->ratio, 3);
		fputs(CELL, fp);
		fixed(fp, mean(g, "kernel_time_ns") / 1e6, 3);
		fputs(CELL, fp);
		fixed(fp, mean(g, "kernel_busy_union_percent"), 1);
		for (j = 0; j < ncats; j++) {
			fputs(CELL, fp);
			span = groupstats(g, cats[j]);
			fixed(fp, span == NULL ? NAN : span->mean, 3);
		}
		fputs(CELL, fp);
		fixed(fp, mean(g, "idle_gaps.total_ns") / 1e6, 3);
		if (account) {
			for (c = 0; c < 4; c++) {
				fputs(CELL, fp);
				fixed(fp, idlesplit(g, c) / 1e6, 3);
			}
			fputs(CELL, fp);
			if (g->verdict != NULL)
				mdtext(fp, g->verdict, g->verdictlen, MD_CELL);
		}
		fputs(" |\n", fp);
	}
	putc('\n', fp);
}

void
putsummarymd(FILE *fp)
{
	struct conf **sorted = bytime, *g;
	const struct run *r;
	size_t *cats, ncats, single, i, j;
	double other, pct;

	cats = categories(&ncats);
	for (i = single = 0; i < confs.n; i++)
		single += sorted[i]->n == 1;
	fprintf(fp, "# Sweep summary\n\n%zu runs reduced, %zu failed, %zu "
	    "configurations, %zu of them of a single run.\n\n", nreports,
	    nruns - nreports, confs.n, single);
	headline(fp, 1);
	fputs("\n\n", fp);
	puteffectsmd(fp);
	if (confs.n > 0)
		configurations(fp, cats, ncats);
	if (ntimed > 1)
		differences(fp);
	if (confs.n > 0)
		fputs("## Kernels in other\n\n"
		    "For each configuration, the kernels of category other with "
		    "the most time among the top ten of its runs: ms and "
		    "launches per run (0 in a run where the kernel is not in "
		    "the top ten), and percent of the time in other.  Full "
		    "names are in summary.json (groups[].other_kernels).\n\n",
		    fp);
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		fputs("### ", fp);
		named(fp, g);
		fputs("\n\n", fp);
		runsnamed(fp, g);
		fputs(".\n\n", fp);
		other = mean(g, "components.other.milliseconds");
		if (isnan(other) || !(other > 0))
			fputs("No time in other.\n", fp);
		else if (g->nothers == 0) {
			fputs("other: ", fp);
			fixed(fp, other, 3);
			fputs(" ms, in kernels outside the top ten.\n", fp);
		} else {
			for (j = 0, pct = 0; j < g->nothers; j++)
				pct = j == 0 ? g->otherpct[0] :
				    pct + g->otherpct[j];
			fputs("other: ", fp);
			fixed(fp, other, 3);
			fputs(" ms; these kernels carry ", fp);
			fixed(fp, pct, 1);
			fputs("% of it.\n\n| kernel | ms | % of other | "
			    "launches |\n| --- | ---: | ---: | ---: |\n", fp);
			for (j = 0; j < g->nothers; j++) {
				fputs("| `", fp);
				shortname(fp, g->others[j].name,
				    g->others[j].namelen);
				fputs("`" CELL, fp);
				fixed(fp, g->others[j].ns / 1e6, 3);
				fputs(CELL, fp);
				fixed(fp, g->otherpct[j], 1);
				fputs(CELL, fp);
				if (g->others[j].launches ==
				    floor(g->others[j].launches))
					putnum(fp, g->others[j].launches);
				else
					fixed(fp, g->others[j].launches, 1);
				fputs(" |\n", fp);
			}
		}
		putc('\n', fp);
	}
	graphwarnings(fp);
	if (nruns > nreports)
		fputs("## Failed runs\n\n", fp);
	for (r = runs + nreports; r < runs + nruns; r++) {
		fputs("- ", fp);
		mdtext(fp, r->name, r->namelen, 0);
		fputs(": ", fp);
		j = r->errorlen;
		if (j > 0 && r->error[j - 1] == '\n')
			j--;
		mdtext(fp, r->error, j, MD_NEWLINE);
		putc('\n', fp);
	}
	free(cats);
}
