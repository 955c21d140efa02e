/*
 * h3prof.c: line input, interval, launch and fact lines, checked output.
 * See h3prof.h and h3prof(5).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

const struct option helpopt[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Bytes read(2) asks for at a time; the buffer grows only for long lines. */
#define READ_CHUNK	(256 * 1024)

void
lines_open(struct lines *l, const char *path)
{
	memset(l, 0, sizeof(*l));
	if (strcmp(path, "-") == 0) {
		l->fd = STDIN_FILENO;
		l->path = "stdin";
	} else {
		if ((l->fd = open(path, O_RDONLY)) == -1)
			err(1, "%s", path);
		l->path = source_name(path);
		l->unlined = l->path != path;
	}
	l->cap = READ_CHUNK + 1;
	if ((l->buf = malloc(l->cap)) == NULL)
		err(1, NULL);
}

const char *
source_name(const char *path)
{
	const char *env = getenv("H3PROF_SOURCES"), *base, *name, *trace;
	size_t len, baselen;
	char *shown;

	if (env == NULL)
		return path;
	base = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	baselen = strlen(base);
	for (name = env; (trace = strchr(name, '\t')) != NULL;
	    name = trace + len + 1) {
		trace++;
		len = strcspn(trace, "\t");
		if ((size_t)(trace - 1 - name) == baselen &&
		    memcmp(name, base, baselen) == 0) {
			if ((shown = strndup(trace, len)) == NULL)
				err(1, NULL);
			return shown;
		}
		if (trace[len] == '\0')
			break;
	}
	return path;
}

const char *
lines_at(const struct lines *l)
{
	static char *buf;
	static size_t cap;
	size_t need = strlen(l->path) + 24;

	if (l->unlined)
		return l->path;
	buf = grow(buf, &cap, need, 1);
	snprintf(buf, cap, "%s:%lu", l->path, l->lineno);
	return buf;
}

/* Read more bytes after the unread ones; 0 at end of input. */
static size_t
fill(struct lines *l)
{
	ssize_t n;

	if (l->off > 0) {
		memmove(l->buf, l->buf + l->off, l->len - l->off);
		l->len -= l->off;
		l->off = 0;
	}
	if (l->cap - l->len < READ_CHUNK + 1) {
		if (l->len >= H3_MAXLINE) {
			l->lineno++;	/* the line being read */
			errx(1, "%s: line longer than %u bytes", lines_at(l),
			    H3_MAXLINE);
		}
		l->cap = l->len + READ_CHUNK + 1;
		if ((l->buf = realloc(l->buf, l->cap)) == NULL)
			err(1, NULL);
	}
	do
		n = read(l->fd, l->buf + l->len, l->cap - l->len - 1);
	while (n == -1 && errno == EINTR);
	if (n == -1)
		err(1, "%s", l->path);
	l->len += n;
	return n;
}

/*
 * Return the next line without its newline, NUL-terminated and valid until
 * the next call, or NULL at the end.  A last line without a newline counts.
 */
char *
lines_next(struct lines *l, size_t *lenp)
{
	char *line, *nl;
	size_t scanned = 0;

	for (;;) {
		nl = memchr(l->buf + l->off + scanned, '\n',
		    l->len - l->off - scanned);
		if (nl != NULL)
			break;
		scanned = l->len - l->off;
		if (l->eof || fill(l) == 0) {
			l->eof = 1;
			if (l->len == l->off)
				return NULL;
			nl = l->buf + l->len;	/* cap leaves room for this */
			break;
		}
	}
	line = l->buf + l->off;
	*nl = '\0';
	l->off = nl - l->buf + (nl < l->buf + l->len);
	l->lineno++;
	if (lenp != NULL)
		*lenp = nl - line;
	if ((size_t)(nl - line) > H3_MAXLINE)
		errx(1, "%s: line longer than %u bytes", lines_at(l),
		    H3_MAXLINE);
	if (memchr(line, '\0', nl - line) != NULL)
		errx(1, "%s: NUL byte in line", lines_at(l));
	return line;
}

void
lines_close(struct lines *l)
{
	if (l->fd != STDIN_FILENO && close(l->fd) == -1)
		err(1, "%s", l->path);
	free(l->buf);
	l->buf = NULL;
}

