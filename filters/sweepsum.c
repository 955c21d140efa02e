/*
 * sweepsum: the summary of a sweep from the reports of its runs, as
 * h3summary(1) makes it: summary.json, summary.csv, groups.csv and
 * summary.md, with jq 1.6's numbers and strings, byte for byte what its
 * jq programs wrote.  It holds the figures of every run, not its report:
 * each report goes, written as summary.json will hold it, to a scratch
 * file that is copied in run order at the end.  See sweepsum(1).
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Bytes of a report read at most: reportjson writes a few KiB. */
#define MAXREPORT	(64 * 1024 * 1024)
/* Keys of a run's configuration at most: runconfig(1) reads 256 KiB. */
#define MAXCONFIG	10000
/* Objects and arrays nested at most in a report. */
#define MAXDEPTH	64
/* Kernels of category other a group lists at most, and their share. */
#define MAXOTHER	5
#define OTHERSHARE	90

/* A figure of a run: a number, or null. */
struct value {
	size_t		 fig;		/* index in figs */
	int		 isnull;
	double		 v;
};

/* A member of a run's configuration. */
struct entry {
	size_t		 key;		/* index in keys */
	char		 type;		/* as struct jsonnode's */
	char		*str;		/* a string's bytes */
	size_t		 strlen;
	char		*json;		/* the value as jq -c writes it */
	size_t		 jsonlen;
	char		*pretty;	/* and as summary.json's groups do */
	size_t		 prettylen;
};

/* A kernel of category other among a run's top kernels. */
struct okernel {
	char		*name;
	size_t		 namelen;
	double		 launches;
	double		 ns;
};

/* A run: a report, or a failure. */
struct run {
	char		*name;		/* run.name, or the list's */
	size_t		 namelen;
	char		*error;		/* why it failed; NULL: a report */
	size_t		 errorlen;
	struct value	*vals;		/* its figures, as they first appear */
	size_t		 nvals;
	struct entry	*config;	/* run.config, in its order */
	size_t		 nconfig;
	struct okernel	*others;
	size_t		 nothers;
	off_t		 off;		/* its report in scratch */
	size_t		 len;
	size_t		 order;		/* in the list, for stable sorts */
	size_t		 group;		/* index in confs */
};

/* The statistics of a figure in a group; NAN stands for null. */
struct stats {
	size_t		 fig;
	size_t		 n;
	double		 mean, stddev, min, max;
};

/* A group: the runs of one configuration, less the repeat keys. */
struct conf {
	struct group	 key;		/* the configuration in jq's order */
	size_t		 index;		/* in confs */
	struct run	*first;		/* its first run by name */
	struct run	**runs;		/* by name */
	size_t		 n;
	struct stats	*stats;		/* of each of its figures */
	size_t		 nstats;
	struct stats	**byfig;	/* the same by figure, to look up */
	struct okernel	*others;	/* its other_kernels */
	double		*otherpct;
	size_t		 nothers;
	double		 ratio;		/* to the fastest; NAN: null */
	char		*label;
	size_t		 labellen;
};

/* A name seen: a figure's or a configuration key's, numbered in order. */
struct name {
	struct group	 name;
	size_t		 index;
	size_t		 mark;		/* 1 + the last run or group that had
					   it, for unions */
	size_t		 at;		/* its place in that one's list */
};

static struct run *runs;		/* every run, reports first once
					   sorted */
static size_t nruns, maxruns;
static size_t nreports;			/* runs with a report */
static struct groups figs = { .size = sizeof(struct name) };
static struct groups keys = { .size = sizeof(struct name) };
static struct groups confs = { .size = sizeof(struct conf) };
static struct conf **byname;		/* the groups as summary.json lists
					   them */
static char **repeat;			/* -r: the keys of repeats */
static size_t nrepeat;
static FILE *scratch;			/* the reports, as summary.json
					   writes them */
static const char *dir;			/* -o */
/* The four outputs, their temporary files, and those made so far. */
static const char *outnames[] = {
	"summary.json", "summary.csv", "groups.csv", "summary.md"
};
#define NOUT	(sizeof(outnames) / sizeof(outnames[0]))
static char *tmpnames[NOUT];
static FILE *outs[NOUT];
static volatile sig_atomic_t nmade;	/* temporary files made */

static _Noreturn void usage(int);

