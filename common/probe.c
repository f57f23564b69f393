/*
 * probe.c - the linear probe: standardisation and LIBLINEAR's
 * L2-regularised logistic regression (see probe.h).
 *
 * LIBLINEAR (Fan et al., "LIBLINEAR: A Library for Large Linear
 * Classification", JMLR 9, 2008), solver L2R_LR: for the labels s_i = +-1
 * of one class against the rest it minimises
 *	0.5 w'w + C sum_i log(1 + exp(-s_i w'x_i))
 * by a trust-region Newton method; x_i ends with the constant 1 (the bias,
 * regularised like the other weights in LIBLINEAR 2.3).  More than two
 * classes: one such problem per class (one-vs-rest).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <linear.h>

#include "err.h"
#include "probe.h"
#include "rng.h"
#include "split.h"

#define MAX_GRID 64

struct probe_ws {
	int D, C;
	struct feature_node *nodes; /* (n x (D + 2)) the rows of a problem */
	struct feature_node **x;    /* (n) each row's start */
	struct feature_node *row;   /* (D + 2) a row to predict */
	double *yv;		    /* (n) classes as LIBLINEAR takes them */
	double *mu, *sd, *z;	    /* (D) each: the scaling, a scaled row */
	double *init;		    /* ((D + 1) x C) the previous C's weights */
	double *p;		    /* (C + 2) LIBLINEAR's probabilities */
	double *pr;		    /* (C) a held-out row's, by class */
	int32_t *fit, *held, *ytr;  /* (n) each: CV rows, their classes */
	int *fold;		    /* (n) */
};

void
probe_opts_default(struct probe_opts *o)
{
	o->C = 0;
	o->grid_lo = 1e-4;
	o->grid_hi = 1e2;
	o->cv_folds = 5;
	o->eps = 0.01;
}

int
probe_grid(const struct probe_opts *o, double *Cs, int max)
{
	int k = 0;

	while (k < max && o->grid_lo * pow(10, k) <= o->grid_hi * (1 + 1e-9)) {
		Cs[k] = o->grid_lo * pow(10, k);
		k++;
	}
	return k;
}

void
probe_scale_fit(const double *X, int D, const int32_t *rows, int64_t m, double *mu, double *sd)
{
	for (int j = 0; j < D; j++)
		mu[j] = sd[j] = 0;
	if (m == 0)
		return;
	for (int64_t i = 0; i < m; i++) {
		const double *x = X + (int64_t)rows[i] * D;
		for (int j = 0; j < D; j++)
			mu[j] += x[j];
	}
	for (int j = 0; j < D; j++)
		mu[j] /= (double)m;
	/* sd: the second pass; a column of equal values gets 0 exactly (its
	 * computed mean need not equal the value, and would leave rounding
	 * noise to be scaled up to +-1) */
	const double *x0 = X + (int64_t)rows[0] * D;
	for (int j = 0; j < D; j++) {
		double q = 0;
		int varies = 0;
		for (int64_t i = 0; i < m; i++) {
			double v = X[(int64_t)rows[i] * D + j], e = v - mu[j];
			varies |= v != x0[j];
			q += e * e;
		}
		sd[j] = varies ? sqrt(q / (double)m) : 0;
	}
}

void
probe_scale_row(const double *x, const double *mu, const double *sd, int D, double *out)
{
	for (int j = 0; j < D; j++)
		out[j] = sd[j] > 0 ? (x[j] - mu[j]) / sd[j] : 0;
}

/* LIBLINEAR reports each solver iteration through one global function:
 * nothing of it is shown. */
static void
quiet(const char *s)
{
	(void)s;
}

probe_ws *
probe_ws_new(const struct probe_data *d)
{
	probe_ws *w = xcalloc(1, sizeof *w);
	size_t n = (size_t)d->n + 1, D = (size_t)d->D, C = (size_t)d->C;

	set_print_string_function(quiet);
	w->D = d->D;
	w->C = d->C;
	w->nodes = xmallocarray(n, (D + 2) * sizeof *w->nodes);
	w->x = xmallocarray(n, sizeof *w->x);
	w->row = xmallocarray(D + 2, sizeof *w->row);
	w->yv = xmallocarray(n, sizeof *w->yv);
	w->mu = xmallocarray(D + 1, sizeof *w->mu);
	w->sd = xmallocarray(D + 1, sizeof *w->sd);
	w->z = xmallocarray(D + 1, sizeof *w->z);
	w->init = xmallocarray(D + 1, (C + 1) * sizeof *w->init);
	w->p = xmallocarray(C + 2, sizeof *w->p);
	w->pr = xmallocarray(C + 1, sizeof *w->pr);
	w->fit = xmallocarray(n, sizeof *w->fit);
	w->held = xmallocarray(n, sizeof *w->held);
	w->ytr = xmallocarray(n, sizeof *w->ytr);
	w->fold = xmallocarray(n, sizeof *w->fold);
	return w;
}

