/*
 * test_features.c - node features (common/nodefeat.h): hand-checked small
 * graphs, edge cases, normalisation, workspace reuse, thread counts, and
 * networkx reference values from tests/ref/ (tests/ref/make_ref.py); and
 * the random-walk return probabilities (common/rwse.h): closed forms on a
 * path, a star, a cycle and a triangle with an isolated node, dense matrix
 * powers on the reference graphs, and the estimates against their bound.
 * Run from the repository root: tests/bin/test_features
 */
#include <math.h>
#include <omp.h>

#include "nodefeat.h"
#include "ref_util.h"
#include "rwse.h"

/* Compare column c of raw (n, FEAT_N) with want. */
static double
check_col(const char *label, const double *raw, int c, const double *want, int32_t n, double rtol)
{
	double *x = malloc(sizeof *x * (size_t)(n ? n : 1)), r;
	int32_t i;

	for (i = 0; i < n; i++)
		x[i] = raw[(size_t)i * FEAT_N + c];
	r = ref_check(label, x, want, n, rtol);
	free(x);
	return r;
}

/* The four columns of a small graph against values worked out by hand. */
static void
check_hand(const char *name, const graph *g, const double *deg, const double *core,
	   const double *ci, const double *cc)
{
	double *raw = malloc(sizeof *raw * (size_t)g->n * FEAT_N);
	char label[128];

	nodefeat_raw(g, raw, NULL);
	snprintf(label, sizeof label, "%s degree", name);
	check_col(label, raw, FEAT_DEGREE, deg, g->n, 0);
	snprintf(label, sizeof label, "%s core", name);
	check_col(label, raw, FEAT_CORE, core, g->n, 0);
	snprintf(label, sizeof label, "%s ci1", name);
	check_col(label, raw, FEAT_CI1, ci, g->n, 0);
	snprintf(label, sizeof label, "%s clustering", name);
	check_col(label, raw, FEAT_CLUSTERING, cc, g->n, 1e-15);
	free(raw);
}

Test(features_hand, path5)
{
	/* 0-1-2-3-4: ends have CI 0 (deg 1); inner: (2-1) * sum of (deg-1). */
	static const int32_t e[] = { 0, 1, 1, 2, 2, 3, 3, 4 };
	const double deg[] = { 1, 2, 2, 2, 1 }, core[] = { 1, 1, 1, 1, 1 };
	const double ci[] = { 0, 1, 2, 1, 0 }, cc[] = { 0, 0, 0, 0, 0 };
	graph g;

	ref_graph(&g, 5, 4, e);
	check_hand("path5", &g, deg, core, ci, cc);
	graph_free(&g);
}

Test(features_hand, star5)
{
	/* centre 0 with 4 leaves: CI(centre) = 3 * 4 * 0 = 0, leaves 0. */
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 0, 4 };
	const double deg[] = { 4, 1, 1, 1, 1 }, core[] = { 1, 1, 1, 1, 1 };
	const double ci[] = { 0, 0, 0, 0, 0 }, cc[] = { 0, 0, 0, 0, 0 };
	graph g;

	ref_graph(&g, 5, 4, e);
	check_hand("star5", &g, deg, core, ci, cc);
	graph_free(&g);
}

Test(features_hand, cycle6)
{
	static const int32_t e[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 0 };
	const double deg[] = { 2, 2, 2, 2, 2, 2 }, core[] = { 2, 2, 2, 2, 2, 2 };
	const double ci[] = { 2, 2, 2, 2, 2, 2 }, cc[] = { 0, 0, 0, 0, 0, 0 };
	graph g;

	ref_graph(&g, 6, 6, e);
	check_hand("cycle6", &g, deg, core, ci, cc);
	graph_free(&g);
}

Test(features_hand, complete5)
{
	/* K5: degree 4, core 4, CI = 3 * (4 * 3) = 36, clustering 1. */
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 0, 4, 1, 2, 1, 3, 1, 4, 2, 3, 2, 4, 3, 4 };
	const double deg[] = { 4, 4, 4, 4, 4 }, core[] = { 4, 4, 4, 4, 4 };
	const double ci[] = { 36, 36, 36, 36, 36 }, cc[] = { 1, 1, 1, 1, 1 };
	int64_t tri[5];
	graph g;
	int i;

	ref_graph(&g, 5, 10, e);
	check_hand("complete5", &g, deg, core, ci, cc);
	nodefeat_triangles(&g, tri, NULL);
	for (i = 0; i < 5; i++)
		cr_expect_eq(tri[i], 6, "K5 node %d: %lld triangles, want 6", i, (long long)tri[i]);
	graph_free(&g);
}

