/* evalrun.c - the runs evalf1 scores; see evalrun.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auc.h"
#include "err.h"
#include "evalrun.h"

void
eval_runs_init(struct eval_runs *rs)
{
	memset(rs, 0, sizeof *rs);
}

static void
run_free(struct eval_run *u)
{
	f1_free(&u->f);
	free(u->task);
	free(u->dataset);
	free(u->class_names);
	free(u->where);
	free(u->item);
	free(u->truth);
}

void
eval_runs_free(struct eval_runs *rs)
{
	for (int i = 0; i < rs->n; i++)
		run_free(&rs->r[i]);
	free(rs->r);
	eval_runs_init(rs);
}

static char *
dup_attr(const gs_rec *r, const char *key)
{
	const char *a = gs_attr_get(r, key);
	return xstrdup(a ? a : "");
}

/* Value k of a tensor's data, whatever its type. */
static double
tensor_value(const gs_rec *r, int64_t k)
{
	switch (r->dtype) {
	case GS_F32:
		return ((const float *)r->data)[k];
	case GS_F64:
		return ((const double *)r->data)[k];
	case GS_I32:
		return ((const int32_t *)r->data)[k];
	default:
		return (double)((const int64_t *)r->data)[k];
	}
}

/* Labels of column col of a tensor as int32 into out, checked to be whole
 * numbers from 0, or from any negative number when unknown is set (a true
 * class that is not known: -1); 0, or -1 with msg. */
static int
labels(int32_t *out, const gs_rec *r, int col, const char *what, int unknown, const char *where,
       char *msg, size_t len)
{
	for (int64_t i = 0; i < r->rows; i++) {
		double x = tensor_value(r, i * r->cols + col);
		if (!((x >= 0 || unknown) && fabs(x) <= INT32_MAX && x == floor(x))) {
			snprintf(msg, len, "%s: item %" PRId64 ": %s label %g is not a class index",
				 where, i, what, x);
			return -1;
		}
		out[i] = x < 0 ? -1 : (int32_t)x;
	}
	return 0;
}

