/* mask.c - edge masking and negative sampling for Task 1; see mask.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mask.h"
#include "rng.h"

void
mask_opts_init(struct mask_opts *o)
{
	memset(o, 0, sizeof *o);
	o->fraction = 0.2;
	o->npos = 128;
	o->nneg = 256;
	o->want = MASK_EDGES;
	o->neg_method = MASK_NEG_AUTO;
}

void
mask_buf_init(mask_buf *b)
{
	memset(b, 0, sizeof *b);
	graph_init(&b->g);
}

void
mask_buf_free(mask_buf *b)
{
	if (b == NULL)
		return;
	free(b->eu);
	free(b->ev);
	graph_free(&b->g);
	free(b->ru);
	free(b->rv);
	free(b->pu);
	free(b->pv);
	free(b->perm);
	free(b->eflag);
	free(b->aflag);
	free(b->hash);
	free(b->rank);
	mask_buf_init(b);
}

int64_t
mask_count(double fraction, int64_t m)
{
	double r = floor(fraction * (double)m + 0.5);

	if (r < 0)
		return 0;
	if (r > (double)m)
		return m;
	return (int64_t)r;
}

/* Grow *p to hold n elements of size bytes; *cap counts elements. */
static void
grow(void *pp, size_t *cap, size_t n, size_t size)
{
	void **p = pp;

	if (n == 0)
		n = 1;
	if (n <= *cap && *p != NULL)
		return;
	*p = xreallocarray(*p, n, size);
	*cap = n;
}

/* Grow two int32 arrays that share one capacity. */
static void
grow2(int32_t **a, int32_t **c, size_t *cap, size_t n)
{
	size_t ca = *cap;

	grow(a, &ca, n, sizeof **a);
	grow(c, cap, n, sizeof **c);
}

/* ---- a set of non-zero 64-bit keys, open addressing, linear probing ---- */

static size_t
hash_slot(uint64_t key, size_t mask)
{
	/* Fibonacci hashing; fold the well-mixed high half into the low bits. */
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h ^ (h >> 32)) & mask;
}

/* Prepare b->hash for up to k keys at load <= 1/2; returns the slot mask. */
static size_t
hash_reset(mask_buf *b, int64_t k)
{
	size_t cap = 16;

	while (cap < 2 * (size_t)k)
		cap *= 2;
	grow(&b->hash, &b->cap_hash, cap, sizeof *b->hash);
	memset(b->hash, 0, cap * sizeof *b->hash);
	return cap - 1;
}

