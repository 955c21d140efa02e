/*
 * sweepsum: the summary of a sweep from the reports of its runs, as
 * h3summary(1) makes it: summary.json, summary.csv, groups.csv and
 * summary.md, with jq 1.6's numbers and strings, byte for byte what its
 * jq programs wrote, kernels.tsv and effects.csv.  It holds the figures of every
 * run, not its report: each report goes, written as summary.json will
 * hold it, to a scratch file that is copied in run order at the end.
 * See sweepsum(1).
 *
 * One stage a file, in sweepsum/ (sweepsum.h lists them): main reads
 * the list, reduces, judges and writes, in that order.
 */
#include <sys/file.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sweepsum/sweepsum.h"

/* The state of the stages, as sweepsum.h describes it. */
struct run *runs;
size_t nruns;
size_t nreports;
struct groups figs = { .size = sizeof(struct name) };
struct groups keys = { .size = sizeof(struct name) };
struct groups confs = { .size = sizeof(struct conf) };
struct groups elems = { .size = sizeof(struct element) };
struct groups arrays = { .size = sizeof(struct name) };
struct conf **byname;
struct conf **bytime;
size_t ntimed;
uint64_t contents;
char stamp[80];
struct scope scope;
int scopesdiffer;
char **repeat;
size_t nrepeat;
FILE *scratch;

static const char *dir;			/* -o */
/* The outputs, their temporary files, and those made so far. */
static const char *outnames[] = {
	"summary.json", "summary.csv", "groups.csv", "summary.md",
	"kernels.tsv", "effects.csv"
};
/* What a summary made again leaves behind: compares of the old one. */
static const char *stalenames[] = { "compare.json", "compare.md" };
#define NOUT	(sizeof(outnames) / sizeof(outnames[0]))
static char *tmpnames[NOUT];
static FILE *outs[NOUT];
static volatile sig_atomic_t nmade;	/* temporary files made */

static _Noreturn void usage(int);

/* An exit before the outputs are in place takes their temporary files
   with it, and so does a signal that ends us. */
static void
cleanup(void)
{
	size_t i;

	for (i = 0; i < (size_t)nmade; i++)
		unlink(tmpnames[i]);
}

static void
onsignal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A new file at path, as fopen(path, "w") makes one (mode 0666 less the
   umask) but never one that was there; -1 if there was. */
static int
create(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
}

/*
 * Hold a lock of the directory dir alone till the exit: h3compare(1)
 * reads a summary under a shared lock of it, so that no compare reads a
 * summary while it is replaced, and none writes its compare.json after
 * ours has removed the compares of the summary we replace.  The
 * directory itself is locked, so that no lock file is left in it; the
 * lock goes with the process, however it ends.
 */
static void
locksummary(void)
{
	int fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		err(1, "%s", dir);
	while (flock(fd, LOCK_EX) == -1)
		if (errno != EINTR)
			err(1, "%s: lock", dir);
}

/*
 * Our process ID and start time (field 22 of /proc/self/stat), PID-START,
 * as pipeline.mk names its temporary files: process IDs are reused, and
 * one of ours that started at another time is not us.  PID alone where
 * there is no /proc.
 */
