/*
 * test_bf16.c - a training step with bf16 products (gemm.h) against the
 * same step in fp32: the loss and every gradient tensor agree within a
 * tolerance derived from bf16's precision, and differ (the bf16 path ran).
 * Built in float like the programs (test_nn.c is the double build).
 *
 * The tolerance.  bf16 keeps 8 significant bits: rounding to nearest
 * changes a value by at most u = 2^-8 relative, by less on average
 * (measured: the 37,000 x 512 x 512 product of the issue has relative
 * Frobenius error 2.1e-3 = 0.54 u, both operands rounded).  The reduction
 * length K enters only through cancellation: the worst case of a sum of
 * K rounded terms is K u times their mean size, which says nothing (K =
 * 750 here); for independent rounding errors the error grows like
 * sqrt(K) and so does a sum of terms of either sign, so relative to the
 * result it stays about u/2 whatever K (fp32 accumulation adds K 2^-24,
 * negligible).  What does cancel in this model is the mean over a graph's
 * nodes: the normalisation divides each column's deviation from its mean
 * by its spread, and the gradients it passes down sum to zero over a
 * graph's nodes, so that the weight gradients' sums over the nodes lose
 * the mean of their other factor.  Both turn an error of u/2 relative to
 * a column's size into kappa u/2 relative to its spread, kappa =
 * sqrt(mean(x^2) / var(x)) over the columns of a graph: measured here on
 * the first block's normalisation input (relu(H0 W1) W2, whose inputs
 * are >= 0, kappa about 4).  A gradient passes through 2 L + 4 products
 * (forward and backward through L blocks and a task head) and so
 * model: rel_err ~ kappa^2 sqrt(2 L + 4) u / 2 (0.11 for kappa 4.25, L 3;
 * block1.W1 measured 0.116).  The bound is twice the model,
 * kappa^2 sqrt(2 L + 4) u, for every gradient tensor (relative Frobenius
 * norm), and u for the loss, whose error averages over every item.  Two
 * gradients are 0 in exact arithmetic (the output bias of the cluster
 * NTN, under a softmax; the ranking output biases, under the antisymmetric
 * RankNet pairs): their fp32 value is rounding noise, and they are left
 * out.  The test prints each tensor's error against the bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include "err.h"
#include "gemm.h"
#include "graph.h"
#include "model.h"
#include "rng.h"

#ifdef NN_DOUBLE
#error "test_bf16.c is the float build"
#endif

/* A graph of n nodes in K clusters (edges within a cluster with
 * probability pin, between clusters pout) with centrality-like targets. */
static struct lgraph *
cluster_graph(gsl_rng *r, int64_t id, int32_t n, int K, double pin, double pout)
{
	struct lgraph *lg = batch_lgraph_new(id);
	int64_t cap = (int64_t)n * n / 2, m = 0;
	int32_t *u = xmallocarray((size_t)cap, sizeof *u),
		*v = xmallocarray((size_t)cap, sizeof *v);
	lg->K = K;
	lg->cluster = xmallocarray((size_t)n, sizeof *lg->cluster);
	for (int32_t i = 0; i < n; i++)
		lg->cluster[i] = i % K;
	for (int32_t i = 0; i < n; i++)
		for (int32_t j = i + 1; j < n; j++)
			if (gsl_rng_uniform(r) < (lg->cluster[i] == lg->cluster[j] ? pin : pout)) {
				u[m] = i;
				v[m++] = j;
			}
	char msg[100];
	cr_assert(graph_build(&lg->g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg) == 0);
	lg->cent = xmallocarray((size_t)n * MODEL_NCENT, sizeof *lg->cent);
	for (int32_t i = 0; i < n; i++)
		for (int t = 0; t < MODEL_NCENT; t++)
			lg->cent[i * MODEL_NCENT + t] =
			    graph_degree(&lg->g, i) + gsl_rng_uniform(r);
	free(u);
	free(v);
	return lg;
}

static double
rel_err(const real *a, const real *b, int64_t n)
{
	double e = 0, s = 0;
	for (int64_t i = 0; i < n; i++) {
		e += ((double)a[i] - b[i]) * ((double)a[i] - b[i]);
		s += (double)b[i] * b[i];
	}
	return s > 0 ? sqrt(e / s) : sqrt(e);
}

/* The tests' model (d = 128) and a batch of ng (at most 3) clustered
 * graphs, large enough that the encoder's products go to bf16; the test
 * is skipped where bf16 is not available. */
