/*
 * jsonw.c: JSON written as Python's json.dumps writes it, with indent=2
 * and ensure_ascii, or as jq 1.6 writes it: strings quoted, and documents
 * built member by member.
 * See h3prof.h.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* One UTF-16 code unit as json.dumps writes it with ensure_ascii. */
static char *
put_unit(char *w, uint32_t u)
{
	char c;

	switch (u) {
	case '"': c = '"'; break;
	case '\\': c = '\\'; break;
	case '\b': c = 'b'; break;
	case '\f': c = 'f'; break;
	case '\n': c = 'n'; break;
	case '\r': c = 'r'; break;
	case '\t': c = 't'; break;
	default:
		if (u >= 0x20 && u < 0x7f)
			*w++ = u;
		else
			w += sprintf(w, "\\u%04x", (unsigned)u);
		return w;
	}
	*w++ = '\\';
	*w++ = c;
	return w;
}

/*
 * A byte that is not UTF-8 is written as Python's surrogateescape decodes
 * it, U+DC00 + the byte: it takes each byte of a maximal invalid subpart
 * alone, and none of those but the first can start a character, so one
 * byte at a time gives the same.  As jq writes a string (jq), any other
 * character beyond ASCII stays as it is and DEL is escaped.
 */
static size_t
quote(char *out, const char *s, size_t len, int jq)
{
	const char *end = s + len;
	char *w = out;
	uint32_t cp;
	size_t n;

	*w++ = '"';
	for (; s < end; s += n) {
		/* Printable ASCII is most text: copied in runs. */
		for (n = 0; s + n < end && s[n] >= 0x20 && s[n] < 0x7f &&
		    s[n] != '"' && s[n] != '\\'; n++)
			;
		if (n > 0) {
			memcpy(w, s, n);
			w += n;
			continue;
		}
		if ((n = utf8_char(s, end - s, &cp)) == 0) {
			n = 1;
			cp = 0xdc00 + (unsigned char)*s;
		} else if (jq && cp >= 0x80) {
			memcpy(w, s, n);
			w += n;
			continue;
		}
		if (cp >= 0x10000) {
			w = put_unit(w, 0xd800 + ((cp - 0x10000) >> 10));
			w = put_unit(w, 0xdc00 + ((cp - 0x10000) & 0x3ff));
		} else
			w = put_unit(w, cp);
	}
	*w++ = '"';
	return w - out;
}

size_t
json_quote(char *out, const char *s, size_t len)
{
	return quote(out, s, len, 0);
}

static void
newline_indent(struct jsonw *jw)
{
	int i;

	if (jw->compact)
		return;
	putc_unlocked('\n', jw->fp);
	for (i = 0; i < jw->base + jw->depth; i++)
		fputs_unlocked("  ", jw->fp);
}

/* Start a member named key of the object open, or with key NULL the
   next element of the array open, unless jw_key started it. */
static void
member(struct jsonw *jw, const char *key)
{
	if (jw->keyed) {
		jw->keyed = 0;
		return;
	}
	if (jw->depth == 0)	/* the document itself */
		return;
	if (!jw->empty[jw->depth])
		putc_unlocked(',', jw->fp);
	jw->empty[jw->depth] = 0;
	newline_indent(jw);
	if (key != NULL) {
		jw_quote(jw, key, strlen(key));
		fputs_unlocked(jw->compact ? ":" : ": ", jw->fp);
	}
}

void
jw_key(struct jsonw *jw, const char *key, size_t len)
{
	member(jw, NULL);
	jw_quote(jw, key, len);
	fputs_unlocked(jw->compact ? ":" : ": ", jw->fp);
	jw->keyed = 1;
}

void
jw_quote(struct jsonw *jw, const char *s, size_t len)
{
	char *buf;

	if ((buf = malloc(6 * len + 2)) == NULL)
		err(1, NULL);
	fwrite_unlocked(buf, 1, quote(buf, s, len, jw->jq), jw->fp);
	free(buf);
}

void
jw_open(struct jsonw *jw, const char *key, char c)
{
	if (jw->depth == JW_MAXDEPTH)
		errx(1, "JSON nested deeper than %d", JW_MAXDEPTH);
	member(jw, key);
	putc_unlocked(c, jw->fp);
	jw->empty[++jw->depth] = 1;
}

void
jw_close(struct jsonw *jw, char c)
{
	/* json.dumps writes an empty object or array on one line: {}. */
	if (!jw->empty[jw->depth--])
		newline_indent(jw);
	putc_unlocked(c, jw->fp);
}

void
jw_int(struct jsonw *jw, const char *key, int64_t v)
{
	member(jw, key);
	fprintf(jw->fp, "%lld", (long long)v);
}

void
jw_float(struct jsonw *jw, const char *key, double v)
{
	char buf[JQNUM_MAX];

	member(jw, key);
	fwrite_unlocked(buf, 1, jw->jq ? jqnum(buf, v) : pyfloat(buf, v),
	    jw->fp);
}

void
jw_null(struct jsonw *jw, const char *key)
{
	member(jw, key);
	fputs_unlocked("null", jw->fp);
}

void
jw_string(struct jsonw *jw, const char *key, const char *s, size_t len)
{
	member(jw, key);
	jw_quote(jw, s, len);
}

void
jw_json(struct jsonw *jw, const char *key, const char *json, size_t len)
{
	member(jw, key);
	fwrite_unlocked(json, 1, len, jw->fp);
}
