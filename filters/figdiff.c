/*
 * figdiff: compare the figures of two sweeps, configuration by
 * configuration, with Welch's t-test over repeats and a tolerance per
 * figure.  See figdiff(1).
 */
#include <err.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* One side's figure lines, and its line read ahead, copied. */
struct side {
	struct lines	 in;
	int		 have;		/* conf, fig and value hold a line */
	char		*conf;
	size_t		 confcap;
	char		*fig;
	size_t		 figcap;
	double		 value;
};

/* The values of one figure on one side, summed as Welford does. */
struct sample {
	size_t	 n;
	double	 mean;
	double	 m2;			/* sum of squared deviations */
};

/* A tolerance line: which figures, and the change they let pass. */
struct tol {
	char	*glob;
	int	 off;			/* the figures never gate */
	double	 pct;			/* relative, in %; < 0: none */
	double	 abs;			/* in the figure's unit; < 0: none */
	double	 ns;			/* a time, for figures of time; < 0: none */
};

/* The tolerance lines of -t, then the built-in ones, first match wins. */
static struct tol *tols;
/* Tolerance lines in tols. */
static size_t	 ntols;
/* The significance level of the test. */
static double	 alpha = 0.05;
/* The configuration and figure being compared, copied. */
static char	*curconf, *curfig;
/* Bytes allocated for curconf and curfig. */
static size_t	 curconfcap, curfigcap;

static _Noreturn void usage(int);

/* Copy s into *dst, growing it: the line it is in is read over next. */
static char *
keep(char **dst, size_t *cap, const char *s)
{
	size_t len = strlen(s) + 1;

	if (len > *cap) {
		if ((*dst = realloc(*dst, len)) == NULL)
			err(1, NULL);
		*cap = len;
	}
	return memcpy(*dst, s, len);
}

/* A decimal number of tolerance text at s: its value, *endp past it. */
static double
decimal(const char *s, char **endp)
{
	size_t len = strspn(s, "0123456789.");
	double v;

	if (len == 0 || strspn(s, ".") == len)
		return -1;
	v = strtod(s, endp);
	return *endp == s + len ? v : -1;
}

static void
addtol(const char *glob, int off, double pct, double abs, double ns)
{
	if ((tols = reallocarray(tols, ntols + 1, sizeof(*tols))) == NULL)
		err(1, NULL);
	if ((tols[ntols].glob = strdup(glob)) == NULL)
		err(1, NULL);
	tols[ntols].off = off;
	tols[ntols].pct = pct;
	tols[ntols].abs = abs;
	tols[ntols++].ns = ns;
}

/* Read the tolerance file: lines of "glob threshold...", # comments. */
static void
loadtols(const char *path)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	struct lines in;
	char *line, *glob, *tok, *end, *save;
	double v, pct, abs, ns;
	size_t i;
	int off;

	lines_open(&in, path);
	while ((line = lines_next(&in, NULL)) != NULL) {
		line[strcspn(line, "#")] = '\0';
		if ((glob = strtok_r(line, " \t\r", &save)) == NULL)
			continue;
		off = 0;
		pct = abs = ns = -1;
		while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
			if (strcmp(tok, "off") == 0) {
				off = 1;
				continue;
			}
			if ((v = decimal(tok, &end)) < 0)
				errx(1, "%s:%lu: %s: not a tolerance: write 5%%, "
				    "0.2ms or 1000 (the figure's unit), or off",
				    in.path, in.lineno, tok);
			if (strcmp(end, "%") == 0)
				pct = v;
			else if (*end == '\0')
				abs = v;
			else {
				for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
					if (strcmp(end, units[i].unit) == 0)
						break;
				if (i == sizeof(units) / sizeof(units[0]))
					errx(1, "%s:%lu: %s: unknown unit: use "
					    "%%, ns, us, ms or s", in.path,
					    in.lineno, tok);
				ns = v * units[i].ns;
			}
		}
		if (!off && pct < 0 && abs < 0 && ns < 0)
			errx(1, "%s:%lu: %s: no tolerance: give one, as in "
			    "'%s 5%%', or off", in.path, in.lineno, glob, glob);
		if (off && (pct >= 0 || abs >= 0 || ns >= 0))
			errx(1, "%s:%lu: %s: off with a tolerance: give one or "
			    "the other", in.path, in.lineno, glob);
		addtol(glob, off, pct, abs, ns);
	}
	lines_close(&in);
}

static const struct tol *
tolfor(const char *fig)
{
	size_t i;

	for (i = 0; i < ntols; i++)
		if (fnmatch(tols[i].glob, fig, 0) == 0)
			return &tols[i];
	abort();		/* the last built-in line is "*" */
}

