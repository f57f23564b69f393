/*
 * dist.h - data-parallel training across processes (MPI): the few
 * collectives gcn-train needs, among them the sum of exact sums (xsum.h)
 * that makes its model the same for any number of processes.
 *
 * Ownership: dist_init()/dist_end() own the MPI library's state, and
 * dist_init() starts a thread that watches the waits of several processes
 * until the process ends (it calls no MPI function).
 *
 * The same calls exist in a build without MPI (common/dist.o in
 * libcommon.a): one process, rank 0 of 1, and every collective a no-op.
 * The build with MPI (build/dist-mpi.o, -DGNN_MPI) is linked into
 * gcn-train alone.  MPI is started only when a launcher (mpirun, srun)
 * started the process, so a plain run never touches the MPI library.
 *
 * Every call below is collective (all ranks call it, in the same order)
 * unless it says otherwise.
 */
#ifndef GNN_DIST_H
#define GNN_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "xsum.h"

/*
 * The rank the launcher gave this process, read from its environment
 * before MPI starts (Open MPI, PMIx, PMI), or 0.  Not collective.
 */
int dist_launch_rank(void);

/*
 * Start MPI when a launcher started more than one process of this program
 * (MPI_THREAD_FUNNELED: OpenMP threads never call MPI).  Returns the number
 * of ranks.  In a build without MPI, a launch of more than one process is
 * an error: rank 0 says so, every rank exits 1.
 */
int dist_init(int *argc, char ***argv);
int dist_rank(void); /* not collective */
int dist_size(void); /* not collective */
/* The MPI library built in ("Open MPI v4.1.4"), or NULL.  Not collective. */
const char *dist_library(void);
/* MPI_Finalize, when MPI was started. */
void dist_end(void);

/* Broadcast n bytes from root (any size). */
void dist_bcast(void *buf, size_t n, int root);
/*
 * The same, for a rank that may wait long (rank 0 reading the input or
 * validating): the wait sleeps between tests instead of spinning on a
 * core the working rank needs.
 */
void dist_bcast_idle(void *buf, size_t n, int root);
/* x[0..n-1] summed over the ranks, in place (exact: integers). */
void dist_sum_i64(int64_t *x, int n);
/*
 * x[0..n-1] summed over the ranks, in place, where at most one rank gives
 * a value other than 0 for each element (a gather by sum: exact).
 */
void dist_gather_f64(double *x, int n);
/* The largest of x over the ranks (timings). */
double dist_max_f64(double x);

/*
 * An error every rank found the same way (a loss that is not finite):
 * rank 0 dies with the message, the other ranks wait silently until its
 * exit ends the job, so that the run ends with one line.  Not collective.
 */
void dist_die_all(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/*
 * An error some ranks may have found (bad != 0, its message in msg): when
 * any did, rank 0 dies with the lowest such rank's message, "rank R: msg"
 * (R > 0) or msg, and exit 1, and the others wait silently for the
 * launcher to end them; else it returns.  So a failure in any rank ends
 * the run with one line, said by the rank that removes the temporary
 * output files.  One process: dies with msg when bad.
 */
void dist_fail_if_any(int bad, const char *msg);

/*
 * Whether text, lines of "key: value", is rank 0's (the same keys in the
 * same order): 0, or -1 with msg on the first line that differs, "KEY
 * MINE differs from rank 0's THEIRS", where names (n pairs of a key and
 * its name, as "train.lr", "--lr") may name the key: "--lr (train.lr)
 * 0.01 differs from rank 0's 0.002".  A number is shown at the fewest
 * digits that read back the same.  Rank 0's wait for the others is idle
 * (they may still be reading their input).
 * Time complexity: O(the text's length).
 */
int dist_same_lines(const char *text, const char *const names[][2], size_t n, char *msg,
		    size_t msglen);

/*
 * A wait for the other processes, in any collective above, longer than
 * seconds (0: no limit; 600 unless set) ends the run: rank 0 dies with a
 * line saying so and naming the processes it sees stopped (those on its
 * machine), exit 1; rank r > 0 does 5 r seconds later, when rank 0 is the
 * one that stopped.  Time a process spent stopped itself (SIGSTOP, a
 * suspended machine) does not count.  Call before dist_init().  Not
 * collective.
 */
void dist_set_timeout(double seconds);

/*
 * Where the run stands ("at step 5 (epoch 3)"), for the lines of the
 * timeout and of dist_catch_signals().  Not collective; cheap (a step may
 * call it).
 */
void dist_set_where(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Several processes: a signal that ends the run (SIGTERM, SIGINT, SIGHUP:
 * the launcher's when another process was killed, or mpirun's own) makes
 * rank 0 say one line, with dist_set_where()'s text, before the action
 * the signal had (removing -o's temporary files: outfile.h; so call it
 * once those are open).  When rank 0 itself was killed, rank 1 says it
 * instead, where it can see that (the same machine); when rank 0 failed
 * alone with its line (a write error), rank 1's is a second one.  Nothing
 * is said for an end already said (dist_fail_if_any, dist_die_all) or by
 * a process that was stopped until the signal; a stopped process that is
 * continued after another on its machine has ended (the run is over)
 * ends at once, silently, before MPI resumes (SIGCONT).  Not collective.
 */
void dist_catch_signals(void);

/*
 * Standard input, read to its end by rank 0 (the launcher gives it to no
 * other rank), becomes every rank's standard input: a copy in an
 * unlinked temporary file.  Rank 0 calls dist_stdin_read() before it reads
 * its input, and every rank dist_stdin_share() after rank 0's setup.
 */
void dist_stdin_read(void); /* rank 0 only; not collective */
void dist_stdin_share(void);

/* Every rank's s (xsum.h) becomes the sum of all ranks' s. */
void dist_xsum_allreduce(xsum *s);

#endif
