/*
 * sqlite2intervals: read an nsys SQLite export and write the interval
 * lines csv2intervals(1) writes from the `nsys stats` CSVs of the same
 * report.  See sqlite2intervals(1).
 *
 * The queries are those of nsys 2024.2's cuda_gpu_trace and
 * cuda_kern_exec_trace reports, cut down to the columns an interval needs.
 * Those reports sort by start alone, and SQLite's sort is stable, so nsys
 * writes rows that start together in the order its joins make them.  The
 * ORDER BY clauses here spell that order out, so that any SQLite, however
 * it plans the query, writes the same lines.
 *
 * Sorting and joining are most of SQLite's work here, and nsys writes its
 * tables in start order and numbers its API calls' correlation ids in
 * that order too.  Where an export is so, the tables are read in rowid
 * order and merged, and the launches joined to their kernels, here, in
 * the order the queries give; where it is not, the queries run as they
 * are.  The GPU tables are first read for their starts alone, to know;
 * the join learns as it goes, into a temporary file.
 */

#include <sys/stat.h>

#include <err.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Where a row comes from: its table and, but for launches, its kind. */
enum src { SRC_KERNEL, SRC_MEMCPY, SRC_MEMSET, SRC_RUNTIME, NSRC };

/* The table of each source, for messages. */
static const char *const tables[NSRC] = {
	"CUPTI_ACTIVITY_KIND_KERNEL",
	"CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET",
	"CUPTI_ACTIVITY_KIND_RUNTIME",
};

/* The kind column of each source: an API call is a launch. */
static const char *const kinds[NSRC] = {
	"kernel", "memcpy", "memset", "launch"
};

/*
 * The columns every query returns, in this order.  A row has a name, or
 * for a kernel the StringIds id of its name, looked up once the rows are
 * sorted: the sort then moves integers only, not names that may run to
 * kilobytes each.
 */
enum { COL_START, COL_END, COL_SRC, COL_DEVICE, COL_STREAM, COL_NAME,
	COL_ROWID, COL_NAMEID, COL_BYTES };

/*
 * Memcpy names as nsys 2024.2 writes them, "[CUDA memcpy LABEL]", by
 * copyKind.  The export's own ENUM_CUDA_MEMCPY_OPER table wins; exports
 * before 2023 have none, and these are its rows in 2023.1 and 2024.2.
 */
static const char builtin_memcpy_oper[] =
    "VALUES (0, 'Unknown'), (1, 'Host-to-Device'), (2, 'Device-to-Host'),"
    " (3, 'Host-to-Array'), (4, 'Array-to-Host'), (5, 'Array-to-Array'),"
    " (6, 'Array-to-Device'), (7, 'Device-to-Array'),"
    " (8, 'Device-to-Device'), (9, 'Host-to-Host'), (10, 'Peer-to-Peer'),"
    " (11, 'Unified Host-to-Device'), (12, 'Unified Device-to-Host'),"
    " (13, 'Unified Device-to-Device')";

/*
 * cuda_gpu_trace: kernels, copies and memsets by start; of those that
 * start together kernels come first, then copies, then memsets (its UNION
 * ALL order), each table's in rowid order (its scans).  Each part alone,
 * in rowid order, is what the merge reads.
 */
static const char *const gpu_select[] = {
	"SELECT start, end, 0, deviceId, streamId, NULL, rowid, demangledName"
	" FROM CUPTI_ACTIVITY_KIND_KERNEL",
	"SELECT m.start, m.end, 1, m.deviceId, m.streamId,"
	" '[CUDA memcpy ' || o.label || ']', m.rowid, NULL"
	" FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m"
	" LEFT JOIN memcpy_oper AS o ON o.id = m.copyKind",
	"SELECT start, end, 2, deviceId, streamId, '[CUDA memset]', rowid,"
	" NULL FROM CUPTI_ACTIVITY_KIND_MEMSET",
};
static const char gpu_order[] = " ORDER BY 1, 3, 7";
static const char rowid_order[] = " ORDER BY 7";

/*
 * cuda_kern_exec_trace: each kernel joined to the API call that launched
 * it, by API start.  nsys scans the kernels in rowid order and finds their
 * API calls through an index of correlationId, so ties go by kernel rowid,
 * then by API call rowid.  The mask must stay a hex literal: written in
 * decimal, SQLite reads it as a float and the join finds nothing.
 */
static const char exec_launch[] =
    "SELECT r.start, r.end, 3, k.deviceId, NULL, NULL, r.rowid,"
    " k.demangledName";
static const char exec_kernel[] =
    "SELECT k.start, k.end, 0, k.deviceId, NULL, NULL, k.rowid,"
    " k.demangledName";
static const char exec_from[] =
    " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k"
    " JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r"
    " ON k.correlationId = r.correlationId"
    " AND k.globalPid = (r.globalTid & 0xFFFFFFFFFF000000)"
    " ORDER BY r.start, k.rowid, r.rowid";
/* The process bits of a globalTid, the mask above. */
#define PID_BITS	0xFFFFFFFFFF000000ull

/*
 * The same join made here, for an export whose API calls are in start
 * order and in correlation id order, as nsys writes them: the calls and
 * the tables of operations in rowid order, with the columns the lines
 * need (the rest NULL: -b needs no kernel's device or name, only -k its
 * interval, only -l its stream).
 */
static const char join_calls[] =
    "SELECT start, end, correlationId, globalTid, rowid"
    " FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid";
static const char join_ops[] =
    "SELECT correlationId, globalPid, rowid, %s, %s, %s, %s"
    " FROM %s ORDER BY rowid";
enum { CALL_START, CALL_END, CALL_CORR, CALL_TID, CALL_ROWID };
enum { KERN_CORR, KERN_PID, KERN_ROWID, KERN_START, KERN_END, KERN_DEVICE,
	KERN_NAMEID, KERN_STREAM };

/*
 * The kernels in start order are in launch order but for those that
 * waited on other streams: put in correlation id order through a heap of
 * HEAP_MAX, which is enough unless one runs more than that many kernels
 * after one launched later.  The lines of API calls that start in the
 * same ns are held to be ordered, TIES_MAX calls at most.  Beyond either,
 * or where a table is out of order, SQLite's join makes the lines.
 */
