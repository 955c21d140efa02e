/*
 * sweepsum: what each setting does.  For every configuration key with two
 * values or more (repeat keys aside), from the configurations' means:
 * the effect of each pair of its values over the configurations equal in
 * every other key (matched pairs), with a 95% interval; whether the
 * effect depends on another key (interactions); and, of a key of three
 * numbers or more, the cost per unit, a line fitted within the groups of
 * configurations equal in every other key.  effectsput.c writes them.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* The p-value below which a difference is beyond noise. */
#define ALPHA		0.05
/* Interactions of two keys are looked for where the grid of their values
   has at most this many cells: no square count grows past it. */
#define MAXCELLS	10000

struct factor *factors;
size_t nfactors;
struct effect *effects;
size_t neffects;
struct interaction *interactions;
size_t ninteractions;
struct scaling *scalings;
size_t nscalings;
size_t *effectfigs;
size_t neffectfigs;

/* The value at tp of Student's t on df degrees of freedom that leaves
   ALPHA / 2 above it: the half-width of a 95% interval, in errors. */
static double
tquantile(double df)
{
	double lo = 0, hi = 1e6, mid;
	int i;

	if (!(df > 0))
		return NAN;
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

/* The field at *p of a group's key, its bytes at *s; *p past it. */
static size_t
field(const char **p, const char **s)
{
	size_t len;

	memcpy(&len, *p, sizeof(len));
	*s = *p + sizeof(len);
	*p += sizeof(len) + len;
	return len;
}

/*
 * A group's key without the member of key k: those of the groups equal
 * in every key but k are equal.  In buf, of room for the key.
 */
static size_t
without(const char *key, size_t keylen, const struct group *k, char *buf)
{
	const char *p = key, *end = p + keylen, *at, *s;
	size_t n = 0, len;

	while (p < end) {
		at = p;
		len = field(&p, &s);
		field(&p, &s);
		if (len == k->keylen && memcmp(at + sizeof(len), k->key,
		    len) == 0)
			continue;
		memcpy(buf + n, at, p - at);
		n += p - at;
	}
	return n;
}

/* The entry of key index k in a group's configuration, or NULL. */
static const struct entry *
entryof(const struct conf *g, size_t k)
{
	size_t i;

	for (i = 0; i < g->first->nconfig; i++)
		if (g->first->config[i].key == k)
			return &g->first->config[i];
	return NULL;
}

/* Values by number where both are numbers, numbers first, then by their
   JSON text, as the summary's table orders configurations. */
static int
byvalue(const void *a, const void *b)
{
	const struct kvalue *x = a, *y = b;
	int c;

	if (x->isnum != y->isnum)
		return y->isnum - x->isnum;
	if (x->isnum && (c = cmpnum(x->num, y->num)) != 0)
		return c;
	return cmpbytes(x->e->json, x->e->jsonlen, y->e->json, y->e->jsonlen);
}

/* The index of a value among a factor's, or nvals. */
static size_t
valueindex(const struct factor *f, const struct entry *e)
{
	size_t i;

	for (i = 0; i < f->nvals; i++)
		if (cmpbytes(f->vals[i].e->json, f->vals[i].e->jsonlen,
		    e->json, e->jsonlen) == 0)
			break;
	return i;
}

/* The factor of key index k: its values, sorted, and its rows. */
static void
factor(struct factor *f, size_t k, char *buf)
{
	const struct group *kn = groups_nth(&keys, k);
	const struct entry *e;
	struct conf *g;
	struct row *r;
	size_t i, j, max = 0, len;

	memset(f, 0, sizeof(*f));
	f->key = k;
	f->rows.size = sizeof(struct row);
	f->numeric = 1;
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		if (g->unconfigured || (e = entryof(g, k)) == NULL)
			continue;
		if (valueindex(f, e) < f->nvals)
			continue;
		f->vals = grow(f->vals, &max, f->nvals, sizeof(*f->vals));
		f->vals[f->nvals].e = e;
		f->vals[f->nvals].isnum = e->type == '0' || (e->type == '"' &&
		    numeric(e->str, e->strlen));
		if (f->vals[f->nvals].isnum)
			f->vals[f->nvals].num = strtod(e->type == '"' ? e->str :
			    e->json, NULL);
		f->numeric &= f->vals[f->nvals].isnum;
		f->nvals++;
	}
	if (f->nvals < 2)
		return;
	qsort(f->vals, f->nvals, sizeof(*f->vals), byvalue);
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		if (g->unconfigured || (e = entryof(g, k)) == NULL)
			continue;
		len = without(g->key.key, g->key.keylen, kn, buf);
		j = f->rows.n;
		r = groups_get(&f->rows, len == 0 ? "" : buf, len);
		if (f->rows.n != j && (r->at = calloc(f->nvals,
		    sizeof(*r->at))) == NULL)
			err(1, NULL);
		r->at[valueindex(f, e)] = g;
	}
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

