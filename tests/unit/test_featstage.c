/*
 * test_featstage.c - the feature stage (common/featstage.h): a built-in
 * set per graph is nodefeat's or rwse's own computation (on a small graph
 * RWSE is exact, so its seed by the graph's place in the batch is left to
 * tests/cli/featstage.test.sh), a called stage runs once per batch, and an
 * input's 'features' tensors are compared with the first one.
 * Run from the repository root: tests/bin/test_featstage
 */
#include <math.h>

#include "featstage.h"
#include "ref_util.h"
#include "rng.h"

/* A triangle 0-1-2 with a tail 2-3-4. */
static void
tailed(graph *g)
{
	static const int32_t e[] = { 0, 1, 1, 2, 0, 2, 2, 3, 3, 4 };

	ref_graph(g, 5, 5, e);
}

Test(featstage, builtin_sets_are_their_modules)
{
	struct featstage_ws ws;
	struct feat_src fs;
	struct rwse_opts ro;
	double got[5 * RWSE_STEPS], want[5 * RWSE_STEPS];
	graph g;

	tailed(&g);
	featstage_ws_init(&ws);
	feat_src_default(&fs);
	cr_assert(featstage_graph(&fs, &g, 0, got, &ws) == 0);
	nodefeat_raw(&g, want, NULL);
	cr_assert(nodefeat_scale(want, g.n, want, FEAT_SCALE_MINMAX) == 0);
	cr_expect(memcmp(got, want, sizeof(double) * 5 * MODEL_NFEAT) == 0, "paper");
	cr_assert(feat_src_builtin(&fs, "rwse") == 0 && fs.F == RWSE_STEPS);
	cr_assert(featstage_graph(&fs, &g, 3, got, &ws) == 0);
	rwse_opts_init(&ro);
	ro.seed = rng_mix(0, 3);
	cr_assert(rwse_compute(&g, &ro, want, NULL, NULL) == 0);
	cr_expect(memcmp(got, want, sizeof(double) * 5 * RWSE_STEPS) == 0, "rwse at place 3");
	/* both: the paper's four min-max, then log1p of degree, core, CI_1 by
	 * hand: degrees 2 2 3 2 1, cores 2 2 2 1 1, CI_1 3 3 6 2 0 */
	static const double deg[] = { 2, 2, 3, 2, 1 }, core[] = { 2, 2, 2, 1, 1 },
			    ci1[] = { 3, 3, 6, 2, 0 };
	cr_assert(feat_src_builtin(&fs, "both") == 0 && fs.F == FEAT_BOTH_N && fs.F == 7);
	cr_assert(featstage_graph(&fs, &g, 0, got, &ws) == 0);
	nodefeat_raw(&g, want, NULL);
	cr_assert(nodefeat_scale(want, g.n, want, FEAT_SCALE_MINMAX) == 0);
	for (int v = 0; v < 5; v++) {
		cr_expect(
		    memcmp(got + 7 * v, want + MODEL_NFEAT * v, sizeof(double) * MODEL_NFEAT) == 0,
		    "both: node %d's min-max four", v);
		cr_expect(got[7 * v + 4] == log1p(deg[v]) && got[7 * v + 5] == log1p(core[v]) &&
			      got[7 * v + 6] == log1p(ci1[v]),
			  "both: node %d's log columns", v);
	}
	fs.scale = FEAT_SCALE_LOG;
	cr_expect(featstage_graph(&fs, &g, 0, got, &ws) == -1, "both takes no other scaling");
	fs.scale = FEAT_SCALE_MINMAX;
	fs.kind = FEAT_SRC_CALL;
	cr_expect(featstage_graph(&fs, &g, 0, got, &ws) == -1, "a called stage is per batch");
	featstage_ws_free(&ws);
	graph_free(&g);
}

static int ncalls, nseen;