void
probe_ws_free(probe_ws *w)
{
	if (!w)
		return;
	free(w->nodes);
	free(w->x);
	free(w->row);
	free(w->yv);
	free(w->mu);
	free(w->sd);
	free(w->z);
	free(w->init);
	free(w->p);
	free(w->pr);
	free(w->fit);
	free(w->held);
	free(w->ytr);
	free(w->fold);
	free(w);
}

/* Row x standardised into LIBLINEAR's form at p: the non-zero values
 * (index j + 1), the bias (index D + 1, value 1), the end (-1).  Returns
 * the node after it. */
static struct feature_node *
put_row(const probe_ws *w, const double *x, struct feature_node *p)
{
	probe_scale_row(x, w->mu, w->sd, w->D, w->z);
	for (int j = 0; j < w->D; j++)
		if (w->z[j] != 0) {
			p->index = j + 1;
			p->value = w->z[j];
			p++;
		}
	p->index = w->D + 1;
	p->value = 1;
	p[1].index = -1;
	p[1].value = 0;
	return p + 2;
}

/* The problem of rows[0..m) of d, standardised on themselves. */
static void
build(probe_ws *w, const struct probe_data *d, const int32_t *rows, int64_t m, struct problem *prob)
{
	struct feature_node *p = w->nodes;

	probe_scale_fit(d->X, d->D, rows, m, w->mu, w->sd);
	for (int64_t i = 0; i < m; i++) {
		w->x[i] = p;
		p = put_row(w, d->X + (int64_t)rows[i] * d->D, p);
		w->yv[i] = d->y[rows[i]];
	}
	memset(prob, 0, sizeof *prob);
	prob->l = (int)m;
	prob->n = d->D + 1;
	prob->y = w->yv;
	prob->x = w->x;
	prob->bias = 1;
}

/* L2R_LR at C, started from init (NULL: from 0). */
static struct model *
fit(const struct problem *prob, double C, double eps, const double *init)
{
	struct parameter par;

	memset(&par, 0, sizeof par);
	par.solver_type = L2R_LR;
	par.C = C;
	par.eps = eps;
	par.init_sol = (double *)init; /* read only */
	return train(prob, &par);
}

/* Probabilities of the C classes for row x (scaled as the last build) into
 * prob; returns the most probable class (ties: the smaller). */
static int
predict_row(probe_ws *w, const struct model *m, const double *x, double *prob)
{
	int best = 0;

	put_row(w, x, w->row);
	predict_probability(m, w->row, w->p);
	for (int c = 0; c < w->C; c++)
		prob[c] = 0;
	for (int k = 0; k < m->nr_class; k++)
		prob[m->label[k]] = w->p[k];
	for (int c = 1; c < w->C; c++)
		if (prob[c] > prob[best])
			best = c;
	return best;
}

/* Keep m's weights as the next fit's start: (D + 1) x nr_w, nr_w = 1 for
 * two classes (LIBLINEAR's layout, the same for init_sol). */
static void
keep_weights(probe_ws *w, const struct model *m)
{
	int nr_w = m->nr_class == 2 ? 1 : m->nr_class;

	memcpy(w->init, m->w, (size_t)(w->D + 1) * (size_t)nr_w * sizeof *w->init);
}

/* Fold f of the inner CV: fit rows and held-out rows of train. */
static void
fold_rows(probe_ws *w, const int32_t *train, int64_t ntrain, int f, int64_t *nfit, int64_t *nheld)
{
	*nfit = *nheld = 0;
	for (int64_t i = 0; i < ntrain; i++)
		if (w->fold[i] == f)
			w->held[(*nheld)++] = train[i];
		else
			w->fit[(*nfit)++] = train[i];
}