static void
bf16_setup(gsl_rng *r, model *M, struct lgraph **gs, int ng, batch *b)
{
	char why[256];
	if (gemm_choose(GEMM_BF16, why, sizeof why) < 0)
		cr_skip_test("%s", why);
	static const struct {
		int32_t n;
		int K;
		double pin, pout;
	} gp[3] = { { 300, 4, 0.08, 0.01 }, { 250, 3, 0.1, 0.01 }, { 200, 5, 0.12, 0.02 } };
	struct model_cfg cfg;
	model_cfg_default(&cfg);
	cfg.d = 128;
	cfg.rank_hidden = 64;
	cfg.att_hidden = 128;
	cr_assert(model_init(M, &cfg) == 0);
	model_init_params(M, r);
	for (int i = 0; i < ng; i++)
		gs[i] = cluster_graph(r, i + 1, gp[i].n, gp[i].K, gp[i].pin, gp[i].pout);
	struct batch_opts bo;
	batch_opts_default(&bo);
	batch_init(b);
	char msg[200];
	cr_assert(batch_build(b, gs, ng, 1, 0, &bo, msg, sizeof msg) == 0, "%s", msg);
	cr_assert(gemm_bf16_worth(b->N, cfg.d, cfg.d), "the encoder's products go to bf16");
}

static void
bf16_teardown(model *M, struct lgraph **gs, int ng, batch *b)
{
	batch_free(b);
	for (int i = 0; i < ng; i++)
		batch_lgraph_free(gs[i]);
	model_free(M);
	gemm_release();
}

Test(bf16, step_agrees_with_fp32)
{
	gsl_rng *r = rng_new(2024, 0);
	model M;
	struct lgraph *gs[3];
	batch b;
	bf16_setup(r, &M, gs, 3, &b);
	const struct model_cfg cfg = M.cfg;

	/* kappa of the first block's normalisation input T1 = relu(H0 W1) W2:
	 * a column's size against its spread within its graph */
	double kappa;
	{
		int64_t N = b.N, d = cfg.d;
		real *H0 = xmallocarray((size_t)(N * d), sizeof *H0),
		     *A1 = xmallocarray((size_t)(N * d), sizeof *A1);
		real *T1 = xmallocarray((size_t)(N * d), sizeof *T1);
		nn_lin_fwd(H0, b.X, M.P.E, M.P.Eb, N, cfg.nfeat, d);
		nn_tanh_fwd(H0, H0, N * d);
		nn_lin_fwd(A1, H0, M.P.W1[0], NULL, N, d, d);
		nn_relu_fwd(A1, A1, N * d);
		nn_lin_fwd(T1, A1, M.P.W2[0], NULL, N, d, d);
		double ss = 0, sv = 0;
		for (int g = 0; g < b.G; g++)
			for (int64_t c = 0; c < d; c++) {
				double mu = 0, m2 = 0;
				int64_t n = b.off[g + 1] - b.off[g];
				for (int64_t v = b.off[g]; v < b.off[g + 1]; v++) {
					mu += T1[v * d + c];
					m2 += (double)T1[v * d + c] * T1[v * d + c];
				}
				mu /= n;
				ss += m2;
				sv += m2 - n * mu * mu;
			}
		kappa = sqrt(ss / sv);
		free(H0);
		free(A1);
		free(T1);
	}
	mws *w = model_ws_new();
	struct mout o;
	real *g32 = xmallocarray((size_t)M.n, sizeof *g32);
	gemm_set_precision(GEMM_FP32);
	model_zero_grad(&M);
	double l32 = model_step(&M, &b, w, 1, &o);
	memcpy(g32, M.g, (size_t)M.n * sizeof *g32);
	gemm_set_precision(GEMM_BF16);
	model_zero_grad(&M);
	double l16 = model_step(&M, &b, w, 1, &o);
	gemm_set_precision(GEMM_FP32);

	const double u = 1.0 / 256; /* 2^-8 */
	double gbound = kappa * kappa * sqrt(2.0 * cfg.layers + 4) * u, worst = 0;
	double dl = fabs(l16 - l32) / l32;
	int differ = 0;
	printf("bf16 step: kappa %.2f; loss %.6f (fp32 %.6f), relative difference %.2e "
	       "(bound u = %.2e)\n",
	       kappa, l16, l32, dl, u);
	cr_expect(isfinite(l16) && dl <= u, "loss: bf16 %.6f against fp32 %.6f", l16, l32);
	for (int i = 0; i < M.nt; i++) {
		struct mtensor *t = &M.t[i];
		int64_t n = t->rows * t->cols;
		if (strcmp(t->name, "cluster.out.b") == 0 || strcmp(t->name, "rank.b2") == 0)
			continue; /* 0 in exact arithmetic */
		double e = rel_err(M.g + t->off, g32 + t->off, n);
		printf("bf16 step: %-18s relative error %.2e (bound %.2e)\n", t->name, e, gbound);
		cr_expect(e <= gbound, "%s: relative error %.3g > %.3g", t->name, e, gbound);
		if (e > worst)
			worst = e;
		differ |= e > 0;
	}
	/* the bf16 products ran: rounding left its mark on the big tensors */
	cr_expect(differ && worst > 0.05 * u, "bf16 and fp32 gradients equal: bf16 not used?");
	printf("bf16 step: largest gradient error %.2e, %.2f of the bound\n", worst,
	       worst / gbound);

	free(g32);
	model_ws_free(w);
	bf16_teardown(&M, gs, 3, &b);
	gsl_rng_free(r);
}

