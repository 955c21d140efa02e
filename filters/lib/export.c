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
