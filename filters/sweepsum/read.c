/*
 * sweepsum: reading the list, and each run's report: its figures, its
 * configuration, its kernels of category other, and the report itself
 * as summary.json will hold it, to the scratch file; or why it failed.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweepsum.h"

/* Bytes of a report read at most: reportjson writes a few KiB. */
#define MAXREPORT	(64 * 1024 * 1024)
/* Keys of a run's configuration at most: runconfig(1) reads 256 KiB. */
#define MAXCONFIG	10000
/* Objects and arrays nested at most in a report. */
#define MAXDEPTH	64

static size_t maxruns;			/* runs allocated */

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
 * The element of an outermost array at path: numbered on first sight,
 * its array too.
 */
static size_t
element(const char *path, size_t len, size_t arraylen)
{
	struct element *e;
	size_t n = elems.n, array = intern(&arrays, path, arraylen)->index;

	e = groups_get(&elems, path, len);
	if (elems.n != n) {
		e->index = n;
		e->array = array;
	}
	return e->index;
}

/*
 * The figures of a report: its numbers and nulls outside run, streams
 * and top_kernels, named by their paths joined by dots, an element of an
 * array by its id (element_id) or else its index.  Of two of one name,
 * the later value goes at the place of the first.  elem is 1 + the
 * element of an outermost array n is in, or 0, and nested whether n is
 * in an array inside it; each element sums its kernel_time_ns.
 */
static void
figures(struct run *r, const struct jsondoc *doc, size_t n, char **path,
    size_t *pathlen, size_t *pathmax, size_t elem, int nested)
{
	static const char timefig[] = ".kernel_time_ns";
	const struct jsonnode *v, *id;
	const struct group *eg;
	struct jsonnode node;
	struct element *e;
	struct name *f;
	size_t c, len = *pathlen, i, nf, celem;
	int cnested;
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
		celem = elem;
		cnested = nested;
		if (v->key == NULL) {	/* an element, by its id or index */
			node = *v;
			if ((id = element_id(doc, v)) != NULL) {
				node.key = id->text;
				node.keylen = id->textlen;
			} else {
				node.key = num;
				node.keylen = fmt_int(num, i) - num;
			}
			v = &node;
			cnested = elem != 0;
		}
		*path = grow(*path, pathmax, *pathlen + v->keylen + 1, 1);
		if (len > 0)
			(*path)[(*pathlen)++] = '.';
		memcpy(*path + *pathlen, v->key, v->keylen);
		*pathlen += v->keylen;
		if (v == &node && elem == 0)
			celem = 1 + element(*path, *pathlen, len);
		if (v->type == '{' || v->type == '[') {
			figures(r, doc, c, path, pathlen, pathmax, celem,
			    cnested);
			continue;
		}
		if (v->type != '0' && !(v->type == 'w' && *v->text == 'n'))
			continue;
		nf = figs.n;
		f = intern(&figs, *path, *pathlen);
		if (figs.n != nf) {
			f->elem = celem;
			f->nested = cnested;
		}
		if (celem != 0 && !cnested && v->type == '0' &&
		    (eg = groups_nth(&elems, celem - 1))->keylen +
		    sizeof(timefig) - 1 == *pathlen &&
		    memcmp(*path + eg->keylen, timefig,
		    sizeof(timefig) - 1) == 0) {
			e = groups_nth(&elems, celem - 1);
			e->ns += strtod(v->text, NULL);
		}
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

/*
 * The scope of a report: of its scope object, the setting that made it
 * (range and skip, or window), not what it covered, which differs from
 * run to run.  None where the report has no scope object.
 */
static void
scopeof(struct run *r, const struct jsondoc *doc)
{
	const struct jsonnode *nodes = doc->nodes;
	size_t s, text, skip;

	if ((s = member(doc, 0, "scope")) == 0 || nodes[s].type != '{')
		return;
	if ((text = member(doc, s, "range")) != 0 &&
	    nodes[text].type == '"') {
		r->scope.kind = 'r';
		if ((skip = member(doc, s, "skip")) != 0 &&
		    nodes[skip].type == '0')
			r->scope.skip = strtoll(nodes[skip].text, NULL, 10);
	} else if ((text = member(doc, s, "window")) != 0 &&
	    nodes[text].type == '"')
		r->scope.kind = 'w';
	else
		return;
	r->scope.text = copy(nodes[text].text, nodes[text].textlen);
	r->scope.textlen = nodes[text].textlen;
}

/* Whether two scopes are one. */
int
samescope(const struct scope *a, const struct scope *b)
{
	return a->kind == b->kind && a->skip == b->skip &&
	    a->textlen == b->textlen &&
	    (a->textlen == 0 || memcmp(a->text, b->text, a->textlen) == 0);
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

/* A failure of run r: "shown name: msg", the name of the file at path,
   or msg alone with path NULL. */
void
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
		/* Only the file's name: a summary holds no path from
		   outside its directory. */
		if (strrchr(path, '/') != NULL)
			path = strrchr(path, '/') + 1;
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
	if (table(r, path))
		goto done;
	contents = contents * 1000003 ^ hashbytes(text, len);
	r->name = copy(doc.nodes[name].text, doc.nodes[name].textlen);
	r->namelen = doc.nodes[name].textlen;
	if ((r->vals = calloc(countvalues(&doc) + 1,
	    sizeof(*r->vals))) == NULL)
		err(1, NULL);
	figures(r, &doc, 0, &figpath, &figlen, &figmax, 0, 0);
	free(figpath);
	/* What is held of a run is held to its size. */
	if ((r->vals = reallocarray(r->vals, r->nvals + 1,
	    sizeof(*r->vals))) == NULL)
		err(1, NULL);
	otherkernels(r, &doc);
	scopeof(r, &doc);
	/* The sweep's scope is its first report's; another one in a later
	   report is told, not hidden. */
	if (nreports == 0)
		scope = r->scope;
	else if (!samescope(&scope, &r->scope))
		scopesdiffer = 1;
	if ((r->off = ftello(scratch)) == -1)
		err(1, "scratch file");
	putnode(&jw, &doc, 0, 0);
	r->len = ftello(scratch) - r->off;
	nreports++;
done:
	jsondoc_free(&doc);
	free(text);
}

/* The error record at path, NUL after it, or NULL where there is none
   readable. */
static char *
record(const char *path, size_t *lenp)
{
	struct stat st;

	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    access(path, R_OK) == -1)
		return NULL;
	return slurp(path, MAXREPORT, lenp);
}

