/*
 * batch.h - the graphs of one training step as the model sees them: each
 * graph masked (Algorithm 1) or pre-masked, its input features, its
 * normalised adjacency Â = D^-1/2 (A + I) D^-1/2, and the pairs, ranking
 * targets and cluster queries of the three tasks, concatenated into one
 * batch of N nodes.
 *
 * Ownership: an lgraph is made by lgraph_new() and released by
 * lgraph_free() (NULL is a no-op), with every array it points to;
 * batch_init()/batch_free() own a batch's buffers, which grow on demand
 * and are reused step after step.
 */
#ifndef GNN_BATCH_H
#define GNN_BATCH_H

#include <stdint.h>
#include <gsl/gsl_rng.h>

#include "graph.h"
#include "mask.h"
#include "nn.h"
#include "nodefeat.h"
#include "rwse.h"
#include "stream.h"

#define MODEL_NFEAT 4		/* the paper's input features (nodefeat) */
#define MODEL_NCENT 4		/* ranking targets */
#define MODEL_MAXF 65536	/* widest input a feature stage may give */

/*
 * Where the model's input features come from: the feature stage.  The
 * features always describe the graph the model sees (the masked graph in
 * pre-training, the training edges' graph in the link task):
 *   FEAT_SRC_PAPER  the paper's four (nodefeat.h), computed here on each
 *                   graph, scaled by `scale` (FEAT_SCALE_x)
 *   FEAT_SRC_RWSE   the random-walk return probabilities of
 *                   `nodefeat --set rwse` with its defaults (rwse.h:
 *                   RWSE_STEPS columns rw1..), computed here; the walks of
 *                   estimated components are seeded as nodefeat -s 0 seeds
 *                   a graph whose id is its place in the batch, so the
 *                   values are the command's to the bit
 *   FEAT_SRC_GIVEN  given with the graph (a 'features' tensor of the
 *                   input): only where the graph is not changed, so a
 *                   graph that is masked afresh is an error
 *   FEAT_SRC_CALL   a function of the graphs, called on every batch's
 *                   graphs at once (featcmd.h runs a command)
 * PAPER and RWSE are the built-in sets: a model records them by name
 * (features.stage), and they need no shell.
 */
enum { FEAT_SRC_PAPER = 0, FEAT_SRC_GIVEN, FEAT_SRC_CALL, FEAT_SRC_RWSE };

/* FEAT_SRC_CALL: fill feat[i] with gs[i]->n x F values for i < G;
 * 0, or -1 with msg. */
typedef int (*feat_call_fn)(void *ctx, const graph *const *gs, int G,
			    double *const *feat, char *msg, size_t msglen);

struct feat_src {
	int kind;		/* FEAT_SRC_x [PAPER] */
	int F;			/* width [MODEL_NFEAT] */
	int scale;		/* PAPER: FEAT_SCALE_x [MINMAX] */
	feat_call_fn call;	/* CALL */
	void *ctx;		/* CALL: its first argument */
};

/* The paper's four features, minmax-scaled. */
void feat_src_default(struct feat_src *fs);

/* The built-in set named name, "paper" or "rwse", as fs (its scale left
 * as it is).  Returns 0, or -1 for another name. */
int feat_src_builtin(struct feat_src *fs, const char *name);

/* The name of a built-in stage fs ("paper", "rwse"), and its columns
 * into buf (len >= 6 * RWSE_STEPS_MAX is enough). */
const char *feat_src_name(const struct feat_src *fs);
void feat_src_columns(const struct feat_src *fs, char *buf, size_t len);

/*
 * A 'features' tensor record r of a graph of n nodes as doubles: *feat
 * (allocated, n x *F) and *F.  Returns 0, or -1 with msg (not n rows, not
 * float, too wide).
 */
int feat_take(const gs_rec *r, int32_t n, double **feat, int *F, char *msg, size_t msglen);

/* 1 if a 'features' record r is nodefeat's default output (the paper's
 * four, minmax-scaled), which FEAT_SRC_PAPER computes the same. */
int feat_is_paper(const gs_rec *r);

