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
 * training edges only); and link prediction (--task linkpred: will this
 * pair be an edge?  Each run holds out validation and test edges, with as
 * many sampled non-edges, from the graph the encoder sees; the same
 * decoder scores a pair's two classes, non-edge and edge).
 *
 * Items without a class (a negative one, or a graph without a label
 * record) are never trained on, validated or tested: the splits are drawn
 * among the labelled ones.  --save-model keeps the run with the best
 * validation accuracy (encoder and head, at its best epoch) as a model
 * record; --predict applies such a model to every item of a new input.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_run.h"
#include "err.h"
#include "gemm.h"
#include "modelio.h"
#include "opt.h"
#include "outfile.h"
#include "pretrained.h"
#include "settings.h"
#include "stream.h"

enum {
	OPT_MODEL = COPT_FIRST_TOOL,
	OPT_TASK,
	OPT_NO_PRETRAIN,
	OPT_FREEZE,
	OPT_RUNS,
	OPT_LABEL,
	OPT_EPOCHS,
	OPT_PATIENCE,
	OPT_LR,
	OPT_HIDDEN,
	OPT_HEAD_WIDTH,
	OPT_TRAIN_PER_CLASS,
	OPT_VAL,
	OPT_TEST,
	OPT_SCALE,
	OPT_DROPOUT,
	OPT_ATTRIBUTES,
	OPT_ATTR_ONLY,
	OPT_TRAIN_FRACTION,
	OPT_RANDOM_ABOVE,
	OPT_FIRST_RUN,
	OPT_RAW_CONCAT,
	OPT_FEATURES,
	OPT_PREDICT,
	OPT_SAVE_MODEL,
	OPT_PRECISION,
	OPT_ALLOW_CMD,
	OPT_FEATURES_TIMEOUT,
	OPT_TSV,
	OPT_TEST_FRACTION,
	OPT_VAL_FRACTION,
	OPT_SPLIT,
	OPT_HEAD
};

#define SYNOPSIS \
	"gcn-adapt [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--allow-features-command] [--attr-only] [--attributes] [--dropout p]\n" \
	"                 [--epochs n] [--features stage] [--features-timeout s]\n" \
	"                 [--first-run r] [--freeze k] [--head gcn|sage|auto]\n" \
	"                 [--head-width n] [--label name]\n" \
	"                 [--lr x] [--model file] [--no-pretrain] [--patience n]\n" \
	"                 [--precision p] [--predict] [--progress] [--random-above] [--raw-concat]\n" \
	"                 [--runs n] [--save-model file] [--scale minmax|log]\n" \
	"                 [--split planetoid|per-class] [--task node|link|graph|linkpred]\n" \
	"                 [--test n] [--test-fraction x]\n" \
	"                 [--train-fraction x] [--train-per-class n] [--tsv] [--val n]\n" \
	"                 [--val-fraction x] [file ...]"

static const struct option longopts[] = {
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
	{ "head", required_argument, NULL, OPT_HEAD },
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
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "task", required_argument, NULL, OPT_TASK },
	{ "tsv", no_argument, NULL, OPT_TSV },
	{ "test", required_argument, NULL, OPT_TEST },
	{ "test-fraction", required_argument, NULL, OPT_TEST_FRACTION },
	{ "train-fraction", required_argument, NULL, OPT_TRAIN_FRACTION },
	{ "train-per-class", required_argument, NULL, OPT_TRAIN_PER_CLASS },
	{ "val", required_argument, NULL, OPT_VAL },
	{ "val-fraction", required_argument, NULL, OPT_VAL_FRACTION },
	{ NULL, 0, NULL, 0 }
};

