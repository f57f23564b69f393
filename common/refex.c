/* refex.c - the ReFeX-style feature set; see refex.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "refex.h"

void
refex_ws_init(refex_ws *ws)
{
	nodefeat_ws_init(&ws->fw);
	ws->raw = NULL;
	ws->cap = 0;
}

void
refex_ws_free(refex_ws *ws)
{
	if (ws == NULL)
		return;
	nodefeat_ws_free(&ws->fw);
	free(ws->raw);
	refex_ws_init(ws);
}

/*
 * One aggregation level: for every node v, the mean of columns mean_in..+3
 * and the maximum of columns max_in..+3 of its neighbours' rows, into
 * columns mean_out..+3 and max_out..+3 of v's row (0 for an isolated
 * node).  The columns read are never the ones written, so the level reads
 * only values of the level below it.  Time: O(n + m).
 */
static void
aggregate(const graph *g, double *out, int mean_in, int max_in, int mean_out, int max_out)
{
	int64_t v;

#pragma omp parallel for schedule(static) if (2 * g->m >= FEATURES_PAR_MIN_ARCS)
	for (v = 0; v < g->n; v++) {
		double *row = out + (size_t)v * REFEX_COLS, sum[FEAT_N] = { 0 }, mx[FEAT_N];
		int64_t p, deg = g->off[v + 1] - g->off[v];
		int f;

		if (deg == 0) {
			for (f = 0; f < FEAT_N; f++)
				row[mean_out + f] = row[max_out + f] = 0;
			continue;
		}
		for (f = 0; f < FEAT_N; f++)
			mx[f] = -INFINITY;
		for (p = g->off[v]; p < g->off[v + 1]; p++) {
			const double *nb = out + (size_t)g->adj[p] * REFEX_COLS;

			for (f = 0; f < FEAT_N; f++) {
				sum[f] += nb[mean_in + f];
				if (nb[max_in + f] > mx[f])
					mx[f] = nb[max_in + f];
			}
		}
		for (f = 0; f < FEAT_N; f++) {
			row[mean_out + f] = sum[f] / (double)deg;
			row[max_out + f] = mx[f];
		}
	}
}

void
refex_compute(const graph *g, double *out, refex_ws *ws)
{
	refex_ws local;
	int32_t v;

	if (ws == NULL) {
		refex_ws_init(&local);
		refex_compute(g, out, &local);
		refex_ws_free(&local);
		return;
	}
	if ((size_t)g->n > ws->cap) {
		ws->cap = (size_t)g->n;
		ws->raw = xreallocarray(ws->raw, ws->cap, FEAT_N * sizeof *ws->raw);
	}
	nodefeat_raw(g, ws->raw, &ws->fw);
	for (v = 0; v < g->n; v++) {
		const double *x = ws->raw + (size_t)v * FEAT_N;
		double *row = out + (size_t)v * REFEX_COLS;

		row[0] = log1p(x[FEAT_DEGREE]);
		row[1] = log1p(x[FEAT_CORE]);
		row[2] = log1p(x[FEAT_CI1]); /* CI_1 >= 0 (nodefeat.h) */
		row[3] = x[FEAT_CLUSTERING];
	}
	aggregate(g, out, 0, 0, 4, 8);	 /* level 1: of the base features */
	aggregate(g, out, 4, 8, 12, 16); /* level 2: means of means, maxima of maxima */
}
