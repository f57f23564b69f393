/* split.c - seeded stratified splits; see split.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
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

/* How many items of each class get which role (assign()): k[c] the
 * first role's, -1 for a class in none; of those, the first v[c] are
 * validation items, and of the rest only the first t[c] keep the first
 * role (the others none); v or t NULL: none of that. */
struct quota {
	int64_t *k, *v, *t;
};

/*
 * A permutation of all n items from r; in its order, class c's first
 * q->k[c] items get role `first` (1 training, 2 test), but for the
 * validation (3) and unused (0) items of q, and the class's other items
 * the other role; items without a class get none.  train, val and test
 * come back ascending (val and nval may be NULL when q->v is).
 */
static void
assign(const int32_t *y, int64_t n, const struct quota *q, int first, gsl_rng *r, int32_t *train,
       int64_t *ntrain, int32_t *val, int64_t *nval, int32_t *test, int64_t *ntest)
{
	int32_t *perm = xmallocarray((size_t)n + 1, sizeof *perm);
	uint8_t *role = xcalloc((size_t)n + 1, 1); /* 0 none, 1 train, 2 test, 3 val */
	int64_t *k = q->k, *v = q->v, *t = q->t;

	permutation(r, perm, n);
	for (int64_t i = 0; i < n; i++) {
		int32_t u = perm[i], c = y[u];
		if (c < 0 || k[c] < 0)
			continue;
		role[u] = k[c] > 0 ? (uint8_t)first : (uint8_t)(3 - first);
		if (k[c] > 0 && v && v[c] > 0) {
			role[u] = 3;
			v[c]--;
		} else if (k[c] > 0 && t && t[c]-- <= 0) {
			role[u] = 0;
		}
		if (k[c] > 0)
			k[c]--;
	}
	*ntrain = *ntest = 0;
	if (nval)
		*nval = 0;
	for (int64_t u = 0; u < n; u++) /* ascending */
		if (role[u] == 1)
			train[(*ntrain)++] = (int32_t)u;
		else if (role[u] == 2)
			test[(*ntest)++] = (int32_t)u;
		else if (role[u] == 3)
			val[(*nval)++] = (int32_t)u;
	free(role);
	free(perm);
}

/* assign() from stream (seed, run), without validation items. */
static void
assign_run(const int32_t *y, int64_t n, int64_t *k, int first, uint64_t seed, int run,
	   int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest)
{
	gsl_rng *r = rng_new(seed, (uint64_t)run);
	struct quota q = { k, NULL, NULL };

	assign(y, n, &q, first, r, train, ntrain, NULL, NULL, test, ntest);
	gsl_rng_free(r);
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
	assign_run(y, n, want, 2, seed, run, train, ntrain, test, ntest);
	free(want);
	free(cnt);
}

/* The training items of each class of a few-label split (counts: the
 * class sizes, replaced): min(per, n_c - 1), or -1 for a class of fewer
 * than two items. */
static void
per_class_counts(int64_t *cnt, int C, int64_t per)
{
	for (int c = 0; c < C; c++)
		cnt[c] = cnt[c] < 2 ? -1 : per < cnt[c] ? per : cnt[c] - 1;
}

void
split_per_class(const int32_t *y, int64_t n, int C, int64_t per, uint64_t seed, int run,
		int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest)
{
	int64_t *cnt = xmallocarray((size_t)C + 1, sizeof *cnt);

	split_class_counts(y, n, C, cnt);
	per_class_counts(cnt, C, per);
	assign_run(y, n, cnt, 1, seed, run, train, ntrain, test, ntest);
	free(cnt);
}

void
split_per_class_val(const int32_t *y, int64_t n, int C, int64_t per, double fraction, gsl_rng *r,
		    int32_t *train, int64_t *ntrain, int32_t *val, int64_t *nval, int32_t *test,
		    int64_t *ntest)
{
	int64_t *k = xmallocarray((size_t)C + 1, sizeof *k);
	int64_t *v = xmallocarray((size_t)C + 1, sizeof *v);
	int64_t *t = xmallocarray((size_t)C + 1, sizeof *t);
	struct quota q = { k, v, t };

	split_class_counts(y, n, C, k);
	per_class_counts(k, C, per);
	for (int c = 0; c < C; c++) {
		v[c] = k[c] < 2 ? 0 : k[c] / SPLIT_VAL_SHARE > 1 ? k[c] / SPLIT_VAL_SHARE : 1;
		long long keep = llround(fraction * (double)(k[c] - v[c]));
		t[c] = keep < 1 ? 1 : keep;
	}
	assign(y, n, &q, 1, r, train, ntrain, val, nval, test, ntest);
	free(t);
	free(v);
	free(k);
}

