/*
 * test_gen.c - the graph families of graph-gen (common/gen.h), each by
 * what its definition fixes exactly (edge counts, degree sums, the pairs
 * within the radius, the clusters) and by its statistics against theory
 * or networkx, on fixed seeds.
 *
 * The statistical bounds are about 5 standard errors of the mean over the
 * graphs drawn (the standard deviations measured over 40 graphs, said at
 * each test), so a correct generator fails one with probability well below
 * 1e-5 and the seeds are fixed; the networkx figures were measured with
 * Debian's python3-networkx 2.8.8 over 40 seeds, as each test says.
 * Run from the repository root: tests/bin/test_gen
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "graph.h"
#include "nodefeat.h"

/* ---- helpers ---- */

static struct gen_params
params(int family, int32_t n)
{
	struct gen_params p;

	memset(&p, 0, sizeof p);
	p.family = family;
	p.n = n;
	return p;
}

/* The edges are u < v, sorted, in range, and the graph into csr. */
static void
canonical(const gen_graph *g, graph *csr)
{
	char msg[128];
	int64_t e;

	for (e = 0; e < g->m; e++) {
		cr_assert(g->u[e] >= 0 && g->u[e] < g->v[e] && g->v[e] < g->n, "edge %lld: %d %d",
			  (long long)e, g->u[e], g->v[e]);
		cr_assert(e == 0 || g->u[e - 1] < g->u[e] ||
			      (g->u[e - 1] == g->u[e] && g->v[e - 1] < g->v[e]),
			  "edge %lld out of order", (long long)e);
	}
	cr_assert(graph_build(csr, g->n, g->m, g->u, g->v, GRAPH_STRICT, NULL, msg, sizeof msg) ==
		      0,
		  "%s", msg);
}

/* networkx's average_clustering of g. */
static double
mean_clustering(const gen_graph *g)
{
	graph csr;
	features_ws ws;
	double *cc = malloc((size_t)g->n * sizeof *cc), s = 0;
	int32_t u;

	graph_init(&csr);
	nodefeat_ws_init(&ws);
	canonical(g, &csr);
	nodefeat_clustering(&csr, cc, &ws);
	for (u = 0; u < g->n; u++)
		s += cc[u];
	free(cc);
	nodefeat_ws_free(&ws);
	graph_free(&csr);
	return s / g->n;
}

static void
degrees(const gen_graph *g, int32_t *deg)
{
	int64_t e;

	memset(deg, 0, (size_t)g->n * sizeof *deg);
	for (e = 0; e < g->m; e++) {
		deg[g->u[e]]++;
		deg[g->v[e]]++;
	}
}

static int
same_graph(const gen_graph *a, const gen_graph *b)
{
	return a->n == b->n && a->m == b->m && a->par.K == b->par.K &&
	       memcmp(a->u, b->u, (size_t)a->m * sizeof *a->u) == 0 &&
	       memcmp(a->v, b->v, (size_t)a->m * sizeof *a->v) == 0 &&
	       (a->par.K == 0 ||
		memcmp(a->cluster, b->cluster, (size_t)a->n * sizeof *a->cluster) == 0);
}

/* graph-gen's defaults, every family in the mix. */
static struct gen_ranges
ranges(void)
{
	struct gen_ranges R;

	gen_ranges_default(&R);
	R.weight[GEN_ER] = 1;
	return R;
}

/* ---- Barabasi-Albert ---- */

Test(gen_ba, edge_count_and_attachment)
{
	static const int32_t ns[] = { 2, 5, 100, 3000 }, ms[] = { 1, 3, 7 };
	gen_graph g;
	graph csr;
	int32_t *later;
	size_t i, j;
	int64_t e;

	gen_graph_init(&g);
	graph_init(&csr);
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++)
		for (j = 0; j < sizeof ms / sizeof ms[0]; j++) {
			struct gen_params p = params(GEN_BA, ns[i]);
			int32_t s;

			if (ms[j] >= ns[i])
				continue;
			p.m = ms[j];
			gen_make(&p, 7, i * 10 + j, &g);
			canonical(&g, &csr);
			cr_assert_eq(g.m, (int64_t)p.m * (p.n - p.m), "n %d m %d: %lld edges", p.n,
				     p.m, (long long)g.m);
			/* the star, then m edges from each new node to earlier ones */
			later = calloc((size_t)p.n, sizeof *later);
			for (e = 0; e < g.m; e++)
				later[g.v[e]]++;
			for (s = 1; s <= p.m; s++)
				cr_assert(graph_has_edge(&csr, 0, s) && later[s] == 1);
			for (s = p.m + 1; s < p.n; s++)
				cr_assert_eq(later[s], p.m, "node %d joins %d earlier nodes", s,
					     later[s]);
			free(later);
			cr_assert_eq(g.par.K, 0, "BA has no clusters");
		}
	graph_free(&csr);
	gen_graph_free(&g);
}

