/*
 * head.c - the downstream model of gcn-adapt: layer mix, 2-layer GCN,
 * graph readout and link decoder, forward and backward (see head.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "head.h"
#include "rng.h"

/* Cout: the GCN's output width, C (node and graph tasks) or hid (link
 * task, whose decoder W3 (2 hid x hid), W4 (hid x C) follows). */
static void
glorot(real *W, int64_t in, int64_t out, gsl_rng *r)
{
	double b = sqrt(6.0 / (double)(in + out));
	for (int64_t i = 0; i < in * out; i++)
		W[i] = (real)((2 * gsl_rng_uniform(r) - 1) * b);
}

/* The shapes of the HEAD_NT tensors in layout order (head_tensors()); a
 * tensor the head does not have is 0 x 0. */
static void
tensor_shapes(int64_t sh[HEAD_NT][2], const struct head *h)
{
	int64_t k = h->link ? 1 : 0, s = h->self ? 1 : 0;
	const int64_t t[HEAD_NT][2] = { { 1, h->d },
					{ 1, h->L },
					{ h->din, h->hid },
					{ 1, h->hid },
					{ h->hid, h->Cout },
					{ 1, h->Cout },
					{ 2 * h->hid * k, h->hid },
					{ k, h->hid },
					{ h->hid * k, h->C },
					{ k, h->C },
					{ h->din * s, h->hid },
					{ h->hid * s, h->Cout } };
	memcpy(sh, t, sizeof t);
}

void
head_shape(struct head *h, int64_t d, int64_t din, int L, int64_t hid, int64_t Cout, int64_t C,
	   int flags)
{
	int64_t sh[HEAD_NT][2];
	memset(h, 0, sizeof *h);
	h->d = d;
	h->din = din;
	h->hid = hid;
	h->Cout = Cout;
	h->C = C;
	h->L = L;
	h->link = (flags & HEAD_LINK) != 0;
	h->self = (flags & HEAD_SELF) != 0;
	tensor_shapes(sh, h);
	for (int i = 0; i < HEAD_NT; i++)
		h->n += sh[i][0] * sh[i][1];
}

void
head_init(struct head *h, int64_t d, int64_t din, int L, int64_t hid, int64_t Cout, int64_t C,
	  int flags, gsl_rng *r)
{
	int64_t sh[HEAD_NT][2];
	int64_t off = 0;
	real **pp[HEAD_NT] = { &h->alpha, &h->psi, &h->W1, &h->b1, &h->W2, &h->b2,
			       &h->W3,	  &h->b3,  &h->W4, &h->b4, &h->S1, &h->S2 };
	real **gg[HEAD_NT] = { &h->galpha, &h->gpsi, &h->gW1, &h->gb1, &h->gW2, &h->gb2,
			       &h->gW3,	   &h->gb3,  &h->gW4, &h->gb4, &h->gS1, &h->gS2 };
	head_shape(h, d, din, L, hid, Cout, C, flags);
	tensor_shapes(sh, h);
	h->p = xcalloc((size_t)h->n, sizeof *h->p);
	h->g = xcalloc((size_t)h->n, sizeof *h->g);
	h->m = xcalloc((size_t)h->n, sizeof *h->m);
	h->v = xcalloc((size_t)h->n, sizeof *h->v);
	for (int i = 0; i < HEAD_NT; i++) {
		*pp[i] = h->p + off;
		*gg[i] = h->g + off;
		off += sh[i][0] * sh[i][1];
	}
	for (int64_t i = 0; i < d; i++)
		h->alpha[i] = 1;
	if (!r) /* the caller loads saved values */
		return;
	/* Glorot uniform as in Kipf's GCN; biases 0 */
	glorot(h->W1, din, hid, r);
	glorot(h->W2, hid, Cout, r);
	if (h->link) {
		glorot(h->W3, 2 * hid, hid, r);
		glorot(h->W4, hid, C, r);
	}
	if (h->self) {
		glorot(h->S1, din, hid, r);
		glorot(h->S2, hid, Cout, r);
	}
}