/* The last part of a figure's name, which says its unit. */
static const char *
measure(const char *fig)
{
	const char *dot = strrchr(fig, '.');

	return dot == NULL ? fig : dot + 1;
}

/* A figure's unit in ns: 1 or 1e6 for figures of time, 0 for others. */
static double
nsunit(const char *fig)
{
	const char *m = measure(fig);
	size_t len = strlen(m);

	if (len >= 3 && strcmp(m + len - 3, "_ns") == 0)
		return 1;
	if (strcmp(m, "milliseconds") == 0)
		return 1e6;
	return 0;
}

/* Which way a figure gets worse: 1 up, -1 down, 0 neither. */
static int
direction(const char *fig)
{
	const char *m = measure(fig);

	/* A share moves when any category does: their times judge. */
	if (strcmp(m, "percent_of_kernel_time") == 0)
		return 0;
	/* Launch time hidden behind kernels: less launching lowers it. */
	if (strcmp(fig, "cpu_gpu_overlap.launch_api_gpu_overlap_ns") == 0)
		return 0;
	/* Busy and overlap percentages: less is worse. */
	if (strstr(m, "percent") != NULL)
		return -1;
	return 1;
}

/* Whether change is beyond every threshold of t for a figure of base. */
static int
beyond(const struct tol *t, const char *fig, double base, double change)
{
	double unit = nsunit(fig), mag = fabs(change);

	if (change == 0)
		return 0;
	if (t->pct >= 0 && base != 0 && mag <= t->pct / 100 * fabs(base))
		return 0;
	if (t->abs >= 0 && mag <= t->abs)
		return 0;
	if (t->ns >= 0 && unit != 0 && mag <= t->ns / unit)
		return 0;
	return 1;
}

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
 * Welch's t-test of two samples of two values or more: t, its degrees
 * of freedom (Welch-Satterthwaite) and the two-sided p-value, P(|T| >=
 * |t|) = I_{df/(df+t^2)}(df/2, 1/2).  Without spread on either side t
 * and df are NAN, and p is 0 if the means differ, else 1.
 */
static double
welch(const struct sample *b, const struct sample *n, double *tp,
    double *dfp)
{
	double vb = b->m2 / (b->n - 1) / b->n, vn = n->m2 / (n->n - 1) / n->n;
	double se2 = vb + vn, t, df;

	*tp = *dfp = NAN;
	if (se2 == 0)
		return n->mean == b->mean ? 1 : 0;
	t = (n->mean - b->mean) / sqrt(se2);
	df = se2 * se2 / (vb * vb / (b->n - 1) + vn * vn / (n->n - 1));
	*tp = t;
	*dfp = df;
	return betai(df / 2, 0.5, df / (df + t * t));
}

static void
put_num(double v)
{
	char buf[PYFLOAT_MAX];

	if (isfinite(v)) {
		pyfloat(buf, v);
		printf("\t%s", buf);
	} else
		fputs("\t-", stdout);
}

/* A side's count, mean and standard deviation, or "-" for none. */
static void
put_sample(const struct sample *s)
{
	if (s->n == 0) {
		fputs("\t-\t-\t-", stdout);
		return;
	}
	printf("\t%zu", s->n);
	put_num(s->mean);
	put_num(s->n > 1 ? sqrt(s->m2 / (s->n - 1)) : NAN);
}

/* Judge curfig of curconf and print the comparison line. */
static void
compare(const struct sample *b, const struct sample *n)
{
	const struct tol *t;
	const char *verdict;
	double change = NAN, pct = NAN, tv = NAN, df = NAN, p = NAN;
	int dir, sig;

	if (b->n == 0)
		verdict = "only-new";
	else if (n->n == 0)
		verdict = "only-base";
	else {
		change = n->mean - b->mean;
		if (b->mean != 0)
			pct = change / fabs(b->mean) * 100;
		/* Untested (n = 1 on a side), the tolerance alone judges;
		 * a p-value arithmetic could not give proves nothing. */
		sig = 1;
		if (b->n > 1 && n->n > 1) {
			p = welch(b, n, &tv, &df);
			sig = p < alpha;
		}
		t = tolfor(curfig);
		dir = direction(curfig);
		if (t->off)
			verdict = "ungated";
		else if (!sig || !beyond(t, curfig, b->mean, change))
			verdict = "unchanged";
		else if (dir == 0)
			verdict = "changed";
		else
			verdict = change * dir > 0 ? "regression" : "improvement";
	}
	printf("%s\t%s\t%s", curconf, curfig, verdict);
	put_sample(b);
	put_sample(n);
	put_num(change);
	put_num(pct);
	put_num(tv);
	put_num(df);
	put_num(p);
	putchar('\n');
}