/* C of the best pooled CV accuracy over the grid (probe_run). */
static void
choose_C(probe_ws *w, const struct probe_data *d, const struct probe_opts *o, const int32_t *train,
	 int64_t ntrain, uint64_t seed, int run, struct probe_result *res, void (*tick)(void *),
	 void *arg)
{
	double Cs[MAX_GRID];
	int64_t correct[MAX_GRID] = { 0 }, nfit, nheld;
	int G = probe_grid(o, Cs, MAX_GRID), best = 0;
	struct problem prob;
	gsl_rng *r = rng_new(seed, rng_mix((uint64_t)run, PROBE_CV_STREAM));

	for (int64_t i = 0; i < ntrain; i++)
		w->ytr[i] = d->y[train[i]];
	split_folds(w->ytr, ntrain, d->C, o->cv_folds, r, w->fold);
	gsl_rng_free(r);
	for (int f = 0; f < o->cv_folds; f++) {
		fold_rows(w, train, ntrain, f, &nfit, &nheld);
		if (nfit == 0 || nheld == 0)
			continue;
		build(w, d, w->fit, nfit, &prob);
		for (int g = 0; g < G; g++) {
			struct model *m = fit(&prob, Cs[g], o->eps, g ? w->init : NULL);
			for (int64_t i = 0; i < nheld; i++)
				correct[g] += predict_row(w, m, d->X + (int64_t)w->held[i] * d->D,
							  w->pr) == d->y[w->held[i]];
			keep_weights(w, m);
			free_and_destroy_model(&m);
			if (tick)
				tick(arg);
		}
	}
	for (int g = 1; g < G; g++)
		if (correct[g] > correct[best])
			best = g;
	res->C = Cs[best];
	res->cv_acc = (double)correct[best] / (double)ntrain;
	res->ngrid = G;
}

void
probe_run(probe_ws *w, const struct probe_data *d, const struct probe_opts *o, const int32_t *train,
	  int64_t ntrain, const int32_t *test, int64_t ntest, uint64_t seed, int run,
	  struct probe_result *res, void (*tick)(void *), void *arg)
{
	struct problem prob;
	struct model *m;

	memset(res, 0, sizeof *res);
	res->C = o->C;
	res->cv_acc = NAN;
	if (o->C <= 0)
		choose_C(w, d, o, train, ntrain, seed, run, res, tick, arg);
	build(w, d, train, ntrain, &prob);
	m = fit(&prob, res->C, o->eps, NULL);
	res->ntest = ntest;
	res->test = xmallocarray((size_t)ntest + 1, sizeof *res->test);
	res->pred = xmallocarray((size_t)ntest + 1, sizeof *res->pred);
	res->prob = xmallocarray((size_t)ntest + 1, (size_t)d->C * sizeof *res->prob);
	for (int64_t i = 0; i < ntest; i++) {
		res->test[i] = test[i];
		res->pred[i] =
		    predict_row(w, m, d->X + (int64_t)test[i] * d->D, res->prob + i * d->C);
	}
	free_and_destroy_model(&m);
	if (tick)
		tick(arg);
}

void
probe_result_free(struct probe_result *res)
{
	if (!res)
		return;
	free(res->test);
	free(res->pred);
	free(res->prob);
	memset(res, 0, sizeof *res);
}

/* Row by row: the inner loops run over a row's D values, which lie side
 * by side and are independent (the compiler vectorises them; a column's
 * sum in one register waits on each add), and each column is still summed
 * in row order, so the result is the column-by-column one to the bit.
 * The values are finite (the stream refuses NaN), so a comparison is the
 * maximum. */
void
probe_pool(const double *X, int64_t n, int D, int how, double *out)
{
	int mean = how == PROBE_POOL_MEAN || how == PROBE_POOL_MEANMAX;
	double *mx = how == PROBE_POOL_MEANMAX ? out + D : out;

	if (how == PROBE_POOL_MAX || how == PROBE_POOL_MEANMAX) {
		memcpy(mx, X, (size_t)D * sizeof *mx);
		for (int64_t i = 1; i < n; i++)
			for (int j = 0; j < D; j++) /* a comparison, not fmax(): a call */
				mx[j] = X[i * D + j] > mx[j] ? X[i * D + j] : mx[j];
	}
	if (how == PROBE_POOL_MAX)
		return;
	for (int j = 0; j < D; j++)
		out[j] = 0;
	for (int64_t i = 0; i < n; i++)
		for (int j = 0; j < D; j++)
			out[j] += X[i * D + j];
	if (mean)
		for (int j = 0; j < D; j++)
			out[j] /= (double)n;
}
