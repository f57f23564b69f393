/*
 * graphstat - one vector of structural statistics per graph (size,
 * density, degrees, assortativity, clustering, components, the diameter,
 * mean distance and spectral gap of the largest component): graph-level
 * pre-training targets, or a table to compare datasets with.  For each
 * graph it passes every record on and adds one tensor record "graphstat"
 * (one row, named columns, the attribute per=graph) after the graph's
 * other records, or prints a row of a table (--tsv).  The work is
 * common/graphstat.c.  Manual: man/man1/graphstat.1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "graphstat.h"
#include "opt.h"
#include "rng.h"
#include "stream.h"

#define SYNOPSIS \
	"graphstat [-qt] [-j threads] [-l level] [-o file] [-s seed] [--columns list]\n" \
	"                 [--exact-max n] [--name name] [--progress] [--samples n] [--tsv]\n" \
	"                 [file ...]"

enum { OPT_COLUMNS = COPT_FIRST_TOOL, OPT_EXACT_MAX, OPT_NAME, OPT_SAMPLES, OPT_TSV };

/* No tensor wanted, but the call waits for the graph's records
 * (filter.h), so the row follows them. */
static const char *const none[] = { NULL };

struct state {
	struct copt c;
	struct gstat_opts go;
	const char *name;	 /* of the tensor record */
	int name_set;		 /* --name given */
	int tsv;		 /* --tsv */
	int col[GSTAT_N];	 /* the columns, GSTAT_x in output order */
	int ncol;		 /* how many */
	char columns[1024];	 /* their names, comma-separated */
	const char *replaces[2]; /* the record this filter writes, NULL */
	gstat_ws ws;
	gs_rec out;
	int64_t sampled; /* graphs with estimated path statistics */
};

static void
usage(FILE *f, const struct state *s)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Adds one row of structural statistics per graph (graphstat(1)).\n"
		"      --columns LIST  the statistics, comma-separated, in this order\n"
		"                      [all: %s,...]\n"
		"      --exact-max N   diameter and mean distance exact up to N nodes in the\n"
		"                      largest component, estimated above [%d]\n"
		"  -h, --help          this help\n"
		"  -j, --threads N     threads for the breadth-first searches [all cores]\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"      --name NAME     name of the tensor record [%s]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"      --progress      progress even when stderr is not a terminal, and report\n"
		"                      the estimates of every graph\n"
		"  -q, --quiet         do not report estimates; no progress\n"
		"  -s, --seed N        seed of the sampled sources (estimates only) [%" PRIu64 "]\n"
		"      --samples N     sources of the estimates [%d]\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --tsv           print a table (id, one column per statistic) instead\n"
		"      --version       print the version\n",
		gstat_name[0], s->go.exact_max, s->c.level, s->name, s->c.seed, s->go.samples);
}

/* --columns: names of gstat_name, each at most once. */
static void
parse_columns(struct state *s, const char *list)
{
	const char *p = list;

	s->ncol = 0;
	s->go.want = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int k = gstat_index(p, len);
		if (k < 0) {
			char all[1024];
			size_t at = 0;
			for (int i = 0; i < GSTAT_N; i++)
				at += (size_t)snprintf(all + at, sizeof all - at, "%s%s",
						       i ? ", " : "", gstat_name[i]);
			die_usage("--columns: '%.*s': expected %s", (int)(len < 64 ? len : 64), p,
				  all);
		}
		if (s->go.want & 1u << k)
			die_usage("--columns: %s twice", gstat_name[k]);
		s->go.want |= 1u << k;
		s->col[s->ncol++] = k;
		if (!p[len])
			break;
		p += len + 1;
	}
}

/* The columns' names, comma-separated, into s->columns. */
static void
name_columns(struct state *s)
{
	size_t at = 0;

	for (int j = 0; j < s->ncol; j++)
		at += (size_t)snprintf(s->columns + at, sizeof s->columns - at, "%s%s",
				       j ? "," : "", gstat_name[s->col[j]]);
}

