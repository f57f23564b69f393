/*
 * batch.c - a step's batch of graphs: masking, the model input features
 * and the normalised adjacency Â of each graph, the pairs and queries of
 * the three tasks (see batch.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_randist.h>

#include "batch.h"
#include "err.h"
#include "rng.h"

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
/* labelled graphs */

struct lgraph *
batch_lgraph_new(int64_t id)
{
	struct lgraph *lg = xcalloc(1, sizeof *lg);
	lg->id = id;
	graph_init(&lg->g);
	return lg;
}

void
batch_lgraph_free(struct lgraph *lg)
{
	if (!lg)
		return;
	graph_free(&lg->g);
	free(lg->cluster);
	free(lg->cent);
	free(lg->pu);
	free(lg->pv);
	free(lg->plab);
	free(lg->feat);
	for (int i = 0; i < OBJ_MAX; i++)
		free(lg->tg[i].v);
	free(lg);
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
	feat_src_default(&o->fs);
	o->nobj = 0;
	o->obj = NULL;
	for (int i = 0; i < OBJ_MAX; i++)
		o->mu[i] = o->sd[i] = NULL;
}

/* One graph's share of a batch, in local node ids. */
struct piece {
	int32_t n;
	double *feat;	  /* n x F */
	graph seen;	  /* FEAT_SRC_CALL: the masked graph */
	int64_t nnz, *rp; /* Â: (n+1) */
	int32_t *ci;
	real *av;
	int64_t P;
	int32_t *pu, *pv;
	uint8_t *y;
	int64_t U;
	int32_t *uidx, *ru, *rv, *pos; /* pos: (n) node -> row in uidx */
	real *R;		       /* P x 4 */
	int K;			       /* clusters present in the support */
	int64_t Ns;
	int32_t *sidx, *cmap; /* cmap: (K of graph) -> present index */
	int64_t *cnt;	      /* (K + 1) support offsets */
	int64_t Q;
	int32_t *qidx, *qtgt;
	size_t c_feat, c_rp, c_ci, c_av, c_pu, c_pv, c_y, c_u, c_ru, c_rv, c_pos, c_R, c_s, c_cmap,
	    c_cnt, c_q, c_qt;
	uint8_t *sel;
	size_t c_sel;
	/* the objectives besides the tasks: a second view's piece has no
	 * pairs, targets or queries; a first view's draws its objectives'
	 * nodes (kind node xent: its labelled nodes; contrast, level node:
	 * the nodes drawn; mask: the nodes masked), and kind node rank the
	 * targets of its pairs (P x C) */
	int view2;
	struct pobj {
		int64_t R;
		int32_t *idx, *cls;
		real *y;
		size_t c_idx, c_cls, c_y;
	} po[OBJ_MAX];
};

struct tbuf { /* one per thread */
	mask_buf mb;
	struct featstage_ws fws;
	gsl_rng *rng;
};

struct bpriv {
	struct piece *pc;
	int cap_pc;
	struct tbuf *tb;
	int ntb;
	size_t c_off, c_X, c_rp, c_ci, c_av, c_pu, c_pv, c_y, c_u, c_ru, c_rv, c_R, c_s, c_soff,
	    c_q, c_qb, c_qn, c_qt;
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
	free(p->feat);
	free(p->rp);
	free(p->ci);
	free(p->av);
	free(p->pu);
	free(p->pv);
	free(p->y);
	free(p->uidx);
	free(p->ru);
	free(p->rv);
	free(p->pos);
	free(p->R);
	free(p->sidx);
	free(p->cmap);
	free(p->cnt);
	free(p->qidx);
	free(p->qtgt);
	free(p->sel);
	graph_free(&p->seen);
	for (int i = 0; i < OBJ_MAX; i++) {
		free(p->po[i].idx);
		free(p->po[i].cls);
		free(p->po[i].y);
	}
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
			featstage_ws_free(&bp->tb[i].fws);
			if (bp->tb[i].rng)
				gsl_rng_free(bp->tb[i].rng);
		}
		free(bp->tb);
		free(bp);
	}
	free(b->off);
	free(b->X);
	free(b->rp);
	free(b->ci);
	free(b->av);
	free(b->pu);
	free(b->pv);
	free(b->y);
	free(b->uidx);
	free(b->ru);
	free(b->rv);
	free(b->R);
	free(b->sidx);
	free(b->soff);
	free(b->qidx);
	free(b->qbeg);
	free(b->qnum);
	free(b->qtgt);
	for (int i = 0; i < OBJ_MAX; i++) {
		free(b->ob[i].idx);
		free(b->ob[i].cls);
		free(b->ob[i].pos);
		free(b->ob[i].y);
		free(b->ob[i].seg);
	}
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

