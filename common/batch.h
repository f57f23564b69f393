/*
 * batch.h - the graphs of one training step as the model sees them: each
 * graph masked (Algorithm 1) or pre-masked, its input features, its
 * normalised adjacency Â = D^-1/2 (A + I) D^-1/2, and the pairs, ranking
 * targets and cluster queries of the three tasks, concatenated into one
 * batch of N nodes.
 *
 * Ownership: an lgraph is made by batch_lgraph_new() and released by
 * batch_lgraph_free() (NULL is a no-op), with every array it points to;
 * batch_init()/batch_free() own a batch's buffers, which grow on demand
 * and are reused step after step; batch_graph() writes into a batch the
 * caller made with batch_init().
 */
#ifndef GNN_BATCH_H
#define GNN_BATCH_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "featstage.h"
#include "graph.h"
#include "mask.h"
#include "nn.h"
#include "nodefeat.h"
#include "objective.h"
#include "rwse.h"
#include "stream.h"

#define MODEL_NCENT 4 /* ranking targets */

/* One labelled graph of the training set. */
struct lgraph {
	int64_t id;
	graph g;	  /* original graph (or the masked one, premasked) */
	int32_t *cluster; /* (n) cluster of each node, 0..K-1 */
	int K;
	double *cent; /* (n x MODEL_NCENT) ranking targets */
	/* Pre-masked input (mask-edges): pairs with label 1/0, used as the
	 * pool of positives and negatives instead of masking afresh. */
	int premasked;
	int64_t npairs;
	int32_t *pu, *pv;
	uint8_t *plab;
	/* The input's features of the graph (its 'features' tensor), used
	 * by FEAT_SRC_GIVEN, or NULL. */
	double *feat; /* (n x F) */
	int F;
	/* The targets of the objectives besides the tasks (objective.h),
	 * by the objective's place in the list: the record its target names,
	 * n x C values (kind node) or 1 x C (kind graph); classes as values,
	 * -1 none.  NULL for objectives that read no record. */
	struct ltarget {
		double *v;
		int C;
	} tg[OBJ_MAX];
};

struct batch_opts {
	double mask_fraction;	 /* [0.2] */
	int64_t npos, nneg;	 /* pairs per graph [128, 256] */
	double support_fraction; /* share of each cluster's nodes [1] */
	double tie_rtol;	 /* centralities this close are a tie [1e-9] */
	struct feat_src fs;	 /* the model's input [the paper's four] */
	/* the objectives besides the tasks [none], and for each of kind
	 * node or graph with loss mse its targets' column means and standard
	 * deviations over the training graphs (the caller's arrays) */
	int nobj;
	const struct objective *obj;
	const double *mu[OBJ_MAX], *sd[OBJ_MAX];
};

void batch_opts_default(struct batch_opts *o);

/* One batch: G graphs as consecutive row blocks of N nodes. */
typedef struct batch {
	int G;
	int64_t N;
	int64_t *off; /* (G+1) node offsets */
	int F;	      /* input features per node */
	real *X;      /* (N x F) model input */
	int64_t *rp;  /* Â in CSR: (N+1) */
	int32_t *ci;
	real *av;
	/* rec: P pairs (global node ids), y = 1 positive / 0 negative */
	int64_t P;
	int32_t *pu, *pv;
	real *y;
	/* rank: U distinct pair nodes; pair i is rows ru[i], rv[i] of them */
	int64_t U;
	int32_t *uidx, *ru, *rv;
	real *R; /* (P x 4) targets 1, 0 or 1/2 */
	/* cluster: support rows sorted by cluster, clusters soff[c]..;
	 * queries with candidates qbeg[q] .. qbeg[q] + qnum[q] - 1 */
	int64_t Ns, ncl, Q;
	int kmax;
	int32_t *sidx;
	int64_t *soff;
	int32_t *qidx, *qbeg, *qnum, *qtgt;
	/*
	 * The objectives besides the tasks (objective.h).  With a second view
	 * (a contrast), graphs G1..G-1 are the second views of graphs
	 * 0..G1-1 (G = 2 G1), rows N1..N-1; else G1 = G and N1 = N.  The
	 * tasks' pairs, targets and queries are the first view's.  What each
	 * objective reads, by kind:
	 *   node, mse   rows 0..N1-1 (R = N1, idx NULL), y (N1 x C) targets
	 *   node, xent  the labelled rows idx (R), cls their classes
	 *   node, rank  the rank task's pair nodes (uidx, ru, rv), y (P x C)
	 *   graph       rows 0..N1-1 pooled by graph (off), y (G1 x C)
	 *   contrast    level graph: every row pooled by graph (off), graph
	 *               g's positive g +- G1; level node: idx (R) a graph's
	 *               drawn nodes in the first view then the same nodes in
	 *               the second, graph by graph (seg, G1 + 1 offsets into
	 *               idx), row r's positive pos[r]
	 *   mask        idx (R) the masked rows, y (R x F) their input
	 *               features standardised over the batch's first view
	 */
	int G1;
	int64_t N1;
	struct bobj {
		int64_t R;
		int32_t *idx, *cls, *pos;
		real *y;
		int64_t *seg, nseg;
		size_t c_idx, c_cls, c_pos, c_y, c_seg;
	} ob[OBJ_MAX];
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
int batch_build(batch *b, struct lgraph *const *gs, int G, uint64_t seed, uint64_t step,
		const struct batch_opts *o, char *msg, size_t msglen);

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
struct lgraph *batch_lgraph_new(int64_t id);
void batch_lgraph_free(struct lgraph *lg);

/*
 * The graphs gs[0..G-1] as model input, without masking or pairs: the
 * features of fs (FEAT_SRC_GIVEN: given[i], gs[i]->n x fs->F), Â of each
 * graph.  Returns 0, or -1 with msg.
 */
int batch_plain(batch *b, const graph *const *gs, int G, const struct feat_src *fs,
		double *const *given, char *msg, size_t msglen);

/*
 * The batch of graph g of b alone, as batch_build() would make it for
 * that graph by itself (node, pair, support and query indices relative to
 * the graph, kmax its own cluster count), into out (batch_init()'ed; its
 * arrays are replaced).  Time complexity: O(the graph's share of b).
 */
void batch_graph(batch *out, const batch *b, int g);

#endif
