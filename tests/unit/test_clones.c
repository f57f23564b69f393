/*
 * test_clones.c - the versions of the loops around the products
 * (GEMM_CLONES in common/gemm.h: AVX-512, AVX2 and the baseline) give the
 * same bytes: each loop of nn.c and gemm.c that has versions runs under
 * every version this CPU has (gemm_isa_set()) on the same inputs, and its
 * outputs are compared with the baseline's byte for byte.  A version the
 * CPU lacks is skipped with a line saying so, and so is every version in
 * the portable build (make CLONES=no: the baseline alone).  Also
 * GNN_MAX_CPU_ISA's reading (gemm_isa_pick()).  Built in float like the
 * programs; the inputs have odd sizes (the vector loops' remainders), a
 * graph of one node and one of none, and the special values of bf16's
 * rounding.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "err.h"
#include "gemm.h"
#include "nn.h"

#ifdef NN_DOUBLE
#error "test_clones.c is the float build"
#endif

static uint64_t rs;

static uint64_t
next(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* uniform in [lo, hi) */
static float
unif(float lo, float hi)
{
	return lo + (hi - lo) * (float)((double)(next() >> 11) * 0x1p-53);
}

static float *
fill(int64_t n, float lo, float hi)
{
	float *x = xmallocarray((size_t)n, sizeof *x);
	for (int64_t i = 0; i < n; i++)
		x[i] = unif(lo, hi);
	return x;
}

/* What every loop wrote under one version, kept to compare. */
struct out {
	size_t n, cap;
	unsigned char *b;
};

static void
keep(struct out *o, const void *p, size_t bytes)
{
	if (o->n + bytes > o->cap) {
		o->cap = 2 * (o->n + bytes);
		o->b = xrealloc(o->b, o->cap);
	}
	memcpy(o->b + o->n, p, bytes);
	o->n += bytes;
}

/* The bf16 roundings: random values of every size, bf16's ties, and the
 * special values. */
static void
run_bf16(struct out *o)
{
	int64_t n = 200003;
	float *x = fill(n, -4, 4);
	uint16_t *y = xmallocarray((size_t)n, sizeof *y), *dx = xmallocarray((size_t)n, sizeof *dx);
	union {
		uint32_t u;
		float f;
	} v;
	for (int64_t i = 0; i < n; i += 7) { /* any bit pattern, NaNs and denormals too */
		v.u = (uint32_t)next();
		x[i] = v.f;
	}
	for (int64_t i = 3; i < n; i += 11) { /* ties: the low 16 bits 0x8000 */
		v.f = x[i];
		v.u = (v.u & 0xffff0000u) | 0x8000u;
		x[i] = v.f;
	}
	x[1] = INFINITY, x[2] = -INFINITY, x[4] = NAN, x[5] = 0.0f, x[6] = -0.0f;
	x[8] = 0x1p-140f, x[9] = 3.4028235e38f;
	gemm_to_bf16(y, x, n);
	keep(o, y, (size_t)n * sizeof *y);
	gemm_to_bf16(y, x + 1, 9999); /* one thread, an odd start */
	keep(o, y, 9999 * sizeof *y);
	float *dy = fill(n, -2, 2);
	nn_relu_bwd_xb(dx, dy, x, n);
	keep(o, dx, (size_t)n * sizeof *dx);
	free(x), free(y), free(dx), free(dy);
}

static void
run_adam(struct out *o)
{
	int64_t n = 70001;
	float *p = fill(n, -1, 1), *g = fill(n, -0.1f, 0.1f);
	float *m = xcalloc((size_t)n, sizeof *m), *v = xcalloc((size_t)n, sizeof *v);
	for (int64_t t = 1; t <= 3; t++) {
		nn_adam_step(p, g, m, v, n, 1e-3, 0.9, 0.999, 1e-8, t);
		for (int64_t i = 0; i < n; i++)
			g[i] = 0.5f * g[i] + 0.01f * p[i];
	}
	nn_adam_step(p, g, m, v, 1001, 1e-2, 0.9, 0.999, 1e-8, 4); /* one thread */
	keep(o, p, (size_t)n * sizeof *p);
	keep(o, m, (size_t)n * sizeof *m);
	keep(o, v, (size_t)n * sizeof *v);
	free(p), free(g), free(m), free(v);
}

