/*
 * linprobe - a linear probe: how well a logistic regression separates the
 * classes of nodes (or graphs) from fixed vectors, such as gcn-embed's
 * embeddings or nodefeat's features, over seeded stratified splits.  It
 * writes each run's test predictions as gcn-adapt does, for evalf1.
 * Manual: man/man1/linprobe.1.  The input: common/probe_data.c; the work:
 * common/probe.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "err.h"
#include "opt.h"
#include "probe.h"
#include "probe_data.h"
#include "progress.h"
#include "reader.h"
#include "rng.h"
#include "split.h"
#include "stream.h"

#define SYNOPSIS \
	"linprobe [-qt] [-j threads] [-l level] [-o file] [-s seed] [--C c]\n" \
	"                [--C-grid lo..hi] [--cv-folds k] [--first-run r] [--folds k]\n" \
	"                [--label name] [--pool how] [--progress] [--runs n]\n" \
	"                [--task node|graph] [--tensor name] [--test-fraction x]\n" \
	"                [--train-per-class n] [file ...]"

enum {
	OPT_C = COPT_FIRST_TOOL,
	OPT_C_GRID,
	OPT_CV_FOLDS,
	OPT_FIRST_RUN,
	OPT_FOLDS,
	OPT_LABEL,
	OPT_POOL,
	OPT_RUNS,
	OPT_TASK,
	OPT_TENSOR,
	OPT_TEST_FRACTION,
	OPT_TRAIN_PER_CLASS
};
static const char *const tasks[] = { "node", "graph", NULL }; /* PROBE_TASK_x */
static const char *const pools[] = { "none", "mean", "max", "sum", "meanmax", NULL };

struct opts {
	struct copt c;
	struct probe_opts p;
	const char *tensor, *label;
	int task, pool, runs, folds;
	int first_run;	   /* --first-run: the runs are first_run.. */
	int64_t per_class; /* --train-per-class, or 0: --test-fraction */
	double test_fraction;
	const char *fixed_by; /* the first option that only a chosen C takes */
	int pool_set, runs_set, frac_set, C_set;
};

static void
usage(FILE *f, const struct opts *o)
{
	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "  Fits a logistic regression (LIBLINEAR) on each item's vector over stratified\n"
	    "  splits; writes each run's test predictions (evalf1 scores them).\n"
	    "      --C C               this regularisation C instead of one chosen by CV\n"
	    "      --C-grid LO..HI     the Cs tried: LO, 10 LO, ... up to HI [%g..%g]\n"
	    "      --cv-folds K        folds of the CV that chooses C [%d]\n"
	    "      --first-run R       number the runs from R: runs (folds) R..R+N-1 [0]\n"
	    "      --folds K           K-fold cross-validation: K runs, each testing a fold\n"
	    "  -h, --help              this help\n"
	    "  -j, --threads N         runs on N threads at a time [all cores]\n"
	    "      --label NAME        node classes: a tensor; graph classes: label records [%s]\n"
	    "  -l, --level N           gzip level, 0 = plain [%d]\n"
	    "  -o, --output FILE       write to FILE instead of stdout\n"
	    "      --pool HOW          graph task: mean, max, sum or meanmax of the node\n"
	    "                          vectors, or none (one row per graph) [mean]\n"
	    "      --progress          progress on stderr even when it is not a terminal\n"
	    "  -q, --quiet             no warnings or progress\n"
	    "      --runs N            hold-out runs [%d]; with --folds, folds [the rest]\n"
	    "  -s, --seed N            random seed; run r draws from stream (seed, r) [0]\n"
	    "  -t, --text              write the text form\n"
	    "      --task TASK         node or graph classification [node]\n"
	    "      --tensor NAME       the vectors [%s]\n"
	    "      --test-fraction X   test share of each class in a hold-out run [%g]\n"
	    "      --train-per-class N hold-out runs training on N items of each class and\n"
	    "                          testing on the others, instead of --test-fraction\n"
	    "      --version           print the version\n",
	    o->p.grid_lo, o->p.grid_hi, o->p.cv_folds, o->label, o->c.level, o->runs, o->tensor,
	    o->test_fraction);
}

