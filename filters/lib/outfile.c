/*
 * outfile.c: an output file written whole or not at all where it can be,
 * else as Python writes it.  See h3prof.h.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Symbolic links open(2) follows before it gives up with ELOOP. */
#define MAXSYMLINKS	40

/* Write all of buf to fd; -1 with errno set on failure. */
static int
writeall(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, buf, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * What path names once the symbolic links it ends in are followed, as
 * open(2) follows them: for a link to nothing, the file it would create.
 * A link read relative to the directory of the link.  Allocated.
 */
static char *
resolve(const char *path)
{
	char link[PATH_MAX], *p, *q, *slash;
	struct stat st;
	ssize_t n;
	int hops;

	if ((p = strdup(path)) == NULL)
		err(1, NULL);
	for (hops = 0; lstat(p, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		if (hops == MAXSYMLINKS) {
			errno = ELOOP;
			err(1, "%s", path);
		}
		if ((n = readlink(p, link, sizeof(link))) == -1)
			err(1, "%s", path);
		if (n == sizeof(link)) {
			errno = ENAMETOOLONG;
			err(1, "%s", path);
		}
		link[n] = '\0';
		if (link[0] == '/' || (slash = strrchr(p, '/')) == NULL)
			q = strdup(link);
		else if (asprintf(&q, "%.*s/%s", (int)(slash - p), p,
		    link) == -1)
			q = NULL;
		if (q == NULL)
			err(1, NULL);
		free(p);
		p = q;
	}
	return p;
}

/*
 * A new temporary file beside path, its name in *tmpp: ".NAME.XXXXXX",
 * NAME cut short to keep the name within NAME_MAX.  -1 if none can be
 * made.
 */
static int
tempfile(const char *path, char **tmpp)
{
	const char *slash = strrchr(path, '/'), *base;
	int dirlen, baselen, fd;

	base = slash ? slash + 1 : path;
	dirlen = slash ? slash - path + 1 : 0;
	baselen = strlen(base);
	if (baselen > NAME_MAX - 8)
		baselen = NAME_MAX - 8;
	if (asprintf(tmpp, "%.*s.%.*s.XXXXXX", dirlen, path, baselen,
	    base) == -1)
		err(1, NULL);
	if ((fd = mkstemp(*tmpp)) == -1) {
		free(*tmpp);
		*tmpp = NULL;
	}
	return fd;
}

void
write_file(const char *path, const char *buf, size_t len)
{
	write_file_times(path, buf, len, NULL);
}

void
write_file_times(const char *path, const char *buf, size_t len,
    const struct timespec *times)
{
	struct stat st;
	sigset_t deadly, old;
	char *target, *tmp = NULL;
	mode_t mask;
	int fd = -1, e, exists;

	target = resolve(path);
	exists = stat(target, &st) == 0;
	/* A signal that ends us waits until the temporary file is gone:
	   an interrupted run leaves none behind. */
	sigemptyset(&deadly);
	sigaddset(&deadly, SIGHUP);
	sigaddset(&deadly, SIGINT);
	sigaddset(&deadly, SIGTERM);
	sigprocmask(SIG_BLOCK, &deadly, &old);
	if (!exists || (S_ISREG(st.st_mode) && st.st_nlink == 1 &&
	    st.st_uid == geteuid()))
		fd = tempfile(target, &tmp);
	if (fd == -1) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		/* In place, as Python opens it, and failing as Python does. */
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) == -1 ||
		    writeall(fd, buf, len) == -1 || close(fd) == -1)
			err(1, "%s", path);
		free(target);
		return;
	}
	/* The mode Python's open gives: the old one, or 0666 & ~umask. */
	if (!exists) {
		mask = umask(0);
		umask(mask);
		st.st_mode = 0666 & ~mask;
	}
	if (fchmod(fd, st.st_mode & 07777) == -1 ||
	    writeall(fd, buf, len) == -1 ||
	    (times != NULL && futimens(fd, times) == -1))
		goto fail;
	e = close(fd);
	fd = -1;
	if (e == -1 || rename(tmp, target) == -1)
		goto fail;
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(tmp);
	free(target);
	return;
fail:
	e = errno;
	if (fd != -1)
		close(fd);
	unlink(tmp);
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	err(1, "%s", path);
}

