/*
 * adapt_run.h - gcn-adapt's runs: a fresh head over a pre-trained (or
 * random) encoder trained with Adam on the run's split, its predictions,
 * the best run kept as an adapted model; and --predict's forward pass of
 * a saved adapted model over every item (gcn-adapt(1)).
 *
 * Ownership: adapt_init() fills a struct adapt that adapt_free()
 * releases; it borrows the options, the model (pt), the dataset and the
 * profile, which must outlive it, and trains the model's parameters in
 * place.  adapt_predict() fills a struct adapt_pred that adapt_pred_free()
 * releases.  Records and files passed in stay the caller's.
 *
 * A run draws from stream (seed, run) only (common/rng.h): its split, its
 * initial values and its dropout do not depend on the runs before it, so
 * --first-run R gives the records of run R of a longer set.  With fixed
 * threads and precision a run is deterministic.
 */
#ifndef GNN_ADAPT_RUN_H
#define GNN_ADAPT_RUN_H

#include <stdint.h>

#include "adapt_data.h"
#include "batch.h"
#include "head.h"
#include "modelio.h"
#include "opt.h"
#include "pretrained.h"
#include "prof.h"
#include "progress.h"
#include "split.h"
#include "stream.h"

/* The node task's splits (--split) and their names; NULL ends the list.
 * planetoid: --train-per-class nodes of each class, then --val and --test
 * others; per-class: linprobe --train-per-class's split, the validation
 * nodes taken out of the training nodes (split_per_class_val()). */
enum { ADAPT_SPLIT_PLANETOID = 0, ADAPT_SPLIT_PER_CLASS };
extern const char *const adapt_split_name[];

/* The head's kinds (--head) and their names; NULL ends the list.  gcn:
 * Kipf's 2-layer GCN (the paper's); sage: each layer also weighs a node's
 * own row (HEAD_SELF); auto: both with the few-label split, the one of
 * the better validation score kept, otherwise gcn. */
enum { ADAPT_HEAD_GCN = 0, ADAPT_HEAD_SAGE, ADAPT_HEAD_AUTO };
extern const char *const adapt_head_name[];

/* The stream of a run's sage head, alone or beside the GCN (--head auto):
 * (seed, rng_mix(run, ADAPT_HEAD_STREAM)); the GCN draws on from the
 * split's, as it always did. */
#define ADAPT_HEAD_STREAM 0x68656164ULL /* "head" */

/* gcn-adapt's options: the tool parses them, the runs read them. */
struct adapt_opts {
	struct copt c;
	const char *model, *label;
	const char *features;	 /* --features, or NULL: the model's stage */
	int allow_cmd;		 /* --allow-features-command */
	double features_timeout; /* --features-timeout */
	int shipped;		 /* model is the shipped one, no --model given */
	int task;		 /* ADAPT_NODE, ADAPT_LINK, ADAPT_GRAPH, ADAPT_LINKPRED */
	int no_pretrain, freeze, runs, first_run, epochs, patience, head_width, scale, random_above;
	int train_per_class, nval, ntest, attributes, attr_only, raw_concat;
	int split;		 /* node task: ADAPT_SPLIT_PLANETOID or ADAPT_SPLIT_PER_CLASS */
	int split_set;		 /* --split was given */
	int head;		 /* ADAPT_HEAD_* */
	int split_given;	 /* --train-per-class, --val or --test was given */
	int sizes_given;	 /* --val or --test was given */
	char split_note[384];	 /* the split followed the graph: said at the end */
	int schedule_given;	 /* --epochs or --patience was given */
	char schedule_note[256]; /* the epochs followed the validation items */
	double lr, wd, dropout, train_fraction;
	double val_fraction, test_fraction; /* linkpred: the held-out edges */
	const char *linkpred_opt;	    /* the first option given that only linkpred takes */
	const char *save_model;		    /* --save-model FILE, or NULL */
	int predict;			    /* --predict: apply a saved adapted model */
	const char *train_opt;		    /* the first option given that only adaptation takes */
	int label_set, task_set;
	const char *precision;	 /* --precision: auto, fp32 or bf16 */
	int tsv;		 /* --tsv: predictions as a table on stdout */
	char precision_why[400]; /* what auto chose and why, for stderr */
};

/* GNN_PROFILE=1: the phases of the runs (prof.h); a mark gives the time
 * since the previous mark to the phase just ended. */
