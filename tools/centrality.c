/*
 * centrality - the four node centralities of the ranking task (paper Task 2,
 * appendix A.3): eigenvector, betweenness, closeness and subgraph
 * centrality, as networkx defines them.  For each graph it adds one tensor
 * record "centrality" with those four columns and subgraph_log, the natural
 * log of subgraph centrality (finite where the value itself overflows).
 * Manual: man/man1/centrality.1.  The algorithms live in common/centrality*.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "centrality.h"
#include "err.h"
#include "filter.h"
#include "mem.h"
#include "opt.h"
#include "progress.h"
#include "rng.h"
#include "stream.h"

#define SYNOPSIS \
	"centrality [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                  [--closeness-error x] [--delta x] [--eig-pairs n] [--error x]\n" \
	"                  [--exact-max n] [--progress] [--samples n] [--tsv] [file ...]"
#define COLUMNS CENT_COLUMNS ",subgraph_log"
#define NCOL 5

enum {
	OPT_CL_ERROR = COPT_FIRST_TOOL,
	OPT_DELTA,
	OPT_EIG_PAIRS,
	OPT_ERROR,
	OPT_EXACT_MAX,
	OPT_SAMPLES,
	OPT_TSV
};

static const char *const written[] = { "centrality", NULL };

struct state {
	const struct copt *c;
	struct cent_opts co;
	cent_ws ws;
	double *col[NCOL]; /* (n) each */
	size_t cap;
	gs_rec out;
	int64_t approx_graphs;
	int error_set; /* --error or --closeness-error given */
	int tsv;       /* --tsv */
	/* Progress of the current graph (centrality_compute's hook): the
	 * BFS sources, then the components through the eigensolvers, and
	 * within them the restarts of a Lanczos run.  pr_on: the line of pr
	 * was started (sources, components); lz_on: the Lanczos line. */
	struct progress pr, lz;
	int pr_on, pr_phase, lz_on;
	int64_t graph_id;
};

static void
usage(FILE *f, const struct state *s)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"      --closeness-error X\n"
		"                      relative error bound of estimated closeness [%g]\n"
		"      --delta X       probability that an estimate's bound fails [%g]\n"
		"      --eig-pairs N   leading eigenpairs of estimated subgraph centrality [%d]\n"
		"      --error X       additive error bound of estimated betweenness [%g]\n"
		"      --exact-max N   exact values up to N nodes, estimates above [%d]\n"
		"  -h, --help          this help\n"
		"  -j, --threads N     threads for the shortest-path searches [all cores]\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"      --progress      progress even when stderr is not a terminal, and report\n"
		"                      the estimates of every graph\n"
		"  -q, --quiet         do not report approximations; no progress\n"
		"  -s, --seed N        seed of the sampled sources (estimates only) [%" PRIu64 "]\n"
		"      --samples N     BFS sources drawn for the estimates, instead of the\n"
		"                      errors [from the errors]\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --tsv           print a table (node, one column per value) instead\n"
		"      --version       print the version\n",
		s->co.cl_error, s->co.delta, s->co.eig_pairs, s->co.bc_error, s->co.exact_max,
		s->c->level, s->c->seed);
}

/* End a line: its last line (--progress) if it showed at all, that is,
 * if its phase took long enough (progress.h: 10 s, on a terminal 0.2 s),
 * so that a stream of small graphs shows only the filter's line. */
static void
end_line(struct progress *p, int *on)
{
	if (*on && p->drawn)
		progress_done(p);
	*on = 0;
}

/* centrality_compute's progress hook (on the calling thread). */
static void
on_progress(void *arg, int phase, int64_t done, int64_t total)
{
	struct state *s = arg;

	if (phase == CENT_P_LANCZOS) {
		if (s->pr_on && s->pr_phase == CENT_P_SOURCES)
			end_line(&s->pr, &s->pr_on); /* the searches are over */
		if (!s->lz_on)
			progress_start(&s->lz, "restarts", total, "graph %" PRId64 ": Lanczos",
				       s->graph_id);
		s->lz_on = 1;
		s->lz.total = total;
		progress_update(&s->lz, done);
		if (total > 0 && done >= total) /* the run's last call */
			end_line(&s->lz, &s->lz_on);
		return;
	}
	if (s->pr_on && s->pr_phase != phase)
		end_line(&s->pr, &s->pr_on);
	if (!s->pr_on) {
		progress_start(&s->pr, phase == CENT_P_SOURCES ? "sources" : "components", total,
			       "graph %" PRId64 "%s", s->graph_id,
			       phase == CENT_P_SOURCES ? "" : ": eigensolvers");
		s->pr_on = 1;
		s->pr_phase = phase;
	}
	s->pr.total = total;
	progress_update(&s->pr, done);
}

