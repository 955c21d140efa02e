/*
 * sweepsum: what each setting does, as effects.c finds it: summary.json's
 * effects, interactions and scaling; summary.md's section of a line a
 * key, most influential first; and effects.csv.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweepsum.h"

/* Categories and parts a line of summary.md names in an effect's why. */
#define MAXREASONS	3

/* How intervals and tests are made, as summary.md and the JSON say. */
static const char method[] = "95% interval: a t interval on the log "
    "ratios of the matched pairs, on pairs - 1 degrees of freedom, its "
    "variance widened to the pairs' own repeat noise (delta method) "
    "where that is larger; of a single pair, its repeats' noise on "
    "Welch's degrees of freedom, and none where a side has a single run";

static const struct group *
keyname(const struct factor *f)
{
	return groups_nth(&keys, f->key);
}

/* A value in JSON: a number where every value of its key is one. */
static void
jsonvalue(struct jsonw *jw, const char *member, const struct factor *f,
    size_t v)
{
	const struct entry *e = f->vals[v].e;

	if (f->numeric)
		jw_float(jw, member, f->vals[v].num);
	else
		jw_json(jw, member, e->pretty, e->prettylen);
}

/* A value for a person: a string as it is, another as its JSON. */
static void
mdvalue(FILE *fp, const struct factor *f, size_t v)
{
	const struct entry *e = f->vals[v].e;

	if (e->type == '"')
		mdtext(fp, e->str, e->strlen, MD_CELL);
	else
		mdtext(fp, e->json, e->jsonlen, MD_CELL);
}

/* The other keys of a row, KEY=VALUE by commas, as labels are; a row of
   no other key, "alone".  Into a memory stream. */
static char *
rowlabel(const struct factor *f, const struct row *r, size_t *len)
{
	char *s = NULL;
	FILE *fp;

	if ((fp = open_memstream(&s, len)) == NULL)
		err(1, NULL);
	if (putconfig(fp, r->cells[0].g->first, f->key) == 0)
		fputs("alone", fp);
	if (fclose(fp) == EOF)
		err(1, NULL);
	return s;
}

/* A figure's name in summary.json: its path. */
static const struct group *
fig(size_t i)
{
	return groups_nth(&figs, i);
}

/* A category's or part's short name, its length at *len: the NAME of
   components.NAME.milliseconds, or of time_account.parts.NAME
   (*ispart 1). */
static const char *
reasonname(size_t i, size_t *len, int *ispart)
{
	const struct group *k = fig(i);

	*ispart = !category(k->key, k->keylen, len);
	if (!*ispart)
		return k->key + 11;
	return partname(k, len);
}

/* A largest or smallest pair as an object: where, and its ratio. */
static void
jsonpair(struct jsonw *jw, const char *member, const struct factor *f,
    const struct row *r, double ratio)
{
	char *s;
	size_t len;

	s = rowlabel(f, r, &len);
	jw_open(jw, member, '{');
	jw_string(jw, "at", s, len);
	jw_float(jw, "ratio", ratio);
	jw_close(jw, '}');
	free(s);
}

