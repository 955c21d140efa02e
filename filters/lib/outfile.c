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
	    writeall(fd, buf, len) == -1)
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
