/*
 * figdiff: compare the figures of two sweeps, configuration by
 * configuration, with Welch's t-test over repeats, the Benjamini-Hochberg
 * correction over the tests that gate, and a tolerance per figure.  See
 * figdiff(1).
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
	char		*glob;
	int		 off;		/* the figures never gate */
	double		 pct;		/* relative, in %; < 0: none */
	double		 abs;		/* in the figure's unit; < 0: none */
	double		 ns;		/* a time, for figures of time; < 0: none */
	const char	*path;		/* the file of the line; NULL: built in */
	unsigned long	 lineno;
	int		 matched;	/* some figure's name matched glob */
};

/*
 * A comparison, held until every test is made: whether a gating test
 * passes depends on the p-values of all the others.
 */
struct cmp {
	char		*conf;
	char		*fig;
	const char	*verdict;	/* NULL: a test that gates, until
					   correct() judges it */
	struct sample	 b, n;
	double		 change, pct, t, df, p;
	double		 q;		/* p adjusted by Benjamini-Hochberg */
	int		 dir;		/* direction(fig) */
	int		 beyond;	/* beyond its tolerance */
};

/* The figures that gate by default, at 5%: times, each higher worse. */
static const char *const gated[] = {
	"gpu_span_ns", "kernel_time_ns", "components.*.milliseconds",
	"idle_gaps.total_ns",
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
/* Every comparison, in input order, how many, and room for how many. */
static struct cmp *cmps;
static size_t	 ncmps, cmpscap;
/* The two inputs, each at its next line. */
static struct side base, new;

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

/* A tolerance line of path's line lineno, or built in (path NULL). */
static void
addtol(const char *glob, int off, double pct, double abs, double ns,
    const char *path, unsigned long lineno)
{
	struct tol *t;

	if ((tols = reallocarray(tols, ntols + 1, sizeof(*tols))) == NULL)
		err(1, NULL);
	t = &tols[ntols++];
	if ((t->glob = strdup(glob)) == NULL)
		err(1, NULL);
	t->off = off;
	t->pct = pct;
	t->abs = abs;
	t->ns = ns;
	t->path = path;
	t->lineno = lineno;
	t->matched = 0;
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
		addtol(glob, off, pct, abs, ns, in.path, in.lineno);
	}
	lines_close(&in);
}

/* The tolerance of a figure, the first line that matches it; every
 * line that matches is marked, to warn of those that match nothing. */
static const struct tol *
tolfor(const char *fig)
{
	const struct tol *first = NULL;
	size_t i;

	for (i = 0; i < ntols; i++)
		if ((first == NULL || !tols[i].matched) &&
		    fnmatch(tols[i].glob, fig, 0) == 0) {
			tols[i].matched = 1;
			if (first == NULL)
				first = &tols[i];
		}
	if (first == NULL)
		abort();	/* the last built-in line is "*" */
	return first;
}

/* Warn of each line of the tolerance file that matched no figure: a
 * misspelt glob gates nothing, silently otherwise. */
static void
warn_unmatched(void)
{
	size_t i;

	for (i = 0; i < ntols; i++)
		if (tols[i].path != NULL && !tols[i].matched)
			warnx("%s:%lu: %s matches no figure of either side",
			    tols[i].path, tols[i].lineno, tols[i].glob);
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
	/* A sum of kernel time over the span passes 100% when kernels
	 * overlap: more overlap raises it, more work too. */
	if (strcmp(fig, "kernel_busy_percent_of_span") == 0)
		return 0;
	/* Launch time hidden behind kernels: less launching lowers it. */
	if (strcmp(fig, "cpu_gpu_overlap.launch_api_gpu_overlap_ns") == 0)
		return 0;
	/* Fewer gaps may be gaps merged: their total time judges. */
	if (strcmp(m, "count") == 0 || strcmp(m, "positive_gap_count") == 0)
		return 0;
	/* Busy and overlap percentages: less is worse. */
	if (strstr(m, "percent") != NULL)
		return -1;
	return 1;
}

