/*
 * evalf1 - micro-F1 (and macro-F1, per-class F1, confusion matrices) of the
 * predictions of one or many runs, and their mean and standard deviation
 * (paper section 4).  Manual: man/man1/evalf1.1.  Scores: common/f1.c.
 *
 * Input: streams holding tensor records named "predictions" (gcn-adapt
 * writes them), one per run: the record's id is the run, its columns
 * include "true" and "pred" (class indices), and its attribute classes=C
 * gives the number of classes.  An item whose true class is negative has
 * none (gcn-adapt --predict writes -1 there): it is not scored.
 *
 * --baseline FILE pairs the runs with those of another arm scored on the
 * same splits (the same test items, run by run) and prints the mean of the
 * per-run differences with its paired t-interval (common/f1.h, f1_paired).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "f1.h"
#include "opt.h"
#include "outfile.h"
#include "progress.h"
#include "stream.h"

enum { OPT_NAME = COPT_FIRST_TOOL, OPT_BASELINE, OPT_FORMAT, OPT_PER_CLASS, OPT_CONFUSION };
enum { FMT_TABLE, FMT_TSV, FMT_YAML };
static const char *const formats[] = { "table", "tsv", "yaml", NULL };
/* Most classes scored: a run's confusion matrix holds C x C counts. */
#define MAX_CLASSES 10000
#define MAX_BASELINES 64

#define SYNOPSIS "evalf1 [-q] [-j threads] [-o file] [--baseline file] [--confusion]\n" \
	"              [--format table|tsv|yaml] [--name name] [--per-class] [--progress]\n" \
	"              [file ...]"

struct opts {
	struct copt c;
	const char *name;
	int format, per_class, confusion;
	const char *baseline[MAX_BASELINES];	/* --baseline files */
	int nbase;
};

struct run {
	int64_t id;
	int C;
	char *task, *dataset, *where;
	struct f1 f;
	/* with --baseline: the scored items (item, true class), sorted */
	int64_t *item;
	int32_t *truth;
};

/* The main input's runs paired with one baseline's. */
struct pairing {
	const char *name;
	struct f1_paired micro, macro;
};

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Reads prediction records (gcn-adapt) of one or many runs; prints F1 per run\n"
		"  and the mean and standard deviation over runs.\n"
		"      --baseline FILE     pair the runs with FILE's (the same splits): the mean\n"
		"                          difference and its 95%% paired t-interval (repeatable)\n"
		"      --confusion         print each run's confusion matrix (rows true, columns predicted)\n"
		"      --format F          table (for people), tsv or yaml [table]\n"
		"  -h, --help              this help\n"
		"  -j, --threads N         accepted for uniformity; evalf1 runs on one thread\n"
		"      --name NAME         name of the prediction tensors [predictions]\n"
		"  -o, --output FILE       write to FILE instead of stdout\n"
		"      --per-class         print the F1 of every class\n"
		"      --progress          progress (runs read) even when stderr is not a terminal\n"
		"  -q, --quiet             no warnings or progress\n"
		"  -l, --level; -s, --seed; -t, --text\n"
		"                          refused: evalf1 writes a report, not a stream, and\n"
		"                          draws nothing at random\n"
		"      --version           print the version\n");
}

