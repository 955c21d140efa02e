/*
 * sweepsum: the kernel table beside each report (topkernels -t), checked
 * when its report is read and copied into kernels.tsv at the end.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* The header of a kernel table, as topkernels -t writes it. */
static const char tableheader[] = "name\tcategory\tlaunches\ttotal_ns\t"
    "mean_ns\n";

/*
 * Read the kernel table at path, and with fp write its lines but the
 * header to fp, each after run's name and a tab; NULL, or what is wrong
 * with it, at *linep.
 */
static const char *
copytable(const char *path, FILE *fp, const struct run *r,
    unsigned long *linep)
{
	FILE *in;
	char *line = NULL, *p;
	size_t max = 0, tabs;
	ssize_t len;
	const char *why = NULL;

	*linep = 0;
	if ((in = fopen(path, "r")) == NULL)
		return "cannot be read";
	while (why == NULL && (len = getline(&line, &max, in)) != -1) {
		++*linep;
		if (*linep == 1) {
			if ((size_t)len != sizeof(tableheader) - 1 ||
			    memcmp(line, tableheader, len) != 0)
				why = "not the header of a kernel table";
			continue;
		}
		for (p = line, tabs = 0; p < line + len; p++)
			tabs += *p == '\t';
		if (line[len - 1] != '\n')
			why = "a line without its newline";
		else if (memchr(line, '\0', len) != NULL)
			why = "a NUL byte";
		else if (tabs != 4)
			why = "not 5 columns";
		else if (fp != NULL) {
			fput_escaped(r->listname, r->listnamelen, fp);
			putc('\t', fp);
			fwrite(line, 1, len, fp);
		}
	}
	if (why == NULL && ferror(in))
		why = "cannot be read";
	else if (why == NULL && *linep == 0)
		why = "empty";
	free(line);
	fclose(in);
	return why;
}

/*
 * The kernel table of run r, kernels.tsv beside its report at path,
 * checked; none there is none.  Whether it failed the run.
 */
int
table(struct run *r, const char *path)
{
	struct stat st;
	const char *why, *slash = strrchr(path, '/');
	unsigned long lineno;

	if (asprintf(&r->table, "%.*skernels.tsv", slash == NULL ? 0 :
	    (int)(slash - path + 1), path) == -1)
		err(1, NULL);
	if (stat(r->table, &st) == -1 && errno == ENOENT) {
		free(r->table);
		r->table = NULL;
		return 0;
	}
	if ((why = copytable(r->table, NULL, r, &lineno)) == NULL)
		return 0;
	if (lineno > 0)
		failed(r, r->table, "line %lu: %s", lineno, why);
	else
		failed(r, r->table, "%s", why);
	free(r->table);
	r->table = NULL;
	return 1;
}

/* Runs by their place in the list. */
static int
bylistorder(const void *a, const void *b)
{
	const struct run *x = *(struct run *const *)a;
	const struct run *y = *(struct run *const *)b;

	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The kernel tables of the reports in one, in the order of the list,
 * each line after its run's name: what a reader of the summary needs of
 * them, in its directory.  Each table is read again, checked again.
 */
void
putkernelstsv(FILE *fp)
{
	struct run **inorder;
	const char *why, *t;
	unsigned long lineno;
	size_t i;

	if ((inorder = calloc(nreports + 1, sizeof(*inorder))) == NULL)
		err(1, NULL);
	for (i = 0; i < nreports; i++)
		inorder[i] = &runs[i];
	if (nreports > 0)
		qsort(inorder, nreports, sizeof(*inorder), bylistorder);
	fprintf(fp, "# stamp %s\nrun\t%s", stamp, tableheader);
	for (i = 0; i < nreports; i++)
		if ((t = inorder[i]->table) != NULL &&
		    (why = copytable(t, fp, inorder[i], &lineno)) != NULL)
			errx(1, "%s:%lu: %s", shown(t, strlen(t), strlen(t)),
			    lineno, why);
	free(inorder);
}
