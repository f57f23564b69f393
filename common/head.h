/*
 * head.h - the downstream model of gcn-adapt (paper section 3.5): a fresh
 * layer mix over the encoder's blocks, a 2-layer GCN, and per task a
 * readout or decoder, with the forward and backward passes.
 *
 *   F      = alpha * sum_l softmax(psi)_l H_l   (the encoder's H_1..H_L),
 *            with the node attributes appended when given
 *   out    = Â relu(Â drop(F) W1 + b1) W2 + b2 (dropout on both inputs);
 *            with HEAD_SELF each layer also weighs the node's own row,
 *            Â X W + X S + b (S1, S2: the head kind "sage")
 *   node   out (N x C) are the logits
 *   graph  the logits of a graph are the mean of its nodes' rows
 *   link   h = relu(out) (N x hid); an edge's logits are
 *          W4 drop(relu([h_u ; h_v] W3 + b3)) + b4
 *
 * Ownership: head_init()/head_free() own the parameters, gradients and
 * Adam moments (one flat buffer each); head_hbuf_init()/head_hbuf_free() and
 * head_lbuf_init()/head_lbuf_free() own the pass buffers.
 */
#ifndef GNN_HEAD_H
#define GNN_HEAD_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "model.h"
#include "nn.h"

#define HEAD_NT 12

/* head_init()'s and head_shape()'s flags: HEAD_LINK adds the link
 * decoder (the link task), HEAD_SELF the weights S1, S2 of the nodes' own
 * rows. */
#define HEAD_LINK 1
#define HEAD_SELF 2
#define LCHUNK 16384 /* edges per decoder pass: bounds its memory */

struct head {
	int64_t n;
	int64_t d, din, hid, Cout, C; /* the sizes head_init() or head_shape() was given */
	int L, link, self;
	real *p, *g, *m, *v;
	real *alpha, *psi, *W1, *b1, *W2, *b2, *W3, *b3, *W4, *b4, *S1, *S2;
	real *galpha, *gpsi, *gW1, *gb1, *gW2, *gb2, *gW3, *gb3, *gW4, *gb4, *gS1, *gS2;
};

/* Buffers of one forward/backward pass of the head over N nodes. */
struct hbuf {
	real *F, *Fd, *Y1, *Z1, *Z1d, *lg, *dlg, *t1, *t2, *dF;
	uint8_t *m1, *m2;     /* dropout masks */
	real *Hs[MODEL_MAXL]; /* the encoder's H_1..H_L of the last forward pass */
	real *Fm;	      /* (N x d) the layer mix; in the backward pass, its gradient */
	int use_enc;	      /* the encoder feeds the head */
	const real *A;	      /* (N x na) attributes appended, or NULL */
	int64_t na, din;      /* head input width: d (if use_enc) + na */
	real es;	      /* the encoder's columns enter the head times es (1) */
	/* head_freeze(): the encoder's fixed part, a constant of the batch:
	 * Hc[0] = H0 (N x d, H0 below, owned) when cfrom is 0, else Hc[l] =
	 * H_l for l = 1..cfrom (in the workspace, model_encode_fixed());
	 * cfrom -1: nothing fixed is kept, the encoder runs whole */
	real *Hc[MODEL_MAXL + 1];
	real *H0;
	int cfrom;
	int64_t N, d; /* the sizes head_hbuf_init() was given */
};

/* Buffers of the link decoder. */
struct lbuf {
	real *P, *Q, *SU, *SV;		/* N x hid: H W3's halves, gradients per endpoint */
	real *Y3, *Z3, *Z3d, *lo, *dlo; /* LCHUNK x (hid, hid, hid, C, C) */
	uint8_t *m3;
	int32_t *y; /* (LCHUNK) the chunk's classes */
	int64_t N;  /* the nodes head_lbuf_init() was given */
};

