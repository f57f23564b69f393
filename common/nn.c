/*
 * nn.c - model layers, forward and backward (see nn.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>

#include "err.h"
#include "gemm.h"
#include "nn.h"

#ifdef NN_DOUBLE
#define TANH tanh
#else
#define TANH fast_tanhf
#endif

#ifndef NN_DOUBLE
/*
 * tanh in float by a rational approximation (the minimax 13/6 form that
 * Eigen uses, clamped at +-7.9053): within a few ulp of tanhf, and a
 * plain polynomial that the compiler vectorises, where libm's tanhf is a
 * call per element.  The double build (gradient tests) keeps libm's tanh.
 */
static inline float
fast_tanhf(float x)
{
	const float c = 7.90531110763549805f;
	float lo = x < -c ? -c : x, t = lo > c ? c : lo, x2 = t * t;
	float p = -2.76076847742355e-16f;
	p = p * x2 + 2.00018790482477e-13f;
	p = p * x2 + -8.60467152213735e-11f;
	p = p * x2 + 5.12229709037114e-08f;
	p = p * x2 + 1.48572235717979e-05f;
	p = p * x2 + 6.37261928875436e-04f;
	p = p * x2 + 4.89352455891786e-03f;
	p *= t;
	float q = 1.19825839466702e-06f;
	q = q * x2 + 1.18534705686654e-04f;
	q = q * x2 + 2.26843463243900e-03f;
	q = q * x2 + 4.89352518554385e-03f;
	/* the quotient apart from the select: a division is not moved into
	 * a branch's arms (it may trap), so this way the loop vectorises */
	float r = p / q;
	return fabsf(x) < 0.0004f ? x : r;
}
#endif

/* Row-sum reductions split the rows into this many fixed chunks and add
 * the chunks' partial sums in order: the result does not depend on the
 * thread count. */
#define RCHUNKS 32

/* Loops over less work than this run on the calling thread: starting a
 * team costs more than it saves, and much more on a busy machine. */
#define PAR(work) ((work) >= (1 << 16))

/* Elements a thread's call of an element-wise clone (GEMM_CLONES) takes
 * at a time: every element is its own, so any split gives the same
 * values. */
#define NN_CHUNK 8192

/* Column blocks for scatter loops: each thread owns whole columns. */
#define COLBLK 32

