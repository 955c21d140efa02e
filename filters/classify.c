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

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: classify [-r rules] [file]\n", status);
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

int
main(int argc, char *argv[])
{
	struct interval iv;
	struct ivin in;
	const char *rulespath = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "hr:", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'r':
			rulespath = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);

	rules = rules_load(rulespath);
	ivin_open(&in, argc == 1 ? argv[0] : "-", 0);
	buffer_stdout();

	while (ivin_next(&in, &iv)) {
		if (iv.full && strcmp(iv.kind, "kernel") == 0)
			iv.category = (char *)category(iv.name);
		put_interval(&iv);
	}
	ivin_close(&in);
	close_stdout();
	return 0;
}
