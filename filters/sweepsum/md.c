/*
 * sweepsum: summary.md, for a person and a pull-request comment: the
 * headline, the configurations fastest first, their differences from
 * the fastest, their kernels in other, warnings and failed runs.
 */
#include <err.h>
#include <inttypes.h>
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

/* The word for n things: one or many. */
static const char *
plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Names of configuration keys that often number the repeats of a run. */
static const char *const repeatlike[] = {
	"run", "runs", "rep", "reps", "repeat", "repetition", "trial", "seed",
	"iter", "iteration", "attempt", "try", "replica", "sample", NULL
};

/* The entry of run r for key number key; NULL where it has none. */
static const struct entry *
entryof(const struct run *r, size_t key)
{
	size_t i;

	for (i = 0; i < r->nconfig; i++)
		if (r->config[i].key == key)
			return &r->config[i];
	return NULL;
}

/*
 * Whether key number key of the runs looks like a repeat's number: named
 * like one (run=, iter=), or numbered 0 or 1 up to as many as there are
 * runs, all different.
 */
static int
looksrepeat(size_t key)
{
	const struct group *k = groups_nth(&keys, key);
	const struct entry *e;
	const struct run *r;
	double v, lo = INFINITY, hi = -INFINITY;
	char *end;
	size_t i;

	for (i = 0; repeatlike[i] != NULL; i++)
		if (strlen(repeatlike[i]) == k->keylen &&
		    memcmp(repeatlike[i], k->key, k->keylen) == 0)
			return 1;
	for (r = runs; r < runs + nreports; r++) {
		e = entryof(r, key);
		v = strtod(e->json, &end);
		if (e->type != '0' || end != e->json + e->jsonlen ||
		    v != floor(v))
			return 0;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	/* The runs are configurations of their own that differ in this key
	   alone: their values are all different. */
	return (lo == 0 || lo == 1) && hi - lo == (double)nreports - 1;
}

/*
 * A line where every configuration is a single run and the runs' names
 * differ in one key alone, which looks like a repeat's number: the sweep
 * was likely repeated under a key that REPEAT_KEYS does not name, and
 * its repeats are not averaged.
 */
static void
repeathint(FILE *fp)
{
	const struct run *r, *r0 = runs;
	const struct entry *e, *e0;
	const struct group *k;
	size_t i, differ = 0, key = 0;
	int same;

	if (confs.n < 2 || nreports != confs.n)
		return;
	for (i = 0; i < confs.n; i++)
		if (byname[i]->unconfigured)
			return;
	/* Every run has each key of the first, looksrepeat reads them. */
	for (i = 0; i < r0->nconfig; i++) {
		e0 = &r0->config[i];
		for (r = runs + 1, same = 1; r < runs + nreports; r++) {
			if (r->nconfig != r0->nconfig ||
			    (e = entryof(r, e0->key)) == NULL)
				return;
			same &= e->jsonlen == e0->jsonlen &&
			    memcmp(e->json, e0->json, e0->jsonlen) == 0;
		}
		if (!same) {
			differ++;
			key = e0->key;
		}
	}
	if (differ != 1 || !looksrepeat(key))
		return;
	k = groups_nth(&keys, key);
	fputs("Every configuration is a single run, and the runs' names "
	    "differ in ", fp);
	mdtext(fp, k->key, k->keylen, 0);
	fputs("= alone, which looks like a repeat's number: if it is, "
	    "`make reports REPEAT_KEYS='", fp);
	mdtext(fp, k->key, k->keylen, MD_CODE);
	fputs("'` (or `h3summary -r ", fp);
	mdtext(fp, k->key, k->keylen, MD_CODE);
	fputs("`) averages them as repeats of one configuration; the "
	    "default REPEAT_KEYS is `rep repeat trial seed`.\n\n", fp);
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

static int	anyverdict(void);

/* The parts of the time account that grew most, with their share of
   the span's difference, as make compare names them. */
static void
grewparts(FILE *fp, const struct conf *g)
{
	const char *s;
	size_t j, len;

	for (j = 0; j < g->ngrew; j++) {
		fputs(j == 0 ? "; the time account: " : ", ", fp);
		putdelta(fp, g->grew[j].change / 1e6);
		s = partname(groups_nth(&figs, g->grew[j].fig), &len);
		mdtext(fp, s, len, MD_CELL);
		if (!isnan(g->grew[j].share)) {
			fputs(" (", fp);
			fixed(fp, g->grew[j].share,
			    fabs(g->grew[j].share) >= 10 ? 0 : 1);
			fputs("% of the difference)", fp);
		}
	}
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
	    "first; all of them are in summary.json (groups[].why)", fp);
	if (anyverdict())
		fputs("; then the parts of the time account that grew most, "
		    "with their share of the difference, as make compare "
		    "explains a regression (groups[].why_parts)", fp);
	fputs(".\n\n", fp);
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
		grewparts(fp, g);
		fputs("\n", fp);
	}
	putc('\n', fp);
}

