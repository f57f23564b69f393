/*
 * test_graphstat.c - the per-graph statistics (common/graphstat.h): every
 * value of small graphs worked out by hand, the edge cases (one node, no
 * node, no edge, regular graphs, equal largest components), spectral gaps
 * of graphs whose spectrum is known in closed form, the Lanczos path
 * against the dense one, the sampled path statistics against the exact
 * ones, the same values for any thread count, and only the statistics
 * asked for.
 * Run from the repository root: tests/bin/test_graphstat
 */
#include <math.h>
#include <omp.h>

#include "graphstat.h"
#include "ref_util.h"

#define ALL ((1u << GSTAT_N) - 1)

static void
compute(const graph *g, const struct gstat_opts *o, double *val, struct gstat_info *info)
{
	char msg[256];

	cr_assert_eq(gstat_compute(g, o, val, info, NULL, msg, sizeof msg), 0, "gstat_compute: %s",
		     msg);
	for (int i = 0; i < GSTAT_N; i++)
		if (o == NULL || o->want & 1u << i)
			cr_assert(isfinite(val[i]), "%s is %g", gstat_name[i], val[i]);
}

/* |got - want| <= rtol max(|got|, |want|), with a message naming it. */
static void
near(const char *what, double got, double want, double rtol)
{
	cr_assert(fabs(got - want) <= rtol * fmax(fabs(got), fabs(want)),
		  "%s: got %.17g, want %.17g", what, got, want);
}

static void
check_all(const double *val, const double *want, double rtol)
{
	for (int i = 0; i < GSTAT_N; i++)
		near(gstat_name[i], val[i], want[i], rtol);
}

/* A DCBM graph of n nodes, mean degree about deg and the given clusters
 * into g. */
static void
dcbm_graph(graph *g, int32_t n, double deg, int32_t clusters, uint64_t seed)
{
	ref_dcbm_graph(g, n, deg, clusters, 5, seed);
}

/*
 * A triangle 0-1-2 with a tail 2-3 and an isolated node 4:
 *   n 5, m 4, density 8 / 20, degrees 2 2 3 1 0 (mean 1.6, squared
 *   deviations 5.2 in all: CV sqrt(5.2 / 5) / 1.6, max 3);
 *   assortativity: the 8 ordered edge ends have mu = 18/8, E[xy] = 38/8,
 *   E[x^2] = 44/8, so r = (38/8 - mu^2) / (44/8 - mu^2) = -5/7;
 *   transitivity 3 x 1 triangle / 5 triples, clustering (1 + 1 + 1/3) / 5;
 *   2 components, the largest of 4 nodes, diameter 2, distances summing to
 *   8 over its 6 pairs (mean 4/3); its normalized Laplacian has
 *   eigenvalues 0, 3/2 and the roots of x^2 - 5/2 x + 4/3, so lambda_2 =
 *   5/4 - sqrt(11/12) / 2 (networkx 2.8.8: 0.7712864461218305).
 */
Test(graphstat, tail_by_hand)
{
	static const int32_t e[] = { 0, 1, 1, 2, 0, 2, 2, 3 };
	const double want[GSTAT_N] = {
		[GSTAT_LOG_NODES] = log(6),
		[GSTAT_LOG_EDGES] = log(5),
		[GSTAT_DENSITY] = 0.4,
		[GSTAT_LOG_MEAN_DEGREE] = log(2.6),
		[GSTAT_DEGREE_CV] = sqrt(5.2 / 5) / 1.6,
		[GSTAT_LOG_MAX_DEGREE] = log(4),
		[GSTAT_ASSORTATIVITY] = -5.0 / 7,
		[GSTAT_TRANSITIVITY] = 0.6,
		[GSTAT_CLUSTERING] = 7.0 / 15,
		[GSTAT_LOG_COMPONENTS] = log(3),
		[GSTAT_LCC_SHARE] = 0.8,
		[GSTAT_LOG_DIAMETER] = log(3),
		[GSTAT_LOG_MEAN_PATH] = log(7.0 / 3),
		[GSTAT_SPECTRAL_GAP] = 1.25 - sqrt(11.0 / 12) / 2,
	};
	struct gstat_info info;
	double val[GSTAT_N];
	graph g;

	ref_graph(&g, 5, 4, e);
	compute(&g, NULL, val, &info);
	check_all(val, want, 1e-14);
	cr_assert_eq(info.lcc_nodes, 4);
	cr_assert_eq(info.paths_sampled, 0);
	cr_assert_eq(info.undefined, 0);
	graph_free(&g);
}