static int
count_call(void *ctx, const graph *const *gs, int G, double *const *feat, char *msg, size_t len)
{
	(void)ctx, (void)gs, (void)msg, (void)len;
	ncalls++;
	nseen += G;
	for (int i = 0; i < G; i++)
		feat[i][0] = i;
	return 0;
}

Test(featstage, a_call_runs_once_per_batch)
{
	struct feat_src fs = { .kind = FEAT_SRC_CALL, .F = 1, .call = count_call };
	double a[5], b[5], *out[2] = { a, b };
	const graph *gs[2];
	char msg[64];
	graph g;

	tailed(&g);
	gs[0] = gs[1] = &g;
	cr_assert(featstage_graphs(&fs, gs, 2, out, msg, sizeof msg) == 0);
	cr_expect(ncalls == 1 && nseen == 2 && a[0] == 0 && b[0] == 1);
	feat_src_default(&fs);
	cr_assert(featstage_graphs(&fs, gs, 2, out, msg, sizeof msg) == 0);
	cr_expect(ncalls == 1, "a built-in set is not called");
	graph_free(&g);
}

/* A 'features' tensor of n rows, cols columns named names. */
static void
tensor(gs_rec *r, double *data, int64_t n, int64_t cols, const char *names)
{
	gs_rec_init(r);
	r->kind = GS_TENSOR;
	snprintf(r->name, sizeof r->name, "features");
	r->rows = n;
	r->cols = cols;
	r->dtype = GS_F64;
	r->data = data;
	r->columns = (char *)names;
}

Test(featstage, tensors_compared_with_the_first)
{
	static double data[5 * 4];
	struct feat_seen seen = { 0 };
	double *feat = NULL;
	gs_rec r, held[2];
	char msg[256];
	int F;

	tensor(&r, data, 5, 4, FEATURES_COLUMNS);
	cr_expect(featstage_tensor(&seen, &r, 5, &feat, &F, msg, sizeof msg) == 0);
	cr_expect(seen.n == 1 && seen.F == 4 && seen.paper && F == 4);
	tensor(&r, data, 5, 4, "a,b,c,d");
	cr_expect(featstage_tensor(&seen, &r, 5, &feat, &F, msg, sizeof msg) ==
		  (FEAT_SEEN_COLUMNS | FEAT_SEEN_PAPER));
	tensor(&r, data, 5, 3, FEATURES_COLUMNS);
	cr_expect(featstage_tensor(&seen, &r, 5, &feat, &F, msg, sizeof msg) ==
		  (FEAT_SEEN_WIDTH | FEAT_SEEN_PAPER));
	cr_expect(seen.n == 3, "counted, the caller says which difference matters");
	tensor(&r, data, 4, 4, FEATURES_COLUMNS);
	cr_expect(featstage_tensor(&seen, &r, 5, &feat, &F, msg, sizeof msg) == -1);
	cr_expect_str_eq(msg, "'features' tensor is 4 x 4 float, want 5 rows of floats, at "
			      "most 65536 columns");
	cr_expect(seen.n == 3);
	tensor(&held[1], data, 5, 4, "");
	gs_rec_init(&held[0]);
	snprintf(held[0].name, sizeof held[0].name, "cluster");
	cr_expect(featstage_held(held, 2) == &held[1] && featstage_held(held, 1) == NULL);
	free(feat);
	feat_seen_free(&seen);
}

Test(featstage, misfit_of_given_tensors)
{
	struct feat_src fs;

	feat_src_default(&fs);
	cr_expect(featstage_misfit(&fs, 0, 0) == NULL, "not a stage of given tensors");
	fs.kind = FEAT_SRC_GIVEN;
	fs.F = 3;
	cr_expect(featstage_misfit(&fs, 1, 3) == NULL);
	cr_expect_str_eq(featstage_misfit(&fs, 1, 2),
			 "its 'features' tensor has another width than the first graph's");
	cr_expect_str_eq(featstage_misfit(&fs, 0, 0),
			 "no 'features' tensor (the stage is the input's tensors)");
}