Test(gen_ba, degree_law_and_clustering)
{
	/* BA's degree law P(k) = 2 m (m + 1) / (k (k + 1) (k + 2)) gives
	 * P(m) = 2 / (m + 2) = 0.4 for m = 3; networkx's barabasi_albert_graph
	 * (1000, 3): 0.3997, sd 0.010 a graph; average_clustering 0.0318, sd
	 * 0.0046.  20 graphs: 5 standard errors are 0.011 and 0.005. */
	struct gen_params p = params(GEN_BA, 1000);
	gen_graph g;
	int32_t *deg = malloc(1000 * sizeof *deg), u;
	double f = 0, c = 0;
	int i;

	p.m = 3;
	gen_graph_init(&g);
	for (i = 0; i < 20; i++) {
		gen_make(&p, 11, (uint64_t)i, &g);
		degrees(&g, deg);
		for (u = 0; u < 1000; u++)
			f += deg[u] == 3;
		c += mean_clustering(&g);
	}
	f /= 20 * 1000.0;
	c /= 20;
	cr_assert(fabs(f - 0.3997) < 0.011, "share of degree m: %g", f);
	cr_assert(fabs(c - 0.0318) < 0.005, "mean clustering %g", c);
	free(deg);
	gen_graph_free(&g);
}

/* ---- Holme-Kim ---- */

Test(gen_hk, edge_count_and_triads)
{
	struct gen_params p = params(GEN_HK, 2000);
	gen_graph g;
	graph csr;
	int i;

	gen_graph_init(&g);
	graph_init(&csr);
	for (i = 0; i < 3; i++) {
		p.m = 4;
		p.p = i * 0.5; /* 0, 0.5, 1 */
		gen_make(&p, 12, (uint64_t)i, &g);
		canonical(&g, &csr);
		cr_assert_eq(g.m, 4 * (2000 - 4), "p %g: %lld edges", p.p, (long long)g.m);
		/* (m - 1) tries a new node: triads <= 3 * 1995, all of them at p = 0
		 * none; at p = 1 nearly all (a target without a free neighbour
		 * is rare), at p = 1/2 about half */
		if (i == 0)
			cr_assert_eq(g.triads, 0);
		if (i == 1)
			cr_assert(fabs(g.triads - 0.5 * 3 * 1995) < 5 * sqrt(0.25 * 3 * 1995),
				  "triads %lld", (long long)g.triads);
		if (i == 2)
			cr_assert(g.triads > 0.95 * 3 * 1995 && g.triads <= 3 * 1995);
	}
	graph_free(&csr);
	gen_graph_free(&g);
}

Test(gen_hk, clustering_of_the_definition)
{
	/* Holme and Kim's model written out in Python (a new node's m targets
	 * drawn one by one: PA, then with probability p a free neighbour of
	 * the last PA target), n 1000, m 3, p 0.9: mean average_clustering
	 * 0.5400, sd 0.0085 a graph over 40 seeds; at p = 0 it is BA's 0.031.
	 * (networkx's powerlaw_cluster_graph gives 0.522: it takes its PA
	 * targets from a set, smallest id first, so the triads close around
	 * older nodes.)  20 graphs: 5 standard errors are 0.0095. */
	struct gen_params p = params(GEN_HK, 1000);
	gen_graph g;
	double c = 0, c0 = 0;
	int i;

	gen_graph_init(&g);
	p.m = 3;
	for (i = 0; i < 20; i++) {
		p.p = 0.9;
		gen_make(&p, 13, (uint64_t)i, &g);
		c += mean_clustering(&g);
		p.p = 0;
		gen_make(&p, 13, (uint64_t)i, &g);
		c0 += mean_clustering(&g);
	}
	cr_assert(fabs(c / 20 - 0.5400) < 0.0095, "p 0.9: mean clustering %g", c / 20);
	cr_assert(fabs(c0 / 20 - 0.0318) < 0.005, "p 0: mean clustering %g", c0 / 20);
	gen_graph_free(&g);
}