Test(features_hand, two_triangles_bridge)
{
	/* triangles 0-1-2 and 3-4-5 joined by 2-3.  Node 2: deg 3, triangles 1,
	 * clustering 2/6; CI(2) = 2 * (1 + 1 + 2) = 8; CI(0) = 1 * (1 + 2) = 3. */
	static const int32_t e[] = { 0, 1, 0, 2, 1, 2, 2, 3, 3, 4, 3, 5, 4, 5 };
	const double deg[] = { 2, 2, 3, 3, 2, 2 }, core[] = { 2, 2, 2, 2, 2, 2 };
	const double ci[] = { 3, 3, 8, 8, 3, 3 };
	const double cc[] = { 1, 1, 1.0 / 3, 1.0 / 3, 1, 1 };
	graph g;

	ref_graph(&g, 6, 7, e);
	check_hand("two_triangles_bridge", &g, deg, core, ci, cc);
	graph_free(&g);
}

Test(features_hand, components_and_isolated)
{
	/* K4 on 0..3 with a pendant 4 on node 0, isolated 5, edge 6-7,
	 * path 8-9-10, isolated 11.  Node 0: deg 4, 3 triangles, cc 6/12;
	 * core: K4 = 3, pendant 1; CI(0) = 3 * (2 + 2 + 2 + 0) = 18;
	 * CI(1) = 2 * (3 + 2 + 2) = 14; CI(4) = 0 (deg 1); isolated 0. */
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3, 0, 4, 6, 7, 8, 9, 9, 10 };
	const double deg[] = { 4, 3, 3, 3, 1, 0, 1, 1, 1, 2, 1, 0 };
	const double core[] = { 3, 3, 3, 3, 1, 0, 1, 1, 1, 1, 1, 0 };
	const double ci[] = { 18, 14, 14, 14, 0, 0, 0, 0, 0, 0, 0, 0 };
	const double cc[] = { 0.5, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	double raw[12 * FEAT_N];
	graph g;
	int i;

	ref_graph(&g, 12, 10, e);
	check_hand("components_and_isolated", &g, deg, core, ci, cc);
	/* CI of an isolated node is +0, never -0. */
	nodefeat_raw(&g, raw, NULL);
	cr_expect(!signbit(raw[5 * FEAT_N + FEAT_CI1]) && !signbit(raw[11 * FEAT_N + FEAT_CI1]),
		  "CI of isolated nodes must be +0");
	for (i = 0; i < 12; i++)
		cr_expect(!signbit(raw[i * FEAT_N + FEAT_CI1]), "node %d: negative CI", i);
	graph_free(&g);
}

Test(features_hand, core_peeling)
{
	/* A 3-core (K4 on 0..3) whose nodes also have many degree-1 leaves
	 * and a chain 0-4-5-6-0 (cycle through the K4: core 2). */
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3, 0, 4,
				     4, 5, 5, 6, 6, 0, 1, 7, 1, 8, 1, 9, 2, 10 };
	const double want[] = { 3, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1 };
	int32_t core[11];
	double got[11];
	graph g;
	int i;

	ref_graph(&g, 11, 14, e);
	nodefeat_core_number(&g, core, NULL);
	for (i = 0; i < 11; i++)
		got[i] = core[i];
	ref_check("core_peeling core", got, want, 11, 0);
	graph_free(&g);
}

Test(features_edge, empty_and_edgeless)
{
	graph g;
	double raw[3 * FEAT_N], norm[3 * FEAT_N];
	int i;

	/* n = 0: nothing written, nothing read. */
	graph_init(&g);
	ref_graph(&g, 0, 0, NULL);
	nodefeat_raw(&g, NULL, NULL);
	nodefeat_normalise(NULL, 0, NULL);
	graph_free(&g);

	/* three isolated nodes: all raw features 0; constant columns -> 0. */
	ref_graph(&g, 3, 0, NULL);
	for (i = 0; i < 3 * FEAT_N; i++)
		raw[i] = norm[i] = -7.0;
	nodefeat_raw(&g, raw, NULL);
	nodefeat_normalise(raw, 3, norm);
	for (i = 0; i < 3 * FEAT_N; i++) {
		cr_expect(raw[i] == 0.0 && !signbit(raw[i]), "raw[%d] = %g, want +0", i, raw[i]);
		cr_expect(norm[i] == 0.0, "norm[%d] = %g, want 0", i, norm[i]);
	}
	graph_free(&g);
}

