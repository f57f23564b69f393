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
 *
 * The tool parses and checks the options; the work is common/adapt_main.c's
 * (the adaptation, --predict) over common/adapt_run.c's runs.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_main.h"
#include "adapt_run.h"
#include "err.h"
#include "gemm.h"
#include "opt.h"
#include "outfile.h"
#include "pretrained.h"
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
		if ((o->scale = nodefeat_scale_mode(optarg)) < 0)
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
		rc = adapt_main_predict(&o, argc, argv, optind);
	} else {
		int pgargc, first = optind;
		char **pgargv = adapt_main_precision(&o, NULL, argc, argv, &pgargc, &first);
		rc = adapt_main_train(&o, pgargc, pgargv, first);
		free(pgargv);
	}
	/* at the end, as the other summaries: a failing run says one line */
	if (strcmp(o.precision, "auto") == 0 && !o.c.quiet)
		warnx_("precision auto: %s", o.precision_why);
	gemm_release();
	return rc;
}
