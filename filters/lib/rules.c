/*
 * rules.c: read a rules file of classify(1) and match kernel names by it.
 * See h3prof.h and classify(1).
 */
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/* Most categories a rules file may declare: as many as tally(1) takes. */
#define MAXCATEGORIES	1024
/* The rules file used when no path is given, relative to the program. */
#define BESIDE_BIN	"/../share/h3prof/h3.rules"

/* One "NAME contains TOKEN" or "NAME regex ERE" line. */
struct rule {
	size_t		 category;	/* index into rules.name */
	int		 isregex;
	char		*token;		/* the substring, or the ERE as written */
	regex_t		 re;		/* compiled token when isregex */
};

struct rules {
	char		**name;		/* category names in file order */
	char		**desc;		/* their descriptions */
	int		 *comm;		/* declared by communication */
	size_t		  ncat;
	int		  extended;	/* RULES_EXTENDED: communication
					   categories count */
	char		**skipped;	/* those declared that do not */
	size_t		  nskipped;
	struct rule	 *rule;		/* in file order: the first match wins */
	size_t		  nrule;
	size_t		  fallback;	/* category of names no rule matches */
};

/* Grow arr, of n elements of size each, by one and return the new one. */
static void *
append(void *arr, size_t n, size_t size)
{
	if ((arr = reallocarray(arr, n + 1, size)) == NULL)
		err(1, NULL);
	return arr;
}

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Skip blanks, then split off the word there; "" when none is left. */
static char *
word(char **p)
{
	char *s = *p, *w;

	while (blank(*s))
		s++;
	for (w = s; *s != '\0' && !blank(*s); s++)
		;
	if (*s != '\0')
		*s++ = '\0';
	*p = s;
	return w;
}

/* The rest of the line after the blanks at p: a token or a description. */
static char *
rest(char *p)
{
	while (blank(*p))
		p++;
	return p;
}

/* Index of category name, or -1 if none is declared by that name. */
static ssize_t
find(const struct rules *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->ncat; i++)
		if (strcmp(r->name[i], name) == 0)
			return i;
	return -1;
}

/* Whether name is a communication category skipped without -x. */
static int
isskipped(const struct rules *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nskipped; i++)
		if (strcmp(r->skipped[i], name) == 0)
			return 1;
	return 0;
}

/*
 * "category NAME DESCRIPTION": declare the next category in report order;
 * "communication NAME DESCRIPTION", one of communication kernels, which
 * only an extended reader counts (the reference has none): for others
 * the category and its rules are checked and skipped.
 */
