/*
 * json.c: JSON texts as run.config facts hold them, read: number
 * literals, strings, and the test of a whole fact.  jsonw.c writes JSON.
 * See h3prof.h and h3prof(5).
 */
#include <stdint.h>
#include <string.h>

#include "h3prof.h"

#define ISDIGIT(c)	((c) >= '0' && (c) <= '9')

size_t
json_number(const char *str, size_t len)
{
	const char *s = str, *end = str + len;

	if (s < end && *s == '-')
		s++;
	if (s < end && *s == '0')
		s++;
	else if (s < end && *s >= '1' && *s <= '9')
		while (s < end && ISDIGIT(*s))
			s++;
	else
		return 0;
	if (s < end && *s == '.') {
		if (++s == end || !ISDIGIT(*s))
			return 0;
		while (s < end && ISDIGIT(*s))
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || !ISDIGIT(*s))
			return 0;
		while (s < end && ISDIGIT(*s))
			s++;
	}
	return s - str;
}

/*
 * The digits of the integer and fraction parts are numbered from 0 as one
 * string: the first nonzero one, at first, is worth 10 to the power
 * nint - 1 - first + exp.  15 significant digits are DBL_DIG: a normal
 * double holds any two such numbers apart.
 */
int
json_exact(const char *s, size_t len)
{
	const char *end = s + len;
	long long i = 0, nint = -1, first = -1, last = -1, exp = 0, power;
	int expneg = 0;

	if (s < end && *s == '-')
		s++;
	for (; s < end && (ISDIGIT(*s) || *s == '.'); s++) {
		if (*s == '.') {
			nint = i;
			continue;
		}
		if (*s != '0') {
			if (first == -1)
				first = i;
			last = i;
		}
		i++;
	}
	if (nint == -1)
		nint = i;
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			expneg = *s++ == '-';
		/* Past len + 1000 no digit count brings the power in range. */
		for (; s < end && ISDIGIT(*s); s++)
			if (exp <= (long long)len + 1000)
				exp = exp * 10 + (*s - '0');
		if (expneg)
			exp = -exp;
	}
	if (first == -1)
		return 1;	/* zero */
	power = nint - 1 - first + exp;
	return last - first < 15 && power >= -307 && power <= 307;
}

/* The value of the 4 hex digits at s, or -1 if they are not. */
static long
hex4(const char *s, const char *end)
{
	long v = 0;
	int i;

	if (end - s < 4)
		return -1;
	for (i = 0; i < 4; i++, s++) {
		v <<= 4;
		if (ISDIGIT(*s))
			v |= *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v |= *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v |= *s - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Write code point cp to w as UTF-8; return the end. */
static char *
put_utf8(char *w, uint32_t cp)
{
	if (cp < 0x80)
		*w++ = cp;
	else if (cp < 0x800) {
		*w++ = 0xc0 | cp >> 6;
		*w++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*w++ = 0xe0 | cp >> 12;
		*w++ = 0x80 | (cp >> 6 & 0x3f);
		*w++ = 0x80 | (cp & 0x3f);
	} else {
		*w++ = 0xf0 | cp >> 18;
		*w++ = 0x80 | (cp >> 12 & 0x3f);
		*w++ = 0x80 | (cp >> 6 & 0x3f);
		*w++ = 0x80 | (cp & 0x3f);
	}
	return w;
}

/*
 * The \u escape at s, a surrogate pair taken whole, as a code point; with
 * JSON_BYTES a lone \udc80 to \udcff as a byte, set in *bytep.
 */
static const char *
unicode_escape(const char **sp, const char *end, int flags, uint32_t *cp,
    int *bytep)
{
	const char *s = *sp;
	long hi, lo;

	if ((hi = hex4(s + 2, end)) == -1)
		return "bad \\u escape: \\u and 4 hex digits";
	*sp = s + 6;
	*cp = hi;
	if (hi >= 0xdc80 && hi <= 0xdcff && (flags & JSON_BYTES)) {
		*cp = hi - 0xdc00;
		*bytep = 1;
		return NULL;
	}
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return "lone low surrogate in a \\u escape";
	if (hi < 0xd800 || hi > 0xdbff)
		return NULL;
	if (end - *sp < 2 || (*sp)[0] != '\\' || (*sp)[1] != 'u' ||
	    (lo = hex4(*sp + 2, end)) < 0xdc00 || lo > 0xdfff)
		return "lone high surrogate in a \\u escape";
	*sp += 6;
	*cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	return NULL;
}

const char *
json_string(const char *s, const char *end, int flags, const char **endp,
    char *out, size_t *outlen)
{
	const char *why = NULL, *at;
	char *w = out, c;
	uint32_t cp;
	size_t n;
	int byte = 0;

	for (s++; why == NULL; ) {
		at = s;
		if (s == end) {
			why = "string without its closing quote";
		} else if (*s == '"') {
			s++;
			break;
		} else if ((unsigned char)*s < 0x20) {
			why = "control character in a string: write it as "
			    "\\n, \\t or \\u00XX";
		} else if (*s == '\\') {
			c = s + 1 < end ? s[1] : '\0';
			byte = 0;
			if (c == 'u') {
				why = unicode_escape(&s, end, flags, &cp,
				    &byte);
			} else if (c != '\0' && strchr("\"\\/bfnrt", c)) {
				cp = c == 'b' ? '\b' : c == 'f' ? '\f' :
				    c == 'n' ? '\n' : c == 'r' ? '\r' :
				    c == 't' ? '\t' : c;
				s += 2;
			} else
				why = "bad escape: a backslash comes before "
				    "one of \"\\/bfnrtu";
			if (why == NULL && out != NULL && byte)
				*w++ = cp;
			else if (why == NULL && out != NULL)
				w = put_utf8(w, cp);
		} else if ((n = utf8_char(s, end - s, &cp)) == 0) {
			why = "not UTF-8";
		} else {
			if (out != NULL) {
				memcpy(w, s, n);
				w += n;
			}
			s += n;
		}
	}
	*endp = why == NULL ? s : at;
	if (why == NULL && out != NULL)
		*outlen = w - out;
	return why;
}

int
json_fact(const char *s, size_t len)
{
	static const char *const words[] = {
		"true", "false", "null", "[]", "{}"
	};
	const char *endp;
	size_t i;

	if (len > 0 && *s == '"')
		return json_string(s, s + len, 0, &endp, NULL, NULL) == NULL &&
		    endp == s + len;
	if (len > 0 && json_number(s, len) == len)
		return 1;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == len && memcmp(s, words[i], len) == 0)
			return 1;
	return 0;
}
