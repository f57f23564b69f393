/*
 * gemm.c - fp32 (OpenBLAS) and bf16 (oneDNN) matrix products (see gemm.h).
 *
 * The bf16 path: oneDNN's matmul primitive with bf16 source and weights
 * and an f32 destination, alpha as its output scale and beta C as a sum
 * post-op (both in fp32).  A primitive is made for each shape, transposes,
 * alpha, beta and thread count and kept in a small cache: within a run the
 * batch sizes repeat (gcn-adapt: every epoch; gcn-train --bench-steps:
 * every step), and a new shape costs 0.1-0.3 ms to create (measured),
 * against tens of milliseconds for the products themselves.  oneDNN's
 * runtime dimensions would avoid that, but take its slower gemm:jit
 * implementation instead of brgemm.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef GNN_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include "err.h"
#include "gemm.h"
#include "progress.h"

static int cur_prec = GEMM_FP32;

/* ---- the loops' versions (GEMM_CLONES) ---- */

int
gemm_isa_cpu(void)
{
#if GEMM_CLONED
	/* checks that the operating system saves the registers too */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return GEMM_ISA_AVX512;
	if (__builtin_cpu_supports("avx2"))
		return GEMM_ISA_AVX2;
#endif
	return GEMM_ISA_BASE;
}

const char *
gemm_isa_name(int isa)
{
	return isa == GEMM_ISA_AVX512 ? "avx512f" : isa == GEMM_ISA_AVX2 ? "avx2" : "default";
}

int
gemm_isa_pick(const char *want, int cpu)
{
	if (want == NULL || *want == '\0')
		return cpu;
	for (int isa = GEMM_ISA_BASE; isa <= GEMM_ISA_AVX512; isa++)
		if (strcasecmp(want, gemm_isa_name(isa)) == 0)
			return isa < cpu ? isa : cpu;
	return -1;
}

static int cur_isa = GEMM_ISA_BASE;

/* When the program starts, before any thread, once (as a loader's choice
 * of target_clones would be); before main, which has not named the
 * program yet: glibc hands a constructor main's arguments, so a bad
 * value's line names the program all the same. */
__attribute__((constructor)) static void
isa_init(int argc, char **argv)
{
	const char *want = getenv("GNN_MAX_CPU_ISA");
	int isa = gemm_isa_pick(want, gemm_isa_cpu());

	if (isa < 0) {
		if (argc > 0 && argv)
			err_setprog(argv[0]);
		die_usage("GNN_MAX_CPU_ISA=%s: expected avx512f, avx2 or default", want);
	}
	cur_isa = isa;
}

int
gemm_isa(void)
{
	return cur_isa;
}

int
gemm_isa_set(int isa)
{
	int cpu = gemm_isa_cpu();

	cur_isa = isa < GEMM_ISA_BASE ? GEMM_ISA_BASE : isa < cpu ? isa : cpu;
	return cur_isa;
}

int
gemm_precision_parse(const char *s)
{
	if (strcmp(s, "fp32") == 0)
		return GEMM_FP32;
	if (strcmp(s, "bf16") == 0)
		return GEMM_BF16;
	if (strcmp(s, "auto") == 0)
		return GEMM_AUTO;
	return -1;
}

const char *
gemm_precision_name(int prec)
{
	return prec == GEMM_BF16 ? "bf16" : prec == GEMM_AUTO ? "auto" : "fp32";
}

void
gemm_set_precision(int prec)
{
	cur_prec = prec == GEMM_BF16 ? GEMM_BF16 : GEMM_FP32;
}

int
gemm_precision(void)
{
	return cur_prec;
}

int
gemm_bf16_worth(int64_t M, int64_t N, int64_t K)
{
	return M >= 16 && N >= 16 && K >= 16 && (double)M * (double)N * (double)K >= 1048576.0;
}

