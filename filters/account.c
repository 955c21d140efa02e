/*
 * account: the time account of a run.  Every ns of the GPU span of each
 * device, and of the run, goes to one part: kernels (compute or
 * communication), memory operations not under a kernel by kind, other
 * operations, or idle by the cause its launch call tells; with launch
 * statistics, launch queues, HTA's idle breakdown per stream, memory
 * operations with their bytes, utilization by chunk and a verdict.  See
 * account(1) and h3prof(5).
 */
#include <err.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h3prof.h"

/* Devices a trace holds, and streams: as devstat(1) and tally(1). */
#define MAXDEVICES	1024
#define MAXSTREAMS	65536
/* Longest device or stream number. */
#define MAXID		20

/*
 * The classes of GPU time, in precedence: where several run at once the
 * first takes the time.  The memory kinds follow NKERNEL.
 */
enum cls { C_COMPUTE, C_COMM, C_HTOD, C_DTOH, C_DTOD, C_PEER, C_MEMCPY,
	C_MEMSET, C_OTHER, NCLS };
#define NKERNEL		2
static const char *const partname[NCLS] = {
	"compute", "communication", "memcpy_htod", "memcpy_dtoh",
	"memcpy_dtod", "memcpy_peer", "memcpy_other", "memset", "other"
};
/* The memory kinds as memory lines and the report name them. */
static const char *const memkind[NCLS] = {
	[C_HTOD] = "htod", [C_DTOH] = "dtoh", [C_DTOD] = "dtod",
	[C_PEER] = "peer", [C_MEMCPY] = "other", [C_MEMSET] = "memset"
};

/* The facts of why the GPU was idle, by the library's causes of gaps
   (enum gapcause), told from the call of the operation ending the gap. */
static const char *const causename[NGAPCAUSE] = {
	"idle_host", "idle_launch", "idle_queued", "idle_unknown"
};

/*
 * One timeline (a device, or the run): the span so far, and the time up
 * to cursor given to parts.  Class k runs over [cursor, front[k]) where
 * front[k] > cursor: the input is sorted by start, so no later operation
 * changes what ran before the start of the one just read.
 */
struct timeline {
	int		 started;
	int64_t		 first, last;	/* first start, last end so far */
	int64_t		 cursor;
	int64_t		 front[NCLS];
	int64_t		 part[NCLS];
	int64_t		 idle[NGAPCAUSE];
	/* The idle gaps by length (verdict.c's) and cause: their time and
	   number, and the longest, where it starts. */
	int64_t		 gap_ns[NGAPLEN][NGAPCAUSE];
	int64_t		 gap_count[NGAPLEN][NGAPCAUSE];
	int64_t		 longest_gap, longest_gap_at;
	int64_t		 comm_union;	/* time any communication ran */
	int64_t		 busy_start;	/* the kernel busy interval open */
	int64_t		 busy_end;
	int		 busy_open;
	int32_t		 index;		/* its records' in the busy file */
};

/* A device: its timeline, and devstat(1)'s figures of it (-d). */
struct device {
	struct group	 g;		/* the device column */
	struct timeline	 tl;
	struct devfigs	 figs;		/* devstat's, for -d */
};

/* A stream, "DEVICE<TAB>STREAM": its launch queue and HTA's idle. */
struct stream {
	struct group	 g;
	int		 launched;	/* has launches: a queue */
	int64_t		 depth, maxdepth;
	int64_t		 fullsince;	/* deep since, while depth >= qdepth */
	int64_t		 full_ns;
	int		 ops;		/* has operations: HTA's breakdown */
	int		 has_prev;
	int64_t		 prev_end;	/* of its operation before */
	int64_t		 hta[3];	/* host wait, kernel wait, other */
};

/* The kinds of operation the account tells apart. */
enum kind { K_KERNEL, K_MEMCPY, K_MEMSET, K_LAUNCH, K_OTHER };

/* A GPU operation of the trace: its line, and its columns as numbers. */
struct op {
	struct interval	 iv;
	int64_t		 device, stream; /* -1 for "-" */
	enum kind	 kind;
	int		 plain;		/* read by the fast path: the device
					   and stream are as their numbers
					   write them, and checked */
};

/* A GPU operation a launch line names, awaiting its line in the trace. */
struct pending {
	int64_t		 start, end;	/* of the operation */
	int64_t		 cstart, cend;	/* of its call */
	int64_t		 device, stream; /* -1 for "-" */
	int		 kernel;	/* of kind kernel */
};

/* A histogram of ns, exact below 256, else to 1/128 of the value. */
#define NBUCKET		(256 + 56 * 128)
struct hist {
	int64_t		 n;
	int64_t		 max;
	int		 any;
	uint64_t	 neg[NBUCKET];	/* of -v, for values below 0 */
	uint64_t	 pos[NBUCKET];
};

/* The timeline of the run, all devices as one. */
static struct timeline	 run;
/* The devices, the streams, in first-seen order. */
static struct groups	 devices = { .size = sizeof(struct device) };
static struct groups	 streams = { .size = sizeof(struct stream) };
/* The busy intervals of every timeline, for the chunks: a temporary
   file, so that memory stays flat. */
static FILE		*busyfp;
/* Records written there. */
static int64_t		 nbusy;
/*
 * While the trace has shown one device, the run's timeline is that
 * device's: kept once, copied into run as a second device shows.  The
 * first nshared busy records, written till then, are of both.
 */
static int		 shared = 1;
static int64_t		 nshared;

/* Launch operations awaiting their trace line: their slots in pend by
   start, whose free slots are a stack. */
static struct ordq	 pendq;
static struct pending	*pend;
static size_t		 npend, pendcap;
static size_t		*freeslot;	/* room for pendcap */
static size_t		 nfree;
/* Those popped that start at now, the start of the line being read. */
static struct pending	*atnow;
static size_t		 natnow, atnowcap;
static int64_t		 now = -1;
/* Launch lines whose operation is not in the trace. */
static int64_t		 unmatched;
/* The calls queued: their streams by the start of their first operation. */
static struct ordq	 callq;
/* Entries pushed to either, each one's tie: of one start, the first
   pushed comes first. */
static int64_t		 pushed;

/* The operations of the call being read (a graph launch has many). */
static struct pending	*call;
static size_t		 ncall, callcap;
static char		 callthread[64];
static size_t		 callthreadlen;

