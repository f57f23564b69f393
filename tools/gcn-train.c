/*
 * gcn-train - pre-train the paper's GCN encoder on the three structural
 * tasks (paper section 3, Algorithm 1).  Manual: man/man1/gcn-train.1.
 * The model is common/model.c, its layers common/nn.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "config.h"
#include "dist.h"
#include "dstep.h"
#include "err.h"
#include "featcmd.h"
#include "gemm.h"
#include "model.h"
#include "modelio.h"
#include "settings.h"
#include "opt.h"
#include "outfile.h"
#include "progress.h"
#include "reader.h"
#include "rng.h"
#include "stream.h"

#define VAL_STEP UINT64_MAX		/* masking stream of the validation set */
#define EPOCH_STREAM 0x65706f6368ULL	/* shuffling stream of each epoch */

enum {
	OPT_CONFIG = COPT_FIRST_TOOL, OPT_HIDDEN, OPT_LAYERS, OPT_TASKS,
	OPT_BATCH, OPT_LR, OPT_EPOCHS, OPT_STEPS, OPT_PATIENCE, OPT_VALIDATION,
	OPT_LOG, OPT_CHECKPOINT, OPT_RESUME, OPT_BENCH, OPT_FEATURES, OPT_PRECISION,
	OPT_REDUCE, OPT_ALLOW_CMD, OPT_FEATURES_TIMEOUT, OPT_MPI_TIMEOUT
};

#define SYNOPSIS "gcn-train [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--allow-features-command] [--batch n]\n" \
	"                 [--bench-steps n] [--checkpoint file] [--config file]\n" \
	"                 [--epochs n] [--features stage] [--features-timeout s]\n" \
	"                 [--hidden d] [--layers L]\n" \
	"                 [--log file] [--lr x] [--mpi-timeout s]\n" \
	"                 [--patience n] [--precision p] [--progress]\n" \
	"                 [--reduce batch|graph] [--resume file] [--steps n]\n" \
	"                 [--tasks list] [--validation n] [file ...]"

struct opts {
	struct copt c;
	struct train_settings s;
	const char *config, *log, *checkpoint, *resume;
	long long bench_steps;
	int features_given;	/* --features or features.stage chose the stage */
	int features_cli;	/* --features chose it */
	int allow_cmd;		/* --allow-features-command */
	double features_timeout;	/* --features-timeout */
	int width_given;	/* the config states features.width / .columns */
	int columns_given;
	int precision_opt;	/* --precision given */
	char precision_why[300];	/* what auto chose, for stderr, or "" */
	int by_graph;		/* --reduce graph, or more than one process */
	int reduce_given;	/* --reduce given */
	double mpi_timeout;	/* --mpi-timeout: seconds a process waits for the others */
};


