/*
 * test_features.c - node features (common/nodefeat.h): hand-checked small
 * graphs, edge cases, normalisation, workspace reuse, thread counts, and
 * networkx reference values from tests/ref/ (tests/ref/make_ref.py).
 * Run from the repository root: tests/bin/test_features
 */
#include <math.h>
#include <omp.h>

#include "nodefeat.h"
#include "ref_util.h"

/* Compare column c of raw (n, FEAT_N) with want. */
static double check_col(const char *label, const double *raw, int c, const double *want,
			int32_t n, double rtol)
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
static void check_hand(const char *name, const graph *g, const double *deg,
		       const double *core, const double *ci, const double *cc)
{
	double *raw = malloc(sizeof *raw * (size_t)g->n * FEAT_N);
	char label[128];

	features_raw(g, raw, NULL);
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
	features_triangles(&g, tri, NULL);
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
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3, 0, 4,
				     6, 7, 8, 9, 9, 10 };
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
	features_raw(&g, raw, NULL);
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
	static const int32_t e[] = { 0, 1, 0, 2, 0, 3, 1, 2, 1, 3, 2, 3,
				     0, 4, 4, 5, 5, 6, 6, 0,
				     1, 7, 1, 8, 1, 9, 2, 10 };
	const double want[] = { 3, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1 };
	int32_t core[11];
	double got[11];
	graph g;
	int i;

	ref_graph(&g, 11, 14, e);
	features_core_number(&g, core, NULL);
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
	features_raw(&g, NULL, NULL);
	features_normalise(NULL, 0, NULL);
	graph_free(&g);

	/* three isolated nodes: all raw features 0; constant columns -> 0. */
	ref_graph(&g, 3, 0, NULL);
	for (i = 0; i < 3 * FEAT_N; i++)
		raw[i] = norm[i] = -7.0;
	features_raw(&g, raw, NULL);
	features_normalise(raw, 3, norm);
	for (i = 0; i < 3 * FEAT_N; i++) {
		cr_expect(raw[i] == 0.0 && !signbit(raw[i]), "raw[%d] = %g, want +0", i, raw[i]);
		cr_expect(norm[i] == 0.0, "norm[%d] = %g, want 0", i, norm[i]);
	}
	graph_free(&g);
}

Test(features_normalise, minmax)
{
	/* 3 nodes; degree 1..3 -> 0, .5, 1; core constant -> 0; CI 0, 10, 40
	 * -> 0, .25, 1; clustering copied even when not in [0, 1] order. */
	const double raw[] = {
		1, 2, 0, 0.5,
		2, 2, 10, 0.25,
		3, 2, 40, 1.0,
	};
	const double want[] = {
		0, 0, 0, 0.5,
		0.5, 0, 0.25, 0.25,
		1, 0, 1, 1.0,
	};
	double out[12], inplace[12];
	int i;

	features_normalise(raw, 3, out);
	ref_check("normalise minmax", out, want, 12, 0);
	memcpy(inplace, raw, sizeof inplace);
	features_normalise(inplace, 3, inplace);
	ref_check("normalise in place", inplace, want, 12, 0);
	/* one node: every min-max column is constant -> 0 */
	features_normalise(raw, 1, out);
	for (i = 0; i < 3; i++)
		cr_expect(out[i] == 0.0, "n=1 column %d = %g", i, out[i]);
	cr_expect(out[FEAT_CLUSTERING] == 0.5, "n=1 clustering copied");
}

Test(features_normalise, model_input)
{
	static const int32_t e[] = { 0, 1, 0, 2, 1, 2, 2, 3, 3, 4, 3, 5, 4, 5 };
	double raw[6 * FEAT_N], a[6 * FEAT_N], b[6 * FEAT_N];
	graph g;
	int i;

	ref_graph(&g, 6, 7, e);
	features_raw(&g, raw, NULL);
	features_normalise(raw, 6, a);
	features_model_input(&g, b, NULL);
	cr_expect(memcmp(a, b, sizeof a) == 0, "model_input != raw + normalise");
	for (i = 0; i < 6 * FEAT_N; i++)
		cr_expect(b[i] >= 0.0 && b[i] <= 1.0, "input[%d] = %g outside [0,1]", i, b[i]);
	graph_free(&g);
}

/* Reference graphs: every feature equal to networkx's. */
static const char *refs[] = {
	"dcbm_n60", "dcbm_n120", "dcbm_sparse_n250", "dcbm_hub_n300", "dense_n220",
	"overflow_n800", "cora_first400", "imdb_g1", "imdb_g2", "imdb_g453",
};

static void check_ref(const char *name, features_ws *ws)
{
	static const char *cols[FEAT_N] = { "degree", "core", "ci1", "clustering" };
	graph g;
	double *raw;
	int c;

	ref_load_graph(name, &g);
	raw = malloc(sizeof *raw * (size_t)g.n * FEAT_N);
	features_raw(&g, raw, ws);
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
		features_ci1(&g, x);
		for (i = 0; i < g.n; i++)
			cr_expect(x[i] == raw[(size_t)i * FEAT_N + FEAT_CI1], "%s: features_ci1 "
				  "node %d", name, i);
		features_clustering(&g, x, ws);
		for (i = 0; i < g.n; i++)
			cr_expect(x[i] == raw[(size_t)i * FEAT_N + FEAT_CLUSTERING],
				  "%s: features_clustering node %d", name, i);
		features_core_number(&g, core, ws);
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
	features_ws_init(&ws);
	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		check_ref(refs[sizeof refs / sizeof *refs - 1 - i], &ws);
	for (i = 0; i < sizeof refs / sizeof *refs; i++)
		check_ref(refs[i], &ws);
	features_ws_free(&ws);
	features_ws_free(&ws);	/* twice: a no-op */
	features_ws_free(NULL);
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
	features_raw(&g, a, NULL);
	omp_set_num_threads(3);
	features_raw(&g, b, NULL);
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
	cr_assert(features_scale(raw, 2, out, FEAT_SCALE_LOG) == 0);
	cr_expect(fabs(out[0] - log(5)) < 1e-15 && fabs(out[1] - log(3)) < 1e-15 &&
		  fabs(out[2] - log(10)) < 1e-15 && out[3] == 0.5);
	cr_expect(out[4] == 0 && out[5] == 0 && out[6] == 0 && out[7] == 0);
	cr_assert(features_scale(raw, 2, out, FEAT_SCALE_MINMAX) == 0);
	cr_expect(out[0] == 1 && out[4] == 0 && out[3] == 0.5, "minmax is features_normalise");
	cr_expect(features_scale(raw, 2, out, 7) == -1);
	cr_expect(features_scale_mode("log") == FEAT_SCALE_LOG &&
		  features_scale_mode("minmax") == FEAT_SCALE_MINMAX &&
		  features_scale_mode("zscore") == -1);
}
