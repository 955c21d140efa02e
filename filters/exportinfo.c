/*
 * exportinfo: what an nsys SQLite export tells beyond its GPU and
 * kernel-exec traces: the names of its GPUs, how many processes did GPU
 * work, and the CUDA graph launches that nsys's trace reports leave out.
 * See exportinfo(1).
 */

#include <err.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* The table of graph launches of --cuda-graph-trace=graph. */
#define GRAPH_TRACE	"CUPTI_ACTIVITY_KIND_GRAPH_TRACE"

/*
 * The graph launches whose kernels the export lacks: in graph mode nsys
 * records a graph launch as one row, of the correlationId of its
 * cudaGraphLaunch, and none of its kernels; in node mode the kernels are
 * rows of the kernel table, with that correlationId.
 */
static const char hidden_sql[] =
    "SELECT count(*) FROM " GRAPH_TRACE " AS g WHERE NOT EXISTS"
    " (SELECT 1 FROM CUPTI_ACTIVITY_KIND_KERNEL AS k"
    " WHERE k.correlationId = g.correlationId"
    " AND k.globalPid = g.globalPid)";

/*
 * In an aggregate over a table of GPU work, the rows whose start or end
 * is not a time: not an integer, before 0, or an end before its start.
 * SQLite would sum text as its number prefix and NULL as nothing.
 */
#define NOT_TIMES	"sum(typeof(start) != 'integer' OR" \
    " typeof(end) != 'integer' OR start < 0 OR end < start)"

/* The export, as named on the command line. */
static const char *path;
/* The export. */
static sqlite3 *db;
/* -g: write the graph launches as interval lines instead of facts. */
static int gflag;
/* -i: the interval lines, in start order, to merge the graph launches into. */
static const char *ivpath;
static struct ivin ivs;
/* -p: the prefix of every fact. */
static const char *prefix = "";

static _Noreturn void
usage(int status)
{
	usage_exit("usage: exportinfo [-gh] [-i intervals] [-o output] "
	    "[-p prefix] file.sqlite\n", status);
}

/* Prepare a query; step it with next. */
static sqlite3_stmt *
query(const char *sql)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		export_err(db, path);
	return st;
}

/* Step a query: 1 for a row, 0 at the end. */
static int
next(sqlite3_stmt *st)
{
	int rc;

	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		export_err(db, path);
	sqlite3_finalize(st);
	return 0;
}

/* The one integer a query returns. */
static int64_t
count(const char *sql)
{
	sqlite3_stmt *st = query(sql);
	int64_t n = 0;

	if (next(st)) {
		n = sqlite3_column_int64(st, 0);
		while (next(st))
			;
	}
	return n;
}

/* A device or stream column, "-" for NULL. */
static void
put_id(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		fputs_unlocked("-", stdout);
	else
		printf("%lld", (long long)sqlite3_column_int64(st, col));
}

/* The next line of -i's intervals into iv: 0 at their end, or without -i. */
static int
nextline(struct interval *iv)
{
	return ivpath != NULL && ivin_next(&ivs, iv);
}

/*
 * The graph launches as interval lines, kind other, by start; with -i,
 * merged into its lines as a stable merge by start of the two would
 * place them (sort -m -s -k1,1n INTERVALS LAUNCHES): of a line and a
 * launch that start together, the line first.
 */
static void
graphlines(void)
{
	struct interval iv;
	sqlite3_stmt *st = NULL;
	int64_t start;
	int more;

	more = nextline(&iv);
	if (export_hastable(db, path, GRAPH_TRACE))
		st = query("SELECT start, end, deviceId, streamId, graphId"
		    " FROM " GRAPH_TRACE " ORDER BY start, rowid");
	while (st != NULL && next(st)) {
		if (sqlite3_column_type(st, 0) != SQLITE_INTEGER ||
		    sqlite3_column_type(st, 1) != SQLITE_INTEGER ||
		    sqlite3_column_int64(st, 0) < 0 ||
		    sqlite3_column_int64(st, 1) < sqlite3_column_int64(st, 0))
			errx(1, "%s: %s: a start or end that is not a time",
			    path, GRAPH_TRACE);
		start = sqlite3_column_int64(st, 0);
		for (; more && iv.start <= start; more = nextline(&iv))
			put_interval(&iv);
		printf("%lld\t%lld\tother\t", (long long)start,
		    (long long)sqlite3_column_int64(st, 1));
		put_id(st, 2);
		putchar_unlocked('\t');
		put_id(st, 3);
		printf("\t-\t[CUDA graph %lld]\n",
		    (long long)sqlite3_column_int64(st, 4));
	}
	for (; more; more = nextline(&iv))
		put_interval(&iv);
}

/*
 * The kernels of each process, by process ID: its ID and the figures
 * follow PROCESS_FIGURES in each row.
 */
#define PROCESS_FIGURES	"count(*), sum(end - start), max(end) - min(start), " \
    NOT_TIMES