#define HEAP_MAX	(1 << 14)
#define TIES_MAX	1024
/* Lines held at most, about 140 bytes each: a call of more kernels (a
   CUDA graph launch of tens of thousands) is the query's. */
#define HOLD_MAX	(1 << 15)

/* A column as read: its SQLite type, and its value if an integer. */
struct col {
	int	 type;
	int64_t	 v;
};

/*
 * One interval line as read from the export, checked as it is written.
 * A name is a text read (valid until its statement steps on) or a name
 * id to look up.
 */
struct line {
	int		 src;		/* the table messages name */
	int64_t		 rowid;		/* the row messages name */
	int64_t		 krowid;	/* of a launch: its kernel's rowid */
	int64_t		 crowid;	/* of a launch: its API call's rowid */
	struct col	 start, end, device, stream, nameid;
	struct col	 bytes;		/* with -m, of a copy or memset */
	sqlite3_value	*nameval;	/* a name id of another type, or NULL
					   (the join takes integers only) */
	const char	*name;
	int		 namelen;
};

/* The export, as named on the command line. */
static const char *path;
/* Write bare intervals: start and end only. */
static int bflag;
/*
 * Kernels only: of -t gpu, the kernel table alone; of -t launch, the
 * kernels launched instead of the launches, in their order.  See
 * "Choosing intervals" in h3prof(5).
 */
static int kflag;
/* -m: the memory lines of the copies and memsets, and their file. */
static const char *mempath;
/* -o: the file of the lines, written whole or not at all. */
static const char *outpath;
static FILE *memfp;
/* The export. */
static sqlite3 *db;
/* Looks up a kernel name in StringIds by id. */
static sqlite3_stmt *nameq;
/* The lines of the launches that start in the same ns, held to order. */
static struct line *ties;
static size_t nties, tiescap;
/* The join's API calls, read in rowid order. */
static sqlite3_stmt *callq;
/*
 * While the join runs, where a bad row takes it: the query runs instead,
 * to tell of the first in its order, after the lines before it.
 */
static jmp_buf *joinfail;

/*
 * Kernel names by string id, in a direct-mapped cache of NCACHE slots.
 * Names longer than CACHED_MAX are looked up each time, so that the cache
 * never holds more than NCACHE * CACHED_MAX bytes.
 */
#define NCACHE		1024
#define CACHED_MAX	4096
static struct {
	int64_t	 id;		/* whose name the slot holds */
	char	*name;		/* in buf; NULL if StringIds lacks the id */
	int	 len;
	char	 buf[];
} *cache[NCACHE];

static _Noreturn void
usage(int status)
{
	usage_exit("usage: sqlite2intervals [-bhkL] [-l launches] [-m memory] "
	    "[-o output] [-t gpu|launch] file.sqlite\n", status);
}

/* Exit unless the export has the table. */
static void
needtable(const char *name)
{
	if (!export_hastable(db, path, name))
		errx(1, "%s: not an nsys SQLite export (no table %s)", path,
		    name);
}

/* Append s to the query being built in q, of size qsize. */
static void
add(char *q, size_t qsize, const char *s)
{
	size_t qlen = strlen(q), slen = strlen(s);

	if (qlen + slen >= qsize)
		errx(1, "query too long");	/* the parts are fixed */
	memcpy(q + qlen, s, slen + 1);
}

/*
 * An error of SQLite.  In the join, the query runs instead, to tell of it
 * after the lines before it, as it would have alone.
 */
static _Noreturn void
sqlfail(void)
{
	if (joinfail != NULL)
		longjmp(*joinfail, 1);
	export_err(db, path);
}

/* Prepare a query of the export. */
static sqlite3_stmt *
prepare(const char *query)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, query, -1, &st, NULL) != SQLITE_OK)
		export_err(db, path);
	return st;
}

/* Step to the next row of a query: 1, or 0 past the last. */
static int
step(sqlite3_stmt *st)
{
	int rc;

	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		sqlfail();
	return 0;
}

/*
 * Prepare nameq, once the queries of the lines are: a StringIds that
 * cannot be read is told after what they would tell.
 */
static void
names(void)
{
	if (nameq != NULL || bflag || !export_hastable(db, path, "StringIds"))
		return;
	if (sqlite3_prepare_v2(db, "SELECT value FROM StringIds WHERE id = ?",
	    -1, &nameq, NULL) != SQLITE_OK)
		sqlfail();
}

/*
 * Whether a column of the table takes the name rowid, oid or _rowid_:
 * rowid then no longer names the rows' order, which the merge and the
 * join read by.  (Asked of an SQLite that cannot tell: yes.)
 */
static int
rowidnamed(const char *table)
{
	sqlite3_stmt *st;
	char q[256];
	int named = 1;

	snprintf(q, sizeof(q), "SELECT count(*) FROM pragma_table_info('%s')"
	    " WHERE lower(name) IN ('rowid', 'oid', '_rowid_')", table);
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
		return 1;
	if (sqlite3_step(st) == SQLITE_ROW)
		named = sqlite3_column_int64(st, 0) != 0;
	sqlite3_finalize(st);
	return named;
}

/* Whether the table has a column of that name. */
static int
hascolumn(const char *table, const char *col)
{
	sqlite3_stmt *st;
	char q[256];
	int has = 0;

	snprintf(q, sizeof(q), "SELECT count(*) FROM pragma_table_info('%s')"
	    " WHERE name = '%s'", table, col);
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK)
		sqlfail();
	if (sqlite3_step(st) == SQLITE_ROW)
		has = sqlite3_column_int64(st, 0) != 0;
	sqlite3_finalize(st);
	return has;
}

/*
 * Add the select of table i of cuda_gpu_trace to q: with -m, with the
 * bytes of a copy or memset last (NULL where the table has none).
 */
