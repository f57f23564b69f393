/*
 * gcn_sgemm.c - plain single-precision GEMM rate of this machine, the
 * yardstick for the GFLOP/s of a training step (bench/gcn_step.sh).
 *
 *   gcn_sgemm [M [K [N [THREADS [REPS]]]]]     defaults 37000 512 512 2 5
 *
 * Times C = A B with cblas_sgemm (row-major, A M x K, B K x N) on OpenBLAS
 * with THREADS threads: one untimed call, then REPS timed calls.  Prints
 * TSV key/value lines: m, k, n, threads, reps, gflop (per call),
 * s_median, s_min, gflops_median (2 M K N / median seconds), gflops_best.
 *
 *   cc -O2 -o gcn_sgemm bench/gcn_sgemm.c -lopenblas
 */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

int
main(int argc, char **argv)
{
	long m = arg(argc, argv, 1, 37000), k = arg(argc, argv, 2, 512);
	long n = arg(argc, argv, 3, 512), th = arg(argc, argv, 4, 2);
	long reps = arg(argc, argv, 5, 5);
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
	for (long r = -1; r < reps; r++) {
		double t0 = now();
		cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k,
			    1.0f, a, (int)k, b, (int)n, 0.0f, c, (int)n);
		double t1 = now();
		if (r >= 0)
			t[r] = t1 - t0;
	}
	qsort(t, (size_t)reps, sizeof *t, cmp);
	double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
	double gflop = 2.0 * (double)m * (double)k * (double)n * 1e-9;
	printf("m\t%ld\nk\t%ld\nn\t%ld\nthreads\t%ld\nreps\t%ld\ngflop\t%.4f\n"
	       "s_median\t%.6f\ns_min\t%.6f\ngflops_median\t%.2f\ngflops_best\t%.2f\n"
	       "checksum\t%.6g\n", m, k, n, th, reps, gflop, med, t[0], gflop / med,
	       gflop / t[0], (double)c[0] + (double)c[m * n - 1]);
	free(a);
	free(b);
	free(c);
	free(t);
	return 0;
}
