/*
 * sweepsum: reducing the reports: runs into groups, one a configuration
 * less the repeat keys; each group's statistics of every figure shown,
 * its kernels of category other, its label and its ratio to the fastest.
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* Kernels of category other a group lists at most, and their share. */
#define MAXOTHER	5
#define OTHERSHARE	90
/* Elements of an array (NVTX ranges, devices, processes) whose figures
   the CSVs and the groups show: those of the most kernel time. */
#define TOPNAMES	50

/* Reports before failures; reports by run.name, failures by name. */
int
byrunname(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	int c;

	if ((x->error == NULL) != (y->error == NULL))
		return x->error == NULL ? -1 : 1;
	if ((c = cmpbytes(x->name, x->namelen, y->name, y->namelen)) != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Entries by key, as jq's to_entries | sort_by(.key). */
static int
bykey(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;
	const struct group *kx = groups_nth(&keys, x->key);
	const struct group *ky = groups_nth(&keys, y->key);

	return cmpbytes(kx->key, kx->keylen, ky->key, ky->keylen);
}

int
isrepeat(const struct group *k)
{
	size_t i;

	for (i = 0; i < nrepeat; i++)
		if (strlen(repeat[i]) == k->keylen &&
		    memcmp(repeat[i], k->key, k->keylen) == 0)
			return 1;
	return 0;
}

/* Put len bytes at s at *keyp, after their length. */
static void
putfield(char **keyp, size_t *lenp, size_t *maxp, const char *s, size_t len)
{
	*keyp = grow(*keyp, maxp, *lenp + sizeof(len) + len, 1);
	memcpy(*keyp + *lenp, &len, sizeof(len));
	memcpy(*keyp + *lenp + sizeof(len), s, len);
	*lenp += sizeof(len) + len;
}

/*
 * The group of each report: its configuration less the repeat keys, its
 * entries sorted by key, each as key and value (jq -c), each after its
 * length: the order of jq's group_by and equal where jq's would be.  A
 * run without configuration is a group of its own, its key SIZE_MAX and
 * its place in the list, which no configuration's key begins with.
 */
void
group(void)
{
	struct entry **sorted = NULL;
	struct conf *g;
	struct run *r;
	char *key = NULL;
	size_t i, n, len, max = 0, keymax = 0;
	const struct group *k;

	for (r = runs; r < runs + nreports; r++) {
		if (r->nconfig == 0) {
			size_t own[2] = { SIZE_MAX, r->order };

			key = grow(key, &keymax, sizeof(own), 1);
			memcpy(key, own, sizeof(own));
			len = sizeof(own);
			goto found;
		}
		sorted = grow(sorted, &max, r->nconfig, sizeof(*sorted));
		for (i = n = 0; i < r->nconfig; i++)
			if (!isrepeat(groups_nth(&keys, r->config[i].key)))
				sorted[n++] = &r->config[i];
		qsort(sorted, n, sizeof(*sorted), bykey);
		for (i = len = 0; i < n; i++) {
			k = groups_nth(&keys, sorted[i]->key);
			putfield(&key, &len, &keymax, k->key, k->keylen);
			putfield(&key, &len, &keymax, sorted[i]->json,
			    sorted[i]->jsonlen);
		}
found:
		n = confs.n;
		g = groups_get(&confs, key == NULL ? "" : key, len);
		if (confs.n != n) {
			g->index = n;
			g->first = r;
			g->unconfigured = r->nconfig == 0;
		}
		g->n++;
		r->group = g->index;
	}
	free(sorted);
	free(key);
}

/* The length of the field at *p of a group's key; *p past it. */
static size_t
field(const char **p)
{
	size_t len;

	memcpy(&len, *p, sizeof(len));
	*p += sizeof(len) + len;
	return len;
}

/*
 * Groups by the name of their first run, then by configuration as jq
 * compares the arrays of [key, value] that group_by sorted them by.
 */
static int
byfirstrun(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	const char *p = x->key.key, *q = y->key.key;
	const char *pend = p + x->key.keylen, *qend = q + y->key.keylen;
	const char *ps, *qs;
	size_t plen, qlen;
	int c;

	if ((c = cmpbytes(x->first->name, x->first->namelen, y->first->name,
	    y->first->namelen)) != 0)
		return c;
	if (x->unconfigured || y->unconfigured)
		return x->unconfigured != y->unconfigured ?
		    x->unconfigured - y->unconfigured :
		    x->first < y->first ? -1 : x->first > y->first;
	while (p < pend && q < qend) {
		ps = p + sizeof(plen);
		qs = q + sizeof(qlen);
		plen = field(&p);
		qlen = field(&q);
		if ((c = cmpbytes(ps, plen, qs, qlen)) != 0)
			return c;
	}
	return (p < pend) - (q < qend);
}

/* The sum of n values, compensated (Neumaier), as the jq program's fsum. */
static double
fsum(const double *v, size_t n, double shift, int square)
{
	double s = 0, c = 0, t, x;
	size_t i;

	for (i = 0; i < n; i++) {
		x = v[i] - shift;
		if (square)
			x = x * x;
		t = s + x;
		c += !(fabs(s) < fabs(x)) ? (s - t) + x : (x - t) + s;
		s = t;
	}
	return s + c;
}

/*
 * n, mean, sample standard deviation, min and max of n values, as the jq
 * program computed them (see h3summary(1)): min keeps the first of equal
 * values and max the last, as jq's do, which tells -0 from 0; and a NaN
 * is more than any number, as jq compares them.
 */
static void
stats(struct stats *st, const double *v, size_t n)
{
	double mean, d, var;
	size_t i;

	st->n = n;
	st->mean = st->stddev = st->min = st->max = NAN;
	if (n == 0)
		return;
	st->min = st->max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (!(v[i] < st->max))
			st->max = v[i];
	}
	mean = v[0] + fsum(v, n, v[0], 0) / n;
	if (mean < st->min)
		mean = st->min;
	else if (!(mean < st->max) && mean != st->max)
		mean = st->max;
	st->mean = mean;
	if (n < 2)
		return;
	d = fsum(v, n, mean, 0);
	var = (fsum(v, n, mean, 1) - d * d / n) / (n - 1);
	st->stddev = !(var < 0) && var != 0 ? sqrt(var) : 0;
}

/* Statistics by figure. */
static int
byfig(const void *a, const void *b)
{
	const struct stats *x = *(struct stats *const *)a;
	const struct stats *y = *(struct stats *const *)b;

	return x->fig < y->fig ? -1 : x->fig > y->fig;
}

/* The statistics of figure fig in group g, or NULL. */
const struct stats *
groupstats(const struct conf *g, size_t fig)
{
	const struct stats key = { .fig = fig }, *kp = &key, **at;

	at = bsearch(&kp, g->byfig, g->nstats, sizeof(*g->byfig), byfig);
	return at == NULL ? NULL : *at;
}

/* The figure of a group named name, or NULL. */
const struct stats *
groupfig(const struct conf *g, const char *name)
{
	const struct name *f;

	if ((f = groups_find(&figs, name, strlen(name))) == NULL)
		return NULL;
	return groupstats(g, f->index);
}

/* The mean of a figure of a group, NaN for none. */
double
mean(const struct conf *g, const char *fig)
{
	const struct stats *st = groupfig(g, fig);

	return st == NULL ? NAN : st->mean;
}

/* A kernel of a group's runs, and its place among them. */
struct seen {
	const struct okernel	*k;
	size_t			 seq;
};

/* Kernels by name, then as they came. */
static int
bykernelname(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	int c = cmpbytes(x->k->name, x->k->namelen, y->k->name,
	    y->k->namelen);

	return c != 0 ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Kernels by most ns, then name. */
static int
bymostns(const void *a, const void *b)
{
	const struct okernel *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return cmpbytes(x->name, x->namelen, y->name, y->namelen);
}

/*
 * The other_kernels of group g: the other kernels of its runs summed by
 * name, in the order of their runs, over n; most time first, as many as
 * carry OTHERSHARE% of the group's time in other, at most MAXOTHER.
 */
static void
groupothers(struct conf *g)
{
	struct seen *all = NULL;
	struct okernel *sums = NULL;
	const struct okernel *k;
	const struct stats *other;
	double ns, pct = 0;
	size_t i, j, n = 0, max = 0;

	other = groupfig(g, "components.other.milliseconds");
	ns = other == NULL || isnan(other->mean) ? 0 : other->mean * 1e6;
	if (!(ns > 0))
		return;
	for (i = 0; i < g->n; i++)
		for (j = 0; j < g->runs[i]->nothers; j++) {
			all = grow(all, &max, n, sizeof(*all));
			all[n] = (struct seen){ &g->runs[i]->others[j], n };
			n++;
		}
	if (n == 0)
		return;
	qsort(all, n, sizeof(*all), bykernelname);
	if ((sums = calloc(n, sizeof(*sums))) == NULL)
		err(1, NULL);
	for (i = j = 0; i < n; i++) {
		k = all[i].k;
		if (j > 0 && cmpbytes(k->name, k->namelen, sums[j - 1].name,
		    sums[j - 1].namelen) == 0) {
			sums[j - 1].launches += k->launches;
			sums[j - 1].ns += k->ns;
		} else
			sums[j++] = *k;
	}
	n = j;
	for (i = 0; i < n; i++) {
		sums[i].launches /= g->n;
		sums[i].ns /= g->n;
	}
	qsort(sums, n, sizeof(*sums), bymostns);
	if ((g->otherpct = calloc(MAXOTHER, sizeof(double))) == NULL)
		err(1, NULL);
	for (i = 0; i < n && g->nothers < MAXOTHER && pct < OTHERSHARE; i++) {
		g->otherpct[g->nothers] = sums[i].ns / ns * 100;
		pct += g->otherpct[g->nothers];
		sums[g->nothers++] = sums[i];
	}
	g->others = sums;
	free(all);
}

/*
 * The configuration of run r as a label, KEY=VALUE by commas, a string as
 * it is, less the repeat keys and the key of index skip (SIZE_MAX:
 * none): how many it wrote.  The labels of configurations and of the
 * effects' rows are one text.
 */
size_t
putconfig(FILE *fp, const struct run *r, size_t skip)
{
	const struct entry *e;
	const struct group *k;
	size_t i, n = 0;

	for (i = 0; i < r->nconfig; i++) {
		e = &r->config[i];
		k = groups_nth(&keys, e->key);
		if (isrepeat(k) || e->key == skip)
			continue;
		if (n++)
			putc(',', fp);
		fwrite(k->key, 1, k->keylen, fp);
		putc('=', fp);
		if (e->type == '"')
			fwrite(e->str, 1, e->strlen, fp);
		else
			fwrite(e->json, 1, e->jsonlen, fp);
	}
	return n;
}

/* The label of a configuration (putconfig); of a run without one, its
   name. */
static void
label(struct conf *g)
{
	const struct run *r = g->first;
	FILE *fp;

	if (g->unconfigured) {
		g->label = copy(r->name, r->namelen);
		g->labellen = r->namelen;
		return;
	}
	if ((fp = open_memstream(&g->label, &g->labellen)) == NULL)
		err(1, NULL);
	putconfig(fp, r, SIZE_MAX);
	if (fclose(fp) == EOF)
		err(1, NULL);
}

/* Elements by array, most kernel time first, then as they came. */
static int
bytime_in_array(const void *a, const void *b)
{
	const struct element *x = *(struct element *const *)a;
	const struct element *y = *(struct element *const *)b;

	if (x->array != y->array)
		return x->array < y->array ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Keep the TOPNAMES elements of each array of the most kernel time. */
void
rankelements(void)
{
	struct element **e;
	size_t i, n = 0;

	if ((e = calloc(elems.n + 1, sizeof(*e))) == NULL)
		err(1, NULL);
	for (i = 0; i < elems.n; i++)
		e[i] = groups_nth(&elems, i);
	if (elems.n > 0)
		qsort(e, elems.n, sizeof(*e), bytime_in_array);
	for (i = 0; i < elems.n; i++) {
		n = i > 0 && e[i]->array == e[i - 1]->array ? n + 1 : 0;
		e[i]->kept = n < TOPNAMES;
	}
	free(e);
}

/*
 * Whether the CSVs and the groups show figure fig: one outside arrays,
 * or of an element kept, outside the arrays inside it.  Only summary.json's
 * reports hold the others: columns never grow with runs times names.
 */
static int
shownfig(size_t fig)
{
	const struct name *f = groups_nth(&figs, fig);

	return f->elem == 0 || (!f->nested &&
	    ((struct element *)groups_nth(&elems, f->elem - 1))->kept);
}

/* The figures of the reports, or with bygroup of the groups, in order. */
size_t *
figunion(int bygroup, size_t *np)
{
	size_t *order, i, j, n = 0, nv, fig;
	struct name *f;

	if ((order = calloc(figs.n + 1, sizeof(*order))) == NULL)
		err(1, NULL);
	for (i = 0; i < figs.n; i++)
		((struct name *)groups_nth(&figs, i))->mark = 0;
	for (i = 0; i < (bygroup ? confs.n : nreports); i++) {
		nv = bygroup ? byname[i]->nstats : runs[i].nvals;
		for (j = 0; j < nv; j++) {
			fig = bygroup ? byname[i]->stats[j].fig :
			    runs[i].vals[j].fig;
			if (!shownfig(fig))
				continue;
			f = groups_nth(&figs, fig);
			if (f->mark == 0) {
				f->mark = 1;
				order[n++] = fig;
			}
		}
	}
	*np = n;
	return order;
}

/* Each group's runs, figures, other kernels and ratio to the fastest. */
void
reduce(void)
{
	struct conf *g;
	struct name *f;
	const struct stats *span;
	double **vals, fastest = NAN;
	size_t *nv, *maxv, *order, i, j, nfigs;

	if ((byname = calloc(confs.n + 1, sizeof(*byname))) == NULL)
		err(1, NULL);
	for (i = 0; i < confs.n; i++) {
		g = groups_nth(&confs, i);
		byname[i] = g;
		if ((g->runs = calloc(g->n, sizeof(*g->runs))) == NULL)
			err(1, NULL);
		g->n = 0;
	}
	for (i = 0; i < nreports; i++) {
		g = groups_nth(&confs, runs[i].group);
		g->runs[g->n++] = &runs[i];
	}
	if (confs.n > 0)
		qsort(byname, confs.n, sizeof(*byname), byfirstrun);

	/* The values of each figure in a group, in the order of its runs. */
	nfigs = figs.n;
	vals = calloc(nfigs + 1, sizeof(*vals));
	nv = calloc(nfigs + 1, sizeof(*nv));
	maxv = calloc(nfigs + 1, sizeof(*maxv));
	order = calloc(nfigs + 1, sizeof(*order));
	if (vals == NULL || nv == NULL || maxv == NULL || order == NULL)
		err(1, NULL);
	for (i = 0; i < nfigs; i++)
		((struct name *)groups_nth(&figs, i))->mark = 0;
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		for (j = 0; j < g->n; j++) {
			const struct run *r = g->runs[j];
			const struct value *v;

			for (v = r->vals; v < r->vals + r->nvals; v++) {
				if (!shownfig(v->fig))
					continue;
				f = groups_nth(&figs, v->fig);
				if (f->mark != i + 1) {
					f->mark = i + 1;
					order[g->nstats++] = v->fig;
					nv[v->fig] = 0;
				}
				if (v->isnull)
					continue;
				vals[v->fig] = grow(vals[v->fig],
				    &maxv[v->fig], nv[v->fig], sizeof(double));
				vals[v->fig][nv[v->fig]++] = v->v;
			}
		}
		if ((g->stats = calloc(g->nstats + 1,
		    sizeof(*g->stats))) == NULL)
			err(1, NULL);
		if ((g->byfig = calloc(g->nstats + 1,
		    sizeof(*g->byfig))) == NULL)
			err(1, NULL);
		for (j = 0; j < g->nstats; j++) {
			g->stats[j].fig = order[j];
			stats(&g->stats[j], vals[order[j]], nv[order[j]]);
			g->byfig[j] = &g->stats[j];
		}
		if (g->nstats > 0)
			qsort(g->byfig, g->nstats, sizeof(*g->byfig), byfig);
		groupothers(g);
		label(g);
		span = groupfig(g, "gpu_span_ns");
		if (span != NULL && !isnan(span->mean) &&
		    (isnan(fastest) || span->mean < fastest))
			fastest = span->mean;
	}
	for (i = 0; i < nfigs; i++)
		free(vals[i]);
	free(vals);
	free(nv);
	free(maxv);
	free(order);
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		span = groupfig(g, "gpu_span_ns");
		g->ratio = span == NULL || isnan(span->mean) ||
		    isnan(fastest) || fastest <= 0 ? NAN : span->mean / fastest;
	}
}
