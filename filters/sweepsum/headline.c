/*
 * sweepsum: the headline, the sentence the verdict opens with, in
 * summary.md and as summary.json's headline.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sweepsum.h"

/* The p-value below which a difference is beyond noise. */
#define ALPHA		0.05

/* A group's label as the verdict shows it: in Markdown, or as it is. */
static void
putlabel(FILE *fp, const struct conf *g, int md)
{
	if (md)
		named(fp, g);
	else if (g->labellen == 0)
		fputs("(none)", fp);
	else
		fwrite(g->label, 1, g->labellen, fp);
}

/*
 * A p-value as the verdict shows it: two digits, more where two would
 * round it across ALPHA, so that the figure never says what the words
 * beside it deny ("beyond noise, p = 0.05" of 0.0498).
 */
static void
putp(FILE *fp, double p)
{
	char buf[32];
	int prec;

	if (p < 0.001) {
		fputs("p < 0.001", fp);
		return;
	}
	for (prec = 2; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, p);
		if ((strtod(buf, NULL) < ALPHA) == (p < ALPHA))
			break;
	}
	fprintf(fp, "p = %s", buf);
}

/* A group's span against the fastest's: its ratio and the test. */
void
against(FILE *fp, const struct conf *g)
{
	const struct conf *f = bytime[0];

	fixed(fp, g->ratio, 3);
	fputs("× as long, ", fp);
	if (isnan(g->p)) {
		fputs(groupfig(f, "gpu_span_ns")->n >= 2 ? "untested: it has" :
		    groupfig(g, "gpu_span_ns")->n >= 2 ? "untested: the "
		    "fastest has" : "untested: each has", fp);
		fputs(" a single run", fp);
	} else {
		fputs(g->p < ALPHA ? "beyond noise, " : "within noise, ", fp);
		putp(fp, g->p);
	}
}

/*
 * The sentence the verdict opens with: the fastest, the test of the next
 * against it, and the slowest.
 */
void
headline(FILE *fp, int md)
{
	if (nreports == 0) {
		fputs("No run was reduced.", fp);
		return;
	}
	if (ntimed == 0) {
		fputs("No configuration has a GPU span.", fp);
		return;
	}
	fputs(ntimed == 1 ? "Only " : "Fastest: ", fp);
	putlabel(fp, bytime[0], md);
	fputs(ntimed == 1 ? " has a GPU span: " : ", GPU span ", fp);
	fixed(fp, mean(bytime[0], "gpu_span_ns") / 1e6, 3);
	fputs(" ms", fp);
	if (ntimed > 1) {
		fputs("; next: ", fp);
		putlabel(fp, bytime[1], md);
		fputs(", ", fp);
		against(fp, bytime[1]);
	}
	if (ntimed > 2) {
		fputs("; slowest: ", fp);
		putlabel(fp, bytime[ntimed - 1], md);
		fputs(", ", fp);
		fixed(fp, bytime[ntimed - 1]->ratio, 3);
		fputs("× as long", fp);
	}
	putc('.', fp);
}