void
nn_gemm(int ta, int tb, int64_t M, int64_t N, int64_t K, real alpha, const real *A, int64_t lda,
	const real *B, int64_t ldb, real beta, real *C, int64_t ldc)
{
	if (M == 0 || N == 0)
		return;
	if (K == 0) { /* BLAS would not touch C when K = 0 with beta 1 */
		for (int64_t r = 0; r < M; r++)
			for (int64_t c = 0; c < N; c++)
				C[r * ldc + c] = beta == 0 ? 0 : beta * C[r * ldc + c];
		return;
	}
#ifdef NN_DOUBLE
	cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
		    (int)M, (int)N, (int)K, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
#else
	/* OpenBLAS sgemm, or bf16 operands for the large products when the
	 * program chose bf16 (gemm.h) */
	gemm_f32(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
#endif
}

/* ------------------------------------------------------------------ */
/* dense */

void
nn_lin_fwd(real *Y, const real *X, const real *W, const real *b, int64_t N, int64_t i, int64_t o)
{
	if (b) {
#pragma omp parallel for schedule(static) if (PAR(N * o))
		for (int64_t r = 0; r < N; r++)
			memcpy(Y + r * o, b, (size_t)o * sizeof(real));
	}
	nn_gemm(0, 0, N, o, i, 1, X, i, W, o, b ? 1 : 0, Y, o);
}

/*
 * acc[l][c] = sum_r A[r][c] * B_l[ix(r)][c] for l < nb products (B_l NULL:
 * plain column sums of A), r < N, rows of width o; B_l rows are gathered
 * through idx (NULL: r).  Rows are processed contiguously in RCHUNKS
 * fixed chunks, each with its own double partial sums, added in order.
 */
static void
colsums(double *acc, const real *A, real *const *B, int nb, const int32_t *idx, int64_t N,
	int64_t o)
{
	int nl = nb ? nb : 1;
	double *part = xcalloc((size_t)(RCHUNKS * nl * o), sizeof *part);
#pragma omp parallel for schedule(dynamic, 1) if (PAR(N * o * nl))
	for (int ch = 0; ch < RCHUNKS; ch++) {
		int64_t r0 = N * ch / RCHUNKS, r1 = N * (ch + 1) / RCHUNKS;
		double *p = part + (int64_t)ch * nl * o;
		for (int64_t r = r0; r < r1; r++) {
			const real *a = A + r * o;
			if (!nb) {
				for (int64_t c = 0; c < o; c++)
					p[c] += a[c];
				continue;
			}
			int64_t br = idx ? idx[r] : r;
			for (int l = 0; l < nb; l++) {
				const real *bl = B[l] + br * o;
				double *pl = p + l * o;
				for (int64_t c = 0; c < o; c++)
					pl[c] += (double)(a[c] * bl[c]);
			}
		}
	}
	memset(acc, 0, (size_t)(nl * o) * sizeof *acc);
	for (int ch = 0; ch < RCHUNKS; ch++)
		for (int64_t j = 0; j < nl * o; j++)
			acc[j] += part[(int64_t)ch * nl * o + j];
	free(part);
}

/* db += column sums of dY (N x o), in a fixed order. */
static void
colsum_add(real *db, const real *dY, int64_t N, int64_t o)
{
	double *acc = xmallocarray((size_t)o, sizeof *acc);
	colsums(acc, dY, NULL, 0, NULL, N, o);
	for (int64_t c = 0; c < o; c++)
		db[c] += (real)acc[c];
	free(acc);
}

void
nn_lin_bwd(real *dX, real *dW, real *db, const real *dY, const real *X, const real *W, int64_t N,
	   int64_t i, int64_t o, int acc)
{
	nn_gemm(1, 0, i, o, N, 1, X, i, dY, o, 1, dW, o);
	if (db)
		colsum_add(db, dY, N, o);
	if (dX)
		nn_gemm(0, 1, N, i, o, 1, dY, o, W, o, acc ? 1 : 0, dX, i);
}

void
nn_tanh_fwd(real *y, const real *x, int64_t n)
{
#pragma omp parallel for simd schedule(static) if (PAR(n))
	for (int64_t i = 0; i < n; i++)
		y[i] = TANH(x[i]);
}

/* The relu passes select on signs, which a branch mispredicts about half
 * the time: simd makes them a compare and a mask (the same values). */
void
nn_relu_fwd(real *y, const real *x, int64_t n)
{
#pragma omp parallel for simd schedule(static) if (PAR(n))
	for (int64_t i = 0; i < n; i++)
		y[i] = x[i] > 0 ? x[i] : 0;
}

void
nn_tanh_bwd(real *dx, const real *dy, const real *y, int64_t n)
{
#pragma omp parallel for schedule(static) if (PAR(n))
	for (int64_t i = 0; i < n; i++)
		dx[i] = dy[i] * (1 - y[i] * y[i]);
}

void
nn_relu_bwd(real *dx, const real *dy, const real *y, int64_t n)
{
#pragma omp parallel for simd schedule(static) if (PAR(n))
	for (int64_t i = 0; i < n; i++) {
		real g = dy[i]; /* loaded either way, so no branch */
		dx[i] = y[i] > 0 ? g : 0;
	}
}

/* ------------------------------------------------------------------ */
/* per-graph normalisation */

/* Columns of a block of the normalisation's passes: 64 columns of a
 * graph of 2,000 nodes are 512 KB of fp32, which stay in a core's L2. */
#define GNCOLS 64

/*
 * n elements from i of an fp32 (bf 0) or bf16 (bf 1) array, a row of a
 * block at a time.  The bodies below are inlined with a constant bf, but
 * their OpenMP regions are outlined before that constant reaches them, so
 * bf is tested per row here, never per element: the loops over a row stay
 * free of branches and vectorise (an element-wise test, with the stores
 * and the row-dependent loads of the normalisation, kept its loops
 * scalar).  xh_row returns the row
 * as fp32, converted into buf (bf16) or in place (fp32); xh_put_row
 * stores v.
 */
static inline const real *
xh_row(real *buf, const void *XH, int bf, int64_t i, int64_t n)
{
	if (!bf)
		return (const real *)XH + i;
	const uint16_t *h = (const uint16_t *)XH + i;
	for (int64_t c = 0; c < n; c++)
		buf[c] = (real)gemm_f32_of(h[c]);
	return buf;
}

static inline void
xh_put_row(void *XH, int bf, int64_t i, const real *v, int64_t n)
{
	if (!bf) {
		memcpy((real *)XH + i, v, (size_t)n * sizeof *v);
		return;
	}
	uint16_t *h = (uint16_t *)XH + i;
	for (int64_t c = 0; c < n; c++)
		h[c] = gemm_bf16_of((float)v[c]);
}

/*
 * The normalisation's passes over one graph (rows r0..r1) and the sparse
 * product's rows (csr_spmm_rows(), below) are memory-bound loops of element-wise IEEE operations
 * in double and float; the baseline x86-64 build runs them two doubles
 * a vector.  They are compiled for AVX-512, AVX2 and the baseline too, and
 * the program runs the CPU's best (GEMM_CLONES, gemm.h; GNN_MAX_CPU_ISA
 * holds it lower): each sum runs over the rows in the same order in every
 * version, and -std=c11 leaves floating-point contraction off (no FMA), so
 * every version gives the same bits.  The OpenMP loops stay outside them
 * (a version is a function of its own, so its loops are not outlined
 * three times).
 */

/* One graph's forward normalisation; mu, var: d doubles of scratch. */
static GEMM_INLINE void
gnorm_fwd_graph_body(void *Y, void *XH, real *is, const real *X, const real *gamma,
		     const real *beta, int64_t r0, int64_t r1, int64_t d, real eps, int bf,
		     double *mu, double *var)
{
	int64_t n = r1 - r0;
	memset(mu, 0, (size_t)d * sizeof *mu);
	memset(var, 0, (size_t)d * sizeof *var);
	/* GNCOLS columns at a time, so that the three passes over a
	 * graph's rows find them in cache; each column's sums run over the
	 * rows in order, as without blocks */
	for (int64_t c0 = 0; c0 < d; c0 += GNCOLS) {
		int64_t c1 = c0 + GNCOLS < d ? c0 + GNCOLS : d;
		for (int64_t r = r0; r < r1; r++)
			for (int64_t c = c0; c < c1; c++)
				mu[c] += X[r * d + c];
		for (int64_t c = c0; c < c1; c++)
			mu[c] /= (double)n;
		for (int64_t r = r0; r < r1; r++)
			for (int64_t c = c0; c < c1; c++) {
				double t = X[r * d + c] - mu[c];
				var[c] += t * t;
			}
		for (int64_t c = c0; c < c1; c++)
			is[c] = (real)(1 / sqrt(var[c] / (double)n + eps));
		for (int64_t r = r0; r < r1; r++) {
			real xr[GNCOLS], yr[GNCOLS];
			for (int64_t c = c0; c < c1; c++) {
				real xh = (real)((X[r * d + c] - mu[c]) * is[c]);
				xr[c - c0] = xh;
				yr[c - c0] = gamma[c] * xh + beta[c];
			}
			xh_put_row(XH, bf, r * d + c0, xr, c1 - c0);
			xh_put_row(Y, bf, r * d + c0, yr, c1 - c0);
		}
	}
}
GEMM_CLONES(gnorm_fwd_graph,
	    (void *Y, void *XH, real *is, const real *X, const real *gamma, const real *beta,
	     int64_t r0, int64_t r1, int64_t d, real eps, int bf, double *mu, double *var),
	    (Y, XH, is, X, gamma, beta, r0, r1, d, eps, bf, mu, var))

static inline void
gnorm_fwd_body(void *Y, void *XH, real *istd, const real *X, const real *gamma, const real *beta,
	       const int64_t *off, int G, int64_t d, real eps, int bf)
{
#pragma omp parallel if (PAR(off[G] * d))
	{
		double *mu = xcalloc((size_t)d, sizeof *mu);
		double *var = xcalloc((size_t)d, sizeof *var);
#pragma omp for schedule(dynamic, 1)
		for (int g = 0; g < G; g++)
			if (off[g + 1] > off[g])
				gnorm_fwd_graph(Y, XH, istd + (int64_t)g * d, X, gamma, beta,
						off[g], off[g + 1], d, eps, bf, mu, var);
		free(mu);
		free(var);
	}
}

void
nn_gnorm_fwd(real *Y, real *XH, real *istd, const real *X, const real *gamma, const real *beta,
	     const int64_t *off, int G, int64_t d, real eps)
{
	gnorm_fwd_body(Y, XH, istd, X, gamma, beta, off, G, d, eps, 0);
}

void
nn_gnorm_fwd_xb(uint16_t *Y, uint16_t *XH, real *istd, const real *X, const real *gamma,
		const real *beta, const int64_t *off, int G, int64_t d, real eps)
{
	gnorm_fwd_body(Y, XH, istd, X, gamma, beta, off, G, d, eps, 1);
}

/* One graph's backward normalisation: its sums of dY and dY XH into a
 * and b (d doubles each, zero), its rows of dX. */
static GEMM_INLINE void
gnorm_bwd_graph_body(void *dX, double *a, double *b, const real *dY, const void *XH, const real *is,
		     const real *gamma, int64_t r0, int64_t r1, int64_t d, int bf)
{
	int64_t n = r1 - r0;
	for (int64_t c0 = 0; c0 < d; c0 += GNCOLS) { /* as gnorm_fwd_graph */
		int64_t c1 = c0 + GNCOLS < d ? c0 + GNCOLS : d;
		real buf[GNCOLS];
		for (int64_t r = r0; r < r1; r++) {
			const real *xr = xh_row(buf, XH, bf, r * d + c0, c1 - c0);
			for (int64_t c = c0; c < c1; c++) {
				a[c] += dY[r * d + c];
				b[c] += dY[r * d + c] * xr[c - c0];
			}
		}
		for (int64_t r = r0; r < r1; r++) {
			const real *xr = xh_row(buf, XH, bf, r * d + c0, c1 - c0);
			real dr[GNCOLS];
			for (int64_t c = c0; c < c1; c++) {
				/* dXH = gamma dY; sums of dXH are gamma * sums */
				double t = (double)n * dY[r * d + c] - a[c] - xr[c - c0] * b[c];
				dr[c - c0] = (real)(gamma[c] * is[c] * t / (double)n);
			}
			xh_put_row(dX, bf, r * d + c0, dr, c1 - c0);
		}
	}
}
GEMM_CLONES(gnorm_bwd_graph,
	    (void *dX, double *a, double *b, const real *dY, const void *XH, const real *is,
	     const real *gamma, int64_t r0, int64_t r1, int64_t d, int bf),
	    (dX, a, b, dY, XH, is, gamma, r0, r1, d, bf))

/* dX and XH both fp32 (bf 0) or both bf16 (bf 1); dY may be dX's
 * memory when both are fp32 (a row is computed before it is stored) */
static inline void
gnorm_bwd_body(void *dX, real *dgamma, real *dbeta, const real *dY, const void *XH,
	       const real *istd, const real *gamma, const int64_t *off, int G, int64_t d, int bf)
{
	/* Per-graph sums of dY and dY XH: they give dgamma/dbeta (reduced
	 * serially below) and the two terms of the input gradient. */
	double *s1 = xcalloc((size_t)G * (size_t)d, sizeof *s1);
	double *s2 = xcalloc((size_t)G * (size_t)d, sizeof *s2);
#pragma omp parallel for schedule(dynamic, 1) if (PAR(off[G] * d))
	for (int g = 0; g < G; g++)
		if (off[g + 1] > off[g])
			gnorm_bwd_graph(dX, s1 + (int64_t)g * d, s2 + (int64_t)g * d, dY, XH,
					istd + (int64_t)g * d, gamma, off[g], off[g + 1], d, bf);
	for (int g = 0; g < G; g++)
		for (int64_t c = 0; c < d; c++) {
			dbeta[c] += (real)s1[(int64_t)g * d + c];
			dgamma[c] += (real)s2[(int64_t)g * d + c];
		}
	free(s1);
	free(s2);
}

/*
 * The neighbours' rows are read in the graph's order, which the hardware
 * cannot guess: each is asked for SPMM_AHEAD entries before its turn.  On
 * ML-1M's training graph (1.4 M entries, rows of 512) that made the
 * product 1.5 times faster (143 to 96 ms, one thread); where the rows fit
 * in cache (Cora, ML-100K) it changed nothing.  The sums are the same.
 */
#define SPMM_AHEAD 4
static inline void
prefetch_row(const void *X, int bf, int64_t i, int64_t d)
{
#ifdef __GNUC__
	int64_t es = bf ? 2 : (int64_t)sizeof(real);
	const char *x = (const char *)X + i * es;
	for (int64_t b = 0; b < d * es; b += 64)
		__builtin_prefetch(x + b);
#else
	(void)X, (void)bf, (void)i, (void)d;
#endif
}

void
nn_gnorm_bwd(real *dX, real *dgamma, real *dbeta, const real *dY, const real *XH, const real *istd,
	     const real *gamma, const int64_t *off, int G, int64_t d)
{
	gnorm_bwd_body(dX, dgamma, dbeta, dY, XH, istd, gamma, off, G, d, 0);
}

void
nn_gnorm_bwd_xb(uint16_t *dX, real *dgamma, real *dbeta, const real *dY, const uint16_t *XH,
		const real *istd, const real *gamma, const int64_t *off, int G, int64_t d)
{
	gnorm_bwd_body(dX, dgamma, dbeta, dY, XH, istd, gamma, off, G, d, 1);
}

/* Rows r0..r1 of the sparse product (csr_spmm_body()). */
static GEMM_INLINE void
csr_spmm_rows_body(real *Y, uint16_t *Yb, const int64_t *rp, const int32_t *ci, const real *av,
		   const void *X, int64_t r0, int64_t r1, int64_t N, int64_t d, int relu, int bf)
{
	for (int64_t r = r0; r < r1; r++) {
		real *y = Y + r * d;
		memset(y, 0, (size_t)d * sizeof *y);
		for (int64_t e = rp[r]; e < rp[r + 1]; e++) {
			if (e + SPMM_AHEAD < rp[N])
				prefetch_row(X, bf, (int64_t)ci[e + SPMM_AHEAD] * d, d);
			int64_t x = (int64_t)ci[e] * d;
			real a = av[e];
			/* bf is loop-invariant here: the compiler unswitches
			 * the loop and vectorises both versions */
			for (int64_t c = 0; c < d; c++)
				y[c] += a * (bf ? (real)gemm_f32_of(((const uint16_t *)X)[x + c])
						: ((const real *)X)[x + c]);
		}
		if (relu) /* while the row is in cache */
#pragma omp simd
			for (int64_t c = 0; c < d; c++)
				y[c] = y[c] > 0 ? y[c] : 0;
		if (Yb)
			xh_put_row(Yb, 1, r * d, y, d);
	}
}
GEMM_CLONES(csr_spmm_rows,
	    (real * Y, uint16_t *Yb, const int64_t *rp, const int32_t *ci, const real *av,
	     const void *X, int64_t r0, int64_t r1, int64_t N, int64_t d, int relu, int bf),
	    (Y, Yb, rp, ci, av, X, r0, r1, N, d, relu, bf))

/* Rows handed out SPMM_ROWS at a time (each row's sums are its own, so
 * any schedule gives the same values). */
#define SPMM_ROWS 256
static inline void
csr_spmm_body(real *Y, uint16_t *Yb, const int64_t *rp, const int32_t *ci, const real *av,
	      const void *X, int64_t N, int64_t d, int relu, int bf)
{
	/* Whole rows: each neighbour row is one contiguous read.  (Column
	 * panels that keep a graph's rows in L2 measured slower here.) */
#pragma omp parallel for schedule(dynamic, 1) if (PAR(N * d))
	for (int64_t r0 = 0; r0 < N; r0 += SPMM_ROWS)
		csr_spmm_rows(Y, Yb, rp, ci, av, X, r0, r0 + SPMM_ROWS < N ? r0 + SPMM_ROWS : N, N,
			      d, relu, bf);
}

void
nn_csr_spmm(real *Y, const int64_t *rp, const int32_t *ci, const real *av, const real *X, int64_t N,
	    int64_t d, int relu)
{
	csr_spmm_body(Y, NULL, rp, ci, av, X, N, d, relu, 0);
}

void
nn_csr_spmm_xb(real *Y, uint16_t *Yb, const int64_t *rp, const int32_t *ci, const real *av,
	       const uint16_t *X, int64_t N, int64_t d, int relu)
{
	csr_spmm_body(Y, Yb, rp, ci, av, X, N, d, relu, 1);
}

/* Elements i0..i1 of nn_relu_bwd_xb() (GEMM_CLONES). */
static GEMM_INLINE void
relu_bwd_xb_range_body(uint16_t *dx, const real *dy, const real *y, int64_t i0, int64_t i1)
{
	for (int64_t i = i0; i < i1; i++) {
		uint16_t g = gemm_bf16_of((float)dy[i]); /* as nn_relu_bwd: no branch */
		dx[i] = y[i] > 0 ? g : 0;
	}
}
GEMM_CLONES(relu_bwd_xb_range,
	    (uint16_t * dx, const real *dy, const real *y, int64_t i0, int64_t i1),
	    (dx, dy, y, i0, i1))

void
nn_relu_bwd_xb(uint16_t *dx, const real *dy, const real *y, int64_t n)
{
#pragma omp parallel for schedule(static) if (PAR(n))
	for (int64_t i0 = 0; i0 < n; i0 += NN_CHUNK)
		relu_bwd_xb_range(dx, dy, y, i0, i0 + NN_CHUNK < n ? i0 + NN_CHUNK : n);
}

/* ------------------------------------------------------------------ */
/* layer mixing */

void
nn_mix_weights(real *w, const real *psi, int L)
{
	double mx = psi[0], s = 0;
	for (int l = 1; l < L; l++)
		if (psi[l] > mx)
			mx = psi[l];
	for (int l = 0; l < L; l++)
		s += exp(psi[l] - mx);
	for (int l = 0; l < L; l++)
		w[l] = (real)(exp(psi[l] - mx) / s);
}

#define MIX_MAXL 64

void
nn_mix_fwd(real *F, real *const *H, const real *alpha, const real *psi, const int32_t *idx, int L,
	   int64_t R, int64_t d)
{
	real w[MIX_MAXL];
	nn_mix_weights(w, psi, L);
#pragma omp parallel for schedule(static) if (PAR(R * d * L))
	for (int64_t r = 0; r < R; r++) {
		real *f = F + r * d;
		int64_t hr = idx ? idx[r] : r;
		const real *h0 = H[0] + hr * d;
		for (int64_t c = 0; c < d; c++)
			f[c] = w[0] * h0[c];
		for (int l = 1; l < L; l++) {
			const real *h = H[l] + hr * d;
			for (int64_t c = 0; c < d; c++)
				f[c] += w[l] * h[c];
		}
		for (int64_t c = 0; c < d; c++)
			f[c] *= alpha[c];
	}
}

void
nn_mix_bwd_params(real *dalpha, real *dpsi, const real *dF, real *const *H, const real *alpha,
		  const real *psi, const int32_t *idx, int L, int64_t R, int64_t d)
{
	real w[MIX_MAXL];
	double dw[MIX_MAXL] = { 0 };
	nn_mix_weights(w, psi, L);
	/* G_l[c] = sum_r dF[r][c] H_l[idx[r]][c]; then dalpha = sum_l w_l G_l
	 * and dw_l = alpha . G_l. */
	double *G = xmallocarray((size_t)(d * L), sizeof *G);
	colsums(G, dF, H, L, idx, R, d);
	for (int64_t c = 0; c < d; c++) {
		double da = 0;
		for (int l = 0; l < L; l++) {
			da += w[l] * G[l * d + c];
			dw[l] += alpha[c] * G[l * d + c];
		}
		dalpha[c] += (real)da;
	}
	free(G);
	double dot = 0;
	for (int l = 0; l < L; l++)
		dot += w[l] * dw[l];
	for (int l = 0; l < L; l++)
		dpsi[l] += (real)(w[l] * (dw[l] - dot));
}

void
nn_mix_bwd_input(real *dH, const real *dF, const real *alpha, const real *psi, const int32_t *idx,
		 int l, int L, int64_t R, int64_t d, int unique)
{
	real w[MIX_MAXL], *s = xmallocarray((size_t)d, sizeof *s);
	nn_mix_weights(w, psi, L);
	for (int64_t c = 0; c < d; c++)
		s[c] = w[l] * alpha[c];
	if (unique) {
/* every row of dH is written by one r: split the rows */
#pragma omp parallel for schedule(static) if (PAR(R * d))
		for (int64_t r = 0; r < R; r++) {
			real *h = dH + (idx ? idx[r] : r) * d;
			const real *g = dF + r * d;
			for (int64_t c = 0; c < d; c++)
				h[c] += s[c] * g[c];
		}
	} else {
		/* repeated rows: split the columns, each thread keeps the order */
		int64_t cb = 128, nb = (d + cb - 1) / cb;
#pragma omp parallel for schedule(static) if (PAR(R * d))
		for (int64_t b = 0; b < nb; b++) {
			int64_t c0 = b * cb, c1 = c0 + cb < d ? c0 + cb : d;
			for (int64_t r = 0; r < R; r++) {
				real *h = dH + (idx ? idx[r] : r) * d;
				const real *g = dF + r * d;
				for (int64_t c = c0; c < c1; c++)
					h[c] += s[c] * g[c];
			}
		}
	}
	free(s);
}

/* ------------------------------------------------------------------ */
/* NTN */

/*
 * a . b in DOT_LANES running sums (element i into sum i mod DOT_LANES),
 * added pairwise at the end: a fixed order, so the same value whatever
 * the thread count, and the sums vectorise where one running sum is a
 * chain of dependent adds (the candidate scorer of the cluster task spent
 * 4% of a bf16 step in it).
 */
#define DOT_LANES 8
static inline real
dotr(const real *a, const real *b, int64_t n)
{
	real s[DOT_LANES] = { 0 };
	int64_t i = 0;
	for (; i + DOT_LANES <= n; i += DOT_LANES)
		for (int j = 0; j < DOT_LANES; j++)
			s[j] += a[i + j] * b[i + j];
	for (; i < n; i++)
		s[i % DOT_LANES] += a[i] * b[i];
	for (int w = DOT_LANES / 2; w > 0; w /= 2)
		for (int j = 0; j < w; j++)
			s[j] += s[j + w];
	return s[0];
}

void
nn_ntn_pair_fwd(real *logit, real *XW, real *h, const real *X, const real *Y, ntn p, int64_t P,
		int64_t d, int k)
{
	int64_t kd = (int64_t)k * d;
	nn_gemm(0, 0, P, kd, d, p.s, X, d, p.W, kd, 0, XW, kd);
#pragma omp parallel for schedule(static) if (PAR(P * kd))
	for (int64_t i = 0; i < P; i++) {
		const real *x = X + i * d, *y = Y + i * d;
		real z = p.ob[0];
		for (int t = 0; t < k; t++) {
			real s = dotr(XW + i * kd + t * d, y, d) + p.b[t];
			for (int64_t a = 0; a < d; a++)
				s += x[a] * p.V[a * k + t] + y[a] * p.V[(d + a) * k + t];
			real ht = TANH(s);
			h[i * k + t] = ht;
			z += p.o[t] * ht;
		}
		logit[i] = z;
	}
}

void
nn_ntn_pair_bwd(real *dX, real *dY, ntn g, const real *dlogit, const real *XW, const real *h,
		const real *X, const real *Y, ntn p, int64_t P, int64_t d, int k, real *dXW)
{
	int64_t kd = (int64_t)k * d;
	double dob = 0, dO[16] = { 0 }, dB[16] = { 0 };
	real *dpre = xmalloc((size_t)(P * k) * sizeof *dpre);
	for (int64_t i = 0; i < P; i++) {
		dob += dlogit[i];
		for (int t = 0; t < k; t++) {
			real ht = h[i * k + t];
			dO[t] += (double)dlogit[i] * ht;
			real dp = dlogit[i] * p.o[t] * (1 - ht * ht);
			dpre[i * k + t] = dp;
			dB[t] += dp;
		}
	}
	g.ob[0] += (real)dob;
	for (int t = 0; t < k; t++) {
		g.o[t] += (real)dO[t];
		g.b[t] += (real)dB[t];
	}
	/* V: dV[0:d] += X^T dpre, dV[d:2d] += Y^T dpre. */
	nn_gemm(1, 0, d, k, P, 1, X, d, dpre, k, 1, g.V, k);
	nn_gemm(1, 0, d, k, P, 1, Y, d, dpre, k, 1, g.V + d * k, k);
	/* Linear part of the input gradients. */
	nn_gemm(0, 1, P, d, k, 1, dpre, k, p.V, k, 0, dX, d);
	nn_gemm(0, 1, P, d, k, 1, dpre, k, p.V + d * k, k, 0, dY, d);
	/* Bilinear part: dY += sum_t dpre_t XW_t, dXW_t = dpre_t y, then
	 * dW += X^T dXW and dX += dXW W^T, NTN_CHUNK rows at a time so that
	 * dXW stays small. */
	for (int64_t i0 = 0; i0 < P; i0 += NTN_CHUNK) {
		int64_t n = P - i0 < NTN_CHUNK ? P - i0 : NTN_CHUNK;
#pragma omp parallel for schedule(static) if (PAR(n * kd))
		for (int64_t i = i0; i < i0 + n; i++) {
			real *dy = dY + i * d;
			const real *y = Y + i * d;
			for (int t = 0; t < k; t++) {
				real dp = dpre[i * k + t];
				const real *xw = XW + i * kd + t * d;
				real *dxw = dXW + (i - i0) * kd + t * d;
				for (int64_t a = 0; a < d; a++) {
					dy[a] += dp * xw[a];
					dxw[a] = dp * y[a];
				}
			}
		}
		nn_gemm(1, 0, d, kd, n, p.s, X + i0 * d, d, dXW, kd, 1, g.W, kd);
		nn_gemm(0, 1, n, d, kd, p.s, dXW, kd, p.W, kd, 1, dX + i0 * d, d);
	}
	free(dpre);
}

void
nn_ntn_cand_fwd(real *logit, real *CW, real *XV, real *CV, real *h, const real *X, const real *C,
		ntn p, const int32_t *cbeg, const int32_t *cnum, int64_t Q, int64_t S, int kmax,
		int64_t d, int k)
{
	int64_t kd = (int64_t)k * d;
	/* CW[s][t] = W_t c_s: C W_t^T, W_t at column t d of W (ld k d). */
	for (int t = 0; t < k; t++)
		nn_gemm(0, 1, S, d, d, p.s, C, d, p.W + t * d, kd, 0, CW + t * d, kd);
	nn_gemm(0, 0, Q, k, d, 1, X, d, p.V, k, 0, XV, k);
	nn_gemm(0, 0, S, k, d, 1, C, d, p.V + d * k, k, 0, CV, k);
#pragma omp parallel for schedule(static) if (PAR(Q * kmax * kd))
	for (int64_t q = 0; q < Q; q++) {
		const real *x = X + q * d;
		for (int j = 0; j < kmax; j++) {
			real *hq = h + (q * kmax + j) * k;
			if (j >= cnum[q]) {
				logit[q * kmax + j] = 0;
				for (int t = 0; t < k; t++)
					hq[t] = 0;
				continue;
			}
			int64_t s = cbeg[q] + j;
			real z = p.ob[0];
			for (int t = 0; t < k; t++) {
				real v = dotr(x, CW + s * kd + t * d, d) + XV[q * k + t] +
					 CV[s * k + t] + p.b[t];
				hq[t] = TANH(v);
				z += p.o[t] * hq[t];
			}
			logit[q * kmax + j] = z;
		}
	}
}

void
nn_ntn_cand_bwd(real *dX, real *dC, ntn g, const real *dlogit, const real *CW, const real *h,
		const real *X, const real *C, ntn p, const int32_t *cbeg, const int32_t *cnum,
		int64_t Q, int64_t S, int kmax, int64_t d, int k, real *dCW, real *dXV, real *dCV)
{
	int64_t kd = (int64_t)k * d;
	double dob = 0, dO[16] = { 0 }, dB[16] = { 0 };
	real *dpre = xcalloc((size_t)(Q * kmax * k), sizeof *dpre);
	memset(dCV, 0, (size_t)(S * k) * sizeof *dCV);
	for (int64_t q = 0; q < Q; q++) {
		for (int t = 0; t < k; t++)
			dXV[q * k + t] = 0;
		for (int j = 0; j < cnum[q]; j++) {
			real dl = dlogit[q * kmax + j];
			const real *hq = h + (q * kmax + j) * k;
			real *dp = dpre + (q * kmax + j) * k;
			dob += dl;
			for (int t = 0; t < k; t++) {
				dO[t] += (double)dl * hq[t];
				dp[t] = dl * p.o[t] * (1 - hq[t] * hq[t]);
				dB[t] += dp[t];
				dXV[q * k + t] += dp[t];
				dCV[(cbeg[q] + j) * k + t] += dp[t];
			}
		}
	}
	g.ob[0] += (real)dob;
	for (int t = 0; t < k; t++) {
		g.o[t] += (real)dO[t];
		g.b[t] += (real)dB[t];
	}
	/* dX = dXV Vx^T + sum_j,t dpre CW[s][t]. */
	nn_gemm(0, 1, Q, d, k, 1, dXV, k, p.V, k, 0, dX, d);
#pragma omp parallel for schedule(static) if (PAR(Q * kmax * kd))
	for (int64_t q = 0; q < Q; q++) {
		real *dx = dX + q * d;
		for (int j = 0; j < cnum[q]; j++) {
			const real *dp = dpre + (q * kmax + j) * k;
			const real *cw = CW + (int64_t)(cbeg[q] + j) * kd;
			for (int t = 0; t < k; t++)
				for (int64_t a = 0; a < d; a++)
					dx[a] += dp[t] * cw[t * d + a];
		}
	}
	/* dCW[s][t] = sum over (q, j) with cbeg[q] + j = s of dpre_t x_q.
	 * An inverse index (counting sort of the (q, j) by s, in q order)
	 * lets each thread own whole rows s and add in a fixed order. */
	int64_t *so = xcalloc((size_t)S + 1, sizeof *so), *cur;
	int64_t *qj = xmallocarray((size_t)(Q * kmax) + 1, sizeof *qj);
	for (int64_t q = 0; q < Q; q++)
		for (int j = 0; j < cnum[q]; j++)
			so[cbeg[q] + j + 1]++;
	for (int64_t c = 0; c < S; c++)
		so[c + 1] += so[c];
	cur = xmallocarray((size_t)S + 1, sizeof *cur);
	memcpy(cur, so, ((size_t)S + 1) * sizeof *cur);
	for (int64_t q = 0; q < Q; q++)
		for (int j = 0; j < cnum[q]; j++)
			qj[cur[cbeg[q] + j]++] = q * kmax + j;
	free(cur);
#pragma omp parallel for schedule(dynamic, 1) if (PAR(Q * kmax * kd))
	for (int64_t c = 0; c < S; c++) {
		real *dcw = dCW + c * kd;
		memset(dcw, 0, (size_t)kd * sizeof *dcw);
		for (int64_t e = so[c]; e < so[c + 1]; e++) {
			const real *x = X + (qj[e] / kmax) * d, *dp = dpre + qj[e] * k;
			for (int t = 0; t < k; t++)
				for (int64_t a = 0; a < d; a++)
					dcw[t * d + a] += dp[t] * x[a];
		}
	}
	free(so);
	free(qj);
	/* V */
	nn_gemm(1, 0, d, k, Q, 1, X, d, dXV, k, 1, g.V, k);
	nn_gemm(1, 0, d, k, S, 1, C, d, dCV, k, 1, g.V + d * k, k);
	/* dC = dCV Vy^T + sum_t dCW_t W_t;  dW_t += dCW_t^T C. */
	nn_gemm(0, 1, S, d, k, 1, dCV, k, p.V + d * k, k, 0, dC, d);
	for (int t = 0; t < k; t++) {
		nn_gemm(0, 0, S, d, d, p.s, dCW + t * d, kd, p.W + t * d, kd, 1, dC, d);
		nn_gemm(1, 0, d, d, S, p.s, dCW + t * d, kd, C, d, 1, g.W + t * d, kd);
	}
	free(dpre);
}

/* ------------------------------------------------------------------ */
/* ranking heads */

void
nn_rank_fwd(real *S, real *Z, const real *X, const real *W1, const real *b1, const real *w2,
	    const real *b2, int64_t R, int64_t d, int nh, int64_t hd)
{
	int64_t H = nh * hd;
	nn_lin_fwd(Z, X, W1, b1, R, d, H);
	nn_relu_fwd(Z, Z, R * H);
#pragma omp parallel for schedule(static) if (PAR(R * H))
	for (int64_t r = 0; r < R; r++)
		for (int t = 0; t < nh; t++)
			S[r * nh + t] = dotr(Z + r * H + t * hd, w2 + t * hd, hd) + b2[t];
}

void
nn_rank_bwd(real *dX, real *dW1, real *db1, real *dw2, real *db2, const real *dS, const real *Z,
	    const real *X, const real *W1, const real *w2, int64_t R, int64_t d, int nh, int64_t hd,
	    real *dZ)
{
	int64_t H = nh * hd;
	/* dw2[t] += sum_r dS[r][t] Z[r][t]: blocks of (t, columns). */
	int64_t nbh = (hd + COLBLK - 1) / COLBLK;
#pragma omp parallel for schedule(static) if (PAR(R * H))
	for (int64_t b = 0; b < nh * nbh; b++) {
		int t = (int)(b / nbh);
		int64_t c0 = (b % nbh) * COLBLK, c1 = c0 + COLBLK < hd ? c0 + COLBLK : hd;
		double acc[COLBLK] = { 0 };
		for (int64_t r = 0; r < R; r++) {
			const real *z = Z + r * H + t * hd;
			double ds = dS[r * nh + t];
			for (int64_t c = c0; c < c1; c++)
				acc[c - c0] += ds * z[c];
		}
		for (int64_t c = c0; c < c1; c++)
			dw2[t * hd + c] += (real)acc[c - c0];
	}
#pragma omp parallel for schedule(static) if (PAR(R * H))
	for (int64_t r = 0; r < R; r++)
		for (int t = 0; t < nh; t++) {
			real ds = dS[r * nh + t];
			const real *z = Z + r * H + t * hd; /* may be dz */
			real *dz = dZ + r * H + t * hd;
			for (int64_t c = 0; c < hd; c++)
				dz[c] = z[c] > 0 ? ds * w2[t * hd + c] : 0;
		}
	colsum_add(db2, dS, R, nh);
	nn_lin_bwd(dX, dW1, db1, dZ, X, W1, R, d, H, 0);
}

/* ------------------------------------------------------------------ */
/* attention aggregator */

void
nn_attn_fwd(real *C, real *T, real *a, const real *X, const real *Wa, const real *ba, const real *w,
	    const int64_t *soff, int64_t nseg, int64_t Ns, int64_t d, int64_t hd)
{
	nn_lin_fwd(T, X, Wa, ba, Ns, d, hd);
	nn_tanh_fwd(T, T, Ns * hd);
#pragma omp parallel for schedule(static) if (PAR(Ns * hd))
	for (int64_t r = 0; r < Ns; r++)
		a[r] = dotr(T + r * hd, w, hd);
#pragma omp parallel for schedule(dynamic, 1) if (PAR(Ns * d))
	for (int64_t s = 0; s < nseg; s++) {
		real *c = C + s * d;
		memset(c, 0, (size_t)d * sizeof *c);
		if (soff[s] == soff[s + 1])
			continue;
		double mx = a[soff[s]], z = 0;
		for (int64_t r = soff[s]; r < soff[s + 1]; r++)
			if (a[r] > mx)
				mx = a[r];
		for (int64_t r = soff[s]; r < soff[s + 1]; r++)
			z += exp(a[r] - mx);
		for (int64_t r = soff[s]; r < soff[s + 1]; r++) {
			a[r] = (real)(exp(a[r] - mx) / z);
			for (int64_t j = 0; j < d; j++)
				c[j] += a[r] * X[r * d + j];
		}
	}
}

void
nn_attn_bwd(real *dX, real *dWa, real *dba, real *dw, const real *dC, const real *T, const real *a,
	    const real *X, const real *Wa, const real *w, const int64_t *soff, int64_t nseg,
	    int64_t Ns, int64_t d, int64_t hd, real *dT, real *de)
{
#pragma omp parallel for schedule(dynamic, 1) if (PAR(Ns * d))
	for (int64_t s = 0; s < nseg; s++) {
		const real *dc = dC + s * d;
		double sum = 0;
		for (int64_t r = soff[s]; r < soff[s + 1]; r++) {
			real da = dotr(dc, X + r * d, d);
			de[r] = da;
			sum += (double)a[r] * da;
			for (int64_t j = 0; j < d; j++)
				dX[r * d + j] += a[r] * dc[j];
		}
		for (int64_t r = soff[s]; r < soff[s + 1]; r++)
			de[r] = a[r] * (de[r] - (real)sum);
	}
	/* dw += T^T de, dT = de w^T (1 - T^2). */
	nn_gemm(1, 0, hd, 1, Ns, 1, T, hd, de, 1, 1, dw, 1);
#pragma omp parallel for schedule(static) if (PAR(Ns * hd))
	for (int64_t r = 0; r < Ns; r++)
		for (int64_t j = 0; j < hd; j++) {
			real t = T[r * hd + j];
			dT[r * hd + j] = de[r] * w[j] * (1 - t * t);
		}
	nn_lin_bwd(dX, dWa, dba, dT, X, Wa, Ns, d, hd, 1);
}

/* ------------------------------------------------------------------ */
/* losses */

double
nn_bce_logits(real *dz, const real *z, const real *y, const real *wt, int64_t n)
{
	int64_t cnt = 0;
	double loss = 0;
	for (int64_t i = 0; i < n; i++)
		cnt += !wt || wt[i] != 0;
	for (int64_t i = 0; i < n; i++) {
		if (wt && wt[i] == 0) {
			dz[i] = 0;
			continue;
		}
		double x = z[i];
		/* log(1 + e^x) - y x, stable for either sign of x */
		loss += (x > 0 ? x + log1p(exp(-x)) : log1p(exp(x))) - y[i] * x;
		double sg = x >= 0 ? 1 / (1 + exp(-x)) : exp(x) / (1 + exp(x));
		dz[i] = (real)((sg - y[i]) / (double)cnt);
	}
	return cnt ? loss / (double)cnt : 0;
}

double
nn_softmax_xent(real *dz, int64_t *correct, const real *z, const int32_t *cnum, const int32_t *tgt,
		int64_t Q, int kmax)
{
	double loss = 0;
	int64_t ok = 0;
	for (int64_t q = 0; q < Q; q++) {
		const real *zq = z + q * kmax;
		real *dq = dz + q * kmax;
		double mx = zq[0], s = 0;
		int best = 0;
		for (int j = 1; j < cnum[q]; j++)
			if (zq[j] > mx) {
				mx = zq[j];
				best = j;
			}
		for (int j = 0; j < cnum[q]; j++)
			s += exp(zq[j] - mx);
		loss += mx + log(s) - zq[tgt[q]];
		ok += best == tgt[q];
		for (int j = 0; j < kmax; j++)
			dq[j] = j < cnum[q]
				    ? (real)((exp(zq[j] - mx) / s - (j == tgt[q])) / (double)Q)
				    : 0;
	}
	if (correct)
		*correct = ok;
	return Q ? loss / (double)Q : 0;
}

/* ------------------------------------------------------------------ */
/* readouts, projections and the objectives' losses */

void
nn_pool_fwd(real *P, int32_t *arg, const real *X, const int64_t *seg, int64_t nseg, int64_t d)
{
#pragma omp parallel for schedule(static) if (PAR(seg[nseg] * d))
	for (int64_t s = 0; s < nseg; s++) {
		real *mean = P + s * 2 * d, *mx = mean + d;
		int32_t *a = arg + s * d;
		int64_t n = seg[s + 1] - seg[s];
		for (int64_t j = 0; j < d; j++) {
			mean[j] = 0;
			mx[j] = 0;
			a[j] = -1;
		}
		for (int64_t r = seg[s]; r < seg[s + 1]; r++) {
			const real *x = X + r * d;
			for (int64_t j = 0; j < d; j++) {
				mean[j] += x[j];
				if (a[j] < 0 || x[j] > mx[j]) {
					mx[j] = x[j];
					a[j] = (int32_t)r;
				}
			}
		}
		for (int64_t j = 0; j < d && n > 0; j++)
			mean[j] /= (real)n;
	}
}

void
nn_pool_bwd(real *dX, const real *dP, const int32_t *arg, const int64_t *seg, int64_t nseg,
	    int64_t d)
{
#pragma omp parallel for schedule(static) if (PAR(seg[nseg] * d))
	for (int64_t s = 0; s < nseg; s++) {
		const real *dm = dP + s * 2 * d, *dx = dm + d;
		int64_t n = seg[s + 1] - seg[s];
		for (int64_t r = seg[s]; r < seg[s + 1]; r++)
			for (int64_t j = 0; j < d; j++)
				dX[r * d + j] = dm[j] / (real)n;
		for (int64_t j = 0; j < d; j++)
			if (arg[s * d + j] >= 0)
				dX[(int64_t)arg[s * d + j] * d + j] += dx[j];
	}
}

static double
row_norm(const real *x, int64_t d)
{
	double s = 0;
	for (int64_t j = 0; j < d; j++)
		s += (double)x[j] * x[j];
	s = sqrt(s);
	return s > 1e-12 ? s : 1e-12;
}

void
nn_l2norm_fwd(real *Y, const real *X, int64_t R, int64_t d)
{
#pragma omp parallel for schedule(static) if (PAR(R * d))
	for (int64_t r = 0; r < R; r++) {
		double n = row_norm(X + r * d, d);
		for (int64_t j = 0; j < d; j++)
			Y[r * d + j] = (real)(X[r * d + j] / n);
	}
}

void
nn_l2norm_bwd(real *dX, const real *dY, const real *Y, const real *X, int64_t R, int64_t d)
{
#pragma omp parallel for schedule(static) if (PAR(R * d))
	for (int64_t r = 0; r < R; r++) {
		double n = row_norm(X + r * d, d), yd = 0;
		for (int64_t j = 0; j < d; j++)
			yd += (double)Y[r * d + j] * dY[r * d + j];
		for (int64_t j = 0; j < d; j++)
			dX[r * d + j] = (real)((dY[r * d + j] - Y[r * d + j] * yd) / n);
	}
}

double
nn_nce_loss(real *dZ, int64_t *correct, const real *Z, const int32_t *pos, const int64_t *seg,
	    int64_t nseg, int64_t p, double tau, real *sim)
{
	int64_t R = seg[nseg], ok = 0;
	double loss = 0;

	memset(dZ, 0, (size_t)(R * p) * sizeof *dZ);
	/* segment by segment in order, each row's softmax over its segment:
	 * the gradient of a row collects its share as anchor and as
	 * candidate, so rows are not split between threads */
	for (int64_t s = 0; s < nseg; s++) {
		int64_t a = seg[s], n = seg[s + 1] - a;
		if (n < 2)
			continue;
#pragma omp parallel for schedule(static) if (PAR(n * n * p))
		for (int64_t i = 0; i < n; i++)
			for (int64_t j = 0; j < n; j++) {
				double t = 0;
				for (int64_t k = 0; k < p; k++)
					t += (double)Z[(a + i) * p + k] * Z[(a + j) * p + k];
				sim[i * n + j] = (real)(t / tau);
			}
		for (int64_t i = 0; i < n; i++) {
			int64_t ps = pos[a + i] - a;
			double mx = -INFINITY, sum = 0;
			int64_t best = -1;
			for (int64_t j = 0; j < n; j++)
				if (j != i && sim[i * n + j] > mx) {
					mx = sim[i * n + j];
					best = j;
				}
			for (int64_t j = 0; j < n; j++)
				if (j != i)
					sum += exp(sim[i * n + j] - mx);
			loss += mx + log(sum) - sim[i * n + ps];
			ok += best == ps;
			/* d loss_i / d sim_ij = softmax_ij - [j = pos], then
			 * d sim_ij = (z_j dz_i + z_i dz_j) / tau, over R */
			for (int64_t j = 0; j < n; j++) {
				if (j == i)
					continue;
				double g =
				    (exp(sim[i * n + j] - mx) / sum - (j == ps)) / tau / (double)R;
				for (int64_t k = 0; k < p; k++) {
					dZ[(a + i) * p + k] += (real)(g * Z[(a + j) * p + k]);
					dZ[(a + j) * p + k] += (real)(g * Z[(a + i) * p + k]);
				}
			}
		}
	}
	if (correct)
		*correct = ok;
	return R ? loss / (double)R : 0;
}

double
nn_sce_loss(real *dY, double *cos_sum, int64_t *cnt, const real *Y, const real *T, int64_t R,
	    int64_t F, double gamma)
{
	double loss = 0, cs = 0;
	int64_t n = 0;

	for (int64_t r = 0; r < R; r++)
		n += row_norm(T + r * F, F) > 1e-12;
	for (int64_t r = 0; r < R; r++) {
		const real *y = Y + r * F, *t = T + r * F;
		real *dy = dY + r * F;
		double ny = row_norm(y, F), nt = row_norm(t, F), yt = 0;
		for (int64_t j = 0; j < F; j++)
			dy[j] = 0;
		if (nt <= 1e-12)
			continue;
		for (int64_t j = 0; j < F; j++)
			yt += (double)y[j] * t[j];
		double c = yt / (ny * nt), e = 1 - c;
		loss += pow(e, gamma);
		cs += c;
		if (ny <= 1e-12)
			continue;
		/* d(1 - c)^g / dy = -g (1 - c)^(g-1) (t / (|y||t|) - c y / |y|^2) */
		double f = -gamma * pow(e, gamma - 1) / (double)n;
		for (int64_t j = 0; j < F; j++)
			dy[j] = (real)(f * (t[j] / (ny * nt) - c * y[j] / (ny * ny)));
	}
	*cos_sum += cs;
	*cnt += n;
	return n ? loss / (double)n : 0;
}

double
nn_mse_loss(real *dy, double *sse, const real *y, const real *t, int64_t n)
{
	double s = 0;
	for (int64_t i = 0; i < n; i++) {
		double e = (double)y[i] - t[i];
		s += e * e;
		dy[i] = (real)(2 * e / (double)n);
	}
	*sse += s;
	return n ? s / (double)n : 0;
}

/* ------------------------------------------------------------------ */

/* Adam's update of elements i0..i1: three divisions and a square root
 * each, in double; the clones run them eight (AVX-512) or four (AVX2) a
 * vector, which the baseline's two made the longest of the adaptation's
 * small loops (GEMM_CLONES: the same bits in every clone). */
static GEMM_INLINE void
adam_range_body(real *p, const real *g, real *m, real *v, int64_t i0, int64_t i1, double lr,
		double b1, double b2, double eps, double c1, double c2)
{
	for (int64_t i = i0; i < i1; i++) {
		double mi = b1 * m[i] + (1 - b1) * g[i];
		double vi = b2 * v[i] + (1 - b2) * (double)g[i] * g[i];
		m[i] = (real)mi;
		v[i] = (real)vi;
		p[i] -= (real)(lr * (mi / c1) / (sqrt(vi / c2) + eps));
	}
}
GEMM_CLONES(adam_range,
	    (real * p, const real *g, real *m, real *v, int64_t i0, int64_t i1, double lr,
	     double b1, double b2, double eps, double c1, double c2),
	    (p, g, m, v, i0, i1, lr, b1, b2, eps, c1, c2))

void
nn_adam_step(real *p, const real *g, real *m, real *v, int64_t n, double lr, double b1, double b2,
	     double eps, int64_t t)
{
	double c1 = 1 - pow(b1, (double)t), c2 = 1 - pow(b2, (double)t);
#pragma omp parallel for schedule(static) if (PAR(n))
	for (int64_t i0 = 0; i0 < n; i0 += NN_CHUNK)
		adam_range(p, g, m, v, i0, i0 + NN_CHUNK < n ? i0 + NN_CHUNK : n, lr, b1, b2, eps,
			   c1, c2);
}
