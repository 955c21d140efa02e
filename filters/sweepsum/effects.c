/*
 * sweepsum: what each setting does.  For every configuration key with two
 * values or more (repeat keys aside), from the configurations' means:
 * the effect of each pair of its values over the configurations equal in
 * every other key (matched pairs), with a 95% interval; whether the
 * effect depends on another key (interactions); and, of a key of three
 * numbers or more, the cost per unit, a line fitted within the groups of
 * configurations equal in every other key.  grid.c finds the keys'
 * values and matched pairs; effectsput.c writes what is found here.
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* What is found here, as sweepsum.h describes it. */
struct effect *effects;
size_t neffects;
struct interaction *interactions;
size_t ninteractions;
struct scaling *scalings;
size_t nscalings;
size_t *effectfigs;
size_t neffectfigs;

/* The value of Student's t on df degrees of freedom that leaves ALPHA / 2
   above it: the half-width of a 95% interval, in standard errors. */
static double
tquantile(double df)
{
	double lo = 0, hi = 1e6, mid;
	int i;

	if (!(df > 0))
		return NAN;
	/* Past a million degrees of freedom t is the normal, to 6 digits. */
	if (df > 1e6)
		df = 1e6;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (student_p(mid, df) > ALPHA)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The variance of the log of a group's mean of a figure, by the delta
   method, and its degrees of freedom; NaN where it has one run. */
static double
lognoise(const struct stats *st, double *df)
{
	*df = st->n - 1.0;
	if (st->n < 2 || isnan(st->stddev))
		return NAN;
	return st->stddev * st->stddev / (st->n * st->mean * st->mean);
}

/*
 * The mean of m log ratios x with a 95% interval: a t interval across
 * them on m - 1 degrees of freedom, its variance widened to the mean of
 * their own repeat noise v (NaN: unknown) over m where that is larger,
 * as when the pairs are few and agree by chance; of one, its own noise
 * on its degrees of freedom dfv.  *se NaN: no interval (one, unknown).
 */
static double
estimate(const double *x, const double *v, const double *dfv, size_t m,
    double *se, double *df)
{
	double mean = 0, ss = 0, vsum = 0, var;
	size_t i, known = 0;

	for (i = 0; i < m; i++)
		mean += x[i];
	mean /= m;
	for (i = 0; i < m; i++) {
		ss += (x[i] - mean) * (x[i] - mean);
		if (!isnan(v[i])) {
			vsum += v[i];
			known++;
		}
	}
	if (m >= 2) {
		var = ss / (m - 1) / m;
		if (known > 0 && vsum / known / m > var)
			var = vsum / known / m;
		*df = m - 1;
	} else {
		var = v[0];
		*df = dfv[0];
	}
	*se = sqrt(var);
	return mean;
}

/* The interval of estimate's mean, as ratios. */
static void
interval(double mean, double se, double df, double *low, double *high)
{
	double q = tquantile(df);

	*low = *high = NAN;
	if (isnan(se) || isnan(q))
		return;
	*low = exp(mean - q * se);
	*high = exp(mean + q * se);
}

/* A figure's statistics in both groups where both means are above 0. */
static int
bothpositive(const struct conf *a, const struct conf *b, size_t fig,
    const struct stats **sa, const struct stats **sb)
{
	*sa = a == NULL ? NULL : groupstats(a, fig);
	*sb = b == NULL ? NULL : groupstats(b, fig);
	return *sa != NULL && *sb != NULL && (*sa)->mean > 0 &&
	    (*sb)->mean > 0;
}

/* Welch's degrees of freedom of a sum of noises v of dfs df. */
static double
welchdf(const double *v, const double *df, size_t n)
{
	double sum = 0, den = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += v[i];
		den += v[i] * v[i] / df[i];
	}
	return den > 0 ? sum * sum / den : INFINITY;
}

/* A figure's mean difference from a to b over matched pairs m, for the
   why of an effect on the span: a mean a group lacks counts 0. */
