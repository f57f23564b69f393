/*
 * nodefeat - the four structural node features the model sees (paper 3.1,
 * appendix A.1): degree, core number, 1-hop collective influence, local
 * clustering coefficient.  For each graph it adds two tensor records: the
 * model input "features" (min-max normalised per graph, clustering as is)
 * and the raw values "features_raw".  Manual: man/man1/nodefeat.1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "nodefeat.h"
#include "opt.h"
#include "stream.h"

#define SYNOPSIS "nodefeat [-qt] [-j threads] [-l level] [-o file] [-s seed] [--progress]\n" \
	"                [--scale minmax|log] [--tsv] [file ...]"

enum { OPT_TSV = COPT_FIRST_TOOL, OPT_SCALE };

static const char *const written[] = { "features", "features_raw", NULL };

struct state {
	features_ws ws;
	double *raw, *norm, *both;	/* (n, 4), (n, 4), (n, 7) */
	size_t cap;			/* nodes allocated */
	gs_rec out;
	int scale;			/* FEAT_SCALE_x of "features" */
};

static void usage(FILE *f, const struct copt *c)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  -h, --help          this help\n"
		"  -j, --threads N     threads for triangle counting on large graphs [all cores]\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"      --progress      progress on stderr even when it is not a terminal\n"
		"  -q, --quiet         no warnings or progress\n"
		"  -s, --seed N        accepted for uniformity; nodefeat draws nothing at random\n"
		"      --scale MODE    model input: minmax (per graph, the paper's) or log\n"
		"                      (log1p, keeps graph size) [minmax]\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --tsv           print a table (node, raw features, normalised) instead\n"
		"      --version       print the version\n",
		c->level);
}

static void one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;
	int32_t n = fg->g->n, v;

	if ((size_t)n > s->cap) {
		s->cap = (size_t)n;
		s->raw = xreallocarray(s->raw, s->cap, FEAT_N * sizeof *s->raw);
		s->norm = xreallocarray(s->norm, s->cap, FEAT_N * sizeof *s->norm);
		s->both = xreallocarray(s->both, s->cap, 7 * sizeof *s->both);
	}
	features_raw(fg->g, s->raw, &s->ws);
	features_scale(s->raw, n, s->norm, s->scale);
	if (fg->tsv) {
		for (v = 0; v < n; v++) {
			memcpy(s->both + 7 * (size_t)v, s->raw + FEAT_N * (size_t)v,
			       FEAT_N * sizeof(double));
			memcpy(s->both + 7 * (size_t)v + FEAT_N, s->norm + FEAT_N * (size_t)v,
			       3 * sizeof(double));
		}
		tsv_rows(fg->tsv, fg, s->scale == FEAT_SCALE_LOG
			 ? FEATURES_COLUMNS ",degree_log,core_log,ci1_log"
			 : FEATURES_COLUMNS ",degree_norm,core_norm,ci1_norm", s->both, n, 7);
		return;
	}
	gs_rec_tensor(&s->out, fg->rec->id, "features", n, FEAT_N, GS_F64, FEATURES_COLUMNS);
	memcpy(s->out.data, s->norm, (size_t)n * FEAT_N * sizeof(double));
	gs_attr_set(&s->out, "scale", features_scale_name(s->scale));
	gs_write1(fg->out, &s->out);
	gs_rec_tensor(&s->out, fg->rec->id, "features_raw", n, FEAT_N, GS_F64,
		      FEATURES_COLUMNS);
	memcpy(s->out.data, s->raw, (size_t)n * FEAT_N * sizeof(double));
	gs_write1(fg->out, &s->out);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct copt c;
	struct filter f;
	struct state s;
	int ch, scale = FEAT_SCALE_MINMAX;

	err_setprog(argv[0]);
	copt_init(&c);
	memset(&f, 0, sizeof f);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, &c);
			copt_exit_ok();
		case OPT_TSV:
			f.tsv = 1;
			break;
		case OPT_SCALE:
			if ((scale = features_scale_mode(optarg)) < 0)
				die_usage("--scale: '%s': expected minmax or log", optarg);
			break;
		default:
			if (copt_handle(&c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	copt_apply_threads(&c);
	memset(&s, 0, sizeof s);
	features_ws_init(&s.ws);
	gs_rec_init(&s.out);
	s.scale = scale;
	f.c = &c;
	f.replaces = written;
	f.graph_fn = one_graph;
	f.ctx = &s;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	features_ws_free(&s.ws);
	gs_rec_free(&s.out);
	free(s.raw);
	free(s.norm);
	free(s.both);
	return 0;
}
