/*
 * test_model.c - the model (common/model.c) in the float build, as the
 * programs run it (test_nn.c checks its gradients in double, test_bf16.c
 * its bf16 step): the encoder's workspace, sized for a batch before the
 * first block, and no allocation in the blocks.  For each forward pass
 * (inference's, model_encode_fwd(); training's, model_encode(); from a
 * given input, model_encode_from()) in fp32 and, where the machine has
 * it, bf16, on one workspace: the first batch allocates, none of it in
 * the blocks; a second batch of the same shape allocates nothing, and
 * neither does a smaller one; a larger one grows before the first block
 * (each buffer once at most: no more allocations than a fresh workspace
 * makes for it) and not in the blocks.  The allocations are the
 * workspace's own count (model_ws_allocs()); the outputs on the reused
 * workspace are the bytes of a fresh one's.  And gcn-adapt's passes
 * (the fixed part below a fix-tune boundary, then the passes above it):
 * the fixed part's outputs are model_encode()'s, and the workspace holds
 * model_ws_need()'s bytes, which gcn-adapt's memory check counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "err.h"
#include "gemm.h"
#include "graph.h"
#include "model.h"
#include "ref_util.h"
#include "rng.h"

#ifdef NN_DOUBLE
#error "test_model.c is the float build"
#endif

#define D 64   /* width: bf16's products need 16 a side and 2^20 multiply-adds */
#define FROM 1 /* model_encode_from()'s first block */
#define MAXG 3 /* graphs of a batch */

enum { PASS_FWD, PASS_TRAIN, PASS_FROM, NPASS };
static const char *const pass_name[NPASS] = { "model_encode_fwd", "model_encode",
					      "model_encode_from" };

/* A batch: its graphs' node counts (the batch's nodes add up past 256, so
 * that the bf16 products run). */
struct shape {
	const char *name;
	int ng;
	int32_t n[MAXG];
};
static const struct shape first = { "the first batch", 2, { 400, 200 } },
			  smaller = { "a smaller batch", 1, { 300 } },
			  larger = { "a larger batch", 3, { 500, 400, 100 } };

/* The batch of shape s with the paper's features. */
static void
make_batch(batch *b, const struct shape *s)
{
	graph g[MAXG];
	const graph *gp[MAXG];
	struct feat_src fs;
	char msg[200];

	for (int i = 0; i < s->ng; i++) {
		ref_dcbm_graph(&g[i], s->n[i], 8, 4, 5, 100 * (uint64_t)s->ng + (uint64_t)i);
		gp[i] = &g[i];
	}
	feat_src_default(&fs);
	batch_init(b);
	cr_assert(batch_plain(b, gp, s->ng, &fs, NULL, msg, sizeof msg) == 0, "%s", msg);
	for (int i = 0; i < s->ng; i++)
		graph_free(&g[i]);
}

/* What a pass gave: the workspace's allocations after it, those in its
 * blocks, and a copy of the block outputs it made. */
struct result {
	size_t allocs, in_blocks;
	real *H[MODEL_MAXL];
};

/* One pass over b on w, its result in *res (res_free() releases it). */
static void
run_pass(model *M, const batch *b, mws *w, int pass, struct result *res)
{
	real *Hs[MODEL_MAXL];
	int64_t nd = b->N * M->cfg.d;
	int from = pass == PASS_FROM ? FROM : 0;

	memset(res, 0, sizeof *res);
	if (pass == PASS_FWD) {
		model_encode_fwd(M, b, w, Hs);
	} else if (pass == PASS_TRAIN) {
		model_encode(M, b, w, Hs);
	} else {
		/* block FROM's input: any N x d values; H0 will do */
		real *Hin = xmallocarray((size_t)nd, sizeof *Hin);
		model_embed(M, b, Hin);
		model_encode_from(M, b, w, from, Hin, Hs);
		free(Hin);
	}
	res->allocs = model_ws_allocs(w, &res->in_blocks);
	for (int l = from; l < M->cfg.layers; l++) {
		res->H[l] = xmallocarray((size_t)nd, sizeof(real));
		memcpy(res->H[l], Hs[l], (size_t)nd * sizeof(real));
	}
}

