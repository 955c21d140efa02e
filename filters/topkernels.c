/*
 * topkernels: the kernels with the most total time in an interval stream,
 * summed by name in a hash table whose size grows with the number of
 * distinct names only, as facts or, with -t, as a table of every kernel;
 * with -o, both, that one pass may serve a report.
 * See topkernels(1).
 */
#include <err.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Distinct kernel names held at most: bounds memory on hostile input. */
#define MAXKERNELS	1000000
/* Kernels shown when -n does not say. */
#define DEFCOUNT	10

/* The launches and time of the kernels of one name. */
struct kernel {
	struct group	 name;		/* unescaped */
	const char	*category;	/* that of its first line */
	int64_t		 count;
	int64_t		 ns;
};

/* Every distinct name in first-seen order, till sorted by time. */
static struct groups kernels = { .size = sizeof(struct kernel) };
/* The categories of the kernels, each held once: a trace has a handful. */
static struct groups categories = { .size = sizeof(struct group) };

static _Noreturn void usage(int);

/* Most time first; equal times by name, bytewise. */
static int
bytime(const void *a, const void *b)
{
	const struct kernel *ka = a, *kb = b;
	size_t la = ka->name.keylen, lb = kb->name.keylen;
	int c;

	if (ka->ns != kb->ns)
		return ka->ns > kb->ns ? -1 : 1;
	c = memcmp(ka->name.key, kb->name.key, la < lb ? la : lb);
	if (c != 0)
		return c;
	return la < lb ? -1 : la > lb;
}

/* The first count kernels as facts, each key after prefix. */
static void
putfacts(const char *prefix, size_t count)
{
	const struct kernel *k = kernels.recs;
	size_t i;

	for (i = 0; i < count; i++) {
		printf("%s%zu.name\t", prefix, i + 1);
		put_escaped(k[i].name.key, k[i].name.keylen);
		printf("\n%s%zu.category\t%s\n", prefix, i + 1,
		    k[i].category);
		printf("%s%zu.count\t%lld\n", prefix, i + 1,
		    (long long)k[i].count);
		printf("%s%zu.ns\t%lld\n", prefix, i + 1,
		    (long long)k[i].ns);
	}
}

/*
 * The first count kernels as a table under its header; the mean as
 * reportjson(1) writes a top kernel's average_ns, so the two agree.
 */
static void
puttable(size_t count)
{
	const struct kernel *k = kernels.recs;
	char mean[PYFLOAT_MAX];
	size_t i;

	printf("name\tcategory\tlaunches\ttotal_ns\tmean_ns\n");
	for (i = 0; i < count; i++) {
		put_escaped(k[i].name.key, k[i].name.keylen);
		pyfloat(mean, pydiv(k[i].ns, k[i].count));
		printf("\t%s\t%lld\t%lld\t%s\n", k[i].category,
		    (long long)k[i].count, (long long)k[i].ns,
		    mean);
	}
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	struct kernel *k;
	struct group *category;
	const char *prefix = "", *tablepath = NULL;
	const char *factspath = NULL;	/* -f: the facts there, whole */
	char *end;
	long long count = -1;	/* -n, if given */
	int64_t len;
	size_t namelen;
	int ch, table = 0;

	while ((ch = getopt_long(argc, argv, "f:hn:o:p:t", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'f':
			factspath = optarg;
			break;
		case 'h':
			usage(0);
		case 'n':
			errno = 0;
			count = strtoll(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    count < 1 || count > MAXKERNELS)
				errx(EXIT_USAGE, "-n %s: not a count from 1 "
				    "to %d", optarg, MAXKERNELS);
			break;
		case 'o':
			tablepath = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 't':
			table = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1 || (table && (*prefix != '\0' || tablepath != NULL ||
	    factspath != NULL)))
		usage(EXIT_USAGE);
	if (count == -1)
		count = table ? MAXKERNELS : DEFCOUNT;

	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	if (factspath != NULL)
		out_stdout(factspath);
	while (ivin_next(&in, &iv)) {
		if (!iv.full)
			errx(1, "%s: expected a full interval line of 7 "
			    "columns; this one is bare", lines_at(&in.in));
		if (strcmp(iv.kind, "kernel") != 0)
			continue;
		/* Sum by name, not by its spelling: "\\x" and "\x" agree. */
		namelen = unescape(iv.name);
		k = groups_get(&kernels, iv.name, namelen);
		if (k->category == NULL) {	/* first sight */
			if (kernels.n > MAXKERNELS)
				errx(1, "%s: more than %d distinct kernel "
				    "names", lines_at(&in.in),
				    MAXKERNELS);
			category = groups_get(&categories, iv.category,
			    strlen(iv.category));
			k->category = category->key;
		}
		len = iv.end - iv.start;
		if (len > INT64_MAX - k->ns)
			errx(1, "%s: the sum of ns overflows 64 bits",
			    lines_at(&in.in));
		k->ns += len;
		k->count++;
	}
	ivin_close(&in);

	if (kernels.n > 0)	/* qsort(3) takes no null pointer */
		qsort(kernels.recs, kernels.n, kernels.size, bytime);
	if ((size_t)count > kernels.n)
		count = kernels.n;
	if (table)
		puttable(count);
	else
		putfacts(prefix, count);
	if (tablepath != NULL && factspath != NULL) {
		/* Each file renamed into place whole: the facts, the table. */
		out_stdout_next(tablepath);
		puttable(kernels.n);
		close_stdout();
	} else if (tablepath != NULL) {
		/* The facts are out: stdout becomes the table of them all. */
		if (fflush(stdout) == EOF || ferror(stdout))
			err(1, "stdout");
		if (freopen(tablepath, "w", stdout) == NULL)
			err(1, "%s", tablepath);
		puttable(kernels.n);
		if (fflush(stdout) == EOF || ferror(stdout) ||
		    fclose(stdout) == EOF)
			err(1, "%s", tablepath);
	} else
		close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: topkernels [-ht] [-f facts] [-n count] [-o table] [-p prefix] [file]\n",
	    status);
}
