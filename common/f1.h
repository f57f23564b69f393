/*
 * f1.h - F1 scores of single-label classification (paper section 4: micro-F1
 * over 10 runs, mean and spread).
 *
 * Ownership: the caller owns struct f1 (f1_init()/f1_free(); f1_free(NULL)
 * is a no-op) and the label arrays.
 *
 * Definitions, for n items with true class y_i and predicted class p_i in
 * 0..C-1 and the C x C confusion matrix M[t][p] (counts):
 *   per class c: tp = M[c][c], fp = sum_t M[t][c] - tp, fn = sum_p M[c][p] - tp,
 *                F1_c = 2 tp / (2 tp + fp + fn); a class with no true and no
 *                predicted item has no F1 (it is not "present").
 *   micro-F1   = 2 TP / (2 TP + FP + FN) summed over classes; with one label
 *                per item FP = FN = n - TP, so micro-F1 = accuracy = TP / n.
 *   macro-F1   = mean of F1_c over the present classes (scikit-learn's
 *                f1_score(average="macro") with labels = classes present in
 *                y or p).
 */
#ifndef GNN_F1_H
#define GNN_F1_H

#include <stdint.h>

/* A cell of the confusion matrix that is not 0. */
struct f1_cell {
	int64_t key; /* true class * C + predicted class */
	int64_t count;
};

struct f1 {
	int C;	   /* classes */
	int64_t n; /* items */
	/* The confusion matrix (row true, column predicted; f1_conf()), by its
	 * cells that are not 0, in key order: at most n of them, so memory
	 * follows the items, not C^2 (a record that claims 10,000 classes
	 * for 8 items asked for 800 MB and 10^8 steps) */
	struct f1_cell *cells;
	int64_t ncells;
	double *per_class; /* (C) F1 of each class, NaN when not present */
	int present;	   /* classes with a true or predicted item */
	double micro, macro;
};

void f1_init(struct f1 *f);
void f1_free(struct f1 *f);

/*
 * Scores of n items with labels y (true) and p (predicted), C classes.
 * Returns 0, or -1 if a label is outside 0..C-1 or n = 0 (*bad gets the
 * index of the first bad item, or -1 for n = 0).
 * Time complexity O(n log n + C); memory O(n + C).
 */
int f1_compute(struct f1 *f, const int32_t *y, const int32_t *p, int64_t n, int C, int64_t *bad);

/* Items of true class t predicted as p (0 <= t, p < C).
 * Time complexity O(log n). */
int64_t f1_conf(const struct f1 *f, int t, int p);

/*
 * Keep the items whose true class is known: the pairs (y[i], p[i]) with
 * y[i] >= 0 are moved, in order, to the front of y and p (a negative true
 * class means the item has none: gcn-adapt --predict writes -1).  Returns
 * how many are kept.  Time complexity O(n).
 */
int64_t f1_known(int32_t *y, int32_t *p, int64_t n);

/* Mean and sample standard deviation (n - 1 in the denominator; 0 for one
 * value) of x[0..n-1]. */
void f1_mean_std(const double *x, int n, double *mean, double *std);

/*
 * A paired comparison of n runs: the differences d_r = a[r] - b[r] (a run
 * of the main arm minus the same run of the baseline), their mean m and
 * sample standard deviation s (divisor n - 1), and the 95% paired
 * t-interval of the mean difference,
 *	m -+ t_{0.975, n-1} s / sqrt(n)
 * (Student's t quantile with n - 1 degrees of freedom, GSL's
 * gsl_cdf_tdist_Pinv).  A gain is an interval above 0 (lo > 0), a loss
 * one below 0 (hi < 0); else there is no clear difference.  With one
 * run there is no interval: s, lo and hi are NaN and gain and loss are 0.
 * Time complexity O(n).
 */
struct f1_paired {
	int n;
	double mean_a, mean_b; /* each arm's mean */
	double mean, sd;       /* of the differences */
	double lo, hi;	       /* the 95% interval of their mean */
	int gain;	       /* lo > 0 */
	int loss;	       /* hi < 0 */
};
void f1_paired(const double *a, const double *b, int n, struct f1_paired *p);

#endif