static char *
copy(const char *s, size_t len)
{
	char *p;

	if ((p = malloc(len + 1)) == NULL)
		err(1, NULL);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Bytes as jq orders strings: by memcmp, a prefix first. */
static int
cmpbytes(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

/* The name of len bytes at s in table t, numbered on first sight. */
static struct name *
intern(struct groups *t, const char *s, size_t len)
{
	size_t n = t->n;
	struct name *nm = groups_get(t, s, len);

	if (t->n != n)
		nm->index = n;
	return nm;
}

/* --- reading --------------------------------------------------------------- */

/* The child of object n named key, or 0. */
static size_t
member(const struct jsondoc *doc, size_t n, const char *key)
{
	size_t c, len = strlen(key);

	for (c = doc->nodes[n].child; c != 0; c = doc->nodes[c].next)
		if (doc->nodes[c].keylen == len &&
		    memcmp(doc->nodes[c].key, key, len) == 0)
			return c;
	return 0;
}

/* Write node n of doc, and what it holds, as jq writes it; with keyed,
   as a member of the object open, its key first. */
static void
putnode(struct jsonw *jw, const struct jsondoc *doc, size_t n, int keyed)
{
	const struct jsonnode *v = &doc->nodes[n];
	size_t c;

	if (keyed && v->key != NULL)
		jw_key(jw, v->key, v->keylen);
	switch (v->type) {
	case '{':
	case '[':
		jw_open(jw, NULL, v->type);
		for (c = v->child; c != 0; c = doc->nodes[c].next)
			putnode(jw, doc, c, 1);
		jw_close(jw, v->type == '{' ? '}' : ']');
		break;
	case '"':
		jw_string(jw, NULL, v->text, v->textlen);
		break;
	case '0':
		/* An integer of 15 digits or fewer, as jq writes it. */
		if (v->textlen <= 15 + (*v->text == '-') &&
		    memchr(v->text, '.', v->textlen) == NULL &&
		    memchr(v->text, 'e', v->textlen) == NULL &&
		    memchr(v->text, 'E', v->textlen) == NULL)
			jw_json(jw, NULL, v->text, v->textlen);
		else
			jw_float(jw, NULL, strtod(v->text, NULL));
		break;
	default:
		jw_json(jw, NULL, v->text, v->textlen);
	}
}

/* Node n as jq writes it, compact or at base levels of indent. */
static char *
nodetext(const struct jsondoc *doc, size_t n, int compact, int base,
    size_t *lenp)
{
	struct jsonw jw = { .jq = 1, .compact = compact, .base = base };
	char *text;

	if ((jw.fp = open_memstream(&text, lenp)) == NULL)
		err(1, NULL);
	putnode(&jw, doc, n, 0);
	if (fclose(jw.fp) == EOF || (text = realloc(text, *lenp + 1)) == NULL)
		err(1, NULL);
	return text;
}

/*
 * What names an element of an array of objects: its member name (a
 * string), device or pid (a number), as nvtx_ranges, devices and
 * process_kernels of a report hold them; NULL where it has none.  A
 * figure of a range is then the same column in every run, wherever the
 * range stands in its run's array.
 */
static const struct jsonnode *
element_id(const struct jsondoc *doc, const struct jsonnode *v)
{
	static const struct { const char *key; char type; } ids[] = {
		{ "name", '"' }, { "device", '0' }, { "pid", '0' },
	};
	const struct jsonnode *m;
	size_t c, i;

	if (v->type != '{')
		return NULL;
	for (c = v->child; c != 0; c = doc->nodes[c].next) {
		m = &doc->nodes[c];
		for (i = 0; i < sizeof(ids) / sizeof(*ids); i++)
			if (m->type == ids[i].type &&
			    m->keylen == strlen(ids[i].key) &&
			    memcmp(m->key, ids[i].key, m->keylen) == 0)
				return m;
	}
	return NULL;
}

/*
 * The figures of a report: its numbers and nulls outside run, streams
 * and top_kernels, named by their paths joined by dots, an element of an
 * array by its id (element_id) or else its index.  Of two of one name,
 * the later value goes at the place of the first.
 */
static void
figures(struct run *r, const struct jsondoc *doc, size_t n, char **path,
    size_t *pathlen, size_t *pathmax)
{
	const struct jsonnode *v, *id;
	struct jsonnode elem;
	struct name *f;
	size_t c, len = *pathlen, i;
	char num[24];

	for (c = doc->nodes[n].child, i = 0; c != 0;
	    c = doc->nodes[c].next, i++) {
		v = &doc->nodes[c];
		if (n == 0 && v->key != NULL && ((v->keylen == 3 &&
		    memcmp(v->key, "run", 3) == 0) || (v->keylen == 7 &&
		    memcmp(v->key, "streams", 7) == 0) || (v->keylen == 11 &&
		    memcmp(v->key, "top_kernels", 11) == 0)))
			continue;
		*pathlen = len;
		if (v->key == NULL) {	/* an element, by its id or index */
			elem = *v;
			if ((id = element_id(doc, v)) != NULL) {
				elem.key = id->text;
				elem.keylen = id->textlen;
			} else {
				elem.key = num;
				elem.keylen = fmt_int(num, i) - num;
			}
			v = &elem;
		}
		*path = grow(*path, pathmax, *pathlen + v->keylen + 1, 1);
		if (len > 0)
			(*path)[(*pathlen)++] = '.';
		memcpy(*path + *pathlen, v->key, v->keylen);
		*pathlen += v->keylen;
		if (v->type == '{' || v->type == '[') {
			figures(r, doc, c, path, pathlen, pathmax);
			continue;
		}
		if (v->type != '0' && !(v->type == 'w' && *v->text == 'n'))
			continue;
		f = intern(&figs, *path, *pathlen);
		if (f->mark != r->order + 1) {
			f->mark = r->order + 1;
			f->at = r->nvals++;
		}
		r->vals[f->at] = (struct value){ f->index, v->type == 'w',
		    v->type == '0' ? strtod(v->text, NULL) : 0 };
	}
	*pathlen = len;
}

/* Numbers and nulls in the document, more than its figures. */
static size_t
countvalues(const struct jsondoc *doc)
{
	size_t i, n = 0;

	for (i = 0; i < doc->n; i++)
		n += doc->nodes[i].type == '0' || (doc->nodes[i].type == 'w' &&
		    *doc->nodes[i].text == 'n');
	return n;
}

/*
 * The kernels of category other among the top kernels: those with a
 * name and numbers of launches and ns, as reportjson(1) writes them.
 */
static void
otherkernels(struct run *r, const struct jsondoc *doc)
{
	const struct jsonnode *nodes = doc->nodes;
	size_t list, k, cat, name, launches, ns, max = 0;

	if ((list = member(doc, 0, "top_kernels")) == 0 ||
	    nodes[list].type != '[')
		return;
	for (k = nodes[list].child; k != 0; k = nodes[k].next) {
		if (nodes[k].type != '{' ||
		    (cat = member(doc, k, "category")) == 0 ||
		    nodes[cat].type != '"' || nodes[cat].textlen != 5 ||
		    memcmp(nodes[cat].text, "other", 5) != 0 ||
		    (name = member(doc, k, "name")) == 0 ||
		    nodes[name].type != '"' ||
		    (launches = member(doc, k, "launches")) == 0 ||
		    nodes[launches].type != '0' ||
		    (ns = member(doc, k, "total_ns")) == 0 ||
		    nodes[ns].type != '0')
			continue;
		r->others = grow(r->others, &max, r->nothers,
		    sizeof(*r->others));
		r->others[r->nothers++] = (struct okernel){
		    copy(nodes[name].text, nodes[name].textlen),
		    nodes[name].textlen, strtod(nodes[launches].text, NULL),
		    strtod(nodes[ns].text, NULL) };
	}
}

/* The configuration of a report, n its run.config; NULL or what is wrong. */
static const char *
configuration(struct run *r, const struct jsondoc *doc, size_t n)
{
	const struct jsonnode *v;
	struct entry *e;
	struct name *k;
	size_t c, count = 0;

	for (c = doc->nodes[n].child; c != 0; c = doc->nodes[c].next)
		if (++count > MAXCONFIG)
			return "its run.config holds more than 10000 keys";
	if ((r->config = calloc(count + 1, sizeof(*r->config))) == NULL)
		err(1, NULL);
	for (c = doc->nodes[n].child; c != 0; c = doc->nodes[c].next) {
		v = &doc->nodes[c];
		e = &r->config[r->nconfig++];
		k = intern(&keys, v->key, v->keylen);
		e->key = k->index;
		e->type = v->type;
		if (v->type == '"') {
			e->str = copy(v->text, v->textlen);
			e->strlen = v->textlen;
		}
		e->json = nodetext(doc, c, 1, 0, &e->jsonlen);
		if ((v->type == '{' || v->type == '[') && v->child != 0)
			e->pretty = nodetext(doc, c, 0, 4, &e->prettylen);
		else {
			e->pretty = e->json;
			e->prettylen = e->jsonlen;
		}
	}
	return NULL;
}

/* A failure of run r: "shown path: msg", or msg alone with path NULL. */
static void
failed(struct run *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
failed(struct run *r, const char *path, const char *fmt, ...)
{
	va_list ap;
	char *msg, *p = NULL;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (len == -1)
		err(1, NULL);
	if (path != NULL) {
		p = shown(path, strlen(path), strlen(path));
		if ((len = asprintf(&r->error, "%s: %s", p, msg)) == -1)
			err(1, NULL);
		free(msg);
		free(p);
	} else
		r->error = msg;
	r->errorlen = len;
}

/* The whole of a file, NUL after it, or NULL with errno set. */
static char *
slurp(const char *path, size_t max, size_t *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY)) == -1)
		return NULL;
	for (;;) {
		buf = grow(buf, &cap, len + 1, 1);
		if (len >= max) {
			e = EFBIG;
			goto fail;
		}
		if ((n = read(fd, buf + len, cap - len - 1)) == -1) {
			if (errno == EINTR)
				continue;
			e = errno;
			goto fail;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	*lenp = len;
	return buf;
fail:
	free(buf);
	close(fd);
	errno = e;
	return NULL;
}

/* Read the report of run r at path, a regular file said to be readable. */
static void
report(struct run *r, const char *path)
{
	struct jsondoc doc;
	struct jsonw jw = { .jq = 1, .base = 2, .fp = scratch };
	const char *why;
	char *text, *figpath = NULL;
	size_t len, run, name, config, figlen = 0, figmax = 0;
	unsigned long lineno;

	if ((text = slurp(path, MAXREPORT, &len)) == NULL) {
		failed(r, path, errno == EFBIG ? "not a report: larger "
		    "than 64 MiB" : "cannot be read");
		return;
	}
	why = jsondoc_parse(&doc, text, len, MAXDEPTH, JSON_BYTES, &lineno);
	if (why != NULL) {
		failed(r, path, "not a report: line %lu: %s", lineno, why);
		free(text);
		return;
	}
	if (doc.nodes[0].type != '{')
		why = "not a JSON object";
	else if ((run = member(&doc, 0, "run")) == 0 ||
	    doc.nodes[run].type != '{')
		why = "no run in it";
	else if ((name = member(&doc, run, "name")) == 0 ||
	    doc.nodes[name].type != '"')
		why = "no run.name string in it";
	else if ((config = member(&doc, run, "config")) == 0 ||
	    doc.nodes[config].type != '{')
		why = "no run.config object in it";
	else
		why = configuration(r, &doc, config);
	if (why != NULL) {
		failed(r, path, "not a report: %s", why);
		goto done;
	}
	r->name = copy(doc.nodes[name].text, doc.nodes[name].textlen);
	r->namelen = doc.nodes[name].textlen;
	if ((r->vals = calloc(countvalues(&doc) + 1,
	    sizeof(*r->vals))) == NULL)
		err(1, NULL);
	figures(r, &doc, 0, &figpath, &figlen, &figmax);
	free(figpath);
	/* What is held of a run is held to its size. */
	if ((r->vals = reallocarray(r->vals, r->nvals + 1,
	    sizeof(*r->vals))) == NULL)
		err(1, NULL);
	otherkernels(r, &doc);
	if ((r->off = ftello(scratch)) == -1)
		err(1, "scratch file");
	putnode(&jw, &doc, 0, 0);
	r->len = ftello(scratch) - r->off;
	nreports++;
done:
	jsondoc_free(&doc);
	free(text);
}

/* A run of the list: name, and the path of its report.json. */
static void
addrun(const char *name, size_t namelen, const char *path)
{
	struct run *r;
	struct stat st;
	char *errpath, *record;
	size_t pathlen = strlen(path), len;
	int isfile;

	runs = grow(runs, &maxruns, nruns, sizeof(*runs));
	r = &runs[nruns];
	memset(r, 0, sizeof(*r));
	r->order = nruns++;
	isfile = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (isfile && access(path, R_OK) == 0) {
		report(r, path);
		if (r->error == NULL)
			return;
	} else {
		/* The error record: .json replaced by .err, or .err added. */
		if (pathlen >= 5 && strcmp(path + pathlen - 5, ".json") == 0)
			pathlen -= 5;
		if (asprintf(&errpath, "%.*s.err", (int)pathlen, path) == -1)
			err(1, NULL);
		if (!isfile && stat(errpath, &st) == 0 &&
		    S_ISREG(st.st_mode) && access(errpath, R_OK) == 0 &&
		    (record = slurp(errpath, MAXREPORT, &len)) != NULL) {
			r->error = record;
			r->errorlen = len;
		} else
			failed(r, path, isfile ? "cannot be read" : "missing");
		free(errpath);
	}
	r->name = copy(name, namelen);
	r->namelen = namelen;
}

/* The list: lines of a name, tabs, and a path, as bash's read splits them. */
static void
readlist(const char *path)
{
	struct lines in;
	char *line, *name, *p, *end;
	size_t len, namelen;

	lines_open(&in, path);
	while ((line = lines_next(&in, &len)) != NULL) {
		end = line + len;
		for (name = line; name < end && *name == '\t'; name++)
			;
		for (p = name; p < end && *p != '\t'; p++)
			;
		namelen = p - name;
		while (p < end && *p == '\t')
			p++;
		while (end > p && end[-1] == '\t')
			end--;
		*end = '\0';
		if (namelen > 0)
			addrun(name, namelen, p);
	}
	lines_close(&in);
}

/* --- reducing -------------------------------------------------------------- */

/* Reports before failures; reports by run.name, failures by name. */
static int
byrunname(const void *a, const void *b)
{
	const struct run *x = a, *y = b;
	int c;

	if ((x->error == NULL) != (y->error == NULL))
		return x->error == NULL ? -1 : 1;
	if ((c = cmpbytes(x->name, x->namelen, y->name, y->namelen)) != 0)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Entries by key, as jq's to_entries | sort_by(.key). */
static int
bykey(const void *a, const void *b)
{
	const struct entry *x = *(struct entry *const *)a;
	const struct entry *y = *(struct entry *const *)b;
	const struct group *kx = groups_nth(&keys, x->key);
	const struct group *ky = groups_nth(&keys, y->key);

	return cmpbytes(kx->key, kx->keylen, ky->key, ky->keylen);
}

static int
isrepeat(const struct group *k)
{
	size_t i;

	for (i = 0; i < nrepeat; i++)
		if (strlen(repeat[i]) == k->keylen &&
		    memcmp(repeat[i], k->key, k->keylen) == 0)
			return 1;
	return 0;
}

/* Put len bytes at s at *keyp, after their length. */
static void
putfield(char **keyp, size_t *lenp, size_t *maxp, const char *s, size_t len)
{
	*keyp = grow(*keyp, maxp, *lenp + sizeof(len) + len, 1);
	memcpy(*keyp + *lenp, &len, sizeof(len));
	memcpy(*keyp + *lenp + sizeof(len), s, len);
	*lenp += sizeof(len) + len;
}

/*
 * The group of each report: its configuration less the repeat keys, its
 * entries sorted by key, each as key and value (jq -c), each after its
 * length: the order of jq's group_by and equal where jq's would be.
 */
static void
group(void)
{
	struct entry **sorted = NULL;
	struct conf *g;
	struct run *r;
	char *key = NULL;
	size_t i, n, len, max = 0, keymax = 0;
	const struct group *k;

	for (r = runs; r < runs + nreports; r++) {
		sorted = grow(sorted, &max, r->nconfig, sizeof(*sorted));
		for (i = n = 0; i < r->nconfig; i++)
			if (!isrepeat(groups_nth(&keys, r->config[i].key)))
				sorted[n++] = &r->config[i];
		qsort(sorted, n, sizeof(*sorted), bykey);
		for (i = len = 0; i < n; i++) {
			k = groups_nth(&keys, sorted[i]->key);
			putfield(&key, &len, &keymax, k->key, k->keylen);
			putfield(&key, &len, &keymax, sorted[i]->json,
			    sorted[i]->jsonlen);
		}
		n = confs.n;
		g = groups_get(&confs, key == NULL ? "" : key, len);
		if (confs.n != n) {
			g->index = n;
			g->first = r;
		}
		g->n++;
		r->group = g->index;
	}
	free(sorted);
	free(key);
}

/* The length of the field at *p of a group's key; *p past it. */
static size_t
field(const char **p)
{
	size_t len;

	memcpy(&len, *p, sizeof(len));
	*p += sizeof(len) + len;
	return len;
}

/*
 * Groups by the name of their first run, then by configuration as jq
 * compares the arrays of [key, value] that group_by sorted them by.
 */
static int
byfirstrun(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	const char *p = x->key.key, *q = y->key.key;
	const char *pend = p + x->key.keylen, *qend = q + y->key.keylen;
	const char *ps, *qs;
	size_t plen, qlen;
	int c;

	if ((c = cmpbytes(x->first->name, x->first->namelen, y->first->name,
	    y->first->namelen)) != 0)
		return c;
	while (p < pend && q < qend) {
		ps = p + sizeof(plen);
		qs = q + sizeof(qlen);
		plen = field(&p);
		qlen = field(&q);
		if ((c = cmpbytes(ps, plen, qs, qlen)) != 0)
			return c;
	}
	return (p < pend) - (q < qend);
}

/* The sum of n values, compensated (Neumaier), as the jq program's fsum. */
static double
fsum(const double *v, size_t n, double shift, int square)
{
	double s = 0, c = 0, t, x;
	size_t i;

	for (i = 0; i < n; i++) {
		x = v[i] - shift;
		if (square)
			x = x * x;
		t = s + x;
		c += !(fabs(s) < fabs(x)) ? (s - t) + x : (x - t) + s;
		s = t;
	}
	return s + c;
}

/*
 * n, mean, sample standard deviation, min and max of n values, as the jq
 * program computed them (see h3summary(1)): min keeps the first of equal
 * values and max the last, as jq's do, which tells -0 from 0; and a NaN
 * is more than any number, as jq compares them.
 */
static void
stats(struct stats *st, const double *v, size_t n)
{
	double mean, d, var;
	size_t i;

	st->n = n;
	st->mean = st->stddev = st->min = st->max = NAN;
	if (n == 0)
		return;
	st->min = st->max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < st->min)
			st->min = v[i];
		if (!(v[i] < st->max))
			st->max = v[i];
	}
	mean = v[0] + fsum(v, n, v[0], 0) / n;
	if (mean < st->min)
		mean = st->min;
	else if (!(mean < st->max) && mean != st->max)
		mean = st->max;
	st->mean = mean;
	if (n < 2)
		return;
	d = fsum(v, n, mean, 0);
	var = (fsum(v, n, mean, 1) - d * d / n) / (n - 1);
	st->stddev = !(var < 0) && var != 0 ? sqrt(var) : 0;
}

/* Statistics by figure. */
static int
byfig(const void *a, const void *b)
{
	const struct stats *x = *(struct stats *const *)a;
	const struct stats *y = *(struct stats *const *)b;

	return x->fig < y->fig ? -1 : x->fig > y->fig;
}

/* The statistics of figure fig in group g, or NULL. */
static const struct stats *
groupstats(const struct conf *g, size_t fig)
{
	const struct stats key = { .fig = fig }, *kp = &key, **at;

	at = bsearch(&kp, g->byfig, g->nstats, sizeof(*g->byfig), byfig);
	return at == NULL ? NULL : *at;
}

/* The figure of a group named name, or NULL. */
static const struct stats *
groupfig(const struct conf *g, const char *name)
{
	const struct name *f;

	if ((f = groups_find(&figs, name, strlen(name))) == NULL)
		return NULL;
	return groupstats(g, f->index);
}

/* A kernel of a group's runs, and its place among them. */
struct seen {
	const struct okernel	*k;
	size_t			 seq;
};

/* Kernels by name, then as they came. */
static int
bykernelname(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	int c = cmpbytes(x->k->name, x->k->namelen, y->k->name,
	    y->k->namelen);

	return c != 0 ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Kernels by most ns, then name. */
static int
bymostns(const void *a, const void *b)
{
	const struct okernel *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return cmpbytes(x->name, x->namelen, y->name, y->namelen);
}

/*
 * The other_kernels of group g: the other kernels of its runs summed by
 * name, in the order of their runs, over n; most time first, as many as
 * carry OTHERSHARE% of the group's time in other, at most MAXOTHER.
 */
static void
groupothers(struct conf *g)
{
	struct seen *all = NULL;
	struct okernel *sums = NULL;
	const struct okernel *k;
	const struct stats *other;
	double ns, pct = 0;
	size_t i, j, n = 0, max = 0;

	other = groupfig(g, "components.other.milliseconds");
	ns = other == NULL || isnan(other->mean) ? 0 : other->mean * 1e6;
	if (!(ns > 0))
		return;
	for (i = 0; i < g->n; i++)
		for (j = 0; j < g->runs[i]->nothers; j++) {
			all = grow(all, &max, n, sizeof(*all));
			all[n] = (struct seen){ &g->runs[i]->others[j], n };
			n++;
		}
	if (n == 0)
		return;
	qsort(all, n, sizeof(*all), bykernelname);
	if ((sums = calloc(n, sizeof(*sums))) == NULL)
		err(1, NULL);
	for (i = j = 0; i < n; i++) {
		k = all[i].k;
		if (j > 0 && cmpbytes(k->name, k->namelen, sums[j - 1].name,
		    sums[j - 1].namelen) == 0) {
			sums[j - 1].launches += k->launches;
			sums[j - 1].ns += k->ns;
		} else
			sums[j++] = *k;
	}
	n = j;
	for (i = 0; i < n; i++) {
		sums[i].launches /= g->n;
		sums[i].ns /= g->n;
	}
	qsort(sums, n, sizeof(*sums), bymostns);
	if ((g->otherpct = calloc(MAXOTHER, sizeof(double))) == NULL)
		err(1, NULL);
	for (i = 0; i < n && g->nothers < MAXOTHER && pct < OTHERSHARE; i++) {
		g->otherpct[g->nothers] = sums[i].ns / ns * 100;
		pct += g->otherpct[g->nothers];
		sums[g->nothers++] = sums[i];
	}
	g->others = sums;
	free(all);
}

/* The label of a configuration: KEY=VALUE, a string as it is, by commas. */
static void
label(struct conf *g)
{
	const struct run *r = g->first;
	const struct entry *e;
	const struct group *k;
	FILE *fp;
	size_t i;
	int sep = 0;

	if ((fp = open_memstream(&g->label, &g->labellen)) == NULL)
		err(1, NULL);
	for (i = 0; i < r->nconfig; i++) {
		e = &r->config[i];
		k = groups_nth(&keys, e->key);
		if (isrepeat(k))
			continue;
		if (sep++)
			putc(',', fp);
		fwrite(k->key, 1, k->keylen, fp);
		putc('=', fp);
		if (e->type == '"')
			fwrite(e->str, 1, e->strlen, fp);
		else
			fwrite(e->json, 1, e->jsonlen, fp);
	}
	if (fclose(fp) == EOF)
		err(1, NULL);
}

/* Each group's runs, figures, other kernels and ratio to the fastest. */
static void
reduce(void)
{
	struct conf *g;
	struct name *f;
	const struct stats *span;
	double **vals, fastest = NAN;
	size_t *nv, *maxv, *order, i, j, nfigs;

	if ((byname = calloc(confs.n + 1, sizeof(*byname))) == NULL)
		err(1, NULL);
	for (i = 0; i < confs.n; i++) {
		g = groups_nth(&confs, i);
		byname[i] = g;
		if ((g->runs = calloc(g->n, sizeof(*g->runs))) == NULL)
			err(1, NULL);
		g->n = 0;
	}
	for (i = 0; i < nreports; i++) {
		g = groups_nth(&confs, runs[i].group);
		g->runs[g->n++] = &runs[i];
	}
	if (confs.n > 0)
		qsort(byname, confs.n, sizeof(*byname), byfirstrun);

	/* The values of each figure in a group, in the order of its runs. */
	nfigs = figs.n;
	vals = calloc(nfigs + 1, sizeof(*vals));
	nv = calloc(nfigs + 1, sizeof(*nv));
	maxv = calloc(nfigs + 1, sizeof(*maxv));
	order = calloc(nfigs + 1, sizeof(*order));
	if (vals == NULL || nv == NULL || maxv == NULL || order == NULL)
		err(1, NULL);
	for (i = 0; i < nfigs; i++)
		((struct name *)groups_nth(&figs, i))->mark = 0;
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		for (j = 0; j < g->n; j++) {
			const struct run *r = g->runs[j];
			const struct value *v;

			for (v = r->vals; v < r->vals + r->nvals; v++) {
				f = groups_nth(&figs, v->fig);
				if (f->mark != i + 1) {
					f->mark = i + 1;
					order[g->nstats++] = v->fig;
					nv[v->fig] = 0;
				}
				if (v->isnull)
					continue;
				vals[v->fig] = grow(vals[v->fig],
				    &maxv[v->fig], nv[v->fig], sizeof(double));
				vals[v->fig][nv[v->fig]++] = v->v;
			}
		}
		if ((g->stats = calloc(g->nstats + 1,
		    sizeof(*g->stats))) == NULL)
			err(1, NULL);
		if ((g->byfig = calloc(g->nstats + 1,
		    sizeof(*g->byfig))) == NULL)
			err(1, NULL);
		for (j = 0; j < g->nstats; j++) {
			g->stats[j].fig = order[j];
			stats(&g->stats[j], vals[order[j]], nv[order[j]]);
			g->byfig[j] = &g->stats[j];
		}
		if (g->nstats > 0)
			qsort(g->byfig, g->nstats, sizeof(*g->byfig), byfig);
		groupothers(g);
		label(g);
		span = groupfig(g, "gpu_span_ns");
		if (span != NULL && !isnan(span->mean) &&
		    (isnan(fastest) || span->mean < fastest))
			fastest = span->mean;
	}
	for (i = 0; i < nfigs; i++)
		free(vals[i]);
	free(vals);
	free(nv);
	free(maxv);
	free(order);
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		span = groupfig(g, "gpu_span_ns");
		g->ratio = span == NULL || isnan(span->mean) ||
		    isnan(fastest) || fastest <= 0 ? NAN : span->mean / fastest;
	}
}