/* Room for P pairs in the piece. */
static void
piece_pairs_grow(struct piece *p)
{
	grow(&p->pu, &p->c_pu, (size_t)p->P + 1, sizeof *p->pu);
	grow(&p->pv, &p->c_pv, (size_t)p->P + 1, sizeof *p->pv);
	grow(&p->y, &p->c_y, (size_t)p->P + 1, sizeof *p->y);
}

/* The pairs of graph lg (its own, if it comes masked; else masked now
 * with tb's generator) and the graph the model sees, in *gs.  Returns 0
 * or -1. */
static int
piece_pairs(struct piece *p, struct lgraph *lg, struct tbuf *tb, const struct batch_opts *o,
	    const graph **gs)
{
	if (lg->premasked) {
		*gs = &lg->g;
		p->P = lg->npairs;
		piece_pairs_grow(p);
		memcpy(p->pu, lg->pu, (size_t)p->P * sizeof *p->pu);
		memcpy(p->pv, lg->pv, (size_t)p->P * sizeof *p->pv);
		memcpy(p->y, lg->plab, (size_t)p->P);
		return 0;
	}
	struct mask_opts mo;
	mask_opts_init(&mo);
	mo.fraction = o->mask_fraction;
	mo.npos = o->npos;
	mo.nneg = o->nneg;
	mo.want = MASK_CSR;
	if (mask_edges(&lg->g, tb->rng, &mo, &tb->mb) < 0)
		return -1;
	*gs = &tb->mb.g;
	p->P = tb->mb.npos + tb->mb.nneg;
	piece_pairs_grow(p);
	memcpy(p->pu, tb->mb.pu, (size_t)p->P * sizeof *p->pu);
	memcpy(p->pv, tb->mb.pv, (size_t)p->P * sizeof *p->pv);
	for (int64_t i = 0; i < p->P; i++)
		p->y[i] = i < tb->mb.npos;
	return 0;
}

/* The features of gs, the masked graph, the pos-th of the batch; a
 * feature stage that is called sees all the batch's graphs at once, after
 * this (call_features), and gets a copy of gs.  Returns 0, -1 (bad
 * options) or -2 (given features of a graph masked afresh). */
static int
piece_features(struct piece *p, const struct lgraph *lg, const graph *gs, int pos, struct tbuf *tb,
	       const struct batch_opts *o)
{
	int32_t n = lg->g.n;

	grow(&p->feat, &p->c_feat, (size_t)n * o->fs.F + 1, sizeof *p->feat);
	switch (o->fs.kind) {
	case FEAT_SRC_PAPER:
	case FEAT_SRC_RWSE:
	case FEAT_SRC_BOTH:
		if (featstage_graph(&o->fs, gs, pos, p->feat, &tb->fws) != 0)
			return -1;
		break;
	case FEAT_SRC_GIVEN:
		if (!lg->premasked || !lg->feat || lg->F != o->fs.F)
			return -2;
		memcpy(p->feat, lg->feat, (size_t)n * o->fs.F * sizeof *p->feat);
		break;
	case FEAT_SRC_CALL:
		graph_copy(&p->seen, gs);
		break;
	}
	return 0;
}

/* The distinct pair nodes (rank rows and cluster queries), ascending, and
 * the rank targets of each pair. */
static void
piece_ranks(struct piece *p, const struct lgraph *lg, const struct batch_opts *o)
{
	int32_t n = p->n;

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
}

/* Cluster support: a share of the nodes (drawn from tb's generator),
 * grouped by cluster, the clusters present numbered in order. */
