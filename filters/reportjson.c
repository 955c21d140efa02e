/*
 * reportjson: turn the facts of a run into the report JSON of
 * summarize_nsys_profile.py, byte for byte as its json.dumps writes it.
 * See reportjson(1) and h3prof(5).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* One fact line: the key and the still escaped value, and where it was. */
struct fact {
	char		*key;
	char		*value;
	const char	*path;
	unsigned long	 lineno;
};

/* The facts in input order, and sorted by key for lookups. */
static struct fact	*facts;
static struct fact	**bykey;
/* Facts held, and room for how many. */
static size_t		 nfacts, factscap;
/* The inputs as messages name them: "a, b" or "stdin". */
static char		*inputs;
/* The categories of the report, in order, and their descriptions. */
static struct rules	*rules;

/* The report, built in memory before it is written out in one piece. */
static struct jsonw	 js;

/* The products of -p, and how many of them are in place. */
static const char	**products;
static int		 nproducts, nplaced;
/* What the hidden name of a product starts with (-P). */
static const char	*hiddenprefix = ".report.";
/* The report's path (-o), and whether it is in place. */
static const char	*output;
static int		 outplaced;
/* The record of -R, its key (-k) and the inputs it names (-i), and how
   many. */
static const char	*recordpath, *recordkey;
static const char	**recordinputs;
static int		 nrecordinputs;
/* Set once the report, and its record if asked for, are in place: the
   products then stay. */
static int		 reported;

static _Noreturn void usage(int);

