/*
 * inrange: join NVTX ranges with the GPU work launched inside them, as
 * nsys's nvtx_kern_sum and nvtx_gpu_proj_sum do, and sum it by range name
 * or select the work of chosen range instances.  See inrange(1).
 *
 * Both inputs are sorted by start: range lines by the range's, launch
 * lines by the launching call's.  A range is open from when the walk
 * reaches its start until a launch starts after its end; only open ranges
 * are held, so memory follows how many ranges overlap, not the trace.
 */
#include <ctype.h>
#include <err.h>
#include <fnmatch.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* A range name and what its instances hold; a record of names. */
struct name {
	struct group	 g;		/* key: the name, escaped */
	int64_t		 instances;
	int64_t		 launches;	/* kernels, each counted once */
	int64_t		 kernel_ns;
	int64_t		 projected_ns;
	int64_t		*category_ns;	/* by rules category */
	int64_t		 lastlaunch;	/* the number of the launch last
					   counted in it */
	int		 matched;	/* the name matches -m */
	size_t		 order;		/* first seen: the order of ties */
};

/* An instance of a range, open or, for matched names, kept to report. */
struct instance {
	size_t		 name;		/* index in names.recs */
	int64_t		 seq;		/* its number among its name's, from 1 */
	int64_t		 start, end;	/* the range, ns */
	char		*thread;
	int64_t		 launches;
	int64_t		 kernel_ns;
	int64_t		 opstart, opend; /* its GPU work's first start and
					   last end, if hasops */
	int		 hasops;
	int		 skipped;	/* among the first -s of a matched name */
};

/* The range names seen, each a struct name. */
static struct groups	 names = { .size = sizeof(struct name) };
/* The ranges open now: live, those a later launch may fall in. */
static struct instance	*live;
static size_t		 nlive, livecap;
/* The finished instances of matched names, in the order they finished. */
static struct instance	*kept;
static size_t		 nkept, keptcap;
/* Kernel names seen, and the category of each. */
struct kernel {
	struct group	 g;
	size_t		 category;
};
static struct groups	 kernels = { .size = sizeof(struct kernel) };
/* The rules that classify kernels. */
static struct rules	*rules;
/* -m: the pattern of the range names to report by instance and select. */
static const char	*pattern;
/* -s: the instances of each matched name to skip as warm-up. */
static int64_t		 skip;
/* -l: write the launch lines of selected work instead of facts. */
static int		 lflag;
/* -g: where -l writes the time outside the scope, or NULL. */
static const char	*gapspath;
/* The projected GPU time of each selected instance, start and end, in
   the order they finished: the time of the scope. */
static int64_t		(*spans)[2];
static size_t		 nspans, spanscap;
/* -x: count the rules' communication categories, as classify -x. */
static int		 xflag;
/* -p: the prefix of every fact. */
static const char	*prefix = "";
/* Launches read so far. */
static int64_t		 nlaunches;

static _Noreturn void usage(int);

/* The name of an instance. */
static struct name *
nameof(const struct instance *in)
{
	return (struct name *)names.recs + in->name;
}

/* One range line: start, end, thread, name. */
struct range {
	int64_t		 start, end;
	char		*thread;
	char		*name;		/* escaped */
	size_t		 namelen;
};

/* The range lines, sorted by start. */
static struct lines	 rin;
/* The launch lines, sorted by call start. */
static struct launches	 lin;
/* The start of the range line last read. */
static int64_t		 prevrange;

/* Read the next range line into r; return 0 at the end. */
static int
next_range(struct range *r)
{
	char *line, *p, *s, *e;
	size_t len;

	if ((line = lines_next(&rin, &len)) == NULL)
		return 0;
	if (rin.eof)
		errx(1, "%s: no newline at the end of the input: is it "
		    "cut short?", lines_at(&rin));
	p = line;
	s = column(&p);
	e = column(&p);
	r->thread = column(&p);
	if ((r->name = p) == NULL || strchr(p, '\t') != NULL)
		errx(1, "%s: expected a range line: start, end, thread, "
		    "name", lines_at(&rin));
	r->namelen = line + len - p;
	if (parse_ns(s, &r->start) == -1 || parse_ns(e, &r->end) == -1 ||
	    r->end < r->start)
		errx(1, "%s: bad start or end", lines_at(&rin));
	if (r->start < prevrange)
		errx(1, "%s: not sorted by start (%lld after %lld); "
		    "sort with: sort -t \"$(printf '\\t')\" -k1,1n",
		    lines_at(&rin), (long long)r->start,
		    (long long)prevrange);
	prevrange = r->start;
	return 1;
}

