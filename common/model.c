/*
 * model.c - the pre-training model: its parameters, and the forward and
 * backward pass over a batch (see model.h).  Batches are built in
 * batch.c, the settings in train_settings.c, records in modelio.c.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <inttypes.h>

#include "err.h"
#include "gemm.h"
#include "model.h"
#include "objhead.h"
#include "rng.h"

const char *const model_task_name[NTASK] = { "rec", "rank", "cluster" };

/* ------------------------------------------------------------------ */
/* parameters */

void
model_cfg_default(struct model_cfg *c)
{
	c->nfeat = MODEL_NFEAT;
	c->d = 512;
	c->layers = 3;
	c->ntn_k = 4;
	c->rank_hidden = 256;
	c->att_hidden = 512;
	c->tasks = (1 << NTASK) - 1;
	c->bn_eps = 1e-5;
	for (int t = 0; t < NTASK; t++)
		c->task_w[t] = 1;
	c->nobj = 0;
}

/* Add a tensor to the layout (pass 1 counts, pass 2 also names). */
static int64_t
lay(model *M, int64_t *off, const char *name, int64_t rows, int64_t cols)
{
	int64_t at = *off;
	if (M->t) {
		struct mtensor *t = &M->t[M->nt];
		snprintf(t->name, sizeof t->name, "%.47s", name);
		t->rows = rows;
		t->cols = cols;
		t->off = at;
	}
	M->nt++;
	*off += rows * cols;
	return at;
}

/* base + off, or NULL without a base (a layout that only counts: pointer
 * arithmetic on NULL is undefined). */
static real *
at_base(real *base, int64_t off)
{
	return base ? base + off : NULL;
}

/* Offsets of every tensor, as pointers relative to base (NULL: none). */
static void
layout(model *M, real *base, struct mview *v)
{
	const struct model_cfg *c = &M->cfg;
	int64_t d = c->d, k = c->ntn_k, off = 0;
	char nm[48];
#define AT(name, r, cc) at_base(base, lay(M, &off, (name), (r), (cc)))
	M->nt = 0;
	v->E = AT("embed.W", M->cfg.nfeat, d);
	v->Eb = AT("embed.b", 1, d);
	for (int l = 0; l < c->layers; l++) {
		snprintf(nm, sizeof nm, "block%d.W1", l + 1);
		v->W1[l] = AT(nm, d, d);
		snprintf(nm, sizeof nm, "block%d.W2", l + 1);
		v->W2[l] = AT(nm, d, d);
		snprintf(nm, sizeof nm, "block%d.gamma", l + 1);
		v->gam[l] = AT(nm, 1, d);
		snprintf(nm, sizeof nm, "block%d.beta", l + 1);
		v->bet[l] = AT(nm, 1, d);
	}
	for (int t = 0; t < NTASK; t++) {
		snprintf(nm, sizeof nm, "mix.%s.alpha", model_task_name[t]);
		v->alpha[t] = AT(nm, 1, d);
		snprintf(nm, sizeof nm, "mix.%s.psi", model_task_name[t]);
		v->psi[t] = AT(nm, 1, c->layers);
	}
	const char *nn[2] = { "rec", "cluster" };
	ntn *nv[2] = { &v->rec, &v->clu };
	for (int i = 0; i < 2; i++) {
		snprintf(nm, sizeof nm, "%s.ntn.W", nn[i]);
		nv[i]->W = AT(nm, d, k * d);
		snprintf(nm, sizeof nm, "%s.ntn.V", nn[i]);
		nv[i]->V = AT(nm, 2 * d, k);
		snprintf(nm, sizeof nm, "%s.ntn.b", nn[i]);
		nv[i]->b = AT(nm, 1, k);
		snprintf(nm, sizeof nm, "%s.out.w", nn[i]);
		nv[i]->o = AT(nm, 1, k);
		snprintf(nm, sizeof nm, "%s.out.b", nn[i]);
		nv[i]->ob = AT(nm, 1, 1);
		nv[i]->s = (real)(1.0 / sqrt((double)d)); /* see model_init_params */
	}
	v->rW1 = AT("rank.W1", d, MODEL_NCENT * (int64_t)c->rank_hidden);
	v->rb1 = AT("rank.b1", 1, MODEL_NCENT * (int64_t)c->rank_hidden);
	v->rw2 = AT("rank.w2", MODEL_NCENT, c->rank_hidden);
	v->rb2 = AT("rank.b2", 1, MODEL_NCENT);
	v->aW = AT("cluster.att.W", d, c->att_hidden);
	v->ab = AT("cluster.att.b", 1, c->att_hidden);
	v->aw = AT("cluster.att.w", 1, c->att_hidden);
	/* the objectives besides the tasks, after the paper's tensors (whose
	 * layout, and so the paper's models, they leave as they were) */
	for (int i = 0; i < c->nobj; i++) {
		struct otensor ot[OHEAD_MAXT];
		int nt = ohead_tensors(&c->obj[i], d, c->layers, c->nfeat, &v->ob[i], ot);
		for (int j = 0; j < nt; j++)
			*ot[j].at = AT(ot[j].name, ot[j].rows, ot[j].cols);
	}
#undef AT
	M->n = off;
}

int
model_layout(model *M, const struct model_cfg *cfg)
{
	struct mview tmp;

	memset(M, 0, sizeof *M);
	if (cfg->nfeat < 1 || cfg->nfeat > MODEL_MAXF || cfg->d < 1 || cfg->d > 8192 ||
	    cfg->layers < 1 || cfg->layers > MODEL_MAXL || cfg->ntn_k < 1 || cfg->ntn_k > 16 ||
	    cfg->rank_hidden < 1 || cfg->rank_hidden > 65536 || cfg->att_hidden < 1 ||
	    cfg->att_hidden > 65536 || !(cfg->tasks & ((1 << NTASK) - 1) || cfg->nobj > 0) ||
	    !(cfg->bn_eps > 0) || cfg->nobj < 0 || cfg->nobj > OBJ_MAX)
		return -1;
	for (int i = 0; i < cfg->nobj; i++) /* a head's size is known */
		if ((cfg->obj[i].kind != OBJ_MASK && cfg->obj[i].width < 1) ||
		    cfg->obj[i].hidden < 1)
			return -1;
	M->cfg = *cfg;
	layout(M, NULL, &tmp); /* count */
	M->t = xcalloc((size_t)M->nt, sizeof *M->t);
	layout(M, NULL, &tmp); /* name */
	return 0;
}

int
model_init(model *M, const struct model_cfg *cfg)
{
	if (model_layout(M, cfg) != 0)
		return -1;
	M->p = xcalloc((size_t)M->n, sizeof *M->p);
	M->g = xcalloc((size_t)M->n, sizeof *M->g);
	M->m = xcalloc((size_t)M->n, sizeof *M->m);
	M->v = xcalloc((size_t)M->n, sizeof *M->v);
	layout(M, M->p, &M->P);
	layout(M, M->g, &M->G);
	return 0;
}

