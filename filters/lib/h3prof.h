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
	const char	*path;		/* as shown in messages: "stdin" for -,
					   the trace of a file in between
					   (source_name) */
	int		 unlined;	/* path is such a trace, whose line
					   lineno is not */
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
/*
 * Where the line last read is, for a message: "PATH:LINE", or the trace
 * alone where the file is one in between (source_name).  Valid until the
 * next call.
 */
const char *lines_at(const struct lines *);
/*
 * What a message calls the file at path.  A make that chains the filters
 * passes data between them in files of its own, which are gone once it
 * is done: it names in the environment variable H3PROF_SOURCES the trace
 * each was made of, as NAME<tab>TRACE pairs, all separated by tabs, NAME
 * a file's last part, so that every message names the user's trace.
 * Returns that TRACE, or else path.
 */
const char *source_name(const char *path);
char	*column(char **);
/* *sum += ns, or exit 1 saying that the sum overflows, at l's line. */
void	 sum_ns(int64_t *sum, int64_t ns, const struct lines *l);
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
	const char	*kind;		/* if set, pass over full lines of others */
	int64_t		 prevstart;	/* start of the previous line */
};

void	 ivin_open(struct ivin *, const char *path, int sorted);
int	 ivin_next(struct ivin *, struct interval *);
/* ivin_next's checks of a line lines_next has read: a filter that reads
   the common line faster itself leaves the rest, and their errors, to it. */
int	 ivin_parse(struct ivin *, char *line, size_t len, struct interval *);
void	 ivin_close(struct ivin *);

/*
 * A launch line (h3prof(5)): a CUDA API call's start, end and thread,
 * then a full interval line of the GPU operation it launched, the text
 * columns pointing into the line just read.
 */
struct launch {
	int64_t		 start;		/* of the call, ns */
	int64_t		 end;		/* ns, never before start */
	char		*thread;
	struct interval	 op;
};

/*
 * A stream of launch lines, optionally required to be sorted by the
 * call's start.  put_launch writes the line last read as it was read.
 */
struct launches {
	struct lines	 in;
	int		 sorted;	/* fail unless call start never
					   decreases */
	int64_t		 prevstart;	/* call start of the previous line */
	char		*line;		/* the line last read, its columns
					   split at their tabs */
	size_t		 len;
};

void	 launches_open(struct launches *, const char *path, int sorted);
int	 launches_next(struct launches *, struct launch *);
void	 launches_parse(struct launches *, char *line, size_t len,
	    struct launch *);
void	 put_launch(const struct launches *);
void	 launches_close(struct launches *);

/* The long options of every filter, for getopt_long: --help is -h. */
extern const struct option helpopt[];

/*
 * grow returns the array p of *cap elements of size bytes (size not 0),
 * reallocated if need be to hold more than n, *cap grown by half (from
 * 16) as many times as that takes.  An array past SIZE_MAX bytes, like
 * memory refused, exits 1.
 */
