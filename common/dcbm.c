/* dcbm.c - degree-corrected block model sampler; see dcbm.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <gsl/gsl_rng.h>

#include "dcbm.h"
#include "err.h"
#include "rng.h"

/* Levels per octave of theta: 2 keeps theta within sqrt(2) inside a bucket,
 * so a candidate is accepted with probability >= 1/2, while the number of
 * bucket pairs (one geometric draw each) stays small. */
#define LEVELS_PER_OCTAVE 2

void
dcbm_init(dcbm *d)
{
	memset(d, 0, sizeof *d);
	d->task_size = DCBM_TASK_SIZE;
}

void
dcbm_free(dcbm *d)
{
	if (d == NULL)
		return;
	free(d->cluster);
	free(d->theta);
	free(d->bstart);
	free(d->bcluster);
	free(d->btmax);
	free(d->lblk);
	free(d->ltmax);
	free(d->cgstart);
	free(d->cgblk);
	free(d->bn);
	dcbm_init(d);
}

void
dcbm_edges_init(dcbm_edges *e)
{
	memset(e, 0, sizeof *e);
}

void
dcbm_edges_free(dcbm_edges *e)
{
	if (e == NULL)
		return;
	free(e->u);
	free(e->v);
	free(e->key);
	free(e->tmp);
	dcbm_edges_init(e);
}

int
dcbm_params_check(const struct dcbm_params *p, char *msg, size_t msglen)
{
	if (p->n < 1 || p->n > DCBM_MAX_NODES)
		snprintf(msg, msglen, "nodes %d out of range 1..%lld", (int)p->n, DCBM_MAX_NODES);
	else if (p->K < 1 || p->K > DCBM_MAX_CLUSTERS)
		snprintf(msg, msglen, "clusters %d out of range 1..%d", (int)p->K,
			 DCBM_MAX_CLUSTERS);
	else if (!(p->p_div_q >= 1.0 && p->p_div_q <= DCBM_MAX_PDQ))
		snprintf(msg, msglen, "p_div_q %g out of range 1..%g", p->p_div_q, DCBM_MAX_PDQ);
	else if (!(p->gamma >= DCBM_MIN_GAMMA && p->gamma <= DCBM_MAX_GAMMA))
		snprintf(msg, msglen, "gamma %g out of range %g..%g", p->gamma, DCBM_MIN_GAMMA,
			 DCBM_MAX_GAMMA);
	else if (!(p->mean_degree >= 0.0 && p->mean_degree <= DCBM_MAX_DEGREE))
		snprintf(msg, msglen, "mean degree %g out of range 0..%g", p->mean_degree,
			 DCBM_MAX_DEGREE);
	else
		return 0;
	return -1;
}

/* Uniform on [lo, hi) from one draw (one draw even when lo == hi). */
static double
draw_real(gsl_rng *r, const double *range)
{
	double x = gsl_rng_uniform(r);

	return range[0] + (range[1] - range[0]) * x;
}

static long long
draw_int(gsl_rng *r, const long long *range)
{
	return range[0] + (long long)rng_uniform_u64(r, (uint64_t)(range[1] - range[0]) + 1);
}

void
dcbm_draw_params(const struct dcbm_ranges *R, gsl_rng *r, struct dcbm_params *p)
{
	double x;

	p->n = (int32_t)draw_int(r, R->nodes);
	p->K = (int32_t)draw_int(r, R->clusters);
	if (p->K > p->n && p->n > 0)
		p->K = p->n; /* no more clusters than nodes */
	p->p_div_q = draw_real(r, R->p_div_q);
	/* One draw serves k or dbar, so --mean-degree leaves gamma's draw alone. */
	x = draw_real(r, R->use_mean_degree ? R->mean_degree : R->k);
	if (R->use_mean_degree) {
		p->mean_degree = x;
		p->k = R->deg_per_k > 0 ? x / R->deg_per_k : 0.0;
	} else {
		p->k = x;
		p->mean_degree = R->deg_per_k * x;
	}
	p->gamma = draw_real(r, R->gamma);
}

static void
reserve_nodes(dcbm *d, size_t n)
{
	if (n <= d->cap_n && d->cluster != NULL)
		return;
	d->cap_n = n;
	d->cluster = xreallocarray(d->cluster, n, sizeof *d->cluster);
	d->theta = xreallocarray(d->theta, n, sizeof *d->theta);
	d->bn = xreallocarray(d->bn, n, sizeof *d->bn);
}