/* --- writing --------------------------------------------------------------- */

/* A double, or null for NaN (what stands for null here), as jq writes it. */
static void
putnum(FILE *fp, double v)
{
	char buf[JQNUM_MAX];

	fwrite(buf, 1, jqnum(buf, v), fp);
}

/* A byte that is not UTF-8, in a CSV or Markdown, as \ooo; else, a
   character, its length and code point. */
static size_t
character(const char *s, const char *end, uint32_t *cp, int *bad)
{
	size_t n = utf8_char(s, end - s, cp);

	*bad = n == 0;
	if (n == 0) {
		*cp = (unsigned char)*s;
		n = 1;
	}
	return n;
}

/* A string as @csv quotes it, "" for each ", between pre and post. */
static void
csvfield(FILE *fp, const char *pre, const char *s, size_t len,
    const char *post)
{
	const char *end = s + len;
	uint32_t cp;
	size_t n;
	int bad;

	putc('"', fp);
	fputs(pre, fp);
	for (; s < end; s += n) {
		n = character(s, end, &cp, &bad);
		if (bad)
			fprintf(fp, "\\%03o", (unsigned)cp);
		else if (*s == '"')
			fputs("\"\"", fp);
		else
			fwrite(s, 1, n, fp);
	}
	fputs(post, fp);
	putc('"', fp);
}

