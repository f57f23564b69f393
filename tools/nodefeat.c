/*
 * nodefeat - per-node features, the model input.  Two sets (--set):
 *   paper  the four structural features of the paper (3.1, appendix A.1):
 *          degree, core number, 1-hop collective influence, local
 *          clustering coefficient; two tensor records per graph, the model
 *          input "features" (min-max normalised per graph, clustering as
 *          is) and the raw values "nodefeat_raw";
 *   rwse   random-walk return probabilities p_k(v) = [(D^-1 A)^k]_vv,
 *          k = 1..K, exact or estimated with a stated error (common/rwse.h);
 *          one tensor record "features";
 *   refex  the paper's four with log-scaled counts and their means and
 *          maxima over neighbours, twice (common/refex.h): a hand-made
 *          baseline; one tensor record "features".
 * Manual: man/man1/nodefeat.1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "nodefeat.h"
#include "opt.h"
#include "progress.h"
#include "refex.h"
#include "rng.h"
#include "rwse.h"
#include "stream.h"

#define SYNOPSIS \
	"nodefeat [-qt] [-j threads] [-l level] [-o file] [-s seed] [--exact-max n]\n" \
	"                [--name name] [--progress] [--rw-delta p] [--rw-error eps]\n" \
	"                [--rw-steps k] [--scale minmax|log|both] [--set paper|refex|rwse]\n" \
	"                [--tsv] [file ...]"

enum {
	OPT_EXACT_MAX = COPT_FIRST_TOOL,
	OPT_NAME,
	OPT_RW_DELTA,
	OPT_RW_ERROR,
	OPT_RW_STEPS,
	OPT_SCALE,
	OPT_SET,
	OPT_TSV
};
enum { SET_PAPER, SET_RWSE, SET_REFEX };

static const char *const sets[] = { "paper", "rwse", "refex", NULL };
/* Every set replaces both names (--name's, and it with _raw): a
 * nodefeat_raw left beside another set's features would describe
 * something else. */

struct state {
	const struct copt *c;
	int set;		   /* SET_x */
	int tsv;		   /* --tsv */
	int scale;		   /* paper: FEAT_SCALE_x of "features" */
	const char *name;	   /* the tensor's name [features] (--name) */
	char rawname[GS_NAME_MAX]; /* the paper set's raw values: NAME_raw */
	const char *written[3];
	struct rwse_opts ro; /* rwse */
	features_ws ws;
	rwse_ws rws;
	refex_ws rx;
	double *raw, *both; /* paper with --tsv: (n, 4), (n, 7) */
	double *rw;	    /* rwse with --tsv: (n, K) */
	size_t cap, cap_rw; /* nodes allocated */
	char columns[6 * RWSE_STEPS_MAX];
	gs_rec out;
	int64_t estimated_graphs;
	struct progress pr; /* the nodes of the current graph */
	int pr_on;
	int64_t graph_id;
};

static void
usage(FILE *f, const struct state *s)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"      --exact-max N   rwse: exact in components of up to N nodes, estimated\n"
		"                      in larger ones [%d]\n"
		"  -h, --help          this help\n"
		"      --name NAME     the tensor's name, NAME_raw the paper set's raw values\n"
		"                      (a pre-training target, say) [features]\n"
		"  -j, --threads N     threads [all cores]\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"      --progress      progress even when stderr is not a terminal, and report\n"
		"                      the estimates of every graph\n"
		"  -q, --quiet         no warnings or progress\n"
		"      --rw-delta P    rwse estimates: each value within the error with\n"
		"                      probability 1 - P [%g]\n"
		"      --rw-error EPS  rwse estimates: bound on the error of each value [%g]\n"
		"      --rw-steps K    rwse: walk lengths 1..K, the columns rw1..rwK [%d]\n"
		"  -s, --seed N        rwse: seed of the walks (estimates only) [%" PRIu64 "]\n"
		"      --scale MODE    paper: model input minmax (per graph, the paper's),\n"
		"                      log (log1p, keeps graph size) or both (the min-max\n"
		"                      four, then log1p of degree, core, ci1: 7 columns) [minmax]\n"
		"      --set NAME      feature set: paper (degree, core, ci1, clustering),\n"
		"                      rwse (random-walk return probabilities) or refex\n"
		"                      (paper's, log, neighbour means and maxima) [paper]\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --tsv           print a table (node, one column per value) instead\n"
		"      --version       print the version\n",
		s->ro.exact_max, s->c->level, s->ro.delta, s->ro.error, s->ro.steps, s->c->seed);
}