static void
usage(FILE *f, const struct adapt_opts *o)
{
	fprintf(
	    f,
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
	    "      --features STAGE    the encoder's input: paper, rwse or both (built in),\n"
	    "                          stream (the input's 'features' tensors) or a command\n"
	    "                          run on the graph [the model's feature stage]\n"
	    "      --features-timeout S  seconds a feature command may take, 0 = no limit\n"
	    "                          [%g]\n"
	    "      --first-run R       number the runs from R: runs R..R+N-1 of a longer set [0]\n"
	    "      --freeze K          fix E and the bottom K blocks (-1: fix nothing) [0]\n"
	    "  -h, --help              this help\n"
	    "      --head KIND         the head: gcn (the paper's 2-layer GCN), sage (each\n"
	    "                          layer also weighs a node's own row) or auto (both\n"
	    "                          with the few-label split, the better on validation\n"
	    "                          kept; gcn elsewhere) [auto]\n"
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
	    "                          --label, --precision, --task and --tsv\n"
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
	    "      --split SPLIT       node task: planetoid (--train-per-class, --val, --test)\n"
	    "                          or per-class (linprobe --train-per-class's: the rest\n"
	    "                          tested, validation taken from the training nodes)\n"
	    "                          [planetoid where the paper's sizes fit, else per-class]\n"
	    "  -t, --text              write the text form\n"
	    "      --task TASK         node, link or graph classification, or linkpred (link\n"
	    "                          prediction) [node; --predict: the model's]\n"
	    "      --test N            test nodes per run (node task) [%d]\n"
	    "      --test-fraction X   linkpred: share of the edges held out for testing [%g]\n"
	    "      --train-fraction X  use this share of the training labels (paper Fig. 4) [1]\n"
	    "      --train-per-class N labelled training nodes per class [%d]\n"
	    "      --tsv               the predictions as a table on stdout (with the nodes'\n"
	    "                          names, when the graph has them), not a stream\n"
	    "      --val N             validation nodes per run (node task) [%d]\n"
	    "      --val-fraction X    linkpred: share of the edges held out for validation [%g]\n"
	    "      --version           print the version\n",
	    o->dropout, o->epochs, o->features_timeout, o->head_width, o->label, o->c.level, o->lr,
	    o->patience, o->precision, o->runs, o->ntest, o->test_fraction, o->train_per_class,
	    o->nval, o->val_fraction);
}

/* The long name of option ch when only adaptation takes it (for
 * --predict's check), else NULL. */
static const char *
train_only(int ch)
{
	const char *name = NULL;

	if (ch != OPT_FEATURES && ch != OPT_LABEL && ch != OPT_MODEL && ch != OPT_ALLOW_CMD &&
	    ch != OPT_FEATURES_TIMEOUT && ch != OPT_PREDICT && ch != OPT_TASK && ch != OPT_HIDDEN &&
	    ch != OPT_PRECISION && ch != OPT_TSV && ch != 'j' && ch != 'l' && ch != 'o' &&
	    ch != 'q' && ch != 't' && ch != COPT_VERSION)
		for (int i = 0; longopts[i].name; i++)
			if (longopts[i].val == ch)
				name = longopts[i].name;
	return name;
}

/* Link prediction's options: theirs only with it, and what it does not
 * take. */
static void
check_linkpred(const struct adapt_opts *o)
{
	if (o->task != ADAPT_LINKPRED) {
		if (o->linkpred_opt)
			die_usage("--%s is for --task linkpred", o->linkpred_opt);
		return;
	}
	if (o->val_fraction + o->test_fraction >= 1)
		die_usage("--val-fraction %g and --test-fraction %g: together below 1, so that "
			  "training edges are left",
			  o->val_fraction, o->test_fraction);
	if (o->train_fraction != 1)
		die_usage("--train-fraction is for the node and link tasks; --task linkpred "
			  "trains on every training pair");
	if (o->split_given)
		die_usage("--train-per-class, --val and --test are the node task's; "
			  "--task linkpred takes --val-fraction and --test-fraction");
	if (o->save_model)
		die_usage("--save-model: not for --task linkpred (--predict has no pairs to "
			  "score)");
}

/* The options together: what --predict takes, what adaptation's options
 * exclude, the shipped model where no --model is given. */
