/*
 * objhead.c - the heads of the objectives besides the paper's tasks over
 * a batch: forward, loss, backward (see objhead.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "objhead.h"

/* Scratch carved out of the arena, in the order the sizes were counted
 * (ohead_arena() counts them with the same calls, base NULL). */
struct carver {
	real *base;
	int64_t at;
};

static real *
carve(struct carver *c, int64_t n)
{
	real *p = c->base ? c->base + c->at : NULL;
	c->at += (n + 15) & ~(int64_t)15;
	return p;
}

/* int32 scratch in real-sized slots */
static int32_t *
carve_i(struct carver *c, int64_t n)
{
	return (int32_t *)carve(c, (n * (int64_t)sizeof(int32_t) + (int64_t)sizeof(real) - 1) /
				       (int64_t)sizeof(real));
}

static int
pooled(const struct objective *ob)
{
	return ob->kind == OBJ_GRAPH || (ob->kind == OBJ_CONTRAST && ob->level == OBJ_LEVEL_GRAPH);
}

/* The width of the head's input and output. */
static int64_t
head_in(const struct objective *ob, int64_t d)
{
	return pooled(ob) ? 2 * d : d;
}

static int64_t
head_out(const struct objective *ob, int64_t F)
{
	return ob->kind == OBJ_MASK ? F : ob->width;
}

const int32_t *
ohead_rows(const struct objective *ob, const batch *b, int i, int64_t *R)
{
	const struct bobj *q = &b->ob[i];

	if (ob->kind == OBJ_NODE && ob->loss == OBJ_RANK) {
		*R = b->U;
		return b->uidx;
	}
	if (ob->kind == OBJ_CONTRAST && ob->level == OBJ_LEVEL_GRAPH) {
		*R = b->N;
		return NULL;
	}
	if (ob->kind == OBJ_GRAPH || (ob->kind == OBJ_NODE && ob->loss == OBJ_MSE)) {
		*R = b->N1;
		return NULL;
	}
	*R = q->R;
	return q->idx;
}

int
ohead_tensors(const struct objective *ob, int64_t d, int L, int64_t F, struct oview *v,
	      struct otensor *t)
{
	int64_t in = head_in(ob, d), h = ob->hidden, out = head_out(ob, F), n = 0;
	int rank = ob->kind == OBJ_NODE && ob->loss == OBJ_RANK;
#define T(nm, fmt, r, c, p) \
	do { \
		snprintf(t[n].name, sizeof t[n].name, fmt, nm); \
		t[n].rows = (r); \
		t[n].cols = (c); \
		t[n++].at = (p); \
	} while (0)
	T(ob->name, "mix.%s.alpha", 1, d, &v->alpha);
	T(ob->name, "mix.%s.psi", 1, L, &v->psi);
	T(ob->name, "%s.W1", in, rank ? out * h : h, &v->W1);
	T(ob->name, "%s.b1", 1, rank ? out * h : h, &v->b1);
	T(ob->name, rank ? "%s.w2" : "%s.W2", rank ? out : h, rank ? h : out, &v->W2);
	T(ob->name, "%s.b2", 1, out, &v->b2);
	if (ob->kind == OBJ_MASK)
		T(ob->name, "%s.token", 1, F, &v->tok);
#undef T
	return (int)n;
}

/* Y (R x out) = relu(X W1 + b1) W2 + b2, Z (R x h) kept. */
static void
mlp_fwd(real *Y, real *Z, const real *X, const struct oview *P, int64_t R, int64_t in, int64_t h,
	int64_t out)
{
	nn_lin_fwd(Z, X, P->W1, P->b1, R, in, h);
	nn_relu_fwd(Z, Z, R * h);
	nn_lin_fwd(Y, Z, P->W2, P->b2, R, h, out);
}

/* dX written; G's W1, b1, W2, b2 added; dZ (R x h) scratch. */
static void
mlp_bwd(real *dX, const struct oview *G, const real *dY, real *Z, const real *X,
	const struct oview *P, int64_t R, int64_t in, int64_t h, int64_t out, real *dZ)
{
	nn_lin_bwd(dZ, G->W2, G->b2, dY, Z, P->W2, R, h, out, 0);
	nn_relu_bwd(dZ, dZ, Z, R * h);
	nn_lin_bwd(dX, G->W1, G->b1, dZ, X, P->W1, R, in, h, 0);
}

static void
scale(real *x, int64_t n, double w)
{
	if (w != 1)
		for (int64_t i = 0; i < n; i++)
			x[i] = (real)(x[i] * w);
}

/* What a pass carves, in order; with c->base NULL it only counts.  F:
 * the mixed rows; A: the head's input (F, or the pooled segments); Z, dZ:
 * the hidden layer and its gradient; Y, dY: the output and its gradient
 * (a rank head: the pairs' differences); S: a rank head's scores and
 * their gradient, or a contrast's similarities; U: unit rows. */