void
model_free(model *M)
{
	if (!M)
		return;
	free(M->t);
	free(M->p);
	free(M->g);
	free(M->m);
	free(M->v);
	memset(M, 0, sizeof *M);
}

int
model_tensor(const model *M, const char *name)
{
	for (int i = 0; i < M->nt; i++)
		if (strcmp(M->t[i].name, name) == 0)
			return i;
	return -1;
}

/* layout() puts E's two tensors first, then each block's four (W1, W2,
 * gamma, beta) in block order, then the tasks' */
#define EMBED_NT 2
#define BLOCK_NT 4

void
model_trained_tensors(const model *M, int from, int embed, uint8_t *trained)
{
	for (int i = 0; i < M->nt; i++) {
		int blk = (i - EMBED_NT) / BLOCK_NT; /* 0-based, for i >= EMBED_NT */
		if (i < EMBED_NT)
			trained[i] = (uint8_t)embed;
		else if (blk < M->cfg.layers)
			trained[i] = blk >= from;
		else
			trained[i] = 0;
	}
}

static void
uniform(real *x, int64_t n, double bound, gsl_rng *r)
{
	for (int64_t i = 0; i < n; i++)
		x[i] = (real)((2 * gsl_rng_uniform(r) - 1) * bound);
}

void
model_init_params(model *M, gsl_rng *r)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *v = &M->P;
	int64_t d = c->d, k = c->ntn_k, H = MODEL_NCENT * (int64_t)c->rank_hidden;
	double bd = 1 / sqrt((double)d);

	uniform(v->E, (int64_t)M->cfg.nfeat * d, 1 / sqrt(M->cfg.nfeat), r);
	uniform(v->Eb, d, 1 / sqrt(M->cfg.nfeat), r);
	for (int l = 0; l < c->layers; l++) {
		uniform(v->W1[l], d * d, bd, r);
		uniform(v->W2[l], d * d, bd, r);
		for (int64_t i = 0; i < d; i++) {
			v->gam[l][i] = 1;
			v->bet[l][i] = 0;
		}
	}
	for (int t = 0; t < NTASK; t++) {
		for (int64_t i = 0; i < d; i++)
			v->alpha[t][i] = 1;
		for (int l = 0; l < c->layers; l++)
			v->psi[t][l] = 0;
	}
	ntn *nv[2] = { &v->rec, &v->clu };
	for (int i = 0; i < 2; i++) {
		/* The bilinear term is s x^T W y with s = 1/sqrt(d) (as in
		 * scaled dot-product attention), W as nn.Bilinear's.  Adam
		 * moves every element of W by about lr per step, all in one
		 * direction when x, y >= 0 (they follow a relu), so an
		 * unscaled bilinear term moves by about lr d^2 E[x]^2 per
		 * step: 40 at d = 512, which saturates the tanh and kept link
		 * reconstruction at AUC 0.50.  The scale brings that to 2,
		 * still enough to saturate the tanh in a few steps unless
		 * the link head starts at its base rate
		 * (model_init_rec_prior). */
		uniform(nv[i]->W, d * k * d, bd, r);
		uniform(nv[i]->V, 2 * d * k, 1 / sqrt(2.0 * d), r);
		uniform(nv[i]->b, k, 1 / sqrt(2.0 * d), r);
		uniform(nv[i]->o, k, 1 / sqrt((double)k), r);
		uniform(nv[i]->ob, 1, 1 / sqrt((double)k), r);
	}
	uniform(v->rW1, d * H, bd, r);
	uniform(v->rb1, H, bd, r);
	uniform(v->rw2, H, 1 / sqrt((double)c->rank_hidden), r);
	for (int t = 0; t < MODEL_NCENT; t++)
		v->rb2[t] = 0;
	uniform(v->aW, d * c->att_hidden, bd, r);
	uniform(v->ab, c->att_hidden, bd, r);
	uniform(v->aw, c->att_hidden, 1 / sqrt((double)c->att_hidden), r);
	/* the objectives besides the tasks, drawn after the paper's tensors:
	 * alpha 1, psi 0, each linear layer as PyTorch's, the token 0 (as
	 * GraphMAE's) */
	for (int i = 0; i < c->nobj; i++) {
		struct otensor ot[OHEAD_MAXT]; /* alpha, psi, W1, b1, W2, b2 (, token) */
		struct oview sh, *o = &v->ob[i];
		ohead_tensors(&c->obj[i], d, c->layers, c->nfeat, &sh, ot);
		double b1 = 1 / sqrt((double)ot[2].rows), b2 = 1 / sqrt((double)ot[4].cols);
		int rank = c->obj[i].kind == OBJ_NODE && c->obj[i].loss == OBJ_RANK;
		if (!rank) /* W2 is hidden x out: its fan-in is its rows */
			b2 = 1 / sqrt((double)ot[4].rows);
		for (int64_t j = 0; j < d; j++)
			o->alpha[j] = 1;
		for (int l = 0; l < c->layers; l++)
			o->psi[l] = 0;
		uniform(o->W1, ot[2].rows * ot[2].cols, b1, r);
		uniform(o->b1, ot[3].cols, b1, r);
		uniform(o->W2, ot[4].rows * ot[4].cols, b2, r);
		if (rank) /* as the rank task's heads: b2 0 */
			memset(o->b2, 0, (size_t)ot[5].cols * sizeof *o->b2);
		else
			uniform(o->b2, ot[5].cols, b2, r);
		if (o->tok)
			memset(o->tok, 0, (size_t)c->nfeat * sizeof *o->tok);
	}
}

/*
 * Why the link head starts at its base rate.  Its BCE is over about one
 * positive to two negatives; from o_b near 0 the mean logit must fall by
 * log 2 before the loss says anything about which pair is which, and Adam
 * makes that fall with every parameter of the head at once.  Those moves
 * add up over the pairs' features x, y >= 0 (they follow a relu): a step
 * shifts every pre-activation x^T W_t y / sqrt(d) + V_t [x; y] by about
 * lr (d^1.5 E[x]^2 + 2 d E[x]), up to 0.7 at d = 512 and 0.05 at d = 64, in
 * the same direction for every pair.  At d = 512 three steps took the
 * tanh units to +-0.8 and fifteen saturated half of them; the ranking
 * froze where that shift left it, below chance (AUC 0.47, the shift is
 * larger for the larger features of the positives' endpoints), for three
 * epochs of the paper's configuration.  Started at the base rate the mean
 * logit needs no move, the units stay in tanh's working range, and the
 * head learns from the first epoch (docs/choices.md, "The link head's
 * output bias starts at the base rate of its pairs").
 */
void
model_init_rec_prior(model *M, double pos, double neg)
{
	if (pos > 0 && neg > 0)
		M->P.rec.ob[0] = (real)log(pos / neg);
}

void
model_zero_grad(model *M)
{
	memset(M->g, 0, (size_t)M->n * sizeof *M->g);
}

void
model_adam(model *M, double lr)
{
	M->adam_t++;
	nn_adam_step(M->p, M->g, M->m, M->v, M->n, lr, 0.9, 0.999, 1e-8, M->adam_t);
}

