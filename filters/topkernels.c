/*
 * topkernels: the kernels with the most total time in an interval stream,
 * summed by name in a hash table whose size grows with the number of
 * distinct names only, as facts or, with -t, as a table of every kernel.
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
/* Bytes of name text allocated at a time: one malloc serves many names. */
#define ARENA_CHUNK	(1024 * 1024)

/* The launches and time of the kernels of one name. */
struct kernel {
	const char	*name;		/* unescaped, NUL-terminated */
	size_t		 len;
	const char	*category;	/* that of its first line */
	uint64_t	 hash;
	int64_t		 count;
	int64_t		 ns;
};

/* Every distinct name in first-seen order. */
static struct kernel *kernels;
/* Entries used and allocated in kernels. */
static size_t nkernels, maxkernels;
/* Open hash over kernels: 1 + index, 0 empty; never more than half full. */
static uint32_t *slots;
/* Slots allocated: a power of two. */
static size_t nslots;
/* The free end of the current chunk of name text, and bytes left in it. */
static char *arena;
static size_t arenaleft;

static _Noreturn void usage(int);

/* A copy of len bytes and a NUL, carved from a chunk. */
static char *
save(const char *s, size_t len)
{
	char *p;

	if (len + 1 > arenaleft) {
		arenaleft = len + 1 > ARENA_CHUNK ? len + 1 : ARENA_CHUNK;
		if ((arena = malloc(arenaleft)) == NULL)
			err(1, NULL);
	}
	p = arena;
	memcpy(p, s, len);
	p[len] = '\0';
	arena += len + 1;
	arenaleft -= len + 1;
	return p;
}

/* Double the hash and put every kernel back into it. */
static void
grow(void)
{
	size_t i, j;

	free(slots);
	nslots = nslots == 0 ? 1024 : 2 * nslots;
	if ((slots = calloc(nslots, sizeof(*slots))) == NULL)
		err(1, NULL);
	for (i = 0; i < nkernels; i++) {
		for (j = kernels[i].hash & (nslots - 1); slots[j] != 0;
		    j = (j + 1) & (nslots - 1))
			;
		slots[j] = i + 1;
	}
}

/* The kernel of this name, added on first sight with this category. */
static struct kernel *
lookup(const char *name, size_t len, const char *category,
    const struct lines *at)
{
	struct kernel *k;
	uint64_t h = hashbytes(name, len);
	size_t i;

	for (i = h & (nslots - 1); slots[i] != 0; i = (i + 1) & (nslots - 1)) {
		k = &kernels[slots[i] - 1];
		if (k->hash == h && k->len == len &&
		    memcmp(k->name, name, len) == 0)
			return k;
	}
	if (nkernels == MAXKERNELS)
		errx(1, "%s:%lu: more than %d distinct kernel names",
		    at->path, at->lineno, MAXKERNELS);
	if (nkernels == maxkernels) {
		maxkernels = maxkernels == 0 ? 1024 : 2 * maxkernels;
		kernels = reallocarray(kernels, maxkernels, sizeof(*kernels));
		if (kernels == NULL)
			err(1, NULL);
	}
	k = &kernels[nkernels++];
	k->name = save(name, len);
	k->len = len;
	k->category = save(category, strlen(category));
	k->hash = h;
	k->count = 0;
	k->ns = 0;
	if (2 * nkernels > nslots)
		grow();
	else
		slots[i] = nkernels;
	return k;
}

/* Most time first; equal times by name, bytewise. */
static int
bytime(const void *a, const void *b)
{
	const struct kernel *ka = a, *kb = b;
	int c;

	if (ka->ns != kb->ns)
		return ka->ns > kb->ns ? -1 : 1;
	c = memcmp(ka->name, kb->name, ka->len < kb->len ? ka->len : kb->len);
	if (c != 0)
		return c;
	return ka->len < kb->len ? -1 : ka->len > kb->len;
}

/* The first count kernels as facts, each key after prefix. */
static void
putfacts(const char *prefix, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		printf("%s%zu.name\t", prefix, i + 1);
		put_escaped(kernels[i].name, kernels[i].len);
		printf("\n%s%zu.category\t%s\n", prefix, i + 1,
		    kernels[i].category);
		printf("%s%zu.count\t%lld\n", prefix, i + 1,
		    (long long)kernels[i].count);
		printf("%s%zu.ns\t%lld\n", prefix, i + 1,
		    (long long)kernels[i].ns);
	}
}

/*
 * The first count kernels as a table under its header; the mean as
 * reportjson(1) writes a top kernel's average_ns, so the two agree.
 */
static void
puttable(size_t count)
{
	char mean[PYFLOAT_MAX];
	size_t i;

	printf("name\tcategory\tlaunches\ttotal_ns\tmean_ns\n");
	for (i = 0; i < count; i++) {
		put_escaped(kernels[i].name, kernels[i].len);
		pyfloat(mean, pydiv(kernels[i].ns, kernels[i].count));
		printf("\t%s\t%lld\t%lld\t%s\n", kernels[i].category,
		    (long long)kernels[i].count, (long long)kernels[i].ns,
		    mean);
	}
}

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	struct kernel *k;
	const char *prefix = "";
	char *end;
	long long count = -1;	/* -n, if given */
	int64_t len;
	size_t namelen;
	int ch, table = 0;

	while ((ch = getopt_long(argc, argv, "hn:p:t", helpopt,
	    NULL)) != -1) {
		switch (ch) {
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
	if (argc > 1 || (table && *prefix != '\0'))
		usage(EXIT_USAGE);
	if (count == -1)
		count = table ? MAXKERNELS : DEFCOUNT;

	grow();
	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	while (ivin_next(&in, &iv)) {
		if (!iv.full)
			errx(1, "%s:%lu: expected a full interval line of 7 "
			    "columns; this one is bare", in.in.path,
			    in.in.lineno);
		if (strcmp(iv.kind, "kernel") != 0)
			continue;
		/* Sum by name, not by its spelling: "\\x" and "\x" agree. */
		namelen = unescape(iv.name);
		k = lookup(iv.name, namelen, iv.category, &in.in);
		len = iv.end - iv.start;
		if (len > INT64_MAX - k->ns)
			errx(1, "%s:%lu: the sum of ns overflows 64 bits",
			    in.in.path, in.in.lineno);
		k->ns += len;
		k->count++;
	}
	ivin_close(&in);

	if (nkernels > 0)	/* qsort(3) takes no null pointer */
		qsort(kernels, nkernels, sizeof(*kernels), bytime);
	if ((size_t)count > nkernels)
		count = nkernels;
	if (table)
		puttable(count);
	else
		putfacts(prefix, count);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: topkernels [-ht] [-n count] [-p prefix] [file]\n",
	    status);
}
