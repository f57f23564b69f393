/*
 * gcn-adapt - adapt a pre-trained encoder to a downstream task and predict
 * (paper section 3.5 and section 4).  Manual: man/man1/gcn-adapt.1.
 *
 * The encoder (E and the L blocks) comes from a gcn-train model, or is
 * drawn at random (--no-pretrain, the baseline).  On top: a fresh layer mix
 * alpha * sum softmax(psi)_l H_l, then a standard 2-layer GCN
 * (Â relu(Â F W1 + b1) W2 + b2) with dropout, trained with Adam on the
 * labelled nodes; E and the blocks below the fix-tune boundary stay fixed.
 *
 * Tasks: node classification (Planetoid-style splits), graph classification
 * (a mean readout, stratified 10-fold cross-validation) and link
 * classification (the class of an edge, a rating say, from its endpoints:
 * the head's node outputs h go through relu, then [h_u ; h_v] -> Linear ->
 * relu -> dropout -> Linear; each run splits the edges 72/8/20 into
 * training, validation and test, and the encoder and the head see the
 * training edges only).
 *
 * Items without a class (a negative one, or a graph without a label
 * record) are never trained on, validated or tested: the splits are drawn
 * among the labelled ones.  --save-model keeps the run with the best
 * validation accuracy (encoder and head, at its best epoch) as a model
 * record; --predict applies such a model to every item of a new input.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "config.h"
#include "err.h"
#include "gemm.h"
#include "head.h"
#include "model.h"
#include "modelio.h"
#include "settings.h"
#include "nn.h"
#include "opt.h"
#include "outfile.h"
#include "pretrained.h"
#include "progress.h"
#include "reader.h"
#include "rng.h"
#include "split.h"
#include "stream.h"

enum {
	OPT_MODEL = COPT_FIRST_TOOL, OPT_TASK, OPT_NO_PRETRAIN, OPT_FREEZE,
	OPT_RUNS, OPT_LABEL, OPT_EPOCHS, OPT_PATIENCE, OPT_LR, OPT_HIDDEN, OPT_HEAD_WIDTH,
	OPT_TRAIN_PER_CLASS, OPT_VAL, OPT_TEST, OPT_SCALE, OPT_DROPOUT,
	OPT_ATTRIBUTES, OPT_ATTR_ONLY, OPT_TRAIN_FRACTION, OPT_RANDOM_ABOVE, OPT_FIRST_RUN,
	OPT_RAW_CONCAT, OPT_FEATURES, OPT_PREDICT, OPT_SAVE_MODEL, OPT_PRECISION,
	OPT_ALLOW_CMD, OPT_FEATURES_TIMEOUT
};

#define SYNOPSIS "gcn-adapt [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--allow-features-command] [--attr-only] [--attributes] [--dropout p]\n" \
	"                 [--epochs n] [--features stage] [--features-timeout s]\n" \
	"                 [--first-run r] [--freeze k] [--head-width n] [--label name]\n" \
	"                 [--lr x] [--model file] [--no-pretrain] [--patience n]\n" \
	"                 [--precision p] [--predict] [--progress] [--random-above] [--raw-concat]\n" \
	"                 [--runs n] [--save-model file] [--scale minmax|log]\n" \
	"                 [--task node|link|graph] [--test n] [--train-fraction x]\n" \
	"                 [--train-per-class n] [--val n] [file ...]"

enum { TASK_NODE = 0, TASK_LINK, TASK_GRAPH };
static const char *const adapt_task[] = { "node", "link", "graph", NULL };
/* link task: shares of the edges that are test, and validation of the rest */
#define LINK_TEST 0.2
#define LINK_VAL 0.1
#define FOLDS 10

struct opts {
	struct copt c;
	const char *model, *label;
	const char *features;	/* --features, or NULL: the model's stage */
	int allow_cmd;		/* --allow-features-command */
	double features_timeout;	/* --features-timeout */
	int shipped;		/* model is the shipped one, no --model given */
	int task, no_pretrain, freeze, runs, first_run, epochs, patience, head_width, scale, random_above;
	int train_per_class, nval, ntest, attributes, attr_only, raw_concat;
	int split_given;	/* --train-per-class, --val or --test was given */
	char split_note[256];	/* the split followed the graph: said at the end */
	double lr, wd, dropout, train_fraction;
	const char *save_model;	/* --save-model FILE, or NULL */
	int predict;		/* --predict: apply a saved adapted model */
	const char *train_opt;	/* the first option given that only adaptation takes */
	int label_set, task_set;
	const char *precision;	/* --precision: auto, fp32 or bf16 */
	char precision_why[400];	/* what auto chose and why, for stderr */
};

static void
usage(FILE *f, const struct opts *o)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Adapts a gcn-train model to a labelled graph; writes the test predictions of\n"
		"  every run (evalf1 scores them).  With --predict, labels every item of the\n"
		"  input with a model saved by --save-model.\n"
		"      --allow-features-command  run the feature command the model records\n"
		"                          (a model file runs nothing by itself)\n"
		"      --attr-only         the baseline on node attributes alone (no encoder)\n"
		"      --attributes        concatenate the node attributes with the encoder output\n"
		"      --dropout P         dropout of the GCN head's inputs [%g]\n"
		"      --epochs N          most epochs per run [%d]\n"
		"      --features STAGE    the encoder's input: paper or rwse (built in), stream\n"
		"                          (the input's 'features' tensors) or a command run on\n"
		"                          the graph [the model's feature stage]\n"
		"      --features-timeout S  seconds a feature command may take, 0 = no limit\n"
		"                          [%g]\n"
		"      --first-run R       number the runs from R: runs R..R+N-1 of a longer set [0]\n"
		"      --freeze K          fix E and the bottom K blocks (-1: fix nothing) [0]\n"
		"  -h, --help              this help\n"
		"      --head-width N      width of the GCN head's hidden layer [%d]\n"
		"      --hidden            refused: gcn-train's encoder width d; see --head-width\n"
		"  -j, --threads N         threads [all cores]\n"
		"      --label NAME        the per-node class tensor [%s; --predict: the model's]\n"
		"  -l, --level N           gzip level, 0 = plain [%d]\n"
		"      --lr X              Adam learning rate [%g]\n"
		"      --model FILE        the pre-trained model (gcn-train's output); with\n"
		"                          --predict, an adapted one (--save-model's)\n"
		"      --no-pretrain       the same architecture from random initial values\n"
		"  -o, --output FILE       write to FILE instead of stdout\n"
		"      --patience N        stop after N epochs without a better validation accuracy [%d]\n"
		"      --precision P       products in auto, fp32 or bf16 (bf16 operands, fp32\n"
		"                          accumulation); auto measures which is faster [%s]\n"
		"      --predict           label every item of the input with the adapted model of\n"
		"                          --model: no training; takes only -jloqt, --features,\n"
		"                          --allow-features-command, --features-timeout,\n"
		"                          --label, --precision and --task\n"
		"      --progress          progress on stderr even when it is not a terminal\n"
		"      --random-above      random initial values above the fix-tune boundary (Fig. 3)\n"
		"      --raw-concat        --attributes: the encoder output as it is, not scaled to\n"
		"                          the attributes' mean row norm\n"
		"  -q, --quiet             no warnings or progress\n"
		"      --runs N            independent runs (splits and initial values) [%d]\n"
		"      --save-model FILE   write the adapted model of the run with the best\n"
		"                          validation accuracy (encoder and head) to FILE\n"
		"  -s, --seed N            random seed; run r draws from stream (seed, r) [0]\n"
		"      --scale MODE        input features: minmax (the paper's) or log [minmax]\n"
		"  -t, --text              write the text form\n"
		"      --task TASK         node, link or graph classification [node; --predict:\n"
		"                          the model's]\n"
		"      --test N            test nodes per run (node task) [%d]\n"
		"      --train-fraction X  use this share of the training labels (paper Fig. 4) [1]\n"
		"      --train-per-class N labelled training nodes per class [%d]\n"
		"      --val N             validation nodes per run (node task) [%d]\n"
		"      --version           print the version\n",
		o->dropout, o->epochs, o->features_timeout, o->head_width, o->label, o->c.level, o->lr, o->patience,
		o->precision, o->runs, o->ntest, o->train_per_class, o->nval);
}

