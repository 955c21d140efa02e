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
 */

#include <err.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * ALL order), each table's in rowid order (its scans).
 */
static const char gpu_kernel[] =
    "SELECT start, end, 0, deviceId, streamId, NULL, rowid, demangledName"
    " FROM CUPTI_ACTIVITY_KIND_KERNEL";
static const char gpu_memcpy[] =
    "SELECT m.start, m.end, 1, m.deviceId, m.streamId,"
    " '[CUDA memcpy ' || o.label || ']', m.rowid, NULL"
    " FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m"
    " LEFT JOIN memcpy_oper AS o ON o.id = m.copyKind";
static const char gpu_memset[] =
    "SELECT start, end, 2, deviceId, streamId, '[CUDA memset]', rowid,"
    " NULL FROM CUPTI_ACTIVITY_KIND_MEMSET";
static const char gpu_order[] = " ORDER BY 1, 3, 7";

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

/* A query of the columns above that selects nothing. */
static const char no_rows[] = "SELECT 0, 0, 0, 0, 0, NULL, 0, NULL WHERE 0";

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

/* The query of cuda_gpu_trace, for the tables the export has. */
static void
gpuquery(char *q, size_t qsize)
{
	int haskernel, hasmemcpy, hasmemset;
	const char *sep = "";

	haskernel = export_hastable(db, path, tables[SRC_KERNEL]);
	hasmemcpy = export_hastable(db, path, tables[SRC_MEMCPY]);
	hasmemset = export_hastable(db, path, tables[SRC_MEMSET]);
	if (!haskernel && !hasmemcpy && !hasmemset)
		errx(1, "%s: not an nsys SQLite export (no table %s, "
		    "_MEMCPY or _MEMSET)", path, tables[SRC_KERNEL]);
	if (haskernel)
		needtable("StringIds");
	if (kflag)
		hasmemcpy = hasmemset = 0;
	q[0] = '\0';
	if (hasmemcpy) {
		add(q, qsize, "WITH memcpy_oper(id, label) AS (");
		add(q, qsize,
		    export_hastable(db, path, "ENUM_CUDA_MEMCPY_OPER") ?
		    "SELECT id, label FROM ENUM_CUDA_MEMCPY_OPER" :
		    builtin_memcpy_oper);
		add(q, qsize, ") ");
	}
	if (haskernel) {
		add(q, qsize, gpu_kernel);
		sep = " UNION ALL ";
	} else if (kflag)	/* no kernels */
		add(q, qsize, no_rows);
	if (hasmemcpy) {
		add(q, qsize, sep);
		add(q, qsize, gpu_memcpy);
		sep = " UNION ALL ";
	}
	if (hasmemset) {
		add(q, qsize, sep);
		add(q, qsize, gpu_memset);
	}
	add(q, qsize, gpu_order);
}

/*
 * The query of cuda_kern_exec_trace, launches or their kernels.  nsys
 * writes no kernel table for a run without kernels (and SKIPs the
 * report): such an export, of CUDA API calls, has no launches.
 */
static void
execquery(char *q, size_t qsize, int launch)
{
	needtable(tables[SRC_RUNTIME]);
	q[0] = '\0';
	if (!export_hastable(db, path, tables[SRC_KERNEL])) {
		add(q, qsize, no_rows);
		return;
	}
	needtable("StringIds");
	add(q, qsize, launch ? exec_launch : exec_kernel);
	add(q, qsize, exec_from);
}

/* Exit naming the row of the export the current result comes from. */
static void
rowerr(sqlite3_stmt *st, const char *what, const char *detail)
{
	errx(1, "%s: %s row %lld: %s%s", path,
	    tables[sqlite3_column_int(st, COL_SRC)],
	    (long long)sqlite3_column_int64(st, COL_ROWID), what, detail);
}

/* The start or end column of the current result, in ns. */
static int64_t
ns(sqlite3_stmt *st, int col, const char *what)
{
	int64_t v;

	switch (sqlite3_column_type(st, col)) {
	case SQLITE_INTEGER:
		break;
	case SQLITE_NULL:
		rowerr(st, what, " is NULL");
		break;
	default:
		rowerr(st, what, " is not an integer");
	}
	if ((v = sqlite3_column_int64(st, col)) < 0)
		rowerr(st, what, " is negative");
	return v;
}

/* Write the device or stream column and a tab at p, "-" for NULL. */
static char *
put_id(sqlite3_stmt *st, int col, const char *what, char *p)
{
	switch (sqlite3_column_type(st, col)) {
	case SQLITE_NULL:
		*p++ = '-';
		*p++ = '\t';
		return p;
	case SQLITE_INTEGER:
		p = fmt_int(p, sqlite3_column_int64(st, col));
		*p++ = '\t';
		return p;
	default:
		rowerr(st, what, " is not an integer");
		return p;
	}
}

