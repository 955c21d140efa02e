/*
 * sweepsum: the grid of the configurations, for effects.c: each
 * configuration key that varies (a factor), its values in order, and its
 * rows, the configurations equal in every other key; and its matched
 * pairs, the rows where it has two values.
 */
#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* Keys that vary, at most: more is no grid, and the work of interactions
   grows with their square. */
#define MAXFACTORS	32
/* A key of this many values or fewer has an effect for every two of its
   values; one of more, from each value to the next only. */
#define MAXALLPAIRS	12

/* The factors, as sweepsum.h describes them. */
struct factor *factors;
size_t nfactors;
size_t toomany;

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

/* Whether the member of a group's key at p (a key field) is of k. */
static int
iskey(const char *p, size_t len, const struct group *k)
{
	return k != NULL && len == k->keylen && memcmp(p, k->key, len) == 0;
}

/* The next member at *p of a group's key not of k1 or k2: its bytes at
   *s, their length; *p past it.  0 and *s NULL at the end. */
static size_t
nextmember(const char **p, const char *end, const struct group *k1,
    const struct group *k2, const char **s)
{
	const char *at, *ks;
	size_t len;

	while (*p < end) {
		at = *p;
		len = field(p, &ks);
		field(p, s);
		if (iskey(ks, len, k1) || iskey(ks, len, k2))
			continue;
		*s = at;
		return *p - at;
	}
	*s = NULL;
	return 0;
}

/*
 * A hash (FNV-1a) of a group's key without the members of keys k1 and
 * k2 (NULL: none): the groups equal in every other key have one hash.
 * Rows are found by it, so that none holds a copy of its key.
 */