static int
cmp_item(const void *a, const void *b)
{
	const int64_t *x = a, *y = b; /* (item, class) pairs */
	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Run u's scored items (true class y[i] >= 0) and their classes, sorted,
 * from the 'item' column of r; 0, or -1 with msg. */
static int
scored_items(struct eval_run *u, const gs_rec *r, const int32_t *y, const char *where, char *msg,
	     size_t len)
{
	int ci = gs_tensor_col(r, "item");
	int64_t k = 0, *pair;

	if (ci < 0) {
		snprintf(msg, len,
			 "%s: run %" PRId64 " has no 'item' column: --baseline pairs "
			 "runs on their test items",
			 where, r->id);
		return -1;
	}
	pair = xmallocarray((size_t)r->rows + 1, 2 * sizeof *pair);
	for (int64_t i = 0; i < r->rows; i++) {
		double x = tensor_value(r, i * r->cols + ci);
		if (!(x >= 0 && x <= 9e15 && x == floor(x))) {
			snprintf(msg, len, "%s: item %" PRId64 ": 'item' %g is not an item number",
				 where, i, x);
			free(pair);
			return -1;
		}
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
	return 0;
}

/* The class count of a run: its classes= attribute, else the largest
 * class of its rows items (y, p) + 1; 0, or -1 with msg. */
static int
class_count(long long *C, const gs_rec *r, const int32_t *y, const int32_t *p, int64_t rows,
	    const char *where, char *msg, size_t len)
{
	const char *cs = gs_attr_get(r, "classes");

	*C = 0;
	if (cs) {
		char *end;
		errno = 0;
		*C = strtoll(cs, &end, 10);
		if (errno || *end || *C < 1 || *C > EVAL_MAX_CLASSES) {
			snprintf(msg, len, "%s: classes=%s is not a class count (1..%d)", where, cs,
				 EVAL_MAX_CLASSES);
			return -1;
		}
		return 0;
	}
	for (int64_t i = 0; i < rows; i++) {
		long long c = (y[i] > p[i] ? y[i] : p[i]) + 1LL;
		if (c > EVAL_MAX_CLASSES) {
			snprintf(msg, len, "%s: item %" PRId64 ": class %lld: more than %d classes",
				 where, i, c - 1, EVAL_MAX_CLASSES);
			return -1;
		}
		if (c > *C)
			*C = c;
	}
	return 0;
}

/* The checks before the labels: columns, rows, a new run id. */
static int
check_record(const struct eval_runs *rs, const gs_rec *r, int ct, int cp, const char *where,
	     char *msg, size_t len)
{
	if (ct < 0 || cp < 0) {
		snprintf(msg, len, "%s: '%s' tensor lacks a 'true' or 'pred' column", where,
			 r->name);
		return -1;
	}
	if (r->rows == 0) {
		snprintf(msg, len, "%s: run %" PRId64 " has no predictions", where, r->id);
		return -1;
	}
	for (int i = 0; i < rs->n; i++)
		if (rs->r[i].id == r->id) {
			snprintf(msg, len, "%s: run %" PRId64 " appears twice (first at %s)", where,
				 r->id, rs->r[i].where);
			return -1;
		}
	return 0;
}

/* Score run u from its rows labelled items; 0, or -1 with msg. */
static int
score(struct eval_run *u, const gs_rec *r, const int32_t *y, const int32_t *p, int64_t rows,
      const char *where, char *msg, size_t len)
{
	long long C;
	int64_t bad;

	if (class_count(&C, r, y, p, rows, where, msg, len) != 0)
		return -1;
	u->id = r->id;
	u->C = (int)C;
	u->task = dup_attr(r, "task");
	u->dataset = dup_attr(r, "dataset");
	u->class_names = dup_attr(r, "class_names");
	u->where = xstrdup(where);
	f1_init(&u->f);
	if (f1_compute(&u->f, y, p, rows, (int)C, &bad) != 0) {
		snprintf(msg, len,
			 "%s: item %" PRId64 ": class %" PRId32 " or %" PRId32 " outside 0..%lld",
			 where, bad, y[bad], p[bad], C - 1);
		return -1;
	}
	return 0;
}

/* A ranked run's AUC and AP over the items of r with a true class (its
 * column checked already); 0, or -1 with msg. */
static int
rank_run(struct eval_run *u, const gs_rec *r, const char *where, char *msg, size_t len)
{
	int cs = gs_tensor_col(r, "score"), ct = gs_tensor_col(r, "true");
	int64_t k = 0;

	if (cs < 0)
		cs = gs_tensor_col(r, "score_1");
	if (u->C != 2 || cs < 0) {
		snprintf(msg, len,
			 "%s: run %" PRId64 ": the AUC ranks two classes by a 'score' or 'score_1' "
			 "column; the run has %d classes%s",
			 where, u->id, u->C, cs < 0 ? " and no such column" : "");
		return -1;
	}
	double *sc = xmallocarray((size_t)r->rows + 1, sizeof *sc);
	int32_t *yy = xmallocarray((size_t)r->rows + 1, sizeof *yy);
	for (int64_t i = 0; i < r->rows; i++) {
		double t = tensor_value(r, i * r->cols + ct);
		if (t >= 0) {
			sc[k] = tensor_value(r, i * r->cols + cs);
			yy[k++] = (int32_t)t;
		}
	}
	int rc = auc_scores(sc, yy, k, &u->auc, &u->ap);
	free(sc);
	free(yy);
	if (rc != 0) {
		snprintf(msg, len,
			 "%s: run %" PRId64 ": no AUC: a score is not a number, or the scored "
			 "items are of one class only",
			 where, u->id);
		return -1;
	}
	u->ranked = 1;
	return 0;
}

static int
add_run(struct eval_runs *rs, const gs_rec *r, const char *where, char *msg, size_t len)
{
	int ct = gs_tensor_col(r, "true"), cp = gs_tensor_col(r, "pred");
	struct eval_run u;
	int64_t rows;
	int rc = -1;

	if (check_record(rs, r, ct, cp, where, msg, len) != 0)
		return -1;
	int32_t *y = xmallocarray((size_t)r->rows + 1, sizeof *y);
	int32_t *p = xmallocarray((size_t)r->rows + 1, sizeof *p);
	memset(&u, 0, sizeof u);
	if (labels(y, r, ct, "true", 1, where, msg, len) != 0 ||
	    labels(p, r, cp, "predicted", 0, where, msg, len) != 0 ||
	    (rs->want_items && scored_items(&u, r, y, where, msg, len) != 0))
		goto out;
	rows = f1_known(y, p, r->rows);
	rs->skipped += r->rows - rows;
	rs->items += r->rows;
	if (rows == 0) {
		snprintf(msg, len,
			 "%s: run %" PRId64 ": no item has a true class (all %" PRId64
			 " are negative)",
			 where, r->id, r->rows);
		goto out;
	}
	if (score(&u, r, y, p, rows, where, msg, len) != 0 ||
	    ((rs->want_auc || strcmp(u.task, "linkpred") == 0) &&
	     rank_run(&u, r, where, msg, len) != 0))
		goto out;
	/* every run must score the same thing */
	const struct eval_run *f = rs->n ? &rs->r[0] : &u;
	if (u.C != f->C || strcmp(u.task, f->task) != 0 || strcmp(u.dataset, f->dataset) != 0) {
		snprintf(msg, len,
			 "%s: run %" PRId64 " (task '%s', dataset '%s', %d classes) does "
			 "not match run %" PRId64 " (task '%s', dataset '%s', %d classes)",
			 where, u.id, u.task, u.dataset, u.C, f->id, f->task, f->dataset, f->C);
		goto out;
	}
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 16;
		rs->r = xreallocarray(rs->r, (size_t)rs->cap, sizeof *rs->r);
	}
	rs->r[rs->n++] = u;
	memset(&u, 0, sizeof u);
	rc = 0;
out:
	run_free(&u);
	free(y);
	free(p);
	return rc;
}

int
eval_runs_add(struct eval_runs *rs, const gs_rec *r, const char *where, char *msg, size_t len)
{
	if (add_run(rs, r, where, msg, len) == 0)
		return 0;
	err_one_line(msg); /* it may quote a task or dataset attribute: \r, ESC... */
	return -1;
}

void
eval_runs_sort(struct eval_runs *rs)
{
	for (int i = 1; i < rs->n; i++)
		for (int j = i; j > 0 && rs->r[j - 1].id > rs->r[j].id; j--) {
			struct eval_run t = rs->r[j];
			rs->r[j] = rs->r[j - 1];
			rs->r[j - 1] = t;
		}
}
