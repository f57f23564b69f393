/*
 * gcn_sgemm.c - plain GEMM rates of this machine, the yardsticks for the
 * GFLOP/s of a training step (bench/gcn_step.sh): single precision on
 * OpenBLAS, and bf16 operands with fp32 accumulation on oneDNN.
 *
 *   gcn_sgemm [M [K [N [THREADS [REPS [fp32|bf16]]]]]]
 *                                   defaults 37000 512 512 2 5 fp32
 *
 * Times C = A B (row-major, A M x K, B K x N, C fp32) with THREADS
 * threads: one untimed call, then REPS timed calls.  fp32: cblas_sgemm.
 * bf16: oneDNN's matmul primitive on bf16 A and B (converted once,
 * outside the timing) into an f32 C, the primitive made once outside the
 * timing; the line impl names oneDNN's implementation (brg:avx512_core_amx
 * on AMX, brg:avx512_core_bf16 with AVX512-BF16).  Prints TSV key/value
 * lines: m, k, n, threads, reps, gflop (per call), s_median, s_min,
 * gflops_median (2 M K N / median seconds), gflops_best, and for bf16
 * impl and rel_err (relative Frobenius error against an sgemm of the same
 * fp32 values).
 *
 *   cc -O2 -fopenmp -o gcn_sgemm bench/gcn_sgemm.c -lopenblas [-DGNN_DNNL -ldnnl]
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef GNN_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

void openblas_set_num_threads(int);

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long
arg(int argc, char **argv, int i, long def)
{
	if (argc <= i)
		return def;
	char *end;
	long v = strtol(argv[i], &end, 10);
	if (*end || v < 1 || v > 1000000) {
		fprintf(stderr, "gcn_sgemm: bad argument '%s'\n", argv[i]);
		exit(2);
	}
	return v;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#ifdef GNN_DNNL
#define OK(call) \
	do { \
		if ((call) != dnnl_success) { \
			fprintf(stderr, "gcn_sgemm: oneDNN: %s failed\n", #call); \
			exit(1); \
		} \
	} while (0)

static uint16_t
to_bf16(float x)
{
	uint32_t u;
	memcpy(&u, &x, 4);
	return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

/* C = A B with bf16 A, B (rounded from a, b) and f32 C: reps timings in t */
static void
run_bf16(long m, long k, long n, long reps, const float *a, const float *b, float *c, double *t,
	 const char **impl, double *rel_err)
{
	uint16_t *ab = malloc(2 * (size_t)(m * k)), *bb = malloc(2 * (size_t)(k * n));
	float *ref = malloc(sizeof *ref * (size_t)(m * n));
	if (!ab || !bb || !ref) {
		fprintf(stderr, "gcn_sgemm: out of memory\n");
		exit(1);
	}
	for (long i = 0; i < m * k; i++)
		ab[i] = to_bf16(a[i]);
	for (long i = 0; i < k * n; i++)
		bb[i] = to_bf16(b[i]);
	dnnl_engine_t eng;
	dnnl_stream_t st;
	OK(dnnl_engine_create(&eng, dnnl_cpu, 0));
	OK(dnnl_stream_create(&st, eng, dnnl_stream_default_flags));
	dnnl_memory_desc_t ad, bd, cd;
	dnnl_dims_t adim = { m, k }, bdim = { k, n }, cdim = { m, n };
	OK(dnnl_memory_desc_init_by_tag(&ad, 2, adim, dnnl_bf16, dnnl_ab));
	OK(dnnl_memory_desc_init_by_tag(&bd, 2, bdim, dnnl_bf16, dnnl_ab));
	OK(dnnl_memory_desc_init_by_tag(&cd, 2, cdim, dnnl_f32, dnnl_ab));
	dnnl_matmul_desc_t md;
	OK(dnnl_matmul_desc_init(&md, &ad, &bd, NULL, &cd));
	dnnl_primitive_desc_t pd;
	dnnl_primitive_t p;
	OK(dnnl_primitive_desc_create(&pd, &md, NULL, eng, NULL));
	OK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, impl));
	OK(dnnl_primitive_create(&p, pd));
	dnnl_memory_t am, bm, cm;
	OK(dnnl_memory_create(&am, &ad, eng, ab));
	OK(dnnl_memory_create(&bm, &bd, eng, bb));
	OK(dnnl_memory_create(&cm, &cd, eng, c));
	dnnl_exec_arg_t args[3] = { { DNNL_ARG_SRC, am },
				    { DNNL_ARG_WEIGHTS, bm },
				    { DNNL_ARG_DST, cm } };
	for (long r = -1; r < reps; r++) {
		double t0 = now();
		OK(dnnl_primitive_execute(p, st, 3, args));
		OK(dnnl_stream_wait(st));
		double t1 = now();
		if (r >= 0)
			t[r] = t1 - t0;
	}
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
		    (int)k, b, (int)n, 0.0f, ref, (int)n);
	double e = 0, s = 0;
	for (long i = 0; i < m * n; i++) {
		e += ((double)c[i] - ref[i]) * ((double)c[i] - ref[i]);
		s += (double)ref[i] * ref[i];
	}
	*rel_err = sqrt(e / s);
	free(ab);
	free(bb);
	free(ref);
}
#endif

