/*
 * graphstat.h - one vector of structural statistics per graph: its size,
 * density and degrees, degree assortativity, clustering, components, the
 * diameter and mean distance of its largest component, and that
 * component's spectral gap.  The graph-level pre-training targets of
 * graphstat(1), and what pipelines/coverage.sh compares between a
 * pre-training corpus and the downstream sets.
 *
 * Ownership: the caller owns the graph, the options, the value array and
 * the optional gstat_ws, which gstat_ws_init() sets up, the calls grow,
 * and gstat_ws_free() releases (NULL is a no-op).
 *
 * Definitions are networkx 3's where networkx has one (named at each
 * statistic below), on a simple undirected graph of n nodes and m edges
 * with degrees d(v).  Where networkx's value is undefined (a division by
 * zero: NaN, or an exception) this file defines it, always as a finite
 * number, so that a statistic can be a training target: every value is
 * finite.  "log" is log1p, ln(1 + x), so that 0 stays 0.
 *
 * The largest component (LCC): the connected component with the most
 * nodes; among equally large ones, the one holding the smallest node id
 * (networkx's max(connected_components(G), key=len) on a graph whose
 * nodes were added in id order).
 *
 * Threads: the breadth-first searches of the path statistics and the
 * triangle count of large graphs run on OpenMP threads; the values do not
 * depend on the thread count (integer sums, maxima, a fixed summation
 * order, the eigensolvers on one thread).
 */
#ifndef GNN_GRAPHSTAT_H
#define GNN_GRAPHSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "centrality.h"
#include "graph.h"
#include "nodefeat.h"

/*
 * The statistics, in their default order (gstat_name[] their column
 * names), with the cost of each on a graph of n nodes and m edges; n_c
 * and m_c are the LCC's nodes and edges.
 *   GSTAT_LOG_NODES        log(1 + n).  O(1).
 *   GSTAT_LOG_EDGES        log(1 + m).  O(1).
 *   GSTAT_DENSITY          networkx density: 2m / (n (n - 1)); 0 when
 *                          n <= 1.  O(1).
 *   GSTAT_LOG_MEAN_DEGREE  log(1 + 2m / n).  O(1).
 *   GSTAT_DEGREE_CV        the degrees' coefficient of variation,
 *                          sqrt(sum (d - dbar)^2 / n) / dbar with dbar =
 *                          2m / n (numpy std / mean, ddof 0); 0 when m =
 *                          0.  O(n).
 *   GSTAT_LOG_MAX_DEGREE   log(1 + max d).  O(n).
 *   GSTAT_ASSORTATIVITY    networkx degree_assortativity_coefficient:
 *                          Pearson's correlation of the degrees at the
 *                          two ends of an edge, over the 2m ordered
 *                          pairs (u, v) of an edge; computed centred,
 *                          mu = sum d^2 / 2m, r = sum_(u,v) (d(u) - mu)
 *                          (d(v) - mu) / sum_v d(v) (d(v) - mu)^2.
 *                          Undefined where every edge joins nodes of one
 *                          degree (regular graphs: networkx gives NaN)
 *                          and where m = 0: written 0, and flagged
 *                          (gstat_info.undefined).  O(n + m).
 *   GSTAT_TRANSITIVITY     networkx transitivity: 3 triangles / connected
 *                          triples, sum_v 2T(v) / sum_v d(d - 1) with
 *                          T(v) the triangles through v; 0 when there is
 *                          no triangle.  O(m^1.5) (the triangle count of
 *                          nodefeat.h).
 *   GSTAT_CLUSTERING       networkx average_clustering: the mean over
 *                          all n nodes of 2T(v) / (d (d - 1)), 0 for a
 *                          node of degree < 2, summed in node order.
 *                          With transitivity's triangles.
 *   GSTAT_LOG_COMPONENTS   log(1 + networkx number_connected_components).
 *                          O(n + m).
 *   GSTAT_LCC_SHARE        n_c / n.  With the components.
 *   GSTAT_LOG_DIAMETER     log(1 + networkx diameter of the LCC), 0 for a
 *                          one-node LCC.  Exact on an LCC of at most
 *                          exact_max nodes: a breadth-first search from
 *                          every node, O(n_c m_c).  Larger: a lower
 *                          bound, the largest eccentricity found by the
 *                          searches from the sampled sources (below) and
 *                          a chain of sweeps, each from the node farthest
 *                          from the last one's source, while the bound
 *                          grows (at most GSTAT_SWEEPS): O((k + sweeps)
 *                          m_c).
 *   GSTAT_LOG_MEAN_PATH    log(1 + networkx average_shortest_path_length
 *                          of the LCC), the mean distance over its
 *                          n_c (n_c - 1) ordered pairs, 0 for a one-node
 *                          LCC.  Exact as the diameter is; larger, an
 *                          unbiased estimate from k = samples sources
 *                          drawn without replacement from the LCC: sum of
 *                          their distances to the other nodes / (k (n_c -
 *                          1)), with its standard error in
 *                          gstat_info.mean_path_se.  With the diameter's
 *                          searches.
 *   GSTAT_SPECTRAL_GAP     lambda_2, the second-smallest eigenvalue of the
 *                          LCC's normalized Laplacian I - D^-1/2 A D^-1/2
 *                          (networkx normalized_laplacian_spectrum of the
 *                          LCC, sorted, [1]), in (0, 2] on a connected
 *                          component of 2+ nodes; 0 for a one-node LCC,
 *                          flagged undefined.  1 minus the second-largest
 *                          eigenvalue of D^-1/2 A D^-1/2, by
 *                          cent_top_eigenvalues (centrality.h): LAPACK
 *                          dsyevd up to dense_max nodes, O(n_c^3); ARPACK
 *                          Lanczos above, to relative residual
 *                          GSTAT_LANCZOS_TOL, O(r m_c) for r restarts.
 * A graph of no nodes gets 0 everywhere.
 */
