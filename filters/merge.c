/*
 * merge: the union of the intervals of a stream sorted by start, as the
 * reference's merge(), in constant memory.  See merge(1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "h3prof.h"

static _Noreturn void usage(int);

int
main(int argc, char *argv[])
{
	struct ivunion u;
	struct interval iv = { 0 };
	const char *prefix = "", *kind = NULL;
	int64_t count = 0, ns = 0;
	int ch, totals = 0;

	while ((ch = getopt_long(argc, argv, "hk:p:t", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'k':
			kind = optarg;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 't':
			totals = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);

	ivunion_open(&u, argc == 1 ? argv[0] : "-", kind);
	while (ivunion_next(&u, &iv.start, &iv.end)) {
		if (!totals) {
			put_interval(&iv);
			continue;
		}
		count++;
		/* Union intervals are disjoint: ns stays below the last end. */
		ns += iv.end - iv.start;
	}
	ivunion_close(&u);
	if (totals) {
		put_fact(prefix, "count", count);
		put_fact(prefix, "ns", ns);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: merge [-ht] [-k kind] [-p prefix] [file]\n", status);
}
