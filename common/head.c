/*
 * head.c - the downstream model of gcn-adapt: layer mix, 2-layer GCN,
 * graph readout and link decoder, forward and backward (see head.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "head.h"



/* Cout: the GCN's output width, C (node and graph tasks) or hid (link
 * task, whose decoder W3 (2 hid x hid), W4 (hid x C) follows). */
static void
glorot(real *W, int64_t in, int64_t out, gsl_rng *r)
{
	double b = sqrt(6.0 / (double)(in + out));
	for (int64_t i = 0; i < in * out; i++)
		W[i] = (real)((2 * gsl_rng_uniform(r) - 1) * b);
}

void
head_init(struct head *h, int64_t d, int64_t din, int L, int64_t hid, int64_t Cout,
	  int64_t C, int link, gsl_rng *r)
{
	int64_t sz[HEAD_NT] = { d, L, din * hid, hid, hid * Cout, Cout,
		link ? 2 * hid * hid : 0, link ? hid : 0, link ? hid * C : 0, link ? C : 0 };
	int64_t off = 0;
	real **pp[HEAD_NT] = { &h->alpha, &h->psi, &h->W1, &h->b1, &h->W2, &h->b2,
		&h->W3, &h->b3, &h->W4, &h->b4 };
	real **gg[HEAD_NT] = { &h->galpha, &h->gpsi, &h->gW1, &h->gb1, &h->gW2, &h->gb2,
		&h->gW3, &h->gb3, &h->gW4, &h->gb4 };
	h->n = 0;
	h->d = d;
	h->din = din;
	h->hid = hid;
	h->Cout = Cout;
	h->C = C;
	h->L = L;
	h->link = link;
	for (int i = 0; i < HEAD_NT; i++)
		h->n += sz[i];
	h->p = xcalloc((size_t)h->n, sizeof *h->p);
	h->g = xcalloc((size_t)h->n, sizeof *h->g);
	h->m = xcalloc((size_t)h->n, sizeof *h->m);
	h->v = xcalloc((size_t)h->n, sizeof *h->v);
	for (int i = 0; i < HEAD_NT; i++) {
		*pp[i] = h->p + off;
		*gg[i] = h->g + off;
		off += sz[i];
	}
	for (int64_t i = 0; i < d; i++)
		h->alpha[i] = 1;
	if (!r)		/* the caller loads saved values */
		return;
	/* Glorot uniform as in Kipf's GCN; biases 0 */
	glorot(h->W1, din, hid, r);
	glorot(h->W2, hid, Cout, r);
	if (link) {
		glorot(h->W3, 2 * hid, hid, r);
		glorot(h->W4, hid, C, r);
	}
}

int
head_tensors(const struct head *h, struct head_tensor *t)
{
	static const char *const name[HEAD_NT] = {
		"head.mix.alpha", "head.mix.psi", "head.gcn1.W", "head.gcn1.b", "head.gcn2.W",
		"head.gcn2.b", "head.link1.W", "head.link1.b", "head.link2.W", "head.link2.b"
	};
	/* the shapes, in head_init()'s layout order */
	const int64_t shape[HEAD_NT][2] = {
		{ 1, h->d }, { 1, h->L }, { h->din, h->hid }, { 1, h->hid }, { h->hid, h->Cout },
		{ 1, h->Cout }, { 2 * h->hid, h->hid }, { 1, h->hid }, { h->hid, h->C }, { 1, h->C }
	};
	int n = h->link ? HEAD_NT : 6;
	int64_t off = 0;
	for (int i = 0; i < n; i++) {
		t[i].name = name[i];
		t[i].rows = shape[i][0];
		t[i].cols = shape[i][1];
		t[i].off = off;
		off += shape[i][0] * shape[i][1];
	}
	return n;
}

void
head_free(struct head *h)
{
	free(h->p);
	free(h->g);
	free(h->m);
	free(h->v);
}


static void
dropout(real *y, uint8_t *mask, const real *x, int64_t n, double p, gsl_rng *r)
{
	real s = (real)(1 / (1 - p));
	for (int64_t i = 0; i < n; i++) {
		mask[i] = !r || gsl_rng_uniform(r) >= p;
		y[i] = mask[i] ? (r ? x[i] * s : x[i]) : 0;
	}
}

/*
 * Forward through encoder and head: logits (N x C) in hb->lg.  With a
 * generator, dropout is on (training); NULL gives the evaluation pass.
 * The encoder and the mix run when encode is set; otherwise hb->Fm holds
 * their output from an earlier pass with the same parameters (the encoder
 * has no dropout, so one encoder pass serves both head passes).
 */