/* One labelled graph of the training set. */
struct lgraph {
	int64_t id;
	graph g;		/* original graph (or the masked one, premasked) */
	int32_t *cluster;	/* (n) cluster of each node, 0..K-1 */
	int K;
	double *cent;		/* (n x MODEL_NCENT) ranking targets */
	/* Pre-masked input (mask-edges): pairs with label 1/0, used as the
	 * pool of positives and negatives instead of masking afresh. */
	int premasked;
	int64_t npairs;
	int32_t *pu, *pv;
	uint8_t *plab;
	/* The input's features of the graph (its 'features' tensor), used
	 * by FEAT_SRC_GIVEN, or NULL. */
	double *feat;		/* (n x F) */
	int F;
};

struct batch_opts {
	double mask_fraction;	/* [0.2] */
	int64_t npos, nneg;	/* pairs per graph [128, 256] */
	double support_fraction;	/* share of each cluster's nodes [1] */
	double tie_rtol;	/* centralities this close are a tie [1e-9] */
	struct feat_src fs;	/* the model's input [the paper's four] */
};

void batch_opts_default(struct batch_opts *o);

/* One batch: G graphs as consecutive row blocks of N nodes. */
typedef struct batch {
	int G;
	int64_t N;
	int64_t *off;		/* (G+1) node offsets */
	int F;			/* input features per node */
	real *X;		/* (N x F) model input */
	int64_t *rp;		/* Â in CSR: (N+1) */
	int32_t *ci;
	real *av;
	/* rec: P pairs (global node ids), y = 1 positive / 0 negative */
	int64_t P;
	int32_t *pu, *pv;
	real *y;
	/* rank: U distinct pair nodes; pair i is rows ru[i], rv[i] of them */
	int64_t U;
	int32_t *uidx, *ru, *rv;
	real *R;		/* (P x 4) targets 1, 0 or 1/2 */
	/* cluster: support rows sorted by cluster, clusters soff[c]..;
	 * queries with candidates qbeg[q] .. qbeg[q] + qnum[q] - 1 */
	int64_t Ns, ncl, Q;
	int kmax;
	int32_t *sidx;
	int64_t *soff;
	int32_t *qidx, *qbeg, *qnum, *qtgt;
	/* private */
	void *priv;
} batch;

void batch_init(batch *b);
void batch_free(batch *b);

/*
 * Build the batch of graphs gs[0..G-1] for training step `step`: each
 * graph is masked afresh (fraction of its edges, positives among them,
 * negatives among the original non-edges) from rng stream
 * (seed, rng_mix(step, graph id)), features (o->fs) and Â come from the
 * masked graph.  Graphs are prepared in parallel; the result does not
 * depend on the thread count.  Returns 0, or -1 with msg set (a graph
 * with no pair at all, given features of a graph masked afresh, a
 * feature stage that failed).
 */
int batch_build(batch *b, struct lgraph *const *gs, int G, uint64_t seed,
		uint64_t step, const struct batch_opts *o, char *msg,
		size_t msglen);

/*
 * The positives (*pos) and negatives (*neg) that batch_build() scores on
 * gs[0..G-1], summed over the graphs: a graph masked afresh gives
 * min(o->npos, r) removed edges, r = mask_count(o->mask_fraction, m), and
 * min(o->nneg, n(n-1)/2 - m) non-edges (mask.h), the same at every step; a
 * pre-masked graph its labelled pairs.  Time complexity: O(G), plus the
 * pre-masked graphs' pairs.
 */
void batch_pair_counts(struct lgraph *const *gs, int64_t G, const struct batch_opts *o,
		       int64_t *pos, int64_t *neg);

/* A labelled graph with no graph yet (graph_init'ed) and no labels. */
struct lgraph *lgraph_new(int64_t id);
void lgraph_free(struct lgraph *lg);

/*
 * The graphs gs[0..G-1] as model input, without masking or pairs: the
 * features of fs (FEAT_SRC_GIVEN: given[i], gs[i]->n x fs->F), Â of each
 * graph.  Returns 0, or -1 with msg.
 */
int batch_plain(batch *b, const graph *const *gs, int G, const struct feat_src *fs,
		double *const *given, char *msg, size_t msglen);

#endif