static void
declare(struct rules *r, struct lines *l, char *p, int comm)
{
	const char *name = word(&p), *desc = rest(p), *s;

	if (*name == '\0')
		errx(1, "%s:%lu: category without a name", l->path, l->lineno);
	if (name[strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789_")] != '\0')
		errx(1, "%s:%lu: bad category name \"%.40s\": use only "
		    "letters, digits and _", l->path, l->lineno, name);
	if (strcmp(name, "category") == 0 || strcmp(name, "fallback") == 0)
		errx(1, "%s:%lu: category name \"%s\" is reserved", l->path,
		    l->lineno, name);
	if (find(r, name) != -1 || isskipped(r, name))
		errx(1, "%s:%lu: duplicate category \"%s\"", l->path,
		    l->lineno, name);
	if (r->ncat == MAXCATEGORIES)
		errx(1, "%s:%lu: more than %d categories", l->path,
		    l->lineno, MAXCATEGORIES);
	if (*desc == '\0')
		errx(1, "%s:%lu: category \"%s\" has no description",
		    l->path, l->lineno, name);
	/* Descriptions go into JSON strings and text columns as they are. */
	for (s = desc; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			errx(1, "%s:%lu: description of \"%s\" holds a "
			    "control character", l->path, l->lineno, name);
	if (blank(s[-1]))
		errx(1, "%s:%lu: description of \"%s\" ends in a blank",
		    l->path, l->lineno, name);
	if (comm && !r->extended) {
		r->skipped = append(r->skipped, r->nskipped,
		    sizeof(*r->skipped));
		if ((r->skipped[r->nskipped++] = strdup(name)) == NULL)
			err(1, NULL);
		return;
	}
	r->comm = append(r->comm, r->ncat, sizeof(*r->comm));
	r->comm[r->ncat] = comm;
	r->name = append(r->name, r->ncat, sizeof(*r->name));
	r->desc = append(r->desc, r->ncat, sizeof(*r->desc));
	if ((r->name[r->ncat] = strdup(name)) == NULL ||
	    (r->desc[r->ncat] = strdup(desc)) == NULL)
		err(1, NULL);
	r->ncat++;
}

/* "fallback NAME": the category of names that no rule matches. */
static void
fallback(struct rules *r, struct lines *l, char *p, int *seen)
{
	const char *name = word(&p);
	ssize_t i;

	if (*name == '\0')
		errx(1, "%s:%lu: fallback without a category", l->path,
		    l->lineno);
	if (*rest(p) != '\0')
		errx(1, "%s:%lu: text after fallback category \"%s\"",
		    l->path, l->lineno, name);
	if ((i = find(r, name)) == -1)
		errx(1, "%s:%lu: %s category \"%.40s\"", l->path,
		    l->lineno, isskipped(r, name) ? "a communication" :
		    "unknown", name);
	if (*seen)
		errx(1, "%s:%lu: second fallback", l->path, l->lineno);
	*seen = 1;
	r->fallback = i;
}

/* "NAME contains TOKEN" or "NAME regex ERE": one more rule, tried last. */
static void
addrule(struct rules *r, struct lines *l, const char *name, char *p)
{
	struct rule *ru;
	const char *how = word(&p);
	char *token = rest(p), msg[256];
	size_t len = strlen(token);
	ssize_t i;
	int e;

	if ((i = find(r, name)) == -1 && !isskipped(r, name))
		errx(1, "%s:%lu: unknown category \"%.40s\" (declare it with "
		    "a category line first)", l->path, l->lineno, name);
	if (strcmp(how, "contains") != 0 && strcmp(how, "regex") != 0)
		errx(1, "%s:%lu: unknown match \"%.40s\": use contains or "
		    "regex", l->path, l->lineno, how);
	if (len == 0)
		errx(1, "%s:%lu: %s without a token", l->path, l->lineno,
		    how);
	/* Invisible trailing blanks would match differently than they read. */
	if (blank(token[len - 1]) || token[len - 1] == '\r')
		errx(1, "%s:%lu: token ends in white space (write a regex "
		    "ending in [ ] for a trailing blank)", l->path, l->lineno);
	if (i == -1 && strcmp(how, "regex") != 0)
		return;		/* a skipped category's */
	r->rule = append(r->rule, r->nrule, sizeof(*r->rule));
	ru = &r->rule[r->nrule];
	ru->category = i;
	ru->isregex = how[0] == 'r';
	if ((ru->token = strdup(token)) == NULL)
		err(1, NULL);
	if (ru->isregex &&
	    (e = regcomp(&ru->re, token, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &ru->re, msg, sizeof(msg));
		errx(1, "%s:%lu: bad regex \"%.40s\": %s", l->path,
		    l->lineno, token, msg);
	}
	if (i == -1) {		/* a skipped category's, checked */
		regfree(&ru->re);
		free(ru->token);
		return;
	}
	r->nrule++;
}

/*
 * The default rules file: $H3PROF_RULES, else the h3.rules installed
 * beside the running program, as make puts it beside the built one.
 */
static const char *
default_path(void)
{
	static char path[PATH_MAX + sizeof(BESIDE_BIN)];
	const char *env;
	ssize_t n;

	if ((env = getenv("H3PROF_RULES")) != NULL && *env != '\0')
		return env;
	n = readlink("/proc/self/exe", path, PATH_MAX);
	if (n == -1 || n == PATH_MAX)
		errx(1, "cannot find the program's directory for the rules; "
		    "name them with -r or $H3PROF_RULES");
	path[n] = '\0';
	strcpy(strrchr(path, '/'), BESIDE_BIN);
	if (access(path, R_OK) == -1)
		errx(1, "%s: %s; name the rules with -r or $H3PROF_RULES",
		    path, strerror(errno));
	return path;
}

struct rules *
rules_load(const char *path)
{
	return rules_loadx(path, 0);
}

struct rules *
rules_loadx(const char *path, int flags)
{
	struct rules *r;
	struct lines l;
	char *line, *p;
	const char *first;
	int seen = 0;

	if (path == NULL)
		path = default_path();
	if ((r = calloc(1, sizeof(*r))) == NULL)
		err(1, NULL);
	r->extended = (flags & RULES_EXTENDED) != 0;
	lines_open(&l, path);
	while ((line = lines_next(&l, NULL)) != NULL) {
		p = line;
		first = word(&p);
		if (*first == '\0' || *first == '#')
			continue;
		if (strcmp(first, "category") == 0)
			declare(r, &l, p, 0);
		else if (strcmp(first, "communication") == 0)
			declare(r, &l, p, 1);
		else if (strcmp(first, "fallback") == 0)
			fallback(r, &l, p, &seen);
		else
			addrule(r, &l, first, p);
	}
	if (!seen)
		errx(1, "%s:%lu: no fallback category declared", l.path,
		    l.lineno);
	lines_close(&l);
	return r;
}

/* strstr, not memmem: glibc's is vectorized and twice as fast here. */
const char *
rules_match(const struct rules *r, const char *name)
{
	const struct rule *ru;
	size_t i;

	/* By index: a file of no rules has no array to point into. */
	for (i = 0; i < r->nrule; i++) {
		ru = &r->rule[i];
		if (ru->isregex ? regexec(&ru->re, name, 0, NULL, 0) == 0 :
		    strstr(name, ru->token) != NULL)
			return r->name[ru->category];
	}
	return r->name[r->fallback];
}

size_t
rules_ncategories(const struct rules *r)
{
	return r->ncat;
}

const char *
rules_category(const struct rules *r, size_t i)
{
	return r->name[i];
}

int
rules_communication(const struct rules *r, size_t i)
{
	return r->comm[i];
}

const char *
rules_description(const struct rules *r, size_t i)
{
	return r->desc[i];
}