/* ---- Watts-Strogatz ---- */

Test(gen_ws, lattice_degrees_clustering_and_arcs)
{
	/* p = 0: every degree k, every clustering 3 (k - 2) / (4 (k - 1)), and
	 * of the n k / 2 edges K k (k + 2) / 8 cross between arcs. */
	struct gen_params p = params(GEN_WS, 1003);
	gen_graph g;
	int32_t deg[1003], u, size[7] = { 0 };
	int64_t e, cross = 0;

	p.k = 10;
	p.K = 7;
	gen_graph_init(&g);
	gen_make(&p, 14, 0, &g);
	cr_assert_eq(g.m, 1003 * 5);
	degrees(&g, deg);
	for (u = 0; u < 1003; u++) {
		cr_assert_eq(deg[u], 10);
		cr_assert_eq(g.cluster[u], (int32_t)((int64_t)u * 7 / 1003));
		size[g.cluster[u]]++;
	}
	for (u = 0; u < 7; u++)
		cr_assert(size[u] == 143 || size[u] == 144, "arc %d: %d nodes", u, size[u]);
	for (e = 0; e < g.m; e++)
		cross += g.cluster[g.u[e]] != g.cluster[g.v[e]];
	cr_assert_eq(cross, 7 * 10 * 12 / 8);
	cr_assert_eq(g.within, g.m - cross);
	cr_assert(fabs(mean_clustering(&g) - 3.0 * 8 / (4.0 * 9)) < 1e-12);
	cr_assert_eq(g.rewired, 0);
	gen_graph_free(&g);
}

Test(gen_ws, rewiring_keeps_the_degree_sum)
{
	/* networkx's watts_strogatz_graph(1000, 10, 0.1): average_clustering
	 * 0.4903, sd 0.0080 a graph.  Each of the 5000 edges moves with
	 * probability p: rewired ~ Binomial(5000, 0.1) (a node joined to
	 * all others, which keeps its edge, does not occur here).  20 graphs:
	 * 5 standard errors 0.009; rewired sums to 10000 +- 5 * 95. */
	struct gen_params p = params(GEN_WS, 1000);
	gen_graph g;
	graph csr;
	int32_t deg[1000], u;
	int64_t sum, rewired = 0;
	double c = 0;
	int i;

	p.k = 10;
	p.p = 0.1;
	gen_graph_init(&g);
	graph_init(&csr);
	for (i = 0; i < 20; i++) {
		gen_make(&p, 15, (uint64_t)i, &g);
		canonical(&g, &csr);
		degrees(&g, deg);
		for (u = 0, sum = 0; u < 1000; u++)
			sum += deg[u];
		cr_assert_eq(sum, 1000 * 10, "degree sum %lld", (long long)sum);
		rewired += g.rewired;
		c += mean_clustering(&g);
	}
	cr_assert(fabs(c / 20 - 0.4903) < 0.009, "mean clustering %g", c / 20);
	cr_assert(llabs(rewired - 10000) < 5 * 95, "rewired %lld", (long long)rewired);
	/* p = 1 moves every edge it can; the degree sum stays */
	p.p = 1;
	gen_make(&p, 15, 99, &g);
	canonical(&g, &csr);
	cr_assert(g.m == 5000 && g.rewired > 4900, "rewired %lld", (long long)g.rewired);
	graph_free(&csr);
	gen_graph_free(&g);
}

/* ---- random geometric ---- */

/* Every pair within the radius is an edge, and no other pair. */
static void
brute_force(const gen_graph *g)
{
	graph csr;
	double dx, dy, r2 = g->par.radius * g->par.radius;
	int32_t u, v;
	int64_t pairs = 0;

	graph_init(&csr);
	canonical(g, &csr);
	for (u = 0; u < g->n; u++)
		for (v = u + 1; v < g->n; v++) {
			dx = fabs(g->x[u] - g->x[v]);
			dy = fabs(g->y[u] - g->y[v]);
			if (g->par.torus) {
				dx = fmin(dx, 1 - dx);
				dy = fmin(dy, 1 - dy);
			}
			cr_assert_eq(graph_has_edge(&csr, u, v), dx * dx + dy * dy <= r2,
				     "pair %d %d at %g, radius %g", u, v, sqrt(dx * dx + dy * dy),
				     g->par.radius);
			pairs += dx * dx + dy * dy <= r2;
		}
	cr_assert_eq(pairs, g->m);
	graph_free(&csr);
}