/* gemm_f32 in bf16 against sgemm on every transpose and a leading
 * dimension wider than the matrix: the error of rounded operands only. */
Test(bf16, products_every_layout)
{
	char why[256];
	if (gemm_choose(GEMM_BF16, why, sizeof why) < 0)
		cr_skip_test("%s", why);
	gsl_rng *r = rng_new(7, 0);
	const int64_t M = 70, N = 50, K = 300, pad = 3;
	float *A = xmallocarray((size_t)(K + pad) * (K + pad), sizeof *A);
	float *B = xmallocarray((size_t)(K + pad) * (K + pad), sizeof *B);
	float *C0 = xmallocarray((size_t)(M * N), sizeof *C0),
	      *C1 = xmallocarray((size_t)(M * N), sizeof *C1);
	for (int64_t i = 0; i < (K + pad) * (K + pad); i++) {
		A[i] = (float)(gsl_rng_uniform(r) - 0.5);
		B[i] = (float)(gsl_rng_uniform(r) - 0.5);
	}
	for (int ta = 0; ta < 2; ta++)
		for (int tb = 0; tb < 2; tb++) {
			int64_t lda = (ta ? M : K) + pad, ldb = (tb ? K : N) + pad;
			for (int64_t i = 0; i < M * N; i++)
				C0[i] = C1[i] = (float)(gsl_rng_uniform(r) - 0.5);
			gemm_set_precision(GEMM_FP32);
			gemm_f32(ta, tb, M, N, K, 0.75f, A, lda, B, ldb, 0.5f, C0, N);
			gemm_set_precision(GEMM_BF16);
			gemm_f32(ta, tb, M, N, K, 0.75f, A, lda, B, ldb, 0.5f, C1, N);
			double e = rel_err(C1, C0, M * N);
			cr_expect(e > 0 && e < 1.0 / 256, "ta %d tb %d: relative error %.3g", ta,
				  tb, e);
		}
	gemm_set_precision(GEMM_FP32);
	free(A);
	free(B);
	free(C0);
	free(C1);
	gsl_rng_free(r);
	gemm_release();
}

/*
 * gcn-adapt's cached path in bf16: the encoder run from block `from` on
 * the whole pass's H_from gives the whole bf16 pass's block outputs to the
 * bit (the given input is rounded to bf16 as the whole pass rounds its
 * own), and the backward pass after it the same gradients.  From H0
 * (model_embed(), fp32, rounded where the whole pass rounds its H0 made in
 * chunks) the outputs agree within bf16's rounding and the gradients too.
 */
