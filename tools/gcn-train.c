/*
 * gcn-train - pre-train the paper's GCN encoder on the three structural
 * tasks (paper section 3, Algorithm 1).  Manual: man/man1/gcn-train.1.
 * The model is common/model.c, its layers common/nn.c; the run is
 * common/train_loop.c, its input common/train_data.c, its validation
 * common/train_val.c, its processes under MPI common/train_mpi.c.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dist.h"
#include "err.h"
#include "featcmd.h"
#include "featstage.h"
#include "gemm.h"
#include "model.h"
#include "modelio.h"
#include "opt.h"
#include "outfile.h"
#include "stream.h"
#include "train_data.h"
#include "train_loop.h"
#include "train_mpi.h"
#include "train_need.h"
#include "train_settings.h"

enum {
	OPT_CONFIG = COPT_FIRST_TOOL,
	OPT_HIDDEN,
	OPT_LAYERS,
	OPT_TASKS,
	OPT_BATCH,
	OPT_LR,
	OPT_EPOCHS,
	OPT_STEPS,
	OPT_PATIENCE,
	OPT_VALIDATION,
	OPT_LOG,
	OPT_CHECKPOINT,
	OPT_RESUME,
	OPT_BENCH,
	OPT_FEATURES,
	OPT_PRECISION,
	OPT_REDUCE,
	OPT_ALLOW_CMD,
	OPT_FEATURES_TIMEOUT,
	OPT_MPI_TIMEOUT
};

#define SYNOPSIS \
	"gcn-train [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--allow-features-command] [--batch n]\n" \
	"                 [--bench-steps n] [--checkpoint file] [--config file]\n" \
	"                 [--epochs n] [--features stage] [--features-timeout s]\n" \
	"                 [--hidden d] [--layers L]\n" \
	"                 [--log file] [--lr x] [--mpi-timeout s]\n" \
	"                 [--patience n] [--precision p] [--progress]\n" \
	"                 [--reduce batch|graph] [--resume file] [--steps n]\n" \
	"                 [--tasks list] [--validation n] [file ...]"

static void
usage(FILE *f, const struct train_opts *o)
{
	const struct train_settings *s = &o->s;
	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "  Reads graphs labelled by dcbm-gen (cluster) and centrality, writes the model.\n"
	    "      --allow-features-command  run the feature command of --config's file\n"
	    "                          (a config file runs nothing by itself)\n"
	    "      --batch N           graphs per training step [%lld]\n"
	    "      --bench-steps N     time N steps on one batch, print the timings, write no model\n"
	    "      --checkpoint FILE   write the full training state to FILE after each epoch\n"
	    "      --config FILE       YAML settings (see gcn-train(1)); options override it\n"
	    "      --epochs N          most epochs [%lld]\n"
	    "      --features STAGE    the model's input: paper, rwse or both (built in),\n"
	    "                          stream (the input's 'features' tensors) or a command\n"
	    "                          run on every masked graph [paper, or the input's\n"
	    "                          tensors]\n"
	    "      --features-timeout S  seconds a feature command may take, 0 = no limit\n"
	    "                          [%g]\n"
	    "  -h, --help              this help\n"
	    "      --hidden D          hidden width d [%lld]\n"
	    "  -j, --threads N         threads, OpenMP and BLAS [all cores]\n"
	    "  -l, --level N           gzip level, 0 = plain [%d]\n"
	    "      --layers L          GCN blocks [%lld]\n"
	    "      --log FILE          one TSV line per epoch: losses, validation scores\n"
	    "      --lr X              Adam learning rate [%g]\n"
	    "      --mpi-timeout S     MPI: end the run when a process waits S seconds\n"
	    "                          for the others, 0 = never [%g]\n"
	    "  -o, --output FILE       write the model to FILE instead of stdout\n"
	    "      --patience N        stop after N epochs without a better validation score [%lld]\n"
	    "      --precision P       products in auto, fp32 or bf16 (bf16 operands, fp32\n"
	    "                          accumulation); auto measures which is faster [%s]\n"
	    "      --progress          progress on stderr even when it is not a terminal\n"
	    "  -q, --quiet             no progress\n"
	    "      --reduce MODE       batch: one pass over each step's batch; graph: one\n"
	    "                          pass per graph, the gradients summed exactly, as\n"
	    "                          every run of more than one MPI process does [batch]\n"
	    "      --resume FILE       continue from a --checkpoint file\n"
	    "  -s, --seed N            random seed [%lld]\n"
	    "      --steps N           most training steps, 0 = no limit [%lld]\n"
	    "  -t, --text              write the text form\n"
	    "      --tasks LIST        pre-training tasks: rec,rank,cluster [%s]\n"
	    "      --validation N      validation graphs, taken from the end [124 per 1024]\n"
	    "      --version           print the version\n"
	    "  MPI: %s%s\n",
	    s->batch, s->epochs, o->features_timeout, s->hidden, o->c.level, s->layers, s->lr,
	    o->mpi_timeout, s->patience, s->precision, s->seed, s->steps, s->tasks,
	    dist_library() ? dist_library() : "not built in",
	    dist_library() ? " (mpirun -np N gcn-train ...: gcn-train(1), MPI)" : "");
}

static const struct option longopts[] = {
	COPT_LONGOPTS,
	{ "allow-features-command", no_argument, NULL, OPT_ALLOW_CMD },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "bench-steps", required_argument, NULL, OPT_BENCH },
	{ "checkpoint", required_argument, NULL, OPT_CHECKPOINT },
	{ "config", required_argument, NULL, OPT_CONFIG },
	{ "epochs", required_argument, NULL, OPT_EPOCHS },
	{ "features", required_argument, NULL, OPT_FEATURES },
	{ "features-timeout", required_argument, NULL, OPT_FEATURES_TIMEOUT },
	{ "hidden", required_argument, NULL, OPT_HIDDEN },
	{ "layers", required_argument, NULL, OPT_LAYERS },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "lr", required_argument, NULL, OPT_LR },
	{ "mpi-timeout", required_argument, NULL, OPT_MPI_TIMEOUT },
	{ "patience", required_argument, NULL, OPT_PATIENCE },
	{ "precision", required_argument, NULL, OPT_PRECISION },
	{ "reduce", required_argument, NULL, OPT_REDUCE },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "steps", required_argument, NULL, OPT_STEPS },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "validation", required_argument, NULL, OPT_VALIDATION },
	{ NULL, 0, NULL, 0 }
};

/*
 * The run's outputs (-o or standard output, --checkpoint, --log) are files
 * of their own: none is another output, nor an input (a FILE, --resume,
 * --config) that it would replace; files are compared by identity
 * (outfile_clash()).  The one exception, --checkpoint the file --resume
 * reads, goes on from where the run stopped.  Time complexity: O(number
 * of FILEs).
 */
