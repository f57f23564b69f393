/*
 * centrality_err.c - the error of centrality's estimates against exact
 * values (not a test; built and run by bench/centrality_err.sh).
 *
 *   centrality_err [-j threads] [-r reps] [-S sub_max] [-s seed] [-R cache]
 *                  [-c cl_error] [-d delta] [-e error] [-k samples] FILE
 *
 * FILE: a gnnstream; its first graph is used.  The estimate is
 * centrality_compute() of all four centralities with the default options
 * (cent_opts_init), seeded as the centrality program seeds graph ID with
 * -s seed (default 0): rng_mix(seed, ID).  It is timed -r times (default
 * 3; a first call of more than 60 s is the only one) and the median kept.
 * The reference: exact betweenness and closeness (exact_max above n, the
 * searches alone, timed once), and exact subgraph centrality (the dense
 * eigendecomposition, timed once) when n <= sub_max (default 5000: it
 * needs about 3 n^2 doubles and n^3 time).
 *
 * Output, one TSV line per estimated quantity:
 *   graph n m quantity est_s exact_s sources sampled bound bound_kind
 *   max_err_on_bound_scale median_rel p95_rel max_rel spearman
 *   exact_zero zero_nonzero
 * bound: the error statement the estimate came with (betweenness:
 * additive on normalised values, closeness and subgraph: relative);
 * max_err_on_bound_scale: the largest error measured on that scale, to
 * compare with the bound.  Relative errors are over the nodes whose exact
 * value is not 0; exact_zero counts the others, zero_nonzero those of them
 * given a non-zero estimate.  Without a reference (subgraph past sub_max)
 * the measured columns are "-".  Progress goes to stderr.
 * -e, -c, -d, -k set cent_opts' bc_error, cl_error, delta and samples of
 * the estimate (to compare settings; default: the defaults).  -R names a
 * file that keeps the reference (and its times) between runs: read when it
 * exists and fits the graph's n and m, else computed and written.
 */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "centrality.h"
#include "err.h"
#include "graph.h"
#include "opt.h"
#include "prof.h"
#include "rng.h"
#include "stream.h"

#define USAGE \
	"centrality_err [-j threads] [-r reps] [-S sub_max] [-s seed] [-R cache] " \
	"[-c cl_error] [-d delta] [-e error] [-k samples] FILE"

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The first graph of path into g; its id into *id. */
static void
load(const char *path, graph *g, int64_t *id)
{
	char msg[256];
	gs_file *f = gs_open_in(path, msg, sizeof msg);
	gs_rec r;
	int k;

	if (f == NULL)
		die("%s", msg);
	gs_rec_init(&r);
	while ((k = gs_read1(f, &r)) > 0 && k != GS_GRAPH)
		;
	if (k < -1)
		die("%s", gs_strerror(f));
	if (k != GS_GRAPH)
		die("%s: no graph record", path);
	graph_init(g);
	if (gs_graph_build(f, &r, g, 1) != 0)
		die("%s", gs_strerror(f));
	*id = r.id;
	gs_rec_free(&r);
	gs_close(f);
}

/* Progress of the long reference runs on stderr, at most once a second. */
struct prog {
	const char *what;
	double t0, last;
};

static void
on_progress(void *arg, int64_t done, int64_t total)
{
	struct prog *p = arg;
	double t = prof_now();

	if (t - p->last < 1 && done < total)
		return;
	p->last = t;
	fprintf(stderr, "\r  %s: %" PRId64 " of %" PRId64 " sources, %.0f s", p->what, done, total,
		t - p->t0);
	if (done == total)
		fputc('\n', stderr);
}

/* The reference cache: n, m, has_sc (int64), the two times, then the
 * doubles (n each: betweenness, closeness, subgraph if has_sc). */
static int
cache_read(const char *path, const graph *g, double *x, double *ex_bc, double *ex_sc)
{
	FILE *f = path ? fopen(path, "rb") : NULL;
	int64_t h[3];
	double t[2];
	int ok;

	if (f == NULL)
		return 0;
	ok = fread(h, sizeof h, 1, f) == 1 && fread(t, sizeof t, 1, f) == 1 && h[0] == g->n &&
	     h[1] == g->m &&
	     fread(x, sizeof *x, (size_t)g->n * (h[2] ? 3 : 2), f) == (size_t)g->n * (h[2] ? 3 : 2);
	fclose(f);
	if (ok) {
		*ex_bc = t[0];
		*ex_sc = h[2] ? t[1] : -1;
		fprintf(stderr, "  reference from %s\n", path);
	}
	return ok;
}

static void
cache_write(const char *path, const graph *g, const double *x, double ex_bc, double ex_sc)
{
	FILE *f = fopen(path, "wb");
	int64_t h[3] = { g->n, g->m, ex_sc >= 0 };
	double t[2] = { ex_bc, ex_sc };

	if (f == NULL || fwrite(h, sizeof h, 1, f) != 1 || fwrite(t, sizeof t, 1, f) != 1 ||
	    fwrite(x, sizeof *x, (size_t)g->n * (h[2] ? 3 : 2), f) !=
		(size_t)g->n * (h[2] ? 3 : 2) ||
	    fclose(f) != 0)
		die("%s: cannot write the reference cache", path);
}

