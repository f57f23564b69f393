/*
 * centrality_paths.c - betweenness and closeness centrality (centrality.h):
 * Brandes's algorithm, one BFS per source, run in rounds of sources over
 * threads; past exact_max, sampled sources with empirical Bernstein
 * bounds and a schedule of checks.  The entry point is centi_paths
 * (centrality_int.h), called by centrality_compute.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "centrality.h"
#include "centrality_int.h"
#include "err.h"
#include "rng.h"

/* Components this small always take every node as a source (cheap, and
 * two sampled sources say little about a path of ten nodes). */
#define SMALL_COMP 64
/* Searches of fewer node + arc visits than this run on one thread. */
#define PAR_MIN_WORK 2e6

/* ---- betweenness and closeness: Brandes, one BFS per source ---- */

/* Number of accumulator blocks: a function of n only (determinism),
 * at most 64, and B n <= 2^23 doubles unless that leaves fewer than 4. */
static int32_t
nblocks(int32_t n, int32_t nsrc)
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
	double s;  /* sigma, then (1 + delta) / sigma */
	int32_t d; /* distance from the source; -1 = not reached */
	int32_t pad;
};

struct bfs {
	struct nst *st;	 /* (n) */
	int32_t *order;	 /* (n) nodes in BFS order */
	int64_t *dstart; /* (n + 1) successors of order[i]: dag[dstart[i] ..
				 * dstart[i+1]) */
	int32_t *dag;	 /* (m) successors (next-level neighbours) */
};

/* BFS from s.  Returns the number of nodes reached; *sumd = sum of their
 * distances.  With count_paths, also the path counts sigma and the
 * shortest-path DAG (the successors of each node, grouped by BFS position),
 * so that the backward pass reads only DAG arcs.  st[].d must be -1 on
 * every node on entry. */
static int32_t
bfs_forward(const graph *g, int32_t s, struct bfs *b, int64_t *sumd, int count_paths)
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
static inline double
succ_sum(const struct bfs *b, int32_t i)
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
static void
bfs_backward(struct bfs *b, int32_t reached, double *acc, double *acc2)
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
static void
bfs_backward_scaled(struct bfs *b, int32_t reached, double *acc, double *acc2)
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
static double
closeness_value(int64_t r, double S, int32_t n)
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
	int32_t n, nb;	       /* nodes; accumulator blocks */
	int32_t cmax;	       /* nodes of the largest component */
	int64_t amax;	       /* edges of the component with the most */
	int nth;	       /* threads (at most) */
	size_t per;	       /* bytes of one thread's BFS state */
	char *thr;	       /* (nth, per) BFS states */
	double *acc, *acc2;    /* (nb, n) sums of delta_s(v) and of delta_s(v)^2 over
				 * the sources of each block; acc NULL: no betweenness,
				 * acc2 NULL: not sampling */
	int64_t *dsum, *dsum2; /* (nth, n) sums of d(s, v) and d(s, v)^2 over the
				 * sources each thread ran; NULL: not sampling closeness */
	int32_t *emin;	       /* (nth, n) min over those sources of ecc(s) + d(s, v),
				 * a bound on ecc(v); with dsum */
	int32_t *src;	       /* (cnt) sources of the current round */
	int32_t *reach;	       /* (cnt) nodes reached from each */
	int64_t *dtot;	       /* (cnt) and the sum of their distances */
	int32_t cnt;	       /* sources in the current round */
	int64_t draws;	       /* sources run before this round: source i of the
				 * round goes to block (draws + i) mod nb */
	char *issrc;	       /* (n) 1 once a node has been a source */
	const char *cstate;    /* (ncomp) C_* of each component; NULL: all exact */
	void (*on_progress)(void *, int, int64_t, int64_t);
	void *parg;
	int64_t done, total, next, step;
};

/* Thread t's BFS state inside S->thr: st (n), dstart (cmax + 1), order
 * (cmax), dag (amax): a search stays in its component, whose DAG has at
 * most one arc an edge.  16-byte aligned. */
