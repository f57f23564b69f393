/*
 * test_nn.c - every backward pass of common/nn.c and the whole model of
 * common/model.c and the downstream head of common/head.c against central
 * finite differences.  Built with
 * -DNN_DOUBLE (see Makefile), so `real` is double and the differences are
 * accurate to about 1e-9: a wrong term in any gradient fails by orders of
 * magnitude more than the tolerance.
 *
 * Each layer test draws inputs and parameters, a fixed random weight r for
 * every output, and checks the gradient of the scalar sum(r * output) with
 * respect to every input and parameter element.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "config.h"
#include "err.h"
#include "graph.h"
#include "head.h"
#include "model.h"
#include "modelio.h"
#include "nn.h"
#include "rng.h"
#include "train_settings.h"

#ifndef NN_DOUBLE
#error "test_nn.c must be compiled with -DNN_DOUBLE"
#endif

static gsl_rng *R;

static void
setup(void)
{
	R = rng_new(12345, 0);
}

static void
teardown(void)
{
	gsl_rng_free(R);
}

static real *
rnd(int64_t n, double lo, double hi)
{
	real *x = xmalloc((size_t)(n ? n : 1) * sizeof *x);
	for (int64_t i = 0; i < n; i++)
		x[i] = lo + (hi - lo) * gsl_rng_uniform(R);
	return x;
}

static real *
zeros(int64_t n)
{
	return xcalloc((size_t)(n ? n : 1), sizeof(real));
}

static double
dot(const real *a, const real *b, int64_t n)
{
	double s = 0;
	for (int64_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

typedef double (*lossfn)(void *ctx);

/* Compare g (analytic) with central differences of f over x[0..n-1]. */
static void
fdcheck(const char *what, lossfn f, void *ctx, real *x, const real *g, int64_t n)
{
	const double h = 1e-6;
	double worst = 0;
	int64_t wi = -1;
	for (int64_t i = 0; i < n; i++) {
		real s = x[i];
		x[i] = s + h;
		double lp = f(ctx);
		x[i] = s - h;
		double lm = f(ctx);
		x[i] = s;
		double num = (lp - lm) / (2 * h);
		double err = fabs(num - g[i]) / (1e-6 + fabs(num) + fabs(g[i]));
		if (fabs(num - g[i]) > 1e-7 && err > worst) {
			worst = err;
			wi = i;
		}
	}
	cr_expect(worst < 1e-5, "%s: element %lld: relative error %.3g", what, (long long)wi,
		  worst);
}

/* ---- linear, tanh, relu ---- */

struct lin_ctx {
	int64_t N, i, o;
	real *X, *W, *b, *Y, *r;
	int act; /* 0 none, 1 tanh, 2 relu */
};

static double
lin_loss(void *p)
{
	struct lin_ctx *c = p;
	nn_lin_fwd(c->Y, c->X, c->W, c->b, c->N, c->i, c->o);
	if (c->act == 1)
		nn_tanh_fwd(c->Y, c->Y, c->N * c->o);
	if (c->act == 2)
		nn_relu_fwd(c->Y, c->Y, c->N * c->o);
	return dot(c->Y, c->r, c->N * c->o);
}

static void
check_lin(int act)
{
	struct lin_ctx c = { .N = 7, .i = 5, .o = 4, .act = act };
	c.X = rnd(c.N * c.i, -1, 1);
	c.W = rnd(c.i * c.o, -1, 1);
	c.b = rnd(c.o, -1, 1);
	c.Y = zeros(c.N * c.o);
	c.r = rnd(c.N * c.o, -1, 1);
	real *dX = rnd(c.N * c.i, -1, 1), *dX0 = xmalloc((size_t)(c.N * c.i) * sizeof(real));
	memcpy(dX0, dX, (size_t)(c.N * c.i) * sizeof(real));
	real *dW = zeros(c.i * c.o), *db = zeros(c.o), *dY = zeros(c.N * c.o);
	lin_loss(&c);
	memcpy(dY, c.r, (size_t)(c.N * c.o) * sizeof(real));
	if (act == 1)
		nn_tanh_bwd(dY, dY, c.Y, c.N * c.o);
	if (act == 2)
		nn_relu_bwd(dY, dY, c.Y, c.N * c.o);
	nn_lin_bwd(dX, dW, db, dY, c.X, c.W, c.N, c.i, c.o, 1); /* accumulate */
	for (int64_t j = 0; j < c.N * c.i; j++)
		dX[j] -= dX0[j];
	fdcheck("lin dX", lin_loss, &c, c.X, dX, c.N * c.i);
	fdcheck("lin dW", lin_loss, &c, c.W, dW, c.i * c.o);
	fdcheck("lin db", lin_loss, &c, c.b, db, c.o);
	free(c.X);
	free(c.W);
	free(c.b);
	free(c.Y);
	free(c.r);
	free(dX);
	free(dX0);
	free(dW);
	free(db);
	free(dY);
}

Test(nn, linear, .init = setup, .fini = teardown)
{
	check_lin(0);
}
Test(nn, linear_tanh, .init = setup, .fini = teardown)
{
	check_lin(1);
}
Test(nn, linear_relu, .init = setup, .fini = teardown)
{
	check_lin(2);
}

/* ---- per-graph normalisation ---- */

struct gn_ctx {
	int G;
	int64_t d, off[4];
	real *X, *gam, *bet, *Y, *XH, *is, *r;
};

static double
gn_loss(void *p)
{
	struct gn_ctx *c = p;
	nn_gnorm_fwd(c->Y, c->XH, c->is, c->X, c->gam, c->bet, c->off, c->G, c->d, 1e-5);
	return dot(c->Y, c->r, c->off[c->G] * c->d);
}

Test(nn, graph_norm, .init = setup, .fini = teardown)
{
	/* graphs of 5, 1 (constant after centring) and 4 rows */
	struct gn_ctx c = { .G = 3, .d = 3, .off = { 0, 5, 6, 10 } };
	int64_t n = 10 * c.d;
	c.X = rnd(n, -2, 2);
	c.gam = rnd(c.d, 0.5, 1.5);
	c.bet = rnd(c.d, -1, 1);
	c.Y = zeros(n);
	c.XH = zeros(n);
	c.is = zeros(c.G * c.d);
	c.r = rnd(n, -1, 1);
	real *dX = zeros(n), *dg = zeros(c.d), *db = zeros(c.d);
	gn_loss(&c);
	/* the per-graph mean of XH is 0 and its variance ~1 */
	for (int64_t j = 0; j < c.d; j++) {
		double s = 0, q = 0;
		for (int64_t r = 0; r < 5; r++) {
			s += c.XH[r * c.d + j];
			q += c.XH[r * c.d + j] * c.XH[r * c.d + j];
		}
		cr_expect(fabs(s) < 1e-12 && fabs(q / 5 - 1) < 1e-3);
		cr_expect(c.XH[5 * c.d + j] == 0);
	}
	nn_gnorm_bwd(dX, dg, db, c.r, c.XH, c.is, c.gam, c.off, c.G, c.d);
	fdcheck("gnorm dX", gn_loss, &c, c.X, dX, n);
	fdcheck("gnorm dgamma", gn_loss, &c, c.gam, dg, c.d);
	fdcheck("gnorm dbeta", gn_loss, &c, c.bet, db, c.d);
	free(c.X);
	free(c.gam);
	free(c.bet);
	free(c.Y);
	free(c.XH);
	free(c.is);
	free(c.r);
	free(dX);
	free(dg);
	free(db);
}

/* ---- sparse Â product ---- */

struct sp_ctx {
	int64_t N, d, rp[6];
	int32_t ci[16];
	real av[16], *X, *Y, *r;
};

static double
sp_loss(void *p)
{
	struct sp_ctx *c = p;
	nn_csr_spmm(c->Y, c->rp, c->ci, c->av, c->X, c->N, c->d, 0);
	return dot(c->Y, c->r, c->N * c->d);
}

Test(nn, sparse_product_is_its_own_backward, .init = setup, .fini = teardown)
{
	/* Â of the path 0-1-2-3 plus isolated node 4, with self-loops */
	struct sp_ctx c = { .N = 5, .d = 3 };
	int deg[5] = { 2, 3, 3, 2, 1 };
	int nb[5][4] = { { 0, 1, -1 }, { 0, 1, 2, -1 }, { 1, 2, 3, -1 }, { 2, 3, -1 }, { 4, -1 } };
	int64_t e = 0;
	for (int u = 0; u < 5; u++) {
		c.rp[u] = e;
		for (int j = 0; nb[u][j] >= 0 && j < 4; j++) {
			c.ci[e] = nb[u][j];
			c.av[e++] = 1 / sqrt((double)deg[u] * deg[nb[u][j]]);
		}
	}
	c.rp[5] = e;
	c.X = rnd(15, -1, 1);
	c.Y = zeros(15);
	c.r = rnd(15, -1, 1);
	real *dX = zeros(15);
	nn_csr_spmm(dX, c.rp, c.ci, c.av, c.r, c.N, c.d, 0);
	fdcheck("spmm dX", sp_loss, &c, c.X, dX, 15);
	free(c.X);
	free(c.Y);
	free(c.r);
	free(dX);
}

/* ---- layer mixing ---- */

struct mix_ctx {
	int L;
	int64_t N, d, R;
	int32_t idx[6];
	real *H[3], *alpha, *psi, *F, *r;
};

static double
mix_loss(void *p)
{
	struct mix_ctx *c = p;
	nn_mix_fwd(c->F, c->H, c->alpha, c->psi, c->idx, c->L, c->R, c->d);
	return dot(c->F, c->r, c->R * c->d);
}

Test(nn, layer_mixing, .init = setup, .fini = teardown)
{
	struct mix_ctx c = {
		.L = 3, .N = 4, .d = 5, .R = 6, .idx = { 2, 0, 2, 3, 1, 2 }
	}; /* repeats */
	for (int l = 0; l < c.L; l++)
		c.H[l] = rnd(c.N * c.d, -1, 1);
	c.alpha = rnd(c.d, 0.5, 1.5);
	c.psi = rnd(c.L, -1, 1);
	c.F = zeros(c.R * c.d);
	c.r = rnd(c.R * c.d, -1, 1);
	real *da = zeros(c.d), *dp = zeros(c.L), *dH[3];
	nn_mix_bwd_params(da, dp, c.r, c.H, c.alpha, c.psi, c.idx, c.L, c.R, c.d);
	fdcheck("mix dalpha", mix_loss, &c, c.alpha, da, c.d);
	fdcheck("mix dpsi", mix_loss, &c, c.psi, dp, c.L);
	for (int l = 0; l < c.L; l++) {
		dH[l] = zeros(c.N * c.d);
		nn_mix_bwd_input(dH[l], c.r, c.alpha, c.psi, c.idx, l, c.L, c.R, c.d, 0);
		fdcheck("mix dH", mix_loss, &c, c.H[l], dH[l], c.N * c.d);
		free(dH[l]);
	}
	/* rows without repeats: the row-parallel path adds the same */
	int32_t uq[4] = { 3, 0, 2, 1 };
	real *h0 = zeros(c.N * c.d), *h1 = zeros(c.N * c.d);
	nn_mix_bwd_input(h0, c.r, c.alpha, c.psi, uq, 1, c.L, 4, c.d, 0);
	nn_mix_bwd_input(h1, c.r, c.alpha, c.psi, uq, 1, c.L, 4, c.d, 1);
	cr_expect(memcmp(h0, h1, (size_t)(c.N * c.d) * sizeof(real)) == 0);
	free(h0);
	free(h1);
	for (int l = 0; l < c.L; l++)
		free(c.H[l]);
	free(c.alpha);
	free(c.psi);
	free(c.F);
	free(c.r);
	free(da);
	free(dp);
}

