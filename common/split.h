/*
 * split.h - seeded stratified splits of classified items: a hold-out split
 * per run, K folds (gcn-adapt's graph task, linprobe), and gcn-adapt's
 * splits of a run (Planetoid's node split, a fold, shares of the edges,
 * link prediction's edges and non-edges).
 *
 * Ownership: the caller owns every array (nothing here keeps a pointer);
 * a gsl_rng passed in stays the caller's.  struct link_split owns its
 * arrays (split_links_init()/split_links_free(); free of an initialised,
 * unused one is a no-op) and reuses them from run to run.
 *
 * Every draw comes from common/rng.h streams, so a split depends only on
 * the classes, the seed and the run: the same for every arm of a
 * comparison whatever the vectors or the model.
 */
#ifndef GNN_SPLIT_H
#define GNN_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "graph.h"
#include "mask.h"

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

/* A few-label split's validation items: one in SPLIT_VAL_SHARE of each
 * class's training items. */
#define SPLIT_VAL_SHARE 4

/*
 * split_per_class() with validation items taken out of the training
 * items (gcn-adapt --split per-class), drawn from r: with r in the state
 * of stream (seed, run) (rng_new(), rng_reseed()), the training and
 * validation items together are split_per_class()'s training items and
 * the test items its test items.  Of class c's k_c training items, in
 * the permutation's order, the first floor(k_c / SPLIT_VAL_SHARE), but at
 * least one where k_c >= 2, are validation items (val, *nval); of the
 * others the first round(fraction * their count), at least one, are
 * training items, and the rest (fraction < 1) are in no part, so that
 * the validation and test items do not change with the fraction.  r
 * advances past the permutation (n draws), so a caller may draw on from
 * it.  Arrays as split_holdout(), val of n.  Time complexity O(n + C).
 */
void split_per_class_val(const int32_t *y, int64_t n, int C, int64_t per, double fraction,
			 gsl_rng *r, int32_t *train, int64_t *ntrain, int32_t *val, int64_t *nval,
			 int32_t *test, int64_t *ntest);

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

/* The node task's Planetoid split (gcn-adapt): per_class training nodes
 * of each class, of which round(fraction * per_class) (at least one) are
 * used, then nval validation and ntest test nodes. */
struct split_sizes {
	int per_class, nval, ntest;
	double fraction;
};

/*
 * Fit the sizes of a node split to n items with classes y (negative:
 * none) of C classes, when they do not fit: the paper's per_class where
 * every class has twice as many items, otherwise at most half of each
 * class's items (at least one); the remaining labelled items split 1:2
 * between validation and test (at least one each).  Returns 0 when s fits
 * as it is (s unchanged), 1 when it was replaced.  Time complexity
 * O(n + C).
 */
int split_fit_sizes(const int32_t *y, int64_t n, int C, struct split_sizes *s);

/*
 * Planetoid-style split of n items with classes y of C classes, all
 * uniform from r: a permutation of every item (so the draws do not depend
 * on which items have a class), then s->per_class items of each class in
 * its order, of which the first round(s->fraction * per_class) (at least
 * one) go to tr (*ntr), then s->nval and s->ntest of the other labelled
 * items to va and te.  Returns 0, or -1 with a message in msg when a class
 * has fewer than per_class items or too few are left for va and te.
 * Time complexity O(n * C).
 */
int split_planetoid(const int32_t *y, int64_t n, int C, const struct split_sizes *s, gsl_rng *r,
		    int32_t *tr, int *ntr, int32_t *va, int32_t *te, char *msg, size_t len);

/*
 * Run `run` of stratified K-fold cross-validation over n items with
 * classes y of C classes: the folds of split_folds() drawn from stream
 * (seed, SPLIT_FOLD_STREAM); te gets fold run mod K, va the next fold, tr
 * the others, each in item order.  Items without a class are in none.
 * Time complexity O(n + C).
 */
void split_cv_run(const int32_t *y, int64_t n, int C, int K, uint64_t seed, int run, int32_t *tr,
		  int *ntr, int32_t *va, int *nva, int32_t *te, int *nte);

/*
 * Hold-out split of the m items lab[0..m) (gcn-adapt's link task: the
 * labelled edges) from r, in the order of a uniform permutation of them:
 * of its first k = floor((1 - test) * m) items, the first floor(val * k)
 * are validation items (va), the others training items (tr); the last
 * m - k are test items (te).  Returns 0, or -1 when a part is empty.
 * Time complexity O(m).
 */
int split_shares(const int32_t *lab, int64_t m, double test, double val, gsl_rng *r, int32_t *tr,
		 int *ntr, int32_t *va, int *nva, int32_t *te, int *nte);

/* The parts of a link prediction split. */
enum { LSPLIT_TRAIN = 0, LSPLIT_VAL, LSPLIT_TEST };

/* A link prediction split of one graph (gcn-adapt --task linkpred). */
struct link_split {
	int64_t m;	   /* the graph's edges */
	int64_t n[3];	   /* edges of each part (LSPLIT_*), and as many non-edges */
	int32_t *eu, *ev;  /* (m) the graph's edges in canonical order (graph_edges()) */
	uint8_t *part;	   /* (m) the part of edge e */
	int32_t *nu, *nv;  /* (m) the non-edges: n[0] training, then n[1] validation,
			    * then n[2] test */
	const int32_t *tu; /* (n[0]) the training edges, canonical order: the graph */
	const int32_t *tv; /* the encoder sees (they point into mb) */
	mask_buf mb;	   /* mask_edges()'s buffers */
	size_t cap;
};

void split_links_init(struct link_split *s);
void split_links_free(struct link_split *s);

/*
 * The part sizes of m edges: n[2] = round(test * m') and n[1] = m' - n[2]
 * of the m' = round((val + test) * m) held-out edges (mask_count()'s
 * rounding), n[0] = m - m'.  Returns 0, or -1 when a part is empty.
 * val > 0, test > 0, val + test < 1.  Time complexity O(1).
 */
int split_link_sizes(int64_t m, double val, double test, int64_t n[3]);

/*
 * Can a graph of n nodes and m edges be split for link prediction
 * (split_links())?  Returns 0, or -1 with a message in msg: a part would
 * be empty, or the graph has fewer than m non-edges.  Time complexity O(1).
 */
int split_links_fit(int32_t n, int64_t m, double val, double test, char *msg, size_t len);

/*
 * Split the edges of g for link prediction, from r: mask_edges() takes
 * out m' = n[1] + n[2] edges uniformly (split_link_sizes()) and samples
 * m non-edges of g uniformly without repetition; a uniform permutation
 * of the held-out edges gives the first n[1] to validation and the rest
 * to test, and one of the non-edges gives the first n[0] to training,
 * the next n[1] to validation, the last n[2] to test.  So every part has
 * as many non-edges as edges; the parts are disjoint; no non-edge is an
 * edge of g; the training edges (s->tu, s->tv) are g without the
 * validation and test edges.  The same g, fractions and state of r give
 * the same split.  Returns 0, or -1 with a message in msg when a part
 * would be empty or g has fewer than m non-edges.
 * Time complexity O(n + m log m); memory about 30 m bytes.
 */
int split_links(struct link_split *s, const graph *g, double val, double test, gsl_rng *r,
		char *msg, size_t len);

#endif
