/*
 * gemm.h - the matrix products of the model layers (nn.c) in one of two
 * precisions, chosen once per process:
 *
 *   GEMM_FP32  OpenBLAS sgemm: fp32 operands, fp32 accumulation.
 *   GEMM_BF16  oneDNN matmul: bf16 operands (fp32 rounded to nearest even,
 *              8 significant bits), fp32 accumulation and fp32 result; the
 *              CPU's matrix engine (AMX) or its AVX512-BF16 dot products.
 *
 * Only the large products go to bf16 (gemm_bf16_worth()); the small ones
 * (the 4-feature embedding, the k = 4 columns of the NTNs' linear terms,
 * a narrow test model) stay in fp32, where a conversion would cost more
 * than it saves.  Parameters, gradients, Adam moments, losses and the
 * normalisation statistics stay fp32 in every precision: only the
 * operands of the products are rounded.
 *
 * Ownership: the module keeps, process-wide like BLAS's thread pool, a
 * cache of oneDNN primitives (by shape, transposes, scaling and thread
 * count) and the scratch that holds converted operands; gemm_release()
 * frees them.  Built without oneDNN (no libdnnl-dev: see mk/deps.sh), only
 * GEMM_FP32 exists.
 *
 * Determinism: for a given precision, shapes and thread count the results
 * are the same bytes run after run (oneDNN's and OpenBLAS's reductions run
 * in a fixed order for a fixed thread count).
 */
#ifndef GNN_GEMM_H
#define GNN_GEMM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Versions of a loop for AVX-512, AVX2 and the baseline x86-64 (whose
 * vectors hold two doubles or four floats), for the memory-bound passes
 * around the products (nn.c, gemm.c).  A loop of element-wise IEEE or
 * integer operations; no version changes a bit: each operation is the
 * same, each sum runs in the same order, and -std=c11 leaves
 * floating-point contraction off (no FMA).  Written as
 *
 *	static GEMM_INLINE void
 *	f_body(int64_t i0, int64_t i1, ...)
 *	{
 *		... the loop ...
 *	}
 *	GEMM_CLONES(f, (int64_t i0, int64_t i1, ...), (i0, i1, ...))
 *
 * which defines static void f(...) calling the body compiled for the
 * version gemm_isa() names (f_avx512, f_avx2, f_base: perf names them).
 * The versions are chosen by the program, not by the loader as
 * target_clones would, so that GNN_MAX_CPU_ISA can hold a machine with
 * AVX-512 to another version and the tests run every version the CPU
 * has.  Built with -DGNN_NO_CLONES (make CLONES=no), or for another
 * architecture or compiler, f is the body alone, the portable build.
 * A source that uses it is in the Makefile's CLONED_SRC (rebuilt when
 * CLONES changes).
 */
enum { GEMM_ISA_BASE = 0, GEMM_ISA_AVX2 = 1, GEMM_ISA_AVX512 = 2 };

/* The version the loops run: the CPU's best (__builtin_cpu_supports:
 * avx512f, avx2) held at most to GNN_MAX_CPU_ISA (avx512f, avx2 or
 * default, read when the program starts; any other value stops it with
 * one line, exit 2); GEMM_ISA_BASE in the portable build. */
int gemm_isa(void);
/* The CPU's best (GEMM_ISA_BASE in the portable build). */
int gemm_isa_cpu(void);
/* GNN_MAX_CPU_ISA's value want (NULL or "": no cap) on a CPU whose best is
 * cpu: the version, or -1 for a value that is not avx512f, avx2 or
 * default (in any case). */
int gemm_isa_pick(const char *want, int cpu);
/* For the tests: run version isa from now on, at most the CPU's best (not
 * while a loop runs); returns the version set. */
int gemm_isa_set(int isa);
/* "avx512f", "avx2" or "default". */
const char *gemm_isa_name(int isa);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(GNN_NO_CLONES)
#define GEMM_CLONED 1
#define GEMM_INLINE inline __attribute__((always_inline))
#define GEMM_CLONES(f, params, args) \
	__attribute__((target("avx512f"))) static void f##_avx512 params \
	{ \
		f##_body args; \
	} \
	__attribute__((target("avx2"))) static void f##_avx2 params \
	{ \
		f##_body args; \
	} \
	__attribute__((noinline)) static void f##_base params \
	{ \
		f##_body args; \
	} \
	static void f params \
	{ \
		switch (gemm_isa()) { \
		case GEMM_ISA_AVX512: \
			f##_avx512 args; \
			break; \
		case GEMM_ISA_AVX2: \
			f##_avx2 args; \
			break; \
		default: \
			f##_base args; \
		} \
	}
#else
#define GEMM_CLONED 0
#define GEMM_INLINE inline
#define GEMM_CLONES(f, params, args) \
	static void f params \
	{ \
		f##_body args; \
	}
#endif

enum { GEMM_FP32 = 0, GEMM_BF16 = 1, GEMM_AUTO = 2 };