/* ---- NTN ---- */

struct ntn_ctx {
	int64_t P, d, Q, S;
	int k, kmax;
	ntn p;
	real *X, *Y, *C, *lg, *XW, *h, *CW, *XV, *CV, *r;
	int32_t cbeg[5], cnum[5];
};

static void
ntn_alloc(ntn *p, int64_t d, int k, int random)
{
	p->W = random ? rnd(d * k * d, -0.5, 0.5) : zeros(d * k * d);
	p->V = random ? rnd(2 * d * k, -0.5, 0.5) : zeros(2 * d * k);
	p->b = random ? rnd(k, -0.5, 0.5) : zeros(k);
	p->o = random ? rnd(k, -1, 1) : zeros(k);
	p->ob = random ? rnd(1, -1, 1) : zeros(1);
	p->s = 0.7;
}

static void
ntn_release(ntn *p)
{
	free(p->W);
	free(p->V);
	free(p->b);
	free(p->o);
	free(p->ob);
}

static void
ntn_checks(const char *what, lossfn f, void *ctx, ntn p, ntn g, int64_t d, int k)
{
	char nm[64];
	snprintf(nm, sizeof nm, "%s dW", what);
	fdcheck(nm, f, ctx, p.W, g.W, d * k * d);
	snprintf(nm, sizeof nm, "%s dV", what);
	fdcheck(nm, f, ctx, p.V, g.V, 2 * d * k);
	snprintf(nm, sizeof nm, "%s db", what);
	fdcheck(nm, f, ctx, p.b, g.b, k);
	snprintf(nm, sizeof nm, "%s do", what);
	fdcheck(nm, f, ctx, p.o, g.o, k);
	snprintf(nm, sizeof nm, "%s dob", what);
	fdcheck(nm, f, ctx, p.ob, g.ob, 1);
}

static double
ntn_pair_loss(void *pp)
{
	struct ntn_ctx *c = pp;
	nn_ntn_pair_fwd(c->lg, c->XW, c->h, c->X, c->Y, c->p, c->P, c->d, c->k);
	return dot(c->lg, c->r, c->P);
}

/* The paired NTN on P random pairs: dX and dY against finite differences,
 * then every parameter and the literal x^T W_t y (full), or dW only. */
static void
check_ntn_pairs(const char *what, int64_t P, int64_t d, int k, int full)
{
	struct ntn_ctx c = { .P = P, .d = d, .k = k };
	char nm[64];
	int64_t rows = P < NTN_CHUNK ? P : NTN_CHUNK;
	ntn_alloc(&c.p, c.d, c.k, 1);
	c.X = rnd(c.P * c.d, -1, 1);
	c.Y = rnd(c.P * c.d, -1, 1);
	c.lg = zeros(c.P);
	c.XW = zeros(c.P * c.k * c.d);
	c.h = zeros(c.P * c.k);
	c.r = rnd(c.P, -1, 1);
	ntn g;
	ntn_alloc(&g, c.d, c.k, 0);
	real *dX = zeros(c.P * c.d), *dY = zeros(c.P * c.d), *dXW = zeros(rows * c.k * c.d);
	ntn_pair_loss(&c);
	nn_ntn_pair_bwd(dX, dY, g, c.r, c.XW, c.h, c.X, c.Y, c.p, c.P, c.d, c.k, dXW);
	snprintf(nm, sizeof nm, "%s dX", what);
	fdcheck(nm, ntn_pair_loss, &c, c.X, dX, c.P * c.d);
	snprintf(nm, sizeof nm, "%s dY", what);
	fdcheck(nm, ntn_pair_loss, &c, c.Y, dY, c.P * c.d);
	if (full) {
		ntn_checks(what, ntn_pair_loss, &c, c.p, g, c.d, c.k);
		/* the bilinear slices really are s x^T W_t y */
		double s = 0;
		for (int a = 0; a < c.d; a++)
			for (int b = 0; b < c.d; b++)
				s += c.X[a] * c.p.W[a * c.k * c.d + 1 * c.d + b] * c.Y[b];
		double lin = c.p.b[1];
		for (int a = 0; a < c.d; a++)
			lin += c.X[a] * c.p.V[a * c.k + 1] + c.Y[a] * c.p.V[(c.d + a) * c.k + 1];
		cr_expect(fabs(tanh(c.p.s * s + lin) - c.h[1]) < 1e-12);
	} else {
		snprintf(nm, sizeof nm, "%s dW", what);
		fdcheck(nm, ntn_pair_loss, &c, c.p.W, g.W, c.d * c.k * c.d);
	}
	ntn_release(&c.p);
	ntn_release(&g);
	free(c.X);
	free(c.Y);
	free(c.lg);
	free(c.XW);
	free(c.h);
	free(c.r);
	free(dX);
	free(dY);
	free(dXW);
}

Test(nn, ntn_pairs, .init = setup, .fini = teardown)
{
	check_ntn_pairs("ntn pair", 6, 4, 3, 1);
}

Test(nn, ntn_pairs_in_chunks, .init = setup, .fini = teardown)
{
	/* more pairs than NTN_CHUNK: the chunked backward pass */
	check_ntn_pairs("ntn chunks", NTN_CHUNK + NTN_CHUNK / 2 + 3, 2, 2, 0);
}

static double
ntn_cand_loss(void *pp)
{
	struct ntn_ctx *c = pp;
	nn_ntn_cand_fwd(c->lg, c->CW, c->XV, c->CV, c->h, c->X, c->C, c->p, c->cbeg, c->cnum, c->Q,
			c->S, c->kmax, c->d, c->k);
	return dot(c->lg, c->r, c->Q * c->kmax);
}

Test(nn, ntn_candidates_equal_pairs, .init = setup, .fini = teardown)
{
	/* queries 0,1 see clusters 0..2, queries 2..4 see clusters 3..4 */
	struct ntn_ctx c = { .Q = 5,
			     .S = 5,
			     .d = 4,
			     .k = 2,
			     .kmax = 3,
			     .cbeg = { 0, 0, 3, 3, 3 },
			     .cnum = { 3, 3, 2, 2, 2 } };
	ntn_alloc(&c.p, c.d, c.k, 1);
	c.X = rnd(c.Q * c.d, -1, 1);
	c.C = rnd(c.S * c.d, -1, 1);
	c.lg = zeros(c.Q * c.kmax);
	c.CW = zeros(c.S * c.k * c.d);
	c.XV = zeros(c.Q * c.k);
	c.CV = zeros(c.S * c.k);
	c.h = zeros(c.Q * c.kmax * c.k);
	c.r = rnd(c.Q * c.kmax, -1, 1);
	for (int q = 0; q < c.Q; q++) /* padding entries carry no loss */
		for (int j = c.cnum[q]; j < c.kmax; j++)
			c.r[q * c.kmax + j] = 0;
	ntn g;
	ntn_alloc(&g, c.d, c.k, 0);
	real *dX = zeros(c.Q * c.d), *dC = zeros(c.S * c.d), *dCW = zeros(c.S * c.k * c.d),
	     *dXV = zeros(c.Q * c.k), *dCV = zeros(c.S * c.k);
	ntn_cand_loss(&c);
	/* same values as the paired form on explicit pairs */
	{
		real lp[1], xw[64], hh[8];
		for (int q = 0; q < c.Q; q++)
			for (int j = 0; j < c.cnum[q]; j++) {
				nn_ntn_pair_fwd(lp, xw, hh, c.X + q * c.d,
						c.C + (c.cbeg[q] + j) * c.d, c.p, 1, c.d, c.k);
				cr_expect(fabs(lp[0] - c.lg[q * c.kmax + j]) < 1e-12);
			}
	}
	nn_ntn_cand_bwd(dX, dC, g, c.r, c.CW, c.h, c.X, c.C, c.p, c.cbeg, c.cnum, c.Q, c.S, c.kmax,
			c.d, c.k, dCW, dXV, dCV);
	fdcheck("ntn cand dX", ntn_cand_loss, &c, c.X, dX, c.Q * c.d);
	fdcheck("ntn cand dC", ntn_cand_loss, &c, c.C, dC, c.S * c.d);
	ntn_checks("ntn cand", ntn_cand_loss, &c, c.p, g, c.d, c.k);
	ntn_release(&c.p);
	ntn_release(&g);
	free(c.X);
	free(c.C);
	free(c.lg);
	free(c.CW);
	free(c.XV);
	free(c.CV);
	free(c.h);
	free(c.r);
	free(dX);
	free(dC);
	free(dCW);
	free(dXV);
	free(dCV);
}

/* ---- ranking heads ---- */

struct rank_ctx {
	int64_t R, d, hd;
	int nh;
	real *X, *W1, *b1, *w2, *b2, *S, *Z, *r;
};

static double
rank_loss(void *p)
{
	struct rank_ctx *c = p;
	nn_rank_fwd(c->S, c->Z, c->X, c->W1, c->b1, c->w2, c->b2, c->R, c->d, c->nh, c->hd);
	return dot(c->S, c->r, c->R * c->nh);
}

