/* nodefeat.c - degree, core number, CI_1, clustering; see nodefeat.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "err.h"
#include "nodefeat.h"

void
nodefeat_ws_init(features_ws *ws)
{
	memset(ws, 0, sizeof *ws);
}

void
nodefeat_ws_free(features_ws *ws)
{
	if (ws == NULL)
		return;
	free(ws->i32);
	free(ws->i64);
	nodefeat_ws_init(ws);
}

/* Grow one workspace array (*p, *cap elements of size sz) to n elements. */
static void *
ws_grow(void **p, size_t *cap, size_t n, size_t sz)
{
	if (n == 0)
		n = 1;
	if (n > *cap) {
		free(*p);
		*p = xmallocarray(n, sz);
		*cap = n;
	}
	return *p;
}

/* (Any use of the scratch forgets the counts of nodefeat_counts.) */
static int32_t *
ws_i32(features_ws *ws, size_t n)
{
	ws->counted = -1;
	return ws_grow((void **)&ws->i32, &ws->cap_i32, n, sizeof *ws->i32);
}

static int64_t *
ws_i64(features_ws *ws, size_t n)
{
	ws->counted = -1;
	return ws_grow((void **)&ws->i64, &ws->cap_i64, n, sizeof *ws->i64);
}

/* Progress of nodefeat_counts: nodes through the triangle count, then
 * through the core peeling (2 n in all), added up by every thread in
 * steps of FP_STEP and told to ws's hook by thread 0 (the caller's). */
#define FP_STEP 4096
struct fprog {
	const features_ws *ws;
	int64_t done, total;
};

static void
fprog_add(struct fprog *fp, int64_t nodes)
{
	int64_t d;

	if (fp == NULL || fp->ws->on_progress == NULL)
		return;
#pragma omp atomic capture
	d = fp->done += nodes;
	if (omp_get_thread_num() == 0)
		fp->ws->on_progress(fp->ws->progress_arg, d, fp->total);
}

static int32_t
max_degree(const graph *g)
{
	int32_t v, md = 0;

	for (v = 0; v < g->n; v++)
		if (graph_degree(g, v) > md)
			md = graph_degree(g, v);
	return md;
}

/* Batagelj and Zaversnik, "An O(m) Algorithm for Cores Decomposition of
 * Networks" (2003), algorithm 1.  core doubles as the current degree.
 * scratch: pos (n), vert (n), bin (md + 1) int32. */
static void
core_impl(const graph *g, int32_t md, int32_t *core, int32_t *pos, int32_t *vert, int32_t *bin,
	  struct fprog *fp)
{
	int32_t n = g->n, v, i, d, start = 0, num;
	int64_t p;

	for (v = 0; v < n; v++)
		core[v] = graph_degree(g, v);
	memset(bin, 0, ((size_t)md + 1) * sizeof *bin);
	for (v = 0; v < n; v++)
		bin[core[v]]++;
	for (d = 0; d <= md; d++) { /* bucket starts */
		num = bin[d];
		bin[d] = start;
		start += num;
	}
	for (v = 0; v < n; v++) { /* nodes sorted by degree */
		pos[v] = bin[core[v]];
		vert[pos[v]] = v;
		bin[core[v]]++;
	}
	for (i = md; i > 0; i--)
		bin[i] = bin[i - 1];
	bin[0] = 0;
	for (i = 0; i < n; i++) { /* peel in order of current degree */
		if ((i + 1) % FP_STEP == 0)
			fprog_add(fp, FP_STEP);
		v = vert[i];
		for (p = g->off[v]; p < g->off[v + 1]; p++) {
			int32_t u = g->adj[p];
			if (core[u] > core[v]) {
				int32_t du = core[u], pu = pos[u], pw = bin[du];
				int32_t w = vert[pw];
				if (u != w) { /* move u to the front of its bucket */
					pos[u] = pw;
					vert[pu] = w;
					pos[w] = pu;
					vert[pw] = u;
				}
				bin[du]++;
				core[u]--;
			}
		}
	}
}

void
nodefeat_core_number(const graph *g, int32_t *core, features_ws *ws)
{
	features_ws own;
	int32_t md, *scratch;

	if (g->n == 0)
		return;
	if (ws == NULL)
		nodefeat_ws_init(&own);
	md = max_degree(g);
	scratch = ws_i32(ws ? ws : &own, 2 * (size_t)g->n + (size_t)md + 1);
	core_impl(g, md, core, scratch, scratch + g->n, scratch + 2 * (size_t)g->n, NULL);
	if (ws == NULL)
		nodefeat_ws_free(&own);
}