static int
nthreads(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

static void
sgemm(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
      const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
	cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
		    (int)M, (int)N, (int)K, alpha, A, (int)lda, B, (int)ldb, beta, C, (int)ldc);
}

/* Elements i0..i1 of gemm_to_bf16(): 2.2 times as fast in the AVX-512
 * clone as in the baseline's (1.4 M values, one thread: 0.19 against
 * 0.43 ms). */
static GEMM_INLINE void
to_bf16_range_body(uint16_t *y, const float *x, int64_t i0, int64_t i1)
{
	for (int64_t i = i0; i < i1; i++)
		y[i] = gemm_bf16_of(x[i]);
}
GEMM_CLONES(to_bf16_range, (uint16_t * y, const float *x, int64_t i0, int64_t i1), (y, x, i0, i1))

/* Values a thread's call of a clone takes at a time: every value is
 * its own, so any split gives the same bits. */
#define GEMM_CHUNK 8192

void
gemm_to_bf16(uint16_t *y, const float *x, int64_t n)
{
#pragma omp parallel for schedule(static) if (n >= (1 << 16))
	for (int64_t i0 = 0; i0 < n; i0 += GEMM_CHUNK)
		to_bf16_range(y, x, i0, i0 + GEMM_CHUNK < n ? i0 + GEMM_CHUNK : n);
}

void
gemm_relu_mask_bf16(uint16_t *y, const uint16_t *m, int64_t n)
{
#pragma omp parallel for schedule(static) if (n >= (1 << 16))
	for (int64_t i = 0; i < n; i++)
		y[i] = m[i] != 0 && !(m[i] & 0x8000u) ? y[i] : 0;
}

/* rows x cols of x (leading dimension ld) into y packed (ld cols) */
static void
to_bf16_2d(uint16_t *y, const float *x, int64_t rows, int64_t cols, int64_t ld)
{
	if (ld == cols) {
		gemm_to_bf16(y, x, rows * cols);
		return;
	}
#pragma omp parallel for schedule(static) if (rows * cols >= (1 << 16))
	for (int64_t r = 0; r < rows; r++)
		for (int64_t c = 0; c < cols; c++)
			y[r * cols + c] = gemm_bf16_of(x[r * ld + c]);
}

#ifdef GNN_DNNL

#define NCACHE 64

struct prim {
	int used;
	int ta, tb, nthr, flags;
	int64_t M, N, K, lda, ldb, ldc;
	float alpha, beta;
	dnnl_primitive_t p;
	dnnl_memory_t a, b, c;
	char impl[64]; /* oneDNN's implementation */
};

static struct {
	int init; /* 1 ready, -1 no engine */
	dnnl_engine_t eng;
	dnnl_stream_t st;
	struct prim cache[NCACHE];
	int next;	   /* the entry replaced next when the cache is full */
	uint16_t *sa, *sb; /* converted operands */
	size_t capa, capb;
} D;