/* Launch statistics. */
static struct hist	 delay, calldur;
static int64_t		 calls, graphcalls, outliers, shortcalls, short_ns;
/* Kernels of the trace, and those shorter than tiny_ns. */
static int64_t		 kernels, kernel_ns, tiny, tiny_ns;
/*
 * The launch calls of kernels (side 0) and the kernels (side 1), their
 * unions and their intersection, as merge -t and intersect -t -k kernel
 * make them of the launch intervals and the GPU trace (-a, -i, -u).
 */
static struct ivmeet	 calls_kernels;
/* Memory operations by class: count, time, bytes from -m. */
static int64_t		 mcount[NCLS], mtime[NCLS], mbytes[NCLS];
static int64_t		 mlines[NCLS];
static int		 bytes_known;

/* Options: thresholds, chunks, prefix, communication categories. */
static int64_t		 tiny_max = 10000;	/* -s */
static int64_t		 outlier_min = 100000;	/* -o */
static int64_t		 qdepth = 1024;		/* -q */
static int64_t		 kwait = 30;		/* -w */
static int		 nchunks = 30;		/* -c */
static const char	*prefix = "";		/* -p */
static struct rules	*rules;			/* -r, which commcat points into */
static const char	*devpath;		/* -d */
static FILE		*devfp;			/* -d's file, opened before the work */
static const char	*factspath;		/* -f: the facts, not stdout */
static const char	*aprefix;		/* -a */
static const char	*iprefix;		/* -i */
static const char	*uprefix;		/* -u */
static const char	**commcat;		/* -r: communication */
static size_t		 ncomm;

static _Noreturn void usage(int);

static void
hist_add(struct hist *h, int64_t v)
{
	uint64_t m = v < 0 ? -(uint64_t)v : (uint64_t)v;
	size_t b;
	int e;

	if (m < 256)
		b = m;
	else {
		e = 63 - __builtin_clzll(m);
		b = 256 + (size_t)(e - 8) * 128 + ((m >> (e - 7)) & 127);
	}
	if (v < 0)
		h->neg[b]++;
	else
		h->pos[b]++;
	if (!h->any || v > h->max)
		h->max = v;
	h->any = 1;
	h->n++;
}

/* The least value of bucket b. */
static int64_t
bucket_value(size_t b)
{
	int e;

	if (b < 256)
		return b;
	b -= 256;
	e = b / 128 + 8;
	return (int64_t)((128 + b % 128) << (e - 7));
}

/* The nearest-rank percentile p: the least value with p% at or below. */
static int64_t
hist_pct(const struct hist *h, int p)
{
	int64_t rank, seen = 0;
	size_t b;

	if (h->n == 0)
		return 0;
	rank = (h->n * p + 99) / 100;
	if (rank < 1)
		rank = 1;
	for (b = NBUCKET; b-- > 0;)
		if ((seen += h->neg[b]) >= rank)
			return -bucket_value(b);
	for (b = 0; b < NBUCKET; b++)
		if ((seen += h->pos[b]) >= rank)
			return bucket_value(b);
	return h->max;
}

/* A device or stream column as a number, -1 for "-". */
static int64_t
idnum(const char *s, const struct lines *l, const char *what)
{
	int64_t v;

	if (strcmp(s, "-") == 0)
		return -1;
	if (strlen(s) > MAXID || parse_ns(s, &v) == -1)
		errx(1, "%s: %s \"%.40s\" is not a number or -", lines_at(l),
		    what, s);
	return v;
}

/*
 * The stream of a device and a stream column, both checked by idnum: its
 * record, added on first sight.
 */
static struct stream *
stream_find(const char *device, const char *stream, const struct lines *l)
{
	char key[2 * MAXID + 2], *p;
	struct stream *s;

	p = stpcpy(key, device);
	*p++ = '\t';
	p = stpcpy(p, stream);
	s = groups_get(&streams, key, p - key);
	if (streams.n > MAXSTREAMS)
		errx(1, "%s: more than %d streams", lines_at(l),
		    MAXSTREAMS);
	return s;
}

/*
 * The stream of a device and a stream column, and their numbers.  Lines
 * come in runs of a few streams: where the columns are plain (struct
 * op), their numbers name the stream as the text does, and a cache by
 * number, direct-mapped, spares the hash.
 */
#define NSCACHE		64
static struct {
	int64_t		 device, stream;
	size_t		 index;
	int		 valid;
} scache[NSCACHE];

static struct stream *
stream_get(const char *device, const char *stream, int64_t dnum,
    int64_t snum, int plain, const struct lines *l)
{
	struct stream *s;
	size_t h;

	if (!plain)
		return stream_find(device, stream, l);
	/* (Unsigned: a stream number of 18 digits times 31 is past int64.) */
	h = (size_t)((uint64_t)snum * 31 + (uint64_t)dnum) & (NSCACHE - 1);
	if (scache[h].valid && scache[h].device == dnum &&
	    scache[h].stream == snum)
		return (struct stream *)streams.recs + scache[h].index;
	s = stream_find(device, stream, l);
	scache[h].device = dnum;
	scache[h].stream = snum;
	scache[h].index = s - (struct stream *)streams.recs;
	scache[h].valid = 1;
	return s;
}

/* The record of a device column, the one before spared the hash. */
static struct device *
device_get(const char *device)
{
	static char last[MAXID + 1];
	static size_t lastindex;
	struct device *d;

	if (devices.n > 0 && strcmp(device, last) == 0)
		return (struct device *)devices.recs + lastindex;
	d = groups_get(&devices, device, strlen(device));
	strcpy(last, device);
	lastindex = d - (struct device *)devices.recs;
	return d;
}

/* The kind of a kind column of len bytes. */
static enum kind
kindof(const char *s, size_t len)
{
	if (len != 6)
		return K_OTHER;
	if (memcmp(s, "kernel", 6) == 0)
		return K_KERNEL;
	if (memcmp(s, "memcpy", 6) == 0)
		return K_MEMCPY;
	if (memcmp(s, "memset", 6) == 0)
		return K_MEMSET;
	if (memcmp(s, "launch", 6) == 0)
		return K_LAUNCH;
	return K_OTHER;
}

