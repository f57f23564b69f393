/* graphstat.c - one vector of structural statistics per graph; see
 * graphstat.h for the definitions, edge cases and costs. */
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "graphstat.h"
#include "rng.h"

const char *const gstat_name[GSTAT_N] = {
	"log_nodes",	  "log_edges",	   "density",	    "log_mean_degree", "degree_cv",
	"log_max_degree", "assortativity", "transitivity",  "clustering",      "log_components",
	"lcc_share",	  "log_diameter",  "log_mean_path", "spectral_gap",
};

/* Searches under this many node and arc visits in all run on the calling
 * thread: waking a team costs more than a small graph's searches. */
#define PAR_MIN_WORK 2e6

/* The rng stream of the sampled sources (rng_new(seed, SOURCE_STREAM)),
 * and the seed of the Lanczos start vector, the same for every graph and
 * every --seed, so that the gap's last bits do not move with them. */
#define LANCZOS_SEED 0x67617073	 /* "gaps" */
#define SOURCE_STREAM 0x73726373 /* "srcs" */

#define BIT(x) (1u << (x))
#define PATHS (BIT(GSTAT_LOG_DIAMETER) | BIT(GSTAT_LOG_MEAN_PATH))
#define COMPONENTS \
	(BIT(GSTAT_LOG_COMPONENTS) | BIT(GSTAT_LCC_SHARE) | PATHS | BIT(GSTAT_SPECTRAL_GAP))
#define TRIANGLES (BIT(GSTAT_TRANSITIVITY) | BIT(GSTAT_CLUSTERING))

void
gstat_ws_init(gstat_ws *ws)
{
	memset(ws, 0, sizeof *ws);
	nodefeat_ws_init(&ws->fws);
	cent_ws_init(&ws->cws);
}

void
gstat_ws_free(gstat_ws *ws)
{
	if (ws == NULL)
		return;
	free(ws->i32);
	free(ws->i64);
	nodefeat_ws_free(&ws->fws);
	cent_ws_free(&ws->cws);
	gstat_ws_init(ws);
}

void
gstat_opts_init(struct gstat_opts *o)
{
	o->want = BIT(GSTAT_N) - 1;
	o->exact_max = GSTAT_EXACT_MAX;
	o->samples = GSTAT_SAMPLES;
	o->dense_max = GSTAT_DENSE_MAX;
	o->seed = 0;
}

int
gstat_index(const char *s, size_t len)
{
	for (int i = 0; i < GSTAT_N; i++)
		if (strlen(gstat_name[i]) == len && strncmp(s, gstat_name[i], len) == 0)
			return i;
	return -1;
}

/* The scratch arrays, grown to at least n32 int32 and n64 int64. */
static void
ws_grow(gstat_ws *ws, size_t n32, size_t n64)
{
	if (n32 > ws->cap_i32) {
		free(ws->i32);
		ws->i32 = xmallocarray(n32, sizeof *ws->i32);
		ws->cap_i32 = n32;
	}
	if (n64 > ws->cap_i64) {
		free(ws->i64);
		ws->i64 = xmallocarray(n64, sizeof *ws->i64);
		ws->cap_i64 = n64;
	}
}

/* ---- degrees: sizes, spread, assortativity ---- */