/* Bucket, level and cluster-group tables (levels and groups <= buckets). */
static void
reserve_buckets(dcbm *d, size_t nb)
{
	if (nb <= d->cap_b && d->bstart != NULL)
		return;
	d->cap_b = nb;
	d->bstart = xreallocarray(d->bstart, nb + 1, sizeof *d->bstart);
	d->bcluster = xreallocarray(d->bcluster, nb, sizeof *d->bcluster);
	d->btmax = xreallocarray(d->btmax, nb, sizeof *d->btmax);
	d->lblk = xreallocarray(d->lblk, nb + 1, sizeof *d->lblk);
	d->ltmax = xreallocarray(d->ltmax, nb, sizeof *d->ltmax);
	d->cgstart = xreallocarray(d->cgstart, nb + 1, sizeof *d->cgstart);
	d->cgblk = xreallocarray(d->cgblk, nb, sizeof *d->cgblk);
}

static int
theta_level(double theta)
{
	return (int)floor(LEVELS_PER_OCTAVE * log2(theta));
}

/*
 * Sort nodes by (level, cluster) with two stable counting sorts (by
 * cluster, then by level), cut them into buckets of equal (level, cluster)
 * and levels, and list each cluster's buckets (levels ascending).
 * O(n + K + L) time and memory, never a K x L table.
 */
static void
build_buckets(dcbm *d)
{
	int32_t n = d->par.n, K = d->par.K, u, b, nb, nl, ng;
	int lvmin = 0, lvmax = 0, L;
	int32_t *lv = xmallocarray((size_t)n, sizeof *lv);
	int32_t *order = xmallocarray((size_t)n, sizeof *order);
	int64_t *cnt, i;

	for (u = 0; u < n; u++) {
		lv[u] = theta_level(d->theta[u]);
		if (u == 0 || lv[u] < lvmin)
			lvmin = lv[u];
		if (u == 0 || lv[u] > lvmax)
			lvmax = lv[u];
	}
	L = lvmax - lvmin + 1;
	cnt = xcalloc((size_t)(L > K ? L : K) + 1, sizeof *cnt);
	for (u = 0; u < n; u++)
		cnt[d->cluster[u] + 1]++;
	for (i = 0; i < K; i++)
		cnt[i + 1] += cnt[i];
	for (u = 0; u < n; u++)
		order[cnt[d->cluster[u]]++] = u;
	memset(cnt, 0, ((size_t)L + 1) * sizeof *cnt);
	for (u = 0; u < n; u++)
		cnt[lv[u] - lvmin + 1]++;
	for (i = 0; i < L; i++)
		cnt[i + 1] += cnt[i];
	for (i = 0; i < n; i++) {
		u = order[i];
		d->bn[cnt[lv[u] - lvmin]++].node = u;
	}

	/* Buckets start where (level, cluster) changes, levels where level does. */
	nb = 0;
	for (i = 0; i < n; i++) {
		u = d->bn[i].node;
		if (i == 0 || d->cluster[u] != d->cluster[d->bn[i - 1].node] ||
		    lv[u] != lv[d->bn[i - 1].node])
			nb++;
	}
	reserve_buckets(d, (size_t)nb);
	nb = nl = 0;
	for (i = 0; i < n; i++) {
		int32_t prev = i > 0 ? d->bn[i - 1].node : 0;

		u = d->bn[i].node;
		d->bn[i].theta = d->theta[u];
		if (i == 0 || lv[u] != lv[prev]) {
			d->lblk[nl] = nb;
			d->ltmax[nl] = d->theta[u];
			nl++;
		} else if (d->theta[u] > d->ltmax[nl - 1])
			d->ltmax[nl - 1] = d->theta[u];
		if (i == 0 || d->cluster[u] != d->cluster[prev] || lv[u] != lv[prev]) {
			d->bstart[nb] = i;
			d->bcluster[nb] = d->cluster[u];
			d->btmax[nb] = d->theta[u];
			nb++;
		} else if (d->theta[u] > d->btmax[nb - 1])
			d->btmax[nb - 1] = d->theta[u];
	}
	d->bstart[nb] = n;
	d->lblk[nl] = nb;
	d->nb = nb;
	d->nl = nl;

	/* Each cluster's buckets: a stable counting sort of buckets by cluster. */
	memset(cnt, 0, ((size_t)K + 1) * sizeof *cnt);
	for (b = 0; b < nb; b++)
		cnt[d->bcluster[b] + 1]++;
	for (i = 0; i < K; i++)
		cnt[i + 1] += cnt[i];
	for (b = 0; b < nb; b++)
		d->cgblk[cnt[d->bcluster[b]]++] = b;
	ng = 0;
	for (i = 0; i < nb; i++)
		if (i == 0 || d->bcluster[d->cgblk[i]] != d->bcluster[d->cgblk[i - 1]])
			d->cgstart[ng++] = (int32_t)i;
	d->cgstart[ng] = nb;
	d->ncg = ng;
	free(cnt);
	free(order);
	free(lv);
}

