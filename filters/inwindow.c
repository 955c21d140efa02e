/*
 * inwindow: select the GPU work that starts in a window of time, given
 * from the first GPU operation in ns or as a share of the GPU span:
 * the operations, or the memory or launch lines of those operations.
 * See inwindow(1).
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

/* The GPU operations, whose span the window is of. */
static const char	*opspath;
/* The lines selected: the operations again, or their memory or launch
   lines (-l). */
static const char	*path;
static int		 lflag;
/* -w: the window as given, and its bounds. */
static const char	*window;
static struct bound	 lo, hi;
/* The window in the trace's time, from to to, and the span's end. */
static int64_t		 from, to, last;
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

/*
 * Whether an operation starting at start is in the window: one starting
 * at the window's end is in only where the window ends the span.
 */
static int
inwindow(int64_t start)
{
	return start >= from && (start < to || to >= last);
}

int
main(int argc, char *argv[])
{
	struct ivin ops, in;
	struct interval iv;
	struct launches l;
	struct launch ln;
	const char *colon;
	int64_t first = INT64_MAX;
	int ch;

	while ((ch = getopt_long(argc, argv, "fhlo:w:", helpopt, NULL)) != -1) {
		switch (ch) {
		case 'f':
			fflag = 1;
			break;
		case 'h':
			usage(0);
		case 'l':
			lflag = 1;
			break;
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
	if (argc < 1 || argc > 2 || window == NULL || (lflag && argc != 2) ||
	    (fflag && argc != 1))
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
	opspath = argv[0];
	path = argc == 2 ? argv[1] : opspath;
	if (strcmp(opspath, "-") == 0 && strcmp(path, "-") == 0) {
		warnx("the operations are read before the lines: not both "
		    "of standard input");
		usage(EXIT_USAGE);
	}
	if (outpath != NULL)
		out_stdout(outpath);

	/*
	 * First the span of the GPU operations, then the lines of those in
	 * the window.  Neither pass needs the lines sorted: they are taken
	 * in any order and written in theirs.
	 */
	ivin_open(&ops, opspath, 0);
	while (ivin_next(&ops, &iv)) {
		first = iv.start < first ? iv.start : first;
		last = iv.end > last ? iv.end : last;
	}
	ivin_close(&ops);
	if (first == INT64_MAX)
		errx(1, "%s: no GPU work to take a window of", ops.in.path);
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
	if (lflag) {
		launches_open(&l, path, 0);
		while (launches_next(&l, &ln))
			if (inwindow(ln.op.start))
				put_launch(&l);
		launches_close(&l);
	} else {
		/* Interval lines, or memory lines: the start first. */
		ivin_open(&in, path, 0);
		while (ivin_next(&in, &iv))
			if (inwindow(iv.start))
				put_interval(&iv);
		ivin_close(&in);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: inwindow [-fhl] [-o output] -w start:end operations [file]\n", status);
}
