/*
 * model.c - the pre-training model: parameters, batches, forward and
 * backward over a batch (see model.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <inttypes.h>

#include "config.h"
#include "err.h"
#include "model.h"
#include "rng.h"

const char *const task_name[NTASK] = { "rec", "rank", "cluster" };

/* Grow *p to hold n elements of size sz (contents kept). */
static void
grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	void **p = pp;
	if (n <= *cap && *p)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < n)
		c += c / 2 + 16;
	*p = xreallocarray(*p, c, sz);
	*cap = c;
}

/* ------------------------------------------------------------------ */
/* parameters */

void
model_cfg_default(struct model_cfg *c)
{
	c->d = 512;
	c->layers = 3;
	c->ntn_k = 4;
	c->rank_hidden = 256;
	c->att_hidden = 512;
	c->tasks = (1 << NTASK) - 1;
	c->bn_eps = 1e-5;
}

/* Add a tensor to the layout (pass 1 counts, pass 2 also names). */
static int64_t
lay(model *M, int64_t *off, const char *name, int64_t rows, int64_t cols)
{
	int64_t at = *off;
	if (M->t) {
		struct mtensor *t = &M->t[M->nt];
		snprintf(t->name, sizeof t->name, "%s", name);
		t->rows = rows;
		t->cols = cols;
		t->off = at;
	}
	M->nt++;
	*off += rows * cols;
	return at;
}

/* Offsets of every tensor, as pointers relative to base. */
static void
layout(model *M, real *base, struct mview *v)
{
	const struct model_cfg *c = &M->cfg;
	int64_t d = c->d, k = c->ntn_k, off = 0;
	char nm[48];
#define AT(name, r, cc) (base + lay(M, &off, (name), (r), (cc)))
	M->nt = 0;
	v->E = AT("embed.W", MODEL_NFEAT, d);
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
		snprintf(nm, sizeof nm, "mix.%s.alpha", task_name[t]);
		v->alpha[t] = AT(nm, 1, d);
		snprintf(nm, sizeof nm, "mix.%s.psi", task_name[t]);
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
		nv[i]->s = (real)(1.0 / sqrt((double)d));	/* see model_init_params */
	}
	v->rW1 = AT("rank.W1", d, MODEL_NCENT * (int64_t)c->rank_hidden);
	v->rb1 = AT("rank.b1", 1, MODEL_NCENT * (int64_t)c->rank_hidden);
	v->rw2 = AT("rank.w2", MODEL_NCENT, c->rank_hidden);
	v->rb2 = AT("rank.b2", 1, MODEL_NCENT);
	v->aW = AT("cluster.att.W", d, c->att_hidden);
	v->ab = AT("cluster.att.b", 1, c->att_hidden);
	v->aw = AT("cluster.att.w", 1, c->att_hidden);
#undef AT
	M->n = off;
}

int
model_init(model *M, const struct model_cfg *cfg)
{
	memset(M, 0, sizeof *M);
	if (cfg->d < 1 || cfg->d > 8192 || cfg->layers < 1 ||
	    cfg->layers > MODEL_MAXL || cfg->ntn_k < 1 || cfg->ntn_k > 16 ||
	    cfg->rank_hidden < 1 || cfg->rank_hidden > 65536 ||
	    cfg->att_hidden < 1 || cfg->att_hidden > 65536 ||
	    !(cfg->tasks & ((1 << NTASK) - 1)) || !(cfg->bn_eps > 0))
		return -1;
	M->cfg = *cfg;
	struct mview tmp;
	layout(M, NULL, &tmp);		/* count */
	M->t = xcalloc((size_t)M->nt, sizeof *M->t);
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

	uniform(v->E, MODEL_NFEAT * d, 1 / sqrt(MODEL_NFEAT), r);
	uniform(v->Eb, d, 1 / sqrt(MODEL_NFEAT), r);
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
		 * reconstruction at AUC 0.50.  The scale brings that to 2. */
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
	adam_step(M->p, M->g, M->m, M->v, M->n, lr, 0.9, 0.999, 1e-8, M->adam_t);
}

/* ------------------------------------------------------------------ */
/* batches */

void
batch_opts_default(struct batch_opts *o)
{
	o->mask_fraction = 0.2;
	o->npos = 128;
	o->nneg = 256;
	o->support_fraction = 1;
	o->tie_rtol = 1e-9;
}

/* One graph's share of a batch, in local node ids. */
struct piece {
	int32_t n;
	double *feat;			/* n x 4 */
	int64_t nnz, *rp;		/* Â: (n+1) */
	int32_t *ci;
	real *av;
	int64_t P;
	int32_t *pu, *pv;
	uint8_t *y;
	int64_t U;
	int32_t *uidx, *ru, *rv, *pos;	/* pos: (n) node -> row in uidx */
	real *R;			/* P x 4 */
	int K;				/* clusters present in the support */
	int64_t Ns;
	int32_t *sidx, *cmap;		/* cmap: (K of graph) -> present index */
	int64_t *cnt;			/* (K + 1) support offsets */
	int64_t Q;
	int32_t *qidx, *qtgt;
	size_t c_feat, c_rp, c_ci, c_av, c_pu, c_pv, c_y, c_u, c_ru, c_rv,
	       c_pos, c_R, c_s, c_cmap, c_cnt, c_q, c_qt;
	uint8_t *sel;
	size_t c_sel;
};

struct tbuf {			/* one per thread */
	mask_buf mb;
	features_ws fw;
	gsl_rng *rng;
};

struct bpriv {
	struct piece *pc;
	int cap_pc;
	struct tbuf *tb;
	int ntb;
	size_t c_off, c_X, c_rp, c_ci, c_av, c_pu, c_pv, c_y, c_u, c_ru,
	       c_rv, c_R, c_s, c_soff, c_q, c_qb, c_qn, c_qt;
};

void
batch_init(batch *b)
{
	memset(b, 0, sizeof *b);
	b->priv = xcalloc(1, sizeof(struct bpriv));
}

