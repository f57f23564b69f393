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
 * closeness of the components larger than exact_max are estimated from
 * sampled sources, as many as the requested errors need, and subgraph
 * centrality of those components from their leading eigenpairs; the
 * estimators and the error bounds they come with are described at
 * centrality_compute().  out->approx says which quantities were estimated
 * and out->*_bound how well, so a tool can say so.  Eigenvector centrality
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
enum { CENT_EIGENVECTOR = 1, CENT_BETWEENNESS = 2, CENT_CLOSENESS = 4, CENT_SUBGRAPH = 8 };

/* Phases of cent_opts.on_progress. */
enum { CENT_P_SOURCES, CENT_P_COMPONENTS, CENT_P_LANCZOS };

/* Column names in the usual order, for tensor records and TSV headers. */
#define CENT_COLUMNS "eigenvector,betweenness,closeness,subgraph"

#define CENT_EXACT_MAX 2000 /* default of cent_opts.exact_max */
#define CENT_SAMPLES 0	    /* default of cent_opts.samples: from the error */
#define CENT_ERROR 0.1	    /* default of cent_opts.bc_error */
#define CENT_CL_ERROR 0.2   /* default of cent_opts.cl_error */
#define CENT_DELTA 0.1	    /* default of cent_opts.delta */
#define CENT_EIG_PAIRS 32   /* default of cent_opts.eig_pairs */

struct cent_opts {
	/* Exact algorithms for graphs (all four) and connected components
	 * (betweenness, closeness, subgraph) of at most this many nodes. */
	int32_t exact_max;
	/* Past exact_max, betweenness and closeness of the larger components
	 * come from sampled BFS sources (centrality_compute, "Estimators"):
	 * as many as the errors below ask for when samples is 0, else this
	 * many (a fixed budget, whose achieved bounds are still reported). */
	int32_t samples;
	/* Requested bounds, each holding with probability >= 1 - delta:
	 * additive on normalised betweenness, relative on closeness.  A
	 * quantity not asked for (NULL array) does not drive the sampling. */
	double bc_error, cl_error, delta;
	/* Past exact_max: leading eigenpairs for subgraph centrality. */
	int32_t eig_pairs;
	/* Seeds the choice of sampled sources and the Lanczos start vectors.
	 * Derive it per graph (rng_mix(seed, graph id)) so that graphs do not
	 * share samples. */
	uint64_t seed;
	/* Progress, or NULL: called only ever on the calling thread, with
	 * the phase (CENT_P_*) and its count done of the total so far, at
	 * most every few tens of milliseconds of work and once at the end of
	 * the phase (done = total).  It cannot change the results.  Phases:
	 *   CENT_P_SOURCES     BFS sources searched of those planned (the
	 *                      total grows when the sampling decides it needs
	 *                      more sources);
	 *   CENT_P_COMPONENTS  components through the eigensolvers, of all
	 *                      components (isolated nodes included);
	 *   CENT_P_LANCZOS     restarts of one Lanczos run (a component past
	 *                      exact_max, or one whose eigenvector alone is
	 *                      wanted), of the restarts its convergence so far
	 *                      predicts (0: no prediction yet): the residual of
	 *                      the worst wanted Ritz pair falls about
	 *                      geometrically, so restarts to the tolerance =
	 *                      restarts so far times log(first / tolerance) /
	 *                      log(first / now). */
	void (*on_progress)(void *arg, int phase, int64_t done, int64_t total);
	void *progress_arg;
};

