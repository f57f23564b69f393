/* graph.c - CSR construction and queries; see graph.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "graph.h"

void
graph_init(graph *g)
{
	memset(g, 0, sizeof *g);
}

void
graph_free(graph *g)
{
	if (g == NULL)
		return;
	free(g->off);
	free(g->adj);
	graph_init(g);
}

static void
reserve(graph *g, int32_t n, int64_t arcs)
{
	if ((size_t)n + 1 > g->cap_off) {
		g->cap_off = (size_t)n + 1;
		g->off = xreallocarray(g->off, g->cap_off, sizeof *g->off);
	}
	if ((size_t)arcs > g->cap_adj || g->adj == NULL) {
		g->cap_adj = arcs > 0 ? (size_t)arcs : 1;
		g->adj = xreallocarray(g->adj, g->cap_adj, sizeof *g->adj);
	}
}

int
graph_build(graph *g, int32_t n, int64_t m, const int32_t *u, const int32_t *v, int policy,
	    struct graph_fix *fix, char *msg, size_t msglen)
{
	int64_t i, arcs = 0, *start, *pos = NULL;
	int32_t *src = NULL, x;
	struct graph_fix f = { 0, 0 };
	int rc = -1;

	if (n < 0 || m < 0) {
		snprintf(msg, msglen, "negative size (nodes %d, edges %lld)", (int)n, (long long)m);
		return -1;
	}
	/* Validate and count arcs (both orientations of every non-loop edge). */
	for (i = 0; i < m; i++) {
		if (u[i] < 0 || u[i] >= n || v[i] < 0 || v[i] >= n) {
			snprintf(msg, msglen, "edge %lld: node %d out of range (nodes %d)",
				 (long long)i, (u[i] < 0 || u[i] >= n) ? u[i] : v[i], n);
			return -1;
		}
		if (u[i] == v[i]) {
			if (policy == GRAPH_STRICT) {
				snprintf(msg, msglen, "edge %lld: self-loop on node %d",
					 (long long)i, u[i]);
				return -1;
			}
			f.self_loops++;
			continue;
		}
		arcs += 2;
	}
	reserve(g, n, arcs);
	/* Row starts, in off itself: a node is the source of as many arcs as
	 * it is the destination of, so one prefix sum of the degrees serves
	 * both counting sorts.  Scratch: pos (n + 1) and the arcs' sources. */
	start = g->off;
	memset(start, 0, ((size_t)n + 1) * sizeof *start);
	pos = xmallocarray((size_t)n + 1, sizeof *pos);
	src = xmallocarray((size_t)(arcs ? arcs : 1), sizeof *src);
	for (i = 0; i < m; i++)
		if (u[i] != v[i]) {
			start[v[i] + 1]++;
			start[u[i] + 1]++;
		}
	for (x = 0; x < n; x++)
		start[x + 1] += start[x];

	/* Pass 1: stable counting sort of arcs by destination; the
	 * destination of src[p] is the x whose range holds p. */
	memcpy(pos, start, ((size_t)n + 1) * sizeof *pos);
	for (i = 0; i < m; i++) {
		if (u[i] == v[i])
			continue;
		src[pos[v[i]]++] = u[i];
		src[pos[u[i]]++] = v[i];
	}
	/* Pass 2: by source, visiting destinations in ascending order, so
	 * every row ends up sorted. */
	memcpy(pos, start, ((size_t)n + 1) * sizeof *pos);
	for (x = 0; x < n; x++)
		for (i = start[x]; i < start[x + 1]; i++)
			g->adj[pos[src[i]]++] = x;
	/* Remove repeats within each row (sorted, so repeats are adjacent),
	 * compacting in place: off[x + 1] is read as the row's end before it
	 * is written as the new one. */
	{
		int64_t w = 0, r = 0;
		for (x = 0; x < n; x++) {
			int64_t end = start[x + 1];
			int64_t start_w = w;
			for (; r < end; r++) {
				if (w > start_w && g->adj[w - 1] == g->adj[r]) {
					if (policy == GRAPH_STRICT) {
						snprintf(msg, msglen, "duplicate edge %d-%d",
							 x < g->adj[r] ? x : g->adj[r],
							 x < g->adj[r] ? g->adj[r] : x);
						goto out;
					}
					if (x < g->adj[r])
						f.duplicates++;
					continue;
				}
				g->adj[w++] = g->adj[r];
			}
			g->off[x + 1] = w;
		}
		g->n = n;
		g->m = w / 2;
	}
	rc = 0;
out:
	if (rc != 0) {
		g->n = 0;
		g->m = 0;
		if (g->off)
			g->off[0] = 0;
	}
	if (fix)
		*fix = f;
	free(pos);
	free(src);
	return rc;
}

int64_t
graph_lower_bound(const graph *g, int32_t u, int32_t v)
{
	int64_t lo = g->off[u], hi = g->off[u + 1];

	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;
		if (g->adj[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int64_t
graph_arc(const graph *g, int32_t u, int32_t v)
{
	int64_t p = graph_lower_bound(g, u, v);

	return p < g->off[u + 1] && g->adj[p] == v ? p : -1;
}

int
graph_has_edge(const graph *g, int32_t u, int32_t v)
{
	/* search the shorter row */
	if (graph_degree(g, u) > graph_degree(g, v))
		return graph_arc(g, v, u) >= 0;
	return graph_arc(g, u, v) >= 0;
}

void
graph_edges(const graph *g, int32_t *u, int32_t *v)
{
	int64_t k = 0, p;
	int32_t x;

	for (x = 0; x < g->n; x++)
		for (p = g->off[x]; p < g->off[x + 1]; p++)
			if (g->adj[p] > x) {
				u[k] = x;
				v[k] = g->adj[p];
				k++;
			}
}

void
graph_copy(graph *dst, const graph *src)
{
	reserve(dst, src->n, 2 * src->m);
	memcpy(dst->off, src->off, ((size_t)src->n + 1) * sizeof *dst->off);
	memcpy(dst->adj, src->adj, (size_t)(2 * src->m) * sizeof *dst->adj);
	dst->n = src->n;
	dst->m = src->m;
}
