/* test_mask.c - edge masking and negative sampling (common/mask.c). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "graph.h"
#include "mask.h"
#include "rng.h"

/* ---- helpers ---- */

static void
build(graph *g, int32_t n, int64_t m, const int32_t *u, const int32_t *v)
{
	char msg[256];

	graph_init(g);
	cr_assert_eq(graph_build(g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg), 0,
		     "graph_build: %s", msg);
}

/* Erdos-Renyi-like G(n, p) from a fixed seed. */
static void
random_graph(graph *g, int32_t n, double p, uint64_t seed)
{
	gsl_rng *r = rng_new(seed, 0);
	int64_t cap = (int64_t)n * (n - 1) / 2, m = 0;
	int32_t *u = xmallocarray((size_t)cap + 1, sizeof *u);
	int32_t *v = xmallocarray((size_t)cap + 1, sizeof *v);

	for (int32_t a = 0; a < n; a++)
		for (int32_t b = a + 1; b < n; b++)
			if (gsl_rng_uniform(r) < p)
				u[m] = a, v[m++] = b;
	build(g, n, m, u, v);
	free(u);
	free(v);
	gsl_rng_free(r);
}

/* Complete graph on n nodes without the listed pairs. */
static void
complete_minus(graph *g, int32_t n, int nmiss, const int32_t miss[][2])
{
	int64_t cap = (int64_t)n * (n - 1) / 2, m = 0;
	int32_t *u = xmallocarray((size_t)cap + 1, sizeof *u);
	int32_t *v = xmallocarray((size_t)cap + 1, sizeof *v);

	for (int32_t a = 0; a < n; a++)
		for (int32_t b = a + 1; b < n; b++) {
			int skip = 0;
			for (int i = 0; i < nmiss; i++)
				if (miss[i][0] == a && miss[i][1] == b)
					skip = 1;
			if (!skip)
				u[m] = a, v[m++] = b;
		}
	build(g, n, m, u, v);
	free(u);
	free(v);
}

static int64_t
key(int32_t u, int32_t v)
{
	return (int64_t)u << 32 | v;
}

/* Strictly increasing (u, v) with u < v: sorted and without repeats. */
static void
assert_canonical(const int32_t *u, const int32_t *v, int64_t k, const char *what)
{
	for (int64_t i = 0; i < k; i++) {
		cr_assert_lt(u[i], v[i], "%s %lld: (%d, %d) not u < v", what, (long long)i, u[i],
			     v[i]);
		if (i > 0)
			cr_assert_lt(key(u[i - 1], v[i - 1]), key(u[i], v[i]),
				     "%s %lld: (%d, %d) after (%d, %d): repeat or unsorted", what,
				     (long long)i, u[i], v[i], u[i - 1], v[i - 1]);
	}
}

