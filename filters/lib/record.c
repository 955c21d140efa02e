/*
 * record.c: the record of what a product was made from, h3prof(5)'s
 * Records, which reportjson(1) writes for a run's report and fresh(1)
 * writes and checks.  One writer, so that a record reads the same
 * whichever program wrote it.  See h3prof.h.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "h3prof.h"

static int64_t
ns(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t
mtime_ns(const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1)
		err(1, "%s", path);
	return ns(st.st_mtim);
}

/*
 * cp -p, tar x, rsync -a and mv keep a file's modification time but give
 * it a new change time, and most a new inode: the identity holds both
 * times and the inode, so that none of them passes for the file it
 * replaced.
 */
const char *
record_identity(const char *path, int64_t since, char buf[RECORD_IDMAX])
{
	struct stat st;

	if (stat(path, &st) == -1) {
		if (errno != ENOENT && errno != ENOTDIR)
			return NULL;
		strcpy(buf, "missing");
	} else if (since != -1 && (ns(st.st_mtim) > since ||
	    ns(st.st_ctim) > since))
		strcpy(buf, "changed");
	else
		snprintf(buf, RECORD_IDMAX, "%ju\t%ju\t%jd\t%jd\t%jd",
		    (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
		    (intmax_t)st.st_size, (intmax_t)ns(st.st_mtim),
		    (intmax_t)ns(st.st_ctim));
	return buf;
}

/* A line of the record to fp: the kind, the file's identity, its path. */
static void
put_file(FILE *fp, const char *kind, const char *path, int64_t since)
{
	char buf[RECORD_IDMAX];
	const char *id;

	if (strchr(path, '\t') != NULL || strchr(path, '\n') != NULL)
		errx(1, "%s: a tab or newline in a file name", path);
	if ((id = record_identity(path, since, buf)) == NULL)
		err(1, "%s", path);
	fprintf(fp, "%s\t%s\t%s\n", kind, id, path);
}

void
record_write(const char *path, const char *key, int64_t since,
    const char *const *inputs, size_t ninputs,
    const char *const *products, size_t nproducts)
{
	FILE *fp;
	size_t i;

	fp = out_open(path);
	fprintf(fp, "key\t%s\n", key);
	for (i = 0; i < ninputs; i++)
		put_file(fp, "input", inputs[i], since);
	for (i = 0; i < nproducts; i++)
		put_file(fp, "product", products[i], -1);
	out_close(fp, path);
}
