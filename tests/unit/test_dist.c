/*
 * test_dist.c - the pieces of data-parallel training (common/dist.c):
 * the exact sum (its rounding, its independence of the order and the
 * split of its terms, the values it refuses), a batch cut into its
 * graphs (each part as batch_build() makes it for the graph alone), and
 * the parts' passes (model_step_part), whose losses and gradients add up
 * to the whole batch's.  Built in double (NN_DOUBLE) like test_nn.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <gsl/gsl_rng.h>

#include "dist.h"
#include "err.h"
#include "model.h"
#include "rng.h"

/* ---- exact sums ---- */

static float
sum1(const float *x, int n)
{
	xsum s;
	float r;

	xsum_init(&s, 1);
	for (int i = 0; i < n; i++)
		cr_assert(xsum_add(&s, &x[i]) == -1);
	xsum_get(&s, &r);
	xsum_free(&s);
	return r;
}

Test(xsum, rounds_once_to_nearest_even)
{
	/* 2^24 + 1 and 2^24 + 3 are halfway between floats: to even */
	float a[2] = { 16777216.0f, 1.0f }, b[2] = { 16777216.0f, 3.0f };
	cr_expect(sum1(a, 2) == 16777216.0f);
	cr_expect(sum1(b, 2) == 16777220.0f);
	/* a float sum loses the 1s one by one; the exact sum keeps them */
	float c[5] = { 16777216.0f, 1.0f, 1.0f, 1.0f, 1.0f };
	cr_expect(sum1(c, 5) == 16777220.0f);
	/* cancellation: exactly 2^-50 left */
	float d[3] = { 1.0f, ldexpf(1, -50), -1.0f };
	cr_expect(sum1(d, 3) == ldexpf(1, -50));
	float z[2] = { 3.5f, -3.5f };
	float zz = sum1(z, 2);
	cr_expect(zz == 0 && !signbit(zz));
}

Test(xsum, small_values)
{
	/* 2^-57 and above are exact; below, rounded to a multiple of 2^-80 */
	float a = ldexpf(1 + ldexpf(1, -23), -57), b = ldexpf(1 + ldexpf(1, -23), -70);
	float c = ldexpf(1, -82), d = ldexpf(3, -82), e = ldexpf(1, -149);
	cr_expect(sum1(&a, 1) == a);
	cr_expect(sum1(&b, 1) == ldexpf(1, -70), "the low bit of a value below 2^-57 goes");
	cr_expect(sum1(&c, 1) == 0, "2^-82 rounds to 0");
	cr_expect(sum1(&d, 1) == ldexpf(1, -80), "3 2^-82 rounds to 2^-80");
	cr_expect(sum1(&e, 1) == 0, "a subnormal rounds to 0");
	float big[2] = { 0x1.fffffep45f, -0x1.fffffep45f };
	cr_expect(sum1(big, 2) == 0 && sum1(big, 1) == big[0], "the largest value taken");
}

Test(xsum, refuses_what_it_cannot_sum)
{
	float x[4] = { 1, 2, 0, 4 }, r[4];
	float bad[3] = { INFINITY, NAN, ldexpf(1, 46) };
	xsum s;

	xsum_init(&s, 4);
	cr_assert(xsum_add(&s, x) == -1);
	for (int k = 0; k < 3; k++) {
		float y[4] = { 1, 1, 1, 1 };
		y[2] = bad[k];
		cr_expect(xsum_add(&s, y) == 2, "value %g at index 2", (double)bad[k]);
		y[2] = -bad[k];
		cr_expect(xsum_add(&s, y) == 2, "value %g at index 2", (double)-bad[k]);
	}
	xsum_get(&s, r);
	cr_expect(r[0] == 7 && r[1] == 8 && r[2] == 0 && r[3] == 10,
		  "the others added: %g %g %g %g", r[0], r[1], r[2], r[3]);
	xsum_free(&s);
}

/* Values whose exact sum a double holds: multiples of 2^-20 below 2^30
 * (50 bits), a few of them. */
static float
exact_term(gsl_rng *r)
{
	int64_t k = (int64_t)gsl_rng_uniform_int(r, 1UL << 24) - (1L << 23);
	return ldexpf((float)k, (int)gsl_rng_uniform_int(r, 27) - 20);
}