static void
degree_stats(const graph *g, double *val, unsigned *undefined)
{
	int32_t n = g->n, v, dmax = 0;
	double arcs = 2.0 * (double)g->m, dbar = arcs / n, ss = 0, s2 = 0, mu, var = 0, cov = 0;

	for (v = 0; v < n; v++) {
		double d = graph_degree(g, v);
		ss += (d - dbar) * (d - dbar);
		s2 += d * d;
		if (d > dmax)
			dmax = (int32_t)d;
	}
	val[GSTAT_LOG_NODES] = log1p(n);
	val[GSTAT_LOG_EDGES] = log1p((double)g->m);
	val[GSTAT_DENSITY] = n > 1 ? arcs / ((double)n * (double)(n - 1)) : 0.0;
	val[GSTAT_LOG_MEAN_DEGREE] = log1p(dbar);
	val[GSTAT_DEGREE_CV] = g->m > 0 ? sqrt(ss / n) / dbar : 0.0;
	val[GSTAT_LOG_MAX_DEGREE] = log1p(dmax);
	/* Pearson's r over the ordered pairs of an edge, centred: both ends
	 * have mean mu = sum d^2 / 2m.  Where every edge end has one degree
	 * mu is that degree exactly (a ratio of exact integers), so var is
	 * exactly 0. */
	mu = g->m > 0 ? s2 / arcs : 0.0;
	for (v = 0; v < n; v++) {
		double dv = graph_degree(g, v) - mu, t = 0;
		for (int64_t p = g->off[v]; p < g->off[v + 1]; p++)
			t += graph_degree(g, g->adj[p]) - mu;
		var += (dv + mu) * dv * dv;
		cov += dv * t;
	}
	if (g->m == 0 || var == 0) {
		val[GSTAT_ASSORTATIVITY] = 0.0;
		*undefined |= BIT(GSTAT_ASSORTATIVITY);
	} else {
		val[GSTAT_ASSORTATIVITY] = cov / var;
	}
}

/* ---- triangles: transitivity, average clustering ---- */

static void
triangle_stats(const graph *g, double *val, gstat_ws *ws)
{
	int32_t n = g->n, v;
	int64_t *tri, t2 = 0, triples = 0;
	double cc = 0;

	ws_grow(ws, 0, (size_t)n);
	tri = ws->i64;
	nodefeat_triangles(g, tri, &ws->fws);
	for (v = 0; v < n; v++) {
		int64_t d = graph_degree(g, v);
		t2 += 2 * tri[v];
		triples += d * (d - 1);
		/* networkx clustering: 2T / (d (d - 1)), one rounding */
		if (d >= 2 && tri[v] > 0)
			cc += (double)(2 * tri[v]) / ((double)d * (double)(d - 1));
	}
	val[GSTAT_TRANSITIVITY] = t2 > 0 ? (double)t2 / (double)triples : 0.0;
	val[GSTAT_CLUSTERING] = cc / n;
}

/* ---- components ---- */

/* Label components by breadth-first search from the smallest unvisited
 * node: nodes gets every node, component by component; the first largest
 * component is nodes[*at .. *at + *size).  mark: n int32 of scratch.
 * Returns the number of components.  Time complexity: O(n + m). */
static int32_t
components(const graph *g, int32_t *nodes, int32_t *mark, int32_t *at, int32_t *size)
{
	int32_t n = g->n, s, k = 0, count = 0;

	memset(mark, 0, (size_t)n * sizeof *mark);
	*at = *size = 0;
	for (s = 0; s < n; s++) {
		int32_t begin = k, head = k;
		if (mark[s])
			continue;
		nodes[k++] = s;
		mark[s] = 1;
		while (head < k) {
			int32_t v = nodes[head++];
			for (int64_t p = g->off[v]; p < g->off[v + 1]; p++)
				if (!mark[g->adj[p]]) {
					mark[g->adj[p]] = 1;
					nodes[k++] = g->adj[p];
				}
		}
		if (k - begin > *size) {
			*size = k - begin;
			*at = begin;
		}
		count++;
	}
	return count;
}

/* ---- paths: breadth-first searches in the LCC ---- */

/* One search from s: its sum of distances, *ecc its eccentricity and
 * *far the last node reached (one at that distance).  dist: -1 on every
 * node, and so again on return; queue: room for the component. */
static int64_t
bfs(const graph *g, int32_t s, int32_t *dist, int32_t *queue, int32_t *ecc, int32_t *far)
{
	int32_t head = 0, tail = 0;
	int64_t sum = 0;

	dist[s] = 0;
	queue[tail++] = s;
	while (head < tail) {
		int32_t v = queue[head++], dv = dist[v];
		sum += dv;
		for (int64_t p = g->off[v]; p < g->off[v + 1]; p++)
			if (dist[g->adj[p]] < 0) {
				dist[g->adj[p]] = dv + 1;
				queue[tail++] = g->adj[p];
			}
	}
	*far = queue[tail - 1];
	*ecc = dist[*far];
	for (head = 0; head < tail; head++)
		dist[queue[head]] = -1;
	return sum;
}

