/*
 * nvtxranges: read the NVTX ranges of an nsys report, or the GPU work
 * with the thread that launched it, as the range lines and launch lines
 * of h3prof(5) that inrange(1) joins.  See nvtxranges(1).
 *
 * The input is an nsys SQLite export, or a CSV of `nsys stats`:
 * nvtx_pushpop_trace for ranges, cuda_kern_exec_trace for launches.
 * The queries follow nsys 2024.2's nvtx_kern_sum and nvtx_gpu_proj_sum,
 * so that inrange's figures are those reports' figures.
 */

#include <csv.h>
#include <err.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/*
 * The ranges nsys's NVTX reports count: push/pop and start/end, and their
 * NVTXT forms, that end on the thread they start on (endGlobalTid NULL);
 * one still open at the end of the trace ends at the last NVTX time.  A
 * range of a domain is named "DOMAIN:TEXT".  The thread is "PID:TID".
 */
static const char range_sql[] =
    "WITH mm(last) AS (SELECT max(max(start), max(end)) FROM NVTX_EVENTS"
    "  WHERE eventType IN (59, 60, 70, 71)),"
    " domains AS (SELECT min(start), domainId AS id, globalTid AS gtid,"
    "  text AS name FROM NVTX_EVENTS WHERE eventType = 75 GROUP BY 2, 3)"
    " SELECT e.start, ifnull(e.end, (SELECT last FROM mm)),"
    "  (e.globalTid >> 24) & 0xFFFFFF, e.globalTid & 0xFFFFFF,"
    "  CASE WHEN d.name NOT NULL AND s.value IS NOT NULL"
    "   THEN d.name || ':' || s.value"
    "  WHEN d.name NOT NULL THEN d.name || ':' || e.text"
    "  WHEN s.value NOT NULL THEN s.value ELSE e.text END"
    " FROM NVTX_EVENTS AS e"
    " LEFT JOIN domains AS d ON e.domainId = d.id"
    "  AND (e.globalTid & 0x0000FFFFFF000000) ="
    "  (d.gtid & 0x0000FFFFFF000000)"
    " LEFT JOIN StringIds AS s ON e.textId = s.id"
    " WHERE e.eventType IN (59, 60, 70, 71) AND e.endGlobalTid IS NULL"
    " ORDER BY e.start, e.rowid";

/* The CSV columns each trace needs, by header name; -1 where optional. */
enum { C_START, C_END, C_DUR, C_KSTART, C_KDUR, C_PID, C_TID, C_DEV,
	C_NAME, NCOLS };
static const char *const range_cols[NCOLS] = {
	"Start (ns)", "End (ns)", NULL, NULL, NULL, "PID", "TID", NULL, "Name"
};
static const char *const launch_cols[NCOLS] = {
	"API Start (ns)", NULL, "API Dur (ns)", "Kernel Start (ns)",
	"Kernel Dur (ns)", "PID", "TID", "DevId", "Kernel Name"
};

/* The input, as named on the command line. */
static const char *path;
/* Launch lines (-t launch), else range lines. */
static int launches;
/* -s: whether a CSV line starts before the one written before it. */
static int unsorted;
static int64_t prevstart = INT64_MIN;
/* The export. */
static sqlite3 *db;

/* The CSV being read: the columns wanted and the fields of a record. */
static struct {
	const char *const *want;	/* range_cols or launch_cols */
	int		 col[NCOLS];	/* field number of each, -1 none */
	char		*field[NCOLS];	/* the current record's, copies */
	size_t		 fieldcap[NCOLS];
	int		 nfield;	/* fields of the record so far */
	unsigned long	 lineno;	/* records read, header included */
} in;

static _Noreturn void
usage(int status)
{
	usage_exit("usage: nvtxranges [-hs] [-o output] [-t range|launch] file\n",
	    status);
}

/* A time column of the current row: a non-negative integer. */
static int64_t
ns(sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) != SQLITE_INTEGER ||
	    sqlite3_column_int64(st, col) < 0)
		errx(1, "%s: a time that is not a non-negative integer: "
		    "not an nsys export?", path);
	return sqlite3_column_int64(st, col);
}

/* A text column of the current row, escaped; "-" for NULL with dash. */
static void
put_text(sqlite3_stmt *st, int col, int dash)
{
	const char *s = (const char *)sqlite3_column_text(st, col);
	int len = sqlite3_column_bytes(st, col);

	if (s == NULL) {
		if (dash)
			putchar_unlocked('-');
		return;
	}
	if (memchr(s, '\0', len) != NULL || !utf8_valid(s, len))
		errx(1, "%s: a name holds a NUL byte or is not UTF-8", path);
	put_escaped(s, len);
}