static void
csvstring(FILE *fp, const char *s, size_t len)
{
	csvfield(fp, "", s, len, "");
}

/*
 * A configuration value in a CSV: a string quoted, null as nothing, any
 * other as jq writes it; an array or object, which @csv refused, as its
 * JSON text quoted.
 */
static void
csvvalue(FILE *fp, const struct entry *e)
{
	if (e == NULL || (e->type == 'w' && *e->json == 'n'))
		return;
	if (e->type == '"')
		csvstring(fp, e->str, e->strlen);
	else if (e->type == '{' || e->type == '[')
		csvstring(fp, e->json, e->jsonlen);
	else
		fwrite(e->json, 1, e->jsonlen, fp);
}

static void
csvnum(FILE *fp, double v)
{
	if (!isnan(v))
		putnum(fp, v);
}

/* What mdtext does besides: a newline as a space, | as \|, or both. */
#define MD_NEWLINE	1
#define MD_BAR		2
#define MD_CELL		(MD_NEWLINE | MD_BAR)

/*
 * Text for a person, as the jq program's shown: each control character
 * (C0, DEL) as \ooo, one of C1 as \302\ooo, a byte that is not UTF-8 as
 * \ooo; and as flags say.
 */
static void
mdtext(FILE *fp, const char *s, size_t len, int flags)
{
	const char *end = s + len;
	uint32_t cp;
	size_t n;
	int bad;

	for (; s < end; s += n) {
		n = character(s, end, &cp, &bad);
		if ((flags & MD_NEWLINE) && cp == '\n' && !bad)
			putc(' ', fp);
		else if (bad || cp < 0x20 || cp == 0x7f)
			fprintf(fp, "\\%03o", (unsigned)cp);
		else if (cp >= 0x80 && cp < 0xa0)
			fprintf(fp, "\\302\\%03o", (unsigned)cp);
		else if ((flags & MD_BAR) && cp == '|')
			fputs("\\|", fp);
		else
			fwrite(s, 1, n, fp);
	}
}