/* Whether change, from a base value was, is beyond every threshold of t. */
static int
beyond(const struct tol *t, const char *fig, double was, double change)
{
	double unit = nsunit(fig), mag = fabs(change);

	if (change == 0)
		return 0;
	if (t->pct >= 0 && was != 0 && mag <= t->pct / 100 * fabs(was))
		return 0;
	if (t->abs >= 0 && mag <= t->abs)
		return 0;
	if (t->ns >= 0 && unit != 0 && mag <= t->ns / unit)
		return 0;
	return 1;
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

/* A new comparison of fig in curconf, of the samples b and n. */
static struct cmp *
newcmp(const char *fig, const struct sample *b, const struct sample *n)
{
	struct cmp *c;

	if (ncmps == cmpscap) {
		cmpscap = cmpscap ? cmpscap * 2 : 256;
		if ((cmps = reallocarray(cmps, cmpscap, sizeof(*cmps))) == NULL)
			err(1, NULL);
	}
	c = &cmps[ncmps++];
	if ((c->conf = strdup(curconf)) == NULL || (c->fig = strdup(fig)) == NULL)
		err(1, NULL);
	c->b = *b;
	c->n = *n;
	c->change = c->pct = c->t = c->df = c->p = c->q = NAN;
	c->dir = c->beyond = 0;
	c->verdict = NULL;
	return c;
}

/* Compare curfig of curconf: judged now, or by the correction later
 * where it is a test that gates. */
static void
compare(const struct sample *b, const struct sample *n)
{
	const struct tol *t;
	struct cmp *c;

	c = newcmp(curfig, b, n);
	t = tolfor(curfig);
	if (b->n == 0) {
		c->verdict = "only-new";
		return;
	}
	/* A figure that gates, missing in new, fails the gate (closed);
	   h3compare names the runs of new that lack it. */
	if (n->n == 0) {
		c->verdict = t->off ? "only-base" : "missing";
		return;
	}
	c->change = n->mean - b->mean;
	if (b->mean != 0)
		c->pct = c->change / fabs(b->mean) * 100;
	if (b->n > 1 && n->n > 1)
		c->p = welch_test(b->mean, b->m2 / (b->n - 1), b->n, n->mean,
		    n->m2 / (n->n - 1), n->n, &c->t, &c->df);
	c->dir = direction(curfig);
	c->beyond = beyond(t, curfig, b->mean, c->change);
	if (t->off)
		c->verdict = "ungated";
	else if (c->dir == 0)
		/* No direction, no gate: its own test tells a change. */
		c->verdict = c->beyond && !(c->p >= alpha) ? "changed" :
		    "unchanged";
	else if (isnan(c->p))
		/* Untested (n = 1 on a side), the tolerance alone judges;
		 * a p-value arithmetic could not give proves nothing. */
		c->verdict = !c->beyond ? "unchanged" : c->change * c->dir > 0 ?
		    "regression" : "improvement";
	/* Else a test that gates: correct() gives its verdict. */
}

static int
byp(const void *a, const void *b)
{
	double pa = (*(struct cmp *const *)a)->p;
	double pb = (*(struct cmp *const *)b)->p;

	return (pa > pb) - (pa < pb);
}

/*
 * The Benjamini-Hochberg step-up over every test that gates: the i-th
 * smallest of m p-values becomes min over j >= i of p_(j) m / j, and
 * a test rejects where that is below alpha.  Under noise alone the gate
 * fails with probability alpha at most, however many tests it makes.
 */
static void
correct(void)
{
	struct cmp **tests;
	size_t i, ntests = 0;
	double q = 1;

	for (i = 0; i < ncmps; i++)
		if (cmps[i].verdict == NULL)
			ntests++;
	if ((tests = reallocarray(NULL, ntests + 1, sizeof(*tests))) == NULL)
		err(1, NULL);
	ntests = 0;
	for (i = 0; i < ncmps; i++)
		if (cmps[i].verdict == NULL)
			tests[ntests++] = &cmps[i];
	qsort(tests, ntests, sizeof(*tests), byp);
	for (i = ntests; i-- > 0;) {
		if (tests[i]->p * ntests / (i + 1) < q)
			q = tests[i]->p * ntests / (i + 1);
		tests[i]->q = q;
		tests[i]->verdict = !(q < alpha) || !tests[i]->beyond ?
		    "unchanged" : tests[i]->change * tests[i]->dir > 0 ?
		    "regression" : "improvement";
	}
	free(tests);
}

/* Print a comparison line. */
static void
put_cmp(const struct cmp *c)
{
	printf("%s\t%s\t%s", c->conf, c->fig, c->verdict);
	put_sample(&c->b);
	put_sample(&c->n);
	put_num(c->change);
	put_num(c->pct);
	put_num(c->t);
	put_num(c->df);
	put_num(c->p);
	put_num(c->q);
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
	struct sample sb, sn;
	struct side *one;
	char *end;
	size_t i;
	int ch, cmp;

	while ((ch = getopt_long(argc, argv, "a:ht:", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			/* A decimal, as jq and a reader take it: no hex. */
			alpha = decimal(optarg, &end);
			if (alpha < 0 || *end != '\0' || !(alpha > 0 &&
			    alpha < 1)) {
				warnx("-a %s: alpha is a probability, above 0 "
				    "and below 1, written as 0.05", optarg);
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
	/* The times of the sweep gate; kernels, maxima, percentiles,
	 * counts and shares explain, and gate where -t names them. */
	addtol("kernels.*", 1, -1, -1, -1, NULL, 0);
	for (i = 0; i < sizeof(gated) / sizeof(gated[0]); i++)
		addtol(gated[i], 0, 5, -1, -1, NULL, 0);
	addtol("*", 1, -1, -1, -1, NULL, 0);

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
			/* Its figures count as matched by the tolerances. */
			while (inconf(one)) {
				tolfor(one->fig);
				advance(one);
			}
			memset(&sb, 0, sizeof(sb));
			newcmp("", &sb, &sb)->verdict = cmp < 0 ? "only-base" :
			    "only-new";
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
	correct();
	for (i = 0; i < ncmps; i++)
		put_cmp(&cmps[i]);
	if (ncmps > 0)
		warn_unmatched();
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
