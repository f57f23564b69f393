/* rwse.c - random-walk return probabilities; see rwse.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <omp.h>

#include "err.h"
#include "rng.h"
#include "rwse.h"

/* Start nodes per exact block: the columns of the dense (rows, B) block.
 * A constant, not a function of the thread count (determinism). */
#ifndef B
#define B 32
#endif

/* Workspace slots (rwse_ws.buf). */
enum {
	W_ORDER,  /* int32 (n): exact components' nodes in BFS order, then
			 * the estimated components' nodes */
	W_POS,	  /* int32 (n): position of each node in W_ORDER */
	W_BOUND,  /* int32 (n + 1): starts of the exact components in W_ORDER */
	W_POFF,	  /* int64 (exact nodes + 1): CSR offsets in position space */
	W_PADJ,	  /* int32 (exact arcs): CSR neighbours as positions */
	W_XY,	  /* per thread: double (2 rows B) exact block x, y; kept zero */
	W_MARK,	  /* per thread: int32 (rows) marks of the exact block; kept zero */
	W_ACT,	  /* per thread: int32 (rows) rows reached by the exact block */
	W_WALK,	  /* per thread: int32 (3 WCHUNK) walk positions, degrees, owners */
	W_WALK64, /* per thread: int64 (WCHUNK) walk rows */
	W_WALKS,  /* int32 (estimated nodes): walks of each */
	W_GROUPS, /* int32 (estimated nodes + 1): starts of the walk groups */
	W_WMARK,  /* per thread: uint32 (n) neighbour marks; kept zero */
	W_COUNT
};
_Static_assert(W_COUNT <= RWSE_WS_NBUF, "rwse_ws has too few slots");

void
rwse_ws_init(rwse_ws *ws)
{
	memset(ws, 0, sizeof *ws);
}

void
rwse_ws_free(rwse_ws *ws)
{
	int i;

	if (ws == NULL)
		return;
	for (i = 0; i < RWSE_WS_NBUF; i++)
		free(ws->buf[i]);
	rwse_ws_init(ws);
}

void
rwse_opts_init(struct rwse_opts *o)
{
	o->steps = RWSE_STEPS;
	o->exact_max = RWSE_EXACT_MAX;
	o->error = RWSE_ERROR;
	o->delta = RWSE_DELTA;
	o->seed = 0;
	o->on_progress = NULL;
	o->progress_arg = NULL;
}

/* Progress of a call: nodes done of total, counted by every thread, told
 * to the hook by the calling thread (omp thread 0 in the regions). */
struct rprog {
	const struct rwse_opts *o;
	int64_t done, total;
};

static void
rprog_add(struct rprog *rp, int64_t nodes)
{
	int64_t d;

	if (rp->o->on_progress == NULL)
		return;
#pragma omp atomic capture
	d = rp->done += nodes;
	if (omp_get_thread_num() == 0)
		rp->o->on_progress(rp->o->progress_arg, d, rp->total);
}

/* Slot i with at least n elements of size sz; new memory is zeroed, old
 * contents are kept only if zero says so (the exact blocks keep their
 * buffers zero between calls). */
static void *
wsget(rwse_ws *ws, int i, size_t n, size_t sz)
{
	size_t bytes;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / sz)
		die("out of memory (rwse workspace)");
	bytes = n * sz;
	if (bytes > ws->cap[i]) {
		free(ws->buf[i]);
		ws->buf[i] = xcalloc(1, bytes);
		ws->cap[i] = bytes;
	}
	return ws->buf[i];
}

int64_t
rwse_walks(double error, double delta)
{
	return (int64_t)ceil(log(2.0 / delta) / (2.0 * error * error));
}

void
rwse_columns(int32_t steps, char *buf, size_t len)
{
	size_t at = 0;
	int32_t k;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (k = 1; k <= steps && at < len; k++) {
		int w = snprintf(buf + at, len - at, "%srw%d", k > 1 ? "," : "", (int)k);
		if (w < 0)
			break;
		at += (size_t)w;
	}
}

/* ---- components ---- */

/* Group the nodes by connected component (BFS from the smallest unvisited
 * node): components of 2 .. exact_max nodes first, in the order found,
 * each in BFS order, with their starts in bound[0 .. *nexact]; then the
 * nodes of larger components, in order[*first_est .. n).  Isolated nodes
 * (components of 1) are left out: order[*nexact_end .. *first_est) is
 * unused.  pos[v] = position of v in order (-1 for isolated nodes).
 * Time complexity: O(n + m). */
