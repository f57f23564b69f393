/*
 * train_val.c - gcn-train's validation scores: the AUC of link
 * reconstruction, the ranking and cluster accuracies, each task's loss.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "dstep.h"
#include "err.h"
#include "objhead.h"
#include "train_val.h"

#define VAL_STEP UINT64_MAX /* masking stream of the validation set */

struct pairscore {
	real z;
	int y;
};

static int
cmp_ps(const void *a, const void *b)
{
	real x = ((const struct pairscore *)a)->z, y = ((const struct pairscore *)b)->z;
	return (x > y) - (x < y);
}

/* Area under the ROC curve, ties counted half (Mann-Whitney). */
static double
auc(struct pairscore *ps, int64_t n)
{
	double rs = 0;
	int64_t np = 0;
	qsort(ps, (size_t)n, sizeof *ps, cmp_ps);
	for (int64_t i = 0; i < n;) {
		int64_t j = i;
		while (j < n && ps[j].z == ps[i].z)
			j++;
		double r = (double)(i + j + 1) / 2; /* mean 1-based rank */
		for (int64_t k = i; k < j; k++)
			if (ps[k].y) {
				rs += r;
				np++;
			}
		i = j;
	}
	int64_t nn = n - np;
	if (np == 0 || nn == 0)
		return 0.5;
	return (rs - (double)np * (double)(np + 1) / 2) / ((double)np * (double)nn);
}

/* What validation adds up: the pair logits, the ranking and cluster
 * counts, each batch's losses. */
struct vtally {
	struct pairscore *ps;
	int64_t nps, cps, rq[MODEL_NCENT], cq, ccorr;
	double rok[MODEL_NCENT], lsum[NTASK];
	/* the objectives besides the tasks: their stats and losses summed */
	double ostat[OBJ_MAX][4], olsum[OBJ_MAX];
	int nb;
};

/* Add one pair's logit z and label y. */
static void
tally_pair(struct vtally *v, real z, int y)
{
	if (v->nps == v->cps) {
		v->cps = v->cps ? 2 * v->cps : 1024;
		v->ps = xreallocarray(v->ps, (size_t)v->cps, sizeof *v->ps);
	}
	v->ps[v->nps].z = z;
	v->ps[v->nps++].y = y;
}

/* Add the ranking pairs of b, scored in o: rok counts sign agreements
 * (a zero score difference counts half) and rq the pairs that are not
 * ties, for each centrality. */
static void
tally_rank(double *rok, int64_t *rq, const batch *b, const struct mout *o)
{
	for (int64_t i = 0; i < b->P; i++)
		for (int t = 0; t < MODEL_NCENT; t++) {
			real tg = b->R[i * MODEL_NCENT + t];
			if (tg == (real)0.5)
				continue;
			real dz = o->rank_S[(int64_t)b->ru[i] * MODEL_NCENT + t] -
				  o->rank_S[(int64_t)b->rv[i] * MODEL_NCENT + t];
			rok[t] += dz == 0 ? 0.5 : (dz > 0) == (tg > 0.5);
			rq[t]++;
		}
}

/* The scores of the tally for the tasks and objectives of c: the mean of
 * every one's score; frees its logits. */
static void
tally_scores(struct vtally *v, const struct model_cfg *c, struct val_scores *sc)
{
	int nt = 0, tasks = c->tasks;

	memset(sc, 0, sizeof *sc);
	for (int t = 0; t < NTASK; t++)
		sc->loss[t] = v->nb ? v->lsum[t] / v->nb : 0;
	if (tasks & 1 << TASK_REC) {
		sc->auc = auc(v->ps, v->nps);
		sc->score += sc->auc;
		nt++;
	}
	if (tasks & 1 << TASK_RANK) {
		for (int t = 0; t < MODEL_NCENT; t++) {
			sc->rank[t] = v->rq[t] ? v->rok[t] / (double)v->rq[t] : 0.5;
			sc->rank_mean += sc->rank[t] / MODEL_NCENT;
		}
		sc->score += sc->rank_mean;
		nt++;
	}
	if (tasks & 1 << TASK_CLUSTER) {
		sc->cluster = v->cq ? (double)v->ccorr / (double)v->cq : 0;
		sc->score += sc->cluster;
		nt++;
	}
	for (int i = 0; i < c->nobj; i++) {
		sc->obj[i] = ohead_score(&c->obj[i], v->ostat[i]);
		sc->obj_loss[i] = v->nb ? v->olsum[i] / v->nb : 0;
		sc->score += sc->obj[i];
		nt++;
	}
	sc->score /= nt;
	free(v->ps);
	v->ps = NULL;
}

