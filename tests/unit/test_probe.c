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

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* 40 items: class 0 x 20, class 1 x 10, class 2 x 5, class 3 x 0 (a gap),
 * class 4 x 2, and 3 without a class, in a scrambled order. */
static void
labels40(int32_t *y)
{
	static const int count[] = { 20, 10, 5, 0, 2 };
	int k = 0;

	for (int c = 0; c < 5; c++)
		for (int i = 0; i < count[c]; i++)
			y[k++] = c;
	y[k++] = -1;
	y[k++] = -1;
	y[k++] = -5;
	for (int i = 0; i < 40; i++) {	/* a fixed scramble: i -> 17 i mod 40 */
		int j = (17 * i) % 40;
		int32_t t = y[i];
		y[i] = y[j];
		y[j] = t;
	}
}

Test(probe, holdout_is_stratified_disjoint_and_sorted)
{
	int32_t y[40], tr[40], te[40];
	int64_t ntr, nte, cnt_tr[5] = { 0 }, cnt_te[5] = { 0 };
	struct probe_data d = { .n = 40, .D = 1, .X = NULL, .y = y, .C = 5 };
	uint8_t seen[40] = { 0 };

	labels40(y);
	probe_holdout(&d, 0.2, 7, 3, tr, &ntr, te, &nte);
	for (int64_t i = 0; i < ntr; i++) {
		cr_assert(y[tr[i]] >= 0, "an item without a class is trained on");
		cr_assert(i == 0 || tr[i] > tr[i - 1], "train not ascending");
		cnt_tr[y[tr[i]]]++;
		seen[tr[i]]++;
	}
	for (int64_t i = 0; i < nte; i++) {
		cr_assert(y[te[i]] >= 0, "an item without a class is tested");
		cr_assert(i == 0 || te[i] > te[i - 1], "test not ascending");
		cnt_te[y[te[i]]]++;
		seen[te[i]]++;
	}
	for (int i = 0; i < 40; i++)
		cr_assert(seen[i] == (y[i] >= 0), "item %d in %d sets", i, seen[i]);
	/* round(0.2 n_c), at least 1, at most n_c - 1: 4, 2, 1, -, 1 */
	cr_expect(cnt_te[0] == 4 && cnt_te[1] == 2 && cnt_te[2] == 1 && cnt_te[4] == 1,
		  "test counts %ld %ld %ld %ld", cnt_te[0], cnt_te[1], cnt_te[2], cnt_te[4]);
	cr_expect(cnt_tr[0] == 16 && cnt_tr[1] == 8 && cnt_tr[2] == 4 && cnt_tr[4] == 1);
	cr_expect(cnt_te[3] == 0 && cnt_tr[3] == 0);
}

Test(probe, holdout_depends_on_labels_seed_and_run_only)
{
	int32_t y[40], tr[40], te[40], tr2[40], te2[40];
	int64_t ntr, nte, ntr2, nte2;
	double X1[40], X2[40];
	struct probe_data d1 = { .n = 40, .D = 1, .X = X1, .y = y, .C = 5 }, d2 = d1;

	labels40(y);
	for (int i = 0; i < 40; i++) {
		X1[i] = i;
		X2[i] = -3.0 * i * i;
	}
	d2.X = X2;
	probe_holdout(&d1, 0.2, 11, 0, tr, &ntr, te, &nte);
	probe_holdout(&d2, 0.2, 11, 0, tr2, &ntr2, te2, &nte2);
	cr_assert(ntr == ntr2 && nte == nte2);
	cr_expect(memcmp(te, te2, (size_t)nte * sizeof *te) == 0, "other vectors, other split");
	probe_holdout(&d1, 0.2, 11, 1, tr2, &ntr2, te2, &nte2);
	cr_expect(nte == nte2 && memcmp(te, te2, (size_t)nte * sizeof *te) != 0,
		  "runs 0 and 1 drew the same split");
	probe_holdout(&d1, 0.2, 12, 0, tr2, &ntr2, te2, &nte2);
	cr_expect(memcmp(te, te2, (size_t)nte * sizeof *te) != 0, "seeds 11 and 12 agree");
}

/* gcn-adapt's graph-task loop (tools/gcn-adapt.c, graph_split), as it is
 * written there: the folds must be the same. */
static void
gcn_adapt_folds(const int32_t *y, int G, int C, int K, uint64_t seed, int *fold)
{
	int32_t *perm = xmallocarray((size_t)G, sizeof *perm);
	gsl_rng *r = rng_new(seed, PROBE_FOLD_STREAM);

	for (int i = 0; i < G; i++) {
		perm[i] = i;
		fold[i] = -1;
	}
	for (int i = G - 1; i > 0; i--) {
		int j = (int)rng_uniform_u64(r, (uint64_t)i + 1);
		int32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	int k = 0;
	for (int c = 0; c < C; c++)
		for (int i = 0; i < G; i++)
			if (y[perm[i]] == c)
				fold[perm[i]] = k++ % K;
	gsl_rng_free(r);
	free(perm);
}

Test(probe, folds_are_gcn_adapts_and_stratified)
{
	int32_t y[40];
	int fold[40], ref[40], size[4] = { 0 }, per[5][4] = { { 0 } };
	gsl_rng *r = rng_new(5, PROBE_FOLD_STREAM);

	labels40(y);
	probe_folds(y, 40, 5, 4, r, fold);
	gsl_rng_free(r);
	gcn_adapt_folds(y, 40, 5, 4, 5, ref);
	for (int i = 0; i < 40; i++) {
		cr_assert(fold[i] == ref[i], "item %d: fold %d, gcn-adapt's %d", i, fold[i], ref[i]);
		cr_assert((fold[i] < 0) == (y[i] < 0));
		if (fold[i] >= 0) {
			size[fold[i]]++;
			per[y[i]][fold[i]]++;
		}
	}
	for (int f = 1; f < 4; f++)
		cr_expect(abs(size[f] - size[0]) <= 1, "fold sizes %d %d", size[0], size[f]);
	for (int c = 0; c < 5; c++)
		for (int f = 1; f < 4; f++)
			cr_expect(abs(per[c][f] - per[c][0]) <= 1, "class %d: %d and %d", c,
				  per[c][0], per[c][f]);
}

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
	probe_scale_row(X + 9, mu, sd, 3, z);	/* the test row: the training scale */
	cr_expect(NEAR(z[0], 98 / sqrt(2.0 / 3), 1e-12));
	cr_expect(z[1] == 0);
	cr_expect(NEAR(z[2], (-1 - 17.0 / 3) / sqrt(8.0 / 9), 1e-12));
	for (int i = 0; i < 3; i++) {	/* the training rows: mean 0, sd 1 */
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
	double X[] = { 1, -2, 3, 4, -5, 0 }, out[4];	/* 3 rows x 2 */

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
	probe_holdout(&d, 0.3, 1, 0, tr, &ntr, te, &nte);
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
	o.C = 0.5;	/* a fixed C: no CV */
	probe_run(w2, &d, &o, tr, ntr, te, nte, 1, 0, &b, NULL, NULL);
	cr_expect(b.C == 0.5 && b.ngrid == 0 && isnan(b.cv_acc));
	probe_result_free(&a);
	probe_result_free(&b);
	probe_ws_free(w);
	probe_ws_free(w2);
}
