/*
 * centrality_spectral.c - eigenvector and subgraph centrality
 * (centrality.h), per connected component: LAPACK's dense solver
 * (dsyevd) for small components and for exact subgraph centrality, ARPACK's
 * Lanczos method for the others, subgraph sums bucketed by exponent so
 * that they do not overflow.  The entry point is centi_spectral
 * (centrality_int.h), called by centrality_compute.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpack/arpack.h>
#include <lapacke.h>
#include <omp.h>

#include "centrality.h"
#include "centrality_int.h"
#include "err.h"
#include "rng.h"

/* OpenBLAS's thread control (declared in its cblas.h, which clashes with
 * GSL's CBLAS declarations). */
int openblas_get_num_threads(void);
void openblas_set_num_threads(int);

/* Eigenvalues within this relative distance of lambda_max are "tied". */
#define TIE_RTOL 1e-10
/* Components up to this size get a dense solver even for eigenvector alone. */
#define DENSE_EV_MAX 64
/* Width of the exponent buckets of the subgraph sum (e^-600 > DBL_MIN). */
#define SC_BUCKET 600.0
/* exp(x) is finite for x below this (log(DBL_MAX) = 709.78...). */
#define EXP_SAFE 700.0
#define ARPACK_MAXITER 5000
/* Lanczos tolerances (relative residuals): machine precision for the
 * eigenvector alone (exact by contract); 1e-10 for the eigenpairs of the
 * subgraph estimate, whose truncation error is orders larger. */
#define TOL_EV 0.0
#define TOL_SC 1e-10

/* ---- spectral: eigenvector and subgraph centrality ---- */

/* Dense symmetric eigendecomposition of component c's adjacency matrix A
 * (scale NULL) or of S A S, S = diag(scale) in the component's local
 * order, with LAPACK dsyevd.  On return *Z holds the eigenvectors (column
 * j of the nc x nc column-major matrix, eigenvalue w[j], ascending) when
 * jobz = 'V'. */
static int
dense_eig(const graph *g, const struct comps *cp, int32_t c, const double *scale, char jobz,
	  double **Z, double **w, cent_ws *ws, char *msg, size_t msglen)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	double *A, wq, *work;
	lapack_int iq, *iwork, info, lwork, liwork;

	/* dsyevd's workspace, 1 + 6 nc + 2 nc^2 doubles, must fit a 32-bit
	 * LAPACK integer: components up to 32766 nodes. */
	if (2.0 * nc * nc + 6.0 * nc + 1 > (double)INT32_MAX) {
		snprintf(msg, msglen,
			 "a %d-node component is too large for the dense "
			 "eigensolver (set exact_max below 32767)",
			 (int)nc);
		return -1;
	}
	A = centi_wsget(ws, W_DENSE, (size_t)nc * (size_t)nc, sizeof(double));
	*w = centi_wsget(ws, W_EVAL, (size_t)nc, sizeof(double));
	memset(A, 0, (size_t)nc * (size_t)nc * sizeof(double));
	for (i = 0; i < nc; i++) {
		int32_t v = cp->nodes[a + i];
		int64_t p;
		for (p = g->off[v]; p < g->off[v + 1]; p++) {
			int32_t j = cp->local[g->adj[p]];
			A[(size_t)i * (size_t)nc + j] = scale ? scale[i] * scale[j] : 1.0;
		}
	}
	info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', nc, A, nc, *w, &wq, -1, &iq, -1);
	if (info != 0)
		goto fail;
	lwork = (lapack_int)wq;
	liwork = iq;
	work = centi_wsget(ws, W_WORK, (size_t)lwork, sizeof(double));
	iwork = centi_wsget(ws, W_IWORK, (size_t)liwork, sizeof(lapack_int));
	/* One BLAS thread: OpenBLAS splits dsyevd's work by its thread count,
	 * which changes the last bits of the result, and the output must not
	 * depend on -j (docs/choices.md, "The dense eigensolver runs
	 * on one BLAS thread"). */
	int blas_threads = openblas_get_num_threads();
	openblas_set_num_threads(1);
	info = LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', nc, A, nc, *w, work, lwork, iwork,
				   liwork);
	openblas_set_num_threads(blas_threads);
	if (info != 0)
		goto fail;
	*Z = A;
	return 0;