/* Every invariant of one mask_edges() result against the original g. */
static void
check_result(const graph *g, const struct mask_opts *o, const mask_buf *b)
{
	int64_t m = g->m, r = mask_count(o->fraction, m);
	int64_t P = g->n > 1 ? (int64_t)g->n * (g->n - 1) / 2 : 0;
	int64_t wantp = o->npos == MASK_ALL ? r : (o->npos < r ? o->npos : r);
	int64_t wantn = o->nneg < P - m ? o->nneg : P - m;
	int32_t *u = xmallocarray((size_t)m + 1, sizeof *u);
	int32_t *v = xmallocarray((size_t)m + 1, sizeof *v);
	int64_t i, ik = 0, ir = 0;

	cr_assert_eq(b->r, r, "removed %lld, want %lld", (long long)b->r, (long long)r);
	cr_assert_eq(b->m, m - r);
	cr_assert_eq(b->npos, wantp, "positives %lld, want %lld", (long long)b->npos,
		     (long long)wantp);
	cr_assert_eq(b->nneg, wantn, "negatives %lld, want %lld", (long long)b->nneg,
		     (long long)wantn);
	assert_canonical(b->ru, b->rv, b->r, "removed");
	assert_canonical(b->pu, b->pv, b->npos, "positive");
	assert_canonical(b->pu + b->npos, b->pv + b->npos, b->nneg, "negative");
	if (o->want & MASK_EDGES)
		assert_canonical(b->eu, b->ev, b->m, "kept");

	/* kept + removed = original, as a merge of two sorted lists */
	graph_edges(g, u, v);
	if (o->want & MASK_EDGES) {
		for (i = 0; i < m; i++) {
			int64_t ke = ik < b->m ? key(b->eu[ik], b->ev[ik]) : INT64_MAX;
			int64_t kr = ir < b->r ? key(b->ru[ir], b->rv[ir]) : INT64_MAX;
			int64_t kg = key(u[i], v[i]);
			if (ke == kg)
				ik++;
			else if (kr == kg)
				ir++;
			else
				cr_assert_fail("edge (%d, %d) of G is neither kept nor removed",
					       u[i], v[i]);
		}
		cr_assert(ik == b->m && ir == b->r, "kept/removed hold extra pairs");
	}
	/* removed edges are edges of G */
	for (i = 0; i < b->r; i++)
		cr_assert(graph_has_edge(g, b->ru[i], b->rv[i]), "removed (%d, %d) not in G",
			  b->ru[i], b->rv[i]);
	/* positives are removed edges (both sorted: a subset by merge) */
	for (i = 0, ir = 0; i < b->npos; i++) {
		while (ir < b->r && key(b->ru[ir], b->rv[ir]) < key(b->pu[i], b->pv[i]))
			ir++;
		cr_assert(ir < b->r && key(b->ru[ir], b->rv[ir]) == key(b->pu[i], b->pv[i]),
			  "positive (%d, %d) was not removed", b->pu[i], b->pv[i]);
	}
	/* negatives are non-edges of the ORIGINAL graph, in range */
	for (i = b->npos; i < b->npos + b->nneg; i++) {
		cr_assert(b->pu[i] >= 0 && b->pv[i] < g->n, "negative (%d, %d) out of range",
			  b->pu[i], b->pv[i]);
		cr_assert(!graph_has_edge(g, b->pu[i], b->pv[i]),
			  "negative (%d, %d) is an edge of G", b->pu[i], b->pv[i]);
	}
	/* the CSR of G* is G minus R */
	if (o->want & MASK_CSR) {
		const graph *h = &b->g;
		cr_assert_eq(h->n, g->n);
		cr_assert_eq(h->m, m - r);
		cr_assert_eq(h->off[h->n], 2 * (m - r));
		for (int32_t x = 0; x < h->n; x++)
			for (int64_t p = h->off[x]; p < h->off[x + 1]; p++) {
				int32_t y = h->adj[p];
				cr_assert(p == h->off[x] || h->adj[p - 1] < y, "row %d unsorted",
					  x);
				cr_assert(graph_has_edge(h, y, x), "CSR not symmetric at %d-%d", x,
					  y);
				cr_assert(graph_has_edge(g, x, y), "CSR edge %d-%d not in G", x, y);
			}
		for (i = 0; i < b->r; i++)
			cr_assert(!graph_has_edge(h, b->ru[i], b->rv[i]),
				  "removed (%d, %d) still in the CSR", b->ru[i], b->rv[i]);
	}
	free(u);
	free(v);
}

static int
run(const graph *g, const struct mask_opts *o, uint64_t seed, mask_buf *b)
{
	gsl_rng *r = rng_new(seed, 7);
	int rc = mask_edges(g, r, o, b);

	gsl_rng_free(r);
	return rc;
}

/* ---- counts and invariants ---- */