/* Append printf-style to buf (size len) at *at. */
static void cat(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void
cat(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (k > 0)
		*at += (size_t)k;
}

/* One line on what was estimated and how well (centrality(1), ESTIMATES). */
static void
say_estimates(const struct state *s, const struct filter_graph *fg, const cent_out *r)
{
	const struct cent_opts *o = &s->co;
	int b = r->approx & CENT_BETWEENNESS, c = r->approx & CENT_CLOSENESS;
	char m[640];
	size_t at = 0;

	if (b || c || (r->approx & CENT_SUBGRAPH))
		cat(m, sizeof m, &at, "estimated");
	if (b)
		cat(m, sizeof m, &at, " betweenness to within %.2g", r->bc_bound);
	if (b && !o->samples)
		cat(m, sizeof m, &at, " (--error %g)", o->bc_error);
	if (b && c)
		cat(m, sizeof m, &at, " and");
	if (c)
		cat(m, sizeof m, &at, " closeness to within %.*f%%", 100 * r->cl_bound < 10,
		    100 * r->cl_bound);
	if (c && !o->samples)
		cat(m, sizeof m, &at, " (--closeness-error %g)", o->cl_error);
	if (b || c) {
		cat(m, sizeof m, &at, " from %" PRId64 " BFS sources drawn in %d component(s)",
		    r->sampled, r->sampled_comps);
		if (o->samples)
			cat(m, sizeof m, &at, " (--samples %d%s)", (int)o->samples,
			    r->sampled > o->samples ? ": at least 2 in each" : "");
		cat(m, sizeof m, &at, ", each bound with probability %g (--delta %g)", 1 - o->delta,
		    o->delta);
	}
	if (r->approx & CENT_SUBGRAPH)
		cat(m, sizeof m, &at, "%s subgraph to within %.*f%% from %d leading eigenpairs",
		    b || c ? ";" : "", 100 * r->sc_bound < 10, 100 * r->sc_bound,
		    (int)o->eig_pairs);
	if (r->switched_comps)
		cat(m, sizeof m, &at,
		    "%sbetweenness and closeness searched from every node in "
		    "%d component(s) past --exact-max, as %s would take more than a third "
		    "of their nodes",
		    at > 0 ? "; " : "", r->switched_comps,
		    o->samples ? "--samples" : "the requested errors");
	warnx_("%s: graph %" PRId64 " (%d nodes > --exact-max %d): %s", gs_where(fg->in),
	       fg->rec->id, fg->g->n, (int)o->exact_max, m);
}

/* The estimates' error statements, as attributes of the tensor record
 * (centrality(1), ESTIMATES). */
static void
set_bounds(gs_rec *t, const struct cent_opts *o, const cent_out *r)
{
	int b = r->approx & CENT_BETWEENNESS, c = r->approx & CENT_CLOSENESS;

	gs_attr_setf(t, "approx", "%s%s%s", b ? "b" : "", c ? "c" : "",
		     r->approx & CENT_SUBGRAPH ? "s" : "");
	if (b || c) {
		gs_attr_setf(t, "samples", "%" PRId64, r->sampled);
		gs_attr_setf(t, "delta", "%g", o->delta);
	}
	if (b && !o->samples)
		gs_attr_setf(t, "betweenness_error", "%g", o->bc_error);
	if (b)
		gs_attr_setf(t, "betweenness_bound", "%.6g", r->bc_bound);
	if (c && !o->samples)
		gs_attr_setf(t, "closeness_error", "%g", o->cl_error);
	if (c)
		gs_attr_setf(t, "closeness_bound", "%.6g", r->cl_bound);
	if (r->approx & CENT_SUBGRAPH) {
		gs_attr_setf(t, "eig_pairs", "%d", (int)o->eig_pairs);
		gs_attr_setf(t, "subgraph_bound", "%.6g", r->sc_bound);
	}
}

/* What centrality holds at most for a graph (centrality(1), MEMORY): the
 * record and its graph, and the largest of the three phases: the searches
 * with the betweenness and closeness columns, the eigensolvers with all
 * five, the five with the output rows.  search, spectral: the workspace
 * of the first two (0: not known yet). */
static double
need_of(const gs_rec *rec, double search, double spectral)
{
	double n = rec->n, cols = 8.0 * NCOL * n;

	return gs_rec_bytes(rec) + graph_bytes(rec->n, rec->m) +
	       fmax(fmax(16 * n + search, cols + spectral), 2 * cols);
}

/* filter_run's check before the graph is built: what it takes whatever
 * its shape. */
static double
need(void *ctx, const gs_rec *rec)
{
	(void)ctx;
	return need_of(rec, 0, 0);
}

/* Once the graph is built, its components say what the searches and the
 * eigensolvers take. */
static void
check_memory(struct state *s, const struct filter_graph *fg, cent_out *want)
{
	double search, spectral;

	cent_ws_bytes(fg->g, &s->co, want, omp_get_max_threads(), &s->ws, &search, &spectral);
	mem_require(need_of(fg->rec, search, spectral),
		    "%s: graph %" PRId64 " (%" PRId32 " nodes, %" PRId64 " edges)",
		    gs_where(fg->in), fg->rec->id, fg->g->n, fg->g->m);
}

static void
one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;
	int32_t n = fg->g->n, v;
	struct cent_opts co = s->co;
	cent_out res;
	char msg[256];
	double *table;
	int j;

	if ((size_t)n > s->cap) {
		s->cap = (size_t)n;
		for (j = 0; j < NCOL; j++)
			s->col[j] = xreallocarray(s->col[j], s->cap, sizeof(double));
	}
	memset(&res, 0, sizeof res);
	res.eigenvector = s->col[0];
	res.betweenness = s->col[1];
	res.closeness = s->col[2];
	res.subgraph = s->col[3];
	res.subgraph_log = s->col[4];
	check_memory(s, fg, &res);
	/* every graph samples its own sources: the seed is per graph */
	co.seed = rng_mix(s->c->seed, (uint64_t)fg->rec->id);
	co.on_progress = on_progress;
	co.progress_arg = s;
	s->pr_on = s->lz_on = 0;
	s->graph_id = fg->rec->id;
	if (centrality_compute(fg->g, &co, &res, &s->ws, msg, sizeof msg) != 0)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, msg);
	end_line(&s->pr, &s->pr_on);
	end_line(&s->lz, &s->lz_on);
	if (!s->c->quiet && (res.approx || res.switched_comps) &&
	    (s->approx_graphs++ == 0 || s->c->progress))
		say_estimates(s, fg, &res);
	if (!s->c->quiet && res.subgraph_clamped)
		warnx_("%s: graph %" PRId64 ": subgraph centrality of %" PRId64 " node(s) "
		       "exceeds the double range (largest eigenvalue %.1f); written as "
		       "DBL_MAX, use subgraph_log",
		       gs_where(fg->in), fg->rec->id, res.subgraph_clamped, res.lambda_max);
	/* the rows, in the record's buffer (also the table of --tsv) */
	gs_rec_tensor(&s->out, fg->rec->id, "centrality", n, NCOL, GS_F64, COLUMNS);
	table = s->out.data;
	for (v = 0; v < n; v++)
		for (j = 0; j < NCOL; j++)
			table[(size_t)v * NCOL + (size_t)j] = s->col[j][v];
	if (fg->tsv) {
		filter_tsv_rows(fg->tsv, fg, COLUMNS, table, n, NCOL);
		return;
	}
	if (res.approx)
		set_bounds(&s->out, &co, &res);
	gs_write1(fg->out, &s->out);
}

