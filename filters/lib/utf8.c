/*
 * utf8.c: UTF-8 as the filters read it, and text fit to show in a
 * message.  See h3prof.h.
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

size_t
utf8_bom(const char *s, size_t len)
{
	return len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
}

size_t
utf8_char(const char *str, size_t avail, uint32_t *cpp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t cp, min;
	size_t i, len;

	if (avail == 0)
		return 0;
	if (*s < 0x80)
		len = 1, cp = *s, min = 0;
	else if ((*s & 0xe0) == 0xc0)
		len = 2, cp = *s & 0x1f, min = 0x80;
	else if ((*s & 0xf0) == 0xe0)
		len = 3, cp = *s & 0x0f, min = 0x800;
	else if ((*s & 0xf8) == 0xf0)
		len = 4, cp = *s & 0x07, min = 0x10000;
	else
		return 0;
	if (avail < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	*cpp = cp;
	return len;
}

int
utf8_valid(const char *s, size_t len)
{
	const char *end = s + len;
	uint32_t cp;
	size_t n;

	for (; s < end; s += n) {
		uint64_t w;

		if (end - s >= 8) {
			memcpy(&w, s, 8);
			if (plainword(w)) {
				n = 8;
				continue;
			}
		}
		if ((n = utf8_char(s, end - s, &cp)) == 0)
			return 0;
	}
	return 1;
}

char *
shown(const char *s, size_t len, size_t max)
{
	const char *end = s + (len > max ? max : len);
	char *buf, *w;
	uint32_t cp;
	size_t n, i;

	/* At worst each byte takes 4: \ooo; then "..." and the NUL. */
	if ((buf = malloc(4 * (end - s) + 4)) == NULL)
		err(1, NULL);
	for (w = buf; s < end; s += n) {
		n = utf8_char(s, end - s, &cp);
		if (n == 1 && cp == '\\') {
			*w++ = '\\';
			*w++ = '\\';
		} else if (n == 1 && cp >= 0x20 && cp != 0x7f)
			*w++ = *s;
		else if (n > 1 && cp >= 0xa0) {
			memcpy(w, s, n);
			w += n;
		} else {
			/* A control character (C0, DEL, C1) or a byte that is
			   not UTF-8: each byte in octal. */
			if (n == 0)
				n = 1;
			for (i = 0; i < n; i++)
				w += sprintf(w, "\\%03o", (unsigned char)s[i]);
		}
	}
	if (len > max) {
		memcpy(w, "...", 3);
		w += 3;
	}
	*w = '\0';
	return buf;
}