static void
piece_free(struct piece *p)
{
	free(p->feat); free(p->rp); free(p->ci); free(p->av); free(p->pu);
	free(p->pv); free(p->y); free(p->uidx); free(p->ru); free(p->rv);
	free(p->pos); free(p->R); free(p->sidx); free(p->cmap); free(p->cnt);
	free(p->qidx); free(p->qtgt); free(p->sel);
}

void
batch_free(batch *b)
{
	if (!b)
		return;
	struct bpriv *bp = b->priv;
	if (bp) {
		for (int i = 0; i < bp->cap_pc; i++)
			piece_free(&bp->pc[i]);
		free(bp->pc);
		for (int i = 0; i < bp->ntb; i++) {
			mask_buf_free(&bp->tb[i].mb);
			features_ws_free(&bp->tb[i].fw);
			if (bp->tb[i].rng)
				gsl_rng_free(bp->tb[i].rng);
		}
		free(bp->tb);
		free(bp);
	}
	free(b->off); free(b->X); free(b->rp); free(b->ci); free(b->av);
	free(b->pu); free(b->pv); free(b->y); free(b->uidx); free(b->ru);
	free(b->rv); free(b->R); free(b->sidx); free(b->soff); free(b->qidx);
	free(b->qbeg); free(b->qnum); free(b->qtgt);
	memset(b, 0, sizeof *b);
}

static real
rank_target(double a, double b, double rtol)
{
	double s = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
	if (fabs(a - b) <= rtol * s)
		return (real)0.5;
	return a > b ? 1 : 0;
}

/*
 * Rows of Â = D^-1/2 (A + I) D^-1/2 of g, the diagonal in its sorted place:
 * row u of g is rp[u] .. in ci/av, starting at entry e; columns are offset
 * by base (the graph's first row in a batch).  Returns the end entry.
 */
static int64_t
adj_rows(const graph *g, int32_t base, int64_t e, int64_t *rp, int32_t *ci, real *av)
{
	for (int32_t u = 0; u < g->n; u++) {
		double du = (double)graph_degree(g, u) + 1;
		int self = 0;
		rp[u] = e;
		for (int64_t a = g->off[u]; a <= g->off[u + 1]; a++) {
			int32_t v = a < g->off[u + 1] ? g->adj[a] : INT32_MAX;
			if (!self && v > u) {
				ci[e] = base + u;
				av[e++] = (real)(1 / du);
				self = 1;
			}
			if (a == g->off[u + 1])
				break;
			ci[e] = base + v;
			av[e++] = (real)(1 / sqrt(du * ((double)graph_degree(g, v) + 1)));
		}
	}
	return e;
}