int
head_tensors(const struct head *h, struct head_tensor *t)
{
	static const char *const name[HEAD_NT] = {
		"head.mix.alpha", "head.mix.psi", "head.gcn1.W",  "head.gcn1.b",
		"head.gcn2.W",	  "head.gcn2.b",  "head.link1.W", "head.link1.b",
		"head.link2.W",	  "head.link2.b", "head.gcn1.S",  "head.gcn2.S"
	};
	int64_t sh[HEAD_NT][2], off = 0;
	int n = 0;

	tensor_shapes(sh, h);
	for (int i = 0; i < HEAD_NT; i++) { /* the head's own: those not 0 x 0 */
		if (sh[i][0] * sh[i][1] == 0)
			continue;
		t[n].name = name[i];
		t[n].rows = sh[i][0];
		t[n].cols = sh[i][1];
		t[n].off = off;
		off += sh[i][0] * sh[i][1];
		n++;
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

void
head_hbuf_init(struct hbuf *hb, const struct head *h, int64_t N, int use_enc, const real *A,
	       int64_t na)
{
	int64_t d = h->d, hid = h->hid, Cout = h->Cout;
	memset(hb, 0, sizeof *hb);
	hb->use_enc = use_enc;
	hb->A = A;
	hb->na = A ? na : 0;
	hb->din = (use_enc ? d : 0) + hb->na;
	if (hb->din != h->din)
		die("internal error: head_hbuf_init() for a head of another input width");
	hb->es = 1;
	hb->cfrom = -1;
	hb->N = N;
	hb->d = d;
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
head_hbuf_free(struct hbuf *hb)
{
	free(hb->Fm);
	free(hb->F);
	free(hb->Fd);
	free(hb->dF);
	free(hb->m1);
	free(hb->Y1);
	free(hb->Z1);
	free(hb->Z1d);
	free(hb->t1);
	free(hb->m2);
	free(hb->t2);
	free(hb->lg);
	free(hb->dlg);
	free(hb->H0);
}

/*
 * v where keep is 1 and +0 where it is 0 (what keep ? v : 0 gives), by a
 * mask of the bits rather than a branch: the loops below select on coin
 * flips (dropout) and signs (relu), which a branch mispredicts half the
 * time, and a loop without one vectorises (omp simd).
 */
static inline real
kept(real v, unsigned keep)
{
#ifdef NN_DOUBLE
	uint64_t u, m = (uint64_t)0 - (uint64_t)(keep & 1);
#else
	uint32_t u, m = (uint32_t)0 - (uint32_t)(keep & 1);
#endif
	memcpy(&u, &v, sizeof u);
	u &= m;
	memcpy(&v, &u, sizeof v);
	return v;
}

/*
 * Training dropout: y = x / (1 - p) where mask is 1, 0 elsewhere.  Element
 * i is kept when the i-th uniform of r is >= p, that is when the i-th raw
 * value k of r (gsl_rng_uniform() is k / 2^32) is >= ceil(p 2^32): the
 * draws and masks of a gsl_rng_uniform() call per element, taken in
 * blocks (rng_get_block).
 */
#define DROP_BLOCK 2048
static void
dropout(real *restrict y, uint8_t *restrict mask, const real *restrict x, int64_t n, double p,
	gsl_rng *r)
{
	real s = (real)(1 / (1 - p));
	double t = ceil(p * 4294967296.0);
	/* p so close to 1 that no 32-bit value reaches it: all dropped */
	uint32_t thr = t > 4294967295.0 ? UINT32_MAX : (uint32_t)t, none = t > 4294967295.0;
	uint32_t k[DROP_BLOCK];
	for (int64_t i0 = 0; i0 < n; i0 += DROP_BLOCK) {
		int64_t m = n - i0 < DROP_BLOCK ? n - i0 : DROP_BLOCK;
		rng_get_block(r, k, (size_t)m);
#pragma omp simd
		for (int64_t i = 0; i < m; i++) {
			uint8_t keep = (uint8_t)((k[i] >= thr) & !none);
			mask[i0 + i] = keep;
			y[i0 + i] = kept(x[i0 + i] * s, keep);
		}
	}
}

/* Rows of the link decoder's node arrays are read and written in the
 * random order of the edges, and most miss the cache: ask for the row of
 * an edge PF_AHEAD edges on while this one is computed. */
#define PF_AHEAD 8
static inline void
prefetch_row(const real *X, int64_t r, int64_t n, int write)
{
#ifdef __GNUC__
	const char *p = (const char *)(X + r * n);
	for (int64_t b = 0; b < n * (int64_t)sizeof(real); b += 64) {
		if (write)
			__builtin_prefetch(p + b, 1);
		else
			__builtin_prefetch(p + b, 0);
	}
#else
	(void)X, (void)r, (void)n, (void)write;
#endif
}

/* y += x over n values (y, x apart): one vectorised loop per row of the
 * link decoder's per-endpoint sums */
static inline void
add_row(real *restrict y, const real *restrict x, int64_t n)
{
#pragma omp simd
	for (int64_t j = 0; j < n; j++)
		y[j] += x[j];
}

/* Y += X S (N x o) through T (N x o) as scratch: a layer's own-rows term
 * (HEAD_SELF). */
static void
add_product(real *Y, real *T, const real *X, const real *S, int64_t N, int64_t i, int64_t o)
{
	nn_lin_fwd(T, X, S, NULL, N, i, o);
	for (int64_t r = 0; r < N; r++)
		add_row(Y + r * o, T + r * o, o);
}

void
head_freeze(model *M, const batch *b, mws *w, struct hbuf *hb, int from, int embed)
{
	int64_t nd = b->N * M->cfg.d;
	int L = M->cfg.layers;

	if (b->N != hb->N || M->cfg.d != hb->d || from < 0 || from > L)
		die("internal error: head_freeze() on another batch or model");
	hb->cfrom = -1;
	if (embed || !hb->use_enc)
		return;
	if (from == 0) {
		if (!hb->H0)
			hb->H0 = xmallocarray((size_t)nd + 1, sizeof(real));
		model_embed(M, b, hb->H0);
		hb->Hc[0] = hb->H0;
	} else {
		real *Hs[MODEL_MAXL];
		model_encode_fixed(M, b, w, from, Hs);
		for (int l = 1; l <= from; l++)
			hb->Hc[l] = Hs[l - 1];
	}
	hb->cfrom = from;
}

void
head_encode(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb)
{
	int k = hb->cfrom;
	if (k < 0) {
		model_encode(M, b, w, hb->Hs);
	} else {
		for (int l = 0; l < k; l++)
			hb->Hs[l] = hb->Hc[l + 1];
		model_encode_from(M, b, w, k, hb->Hc[k], hb->Hs);
	}
	nn_mix_fwd(hb->Fm, hb->Hs, h->alpha, h->psi, NULL, M->cfg.layers, b->N, M->cfg.d);
}

/*
 * Forward through encoder and head: the GCN's output (N x Cout) in
 * hb->lg.  With a generator, dropout is on (training); NULL gives the
 * evaluation pass.  The encoder and the mix run when encode is set;
 * otherwise hb->Fm holds their output from an earlier pass with the same
 * parameters (the encoder has no dropout, so one encoder pass serves both
 * head passes).
 */
void
head_forward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb, double p,
	     gsl_rng *r, int encode)
{
	int64_t N = b->N, d = M->cfg.d, hid = h->hid, Cout = h->Cout;
	int64_t din = hb->din, dd = hb->use_enc ? d : 0;
	if (hb->use_enc && encode)
		head_encode(M, h, b, w, hb);
	/* the input: the mix's output itself when nothing is appended or
	 * scaled; evaluation (no dropout) reads it in place */
	const real *F = hb->Fm;
	if (!dd || hb->es != 1 || hb->A) {
		for (int64_t i = 0; i < N; i++) {
			if (dd && hb->es == 1)
				memcpy(hb->F + i * din, hb->Fm + i * d, (size_t)d * sizeof(real));
			else if (dd)
				for (int64_t c = 0; c < d; c++)
					hb->F[i * din + c] = hb->es * hb->Fm[i * d + c];
			if (hb->A)
				memcpy(hb->F + i * din + dd, hb->A + i * hb->na,
				       (size_t)hb->na * sizeof(real));
		}
		F = hb->F;
	}
	if (r)
		dropout(hb->Fd, hb->m1, F, N * din, p, r);
	const real *X1 = r ? hb->Fd : F;
	nn_lin_fwd(hb->t1, X1, h->W1, NULL, N, din, hid);
	nn_csr_spmm(hb->Y1, b->rp, b->ci, b->av, hb->t1, N, hid, 0);
	if (h->self) /* the nodes' own rows: Y1 += X1 S1 */
		add_product(hb->Y1, hb->t1, X1, h->S1, N, din, hid);
	for (int64_t i = 0; i < N; i++) {
		const real *restrict y1 = hb->Y1 + i * hid, *restrict b1 = h->b1;
		real *restrict z1 = hb->Z1 + i * hid;
#pragma omp simd
		for (int64_t j = 0; j < hid; j++) {
			real x = y1[j] + b1[j];
			z1[j] = kept(x, x > 0);
		}
	}
	if (r)
		dropout(hb->Z1d, hb->m2, hb->Z1, N * hid, p, r);
	const real *X2 = r ? hb->Z1d : hb->Z1;
	nn_lin_fwd(hb->t2, X2, h->W2, NULL, N, hid, Cout);
	nn_csr_spmm(hb->lg, b->rp, b->ci, b->av, hb->t2, N, Cout, 0);
	if (h->self)
		add_product(hb->lg, hb->t2, X2, h->S2, N, hid, Cout);
	for (int64_t i = 0; i < N; i++)
		add_row(hb->lg + i * Cout, h->b2, Cout);
}

void
head_gcn_backward(model *M, struct head *h, const batch *b, struct hbuf *hb, double p)
{
	int64_t N = b->N, d = M->cfg.d, hid = h->hid, Cout = h->Cout;
	real s = (real)(1 / (1 - p));
	/* logits = Â t2 + b2, t2 = Z1d W2 */
	for (int64_t i = 0; i < N; i++)
		add_row(h->gb2, hb->dlg + i * Cout, Cout);
	/* the own rows' part first, while Z1d still holds the layer's input:
	 * gS2 += Z1d^T dlg, and its share of d(Z1d) into t1 (free here) */
	if (h->self)
		nn_lin_bwd(hb->t1, h->gS2, NULL, hb->dlg, hb->Z1d, h->S2, N, hid, Cout, 0);
	nn_csr_spmm(hb->t2, b->rp, b->ci, b->av, hb->dlg, N, Cout, 0);
	nn_lin_bwd(hb->Z1d, h->gW2, NULL, hb->t2, hb->Z1d, h->W2, N, hid, Cout, 0);
	if (h->self)
		for (int64_t i = 0; i < N; i++)
			add_row(hb->Z1d + i * hid, hb->t1 + i * hid, hid);
	/* hb->Z1d now holds d(Z1d); through dropout and relu into dY1 */
	{
		real *restrict y1 = hb->Y1;
		const real *restrict z1 = hb->Z1, *restrict dz = hb->Z1d;
		const uint8_t *restrict m2 = hb->m2;
#pragma omp simd
		for (int64_t i = 0; i < N * hid; i++)
			y1[i] = kept(dz[i] * s, m2[i] & (z1[i] > 0));
	}
	for (int64_t i = 0; i < N; i++)
		add_row(h->gb1, hb->Y1 + i * hid, hid);
	nn_csr_spmm(hb->t1, b->rp, b->ci, b->av, hb->Y1, N, hid, 0);
	int64_t din = hb->din;
	if (!hb->use_enc) { /* attributes only: nothing below W1 */
		nn_lin_bwd(NULL, h->gW1, NULL, hb->t1, hb->Fd, h->W1, N, din, hid, 0);
		if (h->self)
			nn_lin_bwd(NULL, h->gS1, NULL, hb->Y1, hb->Fd, h->S1, N, din, hid, 0);
		return;
	}
	nn_lin_bwd(hb->dF, h->gW1, NULL, hb->t1, hb->Fd, h->W1, N, din, hid, 0);
	if (h->self) /* Y1 holds d(Y1): gS1 += Fd^T dY1, dF += dY1 S1^T */
		nn_lin_bwd(hb->dF, h->gS1, NULL, hb->Y1, hb->Fd, h->S1, N, din, hid, 1);
	/* the encoder's columns, through dropout, into Fm */
	real es = hb->es;
	for (int64_t i = 0; i < N; i++) {
		real *restrict fm = hb->Fm + i * d;
		const real *restrict df = hb->dF + i * din;
		const uint8_t *restrict m1 = hb->m1 + i * din;
#pragma omp simd
		for (int64_t c = 0; c < d; c++)
			fm[c] = kept(df[c] * s * es, m1[c]);
	}
}

void
head_encode_backward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb, int from,
		     int embed)
{
	int64_t N = b->N, d = M->cfg.d;
	int L = M->cfg.layers;
	if (!hb->use_enc)
		return;
	/* the mix and the encoder (its H_l are still in w) */
	nn_mix_bwd_params(h->galpha, h->gpsi, hb->Fm, hb->Hs, h->alpha, h->psi, NULL, L, N, d);
	struct mix_src src = { h->alpha, h->psi, hb->Fm, NULL, N, 1 };
	model_encode_bwd(M, b, w, &src, 1, from, embed);
}

void
head_backward(model *M, struct head *h, const batch *b, mws *w, struct hbuf *hb, double p, int from,
	      int embed)
{
	head_gcn_backward(M, h, b, hb, p);
	head_encode_backward(M, h, b, w, hb, from, embed);
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

/* head_softmax_stats(), and each exp(z_j - max) into e unless e is NULL
 * (head_xent's gradient takes them from there: one exp per class, not
 * two, and the same values). */
static double
softmax_stats(const real *z, int64_t C, double *e, double *s, int *best)
{
	double mx = z[0];
	*best = 0;
	for (int64_t j = 1; j < C; j++)
		if (z[j] > mx) {
			mx = z[j];
			*best = (int)j;
		}
	*s = 0;
	for (int64_t j = 0; j < C; j++) {
		double x = exp(z[j] - mx);
		if (e)
			e[j] = x;
		*s += x;
	}
	return mx;
}

double
head_softmax_stats(const real *z, int64_t C, double *s, int *best)
{
	return softmax_stats(z, C, NULL, s, best);
}

#define XENT_KEEP 64 /* classes whose exps head_xent keeps */

double
head_xent(const real *ilg, real *dil, const int32_t *y, const int32_t *idx, int k, int64_t C,
	  int64_t nitems, double *acc, int backward)
{
	double loss = 0, e[XENT_KEEP];
	int ok = 0, keep = backward && C <= XENT_KEEP;
	if (backward)
		memset(dil, 0, (size_t)(nitems * C) * sizeof *dil);
	for (int i = 0; i < k; i++) {
		int64_t it = idx ? idx[i] : i;
		const real *z = ilg + it * C;
		double s;
		int best;
		double mx = softmax_stats(z, C, keep ? e : NULL, &s, &best);
		loss += mx + log(s) - z[y[it]];
		ok += best == y[it];
		if (backward)
			for (int64_t j = 0; j < C; j++)
				dil[it * C + j] =
				    (real)(((keep ? e[j] : exp(z[j] - mx)) / s - (j == y[it])) / k);
	}
	*acc = (double)ok / k;
	return loss / k;
}

/* ---- the link decoder ---- */

void
head_lbuf_init(struct lbuf *lb, int64_t N, int64_t hid, int64_t C)
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
	lb->N = N;
}

void
head_lbuf_free(struct lbuf *lb)
{
	free(lb->P);
	free(lb->Q);
	free(lb->SU);
	free(lb->SV);
	free(lb->Y3);
	free(lb->Z3);
	free(lb->Z3d);
	free(lb->lo);
	free(lb->dlo);
	free(lb->m3);
	free(lb->y);
}

/* Edge i of the set e: idx[i], or i without an index array. */
static inline int64_t
edge_at(const struct edges *e, int64_t i)
{
	return e->idx ? e->idx[i] : i;
}

/*
 * The first layer splits: [h_u ; h_v] W3 = h_u W3u + h_v W3v, W3u and W3v
 * the top and bottom halves of W3.  So P = H W3u and Q = H W3v are taken
 * once per node, and an edge adds two rows; backward, the edges' gradients
 * are summed per endpoint into SU and SV, and gW3u += H^T SU, dH = SU W3u^T
 * + SV W3v^T (and the same for v).  Exactly the concatenated layer's
 * function and gradient, at N instead of k rows of GEMM (ML-1M: 9,746
 * nodes against 720,000 training edges).
 */
static void
link_node_products(struct head *h, struct lbuf *lb, const real *H)
{
	int64_t hid = h->hid;
	nn_lin_fwd(lb->P, H, h->W3, NULL, lb->N, hid, hid);
	nn_lin_fwd(lb->Q, H, h->W3 + hid * hid, NULL, lb->N, hid, hid);
}

/* The decoder's output layer on the chunk of kc edges of e from its
 * c0-th, from P and Q (lb): Z3 = relu(P[u] + Q[v] + b3), dropped out into
 * Z3d when training (r), the logits lo = Z3(d) W4 + b4 and, for the loss
 * (with classes), the classes into lb->y. */
static void
link_chunk_fwd(struct head *h, struct lbuf *lb, const struct edges *ed, int64_t c0, int64_t kc,
	       double p, gsl_rng *r)
{
	const int32_t *eu = ed->u, *ev = ed->v;
	int64_t hid = h->hid;
	const real *restrict b3 = h->b3;
	for (int64_t i = 0; i < kc; i++) {
		int64_t e = edge_at(ed, c0 + i);
		if (i + PF_AHEAD < kc) {
			int64_t f = edge_at(ed, c0 + i + PF_AHEAD);
			prefetch_row(lb->P, eu[f], hid, 0);
			prefetch_row(lb->Q, ev[f], hid, 0);
		}
		const real *restrict pu = lb->P + (int64_t)eu[e] * hid;
		const real *restrict qv = lb->Q + (int64_t)ev[e] * hid;
		real *restrict z3 = lb->Z3 + i * hid;
#pragma omp simd
		for (int64_t j = 0; j < hid; j++) {
			real x = pu[j] + qv[j] + b3[j];
			z3[j] = kept(x, x > 0);
		}
		if (r)
			lb->y[i] = ed->y[e];
	}
	if (r)
		dropout(lb->Z3d, lb->m3, lb->Z3, kc * hid, p, r);
	nn_lin_fwd(lb->lo, r ? lb->Z3d : lb->Z3, h->W4, h->b4, kc, hid, h->C);
}

/* The backward pass of the chunk link_chunk_fwd() computed: the decoder's
 * output layer, then through dropout and relu, summed per endpoint into
 * SU and SV; dlo holds the chunk's share of the loss gradient. */
static void
link_chunk_bwd(struct head *h, struct lbuf *lb, const struct edges *ed, int64_t c0, int64_t kc,
	       double p)
{
	const int32_t *eu = ed->u, *ev = ed->v;
	int64_t hid = h->hid;
	real s = (real)(1 / (1 - p));
	nn_lin_bwd(lb->Y3, h->gW4, h->gb4, lb->dlo, lb->Z3d, h->W4, kc, hid, h->C, 0);
	for (int64_t i = 0; i < kc; i++) {
		int64_t e = edge_at(ed, c0 + i);
		if (i + PF_AHEAD < kc) {
			int64_t f = edge_at(ed, c0 + i + PF_AHEAD);
			prefetch_row(lb->SU, eu[f], hid, 1);
			prefetch_row(lb->SV, ev[f], hid, 1);
		}
		real *restrict g3 = lb->Y3 + i * hid;
		const real *restrict z3 = lb->Z3 + i * hid;
		const uint8_t *restrict m3 = lb->m3 + i * hid;
#pragma omp simd
		for (int64_t j = 0; j < hid; j++)
			g3[j] = kept(g3[j] * s, m3[j] & (z3[j] > 0));
		add_row(lb->SU + (int64_t)eu[e] * hid, g3, hid);
		add_row(lb->SV + (int64_t)ev[e] * hid, g3, hid);
		add_row(h->gb3, g3, hid);
	}
}

void
head_link_logits(struct head *h, struct lbuf *lb, const struct edges *e, real *out)
{
	int64_t k = e->k, C = h->C;
	for (int64_t c0 = 0; c0 < k; c0 += LCHUNK) {
		int64_t kc = k - c0 < LCHUNK ? k - c0 : LCHUNK;
		link_chunk_fwd(h, lb, e, c0, kc, 0, NULL);
		for (int64_t i = 0; i < kc; i++) {
			memcpy(out + edge_at(e, c0 + i) * C, lb->lo + i * C,
			       (size_t)C * sizeof *out);
		}
	}
}

void
head_link_eval(struct head *h, struct lbuf *lb, const struct edges *e, const real *H, real *out)
{
	link_node_products(h, lb, H);
	head_link_logits(h, lb, e, out);
}

double
head_link_train(struct head *h, struct lbuf *lb, const struct edges *e, const real *H, real *dH,
		double p, gsl_rng *r)
{
	double loss = 0, acc;
	int64_t N = lb->N, hid = h->hid, C = h->C, k = e->k;
	link_node_products(h, lb, H);
	memset(lb->SU, 0, (size_t)(N * hid) * sizeof *lb->SU);
	memset(lb->SV, 0, (size_t)(N * hid) * sizeof *lb->SV);
	for (int64_t c0 = 0; c0 < k; c0 += LCHUNK) {
		int64_t kc = k - c0 < LCHUNK ? k - c0 : LCHUNK;
		link_chunk_fwd(h, lb, e, c0, kc, p, r);
		/* the chunk's share of the mean loss and its gradient */
		loss +=
		    head_xent(lb->lo, lb->dlo, lb->y, NULL, (int)kc, C, kc, &acc, 1) * (double)kc;
		for (int64_t i = 0; i < kc * C; i++)
			lb->dlo[i] *= (real)((double)kc / (double)k);
		link_chunk_bwd(h, lb, e, c0, kc, p);
	}
	nn_lin_bwd(dH, h->gW3, NULL, lb->SU, H, h->W3, N, hid, hid, 0);
	nn_lin_bwd(dH, h->gW3 + hid * hid, NULL, lb->SV, H, h->W3 + hid * hid, N, hid, hid, 1);
	return loss / (double)k;
}
