/*
 * graph-gen - generate graphs of the families downstream graphs resemble:
 * Barabasi-Albert, Holme-Kim (power-law cluster), Watts-Strogatz, random
 * geometric, R-MAT and Erdos-Renyi, each graph drawing its family and its
 * parameters from ranges, with its parameters as attributes and cluster
 * labels where the family has them.  Manual: man/man1/graph-gen.1.  The
 * families live in common/gen*.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "err.h"
#include "gen.h"
#include "mem.h"
#include "opt.h"
#include "progress.h"
#include "stream.h"

#define MAX_COUNT (1LL << 40)
#define MAX_ID (1LL << 62)
/* Graphs that need more are checked against the memory first (mem.h). */
#define MEM_CHECK_BYTES (64.0 * 1048576)
/* Bytes a graph takes at the peak: edges as made, the degree list and
 * arcs of hk, the CSR and its scratch, the sorted copy, the record. */
#define BYTES_PER_EDGE 72.0
#define BYTES_PER_NODE 64.0

enum { T_INT, T_IRANGE, T_DRANGE, T_FAMILY, T_SPACE };
/* The options of gopts[], sorted; option G_X is getopt's OPT_TABLE + G_X. */
enum {
	G_BA_M,
	G_COUNT,
	G_ER_DEGREE,
	G_FAMILY,
	G_FIRST_ID,
	G_HK_M,
	G_HK_P,
	G_NODES,
	G_RGG_CELLS,
	G_RGG_DEGREE,
	G_RGG_RADIUS,
	G_RGG_SPACE,
	G_RMAT_A,
	G_RMAT_B,
	G_RMAT_C,
	G_RMAT_EF,
	G_WS_ARCS,
	G_WS_K,
	G_WS_P,
	NOPT
};
enum { OPT_CONFIG = COPT_FIRST_TOOL, OPT_TABLE };

struct opts {
	struct copt c;
	struct gen_ranges R;
	long long count, first_id;
	const char *config;
};

/* graph-gen's own options but --config, sorted: each is also a key of the
 * config file. */
struct gopt {
	const char *name; /* "--ba-m" */
	int type;	  /* T_x */
	size_t off, size; /* the field of struct opts */
	double min, max;  /* bounds of a number, or of each end of a range */
	const char *arg, *help;
};