Test(gen_rgg, edges_are_the_pairs_within_the_radius)
{
	/* the grid search (radius 0.06: 16 cells a side; 0.2 on the torus: 5
	 * cells, wrapping) and every pair (radius 0.4: 2 cells) */
	static const double radius[] = { 0.06, 0.2, 0.4 };
	gen_graph g;
	int i, torus;

	gen_graph_init(&g);
	for (torus = 0; torus < 2; torus++)
		for (i = 0; i < 3; i++) {
			struct gen_params p = params(GEN_RGG, 600);

			p.torus = torus;
			p.radius = radius[i];
			gen_make(&p, 16, (uint64_t)(torus * 3 + i), &g);
			brute_force(&g);
		}
	gen_graph_free(&g);
}

Test(gen_rgg, mean_degree_follows_the_radius)
{
	/* The expected mean degree of radius r is (n - 1) P(d <= r).  n 2000,
	 * target 8 (radius about 0.036 on the square): the realised mean
	 * degree's sd a graph is 0.09 (measured over 40 graphs: 0.087 on the
	 * square, 0.090 on the torus); 20 graphs: 5 standard errors 0.1. */
	gen_graph g;
	int torus, i;

	gen_graph_init(&g);
	for (torus = 0; torus < 2; torus++) {
		struct gen_params p = params(GEN_RGG, 2000);
		double d = 0;

		p.torus = torus;
		p.degree = 8;
		p.radius = gen_rgg_radius(2000, 8, torus);
		cr_assert(fabs(gen_rgg_degree(2000, p.radius, torus) - 8) < 1e-9);
		for (i = 0; i < 20; i++) {
			gen_make(&p, 17, (uint64_t)i, &g);
			d += 2.0 * g.m / g.n;
		}
		cr_assert(fabs(d / 20 - 8) < 0.1, "torus %d: mean degree %g", torus, d / 20);
	}
	/* the square loses a border: its radius is larger than the torus's */
	cr_assert(gen_rgg_radius(2000, 8, 0) > gen_rgg_radius(2000, 8, 1));
	cr_assert(fabs(gen_rgg_radius(2000, 8, 1) - sqrt(8 / (1999 * M_PI))) < 1e-15);
	/* targets above what the space allows are cut to its radius */
	cr_assert_eq(gen_rgg_radius(50, 1000, 0), 1.0);
	cr_assert_eq(gen_rgg_radius(50, 1000, 1), 0.5);
	cr_assert_eq(gen_rgg_radius(1, 5, 0), 0.0);
	gen_graph_free(&g);
}

Test(gen_rgg, clusters_are_the_non_empty_cells)
{
	struct gen_params p = params(GEN_RGG, 30);
	gen_graph g;
	int32_t u, c, cell[30], seen[16], K = 0;
	int64_t e, within = 0;

	p.radius = 0.3;
	p.cells = 4;
	p.K = 16;
	gen_graph_init(&g);
	gen_make(&p, 18, 0, &g);
	for (c = 0; c < 16; c++)
		seen[c] = 0;
	for (u = 0; u < 30; u++) {
		cell[u] = (int32_t)(g.y[u] * 4) * 4 + (int32_t)(g.x[u] * 4);
		seen[cell[u]] = 1;
	}
	for (c = 0; c < 16; c++)
		K += seen[c];
	cr_assert_eq(g.par.K, K, "K %d, non-empty cells %d", g.par.K, K);
	for (u = 0; u < 30; u++)
		for (c = 0; c < 30; c++)
			cr_assert_eq(g.cluster[u] == g.cluster[c], cell[u] == cell[c]);
	for (u = 0; u < 30; u++) /* numbered in cell order */
		for (c = 0; c < 30; c++)
			cr_assert(cell[u] >= cell[c] || g.cluster[u] < g.cluster[c]);
	for (e = 0; e < g.m; e++)
		within += cell[g.u[e]] == cell[g.v[e]];
	cr_assert_eq(g.within, within);
	gen_graph_free(&g);
}

/* ---- R-MAT ---- */

