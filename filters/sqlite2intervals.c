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
	COL_ROWID, COL_NAMEID };

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
 * order and in correlation id order, as nsys writes them: both tables in
 * rowid order, with the columns the lines need (the rest NULL: -b needs
 * no kernel's device or name, only -k its interval).
 */
static const char join_calls[] =
    "SELECT start, end, correlationId, globalTid, rowid"
    " FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY rowid";
static const char join_kernels[] =
    "SELECT correlationId, globalPid, rowid, %s, %s"
    " FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid";
enum { CALL_START, CALL_END, CALL_CORR, CALL_TID, CALL_ROWID };
enum { KERN_CORR, KERN_PID, KERN_ROWID, KERN_START, KERN_END, KERN_DEVICE,
	KERN_NAMEID };

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
/* The export. */
static sqlite3 *db;
/* Looks up a kernel name in StringIds by id. */
static sqlite3_stmt *nameq;
/* The lines of the launches that start in the same ns, held to order. */
static struct line *ties;
static size_t nties, tiescap;
/* The join's API calls and kernels, read in rowid order. */
static sqlite3_stmt *callq, *kernelq;
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
	usage_exit("usage: sqlite2intervals [-bhk] [-t gpu|launch] "
	    "file.sqlite\n", status);
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
		add(all, sizeof(all), gpu_select[i]);
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
		add(q[i], sizeof(q[i]), gpu_select[i]);
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

/* What a line needs of a kernel of the join, as read. */
struct kernel {
	struct col	 start, end, device, nameid;
};
/*
 * A kernel in the heap, by (corr, rowid): what the join needs, and its
 * slot in kernels for the rest.
 */
struct heapent {
	int64_t		 corr, rowid, pid;
	uint32_t	 slot;
};
static struct kernel *kernels;	/* HEAP_MAX slots */
static struct heapent *heap;	/* least (corr, rowid) first */
static size_t nheap;
static uint32_t *freeslots;	/* the slots not in the heap, a stack */
/* The kernel the heap gave last: the next must come after it. */
static struct heapent lastkernel = { INT64_MIN, INT64_MIN, 0, 0 };

/* Whether a comes before b by (corr, rowid). */
static int
kbefore(const struct heapent *a, const struct heapent *b)
{
	return a->corr != b->corr ? a->corr < b->corr : a->rowid < b->rowid;
}

/* Add a kernel to the heap. */
static void
heappush(const struct heapent *e)
{
	size_t i = nheap++, up;

	for (; i > 0 && kbefore(e, &heap[up = (i - 1) / 2]); i = up)
		heap[i] = heap[up];
	heap[i] = *e;
}

/*
 * Take the least kernel off the heap.  The last one, which takes its
 * place, is most often among the greatest: the hole goes down to a leaf
 * by the lesser child, and it rises from there (Floyd's way: one
 * comparison a level, not two).
 */
static struct heapent
heappop(void)
{
	struct heapent top = heap[0], last = heap[--nheap];
	size_t i = 0, child, up;

	while ((child = 2 * i + 1) < nheap) {
		if (child + 1 < nheap && kbefore(&heap[child + 1],
		    &heap[child]))
			child++;
		heap[i] = heap[child];
		i = child;
	}
	for (; i > 0 && kbefore(&last, &heap[up = (i - 1) / 2]); i = up)
		heap[i] = heap[up];
	heap[i] = last;
	return top;
}

/*
 * The next kernel by (correlation id, rowid), of those with one: 1 and
 * it; 0 past the last; -1 where the kernels cannot be joined here, their
 * ids not integers or not in order within the heap.  Its slot is given
 * back at once: it is read before the next call.
 */
static int
nextkernel(sqlite3_stmt *k, int *klive, struct heapent *ep)
{
	struct heapent e;
	struct kernel *kp;
	struct col corr, pid;

	while (*klive && nheap < HEAP_MAX) {
		corr = getcol(k, KERN_CORR);
		if (corr.type != SQLITE_NULL) {
			pid = getcol(k, KERN_PID);
			if (corr.type != SQLITE_INTEGER ||
			    (pid.type != SQLITE_INTEGER &&
			    pid.type != SQLITE_NULL))
				return -1;
			e.corr = corr.v;
			e.rowid = sqlite3_column_int64(k, KERN_ROWID);
			/* -1 is no pid: it has bits out of PID_BITS. */
			e.pid = pid.type == SQLITE_NULL ? -1 : pid.v;
			e.slot = freeslots[HEAP_MAX - nheap - 1];
			kp = &kernels[e.slot];
			if (kflag) {
				kp->start = getcol(k, KERN_START);
				kp->end = getcol(k, KERN_END);
			}
			if (!bflag) {
				kp->device = getcol(k, KERN_DEVICE);
				kp->nameid = getcol(k, KERN_NAMEID);
				if (kp->nameid.type != SQLITE_INTEGER &&
				    kp->nameid.type != SQLITE_NULL)
					return -1;
			}
			heappush(&e);
		}
		*klive = step(k);
	}
	if (nheap == 0)
		return 0;
	*ep = heappop();
	freeslots[HEAP_MAX - nheap - 1] = ep->slot;
	if (kbefore(ep, &lastkernel))
		return -1;
	lastkernel = *ep;
	return 1;
}

/* Hold the line of an API call and a kernel that joins it. */
static void
hold(sqlite3_stmt *c, const struct heapent *e)
{
	const struct kernel *kp = &kernels[e->slot];
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
	l->krowid = e->rowid;
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
 * Write the lines of cuda_kern_exec_trace, joining each API call, in
 * rowid order, to the kernels of its correlation id and process, in
 * correlation id order: 1, or 0 where the tables are not in the order
 * that needs.  The lines of calls that start in the same ns are held and
 * ordered as the query orders them.
 */
static int
join(void)
{
	char q[256];
	struct col start, corr, tid;
	int64_t pid, groupstart = 0, prevstart = INT64_MIN;
	int64_t prevcorr = INT64_MIN;
	struct heapent e;
	uint32_t slot;
	long together = 0;
	int klive, kok, ok = 1;

	snprintf(q, sizeof(q), join_kernels, kflag ? "start, end" :
	    "NULL, NULL", bflag ? "NULL, NULL" : "deviceId, demangledName");
	/* A table that cannot be read so is the query's to tell of. */
	if (rowidnamed(tables[SRC_RUNTIME]) || rowidnamed(tables[SRC_KERNEL]) ||
	    sqlite3_prepare_v2(db, join_calls, -1, &callq, NULL) !=
	    SQLITE_OK ||
	    sqlite3_prepare_v2(db, q, -1, &kernelq, NULL) != SQLITE_OK)
		return 0;
	names();
	for (slot = 0; slot < HEAP_MAX; slot++)
		freeslots[slot] = slot;
	klive = step(kernelq);
	kok = nextkernel(kernelq, &klive, &e);
	/* Past the last kernel, the calls must still be in order. */
	while (ok && kok != -1 && step(callq)) {
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
		if (kok == 0 || tid.type == SQLITE_NULL)
			continue;
		pid = (int64_t)((uint64_t)tid.v & PID_BITS);
		while (kok == 1 && e.corr < corr.v)
			kok = nextkernel(kernelq, &klive, &e);
		for (; kok == 1 && e.corr == corr.v;
		    kok = nextkernel(kernelq, &klive, &e)) {
			if (e.pid != pid)
				continue;
			if (nties > 0 && start.v != groupstart)
				flushties();
			groupstart = start.v;
			hold(callq, &e);
		}
	}
	/*
	 * Past the last call, the kernels must still be in order: one that
	 * comes too late for the heap may be of an early call.
	 */
	while (ok && kok == 1)
		kok = nextkernel(kernelq, &klive, &e);
	if (!ok || kok == -1)
		return 0;
	flushties();
	return 1;
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
	jmp_buf failed;
	ssize_t n, off, w;
	size_t i;
	int out, tmp;
	volatile int joined;

	needtable(tables[SRC_RUNTIME]);
	if (!export_hastable(db, path, tables[SRC_KERNEL]))
		return;
	needtable("StringIds");

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
		return;
	}
	if (fflush(stdout) == EOF || (out = dup(STDOUT_FILENO)) == -1 ||
	    dup2(tmp, STDOUT_FILENO) == -1)
		err(1, "stdout");
	if ((kernels = calloc(HEAP_MAX, sizeof(*kernels))) == NULL ||
	    (heap = calloc(HEAP_MAX, sizeof(*heap))) == NULL ||
	    (freeslots = calloc(HEAP_MAX, sizeof(*freeslots))) == NULL)
		err(1, NULL);
	joined = 0;
	if (setjmp(failed) == 0) {
		joinfail = &failed;
		joined = join();
	}
	joinfail = NULL;
	sqlite3_finalize(callq);
	sqlite3_finalize(kernelq);
	free(kernels);
	free(heap);
	free(freeslots);
	nties = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		/* What did not fit goes with the file, unwritten. */
		__fpurge(stdout);
		clearerr(stdout);
		joined = 0;
	}
	if (dup2(out, STDOUT_FILENO) == -1)
		err(1, "stdout");
	if (joined) {
		if (lseek(tmp, 0, SEEK_SET) == -1)
			err(1, "temporary file");
		while ((n = read(tmp, buf, sizeof(buf))) > 0)
			for (off = 0; off < n; off += w)
				if ((w = write(STDOUT_FILENO, buf + off,
				    n - off)) == -1)
					err(1, "stdout");
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

	while ((ch = getopt_long(argc, argv, "bhkt:", helpopt, NULL)) != -1) {
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
	    strcmp(type, "launch") != 0))
		usage(EXIT_USAGE);
	path = argv[0];

	db = export_open(path);
	if (sqlite3_create_function(db, "instartorder", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC, NULL, NULL, startorder_step,
	    startorder_final) != SQLITE_OK)
		export_err(db, path);
	/* glibc ignores the size unless it is given the buffer too. */
	buffer_stdout();

	if (strcmp(type, "gpu") == 0)
		gpu();
	else
		launches();

	sqlite3_finalize(nameq);
	if (sqlite3_close(db) != SQLITE_OK)
		export_err(db, path);
	close_stdout();
	return 0;
}