static void
components(const graph *g, int32_t exact_max, int32_t *order, int32_t *pos, int32_t *bound,
	   int32_t *nexact, int32_t *first_est, int32_t *ncomp_est)
{
	int32_t n = g->n, s, front = 0, back = n, nb = 0, nest = 0;

	for (s = 0; s < n; s++)
		pos[s] = -2; /* unvisited */
	for (s = 0; s < n; s++) {
		int32_t head = front, k = front, size;
		if (pos[s] != -2)
			continue;
		if (graph_degree(g, s) == 0) {
			pos[s] = -1;
			continue;
		}
		order[k] = s;
		pos[s] = k++;
		while (head < k) {
			int32_t v = order[head++];
			int64_t p;
			for (p = g->off[v]; p < g->off[v + 1]; p++) {
				int32_t u = g->adj[p];
				if (pos[u] == -2) {
					pos[u] = k;
					order[k++] = u;
				}
			}
		}
		size = k - front;
		if (size <= exact_max) {
			bound[nb++] = front;
			front = k;
		} else { /* to the back; the next BFS reuses the front */
			int32_t i;
			back -= size;
			memmove(order + back, order + front, (size_t)size * sizeof *order);
			for (i = back; i < back + size; i++)
				pos[order[i]] = i;
			nest++;
		}
	}
	bound[nb] = front;
	*nexact = nb;
	*first_est = back;
	*ncomp_est = nest;
}

/* ---- exact: blocks of B start nodes ---- */

/* The exact components' graph in position space: the neighbours of the
 * node at position q are the positions adj[off[q] .. off[q + 1]). */
struct pcsr {
	const int64_t *off;
	const int32_t *adj;
};

/* One thread's exact block.  x, y: (rows, B) doubles, zero outside the
 * rows in act; act: the rows reached; mark: 1 on those rows.  Row l is
 * position lo + l. */
struct xblk {
	double *x, *y;
	int32_t *act, *mark;
};

/* A row of the block is NV vectors of B / NV doubles (GCC vector
 * extensions: element-wise IEEE operations, so any vector width gives the
 * same bits; -std=c11 leaves floating-point contraction off, so no FMA
 * either).  The block kernel is compiled for AVX-512, AVX2 and the
 * baseline, and the CPU picks at load time (target_clones; the baseline
 * alone in the portable build, make CLONES=no: gemm.h). */
#define NV 4
typedef double vd __attribute__((vector_size(B / NV * sizeof(double)), aligned(8), may_alias));
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(GNN_NO_CLONES)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

/*
 * Return probabilities of the nb <= B start nodes at positions
 * s0 .. s0 + nb - 1, whose components cover positions lo .. lo + rows - 1:
 * the out rows of the nodes order[s0 ..].
 * Step j turns x = W_j (supported on the first na0 rows of act) into
 * y = W_j+1 = D^-1 A W_j on act grown by one hop, then takes
 *   p_2j+1 = sum d_u x y / d_v,  p_2j+2 = sum d_u y^2 / d_v.
 * Once act holds all rows it is 0 .. rows - 1 in order.  The sums run
 * over act in its order, column by column: the same for any thread.
 * Leaves x, y and mark zero again.
 */
