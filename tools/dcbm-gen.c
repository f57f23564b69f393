/*
 * dcbm-gen - generate degree-corrected block model graphs, each with its
 * drawn parameters and the cluster of every node (paper, appendix "Details
 * about Pre-training Procedure").  Manual: man/man1/dcbm-gen.1.  The model
 * and the sampler live in common/dcbm.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "config.h"
#include "dcbm.h"
#include "err.h"
#include "opt.h"
#include "progress.h"
#include "stream.h"

/* Graphs with at least this many nodes are made one at a time, with the
 * threads inside each graph, so memory holds one big graph, not -j of them. */
#define BIG_NODES 100000

#define MAX_COUNT (1LL << 40)
#define MAX_ID (1LL << 62)
#define MAX_K 1e6

enum {
	OPT_CLUSTERS = COPT_FIRST_TOOL,
	OPT_CONFIG,
	OPT_COUNT,
	OPT_DEG_PER_K,
	OPT_FIRST_ID,
	OPT_GAMMA,
	OPT_MEAN_DEGREE,
	OPT_NODES,
	OPT_P_DIV_Q
};

struct opts {
	struct copt c;
	struct dcbm_ranges R;
	long long count, first_id;
	const char *config;
};

#define SYNOPSIS \
	"dcbm-gen [-qt] [-j threads] [-k range] [-l level] [-o file] [-s seed]\n" \
	"                [--clusters range] [--config file] [--count n] [--deg-per-k x]\n" \
	"                [--first-id n] [--gamma range] [--mean-degree range]\n" \
	"                [--nodes range] [--p-div-q range] [--progress]"

/* "LO..HI", or "X" when the range is one value. */
static const char *
fmt_drange(char *buf, size_t len, const double *r)
{
	if (r[0] == r[1])
		snprintf(buf, len, "%g", r[0]);
	else
		snprintf(buf, len, "%g..%g", r[0], r[1]);
	return buf;
}

static const char *
fmt_irange(char *buf, size_t len, const long long *r)
{
	if (r[0] == r[1])
		snprintf(buf, len, "%lld", r[0]);
	else
		snprintf(buf, len, "%lld..%lld", r[0], r[1]);
	return buf;
}

static void
usage(FILE *f, const struct opts *o)
{
	char b[6][64], thr[32];

	if (o->c.threads > 0)
		snprintf(thr, sizeof thr, "%d", o->c.threads);
	else
		snprintf(thr, sizeof thr, "all cores");

	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "  RANGE is LO..HI (drawn uniformly for each graph) or a single value\n"
	    "      --clusters RANGE    clusters K [%s]\n"
	    "      --config FILE       YAML file of these settings; options override it\n"
	    "      --count N           graphs to generate [%lld]\n"
	    "      --deg-per-k X       target mean degree per unit of k [%g]\n"
	    "      --first-id N        id of the first graph; graph i is first-id + i [%lld]\n"
	    "      --gamma RANGE       theta density ~ theta^-gamma; small = heavy tail [%s]\n"
	    "  -h, --help              this help\n"
	    "  -j, --threads N         threads [%s]\n"
	    "  -k, --k RANGE           density: target mean degree = deg-per-k * k [%s]\n"
	    "  -l, --level N           gzip level, 0 = plain [%d]\n"
	    "      --mean-degree RANGE target mean degree, instead of -k [%s]\n"
	    "      --nodes RANGE       nodes per graph [%s]\n"
	    "  -o, --output FILE       write to FILE instead of stdout\n"
	    "      --p-div-q RANGE     in-cluster / between-cluster probability [%s]\n"
	    "      --progress          progress on stderr even when it is not a terminal\n"
	    "  -q, --quiet             no progress\n"
	    "  -s, --seed N            random seed; graph id draws from stream (seed, id) [%" PRIu64
	    "]\n"
	    "  -t, --text              write the text form (plain unless -l is given)\n"
	    "      --version           print the version\n",
	    fmt_irange(b[0], sizeof b[0], o->R.clusters), o->count, o->R.deg_per_k, o->first_id,
	    fmt_drange(b[1], sizeof b[1], o->R.gamma), thr, fmt_drange(b[2], sizeof b[2], o->R.k),
	    o->c.level,
	    o->R.use_mean_degree ? fmt_drange(b[3], sizeof b[3], o->R.mean_degree) : "unset",
	    fmt_irange(b[4], sizeof b[4], o->R.nodes), fmt_drange(b[5], sizeof b[5], o->R.p_div_q),
	    o->c.seed);
}