static void
parse(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = {
		COPT_LONGOPTS,
		{ "baseline", required_argument, NULL, OPT_BASELINE },
		{ "confusion", no_argument, NULL, OPT_CONFUSION },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "per-class", no_argument, NULL, OPT_PER_CLASS },
		{ NULL, 0, NULL, 0 }
	};
	int ch;
	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->name = "predictions";
	opterr = 0;
	while ((ch = getopt_long(argc, argv, COPT_LETTERS, lo, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			copt_exit_ok();
		}
		if (copt_handle(&o->c, ch, optarg))
			continue;
		switch (ch) {
		case OPT_BASELINE:
			if (!*optarg)
				die_usage("--baseline: expected a file of predictions");
			if (o->nbase == MAX_BASELINES)
				die_usage("--baseline: at most %d", MAX_BASELINES);
			o->baseline[o->nbase++] = optarg;
			break;
		case OPT_CONFUSION: o->confusion = 1; break;
		case OPT_PER_CLASS: o->per_class = 1; break;
		case OPT_NAME:
			if (!*optarg || strlen(optarg) >= GS_NAME_MAX)
				die_usage("--name: expected a name of 1..%d characters", GS_NAME_MAX - 1);
			o->name = optarg;
			break;
		case OPT_FORMAT: o->format = opt_keyword(optarg, formats, "--format"); break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (o->c.level_set || o->c.text || o->c.seed_set)
		die_usage("%s: evalf1 writes a report, not a stream, and draws nothing at "
			  "random", o->c.level_set ? "-l" : o->c.text ? "-t" : "-s");
	int stdin_main = optind == argc;
	for (int i = optind; i < argc; i++)
		stdin_main |= strcmp(argv[i], "-") == 0;
	for (int b = 0; b < o->nbase; b++)
		if (strcmp(o->baseline[b], "-") == 0 && stdin_main)
			die_usage("--baseline -: the main input is the standard input already");
}

static char *
dup_attr(const gs_rec *r, const char *key)
{
	const char *a = gs_attr_get(r, key);
	return xstrdup(a ? a : "");
}

/* Labels of column col of a tensor as int32, checked to be whole numbers
 * from 0, or from any negative number when unknown is set (a true class
 * that is not known). */
static int32_t *
labels(gs_file *in, const gs_rec *r, int col, const char *what, int unknown)
{
	int32_t *out = xmallocarray((size_t)r->rows + 1, sizeof *out);
	for (int64_t i = 0; i < r->rows; i++) {
		double x;
		int64_t k = i * r->cols + col;
		switch (r->dtype) {
		case GS_F32: x = ((const float *)r->data)[k]; break;
		case GS_F64: x = ((const double *)r->data)[k]; break;
		case GS_I32: x = ((const int32_t *)r->data)[k]; break;
		default: x = (double)((const int64_t *)r->data)[k]; break;
		}
		if (!((x >= 0 || unknown) && fabs(x) <= INT32_MAX && x == floor(x)))
			die("%s: item %" PRId64 ": %s label %g is not a class index",
			    gs_where(in), i, what, x);
		out[i] = x < 0 ? -1 : (int32_t)x;
	}
	return out;
}

static int
cmp_item(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;	/* (item, class) pairs */
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* --baseline: run u's scored items (true class y[i] >= 0) and their
 * classes, sorted, from the 'item' column of r. */
static void
scored_items(gs_file *in, const gs_rec *r, const int32_t *y, struct run *u)
{
	int ci = gs_tensor_col(r, "item");
	int64_t k = 0, *pair;

	if (ci < 0)
		die("%s: run %" PRId64 " has no 'item' column: --baseline pairs runs on their "
		    "test items", gs_where(in), r->id);
	pair = xmallocarray((size_t)r->rows + 1, 2 * sizeof *pair);
	for (int64_t i = 0; i < r->rows; i++) {
		double x = r->dtype == GS_F32 ? ((const float *)r->data)[i * r->cols + ci]
		    : r->dtype == GS_F64 ? ((const double *)r->data)[i * r->cols + ci]
		    : r->dtype == GS_I32 ? ((const int32_t *)r->data)[i * r->cols + ci]
		    : (double)((const int64_t *)r->data)[i * r->cols + ci];
		if (!(x >= 0 && x <= 9e15 && x == floor(x)))
			die("%s: item %" PRId64 ": 'item' %g is not an item number", gs_where(in), i, x);
		if (y[i] >= 0) {
			pair[2 * k] = (int64_t)x;
			pair[2 * k++ + 1] = y[i];
		}
	}
	qsort(pair, (size_t)k, 2 * sizeof *pair, cmp_item);
	u->item = xmallocarray((size_t)k + 1, sizeof *u->item);
	u->truth = xmallocarray((size_t)k + 1, sizeof *u->truth);
	for (int64_t i = 0; i < k; i++) {
		u->item[i] = pair[2 * i];
		u->truth[i] = (int32_t)pair[2 * i + 1];
	}
	free(pair);
}

static struct run *
read_runs(const struct opts *o, int nfiles, char **files, int *nrun, int want_items)
{
	struct run *runs = NULL;
	int n = 0, cap = 0;
	int64_t skipped = 0, items = 0;	/* items without a true class; all items */
	gs_rec r;
	char msg[512];
	struct progress pr;
	progress_init(&pr, &o->c);
	progress_start(&pr, "runs", 0, NULL);
	gs_rec_init(&r);
	for (int fi = 0; fi < (nfiles ? nfiles : 1); fi++) {
		const char *path = nfiles ? files[fi] : "-";
		gs_file *in = gs_open_in(path, msg, sizeof msg);
		int k;
		if (!in)
			die("%s", msg);
		while ((k = gs_read1(in, &r)) > 0) {
			if (k != GS_TENSOR || strcmp(r.name, o->name) != 0)
				continue;
			int ct = gs_tensor_col(&r, "true"), cp = gs_tensor_col(&r, "pred");
			if (ct < 0 || cp < 0)
				die("%s: '%s' tensor lacks a 'true' or 'pred' column", gs_where(in), o->name);
			if (r.rows == 0)
				die("%s: run %" PRId64 " has no predictions", gs_where(in), r.id);
			for (int i = 0; i < n; i++)
				if (runs[i].id == r.id)
					die("%s: run %" PRId64 " appears twice (first at %s)",
					    gs_where(in), r.id, runs[i].where);
			int32_t *y = labels(in, &r, ct, "true", 1), *p = labels(in, &r, cp, "predicted", 0);
			struct run sc = { 0 };
			if (want_items)
				scored_items(in, &r, y, &sc);
			int64_t rows = f1_known(y, p, r.rows);
			skipped += r.rows - rows;
			items += r.rows;
			if (rows == 0)
				die("%s: run %" PRId64 ": no item has a true class (all %" PRId64
				    " are negative)", gs_where(in), r.id, r.rows);
			const char *cs = gs_attr_get(&r, "classes");
			long long C = 0;
			if (cs) {
				char *end;
				errno = 0;
				C = strtoll(cs, &end, 10);
				if (errno || *end || C < 1 || C > MAX_CLASSES)
					die("%s: classes=%s is not a class count (1..%d)", gs_where(in),
					    cs, MAX_CLASSES);
			} else {
				for (int64_t i = 0; i < rows; i++) {
					long long c = (y[i] > p[i] ? y[i] : p[i]) + 1LL;
					if (c > MAX_CLASSES)
						die("%s: item %" PRId64 ": class %lld: more than %d "
						    "classes", gs_where(in), i, c - 1, MAX_CLASSES);
					if (c > C)
						C = c;
				}
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				runs = xreallocarray(runs, (size_t)cap, sizeof *runs);
			}
			struct run *u = &runs[n++];
			int64_t bad;
			u->id = r.id;
			u->C = (int)C;
			u->task = dup_attr(&r, "task");
			u->dataset = dup_attr(&r, "dataset");
			u->where = xstrdup(gs_where(in));
			u->item = sc.item;
			u->truth = sc.truth;
			f1_init(&u->f);
			if (f1_compute(&u->f, y, p, rows, (int)C, &bad) != 0)
				die("%s: item %" PRId64 ": class %" PRId32 " or %" PRId32
				    " outside 0..%lld", gs_where(in), bad, y[bad], p[bad], C - 1);
			free(y);
			free(p);
			progress_update(&pr, n);
			/* every run must score the same thing */
			if (u->C != runs[0].C || strcmp(u->task, runs[0].task) != 0 ||
			    strcmp(u->dataset, runs[0].dataset) != 0)
				die("%s: run %" PRId64 " (task '%s', dataset '%s', %d classes) does not match "
				    "run %" PRId64 " (task '%s', dataset '%s', %d classes)", gs_where(in),
				    u->id, u->task, u->dataset, u->C, runs[0].id, runs[0].task,
				    runs[0].dataset, runs[0].C);
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	progress_done(&pr);
	gs_rec_free(&r);
	if (n == 0)
		die("no '%s' records in the input (gcn-adapt writes them)", o->name);
	if (skipped > 0 && !o->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " items have no true class (negative): not scored",
		       skipped, items);
	/* runs in id order */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && runs[j - 1].id > runs[j].id; j--) {
			struct run t = runs[j];
			runs[j] = runs[j - 1];
			runs[j - 1] = t;
		}
	*nrun = n;
	return runs;
}

static void
free_runs(struct run *R, int n)
{
	for (int i = 0; i < n; i++) {
		f1_free(&R[i].f);
		free(R[i].task);
		free(R[i].dataset);
		free(R[i].where);
		free(R[i].item);
		free(R[i].truth);
	}
	free(R);
}

/* Run a of the main input and run b of the baseline scored the same items
 * with the same true classes? Dies naming the first difference. */
static void
same_split(const char *path, const struct run *a, const struct run *b)
{
	int64_t i = 0, m = a->f.n < b->f.n ? a->f.n : b->f.n;

	while (i < m && a->item[i] == b->item[i] && a->truth[i] == b->truth[i])
		i++;
	if (i == m && a->f.n == b->f.n)
		return;
	if (i == m)
		die("%s: run %" PRId64 " scores %" PRId64 " items, the main input's %" PRId64
		    ": not the same splits", path, b->id, b->f.n, a->f.n);
	die("%s: run %" PRId64 ": item %" PRId64 " (class %" PRId32 ") where the main input "
	    "has item %" PRId64 " (class %" PRId32 "): not the same splits", path, b->id,
	    b->item[i], b->truth[i], a->item[i], a->truth[i]);
}

/* The main input's runs R[0..n) paired with those of baseline path. */
static void
pair_with(const struct opts *o, const char *path, const struct run *R, int n,
	  struct pairing *P)
{
	char *files[1] = { (char *)path };
	int nb;
	struct run *B = read_runs(o, 1, files, &nb, 1);
	double *a = xmallocarray((size_t)n, 2 * sizeof *a), *b = xmallocarray((size_t)n, 2 * sizeof *b);

	if (B[0].C != R[0].C || strcmp(B[0].task, R[0].task) != 0)
		die("%s: task '%s', %d classes; the main input's: task '%s', %d classes", path,
		    B[0].task, B[0].C, R[0].task, R[0].C);
	/* a dataset's name may be a file name (gcn-adapt, linprobe): the items
	 * decide, and a difference is said */
	if (strcmp(B[0].dataset, R[0].dataset) != 0 && !o->c.quiet)
		warnx_("%s: dataset '%s', the main input's '%s': paired on their items", path,
		       B[0].dataset, R[0].dataset);
	for (int i = 0; i < n || i < nb; i++) {	/* both in run order */
		if (i >= nb || i >= n || B[i].id != R[i].id)
			die("%s: run %" PRId64 " is in one input only (the main input has %d runs, "
			    "the baseline %d): not the same splits", path, i >= nb ? R[i].id
			    : i >= n ? B[i].id : R[i].id < B[i].id ? R[i].id : B[i].id, n, nb);
		same_split(path, &R[i], &B[i]);
		a[i] = R[i].f.micro;
		b[i] = B[i].f.micro;
		a[n + i] = R[i].f.macro;
		b[n + i] = B[i].f.macro;
	}
	P->name = path;
	f1_paired(a, b, n, &P->micro);
	f1_paired(a + n, b + n, n, &P->macro);
	free(a);
	free(b);
	free_runs(B, nb);
}

/* One metric's paired line: table (percent), tsv or yaml. */
static void
paired_line(FILE *f, const struct opts *o, const char *base, const char *metric,
	    const struct f1_paired *p)
{
	const char *gain = p->n < 2 ? "n/a" : p->gain ? "yes" : "no";

	if (o->format == FMT_TSV) {
		fprintf(f, "%s\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\n", base, metric,
			p->n, p->mean_a, p->mean_b, p->mean, p->sd, p->lo, p->hi, gain);
	} else if (o->format == FMT_YAML) {
		fprintf(f, "    %s: {mean: %.6f, baseline_mean: %.6f, diff_mean: %.6f, ", metric,
			p->mean_a, p->mean_b, p->mean);
		if (p->n < 2)
			fprintf(f, "diff_sd: .nan, ci95: null, gain: null}\n");
		else
			fprintf(f, "diff_sd: %.6f, ci95: [%.6f, %.6f], gain: %s}\n", p->sd, p->lo,
				p->hi, p->gain ? "true" : "false");
	} else if (p->n < 2) {
		fprintf(f, "  %-9s %7.2f %9.2f %+8.2f   one run: no interval (two runs or more)\n",
			metric, 100 * p->mean_a, 100 * p->mean_b, 100 * p->mean);
	} else {
		fprintf(f, "  %-9s %7.2f %9.2f %+8.2f %8.2f   [%+6.2f, %+6.2f]  %s\n", metric,
			100 * p->mean_a, 100 * p->mean_b, 100 * p->mean, 100 * p->sd, 100 * p->lo,
			100 * p->hi, gain);
	}
}

/* The paired comparisons, after the report (table, yaml) or alone (tsv). */
static void
report_paired(FILE *f, const struct opts *o, const struct pairing *P, int np)
{
	if (o->format == FMT_TSV)
		fprintf(f, "baseline\tmetric\truns\tmean\tbaseline_mean\tdiff_mean\tdiff_sd\t"
			"ci95_low\tci95_high\tgain\n");
	else if (o->format == FMT_YAML)
		fprintf(f, "paired:\n");
	for (int b = 0; b < np; b++) {
		if (o->format == FMT_TABLE)
			fprintf(f, "\npaired with %s, %d run%s (difference = this input - baseline, "
				"in %%):\n  %-9s %7s %9s %8s %8s   %-16s  %s\n", P[b].name, P[b].micro.n,
				P[b].micro.n == 1 ? "" : "s", "metric", "mean", "baseline", "diff", "sd",
				"95% t-interval", "gain");
		else if (o->format == FMT_YAML)
			fprintf(f, "  - baseline: \"%s\"\n    runs: %d\n", P[b].name, P[b].micro.n);
		paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "micro-F1" : "micro_f1",
			    &P[b].micro);
		paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "macro-F1" : "macro_f1",
			    &P[b].macro);
	}
}

static void
report(FILE *f, const struct opts *o, const struct run *R, int n)
{
	double *mi = xmallocarray((size_t)n, sizeof *mi), *ma = xmallocarray((size_t)n, sizeof *ma);
	double mim, mis, mam, mas;
	int C = R[0].C;
	for (int i = 0; i < n; i++) {
		mi[i] = R[i].f.micro;
		ma[i] = R[i].f.macro;
	}
	f1_mean_std(mi, n, &mim, &mis);
	f1_mean_std(ma, n, &mam, &mas);

	if (o->format == FMT_YAML) {
		fprintf(f, "task: \"%s\"\ndataset: \"%s\"\nclasses: %d\nruns: %d\n", R[0].task,
			R[0].dataset, C, n);
		fprintf(f, "micro_f1: {mean: %.6f, std: %.6f}\nmacro_f1: {mean: %.6f, std: %.6f}\n",
			mim, mis, mam, mas);
		fprintf(f, "per_run:\n");
		for (int i = 0; i < n; i++) {
			fprintf(f, "  - {run: %" PRId64 ", items: %" PRId64 ", micro_f1: %.6f, macro_f1: %.6f",
				R[i].id, R[i].f.n, R[i].f.micro, R[i].f.macro);
			if (o->per_class) {
				fprintf(f, ", per_class: [");
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c]) ? fprintf(f, "%s.nan", c ? ", " : "")
					    : fprintf(f, "%s%.6f", c ? ", " : "", R[i].f.per_class[c]);
				fprintf(f, "]");
			}
			if (o->confusion) {
				fprintf(f, ", confusion: [");
				for (int t = 0; t < C; t++) {
					fprintf(f, "%s[", t ? ", " : "");
					for (int p = 0; p < C; p++)
						fprintf(f, "%s%" PRId64, p ? ", " : "", R[i].f.conf[(int64_t)t * C + p]);
					fprintf(f, "]");
				}
				fprintf(f, "]");
			}
			fprintf(f, "}\n");
		}
	} else if (o->format == FMT_TSV) {
		fprintf(f, "run\titems\tmicro_f1\tmacro_f1");
		if (o->per_class)
			for (int c = 0; c < C; c++)
				fprintf(f, "\tf1_class%d", c);
		fprintf(f, "\n");
		for (int i = 0; i < n; i++) {
			fprintf(f, "%" PRId64 "\t%" PRId64 "\t%.6f\t%.6f", R[i].id, R[i].f.n,
				R[i].f.micro, R[i].f.macro);
			if (o->per_class)
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c]) ? fprintf(f, "\tnan")
					    : fprintf(f, "\t%.6f", R[i].f.per_class[c]);
			fprintf(f, "\n");
		}
		fprintf(f, "mean\t\t%.6f\t%.6f\nstd\t\t%.6f\t%.6f\n", mim, mam, mis, mas);
	} else {
		if (*R[0].task || *R[0].dataset)
			fprintf(f, "%s%s%s, ", R[0].dataset, *R[0].task ? " " : "", R[0].task);
		fprintf(f, "%d classes, %d run%s\n\n", C, n, n == 1 ? "" : "s");
		fprintf(f, "%5s %8s %9s %9s\n", "run", "items", "micro-F1", "macro-F1");
		for (int i = 0; i < n; i++) {
			fprintf(f, "%5" PRId64 " %8" PRId64 " %9.2f %9.2f", R[i].id, R[i].f.n,
				100 * R[i].f.micro, 100 * R[i].f.macro);
			if (o->per_class) {
				fprintf(f, "   per class:");
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c]) ? fprintf(f, "     -")
					    : fprintf(f, " %5.1f", 100 * R[i].f.per_class[c]);
			}
			fprintf(f, "\n");
			if (o->confusion) {
				for (int t = 0; t < C; t++) {
					fprintf(f, "%15s", t == 0 ? "true\\pred" : "");
					fprintf(f, " %3d:", t);
					for (int p = 0; p < C; p++)
						fprintf(f, " %6" PRId64, R[i].f.conf[(int64_t)t * C + p]);
					fprintf(f, "\n");
				}
			}
		}
		fprintf(f, "\nmicro-F1 %.2f ± %.2f   macro-F1 %.2f ± %.2f   (mean ± std over %d run%s, in %%)\n",
			100 * mim, 100 * mis, 100 * mam, 100 * mas, n, n == 1 ? "" : "s");
	}
	free(mi);
	free(ma);
}

int
main(int argc, char **argv)
{
	struct opts o;
	int n;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	struct run *R = read_runs(&o, argc - optind, argv + optind, &n, o.nbase > 0);

	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		die("out of memory");
	struct pairing P[MAX_BASELINES];
	for (int b = 0; b < o.nbase; b++)
		pair_with(&o, o.baseline[b], R, n, &P[b]);
	if (o.nbase == 0 || o.format != FMT_TSV)
		report(mem, &o, R, n);
	if (o.nbase)
		report_paired(mem, &o, P, o.nbase);
	if (fclose(mem) != 0)
		die("out of memory");

	if (o.c.output && strcmp(o.c.output, "-") != 0) {
		char *tmp;
		int fd = outfile_open(o.c.output, &tmp);
		FILE *f = fdopen(fd, "w");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0)
			die("%s: %s", o.c.output, strerror(errno));
		outfile_commit(o.c.output, tmp);
	} else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0 || ferror(stdout))
		die("<stdout>: %s", strerror(errno ? errno : EIO));
	free(buf);
	free_runs(R, n);
	return 0;
}