Test(xsum, any_order_any_split)
{
	enum { N = 1000, T = 8 };
	gsl_rng *r = rng_new(5, 0);
	float *x = xmallocarray(N * T, sizeof *x), *a = xmallocarray(N, sizeof *a),
	      *b = xmallocarray(N, sizeof *b);
	xsum s, p[3];

	for (int i = 0; i < N * T; i++)
		x[i] = exact_term(r);
	/* in order */
	xsum_init(&s, N);
	for (int t = 0; t < T; t++)
		xsum_add(&s, x + t * N);
	xsum_get(&s, a);
	for (int i = 0; i < N; i++) {
		double e = 0;
		for (int t = 0; t < T; t++)
			e += x[t * N + i]; /* exact in double */
		cr_assert(a[i] == (float)e, "element %d: %a, want %a", i, (double)a[i], e);
	}
	/* reversed, in three parts merged as ranks would */
	for (int k = 0; k < 3; k++)
		xsum_init(&p[k], N);
	for (int t = T - 1; t >= 0; t--)
		xsum_add(&p[t % 3], x + t * N);
	xsum_merge(&p[2], &p[0]);
	xsum_merge(&p[2], &p[1]);
	xsum_get(&p[2], b);
	cr_assert(memcmp(a, b, N * sizeof *a) == 0, "the same bits in any order and split");
	for (int k = 0; k < 3; k++)
		xsum_free(&p[k]);
	xsum_free(&s);
	free(x);
	free(a);
	free(b);
	gsl_rng_free(r);
}

/* ---- a batch cut into graphs ---- */

static gsl_rng *R;

static struct lgraph *
graph_of(int64_t id, int32_t n, int K)
{
	struct lgraph *lg = batch_lgraph_new(id);
	int32_t u[512], v[512];
	int64_t m = 0;
	char msg[100];

	lg->K = K;
	lg->cluster = xmallocarray((size_t)n, sizeof *lg->cluster);
	for (int32_t i = 0; i < n; i++)
		lg->cluster[i] = i % K;
	for (int32_t i = 0; i < n; i++)
		for (int32_t j = i + 1; j < n; j++)
			if (gsl_rng_uniform(R) < (lg->cluster[i] == lg->cluster[j] ? 0.6 : 0.1) &&
			    m < 512) {
				u[m] = i;
				v[m++] = j;
			}
	cr_assert(graph_build(&lg->g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg) == 0);
	lg->cent = xmallocarray((size_t)n * MODEL_NCENT, sizeof *lg->cent);
	for (int32_t i = 0; i < n * MODEL_NCENT; i++)
		lg->cent[i] = i % 5 == 0 ? 0 : gsl_rng_uniform(R);
	return lg;
}