/* Keys are letters, digits and _.-, as h3prof(5) says. */
static int
goodkey(const char *k, size_t len)
{
	return len > 0 && strspn(k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_.-") == len;
}

static void
readfacts(const char *path)
{
	struct lines l;
	struct fact *f;
	char *line, *tab;
	size_t len;

	lines_open(&l, path);
	while ((line = lines_next(&l, &len)) != NULL) {
		if ((tab = memchr(line, '\t', len)) == NULL ||
		    strchr(tab + 1, '\t') != NULL)
			errx(1, "%s:%lu: expected a fact: key, tab, value",
			    l.path, l.lineno);
		if (!goodkey(line, tab - line))
			errx(1, "%s:%lu: bad key \"%.*s\": use letters, "
			    "digits and _.-", l.path, l.lineno,
			    (int)(tab - line > 40 ? 40 : tab - line), line);
		*tab = '\0';
		if (nfacts == factscap) {
			factscap = factscap ? 2 * factscap : 64;
			if ((facts = reallocarray(facts, factscap,
			    sizeof(*facts))) == NULL)
				err(1, NULL);
		}
		f = &facts[nfacts++];
		if ((f->key = strdup(line)) == NULL ||
		    (f->value = strdup(tab + 1)) == NULL)
			err(1, NULL);
		f->path = l.path;	/* an argument or "stdin": it stays */
		f->lineno = l.lineno;
	}
	lines_close(&l);
}

/* The inputs as messages name them, "a, b"; stdin for none or "-". */
static void
name_inputs(int argc, char *argv[])
{
	size_t cap = sizeof("stdin");
	int i;

	for (i = 0; i < argc; i++)
		cap += strlen(argv[i]) + sizeof(", stdin");
	if ((inputs = calloc(1, cap)) == NULL)
		err(1, NULL);
	if (argc == 0)
		strcpy(inputs, "stdin");
	for (i = 0; i < argc; i++) {
		if (i > 0)
			strcat(inputs, ", ");
		strcat(inputs, strcmp(argv[i], "-") == 0 ? "stdin" : argv[i]);
	}
}

static int
cmpkey(const void *a, const void *b)
{
	return strcmp((*(struct fact *const *)a)->key,
	    (*(struct fact *const *)b)->key);
}

/* Index the facts by key; two facts of one key contradict each other. */
static void
index_facts(void)
{
	size_t i;

	if ((bykey = reallocarray(NULL, nfacts + 1, sizeof(*bykey))) == NULL)
		err(1, NULL);
	for (i = 0; i < nfacts; i++)
		bykey[i] = &facts[i];
	/* qsort is not stable: of equal keys, the later in input is named. */
	qsort(bykey, nfacts, sizeof(*bykey), cmpkey);
	for (i = 1; i < nfacts; i++) {
		struct fact *a = bykey[i - 1], *b = bykey[i];

		if (strcmp(a->key, b->key) != 0)
			continue;
		if (a > b) {
			a = b;
			b = bykey[i - 1];
		}
		errx(1, "%s:%lu: duplicate fact %s (first at %s:%lu)",
		    b->path, b->lineno, b->key, a->path, a->lineno);
	}
}

static struct fact *
lookup(const char *key)
{
	struct fact k = { .key = (char *)key }, *kp = &k, **f;

	f = bsearch(&kp, bykey, nfacts, sizeof(*bykey), cmpkey);
	return f ? *f : NULL;
}

/* The fact of the key made by a format, or NULL. */
static struct fact *
findf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* The same, which must be there. */
static struct fact *
needf(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* The key a format makes, however long: allocated. */
static char *
vkey(const char *fmt, va_list ap)
{
	char *key;

	if (vasprintf(&key, fmt, ap) == -1)
		err(1, NULL);
	return key;
}

static struct fact *
findf(const char *fmt, ...)
{
	struct fact *f;
	va_list ap;
	char *key;

	va_start(ap, fmt);
	key = vkey(fmt, ap);
	va_end(ap);
	f = lookup(key);
	free(key);
	return f;
}

static struct fact *
needf(const char *fmt, ...)
{
	struct fact *f;
	va_list ap;
	char *key;

	va_start(ap, fmt);
	key = vkey(fmt, ap);
	va_end(ap);
	if ((f = lookup(key)) == NULL)
		errx(1, "%s: missing fact %s", inputs, key);
	free(key);
	return f;
}

static int64_t
intvalue(const struct fact *f)
{
	int64_t v;

	if (parse_ns(f->value, &v) == -1)
		errx(1, "%s:%lu: fact %s: \"%.40s\" is not a non-negative "
		    "integer", f->path, f->lineno, f->key, f->value);
	return v;
}

/* The integer fact of key, which must be there. */
#define NEED(...)	intvalue(needf(__VA_ARGS__))

/* The integer fact of key, 0 if absent: the filters omit zero sums. */
static int64_t
orzero(const struct fact *f)
{
	return f ? intvalue(f) : 0;
}

/*
 * A path as str(pathlib.Path(path)) shows it: no empty or "." parts, no
 * trailing slash, "." for nothing; exactly two leading slashes stay two.
 * Allocated, its length in *lenp.
 */
static char *
pathlib_str(const char *path, size_t len, size_t *lenp)
{
	const char *s = path, *end = path + len, *part;
	char *norm, *w;

	if ((norm = malloc(len + 2)) == NULL)
		err(1, NULL);
	w = norm;
	if (len >= 2 && s[0] == '/' && s[1] == '/' && (len == 2 || s[2] != '/'))
		*w++ = '/';
	if (len >= 1 && s[0] == '/')
		*w++ = '/';
	while (s < end) {
		for (part = s; s < end && *s != '/'; s++)
			;
		if (s - part == 0 || (s - part == 1 && *part == '.')) {
			s++;
			continue;
		}
		if (w > norm && w[-1] != '/')
			*w++ = '/';
		memcpy(w, part, s - part);
		w += s - part;
		s++;
	}
	if (w == norm)
		*w++ = '.';
	*lenp = w - norm;
	return norm;
}

/* a / b * 100.0 as the reference computes it, or null where b is 0. */
static void
put_percent(const char *key, int64_t a, int64_t b)
{
	if (b == 0)
		jw_null(&js, key);
	else
		jw_float(&js, key, pydiv(a, b) * 100.0);
}

/*
 * What the busy percents are of: the span, or in a scoped report the time
 * of its scope (scope.covered_ns), so that time outside it is not idle.
 */
static int64_t
busy_base(int64_t span)
{
	return findf("scope.covered_ns") != NULL ? NEED("scope.covered_ns") :
	    span;
}

/* total / count, or the integer 0 where count is 0, as the reference. */
static void
put_average(const char *key, int64_t total, int64_t count)
{
	if (count == 0)
		jw_int(&js, key, 0);
	else
		jw_float(&js, key, pydiv(total, count));
}

/* A member whose value is the text of a fact, as a string. */
static void
put_textfact(const char *key, struct fact *f)
{
	size_t len = unescape(f->value);

	jw_string(&js, key, f->value, len);
}

/* A member whose value is the path a fact holds: see pathlib_str. */
static void
put_pathfact(const char *key, struct fact *f)
{
	char *path;
	size_t len = unescape(f->value);

	path = pathlib_str(f->value, len, &len);
	jw_string(&js, key, path, len);
	free(path);
}

/* A member whose value is the JSON text a fact holds, as it is. */
static void
put_jsonfact(const char *key, struct fact *f)
{
	size_t len = unescape(f->value);

	if (!json_fact(f->value, len))
		errx(1, "%s:%lu: fact %s: %s is not a JSON text: a string, "
		    "number, true, false, null, [] or {}", f->path, f->lineno,
		    f->key, shown(f->value, len, 40));
	jw_json(&js, key, f->value, len);
}

/* The part of a key after prefix, or NULL if it does not start so. */
static const char *
after(const char *key, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(key, prefix, n) == 0 ? key + n : NULL;
}

/* A device or stream number as a number, "-" (not known) as null. */
static void
put_id(const char *key, const char *s, size_t len)
{
	if (len == 1 && *s == '-')
		jw_null(&js, key);
	else if (len > 0 && json_number(s, len) == len &&
	    strspn(s, "0123456789") == len)
		jw_json(&js, key, s, len);
	else
		jw_string(&js, key, s, len);
}

/* Facts of the categories the rules do not name: classified otherwise. */
static void
check_categories(void)
{
	const char *cat, *dot;
	size_t i, j, n = rules_ncategories(rules);

	for (i = 0; i < nfacts; i++) {
		if ((cat = after(facts[i].key, "gpu.category.")) == NULL)
			continue;
		if ((dot = strrchr(cat, '.')) == NULL)
			dot = cat + strlen(cat);
		for (j = 0; j < n; j++)
			if (strlen(rules_category(rules, j)) ==
			    (size_t)(dot - cat) && strncmp(cat,
			    rules_category(rules, j), dot - cat) == 0)
				break;
		if (j == n)
			errx(1, "%s:%lu: category \"%.*s\" is not in the "
			    "rules", facts[i].path, facts[i].lineno,
			    (int)(dot - cat), cat);
	}
}

/*
 * Whether the report lists category i: a communication category (-x
 * only) where the run has kernels of it, so that a run without them has
 * the categories of the reference.
 */
static int
listed(size_t i)
{
	return !rules_communication(rules, i) || findf("gpu.category.%s.count",
	    rules_category(rules, i)) != NULL;
}

/* The keys and values of the reference, in its order. */
static void
report(void)
{
	static const char scope[] = "CUDA kernel-launch API intervals "
	    "intersected with GPU kernel intervals";
	int64_t count, span, kernel_ns, ns, api_ns, total;
	size_t i;
	const char *cat, *text;

	if ((count = NEED("gpu.count")) == 0)
		errx(1, "%s: gpu.count is 0: without GPU operations there "
		    "is no GPU span to report", inputs);
	span = NEED("gpu.span_ns");
	kernel_ns = orzero(findf("gpu.kind.kernel.ns"));

	put_pathfact("source_gpu_trace", needf("source.gpu_trace"));
	put_pathfact("source_kernel_exec_trace",
	    needf("source.kernel_exec_trace"));
	jw_int(&js, "gpu_span_ns", span);
	jw_int(&js, "gpu_operation_count", count);
	jw_int(&js, "kernel_count", orzero(findf("gpu.kind.kernel.count")));
	jw_int(&js, "kernel_time_ns", kernel_ns);
	put_percent("kernel_busy_percent_of_span", kernel_ns, busy_base(span));

	jw_open(&js, "launch_gaps", '{');
	count = NEED("gaps.count");
	total = NEED("gaps.total_ns");
	jw_int(&js, "positive_gap_count", count);
	jw_int(&js, "total_ns", total);
	put_average("average_ns", total, count);
	jw_int(&js, "maximum_ns", NEED("gaps.max_ns"));
	jw_close(&js, '}');

	jw_open(&js, "cpu_gpu_overlap", '{');
	jw_string(&js, "scope", scope, strlen(scope));
	api_ns = NEED("api.ns");
	ns = NEED("overlap.ns");
	jw_int(&js, "launch_api_union_ns", api_ns);
	jw_int(&js, "launch_api_gpu_overlap_ns", ns);
	/* The reference writes the integer 0 where it cannot divide. */
	if (api_ns == 0)
		jw_int(&js, "launch_api_overlap_percent", 0);
	else
		put_percent("launch_api_overlap_percent", ns, api_ns);
	jw_close(&js, '}');

	jw_open(&js, "components", '{');
	for (i = 0; i < rules_ncategories(rules); i++) {
		cat = rules_category(rules, i);
		if (!listed(i))
			continue;
		ns = orzero(findf("gpu.category.%s.ns", cat));
		jw_open(&js, cat, '{');
		jw_float(&js, "milliseconds", ns / 1.0e6);
		put_percent("percent_of_kernel_time", ns, kernel_ns);
		jw_int(&js, "launches",
		    orzero(findf("gpu.category.%s.count", cat)));
		jw_close(&js, '}');
	}
	jw_close(&js, '}');

	jw_open(&js, "classification_policy", '{');
	for (i = 0; i < rules_ncategories(rules); i++) {
		if (!listed(i))
			continue;
		text = rules_description(rules, i);
		jw_string(&js, rules_category(rules, i), text, strlen(text));
	}
	jw_close(&js, '}');
}

/* The run a sweep names: run.name and run.config.KEY, in input order. */
static void
report_run(void)
{
	struct fact *f;
	const char *key;
	size_t i;

	jw_open(&js, "run", '{');
	if ((f = findf("run.name")) != NULL)
		put_textfact("name", f);
	else
		jw_null(&js, "name");
	jw_open(&js, "config", '{');
	for (i = 0; i < nfacts; i++)
		if ((key = after(facts[i].key, "run.config.")) != NULL)
			put_jsonfact(key, &facts[i]);
	jw_close(&js, '}');
	jw_close(&js, '}');
}

/* Kernel time and launches by stream, in the order tally -s saw them. */
static void
report_streams(void)
{
	const char *ds, *dot, *end;
	size_t i;

	jw_open(&js, "streams", '[');
	for (i = 0; i < nfacts; i++) {
		if ((ds = after(facts[i].key, "kstream.stream.")) == NULL ||
		    (end = strrchr(ds, '.')) == NULL ||
		    strcmp(end, ".ns") != 0)
			continue;
		if ((dot = memchr(ds, '.', end - ds)) == NULL)
			errx(1, "%s:%lu: fact %s: expected "
			    "kstream.stream.DEVICE.STREAM.ns", facts[i].path,
			    facts[i].lineno, facts[i].key);
		jw_open(&js, NULL, '{');
		put_id("device", ds, dot - ds);
		put_id("stream", dot + 1, end - dot - 1);
		jw_int(&js, "kernel_ns", intvalue(&facts[i]));
		jw_int(&js, "launches", NEED("kstream.stream.%.*s.count",
		    (int)(end - ds), ds));
		jw_close(&js, '}');
	}
	jw_close(&js, ']');
}

/* top.1.*, top.2.*, ...: the kernels that took the most time. */
static void
report_top(void)
{
	struct fact *f;
	int64_t count, ns;
	int n;

	jw_open(&js, "top_kernels", '[');
	for (n = 1; (f = findf("top.%d.name", n)) != NULL; n++) {
		jw_open(&js, NULL, '{');
		put_textfact("name", f);
		put_textfact("category", needf("top.%d.category", n));
		count = NEED("top.%d.count", n);
		ns = NEED("top.%d.ns", n);
		jw_int(&js, "launches", count);
		jw_int(&js, "total_ns", ns);
		if (count == 0)
			jw_null(&js, "average_ns");
		else
			jw_float(&js, "average_ns", pydiv(ns, count));
		jw_close(&js, '}');
	}
	jw_close(&js, ']');
}

/* A member true or false: an integer fact not 0 or 0. */
static void
put_bool(const char *key, int64_t v)
{
	jw_json(&js, key, v ? "true" : "false", v ? 4 : 5);
}

/* A fact as a JSON number: a decimal number of the facts. */
static void
put_numberfact(const char *key, struct fact *f)
{
	size_t len = strlen(f->value);

	if (len == 0 || json_number(f->value, len) != len)
		errx(1, "%s:%lu: fact %s: \"%.40s\" is not a number", f->path,
		    f->lineno, f->key, f->value);
	jw_json(&js, key, f->value, len);
}

/*
 * nvtx.1.*, nvtx.2.*, ...: the NVTX ranges of inrange(1), by kernel time,
 * with the instances of the names it matched.  Absent without ranges.
 */
static void
report_nvtx(void)
{
	static const char *const figures[] = { "kernel_launches",
	    "kernel_time_ns", "projected_time_ns" };
	static const char *const stats[] = { "mean", "sd", "min", "max" };
	static const char *const inst[] = { "start_ns", "range_ns",
	    "kernel_launches", "kernel_time_ns", "projected_time_ns" };
	struct fact *f;
	size_t i, c;
	int n, k;

	if (findf("nvtx.1.name") == NULL)
		return;
	jw_open(&js, "nvtx_ranges", '[');
	for (n = 1; (f = findf("nvtx.%d.name", n)) != NULL; n++) {
		jw_open(&js, NULL, '{');
		put_textfact("name", f);
		jw_int(&js, "instances", NEED("nvtx.%d.instances", n));
		for (i = 0; i < sizeof(figures) / sizeof(*figures); i++)
			jw_int(&js, figures[i], NEED("nvtx.%d.%s", n,
			    figures[i]));
		jw_open(&js, "components", '{');
		for (c = 0; c < rules_ncategories(rules); c++)
			if (listed(c))
				jw_float(&js, rules_category(rules, c),
				    orzero(findf("nvtx.%d.category.%s.ns", n,
				    rules_category(rules, c))) / 1.0e6);
		jw_close(&js, '}');
		if (findf("nvtx.%d.projected.mean", n) != NULL) {
			jw_open(&js, "projected_time_ns_stats", '{');
			for (i = 0; i < sizeof(stats) / sizeof(*stats); i++)
				put_numberfact(stats[i], needf(
				    "nvtx.%d.projected.%s", n, stats[i]));
			jw_close(&js, '}');
			jw_open(&js, "per_instance", '[');
			for (k = 1; findf("nvtx.%d.instance.%d.start_ns", n,
			    k) != NULL; k++) {
				jw_open(&js, NULL, '{');
				jw_int(&js, "instance", k);
				for (i = 0; i < sizeof(inst) / sizeof(*inst);
				    i++)
					jw_int(&js, inst[i], NEED(
					    "nvtx.%d.instance.%d.%s", n, k,
					    inst[i]));
				put_bool("skipped", NEED(
				    "nvtx.%d.instance.%d.skipped", n, k));
				put_bool("likely_warmup", NEED(
				    "nvtx.%d.instance.%d.likely_warmup", n,
				    k));
				jw_close(&js, '}');
			}
			jw_close(&js, ']');
		}
		jw_close(&js, '}');
	}
	jw_close(&js, ']');
}

/*
 * scope.*: what part of the trace a scoped report covers, the instances
 * of NVTX ranges of inrange(1) or the window of inwindow(1).
 */
static void
report_scope(void)
{
	static const char *const ranges[] = { "skip", "instances", "skipped",
	    "covered_ns" };
	static const char *const window[] = { "start_ns", "end_ns",
	    "covered_ns" };
	const char *const *counts = ranges;
	struct fact *f;
	size_t i, n = sizeof(ranges) / sizeof(*ranges);

	if ((f = findf("scope.range")) == NULL) {
		if ((f = findf("scope.window")) == NULL)
			return;
		counts = window;
		n = sizeof(window) / sizeof(*window);
	}
	jw_open(&js, "scope", '{');
	put_textfact(counts == ranges ? "range" : "window", f);
	for (i = 0; i < n; i++)
		jw_int(&js, counts[i], NEED("scope.%s", counts[i]));
	jw_close(&js, '}');
}

/*
 * graphs.*: the CUDA graph launches of exportinfo(1), where the export
 * has them, and whether the kernel table lacks their kernels.
 */
static void
report_graphs(void)
{
	int64_t hidden;

	if (findf("graphs.launches") == NULL)
		return;
	jw_open(&js, "graphs", '{');
	jw_int(&js, "launches", NEED("graphs.launches"));
	jw_int(&js, "time_ns", NEED("graphs.ns"));
	jw_int(&js, "launches_without_kernels", hidden = NEED("graphs.hidden"));
	put_bool("graph_kernels_hidden", hidden > 0);
	jw_close(&js, '}');
}

/*
 * device.D.*: the figures of each device, of devstat(1), where the trace
 * has several devices or processes, whose figures the report sums.
 */
static void
report_devices(void)
{
	static const char *const figures[][2] = {
		{ "count", "operations" },
		{ "span_ns", "span_ns" },
		{ "kernel_count", "kernel_count" },
		{ "kernel_ns", "kernel_time_ns" },
		{ "kernel_union_ns", "kernel_busy_union_ns" },
		{ "busy_ns", "busy_union_ns" },
	};
	static const char *const idle[] = { "count", "total_ns", "max_ns" };
	struct fact *f;
	const char *dev, *end;
	int64_t processes;
	size_t i, j, n = 0;

	for (i = 0; i < nfacts; i++)
		if ((dev = after(facts[i].key, "device.")) != NULL &&
		    (end = strchr(dev, '.')) != NULL &&
		    strcmp(end, ".count") == 0)
			n++;
	processes = orzero(findf("processes"));
	if (n < 2 && processes < 2)
		return;
	if (processes > 0)
		jw_int(&js, "processes", processes);
	if (processes > 1) {
		jw_open(&js, "process_kernels", '[');
		for (i = 0; i < nfacts; i++) {
			if ((dev = after(facts[i].key, "process.")) == NULL ||
			    (end = strchr(dev, '.')) == NULL ||
			    strcmp(end, ".kernel_count") != 0)
				continue;
			jw_open(&js, NULL, '{');
			put_id("pid", dev, end - dev);
			jw_int(&js, "kernel_count", intvalue(&facts[i]));
			jw_int(&js, "kernel_time_ns", NEED("process.%.*s.%s",
			    (int)(end - dev), dev, "kernel_ns"));
			jw_int(&js, "kernel_span_ns", NEED("process.%.*s.%s",
			    (int)(end - dev), dev, "kernel_span_ns"));
			jw_close(&js, '}');
		}
		jw_close(&js, ']');
	}
	jw_open(&js, "devices", '[');
	for (i = 0; i < nfacts; i++) {
		if ((dev = after(facts[i].key, "device.")) == NULL ||
		    (end = strchr(dev, '.')) == NULL ||
		    strcmp(end, ".count") != 0)
			continue;
		jw_open(&js, NULL, '{');
		put_id("device", dev, end - dev);
		if ((f = findf("device.%.*s.name", (int)(end - dev), dev)) !=
		    NULL)
			put_textfact("name", f);
		else
			jw_null(&js, "name");
		for (j = 0; j < sizeof(figures) / sizeof(*figures); j++)
			jw_int(&js, figures[j][1], NEED("device.%.*s.%s",
			    (int)(end - dev), dev, figures[j][0]));
		jw_open(&js, "idle_gaps", '{');
		for (j = 0; j < sizeof(idle) / sizeof(*idle); j++)
			jw_int(&js, idle[j], NEED("device.%.*s.idle.%s",
			    (int)(end - dev), dev, idle[j]));
		jw_close(&js, '}');
		jw_close(&js, '}');
	}
	jw_close(&js, ']');
}

/* A number of the time account, account.KEY made by a format. */
static void
put_accountf(const char *key, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
put_accountf(const char *key, const char *fmt, ...)
{
	struct fact *f;
	va_list ap;
	char *k, *full;

	va_start(ap, fmt);
	k = vkey(fmt, ap);
	va_end(ap);
	if (asprintf(&full, "account.%s", k) == -1)
		err(1, NULL);
	if ((f = lookup(full)) == NULL)
		errx(1, "%s: missing fact %s", inputs, full);
	put_numberfact(key, f);
	free(full);
	free(k);
}

/*
 * The parts of a timeline of the account, pre "" for the run or
 * "device.D.": its span, parts, communication and utilization.
 */
static void
account_timeline(const char *pre)
{
	static const char *const parts[] = {
		"compute", "communication", "memcpy_htod", "memcpy_dtoh",
		"memcpy_dtod", "memcpy_peer", "memcpy_other", "memset",
		"other", "idle_host", "idle_launch", "idle_queued",
		"idle_unknown"
	};
	static const char *const comm[] = {
		"union_ns", "exposed_ns", "hidden_percent"
	};
	static const char *const below[] = {
		"chunks", "start_ns", "end_ns"
	};
	char key[64];
	size_t i;
	int n;

	put_accountf("gpu_span_ns", "%sspan_ns", pre);
	jw_open(&js, "parts", '{');
	for (i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
		snprintf(key, sizeof(key), "%s_ns", parts[i]);
		put_accountf(key, "%sparts.%s", pre, key);
	}
	jw_close(&js, '}');
	put_accountf("kernel_busy_ns", "%skernel_busy_ns", pre);
	jw_open(&js, "communication", '{');
	for (i = 0; i < sizeof(comm) / sizeof(*comm); i++)
		put_accountf(comm[i], "%scommunication.%s", pre, comm[i]);
	jw_close(&js, '}');
	jw_open(&js, "utilization", '{');
	jw_open(&js, "busy_percent", '[');
	for (n = 1; findf("account.%sutilization.%d", pre, n) != NULL; n++)
		put_accountf(NULL, "%sutilization.%d", pre, n);
	jw_close(&js, ']');
	jw_open(&js, "longest_below_50_percent", '{');
	for (i = 0; i < sizeof(below) / sizeof(*below); i++)
		put_accountf(below[i], "%sbelow_half.%s", pre, below[i]);
	jw_close(&js, '}');
	jw_close(&js, '}');
}

/*
 * account.*: the time account of account(1), its layout in h3prof(5).
 * Absent where the facts lack it.
 */
static void
report_account(void)
{
	static const char *const kinds[] = {
		"htod", "dtoh", "dtod", "peer", "other", "memset"
	};
	static const char *const thresholds[] = {
		"chunks", "tiny_ns", "outlier_ns", "queue_depth",
		"kernel_wait_ns", "short_gap_ns", "long_gap_ns"
	};
	static const char *const figures[][2] = {
		{ "calls", "launch.calls" },
		{ "graph_calls", "launch.graph_calls" },
		{ "unmatched_operations", "launch.unmatched" },
		{ "delay_p50_ns", "launch.delay.p50_ns" },
		{ "delay_p90_ns", "launch.delay.p90_ns" },
		{ "delay_p99_ns", "launch.delay.p99_ns" },
		{ "delay_max_ns", "launch.delay.max_ns" },
		{ "call_p50_ns", "launch.call.p50_ns" },
		{ "call_p99_ns", "launch.call.p99_ns" },
		{ "call_max_ns", "launch.call.max_ns" },
		{ "delay_outliers", "launch.outliers" },
		{ "shorter_than_call", "launch.short.count" },
		{ "shorter_than_call_ns", "launch.short.ns" },
		{ "shorter_than_call_percent_of_kernel_time",
		    "launch.short.percent_of_kernel_time" },
		{ "short_kernels", "kernels.tiny.count" },
		{ "short_kernels_ns", "kernels.tiny.ns" },
		{ "short_kernels_percent_of_kernel_time",
		    "kernels.tiny.percent_of_kernel_time" },
	};
	static const char *const streamfigs[][2] = {
		{ "queue.max_depth", "queue_max_depth" },
		{ "queue.full_ns", "queue_full_ns" },
		{ "hta.host_wait_ns", "host_wait_ns" },
		{ "hta.kernel_wait_ns", "kernel_wait_ns" },
		{ "hta.other_ns", "other_ns" },
	};
	const char *ds, *end, *dot, *prev = NULL;
	size_t i, j, prevlen = 0;
	char *pre;

	if (findf("account.span_ns") == NULL)
		return;
	jw_open(&js, "time_account", '{');
	account_timeline("");
	jw_open(&js, "devices", '{');
	for (i = 0; i < nfacts; i++) {
		if ((ds = after(facts[i].key, "account.device.")) == NULL ||
		    (end = strchr(ds, '.')) == NULL ||
		    strcmp(end, ".span_ns") != 0)
			continue;
		jw_key(&js, ds, end - ds);
		jw_open(&js, NULL, '{');
		if (asprintf(&pre, "device.%.*s.", (int)(end - ds), ds) == -1)
			err(1, NULL);
		account_timeline(pre);
		free(pre);
		jw_close(&js, '}');
	}
	jw_close(&js, '}');
	jw_open(&js, "launch", '{');
	for (i = 0; i < sizeof(figures) / sizeof(*figures); i++)
		put_accountf(figures[i][0], "%s", figures[i][1]);
	jw_close(&js, '}');
	/* A stream's facts follow each other: queue, then HTA's.  By key,
	   so that a summary tells the streams apart. */
	jw_open(&js, "streams", '{');
	for (i = 0; i < nfacts; i++) {
		if ((ds = after(facts[i].key, "account.stream.")) == NULL ||
		    (dot = strchr(ds, '.')) == NULL ||
		    (end = strchr(dot + 1, '.')) == NULL)
			continue;
		if (prev != NULL && prevlen == (size_t)(end - ds) &&
		    memcmp(prev, ds, prevlen) == 0)
			continue;
		prev = ds;
		prevlen = end - ds;
		/* A stream not known ("-") is left out, not null: of the
		   summary's figures, a null has no standard deviation. */
		jw_key(&js, ds, prevlen);
		jw_open(&js, NULL, '{');
		if (dot - ds != 1 || *ds != '-')
			put_id("device", ds, dot - ds);
		if (end - dot - 1 != 1 || dot[1] != '-')
			put_id("stream", dot + 1, end - dot - 1);
		for (j = 0; j < sizeof(streamfigs) / sizeof(*streamfigs); j++)
			if (findf("account.stream.%.*s.%s", (int)prevlen, ds,
			    streamfigs[j][0]) != NULL)
				put_accountf(streamfigs[j][1], "stream.%.*s.%s",
				    (int)prevlen, ds, streamfigs[j][0]);
		jw_close(&js, '}');
	}
	jw_close(&js, '}');
	/* The idle gaps by length and cause, as the verdict reads them. */
	jw_open(&js, "gaps", '{');
	for (i = 0; i < NGAPLEN; i++) {
		jw_open(&js, gaplen_name[i], '{');
		for (j = 0; j < NGAPCAUSE; j++) {
			jw_open(&js, gapcause_name[j], '{');
			put_accountf("count", "gaps.%s.%s.count",
			    gaplen_name[i], gapcause_name[j]);
			put_accountf("ns", "gaps.%s.%s.ns", gaplen_name[i],
			    gapcause_name[j]);
			jw_close(&js, '}');
		}
		jw_close(&js, '}');
	}
	put_accountf("longest_ns", "gaps.longest.ns");
	put_accountf("longest_start_ns", "gaps.longest.start_ns");
	jw_close(&js, '}');
	jw_open(&js, "memory", '[');
	/* Every kind, in one order: a kind is at one index in every run. */
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		jw_open(&js, NULL, '{');
		jw_string(&js, "kind", kinds[i], strlen(kinds[i]));
		put_accountf("count", "memory.%s.count", kinds[i]);
		put_accountf("time_ns", "memory.%s.time_ns", kinds[i]);
		if (findf("account.memory.%s.bytes", kinds[i]) != NULL) {
			put_accountf("bytes", "memory.%s.bytes", kinds[i]);
			put_accountf("gb_per_s", "memory.%s.gb_per_s",
			    kinds[i]);
		} else {
			jw_null(&js, "bytes");
			jw_null(&js, "gb_per_s");
		}
		jw_close(&js, '}');
	}
	jw_close(&js, ']');
	jw_open(&js, "thresholds", '{');
	for (i = 0; i < sizeof(thresholds) / sizeof(*thresholds); i++)
		put_accountf(thresholds[i], "threshold.%s", thresholds[i]);
	jw_close(&js, '}');
	put_textfact("verdict", needf("account.verdict"));
	put_textfact("verdict_rule", needf("account.verdict_rule"));
	jw_close(&js, '}');
}

/* What the report adds to the reference's with -x. */
static void
extensions(void)
{
	int64_t count, total;

	report_run();
	jw_open(&js, "idle_gaps", '{');
	count = NEED("idle.count");
	total = NEED("idle.total_ns");
	jw_int(&js, "count", count);
	jw_int(&js, "total_ns", total);
	put_average("average_ns", total, count);
	jw_int(&js, "maximum_ns", NEED("idle.max_ns"));
	jw_int(&js, "p50_ns", NEED("idle.p50_ns"));
	jw_int(&js, "p90_ns", NEED("idle.p90_ns"));
	jw_int(&js, "p99_ns", NEED("idle.p99_ns"));
	jw_close(&js, '}');
	put_percent("kernel_busy_union_percent", NEED("kunion.ns"),
	    busy_base(NEED("gpu.span_ns")));
	report_streams();
	report_top();
	report_graphs();
	report_devices();
	report_nvtx();
	report_scope();
	report_account();
}

/* The hidden name of a product: PREFIX NAME in its directory. */
static char *
hidden_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? slash - path + 1 : 0;
	char *name;

	if (asprintf(&name, "%.*s%s%s", dirlen, path, hiddenprefix,
	    path + dirlen) == -1)
		err(1, NULL);
	return name;
}

/*
 * At an exit before the report is in place, the products put there go;
 * and the report too where its record could not be written, for a
 * report without its record would say that all is done.  (Only a report
 * that is a file of its own: not /dev/stdout, nor a link's target.)
 */
static void
remove_placed(void)
{
	struct stat st;

	if (reported)
		return;
	if (outplaced && lstat(output, &st) == 0 && S_ISREG(st.st_mode))
		unlink(output);
	while (nplaced > 0)
		unlink(products[--nplaced]);
}

/*
 * The record of -R: the key, the inputs, and the report and the products
 * as they are now in place (their identity is taken after the last
 * rename); an input changed since the stamp, when the reduction began,
 * is recorded as changed.
 */
static void
put_record(const char *stamp)
{
	const char **made;
	int i;

	if ((made = calloc(nproducts + 1, sizeof(*made))) == NULL)
		err(1, NULL);
	made[0] = output;
	for (i = 0; i < nproducts; i++)
		made[i + 1] = products[i];
	record_write(recordpath, recordkey, stamp != NULL ? mtime_ns(stamp) :
	    -1, recordinputs, nrecordinputs, made, nproducts + 1);
	free(made);
}

/*
 * Put the products in place, then the report, which says that all are
 * done, then the record of what they were made from, if asked for; each
 * with the times of stamp where there is one.  The signals that end us
 * wait until all are in place, so that none is put there alone; a
 * failure removes those put there.
 */
static void
put_report(const char *buf, size_t len, const char *stamp)
{
	struct timespec times[2], *tp = NULL;
	struct stat st;
	sigset_t deadly, old;
	char *from;

	if (stamp != NULL) {
		if (stat(stamp, &st) == -1)
			err(1, "%s", stamp);
		times[0] = st.st_atim;
		times[1] = st.st_mtim;
		tp = times;
	}
	if ((nproducts > 0 || recordpath != NULL) &&
	    atexit(remove_placed) != 0)
		errx(1, "atexit failed");
	sigemptyset(&deadly);
	sigaddset(&deadly, SIGHUP);
	sigaddset(&deadly, SIGINT);
	sigaddset(&deadly, SIGTERM);
	sigprocmask(SIG_BLOCK, &deadly, &old);
	for (; nplaced < nproducts; nplaced++) {
		from = hidden_name(products[nplaced]);
		if (tp != NULL && utimensat(AT_FDCWD, from, tp, 0) == -1)
			err(1, "%s", from);
		if (rename(from, products[nplaced]) == -1)
			err(1, "%s", errno == ENOENT ? from : products[nplaced]);
		free(from);
	}
	write_file_times(output, buf, len, tp);
	outplaced = 1;
	if (recordpath != NULL)
		put_record(stamp);
	reported = 1;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int
main(int argc, char *argv[])
{
	const char *rulespath = NULL, *stamp = NULL;
	char *buf = NULL;
	size_t len = 0;
	int ch, i, extend = 0, tee = 0;

	if ((products = calloc(argc, sizeof(*products))) == NULL ||
	    (recordinputs = calloc(argc, sizeof(*recordinputs))) == NULL)
		err(1, NULL);
	while ((ch = getopt_long(argc, argv, "hi:k:P:o:p:R:r:s:tx", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'i':
			recordinputs[nrecordinputs++] = optarg;
			break;
		case 'k':
			recordkey = optarg;
			break;
		case 'P':
			hiddenprefix = optarg;
			break;
		case 'R':
			recordpath = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'p':
			products[nproducts++] = optarg;
			break;
		case 'r':
			rulespath = optarg;
			break;
		case 's':
			stamp = optarg;
			break;
		case 't':
			tee = 1;
			break;
		case 'x':
			extend = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if ((tee || nproducts > 0 || stamp != NULL || recordpath != NULL) &&
	    output == NULL)
		usage(EXIT_USAGE);
	if ((recordpath == NULL) != (recordkey == NULL) ||
	    (nrecordinputs > 0 && recordpath == NULL))
		usage(EXIT_USAGE);
	if (recordkey != NULL && strchr(recordkey, '\n') != NULL)
		errx(EXIT_USAGE, "-k: a newline in the key");
	if (*hiddenprefix == '\0' || strchr(hiddenprefix, '/') != NULL)
		errx(EXIT_USAGE, "-P %s: not the start of a file name",
		    hiddenprefix);

	rules = rules_loadx(rulespath, extend ? RULES_EXTENDED : 0);
	if (argc == 0)
		readfacts("-");
	for (i = 0; i < argc; i++)
		readfacts(argv[i]);
	name_inputs(argc, argv);
	index_facts();
	check_categories();

	if ((js.fp = open_memstream(&buf, &len)) == NULL)
		err(1, NULL);
	jw_open(&js, NULL, '{');
	report();
	if (extend)
		extensions();
	jw_close(&js, '}');
	putc_unlocked('\n', js.fp);
	if (fclose(js.fp) == EOF)
		err(1, NULL);

	if (output != NULL)
		put_report(buf, len, stamp);
	if (output == NULL || tee)
		fwrite_unlocked(buf, 1, len, stdout);
	free(buf);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: reportjson [-htx] [-o output [-p product] "
	    "[-P prefix] [-s stamp] [-R record -k key [-i input]]] "
	    "[-r rules] [file ...]\n", status);
}