static const char *
name_arg(const char *s, const char *opt)
{
	if (!*s || strlen(s) >= GS_NAME_MAX)
		die_usage("%s: expected a name of 1..%d characters", opt, GS_NAME_MAX - 1);
	return s;
}

/* What parse() refuses together. */
static void
check_opts(struct opts *o)
{
	if (o->folds && (o->frac_set || o->per_class))
		die_usage("--folds K makes K runs, each testing one fold: --%s is for hold-out "
			  "runs",
			  o->frac_set ? "test-fraction" : "train-per-class");
	if (o->folds && o->first_run + (o->runs_set ? o->runs : 1) > o->folds)
		die_usage("--folds %d: folds 0..%d; --first-run %d%s asks for fold %d", o->folds,
			  o->folds - 1, o->first_run, o->runs_set ? " and --runs" : "",
			  o->first_run + (o->runs_set ? o->runs : 1) - 1);
	if (o->per_class && o->frac_set)
		die_usage("--train-per-class and --test-fraction: choose one split");
	if (o->C_set && o->fixed_by)
		die_usage("--C fixes C: %s is for choosing it", o->fixed_by);
	if (o->p.grid_lo > o->p.grid_hi)
		die_usage("--C-grid: %g..%g is empty", o->p.grid_lo, o->p.grid_hi);
	if (o->pool_set && o->task != PROBE_TASK_GRAPH)
		die_usage("--pool is for --task graph");
	if (strcmp(o->tensor, o->label) == 0)
		die_usage("--tensor and --label both name '%s'", o->tensor);
}

static void
parse(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		COPT_LONGOPTS,
		{ "C", required_argument, NULL, OPT_C },
		{ "C-grid", required_argument, NULL, OPT_C_GRID },
		{ "cv-folds", required_argument, NULL, OPT_CV_FOLDS },
		{ "first-run", required_argument, NULL, OPT_FIRST_RUN },
		{ "folds", required_argument, NULL, OPT_FOLDS },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "pool", required_argument, NULL, OPT_POOL },
		{ "runs", required_argument, NULL, OPT_RUNS },
		{ "task", required_argument, NULL, OPT_TASK },
		{ "tensor", required_argument, NULL, OPT_TENSOR },
		{ "test-fraction", required_argument, NULL, OPT_TEST_FRACTION },
		{ "train-per-class", required_argument, NULL, OPT_TRAIN_PER_CLASS },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->c.seed_set = 1; /* the default seed is a seed: the pg record shows it */
	probe_opts_default(&o->p);
	o->tensor = "embedding";
	o->label = "label";
	o->pool = PROBE_POOL_MEAN;
	o->runs = 10;
	o->test_fraction = 0.2;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, lo, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout, o);
			copt_exit_ok();
		}
		if (copt_handle(&o->c, ch, optarg))
			continue;
		switch (ch) {
		case OPT_C:
			o->p.C = opt_double(optarg, 1e-9, 1e9, "--C");
			o->C_set = 1;
			break;
		case OPT_C_GRID:
			opt_range_double(optarg, 1e-9, 1e9, "--C-grid", &o->p.grid_lo,
					 &o->p.grid_hi);
			o->fixed_by = o->fixed_by ? o->fixed_by : "--C-grid";
			break;
		case OPT_CV_FOLDS:
			o->p.cv_folds = (int)opt_ll(optarg, 2, 100, "--cv-folds");
			o->fixed_by = o->fixed_by ? o->fixed_by : "--cv-folds";
			break;
		case OPT_FIRST_RUN:
			o->first_run = (int)opt_ll(optarg, 0, 1 << 30, "--first-run");
			break;
		case OPT_FOLDS:
			o->folds = (int)opt_ll(optarg, 2, 1000, "--folds");
			break;
		case OPT_LABEL:
			o->label = name_arg(optarg, "--label");
			break;
		case OPT_POOL:
			o->pool = opt_keyword(optarg, pools, "--pool");
			o->pool_set = 1;
			break;
		case OPT_RUNS:
			o->runs = (int)opt_ll(optarg, 1, 100000, "--runs");
			o->runs_set = 1;
			break;
		case OPT_TASK:
			o->task = opt_keyword(optarg, tasks, "--task");
			break;
		case OPT_TENSOR:
			o->tensor = name_arg(optarg, "--tensor");
			break;
		case OPT_TEST_FRACTION:
			o->test_fraction = opt_double(optarg, 1e-6, 1 - 1e-6, "--test-fraction");
			o->frac_set = 1;
			break;
		case OPT_TRAIN_PER_CLASS:
			o->per_class = opt_ll(optarg, 1, 1LL << 40, "--train-per-class");
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	check_opts(o);
}

