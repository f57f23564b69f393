/*
 * evalf1 - micro-F1 (and macro-F1, per-class F1, confusion matrices) of the
 * predictions of one or many runs, and their mean and standard deviation
 * (paper section 4).  Manual: man/man1/evalf1.1.  Scores: common/f1.c.
 *
 * Input: streams holding tensor records named "predictions" (gcn-adapt
 * writes them), one per run: the record's id is the run, its columns
 * include "true" and "pred" (class indices), and its attribute classes=C
 * gives the number of classes.  An item whose true class is negative has
 * none (gcn-adapt --predict writes -1 there): it is not scored.  The
 * records are checked and scored by common/evalrun.c.
 *
 * --baseline FILE pairs the runs with those of another arm scored on the
 * same splits (the same test items, run by run) and prints the mean of the
 * per-run differences with its paired t-interval (common/f1.h, f1_paired).
 *
 * Binary runs ranked by a score (gcn-adapt --task linkpred's, or any with
 * --auc) also get the AUC and the average precision (common/auc.c), in
 * the report and in the paired comparison.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "err.h"
#include "evalrun.h"
#include "f1.h"
#include "opt.h"
#include "outfile.h"
#include "progress.h"
#include "stream.h"

enum {
	OPT_NAME = COPT_FIRST_TOOL,
	OPT_BASELINE,
	OPT_FORMAT,
	OPT_PER_CLASS,
	OPT_CONFUSION,
	OPT_AUC
};
enum { FMT_TABLE, FMT_TSV, FMT_YAML };
static const char *const formats[] = { "table", "tsv", "yaml", NULL };
#define MAX_BASELINES 64

#define SYNOPSIS \
	"evalf1 [-q] [-j threads] [-o file] [--auc] [--baseline file] [--confusion]\n" \
	"              [--format table|tsv|yaml] [--name name] [--per-class] [--progress]\n" \
	"              [file ...]"

struct opts {
	struct copt c;
	const char *name;
	int format, per_class, confusion, auc;
	const char *baseline[MAX_BASELINES]; /* --baseline files */
	int nbase;
};

/* The main input's runs paired with one baseline's. */
struct pairing {
	const char *name;
	struct f1_paired micro, macro, auc, ap; /* auc, ap: ranked runs */
};

