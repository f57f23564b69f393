/*
 * prof.h - clocks and GNN_PROFILE's phase table: where a program's time
 * goes, phase by phase, in wall and CPU seconds.
 *
 * Ownership: a struct prof is the caller's (no allocation inside); the
 * phase names it points to must outlive it.
 *
 * A program divides its work into phases 0..nph-1 and calls prof_mark()
 * at the end of each: the time since the previous mark goes to the phase
 * just ended.  With GNN_PROFILE unset (or not "1") every call returns at
 * once, so the marks can stay in a hot loop.
 */
#ifndef GNN_PROF_H
#define GNN_PROF_H

#include <stdint.h>
#include <time.h>

#define PROF_MAXPH 32 /* phases a table can have */

struct prof {
	int on;			 /* GNN_PROFILE=1 */
	int nph;		 /* phases */
	const char *const *name; /* (nph) their names, for the table */
	double w, c;		 /* the last mark: wall and process CPU seconds */
	double wall[PROF_MAXPH], cpu[PROF_MAXPH];
};

/*
 * A table of nph phases (at most PROF_MAXPH) named name[0..nph), all at
 * 0; on when the environment has GNN_PROFILE=1.  No mark is set: call
 * prof_mark(p, -1) to start the clock.  Time complexity O(nph).
 */
void prof_init(struct prof *p, int nph, const char *const *name);

/*
 * Mark the end of phase ph: the wall and process CPU time since the last
 * mark are added to it (ph < 0: none; the clock restarts).  Does nothing
 * when p is off.  Time complexity O(1) (two clock reads).
 */
void prof_mark(struct prof *p, int ph);

/*
 * The table on stderr (stdout flushed first), when p is on: a line
 * "PROG: profile: WHAT; wall W s, CPU C s; load L1 L5 L15" (the load
 * average, -1 where it is not known), then per phase its wall and CPU
 * seconds, CPU milliseconds per epoch (0 when epochs is 0) and share of
 * the CPU time.  Time complexity O(nph).
 */
void prof_print(const struct prof *p, const char *what, int64_t epochs);

/* The seconds of clock id (clock_gettime), e.g. CLOCK_MONOTONIC or
 * CLOCK_PROCESS_CPUTIME_ID. */
double prof_clock_s(clockid_t id);

/* Wall-clock seconds from an arbitrary origin (CLOCK_MONOTONIC): for
 * differences only. */
double prof_now(void);

/* CPU seconds of this process so far, all threads, user and system
 * (getrusage). */
double prof_cpu_s(void);

/* The peak resident set of this process in MiB (getrusage's ru_maxrss). */
double prof_peak_rss_mib(void);

/*
 * The median of x[0..n) (n >= 1), which is sorted in place (insertion
 * sort: for the few timings of a benchmark); of an even count, the mean of
 * the middle two.  Time complexity O(n^2).
 */
double prof_median(double *x, long long n);

#endif
