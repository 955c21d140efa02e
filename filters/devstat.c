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
	struct devfigs	 figs;
};

/* The devices in first-seen order. */
static struct groups	 devices = { .size = sizeof(struct device) };
/* -p: the prefix of every fact. */
static const char	*prefix = "";

static _Noreturn void usage(int);

int
main(int argc, char *argv[])
{
	struct ivin in;
	struct interval iv;
	struct device *d;
	const char *dev;
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
			errx(1, "%s: a bare line: devstat needs the device "
			    "column of full lines", lines_at(&in.in));
		dev = iv.device;
		if (*dev == '\0' || dev[strspn(dev, "0123456789-")] != '\0')
			errx(1, "%s: device \"%.40s\" is not a number or "
			    "-", lines_at(&in.in), dev);
		d = groups_get(&devices, dev, strlen(dev));
		if (devices.n > MAXDEVICES)
			errx(1, "%s: more than %d devices", lines_at(&in.in),
			    MAXDEVICES);
		devfigs_add(&d->figs, iv.start, iv.end,
		    strcmp(iv.kind, "kernel") == 0, &in.in);
	}
	ivin_close(&in);
	for (i = 0; i < devices.n; i++) {
		d = (struct device *)devices.recs + i;
		devfigs_put(stdout, prefix, d->name.key, &d->figs);
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
