/* centrality.c - eigenvector, betweenness, closeness, subgraph centrality;
 * see centrality.h for the definitions, edge cases and estimators. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpack/arpack.h>
#include <lapacke.h>
#include <omp.h>

#include "centrality.h"
#include "err.h"
#include "rng.h"

/* OpenBLAS's thread control (declared in its cblas.h, which clashes with
 * GSL's CBLAS declarations). */
int openblas_get_num_threads(void);
void openblas_set_num_threads(int);

/* Workspace slots (cent_ws.buf). */
enum {
	W_NODES,	/* int32 (n): nodes grouped by component, BFS order */
	W_START,	/* int32 (n + 1): component c is nodes[start[c] .. start[c+1]) */
	W_COMPOF,	/* int32 (n): component of each node */
	W_LOCAL,	/* int32 (n): index of each node inside its component */
	W_SRC,		/* int32 (n): BFS sources of a round */
	W_REACH,	/* int32 (n): nodes reached from each */
	W_DTOT,		/* int64 (n): their distance sums */
	W_ISSRC,	/* char (n): 1 if the node is a source */
	W_CSTATE,	/* char (ncomp): C_NONE, C_EXACT, C_SAMPLED */
	W_KC,		/* int64 (ncomp): sources drawn per component */
	W_ALLOC,	/* int64 (ncomp): a fixed budget's draws per component */
	W_FRAC,		/* double (ncomp): their remainders */
	W_ECC,		/* int32 (n): eccentricity bounds */
	W_ACC,		/* double (B n): betweenness block accumulators */
	W_ACC2,		/* double (B n): the same for the squares */
	W_THR,		/* per-thread BFS state, see struct srch */
	W_DSUM,		/* int64 (threads n): distance sums to sources */
	W_DSUM2,	/* int64 (threads n): sums of squared distances */
	W_EMIN,		/* int32 (threads n): eccentricity bounds from the sources */
	W_DENSE,	/* double (nc^2): adjacency, then eigenvectors */
	W_EVAL,		/* double (nc): eigenvalues */
	W_WORK,		/* double: LAPACK work */
	W_IWORK,	/* lapack_int: LAPACK iwork */
	W_BUCKET,	/* double (K nc): subgraph sums per exponent bucket */
	W_AR_RESID,	/* ARPACK: double (nc) */
	W_AR_V,		/* ARPACK: double (nc ncv) Lanczos basis */
	W_AR_WORKD,	/* ARPACK: double (3 nc) */
	W_AR_WORKL,	/* ARPACK: double (ncv (ncv + 8)) */
	W_AR_SEL,	/* ARPACK: a_int (ncv) */
	W_AR_D,		/* ARPACK: double (nev) eigenvalues */
	W_AR_WATCH,	/* double (3 ncv): the restarts' Ritz estimates seen (lz_watch) */
	W_CLAM,		/* double (ncomp): lambda_max per component */
	W_CORD,		/* struct cbound (ncomp): visiting order */
	W_C_OFF,	/* int64 (nc + 1): component CSR offsets */
	W_C_ADJ,	/* int32 (2 m_c): component CSR neighbours */
	W_COUNT
};
_Static_assert(W_COUNT <= CENT_WS_NBUF, "cent_ws has too few slots");

/* Eigenvalues within this relative distance of lambda_max are "tied". */
#define TIE_RTOL 1e-10
/* Components up to this size get a dense solver even for eigenvector alone. */
#define DENSE_EV_MAX 64
/* Width of the exponent buckets of the subgraph sum (e^-600 > DBL_MIN). */
#define SC_BUCKET 600.0
/* exp(x) is finite for x below this (log(DBL_MAX) = 709.78...). */
#define EXP_SAFE 700.0
#define ARPACK_MAXITER 5000
/* Components this small always take every node as a source (cheap, and
 * two sampled sources say little about a path of ten nodes). */
#define SMALL_COMP 64
/* Searches of fewer node + arc visits than this run on one thread. */
#define PAR_MIN_WORK 2e6
/* Node + arc visits between two calls of the progress hook (at most 1024
 * sources): some tens of milliseconds. */
#define PROGRESS_WORK 16777216.0

void cent_ws_init(cent_ws *ws)
{
	memset(ws, 0, sizeof *ws);
}

void cent_ws_free(cent_ws *ws)
{
	int i;

	if (ws == NULL)
		return;
	for (i = 0; i < CENT_WS_NBUF; i++)
		free(ws->buf[i]);
	cent_ws_init(ws);
}

void cent_opts_init(struct cent_opts *o)
{
	o->exact_max = CENT_EXACT_MAX;
	o->samples = CENT_SAMPLES;
	o->bc_error = CENT_ERROR;
	o->cl_error = CENT_CL_ERROR;
	o->delta = CENT_DELTA;
	o->eig_pairs = CENT_EIG_PAIRS;
	o->seed = 0;
	o->on_progress = NULL;
	o->progress_arg = NULL;
}

/* Slot i with at least n elements of size sz (contents undefined). */
static void *wsget(cent_ws *ws, int i, size_t n, size_t sz)
{
	size_t bytes;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / sz)
		die("out of memory (centrality workspace)");
	bytes = n * sz;
	if (bytes > ws->cap[i]) {
		free(ws->buf[i]);
		ws->buf[i] = xmalloc(bytes);
		ws->cap[i] = bytes;
	}
	return ws->buf[i];
}

/* Free the slots from..to (enum order) that hold more than WS_KEEP bytes:
 * the buffers of a phase that is over, so that the next phase's, and the
 * caller's, do not come on top of them (the searches of a 10^6-node graph
 * hold some 200 MB that the eigensolver does not use).  Small slots stay
 * for the next call. */
#define WS_KEEP ((size_t)1 << 20)

static void ws_trim(cent_ws *ws, int from, int to)
{
	int i;

	for (i = from; i <= to; i++)
		if (ws->cap[i] > WS_KEEP) {
			free(ws->buf[i]);
			ws->buf[i] = NULL;
			ws->cap[i] = 0;
		}
}

/* ---- connected components ---- */

struct comps {
	int32_t n;		/* number of components */
	const int32_t *nodes, *start, *compof, *local;
};

/* Label components by BFS from the smallest unvisited node.
 * Time complexity: O(n + m). */
static void find_components(const graph *g, struct comps *cp, cent_ws *ws)
{
	int32_t n = g->n, s, k = 0, nc = 0;
	int32_t *nodes = wsget(ws, W_NODES, (size_t)n, sizeof(int32_t));
	int32_t *start = wsget(ws, W_START, (size_t)n + 1, sizeof(int32_t));
	int32_t *compof = wsget(ws, W_COMPOF, (size_t)n, sizeof(int32_t));
	int32_t *local = wsget(ws, W_LOCAL, (size_t)n, sizeof(int32_t));

	for (s = 0; s < n; s++)
		compof[s] = -1;
	for (s = 0; s < n; s++) {
		int32_t head;
		if (compof[s] >= 0)
			continue;
		start[nc] = k;
		head = k;
		nodes[k++] = s;
		compof[s] = nc;
		while (head < k) {
			int32_t v = nodes[head++];
			int64_t p;
			for (p = g->off[v]; p < g->off[v + 1]; p++) {
				int32_t u = g->adj[p];
				if (compof[u] < 0) {
					compof[u] = nc;
					nodes[k++] = u;
				}
			}
		}
		nc++;
	}
	start[nc] = k;
	for (s = 0; s < nc; s++) {
		int32_t i;
		for (i = start[s]; i < start[s + 1]; i++)
			local[nodes[i]] = i - start[s];
	}
	cp->n = nc;
	cp->nodes = nodes;
	cp->start = start;
	cp->compof = compof;
	cp->local = local;
}

/* ---- betweenness and closeness: Brandes, one BFS per source ---- */

/* Number of accumulator blocks: a function of n only (determinism),
 * at most 64, and B n <= 2^23 doubles unless that leaves fewer than 4. */
static int32_t nblocks(int32_t n, int32_t nsrc)
{
	int64_t b = n > 0 ? (INT64_C(1) << 23) / n : 64;

	if (b > 64)
		b = 64;
	if (b < 4)
		b = 4;
	if (b > nsrc)
		b = nsrc;
	return b < 1 ? 1 : (int32_t)b;
}

/* Per-thread BFS state.  One 16-byte record per node keeps the distance
 * and the path count of a neighbour in one cache line.  The backward pass
 * overwrites sigma(w) with (1 + delta(w)) / sigma(w) once w is done: only
 * that ratio is read later (by w's predecessors). */
struct nst {
	double s;		/* sigma, then (1 + delta) / sigma */
	int32_t d;		/* distance from the source; -1 = not reached */
	int32_t pad;
};

struct bfs {
	struct nst *st;		/* (n) */
	int32_t *order;		/* (n) nodes in BFS order */
	int64_t *dstart;	/* (n + 1) successors of order[i]: dag[dstart[i] ..
				 * dstart[i+1]) */
	int32_t *dag;		/* (m) successors (next-level neighbours) */
};

/* BFS from s.  Returns the number of nodes reached; *sumd = sum of their
 * distances.  With count_paths, also the path counts sigma and the
 * shortest-path DAG (the successors of each node, grouped by BFS position),
 * so that the backward pass reads only DAG arcs.  st[].d must be -1 on
 * every node on entry. */