static size_t
bfs_bytes(int32_t n, int32_t cmax, int64_t amax)
{
	return ((size_t)n * sizeof(struct nst) + ((size_t)cmax + 1) * sizeof(int64_t) +
		(size_t)cmax * sizeof(int32_t) + ((size_t)amax + 1) * sizeof(int32_t) + 15) &
	       ~(size_t)15;
}

static void
bfs_bind(const struct srch *S, int t, struct bfs *b)
{
	char *base = S->thr + (size_t)t * S->per;

	b->st = (struct nst *)base;
	b->dstart = (int64_t *)(b->st + S->n);
	b->order = (int32_t *)(b->dstart + S->cmax + 1);
	b->dag = b->order + S->cmax;
}

/* The nodes of the largest component and the edges of the one with the
 * most, for the BFS states. */
static void
comp_max(const graph *g, const struct comps *cp, int32_t *cmax, int64_t *amax)
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
static void
search_round(struct srch *S)
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
				if (a && S->cstate && S->cstate[S->cp->compof[s]] == C_SAMPLED)
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
static void
source_closeness(struct srch *S, double *cl)
{
	int32_t i;

	for (i = 0; i < S->cnt; i++) {
		S->issrc[S->src[i]] = 1;
		if (cl)
			cl[S->src[i]] = closeness_value(S->reach[i], (double)S->dtot[i], S->n);
	}
}

/* Append every node of component c to the round's sources. */
static void
add_component(struct srch *S, int32_t c)
{
	int32_t i;

	for (i = S->cp->start[c]; i < S->cp->start[c + 1]; i++)
		S->src[S->cnt++] = S->cp->nodes[i];
}

/* ---- estimators past exact_max: the plan and the error bounds ---- */

/* The plan of the sampled searches. */
struct plan {
	char *state;	       /* (ncomp) C_NONE, C_EXACT or C_SAMPLED */
	int64_t *k;	       /* (ncomp) sources drawn so far in a C_SAMPLED one */
	int32_t *ecc;	       /* (n) upper bound on each node's eccentricity */
	int64_t nsamp;	       /* nodes in components sampled at the start */
	int64_t kmin;	       /* fewest draws that can meet the requests */
	double bc_eps, cl_eps; /* targets (0: not a target) */
};

/* Two-sided empirical Bernstein bound (Maurer and Pontil 2009, Theorem 4,
 * applied to X and to 1 - X): for k >= 2 i.i.d. draws in [0, 1] with sum
 * s1 and sum of squares s2, |mean - E X| <= sqrt(2 V L / k) + 7 L /
 * (3 (k - 1)), V the unbiased sample variance, with probability at least
 * 1 - 4 e^-L (each side fails with probability 2 e^-L). */
double
cent_eb_width(double s1, double s2, double k, double L)
{
	double v = (s2 - s1 * s1 / k) / (k - 1);

	if (v < 0)
		v = 0;
	return sqrt(2 * v * L / k) + 7 * L / (3 * (k - 1));
}

/* The k (about) at which eb_width of a variable of variance v reaches eps:
 * solves 7 L / 3 x^2 + sqrt(2 v L) x = eps for x = 1 / sqrt(k). */
static double
eb_need(double v, double L, double eps)
{
	double A = 7 * L / 3, B = sqrt(2 * (v > 0 ? v : 0) * L);
	double x = 2 * eps / (B + sqrt(B * B + 4 * A * eps));

	return 1 / (x * x) + 1;
}

/* Betweenness of component c: b(v) = alpha_c E [delta_s(v) / (n_c - 2)]
 * over sources s uniform in c, alpha_c = n_c (n_c - 2) / ((n - 1)(n - 2)). */
static double
comp_alpha(int32_t nc, int32_t n)
{
	return (double)nc * (nc - 2) / ((double)(n - 1) * (n - 2));
}

/* Deterministic (graph-only) upper bound on the eccentricity of every
 * node of component c: ecc(v) <= ecc(r) + d(r, v) for any r; two roots,
 * the component's first node and the last node its search reaches. */
static void
ecc_bounds(struct srch *S, int32_t c, int32_t *ecc)
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
static void
reset_component(struct srch *S, int32_t c)
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
	double bc, cl; /* achieved bounds (betweenness additive, closeness
				 * relative) */
	double need;   /* draws (on the scale of the whole graph) that the
				 * sample variances predict for the targets at Lneed */
};