/* --scale both: nodefeat_both()'s FEAT_BOTH_N columns (nodefeat.h) */
#define SCALE_BOTH 2

/* The four features: written as "features" (scaled) and "nodefeat_raw",
 * each made in the output record's buffer from the counts in s->ws, so
 * that a graph costs one (n, 4) matrix (nodefeat(1), MEMORY). */
static void
paper_graph(struct state *s, const struct filter_graph *fg)
{
	int32_t n = fg->g->n, v;

	s->graph_id = fg->rec->id;
	nodefeat_counts(fg->g, &s->ws);
	if (fg->tsv) {
		if ((size_t)n > s->cap) {
			s->cap = (size_t)n;
			s->raw = xreallocarray(s->raw, s->cap, FEAT_N * sizeof *s->raw);
			s->both = xreallocarray(s->both, s->cap, FEAT_BOTH_N * sizeof *s->both);
		}
		nodefeat_rows(fg->g, &s->ws, s->raw);
		for (v = 0; v < n; v++)
			memcpy(s->both + 7 * (size_t)v, s->raw + FEAT_N * (size_t)v,
			       FEAT_N * sizeof(double));
		nodefeat_scale(s->raw, n, s->raw, s->scale);
		for (v = 0; v < n; v++)
			memcpy(s->both + 7 * (size_t)v + FEAT_N, s->raw + FEAT_N * (size_t)v,
			       3 * sizeof(double));
		filter_tsv_rows(fg->tsv, fg,
				s->scale == FEAT_SCALE_LOG
				    ? FEATURES_COLUMNS ",degree_log,core_log,ci1_log"
				    : FEATURES_COLUMNS ",degree_norm,core_norm,ci1_norm",
				s->both, n, 7);
		return;
	}
	if (s->scale == SCALE_BOTH) {
		if ((size_t)n > s->cap) {
			s->cap = (size_t)n;
			s->raw = xreallocarray(s->raw, s->cap, FEAT_N * sizeof *s->raw);
			s->both = xreallocarray(s->both, s->cap, FEAT_BOTH_N * sizeof *s->both);
		}
		gs_rec_tensor(&s->out, fg->rec->id, s->name, n, FEAT_BOTH_N, GS_F64,
			      FEATURES_BOTH_COLUMNS);
		nodefeat_rows(fg->g, &s->ws, s->raw);
		nodefeat_both(s->raw, n, s->out.data);
		gs_attr_set(&s->out, "scale", "both");
	} else {
		gs_rec_tensor(&s->out, fg->rec->id, s->name, n, FEAT_N, GS_F64, FEATURES_COLUMNS);
		nodefeat_rows(fg->g, &s->ws, s->out.data);
		nodefeat_scale(s->out.data, n, s->out.data, s->scale);
		gs_attr_set(&s->out, "scale", nodefeat_scale_name(s->scale));
	}
	gs_write1(fg->out, &s->out);
	gs_rec_tensor(&s->out, fg->rec->id, s->rawname, n, FEAT_N, GS_F64, FEATURES_COLUMNS);
	nodefeat_rows(fg->g, &s->ws, s->out.data);
	gs_write1(fg->out, &s->out);
}

/* The progress hook of rwse_compute and nodefeat_counts (on the calling
 * thread): one line a graph, ended with a last line only if it showed
 * (progress.h: the graph took 10 s, 0.2 s on a terminal).  The paper's
 * features count each node twice: triangles, then cores. */
static void
on_nodes(void *arg, int64_t done, int64_t total)
{
	struct state *s = arg;

	if (!s->pr_on)
		progress_start(&s->pr, s->set == SET_RWSE ? "nodes" : "node passes", total,
			       "graph %" PRId64 ": %s", s->graph_id,
			       s->set == SET_RWSE ? "rwse" : "triangles and cores");
	s->pr_on = 1;
	progress_update(&s->pr, done);
	if (done >= total) {
		if (s->pr.drawn)
			progress_done(&s->pr);
		s->pr_on = 0;
	}
}