/* Rank order for the orientation: lower degree first, ties by id. */
static inline int
before(int32_t du, int32_t u, int32_t dv, int32_t v)
{
	return du < dv || (du == dv && u < v);
}

/* Triangles found from node v (the lowest-ranked node of each of them).
 * mark[x] is 1 on the out-neighbours of v during the call, 0 elsewhere
 * before and after (a byte a node: a quarter of the int32 stamps it
 * replaced).  Counts are integers, so the order of the (atomic)
 * increments does not change the result. */
static inline void
tri_from(const int64_t *ooff, const int32_t *oadj, int32_t v, uint8_t *mark, int64_t *tri,
	 int atomic)
{
	int64_t p, q, here = 0;

	for (p = ooff[v]; p < ooff[v + 1]; p++)
		mark[oadj[p]] = 1;
	for (p = ooff[v]; p < ooff[v + 1]; p++) {
		int32_t w = oadj[p];
		int64_t cw = 0;
		for (q = ooff[w]; q < ooff[w + 1]; q++) {
			int32_t x = oadj[q];
			if (mark[x]) {
				cw++;
				if (atomic) {
#pragma omp atomic
					tri[x]++;
				} else {
					tri[x]++;
				}
			}
		}
		if (cw) {
			here += cw;
			if (atomic) {
#pragma omp atomic
				tri[w] += cw;
			} else {
				tri[w] += cw;
			}
		}
	}
	for (p = ooff[v]; p < ooff[v + 1]; p++)
		mark[oadj[p]] = 0;
	if (here) {
		if (atomic) {
#pragma omp atomic
			tri[v] += here;
		} else {
			tri[v] += here;
		}
	}
}

/* Threads the triangle count will use on g. */
static int
tri_threads(const graph *g)
{
	return 2 * g->m >= FEATURES_PAR_MIN_ARCS ? omp_get_max_threads() : 1;
}

/* int32 elements of the arcs and marks of tri_impl: m, then n * nth bytes. */
static size_t
tri_i32(const graph *g, int nth)
{
	return (size_t)g->m + ((size_t)g->n * (size_t)nth + 3) / 4;
}

/* ooff: n + 1 int64; oadj: tri_i32() int32 (the byte marks follow the
 * arcs). */
static void
tri_impl(const graph *g, int64_t *tri, int64_t *ooff, int32_t *oadj, int nth, struct fprog *fp)
{
	int32_t n = g->n, v;
	uint8_t *mark = (uint8_t *)(oadj + g->m);
	int64_t p;

	if (n <= 0)
		return;
	/* Oriented CSR: row v keeps the neighbours ranked after v. */
	ooff[0] = 0;
	for (v = 0; v < n; v++) {
		int32_t dv = graph_degree(g, v);
		int64_t k = ooff[v];
		for (p = g->off[v]; p < g->off[v + 1]; p++) {
			int32_t u = g->adj[p];
			if (before(dv, v, graph_degree(g, u), u))
				oadj[k++] = u;
		}
		ooff[v + 1] = k;
	}
	memset(tri, 0, (size_t)n * sizeof *tri);
	if (nth <= 1) {
		memset(mark, 0, (size_t)n);
		for (v = 0; v < n; v++) {
			tri_from(ooff, oadj, v, mark, tri, 0);
			if ((v + 1) % FP_STEP == 0)
				fprog_add(fp, FP_STEP);
		}
		return;
	}
#pragma omp parallel num_threads(nth)
	{
		uint8_t *mk = mark + (size_t)n * (size_t)omp_get_thread_num();
		int32_t x, mine = 0;

		memset(mk, 0, (size_t)n);
#pragma omp for schedule(dynamic, 64)
		for (x = 0; x < n; x++) {
			tri_from(ooff, oadj, x, mk, tri, 1);
			if (++mine == FP_STEP) {
				fprog_add(fp, mine);
				mine = 0;
			}
		}
	}
}

