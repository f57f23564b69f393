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

enum { OPT_NAME = COPT_FIRST_TOOL, OPT_FORMAT, OPT_PER_CLASS, OPT_CONFUSION };
enum { FMT_TABLE, FMT_TSV, FMT_YAML };
static const char *const formats[] = { "table", "tsv", "yaml", NULL };
#define SYNOPSIS "evalf1 [-q] [-j threads] [-o file] [--confusion] [--format table|tsv|yaml]\n" \
	"              [--name name] [--per-class] [--progress] [file ...]"

struct opts {
	struct copt c;
	const char *name;
	int format, per_class, confusion;
};

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Reads prediction records (gcn-adapt) of one or many runs; prints F1 per run\n"
		"  and the mean and standard deviation over runs.\n"
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
}

/* The runs of every input, in id order (dies on a bad record). */
static void
read_runs(const struct opts *o, int nfiles, char **files, struct eval_runs *rs)
{
	gs_rec r;
	char msg[8192];		/* a message quotes two runs' task and dataset */
	struct progress pr;
	progress_init(&pr, &o->c);
	progress_start(&pr, "runs", 0, NULL);
	gs_rec_init(&r);
	eval_runs_init(rs);
	for (int fi = 0; fi < (nfiles ? nfiles : 1); fi++) {
		const char *path = nfiles ? files[fi] : "-";
		gs_file *in = gs_open_in(path, msg, sizeof msg);
		int k;
		if (!in)
			die("%s", msg);
		while ((k = gs_read1(in, &r)) > 0) {
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

static void
report(FILE *f, const struct opts *o, const struct eval_run *R, int n)
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
		/* the attributes are data: quoted and escaped, so the YAML holds */
		char *task = cfg_quote(R[0].task), *dataset = cfg_quote(R[0].dataset);
		fprintf(f, "task: %s\ndataset: %s\nclasses: %d\nruns: %d\n", task, dataset, C, n);
		free(task);
		free(dataset);
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
						fprintf(f, "%s%" PRId64, p ? ", " : "", f1_conf(&R[i].f, t, p));
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
						fprintf(f, " %6" PRId64, f1_conf(&R[i].f, t, p));
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
	struct eval_runs rs;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	read_runs(&o, argc - optind, argv + optind, &rs);

	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		die("out of memory");
	report(mem, &o, rs.r, rs.n);
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
