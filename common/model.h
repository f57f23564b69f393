/*
 * model.h - the pre-training model of the paper (section 3, appendix A):
 * its parameters, and the forward and backward pass of the whole model
 * over a batch (batch.h).  Its settings are in train_settings.h, its
 * records in modelio.h.
 *
 * Ownership: model_init()/model_free() own the parameter, gradient and
 * Adam buffers; model_ws_new()/model_ws_free() own the workspace, which grows on
 * demand and is reused step after step.
 *
 * The model (defaults in brackets; every size is in struct model_cfg):
 *   H0      = tanh(X E + e)                      X: 4 features, E: 4 x d [512]
 *   H(l+1)  = relu(Â norm(relu(H(l) W1) W2))     l < L [3] blocks,
 *             Â = D^-1/2 (A+I) D^-1/2 of the masked graph, norm = batch
 *             normalisation over the nodes of each graph (gamma, beta)
 *   F_task  = alpha_task * sum_l softmax(psi_task)_l H(l)   l = 1..L
 *   rec     NTN(F_u, F_v) -> logit, BCE on masked edges vs non-edges
 *   rank    4 MLPs d-hr-1 [256], RankNet BCE(sigmoid(S_u - S_v), [s_u > s_v])
 *           with target 1/2 for ties
 *   cluster attention pooling of each cluster's support nodes,
 *           c = sum softmax(w . tanh(F Wa + ba)) F, NTN(F_v, c) -> S(v, C),
 *           softmax over the graph's clusters, cross-entropy
 *   loss    L_rec + L_rank + L_cluster, each a mean over its items.
 */
#ifndef GNN_MODEL_H
#define GNN_MODEL_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "batch.h"
#include "nn.h"
#include "objective.h"
#include "objhead.h"

#define MODEL_MAXL 16 /* most GCN blocks */

enum { TASK_REC = 0, TASK_RANK, TASK_CLUSTER, NTASK };
extern const char *const model_task_name[NTASK]; /* "rec", "rank", "cluster" */

struct model_cfg {
	int nfeat;		       /* input features per node, F [4: the paper's] */
	int d;			       /* hidden width [512] */
	int layers;		       /* GCN blocks L [3] */
	int ntn_k;		       /* NTN slices [4] */
	int rank_hidden;	       /* ranking MLP hidden width [256] */
	int att_hidden;		       /* attention scorer width [512] */
	int tasks;		       /* bit (1 << TASK_x) per enabled task [all] */
	double bn_eps;		       /* [1e-5] */
	double task_w[NTASK];	       /* each task's loss weight [1] */
	int nobj;		       /* objectives besides the paper's tasks [0] */
	struct objective obj[OBJ_MAX]; /* (objective.h), widths known */
};

void model_cfg_default(struct model_cfg *c);

/* Parameter views: the same layout over the parameters and the gradients. */
struct mview {
	real *E, *Eb;
	real *W1[MODEL_MAXL], *W2[MODEL_MAXL], *gam[MODEL_MAXL], *bet[MODEL_MAXL];
	real *alpha[NTASK], *psi[NTASK];
	ntn rec, clu;
	real *rW1, *rb1, *rw2, *rb2;
	real *aW, *ab, *aw;
	struct oview ob[OBJ_MAX]; /* objective i besides the tasks (objhead.h) */
};

struct mtensor {
	char name[48];
	int64_t rows, cols, off;
};

typedef struct model {
	struct model_cfg cfg;
	int64_t n;	     /* parameters in all */
	real *p, *g, *m, *v; /* parameters, gradients, Adam moments */
	int nt;
	struct mtensor *t; /* named tensors, in layout order */
	struct mview P, G;
	int64_t adam_t; /* Adam steps taken */
} model;

/* Lay out the parameters of cfg; 0, or -1 if cfg is out of range. */
int model_init(model *M, const struct model_cfg *cfg);
/* The tensors of cfg alone (M->t, M->nt, M->n; no buffers, M->P and M->G
 * NULL), to check a record's shapes before any allocation of their size;
 * model_free() releases it.  0, or -1 if cfg is out of range. */
