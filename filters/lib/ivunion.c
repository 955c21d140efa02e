/*
 * ivunion.c: the union of a sorted interval stream, one union interval at
 * a time; one built of intervals given one at a time, and a device's
 * figures of two such; and the intersection of two unions.  See h3prof.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* The union of the lines of path, of kind kind alone unless it is NULL. */
void
ivunion_open(struct ivunion *u, const char *path, const char *kind)
{
	ivin_open(&u->in, path, 1);
	u->in.kind = kind;
	u->pending = 0;
}

/*
 * Return the next union interval in *startp and *endp, or 0 at the end.
 * As the reference's merge(): an interval that starts after the end built
 * so far begins a new one; any other, touching ones included, extends it.
 */
int
ivunion_next(struct ivunion *u, int64_t *startp, int64_t *endp)
{
	struct interval iv;

	while (ivin_next(&u->in, &iv)) {
		if (u->pending && iv.start <= u->end) {
			if (iv.end > u->end)
				u->end = iv.end;
		} else if (u->pending) {
			*startp = u->start;
			*endp = u->end;
			u->start = iv.start;
			u->end = iv.end;
			return 1;
		} else {
			u->start = iv.start;
			u->end = iv.end;
			u->pending = 1;
		}
	}
	if (!u->pending)
		return 0;
	*startp = u->start;
	*endp = u->end;
	u->pending = 0;
	return 1;
}

void
ivunion_close(struct ivunion *u)
{
	ivin_close(&u->in);
}

/*
 * Add [start, end), which starts no earlier than those before it, to the
 * union; return the gap before it, or -1 where it starts inside or at the
 * end of the union interval open.  As ivunion_next: one that starts
 * after the end built so far begins a union interval.
 */
int64_t
ivrun_add(struct ivrun *r, int64_t start, int64_t end)
{
	int64_t gap = -1;

	if (r->open && start > r->end) {
		r->ns += r->end - r->start;
		gap = start - r->end;
		r->open = 0;
	}
	if (!r->open) {
		r->start = start;
		r->end = end;
		r->open = 1;
		r->count++;
	} else if (end > r->end)
		r->end = end;
	return gap;
}

/* The union's total ns once no more intervals come. */
int64_t
ivrun_total(const struct ivrun *r)
{
	return r->ns + (r->open ? r->end - r->start : 0);
}

void
devfigs_add(struct devfigs *d, int64_t start, int64_t end, int kernel,
    const struct lines *l)
{
	int64_t gap;

	if (d->count++ == 0)
		d->first = start;
	d->last = end > d->last ? end : d->last;
	if ((gap = ivrun_add(&d->busy, start, end)) > 0) {
		d->gaps++;
		d->gap_ns += gap;
		d->gap_max = gap > d->gap_max ? gap : d->gap_max;
	}
	if (kernel) {
		d->kernels++;
		sum_ns(&d->kernel_ns, end - start, l);
		ivrun_add(&d->kunion, start, end);
	}
}

void
devfigs_put(FILE *fp, const char *prefix, const char *device,
    const struct devfigs *d)
{
	const struct { const char *name; int64_t v; } fig[] = {
		{ "count", d->count },
		{ "span_ns", d->last - d->first },
		{ "kernel_count", d->kernels },
		{ "kernel_ns", d->kernel_ns },
		{ "kernel_union_ns", ivrun_total(&d->kunion) },
		{ "busy_ns", ivrun_total(&d->busy) },
		{ "idle.count", d->gaps },
		{ "idle.total_ns", d->gap_ns },
		{ "idle.max_ns", d->gap_max },
	};
	size_t i;

	for (i = 0; i < sizeof(fig) / sizeof(fig[0]); i++)
		fprintf(fp, "%sdevice.%s.%s\t%lld\n", prefix, device,
		    fig[i].name, (long long)fig[i].v);
}

/*
 * The first union interval of a side not yet met: its start and end, and
 * whether it is final (closed, or open and no later interval can start
 * inside or at its end).  0 where there is none.
 */
static int
candidate(const struct ivside *s, int64_t *startp, int64_t *endp,
    int *finalp)
{
	if (s->n > 0) {
		*startp = s->q[2 * s->head];
		*endp = s->q[2 * s->head + 1];
		*finalp = 1;
		return 1;
	}
	if (!s->u.open || s->met)
		return 0;
	*startp = s->u.start;
	*endp = s->u.end;
	/* (Nothing can start after an end of INT64_MAX: it is final too.) */
	*finalp = s->bound > s->u.end || s->u.end == INT64_MAX;
	return 1;
}

/* Let the side's first union interval go: it meets nothing more. */
static void
consume(struct ivside *s)
{
	if (s->n > 0) {
		s->head++;
		if (--s->n == 0)
			s->head = 0;
	} else
		s->met = 1;
}

/*
 * Count what can be told of the intersection: intersect(1)'s walk, which
 * steps past the union interval that ends first, taken as far as the
 * intervals met can no longer change.  One that may still grow is met
 * where the other ends within what it holds already; else the walk waits
 * for more.  Each pair of union intervals is met once, as in the walk.
 */
static void
meet(struct ivmeet *m)
{
	struct ivside *l = &m->side[0], *r = &m->side[1];
	int64_t ls = 0, le = 0, rs = 0, re = 0, a, b;
	int hl, hr, lf = 0, rf = 0;

	for (;;) {
		hl = candidate(l, &ls, &le, &lf);
		hr = candidate(r, &rs, &re, &rf);
		if (!hl || !hr) {
			/* One that no later one of the other can meet goes. */
			if (hl && lf && le <= r->bound)
				consume(l);
			else if (hr && rf && re <= l->bound)
				consume(r);
			else
				return;
			continue;
		}
		if (!(lf && rf) && !(lf && le <= re) && !(rf && re <= le))
			return;
		a = ls > rs ? ls : rs;
		b = le < re ? le : re;
		if (b > a) {
			m->count++;
			m->ns += b - a;
		}
		if (lf && (le <= re || !rf))
			consume(l);
		else
			consume(r);
	}
}

/* Add [start, end) to side i (0 or 1) of the intersection. */
void
ivmeet_add(struct ivmeet *m, int i, int64_t start, int64_t end)
{
	struct ivside *s = &m->side[i];

	if (s->u.open && start > s->u.end) {
		/* The union interval open is closed: to meet, unless met. */
		if (!s->met) {
			if (s->head + s->n == s->cap / 2) {
				if (s->head > 0) {
					memmove(s->q, s->q + 2 * s->head,
					    2 * s->n * sizeof(*s->q));
					s->head = 0;
				} else
					s->q = grow(s->q, &s->cap, s->cap + 1,
					    sizeof(*s->q));
			}
			s->q[2 * (s->head + s->n)] = s->u.start;
			s->q[2 * (s->head + s->n) + 1] = s->u.end;
			s->n++;
		}
		s->met = 0;
	}
	ivrun_add(&s->u, start, end);
	if (start > s->bound)
		s->bound = start;
	meet(m);
}

/* No later interval of side i starts before bound. */
void
ivmeet_bound(struct ivmeet *m, int i, int64_t bound)
{
	if (bound > m->side[i].bound) {
		m->side[i].bound = bound;
		meet(m);
	}
}

/* No more intervals: all that is left is met. */
void
ivmeet_end(struct ivmeet *m)
{
	m->side[0].bound = m->side[1].bound = INT64_MAX;
	meet(m);
	free(m->side[0].q);
	free(m->side[1].q);
	m->side[0].q = m->side[1].q = NULL;
}