/* The class of a GPU operation by its kind, category and name. */
static enum cls
classof(enum kind kind, const char *category, const char *n,
    const struct lines *l)
{
	size_t i;

	if (kind == K_KERNEL) {
		for (i = 0; i < ncomm; i++)
			if (strcmp(category, commcat[i]) == 0)
				return C_COMM;
		return C_COMPUTE;
	}
	if (kind == K_MEMSET)
		return C_MEMSET;
	if (kind == K_MEMCPY) {
		/* "[CUDA memcpy Host-to-Device]"; nsys before 2023: HtoD. */
		if (strstr(n, "Host-to-Device") || strstr(n, "HtoD"))
			return C_HTOD;
		if (strstr(n, "Device-to-Host") || strstr(n, "DtoH"))
			return C_DTOH;
		if (strstr(n, "Device-to-Device") || strstr(n, "DtoD"))
			return C_DTOD;
		if (strstr(n, "Peer-to-Peer") || strstr(n, "PtoP"))
			return C_PEER;
		return C_MEMCPY;
	}
	if (kind == K_LAUNCH)
		errx(1, "%s: a launch interval among the GPU operations",
		    lines_at(l));
	return C_OTHER;
}

/* Close a timeline's kernel busy interval into the busy file. */
static void
busy_flush(struct timeline *t)
{
	int64_t rec[3];

	if (!t->busy_open)
		return;
	rec[0] = t->index;
	rec[1] = t->busy_start;
	rec[2] = t->busy_end;
	if (fwrite_unlocked(rec, sizeof(rec), 1, busyfp) != 1)
		err(1, "temporary file");
	nbusy++;
	t->busy_open = 0;
}

static void
busy_add(struct timeline *t, int64_t start, int64_t end)
{
	if (t->busy_open && start == t->busy_end) {
		t->busy_end = end;
		return;
	}
	busy_flush(t);
	t->busy_start = start;
	t->busy_end = end;
	t->busy_open = 1;
}

/*
 * An idle gap of len ns of cause why, starting at the cursor: the whole
 * gap, as advance() finds none but between two operations.
 */
static void
gap_add(struct timeline *t, int64_t len, enum gapcause why)
{
	enum gaplen g = len < VERDICT_SHORT_GAP_NS ? GAP_SHORT :
	    len < VERDICT_LONG_GAP_NS ? GAP_MEDIUM : GAP_LONG;

	t->idle[why] += len;
	t->gap_ns[g][why] += len;
	t->gap_count[g][why]++;
	if (len > t->longest_gap) {
		t->longest_gap = len;
		t->longest_gap_at = t->cursor;
	}
}

/*
 * Give the time from the cursor to `to' to the classes that run then,
 * the first in precedence taking each ns; what none runs in is idle of
 * the cause given.
 */
static void
advance(struct timeline *t, int64_t to, enum gapcause why)
{
	int64_t next;
	int k, top;

	while (t->cursor < to) {
		top = -1;
		next = to;
		for (k = 0; k < NCLS; k++)
			if (t->front[k] > t->cursor) {
				if (top == -1)
					top = k;
				if (t->front[k] < next)
					next = t->front[k];
			}
		if (top == -1) {
			gap_add(t, to - t->cursor, why);
			t->cursor = to;
			return;
		}
		t->part[top] += next - t->cursor;
		if (t->front[C_COMM] > t->cursor)
			t->comm_union += next - t->cursor;
		if (top < NKERNEL)
			busy_add(t, t->cursor, next);
		t->cursor = next;
	}
}

/*
 * The cause of a gap that began at gap and ends at an operation whose
 * call is p (NULL: none known).
 */
static enum gapcause
causeof(const struct pending *p, int64_t gap)
{
	if (p == NULL)
		return GAP_UNKNOWN;
	if (p->cstart > gap)
		return GAP_HOST;
	if (p->cend > gap)
		return GAP_LAUNCH;
	return GAP_QUEUED;
}

static void
timeline_add(struct timeline *t, const struct interval *iv, enum cls c,
    const struct pending *p)
{
	if (!t->started) {
		t->started = 1;
		t->first = t->cursor = t->last = iv->start;
	} else if (iv->start > t->cursor)
		advance(t, iv->start, iv->start > t->last ?
		    causeof(p, t->last) : GAP_UNKNOWN);
	if (iv->end > t->front[c])
		t->front[c] = iv->end;
	if (iv->end > t->last)
		t->last = iv->end;
}

static void
timeline_end(struct timeline *t)
{
	advance(t, t->last, GAP_UNKNOWN);
	busy_flush(t);
}

/*
 * A pending operation goes to a slot of pend, the queue moving only its
 * start and slot.  Of those of one start the one pushed first comes
 * first: of two operations alike, the first takes the first call.
 */
static void
pending_push(const struct pending *p)
{
	size_t slot;

	if (nfree > 0)
		slot = freeslot[--nfree];
	else {
		if (npend == pendcap) {
			pend = grow(pend, &pendcap, npend, sizeof(*pend));
			if ((freeslot = reallocarray(freeslot, pendcap,
			    sizeof(*freeslot))) == NULL)
				err(1, NULL);
		}
		slot = npend++;
	}
	pend[slot] = *p;
	ordq_push(&pendq, p->start, pushed++, slot);
}

static struct pending
pending_pop(void)
{
	size_t slot = ordq_pop(&pendq).val;

	freeslot[nfree++] = slot;	/* room for every slot */
	return pend[slot];
}

/* A stream's depth changes at time t. */
static void
queue_move(struct stream *s, int64_t t, int by)
{
	int wasfull = s->depth >= qdepth;

	s->depth += by;
	if (s->depth > s->maxdepth)
		s->maxdepth = s->depth;
	if (!wasfull && s->depth >= qdepth)
		s->fullsince = t;
	else if (wasfull && s->depth < qdepth)
		s->full_ns += t - s->fullsince;
}

/* The calls whose first operation started by t leave their queues. */
static void
queue_drain(int64_t t)
{
	const struct ordent *e;
	struct ordent q;

	while ((e = ordq_least(&callq)) != NULL && e->key <= t) {
		q = ordq_pop(&callq);
		queue_move((struct stream *)streams.recs + q.val, q.key, -1);
	}
}

/*
 * The fast path of both inputs: a line of plain columns, as the readers
 * write it, taken in one pass, its numbers read as they are found.  Any
 * other line, and its error, is the library's (ivin_parse,
 * launches_parse) and idnum's, as if there were no fast path: the fast
 * path takes only lines they take, and as they take them.
 */

/*
 * Read the digits at *pp, 1 to 18 of them (no overflow), and the tab
 * after them, into *v: 0, *pp unmoved, if they are not there.
 */