static void
check(struct adapt_opts *o)
{
	if (o->tsv && o->c.output && strcmp(o->c.output, "-") != 0)
		die_usage("--tsv writes to stdout; redirect it instead of -o");
	if (o->predict) {
		if (o->train_opt)
			die_usage("--predict applies a saved adapted model: --%s is for adaptation",
				  o->train_opt);
		if (!o->model)
			die_usage("--predict: no --model; give the adapted model that "
				  "gcn-adapt --save-model wrote");
		o->c.seed_set = 0; /* nothing is drawn: the pg record says so */
		return;
	}
	if (o->save_model && o->attr_only)
		die_usage("--save-model: --attr-only has no encoder; the saved model is an "
			  "encoder and its head");
	const char *pred =
	    o->c.output && strcmp(o->c.output, "-") != 0 ? o->c.output : "/dev/stdout";
	if (o->save_model && outfile_clash(o->save_model, pred))
		die_usage("--save-model %s: the predictions go there too (%s %s)", o->save_model,
			  pred == o->c.output ? "-o" : "the standard output,", pred);
	if (o->raw_concat && !o->attributes)
		die_usage("--raw-concat is for --attributes");
	if (o->split_set && o->task != ADAPT_NODE)
		die_usage("--split is for the node task; --task %s has its own split",
			  adapt_task_name[o->task]);
	if (o->split == ADAPT_SPLIT_PER_CLASS && o->sizes_given)
		die_usage(
		    "--split per-class tests every labelled node not drawn for training and "
		    "validates on a quarter of those: --val and --test are for --split planetoid");
	check_linkpred(o);
	if (o->attr_only && (o->attributes || o->no_pretrain || o->model))
		die_usage(
		    "--attr-only uses no encoder: it takes no --model, --no-pretrain or --attributes");
	if (o->random_above && o->no_pretrain)
		die_usage("--random-above takes a pre-trained model, not --no-pretrain");
	/* without --model: the shipped model (its configuration alone with
	 * --no-pretrain); said on stderr once the input has been read */
	if (!o->model && !o->attr_only) {
		o->model = pretrained_default();
		o->shipped = o->model != NULL;
		if (!o->model && !o->no_pretrain)
			die_usage(
			    "no --model, and the shipped model (models/gcn-pretrain.gs) is not "
			    "found beside the program: give --model, or --no-pretrain");
	}
}

/* One option (all but the common ones and -h). */
static void
set_option(struct adapt_opts *o, int ch, char **argv)
{
	switch (ch) {
	case OPT_ATTRIBUTES:
		o->attributes = 1;
		break;
	case OPT_ATTR_ONLY:
		o->attr_only = 1;
		break;
	case OPT_DROPOUT:
		o->dropout = opt_double(optarg, 0, 0.95, "--dropout");
		break;
	case OPT_EPOCHS:
		o->epochs = (int)opt_ll(optarg, 1, 1000000, "--epochs");
		o->schedule_given = 1;
		break;
	case OPT_FEATURES:
		if (!*optarg)
			die_usage("--features: expected paper, rwse, both, stream or a command");
		o->features = optarg;
		break;
	case OPT_ALLOW_CMD:
		o->allow_cmd = 1;
		break;
	case OPT_FEATURES_TIMEOUT:
		o->features_timeout = opt_double(optarg, 0, 1e9, "--features-timeout");
		break;
	case OPT_FIRST_RUN:
		o->first_run = (int)opt_ll(optarg, 0, 1000000, "--first-run");
		break;
	case OPT_FREEZE:
		o->freeze = (int)opt_ll(optarg, -1, MODEL_MAXL, "--freeze");
		break;
	case OPT_HEAD:
		o->head = opt_keyword(optarg, adapt_head_name, "--head");
		break;
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
	case OPT_LR:
		o->lr = opt_double(optarg, 0, 10, "--lr");
		break;
	case OPT_MODEL:
		o->model = optarg;
		break;
	case OPT_NO_PRETRAIN:
		o->no_pretrain = 1;
		break;
	case OPT_RANDOM_ABOVE:
		o->random_above = 1;
		break;
	case OPT_RAW_CONCAT:
		o->raw_concat = 1;
		break;
	case OPT_PATIENCE:
		o->patience = (int)opt_ll(optarg, 1, 1000000, "--patience");
		o->schedule_given = 1;
		break;
	case OPT_PRECISION:
		if (gemm_precision_parse(optarg) < 0)
			die_usage("--precision: '%.40s': expected auto, fp32 or bf16", optarg);
		o->precision = optarg;
		break;
	case OPT_PREDICT:
		o->predict = 1;
		break;
	case OPT_TSV:
		o->tsv = 1;
		break;
	case OPT_RUNS:
		o->runs = (int)opt_ll(optarg, 1, 100000, "--runs");
		break;
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
	case OPT_SPLIT:
		o->split = opt_keyword(optarg, adapt_split_name, "--split");
		o->split_set = 1;
		break;
	case OPT_TASK:
		o->task = opt_keyword(optarg, adapt_task_name, "--task");
		o->task_set = 1;
		break;
	case OPT_TEST:
		o->ntest = (int)opt_ll(optarg, 1, 1 << 30, "--test");
		o->split_given = o->sizes_given = 1;
		break;
	case OPT_TEST_FRACTION:
		o->test_fraction = opt_double(optarg, 1e-9, 1 - 1e-9, "--test-fraction");
		o->linkpred_opt = "test-fraction";
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
		o->split_given = o->sizes_given = 1;
		break;
	case OPT_VAL_FRACTION:
		o->val_fraction = opt_double(optarg, 1e-9, 1 - 1e-9, "--val-fraction");
		o->linkpred_opt = "val-fraction";
		break;
	default:
		copt_bad_option(ch, argv, SYNOPSIS);
	}
}