void	*grow(void *p, size_t *cap, size_t n, size_t size);
int	 parse_ns(const char *, int64_t *);
int	 plainword(uint64_t);
uint64_t hashbytes(const char *, size_t);
void	 put_escaped(const char *, size_t);
void	 fput_escaped(const char *, size_t, FILE *);
char	*fmt_int(char *, int64_t);
size_t	 unescape(char *);
void	 put_interval(const struct interval *);
void	 put_fact(const char *prefix, const char *key, int64_t);
/* A fact whose key printf(3) makes of fmt and what follows: any length. */
void	 put_factf(const char *prefix, int64_t, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
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
 * rules_loadx with flags RULES_EXTENDED counts the categories a
 * "communication" line declares, and their rules, which rules_load (the
 * reference's categories) checks and skips; rules_communication says
 * whether category i is one.
 * Categories are numbered 0 to rules_ncategories() - 1 in file order; their
 * names are [A-Za-z0-9_]+ and their descriptions hold no control character.
 */
struct rules;

#define RULES_EXTENDED	1

struct rules	*rules_load(const char *path);
struct rules	*rules_loadx(const char *path, int flags);
int		 rules_communication(const struct rules *, size_t);
const char	*rules_match(const struct rules *, const char *name);
size_t		 rules_ncategories(const struct rules *);
const char	*rules_category(const struct rules *, size_t);
const char	*rules_description(const struct rules *, size_t);

/*
 * welch.c: Welch's t-test of two samples, each its mean, sample variance
 * and n (2 or more): the two-sided p-value; t (of the second against the
 * first) and the degrees of freedom at tp and dfp, NAN without spread.
 */
double	 welch_test(double mean1, double var1, double n1, double mean2,
	    double var2, double n2, double *tp, double *dfp);
/* The two-sided p-value of t on df degrees of freedom; that of an F of
   d1 and d2 degrees of freedom (the chance of one as large or larger). */
double	 student_p(double t, double df);
double	 fisher_p(double f, double d1, double d2);

/*
 * verdict.c: the verdict of a time account, one line by the rule
 * verdict_rule states, as account(1) gives a run's and sweepsum(1) a
 * configuration's, from the means of its runs' figures: the same rule,
 * the same words.  The figures are ns but for the counts; a run's are
 * integers, which print as they are.  The class is the line's words
 * before its first colon.
 *
 * Idle gaps are told apart by length, by the thresholds below, and by
 * their cause, as account(1) tells it: gap_ns[length][cause] is the idle
 * time in gaps of that length and cause, gap_count[length][cause] their
 * number.
 */
enum gaplen { GAP_SHORT, GAP_MEDIUM, GAP_LONG, NGAPLEN };
enum gapcause { GAP_HOST, GAP_LAUNCH, GAP_QUEUED, GAP_UNKNOWN, NGAPCAUSE };
/* Gaps under this are back to back: the per-kernel cost of the GPU. */
#define VERDICT_SHORT_GAP_NS	10000
/* Gaps of this or more are long: no launch overhead is that long. */
#define VERDICT_LONG_GAP_NS	1000000
extern const char *const gaplen_name[NGAPLEN];
extern const char *const gapcause_name[NGAPCAUSE];

struct verdict_figures {
	double	 span_ns;		/* the GPU span */
	double	 comm_exposed_ns;	/* communication not under compute */
	double	 comm_union_ns;		/* time any communication ran */
	double	 copies_ns;		/* copies and memsets not under a
					   kernel */
	double	 idle_ns;		/* the four below together */
	double	 idle_host_ns;		/* the CPU launched late */
	double	 idle_launch_ns;	/* in the launch call */
	double	 idle_queued_ns;	/* an event, a stream, a sync */
	double	 idle_unknown_ns;
	double	 short_kernels;		/* shorter than their launch call */
	double	 kernels, kernel_ns;	/* count and time of the kernels */
	double	 call_p50_ns;		/* the median launch call */
	double	 gap_ns[NGAPLEN][NGAPCAUSE];
	double	 gap_count[NGAPLEN][NGAPCAUSE];
	double	 longest_gap_ns;	/* the longest idle gap */
	double	 longest_gap_at_ns;	/* its start, from the span's */
	int	 means;			/* of runs: counts are per run */
};

extern const char verdict_rule[];
void	 verdict_write(FILE *, const struct verdict_figures *);

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

void	 ivunion_open(struct ivunion *, const char *path, const char *kind);
int	 ivunion_next(struct ivunion *, int64_t *startp, int64_t *endp);
void	 ivunion_close(struct ivunion *);

/*
 * The same union built of intervals given one at a time in start order,
 * beside a filter's other work (devstat(1), account(1)): ivrun_add adds
 * one and returns the gap before it, or -1 where there is none.  A struct
 * ivrun starts zero.
 */
struct ivrun {
	int64_t		 start, end;	/* the union interval open */
	int		 open;
	int64_t		 ns;		/* of the union intervals closed */
	int64_t		 count;		/* of union intervals, the open one
					   too */
};

int64_t	 ivrun_add(struct ivrun *, int64_t start, int64_t end);
int64_t	 ivrun_total(const struct ivrun *);

/*
 * devstat(1)'s figures of one device, of its operations given in start
 * order by devfigs_add (kernel: of kind kernel; l, the input, names the
 * line of an overflow); devfigs_put writes its nine facts to fp, keys
 * PREFIXdevice.DEVICE.NAME, as devstat prints them.  A struct devfigs
 * starts zero.
 */
struct devfigs {
	int64_t		 count;		/* its operations */
	int64_t		 first, last;	/* first start, last end */
	int64_t		 kernels, kernel_ns;
	struct ivrun	 busy;		/* of all its operations */
	struct ivrun	 kunion;	/* of its kernels */
	int64_t		 gaps, gap_ns, gap_max; /* between busy intervals */
};

void	 devfigs_add(struct devfigs *, int64_t start, int64_t end,
	    int kernel, const struct lines *l);
void	 devfigs_put(FILE *fp, const char *prefix, const char *device,
	    const struct devfigs *);

/*
 * The intersection of two unions built at once, as intersect -t gives it
 * of two sorted streams: its pieces (a pair of union intervals that
 * overlap) and their ns.  Each side's intervals come in start order, by
 * ivmeet_add(m, side, ...), side 0 or 1, with ivmeet_bound saying that no
 * later one of the side starts before bound; what can no longer change
 * is counted and let go, so that each side holds a union interval or two
 * as the two sides go on together.  ivmeet_end counts the rest.  Each
 * side's union is its u.  A struct ivmeet starts zero.
 */
struct ivside {
	struct ivrun	 u;
	int64_t		*q;		/* closed union intervals not yet met,
					   start and end, from q[2 * head] */
	size_t		 head, n, cap;	/* cap: of int64_t */
	int		 met;		/* the interval open is met */
	int64_t		 bound;		/* no later interval starts before */
};

struct ivmeet {
	struct ivside	 side[2];
	int64_t		 count, ns;
};

void	 ivmeet_add(struct ivmeet *, int side, int64_t start, int64_t end);
void	 ivmeet_bound(struct ivmeet *, int side, int64_t bound);
void	 ivmeet_end(struct ivmeet *);

/*
 * ordq.c: entries taken least first by (key, tie), for a stream nearly in
 * that order (kernels by correlation id, operations by start): those
 * pushed in order go to a queue at no cost, the others to a heap.
 * ordq_least returns the least entry, or NULL where there is none, valid
 * until the next push or pop; ordq_pop takes it off, there being one.  A
 * struct ordq starts zero; it holds as many entries as are pushed and not
 * popped.
 */
struct ordent {
	int64_t		 key, tie;
	size_t		 val;		/* the caller's: a slot, an index */
};
struct ordq {
	struct ordent	*q;		/* q[head..head + n), in order */
	size_t		 head, n, cap;
	struct ordent	*heap;		/* least first */
	size_t		 nheap, heapcap;
};
void	 ordq_push(struct ordq *, int64_t key, int64_t tie, size_t val);
const struct ordent *ordq_least(const struct ordq *);
struct ordent ordq_pop(struct ordq *);
size_t	 ordq_len(const struct ordq *);
void	 ordq_free(struct ordq *);

/*
 * groups.c: records of a caller's size, each found by a key of bytes, in
 * the order their keys were first seen, as tally(1) and topkernels(1) sum
 * lines by name.  A record starts with its struct group; the rest is the
 * caller's.  A struct groups starts zero but for size.
 *
 * groups_get returns the record of len bytes at key, added on first sight
 * all zero but its struct group.  It stays where it is until the next
 * call.  groups_find returns it, or NULL where there is none, adding
 * nothing; groups_nth returns record i, in first-seen order.  Each caller
 * holds its records to a bound far below 2^32.  Once it looks up no more,
 * a caller may reorder recs, as topkernels sorts it.
 */
struct group {
	const char	*key;		/* a copy, NUL-terminated */
	size_t		 keylen;
	uint64_t	 hash;		/* hashbytes of the key */
};

struct groups {
	size_t		 size;		/* bytes of a record */
	void		*recs;		/* n records, in first-seen order */
	size_t		 n;
	size_t		 maxrecs;	/* records allocated */
	uint32_t	*slots;		/* open hash: 1 + index, 0 empty;
					   never more than half full */
	size_t		 nslots;	/* a power of two */
	char		*keys;		/* the free end of the chunk the keys
					   are copied into, and its bytes */
	size_t		 keysleft;
};

void	*groups_get(struct groups *, const char *key, size_t len);
void	*groups_find(const struct groups *, const char *key, size_t len);
void	*groups_nth(const struct groups *, size_t);

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
/*
 * jqnum writes a double as jq 1.6 prints a number: the same fewest
 * digits, in exponent form (1e-05, 1e+17, 1.5e+300) when the decimal
 * exponent is below -4 or above 15 plus the digits after the first, else
 * fixed without a point for an integer (100, 0.0001, 15000000000000000);
 * -0 as -0, NaN as null and an infinity as the largest double; 32
 * digits at most, and the sign, the point and a NUL.
 */
#define JQNUM_MAX	40

size_t	 jqnum(char buf[JQNUM_MAX], double);
/* a / b as Python divides integers: rounded once; b must not be 0. */
double	 pydiv(int64_t a, int64_t b);

/*
 * utf8.c: utf8_valid says whether len bytes at s are valid UTF-8 (no
 * overlong form, surrogate or code point beyond U+10FFFF), as Python,
 * and so the reference, requires of its input.  utf8_char returns the
 * length of the valid UTF-8 character that starts the avail bytes at s,
 * and sets *cp to its code point, or returns 0 if they do not start with
 * one.
 *
 * shown returns, allocated, the first max of len bytes at s as a message
 * may show them, with "..." if that is not all: a backslash doubled and
 * each byte of a control character (C0, DEL, C1) or of what is not UTF-8
 * as \ooo in octal, as h3lib.sh's h3_shown, so that a name can neither
 * hide in a message nor send the terminal commands.
 */
int	 utf8_valid(const char *s, size_t len);
size_t	 utf8_char(const char *s, size_t avail, uint32_t *cp);
/*
 * utf8_bom returns 3 if the len bytes at s start with the UTF-8 byte
 * order mark, which a spreadsheet writes first in a CSV it saves (nsys
 * never does), else 0: the bytes a CSV reader skips.
 */
size_t	 utf8_bom(const char *s, size_t len);
char	*shown(const char *s, size_t len, size_t max);

/*
 * json.c: JSON texts, as a run.config fact holds one (h3prof(5)).
 *
 * json_number returns the length of the JSON number literal that starts
 * the len bytes at s, or 0 if they do not start with a well-formed one.
 * json_exact says whether a number literal of len bytes at s tells its
 * number apart from every other after a trip through a double, as jq
 * reads numbers: it has at most 15 significant digits and is 0 or of a
 * magnitude from 1e-307 to below 1e308.
 *
 * json_string reads the JSON string whose opening quote is at s, up to
 * end.  It returns NULL and sets *endp past the closing quote, or returns
 * what is wrong and sets *endp where.  With out not NULL it also writes
 * the string's characters to out, UTF-8 (end - s bytes are room enough),
 * and their number to *outlen.  With flags JSON_BYTES a lone surrogate
 * escape \udc80 to \udcff is the byte 0x80 to 0xff, as Python's
 * surrogateescape and json_quote write a byte that is not UTF-8; without,
 * it is an error.
 *
 * json_fact says whether len bytes at s are a JSON text as a fact holds
 * one: a string, a number, true, false, null, [] or {}, alone.
 */
size_t	 json_number(const char *s, size_t len);
int	 json_exact(const char *s, size_t len);
#define JSON_BYTES	1

const char *json_string(const char *s, const char *end, int flags,
	    const char **endp, char *out, size_t *outlen);
int	 json_fact(const char *s, size_t len);

/*
 * jsonw.c: JSON written as Python's json.dumps writes it, with indent=2
 * and ensure_ascii, or as jq 1.6 writes it.
 *
 * json_quote writes len bytes at s to out as a JSON string: printable
 * ASCII, and \" \\ \b \f \n \r \t or \u00XX for the rest, with surrogate
 * pairs beyond U+FFFF; a byte that is not UTF-8 as Python decodes a path
 * (surrogateescape), U+DC00 + the byte, \udcff for \xff, so that text
 * that differs in such bytes stays different.  out needs room for
 * 6 * len + 2 bytes; the length written is returned.
 *
 * A struct jsonw writes one document to fp, set before the first call
 * (the rest zero), in the layout of json.dumps(indent=2); with jq set,
 * strings and numbers as jq writes them: a string's characters beyond
 * ASCII as they are, DEL as \u007f, but a byte that is not UTF-8, which
 * jq cannot hold, as json_quote does; a float as jqnum; with compact set,
 * on one line without spaces, as jq -c; with base, indented as if base
 * levels deep, to be put in a document there by jw_json.  jw_open opens
 * an object or array, c '{' or '[', and jw_close closes it; jw_int,
 * jw_float (as pyfloat or jqnum), jw_null, jw_string (quoted) and jw_json
 * (a JSON text, as it is) write a value.  Each takes the key of the member
 * it starts in the object open, or NULL for an element of the array open
 * or for the document itself; or jw_key starts a member of a key of len
 * bytes, whose value the next call, with key NULL, writes.  jw_quote
 * writes a string alone.  Errors of fp are the caller's to check.
 */
/* Deeper than any document a filter reads and writes again: sweepsum's
   reports, 64 deep, inside the summary's 2. */
#define JW_MAXDEPTH	72

struct jsonw {
	FILE	*fp;
	int	 jq;			/* jq's strings and numbers */
	int	 compact;		/* on one line, as jq -c */
	int	 base;			/* levels of indent before any */
	int	 depth;			/* of the object or array open */
	int	 keyed;			/* jw_key has started a member */
	int	 empty[JW_MAXDEPTH + 1]; /* nothing yet at depth d */
};

size_t	 json_quote(char *out, const char *s, size_t len);
void	 jw_open(struct jsonw *, const char *key, char c);
void	 jw_close(struct jsonw *, char c);
void	 jw_key(struct jsonw *, const char *key, size_t len);
void	 jw_int(struct jsonw *, const char *key, int64_t);
void	 jw_float(struct jsonw *, const char *key, double);
void	 jw_null(struct jsonw *, const char *key);
void	 jw_string(struct jsonw *, const char *key, const char *, size_t);
void	 jw_json(struct jsonw *, const char *key, const char *, size_t);
void	 jw_quote(struct jsonw *, const char *, size_t);

/*
 * outfile.c: write_file puts len bytes at buf in path as Python's
 * open(path, "w") would: through symbolic links, creating the target of
 * a dangling one, failing on a loop of them.  Where it can, path then
 * holds either all of the bytes or what it held before: they go to a
 * temporary file beside the target, renamed over it.  It writes in place,
 * as Python, where the target is not a regular file of its own (/dev/stdout,
 * a FIFO, another user's file), has other hard links that must stay, or
 * no temporary file can be made beside it (a directory not writable).
 * An error exits 1 naming path.  write_file_times also gives the file
 * the access and modification times times[0] and times[1] (futimens(2))
 * before it is renamed into place, so that it never shows another time;
 * a file written in place keeps the time of its writing.
 */
void	 write_file(const char *path, const char *buf, size_t len);
struct timespec;
void	 write_file_times(const char *path, const char *buf, size_t len,
	    const struct timespec *times);

/*
 * outfile.c: out_open makes a new temporary file beside path (mode 0666
 * less the umask) for a filter's -o; out_close flushes and closes it and
 * renames it to path, or exits 1 naming path.  Until then an exit, by
 * err(3) or by SIGHUP, SIGINT or SIGTERM, removes it: path is whole or as
 * it was, so that make, which runs the filters, never takes a partial
 * file for a product.  out_stdout makes stdout such a file, renamed by
 * close_stdout.  At most OUT_MAX at once.  A path that is there and is no
 * regular file (/dev/null, a FIFO) is written in place.
 */
#define OUT_MAX		4
FILE	*out_open(const char *path);
void	 out_close(FILE *, const char *path);
/*
 * A side file of a filter (-l, -m, -d): whole, as out_open's, where whole
 * (the filter's main output is so written), else opened in place; either
 * way closed, checked, by out_close, which closes a file not its own too.
 */
FILE	*out_side(const char *path, int whole);
void	 out_stdout(const char *path);
/* close_stdout's part: the temporary file of out_stdout, if any, renamed. */
void	 out_stdout_done(void);
/* stdout's file of out_stdout renamed, stdout a new one for path. */
void	 out_stdout_next(const char *path);
/* What stdout is, for messages: out_stdout's path, or "stdout". */
const char *out_stdout_name(void);
/*
 * The lines written so far to fp, an out_open or out_stdout file, sorted
 * in place by the integer that starts each, stable (sort -s -k1,1n): all
 * of it is read back into memory.  Of a file written in place that is no
 * regular file, which cannot be read back, nothing.
 */
void	 out_bystart(FILE *fp, const char *path);
/*
 * out_bystart, which also says whether two lines are the same bytes: 1,
 * and the places of two such (from 0, in the order written) at dup[0]
 * and dup[1], of the least start that has a pair, the earlier first;
 * else 0.  dup NULL asks nothing: out_bystart.
 */
int	 out_bystart_dups(FILE *fp, const char *path, size_t dup[2]);

/*
 * record.c: the record of what a product was made from (h3prof(5),
 * Records).  record_write writes to path, whole or not at all (out_open),
 * the line "key<tab>KEY", then a line for each of the ninputs inputs and
 * the nproducts products, in order: its kind, its identity, its path.
 * An input whose modification or change time is later than since (ns;
 * -1: none) was changed while it was read, and is recorded as "changed",
 * which no identity matches.  A path with a tab or newline, or a file
 * that cannot be examined, exits 1.
 * record_identity writes in buf, and returns, the identity of the file
 * at path as a record holds it: device, inode, size, modification and
 * change times in ns, tab-separated; "missing" for no file; "changed" as
 * above; NULL for another error, errno set.
 * mtime_ns is the modification time of path in ns, or exits 1.
 */
#define RECORD_IDMAX	128	/* five numbers and their tabs */
void	 record_write(const char *path, const char *key, int64_t since,
	    const char *const *inputs, size_t ninputs,
	    const char *const *products, size_t nproducts);
const char *record_identity(const char *path, int64_t since,
	    char buf[RECORD_IDMAX]);
int64_t	 mtime_ns(const char *path);

/*
 * jsondoc.c: a JSON document held whole, read into a tree of its values.
 *
 * jsondoc_parse reads the one value in the len bytes at text, which a NUL
 * must follow, its strings read by json_string with flags.  Objects and
 * arrays nested deeper than maxdepth, two members of one object with one
 * key, a string that is not UTF-8 or any other error of JSON returns what
 * is wrong (till the next call), *linenop its line, and leaves doc
 * empty; else NULL.
 * jsondoc_read does the same with flags 0, and on an error exits 1 with
 * "prog: PATH:LINE: what is wrong", path as messages show the document.
 * jsondoc_free frees what a document holds.
 *
 * keyat_repeated sorts n keys and returns the first one read whose key an
 * earlier one has, *firstp set to that one, or NULL if none repeats.
 */
struct jsonnode {
	const char	*key;		/* a member's name, decoded; NULL for
					   an element and the document */
	size_t		 keylen;
	const char	*text;		/* a number, true, false or null as
					   written, a string decoded */
	size_t		 textlen;
	char		 type;		/* '{', '[', '"', '0' for a number,
					   'w' for true, false and null */
	size_t		 child;		/* the first, in text order; 0: none */
	size_t		 next;		/* the next sibling; 0: none */
	unsigned long	 lineno;	/* of its key, or of itself */
};

/* The values, node 0 the document, and the strings they point into. */
struct jsondoc {
	struct jsonnode	*nodes;
	size_t		 n;
	char		*strings;
};

/* A key where it was read. */
struct keyat {
	const char	*s;
	size_t		 len;
	unsigned long	 lineno;
	size_t		 order;		/* its place among the keys tested */
};

const char *jsondoc_parse(struct jsondoc *, const char *text, size_t len,
	    int maxdepth, int flags, unsigned long *linenop);
void	 jsondoc_read(struct jsondoc *, const char *text, size_t len,
	    const char *path, int maxdepth);
void	 jsondoc_free(struct jsondoc *);
const struct keyat *keyat_repeated(struct keyat *, size_t n,
	    const struct keyat **firstp);

/* An nsys SQLite export (export.c), for the filters that link sqlite3. */
typedef struct sqlite3 sqlite3;
sqlite3	*export_open(const char *path);
_Noreturn void export_err(sqlite3 *, const char *path);
int	 export_hastable(sqlite3 *, const char *path, const char *name);
int	 export_launchquery(sqlite3 *, const char *path, char *q, size_t size,
	    int names);

#endif