/* One node: log 2 for the nodes and the one component, share 1, all else
 * 0, assortativity and the gap undefined.  No node: 0 everywhere.  No
 * edge (5 nodes): 5 components of one node. */
Test(graphstat, tiny_graphs)
{
	struct gstat_info info;
	double val[GSTAT_N], want[GSTAT_N] = { 0 };
	graph g;

	ref_graph(&g, 1, 0, NULL);
	compute(&g, NULL, val, &info);
	want[GSTAT_LOG_NODES] = want[GSTAT_LOG_COMPONENTS] = log(2);
	want[GSTAT_LCC_SHARE] = 1;
	check_all(val, want, 0);
	cr_assert_eq(info.undefined, 1u << GSTAT_ASSORTATIVITY | 1u << GSTAT_SPECTRAL_GAP);
	graph_free(&g);

	ref_graph(&g, 0, 0, NULL);
	compute(&g, NULL, val, &info);
	memset(want, 0, sizeof want);
	check_all(val, want, 0);
	graph_free(&g);

	ref_graph(&g, 5, 0, NULL);
	compute(&g, NULL, val, &info);
	want[GSTAT_LOG_NODES] = want[GSTAT_LOG_COMPONENTS] = log(6);
	want[GSTAT_LCC_SHARE] = 0.2;
	check_all(val, want, 1e-15);
	cr_assert_eq(info.lcc_nodes, 1);
	graph_free(&g);
}

/* A path, a cycle, a complete graph and a star: normalized Laplacian
 * eigenvalues 1 - cos(pi k / (n - 1)), 1 - cos(2 pi k / n), n / (n - 1)
 * and {0, 1, 2}; their diameters and mean distances.  The cycle and the
 * complete graph are regular: assortativity undefined (0); the star's is
 * -1 (every edge joins a leaf to the centre). */
static void
ring(graph *g, int32_t n, int close)
{
	int32_t *uv = malloc(4 * (size_t)n * sizeof *uv), m = 0;

	for (int32_t i = 0; i + 1 < n; i++, m++) {
		uv[2 * m] = i;
		uv[2 * m + 1] = i + 1;
	}
	if (close) {
		uv[2 * m] = 0;
		uv[2 * m + 1] = n - 1;
		m++;
	}
	ref_graph(g, n, m, uv);
	free(uv);
}

Test(graphstat, known_spectra)
{
	struct gstat_info info;
	double val[GSTAT_N];
	int32_t uv[2 * 28], k = 0;
	graph g;

	ring(&g, 30, 0); /* path: diameter 29, mean distance (n + 1) / 3 */
	compute(&g, NULL, val, &info);
	near("path gap", val[GSTAT_SPECTRAL_GAP], 1 - cos(M_PI / 29), 1e-10);
	near("path diameter", val[GSTAT_LOG_DIAMETER], log(30), 1e-15);
	near("path mean", val[GSTAT_LOG_MEAN_PATH], log1p(31.0 / 3), 1e-15);
	graph_free(&g);

	ring(&g, 40, 1); /* cycle: diameter 20, mean distance n^2/4 / (n - 1) */
	compute(&g, NULL, val, &info);
	near("cycle gap", val[GSTAT_SPECTRAL_GAP], 1 - cos(2 * M_PI / 40), 1e-10);
	near("cycle diameter", val[GSTAT_LOG_DIAMETER], log(21), 1e-15);
	near("cycle mean", val[GSTAT_LOG_MEAN_PATH], log1p(400.0 / 39), 1e-15);
	cr_assert_eq(val[GSTAT_ASSORTATIVITY], 0);
	cr_assert(info.undefined & 1u << GSTAT_ASSORTATIVITY);
	cr_assert_eq(val[GSTAT_TRANSITIVITY], 0);
	graph_free(&g);

	for (int32_t i = 0; i < 8; i++) /* K8 */
		for (int32_t j = i + 1; j < 8; j++, k++) {
			uv[2 * k] = i;
			uv[2 * k + 1] = j;
		}
	ref_graph(&g, 8, k, uv);
	compute(&g, NULL, val, &info);
	near("K8 gap", val[GSTAT_SPECTRAL_GAP], 8.0 / 7, 1e-13);
	cr_assert_eq(val[GSTAT_DENSITY], 1);
	cr_assert_eq(val[GSTAT_TRANSITIVITY], 1);
	cr_assert_eq(val[GSTAT_CLUSTERING], 1);
	cr_assert_eq(val[GSTAT_ASSORTATIVITY], 0);
	graph_free(&g);

	for (k = 0; k < 12; k++) { /* a star of 12 leaves */
		uv[2 * k] = 0;
		uv[2 * k + 1] = k + 1;
	}
	ref_graph(&g, 13, 12, uv);
	compute(&g, NULL, val, &info);
	near("star gap", val[GSTAT_SPECTRAL_GAP], 1, 1e-13);
	near("star assortativity", val[GSTAT_ASSORTATIVITY], -1, 1e-14);
	cr_assert_eq(info.undefined, 0);
	graph_free(&g);
}

