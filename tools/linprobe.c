/*
 * linprobe - a linear probe: how well a logistic regression separates the
 * classes of nodes (or graphs) from fixed vectors, such as gcn-embed's
 * embeddings or nodefeat's features, over seeded stratified splits.  It
 * writes each run's test predictions as gcn-adapt does, for evalf1.
 * Manual: man/man1/linprobe.1.  The work: common/probe.c.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "err.h"
#include "filter.h"
#include "opt.h"
#include "probe.h"
#include "progress.h"
#include "reader.h"
#include "rng.h"
#include "split.h"
#include "stream.h"

#define SYNOPSIS "linprobe [-qt] [-j threads] [-l level] [-o file] [-s seed] [--C c]\n" \
	"                [--C-grid lo..hi] [--cv-folds k] [--first-run r] [--folds k]\n" \
	"                [--label name] [--pool how] [--progress] [--runs n]\n" \
	"                [--task node|graph] [--tensor name] [--test-fraction x]\n" \
	"                [--train-per-class n] [file ...]"

enum {
	OPT_C = COPT_FIRST_TOOL, OPT_C_GRID, OPT_CV_FOLDS, OPT_FIRST_RUN, OPT_FOLDS, OPT_LABEL,
	OPT_POOL, OPT_RUNS, OPT_TASK, OPT_TENSOR, OPT_TEST_FRACTION, OPT_TRAIN_PER_CLASS
};
enum { TASK_NODE, TASK_GRAPH };
static const char *const tasks[] = { "node", "graph", NULL };
static const char *const pools[] = { "none", "mean", "max", "sum", "meanmax", NULL };
#define MAX_CLASS 1000000	/* gcn-adapt's bound on a class index */
#define MAX_WIDTH (1 << 24)	/* values per vector (LIBLINEAR's indices are int) */

struct opts {
	struct copt c;
	struct probe_opts p;
	const char *tensor, *label;
	int task, pool, runs, folds;
	int first_run;		/* --first-run: the runs are first_run.. */
	int64_t per_class;	/* --train-per-class, or 0: --test-fraction */
	double test_fraction;
	const char *fixed_by;	/* the first option that only a chosen C takes */
	int pool_set, runs_set, frac_set, C_set;
};

/* What the input gives: the items' vectors and classes. */
struct input {
	struct gs_reader rd;
	double *X;		/* (n x D) */
	int32_t *y;		/* (n) */
	int64_t n, cap;
	int D, C;
	char dataset[128];
	gs_rec attrs;		/* the attributes of the (first) vector tensor */
	int ngraphs;
	int32_t graph_n;	/* node task: the graph record's nodes (-1: none) */
	double *tmp;		/* graph task: one graph's rows */
};

static void
usage(FILE *f, const struct opts *o)
{
	fprintf(f,
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
		o->p.grid_lo, o->p.grid_hi, o->p.cv_folds, o->label, o->c.level, o->runs,
		o->tensor, o->test_fraction);
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
			  "runs", o->frac_set ? "test-fraction" : "train-per-class");
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
	if (o->pool_set && o->task != TASK_GRAPH)
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
	o->c.seed_set = 1;	/* the default seed is a seed: the pg record shows it */
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
			opt_range_double(optarg, 1e-9, 1e9, "--C-grid", &o->p.grid_lo, &o->p.grid_hi);
			o->fixed_by = o->fixed_by ? o->fixed_by : "--C-grid";
			break;
		case OPT_CV_FOLDS:
			o->p.cv_folds = (int)opt_ll(optarg, 2, 100, "--cv-folds");
			o->fixed_by = o->fixed_by ? o->fixed_by : "--cv-folds";
			break;
		case OPT_FIRST_RUN:
			o->first_run = (int)opt_ll(optarg, 0, 1 << 30, "--first-run");
			break;
		case OPT_FOLDS: o->folds = (int)opt_ll(optarg, 2, 1000, "--folds"); break;
		case OPT_LABEL: o->label = name_arg(optarg, "--label"); break;
		case OPT_POOL:
			o->pool = opt_keyword(optarg, pools, "--pool");
			o->pool_set = 1;
			break;
		case OPT_RUNS:
			o->runs = (int)opt_ll(optarg, 1, 100000, "--runs");
			o->runs_set = 1;
			break;
		case OPT_TASK: o->task = opt_keyword(optarg, tasks, "--task"); break;
		case OPT_TENSOR: o->tensor = name_arg(optarg, "--tensor"); break;
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

/* ---- input ---- */

