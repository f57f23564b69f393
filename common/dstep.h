/*
 * dstep.h - one step of data-parallel pre-training by graph (gcn-train(1),
 * MPI; --reduce graph in one process): each rank takes some of the step's
 * graphs, runs each graph's forward and backward pass alone, each task's
 * loss the graph's share of the mean over the whole step
 * (model_step_part), and adds the graph's gradient to an exact sum
 * (dist.h); one allreduce adds the ranks' sums.  A graph's pass does not
 * depend on the other graphs (batch normalisation is per graph, the
 * masking seeded by the graph's id), and the exact sum not on the order
 * of its terms, so the step's gradient, and the model, are the same bytes
 * for any number of processes (with the same threads in each).
 *
 * Ownership: dstep_init()/dstep_free() own the step's buffers (the exact
 * sums, one graph's batch, the split), reused step after step; the
 * caller owns the model, the graphs, the batch and the workspace.
 */
#ifndef GNN_DSTEP_H
#define GNN_DSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "dist.h"
#include "model.h"

struct dstep {
	int B;		    /* graphs a step */
	xsum acc;	    /* the gradient summed over graphs and ranks */
	batch one;	    /* one graph of the rank's share */
	int *rank_of;	    /* (B) the rank that runs each graph */
	int *mine;	    /* (B) this rank's graphs, ascending */
	struct lgraph **mg; /* (B) and the graphs themselves */
	double *gl;	    /* (B x NTASK) each graph's share of the losses */
	/* the last step's seconds on this rank: building its graphs' batch,
	 * their passes, adding their gradients, the allreduce (waiting for
	 * the slowest rank included) */
	double t_build, t_pass, t_add, t_reduce;
	int64_t P, Q, ncl; /* the last step's pairs, queries, clusters */
};

/*
 * Which rank runs which of graphs g[0..n-1], into rank_of: the largest
 * first, each to the rank with the fewest nodes so far (lowest rank on
 * ties; any split gives the same sums, this one evens out the work).  Not
 * collective: every rank computes the same.
 * Time complexity: O(n log n + n ranks).
 */
void dstep_split(struct lgraph *const *g, int n, int *rank_of);

/* Buffers for steps of B graphs of a model of nparams parameters. */
void dstep_init(struct dstep *d, int64_t nparams, int B);
void dstep_free(struct dstep *d);

/*
 * One step, collective: the gradient of graphs bg[0..B-1], masked for
 * `step` from seed, into M->g (the same on every rank), and the losses
 * into loss[NTASK] (the means over the step, as model_step()'s); b and w
 * are this rank's batch and workspace; dstep_split() says which rank
 * runs which graph.
 * stop: this rank wants to stop (a signal); the ranks agree before any
 * work, and all return 1 when one asked.  Returns 0 or 1.  A rank whose
 * batch cannot be built, or whose gradient is not finite or too large to
 * sum, ends the run with its message (dist_fail_if_any: one line, exit 1);
 * msg is scratch for it.  One process alone returns -1 with msg when its
 * batch cannot be built (a feature command failed, or a signal cut it
 * short: the caller tells which).
 * Time complexity: O(B log B + B ranks) for the split, the passes, and
 * O(B/ranks + 1) passes over the parameters.
 */
int dstep_run(struct dstep *d, model *M, struct lgraph *const *bg, uint64_t seed, uint64_t step,
	      const struct batch_opts *bo, batch *b, mws *w, int stop, double *loss, char *msg,
	      size_t msglen);

/*
 * Whether this rank's graphs g[0..n-1] are rank 0's, collective: a digest
 * of everything training reads of each graph (its id, edges, clusters,
 * centralities, 'mask' pairs and 'features') against rank 0's, so that
 * the same data under other paths, or compressed otherwise, passes.
 * Returns 0, or -1 with msg: the graph counts, or the first graph that
 * differs.  Rank 0's wait for the others is idle.
 * Time complexity: O(the graphs' size).
 */
int dstep_same_input(struct lgraph *const *g, int64_t n, char *msg, size_t msglen);

#endif
