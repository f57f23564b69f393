/*
 * gen_pa.c - preferential attachment: Barabasi-Albert (gen_ba, also
 * motif-gen's base graph) and Holme-Kim's power-law cluster graphs, which
 * add triad formation to it.  See gen.h and gen_int.h.
 */
#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "gen_int.h"
#include "rng.h"

int64_t
gen_ba(gsl_rng *r, int32_t n, int32_t mm, int32_t *eu, int32_t *ev, int32_t *rep, int32_t *mark)
{
	int64_t m = 0, len = 0, before, j;
	int32_t s, x;

	for (s = 1; s <= mm; s++) {
		eu[m] = 0;
		ev[m++] = s;
		rep[len++] = 0;
		rep[len++] = s;
	}
	for (s = 0; s < n; s++)
		mark[s] = -1;
	for (s = mm + 1; s < n; s++) {
		before = len;
		for (j = 0; j < mm;) {
			x = rep[rng_uniform_u64(r, (uint64_t)before)];
			if (mark[x] == s)
				continue; /* drawn already: targets are distinct */
			mark[x] = s;
			eu[m] = x;
			ev[m++] = s;
			rep[len++] = x;
			rep[len++] = s;
			j++;
		}
	}
	return m;
}

/* The edge and arc arrays of a graph of m (n - m) edges. */
static int64_t
reserve(const struct gen_params *p, struct gen_work *w, int arcs)
{
	int64_t E = (int64_t)p->m * (p->n - p->m);

	w->eu = geni_grow(w->eu, &w->cap_eu, E, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, E, sizeof *w->ev);
	w->rep = geni_grow(w->rep, &w->cap_rep, 2 * E, sizeof *w->rep);
	w->mark = geni_grow(w->mark, &w->cap_mark, p->n, sizeof *w->mark);
	if (arcs) {
		w->head = geni_grow(w->head, &w->cap_head, p->n, sizeof *w->head);
		w->next = geni_grow(w->next, &w->cap_next, 2 * E, sizeof *w->next);
		w->to = geni_grow(w->to, &w->cap_to, 2 * E, sizeof *w->to);
	}
	return E;
}

int64_t
geni_ba(const struct gen_params *p, struct gen_work *w)
{
	if (p->m < 1)
		return 0; /* n == 1 */
	reserve(p, w, 0);
	return gen_ba(w->r, p->n, p->m, w->eu, w->ev, w->rep, w->mark);
}

/* ---- Holme-Kim ---- */

/* Edge x - s (x < s) into the edge list, the degree list and the arcs. */
static void
hk_edge(struct gen_work *w, int64_t *m, int64_t *len, int32_t x, int32_t s)
{
	int64_t a = 2 * *m;

	w->mark[x] = s;
	w->eu[*m] = x;
	w->ev[*m] = s;
	(*m)++;
	w->rep[(*len)++] = x;
	w->rep[(*len)++] = s;
	w->to[a] = s;
	w->next[a] = w->head[x];
	w->head[x] = a;
	w->to[a + 1] = x;
	w->next[a + 1] = w->head[s];
	w->head[s] = a + 1;
}

/* A neighbour of t not yet joined to s (mark != s), uniformly; -1 if
 * there is none.  Time: O(deg t). */
static int32_t
triad_pick(struct gen_work *w, int32_t t, int32_t s)
{
	int64_t a, free = 0, k;

	for (a = w->head[t]; a >= 0; a = w->next[a])
		free += w->mark[w->to[a]] != s;
	if (free == 0)
		return -1;
	k = (int64_t)rng_uniform_u64(w->r, (uint64_t)free);
	for (a = w->head[t];; a = w->next[a])
		if (w->mark[w->to[a]] != s && k-- == 0)
			return w->to[a];
}

/*
 * Holme and Kim (2002), "Growing scale-free networks with tunable
 * clustering": the star of m + 1 nodes as in gen_ba, then each new node s
 * makes m edges to distinct earlier nodes.  The first is a preferential
 * attachment (PA) to a node w drawn with probability proportional to its
 * degree; each further edge is, with probability p, a triad formation: an
 * edge to a neighbour of the last PA target w drawn uniformly among those
 * not yet joined to s; otherwise, or when w has no such neighbour, another
 * PA step (which becomes the new w).  m (n - m) edges, as BA; p = 0 is BA
 * with other draws.  One uniform for the choice is drawn for every edge
 * after the first, whatever p.
 */
int64_t
geni_hk(const struct gen_params *p, struct gen_work *w, gen_graph *g)
{
	int64_t m = 0, len = 0, before, j;
	int32_t n = p->n, mm = p->m, s, x, last = 0;

	if (mm < 1)
		return 0;
	reserve(p, w, 1);
	for (s = 0; s < n; s++) {
		w->mark[s] = -1;
		w->head[s] = -1;
	}
	for (s = 1; s <= mm; s++)
		hk_edge(w, &m, &len, 0, s);
	for (s = mm + 1; s < n; s++) {
		before = len;
		w->mark[s] = s; /* s is never its own target */
		for (j = 0; j < mm; j++) {
			x = -1;
			if (j > 0 && gsl_rng_uniform(w->r) < p->p)
				x = triad_pick(w, last, s);
			if (x >= 0) {
				g->triads++;
			} else {
				do
					x = w->rep[rng_uniform_u64(w->r, (uint64_t)before)];
				while (w->mark[x] == s);
				last = x;
			}
			hk_edge(w, &m, &len, x, s);
		}
	}
	return m;
}