/* Element j of tensor r as a double. */
static double
elem(const gs_rec *r, int64_t j)
{
	switch (r->dtype) {
	case GS_F32: return ((const float *)r->data)[j];
	case GS_F64: return ((const double *)r->data)[j];
	case GS_I32: return ((const int32_t *)r->data)[j];
	default: return (double)((const int64_t *)r->data)[j];
	}
}

/* The vector tensor's width, checked against the first one's, and its
 * attributes kept from the first. */
static void
take_width(struct input *in, gs_file *f, const gs_rec *r, int D)
{
	if (r->cols < 1 || r->cols > MAX_WIDTH)
		die("%s: '%s' has %" PRId64 " columns (1..%d)", gs_where(f), r->name, r->cols,
		    MAX_WIDTH);
	if (in->D && D != in->D)
		die("%s: graph %" PRId64 ": '%s' has %d values a row, the first graph's %d",
		    gs_where(f), r->id, r->name, D, in->D);
	if (!in->D)
		for (int i = 0; i < r->nattr; i++)
			gs_attr_set(&in->attrs, r->akey[i], r->aval[i]);
	in->D = D;
}

/* The class of a node or graph: negative = none, refused above MAX_CLASS. */
static int32_t
class_of(gs_file *f, double c, const char *what, int64_t i)
{
	if (c > MAX_CLASS)
		die("%s: %s %" PRId64 ": class %.0f out of range (at most %d)", gs_where(f), what,
		    i, c, MAX_CLASS);
	return c < 0 ? -1 : (int32_t)c;
}

/* Node task: the per-node vectors or the classes (is_label) of the one
 * graph; *vid and *lid: the graph of each so far (-1: none). */
static void
take_node_tensor(struct input *in, const struct opts *o, gs_file *f, const gs_rec *r,
		 int is_label, int64_t *vid, int64_t *lid)
{
	int64_t *id = is_label ? lid : vid, other = is_label ? *vid : *lid;

	if (*id >= 0)
		die("%s: a second '%s' tensor (graph %" PRId64 "): node classification takes "
		    "one graph (--task graph probes graphs)", gs_where(f), r->name, r->id);
	if (other >= 0 && other != r->id)
		die("%s: '%s' is of graph %" PRId64 ", '%s' of graph %" PRId64, gs_where(f),
		    r->name, r->id, is_label ? o->tensor : o->label, other);
	if ((in->graph_n >= 0 && r->rows != in->graph_n) || (other >= 0 && r->rows != in->n))
		die("%s: '%s' has %" PRId64 " rows, the graph %" PRId64 " nodes", gs_where(f),
		    r->name, r->rows, in->graph_n >= 0 ? (int64_t)in->graph_n : in->n);
	*id = r->id;
	in->n = r->rows;
	if (is_label) {
		if (r->cols < 1 || (r->dtype != GS_I32 && r->dtype != GS_I64))
			die("%s: '%s' must be a tensor of integer classes", gs_where(f), r->name);
		in->y = xmallocarray((size_t)r->rows + 1, sizeof *in->y);
		for (int64_t v = 0; v < r->rows; v++)
			in->y[v] = class_of(f, elem(r, v * r->cols), "node", v);
		return;
	}
	take_width(in, f, r, (int)r->cols);
	in->X = xmallocarray((size_t)r->rows + 1, (size_t)in->D * sizeof *in->X);
	for (int64_t j = 0; j < r->rows * r->cols; j++)
		in->X[j] = elem(r, j);
}

static void
read_nodes(struct input *in, const struct opts *o)
{
	gs_rec r;
	int64_t gid = -1, vid = -1, lid = -1;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&in->rd, &r)) > 0) {
		gs_file *f = in->rd.in;
		if (k == GS_GRAPH) {
			if (in->ngraphs++)
				die("%s: a second graph: node classification takes one graph "
				    "(--task graph probes graphs)", gs_where(f));
			if (vid >= 0 || lid >= 0)
				die("%s: a graph after the tensors of graph %" PRId64 ": a graph's "
				    "records follow it", gs_where(f), vid >= 0 ? vid : lid);
			gid = r.id;
			in->graph_n = r.n;
			const char *nm = gs_attr_get(&r, "dataset");
			snprintf(in->dataset, sizeof in->dataset, "%s", nm ? nm : in->rd.path);
		} else if (k == GS_TENSOR && (strcmp(r.name, o->tensor) == 0 ||
					      strcmp(r.name, o->label) == 0)) {
			follows_graph(f, &r, gid);
			take_node_tensor(in, o, f, &r, strcmp(r.name, o->label) == 0, &vid, &lid);
		}
	}
	gs_rec_free(&r);
	if (vid < 0)
		die("no '%s' tensor in the input (gcn-embed writes 'embedding', nodefeat "
		    "'features'; --tensor)", o->tensor);
	if (lid < 0)
		die("graph %" PRId64 ": no '%s' tensor of node classes (--label)", vid, o->label);
	if (!*in->dataset)
		snprintf(in->dataset, sizeof in->dataset, "%s", in->rd.path);
}