static void
piece_support(struct piece *p, const struct lgraph *lg, struct tbuf *tb, const struct batch_opts *o)
{
	int32_t n = p->n;
	int K = lg->K;

	grow(&p->sel, &p->c_sel, (size_t)n + 1, 1);
	grow(&p->cnt, &p->c_cnt, (size_t)K + 2, sizeof *p->cnt);
	grow(&p->cmap, &p->c_cmap, (size_t)K + 1, sizeof *p->cmap);
	if (K == 0) { /* a graph the cluster task leaves out (train_data.h) */
		p->K = 0;
		p->Ns = 0;
		p->cnt[0] = 0;
		return;
	}
	memset(p->cnt, 0, ((size_t)K + 2) * sizeof *p->cnt);
	for (int32_t v = 0; v < n; v++) {
		p->sel[v] =
		    o->support_fraction >= 1 || gsl_rng_uniform(tb->rng) < o->support_fraction;
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
}

/* Queries: distinct pair nodes whose cluster is in the support. */
static void
piece_queries(struct piece *p, const struct lgraph *lg)
{
	grow(&p->qidx, &p->c_q, (size_t)p->U + 1, sizeof *p->qidx);
	grow(&p->qtgt, &p->c_qt, (size_t)p->U + 1, sizeof *p->qtgt);
	p->Q = 0;
	for (int64_t i = 0; i < p->U && lg->K > 0; i++) {
		int32_t v = p->uidx[i], c = p->cmap[lg->cluster[v]];
		if (c < 0)
			continue;
		p->qidx[p->Q] = v;
		p->qtgt[p->Q++] = c;
	}
}

/* k of the n nodes 0..n-1, in order, drawn from tb's generator, into
 * *idx (grown); k >= n takes them all. */
static int64_t
draw_nodes(int32_t **idx, size_t *cap, int32_t n, int64_t k, struct tbuf *tb)
{
	if (k > n)
		k = n;
	grow(idx, cap, (size_t)n + 1, sizeof **idx);
	for (int32_t v = 0; v < n; v++)
		(*idx)[v] = v;
	if (k < n) /* in place: gsl_ran_choose() reads src ahead of dest */
		gsl_ran_choose(tb->rng, *idx, (size_t)k, *idx, (size_t)n, sizeof **idx);
	return k;
}

/* What the objectives besides the tasks draw or take of graph lg, after
 * the tasks' draws from the same generator (so those do not change):
 * see struct pobj. */
static void
piece_objectives(struct piece *p, const struct lgraph *lg, struct tbuf *tb,
		 const struct batch_opts *o)
{
	int32_t n = p->n;

	for (int i = 0; i < o->nobj; i++) {
		const struct objective *ob = &o->obj[i];
		struct pobj *q = &p->po[i];
		const double *t = lg->tg[i].v;
		int C = lg->tg[i].C;
		q->R = 0;
		if (ob->kind == OBJ_NODE && ob->loss == OBJ_XENT) {
			grow(&q->idx, &q->c_idx, (size_t)n + 1, sizeof *q->idx);
			grow(&q->cls, &q->c_cls, (size_t)n + 1, sizeof *q->cls);
			for (int32_t v = 0; v < n; v++)
				if (t[v] >= 0) {
					q->idx[q->R] = v;
					q->cls[q->R++] = (int32_t)t[v];
				}
		} else if (ob->kind == OBJ_NODE && ob->loss == OBJ_RANK) {
			grow(&q->y, &q->c_y, (size_t)p->P * C + 1, sizeof *q->y);
			for (int64_t j = 0; j < p->P; j++)
				for (int c = 0; c < C; c++)
					q->y[j * C + c] =
					    rank_target(t[(int64_t)p->pu[j] * C + c],
							t[(int64_t)p->pv[j] * C + c], o->tie_rtol);
		} else if (ob->kind == OBJ_CONTRAST && ob->level == OBJ_LEVEL_NODE) {
			q->R = draw_nodes(&q->idx, &q->c_idx, n, ob->nodes, tb);
		} else if (ob->kind == OBJ_MASK) {
			int64_t k = (int64_t)floor(ob->rate * n + 0.5);
			q->R = draw_nodes(&q->idx, &q->c_idx, n, k < 1 ? 1 : k, tb);
		}
	}
}

/* Graph lg's second view, the pos-th graph of the batch (a contrast):
 * the graph with a share drop of its edges removed, drawn from a stream
 * of its own, (seed, step, graph id, 2); its features and Â; no pairs,
 * targets or queries.  Returns 0, or -1 or -2 (piece_features). */
static int
piece_view2(struct piece *p, struct lgraph *lg, int pos, struct tbuf *tb, uint64_t seed,
	    uint64_t step, const struct batch_opts *o)
{
	struct mask_opts mo;
	int32_t n = lg->g.n;
	int rc;

	rng_reseed(tb->rng, seed, rng_mix(rng_mix(step, (uint64_t)lg->id), 2));
	mask_opts_init(&mo);
	mo.fraction = 0;
	for (int i = 0; i < o->nobj; i++)
		if (o->obj[i].kind == OBJ_CONTRAST)
			mo.fraction = o->obj[i].drop;
	mo.npos = mo.nneg = 0;
	mo.want = MASK_CSR;
	if (mask_edges(&lg->g, tb->rng, &mo, &tb->mb) < 0)
		return -1;
	p->n = n;
	p->view2 = 1;
	p->P = p->U = p->Ns = p->Q = 0;
	p->K = 0;
	for (int i = 0; i < o->nobj; i++)
		p->po[i].R = 0;
	if ((rc = piece_features(p, lg, &tb->mb.g, pos, tb, o)) != 0)
		return rc;
	p->nnz = 2 * tb->mb.g.m + n;
	grow(&p->rp, &p->c_rp, (size_t)n + 1, sizeof *p->rp);
	grow(&p->ci, &p->c_ci, (size_t)p->nnz + 1, sizeof *p->ci);
	grow(&p->av, &p->c_av, (size_t)p->nnz + 1, sizeof *p->av);
	p->rp[n] = adj_rows(&tb->mb.g, 0, 0, p->rp, p->ci, p->av);
	return 0;
}

/* Mask graph lg, the pos-th of the batch, and fill its piece: pairs,
 * features, Â = D^-1/2 (A + I) D^-1/2 of the masked graph, rank targets,
 * cluster support and queries, drawing from tb's generator reseeded for
 * (seed, step, graph id).  Returns 0, or -1 or -2 (piece_features). */
static int
piece_build(struct piece *p, struct lgraph *lg, int pos, struct tbuf *tb, uint64_t seed,
	    uint64_t step, const struct batch_opts *o)
{
	const graph *gs; /* the graph the model sees */
	int32_t n = lg->g.n;
	int rc;

	rng_reseed(tb->rng, seed, rng_mix(step, (uint64_t)lg->id));
	p->n = n;
	p->view2 = 0;
	if (piece_pairs(p, lg, tb, o, &gs) < 0)
		return -1;
	if ((rc = piece_features(p, lg, gs, pos, tb, o)) != 0)
		return rc;
	p->nnz = 2 * gs->m + n;
	grow(&p->rp, &p->c_rp, (size_t)n + 1, sizeof *p->rp);
	grow(&p->ci, &p->c_ci, (size_t)p->nnz + 1, sizeof *p->ci);
	grow(&p->av, &p->c_av, (size_t)p->nnz + 1, sizeof *p->av);
	p->rp[n] = adj_rows(gs, 0, 0, p->rp, p->ci, p->av);
	piece_ranks(p, lg, o);
	piece_support(p, lg, tb, o);
	piece_queries(p, lg);
	piece_objectives(p, lg, tb, o);
	return 0;
}

void
batch_pair_counts(struct lgraph *const *gs, int64_t G, const struct batch_opts *o, int64_t *pos,
		  int64_t *neg)
{
	*pos = *neg = 0;
	for (int64_t i = 0; i < G; i++) {
		const struct lgraph *lg = gs[i];
		if (lg->premasked) {
			int64_t p = 0;
			for (int64_t j = 0; j < lg->npairs; j++)
				p += lg->plab[j] != 0;
			*pos += p;
			*neg += lg->npairs - p;
			continue;
		}
		int64_t n = lg->g.n, m = lg->g.m, r = mask_count(o->mask_fraction, m),
			nonedges = n * (n - 1) / 2 - m;
		*pos += o->npos < r ? o->npos : r;
		*neg += o->nneg < nonedges ? o->nneg : nonedges;
	}
}

/* A thread buffer per thread and a piece per graph, kept between calls. */
static void
batch_room(struct bpriv *bp, int G)
{
	int nth = 1;
#ifdef _OPENMP
	nth = omp_get_max_threads();
#endif
	if (bp->ntb < nth) {
		bp->tb = xreallocarray(bp->tb, (size_t)nth, sizeof *bp->tb);
		for (int i = bp->ntb; i < nth; i++) {
			mask_buf_init(&bp->tb[i].mb);
			featstage_ws_init(&bp->tb[i].fws);
			bp->tb[i].rng = rng_new(0, 0);
		}
		bp->ntb = nth;
	}
	if (bp->cap_pc < G) {
		bp->pc = xreallocarray(bp->pc, (size_t)G, sizeof *bp->pc);
		memset(bp->pc + bp->cap_pc, 0, (size_t)(G - bp->cap_pc) * sizeof *bp->pc);
		bp->cap_pc = G;
	}
}

/* The pieces of the G graphs, in parallel, and with a second view (GT =
 * 2 G) pieces G..GT-1, the second views of graphs 0..G-1; an error names
 * the first graph that failed.  Returns 0 or -1 (msg). */
static int
build_pieces(struct bpriv *bp, struct lgraph *const *gs, int G, int GT, uint64_t seed,
	     uint64_t step, const struct batch_opts *o, char *msg, size_t msglen)
{
	int bad = -1, why = 0;
#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < GT; i++) {
		int th = 0;
#ifdef _OPENMP
		th = omp_get_thread_num();
#endif
		int rc = i < G ? piece_build(&bp->pc[i], gs[i], i, &bp->tb[th], seed, step, o)
			       : piece_view2(&bp->pc[i], gs[i - G], i, &bp->tb[th], seed, step, o);
		if (rc < 0) {
#pragma omp critical
			if (bad < 0 || i < bad) {
				bad = i;
				why = rc;
			}
		}
	}
	if (bad >= 0) {
		snprintf(msg, msglen,
			 why == -2 ? "graph %lld: given features describe the "
				     "graph before masking, and it is masked afresh"
				   : "graph %lld: bad masking or feature options",
			 (long long)gs[bad % G]->id);
		return -1;
	}
	return 0;
}