/* The configuration keys of the reports, as they first appear. */
static size_t *
configunion(size_t *np)
{
	size_t *order, i, j, n = 0;
	struct name *k;

	if ((order = calloc(keys.n + 1, sizeof(*order))) == NULL)
		err(1, NULL);
	for (i = 0; i < keys.n; i++)
		((struct name *)groups_nth(&keys, i))->mark = 0;
	for (i = 0; i < nreports; i++)
		for (j = 0; j < runs[i].nconfig; j++) {
			k = groups_nth(&keys, runs[i].config[j].key);
			if (k->mark == 0) {
				k->mark = 1;
				order[n++] = k->index;
			}
		}
	*np = n;
	return order;
}

/* The figures of the reports, or with bygroup of the groups, in order. */
static size_t *
figunion(int bygroup, size_t *np)
{
	size_t *order, i, j, n = 0, nv, fig;
	struct name *f;

	if ((order = calloc(figs.n + 1, sizeof(*order))) == NULL)
		err(1, NULL);
	for (i = 0; i < figs.n; i++)
		((struct name *)groups_nth(&figs, i))->mark = 0;
	for (i = 0; i < (bygroup ? confs.n : nreports); i++) {
		nv = bygroup ? byname[i]->nstats : runs[i].nvals;
		for (j = 0; j < nv; j++) {
			fig = bygroup ? byname[i]->stats[j].fig :
			    runs[i].vals[j].fig;
			f = groups_nth(&figs, fig);
			if (f->mark == 0) {
				f->mark = 1;
				order[n++] = fig;
			}
		}
	}
	*np = n;
	return order;
}

static void
putsummaryjson(FILE *fp)
{
	struct jsonw jw = { .fp = fp, .jq = 1 };
	const struct conf *g;
	const struct run *r;
	const struct entry *e;
	const struct group *k;
	const struct stats *st;
	char *text = NULL;
	size_t i, j, max = 0;

	if (fflush(scratch) == EOF)
		err(1, "scratch file");
	jw_open(&jw, NULL, '{');
	jw_open(&jw, "runs", '[');
	for (r = runs; r < runs + nreports; r++) {
		text = grow(text, &max, r->len, 1);
		if (pread(fileno(scratch), text, r->len, r->off) !=
		    (ssize_t)r->len)
			err(1, "scratch file");
		jw_json(&jw, NULL, text, r->len);
	}
	free(text);
	jw_close(&jw, ']');
	jw_open(&jw, "failed", '[');
	for (; r < runs + nruns; r++) {
		jw_open(&jw, NULL, '{');
		jw_string(&jw, "name", r->name, r->namelen);
		jw_string(&jw, "error", r->error, r->errorlen);
		jw_close(&jw, '}');
	}
	jw_close(&jw, ']');
	jw_open(&jw, "groups", '[');
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		jw_open(&jw, NULL, '{');
		jw_open(&jw, "config", '{');
		for (j = 0; j < g->first->nconfig; j++) {
			e = &g->first->config[j];
			k = groups_nth(&keys, e->key);
			if (isrepeat(k))
				continue;
			jw_key(&jw, k->key, k->keylen);
			jw_json(&jw, NULL, e->pretty, e->prettylen);
		}
		jw_close(&jw, '}');
		jw_string(&jw, "label", g->label, g->labellen);
		jw_int(&jw, "n", g->n);
		jw_open(&jw, "runs", '[');
		for (j = 0; j < g->n; j++)
			jw_string(&jw, NULL, g->runs[j]->name,
			    g->runs[j]->namelen);
		jw_close(&jw, ']');
		jw_open(&jw, "figures", '{');
		for (st = g->stats; st < g->stats + g->nstats; st++) {
			k = groups_nth(&figs, st->fig);
			jw_key(&jw, k->key, k->keylen);
			jw_open(&jw, NULL, '{');
			jw_int(&jw, "n", st->n);
			jw_float(&jw, "mean", st->mean);
			jw_float(&jw, "stddev", st->stddev);
			jw_float(&jw, "min", st->min);
			jw_float(&jw, "max", st->max);
			jw_close(&jw, '}');
		}
		jw_close(&jw, '}');
		jw_open(&jw, "other_kernels", '[');
		for (j = 0; j < g->nothers; j++) {
			jw_open(&jw, NULL, '{');
			jw_string(&jw, "name", g->others[j].name,
			    g->others[j].namelen);
			jw_float(&jw, "launches", g->others[j].launches);
			jw_float(&jw, "total_ns", g->others[j].ns);
			jw_float(&jw, "percent_of_other", g->otherpct[j]);
			jw_close(&jw, '}');
		}
		jw_close(&jw, ']');
		jw_float(&jw, "ratio_to_fastest", g->ratio);
		jw_close(&jw, '}');
	}
	jw_close(&jw, ']');
	jw_close(&jw, '}');
	putc('\n', fp);
}