/*
 * Parameters for encoder width d, head input width din, L blocks, hidden
 * width hid, GCN output width Cout (C for node and graph tasks, hid for
 * the link task, whose decoder of C classes is added with the flag
 * HEAD_LINK), and with HEAD_SELF the weights of the nodes' own rows.
 * Glorot-uniform weights from r (W1, W2, then W3, W4, then S1, S2: a head
 * without the last draws as before them), zero biases, alpha 1, psi 0;
 * with r NULL the weights are 0 too, for a caller that loads saved values.
 */
void head_init(struct head *h, int64_t d, int64_t din, int L, int64_t hid, int64_t Cout, int64_t C,
	       int flags, gsl_rng *r);
/* The sizes alone (h->n and those head_init() takes), every pointer NULL:
 * the shape of a head made later, for head_hbuf_init() and a model's record;
 * head_free() is not needed.  Time complexity: O(1). */
void head_shape(struct head *h, int64_t d, int64_t din, int L, int64_t hid, int64_t Cout, int64_t C,
		int flags);
void head_free(struct head *h);

/* A parameter tensor of the head: its name in an adapted model's record
 * (gcn-adapt(1), Inference), its shape (rows x cols, row-major) and its
 * offset in h->p. */
struct head_tensor {
	const char *name;
	int64_t rows, cols, off;
};

/*
 * The head's tensors in layout order, into t[0..HEAD_NT): head.mix.alpha
 * (1 x d), head.mix.psi (1 x L), head.gcn1.W (din x hid), head.gcn1.b
 * (1 x hid), head.gcn2.W (hid x Cout), head.gcn2.b (1 x Cout); for the
 * link task, head.link1.W (2 hid x hid: the rows of h_u, then those of
 * h_v), head.link1.b (1 x hid), head.link2.W (hid x C), head.link2.b
 * (1 x C); with HEAD_SELF, head.gcn1.S (din x hid) and head.gcn2.S
 * (hid x Cout).  A layer computes x W + b, W being (in x out).  Returns
 * the count (6, 8, 10 or 12); the tensors tile h->p exactly.
 * Time complexity: O(1).
 */
int head_tensors(const struct head *h, struct head_tensor *t);

/* Buffers for N nodes and the head h (its sizes: a head_shape() will do);
 * A (N x na) the attributes or NULL; use_enc 0 feeds the attributes alone.
 * h->din must be (use_enc ? h->d : 0) + (A ? na : 0). */
void head_hbuf_init(struct hbuf *hb, const struct head *h, int64_t N, int use_enc, const real *A,
		    int64_t na);
void head_hbuf_free(struct hbuf *hb);

/*
 * The encoder's part below the fix-tune boundary (from, embed as for
 * model_encode_bwd: blocks below from are fixed, and E too unless embed)
 * computed once for the batch b and kept in hb: H0 = tanh(X E + e) when
 * from is 0, the outputs H_1..H_from otherwise; head_encode() then runs the
 * encoder from block `from` up (model_encode_from), with the same values
 * to the bit as the whole pass.  Call it again whenever b, w or the fixed
 * parameters change (the link task's batch is new every run); with embed
 * set nothing is fixed and nothing is kept.  The blocks below from keep
 * no backward caches (model_encode_fixed()): H_1..H_from stay in w, valid
 * while w runs the encoder from `from` up on b.  Time complexity: one
 * forward pass of the encoder's fixed part; memory: N d values for H0
 * (from 0), else from N d in w.
 */
void head_freeze(model *M, const batch *b, mws *w, struct hbuf *hb, int from, int embed);

/* The encoder and the layer mix: hb->Fm (N x d) = alpha * sum_l
 * softmax(psi)_l H_l, the H_l kept in w (and pointed at by hb->Hs) for the
 * backward pass; from the boundary up when head_freeze() kept the part
 * below it. */
void head_encode(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb);