static char *
procname(void)
{
	char buf[1024], *p, *name;
	unsigned long long start;
	size_t n = 0;
	FILE *f;
	int i;

	if ((f = fopen("/proc/self/stat", "r")) != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	/* Field 3 on follows the name's last ")", a field a space. */
	p = strrchr(buf, ')');
	for (i = 0; i < 20 && p != NULL; i++)
		p = strchr(p + 1, ' ');
	if (p != NULL && sscanf(p + 1, "%llu", &start) == 1)
		i = asprintf(&name, "%ld-%llu", (long)getpid(), start);
	else
		i = asprintf(&name, "%ld", (long)getpid());
	if (i == -1)
		err(1, NULL);
	return name;
}

/*
 * The temporary files, made first: a directory that takes none fails
 * before the work.  One there already, of our PID and start time, is what
 * a process gone that had it left, as pipeline.mk takes .NAME.PID-START:
 * litter, removed (a link planted there too, not followed).
 */
static void
openoutputs(void)
{
	char *me = procname();
	size_t i;
	int fd;

	for (i = 0; i < NOUT; i++) {
		if (asprintf(&tmpnames[i], "%s/.%s.%s", dir, outnames[i],
		    me) == -1)
			err(1, NULL);
		if ((fd = create(tmpnames[i])) == -1 && errno == EEXIST &&
		    unlink(tmpnames[i]) == 0)
			fd = create(tmpnames[i]);
		if (fd == -1)
			err(1, "%s", tmpnames[i]);
		nmade = i + 1;
		if ((outs[i] = fdopen(fd, "w")) == NULL)
			err(1, "%s", tmpnames[i]);
	}
	free(me);
}

/* Every output, to its temporary file; then each renamed into place. */
static void
putoutputs(void)
{
	static void (*const put[NOUT])(FILE *) = { putsummaryjson,
	    putsummarycsv, putgroupscsv, putsummarymd, putkernelstsv,
	    puteffectscsv };
	char *path;
	size_t i;

	for (i = 0; i < NOUT; i++) {
		put[i](outs[i]);
		if (ferror(outs[i]))
			errno = EIO;
		if (ferror(outs[i]) | (fclose(outs[i]) == EOF))
			err(1, "%s", tmpnames[i]);
	}
	/* Compares of the summary this one replaces no longer match it. */
	for (i = 0; i < sizeof(stalenames) / sizeof(*stalenames); i++) {
		if (asprintf(&path, "%s/%s", dir, stalenames[i]) == -1)
			err(1, NULL);
		if (unlink(path) == -1 && errno != ENOENT)
			err(1, "%s", path);
		free(path);
	}
	/* A rename that fails takes the summaries renamed before it: no
	   mix of new and old is left. */
	for (i = 0; i < NOUT; i++) {
		if (asprintf(&path, "%s/%s", dir, outnames[i]) == -1)
			err(1, NULL);
		if (rename(tmpnames[i], path) == -1) {
			warn("%s", tmpnames[i]);
			while (i-- > 0) {
				free(path);
				if (asprintf(&path, "%s/%s", dir,
				    outnames[i]) == -1)
					err(1, NULL);
				(void)unlink(path);
			}
			exit(1);
		}
		free(path);
	}
	nmade = 0;
}

int
main(int argc, char *argv[])
{
	char *keys_opt = "rep repeat trial seed", *tmpdir, *scratchpath, *p;
	size_t maxrepeat = 0;
	struct timespec now;
	int ch, fd;

	while ((ch = getopt_long(argc, argv, "ho:r:", helpopt, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage(0);
		case 'o':
			dir = optarg;
			break;
		case 'r':
			keys_opt = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	argc -= optind;
	argv += optind;
	if (argc != 1 || dir == NULL)
		usage(EXIT_USAGE);
	if ((keys_opt = strdup(keys_opt)) == NULL)
		err(1, NULL);
	for (p = strtok(keys_opt, " "); p != NULL; p = strtok(NULL, " ")) {
		repeat = grow(repeat, &maxrepeat, nrepeat, sizeof(*repeat));
		repeat[nrepeat++] = p;
	}

	if (atexit(cleanup) != 0)
		err(1, NULL);
	signal(SIGHUP, onsignal);
	signal(SIGINT, onsignal);
	signal(SIGTERM, onsignal);
	openoutputs();
	locksummary();
	if ((tmpdir = getenv("TMPDIR")) == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	if (asprintf(&scratchpath, "%s/sweepsum.XXXXXX", tmpdir) == -1)
		err(1, NULL);
	if ((fd = mkstemp(scratchpath)) == -1)
		err(1, "%s", scratchpath);
	unlink(scratchpath);
	if ((scratch = fdopen(fd, "w+")) == NULL)
		err(1, "%s", scratchpath);

	readlist(argv[0], dir);
	if (ferror(scratch))
		errx(1, "%s: write error", scratchpath);
	free(scratchpath);
	if (nruns > 0)
		qsort(runs, nruns, sizeof(*runs), byrunname);
	rankelements();
	group();
	reduce();
	judge();
	effectsof();
	if (clock_gettime(CLOCK_REALTIME, &now) == -1)
		err(1, "clock_gettime");
	snprintf(stamp, sizeof(stamp), "%016" PRIx64 "-%ld-%lld.%09ld",
	    contents, (long)getpid(), (long long)now.tv_sec, now.tv_nsec);
	putoutputs();
	return 0;
}

static _Noreturn void
usage(int status)
{
	usage_exit("usage: sweepsum [-h] [-r keys] -o dir list\n", status);
}
