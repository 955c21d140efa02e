/*
 * sweepsum.h: what the stages of sweepsum(1) share, one file a stage:
 *
 *	read.c		the list, and each run's report (or its failure)
 *	kernels.c	the kernel tables beside the reports: checked as
 *			they are read, and written into kernels.tsv
 *	reduce.c	the runs into groups, and each figure's statistics
 *	judge.c		the groups fastest first, each tested against the
 *			fastest and explained by its categories; the
 *			verdict of each one's time account
 *	headline.c	the sentence the verdict opens with
 *	grid.c		the configuration keys that vary, their values
 *			and the configurations equal in every other key
 *	effects.c	what each configuration key does: its effects,
 *			interactions and cost per unit
 *	effectsput.c	those in summary.json, summary.md and effects.csv
 *	json.c		summary.json
 *	csv.c		summary.csv and groups.csv
 *	md.c		summary.md
 *	util.c		copies, comparisons and text the stages share
 *
 * and ../sweepsum.c, main, which runs them in that order and renames the
 * outputs into place.  The state is the globals below, defined there.
 */
#ifndef SWEEPSUM_H
#define SWEEPSUM_H

#include <sys/types.h>

#include <stdint.h>
#include <stdio.h>

#include "h3prof.h"

/* A figure of a run: a number, or null. */
struct value {
	size_t		 fig;		/* index in figs */
	int		 isnull;
	double		 v;
};

/* A member of a run's configuration. */
struct entry {
	size_t		 key;		/* index in keys */
	char		 type;		/* as struct jsonnode's */
	char		*str;		/* a string's bytes */
	size_t		 strlen;
	char		*json;		/* the value as jq -c writes it */
	size_t		 jsonlen;
	char		*pretty;	/* and as summary.json's groups do */
	size_t		 prettylen;
};

/* A kernel of category other among a run's top kernels. */
struct okernel {
	char		*name;
	size_t		 namelen;
	double		 launches;
	double		 ns;
};

/* The scope of a report, as its scope records the setting: the NVTX
   ranges of RANGE with SKIP, or the WINDOW. */
struct scope {
	char		 kind;		/* 'r' a range, 'w' a window, 0 none */
	char		*text;		/* RANGE's pattern or WINDOW's text */
	size_t		 textlen;
	int64_t		 skip;		/* SKIP of a range */
};

/* A run: a report, or a failure. */
struct run {
	char		*name;		/* run.name, or the list's */
	size_t		 namelen;
	char		*error;		/* why it failed; NULL: a report */
	size_t		 errorlen;
	struct value	*vals;		/* its figures, as they first appear */
	size_t		 nvals;
	struct entry	*config;	/* run.config, in its order */
	size_t		 nconfig;
	struct okernel	*others;
	size_t		 nothers;
	off_t		 off;		/* its report in scratch */
	size_t		 len;
	size_t		 order;		/* in the list, for stable sorts */
	size_t		 group;		/* index in confs */
	char		*listname;	/* its name in the list */
	size_t		 listnamelen;
	char		*table;		/* its kernels.tsv; NULL: none */
	struct scope	 scope;		/* its report's */
};

/* The statistics of a figure in a group; NAN stands for null. */
struct stats {
	size_t		 fig;
	size_t		 n;
	double		 mean, stddev, min, max;
};

/* A group: the runs of one configuration, less the repeat keys. */
struct conf {
	struct group	 key;		/* the configuration in jq's order */
	size_t		 index;		/* in confs */
	struct run	*first;		/* its first run by name */
	struct run	**runs;		/* by name */
	size_t		 n;
	struct stats	*stats;		/* of each of its figures */
	size_t		 nstats;
	struct stats	**byfig;	/* the same by figure, to look up */
	struct okernel	*others;	/* its other_kernels */
	double		*otherpct;
	size_t		 nothers;
	double		 ratio;		/* to the fastest; NAN: null */
	double		 p;		/* Welch's of its span against the
					   fastest's; NAN: untested */
	struct delta	*why;		/* against the fastest, largest first */
	size_t		 nwhy;
	struct grown	*grew;		/* the account's parts that grew */
	size_t		 ngrew;
	int		 unconfigured;	/* a run without configuration */
	char		*label;
	size_t		 labellen;
	char		*verdict;	/* of its means' time account, by
					   verdict.c; NULL: a run has none */
	size_t		 verdictlen;
};