Test(nn, ranking_heads, .init = setup, .fini = teardown)
{
	struct rank_ctx c = { .R = 6, .d = 4, .hd = 3, .nh = 4 };
	int64_t H = c.nh * c.hd;
	c.X = rnd(c.R * c.d, -1, 1);
	c.W1 = rnd(c.d * H, -1, 1);
	c.b1 = rnd(H, -0.5, 0.5);
	c.w2 = rnd(H, -1, 1);
	c.b2 = rnd(c.nh, -1, 1);
	c.S = zeros(c.R * c.nh);
	c.Z = zeros(c.R * H);
	c.r = rnd(c.R * c.nh, -1, 1);
	real *dX = zeros(c.R * c.d), *dW1 = zeros(c.d * H), *db1 = zeros(H), *dw2 = zeros(H),
	     *db2 = zeros(c.nh), *dZ = zeros(c.R * H);
	rank_loss(&c);
	nn_rank_bwd(dX, dW1, db1, dw2, db2, c.r, c.Z, c.X, c.W1, c.w2, c.R, c.d, c.nh, c.hd, dZ);
	{ /* dZ = Z in place gives the same gradients */
		real *e[5] = { zeros(c.R * c.d), zeros(c.d * H), zeros(H), zeros(H), zeros(c.nh) };
		real *Zc = zeros(c.R * H);
		memcpy(Zc, c.Z, (size_t)(c.R * H) * sizeof(real));
		nn_rank_bwd(e[0], e[1], e[2], e[3], e[4], c.r, Zc, c.X, c.W1, c.w2, c.R, c.d, c.nh,
			    c.hd, Zc);
		cr_expect(memcmp(e[0], dX, (size_t)(c.R * c.d) * sizeof(real)) == 0 &&
			  memcmp(e[3], dw2, (size_t)H * sizeof(real)) == 0);
		for (int i = 0; i < 5; i++)
			free(e[i]);
		free(Zc);
	}
	fdcheck("rank dX", rank_loss, &c, c.X, dX, c.R * c.d);
	fdcheck("rank dW1", rank_loss, &c, c.W1, dW1, c.d * H);
	fdcheck("rank db1", rank_loss, &c, c.b1, db1, H);
	fdcheck("rank dw2", rank_loss, &c, c.w2, dw2, H);
	fdcheck("rank db2", rank_loss, &c, c.b2, db2, c.nh);
	free(c.X);
	free(c.W1);
	free(c.b1);
	free(c.w2);
	free(c.b2);
	free(c.S);
	free(c.Z);
	free(c.r);
	free(dX);
	free(dW1);
	free(db1);
	free(dw2);
	free(db2);
	free(dZ);
}

/* ---- attention aggregator ---- */

struct att_ctx {
	int64_t Ns, d, hd, nseg, soff[5];
	real *X, *Wa, *ba, *w, *C, *T, *a, *r;
};

static double
att_loss(void *p)
{
	struct att_ctx *c = p;
	nn_attn_fwd(c->C, c->T, c->a, c->X, c->Wa, c->ba, c->w, c->soff, c->nseg, c->Ns, c->d,
		    c->hd);
	return dot(c->C, c->r, c->nseg * c->d);
}

Test(nn, attention_pooling, .init = setup, .fini = teardown)
{
	/* segments of 3, 0 (empty), 1 and 3 rows */
	struct att_ctx c = { .Ns = 7, .d = 4, .hd = 3, .nseg = 4, .soff = { 0, 3, 3, 4, 7 } };
	c.X = rnd(c.Ns * c.d, -1, 1);
	c.Wa = rnd(c.d * c.hd, -1, 1);
	c.ba = rnd(c.hd, -0.5, 0.5);
	c.w = rnd(c.hd, -1, 1);
	c.C = zeros(c.nseg * c.d);
	c.T = zeros(c.Ns * c.hd);
	c.a = zeros(c.Ns);
	c.r = rnd(c.nseg * c.d, -1, 1);
	real *dX = zeros(c.Ns * c.d), *dWa = zeros(c.d * c.hd), *dba = zeros(c.hd),
	     *dw = zeros(c.hd), *dT = zeros(c.Ns * c.hd), *de = zeros(c.Ns);
	att_loss(&c);
	double s = c.a[0] + c.a[1] + c.a[2];
	cr_expect(fabs(s - 1) < 1e-12 && c.a[3] == 1, "attention weights sum to 1");
	for (int j = 0; j < c.d; j++)
		cr_expect(c.C[1 * c.d + j] == 0, "empty cluster pools to 0");
	nn_attn_bwd(dX, dWa, dba, dw, c.r, c.T, c.a, c.X, c.Wa, c.w, c.soff, c.nseg, c.Ns, c.d,
		    c.hd, dT, de);
	fdcheck("attn dX", att_loss, &c, c.X, dX, c.Ns * c.d);
	fdcheck("attn dWa", att_loss, &c, c.Wa, dWa, c.d * c.hd);
	fdcheck("attn dba", att_loss, &c, c.ba, dba, c.hd);
	fdcheck("attn dw", att_loss, &c, c.w, dw, c.hd);
	free(c.X);
	free(c.Wa);
	free(c.ba);
	free(c.w);
	free(c.C);
	free(c.T);
	free(c.a);
	free(c.r);
	free(dX);
	free(dWa);
	free(dba);
	free(dw);
	free(dT);
	free(de);
}

/* ---- losses ---- */

struct loss_ctx {
	int64_t n, Q;
	int kmax;
	real *z, *y, *wt, *dz;
	int32_t cnum[3], tgt[3];
};

static double
bce_loss(void *p)
{
	struct loss_ctx *c = p;
	return nn_bce_logits(c->dz, c->z, c->y, c->wt, c->n);
}

static double
xent_loss(void *p)
{
	struct loss_ctx *c = p;
	return nn_softmax_xent(c->dz, NULL, c->z, c->cnum, c->tgt, c->Q, c->kmax);
}

Test(nn, losses, .init = setup, .fini = teardown)
{
	real y[5] = { 1, 0, 0.5, 1, 0 }, wt[5] = { 1, 1, 1, 0, 1 };
	struct loss_ctx c = { .n = 5, .y = y, .wt = wt };
	c.z = rnd(5, -3, 3);
	c.z[4] = 40; /* large logits stay finite */
	c.dz = zeros(5);
	real *g = zeros(5);
	double l = nn_bce_logits(g, c.z, y, wt, 5);
	cr_expect(isfinite(l) && g[3] == 0, "masked item has no gradient");
	cr_expect(fabs(g[4] - 0.25) < 1e-12, "sigmoid(40) - 0 over 4 items");
	fdcheck("bce dz", bce_loss, &c, c.z, g, 5);

	struct loss_ctx x = { .Q = 3, .kmax = 3, .cnum = { 3, 2, 1 }, .tgt = { 2, 0, 0 } };
	x.z = rnd(9, -2, 2);
	x.dz = zeros(9);
	real *gx = zeros(9);
	int64_t ok;
	nn_softmax_xent(gx, &ok, x.z, x.cnum, x.tgt, x.Q, x.kmax);
	fdcheck("xent dz", xent_loss, &x, x.z, gx, 9);
	cr_expect(gx[5] == 0 && gx[7] == 0 && gx[8] == 0, "padding has no gradient");
	free(c.z);
	free(c.dz);
	free(g);
	free(x.z);
	free(x.dz);
	free(gx);
}

/* ---- readouts, projections and the objectives' losses ---- */

struct pool_ctx {
	int64_t nseg, d, *seg;
	real *X, *P, *r;
	int32_t *arg;
};

static double
pool_loss(void *p)
{
	struct pool_ctx *c = p;
	nn_pool_fwd(c->P, c->arg, c->X, c->seg, c->nseg, c->d);
	return dot(c->P, c->r, c->nseg * 2 * c->d);
}

Test(nn, pooling_mean_and_max, .init = setup, .fini = teardown)
{
	int64_t seg[4] = { 0, 3, 3, 7 }; /* an empty segment in the middle */
	struct pool_ctx c = { .nseg = 3, .d = 4, .seg = seg };
	c.X = rnd(7 * 4, -1, 1);
	c.P = zeros(3 * 8);
	c.r = rnd(3 * 8, -1, 1);
	c.arg = xmalloc(3 * 4 * sizeof *c.arg);
	real *dX = rnd(7 * 4, -1, 1); /* overwritten */
	pool_loss(&c);
	cr_expect(c.P[8] == 0 && c.P[12] == 0 && c.arg[4] == -1, "an empty segment pools to 0");
	double mx = c.X[0], mean = 0;
	for (int r = 0; r < 3; r++) {
		mx = c.X[r * 4] > mx ? c.X[r * 4] : mx;
		mean += c.X[r * 4] / 3;
	}
	cr_expect(fabs(c.P[0] - mean) < 1e-12 && c.P[4] == mx, "segment 0, column 0: %g %g", c.P[0],
		  c.P[4]);
	nn_pool_bwd(dX, c.r, c.arg, seg, 3, 4);
	fdcheck("pool dX", pool_loss, &c, c.X, dX, 7 * 4);
	free(c.X);
	free(c.P);
	free(c.r);
	free(c.arg);
	free(dX);
}

struct norm_ctx {
	int64_t R, d;
	real *X, *Y, *r;
};

static double
norm_loss(void *p)
{
	struct norm_ctx *c = p;
	nn_l2norm_fwd(c->Y, c->X, c->R, c->d);
	return dot(c->Y, c->r, c->R * c->d);
}

Test(nn, unit_rows, .init = setup, .fini = teardown)
{
	struct norm_ctx c = { .R = 5, .d = 3 };
	c.X = rnd(15, -1, 1);
	c.Y = zeros(15);
	c.r = rnd(15, -1, 1);
	real *dX = zeros(15);
	norm_loss(&c);
	cr_expect(fabs(dot(c.Y, c.Y, 3) - 1) < 1e-12, "a unit row");
	nn_l2norm_bwd(dX, c.r, c.Y, c.X, 5, 3);
	fdcheck("l2norm dX", norm_loss, &c, c.X, dX, 15);
	free(c.X);
	free(c.Y);
	free(c.r);
	free(dX);
}

struct obj_loss_ctx {
	int64_t R, p, nseg, *seg;
	int32_t *pos;
	real *Z, *dZ, *T, *S;
	double tau, gamma;
	int which; /* 0 nce, 1 sce, 2 mse */
};

static double
obj_loss_of(void *p)
{
	struct obj_loss_ctx *c = p;
	double cs = 0;
	int64_t n = 0, ok;
	if (c->which == 0)
		return nn_nce_loss(c->dZ, &ok, c->Z, c->pos, c->seg, c->nseg, c->p, c->tau, c->S);
	if (c->which == 1)
		return nn_sce_loss(c->dZ, &cs, &n, c->Z, c->T, c->R, c->p, c->gamma);
	return nn_mse_loss(c->dZ, &cs, c->Z, c->T, c->R * c->p);
}