static void
check_files(const struct train_opts *o, int nfiles, char **files)
{
	const char *opt[3] = { "-o", "--checkpoint", "--log" };
	const char *out[3] = { o->c.output, o->checkpoint, o->log };

	if (!out[0] || strcmp(out[0], "-") == 0) { /* the model to stdout */
		opt[0] = "the model's standard output,";
		out[0] = "/dev/stdout";
	}
	for (int i = 0; i < 3; i++) {
		if (!out[i])
			continue;
		outfile_distinct(i, opt, out, nfiles, files);
		outfile_not_input(opt[i], out[i], "--resume", i != 1 ? o->resume : NULL);
		outfile_not_input(opt[i], out[i], "--config", o->config);
	}
	if (o->resume && o->checkpoint && outfile_same(o->checkpoint, o->resume))
		outfile_may_replace(o->resume); /* read first, then replaced */
}

/*
 * The feature stage a command line or a config names: a bare nodefeat
 * invocation is the built-in set (featcmd_builtin), said on stderr.  A
 * config file is data, like a model: the command it names runs only on the
 * user's word, --features or --allow-features-command (gcn-train(1),
 * SECURITY).
 */
static void
config_command(struct train_opts *o)
{
	struct train_settings *s = &o->s;
	char shown[200];

	snprintf(shown, sizeof shown, "%.160s%s", s->feature_command,
		 strlen(s->feature_command) > 160 ? "..." : "");
	err_one_line(shown);
	if (train_settings_features_builtin(s)) {
		if (!o->c.quiet)
			warnx_("features: '%s' is the built-in set %s: computed built in, "
			       "recorded as features.stage %s",
			       shown, s->feature_stage, s->feature_stage);
	} else if (strcmp(s->feature_stage, "command") == 0 && !o->features_cli && !o->allow_cmd) {
		die("%s: features.command '%s': a config file runs nothing by itself: give "
		    "--features '%s' to run it, or --allow-features-command",
		    o->config, shown, shown);
	}
	if (o->allow_cmd && (o->features_cli || strcmp(s->feature_stage, "command") != 0) &&
	    !o->c.quiet)
		warnx_("--allow-features-command: %s; nothing to allow",
		       o->features_cli ? "--features chooses the stage"
		       : o->config     ? "the config names no command"
				       : "no --config");
}

