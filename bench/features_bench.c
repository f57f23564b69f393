/*
 * features_bench.c - timing harness for common/nodefeat.c and
 * common/centrality*.c (not a test; built and run by bench/features_bench.sh).
 *
 *   features_bench [-r reps] [-j threads] [-L long] [-q list] features   FILE...
 *   features_bench [-r reps] [-j threads] [-L long] [-q list] [-x exact_max]
 *                  centrality FILE...
 *   features_bench [-j threads] [-ks] labelling FILE
 *   features_bench [-j threads] [-x exact_max] dump FILE
 *
 * FILE: "# n N" then "u v" lines (0-based); a file may hold several graphs,
 * each starting with its own "# n N" line.  Loading is not timed.
 * features/centrality: per quantity and graph a first call, then the median
 * of reps more calls; when the first call takes at least -L seconds
 * (default 2) it is the only one and its time is reported (the rule of
 * bench/features_peers.py too).  One TSV line per (graph, quantity):
 *   graph n m quantity threads seconds calls approx
 * (calls: timed calls behind the median; approx: 1 when centrality_compute
 * used its estimators, i.e. n > exact_max).  -q picks quantities by name
 * (comma-separated: degree, core, ci1, clustering, nodefeat_raw(all4),
 * betweenness, closeness, betweenness+closeness, eigenvector, subgraph,
 * centrality(all4), eigenvector+subgraph); default: the first five for
 * features, the next six for centrality.  -x sets cent_opts.exact_max
 * (default CENT_EXACT_MAX, 2000; 1000000000 makes every quantity exact).
 * labelling: the total over every graph of the file of (a) LAPACK dsyevd
 * with eigenvectors on the dense adjacency matrix alone and (b) the full
 * labelling: nodefeat_raw() (the four features) and centrality_compute() of
 * all four centralities, with the default options.  -k skips (a); -s also
 * times the features, betweenness+closeness and eigenvector+subgraph
 * separately.
 * dump: TSV of the first graph of FILE, node and the 8 quantities as %.17g
 * (subgraph past DBL_MAX clamped, plus subgraph_log), for comparisons with
 * networkx (bench/features_check_full.py).  -x sets cent_opts.exact_max.
 * -j sets OpenMP threads and OpenBLAS threads alike.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lapacke.h>
#include <omp.h>

#include "centrality.h"
#include "err.h"
#include "graph.h"
#include "nodefeat.h"
#include "opt.h"
#include "prof.h"

void openblas_set_num_threads(int);

static int
cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct gl {
	graph *g;
	char (*name)[64];
	int n, cap;
};

static void
load(const char *path, struct gl *L)
{
	FILE *f = fopen(path, "r");
	char line[256], msg[256];
	int32_t *u = NULL, *v = NULL, n = -1;
	int64_t m = 0, cap = 0;
	int idx = 0;

	if (f == NULL)
		die("%s:", path);
	for (;;) {
		char *s = fgets(line, sizeof line, f);
		long a, b;
		if (s == NULL || sscanf(line, "# n %ld", &a) == 1) {
			if (n >= 0) {
				if (L->n == L->cap) {
					L->cap = L->cap ? 2 * L->cap : 16;
					L->g = xreallocarray(L->g, (size_t)L->cap, sizeof *L->g);
					L->name =
					    xreallocarray(L->name, (size_t)L->cap, sizeof *L->name);
				}
				graph_init(&L->g[L->n]);
				if (graph_build(&L->g[L->n], n, m, u, v, GRAPH_SIMPLIFY, NULL, msg,
						sizeof msg))
					die("%s: %s", path, msg);
				snprintf(L->name[L->n], sizeof L->name[0], "%s#%d",
					 strrchr(path, '/') ? strrchr(path, '/') + 1 : path, idx++);
				L->n++;
			}
			if (s == NULL)
				break;
			n = (int32_t)a;
			m = 0;
			continue;
		}
		if (line[0] == '#' || sscanf(line, "%ld %ld", &a, &b) != 2)
			continue;
		if (m == cap) {
			cap = cap ? 2 * cap : 4096;
			u = xreallocarray(u, (size_t)cap, sizeof *u);
			v = xreallocarray(v, (size_t)cap, sizeof *v);
		}
		u[m] = (int32_t)a;
		v[m] = (int32_t)b;
		m++;
	}
	fclose(f);
	free(u);
	free(v);
}

enum {
	Q_DEGREE,
	Q_CORE,
	Q_CI1,
	Q_CLUST,
	Q_RAW,
	Q_BC,
	Q_CL,
	Q_BCCL,
	Q_EV,
	Q_SC,
	Q_ALL,
	Q_EVSC,
	Q_N
};
static const char *qname[Q_N] = { "degree",
				  "core",
				  "ci1",
				  "clustering",
				  "features_raw(all4)",
				  "betweenness",
				  "closeness",
				  "betweenness+closeness",
				  "eigenvector",
				  "subgraph",
				  "centrality(all4)",
				  "eigenvector+subgraph" };

static double
run(int q, const graph *g, const struct cent_opts *co, features_ws *fw, cent_ws *cw, double *buf,
    int *approx)
{
	int32_t n = g->n, i;
	double t0 = prof_now(), *a = buf, *b = buf + n, *c = buf + 2 * (size_t)n,
	       *d = buf + 3 * (size_t)n;
	char msg[256];
	cent_out o;

	memset(&o, 0, sizeof o);
	switch (q) {
	case Q_DEGREE:
		for (i = 0; i < n; i++)
			a[i] = graph_degree(g, i);
		break;
	case Q_CORE:
		nodefeat_core_number(g, (int32_t *)a, fw);
		break;
	case Q_CI1:
		nodefeat_ci1(g, a);
		break;
	case Q_CLUST:
		nodefeat_clustering(g, a, fw);
		break;
	case Q_RAW:
		nodefeat_raw(g, a, fw);
		break;
	default:
		if (q == Q_BC || q == Q_BCCL || q == Q_ALL)
			o.betweenness = a;
		if (q == Q_CL || q == Q_BCCL || q == Q_ALL)
			o.closeness = b;
		if (q == Q_EV || q == Q_ALL || q == Q_EVSC)
			o.eigenvector = c;
		if (q == Q_SC || q == Q_ALL || q == Q_EVSC)
			o.subgraph = d;
		if (centrality_compute(g, co, &o, cw, msg, sizeof msg))
			die("%s", msg);
		if (approx)
			*approx = o.approx != 0;
	}
	return prof_now() - t0;
}

/* The options and the loaded graphs, with the workspaces of the calls. */
struct bench {
	int reps, threads, skip_lapack, split;
	double long_call;
	const char *mode, *qlist;
	struct cent_opts co;
	struct gl L;
	features_ws fw;
	cent_ws cw;
};

