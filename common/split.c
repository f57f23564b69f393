/* split.c - seeded stratified splits; see split.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rng.h"
#include "split.h"

int64_t
split_class_counts(const int32_t *y, int64_t n, int C, int64_t *counts)
{
	int64_t m = 0;

	memset(counts, 0, (size_t)C * sizeof *counts);
	for (int64_t i = 0; i < n; i++)
		if (y[i] >= 0) {
			counts[y[i]]++;
			m++;
		}
	return m;
}

/* perm = a uniform permutation of 0..n-1 from r (Fisher-Yates from the
 * top, gcn-adapt's order of draws). */
static void
permutation(gsl_rng *r, int32_t *perm, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		perm[i] = (int32_t)i;
	for (int64_t i = n - 1; i > 0; i--) {
		int64_t j = (int64_t)rng_uniform_u64(r, (uint64_t)i + 1);
		int32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

/*
 * Run `run`'s permutation of all n items from stream (seed, run); in its
 * order, the first k[c] items of class c get role `first` (1 training, 2
 * test) and its other items the other role; classes with k[c] < 0 and
 * items without a class get none.  train and test come back ascending.
 */
static void
assign(const int32_t *y, int64_t n, int64_t *k, int first, uint64_t seed, int run,
       int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest)
{
	int32_t *perm = xmallocarray((size_t)n + 1, sizeof *perm);
	uint8_t *role = xcalloc((size_t)n + 1, 1);	/* 0 none, 1 train, 2 test */
	gsl_rng *r = rng_new(seed, (uint64_t)run);

	permutation(r, perm, n);
	for (int64_t i = 0; i < n; i++) {
		int32_t v = perm[i], c = y[v];
		if (c < 0 || k[c] < 0)
			continue;
		role[v] = k[c] > 0 ? (uint8_t)first : (uint8_t)(3 - first);
		if (k[c] > 0)
			k[c]--;
	}
	*ntrain = *ntest = 0;
	for (int64_t v = 0; v < n; v++)	/* ascending */
		if (role[v] == 1)
			train[(*ntrain)++] = (int32_t)v;
		else if (role[v] == 2)
			test[(*ntest)++] = (int32_t)v;
	gsl_rng_free(r);
	free(role);
	free(perm);
}

void
split_holdout(const int32_t *y, int64_t n, int C, double frac, uint64_t seed, int run,
	      int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest)
{
	int64_t *cnt = xmallocarray((size_t)C + 1, sizeof *cnt);
	int64_t *want = xmallocarray((size_t)C + 1, sizeof *want);

	split_class_counts(y, n, C, cnt);
	for (int c = 0; c < C; c++) {
		long long k = llround(frac * (double)cnt[c]);
		want[c] = cnt[c] < 2 ? -1 : k < 1 ? 1 : k > cnt[c] - 1 ? cnt[c] - 1 : k;
	}
	assign(y, n, want, 2, seed, run, train, ntrain, test, ntest);
	free(want);
	free(cnt);
}

void
split_per_class(const int32_t *y, int64_t n, int C, int64_t per, uint64_t seed, int run,
		int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest)
{
	int64_t *cnt = xmallocarray((size_t)C + 1, sizeof *cnt);

	split_class_counts(y, n, C, cnt);
	for (int c = 0; c < C; c++)
		cnt[c] = cnt[c] < 2 ? -1 : per < cnt[c] ? per : cnt[c] - 1;
	assign(y, n, cnt, 1, seed, run, train, ntrain, test, ntest);
	free(cnt);
}

void
split_folds(const int32_t *y, int64_t n, int C, int K, gsl_rng *r, int *fold)
{
	int32_t *perm = xmallocarray((size_t)n + 1, sizeof *perm);
	int64_t *start = xcalloc((size_t)C + 1, sizeof *start);
	int32_t *bycls = xmallocarray((size_t)n + 1, sizeof *bycls);
	int64_t m = 0;		/* items with a class */

	permutation(r, perm, n);
	/* the items class by class, each class in permutation order */
	for (int64_t i = 0; i < n; i++) {
		fold[i] = -1;
		if (y[i] >= 0) {
			start[y[i] + 1]++;
			m++;
		}
	}
	for (int c = 0; c < C; c++)
		start[c + 1] += start[c];
	for (int64_t i = 0; i < n; i++)
		if (y[perm[i]] >= 0)
			bycls[start[y[perm[i]]]++] = perm[i];
	for (int64_t k = 0; k < m; k++)
		fold[bycls[k]] = (int)(k % K);
	free(bycls);
	free(start);
	free(perm);
}