/* A name seen: a figure's or a configuration key's, numbered in order. */
struct name {
	struct group	 name;
	size_t		 index;
	size_t		 mark;		/* 1 + the last run or group that had
					   it, for unions */
	size_t		 at;		/* its place in that one's list */
	size_t		 elem;		/* of a figure: 1 + the element of an
					   array its path is in, 0: none */
	int		 nested;	/* in an array inside that element */
};

/* An element of an array of the reports, as element_id names it. */
struct element {
	struct group	 name;		/* its path: ARRAY.ID */
	size_t		 index;		/* in elems */
	size_t		 array;		/* index in arrays */
	double		 ns;		/* kernel_time_ns over the runs */
	int		 kept;		/* among the TOPNAMES of its array */
};

/* A category's difference from the fastest configuration; or, in an
   effect's why, a category's or a part's over its matched pairs. */
struct delta {
	size_t		 fig;		/* components.NAME.milliseconds, or
					   time_account.parts.NAME */
	double		 ms;		/* mean less the fastest's */
	double		 pct;		/* of the fastest's; NAN: it had 0
					   or, in an effect's why, none */
	size_t		 order;		/* of the figure, for ties */
};

/*
 * A part of the time account that grew against the fastest, as make
 * compare explains a regression of the span (h3compare.jq's
 * explain_parts): the MAXGROWN that grew most, most first.
 */
#define MAXGROWN	3
struct grown {
	size_t		 fig;		/* time_account.parts.NAME */
	double		 base, new;	/* means, ns: the fastest's, its */
	double		 change;	/* new less base, above 0 */
	double		 share;		/* percent of the span's change;
					   NAN where that is 0 */
	size_t		 order;		/* of the figure, for ties */
};

extern struct run *runs;		/* every run, reports first once
					   sorted */
extern size_t nruns;
extern size_t nreports;			/* runs with a report */
extern struct groups figs;		/* the figures' names (struct name) */
extern struct groups keys;		/* the configuration keys (struct
					   name) */
extern struct groups confs;		/* the groups (struct conf) */
extern struct groups elems;		/* the elements of the reports'
					   arrays (struct element) */
extern struct groups arrays;		/* those arrays (struct name) */
extern struct conf **byname;		/* the groups as summary.json lists
					   them */
extern struct conf **bytime;		/* as summary.md's table: fastest
					   first */
extern size_t ntimed;			/* groups with a GPU span */
extern uint64_t contents;		/* hash of the list and the reports,
					   for the stamp */
extern char stamp[80];			/* of this summary */
extern char **repeat;			/* -r: the keys of repeats */
extern size_t nrepeat;
extern struct scope scope;		/* of the first report in the list */
extern int scopesdiffer;		/* some report's is another */
extern FILE *scratch;			/* the reports, as summary.json
					   writes them */

/* The p-value below which a difference is beyond noise. */
#define ALPHA		0.05

/* The parts of the time account, as figures begin. */
#define PARTS		"time_account.parts."

/* A value of a configuration key. */
struct kvalue {
	const struct entry *e;		/* as a group that has it holds it */
	int		 isnum;		/* a number, or a string of one */
	double		 num;
};

/* A configuration at a factor's value v (and another's w) in a row. */
struct cell {
	size_t		 v, w;		/* indices in the factors' values */
	struct conf	*g;
};

/* The configurations equal in every key but a factor's (or two). */
struct row {
	struct group	 rest;		/* a hash of their key without it */
	struct cell	*cells;		/* sorted by value */
	size_t		 n, max;
};

/* A configuration key of two values or more, repeat keys aside. */
struct factor {
	size_t		 key;		/* index in keys */
	size_t		 index;		/* among the factors by name */
	struct kvalue	*vals;		/* sorted: numbers first */
	size_t		 nvals;
	int		 numeric;	/* every value a number */
	int		 crossed;	/* some pair of values is matched */
	struct groups	 rows;		/* struct row */
	size_t		*valof;		/* the value of each group (by its
					   index in confs), SIZE_MAX: none */
	double		 influence;	/* the largest |log ratio| of the
					   span over its pairs of values */
};

/* The effect of a factor from one value to another on a figure. */
struct effect {
	size_t		 factor;	/* index in factors */
	size_t		 from, to;	/* indices in its values, from < to */
	size_t		 fig;
	size_t		 figorder;	/* in effectfigs */
	double		 logratio;	/* the mean log ratio over the pairs */
	double		 ratio, low, high; /* and its 95% interval; NAN:
					   none */
	double		 df;
	size_t		 pairs, tested, beyond;	/* matched, with repeats
					   on both sides, beyond noise */
	double		 largest, smallest;
	const struct row *largestat, *smallestat;
	struct delta	*why;		/* of the span, largest first */
	size_t		 nwhy;
};