void
puteffectsjson(struct jsonw *jw)
{
	const struct effect *ef;
	const struct interaction *in;
	const struct scaling *sc;
	const struct factor *f;
	const struct group *k;
	const char *s;
	size_t i, j, len;
	int ispart;

	jw_string(jw, "effects_method", method, strlen(method));
	jw_open(jw, "effects", '[');
	for (ef = effects; ef < effects + neffects; ef++) {
		f = &factors[ef->factor];
		k = keyname(f);
		jw_open(jw, NULL, '{');
		jw_string(jw, "key", k->key, k->keylen);
		jsonvalue(jw, "from", f, ef->from);
		jsonvalue(jw, "to", f, ef->to);
		jw_string(jw, "figure", fig(ef->fig)->key, fig(ef->fig)->keylen);
		jw_float(jw, "ratio", ef->ratio);
		jw_float(jw, "low", ef->low);
		jw_float(jw, "high", ef->high);
		jw_int(jw, "pairs", ef->pairs);
		jw_int(jw, "tested", ef->tested);
		jw_int(jw, "beyond_noise", ef->beyond);
		jsonpair(jw, "largest", f, ef->largestat, ef->largest);
		jsonpair(jw, "smallest", f, ef->smallestat, ef->smallest);
		if (ef->why != NULL) {
			jw_open(jw, "why", '[');
			for (j = 0; j < ef->nwhy; j++) {
				s = reasonname(ef->why[j].fig, &len, &ispart);
				jw_open(jw, NULL, '{');
				jw_string(jw, ispart ? "part" : "category", s,
				    len);
				jw_float(jw, "delta_ms", ef->why[j].ms);
				jw_close(jw, '}');
			}
			jw_close(jw, ']');
		}
		jw_close(jw, '}');
	}
	jw_close(jw, ']');
	jw_open(jw, "uncrossed", '[');
	for (i = 0; i < nfactors; i++)
		if (!factors[i].crossed)
			jw_string(jw, NULL, keyname(&factors[i])->key,
			    keyname(&factors[i])->keylen);
	jw_close(jw, ']');
	jw_open(jw, "interactions", '[');
	for (in = interactions; in < interactions + ninteractions; in++) {
		f = &factors[in->factor];
		jw_open(jw, NULL, '{');
		jw_string(jw, "key", keyname(f)->key, keyname(f)->keylen);
		jsonvalue(jw, "from", f, in->from);
		jsonvalue(jw, "to", f, in->to);
		jw_string(jw, "by", keyname(&factors[in->by])->key,
		    keyname(&factors[in->by])->keylen);
		jsonvalue(jw, "by_from", &factors[in->by], in->atfrom);
		jsonvalue(jw, "by_to", &factors[in->by], in->atto);
		jw_string(jw, "figure", "gpu_span_ns", 11);
		jw_float(jw, "ratio_at_by_from", in->ratioatfrom);
		jw_float(jw, "ratio_at_by_to", in->ratioatto);
		jw_float(jw, "ratio", in->ratio);
		jw_float(jw, "low", in->low);
		jw_float(jw, "high", in->high);
		jw_int(jw, "squares", in->squares);
		jw_float(jw, "p", in->p);
		jw_close(jw, '}');
	}
	jw_close(jw, ']');
	jw_open(jw, "scaling", '[');
	for (sc = scalings; sc < scalings + nscalings; sc++) {
		f = &factors[sc->factor];
		jw_open(jw, NULL, '{');
		jw_string(jw, "key", keyname(f)->key, keyname(f)->keylen);
		jw_string(jw, "figure", fig(sc->fig)->key, fig(sc->fig)->keylen);
		jw_float(jw, "per_unit", sc->per_unit);
		jw_float(jw, "fixed", sc->fixed);
		jw_float(jw, "low", sc->low);
		jw_float(jw, "high", sc->high);
		jw_float(jw, "r2", sc->r2);
		jw_int(jw, "points", sc->points);
		jw_int(jw, "groups", sc->rows);
		jw_float(jw, "p_fit", sc->pfit);
		jw_close(jw, '}');
	}
	jw_close(jw, ']');
}

/* A ratio as summary.md shows it: three decimals, ×. */
static void
ratio(FILE *fp, double r)
{
	fixed(fp, r, 3);
	fputs("×", fp);
}

/* A p-value: two digits, or < 0.001. */
static void
pvalue(FILE *fp, double p)
{
	if (p < 0.001)
		fputs("p < 0.001", fp);
	else
		fprintf(fp, "p = %.2g", p);
}