static int32_t bfs_forward(const graph *g, int32_t s, struct bfs *b, int64_t *sumd,
			   int count_paths)
{
	const int64_t *off = g->off;
	const int32_t *adj = g->adj;
	struct nst *st = b->st;
	int32_t *order = b->order, *dag = b->dag, head = 0, tail = 1;
	int64_t *dstart = b->dstart, sd = 0, nd = 0;

	st[s].d = 0;
	st[s].s = 1.0;
	order[0] = s;
	while (head < tail) {
		int32_t v = order[head], dn = st[v].d + 1;
		double sv = st[v].s;
		int64_t p;
		if (count_paths) {
			dstart[head] = nd;
			for (p = off[v]; p < off[v + 1]; p++) {
				int32_t u = adj[p];
				struct nst *x = st + u;
				if (x->d < 0) {
					x->d = dn;
					x->s = sv;
					order[tail++] = u;
					sd += dn;
					dag[nd++] = u;
				} else if (x->d == dn) {
					x->s += sv;
					dag[nd++] = u;
				}
			}
		} else {
			for (p = off[v]; p < off[v + 1]; p++) {
				struct nst *x = st + adj[p];
				if (x->d < 0) {
					x->d = dn;
					order[tail++] = adj[p];
					sd += dn;
				}
			}
		}
		head++;
	}
	if (count_paths)
		dstart[tail] = nd;
	*sumd = sd;
	return tail;
}

/* The sum of st[].s over the DAG successors of the node at BFS position i. */
static inline double succ_sum(const struct bfs *b, int32_t i)
{
	const int32_t *dag = b->dag;
	const struct nst *st = b->st;
	int64_t p = b->dstart[i], e = b->dstart[i + 1];
	double s0 = 0.0, s1 = 0.0;

	/* two partial sums, so that the adds do not wait on each other */
	for (; p + 2 <= e; p += 2) {
		s0 += st[dag[p]].s;
		s1 += st[dag[p + 1]].s;
	}
	if (p < e)
		s0 += st[dag[p]].s;
	return s0 + s1;
}

/* Dependencies in reverse BFS order, "pull" form over the DAG:
 * delta(w) = sigma(w) * sum over successors u of (1 + delta(u)) / sigma(u).
 * Adds delta(w) to acc[w], and delta(w)^2 to acc2[w] unless acc2 is NULL,
 * for every reached w but the source. */
static void bfs_backward(struct bfs *b, int32_t reached, double *acc, double *acc2)
{
	const int32_t *order = b->order;
	struct nst *st = b->st;
	int32_t i;

	for (i = reached - 1; i > 0; i--) {
		int32_t w = order[i];
		double delta = st[w].s * succ_sum(b, i);
		st[w].s = (1.0 + delta) / st[w].s;
		acc[w] += delta;
		if (acc2)
			acc2[w] += delta * delta;
	}
}

/* The same with Geisberger, Sanders and Schultes' (2008) linear scaling:
 * adds 2 dt(w) with dt(w) = sum over targets t of the share of the s-t
 * shortest paths through w times d(s, w) / d(s, t), and its square. */
static void bfs_backward_scaled(struct bfs *b, int32_t reached, double *acc, double *acc2)
{
	const int32_t *order = b->order;
	struct nst *st = b->st;
	int32_t i;

	for (i = reached - 1; i > 0; i--) {
		int32_t w = order[i];
		double g = st[w].s * succ_sum(b, i), dw = st[w].d, x;
		st[w].s = (1.0 / dw + g) / st[w].s;
		x = 2 * dw * g;
		acc[w] += x;
		acc2[w] += x * x;
	}
}

/* networkx closeness from r reached nodes and distance sum S. */
static double closeness_value(int64_t r, double S, int32_t n)
{
	double c;

	if (S <= 0.0 || n <= 1)
		return 0.0;
	c = (double)(r - 1) / S;
	c *= (double)(r - 1) / (double)(n - 1);
	return c;
}

/* ---- the searches of one call: thread states, accumulators, rounds ---- */

/* What the searches do in a component. */
enum { C_NONE, C_EXACT, C_SAMPLED };

struct srch {
	const graph *g;
	const struct comps *cp;
	int32_t n, nb;		/* nodes; accumulator blocks */
	int32_t cmax;		/* nodes of the largest component */
	int64_t amax;		/* edges of the component with the most */
	int nth;		/* threads (at most) */
	size_t per;		/* bytes of one thread's BFS state */
	char *thr;		/* (nth, per) BFS states */
	double *acc, *acc2;	/* (nb, n) sums of delta_s(v) and of delta_s(v)^2 over
				 * the sources of each block; acc NULL: no betweenness,
				 * acc2 NULL: not sampling */
	int64_t *dsum, *dsum2;	/* (nth, n) sums of d(s, v) and d(s, v)^2 over the
				 * sources each thread ran; NULL: not sampling closeness */
	int32_t *emin;		/* (nth, n) min over those sources of ecc(s) + d(s, v),
				 * a bound on ecc(v); with dsum */
	int32_t *src;		/* (cnt) sources of the current round */
	int32_t *reach;		/* (cnt) nodes reached from each */
	int64_t *dtot;		/* (cnt) and the sum of their distances */
	int32_t cnt;		/* sources in the current round */
	int64_t draws;		/* sources run before this round: source i of the
				 * round goes to block (draws + i) mod nb */
	char *issrc;		/* (n) 1 once a node has been a source */
	const char *cstate;	/* (ncomp) C_* of each component; NULL: all exact */
	void (*on_progress)(void *, int, int64_t, int64_t);
	void *parg;
	int64_t done, total, next, step;
};

/* Thread t's BFS state inside S->thr: st (n), dstart (cmax + 1), order
 * (cmax), dag (amax): a search stays in its component, whose DAG has at
 * most one arc an edge.  16-byte aligned. */
static size_t bfs_bytes(int32_t n, int32_t cmax, int64_t amax)
{
	return ((size_t)n * sizeof(struct nst) + ((size_t)cmax + 1) * sizeof(int64_t) +
		(size_t)cmax * sizeof(int32_t) + ((size_t)amax + 1) * sizeof(int32_t) + 15) &
		~(size_t)15;
}

static void bfs_bind(const struct srch *S, int t, struct bfs *b)
{
	char *base = S->thr + (size_t)t * S->per;

	b->st = (struct nst *)base;
	b->dstart = (int64_t *)(b->st + S->n);
	b->order = (int32_t *)(b->dstart + S->cmax + 1);
	b->dag = b->order + S->cmax;
}

/* The nodes of the largest component and the edges of the one with the
 * most, for the BFS states. */
static void comp_max(const graph *g, const struct comps *cp, int32_t *cmax, int64_t *amax)
{
	int32_t c, i;

	*cmax = 0;
	*amax = 0;
	for (c = 0; c < cp->n; c++) {
		int64_t arcs = 0;
		if (cp->start[c + 1] - cp->start[c] > *cmax)
			*cmax = cp->start[c + 1] - cp->start[c];
		for (i = cp->start[c]; i < cp->start[c + 1]; i++)
			arcs += graph_degree(g, cp->nodes[i]);
		if (arcs / 2 > *amax)
			*amax = arcs / 2;
	}
}

/* Searches from the round's sources S->src[0 .. S->cnt): distances and
 * closeness sums, and with betweenness the dependencies.  Each block sums
 * its sources in order, so the sums do not depend on the threads. */
static void search_round(struct srch *S)
{
	const graph *g = S->g;
	int32_t n = S->n, nb = S->nb, cnt = S->cnt;
	int32_t off = (int32_t)(S->draws % nb);
	int nth = S->nth;

	/* Small jobs run on the calling thread: waking a team costs more than
	 * the searches.  The answer is the same (blocks fix the order). */
	if ((double)cnt * (double)(n + 2 * g->m) < PAR_MIN_WORK)
		nth = 1;
#pragma omp parallel num_threads(nth)
	{
		int t = omp_get_thread_num();
		struct bfs b;
		int64_t *my1 = S->dsum ? S->dsum + (size_t)t * (size_t)n : NULL;
		int64_t *my2 = S->dsum2 ? S->dsum2 + (size_t)t * (size_t)n : NULL;
		int32_t *mye = S->emin ? S->emin + (size_t)t * (size_t)n : NULL;
		int32_t blk, x;

		bfs_bind(S, t, &b);
		for (x = 0; x < n; x++) {
			b.st[x].d = -1;
			b.st[x].s = 0.0;
		}
#pragma omp for schedule(dynamic, 1)
		for (blk = 0; blk < nb; blk++) {
			double *a = S->acc ? S->acc + (size_t)blk * (size_t)n : NULL;
			double *a2 = S->acc2 ? S->acc2 + (size_t)blk * (size_t)n : NULL;
			int32_t i;
			for (i = (blk - off + nb) % nb; i < cnt; i += nb) {
				int32_t s = S->src[i], r, j;
				int64_t sd;
				r = bfs_forward(g, s, &b, &sd, a != NULL);
				S->reach[i] = r;
				S->dtot[i] = sd;
				if (my1) {
					int32_t ecc = b.st[b.order[r - 1]].d;
					for (j = 1; j < r; j++) {
						int32_t u = b.order[j], d = b.st[u].d;
						my1[u] += d;
						my2[u] += (int64_t)d * d;
						if (ecc + d < mye[u])
							mye[u] = ecc + d;
					}
				}
				if (a && S->cstate &&
				    S->cstate[S->cp->compof[s]] == C_SAMPLED)
					bfs_backward_scaled(&b, r, a, a2);
				else if (a)
					bfs_backward(&b, r, a, a2);
				for (j = 0; j < r; j++)
					b.st[b.order[j]].d = -1;
				if (S->on_progress) {
					int64_t done;
#pragma omp atomic capture
					done = ++S->done;
					/* thread 0 is the caller's thread */
					if (t == 0 && done >= S->next) {
						S->next = done + S->step;
						S->on_progress(S->parg, CENT_P_SOURCES, done,
								S->total);
					}
				}
			}
		}
	}
	S->draws += cnt;
}

