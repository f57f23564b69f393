/*
 * evalrun.h - the runs evalf1 scores: each 'predictions' tensor record
 * (gcn-adapt writes one per run) checked and scored (f1.h).
 *
 * Ownership: eval_runs_init()/eval_runs_free() own the runs, their
 * strings and their scores; the records passed in stay the caller's.
 *
 * A predictions record: a tensor whose id is the run, with columns 'true'
 * and 'pred' (class indices, whole numbers from 0; a negative true class
 * means the item has none: it is not scored), 'item' (whole numbers from
 * 0) where the runs' items are kept (want_items), and, optionally, the
 * attribute classes=C (else C is the largest class seen + 1).  Every run
 * must have the task, dataset and class count of the first.
 *
 * Ranked runs (want_auc set, or task=linkpred, gcn-adapt's link
 * prediction): two classes, 1 the positive, and a score column that ranks
 * the items, 'score' or else 'score_1' (the probability of class 1); the
 * AUC and the average precision of the scored items (auc.h) are computed
 * besides the F1.
 */
#ifndef GNN_EVALRUN_H
#define GNN_EVALRUN_H

#include <stddef.h>
#include <stdint.h>

#include "f1.h"
#include "stream.h"

/* The tensor record that follows the finished runs' predictions when
 * gcn-adapt was interrupted (attributes runs_done, runs, first_run,
 * signal): the runs read are not all that were asked for. */
#define EVAL_PARTIAL_NAME "partial"

/* Most classes scored: a run's confusion matrix holds C x C counts. */
#define EVAL_MAX_CLASSES 10000

struct eval_run {
	int64_t id;
	int C;
	char *task, *dataset; /* its attributes ("" when absent) */
	char *class_names;    /* its class_names= attribute ("" when absent) */
	char *where;	      /* where it was read, for messages */
	struct f1 f;
	int ranked; /* auc and ap computed */
	double auc, ap;
	/* with want_items: the scored items (item, true class) in item
	 * order, f.n of them (evalf1 --baseline pairs runs on them) */
	int64_t *item;
	int32_t *truth;
};

struct eval_runs {
	struct eval_run *r; /* (n) in the order added; eval_runs_sort() */
	int n, cap;
	int64_t items, skipped; /* items read; those without a true class */
	int want_items;		/* keep each run's scored items: set after init */
	int want_auc;		/* rank every run (evalf1 --auc): set after init */
};

void eval_runs_init(struct eval_runs *rs);
void eval_runs_free(struct eval_runs *rs);

/*
 * Check and score the predictions record r, read at where (gs_where()),
 * and add it as a run.  Returns 0, or -1 with msg ("WHERE: what", one
 * line: no 'true' or 'pred' column, no rows, a run id seen before, a label
 * that is not a class index, no 'item' column or an item that is not a
 * whole number (want_items), a bad classes=, no item with a true class, a
 * class outside 0..C-1, a task, dataset or class count other than the
 * first run's; a ranked run that is not binary, has no score column, a
 * score that is not a number, or scored items of one class only), and rs
 * as it was but for its counts.
 * Time: O(rows log rows + C + runs).
 */
int eval_runs_add(struct eval_runs *rs, const gs_rec *r, const char *where, char *msg,
		  size_t msglen);

/* The runs in id order (stable).  Time: O(runs^2). */
void eval_runs_sort(struct eval_runs *rs);

#endif