void *
grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c = *cap;

	if (n < c)
		return p;
	while (n >= c) {
		/* Half as much again must stay within SIZE_MAX bytes. */
		if (c > SIZE_MAX / size / 3 * 2) {
			errno = ENOMEM;
			err(1, NULL);
		}
		c = c < 16 ? 16 : c + c / 2;
	}
	if ((p = reallocarray(p, c, size)) == NULL)
		err(1, NULL);
	*cap = c;
	return p;
}

/*
 * Parse a non-negative decimal integer of nanoseconds that fills the whole
 * string.  Return 0 on success, -1 if it is not one or overflows.
 */
int
parse_ns(const char *s, int64_t *v)
{
	int64_t n = 0;

	if (*s == '\0')
		return -1;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		if (n > (INT64_MAX - (*s - '0')) / 10)
			return -1;
		n = n * 10 + (*s - '0');
	}
	*v = n;
	return 0;
}

void
ivin_open(struct ivin *r, const char *path, int sorted)
{
	lines_open(&r->in, path);
	r->sorted = sorted;
	r->kind = NULL;
	r->prevstart = INT64_MIN;
}

void
sum_ns(int64_t *sum, int64_t ns, const struct lines *l)
{
	if (__builtin_add_overflow(*sum, ns, sum))
		errx(1, "%s: a sum of ns overflows 64 bits", lines_at(l));
}

/* Split off the next tab-separated column; NULL if there is none. */
char *
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

/*
 * Read the next interval line into iv, passing over full lines of another
 * kind than r->kind if it is set; return 0 at the end.
 */
int
ivin_next(struct ivin *r, struct interval *iv)
{
	char *line;
	size_t len;

	do
		if ((line = lines_next(&r->in, &len)) == NULL)
			return 0;
	while (!ivin_parse(r, line, len, iv));
	return 1;
}

/*
 * Parse the line of len bytes that lines_next has just read from r->in
 * into iv, as ivin_next does: 0 where it is a full line of another kind
 * than r->kind, to pass over.
 */
int
ivin_parse(struct ivin *r, char *line, size_t len, struct interval *iv)
{
	struct lines *l = &r->in;
	char *p, *start, *end;

	/* Filters end every line: a line without an end may be torn. */
	if (l->eof)
		errx(1, "%s: no newline at the end of the input: is it "
		    "cut short?", lines_at(l));
	p = line;
	start = column(&p);
	end = column(&p);
	if (end == NULL)
		errx(1, "%s: expected at least 2 tab-separated columns",
		    lines_at(l));
	if (parse_ns(start, &iv->start) == -1)
		errx(1, "%s: bad start \"%.40s\": not a non-negative "
		    "integer of ns", lines_at(l), start);
	if (parse_ns(end, &iv->end) == -1)
		errx(1, "%s: bad end \"%.40s\": not a non-negative "
		    "integer of ns", lines_at(l), end);
	if (iv->end < iv->start)
		errx(1, "%s: end %lld before start %lld", lines_at(l),
		    (long long)iv->end, (long long)iv->start);
	iv->full = p != NULL;
	if (iv->full) {
		iv->kind = column(&p);
		iv->device = column(&p);
		iv->stream = column(&p);
		iv->category = column(&p);
		iv->name = p;
		if (iv->name == NULL || strchr(iv->name, '\t') != NULL)
			errx(1, "%s: expected 2 or 7 tab-separated "
			    "columns", lines_at(l));
		iv->namelen = line + len - iv->name;
		if (r->kind != NULL && strcmp(iv->kind, r->kind) != 0)
			return 0;
	} else {
		iv->kind = iv->device = iv->stream = iv->category =
		    iv->name = NULL;
		iv->namelen = 0;
	}
	if (r->sorted && iv->start < r->prevstart)
		errx(1, "%s: not sorted by start (%lld after %lld); "
		    "sort with: sort -t \"$(printf '\\t')\" -k1,1n",
		    lines_at(l), (long long)iv->start,
		    (long long)r->prevstart);
	r->prevstart = iv->start;
	return 1;
}

void
ivin_close(struct ivin *r)
{
	lines_close(&r->in);
}

void
launches_open(struct launches *r, const char *path, int sorted)
{
	lines_open(&r->in, path);
	r->sorted = sorted;
	r->prevstart = INT64_MIN;
	r->line = NULL;
	r->len = 0;
}