static void
parse(struct adapt_opts *o, int argc, char **argv)
{
	int ch;

	adapt_opts_init(o);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout, o);
			copt_exit_ok();
		}
		if (!o->train_opt)
			o->train_opt = train_only(ch);
		if (copt_handle(&o->c, ch, optarg))
			continue;
		set_option(o, ch, argv);
	}
	check(o);
}

/*
 * The outputs (-o, --save-model) are files of their own, none an input
 * FILE, standard input or the model read (the shipped one too), which
 * they would replace; files are compared by identity (outfile.h), before
 * any work.  Time complexity: O(number of FILEs).
 */
static void
check_files(const struct adapt_opts *o, int nfiles, char **files)
{
	const char *opt[2] = { "-o", "--save-model" };
	const char *out[2] = { o->c.output, o->save_model };

	if (out[0] && strcmp(out[0], "-") == 0)
		out[0] = NULL;
	for (int i = 0; i < 2; i++) {
		if (!out[i])
			continue;
		outfile_distinct(i, opt, out, nfiles, files);
		outfile_not_input(opt[i], out[i], "--model", o->model);
	}
}

/* Adaptation starts from a pre-trained model: refuse a file whose first
 * model record is an adapted one, before pretrained_load() takes its
 * encoder.  Any other trouble with the file is left to pretrained_load()
 * to report; standard input can be read once only, so it is not looked at
 * here. */
static void
refuse_adapted(const char *path)
{
	char *files[1] = { (char *)path }, msg[512];
	struct model_find f = { .stop = 1, .no_stdin = 1 };
	struct gs_reader rd;
	gs_rec r;

	gs_reader_init(&rd, path ? 1 : 0, files);
	gs_rec_init(&r);
	if (model_record_find(&rd, &f, &r, msg, sizeof msg) > 0 &&
	    strcmp(r.name, ADAPTED_NAME) == 0)
		die("%s: an adapted model (gcn-adapt --save-model): give it to --predict; "
		    "adaptation starts from a pre-trained model (gcn-train)",
		    f.where);
	gs_rec_free(&r);
	gs_reader_free(&rd);
}

/*
 * A signal came in run `run` (0-based, its split or training): say so,
 * whatever -q.  No run finished: the program dies of the signal at once,
 * its outputs unwritten (outfile.c removes their temporary files).
 * Otherwise the finished runs stay: the predictions end with a record
 * that marks them partial (evalf1 says so), the model is the best of
 * them and says so too, and the caller writes both before it dies of the
 * signal.
 */
static void
say_interrupted(const struct adapt_opts *o, const struct adapt *a, int sig, int run, gs_file *out,
		gs_rec *rec)
{
	int done = a->runs_done, last = o->first_run + o->runs;
	const char *how = sig == SIGINT ? "interrupted" : "terminated";

	fflush(stdout);
	if (done == 0) {
		fprintf(stderr, "%s: %s in run %d of %d: no run finished, nothing written\n",
			err_prog(), how, run + 1, last);
		adapt_restore_signals();
		raise(sig);
		exit(128 + sig); /* the action was not to die (an odd parent's) */
	}
	fprintf(stderr,
		"%s: %s in run %d of %d; writing the %d finished run%s (runs %d-%d), marked "
		"partial (runs_done=%d of %d)\n",
		err_prog(), how, run + 1, last, done, done == 1 ? "" : "s", o->first_run + 1,
		o->first_run + done, done, o->runs);
	if (out) {
		adapt_partial_record(rec, done, o->runs, o->first_run, sig);
		gs_write1(out, rec);
	}
}

