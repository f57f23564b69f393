/*
 * gen_int.h - private to the generator's files, each of which calls only
 * the ones below it: gen_make.c (the dispatcher: parameters, the finished
 * graph) above the family files gen_pa.c (Barabasi-Albert, Holme-Kim),
 * gen_ws.c (Watts-Strogatz), gen_rgg.c (random geometric), gen_rmat.c
 * (R-MAT) and gen_er.c (Erdos-Renyi), and those above gen.c (the mix, the
 * ranges, the gen_graph and geni_grow).  Nothing else includes it; the
 * API is gen.h.
 *
 * Ownership: every buffer lives in the gen_graph's struct gen_work (its
 * priv), grown by geni_grow() and freed by gen_graph_free(); a family
 * function writes the edges it makes to w->eu, w->ev and returns their
 * count, and fills g->cluster when its graph has clusters.  gen_make()
 * then builds the CSR (canonical order, simplicity checked) and copies
 * the edges out.
 */
#ifndef GNN_GEN_INT_H
#define GNN_GEN_INT_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "graph.h"

struct gen_work {
	gsl_rng *r;
	int32_t *eu, *ev; /* (edges as made) */
	int32_t *rep;	  /* ba, hk: (2 m) every edge end, as drawn */
	int32_t *mark;	  /* ba, hk: (n) the last new node joined to the node */
	int64_t *head;	  /* hk: (n) first arc of each node, -1 none */
	int64_t *next;	  /* hk: (2 m) the node's next arc, -1 none */
	int32_t *to;	  /* hk: (2 m) the arc's other end */
	uint64_t *set;	  /* ws: the edge hash set */
	int32_t *deg;	  /* ws: (n) degrees */
	int64_t *cstart;  /* rgg: (cells + 1) the cells' first slot in corder */
	int32_t *corder;  /* rgg: (n) nodes cell by cell */
	int32_t *cmap;	  /* rgg: (cells^2) cluster of a grid cell, -1 empty */
	graph csr;
	size_t cap_eu, cap_ev, cap_rep, cap_mark, cap_head, cap_next, cap_to, cap_set, cap_deg;
	size_t cap_cstart, cap_corder, cap_cmap;
	size_t cap_u, cap_v, cap_cluster, cap_x, cap_y; /* of the gen_graph's arrays */
};

/* p grown to at least want elements of size bytes (cap in elements). */
void *geni_grow(void *p, size_t *cap, int64_t want, size_t size);

/* The families: the edges into w->eu, w->ev (any order, each pair once
 * except for rmat), their count returned; g->cluster filled when K > 0. */
int64_t geni_ba(const struct gen_params *p, struct gen_work *w);
int64_t geni_hk(const struct gen_params *p, struct gen_work *w, gen_graph *g);
int64_t geni_ws(const struct gen_params *p, struct gen_work *w, gen_graph *g);
int64_t geni_rgg(const struct gen_params *p, struct gen_work *w, gen_graph *g);
int64_t geni_rmat(const struct gen_params *p, struct gen_work *w);
int64_t geni_er(const struct gen_params *p, struct gen_work *w);

#endif
