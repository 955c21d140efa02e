/*
 * NAME
 *	csvfloor - count the records and fields of CSV files with libcsv
 *
 * SYNOPSIS
 *	csvfloor [-h] file ...
 *
 * DESCRIPTION
 *	Csvfloor feeds each file to libcsv (CSV_STRICT, CSV_STRICT_FINI,
 *	CSV_APPEND_NULL) in 256 KiB reads and only counts what comes out,
 *	then prints, per file, a line "records<TAB>fields<TAB>file".  It is
 *	the floor of the benchmark: no reader built on libcsv can tokenize
 *	the same bytes faster.
 *
 * EXIT STATUS
 *	0 on success, 1 if a file cannot be read or is not strict CSV, 2 for
 *	bad usage.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <csv.h>

/* Bytes read(2) asks for at a time. */
#define CHUNK	(256 * 1024)

/* What the callbacks have counted in the current file. */
struct counts {
	unsigned long long	 fields;
	unsigned long long	 records;
};

static void
usage(int status)
{
	fprintf(status == 0 ? stdout : stderr, "usage: csvfloor [-h] file ...\n");
	exit(status);
}

static void
on_field(void *s, size_t len, void *data)
{
	((struct counts *)data)->fields++;
}

static void
on_record(int c, void *data)
{
	((struct counts *)data)->records++;
}

static void
count(const char *path, char *buf)
{
	struct csv_parser p;
	struct counts n = { 0, 0 };
	ssize_t got;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		errx(1, "csv_init failed");
	for (;;) {
		got = read(fd, buf, CHUNK);
		if (got == -1 && errno == EINTR)
			continue;
		if (got == -1)
			err(1, "%s", path);
		if (got == 0)
			break;
		if (csv_parse(&p, buf, got, on_field, on_record, &n) !=
		    (size_t)got)
			errx(1, "%s: %s", path, csv_strerror(csv_error(&p)));
	}
	if (csv_fini(&p, on_field, on_record, &n) != 0)
		errx(1, "%s: %s", path, csv_strerror(csv_error(&p)));
	csv_free(&p);
	close(fd);
	printf("%llu\t%llu\t%s\n", n.records, n.fields, path);
}

int
main(int argc, char *argv[])
{
	char *buf;
	int ch, i;

	while ((ch = getopt(argc, argv, "h")) != -1) {
		switch (ch) {
		case 'h':
			usage(0);
			break;
		default:
			usage(2);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		usage(2);
	if ((buf = malloc(CHUNK)) == NULL)
		err(1, NULL);
	for (i = 0; i < argc; i++)
		count(argv[i], buf);
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	return 0;
}
