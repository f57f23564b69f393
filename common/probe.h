/*
 * probe.h - a linear probe: L2-regularised logistic regression (LIBLINEAR,
 * solver L2R_LR) on fixed vectors, over seeded stratified splits, with the
 * regularisation C chosen by stratified cross-validation on each run's
 * training items (linprobe(1)).
 *
 * Ownership: the caller owns struct probe_data and everything it points
 * to, and the split arrays; probe_ws_new() returns a workspace freed with
 * probe_ws_free() (probe_ws_free(NULL) is a no-op); probe_result_free()
 * releases what probe_run() allocated in a struct probe_result.
 *
 * Determinism: every draw comes from common/rng.h streams of (seed, run),
 * and LIBLINEAR's primal L2R_LR solver draws nothing, so a run's result
 * depends only on the data, the options, the seed and the run number; runs
 * may be computed on any threads in any order (one workspace each).
 */
#ifndef GNN_PROBE_H
#define GNN_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* The sub-stream of run r's inner cross-validation: (seed, rng_mix(r, this)). */
#define PROBE_CV_STREAM 0x6376ULL /* "cv" */

/* The items: n vectors of D values, each with a class or none. */
struct probe_data {
	int64_t n;	  /* items */
	int D;		  /* values per item */
	const double *X;  /* (n x D) row-major, finite */
	const int32_t *y; /* (n) class 0..C-1, or negative: none */
	int C;		  /* classes: 1 + the largest class */
};

/* How C is chosen. */
struct probe_opts {
	double C;		 /* > 0: this C, no cross-validation */
	double grid_lo, grid_hi; /* the grid: grid_lo * 10^k up to grid_hi */
	int cv_folds;		 /* folds of the inner cross-validation (>= 2) */
	double eps;		 /* LIBLINEAR's stopping tolerance (0.01: its default) */
};

/* What one run gives. */
struct probe_result {
	int64_t ntest;
	int32_t *test; /* (ntest) the test items, ascending */
	int32_t *pred; /* (ntest) predicted class */
	double *prob;  /* (ntest x C) class probabilities */
	double C;      /* the C used */
	double cv_acc; /* its cross-validated accuracy (NAN: a fixed C) */
	int ngrid;     /* Cs tried (0: a fixed C) */
};

typedef struct probe_ws probe_ws;

/* Defaults: C chosen by 5-fold CV over 1e-4 .. 1e2, eps 0.01. */
void probe_opts_default(struct probe_opts *o);

/* The Cs of the grid (at most max of them) into Cs; returns how many:
 * grid_lo * 10^k for k = 0, 1, ... while at most grid_hi (within 1e-9). */
int probe_grid(const struct probe_opts *o, double *Cs, int max);

/*
 * Standardisation statistics of columns 0..D-1 over rows[0..m) of X
 * (n x D): mu the mean, sd the population standard deviation (divisor m,
 * scikit-learn's StandardScaler), and sd = 0 for a column whose m values
 * are all equal (a standardised constant column is 0).  Two passes in
 * double.  Time complexity O(m D).
 */
void probe_scale_fit(const double *X, int D, const int32_t *rows, int64_t m, double *mu,
		     double *sd);

/* One row standardised: out[j] = (x[j] - mu[j]) / sd[j], or 0 where sd[j]
 * is 0.  Time complexity O(D). */
void probe_scale_row(const double *x, const double *mu, const double *sd, int D, double *out);

/* A workspace for runs on d: buffers for d->n rows (16 bytes a value).
 * It also silences LIBLINEAR's messages, a global setting: create the
 * workspaces before any thread fits.  Dies when out of memory. */
probe_ws *probe_ws_new(const struct probe_data *d);
void probe_ws_free(probe_ws *w);

/*
 * One run: C chosen (o->C > 0: that one; otherwise the grid's C of best
 * accuracy, pooled over o->cv_folds stratified folds of the training items
 * drawn from (seed, rng_mix(run, PROBE_CV_STREAM)), each fold standardised
 * on its own training rows, the Cs in ascending order each started from
 * the previous C's solution; ties go to the smaller C), then the model
 * fitted on all training items standardised on them and the test items
 * predicted: class probabilities (LIBLINEAR's: the logistic of each
 * one-vs-rest decision value, normalised to sum 1; a class absent from
 * the training items has 0) and the most probable class (ties: the
 * smaller).  tick(arg), when not NULL, is called after every fit.
 * train and test as split_holdout() gives them.  res is filled (its
 * arrays allocated; probe_result_free()).
 * Time complexity: (cv_folds * grid + 1) LIBLINEAR fits, each O(iterations
 * * nnz) with nnz about |train| * D.
 */
void probe_run(probe_ws *w, const struct probe_data *d, const struct probe_opts *o,
	       const int32_t *train, int64_t ntrain, const int32_t *test, int64_t ntest,
	       uint64_t seed, int run, struct probe_result *res, void (*tick)(void *), void *arg);

void probe_result_free(struct probe_result *res);

/*
 * Pool the n rows of a per-node tensor X (n x D) into one vector (out:
 * D values, or 2D for meanmax): PROBE_POOL_MEAN, _MAX, _SUM, or _MEANMAX
 * (the mean, then the max).  n >= 1.  Time complexity O(n D).
 */
enum { PROBE_POOL_NONE = 0, PROBE_POOL_MEAN, PROBE_POOL_MAX, PROBE_POOL_SUM, PROBE_POOL_MEANMAX };
void probe_pool(const double *X, int64_t n, int D, int how, double *out);

#endif