/* ------------------------------------------------------------------ */
/* forward and backward */

struct buf {
	real *p;
	size_t cap;
	size_t grows; /* allocations made (need()), for model_ws_allocs() */
};

struct mws {
	struct buf H[MODEL_MAXL + 1], A1[MODEL_MAXL], XH[MODEL_MAXL], istd[MODEL_MAXL],
	    arena; /* H[0] unused: H0 is recomputed */
	/* the encoder in bf16 (model_encoder_bf16()): A1 kept in bf16 instead of
	 * A1[], two N x d bf16 operands and the weights in bf16; each holds
	 * bf16 values in half as many reals */
	struct buf A1b[MODEL_MAXL], Xb, Yb, Wb, Ec;
	/* gradients of the mixed features, kept from the task passes until
	 * the encoder's backward pass */
	struct buf dFu, dFv, dFU, dFs, dFq;
	/* outputs kept for the caller */
	struct buf rlog, rS, clog;
	/* the objectives besides the tasks: their rows' gradients (kept
	 * until the encoder's backward pass), the inputs with the masked
	 * rows' token (kind mask) and their gradient */
	struct buf dFo[OBJ_MAX], Xm, dXm;
	/* not buffers (mws_all() stops here): the input of block hin_from
	 * when model_encode_from() was given it, or NULL */
	const real *hin;
	int hin_from;
	const real *X;	   /* the encoder's input: the batch's, or Xm */
	size_t loop_grows; /* allocations of the last encoder_fwd() after
			    * encoder_reserve(): 0 (model_ws_allocs()) */
};

mws *
model_ws_new(void)
{
	return xcalloc(1, sizeof(mws));
}

static struct buf *
mws_all(mws *w, int *nb)
{
	*nb = (int)(offsetof(struct mws, hin) / sizeof(struct buf));
	return (struct buf *)w;
}

void
model_ws_free(mws *w)
{
	if (!w)
		return;
	int nb;
	struct buf *b = mws_all(w, &nb);
	for (int i = 0; i < nb; i++)
		free(b[i].p);
	free(w);
}

size_t
model_ws_bytes(const mws *w)
{
	int nb;
	size_t s = 0;
	const struct buf *b = mws_all((mws *)w, &nb);
	for (int i = 0; i < nb; i++)
		s += b[i].cap * sizeof(real);
	return s;
}

/* Allocations the buffers of w have made. */
static size_t
grows_of(const mws *w)
{
	int nb;
	size_t n = 0;
	const struct buf *b = mws_all((mws *)w, &nb);
	for (int i = 0; i < nb; i++)
		n += b[i].grows;
	return n;
}

size_t
model_ws_allocs(const mws *w, size_t *in_blocks)
{
	if (in_blocks)
		*in_blocks = w->loop_grows;
	return grows_of(w);
}

/* Workspace buffers grow to what the batch needs plus 1/16: batches
 * differ a little step to step, and a 1.5x growth would waste far more. */
static real *
need(struct buf *b, int64_t n)
{
	size_t want = (size_t)n + 1;
	if (want > b->cap || !b->p) {
		size_t c = want + want / 16;
		free(b->p); /* contents need not survive */
		b->p = xmallocarray(c, sizeof(real));
		b->cap = c;
		b->grows++;
	}
	return b->p;
}

/* A buffer of n bf16 values. */
static uint16_t *
needb(struct buf *b, int64_t n)
{
	return (uint16_t *)need(b, (n + 1) / 2);
}

/* The encoder's products in bf16, with the fused passes below: the
 * precision is bf16 and the blocks' products are large enough; never in
 * the double build. */
int
model_encoder_bf16(int64_t N, int64_t d)
{
#ifndef NN_DOUBLE
	return gemm_precision() == GEMM_BF16 && gemm_bf16_worth(N, d, d);
#else
	(void)N;
	(void)d;
	return 0;
#endif
}

int
model_encoder_bf16_could(int64_t N, int64_t d)
{
#ifndef NN_DOUBLE
	char why[256];
	return gemm_bf16_worth(N, d, d) && gemm_choose(GEMM_BF16, why, sizeof why) == GEMM_BF16;
#else
	(void)N;
	(void)d;
	return 0;
#endif
}

/* Carve consecutive arrays out of the arena (sizes known up front). */
struct carver {
	real *base;
	int64_t at;
};

static real *
carve(struct carver *c, int64_t n)
{
	real *p = c->base + c->at;
	c->at += (n + 15) & ~(int64_t)15;
	return p;
}

static int64_t
rup(int64_t n)
{
	return (n + 15) & ~(int64_t)15;
}

/* ---- the encoder's blocks, forward and backward ---- */

/* H0 = tanh(X E + e): not kept, recomputed by the backward pass (it is
 * an N x 4 by 4 x d product) to save an N x d buffer. */
static void
embed_fwd(model *M, const batch *b, const real *X, real *H0)
{
	int64_t N = b->N, d = M->cfg.d;

	if (b->F != M->cfg.nfeat) /* the programs check this with a message */
		die("internal error: a batch of %d features for a model of %d", b->F, M->cfg.nfeat);
	nn_lin_fwd(H0, X, M->P.E, M->P.Eb, N, M->cfg.nfeat, d);
	nn_tanh_fwd(H0, H0, N * d);
}

#define EMBED_ROWS 4096 /* rows of H0 a chunk of embed_fwd_bf16() */
#ifndef NN_DOUBLE

/* H0 = tanh(X E + e) straight into bf16 (H0b, N x d), EMBED_ROWS rows at
 * a time through the fp32 chunk tmp (min(N, EMBED_ROWS) x d): no N x d
 * fp32 H0 in the forward pass of the bf16 encoder.  The same values as
 * embed_fwd() rounded. */
static void
embed_fwd_bf16(model *M, const batch *b, const real *X, uint16_t *H0b, real *tmp)
{
	int64_t N = b->N, d = M->cfg.d, F = M->cfg.nfeat;

	if (b->F != M->cfg.nfeat)
		die("internal error: a batch of %d features for a model of %d", b->F, M->cfg.nfeat);
	for (int64_t r0 = 0; r0 < N; r0 += EMBED_ROWS) {
		int64_t n = N - r0 < EMBED_ROWS ? N - r0 : EMBED_ROWS;
		nn_lin_fwd(tmp, X + r0 * F, M->P.E, M->P.Eb, n, F, d);
		nn_tanh_fwd(tmp, tmp, n * d);
		gemm_to_bf16(H0b + r0 * d, tmp, n * d);
	}
}
#endif

/*
 * Block l forward in fp32: Ho = relu(Â norm(relu(Hin W1) W2)) (N x d),
 * keeping A1 = relu(Hin W1) and the normalised values XH (N x d) and
 * istd (G x d) for the backward pass; T1 (N x d) scratch.  Forward only
 * (model_encode_fwd), A1 may be Ho (the sparse product fills it last) and
 * XH any N x d array but T1, Hin too (read by the first product already).
 * Time complexity: O(N d^2 + nnz(Â) d).
 */