static void
add_select(char *q, size_t qsize, int i)
{
	const char *from = strstr(gpu_select[i], " FROM ");
	char head[512];

	if (mempath == NULL) {
		add(q, qsize, gpu_select[i]);
		return;
	}
	snprintf(head, sizeof(head), "%.*s, %s", (int)(from - gpu_select[i]),
	    gpu_select[i], i != SRC_KERNEL && hascolumn(tables[i], "bytes") ?
	    (i == SRC_MEMCPY ? "m.bytes" : "bytes") : "NULL");
	add(q, qsize, head);
	add(q, qsize, from);
}

/*
 * A column of the current row of a query, asked of SQLite once: each
 * sqlite3_column_ call costs about what reading the column does.
 */
static struct col
getcol(sqlite3_stmt *st, int i)
{
	sqlite3_value *v = sqlite3_column_value(st, i);
	struct col c;

	c.type = sqlite3_value_type(v);
	c.v = c.type == SQLITE_INTEGER ? sqlite3_value_int64(v) : 0;
	return c;
}

/*
 * The aggregate instartorder(start): whether the starts it is given, in
 * their order, are integers that never decrease.  Each row is asked of
 * SQLite inside one statement: a row stepped out to C costs more.
 */
struct startorder {
	int64_t	 prev;
	int	 seen, unsorted;
};

static void
startorder_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct startorder *so;
	int64_t v;

	if ((so = sqlite3_aggregate_context(ctx, sizeof(*so))) == NULL) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (so->unsorted)
		return;
	if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER ||
	    ((v = sqlite3_value_int64(argv[0])) < so->prev && so->seen))
		so->unsorted = 1;
	else {
		so->prev = v;
		so->seen = 1;
	}
}

static void
startorder_final(sqlite3_context *ctx)
{
	struct startorder *so = sqlite3_aggregate_context(ctx, 0);

	sqlite3_result_int(ctx, so == NULL || !so->unsorted);
}

/*
 * Whether the table's rows, in rowid order (NOT INDEXED: a scan of the
 * table itself), are in start order.
 */
static int
instartorder(const char *table)
{
	sqlite3_stmt *st;
	char query[128];
	int sorted;

	snprintf(query, sizeof(query),
	    "SELECT instartorder(start) FROM %s NOT INDEXED", table);
	/* A table that cannot be read so is the query's to tell of. */
	if (sqlite3_prepare_v2(db, query, -1, &st, NULL) != SQLITE_OK)
		return 0;
	sorted = step(st) && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return sorted;
}

/* The memcpy labels by copyKind, as the table memcpy_oper. */
static void
withoper(char *q, size_t qsize)
{
	add(q, qsize, "WITH memcpy_oper(id, label) AS (");
	add(q, qsize, export_hastable(db, path, "ENUM_CUDA_MEMCPY_OPER") ?
	    "SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER" :
	    builtin_memcpy_oper);
	add(q, qsize, ") ");
}

/* Exit naming the row of the export a line comes from. */
static void
rowerr(const struct line *l, const char *what, const char *detail)
{
	if (joinfail != NULL)
		longjmp(*joinfail, 1);
	errx(1, "%s: %s row %lld: %s%s", path, tables[l->src],
	    (long long)l->rowid, what, detail);
}

/* The start or end of a line, in ns. */
static int64_t
ns(const struct line *l, const struct col *c, const char *what)
{
	switch (c->type) {
	case SQLITE_INTEGER:
		break;
	case SQLITE_NULL:
		rowerr(l, what, " is NULL");
		break;
	default:
		rowerr(l, what, " is not an integer");
	}
	if (c->v < 0)
		rowerr(l, what, " is negative");
	return c->v;
}

/* Write the device or stream column and a tab at p, "-" for NULL. */
static char *
put_id(const struct line *l, const struct col *c, const char *what, char *p)
{
	switch (c->type) {
	case SQLITE_NULL:
		*p++ = '-';
		*p++ = '\t';
		return p;
	case SQLITE_INTEGER:
		p = fmt_int(p, c->v);
		*p++ = '\t';
		return p;
	default:
		rowerr(l, what, " is not an integer");
		return p;
	}
}

/* Exit unless the other filters can read a line with this name. */
static void
checkname(const struct line *l, const char *name, int len)
{
	char detail[64];

	if ((size_t)len > H3_MAXFIELD) {
		snprintf(detail, sizeof(detail), " longer than %u bytes",
		    H3_MAXFIELD);
		rowerr(l, "name", detail);
	}
	if (memchr(name, '\0', len) != NULL)
		rowerr(l, "name", " holds a NUL byte");
	if (!utf8_valid(name, len))
		rowerr(l, "name", " is not valid UTF-8");
}

/*
 * The string of a line's name id, or NULL if StringIds lacks it, and its
 * length.  Kernels run in loops, so the same few names come again and
 * again; the cache keeps them, checked, to spare looking them up.
 */
