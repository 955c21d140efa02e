/*
 * runconfig: the name and configuration of a run as facts: run.name, and
 * a run.config.KEY fact for each setting, its value a JSON text, from a
 * config.json, a run.env or the KEY=VALUE parts of the name.
 * See runconfig(1) and h3prof(5).
 */
#include <err.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h3prof.h"

/*
 * The largest configuration file, in bytes.  A byte of it takes at most 7
 * in a fact (\u0001 with its backslash escaped), so that every fact line
 * fits in the H3_MAXLINE that reportjson(1) reads.
 */
#define CONFIG_MAX	(256 * 1024)
/* The deepest nesting of objects and arrays in a config.json. */
#define MAXDEPTH	64
/* Bytes of a key that a message shows. */
#define SHOWN_KEY	80

/* What may make up a part of a fact key; a run.env key may hold dots. */
#define PARTCHARS	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			"0123456789_-"
#define KEYCHARS	PARTCHARS "."
/* White space around a run.env line and its value, as the shell's. */
#define SPACES		" \t\n\v\f\r"

/* A setting of a run.env or a name: its key and its value, JSON. */
struct setting {
	struct keyat	 key;
	char		*json;
	size_t		 jsonlen;
};

/* The configuration file, whole, a NUL after it, and its name shown. */
static char		*text;
static size_t		 textlen;
static char		*textpath;
/* The values of a config.json. */
static struct jsondoc	 doc;
/* The settings of a run.env or a name in order, and room for how many. */
static struct setting	*settings;
static size_t		 nsettings, settingscap;
/* The key of the config.json value being printed, dotted. */
static char		*path;
/* Whether the values of config.json are make profile's settings, text. */
static int		 settings_text;

static _Noreturn void usage(int);

/* An error at a line of the configuration file. */
static _Noreturn void
fail(unsigned long lineno, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static _Noreturn void
fail(unsigned long lineno, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errx(1, "%s:%lu: %s", textpath, lineno, msg);
}

/* Whether len bytes at s are all of set, and there is one at least. */
static int
allof(const char *s, size_t len, const char *set)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == '\0' || strchr(set, s[i]) == NULL)
			return 0;
	return len > 0;
}

