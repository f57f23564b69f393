/*
 * auc.h - ranking scores of a binary classifier: the area under the ROC
 * curve and the average precision (gcn-adapt --task linkpred, evalf1).
 *
 * Ownership: the caller owns the arrays; nothing is kept.
 *
 * Definitions, for n items with class y_i (1 positive, 0 negative) and
 * score s_i (higher: more likely positive), P positives and N negatives:
 *   AUC  the probability that a random positive scores above a random
 *        negative, ties counting one half: (sum over pairs (i positive,
 *        j negative) of [s_i > s_j] + [s_i = s_j] / 2) / (P N); the
 *        Mann-Whitney U over P N, scikit-learn's roc_auc_score.
 *   AP   sum over the distinct scores t, from the highest down, of
 *        (R_t - R_t') P_t, where P_t and R_t are the precision and recall
 *        of the items scoring t or more and t' the next higher score
 *        (R = 0 above the highest); tied items enter together.  This is
 *        scikit-learn's average_precision_score (no interpolation).
 */
#ifndef GNN_AUC_H
#define GNN_AUC_H

#include <stdint.h>

/*
 * The AUC and the AP of n items (scores s, classes y: 1 or 0; any other
 * class is an error) into *auc and *ap.  Returns 0; -1 when a class is
 * not 0 or 1, a score is NaN, or there is no positive or no negative
 * (both undefined), and then *auc and *ap are NaN.  Time complexity
 * O(n log n) (one sort of the scores); memory 8 n bytes.
 */
int auc_scores(const double *s, const int32_t *y, int64_t n, double *auc, double *ap);

#endif