void
dcbm_model(dcbm *d, const struct dcbm_params *p, gsl_rng *r)
{
	char msg[128];
	int32_t n, K, u, c;
	double sum, mean, s2, tot, within, a, *Th;

	if (dcbm_params_check(p, msg, sizeof msg) != 0)
		die("dcbm: %s", msg);
	d->par = *p;
	n = p->n;
	K = p->K;
	reserve_nodes(d, (size_t)n);

	for (u = 0; u < n; u++)
		d->cluster[u] = (int32_t)rng_uniform_u64(r, (uint64_t)K);
	/* Pareto by inversion; U in (0,1) so theta is finite and >= 1. */
	a = -1.0 / (p->gamma - 1.0);
	sum = 0.0;
	for (u = 0; u < n; u++) {
		d->theta[u] = pow(gsl_rng_uniform_pos(r), a);
		sum += d->theta[u];
	}
	mean = sum / n;
	d->theta_max = 0.0;
	for (u = 0; u < n; u++) {
		d->theta[u] /= mean;
		if (d->theta[u] > d->theta_max)
			d->theta_max = d->theta[u];
	}

	/*
	 * sum_{u != v} theta_u theta_v P0 = sum_r (Th_r^2 - S2_r)
	 *	+ (1/p_div_q) sum_{r != s} Th_r Th_s, with Th_r the theta mass of
	 * cluster r and S2_r its sum of squares.  Both terms are >= 0.
	 */
	Th = xcalloc((size_t)K, sizeof *Th);
	s2 = 0.0;
	for (u = 0; u < n; u++) {
		Th[d->cluster[u]] += d->theta[u];
		s2 += d->theta[u] * d->theta[u];
	}
	within = 0.0;
	tot = 0.0;
	for (c = 0; c < K; c++) {
		within += Th[c] * Th[c];
		tot += Th[c];
	}
	free(Th);
	/* tot^2 - within = sum_{r != s}; within - s2 = sum_r (Th_r^2 - S2_r) */
	tot = (within - s2) + (tot * tot - within) / p->p_div_q;
	if (tot > 0.0 && isfinite(tot) && p->mean_degree > 0.0) {
		d->p_in = p->mean_degree * n / tot;
		d->p_out = d->p_in / p->p_div_q;
	} else {
		d->p_in = 0.0;
		d->p_out = 0.0;
	}
	build_buckets(d);
}

/* ---- sampling ---- */

/* A growable array of packed edges (u << bits | v). */
struct keybuf {
	uint64_t *k;
	size_t n, cap;
};

static inline void
kb_push(struct keybuf *b, uint64_t key)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		b->k = xreallocarray(b->k, b->cap, sizeof *b->k);
	}
	b->k[b->n++] = key;
}

/*
 * A piece of one unit: linear pair indices [lo, hi).  SEG_TRI: pairs inside
 * bucket a; SEG_PAIR: buckets a x b of one cluster; SEG_LEVEL: levels a <= b,
 * pairs of different clusters only.
 */
enum { SEG_TRI, SEG_PAIR, SEG_LEVEL };

struct seg {
	int32_t a, b;
	int64_t lo, hi;
	int kind;
};

struct plan {
	struct seg *seg;
	size_t nseg, cap;
	size_t *first; /* (ntask+1) segments of task t: first[t]..first[t+1]-1 */
	size_t ntask, cap_t;
	double T, acc; /* task size, expected candidates in the open task */
};

static inline double
clip1(double p)
{
	return p < 1.0 ? p : 1.0;
}