/* The adaptation: every run, its predictions, the model kept. */
static int
adapt_main(struct adapt_opts *o, int argc, char **argv)
{
	struct adapt_data ds;
	struct pretrained pt;
	struct adapt a;
	struct adapt_result res;
	struct prof prof;
	gs_file *out, *mf = NULL;
	gs_rec rec;
	int sig;

	prof_init(&prof, NPH, adapt_phase_name);
	prof_mark(&prof, -1);
	refuse_adapted(o->model);
	pretrained_load(&pt, o->model);
	memset(&ds, 0, sizeof ds);
	adapt_read(&ds, o, argc - optind, argv + optind);
	adapt_fit_split(o, &ds);
	adapt_fit_schedule(o, &ds);
	adapt_stage(&pt, o, &ds);
	adapt_init(&a, o, &pt, &ds, &prof);
	out = o->tsv ? NULL : gs_open_out(&o->c, argc, argv);
	if (out) {
		gs_reader_write_pg(&ds.rd, out); /* provenance: the dataset's, the model's */
		gs_reader_write_pg(&pt.rd, out);
	}
	if (o->save_model) { /* opened now: a bad path fails before the runs */
		struct copt mc = o->c;
		mc.output = o->save_model;
		mf = gs_open_out(&mc, argc, argv);
		gs_reader_write_pg(&ds.rd, mf);
		gs_reader_write_pg(&pt.rd, mf);
	}
	gs_rec_init(&rec);
	prof_mark(&prof, PH_SETUP);
	/* from here on a signal keeps the finished runs (say_interrupted()) */
	adapt_catch_signals();
	int run;
	for (run = o->first_run; run < o->first_run + o->runs; run++) {
		if (adapt_split_run(&a, run) != 0 || adapt_train_run(&a, run, &res) != 0)
			break;
		adapt_write_predictions(&a, run, out, &rec, &res);
		if (o->save_model)
			adapt_keep_run(&a, run, &res);
		a.runs_done++;
		if (copt_show_progress(&o->c))
			warnx_("run %d/%d: %s%s%d epochs (best %d), val %s%.3f, test %s%.3f",
			       run + 1, o->first_run + o->runs,
			       a.nkinds > 1 ? adapt_head_name[res.head] : "",
			       a.nkinds > 1 ? " head, " : "", res.epochs, res.best_epoch,
			       a.lp ? "AUC " : "", res.val_acc, a.lp ? "AUC " : "", res.test_acc);
		if (adapt_stop_signal())
			break;
	}
	if ((sig = adapt_stop_signal()))
		say_interrupted(o, &a, sig, run, out, &rec);
	if (mf)
		adapt_write_model(&a, &pt, mf, &rec);
	/* the predictions and the model replace what the files held together,
	 * or neither does (a full disk, /dev/full) */
	outfile_hold();
	gs_close(out);
	gs_close(mf);
	outfile_release();
	prof_mark(&prof, PH_SETUP);
	adapt_prof_print(&a);
	if (mf && !o->c.quiet)
		warnx_("%s: the model of run %d (validation accuracy %.3f, the best of %d "
		       "run%s%s)",
		       o->save_model, a.kept_run, a.kept_acc, a.runs_done,
		       a.runs_done == 1 ? "" : "s", sig ? " that finished" : "");
	if (o->split_note[0] && !o->c.quiet) /* at the end, likewise */
		warnx_("%s", o->split_note);
	if (o->schedule_note[0] && !o->c.quiet)
		warnx_("%s", o->schedule_note);
	if (o->shipped && !o->c.quiet) /* at the end: a failing run says one line */
		warnx_("model: %s (the shipped model%s; --model to choose another)", o->model,
		       o->no_pretrain ? ", its configuration for --no-pretrain" : "");
	gs_rec_free(&rec);
	adapt_free(&a);
	adapt_data_free(&ds);
	pretrained_free(&pt);
	if (sig) { /* the finished runs are written: now die of it */
		adapt_restore_signals();
		raise(sig);
	}
	adapt_restore_signals();
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
with_precision(struct adapt_opts *o, const char *recorded, int argc, char **argv, int *pgargc)
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
			snprintf(why, len,
				 "fp32: the model was adapted in bf16, and %s; the "
				 "probabilities differ from its run's by bf16's rounding",
				 r);
		}
	}
	gemm_set_precision(prec);
	char **v =
	    argv_with_precision(argc, argv, optind, gemm_precision_name(prec), pgargc, &pgoptind);
	optind = pgoptind; /* the operands in v */
	return v;
}

