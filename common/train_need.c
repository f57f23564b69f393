/* train_need.c - the memory of a gcn-train run; see train_need.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "graph.h"
#include "mem.h"
#include "prof.h"
#include "train_need.h"

/* Clusters a graph is taken to have at most, for the cluster task's
 * scratch, which the header cannot tell. */
#define MAX_CLUSTERS 64
#define LIB_BYTES (48 * 0x1p20)

void
train_need_init(struct train_need *tn, const struct train_settings *s, int by_graph)
{
	model M;

	memset(tn, 0, sizeof *tn);
	tn->s = s;
	if (train_settings_model_cfg(s, &tn->mc) != 0)
		die_usage("model settings out of range");
	/* an objective's width is its target's, which the data gives
	 * (train_settings_set_objectives(), after reading): a column each
	 * here, a head's size being small beside the encoder's */
	for (int i = 0; i < tn->mc.nobj; i++)
		if (tn->mc.obj[i].width < 1)
			tn->mc.obj[i].width = 1;
	if (model_layout(&M, &tn->mc) != 0)
		die_usage("model settings out of range");
	tn->np = M.n;
	model_free(&M);
	tn->B = (int)s->batch;
	tn->by_graph = by_graph;
	tn->topn = xcalloc((size_t)tn->B + 1, sizeof *tn->topn);
	tn->topm = xcalloc((size_t)tn->B + 1, sizeof *tn->topm);
	tn->base = prof_peak_rss_mib() * 0x1p20;
}

void
train_need_free(struct train_need *tn)
{
	free(tn->topn);
	free(tn->topm);
}

/* The need() growth of the workspace's buffers (model.c): 17/16. */
static double
grown(double bytes)
{
	return bytes * 17 / 16;
}

/* The step's scratch beyond the encoder's own: the tasks' arenas (the
 * largest, when above the encoder's T1, T2, dH, which model_ws_need()
 * counts), their rows' gradients and outputs, for N nodes and G graphs. */
static double
tasks_bytes(const struct train_need *tn, double N, double G)
{
	const struct model_cfg *c = &tn->mc;
	double d = c->d, k = c->ntn_k, ha = c->att_hidden, hr = c->rank_hidden;
	double P = G * (double)(tn->s->npos + tn->s->nneg), U = fmin(2 * P, N), Q = U;
	double S = fmin(N, G * MAX_CLUSTERS), km = fmin(N, MAX_CLUSTERS);
	double rec = 2 * P * d + P * k * d + fmin(P, 4096) * k * d + P * k + 2 * P,
	       rank = U * d + U * MODEL_NCENT * hr + U * MODEL_NCENT + 2 * P * MODEL_NCENT,
	       clu = N * d + Q * d + N * ha + 2 * N + 2 * S * d + 2 * S * k * d + 2 * Q * k +
		     2 * S * k + Q * km * k + Q * km;
	double arena = fmax(fmax(rec, rank), clu) - 3 * N * d;
	double s = 4 * fmax(arena, 0);

	/* dFu, dFv, dFU, dFs, dFq; rlog, rS, clog */
	s += 4 * (2 * P * d + U * d + N * d + Q * d + P + U * MODEL_NCENT + Q * km);
	return grown(s);
}

double
train_need_bytes(const struct train_need *tn, int B, int by_graph, int bf)
{
	const struct model_cfg *c = &tn->mc;
	double N = 0, m = 0, G = by_graph ? 1 : fmin(B, tn->k), F = c->nfeat, n = (double)tn->n;
	/* parameters, gradients, Adam's moments, the best copy; by graph,
	 * each graph's gradient and the exact sums (16 bytes a value) */
	double need = tn->base + 4.0 * (double)tn->np * (5 + (by_graph ? 5 : 0));
	/* what the libraries (OpenBLAS, oneDNN, OpenMP) take at the first
	 * products, beyond the base: about 40 MiB, measured (gcn-train -j 1
	 * --reduce graph on 1,500-node graphs) */
	need += LIB_BYTES;

	for (int i = 0; i < G; i++) {
		N += (double)tn->topn[i];
		m += (double)tn->topm[i];
	}
	/* the corpus: graphs, clusters, centralities (the input's features
	 * are counted as the paper's width); the largest record being read,
	 * its scratch */
	need += graph_bytes((int32_t)fmin(n, INT32_MAX), tn->m) +
		n * (4 + 8 * MODEL_NCENT + 8 * F) + 8 * (double)tn->mmax +
		graph_build_scratch((int32_t)tn->topn[0], tn->mmax);
	/* the batch: X, Â (rows, columns, values), its pairs and the graphs'
	 * pieces (features, masks, selections: about 64 bytes a node) */
	need += 4 * N * F + 8 * (N + 1) + 8 * (2 * m + N) + 64 * N +
		48 * G * (double)(tn->s->npos + tn->s->nneg);
	need += model_ws_need(c, (int64_t)N, (int64_t)G, 0, 1, bf) + tasks_bytes(tn, N, G);
	return need;
}