static const char *
stringid(const struct line *l, int *lenp)
{
	const char *name;
	int64_t n = -1;
	int rc, slot = 0;

	if (l->nameid.type == SQLITE_INTEGER && (n = l->nameid.v) >= 0) {
		slot = n % NCACHE;
		if (cache[slot] != NULL && cache[slot]->id == n) {
			*lenp = cache[slot]->len;
			return cache[slot]->name;
		}
	}
	sqlite3_reset(nameq);
	if ((l->nameid.type == SQLITE_INTEGER ?
	    sqlite3_bind_int64(nameq, 1, l->nameid.v) :
	    sqlite3_bind_value(nameq, 1, l->nameval)) != SQLITE_OK)
		sqlfail();
	*lenp = 0;
	if ((rc = sqlite3_step(nameq)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(nameq, 0);
		*lenp = sqlite3_column_bytes(nameq, 0);
		if (name != NULL)
			checkname(l, name, *lenp);
	} else if (rc == SQLITE_DONE)
		name = NULL;
	else
		sqlfail();
	if (n >= 0 && *lenp <= CACHED_MAX) {
		if (cache[slot] == NULL && (cache[slot] = malloc(
		    sizeof(*cache[slot]) + CACHED_MAX)) == NULL)
			err(1, NULL);
		cache[slot]->id = n;
		cache[slot]->len = *lenp;
		cache[slot]->name = name == NULL ? NULL :
		    memcpy(cache[slot]->buf, name, *lenp);
	}
	return name;
}

/*
 * The name of a line and its length: the name column, else the string
 * of the name id.  NULL, which nsys writes as an empty name, when there
 * is neither or StringIds lacks the id.
 */
static const char *
linename(const struct line *l, int *lenp)
{
	if (l->nameid.type != SQLITE_NULL)
		return stringid(l, lenp);
	*lenp = l->namelen;
	if (l->name != NULL)
		checkname(l, l->name, l->namelen);
	return l->name;
}

/* Check a line and write it. */
static void
putline(const struct line *l)
{
	char buf[5 * 24], *p;
	const char *name;
	int64_t start, end;
	int namelen;

	start = ns(l, &l->start, "start");
	end = ns(l, &l->end, "end");
	if (end < start) {
		char detail[64];

		snprintf(detail, sizeof(detail), " %lld before start %lld",
		    (long long)end, (long long)start);
		rowerr(l, "end", detail);
	}
	p = fmt_int(buf, start);
	*p++ = '\t';
	p = fmt_int(p, end);
	if (bflag) {	/* no name to look up, no ids to check */
		*p++ = '\n';
		fwrite_unlocked(buf, 1, p - buf, stdout);
		return;
	}
	*p++ = '\t';
	p = stpcpy(p, kinds[l->src]);
	*p++ = '\t';
	p = put_id(l, &l->device, "deviceId", p);
	p = put_id(l, &l->stream, "streamId", p);
	*p++ = '-';
	*p++ = '\t';
	name = linename(l, &namelen);
	fwrite_unlocked(buf, 1, p - buf, stdout);
	if (name != NULL)
		put_escaped(name, namelen);
	putchar_unlocked('\n');
}

/*
 * The memory line of a copy or memset to memfp: the interval line's
 * columns, its bytes before the name ("-" where the export has none).
 */
static void
putmemory(const struct line *l)
{
	char buf[24];
	const char *p;
	int i;

	*fmt_int(buf, ns(l, &l->start, "start")) = '\0';
	fprintf(memfp, "%s\t", buf);
	*fmt_int(buf, ns(l, &l->end, "end")) = '\0';
	fprintf(memfp, "%s\t%s\t", buf, kinds[l->src]);
	*put_id(l, &l->device, "deviceId", buf) = '\0';
	fputs(buf, memfp);
	*put_id(l, &l->stream, "streamId", buf) = '\0';
	fputs(buf, memfp);
	if (l->bytes.type == SQLITE_INTEGER && l->bytes.v >= 0) {
		*fmt_int(buf, l->bytes.v) = '\0';
		fprintf(memfp, "%s\t", buf);
	} else
		fputs("-\t", memfp);
	for (p = l->name, i = 0; p != NULL && i < l->namelen; p++, i++)
		switch (*p) {
		case '\\': fputs("\\\\", memfp); break;
		case '\t': fputs("\\t", memfp); break;
		case '\n': fputs("\\n", memfp); break;
		case '\r': fputs("\\r", memfp); break;
		default: putc(*p, memfp);
		}
	putc('\n', memfp);
}

/* Write the line of the current row of a query of the columns above. */
static void
putrow(sqlite3_stmt *st)
{
	struct line l;
	sqlite3_value *name;

	l.src = getcol(st, COL_SRC).v;
	l.rowid = getcol(st, COL_ROWID).v;
	l.start = getcol(st, COL_START);
	l.end = getcol(st, COL_END);
	if (!bflag) {
		l.device = getcol(st, COL_DEVICE);
		l.stream = getcol(st, COL_STREAM);
		l.nameid = getcol(st, COL_NAMEID);
		l.nameval = sqlite3_column_value(st, COL_NAMEID);
		l.name = NULL;
		l.namelen = 0;
		if (l.nameid.type == SQLITE_NULL) {	/* a name column */
			name = sqlite3_column_value(st, COL_NAME);
			l.name = (const char *)sqlite3_value_text(name);
			l.namelen = sqlite3_value_bytes(name);
			if (l.name == NULL &&
			    sqlite3_value_type(name) != SQLITE_NULL)
				errx(1, "out of memory");
		}
	}
	if (memfp != NULL && l.src != SRC_KERNEL) {
		l.bytes = getcol(st, COL_BYTES);
		putmemory(&l);
	}
	putline(&l);
}

/* Run a query of the columns above and write a line for each result. */
static void
run(const char *query)
{
	sqlite3_stmt *st;

	st = prepare(query);
	names();
	while (step(st))
		putrow(st);
	sqlite3_finalize(st);
}

/*
 * Write the lines of cuda_gpu_trace.  Where each table is in start
 * order, the tables in rowid order are merged here: the next line is
 * that of the earliest start, kernels before copies before memsets.
 */
static void
gpu(void)
{
	char q[SRC_MEMSET + 1][1024], all[2048];
	sqlite3_stmt *st[SRC_MEMSET + 1];
	int64_t start[SRC_MEMSET + 1];	/* of each table's next row */
	int has[SRC_MEMSET + 1], live[SRC_MEMSET + 1];
	int i, next, nst = 0, sorted = 1;
	const char *sep = "";

	for (i = SRC_KERNEL; i <= SRC_MEMSET; i++)
		has[i] = export_hastable(db, path, tables[i]);
	if (!has[SRC_KERNEL] && !has[SRC_MEMCPY] && !has[SRC_MEMSET])
		errx(1, "%s: not an nsys SQLite export (no table %s, "
		    "_MEMCPY or _MEMSET)", path, tables[SRC_KERNEL]);
	if (has[SRC_KERNEL])
		needtable("StringIds");
	if (kflag) {
		has[SRC_MEMCPY] = has[SRC_MEMSET] = 0;
		if (!has[SRC_KERNEL])
			return;
	}
	for (i = SRC_KERNEL; i <= SRC_MEMSET; i++)
		if (has[i] && sorted)
			sorted = !rowidnamed(tables[i]) && instartorder(tables[i]);
	/* The query of them all, which tells of a table it cannot read. */
	all[0] = '\0';
	if (has[SRC_MEMCPY])
		withoper(all, sizeof(all));
	for (i = SRC_KERNEL; i <= SRC_MEMSET; i++) {
		if (!has[i])
			continue;
		add(all, sizeof(all), sep);
		add_select(all, sizeof(all), i);
		sep = " UNION ALL ";
	}
	add(all, sizeof(all), gpu_order);
	if (!sorted) {
		run(all);
		return;
	}

	for (i = SRC_KERNEL; i <= SRC_MEMSET; i++) {
		if (!has[i])
			continue;
		q[i][0] = '\0';
		if (i == SRC_MEMCPY)
			withoper(q[i], sizeof(q[i]));
		add_select(q[i], sizeof(q[i]), i);
		add(q[i], sizeof(q[i]), rowid_order);
		if (sqlite3_prepare_v2(db, q[i], -1, &st[nst], NULL) !=
		    SQLITE_OK) {
			while (nst > 0)
				sqlite3_finalize(st[--nst]);
			run(all);
			return;
		}
		nst++;
	}
	names();
	for (i = 0; i < nst; i++)
		if ((live[i] = step(st[i])))
			start[i] = sqlite3_column_int64(st[i], COL_START);
	for (;;) {
		next = -1;
		for (i = 0; i < nst; i++)
			if (live[i] && (next == -1 || start[i] < start[next]))
				next = i;
		if (next == -1)
			break;
		putrow(st[next]);
		if ((live[next] = step(st[next])))
			start[next] = sqlite3_column_int64(st[next],
			    COL_START);
	}
	for (i = 0; i < nst; i++)
		sqlite3_finalize(st[i]);
}

/* Order launch lines as the query does: by kernel rowid, then call's. */
static int
tieorder(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->krowid != y->krowid)
		return x->krowid < y->krowid ? -1 : 1;
	return (x->crowid > y->crowid) - (x->crowid < y->crowid);
}