#define F(field) offsetof(struct opts, field), sizeof(((struct opts *)0)->field)
static const struct gopt gopts[NOPT] = {
	[G_BA_M] = { "--ba-m", T_IRANGE, F(R.ba_m), 1, GEN_MAX_DEGREE, "RANGE",
		     "ba: edges of each new node" },
	[G_COUNT] = { "--count", T_INT, F(count), 0, (double)MAX_COUNT, "N", "graphs to generate" },
	[G_ER_DEGREE] = { "--er-degree", T_DRANGE, F(R.er_degree), 0, GEN_MAX_DEGREE, "RANGE",
			  "er: expected mean degree" },
	[G_FAMILY] = { "--family", T_FAMILY, F(R.weight), 0, 0, "LIST",
		       "families, NAME[:WEIGHT],..." },
	[G_FIRST_ID] = { "--first-id", T_INT, F(first_id), 0, (double)MAX_ID, "N",
			 "id of the first graph" },
	[G_HK_M] = { "--hk-m", T_IRANGE, F(R.hk_m), 1, GEN_MAX_DEGREE, "RANGE",
		     "hk: edges of each new node" },
	[G_HK_P] = { "--hk-p", T_DRANGE, F(R.hk_p), 0, 1, "RANGE",
		     "hk: triad formation probability" },
	[G_NODES] = { "--nodes", T_IRANGE, F(R.nodes), 1, (double)GEN_MAX_NODES, "RANGE",
		      "nodes per graph" },
	[G_RGG_CELLS] = { "--rgg-cells", T_IRANGE, F(R.rgg_cells), 1, GEN_MAX_CELLS, "RANGE",
			  "rgg: clusters, cells of a C x C grid" },
	[G_RGG_DEGREE] = { "--rgg-degree", T_DRANGE, F(R.rgg_degree), 0, GEN_MAX_DEGREE, "RANGE",
			   "rgg: expected mean degree" },
	[G_RGG_RADIUS] = { "--rgg-radius", T_DRANGE, F(R.rgg_radius), 0, 1, "RANGE",
			   "rgg: the radius, instead of --rgg-degree" },
	[G_RGG_SPACE] = { "--rgg-space", T_SPACE, F(R.rgg_torus), 0, 0, "SPACE",
			  "rgg: square or torus" },
	[G_RMAT_A] = { "--rmat-a", T_DRANGE, F(R.rmat_a), 0, 1, "RANGE", "rmat: top-left" },
	[G_RMAT_B] = { "--rmat-b", T_DRANGE, F(R.rmat_b), 0, 1, "RANGE", "rmat: top-right" },
	[G_RMAT_C] = { "--rmat-c", T_DRANGE, F(R.rmat_c), 0, 1, "RANGE",
		       "rmat: bottom-left; d = 1 - a - b - c" },
	[G_RMAT_EF] = { "--rmat-edge-factor", T_DRANGE, F(R.rmat_ef), 0, GEN_MAX_DEGREE, "RANGE",
			"rmat: edges drawn per node" },
	[G_WS_ARCS] = { "--ws-arcs", T_IRANGE, F(R.ws_arcs), 1, (double)GEN_MAX_NODES, "RANGE",
			"ws: clusters, arcs of the ring" },
	[G_WS_K] = { "--ws-k", T_IRANGE, F(R.ws_k), 2, GEN_MAX_DEGREE, "RANGE",
		     "ws: lattice degree (its even values)" },
	[G_WS_P] = { "--ws-p", T_DRANGE, F(R.ws_p), 0, 1, "RANGE", "ws: rewiring probability" },
};
#undef F

#define T(g) OPT_TABLE + G_##g
static const struct option longopts[] = { COPT_LONGOPTS,
					  { "ba-m", required_argument, NULL, T(BA_M) },
					  { "config", required_argument, NULL, OPT_CONFIG },
					  { "count", required_argument, NULL, T(COUNT) },
					  { "er-degree", required_argument, NULL, T(ER_DEGREE) },
					  { "family", required_argument, NULL, T(FAMILY) },
					  { "first-id", required_argument, NULL, T(FIRST_ID) },
					  { "hk-m", required_argument, NULL, T(HK_M) },
					  { "hk-p", required_argument, NULL, T(HK_P) },
					  { "nodes", required_argument, NULL, T(NODES) },
					  { "rgg-cells", required_argument, NULL, T(RGG_CELLS) },
					  { "rgg-degree", required_argument, NULL, T(RGG_DEGREE) },
					  { "rgg-radius", required_argument, NULL, T(RGG_RADIUS) },
					  { "rgg-space", required_argument, NULL, T(RGG_SPACE) },
					  { "rmat-a", required_argument, NULL, T(RMAT_A) },
					  { "rmat-b", required_argument, NULL, T(RMAT_B) },
					  { "rmat-c", required_argument, NULL, T(RMAT_C) },
					  { "rmat-edge-factor", required_argument, NULL,
					    T(RMAT_EF) },
					  { "ws-arcs", required_argument, NULL, T(WS_ARCS) },
					  { "ws-k", required_argument, NULL, T(WS_K) },
					  { "ws-p", required_argument, NULL, T(WS_P) },
					  { NULL, 0, NULL, 0 } };
#undef T

static const char *const spaces[] = { "square", "torus", NULL };

#define SYNOPSIS \
	"graph-gen [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--ba-m range] [--config file] [--count n] [--er-degree range]\n" \
	"                 [--family list] [--first-id n] [--hk-m range] [--hk-p range]\n" \
	"                 [--nodes range] [--progress] [--rgg-cells range]\n" \
	"                 [--rgg-degree range] [--rgg-radius range]\n" \
	"                 [--rgg-space square|torus] [--rmat-a range] [--rmat-b range]\n" \
	"                 [--rmat-c range] [--rmat-edge-factor range] [--ws-arcs range]\n" \
	"                 [--ws-k range] [--ws-p range]"