Test(nn, infonce_within_segments, .init = setup, .fini = teardown)
{
	/* two segments: 4 rows (pairs 0-2, 1-3) and 2 rows (4-5) */
	int64_t seg[3] = { 0, 4, 6 };
	int32_t pos[6] = { 2, 3, 0, 1, 5, 4 };
	struct obj_loss_ctx c = { .R = 6, .p = 3, .nseg = 2, .seg = seg, .pos = pos, .tau = 0.3 };
	c.Z = rnd(18, -1, 1);
	c.dZ = zeros(18);
	c.S = zeros(16);
	real *g = zeros(18);
	int64_t ok;
	double l = nn_nce_loss(g, &ok, c.Z, pos, seg, 2, 3, 0.3, c.S);
	cr_expect(isfinite(l) && ok >= 2, "the 2-row segment always ranks its positive first");
	fdcheck("nce dZ", obj_loss_of, &c, c.Z, g, 18);
	/* a row equal to its positive and far from the rest: loss near 0 */
	real Z2[12] = { 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0 };
	int64_t seg2[2] = { 0, 4 };
	int32_t pos2[4] = { 2, 3, 0, 1 };
	l = nn_nce_loss(g, &ok, Z2, pos2, seg2, 1, 3, 0.01, c.S);
	cr_expect(l < 1e-6 && ok == 4, "positives found: loss %g", l);
	free(c.Z);
	free(c.dZ);
	free(c.S);
	free(g);
}

Test(nn, scaled_cosine_and_squared_errors, .init = setup, .fini = teardown)
{
	struct obj_loss_ctx c = { .R = 4, .p = 3, .gamma = 2, .which = 1 };
	c.Z = rnd(12, -1, 1);
	c.T = rnd(12, -1, 1);
	c.T[3] = c.T[4] = c.T[5] = 0; /* a row left out */
	c.dZ = zeros(12);
	real *g = zeros(12);
	double cs = 0;
	int64_t n = 0;
	double l = nn_sce_loss(g, &cs, &n, c.Z, c.T, 4, 3, 2);
	cr_expect(n == 3 && g[3] == 0 && isfinite(l), "the zero target's row counts nothing");
	fdcheck("sce dY", obj_loss_of, &c, c.Z, g, 12);
	real y[3] = { 2, 0, 0 }, t[3] = { 1, 0, 0 };
	n = 0;
	cr_expect(nn_sce_loss(g, &cs, &n, y, t, 1, 3, 2) < 1e-15, "same direction: no error");
	c.which = 2;
	double sse = 0;
	nn_mse_loss(g, &sse, c.Z, c.T, 12);
	fdcheck("mse dy", obj_loss_of, &c, c.Z, g, 12);
	free(c.Z);
	free(c.T);
	free(c.dZ);
	free(g);
}

Test(nn, adam_first_step_moves_by_lr, .init = setup, .fini = teardown)
{
	/* bias correction makes the first step lr * sign(g) (|g| >> eps) */
	real p[3] = { 1, 2, 3 }, g[3] = { 0.5, -2, 1e-3 }, m[3] = { 0 }, v[3] = { 0 };
	nn_adam_step(p, g, m, v, 3, 0.01, 0.9, 0.999, 1e-8, 1);
	cr_expect(fabs(p[0] - 0.99) < 1e-9 && fabs(p[1] - 2.01) < 1e-9 && fabs(p[2] - 2.99) < 1e-7);
	/* second step with the same gradient: still lr * sign */
	nn_adam_step(p, g, m, v, 3, 0.01, 0.9, 0.999, 1e-8, 2);
	cr_expect(fabs(p[0] - 0.98) < 1e-9);
}

/* ---- the whole model ---- */

/* Two small graphs with clusters and centrality-like targets. */
static struct lgraph *
tiny_graph(int64_t id, int32_t n, int K)
{
	struct lgraph *lg = batch_lgraph_new(id);
	int32_t u[256], v[256];
	int64_t m = 0;
	lg->K = K;
	lg->cluster = xmalloc((size_t)n * sizeof *lg->cluster);
	for (int32_t i = 0; i < n; i++)
		lg->cluster[i] = i % K;
	for (int32_t i = 0; i < n; i++)
		for (int32_t j = i + 1; j < n; j++) {
			double pr = lg->cluster[i] == lg->cluster[j] ? 0.7 : 0.15;
			if (gsl_rng_uniform(R) < pr && m < 256) {
				u[m] = i;
				v[m++] = j;
			}
		}
	char msg[100];
	cr_assert(graph_build(&lg->g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg) == 0);
	lg->cent = xmalloc((size_t)n * MODEL_NCENT * sizeof *lg->cent);
	for (int32_t i = 0; i < n; i++)
		for (int t = 0; t < MODEL_NCENT; t++)
			lg->cent[i * MODEL_NCENT + t] =
			    t == 1 && i % 3 == 0 ? 0 : gsl_rng_uniform(R); /* ties in column 1 */
	return lg;
}

struct model_ctx {
	model *M;
	batch *b;
	mws *w;
};

static double
model_loss(void *p)
{
	struct model_ctx *c = p;
	struct mout o;
	return model_step(c->M, c->b, c->w, 0, &o);
}

/* A feature stage of 6 columns for the tests: functions of each node's
 * degree in the graph given (the masked one), and a constant. */
static int
six_features(void *ctx, const graph *const *gs, int G, double *const *feat, char *msg, size_t len)
{
	(void)msg;
	(void)len;
	*(int *)ctx += G;
	for (int i = 0; i < G; i++)
		for (int32_t v = 0; v < gs[i]->n; v++) {
			double d = graph_degree(gs[i], v), *f = feat[i] + (int64_t)v * 6;
			f[0] = d / gs[i]->n;
			f[1] = sqrt(d);
			f[2] = v % 3;
			f[3] = 1;
			f[4] = d > 2;
			f[5] = -0.5 * d;
		}
	return 0;
}

static void
check_model_f(int tasks, int layers, int nfeat)
{
	struct model_cfg cfg;
	int calls = 0;
	model_cfg_default(&cfg);
	cfg.nfeat = nfeat;
	cfg.d = 5;
	cfg.layers = layers;
	cfg.ntn_k = 2;
	cfg.rank_hidden = 3;
	cfg.att_hidden = 4;
	cfg.tasks = tasks;
	model M;
	cr_assert(model_init(&M, &cfg) == 0);
	model_init_params(&M, R);
	/* move alpha and psi off their symmetric start, and beta off 0: a
	 * column that relu zeroes for a whole graph normalises to beta, and
	 * beta = 0 would put the next relu exactly on its kink */
	for (int l = 0; l < layers; l++)
		for (int i = 0; i < cfg.d; i++) {
			M.P.bet[l][i] = gsl_rng_uniform(R) - 0.5;
			M.P.gam[l][i] = 0.5 + gsl_rng_uniform(R);
		}
	for (int t = 0; t < NTASK; t++) {
		for (int i = 0; i < cfg.d; i++)
			M.P.alpha[t][i] = 0.5 + gsl_rng_uniform(R);
		for (int l = 0; l < layers; l++)
			M.P.psi[t][l] = gsl_rng_uniform(R) - 0.5;
	}
	struct lgraph *gs[2] = { tiny_graph(7, 14, 3), tiny_graph(9, 11, 2) };
	struct batch_opts bo;
	batch_opts_default(&bo);
	bo.npos = 4;
	bo.nneg = 6;
	if (nfeat != MODEL_NFEAT) {
		bo.fs.kind = FEAT_SRC_CALL;
		bo.fs.F = nfeat;
		bo.fs.call = six_features;
		bo.fs.ctx = &calls;
	}
	batch b;
	batch_init(&b);
	char msg[200];
	cr_assert(batch_build(&b, gs, 2, 1, 0, &bo, msg, sizeof msg) == 0, "%s", msg);
	cr_assert(b.P > 0 && b.Q > 0 && b.ncl == 5);
	cr_assert(b.F == nfeat && M.t[0].rows == nfeat && (nfeat == MODEL_NFEAT || calls == 2),
		  "the batch and E have the stage's width; the stage saw both graphs");
	mws *w = model_ws_new();
	struct mout o;
	model_zero_grad(&M);
	double l = model_step(&M, &b, w, 1, &o);
	cr_assert(isfinite(l) && l > 0);
	real *g = xmalloc((size_t)M.n * sizeof *g);
	memcpy(g, M.g, (size_t)M.n * sizeof *g);
	struct model_ctx c = { &M, &b, w };
	for (int i = 0; i < M.nt; i++) {
		struct mtensor *t = &M.t[i];
		fdcheck(t->name, model_loss, &c, M.p + t->off, g + t->off, t->rows * t->cols);
	}
	free(g);
	model_ws_free(w);
	batch_free(&b);
	batch_lgraph_free(gs[0]);
	batch_lgraph_free(gs[1]);
	model_free(&M);
}

static void
check_model(int tasks, int layers)
{
	check_model_f(tasks, layers, MODEL_NFEAT);
}

Test(model, whole_model_gradient, .init = setup, .fini = teardown)
{
	check_model(7, 2);
}

/* A feature stage of another width: E is F x d and its gradient right. */
Test(model, wide_input_gradient, .init = setup, .fini = teardown)
{
	check_model_f(7, 2, 6);
}

Test(model, single_task_gradients, .init = setup, .fini = teardown)
{
	check_model(1 << TASK_REC, 3);
	check_model(1 << TASK_RANK, 1);
	check_model(1 << TASK_CLUSTER, 2);
}

/*
 * The whole model with objectives besides the tasks (objective.h): each
 * graph given node targets (3 columns, or a class with some nodes
 * unlabelled) and graph targets (2 columns) for the objectives that read
 * them, every tensor's gradient against finite differences.
 */