/* After a round: the sources' own closeness, from their searches. */
static void source_closeness(struct srch *S, double *cl)
{
	int32_t i;

	for (i = 0; i < S->cnt; i++) {
		S->issrc[S->src[i]] = 1;
		if (cl)
			cl[S->src[i]] = closeness_value(S->reach[i], (double)S->dtot[i], S->n);
	}
}

/* Append every node of component c to the round's sources. */
static void add_component(struct srch *S, int32_t c)
{
	int32_t i;

	for (i = S->cp->start[c]; i < S->cp->start[c + 1]; i++)
		S->src[S->cnt++] = S->cp->nodes[i];
}

/* ---- estimators past exact_max: the plan and the error bounds ---- */

/* The plan of the sampled searches. */
struct plan {
	char *state;		/* (ncomp) C_NONE, C_EXACT or C_SAMPLED */
	int64_t *k;		/* (ncomp) sources drawn so far in a C_SAMPLED one */
	int32_t *ecc;		/* (n) upper bound on each node's eccentricity */
	int64_t nsamp;		/* nodes in components sampled at the start */
	int64_t kmin;		/* fewest draws that can meet the requests */
	double bc_eps, cl_eps;	/* targets (0: not a target) */
};

/* Two-sided empirical Bernstein bound (Maurer and Pontil 2009, Theorem 4,
 * applied to X and to 1 - X): for k >= 2 i.i.d. draws in [0, 1] with sum
 * s1 and sum of squares s2, |mean - E X| <= sqrt(2 V L / k) + 7 L /
 * (3 (k - 1)), V the unbiased sample variance, with probability at least
 * 1 - 4 e^-L (each side fails with probability 2 e^-L). */
double cent_eb_width(double s1, double s2, double k, double L)
{
	double v = (s2 - s1 * s1 / k) / (k - 1);

	if (v < 0)
		v = 0;
	return sqrt(2 * v * L / k) + 7 * L / (3 * (k - 1));
}

/* The k (about) at which eb_width of a variable of variance v reaches eps:
 * solves 7 L / 3 x^2 + sqrt(2 v L) x = eps for x = 1 / sqrt(k). */
static double eb_need(double v, double L, double eps)
{
	double A = 7 * L / 3, B = sqrt(2 * (v > 0 ? v : 0) * L);
	double x = 2 * eps / (B + sqrt(B * B + 4 * A * eps));

	return 1 / (x * x) + 1;
}

/* Betweenness of component c: b(v) = alpha_c E [delta_s(v) / (n_c - 2)]
 * over sources s uniform in c, alpha_c = n_c (n_c - 2) / ((n - 1)(n - 2)). */
static double comp_alpha(int32_t nc, int32_t n)
{
	return (double)nc * (nc - 2) / ((double)(n - 1) * (n - 2));
}

/* Deterministic (graph-only) upper bound on the eccentricity of every
 * node of component c: ecc(v) <= ecc(r) + d(r, v) for any r; two roots,
 * the component's first node and the last node its search reaches. */
static void ecc_bounds(struct srch *S, int32_t c, int32_t *ecc)
{
	const struct comps *cp = S->cp;
	struct bfs b;
	int32_t root = cp->nodes[cp->start[c]], pass, r, j;
	int64_t sd;

	bfs_bind(S, 0, &b);
	for (j = cp->start[c]; j < cp->start[c + 1]; j++)
		b.st[cp->nodes[j]].d = -1;
	for (pass = 0; pass < 2; pass++) {
		int32_t e;
		r = bfs_forward(S->g, root, &b, &sd, 0);
		e = b.st[b.order[r - 1]].d;
		for (j = 0; j < r; j++) {
			int32_t v = b.order[j], x = e + b.st[v].d;
			if (pass == 0 || x < ecc[v])
				ecc[v] = x;
		}
		root = b.order[r - 1];
		for (j = 0; j < r; j++)
			b.st[b.order[j]].d = -1;
	}
}

/* Forget what component c's sources added (before it is searched exactly). */
static void reset_component(struct srch *S, int32_t c)
{
	const struct comps *cp = S->cp;
	int32_t i, t;

	for (i = cp->start[c]; i < cp->start[c + 1]; i++) {
		int32_t v = cp->nodes[i];
		if (S->acc)
			for (t = 0; t < S->nb; t++) {
				S->acc[(size_t)t * S->n + v] = 0.0;
				S->acc2[(size_t)t * S->n + v] = 0.0;
			}
		if (S->dsum)
			for (t = 0; t < S->nth; t++) {
				S->dsum[(size_t)t * S->n + v] = 0;
				S->dsum2[(size_t)t * S->n + v] = 0;
			}
		/* (emin stays: a bound on ecc(v) whatever the sources) */
	}
}

struct bounds {
	double bc, cl;		/* achieved bounds (betweenness additive, closeness
				 * relative) */
	double need;		/* draws (on the scale of the whole graph) that the
				 * sample variances predict for the targets at Lneed */
};

/* The achieved bounds of the sampled components at log term L: each of
 * the two holds on every node at once with probability at least
 * 1 - 4 nsamp e^-L (a union bound over the nodes), so L = ln(4 nsamp /
 * delta) gives 1 - delta.  The prediction of the draws needed uses Lneed. */
static void sample_bounds(const struct srch *S, const struct plan *P, double L,
			  double Lneed, int want_bc, int want_cl, struct bounds *B)
{
	const struct comps *cp = S->cp;
	int32_t n = S->n, v;
	double bc = 0, cl = 0, need = 0;

#pragma omp parallel for schedule(static) reduction(max:bc, cl, need) if (S->nth > 1)
	for (v = 0; v < n; v++) {
		int32_t c = cp->compof[v], nc = cp->start[c + 1] - cp->start[c], t;
		double k, scale;
		if (P->state[c] != C_SAMPLED)
			continue;
		k = (double)P->k[c];
		scale = (double)P->nsamp / nc;	/* component draws -> graph draws */
		if (want_bc) {
			/* Y = 2 dt_s(v) / (2 (n_c - 2)) in [0, 1), b(v) = 2 alpha_c E Y */
			double s1 = 0, s2 = 0, m = 2.0 * (nc - 2), a = 2 * comp_alpha(nc, n), w;
			for (t = 0; t < S->nb; t++) {
				s1 += S->acc[(size_t)t * n + v];
				s2 += S->acc2[(size_t)t * n + v];
			}
			s1 /= m;
			s2 /= m * m;
			w = a * cent_eb_width(s1, s2, k, L);
			if (w > bc)
				bc = w;
			if (P->bc_eps > 0) {
				double var = (s2 - s1 * s1 / k) / (k - 1);
				double x = scale * eb_need(var, Lneed, P->bc_eps / a);
				if (x > need)
					need = x;
			}
		}
		if (want_cl && !S->issrc[v]) {
			/* Y = (d - 1) / (R - 1) in [0, 1], for any R >= ecc(v): the
			 * bound grows with R, so a bound on ecc(v) found from the
			 * sample may stand in for the true value */
			int32_t R = P->ecc[v];
			double d1 = 0, d2 = 0, R1, y1, y2, mean, w;
			for (t = 0; t < S->nth; t++) {
				d1 += (double)S->dsum[(size_t)t * n + v];
				d2 += (double)S->dsum2[(size_t)t * n + v];
				if (S->emin[(size_t)t * n + v] < R)
					R = S->emin[(size_t)t * n + v];
			}
			if (R <= 1)
				continue;	/* every distance is 1: exact */
			R1 = R - 1;
			mean = d1 / k;
			y1 = (d1 - k) / R1;
			y2 = (d2 - 2 * d1 + k) / (R1 * R1);
			w = R1 * cent_eb_width(y1, y2, k, L) / mean;
			if (w > cl)
				cl = w;
			if (P->cl_eps > 0) {
				double var = (y2 - y1 * y1 / k) / (k - 1);
				double x = scale * eb_need(var, Lneed, P->cl_eps * mean / R1);
				if (x > need)
					need = x;
			}
		}
	}
	B->bc = bc;
	B->cl = cl;
	B->need = need;
}

/* The schedule of the checks.  Check j (1, 2, ...) looks at K_j =
 * ceil(K_1 SCHED_GROW^(j - 1)) draws (over the whole graph) and spends
 * delta_j = delta / (j (j + 1)) of the failure probability, so that all
 * checks together spend at most delta whichever one the sampling stops at
 * and whichever it skips. */
#define SCHED_GROW 1.25

double cent_check_log(int64_t nodes, double delta, int j)
{
	return log(4.0 * (double)nodes * j * (j + 1.0) / delta);
}

