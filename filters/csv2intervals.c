/*
 * csv2intervals: turn one `nsys stats` CSV export (cuda_gpu_trace or
 * cuda_kern_exec_trace) into interval lines.  See csv2intervals(1).
 *
 * A row on one line of plain fields, as nearly every row nsys writes, is
 * split directly (plain_row, the fast path; built with -DH3_NO_FASTPATH,
 * the program goes without it); the header and every other row go to
 * libcsv one physical line at a time, so every record knows the line it
 * starts on.  Columns are found by their header names.
 */
#include <csv.h>
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Most columns a header may have; nsys writes about twenty. */
#define MAXCOLS		1024
/* Longest device or stream number, in digits. */
#define MAXID		19
/* Bytes libcsv's field buffer grows by at a time. */
#define CSV_BLOCK	(64 * 1024)
/*
 * libcsv's field buffer holds a field, its closing quote, and a free byte
 * before the next one is read: a NUL, or the first byte too many.
 */
#define CSV_MAXBUF	(H3_MAXFIELD + 3)

/* What a header column means to this program. */
enum col {
	COL_OTHER,
	COL_START,		/* Start: GPU trace */
	COL_DUR,		/* Duration: GPU trace */
	COL_GRDX,		/* GrdX: empty or None unless a kernel */
	COL_NAME,		/* Name: GPU trace */
	COL_DEVICE,		/* Device: "NVIDIA H100 NVL (0)" */
	COL_STRM,		/* Strm: the stream number */
	COL_STREAM,		/* Stream: what some versions call Strm */
	COL_APISTART,		/* API Start: kernel-exec trace */
	COL_APIDUR,		/* API Dur: kernel-exec trace */
	COL_KSTART,		/* Kernel Start: kernel-exec trace */
	COL_KDUR,		/* Kernel Dur: kernel-exec trace */
	COL_KNAME,		/* Kernel Name: kernel-exec trace */
	COL_DEVID,		/* DevId: kernel-exec trace */
	COL_BYTES,		/* Bytes (MB): GPU trace, for -m */
	COL_PID,		/* PID: kernel-exec trace, for -l */
	COL_TID,		/* TID: kernel-exec trace, for -l */
	NCOL
};

/* Header names of the columns; those of times are followed by a unit. */
static const struct {
	const char	*name;
	int		 istime;
} colnames[NCOL] = {
	[COL_OTHER] = { "", 0 },
	[COL_START] = { "Start", 1 },
	[COL_DUR] = { "Duration", 1 },
	[COL_GRDX] = { "GrdX", 0 },
	[COL_NAME] = { "Name", 0 },
	[COL_DEVICE] = { "Device", 0 },
	[COL_STRM] = { "Strm", 0 },
	[COL_STREAM] = { "Stream", 0 },
	[COL_APISTART] = { "API Start", 1 },
	[COL_APIDUR] = { "API Dur", 1 },
	[COL_KSTART] = { "Kernel Start", 1 },
	[COL_KDUR] = { "Kernel Dur", 1 },
	[COL_KNAME] = { "Kernel Name", 0 },
	[COL_DEVID] = { "DevId", 0 },
	[COL_BYTES] = { "Bytes (MB)", 0 },
	[COL_PID] = { "PID", 0 },
	[COL_TID] = { "TID", 0 },
};

/* Time units of the column headers, as powers of ten of a nanosecond. */
static const struct {
	const char	*suffix;
	int		 digits;
} units[] = {
	{ "(ns)", 0 }, { "(us)", 3 }, { "(ms)", 6 }, { "(s)", 9 },
	{ "(sec)", 9 },
};

/* What is done with a field of a data row, by column. */
enum use {
	USE_NONE,
	USE_START,		/* the start of the interval */
	USE_DUR,		/* its duration */
	USE_GRDX,		/* whether a GPU operation is a kernel */
	USE_NAME,
	USE_DEVICE,		/* the device number in "... (N)" */
	USE_DEVID,		/* the device number alone */
	USE_STREAM,
	USE_BYTES,		/* a memory operation's, in MB */
	USE_KSTART,		/* for -l, the kernel's start */
	USE_KDUR,		/* and duration */
	USE_PID,
	USE_TID
};

/* A column of the header that this program knows, by its name. */
struct named {
	int		 at;		/* its column, or -1 */
	int		 digits;	/* a time's unit: 10^digits ns */
	char		*title;		/* its header text */
};