/* A time in ms with three digits or so, signed where asked. */
static void
ms(FILE *fp, double v, int sign)
{
	double a = fabs(v);

	if (sign)
		fputs(v < 0 ? "−" : "+", fp);
	else if (v < 0)
		putc('-', fp);
	fixed(fp, a, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
	fputs(" ms", fp);
}

/*
 * Of a change of time in category other, the kernel of most time in
 * other of the configuration that has more of it, in the pair of the
 * largest effect: which kernel other is (SDPA's flash_fwd_kernel).
 */
static void
otherkernel(FILE *fp, const struct effect *ef,
    const struct delta *r)
{
	const struct group *k = fig(r->fig);
	const struct conf *g;
	size_t namelen;

	if (!category(k->key, k->keylen, &namelen) || namelen != 5 ||
	    memcmp(k->key + 11, "other", 5) != 0)
		return;
	g = rowat(ef->largestat, r->ms > 0 ? ef->to : ef->from, 0);
	if (g->nothers == 0)
		return;
	fputs(" (`", fp);
	shortname(fp, g->others[0].name, g->others[0].namelen);
	fputs("`)", fp);
}

/* An effect on the span: its ratio, interval, pairs and why. */
static void
mdeffect(FILE *fp, const struct factor *f, const struct effect *ef)
{
	const char *name;
	char *s;
	size_t len, namelen, j;
	int ispart;

	mdvalue(fp, f, ef->from);
	fputs(" → ", fp);
	mdvalue(fp, f, ef->to);
	putc(' ', fp);
	ratio(fp, ef->ratio);
	fputs(" GPU span (", fp);
	if (isnan(ef->low))
		fputs("no interval; ", fp);
	else {
		fputs("95% interval ", fp);
		fixed(fp, ef->low, 3);
		fputs("–", fp);
		fixed(fp, ef->high, 3);
		fputs("; ", fp);
	}
	fprintf(fp, "%zu matched pair%s, ", ef->pairs, ef->pairs == 1 ? "" :
	    "s");
	if (ef->tested == 0)
		fputs("untested: single runs", fp);
	else
		fprintf(fp, "%zu of %zu beyond noise", ef->beyond, ef->tested);
	if (ef->pairs > 1) {
		fputs("; largest at ", fp);
		s = rowlabel(f, ef->largestat, &len);
		mdtext(fp, s, len, MD_CELL);
		free(s);
		putc(' ', fp);
		ratio(fp, ef->largest);
		fputs(", smallest at ", fp);
		s = rowlabel(f, ef->smallestat, &len);
		mdtext(fp, s, len, MD_CELL);
		free(s);
		putc(' ', fp);
		ratio(fp, ef->smallest);
	}
	putc(')', fp);
	/* A reason of less than 1% of the largest explains nothing. */
	for (j = 0; j < ef->nwhy && j < MAXREASONS &&
	    !(fabs(ef->why[j].ms) < fabs(ef->why[0].ms) / 100); j++) {
		fputs(j == 0 ? ": " : ", ", fp);
		ms(fp, ef->why[j].ms, 1);
		putc(' ', fp);
		/* For a person, a part without its unit. */
		name = reasonname(ef->why[j].fig, &namelen, &ispart);
		if (ispart && namelen > 3 &&
		    memcmp(name + namelen - 3, "_ns", 3) == 0)
			namelen -= 3;
		mdtext(fp, name, namelen, MD_CELL);
		otherkernel(fp, ef, &ef->why[j]);
	}
}

/* An interaction for a person: the effect at each value of the other key
   and the test. */
static void
mdinteraction(FILE *fp, const struct interaction *in)
{
	const struct factor *f = &factors[in->factor], *by = &factors[in->by];

	fputs("; ", fp);
	mdvalue(fp, f, in->from);
	fputs(" → ", fp);
	mdvalue(fp, f, in->to);
	fputs(" by ", fp);
	mdtext(fp, keyname(by)->key, keyname(by)->keylen, MD_CELL);
	fputs(": ", fp);
	ratio(fp, in->ratioatfrom);
	fputs(" at ", fp);
	mdvalue(fp, by, in->atfrom);
	fputs(", ", fp);
	ratio(fp, in->ratioatto);
	fputs(" at ", fp);
	mdvalue(fp, by, in->atto);
	if (isnan(in->p))
		fputs(" (untested: single runs)", fp);
	else {
		fputs(in->p < ALPHA ? " (interaction beyond noise, " :
		    " (consistent, ", fp);
		pvalue(fp, in->p);
		putc(')', fp);
	}
}

/*
 * The interactions of factor i on the span, as summary.md says them: of
 * each other key, a single test in full; of several, those beyond noise
 * in full and how many of the rest are consistent, so that a key of many
 * values keeps a line a person reads.
 */
static void
mdinteractions(FILE *fp, size_t i)
{
	const struct interaction *in;
	const struct group *k;
	size_t j, n, beyond, untested;

	for (j = 0; j < nfactors; j++) {
		n = beyond = untested = 0;
		for (in = interactions; in < interactions + ninteractions;
		    in++)
			if (in->factor == i && in->by == j) {
				n++;
				beyond += in->p < ALPHA;
				untested += isnan(in->p);
			}
		for (in = interactions; in < interactions + ninteractions;
		    in++)
			if (in->factor == i && in->by == j &&
			    (n == 1 || in->p < ALPHA))
				mdinteraction(fp, in);
		if (n < 2 || n == beyond)
			continue;
		k = keyname(&factors[j]);
		fputs(beyond > 0 ? "; the other " : "; ", fp);
		fprintf(fp, "%zu by ", n - beyond);
		mdtext(fp, k->key, k->keylen, MD_CELL);
		if (untested == n - beyond)
			fputs(" untested: single runs", fp);
		else if (untested > 0)
			fprintf(fp, " consistent (%zu untested: single runs)",
			    untested);
		else
			fputs(" consistent (p ≥ 0.05)", fp);
	}
}

/* The cost per unit of factor i on the span, as summary.md says it. */
static void
mdscaling(FILE *fp, size_t i)
{
	const struct scaling *sc;
	const struct group *k;

	for (sc = scalings; sc < scalings + nscalings; sc++) {
		if (sc->factor != i || strcmp(fig(sc->fig)->key,
		    "gpu_span_ns") != 0)
			continue;
		k = keyname(&factors[i]);
		fputs("; ", fp);
		ms(fp, sc->per_unit / 1e6, 0);
		fputs(" per unit of ", fp);
		mdtext(fp, k->key, k->keylen, MD_CELL);
		if (!isnan(sc->low)) {
			fputs(" (95% interval ", fp);
			ms(fp, sc->low / 1e6, 0);
			fputs(" to ", fp);
			ms(fp, sc->high / 1e6, 0);
			putc(')', fp);
		}
		fputs(", ", fp);
		ms(fp, sc->fixed / 1e6, 0);
		fputs(" fixed, R² ", fp);
		fixed(fp, sc->r2, 3);
		if (isnan(sc->pfit))
			fputs(" (fit untested: no repeats)", fp);
		else if (sc->pfit < ALPHA) {
			fputs(" (not a line: residuals beyond the repeats' "
			    "noise, ", fp);
			pvalue(fp, sc->pfit);
			putc(')', fp);
		}
	}
}

void
puteffectsmd(FILE *fp)
{
	const struct effect *ef;
	const struct factor *f;
	const struct group *k;
	size_t i, n;
	int adjacent;

	if (toomany > 0)
		fprintf(fp, "## What each setting does\n\n%zu configuration "
		    "keys vary: more than a grid has; no effects.\n\n",
		    toomany);
	if (nfactors == 0)
		return;
	/* A sentence a line, in one paragraph: no line grows long. */
	fputs("## What each setting does\n\n"
	    "For each configuration key of two values or more, most "
	    "influential first: the ratio of GPU spans from one value to "
	    "the next,\nthe geometric mean over the matched pairs "
	    "(configurations equal in every other key), with its ", fp);
	fputs(method + 4, fp);
	fputs(";\nbeyond noise counts the pairs Welch's test tells apart "
	    "(p < 0.05); then the categories of kernels and the parts of "
	    "the GPU span (time_account.parts) that move most.\n"
	    "An interaction is a t test of the difference of the log ratios "
	    "at two values of another key, over the grid's 2×2 squares.\n"
	    "A cost per unit is the slope within the groups of "
	    "configurations equal in every other key.\n"
	    "Every pair of values and every figure is in summary.json "
	    "(effects, interactions, scaling) and effects.csv.\n\n", fp);
	for (i = 0; i < nfactors; i++) {
		f = &factors[i];
		k = keyname(f);
		fputs("- ", fp);
		mdtext(fp, k->key, k->keylen, MD_CELL);
		fputs(": ", fp);
		if (!f->crossed) {
			fputs("its values are never matched (no configurations "
			    "equal in every other key differ in it alone): "
			    "the grid is not crossed there.\n", fp);
			continue;
		}
		/* Of each value to the next, where those are matched, else
		   every pair matched: all pairs are in the JSON. */
		for (n = 0, adjacent = 1; n == 0 && adjacent >= 0; adjacent--)
			for (ef = effects; ef < effects + neffects; ef++) {
				if (ef->factor != i || ef->why == NULL ||
				    (adjacent && ef->to != ef->from + 1))
					continue;
				if (n++)
					fputs("; ", fp);
				mdeffect(fp, f, ef);
			}
		mdinteractions(fp, i);
		mdscaling(fp, i);
		fputs(".\n", fp);
	}
	putc('\n', fp);
}

/* A value in a CSV: a number where every value of its key is one. */
static void
csvvalue(FILE *fp, const struct factor *f, size_t v)
{
	const struct entry *e = f->vals[v].e;

	if (f->numeric)
		putnum(fp, f->vals[v].num);
	else if (e->type == '"')
		csvstring(fp, e->str, e->strlen);
	else
		csvstring(fp, e->json, e->jsonlen);
}

/* A number in a CSV, nothing for none. */
static void
csvnum(FILE *fp, double v)
{
	putc(',', fp);
	if (!isnan(v))
		putnum(fp, v);
}

void
puteffectscsv(FILE *fp)
{
	const struct effect *ef;
	const struct factor *f;
	char *s;
	size_t len;

	fputs("\"key\",\"from\",\"to\",\"figure\",\"ratio\",\"low\","
	    "\"high\",\"pairs\",\"tested\",\"beyond_noise\",\"largest_at\","
	    "\"largest\",\"smallest_at\",\"smallest\"\n", fp);
	for (ef = effects; ef < effects + neffects; ef++) {
		f = &factors[ef->factor];
		csvstring(fp, keyname(f)->key, keyname(f)->keylen);
		putc(',', fp);
		csvvalue(fp, f, ef->from);
		putc(',', fp);
		csvvalue(fp, f, ef->to);
		putc(',', fp);
		csvstring(fp, fig(ef->fig)->key, fig(ef->fig)->keylen);
		csvnum(fp, ef->ratio);
		csvnum(fp, ef->low);
		csvnum(fp, ef->high);
		fprintf(fp, ",%zu,%zu,%zu,", ef->pairs, ef->tested,
		    ef->beyond);
		s = rowlabel(f, ef->largestat, &len);
		csvstring(fp, s, len);
		free(s);
		csvnum(fp, ef->largest);
		putc(',', fp);
		s = rowlabel(f, ef->smallestat, &len);
		csvstring(fp, s, len);
		free(s);
		csvnum(fp, ef->smallest);
		putc('\n', fp);
	}
}