/* Two triangles and a path of 3: the largest component is the first
 * triangle (the one of node 0), and with two equal largest ones of
 * different shape (a path of 3 before a triangle), the first. */
Test(graphstat, equal_components)
{
	static const int32_t e1[] = { 0, 1, 1, 2, 0, 2, 3, 4, 4, 5, 3, 5, 6, 7, 7, 8 };
	static const int32_t e2[] = { 0, 1, 1, 2, 3, 4, 4, 5, 3, 5 };
	struct gstat_info info;
	double val[GSTAT_N];
	graph g;

	ref_graph(&g, 9, 8, e1);
	compute(&g, NULL, val, &info);
	near("share", val[GSTAT_LCC_SHARE], 3.0 / 9, 1e-15);
	near("diameter", val[GSTAT_LOG_DIAMETER], log(2), 1e-15);
	near("gap", val[GSTAT_SPECTRAL_GAP], 1.5, 1e-13);
	graph_free(&g);
	ref_graph(&g, 6, 5, e2); /* the path 0-1-2 first: diameter 2, gap 1 */
	compute(&g, NULL, val, &info);
	near("diameter", val[GSTAT_LOG_DIAMETER], log(3), 1e-15);
	near("gap", val[GSTAT_SPECTRAL_GAP], 1, 1e-13);
	graph_free(&g);
}

/* Only the statistics asked for are written; the others keep what the
 * caller put there. */
Test(graphstat, subset)
{
	struct gstat_opts o;
	struct gstat_info info;
	double all[GSTAT_N], val[GSTAT_N];
	graph g;

	dcbm_graph(&g, 300, 6, 3, 7);
	compute(&g, NULL, all, &info);
	gstat_opts_init(&o);
	o.want = 1u << GSTAT_DENSITY | 1u << GSTAT_SPECTRAL_GAP;
	for (int i = 0; i < GSTAT_N; i++)
		val[i] = -7;
	compute(&g, &o, val, &info);
	for (int i = 0; i < GSTAT_N; i++)
		cr_assert_eq(val[i], o.want & 1u << i ? all[i] : -7, "%s", gstat_name[i]);
	graph_free(&g);
	cr_assert_eq(gstat_index("spectral_gap,x", 12), GSTAT_SPECTRAL_GAP);
	cr_assert_eq(gstat_index("spectral", 8), -1);
}

/* The gap by Lanczos (dense_max 0) against the dense solver, on a graph
 * of clusters (a small gap, the hard case for Lanczos) and on a long
 * cycle (a tiny gap, doubly degenerate). */
Test(graphstat, lanczos_against_dense)
{
	struct gstat_opts o;
	struct gstat_info info;
	double dense[GSTAT_N], lz[GSTAT_N];
	graph g;

	gstat_opts_init(&o);
	o.want = 1u << GSTAT_SPECTRAL_GAP;
	dcbm_graph(&g, 900, 5, 8, 3);
	o.dense_max = 1000;
	compute(&g, &o, dense, &info);
	o.dense_max = 0;
	compute(&g, &o, lz, &info);
	near("DCBM gap", lz[GSTAT_SPECTRAL_GAP], dense[GSTAT_SPECTRAL_GAP], 1e-9);
	cr_assert(dense[GSTAT_SPECTRAL_GAP] > 0 && dense[GSTAT_SPECTRAL_GAP] < 1);
	graph_free(&g);
	ring(&g, 400, 1);
	compute(&g, &o, lz, &info);
	near("cycle gap", lz[GSTAT_SPECTRAL_GAP], 1 - cos(2 * M_PI / 400), 1e-6);
	graph_free(&g);
}

