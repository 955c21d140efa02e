/*
 * groups.c: records found by a key of bytes, in first-seen order, as
 * tally(1) and topkernels(1) sum their lines by name.
 */
#include <err.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* Records, and hash slots, allocated at first. */
#define FIRSTSIZE	1024
/* Bytes of key text allocated at a time: one malloc serves many keys. */
#define KEYCHUNK	(1024 * 1024)

/* A copy of len bytes at s and a NUL, carved from a chunk. */
static const char *
savekey(struct groups *g, const char *s, size_t len)
{
	char *p;

	if (len + 1 > g->keysleft) {
		g->keysleft = len + 1 > KEYCHUNK ? len + 1 : KEYCHUNK;
		if ((g->keys = malloc(g->keysleft)) == NULL)
			err(1, NULL);
	}
	p = g->keys;
	memcpy(p, s, len);
	p[len] = '\0';
	g->keys += len + 1;
	g->keysleft -= len + 1;
	return p;
}

/* Record i, in first-seen order. */
static struct group *
record(const struct groups *g, size_t i)
{
	return (struct group *)((char *)g->recs + i * g->size);
}

/* Double the hash, or make its first, and put every record back into it. */
static void
rehash(struct groups *g)
{
	size_t i, j, mask;

	free(g->slots);
	g->nslots = g->nslots == 0 ? FIRSTSIZE : 2 * g->nslots;
	if ((g->slots = calloc(g->nslots, sizeof(*g->slots))) == NULL)
		err(1, NULL);
	mask = g->nslots - 1;
	for (i = 0; i < g->n; i++) {
		for (j = record(g, i)->hash & mask; g->slots[j] != 0;
		    j = (j + 1) & mask)
			;
		g->slots[j] = i + 1;
	}
}

/* The slot of key, or the empty one where it would go. */
static size_t
slot(const struct groups *g, const char *key, size_t len, uint64_t h)
{
	const struct group *r;
	size_t i, mask = g->nslots - 1;

	for (i = h & mask; g->slots[i] != 0; i = (i + 1) & mask) {
		r = record(g, g->slots[i] - 1);
		if (r->hash == h && r->keylen == len &&
		    memcmp(r->key, key, len) == 0)
			break;
	}
	return i;
}

void *
groups_get(struct groups *g, const char *key, size_t len)
{
	struct group *r;
	uint64_t h = hashbytes(key, len);
	size_t i;

	if (g->nslots == 0)
		rehash(g);
	if (g->slots[i = slot(g, key, len, h)] != 0)
		return record(g, g->slots[i] - 1);
	if (g->n == g->maxrecs) {
		g->maxrecs = g->maxrecs == 0 ? FIRSTSIZE : 2 * g->maxrecs;
		g->recs = reallocarray(g->recs, g->maxrecs, g->size);
		if (g->recs == NULL)
			err(1, NULL);
	}
	r = record(g, g->n++);
	memset(r, 0, g->size);
	r->key = savekey(g, key, len);
	r->keylen = len;
	r->hash = h;
	if (2 * g->n > g->nslots)
		rehash(g);
	else
		g->slots[i] = g->n;
	return r;
}

void *
groups_find(const struct groups *g, const char *key, size_t len)
{
	size_t i;

	if (g->nslots == 0 ||
	    g->slots[i = slot(g, key, len, hashbytes(key, len))] == 0)
		return NULL;
	return record(g, g->slots[i] - 1);
}

void *
groups_nth(const struct groups *g, size_t i)
{
	return record(g, i);
}
