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
	free(f->conf);
	free(f->per_class);
	f1_init(f);
}

int
f1_compute(struct f1 *f, const int32_t *y, const int32_t *p, int64_t n, int C,
	   int64_t *bad)
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
	f->conf = xcalloc((size_t)C * (size_t)C, sizeof *f->conf);
	f->per_class = xmallocarray((size_t)C, sizeof *f->per_class);
	for (int64_t i = 0; i < n; i++)
		f->conf[(int64_t)y[i] * C + p[i]]++;
	f->present = 0;
	for (int c = 0; c < C; c++) {
		int64_t row = 0, col = 0, d = f->conf[(int64_t)c * C + c];
		for (int k = 0; k < C; k++) {
			row += f->conf[(int64_t)c * C + k];
			col += f->conf[(int64_t)k * C + c];
		}
		tp += d;
		if (row + col == 0) {
			f->per_class[c] = NAN;
			continue;
		}
		/* 2 tp / (2 tp + fp + fn) = 2 tp / (row + col) */
		f->per_class[c] = 2.0 * (double)d / (double)(row + col);
		sum += f->per_class[c];
		f->present++;
	}
	f->micro = (double)tp / (double)n;
	f->macro = sum / f->present;
	return 0;
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
}