/*
 * Walks the pairs of a SEG_LEVEL unit (x, y) in index order.  Rows are the
 * nodes of level x, bucket by bucket (clusters ascending); a row of cluster
 * c has for columns the nodes of level y outside cluster c (x < y), or the
 * nodes of level x in clusters after c (x == y).  All rows of a bucket
 * have the same width, so bucket r covers indices [boff, bend) and index j
 * is row (j - boff) / w, column (j - boff) % w of it.
 */
struct lcur {
	const dcbm *d;
	int32_t x, y;
	int32_t r;	 /* the row bucket, in level x */
	int32_t q, qend; /* x < y: walks level y's buckets by cluster */
	int64_t boff, bend, w;
	int64_t skip0, skip1;  /* x < y: columns [skip0, skip1) of level y are
				 * row's cluster; x == y: columns start at skip0 */
	int64_t ystart, ysize; /* level y in bn */
};

static void
lcur_bucket(struct lcur *c)
{
	const dcbm *d = c->d;
	int64_t size = d->bstart[c->r + 1] - d->bstart[c->r];

	if (c->x == c->y) {
		c->skip0 = d->bstart[c->r + 1] - c->ystart;
		c->w = c->ysize - c->skip0;
	} else {
		int32_t cl = d->bcluster[c->r];

		while (c->q < c->qend && d->bcluster[c->q] < cl)
			c->q++;
		if (c->q < c->qend && d->bcluster[c->q] == cl) {
			c->skip0 = d->bstart[c->q] - c->ystart;
			c->skip1 = d->bstart[c->q + 1] - c->ystart;
		} else
			c->skip0 = c->skip1 = c->ysize;
		c->w = c->ysize - (c->skip1 - c->skip0);
	}
	c->bend = c->boff + size * c->w;
}

static void
lcur_init(struct lcur *c, const dcbm *d, int32_t x, int32_t y)
{
	c->d = d;
	c->x = x;
	c->y = y;
	c->r = d->lblk[x];
	c->q = d->lblk[y];
	c->qend = d->lblk[y + 1];
	c->ystart = d->bstart[d->lblk[y]];
	c->ysize = d->bstart[d->lblk[y + 1]] - c->ystart;
	c->boff = 0;
	lcur_bucket(c);
}

/* The bn positions of pair j; j must be >= every earlier j and < the
 * unit's pair count. */
static inline void
lcur_pair(struct lcur *c, int64_t j, int64_t *iu, int64_t *iv)
{
	int64_t row, col;

	while (j >= c->bend) {
		c->r++;
		c->boff = c->bend;
		lcur_bucket(c);
	}
	row = (j - c->boff) / c->w;
	col = j - c->boff - row * c->w;
	*iu = c->d->bstart[c->r] + row;
	if (c->x == c->y)
		col += c->skip0;
	else if (col >= c->skip0)
		col += c->skip1 - c->skip0;
	*iv = c->ystart + col;
}

/* Pairs of unit (x, y) between different clusters. */
static int64_t
level_pairs(const dcbm *d, int32_t x, int32_t y)
{
	struct lcur c;

	lcur_init(&c, d, x, y);
	while (c.r + 1 < d->lblk[x + 1]) {
		c.r++;
		c.boff = c.bend;
		lcur_bucket(&c);
	}
	return c.bend;
}

static void
plan_push(struct plan *pl, int kind, int32_t a, int32_t b, int64_t lo, int64_t hi)
{
	if (pl->nseg == pl->cap) {
		pl->cap = pl->cap ? 2 * pl->cap : 256;
		pl->seg = xreallocarray(pl->seg, pl->cap, sizeof *pl->seg);
	}
	pl->seg[pl->nseg++] = (struct seg){ a, b, lo, hi, kind };
}

static void
plan_task(struct plan *pl)
{
	if (pl->ntask + 2 > pl->cap_t) {
		pl->cap_t = pl->cap_t ? 2 * pl->cap_t : 16;
		pl->first = xreallocarray(pl->first, pl->cap_t, sizeof *pl->first);
	}
	pl->first[++pl->ntask] = pl->nseg;
}

/*
 * Add a unit of N pairs at candidate rate pmax, cut into pieces so that a
 * task holds about T expected candidates (geometric skipping is memoryless,
 * so pieces sampled independently are exact).
 */