enum {
	PH_SETUP,
	PH_FEAT,
	PH_FROZEN,
	PH_ENC_FWD,
	PH_HEAD_EVAL,
	PH_LINK_EVAL,
	PH_SCORE,
	PH_HEAD_FWD,
	PH_LINK_TRAIN,
	PH_LOSS,
	PH_HEAD_BWD,
	PH_ENC_BWD,
	PH_ADAM,
	NPH
};
extern const char *const adapt_phase_name[NPH];

/* Everything the runs share: the model and its pre-trained values, the
 * dataset as the encoder sees it, the head's buffers; and the split of the
 * run in progress. */
struct adapt {
	const struct adapt_opts *o;
	model *M;
	struct adapt_data *ds;
	const struct feat_src *fs; /* the encoder's input */
	const char *stage;	   /* its name, for the records */
	real *pre;		   /* (M->n) the pre-trained values */
	uint8_t *trained;	   /* (M->nt) the encoder tensors the runs train */
	int from, embed, link;	   /* the lowest trained block; E trained; link decoder */
	int frozen;		   /* hb holds the fixed part of the batch (head_freeze()) */
	int lp;			   /* link prediction (link is set too) */
	struct link_split ls;	   /* linkpred: the run's split */
	int32_t *pu, *pv;	   /* linkpred: (NI) the run's pairs: the graph's edges, then
				    * the run's non-edges (ls.nu, ls.nv) */
	double *sc;		   /* linkpred: (NI) scratch, pair scores for the AUC */
	int32_t *sy;		   /* linkpred: (NI) scratch, their classes */
	int64_t N, d, C, hid, NI;
	struct head hshape;   /* the runs' head: its sizes only (head_shape()) */
	int kinds[2], nkinds; /* the heads each run trains (ADAPT_HEAD_GCN, _SAGE) */
	real *altlg;	      /* (NI x C) --head auto: bestlg of the other head */
	real *altM, *altH;    /* --save-model and --head auto: its snapshots */
	batch b;	      /* the encoder's input (link: of the run) */
	struct hbuf hb;
	struct lbuf lb;	       /* link task: the edge decoder's buffers */
	real *elg;	       /* link: (NI x C) logits of the validation edges */
	int32_t *tu, *tv;      /* link: the run's training edges, in the order of tr */
	int32_t *ty;	       /* link: their classes */
	graph gtr;	       /* link: the run's training graph */
	int32_t *tr, *va, *te; /* the run's split */
	int ntr, nva, nte;
	real *bestlg;	    /* (NI x C) item logits at the best epoch */
	real *glg, *dil;    /* graph task: graph logits and their gradient */
	int32_t *lab, *unl; /* link: the labelled edges; the others (structure) */
	int64_t nlab, nunl;
	mws *w;
	gsl_rng *rr; /* the run's stream (seed, run) */
	struct progress pr;
	struct prof *prof;		   /* GNN_PROFILE=1: the phases PH_* */
	int64_t n_runs, n_epochs, n_evals; /* for its table */
	/* --save-model: the encoder's (M->n) and the head's (nh) parameters at
	 * the best epoch of the run in progress (snap) and of the best run so
	 * far (keep), and what the kept run gave */
	real *snapM, *snapH, *keepM, *keepH;
	int64_t nh;
	int kept_run, kept_epochs, kept_best, kept_ntr, kept_head;
	int runs_done; /* runs finished (fewer than o->runs: interrupted) */
	double kept_acc, kept_loss;
	real kept_es;
};

/* What a run gave. */
struct adapt_result {
	int epochs, best_epoch;
	double val_acc, val_loss, test_acc; /* linkpred: val and test AUC */
	int head;			    /* the head kept (ADAPT_HEAD_GCN or _SAGE) */
	char heads[128];		    /* --head auto: each head's validation scores */
};

/* The defaults of every option (gcn-adapt(1)); o->c by copt_init(), with
 * the default seed recorded as a seed. */
void adapt_opts_init(struct adapt_opts *o);

/*
 * The dataset of files[0..nfiles) (none: the standard input) as o asks
 * for it (task, --label, --attributes or --attr-only, -q), with
 * adapt_data_read(); ds zeroed by the caller, with ds->predict, ds->Cm
 * and ds->mvals set for --predict.  check (or NULL) is called with ctx at
 * each graph's header, before its edges are read (adapt_need_header()).
 */
void adapt_read(struct adapt_data *ds, const struct adapt_opts *o, int nfiles, char **files,
		void (*check)(void *ctx, gs_file *in, const gs_rec *rec), void *ctx);