static double
meandiff(const struct match *m, size_t nm, size_t span, size_t fig)
{
	const struct stats *sa, *sb;
	const struct conf *a, *b;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < nm; i++) {
		a = rowat(m[i].r, m[i].a, 0);
		b = rowat(m[i].r, m[i].b, 0);
		if (!bothpositive(a, b, span, &sa, &sb))
			continue;
		sum += meanor0(b, fig) - meanor0(a, fig);
		n++;
	}
	return n == 0 ? 0 : sum / n;
}

/*
 * The why of an effect on the span: the difference of each category's
 * time and each part of the time account over its matched pairs, as the
 * summary's why and compare's tell them, largest first.
 */
static void
why(struct effect *ef, const struct match *m, size_t nm)
{
	const struct group *k;
	size_t i, namelen;
	double d;

	if ((ef->why = calloc(neffectfigs + 1, sizeof(*ef->why))) == NULL)
		err(1, NULL);
	for (i = 0; i < neffectfigs; i++) {
		k = groups_nth(&figs, effectfigs[i]);
		if (category(k->key, k->keylen, &namelen))
			d = meandiff(m, nm, ef->fig, effectfigs[i]);
		else if (partname(k, &namelen) != NULL)
			d = meandiff(m, nm, ef->fig, effectfigs[i]) / 1e6;
		else
			continue;
		if (d == 0 || isnan(d))
			continue;
		ef->why[ef->nwhy].fig = effectfigs[i];
		ef->why[ef->nwhy].ms = d;
		ef->why[ef->nwhy].pct = NAN;
		ef->why[ef->nwhy].order = i;
		ef->nwhy++;
	}
	if (ef->nwhy > 0)
		qsort(ef->why, ef->nwhy, sizeof(*ef->why), bylargest);
}

/*
 * The effect of factor f from value a to value b on figure fig over its
 * matched pairs m; 0 if no pair has the figure in both.  x, v and dfv
 * have room for nm values.
 */
static int
effect(struct factor *f, const struct match *m, size_t nm, size_t fig,
    struct effect *ef, double *x, double *v, double *dfv)
{
	const struct stats *sa, *sb;
	double nv[2], ndf[2], t, df, se;
	size_t i, n = 0;

	memset(ef, 0, sizeof(*ef));
	ef->factor = f - factors;
	ef->from = m[0].a;
	ef->to = m[0].b;
	ef->fig = fig;
	for (i = 0; i < nm; i++) {
		if (!bothpositive(rowat(m[i].r, m[i].a, 0), rowat(m[i].r,
		    m[i].b, 0), fig, &sa, &sb))
			continue;
		x[n] = log(sb->mean / sa->mean);
		nv[0] = lognoise(sa, &ndf[0]);
		nv[1] = lognoise(sb, &ndf[1]);
		v[n] = nv[0] + nv[1];
		dfv[n] = welchdf(nv, ndf, 2);
		if (sa->n >= 2 && sb->n >= 2) {
			ef->tested++;
			ef->beyond += welch_test(sa->mean, sa->stddev *
			    sa->stddev, sa->n, sb->mean, sb->stddev *
			    sb->stddev, sb->n, &t, &df) < ALPHA;
		}
		if (n == 0 || x[n] > log(ef->largest)) {
			ef->largest = exp(x[n]);
			ef->largestat = m[i].r;
		}
		if (n == 0 || x[n] < log(ef->smallest)) {
			ef->smallest = exp(x[n]);
			ef->smallestat = m[i].r;
		}
		n++;
	}
	ef->pairs = n;
	if (n == 0)
		return 0;
	ef->logratio = estimate(x, v, dfv, n, &se, &ef->df);
	ef->ratio = exp(ef->logratio);
	interval(ef->logratio, se, ef->df, &ef->low, &ef->high);
	return 1;
}

/* Effects as summary.md lists them: by key, then their pairs in order. */
static int
byfactor(const void *a, const void *b)
{
	const struct effect *x = a, *y = b;

	if (x->factor != y->factor)
		return x->factor < y->factor ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return x->figorder < y->figorder ? -1 : x->figorder > y->figorder;
}