/* The achieved bounds of the sampled components at log term L: each of
 * the two holds on every node at once with probability at least
 * 1 - 4 nsamp e^-L (a union bound over the nodes), so L = ln(4 nsamp /
 * delta) gives 1 - delta.  The prediction of the draws needed uses Lneed. */
static void
sample_bounds(const struct srch *S, const struct plan *P, double L, double Lneed, int want_bc,
	      int want_cl, struct bounds *B)
{
	const struct comps *cp = S->cp;
	int32_t n = S->n, v;
	double bc = 0, cl = 0, need = 0;

#pragma omp parallel for schedule(static) reduction(max : bc, cl, need) if (S->nth > 1)
	for (v = 0; v < n; v++) {
		int32_t c = cp->compof[v], nc = cp->start[c + 1] - cp->start[c], t;
		double k, scale;
		if (P->state[c] != C_SAMPLED)
			continue;
		k = (double)P->k[c];
		scale = (double)P->nsamp / nc; /* component draws -> graph draws */
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
				continue; /* every distance is 1: exact */
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

double
cent_check_log(int64_t nodes, double delta, int j)
{
	return log(4.0 * (double)nodes * j * (j + 1.0) / delta);
}

int64_t
cent_check_draws(int64_t K1, int j)
{
	return (int64_t)ceil((double)K1 * pow(SCHED_GROW, j - 1));
}

static double
sched_L(const struct plan *P, double delta, int j)
{
	return cent_check_log(P->nsamp, delta, j);
}

/* Draws of component c at K draws over the graph (proportional, at least
 * 2, non-decreasing in K). */
static int64_t
comp_draws(const struct plan *P, int32_t nc, int64_t K)
{
	int64_t k = (int64_t)ceil((double)K * nc / (double)P->nsamp);

	return k < 2 ? 2 : k;
}

/* A fixed budget (cent_opts.samples): its draws spread over the sampled
 * components in proportion to their sizes by largest remainders, so that
 * they add up to the budget (unless a component would get fewer than 2). */
static void
budget_draws(const struct comps *cp, const struct plan *P, int64_t samples, int64_t *alloc,
	     double *frac)
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
static int64_t
first_check(const struct comps *cp, const struct plan *P, int32_t n, double L)
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
static void
sampled_paths(struct srch *S, const struct cent_opts *o, struct plan *P, int want_bc, int want_cl,
	      double *cl, cent_out *out, cent_ws *ws)
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
		alloc = centi_wsget(ws, W_ALLOC, (size_t)cp->n, sizeof *alloc);
		budget_draws(cp, P, o->samples, alloc,
			     centi_wsget(ws, W_FRAC, (size_t)cp->n, sizeof(double)));
		K = o->samples;
	} else {
		K = K1 = P->nsamp ? first_check(cp, P, n, sched_L(P, o->delta, 1)) : 0;
	}
	r = rng_new(o->seed, 0x63656e74ULL); /* "cent" */
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
				S->src[S->cnt++] = cp->nodes[a + (int32_t)gsl_rng_uniform_int(
								     r, (unsigned long)nc)];
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
		sample_bounds(
		    S, P, fixed ? log(4.0 * (double)P->nsamp / o->delta) : sched_L(P, o->delta, j),
		    sched_L(P, o->delta, j + 1), want_bc, want_cl, &B);
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
static int
sampled_comps(const struct comps *cp, const struct cent_opts *o)
{
	int32_t c, small = o->exact_max > SMALL_COMP ? o->exact_max : SMALL_COMP;

	for (c = 0; c < cp->n; c++)
		if (cp->start[c + 1] - cp->start[c] > small)
			return 1;
	return 0;
}

/* The searches' state for one call on g: threads, their BFS states, the
 * arrays of a round, no component planned yet, progress every S->step
 * sources. */
static void
search_init(struct srch *S, const graph *g, const struct cent_opts *o, const struct comps *cp,
	    cent_ws *ws)
{
	int32_t n = g->n;

	memset(S, 0, sizeof *S);
	S->g = g;
	S->cp = cp;
	S->n = n;
	S->nth = omp_get_max_threads();
	comp_max(g, cp, &S->cmax, &S->amax);
	S->per = bfs_bytes(n, S->cmax, S->amax);
	S->thr = centi_wsget(ws, W_THR, (size_t)S->nth, S->per);
	S->src = centi_wsget(ws, W_SRC, (size_t)n, sizeof(int32_t));
	S->reach = centi_wsget(ws, W_REACH, (size_t)n, sizeof(int32_t));
	S->dtot = centi_wsget(ws, W_DTOT, (size_t)n, sizeof(int64_t));
	S->issrc = centi_wsget(ws, W_ISSRC, (size_t)n, 1);
	memset(S->issrc, 0, (size_t)n);
	S->on_progress = o->on_progress;
	S->parg = o->progress_arg;
	S->step = (int64_t)fmax(1, fmin(1024, PROGRESS_WORK / ((double)n + 2.0 * g->m)));
	S->next = S->step;
}

/* Up to exact_max nodes: every node of every component of 2 or more is a
 * source, in one round. */
static void
exact_paths(struct srch *S, struct plan *P, int want_bc, double *cl, cent_out *out, cent_ws *ws)
{
	const struct comps *cp = S->cp;
	int32_t c, n = S->n;

	for (c = 0; c < cp->n; c++) {
		P->k[c] = 0;
		P->state[c] = cp->start[c + 1] - cp->start[c] < 2 ? C_NONE : C_EXACT;
		if (P->state[c] == C_EXACT) {
			add_component(S, c);
			out->exact_comps++;
		}
	}
	S->nb = nblocks(n, S->cnt);
	if (want_bc) {
		size_t nbn = (size_t)S->nb * (size_t)n;
		S->acc = centi_wsget(ws, W_ACC, nbn, sizeof(double));
		memset(S->acc, 0, nbn * sizeof(double));
	}
	S->total = S->cnt;
	search_round(S);
	source_closeness(S, cl);
	out->sources = S->cnt;
}

/* Past exact_max: the accumulators (of the squares too, and the distance
 * sums and eccentricity bounds of closeness, when a component is large
 * enough to be sampled), then sampled_paths. */
static void
estimated_paths(struct srch *S, const struct cent_opts *o, struct plan *P, double *bc, double *cl,
		cent_out *out, cent_ws *ws)
{
	int32_t n = S->n;
	size_t nbn;

	S->nb = nblocks(n, INT32_MAX);
	nbn = (size_t)S->nb * (size_t)n;
	if (bc) {
		S->acc = centi_wsget(ws, W_ACC, nbn, sizeof(double));
		memset(S->acc, 0, nbn * sizeof(double));
	}
	if (bc && sampled_comps(S->cp, o)) {
		S->acc2 = centi_wsget(ws, W_ACC2, nbn, sizeof(double));
		memset(S->acc2, 0, nbn * sizeof(double));
	}
	if (cl && sampled_comps(S->cp, o)) {
		P->ecc = centi_wsget(ws, W_ECC, (size_t)n, sizeof(int32_t));
		size_t tn = (size_t)S->nth * (size_t)n, i;
		S->dsum = centi_wsget(ws, W_DSUM, tn, sizeof(int64_t));
		S->dsum2 = centi_wsget(ws, W_DSUM2, tn, sizeof(int64_t));
		S->emin = centi_wsget(ws, W_EMIN, tn, sizeof(int32_t));
		memset(S->dsum, 0, tn * sizeof(int64_t));
		memset(S->dsum2, 0, tn * sizeof(int64_t));
		for (i = 0; i < tn; i++)
			S->emin[i] = INT32_MAX;
	}
	S->cstate = P->state;
	sampled_paths(S, o, P, bc != NULL, cl != NULL, cl, out, ws);
}

/* Betweenness from the block accumulators: summed in block order, scaled
 * up in sampled components, normalised.  Returns 0, or -1 with msg set
 * when a value is not finite. */
static int
betweenness_out(const struct srch *S, const struct plan *P, double *bc, char *msg, size_t msglen)
{
	const struct comps *cp = S->cp;
	int32_t n = S->n, v;
	double scale = n > 2 ? 1.0 / ((double)(n - 1) * (double)(n - 2)) : 1.0;
	int bad = 0;

#pragma omp parallel for schedule(static) reduction(| : bad) if (S->nth > 1)
	for (v = 0; v < n; v++) {
		int32_t blk, c = cp->compof[v];
		int32_t nc = cp->start[c + 1] - cp->start[c];
		double s = 0.0;
		for (blk = 0; blk < S->nb; blk++)
			s += S->acc[(size_t)blk * (size_t)n + v];
		if (P->state[c] == C_SAMPLED)
			s *= (double)nc / (double)P->k[c];
		if (n > 2)
			s *= scale;
		else
			s = 0.0; /* networkx: nothing to normalise, all 0 */
		/* An estimate may pass the most a node of its component can
		 * have, (n_c - 1)(n_c - 2) / ((n - 1)(n - 2)): a star's centre,
		 * which every sampled leaf credits with n - 2, gets n_c / (n_c -
		 * 1) when no draw is the centre.  The true value is in range,
		 * so the clamp only brings an estimate closer to it. */
		if (P->state[c] == C_SAMPLED && n > 2)
			s = fmin(s, (double)(nc - 1) * (double)(nc - 2) * scale);
		bc[v] = s;
		if (!isfinite(s))
			bad = 1;
	}
	if (bad) {
		snprintf(msg, msglen,
			 "betweenness: number of shortest paths "
			 "exceeds the range of double");
		return -1;
	}
	return 0;
}

/* Closeness of the nodes of sampled components that were not sources,
 * from their distances to the sources (Eppstein and Wang). */
static void
estimated_closeness(const struct srch *S, const struct plan *P, double *cl)
{
	const struct comps *cp = S->cp;
	int32_t n = S->n, v;

#pragma omp parallel for schedule(static) if (S->nth > 1)
	for (v = 0; v < n; v++) {
		int32_t c = cp->compof[v], t;
		int32_t nc = cp->start[c + 1] - cp->start[c];
		int64_t s = 0;
		if (S->issrc[v] || P->state[c] != C_SAMPLED)
			continue;
		for (t = 0; t < S->nth; t++)
			s += S->dsum[(size_t)t * (size_t)n + v];
		cl[v] = closeness_value(nc, (double)(nc - 1) / (double)P->k[c] * (double)s, n);
	}
}

int
centi_paths(const graph *g, const struct cent_opts *o, const struct comps *cp, double *bc,
	    double *cl, cent_out *out, cent_ws *ws, char *msg, size_t msglen)
{
	struct srch S;
	struct plan P;
	int32_t n = g->n, v;

	search_init(&S, g, o, cp, ws);
	P.state = centi_wsget(ws, W_CSTATE, (size_t)cp->n, 1);
	P.k = centi_wsget(ws, W_KC, (size_t)cp->n, sizeof(int64_t));
	P.ecc = NULL; /* sampled closeness only, below */
	if (cl)
		for (v = 0; v < n; v++)
			cl[v] = 0.0; /* isolated nodes stay 0 */
	if (n <= o->exact_max)
		exact_paths(&S, &P, bc != NULL, cl, out, ws);
	else
		estimated_paths(&S, o, &P, bc, cl, out, ws);
	if (S.on_progress)
		S.on_progress(S.parg, CENT_P_SOURCES, S.done, S.done);
	if (bc && betweenness_out(&S, &P, bc, msg, msglen))
		return -1;
	if (cl && S.dsum)
		estimated_closeness(&S, &P, cl);
	return 0;
}

/* ---- memory: what the workspace grows to (cent_ws_bytes) ---- */

/* The searches' workspace (centi_paths()) as far as it is written, for the
 * components in cp: flags, per-component state and draws (and a budget's
 * shares), the sources of a round with their reach and distance sums (at
 * most the nodes of components of two or more), the accumulators, each
 * thread's BFS state (bfs_bytes) and, when sampling closeness, the
 * eccentricity bounds and each thread's sums. */
double
centi_search_bytes(const graph *g, const struct cent_opts *o, const struct comps *cp, int bc,
		   int cl, int threads)
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