static void
rwse_graph(struct state *s, const struct filter_graph *fg)
{
	struct rwse_opts ro = s->ro;
	int32_t n = fg->g->n, K = ro.steps;
	rwse_info inf;
	double *vals;

	if (fg->tsv) {
		if ((size_t)n > s->cap_rw) {
			s->cap_rw = (size_t)n;
			s->rw = xreallocarray(s->rw, s->cap_rw, (size_t)K * sizeof *s->rw);
		}
		vals = s->rw;
	} else { /* straight into the record: (n, K) may be large */
		gs_rec_tensor(&s->out, fg->rec->id, s->name, n, K, GS_F64, s->columns);
		vals = s->out.data;
	}
	ro.seed = rng_mix(s->c->seed, (uint64_t)fg->rec->id); /* walks per graph */
	ro.on_progress = on_nodes;
	ro.progress_arg = s;
	s->graph_id = fg->rec->id;
	if (rwse_compute(fg->g, &ro, vals, &inf, &s->rws) != 0)
		die("rwse: options out of range"); /* checked in main() */
	if (!s->c->quiet && inf.estimated > 0 && (s->estimated_graphs++ == 0 || s->c->progress))
		warnx_("%s: graph %" PRId64 ": estimated the return probabilities of %" PRId32
		       " of %" PRId32 " nodes (components larger than --exact-max %" PRId32
		       "): %" PRId64 " walks in all, |error| <= %.3g per value with "
		       "probability %g (<= %.3g for all at once)",
		       gs_where(fg->in), fg->rec->id, inf.estimated, n, ro.exact_max,
		       inf.walks_total, inf.error, 1 - ro.delta, inf.error_all);
	if (fg->tsv) {
		filter_tsv_rows(fg->tsv, fg, s->columns, vals, n, K);
		return;
	}
	gs_attr_set(&s->out, "set", "rwse");
	gs_attr_setf(&s->out, "steps", "%" PRId32, K);
	if (inf.estimated == 0) {
		gs_attr_set(&s->out, "method", "exact");
	} else {
		gs_attr_set(&s->out, "method", "walks");
		gs_attr_setf(&s->out, "estimated", "%" PRId32, inf.estimated);
		gs_attr_setf(&s->out, "exact_max", "%" PRId32, ro.exact_max);
		gs_attr_setf(&s->out, "walks", "%" PRId64, inf.walks_total);
		gs_attr_setf(&s->out, "delta", "%g", ro.delta);
		gs_attr_setf(&s->out, "error_requested", "%g", ro.error);
		gs_attr_setf(&s->out, "error", "%.6g", inf.error);
		gs_attr_setf(&s->out, "error_all", "%.6g", inf.error_all);
	}
	gs_write1(fg->out, &s->out);
}

/* refex: computed straight into the record, which --tsv prints instead */
static void
refex_graph(struct state *s, const struct filter_graph *fg)
{
	gs_rec_tensor(&s->out, fg->rec->id, s->name, fg->g->n, REFEX_COLS, GS_F64, REFEX_COLUMNS);
	refex_compute(fg->g, s->out.data, &s->rx);
	if (fg->tsv) {
		filter_tsv_rows(fg->tsv, fg, REFEX_COLUMNS, s->out.data, fg->g->n, REFEX_COLS);
		return;
	}
	gs_attr_set(&s->out, "set", "refex");
	gs_write1(fg->out, &s->out);
}

/* What nodefeat holds at most for a graph record (nodefeat(1), MEMORY): the
 * record and its graph, and for the four features the counts' scratch and
 * one (n, 4) matrix (--tsv: an (n, 4) and an (n, 7) one); for refex the
 * same scratch, its (n, 4) raw values and the (n, 20) record; for rwse about
 * 28 + 4 t bytes a node (t threads) and 8 an edge of scratch and the
 * (n, K) values (rwse.h). */
static double
need(void *ctx, const gs_rec *rec)
{
	const struct state *s = ctx;
	double n = rec->n, held = gs_rec_bytes(rec) + graph_bytes(rec->n, rec->m);

	if (s->set == SET_RWSE)
		return held + (28.0 + 4.0 * omp_get_max_threads() + 8.0 * s->ro.steps) * n +
		       8.0 * (double)rec->m;
	if (s->set == SET_REFEX) /* the record's 20 columns, the raw four */
		return held + nodefeat_ws_bytes(rec->n, rec->m) + (160.0 + 32.0) * n;
	return held + nodefeat_ws_bytes(rec->n, rec->m) + (s->tsv ? 88.0 : 32.0) * n;
}

static void
one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;

	if (s->set == SET_RWSE)
		rwse_graph(s, fg);
	else if (s->set == SET_REFEX)
		refex_graph(s, fg);
	else
		paper_graph(s, fg);
}