/* A feature stage that is called: once, on the masked graphs of all the
 * pieces.  Returns 0 or -1 (msg). */
static int
call_features(struct bpriv *bp, int G, const struct batch_opts *o, char *msg, size_t msglen)
{
	const graph **sg = xmallocarray((size_t)G, sizeof *sg);
	double **fp = xmallocarray((size_t)G, sizeof *fp);
	int rc;

	for (int i = 0; i < G; i++) {
		sg[i] = &bp->pc[i].seen;
		fp[i] = bp->pc[i].feat;
	}
	rc = featstage_graphs(&o->fs, sg, G, fp, msg, msglen);
	free(sg);
	free(fp);
	return rc != 0 ? -1 : 0;
}

/* The offsets of each piece in the concatenation (at[i]: nodes, entries,
 * pairs, pair nodes, support nodes, clusters, queries before piece i),
 * the batch's sizes and room for its arrays.  Returns 0 or -1 (msg: a
 * batch past the range of int32). */
static int
batch_size(batch *b, struct bpriv *bp, int G, int64_t (*at)[7], const struct batch_opts *o,
	   char *msg, size_t msglen)
{
	int64_t N = 0, nnz = 0, P = 0, U = 0, Ns = 0, ncl = 0, Q = 0;
	int kmax = 1;

	for (int i = 0; i < G; i++) {
		struct piece *p = &bp->pc[i];
		int64_t v[7] = { N, nnz, P, U, Ns, ncl, Q };
		memcpy(at[i], v, sizeof v);
		N += p->n;
		nnz += p->nnz;
		P += p->P;
		U += p->U;
		Ns += p->Ns;
		ncl += p->K;
		Q += p->Q;
		if (p->K > kmax)
			kmax = p->K;
	}
	if (N > INT32_MAX || nnz > INT32_MAX || P > INT32_MAX) {
		snprintf(msg, msglen, "batch too large (%lld nodes)", (long long)N);
		return -1;
	}
	b->G = G;
	b->N = N;
	b->P = P;
	b->U = U;
	b->Ns = Ns;
	b->ncl = ncl;
	b->Q = Q;
	b->kmax = kmax;
	grow(&b->off, &bp->c_off, (size_t)G + 1, sizeof *b->off);
	b->F = o->fs.F;
	grow(&b->X, &bp->c_X, (size_t)N * b->F + 1, sizeof *b->X);
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
	return 0;
}