/* A thread's sampler buffers, reused from graph to graph. */
struct work {
	dcbm d;
	dcbm_edges e;
};

/* A generated graph waiting for its turn: the graph record, the clusters. */
struct slot {
	gs_rec g, t;
};

/* Generate graph id with w's buffers into the records of s. */
static void
make_graph(const struct opts *o, struct work *w, struct slot *s, int64_t id)
{
	const struct dcbm_params *p = &w->d.par;
	int32_t n;

	dcbm_generate(&o->R, o->c.seed, (uint64_t)id, &w->d, &w->e);
	n = p->n;
	gs_rec_graph(&s->g, id, n, w->e.m, GS_NONE);
	memcpy(s->g.u, w->e.u, (size_t)w->e.m * sizeof *s->g.u);
	memcpy(s->g.v, w->e.v, (size_t)w->e.m * sizeof *s->g.v);
	gs_attr_set(&s->g, "generator", "dcbm");
	gs_attr_setf(&s->g, "seed", "%" PRIu64, o->c.seed);
	gs_attr_setf(&s->g, "stream", "%" PRId64, id);
	gs_attr_setf(&s->g, "K", "%d", (int)p->K);
	gs_attr_setf(&s->g, "p_div_q", "%.6g", p->p_div_q);
	gs_attr_setf(&s->g, "k", "%.6g", p->k);
	gs_attr_setf(&s->g, "gamma", "%.6g", p->gamma);
	gs_attr_setf(&s->g, "mean_degree_target", "%.6g", p->mean_degree);
	gs_attr_setf(&s->g, "p_in", "%.6g", w->d.p_in);
	gs_attr_setf(&s->g, "p_out", "%.6g", w->d.p_out);
	gs_attr_setf(&s->g, "theta_max", "%.6g", w->d.theta_max);
	gs_attr_setf(&s->g, "mean_degree", "%.6g", n > 0 ? 2.0 * (double)w->e.m / n : 0.0);

	gs_rec_tensor(&s->t, id, "cluster", n, 1, GS_I32, "cluster");
	memcpy(s->t.data, w->d.cluster, (size_t)n * sizeof *w->d.cluster);
}

/*
 * The hand-off between threads of the many-graphs mode.  Graph i goes to
 * slot i % nslot and may start only when i < next_write + nslot, so the
 * slot is free; whichever thread sees graph next_write ready writes it
 * (one writer at a time), and the others keep sampling meanwhile.  Threads
 * that can do neither sleep on the condition variable instead of spinning,
 * which matters when the machine has other work.
 */
struct queue {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	long long next_gen, next_write;
	int writing;
	int nslot;
	struct slot *slot;
	unsigned char *ready; /* (nslot) slot holds a generated graph */
};

