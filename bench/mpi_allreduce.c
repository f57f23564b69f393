/*
 * mpi_allreduce.c - bench/mpi.sh: the allreduce of a gradient of n values
 * (default 4,474,911, the paper's model) between the processes mpirun
 * started: as gcn-train sums it (dist_xsum_allreduce, 16 bytes a value, exact)
 * and as a plain float MPI_SUM (4 bytes a value, not exact), alternated,
 * REPS times each after the processes met.  Rank 0 prints
 * "name<TAB>median seconds" lines.
 *
 *   mpirun -np 2 mpi_allreduce [n [reps]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "err.h"

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 4474911;
	int reps = argc > 2 ? atoi(argv[2]) : 10;
	float *g;
	double *tx, *tf;
	xsum s;

	err_setprog(argv[0]);
	if (n < 1 || reps < 1 || reps > 1000)
		die_usage("usage: mpi_allreduce [n [reps]]");
	if (dist_init(&argc, &argv) < 2)
		die("run it with mpirun -np 2 or more");
	g = xmallocarray((size_t)n, sizeof *g);
	tx = xmallocarray((size_t)reps, sizeof *tx);
	tf = xmallocarray((size_t)reps, sizeof *tf);
	for (long i = 0; i < n; i++)
		g[i] = (float)(i % 1000) * 1e-3f - 0.5f;
	xsum_init(&s, n);
	xsum_add(&s, g);
	for (int r = 0; r < reps; r++) {
		dist_max_f64(0); /* the processes meet */
		double t0 = MPI_Wtime();
		dist_xsum_allreduce(&s);
		tx[r] = dist_max_f64(MPI_Wtime() - t0);
		dist_max_f64(0);
		t0 = MPI_Wtime();
		MPI_Allreduce(MPI_IN_PLACE, g, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
		tf[r] = dist_max_f64(MPI_Wtime() - t0);
	}
	if (dist_rank() == 0)
		printf("processes\t%d\nvalues\t%ld\nexact_bytes\t%ld\nexact_s\t%.4f\n"
		       "float_bytes\t%ld\nfloat_s\t%.4f\n",
		       dist_size(), n, 16 * n, median(tx, reps), 4 * n, median(tf, reps));
	xsum_free(&s);
	free(g);
	free(tx);
	free(tf);
	dist_end();
	return 0;
}
