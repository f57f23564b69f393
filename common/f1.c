/*
 * f1.c - F1 scores (see f1.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "err.h"
#include "f1.h"

void
f1_init(struct f1 *f)
{
	memset(f, 0, sizeof *f);
}

void
f1_free(struct f1 *f)
{
	if (!f)
		return;
	free(f->cells);
	free(f->per_class);
	f1_init(f);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The cells of the confusion matrix that are not 0, from the keys
 * y * C + p of the n items (sorted here). */
static void
f1_cells(struct f1 *f, int64_t *key, int64_t n)
{
	qsort(key, (size_t)n, sizeof *key, cmp_i64);
	f->cells = xmallocarray((size_t)n, sizeof *f->cells);
	f->ncells = 0;
	for (int64_t i = 0; i < n; i++) {
		if (f->ncells > 0 && f->cells[f->ncells - 1].key == key[i]) {
			f->cells[f->ncells - 1].count++;
			continue;
		}
		f->cells[f->ncells++] = (struct f1_cell){ key[i], 1 };
	}
}

int
f1_compute(struct f1 *f, const int32_t *y, const int32_t *p, int64_t n, int C, int64_t *bad)
{
	int64_t tp = 0;
	double sum = 0;

	*bad = -1;
	if (n <= 0 || C <= 0)
		return -1;
	for (int64_t i = 0; i < n; i++)
		if (y[i] < 0 || y[i] >= C || p[i] < 0 || p[i] >= C) {
			*bad = i;
			return -1;
		}
	f1_free(f);
	f->C = C;
	f->n = n;
	f->per_class = xmallocarray((size_t)C, sizeof *f->per_class);
	/* each class's row and column sums and diagonal: O(n + C) */
	int64_t *row = xcalloc((size_t)C, sizeof *row), *col = xcalloc((size_t)C, sizeof *col);
	int64_t *diag = xcalloc((size_t)C, sizeof *diag),
		*key = xmallocarray((size_t)n, sizeof *key);
	for (int64_t i = 0; i < n; i++) {
		row[y[i]]++;
		col[p[i]]++;
		diag[y[i]] += y[i] == p[i];
		key[i] = (int64_t)y[i] * C + p[i];
	}
	f->present = 0;
	for (int c = 0; c < C; c++) {
		tp += diag[c];
		if (row[c] + col[c] == 0) {
			f->per_class[c] = NAN;
			continue;
		}
		/* 2 tp / (2 tp + fp + fn) = 2 tp / (row + col) */
		f->per_class[c] = 2.0 * (double)diag[c] / (double)(row[c] + col[c]);
		sum += f->per_class[c];
		f->present++;
	}
	f->micro = (double)tp / (double)n;
	f->macro = sum / f->present;
	f1_cells(f, key, n);
	free(row);
	free(col);
	free(diag);
	free(key);
	return 0;
}

int64_t
f1_conf(const struct f1 *f, int t, int p)
{
	int64_t k = (int64_t)t * f->C + p, lo = 0, hi = f->ncells;

	while (lo < hi) { /* the first cell with key >= k */
		int64_t mid = lo + (hi - lo) / 2;
		if (f->cells[mid].key < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->ncells && f->cells[lo].key == k ? f->cells[lo].count : 0;
}

int64_t
f1_known(int32_t *y, int32_t *p, int64_t n)
{
	int64_t k = 0;
	for (int64_t i = 0; i < n; i++)
		if (y[i] >= 0) {
			y[k] = y[i];
			p[k] = p[i];
			k++;
		}
	return k;
}

void
f1_mean_std(const double *x, int n, double *mean, double *std)
{
	double s = 0, q = 0;
	*mean = *std = 0;
	if (n <= 0)
		return;
	for (int i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	if (n < 2)
		return;
	for (int i = 0; i < n; i++)
		q += (x[i] - *mean) * (x[i] - *mean);
	*std = sqrt(q / (n - 1));
}

void
f1_paired(const double *a, const double *b, int n, struct f1_paired *p)
{
	double *d = xmallocarray((size_t)n + 1, sizeof *d), s;

	memset(p, 0, sizeof *p);
	p->n = n;
	f1_mean_std(a, n, &p->mean_a, &s);
	f1_mean_std(b, n, &p->mean_b, &s);
	for (int i = 0; i < n; i++)
		d[i] = a[i] - b[i];
	f1_mean_std(d, n, &p->mean, &p->sd);
	free(d);
	if (n < 2) {
		p->sd = p->lo = p->hi = NAN;
		return;
	}
	double half = gsl_cdf_tdist_Pinv(0.975, n - 1) * p->sd / sqrt(n);
	p->lo = p->mean - half;
	p->hi = p->mean + half;
	p->gain = p->lo > 0;
	p->loss = p->hi < 0;
}