void
nodefeat_triangles(const graph *g, int64_t *tri, features_ws *ws)
{
	features_ws own;
	int nth;

	if (g->n == 0)
		return;
	if (ws == NULL) {
		nodefeat_ws_init(&own);
		ws = &own;
	}
	nth = tri_threads(g);
	tri_impl(g, tri, ws_i64(ws, (size_t)g->n + 1), ws_i32(ws, tri_i32(g, nth)), nth, NULL);
	if (ws == &own)
		nodefeat_ws_free(&own);
}

/* CI_1(v) = (deg v - 1) * sum_{u in N(v)} (deg u - 1); 0 when deg v < 2.
 * Both factors are exact integers below 2^53, so this is the correctly
 * rounded product (exact while it stays below 2^53). */
static inline double
ci1_of(const graph *g, int32_t v)
{
	int32_t d = graph_degree(g, v);
	int64_t s = 0, p;

	if (d < 2)
		return 0.0;
	for (p = g->off[v]; p < g->off[v + 1]; p++)
		s += graph_degree(g, g->adj[p]) - 1;
	return (double)(d - 1) * (double)s;
}

/* networkx: t / (d (d - 1)) with t = 2 T, one rounding; 0 for d < 2. */
static inline double
clustering_of(int32_t d, int64_t t)
{
	return (d < 2 || t == 0) ? 0.0 : (double)(2 * t) / ((double)d * (double)(d - 1));
}

void
nodefeat_ci1(const graph *g, double *ci)
{
	int32_t v;

	for (v = 0; v < g->n; v++)
		ci[v] = ci1_of(g, v);
}

void
nodefeat_clustering(const graph *g, double *cc, features_ws *ws)
{
	features_ws own;
	int32_t n = g->n, v;
	int64_t *i64;
	int nth;

	if (n == 0)
		return;
	if (ws == NULL) {
		nodefeat_ws_init(&own);
		ws = &own;
	}
	nth = tri_threads(g);
	i64 = ws_i64(ws, 2 * (size_t)n + 1);
	tri_impl(g, i64, i64 + n, ws_i32(ws, tri_i32(g, nth)), nth, NULL);
	for (v = 0; v < n; v++)
		cc[v] = clustering_of(graph_degree(g, v), i64[v]);
	if (ws == &own)
		nodefeat_ws_free(&own);
}

/* The int32 scratch of nodefeat_counts: the arcs and marks of the
 * triangle count, then vert (n) and bin (md + 1) of the core peeling. */
static size_t
counts_i32(const graph *g, int nth, int32_t md)
{
	size_t a = tri_i32(g, nth), b = (size_t)g->n + (size_t)md + 1;

	return a > b ? a : b;
}

void
nodefeat_counts(const graph *g, features_ws *ws)
{
	int32_t n = g->n, md, *i32, *core;
	int64_t *i64;
	struct fprog fp;
	int nth;

	ws->counted = -1;
	if (n == 0)
		return;
	/* i64 = [tri (n) | ooff (n + 1)]; once the triangles are counted,
	 * ooff's room holds core (n) and pos (n) of the peeling, and the
	 * arcs' room vert and bin: the counts stay, the rest is reused. */
	nth = tri_threads(g);
	md = max_degree(g);
	i64 = ws_i64(ws, 2 * (size_t)n + 1);
	i32 = ws_i32(ws, counts_i32(g, nth, md));
	fp.ws = ws;
	fp.done = 0;
	fp.total = 2 * (int64_t)n;
	tri_impl(g, i64, i64 + n, i32, nth, &fp);
	fp.done = n; /* (the threads' remainders) */
	core = (int32_t *)(i64 + n);
	core_impl(g, md, core, core + n, i32, i32 + n, &fp);
	if (ws->on_progress)
		ws->on_progress(ws->progress_arg, fp.total, fp.total);
	ws->counted = n;
}

void
nodefeat_rows(const graph *g, const features_ws *ws, double *out)
{
	const int64_t *tri = ws->i64;
	const int32_t *core = (const int32_t *)(ws->i64 + g->n);
	int32_t v;

	if (g->n == 0)
		return;
	if (ws->counted != g->n)
		die("nodefeat_rows: no counts of this graph in the workspace");
	for (v = 0; v < g->n; v++) {
		double *row = out + (size_t)v * FEAT_N;
		row[FEAT_DEGREE] = graph_degree(g, v);
		row[FEAT_CORE] = core[v];
		row[FEAT_CI1] = ci1_of(g, v);
		row[FEAT_CLUSTERING] = clustering_of(graph_degree(g, v), tri[v]);
	}
}

