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
	W_SRC,		/* int32 (n): BFS sources */
	W_ISSRC,	/* char (n): 1 if the node is a source */
	W_KC,		/* int32 (ncomp): sources per component */
	W_ACC,		/* double (B n): betweenness block accumulators */
	W_THR,		/* per-thread BFS state, see paths() */
	W_DSUM,		/* int64 (threads n): distance sums to sources */
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
	W_AR_Z,		/* ARPACK: double (nc nev) eigenvectors */
	W_AR_D,		/* ARPACK: double (nev) eigenvalues */
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
	o->eig_pairs = CENT_EIG_PAIRS;
	o->seed = 0;
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

/* Dependencies in reverse BFS order, "pull" form over the DAG:
 * delta(w) = sigma(w) * sum over successors u of (1 + delta(u)) / sigma(u).
 * Adds delta(w) to acc[w] for every reached w but the source. */
static void bfs_backward(struct bfs *b, int32_t reached, double *acc)
{
	const int32_t *order = b->order, *dag = b->dag;
	const int64_t *dstart = b->dstart;
	struct nst *st = b->st;
	int32_t i;

	for (i = reached - 1; i > 0; i--) {
		int32_t w = order[i];
		int64_t p = dstart[i], e = dstart[i + 1];
		double s0 = 0.0, s1 = 0.0, delta;
		/* two partial sums, so that the adds do not wait on each other */
		for (; p + 2 <= e; p += 2) {
			s0 += st[dag[p]].s;
			s1 += st[dag[p + 1]].s;
		}
		if (p < e)
			s0 += st[dag[p]].s;
		delta = st[w].s * (s0 + s1);
		st[w].s = (1.0 + delta) / st[w].s;
		acc[w] += delta;
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

/* Pick the sources.  Exact: every node in a component of 2 or more.
 * Sampled: k_c per component by partial Fisher-Yates.  Returns the count. */
static int32_t pick_sources(const graph *g, const struct cent_opts *o,
			    const struct comps *cp, int sampled, int32_t *src,
			    char *issrc, int32_t *kc, int *approx)
{
	int32_t n = g->n, c, ns = 0;
	gsl_rng *r = NULL;

	memset(issrc, 0, (size_t)n);
	if (sampled)
		r = rng_new(o->seed, 0x63656e74ULL);	/* "cent" */
	for (c = 0; c < cp->n; c++) {
		int32_t a = cp->start[c], nc = cp->start[c + 1] - a, k, i;
		if (nc < 2) {
			kc[c] = 0;
			continue;
		}
		k = nc;
		if (sampled && nc > SMALL_COMP) {
			double want = (double)o->samples * nc / n;
			k = want >= nc ? nc : (int32_t)llround(want);
			if (k < 2)
				k = 2;
		}
		kc[c] = k;
		/* Candidates in component (BFS) order, a function of the graph
		 * alone; the first k after a partial Fisher-Yates shuffle. */
		for (i = 0; i < nc; i++)
			src[ns + i] = cp->nodes[a + i];
		if (k < nc) {
			*approx = 1;
			for (i = 0; i < k; i++) {
				int32_t j = i + (int32_t)rng_uniform_u64(r, (uint64_t)(nc - i));
				int32_t t = src[ns + i];
				src[ns + i] = src[ns + j];
				src[ns + j] = t;
			}
		}
		for (i = 0; i < k; i++)
			issrc[src[ns + i]] = 1;
		ns += k;
	}
	if (r)
		gsl_rng_free(r);
	return ns;
}

static int paths(const graph *g, const struct cent_opts *o, const struct comps *cp,
		 double *bc, double *cl, cent_out *out, cent_ws *ws, char *msg, size_t msglen)
{
	int32_t n = g->n, ns, nb, v;
	int sampled = n > o->exact_max, approx = 0, nth = omp_get_max_threads();
	int32_t *src = wsget(ws, W_SRC, (size_t)n, sizeof(int32_t));
	char *issrc = wsget(ws, W_ISSRC, (size_t)n, 1);
	int32_t *kc = wsget(ws, W_KC, (size_t)cp->n, sizeof(int32_t));
	double *acc = NULL;
	int64_t *dsum = NULL;
	char *thr;
	/* per thread: st (n), dstart (n + 1), order (n), dag (m); 16-aligned */
	size_t per = ((size_t)n * (sizeof(struct nst) + sizeof(int64_t) + sizeof(int32_t)) +
		      sizeof(int64_t) + ((size_t)g->m + 1) * sizeof(int32_t) + 15) & ~(size_t)15;

	ns = pick_sources(g, o, cp, sampled, src, issrc, kc, &approx);
	out->sources = ns;
	/* Small jobs run on the calling thread: waking a team costs more than
	 * the searches.  The answer is the same (blocks fix the order). */
	if ((double)ns * (double)(n + 2 * g->m) < PAR_MIN_WORK)
		nth = 1;
	if (approx)
		out->approx |= (bc ? CENT_BETWEENNESS : 0) | (cl ? CENT_CLOSENESS : 0);
	nb = nblocks(n, ns);
	if (bc) {
		acc = wsget(ws, W_ACC, (size_t)nb * (size_t)n, sizeof(double));
		memset(acc, 0, (size_t)nb * (size_t)n * sizeof(double));
	}
	if (cl) {
		for (v = 0; v < n; v++)
			cl[v] = 0.0;	/* isolated nodes stay 0 */
		if (approx) {
			dsum = wsget(ws, W_DSUM, (size_t)nth * (size_t)n, sizeof(int64_t));
			memset(dsum, 0, (size_t)nth * (size_t)n * sizeof(int64_t));
		}
	}
	thr = wsget(ws, W_THR, (size_t)nth, per);

#pragma omp parallel num_threads(nth)
	{
		int t = omp_get_thread_num();
		char *base = thr + (size_t)t * per;
		struct bfs b;
		int64_t *mysum = dsum ? dsum + (size_t)t * (size_t)n : NULL;
		int32_t blk, x;

		b.st = (struct nst *)base;
		b.dstart = (int64_t *)(b.st + n);
		b.order = (int32_t *)(b.dstart + n + 1);
		b.dag = b.order + n;
		for (x = 0; x < n; x++) {
			b.st[x].d = -1;
			b.st[x].s = 0.0;
		}
#pragma omp for schedule(dynamic, 1)
		for (blk = 0; blk < nb; blk++) {
			int32_t i;
			double *a = acc ? acc + (size_t)blk * (size_t)n : NULL;
			for (i = blk; i < ns; i += nb) {
				int32_t s = src[i], r, j;
				int64_t sd;
				r = bfs_forward(g, s, &b, &sd, bc != NULL);
				if (cl)
					cl[s] = closeness_value(r, (double)sd, n);
				if (mysum)
					for (j = 1; j < r; j++)
						mysum[b.order[j]] += b.st[b.order[j]].d;
				if (a)
					bfs_backward(&b, r, a);
				for (j = 0; j < r; j++)
					b.st[b.order[j]].d = -1;
			}
		}
	}

	if (bc) {
		double scale = n > 2 ? 1.0 / ((double)(n - 1) * (double)(n - 2)) : 1.0;
		int bad = 0;
#pragma omp parallel for schedule(static) reduction(|:bad) if (nth > 1)
		for (v = 0; v < n; v++) {
			int32_t blk, c = cp->compof[v];
			int32_t nc = cp->start[c + 1] - cp->start[c];
			double s = 0.0;
			for (blk = 0; blk < nb; blk++)
				s += acc[(size_t)blk * (size_t)n + v];
			if (kc[c] > 0 && kc[c] < nc)
				s *= (double)nc / (double)kc[c];
			if (n > 2)
				s *= scale;
			else
				s = 0.0;	/* networkx: nothing to normalise, all 0 */
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
	if (cl && approx) {
#pragma omp parallel for schedule(static) if (nth > 1)
		for (v = 0; v < n; v++) {
			int32_t c = cp->compof[v], t;
			int32_t nc = cp->start[c + 1] - cp->start[c];
			int64_t s = 0;
			if (issrc[v] || nc < 2)
				continue;	/* exact already, or isolated */
			for (t = 0; t < nth; t++)
				s += dsum[(size_t)t * (size_t)n + v];
			cl[v] = closeness_value(nc, (double)(nc - 1) / kc[c] * (double)s, n);
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

/* The nev algebraically largest eigenpairs of component c by ARPACK
 * (dsaupd/dseupd, implicitly restarted Lanczos).
 * Needs nc >= nev + 2.  d: nev eigenvalues, descending; Z: nc x nev,
 * column j the eigenvector of d[j]. */
static int lanczos(const graph *g, const struct comps *cp, int32_t c, int nev,
		   uint64_t seed, double **dout, double **Zout, cent_ws *ws,
		   char *msg, size_t msglen)
{
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
	Z = wsget(ws, W_AR_Z, (size_t)nc * (size_t)nev, sizeof(double));
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
		}
		if (info == 0) {
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

/* Subgraph centrality of a large component from its k leading eigenpairs
 * (d descending, Z column-major nc x k) and the three-moment remainder. */
static void subgraph_approx(const graph *g, const struct comps *cp, int32_t c, int k,
			    const double *d, const double *Z, double *sc, double *sclog,
			    int64_t *clamped)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	int64_t nclamp = 0;

#pragma omp parallel for schedule(static) reduction(+:nclamp)
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		double r = 1.0, m1 = 0.0, m2 = graph_degree(g, v);
		double term[3 + 1], lg, mx, t = 0.0, val;
		double top = -HUGE_VAL;
		int j, nt = 0;

		/* log-sum-exp over the k exact terms and the two remainder points */
		for (j = 0; j < k; j++) {
			double z2 = Z[(size_t)j * nc + i] * Z[(size_t)j * nc + i];
			r -= z2;
			m1 -= z2 * d[j];
			m2 -= z2 * d[j] * d[j];
			if (z2 > 0 && d[j] + log(z2) > top)
				top = d[j] + log(z2);
		}
		if (r > 1e-12) {
			double mu = m1 / r, var = m2 / r - mu * mu, s;
			s = var > 0 ? sqrt(var) : 0.0;
			term[nt++] = log(r / 2) + mu + s;
			term[nt++] = log(r / 2) + mu - s;
		}
		mx = top;
		for (j = 0; j < nt; j++)
			if (term[j] > mx)
				mx = term[j];
		for (j = 0; j < k; j++) {
			double z2 = Z[(size_t)j * nc + i] * Z[(size_t)j * nc + i];
			if (z2 > 0)
				t += exp(d[j] + log(z2) - mx);
		}
		for (j = 0; j < nt; j++)
			t += exp(term[j] - mx);
		lg = mx + log(t);
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
	double best = -HUGE_VAL;
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
			if (lanczos(g, cp, cc, k, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
				    ws, msg, msglen))
				return -1;
			subgraph_approx(g, cp, cc, k, d, Z, sc, sclog, &out->subgraph_clamped);
			out->approx |= CENT_SUBGRAPH;
			clam[cc] = d[0];
			/* The k pairs are converged to 1e-10 only: the eigenvector
			 * gets its own run to machine precision. */
			if (ev) {
				if (lanczos(g, cp, cc, 1, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
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
			if (lanczos(g, cp, cc, 1, rng_mix(o->seed, (uint64_t)cc), &d, &Z,
				    ws, msg, msglen))
				return -1;
			clam[cc] = d[0];
			store_perron(cp, cc, Z, ev);
		}
		if (clam[cc] > best)
			best = clam[cc];
	}
	out->lambda_max = best;

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
	out->sources = 0;
	if (opts == NULL) {
		cent_opts_init(&def);
		opts = &def;
	}
	if (opts->exact_max < 0 || opts->samples < 1 || opts->eig_pairs < 1) {
		snprintf(msg, msglen, "centrality: bad options (exact_max %d, samples %d, "
			 "eig_pairs %d)", (int)opts->exact_max, (int)opts->samples,
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
	if (rc == 0 && (out->eigenvector || out->subgraph || out->subgraph_log))
		rc = spectral(g, opts, &cp, out->eigenvector, out->subgraph, out->subgraph_log,
			      out, ws, msg, msglen);
	if (ws == &own)
		cent_ws_free(&own);
	return rc;
}