static void
check_model_obj(const char *tasks, int layers)
{
	struct objlist ol;
	struct model_cfg cfg;
	char msg[300];
	cr_assert(objlist_parse(&ol, tasks, 5, msg, sizeof msg) == 0, "%s", msg);
	struct lgraph *gs[3] = { tiny_graph(7, 14, 3), tiny_graph(9, 11, 2), tiny_graph(4, 9, 2) };
	for (int i = 0; i < ol.n; i++) {
		struct objective *o = &ol.o[i];
		int xent = o->kind == OBJ_NODE && o->loss == OBJ_XENT;
		if (o->kind != OBJ_NODE && o->kind != OBJ_GRAPH)
			continue;
		o->width = xent ? 3 : o->kind == OBJ_GRAPH ? 2 : 3;
		for (int g = 0; g < 3; g++) {
			int64_t rows = o->kind == OBJ_GRAPH ? 1 : gs[g]->g.n,
				C = xent ? 1 : o->width;
			gs[g]->tg[i].C = (int)C;
			gs[g]->tg[i].v = xmalloc((size_t)(rows * C) * sizeof(double));
			for (int64_t j = 0; j < rows * C; j++)
				gs[g]->tg[i].v[j] = xent ? (double)(j % 4) - 1 : gsl_rng_uniform(R);
		}
	}
	model_cfg_default(&cfg);
	cfg.d = 5;
	cfg.layers = layers;
	cfg.ntn_k = 2;
	cfg.rank_hidden = 3;
	cfg.att_hidden = 4;
	cfg.tasks = ol.tasks;
	for (int t = 0; t < NTASK; t++)
		cfg.task_w[t] = ol.task_w[t];
	cfg.nobj = ol.n;
	memcpy(cfg.obj, ol.o, sizeof ol.o);
	model M;
	cr_assert(model_init(&M, &cfg) == 0);
	model_init_params(&M, R);
	for (int l = 0; l < layers; l++)
		for (int i = 0; i < cfg.d; i++) {
			M.P.bet[l][i] = gsl_rng_uniform(R) - 0.5;
			M.P.gam[l][i] = 0.5 + gsl_rng_uniform(R);
		}
	for (int i = 0; i < ol.n; i++) { /* off the symmetric start; a token not 0 */
		for (int j = 0; j < cfg.d; j++)
			M.P.ob[i].alpha[j] = 0.5 + gsl_rng_uniform(R);
		for (int l = 0; l < layers; l++)
			M.P.ob[i].psi[l] = gsl_rng_uniform(R) - 0.5;
		for (int j = 0; M.P.ob[i].tok && j < cfg.nfeat; j++)
			M.P.ob[i].tok[j] = gsl_rng_uniform(R);
	}
	struct batch_opts bo;
	batch_opts_default(&bo);
	bo.npos = 4;
	bo.nneg = 6;
	bo.nobj = ol.n;
	bo.obj = cfg.obj;
	batch b;
	batch_init(&b);
	cr_assert(batch_build(&b, gs, 3, 1, 0, &bo, msg, sizeof msg) == 0, "%s", msg);
	cr_assert(b.G1 == 3 && (b.G == 3 || b.G == 6));
	mws *w = model_ws_new();
	struct mout o;
	model_zero_grad(&M);
	double l = model_step(&M, &b, w, 1, &o);
	cr_assert(isfinite(l) && l > 0, "%s: loss %g", tasks, l);
	for (int i = 0; i < ol.n; i++)
		cr_expect(o.oloss[i] > 0 && o.ostat[i][1] > 0, "%s: %s scored nothing", tasks,
			  ol.o[i].name);
	real *g = xmalloc((size_t)M.n * sizeof *g);
	memcpy(g, M.g, (size_t)M.n * sizeof *g);
	struct model_ctx c = { &M, &b, w };
	for (int i = 0; i < M.nt; i++) {
		struct mtensor *t = &M.t[i];
		char what[120];
		snprintf(what, sizeof what, "%s: %s", tasks, t->name);
		fdcheck(what, model_loss, &c, M.p + t->off, g + t->off, t->rows * t->cols);
	}
	free(g);
	model_ws_free(w);
	batch_free(&b);
	for (int k = 0; k < 3; k++)
		batch_lgraph_free(gs[k]);
	model_free(&M);
}

Test(model, node_objectives_gradient, .init = setup, .fini = teardown)
{
	check_model_obj("rec,y(kind=node target=t loss=mse hidden=4)", 2);
	check_model_obj("cluster,c(kind=node target=t loss=xent hidden=3 weight=0.5)", 2);
	check_model_obj("rec(weight=0.3),r(kind=node target=t loss=rank hidden=2)", 2);
}

Test(model, graph_objective_gradient, .init = setup, .fini = teardown)
{
	check_model_obj("rank,s(kind=graph target=t hidden=4 weight=2)", 3);
}

Test(model, contrast_gradients, .init = setup, .fini = teardown)
{
	check_model_obj("rec,graphcl(width=3 hidden=4 tau=0.5)", 2);
	check_model_obj("gcc(width=3 hidden=4 nodes=5)", 2);
	check_model_obj("graphcl(width=3 hidden=4),gcc(width=2 hidden=3 nodes=4)", 1);
}

Test(model, masked_reconstruction_gradient, .init = setup, .fini = teardown)
{
	check_model_obj("graphmae(hidden=4)", 2);
	check_model_obj("rank,cluster,graphmae(hidden=3 loss=mse rate=0.3)", 2);
}

Test(model, batch_is_the_concatenation, .init = setup, .fini = teardown)
{
	struct lgraph *gs[2] = { tiny_graph(7, 14, 3), tiny_graph(9, 11, 2) };
	struct batch_opts bo;
	batch_opts_default(&bo);
	bo.npos = 4;
	bo.nneg = 6;
	batch b;
	batch_init(&b);
	char msg[200];
	cr_assert(batch_build(&b, gs, 2, 1, 3, &bo, msg, sizeof msg) == 0);
	cr_expect(b.N == 25 && b.off[1] == 14);
	/* Â rows sum as D^-1/2 (A+I) D^-1/2 does: row u sums to
	 * sum_v 1/sqrt(d_u d_v); symmetric; every row has its diagonal */
	for (int64_t u = 0; u < b.N; u++) {
		int diag = 0;
		for (int64_t e = b.rp[u]; e < b.rp[u + 1]; e++) {
			int32_t v = b.ci[e];
			diag += v == u;
			cr_expect((u < 14) == (v < 14), "no edge across graphs");
			int found = 0;
			for (int64_t f = b.rp[v]; f < b.rp[v + 1]; f++)
				found |= b.ci[f] == u && b.av[f] == b.av[e];
			cr_expect(found, "symmetric");
		}
		cr_expect(diag == 1);
	}
	/* positives are removed edges: not in Â; labels 1 then 0 per graph */
	for (int64_t i = 0; i < b.P; i++) {
		int inA = 0;
		for (int64_t e = b.rp[b.pu[i]]; e < b.rp[b.pu[i] + 1]; e++)
			inA |= b.ci[e] == b.pv[i];
		cr_expect(!inA, "a pair is never an edge of the masked graph");
		cr_expect(b.uidx[b.ru[i]] == b.pu[i] && b.uidx[b.rv[i]] == b.pv[i]);
	}
	/* support grouped by cluster; every query's target is its cluster */
	for (int64_t c = 0; c < b.ncl; c++)
		for (int64_t s = b.soff[c]; s < b.soff[c + 1]; s++)
			cr_expect(b.sidx[s] >= 0 && b.sidx[s] < b.N);
	for (int64_t q = 0; q < b.Q; q++) {
		int32_t v = b.qidx[q];
		int gi = v >= 14;
		int32_t lv = v - (gi ? 14 : 0);
		cr_expect(b.qtgt[q] == gs[gi]->cluster[lv] && b.qnum[q] == gs[gi]->K);
	}
	/* same step, same batch; another step, another masking */
	batch b2;
	batch_init(&b2);
	cr_assert(batch_build(&b2, gs, 2, 1, 3, &bo, msg, sizeof msg) == 0);
	cr_expect(b2.P == b.P && memcmp(b2.pu, b.pu, (size_t)b.P * 4) == 0);
	cr_assert(batch_build(&b2, gs, 2, 1, 4, &bo, msg, sizeof msg) == 0);
	cr_expect(b2.P != b.P || memcmp(b2.pu, b.pu, (size_t)b.P * 4) != 0 ||
		  memcmp(b2.pv, b.pv, (size_t)b.P * 4) != 0);
	batch_free(&b);
	batch_free(&b2);
	batch_lgraph_free(gs[0]);
	batch_lgraph_free(gs[1]);
}

/* batch_pair_counts() counts the labels batch_build() gives, whatever
 * the step, with graphs short of positives or of non-edges; the link
 * head's bias then starts at their log ratio. */
Test(model, pair_counts_are_the_batch_labels, .init = setup, .fini = teardown)
{
	struct lgraph *gs[3] = { tiny_graph(7, 14, 3), tiny_graph(9, 11, 2), tiny_graph(4, 5, 1) };
	int64_t opt[3][2] = { { 4, 6 }, { 128, 256 }, { 0, 3 } };
	batch b;
	batch_init(&b);
	for (int k = 0; k < 3; k++) {
		struct batch_opts bo;
		batch_opts_default(&bo);
		bo.npos = opt[k][0];
		bo.nneg = opt[k][1];
		int64_t pos, neg;
		batch_pair_counts(gs, 3, &bo, &pos, &neg);
		for (uint64_t step = 0; step < 3; step++) {
			char msg[200];
			cr_assert(batch_build(&b, gs, 3, 1, step, &bo, msg, sizeof msg) == 0, "%s",
				  msg);
			int64_t p = 0;
			for (int64_t i = 0; i < b.P; i++)
				p += b.y[i] > 0;
			cr_expect(p == pos && b.P - p == neg,
				  "settings %d, step %d: %lld + %lld "
				  "pairs, counted %lld + %lld",
				  k, (int)step, (long long)p, (long long)(b.P - p), (long long)pos,
				  (long long)neg);
		}
	}
	struct model_cfg cfg;
	model M;
	model_cfg_default(&cfg);
	cfg.d = 4;
	cr_assert(model_init(&M, &cfg) == 0);
	model_init_params(&M, R);
	real ob = M.P.rec.ob[0];
	model_init_rec_prior(&M, 0, 10);
	cr_expect(M.P.rec.ob[0] == ob, "no positives: the bias as drawn");
	model_init_rec_prior(&M, 128, 256);
	cr_expect(fabs(M.P.rec.ob[0] - log(0.5)) < 1e-12);
	model_free(&M);
	batch_free(&b);
	for (int i = 0; i < 3; i++)
		batch_lgraph_free(gs[i]);
}

Test(model, record_round_trip, .init = setup, .fini = teardown)
{
	struct train_settings s, s2;
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	struct model_cfg mc;
	model M, M2;
	gs_rec r;
	char msg[300];

	train_settings_default(&s);
	s.hidden = 6;
	s.layers = 2;
	s.rank_hidden = 3;
	s.att_hidden = 5;
	free(s.tasks);
	s.tasks = xstrdup("rec,cluster");
	cr_assert(train_settings_model_cfg(&s, &mc) == 0 && model_init(&M, &mc) == 0);
	model_init_params(&M, R);
	char *cfg = cfg_dump(keys, train_schema(&s, keys));
	gs_rec_init(&r);
	modelio_to_record(&r, &M, M.p, "gcn-pretrain", cfg, 0);
	cr_assert(modelio_from_record(&M2, &s2, &r, "rec", msg, sizeof msg) == 0, "%s", msg);
	cr_expect(M2.n == M.n && M2.cfg.d == 6 && M2.cfg.layers == 2 &&
		  M2.cfg.tasks == ((1 << TASK_REC) | (1 << TASK_CLUSTER)));
	for (int64_t i = 0; i < M.n; i++)
		cr_expect((float)M.p[i] == (float)M2.p[i]);
	model_free(&M2);
	train_settings_free(&s2);
	/* a missing tensor is named */
	r.params[3].name[0] = 'X';
	cr_expect(modelio_from_record(&M2, &s2, &r, "rec", msg, sizeof msg) == -1);
	cr_expect(strstr(msg, "is missing") != NULL, "%s", msg);
	train_settings_free(&s2);
	gs_rec_free(&r);
	free(cfg);
	train_settings_free(&s);
	model_free(&M);
}

