/*
 * test_embed_run.c - gcn-embed's bounded-memory forward pass
 * (common/embed_run.c) against the forward pass training uses
 * (model_encode_fwd(), whose arrays embed_out_graph() writes): the same
 * bytes for every kind of row, pooled or not, in fp32 and, where the
 * machine has it, bf16, on a graph larger than a row block; and no
 * allocation for a second graph of the same size or a smaller one (the
 * run's own count, embed_run.grows).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "embed_run.h"
#include "err.h"
#include "gemm.h"
#include "graph.h"
#include "rng.h"

#define NN 9001 /* nodes: two row blocks and a part */

/* A random graph of n nodes, about 4 n edges, from seed. */
static void
random_graph(graph *g, int32_t n, uint64_t seed)
{
	int64_t m = 4 * (int64_t)n;
	int32_t *u = xmallocarray((size_t)m, sizeof *u), *v = xmallocarray((size_t)m, sizeof *v);
	gsl_rng *r = rng_new(seed, 1);
	char msg[200];

	for (int64_t e = 0; e < m; e++) {
		u[e] = (int32_t)gsl_rng_uniform_int(r, (unsigned long)n);
		/* mostly near neighbours, some far: rows of Â across blocks */
		v[e] = e % 3 ? (u[e] + 1 + (int32_t)gsl_rng_uniform_int(r, 50)) % n
			     : (int32_t)gsl_rng_uniform_int(r, (unsigned long)n);
	}
	graph_init(g);
	cr_assert(graph_build(g, n, m, u, v, GRAPH_SIMPLIFY, NULL, msg, sizeof msg) == 0, "%s",
		  msg);
	gsl_rng_free(r);
	free(u);
	free(v);
}

/* The output of one kind, written to a string: TSV, or a record. */
static void
out_start(struct embed_out *eo, const model *M, int kind, int block, const int *pool, int npool)
{
	embed_out_init(eo);
	eo->kind = kind;
	eo->block = block;
	eo->layers = M->cfg.layers;
	eo->d = M->cfg.d;
	eo->pool = pool;
	eo->npool = npool;
	embed_out_start(eo);
}

/* The old pass's bytes and the new one's, for one kind. */
static void
same_bytes(struct embed_run *er, struct embed_opts *o, graph *g, int kind, int block, int task,
	   const int *pool, int npool, const char *what)
{
	model *M = &er->pt.M;
	int64_t N = g->n, d = M->cfg.d;
	real *Hs[MODEL_MAXL], *mix = xmallocarray((size_t)(N * d), sizeof *mix);
	gs_rec rec;
	struct filter_graph fg;
	struct embed_out eo;
	char *a, *b;
	size_t alen, blen;
	mws *w = model_ws_new();

	o->kind = kind;
	o->task = task;
	gs_rec_init(&rec);
	memset(&fg, 0, sizeof fg);
	fg.g = g;
	fg.rec = &rec;

	model_encode_fwd(M, &er->b, w, Hs);
	if (kind == EMB_MIX)
		nn_mix_fwd(mix, Hs, M->P.alpha[task], M->P.psi[task], NULL, M->cfg.layers, N, d);
	out_start(&eo, M, kind, block, pool, npool);
	fg.tsv = open_memstream(&a, &alen);
	embed_out_graph(&eo, &fg, Hs, mix, NULL);
	fclose(fg.tsv);
	embed_out_free(&eo);

	embed_out_free(&er->eo);
	out_start(&er->eo, M, kind, block, pool, npool);
	fg.tsv = open_memstream(&b, &blen);
	embed_out_begin(&er->eo, &fg, NULL);
	embed_run_encode(er);
	embed_out_end(&er->eo);
	fclose(fg.tsv);

	cr_expect(alen == blen && memcmp(a, b, alen) == 0, "%s: %zu and %zu bytes differ", what,
		  alen, blen);
	cr_expect(alen > 100, "%s: %zu bytes", what, alen);
	free(a);
	free(b);
	free(mix);
	model_ws_free(w);
	gs_rec_free(&rec);
}