static inline int
fast_ns(char **pp, const char *end, int64_t *v)
{
	char *p = *pp, *last = end - p > 18 ? p + 18 : (char *)end;
	uint64_t n = 0;
	unsigned d;

	for (; p < last && (d = (unsigned char)*p - '0') <= 9; p++)
		n = n * 10 + d;
	if (p == *pp || p == end || *p != '\t')
		return 0;
	*v = (int64_t)n;
	*pp = p + 1;
	return 1;
}

/*
 * A device or stream column and its tab, "-" as -1, else a number
 * without leading zeros, whose text is then all the number writes.
 */
static inline int
fast_id(char **pp, const char *end, int64_t *v)
{
	char *p = *pp;

	if (end - p >= 2 && p[0] == '-' && p[1] == '\t') {
		*v = -1;
		*pp = p + 2;
		return 1;
	}
	if (end - p >= 2 && p[0] == '0' && p[1] != '\t')
		return 0;
	return fast_ns(pp, end, v);
}

/* A short text column from p to its tab: the tab, or NULL if none. */
static inline char *
fast_text(char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == '\t')
			return p;
	return NULL;
}

/*
 * Read the next GPU operation of the trace: 1, or 0 at the end.  A line
 * off the fast path leaves its stream unchecked, for main to check where
 * it did before.
 */
static int
op_next(struct ivin *in, struct op *op)
{
	struct interval *iv = &op->iv;
	char *line, *p, *end, *kind, *dev, *str, *cat, *t;
	size_t len;

	if ((line = lines_next(&in->in, &len)) == NULL)
		return 0;
	p = line;
	end = line + len;
	if (in->in.eof || !fast_ns(&p, end, &iv->start) ||
	    !fast_ns(&p, end, &iv->end) || iv->end < iv->start ||
	    iv->start < in->prevstart)
		goto slow;
	kind = p;
	if ((t = fast_text(p, end)) == NULL)
		goto slow;
	dev = p = t + 1;
	if (!fast_id(&p, end, &op->device))
		goto slow;
	str = p;
	if (!fast_id(&p, end, &op->stream))
		goto slow;
	cat = p;
	if ((t = fast_text(p, end)) == NULL ||
	    memchr(t + 1, '\t', end - t - 1) != NULL)
		goto slow;
	/* Cut the columns at their tabs, as column() does. */
	dev[-1] = str[-1] = cat[-1] = *t = '\0';
	in->prevstart = iv->start;
	iv->full = 1;
	iv->kind = kind;
	iv->device = dev;
	iv->stream = str;
	iv->category = cat;
	iv->name = t + 1;
	iv->namelen = end - iv->name;
	op->kind = kindof(kind, dev - 1 - kind);
	op->plain = 1;
	return 1;
slow:
	ivin_parse(in, line, len, iv);
	if (!iv->full)
		errx(1, "%s: a bare line: account needs full interval "
		    "lines", lines_at(&in->in));
	op->device = idnum(iv->device, &in->in, "device");
	op->kind = kindof(iv->kind, strlen(iv->kind));
	op->plain = 0;
	return 1;
}

/* The launch line read ahead, and whether there is one. */
static struct launch	 la;
static int		 lalive;
/* Its operation and call as numbers, its thread's length, and whether it
   took the fast path (its device and stream are then checked). */
static struct pending	 lap;
static size_t		 lathreadlen;
static int		 laplain;

/* Read the next launch line into la: 1, or 0 at the end. */
static int
launch_next(struct launches *lr)
{
	char *line, *p, *end, *thread, *tt, *kind, *dev, *str, *cat, *t;
	size_t len;

	if ((line = lines_next(&lr->in, &len)) == NULL)
		return 0;
	p = line;
	end = line + len;
	if (lr->in.eof || !fast_ns(&p, end, &lap.cstart) ||
	    !fast_ns(&p, end, &lap.cend) || lap.cend < lap.cstart ||
	    lap.cstart < lr->prevstart)
		goto slow;
	thread = p;
	if ((tt = fast_text(p, end)) == NULL)
		goto slow;
	p = tt + 1;
	if (!fast_ns(&p, end, &lap.start) || !fast_ns(&p, end, &lap.end) ||
	    lap.end < lap.start)
		goto slow;
	kind = p;
	if ((t = fast_text(p, end)) == NULL)
		goto slow;
	dev = p = t + 1;
	if (!fast_id(&p, end, &lap.device))
		goto slow;
	str = p;
	if (!fast_id(&p, end, &lap.stream))
		goto slow;
	cat = p;
	if ((t = fast_text(p, end)) == NULL ||
	    memchr(t + 1, '\t', end - t - 1) != NULL)
		goto slow;
	lathreadlen = tt - thread;
	*tt = '\0';
	dev[-1] = str[-1] = cat[-1] = *t = '\0';
	lr->line = line;
	lr->len = len;
	lr->prevstart = lap.cstart;
	la.start = lap.cstart;
	la.end = lap.cend;
	la.thread = thread;
	la.op.start = lap.start;
	la.op.end = lap.end;
	la.op.full = 1;
	la.op.kind = kind;
	la.op.device = dev;
	la.op.stream = str;
	la.op.category = cat;
	la.op.name = t + 1;
	la.op.namelen = end - la.op.name;
	lap.kernel = kindof(kind, dev - 1 - kind) == K_KERNEL;
	laplain = 1;
	return 1;
slow:
	launches_parse(lr, line, len, &la);
	lap.cstart = la.start;
	lap.cend = la.end;
	lap.start = la.op.start;
	lap.end = la.op.end;
	lap.kernel = strcmp(la.op.kind, "kernel") == 0;
	lathreadlen = strlen(la.thread);
	laplain = 0;
	return 1;
}

/* The device and stream of the first line of the call being read. */
static char		 calldevice[MAXID + 1], callstream[MAXID + 1];
static int		 callplain;

/*
 * The call read is complete: its statistics, its place in the queue of
 * the stream of its first operation, and its operations awaiting their
 * trace lines.
 */
static void
call_done(struct launches *lr)
{
	struct pending *p = &call[0];
	struct stream *s;
	int64_t first = p->start, d;
	size_t i;

	for (i = 0; i < ncall; i++) {
		if (call[i].start < first)
			first = call[i].start;
		pending_push(&call[i]);
	}
	calls++;
	if (ncall > 1)
		graphcalls++;
	d = first - p->cend;
	hist_add(&delay, d);
	hist_add(&calldur, p->cend - p->cstart);
	if (d > outlier_min)
		outliers++;
	/* A call of one kernel: a graph's kernels have no call of their own. */
	if (ncall == 1 && p->kernel && p->end - p->start < p->cend - p->cstart) {
		shortcalls++;
		short_ns += p->end - p->start;
	}
	queue_drain(p->cstart);
	s = stream_get(calldevice, callstream, p->device, p->stream,
	    callplain, &lr->in);
	s->launched = 1;
	if (first > p->cstart) {
		ordq_push(&callq, first, pushed++,
		    s - (struct stream *)streams.recs);
		queue_move(s, p->cstart, 1);
	}
	ncall = 0;
}

