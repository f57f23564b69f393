/*
 * nodefeat.h - the four node features the model sees (paper section 3.1,
 * appendix A.1): degree, core number, 1-hop collective influence CI_1 and
 * the local clustering coefficient, plus their per-graph normalisation.
 *
 * Ownership: the caller owns every output array and the optional
 * features_ws, which nodefeat_ws_init() sets up, the calls grow, and
 * nodefeat_ws_free() releases (NULL is a no-op).
 *
 * Passing ws = NULL makes a call allocate and free its own scratch.  A
 * workspace serves one call at a time: threads working on graphs side by
 * side need one each.  Output sizes are given at each function.
 *
 * Definitions follow networkx 2.8.8 (the paper's tool) on a simple
 * undirected graph (graph.h: no self-loops, no repeated edges), so values
 * are equal to networkx's, not just close: every feature is an integer, a
 * correctly rounded product of two integers (CI_1) or a single correctly
 * rounded division of integers (clustering).
 *
 * (Named nodefeat.h, not features.h: a features.h in an -I directory
 * shadows glibc's <features.h>, which every libc header includes.)
 *
 * Threads: the triangle count (clustering) runs OpenMP threads on graphs
 * with at least FEATURES_PAR_MIN_ARCS arcs; smaller graphs run on the
 * calling thread, so a caller that computes many small graphs side by side
 * (gcn-train, one graph per thread) pays no thread start-up.  Results do
 * not depend on the thread count (integer counts).
 */
#ifndef GNN_NODEFEAT_H
#define GNN_NODEFEAT_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* Columns of the (n, FEAT_N) feature matrices, row-major. */
enum { FEAT_DEGREE = 0, FEAT_CORE, FEAT_CI1, FEAT_CLUSTERING, FEAT_N };

/* Column names in that order, for tensor records and TSV headers. */
#define FEATURES_COLUMNS "degree,core,ci1,clustering"

/* Graphs with fewer arcs (2m) count triangles on the calling thread. */
#define FEATURES_PAR_MIN_ARCS 200000

/* Reusable scratch for repeated calls (gcn-train calls every step). */
typedef struct features_ws {
	int32_t *i32;		 /* integer scratch */
	int64_t *i64;		 /* offsets and triangle counts */
	size_t cap_i32, cap_i64; /* allocated lengths */
	int32_t counted;	 /* nodes of the graph whose counts nodefeat_counts
				 * left here; -1 once the scratch is used again */
	/* Progress of nodefeat_counts, or NULL (nodefeat_ws_init): nodes
	 * through the triangle count, then the core peeling, of 2 n, told on
	 * the calling thread every few thousand nodes and at the end (done ==
	 * total).  The caller sets it; it cannot change the results. */
	void (*on_progress)(void *arg, int64_t done, int64_t total);
	void *progress_arg;
} features_ws;

void nodefeat_ws_init(features_ws *ws);
void nodefeat_ws_free(features_ws *ws);

/*
 * Core number (k-core index) of every node, networkx core_number().
 * Definition: core[v] is the largest k such that v belongs to a subgraph
 * in which every node has degree >= k.
 * Edge cases: isolated nodes have core 0; n = 0 writes nothing.
 * core: (n).  Algorithm: Batagelj and Zaversnik (2003), bucket-sorted
 * peeling of nodes in order of current degree.
 * Time complexity: O(n + m).  Scratch: 2n + maxdeg + 1 int32.
 */
void nodefeat_core_number(const graph *g, int32_t *core, features_ws *ws);

/*
 * Number of triangles through every node, networkx triangles().
 * tri: (n).  Algorithm: orient every edge from the lower to the higher
 * (degree, id) rank, then for each node v and each out-neighbour w count
 * the out-neighbours of w that are also out-neighbours of v (marked).  Each
 * triangle is found once, at its lowest-ranked node, and credited to its
 * three nodes.
 * Time complexity: O(m^1.5) worst case (O(m * degeneracy)).
 * Scratch: n + 1 int64, m int32 and n bytes a thread.
 */
void nodefeat_triangles(const graph *g, int64_t *tri, features_ws *ws);

/*
 * 1-hop collective influence of every node, ci: (n); see FEAT_CI1 below.
 * Time complexity: O(n + m).
 */
void nodefeat_ci1(const graph *g, double *ci);

/*
 * Local clustering coefficient of every node, cc: (n); see FEAT_CLUSTERING
 * below.  Scratch as nodefeat_triangles() plus n int64.
 * Time complexity: O(m^1.5) worst case.
 */
void nodefeat_clustering(const graph *g, double *cc, features_ws *ws);

