/*
 * ordq.c: entries taken least first by (key, tie), for streams nearly in
 * that order: a queue of those pushed in order and a heap of the rest.
 * See h3prof.h.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

static int
before(const struct ordent *a, const struct ordent *b)
{
	return a->key != b->key ? a->key < b->key : a->tie < b->tie;
}

static void
heap_push(struct ordq *o, const struct ordent *e)
{
	size_t i, up;

	o->heap = grow(o->heap, &o->heapcap, o->nheap, sizeof(*o->heap));
	for (i = o->nheap++; i > 0 && before(e, &o->heap[up = (i - 1) / 2]);
	    i = up)
		o->heap[i] = o->heap[up];
	o->heap[i] = *e;
}

/*
 * The queue's entries after e go to the heap, so that one far ahead of its
 * neighbours costs the heap it alone, not those behind it.
 */
void
ordq_push(struct ordq *o, int64_t key, int64_t tie, size_t val)
{
	struct ordent e = { key, tie, val };

	while (o->n > 0 && before(&e, &o->q[o->head + o->n - 1]))
		heap_push(o, &o->q[o->head + --o->n]);
	/* Moved down once half is free, so that each entry moves once. */
	if (o->head + o->n == o->cap) {
		if (o->head > 0 && o->head >= o->n) {
			memmove(o->q, o->q + o->head, o->n * sizeof(*o->q));
			o->head = 0;
		} else
			o->q = grow(o->q, &o->cap, o->cap, sizeof(*o->q));
	}
	o->q[o->head + o->n++] = e;
}

const struct ordent *
ordq_least(const struct ordq *o)
{
	if (o->n == 0)
		return o->nheap > 0 ? &o->heap[0] : NULL;
	if (o->nheap > 0 && before(&o->heap[0], &o->q[o->head]))
		return &o->heap[0];
	return &o->q[o->head];
}

/*
 * Off the heap, the hole goes down to a leaf by the lesser child and the
 * last entry rises from there: the last is most often among the greatest,
 * so one comparison a level, not two (Floyd's way).
 */
struct ordent
ordq_pop(struct ordq *o)
{
	struct ordent top, last;
	size_t i, child, up, n;

	if (o->n > 0 && (o->nheap == 0 ||
	    !before(&o->heap[0], &o->q[o->head]))) {
		o->n--;
		return o->q[o->head++];
	}
	top = o->heap[0];
	last = o->heap[n = --o->nheap];
	for (i = 0; (child = 2 * i + 1) < n; i = child) {
		if (child + 1 < n && before(&o->heap[child + 1], &o->heap[child]))
			child++;
		o->heap[i] = o->heap[child];
	}
	for (; i > 0 && before(&last, &o->heap[up = (i - 1) / 2]); i = up)
		o->heap[i] = o->heap[up];
	o->heap[i] = last;
	return top;
}

size_t
ordq_len(const struct ordq *o)
{
	return o->n + o->nheap;
}

void
ordq_free(struct ordq *o)
{
	free(o->q);
	free(o->heap);
	memset(o, 0, sizeof(*o));
}