/* The sparse product: a random symmetric-looking CSR matrix of N rows,
 * fp32 and bf16 operands, with and without relu. */
static void
run_spmm(struct out *o, int64_t N, int64_t d)
{
	int64_t *rp = xmallocarray((size_t)N + 1, sizeof *rp), nnz = 0;
	int32_t *ci = xmallocarray((size_t)N * 9, sizeof *ci);
	float *av = xmallocarray((size_t)N * 9, sizeof *av);
	rp[0] = 0;
	for (int64_t r = 0; r < N; r++) {
		int k = (int)(next() % 9); /* 0 to 8 entries, some rows empty */
		for (int j = 0; j < k; j++) {
			ci[nnz] = (int32_t)(next() % (uint64_t)N);
			av[nnz++] = unif(0.05f, 1);
		}
		rp[r + 1] = nnz;
	}
	float *X = fill(N * d, -1, 1), *Y = xmallocarray((size_t)(N * d), sizeof *Y);
	uint16_t *Xb = xmallocarray((size_t)(N * d), sizeof *Xb),
		 *Yb = xmallocarray((size_t)(N * d), sizeof *Yb);
	for (int relu = 0; relu < 2; relu++) {
		nn_csr_spmm(Y, rp, ci, av, X, N, d, relu);
		keep(o, Y, (size_t)(N * d) * sizeof *Y);
	}
	gemm_to_bf16(Xb, X, N * d);
	for (int relu = 0; relu < 2; relu++) {
		nn_csr_spmm_xb(Y, relu ? Yb : NULL, rp, ci, av, Xb, N, d, relu);
		keep(o, Y, (size_t)(N * d) * sizeof *Y);
		if (relu)
			keep(o, Yb, (size_t)(N * d) * sizeof *Yb);
	}
	free(rp), free(ci), free(av), free(X), free(Y), free(Xb), free(Yb);
}

/* The per-graph normalisation, forward and backward, fp32 and bf16:
 * graphs of 1, 0, 5, 300 and 2,000 nodes, d columns (more than one block
 * of 64 and a remainder). */
static void
run_gnorm(struct out *o, int64_t d)
{
	const int64_t sizes[] = { 1, 0, 5, 300, 2000 };
	const int G = 5;
	int64_t off[6] = { 0 };
	for (int g = 0; g < G; g++)
		off[g + 1] = off[g] + sizes[g];
	int64_t n = off[G] * d;
	float *X = fill(n, -3, 5), *gamma = fill(d, 0.5f, 1.5f), *beta = fill(d, -0.5f, 0.5f);
	float *istd = xcalloc((size_t)(G * d), sizeof *istd), *dY = fill(n, -1, 1);
	float *dg = xcalloc((size_t)d, sizeof *dg), *db = xcalloc((size_t)d, sizeof *db);
	/* room for fp32 (bf 0) or bf16 (bf 1); istd's rows of the graph of no
	 * node are not written */
	void *Y = xmallocarray((size_t)n, 4), *XH = xmallocarray((size_t)n, 4),
	     *dX = xmallocarray((size_t)n, 4);

	for (int bf = 0; bf < 2; bf++) {
		size_t rows = (size_t)n * (bf ? sizeof(uint16_t) : sizeof(float));
		if (bf)
			nn_gnorm_fwd_xb(Y, XH, istd, X, gamma, beta, off, G, d, 1e-5f);
		else
			nn_gnorm_fwd(Y, XH, istd, X, gamma, beta, off, G, d, 1e-5f);
		keep(o, Y, rows);
		keep(o, XH, rows);
		keep(o, istd, (size_t)(G * d) * sizeof *istd);
		if (bf)
			nn_gnorm_bwd_xb(dX, dg, db, dY, XH, istd, gamma, off, G, d);
		else
			nn_gnorm_bwd(dX, dg, db, dY, XH, istd, gamma, off, G, d);
		keep(o, dX, rows);
	}
	keep(o, dg, (size_t)d * sizeof *dg);
	keep(o, db, (size_t)d * sizeof *db);
	free(X), free(gamma), free(beta), free(Y), free(XH), free(istd), free(dY), free(dX);
	free(dg), free(db);
}

