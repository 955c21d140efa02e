/*
 * welch.c: Welch's t-test of two samples, as figdiff(1) tests a figure of
 * two sweeps and sweepsum(1) the fastest configuration against the next.
 */
#include <math.h>

#include "h3prof.h"

/* Lentz's tiny: what stands for a zero denominator. */
#define LENTZ_TINY	1e-300

/* Keep v off zero, as the modified Lentz method does. */
static double
offzero(double v)
{
	return fabs(v) < LENTZ_TINY ? LENTZ_TINY : v;
}

/*
 * One term aa of the continued fraction into the Lentz state c, d: the
 * factor it multiplies the fraction by.
 */
static double
lentz(double aa, double *c, double *d)
{
	*d = 1 / offzero(1 + aa * *d);
	*c = offzero(1 + aa / *c);
	return *d * *c;
}

/*
 * The continued fraction of the incomplete beta function, by the
 * modified Lentz method (Numerical Recipes, betacf); it converges in
 * about sqrt(max(a, b)) steps for x < (a + 1) / (a + b + 2).
 */
static double
betacf(double a, double b, double x)
{
	const double eps = 1e-16;
	double c = 1, d, h, del;
	int m, m2;

	d = 1 / offzero(1 - (a + b) * x / (a + 1));
	h = d;
	for (m = 1; m <= 1000000; m++) {
		m2 = 2 * m;
		h *= lentz(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
		del = lentz(-(a + m) * (a + b + m) * x /
		    ((a + m2) * (a + m2 + 1)), &c, &d);
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double
betai(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
	    b * log1p(-x));
	/* The fraction converges fast on one side of the mean, a symmetry
	 * gives the other. */
	if (x < (a + 1) / (a + b + 2))
		return front * betacf(a, b, x) / a;
	return 1 - front * betacf(b, a, 1 - x) / b;
}

/*
 * Welch's t-test of two samples of two values or more, each given by its
 * mean, sample variance (of n - 1) and n: t of the second against the
 * first, its degrees of freedom (Welch-Satterthwaite) and the two-sided
 * p-value, P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2).  Without spread on
 * either side t and df are NAN, and p is 0 if the means differ, else 1.
 */
double
welch_test(double mean1, double var1, double n1, double mean2, double var2,
    double n2, double *tp, double *dfp)
{
	double v1 = var1 / n1, v2 = var2 / n2, se2 = v1 + v2, t, df;

	*tp = *dfp = NAN;
	if (se2 == 0)
		return mean2 == mean1 ? 1 : 0;
	t = (mean2 - mean1) / sqrt(se2);
	df = se2 * se2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1));
	*tp = t;
	*dfp = df;
	return student_p(t, df);
}

/* The two-sided p-value of Student's t on df degrees of freedom. */
double
student_p(double t, double df)
{
	return betai(df / 2, 0.5, df / (df + t * t));
}

/* The p-value of Fisher's F on d1 and d2 degrees of freedom, P(F' >= f). */
double
fisher_p(double f, double d1, double d2)
{
	return betai(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}