/* "fp32", "bf16" or "auto" to GEMM_x; -1 for anything else. */
int gemm_precision_parse(const char *s);
/* "fp32", "bf16" or "auto". */
const char *gemm_precision_name(int prec);

/*
 * The rates a short calibration measured on this machine with the current
 * OpenMP thread count: a 2048 x 512 by 512 x 512 product in each precision
 * (fp32 operands in both: the bf16 rate includes their conversion), the
 * median of 5 interleaved runs after one untimed run, GFLOP/s; and oneDNN's
 * implementation of the bf16 product ("" when there is none).
 */
struct gemm_rates {
	double fp32, bf16;
	char impl[64];
	int hw_bf16; /* the implementation uses bf16 instructions */
};

/*
 * Measure the rates (once per process and thread count; later calls
 * return the cached figures).  Returns 0, or -1 when bf16 products are
 * not available (built without oneDNN, or oneDNN has no implementation
 * for this CPU; r->bf16 is then 0).
 * Time complexity: a few hundred milliseconds at most, once.
 */
int gemm_calibrate(struct gemm_rates *r);

/*
 * The precision to use for a request want (GEMM_x): GEMM_FP32 as asked;
 * GEMM_BF16 when available; GEMM_AUTO: bf16 when oneDNN's bf16 product
 * for this CPU runs bf16 instructions (AVX512-BF16 or AMX: its
 * implementation's name says bf16 or amx), fp32 otherwise.  Never a
 * timing: the same CPU (and ONEDNN_MAX_CPU_ISA) gives the same choice
 * however busy the machine; the problem's shape then decides product by
 * product (gemm_bf16_worth()).  A short sentence saying why, with oneDNN's
 * ISA and implementation, goes into why
 * (for the program to say on stderr).  Returns the precision, or -1 with
 * the reason in why when bf16 was asked for and is not available.
 */
int gemm_choose(int want, char *why, size_t whylen);

/* Set and read the process's precision (GEMM_FP32 until set). */
void gemm_set_precision(int prec);
int gemm_precision(void);

/* Whether a product of these sizes goes to bf16 in GEMM_BF16: at least
 * 16 in every dimension and 2^20 multiply-adds. */
int gemm_bf16_worth(int64_t M, int64_t N, int64_t K);

/*
 * C = alpha op(A) op(B) + beta C in the process's precision, row-major,
 * op = transpose when ta/tb are nonzero (as cblas_sgemm).  M, N, K > 0.
 * In bf16, A and B are rounded to bf16 (into the module's scratch) and C
 * accumulates in fp32; beta C is added in fp32.
 */
void gemm_f32(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const float *A,
	      int64_t lda, const float *B, int64_t ldb, float beta, float *C, int64_t ldc);

/* Flags of gemm_bf16(): C is bf16 (rounded from the fp32 sum; beta must
 * be 0), and relu is applied to the result before it is stored. */
enum { GEMM_OUT_BF16 = 1, GEMM_RELU = 2 };

/*
 * The same with operands already in bf16 (the caller rounded them with
 * gemm_to_bf16(), or they came out of an earlier product), C fp32 or, with
 * GEMM_OUT_BF16, bf16: C = [relu](alpha op(A) op(B) + beta C).  The
 * operands are used where they are (no copy).  Only when bf16 is
 * available (gemm_choose() said so).
 */
void gemm_bf16(int ta, int tb, int64_t M, int64_t N, int64_t K, float alpha, const uint16_t *A,
	       int64_t lda, const uint16_t *B, int64_t ldb, float beta, void *C, int64_t ldc,
	       int flags);

/* y = bf16(x), rounded to nearest even (NaN stays NaN), n values.
 * Time complexity: O(n), OpenMP threads. */
void gemm_to_bf16(uint16_t *y, const float *x, int64_t n);
/* y = y where the bf16 value m is > 0, else 0: the backward pass of a
 * relu whose output m was stored in bf16, on a gradient y in bf16.
 * Time complexity: O(n). */
void gemm_relu_mask_bf16(uint16_t *y, const uint16_t *m, int64_t n);

/* One value each way. */
static inline uint16_t
gemm_bf16_of(float x)
{
	union {
		float f;
		uint32_t u;
	} v = { x };
	uint32_t q = (v.u >> 16) | 0x40u, /* NaN: keep it quiet */
	    r = (v.u + 0x7fffu + ((v.u >> 16) & 1u)) >> 16;
	/* a select, not a branch: loops of it vectorise */
	return (uint16_t)((v.u & 0x7fffffffu) > 0x7f800000u ? q : r);
}

static inline float
gemm_f32_of(uint16_t h)
{
	union {
		uint32_t u;
		float f;
	} v = { (uint32_t)h << 16 };
	return v.f;
}

/* Free the primitive cache and the scratch (a later call rebuilds them). */
void gemm_release(void);

#endif