/* The searches from src[0..k-1] (nodes of a component of nc nodes and
 * arcs arcs) into sum, ecc and far, one slot a source, on threads when
 * the work is large enough.  dq: 2 n int32 a thread. */
static void
searches(const graph *g, const int32_t *src, int32_t k, int32_t nc, int64_t arcs, int64_t *sum,
	 int32_t *ecc, int32_t *far, int32_t *dq)
{
	int nth =
	    (double)k * ((double)nc + (double)arcs) < PAR_MIN_WORK ? 1 : omp_get_max_threads();
	int32_t n = g->n;

	if (nth > k)
		nth = k;
#pragma omp parallel num_threads(nth)
	{
		int32_t *dist = dq + 2 * (size_t)n * (size_t)omp_get_thread_num(),
			*queue = dist + n;
		for (int32_t v = 0; v < n; v++)
			dist[v] = -1;
#pragma omp for schedule(dynamic, 4)
		for (int32_t i = 0; i < k; i++)
			sum[i] = bfs(g, src[i], dist, queue, &ecc[i], &far[i]);
	}
}

/* k distinct nodes of lcc[0..nc-1], uniformly, into src[0..k-1] (a
 * partial Fisher-Yates shuffle of a copy). */
static void
draw_sources(const int32_t *lcc, int32_t nc, int32_t k, uint64_t seed, int32_t *src)
{
	gsl_rng *r = rng_new(seed, SOURCE_STREAM);

	memcpy(src, lcc, (size_t)nc * sizeof *src);
	for (int32_t i = 0; i < k; i++) {
		int32_t j = i + (int32_t)rng_uniform_u64(r, (uint64_t)(nc - i)), t = src[i];
		src[i] = src[j];
		src[j] = t;
	}
	gsl_rng_free(r);
}

/* Diameter and mean distance of the LCC lcc[0..nc-1]: exact, or the lower
 * bound and the estimate of graphstat.h.  i32: scratch for a copy of the
 * LCC, ecc and far of each source and a search's dist and queue a thread
 * (path_i32); i64: a distance sum a source. */
static void
path_stats(const graph *g, const struct gstat_opts *o, const int32_t *lcc, int32_t nc, double *val,
	   struct gstat_info *info, int32_t *i32, int64_t *sum)
{
	int exact = nc <= o->exact_max || nc <= o->samples;
	int32_t k = exact ? nc : o->samples, *src = i32, *ecc = src + nc, *far = ecc + k,
		*dq = far + k, diam = 0, best = 0;
	int64_t arcs = 0, total = 0;
	double mean;

	for (int32_t i = 0; i < nc; i++)
		arcs += graph_degree(g, lcc[i]);
	if (exact)
		memcpy(src, lcc, (size_t)nc * sizeof *src);
	else
		draw_sources(lcc, nc, k, o->seed, src);
	searches(g, src, k, nc, arcs, sum, ecc, far, dq);
	for (int32_t i = 0; i < k; i++) {
		total += sum[i];
		if (ecc[i] > diam) {
			diam = ecc[i];
			best = i;
		}
	}
	info->paths_sampled = !exact;
	if (exact) {
		mean = nc > 1 ? (double)total / ((double)nc * (double)(nc - 1)) : 0.0;
	} else {
		/* the mean of the sources' mean distances, and its standard
		 * error with the finite-population correction */
		double xbar = (double)total / ((double)k * (double)(nc - 1)), ss = 0;
		for (int32_t i = 0; i < k; i++) {
			double x = (double)sum[i] / (double)(nc - 1) - xbar;
			ss += x * x;
		}
		mean = xbar;
		info->sources = k;
		info->mean_path_se = sqrt(ss / (k - 1) / k * (1 - (double)k / nc));
		/* sweeps: from the farthest node of the last search while the
		 * eccentricity grows */
		int32_t u = far[best], e, f;
		for (info->sweeps = 0; info->sweeps < GSTAT_SWEEPS;) {
			searches(g, &u, 1, nc, arcs, sum, &e, &f, dq);
			info->sweeps++;
			if (e <= diam)
				break;
			diam = e;
			u = f;
		}
	}
	val[GSTAT_LOG_DIAMETER] = log1p(diam);
	val[GSTAT_LOG_MEAN_PATH] = log1p(mean);
}