CLONES static void
exact_block(const struct pcsr *G, const int32_t *order, int32_t lo, int32_t rows, int32_t s0,
	    int32_t nb, int32_t K, struct xblk *t, double *out)
{
	double *x = t->x, *y = t->y, *tmp;
	vd so[NV], se[NV]; /* the sums of p_2j+1 and p_2j+2 */
	int32_t *act = t->act, *mark = t->mark, na = 0, na0, i, j, c, J = (K + 1) / 2;
	int64_t p;

	for (c = 0; c < nb; c++) {
		int32_t l = s0 + c - lo;
		x[(size_t)l * B + (size_t)c] = 1.0;
		mark[l] = 1;
		act[na++] = l;
	}
	for (j = 0; j < J; j++) {
		/* act grows by the neighbours of its rows */
		na0 = na;
		for (i = 0; i < na0 && na < rows; i++) {
			int32_t q = lo + act[i];
			for (p = G->off[q]; p < G->off[q + 1]; p++) {
				int32_t l = G->adj[p] - lo;
				if (!mark[l]) {
					mark[l] = 1;
					act[na++] = l;
				}
			}
		}
		if (na == rows && na0 < rows) { /* all rows: in order from now on */
			for (i = 0; i < rows; i++)
				act[i] = i;
			na0 = rows; /* x is zero outside its old rows anyway */
		}
		/* y = D^-1 A x on the rows of act: the sum of the neighbours'
		 * rows in NV vector accumulators (kept in registers); on the
		 * way, the two sums of the diagonals, row by row in the order
		 * of act (x is zero outside its first na0 rows, so summing its
		 * products over all of act adds zeros: the same bits) */
		for (c = 0; c < NV; c++)
			so[c] = se[c] = (vd){ 0 };
		for (i = 0; i < na; i++) {
			int32_t q = lo + act[i];
			vd a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };
			vd *yr = (vd *)(y + (size_t)act[i] * B);
			const vd *xl = (const vd *)(x + (size_t)act[i] * B);
			double d = (double)(G->off[q + 1] - G->off[q]);
			for (p = G->off[q]; p < G->off[q + 1]; p++) {
				const vd *xr = (const vd *)(x + (size_t)(G->adj[p] - lo) * B);
				a0 += xr[0];
				a1 += xr[1];
				a2 += xr[2];
				a3 += xr[3];
			}
			yr[0] = a0 = a0 / d;
			yr[1] = a1 = a1 / d;
			yr[2] = a2 = a2 / d;
			yr[3] = a3 = a3 / d;
			so[0] += d * xl[0] * a0;
			so[1] += d * xl[1] * a1;
			so[2] += d * xl[2] * a2;
			so[3] += d * xl[3] * a3;
			se[0] += d * a0 * a0;
			se[1] += d * a1 * a1;
			se[2] += d * a2 * a2;
			se[3] += d * a3 * a3;
		}
		if (2 * j + 1 <= K) /* p_2j+1 */
			for (c = 0; c < nb; c++)
				out[(size_t)order[s0 + c] * (size_t)K + (size_t)(2 * j)] =
				    ((double *)so)[c] /
				    (double)(G->off[s0 + c + 1] - G->off[s0 + c]);
		if (2 * j + 2 <= K) /* p_2j+2 */
			for (c = 0; c < nb; c++)
				out[(size_t)order[s0 + c] * (size_t)K + (size_t)(2 * j + 1)] =
				    ((double *)se)[c] /
				    (double)(G->off[s0 + c + 1] - G->off[s0 + c]);
		tmp = x;
		x = y;
		y = tmp;
	}
	if (na == rows) {
		memset(x, 0, (size_t)rows * B * sizeof *x);
		memset(y, 0, (size_t)rows * B * sizeof *y);
		memset(mark, 0, (size_t)rows * sizeof *mark);
		return;
	}
	for (i = 0; i < na; i++) {
		size_t r = (size_t)act[i] * B;
		memset(x + r, 0, B * sizeof *x);
		memset(y + r, 0, B * sizeof *y);
		mark[act[i]] = 0;
	}
}

/* The component (index into bound[0 .. nc)) holding position q. */
static int32_t
comp_of(const int32_t *bound, int32_t nc, int32_t q)
{
	int32_t a = 0, b = nc; /* bound[a] <= q < bound[b] */

	while (b - a > 1) {
		int32_t mid = a + (b - a) / 2;
		if (bound[mid] <= q)
			a = mid;
		else
			b = mid;
	}
	return a;
}

/* Threads for work of this many arc visits: one below about 10^5 (thread
 * start-up would cost more), else all; one inside a parallel region.
 * Never the result's concern. */
static int
threads_for(double work)
{
	if (omp_in_parallel() || work < 1e5)
		return 1;
	return omp_get_max_threads();
}

/* Exact values of the nodes at positions 0 .. bound[nc) (components
 * bound[c] .. bound[c + 1]). */
