/*
 * jsondoc.c: a JSON document read into a tree of its values, and the test
 * for keys given twice.  An error goes back to jsondoc_parse by longjmp(3)
 * from however deep the parser is.  See h3prof.h.
 */
#include <err.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* Bytes of a key that a message shows. */
#define SHOWN_KEY	80

/* The document being read and where the parser is in it. */
struct parser {
	struct jsondoc	*doc;
	size_t		 cap;		/* room for nodes in doc */
	size_t		 stringslen;	/* bytes used in doc->strings */
	const char	*p;		/* the next byte to read */
	const char	*end;		/* a NUL is there */
	unsigned long	 lineno;	/* the line of p */
	int		 maxdepth;
	int		 flags;		/* of json_string */
	jmp_buf		 failed;	/* where an error goes back to */
	char		 why[1024];	/* and what it is */
	unsigned long	 whyline;	/* and at which line */
};

static size_t	value(struct parser *, int);

/* An error at a line of the document: back to jsondoc_parse. */
static _Noreturn void
fail(struct parser *ps, unsigned long lineno, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void
fail(struct parser *ps, unsigned long lineno, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->why, sizeof(ps->why), fmt, ap);
	va_end(ap);
	ps->whyline = lineno;
	longjmp(ps->failed, 1);
}

