/*
 * centrality - the four node centralities of the ranking task (paper Task 2,
 * appendix A.3): eigenvector, betweenness, closeness and subgraph
 * centrality, as networkx defines them.  For each graph it adds one tensor
 * record "centrality" with those four columns and subgraph_log, the natural
 * log of subgraph centrality (finite where the value itself overflows).
 * Manual: man/man1/centrality.1.  The algorithms live in common/centrality.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "centrality.h"
#include "err.h"
#include "filter.h"
#include "opt.h"
#include "rng.h"
#include "stream.h"

#define SYNOPSIS "centrality [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                  [--eig-pairs n] [--exact-max n] [--progress] [--samples n] [--tsv]\n" \
	"                  [file ...]"
#define COLUMNS CENT_COLUMNS ",subgraph_log"
#define NCOL 5

enum { OPT_EIG_PAIRS = COPT_FIRST_TOOL, OPT_EXACT_MAX, OPT_SAMPLES, OPT_TSV };

static const char *const written[] = { "centrality", NULL };

struct state {
	const struct copt *c;
	struct cent_opts co;
	cent_ws ws;
	double *col[NCOL];	/* (n) each */
	double *table;		/* (n, NCOL) */
	size_t cap;
	gs_rec out;
	int64_t approx_graphs;
};

static void usage(FILE *f, const struct state *s)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"      --eig-pairs N   leading eigenpairs for approximate subgraph centrality [%d]\n"
		"      --exact-max N   exact values up to N nodes, estimates above [%d]\n"
		"  -h, --help          this help\n"
		"  -j, --threads N     threads for the shortest-path searches [all cores]\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"      --progress      progress even when stderr is not a terminal, and report\n"
		"                      the estimates of every graph\n"
		"  -q, --quiet         do not report approximations; no progress\n"
		"  -s, --seed N        seed of the sampled sources (estimates only) [%" PRIu64 "]\n"
		"      --samples N     BFS sources for estimated betweenness and closeness [%d]\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --tsv           print a table (node, one column per value) instead\n"
		"      --version       print the version\n",
		s->co.eig_pairs, s->co.exact_max, s->c->level, s->c->seed, s->co.samples);
}

static void one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;
	int32_t n = fg->g->n, v;
	struct cent_opts co = s->co;
	cent_out res;
	char msg[256];
	int j;

	if ((size_t)n > s->cap) {
		s->cap = (size_t)n;
		for (j = 0; j < NCOL; j++)
			s->col[j] = xreallocarray(s->col[j], s->cap, sizeof(double));
		s->table = xreallocarray(s->table, s->cap, NCOL * sizeof(double));
	}
	memset(&res, 0, sizeof res);
	res.eigenvector = s->col[0];
	res.betweenness = s->col[1];
	res.closeness = s->col[2];
	res.subgraph = s->col[3];
	res.subgraph_log = s->col[4];
	/* every graph samples its own sources: the seed is per graph */
	co.seed = rng_mix(s->c->seed, (uint64_t)fg->rec->id);
	if (centrality_compute(fg->g, &co, &res, &s->ws, msg, sizeof msg) != 0)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, msg);
	if (!s->c->quiet && res.approx) {
		if (s->approx_graphs++ == 0 || s->c->progress)
			warnx_("%s: graph %" PRId64 " (%d nodes > --exact-max %d): estimated%s%s%s "
			       "(%d BFS sources, %d leading eigenpairs)", gs_where(fg->in),
			       fg->rec->id, n, co.exact_max,
			       res.approx & CENT_BETWEENNESS ? " betweenness" : "",
			       res.approx & CENT_CLOSENESS ? " closeness" : "",
			       res.approx & CENT_SUBGRAPH ? " subgraph" : "", res.sources,
			       co.eig_pairs);
	}
	if (!s->c->quiet && res.subgraph_clamped)
		warnx_("%s: graph %" PRId64 ": subgraph centrality of %" PRId64 " node(s) "
		       "exceeds the double range (largest eigenvalue %.1f); written as "
		       "DBL_MAX, use subgraph_log", gs_where(fg->in), fg->rec->id,
		       res.subgraph_clamped, res.lambda_max);
	for (v = 0; v < n; v++)
		for (j = 0; j < NCOL; j++)
			s->table[(size_t)v * NCOL + (size_t)j] = s->col[j][v];
	if (fg->tsv) {
		tsv_rows(fg->tsv, fg, COLUMNS, s->table, n, NCOL);
		return;
	}
	gs_rec_tensor(&s->out, fg->rec->id, "centrality", n, NCOL, GS_F64, COLUMNS);
	memcpy(s->out.data, s->table, (size_t)n * NCOL * sizeof(double));
	if (res.approx)
		gs_attr_setf(&s->out, "approx", "%s%s%s",
			     res.approx & CENT_BETWEENNESS ? "b" : "",
			     res.approx & CENT_CLOSENESS ? "c" : "",
			     res.approx & CENT_SUBGRAPH ? "s" : "");
	gs_write1(fg->out, &s->out);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "eig-pairs", required_argument, NULL, OPT_EIG_PAIRS },
		{ "exact-max", required_argument, NULL, OPT_EXACT_MAX },
		{ "samples",   required_argument, NULL, OPT_SAMPLES },
		{ "tsv",       no_argument,       NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct copt c;
	struct filter f;
	struct state s;
	int ch, j;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	copt_init(&c);
	memset(&f, 0, sizeof f);
	memset(&s, 0, sizeof s);
	s.c = &c;
	cent_opts_init(&s.co);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, &s);
			copt_exit_ok();
		case OPT_EIG_PAIRS:
			s.co.eig_pairs = (int32_t)opt_ll(optarg, 1, 4096, "--eig-pairs");
			break;
		case OPT_EXACT_MAX:
			s.co.exact_max = (int32_t)opt_ll(optarg, 0, GS_MAX_NODES, "--exact-max");
			break;
		case OPT_SAMPLES:
			s.co.samples = (int32_t)opt_ll(optarg, 2, GS_MAX_NODES, "--samples");
			break;
		case OPT_TSV:
			f.tsv = 1;
			break;
		default:
			if (copt_handle(&c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	c.seed_set = 1;		/* the default seed is a seed: the pg record shows it */
	copt_apply_threads(&c);
	cent_ws_init(&s.ws);
	gs_rec_init(&s.out);
	f.c = &c;
	f.replaces = written;
	f.graph_fn = one_graph;
	f.ctx = &s;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	if (!c.quiet && s.approx_graphs > 1)
		warnx_("%" PRId64 " graphs had estimated centralities (larger than "
		       "--exact-max %d)", s.approx_graphs, s.co.exact_max);
	cent_ws_free(&s.ws);
	gs_rec_free(&s.out);
	for (j = 0; j < NCOL; j++)
		free(s.col[j]);
	free(s.table);
	return 0;
}