static void
put_process(sqlite3_stmt *st)
{
	long long pid = sqlite3_column_int64(st, 0);

	if (sqlite3_column_int64(st, 4) != 0)
		errx(1, "%s: CUPTI_ACTIVITY_KIND_KERNEL: a start or end that is"
		    " not a time", path);
	put_factf(prefix, sqlite3_column_int64(st, 1),
	    "process.%lld.kernel_count", pid);
	put_factf(prefix, sqlite3_column_int64(st, 2),
	    "process.%lld.kernel_ns", pid);
	put_factf(prefix, sqlite3_column_int64(st, 3),
	    "process.%lld.kernel_span_ns", pid);
}

/*
 * Most exports are of one process: one scan tells, and gives its
 * figures, where grouping by process would sort every kernel.
 */
static void
processes(void)
{
	sqlite3_stmt *st;

	st = query("SELECT (min(globalPid) >> 24) & 0xFFFFFF, " PROCESS_FIGURES
	    ", min(globalPid) = max(globalPid) AND count(globalPid) = count(*)"
	    " FROM CUPTI_ACTIVITY_KIND_KERNEL");
	if (next(st)) {
		if (sqlite3_column_int64(st, 1) == 0 ||
		    sqlite3_column_int(st, 5) == 1) {
			if (sqlite3_column_int64(st, 1) != 0)
				put_process(st);
			while (next(st))
				;
			return;
		}
		sqlite3_finalize(st);
	}
	st = query("SELECT (globalPid >> 24) & 0xFFFFFF, " PROCESS_FIGURES
	    " FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1 ORDER BY 1");
	while (next(st))
		put_process(st);
}

/* The facts: GPU names, processes, graph launches. */
static void
facts(void)
{
	static const char *const ops[] = { "CUPTI_ACTIVITY_KIND_KERNEL",
	    "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
	    GRAPH_TRACE };
	sqlite3_stmt *st;
	char sql[1024];
	const char *name, *sep = "";
	size_t i, len;
	int off;

	if (export_hastable(db, path, "TARGET_INFO_GPU")) {
		st = query("SELECT id, min(name) FROM TARGET_INFO_GPU"
		    " WHERE name IS NOT NULL GROUP BY id ORDER BY id");
		while (next(st)) {
			name = (const char *)sqlite3_column_text(st, 1);
			len = sqlite3_column_bytes(st, 1);
			if (memchr(name, '\0', len) != NULL ||
			    !utf8_valid(name, len))
				errx(1, "%s: a GPU name is not UTF-8 text",
				    path);
			printf("%sdevice.%lld.name\t", prefix,
			    (long long)sqlite3_column_int64(st, 0));
			put_escaped(name, len);
			putchar_unlocked('\n');
		}
	}
	off = snprintf(sql, sizeof(sql), "SELECT count(DISTINCT p) FROM (");
	for (i = 0; i < sizeof(ops) / sizeof(*ops); i++) {
		if (!export_hastable(db, path, ops[i]))
			continue;
		off += snprintf(sql + off, sizeof(sql) - off,
		    "%sSELECT DISTINCT globalPid AS p FROM %s", sep, ops[i]);
		sep = " UNION ";
	}
	snprintf(sql + off, sizeof(sql) - off, ")");
	if (*sep != '\0')
		put_fact(prefix, "processes", count(sql));
	if (export_hastable(db, path, "CUPTI_ACTIVITY_KIND_KERNEL"))
		processes();
	if (!export_hastable(db, path, GRAPH_TRACE) ||
	    count("SELECT count(*) FROM " GRAPH_TRACE) == 0)
		return;
	if (count("SELECT " NOT_TIMES " FROM " GRAPH_TRACE) != 0)
		errx(1, "%s: %s: a start or end that is not a time", path,
		    GRAPH_TRACE);
	put_fact(prefix, "graphs.launches",
	    count("SELECT count(*) FROM " GRAPH_TRACE));
	put_fact(prefix, "graphs.ns",
	    count("SELECT sum(end - start) FROM " GRAPH_TRACE));
	put_fact(prefix, "graphs.hidden",
	    export_hastable(db, path, "CUPTI_ACTIVITY_KIND_KERNEL") ?
	    count(hidden_sql) : count("SELECT count(*) FROM " GRAPH_TRACE));
}

int
main(int argc, char *argv[])
{
	const char *outpath = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "ghi:o:p:", helpopt, NULL)) !=
	    -1) {
		switch (ch) {
		case 'g':
			gflag = 1;
			break;
		case 'h':
			usage(0);
		case 'i':
			ivpath = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || (ivpath != NULL && !gflag))
		usage(EXIT_USAGE);
	path = argv[0];

	db = export_open(path);
	if (ivpath != NULL)
		ivin_open(&ivs, ivpath, 1);
	if (outpath != NULL)
		out_stdout(outpath);
	buffer_stdout();
	if (gflag)
		graphlines();
	else
		facts();
	if (sqlite3_close(db) != SQLITE_OK)
		export_err(db, path);
	if (ivpath != NULL)
		ivin_close(&ivs);
	close_stdout();
	return 0;
}
