/* auc.c - ROC AUC and average precision; see auc.h. */
#include <math.h>
#include <stdlib.h>

#include "auc.h"
#include "err.h"

/* the items' order for the sort: score descending */
struct item {
	double s;
	int32_t y;
};

static int
cmp_desc(const void *a, const void *b)
{
	double x = ((const struct item *)a)->s, y = ((const struct item *)b)->s;
	return (x < y) - (x > y);
}

/*
 * One pass over the items by score, highest first, a group of tied
 * scores at a time: a positive of the group beats the negatives below it
 * (fn counts the negatives seen so far, so the ones above are taken off)
 * and ties with the group's negatives (one half each); the AP adds the
 * group's recall step times the precision at its end.
 */
int
auc_scores(const double *s, const int32_t *y, int64_t n, double *auc, double *ap)
{
	int64_t P = 0, N = 0;

	*auc = *ap = NAN;
	for (int64_t i = 0; i < n; i++) {
		if ((y[i] != 0 && y[i] != 1) || isnan(s[i]))
			return -1;
		P += y[i];
	}
	N = n - P;
	if (P == 0 || N == 0)
		return -1;
	struct item *it = xmallocarray((size_t)n, sizeof *it);
	for (int64_t i = 0; i < n; i++)
		it[i] = (struct item){ s[i], y[i] };
	qsort(it, (size_t)n, sizeof *it, cmp_desc);
	double above = 0, pairs = 0, sum_ap = 0; /* negatives above; pair wins */
	int64_t tp = 0, fp = 0;
	for (int64_t i = 0; i < n;) {
		int64_t j = i, gp = 0, gn = 0;
		while (j < n && it[j].s == it[i].s) {
			gp += it[j].y;
			gn += 1 - it[j].y;
			j++;
		}
		/* the group's positives beat every negative below the group */
		pairs += (double)gp * ((double)N - above - (double)gn) + 0.5 * (double)gp * gn;
		above += (double)gn;
		tp += gp;
		fp += gn;
		sum_ap += (double)gp / (double)P * (double)tp / (double)(tp + fp);
		i = j;
	}
	free(it);
	*auc = pairs / ((double)P * (double)N);
	*ap = sum_ap;
	return 0;
}
