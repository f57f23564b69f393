/*
 * motif-gen - generate structural-role benchmark graphs: motifs (houses,
 * cycles, stars, fans, grids, cliques) planted on a base graph, every node
 * labelled by its role, as GraphWave's and GNNExplainer's synthetic sets.
 * Manual: man/man1/motif-gen.1.  The generator lives in common/motif.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "motif.h"
#include "opt.h"
#include "progress.h"
#include "stream.h"

#define MAX_COUNT (1LL << 40)
#define MAX_ID (1LL << 62)

enum {
	OPT_ADD_EDGES = COPT_FIRST_TOOL,
	OPT_ATTACH,
	OPT_BA_M,
	OPT_BASE,
	OPT_BASE_NODES,
	OPT_BRANCHING,
	OPT_COUNT,
	OPT_FIRST_ID,
	OPT_MOTIF,
	OPT_PRESET,
	OPT_REMOVE_EDGES
};

static const char *const bases[] = { "ba", "cycle", "tree", NULL };
static const char *const attaches[] = { "uniform", "spread", NULL };

struct opts {
	struct copt c;
	struct motif_opts M; /* the settings in force */
	long long count, first_id;
	const char *preset;
};

/* The generator's settings the command line gave (they override a preset). */
struct given {
	struct motif_opts M;
	int base, base_nodes, ba_m, branching, attach, add, remove;
};

#define SYNOPSIS \
	"motif-gen [-qt] [-j threads] [-l level] [-o file] [-s seed] [--add-edges x]\n" \
	"                 [--attach uniform|spread] [--ba-m m] [--base ba|cycle|tree]\n" \
	"                 [--base-nodes n] [--branching r] [--count n] [--first-id n]\n" \
	"                 [--motif kind[size][:count]] [--preset name] [--progress]\n" \
	"                 [--remove-edges x]"

static void
usage(FILE *f, const struct opts *o)
{
	char *motifs = motif_spec_list(&o->M);

	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "      --add-edges X     add round(X m0) random edges, m0 the clean edge count [%g]\n"
	    "      --attach HOW      uniform (distinct random base nodes) or spread [%s]\n"
	    "      --ba-m M          ba: edges of each new base node [%d]\n"
	    "      --base KIND       base graph: ba (Barabasi-Albert), cycle or tree [%s]\n"
	    "      --base-nodes N    nodes of the base graph [%d]\n"
	    "      --branching R     tree: children of each inner node [%d]\n"
	    "      --count N         graphs to generate [%lld]\n"
	    "      --first-id N      id of the first graph; graph i is first-id + i [%lld]\n"
	    "  -h, --help            this help\n"
	    "  -j, --threads N       accepted; motif-gen runs on one thread\n"
	    "  -l, --level N         gzip level, 0 = plain [%d]\n"
	    "      --motif SPEC      KIND[SIZE][:COUNT], repeatable: house, house-x, cycleK,\n"
	    "                        starK, fanK, gridK, cliqueK [%s]\n"
	    "  -o, --output FILE     write to FILE instead of stdout\n"
	    "      --preset NAME     ba-shapes, cycle-varied, tree-cycles or tree-grid;\n"
	    "                        options override it [%s]\n"
	    "      --progress        progress on stderr even when it is not a terminal\n"
	    "  -q, --quiet           no progress\n"
	    "      --remove-edges X  remove round(X m0) random edges first [%g]\n"
	    "  -s, --seed N          random seed; graph id draws from stream (seed, id) [%" PRIu64
	    "]\n"
	    "  -t, --text            write the text form (plain unless -l is given)\n"
	    "      --version         print the version\n",
	    o->M.add_edges, attaches[o->M.attach], (int)o->M.ba_m, bases[o->M.base],
	    (int)o->M.base_nodes, (int)o->M.branching, o->count, o->first_id, o->c.level, motifs,
	    o->preset ? o->preset : "none", o->M.remove_edges, o->c.seed);
	free(motifs);
}

