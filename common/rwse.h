/*
 * rwse.h - random-walk structural encoding (RWSE): for every node v the
 * probability that a simple random walk started at v is back at v after
 * k steps, p_k(v) = [(D^-1 A)^k]_vv for k = 1..K (Dwivedi et al. 2022,
 * "Graph Neural Networks with Learnable Structural and Positional
 * Representations"; the RWSE of GraphGPS).  A second feature set beside
 * the paper's four (nodefeat.h): `nodefeat --set rwse`.
 *
 * Ownership: the caller owns the graph, the options, the output array and
 * the optional rwse_ws, which rwse_ws_init() sets up, the calls grow, and
 * rwse_ws_free() releases (NULL is a no-op).  ws = NULL makes a call
 * allocate and free its own scratch.  A workspace serves one call at a
 * time: threads computing graphs side by side need one each.
 *
 * Exact and estimated.  The walk never leaves the connected component of
 * its start, so the choice is made per component: components of at most
 * opts.exact_max nodes get exact values (up to rounding: every term of
 * every sum is >= 0, so the relative error is a small multiple of the
 * double epsilon), the nodes of larger components get Monte-Carlo
 * estimates whose error is bounded with a stated probability (see
 * rwse_compute).  info says which.
 *
 * Threads: OpenMP threads over blocks of start nodes (exact) and over
 * start nodes (estimates); called inside a parallel region (nested
 * parallelism off) it runs on the calling thread.  Results do not depend
 * on the thread count: a block's sums are taken by one thread in a fixed
 * order, and every estimated node draws from its own random stream,
 * seeded from (opts.seed, node).
 */
#ifndef GNN_RWSE_H
#define GNN_RWSE_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define RWSE_STEPS 16	     /* default K */
#define RWSE_STEPS_MAX 64    /* largest K */
#define RWSE_EXACT_MAX 20000 /* default opts.exact_max (nodes of a component) */
#define RWSE_ERROR 0.05	     /* default opts.error */
#define RWSE_DELTA 0.01	     /* default opts.delta */

struct rwse_opts {
	int32_t steps; /* K, 1 .. RWSE_STEPS_MAX */
	/* Components of at most this many nodes are exact (0: every
	 * component with an edge is estimated). */
	int32_t exact_max;
	/* Estimates: each value is within error of the exact one with
	 * probability at least 1 - delta; error in (0, 1), delta in (0, 1).
	 * They set the number of walks of each node (see rwse_compute). */
	double error, delta;
	/* Seeds the walks.  Derive it per graph (rng_mix(seed, graph id)) so
	 * that graphs do not share walks. */
	uint64_t seed;
	/* Progress, or NULL: the nodes whose values are done (exact blocks
	 * and walk groups) of the nodes with an edge, called on the calling
	 * thread only, after each block or group it finished itself and once
	 * at the end (done = total).  It cannot change the results. */
	void (*on_progress)(void *arg, int64_t done, int64_t total);
	void *progress_arg;
};

/* What a call did.  Filled by rwse_compute. */
typedef struct rwse_info {
	int32_t estimated;   /* nodes with estimated values (0: all exact) */
	int32_t components;  /* connected components estimated */
	int64_t walks;	     /* the most walks a node may take,
				 * rwse_walks(error, delta); 0 if none */
	int64_t walks_total; /* walks taken, over all estimated nodes */
	double error;	     /* achieved bound per value (<= opts.error),
				 * the largest over the estimated nodes; 0 if none */
	double error_all;    /* bound that holds for all estimated values of
				 * the graph at once, with probability >= 1 - delta
				 * (union bound); 0 if none */
} rwse_info;

/* Opaque reusable scratch (buffers grow as needed, never shrink). */
#define RWSE_WS_NBUF 16
typedef struct rwse_ws {
	void *buf[RWSE_WS_NBUF];
	size_t cap[RWSE_WS_NBUF]; /* bytes allocated at buf[i] */
} rwse_ws;

void rwse_ws_init(rwse_ws *ws);
void rwse_ws_free(rwse_ws *ws);

/* Defaults: steps RWSE_STEPS, exact_max RWSE_EXACT_MAX, error RWSE_ERROR,
 * delta RWSE_DELTA, seed 0, no progress hook. */
void rwse_opts_init(struct rwse_opts *o);

/*
 * The most walks a node takes for a Hoeffding bound of error with
 * probability 1 - delta: R = ceil(ln(2 / delta) / (2 error^2)), the walks
 * of a node whose samples range over [0, 1].  error, delta in (0, 1).
 * Time complexity: O(1).
 */
int64_t rwse_walks(double error, double delta);

/*
 * The tensor column names "rw1,rw2,...,rwK" into buf (at most len bytes,
 * NUL included; 6 * RWSE_STEPS_MAX is always enough).
 */
