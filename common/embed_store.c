/*
 * embed_store.c - gcn-embed's encoder in two passes over row blocks, the
 * activations in bf16, the block's input in memory or in a scratch file
 * (embed_store.h).
 */
#include "embed_store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "gemm.h"
#include "nn.h"

const char *const embed_store_name[EMBED_NSTORE] = { "auto", "fp32", "bf16", "file" };

#define COLS 64				 /* columns a thread sums at a time */
#define PARW(work) ((work) >= (1 << 16)) /* as nn.c's PAR: worth the threads */

int
embed_store_parse(const char *s)
{
	for (int i = 0; i < EMBED_NSTORE; i++)
		if (strcmp(s, embed_store_name[i]) == 0)
			return i;
	return -1;
}

void
embed_store_init(struct embed_store *s)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

void
embed_store_free(struct embed_store *s)
{
	void *own[] = { s->T, s->H, s->R1, s->R2, s->Rb, s->mu, s->cT };

	for (size_t i = 0; i < sizeof own / sizeof *own; i++)
		free(own[i]);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

double
embed_store_bytes(double n, double d, int file, double *disk)
{
	double rows = EMBED_STORE_ROWS;

	if (disk)
		*disk = file ? 2 * n * d : 0;
	/* T and the input; two fp32 row blocks, the file's bf16 one; the
	 * vectors of d */
	return 2 * n * d * (file ? 1 : 2) + 8 * rows * d + (file ? 2 * rows * d : 0) + 2 * 8 * d +
	       5 * 4 * d;
}

/* ---- the arrays and the file, sized once a graph ---- */

void *
embed_store_grow(void *p, size_t *cap, size_t want, size_t sz, size_t *grows)
{
	if (want <= *cap && p)
		return p;
	free(p);
	*cap = want;
	++*grows;
	return xmallocarray(want ? want : 1, sz);
}

/* The scratch file for bytes of input: made in $TMPDIR and unlinked at
 * once, its room taken now so that a full disk fails before the first
 * block (where the file system cannot reserve room, at the first write). */
static void
file_make(struct embed_store *s, int64_t bytes)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int e;

	if (s->fd >= 0 && s->file_cap >= bytes)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof path, "%s/gcn-embed-store.XXXXXX", dir) >= (int)sizeof path)
		die("TMPDIR: a path of %zu bytes is too long", strlen(dir));
	if ((s->fd = mkstemp(path)) < 0)
		die("%s: a scratch file for --store file (TMPDIR):", dir);
	unlink(path);
	e = posix_fallocate(s->fd, 0, (off_t)bytes);
	if (e != 0 && e != EOPNOTSUPP && e != EINVAL) {
		errno = e;
		die("%s: %.0f MiB of scratch for --store file:", dir, bytes / 0x1p20);
	}
	s->file_cap = bytes;
	s->grows++;
}

/* Every array of a graph of N nodes, width d, before its first block. */
static void
size_for(struct embed_store *s, int64_t N, int64_t d, int file)
{
	size_t nd = (size_t)N * (size_t)d, rd = (size_t)EMBED_STORE_ROWS * (size_t)d;

	s->T = embed_store_grow(s->T, &s->cap_T, nd, sizeof *s->T, &s->grows);
	if (!file)
		s->H = embed_store_grow(s->H, &s->cap_H, nd, sizeof *s->H, &s->grows);
	else
		file_make(s, (int64_t)nd * 2);
	if (!s->R1) { /* the model's sizes: d does not change within a run */
		s->R1 = xmallocarray(rd, sizeof *s->R1);
		s->R2 = xmallocarray(rd, sizeof *s->R2);
		s->Rb = xmallocarray(rd, sizeof *s->Rb);
		s->mu = xmallocarray(2 * (size_t)d, sizeof *s->mu); /* mu, m2 */
		s->m2 = s->mu + d;
		s->cT = xmallocarray(5 * (size_t)d, sizeof *s->cT); /* cT, cH, u, a, b */
		s->cH = s->cT + d;
		s->u = s->cH + d;
		s->a = s->u + d;
		s->b = s->a + d;
		s->grows += 5;
	}
}

/* ---- a row block's arithmetic ---- */

/* c (d) = the column means of the k rows of X, summed in order in
 * double. */
