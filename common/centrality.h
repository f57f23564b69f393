/*
 * centrality.h - the four node centralities of the ranking task (paper
 * Task 2, appendix A.3): eigenvector, betweenness, closeness and subgraph
 * centrality, with networkx 2.8.8's definitions and normalisations.
 *
 * Ownership: the caller owns the graph, the options, every result array
 * named in struct cent_out and the optional cent_ws, which cent_ws_init()
 * sets up, the calls grow, and cent_ws_free() releases (NULL is a no-op).
 *
 * Result arrays hold n doubles each; NULL means "not wanted".
 *
 * One call computes any subset and shares the work: betweenness and
 * closeness come from the same breadth-first search per source, and
 * eigenvector and subgraph centrality from the same eigendecomposition per
 * connected component.
 *
 * Exact and approximate.  Graphs of at most opts.exact_max nodes (default
 * 2000) get exact values for all four.  Past that size betweenness and
 * closeness are estimated from sampled sources, and subgraph centrality of
 * a component larger than exact_max from its leading eigenpairs; the
 * estimators are described at centrality_compute().  out->approx says which
 * quantities were estimated, so a tool can say so.  Eigenvector centrality
 * is never approximated: large components use the Lanczos method (ARPACK)
 * to machine precision.
 *
 * Connected components.  Every spectral quantity is computed per connected
 * component.  That is the same mathematics as one decomposition of the whole
 * adjacency matrix (it is block diagonal), it costs sum n_c^3 instead of
 * n^3, and it keeps small components finite: networkx exponentiates every
 * eigenvalue of the whole matrix, so once lambda_max > 709.78 exp() gives
 * inf and inf * 0 gives NaN on every node of every other component (seen on
 * tests/ref/overflow_n800: isolated nodes, an edge and a triangle get NaN
 * instead of 1, cosh(1) and 2.708...).
 *
 * Threads: the searches run on OpenMP threads; results are the same for
 * every thread count (fixed summation order, see centrality_compute).
 * Dense eigensolvers run in OpenBLAS/LAPACK on the calling thread, with
 * OpenBLAS's own threads.  A caller that runs centrality_compute inside its
 * own parallel region should set OpenBLAS to one thread first
 * (openblas_set_num_threads(1)).  ARPACK keeps internal state, so its calls
 * are serialised (omp critical) and the function is safe to call from
 * several threads at once, each with its own cent_ws.  Around ARPACK,
 * OpenBLAS is set to one thread and then restored (its threads only slow
 * the Lanczos iteration down).
 */
#ifndef GNN_CENTRALITY_H
#define GNN_CENTRALITY_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* Bits naming the four quantities (cent_out.approx). */
enum {
	CENT_EIGENVECTOR = 1,
	CENT_BETWEENNESS = 2,
	CENT_CLOSENESS = 4,
	CENT_SUBGRAPH = 8
};

/* Column names in the usual order, for tensor records and TSV headers. */
#define CENT_COLUMNS "eigenvector,betweenness,closeness,subgraph"

#define CENT_EXACT_MAX 2000	/* default of cent_opts.exact_max */
#define CENT_SAMPLES 512	/* default of cent_opts.samples */
#define CENT_EIG_PAIRS 32	/* default of cent_opts.eig_pairs */

struct cent_opts {
	/* Exact algorithms for graphs (betweenness, closeness) and connected
	 * components (subgraph) of at most this many nodes. */
	int32_t exact_max;
	/* Past exact_max: number of BFS sources for betweenness/closeness. */
	int32_t samples;
	/* Past exact_max: leading eigenpairs for subgraph centrality. */
	int32_t eig_pairs;
	/* Seeds the choice of sampled sources and the Lanczos start vectors.
	 * Derive it per graph (rng_mix(seed, graph id)) so that graphs do not
	 * share samples. */
	uint64_t seed;
};