/* Category columns at most in the table, so that it keeps to 15
   columns; the categories of least time beyond them share one. */
#define MAXCATS		7

/* The time of category figure fig: its means over the groups added. */
static double
cattotal(size_t fig)
{
	const struct stats *st;
	double sum = 0;
	size_t i;

	for (i = 0; i < confs.n; i++)
		if ((st = groupstats(byname[i], fig)) != NULL && !isnan(st->mean))
			sum += st->mean;
	return sum;
}

/*
 * The category figures cats as the table's columns, allocated: all of
 * them where there are MAXCATS or fewer, else the MAXCATS - 1 of most
 * time in their order, then the rest, which share the last column;
 * *nshownp is how many have a column of their own.
 */
static size_t *
columns(const size_t *cats, size_t ncats, size_t *nshownp)
{
	size_t *cols, i, j, n, best;
	double *total;
	char *kept;

	if ((cols = calloc(ncats + 1, sizeof(*cols))) == NULL ||
	    (kept = calloc(ncats + 1, 1)) == NULL ||
	    (total = calloc(ncats + 1, sizeof(*total))) == NULL)
		err(1, NULL);
	*nshownp = ncats <= MAXCATS ? ncats : MAXCATS - 1;
	for (i = 0; i < ncats; i++)
		total[i] = cattotal(cats[i]);
	for (n = 0; n < *nshownp; n++) {
		for (i = 0, best = ncats; i < ncats; i++)
			if (!kept[i] &&
			    (best == ncats || total[i] > total[best]))
				best = i;
		kept[best] = 1;
	}
	for (i = j = 0; i < ncats; i++)
		if (kept[i])
			cols[j++] = cats[i];
	for (i = 0; i < ncats; i++)
		if (!kept[i])
			cols[j++] = cats[i];
	free(kept);
	free(total);
	return cols;
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
 * figures cats (those beyond MAXCATS in one column); where a group has
 * a time account, its idle split and verdict too, and where none has,
 * not those.
 */
static void
configurations(FILE *fp, const size_t *cats, size_t ncats)
{
	struct conf **sorted = bytime, *g;
	const struct stats *span;
	const struct group *k;
	size_t *cols, nshown, namelen, i, j;
	int account = anyverdict(), c;
	double rest;

	cols = columns(cats, ncats, &nshown);

	fputs("## Configurations\n\n"
	    "Fastest first: the mean over the runs of a configuration, "
	    "± the sample standard deviation; × fastest is the ratio "
	    "of GPU spans. Every figure is in groups.csv, every run in "
	    "summary.csv.", fp);
	/* On a line of its own, in the same paragraph: no line of
	   summary.md grows long. */
	if (account)
		fputs("\nIdle ms splits by cause as the time account tells it "
		    "(account(1)), in parentheses: host-bound (the CPU launched "
		    "late) / in the launch call / queued (an event, another "
		    "stream, a sync) / unknown; the verdict is the account's rule "
		    "applied to these means. Both are missing where a "
		    "configuration's runs have no time account.", fp);
	if (nshown < ncats)
		fprintf(fp, "\nThe %zu categories of least time share the "
		    "column \"more ms\"; each has its own in groups.csv.",
		    ncats - nshown);
	fputs("\n\n| configuration | n | GPU span ms | × fastest | kernel ms "
	    "| kernel busy union %", fp);
	for (i = 0; i < nshown; i++) {
		k = groups_nth(&figs, cols[i]);
		category(k->key, k->keylen, &namelen);
		fputs(CELL, fp);
		mdtext(fp, k->key + 11, namelen, MD_CELL);
		if (k->key[k->keylen - 1] == '\n')
			putc(' ', fp);
		fputs(" ms", fp);
	}
	if (nshown < ncats)
		fputs(" | more ms", fp);
	/* The idle causes share one column with idle: five columns of
	   them made the table too wide to read. */
	if (account)
		fputs(" | idle ms (host-bound / in launch call / queued / "
		    "unknown) | verdict", fp);
	else
		fputs(" | idle ms", fp);
	fputs(" |\n| --- |", fp);
	for (i = 0; i < 6 + nshown + (nshown < ncats); i++)
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
		for (j = 0; j < nshown; j++) {
			fputs(CELL, fp);
			span = groupstats(g, cols[j]);
			fixed(fp, span == NULL ? NAN : span->mean, 3);
		}
		for (j = nshown, rest = 0; j < ncats; j++)
			if ((span = groupstats(g, cols[j])) != NULL &&
			    !isnan(span->mean))
				rest += span->mean;
		if (nshown < ncats) {
			fputs(CELL, fp);
			fixed(fp, rest, 3);
		}
		fputs(CELL, fp);
		fixed(fp, mean(g, "idle_gaps.total_ns") / 1e6, 3);
		if (account) {
			for (c = 0; c < 4 && g->verdict != NULL; c++) {
				fputs(c == 0 ? " (" : " / ", fp);
				fixed(fp, idlesplit(g, c) / 1e6, 3);
			}
			if (g->verdict != NULL)
				putc(')', fp);
			fputs(CELL, fp);
			if (g->verdict != NULL)
				mdtext(fp, g->verdict, g->verdictlen, MD_CELL);
		}
		fputs(" |\n", fp);
	}
	putc('\n', fp);
	free(cols);
}