static void
block_fwd(real *Ho, real *A1, real *XH, real *istd, const real *Hin, const model *M, int l,
	  const batch *b, real *T1)
{
	const struct mview *P = &M->P;
	int64_t N = b->N, d = M->cfg.d;

	nn_lin_fwd(A1, Hin, P->W1[l], NULL, N, d, d);
	nn_relu_fwd(A1, A1, N * d);
	nn_lin_fwd(T1, A1, P->W2[l], NULL, N, d, d);
	nn_gnorm_fwd(T1, XH, istd, T1, P->gam[l], P->bet[l], b->off, b->G, d, (real)M->cfg.bn_eps);
	nn_csr_spmm(Ho, b->rp, b->ci, b->av, T1, N, d, 1); /* relu(Â T1) */
}

#ifndef NN_DOUBLE
/*
 * Block l forward with the products in bf16: A1 = relu(H W1) straight
 * into bf16 (A1b, relu in the product's epilogue: no fp32 A1, no relu
 * pass, no conversion), the operand of T1 = A1 W2 and kept for the
 * backward pass; the normalised values kept in bf16 (XHb; istd, G x d,
 * in fp32), and the normalised output, Â's operand, in bf16 into Gb;
 * Ho = relu(Â Gb) in fp32 and, when Hob is not NULL, rounded into Hob
 * too (the next block's operand, made while the row is in cache).  The
 * block's input is Hin rounded into Hb, or, Hin NULL, in Hb already (H0,
 * or the last block's output rounded).  Gb may be Hb (read by then), Hob
 * may be Hb when Gb is not; Gb, Wb (d x d bf16) and T1 (N x d) scratch.
 * Time complexity: O(N d^2 + nnz(Â) d).
 */
static void
block_fwd_bf16(real *Ho, uint16_t *Hob, uint16_t *A1b, uint16_t *XHb, real *istd, const real *Hin,
	       uint16_t *Hb, const model *M, int l, const batch *b, uint16_t *Gb, uint16_t *Wb,
	       real *T1)
{
	const struct mview *P = &M->P;
	int64_t N = b->N, d = M->cfg.d;

	if (Hin)
		gemm_to_bf16(Hb, Hin, N * d);
	gemm_to_bf16(Wb, P->W1[l], d * d);
	gemm_bf16(0, 0, N, d, d, 1, Hb, d, Wb, d, 0, A1b, d, GEMM_OUT_BF16 | GEMM_RELU);
	gemm_to_bf16(Wb, P->W2[l], d * d);
	gemm_bf16(0, 0, N, d, d, 1, A1b, d, Wb, d, 0, T1, d, 0);
	nn_gnorm_fwd_xb(Gb, XHb, istd, T1, P->gam[l], P->bet[l], b->off, b->G, d,
			(real)M->cfg.bn_eps);
	nn_csr_spmm_xb(Ho, Hob, b->rp, b->ci, b->av, Gb, N, d, 1); /* relu(Â T1) */
}

/*
 * Block l's products backward in bf16, from dT in Yb (the gradient of
 * relu(H W1) W2, rounded to bf16 by the normalisation's backward pass
 * that made it): dW2 += A1^T dT, dA1 = dT W2^T, through the relu (its
 * output A1 kept in bf16) fused with the rounding of dA1, dW1 += H^T dA1
 * and, when dx, dH = dA1 W1^T.  Each N x d operand is rounded to bf16
 * once (dT where it is made, dA1 into Xb, H into Yb).  The weight
 * gradients accumulate in fp32 (the products' sum post-op).  Hin is the
 * block's input; NULL (block 0, no given input) makes H0 in T1, which is
 * free.  Returns the input used.
 */
static const real *
block_bwd_bf16(model *M, const batch *b, mws *w, int l, const real *Hin, real *T1, real *dH,
	       int train, int dx)
{
	int64_t N = b->N, d = M->cfg.d;
	struct mview *P = &M->P, *G = &M->G;
	uint16_t *Xb = needb(&w->Xb, N * d), *Yb = needb(&w->Yb, N * d), *Wb = needb(&w->Wb, d * d),
		 *A1b = (uint16_t *)w->A1b[l].p;

	if (train)
		gemm_bf16(1, 0, d, d, N, 1, A1b, d, Yb, d, 1, G->W2[l], d, 0);
	gemm_to_bf16(Wb, P->W2[l], d * d);
	/* dA1 in bf16, then the relu's mask: the same values as masking the
	 * fp32 product and rounding it */
	gemm_bf16(0, 1, N, d, d, 1, Yb, d, Wb, d, 0, Xb, d, GEMM_OUT_BF16);
	gemm_relu_mask_bf16(Xb, A1b, N * d);
	if (!Hin) { /* T1 is free again: H0 goes there */
		embed_fwd(M, b, w->X, T1);
		Hin = T1;
	}
	if (train) {
		gemm_to_bf16(Yb, Hin, N * d);
		gemm_bf16(1, 0, d, d, N, 1, Yb, d, Xb, d, 1, G->W1[l], d, 0);
	}
	if (dx) {
		gemm_to_bf16(Wb, P->W1[l], d * d);
		gemm_bf16(0, 1, N, d, d, 1, Xb, d, Wb, d, 0, dH, d, 0);
	}
	return Hin;
}
#endif

/* ---- the encoder ---- */

/*
 * The slot of block l's caches (A1, XH, istd) in a pass through blocks
 * from..to-1: with keep its own; without, one for all, slot `to` when the
 * pass stops below the top (model_encode_fixed(): block `to`, the first
 * trained, takes that slot in the passes after it, so the fixed pass adds
 * no buffer of its own), else slot 0.
 */
static int
cache_slot(const model *M, int keep, int l, int to)
{
	return keep ? l : to < M->cfg.layers ? to : 0;
}

/*
 * Every buffer of the encoder's forward pass over b, sized before its
 * first block (as head.c's head_hbuf_init() sizes the head's), so that the
 * blocks allocate nothing: the outputs H[from+1..L] and the
 * normalisation's istd, per block with keep (the backward pass's caches)
 * or one for all blocks without; in fp32 with keep, each block's A1 and
 * XH (without, they go into its output's buffer and T2); in bf16 each
 * block's A1b and XH in bf16 (one for all without keep), the operand Xb,
 * Yb (keep, for a block that hands its output to the next in bf16), the
 * weight Wb, and H0's chunk Ec when the pass makes H0 (embed).  need()
 * grows a buffer only past its size: a batch of the same shape or a
 * smaller one allocates nothing, a larger one grows here, once.
 * Time complexity: O(L) and the allocations'.
 */