static void
col_means(real *c, const real *X, int64_t k, int64_t d)
{
#pragma omp parallel for schedule(static) if (PARW(k * d))
	for (int64_t c0 = 0; c0 < d; c0 += COLS) {
		int64_t c1 = c0 + COLS < d ? c0 + COLS : d;
		double t[COLS] = { 0 };
		for (int64_t r = 0; r < k; r++)
			for (int64_t j = c0; j < c1; j++)
				t[j - c0] += X[r * d + j];
		for (int64_t j = c0; j < c1; j++)
			c[j] = (real)(t[j - c0] / (double)k);
	}
}

/* The k rows of X (the rows n0 .. n0+k-1 of the graph) into the column
 * means mu and sums of squared deviations m2 of the rows before them:
 * the row block's own (two passes in double), merged as Chan, Golub and
 * LeVeque's pairwise update (1979), row blocks in order, so the result
 * does not depend on the threads. */
static void
stats_add(struct embed_store *s, const real *X, int64_t n0, int64_t k, int64_t d)
{
#pragma omp parallel for schedule(static) if (PARW(k * d))
	for (int64_t c0 = 0; c0 < d; c0 += COLS) {
		int64_t c1 = c0 + COLS < d ? c0 + COLS : d;
		double m[COLS] = { 0 }, q[COLS] = { 0 };
		for (int64_t r = 0; r < k; r++)
			for (int64_t j = c0; j < c1; j++)
				m[j - c0] += X[r * d + j];
		for (int64_t j = c0; j < c1; j++)
			m[j - c0] /= (double)k;
		for (int64_t r = 0; r < k; r++)
			for (int64_t j = c0; j < c1; j++) {
				double t = X[r * d + j] - m[j - c0];
				q[j - c0] += t * t;
			}
		for (int64_t j = c0; j < c1; j++) {
			if (n0 == 0) {
				s->mu[j] = m[j - c0];
				s->m2[j] = q[j - c0];
				continue;
			}
			double n = (double)(n0 + k), delta = m[j - c0] - s->mu[j];
			s->mu[j] += delta * (double)k / n;
			s->m2[j] += q[j - c0] + delta * delta * (double)n0 * (double)k / n;
		}
	}
}

/* Y (k x d bf16) = X - c, rounded to nearest even. */
static void
shift_round(uint16_t *Y, const real *X, const real *c, int64_t k, int64_t d)
{
#pragma omp parallel for schedule(static) if (PARW(k * d))
	for (int64_t r = 0; r < k; r++)
		for (int64_t j = 0; j < d; j++)
			Y[r * d + j] = gemm_bf16_of(X[r * d + j] - c[j]);
}

/* Y (n floats) = X (n bf16). */
static void
widen(real *Y, const uint16_t *X, int64_t n)
{
#pragma omp parallel for schedule(static) if (PARW(n))
	for (int64_t i = 0; i < n; i++)
		Y[i] = gemm_f32_of(X[i]);
}

/* u = c W (c: d, W: d x d), the bias that gives the shifted input's
 * product the unshifted one's: (H - c) W + c W = H W. */
static void
shift_bias(real *u, const real *c, const real *W, int64_t d)
{
	for (int64_t j = 0; j < d; j++) {
		double t = 0;
		for (int64_t i = 0; i < d; i++)
			t += (double)c[i] * W[i * d + j];
		u[j] = (real)t;
	}
}

/* The normalisation of T (N rows, shifted by cT into the store) as it
 * applies after Â: y = gamma (T - mu) istd + beta = a T' + b with
 * a = gamma istd, b = a (cT - mu) + beta (nn_gnorm_fwd()'s biased
 * variance and eps). */
static void
norm_coefs(struct embed_store *s, const real *gamma, const real *beta, int64_t N, int64_t d,
	   double eps)
{
	for (int64_t j = 0; j < d; j++) {
		double is = (real)(1 / sqrt(s->m2[j] / (double)N + eps));
		s->a[j] = (real)(gamma[j] * is);
		s->b[j] = (real)(gamma[j] * is * ((double)s->cT[j] - s->mu[j]) + beta[j]);
	}
}

/* Z (k rows of Â T', rows r0..) = relu(a Z + (Â 1) b), Â's row sums in
 * double. */
static void
norm_after(const struct embed_store *s, real *Z, const int64_t *rp, const real *av, int64_t r0,
	   int64_t k, int64_t d)
{
#pragma omp parallel for schedule(static) if (PARW(k * d))
	for (int64_t r = 0; r < k; r++) {
		double rs = 0;
		for (int64_t p = rp[r0 + r]; p < rp[r0 + r + 1]; p++)
			rs += av[p];
		real *z = Z + r * d;
		for (int64_t j = 0; j < d; j++) {
			real v = s->a[j] * z[j] + (real)rs * s->b[j];
			z[j] = v > 0 ? v : 0;
		}
	}
}