int64_t cent_check_draws(int64_t K1, int j)
{
	return (int64_t)ceil((double)K1 * pow(SCHED_GROW, j - 1));
}

static double sched_L(const struct plan *P, double delta, int j)
{
	return cent_check_log(P->nsamp, delta, j);
}


/* Draws of component c at K draws over the graph (proportional, at least
 * 2, non-decreasing in K). */
static int64_t comp_draws(const struct plan *P, int32_t nc, int64_t K)
{
	int64_t k = (int64_t)ceil((double)K * nc / (double)P->nsamp);

	return k < 2 ? 2 : k;
}

/* A fixed budget (cent_opts.samples): its draws spread over the sampled
 * components in proportion to their sizes by largest remainders, so that
 * they add up to the budget (unless a component would get fewer than 2). */
static void budget_draws(const struct comps *cp, const struct plan *P, int64_t samples,
			 int64_t *alloc, double *frac)
{
	int64_t given = 0;
	int32_t c;

	for (c = 0; c < cp->n; c++) {
		double share;
		alloc[c] = 0;
		frac[c] = -1;
		if (P->state[c] != C_SAMPLED)
			continue;
		share = (double)samples * (cp->start[c + 1] - cp->start[c]) / (double)P->nsamp;
		alloc[c] = (int64_t)floor(share);
		frac[c] = share - (double)alloc[c];
		given += alloc[c];
	}
	while (given < samples) {
		int32_t best = -1;
		for (c = 0; c < cp->n; c++)
			if (frac[c] >= 0 && (best < 0 || frac[c] > frac[best]))
				best = c;
		if (best < 0)
			break;
		alloc[best]++;
		frac[best] = -1;
		given++;
	}
	for (c = 0; c < cp->n; c++)
		if (P->state[c] == C_SAMPLED && alloc[c] < 2)
			alloc[c] = 2;
}

/* The first check: the fewest draws at which the range terms of the
 * bounds (7 L / (3 (k - 1)) times the range, whatever the variances) are
 * two thirds of the requested errors, in the component that needs most
 * (the variance terms have the last third).
 * Betweenness has the range 2 alpha_c (linear scaling doubles the
 * largest dependency); closeness counts its range (R - 1) / mean distance
 * as 1, its least. */
static int64_t first_check(const struct comps *cp, const struct plan *P, int32_t n,
			   double L)
{
	double K = 2;
	int32_t c;

	for (c = 0; c < cp->n; c++) {
		int32_t nc = cp->start[c + 1] - cp->start[c];
		double k = 2;
		if (P->state[c] != C_SAMPLED)
			continue;
		if (P->bc_eps > 0)
			k = fmax(k, 7 * L * comp_alpha(nc, n) / P->bc_eps + 1);
		if (P->cl_eps > 0)
			k = fmax(k, 7 * L / (2 * P->cl_eps) + 1);
		K = fmax(K, k * (double)P->nsamp / nc);
	}
	return (int64_t)ceil(fmin(K, 2.0 * (double)P->nsamp));
}

/* Searches past exact_max (see centrality.h, "Estimators"): components of
 * at most max(exact_max, SMALL_COMP) nodes searched from every node, the
 * larger ones from sources drawn with replacement, checked against the
 * requested errors and drawn again until they are met (or, with a fixed
 * budget, drawn once); a component that would need more than a third of
 * its nodes is searched from every node instead. */
static void sampled_paths(struct srch *S, const struct cent_opts *o, struct plan *P,
			  int want_bc, int want_cl, double *cl, cent_out *out, cent_ws *ws)
{
	const struct comps *cp = S->cp;
	int32_t n = S->n, c, small = o->exact_max > SMALL_COMP ? o->exact_max : SMALL_COMP;
	int64_t K, K1 = 0, *alloc = NULL;
	int j = 1, first = 1, fixed = o->samples > 0;
	struct bounds B = { 0, 0, 0 };
	gsl_rng *r;

	P->nsamp = 0;
	for (c = 0; c < cp->n; c++) {
		int32_t nc = cp->start[c + 1] - cp->start[c];
		P->k[c] = 0;
		P->state[c] = nc < 2 ? C_NONE : nc <= small ? C_EXACT : C_SAMPLED;
		if (P->state[c] == C_SAMPLED) {
			P->nsamp += nc;
			if (want_cl)
				ecc_bounds(S, c, P->ecc);
		}
	}
	P->bc_eps = want_bc ? o->bc_error : 0;
	P->cl_eps = want_cl ? o->cl_error : 0;
	if (fixed) {
		alloc = wsget(ws, W_ALLOC, (size_t)cp->n, sizeof *alloc);
		budget_draws(cp, P, o->samples, alloc,
			     wsget(ws, W_FRAC, (size_t)cp->n, sizeof(double)));
		K = o->samples;
	} else {
		K = K1 = P->nsamp ? first_check(cp, P, n, sched_L(P, o->delta, 1)) : 0;
	}
	r = rng_new(o->seed, 0x63656e74ULL);	/* "cent" */
	for (;;) {
		int left = 0;
		S->cnt = 0;
		for (c = 0; c < cp->n; c++) {
			int32_t nc = cp->start[c + 1] - cp->start[c], a = cp->start[c];
			int64_t want;
			if (P->state[c] == C_EXACT && first)
				add_component(S, c);
			if (P->state[c] != C_SAMPLED)
				continue;
			want = fixed ? alloc[c] : comp_draws(P, nc, K);
			if (3 * want > nc) {
				/* cheaper and better searched from every node */
				P->state[c] = C_EXACT;
				out->switched_comps++;
				reset_component(S, c);
				add_component(S, c);
				continue;
			}
			for (; P->k[c] < want; P->k[c]++)
				S->src[S->cnt++] = cp->nodes[a + (int32_t)gsl_rng_uniform_int(r,
							(unsigned long)nc)];
			left = 1;
		}
		S->total = S->done + S->cnt;
		search_round(S);
		source_closeness(S, cl);
		first = 0;
		if (!left) {
			B.bc = B.cl = 0;
			break;
		}
		sample_bounds(S, P, fixed ? log(4.0 * (double)P->nsamp / o->delta) :
			      sched_L(P, o->delta, j), sched_L(P, o->delta, j + 1), want_bc,
			      want_cl, &B);
		if (fixed || ((P->bc_eps <= 0 || B.bc <= P->bc_eps) &&
			      (P->cl_eps <= 0 || B.cl <= P->cl_eps)))
			break;
		/* The next check: the first one of the schedule at or past the
		 * draws the sample variances predict (they grow with L). */
		{
			double L1 = sched_L(P, o->delta, j + 1);
			int j1 = j + 1;
			while ((double)cent_check_draws(K1, j1) <
			       fmin(B.need * sched_L(P, o->delta, j1) / L1, 2.0 * (double)P->nsamp))
				j1++;
			K = cent_check_draws(K1, j1);
			j = j1;
		}
	}
	gsl_rng_free(r);
	out->sources = S->draws;
	for (c = 0; c < cp->n; c++) {
		if (P->state[c] == C_SAMPLED) {
			out->sampled += P->k[c];
			out->sampled_comps++;
		} else if (P->state[c] == C_EXACT) {
			out->exact_comps++;
		}
	}
	if (out->sampled_comps) {
		out->approx |= (want_bc ? CENT_BETWEENNESS : 0) | (want_cl ? CENT_CLOSENESS : 0);
		out->bc_bound = want_bc ? B.bc : 0;
		out->cl_bound = want_cl ? B.cl : 0;
	}
}

/* Whether a component is large enough to be sampled (it may still be
 * searched from every node): the sampling's sums are needed only then. */
static int sampled_comps(const struct comps *cp, const struct cent_opts *o)
{
	int32_t c, small = o->exact_max > SMALL_COMP ? o->exact_max : SMALL_COMP;

	for (c = 0; c < cp->n; c++)
		if (cp->start[c + 1] - cp->start[c] > small)
			return 1;
	return 0;
}