fail:
	snprintf(msg, msglen,
		 "eigendecomposition of a %d-node component failed "
		 "(LAPACK dsyevd info %d)",
		 (int)nc, (int)info);
	return -1;
}

/* Component c as its own CSR graph in local indices (BFS order, which also
 * keeps neighbours close in memory), for the Lanczos matrix-vector
 * products: of A, or of S A S when s (S's diagonal) is set. */
struct ccsr {
	int32_t n;
	const int64_t *off; /* (n + 1) */
	const int32_t *adj; /* (2 m_c) */
	const double *s;    /* (n) or NULL */
};

static void
comp_csr(const graph *g, const struct comps *cp, int32_t c, struct ccsr *h, cent_ws *ws)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	int64_t arcs = 0, k = 0, *off;
	int32_t *adj;

	for (i = 0; i < nc; i++)
		arcs += graph_degree(g, cp->nodes[a + i]);
	off = centi_wsget(ws, W_C_OFF, (size_t)nc + 1, sizeof *off);
	adj = centi_wsget(ws, W_C_ADJ, (size_t)arcs, sizeof *adj);
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
	h->s = NULL;
}

/* y = A x (or S A S x) on a component.  Serial on purpose: an OpenMP loop here measured
 * slower on the 2-core machine (Perron vector of a 100000-node DCBM graph:
 * 1.0 s with 2 threads, 0.7 s with 1), the product being memory-bound and
 * one product too short to amortise waking the team. */
static void
comp_matvec(const struct ccsr *h, const double *x, double *y)
{
	int32_t i;

	if (h->s) {
		for (i = 0; i < h->n; i++) {
			double s = 0.0;
			for (int64_t p = h->off[i]; p < h->off[i + 1]; p++)
				s += h->s[h->adj[p]] * x[h->adj[p]];
			y[i] = h->s[i] * s;
		}
		return;
	}
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
	double tol, first, *seen, *pair; /* seen (ncv), pair (2 ncv) */
	int64_t restarts;
};

static void
lz_watch_init(struct lz_watch *w, const struct cent_opts *o, int ncv, int nev, double tol,
	      cent_ws *ws)
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
	w->seen = centi_wsget(ws, W_AR_WATCH, 3 * (size_t)ncv, sizeof(double));
	w->pair = w->seen + ncv;
	memset(w->seen, 0, (size_t)ncv * sizeof(double));
}

static int
cmp_desc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a < b) - (a > b);
}