/* The value of option i in o as text ("LO..HI", "X", a family list). */
static const char *
show(const struct opts *o, int i, char *buf, size_t len)
{
	const char *at = (const char *)o + gopts[i].off;
	const long long *ir = (const long long *)at;
	const double *dr = (const double *)at;

	if ((i == G_RGG_RADIUS && !o->R.rgg_use_radius) ||
	    (i == G_RGG_DEGREE && o->R.rgg_use_radius))
		return "unset";
	switch (gopts[i].type) {
	case T_INT:
		snprintf(buf, len, "%lld", ir[0]);
		break;
	case T_IRANGE:
		snprintf(buf, len, ir[0] == ir[1] ? "%lld" : "%lld..%lld", ir[0], ir[1]);
		break;
	case T_DRANGE:
		snprintf(buf, len, dr[0] == dr[1] ? "%g" : "%g..%g", dr[0], dr[1]);
		break;
	case T_FAMILY:
		return gen_family_list(dr, buf, len);
	default:
		return spaces[*(const int *)at];
	}
	return buf;
}

/* The shared options' lines of the usage, by long name. */
static const struct {
	const char *name, *line;
} shared[] = {
	{ "config",
	  "      --config FILE            YAML file of these settings; options override it" },
	{ "help", "  -h, --help                   this help" },
	{ "level", "  -l, --level N                gzip level, 0 = plain [%d]" },
	{ "output", "  -o, --output FILE            write to FILE instead of stdout" },
	{ "progress",
	  "      --progress               progress on stderr even when not a terminal" },
	{ "quiet", "  -q, --quiet                  no progress" },
	{ "seed", "  -s, --seed N                 random seed; graph id uses stream (seed, id) "
		  "[%" PRIu64 "]" },
	{ "text", "  -t, --text                   write the text form (plain unless -l is given)" },
	{ "threads", "  -j, --threads N              accepted; graph-gen runs on one thread" },
	{ "version", "      --version                print the version" },
};

/* Every option in the order of its long name, with the values in force. */
static void
usage(FILE *f, const struct opts *o)
{
	size_t ns = sizeof shared / sizeof shared[0], k = 0;
	char arg[40], val[160];
	int i = 0;

	fprintf(f, "usage: " SYNOPSIS "\n"
		   "  RANGE is LO..HI (drawn uniformly for each graph) or a single value;\n"
		   "  families: ba hk ws rgg rmat er (graph-gen(1))\n");
	while (i < NOPT || k < ns) {
		if (k < ns && (i == NOPT || strcmp(shared[k].name, gopts[i].name + 2) < 0)) {
			if (strcmp(shared[k].name, "level") == 0)
				fprintf(f, shared[k].line, o->c.level);
			else if (strcmp(shared[k].name, "seed") == 0)
				fprintf(f, shared[k].line, o->c.seed);
			else
				fputs(shared[k].line, f);
			fputc('\n', f);
			k++;
			continue;
		}
		snprintf(arg, sizeof arg, "%s %s", gopts[i].name, gopts[i].arg);
		fprintf(f, "      %-24s %s [%s]\n", arg, gopts[i].help,
			show(o, i, val, sizeof val));
		i++;
	}
}

/* ---- generation ---- */