/* Insert key (!= 0); returns 1 if it was new, 0 if already present. */
static int
hash_add(uint64_t *h, size_t mask, uint64_t key)
{
	size_t i = hash_slot(key, mask);

	while (h[i] != 0) {
		if (h[i] == key)
			return 0;
		i = (i + 1) & mask;
	}
	h[i] = key;
	return 1;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* ---- negatives ---- */

/*
 * Rejection sampler: k distinct non-edges of g into b->pu/pv at off..off+k,
 * sorted.  Gives up after max_draws draws and returns -1 (the caller then
 * uses the complement sampler); returns 0 on success.
 */
static int
neg_reject(const graph *g, gsl_rng *rng, int64_t k, int64_t off, double max_draws, mask_buf *b)
{
	size_t mask = hash_reset(b, k);
	unsigned long n = (unsigned long)g->n;
	int64_t got = 0, i;
	double draws = 0;

	grow(&b->rank, &b->cap_rank, (size_t)k, sizeof *b->rank);
	while (got < k) {
		int32_t u, v, t;
		uint64_t key;

		if (draws >= max_draws) {
			b->neg_draws = (int64_t)draws;
			return -1;
		}
		draws++;
		u = (int32_t)gsl_rng_uniform_int(rng, n);
		v = (int32_t)gsl_rng_uniform_int(rng, n);
		if (u == v)
			continue;
		if (u > v)
			t = u, u = v, v = t;
		if (graph_has_edge(g, u, v))
			continue;
		key = (uint64_t)u << 32 | (uint64_t)v; /* u < v, so key != 0 */
		if (!hash_add(b->hash, mask, key))
			continue;
		b->rank[got++] = (int64_t)key;
	}
	b->neg_draws = (int64_t)draws;
	/* (u << 32 | v) orders like (u, v): sorting the keys sorts the pairs. */
	qsort(b->rank, (size_t)k, sizeof *b->rank, cmp_i64);
	for (i = 0; i < k; i++) {
		b->pu[off + i] = (int32_t)((uint64_t)b->rank[i] >> 32);
		b->pv[off + i] = (int32_t)((uint64_t)b->rank[i] & 0xffffffffULL);
	}
	return 0;
}

/*
 * Complement sampler: k distinct ranks in [0, N) by Floyd's algorithm
 * (Bentley & Floyd, CACM 30(9), 1987), sorted, then unranked: rank 0 is the
 * first non-edge (u, v), u < v, in (u, v) order.  Row u holds
 * c_u = (n - 1 - u) - |{neighbours > u}| non-edges; within the row the j-th
 * one is u + 1 + j + t, where t counts the neighbours above u that come at
 * or before it.  Ranks are sorted, so t only grows along a row: one merge.
 */
static void
neg_complement(const graph *g, gsl_rng *rng, int64_t k, int64_t N, int64_t off, mask_buf *b)
{
	int64_t i, base = 0;
	int32_t u, n = g->n;

	grow(&b->rank, &b->cap_rank, (size_t)k, sizeof *b->rank);
	if (k == N) {
		for (i = 0; i < k; i++)
			b->rank[i] = i;
	} else {
		size_t mask = hash_reset(b, k);
		int64_t j, got = 0;

		for (j = N - k; j < N; j++) {
			int64_t t = (int64_t)rng_uniform_u64(rng, (uint64_t)j + 1);
			/* keys are rank + 1, so 0 stays the empty slot */
			if (hash_add(b->hash, mask, (uint64_t)t + 1))
				b->rank[got++] = t;
			else {
				hash_add(b->hash, mask, (uint64_t)j + 1);
				b->rank[got++] = j;
			}
		}
		qsort(b->rank, (size_t)k, sizeof *b->rank, cmp_i64);
	}
	i = 0;
	for (u = 0; u < n - 1 && i < k; u++) {
		int64_t first = graph_lower_bound(g, u, u + 1); /* first neighbour > u */
		int64_t up = g->off[u + 1] - first;
		int64_t c = (int64_t)(n - 1 - u) - up, t = 0;
		const int32_t *nb = g->adj + first;

		while (i < k && b->rank[i] < base + c) {
			int64_t j = b->rank[i] - base;
			while (t < up && nb[t] <= (int64_t)u + 1 + j + t)
				t++;
			b->pu[off + i] = u;
			b->pv[off + i] = (int32_t)((int64_t)u + 1 + j + t);
			i++;
		}
		base += c;
	}
}

/*
 * Expected draws of the rejection sampler for k of N non-edges among P
 * pairs: the j-th new non-edge takes P / (N - j) draws on average, so the
 * sum is P (H(N) - H(N - k)), H the harmonic numbers.  For k < N that is
 * P ln(N / (N - k)) up to O(P / (N - k)^2) (log1p keeps it exact for small
 * k / N); k = N, a coupon collector, uses H(N) ~ ln N + gamma + 1/(2N).
 */
static double
reject_draws(int64_t P, int64_t N, int64_t k)
{
	if (k <= 0)
		return 0;
	if (k < N)
		return (double)P * -log1p(-(double)k / (double)N);
	return (double)P * (log((double)N) + 0.5772156649015329 + 0.5 / (double)N);
}

/* ---- the masking ---- */

/* R: the first r slots of a partial Fisher-Yates shuffle of 0..m-1; its
 * first npos slots are then a uniform npos-subset of R.  eflag[e] is 2 for
 * a positive, 1 for another masked edge, 0 for a kept one. */
static void
choose_masked(const graph *g, gsl_rng *rng, int64_t r, int64_t npos, mask_buf *b)
{
	int64_t m = g->m, i, e;

	grow(&b->perm, &b->cap_perm, (size_t)m, sizeof *b->perm);
	grow(&b->eflag, &b->cap_eflag, (size_t)m, sizeof *b->eflag);
	for (e = 0; e < m; e++)
		b->perm[e] = e;
	for (i = 0; i < r; i++) {
		int64_t j = i + (int64_t)rng_uniform_u64(rng, (uint64_t)(m - i)), t;
		t = b->perm[i], b->perm[i] = b->perm[j], b->perm[j] = t;
	}
	memset(b->eflag, 0, (size_t)m);
	for (i = 0; i < r; i++)
		b->eflag[b->perm[i]] = i < npos ? 2 : 1;
}

/* The kept edges (MASK_EDGES), the masked ones, the positives and the
 * masked arcs (aflag, MASK_CSR) by eflag.  One pass over the upper arcs
 * (x < y) visits the edges in canonical order, so every list comes out
 * sorted by (u, v).  Returns the number of kept edges. */
static int64_t
split_edges(const graph *g, const struct mask_opts *o, mask_buf *b)
{
	int64_t nr = 0, np = 0, p, e = 0, kept = 0;
	int32_t x;

	for (x = 0; x < g->n; x++)
		for (p = graph_lower_bound(g, x, x + 1); p < g->off[x + 1]; p++, e++) {
			int32_t y = g->adj[p];
			if (b->eflag[e] == 0) {
				if (o->want & MASK_EDGES)
					b->eu[kept] = x, b->ev[kept] = y;
				kept++;
				continue;
			}
			b->ru[nr] = x, b->rv[nr++] = y;
			if (b->eflag[e] == 2)
				b->pu[np] = x, b->pv[np++] = y;
			if (o->want & MASK_CSR) {
				b->aflag[p] = 1;
				b->aflag[graph_lower_bound(g, y, x)] = 1;
			}
		}
	return kept;
}

/* b->g: the CSR of g without the arcs aflag marks (kept edges). */
static void
masked_csr(const graph *g, int64_t kept, mask_buf *b)
{
	graph *h = &b->g;
	int64_t w = 0, p;
	int32_t n = g->n, x;

	if ((size_t)n + 1 > h->cap_off || h->off == NULL) {
		h->off = xreallocarray(h->off, (size_t)n + 1, sizeof *h->off);
		h->cap_off = (size_t)n + 1;
	}
	if ((size_t)(2 * kept) > h->cap_adj || h->adj == NULL) {
		h->cap_adj = kept > 0 ? (size_t)(2 * kept) : 1;
		h->adj = xreallocarray(h->adj, h->cap_adj, sizeof *h->adj);
	}
	h->off[0] = 0;
	for (x = 0; x < n; x++) {
		for (p = g->off[x]; p < g->off[x + 1]; p++)
			if (!b->aflag[p])
				h->adj[w++] = g->adj[p];
		h->off[x + 1] = w;
	}
	h->n = n;
	h->m = kept;
}

/* k negatives of the N non-edges among the P pairs of the original g,
 * after the npos positives.  Returns the method that drew them. */
static int
negatives(const graph *g, gsl_rng *rng, const struct mask_opts *o, int64_t k, int64_t N, int64_t P,
	  int64_t npos, mask_buf *b)
{
	int method = o->neg_method;

	if (method == MASK_NEG_AUTO) {
		/* Expected rejection draws P ln(N / (N - k)) against the
		 * complement pass; a draw (two RNG calls, a binary search, a
		 * hash probe) costs about 16 steps of that pass. */
		double cost_c = (double)g->n + (double)g->m + (double)k * (1 + log2((double)k + 1));
		method =
		    16 * reject_draws(P, N, k) < cost_c ? MASK_NEG_REJECT : MASK_NEG_COMPLEMENT;
	}
	b->neg_draws = 0;
	if (k > 0 && method == MASK_NEG_REJECT) {
		/* Forced (tests) or chosen, rejection never runs unbounded: past
		 * 8 times its expectation the complement sampler takes over. */
		if (neg_reject(g, rng, k, npos, 8 * reject_draws(P, N, k) + 64, b) != 0)
			method = MASK_NEG_COMPLEMENT;
	}
	if (k > 0 && method == MASK_NEG_COMPLEMENT)
		neg_complement(g, rng, k, N, npos, b);
	return method;
}

int
mask_edges(const graph *g, gsl_rng *rng, const struct mask_opts *o, mask_buf *b)
{
	int64_t m = g->m, r, npos, k, N, P, kept;
	int32_t n = g->n;
	int status = 0, method;

	if (!isfinite(o->fraction) || o->fraction < 0 || o->fraction >= 1 || o->npos < MASK_ALL ||
	    o->nneg < 0 || (o->want & ~(MASK_EDGES | MASK_CSR)) != 0 ||
	    o->neg_method < MASK_NEG_AUTO || o->neg_method > MASK_NEG_COMPLEMENT)
		return -1;

	r = mask_count(o->fraction, m);
	npos = o->npos;
	if (npos == MASK_ALL)
		npos = r;
	else if (npos > r) {
		npos = r;
		status |= MASK_SHORT_POS;
	}
	P = n > 1 ? (int64_t)n * (n - 1) / 2 : 0;
	N = P - m;
	k = o->nneg;
	if (k > N) {
		k = N;
		status |= MASK_SHORT_NEG;
	}

	choose_masked(g, rng, r, npos, b);
	grow2(&b->ru, &b->rv, &b->cap_r, (size_t)r);
	grow2(&b->pu, &b->pv, &b->cap_p, (size_t)(npos + k));
	if (o->want & MASK_EDGES)
		grow2(&b->eu, &b->ev, &b->cap_e, (size_t)(m - r));
	if (o->want & MASK_CSR) {
		grow(&b->aflag, &b->cap_aflag, (size_t)(2 * m), sizeof *b->aflag);
		memset(b->aflag, 0, (size_t)(2 * m));
	}
	kept = split_edges(g, o, b);
	if (o->want & MASK_CSR)
		masked_csr(g, kept, b);
	method = negatives(g, rng, o, k, N, P, npos, b);

	b->m = kept;
	b->r = r;
	b->npos = npos;
	b->nneg = k;
	b->neg_method = method;
	return status;
}