/*
 * Forward through encoder and head: the GCN's output (N x h->Cout) in
 * hb->lg.  With a generator, dropout p is on (training); r NULL gives the
 * evaluation pass.  The encoder and the mix run when encode is set;
 * otherwise hb->Fm holds their output from an earlier pass with the same
 * parameters (the encoder has no dropout, so one pass serves both).
 */
void head_forward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb, double p,
		  gsl_rng *r, int encode);

/* From the gradient of the GCN's output in hb->dlg: the head's gradients
 * (added to h->g) and, above the fix-tune boundary (from, embed as for
 * model_encode_bwd), the encoder's (added to M->g).  Call right after the
 * training head_forward().  It is head_gcn_backward() (the GCN's
 * gradients; the gradient of the layer mix's output goes to hb->Fm)
 * followed by head_encode_backward() (the mix's and the encoder's). */
void head_backward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb, double p,
		   int from, int embed);
void head_gcn_backward(model *M, struct head *h, const batch *b, struct hbuf *hb, double p);
void head_encode_backward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb,
			  int from, int embed);

/* Graph task: glg (G x C) = the mean of each graph's rows of lg; and the
 * way back, from dglg into the node rows dlg. */
void head_graph_logits(real *glg, const real *lg, const batch *b, int64_t C);
void head_graph_bwd(real *dlg, const real *dglg, const batch *b, int64_t C);

/* The largest of the C logits z (returned; its index in *best) and
 * *s = sum_j exp(z_j - max): softmax_j = exp(z_j - max) / *s. */
double head_softmax_stats(const real *z, int64_t C, double *s, int *best);

/*
 * Mean cross-entropy of the items idx[0..k-1] (idx NULL: 0..k-1) with
 * logits ilg (items x C) and classes y (indexed by item); *acc gets the
 * accuracy.  When backward, the gradient goes into dil (nitems x C,
 * zeroed first).
 */
double head_xent(const real *ilg, real *dil, const int32_t *y, const int32_t *idx, int k, int64_t C,
		 int64_t nitems, double *acc, int backward);

/* Buffers of the link decoder for N nodes, hid and C as the head's. */
void head_lbuf_init(struct lbuf *lb, int64_t N, int64_t hid, int64_t C);
void head_lbuf_free(struct lbuf *lb);

/* Labelled node pairs the link decoder scores: pair i of the set is
 * idx[i] (idx NULL: i), i < k; its endpoints u[idx[i]], v[idx[i]], its
 * class y[idx[i]] (y may be NULL where no loss is taken). */
struct edges {
	const int32_t *u, *v, *y;
	const int32_t *idx;
	int64_t k;
};

/*
 * Training pass of the link decoder on the edges e (k >= 1), from the
 * node outputs H (lb->N x h->hid, after relu), LCHUNK edges at a time,
 * dropout p on with generator r: returns the mean cross-entropy over the
 * k edges; its gradient goes into the decoder's gradients (added) and
 * into dH (lb->N x h->hid, written here).  Time complexity: O(N hid^2 +
 * k hid (hid + C)).
 */
double head_link_train(struct head *h, struct lbuf *lb, const struct edges *e, const real *H,
		       real *dH, double p, gsl_rng *r);
/*
 * Evaluation pass: the logits of edge idx[i] into row idx[i] of out
 * (edges x h->C), from H as above, no dropout.  Time complexity: as
 * head_link_train() without the backward part.
 */
void head_link_eval(struct head *h, struct lbuf *lb, const struct edges *e, const real *H,
		    real *out);

/*
 * Evaluation after head_link_train() or head_link_eval() on the same H:
 * the logits of the edges e into rows idx[i] of out (edges x h->C), from
 * the decoder's first layer's node products of that pass (lb->P, lb->Q),
 * so a second set of edges (the test edges at a new best epoch) costs no
 * GEMM over the nodes.  Time complexity: O(k hid (hid + C)).
 */
void head_link_logits(struct head *h, struct lbuf *lb, const struct edges *e, real *out);

#endif