/* Graph task: the vector of the graph in hand (item n - 1) from its tensor
 * r, pooled unless --pool none. */
static void
take_graph_vector(struct input *in, const struct opts *o, gs_file *f, const gs_rec *r)
{
	int64_t rows = o->pool == PROBE_POOL_NONE ? 1 : in->graph_n;
	int D = (int)r->cols * (o->pool == PROBE_POOL_MEANMAX ? 2 : 1);

	if (rows == 0)
		die("%s: graph %" PRId64 " has no nodes to pool", gs_where(f), r->id);
	if (r->rows != rows)
		die("%s: graph %" PRId64 ": '%s' is %" PRId64 " x %" PRId64 " for %" PRId32
		    " nodes; %s", gs_where(f), r->id, r->name, r->rows, r->cols, in->graph_n,
		    o->pool == PROBE_POOL_NONE
		    ? "--pool none takes one row a graph" : r->rows == 1
		    ? "one vector a graph? --pool none takes it as it is"
		    : "--pool pools one row a node");
	take_width(in, f, r, D);
	if (in->n > in->cap) {
		in->cap = 2 * in->n;
		in->X = xreallocarray(in->X, (size_t)in->cap, (size_t)D * sizeof *in->X);
	}
	in->tmp = xreallocarray(in->tmp, (size_t)(r->rows * r->cols) + 1, sizeof *in->tmp);
	for (int64_t j = 0; j < r->rows * r->cols; j++)
		in->tmp[j] = elem(r, j);
	double *x = in->X + (size_t)(in->n - 1) * (size_t)D;
	if (o->pool == PROBE_POOL_NONE)
		memcpy(x, in->tmp, (size_t)D * sizeof *x);
	else
		probe_pool(in->tmp, r->rows, (int)r->cols, o->pool, x);
}

/* Graph task: a new graph record r, item in->n. */
static void
new_graph(struct input *in, const gs_rec *r)
{
	if (in->n == 0) {
		const char *nm = gs_attr_get(r, "dataset");
		snprintf(in->dataset, sizeof in->dataset, "%s", nm ? nm : in->rd.path);
	}
	if (in->n % 256 == 0)
		in->y = xreallocarray(in->y, (size_t)in->n + 256, sizeof *in->y);
	in->y[in->n++] = -1;
	in->ngraphs++;
	in->graph_n = r->n;
}

/* Graph task: every graph's vector and class (its label record; none: no
 * class). */
static void
read_graphs(struct input *in, const struct opts *o)
{
	gs_rec r;
	int64_t gid = -1;
	int k, have_vec = 1, have_label = 0;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&in->rd, &r)) > 0) {
		gs_file *f = in->rd.in;
		int vec = k == GS_TENSOR && strcmp(r.name, o->tensor) == 0;
		if (k == GS_GRAPH) {
			if (!have_vec)
				die("%s: graph %" PRId64 " (before this record) has no '%s' tensor",
				    gs_where(f), gid, o->tensor);
			new_graph(in, &r);
			gid = r.id;
			have_vec = have_label = 0;
		} else if (vec || (k == GS_LABEL && strcmp(r.name, o->label) == 0)) {
			if (gid < 0)
				die("%s: a '%s' record before any graph (--task graph: the items are "
				    "the graphs)", gs_where(f), r.name);
			follows_graph(f, &r, gid);
			if (vec ? have_vec++ : have_label++)
				die("%s: graph %" PRId64 " has a second '%s' record", gs_where(f), gid,
				    r.name);
			if (vec)
				take_graph_vector(in, o, f, &r);
			else
				in->y[in->n - 1] = class_of(f, (double)r.value, "graph", gid);
		}
	}
	gs_rec_free(&r);
	if (in->ngraphs == 0)
		die("no graph in the input (--task graph: the items are the graphs)");
	if (!have_vec)
		die("%s: graph %" PRId64 " has no '%s' tensor", in->rd.path, gid, o->tensor);
}

/* The classes: C, and every class splittable.  Says once how many items
 * have none. */