/* Factors by influence on the span, most first, then by key name. */
static int
byinfluence(const void *a, const void *b)
{
	const struct factor *x = a, *y = b;
	const struct group *kx = groups_nth(&keys, x->key);
	const struct group *ky = groups_nth(&keys, y->key);

	if (x->influence != y->influence)
		return x->influence > y->influence ? -1 : 1;
	return cmpbytes(kx->key, kx->keylen, ky->key, ky->keylen);
}

/* The figures effects are told of: the span first, kernel time, each
   category, each part of the time account.  The span's figure, or
   SIZE_MAX where no report has it. */
static size_t
figures(void)
{
	static const char *const first[] = { "gpu_span_ns", "kernel_time_ns" };
	const struct name *f;
	size_t *cats, ncats, *parts, nparts, i, span = SIZE_MAX;

	cats = categories(&ncats);
	parts = accountparts(&nparts);
	if ((effectfigs = calloc(ncats + nparts + 3, sizeof(*effectfigs))) ==
	    NULL)
		err(1, NULL);
	for (i = 0; i < 2; i++)
		if ((f = groups_find(&figs, first[i], strlen(first[i]))) !=
		    NULL) {
			if (i == 0)
				span = f->index;
			effectfigs[neffectfigs++] = f->index;
		}
	memcpy(effectfigs + neffectfigs, cats, ncats * sizeof(*cats));
	neffectfigs += ncats;
	memcpy(effectfigs + neffectfigs, parts, nparts * sizeof(*parts));
	neffectfigs += nparts;
	free(cats);
	free(parts);
	return span;
}

/* A 2x2 square of two factors' grid: f from a to a + 1, g from b to
   b + 1, in the configurations equal in every other key. */
struct squarediff {
	size_t		 a, b;
	double		 x, v, df;	/* the difference of log ratios,
					   its noise and that's df */
	double		 lr[2];		/* f's log ratio at b and b + 1 */
};