static int paths(const graph *g, const struct cent_opts *o, const struct comps *cp,
		 double *bc, double *cl, cent_out *out, cent_ws *ws, char *msg, size_t msglen)
{
	struct srch S;
	struct plan P;
	int32_t n = g->n, c, v;
	size_t nbn;

	memset(&S, 0, sizeof S);
	S.g = g;
	S.cp = cp;
	S.n = n;
	S.nth = omp_get_max_threads();
	comp_max(g, cp, &S.cmax, &S.amax);
	S.per = bfs_bytes(n, S.cmax, S.amax);
	S.thr = wsget(ws, W_THR, (size_t)S.nth, S.per);
	S.src = wsget(ws, W_SRC, (size_t)n, sizeof(int32_t));
	S.reach = wsget(ws, W_REACH, (size_t)n, sizeof(int32_t));
	S.dtot = wsget(ws, W_DTOT, (size_t)n, sizeof(int64_t));
	S.issrc = wsget(ws, W_ISSRC, (size_t)n, 1);
	memset(S.issrc, 0, (size_t)n);
	S.on_progress = o->on_progress;
	S.parg = o->progress_arg;
	S.step = (int64_t)fmax(1, fmin(1024, PROGRESS_WORK / ((double)n + 2.0 * g->m)));
	S.next = S.step;
	P.state = wsget(ws, W_CSTATE, (size_t)cp->n, 1);
	P.k = wsget(ws, W_KC, (size_t)cp->n, sizeof(int64_t));
	P.ecc = NULL;		/* sampled closeness only, below */
	if (cl)
		for (v = 0; v < n; v++)
			cl[v] = 0.0;	/* isolated nodes stay 0 */

	if (n <= o->exact_max) {
		/* exact: every node of every component of 2 or more */
		for (c = 0; c < cp->n; c++) {
			P.k[c] = 0;
			P.state[c] = cp->start[c + 1] - cp->start[c] < 2 ? C_NONE : C_EXACT;
			if (P.state[c] == C_EXACT) {
				add_component(&S, c);
				out->exact_comps++;
			}
		}
		S.nb = nblocks(n, S.cnt);
		if (bc) {
			nbn = (size_t)S.nb * (size_t)n;
			S.acc = wsget(ws, W_ACC, nbn, sizeof(double));
			memset(S.acc, 0, nbn * sizeof(double));
		}
		S.total = S.cnt;
		search_round(&S);
		source_closeness(&S, cl);
		out->sources = S.cnt;
	} else {
		S.nb = nblocks(n, INT32_MAX);
		nbn = (size_t)S.nb * (size_t)n;
		if (bc) {
			S.acc = wsget(ws, W_ACC, nbn, sizeof(double));
			memset(S.acc, 0, nbn * sizeof(double));
		}
		if (bc && sampled_comps(cp, o)) {
			S.acc2 = wsget(ws, W_ACC2, nbn, sizeof(double));
			memset(S.acc2, 0, nbn * sizeof(double));
		}
		if (cl && sampled_comps(cp, o)) {
			P.ecc = wsget(ws, W_ECC, (size_t)n, sizeof(int32_t));
			size_t tn = (size_t)S.nth * (size_t)n, i;
			S.dsum = wsget(ws, W_DSUM, tn, sizeof(int64_t));
			S.dsum2 = wsget(ws, W_DSUM2, tn, sizeof(int64_t));
			S.emin = wsget(ws, W_EMIN, tn, sizeof(int32_t));
			memset(S.dsum, 0, tn * sizeof(int64_t));
			memset(S.dsum2, 0, tn * sizeof(int64_t));
			for (i = 0; i < tn; i++)
				S.emin[i] = INT32_MAX;
		}
		S.cstate = P.state;
		sampled_paths(&S, o, &P, bc != NULL, cl != NULL, cl, out, ws);
	}
	if (S.on_progress)
		S.on_progress(S.parg, CENT_P_SOURCES, S.done, S.done);

	if (bc) {
		double scale = n > 2 ? 1.0 / ((double)(n - 1) * (double)(n - 2)) : 1.0;
		int bad = 0;
#pragma omp parallel for schedule(static) reduction(|:bad) if (S.nth > 1)
		for (v = 0; v < n; v++) {
			int32_t blk, c = cp->compof[v];
			int32_t nc = cp->start[c + 1] - cp->start[c];
			double s = 0.0;
			for (blk = 0; blk < S.nb; blk++)
				s += S.acc[(size_t)blk * (size_t)n + v];
			if (P.state[c] == C_SAMPLED)
				s *= (double)nc / (double)P.k[c];
			if (n > 2)
				s *= scale;
			else
				s = 0.0;	/* networkx: nothing to normalise, all 0 */
			/* An estimate may pass the most a node of its component can
			 * have, (n_c - 1)(n_c - 2) / ((n - 1)(n - 2)): a star's centre,
			 * which every sampled leaf credits with n - 2, gets n_c / (n_c -
			 * 1) when no draw is the centre.  The true value is in range,
			 * so the clamp only brings an estimate closer to it. */
			if (P.state[c] == C_SAMPLED && n > 2)
				s = fmin(s, (double)(nc - 1) * (double)(nc - 2) * scale);
			bc[v] = s;
			if (!isfinite(s))
				bad = 1;
		}
		if (bad) {
			snprintf(msg, msglen, "betweenness: number of shortest paths "
				 "exceeds the range of double");
			return -1;
		}
	}
	if (cl && S.dsum) {
		/* closeness of the nodes that were not sources, from their
		 * distances to the sources (Eppstein and Wang) */
#pragma omp parallel for schedule(static) if (S.nth > 1)
		for (v = 0; v < n; v++) {
			int32_t c = cp->compof[v], t;
			int32_t nc = cp->start[c + 1] - cp->start[c];
			int64_t s = 0;
			if (S.issrc[v] || P.state[c] != C_SAMPLED)
				continue;
			for (t = 0; t < S.nth; t++)
				s += S.dsum[(size_t)t * (size_t)n + v];
			cl[v] = closeness_value(nc, (double)(nc - 1) / (double)P.k[c] * (double)s, n);
		}
	}
	return 0;
}

/* ---- spectral: eigenvector and subgraph centrality ---- */

/* Dense symmetric eigendecomposition of component c's adjacency matrix
 * with LAPACK dsyevd.  On return *Z holds the eigenvectors (column j of the
 * nc x nc column-major matrix, eigenvalue w[j], ascending) when jobz = 'V'. */
static int dense_eig(const graph *g, const struct comps *cp, int32_t c, char jobz,
		     double **Z, double **w, cent_ws *ws, char *msg, size_t msglen)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	double *A, wq, *work;
	lapack_int iq, *iwork, info, lwork, liwork;

	/* dsyevd's workspace, 1 + 6 nc + 2 nc^2 doubles, must fit a 32-bit
	 * LAPACK integer: components up to 32766 nodes. */
	if (2.0 * nc * nc + 6.0 * nc + 1 > (double)INT32_MAX) {
		snprintf(msg, msglen, "a %d-node component is too large for the dense "
			 "eigensolver (set exact_max below 32767)", (int)nc);
		return -1;
	}
	A = wsget(ws, W_DENSE, (size_t)nc * (size_t)nc, sizeof(double));
	*w = wsget(ws, W_EVAL, (size_t)nc, sizeof(double));
	memset(A, 0, (size_t)nc * (size_t)nc * sizeof(double));
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		int64_t p;
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			A[(size_t)i * (size_t)nc + cp->local[g->adj[p]]] = 1.0;
	}
	info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', nc, A, nc, *w,
				   &wq, -1, &iq, -1);
	if (info != 0)
		goto fail;
	lwork = (lapack_int)wq;
	liwork = iq;
	work = wsget(ws, W_WORK, (size_t)lwork, sizeof(double));
	iwork = wsget(ws, W_IWORK, (size_t)liwork, sizeof(lapack_int));
	/* One BLAS thread: OpenBLAS splits dsyevd's work by its thread count,
	 * which changes the last bits of the result, and the output must not
	 * depend on -j (README: determinism). */
	int blas_threads = openblas_get_num_threads();
	openblas_set_num_threads(1);
	info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', nc, A, nc, *w,
				   work, lwork, iwork, liwork);
	openblas_set_num_threads(blas_threads);
	if (info != 0)
		goto fail;
	*Z = A;
	return 0;
fail:
	snprintf(msg, msglen, "eigendecomposition of a %d-node component failed "
		 "(LAPACK dsyevd info %d)", (int)nc, (int)info);
	return -1;
}

/* Component c as its own CSR graph in local indices (BFS order, which also
 * keeps neighbours close in memory), for the Lanczos matrix-vector
 * products. */
struct ccsr {
	int32_t n;
	const int64_t *off;	/* (n + 1) */
	const int32_t *adj;	/* (2 m_c) */
};

static void comp_csr(const graph *g, const struct comps *cp, int32_t c, struct ccsr *h,
		     cent_ws *ws)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	int64_t arcs = 0, k = 0, *off;
	int32_t *adj;

	for (i = 0; i < nc; i++)
		arcs += graph_degree(g, cp->nodes[a + i]);
	off = wsget(ws, W_C_OFF, (size_t)nc + 1, sizeof *off);
	adj = wsget(ws, W_C_ADJ, (size_t)arcs, sizeof *adj);
	off[0] = 0;
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		int64_t p;
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			adj[k++] = cp->local[g->adj[p]];
		off[i + 1] = k;
	}
	h->n = nc;
	h->off = off;
	h->adj = adj;
}

/* y = A x on a component.  Serial on purpose: an OpenMP loop here measured
 * slower on the 2-core machine (Perron vector of a 100000-node DCBM graph:
 * 1.0 s with 2 threads, 0.7 s with 1), the product being memory-bound and
 * one product too short to amortise waking the team. */
static void comp_matvec(const struct ccsr *h, const double *x, double *y)
{
	int32_t i;

	for (i = 0; i < h->n; i++) {
		int64_t p;
		double s = 0.0;
		for (p = h->off[i]; p < h->off[i + 1]; p++)
			s += x[h->adj[p]];
		y[i] = s;
	}
}

/* Progress of a Lanczos run: each restart of dsaupd leaves the Ritz
 * values and their error estimates in workl, where ipntr(6) and ipntr(7)
 * point (dsaupd's documented layout: 2 ncv and 3 ncv, 0-based); its first
 * call zeroes workl.  A change of the estimates between two
 * matrix-vector products is a restart.  The residual of the worst of the
 * nev largest Ritz pairs, relative as dsaupd's test has it, falls about
 * geometrically, which predicts the restarts left (centrality.h,
 * CENT_P_LANCZOS). */
