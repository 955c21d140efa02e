/*
 * inwindow: select the launch lines of the GPU work that starts in a
 * window of time, given from the first GPU operation in ns or as a share
 * of the GPU span.  See inwindow(1).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* One bound of the window: ns, or a percentage of the span. */
struct bound {
	int64_t		 ns;
	double		 percent;
	int		 relative;	/* percent counts, not ns */
};

/* The launch lines, read twice. */
static const char	*path;
/* -w: the window as given, and its bounds. */
static const char	*window;
static struct bound	 lo, hi;
/* -f: print the facts of the window instead of the lines. */
static int		 fflag;
/* -o: the file written in place of stdout, whole or not at all. */
static const char	*outpath;

static _Noreturn void usage(int);

/* Read a bound, "123" or "12.5%"; return -1 if it is neither. */
static int
parse_bound(const char *s, size_t len, struct bound *b)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[len - 1] != '%') {
		b->relative = 0;
		return parse_ns(buf, &b->ns);
	}
	buf[len - 1] = '\0';
	if (strspn(buf, "0123456789.") != len - 1)
		return -1;
	b->relative = 1;
	b->percent = strtod(buf, &end);
	return *end != '\0' || end == buf || b->percent > 100 ? -1 : 0;
}

/*
 * A bound as ns from the first GPU operation, in a span of span ns: one
 * past the span is the span's end (and the sum with the first stays in
 * 64 bits).
 */
static int64_t
offset(const struct bound *b, int64_t span)
{
	double x;

	if (!b->relative)
		return b->ns < span ? b->ns : span;
	x = b->percent / 100 * span + 0.5;
	return x < span ? (int64_t)x : span;
}

int
main(int argc, char *argv[])
{
	struct launches l;
	struct launch ln;
	const char *colon;
	int64_t first = INT64_MAX, last = 0, from, to;
	int ch;

	while ((ch = getopt_long(argc, argv, "fho:w:", helpopt, NULL)) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'h':
			usage(0);
		case 'o':
			outpath = optarg;
			break;
		case 'w':
			window = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || window == NULL)
		usage(EXIT_USAGE);
	if ((colon = strchr(window, ':')) == NULL ||
	    parse_bound(window, colon - window, &lo) == -1 ||
	    parse_bound(colon + 1, strlen(colon + 1), &hi) == -1) {
		warnx("-w %s: not START:END, each ns or a percentage "
		    "(50%%:100%%)", window);
		usage(EXIT_USAGE);
	}
	/* Bounds of one kind end before they start whatever the span. */
	if (lo.relative == hi.relative && (lo.relative ?
	    hi.percent < lo.percent : hi.ns < lo.ns)) {
		warnx("-w %s: the window ends before it starts", window);
		usage(EXIT_USAGE);
	}
	path = argv[0];
	if (strcmp(path, "-") == 0) {
		warnx("the launch lines are read twice: not standard input");
		usage(EXIT_USAGE);
	}
	if (outpath != NULL)
		out_stdout(outpath);

	/*
	 * First the span of the GPU work, then the lines in the window.
	 * Unlike inrange, neither pass needs the lines sorted by call
	 * start: they are taken in any order and written in theirs.
	 */
	launches_open(&l, path, 0);
	while (launches_next(&l, &ln)) {
		first = ln.op.start < first ? ln.op.start : first;
		last = ln.op.end > last ? ln.op.end : last;
	}
	launches_close(&l);
	if (first == INT64_MAX)
		errx(1, "%s: no GPU work to take a window of", path);
	from = first + offset(&lo, last - first);
	to = first + offset(&hi, last - first);
	if (to < from)
		errx(1, "-w %s: the window ends before it starts", window);
	buffer_stdout();
	if (fflag) {
		printf("scope.window\t%s\n", window);
		put_fact("", "scope.start_ns", from);
		put_fact("", "scope.end_ns", to);
		put_fact("", "scope.covered_ns", to - from);
		close_stdout();
		return 0;
	}
	/* An operation starting at the window's end is in only at the end. */
	launches_open(&l, path, 0);
	while (launches_next(&l, &ln))
		if (ln.op.start >= from && (ln.op.start < to || to >= last))
			put_launch(&l);
	launches_close(&l);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: inwindow [-fh] [-o output] -w start:end file\n", status);
}