/* Whether a factor's effect on the span depends on another's value. */
struct interaction {
	size_t		 factor, by;	/* indices in factors */
	size_t		 from, to;	/* values of factor, next in order */
	size_t		 atfrom, atto;	/* values of by, next in order */
	size_t		 squares;	/* 2x2 cells of the grid */
	double		 ratioatfrom, ratioatto; /* factor's at each */
	double		 logratio, ratio, low, high, df, p;
};

/* A factor's cost per unit on a figure. */
struct scaling {
	size_t		 factor, fig;
	double		 per_unit, fixed, low, high, r2, df;
	double		 pfit;		/* of the residuals against the
					   repeats' noise; NAN: untested */
	size_t		 points, rows;
};

extern struct factor *factors;		/* most influential first */
extern size_t nfactors;
extern struct effect *effects;		/* by factor, pair, figure */
extern size_t neffects;
extern struct interaction *interactions;
extern size_t ninteractions;
extern struct scaling *scalings;
extern size_t nscalings;
extern size_t *effectfigs;		/* the span, kernel time, the
					   categories, the account's parts */
extern size_t neffectfigs;
extern size_t toomany;			/* keys that vary, where more than
					   effects take; else 0 */

/* read.c */
void	 readlist(const char *path, const char *dir);
int	 samescope(const struct scope *, const struct scope *);
void	 failed(struct run *, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* kernels.c */
int	 table(struct run *, const char *path);
void	 putkernelstsv(FILE *);

/* reduce.c */
int	 byrunname(const void *, const void *);
void	 rankelements(void);
void	 group(void);
void	 reduce(void);
int	 isrepeat(const struct group *);
size_t	 putconfig(FILE *, const struct run *, size_t skip);
size_t	*figunion(int bygroup, size_t *np);
const struct stats *groupstats(const struct conf *, size_t fig);
const struct stats *groupfig(const struct conf *, const char *name);
double	 mean(const struct conf *, const char *fig);

/* judge.c */
void	 judge(void);
int	 numeric(const char *, size_t);
int	 category(const char *, size_t, size_t *namelen);
size_t	*categories(size_t *np);
const char *partname(const struct group *, size_t *len);
size_t	*accountparts(size_t *np);
int	 bylargest(const void *, const void *);
double	 meanor0(const struct conf *, size_t fig);
double	 idlesplit(const struct conf *, int cause);

/* headline.c */
void	 headline(FILE *, int md);
void	 against(FILE *, const struct conf *);

/* A matched pair: a row where a factor has both values a and b. */
struct match {
	size_t		 a, b;
	const struct row *r;
};

/* grid.c */
void	 gatherfactors(void);
struct match *matches(const struct factor *, size_t *np);
void	*rowof(struct groups *, const struct conf *, const struct group *k1,
	    const struct group *k2);
void	 addcell(struct row *, size_t v, size_t w, struct conf *);
void	 sortcells(struct row *);
struct conf *rowat(const struct row *, size_t v, size_t w);

/* effects.c, effectsput.c */
void	 effectsof(void);
void	 puteffectsjson(struct jsonw *);
void	 puteffectsmd(FILE *);
void	 puteffectscsv(FILE *);

/* json.c, csv.c, md.c */
void	 putsummaryjson(FILE *);
void	 putsummarycsv(FILE *);
void	 putgroupscsv(FILE *);
void	 putsummarymd(FILE *);
void	 shortname(FILE *, const char *, size_t);
void	 csvstring(FILE *, const char *, size_t);

/* util.c */
char	*copy(const char *, size_t);
int	 cmpbytes(const char *, size_t, const char *, size_t);
int	 cmpnum(double, double);
struct name *intern(struct groups *, const char *, size_t);
void	 putnum(FILE *, double);
size_t	 character(const char *s, const char *end, uint32_t *cp, int *bad);
void	 fixed(FILE *, double, int decimals);
void	 mdtext(FILE *, const char *, size_t, int flags);
void	 named(FILE *, const struct conf *);

/* What mdtext does besides: a newline as a space, | as \|, or both; in
   a code span, no HTML escapes, which it shows as they are. */
#define MD_NEWLINE	1
#define MD_BAR		2
#define MD_CELL		(MD_NEWLINE | MD_BAR)
#define MD_CODE		4

#endif