/* A range line becomes an open instance. */
static void
opened(const struct range *iv)
{
	struct instance *in;
	struct name *nm;
	char *copy;
	size_t len;

	nm = groups_get(&names, iv->name, iv->namelen);
	if (nm->instances == 0 && nm->order == 0) {
		nm->order = names.n;
		if ((nm->category_ns = calloc(rules_ncategories(rules),
		    sizeof(int64_t))) == NULL)
			err(1, NULL);
		if (pattern != NULL) {
			if ((copy = strdup(iv->name)) == NULL)
				err(1, NULL);
			len = unescape(copy);
			nm->matched = strlen(copy) == len &&
			    fnmatch(pattern, copy, 0) == 0;
			free(copy);
		}
	}
	nm->instances++;
	live = grow(live, &livecap, nlive, sizeof(*live));
	in = &live[nlive++];
	memset(in, 0, sizeof(*in));
	in->name = nm - (struct name *)names.recs;
	in->seq = nm->instances;
	in->start = iv->start;
	in->end = iv->end;
	if ((in->thread = strdup(iv->thread)) == NULL)
		err(1, NULL);
	in->skipped = nm->matched && in->seq <= skip;
}

/* An instance no launch can fall in any more: sum it into its name. */
static void
closed(struct instance *in)
{
	struct name *nm = nameof(in);

	if (in->hasops)
		sum_ns(&nm->projected_ns, in->opend - in->opstart, &lin.in);
	if (nm->matched && !in->skipped && in->hasops) {
		spans = grow(spans, &spanscap, nspans, sizeof(*spans));
		spans[nspans][0] = in->opstart;
		spans[nspans++][1] = in->opend;
	}
	if (nm->matched && !lflag) {
		kept = grow(kept, &keptcap, nkept, sizeof(*kept));
		kept[nkept++] = *in;
	} else
		free(in->thread);
}

/* Close the open instances that end before t, or all with t INT64_MAX. */
static void
close_before(int64_t t)
{
	size_t i, j;

	for (i = j = 0; i < nlive; i++)
		if (live[i].end < t || t == INT64_MAX)
			closed(&live[i]);
		else
			live[j++] = live[i];
	nlive = j;
}

/* The category of a kernel name, escaped, as classify(1) gives it. */
static size_t
category(const char *name, size_t len)
{
	struct kernel *k;
	const char *cat;
	char *copy;
	size_t i;

	k = groups_get(&kernels, name, len);
	if (k->category != 0)
		return k->category - 1;
	if ((copy = strdup(name)) == NULL)
		err(1, NULL);
	unescape(copy);
	cat = rules_match(rules, copy);
	free(copy);
	for (i = 0; strcmp(rules_category(rules, i), cat) != 0; i++)
		;
	k->category = i + 1;
	return i;
}

/* Count a launch in every open instance on its thread that holds it. */
static void
join(const struct launch *ln)
{
	const struct interval *iv = &ln->op;
	struct instance *in;
	struct name *nm;
	size_t i, cat = 0;
	int kernel, selected = 0, excluded = 0;

	kernel = strcmp(iv->kind, "kernel") == 0;
	if (kernel && !lflag)
		cat = category(iv->name, iv->namelen);
	nlaunches++;
	for (i = 0; i < nlive; i++) {
		in = &live[i];
		if (in->start > ln->start || in->end < ln->end ||
		    strcmp(in->thread, ln->thread) != 0)
			continue;
		nm = nameof(in);
		if (nm->matched) {
			if (in->skipped)
				excluded = 1;
			else
				selected = 1;
		}
		if (!in->hasops || iv->start < in->opstart)
			in->opstart = iv->start;
		if (!in->hasops || iv->end > in->opend)
			in->opend = iv->end;
		in->hasops = 1;
		if (!kernel)
			continue;
		in->launches++;
		sum_ns(&in->kernel_ns, iv->end - iv->start, &lin.in);
		/* A kernel in two ranges of one name counts once in it. */
		if (nm->lastlaunch == nlaunches)
			continue;
		nm->lastlaunch = nlaunches;
		nm->launches++;
		sum_ns(&nm->kernel_ns, iv->end - iv->start, &lin.in);
		sum_ns(&nm->category_ns[cat], iv->end - iv->start, &lin.in);
	}
	if (lflag && selected && !excluded)
		put_launch(&lin);
}