/* Write the lines held, of launches that start together, in order. */
static void
flushties(void)
{
	size_t i;

	if (nties > 1)
		qsort(ties, nties, sizeof(ties[0]), tieorder);
	for (i = 0; i < nties; i++)
		putline(&ties[i]);
	nties = 0;
}

/* What a line needs of an operation of the join, as read. */
struct kernel {
	int64_t		 pid;		/* -1 for none */
	struct col	 start, end, device, stream, nameid;
};

/*
 * A table of GPU operations that the join reads in rowid order, put in
 * (correlation id, rowid) order, HEAP_MAX held at most: the kernels, and
 * with -l the copies, memsets and graph launches too, in the order of
 * launch lines that start together.  nsys writes them nearly in that
 * order, which a struct ordq takes at little cost: each held is its
 * (corr, rowid) and its slot in the table's ops.
 */
enum { OP_KERNEL, OP_MEMCPY, OP_MEMSET, OP_GRAPH, NOP };
static const char *const optables[NOP] = {
	"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
	"CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"
};
static const char *const opkinds[NOP] = {
	"kernel", "memcpy", "memset", "other"
};
struct optable {
	int		 op;		/* OP_KERNEL... */
	sqlite3_stmt	*q;
	int		 live;		/* q is at a row not yet taken */
	struct kernel	*ops;		/* HEAP_MAX slots */
	struct ordq	 held;		/* by (corr, rowid), of a slot each */
	uint32_t	*freeslots;	/* the slots not held, a stack */
	struct ordent	 last;		/* the one taken last: the next
					   must come after it */
	int		 next;		/* nextop's answer for e */
	struct ordent	 e;		/* the next, where next is 1 */
};
static struct optable optab[NOP];
static size_t noptab;

/*
 * A launch line of the join, held until the calls that start in its ns
 * have been read, and ordered as the query orders them: by its table,
 * then its row.
 */
struct lline {
	int64_t		 cstart, cend, tid;	/* of the call */
	int64_t		 start, end;		/* of the operation */
	struct col	 device, stream;
	int		 op;
	int64_t		 rowid;
};
/* -l: the launch lines, and their file; whether the join writes them;
   -L: they are the output, in place of the intervals. */
static const char *launchpath;
static FILE *launchfp;
static int ljoin, Lflag;
static struct lline *lties;
static size_t nlties, ltiescap;

/*
 * The next operation of a table by (correlation id, rowid), of those
 * with one: 1 and it in t->e; 0 past the last; -1 where the table cannot
 * be joined here, its ids not integers or not in order within the
 * HEAP_MAX held.  Its slot is given back at once: it is read before the
 * next call.
 */
static int
nextop(struct optable *t)
{
	struct kernel *kp;
	struct col corr, pid;
	uint32_t slot;
	int kernel = t->op == OP_KERNEL;

	while (t->live && ordq_len(&t->held) < HEAP_MAX) {
		corr = getcol(t->q, KERN_CORR);
		if (corr.type != SQLITE_NULL) {
			pid = getcol(t->q, KERN_PID);
			if (corr.type != SQLITE_INTEGER ||
			    (pid.type != SQLITE_INTEGER &&
			    pid.type != SQLITE_NULL))
				return -1;
			slot = t->freeslots[HEAP_MAX - ordq_len(&t->held) - 1];
			kp = &t->ops[slot];
			/* -1 is no pid: it has bits out of PID_BITS. */
			kp->pid = pid.type == SQLITE_NULL ? -1 : pid.v;
			if (kflag || ljoin || !kernel) {
				kp->start = getcol(t->q, KERN_START);
				kp->end = getcol(t->q, KERN_END);
			}
			if (!bflag || ljoin || !kernel)
				kp->device = getcol(t->q, KERN_DEVICE);
			if (ljoin)
				kp->stream = getcol(t->q, KERN_STREAM);
			if (!bflag && kernel) {
				kp->nameid = getcol(t->q, KERN_NAMEID);
				if (kp->nameid.type != SQLITE_INTEGER &&
				    kp->nameid.type != SQLITE_NULL)
					return -1;
			}
			ordq_push(&t->held, corr.v,
			    sqlite3_column_int64(t->q, KERN_ROWID), slot);
		}
		t->live = step(t->q);
	}
	if (ordq_len(&t->held) == 0)
		return 0;
	t->e = ordq_pop(&t->held);
	t->freeslots[HEAP_MAX - ordq_len(&t->held) - 1] = t->e.val;
	if (t->e.key < t->last.key ||
	    (t->e.key == t->last.key && t->e.tie < t->last.tie))
		return -1;
	t->last = t->e;
	return 1;
}