Test(mask, rounding)
{
	cr_assert_eq(mask_count(0.2, 5), 1);
	cr_assert_eq(mask_count(0.2, 7), 1);  /* 1.4 */
	cr_assert_eq(mask_count(0.2, 8), 2);  /* 1.6 */
	cr_assert_eq(mask_count(0.5, 3), 2);  /* 1.5: halves up */
	cr_assert_eq(mask_count(0.25, 2), 1); /* 0.5: halves up */
	cr_assert_eq(mask_count(0.2, 2), 0);  /* 0.4 */
	cr_assert_eq(mask_count(0.0, 100), 0);
	cr_assert_eq(mask_count(0.99, 1), 1); /* every edge can go */
	cr_assert_eq(mask_count(0.2, 1000000), 200000);
}

Test(mask, counts_exact_and_invariants)
{
	graph g;
	mask_buf b;
	struct mask_opts o;

	random_graph(&g, 300, 0.05, 1);
	cr_assert_gt(g.m, 2000);
	mask_opts_init(&o);
	o.want = MASK_EDGES | MASK_CSR;
	mask_buf_init(&b);
	for (uint64_t s = 0; s < 20; s++) {
		cr_assert_eq(run(&g, &o, s, &b), 0);
		cr_assert_eq(b.npos, 128);
		cr_assert_eq(b.nneg, 256);
		check_result(&g, &o, &b);
	}
	mask_buf_free(&b);
	graph_free(&g);
}

Test(mask, both_samplers_valid)
{
	graph g;
	mask_buf b;
	struct mask_opts o;
	int methods[] = { MASK_NEG_REJECT, MASK_NEG_COMPLEMENT, MASK_NEG_AUTO };

	random_graph(&g, 120, 0.3, 2);
	mask_opts_init(&o);
	o.want = MASK_EDGES | MASK_CSR;
	o.nneg = 2000;
	mask_buf_init(&b);
	for (int i = 0; i < 3; i++) {
		o.neg_method = methods[i];
		for (uint64_t s = 0; s < 5; s++) {
			cr_assert_eq(run(&g, &o, s, &b), 0);
			if (methods[i] != MASK_NEG_AUTO)
				cr_assert_eq(b.neg_method, methods[i]);
			check_result(&g, &o, &b);
		}
	}
	mask_buf_free(&b);
	graph_free(&g);
}

Test(mask, all_positives_and_pairs_only)
{
	graph g;
	mask_buf b;
	struct mask_opts o;

	random_graph(&g, 200, 0.1, 3);
	mask_opts_init(&o);
	o.npos = MASK_ALL;
	o.want = 0;
	mask_buf_init(&b);
	cr_assert_eq(run(&g, &o, 1, &b), 0);
	cr_assert_eq(b.npos, mask_count(0.2, g.m));
	for (int64_t i = 0; i < b.r; i++)
		cr_assert(b.pu[i] == b.ru[i] && b.pv[i] == b.rv[i]);
	check_result(&g, &o, &b);
	mask_buf_free(&b);
	graph_free(&g);
}

Test(mask, shortfall_small_graph)
{
	/* a 5-cycle: m = 5, r = 1, P = 10, N = 5 */
	int32_t u[] = { 0, 1, 2, 3, 4 }, v[] = { 1, 2, 3, 4, 0 };
	graph g;
	mask_buf b;
	struct mask_opts o;

	build(&g, 5, 5, u, v);
	mask_opts_init(&o);
	mask_buf_init(&b);
	cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_POS | MASK_SHORT_NEG);
	cr_assert_eq(b.npos, 1);
	cr_assert_eq(b.nneg, 5); /* every non-edge: the 5 chords */
	check_result(&g, &o, &b);
	o.npos = 1;
	o.nneg = 5;
	cr_assert_eq(run(&g, &o, 1, &b), 0, "exact counts are not a shortfall");
	o.nneg = 6;
	cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_NEG);
	o.nneg = 0;
	o.npos = 2;
	cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_POS);
	mask_buf_free(&b);
	graph_free(&g);
}