#define DNNL_OK(call) \
	do { \
		dnnl_status_t s_ = (call); \
		if (s_ != dnnl_success) \
			die("internal error: oneDNN: %s: status %d", #call, (int)s_); \
	} while (0)

static int
dnnl_ready(void)
{
	if (D.init)
		return D.init > 0;
	D.init = -1;
	if (dnnl_engine_create(&D.eng, dnnl_cpu, 0) != dnnl_success)
		return 0;
	if (dnnl_stream_create(&D.st, D.eng, dnnl_stream_default_flags) != dnnl_success) {
		dnnl_engine_destroy(D.eng);
		return 0;
	}
	D.init = 1;
	return 1;
}

static void
prim_free(struct prim *e)
{
	if (!e->used)
		return;
	dnnl_primitive_destroy(e->p);
	dnnl_memory_destroy(e->a);
	dnnl_memory_destroy(e->b);
	dnnl_memory_destroy(e->c);
	memset(e, 0, sizeof *e);
}

/*
 * The matmul primitive for op(A) (M x K) op(B) (K x N) into C, bf16
 * operands with leading dimensions lda, ldb as stored, or NULL (with
 * *impl "") when oneDNN has none; *impl: its implementation's name.
 */
static struct prim *
prim_get(int ta, int tb, int64_t M, int64_t N, int64_t K, int64_t lda, int64_t ldb, int64_t ldc,
	 float alpha, float beta, int flags, const char **impl)
{
	int nthr = nthreads();
	for (int i = 0; i < NCACHE; i++) {
		struct prim *e = &D.cache[i];
		if (e->used && e->ta == ta && e->tb == tb && e->M == M && e->N == N && e->K == K &&
		    e->lda == lda && e->ldb == ldb && e->ldc == ldc && e->alpha == alpha &&
		    e->beta == beta && e->nthr == nthr && e->flags == flags) {
			if (impl)
				*impl = e->impl;
			return e;
		}
	}
	/* op(A) is M x K: stored M x K (row stride lda) or K x M (transposed) */
	dnnl_memory_desc_t ad, bd, cd;
	dnnl_dims_t adim = { M, K }, bdim = { K, N }, cdim = { M, N };
	dnnl_dims_t as = { ta ? 1 : lda, ta ? lda : 1 }, bs = { tb ? 1 : ldb, tb ? ldb : 1 },
		    cs = { ldc, 1 };
	DNNL_OK(dnnl_memory_desc_init_by_strides(&ad, 2, adim, dnnl_bf16, as));
	DNNL_OK(dnnl_memory_desc_init_by_strides(&bd, 2, bdim, dnnl_bf16, bs));
	DNNL_OK(dnnl_memory_desc_init_by_strides(&cd, 2, cdim,
						 flags & GEMM_OUT_BF16 ? dnnl_bf16 : dnnl_f32, cs));
	dnnl_matmul_desc_t md;
	DNNL_OK(dnnl_matmul_desc_init(&md, &ad, &bd, NULL, &cd));
	dnnl_primitive_attr_t attr;
	DNNL_OK(dnnl_primitive_attr_create(&attr));
	if (alpha != 1)
		DNNL_OK(dnnl_primitive_attr_set_output_scales(attr, 1, 0, &alpha));
	if (beta != 0 || flags & GEMM_RELU) {
		dnnl_post_ops_t po;
		DNNL_OK(dnnl_post_ops_create(&po));
		if (beta != 0)
			DNNL_OK(dnnl_post_ops_append_sum(po, beta));
		if (flags & GEMM_RELU)
			DNNL_OK(dnnl_post_ops_append_eltwise(po, 1, dnnl_eltwise_relu, 0, 0));
		DNNL_OK(dnnl_primitive_attr_set_post_ops(attr, po));
		dnnl_post_ops_destroy(po);
	}
	dnnl_primitive_desc_t pd;
	dnnl_status_t s = dnnl_primitive_desc_create(&pd, &md, attr, D.eng, NULL);
	dnnl_primitive_attr_destroy(attr);
	if (s != dnnl_success) {
		if (impl)
			*impl = "";
		return NULL;
	}
	const char *nm = "";
	DNNL_OK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &nm));
	struct prim *e = NULL;
	for (int i = 0; i < NCACHE && !e; i++)
		if (!D.cache[i].used)
			e = &D.cache[i];
	if (!e) {
		e = &D.cache[D.next];
		D.next = (D.next + 1) % NCACHE;
		prim_free(e);
	}
	DNNL_OK(dnnl_primitive_create(&e->p, pd));
	DNNL_OK(dnnl_memory_create(&e->a, &ad, D.eng, DNNL_MEMORY_NONE));
	DNNL_OK(dnnl_memory_create(&e->b, &bd, D.eng, DNNL_MEMORY_NONE));
	DNNL_OK(dnnl_memory_create(&e->c, &cd, D.eng, DNNL_MEMORY_NONE));
	snprintf(e->impl, sizeof e->impl, "%s", nm);
	dnnl_primitive_desc_destroy(pd);
	if (impl)
		*impl = e->impl;
	e->used = 1;
	e->ta = ta;
	e->tb = tb;
	e->M = M;
	e->N = N;
	e->K = K;
	e->lda = lda;
	e->ldb = ldb;
	e->ldc = ldc;
	e->alpha = alpha;
	e->beta = beta;
	e->nthr = nthr;
	e->flags = flags;
	return e;
}