/* ---- runs ---- */

struct ticker {
	struct progress *pr;
	int64_t done;
};

static void
tick(void *arg)
{
	struct ticker *t = arg;

#pragma omp critical(linprobe_progress)
	progress_update(t->pr, ++t->done);
}

/* The split of run r: a hold-out split (a share of each class tested, or
 * --train-per-class of each trained), or fold r of --folds. */
static void
split(const struct opts *o, const struct probe_data *d, const int *fold, int r, int32_t *tr,
      int64_t *ntr, int32_t *te, int64_t *nte)
{
	if (o->per_class) {
		split_per_class(d->y, d->n, d->C, o->per_class, o->c.seed, r, tr, ntr, te, nte);
		return;
	}
	if (!o->folds) {
		split_holdout(d->y, d->n, d->C, o->test_fraction, o->c.seed, r, tr, ntr, te, nte);
		return;
	}
	*ntr = *nte = 0;
	for (int64_t i = 0; i < d->n; i++)
		if (fold[i] == r)
			te[(*nte)++] = (int32_t)i;
		else if (fold[i] >= 0)
			tr[(*ntr)++] = (int32_t)i;
}

/* Every run, on the threads of -j (one workspace each; a run's result does
 * not depend on the thread). */
static struct probe_result *
run_all(const struct opts *o, const struct probe_data *d, int R, int64_t *ntrain)
{
	struct probe_result *res = xcalloc((size_t)R, sizeof *res);
	struct progress pr;
	struct ticker tk = { &pr, 0 };
	double Cs[64];
	int *fold = NULL, T = 1;

	if (o->folds) { /* gcn-adapt's folds */
		gsl_rng *r = rng_new(o->c.seed, SPLIT_FOLD_STREAM);
		fold = xmallocarray((size_t)d->n + 1, sizeof *fold);
		split_folds(d->y, d->n, d->C, o->folds, r, fold);
		gsl_rng_free(r);
	}
#ifdef _OPENMP
	T = omp_get_max_threads() < R ? omp_get_max_threads() : R;
#endif
	probe_ws **ws = xmallocarray((size_t)T, sizeof *ws);
	for (int t = 0; t < T; t++) /* here: LIBLINEAR's set-up is not thread-safe */
		ws[t] = probe_ws_new(d);
	progress_init(&pr, &o->c);
	progress_start(&pr, "fits",
		       (int64_t)R *
			   ((o->p.C > 0 ? 0 : o->p.cv_folds * probe_grid(&o->p, Cs, 64)) + 1),
		       "%d run%s", R, R == 1 ? "" : "s");
#pragma omp parallel num_threads(T)
	{
		int t = 0;
#ifdef _OPENMP
		t = omp_get_thread_num();
#endif
		int32_t *tr = xmallocarray((size_t)d->n + 1, sizeof *tr);
		int32_t *te = xmallocarray((size_t)d->n + 1, sizeof *te);
#pragma omp for schedule(dynamic, 1)
		for (int r = 0; r < R; r++) {
			int64_t nte;
			int id = o->first_run + r; /* the run's number: its draws */
			split(o, d, fold, id, tr, &ntrain[r], te, &nte);
			probe_run(ws[t], d, &o->p, tr, ntrain[r], te, nte, o->c.seed, id, &res[r],
				  tick, &tk);
		}
		free(tr);
		free(te);
	}
	progress_done(&pr);
	for (int t = 0; t < T; t++)
		probe_ws_free(ws[t]);
	free(ws);
	free(fold);
	return res;
}