/*
 * The temporary files of out_open not yet renamed, which an exit removes.
 * A slot is set whole before the signals that read it are let in.
 */
static struct pending {
	char		*tmp;		/* the temporary name, NULL if free */
	const char	*path;		/* the name it is renamed to */
	FILE		*fp;
} pending[OUT_MAX];
static int cleanup_set;			/* atexit and the handlers are in */
/* The path of out_stdout, for messages. */
static const char *stdout_path;

/* Remove every temporary file left: async-signal-safe. */
static void
remove_pending(void)
{
	int i;

	for (i = 0; i < OUT_MAX; i++)
		if (pending[i].tmp != NULL)
			unlink(pending[i].tmp);
}

static void
on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Set up the removal once: a signal ignored (nohup) stays ignored. */
static void
set_cleanup(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM };
	struct sigaction sa, old;
	size_t i;

	if (cleanup_set)
		return;
	cleanup_set = 1;
	if (atexit(remove_pending) != 0)
		errx(1, "atexit failed");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

/*
 * A new temporary file beside path in a free slot; its descriptor.  A
 * path that is there and is no regular file (/dev/null, a FIFO) is opened
 * in place, with no slot (*pp NULL): a file renamed over it would take
 * its place.
 */
static int
out_make(const char *path, struct pending **pp)
{
	struct stat st;
	sigset_t deadly, old;
	mode_t mask;
	char *tmp;
	int fd, i;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if ((fd = open(path, O_WRONLY | O_TRUNC)) == -1)
			err(1, "%s", path);
		*pp = NULL;
		return fd;
	}
	for (i = 0; i < OUT_MAX && pending[i].tmp != NULL; i++)
		;
	if (i == OUT_MAX)
		errx(1, "%s: more than %d output files", path, OUT_MAX);
	set_cleanup();
	sigemptyset(&deadly);
	sigaddset(&deadly, SIGHUP);
	sigaddset(&deadly, SIGINT);
	sigaddset(&deadly, SIGTERM);
	sigprocmask(SIG_BLOCK, &deadly, &old);
	if ((fd = tempfile(path, &tmp)) == -1)
		err(1, "%s", path);
	pending[i].tmp = tmp;
	pending[i].path = path;
	sigprocmask(SIG_SETMASK, &old, NULL);
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) == -1)
		err(1, "%s", path);
	*pp = &pending[i];
	return fd;
}

FILE *
out_open(const char *path)
{
	struct pending *p;
	FILE *fp;
	int fd;

	fd = out_make(path, &p);
	if ((fp = fdopen(fd, "w")) == NULL)
		err(1, "%s", path);
	if (p != NULL)
		p->fp = fp;
	return fp;
}