/* Results.  The caller sets the array pointers; the callee sets the rest. */
typedef struct cent_out {
	double *eigenvector;  /* (n) or NULL */
	double *betweenness;  /* (n) or NULL */
	double *closeness;    /* (n) or NULL */
	double *subgraph;     /* (n) or NULL; values past DBL_MAX are clamped */
	double *subgraph_log; /* (n) or NULL; natural log of subgraph centrality */

	int approx;		  /* out: CENT_* bits of the estimated quantities */
	int64_t subgraph_clamped; /* out: nodes whose subgraph centrality
					 * exceeds DBL_MAX (written as DBL_MAX) */
	double lambda_max;	  /* out: largest adjacency eigenvalue, when a
				 * spectral quantity was asked for; else 0 */
	int64_t sources;	  /* out: BFS runs in all (n when exact) */
	/* The estimates' error statements (0 when nothing was estimated): */
	int64_t sampled;	/* out: of the sources, those drawn at random
				 * (with replacement) in estimated components */
	int32_t sampled_comps;	/* out: components estimated from them */
	int32_t exact_comps;	/* out: components of 2+ nodes computed exactly */
	int32_t switched_comps; /* out: of those, components past exact_max whose
				 * draws would have passed a third of their nodes */
	double bc_bound;	/* out: |estimate - betweenness| <= bc_bound on every
				 * node, with probability >= 1 - delta */
	double cl_bound;	/* out: |estimate - closeness| <= cl_bound * closeness
				 * on every node, with probability >= 1 - delta */
	double sc_bound;	/* out: |estimate - subgraph| <= sc_bound * subgraph
				 * on every node (no probability: see the doc) */
} cent_out;

/* Opaque reusable scratch: buffers grow as needed, and those above 1 MiB
 * are freed as the phase that used them ends (cent_search_bytes). */
#define CENT_WS_NBUF 48
typedef struct cent_ws {
	void *buf[CENT_WS_NBUF];
	size_t cap[CENT_WS_NBUF]; /* bytes allocated at buf[i] */
} cent_ws;

void cent_ws_init(cent_ws *ws);
void cent_ws_free(cent_ws *ws);