/*
 * Read the launch lines of every call that started by t: their
 * operations await their trace lines.  A call's lines are those of one
 * call start, end and thread, one after the other.
 */
static void
launches_upto(struct launches *lr, int64_t t)
{
	while (lalive && la.start <= t) {
		if (ncall > 0 && (la.start != call[0].cstart ||
		    la.end != call[0].cend || lathreadlen != callthreadlen ||
		    memcmp(la.thread, callthread, lathreadlen) != 0))
			call_done(lr);
		if (lathreadlen >= sizeof(callthread))
			errx(1, "%s: thread \"%.40s\" too long",
			    lines_at(&lr->in), la.thread);
		if (!laplain) {
			lap.device = idnum(la.op.device, &lr->in, "device");
			lap.stream = idnum(la.op.stream, &lr->in, "stream");
		}
		if (ncall == 0) {
			/* The queue of the stream of its first line. */
			memcpy(callthread, la.thread, lathreadlen + 1);
			callthreadlen = lathreadlen;
			strcpy(calldevice, la.op.device);
			strcpy(callstream, la.op.stream);
			callplain = laplain;
		}
		call = grow(call, &callcap, ncall, sizeof(*call));
		call[ncall++] = lap;
		if (lap.kernel)
			ivmeet_add(&calls_kernels, 0, lap.cstart, lap.cend);
		lalive = launch_next(lr);
	}
	if (ncall > 0 && (!lalive || la.start > t))
		call_done(lr);
	ivmeet_bound(&calls_kernels, 0, lalive ? la.start : INT64_MAX);
}

/* The call of the trace's operation, now at its start; NULL if none. */
static const struct pending *
match(const struct op *op)
{
	static struct pending found;
	const struct ordent *e;
	int64_t start = op->iv.start;
	size_t i;
	int kernel = op->kind == K_KERNEL;

	if (start != now) {
		natnow = 0;
		while ((e = ordq_least(&pendq)) != NULL && e->key < start) {
			pending_pop();
			unmatched++;
		}
		while ((e = ordq_least(&pendq)) != NULL && e->key == start) {
			atnow = grow(atnow, &atnowcap, natnow,
			    sizeof(*atnow));
			atnow[natnow++] = pending_pop();
		}
		now = start;
	}
	for (i = 0; i < natnow; i++) {
		if (atnow[i].end != op->iv.end ||
		    atnow[i].device != op->device ||
		    atnow[i].kernel != kernel || (atnow[i].stream != -1 &&
		    atnow[i].stream != op->stream))
			continue;
		found = atnow[i];
		atnow[i] = atnow[--natnow];
		return &found;
	}
	return NULL;
}

/* HTA's idle breakdown of a stream: the gap before each operation. */
static void
hta_add(const struct op *op, const struct pending *p, const struct lines *l)
{
	const struct interval *iv = &op->iv;
	struct stream *s;
	int64_t gap;

	if (op->stream == -1)
		return;
	s = stream_get(iv->device, iv->stream, op->device, op->stream,
	    op->plain, l);
	s->ops = 1;
	if (s->has_prev) {
		gap = iv->start - s->prev_end;
		if (p != NULL && p->cstart > s->prev_end)
			s->hta[0] += gap;
		else if (gap < kwait)
			s->hta[1] += gap;
		else
			s->hta[2] += gap;
	}
	s->has_prev = 1;
	s->prev_end = iv->end;
}

/*
 * The operation op of device d: its part in the figures devstat(1) gives
 * of d, and in the run's union of kernels and its intersection with the
 * launch calls' (merge and intersect's figures), the same pass.
 */
static void
devstat_add(struct device *d, const struct op *op, const struct lines *l)
{
	int kernel = op->kind == K_KERNEL;

	devfigs_add(&d->figs, op->iv.start, op->iv.end, kernel, l);
	if (kernel)
		ivmeet_add(&calls_kernels, 1, op->iv.start, op->iv.end);
	else
		ivmeet_bound(&calls_kernels, 1, op->iv.start);
}

/*
 * The facts of -a, -i and -u: the unions of the launch calls of kernels
 * and of the kernels as merge -t prints them, their intersection as
 * intersect -t does.
 */
static void
put_unions(void)
{
	const struct ivrun *u;

	if (aprefix != NULL) {
		u = &calls_kernels.side[0].u;
		put_fact(aprefix, "count", u->count);
		put_fact(aprefix, "ns", ivrun_total(u));
	}
	if (iprefix != NULL) {
		put_fact(iprefix, "count", calls_kernels.count);
		put_fact(iprefix, "ns", calls_kernels.ns);
	}
	if (uprefix != NULL) {
		u = &calls_kernels.side[1].u;
		put_fact(uprefix, "count", u->count);
		put_fact(uprefix, "ns", ivrun_total(u));
	}
}

/* Write devstat(1)'s facts of every device to fp (-d), as it prints them. */
static void
put_devstat(FILE *fp, const char *path)
{
	const struct device *d;
	size_t i;

	for (i = 0; i < devices.n; i++) {
		d = (const struct device *)devices.recs + i;
		devfigs_put(fp, "", d->g.key, &d->figs);
	}
	out_close(fp, path);
}