/* Hold the line of an API call and a kernel that joins it. */
static void
hold(sqlite3_stmt *c, const struct optable *t)
{
	const struct kernel *kp = &t->ops[t->e.val];
	struct line *l;

	if (nties == tiescap) {
		tiescap = tiescap ? 2 * tiescap : 64;
		if ((ties = reallocarray(ties, tiescap, sizeof(ties[0]))) ==
		    NULL)
			err(1, NULL);
	}
	if (nties == HOLD_MAX)
		longjmp(*joinfail, 1);
	l = &ties[nties++];
	l->krowid = t->e.tie;
	l->crowid = sqlite3_column_int64(c, CALL_ROWID);
	if (kflag) {
		l->src = SRC_KERNEL;
		l->rowid = l->krowid;
		l->start = kp->start;
		l->end = kp->end;
	} else {
		l->src = SRC_RUNTIME;
		l->rowid = l->crowid;
		l->start = getcol(c, CALL_START);
		l->end = getcol(c, CALL_END);
	}
	l->device = kp->device;
	l->stream.type = SQLITE_NULL;
	l->nameid = kp->nameid;
	l->nameval = NULL;
	l->name = NULL;
	l->namelen = 0;
}

/*
 * Hold the launch line of an API call, of thread tid, and an operation
 * that joins it.  What the query's lines would not show as the join's
 * (a time that is not a non-negative integer, an end before its start,
 * an id not an integer) is the query's to tell of.
 */
static void
hold_launch(sqlite3_stmt *c, int64_t tid, const struct optable *t)
{
	const struct kernel *kp = &t->ops[t->e.val];
	struct col cstart = getcol(c, CALL_START), cend = getcol(c, CALL_END);
	struct lline *l;

	if (cstart.type != SQLITE_INTEGER || cend.type != SQLITE_INTEGER ||
	    kp->start.type != SQLITE_INTEGER ||
	    kp->end.type != SQLITE_INTEGER || cstart.v < 0 ||
	    cend.v < cstart.v || kp->start.v < 0 || kp->end.v < kp->start.v ||
	    (kp->device.type != SQLITE_INTEGER &&
	    kp->device.type != SQLITE_NULL) ||
	    (kp->stream.type != SQLITE_INTEGER &&
	    kp->stream.type != SQLITE_NULL) || nlties == HOLD_MAX)
		longjmp(*joinfail, 1);
	if (nlties == ltiescap) {
		ltiescap = ltiescap ? 2 * ltiescap : 64;
		if ((lties = reallocarray(lties, ltiescap, sizeof(*lties))) ==
		    NULL)
			err(1, NULL);
	}
	l = &lties[nlties++];
	l->cstart = cstart.v;
	l->cend = cend.v;
	l->tid = tid;
	l->start = kp->start.v;
	l->end = kp->end.v;
	l->device = kp->device;
	l->stream = kp->stream;
	l->op = t->op;
	l->rowid = t->e.tie;
}

/* Order launch lines of one call start as the query does. */
static int
lineorder(const void *a, const void *b)
{
	const struct lline *x = a, *y = b;

	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return (x->rowid > y->rowid) - (x->rowid < y->rowid);
}

/* An id column and a tab at p: "-" for NULL. */
static char *
put_lid(const struct col *c, char *p)
{
	if (c->type == SQLITE_NULL)
		*p++ = '-';
	else
		p = fmt_int(p, c->v);
	*p++ = '\t';
	return p;
}

/* Write the launch lines held, of calls that start together, in order. */
static void
flushlaunches(void)
{
	/* The thread of the line before, written: most are of one. */
	static char thread[2 * 24 + 2];
	static size_t threadlen;
	static int64_t tid = -1;
	const struct lline *l;
	char buf[8 * 24 + 32], *p;
	size_t i;

	if (nlties > 1)
		qsort(lties, nlties, sizeof(*lties), lineorder);
	for (i = 0; i < nlties; i++) {
		l = &lties[i];
		p = fmt_int(buf, l->cstart);
		*p++ = '\t';
		p = fmt_int(p, l->cend);
		*p++ = '\t';
		if (l->tid != tid || threadlen == 0) {
			tid = l->tid;
			threadlen = fmt_int(thread, ((uint64_t)tid >> 24) &
			    0xFFFFFF) - thread;
			thread[threadlen++] = ':';
			threadlen = fmt_int(thread + threadlen, tid &
			    0xFFFFFF) - thread;
			thread[threadlen++] = '\t';
		}
		memcpy(p, thread, threadlen);
		p += threadlen;
		p = fmt_int(p, l->start);
		*p++ = '\t';
		p = fmt_int(p, l->end);
		*p++ = '\t';
		p = stpcpy(p, opkinds[l->op]);
		*p++ = '\t';
		p = put_lid(&l->device, p);
		p = put_lid(&l->stream, p);
		/* No category or name: the time account needs none. */
		memcpy(p, "-\t-\n", 4);
		fwrite_unlocked(buf, 1, p + 4 - buf, launchfp);
	}
	nlties = 0;
}

/*
 * Write the lines of cuda_kern_exec_trace, joining each API call, in
 * rowid order, to the kernels of its correlation id and process, in
 * correlation id order, and with -l to its copies, memsets and graph
 * launches too: 1, or 0 where the tables are not in the order that
 * needs.  The lines of calls that start in the same ns are held and
 * ordered as the queries order them.
 */