struct lz_watch {
	const struct cent_opts *o;
	int ncv, nev, on;
	double tol, first, *seen, *pair;	/* seen (ncv), pair (2 ncv) */
	int64_t restarts;
};

static void lz_watch_init(struct lz_watch *w, const struct cent_opts *o, int ncv, int nev,
			  double tol, cent_ws *ws)
{
	w->o = o;
	w->on = o->on_progress != NULL;
	w->ncv = ncv;
	w->nev = nev;
	/* tol 0 asks for machine precision, but dsaupd_c takes tol by value
	 * and replaces 0 with eps only in its first call, so the later tests
	 * compare with 0: a run goes on until the wanted estimates are
	 * exactly 0, which they became one restart after reaching about
	 * 1e-28 relative in the runs we watched; eps^2 stands for that. */
	w->tol = tol > 0 ? tol : DBL_EPSILON * DBL_EPSILON / 4;
	w->first = 0;
	w->restarts = 0;
	w->seen = w->pair = NULL;
	if (!w->on)
		return;
	w->seen = wsget(ws, W_AR_WATCH, 3 * (size_t)ncv, sizeof(double));
	w->pair = w->seen + ncv;
	memset(w->seen, 0, (size_t)ncv * sizeof(double));
}

static int cmp_desc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a < b) - (a > b);
}

/* After a matrix-vector product: a restart? then the hook. */
static void lz_watch(struct lz_watch *w, const double *workl, const a_int *ipntr)
{
	const double *ritz = workl + 2 * w->ncv, *bnd = workl + 3 * w->ncv;
	double eps23 = pow(DBL_EPSILON / 2, 2.0 / 3.0), worst = 0;
	int64_t total = 0;
	int j;

	if (!w->on)
		return;
	if (ipntr[5] - 1 != 2 * w->ncv || ipntr[6] - 1 != 3 * w->ncv) {
		w->on = 0;	/* another layout: no progress rather than a wrong one */
		return;
	}
	if (memcmp(w->seen, bnd, (size_t)w->ncv * sizeof(double)) == 0)
		return;
	memcpy(w->seen, bnd, (size_t)w->ncv * sizeof(double));
	w->restarts++;
	for (j = 0; j < w->ncv; j++) {
		w->pair[2 * j] = ritz[j];
		w->pair[2 * j + 1] = fabs(bnd[j]) / fmax(eps23, fabs(ritz[j]));
	}
	qsort(w->pair, (size_t)w->ncv, 2 * sizeof(double), cmp_desc);
	for (j = 0; j < w->nev; j++)
		worst = fmax(worst, w->pair[2 * j + 1]);
	if (w->restarts == 1)
		w->first = worst;
	if (w->restarts > 1 && worst < w->first)
		total = (int64_t)fmin(ARPACK_MAXITER, ceil((double)w->restarts *
			log(w->first / w->tol) / log(w->first / worst)));
	/* the last restart, whose test passes, is not seen here: at least one
	 * more */
	if (total && total <= w->restarts)
		total = w->restarts + 1;
	w->o->on_progress(w->o->progress_arg, CENT_P_LANCZOS, w->restarts, total);
}

/* The nev algebraically largest eigenpairs of component c by ARPACK
 * (dsaupd/dseupd, implicitly restarted Lanczos).
 * Needs nc >= nev + 2.  d: nev eigenvalues, descending; Z: nc x nev,
 * column j the eigenvector of d[j], in the workspace's Lanczos basis (the
 * next call overwrites it). */
static int lanczos(const graph *g, const struct cent_opts *o, const struct comps *cp,
		   int32_t c, int nev, uint64_t seed, double **dout, double **Zout,
		   cent_ws *ws, char *msg, size_t msglen)
{
	struct lz_watch w;
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	a_int ncv, lworkl, ido = 0, info = 1, iparam[11], ipntr[14], *sel;
	struct ccsr h;
	/* Machine precision for the eigenvector alone (exact by contract);
	 * 1e-10 relative residual for the eigenpairs of the subgraph estimate,
	 * whose truncation error is orders larger. */
	double tol = nev == 1 ? 0.0 : 1e-10;
	double *resid, *V, *workd, *workl, *d, *Z;
	int rc = 0, j;

	(void)a;
	ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;
	if (ncv > nc)
		ncv = nc;
	lworkl = ncv * (ncv + 8);
	resid = wsget(ws, W_AR_RESID, (size_t)nc, sizeof(double));
	V = wsget(ws, W_AR_V, (size_t)nc * (size_t)ncv, sizeof(double));
	workd = wsget(ws, W_AR_WORKD, 3 * (size_t)nc, sizeof(double));
	workl = wsget(ws, W_AR_WORKL, (size_t)lworkl, sizeof(double));
	sel = wsget(ws, W_AR_SEL, (size_t)ncv, sizeof(a_int));
	d = wsget(ws, W_AR_D, (size_t)nev + 1, sizeof(double));
	comp_csr(g, cp, c, &h, ws);
	/* Deterministic start vector (ARPACK's own random start depends on
	 * earlier calls in the process).  For the leading eigenvector alone
	 * the degrees, A 1, which already point close to the Perron vector;
	 * for several eigenpairs a random positive vector, which has a
	 * component along every eigenvector. */
	for (i = 0; i < nc; i++)
		resid[i] = nev == 1 ? (double)(h.off[i + 1] - h.off[i]) :
			1.0 + (double)(rng_mix(seed, (uint64_t)i) >> 11) * 0x1p-53;
	memset(iparam, 0, sizeof iparam);
	memset(ipntr, 0, sizeof ipntr);
	iparam[0] = 1;			/* exact shifts */
	iparam[2] = ARPACK_MAXITER;
	iparam[6] = 1;			/* mode 1: A x = lambda x */
	lz_watch_init(&w, o, (int)ncv, nev, tol, ws);

#pragma omp critical(gnn_arpack)
	{
		/* ARPACK's BLAS calls are n x ncv matrix-vector products:
		 * memory-bound, and OpenBLAS's threads only spin against the
		 * caller between them (a 100000-node Perron vector: 0.7 s on one
		 * BLAS thread, 1.1 s on two). */
		int blas_threads = openblas_get_num_threads();
		openblas_set_num_threads(1);
		for (;;) {
			dsaupd_c(&ido, "I", nc, "LA", nev, tol, resid, ncv, V, nc,
				 iparam, ipntr, workd, workl, lworkl, &info);
			if (ido != -1 && ido != 1)
				break;
			comp_matvec(&h, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
			lz_watch(&w, workl, ipntr);
		}
		if (info == 0) {
			/* the Ritz vectors overwrite the basis (dseupd allows Z = V):
			 * a second nc x nev array would be 256 bytes a node at 32 */
			Z = V;
			dseupd_c(1, "A", sel, d, Z, nc, 0.0, "I", nc, "LA", nev, tol,
				 resid, ncv, V, nc, iparam, ipntr, workd, workl,
				 lworkl, &info);
			if (info != 0)
				rc = -2;
		} else {
			rc = -1;
		}
		openblas_set_num_threads(blas_threads);
	}
	if (o->on_progress)
		o->on_progress(o->progress_arg, CENT_P_LANCZOS, w.restarts, w.restarts);
	if (rc != 0) {
		snprintf(msg, msglen, "Lanczos (ARPACK %s) failed on a %d-node "
			 "component: info %d", rc == -1 ? "dsaupd" : "dseupd",
			 (int)nc, (int)info);
		return -1;
	}
	if (iparam[4] < nev) {
		snprintf(msg, msglen, "Lanczos (ARPACK) converged to %d of %d "
			 "eigenpairs on a %d-node component", (int)iparam[4], nev, (int)nc);
		return -1;
	}
	/* dseupd returns ascending order; reverse to descending. */
	for (j = 0; j < nev / 2; j++) {
		int k = nev - 1 - j;
		double t = d[j];
		d[j] = d[k];
		d[k] = t;
		for (i = 0; i < nc; i++) {
			t = Z[(size_t)j * nc + i];
			Z[(size_t)j * nc + i] = Z[(size_t)k * nc + i];
			Z[(size_t)k * nc + i] = t;
		}
	}
	*dout = d;
	*Zout = Z;
	return 0;
}

/* Copy x (unit eigenvector of component c) into ev at c's nodes, with
 * networkx's normalisation: x / (sign(sum x) * ||x||). */
static void store_perron(const struct comps *cp, int32_t c, const double *x, double *ev)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	double sum = 0.0, nrm = 0.0;

	for (i = 0; i < nc; i++) {
		sum += x[i];
		nrm += x[i] * x[i];
	}
	nrm = sqrt(nrm);
	if (sum < 0)
		nrm = -nrm;
	for (i = 0; i < nc; i++)
		ev[cp->nodes[a + i]] = x[i] / nrm;
}

/* Subgraph centrality of component c from all its eigenpairs
 * (w ascending, Z column-major), see centrality.h. */