static int
cmpspan(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/*
 * The time of the scope: the union of the selected instances' projected
 * GPU time, in ns, instances of matching names that nest or overlap
 * counted once.  With gaps, the time between its parts, from its first
 * start to its last end, as interval lines: what an idle gap of the scope
 * must not span.
 */
static int64_t
scope_ns(FILE *gaps)
{
	int64_t total = 0, start, end;
	size_t i;

	if (nspans == 0)
		return 0;
	qsort(spans, nspans, sizeof(*spans), cmpspan);
	start = spans[0][0];
	end = spans[0][1];
	for (i = 1; i <= nspans; i++) {
		if (i < nspans && spans[i][0] <= end) {
			end = spans[i][1] > end ? spans[i][1] : end;
			continue;
		}
		sum_ns(&total, end - start, &lin.in);
		if (i == nspans)
			break;
		if (gaps != NULL)
			fprintf(gaps, "%lld\t%lld\n", (long long)end,
			    (long long)spans[i][0]);
		start = spans[i][0];
		end = spans[i][1];
	}
	return total;
}

static int
cmpint(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Twice the median of n > 0 values, sorting them: exact in integers. */
static int64_t
median2(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmpint);
	return n % 2 ? 2 * v[n / 2] : v[n / 2 - 1] + v[n / 2];
}

/* A fact of a range name whose value is a decimal number. */
static void
put_namenumber(size_t n, const char *what, double v)
{
	char buf[PYFLOAT_MAX];

	pyfloat(buf, v);
	printf("%snvtx.%zu.%s\t%s\n", prefix, n, what, buf);
}

/* The projected time of an instance: its GPU work, first start to last end. */
static int64_t
projected(const struct instance *in)
{
	return in->hasops ? in->opend - in->opstart : 0;
}

/* Kept instances by name, then number. */
static int
cmpinstance(const void *a, const void *b)
{
	const struct instance *x = a, *y = b;

	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A fact of a range name, N in the facts: nvtx.N.WHAT. */
static void
put_namefact(size_t n, const char *what, int64_t v)
{
	put_factf(prefix, v, "nvtx.%zu.%s", n, what);
}

/* A fact of an instance: nvtx.N.instance.I.WHAT. */
static void
put_instfact(size_t n, int64_t i, const char *what, int64_t v)
{
	put_factf(prefix, v, "nvtx.%zu.instance.%lld.%s", n, (long long)i,
	    what);
}

/*
 * The m instances of a matched name, N in the facts, in order, and their
 * projected times: mean, sample standard deviation, minimum, maximum,
 * and which are likely warm-up: warm-up comes first, so those of the
 * leading stretch of instances each more than 3 median absolute
 * deviations (MAD) from the median, up to the first that is not.
 */
static void
put_instances(size_t n, const struct instance *in, size_t m)
{
	int64_t *v, *dev, med2, mad4, p, lo = INT64_MAX, hi = 0;
	double sum = 0, ss = 0, mean;
	size_t i;
	int leading = 1;

	if ((v = calloc(m, sizeof(*v))) == NULL ||
	    (dev = calloc(m, sizeof(*dev))) == NULL)
		err(1, NULL);
	for (i = 0; i < m; i++) {
		v[i] = p = projected(&in[i]);
		sum += p;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	mean = sum / m;
	for (i = 0; i < m; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	/* In halves and quarters of ns, to stay in integers: 8 times the
	   longest must fit. */
	if (hi > INT64_MAX / 8)
		errx(1, "%s: an instance's projected time, %lld ns, is past "
		    "what its median can rank", lin.in.path, (long long)hi);
	med2 = median2(v, m);
	for (i = 0; i < m; i++)
		dev[i] = llabs(2 * v[i] - med2);
	mad4 = median2(dev, m);
	put_namenumber(n, "projected.mean", mean);
	put_namenumber(n, "projected.sd", m > 1 ? sqrt(ss / (m - 1)) : 0);
	put_namefact(n, "projected.min", lo);
	put_namefact(n, "projected.max", hi);
	for (i = 0; i < m; i++) {
		p = projected(&in[i]);
		put_instfact(n, in[i].seq, "start_ns", in[i].start);
		put_instfact(n, in[i].seq, "range_ns", in[i].end - in[i].start);
		put_instfact(n, in[i].seq, "kernel_launches", in[i].launches);
		put_instfact(n, in[i].seq, "kernel_time_ns", in[i].kernel_ns);
		put_instfact(n, in[i].seq, "projected_time_ns", p);
		put_instfact(n, in[i].seq, "skipped", in[i].skipped);
		/* |p - median| > 3 MAD, in quarters of ns. */
		leading = leading && 2 * llabs(2 * p - med2) > 3 * mad4;
		put_instfact(n, in[i].seq, "likely_warmup", leading);
	}
	free(v);
	free(dev);
}

static int
cmpname(const void *a, const void *b)
{
	const struct name *x = a, *y = b;

	if (x->kernel_ns != y->kernel_ns)
		return x->kernel_ns > y->kernel_ns ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The facts: each name by kernel time, then the scope of -m. */
static void
put_facts(void)
{
	struct name *nm = names.recs, *base;
	int64_t used = 0, skipped = 0;
	size_t i, c, n;

	/* The instances keep indexes into names: sort a copy. */
	if ((base = malloc((names.n + 1) * names.size)) == NULL)
		err(1, NULL);
	/* No names, no instances: NULL arrays, which C's library refuses. */
	if (names.n > 0) {
		memcpy(base, nm, names.n * names.size);
		qsort(base, names.n, names.size, cmpname);
	}
	if (nkept > 0)
		qsort(kept, nkept, sizeof(*kept), cmpinstance);
	for (n = 1; n <= names.n; n++) {
		nm = &base[n - 1];
		/* The name, escaped, as it is. */
		printf("%snvtx.%zu.name\t%s\n", prefix, n, nm->g.key);
		put_namefact(n, "instances", nm->instances);
		put_namefact(n, "kernel_launches", nm->launches);
		put_namefact(n, "kernel_time_ns", nm->kernel_ns);
		put_namefact(n, "projected_time_ns", nm->projected_ns);
		for (c = 0; c < rules_ncategories(rules); c++) {
			if (nm->category_ns[c] == 0)
				continue;
			put_factf(prefix, nm->category_ns[c],
			    "nvtx.%zu.category.%s.ns", n,
			    rules_category(rules, c));
		}
		if (nm->matched) {
			/* Its instances, from the first of its index. */
			for (i = 0; kept[i].name != nm->order - 1; i++)
				;
			put_instances(n, &kept[i], nm->instances);
		}
	}
	free(base);
	if (pattern == NULL)
		return;
	for (i = 0; i < nkept; i++) {
		if (kept[i].skipped)
			skipped++;
		else
			used++;
	}
	printf("%sscope.range\t", prefix);
	put_escaped(pattern, strlen(pattern));
	putchar_unlocked('\n');
	put_fact(prefix, "scope.skip", skip);
	put_fact(prefix, "scope.instances", used);
	put_fact(prefix, "scope.skipped", skipped);
	put_fact(prefix, "scope.covered_ns", scope_ns(NULL));
}

/* Whether a range name matches -m. */
static int
anymatched(void)
{
	struct name *nm = names.recs;
	size_t i;

	for (i = 0; i < names.n; i++)
		if (nm[i].matched)
			return 1;
	return 0;
}

/* The edit distance of a and b, case ignored, in a row of cap cells. */
static size_t
distance(const char *a, const char *b, size_t *row, size_t cap)
{
	size_t i, j, m = strlen(a), n = strlen(b), diag, up;

	if (n >= cap)
		n = cap - 1;
	for (j = 0; j <= n; j++)
		row[j] = j;
	for (i = 1; i <= m; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= n; j++) {
			up = row[j];
			row[j] = diag + (tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]));
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[n];
}

/*
 * No range name matches the pattern: say so, with the names nearest to
 * it, by edit distance with case ignored to the whole name or to the part
 * after its domain (DOMAIN:NAME), the usual slip.
 */
static _Noreturn void
nomatch(void)
{
	enum { NEAREST = 3, ROW = 4096 };
	struct name *nm = names.recs;
	size_t best[NEAREST], bestd[NEAREST], *row, d, d2, i, j, k, nbest = 0;
	const char *colon;

	if ((row = calloc(ROW, sizeof(*row))) == NULL)
		err(1, NULL);
	for (i = 0; i < names.n; i++) {
		d = distance(pattern, nm[i].g.key, row, ROW);
		if ((colon = strrchr(nm[i].g.key, ':')) != NULL &&
		    (d2 = distance(pattern, colon + 1, row, ROW)) < d)
			d = d2;
		for (j = nbest; j > 0 && bestd[j - 1] > d; j--)
			;
		if (j == NEAREST)
			continue;
		for (k = nbest < NEAREST ? nbest++ : NEAREST - 1; k > j; k--) {
			best[k] = best[k - 1];
			bestd[k] = bestd[k - 1];
		}
		best[j] = i;
		bestd[j] = d;
	}
	free(row);
	fprintf(stderr, "inrange: %s: no NVTX range name matches '%s' (a "
	    "name carries its domain, as DOMAIN:NAME)", rin.path, pattern);
	for (j = 0; j < nbest; j++)
		fprintf(stderr, "%s'%.80s'", j == 0 ? "; the nearest: " : ", ",
		    nm[best[j]].g.key);
	fputc('\n', stderr);
	exit(1);
}

int
main(int argc, char *argv[])
{
	struct range r;
	struct launch ln;
	const char *rulespath = NULL;
	const char *outpath = NULL;	/* -o: the output there, not stdout */
	FILE *gaps;
	int ch, more;

	while ((ch = getopt_long(argc, argv, "g:hlm:o:p:r:s:x", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'g':
			gapspath = optarg;
			break;
		case 'h':
			usage(0);
		case 'l':
			lflag = 1;
			break;
		case 'm':
			pattern = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'x':
			xflag = 1;
			break;
		case 'r':
			rulespath = optarg;
			break;
		case 's':
			if (parse_ns(optarg, &skip) == -1) {
				warnx("skip: not a count: %s", optarg);
				usage(EXIT_USAGE);
			}
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2 || (lflag && pattern == NULL) ||
	    (gapspath != NULL && !lflag))
		usage(EXIT_USAGE);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0) {
		warnx("only one of ranges and launches may be standard input");
		usage(EXIT_USAGE);
	}

	rules = rules_loadx(rulespath, xflag ? RULES_EXTENDED : 0);
	lines_open(&rin, argv[0]);
	launches_open(&lin, argv[1], 1);
	if (outpath != NULL)
		out_stdout(outpath);
	/* With -o, the gaps too are renamed into place whole. */
	gaps = gapspath != NULL ? out_side(gapspath, outpath != NULL) : NULL;
	buffer_stdout();

	more = next_range(&r);
	/*
	 * A range that ends before the launch at hand holds none of the
	 * launches to come: it is closed at once, so that memory follows
	 * how ranges nest, not how many lie between launches.
	 */
	while (launches_next(&lin, &ln)) {
		close_before(ln.start);
		for (; more && r.start <= ln.start; more = next_range(&r)) {
			opened(&r);
			if (r.end < ln.start)
				closed(&live[--nlive]);
		}
		join(&ln);
	}
	/* Ranges after the last launch hold none, but are instances. */
	close_before(INT64_MAX);
	for (; more; more = next_range(&r)) {
		opened(&r);
		closed(&live[--nlive]);
	}
	lines_close(&rin);
	launches_close(&lin);
	close_before(INT64_MAX);
	if (pattern != NULL && !anymatched())
		nomatch();
	if (!lflag)
		put_facts();
	if (gaps != NULL) {
		scope_ns(gaps);
		out_close(gaps, gapspath);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: inrange [-hlx] [-g gaps] [-m pattern] [-o output] "
	    "[-p prefix] [-r rules] [-s skip] ranges launches\n", status);
}