static void
plan_unit(struct plan *pl, int kind, int32_t a, int32_t b, int64_t N, double pmax)
{
	int64_t lo = 0, take;
	double room;

	if (N <= 0 || !(pmax > 0.0))
		return;
	while (lo < N) {
		room = (pl->T - pl->acc) / pmax;
		if (room >= (double)(N - lo))
			take = N - lo;
		else
			take = room >= 1.0 ? (int64_t)room : 1;
		plan_push(pl, kind, a, b, lo, lo + take);
		pl->acc += (double)take * pmax;
		lo += take;
		if (pl->acc >= pl->T) {
			plan_task(pl);
			pl->acc = 0.0;
		}
	}
}

/*
 * The units in a fixed order (each cluster's bucket pairs, then the level
 * pairs), cut into tasks.  Depends on the model only, never on the thread
 * count.
 */
static void
make_plan(const dcbm *d, struct plan *pl)
{
	int32_t g, i, j, x, y;

	pl->T = d->task_size > 1.0 ? d->task_size : 1.0;
	pl->acc = 0.0;
	pl->ntask = 0;
	pl->cap_t = 16;
	pl->first = xmallocarray(pl->cap_t, sizeof *pl->first);
	pl->first[0] = 0;
	for (g = 0; g < d->ncg; g++)
		for (i = d->cgstart[g]; i < d->cgstart[g + 1]; i++)
			for (j = i; j < d->cgstart[g + 1]; j++) {
				int32_t a = d->cgblk[i], b = d->cgblk[j];
				int64_t sa = d->bstart[a + 1] - d->bstart[a];
				int64_t sb = d->bstart[b + 1] - d->bstart[b];
				double pmax = clip1(d->btmax[a] * d->btmax[b] * d->p_in);

				if (a == b)
					plan_unit(pl, SEG_TRI, a, a, sa * (sa - 1) / 2, pmax);
				else
					plan_unit(pl, SEG_PAIR, a, b, sa * sb, pmax);
			}
	if (d->p_out > 0.0)
		for (x = 0; x < d->nl; x++)
			for (y = x; y < d->nl; y++)
				plan_unit(pl, SEG_LEVEL, x, y, level_pairs(d, x, y),
					  clip1(d->ltmax[x] * d->ltmax[y] * d->p_out));
	if (pl->nseg > pl->first[pl->ntask])
		plan_task(pl);
}

/* Number of failures before the next success of Bernoulli(p) trials, as a
 * double (it may exceed any integer range when p is tiny); lp = log1p(-p). */
static inline double
geom_skip(gsl_rng *r, double lp)
{
	return floor(log(gsl_rng_uniform_pos(r)) / lp);
}

/* Row of linear index j in the strict upper triangle of an s x s matrix,
 * row i holding the s-1-i pairs (i, i+1..s-1) from R(i) = i(2s-i-1)/2. */
static inline int64_t
tri_start(int64_t i, int64_t s)
{
	return i * (2 * s - i - 1) / 2;
}

static int64_t
tri_row(int64_t j, int64_t s)
{
	double b = 2.0 * (double)s - 1.0;
	double disc = b * b - 8.0 * (double)j;
	int64_t i = (int64_t)((b - sqrt(disc > 0 ? disc : 0)) / 2.0);

	if (i < 0)
		i = 0;
	if (i > s - 2)
		i = s - 2;
	while (i > 0 && tri_start(i, s) > j)
		i--;
	while (i < s - 2 && tri_start(i + 1, s) <= j)
		i++;
	return i;
}

static inline uint64_t
pack(int32_t x, int32_t y, int bits)
{
	return x < y ? (uint64_t)x << bits | (uint64_t)y : (uint64_t)y << bits | (uint64_t)x;
}

/*
 * Candidates are found in batches: first BATCH geometric skips, with a
 * prefetch of the far endpoint's (theta, id) line, then the acceptance
 * tests.  A random lookup into a bucket of 10^5 nodes misses the cache, and
 * overlapping those misses is what makes big graphs fast.
 */
#define BATCH 32

/*
 * Walks the pairs of one piece in index order: pcur_to(c, j) gives pair j
 * as positions u, v in d->bn.  SEG_PAIR, buckets a != b of one cluster:
 * index j is (A[j / sb], B[j % sb]), A and B the buckets.  SEG_TRI, pairs
 * inside bucket a of s nodes: index j is (A[i], A[i + 1 + j - R(i)]) of row
 * i = tri_row(j).  SEG_LEVEL: struct lcur.
 */