struct obuf {
	real *F, *A, *Z, *dZ, *Y, *dY, *dA, *U, *S;
	int32_t *arg, *pos, *cnum;
	int64_t *seg;
};

static void
carve_all(struct carver *c, struct obuf *o, const struct objective *ob, const batch *b, int i,
	  int64_t d, int64_t F)
{
	int64_t R, in = head_in(ob, d), h = ob->hidden, out = head_out(ob, F), maxseg = 0;
	int64_t nseg = pooled(ob) ? (ob->kind == OBJ_GRAPH ? b->G1 : b->G) : 0;

	memset(o, 0, sizeof *o);
	ohead_rows(ob, b, i, &R);
	o->F = carve(c, R * d);
	if (ob->kind == OBJ_NODE && ob->loss == OBJ_RANK) {
		o->A = o->F;
		o->Z = carve(c, R * out * h);
		o->S = carve(c, R * out);
		o->Y = carve(c, b->P * out);
		o->dY = carve(c, b->P * out);
		return;
	}
	int64_t items = pooled(ob) ? nseg : R;
	o->A = pooled(ob) ? carve(c, nseg * in) : o->F;
	o->dA = pooled(ob) ? carve(c, nseg * in) : NULL;
	o->Z = carve(c, items * h);
	o->dZ = carve(c, items * h);
	o->Y = carve(c, items * out);
	o->dY = carve(c, items * out);
	if (ob->kind == OBJ_CONTRAST) {
		if (ob->level == OBJ_LEVEL_GRAPH)
			maxseg = b->G;
		for (int64_t s = 0; ob->level == OBJ_LEVEL_NODE && s < b->ob[i].nseg; s++)
			if (b->ob[i].seg[s + 1] - b->ob[i].seg[s] > maxseg)
				maxseg = b->ob[i].seg[s + 1] - b->ob[i].seg[s];
		o->U = carve(c, items * out);
		o->S = carve(c, maxseg * maxseg);
	}
	if (pooled(ob)) {
		o->arg = carve_i(c, nseg * d);
		o->pos = carve_i(c, nseg);
		/* nseg + 1 offsets of the pooling, then the InfoNCE's one segment */
		o->seg =
		    (int64_t *)carve(c, (nseg + 3) * (int64_t)(sizeof(int64_t) / sizeof(real) + 1));
	}
	if (ob->kind == OBJ_NODE && ob->loss == OBJ_XENT)
		o->cnum = carve_i(c, R);
}

int64_t
ohead_arena(const struct objective *ob, const batch *b, int i, int64_t d, int64_t F)
{
	struct carver c = { NULL, 0 };
	struct obuf o;
	carve_all(&c, &o, ob, b, i, d, F);
	return c.at;
}

/* RankNet over the pair nodes' scores S (U x C): the pairs' differences
 * into z (P x C), the loss against y, dS (U x C) from dz. */
static double
rank_pairs(real *dS, real *z, real *dz, const real *S, const batch *b, const real *y, int C,
	   int backward, double w, double stat[4])
{
	int64_t P = b->P;
	for (int64_t j = 0; j < P; j++)
		for (int c = 0; c < C; c++)
			z[j * C + c] = S[(int64_t)b->ru[j] * C + c] - S[(int64_t)b->rv[j] * C + c];
	double loss = nn_bce_logits(dz, z, y, NULL, P * C);
	for (int64_t j = 0; j < P * C; j++)
		if (y[j] != (real)0.5) {
			stat[0] += z[j] == 0 ? 0.5 : (z[j] > 0) == (y[j] > 0.5);
			stat[1]++;
		}
	if (!backward)
		return loss;
	scale(dz, P * C, w);
	memset(dS, 0, (size_t)(b->U * C) * sizeof *dS);
	for (int64_t j = 0; j < P; j++)
		for (int c = 0; c < C; c++) {
			dS[(int64_t)b->ru[j] * C + c] += dz[j * C + c];
			dS[(int64_t)b->rv[j] * C + c] -= dz[j * C + c];
		}
	return loss;
}