Test(gen_rmat, drawn_edges_are_accounted_for)
{
	static const int32_t ns[] = { 1, 2, 600, 1024, 1025 };
	gen_graph g;
	graph csr;
	size_t i;

	gen_graph_init(&g);
	graph_init(&csr);
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		struct gen_params p = params(GEN_RMAT, ns[i]);

		p.a = 0.57;
		p.b = p.c = 0.19;
		p.d = 0.05;
		p.drawn = 8 * (int64_t)ns[i];
		gen_make(&p, 19, i, &g);
		canonical(&g, &csr);
		cr_assert_eq(g.m + g.loops + g.dups, p.drawn, "n %d: %lld + %lld + %lld", ns[i],
			     (long long)g.m, (long long)g.loops, (long long)g.dups);
	}
	graph_free(&csr);
	gen_graph_free(&g);
}

Test(gen_rmat, self_loops_follow_the_recursion)
{
	/* n = 2^10: an edge is a self-loop when it picks a or d at each of the
	 * 10 levels, probability (a + d)^10 = 0.62^10.  30 graphs of 8192
	 * edges drawn: 2085 loops expected, Poisson sd 46. */
	struct gen_params p = params(GEN_RMAT, 1024);
	gen_graph g;
	int64_t loops = 0;
	double want = 30 * 8192 * pow(0.62, 10);
	int i;

	p.a = 0.57;
	p.b = p.c = 0.19;
	p.d = 0.05;
	p.drawn = 8192;
	gen_graph_init(&g);
	for (i = 0; i < 30; i++) {
		gen_make(&p, 20, (uint64_t)i, &g);
		loops += g.loops;
	}
	cr_assert(fabs(loops - want) < 5 * sqrt(want), "loops %lld, want %g", (long long)loops,
		  want);
	/* a = 1 puts every edge on node 0 - 0 */
	p.a = 1;
	p.b = p.c = p.d = 0;
	gen_make(&p, 20, 99, &g);
	cr_assert(g.m == 0 && g.loops == 8192);
	gen_graph_free(&g);
}

/* ---- Erdos-Renyi ---- */

Test(gen_er, edge_count_and_extremes)
{
	/* G(500, 0.02): m ~ Binomial(124750, 0.02), mean 2495, sd 49.4;
	 * 20 graphs: the sum within 5 sd, 5 * 221. */
	struct gen_params p = params(GEN_ER, 500);
	gen_graph g;
	graph csr;
	int64_t m = 0;
	int i;

	p.p = 0.02;
	gen_graph_init(&g);
	graph_init(&csr);
	for (i = 0; i < 20; i++) {
		gen_make(&p, 21, (uint64_t)i, &g);
		canonical(&g, &csr);
		m += g.m;
	}
	cr_assert(llabs(m - 20 * 2495) < 5 * 221, "edges %lld", (long long)m);
	p.p = 1;
	gen_make(&p, 21, 99, &g);
	cr_assert_eq(g.m, 500 * 499 / 2);
	canonical(&g, &csr);
	p.p = 0;
	gen_make(&p, 21, 99, &g);
	cr_assert_eq(g.m, 0);
	graph_free(&csr);
	gen_graph_free(&g);
}

/* ---- parameters, determinism, edge cases ---- */