Test(mask, degenerate_graphs)
{
	graph g;
	mask_buf b;
	struct mask_opts o;
	int32_t none[1] = { 0 };

	mask_opts_init(&o);
	o.want = MASK_EDGES | MASK_CSR;
	mask_buf_init(&b);
	/* no nodes, one node: no pairs at all */
	for (int32_t n = 0; n < 2; n++) {
		build(&g, n, 0, none, none);
		cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_POS | MASK_SHORT_NEG);
		cr_assert(b.r == 0 && b.npos == 0 && b.nneg == 0 && b.m == 0);
		cr_assert_eq(b.g.n, n);
		graph_free(&g);
	}
	/* no edges: negatives are any pairs */
	build(&g, 30, 0, none, none);
	o.nneg = 435; /* all of C(30, 2) */
	cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_POS);
	cr_assert_eq(b.nneg, 435);
	check_result(&g, &o, &b);
	graph_free(&g);
	/* one edge, fraction 0.99: r rounds up to 1, G* is empty */
	{
		int32_t u[] = { 0 }, v[] = { 1 };
		build(&g, 2, 1, u, v);
		o.fraction = 0.99;
		o.npos = MASK_ALL;
		cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_NEG);
		cr_assert(b.r == 1 && b.m == 0 && b.g.m == 0 && b.npos == 1 && b.nneg == 0);
		check_result(&g, &o, &b);
		o.fraction = 0;
		cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_NEG);
		cr_assert(b.r == 0 && b.m == 1 && b.npos == 0);
		check_result(&g, &o, &b);
		graph_free(&g);
	}
	mask_buf_free(&b);
}

Test(mask, invalid_options)
{
	int32_t u[] = { 0 }, v[] = { 1 };
	graph g;
	mask_buf b;
	struct mask_opts o;

	build(&g, 2, 1, u, v);
	mask_buf_init(&b);
	mask_opts_init(&o);
	o.fraction = 1.0;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	o.fraction = -0.1;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	o.fraction = NAN;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	mask_opts_init(&o);
	o.npos = -2;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	mask_opts_init(&o);
	o.nneg = -1;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	mask_opts_init(&o);
	o.want = 4;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	mask_opts_init(&o);
	o.neg_method = 3;
	cr_assert_eq(run(&g, &o, 1, &b), -1);
	mask_buf_free(&b);
	mask_buf_free(NULL);
	graph_free(&g);
}

/* ---- determinism ---- */

static int
same_result(const mask_buf *a, const mask_buf *b)
{
	return a->r == b->r && a->m == b->m && a->npos == b->npos && a->nneg == b->nneg &&
	       !memcmp(a->eu, b->eu, (size_t)a->m * 4) && !memcmp(a->ev, b->ev, (size_t)a->m * 4) &&
	       !memcmp(a->ru, b->ru, (size_t)a->r * 4) && !memcmp(a->rv, b->rv, (size_t)a->r * 4) &&
	       !memcmp(a->pu, b->pu, (size_t)(a->npos + a->nneg) * 4) &&
	       !memcmp(a->pv, b->pv, (size_t)(a->npos + a->nneg) * 4);
}

Test(mask, deterministic_and_seed_dependent)
{
	graph g, small;
	mask_buf a, b;
	struct mask_opts o;

	random_graph(&g, 400, 0.03, 4);
	random_graph(&small, 20, 0.5, 5);
	mask_opts_init(&o);
	mask_buf_init(&a);
	mask_buf_init(&b);
	run(&g, &o, 42, &a);
	/* b is reused: first a small graph, then the big one again */
	run(&small, &o, 42, &b);
	run(&g, &o, 42, &b);
	cr_assert(same_result(&a, &b), "same seed, different result (buffer reuse?)");
	run(&g, &o, 43, &b);
	cr_assert(!same_result(&a, &b), "seeds 42 and 43 gave the same masking");
	cr_assert(memcmp(a.ru, b.ru, (size_t)a.r * 4) != 0 ||
		      memcmp(a.rv, b.rv, (size_t)a.r * 4) != 0,
		  "seeds 42 and 43 removed the same edges");
	mask_buf_free(&a);
	mask_buf_free(&b);
	graph_free(&g);
	graph_free(&small);
}

/* ---- dense graphs: the complement sampler ---- */

