/*
 * sweepsum: what every stage uses: copies and comparisons of bytes as jq
 * makes them, the names of figures and keys, and numbers and names as
 * the outputs print them.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* A copy of len bytes at s, NUL after them. */
char *
copy(const char *s, size_t len)
{
	char *p;

	if ((p = malloc(len + 1)) == NULL)
		err(1, NULL);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Bytes as jq orders strings: by memcmp, a prefix first. */
int
cmpbytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* Numbers as jq compares them: a NaN above all. */
int
cmpnum(double a, double b)
{
	return a < b ? -1 : a == b ? 0 : 1;
}

/* The name of len bytes at s in table t, numbered on first sight. */
struct name *
intern(struct groups *t, const char *s, size_t len)
{
	size_t n = t->n;
	struct name *nm = groups_get(t, s, len);

	if (t->n != n)
		nm->index = n;
	return nm;
}

/* A double, or null for NaN (what stands for null here), as jq writes it. */
void
putnum(FILE *fp, double v)
{
	char buf[JQNUM_MAX];

	fwrite(buf, 1, jqnum(buf, v), fp);
}

/* A byte that is not UTF-8, in a CSV or Markdown, as \ooo; else, a
   character, its length and code point. */
size_t
character(const char *s, const char *end, uint32_t *cp, int *bad)
{
	size_t n = utf8_char(s, end - s, cp);

	*bad = n == 0;
	if (n == 0) {
		*cp = (unsigned char)*s;
		n = 1;
	}
	return n;
}

/*
 * A number with d decimals, as the jq program's fixed: rounded, printed
 * as jq prints it, zeros put before it till it has more than d
 * characters, and a point before the last d; NaN, for null, as nothing.
 */
void
fixed(FILE *fp, double x, int d)
{
	char buf[JQNUM_MAX + 8], num[JQNUM_MAX];
	double r;
	size_t len;
	int pad;

	if (isnan(x))
		return;
	r = round(x * pow(10, d));
	len = jqnum(num, fabs(r));
	pad = (int)len > d ? 0 : d + 1 - (int)len;
	snprintf(buf, sizeof(buf), "%.*s%s", pad, "00000000", num);
	len += pad;
	if (r < 0)
		putc('-', fp);
	fwrite(buf, 1, len - d, fp);
	if (d > 0)
		fprintf(fp, ".%s", buf + len - d);
}

/*
 * Text for a person, as the jq program's shown: each control character
 * (C0, DEL) as \ooo, one of C1 as \302\ooo, a byte that is not UTF-8 as
 * \ooo; <, > and & as HTML's entities, so that a name never is HTML in a
 * pull-request comment; and as flags say.
 */
void
mdtext(FILE *fp, const char *s, size_t len, int flags)
{
	const char *end = s + len;
	uint32_t cp;
	size_t n;
	int bad;

	for (; s < end; s += n) {
		n = character(s, end, &cp, &bad);
		if ((flags & MD_NEWLINE) && cp == '\n' && !bad)
			putc(' ', fp);
		else if (bad || cp < 0x20 || cp == 0x7f)
			fprintf(fp, "\\%03o", (unsigned)cp);
		else if (cp >= 0x80 && cp < 0xa0)
			fprintf(fp, "\\302\\%03o", (unsigned)cp);
		else if ((flags & MD_BAR) && cp == '|')
			fputs("\\|", fp);
		else if (!(flags & MD_CODE) && cp == '<')
			fputs("&lt;", fp);
		else if (!(flags & MD_CODE) && cp == '>')
			fputs("&gt;", fp);
		else if (!(flags & MD_CODE) && cp == '&')
			fputs("&amp;", fp);
		else
			fwrite(s, 1, n, fp);
	}
}

/* A group's name in a cell: its label, or (none). */
void
named(FILE *fp, const struct conf *g)
{
	if (g->labellen == 0)
		fputs("(none)", fp);
	else
		mdtext(fp, g->label, g->labellen, MD_CELL);
}
