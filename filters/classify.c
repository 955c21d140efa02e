/*
 * classify: fill the category column of kernel interval lines from a
 * rules file.  See classify(1) and h3prof(5).
 */
#include <err.h>
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

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: classify [-hx] [-o output] [-r rules] [file]\n", status);
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

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	const char *rulespath = NULL, *outpath = NULL;
	int ch, flags = 0;

	while ((ch = getopt_long(argc, argv, "ho:r:x", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'o':
			outpath = optarg;
			break;
		case 'r':
			rulespath = optarg;
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
	if (argc > 1)
		usage(EXIT_USAGE);

	rules = rules_loadx(rulespath, flags);
	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	if (outpath != NULL)
		out_stdout(outpath);
	buffer_stdout();

	while (ivin_next(&in, &iv)) {
		if (iv.full && strcmp(iv.kind, "kernel") == 0)
			iv.category = (char *)cached_category(iv.name,
			    iv.namelen);
		put_interval(&iv);
	}
	ivin_close(&in);
	close_stdout();
	return 0;
}