/* Options into B (the mode and files after them): 0, or 2 after the usage
 * line on misuse. */
static int
parse(int argc, char **argv, struct bench *B)
{
	int32_t exact_max = CENT_EXACT_MAX;
	int ch;

	B->reps = 5;
	B->long_call = 2.0;
	while ((ch = getopt(argc, argv, "j:kL:q:r:sx:")) != -1) {
		switch (ch) {
		case 'j':
			B->threads = (int)opt_ll(optarg, 1, 1024, "-j");
			break;
		case 'k':
			B->skip_lapack = 1;
			break;
		case 'L':
			B->long_call = opt_double(optarg, 0, 1e9, "-L");
			break;
		case 'q':
			B->qlist = optarg;
			break;
		case 'r':
			B->reps = (int)opt_ll(optarg, 1, 1000, "-r");
			break;
		case 's':
			B->split = 1;
			break;
		case 'x':
			exact_max = (int32_t)opt_ll(optarg, 0, INT32_MAX, "-x");
			break;
		default:
			fprintf(stderr, "usage: features_bench [-ks] [-j threads] [-r reps] "
					"[-L long] [-q list] [-x exact_max] "
					"features|centrality|labelling|dump FILE...\n");
			return 2;
		}
	}
	if (optind + 1 >= argc)
		die_usage("mode and FILE expected");
	B->mode = argv[optind++];
	cent_opts_init(&B->co);
	B->co.exact_max = exact_max;
	return 0;
}