static void
parse(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		COPT_LONGOPTS,
		{ "allow-features-command", no_argument, NULL, OPT_ALLOW_CMD },
		{ "attr-only", no_argument, NULL, OPT_ATTR_ONLY },
		{ "attributes", no_argument, NULL, OPT_ATTRIBUTES },
		{ "dropout", required_argument, NULL, OPT_DROPOUT },
		{ "epochs", required_argument, NULL, OPT_EPOCHS },
		{ "features", required_argument, NULL, OPT_FEATURES },
		{ "features-timeout", required_argument, NULL, OPT_FEATURES_TIMEOUT },
		{ "first-run", required_argument, NULL, OPT_FIRST_RUN },
		{ "freeze", required_argument, NULL, OPT_FREEZE },
		{ "head-width", required_argument, NULL, OPT_HEAD_WIDTH },
		{ "hidden", required_argument, NULL, OPT_HIDDEN },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "lr", required_argument, NULL, OPT_LR },
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "no-pretrain", no_argument, NULL, OPT_NO_PRETRAIN },
		{ "patience", required_argument, NULL, OPT_PATIENCE },
		{ "precision", required_argument, NULL, OPT_PRECISION },
		{ "predict", no_argument, NULL, OPT_PREDICT },
		{ "random-above", no_argument, NULL, OPT_RANDOM_ABOVE },
		{ "raw-concat", no_argument, NULL, OPT_RAW_CONCAT },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "save-model", required_argument, NULL, OPT_SAVE_MODEL },
		{ "scale", required_argument, NULL, OPT_SCALE },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "train-fraction", required_argument, NULL, OPT_TRAIN_FRACTION },
		{ "train-per-class", required_argument, NULL, OPT_TRAIN_PER_CLASS },
		{ "val", required_argument, NULL, OPT_VAL },
		{ NULL, 0, NULL, 0 }
	};
	int ch;
	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->c.seed_set = 1;	/* the default seed is a seed: the pg record shows it */
	o->label = "label";
	o->runs = 10;
	o->epochs = 200;
	o->patience = 50;
	o->head_width = 64;
	o->lr = 0.005;
	o->wd = 5e-4;
	o->dropout = 0.5;
	o->train_per_class = 20;
	o->nval = 500;
	o->ntest = 1000;
	o->train_fraction = 1;
	o->precision = "auto";
	o->features_timeout = FEATCMD_TIMEOUT;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, lo, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout, o);
			copt_exit_ok();
		}
		/* what only adaptation takes, for --predict's check */
		if (!o->train_opt && ch != OPT_FEATURES && ch != OPT_LABEL && ch != OPT_MODEL &&
		    ch != OPT_ALLOW_CMD && ch != OPT_FEATURES_TIMEOUT &&
		    ch != OPT_PREDICT && ch != OPT_TASK && ch != OPT_HIDDEN && ch != OPT_PRECISION && ch != 'j' &&
		    ch != 'l' && ch != 'o' && ch != 'q' && ch != 't' && ch != COPT_VERSION)
			for (int i = 0; lo[i].name; i++)
				if (lo[i].val == ch)
					o->train_opt = lo[i].name;
		if (copt_handle(&o->c, ch, optarg))
			continue;
		switch (ch) {
		case OPT_ATTRIBUTES: o->attributes = 1; break;
		case OPT_ATTR_ONLY: o->attr_only = 1; break;
		case OPT_DROPOUT: o->dropout = opt_double(optarg, 0, 0.95, "--dropout"); break;
		case OPT_EPOCHS: o->epochs = (int)opt_ll(optarg, 1, 1000000, "--epochs"); break;
		case OPT_FEATURES:
			if (!*optarg)
				die_usage("--features: expected paper, rwse, stream or a command");
			o->features = optarg;
			break;
		case OPT_ALLOW_CMD: o->allow_cmd = 1; break;
		case OPT_FEATURES_TIMEOUT:
			o->features_timeout = opt_double(optarg, 0, 1e9, "--features-timeout");
			break;
		case OPT_FIRST_RUN:
			o->first_run = (int)opt_ll(optarg, 0, 1000000, "--first-run");
			break;
		case OPT_FREEZE: o->freeze = (int)opt_ll(optarg, -1, MODEL_MAXL, "--freeze"); break;
		case OPT_HEAD_WIDTH:
			o->head_width = (int)opt_ll(optarg, 1, 65536, "--head-width");
			break;
		case OPT_HIDDEN:
			die_usage("--hidden is gcn-train's encoder width d, set by the model; "
				  "the head's width is --head-width");
		case OPT_LABEL:
			if (!*optarg || strlen(optarg) >= GS_NAME_MAX)
				die_usage("--label: expected a name of 1..%d characters", GS_NAME_MAX - 1);
			o->label = optarg;
			o->label_set = 1;
			break;
		case OPT_LR: o->lr = opt_double(optarg, 0, 10, "--lr"); break;
		case OPT_MODEL: o->model = optarg; break;
		case OPT_NO_PRETRAIN: o->no_pretrain = 1; break;
		case OPT_RANDOM_ABOVE: o->random_above = 1; break;
		case OPT_RAW_CONCAT: o->raw_concat = 1; break;
		case OPT_PATIENCE: o->patience = (int)opt_ll(optarg, 1, 1000000, "--patience"); break;
		case OPT_PRECISION:
			if (gemm_precision_parse(optarg) < 0)
				die_usage("--precision: '%.40s': expected auto, fp32 or bf16", optarg);
			o->precision = optarg;
			break;
		case OPT_PREDICT: o->predict = 1; break;
		case OPT_RUNS: o->runs = (int)opt_ll(optarg, 1, 100000, "--runs"); break;
		case OPT_SAVE_MODEL:
			if (!*optarg || strcmp(optarg, "-") == 0)
				die_usage("--save-model: expected a file name (the predictions go to "
					  "the standard output or -o)");
			o->save_model = optarg;
			break;
		case OPT_SCALE:
			if ((o->scale = features_scale_mode(optarg)) < 0)
				die_usage("--scale: '%s': expected minmax or log", optarg);
			break;
		case OPT_TASK:
			o->task = opt_keyword(optarg, adapt_task, "--task");
			o->task_set = 1;
			break;
		case OPT_TEST:
			o->ntest = (int)opt_ll(optarg, 1, 1 << 30, "--test");
			o->split_given = 1;
			break;
		case OPT_TRAIN_PER_CLASS:
			o->train_per_class = (int)opt_ll(optarg, 1, 1 << 30, "--train-per-class");
			o->split_given = 1;
			break;
		case OPT_TRAIN_FRACTION:
			o->train_fraction = opt_double(optarg, 1e-9, 1, "--train-fraction");
			break;
		case OPT_VAL:
			o->nval = (int)opt_ll(optarg, 1, 1 << 30, "--val");
			o->split_given = 1;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (o->predict) {
		if (o->train_opt)
			die_usage("--predict applies a saved adapted model: --%s is for adaptation",
				  o->train_opt);
		if (!o->model)
			die_usage("--predict: no --model; give the adapted model that "
				  "gcn-adapt --save-model wrote");
		o->c.seed_set = 0;	/* nothing is drawn: the pg record says so */
		return;
	}
	if (o->save_model && o->attr_only)
		die_usage("--save-model: --attr-only has no encoder; the saved model is an "
			  "encoder and its head");
	const char *pred = o->c.output && strcmp(o->c.output, "-") != 0 ? o->c.output
	    : "/dev/stdout";
	if (o->save_model && outfile_clash(o->save_model, pred))
		die_usage("--save-model %s: the predictions go there too (%s %s)", o->save_model,
			  pred == o->c.output ? "-o" : "the standard output,", pred);
	if (o->save_model && o->model && outfile_same(o->save_model, o->model))
		die_usage("--save-model %s: the same file as --model %s, which it would replace",
			  o->save_model, o->model);
	if (o->raw_concat && !o->attributes)
		die_usage("--raw-concat is for --attributes");
	if (o->attr_only && (o->attributes || o->no_pretrain || o->model))
		die_usage("--attr-only uses no encoder: it takes no --model, --no-pretrain or --attributes");
	if (o->random_above && o->no_pretrain)
		die_usage("--random-above takes a pre-trained model, not --no-pretrain");
	/* without --model: the shipped model (its configuration alone with
	 * --no-pretrain); said on stderr once the input has been read */
	if (!o->model && !o->attr_only) {
		o->model = pretrained_default();
		o->shipped = o->model != NULL;
		if (!o->model && !o->no_pretrain)
			die_usage("no --model, and the shipped model (models/gcn-pretrain.gs) is not "
				  "found beside the program: give --model, or --no-pretrain");
	}
}

/* ---- input ---- */