static void subgraph_exact(const struct comps *cp, int32_t c, const double *w,
			   const double *Z, double *sc, double *sclog, int64_t *clamped,
			   cent_ws *ws)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i, j, K;
	double lmax = w[nc - 1], *acc;
	int k;

	K = (int32_t)floor((lmax - w[0]) / SC_BUCKET) + 1;
	acc = wsget(ws, W_BUCKET, (size_t)K * (size_t)nc, sizeof(double));
	memset(acc, 0, (size_t)K * (size_t)nc * sizeof(double));
	/* Bucket k holds the terms with lambda_j in (lmax - 600 (k+1), lmax - 600 k],
	 * scaled by e^{-(lmax - 600 k)}: every factor is in (e^-600, 1]. */
	for (j = 0; j < nc; j++) {
		int32_t b = (int32_t)floor((lmax - w[j]) / SC_BUCKET);
		const double *z = Z + (size_t)j * nc;
		double e, *s;
		if (b >= K)
			b = K - 1;
		e = exp(w[j] - (lmax - SC_BUCKET * b));
		s = acc + (size_t)b * nc;
		for (i = 0; i < nc; i++)
			s[i] += e * z[i] * z[i];
	}
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		double lg, val;
		if (K == 1) {
			lg = lmax + log(acc[i]);
			val = lmax <= EXP_SAFE ? exp(lmax) * acc[i] : exp(lg);
		} else {
			double mx = -HUGE_VAL, t = 0.0;
			for (k = 0; k < K; k++)
				if (acc[(size_t)k * nc + i] > 0) {
					double l = lmax - SC_BUCKET * k + log(acc[(size_t)k * nc + i]);
					if (l > mx)
						mx = l;
				}
			for (k = 0; k < K; k++)
				if (acc[(size_t)k * nc + i] > 0)
					t += exp(lmax - SC_BUCKET * k + log(acc[(size_t)k * nc + i]) - mx);
			lg = mx + log(t);
			val = exp(lg);
		}
		if (!isfinite(val)) {
			val = DBL_MAX;
			(*clamped)++;
		}
		if (sc)
			sc[v] = val;
		if (sclog)
			sclog[v] = lg;
	}
}

/* log(e^x + e^y); either may be -inf. */
static double lse2(double x, double y)
{
	double m = x > y ? x : y;

	if (m == -HUGE_VAL)
		return m;
	return m + log(exp(x - m) + exp(y - m));
}

/* log(w1 e^p1 + w2 e^p2) for weights w1, w2 >= 0. */
static double two_point(double w1, double p1, double w2, double p2)
{
	return lse2(w1 > 0 ? log(w1) + p1 : -HUGE_VAL, w2 > 0 ? log(w2) + p2 : -HUGE_VAL);
}

/* Subgraph centrality of a large component from its k leading eigenpairs
 * (d descending, Z column-major nc x k) and the three-moment remainder,
 * with the bounds on the remainder described in centrality.h; *worst gets
 * the largest relative error bound of the component's nodes. */
static void subgraph_approx(const graph *g, const struct comps *cp, int32_t c, int k,
			    const double *d, const double *Z, double *sc, double *sclog,
			    int64_t *clamped, double *worst)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	int64_t nclamp = 0;
	double bound = 0;
	/* the rest of the spectrum lies in [lo_end, hi_end]: every adjacency
	 * eigenvalue is at least -lambda_max, and those not computed are at
	 * most the k-th largest */
	const double lo_end = -d[0], hi_end = d[k - 1];

#pragma omp parallel for schedule(static) reduction(+:nclamp) reduction(max:bound)
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		double r = 1.0, m1 = 0.0, m2 = graph_degree(g, v);
		double mx = -HUGE_VAL, t = 0.0, top, est, lo, hi, lg, val, rel;
		int j;

		/* log-sum-exp over the k computed terms */
		for (j = 0; j < k; j++) {
			double z2 = Z[(size_t)j * nc + i] * Z[(size_t)j * nc + i];
			r -= z2;
			m1 -= z2 * d[j];
			m2 -= z2 * d[j] * d[j];
			if (z2 > 0 && d[j] + log(z2) > mx)
				mx = d[j] + log(z2);
		}
		for (j = 0; j < k; j++) {
			double z2 = Z[(size_t)j * nc + i] * Z[(size_t)j * nc + i];
			if (z2 > 0)
				t += exp(d[j] + log(z2) - mx);
		}
		top = mx + log(t);
		/* the remainder: estimate (mu +- s), lower and upper bounds */
		if (r > 1e-12) {
			double mu = m1 / r, var = m2 / r - mu * mu, s;
			if (var < 0)
				var = 0;
			s = sqrt(var);
			est = two_point(r / 2, mu + s, r / 2, mu - s);
			if (hi_end > mu) {
				double p = var / (var + (hi_end - mu) * (hi_end - mu));
				hi = two_point(r * (1 - p), mu - var / (hi_end - mu), r * p, hi_end);
			} else {
				hi = log(r) + hi_end;
			}
			if (mu > lo_end) {
				double q = var / (var + (mu - lo_end) * (mu - lo_end));
				lo = two_point(r * q, lo_end, r * (1 - q), mu + var / (mu - lo_end));
			} else {
				lo = log(r) + lo_end;
			}
		} else {
			est = lo = -HUGE_VAL;
			hi = log(1e-12) + hi_end;
		}
		lg = lse2(top, est);
		lo = lse2(top, lo);
		hi = lse2(top, hi);
		/* the true value t is in [e^lo, e^hi]: |e^lg - t| / t is largest
		 * at an end */
		rel = fmax(fabs(expm1(lg - lo)), fabs(expm1(lg - hi)));
		if (rel > bound)
			bound = rel;
		val = exp(lg);
		if (!isfinite(val)) {
			val = DBL_MAX;
			nclamp++;
		}
		if (sc)
			sc[v] = val;
		if (sclog)
			sclog[v] = lg;
	}
	*clamped += nclamp;
	if (bound > *worst)
		*worst = bound;
}

/* Upper bound on lambda_max of component c: max over its edges of
 * sqrt(deg u deg v) (0 for an isolated node). */
static double lambda_bound(const graph *g, const struct comps *cp, int32_t c)
{
	int32_t i;
	double best = 0.0;

	for (i = cp->start[c]; i < cp->start[c + 1]; i++) {
		int32_t v = cp->nodes[i];
		int64_t p;
		double dv = graph_degree(g, v);
		for (p = g->off[v]; p < g->off[v + 1]; p++) {
			double x = dv * graph_degree(g, g->adj[p]);
			if (x > best)
				best = x;
		}
	}
	return sqrt(best);
}

struct cbound {
	double bound;
	int32_t c;
};

/* Largest bound first; ties by component index (a total order, so the
 * unstable qsort gives one answer). */
static int cmp_cbound(const void *pa, const void *pb)
{
	const struct cbound *a = pa, *b = pb;

	if (a->bound != b->bound)
		return a->bound > b->bound ? -1 : 1;
	return a->c < b->c ? -1 : a->c > b->c;
}

static int spectral(const graph *g, const struct cent_opts *o, const struct comps *cp,
		    double *ev, double *sc, double *sclog, cent_out *out, cent_ws *ws,
		    char *msg, size_t msglen)
{
	int32_t n = g->n, c, idx;
	int want_sc = sc || sclog;
	double *clam = wsget(ws, W_CLAM, (size_t)cp->n, sizeof(double));
	double best = -HUGE_VAL, work = 0, next_work = PROGRESS_WORK;
	struct cbound *ord = NULL;

	/* Visiting order: for eigenvector alone, largest lambda bound first
	 * so that components that cannot win are skipped. */
	if (!want_sc) {
		ord = wsget(ws, W_CORD, (size_t)cp->n, sizeof *ord);
		for (c = 0; c < cp->n; c++) {
			ord[c].bound = lambda_bound(g, cp, c);
			ord[c].c = c;
		}
		qsort(ord, (size_t)cp->n, sizeof *ord, cmp_cbound);
	}
	for (c = 0; c < cp->n; c++)
		clam[c] = -HUGE_VAL;	/* not computed: cannot carry lambda_max */

	for (idx = 0; idx < cp->n; idx++) {
		int32_t cc = ord ? ord[idx].c : idx;
		int32_t a = cp->start[cc], nc = cp->start[cc + 1] - a;

		if (ord && ord[idx].bound < best - TIE_RTOL * fmax(1.0, fabs(best)))
			break;	/* sorted: no later component can reach best */
		/* progress by components, every PROGRESS_WORK of dense work (a
		 * component of nc nodes costs about nc^3) or so many nodes */
		work += nc > 2 && nc <= o->exact_max ? (double)nc * nc * nc : nc;
		if (o->on_progress && work >= next_work) {
			o->on_progress(o->progress_arg, CENT_P_COMPONENTS, idx, cp->n);
			next_work = work + PROGRESS_WORK;
		}
		if (nc == 1) {
			int32_t v = cp->nodes[a];
			clam[cc] = 0.0;
			if (ev)
				ev[v] = 1.0;
			if (sc)
				sc[v] = 1.0;
			if (sclog)
				sclog[v] = 0.0;
		} else if (want_sc && (nc <= o->exact_max || nc <= DENSE_EV_MAX)) {
			double *Z, *w;
			if (dense_eig(g, cp, cc, 'V', &Z, &w, ws, msg, msglen))
				return -1;
			clam[cc] = w[nc - 1];
			if (ev)
				store_perron(cp, cc, Z + (size_t)(nc - 1) * nc, ev);
			subgraph_exact(cp, cc, w, Z, sc, sclog, &out->subgraph_clamped, ws);
		} else if (want_sc) {
			int k = o->eig_pairs;
			double *d, *Z;
			if (k > nc - 2)
				k = nc - 2;
			if (lanczos(g, o, cp, cc, k, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
				    ws, msg, msglen))
				return -1;
			subgraph_approx(g, cp, cc, k, d, Z, sc, sclog, &out->subgraph_clamped,
					&out->sc_bound);
			out->approx |= CENT_SUBGRAPH;
			clam[cc] = d[0];
			/* The k pairs are converged to 1e-10 only: the eigenvector
			 * gets its own run to machine precision. */
			if (ev) {
				if (lanczos(g, o, cp, cc, 1, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
					    ws, msg, msglen))
					return -1;
				clam[cc] = d[0];
				store_perron(cp, cc, Z, ev);
			}
		} else if (nc <= DENSE_EV_MAX) {
			double *Z, *w;
			if (dense_eig(g, cp, cc, 'V', &Z, &w, ws, msg, msglen))
				return -1;
			clam[cc] = w[nc - 1];
			store_perron(cp, cc, Z + (size_t)(nc - 1) * nc, ev);
		} else {
			double *d, *Z;
			if (lanczos(g, o, cp, cc, 1, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
				    ws, msg, msglen))
				return -1;
			clam[cc] = d[0];
			store_perron(cp, cc, Z, ev);
		}
		if (clam[cc] > best)
			best = clam[cc];
	}
	out->lambda_max = best;
	if (o->on_progress)
		o->on_progress(o->progress_arg, CENT_P_COMPONENTS, cp->n, cp->n);

	if (ev) {
		/* Keep the components whose lambda_max ties with the best; weight
		 * each tied Perron vector by its sum (projection of the all-ones
		 * vector onto the eigenspace), then renormalise. */
		double tol = TIE_RTOL * fmax(1.0, fabs(best)), nrm = 0.0;
		int32_t ntied = 0, i;
		for (c = 0; c < cp->n; c++)
			if (clam[c] >= best - tol)
				ntied++;
		for (c = 0; c < cp->n; c++) {
			int32_t a = cp->start[c], b = cp->start[c + 1];
			if (clam[c] < best - tol) {
				for (i = a; i < b; i++)
					ev[cp->nodes[i]] = 0.0;
			} else if (ntied > 1) {
				double s = 0.0;
				for (i = a; i < b; i++)
					s += ev[cp->nodes[i]];
				for (i = a; i < b; i++)
					ev[cp->nodes[i]] *= s;
			}
		}
		if (ntied > 1) {
			for (i = 0; i < n; i++)
				nrm += ev[i] * ev[i];
			nrm = sqrt(nrm);
			for (i = 0; i < n; i++)
				ev[i] /= nrm;
		}
	}
	return 0;
}