/* ---- the encoder alone, as gcn-adapt uses it ---- */

/* A d = 4, L = 3 model with random values (batch norm's beta too) and a
 * plain batch of two tiny graphs, 16 nodes, features scaled by scale. */
static void
tiny_setup(model *M, batch *b, struct lgraph **gs, int scale)
{
	struct model_cfg cfg;
	model_cfg_default(&cfg);
	cfg.d = 4;
	cfg.layers = 3;
	cr_assert(model_init(M, &cfg) == 0);
	model_init_params(M, R);
	for (int l = 0; l < 3; l++)
		for (int i = 0; i < 4; i++)
			M->P.bet[l][i] = gsl_rng_uniform(R) - 0.5;
	gs[0] = tiny_graph(1, 9, 2);
	gs[1] = tiny_graph(2, 7, 3);
	const graph *gg[2] = { &gs[0]->g, &gs[1]->g };
	struct feat_src fs;
	feat_src_default(&fs);
	fs.scale = scale;
	batch_init(b);
	char msg[200];
	cr_assert(batch_plain(b, gg, 2, &fs, NULL, msg, sizeof msg) == 0, "%s", msg);
}

/* What tiny_setup() made. */
static void
tiny_free(model *M, batch *b, struct lgraph **gs)
{
	batch_free(b);
	batch_lgraph_free(gs[0]);
	batch_lgraph_free(gs[1]);
	model_free(M);
}

struct enc_ctx {
	model *M;
	batch *b;
	mws *w;
	real *r, *F, *alpha, *psi;
	int32_t *idx;
};

static double
enc_loss(void *p)
{
	struct enc_ctx *c = p;
	real *Hs[MODEL_MAXL];
	model_encode(c->M, c->b, c->w, Hs);
	nn_mix_fwd(c->F, Hs, c->alpha, c->psi, c->idx, c->M->cfg.layers, c->b->N, c->M->cfg.d);
	return dot(c->F, c->r, c->b->N * c->M->cfg.d);
}

static void
check_encoder(int from, int embed)
{
	model M;
	batch b;
	struct lgraph *gs[2];
	tiny_setup(&M, &b, gs, FEAT_SCALE_LOG);
	cr_assert(b.N == 16 && b.P == 0);
	mws *w = model_ws_new();
	struct enc_ctx c = { &M,
			     &b,
			     w,
			     rnd(16 * 4, -1, 1),
			     zeros(16 * 4),
			     rnd(4, 0.5, 1.5),
			     rnd(3, -1, 1),
			     xmalloc(16 * sizeof(int32_t)) };
	for (int i = 0; i < 16; i++)
		c.idx[i] = i;
	model_zero_grad(&M);
	enc_loss(&c);
	struct mix_src src = { c.alpha, c.psi, c.r, c.idx, 16, 1 };
	model_encode_bwd(&M, &b, w, &src, 1, from, embed);
	real *g = xmalloc((size_t)M.n * sizeof *g);
	memcpy(g, M.g, (size_t)M.n * sizeof *g);
	for (int i = 0; i < M.nt; i++) {
		struct mtensor *t = &M.t[i];
		int blk = 0;
		int enc =
		    sscanf(t->name, "block%d.", &blk) == 1 || strncmp(t->name, "embed.", 6) == 0;
		if (!enc)
			continue;
		int trained = strncmp(t->name, "embed.", 6) == 0 ? embed : blk - 1 >= from;
		if (trained) {
			fdcheck(t->name, enc_loss, &c, M.p + t->off, g + t->off, t->rows * t->cols);
		} else {
			for (int64_t k = 0; k < t->rows * t->cols; k++)
				cr_expect(g[t->off + k] == 0, "%s: frozen but has a gradient",
					  t->name);
		}
	}
	free(g);
	free(c.r);
	free(c.F);
	free(c.alpha);
	free(c.psi);
	free(c.idx);
	model_ws_free(w);
	batch_free(&b);
	batch_lgraph_free(gs[0]);
	batch_lgraph_free(gs[1]);
	model_free(&M);
}

Test(model, encoder_alone_all_trained, .init = setup, .fini = teardown)
{
	check_encoder(0, 1);
}
Test(model, encoder_alone_embedding_fixed, .init = setup, .fini = teardown)
{
	check_encoder(0, 0);
}
Test(model, encoder_alone_two_blocks_fixed, .init = setup, .fini = teardown)
{
	check_encoder(2, 0);
}

/* gcn-embed's forward pass (no backward caches) is the training one: the
 * same block outputs, to the last bit. */
Test(model, encoder_forward_only_is_the_training_forward, .init = setup, .fini = teardown)
{
	model M;
	batch b;
	struct lgraph *gs[2];
	real *H1[MODEL_MAXL], *H2[MODEL_MAXL];

	tiny_setup(&M, &b, gs, FEAT_SCALE_MINMAX);
	mws *w1 = model_ws_new(), *w2 = model_ws_new();
	model_encode(&M, &b, w1, H1);
	model_encode_fwd(&M, &b, w2, H2);
	for (int l = 0; l < M.cfg.layers; l++)
		for (int64_t i = 0; i < b.N * M.cfg.d; i++)
			cr_assert(H1[l][i] == H2[l][i], "block %d, value %lld: %g != %g", l + 1,
				  (long long)i, (double)H1[l][i], (double)H2[l][i]);
	/* and a second call on the same workspace gives them again */
	model_encode_fwd(&M, &b, w2, H2);
	for (int l = 0; l < M.cfg.layers; l++)
		cr_expect(memcmp(H1[l], H2[l], (size_t)(b.N * M.cfg.d) * sizeof(real)) == 0);
	model_ws_free(w1);
	model_ws_free(w2);
	batch_free(&b);
	batch_lgraph_free(gs[0]);
	batch_lgraph_free(gs[1]);
	model_free(&M);
}

/* Bitwise equality of n values, with the first difference in the message. */
static void
same_bits(const char *what, const real *a, const real *b, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		cr_assert(memcmp(&a[i], &b[i], sizeof a[i]) == 0, "%s, value %lld: %.17g != %.17g",
			  what, (long long)i, (double)a[i], (double)b[i]);
}

/*
 * gcn-adapt's frozen part: the encoder run from block `from` on the input
 * given (H0 from model_embed(), or H_from of a whole pass) gives the whole
 * pass's block outputs to the bit, and the backward pass after it the same
 * gradients (from and embed of the backward as given).
 */
static void
check_encode_from(int from, int bfrom, int embed)
{
	model M;
	batch b;
	struct lgraph *gs[2];
	real *H1[MODEL_MAXL], *H2[MODEL_MAXL];

	tiny_setup(&M, &b, gs, FEAT_SCALE_LOG);
	int64_t N = b.N, d = M.cfg.d, L = M.cfg.layers;
	mws *w1 = model_ws_new(), *w2 = model_ws_new();
	model_encode(&M, &b, w1, H1);
	real *Hin = xmalloc((size_t)(N * d) * sizeof *Hin), *keep[MODEL_MAXL];
	if (from == 0)
		model_embed(&M, &b, Hin);
	else
		memcpy(Hin, H1[from - 1], (size_t)(N * d) * sizeof *Hin);
	for (int l = 0; l < from; l++) { /* the caller's copies below the boundary */
		keep[l] = xmalloc((size_t)(N * d) * sizeof *keep[l]);
		memcpy(keep[l], H1[l], (size_t)(N * d) * sizeof *keep[l]);
		H2[l] = keep[l];
	}
	model_encode_from(&M, &b, w2, from, Hin, H2);
	for (int l = 0; l < L; l++) {
		char what[64];
		snprintf(what, sizeof what, "from %d: block %d", from, l + 1);
		cr_assert(l >= from || H2[l] == keep[l], "%s: a block below the boundary moved",
			  what);
		same_bits(what, H1[l], H2[l], N * d);
	}
	/* the backward pass: the same gradients, whichever forward ran */
	real *r = rnd(N * d, -1, 1), *alpha = rnd(d, 0.5, 1.5), *psi = rnd(L, -1, 1);
	int32_t *idx = xmalloc((size_t)N * sizeof *idx);
	for (int i = 0; i < N; i++)
		idx[i] = i;
	struct mix_src src = { alpha, psi, r, idx, N, 1 };
	real *g1 = xmalloc((size_t)M.n * sizeof *g1);
	model_zero_grad(&M);
	model_encode_bwd(&M, &b, w1, &src, 1, bfrom, embed);
	memcpy(g1, M.g, (size_t)M.n * sizeof *g1);
	model_zero_grad(&M);
	model_encode_bwd(&M, &b, w2, &src, 1, bfrom, embed);
	same_bits("gradients", g1, M.g, M.n);
	int nz = 0; /* some, unless every block is fixed */
	for (int64_t i = 0; i < M.n; i++)
		nz += g1[i] != 0;
	if (bfrom < L || embed)
		cr_assert(nz > 0, "no gradient at all");
	else
		cr_assert(nz == 0, "every block is fixed, yet %d gradients", nz);
	for (int l = 0; l < from; l++)
		free(keep[l]);
	free(Hin);
	free(r);
	free(alpha);
	free(psi);
	free(idx);
	free(g1);
	model_ws_free(w1);
	model_ws_free(w2);
	tiny_free(&M, &b, gs);
}

Test(model, encoder_from_h0_is_the_whole_pass, .init = setup, .fini = teardown)
{
	check_encode_from(0, 0, 0);
}
Test(model, encoder_from_h0_trains_e_too, .init = setup, .fini = teardown)
{
	check_encode_from(0, 0, 1);
}
Test(model, encoder_from_block_1, .init = setup, .fini = teardown)
{
	check_encode_from(1, 1, 0);
}
Test(model, encoder_from_block_2_trains_above, .init = setup, .fini = teardown)
{
	check_encode_from(2, 2, 0);
}
Test(model, encoder_from_h0_trains_block_2_up, .init = setup, .fini = teardown)
{
	check_encode_from(0, 2, 0);
}
Test(model, encoder_from_the_top_runs_nothing, .init = setup, .fini = teardown)
{
	check_encode_from(3, 3, 0);
}

/* rng_get_block: the values of gsl_rng_get, one call after another, across
 * MT19937's 624-word blocks, and the generator left where the calls leave
 * it. */