void
nodefeat_raw(const graph *g, double *out, features_ws *ws)
{
	features_ws own;

	if (g->n == 0)
		return;
	if (ws == NULL) {
		nodefeat_ws_init(&own);
		ws = &own;
	}
	nodefeat_counts(g, ws);
	nodefeat_rows(g, ws, out);
	if (ws == &own)
		nodefeat_ws_free(&own);
}

double
nodefeat_ws_bytes(int32_t n, int64_t m)
{
	/* tri_threads() and max_degree() at their largest: every thread, and
	 * md <= min(n - 1, m) */
	double nth = 2 * m >= FEATURES_PAR_MIN_ARCS ? omp_get_max_threads() : 1;
	double i32 = fmax((double)m + ceil((double)n * nth / 4),
			  (double)n + fmin((double)n - 1, (double)m) + 1);

	return 8 * (2.0 * n + 1) + 4 * i32;
}

void
nodefeat_normalise(const double *raw, int32_t n, double *out)
{
	double lo[FEAT_N], hi[FEAT_N];
	int32_t v;
	int c;

	if (n <= 0)
		return;
	for (c = 0; c < FEAT_N; c++)
		lo[c] = hi[c] = raw[c];
	for (v = 1; v < n; v++)
		for (c = 0; c < FEAT_N; c++) {
			double x = raw[(size_t)v * FEAT_N + c];
			if (x < lo[c])
				lo[c] = x;
			if (x > hi[c])
				hi[c] = x;
		}
	for (v = 0; v < n; v++) {
		const double *r = raw + (size_t)v * FEAT_N;
		double *o = out + (size_t)v * FEAT_N;
		for (c = 0; c < FEAT_N; c++) {
			if (c == FEAT_CLUSTERING)
				o[c] = r[c];
			else
				o[c] = hi[c] > lo[c] ? (r[c] - lo[c]) / (hi[c] - lo[c]) : 0.0;
		}
	}
}

int
nodefeat_scale(const double *raw, int32_t n, double *out, int mode)
{
	int32_t v;

	if (mode == FEAT_SCALE_MINMAX) {
		nodefeat_normalise(raw, n, out);
		return 0;
	}
	if (mode != FEAT_SCALE_LOG)
		return -1;
	for (v = 0; v < n; v++) {
		const double *r = raw + (size_t)v * FEAT_N;
		double *o = out + (size_t)v * FEAT_N;
		o[FEAT_DEGREE] = log1p(r[FEAT_DEGREE]);
		o[FEAT_CORE] = log1p(r[FEAT_CORE]);
		o[FEAT_CI1] = log1p(r[FEAT_CI1] > 0 ? r[FEAT_CI1] : 0);
		o[FEAT_CLUSTERING] = r[FEAT_CLUSTERING];
	}
	return 0;
}

void
nodefeat_both(double *raw, int32_t n, double *out)
{
	for (int32_t v = 0; v < n; v++) {
		const double *r = raw + (size_t)v * FEAT_N;
		double *o = out + (size_t)v * FEAT_BOTH_N;
		o[FEAT_N + 0] = log1p(r[FEAT_DEGREE]);
		o[FEAT_N + 1] = log1p(r[FEAT_CORE]);
		o[FEAT_N + 2] = log1p(r[FEAT_CI1] > 0 ? r[FEAT_CI1] : 0);
	}
	nodefeat_normalise(raw, n, raw);
	for (int32_t v = 0; v < n; v++)
		memcpy(out + (size_t)v * FEAT_BOTH_N, raw + (size_t)v * FEAT_N,
		       FEAT_N * sizeof *out);
}

int
nodefeat_scale_mode(const char *name)
{
	if (strcmp(name, "minmax") == 0)
		return FEAT_SCALE_MINMAX;
	if (strcmp(name, "log") == 0)
		return FEAT_SCALE_LOG;
	return -1;
}

const char *
nodefeat_scale_name(int mode)
{
	return mode == FEAT_SCALE_LOG ? "log" : "minmax";
}

void
nodefeat_model_input(const graph *g, double *out, features_ws *ws)
{
	nodefeat_raw(g, out, ws);
	nodefeat_normalise(out, g->n, out);
}