/* Piece p into the batch at its offsets at (batch_size): node ids, rows,
 * pairs, pair nodes, support and queries shifted by what comes before. */
static void
piece_copy(batch *b, const struct piece *p, const int64_t at[7])
{
	int64_t n0 = at[0], e0 = at[1], p0 = at[2], u0 = at[3], s0 = at[4], c0 = at[5], q0 = at[6];

	for (int64_t j = 0; j < (int64_t)p->n * b->F; j++)
		b->X[n0 * b->F + j] = (real)p->feat[j];
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
	if (p->P) /* a second view's piece has no pairs (and no R) */
		memcpy(b->R + p0 * MODEL_NCENT, p->R, (size_t)p->P * MODEL_NCENT * sizeof *p->R);
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

/* Whether the objectives of o need a second view of every graph. */
static int
batch_views(const struct batch_opts *o)
{
	for (int i = 0; i < o->nobj; i++)
		if (o->obj[i].kind == OBJ_CONTRAST)
			return 1;
	return 0;
}

/* A target standardised by its column's mean and deviation (none: as is). */
static real
standard(double x, const double *mu, const double *sd, int c)
{
	return mu ? (real)((x - mu[c]) / sd[c]) : (real)x;
}

/* Objective i's rows and targets in the batch (struct bobj), from the
 * pieces of the first view (their offsets at[g]) and the graphs gs. */
static void
batch_objective(batch *b, int i, const struct bpriv *bp, struct lgraph *const *gs,
		const int64_t (*at)[7], const struct batch_opts *o)
{
	const struct objective *ob = &o->obj[i];
	struct bobj *q = &b->ob[i];
	int G1 = b->G1, C = gs[0]->tg[i].C;
	int64_t R = 0;

	for (int g = 0; g < G1; g++)
		R += bp->pc[g].po[i].R;
	q->R = R;
	q->nseg = 0;
	if (ob->kind == OBJ_NODE && ob->loss == OBJ_MSE) {
		q->R = b->N1;
		grow(&q->y, &q->c_y, (size_t)b->N1 * C + 1, sizeof *q->y);
		for (int g = 0; g < G1; g++)
			for (int64_t j = 0; j < (int64_t)gs[g]->g.n * C; j++)
				q->y[b->off[g] * C + j] =
				    standard(gs[g]->tg[i].v[j], o->mu[i], o->sd[i], (int)(j % C));
	} else if (ob->kind == OBJ_NODE && ob->loss == OBJ_RANK) {
		grow(&q->y, &q->c_y, (size_t)b->P * C + 1, sizeof *q->y);
		for (int g = 0; g < G1; g++)
			if (bp->pc[g].P)
				memcpy(q->y + at[g][2] * C, bp->pc[g].po[i].y,
				       (size_t)bp->pc[g].P * C * sizeof *q->y);
	} else if (ob->kind == OBJ_GRAPH) {
		grow(&q->y, &q->c_y, (size_t)G1 * C + 1, sizeof *q->y);
		for (int g = 0; g < G1; g++)
			for (int c = 0; c < C; c++)
				q->y[(int64_t)g * C + c] =
				    standard(gs[g]->tg[i].v[c], o->mu[i], o->sd[i], c);
	} else if (ob->kind == OBJ_NODE || ob->kind == OBJ_MASK || ob->level == OBJ_LEVEL_NODE) {
		/* drawn or labelled rows: node xent, contrast level node, mask */
		int two = ob->kind == OBJ_CONTRAST; /* the rows again in the second view */
		int64_t r = 0;
		grow(&q->idx, &q->c_idx, (size_t)(two + 1) * R + 1, sizeof *q->idx);
		grow(&q->cls, &q->c_cls, (size_t)R + 1, sizeof *q->cls);
		grow(&q->pos, &q->c_pos, (size_t)(two + 1) * R + 1, sizeof *q->pos);
		grow(&q->seg, &q->c_seg, (size_t)G1 + 2, sizeof *q->seg);
		for (int g = 0; g < G1; g++) {
			const struct pobj *pq = &bp->pc[g].po[i];
			q->seg[g] = r;
			for (int64_t j = 0; j < pq->R; j++, r++) {
				q->idx[r] = (int32_t)(b->off[g] + pq->idx[j]);
				if (ob->kind == OBJ_NODE)
					q->cls[r] = pq->cls[j];
				if (two) {
					q->idx[r + pq->R] = (int32_t)(b->off[G1 + g] + pq->idx[j]);
					q->pos[r] = (int32_t)(r + pq->R);
					q->pos[r + pq->R] = (int32_t)r;
				}
			}
			r += two * pq->R;
		}
		q->seg[G1] = r;
		q->nseg = G1;
		q->R = r;
	}
	if (ob->kind == OBJ_MASK) { /* the inputs standardised over the first view */
		int64_t F = b->F;
		double *mu = xcalloc((size_t)F, sizeof *mu), *sd = xcalloc((size_t)F, sizeof *sd);
		for (int64_t v = 0; v < b->N1; v++)
			for (int64_t c = 0; c < F; c++)
				mu[c] += b->X[v * F + c];
		for (int64_t c = 0; c < F; c++)
			mu[c] /= (double)b->N1;
		for (int64_t v = 0; v < b->N1; v++)
			for (int64_t c = 0; c < F; c++) {
				double e = b->X[v * F + c] - mu[c];
				sd[c] += e * e;
			}
		for (int64_t c = 0; c < F; c++) /* a constant column: zeros */
			sd[c] = sd[c] > 0 ? sqrt(sd[c] / (double)b->N1) : 1;
		grow(&q->y, &q->c_y, (size_t)(q->R * F) + 1, sizeof *q->y);
		for (int64_t r = 0; r < q->R; r++)
			for (int64_t c = 0; c < F; c++)
				q->y[r * F + c] =
				    (real)((b->X[(int64_t)q->idx[r] * F + c] - mu[c]) / sd[c]);
		free(mu);
		free(sd);
	}
}

int
batch_build(batch *b, struct lgraph *const *gs, int G, uint64_t seed, uint64_t step,
	    const struct batch_opts *o, char *msg, size_t msglen)
{
	struct bpriv *bp = b->priv;
	int GT = batch_views(o) ? 2 * G : G; /* the pieces, second views included */
	int64_t(*at)[7];

	batch_room(bp, GT);
	if (build_pieces(bp, gs, G, GT, seed, step, o, msg, msglen) != 0)
		return -1;
	if (o->fs.kind == FEAT_SRC_CALL && call_features(bp, GT, o, msg, msglen) != 0)
		return -1;
	at = xmallocarray((size_t)GT + 1, sizeof *at);
	if (batch_size(b, bp, GT, at, o, msg, msglen) != 0) {
		free(at);
		return -1;
	}
	b->G1 = G;
	b->N1 = GT > G ? b->off[G] : b->N;
#pragma omp parallel for schedule(dynamic, 1)
	for (int i = 0; i < GT; i++)
		piece_copy(b, &bp->pc[i], at[i]);
	for (int i = 0; i < o->nobj; i++)
		batch_objective(b, i, bp, gs, at, o);
	free(at);
	return 0;
}

int
batch_plain(batch *b, const graph *const *gs, int G, const struct feat_src *fs,
	    double *const *given, char *msg, size_t msglen)
{
	struct bpriv *bp = b->priv;
	int64_t N = 0, nnz = 0, F = fs->F;
	struct featstage_ws ws;
	double **feat;
	int rc = 0;

	for (int i = 0; i < G; i++) {
		N += gs[i]->n;
		nnz += 2 * gs[i]->m + gs[i]->n;
	}
	if (N > INT32_MAX || nnz > INT32_MAX) {
		snprintf(msg, msglen, "graphs too large (%lld nodes)", (long long)N);
		return -1;
	}
	/* each graph's features: computed, given, or from the stage called */
	feat = xcalloc((size_t)G, sizeof *feat);
	featstage_ws_init(&ws);
	for (int i = 0; i < G && rc == 0; i++) {
		if (fs->kind == FEAT_SRC_GIVEN) {
			feat[i] = given[i];
			continue;
		}
		feat[i] = xmallocarray((size_t)gs[i]->n * F + 1, sizeof **feat);
		/* a called stage fills them after the loop; the rest are built in */
		if (fs->kind != FEAT_SRC_CALL && featstage_graph(fs, gs[i], i, feat[i], &ws) != 0) {
			snprintf(msg, msglen, "bad built-in feature options (scaling %d, width %d)",
				 fs->scale, fs->F);
			rc = -1;
		}
	}
	featstage_ws_free(&ws);
	if (rc == 0)
		rc = featstage_graphs(fs, gs, G, feat, msg, msglen);
	if (rc == 0) {
		b->P = b->U = b->Ns = b->ncl = b->Q = 0; /* no pairs, no clusters */
		b->G = G;
		b->N = N;
		b->F = (int)F;
		b->kmax = 1;
		grow(&b->off, &bp->c_off, (size_t)G + 1, sizeof *b->off);
		grow(&b->X, &bp->c_X, (size_t)N * F + 1, sizeof *b->X);
		grow(&b->rp, &bp->c_rp, (size_t)N + 1, sizeof *b->rp);
		grow(&b->ci, &bp->c_ci, (size_t)nnz + 1, sizeof *b->ci);
		grow(&b->av, &bp->c_av, (size_t)nnz + 1, sizeof *b->av);
		int64_t n0 = 0, e = 0;
		for (int i = 0; i < G; i++) {
			const graph *g = gs[i];
			b->off[i] = n0;
			for (int64_t j = 0; j < (int64_t)g->n * F; j++)
				b->X[n0 * F + j] = (real)feat[i][j];
			e = adj_rows(g, (int32_t)n0, e, b->rp + n0, b->ci, b->av);
			n0 += g->n;
		}
		b->off[G] = N;
		b->rp[N] = e;
		b->G1 = G;
		b->N1 = N;
		for (int i = 0; i < OBJ_MAX; i++)
			b->ob[i].R = 0;
	}
	for (int i = 0; fs->kind != FEAT_SRC_GIVEN && i < G; i++)
		free(feat[i]);
	free(feat);
	return rc;
}

/* ------------------------------------------------------------------ */
/* a batch cut by graph */

/* The first i in [lo, hi) with key(i) >= v, keys ascending: the start of a
 * graph's rows in an array of node ids grouped by graph. */
static int64_t
first_at(const int32_t *ids, int64_t lo, int64_t hi, int64_t v)
{
	while (lo < hi && ids[lo] < v)
		lo++;
	return lo;
}

#define TAKE(dst, src, n) \
	do { \
		(dst) = xreallocarray((dst), (size_t)(n) + 1, sizeof *(dst)); \
		memcpy((dst), (src), (size_t)(n) * sizeof *(dst)); \
	} while (0)

void
batch_graph(batch *out, const batch *b, int g)
{
	int64_t n0 = b->off[g], n1 = b->off[g + 1], n = n1 - n0;
	int64_t e0 = b->rp[n0], e1 = b->rp[n1];
	/* pairs, rank rows, support rows and queries come graph by graph, each
	 * graph's among its own nodes */
	int64_t p0 = first_at(b->pu, 0, b->P, n0), p1 = first_at(b->pu, p0, b->P, n1);
	int64_t u0 = first_at(b->uidx, 0, b->U, n0), u1 = first_at(b->uidx, u0, b->U, n1);
	int64_t s0 = first_at(b->sidx, 0, b->Ns, n0), s1 = first_at(b->sidx, s0, b->Ns, n1);
	int64_t q0 = first_at(b->qidx, 0, b->Q, n0), q1 = first_at(b->qidx, q0, b->Q, n1);
	int64_t c0 = 0, c1;

	/* clusters: each has a support row, so its first row tells its graph */
	while (c0 < b->ncl && b->soff[c0] < s0)
		c0++;
	c1 = c0;
	while (c1 < b->ncl && b->soff[c1] < s1)
		c1++;

	out->G = 1;
	out->N = n;
	out->F = b->F;
	out->off = xreallocarray(out->off, 2, sizeof *out->off);
	out->off[0] = 0;
	out->off[1] = n;
	TAKE(out->X, b->X + n0 * b->F, n * b->F);
	TAKE(out->rp, b->rp + n0, n + 1);
	TAKE(out->ci, b->ci + e0, e1 - e0);
	TAKE(out->av, b->av + e0, e1 - e0);
	for (int64_t v = 0; v <= n; v++)
		out->rp[v] -= e0;
	for (int64_t e = 0; e < e1 - e0; e++)
		out->ci[e] -= (int32_t)n0;

	out->P = p1 - p0;
	TAKE(out->pu, b->pu + p0, out->P);
	TAKE(out->pv, b->pv + p0, out->P);
	TAKE(out->y, b->y + p0, out->P);
	TAKE(out->ru, b->ru + p0, out->P);
	TAKE(out->rv, b->rv + p0, out->P);
	TAKE(out->R, b->R + p0 * MODEL_NCENT, out->P * MODEL_NCENT);
	for (int64_t i = 0; i < out->P; i++) {
		out->pu[i] -= (int32_t)n0;
		out->pv[i] -= (int32_t)n0;
		out->ru[i] -= (int32_t)u0;
		out->rv[i] -= (int32_t)u0;
	}
	out->U = u1 - u0;
	TAKE(out->uidx, b->uidx + u0, out->U);
	for (int64_t i = 0; i < out->U; i++)
		out->uidx[i] -= (int32_t)n0;

	out->Ns = s1 - s0;
	out->ncl = c1 - c0;
	out->kmax = out->ncl > 1 ? (int)out->ncl : 1;
	TAKE(out->sidx, b->sidx + s0, out->Ns);
	TAKE(out->soff, b->soff + c0, out->ncl);
	out->soff[out->ncl] = out->Ns;
	for (int64_t i = 0; i < out->Ns; i++)
		out->sidx[i] -= (int32_t)n0;
	for (int64_t c = 0; c < out->ncl; c++)
		out->soff[c] -= s0;

	out->Q = q1 - q0;
	TAKE(out->qidx, b->qidx + q0, out->Q);
	TAKE(out->qbeg, b->qbeg + q0, out->Q);
	TAKE(out->qnum, b->qnum + q0, out->Q);
	TAKE(out->qtgt, b->qtgt + q0, out->Q);
	for (int64_t i = 0; i < out->Q; i++) {
		out->qidx[i] -= (int32_t)n0;
		out->qbeg[i] -= (int32_t)c0;
	}
}