static void
res_free(struct result *res)
{
	for (int l = 0; l < MODEL_MAXL; l++)
		free(res->H[l]);
}

/* The block outputs of a and b are the same bytes. */
static void
same_outputs(const model *M, const batch *bt, const struct result *a, const struct result *b,
	     const char *what)
{
	for (int l = 0; l < M->cfg.layers; l++) {
		if (!a->H[l])
			continue;
		cr_assert(memcmp(a->H[l], b->H[l], (size_t)(bt->N * M->cfg.d) * sizeof(real)) == 0,
			  "%s: block %d differs from a fresh workspace's", what, l + 1);
	}
}

/* A pass over b on a workspace of its own. */
static void
fresh_pass(model *M, const batch *b, int pass, struct result *res)
{
	mws *w = model_ws_new();
	run_pass(M, b, w, pass, res);
	model_ws_free(w);
}

/* A pass over b on w, which has made `before` allocations: with grow 0
 * it adds none, with grow 1 some, no more than a fresh workspace makes
 * for b; none in the blocks, and the bytes of a fresh workspace's pass.
 * Returns the allocations of w after it. */
static size_t
check_next(model *M, const batch *b, mws *w, int pass, size_t before, int grow, const char *prec,
	   const char *name)
{
	struct result r, ref;
	char what[160];

	snprintf(what, sizeof what, "%s, %s, %s", prec, pass_name[pass], name);
	run_pass(M, b, w, pass, &r);
	fresh_pass(M, b, pass, &ref);
	if (grow) {
		cr_expect(r.allocs > before, "%s: the workspace did not grow", what);
		cr_expect(r.allocs - before <= ref.allocs,
			  "%s: %zu allocations, a fresh workspace makes %zu", what,
			  r.allocs - before, ref.allocs);
	} else {
		cr_expect(r.allocs == before, "%s: %zu allocations", what, r.allocs - before);
	}
	cr_expect(r.in_blocks == 0, "%s: %zu allocations in the blocks", what, r.in_blocks);
	same_outputs(M, b, &r, &ref, what);
	res_free(&r);
	res_free(&ref);
	return r.allocs;
}

/* The batches of the header, in order, on one workspace. */
static void
check_reuse(model *M, int pass, const char *prec)
{
	batch b1, b2, b3;
	struct result r;
	mws *w = model_ws_new();

	make_batch(&b1, &first);
	make_batch(&b2, &smaller);
	make_batch(&b3, &larger);
	cr_assert(b2.N < b1.N && b1.N < b3.N && b3.G > b1.G);
	if (gemm_precision() == GEMM_BF16)
		cr_assert(model_encoder_bf16(b2.N, D), "%s: the bf16 blocks run", prec);

	run_pass(M, &b1, w, pass, &r);
	cr_expect(r.allocs > 0, "%s, %s, %s: no allocation at all", prec, pass_name[pass],
		  first.name);
	cr_expect(r.in_blocks == 0, "%s, %s, %s: %zu allocations in the blocks", prec,
		  pass_name[pass], first.name, r.in_blocks);
	res_free(&r);
	/* the same shape again and a smaller batch: nothing; a larger one
	 * grows before the first block, each buffer once at most */
	size_t n =
	    check_next(M, &b1, w, pass, r.allocs, 0, prec, "a second pass of the same shape");
	n = check_next(M, &b2, w, pass, n, 0, prec, smaller.name);
	check_next(M, &b3, w, pass, n, 1, prec, larger.name);

	model_ws_free(w);
	batch_free(&b1);
	batch_free(&b2);
	batch_free(&b3);
}

static void
model_setup(model *M)
{
	struct model_cfg cfg;
	model_cfg_default(&cfg);
	cfg.d = D;
	cfg.rank_hidden = 16;
	cfg.att_hidden = 16;
	cr_assert(model_init(M, &cfg) == 0);
	gsl_rng *r = rng_new(11, 0);
	model_init_params(M, r);
	for (int l = 0; l < cfg.layers; l++) /* norm's beta away from 0 */
		for (int i = 0; i < cfg.d; i++)
			M->P.bet[l][i] = (real)(gsl_rng_uniform(r) - 0.5);
	gsl_rng_free(r);
}