int
train_validate(model *M, struct lgraph **vg, int64_t nv, int B, uint64_t seed,
	       const struct batch_opts *bo, batch *b, mws *w, const volatile sig_atomic_t *stop,
	       struct val_scores *sc)
{
	int tasks = M->cfg.tasks;
	struct vtally v;
	char msg[256];

	memset(&v, 0, sizeof v);
	for (int64_t i0 = 0; i0 < nv; i0 += B, v.nb++) {
		int G = (int)(nv - i0 < B ? nv - i0 : B);
		struct mout o;
		if (batch_build(b, vg + i0, G, seed, VAL_STEP, bo, msg, sizeof msg) != 0) {
			if (*stop) {
				free(v.ps);
				return -1;
			}
			die("validation: %s", msg);
		}
		model_step(M, b, w, 0, &o);
		for (int t = 0; t < NTASK; t++)
			v.lsum[t] += o.loss[t];
		if (tasks & 1 << TASK_REC)
			for (int64_t i = 0; i < b->P; i++)
				tally_pair(&v, o.rec_logit[i], b->y[i] > 0);
		if (tasks & 1 << TASK_RANK)
			tally_rank(v.rok, v.rq, b, &o);
		if (tasks & 1 << TASK_CLUSTER) {
			v.ccorr += o.clu_correct;
			v.cq += b->Q;
		}
		for (int i = 0; i < M->cfg.nobj; i++) {
			for (int k = 0; k < 4; k++)
				v.ostat[i][k] += o.ostat[i][k];
			v.olsum[i] += o.oloss[i];
		}
	}
	tally_scores(&v, &M->cfg, sc);
	return 0;
}

/* A validation graph's numbers in train_validate_by_graph(): its losses (the
 * means over its own items), pairs, queries, ranking counts, right
 * cluster answers. */
enum {
	VG_LOSS = 0,
	VG_P = NTASK,
	VG_Q,
	VG_ROK,
	VG_RQ = VG_ROK + MODEL_NCENT,
	VG_CC = VG_RQ + MODEL_NCENT,
	VG_N
};

/*
 * Rank 0's tally of the gathered numbers of all nv graphs: gr (nv x VG_N),
 * their pair logits z and labels y, graph i's at at[i]..at[i + 1] - 1.  A
 * batch of B graphs has as its loss the mean over its items of its
 * graphs' losses, as train_validate()'s.
 */
static void
tally_gathered(struct vtally *v, const double *gr, const double *z, const double *y,
	       const int64_t *at, int nv, int B)
{
	memset(v, 0, sizeof *v);
	for (int i0 = 0; i0 < nv; i0 += B, v->nb++)
		for (int k = 0; k < NTASK; k++) {
			double num = 0, den = 0;
			for (int i = i0; i < nv && i < i0 + B; i++) {
				const double *r = gr + (int64_t)i * VG_N;
				double cnt = r[k == TASK_CLUSTER ? VG_Q : VG_P];
				num += r[VG_LOSS + k] * cnt;
				den += cnt;
			}
			v->lsum[k] += den > 0 ? num / den : 0;
		}
	for (int64_t k = 0; k < at[nv]; k++)
		tally_pair(v, (real)z[k], y[k] > 0);
	for (int i = 0; i < nv; i++) {
		const double *r = gr + (int64_t)i * VG_N;
		for (int k = 0; k < MODEL_NCENT; k++) {
			v->rok[k] += r[VG_ROK + k];
			v->rq[k] += (int64_t)r[VG_RQ + k];
		}
		v->ccorr += (int64_t)r[VG_CC];
		v->cq += (int64_t)r[VG_Q];
	}
}