static void
many_graphs(const struct opts *o, gs_file *out, struct progress *pr, int nthr)
{
	struct queue q;
	int k;

	memset(&q, 0, sizeof q);
	pthread_mutex_init(&q.mu, NULL);
	pthread_cond_init(&q.cv, NULL);
	q.nslot = 2 * nthr;
	q.slot = xcalloc((size_t)q.nslot, sizeof *q.slot);
	q.ready = xcalloc((size_t)q.nslot, 1);
	for (k = 0; k < q.nslot; k++) {
		gs_rec_init(&q.slot[k].g);
		gs_rec_init(&q.slot[k].t);
	}
#pragma omp parallel num_threads(nthr)
	{
		struct work w;
		long long i;

		dcbm_init(&w.d);
		dcbm_edges_init(&w.e);
		pthread_mutex_lock(&q.mu);
		for (;;) {
			struct slot *s;

			if (!q.writing && q.next_write < o->count &&
			    q.ready[q.next_write % q.nslot]) {
				i = q.next_write;
				s = &q.slot[i % q.nslot];
				q.writing = 1;
				pthread_mutex_unlock(&q.mu);
				gs_write1(out, &s->g);
				gs_write1(out, &s->t);
				progress_update(pr, i + 1);
				pthread_mutex_lock(&q.mu);
				q.ready[i % q.nslot] = 0;
				q.next_write++;
				q.writing = 0;
				pthread_cond_broadcast(&q.cv);
			} else if (q.next_gen < o->count && q.next_gen < q.next_write + q.nslot) {
				i = q.next_gen++;
				s = &q.slot[i % q.nslot];
				pthread_mutex_unlock(&q.mu);
				make_graph(o, &w, s, o->first_id + i);
				pthread_mutex_lock(&q.mu);
				q.ready[i % q.nslot] = 1;
				pthread_cond_broadcast(&q.cv);
			} else if (q.next_write >= o->count)
				break;
			else
				pthread_cond_wait(&q.cv, &q.mu);
		}
		pthread_mutex_unlock(&q.mu);
		dcbm_free(&w.d);
		dcbm_edges_free(&w.e);
	}
	for (k = 0; k < q.nslot; k++) {
		gs_rec_free(&q.slot[k].g);
		gs_rec_free(&q.slot[k].t);
	}
	free(q.slot);
	free(q.ready);
	pthread_cond_destroy(&q.cv);
	pthread_mutex_destroy(&q.mu);
}

static int
run(const struct opts *o, gs_file *out)
{
	struct progress pr;
	int nthr = 1;
	long long i;

	progress_init(&pr, &o->c);
	progress_start(&pr, "graphs", o->count, NULL);
#ifdef _OPENMP
	nthr = omp_get_max_threads();
#endif
	/*
	 * Many graphs: one per thread at a time, written in id order while
	 * the other threads sample, at most 2 nthr graphs in memory.  One
	 * graph, or big graphs: one at a time, and dcbm_sample() uses the
	 * threads inside it.  Either way graph id depends on (seed, id) only.
	 */
	if (nthr > 1 && o->count > 1 && o->R.nodes[0] < BIG_NODES) {
		many_graphs(o, out, &pr, nthr);
		progress_done(&pr);
		return 0;
	}
	{
		struct work w;
		struct slot s;

		dcbm_init(&w.d);
		dcbm_edges_init(&w.e);
		gs_rec_init(&s.g);
		gs_rec_init(&s.t);
		for (i = 0; i < o->count; i++) {
			make_graph(o, &w, &s, o->first_id + i);
			gs_write1(out, &s.g);
			gs_write1(out, &s.t);
			progress_update(&pr, i + 1);
		}
		dcbm_free(&w.d);
		dcbm_edges_free(&w.e);
		gs_rec_free(&s.g);
		gs_rec_free(&s.t);
	}
	progress_done(&pr);
	return 0;
}

/* ---- options ---- */

/* What the command line gave, applied over the config file. */
struct given {
	int count, first_id, nodes, clusters, p_div_q, k, gamma, deg_per_k, mean_degree;
};