int
main(int argc, char **argv)
{
	long m = arg(argc, argv, 1, 37000), k = arg(argc, argv, 2, 512);
	long n = arg(argc, argv, 3, 512), th = arg(argc, argv, 4, 2);
	long reps = arg(argc, argv, 5, 5);
	int bf16 = argc > 6 && strcmp(argv[6], "bf16") == 0;
	if (argc > 6 && !bf16 && strcmp(argv[6], "fp32") != 0) {
		fprintf(stderr, "gcn_sgemm: bad precision '%s'\n", argv[6]);
		exit(2);
	}
	float *a = malloc(sizeof *a * (size_t)(m * k));
	float *b = malloc(sizeof *b * (size_t)(k * n));
	float *c = malloc(sizeof *c * (size_t)(m * n));
	double *t = malloc(sizeof *t * (size_t)reps);
	if (!a || !b || !c || !t) {
		fprintf(stderr, "gcn_sgemm: out of memory\n");
		return 1;
	}
	/* fixed pseudo-random values in [-1, 1): no denormals, no zeros */
	unsigned long long s = 88172645463325252ULL;
	for (long i = 0; i < m * k; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		a[i] = (float)((double)(s >> 40) / 8388608.0 - 1.0);
	}
	for (long i = 0; i < k * n; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		b[i] = (float)((double)(s >> 40) / 8388608.0 - 1.0);
	}
	openblas_set_num_threads((int)th);
#ifdef _OPENMP
	omp_set_num_threads((int)th);
#endif
	const char *impl = "";
	double rel_err = 0;
	if (bf16) {
#ifdef GNN_DNNL
		run_bf16(m, k, n, reps, a, b, c, t, &impl, &rel_err);
#else
		fprintf(stderr, "gcn_sgemm: built without oneDNN: no bf16\n");
		exit(1);
#endif
	} else {
		for (long r = -1; r < reps; r++) {
			double t0 = now();
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n,
				    (int)k, 1.0f, a, (int)k, b, (int)n, 0.0f, c, (int)n);
			double t1 = now();
			if (r >= 0)
				t[r] = t1 - t0;
		}
	}
	qsort(t, (size_t)reps, sizeof *t, cmp);
	double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
	double gflop = 2.0 * (double)m * (double)k * (double)n * 1e-9;
	printf("m\t%ld\nk\t%ld\nn\t%ld\nthreads\t%ld\nreps\t%ld\ngflop\t%.4f\n"
	       "s_median\t%.6f\ns_min\t%.6f\ngflops_median\t%.2f\ngflops_best\t%.2f\n"
	       "checksum\t%.6g\n",
	       m, k, n, th, reps, gflop, med, t[0], gflop / med, gflop / t[0],
	       (double)c[0] + (double)c[m * n - 1]);
	if (bf16)
		printf("impl\t%s\nrel_err\t%.3g\n", impl, rel_err);
	free(a);
	free(b);
	free(c);
	free(t);
	return 0;
}