/* Defaults: exact_max CENT_EXACT_MAX, samples CENT_SAMPLES, bc_error
 * CENT_ERROR, cl_error CENT_CL_ERROR, delta CENT_DELTA, eig_pairs
 * CENT_EIG_PAIRS, seed 0, no progress hook. */
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
 * Estimators past exact_max nodes (out->approx says which were used, and
 * out->bc_bound, cl_bound and sc_bound how well):
 *   Betweenness and closeness.  A component of at most max(exact_max, 64)
 *   nodes is searched from every node: exact.  In a larger component c
 *   (n_c nodes) k_c sources s_1 .. s_k are drawn uniformly with replacement
 *   (seeded by opts.seed).  Betweenness, with the linear scaling of
 *   Geisberger, Sanders and Schultes (2008): b^(v) = (n_c / k_c) sum_i
 *   2 dt_{s_i}(v) / ((n - 1)(n - 2)), where dt_s(v) = sum over targets t of
 *   sigma_st(v) / sigma_st * d(s, v) / d(s, t), computed in the dependency
 *   pass as dt_s(v) = d(s, v) g(v), g(v) = sum over successors w of
 *   sigma_sv / sigma_sw (1 / d(s, w) + g(w)).  Unbiased: a pair s-t counts
 *   from s with weight d(s, v) / d(s, t) and from t with d(t, v) / d(s, t),
 *   which add up to 1.  Brandes and Pich's plain estimator (the same
 *   without the scaling) is unbiased too, but a node next to a leaf gets
 *   half its betweenness from the one search that starts at the leaf,
 *   which most samples miss: on a 10^5-node DCBM graph at 1,800 sources
 *   its median relative error was 50%, the scaled one's 27% (Cora at 600
 *   sources: 37% and 14%).  An estimate past the most a node of c can
 *   have, (n_c - 1)(n_c - 2) / ((n - 1)(n - 2)), is set to it: a star's
 *   centre, which every leaf source credits with n_c - 2, would get n_c /
 *   (n_c - 1) when no draw is the centre.  The true value is within that
 *   range, so the clamp only brings an estimate closer and the bounds
 *   below still hold.  Closeness: a node that was drawn gets its
 *   exact value (its own search); for the others S(v) is estimated by
 *   (n_c - 1) / k_c times the sum of the distances to the sources
 *   (unbiased for S(v); Eppstein and Wang 2004), then the formula above.
 *   The bounds.  X_i = dt_{s_i}(v) / (n_c - 2) lies in [0, 1] (dt_s(v) <=
 *   delta_s(v) <= n_c - 2) and b(v) = 2 alpha_c E X with alpha_c =
 *   n_c (n_c - 2) / ((n - 1)(n - 2)).  The empirical Bernstein bound
 *   (Maurer and Pontil 2009, Theorem 4), applied to X and to 1 - X with
 *   failure probability delta' each, gives |mean X - E X| <= sqrt(2 V L /
 *   k) + 7 L / (3 (k - 1)), L = ln(2 / delta'), V the unbiased sample
 *   variance; with delta' = delta / (2 N), N the nodes of the sampled
 *   components, a union bound covers every node and both sides.  bc_bound
 *   is the largest 2 alpha_c times that width: with probability at least
 *   1 - delta, |b^(v) - b(v)| <= bc_bound on every node at once.
 *   Closeness: for a node v never drawn, the distances d(s_i, v)
 *   are i.i.d. uniform over the other nodes of c (given that v was not
 *   drawn) and lie in [1, R] for any R >= ecc(v); R is the least of
 *   ecc(r) + d(r, v) over two fixed roots r (c's first node and the last
 *   node its search reaches) and over the sources (the bound grows with R,
 *   so a bound on ecc(v) taken from the sample is as good as the true
 *   value).  The same bound on (d - 1) / (R - 1) gives the error eta of the
 *   mean distance d^, and |c^(v) - c(v)| / c(v) = |d^ - d| / d^ <= eta / d^;
 *   cl_bound, the largest over those nodes, holds on every node at once
 *   with probability at least 1 - delta (drawn nodes are exact).  Each of
 *   the two statements holds with that probability on its own.
 *   How many sources.  samples > 0: a fixed budget, spread over the sampled
 *   components in proportion to their sizes (largest remainders, at least
 *   2 each) and checked once with delta' = delta / (2 N).  samples = 0: the
 *   sampling checks the bounds at K_1 < K_2 < ... draws over the graph,
 *   K_j = ceil(K_1 1.25^(j - 1)) (component c takes max(2, ceil(K_j n_c /
 *   N)) of them), check j with delta_j = delta / (j (j + 1)) in place of
 *   delta: these add up to delta, so the bounds hold at whichever check the
 *   sampling stops.  K_1 puts the range terms (2 alpha_c 7 L / (3 (k - 1))
 *   for betweenness, 7 L / (3 (k - 1)) for closeness) at two thirds of
 *   the requested errors; after a check that fails, the sample variances
 *   predict the draws needed and the sampling goes on to the first check
 *   of the schedule past them.  It stops when bc_bound <= bc_error and
 *   cl_bound <= cl_error (for the quantities asked for).  A component whose
 *   draws would pass n_c / 3 is searched from every node instead (its values
 *   exact, its bound 0), so the searches never cost much more than exact
 *   ones.
 *   What is not guaranteed.  The betweenness bound is additive on
 *   normalised values: a node whose betweenness is small next to bc_bound
 *   (most nodes of a large graph: the mean is about (average distance - 1)
 *   / n) gets no useful relative statement, and an estimate of 0 is not a
 *   proof of 0.  The draws are pseudo-random numbers taken as random, and
 *   rounding is ignored.
 *   Subgraph centrality of a component larger than exact_max: its eig_pairs
 *   leading eigenpairs (ARPACK, largest algebraic) give
 *   sum_{j <= k} v_j(w)^2 e^{lambda_j}, and the rest of the spectral measure
 *   of node w (weight r = 1 - sum v_j(w)^2, first moment
 *   -sum v_j(w)^2 lambda_j since A_ww = 0, second moment
 *   deg(w) - sum v_j(w)^2 lambda_j^2 since (A^2)_ww = deg(w)) is replaced
 *   by the two-point rule with the same three moments, mean mu and standard
 *   deviation s: r e^mu cosh(s).  Exact for isolated nodes and single
 *   edges.  The bound: the eigenvalues not computed lie in [-lambda_max,
 *   lambda_k] (no adjacency eigenvalue is below -lambda_max).  Since exp
 *   has a positive third derivative, among distributions on that interval
 *   with mean mu and variance s^2 the expectation of e^x is largest on the
 *   two points {mu - s^2 / (lambda_k - mu), lambda_k} and smallest on
 *   {-lambda_max, mu + s^2 / (mu + lambda_max)} (a quadratic that meets
 *   e^x at the two points, tangent at the inner one, stays above, resp.
 *   below, e^x on the interval), so SC(w) lies in [lo(w), hi(w)] and
 *   sc_bound = max over nodes of the relative distance from the estimate to
 *   the farther end, max(|est - lo| / lo, |est - hi| / hi).  No probability
 *   is involved; it holds up to the eigensolver's tolerance (residuals
 *   1e-10) and rounding.  Accuracy depends on the graph: measured with 32
 *   pairs, under 0.2% on every node of DCBM graphs of 500 and 2000 nodes,
 *   but up to ~70% on peripheral nodes of the full Cora graph (median ~7%,
 *   rank correlation 0.99, sc_bound 4.7), where much of a node's spectral
 *   weight lies in the bulk of the spectrum.  Raise eig_pairs (or
 *   exact_max) when it matters.
 *
 * Determinism: the sources, in the order they are searched (over all the
 * checks), go round-robin to B fixed blocks (B depends on n only), each
 * block is summed in source order into its own accumulator and the blocks
 * are added in block order, so the result does not depend on the thread
 * count or on scheduling; distance sums are integers, and the bounds are
 * maxima.  Searches under 2e6 node and arc visits run on the calling
 * thread (waking a team costs more than it saves).
 *
 * Time complexity: betweenness and closeness O(n m) exact, O(K m)
 * sampled, K the sources searched (out->sources); eigenvector and
 * subgraph O(sum n_c^3) over exact components (dsyevd),
 * O(n_c p^2 + iterations * (m_c p)) for ARPACK with p Lanczos vectors;
 * eigenvector alone O(iterations * m) per component visited.  Memory:
 * O(n B) for the block accumulators (B <= 64, B n <= 2^23 doubles unless
 * n > 2^21; twice that when sampling, for the squares), O(n + m) per
 * thread (BFS state and DAG; and 20 bytes a node for the closeness sums
 * when sampling), O(n_c^2) (about 3 n_c^2 doubles with dsyevd's
 * workspace) for the largest exact component when subgraph centrality is
 * asked for.
 */