static void
load_config(struct opts *o, const struct given *cl)
{
	/* Keys are the long option names; '_' may stand for '-'. */
	long long seed = 0;
	int seed_set = 0, md_set = 0;
	struct cfg_key keys[] = {
		{ "count", CFG_INT, &o->count, 0, (double)MAX_COUNT, NULL },
		{ "first-id", CFG_INT, &o->first_id, 0, (double)MAX_ID, NULL },
		{ "first_id", CFG_INT, &o->first_id, 0, (double)MAX_ID, NULL },
		{ "seed", CFG_INT, &seed, 0, 9.2e18, &seed_set },
		{ "nodes", CFG_IRANGE, o->R.nodes, 1, (double)DCBM_MAX_NODES, NULL },
		{ "clusters", CFG_IRANGE, o->R.clusters, 1, DCBM_MAX_CLUSTERS, NULL },
		{ "p-div-q", CFG_DRANGE, o->R.p_div_q, 1, DCBM_MAX_PDQ, NULL },
		{ "p_div_q", CFG_DRANGE, o->R.p_div_q, 1, DCBM_MAX_PDQ, NULL },
		{ "k", CFG_DRANGE, o->R.k, 0, MAX_K, NULL },
		{ "gamma", CFG_DRANGE, o->R.gamma, DCBM_MIN_GAMMA, DCBM_MAX_GAMMA, NULL },
		{ "deg-per-k", CFG_DOUBLE, &o->R.deg_per_k, 0, DCBM_MAX_DEGREE, NULL },
		{ "deg_per_k", CFG_DOUBLE, &o->R.deg_per_k, 0, DCBM_MAX_DEGREE, NULL },
		{ "mean-degree", CFG_DRANGE, o->R.mean_degree, 0, DCBM_MAX_DEGREE, &md_set },
		{ "mean_degree", CFG_DRANGE, o->R.mean_degree, 0, DCBM_MAX_DEGREE, &md_set },
	};
	struct opts cmd = *o; /* the command line's values, put back below */
	char msg[512];

	if (cfg_load(o->config, keys, sizeof keys / sizeof keys[0], msg, sizeof msg) != 0)
		die_usage("%s", msg);
	if (seed_set && !cmd.c.seed_set)
		o->c.seed = (uint64_t)seed;
	if (md_set)
		o->R.use_mean_degree = 1;
#define KEEP(flag, field) \
	do { \
		if (cl->flag) \
			memcpy(&o->field, &cmd.field, sizeof o->field); \
	} while (0)
	KEEP(count, count);
	KEEP(first_id, first_id);
	KEEP(nodes, R.nodes);
	KEEP(clusters, R.clusters);
	KEEP(p_div_q, R.p_div_q);
	KEEP(gamma, R.gamma);
	KEEP(deg_per_k, R.deg_per_k);
	KEEP(mean_degree, R.mean_degree);
#undef KEEP
	if (cl->k) {
		memcpy(o->R.k, cmd.R.k, sizeof o->R.k);
		if (!cl->mean_degree)
			o->R.use_mean_degree = 0; /* -k beats the file's mean-degree */
	}
	if (cl->mean_degree)
		o->R.use_mean_degree = 1;
}

/* Checks that span options (each value alone was bounded when parsed). */
static void
check_opts(const struct opts *o)
{
	if (o->R.use_mean_degree) {
		if (!(o->R.mean_degree[0] > 0))
			die_usage("--mean-degree: the mean degree must be above 0");
	} else {
		if (!(o->R.k[0] > 0))
			die_usage("-k: k must be above 0");
		if (!(o->R.deg_per_k > 0))
			die_usage("--deg-per-k: must be above 0");
		if (o->R.deg_per_k * o->R.k[1] > DCBM_MAX_DEGREE)
			die_usage("-k: deg-per-k * k = %g exceeds the mean degree limit %g",
				  o->R.deg_per_k * o->R.k[1], DCBM_MAX_DEGREE);
	}
	if (o->first_id > MAX_ID - o->count)
		die_usage("--first-id: %lld + --count %lld exceeds %lld", o->first_id, o->count,
			  MAX_ID);
}

/* The options into o over the paper's defaults, and which were given into
 * cl; dies on misuse. */
