/*
 * export.c: the nsys SQLite export, opened and asked as every filter that
 * reads one does.
 */
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "h3prof.h"

/*
 * Every GPU operation joined to the runtime call that launched it, by
 * the call's start, as launch lines take them (export_launchquery).  The
 * mask must stay a hex literal: in decimal SQLite reads it as a float and
 * the join finds nothing.
 */
static const char launch_head[] =
    "SELECT r.start, r.end, (r.globalTid >> 24) & 0xFFFFFF,"
    " r.globalTid & 0xFFFFFF, o.start, o.end, o.kind, o.deviceId,"
    " o.streamId, o.name FROM (";
/*
 * The parts of the union of GPU work, each with its name or, for a query
 * without names, NULL (and none of the joins that give them).  Every part
 * names its columns: the first one present names those of the union.
 */
static const char launch_kernel[] =
    "SELECT k.start AS start, k.end AS end, k.correlationId AS corr,"
    " k.globalPid AS pid, 'kernel' AS kind, k.deviceId AS deviceId,"
    " k.streamId AS streamId, s.value AS name, 0 AS src, k.rowid AS rid"
    " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k"
    " LEFT JOIN StringIds AS s ON s.id = k.demangledName";
static const char launch_memcpy_enum[] =
    "SELECT m.start AS start, m.end AS end, m.correlationId AS corr,"
    " m.globalPid AS pid, 'memcpy' AS kind, m.deviceId AS deviceId,"
    " m.streamId AS streamId, '[CUDA memcpy ' || o.label || ']' AS name,"
    " 1 AS src, m.rowid AS rid"
    " FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m"
    " LEFT JOIN ENUM_CUDA_MEMCPY_OPER AS o ON o.id = m.copyKind";
static const char launch_memcpy[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'memcpy' AS kind, deviceId, streamId, '[CUDA memcpy]' AS name,"
    " 1 AS src, rowid AS rid FROM CUPTI_ACTIVITY_KIND_MEMCPY";
static const char launch_kernel_nameless[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'kernel' AS kind, deviceId, streamId, NULL AS name, 0 AS src,"
    " rowid AS rid FROM CUPTI_ACTIVITY_KIND_KERNEL";
static const char launch_memcpy_nameless[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'memcpy' AS kind, deviceId, streamId, NULL AS name,"
    " 1 AS src, rowid AS rid FROM CUPTI_ACTIVITY_KIND_MEMCPY";
static const char launch_memset[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'memset' AS kind, deviceId, streamId, '[CUDA memset]' AS name,"
    " 2 AS src, rowid AS rid FROM CUPTI_ACTIVITY_KIND_MEMSET";
/* A CUDA graph launch of --cuda-graph-trace=graph, its kernels unseen. */
static const char launch_memset_nameless[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'memset' AS kind, deviceId, streamId, NULL AS name,"
    " 2 AS src, rowid AS rid FROM CUPTI_ACTIVITY_KIND_MEMSET";
static const char launch_graph[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'other' AS kind, deviceId, streamId,"
    " '[CUDA graph ' || graphId || ']' AS name, 3 AS src, rowid AS rid"
    " FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
static const char launch_graph_nameless[] =
    "SELECT start, end, correlationId AS corr, globalPid AS pid,"
    " 'other' AS kind, deviceId, streamId, NULL AS name, 3 AS src,"
    " rowid AS rid FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE";
static const char launch_tail[] =
    ") AS o JOIN CUPTI_ACTIVITY_KIND_RUNTIME AS r"
    " ON o.corr = r.correlationId"
    " AND o.pid = (r.globalTid & 0xFFFFFFFFFF000000)"
    " ORDER BY r.start, o.src, o.rid";


/* Exit with SQLite's word on what went wrong with the export at path. */
void
export_err(sqlite3 *db, const char *path)
{
	if (sqlite3_errcode(db) == SQLITE_NOTADB)
		errx(1, "%s: not an nsys SQLite export (not an SQLite "
		    "database)", path);
	errx(1, "%s: %s", path, sqlite3_errmsg(db));
}

/*
 * Open the export read-only and immutable, through a URI: SQLite then
 * neither locks nor writes anything, so an export in a read-only
 * directory can be read.
 */
sqlite3 *
export_open(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	struct stat sb;
	const unsigned char *s;
	sqlite3 *db = NULL;
	char *uri, *p;
	int fd;

	/* SQLite says only "unable to open database file"; open(2) says why. */
	if ((fd = open(path, O_RDONLY)) == -1 || fstat(fd, &sb) == -1)
		err(1, "%s", path);
	if (S_ISDIR(sb.st_mode))
		errx(1, "%s: is a directory", path);
	close(fd);

	if ((uri = malloc(3 * strlen(path) + sizeof("file://?immutable=1")))
	    == NULL)
		err(1, NULL);
	/* After "file://" an absolute "//x" does not name a host x. */
	p = stpcpy(uri, path[0] == '/' ? "file://" : "file:");
	for (s = (const unsigned char *)path; *s != '\0'; s++) {
		if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= '0' && *s <= '9') || strchr("/-._~", *s) != NULL)
			*p++ = *s;
		else {
			*p++ = '%';
			*p++ = hex[*s >> 4];
			*p++ = hex[*s & 15];
		}
	}
	strcpy(p, "?immutable=1");
	/* One thread: no mutex around every call. */
	if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		if (db == NULL)
			errx(1, "%s: out of memory", path);
		export_err(db, path);
	}
	free(uri);
	return db;
}

/* Whether the export has a table (or view, as nsys allows) of this name. */
int
export_hastable(sqlite3 *db, const char *path, const char *name)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master"
	    " WHERE type IN ('table', 'view') AND name = ?", -1, &st, NULL) !=
	    SQLITE_OK ||
	    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC) != SQLITE_OK)
		export_err(db, path);
	if ((rc = sqlite3_step(st)) != SQLITE_ROW && rc != SQLITE_DONE)
		export_err(db, path);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW;
}