static int
bysquare(const void *x, const void *y)
{
	const struct squarediff *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/*
 * The interactions of factors f and g on the span: for each two values
 * next to each other of f, and of g, the squares of the grid where all
 * four configurations are; in each the difference of f's log ratio at
 * g's second value and at its first, tested across them as effects are.
 */
static void
interact(struct factor *f, struct factor *g, size_t span, size_t *imax)
{
	struct groups sq = { .size = sizeof(struct row) };
	const struct group *kf = groups_nth(&keys, f->key);
	const struct group *kg = groups_nth(&keys, g->key);
	struct squarediff *d = NULL, *dd;
	const struct stats *s[4];
	struct interaction *in;
	struct row *q;
	const struct cell *c;
	double *x, *v, *dfv, nv[4], ndf[4], se;
	size_t i, j, n = 0, max = 0, m;

	/* Each configuration of both, in its square at (f's, g's value). */
	for (i = 0; i < f->rows.n; i++) {
		q = groups_nth(&f->rows, i);
		for (j = 0; j < q->n; j++) {
			struct conf *conf = q->cells[j].g;

			if (g->valof[conf->index] == SIZE_MAX)
				continue;
			addcell(rowof(&sq, conf, kf, kg), q->cells[j].v,
			    g->valof[conf->index], conf);
		}
	}
	for (i = 0; i < sq.n; i++) {
		q = groups_nth(&sq, i);
		sortcells(q);
		for (c = q->cells; c < q->cells + q->n; c++) {
			if (!bothpositive(c->g, rowat(q, c->v + 1, c->w), span,
			    &s[0], &s[1]) || !bothpositive(rowat(q, c->v,
			    c->w + 1), rowat(q, c->v + 1, c->w + 1), span,
			    &s[2], &s[3]))
				continue;
			d = grow(d, &max, n, sizeof(*d));
			dd = &d[n++];
			dd->a = c->v;
			dd->b = c->w;
			dd->lr[0] = log(s[1]->mean / s[0]->mean);
			dd->lr[1] = log(s[3]->mean / s[2]->mean);
			dd->x = dd->lr[1] - dd->lr[0];
			for (j = 0, dd->v = 0; j < 4; j++) {
				nv[j] = lognoise(s[j], &ndf[j]);
				dd->v += nv[j];
			}
			dd->df = welchdf(nv, ndf, 4);
		}
	}
	if (n > 0)
		qsort(d, n, sizeof(*d), bysquare);
	x = calloc(n + 1, sizeof(*x));
	v = calloc(n + 1, sizeof(*v));
	dfv = calloc(n + 1, sizeof(*dfv));
	if (x == NULL || v == NULL || dfv == NULL)
		err(1, NULL);
	for (i = 0; i < n; i += m) {
		double lr[2] = { 0, 0 };

		for (m = 0; i + m < n && d[i + m].a == d[i].a &&
		    d[i + m].b == d[i].b; m++) {
			x[m] = d[i + m].x;
			v[m] = d[i + m].v;
			dfv[m] = d[i + m].df;
			lr[0] += d[i + m].lr[0];
			lr[1] += d[i + m].lr[1];
		}
		interactions = grow(interactions, imax, ninteractions,
		    sizeof(*interactions));
		in = &interactions[ninteractions++];
		memset(in, 0, sizeof(*in));
		in->factor = f - factors;
		in->by = g - factors;
		in->from = d[i].a;
		in->to = d[i].a + 1;
		in->atfrom = d[i].b;
		in->atto = d[i].b + 1;
		in->squares = m;
		in->ratioatfrom = exp(lr[0] / m);
		in->ratioatto = exp(lr[1] / m);
		in->logratio = estimate(x, v, dfv, m, &se, &in->df);
		in->ratio = exp(in->logratio);
		interval(in->logratio, se, in->df, &in->low, &in->high);
		in->p = NAN;
		if (se > 0 && !isnan(se))
			in->p = student_p(in->logratio / se,
			    in->df > 1e6 ? 1e6 : in->df);
		else if (se == 0)
			in->p = in->logratio == 0 ? 1 : 0;
	}
	for (i = 0; i < sq.n; i++)
		free(((struct row *)groups_nth(&sq, i))->cells);
	free(sq.recs);
	free(sq.slots);
	free(d);
	free(x);
	free(v);
	free(dfv);
}

/*
 * The cost per unit of factor f on figure fig: the slope of the
 * configurations' means against f's value within each row of f (the
 * within-groups estimator), pooled; its 95% t interval; the fixed part,
 * the mean of the rows' intercepts; R² within the rows; and whether the
 * residuals are beyond the repeats' noise (an F test against the noise
 * of the means, pooled).
 */
static int
scale(const struct factor *f, size_t fig, struct scaling *sc)
{
	const struct stats *st;
	const struct row *r;
	const struct cell *c;
	double sxx = 0, sxy = 0, syy = 0, rss = 0, xm, ym, x, y, e, q;
	double noise = 0, noisedf = 0, intercepts = 0, ms;
	size_t i, k, np, npoints = 0, nrows = 0;

	memset(sc, 0, sizeof(*sc));
	sc->factor = f - factors;
	sc->fig = fig;
	/* Two passes a row: its means, then the sums about them. */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < f->rows.n; i++) {
			r = groups_nth(&f->rows, i);
			xm = ym = 0;
			for (c = r->cells, np = 0; c < r->cells + r->n; c++)
				if ((st = groupstats(c->g, fig)) != NULL &&
				    !isnan(st->mean)) {
					xm += f->vals[c->v].num;
					ym += st->mean;
					np++;
				}
			if (np < 2)
				continue;
			xm /= np;
			ym /= np;
			if (k == 1) {
				intercepts += ym - sc->per_unit * xm;
				nrows++;
				npoints += np;
			}
			for (c = r->cells; c < r->cells + r->n; c++) {
				if ((st = groupstats(c->g, fig)) == NULL ||
				    isnan(st->mean))
					continue;
				x = f->vals[c->v].num - xm;
				y = st->mean - ym;
				if (k == 0) {
					sxx += x * x;
					sxy += x * y;
					syy += y * y;
					continue;
				}
				e = y - sc->per_unit * x;
				rss += e * e;
				if (st->n >= 2 && !isnan(st->stddev)) {
					noise += st->stddev * st->stddev /
					    st->n * (st->n - 1);
					noisedf += st->n - 1;
				}
			}
		}
		if (k == 0) {
			if (!(sxx > 0))
				return 0;
			sc->per_unit = sxy / sxx;
		}
	}
	sc->points = npoints;
	sc->rows = nrows;
	sc->fixed = intercepts / nrows;
	sc->r2 = syy > 0 ? 1 - rss / syy : NAN;
	sc->df = (double)npoints - nrows - 1;
	sc->low = sc->high = sc->pfit = NAN;
	if (sc->df > 0) {
		ms = rss / sc->df;
		q = tquantile(sc->df);
		sc->low = sc->per_unit - q * sqrt(ms / sxx);
		sc->high = sc->per_unit + q * sqrt(ms / sxx);
		if (noisedf > 0 && noise > 0)
			sc->pfit = fisher_p(ms / (noise / noisedf), sc->df,
			    noisedf);
		else if (noisedf > 0)
			sc->pfit = rss > 0 ? 0 : 1;
	}
	return 1;
}