/* Average ranks (ties share the mean of their positions). */
static void
ranks(const double *x, int32_t n, double *rk, int32_t *idx)
{
	int32_t i, j;

	for (i = 0; i < n; i++)
		idx[i] = i;
	/* insertion-free: sort indices by value with a merge sort */
	{
		int32_t *tmp = xmallocarray((size_t)n, sizeof *tmp), w;
		for (w = 1; w < n; w *= 2) {
			for (i = 0; i < n; i += 2 * w) {
				int32_t a = i, am = i + w < n ? i + w : n, b = am;
				int32_t bm = i + 2 * w < n ? i + 2 * w : n, k = i;
				while (a < am || b < bm)
					tmp[k++] = (b >= bm || (a < am && x[idx[a]] <= x[idx[b]]))
						       ? idx[a++]
						       : idx[b++];
			}
			memcpy(idx, tmp, (size_t)n * sizeof *idx);
		}
		free(tmp);
	}
	for (i = 0; i < n; i = j) {
		double r;
		for (j = i + 1; j < n && x[idx[j]] == x[idx[i]]; j++)
			;
		r = (i + j - 1) / 2.0 + 1;
		while (i < j)
			rk[idx[i++]] = r;
	}
}

static double
spearman(const double *x, const double *y, int32_t n)
{
	double *rx = xmallocarray((size_t)n, sizeof *rx), *ry = xmallocarray((size_t)n, sizeof *ry);
	int32_t *idx = xmallocarray((size_t)n, sizeof *idx), i;
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	ranks(x, n, rx, idx);
	ranks(y, n, ry, idx);
	for (i = 0; i < n; i++) {
		mx += rx[i];
		my += ry[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		sxy += (rx[i] - mx) * (ry[i] - my);
		sxx += (rx[i] - mx) * (rx[i] - mx);
		syy += (ry[i] - my) * (ry[i] - my);
	}
	free(rx);
	free(ry);
	free(idx);
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : 1.0;
}

/* q-quantile of the sorted array a[0..k) (nearest rank). */
static double
quantile(const double *a, int32_t k, double q)
{
	int32_t i = (int32_t)ceil(q * k) - 1;

	return k == 0 ? 0 : a[i < 0 ? 0 : i >= k ? k - 1 : i];
}

/* One TSV line: est against ref (NULL: no reference). */
static void
report(const char *name, const graph *g, const char *q, double est_s, double ex_s,
       const cent_out *o, double bound, const char *kind, const double *est, const double *ref)
{
	int32_t n = g->n, i, k = 0, zero = 0, zero_nz = 0;
	double *rel, worst = 0;

	printf("%s\t%d\t%" PRId64 "\t%s\t%.3f\t", name, n, g->m, q, est_s);
	if (ex_s >= 0)
		printf("%.3f", ex_s);
	else
		printf("-");
	printf("\t%" PRId64 "\t%" PRId64 "\t%.4g\t%s\t", o->sources, o->sampled, bound, kind);
	if (ref == NULL) {
		printf("-\t-\t-\t-\t-\t-\t-\n");
		return;
	}
	rel = xmallocarray((size_t)n, sizeof *rel);
	for (i = 0; i < n; i++) {
		double e = fabs(est[i] - ref[i]);
		if (strcmp(kind, "additive") == 0 && e > worst)
			worst = e;
		if (ref[i] == 0) {
			zero++;
			zero_nz += est[i] != 0;
			continue;
		}
		rel[k++] = e / fabs(ref[i]);
		if (strcmp(kind, "additive") != 0 && rel[k - 1] > worst)
			worst = rel[k - 1];
	}
	qsort(rel, (size_t)k, sizeof *rel, cmpd);
	printf("%.4g\t%.4g\t%.4g\t%.4g\t%.4f\t%d\t%d\n", worst, quantile(rel, k, 0.5),
	       quantile(rel, k, 0.95), k ? rel[k - 1] : 0, spearman(est, ref, n), zero, zero_nz);
	free(rel);
}

/* The estimate, as `centrality` makes it (co seeded), into est over e (5
 * n); returns the median seconds of reps calls (one, when the first takes
 * more than 60 s). */
static double
estimate(const graph *g, const char *name, const struct cent_opts *co, int reps, double *e,
	 cent_out *est, cent_ws *ws)
{
	int32_t n = g->n;
	double t, *times = xmallocarray((size_t)reps, sizeof *times), est_s;
	char msg[256];
	int r;

	fprintf(stderr, "  %s: estimate (n %d, m %" PRId64 ")\n", name, n, g->m);
	for (r = 0; r < reps; r++) {
		memset(est, 0, sizeof *est);
		est->eigenvector = e;
		est->betweenness = e + n;
		est->closeness = e + 2 * (size_t)n;
		est->subgraph = e + 3 * (size_t)n;
		est->subgraph_log = e + 4 * (size_t)n;
		t = prof_now();
		if (centrality_compute(g, co, est, ws, msg, sizeof msg))
			die("%s: %s", name, msg);
		times[r] = prof_now() - t;
		if (times[0] > 60) {
			reps = 1;
			break;
		}
	}
	qsort(times, (size_t)reps, sizeof *times, cmpd);
	est_s = times[reps / 2];
	free(times);
	return est_s;
}

/* The reference into x (3 n): exact searches, and the dense subgraph if n
 * <= sub_max, from the cache when it has them; their seconds in *ex_bc and
 * *ex_sc (-1: no subgraph). */
static void
reference(const graph *g, const char *name, int32_t sub_max, const char *cache, double *x,
	  cent_ws *ws, double *ex_bc, double *ex_sc)
{
	int32_t n = g->n;
	struct cent_opts ex;
	struct prog pr;
	cent_out ref;
	char msg[256];
	double t;

	cent_opts_init(&ex);
	ex.exact_max = INT32_MAX;
	ex.on_progress = on_progress;
	ex.progress_arg = &pr;
	if (cache_read(cache, g, x, ex_bc, ex_sc) && !(n <= sub_max && *ex_sc < 0))
		return;
	memset(&ref, 0, sizeof ref);
	ref.betweenness = x;
	ref.closeness = x + n;
	pr.what = "exact betweenness and closeness";
	pr.t0 = pr.last = prof_now();
	if (centrality_compute(g, &ex, &ref, ws, msg, sizeof msg))
		die("%s: %s", name, msg);
	*ex_bc = prof_now() - pr.t0;
	*ex_sc = -1;
	if (n <= sub_max) {
		memset(&ref, 0, sizeof ref);
		ref.subgraph = x + 2 * (size_t)n;
		fprintf(stderr, "  exact subgraph (dense, n = %d)\n", n);
		t = prof_now();
		if (centrality_compute(g, &ex, &ref, ws, msg, sizeof msg))
			die("%s: %s", name, msg);
		*ex_sc = prof_now() - t;
	}
	if (cache)
		cache_write(cache, g, x, *ex_bc, *ex_sc);
}

int
main(int argc, char **argv)
{
	int ch, reps = 3;
	int32_t sub_max = 5000, n;
	uint64_t seed = 0;
	graph g;
	int64_t id;
	struct cent_opts co;
	cent_out est;
	cent_ws ws;
	double *e, *x, est_s, ex_bc = -1, ex_sc = -1;
	const char *name, *cache = NULL;

	err_setprog(argv[0]);
	cent_opts_init(&co);
	while ((ch = getopt(argc, argv, "R:S:c:d:e:j:k:r:s:")) != -1) {
		switch (ch) {
		case 'R':
			cache = optarg;
			break;
		case 'c':
			co.cl_error = opt_double(optarg, 1e-6, 1, "-c");
			break;
		case 'd':
			co.delta = opt_double(optarg, 1e-9, 0.5, "-d");
			break;
		case 'e':
			co.bc_error = opt_double(optarg, 1e-6, 1, "-e");
			break;
		case 'k':
			co.samples = (int32_t)opt_ll(optarg, 0, INT32_MAX, "-k");
			break;
		case 'j':
			omp_set_num_threads((int)opt_ll(optarg, 1, 1024, "-j"));
			break;
		case 'r':
			reps = (int)opt_ll(optarg, 1, 100, "-r");
			break;
		case 'S':
			sub_max = (int32_t)opt_ll(optarg, 0, 40000, "-S");
			break;
		case 's':
			seed = opt_u64(optarg, "-s");
			break;
		default:
			die_usage("usage: " USAGE);
		}
	}
	if (optind != argc - 1)
		die_usage("usage: " USAGE);
	name = strrchr(argv[optind], '/') ? strrchr(argv[optind], '/') + 1 : argv[optind];
	load(argv[optind], &g, &id);
	n = g.n;
	e = xmallocarray((size_t)n * 5, sizeof *e);
	x = xmallocarray((size_t)n * 3, sizeof *x);
	cent_ws_init(&ws);
	co.seed = rng_mix(seed, (uint64_t)id);
	est_s = estimate(&g, name, &co, reps, e, &est, &ws);
	reference(&g, name, sub_max, cache, x, &ws, &ex_bc, &ex_sc);
	report(name, &g, "betweenness", est_s, ex_bc, &est, est.bc_bound, "additive", e + n, x);
	report(name, &g, "closeness", est_s, ex_bc, &est, est.cl_bound, "relative",
	       e + 2 * (size_t)n, x + n);
	report(name, &g, "subgraph", est_s, ex_sc, &est, est.sc_bound, "relative",
	       e + 3 * (size_t)n, ex_sc >= 0 ? x + 2 * (size_t)n : NULL);
	cent_ws_free(&ws);
	graph_free(&g);
	free(e);
	free(x);
	return 0;
}
