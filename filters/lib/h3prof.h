/*
 * h3prof.h: what the h3prof filters share.
 *
 * Every filter reads and writes the line formats of h3prof(5): interval
 * lines and fact lines.  Errors are reported with err(3) as
 * "prog: FILE:LINE: what is wrong" and exit 1; usage errors exit 2.
 */
#ifndef H3PROF_H
#define H3PROF_H

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
	int		 eof;		/* read(2) has returned 0 */
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

int	 parse_ns(const char *, int64_t *);
void	 put_escaped(const char *, size_t);
size_t	 unescape(char *);
void	 put_interval(const struct interval *);
void	 put_fact(const char *prefix, const char *key, int64_t);
void	 close_stdout(void);

#endif