Test(mask, dense_fallback_terminates, .timeout = 60)
{
	const int32_t miss[][2] = { { 0, 1 }, { 3, 50 }, { 10, 11 }, { 20, 79 }, { 78, 79 } };
	graph g;
	mask_buf b;
	struct mask_opts o;

	complete_minus(&g, 80, 5, miss);
	mask_opts_init(&o);
	o.want = MASK_EDGES | MASK_CSR;
	mask_buf_init(&b);
	/* asks 256, there are 5: all of them, flagged short */
	cr_assert_eq(run(&g, &o, 1, &b), MASK_SHORT_NEG);
	cr_assert_eq(b.nneg, 5);
	cr_assert_eq(b.neg_method, MASK_NEG_COMPLEMENT);
	for (int i = 0; i < 5; i++)
		cr_assert(b.pu[b.npos + i] == miss[i][0] && b.pv[b.npos + i] == miss[i][1],
			  "negative %d is (%d, %d), want (%d, %d)", i, b.pu[b.npos + i],
			  b.pv[b.npos + i], miss[i][0], miss[i][1]);
	check_result(&g, &o, &b);
	/* 3 of the 5: auto picks the complement; forced rejection works too */
	o.nneg = 3;
	cr_assert_eq(run(&g, &o, 2, &b), 0);
	cr_assert_eq(b.neg_method, MASK_NEG_COMPLEMENT);
	check_result(&g, &o, &b);
	o.neg_method = MASK_NEG_REJECT;
	o.nneg = 5;
	cr_assert_eq(run(&g, &o, 3, &b), 0);
	check_result(&g, &o, &b);
	mask_buf_free(&b);
	graph_free(&g);
}

Test(mask, sparse_graph_uses_rejection)
{
	graph g;
	mask_buf b;
	struct mask_opts o;

	random_graph(&g, 2000, 0.005, 6);
	mask_opts_init(&o);
	mask_buf_init(&b);
	cr_assert_eq(run(&g, &o, 1, &b), 0);
	cr_assert_eq(b.neg_method, MASK_NEG_REJECT);
	cr_assert_lt(b.neg_draws, 400, "%lld draws for 256 negatives at density 0.005",
		     (long long)b.neg_draws);
	check_result(&g, &o, &b);
	mask_buf_free(&b);
	graph_free(&g);
}

/* ---- uniformity ---- */

/* Pearson chi-square of observed counts against equal expectations. */
static double
chi2(const long *cnt, int cells, double expect)
{
	double s = 0;

	for (int i = 0; i < cells; i++)
		s += (cnt[i] - expect) * (cnt[i] - expect) / expect;
	return s;
}

/*
 * 12 edges, fraction 0.25 -> r = 3, positives 1 of the 3.  Over T seeds each
 * edge should be removed T/4 times and be the positive T/12 times.  With 11
 * degrees of freedom, P(chi2 > 40) < 1e-4; a sampler that favours low edge
 * indices (say a forgotten "+ i" in the Fisher-Yates step) lands far above.
 */
Test(mask, removal_uniform)
{
	int32_t u[] = { 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3 };
	int32_t v[] = { 1, 2, 3, 4, 5, 6, 7, 0, 4, 5, 6, 7 };
	const int T = 24000;
	long rem[12] = { 0 }, pos[12] = { 0 };
	int32_t eu[12], ev[12];
	graph g;
	mask_buf b;
	struct mask_opts o;

	build(&g, 8, 12, u, v);
	graph_edges(&g, eu, ev);
	mask_opts_init(&o);
	o.fraction = 0.25;
	o.npos = 1;
	o.nneg = 0;
	mask_buf_init(&b);
	for (int s = 0; s < T; s++) {
		cr_assert_eq(run(&g, &o, (uint64_t)s, &b), 0);
		for (int i = 0; i < 12; i++) {
			for (int64_t j = 0; j < b.r; j++)
				if (b.ru[j] == eu[i] && b.rv[j] == ev[i])
					rem[i]++;
			if (b.pu[0] == eu[i] && b.pv[0] == ev[i])
				pos[i]++;
		}
	}
	cr_assert_lt(chi2(rem, 12, T / 4.0), 40, "removal chi2 %.1f", chi2(rem, 12, T / 4.0));
	cr_assert_lt(chi2(pos, 12, T / 12.0), 40, "positive chi2 %.1f", chi2(pos, 12, T / 12.0));
	mask_buf_free(&b);
	graph_free(&g);
}