Test(gen_params, draws_stay_in_ranges_and_follow_the_weights)
{
	struct gen_ranges R = ranges();
	struct gen_params p;
	int count[GEN_FAMILIES] = { 0 }, f, i;

	R.weight[GEN_BA] = 3; /* ba 3/8, the other five 1/8 each */
	for (i = 0; i < 16000; i++) {
		gen_draw_params(&R, 22, (uint64_t)i, &p);
		count[p.family]++;
		cr_assert(p.n >= 100 && p.n <= 2000);
		switch (p.family) {
		case GEN_BA:
			cr_assert(p.m >= 1 && p.m <= 8);
			break;
		case GEN_HK:
			cr_assert(p.m >= 1 && p.m <= 8 && p.p >= 0 && p.p < 1);
			break;
		case GEN_WS:
			cr_assert(p.k >= 2 && p.k <= 16 && p.k % 2 == 0 && p.p < 0.3);
			cr_assert(p.K >= 2 && p.K <= 10);
			break;
		case GEN_RGG:
			cr_assert(p.degree >= 2 && p.degree < 16 && p.cells >= 2 && p.cells <= 3);
			cr_assert(fabs(gen_rgg_degree(p.n, p.radius, 0) - p.degree) < 1e-9);
			break;
		case GEN_RMAT:
			cr_assert(fabs(p.a + p.b + p.c + p.d - 1) < 1e-12 && p.ef >= 1 &&
				  p.ef < 8 && p.drawn == llround(p.ef * p.n));
			break;
		default:
			cr_assert(fabs(p.p * (p.n - 1) - p.degree) < 1e-9);
		}
	}
	/* at least as close as binomial counts: sd sqrt(16000 q (1 - q)), 61
	 * for q = 3/8, 42 for 1/8 */
	cr_assert(abs(count[GEN_BA] - 6000) < 5 * 61, "ba %d", count[GEN_BA]);
	for (f = 1; f < GEN_FAMILIES; f++)
		cr_assert(abs(count[f] - 2000) < 5 * 42, "%s %d", gen_family_names[f], count[f]);
	/* the golden-ratio sequence: any 120 consecutive ids hold ba 45 and
	 * the others 15 times each, to within 3 */
	for (i = 0; i < 16000 - 120; i += 97) {
		int w[GEN_FAMILIES] = { 0 }, j;

		for (j = i; j < i + 120; j++) {
			gen_draw_params(&R, 22, (uint64_t)j, &p);
			w[p.family]++;
		}
		for (f = 0; f < GEN_FAMILIES; f++)
			cr_assert(abs(w[f] - (f == GEN_BA ? 45 : 15)) <= 3, "ids %d..: %s %d", i,
				  gen_family_names[f], w[f]);
	}
	R.weight[GEN_ER] = 0;
	for (i = 0; i < 2000; i++) {
		gen_draw_params(&R, 22, (uint64_t)i, &p);
		cr_assert(p.family != GEN_ER);
	}
}

Test(gen_params, small_graphs_cut_what_they_cannot_take)
{
	struct gen_ranges R = ranges();
	struct gen_params p;
	int i;

	R.nodes[0] = 1;
	R.nodes[1] = 9;
	R.ba_m[0] = R.ba_m[1] = 8;
	R.ws_k[0] = R.ws_k[1] = 16;
	R.ws_arcs[0] = R.ws_arcs[1] = 10;
	for (i = 0; i < 3000; i++) {
		gen_draw_params(&R, 23, (uint64_t)i, &p);
		if (p.family == GEN_BA)
			cr_assert(p.m == (p.n > 8 ? 8 : p.n - 1), "n %d m %d", p.n, p.m);
		if (p.family == GEN_HK)
			cr_assert(p.m < p.n && (p.m >= 1 || p.n == 1), "n %d m %d", p.n, p.m);
		if (p.family == GEN_WS)
			cr_assert(p.k == ((p.n - 1) & ~1) && p.K == p.n, "n %d k %d K %d", p.n, p.k,
				  p.K);
		if (p.family == GEN_RGG)
			cr_assert(p.K <= p.n);
	}
}

Test(gen_params, one_family_s_ranges_leave_the_others_alone)
{
	struct gen_ranges R = ranges(), R2 = ranges();
	struct gen_params p, p2;
	int i, ba = 0;

	R2.ws_k[0] = R2.ws_k[1] = 4;
	R2.rgg_degree[0] = 3;
	R2.hk_p[1] = 0.5;
	for (i = 0; i < 300; i++) {
		gen_draw_params(&R, 24, (uint64_t)i, &p);
		gen_draw_params(&R2, 24, (uint64_t)i, &p2);
		cr_assert(p.family == p2.family && p.n == p2.n);
		if (p.family == GEN_BA || p.family == GEN_RMAT || p.family == GEN_ER) {
			cr_assert(memcmp(&p, &p2, sizeof p) == 0, "graph %d changed", i);
			ba++;
		}
	}
	cr_assert(ba > 100);
}

Test(gen_determinism, graph_i_independent_of_the_others)
{
	struct gen_ranges R = ranges();
	struct gen_params p;
	gen_graph one, loop;
	uint64_t i, j;

	gen_graph_init(&one);
	gen_graph_init(&loop);
	/* every family: graph j alone, fresh buffers == graph j after others */
	for (j = 0; j < 12; j++) {
		gen_draw_params(&R, 25, j, &p);
		gen_make(&p, 25, j, &one);
		for (i = 0; i <= j + 1; i++) {
			struct gen_params q;

			gen_draw_params(&R, 25, i == j + 1 ? j : i, &q);
			gen_make(&q, 25, i == j + 1 ? j : i, &loop);
		}
		cr_assert(same_graph(&one, &loop), "graph %d (%s) changed after others", (int)j,
			  gen_family_names[p.family]);
		gen_make(&p, 26, j, &loop);
		cr_assert(!same_graph(&one, &loop) || one.m == 0, "seed 26 gave seed 25's graph");
	}
	gen_graph_free(&one);
	gen_graph_free(&loop);
}