void
split_folds(const int32_t *y, int64_t n, int C, int K, gsl_rng *r, int *fold)
{
	int32_t *perm = xmallocarray((size_t)n + 1, sizeof *perm);
	int64_t *start = xcalloc((size_t)C + 1, sizeof *start);
	int32_t *bycls = xmallocarray((size_t)n + 1, sizeof *bycls);
	int64_t m = 0; /* items with a class */

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

int
split_fit_sizes(const int32_t *y, int64_t n, int C, struct split_sizes *s)
{
	int64_t *count = xcalloc((size_t)C + 1, sizeof *count), ntr = 0, rest, nlab;
	int tpc = s->per_class;

	nlab = split_class_counts(y, n, C, count);
	for (int c = 0; c < C; c++)
		if (count[c] > 0 && count[c] / 2 < tpc)
			tpc = count[c] / 2 > 1 ? (int)(count[c] / 2) : 1;
	for (int c = 0; c < C; c++)
		ntr += count[c] < tpc ? count[c] : tpc;
	free(count);
	rest = nlab - ntr;
	if (tpc == s->per_class && rest >= (int64_t)s->nval + s->ntest)
		return 0;
	s->per_class = tpc;
	s->nval = (int)(rest / 3) > 1 ? (int)(rest / 3) : 1;
	s->ntest = (int)(rest - s->nval) > 1 ? (int)(rest - s->nval) : 1;
	return 1;
}

int
split_planetoid(const int32_t *y, int64_t n, int C, const struct split_sizes *s, gsl_rng *r,
		int32_t *tr, int *ntr, int32_t *va, int32_t *te, char *msg, size_t len)
{
	int32_t *perm = xmallocarray((size_t)n + 1, sizeof *perm);
	uint8_t *used = xcalloc((size_t)n + 1, 1);
	int k = 0, nv = 0, nt = 0;
	int64_t nlab = 0;

	permutation(r, perm, n);
	/* the labels used for training: a share of each class's draw (the
	 * rest are neither trained on nor tested, so the split itself does
	 * not change with the fraction) */
	int keep = (int)lround(s->fraction * s->per_class);
	if (keep < 1)
		keep = 1;
	for (int c = 0; c < C; c++) {
		int got = 0;
		for (int64_t i = 0; i < n && got < s->per_class; i++)
			if (y[perm[i]] == c) {
				if (got < keep)
					tr[k++] = perm[i];
				used[perm[i]] = 1;
				got++;
			}
		if (got < s->per_class) {
			snprintf(msg, len, "class %d has %d nodes, fewer than --train-per-class %d",
				 c, got, s->per_class);
			free(perm);
			free(used);
			return -1;
		}
	}
	for (int64_t i = 0; i < n && (nv < s->nval || nt < s->ntest); i++) {
		if (used[perm[i]] || y[perm[i]] < 0)
			continue;
		if (nv < s->nval)
			va[nv++] = perm[i];
		else
			te[nt++] = perm[i];
	}
	free(perm);
	free(used);
	if (nv < s->nval || nt < s->ntest) {
		for (int64_t i = 0; i < n; i++)
			nlab += y[i] >= 0;
		snprintf(msg, len,
			 "%" PRId64 " labelled nodes: too few for %d training, %d "
			 "validation and %d test nodes",
			 nlab, k, s->nval, s->ntest);
		return -1;
	}
	*ntr = k;
	return 0;
}

void
split_cv_run(const int32_t *y, int64_t n, int C, int K, uint64_t seed, int run, int32_t *tr,
	     int *ntr, int32_t *va, int *nva, int32_t *te, int *nte)
{
	int *fold = xmallocarray((size_t)n + 1, sizeof *fold);
	gsl_rng *r = rng_new(seed, SPLIT_FOLD_STREAM);
	int ft = run % K, fv = (run + 1) % K;

	split_folds(y, n, C, K, r, fold);
	*ntr = *nva = *nte = 0;
	for (int64_t i = 0; i < n; i++) {
		if (fold[i] == ft)
			te[(*nte)++] = (int32_t)i;
		else if (fold[i] == fv)
			va[(*nva)++] = (int32_t)i;
		else if (fold[i] >= 0)
			tr[(*ntr)++] = (int32_t)i;
	}
	gsl_rng_free(r);
	free(fold);
}

int
split_shares(const int32_t *lab, int64_t m, double test, double val, gsl_rng *r, int32_t *tr,
	     int *ntr, int32_t *va, int *nva, int32_t *te, int *nte)
{
	int32_t *perm = xmallocarray((size_t)m + 1, sizeof *perm);

	/* lab in the order of a permutation: the same draws and result as
	 * shuffling lab itself */
	permutation(r, perm, m);
	for (int64_t i = 0; i < m; i++)
		perm[i] = lab[perm[i]];
	int64_t ntrv = (int64_t)floor((1 - test) * (double)m),
		nv = (int64_t)floor(val * (double)ntrv);
	*nva = (int)nv;
	*ntr = (int)(ntrv - nv);
	*nte = (int)(m - ntrv);
	memcpy(va, perm, (size_t)nv * sizeof *va);
	memcpy(tr, perm + nv, (size_t)(ntrv - nv) * sizeof *tr);
	memcpy(te, perm + ntrv, (size_t)(m - ntrv) * sizeof *te);
	free(perm);
	return *nva > 0 && *ntr > 0 && *nte > 0 ? 0 : -1;
}

void
split_links_init(struct link_split *s)
{
	memset(s, 0, sizeof *s);
	mask_buf_init(&s->mb);
}

void
split_links_free(struct link_split *s)
{
	free(s->eu);
	free(s->ev);
	free(s->part);
	free(s->nu);
	free(s->nv);
	mask_buf_free(&s->mb);
	split_links_init(s);
}

int
split_link_sizes(int64_t m, double val, double test, int64_t n[3])
{
	int64_t held = mask_count(val + test, m);

	n[LSPLIT_TEST] = mask_count(test / (val + test), held);
	n[LSPLIT_VAL] = held - n[LSPLIT_TEST];
	n[LSPLIT_TRAIN] = m - held;
	return n[0] > 0 && n[1] > 0 && n[2] > 0 ? 0 : -1;
}

/* s's arrays for m edges, kept from run to run */
static void
link_split_grow(struct link_split *s, int64_t m)
{
	if ((size_t)m + 1 <= s->cap)
		return;
	s->cap = (size_t)m + 1;
	s->eu = xreallocarray(s->eu, s->cap, sizeof *s->eu);
	s->ev = xreallocarray(s->ev, s->cap, sizeof *s->ev);
	s->part = xreallocarray(s->part, s->cap, sizeof *s->part);
	s->nu = xreallocarray(s->nu, s->cap, sizeof *s->nu);
	s->nv = xreallocarray(s->nv, s->cap, sizeof *s->nv);
}

/* The held-out edges (mb's removed ones, sorted as the canonical list)
 * to validation and test: each found by one merge pass, in the order of
 * a permutation of them. */
static void
link_held_parts(struct link_split *s, gsl_rng *r)
{
	int64_t held = s->mb.r, e = 0;
	int32_t *perm = xmallocarray((size_t)held + 1, sizeof *perm);
	int64_t *at = xmallocarray((size_t)held + 1, sizeof *at);

	memset(s->part, LSPLIT_TRAIN, (size_t)s->m);
	for (int64_t k = 0; k < held; k++) {
		while (s->eu[e] != s->mb.ru[k] || s->ev[e] != s->mb.rv[k])
			e++;
		at[k] = e++;
	}
	permutation(r, perm, held);
	for (int64_t k = 0; k < held; k++)
		s->part[at[perm[k]]] = k < s->n[LSPLIT_VAL] ? LSPLIT_VAL : LSPLIT_TEST;
	free(perm);
	free(at);
}

int
split_links_fit(int32_t n, int64_t m, double val, double test, char *msg, size_t len)
{
	int64_t k[3];

	if (split_link_sizes(m, val, test, k) != 0) {
		snprintf(msg, len,
			 "%" PRId64 " edges: too few to hold out %g for validation and %g for "
			 "testing with an edge in every part (training, validation, test: %" PRId64
			 ", %" PRId64 ", %" PRId64 " edges)",
			 m, val, test, k[0], k[1], k[2]);
		return -1;
	}
	if ((double)n * (n - 1) / 2 - (double)m < (double)m) {
		snprintf(msg, len,
			 "%" PRId32 " nodes, %" PRId64 " edges: only %.0f non-edges, and link "
			 "prediction samples as many non-edges as edges",
			 n, m, (double)n * (n - 1) / 2 - (double)m);
		return -1;
	}
	return 0;
}

int
split_links(struct link_split *s, const graph *g, double val, double test, gsl_rng *r, char *msg,
	    size_t len)
{
	int64_t m = g->m;
	struct mask_opts mo;

	s->m = m;
	if (split_links_fit(g->n, m, val, test, msg, len) != 0)
		return -1;
	split_link_sizes(m, val, test, s->n);
	mask_opts_init(&mo);
	mo.fraction = val + test;
	mo.npos = 0;
	mo.nneg = m;
	mo.want = MASK_EDGES;
	int rc = mask_edges(g, r, &mo, &s->mb);
	if (rc != 0 || s->mb.r != s->n[1] + s->n[2])
		die("split_links: mask_edges: %d for fraction %g", rc, mo.fraction); /* a bug */
	link_split_grow(s, m);
	graph_edges(g, s->eu, s->ev);
	link_held_parts(s, r);
	int32_t *perm = xmallocarray((size_t)m + 1, sizeof *perm);
	permutation(r, perm, m);
	for (int64_t i = 0; i < m; i++) {
		s->nu[i] = s->mb.pu[perm[i]];
		s->nv[i] = s->mb.pv[perm[i]];
	}
	free(perm);
	s->tu = s->mb.eu;
	s->tv = s->mb.ev;
	return 0;
}