struct dataset {
	graph g;		/* node task: the graph */
	graph *gs;		/* graph task: every graph (ng) */
	int ng, cap_g;
	int64_t id;
	int32_t *y;		/* class of each item: node, graph or edge */
	int32_t *eu, *ev;	/* link task: the labelled edges, input order */
	char cvals[256];	/* link task: the edge label of each class */
	int64_t nitems;
	int64_t nlab;		/* items with a class (y >= 0); the others have -1 */
	/* --predict: the model's classes (link task: their edge labels) */
	int predict, Cm;
	int64_t *mvals;
	real *A;		/* (n x na) node attributes, or NULL */
	int64_t na, missing;	/* attribute columns; nodes without any */
	int C;
	char name[128];
	int have_graph;
	struct gs_reader rd;	/* the inputs; their provenance records */
	/* the input's 'features' tensors: of the graph (node and link tasks)
	 * or of each graph (graph task); their width, columns, and whether
	 * they are nodefeat's four */
	double *feat, **gfeat;
	int nfeat, F, fpaper;
	char *fcols;
};

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Link task: the graph record's edges and their labels; the classes are
 * the distinct non-negative label values in ascending order (--predict:
 * the model's).  An edge with a negative label, or any edge of a graph
 * without labels under --predict, has no class (y -1): it is structure,
 * never a training, validation or test item. */
static void
link_labels(struct dataset *ds, const gs_rec *r, const char *where)
{
	int64_t m = r->m, *val, *uniq;
	if (r->ltype == GS_NONE && !ds->predict)
		die("%s: graph %" PRId64 " has no edge labels for --task link", where, r->id);
	if (m == 0)
		die("%s: graph %" PRId64 " has no edges", where, r->id);
	val = xmallocarray((size_t)m, sizeof *val);
	uniq = xmallocarray((size_t)m, sizeof *uniq);
	int64_t nu = 0;
	for (int64_t e = 0; e < m; e++) {
		double x = r->ltype == GS_NONE ? -1 : r->ltype == GS_I32 ? ((const int32_t *)r->lab)[e]
		    : ((const double *)r->lab)[e];
		if (!isfinite(x) || x != floor(x) || fabs(x) > 1e9)
			die("%s: edge %" PRId64 ": label %g is not an integer class", where, e, x);
		val[e] = (int64_t)x;
		if (val[e] >= 0)
			uniq[nu++] = val[e];
	}
	qsort(uniq, (size_t)nu, sizeof *uniq, cmp_i64);
	int64_t nd = 0;
	for (int64_t e = 0; e < nu; e++)
		if (nd == 0 || uniq[e] != uniq[nd - 1])
			uniq[nd++] = uniq[e];
	if (ds->predict) {	/* the model's classes */
		nd = ds->Cm;
		memcpy(uniq, ds->mvals, (size_t)nd * sizeof *uniq);
	} else if (nd > 1000)
		die("%s: graph %" PRId64 ": %" PRId64 " distinct edge labels; at most 1000 classes",
		    where, r->id, nd);
	ds->C = (int)nd;
	ds->eu = xmallocarray((size_t)m, sizeof *ds->eu);
	ds->ev = xmallocarray((size_t)m, sizeof *ds->ev);
	ds->y = xmallocarray((size_t)m, sizeof *ds->y);
	size_t cl = 0;
	ds->cvals[0] = 0;
	for (int64_t c = 0; c < nd && cl < sizeof ds->cvals - 24; c++)
		cl += (size_t)snprintf(ds->cvals + cl, sizeof ds->cvals - cl, "%s%" PRId64,
				       c ? "," : "", uniq[c]);
	ds->nlab = 0;
	for (int64_t e = 0; e < m; e++) {
		int64_t *f = val[e] < 0 ? NULL
		    : bsearch(&val[e], uniq, (size_t)nd, sizeof *uniq, cmp_i64);
		if (val[e] >= 0 && !f)
			die("%s: edge %" PRId64 ": label %" PRId64 " is not one of the model's "
			    "classes (%s)", where, e, val[e], ds->cvals);
		ds->eu[e] = r->u[e];
		ds->ev[e] = r->v[e];
		ds->y[e] = f ? (int32_t)(f - uniq) : -1;
		ds->nlab += f != NULL;
	}
	ds->nitems = m;
	free(val);
	free(uniq);
}

/* The graph of a node or link task (one graph in all). */
static void
take_graph(struct dataset *ds, const struct opts *o, gs_file *in, gs_rec *r,
	   const char *path)
{
	if (ds->have_graph)
		die("%s: a second graph: %s classification takes one graph", gs_where(in),
		    adapt_task[o->task]);
	if (gs_graph_build(in, r, &ds->g, o->c.quiet) != 0)
		die("%s", gs_strerror(in));
	if (ds->g.n == 0)
		die("%s: graph %" PRId64 " has no nodes", gs_where(in), r->id);
	if (o->task == TASK_LINK)
		link_labels(ds, r, gs_where(in));
	ds->id = r->id;
	const char *nm = gs_attr_get(r, "dataset");
	snprintf(ds->name, sizeof ds->name, "%s", nm ? nm : path);
	ds->have_graph = 1;
}

/* The node attributes ('attributes') and which nodes have any
 * ('has_attributes') of the graph. */
static void
take_attributes(struct dataset *ds, gs_file *in, const gs_rec *r)
{
	if (!ds->have_graph || r->id != ds->id || r->rows != ds->g.n)
		die("%s: '%s' tensor does not match its graph", gs_where(in), r->name);
	if (strcmp(r->name, "has_attributes") == 0) {
		ds->missing = 0;
		for (int64_t i = 0; i < r->rows; i++)
			ds->missing += r->dtype == GS_I32
			    ? ((const int32_t *)r->data)[i * r->cols] == 0
			    : r->dtype == GS_I64 && ((const int64_t *)r->data)[i * r->cols] == 0;
		return;
	}
	if (r->dtype != GS_F32 && r->dtype != GS_F64)
		die("%s: 'attributes' is not float", gs_where(in));
	free(ds->A);
	ds->na = r->cols;
	ds->A = xmallocarray((size_t)(r->rows * r->cols) + 1, sizeof *ds->A);
	for (int64_t i = 0; i < r->rows * r->cols; i++) {
		double x = r->dtype == GS_F32 ? ((const float *)r->data)[i]
		    : ((const double *)r->data)[i];
		if (!isfinite(x))
			die("%s: 'attributes' element %" PRId64 " is not finite", gs_where(in), i);
		ds->A[i] = (real)x;
	}
}

/* A 'features' tensor r of graph g (its features go to *feat). */
static void
take_features(struct dataset *ds, gs_file *in, const gs_rec *r, const graph *g, double **feat)
{
	const char *cols = r->columns ? r->columns : "";
	char msg[256];
	int F;

	if (!ds->have_graph || r->id != ds->id)
		die("%s: 'features' tensor does not follow its graph", gs_where(in));
	if (*feat)
		die("%s: graph %" PRId64 " has a second 'features' tensor", gs_where(in), r->id);
	if (feat_take(r, g->n, feat, &F, msg, sizeof msg) != 0)
		die("%s: %s", gs_where(in), msg);
	if (ds->nfeat == 0) {
		ds->F = F;
		ds->fcols = xstrdup(cols);
		ds->fpaper = feat_is_paper(r);
	} else if (F != ds->F || strcmp(cols, ds->fcols) != 0) {
		die("%s: graph %" PRId64 ": 'features' columns '%.80s' differ from earlier "
		    "graphs' '%.80s'", gs_where(in), r->id, cols, ds->fcols);
	}
	ds->nfeat++;
}

/* The node classes of a node task: the first column of the --label tensor;
 * a negative class means none (the node is not an item of any split). */
static void
take_node_labels(struct dataset *ds, const struct opts *o, gs_file *in, const gs_rec *r)
{
	if (!ds->have_graph || r->id != ds->id)
		die("%s: '%s' tensor does not follow its graph", gs_where(in), o->label);
	if (r->rows != ds->g.n || r->cols < 1 || (r->dtype != GS_I32 && r->dtype != GS_I64))
		die("%s: '%s' must be %" PRId32 " rows of at least one integer column",
		    gs_where(in), o->label, ds->g.n);
	free(ds->y);
	ds->y = xmallocarray((size_t)ds->g.n + 1, sizeof *ds->y);
	ds->C = 0;
	ds->nlab = 0;
	for (int32_t v = 0; v < ds->g.n; v++) {
		int64_t c = r->dtype == GS_I32 ? ((const int32_t *)r->data)[(int64_t)v * r->cols]
		    : ((const int64_t *)r->data)[(int64_t)v * r->cols];
		if (c > 1000000)
			die("%s: node %" PRId32 ": class %" PRId64 " out of range", gs_where(in), v, c);
		if (ds->predict && c >= ds->Cm)
			die("%s: node %" PRId32 ": class %" PRId64 " is not one of the model's %d "
			    "classes", gs_where(in), v, c, ds->Cm);
		ds->y[v] = c < 0 ? -1 : (int32_t)c;
		ds->nlab += c >= 0;
		if (c + 1 > ds->C)
			ds->C = (int)c + 1;
	}
}

/* Node and link tasks: one graph, its attributes, its classes. */
static void
read_one_graph(struct dataset *ds, const struct opts *o)
{
	gs_rec r;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (k == GS_GRAPH)
			take_graph(ds, o, in, &r, ds->rd.path);
		else if (k == GS_TENSOR && (strcmp(r.name, "attributes") == 0 ||
					    strcmp(r.name, "has_attributes") == 0))
			take_attributes(ds, in, &r);
		else if (k == GS_TENSOR && strcmp(r.name, "features") == 0)
			take_features(ds, in, &r, &ds->g, &ds->feat);
		else if (k == GS_TENSOR && o->task == TASK_NODE && strcmp(r.name, o->label) == 0)
			take_node_labels(ds, o, in, &r);
	}
	gs_rec_free(&r);
}

/* Graph task: every graph and its --label record (node tensors unused). */
static void
read_graphs(struct dataset *ds, const struct opts *o)
{
	gs_rec r;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (k == GS_GRAPH) {
			if (ds->ng == ds->cap_g) {
				ds->cap_g = ds->cap_g ? 2 * ds->cap_g : 256;
				ds->gs = xreallocarray(ds->gs, (size_t)ds->cap_g, sizeof *ds->gs);
				ds->y = xreallocarray(ds->y, (size_t)ds->cap_g, sizeof *ds->y);
				ds->gfeat = xreallocarray(ds->gfeat, (size_t)ds->cap_g,
							  sizeof *ds->gfeat);
			}
			ds->gfeat[ds->ng] = NULL;
			graph_init(&ds->gs[ds->ng]);
			if (gs_graph_build(in, &r, &ds->gs[ds->ng], o->c.quiet) != 0)
				die("%s", gs_strerror(in));
			if (ds->gs[ds->ng].n == 0)
				die("%s: graph %" PRId64 " has no nodes", gs_where(in), r.id);
			ds->y[ds->ng] = -1;
			ds->id = r.id;
			if (!ds->have_graph) {
				const char *nm = gs_attr_get(&r, "dataset");
				snprintf(ds->name, sizeof ds->name, "%s", nm ? nm : ds->rd.path);
			}
			ds->ng++;
			ds->have_graph = 1;
		} else if (k == GS_TENSOR && strcmp(r.name, "features") == 0) {
			take_features(ds, in, &r, &ds->gs[ds->ng - 1], &ds->gfeat[ds->ng - 1]);
		} else if (k == GS_LABEL && strcmp(r.name, o->label) == 0) {
			if (!ds->have_graph || r.id != ds->id)
				die("%s: label record does not follow its graph", gs_where(in));
			if (r.value > 1000000)
				die("%s: graph %" PRId64 ": class %" PRId64 " out of range",
				    gs_where(in), r.id, r.value);
			if (ds->predict && r.value >= ds->Cm)
				die("%s: graph %" PRId64 ": class %" PRId64 " is not one of the "
				    "model's %d classes", gs_where(in), r.id, r.value, ds->Cm);
			/* a negative class: the graph has none */
			ds->y[ds->ng - 1] = r.value < 0 ? -1 : (int32_t)r.value;
			if (r.value + 1 > ds->C)
				ds->C = (int)r.value + 1;
		}
	}
	gs_rec_free(&r);
}

/*
 * The dataset of the task, checked.  Adaptation: a class for some items
 * at least (how many have none is said on stderr), two classes at least.
 * --predict: classes are optional, the model's (ds->Cm) where given.
 */
static void
read_dataset(struct dataset *ds, const struct opts *o, int nfiles, char **files)
{
	static const char *const item[] = { "nodes", "edges", "graphs" };

	graph_init(&ds->g);
	gs_reader_init(&ds->rd, nfiles, files);
	if (o->task == TASK_GRAPH)
		read_graphs(ds, o);
	else
		read_one_graph(ds, o);
	if (!ds->have_graph)
		die("no graph in the input");
	if (o->task == TASK_GRAPH) {
		ds->nitems = ds->ng;
		ds->nlab = 0;
		for (int i = 0; i < ds->ng; i++)
			ds->nlab += ds->y[i] >= 0;
	} else if (o->task == TASK_NODE) {
		ds->nitems = ds->g.n;
		if (!ds->y && ds->predict) {	/* no truth at all */
			ds->y = xmallocarray((size_t)ds->g.n, sizeof *ds->y);
			for (int32_t v = 0; v < ds->g.n; v++)
				ds->y[v] = -1;
			ds->nlab = 0;
		}
	}
	if (ds->predict) {
		ds->C = ds->Cm;
		return;
	}
	if (o->task == TASK_GRAPH) {
		if (ds->nlab == 0)
			die("graphs of the input have no '%s' label record (--label)", o->label);
		if (ds->C < 2)
			die("one class only among the graphs");
		if (o->attributes || o->attr_only)
			die_usage("--attributes and --attr-only are for node classification");
	} else {
		if (o->task == TASK_NODE && !ds->y)
			die("graph %" PRId64 ": no '%s' tensor of node classes (--label)", ds->id,
			    o->label);
		if (ds->nlab == 0)
			die("graph %" PRId64 ": no %s has a class (every %s is negative)", ds->id,
			    o->task == TASK_LINK ? "edge" : "node",
			    o->task == TASK_LINK ? "edge label" : "class");
		if (ds->C < 2)
			die("graph %" PRId64 ": one class only among the %s", ds->id,
			    o->task == TASK_LINK ? "edge labels" : "nodes");
		if ((o->attributes || o->attr_only) && !ds->A)
			die("graph %" PRId64 ": no 'attributes' tensor for --attributes/--attr-only",
			    ds->id);
		if ((o->attributes || o->attr_only) && ds->missing && !o->c.quiet)
			warnx_("graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes have no "
			       "attributes (zeros; the source file is partial)", ds->id, ds->missing,
			       ds->g.n);
	}
	if (ds->nlab < ds->nitems && !o->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " %s have no class (%s): never trained on, "
		       "validated or tested", ds->nitems - ds->nlab, ds->nitems, item[o->task],
		       o->task == TASK_GRAPH ? "no label record, or a negative one"
		       : o->task == TASK_LINK ? "a negative edge label: structure only"
		       : "a negative class");
}