/* What a column of a data row is for, by its place. */
struct column {
	unsigned char	 use;		/* an enum use */
	unsigned char	 digits;	/* a time's unit: 10^digits ns */
	const char	*what;		/* its header text, for messages */
};

/* A field plain_row has found in a line. */
struct span {
	char		*from;
	char		*to;		/* its end */
	int		 doubled;	/* it has "" to close up */
};

/* Everything known about the input; libcsv's callbacks share it. */
struct input {
	struct lines	 in;
	unsigned long	 recline;	/* line the current record starts on */
	uint64_t	 rowhash;	/* of the bytes of its lines */
	int		 notice;	/* the banner line before was part of
					   a NOTICE */
	int		 atrecord;	/* the next line starts a record */
	int		 header;	/* the header has been read */
	int		 kexec;		/* a kernel-exec trace, not a GPU trace */
	int		 ncols;		/* fields in the header */
	int		 nfields;	/* fields of the current record so far */
	struct named	 named[NCOL];
	struct column	 col[MAXCOLS];
	struct span	 span[MAXCOLS];	/* plain_row's fields */
	/* The row being read. */
	int64_t		 start;
	int64_t		 dur;
	int		 kernel;	/* GrdX says it is a kernel */
	char		 device[MAXID + 1];
	char		 stream[MAXID + 1];
	int64_t		 bytes;		/* -1: none */
	int64_t		 kstart, kdur;	/* -l: a launch's kernel */
	char		 pid[MAXID + 1];
	char		 tid[MAXID + 1];
	char		*name;		/* NUL-terminated */
	size_t		 namelen;
	size_t		 namecap;
};

/* Write bare intervals: start and end only. */
static int bflag;
/*
 * Kernels only: a GPU trace's kernel rows, a kernel-exec trace's kernels
 * instead of their launches.  See "Choosing intervals" in h3prof(5).
 */
static int kflag;
/* -m: the memory lines of the GPU trace's copies and memsets. */
static FILE *memfp;
static const char *mempath;
/* -l: the launch lines of the kernel-exec trace; -L: they are the
   output, in place of the intervals. */
static FILE *launchfp;
static const char *launchpath;
static int Lflag;
/* -o: where the intervals go, whole, instead of stdout. */
static const char *outpath;
/*
 * -s: the intervals and launch lines in start order, sorted once written
 * where the trace is not; the start of the last written, and whether one
 * came before it.
 */
static int sflag;
static int64_t laststart = INT64_MIN;
static int unsorted;
/* The field buffer hit CSV_MAXBUF: libcsv only says "out of memory". */
static int fieldtoolong;
/*
 * A row twice, which nsys never writes (two exports concatenated), is an
 * error naming both lines, where the rows carry more than their times
 * (not -b alone, where two kernels of one start and end would look the
 * same).  Rows in start order: a duplicate has the start of the row
 * before, so the rows of that start, a hash of the bytes of each and its
 * line, are all that is kept.  Rows out of order, sorted by -s: the sort
 * finds two lines written alike, by their places in the order written,
 * which marks turns into lines (a mark where the line stops being the
 * last mark's plus the lines written since: a row of several lines, or
 * one not written).
 */
static int dupcheck;
struct seen {
	uint64_t	 hash;
	unsigned long	 line;
};
static struct seen *atstart;	/* the rows of the start seenstart */
static size_t natstart, atstartcap;
static int64_t seenstart = INT64_MIN;
struct mark {
	size_t		 index;		/* of the line written */
	unsigned long	 line;		/* of its row */
};
static struct mark *marks;
static size_t nmarks, markscap;
static size_t nwritten;		/* rows written so far */

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: csv2intervals [-bhkLs] [-l launches] [-m memory] [-o output] [file]\n", status);
}

/* libcsv's realloc: refuse to let one field grow beyond the limit. */
static void *
bounded_realloc(void *p, size_t size)
{
	if (size > CSV_MAXBUF) {
		fieldtoolong = 1;
		return NULL;
	}
	return realloc(p, size);
}