static int
join(void)
{
	char q[512];
	struct col start, corr, tid;
	struct optable *t;
	int64_t pid, groupstart = 0, lgroupstart = 0, prevstart = INT64_MIN;
	int64_t prevcorr = INT64_MIN;
	uint32_t slot;
	long together = 0;
	size_t i;
	int ok = 1;

	/* A table that cannot be read so is the query's to tell of. */
	if (rowidnamed(tables[SRC_RUNTIME]) ||
	    sqlite3_prepare_v2(db, join_calls, -1, &callq, NULL) != SQLITE_OK)
		return 0;
	for (i = 0; i < NOP; i++) {
		if (i > OP_KERNEL && (!ljoin ||
		    !export_hastable(db, path, optables[i])))
			continue;
		t = &optab[noptab++];
		t->op = i;
		if (i == OP_KERNEL)
			snprintf(q, sizeof(q), join_ops, kflag ||
			    ljoin ? "start, end" : "NULL, NULL",
			    !bflag || ljoin ? "deviceId" : "NULL",
			    bflag ? "NULL" : "demangledName",
			    ljoin ? "streamId" : "NULL",
			    optables[i]);
		else
			snprintf(q, sizeof(q), join_ops, "start, end",
			    "deviceId", "NULL", "streamId", optables[i]);
		if (rowidnamed(optables[i]) ||
		    sqlite3_prepare_v2(db, q, -1, &t->q, NULL) != SQLITE_OK)
			return 0;
		if ((t->ops = calloc(HEAP_MAX, sizeof(*t->ops))) == NULL ||
		    (t->freeslots = calloc(HEAP_MAX,
		    sizeof(*t->freeslots))) == NULL)
			err(1, NULL);
		for (slot = 0; slot < HEAP_MAX; slot++)
			t->freeslots[slot] = slot;
		t->held = (struct ordq){ 0 };
		t->last = (struct ordent){ INT64_MIN, INT64_MIN, 0 };
	}
	names();
	for (i = 0; i < noptab; i++) {
		optab[i].live = step(optab[i].q);
		if ((optab[i].next = nextop(&optab[i])) == -1)
			ok = 0;
	}
	/* Past the last operation, the calls must still be in order. */
	while (ok && step(callq)) {
		start = getcol(callq, CALL_START);
		corr = getcol(callq, CALL_CORR);
		tid = getcol(callq, CALL_TID);
		together = start.v == prevstart ? together + 1 : 1;
		ok = start.type == SQLITE_INTEGER && start.v >= prevstart &&
		    together <= TIES_MAX &&
		    (tid.type == SQLITE_INTEGER || tid.type == SQLITE_NULL) &&
		    (corr.type == SQLITE_NULL ||
		    (corr.type == SQLITE_INTEGER && corr.v > prevcorr));
		prevstart = start.v;
		if (!ok || corr.type == SQLITE_NULL)
			continue;
		prevcorr = corr.v;
		if (tid.type == SQLITE_NULL)
			continue;
		pid = (int64_t)((uint64_t)tid.v & PID_BITS);
		for (i = 0; ok && i < noptab; i++) {
			t = &optab[i];
			while (t->next == 1 && t->e.key < corr.v)
				t->next = nextop(t);
			for (; t->next == 1 && t->e.key == corr.v;
			    t->next = nextop(t)) {
				if (t->ops[t->e.val].pid != pid)
					continue;
				if (t->op == OP_KERNEL && !Lflag) {
					if (nties > 0 && start.v != groupstart)
						flushties();
					groupstart = start.v;
					hold(callq, t);
				}
				if (!ljoin)
					continue;
				if (nlties > 0 && start.v != lgroupstart)
					flushlaunches();
				lgroupstart = start.v;
				hold_launch(callq, tid.v, t);
			}
			ok = t->next != -1;
		}
	}
	/*
	 * Past the last call, the operations must still be in order: one
	 * that comes too late for the heap may be of an early call.
	 */
	for (i = 0; ok && i < noptab; i++) {
		while (optab[i].next == 1)
			optab[i].next = nextop(&optab[i]);
		ok = optab[i].next != -1;
	}
	if (!ok)
		return 0;
	flushties();
	if (ljoin)
		flushlaunches();
	return 1;
}

/* The query's launch lines (export_launchquery), to launchfp. */
static void
launchquery(void)
{
	char q[4096];
	sqlite3_stmt *st;
	const char *s;
	int64_t v[6];
	int i, len;

	if (!export_launchquery(db, path, q, sizeof(q), 0))
		return;		/* no GPU work: no launches */
	st = prepare(q);
	while (step(st)) {
		for (i = 0; i < 6; i++) {
			if (sqlite3_column_type(st, i) != SQLITE_INTEGER ||
			    (v[i] = sqlite3_column_int64(st, i)) < 0)
				errx(1, "%s: a launch's time or thread that is "
				    "not a non-negative integer: not an nsys "
				    "export?", path);
		}
		if (v[1] < v[0] || v[5] < v[4])
			errx(1, "%s: an interval ends (%lld) before it starts "
			    "(%lld)", path, (long long)(v[1] < v[0] ? v[1] :
			    v[5]), (long long)(v[1] < v[0] ? v[0] : v[4]));
		fprintf(launchfp, "%lld\t%lld\t%lld:%lld\t%lld\t%lld\t%s\t",
		    (long long)v[0], (long long)v[1], (long long)v[2],
		    (long long)v[3], (long long)v[4], (long long)v[5],
		    (const char *)sqlite3_column_text(st, 6));
		for (i = 7; i <= 8; i++) {
			s = (const char *)sqlite3_column_text(st, i);
			len = sqlite3_column_bytes(st, i);
			if (s == NULL)
				fputs("-", launchfp);
			else if (memchr(s, '\0', len) != NULL ||
			    !utf8_valid(s, len))
				errx(1, "%s: a device or stream holds a NUL "
				    "byte or is not UTF-8", path);
			else
				fput_escaped(s, len, launchfp);
			putc('\t', launchfp);
		}
		fputs("-\t-\n", launchfp);
	}
	sqlite3_finalize(st);
}

