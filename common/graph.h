/*
 * graph.h - undirected simple graph in compressed sparse row (CSR) form.
 *
 * Ownership: a graph is initialised with graph_init() and owns its arrays;
 * graph_free() releases them (graph_free on an initialised empty graph is a
 * no-op).  graph_build() reuses and resizes the arrays of an existing graph,
 * so one graph can be rebuilt record after record without new allocations.
 *
 * Nodes are 0..n-1 (n < 2^31).  Every undirected edge {u,v} appears twice in
 * adj: v in row u and u in row v.  Rows are sorted ascending, which makes
 * triangle counting by merge-intersection and O(log d) edge tests possible.
 *
 * Policy for self-loops and duplicate edges (stated once, used everywhere):
 *   GRAPH_STRICT    a self-loop or a repeated pair is an error.  Graph records
 *                   of a gnnstream are always simple, so a stream that breaks
 *                   this is corrupt.
 *   GRAPH_SIMPLIFY  self-loops are dropped and repeated pairs (in either
 *                   orientation) merged into one edge; the counts are returned
 *                   so the caller can say what it changed.  Used for plain
 *                   edge lists written by people and other tools.
 */
#ifndef GNN_GRAPH_H
#define GNN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef struct graph {
	int32_t n;		 /* nodes */
	int64_t m;		 /* undirected edges */
	int64_t *off;		 /* (n+1) row offsets into adj */
	int32_t *adj;		 /* (2m) neighbours, ascending within a row */
	size_t cap_off, cap_adj; /* allocated lengths, for reuse */
} graph;

enum { GRAPH_STRICT = 0, GRAPH_SIMPLIFY = 1 };

struct graph_fix {
	int64_t self_loops; /* dropped (GRAPH_SIMPLIFY) */
	int64_t duplicates; /* merged (GRAPH_SIMPLIFY) */
};

void graph_init(graph *g);
void graph_free(graph *g);

/*
 * Build g from m edges (u[i], v[i]) over nodes 0..n-1.
 * Ids must be in range (callers check; an out-of-range id is reported as an
 * error here too).  Returns 0, or -1 with a one-line reason in msg naming the
 * edge index ("edge 17: self-loop on node 4").
 * Time complexity: O(n + m) (two stable counting sorts, no comparison sort).
 * Memory: g holds 8 (n + 1) + 8 m bytes; scratch during the call 8 (n + 1)
 * + 8 m (a cursor per node, the source of every arc).
 */
int graph_build(graph *g, int32_t n, int64_t m, const int32_t *u, const int32_t *v, int policy,
		struct graph_fix *fix, char *msg, size_t msglen);

/* Bytes a graph of n nodes and m edges holds (off and adj), and the
 * scratch graph_build() takes on top of them while it builds one. */
static inline double
graph_bytes(int32_t n, int64_t m)
{
	return 8.0 * ((double)n + 1) + 8.0 * (double)m;
}

static inline double
graph_build_scratch(int32_t n, int64_t m)
{
	return 8.0 * ((double)n + 1) + 8.0 * (double)m;
}

/* Degree of v. */
static inline int32_t
graph_degree(const graph *g, int32_t v)
{
	return (int32_t)(g->off[v + 1] - g->off[v]);
}

/*
 * The first position in u's sorted row (an index into adj) whose
 * neighbour is >= v; off[u+1] if there is none.
 * Time complexity: O(log deg u).
 */
int64_t graph_lower_bound(const graph *g, int32_t u, int32_t v);

/* Position of v in u's row, or -1 if {u,v} is not an edge.  O(log deg u). */
int64_t graph_arc(const graph *g, int32_t u, int32_t v);

/* 1 if {u,v} is an edge.  Time complexity: O(log min(deg u, deg v)). */
int graph_has_edge(const graph *g, int32_t u, int32_t v);

/* dst = src, reusing dst's arrays.  Time complexity: O(n + m). */
void graph_copy(graph *dst, const graph *src);

/*
 * The canonical edge list of g: every edge once as (u < v), sorted by (u, v).
 * u and v must hold g->m entries.  Time complexity: O(n + m).
 */
void graph_edges(const graph *g, int32_t *u, int32_t *v);

#endif