/* The parameters of g as attributes of its graph record. */
static void
attributes(gs_rec *r, const gen_graph *g)
{
	const struct gen_params *p = &g->par;

	switch (p->family) {
	case GEN_BA:
		gs_attr_setf(r, "m", "%d", (int)p->m);
		break;
	case GEN_HK:
		gs_attr_setf(r, "m", "%d", (int)p->m);
		gs_attr_setf(r, "p", "%.6g", p->p);
		gs_attr_setf(r, "triads", "%" PRId64, g->triads);
		break;
	case GEN_WS:
		gs_attr_setf(r, "k", "%d", (int)p->k);
		gs_attr_setf(r, "p", "%.6g", p->p);
		gs_attr_setf(r, "rewired", "%" PRId64, g->rewired);
		break;
	case GEN_RGG:
		gs_attr_set(r, "space", spaces[p->torus]);
		gs_attr_setf(r, "radius", "%.6g", p->radius);
		gs_attr_setf(r, "mean_degree_target", "%.6g", p->degree);
		gs_attr_setf(r, "cells", "%d", (int)p->cells);
		break;
	case GEN_RMAT:
		gs_attr_setf(r, "a", "%.6g", p->a);
		gs_attr_setf(r, "b", "%.6g", p->b);
		gs_attr_setf(r, "c", "%.6g", p->c);
		gs_attr_setf(r, "d", "%.6g", p->d);
		gs_attr_setf(r, "edge_factor", "%.6g", p->ef);
		gs_attr_setf(r, "edges_drawn", "%" PRId64, p->drawn);
		gs_attr_setf(r, "self_loops", "%" PRId64, g->loops);
		gs_attr_setf(r, "duplicates", "%" PRId64, g->dups);
		break;
	default:
		gs_attr_setf(r, "p", "%.6g", p->p);
		gs_attr_setf(r, "mean_degree_target", "%.6g", p->degree);
	}
	if (p->K > 0) {
		gs_attr_setf(r, "K", "%d", (int)p->K);
		gs_attr_setf(r, "within_cluster", "%.6g", g->m ? (double)g->within / g->m : 0.0);
	}
	gs_attr_setf(r, "mean_degree", "%.6g", g->n > 0 ? 2.0 * (double)g->m / g->n : 0.0);
}

/* Graph id: its parameters, the limits, then the graph into out. */
static void
one_graph(const struct opts *o, int64_t id, gen_graph *g, gs_rec *r, gs_file *out)
{
	struct gen_params p;
	const char *fam;
	double E, need;

	gen_draw_params(&o->R, o->c.seed, (uint64_t)id, &p);
	fam = gen_family_names[p.family];
	E = gen_expected_edges(&p);
	if (E > (double)GS_MAX_EDGES)
		die("graph %" PRId64 ": %s of %d nodes: about %.3g edges exceed the limit %lld of "
		    "a graph record",
		    id, fam, (int)p.n, E, (long long)GS_MAX_EDGES);
	need = BYTES_PER_EDGE * 1.1 * E + BYTES_PER_NODE * p.n;
	if (need > MEM_CHECK_BYTES)
		mem_require(need, "graph %" PRId64 " (%s, %d nodes, about %.3g edges)", id, fam,
			    (int)p.n, E);
	gen_make(&p, o->c.seed, (uint64_t)id, g);
	gs_rec_graph(r, id, g->n, g->m, GS_NONE);
	memcpy(r->u, g->u, (size_t)g->m * sizeof *r->u);
	memcpy(r->v, g->v, (size_t)g->m * sizeof *r->v);
	gs_attr_set(r, "generator", "graph-gen");
	gs_attr_set(r, "family", fam);
	gs_attr_setf(r, "seed", "%" PRIu64, o->c.seed);
	gs_attr_setf(r, "stream", "%" PRId64, id);
	attributes(r, g);
	gs_write1(out, r);
	if (g->par.K == 0)
		return;
	gs_rec_tensor(r, id, "cluster", g->n, 1, GS_I32, "cluster");
	memcpy(r->data, g->cluster, (size_t)g->n * sizeof *g->cluster);
	gs_write1(out, r);
}

static int
run(const struct opts *o, gs_file *out)
{
	struct progress pr;
	gen_graph g;
	gs_rec r;
	long long i;

	gen_graph_init(&g);
	gs_rec_init(&r);
	progress_init(&pr, &o->c);
	progress_start(&pr, "graphs", o->count, NULL);
	for (i = 0; i < o->count; i++) {
		one_graph(o, o->first_id + i, &g, &r, out);
		progress_update(&pr, i + 1);
	}
	progress_done(&pr);
	gen_graph_free(&g);
	gs_rec_free(&r);
	return 0;
}

/* ---- options ---- */

/* Option i's value from text: the command line's, or a config file's
 * string (name says which, for the messages). */