/*
 * The query of the launch lines of the export, which has a table of
 * runtime calls, into q of size bytes: of every kernel, copy, memset and
 * graph launch (of --cuda-graph-trace=graph) joined to its call, ordered
 * by the call's start, then by table and row.  Its columns are the call's
 * start, end, process and thread, and the operation's start, end, kind,
 * device, stream and name (with names 0, NULL).  0 where the export has
 * no GPU tables: no launches.
 */
int
export_launchquery(sqlite3 *db, const char *path, char *q, size_t size,
    int names)
{
	const char *part[4], *sep = "";
	size_t i, n = 0, off;

	if (export_hastable(db, path, "CUPTI_ACTIVITY_KIND_KERNEL"))
		part[n++] = names ? launch_kernel : launch_kernel_nameless;
	if (export_hastable(db, path, "CUPTI_ACTIVITY_KIND_MEMCPY"))
		part[n++] = !names ? launch_memcpy_nameless :
		    export_hastable(db, path, "ENUM_CUDA_MEMCPY_OPER") ?
		    launch_memcpy_enum : launch_memcpy;
	if (export_hastable(db, path, "CUPTI_ACTIVITY_KIND_MEMSET"))
		part[n++] = names ? launch_memset : launch_memset_nameless;
	if (export_hastable(db, path, "CUPTI_ACTIVITY_KIND_GRAPH_TRACE"))
		part[n++] = names ? launch_graph : launch_graph_nameless;
	if (n == 0)
		return 0;
	off = snprintf(q, size, "%s", launch_head);
	for (i = 0; i < n && off < size; i++, sep = " UNION ALL ")
		off += snprintf(q + off, size - off, "%s%s", sep, part[i]);
	if (off < size)
		off += snprintf(q + off, size - off, "%s", launch_tail);
	if (off >= size)
		errx(1, "query too long");	/* the parts are fixed */
	return 1;
}