/* Read the side's next figure line ahead, checking its order. */
static void
advance(struct side *s)
{
	char *line, *fig, *val, *cut;
	size_t len;
	int cmp;

	if ((line = lines_next(&s->in, &len)) == NULL) {
		s->have = 0;
		return;
	}
	/* Figure lines are made whole: a line without an end may be torn. */
	if (s->in.eof)
		errx(1, "%s:%lu: no newline at the end of the input: is it "
		    "cut short?", s->in.path, s->in.lineno);
	if ((fig = strchr(line, '\t')) == NULL ||
	    (val = strchr(++fig, '\t')) == NULL)
		errx(1, "%s:%lu: not a figure line: configuration, figure "
		    "and value, tab-separated", s->in.path, s->in.lineno);
	fig[-1] = *val++ = '\0';
	if (*line == '\0' || *fig == '\0')
		errx(1, "%s:%lu: empty %s", s->in.path, s->in.lineno,
		    *line == '\0' ? "configuration" : "figure");
	len -= val - line;
	if (len == 0 || json_number(val, len) != len ||
	    !isfinite(s->value = strtod(val, NULL))) {
		cut = shown(val, len, 40);
		errx(1, "%s:%lu: value '%s' is not a number", s->in.path,
		    s->in.lineno, cut);
	}
	if (s->have && ((cmp = strcmp(line, s->conf)) < 0 ||
	    (cmp == 0 && strcmp(fig, s->fig) < 0)))
		errx(1, "%s:%lu: %s before this line's: figure lines are "
		    "sorted by configuration, then figure; sort them with "
		    "LC_ALL=C sort -t \"$(printf '\\t')\" -k1,1 -k2,2",
		    s->in.path, s->in.lineno, cmp < 0 ? "a greater "
		    "configuration" : "a greater figure of its configuration");
	keep(&s->conf, &s->confcap, line);
	keep(&s->fig, &s->figcap, fig);
	s->have = 1;
}

/* Add the side's lines of curconf and curfig to the sample. */
static void
take(struct side *s, struct sample *smp)
{
	double d;

	while (s->have && strcmp(s->conf, curconf) == 0 &&
	    strcmp(s->fig, curfig) == 0) {
		smp->n++;
		d = s->value - smp->mean;
		smp->mean += d / smp->n;
		smp->m2 += d * (s->value - smp->mean);
		advance(s);
	}
}

/* Whether the side's next line is of curconf. */
static int
inconf(const struct side *s)
{
	return s->have && strcmp(s->conf, curconf) == 0;
}

int
main(int argc, char *argv[])
{
	struct side base, new;
	struct sample sb, sn;
	struct side *one;
	char *end;
	int ch, cmp;

	while ((ch = getopt_long(argc, argv, "a:ht:", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			alpha = strtod(optarg, &end);
			if (*end != '\0' || !(alpha > 0 && alpha < 1)) {
				warnx("-a %s: alpha is a probability, above 0 "
				    "and below 1", optarg);
				usage(EXIT_USAGE);
			}
			break;
		case 'h':
			usage(0);
		case 't':
			loadtols(optarg);
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || (strcmp(argv[0], "-") == 0 &&
	    strcmp(argv[1], "-") == 0))
		usage(EXIT_USAGE);
	/* Kernels explain; they gate when -t names them. */
	addtol("kernels.*", 1, -1, -1, -1);
	addtol("*", 0, 5, -1, -1);

	memset(&base, 0, sizeof(base));
	memset(&new, 0, sizeof(new));
	lines_open(&base.in, argv[0]);
	lines_open(&new.in, argv[1]);
	buffer_stdout();
	advance(&base);
	advance(&new);
	/* Configurations, then figures in each, walked as a sorted merge:
	 * step past the smaller key; equal keys are compared. */
	while (base.have || new.have) {
		cmp = !base.have ? 1 : !new.have ? -1 :
		    strcmp(base.conf, new.conf);
		keep(&curconf, &curconfcap, cmp <= 0 ? base.conf : new.conf);
		if (cmp != 0) {
			one = cmp < 0 ? &base : &new;
			while (inconf(one))
				advance(one);
			printf("%s\t\t%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n",
			    curconf, cmp < 0 ? "only-base" : "only-new");
			continue;
		}
		while (inconf(&base) || inconf(&new)) {
			cmp = !inconf(&base) ? 1 : !inconf(&new) ? -1 :
			    strcmp(base.fig, new.fig);
			keep(&curfig, &curfigcap, cmp <= 0 ? base.fig : new.fig);
			memset(&sb, 0, sizeof(sb));
			memset(&sn, 0, sizeof(sn));
			take(&base, &sb);
			take(&new, &sn);
			compare(&sb, &sn);
		}
	}
	lines_close(&base.in);
	lines_close(&new.in);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: figdiff [-a alpha] [-t tolerances] base new\n",
	    status);
}