static void
usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "  Reads prediction records (gcn-adapt) of one or many runs; prints F1 per run\n"
	    "  and the mean and standard deviation over runs.\n"
	    "      --auc               also the AUC and average precision of binary runs,\n"
	    "                          ranked by their score (or score_1) column; always for\n"
	    "                          gcn-adapt --task linkpred\n"
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
	static const struct option lo[] = { COPT_LONGOPTS,
					    { "auc", no_argument, NULL, OPT_AUC },
					    { "baseline", required_argument, NULL, OPT_BASELINE },
					    { "confusion", no_argument, NULL, OPT_CONFUSION },
					    { "format", required_argument, NULL, OPT_FORMAT },
					    { "name", required_argument, NULL, OPT_NAME },
					    { "per-class", no_argument, NULL, OPT_PER_CLASS },
					    { NULL, 0, NULL, 0 } };
	int ch;
	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->name = "predictions";
	while ((ch = copt_next(&o->c, argc, argv, COPT_LETTERS, lo)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			copt_exit_ok();
		case OPT_AUC:
			o->auc = 1;
			break;
		case OPT_BASELINE:
			if (!*optarg)
				die_usage("--baseline: expected a file of predictions");
			if (o->nbase == MAX_BASELINES)
				die_usage("--baseline: at most %d", MAX_BASELINES);
			o->baseline[o->nbase++] = optarg;
			break;
		case OPT_CONFUSION:
			o->confusion = 1;
			break;
		case OPT_PER_CLASS:
			o->per_class = 1;
			break;
		case OPT_NAME:
			o->name = opt_name(optarg, GS_NAME_MAX, "--name");
			break;
		case OPT_FORMAT:
			o->format = opt_keyword(optarg, formats, "--format");
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	copt_no_stream(&o->c, "evalf1 writes a report");
	int stdin_main = optind == argc;
	for (int i = optind; i < argc; i++)
		stdin_main |= strcmp(argv[i], "-") == 0;
	for (int b = 0; b < o->nbase; b++)
		if (strcmp(o->baseline[b], "-") == 0 && stdin_main)
			die_usage("--baseline -: the main input is the standard input already");
}

/* An interrupted gcn-adapt's predictions: not all the runs asked for.
 * Said whatever -q: scores of the runs that finished are not those of
 * the experiment. */
static void
say_partial(const char *path, const gs_rec *r)
{
	const char *done = gs_attr_get(r, "runs_done"), *runs = gs_attr_get(r, "runs"),
		   *sig = gs_attr_get(r, "signal");

	warnx_("%s: partial: its runs were interrupted%s%s%s after %.20s of %.20s runs; the "
	       "scores are of those that finished",
	       strcmp(path, "-") == 0 ? "<stdin>" : path, sig ? " (" : "", sig ? sig : "",
	       sig ? ")" : "", done ? done : "?", runs ? runs : "?");
}

/* The runs of every input, in id order (dies on a bad record); with
 * want_items, each run's scored items too (--baseline). */
static void
read_runs(const struct opts *o, int nfiles, char **files, int want_items, struct eval_runs *rs)
{
	gs_rec r;
	char msg[8192]; /* a message quotes two runs' task and dataset */
	struct progress pr;
	progress_init(&pr, &o->c);
	progress_start(&pr, "runs", 0, NULL);
	gs_rec_init(&r);
	eval_runs_init(rs);
	rs->want_items = want_items;
	rs->want_auc = o->auc;
	for (int fi = 0; fi < (nfiles ? nfiles : 1); fi++) {
		const char *path = nfiles ? files[fi] : "-";
		gs_file *in = gs_open_in(path, msg, sizeof msg);
		int k;
		if (!in)
			die("%s", msg);
		while ((k = gs_read1(in, &r)) > 0) {
			if (k == GS_TENSOR && strcmp(r.name, EVAL_PARTIAL_NAME) == 0)
				say_partial(path, &r);
			if (k != GS_TENSOR || strcmp(r.name, o->name) != 0)
				continue;
			if (eval_runs_add(rs, &r, gs_where(in), msg, sizeof msg) != 0)
				die("%s", msg);
			progress_update(&pr, rs->n);
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	progress_done(&pr);
	gs_rec_free(&r);
	if (rs->n == 0)
		die("no '%s' records in the input (gcn-adapt writes them)", o->name);
	if (rs->skipped > 0 && !o->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " items have no true class (negative): not scored",
		       rs->skipped, rs->items);
	eval_runs_sort(rs);
}

/* Run a of the main input and run b of the baseline scored the same items
 * with the same true classes? Dies naming the first difference. */
static void
same_split(const char *path, const struct eval_run *a, const struct eval_run *b)
{
	int64_t i = 0, m = a->f.n < b->f.n ? a->f.n : b->f.n;

	while (i < m && a->item[i] == b->item[i] && a->truth[i] == b->truth[i])
		i++;
	if (i == m && a->f.n == b->f.n)
		return;
	if (i == m)
		die("%s: run %" PRId64 " scores %" PRId64 " items, the main input's %" PRId64
		    ": not the same splits",
		    path, b->id, b->f.n, a->f.n);
	die("%s: run %" PRId64 ": item %" PRId64 " (class %" PRId32 ") where the main input "
	    "has item %" PRId64 " (class %" PRId32 "): not the same splits",
	    path, b->id, b->item[i], b->truth[i], a->item[i], a->truth[i]);
}

/* The main input's runs R[0..n) paired with those of baseline path. */
static void
pair_with(const struct opts *o, const char *path, const struct eval_run *R, int n,
	  struct pairing *P)
{
	char *files[1] = { (char *)path };
	struct eval_runs base;
	read_runs(o, 1, files, 1, &base);
	const struct eval_run *B = base.r;
	int nb = base.n;
	double *a = xmallocarray((size_t)n, 4 * sizeof *a),
	       *b = xmallocarray((size_t)n, 4 * sizeof *b);

	if (B[0].C != R[0].C || strcmp(B[0].task, R[0].task) != 0)
		die("%s: task '%s', %d classes; the main input's: task '%s', %d classes", path,
		    B[0].task, B[0].C, R[0].task, R[0].C);
	/* a dataset's name may be a file name (gcn-adapt, linprobe): the items
	 * decide, and a difference is said */
	if (strcmp(B[0].dataset, R[0].dataset) != 0 && !o->c.quiet)
		warnx_("%s: dataset '%s', the main input's '%s': paired on their items", path,
		       B[0].dataset, R[0].dataset);
	for (int i = 0; i < n || i < nb; i++) { /* both in run order */
		if (i >= nb || i >= n || B[i].id != R[i].id)
			die("%s: run %" PRId64 " is in one input only (the main input has %d runs, "
			    "the baseline %d): not the same splits",
			    path,
			    i >= nb		? R[i].id
			    : i >= n		? B[i].id
			    : R[i].id < B[i].id ? R[i].id
						: B[i].id,
			    n, nb);
		same_split(path, &R[i], &B[i]);
		a[i] = R[i].f.micro;
		b[i] = B[i].f.micro;
		a[n + i] = R[i].f.macro;
		b[n + i] = B[i].f.macro;
		a[2 * n + i] = R[i].auc;
		b[2 * n + i] = B[i].auc;
		a[3 * n + i] = R[i].ap;
		b[3 * n + i] = B[i].ap;
	}
	P->name = path;
	f1_paired(a, b, n, &P->micro);
	f1_paired(a + n, b + n, n, &P->macro);
	f1_paired(a + 2 * n, b + 2 * n, n, &P->auc); /* NaN unless ranked: not printed */
	f1_paired(a + 3 * n, b + 3 * n, n, &P->ap);
	free(a);
	free(b);
	eval_runs_free(&base);
}

/* "classes: 0 c, 1 l, 2 n" from a class_names= list of C names (a list
 * of another length, a name with a comma in it, is not printed). */
static void
print_class_names(FILE *f, const char *cn, int C)
{
	int k = 1;

	for (const char *c = cn; *c; c++)
		k += *c == ',';
	if (k != C)
		return;
	fprintf(f, "classes: 0 ");
	k = 0;
	for (const char *c = cn; *c; c++)
		if (*c == ',')
			fprintf(f, ", %d ", ++k);
		else
			fputc(*c, f);
	fprintf(f, "\n");
}

/* One metric's paired line: table (percent), tsv or yaml. */
static void
paired_line(FILE *f, const struct opts *o, const char *base, const char *metric,
	    const struct f1_paired *p)
{
	const char *verdict = p->n < 2	? "n/a"
			      : p->gain ? "gain"
			      : p->loss ? "loss"
					: "no clear difference";

	if (o->format == FMT_TSV) {
		fprintf(f, "%s\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\n", base, metric,
			p->n, p->mean_a, p->mean_b, p->mean, p->sd, p->lo, p->hi, verdict);
	} else if (o->format == FMT_YAML) {
		fprintf(f, "    %s: {mean: %.6f, baseline_mean: %.6f, diff_mean: %.6f, ", metric,
			p->mean_a, p->mean_b, p->mean);
		if (p->n < 2)
			fprintf(f, "diff_sd: .nan, ci95: null, verdict: null}\n");
		else
			fprintf(f, "diff_sd: %.6f, ci95: [%.6f, %.6f], verdict: %s}\n", p->sd,
				p->lo, p->hi, verdict);
	} else if (p->n < 2) {
		fprintf(f, "  %-9s %7.2f %9.2f %+8.2f   one run: no interval (two runs or more)\n",
			metric, 100 * p->mean_a, 100 * p->mean_b, 100 * p->mean);
	} else {
		fprintf(f, "  %-9s %7.2f %9.2f %+8.2f %8.2f   [%+6.2f, %+6.2f]  %s\n", metric,
			100 * p->mean_a, 100 * p->mean_b, 100 * p->mean, 100 * p->sd, 100 * p->lo,
			100 * p->hi, verdict);
	}
}

/* The paired comparisons, after the report (table, yaml) or alone (tsv). */
static void
report_paired(FILE *f, const struct opts *o, const struct pairing *P, int np, int ranked)
{
	if (o->format == FMT_TSV)
		fprintf(f, "baseline\tmetric\truns\tmean\tbaseline_mean\tdiff_mean\tdiff_sd\t"
			   "ci95_low\tci95_high\tverdict\n");
	else if (o->format == FMT_YAML)
		fprintf(f, "paired:\n");
	for (int b = 0; b < np; b++) {
		if (o->format == FMT_TABLE)
			fprintf(f,
				"\npaired with %s, %d run%s (difference = this input - baseline, "
				"in %%):\n  %-9s %7s %9s %8s %8s   %-16s  %s\n",
				P[b].name, P[b].micro.n, P[b].micro.n == 1 ? "" : "s", "metric",
				"mean", "baseline", "diff", "sd", "95% t-interval", "verdict");
		else if (o->format == FMT_YAML) {
			char *name = cfg_quote(P[b].name);
			fprintf(f, "  - baseline: %s\n    runs: %d\n", name, P[b].micro.n);
			free(name);
		}
		paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "micro-F1" : "micro_f1",
			    &P[b].micro);
		paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "macro-F1" : "macro_f1",
			    &P[b].macro);
		if (ranked) {
			paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "AUC" : "auc",
				    &P[b].auc);
			paired_line(f, o, P[b].name, o->format == FMT_TABLE ? "AP" : "ap",
				    &P[b].ap);
		}
	}
}