/* A figure's difference in the matched pairs of an effect, for its why. */
static double
meandiff(const struct factor *f, const struct effect *ef, size_t fig)
{
	const struct stats *sa, *sb;
	const struct row *r;
	double sum = 0;
	size_t i, m = 0;

	for (i = 0; i < f->rows.n; i++) {
		r = groups_nth(&f->rows, i);
		if (!bothpositive(r->at[ef->from], r->at[ef->to], ef->fig,
		    &sa, &sb))
			continue;
		sa = groupstats(r->at[ef->from], fig);
		sb = groupstats(r->at[ef->to], fig);
		sum += (sb == NULL || isnan(sb->mean) ? 0 : sb->mean) -
		    (sa == NULL || isnan(sa->mean) ? 0 : sa->mean);
		m++;
	}
	return m == 0 ? 0 : sum / m;
}

/* Reasons by size, largest first, then as the figures came. */
static int
bylargestreason(const void *a, const void *b)
{
	const struct reason *x = a, *y = b;

	if (fabs(x->ms) != fabs(y->ms))
		return fabs(x->ms) > fabs(y->ms) ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The why of an effect on the span: the difference of each category's
 * time and each part of the time account over its matched pairs, as the
 * summary's why and compare's tell them, largest first.
 */
static void
why(const struct factor *f, struct effect *ef)
{
	const struct group *k;
	size_t i, namelen;
	double d;

	if ((ef->why = calloc(neffectfigs + 1, sizeof(*ef->why))) == NULL)
		err(1, NULL);
	for (i = 0; i < neffectfigs; i++) {
		k = groups_nth(&figs, effectfigs[i]);
		if (category(k->key, k->keylen, &namelen))
			d = meandiff(f, ef, effectfigs[i]);
		else if (strncmp(k->key, PARTS, strlen(PARTS)) == 0)
			d = meandiff(f, ef, effectfigs[i]) / 1e6;
		else
			continue;
		if (d == 0 || isnan(d))
			continue;
		ef->why[ef->nwhy].fig = effectfigs[i];
		ef->why[ef->nwhy].ms = d;
		ef->why[ef->nwhy].order = i;
		ef->nwhy++;
	}
	if (ef->nwhy > 0)
		qsort(ef->why, ef->nwhy, sizeof(*ef->why), bylargestreason);
}

/*
 * The effect of factor f from value a to value b on figure fig over its
 * matched pairs; 0 if none is matched.
 */
static int
effect(struct factor *f, size_t a, size_t b, size_t fig, struct effect *ef)
{
	const struct stats *sa, *sb;
	const struct row *r;
	double *x, *v, *dfv, nv[2], ndf[2], t, df, se;
	size_t i, m = 0;

	memset(ef, 0, sizeof(*ef));
	x = calloc(f->rows.n + 1, sizeof(*x));
	v = calloc(f->rows.n + 1, sizeof(*v));
	dfv = calloc(f->rows.n + 1, sizeof(*dfv));
	if (x == NULL || v == NULL || dfv == NULL)
		err(1, NULL);
	ef->factor = f - factors;
	ef->from = a;
	ef->to = b;
	ef->fig = fig;
	for (i = 0; i < f->rows.n; i++) {
		r = groups_nth(&f->rows, i);
		if (!bothpositive(r->at[a], r->at[b], fig, &sa, &sb))
			continue;
		x[m] = log(sb->mean / sa->mean);
		nv[0] = lognoise(sa, &ndf[0]);
		nv[1] = lognoise(sb, &ndf[1]);
		v[m] = nv[0] + nv[1];
		dfv[m] = welchdf(nv, ndf, 2);
		if (sa->n >= 2 && sb->n >= 2) {
			ef->tested++;
			ef->beyond += welch_test(sa->mean, sa->stddev *
			    sa->stddev, sa->n, sb->mean, sb->stddev *
			    sb->stddev, sb->n, &t, &df) < ALPHA;
		}
		if (m == 0 || x[m] > log(ef->largest)) {
			ef->largest = exp(x[m]);
			ef->largestat = r;
		}
		if (m == 0 || x[m] < log(ef->smallest)) {
			ef->smallest = exp(x[m]);
			ef->smallestat = r;
		}
		m++;
	}
	ef->pairs = m;
	if (m > 0) {
		ef->logratio = estimate(x, v, dfv, m, &se, &ef->df);
		ef->ratio = exp(ef->logratio);
		interval(ef->logratio, se, ef->df, &ef->low, &ef->high);
	}
	free(x);
	free(v);
	free(dfv);
	return m > 0;
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
   category, each part of the time account. */
static void
figures(void)
{
	static const char *const first[] = { "gpu_span_ns", "kernel_time_ns" };
	const struct name *f;
	const struct group *k;
	size_t *all, nall, i, namelen;

	all = figunion(1, &nall);
	if ((effectfigs = calloc(nall + 3, sizeof(*effectfigs))) == NULL)
		err(1, NULL);
	for (i = 0; i < 2; i++)
		if ((f = groups_find(&figs, first[i], strlen(first[i]))) !=
		    NULL)
			effectfigs[neffectfigs++] = f->index;
	for (i = 0; i < nall; i++) {
		k = groups_nth(&figs, all[i]);
		if (category(k->key, k->keylen, &namelen))
			effectfigs[neffectfigs++] = all[i];
	}
	for (i = 0; i < nall; i++) {
		k = groups_nth(&figs, all[i]);
		if (strncmp(k->key, PARTS, strlen(PARTS)) == 0 &&
		    k->keylen > strlen(PARTS))
			effectfigs[neffectfigs++] = all[i];
	}
	free(all);
}

/* The 2x2 cells of two factors: configurations equal but in both. */
struct square {
	struct group	 rest;
	struct conf	**at;		/* [value of f * nvals of g + of g] */
};

/*
 * The interactions of factors f and g on the span: for each two values
 * next to each other of f, and of g, the squares of the grid where all
 * four configurations are; in each the difference of f's log ratio at
 * g's second value and at its first, tested across them as effects are.
 */
static void
interact(struct factor *f, struct factor *g, size_t span, char *buf,
    char *buf2, size_t *max)
{
	struct groups sq = { .size = sizeof(struct square) };
	const struct group *kf = groups_nth(&keys, f->key);
	const struct group *kg = groups_nth(&keys, g->key);
	const struct stats *s[4];
	const struct entry *ef, *eg;
	struct interaction *in;
	struct square *q;
	struct conf *c;
	double *x, *v, *dfv, lr[2], nv[4], ndf[4], se;
	size_t i, j, a, b, m, n, len;
	int ok;

	if (f->nvals * g->nvals > MAXCELLS)
		return;
	for (i = 0; i < confs.n; i++) {
		c = byname[i];
		if (c->unconfigured || (ef = entryof(c, f->key)) == NULL ||
		    (eg = entryof(c, g->key)) == NULL)
			continue;
		len = without(c->key.key, c->key.keylen, kf, buf);
		len = without(buf, len, kg, buf2);
		n = sq.n;
		q = groups_get(&sq, len == 0 ? "" : buf2, len);
		if (sq.n != n && (q->at = calloc(f->nvals * g->nvals,
		    sizeof(*q->at))) == NULL)
			err(1, NULL);
		q->at[valueindex(f, ef) * g->nvals + valueindex(g, eg)] = c;
	}
	x = calloc(sq.n + 1, sizeof(*x));
	v = calloc(sq.n + 1, sizeof(*v));
	dfv = calloc(sq.n + 1, sizeof(*dfv));
	if (x == NULL || v == NULL || dfv == NULL)
		err(1, NULL);
	for (a = 0; a + 1 < f->nvals; a++)
		for (b = 0; b + 1 < g->nvals; b++) {
			lr[0] = lr[1] = 0;
			for (i = m = 0; i < sq.n; i++) {
				struct conf **at;

				q = groups_nth(&sq, i);
				at = q->at;
				ok = bothpositive(at[a * g->nvals + b],
				    at[(a + 1) * g->nvals + b], span, &s[0],
				    &s[1]) && bothpositive(at[a * g->nvals +
				    b + 1], at[(a + 1) * g->nvals + b + 1], span,
				    &s[2], &s[3]);
				if (!ok)
					continue;
				lr[0] += log(s[1]->mean / s[0]->mean);
				lr[1] += log(s[3]->mean / s[2]->mean);
				x[m] = log(s[3]->mean / s[2]->mean) -
				    log(s[1]->mean / s[0]->mean);
				for (j = 0, v[m] = 0; j < 4; j++) {
					nv[j] = lognoise(s[j], &ndf[j]);
					v[m] += nv[j];
				}
				dfv[m] = welchdf(nv, ndf, 4);
				m++;
			}
			if (m == 0)
				continue;
			interactions = grow(interactions, max, ninteractions,
			    sizeof(*interactions));
			in = &interactions[ninteractions++];
			memset(in, 0, sizeof(*in));
			in->factor = f - factors;
			in->by = g - factors;
			in->from = a;
			in->to = a + 1;
			in->atfrom = b;
			in->atto = b + 1;
			in->squares = m;
			in->ratioatfrom = exp(lr[0] / m);
			in->ratioatto = exp(lr[1] / m);
			in->logratio = estimate(x, v, dfv, m, &se, &in->df);
			in->ratio = exp(in->logratio);
			interval(in->logratio, se, in->df, &in->low, &in->high);
			in->p = NAN;
			if (se > 0 && !isnan(se))
				in->p = student_p(in->logratio / se, in->df);
			else if (se == 0)
				in->p = in->logratio == 0 ? 1 : 0;
		}
	for (i = 0; i < sq.n; i++)
		free(((struct square *)groups_nth(&sq, i))->at);
	free(sq.recs);
	free(sq.slots);
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
	double sxx = 0, sxy = 0, syy = 0, rss = 0, xm, ym, x, y, e, q;
	double noise = 0, noisedf = 0, intercepts = 0, ms;
	size_t i, j, k, np, npoints = 0, nrows = 0;
	size_t n;

	memset(sc, 0, sizeof(*sc));
	sc->factor = f - factors;
	sc->fig = fig;
	/* Two passes a row: its means, then the sums about them. */
	for (k = 0; k < 2; k++) {
		for (i = 0; i < f->rows.n; i++) {
			r = groups_nth(&f->rows, i);
			xm = ym = 0;
			for (j = np = 0; j < f->nvals; j++)
				if (r->at[j] != NULL && (st = groupstats(r->at[j],
				    fig)) != NULL && !isnan(st->mean)) {
					xm += f->vals[j].num;
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
			for (j = 0; j < f->nvals; j++) {
				if (r->at[j] == NULL || (st = groupstats(r->at[j],
				    fig)) == NULL || isnan(st->mean))
					continue;
				x = f->vals[j].num - xm;
				y = st->mean - ym;
				if (k == 0) {
					sxx += x * x;
					sxy += x * y;
					syy += y * y;
				} else {
					e = y - sc->per_unit * x;
					rss += e * e;
					if (st->n >= 2 && !isnan(st->stddev)) {
						noise += st->stddev *
						    st->stddev / st->n *
						    (st->n - 1);
						noisedf += st->n - 1;
					}
				}
			}
		}
		if (k == 0) {
			if (!(sxx > 0))
				return 0;
			sc->per_unit = sxy / sxx;
		}
	}
	n = npoints;
	sc->points = n;
	sc->rows = nrows;
	sc->fixed = intercepts / nrows;
	sc->r2 = syy > 0 ? 1 - rss / syy : NAN;
	sc->df = (double)n - nrows - 1;
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
	char *buf, *buf2;
	size_t i, j, a, b, span, max = 0, imax = 0, smax = 0, keylen = 0;
	struct scaling sc;

	for (i = 0; i < confs.n; i++)
		if (byname[i]->key.keylen > keylen)
			keylen = byname[i]->key.keylen;
	buf = calloc(keylen + 1, 1);
	buf2 = calloc(keylen + 1, 1);
	if ((factors = calloc(keys.n + 1, sizeof(*factors))) == NULL ||
	    buf == NULL || buf2 == NULL)
		err(1, NULL);
	figures();
	if (neffectfigs == 0 || strcmp(((struct name *)groups_nth(&figs,
	    effectfigs[0]))->name.key, "gpu_span_ns") != 0)
		span = SIZE_MAX;
	else
		span = effectfigs[0];
	for (i = 0; i < keys.n; i++) {
		if (isrepeat(groups_nth(&keys, i)))
			continue;
		f = &factors[nfactors];
		factor(f, i, buf);
		if (f->nvals >= 2)
			nfactors++;
	}
	/* Factors by name, to find the most influential after. */
	for (i = 0; i < nfactors; i++) {
		f = &factors[i];
		for (a = 0; a < f->nvals; a++)
			for (b = a + 1; b < f->nvals; b++)
				for (j = 0; j < neffectfigs; j++) {
					if (!effect(f, a, b, effectfigs[j], &ef))
						continue;
					ef.figorder = j;
					if (effectfigs[j] == span) {
						why(f, &ef);
						if (fabs(ef.logratio) >
						    f->influence)
							f->influence =
							    fabs(ef.logratio);
						f->crossed = 1;
					}
					effects = grow(effects, &max, neffects,
					    sizeof(*effects));
					effects[neffects++] = ef;
				}
	}
	/* The most influential first: effects refer to factors by index,
	   so they are renumbered with them. */
	for (i = 0; i < nfactors; i++)
		factors[i].index = i;
	if (nfactors > 0)
		qsort(factors, nfactors, sizeof(*factors), byinfluence);
	{
		size_t *to = calloc(nfactors + 1, sizeof(*to));

		if (to == NULL)
			err(1, NULL);
		for (i = 0; i < nfactors; i++)
			to[factors[i].index] = i;
		for (i = 0; i < neffects; i++)
			effects[i].factor = to[effects[i].factor];
		free(to);
	}
	if (neffects > 0)
		qsort(effects, neffects, sizeof(*effects), byfactor);
	for (i = 0; span != SIZE_MAX && i < nfactors; i++)
		for (j = i + 1; j < nfactors; j++)
			interact(&factors[i], &factors[j], span, buf, buf2,
			    &imax);
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
	free(buf);
	free(buf2);
}
