/*
 * pyfloat.c: floats as Python makes them: a double as repr() and
 * json.dumps write it, and the quotient of two integers; and a double as
 * jq 1.6 prints it, from the same shortest digits.  See h3prof.h.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/*
 * Add one unit in the last digit of the mantissa of "d.ddde[+-]XX" in place;
 * return 0 if the digits carry out of the first one (9.99 -> 10.00).
 */
static int
next_up(char *s)
{
	char *p = strchr(s, 'e');

	while (--p >= s) {
		if (*p == '.')
			continue;
		if (*p != '9') {
			(*p)++;
			return 1;
		}
		*p = '0';
	}
	return 0;
}

/*
 * The digits with the point after the first and a signed exponent of two
 * digits or more (1e-05, 1.5e+16), as Python and jq both write them; at
 * p, returning the end.
 */
static char *
put_exponent(char *p, const char *digits, int n, int exp)
{
	*p++ = digits[0];
	if (n > 1) {
		*p++ = '.';
		memcpy(p, digits + 1, n - 1);
		p += n - 1;
	}
	return p + sprintf(p, "e%c%02d", exp < 0 ? '-' : '+', abs(exp));
}

/* The digits of a number below 1, exp < 0, as 0.000123. */
static char *
put_fraction(char *p, const char *digits, int n, int exp)
{
	int i;

	*p++ = '0';
	*p++ = '.';
	for (i = -1; i > exp; i--)
		*p++ = '0';
	memcpy(p, digits, n);
	return p + n;
}

/*
 * Put in digits the fewest decimal digits that read back as x (finite and
 * positive), as Python chooses them, and return the decimal exponent of the
 * first.  %.*e rounds correctly, so at each length the nearest digits are
 * the candidate; only below a power of two, where the doubles are twice as
 * dense, may they miss while the next ones up hit, and Python takes those.
 * Digits of DBL_DIG or fewer that read back as a normal x are those of x
 * to DBL_DIG digits, less their trailing zeros: one try finds the most
 * common (prec 0: found).
 */
static int
shortest(double x, char digits[18])
{
	char buf[40], up[40], *e;
	const char *s;
	int prec, n, exp;

	prec = 1;
	if (x >= DBL_MIN) {
		snprintf(buf, sizeof(buf), "%.*e", DBL_DIG - 1, x);
		prec = strtod(buf, NULL) == x ? 0 : DBL_DIG + 1;
	}
	for (; prec > 0 && prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, x);
		if (strtod(buf, NULL) == x)
			break;
		if (frexp(x, &exp) == 0.5) {
			memcpy(up, buf, sizeof(buf));
			if (next_up(up) && strtod(up, NULL) == x) {
				memcpy(buf, up, sizeof(buf));
				break;
			}
		}
	}
	if (prec == 17)
		snprintf(buf, sizeof(buf), "%.16e", x);
	e = strchr(buf, 'e');
	n = 0;
	for (s = buf; s < e; s++)
		if (*s != '.')
			digits[n++] = *s;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	return atoi(e + 1);
}

size_t
pyfloat(char buf[PYFLOAT_MAX], double x)
{
	char digits[18], *p = buf;
	int exp, n, i;

	if (isnan(x))
		return (size_t)sprintf(buf, "NaN");
	if (signbit(x)) {
		*p++ = '-';
		x = -x;
	}
	if (isinf(x))
		return (size_t)(p - buf) + sprintf(p, "Infinity");
	if (x == 0)
		return (size_t)(p - buf) + sprintf(p, "0.0");
	exp = shortest(x, digits);
	n = strlen(digits);
	if (exp < -4 || exp >= 16)	/* 1e-05, 1.5e+16 */
		p = put_exponent(p, digits, n, exp);
	else if (exp < 0)		/* 0.000123 */
		p = put_fraction(p, digits, n, exp);
	else {
		/* 123.45, 100.0: at least one digit after the point. */
		for (i = 0; i <= exp; i++)
			*p++ = i < n ? digits[i] : '0';
		*p++ = '.';
		if (n > exp + 1) {
			memcpy(p, digits + exp + 1, n - exp - 1);
			p += n - exp - 1;
		} else
			*p++ = '0';
	}
	*p = '\0';
	return p - buf;
}

/*
 * jq's layout of the digits (its jvp_dtoa_fmt, after David Gay's g_fmt):
 * with the point after the first digit and a signed exponent of two
 * digits or more when the exponent is below -4 or past 15 plus the
 * digits after the first, else fixed, without a point for an integer.
 */
size_t
jqnum(char buf[JQNUM_MAX], double x)
{
	char digits[18], *p = buf;
	int exp, n, i;

	if (isnan(x))
		return (size_t)sprintf(buf, "null");
	if (signbit(x)) {
		*p++ = '-';
		x = -x;
	}
	if (x == 0) {
		*p++ = '0';
		*p = '\0';
		return p - buf;
	}
	if (isinf(x))
		x = DBL_MAX;
	/* An integer of 15 digits or fewer is its digits. */
	if (x < 1e15 && x == (int64_t)x) {
		p = fmt_int(p, (int64_t)x);
		*p = '\0';
		return p - buf;
	}
	exp = shortest(x, digits);
	n = strlen(digits);
	if (exp < -4 || exp > n + 14)
		p = put_exponent(p, digits, n, exp);
	else if (exp < 0)
		p = put_fraction(p, digits, n, exp);
	else {
		for (i = 0; i <= exp || i < n; i++) {
			if (i == exp + 1)
				*p++ = '.';
			*p++ = i < n ? digits[i] : '0';
		}
	}
	*p = '\0';
	return p - buf;
}

/* Index of the highest set bit of n > 0. */
static int
msb(unsigned __int128 n)
{
	uint64_t hi = n >> 64;

	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)n);
}

/*
 * a / b rounded once to the nearest double, as Python divides integers.
 * Shifted so its top bit is bit 126, a / b has 63 bits or more: with the
 * remainder folded into the last one, the conversion to double rounds it
 * as the exact quotient would round.
 */
double
pydiv(int64_t a, int64_t b)
{
	unsigned __int128 n, q;
	int shift, neg = (a < 0) != (b < 0);
	uint64_t ua = a < 0 ? -(uint64_t)a : (uint64_t)a;
	uint64_t ub = b < 0 ? -(uint64_t)b : (uint64_t)b;
	double d;

	if (ua == 0)
		return neg ? -0.0 : 0.0;
	shift = 126 - msb(ua);
	n = (unsigned __int128)ua << shift;
	q = n / ub | (n % ub != 0);
	d = ldexp((double)q, -shift);
	return neg ? -d : d;
}
