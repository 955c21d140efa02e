/*
 * sweepsum: summary.json, every run's report as read, the failures, and
 * the groups with their statistics, as the jq program of h3summary wrote
 * it.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweepsum.h"

/* A report's scope as its report records the setting; null for none. */
static void
putscope(struct jsonw *jw, const char *key, const struct scope *sc)
{
	if (sc->kind == 0) {
		jw_null(jw, key);
		return;
	}
	jw_open(jw, key, '{');
	if (sc->kind == 'r') {
		jw_string(jw, "range", sc->text, sc->textlen);
		jw_int(jw, "skip", sc->skip);
	} else
		jw_string(jw, "window", sc->text, sc->textlen);
	jw_close(jw, '}');
}

/*
 * The sweep's scope: absent where no report is scoped; the scope where
 * every report has the same; else each scope there is, once, in the
 * order of the runs, null for the unscoped reports.
 */
static void
putsweepscope(struct jsonw *jw)
{
	const struct run *r, *q;

	if (!scopesdiffer) {
		if (scope.kind != 0)
			putscope(jw, "scope", &scope);
		return;
	}
	jw_open(jw, "scope", '[');
	for (r = runs; r < runs + nreports; r++) {
		for (q = runs; q < r; q++)
			if (samescope(&q->scope, &r->scope))
				break;
		if (q == r)
			putscope(jw, NULL, &r->scope);
	}
	jw_close(jw, ']');
}

void
putsummaryjson(FILE *fp)
{
	struct jsonw jw = { .fp = fp, .jq = 1 };
	const struct conf *g;
	const struct run *r;
	const struct entry *e;
	const struct group *k;
	const struct stats *st;
	const struct delta *d;
	const char *part;
	char *text = NULL;
	size_t i, j, max = 0, partlen;
	FILE *hfp;

	if (fflush(scratch) == EOF)
		err(1, "scratch file");
	jw_open(&jw, NULL, '{');
	jw_string(&jw, "stamp", stamp, strlen(stamp));
	putsweepscope(&jw);
	if ((hfp = open_memstream(&text, &max)) == NULL)
		err(1, NULL);
	headline(hfp, 0);
	if (fclose(hfp) == EOF)
		err(1, NULL);
	jw_string(&jw, "headline", text, max);
	free(text);
	text = NULL;
	max = 0;
	jw_open(&jw, "runs", '[');
	for (r = runs; r < runs + nreports; r++) {
		text = grow(text, &max, r->len, 1);
		if (pread(fileno(scratch), text, r->len, r->off) !=
		    (ssize_t)r->len)
			err(1, "scratch file");
		jw_json(&jw, NULL, text, r->len);
	}
	free(text);
	jw_close(&jw, ']');
	jw_open(&jw, "failed", '[');
	for (; r < runs + nruns; r++) {
		jw_open(&jw, NULL, '{');
		jw_string(&jw, "name", r->name, r->namelen);
		jw_string(&jw, "error", r->error, r->errorlen);
		jw_close(&jw, '}');
	}
	jw_close(&jw, ']');
	jw_open(&jw, "groups", '[');
	for (i = 0; i < confs.n; i++) {
		g = byname[i];
		jw_open(&jw, NULL, '{');
		jw_open(&jw, "config", '{');
		for (j = 0; j < g->first->nconfig; j++) {
			e = &g->first->config[j];
			k = groups_nth(&keys, e->key);
			if (isrepeat(k))
				continue;
			jw_key(&jw, k->key, k->keylen);
			jw_json(&jw, NULL, e->pretty, e->prettylen);
		}
		jw_close(&jw, '}');
		jw_string(&jw, "label", g->label, g->labellen);
		jw_int(&jw, "n", g->n);
		jw_open(&jw, "runs", '[');
		for (j = 0; j < g->n; j++)
			jw_string(&jw, NULL, g->runs[j]->name,
			    g->runs[j]->namelen);
		jw_close(&jw, ']');
		jw_open(&jw, "figures", '{');
		for (st = g->stats; st < g->stats + g->nstats; st++) {
			k = groups_nth(&figs, st->fig);
			jw_key(&jw, k->key, k->keylen);
			jw_open(&jw, NULL, '{');
			jw_int(&jw, "n", st->n);
			jw_float(&jw, "mean", st->mean);
			jw_float(&jw, "stddev", st->stddev);
			jw_float(&jw, "min", st->min);
			jw_float(&jw, "max", st->max);
			jw_close(&jw, '}');
		}
		jw_close(&jw, '}');
		jw_open(&jw, "other_kernels", '[');
		for (j = 0; j < g->nothers; j++) {
			jw_open(&jw, NULL, '{');
			jw_string(&jw, "name", g->others[j].name,
			    g->others[j].namelen);
			jw_float(&jw, "launches", g->others[j].launches);
			jw_float(&jw, "total_ns", g->others[j].ns);
			jw_float(&jw, "percent_of_other", g->otherpct[j]);
			jw_close(&jw, '}');
		}
		jw_close(&jw, ']');
		jw_float(&jw, "ratio_to_fastest", g->ratio);
		jw_float(&jw, "p_to_fastest", g->p);
		jw_open(&jw, "why", '[');
		/* By index: the fastest has no why, its pointer NULL. */
		for (j = 0; j < g->nwhy; j++) {
			size_t namelen;

			d = &g->why[j];
			k = groups_nth(&figs, d->fig);
			category(k->key, k->keylen, &namelen);
			jw_open(&jw, NULL, '{');
			jw_string(&jw, "category", k->key + 11, namelen);
			jw_float(&jw, "delta_ms", d->ms);
			jw_float(&jw, "delta_percent", d->pct);
			jw_close(&jw, '}');
		}
		jw_close(&jw, ']');
		jw_open(&jw, "why_parts", '[');
		for (j = 0; j < g->ngrew; j++) {
			k = groups_nth(&figs, g->grew[j].fig);
			jw_open(&jw, NULL, '{');
			part = partname(k, &partlen);
			jw_string(&jw, "part", part, partlen);
			jw_float(&jw, "base", g->grew[j].base);
			jw_float(&jw, "new", g->grew[j].new);
			jw_float(&jw, "change", g->grew[j].change);
			jw_float(&jw, "share_percent", g->grew[j].share);
			jw_close(&jw, '}');
		}
		jw_close(&jw, ']');
		if (g->verdict != NULL)
			jw_string(&jw, "verdict", g->verdict, g->verdictlen);
		else
			jw_null(&jw, "verdict");
		jw_close(&jw, '}');
	}
	jw_close(&jw, ']');
	puteffectsjson(&jw);
	jw_close(&jw, '}');
	putc('\n', fp);
}