/* --config: the file's settings over the defaults, and whether it states
 * the feature stage, its width and its columns (checked against what the
 * stage gives). */
static void
load_config(struct train_opts *o)
{
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	size_t nk = train_schema(&o->s, keys);
	char msg[512];

	for (size_t i = 0; i < nk; i++)
		if (strcmp(keys[i].key, "features.stage") == 0)
			keys[i].set = &o->features_given;
		else if (strcmp(keys[i].key, "features.width") == 0)
			keys[i].set = &o->width_given;
		else if (strcmp(keys[i].key, "features.columns") == 0)
			keys[i].set = &o->columns_given;
	if (cfg_load(o->config, keys, nk, msg, sizeof msg) != 0)
		die_usage("%s", msg);
}

/* One option of the second pass (all but the common ones). */
static void
set_option(struct train_opts *o, int ch, char **argv)
{
	switch (ch) {
	case OPT_CONFIG:
		break;
	case OPT_ALLOW_CMD:
		o->allow_cmd = 1;
		break;
	case OPT_BATCH:
		o->s.batch = opt_ll(optarg, 1, 1 << 20, "--batch");
		break;
	case OPT_BENCH:
		o->bench_steps = opt_ll(optarg, 1, 1024, "--bench-steps");
		break;
	case OPT_CHECKPOINT:
		if (!*optarg || strcmp(optarg, "-") == 0)
			die_usage("--checkpoint: expected a file name (the model goes to "
				  "the standard output or -o)");
		o->checkpoint = optarg;
		break;
	case OPT_EPOCHS:
		o->s.epochs = opt_ll(optarg, 1, 1000000000, "--epochs");
		break;
	case OPT_FEATURES:
		if (!*optarg)
			die_usage("--features: expected paper, rwse, both, stream or a command");
		train_settings_features(&o->s, optarg);
		o->features_given = o->features_cli = 1;
		break;
	case OPT_FEATURES_TIMEOUT:
		o->features_timeout = opt_double(optarg, 0, 1e9, "--features-timeout");
		break;
	case OPT_HIDDEN:
		o->s.hidden = opt_ll(optarg, 1, 8192, "--hidden");
		break;
	case OPT_LAYERS:
		o->s.layers = opt_ll(optarg, 1, MODEL_MAXL, "--layers");
		break;
	case OPT_LOG:
		o->log = optarg;
		break;
	case OPT_LR:
		o->s.lr = opt_double(optarg, 0, 10, "--lr");
		break;
	case OPT_MPI_TIMEOUT:
		o->mpi_timeout = opt_double(optarg, 0, 1e9, "--mpi-timeout");
		break;
	case OPT_PATIENCE:
		o->s.patience = opt_ll(optarg, 1, 1000000000, "--patience");
		break;
	case OPT_PRECISION:
		o->precision_opt = 1;
		free(o->s.precision);
		o->s.precision = xstrdup(optarg);
		break;
	case OPT_REDUCE:
		if (strcmp(optarg, "batch") != 0 && strcmp(optarg, "graph") != 0)
			die_usage("--reduce: '%s': expected batch or graph", optarg);
		o->by_graph = strcmp(optarg, "graph") == 0;
		o->reduce_given = 1;
		break;
	case OPT_RESUME:
		o->resume = optarg;
		break;
	case OPT_STEPS:
		o->s.steps = opt_ll(optarg, 0, 1000000000000LL, "--steps");
		break;
	case OPT_TASKS:
		free(o->s.tasks);
		o->s.tasks = xstrdup(optarg);
		break;
	case OPT_VALIDATION:
		o->s.validation = opt_ll(optarg, 0, 1000000000, "--validation");
		break;
	default:
		copt_bad_option(ch, argv, SYNOPSIS);
	}
}

/* Two passes: the first finds --config (and -h), the file is loaded, the
 * second applies every option over it. */