/* Every loop under version isa, from the same inputs. */
static struct out
run_all(int isa)
{
	struct out o = { 0 };
	cr_assert_eq(gemm_isa_set(isa), isa, "gemm_isa_set(%s)", gemm_isa_name(isa));
	rs = 12345;
	run_bf16(&o);
	run_adam(&o);
	run_spmm(&o, 3001, 37);
	run_spmm(&o, 700, 64);
	run_gnorm(&o, 150);
	run_gnorm(&o, 7);
	return o;
}

static void
same_as_base(int isa)
{
	if (gemm_isa_cpu() < isa)
		cr_skip_test("%s", GEMM_CLONED
				       ? "this CPU has not the version's instructions"
				       : "the portable build (CLONES=no) has the baseline alone");
	struct out b = run_all(GEMM_ISA_BASE), v = run_all(isa);
	cr_assert_eq(b.n, v.n);
	size_t i = 0;
	while (i < b.n && b.b[i] == v.b[i])
		i++;
	cr_expect_eq(i, b.n, "%s: byte %zu of %zu differs from the baseline's", gemm_isa_name(isa),
		     i, b.n);
	free(b.b), free(v.b);
}

Test(clones, avx2_is_the_baseline)
{
	same_as_base(GEMM_ISA_AVX2);
}

Test(clones, avx512_is_the_baseline)
{
	same_as_base(GEMM_ISA_AVX512);
}

Test(clones, max_cpu_isa)
{
	/* the program's version: the CPU's best, held to GNN_MAX_CPU_ISA */
	cr_expect_eq(gemm_isa(), gemm_isa_pick(getenv("GNN_MAX_CPU_ISA"), gemm_isa_cpu()));
	cr_expect_eq(gemm_isa_pick(NULL, GEMM_ISA_AVX512), GEMM_ISA_AVX512);
	cr_expect_eq(gemm_isa_pick("", GEMM_ISA_AVX2), GEMM_ISA_AVX2);
	cr_expect_eq(gemm_isa_pick("avx2", GEMM_ISA_AVX512), GEMM_ISA_AVX2);
	cr_expect_eq(gemm_isa_pick("AVX2", GEMM_ISA_AVX512), GEMM_ISA_AVX2);
	cr_expect_eq(gemm_isa_pick("default", GEMM_ISA_AVX512), GEMM_ISA_BASE);
	cr_expect_eq(gemm_isa_pick("avx512f", GEMM_ISA_AVX2), GEMM_ISA_AVX2, "a cap, not a demand");
	cr_expect_eq(gemm_isa_pick("avx2", GEMM_ISA_BASE), GEMM_ISA_BASE);
	cr_expect_eq(gemm_isa_pick("avx512", GEMM_ISA_AVX512), -1);
	cr_expect_eq(gemm_isa_pick("sse2", GEMM_ISA_AVX512), -1);
	cr_expect_eq(gemm_isa_set(GEMM_ISA_AVX512 + 5), gemm_isa_cpu(), "at most the CPU's");
	cr_expect_eq(gemm_isa_set(GEMM_ISA_BASE), GEMM_ISA_BASE);
	cr_expect_str_eq(gemm_isa_name(GEMM_ISA_AVX512), "avx512f");
	cr_expect_str_eq(gemm_isa_name(GEMM_ISA_AVX2), "avx2");
	cr_expect_str_eq(gemm_isa_name(GEMM_ISA_BASE), "default");
}
