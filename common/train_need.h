/*
 * train_need.h - the memory a gcn-train run will hold, estimated from the
 * sizes of its corpus, and checked against what the process can get
 * (mem.h) at each graph's header, before its edges are read: a corpus,
 * or a step's batch of its largest graphs, that cannot fit is refused in
 * one line with the figure it needs and the options that would fit
 * (gcn-train(1), MEMORY).
 *
 * Ownership: train_need_init() fills a struct train_need that
 * train_need_free() releases (the largest graphs' sizes); it borrows the
 * settings, which must outlive it.
 */
#ifndef GNN_TRAIN_NEED_H
#define GNN_TRAIN_NEED_H

#include <stdint.h>

#include "model.h"
#include "stream.h"
#include "train_settings.h"

struct train_need {
	const struct train_settings *s;
	struct model_cfg mc;  /* the model the settings make */
	int64_t np;	      /* its parameters */
	int B, by_graph;      /* graphs a step; --reduce graph */
	double base;	      /* bytes the process held when the check began */
	int64_t G, n, m;      /* the corpus so far: graphs, nodes, edges */
	int64_t mmax;	      /* the most edges of one graph */
	int64_t *topn, *topm; /* (B) the nodes and edges of the B largest
			       * graphs so far, largest first (k of them) */
	int k;
};

/* Start the estimate of a run with settings s (a model configuration they
 * make), by_graph (--reduce graph or MPI); what the process holds now is
 * its base.  Dies with a usage error when s makes no model. */
void train_need_init(struct train_need *tn, const struct train_settings *s, int by_graph);
void train_need_free(struct train_need *tn);

/*
 * The bytes the run will hold at its peak with B graphs a step (by_graph:
 * one graph a pass), bf the encoder's products in bf16: the base; the
 * parameters, gradients, Adam's moments and the best copy (by graph, the
 * exact sums too); the corpus (graphs, clusters, centralities; the record
 * being read and its scratch); the step's batch of the B largest graphs
 * (its arrays, the encoder's workspace by model_ws_need(), the tasks'
 * scratch and gradients, with the pairs and queries at their most and at
 * most 64 clusters a graph).  Time complexity: O(B).
 */
double train_need_bytes(const struct train_need *tn, int B, int by_graph, int bf);

/* train_need_bytes() of the corpus so far with the run's options (the
 * precision set: gemm_precision()). */
double train_need_total(const struct train_need *tn);

/*
 * gs_set_graph_check()'s callback (ctx a struct train_need): the graph
 * whose header rec is joins the corpus, and the estimate is checked
 * before its edges are read: "WHERE: graphs 0..K (N nodes, M edges)
 * needs about X, this process can have Y (SOURCE); OPTION needs about Z;
 * GNNPIPE_MEMORY=off tries anyway", OPTION the first of the largest
 * smaller --batch, --precision bf16 (where the products are fp32 and the
 * machine has bf16) and --reduce graph that fits the graphs read so far
 * and leaves a twentieth of the room for those still to come.
 */
void train_need_header(void *ctx, gs_file *in, const gs_rec *rec);

#endif