static void
set_value(struct opts *o, int i, const char *arg, const char *name)
{
	const struct gopt *t = &gopts[i];
	char *at = (char *)o + t->off, msg[256];
	long long *ir = (long long *)at;
	double *dr = (double *)at;

	switch (t->type) {
	case T_INT:
		ir[0] = opt_ll(arg, (long long)t->min, (long long)t->max, name);
		break;
	case T_IRANGE:
		opt_range_ll(arg, (long long)t->min, (long long)t->max, name, &ir[0], &ir[1]);
		break;
	case T_DRANGE:
		opt_range_double(arg, t->min, t->max, name, &dr[0], &dr[1]);
		break;
	case T_FAMILY:
		if (gen_family_parse(arg, dr, msg, sizeof msg) != 0) {
			err_one_line(msg); /* it quotes the argument */
			die_usage("%s: %s", name, msg);
		}
		break;
	default:
		*(int *)at = opt_keyword(arg, spaces, name);
	}
}

/* The family whose option name is ("ba-m": ba), or -1. */
static int
option_family(const char *name)
{
	const char *dash = strchr(name, '-');
	int f;

	for (f = 0; dash && f < GEN_FAMILIES; f++)
		if (strlen(gen_family_names[f]) == (size_t)(dash - name) &&
		    strncmp(name, gen_family_names[f], (size_t)(dash - name)) == 0)
			return f;
	return -1;
}

/*
 * The config file's keys: each option's name without "--" (0), with '_'
 * for '-' (1), and for a family's option the same as a section (2, 3:
 * "ba.m", from "ba: {m: 2..4}").  Numbers and ranges go straight into o;
 * the family list and the space come as strings into str.
 */
#define SPELLINGS 4
struct cfg_schema {
	char names[NOPT][SPELLINGS][48];
	int set[NOPT][SPELLINGS];
	char *str[NOPT][SPELLINGS];
	struct cfg_key keys[NOPT * SPELLINGS + 1];
	int nk;
};

static void
schema(struct cfg_schema *s, struct opts *o, long long *seed, int *seed_set)
{
	static const int type[] = { CFG_INT, CFG_IRANGE, CFG_DRANGE, CFG_STRING, CFG_STRING };
	const char *name, *dash;
	char *c;
	int i, j;

	memset(s, 0, sizeof *s);
	for (i = 0; i < NOPT; i++) {
		name = gopts[i].name + 2;
		dash = strchr(name, '-');
		snprintf(s->names[i][0], sizeof s->names[i][0], "%s", name);
		if (option_family(name) >= 0)
			snprintf(s->names[i][2], sizeof s->names[i][2], "%.*s.%s",
				 (int)(dash - name), name, dash + 1);
		for (j = 0; j < SPELLINGS; j += 2) {
			snprintf(s->names[i][j + 1], sizeof s->names[i][j + 1], "%s",
				 s->names[i][j]);
			for (c = s->names[i][j + 1]; *c; c++)
				*c = *c == '-' ? '_' : *c;
		}
		for (j = 0; j < SPELLINGS; j++)
			if (s->names[i][j][0] && (j % 2 == 0 || strchr(s->names[i][j - 1], '-')))
				s->keys[s->nk++] = (struct cfg_key){ s->names[i][j],
								     type[gopts[i].type],
								     gopts[i].type >= T_FAMILY
									 ? (void *)&s->str[i][j]
									 : (char *)o + gopts[i].off,
								     gopts[i].min,
								     gopts[i].max,
								     &s->set[i][j] };
	}
	s->keys[s->nk++] = (struct cfg_key){ "seed", CFG_INT, seed, 0, 9.2e18, seed_set };
}

/* How many spellings of option i the file gave: more than one is an
 * error (the later would silently win). */
static int
file_gave(const struct opts *o, const struct cfg_schema *s, int i)
{
	int j, n = 0;

	for (j = 0; j < SPELLINGS; j++)
		if (s->set[i][j] && n++ > 0)
			die_usage("%s: %s given twice (as %s)", o->config, s->names[i][0],
				  s->names[i][j]);
	return n;
}