/* Ranked runs: the mean and standard deviation of the AUC (m[0], s[0])
 * and of the AP (m[1], s[1]). */
static void
ranked_stats(const struct eval_run *R, int n, double m[2], double s[2])
{
	double *x = xmallocarray((size_t)n, 2 * sizeof *x);
	for (int i = 0; i < n; i++) {
		x[i] = R[i].auc;
		x[n + i] = R[i].ap;
	}
	f1_mean_std(x, n, &m[0], &s[0]);
	f1_mean_std(x + n, n, &m[1], &s[1]);
	free(x);
}

static void
report(FILE *f, const struct opts *o, const struct eval_run *R, int n)
{
	double *mi = xmallocarray((size_t)n, sizeof *mi), *ma = xmallocarray((size_t)n, sizeof *ma);
	double mim, mis, mam, mas, rm[2], rs[2];
	int C = R[0].C, rk = R[0].ranked;
	for (int i = 0; i < n; i++) {
		mi[i] = R[i].f.micro;
		ma[i] = R[i].f.macro;
	}
	f1_mean_std(mi, n, &mim, &mis);
	f1_mean_std(ma, n, &mam, &mas);
	if (rk)
		ranked_stats(R, n, rm, rs);

	if (o->format == FMT_YAML) {
		/* the attributes are data: quoted and escaped, so the YAML holds */
		char *task = cfg_quote(R[0].task), *dataset = cfg_quote(R[0].dataset);
		fprintf(f, "task: %s\ndataset: %s\nclasses: %d\n", task, dataset, C);
		if (*R[0].class_names) {
			char *q = cfg_quote(R[0].class_names);
			fprintf(f, "class_names: %s\n", q);
			free(q);
		}
		fprintf(f, "runs: %d\n", n);
		free(task);
		free(dataset);
		fprintf(f, "micro_f1: {mean: %.6f, std: %.6f}\nmacro_f1: {mean: %.6f, std: %.6f}\n",
			mim, mis, mam, mas);
		if (rk)
			fprintf(f, "auc: {mean: %.6f, std: %.6f}\nap: {mean: %.6f, std: %.6f}\n",
				rm[0], rs[0], rm[1], rs[1]);
		fprintf(f, "per_run:\n");
		for (int i = 0; i < n; i++) {
			fprintf(f,
				"  - {run: %" PRId64 ", items: %" PRId64
				", micro_f1: %.6f, macro_f1: %.6f",
				R[i].id, R[i].f.n, R[i].f.micro, R[i].f.macro);
			if (rk)
				fprintf(f, ", auc: %.6f, ap: %.6f", R[i].auc, R[i].ap);
			if (o->per_class) {
				fprintf(f, ", per_class: [");
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c])
					    ? fprintf(f, "%s.nan", c ? ", " : "")
					    : fprintf(f, "%s%.6f", c ? ", " : "",
						      R[i].f.per_class[c]);
				fprintf(f, "]");
			}
			if (o->confusion) {
				fprintf(f, ", confusion: [");
				for (int t = 0; t < C; t++) {
					fprintf(f, "%s[", t ? ", " : "");
					for (int p = 0; p < C; p++)
						fprintf(f, "%s%" PRId64, p ? ", " : "",
							f1_conf(&R[i].f, t, p));
					fprintf(f, "]");
				}
				fprintf(f, "]");
			}
			fprintf(f, "}\n");
		}
	} else if (o->format == FMT_TSV) {
		fprintf(f, "run\titems\tmicro_f1\tmacro_f1%s", rk ? "\tauc\tap" : "");
		if (o->per_class)
			for (int c = 0; c < C; c++)
				fprintf(f, "\tf1_class%d", c);
		fprintf(f, "\n");
		for (int i = 0; i < n; i++) {
			fprintf(f, "%" PRId64 "\t%" PRId64 "\t%.6f\t%.6f", R[i].id, R[i].f.n,
				R[i].f.micro, R[i].f.macro);
			if (rk)
				fprintf(f, "\t%.6f\t%.6f", R[i].auc, R[i].ap);
			if (o->per_class)
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c])
					    ? fprintf(f, "\tnan")
					    : fprintf(f, "\t%.6f", R[i].f.per_class[c]);
			fprintf(f, "\n");
		}
		if (rk)
			fprintf(f,
				"mean\t\t%.6f\t%.6f\t%.6f\t%.6f\nstd\t\t%.6f\t%.6f\t%.6f\t%.6f\n",
				mim, mam, rm[0], rm[1], mis, mas, rs[0], rs[1]);
		else
			fprintf(f, "mean\t\t%.6f\t%.6f\nstd\t\t%.6f\t%.6f\n", mim, mam, mis, mas);
	} else {
		if (*R[0].task || *R[0].dataset)
			fprintf(f, "%s%s%s, ", R[0].dataset, *R[0].task ? " " : "", R[0].task);
		fprintf(f, "%d classes, %d run%s\n", C, n, n == 1 ? "" : "s");
		if (*R[0].class_names) /* gnnstream(5): "a,b,c", class 0 first */
			print_class_names(f, R[0].class_names, C);
		fprintf(f, "\n");
		fprintf(f, "%5s %8s %9s %9s", "run", "items", "micro-F1", "macro-F1");
		fprintf(f, rk ? " %9s %9s\n" : "\n", "AUC", "AP");
		for (int i = 0; i < n; i++) {
			fprintf(f, "%5" PRId64 " %8" PRId64 " %9.2f %9.2f", R[i].id, R[i].f.n,
				100 * R[i].f.micro, 100 * R[i].f.macro);
			if (rk)
				fprintf(f, " %9.2f %9.2f", 100 * R[i].auc, 100 * R[i].ap);
			if (o->per_class) {
				fprintf(f, "   per class:");
				for (int c = 0; c < C; c++)
					isnan(R[i].f.per_class[c])
					    ? fprintf(f, "     -")
					    : fprintf(f, " %5.1f", 100 * R[i].f.per_class[c]);
			}
			fprintf(f, "\n");
			if (o->confusion) {
				for (int t = 0; t < C; t++) {
					fprintf(f, "%15s", t == 0 ? "true\\pred" : "");
					fprintf(f, " %3d:", t);
					for (int p = 0; p < C; p++)
						fprintf(f, " %6" PRId64, f1_conf(&R[i].f, t, p));
					fprintf(f, "\n");
				}
			}
		}
		fprintf(
		    f,
		    "\nmicro-F1 %.2f ± %.2f   macro-F1 %.2f ± %.2f   (mean ± std over %d run%s, in %%)\n",
		    100 * mim, 100 * mis, 100 * mam, 100 * mas, n, n == 1 ? "" : "s");
		if (rk)
			fprintf(f, "AUC %.2f ± %.2f   AP %.2f ± %.2f   (in %%)\n", 100 * rm[0],
				100 * rs[0], 100 * rm[1], 100 * rs[1]);
	}
	free(mi);
	free(ma);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct eval_runs rs;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	read_runs(&o, argc - optind, argv + optind, o.nbase > 0, &rs);
	const struct eval_run *R = rs.r;
	int n = rs.n;

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
		report_paired(mem, &o, P, o.nbase, R[0].ranked);
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
	eval_runs_free(&rs);
	return 0;
}