/* Graph id of o into the records g (graph) and t (tensors), written to out. */
static void
write_graph(const struct opts *o, const motif_graph *mg, int64_t id, const char *names,
	    const char *motifs, gs_rec *g, gs_rec *t, gs_file *out)
{
	const struct motif_opts *M = &o->M;
	struct motif_sizes sz;

	motif_sizes(M, &sz);
	gs_rec_graph(g, id, mg->n, mg->m, GS_NONE);
	memcpy(g->u, mg->u, (size_t)mg->m * sizeof *g->u);
	memcpy(g->v, mg->v, (size_t)mg->m * sizeof *g->v);
	gs_attr_set(g, "generator", "motif");
	/* the name gcn-adapt, linprobe and evalf1 report the graph under */
	gs_attr_set(g, "dataset", o->preset ? o->preset : "motif");
	if (o->preset)
		gs_attr_set(g, "preset", o->preset);
	gs_attr_setf(g, "seed", "%" PRIu64, o->c.seed);
	gs_attr_setf(g, "stream", "%" PRId64, id);
	gs_attr_set(g, "base", bases[M->base]);
	gs_attr_setf(g, "base_nodes", "%d", (int)M->base_nodes);
	if (M->base == MOTIF_BASE_BA)
		gs_attr_setf(g, "ba_m", "%d", (int)M->ba_m);
	if (M->base == MOTIF_BASE_TREE)
		gs_attr_setf(g, "branching", "%d", (int)M->branching);
	gs_attr_set(g, "motifs", motifs);
	gs_attr_set(g, "attach", attaches[M->attach]);
	gs_attr_setf(g, "clean_edges", "%" PRId64, sz.clean_edges);
	gs_attr_setf(g, "removed_edges", "%" PRId64, sz.removed);
	gs_attr_setf(g, "added_edges", "%" PRId64, sz.added);
	gs_attr_setf(g, "classes", "%d", sz.classes);
	gs_attr_set(g, "class_names", names);
	gs_write1(out, g);
	gs_rec_tensor(t, id, "label", mg->n, 1, GS_I32, "label");
	memcpy(t->data, mg->label, (size_t)mg->n * sizeof *mg->label);
	gs_write1(out, t);
	gs_rec_tensor(t, id, "motif", mg->n, 1, GS_I32, "motif");
	memcpy(t->data, mg->motif, (size_t)mg->n * sizeof *mg->motif);
	gs_write1(out, t);
}

static int
run(const struct opts *o, gs_file *out)
{
	char *names = motif_class_names(&o->M), *motifs = motif_spec_list(&o->M);
	struct progress pr;
	motif_graph mg;
	gs_rec g, t;
	long long i;

	motif_graph_init(&mg);
	gs_rec_init(&g);
	gs_rec_init(&t);
	progress_init(&pr, &o->c);
	progress_start(&pr, "graphs", o->count, NULL);
	for (i = 0; i < o->count; i++) {
		motif_generate(&o->M, o->c.seed, (uint64_t)(o->first_id + i), &mg);
		write_graph(o, &mg, o->first_id + i, names, motifs, &g, &t, out);
		progress_update(&pr, i + 1);
	}
	progress_done(&pr);
	motif_graph_free(&mg);
	gs_rec_free(&g);
	gs_rec_free(&t);
	free(names);
	free(motifs);
	return 0;
}

/* ---- options ---- */

/* The preset (or the defaults: BA-Shapes without its noise), then what the
 * command line gave over it; a base's own option needs that base. */
static void
settle(struct opts *o, const struct given *cl)
{
	if (o->preset == NULL) {
		motif_preset("ba-shapes", &o->M);
		o->M.add_edges = 0;
	} else if (motif_preset(o->preset, &o->M) != 0) {
		die("--preset: '%s': no such preset", o->preset); /* checked when parsed */
	}
#define KEEP(flag, field) \
	do { \
		if (cl->flag) \
			o->M.field = cl->M.field; \
	} while (0)
	KEEP(base, base);
	KEEP(base_nodes, base_nodes);
	KEEP(ba_m, ba_m);
	KEEP(branching, branching);
	KEEP(attach, attach);
	KEEP(add, add_edges);
	KEEP(remove, remove_edges);
#undef KEEP
	if (cl->M.nspec > 0) {
		o->M.nspec = cl->M.nspec;
		memcpy(o->M.spec, cl->M.spec, sizeof o->M.spec);
	}
	if (cl->ba_m && o->M.base != MOTIF_BASE_BA)
		die_usage("--ba-m: applies to --base ba only");
	if (cl->branching && o->M.base != MOTIF_BASE_TREE)
		die_usage("--branching: applies to --base tree only");
}