/* dump: the 8 quantities of the first graph, node by node. */
static void
dump(struct bench *B)
{
	const graph *g = &B->L.g[0];
	int32_t n = g->n, v;
	double *raw = xmallocarray((size_t)n * FEAT_N + 1, sizeof *raw);
	double *c = xmallocarray((size_t)n * 5 + 1, sizeof *c);
	cent_out o;
	char msg[256];
	double t0 = prof_now(), t1;

	nodefeat_raw(g, raw, &B->fw);
	memset(&o, 0, sizeof o);
	o.eigenvector = c;
	o.betweenness = c + n;
	o.closeness = c + 2 * (size_t)n;
	o.subgraph = c + 3 * (size_t)n;
	o.subgraph_log = c + 4 * (size_t)n;
	t1 = prof_now();
	if (centrality_compute(g, &B->co, &o, &B->cw, msg, sizeof msg))
		die("%s", msg);
	fprintf(stderr,
		"features %.3f s, centralities %.3f s, approx %d, clamped %lld, "
		"lambda_max %.17g\n",
		t1 - t0, prof_now() - t1, o.approx, (long long)o.subgraph_clamped, o.lambda_max);
	printf("node\tdegree\tcore\tci1\tclustering\teigenvector\tbetweenness"
	       "\tcloseness\tsubgraph\tsubgraph_log\n");
	for (v = 0; v < n; v++) {
		const double *r = raw + (size_t)v * FEAT_N;
		printf("%d\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", v,
		       r[0], r[1], r[2], r[3], c[v], c[n + v], c[2 * (size_t)n + v],
		       c[3 * (size_t)n + v], c[4 * (size_t)n + v]);
	}
	free(raw);
	free(c);
}

/* Seconds of LAPACK dsyevd, with eigenvectors, on g's dense adjacency. */
static double
lapack_alone(const graph *g)
{
	size_t nn = (size_t)g->n * (size_t)g->n;
	double *A = xcalloc(nn, sizeof *A), *w = xmallocarray((size_t)g->n, sizeof *w);
	int32_t v;
	int64_t p;
	double t0, t;

	for (v = 0; v < g->n; v++)
		for (p = g->off[v]; p < g->off[v + 1]; p++)
			A[(size_t)v * g->n + g->adj[p]] = 1;
	t0 = prof_now();
	if (LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'L', g->n, A, g->n, w))
		die("dsyevd failed");
	t = prof_now() - t0;
	free(A);
	free(w);
	return t;
}

/* labelling: the totals over every graph. */
static void
labelling(struct bench *B)
{
	double t_lapack = 0, t_all = 0, t_feat = 0, t_paths = 0, t_spec = 0;
	int64_t nodes = 0;
	int k;

	for (k = 0; k < B->L.n; k++) {
		const graph *g = &B->L.g[k];
		double *buf = xmallocarray((size_t)g->n * 4 + 1, sizeof *buf);
		if (!B->skip_lapack && g->n > 0)
			t_lapack += lapack_alone(g);
		/* the full labelling of one graph: the four features and
		 * the four centralities, default options */
		t_all += run(Q_RAW, g, NULL, &B->fw, &B->cw, buf, NULL);
		t_all += run(Q_ALL, g, NULL, &B->fw, &B->cw, buf, NULL);
		if (B->split) {
			t_feat += run(Q_RAW, g, NULL, &B->fw, &B->cw, buf, NULL);
			t_paths += run(Q_BCCL, g, NULL, &B->fw, &B->cw, buf, NULL);
			t_spec += run(Q_EVSC, g, NULL, &B->fw, &B->cw, buf, NULL);
		}
		nodes += g->n;
		free(buf);
	}
	printf("graphs\t%d\nnodes\t%lld\nthreads\t%d\n", B->L.n, (long long)nodes, B->threads);
	if (!B->skip_lapack)
		printf("dsyevd_alone_s\t%.3f\n", t_lapack);
	printf("labelling_s\t%.3f\n", t_all);
	if (!B->skip_lapack)
		printf("ratio\t%.3f\n", t_all / t_lapack);
	if (B->split)
		printf("features_s\t%.3f\nbetweenness+closeness_s\t%.3f\n"
		       "eigenvector+subgraph_s\t%.3f\n",
		       t_feat, t_paths, t_spec);
}