/* The join, its lines written: 1, or 0 where it could not be made. */
static int
tryjoin(void)
{
	jmp_buf failed;
	volatile int joined = 0;
	size_t i;

	if (setjmp(failed) == 0) {
		joinfail = &failed;
		joined = join();
	}
	joinfail = NULL;
	sqlite3_finalize(callq);
	for (i = 0; i < noptab; i++) {
		sqlite3_finalize(optab[i].q);
		free(optab[i].ops);
		ordq_free(&optab[i].held);
		free(optab[i].freeslots);
	}
	noptab = 0;
	nties = nlties = 0;
	return joined;
}

/* The launch lines the join wrote go, unread, for the query's. */
static void
relaunch(void)
{
	__fpurge(launchfp);
	clearerr(launchfp);
	if (ftruncate(fileno(launchfp), 0) == -1 ||
	    fseek(launchfp, 0, SEEK_SET) == -1)
		err(1, "%s", launchpath);
	launchquery();
}

/*
 * Write the lines of cuda_kern_exec_trace, launches or their kernels.
 * nsys writes no kernel table for a run without kernels (and SKIPs the
 * report): such an export, of CUDA API calls, has no launches.  The join
 * made here learns only as it goes whether the tables are in its order,
 * so its lines go to a temporary file, and to stdout once it has made
 * them all; else the query's lines go instead.
 */
static void
launches(void)
{
	char q[1024], buf[1 << 16];
	const char *dir;
	static const char *const tmpdirs[] = {
		"$SQLITE_TMPDIR", "$TMPDIR", "/var/tmp", "/usr/tmp", "/tmp", "."
	};
	struct stat sb;
	ssize_t n, off, w;
	size_t i;
	int joined, out, tmp;

	needtable(tables[SRC_RUNTIME]);
	/*
	 * The join's launch lines go to the launch file as they are made:
	 * where the join fails, it is emptied for the query's.  One that
	 * cannot be emptied gets the query's at once.
	 */
	ljoin = launchfp != NULL && fstat(fileno(launchfp), &sb) == 0 &&
	    S_ISREG(sb.st_mode);
	if (launchfp != NULL && (!ljoin ||
	    !export_hastable(db, path, tables[SRC_KERNEL]))) {
		ljoin = 0;
		launchquery();
	}
	if (!export_hastable(db, path, tables[SRC_KERNEL]))
		return;
	needtable("StringIds");
	/* With -L, the launch lines alone, in place of the others. */
	if (Lflag) {
		if (ljoin && !tryjoin())
			relaunch();
		return;
	}

	/*
	 * Where SQLite puts its own, the first that takes a file; with
	 * none, or one that fills, the query makes the lines, as it did.
	 */
	tmp = -1;
	for (i = 0; tmp == -1 && i < sizeof(tmpdirs) / sizeof(tmpdirs[0]);
	    i++) {
		if ((dir = tmpdirs[i][0] == '$' ? getenv(tmpdirs[i] + 1) :
		    tmpdirs[i]) == NULL || *dir == '\0')
			continue;
		snprintf(q, sizeof(q), "%s/sqlite2intervals.XXXXXX", dir);
		if ((tmp = mkstemp(q)) != -1)
			unlink(q);
	}
	q[0] = '\0';
	add(q, sizeof(q), kflag ? exec_kernel : exec_launch);
	add(q, sizeof(q), exec_from);
	if (tmp == -1) {
		run(q);
		if (ljoin)
			launchquery();
		return;
	}
	if (fflush(stdout) == EOF || (out = dup(STDOUT_FILENO)) == -1 ||
	    dup2(tmp, STDOUT_FILENO) == -1)
		err(1, "%s", out_stdout_name());
	joined = tryjoin();
	if (ljoin && !joined)
		relaunch();
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* What did not fit goes with the file, unwritten. */
		__fpurge(stdout);
		clearerr(stdout);
		joined = 0;
	}
	if (dup2(out, STDOUT_FILENO) == -1)
		err(1, "%s", out_stdout_name());
	if (joined) {
		if (lseek(tmp, 0, SEEK_SET) == -1)
			err(1, "temporary file");
		while ((n = read(tmp, buf, sizeof(buf))) > 0)
			for (off = 0; off < n; off += w)
				if ((w = write(STDOUT_FILENO, buf + off,
				    n - off)) == -1)
					err(1, "%s", out_stdout_name());
		if (n == -1)
			err(1, "temporary file");
	} else	/* What the join wrote goes with the file, unread. */
		run(q);
	close(out);
	close(tmp);
}

int
main(int argc, char *argv[])
{
	const char *type = "gpu";
	int ch;

	while ((ch = getopt_long(argc, argv, "bhkLl:m:o:t:", helpopt, NULL)) !=
	    -1) {
		switch (ch) {
		case 'b':
			bflag = 1;
			break;
		case 'h':
			usage(0);
			break;
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
		case 't':
			type = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || (strcmp(type, "gpu") != 0 &&
	    strcmp(type, "launch") != 0) || (mempath != NULL &&
	    (bflag || strcmp(type, "gpu") != 0)) || ((launchpath != NULL ||
	    Lflag) && (kflag || strcmp(type, "launch") != 0)) ||
	    (launchpath != NULL && Lflag))
		usage(EXIT_USAGE);
	path = argv[0];

	db = export_open(path);
	if (sqlite3_create_function(db, "instartorder", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, NULL, startorder_step,
	    startorder_final) != SQLITE_OK)
		export_err(db, path);
	if (outpath != NULL)
		out_stdout(outpath);
	/* glibc ignores the size unless it is given the buffer too. */
	buffer_stdout();
	/* With -o, each output is renamed into place whole, or left out. */
	if (mempath != NULL)
		memfp = out_side(mempath, outpath != NULL);
	if (launchpath != NULL)
		launchfp = out_side(launchpath, outpath != NULL);
	if (Lflag) {
		launchfp = stdout;
		launchpath = out_stdout_name();
	}

	if (strcmp(type, "gpu") == 0)
		gpu();
	else
		launches();

	sqlite3_finalize(nameq);
	if (sqlite3_close(db) != SQLITE_OK)
		export_err(db, path);
	if (memfp != NULL)
		out_close(memfp, mempath);
	if (launchfp != NULL && !Lflag)
		out_close(launchfp, launchpath);
	close_stdout();
	return 0;
}