struct pcur {
	int64_t a0, b0;	  /* bn positions of buckets a and b */
	int64_t n;	  /* SEG_PAIR: the size sb of b; SEG_TRI: s */
	int64_t j, i, jj; /* the last pair: row i, column jj (SEG_PAIR) */
	int64_t rs, re;	  /* SEG_TRI: row i covers indices [rs, re) */
	struct lcur lc;	  /* SEG_LEVEL */
};

/* Start c before pair sg->lo; P and *pmax are the piece's probability
 * factor and its largest pair probability. */
static void
pcur_init(struct pcur *c, const dcbm *d, const struct seg *sg, double *P, double *pmax)
{
	c->j = sg->lo - 1;
	if (sg->kind == SEG_LEVEL) { /* a and b are levels */
		*P = d->p_out;
		*pmax = clip1(d->ltmax[sg->a] * d->ltmax[sg->b] * *P);
		lcur_init(&c->lc, d, sg->a, sg->b);
		return;
	}
	c->a0 = d->bstart[sg->a];
	c->b0 = d->bstart[sg->b];
	*P = d->p_in;
	if (sg->kind == SEG_PAIR) {
		*pmax = clip1(d->btmax[sg->a] * d->btmax[sg->b] * *P);
		c->n = d->bstart[sg->b + 1] - c->b0;
		c->i = sg->lo / c->n;
		c->jj = sg->lo - c->i * c->n - 1;
		return;
	}
	*pmax = clip1(d->btmax[sg->a] * d->btmax[sg->a] * *P);
	c->n = d->bstart[sg->a + 1] - c->a0;
	c->i = tri_row(sg->lo, c->n);
	c->rs = tri_start(c->i, c->n);
	c->re = c->rs + (c->n - 1 - c->i);
}

/* The bn positions of pair j > every earlier j of c, in a piece of kind
 * (a constant where it is inlined: one walk compiled for each kind). */
static inline __attribute__((always_inline)) void
pcur_to(struct pcur *c, int kind, int64_t j, int64_t *u, int64_t *v)
{
	int64_t s = c->n;

	if (kind == SEG_LEVEL) {
		lcur_pair(&c->lc, j, u, v);
		return;
	}
	if (kind == SEG_PAIR) {
		c->jj += j - c->j;
		c->j = j;
		if (c->jj >= s) {
			c->i += c->jj / s;
			c->jj %= s;
		}
		*u = c->a0 + c->i;
		*v = c->b0 + c->jj;
		return;
	}
	if (j >= c->re) {
		/* A long jump finds its row directly, a short one walks. */
		if (j - c->re > s) {
			c->i = tri_row(j, s);
			c->rs = tri_start(c->i, s);
			c->re = c->rs + (s - 1 - c->i);
		} else
			while (j >= c->re) {
				c->i++;
				c->rs = c->re;
				c->re += s - 1 - c->i;
			}
	}
	*u = c->a0 + c->i;
	*v = c->a0 + c->i + 1 + (j - c->rs);
}

/*
 * Sample one piece of kind sg->kind: each pair j in [lo, hi) is an edge
 * with probability theta_u * theta_v * P, drawn in index order.  Where
 * some pair can reach 1 (pmax >= 1) every pair is tried, one uniform each
 * (a certain pair draws none); else geometric skips with rate pmax find
 * the candidates, each kept with probability p / pmax.
 */
static inline __attribute__((always_inline)) void
run_seg(const dcbm *d, const struct seg *sg, int kind, gsl_rng *r, struct keybuf *out, int bits)
{
	const struct dcbm_bnode *bn = d->bn;
	struct pcur cur;
	int64_t j, u, v, cu[BATCH], cv[BATCH];
	double P, pmax, p, lp, s;
	int c, k, done;

	pcur_init(&cur, d, sg, &P, &pmax);
	if (pmax >= 1.0) {
		/* Every pair is a candidate: walk them in order. */
		for (j = sg->lo; j < sg->hi; j++) {
			pcur_to(&cur, kind, j, &u, &v);
			p = bn[u].theta * bn[v].theta * P;
			if (p >= 1.0 || gsl_rng_uniform(r) < p)
				kb_push(out, pack(bn[u].node, bn[v].node, bits));
		}
		return;
	}
	lp = log1p(-pmax);
	j = sg->lo - 1;
	for (done = 0; !done;) {
		for (c = 0; c < BATCH; c++) {
			s = geom_skip(r, lp);
			if (s >= (double)(sg->hi - 1 - j)) {
				done = 1;
				break;
			}
			j += 1 + (int64_t)s;
			pcur_to(&cur, kind, j, &cu[c], &cv[c]);
			__builtin_prefetch(&bn[cv[c]]);
		}
		for (k = 0; k < c; k++) {
			p = bn[cu[k]].theta * bn[cv[k]].theta * P; /* <= pmax < 1 */
			if (gsl_rng_uniform(r) * pmax < p)
				kb_push(out, pack(bn[cu[k]].node, bn[cv[k]].node, bits));
		}
	}
}