/* ---- memory: what the workspace grows to (cent_*_bytes) ---- */

/* Lanczos vectors of a call for nev eigenpairs on nc nodes (lanczos()). */
static double lanczos_ncv(int32_t nc, int nev)
{
	int ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;

	return ncv < nc ? ncv : nc;
}

/* The searches' workspace (paths()) as far as it is written, for the
 * components in cp: flags, per-component state and draws (and a budget's
 * shares), the sources of a round with their reach and distance sums (at
 * most the nodes of components of two or more), the accumulators, each
 * thread's BFS state (bfs_bytes) and, when sampling closeness, the
 * eccentricity bounds and each thread's sums. */
static double search_bytes(const graph *g, const struct cent_opts *o,
			   const struct comps *cp, int bc, int cl, int threads)
{
	double N = g->n, N2 = 0, base, acc = 0, thr, sums = 0;
	int sampled = g->n > o->exact_max && sampled_comps(cp, o);
	int32_t nb = g->n > o->exact_max ? nblocks(g->n, INT32_MAX) : nblocks(g->n, g->n);
	int32_t c, cmax;
	int64_t amax;

	if (!bc && !cl)
		return 0;
	for (c = 0; c < cp->n; c++)
		if (cp->start[c + 1] - cp->start[c] > 1)
			N2 += cp->start[c + 1] - cp->start[c];
	base = N + 9.0 * cp->n + (sampled && o->samples ? 16.0 * cp->n : 0) + 16 * N2;
	if (bc)
		acc = 8.0 * nb * N * (sampled ? 2 : 1);
	comp_max(g, cp, &cmax, &amax);
	thr = threads * (double)bfs_bytes(g->n, cmax, amax);
	if (cl && sampled)
		sums = 4 * N + 20.0 * threads * N;
	return base + acc + thr + sums;
}

/* The eigensolvers' workspace (spectral()) for the components in cp:
 * per-component lambda_max and visiting order; the dense solver of the
 * largest exact component (A, eigenvalues, dsyevd's work of 1 + 6 nc +
 * 2 nc^2 doubles and its iwork, the exponent buckets, K <= 2 nc / 600 +
 * 1); the Lanczos run of the largest other component (resid, the basis,
 * which also takes the Ritz vectors, workd, workl, the component's own
 * CSR). */
static double spectral_bytes(const graph *g, const struct cent_opts *o,
			     const struct comps *cp, int ev, int sc)
{
	int32_t c, dense_max = 0, lz = 0, dmax = o->exact_max > DENSE_EV_MAX ?
		o->exact_max : DENSE_EV_MAX;
	double lz_arcs = 0, dense = 0, lanc = 0;

	if (!ev && !sc)
		return 0;
	for (c = 0; c < cp->n; c++) {
		int32_t nc = cp->start[c + 1] - cp->start[c], i;
		if (nc < 2)
			continue;
		if (nc <= (sc ? dmax : DENSE_EV_MAX)) {
			if (nc > dense_max)
				dense_max = nc;
		} else if (nc > lz) {
			lz = nc;
			lz_arcs = 0;
			for (i = cp->start[c]; i < cp->start[c + 1]; i++)
				lz_arcs += graph_degree(g, cp->nodes[i]);
		}
	}
	if (dense_max > 0) {
		double d = dense_max;
		dense = 8 * d * d + 8 * d + 8 * (1 + 6 * d + 2 * d * d) + 4 * (3 + 5 * d) +
			8 * d * (2 * d / SC_BUCKET + 1);
	}
	if (lz > 0) {
		int nev = sc ? (o->eig_pairs < lz - 2 ? o->eig_pairs : lz - 2) : 1;
		double d = lz, ncv = fmax(lanczos_ncv(lz, nev), ev ? lanczos_ncv(lz, 1) : 0);
		lanc = 8 * d + 8 * d * ncv + 24 * d + 8 * ncv * (ncv + 8) + 12 * ncv +
			8 * (d + 1) + 4 * lz_arcs;
	}
	return 24.0 * cp->n + dense + lanc;
}

void cent_ws_bytes(const graph *g, const struct cent_opts *o, const cent_out *want,
		   int threads, cent_ws *ws, double *search, double *spectral)
{
	struct comps cp;
	double comps = 16.0 * g->n + 4;

	*search = *spectral = 0;
	if (g->n == 0)
		return;
	find_components(g, &cp, ws);
	*search = comps + search_bytes(g, o, &cp, want->betweenness != NULL,
				       want->closeness != NULL, threads);
	*spectral = comps + spectral_bytes(g, o, &cp, want->eigenvector != NULL,
					   want->subgraph != NULL || want->subgraph_log != NULL);
}

int centrality_compute(const graph *g, const struct cent_opts *opts, cent_out *out,
		       cent_ws *ws, char *msg, size_t msglen)
{
	struct cent_opts def;
	struct comps cp;
	cent_ws own;
	int rc = 0;

	out->approx = 0;
	out->subgraph_clamped = 0;
	out->lambda_max = 0.0;
	out->sources = out->sampled = 0;
	out->sampled_comps = out->exact_comps = out->switched_comps = 0;
	out->bc_bound = out->cl_bound = out->sc_bound = 0.0;
	if (opts == NULL) {
		cent_opts_init(&def);
		opts = &def;
	}
	/* (the negations catch NaN too) */
	if (opts->exact_max < 0 || opts->samples < 0 || opts->eig_pairs < 1 ||
	    !(opts->bc_error > 0 && opts->bc_error <= 1) ||
	    !(opts->cl_error > 0 && opts->cl_error <= 1) ||
	    !(opts->delta > 0 && opts->delta < 1)) {
		snprintf(msg, msglen, "centrality: bad options (exact_max %d, samples %d, "
			 "errors %g %g, delta %g, eig_pairs %d)", (int)opts->exact_max,
			 (int)opts->samples, opts->bc_error, opts->cl_error, opts->delta,
			 (int)opts->eig_pairs);
		return -1;
	}
	if (g->n == 0)
		return 0;
	if (ws == NULL) {
		cent_ws_init(&own);
		ws = &own;
	}
	find_components(g, &cp, ws);
	if (out->betweenness || out->closeness)
		rc = paths(g, opts, &cp, out->betweenness, out->closeness, out, ws, msg, msglen);
	ws_trim(ws, W_SRC, W_EMIN);
	if (rc == 0 && (out->eigenvector || out->subgraph || out->subgraph_log))
		rc = spectral(g, opts, &cp, out->eigenvector, out->subgraph, out->subgraph_log,
			      out, ws, msg, msglen);
	ws_trim(ws, 0, W_COUNT - 1);
	if (ws == &own)
		cent_ws_free(&own);
	return rc;
}
