/*
 * sweepsum: judging the groups: in order of configuration and of GPU
 * span, fastest first, each tested against the fastest (Welch's t-test)
 * and explained by the categories whose time differs; and what bounds
 * each, the verdict of its runs' time account.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/*
 * Whether a string is a number as the jq program's configorder tells:
 * ^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$, where $ may come before a
 * last newline, as Oniguruma's does.
 */
int
numeric(const char *s, size_t len)
{
	const char *end = s + len;

	if (len > 0 && end[-1] == '\n')
		end--;
	if (s < end && *s == '-')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return 0;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	if (s < end && *s == '.') {
		if (++s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	return s == end;
}

/*
 * Groups by configuration, as the jq program's configorder: key by key
 * in the group's order, each value a number, or a string that is one,
 * as that number (and the number before the string), before any other
 * value, which goes by its JSON text; runs without configuration last,
 * by name.
 */
static int
byconfig(const struct conf *x, const struct conf *y)
{
	const struct entry *e[2];
	const struct run *r[2] = { x->first, y->first };
	const struct group *k[2];
	size_t i[2] = { 0, 0 }, j;
	int c, cls[2], str[2];
	double num[2];

	if (x->unconfigured || y->unconfigured)
		return x->unconfigured != y->unconfigured ?
		    x->unconfigured - y->unconfigured :
		    cmpbytes(x->label, x->labellen, y->label, y->labellen);
	for (;;) {
		for (j = 0; j < 2; j++) {
			while (i[j] < r[j]->nconfig &&
			    isrepeat(groups_nth(&keys, r[j]->config[i[j]].key)))
				i[j]++;
			e[j] = i[j] < r[j]->nconfig ? &r[j]->config[i[j]++] :
			    NULL;
		}
		if (e[0] == NULL || e[1] == NULL)
			return (e[0] != NULL) - (e[1] != NULL);
		for (j = 0; j < 2; j++) {
			k[j] = groups_nth(&keys, e[j]->key);
			str[j] = e[j]->type == '"';
			cls[j] = !(e[j]->type == '0' || (str[j] &&
			    numeric(e[j]->str, e[j]->strlen)));
			if (cls[j] == 0)
				num[j] = strtod(str[j] ? e[j]->str :
				    e[j]->json, NULL);
		}
		if ((c = cmpbytes(k[0]->key, k[0]->keylen, k[1]->key,
		    k[1]->keylen)) != 0)
			return c;
		if (cls[0] != cls[1])
			return cls[0] - cls[1];
		if (cls[0] == 1)
			c = cmpbytes(e[0]->json, e[0]->jsonlen, e[1]->json,
			    e[1]->jsonlen);
		else if ((c = cmpnum(num[0], num[1])) == 0 &&
		    (c = str[0] - str[1]) == 0 && str[0])
			c = cmpbytes(e[0]->str, e[0]->strlen, e[1]->str,
			    e[1]->strlen);
		if (c != 0)
			return c;
	}
}

/* For qsort: by configuration, then as summary.json lists them. */
static int
byconfigorder(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	int c = byconfig(x, y);

	if (c != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The groups in order of configuration; allocated. */
static struct conf **
sortedgroups(int (*cmp)(const void *, const void *))
{
	struct conf **g;

	if ((g = calloc(confs.n + 1, sizeof(*g))) == NULL)
		err(1, NULL);
	memcpy(g, byname, confs.n * sizeof(*g));
	if (confs.n > 0)
		qsort(g, confs.n, sizeof(*g), cmp);
	return g;
}

/* Fastest first, those without a GPU span last, then by configuration. */
static int
byspan(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	double sx = mean(x, "gpu_span_ns"), sy = mean(y, "gpu_span_ns");
	int c;

	if (isnan(sx) != isnan(sy))
		return isnan(sx) - isnan(sy);
	if (!isnan(sx) && (c = cmpnum(sx, sy)) != 0)
		return c;
	return byconfigorder(a, b);
}

/* Whether a figure is a category's time: components.NAME.milliseconds. */
int
category(const char *s, size_t len, size_t *namelen)
{
	static const char pre[] = "components.", post[] = ".milliseconds";
	const char *p;
	size_t n = len;

	if (n > 0 && s[n - 1] == '\n')
		n--;
	if (n < sizeof(pre) + sizeof(post) - 1 ||
	    memcmp(s, pre, sizeof(pre) - 1) != 0 ||
	    memcmp(s + n - sizeof(post) + 1, post, sizeof(post) - 1) != 0)
		return 0;
	for (p = s + sizeof(pre) - 1; p < s + n - sizeof(post) + 1; p++)
		if (*p == '.')
			return 0;
	*namelen = n - sizeof(pre) - sizeof(post) + 2;
	return 1;
}

/* The category figures of the groups, components.NAME.milliseconds, in
   the order they first appear; allocated. */
size_t *
categories(size_t *np)
{
	size_t *figcols, nfigcols, *cats, namelen, i;
	const struct group *k;

	figcols = figunion(1, &nfigcols);
	if ((cats = calloc(nfigcols + 1, sizeof(*cats))) == NULL)
		err(1, NULL);
	for (i = *np = 0; i < nfigcols; i++) {
		k = groups_nth(&figs, figcols[i]);
		if (category(k->key, k->keylen, &namelen))
			cats[(*np)++] = figcols[i];
	}
	free(figcols);
	return cats;
}

/* Differences by size, largest first, then as the figures came. */
int
bylargest(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;

	if (fabs(x->ms) != fabs(y->ms))
		return fabs(x->ms) > fabs(y->ms) ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Grown parts by change, largest first, then as the figures came. */
static int
bygrowth(const void *a, const void *b)
{
	const struct grown *x = a, *y = b;

	if (x->change != y->change)
		return x->change > y->change ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The mean of a group's figure fig, 0 where it has none. */
double
meanor0(const struct conf *g, size_t fig)
{
	const struct stats *st = groupstats(g, fig);

	return st == NULL || isnan(st->mean) ? 0 : st->mean;
}

/* The figures of a time account (account(1)) that its verdict reads. */
#define TA	"time_account."
#define PART	TA "parts."
static const char *const copyfigs[] = {
	PART "memcpy_htod_ns", PART "memcpy_dtoh_ns", PART "memcpy_dtod_ns",
	PART "memcpy_peer_ns", PART "memcpy_other_ns", PART "memset_ns"
};
static const char *const idlefigs[] = {
	PART "idle_host_ns", PART "idle_launch_ns", PART "idle_queued_ns",
	PART "idle_unknown_ns"
};

/* The mean of a group's figure name where each of its runs has it;
   else NaN, and *ok 0. */
static double
everyrun(const struct conf *g, const char *name, int *ok)
{
	const struct stats *st = groupfig(g, name);

	if (st == NULL || st->n != g->n || isnan(st->mean)) {
		*ok = 0;
		return NAN;
	}
	return st->mean;
}

/*
 * The verdict of group g: account(1)'s rule, in the library's
 * verdict.c, applied to the means of its runs' time accounts, summed
 * as account sums a run's parts; none where a run has no account.  Of
 * a group of one run, its run's verdict.
 */
static void
accountverdict(struct conf *g)
{
	struct verdict_figures v = { .means = 1 };
	double idle[4];
	char name[64];
	size_t i, j;
	int ok = 1;
	FILE *fp;

	v.span_ns = everyrun(g, TA "gpu_span_ns", &ok);
	v.comm_exposed_ns = everyrun(g, PART "communication_ns", &ok);
	v.comm_union_ns = everyrun(g, TA "communication.union_ns", &ok);
	for (i = 0; i < sizeof(copyfigs) / sizeof(*copyfigs); i++)
		v.copies_ns += everyrun(g, copyfigs[i], &ok);
	for (i = 0; i < 4; i++) {
		idle[i] = everyrun(g, idlefigs[i], &ok);
		v.idle_ns += idle[i];
	}
	v.idle_host_ns = idle[0];
	v.idle_launch_ns = idle[1];
	v.idle_queued_ns = idle[2];
	v.idle_unknown_ns = idle[3];
	v.short_kernels = everyrun(g, TA "launch.shorter_than_call", &ok);
	v.kernels = everyrun(g, "kernel_count", &ok);
	v.kernel_ns = everyrun(g, "kernel_time_ns", &ok);
	v.call_p50_ns = everyrun(g, TA "launch.call_p50_ns", &ok);
	for (i = 0; i < NGAPLEN; i++)
		for (j = 0; j < NGAPCAUSE; j++) {
			snprintf(name, sizeof(name), TA "gaps.%s.%s.ns",
			    gaplen_name[i], gapcause_name[j]);
			v.gap_ns[i][j] = everyrun(g, name, &ok);
			snprintf(name, sizeof(name), TA "gaps.%s.%s.count",
			    gaplen_name[i], gapcause_name[j]);
			v.gap_count[i][j] = everyrun(g, name, &ok);
		}
	/* Of runs, the mean of their longest gaps, as of every figure. */
	v.longest_gap_ns = everyrun(g, TA "gaps.longest_ns", &ok);
	v.longest_gap_at_ns = everyrun(g, TA "gaps.longest_start_ns", &ok);
	if (!ok)
		return;
	/* A configuration of one run has its run's verdict, word for word. */
	v.means = g->n > 1;
	if ((fp = open_memstream(&g->verdict, &g->verdictlen)) == NULL)
		err(1, NULL);
	verdict_write(fp, &v);
	if (fclose(fp) == EOF)
		err(1, NULL);
}

/* The mean idle of group g by cause, 0 host-bound to 3 unknown, in ns;
   NaN where it has no verdict. */
double
idlesplit(const struct conf *g, int cause)
{
	int ok = 1;

	return g->verdict == NULL ? NAN : everyrun(g, idlefigs[cause], &ok);
}

/* The NAME of figure k, time_account.parts.NAME, its length at *len;
   NULL where k is no part of the time account. */
const char *
partname(const struct group *k, size_t *len)
{
	static const char pre[] = PARTS;

	if (k->keylen <= sizeof(pre) - 1 ||
	    memcmp(k->key, pre, sizeof(pre) - 1) != 0)
		return NULL;
	*len = k->keylen - (sizeof(pre) - 1);
	return k->key + sizeof(pre) - 1;
}

/* The figures of the account's parts, time_account.parts.NAME, in the
   order they first appear; allocated. */
size_t *
accountparts(size_t *np)
{
	size_t *figcols, nfigcols, *parts, i, len;

	figcols = figunion(1, &nfigcols);
	if ((parts = calloc(nfigcols + 1, sizeof(*parts))) == NULL)
		err(1, NULL);
	for (i = *np = 0; i < nfigcols; i++)
		if (partname(groups_nth(&figs, figcols[i]), &len) != NULL)
			parts[(*np)++] = figcols[i];
	free(figcols);
	return parts;
}

/*
 * The parts of the time account that grew most in group g against the
 * fastest, f: h3compare.jq's explain_parts of a regression of the span,
 * its definition here (tests/summarywhy.test holds them equal): a
 * part's mean less the fastest's (0 for a mean it lacks), those above 0,
 * most first, the first MAXGROWN, each with its share of the span's
 * difference.
 */
static void
grownparts(const struct conf *f, struct conf *g, const size_t *parts,
    size_t nparts)
{
	struct grown *all;
	double span = mean(g, "gpu_span_ns") - mean(f, "gpu_span_ns");
	size_t i, n = 0;

	if ((all = calloc(nparts + 1, sizeof(*all))) == NULL)
		err(1, NULL);
	for (i = 0; i < nparts; i++) {
		all[n].fig = parts[i];
		all[n].order = i;
		all[n].base = meanor0(f, parts[i]);
		all[n].new = meanor0(g, parts[i]);
		all[n].change = all[n].new - all[n].base;
		all[n].share = span == 0 || isnan(span) ? NAN :
		    all[n].change / span * 100;
		if (all[n].change > 0)
			n++;
	}
	qsort(all, n, sizeof(*all), bygrowth);
	g->ngrew = n < MAXGROWN ? n : MAXGROWN;
	g->grew = all;
}

/*
 * The verdict of each group; the groups fastest first, and each against
 * the fastest: Welch's test of their GPU spans where both have two runs
 * or more, and the differences of their categories' times, largest
 * first.
 */
void
judge(void)
{
	const struct stats *fs, *st;
	struct conf *f, *g;
	size_t *cats, ncats, *parts, nparts, i, j;
	double t, df;

	for (i = 0; i < confs.n; i++)
		accountverdict(byname[i]);
	bytime = sortedgroups(byspan);
	for (ntimed = 0; ntimed < confs.n &&
	    !isnan(mean(bytime[ntimed], "gpu_span_ns")); ntimed++)
		;
	for (i = 0; i < confs.n; i++)
		bytime[i]->p = NAN;
	if (ntimed == 0)
		return;
	f = bytime[0];
	fs = groupfig(f, "gpu_span_ns");
	cats = categories(&ncats);
	parts = accountparts(&nparts);
	for (i = 1; i < confs.n; i++) {
		g = bytime[i];
		st = groupfig(g, "gpu_span_ns");
		if (i < ntimed && fs->n >= 2 && st->n >= 2)
			g->p = welch_test(fs->mean, fs->stddev * fs->stddev,
			    fs->n, st->mean, st->stddev * st->stddev, st->n,
			    &t, &df);
		if ((g->why = calloc(ncats + 1, sizeof(*g->why))) == NULL)
			err(1, NULL);
		for (j = 0; j < ncats; j++) {
			struct delta *d = &g->why[g->nwhy];
			double base = meanor0(f, cats[j]);

			d->fig = cats[j];
			d->order = j;
			d->ms = meanor0(g, cats[j]) - base;
			d->pct = base > 0 ? d->ms / base * 100 : NAN;
			if (d->ms != 0 && !isnan(d->ms))
				g->nwhy++;
		}
		if (g->nwhy > 0)
			qsort(g->why, g->nwhy, sizeof(*g->why), bylargest);
		grownparts(f, g, parts, nparts);
	}
	free(cats);
	free(parts);
}
