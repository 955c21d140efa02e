/*
 * classify: fill the category column of kernel interval lines from a
 * rules file.  See classify(1) and h3prof(5).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* The rules, held for the whole run. */
static const struct rules *rules;
/* An unescaped copy of the current name, for names holding a backslash. */
static char	*unescaped;
/* Bytes allocated in unescaped: grows to the longest such name only. */
static size_t	 unescapedcap;

/*
 * The categories of recent names: a trace repeats a few hundred kernels
 * and matching the rules costs more than a look-up.  Direct-mapped by a
 * hash of the escaped name; a name longer than CACHE_MAXNAME is matched
 * every time, so the cache holds at most CACHE_SLOTS * CACHE_MAXNAME bytes.
 */
#define CACHE_SLOTS	1024
#define CACHE_MAXNAME	4096
static struct {
	char		*name;		/* escaped, NUL-terminated; NULL: empty */
	size_t		 len;
	const char	*category;
} cache[CACHE_SLOTS];

/* -s: whether a line started before the one written before it. */
static int	 unsorted;
static int64_t	 prevstart = INT64_MIN;

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: classify [-hlsx] [-o output] [-r rules] [file ...]\n", status);
}

/* The category of an escaped name: rules match the name nsys wrote. */
static const char *
category(const char *name)
{
	size_t len;

	if (strchr(name, '\\') == NULL)
		return rules_match(rules, name);
	if ((len = strlen(name)) >= unescapedcap) {
		unescapedcap = len + 1;
		if ((unescaped = realloc(unescaped, unescapedcap)) == NULL)
			err(1, NULL);
	}
	memcpy(unescaped, name, len + 1);
	unescape(unescaped);
	return rules_match(rules, unescaped);
}

/* The category of an escaped name, from the cache when it is there. */
static const char *
cached_category(const char *name, size_t len)
{
	size_t slot;

	if (len > CACHE_MAXNAME)
		return category(name);
	slot = hashbytes(name, len) % CACHE_SLOTS;
	if (cache[slot].name == NULL || cache[slot].len != len ||
	    memcmp(cache[slot].name, name, len) != 0) {
		free(cache[slot].name);
		if ((cache[slot].name = strdup(name)) == NULL)
			err(1, NULL);
		cache[slot].len = len;
		cache[slot].category = category(name);
	}
	return cache[slot].category;
}

/* Write a line back, a kernel's category set by the rules. */
static void
put_classified(struct interval *iv)
{
	if (iv->full && strcmp(iv->kind, "kernel") == 0)
		iv->category = (char *)cached_category(iv->name, iv->namelen);
	if (iv->start < prevstart)
		unsorted = 1;
	prevstart = iv->start;
	put_interval(iv);
}

/* The lines of path: interval lines, or with -l launch lines. */
static void
classify_file(const char *path, int launchlines)
{
	struct interval iv;
	struct ivin in;
	struct launch ln;
	struct launches lin;

	if (launchlines) {
		/* A launch line's operation: its last seven columns. */
		launches_open(&lin, path, 0);
		while (launches_next(&lin, &ln))
			put_classified(&ln.op);
		launches_close(&lin);
		return;
	}
	ivin_open(&in, path, 0);
	while (ivin_next(&in, &iv))
		put_classified(&iv);
	ivin_close(&in);
}

int
main(int argc, char *argv[])
{
	const char *rulespath = NULL, *outpath = NULL;
	int ch, flags = 0, lflag = 0, sflag = 0, i;

	while ((ch = getopt_long(argc, argv, "hlo:r:sx", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'l':
			lflag = 1;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'r':
			rulespath = optarg;
			break;
		case 's':
			sflag = 1;
			break;
		case 'x':
			flags = RULES_EXTENDED;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	/* -s sorts the file written, which stdout may not be. */
	if (sflag && outpath == NULL)
		usage(EXIT_USAGE);

	rules = rules_loadx(rulespath, flags);
	if (outpath != NULL)
		out_stdout(outpath);
	buffer_stdout();
	if (argc == 0)
		classify_file("-", lflag);
	for (i = 0; i < argc; i++)
		classify_file(argv[i], lflag);
	if (unsorted && sflag)
		out_bystart(stdout, outpath);
	close_stdout();
	return 0;
}
