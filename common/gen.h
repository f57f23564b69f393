/*
 * gen.h - random graph families for pre-training corpora, beside the DCBM
 * of dcbm.h: Barabasi-Albert, Holme-Kim (power-law cluster),
 * Watts-Strogatz, random geometric, R-MAT and Erdos-Renyi graphs, each
 * graph drawing its family and its parameters from ranges.  The generator
 * of graph-gen(1); gen_ba() is also motif-gen's Barabasi-Albert base.
 *
 * Ownership: the caller initialises a gen_graph with gen_graph_init(); it
 * owns every array it points to (gen_make() resizes them, so one value
 * serves a loop over many graphs), and gen_graph_free() releases them (a
 * no-op on a value never used; NULL is a no-op).  struct gen_ranges and
 * struct gen_params are plain values.  gen_ba() writes into the caller's
 * arrays and allocates nothing.
 *
 * Randomness: graph `stream` of seed `seed` takes its family from a
 * golden-ratio sequence over the ids (gen_draw_params), so that any run of
 * consecutive ids holds the families in their shares, and draws from
 * sub-streams of rng_mix(seed, stream) (rng.h): 1 its node count, 2 its
 * family's parameters (one draw each, in a fixed order, even when a range
 * is a single value), 3 the graph.  So graph i is the same whatever the
 * other graphs and the thread count, and changing one family's ranges
 * changes no graph of another family.
 *
 * Every generated graph is simple (no self-loops, no repeated pairs), its
 * edges written once as u < v and sorted by (u, v).  Families with a
 * natural partition of the nodes give it as cluster labels 0..K-1:
 * Watts-Strogatz the arcs of its ring, random geometric graphs the cells
 * of a grid over the square.  The others (BA, Holme-Kim, R-MAT,
 * Erdos-Renyi) have none: K = 0 and no labels.
 */
#ifndef GNN_GEN_H
#define GNN_GEN_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

enum gen_family { GEN_BA, GEN_HK, GEN_WS, GEN_RGG, GEN_RMAT, GEN_ER, GEN_FAMILIES };
/* "ba", "hk", "ws", "rgg", "rmat", "er" in enum order; NULL-terminated */
extern const char *const gen_family_names[];

/* Bounds every parameter is checked against (also the option bounds). */
#define GEN_MAX_NODES (1LL << 26) /* = GS_MAX_NODES of stream.h */
#define GEN_MAX_DEGREE 1e6	  /* m, k, mean degrees, the edge factor */
#define GEN_MAX_CELLS 1000	  /* rgg: cells along a side */
#define GEN_MAX_WEIGHT 1e9	  /* a family's weight in the mix */

/*
 * Ranges the per-graph parameters are drawn from, uniformly: integers from
 * {lo..hi}, reals from [lo, hi).  weight[f] is family f's share of the
 * mix (0: never drawn); a graph is of family f with probability
 * weight[f] / sum(weight).
 */
struct gen_ranges {
	long long nodes[2];
	double weight[GEN_FAMILIES];
	long long ba_m[2];	/* ba: edges of each new node */
	long long hk_m[2];	/* hk: edges of each new node */
	double hk_p[2];		/* hk: triad-formation probability */
	long long ws_k[2];	/* ws: lattice degree, drawn among the even values */
	double ws_p[2];		/* ws: rewiring probability */
	long long ws_arcs[2];	/* ws: clusters, arcs of the ring */
	double rgg_degree[2];	/* rgg: target expected mean degree ... */
	double rgg_radius[2];	/* ... or the radius, if rgg_use_radius */
	int rgg_use_radius;	/* 1: radius drawn, 0: from the mean degree */
	int rgg_torus;		/* 1: the unit torus, 0: the unit square */
	long long rgg_cells[2]; /* rgg: cells along a side; K: the non-empty ones */
	double rmat_a[2], rmat_b[2], rmat_c[2]; /* rmat: d = 1 - a - b - c */
	double rmat_ef[2];			/* rmat: edges drawn per node */
	double er_degree[2];			/* er: expected mean degree */
};

/* One graph's parameters (drawn by gen_draw_params, or set by hand). */
struct gen_params {
	int family;	   /* enum gen_family */
	int32_t n;	   /* nodes, >= 1 */
	int32_t m;	   /* ba, hk: edges of each new node, 0 <= m < n (0 iff n == 1) */
	int32_t k;	   /* ws: lattice degree, even, 0 <= k < n */
	double p;	   /* hk: triad probability; ws: rewiring; er: edge probability */
	int32_t K;	   /* clusters: ws arcs; rgg cells^2 drawn, then (gen_make's
			    * g->par) the non-empty cells; 0 = none */
	int32_t cells;	   /* rgg: cells along a side */
	int torus;	   /* rgg: 1 torus, 0 square */
	double radius;	   /* rgg */
	double degree;	   /* rgg, er: the target (drawn) mean degree; rgg with a
			 * drawn radius: the expected mean degree of that radius */
	double a, b, c, d; /* rmat: quadrant probabilities, sum 1 */
	int64_t drawn;	   /* rmat: edges drawn, round(edge factor * n) */
	double ef;	   /* rmat: edge factor */
};

/* One generated graph and what its generation did. */
typedef struct gen_graph {
	struct gen_params par;
	int32_t n;
	int64_t m;
	int32_t *u, *v;	  /* (m) edges u < v, sorted by (u, v) */
	int32_t *cluster; /* (n) 0 .. par.K-1 when par.K > 0 */
	int64_t within;	  /* edges inside one cluster (par.K > 0) */
	int64_t rewired;  /* ws: edges moved */
	int64_t triads;	  /* hk: edges made by triad formation */
	int64_t loops;	  /* rmat: self-loops drawn and dropped */
	int64_t dups;	  /* rmat: repeated pairs drawn and merged */
	double *x, *y;	  /* rgg: (n) the points */
	/* private: work arrays, reused from graph to graph */
	void *priv;
} gen_graph;