static void
putsummarycsv(FILE *fp)
{
	const struct entry **cells;
	const struct value **vals;
	const struct group *k;
	const struct run *r;
	size_t *cols, *figcols, ncols, nfigcols, i, len;

	cols = configunion(&ncols);
	figcols = figunion(0, &nfigcols);
	cells = calloc(keys.n + 1, sizeof(*cells));
	vals = calloc(figs.n + 1, sizeof(*vals));
	if (cells == NULL || vals == NULL)
		err(1, NULL);
	fputs("\"run\",\"status\"", fp);
	for (i = 0; i < ncols; i++) {
		k = groups_nth(&keys, cols[i]);
		putc(',', fp);
		csvfield(fp, "config.", k->key, k->keylen, "");
	}
	for (i = 0; i < nfigcols; i++) {
		k = groups_nth(&figs, figcols[i]);
		putc(',', fp);
		csvstring(fp, k->key, k->keylen);
	}
	fputs(",\"error\"\n", fp);
	for (r = runs; r < runs + nruns; r++) {
		csvstring(fp, r->name, r->namelen);
		fputs(r->error == NULL ? ",\"ok\"" : ",\"failed\"", fp);
		for (i = 0; i < r->nconfig; i++)
			cells[r->config[i].key] = &r->config[i];
		for (i = 0; i < r->nvals; i++)
			vals[r->vals[i].fig] = &r->vals[i];
		for (i = 0; i < ncols; i++) {
			putc(',', fp);
			csvvalue(fp, cells[cols[i]]);
		}
		for (i = 0; i < nfigcols; i++) {
			putc(',', fp);
			if (vals[figcols[i]] != NULL &&
			    !vals[figcols[i]]->isnull)
				putnum(fp, vals[figcols[i]]->v);
		}
		putc(',', fp);
		if (r->error != NULL) {
			len = r->errorlen;
			if (len > 0 && r->error[len - 1] == '\n')
				len--;
			csvstring(fp, r->error, len);
		}
		putc('\n', fp);
		for (i = 0; i < r->nconfig; i++)
			cells[r->config[i].key] = NULL;
		for (i = 0; i < r->nvals; i++)
			vals[r->vals[i].fig] = NULL;
	}
	free(cols);
	free(figcols);
	free(cells);
	free(vals);
}

/*
 * Whether a string is a number as the jq program's configorder tells:
 * ^-?[0-9]+([.][0-9]+)?([eE][-+]?[0-9]+)?$, where $ may come before a
 * last newline, as Oniguruma's does.
 */
