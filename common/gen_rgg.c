/*
 * gen_rgg.c - random geometric graphs: n uniform points of the unit
 * square or torus, each pair within distance r joined; the cells of a
 * grid over the square as clusters.  See gen.h and gen_int.h.
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gen_int.h"

/* P(|X - Y| <= r) for X, Y uniform: on the torus pi r^2 (r <= 1/2); on
 * the square pi r^2 - 8 r^3 / 3 + r^4 / 2 (r <= 1), the disc cut by the
 * border (Ghosh's distance distribution of the unit square). */
static double
pair_prob(double r, int torus)
{
	if (torus)
		return M_PI * r * r;
	return M_PI * r * r - 8.0 / 3.0 * r * r * r + 0.5 * r * r * r * r;
}

double
gen_rgg_degree(int32_t n, double r, int torus)
{
	double rmax = torus ? 0.5 : 1.0;

	if (n < 2 || !(r > 0))
		return 0;
	return (n - 1) * pair_prob(r < rmax ? r : rmax, torus);
}

double
gen_rgg_radius(int32_t n, double degree, int torus)
{
	double rmax = torus ? 0.5 : 1.0, lo = 0, hi = rmax, mid;
	int i;

	if (n < 2 || !(degree > 0))
		return 0;
	if (degree >= gen_rgg_degree(n, rmax, torus))
		return rmax;
	if (torus)
		return sqrt(degree / ((n - 1) * M_PI));
	/* pair_prob grows on (0, 1]: its derivative r (2 pi - 8 r + 2 r^2) > 0 */
	for (i = 0; i < 100; i++) {
		mid = 0.5 * (lo + hi);
		if (gen_rgg_degree(n, mid, 0) < degree)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* The cell of a coordinate on a grid of c cells a side. */
static int32_t
cell(double x, int32_t c)
{
	int32_t i = (int32_t)(x * c);

	return i < c ? i : c - 1;
}

/* Node a - b as an edge if their points are within r. */
static void
try_pair(const gen_graph *g, struct gen_work *w, int64_t *m, int32_t a, int32_t b, double r2,
	 int torus)
{
	double dx = fabs(g->x[a] - g->x[b]), dy = fabs(g->y[a] - g->y[b]);

	if (torus) {
		dx = dx > 0.5 ? 1 - dx : dx;
		dy = dy > 0.5 ? 1 - dy : dy;
	}
	if (dx * dx + dy * dy > r2)
		return;
	w->eu = geni_grow(w->eu, &w->cap_eu, *m + 1, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, *m + 1, sizeof *w->ev);
	w->eu[*m] = a;
	w->ev[*m] = b;
	(*m)++;
}

/* Cluster labels: the non-empty cells of the cells x cells grid, numbered
 * in the grid's row-major order; their count into g->par.K. */
static void
clusters(const struct gen_params *p, struct gen_work *w, gen_graph *g)
{
	int32_t c = p->cells, u, K = 0;
	int64_t i, cc = (int64_t)c * c;

	w->cmap = geni_grow(w->cmap, &w->cap_cmap, cc, sizeof *w->cmap);
	memset(w->cmap, 0, (size_t)cc * sizeof *w->cmap);
	for (u = 0; u < p->n; u++)
		w->cmap[(int64_t)cell(g->y[u], c) * c + cell(g->x[u], c)] = 1;
	for (i = 0; i < cc; i++)
		w->cmap[i] = w->cmap[i] ? K++ : -1;
	for (u = 0; u < p->n; u++)
		g->cluster[u] = w->cmap[(int64_t)cell(g->y[u], c) * c + cell(g->x[u], c)];
	g->par.K = K;
}

/* The nodes bucketed by the cells of a grid of c >= 3 cells a side
 * (cells at least r wide), then every pair of one cell and of each cell
 * with its four forward neighbours (right, and the three below), which
 * meets every pair of neighbouring cells once, wrapping on the torus. */
static int64_t
grid_pairs(const struct gen_params *p, struct gen_work *w, gen_graph *g, int32_t c)
{
	static const int off[4][2] = { { 1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } };
	int64_t cc = (int64_t)c * c, m = 0, a, b, i, q;
	double r2 = p->radius * p->radius;
	int32_t u, cx, cy, nx, ny;
	int t;

	w->cstart = geni_grow(w->cstart, &w->cap_cstart, cc + 1, sizeof *w->cstart);
	w->corder = geni_grow(w->corder, &w->cap_corder, p->n, sizeof *w->corder);
	memset(w->cstart, 0, (size_t)(cc + 1) * sizeof *w->cstart);
	for (u = 0; u < p->n; u++)
		w->cstart[(int64_t)cell(g->y[u], c) * c + cell(g->x[u], c) + 1]++;
	for (i = 0; i < cc; i++)
		w->cstart[i + 1] += w->cstart[i];
	for (u = 0; u < p->n; u++) /* cstart[q] ends as the end of cell q - 1 */
		w->corder[w->cstart[(int64_t)cell(g->y[u], c) * c + cell(g->x[u], c)]++] = u;
	memmove(w->cstart + 1, w->cstart, (size_t)cc * sizeof *w->cstart);
	w->cstart[0] = 0;
	for (q = 0; q < cc; q++) {
		cy = (int32_t)(q / c);
		cx = (int32_t)(q % c);
		for (a = w->cstart[q]; a < w->cstart[q + 1]; a++)
			for (b = a + 1; b < w->cstart[q + 1]; b++)
				try_pair(g, w, &m, w->corder[a], w->corder[b], r2, p->torus);
		for (t = 0; t < 4; t++) {
			nx = cx + off[t][0];
			ny = cy + off[t][1];
			if (p->torus) {
				nx = (nx + c) % c;
				ny = ny % c;
			} else if (nx < 0 || nx >= c || ny >= c) {
				continue;
			}
			i = (int64_t)ny * c + nx;
			for (a = w->cstart[q]; a < w->cstart[q + 1]; a++)
				for (b = w->cstart[i]; b < w->cstart[i + 1]; b++)
					try_pair(g, w, &m, w->corder[a], w->corder[b], r2,
						 p->torus);
		}
	}
	return m;
}

/*
 * Points x_u then y_u for u = 0 .. n-1, uniform on [0, 1); u - v an edge
 * when their distance (on the torus, the shorter way round each axis) is
 * at most the radius, as networkx's random_geometric_graph (which has no
 * torus).  The neighbour search uses a grid of floor(1 / r) cells a side,
 * at most sqrt(n), so it takes O(n + m) expected time; below 3 cells a
 * side it tries every pair.
 */
int64_t
geni_rgg(const struct gen_params *p, struct gen_work *w, gen_graph *g)
{
	int32_t n = p->n, u, v, c;
	double r2 = p->radius * p->radius, side = floor(sqrt((double)n));
	int64_t m = 0, want = (int64_t)(0.55 * n * gen_rgg_degree(n, p->radius, p->torus)) + 16;

	g->x = geni_grow(g->x, &w->cap_x, n, sizeof *g->x);
	g->y = geni_grow(g->y, &w->cap_y, n, sizeof *g->y);
	for (u = 0; u < n; u++) {
		g->x[u] = gsl_rng_uniform(w->r);
		g->y[u] = gsl_rng_uniform(w->r);
	}
	if (p->cells > 0)
		clusters(p, w, g);
	if (!(p->radius > 0) || n < 2)
		return 0;
	w->eu = geni_grow(w->eu, &w->cap_eu, want, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, want, sizeof *w->ev);
	c = (int32_t)fmin(floor(1.0 / p->radius), side);
	if (c >= 3)
		return grid_pairs(p, w, g, c);
	for (u = 0; u < n; u++)
		for (v = u + 1; v < n; v++)
			try_pair(g, w, &m, u, v, r2, p->torus);
	return m;
}