/* Mask graph lg and fill its piece.  Returns 0 or -1 (msg). */
static int
piece_build(struct piece *p, struct lgraph *lg, struct tbuf *tb,
	    uint64_t seed, uint64_t step, const struct batch_opts *o)
{
	const graph *gs;		/* the graph the model sees */
	int32_t n = lg->g.n;

	rng_reseed(tb->rng, seed, rng_mix(step, (uint64_t)lg->id));
	p->n = n;
	if (lg->premasked) {
		gs = &lg->g;
		p->P = lg->npairs;
		grow(&p->pu, &p->c_pu, (size_t)p->P + 1, sizeof *p->pu);
		grow(&p->pv, &p->c_pv, (size_t)p->P + 1, sizeof *p->pv);
		grow(&p->y, &p->c_y, (size_t)p->P + 1, sizeof *p->y);
		memcpy(p->pu, lg->pu, (size_t)p->P * sizeof *p->pu);
		memcpy(p->pv, lg->pv, (size_t)p->P * sizeof *p->pv);
		memcpy(p->y, lg->plab, (size_t)p->P);
	} else {
		struct mask_opts mo;
		mask_opts_init(&mo);
		mo.fraction = o->mask_fraction;
		mo.npos = o->npos;
		mo.nneg = o->nneg;
		mo.want = MASK_CSR;
		if (mask_edges(&lg->g, tb->rng, &mo, &tb->mb) < 0)
			return -1;
		gs = &tb->mb.g;
		p->P = tb->mb.npos + tb->mb.nneg;
		grow(&p->pu, &p->c_pu, (size_t)p->P + 1, sizeof *p->pu);
		grow(&p->pv, &p->c_pv, (size_t)p->P + 1, sizeof *p->pv);
		grow(&p->y, &p->c_y, (size_t)p->P + 1, sizeof *p->y);
		memcpy(p->pu, tb->mb.pu, (size_t)p->P * sizeof *p->pu);
		memcpy(p->pv, tb->mb.pv, (size_t)p->P * sizeof *p->pv);
		for (int64_t i = 0; i < p->P; i++)
			p->y[i] = i < tb->mb.npos;
	}

	/* features and Â = D^-1/2 (A + I) D^-1/2 of the masked graph */
	grow(&p->feat, &p->c_feat, (size_t)n * MODEL_NFEAT + 1, sizeof *p->feat);
	features_model_input(gs, p->feat, &tb->fw);
	p->nnz = 2 * gs->m + n;
	grow(&p->rp, &p->c_rp, (size_t)n + 1, sizeof *p->rp);
	grow(&p->ci, &p->c_ci, (size_t)p->nnz + 1, sizeof *p->ci);
	grow(&p->av, &p->c_av, (size_t)p->nnz + 1, sizeof *p->av);
	p->rp[n] = adj_rows(gs, 0, 0, p->rp, p->ci, p->av);

	/* distinct pair nodes (rank rows and cluster queries), ascending */
	grow(&p->pos, &p->c_pos, (size_t)n + 1, sizeof *p->pos);
	for (int32_t v = 0; v < n; v++)
		p->pos[v] = -1;
	for (int64_t i = 0; i < p->P; i++)
		p->pos[p->pu[i]] = p->pos[p->pv[i]] = 0;
	grow(&p->uidx, &p->c_u, (size_t)2 * p->P + 1, sizeof *p->uidx);
	p->U = 0;
	for (int32_t v = 0; v < n; v++)
		if (p->pos[v] == 0) {
			p->pos[v] = (int32_t)p->U;
			p->uidx[p->U++] = v;
		}
	grow(&p->ru, &p->c_ru, (size_t)p->P + 1, sizeof *p->ru);
	grow(&p->rv, &p->c_rv, (size_t)p->P + 1, sizeof *p->rv);
	grow(&p->R, &p->c_R, (size_t)p->P * MODEL_NCENT + 1, sizeof *p->R);
	for (int64_t i = 0; i < p->P; i++) {
		int32_t u = p->pu[i], v = p->pv[i];
		p->ru[i] = p->pos[u];
		p->rv[i] = p->pos[v];
		for (int t = 0; t < MODEL_NCENT; t++)
			p->R[i * MODEL_NCENT + t] =
			    rank_target(lg->cent[(int64_t)u * MODEL_NCENT + t],
					lg->cent[(int64_t)v * MODEL_NCENT + t], o->tie_rtol);
	}

	/* cluster support: a share of the nodes, grouped by cluster */
	int K = lg->K;
	grow(&p->sel, &p->c_sel, (size_t)n + 1, 1);
	grow(&p->cnt, &p->c_cnt, (size_t)K + 2, sizeof *p->cnt);
	grow(&p->cmap, &p->c_cmap, (size_t)K + 1, sizeof *p->cmap);
	memset(p->cnt, 0, ((size_t)K + 2) * sizeof *p->cnt);
	for (int32_t v = 0; v < n; v++) {
		p->sel[v] = o->support_fraction >= 1 ||
		    gsl_rng_uniform(tb->rng) < o->support_fraction;
		if (p->sel[v])
			p->cnt[lg->cluster[v] + 1]++;
	}
	p->K = 0;
	for (int c = 0; c < K; c++)
		p->cmap[c] = p->cnt[c + 1] ? p->K++ : -1;
	/* compact the counts of present clusters into offsets */
	int64_t *cn = p->cnt;
	int64_t acc = 0;
	for (int c = 0; c < K; c++)
		if (p->cmap[c] >= 0) {
			int64_t k = cn[c + 1];
			cn[p->cmap[c]] = acc;
			acc += k;
		}
	cn[p->K] = acc;
	p->Ns = acc;
	grow(&p->sidx, &p->c_s, (size_t)acc + 1, sizeof *p->sidx);
	{
		/* fill by cluster using a running cursor per present cluster */
		int64_t *cur = xmallocarray((size_t)p->K + 1, sizeof *cur);
		memcpy(cur, cn, ((size_t)p->K + 1) * sizeof *cur);
		for (int32_t v = 0; v < n; v++)
			if (p->sel[v])
				p->sidx[cur[p->cmap[lg->cluster[v]]]++] = v;
		free(cur);
	}
	/* queries: distinct pair nodes whose cluster is in the support */
	grow(&p->qidx, &p->c_q, (size_t)p->U + 1, sizeof *p->qidx);
	grow(&p->qtgt, &p->c_qt, (size_t)p->U + 1, sizeof *p->qtgt);
	p->Q = 0;
	for (int64_t i = 0; i < p->U; i++) {
		int32_t v = p->uidx[i], c = p->cmap[lg->cluster[v]];
		if (c < 0)
			continue;
		p->qidx[p->Q] = v;
		p->qtgt[p->Q++] = c;
	}
	return 0;
}

