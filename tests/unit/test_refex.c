/*
 * test_refex.c - the ReFeX-style feature set (common/refex.h): every
 * column of a small graph worked out by hand, isolated nodes, workspace
 * reuse, and the same values for any thread count on a graph large enough
 * to run threads.
 * Run from the repository root: tests/bin/test_refex
 */
#include <math.h>
#include <omp.h>

#include "dcbm.h"
#include "ref_util.h"
#include "refex.h"

/*
 * A triangle 0-1-2 with a tail 2-3 and an isolated node 4:
 *   degree 2 2 3 1 0, core 2 2 2 1 0, CI_1 3 3 4 0 0 (node 2: (3-1) x
 *   (1 + 1 + 0)), clustering 1 1 1/3 0 0.
 * Each row below is worked out from those, L(k) = log(k).
 */
static void
hand_values(double want[5][REFEX_COLS])
{
	const double L2 = log(2), L3 = log(3), L4 = log(4), L5 = log(5);
	/* the base features x(v) */
	const double x[5][4] = {
		{ L3, L3, L4, 1 }, { L3, L3, L4, 1 }, { L4, L3, L5, 1.0 / 3 },
		{ L2, L2, 0, 0 },  { 0, 0, 0, 0 },
	};
	/* level 1: node 0 and 1 see {x1 or x0, x2}; node 2 sees {x0, x1, x3};
	 * node 3 sees {x2} */
	const double mean1[5][4] = {
		{ (L3 + L4) / 2, L3, (L4 + L5) / 2, (1 + 1.0 / 3) / 2 },
		{ (L3 + L4) / 2, L3, (L4 + L5) / 2, (1 + 1.0 / 3) / 2 },
		{ (2 * L3 + L2) / 3, (2 * L3 + L2) / 3, 2 * L4 / 3, 2.0 / 3 },
		{ L4, L3, L5, 1.0 / 3 },
		{ 0, 0, 0, 0 },
	};
	const double max1[5][4] = {
		{ L4, L3, L5, 1 },	 { L4, L3, L5, 1 }, { L3, L3, L4, 1 },
		{ L4, L3, L5, 1.0 / 3 }, { 0, 0, 0, 0 },
	};
	int v, f;

	for (v = 0; v < 5; v++)
		for (f = 0; f < 4; f++) {
			want[v][f] = x[v][f];
			want[v][4 + f] = mean1[v][f];
			want[v][8 + f] = max1[v][f];
		}
	/* level 2: the same neighbourhoods over the level-1 columns */
	for (f = 0; f < 4; f++) {
		want[0][12 + f] = want[1][12 + f] = (mean1[0][f] + mean1[2][f]) / 2;
		want[2][12 + f] = (mean1[0][f] + mean1[1][f] + mean1[3][f]) / 3;
		want[3][12 + f] = mean1[2][f];
		want[4][12 + f] = 0;
		want[0][16 + f] = want[1][16 + f] = fmax(max1[0][f], max1[2][f]);
		want[2][16 + f] = fmax(fmax(max1[0][f], max1[1][f]), max1[3][f]);
		want[3][16 + f] = max1[2][f];
		want[4][16 + f] = 0;
	}
}

static void
tail_graph(graph *g)
{
	static const int32_t e[] = { 0, 1, 1, 2, 0, 2, 2, 3 };

	ref_graph(g, 5, 4, e);
}

/* A DCBM graph of n nodes and mean degree about deg into g. */
static void
dcbm_graph(graph *g, int32_t n, double deg, uint64_t seed)
{
	ref_dcbm_graph(g, n, deg, 4, 4, seed);
}

Test(refex_hand, triangle_tail_isolated)
{
	double want[5][REFEX_COLS], got[5 * REFEX_COLS];
	char label[64];
	graph g;
	int c;

	hand_values(want);
	tail_graph(&g);
	refex_compute(&g, got, NULL);
	for (c = 0; c < REFEX_COLS; c++) {
		double w[5], x[5];
		int v;
		for (v = 0; v < 5; v++) {
			w[v] = want[v][c];
			x[v] = got[v * REFEX_COLS + c];
		}
		snprintf(label, sizeof label, "column %d", c);
		ref_check(label, x, w, 5, 1e-15);
	}
	graph_free(&g);
}

Test(refex_hand, column_names)
{
	const char *c = REFEX_COLUMNS;
	int commas = 0;

	for (; *c; c++)
		commas += *c == ',';
	cr_expect_eq(commas + 1, REFEX_COLS);
	cr_expect(strncmp(REFEX_COLUMNS, "degree_log,core_log,ci1_log,clustering,mean1_degree_log,",
			  56) == 0);
	cr_expect(strstr(REFEX_COLUMNS, ",max2_clustering") != NULL);
}

Test(refex_ws, reuse_and_empty)
{
	double want[5][REFEX_COLS], got[5 * REFEX_COLS], *big;
	refex_ws ws;
	graph g, h;
	char msg[256];

	/* a large graph first, then the small one on the same workspace */
	dcbm_graph(&h, 3000, 8, 3);
	big = malloc((size_t)h.n * REFEX_COLS * sizeof *big);
	refex_ws_init(&ws);
	refex_compute(&h, big, &ws);
	tail_graph(&g);
	refex_compute(&g, got, &ws);
	hand_values(want);
	ref_check("after a larger graph", got, &want[0][0], 5 * REFEX_COLS, 1e-15);
	/* no nodes: nothing written, nothing read */
	graph_build(&g, 0, 0, NULL, NULL, GRAPH_STRICT, NULL, msg, sizeof msg);
	refex_compute(&g, NULL, &ws);
	refex_ws_free(&ws);
	refex_ws_free(NULL);
	free(big);
	graph_free(&g);
	graph_free(&h);
}

Test(refex_threads, same_values)
{
	graph g;
	double *a, *b;
	int nt = omp_get_max_threads();

	/* 40000 nodes, mean degree about 12: past FEATURES_PAR_MIN_ARCS arcs */
	dcbm_graph(&g, 40000, 12, 5);
	cr_assert_geq(2 * g.m, FEATURES_PAR_MIN_ARCS);
	a = malloc((size_t)g.n * REFEX_COLS * sizeof *a);
	b = malloc((size_t)g.n * REFEX_COLS * sizeof *b);
	omp_set_num_threads(1);
	refex_compute(&g, a, NULL);
	omp_set_num_threads(3);
	refex_compute(&g, b, NULL);
	omp_set_num_threads(nt);
	cr_expect_eq(memcmp(a, b, (size_t)g.n * REFEX_COLS * sizeof *a), 0,
		     "1 and 3 threads: the same bytes");
	free(a);
	free(b);
	graph_free(&g);
}