/* Read the next launch line into ln; return 0 at the end. */
int
launches_next(struct launches *r, struct launch *ln)
{
	char *line;
	size_t len;

	if ((line = lines_next(&r->in, &len)) == NULL)
		return 0;
	launches_parse(r, line, len, ln);
	return 1;
}

/*
 * Parse the line of len bytes that lines_next has just read from r->in
 * into ln, as launches_next does.
 */
void
launches_parse(struct launches *r, char *line, size_t len, struct launch *ln)
{
	struct lines *l = &r->in;
	char *p, *col[9];
	int i;

	r->line = line;
	r->len = len;
	if (l->eof)
		errx(1, "%s: no newline at the end of the input: is it "
		    "cut short?", lines_at(l));
	p = r->line;
	for (i = 0; i < 9; i++)
		col[i] = column(&p);
	if (p == NULL || strchr(p, '\t') != NULL)
		errx(1, "%s: expected a launch line: call start, end, "
		    "thread, then a full interval line", lines_at(l));
	if (parse_ns(col[0], &ln->start) == -1 ||
	    parse_ns(col[1], &ln->end) == -1 || ln->end < ln->start ||
	    parse_ns(col[3], &ln->op.start) == -1 ||
	    parse_ns(col[4], &ln->op.end) == -1 || ln->op.end < ln->op.start)
		errx(1, "%s: a start or end that is not a non-negative "
		    "integer of ns, or an end before its start", lines_at(l));
	if (r->sorted && ln->start < r->prevstart)
		errx(1, "%s: not sorted by call start (%lld after %lld); "
		    "sort with: sort -t \"$(printf '\\t')\" -k1,1n",
		    lines_at(l), (long long)ln->start,
		    (long long)r->prevstart);
	r->prevstart = ln->start;
	ln->thread = col[2];
	ln->op.full = 1;
	ln->op.kind = col[5];
	ln->op.device = col[6];
	ln->op.stream = col[7];
	ln->op.category = col[8];
	ln->op.name = p;
	ln->op.namelen = r->line + r->len - p;
}

void
put_launch(const struct launches *r)
{
	const char *p = r->line, *end = r->line + r->len, *nul;

	/* The columns were split at their tabs, a line's only NULs. */
	while ((nul = memchr(p, '\0', end - p)) != NULL) {
		fwrite_unlocked(p, 1, nul - p, stdout);
		putchar_unlocked('\t');
		p = nul + 1;
	}
	fwrite_unlocked(p, 1, end - p, stdout);
	putchar_unlocked('\n');
}

void
launches_close(struct launches *r)
{
	lines_close(&r->in);
}

/*
 * Whether none of the eight bytes of w is a control character, a backslash
 * or non-ASCII: such a word needs neither escaping nor UTF-8 decoding.
 * Kernel names are long and plain, so this is the common case.
 */
int
plainword(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t bs = w ^ (ones * '\\');

	return (((w - ones * 0x20) & ~w) | ((bs - ones) & ~bs) | w) &
	    highs ? 0 : 1;
}

/*
 * Write a name as a column: backslash, tab, newline and carriage return
 * become \\, \t, \n and \r, so a name never splits a line or a column.
 */
void
put_escaped(const char *s, size_t len)
{
	fput_escaped(s, len, stdout);
}

/* put_escaped to fp. */
void
fput_escaped(const char *s, size_t len, FILE *fp)
{
	const char *end = s + len, *run = s;
	uint64_t w;

	while (s < end) {
		char c;

		if (end - s >= 8) {
			memcpy(&w, s, 8);
			if (plainword(w)) {
				s += 8;
				continue;
			}
		}
		switch (*s++) {
		case '\\': c = '\\'; break;
		case '\t': c = 't'; break;
		case '\n': c = 'n'; break;
		case '\r': c = 'r'; break;
		default: continue;
		}
		fwrite_unlocked(run, 1, s - 1 - run, fp);
		putc_unlocked('\\', fp);
		putc_unlocked(c, fp);
		run = s;
	}
	fwrite_unlocked(run, 1, end - run, fp);
}

/*
 * A hash of len bytes at s, for tables of names: a multiply-xor of its
 * 8-byte words, so that a long kernel name is taken a word at a time.
 */
uint64_t
hashbytes(const char *s, size_t len)
{
	uint64_t h = len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15u;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0x9e3779b97f4a7c15u;
	return h ^ h >> 29;
}