Test(nodefeat_normalise, minmax)
{
	/* 3 nodes; degree 1..3 -> 0, .5, 1; core constant -> 0; CI 0, 10, 40
	 * -> 0, .25, 1; clustering copied even when not in [0, 1] order. */
	const double raw[] = {
		1, 2, 0, 0.5, 2, 2, 10, 0.25, 3, 2, 40, 1.0,
	};
	const double want[] = {
		0, 0, 0, 0.5, 0.5, 0, 0.25, 0.25, 1, 0, 1, 1.0,
	};
	double out[12], inplace[12];
	int i;

	nodefeat_normalise(raw, 3, out);
	ref_check("normalise minmax", out, want, 12, 0);
	memcpy(inplace, raw, sizeof inplace);
	nodefeat_normalise(inplace, 3, inplace);
	ref_check("normalise in place", inplace, want, 12, 0);
	/* one node: every min-max column is constant -> 0 */
	nodefeat_normalise(raw, 1, out);
	for (i = 0; i < 3; i++)
		cr_expect(out[i] == 0.0, "n=1 column %d = %g", i, out[i]);
	cr_expect(out[FEAT_CLUSTERING] == 0.5, "n=1 clustering copied");
}

Test(nodefeat_normalise, model_input)
{
	static const int32_t e[] = { 0, 1, 0, 2, 1, 2, 2, 3, 3, 4, 3, 5, 4, 5 };
	double raw[6 * FEAT_N], a[6 * FEAT_N], b[6 * FEAT_N];
	graph g;
	int i;

	ref_graph(&g, 6, 7, e);
	nodefeat_raw(&g, raw, NULL);
	nodefeat_normalise(raw, 6, a);
	nodefeat_model_input(&g, b, NULL);
	cr_expect(memcmp(a, b, sizeof a) == 0, "model_input != raw + normalise");
	for (i = 0; i < 6 * FEAT_N; i++)
		cr_expect(b[i] >= 0.0 && b[i] <= 1.0, "input[%d] = %g outside [0,1]", i, b[i]);
	graph_free(&g);
}

/* Reference graphs: every feature equal to networkx's. */
static const char *refs[] = {
	"dcbm_n60",	 "dcbm_n120",	  "dcbm_sparse_n250", "dcbm_hub_n300", "dense_n220",
	"overflow_n800", "cora_first400", "imdb_g1",	      "imdb_g2",       "imdb_g453",
};

static void
check_ref(const char *name, features_ws *ws)
{
	static const char *cols[FEAT_N] = { "degree", "core", "ci1", "clustering" };
	graph g;
	double *raw;
	int c;

	ref_load_graph(name, &g);
	raw = malloc(sizeof *raw * (size_t)g.n * FEAT_N);
	nodefeat_raw(&g, raw, ws);
	for (c = 0; c < FEAT_N; c++) {
		double *want = ref_load_col(name, "nx", cols[c], g.n);
		char label[128];
		snprintf(label, sizeof label, "%s %s", name, cols[c]);
		/* integers exactly; clustering to 1e-9 (one division, so equal) */
		check_col(label, raw, c, want, g.n, c == FEAT_CLUSTERING ? 1e-9 : 0);
		free(want);
	}
	/* the single-feature entry points give the same numbers */
	{
		double *x = malloc(sizeof *x * (size_t)g.n);
		int32_t *core = malloc(sizeof *core * (size_t)g.n), i;
		nodefeat_ci1(&g, x);
		for (i = 0; i < g.n; i++)
			cr_expect(x[i] == raw[(size_t)i * FEAT_N + FEAT_CI1],
				  "%s: features_ci1 "
				  "node %d",
				  name, i);
		nodefeat_clustering(&g, x, ws);
		for (i = 0; i < g.n; i++)
			cr_expect(x[i] == raw[(size_t)i * FEAT_N + FEAT_CLUSTERING],
				  "%s: features_clustering node %d", name, i);
		nodefeat_core_number(&g, core, ws);
		for (i = 0; i < g.n; i++)
			cr_expect(core[i] == raw[(size_t)i * FEAT_N + FEAT_CORE],
				  "%s: features_core_number node %d", name, i);
		free(x);
		free(core);
	}
	free(raw);
	graph_free(&g);
}