static void
parse(struct state *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "columns", required_argument, NULL, OPT_COLUMNS },
		{ "exact-max", required_argument, NULL, OPT_EXACT_MAX },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(s, 0, sizeof *s);
	copt_init(&s->c);
	gstat_opts_init(&s->go);
	s->name = "graphstat";
	for (int i = 0; i < GSTAT_N; i++)
		s->col[i] = i;
	s->ncol = GSTAT_N;
	while ((ch = copt_next(&s->c, argc, argv, ":" COPT_LETTERS, longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, s);
			copt_exit_ok();
		case OPT_COLUMNS:
			parse_columns(s, optarg);
			break;
		case OPT_EXACT_MAX:
			s->go.exact_max = (int32_t)opt_ll(optarg, 0, GS_MAX_NODES, "--exact-max");
			break;
		case OPT_NAME:
			s->name = opt_name(optarg, GS_NAME_MAX, "--name");
			s->name_set = 1;
			break;
		case OPT_SAMPLES:
			s->go.samples = (int32_t)opt_ll(optarg, 2, GS_MAX_NODES, "--samples");
			break;
		case OPT_TSV:
			s->tsv = 1;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (s->tsv && s->name_set)
		die_usage("--name names the tensor record, and --tsv prints a table");
	name_columns(s);
	s->replaces[0] = s->name;
	s->c.seed_set = 1; /* the default seed is a seed: the pg record shows it */
}

/* filter_run's check before a graph is built: the record, the graph, the
 * statistics' scratch (the largest component taken as the whole graph)
 * and the output row. */
static double
need(void *ctx, const gs_rec *rec)
{
	const struct state *s = ctx;

	return gs_rec_bytes(rec) + graph_bytes(rec->n, rec->m) +
	       gstat_bytes(rec->n, rec->m, &s->go, omp_get_max_threads()) + 8.0 * GSTAT_N;
}

/* One line on the estimates of a graph (graphstat(1), ESTIMATES). */
static void
say_estimates(const struct state *s, const struct filter_graph *fg, const struct gstat_info *in)
{
	warnx_("%s: graph %" PRId64 " (largest component %" PRId32 " nodes > --exact-max %" PRId32
	       "): diameter a lower bound from %" PRId32 " sampled sources and %d sweep%s, "
	       "mean distance estimated from them (standard error %.3g)",
	       gs_where(fg->in), fg->rec->id, in->lcc_nodes, s->go.exact_max, in->sources,
	       in->sweeps, in->sweeps == 1 ? "" : "s", in->mean_path_se);
}

/* The record's attributes: per=graph, and what the values are. */
static void
set_attrs(gs_rec *r, const struct state *s, const struct gstat_info *in)
{
	char und[512];
	size_t at = 0;

	gs_attr_set(r, "per", "graph");
	if (s->go.want & (1u << GSTAT_LOG_DIAMETER | 1u << GSTAT_LOG_MEAN_PATH))
		gs_attr_set(r, "paths", in->paths_sampled ? "estimated" : "exact");
	if (in->paths_sampled) {
		gs_attr_setf(r, "path_sources", "%" PRId32, in->sources);
		gs_attr_setf(r, "mean_path_se", "%.6g", in->mean_path_se);
	}
	und[0] = '\0';
	for (int j = 0; j < s->ncol; j++)
		if (in->undefined & 1u << s->col[j])
			at += (size_t)snprintf(und + at, sizeof und - at, "%s%s", at ? "," : "",
					       gstat_name[s->col[j]]);
	if (at)
		gs_attr_set(r, "undefined", und);
}

static void
one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;
	struct gstat_opts go = s->go;
	struct gstat_info info;
	double val[GSTAT_N], *row;
	char msg[256];

	/* every graph draws its own sources */
	go.seed = rng_mix(s->c.seed, (uint64_t)fg->rec->id);
	if (gstat_compute(fg->g, &go, val, &info, &s->ws, msg, sizeof msg) != 0)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, msg);
	if (info.paths_sampled && !s->c.quiet && (s->sampled++ == 0 || s->c.progress))
		say_estimates(s, fg, &info);
	gs_rec_tensor(&s->out, fg->rec->id, s->name, 1, s->ncol, GS_F64, s->columns);
	row = s->out.data;
	for (int j = 0; j < s->ncol; j++) {
		row[j] = val[s->col[j]];
		if (!isfinite(row[j])) /* a bug, never a target */
			die("%s: graph %" PRId64 ": %s is not finite", gs_where(fg->in),
			    fg->rec->id, gstat_name[s->col[j]]);
	}
	if (fg->tsv) {
		if (fg->index == 0) {
			fputs("id", fg->tsv);
			for (int j = 0; j < s->ncol; j++)
				fprintf(fg->tsv, "\t%s", gstat_name[s->col[j]]);
			fputc('\n', fg->tsv);
		}
		fprintf(fg->tsv, "%" PRId64, fg->rec->id);
		for (int j = 0; j < s->ncol; j++)
			fprintf(fg->tsv, "\t%.17g", row[j]);
		fputc('\n', fg->tsv);
		if (ferror(fg->tsv))
			die("<stdout>: write error:");
		return;
	}
	set_attrs(&s->out, s, &info);
	gs_write1(fg->out, &s->out);
}

int
main(int argc, char **argv)
{
	struct state s;
	struct filter f;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse(&s, argc, argv);
	copt_apply_threads(&s.c);
	gstat_ws_init(&s.ws);
	gs_rec_init(&s.out);
	memset(&f, 0, sizeof f);
	f.c = &s.c;
	f.tsv = s.tsv;
	f.replaces = s.replaces;
	f.wants = none;
	f.graph_fn = one_graph;
	f.need_fn = need;
	f.ctx = &s;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	if (!s.c.quiet && s.sampled > 1)
		warnx_("%" PRId64 " graphs had estimated diameters and mean distances (largest "
		       "component past --exact-max %" PRId32 ")",
		       s.sampled, s.go.exact_max);
	gstat_ws_free(&s.ws);
	gs_rec_free(&s.out);
	return 0;
}