static void
encoder_reserve(mws *w, const model *M, const batch *b, int keep, int from, int to, int embed,
		int bf)
{
	int64_t N = b->N, d = M->cfg.d, nd = N * d;
	int L = to;

#ifndef NN_DOUBLE
	if (bf && embed)
		need(&w->Ec, (N < EMBED_ROWS ? N : EMBED_ROWS) * d);
#else
	(void)embed;
#endif
	if (bf) {
		needb(&w->Xb, nd);
		needb(&w->Wb, d * d);
		if (keep && from < L - 1)
			needb(&w->Yb, nd);
	}
	for (int l = from; l < L; l++) {
		int k = cache_slot(M, keep, l, to);
		need(&w->H[l + 1], nd);
		need(&w->istd[k], (int64_t)b->G * d);
		if (bf) {
			needb(&w->A1b[k], nd);
			needb(&w->XH[k], nd);
		} else if (keep) {
			need(&w->A1[k], nd);
			need(&w->XH[k], nd);
		}
	}
}

/*
 * Encoder forward: H[from+1..L] into w, its buffers sized first
 * (encoder_reserve()), then H0 and a block_fwd() (or block_fwd_bf16())
 * a block, which allocate nothing.  With keep, each block's A1, XH and
 * istd are kept for the backward pass; without (model_encode_fwd), the
 * outputs alone stay: in fp32 a block's A1 goes into its output's buffer
 * and XH into T2, so the pass needs the L outputs and T1, T2 (5 n d
 * floats for 3 blocks, against 7 with buffers of their own).  In bf16
 * with keep, a block's output is rounded into Xb as it is made (its
 * normalised output in Yb), the next block's operand; without, each block
 * rounds its input itself (no Yb).  With Hgiven, the blocks from `from`
 * up run on it as block from's input (model_encode_from); without,
 * everything runs from X (from is 0).
 */
static void
encoder_fwd(model *M, const batch *b, mws *w, real *T1, real *T2, int keep, int from, int to,
	    const real *Hgiven)
{
	int L = to, bf = model_encoder_bf16(b->N, M->cfg.d);

	encoder_reserve(w, M, b, keep, from, to, !Hgiven, bf);
	size_t grown = grows_of(w);
	w->hin = Hgiven;
	w->hin_from = from;
#ifndef NN_DOUBLE
	uint16_t *Xb = (uint16_t *)w->Xb.p, *Yb = (uint16_t *)w->Yb.p;
	int hb = 0; /* the next block's input is in Xb in bf16 already */
	if (!Hgiven && bf) {
		embed_fwd_bf16(M, b, w->X, Xb, w->Ec.p); /* the first block's operand */
		hb = 1;
	}
#endif
	if (!Hgiven && !bf)
		embed_fwd(M, b, w->X, T2);
	for (int l = from; l < L; l++) {
		int k = cache_slot(M, keep, l, to);
		const real *Hin = l > from ? w->H[l].p : Hgiven ? Hgiven : T2;
		real *Ho = w->H[l + 1].p;
#ifndef NN_DOUBLE
		if (bf) {
			int next = keep && l + 1 < L; /* the output to Xb as made */
			block_fwd_bf16(Ho, next ? Xb : NULL, (uint16_t *)w->A1b[k].p,
				       (uint16_t *)w->XH[k].p, w->istd[k].p, hb ? NULL : Hin, Xb, M,
				       l, b, next ? Yb : Xb, (uint16_t *)w->Wb.p, T1);
			hb = next;
			continue;
		}
#endif
		block_fwd(Ho, keep ? w->A1[k].p : Ho, keep ? w->XH[k].p : T2, w->istd[k].p, Hin, M,
			  l, b, T1);
	}
	w->loop_grows = grows_of(w) - grown;
}

/* dH (gradient of H[l+1]) += the mixing contribution of every source. */
static void
mix_input_grads(const model *M, const struct mix_src *src, int nsrc, real *dH, int l)
{
	for (int i = 0; i < nsrc; i++)
		nn_mix_bwd_input(dH, src[i].dF, src[i].alpha, src[i].psi, src[i].idx, l,
				 M->cfg.layers, src[i].R, M->cfg.d, src[i].unique);
}

/* The pre-training tasks' mixing gradients as sources. */
static int
task_sources(const model *M, const batch *b, const mws *w, struct mix_src *src)
{
	const struct model_cfg *c = &M->cfg;
	const struct mview *P = &M->P;
	int n = 0;
#define SRC(t, F, ix, r, u) \
	src[n++] = (struct mix_src) \
	{ \
		P->alpha[t], P->psi[t], (F), (ix), (r), (u) \
	}
	if (c->tasks & 1 << TASK_REC) {
		SRC(TASK_REC, w->dFu.p, b->pu, b->P, 0);
		SRC(TASK_REC, w->dFv.p, b->pv, b->P, 0);
	}
	if (c->tasks & 1 << TASK_RANK)
		SRC(TASK_RANK, w->dFU.p, b->uidx, b->U, 1);
	if (c->tasks & 1 << TASK_CLUSTER) {
		SRC(TASK_CLUSTER, w->dFs.p, b->sidx, b->Ns, 1);
		SRC(TASK_CLUSTER, w->dFq.p, b->qidx, b->Q, 1);
	}
#undef SRC
	return n;
}

/*
 * Backward pass of the encoder from the mixing gradients: parameter
 * gradients of blocks from..L-1, and of the embedding when embed; the pass
 * stops at block `from` when the embedding is not trained.
 */
static void
encoder_bwd(model *M, const batch *b, mws *w, real *T1, real *T2, real *dH,
	    const struct mix_src *src, int nsrc, int from, int embed)
{
	const struct model_cfg *c = &M->cfg;
	int64_t N = b->N, d = c->d;
	int L = c->layers, low = embed ? 0 : from;
	struct mview *P = &M->P, *G = &M->G;

	if (low >= L)
		return;
	real *sg = xcalloc(2 * (size_t)d, sizeof *sg); /* frozen gamma, beta */
	memset(dH, 0, (size_t)(N * d) * sizeof *dH);
	mix_input_grads(M, src, nsrc, dH, L - 1);
	if (w->hin && low < w->hin_from)
		die("internal error: the encoder's backward pass below its given input");
	const real *H0 = T1;
	for (int l = L - 1; l >= low; l--) {
		const real *Hin = w->H[l].p;
		real *Ho = w->H[l + 1].p, *A1 = w->A1[l].p;
		int train = l >= from, more = l > low || embed;
		/* a frozen block passes the gradient down and keeps none */
#ifndef NN_DOUBLE
		if (model_encoder_bf16(b->N, d)) {
			uint16_t *Yb = needb(&w->Yb, N * d);
			nn_relu_bwd_xb(Yb, dH, Ho, N * d);
			nn_csr_spmm_xb(T1, NULL, b->rp, b->ci, b->av, Yb, N, d,
				       0); /* Â symmetric */
			/* dT, rounded, into Yb (read by the sparse product
			 * already): the products' operand */
			nn_gnorm_bwd_xb(Yb, train ? G->gam[l] : sg, train ? G->bet[l] : sg + d, T1,
					(const uint16_t *)w->XH[l].p, w->istd[l].p, P->gam[l],
					b->off, b->G, d);
			const real *Hb = w->hin && l == w->hin_from ? w->hin : l == 0 ? NULL : Hin;
			Hb = block_bwd_bf16(M, b, w, l, Hb, T1, dH, train, train ? more : 1);
			if (l == 0)
				H0 = Hb;
			if (l > 0)
				mix_input_grads(M, src, nsrc, dH, l - 1);
			continue;
		}
#endif
		nn_relu_bwd(dH, dH, Ho, N * d);
		nn_csr_spmm(T1, b->rp, b->ci, b->av, dH, N, d, 0); /* Â symmetric */
		nn_gnorm_bwd(T1, train ? G->gam[l] : sg, train ? G->bet[l] : sg + d, T1, w->XH[l].p,
			     w->istd[l].p, P->gam[l], b->off, b->G, d);
		if (train)
			nn_lin_bwd(T2, G->W2[l], NULL, T1, A1, P->W2[l], N, d, d, 0);
		else
			nn_gemm(0, 1, N, d, d, 1, T1, d, P->W2[l], d, 0, T2, d);
		nn_relu_bwd(T2, T2, A1, N * d);
		if (w->hin && l == w->hin_from) { /* the input the forward pass was given */
			Hin = w->hin;
		} else if (l == 0) { /* T1 is free again: H0 goes there */
			embed_fwd(M, b, w->X, T1);
			Hin = T1;
		}
		if (l == 0)
			H0 = Hin;
		if (train)
			nn_lin_bwd(more ? dH : NULL, G->W1[l], NULL, T2, Hin, P->W1[l], N, d, d, 0);
		else
			nn_gemm(0, 1, N, d, d, 1, T2, d, P->W1[l], d, 0, dH, d);
		if (l > 0)
			mix_input_grads(M, src, nsrc, dH, l - 1);
	}
	if (embed) {
		/* the inputs' gradient too where a token stands in them */
		real *dX = w->X != b->X ? need(&w->dXm, N * M->cfg.nfeat) : NULL;
		nn_tanh_bwd(dH, dH, H0, N * d);
		nn_lin_bwd(dX, G->E, G->Eb, dH, w->X, P->E, N, M->cfg.nfeat, d, 0);
	}
	free(sg);
}