static void
parse(struct train_opts *o, int argc, char **argv)
{
	int ch, help = 0;
	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	train_settings_default(&o->s);
	o->features_timeout = FEATCMD_TIMEOUT;
	o->mpi_timeout = 600;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, longopts, NULL)) != -1)
		if (ch == OPT_CONFIG)
			o->config = optarg;
		else if (ch == 'h')
			help = 1;
	if (help) {
		usage(stdout, o);
		copt_exit_ok();
	}
	if (o->config)
		load_config(o);
	optind = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, longopts, NULL)) != -1) {
		if (copt_handle(&o->c, ch, optarg))
			continue;
		set_option(o, ch, argv);
	}
	if (o->c.seed_set)
		o->s.seed = (long long)(o->c.seed & INT64_MAX);
	/* the seed in use, from -s, the config or the default, is what the
	 * pg record shows */
	o->c.seed = (uint64_t)o->s.seed;
	o->c.seed_set = 1;
	struct objlist ol;
	char msg[256];
	if (train_settings_objectives(&o->s, &ol, msg, sizeof msg) != 0)
		die_usage("%s", msg);
	if (train_settings_features_check(&o->s, msg, sizeof msg) != 0)
		die_usage("%s", msg);
	config_command(o);
	if (gemm_precision_parse(o->s.precision) < 0)
		die_usage("%s: '%.40s': expected auto, fp32 or bf16",
			  o->precision_opt ? "--precision" : "train.precision", o->s.precision);
	check_files(o, argc - optind, argv + optind);
}

/* The precision of the products, chosen with the threads set (auto
 * measures), said on stderr when auto chose; the model's config and the
 * pg record's command line (*pargc, *pargv) get the one chosen. */
static void
apply_precision(struct train_opts *o, int argc, char **argv, int *pargc, char ***pargv)
{
	char why[256];
	int unavailable, asked_auto = strcmp(o->s.precision, "auto") == 0;
	if (asked_auto && dist_rank() != 0) { /* rank 0's choice: train_mpi_share_precision() */
		free(o->s.precision);
		o->s.precision = xstrdup("fp32");
	}
	if (train_settings_precision(&o->s, &unavailable, why, sizeof why) != 0) {
		if (unavailable)
			die("%s %s: %s", o->precision_opt ? "--precision" : "train.precision",
			    o->s.precision, why);
		die_usage("precision: %s", why); /* parse() checked the name */
	}
	/* said once the input is read: a run that fails on its input says
	 * one line, its error */
	if (asked_auto && !o->c.quiet)
		snprintf(o->precision_why, sizeof o->precision_why, "precision auto: %s", why);
	int pgoptind; /* the operands are read from argv, at optind */
	*pargv = opt_argv_with_precision(argc, argv, optind, o->s.precision, pargc, &pgoptind);
}

/* ---- input ---- */

/*
 * The feature stage of the run (gcn-train(1), Features): --features or the
 * config's features.stage; else the input's 'features' tensors where the
 * graphs are pre-masked (they describe what the model sees), the built-in
 * four where the tensors are nodefeat's four computed before masking, the
 * built-in four without tensors.  Everything but that last default is
 * said on stderr.  Sets the settings' width and columns, and fs.
 */
static void
resolve_features(struct train_opts *o, const struct train_data *ds, struct featcmd *fc,
		 struct feat_src *fs)
{
	struct train_settings *s = &o->s;
	struct stage_train t = {
		.stage = s->feature_stage,
		.command = s->feature_command,
		.given = o->features_given,
		.width_given = o->width_given,
		.width = s->nfeat,
		.columns = o->columns_given ? s->feature_columns : NULL,
		.quiet = o->c.quiet,
		.timeout = o->features_timeout,
		.ngraphs = ds->n,
		.nfeat = ds->fseen.n,
		.fpaper = ds->fseen.paper,
		.fcols = ds->fseen.cols,
		.F = ds->n > 0 ? ds->g[0]->F : 0,
		.g0 = ds->n > 0 ? &ds->g[0]->g : NULL,
	};
	char *cols;

	for (int64_t i = 0; i < ds->n; i++)
		t.premasked += ds->g[i]->premasked && ds->g[i]->feat;
	featstage_for_training(fs, fc, &t);
	cols = xstrdup(t.cols);
	if (t.chosen != t.stage) /* the input's: "paper" or "stream" */
		train_settings_features(s, t.chosen);
	free(s->feature_columns);
	s->feature_columns = cols;
	s->nfeat = fs->F;
}

/* The run proper: -o opened before the first step (a bad -o fails now,
 * not after hours), the training, the model written; rank 0 alone writes
 * and speaks, the other ranks wait for its setup. */