static void
add_motif(struct given *cl, const char *arg)
{
	char msg[256];

	if (cl->M.nspec == MOTIF_MAX_SPECS)
		die_usage("--motif: at most %d motifs", MOTIF_MAX_SPECS);
	if (motif_spec_parse(arg, &cl->M.spec[cl->M.nspec], msg, sizeof msg) != 0) {
		err_one_line(msg); /* it quotes the argument */
		die_usage("--motif: %s", msg);
	}
	cl->M.nspec++;
}

/* A tool option (not a shared one): 1 if ch was one. */
static int
tool_option(struct opts *o, struct given *cl, int ch, const char *arg)
{
	switch (ch) {
	case OPT_ADD_EDGES:
		cl->M.add_edges = opt_double(arg, 0, MOTIF_MAX_ADD, "--add-edges");
		cl->add = 1;
		break;
	case OPT_ATTACH:
		cl->M.attach = opt_keyword(arg, attaches, "--attach");
		cl->attach = 1;
		break;
	case OPT_BA_M:
		cl->M.ba_m = (int32_t)opt_ll(arg, 1, GS_MAX_NODES - 1, "--ba-m");
		cl->ba_m = 1;
		break;
	case OPT_BASE:
		cl->M.base = opt_keyword(arg, bases, "--base");
		cl->base = 1;
		break;
	case OPT_BASE_NODES:
		cl->M.base_nodes = (int32_t)opt_ll(arg, 1, GS_MAX_NODES, "--base-nodes");
		cl->base_nodes = 1;
		break;
	case OPT_BRANCHING:
		cl->M.branching = (int32_t)opt_ll(arg, 1, GS_MAX_NODES, "--branching");
		cl->branching = 1;
		break;
	case OPT_COUNT:
		o->count = opt_ll(arg, 0, MAX_COUNT, "--count");
		break;
	case OPT_FIRST_ID:
		o->first_id = opt_ll(arg, 0, MAX_ID, "--first-id");
		break;
	case OPT_MOTIF:
		add_motif(cl, arg);
		break;
	case OPT_PRESET:
		o->preset = motif_preset_names[opt_keyword(arg, motif_preset_names, "--preset")];
		break;
	case OPT_REMOVE_EDGES:
		cl->M.remove_edges = opt_double(arg, 0, 1, "--remove-edges");
		cl->remove = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "add-edges", required_argument, NULL, OPT_ADD_EDGES },
		{ "attach", required_argument, NULL, OPT_ATTACH },
		{ "ba-m", required_argument, NULL, OPT_BA_M },
		{ "base", required_argument, NULL, OPT_BASE },
		{ "base-nodes", required_argument, NULL, OPT_BASE_NODES },
		{ "branching", required_argument, NULL, OPT_BRANCHING },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "first-id", required_argument, NULL, OPT_FIRST_ID },
		{ "motif", required_argument, NULL, OPT_MOTIF },
		{ "preset", required_argument, NULL, OPT_PRESET },
		{ "remove-edges", required_argument, NULL, OPT_REMOVE_EDGES },
		{ NULL, 0, NULL, 0 }
	};
	struct opts o = { .count = 1, .first_id = 0, .preset = NULL };
	struct given cl;
	char msg[512];
	gs_file *out;
	int ch, rc, help = 0;

	err_setprog(argv[0]);
	copt_init(&o.c);
	memset(&cl, 0, sizeof cl);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":" COPT_LETTERS, longopts, NULL)) != -1) {
		if (ch == 'h')
			help = 1; /* after the others: -h shows the live settings */
		else if (!tool_option(&o, &cl, ch, optarg) && !copt_handle(&o.c, ch, optarg))
			copt_bad_option(ch, argv, SYNOPSIS);
	}
	if (optind < argc)
		die_usage("unexpected operand '%s' (motif-gen reads no input)", argv[optind]);
	settle(&o, &cl);
	if (help) {
		usage(stdout, &o);
		copt_exit_ok();
	}
	if (motif_opts_check(&o.M, msg, sizeof msg) != 0)
		die_usage("%s", msg);
	if (o.first_id > MAX_ID - o.count)
		die_usage("--first-id: %lld + --count %lld exceeds %lld", o.first_id, o.count,
			  MAX_ID);
	/* A default seed is still a seed: let the pg record show it. */
	o.c.seed_set = 1;
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	rc = run(&o, out);
	gs_close(out);
	return rc;
}