Test(features_ref, networkx)
{
	size_t i;

	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		check_ref(refs[i], NULL);
}

Test(features_ref, networkx_shared_ws)
{
	features_ws ws;
	size_t i;

	/* one workspace through graphs of growing and shrinking size */
	nodefeat_ws_init(&ws);
	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		check_ref(refs[sizeof refs / sizeof *refs - 1 - i], &ws);
	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		check_ref(refs[i], &ws);
	nodefeat_ws_free(&ws);
	nodefeat_ws_free(&ws); /* twice: a no-op */
	nodefeat_ws_free(NULL);
}

Test(features_ref, thread_counts)
{
	/* overflow_n800 has 538860 arcs: above FEATURES_PAR_MIN_ARCS, so the
	 * triangle count runs in parallel; the answer must not change. */
	graph g;
	double *a, *b;
	int saved = omp_get_max_threads();

	ref_load_graph("overflow_n800", &g);
	cr_assert(2 * g.m >= FEATURES_PAR_MIN_ARCS, "graph too small for the parallel path");
	a = malloc(sizeof *a * (size_t)g.n * FEAT_N);
	b = malloc(sizeof *b * (size_t)g.n * FEAT_N);
	omp_set_num_threads(1);
	nodefeat_raw(&g, a, NULL);
	omp_set_num_threads(3);
	nodefeat_raw(&g, b, NULL);
	omp_set_num_threads(saved);
	cr_expect(memcmp(a, b, sizeof *a * (size_t)g.n * FEAT_N) == 0,
		  "features differ between 1 and 3 threads");
	free(a);
	free(b);
	graph_free(&g);
}

Test(features, log_scale_keeps_graph_size)
{
	/* raw rows: degree, core, CI_1, clustering */
	double raw[2 * FEAT_N] = { 4, 2, 9, 0.5, 0, 0, 0, 0 }, out[2 * FEAT_N];
	cr_assert(nodefeat_scale(raw, 2, out, FEAT_SCALE_LOG) == 0);
	cr_expect(fabs(out[0] - log(5)) < 1e-15 && fabs(out[1] - log(3)) < 1e-15 &&
		  fabs(out[2] - log(10)) < 1e-15 && out[3] == 0.5);
	cr_expect(out[4] == 0 && out[5] == 0 && out[6] == 0 && out[7] == 0);
	cr_assert(nodefeat_scale(raw, 2, out, FEAT_SCALE_MINMAX) == 0);
	cr_expect(out[0] == 1 && out[4] == 0 && out[3] == 0.5, "minmax is nodefeat_normalise");
	cr_expect(nodefeat_scale(raw, 2, out, 7) == -1);
	cr_expect(nodefeat_scale_mode("log") == FEAT_SCALE_LOG &&
		  nodefeat_scale_mode("minmax") == FEAT_SCALE_MINMAX &&
		  nodefeat_scale_mode("zscore") == -1);
}

/* ---- random-walk return probabilities (rwse.h) ---- */

/* RWSE of g, (n, K), exact (exact_max above n). */
static double *
rwse_exact(const graph *g, int32_t K, rwse_ws *ws)
{
	struct rwse_opts o;
	rwse_info inf;
	double *out = malloc(sizeof *out * (size_t)(g->n ? g->n : 1) * (size_t)K);

	rwse_opts_init(&o);
	o.steps = K;
	o.exact_max = g->n + 1;
	cr_assert_eq(rwse_compute(g, &o, out, &inf, ws), 0);
	cr_expect(inf.estimated == 0 && inf.walks == 0 && inf.error == 0,
		  "exact run reports estimates");
	return out;
}