static void
check_classes(struct input *in, const struct opts *o)
{
	static const char *const item[] = { "nodes", "graphs" }, *const one[] = { "node", "graph" };
	int64_t *cnt, m, kinds = 0;

	in->C = 0;
	for (int64_t i = 0; i < in->n; i++)
		if (in->y[i] + 1 > in->C)
			in->C = in->y[i] + 1;
	if (in->C == 0)
		die("no %s has a class (every one is negative or missing: --label)",
		    one[o->task]);
	cnt = xmallocarray((size_t)in->C, sizeof *cnt);
	m = split_class_counts(in->y, in->n, in->C, cnt);
	for (int c = 0; c < in->C; c++) {
		kinds += cnt[c] > 0;
		if (cnt[c] == 1 && !o->folds)
			die("class %d has one item: a hold-out run needs one to train on and one "
			    "to test (give it class -1 to leave it out)", c);
	}
	if (kinds < 2)
		die("one class only among the %s", item[o->task]);
	for (int c = 0; c < in->C && o->folds && !o->c.quiet; c++)
		if (cnt[c] > 0 && cnt[c] < o->folds) {
			warnx_("class %d has %" PRId64 " items, fewer than --folds %d: some folds "
			       "do not test it", c, cnt[c], o->folds);
			break;
		}
	if (m < in->n && !o->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " %s have no class: never trained on or tested",
		       in->n - m, in->n, item[o->task]);
	free(cnt);
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
split(const struct opts *o, const struct probe_data *d, const int *fold, int r,
      int32_t *tr, int64_t *ntr, int32_t *te, int64_t *nte)
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

	if (o->folds) {	/* gcn-adapt's folds */
		gsl_rng *r = rng_new(o->c.seed, SPLIT_FOLD_STREAM);
		fold = xmallocarray((size_t)d->n + 1, sizeof *fold);
		split_folds(d->y, d->n, d->C, o->folds, r, fold);
		gsl_rng_free(r);
	}
#ifdef _OPENMP
	T = omp_get_max_threads() < R ? omp_get_max_threads() : R;
#endif
	probe_ws **ws = xmallocarray((size_t)T, sizeof *ws);
	for (int t = 0; t < T; t++)	/* here: LIBLINEAR's set-up is not thread-safe */
		ws[t] = probe_ws_new(d);
	progress_init(&pr, &o->c);
	progress_start(&pr, "fits", (int64_t)R * ((o->p.C > 0 ? 0 : o->p.cv_folds *
		       probe_grid(&o->p, Cs, 64)) + 1), "%d run%s", R, R == 1 ? "" : "s");
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
			int id = o->first_run + r;	/* the run's number: its draws */
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
write_run(gs_file *out, gs_rec *rec, const struct opts *o, const struct input *in, int r,
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
	for (int i = 0; i < in->attrs.nattr; i++)	/* what was probed, then ours */
		gs_attr_set(rec, in->attrs.akey[i], in->attrs.aval[i]);
	gs_attr_set(rec, "task", tasks[o->task]);
	gs_attr_set(rec, "dataset", in->dataset);
	gs_attr_setf(rec, "classes", "%d", C);
	gs_attr_set(rec, "probe", "logreg");
	gs_attr_set(rec, "tensor", o->tensor);
	gs_attr_setf(rec, "width", "%d", in->D);
	if (o->task == TASK_GRAPH)
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
	struct input in;
	gs_file *out;
	gs_rec rec;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	copt_apply_threads(&o.c);
	openblas_set_num_threads(1);	/* LIBLINEAR's vector operations: the runs are parallel */
	memset(&in, 0, sizeof in);
	gs_rec_init(&in.attrs);
	in.graph_n = -1;
	gs_reader_init(&in.rd, argc - optind, argv + optind);
	if (o.task == TASK_NODE)
		read_nodes(&in, &o);
	else
		read_graphs(&in, &o);
	check_classes(&in, &o);
	struct probe_data d = { .n = in.n, .D = in.D, .X = in.X, .y = in.y, .C = in.C };
	int R = o.folds && !o.runs_set ? o.folds - o.first_run : o.runs;
	int64_t *ntrain = xmallocarray((size_t)R, sizeof *ntrain);
	out = gs_open_out(&o.c, argc, argv);	/* a bad -o fails before the runs */
	gs_reader_write_pg(&in.rd, out);
	struct probe_result *res = run_all(&o, &d, R, ntrain);
	gs_rec_init(&rec);
	for (int r = 0; r < R; r++) {
		write_run(out, &rec, &o, &in, r, &res[r], ntrain[r]);
		probe_result_free(&res[r]);
	}
	gs_close(out);
	gs_rec_free(&rec);
	gs_rec_free(&in.attrs);
	gs_reader_free(&in.rd);
	free(res);
	free(ntrain);
	free(in.X);
	free(in.y);
	free(in.tmp);
	return 0;
}