int model_layout(model *M, const struct model_cfg *cfg);
void model_free(model *M);
/* PyTorch-style initial values: uniform(+-1/sqrt(fan_in)) for weights and
 * biases, gamma 1, beta 0, alpha 1, psi 0. */
void model_init_params(model *M, gsl_rng *r);
/*
 * The link reconstruction head's output bias o_b (rec.out.b) set to the
 * logit of its pairs' base rate, log(pos / neg), in place of the value
 * model_init_params() drew: the head then starts at the loss of the base
 * rate (see model.c for why it must).  pos or neg not above 0 (no pair of
 * one label) leaves o_b as it is.  Time complexity: O(1).
 */
void model_init_rec_prior(model *M, double pos, double neg);
/* Index of a named tensor, or -1. */
int model_tensor(const model *M, const char *name);
/*
 * Which tensors a fix-tune boundary trains (gcn-adapt): trained[i] (M->nt
 * entries) is 1 for the embedding E's tensors when embed is set, for the
 * tensors of blocks from..L-1 (0-based), and 0 for the rest (the lower
 * blocks and the pre-training tasks' mixes and heads).  Time complexity:
 * O(M->nt).
 */
void model_trained_tensors(const model *M, int from, int embed, uint8_t *trained);

/* Workspace of the forward/backward pass, grown to the batch: the
 * encoder's forward pass sizes its buffers for a batch before the first
 * block, and its blocks allocate nothing. */
typedef struct mws mws;
mws *model_ws_new(void);
void model_ws_free(mws *w);
/* Bytes the workspace holds now. */
size_t model_ws_bytes(const mws *w);
/*
 * Allocations the workspace has made since model_ws_new() (each time a buffer
 * grows), and, in_blocks not NULL, in *in_blocks those the last forward
 * pass of the encoder made after it sized its buffers: 0, the blocks
 * allocate nothing.  A pass of the same kind as the last over a batch of
 * no more nodes and graphs adds none.  For the tests
 * (tests/unit/test_model.c).  Time complexity: O(1).
 */
size_t model_ws_allocs(const mws *w, size_t *in_blocks);

/* What a forward pass produced, for losses and validation scores. */
struct mout {
	double loss[NTASK];    /* mean loss per enabled task */
	const real *rec_logit; /* (P) */
	const real *rank_S;    /* (U x 4) scores */
	const real *clu_logit; /* (Q x kmax) */
	int64_t clu_correct;
	/* the objectives besides the tasks: each one's weighted loss and
	 * what its validation score adds up (objhead.h, struct ostat) */
	double oloss[OBJ_MAX];
	double ostat[OBJ_MAX][4];
};

/*
 * Forward pass over b; with backward nonzero also the backward pass,
 * which ADDS the gradients into M->g (zero them first with model_zero_grad).
 * Returns the total loss.
 */
double model_step(model *M, const batch *b, mws *w, int backward, struct mout *out);
/*
 * The same over a part of a step's batch (data-parallel training: the
 * graphs of one rank, or one graph): each task's loss is its share of the
 * mean over the whole step, whose items tot[TASK_x] counts (rec: pairs,
 * rank: pairs, cluster: queries), so the parts' losses and gradients add
 * up to model_step()'s over the whole batch.  tot NULL: model_step().
 */
double model_step_part(model *M, const batch *b, mws *w, int backward, struct mout *out,
		       const int64_t *tot);
void model_zero_grad(model *M);
/* Adam over every parameter (lr, beta1 0.9, beta2 0.999, eps 1e-8). */
void model_adam(model *M, double lr);

/* ---- the encoder alone (adaptation to downstream tasks) ---- */

/* Gradient of the rows of a layer mix F = alpha * sum_l softmax(psi)_l
 * H_l[idx[r]], r < R, handed to the encoder's backward pass. */
struct mix_src {
	const real *alpha, *psi;
	const real *dF;	    /* (R x d) */
	const int32_t *idx; /* (R), or NULL: rows 0..R-1 */
	int64_t R;
	int unique; /* idx has no repeats */
};

