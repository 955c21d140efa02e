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
	int64_t		 lastlaunch;	/* the launch last counted, + 1 */
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
/* The ranges open now. */
static struct instance	*open_;
static size_t		 nopen, opencap;
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
/* -p: the prefix of every fact. */
static const char	*prefix = "";
/* Launches read so far. */
static int64_t		 nlaunches;
/* With -l, the launch line being read, whole, to write if selected. */
static char		*linecopy;
static size_t		 linecap;

static _Noreturn void usage(int);

static void *
grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	if ((p = reallocarray(p, *cap, size)) == NULL)
		err(1, NULL);
	return p;
}

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
/* The start of the range line last read. */
static int64_t		 prevrange;

/* Split off the next tab-separated column; NULL if there is none. */
static char *
column(char **p)
{
	char *s = *p, *tab;

	if (s == NULL)
		return NULL;
	if ((tab = strchr(s, '\t')) != NULL) {
		*tab = '\0';
		*p = tab + 1;
	} else
		*p = NULL;
	return s;
}

/* Read the next range line into r; return 0 at the end. */
static int
next_range(struct range *r)
{
	char *line, *p, *s, *e;
	size_t len;

	if ((line = lines_next(&rin, &len)) == NULL)
		return 0;
	if (rin.eof)
		errx(1, "%s:%lu: no newline at the end of the input: is it "
		    "cut short?", rin.path, rin.lineno);
	p = line;
	s = column(&p);
	e = column(&p);
	r->thread = column(&p);
	if ((r->name = p) == NULL || strchr(p, '\t') != NULL)
		errx(1, "%s:%lu: expected a range line: start, end, thread, "
		    "name", rin.path, rin.lineno);
	r->namelen = line + len - p;
	if (parse_ns(s, &r->start) == -1 || parse_ns(e, &r->end) == -1 ||
	    r->end < r->start)
		errx(1, "%s:%lu: bad start or end", rin.path, rin.lineno);
	if (r->start < prevrange)
		errx(1, "%s:%lu: not sorted by start (%lld after %lld); "
		    "sort with: sort -t \"$(printf '\\t')\" -k1,1n",
		    rin.path, rin.lineno, (long long)r->start,
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
	open_ = grow(open_, &opencap, nopen, sizeof(*open_));
	in = &open_[nopen++];
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
		nm->projected_ns += in->opend - in->opstart;
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

	for (i = j = 0; i < nopen; i++)
		if (open_[i].end < t || t == INT64_MAX)
			closed(&open_[i]);
		else
			open_[j++] = open_[i];
	nopen = j;
}

/*
 * Split a launch line: the call's start, end and thread, then a full
 * interval line of the work it launched.
 */
static int
next_launch(struct lines *l, int64_t *as, int64_t *ae, char **thread,
    struct interval *iv)
{
	static int64_t prev;
	char *line, *p, *s, *e;
	size_t len;

	if ((line = lines_next(l, &len)) == NULL)
		return 0;
	if (lflag) {
		linecopy = grow(linecopy, &linecap, len + 1, 1);
		memcpy(linecopy, line, len + 1);
	}
	if (l->eof)
		errx(1, "%s:%lu: no newline at the end of the input: is it "
		    "cut short?", l->path, l->lineno);
	s = line;
	if ((p = strchr(s, '\t')) == NULL || (*p = '\0', e = p + 1,
	    (p = strchr(e, '\t')) == NULL) || (*p = '\0', *thread = p + 1,
	    (p = strchr(*thread, '\t')) == NULL))
		errx(1, "%s:%lu: expected a launch line of 10 columns",
		    l->path, l->lineno);
	*p++ = '\0';
	if (parse_ns(s, as) == -1 || parse_ns(e, ae) == -1 || *ae < *as)
		errx(1, "%s:%lu: bad call start or end", l->path, l->lineno);
	if (*as < prev)
		errx(1, "%s:%lu: not sorted by call start (%lld after %lld); "
		    "sort with: sort -t \"$(printf '\\t')\" -k1,1n",
		    l->path, l->lineno, (long long)*as, (long long)prev);
	prev = *as;
	/* The rest is a full interval line. */
	s = p;
	if ((p = strchr(s, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	e = p;
	if ((p = strchr(e, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	if (parse_ns(s, &iv->start) == -1 || parse_ns(e, &iv->end) == -1 ||
	    iv->end < iv->start)
		goto bad;
	iv->kind = p;
	if ((p = strchr(p, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	iv->device = p;
	if ((p = strchr(p, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	iv->stream = p;
	if ((p = strchr(p, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	iv->category = p;
	if ((p = strchr(p, '\t')) == NULL)
		goto bad;
	*p++ = '\0';
	iv->name = p;
	if (strchr(p, '\t') != NULL)
		goto bad;
	iv->namelen = line + len - p;
	iv->full = 1;
	return 1;
bad:
	errx(1, "%s:%lu: expected a launch line: call start, end, thread, "
	    "then a full interval line", l->path, l->lineno);
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
join(int64_t as, int64_t ae, const char *thread, const struct interval *iv)
{
	struct instance *in;
	struct name *nm;
	size_t i, cat = 0;
	int kernel, selected = 0, excluded = 0;

	kernel = strcmp(iv->kind, "kernel") == 0;
	if (kernel && !lflag)
		cat = category(iv->name, iv->namelen);
	nlaunches++;
	for (i = 0; i < nopen; i++) {
		in = &open_[i];
		if (in->start > as || in->end < ae ||
		    strcmp(in->thread, thread) != 0)
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
		in->kernel_ns += iv->end - iv->start;
		/* A kernel in two ranges of one name counts once in it. */
		if (nm->lastlaunch == nlaunches)
			continue;
		nm->lastlaunch = nlaunches;
		nm->launches++;
		nm->kernel_ns += iv->end - iv->start;
		nm->category_ns[cat] += iv->end - iv->start;
	}
	if (lflag && selected && !excluded) {
		fputs_unlocked(linecopy, stdout);
		putchar_unlocked('\n');
	}
}

static int
cmpint(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values, sorting them. */
static double
median(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmpint);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* A fact whose value is a decimal number. */
static void
put_number(const char *key, double v)
{
	char buf[PYFLOAT_MAX];

	pyfloat(buf, v);
	printf("%s%s\t%s\n", prefix, key, buf);
}

/* A fact whose value is an escaped name, as it is. */
static void
put_text(const char *key, const char *v)
{
	printf("%s%s\t%s\n", prefix, key, v);
}

/* The projected time of an instance: its GPU work, first start to last end. */
static int64_t
projected(const struct instance *in)
{
	return in->hasops ? in->opend - in->opstart : 0;
}

/*
 * The instances of a matched name, and their projected times: mean,
 * sample standard deviation, minimum, maximum, and which lie more than
 * 3 median absolute deviations from the median, likely warm-up.
 */
static void
put_instances(size_t n, const struct name *nm)
{
	size_t self = nm->order - 1;	/* its index in names.recs */
	char key[128];
	int64_t *v, *dev, p, lo = INT64_MAX, hi = 0;
	double med, mad, sum = 0, ss = 0, mean;
	size_t i, k, m = 0;

	if ((v = calloc(nm->instances + 1, sizeof(*v))) == NULL ||
	    (dev = calloc(nm->instances + 1, sizeof(*dev))) == NULL)
		err(1, NULL);
	for (i = 0; i < nkept; i++) {
		if (kept[i].name != self)
			continue;
		v[m++] = p = projected(&kept[i]);
		sum += p;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	mean = m ? sum / m : 0;
	for (i = 0; i < m; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	med = m ? median(v, m) : 0;
	for (i = 0; i < m; i++)
		dev[i] = llabs(v[i] - (int64_t)med) * 2 +
		    (med != (int64_t)med);	/* twice |v - med|, exact */
	mad = m ? median(dev, m) / 2 : 0;
	snprintf(key, sizeof(key), "nvtx.%zu.projected.mean", n);
	put_number(key, mean);
	snprintf(key, sizeof(key), "nvtx.%zu.projected.sd", n);
	put_number(key, m > 1 ? sqrt(ss / (m - 1)) : 0);
	snprintf(key, sizeof(key), "nvtx.%zu.projected.min", n);
	put_fact(prefix, key, m ? lo : 0);
	snprintf(key, sizeof(key), "nvtx.%zu.projected.max", n);
	put_fact(prefix, key, hi);
	/* Instances in the order of their start, their seq. */
	for (k = 1; k <= (size_t)nm->instances; k++) {
		const struct instance *in = NULL;

		for (i = 0; i < nkept; i++)
			if (kept[i].name == self &&
			    kept[i].seq == (int64_t)k)
				in = &kept[i];
		p = projected(in);
#define IFACT(what, v) do { snprintf(key, sizeof(key), \
	"nvtx.%zu.instance.%zu." what, n, k); put_fact(prefix, key, v); \
	} while (0)
		IFACT("start_ns", in->start);
		IFACT("range_ns", in->end - in->start);
		IFACT("kernel_launches", in->launches);
		IFACT("kernel_time_ns", in->kernel_ns);
		IFACT("projected_time_ns", p);
		IFACT("skipped", in->skipped);
		IFACT("likely_warmup", fabs(p - med) > 3 * mad);
#undef IFACT
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
	char key[128];
	int64_t used = 0, skipped = 0, covered = 0;
	size_t i, c, n;

	/* The instances keep indexes into names: sort a copy. */
	if ((base = malloc((names.n + 1) * names.size)) == NULL)
		err(1, NULL);
	memcpy(base, nm, names.n * names.size);
	qsort(base, names.n, names.size, cmpname);
	for (n = 1; n <= names.n; n++) {
		nm = &base[n - 1];
		snprintf(key, sizeof(key), "nvtx.%zu.name", n);
		put_text(key, nm->g.key);
#define NFACT(what, v) do { snprintf(key, sizeof(key), "nvtx.%zu." what, n); \
	put_fact(prefix, key, v); } while (0)
		NFACT("instances", nm->instances);
		NFACT("kernel_launches", nm->launches);
		NFACT("kernel_time_ns", nm->kernel_ns);
		NFACT("projected_time_ns", nm->projected_ns);
#undef NFACT
		for (c = 0; c < rules_ncategories(rules); c++) {
			if (nm->category_ns[c] == 0)
				continue;
			snprintf(key, sizeof(key), "nvtx.%zu.category.%s.ns",
			    n, rules_category(rules, c));
			put_fact(prefix, key, nm->category_ns[c]);
		}
		if (nm->matched)
			put_instances(n, nm);
	}
	if (pattern == NULL)
		goto done;
	for (i = 0; i < nkept; i++) {
		if (kept[i].skipped)
			skipped++;
		else {
			used++;
			covered += projected(&kept[i]);
		}
	}
	printf("%sscope.range\t", prefix);
	put_escaped(pattern, strlen(pattern));
	putchar_unlocked('\n');
	put_fact(prefix, "scope.skip", skip);
	put_fact(prefix, "scope.instances", used);
	put_fact(prefix, "scope.skipped", skipped);
	put_fact(prefix, "scope.covered_ns", covered);
done:
	free(base);
}

int
main(int argc, char *argv[])
{
	struct lines lin;
	struct range r;
	struct interval iv;
	const char *rulespath = NULL;
	char *thread;
	int64_t as, ae;
	int ch, more;

	while ((ch = getopt_long(argc, argv, "hlm:p:r:s:", helpopt, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'l':
			lflag = 1;
			break;
		case 'm':
			pattern = optarg;
			break;
		case 'p':
			prefix = optarg;
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
	if (argc != 2 || (lflag && pattern == NULL))
		usage(EXIT_USAGE);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0) {
		warnx("only one of ranges and launches may be standard input");
		usage(EXIT_USAGE);
	}

	rules = rules_load(rulespath);
	lines_open(&rin, argv[0]);
	lines_open(&lin, argv[1]);
	buffer_stdout();

	more = next_range(&r);
	while (next_launch(&lin, &as, &ae, &thread, &iv)) {
		close_before(as);
		for (; more && r.start <= as; more = next_range(&r))
			opened(&r);
		join(as, ae, thread, &iv);
	}
	/* Ranges after the last launch hold none, but are instances. */
	for (; more; more = next_range(&r))
		opened(&r);
	lines_close(&rin);
	lines_close(&lin);
	close_before(INT64_MAX);
	if (!lflag)
		put_facts();
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: inrange [-hl] [-m pattern] [-p prefix] [-r rules] "
	    "[-s skip] ranges launches\n", status);
}