Test(rng, block_draws_are_gsl_rng_get)
{
	gsl_rng *a = rng_new(7, 3), *b = rng_new(7, 3);
	static const size_t len[] = { 1, 5, 618, 624, 625, 0, 1, 2000, 623, 1248, 3 };
	uint32_t buf[2048];
	for (size_t t = 0; t < sizeof len / sizeof *len; t++) {
		rng_get_block(a, buf, len[t]);
		for (size_t i = 0; i < len[t]; i++) {
			unsigned long want = gsl_rng_get(b);
			cr_assert_eq(buf[i], want, "call %zu, value %zu: %u != %lu", t, i, buf[i],
				     want);
		}
		cr_assert_eq(gsl_rng_get(a), gsl_rng_get(b), "the state after call %zu", t);
	}
	/* another generator type: gsl_rng_get itself */
	gsl_rng *c = gsl_rng_alloc(gsl_rng_taus2), *e = gsl_rng_alloc(gsl_rng_taus2);
	gsl_rng_set(c, 11);
	gsl_rng_set(e, 11);
	rng_get_block(c, buf, 700);
	for (size_t i = 0; i < 700; i++)
		cr_assert_eq(buf[i], gsl_rng_get(e));
	gsl_rng_free(a);
	gsl_rng_free(b);
	gsl_rng_free(c);
	gsl_rng_free(e);
}

/* ---- the downstream head of gcn-adapt, on the encoder ---- */

enum { HT_NODE, HT_GRAPH, HT_LINK };

struct head_ctx {
	model *M;
	struct head *h;
	batch *b;
	mws *w;
	struct hbuf hb;
	struct lbuf lb;
	int task;
	int64_t hid, C, Cout;
	int32_t *y, *idx, *eu, *ev;
	int k;
	real *glg, *dglg, *dH;
	double p;   /* dropout: 0 for the gradient checks */
	gsl_rng *r; /* its generator: R unless set */
};

/* The training loss with dropout c->p (0: the generator is drawn from
 * but every mask is 1); with backward, every gradient. */
static double
head_loss_bwd(struct head_ctx *c, int backward, int from, int embed)
{
	double acc, loss;
	int64_t N = c->b->N;
	gsl_rng *r = c->r ? c->r : R;
	head_forward(c->M, c->h, c->b, c->w, &c->hb, c->p, r, 1);
	if (c->task == HT_LINK) {
		struct edges e = { c->eu, c->ev, c->y, c->idx, c->k };
		nn_relu_fwd(c->hb.lg, c->hb.lg, N * c->hid);
		loss = head_link_train(c->h, &c->lb, &e, c->hb.lg, c->hb.dlg, c->p, r);
		if (backward)
			nn_relu_bwd(c->hb.dlg, c->hb.dlg, c->hb.lg, N * c->hid);
	} else if (c->task == HT_GRAPH) {
		head_graph_logits(c->glg, c->hb.lg, c->b, c->C);
		loss = head_xent(c->glg, c->dglg, c->y, c->idx, c->k, c->C, c->b->G, &acc, 1);
		if (backward)
			head_graph_bwd(c->hb.dlg, c->dglg, c->b, c->C);
	} else
		loss = head_xent(c->hb.lg, c->hb.dlg, c->y, c->idx, c->k, c->C, N, &acc, 1);
	if (backward)
		head_backward(c->M, c->h, c->b, c->w, &c->hb, c->p, from, embed);
	return loss;
}

static double
head_loss(void *p)
{
	return head_loss_bwd(p, 0, 0, 0);
}

/* HEAD_SELF in a test of the sage head (gcn-adapt --head sage), else 0 */
static int head_self;

/* What a head test runs on: the tiny model and batch, a head, attributes. */
struct head_fix {
	model M;
	batch b;
	struct lgraph *gs[2];
	struct head h;
	real *A;
};

/* A head of hidden width 3 and 3 classes for task on the tiny model, with
 * labelled items (nodes, the two graphs, or 12 node pairs), and 2 columns
 * of attributes when attributes is set. */
static void
head_ctx_init(struct head_ctx *cc, struct head_fix *f, int task, int attributes)
{
	tiny_setup(&f->M, &f->b, f->gs, FEAT_SCALE_MINMAX);
	int64_t N = f->b.N, na = 2;
	struct head_ctx c = { .M = &f->M,
			      .h = &f->h,
			      .b = &f->b,
			      .w = model_ws_new(),
			      .task = task,
			      .hid = 3,
			      .C = 3 };
	c.Cout = task == HT_LINK ? c.hid : c.C;
	f->A = attributes ? rnd(N * na, 0, 1) : NULL;
	head_init(&f->h, 4, 4 + (f->A ? na : 0), 3, c.hid, c.Cout, c.C,
		  (task == HT_LINK ? HEAD_LINK : 0) | head_self, R);
	head_hbuf_init(&c.hb, &f->h, N, 1, f->A, na);
	for (int64_t i = 0; i < f->h.n; i++) /* nonzero biases, psi, alpha */
		f->h.p[i] += (real)(0.2 * (gsl_rng_uniform(R) - 0.5));
	c.y = xmallocarray((size_t)N + 64, sizeof *c.y);
	c.idx = xmallocarray((size_t)N + 64, sizeof *c.idx);
	if (task == HT_NODE) {
		for (int i = 0; i < 10; i++) {
			c.idx[i] = (int32_t)(i * 3 % N);
			c.y[c.idx[i]] = i % 3;
		}
		c.k = 10;
	} else if (task == HT_GRAPH) {
		c.y[0] = 2;
		c.y[1] = 0;
		c.idx[0] = 0;
		c.idx[1] = 1;
		c.k = 2;
		c.glg = zeros(2 * c.C);
		c.dglg = zeros(2 * c.C);
	} else {
		/* labelled node pairs (edges or not: the decoder does not care),
		 * a node in several of them */
		head_lbuf_init(&c.lb, N, c.hid, c.C);
		c.eu = xmallocarray(12, sizeof *c.eu);
		c.ev = xmallocarray(12, sizeof *c.ev);
		for (int i = 0; i < 12; i++) {
			c.eu[i] = (int32_t)(i % 5);
			c.ev[i] = (int32_t)(5 + (i * 7) % 11);
			c.y[i] = i % 3;
			c.idx[i] = 11 - i;
		}
		c.k = 12;
	}
	*cc = c;
}

static void
head_ctx_free(struct head_ctx *c, struct head_fix *f)
{
	if (c->task == HT_LINK)
		head_lbuf_free(&c->lb);
	free(f->A);
	free(c->y);
	free(c->idx);
	free(c->eu);
	free(c->ev);
	free(c->glg);
	free(c->dglg);
	head_hbuf_free(&c->hb);
	head_free(&f->h);
	model_ws_free(c->w);
	tiny_free(&f->M, &f->b, f->gs);
}

/* Every gradient of the head and of the trained encoder against finite
 * differences; with freeze, along gcn-adapt's path, the encoder's fixed
 * part computed once (head_freeze) and the encoder run from the boundary. */
static void
check_head(int task, int from, int embed, int attributes, int freeze)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, task, attributes);
	model M = f.M; /* the same buffers: the context points at f */
	struct head h = f.h;
	if (freeze)
		head_freeze(c.M, c.b, c.w, &c.hb, from, embed);
	model_zero_grad(c.M);
	memset(h.g, 0, (size_t)h.n * sizeof *h.g);
	head_loss_bwd(&c, 1, from, embed);
	real *g = xmalloc((size_t)M.n * sizeof *g), *hg = xmalloc((size_t)h.n * sizeof *hg);
	memcpy(g, M.g, (size_t)M.n * sizeof *g);
	memcpy(hg, h.g, (size_t)h.n * sizeof *hg);
	fdcheck("head", head_loss, &c, h.p, hg, h.n);
	for (int i = 0; i < M.nt; i++) {
		struct mtensor *t = &M.t[i];
		int blk = 0;
		int enc =
		    sscanf(t->name, "block%d.", &blk) == 1 || strncmp(t->name, "embed.", 6) == 0;
		if (!enc)
			continue;
		int trained = strncmp(t->name, "embed.", 6) == 0 ? embed : blk - 1 >= from;
		if (trained) {
			fdcheck(t->name, head_loss, &c, M.p + t->off, g + t->off,
				t->rows * t->cols);
		} else {
			for (int64_t k = 0; k < t->rows * t->cols; k++)
				cr_expect(g[t->off + k] == 0, "%s: frozen but has a gradient",
					  t->name);
		}
	}
	free(g);
	free(hg);
	head_ctx_free(&c, &f);
}

Test(head, node_task_gradient, .init = setup, .fini = teardown)
{
	check_head(HT_NODE, 0, 1, 0, 0);
}
Test(head, node_task_with_attributes_e_fixed, .init = setup, .fini = teardown)
{
	check_head(HT_NODE, 0, 0, 1, 0);
}
Test(head, graph_task_gradient, .init = setup, .fini = teardown)
{
	check_head(HT_GRAPH, 1, 0, 0, 0);
}
Test(head, link_task_gradient, .init = setup, .fini = teardown)
{
	check_head(HT_LINK, 0, 1, 0, 0);
}
Test(head, link_task_with_attributes_two_blocks_fixed, .init = setup, .fini = teardown)
{
	check_head(HT_LINK, 2, 0, 1, 0);
}
/* the sage head: each layer's own-rows weights S beside the GCN's */
Test(head, sage_node_task_gradient, .init = setup, .fini = teardown)
{
	head_self = HEAD_SELF;
	check_head(HT_NODE, 0, 1, 0, 0);
}
Test(head, sage_graph_task_gradient_with_attributes, .init = setup, .fini = teardown)
{
	head_self = HEAD_SELF;
	check_head(HT_GRAPH, 1, 0, 1, 0);
}
Test(head, sage_node_task_gradient_h0_kept, .init = setup, .fini = teardown)
{
	head_self = HEAD_SELF;
	check_head(HT_NODE, 0, 0, 1, 1);
}
Test(head, node_task_gradient_h0_kept, .init = setup, .fini = teardown)
{
	check_head(HT_NODE, 0, 0, 0, 1);
}
Test(head, graph_task_gradient_block_1_kept, .init = setup, .fini = teardown)
{
	check_head(HT_GRAPH, 1, 0, 0, 1);
}
Test(head, link_task_gradient_two_blocks_kept, .init = setup, .fini = teardown)
{
	check_head(HT_LINK, 2, 0, 1, 1);
}

/*
 * gcn-adapt's cached path: the encoder's fixed part computed once
 * (head_freeze) gives the same logits, loss and gradients, to the bit, as
 * the whole encoder run on every pass; dropout on, from twin generators.
 */