double
ohead_step(const struct objective *ob, const struct oview *P, const struct oview *G, const batch *b,
	   int i, real *const *H, int L, int64_t d, real *arena, real *dF, int backward,
	   double stat[4])
{
	const struct bobj *q = &b->ob[i];
	int64_t R, F = b->F, in = head_in(ob, d), h = ob->hidden, out = head_out(ob, F);
	const int32_t *idx = ohead_rows(ob, b, i, &R);
	struct carver c = { arena, 0 };
	struct obuf o;
	double loss = 0;
	int64_t nseg = 0, items, ok = 0;

	carve_all(&c, &o, ob, b, i, d, F);
	memset(stat, 0, 4 * sizeof *stat);
	if (R == 0)
		return 0;
	items = R;
	nn_mix_fwd(o.F, H, P->alpha, P->psi, idx, L, R, d);
	if (pooled(ob)) {
		nseg = ob->kind == OBJ_GRAPH ? b->G1 : b->G;
		items = nseg;
		for (int64_t s = 0; s <= nseg; s++)
			o.seg[s] = b->off[s];
		nn_pool_fwd(o.A, o.arg, o.F, o.seg, nseg, d);
	}
	if (ob->kind == OBJ_NODE && ob->loss == OBJ_RANK) {
		/* S's gradient goes into S: rank_pairs() reads every score
		 * before its first write */
		nn_rank_fwd(o.S, o.Z, o.F, P->W1, P->b1, P->W2, P->b2, R, d, (int)out, h);
		loss =
		    rank_pairs(o.S, o.Y, o.dY, o.S, b, q->y, (int)out, backward, ob->weight, stat);
		if (backward)
			nn_rank_bwd(dF, G->W1, G->b1, G->W2, G->b2, o.S, o.Z, o.F, P->W1, P->W2, R,
				    d, (int)out, h, o.Z);
		goto mix;
	}
	mlp_fwd(o.Y, o.Z, o.A, P, items, in, h, out);
	switch (ob->kind) {
	case OBJ_NODE:
	case OBJ_GRAPH:
		if (ob->loss == OBJ_XENT) {
			for (int64_t r = 0; r < R; r++)
				o.cnum[r] = (int32_t)out;
			loss = nn_softmax_xent(o.dY, &ok, o.Y, o.cnum, q->cls, R, (int)out);
			stat[0] = (double)ok;
			stat[1] = (double)R;
			break;
		}
		loss = nn_mse_loss(o.dY, &stat[0], o.Y, q->y, items * out);
		stat[1] = (double)(items * out);
		for (int64_t j = 0; j < items * out; j++) {
			stat[2] += q->y[j];
			stat[3] += (double)q->y[j] * q->y[j];
		}
		break;
	case OBJ_CONTRAST: {
		const int32_t *pos = q->pos;
		const int64_t *seg = q->seg;
		int64_t ns = q->nseg;
		if (pooled(ob)) { /* one segment: the batch's graphs, g's positive g +- G1 */
			for (int64_t g = 0; g < nseg; g++)
				o.pos[g] = (int32_t)(g < b->G1 ? g + b->G1 : g - b->G1);
			o.seg[nseg + 1] = 0;
			o.seg[nseg + 2] = nseg;
			pos = o.pos;
			seg = o.seg + nseg + 1;
			ns = 1;
		}
		nn_l2norm_fwd(o.U, o.Y, items, out);
		loss = nn_nce_loss(o.dY, &ok, o.U, pos, seg, ns, out, ob->tau, o.S);
		stat[0] = (double)ok;
		stat[1] = (double)items;
		if (backward)
			nn_l2norm_bwd(o.dY, o.dY, o.U, o.Y, items, out);
		break;
	}
	case OBJ_MASK:
		if (ob->loss == OBJ_SCE) {
			int64_t n = 0;
			loss = nn_sce_loss(o.dY, &stat[0], &n, o.Y, q->y, R, out, ob->gamma);
			stat[1] = (double)n;
			break;
		}
		loss = nn_mse_loss(o.dY, &stat[0], o.Y, q->y, R * out);
		stat[1] = (double)(R * out);
		for (int64_t j = 0; j < R * out; j++) {
			stat[2] += q->y[j];
			stat[3] += (double)q->y[j] * q->y[j];
		}
		break;
	}
	if (!backward)
		return loss;
	scale(o.dY, items * out, ob->weight);
	mlp_bwd(pooled(ob) ? o.dA : dF, G, o.dY, o.Z, o.A, P, items, in, h, out, o.dZ);
	if (pooled(ob))
		nn_pool_bwd(dF, o.dA, o.arg, o.seg, nseg, d);
mix:
	if (backward)
		nn_mix_bwd_params(G->alpha, G->psi, dF, H, P->alpha, P->psi, idx, L, R, d);
	return loss;
}

double
ohead_score(const struct objective *ob, const double stat[4])
{
	int r2 = ob->loss == OBJ_MSE;
	if (stat[1] <= 0)
		return 0;
	if (r2) { /* 1 - SSE / the targets' own sum of squares about their mean */
		double sst = stat[3] - stat[2] * stat[2] / stat[1];
		double s = sst > 0 ? 1 - stat[0] / sst : 0;
		return s > 0 ? s : 0;
	}
	double s = stat[0] / stat[1];
	return s > 0 ? s : 0;
}