/* The quantities of the mode (features or centrality), or -q's, into qs;
 * returns their count. */
static int
quantities(const struct bench *B, int *qs)
{
	int lo, hi, q, nq = 0;

	if (strcmp(B->mode, "features") == 0)
		lo = Q_DEGREE, hi = Q_RAW;
	else if (strcmp(B->mode, "centrality") == 0)
		lo = Q_BC, hi = Q_ALL;
	else
		die_usage("unknown mode %s", B->mode);
	if (B->qlist == NULL) {
		for (q = lo; q <= hi; q++)
			qs[nq++] = q;
		return nq;
	}
	const char *p = B->qlist;
	while (*p) {
		size_t len = strcspn(p, ",");
		for (q = 0; q < Q_N; q++)
			if (strlen(qname[q]) == len && strncmp(qname[q], p, len) == 0)
				break;
		if (q == Q_N || nq == Q_N)
			die_usage("-q: unknown or repeated quantity in %s", B->qlist);
		qs[nq++] = q;
		p += len + (p[len] == ',');
	}
	return nq;
}

/* features, centrality: a line per graph and quantity, the median of the
 * calls after a warm-up (or the warm-up alone, when it is long). */
static void
timings(struct bench *B)
{
	int qs[Q_N], nq = quantities(B, qs), i, j, k, q;

	printf("graph\tn\tm\tquantity\tthreads\tseconds\tcalls\tapprox\n");
	for (k = 0; k < B->L.n; k++) {
		const graph *g = &B->L.g[k];
		double *buf = xmallocarray((size_t)g->n * 4 + 1, sizeof *buf);
		double *t = xmallocarray((size_t)B->reps, sizeof *t);
		for (j = 0; j < nq; j++) {
			int approx = 0, calls = B->reps;
			double t1;
			q = qs[j];
			t1 = run(q, g, &B->co, &B->fw, &B->cw, buf, &approx); /* warm-up */
			if (t1 >= B->long_call) {
				t[0] = t1;
				calls = 1;
			} else {
				for (i = 0; i < B->reps; i++)
					t[i] = run(q, g, &B->co, &B->fw, &B->cw, buf, &approx);
			}
			qsort(t, (size_t)calls, sizeof *t, cmpd);
			printf("%s\t%d\t%lld\t%s\t%d\t%.3g\t%d\t%d\n", B->L.name[k], g->n,
			       (long long)g->m, qname[q], B->threads, t[calls / 2], calls, approx);
			fflush(stdout);
		}
		free(buf);
		free(t);
	}
}

int
main(int argc, char **argv)
{
	struct bench B = { 0 };
	int i, k;

	err_setprog(argv[0]);
	if (parse(argc, argv, &B) != 0)
		return 2;
	if (B.threads > 0) {
		omp_set_num_threads(B.threads);
		openblas_set_num_threads(B.threads);
	}
	B.threads = omp_get_max_threads();
	for (i = optind; i < argc; i++)
		load(argv[i], &B.L);
	nodefeat_ws_init(&B.fw);
	cent_ws_init(&B.cw);
	if (strcmp(B.mode, "dump") == 0)
		dump(&B);
	else if (strcmp(B.mode, "labelling") == 0)
		labelling(&B);
	else
		timings(&B);
	for (k = 0; k < B.L.n; k++)
		graph_free(&B.L.g[k]);
	free(B.L.g);
	free(B.L.name);
	nodefeat_ws_free(&B.fw);
	cent_ws_free(&B.cw);
	return 0;
}