static void
run_task(const dcbm *d, const struct plan *pl, size_t t, gsl_rng *r, struct keybuf *out, int bits)
{
	size_t k;

	for (k = pl->first[t]; k < pl->first[t + 1]; k++)
		switch (pl->seg[k].kind) {
		case SEG_TRI:
			run_seg(d, &pl->seg[k], SEG_TRI, r, out, bits);
			break;
		case SEG_PAIR:
			run_seg(d, &pl->seg[k], SEG_PAIR, r, out, bits);
			break;
		default:
			run_seg(d, &pl->seg[k], SEG_LEVEL, r, out, bits);
		}
}

/* Bits needed for node ids 0..n-1. */
static int
id_bits(int32_t n)
{
	int b = 1;

	while (b < 31 && ((int64_t)1 << b) < n)
		b++;
	return b;
}

static void
reserve_edges(dcbm_edges *e, size_t m)
{
	if (m <= e->cap && e->u != NULL)
		return;
	e->cap = m > 16 ? m : 16;
	e->u = xreallocarray(e->u, e->cap, sizeof *e->u);
	e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
}

/* Below this many edges the sort runs on one thread: forking is not worth it. */
#define PAR_SORT_MIN (1 << 18)

/*
 * LSD radix sort of e->key[0..m) holding 2 idbits-bit keys, in passes of at
 * most 11 bits: 2048 output streams still combine their writes in cache,
 * where 16-bit digits measured 2x slower on 10^7 keys.  Then unpack.
 * Big arrays are sorted by all threads: each counts and scatters its own
 * contiguous chunk, the digit offsets laid out (digit, thread) so the sort
 * stays stable.  The keys are distinct, so any thread count gives the one
 * sorted order.
 */
static void
sort_unpack(dcbm_edges *e, size_t m, int idbits)
{
	int total = 2 * idbits, passes = (total + 10) / 11, w = 0, nt = 1;
	uint64_t *src = e->key, *dst = NULL, mask = ((uint64_t)1 << idbits) - 1;
	size_t *cnt = NULL, nbk = 0;

	reserve_edges(e, m);
	e->m = (int64_t)m;
	if (m > 1) {
		if (e->tmp == NULL || m > e->cap_tmp) {
			free(e->tmp);
			e->cap_tmp = e->cap_key;
			e->tmp = xmallocarray(e->cap_tmp, sizeof *e->tmp);
		}
		dst = e->tmp;
		w = (total + passes - 1) / passes;
		nbk = (size_t)1 << w;
#ifdef _OPENMP
		if (m >= PAR_SORT_MIN && !omp_in_parallel())
			nt = omp_get_max_threads();
#endif
		cnt = xmallocarray((size_t)nt * nbk, sizeof *cnt);
	}
#pragma omp parallel num_threads(nt) if (nt > 1)
	{
		int me = 0, T = 1, pass, shift;
		size_t i, lo, hi, *c;
		uint64_t dmask = nbk - 1;

#ifdef _OPENMP
		me = omp_get_thread_num();
		T = omp_get_num_threads();
#endif
		lo = m * (size_t)me / (size_t)T;
		hi = m * (size_t)(me + 1) / (size_t)T;
		c = cnt ? cnt + (size_t)me * nbk : NULL;
		for (pass = 0, shift = 0; m > 1 && pass < passes; pass++, shift += w) {
			memset(c, 0, nbk * sizeof *c);
			for (i = lo; i < hi; i++)
				c[(src[i] >> shift) & dmask]++;
#pragma omp barrier
#pragma omp single
			{
				size_t d, t, off = 0, x;

				for (d = 0; d < nbk; d++)
					for (t = 0; t < (size_t)T; t++) {
						x = cnt[t * nbk + d];
						cnt[t * nbk + d] = off;
						off += x;
					}
			}
			for (i = lo; i < hi; i++)
				dst[c[(src[i] >> shift) & dmask]++] = src[i];
#pragma omp barrier
#pragma omp single
			{
				uint64_t *t = src;

				src = dst;
				dst = t;
			}
		}
		for (i = lo; i < hi; i++) {
			e->u[i] = (int32_t)(src[i] >> idbits);
			e->v[i] = (int32_t)(src[i] & mask);
		}
	}
	free(cnt);
}

