/* centrality_compute.c - the entry points of centrality.h that run the
 * parts: the connected components, then the searches (centrality_paths.c)
 * and the eigensolvers (centrality_spectral.c) over them, each phase's
 * large buffers freed before the next (centi_ws_trim); and the memory the
 * two will need (cent_ws_bytes).  The options and the workspace they share
 * are centrality.c's, below all three. */
#include <stdint.h>
#include <stdio.h>

#include "centrality.h"
#include "centrality_int.h"

/* ---- connected components ---- */

/* Label components by BFS from the smallest unvisited node.
 * Time complexity: O(n + m). */
static void
find_components(const graph *g, struct comps *cp, cent_ws *ws)
{
	int32_t n = g->n, s, k = 0, nc = 0;
	int32_t *nodes = centi_wsget(ws, W_NODES, (size_t)n, sizeof(int32_t));
	int32_t *start = centi_wsget(ws, W_START, (size_t)n + 1, sizeof(int32_t));
	int32_t *compof = centi_wsget(ws, W_COMPOF, (size_t)n, sizeof(int32_t));
	int32_t *local = centi_wsget(ws, W_LOCAL, (size_t)n, sizeof(int32_t));

	for (s = 0; s < n; s++)
		compof[s] = -1;
	for (s = 0; s < n; s++) {
		int32_t head;
		if (compof[s] >= 0)
			continue;
		start[nc] = k;
		head = k;
		nodes[k++] = s;
		compof[s] = nc;
		while (head < k) {
			int32_t v = nodes[head++];
			int64_t p;
			for (p = g->off[v]; p < g->off[v + 1]; p++) {
				int32_t u = g->adj[p];
				if (compof[u] < 0) {
					compof[u] = nc;
					nodes[k++] = u;
				}
			}
		}
		nc++;
	}
	start[nc] = k;
	for (s = 0; s < nc; s++) {
		int32_t i;
		for (i = start[s]; i < start[s + 1]; i++)
			local[nodes[i]] = i - start[s];
	}
	cp->n = nc;
	cp->nodes = nodes;
	cp->start = start;
	cp->compof = compof;
	cp->local = local;
}

void
cent_ws_bytes(const graph *g, const struct cent_opts *o, const cent_out *want, int threads,
	      cent_ws *ws, double *search, double *spectral)
{
	struct comps cp;
	double comps = 16.0 * g->n + 4;

	*search = *spectral = 0;
	if (g->n == 0)
		return;
	find_components(g, &cp, ws);
	*search = comps + centi_search_bytes(g, o, &cp, want->betweenness != NULL,
					     want->closeness != NULL, threads);
	*spectral =
	    comps + centi_spectral_bytes(g, o, &cp, want->eigenvector != NULL,
					 want->subgraph != NULL || want->subgraph_log != NULL);
}

int
centrality_compute(const graph *g, const struct cent_opts *opts, cent_out *out, cent_ws *ws,
		   char *msg, size_t msglen)
{
	struct cent_opts def;
	struct comps cp;
	cent_ws own;
	int rc = 0;

	out->approx = 0;
	out->subgraph_clamped = 0;
	out->lambda_max = 0.0;
	out->sources = out->sampled = 0;
	out->sampled_comps = out->exact_comps = out->switched_comps = 0;
	out->bc_bound = out->cl_bound = out->sc_bound = 0.0;
	if (opts == NULL) {
		cent_opts_init(&def);
		opts = &def;
	}
	/* (the negations catch NaN too) */
	if (opts->exact_max < 0 || opts->samples < 0 || opts->eig_pairs < 1 ||
	    !(opts->bc_error > 0 && opts->bc_error <= 1) ||
	    !(opts->cl_error > 0 && opts->cl_error <= 1) || !(opts->delta > 0 && opts->delta < 1)) {
		snprintf(msg, msglen,
			 "centrality: bad options (exact_max %d, samples %d, "
			 "errors %g %g, delta %g, eig_pairs %d)",
			 (int)opts->exact_max, (int)opts->samples, opts->bc_error, opts->cl_error,
			 opts->delta, (int)opts->eig_pairs);
		return -1;
	}
	if (g->n == 0)
		return 0;
	if (ws == NULL) {
		cent_ws_init(&own);
		ws = &own;
	}
	find_components(g, &cp, ws);
	if (out->betweenness || out->closeness)
		rc = centi_paths(g, opts, &cp, out->betweenness, out->closeness, out, ws, msg,
				 msglen);
	centi_ws_trim(ws, W_SRC, W_EMIN);
	if (rc == 0 && (out->eigenvector || out->subgraph || out->subgraph_log))
		rc = centi_spectral(g, opts, &cp, out->eigenvector, out->subgraph,
				    out->subgraph_log, out, ws, msg, msglen);
	centi_ws_trim(ws, 0, W_COUNT - 1);
	if (ws == &own)
		cent_ws_free(&own);
	return rc;
}