/* Compare column k (1-based) of (n, K) out with want (n). */
static void
check_rw(const char *name, const double *out, int32_t n, int32_t K, int32_t k, const double *want,
	 double rtol)
{
	double *x = malloc(sizeof *x * (size_t)n);
	char label[160];
	int32_t i;

	for (i = 0; i < n; i++)
		x[i] = out[(size_t)i * (size_t)K + (size_t)(k - 1)];
	snprintf(label, sizeof label, "%s rw%d", name, (int)k);
	ref_check(label, x, want, n, rtol);
	free(x);
}

/* The definition the slow way, in the test's own code: dense P = D^+ A
 * (a zero row for an isolated node) and repeated dense products, ref:
 * (n, K).  O(K n^3): n small. */
static void
rwse_dense(const graph *g, int32_t K, double *ref)
{
	int32_t n = g->n, i, j, l, k;
	double *P = calloc((size_t)n * (size_t)n, sizeof *P);
	double *M = calloc((size_t)n * (size_t)n, sizeof *M);
	double *T = calloc((size_t)n * (size_t)n, sizeof *T);
	int64_t p;

	for (i = 0; i < n; i++)
		for (p = g->off[i]; p < g->off[i + 1]; p++)
			P[(size_t)i * n + g->adj[p]] = 1.0 / graph_degree(g, i);
	memcpy(M, P, sizeof *M * (size_t)n * (size_t)n);
	for (k = 0; k < K; k++) {
		for (i = 0; i < n; i++)
			ref[(size_t)i * (size_t)K + (size_t)k] = M[(size_t)i * n + i];
		memset(T, 0, sizeof *T * (size_t)n * (size_t)n);
		for (i = 0; i < n; i++) /* T = M P */
			for (l = 0; l < n; l++)
				for (j = 0; j < n; j++)
					T[(size_t)i * n + j] +=
					    M[(size_t)i * n + l] * P[(size_t)l * n + j];
		memcpy(M, T, sizeof *M * (size_t)n * (size_t)n);
	}
	free(P);
	free(M);
	free(T);
}

/* C(n, r) / 2^k, exactly enough for k <= 16 */
static double
binom(int n, int r)
{
	double c = 1.0;
	int i;

	for (i = 1; i <= r; i++)
		c = c * (n - r + i) / i;
	return c;
}

Test(rwse_hand, path3_star_triangle_isolated)
{
	/* path 0-1-2: bipartite (odd k 0); from an end, at even times the walk
	 * is at either end with probability 1/2; the centre is back at every
	 * even time. */
	static const int32_t path[] = { 0, 1, 1, 2 };
	/* star: centre 0, leaves 1..4: centre 1 at even k, a leaf 1/4 */
	static const int32_t star[] = { 0, 1, 0, 2, 0, 3, 0, 4 };
	/* triangle 0,1,2 and node 3 isolated: K3's walk P = (J - I)/2 has
	 * p_k = (1 + 2 (-1/2)^k) / 3; the isolated node 0 for every k */
	static const int32_t tri[] = { 0, 1, 1, 2, 0, 2 };
	const int32_t K = 16;
	double want[5];
	graph g;
	double *out;
	int32_t k, i;

	ref_graph(&g, 3, 2, path);
	out = rwse_exact(&g, K, NULL);
	for (k = 1; k <= K; k++) {
		want[0] = want[2] = k % 2 ? 0 : 0.5;
		want[1] = k % 2 ? 0 : 1;
		check_rw("path3", out, 3, K, k, want, 1e-15);
	}
	free(out);
	graph_free(&g);

	ref_graph(&g, 5, 4, star);
	out = rwse_exact(&g, K, NULL);
	for (k = 1; k <= K; k++) {
		want[0] = k % 2 ? 0 : 1;
		for (i = 1; i < 5; i++)
			want[i] = k % 2 ? 0 : 0.25;
		check_rw("star5", out, 5, K, k, want, 1e-15);
	}
	free(out);
	graph_free(&g);

	ref_graph(&g, 4, 3, tri);
	out = rwse_exact(&g, K, NULL);
	for (k = 1; k <= K; k++) {
		for (i = 0; i < 3; i++)
			want[i] = (1 + 2 * pow(-0.5, k)) / 3;
		want[3] = 0;
		check_rw("triangle+isolated", out, 4, K, k, want, 1e-14);
	}
	for (k = 0; k < K; k++)
		cr_expect(out[3 * K + k] == 0 && !signbit(out[3 * K + k]),
			  "isolated node rw%d = %g, want +0", (int)k + 1, out[3 * K + k]);
	free(out);
	graph_free(&g);
}