/* path_stats' i32 scratch on a graph of n nodes, the LCC taken as all of
 * it: a copy, ecc and far (3 n), dist and queue a thread. */
static size_t
path_i32(int32_t n, int threads)
{
	return 3 * (size_t)n + 2 * (size_t)n * (size_t)threads;
}

/* ---- the spectral gap ---- */

static int
spectral_gap(const graph *g, const struct gstat_opts *o, const int32_t *lcc, int32_t nc,
	     double *val, unsigned *undefined, gstat_ws *ws, char *msg, size_t msglen)
{
	struct cent_opts co;
	double d[2];

	if (nc < 2) {
		val[GSTAT_SPECTRAL_GAP] = 0.0;
		*undefined |= BIT(GSTAT_SPECTRAL_GAP);
		return 0;
	}
	cent_opts_init(&co);
	co.exact_max = o->dense_max;
	co.seed = LANCZOS_SEED; /* not o->seed: the gap is no estimate */
	if (cent_top_eigenvalues(g, lcc, nc, 1, 2, GSTAT_LANCZOS_TOL, &co, d, &ws->cws, msg,
				 msglen))
		return -1;
	/* lambda_2 = 1 - mu_2 > 0 on a connected component; rounding can
	 * take a tiny gap below 0 */
	val[GSTAT_SPECTRAL_GAP] = fmax(0.0, 1.0 - d[1]);
	return 0;
}

int
gstat_compute(const graph *g, const struct gstat_opts *o, double *val, struct gstat_info *info,
	      gstat_ws *ws, char *msg, size_t msglen)
{
	struct gstat_opts def;
	double v[GSTAT_N] = { 0 };
	gstat_ws own;
	int32_t at = 0, nc = 0;
	int rc = 0;

	memset(info, 0, sizeof *info);
	if (o == NULL) {
		gstat_opts_init(&def);
		o = &def;
	}
	if (ws == NULL) {
		gstat_ws_init(&own);
		ws = &own;
	}
	if (g->n > 0) {
		degree_stats(g, v, &info->undefined);
		if (o->want & TRIANGLES)
			triangle_stats(g, v, ws);
	}
	if (g->n > 0 && (o->want & COMPONENTS)) {
		/* i32: the components (2 n), then path_stats' scratch; i64: a
		 * distance sum a source */
		size_t n = (size_t)g->n;
		ws_grow(ws, 2 * n + (o->want & PATHS ? path_i32(g->n, omp_get_max_threads()) : 0),
			o->want & PATHS ? n : 0);
		int32_t count = components(g, ws->i32, ws->i32 + n, &at, &nc);
		v[GSTAT_LOG_COMPONENTS] = log1p(count);
		v[GSTAT_LCC_SHARE] = (double)nc / g->n;
		info->lcc_nodes = nc;
		if (o->want & PATHS)
			path_stats(g, o, ws->i32 + at, nc, v, info, ws->i32 + 2 * n, ws->i64);
		if (o->want & BIT(GSTAT_SPECTRAL_GAP))
			rc = spectral_gap(g, o, ws->i32 + at, nc, v, &info->undefined, ws, msg,
					  msglen);
	}
	info->undefined &= o->want;
	for (int i = 0; i < GSTAT_N; i++)
		if (o->want & BIT(i))
			val[i] = v[i];
	if (ws == &own)
		gstat_ws_free(&own);
	return rc;
}

double
gstat_bytes(int32_t n, int64_t m, const struct gstat_opts *o, int threads)
{
	double N = n, b = 0;
	struct cent_opts co;

	if (o->want & TRIANGLES)
		b += 8 * N + nodefeat_ws_bytes(n, m);
	if (o->want & COMPONENTS)
		b += 8 * N;
	if (o->want & PATHS) /* the LCC taken as the whole graph */
		b += 4.0 * (double)path_i32(n, threads) + 8 * N;
	if (o->want & BIT(GSTAT_SPECTRAL_GAP)) {
		cent_opts_init(&co);
		co.exact_max = o->dense_max;
		b += cent_top_eigenvalues_bytes(n, n, 2 * m, 2, &co);
	}
	return b;
}