/* Sum the bytes of the memory lines of path by kind. */
static void
read_memory(const char *path)
{
	struct lines in;
	char *line, *col[7];
	int64_t b;
	size_t len;
	int i;
	enum kind k;
	enum cls c;

	lines_open(&in, path);
	while ((line = lines_next(&in, &len)) != NULL) {
		if (in.eof)
			errx(1, "%s: no newline at the end of the input: "
			    "is it cut short?", lines_at(&in));
		for (i = 0; i < 6; i++)
			if ((col[i] = column(&line)) == NULL)
				break;
		if (i < 6 || line == NULL || strchr(line, '\t') != NULL)
			errx(1, "%s: expected a memory line: start, end, "
			    "kind, device, stream, bytes, name", lines_at(&in));
		k = kindof(col[2], strlen(col[2]));
		if (k != K_MEMCPY && k != K_MEMSET)
			errx(1, "%s: kind \"%.40s\" is not memcpy or "
			    "memset", lines_at(&in), col[2]);
		c = classof(k, NULL, line, &in);
		if (strcmp(col[5], "-") == 0)
			b = 0;		/* the trace does not say */
		else if (parse_ns(col[5], &b) == -1)
			errx(1, "%s: bytes \"%.40s\" not a non-negative "
			    "integer", lines_at(&in), col[5]);
		sum_ns(&mbytes[c], b, &in);
		mlines[c]++;
	}
	lines_close(&in);
	for (c = C_HTOD; c <= C_MEMSET; c++)
		if (mlines[c] != mcount[c])
			errx(1, "%s: %lld memory lines of kind %s, the GPU "
			    "trace has %lld: not of the same operations", in.path,
			    (long long)mlines[c], memkind[c],
			    (long long)mcount[c]);
	bytes_known = 1;
}

static void
put(const char *key, int64_t v)
{
	put_fact(prefix, key, v);
}

/* A percent of a / b with two decimals, 0 where b is 0. */
static double
pct(int64_t a, int64_t b)
{
	return b == 0 ? 0 : 100.0 * a / b;
}

static void
put_pct(const char *pre, const char *key, int64_t a, int64_t b)
{
	printf("%s%s%s\t%.2f\n", prefix, pre, key, pct(a, b));
}

static int64_t
idle_total(const struct timeline *t)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < NGAPCAUSE; i++)
		n += t->idle[i];
	return n;
}

/* The parts of a timeline, its communication, under key pre. */
static void
put_timeline(const char *pre, const struct timeline *t)
{
	int64_t span = t->last - t->first, sum = 0;
	int i;

	put_factf(prefix, span, "%sspan_ns", pre);
	for (i = 0; i < NCLS; i++) {
		put_factf(prefix, t->part[i], "%sparts.%s_ns", pre,
		    partname[i]);
		sum += t->part[i];
	}
	for (i = 0; i < NGAPCAUSE; i++) {
		put_factf(prefix, t->idle[i], "%sparts.%s_ns", pre,
		    causename[i]);
		sum += t->idle[i];
	}
	/* The account's own check: every ns in one part. */
	if (sum != span)
		errx(1, "internal error: parts sum to %lld, span %lld",
		    (long long)sum, (long long)span);
	put_factf(prefix, t->part[C_COMPUTE] + t->part[C_COMM],
	    "%skernel_busy_ns", pre);
	put_factf(prefix, t->comm_union, "%scommunication.union_ns", pre);
	put_factf(prefix, t->part[C_COMM], "%scommunication.exposed_ns",
	    pre);
	put_pct(pre, "communication.hidden_percent",
	    t->comm_union - t->part[C_COMM], t->comm_union);
}

/* Chunk i of n of [first, last): where it begins. */
static int64_t
chunk_start(const struct timeline *t, int i)
{
	return t->first + (int64_t)((__int128)(t->last - t->first) * i /
	    nchunks);
}

/*
 * Add the busy interval [s, e) of a timeline to the busy time of its
 * chunks, busy, whose bounds are bound: from *at, the chunk its interval
 * before was in, to the chunk s is in, and on.
 */
static void
chunks_add(int64_t *busy, const int64_t *bound, int *at, int64_t s,
    int64_t e)
{
	int64_t a, b;
	int i;

	for (i = *at; i + 1 < nchunks && bound[i + 1] <= s; i++)
		;
	*at = i;
	for (; i < nchunks && bound[i] < e; i++) {
		a = s > bound[i] ? s : bound[i];
		b = e < bound[i + 1] ? e : bound[i + 1];
		if (b > a)
			busy[i] += b - a;
	}
}

/*
 * The utilization by chunk of every timeline, from the busy file: the
 * kernel busy time of each chunk, then for each timeline its chunks as
 * percents and its longest stretch of chunks below 50%.
 */
static void
put_chunks(struct timeline **tl, const char **pre, size_t ntl)
{
	int64_t recs[3 * 1024], *rec, *busy, *bound, nread = 0, cs, ce;
	int *at;
	struct timeline *t;
	size_t k, n, j;
	int i, run0, best0, bestn;

	busy = calloc(ntl * nchunks, sizeof(*busy));
	bound = calloc(ntl * (nchunks + 1), sizeof(*bound));
	at = calloc(ntl, sizeof(*at));
	if (busy == NULL || bound == NULL || at == NULL)
		err(1, NULL);
	for (k = 0; k < ntl; k++)
		for (i = 0; i <= nchunks; i++)
			bound[k * (nchunks + 1) + i] = chunk_start(tl[k], i);
	if (fflush(busyfp) == EOF || fseek(busyfp, 0, SEEK_SET) == -1)
		err(1, "temporary file");
	/*
	 * A timeline's records are in time order: the chunk it is in only
	 * moves on.  The first nshared, of the one device while it was the
	 * only one, are the run's too.
	 */
	while (nread < nbusy) {
		n = nbusy - nread < 1024 ? nbusy - nread : 1024;
		if (fread(recs, 3 * sizeof(*recs), n, busyfp) != n)
			err(1, "temporary file");
		for (j = 0; j < n; j++, nread++) {
			rec = &recs[3 * j];
			chunks_add(&busy[rec[0] * nchunks],
			    &bound[rec[0] * (nchunks + 1)], &at[rec[0]],
			    rec[1], rec[2]);
			if (nread < nshared)
				chunks_add(busy, bound, at, rec[1], rec[2]);
		}
	}
	free(bound);
	free(at);
	for (k = 0; k < ntl; k++) {
		t = tl[k];
		best0 = bestn = 0;
		run0 = -1;
		for (i = 0; i < nchunks; i++) {
			cs = chunk_start(t, i);
			ce = chunk_start(t, i + 1);
			printf("%s%sutilization.%d\t%.2f\n", prefix, pre[k],
			    i + 1, pct(busy[k * nchunks + i], ce - cs));
			if (2 * busy[k * nchunks + i] < ce - cs) {
				if (run0 == -1)
					run0 = i;
				if (i + 1 - run0 > bestn) {
					bestn = i + 1 - run0;
					best0 = run0;
				}
			} else
				run0 = -1;
		}
		put_factf(prefix, bestn, "%sbelow_half.chunks", pre[k]);
		put_factf(prefix, bestn ? chunk_start(t, best0) : 0,
		    "%sbelow_half.start_ns", pre[k]);
		put_factf(prefix, bestn ? chunk_start(t, best0 + bestn) : 0,
		    "%sbelow_half.end_ns", pre[k]);
	}
	free(busy);
}