/* ---- the input out of core ---- */

/* n bytes at off of the scratch file, read or written whole. */
static void
file_io(int fd, void *buf, size_t n, int64_t off, int wr)
{
	char *p = buf;

	while (n > 0) {
		ssize_t k = wr ? pwrite(fd, p, n, (off_t)off) : pread(fd, p, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("the scratch file of --store file: %s:", wr ? "write" : "read");
		if (k == 0)
			die("the scratch file of --store file: cut short");
		p += k;
		n -= (size_t)k;
		off += k;
	}
}

/* ---- the pass ---- */

/* Pass 1 of block l: T' = relu(H W1) W2 - cT into the store, its
 * statistics gathered; H made from X (block 0) or read from the input. */
static void
pass1(struct embed_store *s, int l, const model *M, const batch *b)
{
	int64_t N = b->N, d = M->cfg.d, F = M->cfg.nfeat;

	if (l > 0)
		shift_bias(s->u, s->cH, M->P.W1[l], d);
	for (int64_t r0 = 0; r0 < N; r0 += EMBED_STORE_ROWS) {
		int64_t k = N - r0 < EMBED_STORE_ROWS ? N - r0 : EMBED_STORE_ROWS;
		if (l == 0) { /* H0 = tanh(X E + e) */
			nn_lin_fwd(s->R1, b->X + r0 * F, M->P.E, M->P.Eb, k, F, d);
			nn_tanh_fwd(s->R1, s->R1, k * d);
		} else if (s->fd >= 0) {
			file_io(s->fd, s->Rb, (size_t)(k * d) * 2, r0 * d * 2, 0);
			widen(s->R1, s->Rb, k * d);
		} else {
			widen(s->R1, s->H + r0 * d, k * d);
		}
		nn_lin_fwd(s->R2, s->R1, M->P.W1[l], l > 0 ? s->u : NULL, k, d, d);
		nn_relu_fwd(s->R2, s->R2, k * d);
		nn_lin_fwd(s->R1, s->R2, M->P.W2[l], NULL, k, d, d);
		if (r0 == 0)
			col_means(s->cT, s->R1, k, d);
		stats_add(s, s->R1, r0, k, d);
		shift_round(s->T + r0 * d, s->R1, s->cT, k, d);
	}
	if (l > 0 && s->fd >= 0) /* read: the cache may drop it */
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* Pass 2 of block l: Â's product over the store, normalised, relu; the
 * rows to emit and, before the last block, into the next one's input. */
static void
pass2(struct embed_store *s, int l, const model *M, const batch *b, embed_store_emit_fn emit,
      void *ctx)
{
	int64_t N = b->N, d = M->cfg.d;
	int last = l == M->cfg.layers - 1;

	norm_coefs(s, M->P.gam[l], M->P.bet[l], N, d, M->cfg.bn_eps);
	for (int64_t r0 = 0; r0 < N; r0 += EMBED_STORE_ROWS) {
		int64_t k = N - r0 < EMBED_STORE_ROWS ? N - r0 : EMBED_STORE_ROWS;
		nn_csr_spmm_xb(s->R1, NULL, b->rp + r0, b->ci, b->av, s->T, k, d, 0);
		norm_after(s, s->R1, b->rp, b->av, r0, k, d);
		emit(ctx, l, r0, k, s->R1);
		if (last)
			continue;
		if (r0 == 0)
			col_means(s->cH, s->R1, k, d);
		if (s->fd >= 0) {
			shift_round(s->Rb, s->R1, s->cH, k, d);
			file_io(s->fd, s->Rb, (size_t)(k * d) * 2, r0 * d * 2, 1);
		} else {
			shift_round(s->H + r0 * d, s->R1, s->cH, k, d);
		}
	}
}

void
embed_store_encode(struct embed_store *s, int file, const model *M, const batch *b,
		   embed_store_emit_fn emit, void *ctx)
{
	if (b->G != 1 || b->N < 1)
		die("internal error: the bf16 store takes one graph (%d, %" PRId64 " nodes)", b->G,
		    b->N);
	if (!file && s->fd >= 0) { /* a graph in memory after one out of core */
		close(s->fd);
		s->fd = -1;
		s->file_cap = 0;
	}
	size_for(s, b->N, M->cfg.d, file);
	for (int l = 0; l < M->cfg.layers; l++) {
		pass1(s, l, M, b);
		pass2(s, l, M, b, emit, ctx);
	}
}