Test(rwse_hand, cycle5_and_path6)
{
	/* cycle of 5: the walk is a +-1 walk mod 5, so p_k = 2^-k times the
	 * number of m in 0..k with (2m - k) = 0 mod 5 of C(k, m).  Odd cycle:
	 * odd k > 0 from k = 5 on. */
	static const int32_t cyc[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 0 };
	/* path of 6 (0..5): P's eigenfunctions are f_j(x) = cos(pi j x / 5),
	 * eigenvalue cos(pi j / 5), orthogonal under pi(x) = deg x / 2m, so
	 * p_k(x) = pi(x) sum_j cos(pi j / 5)^k f_j(x)^2 / sum_y pi(y) f_j(y)^2. */
	static const int32_t path[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 5 };
	const int32_t K = 16;
	double want[6];
	graph g;
	double *out;
	int32_t k, i, m, j, y;

	ref_graph(&g, 5, 5, cyc);
	out = rwse_exact(&g, K, NULL);
	for (k = 1; k <= K; k++) {
		double s = 0;
		for (m = 0; m <= k; m++)
			if (((2 * m - k) % 5 + 5) % 5 == 0)
				s += binom(k, m);
		for (i = 0; i < 5; i++)
			want[i] = s / pow(2, k);
		check_rw("cycle5", out, 5, K, k, want, 1e-14);
	}
	cr_expect(out[4] > 0, "cycle5: p_5 > 0 (the walk round the cycle)");
	free(out);
	graph_free(&g);

	ref_graph(&g, 6, 5, path);
	out = rwse_exact(&g, K, NULL);
	for (k = 1; k <= K; k++) {
		for (i = 0; i < 6; i++) {
			double s = 0, pix = graph_degree(&g, i) / 10.0;
			for (j = 0; j < 6; j++) {
				double nrm = 0, f = cos(M_PI * j * i / 5);
				for (y = 0; y < 6; y++)
					nrm += graph_degree(&g, y) / 10.0 *
					       pow(cos(M_PI * j * y / 5), 2);
				s += pow(cos(M_PI * j / 5), k) * f * f / nrm;
			}
			want[i] = fabs(pix * s) < 1e-13 ? 0 : pix * s; /* odd k: 0 */
		}
		check_rw("path6", out, 6, K, k, want, 1e-12);
	}
	free(out);
	graph_free(&g);
}

Test(rwse_ref, dense_products)
{
	/* the reference graphs of up to 400 nodes (isolated nodes, small
	 * components, a hub, a dense graph, Cora's first 400 nodes) against
	 * the dense definition */
	const int32_t K = 16;
	rwse_ws ws;
	size_t r;

	rwse_ws_init(&ws);
	for (r = 0; r < sizeof refs / sizeof *refs; r++) {
		graph g;
		double *out, *ref;
		char label[64];
		int32_t k, i;

		ref_load_graph(refs[r], &g);
		if (g.n > 400) { /* O(K n^3) */
			graph_free(&g);
			continue;
		}
		out = rwse_exact(&g, K, &ws);
		ref = malloc(sizeof *ref * (size_t)g.n * (size_t)K);
		rwse_dense(&g, K, ref);
		for (k = 1; k <= K; k++) {
			double *w = malloc(sizeof *w * (size_t)g.n);
			for (i = 0; i < g.n; i++)
				w[i] = ref[(size_t)i * (size_t)K + (size_t)(k - 1)];
			snprintf(label, sizeof label, "%s", refs[r]);
			check_rw(label, out, g.n, K, k, w, 1e-12);
			free(w);
		}
		free(ref);
		free(out);
		graph_free(&g);
	}
	rwse_ws_free(&ws);
	rwse_ws_free(&ws);
	rwse_ws_free(NULL);
}

