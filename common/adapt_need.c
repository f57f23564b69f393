/* adapt_need.c - the memory of a gcn-adapt adaptation; see adapt_need.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_need.h"
#include "err.h"
#include "mem.h"
#include "nodefeat.h"
#include "prof.h"

void
adapt_need_init(struct adapt_need *an, const struct adapt_opts *o, const model *M)
{
	memset(an, 0, sizeof *an);
	an->o = o;
	an->M = M;
	an->base = prof_peak_rss_mib() * 0x1p20;
}

/* The link tasks' items and their buffers: every edge (link) or every
 * edge and as many non-edges (linkpred), their endpoints, classes, splits
 * and logits; the decoder's node arrays and chunks; each run's training
 * graph. */
static double
link_bytes(const struct adapt_need *an, double N, double m, double hid, double C)
{
	int lp = an->o->task == ADAPT_LINKPRED;
	double NI = lp ? 2 * m : m;

	return NI * (12 + 12 + 8 + 12 + 2 * 4 * C + (lp ? 16 : 0)) + 4 * N * hid * 4 +
	       (double)LCHUNK * (4 * 3 * hid + 8 * C + hid + 4) +
	       graph_bytes((int32_t)N, (int64_t)m) + graph_build_scratch((int32_t)N, (int64_t)m);
}

/* The values of the encoder tensors a boundary trains (E's with embed,
 * the blocks' from `from` up). */
static double
trained_values(const model *M, int from, int embed)
{
	uint8_t *t = xcalloc((size_t)M->nt + 1, 1);
	double n = 0;

	model_trained_tensors(M, from, embed, t);
	for (int i = 0; i < M->nt; i++)
		if (t[i])
			n += (double)(M->t[i].rows * M->t[i].cols);
	free(t);
	return n;
}

double
adapt_need_bytes(const struct adapt_need *an, int freeze, int bf)
{
	const struct adapt_opts *o = an->o;
	const struct model_cfg *mc = &an->M->cfg;
	double N = (double)an->n, m = (double)an->m, G = (double)an->G, d = mc->d, F = mc->nfeat;
	double hid = o->head_width, na = (double)an->na;
	double C = an->C > 0 ? (double)an->C : hid; /* not known yet: at most the head's width */
	int link = o->task == ADAPT_LINK || o->task == ADAPT_LINKPRED;
	double Cout = link ? hid : C, din = (o->attr_only ? 0 : d) + na;
	int embed = o->no_pretrain || freeze < 0, from = embed ? 0 : freeze;
	/* the parameters (their values are in base): the pre-trained copy,
	 * --save-model's snapshots; the gradients and Adam's moments of the
	 * tensors trained, the others' never touched */
	double need = an->base + 4.0 * (double)an->M->n * (1 + (o->save_model ? 3 : 0)) +
		      3 * 4.0 * trained_values(an->M, from, embed);

	/* the dataset: graphs (and the record of the one being read, with
	 * its scratch), classes, attributes, the features and their scratch */
	need += graph_bytes((int32_t)fmin(N, INT32_MAX), (int64_t)m) + fmax(8 * m, 0) +
		graph_build_scratch((int32_t)fmin(N, INT32_MAX), (int64_t)m);
	need += 4 * N + (4 + 1) * N * na + (8 + 4) * N * F +
		nodefeat_ws_bytes((int32_t)fmin(N, INT32_MAX), (int64_t)m);
	/* the batch: Â (rows, columns, values of 2 m + N entries) and X */
	need += 8 * (N + 1) + 8 * (2 * m + N) + 4 * N * F;
	if (!o->attr_only) /* the encoder's workspace; H0 kept below the boundary */
		need += model_ws_need(mc, (int64_t)N, (int64_t)fmax(G, 1), from, embed, bf) +
			(!embed && from == 0 ? 4 * N * d : 0);
	/* the head: Fm, Fd, dF and the input's mask, F where the input is
	 * not the mix's output itself (attributes); Y1, Z1, Z1d, t1 and their
	 * mask; t2, lg, dlg */
	need += 4 * N * d + ((o->attributes || o->attr_only ? 3 : 2) * 4 + 1) * N * din +
		(4 * 4 + 1) * N * hid + 3 * 4 * N * Cout;
	if (link)
		need += link_bytes(an, N, m, hid, C);
	else /* the best logits (and --head auto's other head's), the splits */
		need += 2 * 4 * fmax(N, G) * C + 12 * fmax(N, G);
	return need;
}

void
adapt_need_header(void *ctx, gs_file *in, const gs_rec *rec)
{
	struct adapt_need *an = ctx;

	if (an->o->task == ADAPT_GRAPH) {
		an->n += rec->n;
		an->m += rec->m;
		an->G++;
	} else {
		an->n = rec->n;
		an->m = rec->m;
		an->G = 1;
	}
	adapt_need_check(an, gs_where(in), rec->id);
}

void
adapt_need_check(const struct adapt_need *an, const char *where, int64_t id)
{
	const struct adapt_opts *o = an->o;
	int L = an->M->cfg.layers, bf = model_encoder_bf16(an->n, an->M->cfg.d);
	double need = adapt_need_bytes(an, o->freeze, bf), room;
	char src[64], sz[32], fz[32], hint[160];
	const char *h = NULL;

	if (need <= (room = mem_room(src, sizeof src)))
		return;
	/* the options that need less: bf16 products, the encoder fixed (no
	 * backward caches), both */
	int can_bf = !bf && !o->attr_only && model_encoder_bf16_could(an->n, an->M->cfg.d);
	int can_fix = !o->no_pretrain && !o->attr_only && o->freeze < L;
	for (int k = 1; k < 4 && !h; k++) {
		int tbf = k & 1, tfix = k & 2;
		if ((tbf && !can_bf) || (tfix && !can_fix))
			continue;
		double x = adapt_need_bytes(an, tfix ? L : o->freeze, tbf || bf);
		if (x > room)
			continue;
		fz[0] = 0;
		if (tfix)
			snprintf(fz, sizeof fz, "--freeze %d ", L);
		snprintf(hint, sizeof hint, "%s%sneeds about %s", tbf ? "--precision bf16 " : "",
			 fz, mem_size(sz, sizeof sz, x));
		h = hint;
	}
	if (an->G > 1)
		mem_require_or(need, h,
			       "%s: graphs 0..%" PRId64 " (%" PRId64 " nodes, %" PRId64 " edges)",
			       where, an->G - 1, an->n, an->m);
	else
		mem_require_or(need, h,
			       "%s: graph %" PRId64 " (%" PRId64 " nodes, %" PRId64 " edges)",
			       where, id, an->n, an->m);
}

void
adapt_need_dataset(struct adapt_need *an, const struct adapt_data *ds)
{
	const struct adapt_opts *o = an->o;

	an->n = an->m = 0;
	if (o->task == ADAPT_GRAPH) {
		for (int i = 0; i < ds->ng; i++) {
			an->n += ds->gs[i].n;
			an->m += ds->gs[i].m;
		}
		an->G = ds->ng;
	} else {
		an->n = ds->g.n;
		an->m = ds->g.m;
		an->G = 1;
	}
	an->na = o->attributes || o->attr_only ? ds->na : 0;
	an->C = ds->C;
	adapt_need_check(an, ds->name, ds->id);
}