/* Every effect, interaction and cost per unit of the sweep. */
void
effectsof(void)
{
	struct factor *f;
	struct effect ef;
	struct match *m;
	size_t i, j, k, l, nm, span, max = 0, imax = 0, smax = 0;
	size_t *to;
	double *x, *v, *dfv;
	struct scaling sc;

	span = figures();
	gatherfactors();
	for (i = 0; i < nfactors; i++) {
		f = &factors[i];
		m = matches(f, &nm);
		x = calloc(nm + 1, sizeof(*x));
		v = calloc(nm + 1, sizeof(*v));
		dfv = calloc(nm + 1, sizeof(*dfv));
		if (x == NULL || v == NULL || dfv == NULL)
			err(1, NULL);
		for (j = 0; j < nm; j += l) {
			for (l = 0; j + l < nm && m[j + l].a == m[j].a &&
			    m[j + l].b == m[j].b; l++)
				;
			for (k = 0; k < neffectfigs; k++) {
				if (!effect(f, m + j, l, effectfigs[k], &ef,
				    x, v, dfv))
					continue;
				ef.figorder = k;
				if (effectfigs[k] == span) {
					why(&ef, m + j, l);
					if (fabs(ef.logratio) > f->influence)
						f->influence =
						    fabs(ef.logratio);
					f->crossed = 1;
				}
				effects = grow(effects, &max, neffects,
				    sizeof(*effects));
				effects[neffects++] = ef;
			}
		}
		free(m);
		free(x);
		free(v);
		free(dfv);
	}
	/* The most influential first: effects refer to factors by index,
	   so they are renumbered with them. */
	for (i = 0; i < nfactors; i++)
		factors[i].index = i;
	if (nfactors > 0)
		qsort(factors, nfactors, sizeof(*factors), byinfluence);
	if ((to = calloc(nfactors + 1, sizeof(*to))) == NULL)
		err(1, NULL);
	for (i = 0; i < nfactors; i++)
		to[factors[i].index] = i;
	for (i = 0; i < neffects; i++)
		effects[i].factor = to[effects[i].factor];
	free(to);
	if (neffects > 0)
		qsort(effects, neffects, sizeof(*effects), byfactor);
	for (i = 0; span != SIZE_MAX && i < nfactors; i++)
		for (j = i + 1; j < nfactors; j++)
			interact(&factors[i], &factors[j], span, &imax);
	for (i = 0; i < nfactors; i++) {
		f = &factors[i];
		if (!f->numeric || f->nvals < 3)
			continue;
		for (j = 0; j < neffectfigs; j++) {
			if (!scale(f, effectfigs[j], &sc))
				continue;
			scalings = grow(scalings, &smax, nscalings,
			    sizeof(*scalings));
			scalings[nscalings++] = sc;
		}
	}
}