static void
run_bf16(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const uint16_t *A,
	 int64_t lda, const uint16_t *B, int64_t ldb, float beta, void *C, int64_t ldc, int flags)
{
	if (!dnnl_ready())
		die("internal error: bf16 product without oneDNN");
	if (flags & GEMM_OUT_BF16 && beta != 0)
		die("internal error: a bf16 result cannot be accumulated into");
	struct prim *e = prim_get(ta, tb, M, N, K, lda, ldb, ldc, alpha, beta, flags, NULL);
	if (!e)
		die("internal error: oneDNN has no bf16 matmul for %lld x %lld x %lld",
		    (long long)M, (long long)N, (long long)K);
	DNNL_OK(dnnl_memory_set_data_handle(e->a, (void *)A));
	DNNL_OK(dnnl_memory_set_data_handle(e->b, (void *)B));
	DNNL_OK(dnnl_memory_set_data_handle(e->c, C));
	dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, e->a },
				    { DNNL_ARG_WEIGHTS, e->b },
				    { DNNL_ARG_DST, e->c } };
	DNNL_OK(dnnl_primitive_execute(e->p, D.st, 3, args));
	DNNL_OK(dnnl_stream_wait(D.st));
}

static uint16_t *
scratch(uint16_t **p, size_t *cap, size_t n)
{
	if (n > *cap) {
		free(*p);
		*cap = n + n / 16;
		*p = xmallocarray(*cap, sizeof **p);
	}
	return *p;
}

void
gemm_bf16(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const uint16_t *A,
	  int64_t lda, const uint16_t *B, int64_t ldb, float beta, void *C, int64_t ldc, int flags)
{
	run_bf16(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, flags);
}

void
gemm_f32(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
	 const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
	if (cur_prec != GEMM_BF16 || !gemm_bf16_worth(M, N, K)) {
		sgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
		return;
	}
	/* stored shapes: A is M x K or K x M, B is K x N or N x K */
	int64_t ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
	uint16_t *a = scratch(&D.sa, &D.capa, (size_t)(ar * ac));
	uint16_t *b = scratch(&D.sb, &D.capb, (size_t)(br * bc));
	to_bf16_2d(a, A, ar, ac, lda);
	to_bf16_2d(b, B, br, bc, ldb);
	run_bf16(ta, tb, M, N, K, alpha, a, ac, b, bc, beta, C, ldc, 0);
}

void
gemm_release(void)
{
	for (int i = 0; i < NCACHE; i++)
		prim_free(&D.cache[i]);
	free(D.sa);
	free(D.sb);
	D.sa = D.sb = NULL;
	D.capa = D.capb = 0;
	D.next = 0;
	if (D.init > 0) {
		dnnl_stream_destroy(D.st);
		dnnl_engine_destroy(D.eng);
	}
	D.init = 0;
}

#else /* no oneDNN */

void
gemm_bf16(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const uint16_t *A,
	  int64_t lda, const uint16_t *B, int64_t ldb, float beta, void *C, int64_t ldc, int flags)
{
	(void)ta, (void)tb, (void)M, (void)N, (void)K, (void)alpha, (void)A, (void)lda;
	(void)B, (void)ldb, (void)beta, (void)C, (void)ldc, (void)flags;
	die("internal error: bf16 product in a build without oneDNN");
}