enum {
	GSTAT_LOG_NODES,
	GSTAT_LOG_EDGES,
	GSTAT_DENSITY,
	GSTAT_LOG_MEAN_DEGREE,
	GSTAT_DEGREE_CV,
	GSTAT_LOG_MAX_DEGREE,
	GSTAT_ASSORTATIVITY,
	GSTAT_TRANSITIVITY,
	GSTAT_CLUSTERING,
	GSTAT_LOG_COMPONENTS,
	GSTAT_LCC_SHARE,
	GSTAT_LOG_DIAMETER,
	GSTAT_LOG_MEAN_PATH,
	GSTAT_SPECTRAL_GAP,
	GSTAT_N
};

extern const char *const gstat_name[GSTAT_N];

#define GSTAT_EXACT_MAX 5000 /* default of gstat_opts.exact_max */
#define GSTAT_SAMPLES 256    /* default of gstat_opts.samples */
#define GSTAT_DENSE_MAX 1000 /* default of gstat_opts.dense_max */
#define GSTAT_SWEEPS 8	     /* most sweeps of the diameter's lower bound */
#define GSTAT_LANCZOS_TOL 1e-12

struct gstat_opts {
	unsigned want;	   /* bits 1 << GSTAT_x of the statistics to compute */
	int32_t exact_max; /* path statistics exact on an LCC of at most this */
	int32_t samples;   /* sources of the estimates past it (>= 2) */
	int32_t dense_max; /* spectral gap: dense solver up to this many nodes */
	uint64_t seed;	   /* the sampled sources: derive it per graph
			    * (rng_mix(seed, graph id)); the gap's Lanczos
			    * start vector is the same for every seed */
};

/* What a call did beside the values. */
struct gstat_info {
	int32_t lcc_nodes;   /* n_c */
	int paths_sampled;   /* the path statistics were estimated */
	int32_t sources;     /* searches from sampled sources (paths_sampled) */
	int sweeps;	     /* sweeps of the diameter's lower bound */
	double mean_path_se; /* standard error of the mean distance estimate,
			      * on its own scale (not log); 0 when exact */
	unsigned undefined;  /* bits 1 << GSTAT_x of values undefined in
			      * networkx, written 0 (assortativity, gap) */
};

/* Reusable scratch. */
typedef struct gstat_ws {
	int32_t *i32;		 /* components, sources, searches */
	int64_t *i64;		 /* triangles, the sources' distance sums */
	size_t cap_i32, cap_i64; /* allocated elements */
	features_ws fws;	 /* the triangle count */
	cent_ws cws;		 /* the eigensolvers */
} gstat_ws;

void gstat_ws_init(gstat_ws *ws);
void gstat_ws_free(gstat_ws *ws);

/* Defaults: every statistic, exact_max GSTAT_EXACT_MAX, samples
 * GSTAT_SAMPLES, dense_max GSTAT_DENSE_MAX, seed 0. */
void gstat_opts_init(struct gstat_opts *o);

/*
 * The statistics of g wanted by o->want into val[GSTAT_x] (val: GSTAT_N
 * doubles; those not wanted are left alone), and info.  o NULL: the
 * defaults; ws NULL: scratch allocated and freed inside the call.
 * Returns 0, or -1 with a one-line reason in msg (an eigensolver that
 * failed).  Definitions, edge cases and costs: above.
 * Time complexity: O(n + m) for the sizes, degrees, assortativity and
 * components; O(m^1.5) with the clustering; O(n_c m_c) exact paths
 * (n_c <= exact_max), O((samples + GSTAT_SWEEPS) m_c) sampled;
 * O(min(n_c, dense_max)^3) or Lanczos for the gap.
 */
int gstat_compute(const graph *g, const struct gstat_opts *o, double *val, struct gstat_info *info,
		  gstat_ws *ws, char *msg, size_t msglen);

/*
 * The bytes gstat_compute() holds at most on a graph of n nodes and m
 * edges on threads threads, its workspace and the caller's graph not
 * counted, whatever the shape of its components (the LCC taken as the
 * whole graph), for memory checks before the graph is built.
 * Time complexity: O(1).
 */
double gstat_bytes(int32_t n, int64_t m, const struct gstat_opts *o, int threads);

/*
 * The index of the statistic named s (len bytes, not NUL-terminated), or
 * -1.  Time complexity: O(GSTAT_N).
 */
int gstat_index(const char *s, size_t len);

#endif