/* Write the lines of the export. */
static void
fromsqlite(void)
{
	char query[4096];
	sqlite3_stmt *st;
	int64_t start, end;
	int rc;

	db = export_open(path);
	if (!launches) {
		/* A run traced without NVTX has no ranges: no lines. */
		if (!export_hastable(db, path, "NVTX_EVENTS"))
			return;
		if (!export_hastable(db, path, "StringIds"))
			errx(1, "%s: not an nsys SQLite export (no table "
			    "StringIds)", path);
		snprintf(query, sizeof(query), "%s", range_sql);
	} else {
		if (!export_hastable(db, path, "CUPTI_ACTIVITY_KIND_RUNTIME"))
			errx(1, "%s: not an nsys SQLite export (no table "
			    "CUPTI_ACTIVITY_KIND_RUNTIME)", path);
		/* No GPU work: no launches. */
		if (!export_launchquery(db, path, query, sizeof(query), 1))
			return;
	}
	if (sqlite3_prepare_v2(db, query, -1, &st, NULL) != SQLITE_OK)
		export_err(db, path);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		start = ns(st, 0);
		end = ns(st, 1);
		if (end < start)
			errx(1, "%s: an interval ends (%lld) before it starts "
			    "(%lld)", path, (long long)end, (long long)start);
		printf("%lld\t%lld\t%lld:%lld\t", (long long)start,
		    (long long)end, (long long)sqlite3_column_int64(st, 2),
		    (long long)sqlite3_column_int64(st, 3));
		if (!launches) {
			put_text(st, 4, 0);
			putchar_unlocked('\n');
			continue;
		}
		start = ns(st, 4);
		end = ns(st, 5);
		if (end < start)
			errx(1, "%s: an interval ends (%lld) before it starts "
			    "(%lld)", path, (long long)end, (long long)start);
		printf("%lld\t%lld\t%s\t", (long long)start, (long long)end,
		    sqlite3_column_text(st, 6));
		put_text(st, 7, 1);
		putchar_unlocked('\t');
		put_text(st, 8, 1);
		fputs_unlocked("\t-\t", stdout);
		put_text(st, 9, 0);
		putchar_unlocked('\n');
	}
	if (rc != SQLITE_DONE)
		export_err(db, path);
	sqlite3_finalize(st);
	if (sqlite3_close(db) != SQLITE_OK)
		export_err(db, path);
}

/* A CSV field that must be a non-negative integer of ns. */
static int64_t
csvns(int c)
{
	int64_t v;

	if (parse_ns(in.field[c], &v) == -1)
		errx(1, "%s:%lu: %s \"%.40s\" is not a non-negative integer",
		    path, in.lineno, in.want[c], in.field[c]);
	return v;
}

/* A CSV field, or "-" for one absent or empty. */
static const char *
csvid(int c)
{
	return in.col[c] == -1 || in.field[c][0] == '\0' ? "-" : in.field[c];
}

/* One record read: the header names the columns; the rest are written. */
static void
record(void)
{
	int64_t start, end;
	int c;

	if (in.lineno++ == 0) {
		for (c = 0; c < NCOLS; c++)
			if (in.want[c] != NULL && in.col[c] == -1 &&
			    c != C_DEV)
				errx(1, "%s:1: no column \"%s\": not an nsys "
				    "%s CSV", path, in.want[c], launches ?
				    "cuda_kern_exec_trace" :
				    "nvtx_pushpop_trace");
		return;
	}
	for (c = 0; c < NCOLS; c++)
		if (in.col[c] != -1 && in.col[c] >= in.nfield)
			errx(1, "%s:%lu: too few fields", path, in.lineno);
	start = csvns(C_START);
	if (!launches)
		end = csvns(C_END);
	else if (__builtin_add_overflow(start, csvns(C_DUR), &end))
		errx(1, "%s:%lu: start plus duration overflows 64 bits", path,
		    in.lineno);
	if (end < start)
		errx(1, "%s:%lu: end %lld before start %lld", path, in.lineno,
		    (long long)end, (long long)start);
	/* SQLite sorts an export's rows; nsys writes a CSV sorted too. */
	if (start < prevstart)
		unsorted = 1;
	prevstart = start;
	printf("%lld\t%lld\t%s:%s\t", (long long)start, (long long)end,
	    csvid(C_PID), csvid(C_TID));
	if (launches) {
		start = csvns(C_KSTART);
		if (__builtin_add_overflow(start, csvns(C_KDUR), &end))
			errx(1, "%s:%lu: kernel start plus duration overflows "
			    "64 bits", path, in.lineno);
		printf("%lld\t%lld\tkernel\t%s\t-\t-\t", (long long)start,
		    (long long)end, csvid(C_DEV));
	}
	if (!utf8_valid(in.field[C_NAME], strlen(in.field[C_NAME])))
		errx(1, "%s:%lu: name is not UTF-8", path, in.lineno);
	put_escaped(in.field[C_NAME], strlen(in.field[C_NAME]));
	putchar_unlocked('\n');
}

