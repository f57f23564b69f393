/*
 * gen.c - random graph families: the mix, the per-graph parameters and
 * the finished graph; the families are in gen_pa.c, gen_ws.c, gen_rgg.c,
 * gen_rmat.c and gen_er.c.  See gen.h.
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gen_int.h"
#include "rng.h"

const char *const gen_family_names[] = { "ba", "hk", "ws", "rgg", "rmat", "er", NULL };

void *
geni_grow(void *p, size_t *cap, int64_t want, size_t size)
{
	size_t more;

	if ((size_t)want <= *cap && p != NULL)
		return p;
	more = *cap + *cap / 2; /* a list grown one edge at a time: amortised */
	*cap = (size_t)want > more ? (size_t)want : more;
	if (*cap == 0)
		*cap = 1;
	return xreallocarray(p, *cap, size);
}

void
gen_graph_init(gen_graph *g)
{
	memset(g, 0, sizeof *g);
}

void
gen_graph_free(gen_graph *g)
{
	struct gen_work *w;

	if (g == NULL)
		return;
	w = g->priv;
	if (w != NULL) {
		free(w->eu);
		free(w->ev);
		free(w->rep);
		free(w->mark);
		free(w->head);
		free(w->next);
		free(w->to);
		free(w->set);
		free(w->deg);
		free(w->cstart);
		free(w->corder);
		free(w->cmap);
		graph_free(&w->csr);
		if (w->r)
			gsl_rng_free(w->r);
		free(w);
	}
	free(g->u);
	free(g->v);
	free(g->cluster);
	free(g->x);
	free(g->y);
	gen_graph_init(g);
}

/* ---- the mix ---- */

int
gen_family_parse(const char *text, double *weight, char *msg, size_t msglen)
{
	const char *s = text, *end;
	char *stop;
	size_t len;
	double x;
	int f;

	for (f = 0; f < GEN_FAMILIES; f++)
		weight[f] = 0;
	for (;;) {
		len = strcspn(s, ":,");
		for (f = 0; f < GEN_FAMILIES; f++)
			if (strlen(gen_family_names[f]) == len &&
			    strncmp(s, gen_family_names[f], len) == 0)
				break;
		if (f == GEN_FAMILIES)
			return snprintf(msg, msglen,
					"'%.*s': unknown family (expected ba, hk, ws, rgg, rmat or "
					"er, as in ba:2,ws)",
					(int)len, s),
			       -1;
		if (weight[f] != 0)
			return snprintf(msg, msglen, "'%s': %s given twice", text,
					gen_family_names[f]),
			       -1;
		x = 1;
		end = s + len;
		if (*end == ':') {
			x = strtod(end + 1, &stop);
			if (stop == end + 1 || (*stop != ',' && *stop != '\0') || !(x > 0) ||
			    x > GEN_MAX_WEIGHT)
				return snprintf(msg, msglen,
						"'%s': the weight of %s must be a number above 0 "
						"and at most %g",
						text, gen_family_names[f], GEN_MAX_WEIGHT),
				       -1;
			end = stop;
		}
		weight[f] = x;
		if (*end == '\0')
			return 0;
		s = end + 1;
	}
}

char *
gen_family_list(const double *weight, char *buf, size_t len)
{
	size_t at = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < GEN_FAMILIES; f++)
		if (weight[f] > 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at,
					       weight[f] == 1 ? "%s%s" : "%s%s:%g", at ? "," : "",
					       gen_family_names[f], weight[f]);
	return buf;
}

void
gen_ranges_default(struct gen_ranges *R)
{
	*R = (struct gen_ranges){ .nodes = { 100, 2000 },
				  .weight = { [GEN_BA] = 1,
					      [GEN_HK] = 1,
					      [GEN_WS] = 1,
					      [GEN_RGG] = 1,
					      [GEN_RMAT] = 1 },
				  .ba_m = { 1, 8 },
				  .hk_m = { 1, 8 },
				  .hk_p = { 0, 1 },
				  .ws_k = { 2, 16 },
				  .ws_p = { 0, 0.3 },
				  .ws_arcs = { 2, 10 },
				  .rgg_degree = { 2, 16 },
				  .rgg_radius = { 0.05, 0.2 },
				  .rgg_cells = { 2, 3 },
				  .rmat_a = { 0.57, 0.57 },
				  .rmat_b = { 0.19, 0.19 },
				  .rmat_c = { 0.19, 0.19 },
				  .rmat_ef = { 1, 8 },
				  .er_degree = { 2, 16 } };
}