static void
usage(FILE *f, const struct opts *o)
{
	const struct train_settings *s = &o->s;
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Reads graphs labelled by dcbm-gen (cluster) and centrality, writes the model.\n"
		"      --allow-features-command  run the feature command of --config's file\n"
		"                          (a config file runs nothing by itself)\n"
		"      --batch N           graphs per training step [%lld]\n"
		"      --bench-steps N     time N steps on one batch, print the timings, write no model\n"
		"      --checkpoint FILE   write the full training state to FILE after each epoch\n"
		"      --config FILE       YAML settings (see gcn-train(1)); options override it\n"
		"      --epochs N          most epochs [%lld]\n"
		"      --features STAGE    the model's input: paper or rwse (built in), stream (the\n"
		"                          input's 'features' tensors) or a command run on every\n"
		"                          masked graph [paper, or the input's tensors]\n"
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
		o->mpi_timeout,
		s->patience, s->precision, s->seed, s->steps, s->tasks,
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
check_files(const struct opts *o, int nfiles, char **files)
{
	const char *opt[3] = { "-o", "--checkpoint", "--log" };
	const char *out[3] = { o->c.output, o->checkpoint, o->log };

	if (!out[0] || strcmp(out[0], "-") == 0) {	/* the model to stdout */
		opt[0] = "the model's standard output,";
		out[0] = "/dev/stdout";
	}
	for (int i = 0; i < 3; i++) {
		if (!out[i])
			continue;
		for (int j = 0; j < i; j++)
			if (out[j] && outfile_clash(out[i], out[j]))
				die_usage("%s %s: the same file as %s %s: give each output a "
					  "file of its own", opt[i], out[i], opt[j], out[j]);
		for (int k = 0; k < nfiles; k++)
			if (strcmp(files[k], "-") != 0 && outfile_clash(out[i], files[k]))
				die_usage("%s %s: the same file as the input %s, which it would "
					  "replace", opt[i], out[i], files[k]);
		if (o->resume && i != 1 && outfile_clash(out[i], o->resume))
			die_usage("%s %s: the same file as --resume %s, which it would "
				  "replace", opt[i], out[i], o->resume);
		if (o->config && outfile_clash(out[i], o->config))
			die_usage("%s %s: the same file as --config %s, which it would "
				  "replace", opt[i], out[i], o->config);
	}
}

/*
 * The feature stage a command line or a config names: a bare nodefeat
 * invocation is the built-in set (featcmd_builtin), said on stderr.  A
 * config file is data, like a model: the command it names runs only on the
 * user's word, --features or --allow-features-command (gcn-train(1),
 * SECURITY).
 */
static void
config_command(struct opts *o)
{
	struct train_settings *s = &o->s;
	char shown[200];

	snprintf(shown, sizeof shown, "%.160s%s", s->feature_command,
		 strlen(s->feature_command) > 160 ? "..." : "");
	err_one_line(shown);
	if (train_settings_features_builtin(s)) {
		if (!o->c.quiet)
			warnx_("features: '%s' is the built-in set %s: computed built in, "
			       "recorded as features.stage %s", shown, s->feature_stage,
			       s->feature_stage);
	} else if (strcmp(s->feature_stage, "command") == 0 && !o->features_cli &&
		   !o->allow_cmd) {
		die("%s: features.command '%s': a config file runs nothing by itself: give "
		    "--features '%s' to run it, or --allow-features-command", o->config, shown,
		    shown);
	}
	if (o->allow_cmd && (o->features_cli || strcmp(s->feature_stage, "command") != 0) &&
	    !o->c.quiet)
		warnx_("--allow-features-command: %s; nothing to allow", o->features_cli
		       ? "--features chooses the stage" : o->config ? "the config names no command"
		       : "no --config");
}

/* Two passes: the first finds --config (and -h), the file is loaded, the
 * second applies every option over it. */
static void
parse(struct opts *o, int argc, char **argv)
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
	if (o->config) {
		struct cfg_key keys[TRAIN_SCHEMA_MAX];
		size_t nk = train_schema(&o->s, keys);
		char msg[512];
		/* the feature stage a config states, and the width and columns
		 * it expects (checked against what the stage gives) */
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
	optind = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, longopts, NULL)) != -1) {
		if (copt_handle(&o->c, ch, optarg))
			continue;
		switch (ch) {
		case OPT_CONFIG: break;
		case OPT_ALLOW_CMD: o->allow_cmd = 1; break;
		case OPT_BATCH: o->s.batch = opt_ll(optarg, 1, 1 << 20, "--batch"); break;
		case OPT_BENCH: o->bench_steps = opt_ll(optarg, 1, 1024, "--bench-steps"); break;
		case OPT_CHECKPOINT:
			if (!*optarg || strcmp(optarg, "-") == 0)
				die_usage("--checkpoint: expected a file name (the model goes to "
					  "the standard output or -o)");
			o->checkpoint = optarg;
			break;
		case OPT_EPOCHS: o->s.epochs = opt_ll(optarg, 1, 1000000000, "--epochs"); break;
		case OPT_FEATURES:
			if (!*optarg)
				die_usage("--features: expected paper, rwse, stream or a command");
			train_settings_features(&o->s, optarg);
			o->features_given = o->features_cli = 1;
			break;
		case OPT_FEATURES_TIMEOUT:
			o->features_timeout = opt_double(optarg, 0, 1e9, "--features-timeout");
			break;
		case OPT_HIDDEN: o->s.hidden = opt_ll(optarg, 1, 8192, "--hidden"); break;
		case OPT_LAYERS: o->s.layers = opt_ll(optarg, 1, MODEL_MAXL, "--layers"); break;
		case OPT_LOG: o->log = optarg; break;
		case OPT_LR: o->s.lr = opt_double(optarg, 0, 10, "--lr"); break;
		case OPT_MPI_TIMEOUT:
			o->mpi_timeout = opt_double(optarg, 0, 1e9, "--mpi-timeout");
			break;
		case OPT_PATIENCE: o->s.patience = opt_ll(optarg, 1, 1000000000, "--patience"); break;
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
		case OPT_RESUME: o->resume = optarg; break;
		case OPT_STEPS: o->s.steps = opt_ll(optarg, 0, 1000000000000LL, "--steps"); break;
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
	if (o->c.seed_set)
		o->s.seed = (long long)(o->c.seed & INT64_MAX);
	/* the seed in use, from -s, the config or the default, is what the
	 * pg record shows */
	o->c.seed = (uint64_t)o->s.seed;
	o->c.seed_set = 1;
	int mask;
	char msg[256];
	if (tasks_parse(o->s.tasks, &mask) != 0)
		die_usage("tasks: '%s': expected a list of rec, rank, cluster", o->s.tasks);
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
apply_precision(struct opts *o, int argc, char **argv, int *pargc, char ***pargv)
{
	char why[256];
	int unavailable, asked_auto = strcmp(o->s.precision, "auto") == 0;
	if (asked_auto && dist_rank() != 0) {	/* rank 0's choice: share_precision() */
		free(o->s.precision);
		o->s.precision = xstrdup("fp32");
	}
	if (train_settings_precision(&o->s, &unavailable, why, sizeof why) != 0) {
		if (unavailable)
			die("%s %s: %s", o->precision_opt ? "--precision" : "train.precision",
			    o->s.precision, why);
		die_usage("precision: %s", why);	/* parse() checked the name */
	}
	/* said once the input is read: a run that fails on its input says
	 * one line, its error */
	if (asked_auto && !o->c.quiet)
		snprintf(o->precision_why, sizeof o->precision_why, "precision auto: %s", why);
	int pgoptind;	/* the operands are read from argv, at optind */
	*pargv = argv_with_precision(argc, argv, optind, o->s.precision, pargc, &pgoptind);
}

/* ---- input ---- */

struct dataset {
	struct lgraph **g;
	int64_t n, cap;
	struct gs_reader rd;	/* the inputs; their provenance records */
	/* the input's 'features' tensors: how many graphs have one, their
	 * columns (the same for all), whether all are nodefeat's four */
	int64_t nfeat;
	char *fcols;
	int fpaper;
};

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Attach a tensor or pairs record to the graph it follows. */
static void
attach(gs_file *in, struct dataset *ds, struct lgraph *lg, const gs_rec *r)
{
	int32_t n = lg->g.n;
	char msg[256];
	if (r->kind == GS_TENSOR && strcmp(r->name, "features") == 0) {
		const char *cols = r->columns ? r->columns : "";
		if (lg->feat)
			die("%s: graph %" PRId64 " has a second 'features' tensor", gs_where(in), lg->id);
		if (feat_take(r, n, &lg->feat, &lg->F, msg, sizeof msg) != 0)
			die("%s: %s", gs_where(in), msg);
		if (ds->nfeat == 0) {
			ds->fcols = xstrdup(cols);
			ds->fpaper = feat_is_paper(r);
		} else if (strcmp(cols, ds->fcols) != 0 || feat_is_paper(r) != ds->fpaper) {
			die("%s: graph %" PRId64 ": 'features' columns '%.80s' (or scaling) differ "
			    "from earlier graphs' '%.80s'", gs_where(in), lg->id, cols, ds->fcols);
		}
		ds->nfeat++;
	} else if (r->kind == GS_TENSOR && strcmp(r->name, "cluster") == 0) {
		if (r->rows != n || r->cols < 1 || r->dtype != GS_I32)
			die("%s: 'cluster' tensor is not %" PRId32 " x 1 int32", gs_where(in), n);
		free(lg->cluster);
		lg->cluster = xmallocarray((size_t)n + 1, sizeof *lg->cluster);
		lg->K = 0;
		for (int32_t v = 0; v < n; v++) {
			int32_t c = ((const int32_t *)r->data)[(int64_t)v * r->cols];
			if (c < 0 || c >= n)
				die("%s: node %" PRId32 ": cluster %" PRId32 " out of range 0..%" PRId32,
				    gs_where(in), v, c, n - 1);
			lg->cluster[v] = c;
			if (c + 1 > lg->K)
				lg->K = c + 1;
		}
	} else if (r->kind == GS_TENSOR && strcmp(r->name, "centrality") == 0) {
		int col[MODEL_NCENT];
		if (r->rows != n || r->dtype != GS_F64)
			die("%s: 'centrality' tensor is not %" PRId32 " rows of float64", gs_where(in), n);
		for (int t = 0; t < MODEL_NCENT; t++) {
			col[t] = gs_tensor_col(r, model_cent_cols[t]);
			if (col[t] < 0 && t == MODEL_NCENT - 1)
				col[t] = gs_tensor_col(r, "subgraph");
			if (col[t] < 0)
				die("%s: 'centrality' tensor has no column '%s'", gs_where(in), model_cent_cols[t]);
		}
		free(lg->cent);
		lg->cent = xmallocarray((size_t)n * MODEL_NCENT + 1, sizeof *lg->cent);
		for (int32_t v = 0; v < n; v++)
			for (int t = 0; t < MODEL_NCENT; t++) {
				double x = ((const double *)r->data)[(int64_t)v * r->cols + col[t]];
				if (isnan(x))
					die("%s: node %" PRId32 ": %s is NaN", gs_where(in), v, model_cent_cols[t]);
				lg->cent[(int64_t)v * MODEL_NCENT + t] = x;
			}
	} else if (r->kind == GS_PAIRS && strcmp(r->name, "mask") == 0) {
		if (r->ltype != GS_I32)
			die("%s: 'mask' pairs have no 0/1 labels", gs_where(in));
		lg->premasked = 1;
		lg->npairs = r->m;
		lg->pu = xreallocarray(lg->pu, (size_t)r->m + 1, sizeof *lg->pu);
		lg->pv = xreallocarray(lg->pv, (size_t)r->m + 1, sizeof *lg->pv);
		lg->plab = xreallocarray(lg->plab, (size_t)r->m + 1, 1);
		for (int64_t i = 0; i < r->m; i++) {
			int32_t l = ((const int32_t *)r->lab)[i];
			if (r->u[i] < 0 || r->u[i] >= n || r->v[i] < 0 || r->v[i] >= n ||
			    r->u[i] == r->v[i] || (l != 0 && l != 1))
				die("%s: pair %" PRId64 ": bad node or label", gs_where(in), i);
			lg->pu[i] = r->u[i];
			lg->pv[i] = r->v[i];
			lg->plab[i] = (uint8_t)l;
		}
	}
	/* other records (features_raw, ...) are not needed */
}

static void
dataset_free(struct dataset *ds)
{
	for (int64_t i = 0; i < ds->n; i++)
		lgraph_free(ds->g[i]);
	free(ds->g);
	free(ds->fcols);
	gs_reader_free(&ds->rd);
}

/* Every graph of the inputs with the records that follow it. */
static void
read_inputs(struct dataset *ds, int nfiles, char **files, int quiet)
{
	struct lgraph *cur = NULL;
	gs_rec r;
	int k;

	gs_rec_init(&r);
	gs_reader_init(&ds->rd, nfiles, files);
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (ds->rd.file_changed)
			cur = NULL;	/* records follow a graph of their own input */
		if (k == GS_GRAPH) {
			struct lgraph *lg = lgraph_new(r.id);
			if (gs_graph_build(in, &r, &lg->g, quiet) != 0)
				die("%s", gs_strerror(in));
			if (ds->n == ds->cap) {
				ds->cap = ds->cap ? 2 * ds->cap : 64;
				ds->g = xreallocarray(ds->g, (size_t)ds->cap, sizeof *ds->g);
			}
			ds->g[ds->n++] = cur = lg;
			continue;
		}
		if (k == GS_MODEL)
			die("%s: a model record is not training data", gs_where(in));
		if (!cur || r.id != cur->id)
			die("%s: %s record for graph %" PRId64 " does not follow its graph",
			    gs_where(in), gs_kind_name(k), r.id);
		attach(in, ds, cur, &r);
	}
	gs_rec_free(&r);
}

static void
check_dataset(const struct dataset *ds, int tasks)
{
	if (ds->n == 0)
		die("no graphs in the input");
	for (int64_t i = 0; i < ds->n; i++) {
		struct lgraph *lg = ds->g[i];
		if ((tasks & 1 << TASK_CLUSTER) && !lg->cluster)
			die("graph %" PRId64 ": no 'cluster' tensor (graphs from dcbm-gen have one); "
			    "or leave out the cluster task with --tasks", lg->id);
		if ((tasks & 1 << TASK_RANK) && !lg->cent)
			die("graph %" PRId64 ": no 'centrality' tensor (run centrality first); "
			    "or leave out the rank task with --tasks", lg->id);
		/* tasks that are off still get harmless placeholders */
		if (!lg->cluster) {
			lg->cluster = xcalloc((size_t)lg->g.n + 1, sizeof *lg->cluster);
			lg->K = 1;
		}
		if (!lg->cent)
			lg->cent = xcalloc((size_t)lg->g.n * MODEL_NCENT + 1, sizeof *lg->cent);
		if (lg->g.n == 0)
			die("graph %" PRId64 ": no nodes", lg->id);
	}
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/*
 * Graphs that share an id (cat of edge lists, or of streams each numbered
 * from 0) would draw alike masks, which are seeded by (seed, step, graph
 * id): when an id repeats, every graph takes its position in the input as
 * its id instead, said once.  Records were paired with their graph by
 * position as they were read, so nothing else changes; inputs whose ids
 * all differ keep them, and their masks.  O(G log G).
 */
static void
renumber_repeated_ids(struct dataset *ds, int quiet)
{
	int64_t *ids = xmallocarray((size_t)ds->n + 1, sizeof *ids), distinct = 0;

	for (int64_t i = 0; i < ds->n; i++)
		ids[i] = ds->g[i]->id;
	qsort(ids, (size_t)ds->n, sizeof *ids, cmp_i64);
	for (int64_t i = 0; i < ds->n; i++)
		distinct += i == 0 || ids[i] != ids[i - 1];
	free(ids);
	if (distinct == ds->n)
		return;
	for (int64_t i = 0; i < ds->n; i++)
		ds->g[i]->id = i;
	if (!quiet)
		warnx_("%" PRId64 " graphs carry %" PRId64 " distinct ids (cat of edge lists or "
		       "of streams numbered from 0?), and masks are drawn by graph id: the "
		       "graphs are numbered 0..%" PRId64 " in input order instead",
		       ds->n, distinct, ds->n - 1);
}

/*
 * The feature stage of the run (gcn-train(1), Features): --features or the
 * config's features.stage; else the input's 'features' tensors where the
 * graphs are pre-masked (they describe what the model sees), the built-in
 * four where the tensors are nodefeat's four computed before masking, the
 * built-in four without tensors.  Everything but that last default is
 * said on stderr.  Sets the settings' width and columns, and fs.
 */
static void
resolve_features(struct opts *o, const struct dataset *ds, struct featcmd *fc,
		 struct feat_src *fs)
{
	struct train_settings *s = &o->s;
	int64_t pre = 0, n = ds->n;
	char msg[512], *want_cols = o->columns_given ? xstrdup(s->feature_columns) : NULL;
	long long want_width = s->nfeat;

	for (int64_t i = 0; i < n; i++)
		pre += ds->g[i]->premasked && ds->g[i]->feat;
	feat_src_default(fs);
	if (ds->nfeat > 0 && ds->nfeat < n)
		die("%" PRId64 " of %" PRId64 " graphs have a 'features' tensor: give all "
		    "or none", ds->nfeat, n);
	if (!o->features_given && ds->nfeat > 0) {
		if (ds->fpaper) {
			/* nodefeat's four: the built-in stage computes the same, and
			 * a model of stage paper needs nothing from its users */
			train_settings_features(s, "paper");
			if (!o->c.quiet && pre < n)
				warnx_("features: the input's 'features' are nodefeat's four of the "
				       "unmasked graphs; computing them on each masked graph instead "
				       "(--features paper)");
		} else if (pre == n) {
			train_settings_features(s, "stream");
		} else {
			die("the input's 'features' tensors (columns '%.80s') describe the graphs "
			    "before masking, and %" PRId64 " of them are masked afresh every step: "
			    "give --features 'COMMAND' (the stage that made them) to compute them "
			    "on each masked graph, or pre-mask the graphs (mask-edges)",
			    ds->fcols, n - pre);
		}
	}
	if (strcmp(s->feature_stage, "stream") == 0) {
		if (ds->nfeat == 0)
			die("--features stream: the input has no 'features' tensors");
		if (pre < n)
			die("--features stream: %" PRId64 " graphs are masked afresh every step, "
			    "so their 'features' describe another graph; pre-mask them "
			    "(mask-edges) or give --features 'COMMAND'", n - pre);
		fs->kind = FEAT_SRC_GIVEN;
		fs->F = ds->g[0]->F;
		free(s->feature_columns);
		s->feature_columns = xstrdup(ds->fcols);
		if (!o->c.quiet)
			warnx_("features: the input's 'features' tensors (%d columns: %.80s); the "
			       "graphs are pre-masked, so they describe what the model sees",
			       fs->F, ds->fcols);
	} else if (strcmp(s->feature_stage, "command") == 0) {
		const graph *g0 = &ds->g[0]->g;
		featcmd_init(fc, s->feature_command, o->c.quiet, o->features_timeout);
		if (featcmd_source(fc, fs, g0, msg, sizeof msg))
			die("%s", msg);
		free(s->feature_columns);
		s->feature_columns = xstrdup(fc->columns);
		if (!o->c.quiet)
			warnx_("features: '%s' on every graph the model sees (%d columns: %.80s)%s",
			       fc->shown, fc->F, fc->columns, ds->nfeat ? "; the input's "
			       "'features' tensors are not used" : "");
	} else {
		char cols[6 * RWSE_STEPS_MAX];
		feat_src_builtin(fs, s->feature_stage);	/* checked by parse() */
		feat_src_columns(fs, cols, sizeof cols);
		free(s->feature_columns);
		s->feature_columns = xstrdup(cols);
		if (ds->nfeat > 0 && o->features_given && !o->c.quiet)
			warnx_("features: the built-in set %s (--features %s); the input's "
			       "'features' tensors are not used", s->feature_stage, s->feature_stage);
	}
	/* what the config expects of the stage, checked */
	if (o->width_given && want_width != fs->F)
		die_usage("features.width: the config says %lld, the stage gives %d",
			  want_width, fs->F);
	if (want_cols && strcmp(want_cols, s->feature_columns) != 0)
		die_usage("features.columns: the config says '%.80s', the stage gives '%.80s'",
			  want_cols, s->feature_columns);
	free(want_cols);
	s->nfeat = fs->F;
}

/*
 * Say once how the training graphs are masked when any carries a 'mask'
 * pair set (mask-edges | nodefeat | gcn-train): those are trained on that
 * one mask at every step, where Algorithm 1 masks afresh each step.
 */
static void
say_masking(struct lgraph **train, int64_t nt, int quiet)
{
	int64_t pre = 0;

	for (int64_t i = 0; i < nt; i++)
		pre += train[i]->premasked;
	if (pre == 0 || quiet)
		return;
	warnx_("%" PRId64 " of %" PRId64 " training graphs are pre-masked (a 'mask' pair set, "
	       "from mask-edges): each is trained on that one mask at every step, not "
	       "masked afresh as in Algorithm 1; give unmasked graphs to re-mask "
	       "(gcn-train(1), Masking)", pre, nt);
}

/* ---- validation ---- */

struct pairscore {
	real z;
	int y;
};

static int
cmp_ps(const void *a, const void *b)
{
	real x = ((const struct pairscore *)a)->z, y = ((const struct pairscore *)b)->z;
	return (x > y) - (x < y);
}

/* Area under the ROC curve, ties counted half (Mann-Whitney). */
static double
auc(struct pairscore *ps, int64_t n)
{
	double rs = 0;
	int64_t np = 0;
	qsort(ps, (size_t)n, sizeof *ps, cmp_ps);
	for (int64_t i = 0; i < n;) {
		int64_t j = i;
		while (j < n && ps[j].z == ps[i].z)
			j++;
		double r = (double)(i + j + 1) / 2;	/* mean 1-based rank */
		for (int64_t k = i; k < j; k++)
			if (ps[k].y) {
				rs += r;
				np++;
			}
		i = j;
	}
	int64_t nn = n - np;
	if (np == 0 || nn == 0)
		return 0.5;
	return (rs - (double)np * (double)(np + 1) / 2) / ((double)np * (double)nn);
}

/* What validation adds up: the pair logits, the ranking and cluster
 * counts, each batch's losses. */
struct vtally {
	struct pairscore *ps;
	int64_t nps, cps, rq[MODEL_NCENT], cq, ccorr;
	double rok[MODEL_NCENT], lsum[NTASK];
	int nb;
};

/* Add one pair's logit z and label y. */
static void
tally_pair(struct vtally *v, real z, int y)
{
	if (v->nps == v->cps) {
		v->cps = v->cps ? 2 * v->cps : 1024;
		v->ps = xreallocarray(v->ps, (size_t)v->cps, sizeof *v->ps);
	}
	v->ps[v->nps].z = z;
	v->ps[v->nps++].y = y;
}

/* Add the ranking pairs of b, scored in o: rok counts sign agreements
 * (a zero score difference counts half) and rq the pairs that are not
 * ties, for each centrality. */
static void
tally_rank(double *rok, int64_t *rq, const batch *b, const struct mout *o)
{
	for (int64_t i = 0; i < b->P; i++)
		for (int t = 0; t < MODEL_NCENT; t++) {
			real tg = b->R[i * MODEL_NCENT + t];
			if (tg == (real)0.5)
				continue;
			real dz = o->rank_S[(int64_t)b->ru[i] * MODEL_NCENT + t] -
			    o->rank_S[(int64_t)b->rv[i] * MODEL_NCENT + t];
			rok[t] += dz == 0 ? 0.5 : (dz > 0) == (tg > 0.5);
			rq[t]++;
		}
}

/* The scores of the tally; frees its logits. */
static void
tally_scores(struct vtally *v, int tasks, struct val_scores *sc)
{
	int nt = 0;

	memset(sc, 0, sizeof *sc);
	for (int t = 0; t < NTASK; t++)
		sc->loss[t] = v->nb ? v->lsum[t] / v->nb : 0;
	if (tasks & 1 << TASK_REC) {
		sc->auc = auc(v->ps, v->nps);
		sc->score += sc->auc;
		nt++;
	}
	if (tasks & 1 << TASK_RANK) {
		for (int t = 0; t < MODEL_NCENT; t++) {
			sc->rank[t] = v->rq[t] ? v->rok[t] / (double)v->rq[t] : 0.5;
			sc->rank_mean += sc->rank[t] / MODEL_NCENT;
		}
		sc->score += sc->rank_mean;
		nt++;
	}
	if (tasks & 1 << TASK_CLUSTER) {
		sc->cluster = v->cq ? (double)v->ccorr / (double)v->cq : 0;
		sc->score += sc->cluster;
		nt++;
	}
	sc->score /= nt;
	free(v->ps);
	v->ps = NULL;
}

/* Set by the SIGINT and SIGTERM handler (---- signals ----). */
static volatile sig_atomic_t stop_signal;

/*
 * Score the model on the validation graphs vg[0..nv-1], in batches of B,
 * each graph masked once from the stream (seed, VAL_STEP, graph id).
 * Returns 0, or -1 when a signal cut a feature command short (sc not set).
 */
static int
validate(model *M, struct lgraph **vg, int64_t nv, int B, uint64_t seed,
	 const struct batch_opts *bo, batch *b, mws *w, struct val_scores *sc)
{
	int tasks = M->cfg.tasks;
	struct vtally v;
	char msg[256];

	memset(&v, 0, sizeof v);
	for (int64_t i0 = 0; i0 < nv; i0 += B, v.nb++) {
		int G = (int)(nv - i0 < B ? nv - i0 : B);
		struct mout o;
		if (batch_build(b, vg + i0, G, seed, VAL_STEP, bo, msg, sizeof msg) != 0) {
			if (stop_signal) {
				free(v.ps);
				return -1;
			}
			die("validation: %s", msg);
		}
		model_step(M, b, w, 0, &o);
		for (int t = 0; t < NTASK; t++)
			v.lsum[t] += o.loss[t];
		if (tasks & 1 << TASK_REC)
			for (int64_t i = 0; i < b->P; i++)
				tally_pair(&v, o.rec_logit[i], b->y[i] > 0);
		if (tasks & 1 << TASK_RANK)
			tally_rank(v.rok, v.rq, b, &o);
		if (tasks & 1 << TASK_CLUSTER) {
			v.ccorr += o.clu_correct;
			v.cq += b->Q;
		}
	}
	tally_scores(&v, tasks, sc);
	return 0;
}

/* A validation graph's numbers in validate_by_graph(): its losses (the
 * means over its own items), pairs, queries, ranking counts, right
 * cluster answers. */
enum { VG_LOSS = 0, VG_P = NTASK, VG_Q, VG_ROK, VG_RQ = VG_ROK + MODEL_NCENT,
	VG_CC = VG_RQ + MODEL_NCENT, VG_N };

/*
 * The same scores by graph (the runs that sum by graph, collective): each
 * rank scores its share of the validation graphs (dstep_split), one
 * graph's forward pass at a time; every graph's numbers and pair logits
 * are gathered and added up in graph order, so the scores do not depend
 * on the number of processes.  A batch's loss is the mean over its items
 * of its graphs' losses, as validate()'s.  b and one are scratch batches
 * (the share's, one graph's).  sc is rank 0's.
 */
static int
validate_by_graph(model *M, struct lgraph **vg, int nv, int B, uint64_t seed,
		  const struct batch_opts *bo, batch *b, batch *one, mws *w,
		  struct val_scores *sc)
{
	int tasks = M->cfg.tasks, me = dist_rank(), n = 0, rc = 0;
	int *rank_of = xmallocarray((size_t)nv, sizeof *rank_of),
	    *idx = xmallocarray((size_t)nv, sizeof *idx);
	struct lgraph **mine = xmallocarray((size_t)nv, sizeof *mine);
	double *gr = xcalloc((size_t)nv * VG_N, sizeof *gr), *z = NULL, *y = NULL;
	float *lz = NULL, *ly = NULL;	/* this rank's logits and labels, its graphs in order */
	int64_t nlz = 0, *at = xcalloc((size_t)nv + 1, sizeof *at);
	struct vtally v;
	char msg[256];
	int bad = 0;

	dstep_split(vg, nv, rank_of);
	for (int i = 0; i < nv; i++)
		if (rank_of[i] == me) {
			idx[n] = i;
			mine[n++] = vg[i];
		}
	for (int c0 = 0; c0 < n; c0 += B) {
		int G = n - c0 < B ? n - c0 : B;
		if ((bad = batch_build(b, mine + c0, G, seed, VAL_STEP, bo, msg, sizeof msg) != 0)) {
			if (stop_signal && dist_size() == 1) {	/* several: no handler */
				rc = -1;
				goto out;
			}
			break;
		}
		lz = xreallocarray(lz, (size_t)(nlz + b->P + 1), sizeof *lz);
		ly = xreallocarray(ly, (size_t)(nlz + b->P + 1), sizeof *ly);
		for (int j = 0; j < G; j++) {
			double *r = gr + (int64_t)idx[c0 + j] * VG_N;
			int64_t rq[MODEL_NCENT] = { 0 };
			struct mout o;
			batch_graph(one, b, j);
			model_step_part(M, one, w, 0, &o, NULL);
			for (int k = 0; k < NTASK; k++)
				r[VG_LOSS + k] = o.loss[k];
			r[VG_P] = (double)one->P;
			r[VG_Q] = (double)one->Q;
			if (tasks & 1 << TASK_REC)
				for (int64_t i = 0; i < one->P; i++) {
					lz[nlz] = o.rec_logit[i];
					ly[nlz++] = one->y[i] > 0;
				}
			if (tasks & 1 << TASK_RANK) {
				tally_rank(r + VG_ROK, rq, one, &o);
				for (int k = 0; k < MODEL_NCENT; k++)
					r[VG_RQ + k] = (double)rq[k];
			}
			r[VG_CC] = (double)o.clu_correct;
		}
	}
	char m[300] = "";
	if (bad)
		snprintf(m, sizeof m, "validation: %s", msg);
	dist_fail_if_any(bad, m);	/* one line from the rank that failed */
	dist_gather_f64(gr, nv * VG_N);	/* integers and one value each: exact */
	/* the logits of every graph, in graph order */
	for (int i = 0; i < nv; i++)
		at[i + 1] = at[i] + (tasks & 1 << TASK_REC ? (int64_t)gr[(int64_t)i * VG_N + VG_P] : 0);
	z = xcalloc((size_t)at[nv] + 1, sizeof *z);
	y = xcalloc((size_t)at[nv] + 1, sizeof *y);
	nlz = 0;
	for (int j = 0; j < n; j++)
		for (int64_t k = at[idx[j]]; k < at[idx[j] + 1]; k++) {
			z[k] = lz[nlz];
			y[k] = ly[nlz++];
		}
	dist_gather_f64(z, (int)at[nv]);
	dist_gather_f64(y, (int)at[nv]);
	if (me == 0) {
		memset(&v, 0, sizeof v);
		for (int i0 = 0; i0 < nv; i0 += B, v.nb++)
			for (int k = 0; k < NTASK; k++) {
				double num = 0, den = 0;
				for (int i = i0; i < nv && i < i0 + B; i++) {
					const double *r = gr + (int64_t)i * VG_N;
					double cnt = r[k == TASK_CLUSTER ? VG_Q : VG_P];
					num += r[VG_LOSS + k] * cnt;
					den += cnt;
				}
				v.lsum[k] += den > 0 ? num / den : 0;
			}
		for (int64_t k = 0; k < at[nv]; k++)
			tally_pair(&v, (real)z[k], y[k] > 0);
		for (int i = 0; i < nv; i++) {
			const double *r = gr + (int64_t)i * VG_N;
			for (int k = 0; k < MODEL_NCENT; k++) {
				v.rok[k] += r[VG_ROK + k];
				v.rq[k] += (int64_t)r[VG_RQ + k];
			}
			v.ccorr += (int64_t)r[VG_CC];
			v.cq += (int64_t)r[VG_Q];
		}
		tally_scores(&v, tasks, sc);
	}
out:
	free(rank_of);
	free(idx);
	free(mine);
	free(gr);
	free(z);
	free(y);
	free(lz);
	free(ly);
	free(at);
	return rc;
}

/* ---- signals ---- */

static void
on_signal(int sig)
{
	stop_signal = sig;
}

static void
catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* ---- training ---- */

static double
peak_rss_mib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

/* CPU seconds of this process so far, all threads, user and system. */
static double
cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	    (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* x summed over the ranks. */
static double
sum_ranks(double x)
{
	int R = dist_size();
	double *v = xcalloc((size_t)R, sizeof *v), s = 0;
	v[dist_rank()] = x;
	dist_gather_f64(v, R);
	for (int r = 0; r < R; r++)
		s += v[r];
	free(v);
	return s;
}

/* The median of x[0..n-1] (sorted in place). */
static double
median(double *x, long long n)
{
	for (long long i = 1; i < n; i++)
		for (long long j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j];
			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The timings of a data-parallel step, the slowest rank's, and of the
 * allreduce alone (after the ranks met): one row per value, from rank 0. */
enum { BD_WALL, BD_BUILD, BD_PASS, BD_ADD, BD_WAIT, BD_REDUCE, BD_N };

static void
bench_dstep(struct dstep *d, double *row)
{
	row[BD_BUILD] = dist_max_f64(d->t_build);
	row[BD_PASS] = dist_max_f64(d->t_pass);
	row[BD_ADD] = dist_max_f64(d->t_add);
	row[BD_WAIT] = dist_max_f64(d->t_reduce);	/* the allreduce, with waiting */
	dist_max_f64(0);				/* the ranks meet */
	double t0 = now();
	xsum_allreduce(&d->acc);
	row[BD_REDUCE] = dist_max_f64(now() - t0);
}

/* --bench-steps: time steps on the first batch, fresh masks each step. */
static void
bench(const struct opts *o, model *M, const struct dataset *ds, const struct batch_opts *bo)
{
	batch b;
	mws *w = mws_new();
	int G = (int)(ds->n < o->s.batch ? ds->n : o->s.batch);
	char msg[256];
	double tprep = 0, tstep[1024] = { 0 }, twall[1024] = { 0 }, tcpu[1024] = { 0 },
	    bd[BD_N][1024];
	long long n = o->bench_steps < 1024 ? o->bench_steps : 1024;
	int64_t nodes = 0, edges = 0, P = 0, Q = 0, ncl = 0;
	struct dstep d;

	batch_init(&b);
	if (o->by_graph)
		dstep_init(&d, M->n, G);
	for (int i = 0; i < G; i++) {
		nodes += ds->g[i]->g.n;
		edges += ds->g[i]->g.m;
	}
	for (long long s = 0; s < n; s++) {
		struct mout out;
		double t0 = now(), t1, loss = 0, c0 = cpu_s();
		if (o->by_graph) {
			double l[NTASK];
			dstep_run(&d, M, ds->g, (uint64_t)o->s.seed, (uint64_t)s, bo, &b, w, 0, l, msg,
				  sizeof msg);
			for (int k = 0; k < NTASK; k++)
				loss += l[k];
			P = d.P;
			Q = d.Q;
			ncl = d.ncl;
			t1 = t0 + d.t_build;
		} else {
			if (batch_build(&b, ds->g, G, (uint64_t)o->s.seed, (uint64_t)s, bo, msg,
					sizeof msg))
				die("%s", msg);
			t1 = now();
			model_zero_grad(M);
			loss = model_step(M, &b, w, 1, &out);
			P = b.P;
			Q = b.Q;
			ncl = b.ncl;
		}
		model_adam(M, o->s.lr);
		double t2 = now();
		tprep += t1 - t0;
		tstep[s] = t2 - t1;
		twall[s] = t2 - t0;
		tcpu[s] = sum_ranks(cpu_s() - c0);
		if (o->by_graph) {
			double row[BD_N];
			bench_dstep(&d, row);
			row[BD_WALL] = dist_max_f64(twall[s]);
			for (int k = 0; k < BD_N; k++)
				bd[k][s] = row[k];
		}
		if (!o->c.quiet)
			fprintf(stderr, "%s: bench step %lld: %.3f s, loss %.4f\n", err_prog(),
				s + 1, tstep[s], loss);
	}
	/* median step time, the first (warm-up: page faults, BLAS buffers)
	 * left out when there are more */
	double first = tstep[0];
	long long total = n, skip = n > 1;
	n -= skip;
	double med = median(tstep + skip, n), wall = median(twall + skip, n), fwd = 0,
	    cpu = median(tcpu + skip, n);
	if (dist_rank() != 0)
		goto out;
	if (!o->by_graph) {	/* the forward pass alone, as validation runs it */
		struct mout out;
		double t0 = now();
		model_step(M, &b, w, 0, &out);
		fwd = now() - t0;
	}
	printf("graphs\t%d\nnodes\t%" PRId64 "\nedges\t%" PRId64 "\npairs\t%" PRId64
	       "\ncluster_queries\t%" PRId64 "\nclusters\t%" PRId64 "\nparams\t%" PRId64
	       "\nsteps\t%lld\ntimed_steps\t%lld\nfirst_step_s\t%.4f\nstep_s_median\t%.4f\nstep_s_min\t%.4f\nstep_s_max\t%.4f\n"
	       "prep_s_mean\t%.4f\nworkspace_mib\t%.0f\npeak_rss_mib\t%.0f\n",
	       G, nodes, edges, P, Q, ncl, M->n, total, n, first,
	       med, tstep[skip], tstep[skip + n - 1], tprep / (double)total,
	       (double)mws_bytes(w) / 1048576.0, peak_rss_mib());
	printf("wall_s_median\t%.4f\ncpu_s_median\t%.4f\nreduce\t%s\n", wall, cpu,
	       o->by_graph ? "graph" : "batch");
	if (!o->by_graph)
		printf("forward_s\t%.4f\n", fwd);
	if (o->by_graph) {
		static const char *const name[BD_N] = { "wall_slowest", "build", "pass", "add",
			"allreduce_in_step", "allreduce" };
		printf("ranks\t%d\nallreduce_bytes\t%" PRId64 "\n", dist_size(),
		       (int64_t)sizeof(uint64_t) * 2 * M->n);
		for (int k = 0; k < BD_N; k++)
			printf("%s_s_median\t%.4f\n", name[k], median(bd[k] + skip, n));
	}
out:
	batch_free(&b);
	mws_free(w);
	if (o->by_graph)
		dstep_free(&d);
}

/* A training run: the model, the two sets, the step's batch and
 * workspace, the best parameters so far and where the run stands. */
struct trainer {
	const struct opts *o;
	model *M;
	struct lgraph **train, **val;
	int64_t nt, nv;
	int B;			/* graphs a step */
	struct batch_opts bo;
	batch b;
	mws *w;
	int32_t *perm;		/* (nt) this epoch's order of the training graphs */
	gsl_rng *er;		/* its stream */
	real *best;		/* (M->n) the best parameters */
	struct train_state st;
	FILE *log;		/* --log, or NULL */
	double t_start;
	struct progress pr;
	int by_graph;		/* the data-parallel step (dp) */
	struct dstep dp;
	int stop;		/* a signal stops the run (all ranks agree) */
	int cut;		/* a signal cut a feature command short: the
				 * epoch ends unscored */
	long long ck_epoch;	/* the epoch --checkpoint holds, or 0 */
};

/* Where the run stands, for the line of a timeout or a signal under MPI
 * (dist_set_where): the step, its epoch, the last checkpoint. */
static void
say_where(const struct trainer *t, const char *what, long long step, long long epoch)
{
	if (dist_size() == 1)
		return;
	if (t->ck_epoch > 0)
		dist_set_where("%s %lld (epoch %lld; %s holds epoch %lld)", what, step, epoch,
			       t->o->checkpoint, t->ck_epoch);
	else
		dist_set_where("%s %lld (epoch %lld)", what, step, epoch);
}

/* The validation graphs of n asked for: --validation, or 124 of every
 * 1024. */
static int64_t
validation_asked(const struct opts *o, int64_t n)
{
	return o->s.validation >= 0 ? o->s.validation
	    : (int64_t)llround((double)n * 124.0 / 1024.0);
}

/* The validation graphs of n, or a usage error when none or all would be. */
static int64_t
validation_count(const struct opts *o, int64_t n)
{
	int64_t nv = validation_asked(o, n);

	if (nv < 1 || nv >= n)
		die_usage("%" PRId64 " graphs: cannot keep %" PRId64
			  " for validation and train on the rest (--validation)", n, nv);
	return nv;
}

/* The model of the settings, with its initial values (stream "init"); the
 * link head's output bias at the base rate of the training graphs' pairs
 * (all the graphs' with --bench-steps, which validates nothing). */
static void
model_setup(const struct opts *o, model *M, struct dataset *ds, const struct batch_opts *bo)
{
	struct model_cfg mc;
	gsl_rng *r;
	int64_t pos, neg, nv = o->bench_steps ? 0 : validation_asked(o, ds->n);

	if (train_settings_model_cfg(&o->s, &mc) != 0 || model_init(M, &mc) != 0)
		die_usage("model settings out of range");
	r = rng_new((uint64_t)o->s.seed, 0x696e6974ULL);	/* "init" */
	model_init_params(M, r);
	gsl_rng_free(r);
	if (mc.tasks & 1 << TASK_REC) {
		/* a bad count is said by validation_count(), once, after this */
		batch_pair_counts(ds->g, nv >= 0 && nv < ds->n ? ds->n - nv : ds->n, bo, &pos,
				  &neg);
		model_init_rec_prior(M, (double)pos, (double)neg);
	}
}

/* The last --validation graphs validate, the others train. */
static void
trainer_init(struct trainer *t, struct opts *o, model *M, struct dataset *ds,
	     const struct batch_opts *bo)
{
	int64_t nv = validation_count(o, ds->n);

	o->s.validation = nv;		/* the model's config says what was used */
	memset(t, 0, sizeof *t);
	t->o = o;
	t->M = M;
	t->nv = nv;
	t->nt = ds->n - nv;
	t->train = ds->g;
	t->val = ds->g + t->nt;
	t->B = (int)(o->s.batch < t->nt ? o->s.batch : t->nt);
	t->bo = *bo;
	batch_init(&t->b);
	t->w = mws_new();
	t->perm = xmallocarray((size_t)t->nt, sizeof *t->perm);
	t->er = rng_new(0, 0);
	t->best = xmallocarray((size_t)M->n, sizeof *t->best);
	memcpy(t->best, M->p, (size_t)M->n * sizeof *t->best);
	t->st.best_score = -1;
	t->by_graph = o->by_graph;
	if (t->by_graph)
		dstep_init(&t->dp, M->n, t->B);
	say_masking(t->train, t->nt, o->c.quiet);
}

static void
trainer_free(struct trainer *t)
{
	free(t->perm);
	free(t->best);
	gsl_rng_free(t->er);
	batch_free(&t->b);
	mws_free(t->w);
	if (t->by_graph)
		dstep_free(&t->dp);
}

/* --resume: the parameters, the best ones, Adam's moments and the state. */
static void
resume(struct trainer *t, const char *path)
{
	char msg[512];
	gs_rec r;
	int k, found = 0;
	gs_file *in = gs_open_in(path, msg, sizeof msg);

	if (!in)
		die("%s", msg);
	gs_rec_init(&r);
	while ((k = gs_read1(in, &r)) > 0) {
		if (k != GS_MODEL || strcmp(r.name, CKPT_NAME) != 0)
			continue;
		if (checkpoint_load(t->M, t->best, &t->st, &r, path, msg, sizeof msg) != 0)
			die("%s", msg);
		found = 1;
	}
	if (k < -1)
		die("%s", gs_strerror(in));
	if (!found)
		die("%s: no %s record", path, CKPT_NAME);
	gs_close(in);
	gs_rec_free(&r);
}

/* Write a checkpoint atomically (a temporary file renamed over it). */
static void
write_checkpoint(const struct trainer *t, int argc, char **argv)
{
	struct copt c = t->o->c;
	gs_file *out;
	gs_rec r;

	c.output = t->o->checkpoint;
	c.quiet = 1;
	out = gs_open_out(&c, argc, argv);
	gs_rec_init(&r);
	checkpoint_record(&r, &t->o->s, t->M, t->best, &t->st);
	gs_write1(out, &r);
	gs_close(out);
	gs_rec_free(&r);
}

/* --log: its header, unless the run resumes and appends. */
static FILE *
open_log(const struct opts *o, const model *M)
{
	FILE *f;

	if (!o->log)
		return NULL;
	if (!(f = fopen(o->log, o->resume ? "a" : "w")))
		die("%s: %s", o->log, strerror(errno));
	if (o->resume)
		return f;
	fprintf(f, "epoch\tstep\tseconds\tloss_rec\tloss_rank\tloss_cluster"
		"\tval_loss_rec\tval_loss_rank\tval_loss_cluster\tval_rec_auc"
		"\tval_rank_acc\tval_rank_eigenvector\tval_rank_betweenness"
		"\tval_rank_closeness\tval_rank_subgraph\tval_cluster_acc"
		"\tval_score\tbest");
	/* softmax(psi) of each task and layer: the paper's Figure 2 */
	for (int t = 0; t < NTASK; t++)
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\tw_%s_%d", task_name[t], l + 1);
	fputc('\n', f);
	return f;
}

/* One line of --log: the epoch's mean losses and its validation. */
static void
log_epoch(struct trainer *t, long long epoch, const double *lsum, int nb,
	  const struct val_scores *sc, int better)
{
	FILE *f = t->log;
	const model *M = t->M;

	if (!f)
		return;
	fprintf(f, "%lld\t%lld\t%.3f", epoch + 1, t->st.step, now() - t->t_start);
	for (int k = 0; k < NTASK; k++)
		fprintf(f, "\t%.6f", nb ? lsum[k] / nb : 0.0);
	for (int k = 0; k < NTASK; k++)
		fprintf(f, "\t%.6f", sc->loss[k]);
	fprintf(f, "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%d",
		sc->auc, sc->rank_mean, sc->rank[0], sc->rank[1], sc->rank[2],
		sc->rank[3], sc->cluster, sc->score, better);
	for (int k = 0; k < NTASK; k++) {
		real lw[MODEL_MAXL];
		mix_weights(lw, M->P.psi[k], M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\t%.6f", (double)lw[l]);
	}
	fputc('\n', f);
	if (fflush(f) != 0)
		die("%s: %s", t->o->log, strerror(errno));
}

/* The epoch's line on stderr: its validation scores, '*' when best. */
static void
say_epoch(const struct trainer *t, long long epoch, double seconds,
	  const struct val_scores *sc, int better)
{
	int tasks = t->M->cfg.tasks;
	char line[256];
	size_t len = 0;

	if (t->o->c.quiet)
		return;
	if (tasks & 1 << TASK_REC)
		len += (size_t)snprintf(line + len, sizeof line - len, " rec AUC %.3f", sc->auc);
	if (tasks & 1 << TASK_RANK)
		len += (size_t)snprintf(line + len, sizeof line - len,
					" rank acc %.3f (%.3f %.3f %.3f %.3f)", sc->rank_mean,
					sc->rank[0], sc->rank[1], sc->rank[2], sc->rank[3]);
	if (tasks & 1 << TASK_CLUSTER)
		snprintf(line + len, sizeof line - len, " cluster acc %.3f", sc->cluster);
	warnx_("epoch %lld (step %lld, %.1f s): val%s%s", epoch + 1, t->st.step, seconds,
	       line, better ? " *" : "");
}

/* A signal stops the run: in a data-parallel run, once the ranks agreed. */
static int
stopping(const struct trainer *t)
{
	return t->by_graph ? t->stop : stop_signal != 0;
}

/*
 * The training steps of one epoch: the training graphs shuffled with the
 * stream (seed, epoch), cut into batches of B (the remainder left out),
 * each masked afresh, one Adam update each.  Adds each task's loss to
 * lsum; returns the steps taken.  Stops early at --steps (*budget_hit)
 * or on a signal.
 */
static int
train_epoch(struct trainer *t, long long epoch, double *lsum, int *budget_hit)
{
	const struct opts *o = t->o;
	struct lgraph **bg = xmallocarray((size_t)t->B, sizeof *bg);
	char msg[256];
	int nb = 0;

	rng_reseed(t->er, (uint64_t)o->s.seed, rng_mix(EPOCH_STREAM, (uint64_t)epoch));
	for (int64_t i = 0; i < t->nt; i++)
		t->perm[i] = (int32_t)i;
	for (int64_t i = t->nt - 1; i > 0; i--) {
		int64_t j = (int64_t)rng_uniform_u64(t->er, (uint64_t)i + 1);
		int32_t x = t->perm[i];
		t->perm[i] = t->perm[j];
		t->perm[j] = x;
	}
	for (int64_t i0 = 0; i0 + t->B <= t->nt && !stopping(t); i0 += t->B) {
		double l[NTASK], loss = 0;
		if (o->s.steps && t->st.step >= o->s.steps) {
			*budget_hit = 1;
			break;
		}
		for (int i = 0; i < t->B; i++)
			bg[i] = t->train[t->perm[i0 + i]];
		if (t->by_graph) {
			say_where(t, "at step", t->st.step + 1, epoch + 1);
			int rc = dstep_run(&t->dp, t->M, bg, (uint64_t)o->s.seed,
					   (uint64_t)t->st.step, &t->bo, &t->b, t->w,
					   stop_signal != 0, l, msg, sizeof msg);
			if (rc < 0 && stop_signal && dist_size() == 1) {
				t->stop = t->cut = 1;	/* a feature command cut short */
				break;
			}
			if (rc < 0)
				die("%s", msg);
			if ((t->stop = rc))
				break;
		} else {
			struct mout out1;
			if (batch_build(&t->b, bg, t->B, (uint64_t)o->s.seed,
					(uint64_t)t->st.step, &t->bo, msg, sizeof msg)) {
				if (stop_signal) {	/* a feature command cut short */
					t->cut = 1;
					break;
				}
				die("%s", msg);
			}
			model_zero_grad(t->M);
			model_step(t->M, &t->b, t->w, 1, &out1);
			memcpy(l, out1.loss, sizeof l);
		}
		for (int k = 0; k < NTASK; k++)
			loss += l[k];
		if (!isfinite(loss))	/* every rank has the same losses */
			dist_die_all("step %lld: the loss is %g; try a smaller --lr",
				     t->st.step + 1, loss);
		model_adam(t->M, o->s.lr);
		t->st.step++;
		nb++;
		for (int k = 0; k < NTASK; k++)
			lsum[k] += l[k];
		progress_note(&t->pr, "epoch %lld, step %lld: loss %.4f (rec %.4f rank %.4f "
			      "cluster %.4f)", epoch + 1, t->st.step, loss, l[0], l[1], l[2]);
		progress_update(&t->pr, t->pr.done + 1);
		if (o->s.steps && t->st.step >= o->s.steps) {
			*budget_hit = 1;
			break;
		}
	}
	free(bg);
	return nb;
}

/*
 * The end of an epoch of lsum's nb steps, scored sc on the validation
 * graphs: the best parameters kept, its lines on stderr and in --log, the
 * checkpoint.  Returns 1 when --patience ends the run.
 */
static int
epoch_end(struct trainer *t, long long epoch, const double *lsum, int nb, double t_ep,
	  struct val_scores sc, int argc, char **argv)
{
	const struct opts *o = t->o;
	struct train_state *st = &t->st;

	int better = sc.score > st->best_score;
	if (better) {
		st->best_score = sc.score;
		st->best_epoch = epoch + 1;
		st->best_step = st->step;
		st->best_sc = sc;
		memcpy(t->best, t->M->p, (size_t)t->M->n * sizeof *t->best);
		st->stale = 0;
	} else
		st->stale++;
	st->epoch = epoch + 1;
	say_epoch(t, epoch, now() - t_ep, &sc, better);
	log_epoch(t, epoch, lsum, nb, &sc, better);
	if (o->checkpoint && !stopping(t))
		write_checkpoint(t, argc, argv);
	if (st->stale >= o->s.patience) {
		if (!o->c.quiet)
			warnx_("no better validation score for %lld epochs; stopping", st->stale);
		return 1;
	}
	return 0;
}

/*
 * Epochs until --epochs, --steps, --patience or a signal ends the run:
 * each scored on the validation graphs; the best parameters are kept and
 * a checkpoint written after each.
 */
static void
train(struct trainer *t, int argc, char **argv)
{
	const struct opts *o = t->o;
	struct train_state *st = &t->st;
	long long epoch, todo = (o->s.epochs - st->epoch) * (t->nt / t->B);
	int budget_hit = 0;

	/* progress: the steps this run has left, over every epoch */
	if (o->s.steps && o->s.steps - st->step < todo)
		todo = o->s.steps - st->step;
	progress_init(&t->pr, &o->c);
	progress_start(&t->pr, "steps", todo, NULL);
	t->t_start = now();
	for (epoch = st->epoch; epoch < o->s.epochs && !budget_hit && !stopping(t); epoch++) {
		double lsum[NTASK] = { 0 }, t_ep = now();
		int nb = train_epoch(t, epoch, lsum, &budget_hit), end = 0;
		if (nb == 0 || t->cut)	/* a signal or the step budget came first */
			break;
		/* every rank scores its share when the step goes by graph;
		 * rank 0 alone writes, and the others wait for its word on
		 * whether the run goes on */
		struct val_scores sc;
		int cut;

		say_where(t, "validating after step", st->step, epoch + 1);
		if (t->by_graph)
			cut = validate_by_graph(t->M, t->val, (int)t->nv, t->B, (uint64_t)o->s.seed,
						&t->bo, &t->b, &t->dp.one, t->w, &sc);
		else
			cut = validate(t->M, t->val, t->nv, t->B, (uint64_t)o->s.seed, &t->bo,
				       &t->b, t->w, &sc);
		if (cut)	/* a signal cut a feature command short */
			break;
		if (dist_rank() == 0)
			end = epoch_end(t, epoch, lsum, nb, t_ep, sc, argc, argv);
		else
			st->epoch = epoch + 1;
		dist_bcast_idle(&end, sizeof end, 0);
		if (o->checkpoint)
			t->ck_epoch = epoch + 1;	/* rank 0 wrote it before its word */
		if (end)
			break;
	}
	progress_done(&t->pr);
	if ((stop_signal || t->stop) && dist_rank() == 0)
		fprintf(stderr, "%s: %s at step %lld; writing the best model so far (epoch %lld)\n",
			err_prog(), stop_signal == SIGINT ? "interrupted" : "terminated", st->step,
			st->best_epoch);
}

/* ---- processes ---- */

/* The standard error of a rank other than 0 while it parses the options:
 * its own and a file that keeps its message. */
static int parse_err = -1, parse_msg = -1;

/*
 * A rank other than 0 that fails to parse its options: rank 0, with the
 * same options, fails the same way and says so, and the first exit ends
 * the job; so this one waits, then says its message as its own ("rank 1:
 * ...") only when it is still running: its options differ from rank 0's
 * (mpirun's MPMD form).
 */
static void
linger(void *arg)
{
	char buf[1024], out[1100];
	ssize_t n;
	int k, p = (int)strlen(err_prog()) + 2;	/* after "gcn-train: " */

	(void)arg;
	sleep(5);
	if (parse_err < 0 || (n = pread(parse_msg, buf, sizeof buf - 1, 0)) <= p)
		return;
	buf[n] = '\0';
	k = snprintf(out, sizeof out, "%.*srank %d: %s", p, buf, dist_launch_rank(), buf + p);
	if (write(parse_err, out, (size_t)(k < (int)sizeof out ? k : (int)sizeof out - 1)) < 0)
		return;
}

/*
 * The options, parsed by every process before MPI starts (so that -h and
 * --version end a run of several processes cleanly); the processes a
 * launcher started as ranks other than 0 parse them without a word, but
 * for an error that rank 0 does not share (linger()).
 */
static void
parse_rank(struct opts *o, int argc, char **argv)
{
	int fd1 = -1, nul;
	const char *dir = getenv("TMPDIR");
	char path[4096];

	snprintf(path, sizeof path, "%s/gcn-train-parse.XXXXXX", dir && *dir ? dir : "/tmp");
	if (dist_launch_rank() != 0 && (nul = open("/dev/null", O_WRONLY)) >= 0) {
		fd1 = dup(STDOUT_FILENO);
		parse_err = dup(STDERR_FILENO);
		dup2(nul, STDOUT_FILENO);
		if ((parse_msg = mkstemp(path)) >= 0) {
			unlink(path);
			dup2(parse_msg, STDERR_FILENO);
		} else {
			dup2(nul, STDERR_FILENO);
		}
		close(nul);
		err_atexit(linger, NULL);
	}
	parse(o, argc, argv);
	if (fd1 >= 0 && parse_err >= 0) {
		fflush(stdout);
		dup2(fd1, STDOUT_FILENO);
		dup2(parse_err, STDERR_FILENO);
		close(fd1);
		close(parse_err);
		if (parse_msg >= 0)
			close(parse_msg);
		parse_err = parse_msg = -1;
		err_atexit(NULL, NULL);
	}
}

/*
 * MPI, when a launcher started several processes: the step goes by graph
 * in every rank; rank 0 reads the input first (a bad input is said once),
 * and standard input, which only rank 0 gets, is copied to the others;
 * the other ranks wait for rank 0's setup, then do theirs without a word.
 * The model goes to -o FILE: the launcher passes rank 0's standard output
 * through a terminal.
 */
static void
start_ranks(struct opts *o, int nfiles, char **files)
{
	int std = nfiles == 0;

	dist_set_timeout(o->mpi_timeout);
	if (dist_init(NULL, NULL) == 1)
		return;
	if (o->reduce_given && !o->by_graph && dist_rank() == 0)
		die_usage("%d processes: --reduce batch is one process's step; several always "
			  "sum by graph (gcn-train(1), MPI)", dist_size());
	o->by_graph = 1;
	for (int i = 0; i < nfiles; i++)
		std |= strcmp(files[i], "-") == 0;
	if (dist_rank() != 0) {
		o->c.quiet = 1;
		dist_stdin_share();
		return;
	}
	if (!o->bench_steps && (!o->c.output || strcmp(o->c.output, "-") == 0))
		die_usage("%d processes: write the model with -o FILE (the launcher passes "
			  "standard output through a terminal)", dist_size());
	if (std)
		dist_stdin_read();
}

/*
 * What every process must share, as lines "key: value": the settings as
 * given (options over --config, before auto or a default is resolved),
 * and the options outside them that change the run or that rank 0 alone
 * uses (one process's different -o would go unused without a word).
 * -q, --progress and --mpi-timeout may differ.  A new string.
 */
static char *
settings_text(struct opts *o)
{
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	size_t nk = train_schema(&o->s, keys), len;
	char *cfg = cfg_dump(keys, nk), *text = NULL;
	FILE *f = open_memstream(&text, &len);
	const char *none = "(none)";

	if (!f)
		die("open_memstream:");
	fprintf(f, "%s-j: %d\n-l: %d\n-t: %d\n--bench-steps: %lld\n--reduce: %s\n"
		"-o: %s\n--checkpoint: %s\n--log: %s\n--resume: %s\n", cfg, o->c.threads,
		o->c.level, o->c.text, o->bench_steps, o->reduce_given ? (o->by_graph ?
		"graph" : "batch") : none, o->c.output ? o->c.output : none,
		o->checkpoint ? o->checkpoint : none, o->log ? o->log : none,
		o->resume ? o->resume : none);
	if (fclose(f) != 0)
		die("open_memstream:");
	free(cfg);
	return text;
}

/*
 * Several processes must train on rank 0's settings and input, or the
 * collectives of a step no longer match (a deadlock, MPI's own error, or
 * a model that differs without a word).  Checked once every process has
 * read its input, before anything is written: a difference ends the run
 * with one line naming the first rank and what differs.
 */
static void
agree(const char *settings, const struct dataset *ds)
{
	/* the options of the config's keys, to name what differs */
	static const char *const opt_of[][2] = {
		{ "features.stage", "--features" }, { "features.command", "--features" },
		{ "model.hidden", "--hidden" }, { "model.layers", "--layers" },
		{ "tasks", "--tasks" }, { "train.batch_graphs", "--batch" },
		{ "train.epochs", "--epochs" }, { "train.steps", "--steps" },
		{ "train.patience", "--patience" }, { "train.validation_graphs", "--validation" },
		{ "train.lr", "--lr" }, { "train.precision", "--precision" }, { "seed", "-s" },
	};
	char msg[640] = "";
	int bad;

	if (dist_size() == 1)
		return;
	bad = dist_same_lines(settings, opt_of, sizeof opt_of / sizeof opt_of[0], msg,
			      sizeof msg) != 0;
	dist_fail_if_any(bad, msg);
	bad = dstep_same_input(ds->g, ds->n, msg, sizeof msg) != 0;
	dist_fail_if_any(bad, msg);
}

/*
 * The pg record's command line (*pargc words at *pargv, options first, as
 * getopt left them) under MPI: --mpi-timeout left out (it cannot change
 * the model, as -j and -q, which the stream leaves out), and, for several
 * processes, --reduce graph, which they always use: so it tells their
 * model from one process's (--reduce batch by default), and makes the
 * same model in one process.
 */
static void
pg_mpi(const struct opts *o, int *pargc, char ***pargv)
{
	char **a = *pargv, **v = xmallocarray((size_t)*pargc + 3, sizeof *v);
	int n = 0, opts = 1;

	v[n++] = a[0];
	if (dist_size() > 1 && !o->reduce_given) {
		v[n++] = (char *)"--reduce";
		v[n++] = (char *)"graph";
	}
	for (int i = 1; i < *pargc; i++) {
		size_t len = strcspn(a[i], "=");
		opts &= strcmp(a[i], "--") != 0;
		/* --mpi-timeout S, --mpi-timeout=S and their abbreviations */
		if (opts && len >= 5 && len <= 13 && strncmp(a[i], "--mpi-timeout", len) == 0) {
			i += a[i][len] != '=';
			continue;
		}
		v[n++] = a[i];
	}
	v[n] = NULL;
	free(a);
	*pargv = v;
	*pargc = n;
}

/* Every rank multiplies in rank 0's precision (auto measured there). */
static void
share_precision(void)
{
	int p = gemm_precision();

	if (dist_size() == 1)
		return;
	dist_bcast_idle(&p, sizeof p, 0);	/* rank 0 may still be setting up */
	gemm_set_precision(p);
}

/* Every rank starts from rank 0's parameters, Adam state and step (after
 * --resume); the best parameters stay with rank 0. */
static void
share_state(struct trainer *t)
{
	model *M = t->M;

	if (dist_size() == 1)
		return;
	dist_bcast_idle(&t->st, sizeof t->st, 0);	/* the others may still read */
	dist_bcast(&M->adam_t, sizeof M->adam_t, 0);
	dist_bcast(M->p, (size_t)M->n * sizeof *M->p, 0);
	dist_bcast(M->m, (size_t)M->n * sizeof *M->m, 0);
	dist_bcast(M->v, (size_t)M->n * sizeof *M->v, 0);
}

/* The run's first line on stderr. */
static void
say_start(const struct trainer *t)
{
	const struct opts *o = t->o;
	char how[160] = "";

	if (o->c.quiet)
		return;
	if (dist_size() > 1)
		snprintf(how, sizeof how, ", %d processes (%s), the gradient summed graph by "
			 "graph", dist_size(), dist_library());
	else if (t->by_graph)
		snprintf(how, sizeof how, ", the gradient summed graph by graph");
	fprintf(stderr, "%s: %" PRId64 " training and %" PRId64 " validation graphs, %" PRId64
		" parameters, tasks %s%s\n", err_prog(), t->nt, t->nv, t->M->n, o->s.tasks, how);
}

/* The output: the inputs' provenance, then the best model. */
static void
write_model(gs_file *out, const struct dataset *ds, const struct trainer *t)
{
	const struct train_state *st = &t->st;
	gs_rec r;

	gs_rec_init(&r);
	gs_reader_write_pg(&ds->rd, out);
	model_record(&r, MODEL_NAME, &t->o->s, t->M, t->best,
		     st->best_score >= 0 ? &st->best_sc : NULL, st->best_epoch, st->best_step);
	gs_attr_setf(&r, "trained_steps", "%lld", st->step);
	gs_attr_setf(&r, "processes", "%d", dist_size());
	gs_attr_set(&r, "reduce", t->by_graph ? "graph" : "batch");
	gs_write1(out, &r);
	gs_rec_free(&r);
}

/* The run proper: -o opened before the first step (a bad -o fails now,
 * not after hours), the training, the model written; rank 0 alone writes
 * and speaks, the other ranks wait for its setup. */
static void
run(struct opts *o, model *M, struct dataset *ds, const struct batch_opts *bo, int pgargc,
    char **pgargv)
{
	struct trainer t;
	gs_file *out = NULL;

	trainer_init(&t, o, M, ds, bo);
	if (dist_rank() == 0) {
		if (o->resume)
			resume(&t, o->resume);
		out = gs_open_out(&o->c, pgargc, pgargv);
		if (o->checkpoint)	/* its directory, its mode: now, not after an epoch */
			outfile_check(o->checkpoint);
		t.log = open_log(o, M);
		if (o->precision_why[0])
			warnx_("%s", o->precision_why);
		say_start(&t);
	}
	share_precision();
	share_state(&t);
	/* several processes: mpirun ends every rank on a signal, so the ranks
	 * keep its action, with which -o's temporary files are removed
	 * (outfile.h), after rank 0's line on why */
	if (dist_size() == 1) {
		catch_signals();
	} else {
		if (o->checkpoint && o->resume && strcmp(o->checkpoint, o->resume) == 0)
			t.ck_epoch = t.st.epoch;
		dist_set_where("before step %lld", t.st.step + 1);
		dist_catch_signals();
	}
	train(&t, pgargc, pgargv);
	if (dist_rank() == 0) {
		write_model(out, ds, &t);
		gs_close(out);
		if (t.log && fclose(t.log) != 0)
			die("%s: %s", o->log, strerror(errno));
	}
	trainer_free(&t);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct dataset ds;
	struct featcmd fc;
	struct batch_opts bo;
	model M;
	int tasks, pgargc;
	char **pgargv;		/* the command line of the pg records */
	char *settings;		/* what every process must share (MPI) */

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse_rank(&o, argc, argv);
	settings = settings_text(&o);	/* as given, before any is chosen */
	start_ranks(&o, argc - optind, argv + optind);
	copt_apply_threads_blas(&o.c);
	apply_precision(&o, argc, argv, &pgargc, &pgargv);
	pg_mpi(&o, &pgargc, &pgargv);
	tasks_parse(o.s.tasks, &tasks);
	memset(&ds, 0, sizeof ds);
	memset(&fc, 0, sizeof fc);
	read_inputs(&ds, argc - optind, argv + optind, o.c.quiet);
	check_dataset(&ds, tasks);
	renumber_repeated_ids(&ds, o.c.quiet);
	train_settings_batch_opts(&o.s, &bo);
	resolve_features(&o, &ds, &fc, &bo.fs);
	model_setup(&o, &M, &ds, &bo);
	if (dist_rank() == 0) {
		if (!o.bench_steps)
			validation_count(&o, ds.n);	/* said once, here */
		dist_stdin_share();	/* rank 0's setup is done: the others do theirs */
	}
	agree(settings, &ds);
	free(settings);
	if (o.bench_steps) {
		if (dist_rank() == 0 && o.precision_why[0])
			warnx_("%s", o.precision_why);
		share_precision();
		bench(&o, &M, &ds, &bo);
	} else {
		run(&o, &M, &ds, &bo, pgargc, pgargv);
	}
	dataset_free(&ds);
	featcmd_free(&fc);
	model_free(&M);
	train_settings_free(&o.s);
	free(pgargv);
	gemm_release();
	dist_end();
	if (stop_signal) {
		/* the model is written; now die of the signal, so that a shell,
		 * make or a job runner knows the run was cut short and does not
		 * take the model for a finished stage */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return 0;
}