/*
 * The verdict of the run and its rule, by the library's verdict.c, which
 * sweepsum(1) applies to a configuration's means.
 */
static void
put_verdict(void)
{
	const struct timeline *t = &run;
	struct verdict_figures v = {
		.span_ns = t->last - t->first,
		.comm_exposed_ns = t->part[C_COMM],
		.comm_union_ns = t->comm_union,
		.idle_ns = idle_total(t),
		.idle_host_ns = t->idle[GAP_HOST],
		.idle_launch_ns = t->idle[GAP_LAUNCH],
		.idle_queued_ns = t->idle[GAP_QUEUED],
		.idle_unknown_ns = t->idle[GAP_UNKNOWN],
		.short_kernels = shortcalls,
		.kernels = kernels,
		.kernel_ns = kernel_ns,
		.call_p50_ns = hist_pct(&calldur, 50),
		.longest_gap_ns = t->longest_gap,
		.longest_gap_at_ns = t->longest_gap_at - t->first,
	};
	int c, g;

	for (c = C_HTOD; c <= C_MEMSET; c++)
		v.copies_ns += t->part[c];
	for (g = 0; g < NGAPLEN; g++)
		for (c = 0; c < NGAPCAUSE; c++) {
			v.gap_ns[g][c] = t->gap_ns[g][c];
			v.gap_count[g][c] = t->gap_count[g][c];
		}
	printf("%sverdict\t", prefix);
	verdict_write(stdout, &v);
	printf("\n%sverdict_rule\t%s\n", prefix, verdict_rule);
}

/*
 * The idle gaps of the run by length and cause, as the verdict reads
 * them, and the longest, where it starts from the span's start.
 */
static void
put_gaps(void)
{
	int g, c;

	for (g = 0; g < NGAPLEN; g++)
		for (c = 0; c < NGAPCAUSE; c++) {
			put_factf(prefix, run.gap_count[g][c],
			    "gaps.%s.%s.count", gaplen_name[g],
			    gapcause_name[c]);
			put_factf(prefix, run.gap_ns[g][c], "gaps.%s.%s.ns",
			    gaplen_name[g], gapcause_name[c]);
		}
	put("gaps.longest.ns", run.longest_gap);
	put("gaps.longest.start_ns", run.longest_gap ?
	    run.longest_gap_at - run.first : 0);
	put("threshold.short_gap_ns", VERDICT_SHORT_GAP_NS);
	put("threshold.long_gap_ns", VERDICT_LONG_GAP_NS);
}

static void
put_stats(void)
{
	struct stream *s;
	size_t i;
	char *tabp;
	enum cls c;

	put("launch.calls", calls);
	put("launch.graph_calls", graphcalls);
	put("launch.unmatched", unmatched);
	put("launch.delay.p50_ns", hist_pct(&delay, 50));
	put("launch.delay.p90_ns", hist_pct(&delay, 90));
	put("launch.delay.p99_ns", hist_pct(&delay, 99));
	put("launch.delay.max_ns", delay.any ? delay.max : 0);
	put("launch.call.p50_ns", hist_pct(&calldur, 50));
	put("launch.call.p99_ns", hist_pct(&calldur, 99));
	put("launch.call.max_ns", calldur.any ? calldur.max : 0);
	put("launch.outliers", outliers);
	put("launch.short.count", shortcalls);
	put("launch.short.ns", short_ns);
	put_pct("", "launch.short.percent_of_kernel_time", short_ns,
	    kernel_ns);
	put("kernels.count", kernels);
	put("kernels.ns", kernel_ns);
	put("kernels.tiny.count", tiny);
	put("kernels.tiny.ns", tiny_ns);
	put_pct("", "kernels.tiny.percent_of_kernel_time", tiny_ns,
	    kernel_ns);
	for (c = C_HTOD; c <= C_MEMSET; c++) {
		put_factf(prefix, mcount[c], "memory.%s.count", memkind[c]);
		put_factf(prefix, mtime[c], "memory.%s.time_ns", memkind[c]);
		if (!bytes_known)
			continue;
		put_factf(prefix, mbytes[c], "memory.%s.bytes", memkind[c]);
		/* Bytes per ns are GB/s. */
		printf("%smemory.%s.gb_per_s\t%.3f\n", prefix, memkind[c],
		    mtime[c] == 0 ? 0 : (double)mbytes[c] / mtime[c]);
	}
	for (i = 0; i < streams.n; i++) {
		s = (struct stream *)streams.recs + i;
		tabp = strchr(s->g.key, '\t');
		if (s->launched) {
			put_factf(prefix, s->maxdepth, "stream.%.*s.%s.queue."
			    "max_depth", (int)(tabp - s->g.key), s->g.key,
			    tabp + 1);
			put_factf(prefix, s->full_ns, "stream.%.*s.%s.queue."
			    "full_ns", (int)(tabp - s->g.key), s->g.key,
			    tabp + 1);
		}
		if (s->ops) {
			put_factf(prefix, s->hta[0], "stream.%.*s.%s.hta."
			    "host_wait_ns", (int)(tabp - s->g.key), s->g.key,
			    tabp + 1);
			put_factf(prefix, s->hta[1], "stream.%.*s.%s.hta."
			    "kernel_wait_ns", (int)(tabp - s->g.key),
			    s->g.key, tabp + 1);
			put_factf(prefix, s->hta[2], "stream.%.*s.%s.hta."
			    "other_ns", (int)(tabp - s->g.key), s->g.key,
			    tabp + 1);
		}
	}
	put("threshold.chunks", nchunks);
	put("threshold.tiny_ns", tiny_max);
	put("threshold.outlier_ns", outlier_min);
	put("threshold.queue_depth", qdepth);
	put("threshold.kernel_wait_ns", kwait);
}