int
batch_build(batch *b, struct lgraph *const *gs, int G, uint64_t seed,
	    uint64_t step, const struct batch_opts *o, char *msg, size_t msglen)
{
	struct bpriv *bp = b->priv;
	int nth = 1;
#ifdef _OPENMP
	nth = omp_get_max_threads();
#endif
	if (bp->ntb < nth) {
		bp->tb = xreallocarray(bp->tb, (size_t)nth, sizeof *bp->tb);
		for (int i = bp->ntb; i < nth; i++) {
			mask_buf_init(&bp->tb[i].mb);
			features_ws_init(&bp->tb[i].fw);
			bp->tb[i].rng = rng_new(0, 0);
		}
		bp->ntb = nth;
	}
	if (bp->cap_pc < G) {
		bp->pc = xreallocarray(bp->pc, (size_t)G, sizeof *bp->pc);
		memset(bp->pc + bp->cap_pc, 0, (size_t)(G - bp->cap_pc) * sizeof *bp->pc);
		bp->cap_pc = G;
	}
	int bad = -1;
	#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < G; i++) {
		int th = 0;
#ifdef _OPENMP
		th = omp_get_thread_num();
#endif
		if (piece_build(&bp->pc[i], gs[i], &bp->tb[th], seed, step, o) < 0) {
			#pragma omp critical
			if (bad < 0 || i < bad)
				bad = i;
		}
	}
	if (bad >= 0) {
		snprintf(msg, msglen, "graph %lld: bad masking options",
			 (long long)gs[bad]->id);
		return -1;
	}

	/* offsets of each piece in the concatenation */
	int64_t N = 0, nnz = 0, P = 0, U = 0, Ns = 0, ncl = 0, Q = 0;
	int kmax = 1;
	int64_t (*at)[7] = xmallocarray((size_t)G + 1, sizeof *at);
	for (int i = 0; i < G; i++) {
		struct piece *p = &bp->pc[i];
		int64_t v[7] = { N, nnz, P, U, Ns, ncl, Q };
		memcpy(at[i], v, sizeof v);
		N += p->n; nnz += p->nnz; P += p->P; U += p->U; Ns += p->Ns;
		ncl += p->K; Q += p->Q;
		if (p->K > kmax)
			kmax = p->K;
	}
	if (N > INT32_MAX || nnz > INT32_MAX || P > INT32_MAX) {
		free(at);
		snprintf(msg, msglen, "batch too large (%lld nodes)", (long long)N);
		return -1;
	}
	b->G = G; b->N = N; b->P = P; b->U = U; b->Ns = Ns; b->ncl = ncl;
	b->Q = Q; b->kmax = kmax;
	grow(&b->off, &bp->c_off, (size_t)G + 1, sizeof *b->off);
	grow(&b->X, &bp->c_X, (size_t)N * MODEL_NFEAT + 1, sizeof *b->X);
	grow(&b->rp, &bp->c_rp, (size_t)N + 1, sizeof *b->rp);
	grow(&b->ci, &bp->c_ci, (size_t)nnz + 1, sizeof *b->ci);
	grow(&b->av, &bp->c_av, (size_t)nnz + 1, sizeof *b->av);
	grow(&b->pu, &bp->c_pu, (size_t)P + 1, sizeof *b->pu);
	grow(&b->pv, &bp->c_pv, (size_t)P + 1, sizeof *b->pv);
	grow(&b->y, &bp->c_y, (size_t)P + 1, sizeof *b->y);
	grow(&b->ru, &bp->c_ru, (size_t)P + 1, sizeof *b->ru);
	grow(&b->rv, &bp->c_rv, (size_t)P + 1, sizeof *b->rv);
	grow(&b->R, &bp->c_R, (size_t)P * MODEL_NCENT + 1, sizeof *b->R);
	grow(&b->uidx, &bp->c_u, (size_t)U + 1, sizeof *b->uidx);
	grow(&b->sidx, &bp->c_s, (size_t)Ns + 1, sizeof *b->sidx);
	grow(&b->soff, &bp->c_soff, (size_t)ncl + 1, sizeof *b->soff);
	grow(&b->qidx, &bp->c_q, (size_t)Q + 1, sizeof *b->qidx);
	grow(&b->qbeg, &bp->c_qb, (size_t)Q + 1, sizeof *b->qbeg);
	grow(&b->qnum, &bp->c_qn, (size_t)Q + 1, sizeof *b->qnum);
	grow(&b->qtgt, &bp->c_qt, (size_t)Q + 1, sizeof *b->qtgt);
	for (int i = 0; i < G; i++)
		b->off[i] = at[i][0];
	b->off[G] = N;
	b->rp[N] = nnz;
	b->soff[ncl] = Ns;

	#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < G; i++) {
		struct piece *p = &bp->pc[i];
		int64_t n0 = at[i][0], e0 = at[i][1], p0 = at[i][2], u0 = at[i][3],
		    s0 = at[i][4], c0 = at[i][5], q0 = at[i][6];
		for (int64_t j = 0; j < (int64_t)p->n * MODEL_NFEAT; j++)
			b->X[n0 * MODEL_NFEAT + j] = (real)p->feat[j];
		for (int32_t v = 0; v < p->n; v++)
			b->rp[n0 + v] = e0 + p->rp[v];
		for (int64_t j = 0; j < p->nnz; j++) {
			b->ci[e0 + j] = (int32_t)(n0 + p->ci[j]);
			b->av[e0 + j] = p->av[j];
		}
		for (int64_t j = 0; j < p->P; j++) {
			b->pu[p0 + j] = (int32_t)(n0 + p->pu[j]);
			b->pv[p0 + j] = (int32_t)(n0 + p->pv[j]);
			b->y[p0 + j] = p->y[j];
			b->ru[p0 + j] = (int32_t)(u0 + p->ru[j]);
			b->rv[p0 + j] = (int32_t)(u0 + p->rv[j]);
		}
		memcpy(b->R + p0 * MODEL_NCENT, p->R,
		       (size_t)p->P * MODEL_NCENT * sizeof *p->R);
		for (int64_t j = 0; j < p->U; j++)
			b->uidx[u0 + j] = (int32_t)(n0 + p->uidx[j]);
		for (int64_t j = 0; j < p->Ns; j++)
			b->sidx[s0 + j] = (int32_t)(n0 + p->sidx[j]);
		for (int c = 0; c < p->K; c++)
			b->soff[c0 + c] = s0 + p->cnt[c];
		for (int64_t j = 0; j < p->Q; j++) {
			b->qidx[q0 + j] = (int32_t)(n0 + p->qidx[j]);
			b->qbeg[q0 + j] = (int32_t)c0;
			b->qnum[q0 + j] = p->K;
			b->qtgt[q0 + j] = p->qtgt[j];
		}
	}
	free(at);
	return 0;
}

/* ------------------------------------------------------------------ */
/* forward and backward */

struct buf {
	real *p;
	size_t cap;
};

struct mws {
	struct buf H[MODEL_MAXL + 1], A1[MODEL_MAXL], XH[MODEL_MAXL],
	    istd[MODEL_MAXL], arena;	/* H[0] unused: H0 is recomputed */
	/* gradients of the mixed features, kept from the task passes until
	 * the encoder's backward pass */
	struct buf dFu, dFv, dFU, dFs, dFq;
	/* outputs kept for the caller */
	struct buf rlog, rS, clog;
};

mws *
mws_new(void)
{
	return xcalloc(1, sizeof(mws));
}

static struct buf *
mws_all(mws *w, int *nb)
{
	*nb = (int)(sizeof *w / sizeof(struct buf));
	return (struct buf *)w;
}

void
mws_free(mws *w)
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
mws_bytes(const mws *w)
{
	int nb;
	size_t s = 0;
	const struct buf *b = mws_all((mws *)w, &nb);
	for (int i = 0; i < nb; i++)
		s += b[i].cap * sizeof(real);
	return s;
}

/* Workspace buffers grow to what the batch needs plus 1/16: batches
 * differ a little step to step, and a 1.5x growth would waste far more. */