/* A run of the list: name, and the path of its report.json.  A run that
   has neither the report nor its error record beside it may have the
   record in the spare place, DIR/errors/NAME.err, where pipeline.mk
   writes it when the run's directory is full (never for a NAME with a
   slash, which pipeline.mk does not give and would lead out of it). */
static void
addrun(const char *name, size_t namelen, const char *path,
    const char *dir)
{
	struct run *r;
	struct stat st;
	char *errpath, *sparepath;
	size_t pathlen = strlen(path);
	int isfile;

	runs = grow(runs, &maxruns, nruns, sizeof(*runs));
	r = &runs[nruns];
	memset(r, 0, sizeof(*r));
	r->order = nruns++;
	r->listname = copy(name, namelen);
	r->listnamelen = namelen;
	isfile = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (isfile && access(path, R_OK) == 0) {
		report(r, path);
		if (r->error == NULL)
			return;
	} else {
		/* The error record: .json replaced by .err, or .err added. */
		if (pathlen >= 5 && strcmp(path + pathlen - 5, ".json") == 0)
			pathlen -= 5;
		if (asprintf(&errpath, "%.*s.err", (int)pathlen, path) == -1 ||
		    asprintf(&sparepath, "%s/errors/%.*s.err", dir,
		    (int)namelen, name) == -1)
			err(1, NULL);
		if (!isfile && (r->error = record(errpath, &r->errorlen)) ==
		    NULL && memchr(name, '/', namelen) == NULL)
			r->error = record(sparepath, &r->errorlen);
		if (r->error == NULL)
			failed(r, path, isfile ? "cannot be read" : "missing");
		free(errpath);
		free(sparepath);
	}
	r->name = copy(name, namelen);
	r->namelen = namelen;
}

/* The list: lines of a name, tabs, and a path, as bash's read splits them;
   dir the summary's directory. */
void
readlist(const char *path, const char *dir)
{
	struct lines in;
	char *line, *name, *p, *end;
	size_t len, namelen;

	/* Never NULL, so that runs + nruns is defined when it is empty. */
	runs = grow(runs, &maxruns, 0, sizeof(*runs));
	lines_open(&in, path);
	while ((line = lines_next(&in, &len)) != NULL) {
		contents = contents * 1000003 ^ hashbytes(line, len);
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
			addrun(name, namelen, p, dir);
	}
	lines_close(&in);
}