/* Past exact_max: the diameter is a lower bound, the mean distance near
 * the exact one (within 5 standard errors), and a budget of at least the
 * component's nodes is exact. */
Test(graphstat, sampled_paths)
{
	struct gstat_opts o;
	struct gstat_info ie, is;
	double ex[GSTAT_N], sa[GSTAT_N];
	graph g;

	dcbm_graph(&g, 1500, 4, 4, 11);
	gstat_opts_init(&o);
	o.want = 1u << GSTAT_LOG_DIAMETER | 1u << GSTAT_LOG_MEAN_PATH;
	compute(&g, &o, ex, &ie);
	cr_assert_eq(ie.paths_sampled, 0);
	o.exact_max = 100;
	o.samples = 64;
	o.seed = 5;
	compute(&g, &o, sa, &is);
	cr_assert_eq(is.paths_sampled, 1);
	cr_assert_eq(is.sources, 64);
	cr_assert(is.sweeps >= 1 && is.sweeps <= GSTAT_SWEEPS);
	cr_assert(sa[GSTAT_LOG_DIAMETER] <= ex[GSTAT_LOG_DIAMETER]);
	cr_assert(sa[GSTAT_LOG_DIAMETER] >= log(2 + expm1(ex[GSTAT_LOG_DIAMETER])) - log(2) - 1e-15,
		  "a double sweep gives at least half the diameter");
	double m_ex = expm1(ex[GSTAT_LOG_MEAN_PATH]), m_sa = expm1(sa[GSTAT_LOG_MEAN_PATH]);
	cr_assert(is.mean_path_se > 0 && is.mean_path_se < 0.05 * m_ex, "se %g", is.mean_path_se);
	cr_assert(fabs(m_sa - m_ex) <= 5 * is.mean_path_se, "mean %g, exact %g, se %g", m_sa, m_ex,
		  is.mean_path_se);
	o.samples = 100000; /* more sources than nodes: every node, exact */
	compute(&g, &o, sa, &is);
	cr_assert_eq(is.paths_sampled, 0);
	cr_assert_eq(sa[GSTAT_LOG_MEAN_PATH], ex[GSTAT_LOG_MEAN_PATH]);
	graph_free(&g);
}

/* The same bytes for 1 and 2 threads, exact and sampled, on a graph
 * whose searches run on threads. */
Test(graphstat, threads)
{
	struct gstat_opts o;
	struct gstat_info info;
	double a[GSTAT_N], b[GSTAT_N];
	graph g;
	int nth = omp_get_max_threads();

	dcbm_graph(&g, 3000, 8, 5, 13);
	gstat_opts_init(&o);
	for (int sampled = 0; sampled < 2; sampled++) {
		o.exact_max = sampled ? 1000 : GSTAT_EXACT_MAX;
		omp_set_num_threads(1);
		compute(&g, &o, a, &info);
		omp_set_num_threads(2);
		compute(&g, &o, b, &info);
		cr_assert_eq(info.paths_sampled, sampled);
		cr_assert_eq(memcmp(a, b, sizeof a), 0, "values differ with the thread count");
	}
	omp_set_num_threads(nth);
	cr_assert(gstat_bytes(g.n, g.m, &o, 2) > gstat_bytes(g.n, g.m, &o, 1));
	graph_free(&g);
}

/* One workspace across graphs of other sizes gives what a fresh one
 * gives. */
Test(graphstat, workspace_reuse)
{
	static const int32_t e[] = { 0, 1, 1, 2, 0, 2, 2, 3 };
	struct gstat_info info;
	double fresh[GSTAT_N], reused[GSTAT_N];
	graph g[3];
	gstat_ws ws;
	char msg[256];

	dcbm_graph(&g[0], 1200, 6, 4, 21);
	ref_graph(&g[1], 5, 4, e);
	dcbm_graph(&g[2], 400, 3, 2, 22);
	gstat_ws_init(&ws);
	for (int r = 0; r < 2; r++)
		for (int i = 0; i < 3; i++) {
			compute(&g[i], NULL, fresh, &info);
			cr_assert_eq(
			    gstat_compute(&g[i], NULL, reused, &info, &ws, msg, sizeof msg), 0);
			cr_assert_eq(memcmp(fresh, reused, sizeof fresh), 0, "graph %d", i);
		}
	gstat_ws_free(&ws);
	gstat_ws_free(NULL);
	for (int i = 0; i < 3; i++)
		graph_free(&g[i]);
}