/* check(M, name) on a fresh model in precision prec (GEMM_FP32 or
 * GEMM_BF16: skipped where the machine has no bf16). */
static void
in_precision(int prec, void (*check)(model *M, const char *prec))
{
	char why[256];
	if (prec == GEMM_BF16 && gemm_choose(GEMM_BF16, why, sizeof why) != GEMM_BF16)
		cr_skip_test("%s", why);
	model M;
	model_setup(&M);
	gemm_set_precision(prec);
	check(&M, gemm_precision_name(prec));
	gemm_set_precision(GEMM_FP32);
	model_free(&M);
	gemm_release();
}

static void
check_reuse_all(model *M, const char *prec)
{
	for (int pass = 0; pass < NPASS; pass++)
		check_reuse(M, pass, prec);
}

Test(model, encoder_sized_once_fp32)
{
	in_precision(GEMM_FP32, check_reuse_all);
}

Test(model, encoder_sized_once_bf16)
{
	in_precision(GEMM_BF16, check_reuse_all);
}

/*
 * gcn-adapt's passes on a fresh workspace (issue 49): the fixed part
 * (model_encode_fixed() up to `from`, the blocks below gcn-adapt's
 * fix-tune boundary) gives H_1..H_from to the bit as model_encode() does;
 * then the passes from the boundary up and the backward pass leave the
 * workspace at model_ws_need()'s bytes, exactly, for every boundary, E
 * trained (embed) or not.
 */
static void
check_adapt_passes(model *M, const char *prec)
{
	batch b;
	make_batch(&b, &first);
	int L = M->cfg.layers, bf = model_encoder_bf16(b.N, M->cfg.d);
	int64_t nd = b.N * M->cfg.d;
	real *dF = xcalloc((size_t)nd, sizeof *dF);
	for (int64_t i = 0; i < nd; i++)
		dF[i] = (real)((i % 7) - 3) / 8;
	struct mix_src src = { M->P.alpha[TASK_REC], M->P.psi[TASK_REC], dF, NULL, b.N, 1 };
	real *Hw[MODEL_MAXL];
	mws *ww = model_ws_new();
	model_encode(M, &b, ww, Hw);

	for (int embed = 0; embed < 2; embed++)
		for (int from = 0; from <= (embed ? 0 : L); from++) {
			mws *w = model_ws_new();
			real *Hs[MODEL_MAXL], *H0 = NULL;
			if (embed) {
				model_encode(M, &b, w, Hs);
			} else if (from == 0) {
				H0 = xmallocarray((size_t)nd, sizeof *H0);
				model_embed(M, &b, H0);
				model_encode_from(M, &b, w, 0, H0, Hs);
			} else {
				model_encode_fixed(M, &b, w, from, Hs);
				for (int l = 0; l < from; l++)
					cr_assert(
					    memcmp(Hs[l], Hw[l], (size_t)nd * sizeof(real)) == 0,
					    "%s: model_encode_fixed(%d): block %d differs from "
					    "model_encode()'s",
					    prec, from, l + 1);
				model_encode_from(M, &b, w, from, Hs[from - 1], Hs);
			}
			model_zero_grad(M);
			model_encode_bwd(M, &b, w, &src, 1, from, embed);
			double need = model_ws_need(&M->cfg, b.N, b.G, from, embed, bf);
			cr_expect((double)model_ws_bytes(w) == need,
				  "%s, from %d%s: the workspace holds %zu bytes, model_ws_need() "
				  "says %.0f",
				  prec, from, embed ? ", E trained" : "", model_ws_bytes(w), need);
			free(H0);
			model_ws_free(w);
		}
	model_ws_free(ww);
	free(dF);
	batch_free(&b);
}

Test(model, adapt_passes_need_fp32)
{
	in_precision(GEMM_FP32, check_adapt_passes);
}

Test(model, adapt_passes_need_bf16)
{
	in_precision(GEMM_BF16, check_adapt_passes);
}
