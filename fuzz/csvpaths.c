/*
 * csvpaths: the fuzz target that holds the fast path of csv2intervals(1)
 * to libcsv.  csvpaths [-bk] file runs csv2intervals and, built with
 * -DH3_NO_FASTPATH, csv2intervals-nofast on the file, both found in the
 * directory above its own, and aborts, for AFL++ to keep the input, unless
 * the two exit alike with the same output and the same messages.
 */
#include <sys/mman.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The descriptors of the AFL++ fork server, which a child must not see. */
#define FORKSRV_FD	198

/* What a run of a program left: its status, stdout and stderr. */
struct run {
	int	 status;
	char	*out, *err;
	size_t	 outlen, errlen;
};

/* All that was written to fd, from its start, allocated. */
static char *
slurp(int fd, size_t *lenp)
{
	off_t len;
	char *buf;

	if ((len = lseek(fd, 0, SEEK_END)) == -1 ||
	    (buf = malloc(len + 1)) == NULL ||
	    pread(fd, buf, len, 0) != len)
		err(1, "slurp");
	close(fd);
	*lenp = len;
	return buf;
}

static void
run(struct run *r, const char *prog, char *argv[])
{
	int out, errfd;
	pid_t pid;

	if ((out = memfd_create("stdout", 0)) == -1 ||
	    (errfd = memfd_create("stderr", 0)) == -1)
		err(1, "memfd_create");
	if ((pid = fork()) == -1)
		err(1, "fork");
	if (pid == 0) {
		close(FORKSRV_FD);
		close(FORKSRV_FD + 1);
		if (dup2(out, 1) == -1 || dup2(errfd, 2) == -1)
			_exit(127);
		execv(prog, argv);
		_exit(127);
	}
	while (waitpid(pid, &r->status, 0) == -1)
		if (errno != EINTR)
			err(1, "waitpid");
	r->out = slurp(out, &r->outlen);
	r->err = slurp(errfd, &r->errlen);
}

static int
same(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

int
main(int argc, char *argv[])
{
	char self[PATH_MAX], fast[PATH_MAX + 32], slow[PATH_MAX + 32], *dir;
	struct run f, s;
	ssize_t n;

	if (argc < 2) {
		fprintf(stderr, "usage: csvpaths [-bk] file\n");
		return 2;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) == -1)
		err(1, "/proc/self/exe");
	self[n] = '\0';
	dir = dirname(dirname(self));
	snprintf(fast, sizeof(fast), "%s/bin/csv2intervals", dir);
	snprintf(slow, sizeof(slow), "%s/csv2intervals-nofast", dir);
	/* The same name in messages: csv2intervals. */
	argv[0] = "csv2intervals";
	run(&f, fast, argv);
	run(&s, slow, argv);
	fwrite(f.err, 1, f.errlen, stderr);
	if (WIFSIGNALED(f.status) || WIFSIGNALED(s.status)) {
		fwrite(s.err, 1, s.errlen, stderr);
		fprintf(stderr, "csvpaths: killed by a signal\n");
		abort();
	}
	if (f.status != s.status || !same(f.out, f.outlen, s.out, s.outlen) ||
	    !same(f.err, f.errlen, s.err, s.errlen)) {
		fprintf(stderr, "csvpaths: the fast path and libcsv differ: "
		    "status %d and %d, %zu and %zu bytes out; libcsv says:\n",
		    WEXITSTATUS(f.status), WEXITSTATUS(s.status), f.outlen,
		    s.outlen);
		fwrite(s.err, 1, s.errlen, stderr);
		abort();
	}
	return WEXITSTATUS(f.status);
}