#define SAME(f, n) \
	cr_assert(memcmp(p.f, w.f, (size_t)(n) * sizeof *p.f) == 0, \
		  "graph %d: %s differs from the graph's own batch", g, #f)

Test(batch_graph, each_part_is_the_graphs_own_batch)
{
	struct lgraph *gs[4];
	struct batch_opts bo;
	batch b, p, w;
	char msg[200];

	R = rng_new(11, 0);
	gs[0] = graph_of(3, 17, 3);
	gs[1] = graph_of(8, 9, 1);
	gs[2] = graph_of(2, 23, 4);
	gs[3] = graph_of(40, 12, 2);
	batch_opts_default(&bo);
	bo.npos = 5;
	bo.nneg = 7;
	bo.support_fraction = 0.5; /* clusters may be absent from the support */
	batch_init(&b);
	batch_init(&p);
	batch_init(&w);
	cr_assert(batch_build(&b, gs, 4, 9, 2, &bo, msg, sizeof msg) == 0, "%s", msg);
	for (int g = 0; g < 4; g++) {
		batch_graph(&p, &b, g);
		cr_assert(batch_build(&w, gs + g, 1, 9, 2, &bo, msg, sizeof msg) == 0, "%s", msg);
		cr_assert(p.G == 1 && p.N == w.N && p.F == w.F && p.P == w.P && p.U == w.U &&
			      p.Ns == w.Ns && p.ncl == w.ncl && p.Q == w.Q && p.kmax == w.kmax,
			  "graph %d: the sizes of the graph's own batch", g);
		SAME(off, 2);
		SAME(X, w.N * w.F);
		SAME(rp, w.N + 1);
		SAME(ci, w.rp[w.N]);
		SAME(av, w.rp[w.N]);
		SAME(pu, w.P);
		SAME(pv, w.P);
		SAME(y, w.P);
		SAME(uidx, w.U);
		SAME(ru, w.P);
		SAME(rv, w.P);
		SAME(R, w.P * MODEL_NCENT);
		SAME(sidx, w.Ns);
		SAME(soff, w.ncl + 1);
		SAME(qidx, w.Q);
		SAME(qbeg, w.Q);
		SAME(qnum, w.Q);
		SAME(qtgt, w.Q);
	}
	batch_free(&b);
	batch_free(&p);
	batch_free(&w);
	for (int g = 0; g < 4; g++)
		batch_lgraph_free(gs[g]);
	gsl_rng_free(R);
}

/* The parts' losses and gradients, each a share of the step's means, add
 * up to the whole batch's (in double: to rounding). */
Test(model_step_part, parts_add_up_to_the_batch)
{
	struct model_cfg cfg;
	struct lgraph *gs[3];
	struct batch_opts bo;
	struct mout o;
	batch b, p;
	model M;
	char msg[200];
	double lw[NTASK], ls[NTASK] = { 0 };

	R = rng_new(12, 0);
	model_cfg_default(&cfg);
	cfg.d = 6;
	cfg.layers = 2;
	cfg.ntn_k = 2;
	cfg.rank_hidden = 3;
	cfg.att_hidden = 4;
	cr_assert(model_init(&M, &cfg) == 0);
	model_init_params(&M, R);
	gs[0] = graph_of(1, 15, 3);
	gs[1] = graph_of(2, 21, 2);
	gs[2] = graph_of(3, 10, 4);
	batch_opts_default(&bo);
	bo.npos = 6;
	bo.nneg = 9;
	batch_init(&b);
	batch_init(&p);
	cr_assert(batch_build(&b, gs, 3, 4, 0, &bo, msg, sizeof msg) == 0, "%s", msg);
	mws *w = model_ws_new();
	real *gw = xmallocarray((size_t)M.n, sizeof *gw), *gp = xcalloc((size_t)M.n, sizeof *gp);
	model_zero_grad(&M);
	model_step(&M, &b, w, 1, &o);
	memcpy(gw, M.g, (size_t)M.n * sizeof *gw);
	memcpy(lw, o.loss, sizeof lw);
	int64_t tot[NTASK] = { b.P, b.P, b.Q };
	for (int g = 0; g < 3; g++) {
		batch_graph(&p, &b, g);
		cr_assert(p.P < b.P && p.Q < b.Q, "a part has fewer items than the step");
		model_zero_grad(&M);
		model_step_part(&M, &p, w, 1, &o, tot);
		for (int64_t i = 0; i < M.n; i++)
			gp[i] += M.g[i];
		for (int k = 0; k < NTASK; k++)
			ls[k] += o.loss[k];
	}
	for (int k = 0; k < NTASK; k++)
		cr_expect(fabs(ls[k] - lw[k]) <= 1e-12 * fabs(lw[k]),
			  "loss %s: parts %.17g, "
			  "batch %.17g",
			  model_task_name[k], ls[k], lw[k]);
	double mx = 0, scale = 0;
	int64_t at = -1;
	for (int64_t i = 0; i < M.n; i++) {
		if (fabs(gp[i] - gw[i]) > mx) {
			mx = fabs(gp[i] - gw[i]);
			at = i;
		}
		if (fabs(gw[i]) > scale)
			scale = fabs(gw[i]);
	}
	cr_expect(scale > 0 && mx <= 1e-12 * scale,
		  "gradients: max diff %g at %lld (largest "
		  "gradient %g)",
		  mx, (long long)at, scale);
	free(gw);
	free(gp);
	model_ws_free(w);
	batch_free(&b);
	batch_free(&p);
	for (int g = 0; g < 3; g++)
		batch_lgraph_free(gs[g]);
	model_free(&M);
	gsl_rng_free(R);
}