/* The options into c and s (the set and its settings); dies on misuse. */
static void
parse(struct copt *c, struct state *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "exact-max", required_argument, NULL, OPT_EXACT_MAX },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "rw-delta", required_argument, NULL, OPT_RW_DELTA },
		{ "rw-error", required_argument, NULL, OPT_RW_ERROR },
		{ "rw-steps", required_argument, NULL, OPT_RW_STEPS },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "set", required_argument, NULL, OPT_SET },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	const char *rw_opt = NULL, *scale_opt = NULL; /* set-specific options given */
	int ch;

	copt_init(c);
	memset(s, 0, sizeof *s);
	s->c = c;
	s->scale = FEAT_SCALE_MINMAX;
	s->name = "features";
	rwse_opts_init(&s->ro);
	while ((ch = copt_next(c, argc, argv, ":" COPT_LETTERS, longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, s);
			copt_exit_ok();
		case OPT_EXACT_MAX:
			s->ro.exact_max = (int32_t)opt_ll(optarg, 0, GS_MAX_NODES, "--exact-max");
			rw_opt = "--exact-max";
			break;
		case OPT_NAME:
			if (strlen(optarg) < 1 || strlen(optarg) + 4 >= GS_NAME_MAX ||
			    strpbrk(optarg, " \t\n=\""))
				die_usage("--name: '%.80s': 1..%d bytes, no blank, '=' or quote",
					  optarg, GS_NAME_MAX - 5);
			s->name = optarg;
			break;
		case OPT_RW_DELTA:
			s->ro.delta = opt_double(optarg, 1e-15, 0.5, "--rw-delta");
			rw_opt = "--rw-delta";
			break;
		case OPT_RW_ERROR:
			s->ro.error = opt_double(optarg, 0.001, 0.5, "--rw-error");
			rw_opt = "--rw-error";
			break;
		case OPT_RW_STEPS:
			s->ro.steps = (int32_t)opt_ll(optarg, 1, RWSE_STEPS_MAX, "--rw-steps");
			rw_opt = "--rw-steps";
			break;
		case OPT_SCALE:
			if (strcmp(optarg, "both") == 0)
				s->scale = SCALE_BOTH;
			else if ((s->scale = nodefeat_scale_mode(optarg)) < 0)
				die_usage("--scale: '%s': expected minmax, log or both", optarg);
			scale_opt = "--scale";
			break;
		case OPT_SET:
			s->set = opt_keyword(optarg, sets, "--set");
			break;
		case OPT_TSV:
			s->tsv = 1;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (s->set != SET_RWSE && rw_opt)
		die_usage("%s: applies to --set rwse only", rw_opt);
	if (s->set == SET_RWSE && scale_opt)
		die_usage("--scale: applies to --set paper only (rwse values are "
			  "probabilities in [0, 1])");
	if (s->set == SET_REFEX && scale_opt)
		die_usage("--scale: applies to --set paper only (refex takes log(1 + x) "
			  "of the counts)");
	if (s->scale == SCALE_BOTH && s->tsv)
		die_usage("--scale both: the table already shows raw, min-max and (with --scale "
			  "log) log columns; --scale both is for the stream");
	if (s->set == SET_RWSE)
		c->seed_set = 1; /* the default seed is a seed: the pg record shows it */
}

/* The workspaces of every set, and the record written. */
static void
state_start(struct state *s)
{
	progress_init(&s->pr, s->c);
	nodefeat_ws_init(&s->ws);
	s->ws.on_progress = on_nodes;
	s->ws.progress_arg = s;
	rwse_ws_init(&s->rws);
	refex_ws_init(&s->rx);
	rwse_columns(s->ro.steps, s->columns, sizeof s->columns);
	gs_rec_init(&s->out);
}

static void
state_free(struct state *s)
{
	nodefeat_ws_free(&s->ws);
	rwse_ws_free(&s->rws);
	refex_ws_free(&s->rx);
	gs_rec_free(&s->out);
	free(s->raw);
	free(s->both);
	free(s->rw);
}

int
main(int argc, char **argv)
{
	struct copt c;
	struct filter f;
	struct state s;

	err_setprog(argv[0]);
	parse(&c, &s, argc, argv);
	copt_apply_threads(&c);
	state_start(&s);
	memset(&f, 0, sizeof f);
	f.c = &c;
	f.tsv = s.tsv;
	f.want_names = s.tsv; /* a name column */
	snprintf(s.rawname, sizeof s.rawname, "%s_raw", s.name);
	s.written[0] = s.name;
	s.written[1] = s.rawname;
	s.written[2] = NULL;
	f.replaces = s.written;
	f.graph_fn = one_graph;
	f.need_fn = need;
	f.ctx = &s;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	if (!c.quiet && s.estimated_graphs > 1)
		warnx_("%" PRId64 " graphs had estimated return probabilities (components "
		       "larger than --exact-max %" PRId32 ")",
		       s.estimated_graphs, s.ro.exact_max);
	state_free(&s);
	return 0;
}
