/*
 * ivunion.c: the union of a sorted interval stream, one union interval at
 * a time.  See h3prof.h.
 */
#include "h3prof.h"

/* The union of the lines of path, of kind kind alone unless it is NULL. */
void
ivunion_open(struct ivunion *u, const char *path, const char *kind)
{
	ivin_open(&u->in, path, 1);
	u->in.kind = kind;
	u->pending = 0;
}

/*
 * Return the next union interval in *startp and *endp, or 0 at the end.
 * As the reference's merge(): an interval that starts after the end built
 * so far begins a new one; any other, touching ones included, extends it.
 */
int
ivunion_next(struct ivunion *u, int64_t *startp, int64_t *endp)
{
	struct interval iv;

	while (ivin_next(&u->in, &iv)) {
		if (u->pending && iv.start <= u->end) {
			if (iv.end > u->end)
				u->end = iv.end;
		} else if (u->pending) {
			*startp = u->start;
			*endp = u->end;
			u->start = iv.start;
			u->end = iv.end;
			return 1;
		} else {
			u->start = iv.start;
			u->end = iv.end;
			u->pending = 1;
		}
	}
	if (!u->pending)
		return 0;
	*startp = u->start;
	*endp = u->end;
	u->pending = 0;
	return 1;
}

void
ivunion_close(struct ivunion *u)
{
	ivin_close(&u->in);
}