Test(gen_edge_cases, one_and_two_nodes)
{
	gen_graph g;
	graph csr;
	int f, n;

	gen_graph_init(&g);
	graph_init(&csr);
	for (f = 0; f < GEN_FAMILIES; f++)
		for (n = 1; n <= 3; n++) {
			struct gen_params p = params(f, n);

			p.m = n > 1; /* ba, hk: m < n */
			p.k = n == 3 ? 2 : 0;
			p.K = f == GEN_WS ? n : f == GEN_RGG ? 1 : 0;
			p.cells = 1;
			p.p = 1;
			p.radius = 1;
			p.a = 0.25;
			p.b = p.c = p.d = 0.25;
			p.drawn = 4 * n;
			gen_make(&p, 27, 0, &g);
			canonical(&g, &csr);
			cr_assert(g.n == n && g.m <= n * (n - 1) / 2, "%s n %d: %lld edges",
				  gen_family_names[f], n, (long long)g.m);
		}
	gen_graph_free(&g);
	graph_free(&csr);
}

/* ---- the mix and the checks ---- */

Test(gen_family, parse_and_list)
{
	double w[GEN_FAMILIES];
	char msg[256], buf[128];

	cr_assert(gen_family_parse("ba:2,ws,rgg:0.5", w, msg, sizeof msg) == 0, "%s", msg);
	cr_assert(w[GEN_BA] == 2 && w[GEN_WS] == 1 && w[GEN_RGG] == 0.5 && w[GEN_HK] == 0 &&
		  w[GEN_RMAT] == 0 && w[GEN_ER] == 0);
	cr_assert_str_eq(gen_family_list(w, buf, sizeof buf), "ba:2,ws,rgg:0.5");
	cr_assert(gen_family_parse("er", w, msg, sizeof msg) == 0 && w[GEN_ER] == 1);
	cr_assert(gen_family_parse("bb", w, msg, sizeof msg) == -1 && strstr(msg, "'bb'"));
	cr_assert(gen_family_parse("ba,ba", w, msg, sizeof msg) == -1 && strstr(msg, "twice"));
	cr_assert(gen_family_parse("ba:0", w, msg, sizeof msg) == -1 && strstr(msg, "weight"));
	cr_assert(gen_family_parse("ba:x", w, msg, sizeof msg) == -1);
	cr_assert(gen_family_parse("ba:1:2", w, msg, sizeof msg) == -1);
	cr_assert(gen_family_parse("ba,", w, msg, sizeof msg) == -1);
	cr_assert(gen_family_parse("", w, msg, sizeof msg) == -1);
	cr_assert(gen_family_parse("ba:nan", w, msg, sizeof msg) == -1);
}

Test(gen_ranges, check_names_the_option)
{
	struct gen_ranges R = ranges(), B;
	char msg[256];

	cr_assert(gen_ranges_check(&R, msg, sizeof msg) == 0, "%s", msg);
	B = R;
	B.ws_k[0] = B.ws_k[1] = 5;
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--ws-k"));
	B.ws_k[1] = 6; /* 5..6 holds 6 */
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == 0, "%s", msg);
	B = R;
	B.rmat_a[0] = B.rmat_a[1] = 0.7; /* a + b + c = 1.08 */
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--rmat"));
	B = R;
	B.rmat_a[0] = 0.1; /* a below b */
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--rmat-a"));
	B = R;
	B.rmat_a[0] = B.rmat_a[1] = 0.3;
	B.rmat_b[0] = B.rmat_b[1] = B.rmat_c[0] = B.rmat_c[1] = 0.1; /* d = 0.5 > a */
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--rmat-a"));
	B = R;
	B.rgg_torus = 1;
	B.rgg_radius[1] = 0.6;
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--rgg-radius"));
	B = R;
	memset(B.weight, 0, sizeof B.weight);
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--family"));
	B = R;
	B.nodes[0] = 0;
	cr_assert(gen_ranges_check(&B, msg, sizeof msg) == -1 && strstr(msg, "--nodes"));
}
