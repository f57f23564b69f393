/* centrality.c - what the centrality computations share, below them: the
 * options' defaults and the workspace (its slots, grown on demand and
 * trimmed between phases).  The searches (betweenness, closeness) are in
 * centrality_paths.c, the eigensolvers (eigenvector, subgraph) in
 * centrality_spectral.c, and the entry point that splits a graph into its
 * components and runs the two, centrality_compute, in
 * centrality_compute.c; see centrality.h for the definitions, edge cases
 * and estimators. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "centrality.h"
#include "centrality_int.h"
#include "err.h"

void
cent_ws_init(cent_ws *ws)
{
	memset(ws, 0, sizeof *ws);
}

void
cent_ws_free(cent_ws *ws)
{
	int i;

	if (ws == NULL)
		return;
	for (i = 0; i < CENT_WS_NBUF; i++)
		free(ws->buf[i]);
	cent_ws_init(ws);
}

void
cent_opts_init(struct cent_opts *o)
{
	o->exact_max = CENT_EXACT_MAX;
	o->samples = CENT_SAMPLES;
	o->bc_error = CENT_ERROR;
	o->cl_error = CENT_CL_ERROR;
	o->delta = CENT_DELTA;
	o->eig_pairs = CENT_EIG_PAIRS;
	o->seed = 0;
	o->on_progress = NULL;
	o->progress_arg = NULL;
}

/* Slot i with at least n elements of size sz (contents undefined). */
void *
centi_wsget(cent_ws *ws, int i, size_t n, size_t sz)
{
	size_t bytes;

	if (n == 0)
		n = 1;
	if (n > SIZE_MAX / sz)
		die("out of memory (centrality workspace)");
	bytes = n * sz;
	if (bytes > ws->cap[i]) {
		free(ws->buf[i]);
		ws->buf[i] = xmalloc(bytes);
		ws->cap[i] = bytes;
	}
	return ws->buf[i];
}

/* Slots over WS_KEEP bytes are freed by centi_ws_trim (centrality_int.h);
 * small ones stay for the next call. */
#define WS_KEEP ((size_t)1 << 20)

void
centi_ws_trim(cent_ws *ws, int from, int to)
{
	int i;

	for (i = from; i <= to; i++)
		if (ws->cap[i] > WS_KEEP) {
			free(ws->buf[i]);
			ws->buf[i] = NULL;
			ws->cap[i] = 0;
		}
}