int
train_validate_by_graph(model *M, struct lgraph **vg, int nv, int B, uint64_t seed,
			const struct batch_opts *bo, batch *b, batch *one, mws *w,
			const volatile sig_atomic_t *stop, struct val_scores *sc)
{
	int tasks = M->cfg.tasks, me = dist_rank(), n = 0, rc = 0;
	int *rank_of = xmallocarray((size_t)nv, sizeof *rank_of),
	    *idx = xmallocarray((size_t)nv, sizeof *idx);
	struct lgraph **mine = xmallocarray((size_t)nv, sizeof *mine);
	double *gr = xcalloc((size_t)nv * VG_N, sizeof *gr), *z = NULL, *y = NULL;
	float *lz = NULL, *ly = NULL; /* this rank's logits and labels, its graphs in order */
	int64_t nlz = 0, *at = xcalloc((size_t)nv + 1, sizeof *at);
	struct vtally v;
	char msg[256];
	int bad = 0;

	dstep_split(vg, nv, rank_of);
	for (int i = 0; i < nv; i++)
		if (rank_of[i] == me) {
			idx[n] = i;
			mine[n++] = vg[i];
		}
	for (int c0 = 0; c0 < n; c0 += B) {
		int G = n - c0 < B ? n - c0 : B;
		if ((bad =
			 batch_build(b, mine + c0, G, seed, VAL_STEP, bo, msg, sizeof msg) != 0)) {
			if (*stop && dist_size() == 1) { /* several: no handler */
				rc = -1;
				goto out;
			}
			break;
		}
		lz = xreallocarray(lz, (size_t)(nlz + b->P + 1), sizeof *lz);
		ly = xreallocarray(ly, (size_t)(nlz + b->P + 1), sizeof *ly);
		for (int j = 0; j < G; j++) {
			double *r = gr + (int64_t)idx[c0 + j] * VG_N;
			int64_t rq[MODEL_NCENT] = { 0 };
			struct mout o;
			batch_graph(one, b, j);
			model_step_part(M, one, w, 0, &o, NULL);
			for (int k = 0; k < NTASK; k++)
				r[VG_LOSS + k] = o.loss[k];
			r[VG_P] = (double)one->P;
			r[VG_Q] = (double)one->Q;
			if (tasks & 1 << TASK_REC)
				for (int64_t i = 0; i < one->P; i++) {
					lz[nlz] = o.rec_logit[i];
					ly[nlz++] = one->y[i] > 0;
				}
			if (tasks & 1 << TASK_RANK) {
				tally_rank(r + VG_ROK, rq, one, &o);
				for (int k = 0; k < MODEL_NCENT; k++)
					r[VG_RQ + k] = (double)rq[k];
			}
			r[VG_CC] = (double)o.clu_correct;
		}
	}
	char m[300] = "";
	if (bad)
		snprintf(m, sizeof m, "validation: %s", msg);
	dist_fail_if_any(bad, m);	/* one line from the rank that failed */
	dist_gather_f64(gr, nv * VG_N); /* integers and one value each: exact */
	/* the logits of every graph, in graph order */
	for (int i = 0; i < nv; i++)
		at[i + 1] =
		    at[i] + (tasks & 1 << TASK_REC ? (int64_t)gr[(int64_t)i * VG_N + VG_P] : 0);
	z = xcalloc((size_t)at[nv] + 1, sizeof *z);
	y = xcalloc((size_t)at[nv] + 1, sizeof *y);
	nlz = 0;
	for (int j = 0; j < n; j++)
		for (int64_t k = at[idx[j]]; k < at[idx[j] + 1]; k++) {
			z[k] = lz[nlz];
			y[k] = ly[nlz++];
		}
	dist_gather_f64(z, (int)at[nv]);
	dist_gather_f64(y, (int)at[nv]);
	if (me == 0) {
		tally_gathered(&v, gr, z, y, at, nv, B);
		tally_scores(&v, &M->cfg, sc);
	}
out:
	free(rank_of);
	free(idx);
	free(mine);
	free(gr);
	free(z);
	free(y);
	free(lz);
	free(ly);
	free(at);
	return rc;
}