/*
 * Negatives: a path 0-1-2-3-4 has N = 6 non-edges; draw k = 2 of them.  All
 * C(6, 2) = 15 pairs of non-edges must be equally likely (14 dof, P(chi2 >
 * 45) < 1e-4), for both samplers: this checks the joint law, not just the
 * marginals.
 */
Test(mask, negatives_uniform)
{
	int32_t u[] = { 0, 1, 2, 3 }, v[] = { 1, 2, 3, 4 };
	const int32_t non[6][2] = { { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 3 }, { 1, 4 }, { 2, 4 } };
	const int T = 15000;
	int methods[] = { MASK_NEG_REJECT, MASK_NEG_COMPLEMENT };
	graph g;
	mask_buf b;
	struct mask_opts o;

	build(&g, 5, 4, u, v);
	mask_opts_init(&o);
	o.fraction = 0;
	o.npos = 0;
	o.nneg = 2;
	mask_buf_init(&b);
	for (int mi = 0; mi < 2; mi++) {
		long cnt[15] = { 0 };
		o.neg_method = methods[mi];
		for (int s = 0; s < T; s++) {
			int a = -1, c = -1, cell = 0;
			cr_assert_eq(run(&g, &o, (uint64_t)s, &b), 0);
			for (int i = 0; i < 6; i++) {
				if (b.pu[0] == non[i][0] && b.pv[0] == non[i][1])
					a = i;
				if (b.pu[1] == non[i][0] && b.pv[1] == non[i][1])
					c = i;
			}
			cr_assert(a >= 0 && c > a,
				  "negatives (%d,%d) (%d,%d) not two sorted non-edges", b.pu[0],
				  b.pv[0], b.pu[1], b.pv[1]);
			for (int i = 0; i < 6; i++)
				for (int j = i + 1; j < 6; j++, cell++)
					if (i == a && j == c)
						cnt[cell]++;
		}
		cr_assert_lt(chi2(cnt, 15, T / 15.0), 45, "method %d: chi2 %.1f", methods[mi],
			     chi2(cnt, 15, T / 15.0));
	}
	mask_buf_free(&b);
	graph_free(&g);
}

/*
 * The complement sampler's unranking on a graph with structure in every
 * row: asking for all N non-edges must list exactly the complement.
 */
Test(mask, complement_unranking_exact)
{
	graph g;
	mask_buf b;
	struct mask_opts o;
	int64_t i = 0;

	random_graph(&g, 60, 0.6, 8);
	mask_opts_init(&o);
	o.npos = 0;
	o.nneg = 60 * 59 / 2 - g.m;
	o.neg_method = MASK_NEG_COMPLEMENT;
	mask_buf_init(&b);
	cr_assert_eq(run(&g, &o, 1, &b), 0);
	for (int32_t x = 0; x < 60; x++)
		for (int32_t y = x + 1; y < 60; y++)
			if (!graph_has_edge(&g, x, y)) {
				cr_assert(b.pu[i] == x && b.pv[i] == y,
					  "non-edge %lld is (%d,%d), want (%d,%d)", (long long)i,
					  b.pu[i], b.pv[i], x, y);
				i++;
			}
	cr_assert_eq(i, b.nneg);
	/* and a strict subset: still only non-edges, sorted, distinct */
	o.nneg = 100;
	cr_assert_eq(run(&g, &o, 2, &b), 0);
	check_result(&g, &o, &b);
	mask_buf_free(&b);
	graph_free(&g);
}