int
main(int argc, char *argv[])
{
	struct launches lr;
	struct ivin in;
	struct op op;
	const struct interval *iv = &op.iv;
	struct device *d;
	struct timeline **tl;
	struct stream *s;
	const struct pending *p;
	const char *launchpath = NULL, *mempath = NULL, *rulespath = NULL;
	const char **pre;
	char *key;
	size_t i;
	int ch;
	int64_t v;
	enum cls c;

	while ((ch = getopt_long(argc, argv, "a:c:d:f:hi:l:m:o:p:q:r:s:u:w:",
	    helpopt,
	    NULL)) != -1) {
		switch (ch) {
		case 'a':
			aprefix = optarg;
			break;
		case 'c':
			if (parse_ns(optarg, &v) == -1 || v < 1 || v > 10000)
				errx(EXIT_USAGE, "-c %s: not a count of chunks "
				    "from 1 to 10000", optarg);
			nchunks = v;
			break;
		case 'd':
			devpath = optarg;
			break;
		case 'f':
			factspath = optarg;
			break;
		case 'h':
			usage(0);
		case 'i':
			iprefix = optarg;
			break;
		case 'l':
			launchpath = optarg;
			break;
		case 'm':
			mempath = optarg;
			break;
		case 'o':
		case 'q':
		case 's':
		case 'w':
			if (parse_ns(optarg, &v) == -1)
				errx(EXIT_USAGE, "-%c %s: not a non-negative "
				    "integer of ns", ch, optarg);
			*(ch == 'o' ? &outlier_min : ch == 'q' ? &qdepth :
			    ch == 's' ? &tiny_max : &kwait) = v;
			break;
		case 'p':
			prefix = optarg;
			break;
		case 'r':
			rulespath = optarg;
			break;
		case 'u':
			uprefix = optarg;
			break;
		default:
			usage(EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		usage(EXIT_USAGE);
	if (qdepth == 0)
		errx(EXIT_USAGE, "-q 0: a queue is never 0 deep or more");

	rules = rules_loadx(rulespath, RULES_EXTENDED);
	for (i = 0; i < rules_ncategories(rules); i++)
		if (rules_communication(rules, i)) {
			commcat = reallocarray(commcat, ncomm + 1,
			    sizeof(*commcat));
			if (commcat == NULL)
				err(1, NULL);
			commcat[ncomm++] = rules_category(rules, i);
		}
	if (factspath != NULL)
		out_stdout(factspath);
	if ((busyfp = tmpfile()) == NULL ||
	    setvbuf(busyfp, NULL, _IOFBF, 1 << 16) != 0)
		err(1, "temporary file");
	/* With -f, -d's file too is whole or not at all, as the facts. */
	if (devpath != NULL)
		devfp = out_side(devpath, factspath != NULL);
	ivin_open(&in, argc == 1 ? argv[0] : "-", 1);
	lalive = 0;
	if (launchpath != NULL) {
		launches_open(&lr, launchpath, 1);
		lalive = launch_next(&lr);
	} else
		ivmeet_bound(&calls_kernels, 0, INT64_MAX);	/* no calls */
	buffer_stdout();
	run.index = 0;
	while (op_next(&in, &op)) {
		d = device_get(iv->device);
		if (devices.n > MAXDEVICES)
			errx(1, "%s: more than %d devices", lines_at(&in.in),
			    MAXDEVICES);
		if (!d->tl.started)
			d->tl.index = devices.n;
		if (shared && devices.n > 1) {
			/* The run is no longer its first device alone. */
			run = ((struct device *)devices.recs)->tl;
			run.index = 0;
			nshared = nbusy;
			shared = 0;
		}
		c = classof(op.kind, iv->category, iv->name, &in.in);
		p = NULL;
		if (launchpath != NULL)
			launches_upto(&lr, iv->start);
		if (!op.plain)
			op.stream = idnum(iv->stream, &in.in, "stream");
		if (launchpath != NULL)
			p = match(&op);
		if (c < NKERNEL) {
			kernels++;
			sum_ns(&kernel_ns, iv->end - iv->start, &in.in);
			if (iv->end - iv->start < tiny_max) {
				tiny++;
				tiny_ns += iv->end - iv->start;
			}
		} else if (c != C_OTHER) {
			mcount[c]++;
			sum_ns(&mtime[c], iv->end - iv->start, &in.in);
		}
		hta_add(&op, p, &in.in);
		devstat_add(d, &op, &in.in);
		timeline_add(&d->tl, iv, c, p);
		if (!shared)
			timeline_add(&run, iv, c, p);
	}
	ivin_close(&in);
	/* No kernel comes after the trace: the calls left need not queue. */
	ivmeet_bound(&calls_kernels, 1, INT64_MAX);
	if (launchpath != NULL) {
		launches_upto(&lr, INT64_MAX);
		unmatched += ordq_len(&pendq) + natnow;
		launches_close(&lr);
	}
	ivmeet_end(&calls_kernels);
	queue_drain(INT64_MAX);
	for (i = 0; i < streams.n; i++) {
		s = (struct stream *)streams.recs + i;
		if (s->depth != 0)
			errx(1, "internal error: a queue left %lld deep",
			    (long long)s->depth);
	}
	if (mempath != NULL)
		read_memory(mempath);

	tl = reallocarray(NULL, devices.n + 1, sizeof(*tl));
	pre = reallocarray(NULL, devices.n + 1, sizeof(*pre));
	if (tl == NULL || pre == NULL)
		err(1, NULL);
	tl[0] = &run;
	pre[0] = "";
	if (shared && devices.n == 1) {
		d = (struct device *)devices.recs;
		timeline_end(&d->tl);
		run = d->tl;
		run.index = 0;
		nshared = nbusy;
	} else
		timeline_end(&run);
	put_timeline("", &run);
	for (i = 0; i < devices.n; i++) {
		d = (struct device *)devices.recs + i;
		timeline_end(&d->tl);
		tl[i + 1] = &d->tl;
		if (asprintf(&key, "device.%s.", d->g.key) == -1)
			err(1, NULL);
		pre[i + 1] = key;
		put_timeline(key, &d->tl);
	}
	if (run.started)
		put_chunks(tl, pre, devices.n + 1);
	for (i = 1; i <= devices.n; i++)
		free((char *)pre[i]);
	free(pre);
	free(tl);
	put_stats();
	put_gaps();
	put_verdict();
	put_unions();
	if (devfp != NULL)
		put_devstat(devfp, devpath);
	close_stdout();
	return 0;
}

/* Status 0 is -h: the usage goes to stdout. */
static _Noreturn void
usage(int status)
{
	usage_exit("usage: account [-h] [-a prefix] [-c chunks] [-d devices] "
	    "[-f facts] [-i prefix] [-l launches] [-m memory] [-o ns] "
	    "[-p prefix] [-q depth] [-r rules] [-s ns] [-u prefix] [-w ns] "
	    "[file]\n",
	    status);
}