/* The options into c and s (the centrality options, --tsv); dies on
 * misuse. */
static void
parse(struct copt *c, struct state *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "closeness-error", required_argument, NULL, OPT_CL_ERROR },
		{ "delta", required_argument, NULL, OPT_DELTA },
		{ "eig-pairs", required_argument, NULL, OPT_EIG_PAIRS },
		{ "error", required_argument, NULL, OPT_ERROR },
		{ "exact-max", required_argument, NULL, OPT_EXACT_MAX },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	copt_init(c);
	memset(s, 0, sizeof *s);
	s->c = c;
	cent_opts_init(&s->co);
	while ((ch = copt_next(c, argc, argv, ":" COPT_LETTERS, longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, s);
			copt_exit_ok();
		case OPT_CL_ERROR:
			s->co.cl_error = opt_double(optarg, 1e-6, 1, "--closeness-error");
			s->error_set = 1;
			break;
		case OPT_DELTA:
			s->co.delta = opt_double(optarg, 1e-12, 0.5, "--delta");
			break;
		case OPT_EIG_PAIRS:
			s->co.eig_pairs = (int32_t)opt_ll(optarg, 1, 4096, "--eig-pairs");
			break;
		case OPT_ERROR:
			s->co.bc_error = opt_double(optarg, 1e-6, 1, "--error");
			s->error_set = 1;
			break;
		case OPT_EXACT_MAX:
			s->co.exact_max = (int32_t)opt_ll(optarg, 0, GS_MAX_NODES, "--exact-max");
			break;
		case OPT_SAMPLES:
			s->co.samples = (int32_t)opt_ll(optarg, 2, GS_MAX_NODES, "--samples");
			break;
		case OPT_TSV:
			s->tsv = 1;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (s->co.samples && s->error_set)
		die_usage("--samples fixes the sources, --error and --closeness-error ask "
			  "for bounds; give one or the other");
	c->seed_set = 1; /* the default seed is a seed: the pg record shows it */
}

int
main(int argc, char **argv)
{
	struct copt c;
	struct filter f;
	struct state s;
	int j;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse(&c, &s, argc, argv);
	copt_apply_threads(&c);
	progress_init(&s.pr, &c);
	progress_init(&s.lz, &c);
	cent_ws_init(&s.ws);
	gs_rec_init(&s.out);
	memset(&f, 0, sizeof f);
	f.c = &c;
	f.tsv = s.tsv;
	f.want_names = s.tsv; /* a name column */
	f.replaces = written;
	f.graph_fn = one_graph;
	f.need_fn = need;
	f.ctx = &s;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	if (!c.quiet && s.approx_graphs > 1)
		warnx_("%" PRId64 " graphs had estimated centralities (larger than "
		       "--exact-max %d)",
		       s.approx_graphs, s.co.exact_max);
	cent_ws_free(&s.ws);
	gs_rec_free(&s.out);
	for (j = 0; j < NCOL; j++)
		free(s.col[j]);
	return 0;
}