static void
check_frozen_same(int task, int from, int attributes)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, task, attributes);
	int64_t nlg = c.b->N * c.Cout, np = c.M->n, nh = c.h->n;
	real *lg = xmalloc((size_t)nlg * sizeof *lg), *g = xmalloc((size_t)np * sizeof *g),
	     *hg = xmalloc((size_t)nh * sizeof *hg);
	gsl_rng *r1 = rng_new(5, 1), *r2 = rng_new(5, 1);
	c.p = 0.4;
	double loss[2];
	for (int pass = 0; pass < 2; pass++) {
		if (pass) /* now the fixed part is kept */
			head_freeze(c.M, c.b, c.w, &c.hb, from, 0);
		cr_assert_eq(c.hb.cfrom, pass ? from : -1);
		c.r = pass ? r2 : r1;
		model_zero_grad(c.M);
		memset(c.h->g, 0, (size_t)nh * sizeof *c.h->g);
		loss[pass] = head_loss_bwd(&c, 1, from, 0);
		if (!pass) {
			memcpy(lg, c.hb.lg, (size_t)nlg * sizeof *lg);
			memcpy(g, c.M->g, (size_t)np * sizeof *g);
			memcpy(hg, c.h->g, (size_t)nh * sizeof *hg);
		}
	}
	cr_assert(memcmp(&loss[0], &loss[1], sizeof loss[0]) == 0, "loss %.17g != %.17g", loss[0],
		  loss[1]);
	same_bits("head output", lg, c.hb.lg, nlg);
	same_bits("encoder gradients", g, c.M->g, np);
	same_bits("head gradients", hg, c.h->g, nh);
	int nz = 0;
	for (int64_t i = 0; i < np; i++)
		nz += g[i] != 0;
	cr_assert(nz > 0 || from == c.M->cfg.layers, "no encoder gradient");
	free(lg);
	free(g);
	free(hg);
	gsl_rng_free(r1);
	gsl_rng_free(r2);
	head_ctx_free(&c, &f);
}

Test(head, h0_kept_is_the_whole_pass, .init = setup, .fini = teardown)
{
	check_frozen_same(HT_NODE, 0, 0);
}
Test(head, block_1_kept_is_the_whole_pass, .init = setup, .fini = teardown)
{
	check_frozen_same(HT_GRAPH, 1, 0);
}
Test(head, two_blocks_kept_is_the_whole_pass, .init = setup, .fini = teardown)
{
	check_frozen_same(HT_LINK, 2, 1);
}
Test(head, every_block_kept_is_the_whole_pass, .init = setup, .fini = teardown)
{
	check_frozen_same(HT_NODE, 3, 1);
}

/*
 * Dropout takes one uniform of the generator per element, as a
 * gsl_rng_uniform() call each would: element i of the head's input is
 * kept (times 1 / (1 - p)) when the i-th uniform is >= p, then the same
 * for the hidden layer.
 */
Test(head, dropout_draws_are_gsl_rng_uniform, .init = setup, .fini = teardown)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, HT_NODE, 1);
	const double p = 0.3;
	real s = (real)(1 / (1 - p));
	gsl_rng *r1 = rng_new(9, 2), *r2 = rng_new(9, 2);
	head_forward(c.M, c.h, c.b, c.w, &c.hb, p, r1, 1);
	int64_t n1 = c.b->N * c.hb.din, n2 = c.b->N * c.hid, kept = 0;
	for (int64_t i = 0; i < n1 + n2; i++) {
		int want = gsl_rng_uniform(r2) >= p;
		int got = i < n1 ? c.hb.m1[i] : c.hb.m2[i - n1];
		real x = i < n1 ? c.hb.F[i] : c.hb.Z1[i - n1];
		real y = i < n1 ? c.hb.Fd[i] : c.hb.Z1d[i - n1];
		cr_assert_eq(got, want, "element %lld: mask %d, the uniform says %d", (long long)i,
			     got, want);
		cr_assert(y == (want ? x * s : 0), "element %lld: %g from %g", (long long)i,
			  (double)y, (double)x);
		kept += want;
	}
	cr_assert(kept > 0 && kept < n1 + n2, "%lld of %lld kept", (long long)kept,
		  (long long)(n1 + n2));
	cr_assert_eq(gsl_rng_get(r1), gsl_rng_get(r2), "the generators part after the pass");
	gsl_rng_free(r1);
	gsl_rng_free(r2);
	head_ctx_free(&c, &f);
}

/* The link decoder's evaluation: the test edges decoded after the
 * validation edges (head_link_logits, from the same first layer) get the
 * logits of one pass over all of them, to the bit. */
Test(head, link_logits_of_a_second_set, .init = setup, .fini = teardown)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, HT_LINK, 0);
	int64_t N = c.b->N, C = c.C;
	real *one = zeros(12 * C), *two = zeros(12 * C);
	struct edges all = { c.eu, c.ev, c.y, c.idx, 12 }, first = { c.eu, c.ev, c.y, c.idx, 5 },
		     rest = { c.eu, c.ev, c.y, c.idx + 5, 7 };
	head_forward(c.M, c.h, c.b, c.w, &c.hb, 0, NULL, 1);
	nn_relu_fwd(c.hb.lg, c.hb.lg, N * c.hid);
	head_link_eval(c.h, &c.lb, &all, c.hb.lg, one);
	head_link_eval(c.h, &c.lb, &first, c.hb.lg, two);
	head_link_logits(c.h, &c.lb, &rest, two);
	same_bits("logits", one, two, 12 * C);
	int nz = 0;
	for (int64_t i = 0; i < 12 * C; i++)
		nz += one[i] != 0;
	cr_assert(nz == 12 * C, "%d of %lld logits are 0", 12 * (int)C - nz, (long long)(12 * C));
	free(one);
	free(two);
	head_ctx_free(&c, &f);
}

/* NULL index arrays are the identity: nn_mix_fwd, nn_mix_bwd_params and
 * nn_mix_bwd_input (both of its paths) give the bits an explicit 0..R-1
 * gives. */
Test(nn, layer_mixing_null_is_the_identity, .init = setup, .fini = teardown)
{
	int L = 3;
	int64_t R = 7, d = 5;
	int32_t id[7] = { 0, 1, 2, 3, 4, 5, 6 };
	real *H[3], *alpha = rnd(d, 0.5, 1.5), *psi = rnd(L, -1, 1), *dF = rnd(R * d, -1, 1);
	real *F[2], *da[2], *dp[2], *dH[2][2];
	for (int l = 0; l < L; l++)
		H[l] = rnd(R * d, -1, 1);
	for (int k = 0; k < 2; k++) {
		const int32_t *ix = k ? NULL : id;
		F[k] = zeros(R * d);
		da[k] = zeros(d);
		dp[k] = zeros(L);
		nn_mix_fwd(F[k], H, alpha, psi, ix, L, R, d);
		nn_mix_bwd_params(da[k], dp[k], dF, H, alpha, psi, ix, L, R, d);
		for (int u = 0; u < 2; u++) {
			dH[k][u] = zeros(R * d); /* added to: the same start */
			memcpy(dH[k][u], H[0], (size_t)(R * d) * sizeof(real));
			nn_mix_bwd_input(dH[k][u], dF, alpha, psi, ix, 1, L, R, d, u);
		}
	}
	same_bits("mix F", F[0], F[1], R * d);
	same_bits("mix dalpha", da[0], da[1], d);
	same_bits("mix dpsi", dp[0], dp[1], L);
	same_bits("mix dH", dH[0][0], dH[1][0], R * d);
	same_bits("mix dH, unique rows", dH[0][1], dH[1][1], R * d);
	for (int k = 0; k < 2; k++) {
		free(F[k]);
		free(da[k]);
		free(dp[k]);
		free(dH[k][0]);
		free(dH[k][1]);
	}
	for (int l = 0; l < L; l++)
		free(H[l]);
	free(alpha);
	free(psi);
	free(dF);
}

/* The link decoder over edges without an index array (idx NULL) trains
 * and evaluates as over the explicit identity, to the bit: the loss, the
 * decoder's gradients, dH and the logits. */
Test(head, link_null_index_is_the_identity, .init = setup, .fini = teardown)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, HT_LINK, 0);
	int64_t N = c.b->N, C = c.C, hid = c.hid, nh = c.h->n;
	int32_t id[12];
	for (int i = 0; i < 12; i++)
		id[i] = i;
	real *dH[2], *hg[2], *lg[2];
	double loss[2];
	head_forward(c.M, c.h, c.b, c.w, &c.hb, 0, NULL, 1);
	nn_relu_fwd(c.hb.lg, c.hb.lg, N * hid);
	for (int k = 0; k < 2; k++) {
		struct edges e = { c.eu, c.ev, c.y, k ? NULL : id, 12 };
		gsl_rng *r = rng_new(3, 1);
		dH[k] = zeros(N * hid);
		lg[k] = zeros(12 * C);
		memset(c.h->g, 0, (size_t)nh * sizeof *c.h->g);
		loss[k] = head_link_train(c.h, &c.lb, &e, c.hb.lg, dH[k], 0.3, r);
		hg[k] = xmalloc((size_t)nh * sizeof *hg[k]);
		memcpy(hg[k], c.h->g, (size_t)nh * sizeof *hg[k]);
		head_link_eval(c.h, &c.lb, &e, c.hb.lg, lg[k]);
		gsl_rng_free(r);
	}
	cr_assert(memcmp(&loss[0], &loss[1], sizeof loss[0]) == 0, "loss %.17g != %.17g", loss[0],
		  loss[1]);
	same_bits("dH", dH[0], dH[1], N * hid);
	same_bits("decoder gradients", hg[0], hg[1], nh);
	same_bits("logits", lg[0], lg[1], 12 * C);
	for (int k = 0; k < 2; k++) {
		free(dH[k]);
		free(hg[k]);
		free(lg[k]);
	}
	head_ctx_free(&c, &f);
}

/* model_trained_tensors() marks what the tensor names say: embed.* when
 * embed, block<l>.* for l - 1 >= from, nothing else; at every boundary. */
Test(head, trained_tensors_by_boundary, .init = setup, .fini = teardown)
{
	struct head_fix f;
	struct head_ctx c;
	head_ctx_init(&c, &f, HT_NODE, 0);
	model *M = c.M;
	uint8_t *tr = xmalloc((size_t)M->nt);
	int ntrained = 0;
	for (int from = 0; from <= M->cfg.layers; from++)
		for (int embed = 0; embed < 2; embed++) {
			memset(tr, 7, (size_t)M->nt);
			model_trained_tensors(M, from, embed, tr);
			for (int i = 0; i < M->nt; i++) {
				const char *nm = M->t[i].name;
				int blk = 0, want = strncmp(nm, "embed.", 6) == 0 ? embed
						    : sscanf(nm, "block%d.", &blk) == 1
							? blk - 1 >= from
							: 0;
				cr_assert_eq(tr[i], want, "from %d, embed %d: %s: %d, not %d", from,
					     embed, nm, tr[i], want);
				ntrained += tr[i];
			}
		}
	cr_assert(ntrained > 0);
	free(tr);
	head_ctx_free(&c, &f);
}