/* After a matrix-vector product: a restart? then the hook. */
static void
lz_watch(struct lz_watch *w, const double *workl, const a_int *ipntr)
{
	const double *ritz = workl + 2 * w->ncv, *bnd = workl + 3 * w->ncv;
	double eps23 = pow(DBL_EPSILON / 2, 2.0 / 3.0), worst = 0;
	int64_t total = 0;
	int j;

	if (!w->on)
		return;
	if (ipntr[5] - 1 != 2 * w->ncv || ipntr[6] - 1 != 3 * w->ncv) {
		w->on = 0; /* another layout: no progress rather than a wrong one */
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
		total = (int64_t)fmin(
		    ARPACK_MAXITER,
		    ceil((double)w->restarts * log(w->first / w->tol) / log(w->first / worst)));
	/* the last restart, whose test passes, is not seen here: at least one
	 * more */
	if (total && total <= w->restarts)
		total = w->restarts + 1;
	w->o->on_progress(w->o->progress_arg, CENT_P_LANCZOS, w->restarts, total);
}

/* The nev algebraically largest eigenpairs of component c's A (scale
 * NULL) or S A S (S = diag(scale), local order) by ARPACK (dsaupd/dseupd,
 * implicitly restarted Lanczos), to relative residual tol (0: machine
 * precision).
 * Needs nc >= nev + 2.  d: nev eigenvalues, descending; Z: nc x nev,
 * column j the eigenvector of d[j], in the workspace's Lanczos basis (the
 * next call overwrites it). */
static int
lanczos(const graph *g, const struct cent_opts *o, const struct comps *cp, int32_t c,
	const double *scale, int nev, double tol, uint64_t seed, double **dout, double **Zout,
	cent_ws *ws, char *msg, size_t msglen)
{
	struct lz_watch w;
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	a_int ncv, lworkl, ido = 0, info = 1, iparam[11], ipntr[14], *sel;
	struct ccsr h;
	double *resid, *V, *workd, *workl, *d, *Z;
	int rc = 0, j;

	(void)a;
	ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;
	if (ncv > nc)
		ncv = nc;
	lworkl = ncv * (ncv + 8);
	resid = centi_wsget(ws, W_AR_RESID, (size_t)nc, sizeof(double));
	V = centi_wsget(ws, W_AR_V, (size_t)nc * (size_t)ncv, sizeof(double));
	workd = centi_wsget(ws, W_AR_WORKD, 3 * (size_t)nc, sizeof(double));
	workl = centi_wsget(ws, W_AR_WORKL, (size_t)lworkl, sizeof(double));
	sel = centi_wsget(ws, W_AR_SEL, (size_t)ncv, sizeof(a_int));
	d = centi_wsget(ws, W_AR_D, (size_t)nev + 1, sizeof(double));
	comp_csr(g, cp, c, &h, ws);
	h.s = scale;
	/* Deterministic start vector (ARPACK's own random start depends on
	 * earlier calls in the process).  For the leading eigenvector alone
	 * the degrees, A 1, which already point close to the Perron vector;
	 * for several eigenpairs a random positive vector, which has a
	 * component along every eigenvector. */
	for (i = 0; i < nc; i++)
		resid[i] = nev == 1 ? (double)(h.off[i + 1] - h.off[i])
				    : 1.0 + (double)(rng_mix(seed, (uint64_t)i) >> 11) * 0x1p-53;
	memset(iparam, 0, sizeof iparam);
	memset(ipntr, 0, sizeof ipntr);
	iparam[0] = 1; /* exact shifts */
	iparam[2] = ARPACK_MAXITER;
	iparam[6] = 1; /* mode 1: A x = lambda x */
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
			dsaupd_c(&ido, "I", nc, "LA", nev, tol, resid, ncv, V, nc, iparam, ipntr,
				 workd, workl, lworkl, &info);
			if (ido != -1 && ido != 1)
				break;
			comp_matvec(&h, workd + ipntr[0] - 1, workd + ipntr[1] - 1);
			lz_watch(&w, workl, ipntr);
		}
		if (info == 0) {
			/* the Ritz vectors overwrite the basis (dseupd allows Z = V):
			 * a second nc x nev array would be 256 bytes a node at 32 */
			Z = V;
			dseupd_c(1, "A", sel, d, Z, nc, 0.0, "I", nc, "LA", nev, tol, resid, ncv, V,
				 nc, iparam, ipntr, workd, workl, lworkl, &info);
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
		snprintf(msg, msglen,
			 "Lanczos (ARPACK %s) failed on a %d-node "
			 "component: info %d",
			 rc == -1 ? "dsaupd" : "dseupd", (int)nc, (int)info);
		return -1;
	}
	if (iparam[4] < nev) {
		snprintf(msg, msglen,
			 "Lanczos (ARPACK) converged to %d of %d "
			 "eigenpairs on a %d-node component",
			 (int)iparam[4], nev, (int)nc);
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
static void
store_perron(const struct comps *cp, int32_t c, const double *x, double *ev)
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
static void
subgraph_exact(const struct comps *cp, int32_t c, const double *w, const double *Z, double *sc,
	       double *sclog, int64_t *clamped, cent_ws *ws)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i, j, K;
	double lmax = w[nc - 1], *acc;
	int k;

	K = (int32_t)floor((lmax - w[0]) / SC_BUCKET) + 1;
	acc = centi_wsget(ws, W_BUCKET, (size_t)K * (size_t)nc, sizeof(double));
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
					double l =
					    lmax - SC_BUCKET * k + log(acc[(size_t)k * nc + i]);
					if (l > mx)
						mx = l;
				}
			for (k = 0; k < K; k++)
				if (acc[(size_t)k * nc + i] > 0)
					t += exp(lmax - SC_BUCKET * k +
						 log(acc[(size_t)k * nc + i]) - mx);
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
static double
lse2(double x, double y)
{
	double m = x > y ? x : y;

	if (m == -HUGE_VAL)
		return m;
	return m + log(exp(x - m) + exp(y - m));
}

/* log(w1 e^p1 + w2 e^p2) for weights w1, w2 >= 0. */
static double
two_point(double w1, double p1, double w2, double p2)
{
	return lse2(w1 > 0 ? log(w1) + p1 : -HUGE_VAL, w2 > 0 ? log(w2) + p2 : -HUGE_VAL);
}

/* Subgraph centrality of a large component from its k leading eigenpairs
 * (d descending, Z column-major nc x k) and the three-moment remainder,
 * with the bounds on the remainder described in centrality.h; *worst gets
 * the largest relative error bound of the component's nodes. */
static void
subgraph_approx(const graph *g, const struct comps *cp, int32_t c, int k, const double *d,
		const double *Z, double *sc, double *sclog, int64_t *clamped, double *worst)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a, i;
	int64_t nclamp = 0;
	double bound = 0;
	/* the rest of the spectrum lies in [lo_end, hi_end]: every adjacency
	 * eigenvalue is at least -lambda_max, and those not computed are at
	 * most the k-th largest */
	const double lo_end = -d[0], hi_end = d[k - 1];

#pragma omp parallel for schedule(static) reduction(+ : nclamp) reduction(max : bound)
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
				hi =
				    two_point(r * (1 - p), mu - var / (hi_end - mu), r * p, hi_end);
			} else {
				hi = log(r) + hi_end;
			}
			if (mu > lo_end) {
				double q = var / (var + (mu - lo_end) * (mu - lo_end));
				lo =
				    two_point(r * q, lo_end, r * (1 - q), mu + var / (mu - lo_end));
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
static double
lambda_bound(const graph *g, const struct comps *cp, int32_t c)
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
static int
cmp_cbound(const void *pa, const void *pb)
{
	const struct cbound *a = pa, *b = pb;

	if (a->bound != b->bound)
		return a->bound > b->bound ? -1 : 1;
	return a->c < b->c ? -1 : a->c > b->c;
}

/* For eigenvector alone: the components by their lambda bound, largest
 * first, so that those that cannot win are skipped. */
static struct cbound *
visit_order(const graph *g, const struct comps *cp, cent_ws *ws)
{
	struct cbound *ord = centi_wsget(ws, W_CORD, (size_t)cp->n, sizeof *ord);
	int32_t c;

	for (c = 0; c < cp->n; c++) {
		ord[c].bound = lambda_bound(g, cp, c);
		ord[c].c = c;
	}
	qsort(ord, (size_t)cp->n, sizeof *ord, cmp_cbound);
	return ord;
}

/* The spectral quantities of component c and its lambda_max in clam[c]:
 * by hand for an isolated node, else by the dense solver or by Lanczos
 * (its own run for the eigenvector when subgraph centrality is
 * estimated).  Returns 0, or -1 with msg set. */
static int
spectral_comp(const graph *g, const struct cent_opts *o, const struct comps *cp, int32_t c,
	      double *ev, double *sc, double *sclog, double *clam, cent_out *out, cent_ws *ws,
	      char *msg, size_t msglen)
{
	int32_t a = cp->start[c], nc = cp->start[c + 1] - a;
	int want_sc = sc || sclog;
	double *Z, *w, *d;

	if (nc == 1) {
		int32_t v = cp->nodes[a];
		clam[c] = 0.0;
		if (ev)
			ev[v] = 1.0;
		if (sc)
			sc[v] = 1.0;
		if (sclog)
			sclog[v] = 0.0;
	} else if (want_sc && (nc <= o->exact_max || nc <= DENSE_EV_MAX)) {
		if (dense_eig(g, cp, c, NULL, 'V', &Z, &w, ws, msg, msglen))
			return -1;
		clam[c] = w[nc - 1];
		if (ev)
			store_perron(cp, c, Z + (size_t)(nc - 1) * nc, ev);
		subgraph_exact(cp, c, w, Z, sc, sclog, &out->subgraph_clamped, ws);
	} else if (want_sc) {
		int k = o->eig_pairs;
		if (k > nc - 2)
			k = nc - 2;
		if (lanczos(g, o, cp, c, NULL, k, TOL_SC, rng_mix(o->seed, (uint64_t)c), &d, &Z, ws,
			    msg, msglen))
			return -1;
		subgraph_approx(g, cp, c, k, d, Z, sc, sclog, &out->subgraph_clamped,
				&out->sc_bound);
		out->approx |= CENT_SUBGRAPH;
		clam[c] = d[0];
		/* The k pairs are converged to 1e-10 only: the eigenvector
		 * gets its own run to machine precision. */
		if (ev) {
			if (lanczos(g, o, cp, c, NULL, 1, TOL_EV, rng_mix(o->seed, (uint64_t)c), &d,
				    &Z, ws, msg, msglen))
				return -1;
			clam[c] = d[0];
			store_perron(cp, c, Z, ev);
		}
	} else if (nc <= DENSE_EV_MAX) {
		if (dense_eig(g, cp, c, NULL, 'V', &Z, &w, ws, msg, msglen))
			return -1;
		clam[c] = w[nc - 1];
		store_perron(cp, c, Z + (size_t)(nc - 1) * nc, ev);
	} else {
		if (lanczos(g, o, cp, c, NULL, 1, TOL_EV, rng_mix(o->seed, (uint64_t)c), &d, &Z, ws,
			    msg, msglen))
			return -1;
		clam[c] = d[0];
		store_perron(cp, c, Z, ev);
	}
	return 0;
}

/* Keep the components whose lambda_max ties with the best; weight each
 * tied Perron vector by its sum (projection of the all-ones vector onto
 * the eigenspace), then renormalise. */
static void
keep_tied(const struct comps *cp, int32_t n, const double *clam, double best, double *ev)
{
	double tol = TIE_RTOL * fmax(1.0, fabs(best)), nrm = 0.0;
	int32_t ntied = 0, i, c;

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

int
centi_spectral(const graph *g, const struct cent_opts *o, const struct comps *cp, double *ev,
	       double *sc, double *sclog, cent_out *out, cent_ws *ws, char *msg, size_t msglen)
{
	int32_t c, idx;
	double *clam = centi_wsget(ws, W_CLAM, (size_t)cp->n, sizeof(double));
	double best = -HUGE_VAL, work = 0, next_work = PROGRESS_WORK;
	struct cbound *ord = sc || sclog ? NULL : visit_order(g, cp, ws);

	for (c = 0; c < cp->n; c++)
		clam[c] = -HUGE_VAL; /* not computed: cannot carry lambda_max */
	for (idx = 0; idx < cp->n; idx++) {
		int32_t cc = ord ? ord[idx].c : idx;
		int32_t nc = cp->start[cc + 1] - cp->start[cc];

		if (ord && ord[idx].bound < best - TIE_RTOL * fmax(1.0, fabs(best)))
			break; /* sorted: no later component can reach best */
		/* progress by components, every PROGRESS_WORK of dense work (a
		 * component of nc nodes costs about nc^3) or so many nodes */
		work += nc > 2 && nc <= o->exact_max ? (double)nc * nc * nc : nc;
		if (o->on_progress && work >= next_work) {
			o->on_progress(o->progress_arg, CENT_P_COMPONENTS, idx, cp->n);
			next_work = work + PROGRESS_WORK;
		}
		if (spectral_comp(g, o, cp, cc, ev, sc, sclog, clam, out, ws, msg, msglen))
			return -1;
		if (clam[cc] > best)
			best = clam[cc];
	}
	out->lambda_max = best;
	if (o->on_progress)
		o->on_progress(o->progress_arg, CENT_P_COMPONENTS, cp->n, cp->n);
	if (ev)
		keep_tied(cp, g->n, clam, best, ev);
	return 0;
}

/* ---- memory: what the workspace grows to (cent_ws_bytes) ---- */

/* Lanczos vectors of a call for nev eigenpairs on nc nodes (lanczos()). */
static double
lanczos_ncv(int32_t nc, int nev)
{
	int ncv = 2 * nev + 1 > nev + 20 ? 2 * nev + 1 : nev + 20;

	return ncv < nc ? ncv : nc;
}

/* The eigensolvers' workspace (centi_spectral()) for the components in cp:
 * per-component lambda_max and visiting order; the dense solver of the
 * largest exact component (A, eigenvalues, dsyevd's work of 1 + 6 nc +
 * 2 nc^2 doubles and its iwork, the exponent buckets, K <= 2 nc / 600 +
 * 1); the Lanczos run of the largest other component (resid, the basis,
 * which also takes the Ritz vectors, workd, workl, the component's own
 * CSR). */
double
centi_spectral_bytes(const graph *g, const struct cent_opts *o, const struct comps *cp, int ev,
		     int sc)
{
	int32_t c, dense_max = 0, lz = 0,
		   dmax = o->exact_max > DENSE_EV_MAX ? o->exact_max : DENSE_EV_MAX;
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
		lanc = 8 * d + 8 * d * ncv + 24 * d + 8 * ncv * (ncv + 8) + 12 * ncv + 8 * (d + 1) +
		       4 * lz_arcs;
	}
	return 24.0 * cp->n + dense + lanc;
}

/* ---- the top of a component's spectrum, for other programs ---- */

int
cent_top_eigenvalues(const graph *g, const int32_t *nodes, int32_t nc, int normalized, int k,
		     double tol, const struct cent_opts *o, double *d, cent_ws *ws, char *msg,
		     size_t msglen)
{
	int32_t start[2] = { 0, nc }, *local, i;
	int dense = nc <= o->exact_max || nc <= DENSE_EV_MAX;
	double *scale = NULL, *w, *Z;
	struct comps cp;

	if (nc < 2 || k < 1 || k > (dense ? nc : nc - 2)) {
		snprintf(msg, msglen, "%d largest eigenvalues of a %d-node component asked for", k,
			 (int)nc);
		return -1;
	}
	local = centi_wsget(ws, W_LOCAL, (size_t)g->n, sizeof *local);
	for (i = 0; i < nc; i++)
		local[nodes[i]] = i;
	cp = (struct comps){ .n = 1, .nodes = nodes, .start = start, .local = local };
	if (normalized) { /* a connected component of 2+ nodes: no degree is 0 */
		scale = centi_wsget(ws, W_SCALE, (size_t)nc, sizeof *scale);
		for (i = 0; i < nc; i++)
			scale[i] = 1.0 / sqrt((double)graph_degree(g, nodes[i]));
	}
	if (dense) {
		if (dense_eig(g, &cp, 0, scale, 'N', &Z, &w, ws, msg, msglen))
			return -1;
		for (i = 0; i < k; i++)
			d[i] = w[nc - 1 - i];
		return 0;
	}
	if (lanczos(g, o, &cp, 0, scale, k, tol, o->seed, &w, &Z, ws, msg, msglen))
		return -1;
	memcpy(d, w, (size_t)k * sizeof *d);
	return 0;
}

double
cent_top_eigenvalues_bytes(int32_t n, int32_t nc, int64_t arcs, int k, const struct cent_opts *o)
{
	double d = nc, ncv = lanczos_ncv(nc, k);

	if (nc <= o->exact_max || nc <= DENSE_EV_MAX) /* A, w, dsyevd's 2 nc + 1 */
		return 4.0 * n + 8 * d * d + 24 * d + 16;
	/* local, scale, resid, the basis, workd, workl, the component's CSR */
	return 4.0 * n + 8 * d + 8 * d + 8 * d * ncv + 24 * d + 8 * ncv * (ncv + 8) + 12 * ncv +
	       8 * (d + 1) + 4.0 * (double)arcs;
}
