/*
 * test_split.c - seeded stratified splits (common/split.c): the hold-out
 * split's counts, the folds gcn-adapt and linprobe share.
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "err.h"
#include "rng.h"
#include "split.h"

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
	for (int i = 0; i < 40; i++) { /* a fixed scramble: i -> 17 i mod 40 */
		int j = (17 * i) % 40;
		int32_t t = y[i];
		y[i] = y[j];
		y[j] = t;
	}
}

Test(split, holdout_is_stratified_disjoint_and_sorted)
{
	int32_t y[40], tr[40], te[40];
	int64_t ntr, nte, cnt_tr[5] = { 0 }, cnt_te[5] = { 0 };
	uint8_t seen[40] = { 0 };

	labels40(y);
	split_holdout(y, 40, 5, 0.2, 7, 3, tr, &ntr, te, &nte);
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

Test(split, per_class_trains_min_per_and_tests_the_rest)
{
	int32_t y[40], tr[40], te[40], htr[40], hte[40];
	int64_t ntr, nte, nhtr, nhte, cnt_tr[5] = { 0 }, cnt_te[5] = { 0 };

	labels40(y);
	split_per_class(y, 40, 5, 6, 7, 3, tr, &ntr, te, &nte);
	for (int64_t i = 0; i < ntr; i++) {
		cr_assert(y[tr[i]] >= 0 && (i == 0 || tr[i] > tr[i - 1]));
		cnt_tr[y[tr[i]]]++;
	}
	for (int64_t i = 0; i < nte; i++) {
		cr_assert(y[te[i]] >= 0 && (i == 0 || te[i] > te[i - 1]));
		cnt_te[y[te[i]]]++;
	}
	/* min(6, n_c - 1) trained: 6, 6, 4, -, 1; the rest tested */
	cr_expect(cnt_tr[0] == 6 && cnt_tr[1] == 6 && cnt_tr[2] == 4 && cnt_tr[4] == 1,
		  "train counts %ld %ld %ld %ld", cnt_tr[0], cnt_tr[1], cnt_tr[2], cnt_tr[4]);
	cr_expect(cnt_te[0] == 14 && cnt_te[1] == 4 && cnt_te[2] == 1 && cnt_te[4] == 1);
	/* the same permutation as the hold-out split: a class's first items in
	 * it, which the hold-out split tests, are the ones trained here */
	split_holdout(y, 40, 5, 0.3, 7, 3, htr, &nhtr, hte, &nhte);
	for (int64_t i = 0; i < nhte; i++)
		if (y[hte[i]] == 0) { /* 6 of class 0 tested there, 6 trained here */
			int found = 0;
			for (int64_t j = 0; j < ntr; j++)
				found |= tr[j] == hte[i];
			cr_expect(found, "item %d: first in the permutation, not trained", hte[i]);
		}
}

Test(split, holdout_depends_on_seed_and_run)
{
	int32_t y[40], tr[40], te[40], tr2[40], te2[40];
	int64_t ntr, nte, ntr2, nte2;

	labels40(y);
	split_holdout(y, 40, 5, 0.2, 11, 0, tr, &ntr, te, &nte);
	split_holdout(y, 40, 5, 0.2, 11, 0, tr2, &ntr2, te2, &nte2);
	cr_assert(ntr == ntr2 && nte == nte2);
	cr_expect(memcmp(te, te2, (size_t)nte * sizeof *te) == 0, "the same call, another split");
	split_holdout(y, 40, 5, 0.2, 11, 1, tr2, &ntr2, te2, &nte2);
	cr_expect(nte == nte2 && memcmp(te, te2, (size_t)nte * sizeof *te) != 0,
		  "runs 0 and 1 drew the same split");
	split_holdout(y, 40, 5, 0.2, 12, 0, tr2, &ntr2, te2, &nte2);
	cr_expect(memcmp(te, te2, (size_t)nte * sizeof *te) != 0, "seeds 11 and 12 agree");
}

/* gcn-adapt's graph-task folds as its graph_split() drew them before it
 * called split_folds(): its results' folds must not change. */
static void
gcn_adapt_folds(const int32_t *y, int G, int C, int K, uint64_t seed, int *fold)
{
	int32_t *perm = xmallocarray((size_t)G, sizeof *perm);
	gsl_rng *r = rng_new(seed, SPLIT_FOLD_STREAM);

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

Test(split, folds_are_gcn_adapts_and_stratified)
{
	int32_t y[40];
	int fold[40], ref[40], size[4] = { 0 }, per[5][4] = { { 0 } };
	gsl_rng *r = rng_new(5, SPLIT_FOLD_STREAM);

	labels40(y);
	split_folds(y, 40, 5, 4, r, fold);
	gsl_rng_free(r);
	gcn_adapt_folds(y, 40, 5, 4, 5, ref);
	for (int i = 0; i < 40; i++) {
		cr_assert(fold[i] == ref[i], "item %d: fold %d, gcn-adapt's %d", i, fold[i],
			  ref[i]);
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