static void
dataset_free(struct dataset *ds)
{
	free(ds->y);
	graph_free(&ds->g);
	for (int i = 0; i < ds->ng; i++)
		graph_free(&ds->gs[i]);
	free(ds->gs);
	free(ds->eu);
	free(ds->ev);
	free(ds->A);
	free(ds->feat);
	for (int i = 0; i < ds->ng; i++)
		free(ds->gfeat[i]);
	free(ds->gfeat);
	free(ds->fcols);
	free(ds->mvals);
	gs_reader_free(&ds->rd);
}

/* ---- splits ---- */

/*
 * The node task's split counts follow the graph when none was given: the
 * paper's 20 nodes of each class, 500 and 1000 where they fit, otherwise
 * at most half of each class's nodes for training (at least one) and the
 * remaining labelled nodes split 1:2 between validation and test, as 500
 * and 1000 are (a small graph is not refused; said on stderr at the end of
 * a successful run, so that a failing one says one line).
 * Given counts that do not fit stay an error of split().
 */
static void
size_node_split(struct opts *o, const struct dataset *ds)
{
	int64_t *count = xcalloc((size_t)ds->C, sizeof *count), ntr = 0, rest;
	int tpc = o->train_per_class;

	for (int32_t v = 0; v < ds->g.n; v++)
		if (ds->y[v] >= 0)
			count[ds->y[v]]++;
	for (int c = 0; c < ds->C; c++)
		if (count[c] > 0 && count[c] / 2 < tpc)
			tpc = count[c] / 2 > 1 ? (int)(count[c] / 2) : 1;
	for (int c = 0; c < ds->C; c++)
		ntr += count[c] < tpc ? count[c] : tpc;
	free(count);
	rest = ds->nlab - ntr;
	if (tpc == o->train_per_class && rest >= (int64_t)o->nval + o->ntest)
		return;
	o->train_per_class = tpc;
	o->nval = (int)(rest / 3) > 1 ? (int)(rest / 3) : 1;
	o->ntest = (int)(rest - o->nval) > 1 ? (int)(rest - o->nval) : 1;
	snprintf(o->split_note, sizeof o->split_note, "%" PRId64 " labelled nodes: %d of each "
		 "class for training, %d for validation and %d for testing (the paper's 20, 500 "
		 "and 1000 do not fit; --train-per-class, --val and --test choose)", ds->nlab, tpc,
		 o->nval, o->ntest);
}

/* Planetoid-style: train_per_class nodes of each class, then nval and
 * ntest of the rest, all uniform from the run's stream; nodes without a
 * class are passed over (the permutation is of every node, so the draws
 * do not depend on which nodes have one).  Returns 0 or -1. */