/* Keep a graph's sizes among the B largest (largest first). */
static void
add_graph(struct train_need *tn, int64_t n, int64_t m)
{
	int i;

	if (tn->k < tn->B)
		i = tn->k++;
	else if (n > tn->topn[tn->B - 1])
		i = tn->B - 1;
	else
		return;
	for (; i > 0 && tn->topn[i - 1] < n; i--) {
		tn->topn[i] = tn->topn[i - 1];
		tn->topm[i] = tn->topm[i - 1];
	}
	tn->topn[i] = n;
	tn->topm[i] = m;
}

/* The nodes of the largest step: the B largest graphs' (by graph, the
 * largest's). */
static double
step_nodes(const struct train_need *tn)
{
	double N = 0;
	for (int i = 0; i < (tn->by_graph ? 1 : tn->k); i++)
		N += (double)tn->topn[i];
	return N;
}

double
train_need_total(const struct train_need *tn)
{
	return train_need_bytes(tn, tn->B, tn->by_graph,
				model_encoder_bf16((int64_t)step_nodes(tn), tn->mc.d));
}

void
train_need_header(void *ctx, gs_file *in, const gs_rec *rec)
{
	struct train_need *tn = ctx;
	char src[64], sz[32], hint[160];
	const char *h = NULL;

	tn->G++;
	tn->n += rec->n;
	tn->m += rec->m;
	tn->mmax = rec->m > tn->mmax ? rec->m : tn->mmax;
	add_graph(tn, rec->n, rec->m);
	double N = step_nodes(tn);
	int bf = model_encoder_bf16((int64_t)N, tn->mc.d);
	double need = train_need_bytes(tn, tn->B, tn->by_graph, bf), room;
	if (need <= (room = mem_room(src, sizeof src)))
		return;
	/* the options that need less: fewer graphs a step, bf16 products,
	 * one graph a pass; named when they leave a twentieth of the room
	 * for the graphs still to come, which the figures cannot count */
	double x, fit = 0.95 * room;
	for (int b = (tn->k < tn->B ? tn->k : tn->B) - 1; !h && !tn->by_graph && b >= 1; b--)
		if ((x = train_need_bytes(tn, b, 0, bf)) <= fit) {
			snprintf(hint, sizeof hint, "--batch %d needs about %s", b,
				 mem_size(sz, sizeof sz, x));
			h = hint;
		}
	if (!h && !bf && model_encoder_bf16_could((int64_t)N, tn->mc.d) &&
	    (x = train_need_bytes(tn, tn->B, tn->by_graph, 1)) <= fit) {
		snprintf(hint, sizeof hint, "--precision bf16 needs about %s",
			 mem_size(sz, sizeof sz, x));
		h = hint;
	}
	if (!h && !tn->by_graph && (x = train_need_bytes(tn, tn->B, 1, bf)) <= fit) {
		snprintf(hint, sizeof hint, "--reduce graph needs about %s",
			 mem_size(sz, sizeof sz, x));
		h = hint;
	}
	mem_require_or(need, h,
		       "%s: graphs 0..%" PRId64 " (%" PRId64 " nodes, %" PRId64
		       " edges; the %d largest, a step's batch: %.0f nodes)",
		       gs_where(in), tn->G - 1, tn->n, tn->m, tn->by_graph ? 1 : tn->k, N);
}