static void
check_encode_from_bf16(int from, int bfrom, int embed)
{
	gsl_rng *r = rng_new(99, 0);
	model M;
	struct lgraph *gs[2];
	batch b;
	bf16_setup(r, &M, gs, 2, &b);
	int64_t N = b.N, d = M.cfg.d, L = M.cfg.layers;
	gemm_set_precision(GEMM_BF16);

	mws *w1 = model_ws_new(), *w2 = model_ws_new();
	real *H1[MODEL_MAXL], *H2[MODEL_MAXL];
	model_encode(&M, &b, w1, H1);
	real *Hin = xmallocarray((size_t)(N * d), sizeof *Hin);
	if (from == 0)
		model_embed(&M, &b, Hin);
	else
		memcpy(Hin, H1[from - 1], (size_t)(N * d) * sizeof *Hin);
	model_encode_from(&M, &b, w2, from, Hin, H2);
	for (int l = from; l < L; l++) {
		double e = rel_err(H2[l], H1[l], N * d);
		if (from > 0)
			cr_assert(memcmp(H1[l], H2[l], (size_t)(N * d) * sizeof(real)) == 0,
				  "from %d: block %d differs (relative %.2e)", from, l + 1, e);
		else
			cr_assert(e <= 1.0 / 256, "from H0: block %d, relative %.2e", l + 1, e);
	}
	real *rr = xmallocarray((size_t)(N * d), sizeof *rr),
	     *alpha = xmallocarray((size_t)d, sizeof *alpha),
	     *psi = xmallocarray((size_t)L, sizeof *psi);
	for (int64_t i = 0; i < N * d; i++)
		rr[i] = (real)gsl_rng_uniform(r) * 2 - 1;
	for (int64_t i = 0; i < d; i++)
		alpha[i] = (real)(0.5 + gsl_rng_uniform(r));
	for (int64_t i = 0; i < L; i++)
		psi[i] = (real)gsl_rng_uniform(r) * 2 - 1;
	int32_t *idx = xmallocarray((size_t)N, sizeof *idx);
	for (int32_t i = 0; i < N; i++)
		idx[i] = i;
	struct mix_src src = { alpha, psi, rr, idx, N, 1 };
	real *g1 = xmallocarray((size_t)M.n, sizeof *g1);
	model_zero_grad(&M);
	model_encode_bwd(&M, &b, w1, &src, 1, bfrom, embed);
	memcpy(g1, M.g, (size_t)M.n * sizeof *g1);
	model_zero_grad(&M);
	model_encode_bwd(&M, &b, w2, &src, 1, bfrom, embed);
	if (from > 0) {
		cr_assert(memcmp(g1, M.g, (size_t)M.n * sizeof *g1) == 0,
			  "from %d: the gradients differ", from);
	} else {
		const double u = 1.0 / 256;
		for (int i = 0; i < M.nt; i++) {
			struct mtensor *t = &M.t[i];
			double e = rel_err(M.g + t->off, g1 + t->off, t->rows * t->cols);
			cr_expect(e <= 4 * u, "from H0: %s, relative %.2e", t->name, e);
		}
	}
	int nz = 0;
	for (int64_t i = 0; i < M.n; i++)
		nz += g1[i] != 0;
	cr_assert(nz > 0, "no gradient at all");
	gemm_set_precision(GEMM_FP32);
	free(Hin);
	free(rr);
	free(alpha);
	free(psi);
	free(idx);
	free(g1);
	model_ws_free(w1);
	model_ws_free(w2);
	bf16_teardown(&M, gs, 2, &b);
	gsl_rng_free(r);
}

Test(bf16, encoder_from_block_1_is_the_whole_pass)
{
	check_encode_from_bf16(1, 1, 0);
}
Test(bf16, encoder_from_block_2_is_the_whole_pass)
{
	check_encode_from_bf16(2, 2, 0);
}
Test(bf16, encoder_from_h0_trains_e_too)
{
	check_encode_from_bf16(0, 0, 1);
}
Test(bf16, encoder_from_h0_trains_block_1_up)
{
	check_encode_from_bf16(0, 1, 0);
}

/* Without bf16 (no oneDNN, or a CPU without bf16 products, as
 * ONEDNN_MAX_CPU_ISA=AVX2 makes it) --precision bf16 is refused with a
 * reason and auto takes fp32; with it, auto says which it took and why. */
Test(bf16, auto_is_fp32_without_bf16)
{
	char why[256], awhy[256];
	int bf = gemm_choose(GEMM_BF16, why, sizeof why),
	    au = gemm_choose(GEMM_AUTO, awhy, sizeof awhy);
	if (bf < 0) {
		cr_expect(strncmp(why, "bf16 is not available: ", 23) == 0, "bf16 refused: '%s'",
			  why);
		cr_expect(au == GEMM_FP32 && strncmp(awhy, "fp32: ", 6) == 0, "auto: %d '%s'", au,
			  awhy);
	} else {
		cr_expect(bf == GEMM_BF16, "bf16 as asked: %d '%s'", bf, why);
		cr_expect((au == GEMM_FP32 && strncmp(awhy, "fp32: ", 6) == 0) ||
			      (au == GEMM_BF16 && strncmp(awhy, "bf16: ", 6) == 0),
			  "auto: %d '%s'", au, awhy);
	}
	gemm_release();
}

/* Criterion names a skipped test only with --verbose: where bf16 is not
 * available, say once, visibly, what did not run and why. */
ReportHook(POST_ALL)(struct criterion_global_stats *st)
{
	const char *why = "";
	for (struct criterion_suite_stats *s = st->suites; s; s = s->next)
		for (struct criterion_test_stats *t = s->tests; t; t = t->next)
			if (t->test_status == CR_STATUS_SKIPPED && t->message && !why[0])
				why = t->message;
	if (st->tests_skipped > 0)
		fprintf(stderr, "SKIP: test_bf16: %zu of %zu tests: %s\n", st->tests_skipped,
			st->nb_tests, why);
}
