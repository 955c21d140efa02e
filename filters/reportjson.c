/*
 * reportjson: turn the facts of a run into the report JSON of
 * summarize_nsys_profile.py, byte for byte as its json.dumps writes it.
 * See reportjson(1) and h3prof(5).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Where the JSON is built before it is written out in one piece. */
static FILE		*js;
/* Nesting of the JSON being written; empty[d]: nothing at depth d yet. */
static int		 depth;
static int		 empty[8];

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

/* The fact of a key made by a format, or NULL; need: fail if absent. */
static struct fact *
factf(int need, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static struct fact *
factf(int need, const char *fmt, ...)
{
	char key[1024];
	struct fact *f;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(key, sizeof(key), fmt, ap);
	va_end(ap);
	if ((f = lookup(key)) == NULL && need)
		errx(1, "%s: missing fact %s", inputs, key);
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
#define NEED(...)	intvalue(factf(1, __VA_ARGS__))

/* The integer fact of key, 0 if absent: the filters omit zero sums. */
static int64_t
orzero(const struct fact *f)
{
	return f ? intvalue(f) : 0;
}

/*
 * The length of the well-formed UTF-8 sequence at s, or, if there is none,
 * minus the length of its maximal invalid subpart (Unicode 3.9, D93b),
 * which Python replaces by one U+FFFD.  *cp gets the code point.
 */
static int
utf8(const unsigned char *s, const unsigned char *end, uint32_t *cp)
{
	unsigned char lo = 0x80, hi = 0xbf;
	int n, i;

	if (*s < 0x80) {
		*cp = *s;
		return 1;
	}
	if (*s < 0xc2 || *s > 0xf4)
		return -1;
	if (*s < 0xe0) {
		n = 2;
		*cp = *s & 0x1f;
	} else if (*s < 0xf0) {
		n = 3;
		*cp = *s & 0x0f;
		if (*s == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (*s == 0xed)
			hi = 0x9f;	/* surrogates */
	} else {
		n = 4;
		*cp = *s & 0x07;
		if (*s == 0xf0)
			lo = 0x90;	/* overlong */
		else if (*s == 0xf4)
			hi = 0x8f;	/* beyond U+10FFFF */
	}
	for (i = 1; i < n; i++, lo = 0x80, hi = 0xbf) {
		if (s + i == end || s[i] < lo || s[i] > hi)
			return -i;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	return n;
}

/* A UTF-16 code unit as json.dumps writes it with ensure_ascii. */
static void
put_unit(uint32_t u)
{
	char c;

	switch (u) {
	case '"': c = '"'; break;
	case '\\': c = '\\'; break;
	case '\b': c = 'b'; break;
	case '\f': c = 'f'; break;
	case '\n': c = 'n'; break;
	case '\r': c = 'r'; break;
	case '\t': c = 't'; break;
	default:
		if (u >= 0x20 && u < 0x7f)
			putc_unlocked(u, js);
		else
			fprintf(js, "\\u%04x", u);
		return;
	}
	putc_unlocked('\\', js);
	putc_unlocked(c, js);
}

/*
 * A JSON string as json.dumps writes it.  Bytes that are not UTF-8 become
 * U+FFFD, or with surrogateescape, as Python decodes a path, each byte B
 * becomes U+DC00 + B.
 */
static void
put_string(const char *str, size_t len, int surrogateescape)
{
	const unsigned char *s = (const unsigned char *)str, *end = s + len;
	uint32_t cp;
	int n;

	putc_unlocked('"', js);
	while (s < end) {
		if ((n = utf8(s, end, &cp)) > 0) {
			if (cp >= 0x10000) {
				put_unit(0xd800 + ((cp - 0x10000) >> 10));
				put_unit(0xdc00 + ((cp - 0x10000) & 0x3ff));
			} else
				put_unit(cp);
			s += n;
		} else if (surrogateescape) {
			for (; n < 0; n++)
				put_unit(0xdc00 + *s++);
		} else {
			put_unit(0xfffd);
			s += -n;
		}
	}
	putc_unlocked('"', js);
}

/*
 * A path as str(pathlib.Path(path)) shows it: no empty or "." parts, no
 * trailing slash, "." for nothing; exactly two leading slashes stay two.
 */
static void
put_path(const char *path, size_t len)
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
	put_string(norm, w - norm, 1);
	free(norm);
}

static void
newline_indent(void)
{
	int i;

	putc_unlocked('\n', js);
	for (i = 0; i < depth; i++)
		fputs_unlocked("  ", js);
}

/* Start the next member of the object or element of the array open. */
static void
member(const char *key)
{
	if (!empty[depth])
		putc_unlocked(',', js);
	empty[depth] = 0;
	newline_indent();
	if (key != NULL) {
		put_string(key, strlen(key), 0);
		fputs_unlocked(": ", js);
	}
}

/* Open an object or array ('{' or '['), as a member named key or not. */
static void
open_(const char *key, char c)
{
	if (depth > 0)
		member(key);
	putc_unlocked(c, js);
	empty[++depth] = 1;
}

static void
close_(char c)
{
	/* json.dumps writes an empty object as {}, on one line. */
	if (!empty[depth--])
		newline_indent();
	putc_unlocked(c, js);
}

static void
put_int(const char *key, int64_t v)
{
	member(key);
	fprintf(js, "%lld", (long long)v);
}

static void
put_float(const char *key, double v)
{
	char buf[PYFLOAT_MAX];

	member(key);
	fwrite_unlocked(buf, 1, pyfloat(buf, v), js);
}

static void
put_null(const char *key)
{
	member(key);
	fputs_unlocked("null", js);
}

/* a / b * 100.0 as the reference computes it, or null where b is 0. */
static void
put_percent(const char *key, int64_t a, int64_t b)
{
	if (b == 0)
		put_null(key);
	else
		put_float(key, pydiv(a, b) * 100.0);
}

/* total / count, or the integer 0 where count is 0, as the reference. */
static void
put_average(const char *key, int64_t total, int64_t count)
{
	if (count == 0)
		put_int(key, 0);
	else
		put_float(key, pydiv(total, count));
}

static void
put_text(const char *key, const char *s)
{
	member(key);
	put_string(s, strlen(s), 0);
}

/* A member whose value is the text of a fact, as a string. */
static void
put_textfact(const char *key, struct fact *f)
{
	size_t len = unescape(f->value);

	member(key);
	put_string(f->value, len, 0);
}

/* A member whose value is the path a fact holds: see put_path. */
static void
put_pathfact(const char *key, struct fact *f)
{
	size_t len = unescape(f->value);

	member(key);
	put_path(f->value, len);
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
	member(key);
	fwrite_unlocked(f->value, 1, len, js);
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
	member(key);
	if (len == 1 && *s == '-')
		fputs_unlocked("null", js);
	else if (len > 0 && json_number(s, len) == len &&
	    strspn(s, "0123456789") == len)
		fwrite_unlocked(s, 1, len, js);
	else
		put_string(s, len, 0);
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

/* The keys and values of the reference, in its order. */
static void
report(void)
{
	int64_t count, span, kernel_ns, ns, api_ns, total;
	size_t i;
	const char *cat;

	if ((count = NEED("gpu.count")) == 0)
		errx(1, "%s: gpu.count is 0: without GPU operations there "
		    "is no GPU span to report", inputs);
	span = NEED("gpu.span_ns");
	kernel_ns = orzero(factf(0, "gpu.kind.kernel.ns"));

	put_pathfact("source_gpu_trace", factf(1, "source.gpu_trace"));
	put_pathfact("source_kernel_exec_trace",
	    factf(1, "source.kernel_exec_trace"));
	put_int("gpu_span_ns", span);
	put_int("gpu_operation_count", count);
	put_int("kernel_count", orzero(factf(0, "gpu.kind.kernel.count")));
	put_int("kernel_time_ns", kernel_ns);
	put_percent("kernel_busy_percent_of_span", kernel_ns, span);

	open_("launch_gaps", '{');
	count = NEED("gaps.count");
	total = NEED("gaps.total_ns");
	put_int("positive_gap_count", count);
	put_int("total_ns", total);
	put_average("average_ns", total, count);
	put_int("maximum_ns", NEED("gaps.max_ns"));
	close_('}');

	open_("cpu_gpu_overlap", '{');
	put_text("scope", "CUDA kernel-launch API intervals intersected "
	    "with GPU kernel intervals");
	api_ns = NEED("api.ns");
	ns = NEED("overlap.ns");
	put_int("launch_api_union_ns", api_ns);
	put_int("launch_api_gpu_overlap_ns", ns);
	/* The reference writes the integer 0 where it cannot divide. */
	if (api_ns == 0)
		put_int("launch_api_overlap_percent", 0);
	else
		put_percent("launch_api_overlap_percent", ns, api_ns);
	close_('}');

	open_("components", '{');
	for (i = 0; i < rules_ncategories(rules); i++) {
		cat = rules_category(rules, i);
		ns = orzero(factf(0, "gpu.category.%s.ns", cat));
		open_(cat, '{');
		put_float("milliseconds", ns / 1.0e6);
		put_percent("percent_of_kernel_time", ns, kernel_ns);
		put_int("launches",
		    orzero(factf(0, "gpu.category.%s.count", cat)));
		close_('}');
	}
	close_('}');

	open_("classification_policy", '{');
	for (i = 0; i < rules_ncategories(rules); i++)
		put_text(rules_category(rules, i), rules_description(rules, i));
	close_('}');
}

/* The run a sweep names: run.name and run.config.KEY, in input order. */
static void
report_run(void)
{
	struct fact *f;
	const char *key;
	size_t i;

	open_("run", '{');
	if ((f = factf(0, "run.name")) != NULL)
		put_textfact("name", f);
	else
		put_null("name");
	open_("config", '{');
	for (i = 0; i < nfacts; i++)
		if ((key = after(facts[i].key, "run.config.")) != NULL)
			put_jsonfact(key, &facts[i]);
	close_('}');
	close_('}');
}

/* Kernel time and launches by stream, in the order tally -s saw them. */
static void
report_streams(void)
{
	const char *ds, *dot, *end;
	size_t i;

	open_("streams", '[');
	for (i = 0; i < nfacts; i++) {
		if ((ds = after(facts[i].key, "kstream.stream.")) == NULL ||
		    (end = strrchr(ds, '.')) == NULL ||
		    strcmp(end, ".ns") != 0)
			continue;
		if ((dot = memchr(ds, '.', end - ds)) == NULL)
			errx(1, "%s:%lu: fact %s: expected "
			    "kstream.stream.DEVICE.STREAM.ns", facts[i].path,
			    facts[i].lineno, facts[i].key);
		open_(NULL, '{');
		put_id("device", ds, dot - ds);
		put_id("stream", dot + 1, end - dot - 1);
		put_int("kernel_ns", intvalue(&facts[i]));
		put_int("launches", NEED("kstream.stream.%.*s.count",
		    (int)(end - ds), ds));
		close_('}');
	}
	close_(']');
}

/* top.1.*, top.2.*, ...: the kernels that took the most time. */
static void
report_top(void)
{
	struct fact *f;
	int64_t count, ns;
	int n;

	open_("top_kernels", '[');
	for (n = 1; (f = factf(0, "top.%d.name", n)) != NULL; n++) {
		open_(NULL, '{');
		put_textfact("name", f);
		put_textfact("category", factf(1, "top.%d.category", n));
		count = NEED("top.%d.count", n);
		ns = NEED("top.%d.ns", n);
		put_int("launches", count);
		put_int("total_ns", ns);
		if (count == 0)
			put_null("average_ns");
		else
			put_float("average_ns", pydiv(ns, count));
		close_('}');
	}
	close_(']');
}

/* What the report adds to the reference's with -x. */
static void
extensions(void)
{
	int64_t count, total;

	report_run();
	open_("idle_gaps", '{');
	count = NEED("idle.count");
	total = NEED("idle.total_ns");
	put_int("count", count);
	put_int("total_ns", total);
	put_average("average_ns", total, count);
	put_int("maximum_ns", NEED("idle.max_ns"));
	put_int("p50_ns", NEED("idle.p50_ns"));
	put_int("p90_ns", NEED("idle.p90_ns"));
	put_int("p99_ns", NEED("idle.p99_ns"));
	close_('}');
	put_percent("kernel_busy_union_percent", NEED("kunion.ns"),
	    NEED("gpu.span_ns"));
	report_streams();
	report_top();
}

/* Write all of buf to fd; -1 with errno set on failure. */
static int
writeall(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Put the report in path so that it is either the whole new report or
 * what was there before: a temporary file beside it, renamed over it.
 * What is not a regular file (/dev/stdout, a FIFO) is written in place.
 */
static void
write_output(const char *path, const char *buf, size_t len)
{
	struct stat st;
	char *tmp, *real = NULL, *slash;
	mode_t mask;
	int fd, e;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1)
			err(1, "%s", path);
		if (writeall(fd, buf, len) == -1 || close(fd) == -1)
			err(1, "%s", path);
		return;
	}
	/* Through a symbolic link, as Python writes: replace its target. */
	if (stat(path, &st) == 0 && (real = realpath(path, NULL)) != NULL)
		path = real;
	if ((slash = strrchr(path, '/')) == NULL)
		e = asprintf(&tmp, ".%s.XXXXXX", path);
	else
		e = asprintf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path),
		    path, slash + 1);
	if (e == -1)
		err(1, NULL);
	if ((fd = mkstemp(tmp)) == -1)
		err(1, "%s", path);
	/* The mode Python's open would give: the old one, or 0666 & ~umask. */
	if (real == NULL) {
		mask = umask(0);
		umask(mask);
		st.st_mode = 0666 & ~mask;
	}
	if (fchmod(fd, st.st_mode & 07777) == -1 ||
	    writeall(fd, buf, len) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp, path) == -1) {
		fd = -1;
		goto fail;
	}
	free(tmp);
	free(real);
	return;
fail:
	e = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	errno = e;
	err(1, "%s", path);
}

int
main(int argc, char *argv[])
{
	const char *rulespath = NULL, *output = NULL;
	char *buf = NULL;
	size_t len = 0;
	int ch, i, extend = 0;

	while ((ch = getopt_long(argc, argv, "ho:r:x", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'o':
			output = optarg;
			break;
		case 'r':
			rulespath = optarg;
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

	rules = rules_load(rulespath);
	if (argc == 0)
		readfacts("-");
	for (i = 0; i < argc; i++)
		readfacts(argv[i]);
	name_inputs(argc, argv);
	index_facts();
	check_categories();

	if ((js = open_memstream(&buf, &len)) == NULL)
		err(1, NULL);
	open_(NULL, '{');
	report();
	if (extend)
		extensions();
	close_('}');
	putc_unlocked('\n', js);
	if (fclose(js) == EOF)
		err(1, NULL);

	if (output != NULL)
		write_output(output, buf, len);
	else
		fwrite_unlocked(buf, 1, len, stdout);
	free(buf);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: reportjson [-hx] [-o output] [-r rules] "
	    "[file ...]\n", status);
}