/*
 * A part's share of a mean over the whole step (model_step_part): the
 * loss and its gradient dz (len values), a mean over the part's n items,
 * become its share of the mean over the step's tot items (tot 0: the
 * part is the step).
 */
static double
share(double loss, real *dz, int64_t len, int64_t n, int64_t tot)
{
	if (tot <= 0 || tot == n)
		return loss;
	double f = (double)n / (double)tot;
	for (int64_t i = 0; i < len; i++)
		dz[i] = (real)(dz[i] * f);
	return loss * f;
}

/* A loss's gradient times its weight in the sum (objective.h); weight 1
 * leaves it as it is. */
static void
weigh(real *dz, int64_t len, double wt)
{
	if (wt != 1)
		for (int64_t i = 0; i < len; i++)
			dz[i] = (real)(dz[i] * wt);
}

/* Link reconstruction: loss, and dFu, dFv when backward. */
static double
task_rec(model *M, const batch *b, mws *w, real *arena, int backward, int64_t tot)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, Pn = b->P, k = c->ntn_k;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *Fu = carve(&cv, Pn * d), *Fv = carve(&cv, Pn * d), *XW = carve(&cv, Pn * k * d),
	     *dXW = carve(&cv, (Pn < NTN_CHUNK ? Pn : NTN_CHUNK) * k * d), *h = carve(&cv, Pn * k),
	     *dl = carve(&cv, Pn), *y = carve(&cv, Pn);
	real *lg = need(&w->rlog, Pn);

	nn_mix_fwd(Fu, Hs, P->alpha[TASK_REC], P->psi[TASK_REC], b->pu, c->layers, Pn, d);
	nn_mix_fwd(Fv, Hs, P->alpha[TASK_REC], P->psi[TASK_REC], b->pv, c->layers, Pn, d);
	nn_ntn_pair_fwd(lg, XW, h, Fu, Fv, P->rec, Pn, d, (int)k);
	for (int64_t i = 0; i < Pn; i++)
		y[i] = b->y[i];
	double loss = nn_bce_logits(dl, lg, y, NULL, Pn);
	loss = share(loss, dl, Pn, Pn, tot);
	weigh(dl, Pn, c->task_w[TASK_REC]);
	if (!backward)
		return loss;
	real *dFu = need(&w->dFu, Pn * d), *dFv = need(&w->dFv, Pn * d);
	nn_ntn_pair_bwd(dFu, dFv, G->rec, dl, XW, h, Fu, Fv, P->rec, Pn, d, (int)k, dXW);
	nn_mix_bwd_params(G->alpha[TASK_REC], G->psi[TASK_REC], dFu, Hs, P->alpha[TASK_REC],
			  P->psi[TASK_REC], b->pu, c->layers, Pn, d);
	nn_mix_bwd_params(G->alpha[TASK_REC], G->psi[TASK_REC], dFv, Hs, P->alpha[TASK_REC],
			  P->psi[TASK_REC], b->pv, c->layers, Pn, d);
	return loss;
}

static int64_t
rec_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, Pn = b->P, k = M->cfg.ntn_k;
	return 2 * rup(Pn * d) + rup(Pn * k * d) + rup((Pn < NTN_CHUNK ? Pn : NTN_CHUNK) * k * d) +
	       rup(Pn * k) + 2 * rup(Pn);
}

/* Centrality ranking: RankNet on the pairs, one MLP per centrality. */
static double
task_rank(model *M, const batch *b, mws *w, real *arena, int backward, int64_t tot)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, U = b->U, Pn = b->P, hr = c->rank_hidden, Hh = MODEL_NCENT * hr;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *F = carve(&cv, U * d), *Z = carve(&cv, U * Hh), *dS = carve(&cv, U * MODEL_NCENT),
	     *z = carve(&cv, Pn * MODEL_NCENT), *dz = carve(&cv, Pn * MODEL_NCENT);
	real *S = need(&w->rS, U * MODEL_NCENT);

	nn_mix_fwd(F, Hs, P->alpha[TASK_RANK], P->psi[TASK_RANK], b->uidx, c->layers, U, d);
	nn_rank_fwd(S, Z, F, P->rW1, P->rb1, P->rw2, P->rb2, U, d, MODEL_NCENT, hr);
	for (int64_t i = 0; i < Pn; i++)
		for (int t = 0; t < MODEL_NCENT; t++)
			z[i * MODEL_NCENT + t] = S[(int64_t)b->ru[i] * MODEL_NCENT + t] -
						 S[(int64_t)b->rv[i] * MODEL_NCENT + t];
	double loss = nn_bce_logits(dz, z, b->R, NULL, Pn * MODEL_NCENT);
	loss = share(loss, dz, Pn * MODEL_NCENT, Pn, tot);
	weigh(dz, Pn * MODEL_NCENT, c->task_w[TASK_RANK]);
	if (!backward)
		return loss;
	memset(dS, 0, (size_t)(U * MODEL_NCENT) * sizeof *dS);
	for (int64_t i = 0; i < Pn; i++)
		for (int t = 0; t < MODEL_NCENT; t++) {
			dS[(int64_t)b->ru[i] * MODEL_NCENT + t] += dz[i * MODEL_NCENT + t];
			dS[(int64_t)b->rv[i] * MODEL_NCENT + t] -= dz[i * MODEL_NCENT + t];
		}
	real *dF = need(&w->dFU, U * d);
	nn_rank_bwd(dF, G->rW1, G->rb1, G->rw2, G->rb2, dS, Z, F, P->rW1, P->rw2, U, d, MODEL_NCENT,
		    hr, Z);
	nn_mix_bwd_params(G->alpha[TASK_RANK], G->psi[TASK_RANK], dF, Hs, P->alpha[TASK_RANK],
			  P->psi[TASK_RANK], b->uidx, c->layers, U, d);
	return loss;
}