static void
exact_part(const graph *g, const int32_t *order, const int32_t *pos, const int32_t *bound,
	   int32_t nc, int32_t K, double *out, rwse_ws *ws, struct rprog *rp)
{
	int32_t end = bound[nc], nblk = (end + B - 1) / B, rows = 0, bk, q;
	int32_t *mark, *act, *padj;
	int64_t *poff, p, k = 0;
	struct pcsr G;
	double *xy;
	int nth;

	if (nblk == 0)
		return;
	/* the graph in position space */
	poff = wsget(ws, W_POFF, (size_t)end + 1, sizeof *poff);
	for (q = 0; q < end; q++)
		k += graph_degree(g, order[q]);
	padj = wsget(ws, W_PADJ, (size_t)k, sizeof *padj);
	k = 0;
	for (q = 0; q < end; q++) {
		int32_t v = order[q];
		poff[q] = k;
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			padj[k++] = pos[g->adj[p]];
	}
	poff[end] = k;
	G.off = poff;
	G.adj = padj;
	/* rows of the largest block: from the start of its first node's
	 * component to the end of its last node's */
	for (bk = 0; bk < nblk; bk++) {
		int32_t s0 = bk * B, s1 = s0 + B < end ? s0 + B : end;
		int32_t lo = bound[comp_of(bound, nc, s0)];
		int32_t hi = bound[comp_of(bound, nc, s1 - 1) + 1];
		if (hi - lo > rows)
			rows = hi - lo;
	}
	nth = threads_for((double)k * rows / B * ((K + 1) / 2)); /* at most */
	xy = wsget(ws, W_XY, (size_t)rows * 2 * B * (size_t)nth, sizeof(double));
	mark = wsget(ws, W_MARK, (size_t)rows * (size_t)nth, sizeof(int32_t));
	act = wsget(ws, W_ACT, (size_t)rows * (size_t)nth, sizeof(int32_t));
#pragma omp parallel for num_threads(nth) schedule(dynamic, 1)
	for (bk = 0; bk < nblk; bk++) {
		size_t t = (size_t)omp_get_thread_num();
		struct xblk xb;
		int32_t s0 = bk * B, nb = s0 + B < end ? B : end - s0;
		int32_t lo = bound[comp_of(bound, nc, s0)];
		int32_t hi = bound[comp_of(bound, nc, s0 + nb - 1) + 1];
		xb.x = xy + t * 2 * B * (size_t)rows;
		xb.y = xb.x + (size_t)rows * B;
		xb.act = act + t * (size_t)rows;
		xb.mark = mark + t * (size_t)rows;
		exact_block(&G, order, lo, hi - lo, s0, nb, K, &xb, out);
		rprog_add(rp, nb);
	}
}

/* ---- estimates: walks ---- */

/* Walks run in lockstep, up to WCHUNK at a time: the walks of a group of
 * up to GMAX consecutive nodes, or a chunk of the walks of a node that
 * needs more than WCHUNK.  Many independent walks per pass let their
 * cache misses overlap (a 10^6-node graph does not fit the caches). */
#define WCHUNK 1024
#define GMAX 32

/* One thread's walks: WCHUNK each; per node of the group its random stream
 * and sums; mark: (n) bit j set on the neighbours of the group's node j,
 * kept zero between groups. */
struct wbuf {
	int32_t *cur, *deg, *own; /* where, its degree, whose walk (0 .. GMAX) */
	int64_t *at;		  /* row of cur, then the arc taken */
	uint32_t *mark;
	gsl_rng *r[GMAX];
	double s[GMAX][RWSE_STEPS_MAX]; /* sums of the samples of p_k */
};
_Static_assert(GMAX <= 32, "struct wbuf's marks hold 32 bits");

/* The range of node v's samples 1{X in N(v)} / deg X: [0, c_v] with
 * c_v = 1 / (the smallest degree among v's neighbours).  deg v >= 1. */
static double
sample_range(const graph *g, int32_t v)
{
	int32_t dmin = INT32_MAX;
	int64_t p;

	for (p = g->off[v]; p < g->off[v + 1]; p++)
		if (graph_degree(g, g->adj[p]) < dmin)
			dmin = graph_degree(g, g->adj[p]);
	return 1.0 / (double)dmin;
}

/*
 * nw walks in lockstep, walk w of the group's node own[w], starting where
 * cur says; K - 1 steps.  A step runs three passes over the walks, each
 * free of dependences between walks: where each walk is (its row and
 * degree, and the sample of p_k at X(k-1)), the draws (from the stream of
 * the walk's node, in the order of the walks), and the moves.
 */