int centrality_compute(const graph *g, const struct cent_opts *opts, cent_out *out, cent_ws *ws,
		       char *msg, size_t msglen);

/*
 * The workspace centrality_compute() fills on g with options o and the
 * results wanted as in want (which of its arrays are non-NULL), on threads
 * OpenMP threads, in bytes, for memory checks.  The call has two phases,
 * and frees the buffers of one above 1 MiB before the next and all of them
 * at its end, so it holds at most the larger of:
 *   *search    the searches, while betweenness and closeness are written:
 *              16 n for the components, about n + 9 per component + 16
 *              per node of the components of two or more, 8 n B for the
 *              betweenness accumulators (B <= 64 blocks, B n <= 2^23 unless
 *              B = 4; twice that when a component is sampled), and a
 *              thread 16 n + 12 n_c + 4 m_c for its BFS state (n_c, m_c:
 *              the largest component's nodes, the most edges of one), and
 *              24 n + 20 n a thread for the closeness sums when a
 *              component is sampled;
 *   *spectral  the eigensolvers, while eigenvector and subgraph are
 *              written: the components, 24 bytes a component, about 24
 *              n_c^2 for the dense solver of the largest exact component,
 *              and 8 n_c (ncv + 6) + 4 arcs for the Lanczos run of the
 *              largest other one, ncv = max(2 k + 1, k + 20) for k =
 *              eig_pairs (65 at 32: 568 bytes a node).
 * g and the result arrays are the caller's and not counted.  This counts
 * the pages written: a buffer sized for the worst case that the graph does
 * not fill costs address space, not memory.  Finds the components, in ws
 * (centrality_compute finds them again).  Time complexity: O(n + m).
 */
