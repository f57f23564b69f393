/*
 * motif.h - structural-role benchmark graphs: small motifs (houses,
 * cycles, stars, fans, grids, cliques) planted on a base graph
 * (Barabasi-Albert, cycle or tree), every node labelled by its structural
 * role, as in GraphWave (Donnat et al. 2018, "Learning Structural Node
 * Embeddings via Diffusion Wavelets") and GNNExplainer's BA-Shapes (Ying
 * et al. 2019).  The generator of motif-gen(1).
 *
 * Ownership: the caller initialises a motif_shape or motif_graph with its
 * _init(); the value owns every array it points to (the functions here
 * resize them, so one value serves a loop over many graphs), and its
 * _free() releases them (a no-op on a value never used; NULL is a no-op).
 * motif_class_names() returns a string the caller frees.  motif_opts and
 * motif_spec are plain values.
 *
 * The graph (motif_generate):
 *   1. the base graph on nodes 0 .. B-1 (struct motif_opts: base);
 *   2. every motif, in the order of o->spec[] and count copies of each,
 *      takes the next block of node ids and its own edges, and one more
 *      edge joins its anchor node (motif_shape.anchor) to a base node
 *      (o->attach);
 *   3. the roles are fixed here, on the clean graph: a base node is class
 *      0; a motif node is its kind's class for its position, positions
 *      alike under the motif's automorphisms sharing one class;
 *   4. noise: round(remove_edges * m0) edges of the clean graph (m0 of
 *      them) are removed, chosen uniformly without replacement, and
 *      round(add_edges * m0) pairs that are not edges of the clean graph
 *      are added, chosen uniformly without replacement.
 * Node counts, edge counts and classes depend on the options only (never
 * on the random draws), so they are checked before anything is drawn.
 *
 * Randomness: graph `stream` of seed `seed` draws from sub-streams of
 * rng_mix(seed, stream): 1 the base graph, 2 the attachment, 3 the removed
 * edges, 4 the added edges.  Changing the noise thus leaves the clean
 * graph as it was, and graph i is the same whatever the other graphs.
 */
#ifndef GNN_MOTIF_H
#define GNN_MOTIF_H

#include <stddef.h>
#include <stdint.h>

/* Motif kinds (motif_shape_make documents each one's nodes and roles). */
enum {
	MOTIF_HOUSE,
	MOTIF_HOUSE_X,
	MOTIF_CYCLE,
	MOTIF_STAR,
	MOTIF_FAN,
	MOTIF_GRID,
	MOTIF_CLIQUE,
	MOTIF_KINDS
};
enum { MOTIF_BASE_BA, MOTIF_BASE_CYCLE, MOTIF_BASE_TREE };
enum { MOTIF_ATTACH_UNIFORM, MOTIF_ATTACH_SPREAD };

#define MOTIF_MAX_SIZE 1000 /* the size of a sized kind (grid: side) */
#define MOTIF_MAX_SPECS 32  /* --motif options */
#define MOTIF_MAX_ADD 100.0 /* add_edges: added edges per clean edge */

/* One --motif: count copies of a kind (of a size, for sized kinds). */
struct motif_spec {
	int kind;      /* MOTIF_x */
	int32_t size;  /* 0 for house and house-x */
	int64_t count; /* >= 1 */
};

struct motif_opts {
	int base;	    /* MOTIF_BASE_x */
	int32_t base_nodes; /* B */
	int32_t ba_m;	    /* ba: edges of each new node, 1 <= m < B */
	int32_t branching;  /* tree: children of each inner node, >= 1 */
	int nspec;
	struct motif_spec spec[MOTIF_MAX_SPECS];
	int attach;	     /* MOTIF_ATTACH_x */
	double add_edges;    /* added edges per clean edge, [0, MOTIF_MAX_ADD] */
	double remove_edges; /* removed share of the clean edges, [0, 1] */
};

/* A motif on local nodes 0 .. n-1. */
typedef struct motif_shape {
	int32_t n;
	int64_t m;
	int32_t *u, *v; /* (m) edges, u < v */
	int32_t *role;	/* (n) 0 .. nroles-1 */
	int nroles;
	int32_t anchor; /* the node joined to the base graph */
	size_t cap_n, cap_m;
} motif_shape;

/* The sizes every graph of the options has (motif_sizes). */
struct motif_sizes {
	int64_t nodes;	/* B + the motifs' nodes */
	int64_t motifs; /* sum of the counts */
	int64_t base_edges;
	int64_t clean_edges; /* m0: base + motifs + one per motif */
	int64_t removed, added;
	int64_t edges; /* m0 - removed + added */
	int classes;   /* 1 + the roles of every spec */
};

/* One generated graph. */
typedef struct motif_graph {
	int32_t n;
	int64_t m;
	int32_t *u, *v; /* (m) edges u < v, sorted by (u, v) */
	int32_t *label; /* (n) class of every node (its role) */
	int32_t *motif; /* (n) index of the node's motif, -1 on the base */
	/* private: work arrays, reused from graph to graph */
	void *priv;
} motif_graph;

void motif_shape_init(motif_shape *s);
void motif_shape_free(motif_shape *s);
void motif_graph_init(motif_graph *g);
void motif_graph_free(motif_graph *g);

