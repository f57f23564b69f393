/*
 * test_split.c - seeded stratified splits (common/split.c): the hold-out
 * split's counts, the folds gcn-adapt and linprobe share; link
 * prediction's split of edges and non-edges (split_links).
 */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "err.h"
#include "graph.h"
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

/* gcn-adapt --split per-class: the probe's split, its training items
 * parted into validation and training items, the test items the same */
Test(split, per_class_val_is_the_probes_split_with_validation_inside)
{
	int32_t y[40], tr[40], va[40], te[40], ptr[40], pte[40], tr2[40], va2[40], te2[40];
	int64_t ntr, nva, nte, nptr, npte, ntr2, nva2, nte2, cv[5] = { 0 }, ct[5] = { 0 };
	uint8_t in[40] = { 0 };
	gsl_rng *r = rng_new(7, 3);

	labels40(y);
	split_per_class(y, 40, 5, 6, 7, 3, ptr, &nptr, pte, &npte);
	split_per_class_val(y, 40, 5, 6, 1, r, tr, &ntr, va, &nva, te, &nte);
	cr_assert(nte == npte && memcmp(te, pte, (size_t)nte * sizeof *te) == 0,
		  "the test items are not the probe's");
	cr_assert(ntr + nva == nptr, "%ld + %ld items, the probe trains %ld", ntr, nva, nptr);
	for (int64_t i = 0; i < nptr; i++)
		in[ptr[i]] = 1;
	for (int64_t i = 0; i < ntr; i++) {
		cr_assert(in[tr[i]] == 1 && (i == 0 || tr[i] > tr[i - 1]), "training item %d",
			  tr[i]);
		in[tr[i]] = 2;
		ct[y[tr[i]]]++;
	}
	for (int64_t i = 0; i < nva; i++) {
		cr_assert(in[va[i]] == 1 && (i == 0 || va[i] > va[i - 1]), "validation item %d",
			  va[i]);
		in[va[i]] = 2;
		cv[y[va[i]]]++;
	}
	/* trained by the probe: 6, 6, 4, -, 1; a quarter (at least one where
	 * a class has two) validates: 1, 1, 1, -, 0 */
	cr_expect(cv[0] == 1 && cv[1] == 1 && cv[2] == 1 && cv[4] == 0,
		  "validation %ld %ld %ld %ld", cv[0], cv[1], cv[2], cv[4]);
	cr_expect(ct[0] == 5 && ct[1] == 5 && ct[2] == 3 && ct[4] == 1, "training %ld %ld %ld %ld",
		  ct[0], ct[1], ct[2], ct[4]);
	/* a fraction of the training items: the same validation and test items */
	rng_reseed(r, 7, 3);
	split_per_class_val(y, 40, 5, 6, 0.5, r, tr2, &ntr2, va2, &nva2, te2, &nte2);
	cr_expect(nva2 == nva && memcmp(va2, va, (size_t)nva * sizeof *va) == 0);
	cr_expect(nte2 == nte && memcmp(te2, te, (size_t)nte * sizeof *te) == 0);
	cr_expect(ntr2 == 3 + 3 + 2 + 1, "round(0.5 n), at least 1: %ld training items", ntr2);
	for (int64_t i = 0; i < ntr2; i++) {
		int found = 0;
		for (int64_t j = 0; j < ntr; j++)
			found |= tr[j] == tr2[i];
		cr_expect(found, "item %d trained on with the fraction, not without", tr2[i]);
	}
	gsl_rng_free(r);
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

/* A ring of n nodes with chords i -- i+3: 2n edges, for the link split. */
static void
ring_graph(graph *g, int32_t n)
{
	int32_t *u = malloc(2 * (size_t)n * sizeof *u), *v = malloc(2 * (size_t)n * sizeof *v);
	char msg[256];

	for (int32_t i = 0; i < n; i++) {
		u[2 * i] = i;
		v[2 * i] = (i + 1) % n;
		u[2 * i + 1] = i;
		v[2 * i + 1] = (i + 3) % n;
	}
	graph_init(g);
	cr_assert_eq(graph_build(g, n, 2 * (int64_t)n, u, v, GRAPH_STRICT, NULL, msg, sizeof msg),
		     0, "%s", msg);
	free(u);
	free(v);
}

Test(split, links_parts_are_disjoint_and_the_training_graph_lacks_the_held_out)
{
	graph g, t;
	struct link_split s;
	char msg[256];
	gsl_rng *r = rng_new(7, 0);

	ring_graph(&g, 50); /* 100 edges: 10 test, 5 validation, 85 training */
	split_links_init(&s);
	cr_assert_eq(split_links(&s, &g, 0.05, 0.1, r, msg, sizeof msg), 0, "%s", msg);
	cr_assert(s.m == 100 && s.n[0] == 85 && s.n[1] == 5 && s.n[2] == 10);
	int64_t cnt[3] = { 0 };
	for (int64_t e = 0; e < s.m; e++) {
		cr_assert(graph_has_edge(&g, s.eu[e], s.ev[e]));
		cnt[s.part[e]]++;
	}
	cr_assert(cnt[0] == 85 && cnt[1] == 5 && cnt[2] == 10);
	/* the training edges: exactly the edges of part 0 */
	graph_init(&t);
	cr_assert_eq(graph_build(&t, g.n, s.n[0], s.tu, s.tv, GRAPH_STRICT, NULL, msg, sizeof msg),
		     0, "%s", msg);
	for (int64_t e = 0; e < s.m; e++)
		cr_assert_eq(graph_has_edge(&t, s.eu[e], s.ev[e]), s.part[e] == LSPLIT_TRAIN,
			     "edge %d-%d", s.eu[e], s.ev[e]);
	/* non-edges: of g, distinct (as u < v), as many as edges */
	for (int64_t i = 0; i < s.m; i++) {
		cr_assert(s.nu[i] < s.nv[i] && !graph_has_edge(&g, s.nu[i], s.nv[i]));
		for (int64_t j = 0; j < i; j++)
			cr_assert(s.nu[i] != s.nu[j] || s.nv[i] != s.nv[j]);
	}
	graph_free(&t);
	split_links_free(&s);
	graph_free(&g);
	gsl_rng_free(r);
}

Test(split, links_are_reproducible_and_follow_the_seed)
{
	graph g;
	struct link_split a, b;
	char msg[256];
	gsl_rng *r1 = rng_new(3, 1), *r2 = rng_new(3, 1), *r3 = rng_new(3, 2);

	ring_graph(&g, 40);
	split_links_init(&a);
	split_links_init(&b);
	cr_assert_eq(split_links(&a, &g, 0.1, 0.2, r1, msg, sizeof msg), 0);
	cr_assert_eq(split_links(&b, &g, 0.1, 0.2, r2, msg, sizeof msg), 0);
	cr_assert(memcmp(a.part, b.part, (size_t)a.m) == 0);
	cr_assert(memcmp(a.nu, b.nu, (size_t)a.m * sizeof *a.nu) == 0);
	cr_assert(memcmp(a.nv, b.nv, (size_t)a.m * sizeof *a.nv) == 0);
	cr_assert_eq(split_links(&b, &g, 0.1, 0.2, r3, msg, sizeof msg), 0);
	cr_assert(memcmp(a.part, b.part, (size_t)a.m) != 0, "another run, another split");
	split_links_free(&a);
	split_links_free(&b);
	graph_free(&g);
	gsl_rng_free(r1);
	gsl_rng_free(r2);
	gsl_rng_free(r3);
}

Test(split, links_refuse_too_few_edges_or_non_edges)
{
	graph g;
	struct link_split s;
	char msg[256];
	gsl_rng *r = rng_new(1, 0);
	int64_t n[3];

	cr_assert_eq(split_link_sizes(5, 0.05, 0.1, n), -1); /* 0 validation edges */
	cr_assert_eq(split_link_sizes(20, 0.05, 0.1, n), 0);
	cr_assert(n[0] == 17 && n[1] == 1 && n[2] == 2);
	ring_graph(&g, 8); /* 16 edges of 28 pairs: 12 non-edges, 16 wanted */
	split_links_init(&s);
	cr_assert_eq(split_links(&s, &g, 0.2, 0.2, r, msg, sizeof msg), -1);
	cr_assert(strstr(msg, "only 12 non-edges"), "%s", msg);
	cr_assert_eq(split_links(&s, &g, 0.01, 0.02, r, msg, sizeof msg), -1);
	cr_assert(strstr(msg, "too few"), "%s", msg);
	split_links_free(&s);
	graph_free(&g);
	gsl_rng_free(r);
}