/* Whether s ends with suffix. */
static int
endswith(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Read the configuration file whole into text. */
static void
readconfig(const char *file)
{
	ssize_t n;
	int fd;

	textpath = shown(file, strlen(file), strlen(file));
	if ((fd = open(file, O_RDONLY)) == -1)
		err(1, "%s", textpath);
	if ((text = malloc(CONFIG_MAX + 2)) == NULL)
		err(1, NULL);
	/* Up to a byte more than is allowed, to tell a file too large. */
	while (textlen <= CONFIG_MAX && (n = read(fd, text + textlen,
	    CONFIG_MAX + 1 - textlen)) != 0) {
		if (n == -1)
			err(1, "%s", textpath);
		textlen += n;
	}
	if (close(fd) == -1)
		err(1, "%s", textpath);
	if (textlen > CONFIG_MAX)
		errx(1, "%s: larger than %d bytes: not a configuration",
		    textpath, CONFIG_MAX);
	text[textlen] = '\0';
	if (strspn(text, SPACES) == textlen)
		errx(1, "%s: empty or blank: a configuration file holds the "
		    "run's settings", textpath);
}

/* A setting of a run.env or a name: its value is text, made JSON. */
static void
add_setting(const char *key, size_t keylen, const char *v, size_t vlen,
    unsigned long lineno)
{
	struct setting *s;

	if (nsettings == settingscap) {
		settingscap = settingscap ? 2 * settingscap : 16;
		if ((settings = reallocarray(settings, settingscap,
		    sizeof(*settings))) == NULL)
			err(1, NULL);
	}
	s = &settings[nsettings];
	s->key = (struct keyat){ key, keylen, lineno, nsettings };
	nsettings++;
	if ((s->json = malloc(6 * vlen + 2)) == NULL)
		err(1, NULL);
	/* A number a double holds apart from all others stays a number. */
	if (vlen > 0 && json_number(v, vlen) == vlen && json_exact(v, vlen)) {
		memcpy(s->json, v, vlen);
		s->jsonlen = vlen;
	} else
		s->jsonlen = json_quote(s->json, v, vlen);
}

/*
 * Whether a setting has the key of an earlier one: the first such is
 * copied to dup, the earlier one to first (see keyat_repeated).
 */
static int
repeated(struct keyat *dup, struct keyat *first)
{
	const struct keyat *d, *f;
	struct keyat *keys;
	size_t i;

	if ((keys = reallocarray(NULL, nsettings + 1, sizeof(*keys))) == NULL)
		err(1, NULL);
	for (i = 0; i < nsettings; i++)
		keys[i] = settings[i].key;
	if ((d = keyat_repeated(keys, nsettings, &f)) != NULL) {
		*dup = *d;
		*first = *f;
	}
	free(keys);
	return d != NULL;
}

/*
 * The settings of a run.env, KEY=VALUE lines as the shell sources them:
 * blank lines and # comments skipped, white space before the line and
 * "export " dropped, white space after the value cut, and a pair of
 * quotes around the value, '...' or "...", taken off.
 */
static void
parse_env(void)
{
	const char *line, *nl, *eq, *v, *vend, *end = text + textlen;
	struct keyat dup, first;
	unsigned long lineno = 0;

	for (line = text; line < end; line = nl + 1) {
		lineno++;
		if ((nl = memchr(line, '\n', end - line)) == NULL)
			nl = end;
		if (memchr(line, '\0', nl - line) != NULL)
			fail(lineno, "NUL byte in line");
		while (line < nl && strchr(SPACES, *line) != NULL)
			line++;
		if (line == nl || *line == '#')
			continue;
		if (nl - line >= 7 && memcmp(line, "export ", 7) == 0)
			line += 7;
		if ((eq = memchr(line, '=', nl - line)) == NULL ||
		    !allof(line, eq - line, KEYCHARS))
			fail(lineno, "expected KEY=VALUE, KEY of letters, "
			    "digits and _.-");
		v = eq + 1;
		for (vend = nl; vend > v && strchr(SPACES, vend[-1]); vend--)
			;
		if (vend - v >= 2 && (*v == '"' || *v == '\'') &&
		    vend[-1] == *v) {
			v++;
			vend--;
		}
		if (!utf8_valid(v, vend - v))
			fail(lineno, "the value of %.*s is not UTF-8",
			    (int)(eq - line), line);
		add_setting(line, eq - line, v, vend - v, lineno);
	}
	if (repeated(&dup, &first))
		fail(dup.lineno, "duplicate key %.*s (first at line %lu)",
		    (int)dup.len, dup.s, first.lineno);
}

/*
 * The settings in the name of a run: its KEY=VALUE parts between commas.
 * A part without =, or whose KEY cannot be part of a fact key, is none.
 */
static void
parse_name(const char *name)
{
	const char *part, *comma, *eq, *end = name + strlen(name);
	struct keyat dup, first;

	for (part = name; ; part = comma + 1) {
		if ((comma = memchr(part, ',', end - part)) == NULL)
			comma = end;
		eq = memchr(part, '=', comma - part);
		if (eq != NULL && allof(part, eq - part, PARTCHARS)) {
			if (!utf8_valid(eq + 1, comma - eq - 1))
				errx(1, "name %s: the value of %.*s is not "
				    "UTF-8", shown(name, end - name,
				    end - name), (int)(eq - part), part);
			add_setting(part, eq - part, eq + 1, comma - eq - 1, 0);
		}
		if (comma == end)
			break;
	}
	if (repeated(&dup, &first))
		errx(1, "name %s: duplicate key %.*s",
		    shown(name, end - name, end - name), (int)dup.len, dup.s);
}

/*
 * The node whose members are the settings of a config.json: its object
 * "settings" if it has one, as make profile records the run beside them,
 * else the whole object.
 */
static size_t
settings_node(void)
{
	size_t c;

	if (doc.nodes[0].type != '{')
		fail(doc.nodes[0].lineno, "not a JSON object: a configuration "
		    "is one object, {\"KEY\": VALUE, ...}");
	for (c = doc.nodes[0].child; c != 0; c = doc.nodes[c].next)
		if (doc.nodes[c].type == '{' && doc.nodes[c].keylen == 8 &&
		    memcmp(doc.nodes[c].key, "settings", 8) == 0)
			return c;
	return 0;
}

/* Every key under node n must be able to be part of a fact key. */
static void
checkkeys(size_t n)
{
	const struct jsonnode *c;
	size_t k;

	for (k = doc.nodes[n].child; k != 0; k = c->next) {
		c = &doc.nodes[k];
		if (c->key != NULL && !allof(c->key, c->keylen, PARTCHARS))
			fail(c->lineno, "key \"%s\" cannot be part of a fact "
			    "key: letters, digits, _ and - only",
			    shown(c->key, c->keylen, SHOWN_KEY));
		checkkeys(k);
	}
}

static void
put_setting(const char *key, size_t keylen, const char *json, size_t len)
{
	fputs_unlocked("run.config.", stdout);
	fwrite_unlocked(key, 1, keylen, stdout);
	putchar_unlocked('\t');
	put_escaped(json, len);
	putchar_unlocked('\n');
}

/*
 * A setting for each value under node n without children, keyed by its
 * path: the keys of members and the indices of elements, dotted, after
 * the pathlen bytes of n's own in path.
 */
static void
put_json(size_t n, size_t pathlen)
{
	const struct jsonnode *c;
	char *json;
	size_t i, k, len, jsonlen;

	for (i = 0, k = doc.nodes[n].child; k != 0; i++, k = c->next) {
		c = &doc.nodes[k];
		len = pathlen;
		if (len > 0)
			path[len++] = '.';
		if (c->key != NULL) {
			memcpy(path + len, c->key, c->keylen);
			len += c->keylen;
		} else
			len += sprintf(path + len, "%zu", i);
		if (c->child != 0) {
			put_json(k, len);
			continue;
		}
		if ((json = malloc(6 * c->textlen + 2)) == NULL)
			err(1, NULL);
		/* A number a double cannot tell apart becomes a string.  The
		   strings of make profile's settings are text, as run.env's
		   values: a number among them is a number. */
		if (c->type == '"' && settings_text &&
		    json_number(c->text, c->textlen) == c->textlen &&
		    c->textlen > 0 && json_exact(c->text, c->textlen)) {
			memcpy(json, c->text, c->textlen);
			jsonlen = c->textlen;
		} else if (c->type == '"' || (c->type == '0' &&
		    !json_exact(c->text, c->textlen)))
			jsonlen = json_quote(json, c->text, c->textlen);
		else if (c->type == '{' || c->type == '[') {
			json[0] = c->type;
			json[1] = c->type == '{' ? '}' : ']';
			jsonlen = 2;
		} else {
			memcpy(json, c->text, c->textlen);
			jsonlen = c->textlen;
		}
		put_setting(path, len, json, jsonlen);
		free(json);
	}
}

int
main(int argc, char *argv[])
{
	const char *config = NULL, *name;
	const char *outpath = NULL;	/* -o: the facts there, not stdout */
	size_t i, root = 0;
	int ch;

	while ((ch = getopt_long(argc, argv, "c:ho:", helpopt, NULL)) != -1) {
		switch (ch) {
		case 'c':
			config = optarg;
			break;
		case 'h':
			usage(0);
		case 'o':
			outpath = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage(EXIT_USAGE);
	name = argv[0];

	if (config != NULL)
		readconfig(config);
	if (config == NULL)
		parse_name(name);
	else if (!endswith(config, ".json"))
		parse_env();
	else {
		jsondoc_read(&doc, text, textlen, textpath, MAXDEPTH);
		root = settings_node();
		settings_text = root != 0;
		checkkeys(root);
		/* Keys, a dot before each, and indices of 20 digits at most
		   at each of MAXDEPTH levels. */
		if ((path = malloc(textlen + MAXDEPTH * 22)) == NULL)
			err(1, NULL);
	}

	if (outpath != NULL)
		out_stdout(outpath);
	fputs_unlocked("run.name\t", stdout);
	put_escaped(name, strlen(name));
	putchar_unlocked('\n');
	for (i = 0; i < nsettings; i++)
		put_setting(settings[i].key.s, settings[i].key.len,
		    settings[i].json, settings[i].jsonlen);
	if (doc.nodes != NULL)
		put_json(root, 0);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: runconfig [-h] [-c config] [-o output] name\n", status);
}