void
gemm_f32(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const float *A, int64_t lda,
	 const float *B, int64_t ldb, float beta, float *C, int64_t ldc)
{
	sgemm(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
}

void
gemm_release(void)
{
}

#endif

/* ---- calibration ---- */

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static struct {
	int done, nthr, rc;
	struct gemm_rates r;
} cal;

int
gemm_calibrate(struct gemm_rates *r)
{
	int nthr = nthreads();
	if (cal.done && cal.nthr == nthr) {
		*r = cal.r;
		return cal.rc;
	}
	memset(&cal, 0, sizeof cal);
	cal.nthr = nthr;
	cal.done = 1;
	cal.rc = -1;
#ifdef GNN_DNNL
	enum { M = 2048, K = 512, N = 512, REPS = 5 };
	const char *impl = "";
	if (dnnl_ready() && prim_get(0, 0, M, N, K, K, N, N, 1, 0, 0, &impl) && impl[0] &&
	    strncmp(impl, "ref", 3) != 0) {
		snprintf(cal.r.impl, sizeof cal.r.impl, "%s", impl);
		cal.r.hw_bf16 = strstr(impl, "bf16") != NULL || strstr(impl, "amx") != NULL;
		float *a = xmallocarray((size_t)M * K, sizeof *a);
		float *b = xmallocarray((size_t)K * N, sizeof *b);
		float *c = xmallocarray((size_t)M * N, sizeof *c);
		uint64_t s = 88172645463325252ULL; /* values in [-1, 1) */
		for (int64_t i = 0; i < (int64_t)M * K; i++) {
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			a[i] = (float)((double)(s >> 40) / 8388608.0 - 1.0);
		}
		for (int64_t i = 0; i < (int64_t)K * N; i++)
			b[i] = a[i];
		/* the products alone: the operands are rounded before the
		 * timing (our rounding loops, built with a sanitiser, would
		 * otherwise weigh on the bf16 side only) */
		uint16_t *ab = xmallocarray((size_t)M * K, sizeof *ab);
		uint16_t *bb = xmallocarray((size_t)K * N, sizeof *bb);
		gemm_to_bf16(ab, a, (int64_t)M * K);
		gemm_to_bf16(bb, b, (int64_t)K * N);
		double tf[REPS], tb[REPS];
		int saved = cur_prec;
		for (int rep = -1; rep < REPS; rep++) {
			/* interleaved, so that a burst of other load hits both */
			double t0 = progress_now();
			sgemm(0, 0, M, N, K, 1, a, K, b, N, 0, c, N);
			double t1 = progress_now();
			cur_prec = GEMM_BF16;
			gemm_bf16(0, 0, M, N, K, 1, ab, K, bb, N, 0, c, N, 0);
			cur_prec = saved;
			double t2 = progress_now();
			if (rep >= 0) {
				tf[rep] = t1 - t0;
				tb[rep] = t2 - t1;
			}
		}
		/* the fastest of each: other load only adds time, so the
		 * minimum is the steadiest figure on a shared machine (the
		 * median let a loaded run choose fp32 now and then, and
		 * runs of one experiment differ in precision) */
		qsort(tf, REPS, sizeof *tf, cmpd);
		qsort(tb, REPS, sizeof *tb, cmpd);
		double fl = 2.0 * M * K * N * 1e-9;
		cal.r.fp32 = fl / tf[0];
		cal.r.bf16 = fl / tb[0];
		free(ab);
		free(bb);
		free(a);
		free(b);
		free(c);
		cal.rc = 0;
	}
#endif
	if (cal.rc != 0) {
		/* the fp32 rate alone is not needed by anyone: leave it 0 */
		cal.r.fp32 = 0;
	}
	*r = cal.r;
	return cal.rc;
}

#ifdef GNN_DNNL
/* oneDNN's ISA on this CPU (ONEDNN_MAX_CPU_ISA applied), by name. */
static void
cpu_isa_name(char *buf, size_t len)
{
	static const struct {
		dnnl_cpu_isa_t isa;
		const char *name;
	} t[] = { { dnnl_cpu_isa_avx512_core_amx, "avx512_core_amx" },
		  { dnnl_cpu_isa_avx512_core_bf16, "avx512_core_bf16" },
		  { dnnl_cpu_isa_avx512_core_vnni, "avx512_core_vnni" },
		  { dnnl_cpu_isa_avx512_core, "avx512_core" },
		  { dnnl_cpu_isa_avx2, "avx2" },
		  { dnnl_cpu_isa_avx, "avx" },
		  { dnnl_cpu_isa_sse41, "sse41" } };
	dnnl_cpu_isa_t isa = dnnl_get_effective_cpu_isa();

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (((unsigned)isa & (unsigned)t[i].isa) == (unsigned)t[i].isa) {
			snprintf(buf, len, "%s%s", t[i].name,
				 (unsigned)isa != (unsigned)t[i].isa ? " or above" : "");
			return;
		}
	snprintf(buf, len, "%#x", (unsigned)isa);
}

/*
 * The bf16 product oneDNN would run for this CPU, without timing it: the
 * implementation of the calibration's shape, into r->impl and r->hw_bf16
 * (its name has bf16 or amx: it runs bf16 instructions, not an
 * emulation).  Returns 0, or -1 when there is none (or only oneDNN's
 * reference code).  The same answer on a busy machine as on an idle one.
 */
static int
bf16_impl(struct gemm_rates *r)
{
	enum { M = 2048, K = 512, N = 512 };
	const char *impl = "";

	memset(r, 0, sizeof *r);
	if (!dnnl_ready() || !prim_get(0, 0, M, N, K, K, N, N, 1, 0, 0, &impl) || !impl[0] ||
	    strncmp(impl, "ref", 3) == 0)
		return -1;
	snprintf(r->impl, sizeof r->impl, "%s", impl);
	r->hw_bf16 = strstr(impl, "bf16") != NULL || strstr(impl, "amx") != NULL;
	return 0;
}
#endif

int
gemm_choose(int want, char *why, size_t whylen)
{
	struct gemm_rates r;
	if (want == GEMM_FP32) {
		snprintf(why, whylen, "fp32 as asked");
		return GEMM_FP32;
	}
#ifndef GNN_DNNL
	if (want == GEMM_BF16) {
		snprintf(why, whylen,
			 "bf16 is not available: built without oneDNN "
			 "(Debian: libdnnl-dev)");
		return -1;
	}
	snprintf(why, whylen, "fp32: built without oneDNN, no bf16 products");
	return GEMM_FP32;
#else
	if (want == GEMM_AUTO ? bf16_impl(&r) != 0 : gemm_calibrate(&r) != 0) {
		if (want == GEMM_BF16) {
			snprintf(why, whylen,
				 "bf16 is not available: oneDNN has no bf16 matrix "
				 "product for this CPU");
			return -1;
		}
		snprintf(why, whylen, "fp32: oneDNN has no bf16 matrix product for this CPU");
		return GEMM_FP32;
	}
	if (want == GEMM_BF16) {
		snprintf(why, whylen, "bf16 as asked (%s, %.0f GFLOP/s; fp32 %.0f GFLOP/s)", r.impl,
			 r.bf16, r.fp32);
		return GEMM_BF16;
	}
	/* auto: the CPU's instructions decide, never a timing (which the
	 * machine's load could tip; docs/choices.md) */
	char isa[40];
	cpu_isa_name(isa, sizeof isa);
	int bf = r.hw_bf16;
	snprintf(
	    why, whylen, "%s: %s (oneDNN's ISA %s, its bf16 product %s)%s", bf ? "bf16" : "fp32",
	    bf ? "this CPU has bf16 instructions" : "no bf16 instructions on this CPU", isa, r.impl,
	    bf ? "; products under 16 in a dimension or 2^20 multiply-adds stay fp32" : "");
	return bf ? GEMM_BF16 : GEMM_FP32;
#endif
}
