/*
 * h3prof.h: what the h3prof filters share.
 *
 * Every filter reads and writes the line formats of h3prof(5): interval
 * lines and fact lines.  Errors are reported with err(3) as
 * "prog: FILE:LINE: what is wrong" and exit 1; usage errors exit 2.
 */
#ifndef H3PROF_H
#define H3PROF_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* Longest CSV field, kernel name or rule accepted, in bytes. */
#define H3_MAXFIELD	(1u << 20)
/* Longest text line accepted: a name escaped at worst doubles. */
#define H3_MAXLINE	(2 * H3_MAXFIELD + 4096)

/* Exit status for usage errors; bad data and I/O exit 1. */
#define EXIT_USAGE	2

/*
 * A source of text lines in bounded memory that knows its position.
 * A line longer than H3_MAXLINE, or one holding a NUL byte, is an error.
 */
struct lines {
	int		 fd;
	const char	*path;		/* as shown in messages: "stdin" for - */
	unsigned long	 lineno;	/* number of the line last returned */
	char		*buf;
	size_t		 cap;		/* bytes allocated in buf */
	size_t		 off;		/* start of the unread bytes in buf */
	size_t		 len;		/* end of the unread bytes in buf */
	int		 eof;		/* read(2) has returned 0: set as
					   lines_next returns a last line
					   without a newline, or NULL */
};

void	 lines_open(struct lines *, const char *path);
char	*lines_next(struct lines *, size_t *lenp);
void	 lines_close(struct lines *);

/*
 * One interval line.  A bare interval has only start and end; a full one
 * has all seven columns, the text ones pointing into the line just read.
 */
struct interval {
	int64_t	 start;			/* ns */
	int64_t	 end;			/* ns, never before start */
	int	 full;			/* all seven columns are present */
	char	*kind;
	char	*device;
	char	*stream;
	char	*category;
	char	*name;			/* escaped as in h3prof(5) */
	size_t	 namelen;		/* strlen(name), as the line tells */
};

/* A stream of interval lines, optionally required to be sorted by start. */
struct ivin {
	struct lines	 in;
	int		 sorted;	/* fail unless start never decreases */
	int64_t		 prevstart;	/* start of the previous line */
};

void	 ivin_open(struct ivin *, const char *path, int sorted);
int	 ivin_next(struct ivin *, struct interval *);
void	 ivin_close(struct ivin *);

/* The long options of every filter, for getopt_long: --help is -h. */
extern const struct option helpopt[];

int	 parse_ns(const char *, int64_t *);
int	 plainword(uint64_t);
uint64_t hashbytes(const char *, size_t);
void	 put_escaped(const char *, size_t);
char	*fmt_int(char *, int64_t);
size_t	 unescape(char *);
void	 put_interval(const struct interval *);
void	 put_fact(const char *prefix, const char *key, int64_t);
void	 buffer_stdout(void);
void	 close_stdout(void);
_Noreturn void usage_exit(const char *, int);

/*
 * rules.c: the rules file of classify(1), which names the component
 * categories in report order, describes them, and says by substring or
 * regular expression which kernel names belong to each.
 *
 * rules_load reads a rules file, or with path NULL the default one:
 * $H3PROF_RULES, else ../share/h3prof/h3.rules beside the running program.
 * A bad file exits 1 with "prog: FILE:LINE: what is wrong".
 * rules_match returns the category of an unescaped kernel name: that of the
 * first rule that matches, else the fallback.
 * Categories are numbered 0 to rules_ncategories() - 1 in file order; their
 * names are [A-Za-z0-9_]+ and their descriptions hold no control character.
 */
struct rules;

struct rules	*rules_load(const char *path);
const char	*rules_match(const struct rules *, const char *name);
size_t		 rules_ncategories(const struct rules *);
const char	*rules_category(const struct rules *, size_t);
const char	*rules_description(const struct rules *, size_t);

/*
 * ivunion.c: the union of the intervals of a stream sorted by start, as
 * merge(1) and intersect(1) need it, in constant memory.
 */
struct ivunion {
	struct ivin	 in;
	int64_t		 start;		/* the union interval being built */
	int64_t		 end;
	int		 pending;	/* start and end hold one */
};

void	 ivunion_open(struct ivunion *, const char *path);
int	 ivunion_next(struct ivunion *, int64_t *startp, int64_t *endp);
void	 ivunion_close(struct ivunion *);

/*
 * pyfloat.c: a double as Python's repr() and json.dumps write it: the
 * fewest digits that read back as it, in exponent form (1e-05, 1.5e+16)
 * when the decimal exponent is below -4 or 16 or more, else fixed with a
 * digit after the point (100.0, 0.0001); NaN and Infinity as json.dumps
 * writes them.  pyfloat writes it NUL-terminated to buf and returns its
 * length.
 */
#define PYFLOAT_MAX	32

size_t	 pyfloat(char buf[PYFLOAT_MAX], double);
/* a / b as Python divides integers: rounded once; b must not be 0. */
double	 pydiv(int64_t a, int64_t b);

/*
 * utf8.c: utf8_valid says whether len bytes at s are valid UTF-8 (no
 * overlong form, surrogate or code point beyond U+10FFFF), as Python,
 * and so the reference, requires of its input.
 */
int	 utf8_valid(const char *s, size_t len);

#endif