static int
numeric(const char *s, size_t len)
{
	const char *end = s + len;

	if (len > 0 && end[-1] == '\n')
		end--;
	if (s < end && *s == '-')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return 0;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	if (s < end && *s == '.') {
		if (++s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		if (++s < end && (*s == '+' || *s == '-'))
			s++;
		if (s == end || *s < '0' || *s > '9')
			return 0;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
	}
	return s == end;
}

/* Numbers as jq compares them: a NaN above all. */
static int
cmpnum(double a, double b)
{
	return a < b ? -1 : a == b ? 0 : 1;
}

/*
 * Groups by configuration, as the jq program's configorder: key by key
 * in the group's order, each value a number, or a string that is one,
 * as that number (and the number before the string), before any other
 * value, which goes by its JSON text.
 */
static int
byconfig(const struct conf *x, const struct conf *y)
{
	const struct entry *e[2];
	const struct run *r[2] = { x->first, y->first };
	const struct group *k[2];
	size_t i[2] = { 0, 0 }, j;
	int c, cls[2], str[2];
	double num[2];

	for (;;) {
		for (j = 0; j < 2; j++) {
			while (i[j] < r[j]->nconfig &&
			    isrepeat(groups_nth(&keys, r[j]->config[i[j]].key)))
				i[j]++;
			e[j] = i[j] < r[j]->nconfig ? &r[j]->config[i[j]++] :
			    NULL;
		}
		if (e[0] == NULL || e[1] == NULL)
			return (e[0] != NULL) - (e[1] != NULL);
		for (j = 0; j < 2; j++) {
			k[j] = groups_nth(&keys, e[j]->key);
			str[j] = e[j]->type == '"';
			cls[j] = !(e[j]->type == '0' || (str[j] &&
			    numeric(e[j]->str, e[j]->strlen)));
			if (cls[j] == 0)
				num[j] = strtod(str[j] ? e[j]->str :
				    e[j]->json, NULL);
		}
		if ((c = cmpbytes(k[0]->key, k[0]->keylen, k[1]->key,
		    k[1]->keylen)) != 0)
			return c;
		if (cls[0] != cls[1])
			return cls[0] - cls[1];
		if (cls[0] == 1)
			c = cmpbytes(e[0]->json, e[0]->jsonlen, e[1]->json,
			    e[1]->jsonlen);
		else if ((c = cmpnum(num[0], num[1])) == 0 &&
		    (c = str[0] - str[1]) == 0 && str[0])
			c = cmpbytes(e[0]->str, e[0]->strlen, e[1]->str,
			    e[1]->strlen);
		if (c != 0)
			return c;
	}
}

/* For qsort: by configuration, then as summary.json lists them. */
static int
byconfigorder(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	int c = byconfig(x, y);

	if (c != 0)
		return c;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* The groups in order of configuration; allocated. */
static struct conf **
sortedgroups(int (*cmp)(const void *, const void *))
{
	struct conf **g;

	if ((g = calloc(confs.n + 1, sizeof(*g))) == NULL)
		err(1, NULL);
	memcpy(g, byname, confs.n * sizeof(*g));
	if (confs.n > 0)
		qsort(g, confs.n, sizeof(*g), cmp);
	return g;
}

static void
putgroupscsv(FILE *fp)
{
	static const char *const parts[] = { ".mean", ".stddev", ".min",
	    ".max" };
	struct conf **sorted = sortedgroups(byconfigorder);
	const struct conf *g;
	const struct stats *st;
	const struct group *k;
	const struct entry **cells;
	size_t *cols, *figcols, ncols = 0, nfigcols, i, j, p;
	struct name *nm;

	cols = calloc(keys.n + 1, sizeof(*cols));
	cells = calloc(keys.n + 1, sizeof(*cells));
	if (cols == NULL || cells == NULL)
		err(1, NULL);
	for (i = 0; i < keys.n; i++)
		((struct name *)groups_nth(&keys, i))->mark = 0;
	for (i = 0; i < confs.n; i++)
		for (j = 0; j < byname[i]->first->nconfig; j++) {
			nm = groups_nth(&keys, byname[i]->first->config[j].key);
			if (nm->mark == 0 && !isrepeat(&nm->name)) {
				nm->mark = 1;
				cols[ncols++] = nm->index;
			}
		}
	figcols = figunion(1, &nfigcols);
	fputs("\"configuration\"", fp);
	for (i = 0; i < ncols; i++) {
		k = groups_nth(&keys, cols[i]);
		putc(',', fp);
		csvfield(fp, "config.", k->key, k->keylen, "");
	}
	fputs(",\"n\"", fp);
	for (i = 0; i < nfigcols; i++)
		for (p = 0; p < 4; p++) {
			k = groups_nth(&figs, figcols[i]);
			putc(',', fp);
			csvfield(fp, "", k->key, k->keylen, parts[p]);
		}
	putc('\n', fp);
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		csvstring(fp, g->label, g->labellen);
		/* Repeat keys have no column: their cells are never read. */
		for (j = 0; j < g->first->nconfig; j++)
			cells[g->first->config[j].key] = &g->first->config[j];
		for (j = 0; j < ncols; j++) {
			putc(',', fp);
			csvvalue(fp, cells[cols[j]]);
		}
		for (j = 0; j < g->first->nconfig; j++)
			cells[g->first->config[j].key] = NULL;
		fprintf(fp, ",%zu", g->n);
		for (j = 0; j < nfigcols; j++) {
			st = groupstats(g, figcols[j]);
			for (p = 0; p < 4; p++) {
				putc(',', fp);
				if (st != NULL)
					csvnum(fp, p == 0 ? st->mean :
					    p == 1 ? st->stddev :
					    p == 2 ? st->min : st->max);
			}
		}
		putc('\n', fp);
	}
	free(sorted);
	free(cols);
	free(cells);
	free(figcols);
}

/* --- summary.md ------------------------------------------------------------ */

/* The figure of a run named name, NaN where it has none. */
static double
runfig(const struct run *r, const char *name)
{
	const struct name *f;
	size_t i;

	if ((f = groups_find(&figs, name, strlen(name))) == NULL)
		return NAN;
	for (i = 0; i < r->nvals; i++)
		if (r->vals[i].fig == f->index)
			return r->vals[i].isnull ? NAN : r->vals[i].v;
	return NAN;
}

/*
 * The runs whose report says their CUDA graph launches hide their
 * kernels (reportjson(1) graphs): their category tables miss those
 * kernels, which the summary's figures cannot show.
 */
static void
graphwarnings(FILE *fp)
{
	const struct run *r;
	double hidden;
	int any = 0;

	for (r = runs; r < runs + nreports; r++) {
		hidden = runfig(r, "graphs.launches_without_kernels");
		if (!(hidden > 0))
			continue;
		if (!any++)
			fputs("## Warnings\n\n", fp);
		fputs("- ", fp);
		mdtext(fp, r->name, r->namelen, 0);
		fputs(": ", fp);
		putnum(fp, hidden);
		fputs(" of ", fp);
		putnum(fp, runfig(r, "graphs.launches"));
		fputs(" CUDA graph launches show none of their kernels: the "
		    "category table misses them; profile with "
		    "`--cuda-graph-trace=node` to see them.\n", fp);
	}
	if (any)
		putc('\n', fp);
}

/* The mean of a figure of a group, NaN for none. */
static double
mean(const struct conf *g, const char *fig)
{
	const struct stats *st = groupfig(g, fig);

	return st == NULL ? NAN : st->mean;
}

/* Fastest first, those without a GPU span last, then by configuration. */
static int
byspan(const void *a, const void *b)
{
	const struct conf *x = *(struct conf *const *)a;
	const struct conf *y = *(struct conf *const *)b;
	double sx = mean(x, "gpu_span_ns"), sy = mean(y, "gpu_span_ns");
	int c;

	if (isnan(sx) != isnan(sy))
		return isnan(sx) - isnan(sy);
	if (!isnan(sx) && (c = cmpnum(sx, sy)) != 0)
		return c;
	return byconfigorder(a, b);
}

/*
 * A number with d decimals, as the jq program's fixed: rounded, printed
 * as jq prints it, zeros put before it till it has more than d
 * characters, and a point before the last d; NaN, for null, as nothing.
 */
static void
fixed(FILE *fp, double x, int d)
{
	char buf[JQNUM_MAX + 8], num[JQNUM_MAX];
	double r;
	size_t len;
	int pad;

	if (isnan(x))
		return;
	r = round(x * pow(10, d));
	len = jqnum(num, fabs(r));
	pad = (int)len > d ? 0 : d + 1 - (int)len;
	snprintf(buf, sizeof(buf), "%.*s%s", pad, "00000000", num);
	len += pad;
	if (r < 0)
		putc('-', fp);
	fwrite(buf, 1, len - d, fp);
	if (d > 0)
		fprintf(fp, ".%s", buf + len - d);
}

/* Cells of a table row begin and end so. */
#define CELL	" | "

/* A group's name in a cell: its label, or (none). */
static void
named(FILE *fp, const struct conf *g)
{
	if (g->labellen == 0)
		fputs("(none)", fp);
	else
		mdtext(fp, g->label, g->labellen, MD_CELL);
}

/* Whether a figure is a category's time: components.NAME.milliseconds. */
static int
category(const char *s, size_t len, size_t *namelen)
{
	static const char pre[] = "components.", post[] = ".milliseconds";
	const char *p;
	size_t n = len;

	if (n > 0 && s[n - 1] == '\n')
		n--;
	if (n < sizeof(pre) + sizeof(post) - 1 ||
	    memcmp(s, pre, sizeof(pre) - 1) != 0 ||
	    memcmp(s + n - sizeof(post) + 1, post, sizeof(post) - 1) != 0)
		return 0;
	for (p = s + sizeof(pre) - 1; p < s + n - sizeof(post) + 1; p++)
		if (*p == '.')
			return 0;
	*namelen = n - sizeof(pre) - sizeof(post) + 2;
	return 1;
}

/*
 * A kernel name shortened: without a leading "void " and the parameter
 * list at its end, cut to 72 characters; ` as '.  Characters counted as
 * jq counts them, a byte that is not UTF-8 as one.
 */
static void
shortname(FILE *fp, const char *s, size_t len)
{
	const char *end, *p, *at = NULL, *cut;
	uint32_t cp;
	size_t n, count;
	int depth = 0, bad;
	char *buf, *b;

	if (len >= 5 && memcmp(s, "void ", 5) == 0) {
		s += 5;
		len -= 5;
	}
	end = s + len;
	if (len > 0 && end[-1] == ')') {
		for (p = end - 1; p >= s; p--)
			if (*p == ')')
				depth++;
			else if (*p == '(' && --depth == 0) {
				at = p;
				break;
			}
		if (at != NULL && at > s)
			end = at;
	}
	for (p = s, count = 0, cut = NULL; p < end; p += n, count++) {
		if (count == 71)
			cut = p;
		n = character(p, end, &cp, &bad);
	}
	if (count > 72)
		end = cut;
	buf = copy(s, end - s);
	for (b = buf; b < buf + (end - s); b++)
		if (*b == '`')
			*b = '\'';
	mdtext(fp, buf, end - s, MD_CELL);
	if (count > 72)
		fputs("…", fp);
	free(buf);
}

/* The runs of a group, by name, or by count and range when many. */
static void
runsnamed(FILE *fp, const struct conf *g)
{
	size_t i;

	if (g->n <= 4) {
		fprintf(fp, "%zu run%s: ", g->n, g->n > 1 ? "s" : "");
		for (i = 0; i < g->n; i++) {
			if (i > 0)
				fputs(", ", fp);
			mdtext(fp, g->runs[i]->name, g->runs[i]->namelen,
			    MD_CELL);
		}
	} else {
		fprintf(fp, "%zu runs: ", g->n);
		mdtext(fp, g->runs[0]->name, g->runs[0]->namelen, MD_CELL);
		fputs(" … ", fp);
		mdtext(fp, g->runs[g->n - 1]->name,
		    g->runs[g->n - 1]->namelen, MD_CELL);
	}
}

static void
putsummarymd(FILE *fp)
{
	struct conf **sorted = sortedgroups(byspan), *g;
	const struct stats *span;
	const struct group *k;
	const struct run *r;
	size_t *figcols, nfigcols, *cats, ncats = 0, namelen, ntimed, i, j;
	double other, pct;

	figcols = figunion(1, &nfigcols);
	if ((cats = calloc(nfigcols + 1, sizeof(*cats))) == NULL)
		err(1, NULL);
	for (i = 0; i < nfigcols; i++) {
		k = groups_nth(&figs, figcols[i]);
		if (category(k->key, k->keylen, &namelen))
			cats[ncats++] = figcols[i];
	}
	for (ntimed = 0; ntimed < confs.n &&
	    !isnan(mean(sorted[ntimed], "gpu_span_ns")); ntimed++)
		;
	fprintf(fp, "# Sweep summary\n\n%zu runs reduced, %zu failed, %zu "
	    "configurations.\n\n", nreports, nruns - nreports, confs.n);
	if (ntimed > 1) {
		fputs("Fastest: ", fp);
		named(fp, sorted[0]);
		fputs(", GPU span ", fp);
		fixed(fp, mean(sorted[0], "gpu_span_ns") / 1e6, 3);
		fputs(" ms; slowest: ", fp);
		named(fp, sorted[ntimed - 1]);
		fputs(", ", fp);
		fixed(fp, sorted[ntimed - 1]->ratio, 3);
		fputs("× as long.\n\n", fp);
	}
	if (confs.n > 0) {
		fputs("## Configurations\n\n"
		    "Fastest first: the mean over the runs of a configuration, "
		    "± the sample standard deviation; × fastest is the ratio "
		    "of GPU spans. Every figure is in groups.csv, every run in "
		    "summary.csv.\n\n"
		    "| configuration | n | GPU span ms | × fastest | kernel ms "
		    "| kernel busy union %", fp);
		for (i = 0; i < ncats; i++) {
			k = groups_nth(&figs, cats[i]);
			category(k->key, k->keylen, &namelen);
			fputs(CELL, fp);
			mdtext(fp, k->key + 11, namelen, MD_CELL);
			if (k->key[k->keylen - 1] == '\n')
				putc(' ', fp);
			fputs(" ms", fp);
		}
		fputs(" | idle ms |\n| --- |", fp);
		for (i = 0; i < 6 + ncats; i++)
			fputs(" ---: |", fp);
		putc('\n', fp);
	}
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		fputs("| ", fp);
		named(fp, g);
		fprintf(fp, CELL "%zu" CELL, g->n);
		if ((span = groupfig(g, "gpu_span_ns")) != NULL &&
		    !isnan(span->mean)) {
			fixed(fp, span->mean / 1e6, 3);
			if (!isnan(span->stddev)) {
				fputs(" ± ", fp);
				fixed(fp, span->stddev / 1e6, 3);
			}
		}
		fputs(CELL, fp);
		fixed(fp, g->ratio, 3);
		fputs(CELL, fp);
		fixed(fp, mean(g, "kernel_time_ns") / 1e6, 3);
		fputs(CELL, fp);
		fixed(fp, mean(g, "kernel_busy_union_percent"), 1);
		for (j = 0; j < ncats; j++) {
			fputs(CELL, fp);
			span = groupstats(g, cats[j]);
			fixed(fp, span == NULL ? NAN : span->mean, 3);
		}
		fputs(CELL, fp);
		fixed(fp, mean(g, "idle_gaps.total_ns") / 1e6, 3);
		fputs(" |\n", fp);
	}
	if (confs.n > 0)
		fputs("\n## Kernels in other\n\n"
		    "For each configuration, the kernels of category other with "
		    "the most time among the top ten of its runs: ms and "
		    "launches per run (0 in a run where the kernel is not in "
		    "the top ten), and percent of the time in other.  Full "
		    "names are in summary.json (groups[].other_kernels).\n\n",
		    fp);
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		fputs("### ", fp);
		named(fp, g);
		fputs("\n\n", fp);
		runsnamed(fp, g);
		fputs(".\n\n", fp);
		other = mean(g, "components.other.milliseconds");
		if (isnan(other) || !(other > 0))
			fputs("No time in other.\n", fp);
		else if (g->nothers == 0) {
			fputs("other: ", fp);
			fixed(fp, other, 3);
			fputs(" ms, in kernels outside the top ten.\n", fp);
		} else {
			for (j = 0, pct = 0; j < g->nothers; j++)
				pct = j == 0 ? g->otherpct[0] :
				    pct + g->otherpct[j];
			fputs("other: ", fp);
			fixed(fp, other, 3);
			fputs(" ms; these kernels carry ", fp);
			fixed(fp, pct, 1);
			fputs("% of it.\n\n| kernel | ms | % of other | "
			    "launches |\n| --- | ---: | ---: | ---: |\n", fp);
			for (j = 0; j < g->nothers; j++) {
				fputs("| `", fp);
				shortname(fp, g->others[j].name,
				    g->others[j].namelen);
				fputs("`" CELL, fp);
				fixed(fp, g->others[j].ns / 1e6, 3);
				fputs(CELL, fp);
				fixed(fp, g->otherpct[j], 1);
				fputs(CELL, fp);
				if (g->others[j].launches ==
				    floor(g->others[j].launches))
					putnum(fp, g->others[j].launches);
				else
					fixed(fp, g->others[j].launches, 1);
				fputs(" |\n", fp);
			}
		}
		putc('\n', fp);
	}
	graphwarnings(fp);
	if (nruns > nreports)
		fputs("## Failed runs\n\n", fp);
	for (r = runs + nreports; r < runs + nruns; r++) {
		fputs("- ", fp);
		mdtext(fp, r->name, r->namelen, 0);
		fputs(": ", fp);
		j = r->errorlen;
		if (j > 0 && r->error[j - 1] == '\n')
			j--;
		mdtext(fp, r->error, j, MD_NEWLINE);
		putc('\n', fp);
	}
	free(sorted);
	free(figcols);
	free(cats);
}

