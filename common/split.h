/*
 * split.h - seeded stratified splits of classified items: a hold-out split
 * per run, and K folds (gcn-adapt's graph task, linprobe).
 *
 * Ownership: the caller owns every array (nothing here keeps a pointer);
 * a gsl_rng passed in stays the caller's.
 *
 * Every draw comes from common/rng.h streams, so a split depends only on
 * the classes, the seed and the run: the same for every arm of a
 * comparison whatever the vectors or the model.
 */
#ifndef GNN_SPLIT_H
#define GNN_SPLIT_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* The fold stream of gcn-adapt's graph task ("folds"): split_folds() drawn
 * from (seed, SPLIT_FOLD_STREAM) gives gcn-adapt's folds. */
#define SPLIT_FOLD_STREAM 0x666f6c6473ULL

/*
 * Items per class of n items with classes y (negative: none) of C classes
 * (counts: (C), zeroed first).  Returns the number of items with a class.
 * Time complexity O(n + C).
 */
int64_t split_class_counts(const int32_t *y, int64_t n, int C, int64_t *counts);

/*
 * Stratified hold-out split of run `run`: a permutation of all n items from
 * stream (seed, run) (unlabelled ones included, so that the draws do not
 * depend on which items have a class); in its order, the first
 * round(frac * n_c) items of class c, but at least 1 and at most n_c - 1,
 * are test items, the others of the class training items.  Items without
 * a class are in neither; so is the item of a class of one item (the
 * caller refuses or allows that).  train and test (n each) come back
 * ascending.  Time complexity O(n + C).
 */
void split_holdout(const int32_t *y, int64_t n, int C, double frac, uint64_t seed, int run,
		   int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest);

/*
 * Few-label split of run `run` (the paper's protocol: 20 labelled nodes a
 * class): the same permutation as split_holdout(); in its order, the first
 * min(per, n_c - 1) items of class c are training items, the class's
 * other items test items.  A class of one item is in neither.  Arrays and
 * order as split_holdout().  Time complexity O(n + C).
 */
void split_per_class(const int32_t *y, int64_t n, int C, int64_t per, uint64_t seed, int run,
		     int32_t *train, int64_t *ntrain, int32_t *test, int64_t *ntest);

/*
 * Stratified K-fold assignment of n items with classes y (negative: none)
 * of C classes, drawn from r: the items in the order of a random
 * permutation of all n, then class by class (0, 1, ...) dealt to folds 0,
 * 1, ..., K-1, 0, ... in turn, the count running on across classes (so
 * fold sizes differ by at most one); fold[i] = -1 for an item without a
 * class.  With r = rng_new(seed, SPLIT_FOLD_STREAM) this is gcn-adapt's
 * graph-task assignment.  Time complexity O(n + C).
 */
void split_folds(const int32_t *y, int64_t n, int C, int K, gsl_rng *r, int *fold);

#endif