void
head_forward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb,
	int64_t hid, int64_t C, double p, gsl_rng *r, const int32_t *ident, int encode)
{
	int64_t N = b->N, d = M->cfg.d;
	int L = M->cfg.layers;
	int64_t din = hb->din, dd = hb->use_enc ? d : 0;
	if (hb->use_enc && encode) {
		model_encode(M, b, w, hb->Hs);
		mix_fwd(hb->Fm, hb->Hs, L, h->alpha, h->psi, ident, N, d);
	}
	for (int64_t i = 0; i < N; i++) {
		if (dd && hb->es == 1)
			memcpy(hb->F + i * din, hb->Fm + i * d, (size_t)d * sizeof(real));
		else if (dd)
			for (int64_t c = 0; c < d; c++)
				hb->F[i * din + c] = hb->es * hb->Fm[i * d + c];
		if (hb->A)
			memcpy(hb->F + i * din + dd, hb->A + i * hb->na, (size_t)hb->na * sizeof(real));
	}
	dropout(hb->Fd, hb->m1, hb->F, N * din, p, r);
	lin_fwd(hb->t1, hb->Fd, h->W1, NULL, N, din, hid);
	csr_spmm(hb->Y1, b->rp, b->ci, b->av, hb->t1, N, hid, 0);
	for (int64_t i = 0; i < N; i++)
		for (int64_t j = 0; j < hid; j++) {
			real x = hb->Y1[i * hid + j] + h->b1[j];
			hb->Z1[i * hid + j] = x > 0 ? x : 0;
		}
	dropout(hb->Z1d, hb->m2, hb->Z1, N * hid, p, r);
	lin_fwd(hb->t2, hb->Z1d, h->W2, NULL, N, hid, C);
	csr_spmm(hb->lg, b->rp, b->ci, b->av, hb->t2, N, C, 0);
	for (int64_t i = 0; i < N; i++)
		for (int64_t j = 0; j < C; j++)
			hb->lg[i * C + j] += h->b2[j];
}

/* Graph task: graph logits = mean of its nodes' logits (a mean readout
 * of the head's last layer: mean pooling commutes with it). */
void
head_graph_logits(real *glg, const real *lg, const batch *b, int64_t C)
{
	for (int g = 0; g < b->G; g++) {
		real *z = glg + (int64_t)g * C;
		int64_t n = b->off[g + 1] - b->off[g];
		for (int64_t j = 0; j < C; j++)
			z[j] = 0;
		for (int64_t v = b->off[g]; v < b->off[g + 1]; v++)
			for (int64_t j = 0; j < C; j++)
				z[j] += lg[v * C + j];
		for (int64_t j = 0; j < C; j++)
			z[j] /= (real)n;
	}
}

double
head_softmax_stats(const real *z, int64_t C, double *s, int *best)
{
	double mx = z[0];
	*best = 0;
	for (int64_t j = 1; j < C; j++)
		if (z[j] > mx) {
			mx = z[j];
			*best = (int)j;
		}
	*s = 0;
	for (int64_t j = 0; j < C; j++)
		*s += exp(z[j] - mx);
	return mx;
}

double
head_xent(const real *ilg, real *dil, const int32_t *y, const int32_t *idx, int k,
     int64_t C, int64_t nitems, double *acc, int backward)
{
	double loss = 0;
	int ok = 0;
	if (backward)
		memset(dil, 0, (size_t)(nitems * C) * sizeof *dil);
	for (int i = 0; i < k; i++) {
		const real *z = ilg + (int64_t)idx[i] * C;
		double s;
		int best;
		double mx = head_softmax_stats(z, C, &s, &best);
		loss += mx + log(s) - z[y[idx[i]]];
		ok += best == y[idx[i]];
		if (backward)
			for (int64_t j = 0; j < C; j++)
				dil[(int64_t)idx[i] * C + j] =
				    (real)((exp(z[j] - mx) / s - (j == y[idx[i]])) / k);
	}
	*acc = (double)ok / k;
	return loss / k;
}