/*
 * The motif of a kind and size into s, nodes numbered as follows
 * (roles are the orbits of the motif's automorphism group):
 *   house     5 nodes, 6 edges: a square 0-1-2-3-0 and the roof node 4
 *             joined to 0 and 1.  Roles 0 top (4), 1 middle (0, 1),
 *             2 bottom (2, 3).  Anchor 0 (a middle node).
 *   house-x   the house with the square's diagonals 0-2 and 1-3 (8 edges),
 *             GraphWave's house.  Roles and anchor as the house.
 *   cycle k   k >= 3 nodes in a ring i - i+1 (mod k).  One role; anchor 0.
 *   star k    a centre 0 and k >= 2 leaves 1..k.  Roles 0 centre, 1 leaf;
 *             anchor 0.
 *   fan k     a centre 0 joined to each of k >= 4 blades 1..k, which form
 *             the path 1-2-...-k (2k - 1 edges).  Roles 0 centre, then
 *             1 + j for the blades j steps from the nearer end of the
 *             path (blade i: j = min(i-1, k-i)).  Anchor 0.  (Fan 3 is a
 *             K4 less an edge, whose centre and middle blade are alike.)
 *   grid k    k x k nodes (k >= 2), node i k + j at row i, column j,
 *             joined to its right and lower neighbours.  A node's role is
 *             the pair a <= b of its distances to the nearest border in
 *             the two directions, numbered in lexicographic order
 *             (3 x 3: (0,0) corner 0, (0,1) side 1, (1,1) centre 2).
 *             Anchor 0 (a corner).
 *   clique k  k >= 3 nodes, every pair joined.  One role; anchor 0.
 * size is ignored for house and house-x.  Returns 0, or -1 with msg when
 * the size is out of range (MOTIF_MAX_SIZE at most).
 * Time complexity: O(n + m) of the motif.
 */
int motif_shape_make(motif_shape *s, int kind, int32_t size, char *msg, size_t msglen);

/* The name of a role: "top", "centre", "blade1", "1_2"...  Returns buf. */
char *motif_role_name(int kind, int32_t size, int role, char *buf, size_t len);

/*
 * Parse a --motif spec "KIND[SIZE][:COUNT]" ("house:80", "star6:8",
 * "cycle6", "house-x:8"; COUNT defaults to 1).  Returns 0, or -1 with a
 * one-line reason in msg.  Time complexity: O(length).
 */
int motif_spec_parse(const char *text, struct motif_spec *sp, char *msg, size_t msglen);

/* A spec's name without its count: "house", "star6".  Returns buf. */
char *motif_spec_name(const struct motif_spec *sp, char *buf, size_t len);

/* The spec list as "house:80,star6:8" into a new string (caller frees). */
char *motif_spec_list(const struct motif_opts *o);

/*
 * The settings of a preset into o (every field), or -1 for an unknown
 * name (motif_preset_names lists them):
 *   ba-shapes     GNNExplainer's BA-Shapes: a Barabasi-Albert base of 300
 *                 nodes (m = 5), 80 houses at distinct uniformly drawn
 *                 base nodes, then add_edges 0.1.
 *   cycle-varied  GraphWave's varied shapes: a cycle of 40 nodes, 8 fans
 *                 of 6 blades, 8 stars of 6 leaves and 8 houses with
 *                 diagonals (house-x), spread along the cycle; no noise.
 *   tree-cycles   GNNExplainer's Tree-Cycles: a binary tree of 511 nodes
 *                 and 60 cycles of 6, attached uniformly; no noise.
 *   tree-grid     GNNExplainer's Tree-Grid: the same tree and 80 grids of
 *                 3 x 3, attached uniformly; no noise.
 */
int motif_preset(const char *name, struct motif_opts *o);
extern const char *const motif_preset_names[]; /* NULL-terminated */

/*
 * The sizes of every graph of o, computed in 64 bits with no overflow for
 * options that pass motif_opts_check's per-field bounds.
 * Time complexity: O(nspec).
 */
void motif_sizes(const struct motif_opts *o, struct motif_sizes *sz);

/*
 * Check o: each field in its range, ba_m < base_nodes, a cycle base of at
 * least 3 nodes, no spec given twice, at most base_nodes motifs under
 * uniform attachment (each base node takes at most one), the node count
 * within GS_MAX_NODES, the edge counts within GS_MAX_EDGES, and at least
 * as many non-edges as edges to add.  Returns 0, or -1 with a one-line
 * reason in msg.  Time complexity: O(nspec^2).
 */
int motif_opts_check(const struct motif_opts *o, char *msg, size_t msglen);

/*
 * The class names, comma-separated, in class order: "base", then for each
 * spec its roles as "SPEC_ROLE" ("house_top", "star6_centre", "grid3_0_1";
 * one-role kinds: "cycle6_node").  A new string the caller frees.
 * Time complexity: O(classes).
 */
char *motif_class_names(const struct motif_opts *o);

/*
 * Generate graph `stream` of `seed` into g (see the top of this file).
 * o must pass motif_opts_check().  The base graphs:
 *   ba     Barabasi-Albert preferential attachment: a star of m + 1 nodes
 *          (centre 0), then each node s = m+1 .. B-1 joined to m distinct
 *          earlier nodes, each drawn with probability proportional to its
 *          degree (as networkx 3's barabasi_albert_graph); m (B - m) edges.
 *   cycle  i - i+1 (mod B); B edges.
 *   tree   the complete tree with `branching` children per inner node in
 *          breadth-first order (node i > 0 has parent (i-1)/branching);
 *          B - 1 edges.
 * Attachment: uniform joins the motifs to distinct base nodes drawn
 * uniformly at random; spread joins motif i (of M) to base node
 * floor(i B / M), evenly along the base's node order (for a cycle, along
 * the cycle).
 * Time complexity: O(n + m) expected (the BA draws and the added edges by
 * rejection: the graphs are sparse).  Memory at the peak: about 32 bytes
 * per edge, 16 to 32 more with added edges (their hash set), and 24 per
 * node.
 */
void motif_generate(const struct motif_opts *o, uint64_t seed, uint64_t stream, motif_graph *g);

#endif