static real *
need(struct buf *b, int64_t n)
{
	size_t want = (size_t)n + 1;
	if (want > b->cap || !b->p) {
		size_t c = want + want / 16;
		free(b->p);	/* contents need not survive */
		b->p = xmallocarray(c, sizeof(real));
		b->cap = c;
	}
	return b->p;
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

/* Encoder forward: H[0..L] (and what the backward pass needs). */
/* H0 = tanh(X E + e): not kept, recomputed by the backward pass (it is
 * an N x 4 by 4 x d product) to save an N x d buffer. */
static void
embed_fwd(model *M, const batch *b, real *H0)
{
	int64_t N = b->N, d = M->cfg.d;
	lin_fwd(H0, b->X, M->P.E, M->P.Eb, N, MODEL_NFEAT, d);
	tanh_fwd(H0, H0, N * d);
}

static void
encoder_fwd(model *M, const batch *b, mws *w, real *T1, real *T2)
{
	const struct model_cfg *c = &M->cfg;
	int64_t N = b->N, d = c->d;
	struct mview *P = &M->P;
	embed_fwd(M, b, T2);
	for (int l = 0; l < c->layers; l++) {
		real *Hin = l ? w->H[l].p : T2, *A1 = need(&w->A1[l], N * d),
		    *XH = need(&w->XH[l], N * d), *is = need(&w->istd[l], (int64_t)b->G * d),
		    *Ho = need(&w->H[l + 1], N * d);
		lin_fwd(A1, Hin, P->W1[l], NULL, N, d, d);
		relu_fwd(A1, A1, N * d);
		lin_fwd(T1, A1, P->W2[l], NULL, N, d, d);
		gnorm_fwd(T1, XH, is, T1, P->gam[l], P->bet[l], b->off, b->G, d,
			  (real)c->bn_eps);
		csr_spmm(Ho, b->rp, b->ci, b->av, T1, N, d, 1);	/* relu(Â T1) */
	}
}

/* dH (gradient of H[l+1]) += the mixing contribution of every source. */
static void
mix_input_grads(const model *M, const struct mix_src *src, int nsrc, real *dH, int l)
{
	for (int i = 0; i < nsrc; i++)
		mix_bwd_input(dH, l, src[i].dF, src[i].alpha, src[i].psi, M->cfg.layers,
			      src[i].idx, src[i].R, M->cfg.d, src[i].unique);
}

/* The pre-training tasks' mixing gradients as sources. */
static int
task_sources(const model *M, const batch *b, const mws *w, struct mix_src *src)
{
	const struct model_cfg *c = &M->cfg;
	const struct mview *P = &M->P;
	int n = 0;
#define SRC(t, F, ix, r, u) src[n++] = (struct mix_src){ P->alpha[t], P->psi[t], (F), (ix), (r), (u) }
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
	real *sg = xcalloc(2 * (size_t)d, sizeof *sg);	/* frozen gamma, beta */
	memset(dH, 0, (size_t)(N * d) * sizeof *dH);
	mix_input_grads(M, src, nsrc, dH, L - 1);
	for (int l = L - 1; l >= low; l--) {
		real *Hin = w->H[l].p, *Ho = w->H[l + 1].p, *A1 = w->A1[l].p;
		int train = l >= from, more = l > low || embed;
		relu_bwd(dH, dH, Ho, N * d);
		csr_spmm(T1, b->rp, b->ci, b->av, dH, N, d, 0);	/* Â symmetric */
		/* a frozen block passes the gradient down and keeps none */
		gnorm_bwd(T1, train ? G->gam[l] : sg, train ? G->bet[l] : sg + d, T1,
			  w->XH[l].p, w->istd[l].p, P->gam[l], b->off, b->G, d);
		if (train)
			lin_bwd(T2, G->W2[l], NULL, T1, A1, P->W2[l], N, d, d, 0);
		else
			nn_gemm(0, 1, N, d, d, 1, T1, d, P->W2[l], d, 0, T2, d);
		relu_bwd(T2, T2, A1, N * d);
		if (l == 0) {		/* T1 is free again: H0 goes there */
			embed_fwd(M, b, T1);
			Hin = T1;
		}
		if (train)
			lin_bwd(more ? dH : NULL, G->W1[l], NULL, T2, Hin, P->W1[l], N, d, d, 0);
		else
			nn_gemm(0, 1, N, d, d, 1, T2, d, P->W1[l], d, 0, dH, d);
		if (l > 0)
			mix_input_grads(M, src, nsrc, dH, l - 1);
	}
	if (embed) {
		tanh_bwd(dH, dH, T1, N * d);	/* T1 = H0 */
		lin_bwd(NULL, G->E, G->Eb, dH, b->X, P->E, N, MODEL_NFEAT, d, 0);
	}
	free(sg);
}

/* Link reconstruction: loss, and dFu, dFv when backward. */
static double
task_rec(model *M, const batch *b, mws *w, real *arena, int backward)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, Pn = b->P, k = c->ntn_k;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *Fu = carve(&cv, Pn * d), *Fv = carve(&cv, Pn * d),
	    *XW = carve(&cv, Pn * k * d),
	    *dXW = carve(&cv, (Pn < NTN_CHUNK ? Pn : NTN_CHUNK) * k * d),
	    *h = carve(&cv, Pn * k), *dl = carve(&cv, Pn), *y = carve(&cv, Pn);
	real *lg = need(&w->rlog, Pn);

	mix_fwd(Fu, Hs, c->layers, P->alpha[TASK_REC], P->psi[TASK_REC], b->pu, Pn, d);
	mix_fwd(Fv, Hs, c->layers, P->alpha[TASK_REC], P->psi[TASK_REC], b->pv, Pn, d);
	ntn_pair_fwd(lg, XW, h, P->rec, Fu, Fv, Pn, d, (int)k);
	for (int64_t i = 0; i < Pn; i++)
		y[i] = b->y[i];
	double loss = bce_logits(dl, lg, y, NULL, Pn);
	if (!backward)
		return loss;
	real *dFu = need(&w->dFu, Pn * d), *dFv = need(&w->dFv, Pn * d);
	ntn_pair_bwd(dFu, dFv, G->rec, dl, XW, h, dXW, P->rec, Fu, Fv, Pn, d, (int)k);
	mix_bwd_params(G->alpha[TASK_REC], G->psi[TASK_REC], dFu, Hs, c->layers,
		       P->alpha[TASK_REC], P->psi[TASK_REC], b->pu, Pn, d);
	mix_bwd_params(G->alpha[TASK_REC], G->psi[TASK_REC], dFv, Hs, c->layers,
		       P->alpha[TASK_REC], P->psi[TASK_REC], b->pv, Pn, d);
	return loss;
}