/* Exit unless the other filters can read a line with this name. */
static void
checkname(sqlite3_stmt *st, const char *name, int len)
{
	char detail[64];

	if ((size_t)len > H3_MAXFIELD) {
		snprintf(detail, sizeof(detail), " longer than %u bytes",
		    H3_MAXFIELD);
		rowerr(st, "name", detail);
	}
	if (memchr(name, '\0', len) != NULL)
		rowerr(st, "name", " holds a NUL byte");
	if (!utf8_valid(name, len))
		rowerr(st, "name", " is not valid UTF-8");
}

/*
 * The string of a name id, or NULL if StringIds lacks it, and its length.
 * Kernels run in loops, so the same few names come again and again; the
 * cache keeps them, checked, to spare looking them up.
 */
static const char *
stringid(sqlite3_stmt *st, sqlite3_value *id, int *lenp)
{
	const char *name;
	int64_t n = -1;
	int rc, slot = 0;

	if (sqlite3_value_type(id) == SQLITE_INTEGER &&
	    (n = sqlite3_value_int64(id)) >= 0) {
		slot = n % NCACHE;
		if (cache[slot] != NULL && cache[slot]->id == n) {
			*lenp = cache[slot]->len;
			return cache[slot]->name;
		}
	}
	sqlite3_reset(nameq);
	if (sqlite3_bind_value(nameq, 1, id) != SQLITE_OK)
		export_err(db, path);
	*lenp = 0;
	if ((rc = sqlite3_step(nameq)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(nameq, 0);
		*lenp = sqlite3_column_bytes(nameq, 0);
		if (name != NULL)
			checkname(st, name, *lenp);
	} else if (rc == SQLITE_DONE)
		name = NULL;
	else
		export_err(db, path);
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
 * The name of the current result and its length: the name column, else
 * the string of the name id.  NULL, which nsys writes as an empty name,
 * when there is neither or StringIds lacks the id.
 */
static const char *
rowname(sqlite3_stmt *st, int *lenp)
{
	sqlite3_value *id;
	const char *name;

	id = sqlite3_column_value(st, COL_NAMEID);
	if (sqlite3_value_type(id) != SQLITE_NULL)
		return stringid(st, id, lenp);
	name = (const char *)sqlite3_column_text(st, COL_NAME);
	*lenp = sqlite3_column_bytes(st, COL_NAME);
	if (name != NULL)
		checkname(st, name, *lenp);
	return name;
}

/* Run the query and write an interval line for each result. */
static void
run(const char *query)
{
	sqlite3_stmt *st;
	char buf[5 * 24], *p;
	const char *name;
	int64_t start, end;
	int rc, namelen;

	if (sqlite3_prepare_v2(db, query, -1, &st, NULL) != SQLITE_OK)
		export_err(db, path);
	if (!bflag && export_hastable(db, path, "StringIds") &&
	    sqlite3_prepare_v2(db, "SELECT value FROM StringIds WHERE id = ?",
	    -1, &nameq, NULL) != SQLITE_OK)
		export_err(db, path);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		start = ns(st, COL_START, "start");
		end = ns(st, COL_END, "end");
		if (end < start) {
			char detail[64];

			snprintf(detail, sizeof(detail), " %lld before start "
			    "%lld", (long long)end, (long long)start);
			rowerr(st, "end", detail);
		}
		p = fmt_int(buf, start);
		*p++ = '\t';
		p = fmt_int(p, end);
		if (bflag) {	/* no name to look up, no ids to check */
			*p++ = '\n';
			fwrite_unlocked(buf, 1, p - buf, stdout);
			continue;
		}
		*p++ = '\t';
		p = stpcpy(p, kinds[sqlite3_column_int(st, COL_SRC)]);
		*p++ = '\t';
		p = put_id(st, COL_DEVICE, "deviceId", p);
		p = put_id(st, COL_STREAM, "streamId", p);
		*p++ = '-';
		*p++ = '\t';
		name = rowname(st, &namelen);
		fwrite_unlocked(buf, 1, p - buf, stdout);
		if (name != NULL)
			put_escaped(name, namelen);
		putchar_unlocked('\n');
	}
	if (rc != SQLITE_DONE)
		export_err(db, path);
	sqlite3_finalize(st);
	sqlite3_finalize(nameq);
}

int
main(int argc, char *argv[])
{
	char query[2048];
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
	/* glibc ignores the size unless it is given the buffer too. */
	buffer_stdout();

	if (strcmp(type, "gpu") == 0)
		gpuquery(query, sizeof(query));
	else
		execquery(query, sizeof(query), !kflag);
	run(query);

	if (sqlite3_close(db) != SQLITE_OK)
		export_err(db, path);
	close_stdout();
	return 0;
}