/* ---- checks ---- */

/* lo <= hi within [min, max] (each end); else msg names the option. */
static int
bad_range(const double *r, double min, double max, const char *name, char *msg, size_t msglen)
{
	if (r[0] >= min && r[1] <= max && r[0] <= r[1])
		return 0;
	if (r[0] == r[1])
		snprintf(msg, msglen, "%s: %g is out of range %g..%g", name, r[0], min, max);
	else
		snprintf(msg, msglen, "%s: %g..%g is out of range %g..%g", name, r[0], r[1], min,
			 max);
	return -1;
}

static int
bad_irange(const long long *r, double min, double max, const char *name, char *msg, size_t msglen)
{
	double d[2] = { (double)r[0], (double)r[1] };

	return bad_range(d, min, max, name, msg, msglen);
}

int
gen_ranges_check(const struct gen_ranges *R, char *msg, size_t msglen)
{
	double sum = 0;
	int f;

	for (f = 0; f < GEN_FAMILIES; f++) {
		if (!(R->weight[f] >= 0 && R->weight[f] <= GEN_MAX_WEIGHT))
			return snprintf(msg, msglen, "--family: bad weight of %s",
					gen_family_names[f]),
			       -1;
		sum += R->weight[f];
	}
	if (!(sum > 0))
		return snprintf(msg, msglen, "--family: no family to draw"), -1;
	if (bad_irange(R->nodes, 1, (double)GEN_MAX_NODES, "--nodes", msg, msglen) ||
	    bad_irange(R->ba_m, 1, GEN_MAX_DEGREE, "--ba-m", msg, msglen) ||
	    bad_irange(R->hk_m, 1, GEN_MAX_DEGREE, "--hk-m", msg, msglen) ||
	    bad_range(R->hk_p, 0, 1, "--hk-p", msg, msglen) ||
	    bad_irange(R->ws_k, 2, GEN_MAX_DEGREE, "--ws-k", msg, msglen) ||
	    bad_range(R->ws_p, 0, 1, "--ws-p", msg, msglen) ||
	    bad_irange(R->ws_arcs, 1, (double)GEN_MAX_NODES, "--ws-arcs", msg, msglen) ||
	    bad_range(R->rgg_degree, 0, GEN_MAX_DEGREE, "--rgg-degree", msg, msglen) ||
	    bad_range(R->rgg_radius, 0, R->rgg_torus ? 0.5 : 1,
		      R->rgg_torus ? "--rgg-radius (on the torus)" : "--rgg-radius", msg, msglen) ||
	    bad_irange(R->rgg_cells, 1, GEN_MAX_CELLS, "--rgg-cells", msg, msglen) ||
	    bad_range(R->rmat_a, 0, 1, "--rmat-a", msg, msglen) ||
	    bad_range(R->rmat_b, 0, 1, "--rmat-b", msg, msglen) ||
	    bad_range(R->rmat_c, 0, 1, "--rmat-c", msg, msglen) ||
	    bad_range(R->rmat_ef, 0, GEN_MAX_DEGREE, "--rmat-edge-factor", msg, msglen) ||
	    bad_range(R->er_degree, 0, GEN_MAX_DEGREE, "--er-degree", msg, msglen))
		return -1;
	if (R->ws_k[0] == R->ws_k[1] && R->ws_k[0] % 2 != 0)
		return snprintf(msg, msglen, "--ws-k: %lld is odd (the lattice degree is even)",
				R->ws_k[0]),
		       -1;
	/* every draw: d = 1 - a - b - c >= 0, a >= b, a >= c, a >= d */
	if (R->rmat_a[1] + R->rmat_b[1] + R->rmat_c[1] > 1 + 1e-12)
		return snprintf(msg, msglen,
				"--rmat-a, -b, -c: a + b + c may reach %g, above 1 (d = 1 - a - b "
				"- c)",
				R->rmat_a[1] + R->rmat_b[1] + R->rmat_c[1]),
		       -1;
	if (R->rmat_a[0] < R->rmat_b[1] || R->rmat_a[0] < R->rmat_c[1] ||
	    2 * R->rmat_a[0] + R->rmat_b[0] + R->rmat_c[0] < 1 - 1e-12)
		return snprintf(msg, msglen,
				"--rmat-a: a may fall below b, c or d = 1 - a - b - c (R-MAT's a "
				"is the largest quadrant)"),
		       -1;
	return 0;
}

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
