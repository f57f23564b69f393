/*
 * model.h - the pre-training model of the paper (section 3, appendix A):
 * parameters, one batch of labelled graphs, and the forward and backward
 * pass of the whole model over a batch.
 *
 * Ownership: model_init()/model_free() own the parameter, gradient and
 * Adam buffers; batch_init()/batch_free() and mws_init()/mws_free() own
 * theirs, which grow on demand and are reused step after step.
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

#include <stdint.h>
#include <gsl/gsl_rng.h>

#include "graph.h"
#include "mask.h"
#include "nn.h"
#include "nodefeat.h"
#include "stream.h"

struct cfg_key;	/* config.h */

#define MODEL_NFEAT 4		/* input features (nodefeat) */
#define MODEL_NCENT 4		/* ranking targets */
#define MODEL_MAXL 16		/* most GCN blocks */

enum { TASK_REC = 0, TASK_RANK, TASK_CLUSTER, NTASK };
extern const char *const task_name[NTASK];	/* "rec", "rank", "cluster" */

struct model_cfg {
	int d;			/* hidden width [512] */
	int layers;		/* GCN blocks L [3] */
	int ntn_k;		/* NTN slices [4] */
	int rank_hidden;	/* ranking MLP hidden width [256] */
	int att_hidden;		/* attention scorer width [512] */
	int tasks;		/* bit (1 << TASK_x) per enabled task [all] */
	double bn_eps;		/* [1e-5] */
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
};

struct mtensor {
	char name[48];
	int64_t rows, cols, off;
};

typedef struct model {
	struct model_cfg cfg;
	int64_t n;		/* parameters in all */
	real *p, *g, *m, *v;	/* parameters, gradients, Adam moments */
	int nt;
	struct mtensor *t;	/* named tensors, in layout order */
	struct mview P, G;
	int64_t adam_t;		/* Adam steps taken */
} model;

/* Lay out the parameters of cfg; 0, or -1 if cfg is out of range. */
int model_init(model *M, const struct model_cfg *cfg);
void model_free(model *M);
/* PyTorch-style initial values: uniform(+-1/sqrt(fan_in)) for weights and
 * biases, gamma 1, beta 0, alpha 1, psi 0. */
void model_init_params(model *M, gsl_rng *r);
/* Index of a named tensor, or -1. */
int model_tensor(const model *M, const char *name);

/* One labelled graph of the training set. */
struct lgraph {
	int64_t id;
	graph g;		/* original graph (or the masked one, premasked) */
	int32_t *cluster;	/* (n) cluster of each node, 0..K-1 */
	int K;
	double *cent;		/* (n x MODEL_NCENT) ranking targets */
	/* Pre-masked input (mask-edges): pairs with label 1/0, used as the
	 * pool of positives and negatives instead of masking afresh. */
	int premasked;
	int64_t npairs;
	int32_t *pu, *pv;
	uint8_t *plab;
};

struct batch_opts {
	double mask_fraction;	/* [0.2] */
	int64_t npos, nneg;	/* pairs per graph [128, 256] */
	double support_fraction;	/* share of each cluster's nodes [1] */
	double tie_rtol;	/* centralities this close are a tie [1e-9] */
};

void batch_opts_default(struct batch_opts *o);

/* One batch: G graphs as consecutive row blocks of N nodes. */
typedef struct batch {
	int G;
	int64_t N;
	int64_t *off;		/* (G+1) node offsets */
	real *X;		/* (N x 4) model input */
	int64_t *rp;		/* Â in CSR: (N+1) */
	int32_t *ci;
	real *av;
	/* rec: P pairs (global node ids), y = 1 positive / 0 negative */
	int64_t P;
	int32_t *pu, *pv;
	real *y;
	/* rank: U distinct pair nodes; pair i is rows ru[i], rv[i] of them */
	int64_t U;
	int32_t *uidx, *ru, *rv;
	real *R;		/* (P x 4) targets 1, 0 or 1/2 */
	/* cluster: support rows sorted by cluster, clusters soff[c]..;
	 * queries with candidates qbeg[q] .. qbeg[q] + qnum[q] - 1 */
	int64_t Ns, ncl, Q;
	int kmax;
	int32_t *sidx;
	int64_t *soff;
	int32_t *qidx, *qbeg, *qnum, *qtgt;
	/* private */
	void *priv;
} batch;

void batch_init(batch *b);
void batch_free(batch *b);