void gen_graph_init(gen_graph *g);
void gen_graph_free(gen_graph *g);

/*
 * graph-gen's defaults into R: 100..2000 nodes (the paper's sizes), the
 * mix ba, hk, ws, rgg, rmat (er out), mean degrees of about 2 to 16 (ba_m,
 * hk_m 1..8, ws_k 2..16, rgg_degree 2..16, rmat_ef 1..8, er_degree 2..16),
 * hk_p 0..1, ws_p 0..0.3, ws_arcs 2..10, the square with 2..3 cells a
 * side, Graph500's R-MAT quadrants a 0.57, b 0.19, c 0.19 (d 0.05).
 */
void gen_ranges_default(struct gen_ranges *R);

/*
 * Parse a family list "ba:2,ws,rgg:0.5" (NAME[:WEIGHT], weight 1 unless
 * given, each name once) into weight[] (every family not named gets 0).
 * Returns 0, or -1 with a one-line reason in msg.  Time: O(length).
 */
int gen_family_parse(const char *text, double *weight, char *msg, size_t msglen);

/* The weights as a family list ("ba:2,ws": a weight of 1 unwritten), into
 * buf; returns buf. */
char *gen_family_list(const double *weight, char *buf, size_t len);

/*
 * Check R: every range within its bounds (gen.c documents them), at least
 * one family with a positive weight, ws_k holding an even value >= 2,
 * R-MAT's a >= b, a >= c, a >= d >= 0 for every draw, an rgg radius at
 * most 0.5 on the torus.  Returns 0, or -1 with a one-line reason in msg
 * naming the option.  Time: O(1).
 */
int gen_ranges_check(const struct gen_ranges *R, char *msg, size_t msglen);

/*
 * Draw graph `stream`'s family and parameters from R (which must pass
 * gen_ranges_check).  The family is the point frac(u0 + stream g) of the
 * golden-ratio Weyl sequence (g = (sqrt 5 - 1) / 2, u0 a hash of the
 * seed) on [0, 1) cut into the weights: any N consecutive ids hold family
 * f N w_f / sum(w) times to within a few graphs.  A parameter the graph's size cannot take is cut to
 * the largest it can (m and k below n, K at most n), as dcbm-gen cuts K.
 * Time: O(1) (a bisection of 100 steps for an rgg radius).
 */
void gen_draw_params(const struct gen_ranges *R, uint64_t seed, uint64_t stream,
		     struct gen_params *p);

/*
 * The edges a graph of p is expected to have (exact for ba, hk and ws;
 * for rmat the edges drawn, an upper bound).  For memory and limit checks
 * before gen_make().  Time: O(1).
 */
double gen_expected_edges(const struct gen_params *p);

/*
 * The expected mean degree of a random geometric graph of n nodes and
 * radius r: (n - 1) P(|X - Y| <= r) for X, Y uniform on the unit torus
 * (pi r^2, r <= 1/2) or the unit square (pi r^2 - 8 r^3 / 3 + r^4 / 2,
 * r <= 1).  And its inverse, the radius of an expected mean degree
 * (bisection; cut to 1/2 on the torus and 1 on the square).  Time: O(1).
 */
double gen_rgg_degree(int32_t n, double r, int torus);
double gen_rgg_radius(int32_t n, double degree, int torus);

/*
 * Generate the graph of p into g, drawing from sub-stream 3 of
 * rng_mix(seed, stream).  The families (gen.c, gen_pa.c, gen_ws.c,
 * gen_rgg.c, gen_rmat.c, gen_er.c document each):
 *   ba    Barabasi-Albert, as gen_ba() (networkx 3's barabasi_albert_graph)
 *   hk    Holme-Kim: gen_ba's growth, where after each preferential
 *         attachment to w the next edge goes, with probability p, to a
 *         uniformly drawn neighbour of w not yet joined (triad formation)
 *   ws    Watts-Strogatz: a ring lattice of degree k, each edge rewired
 *         with probability p (networkx's watts_strogatz_graph)
 *   rgg   n uniform points of the unit square or torus, joined within
 *         distance radius
 *   rmat  R-MAT: drawn edges placed by recursive quadrant choice, then
 *         self-loops dropped and repeated pairs merged
 *   er    G(n, p)
 * Time complexity: O(n + m) expected for ba, ws, rgg, rmat and er; hk adds
 * O(deg w) per triad formation.
 */
void gen_make(const struct gen_params *p, uint64_t seed, uint64_t stream, gen_graph *g);

/*
 * Barabasi-Albert preferential attachment on nodes 0 .. n-1: the star of
 * m + 1 nodes (centre 0, edges 0-1 .. 0-m), then each node s = m+1 .. n-1
 * joined to m distinct earlier nodes, each drawn with probability
 * proportional to its degree (as networkx 3's barabasi_albert_graph).
 * Requires 1 <= m < n.  Writes the m (n - m) edges to eu, ev (earlier
 * node first), every edge end as drawn to rep (2 m (n - m)), and uses
 * mark (n) as scratch.  Returns the edge count m (n - m).
 * Time complexity: O(n m) expected.
 */
int64_t gen_ba(gsl_rng *r, int32_t n, int32_t m, int32_t *eu, int32_t *ev, int32_t *rep,
	       int32_t *mark);

#endif