static void
run(struct train_opts *o, model *M, struct train_data *ds, const struct batch_opts *bo, int pgargc,
    char **pgargv)
{
	struct trainer t;
	gs_file *out = NULL;

	trainer_init(&t, o, M, ds, bo);
	if (dist_rank() == 0) {
		if (o->resume)
			trainer_resume(&t, o->resume);
		out = gs_open_out(&o->c, pgargc, pgargv);
		if (o->checkpoint) /* its directory, its mode: now, not after an epoch */
			outfile_check(o->checkpoint);
		t.log = train_open_log(o, M);
		if (o->precision_why[0])
			warnx_("%s", o->precision_why);
		trainer_say_start(&t);
	}
	train_mpi_share_precision();
	train_mpi_share_state(&t);
	/* several processes: mpirun ends every rank on a signal, so the ranks
	 * keep its action, with which -o's temporary files are removed
	 * (outfile.h), after rank 0's line on why */
	if (dist_size() == 1) {
		train_catch_signals();
	} else {
		if (o->checkpoint && o->resume && strcmp(o->checkpoint, o->resume) == 0)
			t.ck_epoch = t.st.epoch;
		dist_set_where("before step %lld", t.st.step + 1);
		dist_catch_signals();
	}
	train_epochs(&t, pgargc, pgargv);
	if (dist_rank() == 0) {
		trainer_write_model(out, ds, &t);
		gs_close(out);
		if (t.log && fclose(t.log) != 0)
			die("%s: %s", o->log, strerror(errno));
	}
	trainer_free(&t);
}

int
main(int argc, char **argv)
{
	struct train_opts o;
	struct train_data ds;
	struct featcmd fc;
	struct batch_opts bo;
	struct train_need need;
	model M;
	struct objlist ol;
	char msg[300];
	int pgargc, sig;
	char **pgargv;	/* the command line of the pg records */
	char *settings; /* what every process must share (MPI) */

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	train_mpi_parse(&o, argc, argv, parse);
	settings = train_mpi_settings(&o); /* as given, before any is chosen */
	train_mpi_start(&o, argc - optind, argv + optind);
	copt_apply_threads_blas(&o.c);
	apply_precision(&o, argc, argv, &pgargc, &pgargv);
	train_mpi_pg(&o, &pgargc, &pgargv);
	if (train_settings_objectives(&o.s, &ol, msg, sizeof msg) != 0)
		die_usage("%s", msg); /* (parse() checked it) */
	if (ol.n && o.by_graph)
		die_usage("objective %s: the objectives besides rec, rank and cluster train in one "
			  "process with --reduce batch (not by graph, not under MPI)",
			  ol.o[0].name);
	memset(&ds, 0, sizeof ds);
	memset(&fc, 0, sizeof fc);
	/* a corpus, or a step's batch, that cannot fit is refused at a
	 * graph's header */
	train_need_init(&need, &o.s, o.by_graph);
	train_data_read(&ds, &ol, argc - optind, argv + optind, o.c.quiet, train_need_header,
			&need);
	o.need = train_need_total(&need);
	train_need_free(&need);
	train_data_check(&ds, &ol, o.c.quiet);
	train_settings_set_objectives(&o.s, &ol); /* the widths the data gave */
	train_data_renumber(&ds, o.c.quiet);
	train_settings_batch_opts(&o.s, &bo);
	bo.nobj = ol.n;
	bo.obj = ol.o;
	for (int i = 0; i < ol.n; i++) {
		bo.mu[i] = ds.mu[i];
		bo.sd[i] = ds.sd[i];
	}
	resolve_features(&o, &ds, &fc, &bo.fs);
	train_model_setup(&o, &M, &ds, &bo);
	if (dist_rank() == 0) {
		if (!o.bench_steps)
			train_validation_count(&o, ds.n); /* said once, here */
		dist_stdin_share(); /* rank 0's setup is done: the others do theirs */
	}
	train_mpi_agree(settings, &ds);
	free(settings);
	if (o.bench_steps) {
		if (dist_rank() == 0 && o.precision_why[0])
			warnx_("%s", o.precision_why);
		train_mpi_share_precision();
		train_bench(&o, &M, &ds, &bo);
	} else {
		run(&o, &M, &ds, &bo, pgargc, pgargv);
	}
	train_data_free(&ds);
	featcmd_free(&fc);
	model_free(&M);
	train_settings_free(&o.s);
	free(pgargv);
	gemm_release();
	dist_end();
	if ((sig = train_stop_signal())) {
		/* the model is written; now die of the signal, so that a shell,
		 * make or a job runner knows the run was cut short and does not
		 * take the model for a finished stage */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return 0;
}