/*
 * Build the batch of graphs gs[0..G-1] for training step `step`: each
 * graph is masked afresh (fraction of its edges, positives among them,
 * negatives among the original non-edges) from rng stream
 * (seed, rng_mix(step, graph id)), features and Â come from the masked
 * graph.  Graphs are prepared in parallel; the result does not depend on
 * the thread count.  Returns 0, or -1 with msg set (a graph with no pair
 * at all, say).
 */
int batch_build(batch *b, struct lgraph *const *gs, int G, uint64_t seed,
		uint64_t step, const struct batch_opts *o, char *msg,
		size_t msglen);

/* Workspace of the forward/backward pass, grown to the batch. */
typedef struct mws mws;
mws *mws_new(void);
void mws_free(mws *w);
/* Bytes the workspace holds now. */
size_t mws_bytes(const mws *w);

/* What a forward pass produced, for losses and validation scores. */
struct mout {
	double loss[NTASK];	/* mean loss per enabled task */
	const real *rec_logit;	/* (P) */
	const real *rank_S;	/* (U x 4) scores */
	const real *clu_logit;	/* (Q x kmax) */
	int64_t clu_correct;
};

/*
 * Forward pass over b; with backward nonzero also the backward pass,
 * which ADDS the gradients into M->g (zero them first with model_zero_grad).
 * Returns the total loss.
 */
double model_step(model *M, const batch *b, mws *w, int backward, struct mout *out);
void model_zero_grad(model *M);
/* Adam over every parameter (lr, beta1 0.9, beta2 0.999, eps 1e-8). */
void model_adam(model *M, double lr);

/* ---- the encoder alone (adaptation to downstream tasks) ---- */

/*
 * The graphs gs[0..G-1] as model input, without masking or pairs: features
 * of each graph scaled by `scale` (FEAT_SCALE_x), Â of each graph.
 * Returns 0, or -1 with msg.
 */
int batch_plain(batch *b, const graph *const *gs, int G, int scale, char *msg,
		size_t msglen);

/* Gradient of the rows of a layer mix F = alpha * sum_l softmax(psi)_l
 * H_l[idx[r]], r < R, handed to the encoder's backward pass. */
struct mix_src {
	const real *alpha, *psi;
	const real *dF;		/* (R x d) */
	const int32_t *idx;	/* (R) */
	int64_t R;
	int unique;		/* idx has no repeats */
};

/* Forward through E and the L blocks; Hs[l] = H_(l+1) (N x d, in w, valid
 * until the next call on w). */
void model_encode(model *M, const batch *b, mws *w, real **Hs);
/*
 * Backward after model_encode(): ADDS the gradients of blocks from..L-1
 * (0-based) and, when embed, of the embedding E into M->g; lower blocks
 * are frozen (the paper's fix-tune boundary).
 */
void model_encode_bwd(model *M, const batch *b, mws *w, const struct mix_src *src,
		      int nsrc, int from, int embed);

/* ---- settings: gcn-train's config, kept in every model record ---- */

struct train_settings {
	long long hidden, layers, ntn_k, rank_hidden, att_hidden;
	double bn_eps;
	char *tasks;		/* "rec,rank,cluster" (allocated) */
	long long batch, epochs, steps, patience, validation, npos, nneg;
	double lr, mask_fraction, support_fraction, tie_rtol;
	long long seed;
};

#define TRAIN_SCHEMA_MAX 32

/* The defaults (the paper's); s->tasks is allocated, the caller frees it. */
void train_settings_default(struct train_settings *s);
/* The config schema over s into k[TRAIN_SCHEMA_MAX]; returns the key count. */
size_t train_schema(struct train_settings *s, struct cfg_key *k);
/* Task bits of a list "rec,rank,cluster"; 0, or -1 if a name is unknown. */
int tasks_parse(const char *list, int *mask);
/* The model part of s; 0, or -1 if the task list is bad. */
int train_settings_model_cfg(const struct train_settings *s, struct model_cfg *mc);

/* ---- model records ---- */

/*
 * Fill r as a model record named name holding config and the parameters
 * params (M's layout; M->p or a copy) as float32 tensors by name, with
 * room for extra more tensors after them (gs_rec_param(r, M->nt + i, ...)).
 */
void model_to_record(gs_rec *r, const model *M, const real *params,
		     const char *name, const char *config, int extra);

/*
 * Rebuild a model from a record made by model_to_record(): the sizes come
 * from the record's config (into s; free s->tasks), the parameters from
 * its tensors.  Returns 0, or -1 with msg ("WHERE: parameter 'x' is
 * missing", a bad config...) and M left empty.
 */
int model_from_record(model *M, struct train_settings *s, const gs_rec *r,
		      const char *where, char *msg, size_t msglen);

#endif
