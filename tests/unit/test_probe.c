/*
 * test_probe.c - the linear probe's splits, standardisation, pooling and
 * fits (common/probe.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "err.h"
#include "probe.h"
#include "rng.h"
#include "split.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

Test(probe, scaling_uses_the_training_rows_and_zeroes_constant_columns)
{
	/* 4 rows x 3 columns; rows 0..2 train.  Column 0: 1 2 3 -> mean 2,
	 * population sd sqrt(2/3); column 1 constant 0.1 (whose computed mean
	 * 0.1+0.1+0.1 / 3 is not 0.1 exactly); column 2: 5 5 7. */
	double X[] = { 1, 0.1, 5, 2, 0.1, 5, 3, 0.1, 7, 100, 0.1, -1 };
	int32_t rows[] = { 0, 1, 2 };
	double mu[3], sd[3], z[3];

	probe_scale_fit(X, 3, rows, 3, mu, sd);
	cr_expect(NEAR(mu[0], 2, 1e-15) && NEAR(sd[0], sqrt(2.0 / 3), 1e-15));
	cr_expect(sd[1] == 0, "constant column: sd %g", sd[1]);
	cr_expect(NEAR(mu[2], 17.0 / 3, 1e-14) && NEAR(sd[2], sqrt(8.0 / 9), 1e-14));
	probe_scale_row(X + 9, mu, sd, 3, z); /* the test row: the training scale */
	cr_expect(NEAR(z[0], 98 / sqrt(2.0 / 3), 1e-12));
	cr_expect(z[1] == 0);
	cr_expect(NEAR(z[2], (-1 - 17.0 / 3) / sqrt(8.0 / 9), 1e-12));
	for (int i = 0; i < 3; i++) { /* the training rows: mean 0, sd 1 */
		double s = 0, q = 0;
		for (int r = 0; r < 3; r++) {
			probe_scale_row(X + 3 * r, mu, sd, 3, z);
			s += z[i];
			q += z[i] * z[i];
		}
		cr_expect(NEAR(s, 0, 1e-12) && (i == 1 ? q == 0 : NEAR(q / 3, 1, 1e-12)),
			  "column %d: sum %g, mean square %g", i, s, q / 3);
	}
}

Test(probe, pooling_by_hand)
{
	double X[] = { 1, -2, 3, 4, -5, 0 }, out[4]; /* 3 rows x 2 */

	probe_pool(X, 3, 2, PROBE_POOL_MEAN, out);
	cr_expect(NEAR(out[0], -1.0 / 3, 1e-15) && NEAR(out[1], 2.0 / 3, 1e-15));
	probe_pool(X, 3, 2, PROBE_POOL_SUM, out);
	cr_expect(out[0] == -1 && out[1] == 2);
	probe_pool(X, 3, 2, PROBE_POOL_MAX, out);
	cr_expect(out[0] == 3 && out[1] == 4);
	probe_pool(X, 3, 2, PROBE_POOL_MEANMAX, out);
	cr_expect(NEAR(out[0], -1.0 / 3, 1e-15) && out[2] == 3 && out[3] == 4);
}

Test(probe, grid_of_decades)
{
	struct probe_opts o;
	double Cs[64];

	probe_opts_default(&o);
	cr_assert(probe_grid(&o, Cs, 64) == 7);
	cr_expect(NEAR(Cs[0], 1e-4, 1e-18) && NEAR(Cs[6], 100, 1e-12));
	o.grid_lo = 0.5;
	o.grid_hi = 7;
	cr_assert(probe_grid(&o, Cs, 64) == 2);
	cr_expect(Cs[1] == 5);
}

/* Three classes in 4 dimensions, each a cluster around its own corner, plus
 * a column of noise; 90 items. */
static void
clusters(double *X, int32_t *y, int n)
{
	gsl_rng *r = rng_new(3, 0);

	for (int i = 0; i < n; i++) {
		y[i] = i % 3;
		for (int j = 0; j < 4; j++)
			X[i * 4 + j] = (j == y[i] ? 3.0 : 0.0) + gsl_rng_uniform(r) - 0.5;
	}
	gsl_rng_free(r);
}

Test(probe, a_separable_problem_is_solved_and_the_run_is_reproducible)
{
	enum { N = 90 };
	double X[N * 4];
	int32_t y[N], tr[N], te[N];
	int64_t ntr, nte;
	struct probe_data d = { .n = N, .D = 4, .X = X, .y = y, .C = 3 };
	struct probe_opts o;
	struct probe_result a, b;

	clusters(X, y, N);
	probe_opts_default(&o);
	split_holdout(y, N, 3, 0.3, 1, 0, tr, &ntr, te, &nte);
	probe_ws *w = probe_ws_new(&d), *w2 = probe_ws_new(&d);
	probe_run(w, &d, &o, tr, ntr, te, nte, 1, 0, &a, NULL, NULL);
	cr_assert(a.ntest == nte && nte == 27);
	cr_expect(a.ngrid == 7 && a.cv_acc > 0.95, "grid %d, cv accuracy %g", a.ngrid, a.cv_acc);
	for (int64_t i = 0; i < nte; i++) {
		double s = 0;
		cr_expect(a.pred[i] == y[te[i]], "item %d: %d for class %d", te[i], a.pred[i],
			  y[te[i]]);
		for (int c = 0; c < 3; c++)
			s += a.prob[i * 3 + c];
		cr_expect(NEAR(s, 1, 1e-12), "probabilities sum to %g", s);
		cr_expect(a.prob[i * 3 + a.pred[i]] >= a.prob[i * 3 + (a.pred[i] + 1) % 3]);
	}
	/* the same run on another workspace (another thread): the same bytes */
	probe_run(w2, &d, &o, tr, ntr, te, nte, 1, 0, &b, NULL, NULL);
	cr_expect(a.C == b.C && a.cv_acc == b.cv_acc);
	cr_expect(memcmp(a.prob, b.prob, (size_t)nte * 3 * sizeof *a.prob) == 0);
	probe_result_free(&b);
	o.C = 0.5; /* a fixed C: no CV */
	probe_run(w2, &d, &o, tr, ntr, te, nte, 1, 0, &b, NULL, NULL);
	cr_expect(b.C == 0.5 && b.ngrid == 0 && isnan(b.cv_acc));
	probe_result_free(&a);
	probe_result_free(&b);
	probe_ws_free(w);
	probe_ws_free(w2);
}
