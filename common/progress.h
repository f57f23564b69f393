/*
 * progress.h - the progress line of long work on stderr, with a rate and
 * the time left:
 *
 *	centrality: graph 0: 1,536/4,096 sources (37%), 212/s, 12 s left
 *
 * Ownership: a struct progress belongs to its caller (a local or a field of
 * the tool's state); nothing here allocates, and there is nothing to free.
 *
 * When it shows (copt_show_progress()): standard error is a terminal, or
 * --progress was given; never with -q.  On a terminal the one line is
 * rewritten in place at most 5 times a second; a warning printed meanwhile
 * erases it first (err_tty_line) and the next update draws it again.  In a
 * file or pipe (--progress) a whole line is written at most every 10 s.
 * GNNPIPE_PROGRESS_EVERY=S in the environment sets the interval to S
 * seconds instead (0: every update), for tests and for logs.
 * progress_done() ends the count: on a terminal the line is erased,
 * elsewhere a last line always gives the count and the time taken.  When it is off, every call
 * returns at once, so the callers need no test of their own.
 *
 * Not thread-safe: call progress_update() from one thread at a time (an
 * OpenMP loop calls it from thread 0 only, or inside a critical section).
 */
#ifndef GNN_PROGRESS_H
#define GNN_PROGRESS_H

#include <stdint.h>

#include "opt.h"

struct progress {
	int on, tty;
	char label[96];	  /* what is being done: "graph 3", "run 2/10" */
	const char *unit; /* what is counted: "graphs", "sources", "epochs" */
	char note[160];	  /* shown after the time left: "loss 0.731" */
	int64_t total;	  /* units to do; 0 = unknown (count and rate only) */
	int64_t done;
	double t0;    /* when this count started */
	double last;  /* when a line was last drawn */
	int drawn;    /* a line has been drawn since progress_start */
	int at_most;  /* total is a bound (early stopping): "at most ... left" */
	double every; /* seconds between lines */
};

/* Seconds on a monotonic clock (for rates and the callers' own timing). */
double progress_now(void);

/* Set p up for a program with options c: on or off, terminal or not. */
void progress_init(struct progress *p, const struct copt *c);

/*
 * Start counting unit of total (0 = unknown) from 0, for the work named
 * by the printf-style label (may be NULL or ""); the rate and time left are
 * measured from here.  The note is cleared.
 */
void progress_start(struct progress *p, const char *unit, int64_t total, const char *label, ...)
    __attribute__((format(printf, 4, 5)));

/* Text shown after the time left until the next progress_start. */
void progress_note(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* done units of the current count are finished: draw the line if it is
 * due.  Costs a clock read when on, nothing when off. */
void progress_update(struct progress *p, int64_t done);

/* The current count is over: erase the line (terminal) or write its last
 * line with the time taken (--progress elsewhere). */
void progress_done(struct progress *p);

/*
 * "3 s", "4 min 05 s", "2 h 10 min": a duration for people.  buf of at
 * least 32 bytes; returns buf.
 */
char *progress_duration(char *buf, size_t len, double seconds);

#endif
