/*
 * devstat: the GPU span, kernel time, busy union and idle gaps of each
 * device of an interval stream sorted by start.  See devstat(1).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* Devices a trace holds: a machine has a handful. */
#define MAXDEVICES	1024

/* One device's figures. */
struct device {
	struct group	 name;		/* the device column */
	int64_t		 count;		/* its operations */
	int64_t		 first, last;	/* first start, last end */
	int64_t		 kernels;
	int64_t		 kernel_ns;
	struct ivrun	 kunion;	/* of its kernels */
	struct ivrun	 busy;		/* of all its operations */
	int64_t		 gaps, gap_ns, gap_max; /* between busy intervals */
};

/* The devices in first-seen order. */
static struct groups	 devices = { .size = sizeof(struct device) };
/* -p: the prefix of every fact. */
static const char	*prefix = "";

static _Noreturn void usage(int);

static void
put(const struct device *d, const char *what, int64_t v)
{
	put_factf(prefix, v, "device.%s.%s", d->name.key, what);
}

int
main(int argc, char *argv[])
{
	struct ivin in;
	struct interval iv;
	struct device *d;
	const char *dev;
	int64_t gap;
	size_t i;
	int ch;

	while ((ch = getopt_long(argc, argv, "hp:", helpopt, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
		case 'p':
			prefix = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);

	ivin_open(&in, argc == 1 ? argv[0] : "-", 1);
	buffer_stdout();
	while (ivin_next(&in, &iv)) {
		if (!iv.full)
			errx(1, "%s:%lu: a bare line: devstat needs the device "
			    "column of full lines", in.in.path, in.in.lineno);
		dev = iv.device;
		if (*dev == '\0' || dev[strspn(dev, "0123456789-")] != '\0')
			errx(1, "%s:%lu: device \"%.40s\" is not a number or "
			    "-", in.in.path, in.in.lineno, dev);
		d = groups_get(&devices, dev, strlen(dev));
		if (devices.n > MAXDEVICES)
			errx(1, "%s:%lu: more than %d devices", in.in.path,
			    in.in.lineno, MAXDEVICES);
		if (d->count++ == 0)
			d->first = iv.start;
		d->last = iv.end > d->last ? iv.end : d->last;
		if ((gap = ivrun_add(&d->busy, iv.start, iv.end)) > 0) {
			d->gaps++;
			d->gap_ns += gap;
			d->gap_max = gap > d->gap_max ? gap : d->gap_max;
		}
		if (strcmp(iv.kind, "kernel") == 0) {
			d->kernels++;
			sum_ns(&d->kernel_ns, iv.end - iv.start, &in.in);
			ivrun_add(&d->kunion, iv.start, iv.end);
		}
	}
	ivin_close(&in);
	for (i = 0; i < devices.n; i++) {
		d = (struct device *)devices.recs + i;
		put(d, "count", d->count);
		put(d, "span_ns", d->last - d->first);
		put(d, "kernel_count", d->kernels);
		put(d, "kernel_ns", d->kernel_ns);
		put(d, "kernel_union_ns", ivrun_total(&d->kunion));
		put(d, "busy_ns", ivrun_total(&d->busy));
		put(d, "idle.count", d->gaps);
		put(d, "idle.total_ns", d->gap_ns);
		put(d, "idle.max_ns", d->gap_max);
	}
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: devstat [-h] [-p prefix] [file]\n", status);
}