/* Results.  The caller sets the array pointers; the callee sets the rest. */
typedef struct cent_out {
	double *eigenvector;	/* (n) or NULL */
	double *betweenness;	/* (n) or NULL */
	double *closeness;	/* (n) or NULL */
	double *subgraph;	/* (n) or NULL; values past DBL_MAX are clamped */
	double *subgraph_log;	/* (n) or NULL; natural log of subgraph centrality */

	int approx;		/* out: CENT_* bits of the estimated quantities */
	int64_t subgraph_clamped;	/* out: nodes whose subgraph centrality
					 * exceeds DBL_MAX (written as DBL_MAX) */
	double lambda_max;	/* out: largest adjacency eigenvalue, when a
				 * spectral quantity was asked for; else 0 */
	int32_t sources;	/* out: BFS sources used (n when exact) */
} cent_out;

/* Opaque reusable scratch (buffers grow as needed, never shrink). */
#define CENT_WS_NBUF 32
typedef struct cent_ws {
	void *buf[CENT_WS_NBUF];
	size_t cap[CENT_WS_NBUF];	/* bytes allocated at buf[i] */
} cent_ws;

void cent_ws_init(cent_ws *ws);
void cent_ws_free(cent_ws *ws);

/* Defaults: exact_max CENT_EXACT_MAX, samples CENT_SAMPLES, eig_pairs
 * CENT_EIG_PAIRS, seed 0. */
void cent_opts_init(struct cent_opts *o);

