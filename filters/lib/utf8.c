/*
 * utf8.c: whether a name is valid UTF-8, as the reference's Python reads
 * its input.  See h3prof.h.
 */
#include <stdint.h>
#include <string.h>

#include "h3prof.h"

/*
 * The length of the UTF-8 sequence of a non-ASCII character at s, or 0 if
 * it is not valid: overlong, a surrogate, beyond U+10FFFF or cut short.
 */
static size_t
seqlen(const unsigned char *s, size_t avail)
{
	uint32_t cp, min;
	size_t i, len;

	if ((*s & 0xe0) == 0xc0)
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
	return len;
}

int
utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	size_t n;

	for (; s < end; s += n) {
		uint64_t w;

		n = 1;
		if (end - s >= 8) {
			memcpy(&w, s, 8);
			if (plainword(w)) {
				n = 8;
				continue;
			}
		}
		if (*s >= 0x80 && (n = seqlen(s, end - s)) == 0)
			return 0;
	}
	return 1;
}
