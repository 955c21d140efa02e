/*
 * intersect: the intersection of the unions of two interval streams sorted
 * by start, as the reference's intersection_total(), in constant memory.
 * See intersect(1).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

static _Noreturn void usage(int);

int
main(int argc, char *argv[])
{
	struct ivunion left, right;
	struct interval iv = { 0 };
	const char *prefix = "", *kind = NULL;
	int64_t ls, le, rs, re, count = 0, ns = 0;
	int ch, totals = 0, moreleft, moreright;

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
	if (argc != 2)
		usage(EXIT_USAGE);
	if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0) {
		warnx("only one of file1 and file2 may be standard input");
		usage(EXIT_USAGE);
	}

	ivunion_open(&left, argv[0], kind);
	ivunion_open(&right, argv[1], kind);
	moreleft = ivunion_next(&left, &ls, &le);
	moreright = ivunion_next(&right, &rs, &re);
	/* The reference's two-pointer walk: step past the one ending first. */
	while (moreleft && moreright) {
		iv.start = ls > rs ? ls : rs;
		iv.end = le < re ? le : re;
		if (iv.end > iv.start) {
			if (totals) {
				count++;
				ns += iv.end - iv.start;
			} else
				put_interval(&iv);
		}
		if (le <= re)
			moreleft = ivunion_next(&left, &ls, &le);
		else
			moreright = ivunion_next(&right, &rs, &re);
	}
	/*
	 * Read the rest of the longer input: its errors count too, and a
	 * writer to a pipe must not die of SIGPIPE.
	 */
	while (moreleft)
		moreleft = ivunion_next(&left, &ls, &le);
	while (moreright)
		moreright = ivunion_next(&right, &rs, &re);
	ivunion_close(&left);
	ivunion_close(&right);
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
	usage_exit("usage: intersect [-ht] [-k kind] [-p prefix] file1 file2\n", status);
}