static uint64_t
resthash(const struct conf *g, const struct group *k1, const struct group *k2)
{
	const char *p = g->key.key, *end = p + g->key.keylen, *s;
	uint64_t h = 14695981039346656037ULL;
	size_t len;

	while ((len = nextmember(&p, end, k1, k2, &s)) != 0)
		for (; len > 0; len--, s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Whether two groups are equal in every key but k1 and k2. */
static int
restequal(const struct conf *a, const struct conf *b,
    const struct group *k1, const struct group *k2)
{
	const char *p = a->key.key, *pend = p + a->key.keylen;
	const char *q = b->key.key, *qend = q + b->key.keylen, *s, *t;
	size_t m, n;

	for (;;) {
		m = nextmember(&p, pend, k1, k2, &s);
		n = nextmember(&q, qend, k1, k2, &t);
		if (s == NULL || t == NULL)
			return s == t;
		if (m != n || memcmp(s, t, m) != 0)
			return 0;
	}
}

/*
 * The record of table t for group g, equal to it in every key but k1 and
 * k2: found by their hash, and among records of one hash (a collision)
 * by the first cell's group of each, which each record starts with.
 */
void *
rowof(struct groups *t, const struct conf *g, const struct group *k1,
    const struct group *k2)
{
	uint64_t key[2] = { resthash(g, k1, k2), 0 };
	struct row *r;

	for (;; key[1]++) {
		r = groups_get(t, (const char *)key, sizeof(key));
		if (r->n == 0 || restequal(r->cells[0].g, g, k1, k2))
			return r;
	}
}

/* A cell to a row. */
void
addcell(struct row *r, size_t v, size_t w, struct conf *g)
{
	r->cells = grow(r->cells, &r->max, r->n, sizeof(*r->cells));
	r->cells[r->n++] = (struct cell){ v, w, g };
}

/* Cells by value, then by the second value. */
static int
bycell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return x->w < y->w ? -1 : x->w > y->w;
}

/* A row's cells in order of value, for rowat. */
void
sortcells(struct row *r)
{
	qsort(r->cells, r->n, sizeof(*r->cells), bycell);
}

/* The group of a row at value v (and w), or NULL; its cells sorted. */
struct conf *
rowat(const struct row *r, size_t v, size_t w)
{
	struct cell key = { v, w, NULL }, *c;

	c = bsearch(&key, r->cells, r->n, sizeof(*r->cells), bycell);
	return c == NULL ? NULL : c->g;
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

/* A value seen of a key, by its JSON text: its place among the key's. */
struct seenvalue {
	struct group	 json;
	size_t		 index;
};

/* A configuration's entry of a key, as factors gather them. */
struct member {
	struct conf	*g;
	const struct entry *e;
};

/* What is gathered of a key before it is known to be a factor. */
struct gather {
	struct groups	 values;	/* struct seenvalue */
	struct member	*members;
	size_t		 n, max;
};

/*
 * The factor of a key from what was gathered of it: its values sorted
 * (their index in values updated to match), its rows, and the value of
 * each configuration.
 */
static void
factor(struct factor *f, size_t k, struct gather *ga)
{
	const struct group *kn = groups_nth(&keys, k);
	struct seenvalue *sv;
	const struct entry *e;
	struct row *r;
	size_t i;

	memset(f, 0, sizeof(*f));
	f->key = k;
	f->rows.size = sizeof(struct row);
	f->numeric = 1;
	f->nvals = ga->values.n;
	if ((f->vals = calloc(f->nvals + 1, sizeof(*f->vals))) == NULL ||
	    (f->valof = malloc((confs.n + 1) * sizeof(*f->valof))) == NULL)
		err(1, NULL);
	for (i = 0; i <= confs.n; i++)
		f->valof[i] = SIZE_MAX;
	for (i = 0; i < ga->n; i++) {
		e = ga->members[i].e;
		sv = groups_find(&ga->values, e->json, e->jsonlen);
		if (f->vals[sv->index].e != NULL)
			continue;
		f->vals[sv->index].e = e;
		f->vals[sv->index].isnum = e->type == '0' || (e->type == '"' &&
		    numeric(e->str, e->strlen));
		if (f->vals[sv->index].isnum)
			f->vals[sv->index].num = strtod(e->type == '"' ? e->str :
			    e->json, NULL);
		f->numeric &= f->vals[sv->index].isnum;
	}
	qsort(f->vals, f->nvals, sizeof(*f->vals), byvalue);
	for (i = 0; i < f->nvals; i++) {
		sv = groups_find(&ga->values, f->vals[i].e->json,
		    f->vals[i].e->jsonlen);
		sv->index = i;
	}
	for (i = 0; i < ga->n; i++) {
		e = ga->members[i].e;
		sv = groups_find(&ga->values, e->json, e->jsonlen);
		r = rowof(&f->rows, ga->members[i].g, kn, NULL);
		addcell(r, sv->index, 0, ga->members[i].g);
		f->valof[ga->members[i].g->index] = sv->index;
	}
	for (i = 0; i < f->rows.n; i++)
		sortcells(groups_nth(&f->rows, i));
}

/* Matches by pair, then as the rows came. */
static int
bypair(const void *x, const void *y)
{
	const struct match *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->r < q->r ? -1 : p->r > q->r;
}

/*
 * The matched pairs of factor f, by pair: of every two values where it
 * has MAXALLPAIRS values or fewer, else of each value and the next.
 */
struct match *
matches(const struct factor *f, size_t *np)
{
	struct match *m = NULL;
	const struct row *r;
	size_t i, j, k, n = 0, max = 0;

	for (i = 0; i < f->rows.n; i++) {
		r = groups_nth(&f->rows, i);
		for (j = 0; j < r->n; j++)
			for (k = j + 1; k < r->n; k++) {
				if (f->nvals > MAXALLPAIRS &&
				    r->cells[k].v != r->cells[j].v + 1)
					break;
				m = grow(m, &max, n, sizeof(*m));
				m[n++] = (struct match){ r->cells[j].v,
				    r->cells[k].v, r };
			}
	}
	if (n > 0)
		qsort(m, n, sizeof(*m), bypair);
	*np = n;
	return m;
}

/*
 * The factors: each key's values, gathered from every configuration in
 * one pass over their entries, and of those of two values or more, their
 * rows.  None where more than MAXFACTORS keys vary (toomany set).
 */
void
gatherfactors(void)
{
	struct gather *ga;
	struct seenvalue *sv;
	const struct entry *e;
	struct conf *g;
	size_t i, j, n;

	if ((ga = calloc(keys.n + 1, sizeof(*ga))) == NULL ||
	    (factors = calloc(MAXFACTORS + 1, sizeof(*factors))) == NULL)
		err(1, NULL);
	for (i = 0; i < keys.n; i++)
		ga[i].values.size = sizeof(struct seenvalue);
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		if (g->unconfigured)
			continue;
		for (j = 0; j < g->first->nconfig; j++) {
			e = &g->first->config[j];
			if (isrepeat(groups_nth(&keys, e->key)))
				continue;
			n = ga[e->key].values.n;
			sv = groups_get(&ga[e->key].values, e->json,
			    e->jsonlen);
			if (ga[e->key].values.n != n)
				sv->index = n;
			ga[e->key].members = grow(ga[e->key].members,
			    &ga[e->key].max, ga[e->key].n,
			    sizeof(*ga[e->key].members));
			ga[e->key].members[ga[e->key].n++] =
			    (struct member){ g, e };
		}
	}
	for (i = n = 0; i < keys.n; i++)
		n += ga[i].values.n >= 2;
	toomany = n > MAXFACTORS ? n : 0;
	for (i = 0; !toomany && i < keys.n; i++)
		if (ga[i].values.n >= 2)
			factor(&factors[nfactors++], i, &ga[i]);
	for (i = 0; i < keys.n; i++) {
		free(ga[i].values.recs);
		free(ga[i].values.slots);
		free(ga[i].members);
	}
	free(ga);
}