static void
walk_lockstep(const graph *g, int32_t K, int64_t nw, struct wbuf *t)
{
	int32_t *cur = t->cur, *deg = t->deg, *own = t->own, k;
	int64_t *at = t->at, w;

	for (k = 1; k <= K; k++) {
		for (w = 0; w < nw; w++) { /* cur = X(k-1) */
			int32_t u = cur[w], o = own[w];
			at[w] = g->off[u];
			deg[w] = (int32_t)(g->off[u + 1] - at[w]);
			if (t->mark[u] >> o & 1)
				t->s[o][k - 1] += 1.0 / (double)deg[w];
		}
		if (k == K)
			break;
		for (w = 0; w < nw; w++)
			at[w] += (int64_t)gsl_rng_uniform_int(t->r[own[w]], (unsigned long)deg[w]);
		for (w = 0; w < nw; w++)
			cur[w] = g->adj[at[w]];
	}
}

/*
 * Estimates of the nodes order[i0 .. i1), R[i - i0] walks each (see
 * rwse.h): one lockstep of all their walks, or, for a single node with
 * more than WCHUNK walks, its walks WCHUNK at a time.  A node's sums run
 * over its walks in order, chunk by chunk, and its draws come from its own
 * stream in that order: the group a node is in does not change its values.
 * row[0] = p_1 = 0 exactly (no self-loops).
 */
static void
walk_group(const graph *g, const int32_t *order, int32_t i0, int32_t i1, const int32_t *R,
	   const struct rwse_opts *o, struct wbuf *t, double *out)
{
	int32_t K = o->steps, j, k;
	int64_t w, w0, nw, p;

	for (j = 0; j < i1 - i0; j++) {
		int32_t v = order[i0 + j];
		uint64_t sd = rng_mix(o->seed, (uint64_t)v);
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			t->mark[g->adj[p]] |= UINT32_C(1) << j;
		gsl_rng_set(t->r[j], (unsigned long)(sd ^ (sd >> 32)));
		memset(t->s[j], 0, (size_t)K * sizeof t->s[j][0]);
	}
	if (R[0] > WCHUNK) { /* one node, in chunks */
		for (w0 = 0; w0 < R[0]; w0 += nw) {
			nw = R[0] - w0 < WCHUNK ? R[0] - w0 : WCHUNK;
			for (w = 0; w < nw; w++) {
				t->cur[w] = order[i0];
				t->own[w] = 0;
			}
			walk_lockstep(g, K, nw, t);
		}
	} else {
		nw = 0;
		for (j = 0; j < i1 - i0; j++)
			for (w = 0; w < R[j]; w++, nw++) {
				t->cur[nw] = order[i0 + j];
				t->own[nw] = j;
			}
		walk_lockstep(g, K, nw, t);
	}
	for (j = 0; j < i1 - i0; j++) {
		double *row = out + (size_t)order[i0 + j] * (size_t)K;
		int32_t v = order[i0 + j];
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			t->mark[g->adj[p]] = 0;
		row[0] = 0.0;
		for (k = 2; k <= K; k++)
			row[k - 1] = t->s[j][k - 1] / (double)R[j];
	}
}

/* Estimates of the nodes order[first .. n) (components larger than
 * exact_max; no isolated node among them); fills info's walk fields. */