static int64_t
rec_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, Pn = b->P, k = M->cfg.ntn_k;
	return 2 * rup(Pn * d) + rup(Pn * k * d) +
	    rup((Pn < NTN_CHUNK ? Pn : NTN_CHUNK) * k * d) + rup(Pn * k) + 2 * rup(Pn);
}

/* Centrality ranking: RankNet on the pairs, one MLP per centrality. */
static double
task_rank(model *M, const batch *b, mws *w, real *arena, int backward)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, U = b->U, Pn = b->P, hr = c->rank_hidden,
	    Hh = MODEL_NCENT * hr;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *F = carve(&cv, U * d), *Z = carve(&cv, U * Hh), *dS = carve(&cv, U * MODEL_NCENT),
	    *z = carve(&cv, Pn * MODEL_NCENT), *dz = carve(&cv, Pn * MODEL_NCENT);
	real *S = need(&w->rS, U * MODEL_NCENT);

	mix_fwd(F, Hs, c->layers, P->alpha[TASK_RANK], P->psi[TASK_RANK], b->uidx, U, d);
	rank_fwd(S, Z, F, P->rW1, P->rb1, P->rw2, P->rb2, U, d, MODEL_NCENT, hr);
	for (int64_t i = 0; i < Pn; i++)
		for (int t = 0; t < MODEL_NCENT; t++)
			z[i * MODEL_NCENT + t] = S[(int64_t)b->ru[i] * MODEL_NCENT + t]
			    - S[(int64_t)b->rv[i] * MODEL_NCENT + t];
	double loss = bce_logits(dz, z, b->R, NULL, Pn * MODEL_NCENT);
	if (!backward)
		return loss;
	memset(dS, 0, (size_t)(U * MODEL_NCENT) * sizeof *dS);
	for (int64_t i = 0; i < Pn; i++)
		for (int t = 0; t < MODEL_NCENT; t++) {
			dS[(int64_t)b->ru[i] * MODEL_NCENT + t] += dz[i * MODEL_NCENT + t];
			dS[(int64_t)b->rv[i] * MODEL_NCENT + t] -= dz[i * MODEL_NCENT + t];
		}
	real *dF = need(&w->dFU, U * d);
	rank_bwd(dF, G->rW1, G->rb1, G->rw2, G->rb2, dS, Z, Z, F, P->rW1,
		 P->rw2, U, d, MODEL_NCENT, hr);
	mix_bwd_params(G->alpha[TASK_RANK], G->psi[TASK_RANK], dF, Hs, c->layers,
		       P->alpha[TASK_RANK], P->psi[TASK_RANK], b->uidx, U, d);
	return loss;
}

static int64_t
rank_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, U = b->U, Hh = MODEL_NCENT * (int64_t)M->cfg.rank_hidden;
	return rup(U * d) + rup(U * Hh) + rup(U * MODEL_NCENT) +
	    2 * rup(b->P * MODEL_NCENT);
}

/* Cluster preserving: attention-pooled clusters, NTN, softmax over the
 * graph's clusters. */
static double
task_cluster(model *M, const batch *b, mws *w, real *arena, int backward,
	     int64_t *correct)
{
	const struct model_cfg *c = &M->cfg;
	struct mview *P = &M->P, *G = &M->G;
	int64_t d = c->d, Ns = b->Ns, Q = b->Q, S = b->ncl, k = c->ntn_k,
	    ha = c->att_hidden, km = b->kmax;
	real *Hs[MODEL_MAXL];
	for (int l = 0; l < c->layers; l++)
		Hs[l] = w->H[l + 1].p;
	struct carver cv = { arena, 0 };
	real *Fs = carve(&cv, Ns * d), *Fq = carve(&cv, Q * d),
	    *T = carve(&cv, Ns * ha), *a = carve(&cv, Ns), *de = carve(&cv, Ns),
	    *C = carve(&cv, S * d), *dC = carve(&cv, S * d),
	    *CW = carve(&cv, S * k * d), *dCW = carve(&cv, S * k * d),
	    *XV = carve(&cv, Q * k), *dXV = carve(&cv, Q * k),
	    *CV = carve(&cv, S * k), *dCV = carve(&cv, S * k),
	    *h = carve(&cv, Q * km * k), *dl = carve(&cv, Q * km);
	real *lg = need(&w->clog, Q * km);

	mix_fwd(Fs, Hs, c->layers, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->sidx, Ns, d);
	mix_fwd(Fq, Hs, c->layers, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER], b->qidx, Q, d);
	attn_fwd(C, T, a, Fs, P->aW, P->ab, P->aw, b->soff, S, Ns, d, ha);
	ntn_cand_fwd(lg, CW, XV, CV, h, P->clu, Fq, C, b->qbeg, b->qnum, Q, S,
		     (int)km, d, (int)k);
	double loss = softmax_xent(dl, lg, b->qnum, b->qtgt, Q, (int)km, correct);
	if (!backward)
		return loss;
	real *dFs = need(&w->dFs, Ns * d), *dFq = need(&w->dFq, Q * d);
	ntn_cand_bwd(dFq, dC, G->clu, dl, CW, h, dCW, dXV, dCV, P->clu, Fq, C,
		     b->qbeg, b->qnum, Q, S, (int)km, d, (int)k);
	memset(dFs, 0, (size_t)(Ns * d) * sizeof *dFs);
	attn_bwd(dFs, G->aW, G->ab, G->aw, dC, T, a, T, de, Fs, P->aW, P->aw,
		 b->soff, S, Ns, d, ha);
	mix_bwd_params(G->alpha[TASK_CLUSTER], G->psi[TASK_CLUSTER], dFs, Hs,
		       c->layers, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER],
		       b->sidx, Ns, d);
	mix_bwd_params(G->alpha[TASK_CLUSTER], G->psi[TASK_CLUSTER], dFq, Hs,
		       c->layers, P->alpha[TASK_CLUSTER], P->psi[TASK_CLUSTER],
		       b->qidx, Q, d);
	return loss;
}