/* model_encoder_bf16(N, d): does the encoder run its products in bf16 on
 * a graph (or batch) of N nodes at width d?  The precision is bf16 and the
 * products are large enough (gemm_bf16_worth); 0 in the double build.
 * gcn-embed's forward (embed_run.c) asks it too, so that its choice is
 * the training forward's. */
int model_encoder_bf16(int64_t N, int64_t d);
/* model_encoder_bf16_could(N, d): would it with --precision bf16, on this
 * machine (oneDNN's bf16 product available)?  For the memory checks'
 * hints (adapt_need.c, train_need.c); 0 in the double build. */
int model_encoder_bf16_could(int64_t N, int64_t d);
/* Forward through E and the L blocks; Hs[l] = H_(l+1) (N x d, in w, valid
 * until the next call on w). */
void model_encode(model *M, const batch *b, mws *w, real **Hs);
/*
 * The same forward pass for inference: no backward caches, one set of
 * scratch buffers for all blocks, so w holds the L outputs and two N x d
 * arrays ((L + 2) N d values; in bf16 the bf16 operands add 1.5 N d),
 * kept for the next graph, which allocates nothing when it is no larger.
 * Hs[l] as model_encode(); model_encode_bwd() may not follow.  gcn-embed
 * runs its own pass, a block at a time (embed_run.h), to these bytes.
 */
void model_encode_fwd(model *M, const batch *b, mws *w, real **Hs);
/*
 * The encoder above a fixed part (gcn-adapt's fix-tune boundary, whose
 * lower part is a constant of the run): blocks from..L-1 run on Hin
 * (N x d), the input of block `from`: H0 = tanh(X E + e) when from is 0
 * (model_embed()), H_from (Hs[from - 1] of an earlier pass) otherwise;
 * nothing below it runs.  Hs[l] = H_(l+1) for l >= from, as
 * model_encode() gives them, to the bit, when Hin is what that pass
 * computed; Hs[l] for l < from are not touched.  Hin must stay unchanged
 * until model_encode_bwd() has run, which may follow with from' >= from
 * (and embed only when from is 0: Hin is then H0).  from = L runs nothing.
 * Time complexity: that of the L - from blocks run.
 */
void model_encode_from(model *M, const batch *b, mws *w, int from, const real *Hin, real **Hs);
/* H0 = tanh(X E + e) (N x d, the caller's buffer): the input of block 0,
 * as model_encode() computes it; the input model_encode_from() takes with
 * from 0.  Time complexity: O(N F d). */
void model_embed(model *M, const batch *b, real *H0);
/*
 * The fixed part of a fix-tune boundary (gcn-adapt's --freeze k): blocks
 * 0..to-1 (1 <= to <= L) forward without the backward pass's caches,
 * Hs[l] = H_(l+1) for l < to, as model_encode() gives them, to the bit.
 * They stay in w, unchanged by model_encode_from() with from >= to and by
 * model_encode_bwd() after it, so that the fixed part is computed once
 * for as many passes above it as are run on the same batch; the pass
 * adds no cache of its own to w (block `to`'s passes reuse its scratch).
 * Time complexity: that of the `to` blocks.
 */
void model_encode_fixed(model *M, const batch *b, mws *w, int to, real **Hs);
/*
 * Bytes a workspace holds at most after gcn-adapt's passes over a batch
 * of N nodes in G graphs, on a fresh workspace: model_encode_fixed() up
 * to `from` (when from > 0 and not embed), then model_encode_from()
 * from `from` (model_encode() with embed, from 0) and model_encode_bwd();
 * bf: the products in bf16 (model_encoder_bf16()).  What
 * model_ws_bytes() gives after those calls, the growth need() leaves
 * included.  Time complexity: O(L).
 */
double model_ws_need(const struct model_cfg *c, int64_t N, int64_t G, int from, int embed, int bf);
/*
 * Backward after model_encode() or model_encode_from(): ADDS the
 * gradients of blocks from..L-1
 * (0-based) and, when embed, of the embedding E into M->g; lower blocks
 * are frozen (the paper's fix-tune boundary).
 */
void model_encode_bwd(model *M, const batch *b, mws *w, const struct mix_src *src, int nsrc,
		      int from, int embed);

#endif