/* The config file over o, then what the command line gave (given[i])
 * put back over it. */
static void
load_config(struct opts *o, const int *given)
{
	static struct cfg_schema s;
	struct opts cmd = *o;
	int seed_set = 0, i, j, radius = G_RGG_RADIUS, degree = G_RGG_DEGREE;
	long long seed = 0;
	char msg[512], where[512];

	schema(&s, o, &seed, &seed_set);
	if (cfg_load(o->config, s.keys, (size_t)s.nk, msg, sizeof msg) != 0)
		die_usage("%s", msg);
	if (seed_set && !o->c.seed_set)
		o->c.seed = (uint64_t)seed;
	for (i = 0; i < NOPT; i++) {
		file_gave(o, &s, i);
		for (j = 0; j < SPELLINGS; j++) {
			snprintf(where, sizeof where, "%s: %s", o->config, s.names[i][j]);
			if (s.str[i][j] && !given[i])
				set_value(o, i, s.str[i][j], where);
			free(s.str[i][j]);
		}
		if (given[i])
			memcpy((char *)o + gopts[i].off, (char *)&cmd + gopts[i].off,
			       gopts[i].size);
	}
	if (file_gave(o, &s, radius) && file_gave(o, &s, degree))
		die_usage("%s: rgg-radius and rgg-degree both set the density; give one",
			  o->config);
	if (file_gave(o, &s, radius) && !given[radius] && !given[degree])
		o->R.rgg_use_radius = 1;
}

/* Checks that span options; a family's option given on the command line
 * needs its family in the mix. */
static void
check_opts(const struct opts *o, const int *given)
{
	char msg[256], list[160];
	int i, f;

	for (i = 0; i < NOPT; i++) {
		f = option_family(gopts[i].name + 2);
		if (given[i] && f >= 0 && !(o->R.weight[f] > 0))
			die_usage("%s: %s is not in --family (%s)", gopts[i].name,
				  gen_family_names[f],
				  gen_family_list(o->R.weight, list, sizeof list));
	}
	if (gen_ranges_check(&o->R, msg, sizeof msg) != 0)
		die_usage("%s", msg);
	if (o->first_id > MAX_ID - o->count)
		die_usage("--first-id: %lld + --count %lld exceeds %lld", o->first_id, o->count,
			  MAX_ID);
}

/* The options into o over the defaults, given[i] set for each option of
 * gopts[] the command line gave; dies on misuse.  Returns 1 for -h. */
static int
parse(struct opts *o, int *given, int argc, char **argv)
{
	int ch, help = 0;

	while ((ch = copt_next(&o->c, argc, argv, ":" COPT_LETTERS, longopts)) != -1) {
		if (ch == 'h') {
			help = 1; /* after the others: -h shows the settings in force */
		} else if (ch == OPT_CONFIG) {
			o->config = optarg;
		} else if (ch >= OPT_TABLE && ch < OPT_TABLE + NOPT) {
			set_value(o, ch - OPT_TABLE, optarg, gopts[ch - OPT_TABLE].name);
			given[ch - OPT_TABLE] = 1;
		} else {
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (optind < argc)
		die_usage("unexpected operand '%s' (graph-gen reads no input)", argv[optind]);
	if (given[G_RGG_RADIUS] && given[G_RGG_DEGREE])
		die_usage("--rgg-radius and --rgg-degree both set the density; give one");
	o->R.rgg_use_radius = given[G_RGG_RADIUS];
	return help;
}

int
main(int argc, char **argv)
{
	struct opts o = {
		.count = 1024,
	};
	int given[NOPT] = { 0 }, help;
	gs_file *out;
	int rc;

	err_setprog(argv[0]);
	copt_init(&o.c);
	gen_ranges_default(&o.R);
	help = parse(&o, given, argc, argv);
	if (o.config)
		load_config(&o, given);
	if (help) {
		usage(stdout, &o);
		copt_exit_ok();
	}
	check_opts(&o, given);
	/* A default seed is still a seed: let the pg record show it. */
	o.c.seed_set = 1;
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	rc = run(&o, out);
	gs_close(out);
	return rc;
}