/*
 * Undo put_escaped in place and return the new length.  A backslash before
 * any other character, or at the end, stands for itself.
 */
size_t
unescape(char *s)
{
	char *r, *w;

	if ((r = strchr(s, '\\')) == NULL)
		return strlen(s);
	for (w = r; *r != '\0'; r++) {
		if (*r == '\\' && r[1] != '\0' && strchr("\\tnr", r[1])) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' :
			    *r == 'r' ? '\r' : '\\';
		} else
			*w++ = *r;
	}
	*w = '\0';
	return w - s;
}

/* The numbers 00 to 99, two digits each, for fmt_int. */
static const char digits2[] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/*
 * Write n in decimal at p, unterminated, and return the end: printf is
 * the hot spot of a filter otherwise.  Its digits are counted first, to
 * be written where they go, two a division: times in ns run to ten
 * digits and more.
 */
char *
fmt_int(char *p, int64_t n)
{
	static const uint64_t pow10[20] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
		100000000, 1000000000, 10000000000, 100000000000,
		1000000000000, 10000000000000, 100000000000000,
		1000000000000000, 10000000000000000, 100000000000000000,
		1000000000000000000, 10000000000000000000u
	};
	uint64_t u = n < 0 ? -(uint64_t)n : (uint64_t)n;
	unsigned d, t;
	char *end;

	if (n < 0)
		*p++ = '-';
	/* The digits: log10 from log2, one too many where u is below. */
	t = (64 - __builtin_clzll(u | 1)) * 1233 >> 12;
	end = p + (u < 10 ? 1 : t + 1 - (u < pow10[t]));
	for (p = end; u >= 100; u /= 100) {
		d = u % 100 * 2;
		*--p = digits2[d + 1];
		*--p = digits2[d];
	}
	if (u >= 10) {
		*--p = digits2[u * 2 + 1];
		*--p = digits2[u * 2];
	} else
		*--p = '0' + u;
	return end;
}

static void
put_int(int64_t n)
{
	char buf[24];

	fwrite_unlocked(buf, 1, fmt_int(buf, n) - buf, stdout);
}

void
put_interval(const struct interval *iv)
{
	put_int(iv->start);
	putchar_unlocked('\t');
	put_int(iv->end);
	if (iv->full) {
		const char *col[] = { iv->kind, iv->device, iv->stream,
		    iv->category, iv->name };
		size_t i;

		for (i = 0; i < sizeof(col) / sizeof(col[0]); i++) {
			putchar_unlocked('\t');
			fputs_unlocked(col[i], stdout);
		}
	}
	putchar_unlocked('\n');
}

void
put_fact(const char *prefix, const char *key, int64_t v)
{
	fputs_unlocked(prefix, stdout);
	fputs_unlocked(key, stdout);
	putchar_unlocked('\t');
	put_int(v);
	putchar_unlocked('\n');
}

void
put_factf(const char *prefix, int64_t v, const char *fmt, ...)
{
	va_list ap;

	fputs_unlocked(prefix, stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar_unlocked('\t');
	put_int(v);
	putchar_unlocked('\n');
}

/*
 * Give stdout a large buffer: a filter that writes a line per row would
 * otherwise make a write(2) per 4 KiB, glibc's size for a pipe.
 */
void
buffer_stdout(void)
{
	static char buf[1 << 20];

	if (setvbuf(stdout, buf, _IOFBF, sizeof(buf)) != 0)
		err(1, "setvbuf");
#ifdef F_SETPIPE_SZ
	/*
	 * A pipe holds 64 KiB: a filter downstream would wake for each
	 * sixteenth of a buffer.  Where Linux allows, make room for it all;
	 * where not, the pipe works as it is.
	 */
	(void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, (int)sizeof(buf));
#endif
}

/*
 * Print a filter's usage line and exit with status: for -h (status 0) to
 * stdout, checked like any output; for a usage error to stderr.
 */
void
usage_exit(const char *line, int status)
{
	fputs(line, status == 0 ? stdout : stderr);
	if (status == 0)
		close_stdout();
	exit(status);
}

/* A write error, a full disk among them, must not pass for success. */
void
close_stdout(void)
{
	const char *name = out_stdout_name();

	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "%s", name);
	if (fclose(stdout) == EOF)
		err(1, "%s", name);
	out_stdout_done();
}