/* --- main ------------------------------------------------------------------ */

/* An exit before the outputs are in place takes their temporary files
   with it, and so does a signal that ends us. */
static void
cleanup(void)
{
	size_t i;

	for (i = 0; i < (size_t)nmade; i++)
		unlink(tmpnames[i]);
}

static void
onsignal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A new file at path, as fopen(path, "w") makes one (mode 0666 less the
   umask) but never one that was there; -1 if there was. */
static int
create(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
}

/*
 * The temporary files, made first: a directory that takes none fails
 * before the work.  One there already, of our PID, is what a process
 * gone that had it left, as pipeline.mk takes .NAME.PID: litter, removed
 * (a link planted there too, not followed).
 */
static void
openoutputs(void)
{
	size_t i;
	int fd;

	for (i = 0; i < NOUT; i++) {
		if (asprintf(&tmpnames[i], "%s/.%s.%ld", dir, outnames[i],
		    (long)getpid()) == -1)
			err(1, NULL);
		if ((fd = create(tmpnames[i])) == -1 && errno == EEXIST &&
		    unlink(tmpnames[i]) == 0)
			fd = create(tmpnames[i]);
		if (fd == -1)
			err(1, "%s", tmpnames[i]);
		nmade = i + 1;
		if ((outs[i] = fdopen(fd, "w")) == NULL)
			err(1, "%s", tmpnames[i]);
	}
}

/* Every output, to its temporary file; then each renamed into place. */
static void
putoutputs(void)
{
	static void (*const put[NOUT])(FILE *) = { putsummaryjson,
	    putsummarycsv, putgroupscsv, putsummarymd };
	char *path;
	size_t i;

	for (i = 0; i < NOUT; i++) {
		put[i](outs[i]);
		if (ferror(outs[i]))
			errno = EIO;
		if (ferror(outs[i]) | (fclose(outs[i]) == EOF))
			err(1, "%s", tmpnames[i]);
	}
	/* A rename that fails takes the summaries renamed before it: no
	   mix of new and old is left. */
	for (i = 0; i < NOUT; i++) {
		if (asprintf(&path, "%s/%s", dir, outnames[i]) == -1)
			err(1, NULL);
		if (rename(tmpnames[i], path) == -1) {
			warn("%s", tmpnames[i]);
			while (i-- > 0) {
				free(path);
				if (asprintf(&path, "%s/%s", dir,
				    outnames[i]) == -1)
					err(1, NULL);
				(void)unlink(path);
			}
			exit(1);
		}
		free(path);
	}
	nmade = 0;
}

int
main(int argc, char *argv[])
{
	char *keys_opt = "rep repeat trial seed", *tmpdir, *scratchpath, *p;
	size_t maxrepeat = 0;
	int ch, fd;

	while ((ch = getopt_long(argc, argv, "ho:r:", helpopt, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(0);
		case 'o':
			dir = optarg;
			break;
		case 'r':
			keys_opt = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (argc != 1 || dir == NULL)
		usage(EXIT_USAGE);
	if ((keys_opt = strdup(keys_opt)) == NULL)
		err(1, NULL);
	for (p = strtok(keys_opt, " "); p != NULL; p = strtok(NULL, " ")) {
		repeat = grow(repeat, &maxrepeat, nrepeat, sizeof(*repeat));
		repeat[nrepeat++] = p;
	}

	if (atexit(cleanup) != 0)
		err(1, NULL);
	signal(SIGHUP, onsignal);
	signal(SIGINT, onsignal);
	signal(SIGTERM, onsignal);
	openoutputs();
	if ((tmpdir = getenv("TMPDIR")) == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	if (asprintf(&scratchpath, "%s/sweepsum.XXXXXX", tmpdir) == -1)
		err(1, NULL);
	if ((fd = mkstemp(scratchpath)) == -1)
		err(1, "%s", scratchpath);
	unlink(scratchpath);
	if ((scratch = fdopen(fd, "w+")) == NULL)
		err(1, "%s", scratchpath);

	readlist(argv[0]);
	if (ferror(scratch))
		errx(1, "%s: write error", scratchpath);
	if (nruns > 0)
		qsort(runs, nruns, sizeof(*runs), byrunname);
	group();
	reduce();
	putoutputs();
	return 0;
}

static _Noreturn void
usage(int status)
{
	usage_exit("usage: sweepsum [-h] [-r keys] -o dir list\n", status);
}