Test(rwse, steps_threads_workspace)
{
	/* K = 5 is the first 5 columns of K = 16, bit for bit; 1 and 3
	 * threads and a workspace reused across graphs give the same bits */
	graph g, h;
	rwse_ws ws;
	double *a, *b, *c;
	int32_t i, k, saved = omp_get_max_threads();

	ref_load_graph("cora_first400", &g);
	ref_load_graph("dcbm_sparse_n250", &h);
	a = rwse_exact(&g, 16, NULL);
	b = rwse_exact(&g, 5, NULL);
	for (i = 0; i < g.n; i++)
		for (k = 0; k < 5; k++)
			cr_expect(a[(size_t)i * 16 + k] == b[(size_t)i * 5 + k],
				  "node %d rw%d: K = 5 differs from K = 16", (int)i, (int)k + 1);
	free(b);
	rwse_ws_init(&ws);
	omp_set_num_threads(3);
	free(rwse_exact(&h, 16, &ws));
	b = rwse_exact(&g, 16, &ws);
	free(rwse_exact(&h, 16, &ws));
	omp_set_num_threads(1);
	c = rwse_exact(&g, 16, &ws);
	omp_set_num_threads(saved);
	cr_expect(memcmp(a, b, sizeof *a * (size_t)g.n * 16) == 0, "3 threads differ");
	cr_expect(memcmp(a, c, sizeof *a * (size_t)g.n * 16) == 0, "1 thread differs");
	rwse_ws_free(&ws);
	free(a);
	free(b);
	free(c);
	graph_free(&g);
	graph_free(&h);
}

/* Values of est that differ from exact by more than bound. */
static int64_t
over_bound(const double *est, const double *exact, size_t len, double bound)
{
	int64_t bad = 0;
	size_t i;

	for (i = 0; i < len; i++)
		bad += fabs(est[i] - exact[i]) > bound;
	return bad;
}

Test(rwse_estimate, within_stated_bound)
{
	/* Cora's first 400 nodes, estimated (exact_max 0) with a fixed seed,
	 * against the exact values.  The bound for all values at once holds
	 * with probability 1 - delta: with this seed it must hold.  A bound
	 * eight times smaller must be broken, or the check could not fail. */
	const int32_t K = 16;
	struct rwse_opts o;
	rwse_info inf, inf2;
	graph g;
	double *ex, *est, *est2, maxerr = 0;
	size_t len, i;
	int32_t saved = omp_get_max_threads();

	ref_load_graph("cora_first400", &g);
	len = (size_t)g.n * K;
	ex = rwse_exact(&g, K, NULL);
	est = malloc(sizeof *est * len);
	est2 = malloc(sizeof *est2 * len);
	rwse_opts_init(&o);
	o.exact_max = 0;
	o.error = 0.05;
	o.delta = 0.01;
	o.seed = 12345;
	cr_assert_eq(rwse_compute(&g, &o, est, &inf, NULL), 0);
	for (i = 0; i < len; i++)
		maxerr = fmax(maxerr, fabs(est[i] - ex[i]));
	fprintf(stderr,
		"rwse estimate: %d nodes estimated, %lld walks, max error %.4f, "
		"bound %.4f per value, %.4f for all\n",
		(int)inf.estimated, (long long)inf.walks_total, maxerr, inf.error, inf.error_all);
	cr_expect(inf.estimated > 0 && inf.estimated <= g.n, "estimated %d", inf.estimated);
	cr_expect(inf.walks == (int64_t)ceil(log(2 / 0.01) / (2 * 0.05 * 0.05)) &&
		      inf.walks == rwse_walks(0.05, 0.01),
		  "walks %lld", (long long)inf.walks);
	cr_expect(inf.error <= 0.05 && inf.error > 0.04, "achieved bound %g", inf.error);
	cr_expect(inf.error_all > inf.error, "union bound %g", inf.error_all);
	cr_expect(over_bound(est, ex, len, inf.error_all) == 0,
		  "max error %g above the stated bound %g", maxerr, inf.error_all);
	cr_expect(over_bound(est, ex, len, inf.error_all / 8) > 0,
		  "max error %g: no value above an eighth of the bound; the check has no teeth",
		  maxerr);
	/* p_1 is exact (no self-loops); isolated nodes stay 0 */
	for (i = 0; i < (size_t)g.n; i++)
		cr_expect(est[i * K] == 0, "node %zu rw1 = %g", i, est[i * K]);
	/* same seed, other thread count, a workspace used before on another
	 * graph: same bits; another seed: other draws */
	{
		graph h;
		double *eh;
		rwse_ws ws;

		ref_load_graph("dcbm_hub_n300", &h);
		eh = malloc(sizeof *eh * (size_t)h.n * K);
		rwse_ws_init(&ws);
		cr_assert_eq(rwse_compute(&h, &o, eh, &inf2, &ws), 0);
		omp_set_num_threads(1);
		cr_assert_eq(rwse_compute(&g, &o, est2, &inf2, &ws), 0);
		omp_set_num_threads(saved);
		rwse_ws_free(&ws);
		free(eh);
		graph_free(&h);
	}
	cr_expect(memcmp(est, est2, sizeof *est * len) == 0, "estimates depend on threads");
	cr_expect(inf2.walks_total == inf.walks_total && inf2.error_all == inf.error_all);
	o.seed = 54321;
	cr_assert_eq(rwse_compute(&g, &o, est2, &inf2, NULL), 0);
	cr_expect(memcmp(est, est2, sizeof *est * len) != 0, "the seed changes nothing");
	free(ex);
	free(est);
	free(est2);
	graph_free(&g);
}