static int64_t
rank_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, U = b->U, Hh = MODEL_NCENT * (int64_t)M->cfg.rank_hidden;
	return rup(U * d) + rup(U * Hh) + rup(U * MODEL_NCENT) + 2 * rup(b->P * MODEL_NCENT);
}

/* Cluster preserving: attention-pooled clusters, NTN, softmax over the
 * graph's clusters. */
static double
task_cluster(model *M, const batch *b, mws *w, real *arena, int backward, int64_t tot,
	     int64_t *correct)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, Ns = b->Ns, Q = b->Q, S = b->ncl, k = c->ntn_k, ha = c->att_hidden,
		km = b->kmax;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *Fs = carve(&cv, Ns * d), *Fq = carve(&cv, Q * d), *T = carve(&cv, Ns * ha),
	     *a = carve(&cv, Ns), *de = carve(&cv, Ns), *C = carve(&cv, S * d),
	     *dC = carve(&cv, S * d), *CW = carve(&cv, S * k * d), *dCW = carve(&cv, S * k * d),
	     *XV = carve(&cv, Q * k), *dXV = carve(&cv, Q * k), *CV = carve(&cv, S * k),
	     *dCV = carve(&cv, S * k), *h = carve(&cv, Q * km * k), *dl = carve(&cv, Q * km);
	real *lg = need(&w->clog, Q * km);

	nn_mix_fwd(Fs, Hs, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->sidx, c->layers, Ns, d);
	nn_mix_fwd(Fq, Hs, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->qidx, c->layers, Q, d);
	nn_attn_fwd(C, T, a, Fs, P->aW, P->ab, P->aw, b->soff, S, Ns, d, ha);
	nn_ntn_cand_fwd(lg, CW, XV, CV, h, Fq, C, P->clu, b->qbeg, b->qnum, Q, S, (int)km, d,
			(int)k);
	double loss = nn_softmax_xent(dl, correct, lg, b->qnum, b->qtgt, Q, (int)km);
	loss = share(loss, dl, Q * km, Q, tot);
	weigh(dl, Q * km, c->task_w[TASK_CLUSTER]);
	if (!backward)
		return loss;
	real *dFs = need(&w->dFs, Ns * d), *dFq = need(&w->dFq, Q * d);
	nn_ntn_cand_bwd(dFq, dC, G->clu, dl, CW, h, Fq, C, P->clu, b->qbeg, b->qnum, Q, S, (int)km,
			d, (int)k, dCW, dXV, dCV);
	memset(dFs, 0, (size_t)(Ns * d) * sizeof *dFs);
	nn_attn_bwd(dFs, G->aW, G->ab, G->aw, dC, T, a, Fs, P->aW, P->aw, b->soff, S, Ns, d, ha, T,
		    de);
	nn_mix_bwd_params(G->alpha[TASK_CLUSTER], G->psi[TASK_CLUSTER], dFs, Hs,
			  P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->sidx, c->layers, Ns, d);
	nn_mix_bwd_params(G->alpha[TASK_CLUSTER], G->psi[TASK_CLUSTER], dFq, Hs,
			  P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->qidx, c->layers, Q, d);
	return loss;
}

static int64_t
cluster_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, Ns = b->Ns, Q = b->Q, S = b->ncl, k = M->cfg.ntn_k,
		ha = M->cfg.att_hidden, km = b->kmax;
	return rup(Ns * d) + rup(Q * d) + rup(Ns * ha) + 2 * rup(Ns) + 2 * rup(S * d) +
	       2 * rup(S * k * d) + 2 * rup(Q * k) + 2 * rup(S * k) + rup(Q * km * k) + rup(Q * km);
}

/* The objective of kind mask among M's, or -1. */
static int
mask_objective(const model *M)
{
	for (int i = 0; i < M->cfg.nobj; i++)
		if (M->cfg.obj[i].kind == OBJ_MASK)
			return i;
	return -1;
}

/* The encoder's input: the batch's features, or with an objective of kind
 * mask a copy in which its rows hold the token. */
static const real *
masked_input(model *M, const batch *b, mws *w)
{
	int i = mask_objective(M);
	int64_t F = b->F;
	if (i < 0 || b->ob[i].R == 0)
		return b->X;
	real *X = need(&w->Xm, b->N * F);
	memcpy(X, b->X, (size_t)(b->N * F) * sizeof *X);
	for (int64_t r = 0; r < b->ob[i].R; r++)
		memcpy(X + (int64_t)b->ob[i].idx[r] * F, M->P.ob[i].tok, (size_t)F * sizeof *X);
	return X;
}

/* The token's gradient: the masked rows' input gradients, added up. */
static void
token_grad(model *M, const batch *b, mws *w)
{
	int i = mask_objective(M);
	int64_t F = b->F;
	if (i < 0 || w->X == b->X)
		return;
	for (int64_t r = 0; r < b->ob[i].R; r++)
		for (int64_t c = 0; c < F; c++)
			M->G.ob[i].tok[c] += w->dXm.p[(int64_t)b->ob[i].idx[r] * F + c];
}

double
model_step(model *M, const batch *b, mws *w, int backward, struct mout *out)
{
	return model_step_part(M, b, w, backward, out, NULL);
}

