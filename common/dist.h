/*
 * dist.h - data-parallel training across processes (MPI): the few
 * collectives gcn-train needs, the exact sum that makes its model the same
 * for any number of processes, and a step's batch cut into its graphs.
 *
 * Ownership: dist_init()/dist_end() own the MPI library's state; xsum_init()
 * and xsum_free() an exact accumulator (xsum_free(NULL) is a no-op);
 * batch_graph() writes into a batch the caller made with batch_init().
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

#include "batch.h"

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
int dist_rank(void);		/* not collective */
int dist_size(void);		/* not collective */
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
 * Standard input, read to its end by rank 0 (the launcher gives it to no
 * other rank), becomes every rank's standard input: a copy in an
 * unlinked temporary file.  Rank 0 calls dist_stdin_read() before it reads
 * its input, and every rank dist_stdin_share() after rank 0's setup.
 */
void dist_stdin_read(void);		/* rank 0 only; not collective */
void dist_stdin_share(void);

/*
 * Exact sums of float vectors: each value is rounded to a multiple of
 * 2^-80 (values of magnitude 2^-56 and more are kept exactly) and summed
 * as a 128-bit integer, so a sum does not depend on the order of its
 * terms, on how they were split between ranks, or on the reduction's
 * algorithm.  The sum is rounded once, to the nearest float, when read.
 * Values must be finite and below 2^46 in magnitude; with that, up to
 * 2^80 terms can be added without overflow.
 * Memory: 16 bytes per element.
 */
typedef struct xsum {
	int64_t n;
	uint64_t *w;		/* (2n) each sum as two words: low, high */
} xsum;

void xsum_init(xsum *s, int64_t n);
void xsum_free(xsum *s);
/* Every sum 0.  Not collective. */
void xsum_zero(xsum *s);
/*
 * s += x[0..n-1].  Returns -1, or the index of the first value that is
 * not finite or not below 2^46 (such values are left out, the others
 * added).  Not collective.  Time complexity: O(n).
 */
int64_t xsum_add(xsum *s, const float *x);
/* s += t (both of n sums).  Not collective. */
void xsum_merge(xsum *s, const xsum *t);
/* x[0..n-1] = the sums, each rounded to the nearest float (ties to even).
 * Not collective. */
void xsum_get(const xsum *s, float *x);
/* Every rank's s becomes the sum of all ranks' s. */
void xsum_allreduce(xsum *s);

/*
 * The batch of graph g of b alone, as batch_build() would make it for
 * that graph by itself (node, pair, support and query indices relative to
 * the graph, kmax its own cluster count), into out (batch_init()'ed; its
 * arrays are replaced).  Not collective.  Time complexity: O(the graph's
 * share of b).
 */
void batch_graph(batch *out, const batch *b, int g);

#endif
