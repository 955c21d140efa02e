/*
 * sweepsum: summary.csv, a row per run, and groups.csv, a row per
 * configuration in summary.md's order, quoted as jq's @csv quotes.
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sweepsum.h"

/* A string as @csv quotes it, "" for each ", between pre and post. */
static void
csvfield(FILE *fp, const char *pre, const char *s, size_t len,
    const char *post)
{
	const char *end = s + len;
	uint32_t cp;
	size_t n;
	int bad;

	putc('"', fp);
	fputs(pre, fp);
	for (; s < end; s += n) {
		n = character(s, end, &cp, &bad);
		if (bad)
			fprintf(fp, "\\%03o", (unsigned)cp);
		else if (*s == '"')
			fputs("\"\"", fp);
		else
			fwrite(s, 1, n, fp);
	}
	fputs(post, fp);
	putc('"', fp);
}

void
csvstring(FILE *fp, const char *s, size_t len)
{
	csvfield(fp, "", s, len, "");
}

/*
 * A configuration value in a CSV: a string quoted, null as nothing, any
 * other as jq writes it; an array or object, which @csv refused, as its
 * JSON text quoted.
 */
static void
csvvalue(FILE *fp, const struct entry *e)
{
	if (e == NULL || (e->type == 'w' && *e->json == 'n'))
		return;
	if (e->type == '"')
		csvstring(fp, e->str, e->strlen);
	else if (e->type == '{' || e->type == '[')
		csvstring(fp, e->json, e->jsonlen);
	else
		fwrite(e->json, 1, e->jsonlen, fp);
}

static void
csvnum(FILE *fp, double v)
{
	if (!isnan(v))
		putnum(fp, v);
}

/* The configuration keys of the reports, as they first appear. */
static size_t *
configunion(size_t *np)
{
	size_t *order, i, j, n = 0;
	struct name *k;

	if ((order = calloc(keys.n + 1, sizeof(*order))) == NULL)
		err(1, NULL);
	for (i = 0; i < keys.n; i++)
		((struct name *)groups_nth(&keys, i))->mark = 0;
	for (i = 0; i < nreports; i++)
		for (j = 0; j < runs[i].nconfig; j++) {
			k = groups_nth(&keys, runs[i].config[j].key);
			if (k->mark == 0) {
				k->mark = 1;
				order[n++] = k->index;
			}
		}
	*np = n;
	return order;
}

void
putsummarycsv(FILE *fp)
{
	const struct entry **cells;
	const struct value **vals;
	const struct group *k;
	const struct run *r;
	size_t *cols, *figcols, ncols, nfigcols, i, len;

	cols = configunion(&ncols);
	figcols = figunion(0, &nfigcols);
	cells = calloc(keys.n + 1, sizeof(*cells));
	vals = calloc(figs.n + 1, sizeof(*vals));
	if (cells == NULL || vals == NULL)
		err(1, NULL);
	fputs("\"run\",\"status\"", fp);
	for (i = 0; i < ncols; i++) {
		k = groups_nth(&keys, cols[i]);
		putc(',', fp);
		csvfield(fp, "config.", k->key, k->keylen, "");
	}
	for (i = 0; i < nfigcols; i++) {
		k = groups_nth(&figs, figcols[i]);
		putc(',', fp);
		csvstring(fp, k->key, k->keylen);
	}
	fputs(",\"error\"\n", fp);
	for (r = runs; r < runs + nruns; r++) {
		csvstring(fp, r->name, r->namelen);
		fputs(r->error == NULL ? ",\"ok\"" : ",\"failed\"", fp);
		for (i = 0; i < r->nconfig; i++)
			cells[r->config[i].key] = &r->config[i];
		for (i = 0; i < r->nvals; i++)
			vals[r->vals[i].fig] = &r->vals[i];
		for (i = 0; i < ncols; i++) {
			putc(',', fp);
			csvvalue(fp, cells[cols[i]]);
		}
		for (i = 0; i < nfigcols; i++) {
			putc(',', fp);
			if (vals[figcols[i]] != NULL &&
			    !vals[figcols[i]]->isnull)
				putnum(fp, vals[figcols[i]]->v);
		}
		putc(',', fp);
		if (r->error != NULL) {
			len = r->errorlen;
			if (len > 0 && r->error[len - 1] == '\n')
				len--;
			csvstring(fp, r->error, len);
		}
		putc('\n', fp);
		for (i = 0; i < r->nconfig; i++)
			cells[r->config[i].key] = NULL;
		for (i = 0; i < r->nvals; i++)
			vals[r->vals[i].fig] = NULL;
	}
	free(cols);
	free(figcols);
	free(cells);
	free(vals);
}

void
putgroupscsv(FILE *fp)
{
	static const char *const parts[] = { ".mean", ".stddev", ".min",
	    ".max" };
	struct conf **sorted = bytime;
	const struct conf *g;
	const struct stats *st;
	const struct group *k;
	const struct entry **cells;
	size_t *cols, *figcols, ncols = 0, nfigcols, i, j, p;
	struct name *nm;

	cols = calloc(keys.n + 1, sizeof(*cols));
	cells = calloc(keys.n + 1, sizeof(*cells));
	if (cols == NULL || cells == NULL)
		err(1, NULL);
	for (i = 0; i < keys.n; i++)
		((struct name *)groups_nth(&keys, i))->mark = 0;
	for (i = 0; i < confs.n; i++)
		for (j = 0; j < byname[i]->first->nconfig; j++) {
			nm = groups_nth(&keys, byname[i]->first->config[j].key);
			if (nm->mark == 0 && !isrepeat(&nm->name)) {
				nm->mark = 1;
				cols[ncols++] = nm->index;
			}
		}
	figcols = figunion(1, &nfigcols);
	fputs("\"configuration\"", fp);
	for (i = 0; i < ncols; i++) {
		k = groups_nth(&keys, cols[i]);
		putc(',', fp);
		csvfield(fp, "config.", k->key, k->keylen, "");
	}
	fputs(",\"n\",\"ratio_to_fastest\"", fp);
	for (i = 0; i < nfigcols; i++)
		for (p = 0; p < 4; p++) {
			k = groups_nth(&figs, figcols[i]);
			putc(',', fp);
			csvfield(fp, "", k->key, k->keylen, parts[p]);
		}
	putc('\n', fp);
	for (i = 0; i < confs.n; i++) {
		g = sorted[i];
		csvstring(fp, g->label, g->labellen);
		/* Repeat keys have no column: their cells are never read. */
		for (j = 0; j < g->first->nconfig; j++)
			cells[g->first->config[j].key] = &g->first->config[j];
		for (j = 0; j < ncols; j++) {
			putc(',', fp);
			csvvalue(fp, cells[cols[j]]);
		}
		for (j = 0; j < g->first->nconfig; j++)
			cells[g->first->config[j].key] = NULL;
		fprintf(fp, ",%zu,", g->n);
		csvnum(fp, g->ratio);
		for (j = 0; j < nfigcols; j++) {
			st = groupstats(g, figcols[j]);
			for (p = 0; p < 4; p++) {
				putc(',', fp);
				if (st != NULL)
					csvnum(fp, p == 0 ? st->mean :
					    p == 1 ? st->stddev :
					    p == 2 ? st->min : st->max);
			}
		}
		putc('\n', fp);
	}
	free(cols);
	free(cells);
	free(figcols);
}