static void
estimate_part(const graph *g, const int32_t *order, int32_t first, const struct rwse_opts *o,
	      double *out, rwse_info *info, rwse_ws *ws, struct rprog *rp)
{
	int32_t n = g->n, N = n - first, K = o->steps, i, ng = 0, *R, *gs;
	int64_t Rmax = rwse_walks(o->error, o->delta), total = 0, in = 0;
	/* ln(2 / delta') / 2 of one value, and of all values at once */
	double L1 = log(2.0 / o->delta) / 2.0, err = 0.0, err_all = 0.0;
	double Lall = log(2.0 * (double)N * (double)(K - 1) / o->delta) / 2.0;
	int nth = threads_for((double)N * (double)Rmax * K);
	int32_t *i32 = wsget(ws, W_WALK, 3 * WCHUNK * (size_t)nth, sizeof(int32_t));
	int64_t *i64 = wsget(ws, W_WALK64, WCHUNK * (size_t)nth, sizeof(int64_t));
	uint32_t *mark = wsget(ws, W_WMARK, (size_t)n * (size_t)nth, sizeof(uint32_t));

	/* walks of each node: Hoeffding with its range c_v; and the bounds */
	R = wsget(ws, W_WALKS, (size_t)N, sizeof *R);
	gs = wsget(ws, W_GROUPS, (size_t)N + 1, sizeof *gs);
#pragma omp parallel for num_threads(nth) schedule(static) reduction(+ : total) \
	reduction(max : err, err_all)
	for (i = 0; i < N; i++) {
		double c = sample_range(g, order[first + i]);
		int64_t r = (int64_t)ceil(c * c * L1 / (o->error * o->error));
		R[i] = (int32_t)(r < Rmax ? r : Rmax);
		total += R[i];
		err = fmax(err, c * sqrt(L1 / (double)R[i]));
		err_all = fmax(err_all, c * sqrt(Lall / (double)R[i]));
	}
	/* groups of consecutive nodes: up to GMAX nodes and WCHUNK walks, or
	 * one node of more walks (a function of the graph, not of threads) */
	for (i = 0; i < N; i++) {
		if (i == 0 || in + R[i] > WCHUNK || i - gs[ng - 1] == GMAX) {
			gs[ng++] = i;
			in = 0;
		}
		in += R[i];
	}
	gs[ng] = N;
#pragma omp parallel num_threads(nth)
	{
		size_t th = (size_t)omp_get_thread_num();
		struct wbuf *t = xmalloc(sizeof *t);
		int32_t j;

		for (j = 0; j < GMAX; j++)
			if ((t->r[j] = gsl_rng_alloc(gsl_rng_taus2)) == NULL)
				die("out of memory (random generator)");
		t->cur = i32 + 3 * WCHUNK * th;
		t->deg = t->cur + WCHUNK;
		t->own = t->deg + WCHUNK;
		t->at = i64 + WCHUNK * th;
		t->mark = mark + (size_t)n * th;
#pragma omp for schedule(dynamic, 16)
		for (j = 0; j < ng; j++) {
			walk_group(g, order, first + gs[j], first + gs[j + 1], R + gs[j], o, t,
				   out);
			rprog_add(rp, gs[j + 1] - gs[j]);
		}
		for (j = 0; j < GMAX; j++)
			gsl_rng_free(t->r[j]);
		free(t);
	}
	info->walks = Rmax;
	info->walks_total = total;
	info->error = err;
	info->error_all = err_all;
}

int
rwse_compute(const graph *g, const struct rwse_opts *opts, double *out, rwse_info *info,
	     rwse_ws *ws)
{
	struct rwse_opts def;
	rwse_info inf;
	rwse_ws own;
	struct rprog rp;
	int32_t n = g->n, K, nexact, first, ncest, v;
	int32_t *order, *pos, *bound;

	if (opts == NULL) {
		rwse_opts_init(&def);
		opts = &def;
	}
	K = opts->steps;
	if (K < 1 || K > RWSE_STEPS_MAX || opts->exact_max < 0 ||
	    !(opts->error > 0 && opts->error < 1) || !(opts->delta > 0 && opts->delta < 1))
		return -1;
	memset(&inf, 0, sizeof inf);
	if (n > 0 && K == 1) { /* p_1 = 0 on a simple graph: nothing to do */
		memset(out, 0, (size_t)n * sizeof *out);
	} else if (n > 0) {
		if (ws == NULL) {
			rwse_ws_init(&own);
			ws = &own;
		}
		order = wsget(ws, W_ORDER, (size_t)n, sizeof(int32_t));
		pos = wsget(ws, W_POS, (size_t)n, sizeof(int32_t));
		bound = wsget(ws, W_BOUND, (size_t)n + 1, sizeof(int32_t));
		components(g, opts->exact_max, order, pos, bound, &nexact, &first, &ncest);
		for (v = 0; v < n; v++)
			if (pos[v] == -1)
				memset(out + (size_t)v * (size_t)K, 0, (size_t)K * sizeof *out);
		rp.o = opts;
		rp.done = 0;
		rp.total = bound[nexact] + (n - first);
		exact_part(g, order, pos, bound, nexact, K, out, ws, &rp);
		if (first < n) {
			inf.estimated = n - first;
			inf.components = ncest;
			estimate_part(g, order, first, opts, out, &inf, ws, &rp);
		}
		if (opts->on_progress)
			opts->on_progress(opts->progress_arg, rp.total, rp.total);
		if (ws == &own)
			rwse_ws_free(&own);
	}
	if (info)
		*info = inf;
	return 0;
}