/* Whether a line holds nothing but blanks. */
static int
isblank_line(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Whether a line is one of those nsys prints before the CSV when its
 * stdout is captured: blank, "Generating SQLite file ...", "Processing
 * [...] with [...]...", or "NOTICE: ..." and its indented continuation.
 */
static int
isbanner(struct input *r, const char *s, size_t len)
{
	if (r->notice && (*s == ' ' || *s == '\t'))
		return 1;
	r->notice = strncmp(s, "NOTICE:", 7) == 0;
	if (r->notice || strncmp(s, "Processing [", 12) == 0 ||
	    strncmp(s, "Generating SQLite file ", 23) == 0)
		return 1;
	return isblank_line(s, len);
}

/*
 * Recognise a header field: its column name and, for a time, the unit,
 * "Start (us)" or, as older versions write it, "Start(sec)".
 */
static enum col
header_col(struct input *r, const char *s)
{
	enum col c;
	const char *unit;
	size_t n, u;

	for (c = COL_OTHER + 1; c < NCOL; c++) {
		n = strlen(colnames[c].name);
		if (strncmp(s, colnames[c].name, n) != 0)
			continue;
		unit = s + n + (s[n] == ' ');
		if (!colnames[c].istime) {
			if (s[n] == '\0')
				return c;
			continue;
		}
		if (s[n] != '\0' && *unit != '(')
			continue;
		for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
			if (strcmp(unit, units[u].suffix) == 0) {
				r->named[c].digits = units[u].digits;
				return c;
			}
		errx(1, "%s:%lu: column \"%.40s\" without a time unit: "
		    "(ns), (us), (ms), (s) or (sec)", r->in.path, r->recline,
		    s);
	}
	return COL_OTHER;
}

/* Exit naming the column c if the header lacks it. */
static void
need(struct input *r, enum col c, const char *layout)
{
	if (r->named[c].at == -1)
		errx(1, "%s:%lu: %s without a \"%s\" column", r->in.path,
		    r->recline, layout, colnames[c].name);
}

/* Use column c, if the header has it, for u (with the unit of c). */
static void
setuse(struct input *r, enum col c, enum use u)
{
	int i;

	if ((i = r->named[c].at) == -1)
		return;
	r->col[i].use = u;
	r->col[i].digits = r->named[c].digits;
	r->col[i].what = r->named[c].title;
}

/* The header is complete: tell the layout and what each column is for. */
static void
end_header(struct input *r)
{
	int gpu, kexec, i;

	gpu = r->named[COL_START].at != -1 && r->named[COL_DUR].at != -1;
	kexec = r->named[COL_APISTART].at != -1 && r->named[COL_APIDUR].at != -1;
	if (gpu == kexec)
		errx(1, "%s:%lu: not an nsys cuda_gpu_trace or "
		    "cuda_kern_exec_trace CSV: the header has %s", r->in.path,
		    r->recline, gpu ? "the columns of both" :
		    "neither Start and Duration nor API Start and API Dur");
	r->kexec = kexec;
	if (gpu) {
		need(r, COL_GRDX, "cuda_gpu_trace");
		need(r, COL_NAME, "cuda_gpu_trace");
		setuse(r, COL_START, USE_START);
		setuse(r, COL_DUR, USE_DUR);
		setuse(r, COL_GRDX, USE_GRDX);
		setuse(r, COL_NAME, USE_NAME);
		setuse(r, COL_DEVICE, USE_DEVICE);
		setuse(r, r->named[COL_STRM].at != -1 ? COL_STRM : COL_STREAM,
		    USE_STREAM);
		setuse(r, COL_BYTES, USE_BYTES);
	} else {
		need(r, COL_KNAME, "cuda_kern_exec_trace");
		if (kflag) {
			need(r, COL_KSTART, "cuda_kern_exec_trace");
			need(r, COL_KDUR, "cuda_kern_exec_trace");
			setuse(r, COL_KSTART, USE_START);
			setuse(r, COL_KDUR, USE_DUR);
		} else {
			setuse(r, COL_APISTART, USE_START);
			setuse(r, COL_APIDUR, USE_DUR);
		}
		setuse(r, COL_KNAME, USE_NAME);
		setuse(r, COL_DEVID, USE_DEVID);
		if (launchfp != NULL) {
			need(r, COL_KSTART, "cuda_kern_exec_trace");
			need(r, COL_KDUR, "cuda_kern_exec_trace");
			setuse(r, COL_KSTART, USE_KSTART);
			setuse(r, COL_KDUR, USE_KDUR);
			setuse(r, COL_PID, USE_PID);
			setuse(r, COL_TID, USE_TID);
		}
	}
	if (bflag)	/* spare the work on columns a bare line leaves out */
		for (i = 0; i < r->ncols; i++)
			if (r->col[i].use != USE_START &&
			    r->col[i].use != USE_DUR &&
			    !(r->col[i].use == USE_GRDX && kflag) &&
			    (launchfp == NULL || r->col[i].use == USE_NAME))
				r->col[i].use = USE_NONE;
	r->header = 1;
}

/* A header field: remember the columns this program knows. */
static void
header_field(struct input *r, int i, const char *s)
{
	enum col c;

	if (i >= MAXCOLS)
		errx(1, "%s:%lu: header has more than %d columns", r->in.path,
		    r->recline, MAXCOLS);
	if ((c = header_col(r, s)) == COL_OTHER)
		return;
	if (r->named[c].at != -1)
		errx(1, "%s:%lu: two \"%s\" columns", r->in.path, r->recline,
		    colnames[c].name);
	r->named[c].at = i;
	if ((r->named[c].title = strdup(s)) == NULL)
		err(1, NULL);
}

/*
 * Parse a non-negative decimal number of units of 10^digits ns into ns,
 * exactly: "2789356.559" us is 2789356559 ns.  Digits beyond a nanosecond
 * round to the nearest, ties to even.  Return 0, or -1 if s is not such a
 * number or the result overflows an int64_t.
 */
static int
parse_time(const char *s, int digits, int64_t *ns)
{
	const char *first = s;
	int64_t n = 0;
	int d, frac = 0, round = 0, sticky = 0;

	if (*s < '0' || *s > '9')
		return -1;
	/* 18 digits cannot overflow: no check till then. */
	for (; s - first < 18 && *s >= '0' && *s <= '9'; s++)
		n = n * 10 + (*s - '0');
	for (; *s >= '0' && *s <= '9'; s++) {
		d = *s - '0';
		if (n > (INT64_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return -1;
		for (; *s >= '0' && *s <= '9'; s++) {
			d = *s - '0';
			if (frac < digits) {
				if (n > (INT64_MAX - d) / 10)
					return -1;
				n = n * 10 + d;
			} else if (frac == digits)
				round = d;
			else if (d != 0)
				sticky = 1;
			frac++;
		}
	}
	if (*s != '\0')
		return -1;
	for (; frac < digits; frac++) {
		if (n > INT64_MAX / 10)
			return -1;
		n *= 10;
	}
	if (round > 5 || (round == 5 && (sticky || n % 2 == 1))) {
		if (n == INT64_MAX)
			return -1;
		n++;
	}
	*ns = n;
	return 0;
}

/* Whether s is empty or nsys 2022.4's NULL. */
static int
isnull(const char *s)
{
	return *s == '\0' || (*s == 'N' && strcmp(s, "None") == 0);
}

/* Copy a device or stream number into id, "-" when there is none. */
static void
copy_id(struct input *r, int col, const char *s, size_t len, char *id)
{
	size_t i;

	if (isnull(s)) {
		strcpy(id, "-");
		return;
	}
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			break;
	if (i != len || len > MAXID)
		errx(1, "%s:%lu: bad %s \"%.40s\"", r->in.path, r->recline,
		    r->col[col].what, s);
	memcpy(id, s, len + 1);
}

/* The device number of a Device field, "NVIDIA H100 NVL (0)"; else "-". */
static void
copy_device(const char *s, size_t len, char *id)
{
	size_t i;

	strcpy(id, "-");
	if (len < 3 || s[len - 1] != ')')
		return;
	for (i = len - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	if (i == 0 || s[i - 1] != '(' || i == len - 1 || len - 1 - i > MAXID)
		return;
	memcpy(id, s + i, len - 1 - i);
	id[len - 1 - i] = '\0';
}

/* Keep the name of the row, which must be UTF-8. */
static void
copy_name(struct input *r, const char *name, size_t len)
{
	if (!utf8_valid(name, len))
		errx(1, "%s:%lu: invalid UTF-8 in %s", r->in.path, r->recline,
		    colnames[r->kexec ? COL_KNAME : COL_NAME].name);
	if (len + 1 > r->namecap) {
		r->namecap = len + 1;
		if ((r->name = realloc(r->name, r->namecap)) == NULL)
			err(1, NULL);
	}
	memcpy(r->name, name, len + 1);
	r->namelen = len;
}

/* Take what the row needs from field i, s. */
static void
take(struct input *r, int i, const char *s, size_t len)
{
	switch (r->col[i].use) {
	case USE_NONE:
		break;
	case USE_START:
		if (parse_time(s, r->col[i].digits, &r->start) == -1)
			goto bad;
		break;
	case USE_DUR:
		if (parse_time(s, r->col[i].digits, &r->dur) == -1)
			goto bad;
		break;
	case USE_GRDX:
		r->kernel = !isnull(s);
		break;
	case USE_NAME:
		copy_name(r, s, len);
		break;
	case USE_DEVICE:
		copy_device(s, len, r->device);
		break;
	case USE_DEVID:
		copy_id(r, i, s, len, r->device);
		break;
	case USE_STREAM:
		copy_id(r, i, s, len, r->stream);
		break;
	case USE_KSTART:
		if (parse_time(s, r->col[i].digits, &r->kstart) == -1)
			goto bad;
		break;
	case USE_KDUR:
		if (parse_time(s, r->col[i].digits, &r->kdur) == -1)
			goto bad;
		break;
	case USE_PID:
		copy_id(r, i, s, len, r->pid);
		break;
	case USE_TID:
		copy_id(r, i, s, len, r->tid);
		break;
	case USE_BYTES:
		/* Decimal megabytes, 10^6 bytes, as nsys writes them. */
		if (memfp == NULL)
			break;
		if (isnull(s))
			r->bytes = -1;
		else if (parse_time(s, 6, &r->bytes) == -1)
			goto bad;
		break;
	}
	return;
bad:
	errx(1, "%s:%lu: bad %s \"%.40s\"", r->in.path, r->recline,
	    r->col[i].what, s);
}

/* libcsv: a field has been read; s is NUL-terminated. */
static void
field(void *s, size_t len, void *data)
{
	struct input *r = data;
	int i = r->nfields++;

	if (len > H3_MAXFIELD)
		errx(1, "%s:%lu: field longer than %u bytes", r->in.path,
		    r->recline, H3_MAXFIELD);
	if (!r->header)
		header_field(r, i, s);
	else if (i < r->ncols)
		take(r, i, s, len);
}

/* The kind of a GPU trace row that is not a kernel, by its name. */
static const char *
gpu_kind(const char *name)
{
	if (strncmp(name, "[CUDA memcpy", 12) == 0)
		return "memcpy\t";
	if (strncmp(name, "[CUDA memset", 12) == 0)
		return "memset\t";
	return "other\t";
}

/* Write name escaped as a column to fp: plain runs whole. */
static void
put_name(FILE *fp, const char *name)
{
	const char *p = name;
	size_t n;

	for (;;) {
		n = strcspn(p, "\\\t\n\r");
		fwrite_unlocked(p, 1, n, fp);
		if (p[n] == '\0')
			return;
		putc_unlocked('\\', fp);
		putc_unlocked(p[n] == '\\' ? '\\' : p[n] == '\t' ? 't' :
		    p[n] == '\n' ? 'n' : 'r', fp);
		p += n + 1;
	}
}

/* A memory line of the GPU trace's row, to memfp, if it is a copy or a
   memset. */
static void
put_memory(struct input *r)
{
	char buf[160], *p = buf;
	const char *kind = gpu_kind(r->name);

	if (*kind == 'o')
		return;
	p = fmt_int(p, r->start);
	*p++ = '\t';
	p = fmt_int(p, r->start + r->dur);
	*p++ = '\t';
	p = stpcpy(stpcpy(p, kind), r->device);
	*p++ = '\t';
	p = stpcpy(p, r->stream);
	*p++ = '\t';
	if (r->bytes == -1)
		*p++ = '-';
	else
		p = fmt_int(p, r->bytes);
	*p++ = '\t';
	fwrite_unlocked(buf, 1, p - buf, memfp);
	put_name(memfp, r->name);
	putc_unlocked('\n', memfp);
	r->bytes = -1;
}

/*
 * The launch line of a kernel-exec trace's row, to launchfp: its call's
 * start and end, the len bytes at se as the row's line has them.
 */
static void
put_launchline(struct input *r, const char *se, size_t len)
{
	char buf[200], *p = buf;

	if (r->kstart > INT64_MAX - r->kdur)
		errx(1, "%s:%lu: kernel start %lld plus duration %lld "
		    "overflows", r->in.path, r->recline, (long long)r->kstart,
		    (long long)r->kdur);
	memcpy(p, se, len);
	p += len;
	*p++ = '\t';
	p = stpcpy(p, r->pid);
	*p++ = ':';
	p = stpcpy(p, r->tid);
	*p++ = '\t';
	p = fmt_int(p, r->kstart);
	*p++ = '\t';
	p = fmt_int(p, r->kstart + r->kdur);
	memcpy(p, "\tkernel\t", 8);
	p = stpcpy(p + 8, r->device);
	/* With -b the name is not read: the time account needs none. */
	memcpy(p, "\t-\t-\t", 5);
	p += 5;
	if (bflag)
		*p++ = '-';
	fwrite_unlocked(buf, 1, p - buf, launchfp);
	if (!bflag)
		put_name(launchfp, r->name);
	putc_unlocked('\n', launchfp);
}

/* Exit naming a row that repeats the row of line first. */
static _Noreturn void
duplicate(const struct input *r, unsigned long first, unsigned long again)
{
	errx(1, "%s:%lu: a duplicate of line %lu: nsys writes no row twice "
	    "(two exports concatenated?)", r->in.path, again, first);
}

/* The line of the row written index-th (from 0), of the marks. */
static unsigned long
line_of(size_t index)
{
	size_t lo = 0, hi = nmarks, mid;

	while (hi - lo > 1) {	/* the last mark at or before index */
		mid = lo + (hi - lo) / 2;
		if (marks[mid].index <= index)
			lo = mid;
		else
			hi = mid;
	}
	return marks[lo].line + (index - marks[lo].index);
}

/* Whether the row about to be written repeats one of its start. */
static void
check_duplicate(struct input *r)
{
	uint64_t h = r->rowhash;
	size_t i;

	if (r->start != seenstart) {
		natstart = 0;
		seenstart = r->start;
	}
	for (i = 0; i < natstart; i++)
		if (atstart[i].hash == h)
			duplicate(r, atstart[i].line, r->recline);
	atstart = grow(atstart, &atstartcap, natstart, sizeof(*atstart));
	atstart[natstart++] = (struct seen){ h, r->recline };
	/* The last mark is at or before nwritten: no search needed. */
	if (sflag && (nmarks == 0 || r->recline != marks[nmarks - 1].line +
	    (nwritten - marks[nmarks - 1].index))) {
		marks = grow(marks, &markscap, nmarks, sizeof(*marks));
		marks[nmarks++] = (struct mark){ nwritten, r->recline };
	}
	nwritten++;
}

/* The fields of a data row have all been taken: write its interval. */
static void
put_row(struct input *r)
{
	char buf[96], *p = buf;		/* all columns but the name: <= 89 */
	const char *kind;

	if (r->nfields != r->ncols)
		errx(1, "%s:%lu: %d fields, header has %d", r->in.path,
		    r->recline, r->nfields, r->ncols);
	r->nfields = 0;
	if (r->start > INT64_MAX - r->dur)
		errx(1, "%s:%lu: start %lld plus duration %lld overflows",
		    r->in.path, r->recline, (long long)r->start,
		    (long long)r->dur);
	if (memfp != NULL && !r->kexec && !r->kernel)
		put_memory(r);
	if (kflag && !r->kexec && !r->kernel)
		return;
	if (dupcheck)
		check_duplicate(r);
	if (r->start < laststart)
		unsorted = 1;
	laststart = r->start;
	p = fmt_int(p, r->start);
	*p++ = '\t';
	p = fmt_int(p, r->start + r->dur);
	if (launchfp != NULL && r->kexec)
		put_launchline(r, buf, p - buf);
	if (Lflag)
		return;
	if (bflag) {
		*p++ = '\n';
		fwrite_unlocked(buf, 1, p - buf, stdout);
		return;
	}
	*p++ = '\t';
	if (r->kexec)
		kind = kflag ? "kernel\t" : "launch\t";
	else
		kind = r->kernel ? "kernel\t" : gpu_kind(r->name);
	p = stpcpy(p, kind);
	p = stpcpy(p, r->device);
	*p++ = '\t';
	p = stpcpy(p, r->stream);
	p = stpcpy(p, "\t-\t");
	fwrite_unlocked(buf, 1, p - buf, stdout);
	put_escaped(r->name, r->namelen);
	putchar_unlocked('\n');
}

/* libcsv: a record has ended, with the character c. */
static void
record(int c, void *data)
{
	struct input *r = data;

	if (c == '\n')
		r->atrecord = 1;
	if (r->nfields == 0)		/* a line end between records */
		return;
	if (!r->header) {
		r->ncols = r->nfields;
		r->nfields = 0;
		end_header(r);
		return;
	}
	put_row(r);
}

#ifndef H3_NO_FASTPATH
/*
 * The fast path: read a data row that is one line of plain fields, as
 * nearly all of nsys's are, without libcsv.  libcsv's state machine takes
 * a row a byte at a time through a callback per field; memchr and a table
 * lookup split it some three times faster, and the rows are nearly all of
 * the work.
 *
 * A plain field is unquoted, without a quote or a CR, and loses the
 * blanks around it; or it is quoted, on this line, with a comma or the
 * line end right after its closing quote.  The line may end in the CR of
 * a CRLF.  Return 0, the line untouched, for any other line, which libcsv
 * reads as strictly as ever: one that holds any other field, or starts
 * with a blank (a line of blanks is no record to libcsv, but would be one
 * empty field here).  Both ways give a field the same bytes, as the fuzz
 * target csvpaths checks; a field too long for libcsv's buffer is left to
 * libcsv too, to say so.  The fields are cut in the line in place.
 */
static int
plain_row(struct input *r, char *line, size_t len)
{
	/* The bytes that end an unquoted plain field, or make it not one. */
	static const unsigned char endsplain[256] = {
		['\0'] = 1, [','] = 1, ['"'] = 1, ['\r'] = 1
	};
	struct span *sp;
	char *end = line + len, *p = line, *e, *q, *w;
	int n = 0, dq, i;

	if (len == 0 || *p == ' ' || *p == '\t' || *p == '\r')
		return 0;
	if (end[-1] == '\r')
		end--;
	for (;; p = e + 1) {	/* first find them all, changing nothing */
		dq = 0;
		if (*p == '"') {
			for (q = ++p; (e = memchr(q, '"', end - q)) != NULL &&
			    e + 1 < end && e[1] == '"'; q = e + 2)
				dq = 1;
			if (e == NULL)
				return 0;
			w = e++;
			if (e != end && *e != ',')
				return 0;
			if (w - p > H3_MAXFIELD)
				return 0;
		} else {
			for (e = p; !endsplain[(unsigned char)*e]; e++)
				;
			if (*e == '"' || (*e == '\r' && e != end))
				return 0;
			for (; *p == ' ' || *p == '\t'; p++)
				;
			if (e - p > H3_MAXFIELD)
				return 0;
			for (w = e; w > p && (w[-1] == ' ' || w[-1] == '\t');
			    w--)
				;
		}
		if (n < MAXCOLS)
			r->span[n] = (struct span){ p, w, dq };
		n++;
		if (e == end)
			break;
	}
	for (i = 0; i < n && i < r->ncols; i++) {
		sp = &r->span[i];
		if (r->col[i].use == USE_NONE)
			continue;
		if (sp->doubled) {
			for (q = w = sp->from; q < sp->to; q++)
				if ((*w++ = *q) == '"')
					q++;
			sp->to = w;
		}
		*sp->to = '\0';
		take(r, i, sp->from, sp->to - sp->from);
	}
	r->nfields = n;
	put_row(r);
	return 1;
}
#endif

/* Feed len bytes of line to libcsv, exiting on what it rejects. */
static void
parse(struct csv_parser *p, struct input *r, const char *s, size_t len)
{
	if (csv_parse(p, s, len, field, record, r) == len)
		return;
	if (csv_error(p) == CSV_EPARSE)
		errx(1, "%s:%lu: bad CSV: a quote inside an unquoted field "
		    "or not followed by a comma or line end", r->in.path,
		    r->in.lineno);
	if (fieldtoolong)
		errx(1, "%s:%lu: field longer than %u bytes", r->in.path,
		    r->recline, H3_MAXFIELD);
	errx(1, "%s:%lu: %s", r->in.path, r->recline,
	    csv_strerror(csv_error(p)));
}

int
main(int argc, char *argv[])
{
	static struct input r;
	struct csv_parser p;
	char *line;
	size_t len, skip, dup[2];
	int ch, c;

	while ((ch = getopt_long(argc, argv, "bhkLl:m:o:s", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			bflag = 1;
			break;
		case 'h':
			usage(0);
		case 'k':
			kflag = 1;
			break;
		case 'L':
			Lflag = 1;
			break;
		case 'l':
			launchpath = optarg;
			break;
		case 'm':
			mempath = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 's':
			sflag = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	/* Only a file of -o's can be sorted once written. */
	if (argc > 1 || (mempath != NULL && (bflag || Lflag)) ||
	    ((launchpath != NULL || Lflag) && kflag) ||
	    (launchpath != NULL && Lflag) || (sflag && outpath == NULL))
		usage(EXIT_USAGE);

	lines_open(&r.in, argc == 1 ? argv[0] : "-");
	if (outpath != NULL)
		out_stdout(outpath);
	/* With -o, each output is renamed into place whole, or left out. */
	if (mempath != NULL)
		memfp = out_side(mempath, outpath != NULL);
	r.bytes = -1;
	if (launchpath != NULL)
		launchfp = out_side(launchpath, outpath != NULL);
	if (Lflag)
		launchfp = stdout;
	dupcheck = !bflag || launchfp != NULL;
	strcpy(r.pid, "-");
	strcpy(r.tid, "-");
	buffer_stdout();
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL |
	    CSV_REPALL_NL) != 0)
		errx(1, "csv_init failed");
	csv_set_realloc_func(&p, bounded_realloc);
	csv_set_blk_size(&p, CSV_BLOCK);
	for (c = 0; c < NCOL; c++)
		r.named[c].at = -1;
	r.atrecord = 1;
	strcpy(r.device, "-");
	strcpy(r.stream, "-");

	/* A byte order mark before the first line is no part of it. */
	if ((line = lines_next(&r.in, &len)) != NULL) {
		skip = utf8_bom(line, len);
		line += skip;
		len -= skip;
	}
	for (; line != NULL && isbanner(&r, line, len);
	    line = lines_next(&r.in, &len))
		;
	for (; line != NULL; line = lines_next(&r.in, &len)) {
		if (r.atrecord) {
			r.recline = r.in.lineno;
			r.rowhash = 0;
		}
		/* Before the fast path cuts the line up. */
		if (dupcheck)
			r.rowhash = (r.rowhash ^ hashbytes(line, len)) *
			    0x9e3779b97f4a7c15u;
		/*
		 * lines_next sets eof as it returns a last line without a
		 * newline.  nsys ends every line: a row without is likely torn.
		 */
		if (r.in.eof && !isblank_line(line, len))
			errx(1, "%s:%lu: no newline at the end of the file: "
			    "is it cut short?", r.in.path, r.recline);
#ifndef H3_NO_FASTPATH
		if (r.header && r.atrecord && plain_row(&r, line, len))
			continue;
#endif
		r.atrecord = 0;
		parse(&p, &r, line, len);
		parse(&p, &r, "\n", 1);
	}
	/* Every line was fed with its newline: only an open quote is left. */
	if (csv_error(&p) != CSV_SUCCESS || csv_fini(&p, NULL, NULL, NULL) != 0)
		errx(1, "%s:%lu: quoted field not closed at the end of the "
		    "input", r.in.path, r.recline);
	/*
	 * nsys leaves the CSV of a report it skipped empty, for want of
	 * kernels, say.  Whether that is a trace without rows only the
	 * other trace of the run can tell: scripts/h3facts asks it.
	 */
	if (!r.header && r.in.lineno == 0)
		errx(1, "%s:1: no header: empty (0 bytes), as nsys leaves a "
		    "report it skipped", r.in.path);
	if (!r.header)
		errx(1, "%s:%lu: no header", r.in.path, r.in.lineno + 1);
	csv_free(&p);
	lines_close(&r.in);
	/* Sorted, the rows' lines are checked for two alike; the launch
	   lines where the intervals are bare, which two rows may share. */
	if (unsorted && sflag) {
		if (out_bystart_dups(stdout, outpath,
		    bflag && !Lflag ? NULL : dup))
			duplicate(&r, line_of(dup[0]), line_of(dup[1]));
		if (launchfp != NULL && !Lflag &&
		    out_bystart_dups(launchfp, launchpath, dup))
			duplicate(&r, line_of(dup[0]), line_of(dup[1]));
	}
	if (memfp != NULL)
		out_close(memfp, mempath);
	if (launchfp != NULL && !Lflag)
		out_close(launchfp, launchpath);
	close_stdout();
	return 0;
}