/* A bound of a window, START or END of WINDOW, in words. */
static void
windowbound(FILE *fp, const char *s, size_t len)
{
	if (len > 0 && s[len - 1] == '%')
		fprintf(fp, "%.*s of its span", (int)len, s);
	else
		fprintf(fp, "%.*s ns from its first GPU operation", (int)len, s);
}

/*
 * The sweep's scope in words, a sentence that starts with a space:
 * nothing where no report is scoped.  The setting is in a code span, as
 * a user writes it (two backticks around one that holds a backtick).
 */
static void
putscopewords(FILE *fp)
{
	const char *tick, *colon;

	if (scopesdiffer) {
		fputs(" The reports are of different scopes (summary.json's "
		    "scope lists them): their figures are not of one kind.",
		    fp);
		return;
	}
	if (scope.kind == 0)
		return;
	tick = memchr(scope.text, '`', scope.textlen) != NULL ? "``" : "`";
	fprintf(fp, " Scoped by %s%s=", tick, scope.kind == 'r' ? "RANGE" :
	    "WINDOW");
	mdtext(fp, scope.text, scope.textlen, MD_CODE | MD_NEWLINE);
	if (scope.kind == 'r') {
		if (scope.skip > 0)
			fprintf(fp, " SKIP=%" PRId64, scope.skip);
		fprintf(fp, "%s: the GPU work launched in the NVTX ranges so "
		    "named", tick);
		if (scope.skip > 0)
			fprintf(fp, ", the first %" PRId64 " instance%s in each "
			    "run skipped", scope.skip, scope.skip == 1 ? "" :
			    "s");
		fputs(".", fp);
		return;
	}
	fprintf(fp, "%s: the GPU work of each run that starts between ", tick);
	colon = memchr(scope.text, ':', scope.textlen);
	if (colon == NULL) {		/* reportjson writes none such */
		fputs("its bounds.", fp);
		return;
	}
	windowbound(fp, scope.text, colon - scope.text);
	fputs(" and ", fp);
	windowbound(fp, colon + 1, scope.text + scope.textlen - colon - 1);
	fputs(".", fp);
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
	fprintf(fp, "# Sweep summary\n\n%zu %s reduced, %zu failed, %zu %s",
	    nreports, plural(nreports, "run", "runs"), nruns - nreports,
	    confs.n, plural(confs.n, "configuration", "configurations"));
	if (confs.n == 1)
		fputs(single ? ", of a single run" : "", fp);
	else if (confs.n > 1)
		fprintf(fp, ", %zu of them of a single run", single);
	fputc('.', fp);
	putscopewords(fp);
	fputs("\n\n", fp);
	headline(fp, 1);
	fputs("\n\n", fp);
	repeathint(fp);
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
			    "launches per run |\n| --- | ---: | ---: | ---: |\n",
			    fp);
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