/*
 * The encoder's input of the runs: the model's feature stage, or
 * --features (pretrained_stage(); a fresh encoder with --no-pretrain, a
 * stage computed per run for the link task); --attr-only takes no stage,
 * only --scale.  Dies with one line on a stage the dataset or the model
 * cannot have.
 */
void adapt_stage(struct pretrained *pt, const struct adapt_opts *o, struct adapt_data *ds);

/*
 * The node task's split follows the graph when none was given (no
 * --split, --train-per-class, --val or --test): the paper's 20 nodes of
 * each class, 500 and 1000 where they fit (split_fit_sizes()), otherwise
 * the few-label split (--split per-class) with --train-per-class nodes of
 * each class.  A graph too small for the paper's split is so not refused:
 * o->split_note says what was chosen, for the end of a successful run (a
 * failing one says one line).  Given sizes that do not fit stay an error
 * of adapt_split_run().  Time complexity O(n + C).
 */
void adapt_fit_split(struct adapt_opts *o, const struct adapt_data *ds);

/* Fewer validation items than this: a longer schedule (adapt_fit_schedule()) */
#define ADAPT_FEW_VAL 100
#define ADAPT_FEW_EPOCHS 500
#define ADAPT_FEW_PATIENCE 100

/*
 * The schedule follows the labels when neither --epochs nor --patience
 * was given: where a run validates on fewer than ADAPT_FEW_VAL items (the
 * node task's split, o->nval or the few-label split's count; the graph
 * task's smallest fold), a step of the validation accuracy is more than
 * a point and its best epoch comes later, so --epochs ADAPT_FEW_EPOCHS
 * and --patience ADAPT_FEW_PATIENCE; o->schedule_note says so for the end
 * of a successful run.  The link tasks keep theirs.  Call after
 * adapt_fit_split().  Time complexity O(n + C).
 */
void adapt_fit_schedule(struct adapt_opts *o, const struct adapt_data *ds);

/*
 * Everything the runs share, in a: the model's pre-trained values (pt:
 * its encoder and feature stage, already chosen), the dataset as the
 * encoder sees it (the batch, but the link task's, which each run builds
 * from its training edges), the head's buffers, which encoder tensors
 * the runs train (E and the blocks from --freeze up).  Dies with a usage
 * error when --freeze is above the model's blocks.  Time complexity: the
 * batch's, O(input + M->n).
 */
void adapt_init(struct adapt *a, const struct adapt_opts *o, struct pretrained *pt,
		struct adapt_data *ds, struct prof *prof);
void adapt_free(struct adapt *a);

/*
 * The split of run `run` into a->tr, a->va, a->te: node task,
 * Planetoid's (split_planetoid()) or the few-label split
 * (split_per_class_val(), --split per-class); graph task, fold run mod 10 of
 * stratified 10-fold cross-validation (split_cv_run()); link task, 72/8/20
 * of the labelled edges (split_shares()) and the run's training graph
 * (its training edges and the unlabelled ones) as the encoder's batch;
 * link prediction, split_links() with --val-fraction and --test-fraction,
 * the training edges as the encoder's graph.
 * Dies with one line when the split does not fit the data.  Returns 0,
 * or -1 when a signal (adapt_catch_signals()) cut the run's feature call
 * short.
 */
int adapt_split_run(struct adapt *a, int run);

/*
 * One run on the split of adapt_split_run(): a fresh head over the
 * encoder, epochs of Adam until --epochs or --patience; the item logits
 * of the best validation epoch (the higher accuracy, then the lower loss)
 * go to a->bestlg (link prediction: the higher validation AUC, then the
 * lower loss), with --save-model its parameters to a->snapM and
 * a->snapH.  With two heads to try (--head auto and the few-label split)
 * each starts from the run's initial encoder, and the one of the better
 * best epoch, by the same order (ties: the first, gcn), is the run's; the
 * sage head draws from stream (seed, rng_mix(run, ADAPT_HEAD_STREAM)),
 * alone or not, so that a run of --head auto is, to the byte, the run of
 * the head it keeps alone.  res
 * gets the head, the epochs and the best epoch's scores (not test_acc:
 * adapt_write_predictions() sets it).  Time complexity: epochs times an
 * encoder and head pass, for each head tried.  Returns 0, or -1 when a
 * signal (adapt_catch_signals()) came: the run is left unfinished, at the
 * start of its next epoch.
 */
int adapt_train_run(struct adapt *a, int run, struct adapt_result *res);