/* libcsv: a field ends; keep it if it is a column wanted. */
static void
field(void *s, size_t len, void *data)
{
	int c;

	for (c = 0; c < NCOLS; c++) {
		if (in.lineno == 0) {
			if (in.want[c] != NULL && strlen(in.want[c]) == len &&
			    memcmp(in.want[c], s, len) == 0)
				in.col[c] = in.nfield;
			continue;
		}
		if (in.col[c] != in.nfield)
			continue;
		if (len + 1 > in.fieldcap[c]) {
			in.fieldcap[c] = len + 1;
			if ((in.field[c] = realloc(in.field[c], len + 1)) ==
			    NULL)
				err(1, NULL);
		}
		memcpy(in.field[c], s, len);
		in.field[c][len] = '\0';
		if (memchr(s, '\0', len) != NULL)
			errx(1, "%s:%lu: NUL byte in a field", path,
			    in.lineno + 1);
	}
	in.nfield++;
}

/* libcsv: a record ends. */
static void
endrecord(int c, void *data)
{
	record();
	in.nfield = 0;
}

/* Write the lines of the CSV. */
static void
fromcsv(int fd)
{
	struct csv_parser p;
	char buf[65536];
	ssize_t n;
	size_t skip;
	int c;

	in.want = launches ? launch_cols : range_cols;
	for (c = 0; c < NCOLS; c++)
		in.col[c] = -1;
	/*
	 * Not CSV_STRICT: nsys writes a name that holds quotes but no comma
	 * unquoted, quotes and all ({"a": 1}), and CSV_STRICT rejects it.
	 */
	if (csv_init(&p, CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		errx(1, "out of memory");
	csv_set_realloc_func(&p, realloc);
	/* A byte order mark before the header is no part of it. */
	if ((n = read(fd, buf, sizeof(buf))) > 0 &&
	    (skip = utf8_bom(buf, n)) != 0)
		memmove(buf, buf + skip, n -= skip);
	for (; n > 0; n = read(fd, buf, sizeof(buf)))
		if (csv_parse(&p, buf, n, field, endrecord, NULL) != (size_t)n)
			errx(1, "%s:%lu: %s", path, in.lineno + 1,
			    csv_strerror(csv_error(&p)));
	if (n == -1)
		err(1, "%s", path);
	if (csv_fini(&p, field, endrecord, NULL) != 0)
		errx(1, "%s:%lu: %s", path, in.lineno + 1,
		    csv_strerror(csv_error(&p)));
	csv_free(&p);
	if (in.lineno == 0)
		errx(1, "%s: empty: no header", path);
}

int
main(int argc, char *argv[])
{
	char magic[16];
	const char *type = "range";
	const char *outpath = NULL;	/* -o: the lines there, not stdout */
	int ch, fd, sflag = 0;

	while ((ch = getopt_long(argc, argv, "ho:st:", helpopt, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'o':
			outpath = optarg;
			break;
		case 's':
			sflag = 1;
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
	/* -s sorts the file written, which stdout may not be. */
	if (argc != 1 || (strcmp(type, "range") != 0 &&
	    strcmp(type, "launch") != 0) || (sflag && outpath == NULL))
		usage(EXIT_USAGE);
	path = argv[0];
	launches = strcmp(type, "launch") == 0;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	if (outpath != NULL)
		out_stdout(outpath);
	buffer_stdout();
	/* An SQLite file starts so; a CSV of nsys never does. */
	if (read(fd, magic, sizeof(magic)) == sizeof(magic) &&
	    memcmp(magic, "SQLite format 3", 16) == 0) {
		close(fd);
		fromsqlite();
	} else {
		if (lseek(fd, 0, SEEK_SET) == -1)
			err(1, "%s", path);
		fromcsv(fd);
		close(fd);
	}
	if (unsorted && sflag)
		out_bystart(stdout, outpath);
	close_stdout();
	return 0;
}