/* --predict's output: one predictions record of every item, whose true
 * class is -1 where the input has none. */
static void
write_labelled(const struct adapt_opts *o, const struct pretrained *pt,
	       const struct adapted_cfg *ac, const struct adapt_data *ds,
	       const struct adapt_pred *p, int argc, char **argv)
{
	int64_t C = ac->classes;
	gs_file *out;
	gs_rec rec;

	out = o->tsv ? NULL : gs_open_out(&o->c, argc, argv);
	if (out) {
		gs_reader_write_pg(&ds->rd, out); /* provenance: the dataset's, the model's */
		gs_reader_write_pg(&pt->rd, out);
	}
	gs_rec_init(&rec);
	adapt_predictions_tensor(&rec, ac->run, p->ilg, NULL, ds->nitems, ds->y, C);
	gs_attr_set(&rec, "task", adapt_task_name[o->task]);
	gs_attr_set(&rec, "dataset", ds->name);
	gs_attr_set(&rec, "precision", gemm_precision_name(gemm_precision()));
	gs_attr_setf(&rec, "classes", "%" PRId64, C);
	if (ds->class_names && o->task != ADAPT_LINK)
		gs_attr_set(&rec, "class_names", ds->class_names);
	if (o->task == ADAPT_LINK)
		gs_attr_set(&rec, "class_values", ac->class_values);
	gs_attr_set(&rec, "init", "adapted");
	gs_attr_set(&rec, "input", ac->attributes ? "structure+attributes" : "structure");
	gs_attr_set(&rec, "features", pretrained_stage_name(pt));
	if (ac->attributes)
		gs_attr_setf(&rec, "encoder_scale", "%.6g", (double)p->hb.es);
	gs_attr_setf(&rec, "labelled", "%" PRId64, ds->nlab);
	adapt_emit(o, ds, out, &rec);
	gs_close(out);
	gs_rec_free(&rec);
}

/*
 * --predict: every item of the input (every node, every edge of the graph
 * record, every graph) through the adapted model's encoder and head, as
 * in the evaluation pass of a run (adapt_predict()); one predictions
 * record.  The link task's graph is the input's, all of its edges: a
 * run's model saw its training edges only.
 */
static int
predict_main(struct adapt_opts *o, int argc0, char **argv0)
{
	struct pretrained pt;
	struct adapted_cfg ac;
	struct head h;
	struct adapt_data ds;
	struct adapt_pred p;
	int argc;

	load_adapted(&pt, &ac, &h, o->model);
	char **argv = with_precision(o, pt.ts.precision, argc0, argv0, &argc);
	int task = strcmp(ac.task, "link") == 0	   ? ADAPT_LINK
		   : strcmp(ac.task, "graph") == 0 ? ADAPT_GRAPH
						   : ADAPT_NODE;
	if (o->task_set && o->task != task)
		die("%s: the model is adapted to --task %s, not %s", o->model, ac.task,
		    adapt_task_name[o->task]);
	o->task = task;
	if (!o->label_set)
		o->label = ac.label;
	adapt_predict_input(&ds, o, &pt, &ac, argc - optind, argv + optind);
	adapt_predict(&p, &pt, &h, &ac, &ds, task);
	write_labelled(o, &pt, &ac, &ds, &p, argc, argv);
	adapt_pred_free(&p);
	head_free(&h);
	adapt_data_free(&ds);
	adapted_cfg_free(&ac);
	pretrained_free(&pt);
	free(argv);
	return 0;
}

int
main(int argc, char **argv)
{
	struct adapt_opts o;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse(&o, argc, argv);
	check_files(&o, argc - optind, argv + optind);
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
