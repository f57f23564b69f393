/*
 * refex.h - a hand-made structural feature set in the style of ReFeX
 * (Henderson et al. 2011, "It's Who You Know: Graph Mining Using Recursive
 * Structural Features"): the paper's four features (nodefeat.h), the
 * counts on a log scale, and their recursive neighbourhood aggregates.
 * The cheap baseline a pre-trained encoder must beat (issue 38):
 * `nodefeat --set refex`.
 *
 * Ownership: the caller owns the graph, the output array and the optional
 * refex_ws, which refex_ws_init() sets up, the calls grow, and
 * refex_ws_free() releases (NULL is a no-op).  ws = NULL makes a call
 * allocate and free its own scratch.  A workspace serves one call at a
 * time.
 *
 * The columns (REFEX_COLS = 20), with x(v) the four base features of v:
 *   0..3    x(v): degree_log = log(1 + deg(v)), core_log = log(1 +
 *           core(v)), ci1_log = log(1 + CI_1(v)), and the clustering
 *           coefficient as it is (already in [0, 1]);
 *   4..7    mean1_*: the mean of x(u) over the neighbours u of v;
 *   8..11   max1_*: the maximum of x(u) over the neighbours u of v;
 *   12..15  mean2_*: the mean of mean1_*(u) over the neighbours u of v;
 *   16..19  max2_*: the maximum of max1_*(u) over the neighbours u of v;
 * each group in the order degree_log, core_log, ci1_log, clustering.
 * An isolated node has no neighbours: its 16 aggregates are 0 (its base
 * features are 0 too).  The values do not depend on the thread count: each
 * node's sums are taken by one thread in neighbour order.
 */
#ifndef GNN_REFEX_H
#define GNN_REFEX_H

#include <stddef.h>

#include "graph.h"
#include "nodefeat.h"

#define REFEX_COLS 20
#define REFEX_COLUMNS \
	"degree_log,core_log,ci1_log,clustering," \
	"mean1_degree_log,mean1_core_log,mean1_ci1_log,mean1_clustering," \
	"max1_degree_log,max1_core_log,max1_ci1_log,max1_clustering," \
	"mean2_degree_log,mean2_core_log,mean2_ci1_log,mean2_clustering," \
	"max2_degree_log,max2_core_log,max2_ci1_log,max2_clustering"

typedef struct refex_ws {
	features_ws fw; /* the base features' scratch */
	double *raw;	/* (n, FEAT_N) the raw base features */
	size_t cap;	/* nodes allocated at raw */
} refex_ws;

void refex_ws_init(refex_ws *ws);
void refex_ws_free(refex_ws *ws);

/*
 * The 20 columns above for every node of g into out: (n, REFEX_COLS)
 * row-major.  Edge cases: isolated nodes are all 0; n = 0 writes nothing.
 * Threads: OpenMP over nodes when g has at least FEATURES_PAR_MIN_ARCS
 * arcs (the calling thread otherwise, or inside a parallel region).
 * Time complexity: that of nodefeat_raw() (O(n + m^1.5) worst case, for
 * the clustering coefficient), then O(n + m) per aggregation level.
 */
void refex_compute(const graph *g, double *out, refex_ws *ws);

#endif