void
head_backward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb,
	 int64_t hid, int64_t C, double p, int from, int embed, const int32_t *ident)
{
	int64_t N = b->N, d = M->cfg.d;
	int L = M->cfg.layers;
	real s = (real)(1 / (1 - p));
	/* logits = Â t2 + b2, t2 = Z1d W2 */
	for (int64_t i = 0; i < N; i++)
		for (int64_t j = 0; j < C; j++)
			h->gb2[j] += hb->dlg[i * C + j];
	csr_spmm(hb->t2, b->rp, b->ci, b->av, hb->dlg, N, C, 0);
	lin_bwd(hb->Z1d, h->gW2, NULL, hb->t2, hb->Z1d, h->W2, N, hid, C, 0);
	/* hb->Z1d now holds d(Z1d); through dropout and relu into dY1 */
	for (int64_t i = 0; i < N * hid; i++) {
		real g = hb->m2[i] ? hb->Z1d[i] * s : 0;
		hb->Y1[i] = hb->Z1[i] > 0 ? g : 0;
	}
	for (int64_t i = 0; i < N; i++)
		for (int64_t j = 0; j < hid; j++)
			h->gb1[j] += hb->Y1[i * hid + j];
	csr_spmm(hb->t1, b->rp, b->ci, b->av, hb->Y1, N, hid, 0);
	int64_t din = hb->din;
	if (!hb->use_enc) {		/* attributes only: nothing below W1 */
		lin_bwd(NULL, h->gW1, NULL, hb->t1, hb->Fd, h->W1, N, din, hid, 0);
		return;
	}
	lin_bwd(hb->dF, h->gW1, NULL, hb->t1, hb->Fd, h->W1, N, din, hid, 0);
	/* the encoder's columns, through dropout, into Fm */
	for (int64_t i = 0; i < N; i++)
		for (int64_t c = 0; c < d; c++) {
			int64_t k = i * din + c;
			hb->Fm[i * d + c] = hb->m1[k] ? hb->dF[k] * s * hb->es : 0;
		}
	/* the mix and the encoder (its H_l are still in w) */
	mix_bwd_params(h->galpha, h->gpsi, hb->Fm, hb->Hs, L, h->alpha, h->psi, ident, N, d);
	struct mix_src src = { h->alpha, h->psi, hb->Fm, ident, N, 1 };
	model_encode_bwd(M, b, w, &src, 1, from, embed);
}

/* ---- the link decoder ---- */

void
lbuf_init(struct lbuf *lb, int64_t N, int64_t hid, int64_t C)
{
	lb->P = xmallocarray((size_t)(N * hid), sizeof(real));
	lb->Q = xmallocarray((size_t)(N * hid), sizeof(real));
	lb->SU = xmallocarray((size_t)(N * hid), sizeof(real));
	lb->SV = xmallocarray((size_t)(N * hid), sizeof(real));
	lb->Y3 = xmallocarray((size_t)(LCHUNK * hid), sizeof(real));
	lb->Z3 = xmallocarray((size_t)(LCHUNK * hid), sizeof(real));
	lb->Z3d = xmallocarray((size_t)(LCHUNK * hid), sizeof(real));
	lb->lo = xmallocarray((size_t)(LCHUNK * C), sizeof(real));
	lb->dlo = xmallocarray((size_t)(LCHUNK * C), sizeof(real));
	lb->m3 = xmallocarray((size_t)(LCHUNK * hid), 1);
	lb->y = xmallocarray(LCHUNK, sizeof *lb->y);
}

void
lbuf_free(struct lbuf *lb)
{
	free(lb->P); free(lb->Q); free(lb->SU); free(lb->SV);
	free(lb->Y3); free(lb->Z3); free(lb->Z3d);
	free(lb->lo); free(lb->dlo); free(lb->m3); free(lb->y);
}

/*
 * The decoder on edges idx[0..k) of ds, from the node outputs H (N x hid,
 * after relu), LCHUNK edges at a time.  Training (r != NULL): dropout on,
 * the mean cross-entropy over the k edges is returned and its gradient
 * goes into the head's decoder gradients and into dH (N x hid, written
 * here).  Evaluation (r == NULL): the logits of edge idx[i] into row idx[i]
 * of out (edges x C).
 *
 * The first layer splits: [h_u ; h_v] W3 = h_u W3u + h_v W3v, W3u and W3v
 * the top and bottom halves of W3.  So P = H W3u and Q = H W3v are taken
 * once per node, and an edge adds two rows; backward, the edges' gradients
 * are summed per endpoint into SU and SV, and gW3u += H^T SU, dH = SU W3u^T
 * + SV W3v^T (and the same for v).  Exactly the concatenated layer's
 * function and gradient, at N instead of k rows of GEMM (ML-1M: 9,746
 * nodes against 720,000 training edges).
 */