/* ---- output ---- */

/* Run r's predictions record: as gcn-adapt's (item, true, pred and, up to
 * 64 classes, score_0 ... the class probabilities), with what was probed. */
static void
write_run(gs_file *out, gs_rec *rec, const struct opts *o, const struct probe_input *in, int r,
	  const struct probe_result *res, int64_t ntrain)
{
	int C = in->C, ncol = C <= 64 ? 3 + C : 3;
	char cols[32 + 16 * 64];
	size_t cl = (size_t)snprintf(cols, sizeof cols, "item,true,pred");

	for (int c = 0; c < C && ncol > 3; c++)
		cl += (size_t)snprintf(cols + cl, sizeof cols - cl, ",score_%d", c);
	gs_rec_tensor(rec, o->first_run + r, "predictions", res->ntest, ncol, GS_F64, cols);
	double *p = rec->data;
	for (int64_t i = 0; i < res->ntest; i++, p += ncol) {
		p[0] = res->test[i];
		p[1] = in->y[res->test[i]];
		p[2] = res->pred[i];
		for (int c = 0; c < C && ncol > 3; c++)
			p[3 + c] = res->prob[i * C + c];
	}
	for (int i = 0; i < in->attrs.nattr; i++) /* what was probed, then ours */
		gs_attr_set(rec, in->attrs.akey[i], in->attrs.aval[i]);
	gs_attr_set(rec, "task", tasks[o->task]);
	gs_attr_set(rec, "dataset", in->dataset);
	gs_attr_setf(rec, "classes", "%d", C);
	gs_attr_set(rec, "probe", "logreg");
	gs_attr_set(rec, "tensor", o->tensor);
	gs_attr_setf(rec, "width", "%d", in->D);
	if (o->task == PROBE_TASK_GRAPH)
		gs_attr_set(rec, "pool", pools[o->pool]);
	gs_attr_setf(rec, "C", "%.6g", res->C);
	if (o->p.C <= 0) {
		gs_attr_setf(rec, "C_grid", "%g..%g", o->p.grid_lo, o->p.grid_hi);
		gs_attr_setf(rec, "cv_folds", "%d", o->p.cv_folds);
		gs_attr_setf(rec, "cv_acc", "%.6f", res->cv_acc);
	}
	if (o->folds)
		gs_attr_setf(rec, "split", "fold %d of %d", o->first_run + r, o->folds);
	else if (o->per_class)
		gs_attr_setf(rec, "split", "%" PRId64 " per class", o->per_class);
	else
		gs_attr_setf(rec, "split", "holdout %g", o->test_fraction);
	gs_attr_setf(rec, "train_labels", "%" PRId64, ntrain);
	gs_write1(out, rec);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct probe_input in;
	gs_file *out;
	gs_rec rec;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	copt_apply_threads(&o.c);
	openblas_set_num_threads(1); /* LIBLINEAR's vector operations: the runs are parallel */
	struct probe_ask ask = { .task = o.task,
				 .tensor = o.tensor,
				 .label = o.label,
				 .pool = o.pool,
				 .folds = o.folds,
				 .quiet = o.c.quiet };
	probe_input_read(&in, &ask, argc - optind, argv + optind);
	struct probe_data d = { .n = in.n, .D = in.D, .X = in.X, .y = in.y, .C = in.C };
	int R = o.folds && !o.runs_set ? o.folds - o.first_run : o.runs;
	int64_t *ntrain = xmallocarray((size_t)R, sizeof *ntrain);
	out = gs_open_out(&o.c, argc, argv); /* a bad -o fails before the runs */
	gs_reader_write_pg(&in.rd, out);
	struct probe_result *res = run_all(&o, &d, R, ntrain);
	gs_rec_init(&rec);
	for (int r = 0; r < R; r++) {
		write_run(out, &rec, &o, &in, r, &res[r], ntrain[r]);
		probe_result_free(&res[r]);
	}
	gs_close(out);
	gs_rec_free(&rec);
	probe_input_free(&in);
	free(res);
	free(ntrain);
	return 0;
}