void cent_ws_bytes(const graph *g, const struct cent_opts *o, const cent_out *want, int threads,
		   cent_ws *ws, double *search, double *spectral);

/*
 * The k algebraically largest eigenvalues, descending, of a connected
 * component's adjacency matrix A (normalized 0) or of D^-1/2 A D^-1/2
 * (normalized 1: one minus them are the k smallest eigenvalues of the
 * normalized Laplacian I - D^-1/2 A D^-1/2, networkx
 * normalized_laplacian_matrix), by the eigensolvers of
 * centrality_compute: LAPACK dsyevd (eigenvalues only, on one BLAS
 * thread) for components of at most max(o->exact_max, 64) nodes, else
 * ARPACK's implicitly restarted Lanczos method to relative residual tol
 * (0: machine precision; an eigenvalue is then within tol |value| of the
 * true one, and in practice within about tol^2) from a start vector
 * seeded by o->seed, its restarts told to o->on_progress
 * (CENT_P_LANCZOS).  The other fields of o are not used.
 * nodes: the component's nc >= 2 nodes, every neighbour of one of them
 * among them (a connected component, so no degree is 0; anything else
 * gives wrong values).  1 <= k <= nc (dense), k <= nc - 2 (Lanczos).
 * d: k values.  Returns 0, or -1 with a one-line reason in msg (k out of
 * range, a solver failed).  Deterministic: the same values for every
 * thread count.
 * Time complexity: O(nc^3) dense; Lanczos O(r (p m_c + p^2 nc)), r
 * restarts, p = max(2k + 1, k + 20) Lanczos vectors, m_c the
 * component's edges.  Memory: cent_top_eigenvalues_bytes(), for a graph
 * of n nodes and a component of nc nodes and arcs = 2 m_c arcs.
 */
int cent_top_eigenvalues(const graph *g, const int32_t *nodes, int32_t nc, int normalized, int k,
			 double tol, const struct cent_opts *o, double *d, cent_ws *ws, char *msg,
			 size_t msglen);
double cent_top_eigenvalues_bytes(int32_t n, int32_t nc, int64_t arcs, int k,
				  const struct cent_opts *o);

/*
 * The building blocks of the sampled estimates' bounds (centrality_compute,
 * "The bounds" and "How many sources"), public for the tests.
 * cent_eb_width: the two-sided empirical Bernstein half-width for the mean
 *   of k >= 2 draws in [0, 1] with sum s1 and sum of squares s2, at log
 *   term L: sqrt(2 V L / k) + 7 L / (3 (k - 1)), V = (s2 - s1^2 / k) /
 *   (k - 1) (taken as 0 if rounding makes it negative).
 * cent_check_log: L of check j >= 1 over N sampled nodes at failure
 *   probability delta: ln(4 N j (j + 1) / delta) (with a fixed budget the
 *   one check uses ln(4 N / delta)).
 * cent_check_draws: the draws of check j, K_j = ceil(K_1 1.25^(j - 1)).
 * Time complexity: O(1).
 */
double cent_eb_width(double s1, double s2, double k, double L);
double cent_check_log(int64_t nodes, double delta, int j);
int64_t cent_check_draws(int64_t K1, int j);

#endif