/*
 * The four raw features, out: (n, FEAT_N) row-major, columns
 *   FEAT_DEGREE      deg(v), the number of neighbours.
 *   FEAT_CORE        core number (see nodefeat_core_number).
 *   FEAT_CI1         1-hop collective influence (Morone and Makse 2015):
 *                    CI_1(v) = (deg(v) - 1) * sum_{u in N(v)} (deg(u) - 1).
 *                    deg(v) = 1 gives 0 (first factor); deg(v) = 0 gives 0
 *                    (empty sum; written as +0, never -0), as the paper's
 *                    own Python loop does.  Exact integer arithmetic while
 *                    the value is below 2^53, then the correctly rounded
 *                    product of two exact factors.
 *   FEAT_CLUSTERING  local clustering coefficient, networkx clustering():
 *                    2 T(v) / (deg(v) (deg(v) - 1)) with T(v) the triangles
 *                    through v; 0 when deg(v) < 2 (and when T(v) = 0).
 * Edge cases: isolated nodes are (0, 0, 0, 0); n = 0 writes nothing.
 * Time complexity: O(n + m^1.5) worst case, O(n + m) for every column but
 * clustering.  nodefeat_counts() then nodefeat_rows().
 */
void nodefeat_raw(const graph *g, double *out, features_ws *ws);

/*
 * The two halves of nodefeat_raw(), for a caller that needs the rows twice
 * without keeping them (nodefeat writes them, scales them in place, and
 * writes them again): nodefeat_counts() leaves the triangle and core
 * counts of g in ws (its first 12 n bytes), and nodefeat_rows() makes the
 * (n, FEAT_N) rows from them and g, as often as wanted, until ws is used
 * for anything else (nodefeat_rows() then dies).  ws must not be NULL.
 * Time complexity: nodefeat_counts as nodefeat_raw; nodefeat_rows
 * O(n + m).
 */
void nodefeat_counts(const graph *g, features_ws *ws);
void nodefeat_rows(const graph *g, const features_ws *ws, double *out);

/*
 * The most scratch nodefeat_counts() (and nodefeat_raw()) grows a
 * workspace to for a graph of n nodes and m edges, in bytes: 16 n + 8
 * (triangle counts, then core numbers, and the oriented row offsets) and
 * 4 max(m + n t / 4, n + min(n - 1, m) + 1) (the oriented arcs and the
 * marks, then the peeling's buckets), t the threads of the triangle count
 * (1 below FEATURES_PAR_MIN_ARCS arcs).  For memory checks before the
 * graph is built.  Time complexity: O(1).
 */
double nodefeat_ws_bytes(int32_t n, int64_t m);

/*
 * Model input from raw features: columns FEAT_DEGREE, FEAT_CORE and
 * FEAT_CI1 are min-max normalised over the n nodes of this graph,
 *   x' = (x - min) / (max - min),
 * and FEAT_CLUSTERING (already in [0, 1]) is copied unchanged (paper 3.1).
 * A constant column (max == min: a regular graph's degrees, an edgeless
 * graph) normalises to 0 on every node rather than dividing by zero.
 * raw and out are (n, FEAT_N) row-major; they may be the same array.
 * Edge cases: n = 0 writes nothing; n = 1 gives 0 in the three columns.
 * Time complexity: O(n).
 */
void nodefeat_normalise(const double *raw, int32_t n, double *out);

/* How the model input is scaled (nodefeat_scale). */
enum {
	FEAT_SCALE_MINMAX = 0, /* the paper's: nodefeat_normalise() */
	FEAT_SCALE_LOG	       /* log1p of degree, core, max(CI_1, 0); clustering as is */
};

/*
 * Scale raw features into model input by mode: FEAT_SCALE_MINMAX is
 * nodefeat_normalise(); FEAT_SCALE_LOG takes log(1 + x) of degree, core
 * number and CI_1 (CI_1 >= 0 always) and copies clustering, with no
 * per-graph rescaling, so the absolute size and density of a graph survive
 * (per-graph min-max maps a star of 5 and a star of 500 to the same
 * values, which erases what separates the IMDB classes, say).
 * raw and out may be the same array.  Returns 0, or -1 for an unknown mode.
 * Time complexity: O(n).
 */
int nodefeat_scale(const double *raw, int32_t n, double *out, int mode);

/*
 * The model input of `--scale both` (nodefeat(1), the built-in feature
 * stage "both"): the four min-max scaled (nodefeat_normalise()) and then
 * log(1 + x) of degree, core number and max(CI_1, 0) (clustering is the
 * same in both), FEAT_BOTH_N columns FEATURES_BOTH_COLUMNS, so that a
 * model sees a graph's own scale and its nodes' place in it.  raw (n,
 * FEAT_N) becomes the min-max scaled rows; out (n, FEAT_BOTH_N), not
 * raw.  Time complexity: O(n).
 */
#define FEAT_BOTH_N 7
#define FEATURES_BOTH_COLUMNS FEATURES_COLUMNS ",degree_log,core_log,ci1_log"
void nodefeat_both(double *raw, int32_t n, double *out);

/* The mode named "minmax" or "log", or -1. */
int nodefeat_scale_mode(const char *name);
/* Its name. */
const char *nodefeat_scale_name(int mode);

/*
 * nodefeat_raw() followed by nodefeat_normalise(), out: (n, FEAT_N), the
 * input gcn-train feeds the model at every step.  Scratch as nodefeat_raw.
 * Time complexity: as nodefeat_raw().
 */
void nodefeat_model_input(const graph *g, double *out, features_ws *ws);

#endif
