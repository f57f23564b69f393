/*
 * gen_ws.c - Watts-Strogatz small-world graphs: a ring lattice whose
 * edges are rewired at random, with the arcs of the ring as clusters.
 * See gen.h and gen_int.h.
 */
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <string.h>

#include "gen_int.h"
#include "rng.h"

/*
 * The edges present, as keys u << 32 | v (u < v) in an open-addressing
 * hash set with linear probing.  A removed key leaves a tombstone, which
 * lookups step over and inserts do not reuse, so the set needs room for
 * every key ever inserted: the lattice's m and at most m rewired edges.
 */
#define EMPTY UINT64_MAX
#define TOMB (UINT64_MAX - 1)

static uint64_t
key(int32_t a, int32_t b)
{
	return a < b ? (uint64_t)a << 32 | (uint32_t)b : (uint64_t)b << 32 | (uint32_t)a;
}

/* The slot of key, or of the empty slot that ends its probe. */
static uint64_t
slot(const uint64_t *set, uint64_t mask, uint64_t k)
{
	uint64_t h = rng_mix(k, 0) & mask;

	while (set[h] != EMPTY && set[h] != k)
		h = (h + 1) & mask;
	return h;
}

static int
has(const uint64_t *set, uint64_t mask, int32_t a, int32_t b)
{
	uint64_t k = key(a, b);

	return set[slot(set, mask, k)] == k;
}

/*
 * networkx's watts_strogatz_graph (3.x): node u is joined to u+1 .. u+k/2
 * (mod n); then for j = 1 .. k/2 and u = 0 .. n-1 in that order, with
 * probability p the edge u - (u+j) becomes u - w, w drawn uniformly among
 * the nodes, drawn again while w = u or u - w is an edge; when u is
 * joined to every other node the edge stays.  The edge count stays
 * n k / 2.  Node u's cluster is its arc, floor(u K / n): K arcs of
 * floor(n / K) or ceil(n / K) consecutive nodes, which are communities of
 * the lattice (of its n k / 2 edges, K k (k + 2) / 8 cross from one arc to
 * the next when K >= 2 and every arc has k / 2 nodes or more) that
 * rewiring dilutes: a moved edge lands inside its arc with
 * probability about 1 / K.
 */
int64_t
geni_ws(const struct gen_params *p, struct gen_work *w, gen_graph *g)
{
	int32_t n = p->n, h = p->k / 2, j, u, x;
	int64_t m = (int64_t)n * h, e, i;
	uint64_t slots = 4, mask, at;

	for (u = 0; u < n && p->K > 0; u++)
		g->cluster[u] = (int32_t)((int64_t)u * p->K / n);
	if (h == 0)
		return 0;
	while (slots < 4 * (uint64_t)m)
		slots *= 2;
	mask = slots - 1;
	w->eu = geni_grow(w->eu, &w->cap_eu, m, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, m, sizeof *w->ev);
	w->deg = geni_grow(w->deg, &w->cap_deg, n, sizeof *w->deg);
	w->set = geni_grow(w->set, &w->cap_set, (int64_t)slots, sizeof *w->set);
	memset(w->set, 0xff, (size_t)slots * sizeof *w->set); /* EMPTY */
	/* edge (j - 1) n + u is u - (u + j): the order of the rewiring */
	for (j = 1, e = 0; j <= h; j++)
		for (u = 0; u < n; u++, e++) {
			w->eu[e] = u;
			w->ev[e] = (int32_t)((u + j) % n);
			w->set[slot(w->set, mask, key(u, w->ev[e]))] = key(u, w->ev[e]);
		}
	for (u = 0; u < n; u++)
		w->deg[u] = 2 * h;
	for (i = 0; i < m; i++) {
		u = w->eu[i];
		if (!(gsl_rng_uniform(w->r) < p->p))
			continue;
		x = (int32_t)rng_uniform_u64(w->r, (uint64_t)n);
		while (x == u || has(w->set, mask, u, x)) {
			x = (int32_t)rng_uniform_u64(w->r, (uint64_t)n);
			if (w->deg[u] >= n - 1)
				break;
		}
		if (x == u || has(w->set, mask, u, x))
			continue; /* u is joined to every node: the edge stays */
		at = slot(w->set, mask, key(u, w->ev[i]));
		w->set[at] = TOMB;
		w->deg[w->ev[i]]--;
		w->deg[x]++;
		w->ev[i] = x;
		w->set[slot(w->set, mask, key(u, x))] = key(u, x);
		g->rewired++;
	}
	return m;
}