static int64_t
cluster_arena(const model *M, const batch *b)
{
	int64_t d = M->cfg.d, Ns = b->Ns, Q = b->Q, S = b->ncl, k = M->cfg.ntn_k,
	    ha = M->cfg.att_hidden, km = b->kmax;
	return rup(Ns * d) + rup(Q * d) + rup(Ns * ha) + 2 * rup(Ns) +
	    2 * rup(S * d) + 2 * rup(S * k * d) + 2 * rup(Q * k) +
	    2 * rup(S * k) + rup(Q * km * k) + rup(Q * km);
}

double
model_step(model *M, const batch *b, mws *w, int backward, struct mout *out)
{
	const struct model_cfg *c = &M->cfg;
	int64_t N = b->N, d = c->d;
	int64_t an = 3 * rup(N * d);	/* the encoder's T1, T2, dH */
	if (c->tasks & 1 << TASK_REC && rec_arena(M, b) > an)
		an = rec_arena(M, b);
	if (c->tasks & 1 << TASK_RANK && rank_arena(M, b) > an)
		an = rank_arena(M, b);
	if (c->tasks & 1 << TASK_CLUSTER && cluster_arena(M, b) > an)
		an = cluster_arena(M, b);
	real *arena = need(&w->arena, an);
	real *T1 = arena, *T2 = arena + rup(N * d), *T3 = T2 + rup(N * d);

	memset(out, 0, sizeof *out);
	encoder_fwd(M, b, w, T1, T2);
	double total = 0;
	if (c->tasks & 1 << TASK_REC) {
		out->loss[TASK_REC] = task_rec(M, b, w, arena, backward);
		out->rec_logit = w->rlog.p;
	}
	if (c->tasks & 1 << TASK_RANK) {
		out->loss[TASK_RANK] = task_rank(M, b, w, arena, backward);
		out->rank_S = w->rS.p;
	}
	if (c->tasks & 1 << TASK_CLUSTER) {
		out->loss[TASK_CLUSTER] = task_cluster(M, b, w, arena, backward,
						       &out->clu_correct);
		out->clu_logit = w->clog.p;
	}
	for (int t = 0; t < NTASK; t++)
		total += out->loss[t];
	if (backward) {
		struct mix_src src[8];
		int ns = task_sources(M, b, w, src);
		encoder_bwd(M, b, w, T1, T2, T3, src, ns, 0, 1);
	}
	return total;
}

/* ------------------------------------------------------------------ */
/* training settings (gcn-train's config; the model record keeps it) */




void
train_settings_default(struct train_settings *s)
{
	struct model_cfg mc;
	struct batch_opts bo;
	model_cfg_default(&mc);
	batch_opts_default(&bo);
	s->hidden = mc.d;
	s->layers = mc.layers;
	s->ntn_k = mc.ntn_k;
	s->rank_hidden = mc.rank_hidden;
	s->att_hidden = mc.att_hidden;
	s->bn_eps = mc.bn_eps;
	s->tasks = xstrdup("rec,rank,cluster");
	s->batch = 32;
	s->epochs = 100;
	s->steps = 0;
	s->patience = 10;
	s->validation = -1;	/* 124 of every 1024 graphs */
	s->npos = bo.npos;
	s->nneg = bo.nneg;
	s->lr = 1e-3;
	s->mask_fraction = bo.mask_fraction;
	s->support_fraction = bo.support_fraction;
	s->tie_rtol = bo.tie_rtol;
	s->seed = 0;
}

size_t
train_schema(struct train_settings *s, struct cfg_key *k)
{
	struct cfg_key keys[] = {
		{ "model.hidden", CFG_INT, &s->hidden, 1, 8192, NULL },
		{ "model.layers", CFG_INT, &s->layers, 1, MODEL_MAXL, NULL },
		{ "model.ntn_slices", CFG_INT, &s->ntn_k, 1, 16, NULL },
		{ "model.rank_hidden", CFG_INT, &s->rank_hidden, 1, 65536, NULL },
		{ "model.attention_hidden", CFG_INT, &s->att_hidden, 1, 65536, NULL },
		{ "model.bn_eps", CFG_DOUBLE, &s->bn_eps, 1e-12, 1, NULL },
		{ "tasks", CFG_STRING, &s->tasks, 0, 0, NULL },
		{ "train.batch_graphs", CFG_INT, &s->batch, 1, 1 << 20, NULL },
		{ "train.epochs", CFG_INT, &s->epochs, 1, 1e9, NULL },
		{ "train.steps", CFG_INT, &s->steps, 0, 1e12, NULL },
		{ "train.patience", CFG_INT, &s->patience, 1, 1e9, NULL },
		{ "train.validation_graphs", CFG_INT, &s->validation, -1, 1e9, NULL },
		{ "train.lr", CFG_DOUBLE, &s->lr, 0, 10, NULL },
		{ "train.mask_fraction", CFG_DOUBLE, &s->mask_fraction, 0, 0.999999, NULL },
		{ "train.positives", CFG_INT, &s->npos, 0, 1e9, NULL },
		{ "train.negatives", CFG_INT, &s->nneg, 0, 1e9, NULL },
		{ "train.support_fraction", CFG_DOUBLE, &s->support_fraction, 1e-9, 1, NULL },
		{ "train.tie_rtol", CFG_DOUBLE, &s->tie_rtol, 0, 1, NULL },
		{ "seed", CFG_INT, &s->seed, 0, 9.2e18, NULL },
	};
	memcpy(k, keys, sizeof keys);
	return sizeof keys / sizeof keys[0];
}