static int
split(const struct dataset *ds, const struct opts *o, gsl_rng *r, int32_t *tr,
      int *ntr, int32_t *va, int32_t *te, char *msg, size_t len)
{
	int32_t n = ds->g.n, *perm = xmallocarray((size_t)n, sizeof *perm);
	uint8_t *used = xcalloc((size_t)n, 1);
	int k = 0, nv = 0, nt = 0;
	for (int32_t v = 0; v < n; v++)
		perm[v] = v;
	for (int32_t i = n - 1; i > 0; i--) {
		int32_t j = (int32_t)rng_uniform_u64(r, (uint64_t)i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	/* the labels used for training: a share of each class's draw (the
	 * rest are neither trained on nor tested, so the split itself does
	 * not change with --train-fraction) */
	int keep = (int)lround(o->train_fraction * o->train_per_class);
	if (keep < 1)
		keep = 1;
	for (int c = 0; c < ds->C; c++) {
		int got = 0;
		for (int32_t i = 0; i < n && got < o->train_per_class; i++)
			if (ds->y[perm[i]] == c) {
				if (got < keep)
					tr[k++] = perm[i];
				used[perm[i]] = 1;
				got++;
			}
		if (got < o->train_per_class) {
			snprintf(msg, len, "class %d has %d nodes, fewer than --train-per-class %d",
				 c, got, o->train_per_class);
			free(perm);
			free(used);
			return -1;
		}
	}
	for (int32_t i = 0; i < n && (nv < o->nval || nt < o->ntest); i++) {
		if (used[perm[i]] || ds->y[perm[i]] < 0)
			continue;
		if (nv < o->nval)
			va[nv++] = perm[i];
		else
			te[nt++] = perm[i];
	}
	free(perm);
	free(used);
	if (nv < o->nval || nt < o->ntest) {
		snprintf(msg, len, "%" PRId64 " labelled nodes: too few for %d training, %d "
			 "validation and %d test nodes", ds->nlab, k, o->nval, o->ntest);
		return -1;
	}
	*ntr = k;
	return 0;
}

/*
 * Graph task: stratified FOLDS-fold cross-validation.  The folds are drawn
 * once from stream (seed, SPLIT_FOLD_STREAM) by split_folds() (linprobe
 * --folds draws the same): each class's graphs in random order go to folds
 * 0, 1, ... in turn.  Run r tests on fold r mod FOLDS, validates on the
 * next fold and trains on the others.  A graph without a class is in no
 * fold.
 */
static void
graph_split(const struct dataset *ds, uint64_t seed, int run, int32_t *tr, int *ntr,
	    int32_t *va, int *nva, int32_t *te, int *nte)
{
	int G = ds->ng, *fold = xmallocarray((size_t)G, sizeof *fold);
	gsl_rng *r = rng_new(seed, SPLIT_FOLD_STREAM);
	split_folds(ds->y, G, ds->C, FOLDS, r, fold);
	int ft = run % FOLDS, fv = (run + 1) % FOLDS;
	*ntr = *nva = *nte = 0;
	for (int i = 0; i < G; i++) {
		if (fold[i] == ft)
			te[(*nte)++] = i;
		else if (fold[i] == fv)
			va[(*nva)++] = i;
		else if (fold[i] >= 0)
			tr[(*ntr)++] = i;
	}
	gsl_rng_free(r);
	free(fold);
}

/*
 * Link task: a random permutation of the labelled edges lab[0..m) from the
 * run's stream; the last LINK_TEST share is the test set, the first
 * LINK_VAL share of the rest validation, the others training (72/8/20 with
 * the defaults).  Returns 0, or -1 when a part would be empty.
 */
static int
link_split(const int32_t *lab, int64_t m, gsl_rng *r, int32_t *tr, int *ntr, int32_t *va,
	   int *nva, int32_t *te, int *nte)
{
	int32_t *perm = xmallocarray((size_t)m + 1, sizeof *perm);
	for (int64_t e = 0; e < m; e++)
		perm[e] = lab[e];
	for (int64_t i = m - 1; i > 0; i--) {
		int64_t j = (int64_t)rng_uniform_u64(r, (uint64_t)i + 1);
		int32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	int64_t ntrv = (int64_t)floor((1 - LINK_TEST) * (double)m),
	    nv = (int64_t)floor(LINK_VAL * (double)ntrv);
	*nva = (int)nv;
	*ntr = (int)(ntrv - nv);
	*nte = (int)(m - ntrv);
	memcpy(va, perm, (size_t)nv * sizeof *va);
	memcpy(tr, perm + nv, (size_t)(ntrv - nv) * sizeof *tr);
	memcpy(te, perm + ntrv, (size_t)(m - ntrv) * sizeof *te);
	free(perm);
	return *nva > 0 && *ntr > 0 && *nte > 0 ? 0 : -1;
}

static void
decay_and_step(real *p, real *g, real *m, real *v, int64_t n, double lr, double wd,
	       int64_t t)
{
	#pragma omp simd
	for (int64_t i = 0; i < n; i++)
		g[i] += (real)(wd * p[i]);
	adam_step(p, g, m, v, n, lr, 0.9, 0.999, 1e-8, t);
}

/* The mean L2 norm of the rows of X (n x k) that are not all zero; 0 if
 * every row is. */
static double
mean_row_norm(const real *X, int64_t n, int64_t k)
{
	double sum = 0;
	int64_t m = 0;
	for (int64_t i = 0; i < n; i++) {
		double q = 0;
		for (int64_t j = 0; j < k; j++)
			q += (double)X[i * k + j] * X[i * k + j];
		if (q > 0) {
			sum += sqrt(q);
			m++;
		}
	}
	return m ? sum / (double)m : 0;
}

/* ---- the model ---- */

/* ---- GNN_PROFILE=1: where the time goes ---- */

/* The phases of a run; a mark gives the time since the previous mark to
 * the phase just ended. */
enum {
	PH_SETUP, PH_FEAT, PH_FROZEN, PH_ENC_FWD, PH_HEAD_EVAL, PH_LINK_EVAL, PH_SCORE,
	PH_HEAD_FWD, PH_LINK_TRAIN, PH_LOSS, PH_HEAD_BWD, PH_ENC_BWD, PH_ADAM, NPH
};
static const char *const ph_name[NPH] = {
	"setup (input, model, buffers)", "features + batch (per run)",
	"frozen encoder part (per run)", "encoder forward + mix", "head GCN, evaluation",
	"link decoder, evaluation", "evaluation scores, best copy", "head GCN forward, training",
	"link decoder, training", "training loss", "head GCN backward",
	"mix + encoder backward", "Adam (+ zeroing)"
};

struct prof {
	int on;
	double w, c;		/* the last mark: wall and process CPU seconds */
	double wall[NPH], cpu[NPH];
	int64_t epochs, evals, runs;
};

static double
clock_s(clockid_t id)
{
	struct timespec t;
	clock_gettime(id, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void
prof_mark(struct prof *p, int ph)
{
	if (!p->on)
		return;
	double w = clock_s(CLOCK_MONOTONIC), c = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (ph >= 0) {
		p->wall[ph] += w - p->w;
		p->cpu[ph] += c - p->c;
	}
	p->w = w;
	p->c = c;
}

/* The table on stderr: per phase wall and CPU seconds, CPU milliseconds
 * per epoch, share of the CPU time; the load average beside it. */
static void
prof_print(const struct prof *p)
{
	double tw = 0, tc = 0, la[3] = { -1, -1, -1 };
	if (!p->on)
		return;
	for (int i = 0; i < NPH; i++) {
		tw += p->wall[i];
		tc += p->cpu[i];
	}
	if (getloadavg(la, 3) < 0)
		la[0] = la[1] = la[2] = -1;
	fflush(stdout);
	fprintf(stderr, "gcn-adapt: profile: %" PRId64 " runs, %" PRId64 " epochs, %" PRId64
		" evaluations; wall %.2f s, CPU %.2f s; load %.2f %.2f %.2f\n", p->runs, p->epochs,
		p->evals, tw, tc, la[0], la[1], la[2]);
	fprintf(stderr, "%-32s %10s %10s %14s %7s\n", "phase", "wall s", "CPU s",
		"CPU ms/epoch", "CPU %");
	for (int i = 0; i < NPH; i++)
		fprintf(stderr, "%-32s %10.3f %10.3f %14.2f %7.1f\n", ph_name[i], p->wall[i],
			p->cpu[i], p->epochs ? 1e3 * p->cpu[i] / (double)p->epochs : 0,
			tc > 0 ? 100 * p->cpu[i] / tc : 0);
}

/* ---- one adaptation ---- */

/* Everything the runs share: the model and its pre-trained values, the
 * dataset as the encoder sees it, the head's buffers; and the split of the
 * run in progress. */
struct adapt {
	const struct opts *o;
	model *M;
	struct dataset *ds;
	const struct feat_src *fs;	/* the encoder's input */
	const char *stage;		/* its name, for the records */
	real *pre;		/* (M->n) the pre-trained values */
	uint8_t *trained;	/* (M->nt) the encoder tensors the runs train */
	int from, embed, link;	/* the lowest trained block; E trained; link task */
	int64_t N, d, C, hid, Cout, din, NI;
	batch b;		/* the encoder's input (link: of the run) */
	struct hbuf hb;
	struct lbuf lb;		/* link task: the edge decoder's buffers */
	real *elg;		/* link: (NI x C) logits of the validation edges */
	int32_t *tu, *tv;	/* link: the run's training edges, in the order of tr */
	int32_t *ty;		/* link: their classes */
	graph gtr;		/* link: the run's training graph */
	int32_t *ident;		/* 0, 1, 2, ... */
	int32_t *tr, *va, *te;	/* the run's split */
	int ntr, nva, nte;
	real *bestlg;		/* (NI x C) item logits at the best epoch */
	real *glg, *dil;	/* graph task: graph logits and their gradient */
	int32_t *lab, *unl;	/* link: the labelled edges; the others (structure) */
	int64_t nlab, nunl;
	mws *w;
	gsl_rng *rr;		/* the run's stream (seed, run) */
	struct progress pr;
	struct prof *prof;	/* GNN_PROFILE=1 */
	/* --save-model: the encoder's (M->n) and the head's (nh) parameters at
	 * the best epoch of the run in progress (snap) and of the best run so
	 * far (keep), the head's sizes, and what the kept run gave */
	real *snapM, *snapH, *keepM, *keepH;
	int64_t nh;
	struct head hshape;
	int kept_run, kept_epochs, kept_best, kept_ntr;
	double kept_acc, kept_loss;
	real kept_es;
};

/* What a run gave. */
struct run_result {
	int epochs, best_epoch;
	double val_acc, val_loss, test_acc;
};

static void
adapt_init(struct adapt *a, const struct opts *o, struct pretrained *pt, struct dataset *ds,
	   struct prof *prof)
{
	model *M = &pt->M;
	const struct feat_src *fs = &pt->fs;
	char msg[512];
	int L = M->cfg.layers;

	memset(a, 0, sizeof *a);
	a->o = o;
	a->prof = prof;
	a->M = M;
	a->ds = ds;
	a->fs = fs;
	a->stage = pretrained_stage_name(pt);
	a->from = o->no_pretrain ? 0 : (o->freeze < 0 ? 0 : o->freeze);
	a->embed = o->no_pretrain || o->freeze < 0;
	if (a->from > L)
		die_usage("--freeze %d: the model has %d blocks", o->freeze, L);
	a->pre = xmallocarray((size_t)M->n, sizeof *a->pre);
	memcpy(a->pre, M->p, (size_t)M->n * sizeof *a->pre);
	a->link = o->task == TASK_LINK;

	int ngr = o->task == TASK_GRAPH ? ds->ng : 1;
	const graph **gp = xmallocarray((size_t)ngr, sizeof *gp);
	for (int i = 0; i < ngr; i++)
		gp[i] = o->task == TASK_GRAPH ? &ds->gs[i] : &ds->g;
	batch_init(&a->b);
	/* the link task builds its batch in each run, from the training edges */
	if (!a->link && batch_plain(&a->b, gp, ngr, fs, o->task == TASK_GRAPH ? ds->gfeat
					    : &ds->feat, msg, sizeof msg) != 0)
		die("%s", msg);
	free(gp);

	a->N = a->link ? ds->g.n : a->b.N;
	a->d = M->cfg.d;
	a->C = ds->C;
	a->hid = o->head_width;
	a->Cout = a->link ? a->hid : a->C;
	hbuf_init(&a->hb, a->N, a->d, a->hid, a->Cout, !o->attr_only,
		  o->attributes || o->attr_only ? ds->A : NULL, ds->na);
	a->din = a->hb.din;
	a->NI = ds->nitems;
	int64_t nid = a->N > a->NI ? a->N : a->NI;
	if (nid < LCHUNK)
		nid = LCHUNK;
	a->ident = xmallocarray((size_t)nid, sizeof *a->ident);
	for (int64_t i = 0; i < nid; i++)
		a->ident[i] = (int32_t)i;
	graph_init(&a->gtr);
	if (a->link) {
		/* the labelled edges are the items of the splits; the others are
		 * in every run's training graph */
		a->lab = xmallocarray((size_t)a->NI + 1, sizeof *a->lab);
		a->unl = xmallocarray((size_t)a->NI + 1, sizeof *a->unl);
		for (int64_t e = 0; e < a->NI; e++) {
			if (ds->y[e] >= 0)
				a->lab[a->nlab++] = (int32_t)e;
			else
				a->unl[a->nunl++] = (int32_t)e;
		}
		lbuf_init(&a->lb, a->N, a->hid, a->C);
		/* evaluation scores the validation edges (elg) every epoch and
		 * the test edges (into bestlg) at a new best only; the other
		 * rows of elg stay 0 */
		a->elg = xcalloc((size_t)(a->NI * a->C), sizeof *a->elg);
		a->tu = xmallocarray((size_t)a->NI, sizeof *a->tu);
		a->tv = xmallocarray((size_t)a->NI, sizeof *a->tv);
		a->ty = xmallocarray((size_t)a->NI, sizeof *a->ty);
	}
	a->tr = xmallocarray((size_t)a->NI + 1, sizeof *a->tr);
	a->va = xmallocarray((size_t)a->NI + (size_t)o->nval + 1, sizeof *a->va);
	a->te = xmallocarray((size_t)a->NI + (size_t)o->ntest + 1, sizeof *a->te);
	a->bestlg = xmallocarray((size_t)(a->NI * a->C), sizeof *a->bestlg);
	/* item logits and their gradient: the node rows themselves, or graphs */
	a->glg = o->task == TASK_GRAPH ? xmallocarray((size_t)(a->NI * a->C), sizeof *a->glg) : NULL;
	a->dil = o->task == TASK_GRAPH ? xmallocarray((size_t)(a->NI * a->C), sizeof *a->dil)
	    : a->hb.dlg;
	a->w = mws_new();
	a->rr = rng_new(0, 0);
	/* the encoder tensors the runs train: E when embed, blocks from.. */
	a->trained = xcalloc((size_t)M->nt, 1);
	for (int i = 0; a->hb.use_enc && i < M->nt; i++) {
		int blk = 0;
		if (strncmp(M->t[i].name, "embed.", 6) == 0)
			a->trained[i] = (uint8_t)a->embed;
		else if (sscanf(M->t[i].name, "block%d.", &blk) == 1)
			a->trained[i] = blk - 1 >= a->from;
	}
	progress_init(&a->pr, &o->c);
	a->pr.at_most = 1;	/* early stopping may end a run sooner */
	a->kept_run = -1;
	if (o->save_model) {
		a->snapM = xmallocarray((size_t)M->n, sizeof *a->snapM);
		a->keepM = xmallocarray((size_t)M->n, sizeof *a->keepM);
	}
}

static void
adapt_free(struct adapt *a)
{
	if (a->link)
		lbuf_free(&a->lb);
	if (a->o->task == TASK_GRAPH) {
		free(a->glg);
		free(a->dil);
	}
	free(a->elg); free(a->tu); free(a->tv); free(a->ty); free(a->lab); free(a->unl);
	free(a->snapM); free(a->snapH); free(a->keepM); free(a->keepH);
	graph_free(&a->gtr);
	hbuf_free(&a->hb);
	free(a->trained); free(a->ident); free(a->tr); free(a->va); free(a->te);
	free(a->bestlg); free(a->pre);
	gsl_rng_free(a->rr);
	mws_free(a->w);
	batch_free(&a->b);
}

/* The split of run `run` (and, for the link task, its training graph). */
static void
split_run(struct adapt *a, int run)
{
	const struct opts *o = a->o;
	struct dataset *ds = a->ds;
	char msg[512];

	prof_mark(a->prof, PH_SETUP);
	a->nva = o->nval;
	a->nte = o->ntest;
	rng_reseed(a->rr, o->c.seed, (uint64_t)run);
	if (o->task == TASK_GRAPH) {
		graph_split(ds, o->c.seed, run, a->tr, &a->ntr, a->va, &a->nva, a->te, &a->nte);
	} else if (a->link) {
		if (link_split(a->lab, a->nlab, a->rr, a->tr, &a->ntr, a->va, &a->nva, a->te,
			       &a->nte) != 0)
			die("%" PRId64 " labelled edges: too few to split into training, "
			    "validation and test edges", a->nlab);
		/* the encoder and the head see the training edges only, and the
		 * edges without a class, which are structure and no item */
		for (int i = 0; i < a->ntr; i++) {
			a->tu[i] = ds->eu[a->tr[i]];
			a->tv[i] = ds->ev[a->tr[i]];
			a->ty[i] = ds->y[a->tr[i]];
		}
		for (int64_t i = 0; i < a->nunl; i++) {
			a->tu[a->ntr + i] = ds->eu[a->unl[i]];
			a->tv[a->ntr + i] = ds->ev[a->unl[i]];
		}
		const graph *gp1 = &a->gtr;
		if (graph_build(&a->gtr, ds->g.n, a->ntr + a->nunl, a->tu, a->tv, GRAPH_STRICT,
				NULL, msg, sizeof msg) != 0 ||
		    batch_plain(&a->b, &gp1, 1, a->fs, NULL, msg, sizeof msg) != 0)
			die("%s", msg);
		/* --train-fraction: the loss sees a share of them */
		int keep = (int)lround(o->train_fraction * a->ntr);
		a->ntr = keep < 1 ? 1 : keep;
	} else if (split(ds, o, a->rr, a->tr, &a->ntr, a->va, a->te, msg, sizeof msg) != 0) {
		die("%s", msg);
	}
	prof_mark(a->prof, PH_FEAT);
}

/* The encoder's values at the start of a run: pre-trained, or fresh for
 * the baseline (or above the boundary, --random-above); Adam from 0. */
static void
encoder_start(struct adapt *a)
{
	model *M = a->M;

	memcpy(M->p, a->pre, (size_t)M->n * sizeof *a->pre);
	if (a->o->no_pretrain)
		model_init_params(M, a->rr);
	else if (a->o->random_above) {	/* fresh values above the boundary */
		model_init_params(M, a->rr);
		for (int i = 0; i < M->nt; i++)
			if (!a->trained[i])
				memcpy(M->p + M->t[i].off, a->pre + M->t[i].off,
				       (size_t)(M->t[i].rows * M->t[i].cols) * sizeof *a->pre);
	}
	memset(M->m, 0, (size_t)M->n * sizeof *M->m);
	memset(M->v, 0, (size_t)M->n * sizeof *M->v);
	M->adam_t = 0;
}

/*
 * One run on the split of split_run(): a fresh head over the encoder,
 * epochs of Adam until --epochs or --patience; the item logits of the
 * best validation epoch go to a->bestlg.
 */
static void
train_run(struct adapt *a, int run, struct run_result *res)
{
	const struct opts *o = a->o;
	struct dataset *ds = a->ds;
	model *M = a->M;
	struct hbuf *hb = &a->hb;
	int64_t N = a->N, hid = a->hid, Cout = a->Cout, C = a->C, NI = a->NI;
	struct head h;
	double best_acc = -1, best_loss = INFINITY, vacc = 0, tacc;
	int best_ep = 0, ep;

	progress_start(&a->pr, "epochs", o->epochs, "run %d/%d", run + 1, o->first_run + o->runs);
	encoder_start(a);
	head_init(&h, a->d, a->din, M->cfg.layers, hid, Cout, C, a->link, a->rr);
	if (o->save_model && !a->snapH) {	/* the head's size, known now */
		a->nh = h.n;
		a->snapH = xmallocarray((size_t)h.n, sizeof *a->snapH);
		a->keepH = xmallocarray((size_t)h.n, sizeof *a->keepH);
		memset(&a->hshape, 0, sizeof a->hshape);	/* sizes only */
		a->hshape.n = h.n;
		a->hshape.d = h.d;
		a->hshape.din = h.din;
		a->hshape.hid = h.hid;
		a->hshape.Cout = h.Cout;
		a->hshape.C = h.C;
		a->hshape.L = h.L;
		a->hshape.link = h.link;
	}
	/*
	 * Iteration it evaluates the parameters after it - 1 epochs of
	 * training, then trains epoch it from the same encoder pass.
	 */
	prof_mark(a->prof, PH_SETUP);
	/* the encoder below the fix-tune boundary is a constant of the run */
	if (hb->use_enc)
		head_freeze(M, &a->b, a->w, hb, a->from, a->embed);
	prof_mark(a->prof, PH_FROZEN);
	for (int it = 1;; it++) {
		ep = it - 1;
		if (hb->use_enc)
			head_encode(M, &h, &a->b, a->w, hb, a->ident);
		prof_mark(a->prof, PH_ENC_FWD);
		/*
		 * --attributes: the encoder's columns enter the head scaled
		 * to the attributes' mean row norm, fixed for the run from
		 * its initial encoder; raw, its d = 512 columns outweigh
		 * the attributes (Cora's bag of words: 18 ones a row).
		 */
		if (it == 1 && o->attributes && !o->raw_concat) {
			double fa = mean_row_norm(ds->A, N, ds->na), fe = mean_row_norm(hb->Fm, N, a->d);
			hb->es = fa > 0 && fe > 0 ? (real)(fa / fe) : 1;
		}
		if (ep > 0) {	/* evaluation: no dropout */
			const real *ilg = hb->lg;
			head_forward(M, &h, &a->b, a->w, hb, hid, Cout, 0, NULL, a->ident, 0);
			prof_mark(a->prof, PH_HEAD_EVAL);
			if (a->link) {	/* the validation edges; the test edges below */
				relu_fwd(hb->lg, hb->lg, N * hid);
				head_link_pass(&h, &a->lb, ds->eu, ds->ev, ds->y, hb->lg, NULL, N, a->va,
					       a->nva, hid, C, 0, NULL, a->elg, a->ident);
				ilg = a->elg;
				prof_mark(a->prof, PH_LINK_EVAL);
			} else if (o->task == TASK_GRAPH) {
				head_graph_logits(a->glg, hb->lg, &a->b, C);
				ilg = a->glg;
			}
			double vl = head_xent(ilg, NULL, ds->y, a->va, a->nva, C, NI, &vacc, 0);
			if (vacc > best_acc || (vacc == best_acc && vl < best_loss)) {
				best_acc = vacc;
				best_loss = vl;
				best_ep = ep;
				/* the test items' logits of this epoch: the link
				 * task decodes its test edges now, from the same
				 * pass, and only at a new best */
				if (a->link)
					head_link_logits(&h, &a->lb, ds->eu, ds->ev, a->te, a->nte,
							 hid, C, a->bestlg);
				else
					memcpy(a->bestlg, ilg, (size_t)(NI * C) * sizeof *a->bestlg);
				if (o->save_model) {	/* the parameters that gave them */
					memcpy(a->snapM, M->p, (size_t)M->n * sizeof *a->snapM);
					memcpy(a->snapH, h.p, (size_t)h.n * sizeof *a->snapH);
				}
			}
			progress_note(&a->pr, "val %.3f, best %.3f at epoch %d", vacc, best_acc,
				      best_ep);
			progress_update(&a->pr, ep);
			a->prof->evals++;
			prof_mark(a->prof, PH_SCORE);
			if (ep - best_ep >= o->patience || ep == o->epochs)
				break;
		}
		/* the gradients: of what is trained (the pre-training heads'
		 * tensors, most of M, get none) */
		for (int i = 0; i < M->nt; i++)
			if (a->trained[i])
				memset(M->g + M->t[i].off, 0,
				       (size_t)(M->t[i].rows * M->t[i].cols) * sizeof *M->g);
		memset(h.g, 0, (size_t)h.n * sizeof *h.g);
		prof_mark(a->prof, PH_ADAM);
		head_forward(M, &h, &a->b, a->w, hb, hid, Cout, o->dropout, a->rr, a->ident, 0);
		prof_mark(a->prof, PH_HEAD_FWD);
		if (a->link) {
			relu_fwd(hb->lg, hb->lg, N * hid);
			/* training edge i is tr[i]: its endpoints and class
			 * gathered once per run, read in order here */
			head_link_pass(&h, &a->lb, a->tu, a->tv, a->ty, hb->lg, hb->dlg, N, a->ident,
				       a->ntr, hid, C, o->dropout, a->rr, NULL, a->ident);
			relu_bwd(hb->dlg, hb->dlg, hb->lg, N * hid);
			prof_mark(a->prof, PH_LINK_TRAIN);
		} else if (o->task == TASK_GRAPH) {
			head_graph_logits(a->glg, hb->lg, &a->b, C);
			head_xent(a->glg, a->dil, ds->y, a->tr, a->ntr, C, NI, &tacc, 1);
			head_graph_bwd(hb->dlg, a->dil, &a->b, C);
		} else
			head_xent(hb->lg, hb->dlg, ds->y, a->tr, a->ntr, C, NI, &tacc, 1);
		prof_mark(a->prof, PH_LOSS);
		head_gcn_backward(M, &h, &a->b, hb, hid, Cout, o->dropout);
		prof_mark(a->prof, PH_HEAD_BWD);
		head_encode_backward(M, &h, &a->b, a->w, hb, a->from, a->embed, a->ident);
		prof_mark(a->prof, PH_ENC_BWD);
		/* Adam with weight decay on what is trained */
		for (int i = 0; i < M->nt; i++) {
			const struct mtensor *t = &M->t[i];
			if (a->trained[i])
				decay_and_step(M->p + t->off, M->g + t->off, M->m + t->off,
					       M->v + t->off, t->rows * t->cols, o->lr, o->wd, it);
		}
		decay_and_step(h.p, h.g, h.m, h.v, h.n, o->lr, o->wd, it);
		a->prof->epochs++;
		prof_mark(a->prof, PH_ADAM);
	}
	a->prof->runs++;
	progress_done(&a->pr);
	head_free(&h);
	res->epochs = ep;
	res->best_epoch = best_ep;
	res->val_acc = best_acc;
	res->val_loss = best_loss;
}

/*
 * Rows idx[0..n) of the item logits lg (items x C) as a predictions tensor
 * with id id: item, true class (y; -1 for none), predicted class and, up
 * to 64 classes, the softmax probabilities.  Returns how many predicted
 * classes are the true one.
 */
static int64_t
predictions_tensor(gs_rec *rec, int64_t id, const real *lg, const int32_t *idx, int64_t n,
		   const int32_t *y, int64_t C)
{
	char cols[64 + 16 * 64];
	size_t cl = (size_t)snprintf(cols, sizeof cols, "item,true,pred");
	int64_t ok = 0;

	for (int64_t c = 0; c < C && cl < sizeof cols - 24; c++)
		cl += (size_t)snprintf(cols + cl, sizeof cols - cl, ",score_%" PRId64, c);
	int64_t ncol = C <= 64 ? 3 + C : 3;
	if (C > 64)
		snprintf(cols, sizeof cols, "item,true,pred");
	gs_rec_tensor(rec, id, "predictions", n, ncol, GS_F64, cols);
	double *pd = rec->data;
	for (int64_t i = 0; i < n; i++) {
		const real *z = lg + (int64_t)idx[i] * C;
		double s;
		int best;
		double mx = head_softmax_stats(z, C, &s, &best);
		pd[i * ncol] = idx[i];
		pd[i * ncol + 1] = y[idx[i]];
		pd[i * ncol + 2] = best;
		ok += best == y[idx[i]];
		for (int64_t c = 0; c < C && ncol > 3; c++)
			pd[i * ncol + 3 + c] = exp(z[c] - mx) / s;
	}
	return ok;
}

/* What a run's training came to, as attributes of its predictions record
 * or of the model saved from it. */
static void
run_attrs(gs_rec *rec, int epochs, int best_epoch, int ntr, double val_acc)
{
	gs_attr_setf(rec, "epochs", "%d", epochs);
	gs_attr_setf(rec, "best_epoch", "%d", best_epoch);
	gs_attr_setf(rec, "train_labels", "%d", ntr);
	gs_attr_setf(rec, "val_acc", "%.6f", val_acc);
}

/* The predictions record of a run: the test items' true and predicted
 * classes and class probabilities at the best validation epoch. */
static void
write_predictions(struct adapt *a, int run, gs_file *out, gs_rec *rec, struct run_result *res)
{
	const struct opts *o = a->o;
	const struct dataset *ds = a->ds;
	int64_t C = a->C;
	double tok = (double)predictions_tensor(rec, run, a->bestlg, a->te, a->nte, ds->y, C);

	res->test_acc = tok / a->nte;
	gs_attr_set(rec, "task", adapt_task[o->task]);
	gs_attr_set(rec, "dataset", ds->name);
	gs_attr_set(rec, "precision", gemm_precision_name(gemm_precision()));
	gs_attr_setf(rec, "classes", "%" PRId64, C);
	if (a->link)
		gs_attr_set(rec, "class_values", ds->cvals);
	gs_attr_set(rec, "init", o->attr_only ? "none" : o->no_pretrain ? "random"
		    : o->random_above ? "pretrained-below" : "pretrained");
	if (!o->attr_only)
		gs_attr_setf(rec, "freeze", "%d", o->no_pretrain ? -1 : o->freeze);
	gs_attr_set(rec, "input", o->attr_only ? "attributes"
		    : o->attributes ? "structure+attributes" : "structure");
	if (!o->attr_only)
		gs_attr_set(rec, "features", a->stage);
	if (o->attributes)
		gs_attr_setf(rec, "encoder_scale", "%.6g", (double)a->hb.es);
	run_attrs(rec, res->epochs, res->best_epoch, a->ntr, res->val_acc);
	gs_write1(out, rec);
}

/* After a run: keep its best epoch's parameters when its validation
 * accuracy is the best so far (ties: the lower validation loss, then the
 * earlier run). */
static void
keep_run(struct adapt *a, int run, const struct run_result *res)
{
	real *t;

	if (a->kept_run >= 0 && (res->val_acc < a->kept_acc ||
				 (res->val_acc == a->kept_acc && res->val_loss >= a->kept_loss)))
		return;
	t = a->keepM;
	a->keepM = a->snapM;
	a->snapM = t;
	t = a->keepH;
	a->keepH = a->snapH;
	a->snapH = t;
	a->kept_run = run;
	a->kept_acc = res->val_acc;
	a->kept_loss = res->val_loss;
	a->kept_epochs = res->epochs;
	a->kept_best = res->best_epoch;
	a->kept_ntr = a->ntr;
	a->kept_es = a->hb.es;
}

/*
 * The adapted model of the kept run (gcn-adapt(1), Inference): the
 * encoder's settings with the feature stage the runs used, the adapt.*
 * keys, the encoder's and the head's parameters at its best epoch.
 */
static void
write_model(const struct adapt *a, const struct pretrained *pt, gs_file *mf, gs_rec *rec)
{
	const struct opts *o = a->o;
	const struct dataset *ds = a->ds;
	struct train_settings s = pt->ts;	/* the strings are borrowed */
	struct adapted_cfg ac;
	int kind = pt->fs.kind;
	char bcols[6 * RWSE_STEPS_MAX];

	feat_src_columns(&pt->fs, bcols, sizeof bcols);	/* a built-in set's */
	s.nfeat = a->M->cfg.nfeat;
	/* the runs' precision, which --predict follows (with_precision()) */
	s.precision = (char *)gemm_precision_name(gemm_precision());
	s.feature_stage = (char *)(kind == FEAT_SRC_GIVEN ? "stream" : kind == FEAT_SRC_CALL
				   ? "command" : feat_src_name(&pt->fs));
	s.feature_command = (char *)(kind == FEAT_SRC_CALL ? pt->fc.cmd : "");
	s.feature_columns = kind == FEAT_SRC_GIVEN ? ds->fcols : kind == FEAT_SRC_CALL
	    ? pt->fc.columns : bcols;
	memset(&ac, 0, sizeof ac);
	ac.task = (char *)adapt_task[o->task];
	ac.head_width = o->head_width;
	ac.classes = a->C;
	ac.class_values = (char *)(a->link ? ds->cvals : "");
	ac.label = (char *)(a->link ? "" : o->label);
	ac.attributes = o->attributes ? ds->na : 0;
	ac.encoder_scale = a->kept_es;
	ac.scale = (char *)(pt->fs.scale == FEAT_SCALE_LOG ? "log" : "minmax");
	ac.run = a->kept_run;
	ac.init = (char *)(o->no_pretrain ? "random" : o->random_above ? "pretrained-below"
			   : "pretrained");
	ac.freeze = o->no_pretrain ? -1 : o->freeze;
	adapted_record(rec, &s, a->M, a->keepM, &ac, &a->hshape, a->keepH);
	gs_attr_set(rec, "dataset", ds->name);
	gs_attr_setf(rec, "seed", "%" PRIu64, o->c.seed);
	gs_attr_setf(rec, "runs", "%d..%d", o->first_run, o->first_run + o->runs - 1);
	run_attrs(rec, a->kept_epochs, a->kept_best, a->kept_ntr, a->kept_acc);
	gs_write1(mf, rec);
}

/* Adaptation starts from a pre-trained model: refuse a file whose first
 * model record is an adapted one, before pretrained_load() takes its
 * encoder.  Any other trouble with the file is left to pretrained_load()
 * to report; standard input can be read once only, so it is not looked at
 * here. */
static void
refuse_adapted(const char *path)
{
	char msg[512];
	gs_file *in;
	gs_rec r;
	int k;

	if (!path || strcmp(path, "-") == 0 || !(in = gs_open_in(path, msg, sizeof msg)))
		return;
	gs_rec_init(&r);
	while ((k = gs_read1(in, &r)) > 0 && k != GS_MODEL)
		;
	if (k == GS_MODEL && strcmp(r.name, ADAPTED_NAME) == 0)
		die("%s: an adapted model (gcn-adapt --save-model): give it to --predict; "
		    "adaptation starts from a pre-trained model (gcn-train)", gs_where(in));
	gs_rec_free(&r);
	gs_close(in);
}

/* The adaptation: every run, its predictions, the model kept. */
static int
adapt_main(struct opts *o, int argc, char **argv)
{
	struct dataset ds;
	struct pretrained pt;
	struct adapt a;
	struct run_result res;
	struct prof prof;
	gs_file *out, *mf = NULL;
	gs_rec rec;
	const char *pe = getenv("GNN_PROFILE");

	memset(&prof, 0, sizeof prof);
	prof.on = pe && strcmp(pe, "1") == 0;
	prof_mark(&prof, -1);
	refuse_adapted(o->model);
	pretrained_load(&pt, o->model);
	memset(&ds, 0, sizeof ds);
	read_dataset(&ds, o, argc - optind, argv + optind);
	if (o->task == TASK_NODE && !o->split_given)
		size_node_split(o, &ds);
	if (!o->attr_only) {	/* the encoder's input: the model's feature stage */
		struct stage_ask sa = {
			.features = o->features, .allow_command = o->allow_cmd,
			.timeout = o->features_timeout, .scale = o->scale, .fresh = o->no_pretrain,
			.changes = o->task == TASK_LINK, .quiet = o->c.quiet,
			.g0 = o->task == TASK_GRAPH ? &ds.gs[0] : &ds.g,
			.ngraphs = o->task == TASK_GRAPH ? ds.ng : 1, .nfeat = ds.nfeat,
			.F = ds.F, .fcols = ds.fcols,
		};
		pretrained_stage(&pt, &sa);
	} else {
		pt.fs.scale = o->scale;
	}
	adapt_init(&a, o, &pt, &ds, &prof);
	out = gs_open_out(&o->c, argc, argv);
	gs_reader_write_pg(&ds.rd, out);	/* provenance: the dataset's, the model's */
	gs_reader_write_pg(&pt.rd, out);
	if (o->save_model) {	/* opened now: a bad path fails before the runs */
		struct copt mc = o->c;
		mc.output = o->save_model;
		mf = gs_open_out(&mc, argc, argv);
		gs_reader_write_pg(&ds.rd, mf);
		gs_reader_write_pg(&pt.rd, mf);
	}
	gs_rec_init(&rec);
	prof_mark(&prof, PH_SETUP);
	for (int run = o->first_run; run < o->first_run + o->runs; run++) {
		split_run(&a, run);
		train_run(&a, run, &res);
		write_predictions(&a, run, out, &rec, &res);
		if (o->save_model)
			keep_run(&a, run, &res);
		if (copt_show_progress(&o->c))
			warnx_("run %d/%d: %d epochs (best %d), val %.3f, test %.3f", run + 1,
			       o->first_run + o->runs, res.epochs, res.best_epoch, res.val_acc,
			       res.test_acc);
	}
	if (mf)
		write_model(&a, &pt, mf, &rec);
	/* the predictions and the model replace what the files held together,
	 * or neither does (a full disk, /dev/full) */
	outfile_hold();
	gs_close(out);
	gs_close(mf);
	outfile_release();
	prof_mark(&prof, PH_SETUP);
	prof_print(&prof);
	if (mf && !o->c.quiet)
		warnx_("%s: the model of run %d (validation accuracy %.3f, the best of %d "
		       "run%s)", o->save_model, a.kept_run, a.kept_acc, o->runs,
		       o->runs == 1 ? "" : "s");
	if (o->split_note[0] && !o->c.quiet)	/* at the end, likewise */
		warnx_("%s", o->split_note);
	if (o->shipped && !o->c.quiet)	/* at the end: a failing run says one line */
		warnx_("model: %s (the shipped model%s; --model to choose another)", o->model,
		       o->no_pretrain ? ", its configuration for --no-pretrain" : "");
	gs_rec_free(&rec);
	adapt_free(&a);
	dataset_free(&ds);
	pretrained_free(&pt);
	return 0;
}

/* ---- --predict: a saved adapted model applied to every item ---- */

/*
 * The adapted model of path into pt (its encoder, settings and provenance,
 * as pretrained_load() fills them), ac and h.  Dies with one line on a bad
 * file, and on a model record that is not an adapted model.
 */
static void
load_adapted(struct pretrained *pt, struct adapted_cfg *ac, struct head *h, const char *path)
{
	char msg[1024];

	if (pretrained_read_adapted(pt, ac, h, path, msg, sizeof msg) != 0)
		die("%s", msg);
}

/* The link task's class values of an adapted model ("1,2,5", checked by
 * adapted_from_record()) into a new array of C. */
static int64_t *
class_values(const char *list, int64_t C)
{
	int64_t *v = xmallocarray((size_t)C + 1, sizeof *v);
	const char *c = list;
	for (int64_t i = 0; i < C; i++) {
		char *end;
		v[i] = strtoll(c, &end, 10);
		c = *end ? end + 1 : end;
	}
	return v;
}

/*
 * The products' precision (gemm.h), chosen with the threads set (auto
 * measures) and set for the process; returns the command line for the pg
 * records, with the precision chosen in place of any --precision given
 * (optind moved to its operands; the caller frees the array).  recorded:
 * for --predict, the precision the model was adapted in (its
 * train.precision), which auto follows, so that the saved run's test items
 * get their own predictions back (another precision changes them by its
 * rounding); where that is bf16 and bf16 is not available here, fp32, and
 * o->precision_why says so.  "auto" (models saved before the adaptation's
 * precision was recorded) and NULL (adaptation): auto measures.
 */
static char **
with_precision(struct opts *o, const char *recorded, int argc, char **argv, int *pgargc)
{
	char *why = o->precision_why, r[256];
	size_t len = sizeof o->precision_why;
	int want = gemm_precision_parse(o->precision), prec, pgoptind;

	if (want != GEMM_AUTO || !recorded || strcmp(recorded, "auto") == 0) {
		if ((prec = gemm_choose(want, why, len)) < 0)
			die("--precision %s: %s", o->precision, why);
	} else {
		int rec = gemm_precision_parse(recorded);
		if (rec != GEMM_FP32 && rec != GEMM_BF16)
			die("%s: config: train.precision '%.40s': expected auto, fp32 or bf16",
			    o->model, recorded);
		if ((prec = gemm_choose(rec, r, sizeof r)) >= 0) {
			snprintf(why, len, "%s, the precision the model was adapted in", recorded);
		} else {
			prec = GEMM_FP32;
			snprintf(why, len, "fp32: the model was adapted in bf16, and %s; the "
				 "probabilities differ from its run's by bf16's rounding", r);
		}
	}
	gemm_set_precision(prec);
	char **v = argv_with_precision(argc, argv, optind, gemm_precision_name(prec), pgargc,
				       &pgoptind);
	optind = pgoptind;	/* the operands in v */
	return v;
}

/*
 * --predict: every item of the input (every node, every edge of the graph
 * record, every graph) through the adapted model's encoder and head, as
 * in the evaluation pass of a run; one predictions record, whose true
 * class is -1 where the input has none.  The link task's graph is the
 * input's, all of its edges: a run's model saw its training edges only.
 */
static int
predict_main(struct opts *o, int argc0, char **argv0)
{
	struct pretrained pt;
	struct adapted_cfg ac;
	struct head h;
	struct dataset ds;
	char msg[512];
	gs_file *out;
	gs_rec rec;

	load_adapted(&pt, &ac, &h, o->model);
	int argc;
	char **argv = with_precision(o, pt.ts.precision, argc0, argv0, &argc);
	int task = strcmp(ac.task, "link") == 0 ? TASK_LINK : strcmp(ac.task, "graph") == 0
	    ? TASK_GRAPH : TASK_NODE;
	if (o->task_set && o->task != task)
		die("%s: the model is adapted to --task %s, not %s", o->model, ac.task,
		    adapt_task[o->task]);
	o->task = task;
	if (!o->label_set)
		o->label = ac.label;
	memset(&ds, 0, sizeof ds);
	ds.predict = 1;
	ds.Cm = (int)ac.classes;
	if (task == TASK_LINK)
		ds.mvals = class_values(ac.class_values, ac.classes);
	read_dataset(&ds, o, argc - optind, argv + optind);
	if (ac.attributes > 0) {
		if (!ds.A)
			die("graph %" PRId64 ": no 'attributes' tensor: the model was adapted with "
			    "--attributes (%lld columns)", ds.id, ac.attributes);
		if (ds.na != ac.attributes)
			die("graph %" PRId64 ": 'attributes' has %" PRId64 " columns; the model was "
			    "adapted on %lld", ds.id, ds.na, ac.attributes);
		if (ds.missing && !o->c.quiet)
			warnx_("graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes have no "
			       "attributes (zeros; the source file is partial)", ds.id, ds.missing,
			       ds.g.n);
	}
	struct stage_ask sa = {
		.features = o->features, .allow_command = o->allow_cmd,
		.timeout = o->features_timeout,
		.scale = strcmp(ac.scale, "log") == 0 ? FEAT_SCALE_LOG : FEAT_SCALE_MINMAX,
		.quiet = o->c.quiet, .g0 = task == TASK_GRAPH ? &ds.gs[0] : &ds.g,
		.ngraphs = task == TASK_GRAPH ? ds.ng : 1, .nfeat = ds.nfeat, .F = ds.F,
		.fcols = ds.fcols,
	};
	pretrained_stage(&pt, &sa);

	/* the forward pass of a run's evaluation, over the whole input */
	model *M = &pt.M;
	int ngr = task == TASK_GRAPH ? ds.ng : 1, link = task == TASK_LINK;
	const graph **gp = xmallocarray((size_t)ngr, sizeof *gp);
	for (int i = 0; i < ngr; i++)
		gp[i] = task == TASK_GRAPH ? &ds.gs[i] : &ds.g;
	batch b;
	batch_init(&b);
	if (batch_plain(&b, gp, ngr, &pt.fs, task == TASK_GRAPH ? ds.gfeat : &ds.feat, msg,
			sizeof msg) != 0)
		die("%s", msg);
	free(gp);
	int64_t N = b.N, hid = ac.head_width, C = ac.classes, NI = ds.nitems;
	int64_t Cout = link ? hid : C, nid = N > NI ? N : NI;
	if (nid < LCHUNK)
		nid = LCHUNK;
	int32_t *ident = xmallocarray((size_t)nid, sizeof *ident);
	for (int64_t i = 0; i < nid; i++)
		ident[i] = (int32_t)i;
	struct hbuf hb;
	hbuf_init(&hb, N, M->cfg.d, hid, Cout, 1, ac.attributes ? ds.A : NULL, ds.na);
	hb.es = (real)ac.encoder_scale;
	mws *w = mws_new();
	head_forward(M, &h, &b, w, &hb, hid, Cout, 0, NULL, ident, 1);
	real *ilg = hb.lg, *buf = NULL;
	if (link) {
		struct lbuf lb;
		lbuf_init(&lb, N, hid, C);
		buf = xmallocarray((size_t)(NI * C), sizeof *buf);
		relu_fwd(hb.lg, hb.lg, N * hid);
		head_link_pass(&h, &lb, ds.eu, ds.ev, ds.y, hb.lg, NULL, N, ident, NI, hid, C, 0,
			       NULL, buf, ident);
		lbuf_free(&lb);
		ilg = buf;
	} else if (task == TASK_GRAPH) {
		buf = xmallocarray((size_t)(NI * C), sizeof *buf);
		head_graph_logits(buf, hb.lg, &b, C);
		ilg = buf;
	}

	out = gs_open_out(&o->c, argc, argv);
	gs_reader_write_pg(&ds.rd, out);	/* provenance: the dataset's, the model's */
	gs_reader_write_pg(&pt.rd, out);
	gs_rec_init(&rec);
	predictions_tensor(&rec, ac.run, ilg, ident, NI, ds.y, C);
	gs_attr_set(&rec, "task", adapt_task[task]);
	gs_attr_set(&rec, "dataset", ds.name);
	gs_attr_set(&rec, "precision", gemm_precision_name(gemm_precision()));
	gs_attr_setf(&rec, "classes", "%" PRId64, C);
	if (link)
		gs_attr_set(&rec, "class_values", ac.class_values);
	gs_attr_set(&rec, "init", "adapted");
	gs_attr_set(&rec, "input", ac.attributes ? "structure+attributes" : "structure");
	gs_attr_set(&rec, "features", pretrained_stage_name(&pt));
	if (ac.attributes)
		gs_attr_setf(&rec, "encoder_scale", "%.6g", (double)hb.es);
	gs_attr_setf(&rec, "labelled", "%" PRId64, ds.nlab);
	gs_write1(out, &rec);
	gs_close(out);

	gs_rec_free(&rec);
	free(buf);
	free(ident);
	mws_free(w);
	hbuf_free(&hb);
	batch_free(&b);
	head_free(&h);
	dataset_free(&ds);
	adapted_cfg_free(&ac);
	pretrained_free(&pt);
	free(argv);
	return 0;
}

int
main(int argc, char **argv)
{
	struct opts o;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse(&o, argc, argv);
	copt_apply_threads_blas(&o.c);
	/* the pg records' command line and the predictions say the precision
	 * chosen; --predict chooses once it has read the model */
	int rc;
	if (o.predict) {
		rc = predict_main(&o, argc, argv);
	} else {
		int pgargc;
		char **pgargv = with_precision(&o, NULL, argc, argv, &pgargc);
		rc = adapt_main(&o, pgargc, pgargv);
		free(pgargv);
	}
	/* at the end, as the other summaries: a failing run says one line */
	if (strcmp(o.precision, "auto") == 0 && !o.c.quiet)
		warnx_("precision auto: %s", o.precision_why);
	gemm_release();
	return rc;
}