static int
samekey(const struct keyat *a, const struct keyat *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

static int
cmpkey(const void *a, const void *b)
{
	const struct keyat *x = a, *y = b;
	int c;

	c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	if (c != 0)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

const struct keyat *
keyat_repeated(struct keyat *keys, size_t n, const struct keyat **firstp)
{
	const struct keyat *dup = NULL;
	size_t i;

	qsort(keys, n, sizeof(*keys), cmpkey);
	/* Of equal keys, the second in order comes right after the first. */
	for (i = 1; i < n; i++)
		if (samekey(&keys[i], &keys[i - 1]) &&
		    (dup == NULL || keys[i].order < dup->order)) {
			dup = &keys[i];
			*firstp = &keys[i - 1];
		}
	return dup;
}

/* Skip JSON white space, counting lines. */
static void
skipspace(struct parser *ps)
{
	for (; ps->p < ps->end; ps->p++) {
		if (*ps->p == '\n')
			ps->lineno++;
		else if (*ps->p != ' ' && *ps->p != '\t' && *ps->p != '\r')
			break;
	}
}

static size_t
newnode(struct parser *ps)
{
	struct jsondoc *doc = ps->doc;

	if (doc->n == ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		if ((doc->nodes = reallocarray(doc->nodes, ps->cap,
		    sizeof(*doc->nodes))) == NULL)
			err(1, NULL);
	}
	memset(&doc->nodes[doc->n], 0, sizeof(doc->nodes[doc->n]));
	doc->nodes[doc->n].lineno = ps->lineno;
	return doc->n++;
}

/* Read the string at p; its characters go to the document's strings. */
static void
string(struct parser *ps, const char **textp, size_t *lenp)
{
	const char *why, *endp;
	char *out = ps->doc->strings + ps->stringslen;

	if ((why = json_string(ps->p, ps->end, ps->flags, &endp, out,
	    lenp)) != NULL)
		fail(ps, ps->lineno, "%s", why);
	*textp = out;
	ps->stringslen += *lenp;
	ps->p = endp;
}

/* No two of the count members of object n may have one key. */
static void
uniquekeys(struct parser *ps, size_t n, size_t count)
{
	const struct jsonnode *nodes = ps->doc->nodes;
	const struct keyat *dup, *first;
	struct keyat *keys;
	unsigned long lineno;
	size_t c, i = 0;
	char *key, msg[sizeof(ps->why)];

	if ((keys = reallocarray(NULL, count, sizeof(*keys))) == NULL)
		err(1, NULL);
	for (c = nodes[n].child; c != 0; c = nodes[c].next, i++)
		keys[i] = (struct keyat){ nodes[c].key, nodes[c].keylen,
		    nodes[c].lineno, i };
	if ((dup = keyat_repeated(keys, count, &first)) == NULL) {
		free(keys);
		return;
	}
	/* What a longjmp would lose is freed first. */
	key = shown(dup->s, dup->len, SHOWN_KEY);
	snprintf(msg, sizeof(msg), "duplicate key \"%s\" (first at line %lu)",
	    key, first->lineno);
	lineno = dup->lineno;
	free(key);
	free(keys);
	fail(ps, lineno, "%s", msg);
}

/*
 * Read the members of the object or the elements of the array at p,
 * nested depth deep, as the children of node n.
 */
static void
container(struct parser *ps, size_t n, int depth)
{
	struct jsonnode *c;
	const char *key = NULL;
	char close = *ps->p == '{' ? '}' : ']';
	size_t child, last = 0, count = 0, keylen = 0;
	unsigned long lineno;

	ps->p++;
	skipspace(ps);
	if (*ps->p == close) {
		ps->p++;
		return;
	}
	for (;;) {
		lineno = ps->lineno;
		if (close == '}') {
			if (*ps->p != '"')
				fail(ps, ps->lineno, "expected a key in "
				    "quotes");
			string(ps, &key, &keylen);
			skipspace(ps);
			if (*ps->p != ':')
				fail(ps, ps->lineno, "expected : after a key");
			ps->p++;
			skipspace(ps);
		}
		child = value(ps, depth);
		c = &ps->doc->nodes[child];
		if (close == '}') {
			c->key = key;
			c->keylen = keylen;
			c->lineno = lineno;
		}
		if (last == 0)
			ps->doc->nodes[n].child = child;
		else
			ps->doc->nodes[last].next = child;
		last = child;
		count++;
		skipspace(ps);
		if (*ps->p == close)
			break;
		if (*ps->p != ',')
			fail(ps, ps->lineno, "expected , or %c after %s",
			    close, close == '}' ? "a member" : "an element");
		ps->p++;
		skipspace(ps);
	}
	ps->p++;
	if (close == '}')
		uniquekeys(ps, n, count);
}

/* Read the value at p, nested depth deep, as a new node; return it. */
static size_t
value(struct parser *ps, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	struct jsonnode *v;
	size_t n = newnode(ps), i, len;

	v = &ps->doc->nodes[n];
	v->type = *ps->p;
	switch (*ps->p) {
	case '{':
	case '[':
		if (depth == ps->maxdepth)
			fail(ps, ps->lineno, "nested deeper than %d objects "
			    "and arrays", ps->maxdepth);
		container(ps, n, depth + 1);
		return n;
	case '"':
		string(ps, &v->text, &v->textlen);
		return n;
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		len = strlen(words[i]);
		if ((size_t)(ps->end - ps->p) >= len &&
		    memcmp(ps->p, words[i], len) == 0)
			break;
	}
	if (i < sizeof(words) / sizeof(words[0]))
		v->type = 'w';
	else if ((len = json_number(ps->p, ps->end - ps->p)) != 0)
		v->type = '0';
	else
		fail(ps, ps->lineno, "expected a JSON value: an object, "
		    "array, string, number, true, false or null");
	v->text = ps->p;
	v->textlen = len;
	ps->p += len;
	return n;
}

const char *
jsondoc_parse(struct jsondoc *doc, const char *text, size_t len,
    int maxdepth, int flags, unsigned long *linenop)
{
	/* Static: the message outlives the call; volatile: setjmp. */
	static struct parser ps;
	struct parser *volatile psp = &ps;

	memset(doc, 0, sizeof(*doc));
	memset(psp, 0, offsetof(struct parser, failed));
	psp->doc = doc;
	psp->p = text;
	psp->end = text + len;
	psp->lineno = 1;
	psp->maxdepth = maxdepth;
	psp->flags = flags;
	/* A string decoded is never longer than it is in the text. */
	if ((doc->strings = malloc(len + 1)) == NULL)
		err(1, NULL);
	if (setjmp(psp->failed) != 0) {
		jsondoc_free(doc);
		*linenop = psp->whyline;
		return psp->why;
	}
	skipspace(psp);
	value(psp, 0);
	skipspace(psp);
	if (psp->p != psp->end)
		fail(psp, psp->lineno, "more than one JSON value");
	return NULL;
}

void
jsondoc_read(struct jsondoc *doc, const char *text, size_t len,
    const char *path, int maxdepth)
{
	const char *why;
	unsigned long lineno;

	if ((why = jsondoc_parse(doc, text, len, maxdepth, 0, &lineno)) != NULL)
		errx(1, "%s:%lu: %s", path, lineno, why);
}

void
jsondoc_free(struct jsondoc *doc)
{
	free(doc->nodes);
	free(doc->strings);
	memset(doc, 0, sizeof(*doc));
}