FILE *
out_side(const char *path, int whole)
{
	FILE *fp;

	if (whole)
		return out_open(path);
	if ((fp = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	return fp;
}

/* Rename p's file into place and free its slot. */
static void
out_rename(struct pending *p)
{
	char *tmp = p->tmp;

	if (rename(tmp, p->path) == -1)
		err(1, "%s", p->path);
	/* (A signal now unlinks a name that is gone: harmless.) */
	p->tmp = NULL;
	free(tmp);
}

void
out_close(FILE *fp, const char *path)
{
	int i;

	for (i = 0; i < OUT_MAX && pending[i].fp != fp; i++)
		;
	if (fflush(fp) == EOF || ferror(fp) || fclose(fp) == EOF)
		err(1, "%s", path);
	if (i < OUT_MAX && pending[i].tmp != NULL)
		out_rename(&pending[i]);
}

void
out_stdout(const char *path)
{
	struct pending *p;
	int fd;

	fd = out_make(path, &p);
	if (dup2(fd, STDOUT_FILENO) == -1)
		err(1, "%s", path);
	close(fd);
	if (p != NULL)
		p->fp = stdout;
	stdout_path = path;
}

void
out_stdout_done(void)
{
	int i;

	for (i = 0; i < OUT_MAX; i++)
		if (pending[i].fp == stdout && pending[i].tmp != NULL)
			out_rename(&pending[i]);
}

const char *
out_stdout_name(void)
{
	int i;

	for (i = 0; i < OUT_MAX; i++)
		if (pending[i].fp == stdout && pending[i].tmp != NULL)
			return pending[i].path;
	return stdout_path != NULL ? stdout_path : "stdout";
}

void
out_stdout_next(const char *path)
{
	const char *name = out_stdout_name();

	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "%s", name);
	out_stdout_done();
	out_stdout(path);
}

/* A line of out_bystart: its start, where it is in the file, and its
   place in the order written. */
struct sline {
	int64_t		 start;
	size_t		 off, len;
	size_t		 index;
};

static int
byline(const void *a, const void *b)
{
	const struct sline *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The file's bytes, for cmpbytes: qsort passes its comparison no more. */
static const char *sortedbuf;

/* Two lines of sortedbuf by their bytes: 0 where they are the same. */
static int
cmpbytes(const struct sline *x, const struct sline *y)
{
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(sortedbuf + x->off, sortedbuf + y->off, x->len);
}

/* Lines by their bytes, and the same bytes by their place. */
static int
bybytes(const void *a, const void *b)
{
	const struct sline *x = a, *y = b;
	int c;

	if ((c = cmpbytes(x, y)) != 0)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Whether two of the n lines of the file buf, sorted by start, are the
 * same bytes: 1, their places at dup, else 0.  Two such have one start,
 * but other lines of that start may lie between them: each start's lines
 * are compared sorted by their bytes, in a copy, as the file's order
 * stays.
 */
static int
samelines(const char *buf, const struct sline *line, size_t n,
    size_t dup[2])
{
	struct sline *run = NULL;
	size_t cap = 0, i, j, k;
	int found = 0;

	sortedbuf = buf;
	for (i = 0; i < n && !found; i = j) {
		for (j = i + 1; j < n && line[j].start == line[i].start; j++)
			;
		if (j - i < 2)
			continue;
		run = grow(run, &cap, j - i, sizeof(*run));
		memcpy(run, line + i, (j - i) * sizeof(*run));
		qsort(run, j - i, sizeof(*run), bybytes);
		for (k = 1; k < j - i && !found; k++)
			if (cmpbytes(&run[k - 1], &run[k]) == 0) {
				dup[0] = run[k - 1].index;
				dup[1] = run[k].index;
				found = 1;
			}
	}
	free(run);
	return found;
}

void
out_bystart(FILE *fp, const char *path)
{
	(void)out_bystart_dups(fp, path, NULL);
}

int
out_bystart_dups(FILE *fp, const char *path, size_t dup[2])
{
	struct sline *line = NULL;
	struct stat st;
	size_t n = 0, cap = 0, off, i;
	ssize_t got;
	char *buf, *nl;
	int fd = fileno(fp), found = 0;

	if (fflush(fp) == EOF || ferror(fp) || fstat(fd, &st) == -1)
		err(1, "%s", path);
	/* Written in place to no regular file (/dev/null): gone as written. */
	if (!S_ISREG(st.st_mode))
		return 0;
	if ((buf = malloc(st.st_size + 1)) == NULL)
		err(1, NULL);
	for (off = 0; off < (size_t)st.st_size; off += got)
		if ((got = pread(fd, buf + off, st.st_size - off, off)) <= 0)
			err(1, "%s", path);
	buf[off] = '\n';
	for (off = 0; off < (size_t)st.st_size; off = nl + 1 - buf) {
		nl = memchr(buf + off, '\n', st.st_size + 1 - off);
		if (n == cap && (line = reallocarray(line, cap = cap ? 2 * cap :
		    4096, sizeof(*line))) == NULL)
			err(1, NULL);
		line[n].start = strtoll(buf + off, NULL, 10);
		line[n].off = off;
		line[n].index = n;
		line[n++].len = nl + 1 - (buf + off);
	}
	if (n > 1)
		qsort(line, n, sizeof(*line), byline);
	if (dup != NULL)
		found = samelines(buf, line, n, dup);
	if (fseeko(fp, 0, SEEK_SET) == -1 || ftruncate(fd, 0) == -1)
		err(1, "%s", path);
	for (i = 0; i < n; i++)
		fwrite_unlocked(buf + line[i].off, 1, line[i].len, fp);
	free(line);
	free(buf);
	return found;
}