static void
parse(struct opts *o, struct given *cl, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "clusters", required_argument, NULL, OPT_CLUSTERS },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "deg-per-k", required_argument, NULL, OPT_DEG_PER_K },
		{ "first-id", required_argument, NULL, OPT_FIRST_ID },
		{ "gamma", required_argument, NULL, OPT_GAMMA },
		{ "k", required_argument, NULL, 'k' },
		{ "mean-degree", required_argument, NULL, OPT_MEAN_DEGREE },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "p-div-q", required_argument, NULL, OPT_P_DIV_Q },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	/* The paper's ranges (appendix), mean degree 10 k. */
	*o = (struct opts){
		.R = { .nodes = { 100, 2000 },
		       .clusters = { 2, 10 },
		       .p_div_q = { 3, 6 },
		       .k = { 0.1, 2 },
		       .gamma = { 2, 10 },
		       .deg_per_k = 10,
		       .mean_degree = { 10, 10 },
		       .use_mean_degree = 0 },
		.count = 1024,
		.first_id = 0,
		.config = NULL,
	};
	memset(cl, 0, sizeof *cl);
	copt_init(&o->c);
	while ((ch = copt_next(&o->c, argc, argv, ":k:" COPT_LETTERS, longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, o);
			copt_exit_ok();
		case 'k':
			opt_range_double(optarg, 0, MAX_K, "-k", &o->R.k[0], &o->R.k[1]);
			cl->k = 1;
			break;
		case OPT_CLUSTERS:
			opt_range_ll(optarg, 1, DCBM_MAX_CLUSTERS, "--clusters", &o->R.clusters[0],
				     &o->R.clusters[1]);
			cl->clusters = 1;
			break;
		case OPT_CONFIG:
			o->config = optarg;
			break;
		case OPT_COUNT:
			o->count = opt_ll(optarg, 0, MAX_COUNT, "--count");
			cl->count = 1;
			break;
		case OPT_DEG_PER_K:
			o->R.deg_per_k = opt_double(optarg, 0, DCBM_MAX_DEGREE, "--deg-per-k");
			cl->deg_per_k = 1;
			break;
		case OPT_FIRST_ID:
			o->first_id = opt_ll(optarg, 0, MAX_ID, "--first-id");
			cl->first_id = 1;
			break;
		case OPT_GAMMA:
			opt_range_double(optarg, DCBM_MIN_GAMMA, DCBM_MAX_GAMMA, "--gamma",
					 &o->R.gamma[0], &o->R.gamma[1]);
			cl->gamma = 1;
			break;
		case OPT_MEAN_DEGREE:
			opt_range_double(optarg, 0, DCBM_MAX_DEGREE, "--mean-degree",
					 &o->R.mean_degree[0], &o->R.mean_degree[1]);
			o->R.use_mean_degree = 1;
			cl->mean_degree = 1;
			break;
		case OPT_NODES:
			opt_range_ll(optarg, 1, DCBM_MAX_NODES, "--nodes", &o->R.nodes[0],
				     &o->R.nodes[1]);
			cl->nodes = 1;
			break;
		case OPT_P_DIV_Q:
			opt_range_double(optarg, 1, DCBM_MAX_PDQ, "--p-div-q", &o->R.p_div_q[0],
					 &o->R.p_div_q[1]);
			cl->p_div_q = 1;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (optind < argc)
		die_usage("unexpected operand '%s' (dcbm-gen reads no input)", argv[optind]);
	if (cl->k && cl->mean_degree)
		die_usage("-k and --mean-degree both set the density; give one");
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct given cl;
	gs_file *out;
	int rc;

	err_setprog(argv[0]);
	parse(&o, &cl, argc, argv);
	if (o.config)
		load_config(&o, &cl);
	check_opts(&o);
	/* A default seed is still a seed: let the pg record show it. */
	o.c.seed_set = 1;
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	rc = run(&o, out);
	gs_close(out);
	return rc;
}