double
head_link_pass(struct head *h, struct lbuf *lb, const int32_t *eu, const int32_t *ev,
	       const int32_t *y, const real *H,
	  real *dH, int64_t N, const int32_t *idx, int64_t k, int64_t hid, int64_t C,
	  double p, gsl_rng *r, real *out, const int32_t *ident)
{
	double loss = 0, acc;
	real s = (real)(1 / (1 - p));
	const real *W3u = h->W3, *W3v = h->W3 + hid * hid;
	lin_fwd(lb->P, H, W3u, NULL, N, hid, hid);
	lin_fwd(lb->Q, H, W3v, NULL, N, hid, hid);
	if (r) {
		memset(lb->SU, 0, (size_t)(N * hid) * sizeof *lb->SU);
		memset(lb->SV, 0, (size_t)(N * hid) * sizeof *lb->SV);
	}
	for (int64_t c0 = 0; c0 < k; c0 += LCHUNK) {
		int64_t kc = k - c0 < LCHUNK ? k - c0 : LCHUNK;
		for (int64_t i = 0; i < kc; i++) {
			int32_t e = idx[c0 + i];
			const real *pu = lb->P + (int64_t)eu[e] * hid, *qv = lb->Q + (int64_t)ev[e] * hid;
			real *y3 = lb->Y3 + i * hid;
			for (int64_t j = 0; j < hid; j++)
				y3[j] = pu[j] + qv[j] + h->b3[j];
			lb->y[i] = y[e];
		}
		relu_fwd(lb->Z3, lb->Y3, kc * hid);
		dropout(lb->Z3d, lb->m3, lb->Z3, kc * hid, p, r);
		lin_fwd(lb->lo, lb->Z3d, h->W4, h->b4, kc, hid, C);
		if (!r) {
			for (int64_t i = 0; i < kc; i++)
				memcpy(out + (int64_t)idx[c0 + i] * C, lb->lo + i * C,
				       (size_t)C * sizeof *out);
			continue;
		}
		/* the chunk's share of the mean loss and its gradient */
		loss += head_xent(lb->lo, lb->dlo, lb->y, ident, (int)kc, C, kc, &acc, 1) * (double)kc;
		for (int64_t i = 0; i < kc * C; i++)
			lb->dlo[i] *= (real)((double)kc / (double)k);
		lin_bwd(lb->Y3, h->gW4, h->gb4, lb->dlo, lb->Z3d, h->W4, kc, hid, C, 0);
		for (int64_t i = 0; i < kc * hid; i++)	/* through dropout and relu */
			lb->Y3[i] = lb->m3[i] && lb->Z3[i] > 0 ? lb->Y3[i] * s : 0;
		for (int64_t i = 0; i < kc; i++) {
			int32_t e = idx[c0 + i];
			real *su = lb->SU + (int64_t)eu[e] * hid, *sv = lb->SV + (int64_t)ev[e] * hid;
			const real *g = lb->Y3 + i * hid;
			for (int64_t j = 0; j < hid; j++) {
				su[j] += g[j];
				sv[j] += g[j];
				h->gb3[j] += g[j];
			}
		}
	}
	if (r) {
		lin_bwd(dH, h->gW3, NULL, lb->SU, H, W3u, N, hid, hid, 0);
		lin_bwd(dH, h->gW3 + hid * hid, NULL, lb->SV, H, W3v, N, hid, hid, 1);
	}
	return loss / (double)k;
}


void
hbuf_init(struct hbuf *hb, int64_t N, int64_t d, int64_t hid, int64_t Cout,
	  int use_enc, const real *A, int64_t na)
{
	memset(hb, 0, sizeof *hb);
	hb->use_enc = use_enc;
	hb->A = A;
	hb->na = A ? na : 0;
	hb->din = (use_enc ? d : 0) + hb->na;
	hb->es = 1;
	int64_t din = hb->din;
	hb->Fm = xmallocarray((size_t)(N * d) + 1, sizeof(real));
	hb->F = xmallocarray((size_t)(N * din), sizeof(real));
	hb->Fd = xmallocarray((size_t)(N * din), sizeof(real));
	hb->dF = xmallocarray((size_t)(N * din), sizeof(real));
	hb->m1 = xmallocarray((size_t)(N * din), 1);
	hb->Y1 = xmallocarray((size_t)(N * hid), sizeof(real));
	hb->Z1 = xmallocarray((size_t)(N * hid), sizeof(real));
	hb->Z1d = xmallocarray((size_t)(N * hid), sizeof(real));
	hb->t1 = xmallocarray((size_t)(N * hid), sizeof(real));
	hb->m2 = xmallocarray((size_t)(N * hid), 1);
	hb->t2 = xmallocarray((size_t)(N * Cout), sizeof(real));
	hb->lg = xmallocarray((size_t)(N * Cout), sizeof(real));
	hb->dlg = xmallocarray((size_t)(N * Cout), sizeof(real));
}

void
hbuf_free(struct hbuf *hb)
{
	free(hb->Fm); free(hb->F); free(hb->Fd); free(hb->dF); free(hb->m1);
	free(hb->Y1); free(hb->Z1); free(hb->Z1d); free(hb->t1); free(hb->m2);
	free(hb->t2); free(hb->lg); free(hb->dlg);
}

void
head_graph_bwd(real *dlg, const real *dglg, const batch *b, int64_t C)
{
	for (int g = 0; g < b->G; g++) {
		int64_t n = b->off[g + 1] - b->off[g];
		for (int64_t v = b->off[g]; v < b->off[g + 1]; v++)
			for (int64_t j = 0; j < C; j++)
				dlg[v * C + j] = dglg[(int64_t)g * C + j] / (real)n;
	}
}