void rwse_columns(int32_t steps, char *buf, size_t len);

/*
 * Return probabilities of every node, out: (n, K) row-major, K =
 * opts->steps; column k - 1 holds
 *   p_k(v) = [(D^-1 A)^k]_vv,
 * the probability that a walk from v that moves to a uniformly chosen
 * neighbour at every step is at v after k steps.  p_1 = 0 (no self-loops);
 * p_2(v) = (1/deg v) sum_{u in N(v)} 1/deg u; odd k give 0 on a bipartite
 * graph.  opts NULL means the defaults; info may be NULL.  K = 1 is all
 * zeros, exact whatever the size.
 *
 * Edge cases: an isolated node has 0 in every column.  D^-1 is taken as the
 * pseudo-inverse (0 for a node of degree 0), so its row of D^-1 A is 0: a
 * walk that cannot start never returns.  That is PyTorch Geometric's
 * AddRandomWalkPE, the common RWSE, and keeps "isolated" apart from
 * "always back" (a lazy walk's 1).  n = 0 writes nothing.
 *
 * Exact values (components of at most exact_max nodes).  With W_j = P^j e_v
 * (column v of P^j, P = D^-1 A) and reversibility, d_v P^j(v,u) =
 * d_u P^j(u,v):
 *   p_2j(v)   = (1/d_v) sum_u d_u W_j(u)^2,
 *   p_2j+1(v) = (1/d_v) sum_u d_u W_j(u) W_j+1(u),
 * so ceil(K/2) products W_j+1 = D^-1 (A W_j) give all K values (the sparse
 * matrix times a dense block; the symmetric S = D^-1/2 A D^-1/2 in
 * disguise).  They run on blocks of 32 start nodes (a dense (rows, 32)
 * block, rows limited to the block's components), each product an add of
 * neighbour rows and one division per row, restricted to the nodes within
 * j steps of the block: start nodes are taken in BFS order, so a block's
 * balls overlap, and sparse graphs do little work on the first steps.
 * Every term is >= 0: no cancellation, a relative error of a few units
 * of the double epsilon (measured against numpy: about 2e-15).
 * Time complexity: O(ceil(K/2) * sum over exact components c of n_c m_c),
 * less where the balls of radius < K/2 are small.  Memory: O(n + m) for
 * the components in BFS order, and per thread 2 * 32 doubles and 2 int32
 * per row of the largest block.
 *
 * Estimates (nodes of components larger than exact_max).  Walks start at
 * v; X(i) is where one is after i steps.  The estimate of p_k(v), k >= 2,
 * is the mean over R_v walks of
 *   [X(k-1) in N(v)] / deg X(k-1),
 * the exact probability that step k goes back to v, given where the walk
 * is after k - 1 steps (Rao-Blackwellised: its variance is at most that of
 * counting the walks that are back at v).  p_1 = 0 exactly.  Each term
 * lies in [0, c_v], c_v = 1 / (the smallest degree among v's neighbours),
 * and has mean p_k(v); walks are independent, so Hoeffding's inequality
 * gives, for each single value (node v, step k),
 *   P(|estimate - p_k(v)| > eps) <= 2 exp(-2 R_v eps^2 / c_v^2),
 * and R_v = ceil(c_v^2 ln(2 / delta) / (2 error^2)) walks make that at
 * most delta for eps = error.  (A node all of whose neighbours have
 * degree >= 4 needs 16 times fewer walks than one next to a leaf.)
 * info->error is the largest c_v sqrt(ln(2 / delta) / (2 R_v)) (<= error;
 * equal but for the rounding up of R_v).  For every estimated value of the
 * graph at once (N nodes, K - 1 steps each) the union bound gives
 * info->error_all, the same with delta / (N (K - 1)) for delta.  These are
 * guarantees, not typical errors.  Measured on a DCBM graph of 20,000
 * nodes (mean degree 10, error 0.05, delta 0.01): rms error 0.003, the
 * largest 0.056 (2 of 320,000 values past 0.05, error_all 0.092).  The
 * errors are absolute: for large k, where p_k(v) is near deg v / 2m, an
 * error bound of 0.05 exceeds the values themselves.
 * Node v draws from its own stream, GSL's taus2 seeded by
 * rng_mix(opts.seed, v), in the order of its walks; the walks of up to 32
 * consecutive nodes (1024 walks at most) run in lockstep, so that their
 * cache misses overlap, and a node's values do not depend on its group.
 * Time complexity: O(sum_v R_v K); memory 4n bytes per thread (neighbour
 * marks) and 8 bytes per estimated node beyond the components.
 *
 * Returns 0, or -1 (nothing written) when the options are out of range.
 */
int rwse_compute(const graph *g, const struct rwse_opts *opts, double *out, rwse_info *info,
		 rwse_ws *ws);

#endif