/*
 * Interrupted runs keep what finished (gnnpipe(7)): from
 * adapt_catch_signals() on, SIGINT and SIGTERM only note the signal, which
 * adapt_stop_signal() returns (0: none), and the runs stop at the next
 * epoch.  adapt_restore_signals() puts back the actions that were there
 * (outfile.c's removal of temporary files, or the default), for the
 * program to raise the signal once it has written the finished runs.
 */
void adapt_catch_signals(void);
int adapt_stop_signal(void);
void adapt_restore_signals(void);

/*
 * The record that marks an interrupted adaptation's predictions as
 * partial (gnnstream(5)): a 1 x 2 i64 tensor named EVAL_PARTIAL_NAME,
 * columns runs_done,runs, with the same two as attributes, first_run and
 * the signal's name.  Written after the finished runs' predictions.
 */
void adapt_partial_record(gs_rec *rec, int done, int runs, int first_run, int sig);

/*
 * Rows idx[0..n) (idx NULL: 0..n-1) of the item logits lg (items x C) as a predictions tensor
 * with id id: item, true class (y; -1 for none), predicted class and, up
 * to 64 classes, the softmax probabilities.  Returns how many predicted
 * classes are the true one.  Time complexity O(n C).
 */
int64_t adapt_predictions_tensor(gs_rec *rec, int64_t id, const real *lg, const int32_t *idx,
				 int64_t n, const int32_t *y, int64_t C);

/* The predictions record of run `run` to out (rec is scratch): the test
 * items' true and predicted classes and class probabilities at the best
 * validation epoch, and what the run was; res->test_acc gets the test
 * accuracy.  Dies on a write error. */
void adapt_write_predictions(struct adapt *a, int run, gs_file *out, gs_rec *rec,
			     struct adapt_result *res);

/*
 * A predictions record to out, or with o->tsv as TSV rows on stdout (run,
 * item, the node's name for a node task whose graph has names, true and
 * predicted class, the class probabilities, %.6g), under a header row
 * before the first record.  Dies on a write error.
 */
void adapt_emit(const struct adapt_opts *o, const struct adapt_data *ds, gs_file *out,
		const gs_rec *rec);

/* After a run (--save-model): keep its best epoch's parameters when its
 * validation accuracy is the best so far (ties: the lower validation
 * loss, then the earlier run). */
void adapt_keep_run(struct adapt *a, int run, const struct adapt_result *res);

/*
 * The adapted model of the kept run to mf (gcn-adapt(1), Inference): the
 * encoder's settings with the feature stage the runs used, the adapt.*
 * keys, the encoder's and the head's parameters at its best epoch.  rec
 * is scratch.  Dies on a write error.
 */
void adapt_write_model(const struct adapt *a, const struct pretrained *pt, gs_file *mf,
		       gs_rec *rec);

/* GNN_PROFILE=1: the profile's table on stderr, with the runs', epochs'
 * and evaluations' counts (prof_print()). */
void adapt_prof_print(const struct adapt *a);

/*
 * --predict's dataset into ds: the input read with the adapted model's
 * classes (ac; the link task's edge labels), its attributes checked
 * against the model's, and the model's feature stage (or --features)
 * applied to pt.  o->task and o->label are the model's unless given.
 * Dies with one line on a dataset the model cannot take.
 */
void adapt_predict_input(struct adapt_data *ds, const struct adapt_opts *o, struct pretrained *pt,
			 const struct adapted_cfg *ac, int nfiles, char **files);

/* --predict's pass over every item of a dataset. */
struct adapt_pred {
	batch b;	/* the encoder's input: the whole dataset */
	struct hbuf hb; /* the head's buffers; hb.es the model's scale */
	mws *w;
	real *buf;	 /* link and graph tasks: the item logits */
	const real *ilg; /* (items x C) the item logits */
};

/*
 * The forward pass of a run's evaluation over every item of ds (every
 * node, every edge of the graph record, every graph) through the adapted
 * model's encoder (pt, its feature stage chosen) and head h, of task
 * (ADAPT_*) and head sizes ac; the item logits to p->ilg.  The link
 * task's graph is the input's, all of its edges.  Dies with one line when
 * the batch cannot be built.  Time complexity: one encoder and head pass.
 */
void adapt_predict(struct adapt_pred *p, struct pretrained *pt, struct head *h,
		   const struct adapted_cfg *ac, struct adapt_data *ds, int task);
void adapt_pred_free(struct adapt_pred *p);

#endif
