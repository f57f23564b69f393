/*
 * adapt_main.c - what gcn-adapt runs once its options are parsed: the
 * adaptation and --predict; see adapt_main.h.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_main.h"
#include "adapt_need.h"
#include "err.h"
#include "gemm.h"
#include "modelio.h"
#include "outfile.h"
#include "pretrained.h"
#include "stream.h"

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
	if (modelio_find(&rd, &f, &r, msg, sizeof msg) > 0 && strcmp(r.name, ADAPTED_NAME) == 0)
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

int
adapt_main_train(struct adapt_opts *o, int argc, char **argv, int first)
{
	struct adapt_data ds;
	struct pretrained pt;
	struct adapt a;
	struct adapt_result res;
	struct adapt_need need;
	struct prof prof;
	gs_file *out, *mf = NULL;
	gs_rec rec;
	int sig;

	prof_init(&prof, NPH, adapt_phase_name);
	prof_mark(&prof, -1);
	refuse_adapted(o->model);
	pretrained_load(&pt, o->model);
	memset(&ds, 0, sizeof ds);
	/* a dataset that cannot fit is refused at a graph's header, and again
	 * once its attributes and classes are known, before any run */
	adapt_need_init(&need, o, &pt.M);
	adapt_read(&ds, o, argc - first, argv + first, adapt_need_header, &need);
	adapt_need_dataset(&need, &ds);
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

char **
adapt_main_precision(struct adapt_opts *o, const char *recorded, int argc, char **argv, int *pgargc,
		     int *first)
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
	char **v = opt_argv_with_precision(argc, argv, *first, gemm_precision_name(prec), pgargc,
					   &pgoptind);
	*first = pgoptind; /* the operands in v */
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

int
adapt_main_predict(struct adapt_opts *o, int argc0, char **argv0, int first)
{
	struct pretrained pt;
	struct adapted_cfg ac;
	struct head h;
	struct adapt_data ds;
	struct adapt_pred p;
	int argc;

	load_adapted(&pt, &ac, &h, o->model);
	char **argv = adapt_main_precision(o, pt.ts.precision, argc0, argv0, &argc, &first);
	int task = strcmp(ac.task, "link") == 0	   ? ADAPT_LINK
		   : strcmp(ac.task, "graph") == 0 ? ADAPT_GRAPH
						   : ADAPT_NODE;
	if (o->task_set && o->task != task)
		die("%s: the model is adapted to --task %s, not %s", o->model, ac.task,
		    adapt_task_name[o->task]);
	o->task = task;
	if (!o->label_set)
		o->label = ac.label;
	adapt_predict_input(&ds, o, &pt, &ac, argc - first, argv + first);
	adapt_predict(&p, &pt, &h, &ac, &ds, task);
	write_labelled(o, &pt, &ac, &ds, &p, argc, argv);
	adapt_pred_free(&p);
	head_free(&h);
	adapt_data_free(&ds);
	modelio_adapted_free(&ac);
	pretrained_free(&pt);
	free(argv);
	return 0;
}