/*
 * Compute the centralities whose arrays in out are non-NULL (subgraph is
 * computed when subgraph or subgraph_log is non-NULL).  opts NULL means the
 * defaults; ws NULL means scratch is allocated and freed inside the call.
 * Returns 0, or -1 with a one-line reason in msg (an eigensolver that did
 * not converge, a number of shortest paths past DBL_MAX); no array then
 * holds a non-finite value, but their contents are unspecified.
 *
 * Eigenvector centrality (networkx eigenvector_centrality_numpy):
 *   x with A x = lambda_max x, unit Euclidean norm, sign chosen so that
 *   sum(x) > 0.  On a connected graph x is the Perron vector, positive on
 *   every node.  On a disconnected graph networkx takes the leading
 *   eigenvector of the whole matrix: when one component carries the
 *   largest eigenvalue, x is that component's Perron vector and 0 on every
 *   other node (networkx gives about 1e-17 there: ARPACK rounding; we give
 *   exact zeros).  When the largest eigenvalue is shared (two components
 *   with equal lambda_max within 1e-10 relative, or an edgeless graph, where
 *   it is 0 on every node) the eigenvector is not unique and networkx
 *   returns whatever vector of that eigenspace ARPACK's random start lands
 *   on, negative entries included; we return the projection of the all-ones
 *   vector onto the eigenspace, normalised, i.e. each tied component's
 *   Perron vector weighted by its sum (the limit of power iteration from
 *   the all-ones vector).  An edgeless graph gets 1/sqrt(n) everywhere, a
 *   single node 1.  (networkx raises on n <= 2 because scipy's eigs needs
 *   k < n - 1; our values there follow the same definition: K2 gives
 *   1/sqrt(2) twice.)
 *   Components up to exact_max nodes: the dense eigendecomposition shared
 *   with subgraph centrality, or, for eigenvector alone, LAPACK dsyevd for
 *   components up to 64 nodes and ARPACK (implicitly restarted Lanczos,
 *   tolerance machine epsilon, deterministic start vector) above.  Components are visited in order of
 *   an upper bound on lambda_max (max over edges of sqrt(deg u deg v)) and
 *   skipped once that bound is below the best lambda found.
 *
 * Betweenness centrality (networkx betweenness_centrality, normalized=True,
 * endpoints=False):
 *   b(v) = sum over ordered pairs (s, t), s != v != t, of
 *   sigma_st(v) / sigma_st, times 1 / ((n - 1)(n - 2)); that is, the
 *   fraction of shortest paths through v over unordered pairs, divided by
 *   (n - 1)(n - 2) / 2.  Pairs in different components contribute nothing;
 *   the normalisation still uses the whole n.  n <= 2: no normalisation
 *   (networkx), every value is 0.  Brandes (2001): one BFS per source that
 *   counts shortest paths (sigma, in doubles as networkx does) and records
 *   the shortest-path DAG, then dependencies pulled in reverse BFS order
 *   over the DAG arcs only.  The same BFS gives the source's closeness.
 *
 * Closeness centrality (networkx closeness_centrality, wf_improved=True):
 *   c(v) = (r - 1) / S(v) * (r - 1) / (n - 1), r the number of nodes
 *   reachable from v (v included), S(v) the sum of their distances from v.
 *   Isolated nodes (r = 1) and n = 1 give 0; floating-point operations in
 *   networkx's order.
 *
 * Subgraph centrality (networkx subgraph_centrality; Estrada and
 * Rodriguez-Velazquez 2005):
 *   SC(w) = (e^A)_ww = sum_j v_j(w)^2 e^{lambda_j}, over the eigenpairs
 *   of the adjacency matrix of w's component, computed as
 *   exp(lambda_max) * sum_j v_j(w)^2 e^{lambda_j - lambda_max} so that no
 *   term overflows.  SC(w) >= 1 always (isolated node: exactly 1).  When
 *   SC(w) > DBL_MAX (lambda_max above about 709.78), subgraph[w] is DBL_MAX
 *   and out->subgraph_clamped counts such nodes; subgraph_log[w] =
 *   lambda_max + log(sum ...) is finite whatever lambda_max and keeps the
 *   order of the nodes, so rankings should use it.  (networkx returns inf.)
 *   Exact components: LAPACK dsyevd (divide and conquer, all eigenpairs).
 *
 * Estimators past exact_max nodes (out->approx says which were used):
 *   Betweenness and closeness: each connected component c of size n_c gets
 *   k_c = min(n_c, max(2, round(samples * n_c / n))) sources drawn without
 *   replacement (seeded by opts.seed), or all n_c when n_c <= 64; a
 *   component with k_c = n_c is exact.
 *   Betweenness: sum over the sampled sources of the dependency delta_s(v)
 *   times n_c / k_c (unbiased, as networkx's betweenness_centrality(k=...)
 *   estimator but per component), then the exact normalisation.
 *   Closeness: for a sampled node its exact value (its own BFS); for the
 *   others the distance sum S(v) is estimated by (n_c - 1) / k_c times the
 *   sum of its distances to the k_c sources (unbiased for S(v); Eppstein
 *   and Wang 2004), then the formula above.
 *   Subgraph centrality of a component larger than exact_max: its eig_pairs
 *   leading eigenpairs (ARPACK, largest algebraic) give
 *   sum_{j <= k} v_j(w)^2 e^{lambda_j}, and the rest of the spectral measure
 *   of node w (weight r = 1 - sum v_j(w)^2, first moment
 *   -sum v_j(w)^2 lambda_j since A_ww = 0, second moment
 *   deg(w) - sum v_j(w)^2 lambda_j^2 since (A^2)_ww = deg(w)) is replaced
 *   by the two-point rule with the same three moments, mean mu and standard
 *   deviation s: r e^mu cosh(s).  Exact for isolated nodes and single
 *   edges.  Accuracy depends on the graph: measured with 32 pairs, under
 *   0.2% on every node of DCBM graphs of 500 and 2000 nodes, but up to
 *   ~70% on peripheral nodes of the full Cora graph (median ~8%, rank
 *   correlation 0.99), where much of a node's spectral weight lies in the
 *   bulk of the spectrum.  Raise eig_pairs (or exact_max) when it matters.
 *
 * Determinism: sources are split into B fixed blocks (B depends on n
 * only), each block is summed in source order into its own accumulator and
 * the blocks are added in block order, so the result does not depend on the
 * thread count or on scheduling.  Jobs under 2e6 node and arc visits run on
 * the calling thread (waking a team costs more than it saves).
 *
 * Time complexity: betweenness and closeness O(n m) exact, O(k m)
 * sampled (k = samples); eigenvector and subgraph O(sum n_c^3) over exact
 * components (dsyevd), O(n_c p^2 + iterations * (m_c p)) for ARPACK with p
 * Lanczos vectors; eigenvector alone O(iterations * m) per component
 * visited.  Memory: O(n B) for the block accumulators (B <= 64, B n <= 2^23
 * doubles unless n > 2^21), O(n + m) per thread (BFS state and DAG),
 * O(n_c^2) (about 3 n_c^2 doubles with dsyevd's workspace) for the largest
 * exact component when subgraph centrality is asked for.
 */
int centrality_compute(const graph *g, const struct cent_opts *opts, cent_out *out,
		       cent_ws *ws, char *msg, size_t msglen);

#endif
