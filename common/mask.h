/*
 * mask.h - edge masking for denoising link reconstruction (paper, Task 1;
 * Algorithm 1, lines 3 and 5).
 *
 * Ownership: the caller owns a mask_buf (mask_buf_init()/mask_buf_free(),
 * mask_buf_free(NULL) is a no-op) and every array in it; mask_edges() grows
 * those arrays as needed and reuses them, so calling it again and again (one
 * masking per graph per training step) allocates only when a graph is larger
 * than any seen before.  The input graph and the gsl_rng stay the caller's.
 *
 * Definition.  Given a simple undirected graph G = (V, E), n = |V|, m = |E|:
 *   1. R, the removed edges: a uniformly random subset of E of size
 *      r = round(fraction * m), rounded to nearest with halves up
 *      (floor(fraction * m + 0.5)).  Every edge is equally likely to go;
 *      nothing protects a node from losing all its edges (the paper says
 *      nothing about it, so the noise is plain uniform removal).
 *   2. G* = (V, E \ R), the masked graph, on the same n nodes.
 *   3. Positives: a uniformly random subset of R of size min(npos, r)
 *      (all of R when npos is MASK_ALL).
 *   4. Negatives: a uniformly random subset of size min(nneg, N) of the
 *      N = n(n-1)/2 - m non-edges of the ORIGINAL graph G (so an edge of R is
 *      never a negative).
 * Every pair is written once as (u, v) with u < v; no pair occurs twice, in
 * either orientation, within or across the two sets.  Each list is sorted by
 * (u, v).  The same graph, options and generator state give the same result.
 *
 * No global state: threads may mask concurrently, each with its own
 * mask_buf and gsl_rng.  A training loop re-masking graph i at step t seeds
 * its generator from (seed, rng_mix(i, t)) or similar, so that every
 * masking is reproducible on its own.
 */
#ifndef GNN_MASK_H
#define GNN_MASK_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define MASK_ALL (-1) /* mask_opts.npos: every removed edge */

/* What mask_edges() builds besides the pairs (mask_opts.want). */
enum {
	MASK_EDGES = 1, /* b->eu, b->ev: canonical edge list of G* */
	MASK_CSR = 2	/* b->g: G* as a CSR graph */
};

/* How negatives are drawn (mask_opts.neg_method); both are exact samplers. */
enum {
	MASK_NEG_AUTO = 0,  /* pick the cheaper one (see mask_edges) */
	MASK_NEG_REJECT,    /* random pairs, rejected if an edge or a repeat */
	MASK_NEG_COMPLEMENT /* random ranks in the complement, then unranked */
};

/* Shortfall bits returned by mask_edges(). */
enum {
	MASK_SHORT_POS = 1, /* r < npos: fewer positives than asked */
	MASK_SHORT_NEG = 2  /* N < nneg: fewer negatives than asked */
};

struct mask_opts {
	double fraction; /* share of edges removed, in [0, 1) */
	int64_t npos;	 /* positives wanted (>= 0), or MASK_ALL */
	int64_t nneg;	 /* negatives wanted (>= 0) */
	int want;	 /* MASK_EDGES | MASK_CSR, or 0 for pairs only */
	int neg_method;	 /* MASK_NEG_AUTO unless testing a sampler */
};

typedef struct mask_buf {
	/* G*: m edges.  eu/ev (m) when MASK_EDGES, g when MASK_CSR. */
	int64_t m;
	int32_t *eu, *ev;
	graph g;

	/* R: the r removed edges, sorted (always filled). */
	int64_t r;
	int32_t *ru, *rv;

	/* Pairs: positives [0, npos), then negatives [npos, npos + nneg). */
	int64_t npos, nneg;
	int32_t *pu, *pv;

	int neg_method;	   /* the sampler mask_edges() used */
	int64_t neg_draws; /* random draws it took (REJECT) */

	/* private: scratch and allocated lengths */
	int64_t *perm;	/* (m of G) edge indices, partial Fisher-Yates */
	uint8_t *eflag; /* (m of G) 0 kept, 1 removed, 2 removed + positive */
	uint8_t *aflag; /* (2m of G) arc removed (MASK_CSR) */
	uint64_t *hash; /* open-addressing set of pairs or ranks */
	int64_t *rank;	/* (nneg) complement ranks */
	size_t cap_e, cap_r, cap_p, cap_perm, cap_eflag, cap_aflag, cap_hash, cap_rank;
} mask_buf;

/*
 * The paper's settings (Algorithm 1): fraction 0.2, npos 128, nneg 256;
 * want MASK_EDGES, neg_method MASK_NEG_AUTO.  Time complexity: O(1).
 */
void mask_opts_init(struct mask_opts *o);

/* An empty buffer: no arrays yet, b->g an empty graph.  Time complexity: O(1). */
void mask_buf_init(mask_buf *b);

/* Free every array of b and leave it as mask_buf_init() does; NULL is a
 * no-op.  Time complexity: O(1). */
void mask_buf_free(mask_buf *b);

/*
 * Mask g as defined at the top of this file, drawing from rng, and fill b.
 *
 * Returns 0 when every count was met, a combination of MASK_SHORT_POS and
 * MASK_SHORT_NEG when a set is smaller than asked (b->npos, b->nneg say how
 * large it is; the caller decides whether that is an error), or -1 when
 * o is invalid (fraction outside [0, 1) or not finite, npos < -1, nneg < 0,
 * unknown want or neg_method bits): then b is left unchanged.
 *
 * Edge cases: m = 0 gives r = 0 and no positives; n < 2 has no node pairs,
 * so no negatives either; a complete graph has no non-edges; fraction close
 * to 1 can round r up to m (every edge removed, G* empty).
 *
 * Negatives, MASK_NEG_AUTO: rejection draws a uniform unordered pair {u,v},
 * u != v, and keeps it unless it is an edge of G (graph_has_edge) or already
 * kept (a hash set).  Its expected number of draws is about
 * P ln(N / (N - k)) for P = n(n-1)/2 pairs and k = min(nneg, N), which blows
 * up for dense graphs or k close to N, so the rejection sampler is used
 * only when that is below the cost of the complement sampler, and gives way
 * to it if it ever takes 8 times its expectation.  The complement sampler
 * draws k distinct ranks in [0, N) (Floyd's algorithm) and maps the sorted
 * ranks to the non-edges in (u, v) order with one merge pass over the rows.
 * Both give every k-subset of non-edges the same probability.  The choice
 * depends only on (n, m, k) and the draws, so results stay reproducible.
 *
 * Time complexity: O(n + m + k log k) in the worst case.  The removal is
 * O(n + m) (identity permutation, r Fisher-Yates swaps, one pass over the
 * rows); MASK_CSR adds O(n + m + r log d), d the largest degree; negatives
 * by rejection take O(k log d) expected, by the complement
 * O(n + m + k log k).
 * Memory: 9m bytes of scratch (11m with MASK_CSR) plus at most 40k bytes
 * for the sampler, kept in b, besides the outputs.
 */
int mask_edges(const graph *g, gsl_rng *rng, const struct mask_opts *o, mask_buf *b);

/* round(fraction * m) as mask_edges() computes it.  Time complexity: O(1). */
int64_t mask_count(double fraction, int64_t m);

#endif