double
model_step_part(model *M, const batch *b, mws *w, int backward, struct mout *out,
		const int64_t *tot)
{
	static const int64_t whole[NTASK]; /* 0: the means over b's own items */
	const struct model_cfg *c = &M->cfg;
	int64_t N = b->N, d = c->d;
	/* the encoder's T1, T2, dH; in bf16 T2 is not used (H0 and the
	 * blocks' dA1 are bf16 buffers of w), and dH takes its place */
	int ne = 3;
#ifndef NN_DOUBLE
	if (model_encoder_bf16(b->N, d))
		ne = 2;
#endif
	int64_t an = ne * rup(N * d);
	if (c->tasks & 1 << TASK_REC && rec_arena(M, b) > an)
		an = rec_arena(M, b);
	if (c->tasks & 1 << TASK_RANK && rank_arena(M, b) > an)
		an = rank_arena(M, b);
	if (c->tasks & 1 << TASK_CLUSTER && cluster_arena(M, b) > an)
		an = cluster_arena(M, b);
	for (int i = 0; i < c->nobj; i++) {
		int64_t oa = ohead_arena(&c->obj[i], b, i, d, b->F);
		if (oa > an)
			an = oa;
	}
	real *arena = need(&w->arena, an);
	real *T1 = arena, *T2 = arena + rup(N * d), *T3 = ne == 3 ? T2 + rup(N * d) : T2;

	memset(out, 0, sizeof *out);
	if (!tot)
		tot = whole;
	w->X = masked_input(M, b, w);
	encoder_fwd(M, b, w, T1, T2, 1, 0, c->layers, NULL);
	double total = 0;
	if (c->tasks & 1 << TASK_REC) {
		out->loss[TASK_REC] = task_rec(M, b, w, arena, backward, tot[TASK_REC]);
		out->rec_logit = w->rlog.p;
	}
	if (c->tasks & 1 << TASK_RANK) {
		out->loss[TASK_RANK] = task_rank(M, b, w, arena, backward, tot[TASK_RANK]);
		out->rank_S = w->rS.p;
	}
	if (c->tasks & 1 << TASK_CLUSTER) {
		out->loss[TASK_CLUSTER] =
		    task_cluster(M, b, w, arena, backward, tot[TASK_CLUSTER], &out->clu_correct);
		out->clu_logit = w->clog.p;
	}
	for (int t = 0; t < NTASK; t++)
		total += c->task_w[t] == 1 ? out->loss[t] : c->task_w[t] * out->loss[t];
	/* the objectives besides the tasks, each on its own rows */
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	for (int i = 0; i < c->nobj; i++) {
		int64_t R;
		ohead_rows(&c->obj[i], b, i, &R);
		real *dF = backward ? need(&w->dFo[i], R * d) : NULL;
		out->oloss[i] = ohead_step(&c->obj[i], &M->P.ob[i], &M->G.ob[i], b, i, Hs,
					   c->layers, d, arena, dF, backward, out->ostat[i]);
		total += c->obj[i].weight * out->oloss[i];
	}
	if (backward) {
		struct mix_src src[5 + OBJ_MAX];
		int ns = task_sources(M, b, w, src);
		for (int i = 0; i < c->nobj; i++) {
			int64_t R;
			const int32_t *idx = ohead_rows(&c->obj[i], b, i, &R);
			src[ns++] = (struct mix_src){
				M->P.ob[i].alpha, M->P.ob[i].psi, w->dFo[i].p, idx, R, 1
			};
		}
		encoder_bwd(M, b, w, T1, T2, T3, src, ns, 0, 1);
		token_grad(M, b, w);
	}
	return total;
}

/* ------------------------------------------------------------------ */
/* the encoder alone (adaptation) */

static int64_t
encoder_arena(const model *M, const batch *b)
{
	return 3 * rup(b->N * M->cfg.d);
}

void
model_encode(model *M, const batch *b, mws *w, real **Hs)
{
	real *arena = need(&w->arena, encoder_arena(M, b));
	w->X = b->X;
	encoder_fwd(M, b, w, arena, arena + rup(b->N * M->cfg.d), 1, 0, M->cfg.layers, NULL);
	for (int l = 0; l < M->cfg.layers; l++)
		Hs[l] = w->H[l + 1].p;
}

void
model_embed(model *M, const batch *b, real *H0)
{
	embed_fwd(M, b, b->X, H0);
}

void
model_encode_from(model *M, const batch *b, mws *w, int from, const real *Hin, real **Hs)
{
	if (from < 0 || from > M->cfg.layers || !Hin)
		die("internal error: model_encode_from(from %d, %s input)", from,
		    Hin ? "an" : "no");
	/* no block to run (the encoder fixed): no scratch */
	real *arena = from < M->cfg.layers ? need(&w->arena, encoder_arena(M, b)) : NULL;
	w->X = b->X;
	encoder_fwd(M, b, w, arena, arena ? arena + rup(b->N * M->cfg.d) : NULL, 1, from,
		    M->cfg.layers, Hin);
	for (int l = from; l < M->cfg.layers; l++)
		Hs[l] = w->H[l + 1].p;
}

void
model_encode_fwd(model *M, const batch *b, mws *w, real **Hs)
{
	int64_t nd = rup(b->N * M->cfg.d);
	real *arena = need(&w->arena, 2 * nd);
	w->X = b->X;
	encoder_fwd(M, b, w, arena, arena + nd, 0, 0, M->cfg.layers, NULL);
	for (int l = 0; l < M->cfg.layers; l++)
		Hs[l] = w->H[l + 1].p;
}

/* The bytes need() holds for n reals, and needb() for n bf16 values. */
static double
need_bytes(int64_t n)
{
	size_t want = (size_t)n + 1;
	return (double)(want + want / 16) * sizeof(real);
}

static double
needb_bytes(int64_t n)
{
	return need_bytes((n + 1) / 2);
}

double
model_ws_need(const struct model_cfg *c, int64_t N, int64_t G, int from, int embed, int bf)
{
	int64_t d = c->d, nd = N * d;
	int L = c->layers, fixed = !embed && from > 0;
	/* the arena: T1, T2, dH; the fixed pass's T1, T2 alone when no
	 * block is trained */
	double s = need_bytes((fixed && from == L ? 2 : 3) * rup(nd));

	if (embed)
		from = 0;
	if (fixed) /* H_1..H_from; its caches in block from's slot, or slot 0 */
		s += from * need_bytes(nd) +
		     (from == L ? need_bytes(G * d) + (bf ? 2 * needb_bytes(nd) : 0) : 0);
	if (bf) {
		s += needb_bytes(nd) + needb_bytes(d * d); /* Xb, Wb */
		if (from < L)
			s += needb_bytes(nd); /* Yb */
		if (embed || fixed)	      /* Ec: the pass makes H0 */
			s += need_bytes((N < EMBED_ROWS ? N : EMBED_ROWS) * d);
	}
	for (int l = from; l < L; l++)
		s += need_bytes(nd) + need_bytes(G * d) + /* H_(l+1), istd; A1 and XH */
		     (bf ? 2 * needb_bytes(nd) : 2 * need_bytes(nd));
	return s;
}

void
model_encode_fixed(model *M, const batch *b, mws *w, int to, real **Hs)
{
	int64_t nd = rup(b->N * M->cfg.d);
	if (to < 1 || to > M->cfg.layers)
		die("internal error: model_encode_fixed(to %d)", to);
	real *arena = need(&w->arena, 2 * nd);
	w->X = b->X;
	encoder_fwd(M, b, w, arena, arena + nd, 0, 0, to, NULL);
	for (int l = 0; l < to; l++)
		Hs[l] = w->H[l + 1].p;
}

void
model_encode_bwd(model *M, const batch *b, mws *w, const struct mix_src *src, int nsrc, int from,
		 int embed)
{
	int64_t nd = rup(b->N * M->cfg.d);
	real *arena = w->arena.p; /* model_encode() sized it */
	if ((embed ? 0 : from) >= M->cfg.layers)
		return; /* nothing trained */
	encoder_bwd(M, b, w, arena, arena + nd, arena + 2 * nd, src, nsrc, from, embed);
}
