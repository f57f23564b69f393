/*
 * gen_make.c - one graph of the mix: its family and parameters drawn from
 * (seed, id) (gen_draw_params), its expected edges, and the graph itself
 * (gen_make: the family's edges, then the CSR).  Above the families
 * (gen_pa.c, gen_ws.c, gen_rgg.c, gen_rmat.c, gen_er.c) and what they
 * share (gen.c).  See gen.h.
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "err.h"
#include "gen_int.h"
#include "rng.h"

/* ---- parameters ---- */

/* Uniform on [lo, hi) from one draw (one draw even when lo == hi). */
static double
draw_real(gsl_rng *r, const double *range)
{
	return range[0] + (range[1] - range[0]) * gsl_rng_uniform(r);
}

static long long
draw_int(gsl_rng *r, const long long *range)
{
	return range[0] + (long long)rng_uniform_u64(r, (uint64_t)(range[1] - range[0]) + 1);
}

/*
 * The family of graph `stream`: the point u = frac(u0 + stream g) of the
 * golden-ratio Weyl sequence (g = (sqrt 5 - 1) / 2 in 64-bit fixed point,
 * u0 a hash of the seed) on [0, 1) cut into the families' weights, in enum
 * order.  Any run of N consecutive ids then holds each family N w_f /
 * sum(w) times to within a few graphs (the sequence's discrepancy grows
 * as log N), where independent draws would stray by sqrt(N); the family
 * still depends on (seed, stream) only.
 */
static int
draw_family(const struct gen_ranges *R, uint64_t seed, uint64_t stream)
{
	uint64_t x = rng_mix(seed, UINT64_MAX) + stream * 0x9E3779B97F4A7C15ULL;
	double sum = 0, u = (double)(x >> 11) * 0x1p-53, acc = 0;
	int f, last = 0;

	for (f = 0; f < GEN_FAMILIES; f++)
		sum += R->weight[f];
	u *= sum;
	for (f = 0; f < GEN_FAMILIES; f++) {
		if (!(R->weight[f] > 0))
			continue;
		last = f;
		acc += R->weight[f];
		if (u < acc)
			return f;
	}
	return last; /* rounding at the top end */
}

/* ba, hk: m below n; ws: an even k below n, K arcs at most n. */
static int32_t
cut(long long x, long long max)
{
	return (int32_t)(x < max ? x : max);
}

static void
draw_family_params(const struct gen_ranges *R, gsl_rng *r, struct gen_params *p)
{
	long long half[2] = { (R->ws_k[0] + 1) / 2, R->ws_k[1] / 2 };
	int32_t n = p->n;
	double x;

	switch (p->family) {
	case GEN_BA:
		p->m = cut(draw_int(r, R->ba_m), n - 1);
		break;
	case GEN_HK:
		p->m = cut(draw_int(r, R->hk_m), n - 1);
		p->p = draw_real(r, R->hk_p);
		break;
	case GEN_WS:
		p->k = cut(2 * draw_int(r, half), (n - 1) & ~1);
		p->p = draw_real(r, R->ws_p);
		p->K = cut(draw_int(r, R->ws_arcs), n);
		break;
	case GEN_RGG:
		p->torus = R->rgg_torus;
		x = draw_real(r, R->rgg_use_radius ? R->rgg_radius : R->rgg_degree);
		p->radius = R->rgg_use_radius ? x : gen_rgg_radius(n, x, p->torus);
		p->degree = R->rgg_use_radius ? gen_rgg_degree(n, x, p->torus) : x;
		p->cells = (int32_t)draw_int(r, R->rgg_cells);
		p->K = (int32_t)fmin((double)p->cells * p->cells, n); /* at most; see gen.h */
		break;
	case GEN_RMAT:
		p->a = draw_real(r, R->rmat_a);
		p->b = draw_real(r, R->rmat_b);
		p->c = draw_real(r, R->rmat_c);
		p->d = fmax(0, 1 - p->a - p->b - p->c);
		p->ef = draw_real(r, R->rmat_ef);
		p->drawn = llround(p->ef * n);
		break;
	default: /* er */
		p->degree = draw_real(r, R->er_degree);
		p->p = n > 1 ? fmin(1, p->degree / (n - 1)) : 0;
	}
}

void
gen_draw_params(const struct gen_ranges *R, uint64_t seed, uint64_t stream, struct gen_params *p)
{
	uint64_t s = rng_mix(seed, stream);
	gsl_rng *r = rng_new(s, 1);

	memset(p, 0, sizeof *p);
	p->family = draw_family(R, seed, stream);
	p->n = (int32_t)draw_int(r, R->nodes);
	rng_reseed(r, s, 2);
	draw_family_params(R, r, p);
	gsl_rng_free(r);
}

double
gen_expected_edges(const struct gen_params *p)
{
	double n = p->n;

	switch (p->family) {
	case GEN_BA:
	case GEN_HK:
		return (double)p->m * (n - p->m);
	case GEN_WS:
		return n * (p->k / 2);
	case GEN_RGG:
		return 0.5 * n * gen_rgg_degree(p->n, p->radius, p->torus);
	case GEN_RMAT:
		return (double)p->drawn;
	default:
		return 0.5 * n * (n - 1) * p->p;
	}
}

/* ---- the graph ---- */

static struct gen_work *
work(gen_graph *g)
{
	struct gen_work *w = g->priv;

	if (w == NULL) {
		w = g->priv = xcalloc(1, sizeof *w);
		graph_init(&w->csr);
		w->r = gsl_rng_alloc(gsl_rng_mt19937);
		if (w->r == NULL)
			die("out of memory (random generator)");
	}
	return w;
}

void
gen_make(const struct gen_params *p, uint64_t seed, uint64_t stream, gen_graph *g)
{
	struct gen_work *w = work(g);
	struct graph_fix fix = { 0, 0 };
	int64_t m, e;
	char msg[256];

	g->par = *p;
	g->n = p->n;
	g->within = g->rewired = g->triads = g->loops = g->dups = 0;
	if (p->K > 0)
		g->cluster = geni_grow(g->cluster, &w->cap_cluster, p->n, sizeof *g->cluster);
	rng_reseed(w->r, rng_mix(seed, stream), 3);
	switch (p->family) {
	case GEN_BA:
		m = geni_ba(p, w);
		break;
	case GEN_HK:
		m = geni_hk(p, w, g);
		break;
	case GEN_WS:
		m = geni_ws(p, w, g);
		break;
	case GEN_RGG:
		m = geni_rgg(p, w, g);
		break;
	case GEN_RMAT:
		m = geni_rmat(p, w);
		break;
	default:
		m = geni_er(p, w);
	}
	/* The CSR sorts the edges in O(n + m) and proves the graph simple;
	 * R-MAT's drawn edges are simplified here, and counted. */
	if (graph_build(&w->csr, p->n, m, w->eu, w->ev,
			p->family == GEN_RMAT ? GRAPH_SIMPLIFY : GRAPH_STRICT, &fix, msg,
			sizeof msg) != 0)
		die("gen: internal error: %s", msg);
	g->loops = fix.self_loops;
	g->dups = fix.duplicates;
	g->m = w->csr.m;
	g->u = geni_grow(g->u, &w->cap_u, g->m, sizeof *g->u);
	g->v = geni_grow(g->v, &w->cap_v, g->m, sizeof *g->v);
	graph_edges(&w->csr, g->u, g->v);
	for (e = 0; e < g->m && g->par.K > 0; e++)
		g->within += g->cluster[g->u[e]] == g->cluster[g->v[e]];
}
