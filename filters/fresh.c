/*
 * fresh: record what a product was made from by the files' identity, not
 * their times alone, and tell, for a whole sweep at once, which records
 * no longer hold.  Kbuild's .cmd files and if_changed, for data.
 * See fresh(1) and h3prof(5).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* The products of -p, recorded after the inputs, and how many. */
static const char **products;
/* -x: remove -s's query once read (make writes it and has no process of
   its own to remove it). */
static int	 xflag;
static size_t	 nproducts, productscap;

/*
 * -s: the files of the record checked last, by line, and their identity
 * (NULL where stat failed).  The records of a sweep name the same filters
 * and make files on the same lines: each is looked at once, not once a
 * run.
 */
struct seen {
	char		*path;
	int		 known;		/* stat did not fail */
	char		 id[RECORD_IDMAX];
};
static struct seen	*seen;
static size_t		 nseen, seencap;

static _Noreturn void usage(int);

/* The identity of file, on line n of a record, as record_identity() gives
   it. */
static const char *
identity_at(size_t n, const char *file)
{
	struct seen *s;

	if (n >= nseen) {
		seen = grow(seen, &seencap, n, sizeof(*seen));
		memset(seen + nseen, 0, (n + 1 - nseen) * sizeof(*seen));
		nseen = n + 1;
	}
	s = &seen[n];
	if (s->path == NULL || strcmp(s->path, file) != 0) {
		free(s->path);
		if ((s->path = strdup(file)) == NULL)
			err(1, NULL);
		s->known = record_identity(file, -1, s->id) != NULL;
	}
	return s->known ? s->id : NULL;
}

/*
 * Whether the record at path no longer holds: it is missing or cannot be
 * read, its key is not key, or a file it names is no more the same.
 * text is a buffer of *cap bytes the caller keeps, grown as needed.
 */
static int
stale(const char *path, const char *key, char **text, size_t *cap)
{
	char *line, *next, *file, *tab;
	const char *id;
	size_t len = 0, lineno;
	ssize_t n;
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL)
		return 1;
	while ((n = fread(*text + len, 1, *cap - len - 1, fp)) > 0)
		if ((len += n) == *cap - 1)
			*text = grow(*text, cap, *cap + 1, 1);
	n = ferror(fp);
	fclose(fp);
	if (n || len == 0 || (*text)[len - 1] != '\n')
		return 1;		/* unread, or torn */
	(*text)[len] = '\0';
	/* The key first, then a line a file, the path after the last tab. */
	line = *text;
	next = strchr(line, '\n');
	*next = '\0';
	if (strncmp(line, "key\t", 4) != 0 || strcmp(line + 4, key) != 0)
		return 1;
	for (lineno = 0, line = next + 1; *line != '\0'; lineno++, line = next + 1) {
		next = strchr(line, '\n');
		*next = '\0';
		if ((file = strrchr(line, '\t')) == NULL ||
		    (tab = strchr(line, '\t')) == file)
			return 1;
		*file++ = '\0';
		if ((id = identity_at(lineno, file)) == NULL ||
		    strcmp(tab + 1, id) != 0)
			return 1;
	}
	return 0;
}

/* -s: the IDs of the query's lines, ID tab RECORD tab KEY, gone stale. */
static void
check(const char *query)
{
	struct lines in;
	char *line, *id, *record, *text;
	size_t cap = 4096;
	int first = 1;

	if ((text = malloc(cap)) == NULL)
		err(1, NULL);
	lines_open(&in, query);
	while ((line = lines_next(&in, NULL)) != NULL) {
		id = column(&line);
		if ((record = column(&line)) == NULL || line == NULL)
			errx(1, "%s:%lu: not ID, record and key", in.path,
			    in.lineno);
		if (stale(record, line, &text, &cap)) {
			printf("%s%s", first ? "" : " ", id);
			first = 0;
		}
	}
	lines_close(&in);
	if (xflag && unlink(query) == -1)
		err(1, "%s", query);
	if (!first)
		putchar('\n');
	free(text);
}

/* -d: a record in dir for each line, NAME tab PRODUCT, of list. */
static void
record_each(const char *dir, const char *list)
{
	struct lines in;
	char *line, *name, *path;
	const char *product;

	lines_open(&in, list);
	while ((line = lines_next(&in, NULL)) != NULL) {
		name = column(&line);
		if (line == NULL || *name == '\0' || strchr(name, '/') != NULL)
			errx(1, "%s:%lu: not NAME and product", in.path,
			    in.lineno);
		if (asprintf(&path, "%s/%s.inputs", dir, name) == -1)
			err(1, NULL);
		product = line;
		record_write(path, line, -1, NULL, 0, &product, 1);
		free(path);
	}
	lines_close(&in);
}

int
main(int argc, char *argv[])
{
	const char *key = NULL, *outpath = NULL, *query = NULL, *dir = NULL;
	const char *refpath = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "d:hk:o:p:r:s:x", helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'd':
			dir = optarg;
			break;
		case 'h':
			usage(0);
		case 'k':
			key = optarg;
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'p':
			products = grow(products, &productscap, nproducts + 1,
			    sizeof(*products));
			products[nproducts++] = optarg;
			break;
		case 'r':
			refpath = optarg;
			break;
		case 's':
			query = optarg;
			break;
		case 'x':
			xflag = 1;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	/* One of: -s QUERY, -d DIR LIST, or -k KEY -o RECORD [FILE...]. */
	if (query != NULL) {
		if (dir || key || outpath || refpath || nproducts || argc)
			usage(EXIT_USAGE);
	} else if (xflag)
		usage(EXIT_USAGE);
	else if (dir != NULL) {
		if (key || outpath || refpath || nproducts || argc != 1)
			usage(EXIT_USAGE);
	} else if (key == NULL || outpath == NULL)
		usage(EXIT_USAGE);
	if (key != NULL && strchr(key, '\n') != NULL)
		errx(EXIT_USAGE, "-k: a newline in the key");

	if (query != NULL)
		check(query);
	else if (dir != NULL)
		record_each(dir, argv[0]);
	else
		record_write(outpath, key, refpath != NULL ?
		    mtime_ns(refpath) : -1, (const char *const *)argv, argc,
		    products, nproducts);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: fresh [-h] [-d dir] [-k key] [-o record] [-p product] [-r reference] [-s query [-x]] [file ...]\n",
	    status);
}