static void
reserve_keys(dcbm_edges *e, size_t n)
{
	if (n <= e->cap_key && e->key != NULL)
		return;
	e->cap_key = n > 16 ? n : 16;
	e->key = xreallocarray(e->key, e->cap_key, sizeof *e->key);
}

void
dcbm_sample(const dcbm *d, gsl_rng *r, dcbm_edges *e)
{
	struct plan pl = { 0 };
	uint64_t seed;
	int bits = id_bits(d->par.n), par = 0, nthr = 1;
	size_t m, t;

	/* One seed from the graph's stream; task t draws from (seed, t). */
	seed = (uint64_t)gsl_rng_get(r) << 32;
	seed |= (uint64_t)gsl_rng_get(r) & 0xffffffffULL;
	e->m = 0;
	if (d->par.n < 2 || !(d->p_in > 0.0)) {
		reserve_edges(e, 0);
		return;
	}
	make_plan(d, &pl);
#ifdef _OPENMP
	/* Threads only with at least two tasks each, or the pieces are too
	 * uneven to balance (the edges are the same either way). */
	if (!omp_in_parallel() && omp_get_max_threads() > 1 &&
	    pl.ntask >= 2 * (size_t)omp_get_max_threads()) {
		par = 1;
		nthr = omp_get_max_threads();
	}
#endif
	if (!par) {
		struct keybuf kb = { e->key, 0, e->cap_key };
		gsl_rng *tr = rng_new(seed, 0);

		for (t = 0; t < pl.ntask; t++) {
			rng_reseed(tr, seed, t);
			run_task(d, &pl, t, tr, &kb, bits);
		}
		gsl_rng_free(tr);
		e->key = kb.k;
		e->cap_key = kb.cap;
		m = kb.n;
	} else {
		struct keybuf *kb = xcalloc((size_t)nthr, sizeof *kb);
		size_t *off = xcalloc((size_t)nthr + 1, sizeof *off);
		int th;

#ifdef _OPENMP
#pragma omp parallel num_threads(nthr)
		{
			int me = omp_get_thread_num();
			gsl_rng *tr = rng_new(seed, 0);
			long tt;

#pragma omp for schedule(dynamic, 1)
			for (tt = 0; tt < (long)pl.ntask; tt++) {
				rng_reseed(tr, seed, (uint64_t)tt);
				run_task(d, &pl, (size_t)tt, tr, &kb[me], bits);
			}
			gsl_rng_free(tr);
		}
#endif
		/* The order of the pieces does not matter: the sort fixes it. */
		for (th = 0; th < nthr; th++)
			off[th + 1] = off[th] + kb[th].n;
		m = off[nthr];
		reserve_keys(e, m);
		for (th = 0; th < nthr; th++) {
			if (kb[th].n > 0)
				memcpy(e->key + off[th], kb[th].k, kb[th].n * sizeof *e->key);
			free(kb[th].k);
		}
		free(kb);
		free(off);
	}
	free(pl.seg);
	free(pl.first);
	sort_unpack(e, m, bits);
}

void
dcbm_sample_dense(const dcbm *d, gsl_rng *r, dcbm_edges *e)
{
	int32_t n = d->par.n, u, v;
	size_t m = 0;

	reserve_edges(e, 16);
	for (u = 0; u < n; u++)
		for (v = u + 1; v < n; v++)
			if (gsl_rng_uniform(r) < dcbm_prob(d, u, v)) {
				if (m == e->cap)
					reserve_edges(e, 2 * e->cap);
				e->u[m] = u;
				e->v[m] = v;
				m++;
			}
	e->m = (int64_t)m;
}

void
dcbm_generate(const struct dcbm_ranges *R, uint64_t seed, uint64_t stream, dcbm *d, dcbm_edges *e)
{
	gsl_rng *r = rng_new(seed, stream);
	struct dcbm_params p;

	dcbm_draw_params(R, r, &p);
	dcbm_model(d, &p, r);
	dcbm_sample(d, r, e);
	gsl_rng_free(r);
}