Test(rwse_estimate, components_split_by_exact_max)
{
	/* a 4-cycle (component of 4) and a path of 8: exact_max 5 makes the
	 * cycle exact and the path estimated */
	static const int32_t e[] = { 0, 1, 1, 2, 2, 3, 3, 0, 4,	 5,  5,
				     6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11 };
	const int32_t K = 6;
	struct rwse_opts o;
	rwse_info inf;
	graph g;
	double out[13 * 6], *ex;
	int32_t i;

	ref_graph(&g, 13, 11, e); /* node 12 isolated */
	ex = rwse_exact(&g, K, NULL);
	rwse_opts_init(&o);
	o.steps = K;
	o.exact_max = 5;
	cr_assert_eq(rwse_compute(&g, &o, out, &inf, NULL), 0);
	cr_expect(inf.estimated == 8 && inf.components == 1, "estimated %d in %d", inf.estimated,
		  inf.components);
	cr_expect(memcmp(out, ex, sizeof *out * 4 * K) == 0, "the 4-cycle is not exact");
	for (i = 0; i < K; i++)
		cr_expect(out[12 * K + i] == 0 && ex[12 * K + i] == 0, "isolated node");
	free(ex);
	graph_free(&g);
}

Test(rwse, options_and_names)
{
	struct rwse_opts o;
	graph g;
	double out[4];
	char cols[6 * RWSE_STEPS_MAX];

	ref_graph(&g, 2, 1, (const int32_t[]){ 0, 1 });
	rwse_opts_init(&o);
	cr_expect(o.steps == RWSE_STEPS && o.exact_max == RWSE_EXACT_MAX && o.error == RWSE_ERROR &&
		  o.delta == RWSE_DELTA);
	o.steps = 0;
	cr_expect(rwse_compute(&g, &o, out, NULL, NULL) == -1);
	o.steps = RWSE_STEPS_MAX + 1;
	cr_expect(rwse_compute(&g, &o, out, NULL, NULL) == -1);
	o.steps = 2;
	o.error = 0;
	cr_expect(rwse_compute(&g, &o, out, NULL, NULL) == -1);
	o.error = 0.1;
	o.delta = 1;
	cr_expect(rwse_compute(&g, &o, out, NULL, NULL) == -1);
	o.delta = 0.1;
	cr_assert(rwse_compute(&g, &o, out, NULL, NULL) == 0);
	cr_expect(out[0] == 0 && out[1] == 1 && out[2] == 0 && out[3] == 1, "K2");
	/* K = 1: p_1 = 0, exact even past exact_max */
	{
		rwse_info inf;
		o.steps = 1;
		o.exact_max = 0;
		out[0] = out[1] = -1;
		cr_assert(rwse_compute(&g, &o, out, &inf, NULL) == 0);
		cr_expect(out[0] == 0 && out[1] == 0 && inf.estimated == 0 && inf.walks == 0);
	}
	rwse_columns(3, cols, sizeof cols);
	cr_expect_str_eq(cols, "rw1,rw2,rw3");
	rwse_columns(RWSE_STEPS_MAX, cols, sizeof cols);
	cr_expect(strlen(cols) < sizeof cols - 1 && strstr(cols, ",rw64") != NULL, "%s", cols);
	graph_free(&g);
}