int
tasks_parse(const char *list, int *mask)
{
	char buf[256];
	*mask = 0;
	if (strlen(list) >= sizeof buf)
		return -1;
	strcpy(buf, list);
	for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t;
	     t = strtok_r(NULL, ", ", &save)) {
		int k;
		for (k = 0; k < NTASK; k++)
			if (strcmp(t, task_name[k]) == 0)
				break;
		if (k == NTASK)
			return -1;
		*mask |= 1 << k;
	}
	return *mask ? 0 : -1;
}


int
train_settings_model_cfg(const struct train_settings *s, struct model_cfg *mc)
{
	model_cfg_default(mc);
	mc->d = (int)s->hidden;
	mc->layers = (int)s->layers;
	mc->ntn_k = (int)s->ntn_k;
	mc->rank_hidden = (int)s->rank_hidden;
	mc->att_hidden = (int)s->att_hidden;
	mc->bn_eps = s->bn_eps;
	return tasks_parse(s->tasks, &mc->tasks);
}

/* ------------------------------------------------------------------ */
/* model records */

void
model_to_record(gs_rec *r, const model *M, const real *params, const char *name,
		const char *config, int extra)
{
	gs_rec_clear(r);
	gs_rec_model(r, name, config, M->nt + extra);
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		gs_param *p = gs_rec_param(r, i, t->name, t->rows, t->cols, GS_F32);
		float *d = p->data;
		for (int64_t j = 0; j < t->rows * t->cols; j++)
			d[j] = (float)params[t->off + j];
	}
}

int
model_from_record(model *M, struct train_settings *s, const gs_rec *r,
		  const char *where, char *msg, size_t msglen)
{
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	struct model_cfg mc;
	char m2[400];

	if (r->kind != GS_MODEL || !r->config) {
		snprintf(msg, msglen, "%s: not a model record", where);
		return -1;
	}
	train_settings_default(s);
	size_t nk = train_schema(s, keys);
	if (cfg_load_text(r->config, r->config_len, where, keys, nk, m2, sizeof m2) != 0) {
		snprintf(msg, msglen, "config: %s", m2);
		return -1;
	}
	if (train_settings_model_cfg(s, &mc) != 0 || model_init(M, &mc) != 0) {
		snprintf(msg, msglen, "%s: config: model settings out of range", where);
		return -1;
	}
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		const gs_param *p = NULL;
		for (int j = 0; j < r->nparams && !p; j++)
			if (strcmp(r->params[j].name, t->name) == 0)
				p = &r->params[j];
		if (!p || p->dtype != GS_F32 || p->rows != t->rows || p->cols != t->cols) {
			snprintf(msg, msglen, "%s: parameter '%s' %s (want %" PRId64 " x %" PRId64
				 " float32)", where, t->name, p ? "has the wrong shape or type" :
				 "is missing", t->rows, t->cols);
			model_free(M);
			return -1;
		}
		const float *src = p->data;
		for (int64_t k = 0; k < t->rows * t->cols; k++) {
			if (!isfinite(src[k])) {
				snprintf(msg, msglen, "%s: parameter '%s' element %" PRId64
					 " is not finite", where, t->name, k);
				model_free(M);
				return -1;
			}
			M->p[t->off + k] = src[k];
		}
	}
	return 0;
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
	encoder_fwd(M, b, w, arena, arena + rup(b->N * M->cfg.d));
	for (int l = 0; l < M->cfg.layers; l++)
		Hs[l] = w->H[l + 1].p;
}

void
model_encode_bwd(model *M, const batch *b, mws *w, const struct mix_src *src,
		 int nsrc, int from, int embed)
{
	int64_t nd = rup(b->N * M->cfg.d);
	real *arena = w->arena.p;	/* model_encode() sized it */
	encoder_bwd(M, b, w, arena, arena + nd, arena + 2 * nd, src, nsrc, from, embed);
}

int
batch_plain(batch *b, const graph *const *gs, int G, int scale, char *msg,
	    size_t msglen)
{
	struct bpriv *bp = b->priv;
	int64_t N = 0, nnz = 0;
	features_ws fw;
	double *feat = NULL;
	size_t cap = 0;

	for (int i = 0; i < G; i++) {
		N += gs[i]->n;
		nnz += 2 * gs[i]->m + gs[i]->n;
	}
	if (N > INT32_MAX || nnz > INT32_MAX) {
		snprintf(msg, msglen, "graphs too large (%lld nodes)", (long long)N);
		return -1;
	}
	b->P = b->U = b->Ns = b->ncl = b->Q = 0;	/* no pairs, no clusters */
	b->G = G;
	b->N = N;
	b->kmax = 1;
	grow(&b->off, &bp->c_off, (size_t)G + 1, sizeof *b->off);
	grow(&b->X, &bp->c_X, (size_t)N * MODEL_NFEAT + 1, sizeof *b->X);
	grow(&b->rp, &bp->c_rp, (size_t)N + 1, sizeof *b->rp);
	grow(&b->ci, &bp->c_ci, (size_t)nnz + 1, sizeof *b->ci);
	grow(&b->av, &bp->c_av, (size_t)nnz + 1, sizeof *b->av);
	features_ws_init(&fw);
	int64_t n0 = 0, e = 0;
	for (int i = 0; i < G; i++) {
		const graph *g = gs[i];
		grow(&feat, &cap, (size_t)g->n * MODEL_NFEAT + 1, sizeof *feat);
		features_raw(g, feat, &fw);
		if (features_scale(feat, g->n, feat, scale) != 0) {
			snprintf(msg, msglen, "unknown feature scaling %d", scale);
			free(feat);
			features_ws_free(&fw);
			return -1;
		}
		b->off[i] = n0;
		for (int64_t j = 0; j < (int64_t)g->n * MODEL_NFEAT; j++)
			b->X[n0 * MODEL_NFEAT + j] = (real)feat[j];
		e = adj_rows(g, (int32_t)n0, e, b->rp + n0, b->ci, b->av);
		n0 += g->n;
	}
	b->off[G] = N;
	b->rp[N] = e;
	free(feat);
	features_ws_free(&fw);
	return 0;
}