static void
every_kind(struct embed_run *er, struct embed_opts *o, graph *g, const char *prec)
{
	static const int mms[] = { EMB_POOL_MEAN, EMB_POOL_MAX, EMB_POOL_SUM };
	char what[64];

	snprintf(what, sizeof what, "%s blocks", prec);
	same_bytes(er, o, g, EMB_BLOCKS, 0, 0, NULL, 0, what);
	snprintf(what, sizeof what, "%s block2", prec);
	same_bytes(er, o, g, EMB_BLOCK, 2, 0, NULL, 0, what);
	snprintf(what, sizeof what, "%s rank mix", prec);
	same_bytes(er, o, g, EMB_MIX, 0, TASK_RANK, NULL, 0, what);
	snprintf(what, sizeof what, "%s blocks pooled", prec);
	same_bytes(er, o, g, EMB_BLOCKS, 0, 0, mms, 3, what);
	snprintf(what, sizeof what, "%s cluster mix pooled", prec);
	same_bytes(er, o, g, EMB_MIX, 0, TASK_CLUSTER, mms + 1, 2, what);
}

Test(embed_run, the_bytes_of_the_training_forward)
{
	struct embed_opts o;
	struct embed_run er;
	struct model_cfg cfg;
	struct feat_src fs;
	graph g;
	char msg[200];

	memset(&o, 0, sizeof o);
	embed_run_init(&er, &o);
	model_cfg_default(&cfg);
	cfg.d = 64; /* bf16's products need 16 a side and 2^20 multiply-adds */
	cr_assert(model_init(&er.pt.M, &cfg) == 0);
	gsl_rng *r = rng_new(7, 2);
	model_init_params(&er.pt.M, r);
	for (int l = 0; l < cfg.layers; l++) /* norm's beta and psi away from 0 */
		for (int i = 0; i < cfg.d; i++)
			er.pt.M.P.bet[l][i] = (real)(gsl_rng_uniform(r) - 0.5);
	for (int t = 0; t < NTASK; t++)
		for (int l = 0; l < cfg.layers; l++)
			er.pt.M.P.psi[t][l] = (real)(gsl_rng_uniform(r) - 0.5);
	gsl_rng_free(r);
	random_graph(&g, NN, 3);
	const graph *gp = &g;
	feat_src_default(&fs);
	cr_assert(batch_plain(&er.b, &gp, 1, &fs, NULL, msg, sizeof msg) == 0, "%s", msg);

	gemm_set_precision(GEMM_FP32);
	every_kind(&er, &o, &g, "fp32");
	/* a second graph of the same size allocates no buffer of the pass,
	 * and neither does a smaller one */
	size_t grows = er.grows;
	same_bytes(&er, &o, &g, EMB_MIX, 0, TASK_REC, NULL, 0, "fp32 rec mix");
	cr_expect(er.grows == grows && er.cap_T == (size_t)NN * 64,
		  "the same size: %zu allocations", er.grows - grows);
	graph small;
	const graph *sp = &small;
	random_graph(&small, NN / 3, 4);
	cr_assert(batch_plain(&er.b, &sp, 1, &fs, NULL, msg, sizeof msg) == 0, "%s", msg);
	same_bytes(&er, &o, &small, EMB_BLOCKS, 0, 0, NULL, 0, "fp32 blocks, a smaller graph");
	same_bytes(&er, &o, &small, EMB_MIX, 0, TASK_REC, NULL, 0, "fp32 rec mix, a smaller graph");
	cr_expect(er.grows == grows, "a smaller graph: %zu allocations", er.grows - grows);
	graph_free(&small);
	cr_assert(batch_plain(&er.b, &gp, 1, &fs, NULL, msg, sizeof msg) == 0, "%s", msg);
	char why[200];
	if (gemm_choose(GEMM_BF16, why, sizeof why) == GEMM_BF16) {
		gemm_set_precision(GEMM_BF16);
		every_kind(&er, &o, &g, "bf16");
		gemm_set_precision(GEMM_FP32);
	} else {
		cr_log_warn("bf16 not checked: %s", why);
	}
	graph_free(&g);
	embed_run_free(&er);
	gemm_release();
}
