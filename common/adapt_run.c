/* adapt_run.c - gcn-adapt's runs and --predict's pass; see adapt_run.h. */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_run.h"
#include "auc.h"
#include "err.h"
#include "evalrun.h"
#include "gemm.h"
#include "nn.h"
#include "rng.h"
#include "train_settings.h"

/* link task: shares of the edges that are test, and validation of the rest */
#define LINK_TEST 0.2
#define LINK_VAL 0.1
#define FOLDS 10

/* ---- signals: the finished runs are kept ---- */

static const int stop_sigs[2] = { SIGINT, SIGTERM };
static struct sigaction stop_old[2];
static int stop_caught[2];
static volatile sig_atomic_t stop_signal;

static void
on_stop_signal(int sig)
{
	stop_signal = sig;
}

void
adapt_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	/* an ignored signal stays ignored (nohup, a launcher's choice) */
	for (int i = 0; i < 2; i++)
		stop_caught[i] = sigaction(stop_sigs[i], NULL, &stop_old[i]) == 0 &&
				 stop_old[i].sa_handler != SIG_IGN &&
				 sigaction(stop_sigs[i], &sa, NULL) == 0;
}

int
adapt_stop_signal(void)
{
	return stop_signal;
}

void
adapt_restore_signals(void)
{
	for (int i = 0; i < 2; i++)
		if (stop_caught[i])
			sigaction(stop_sigs[i], &stop_old[i], NULL);
	stop_caught[0] = stop_caught[1] = 0;
}

void
adapt_partial_record(gs_rec *rec, int done, int runs, int first_run, int sig)
{
	gs_rec_tensor(rec, 0, EVAL_PARTIAL_NAME, 1, 2, GS_I64, "runs_done,runs");
	((int64_t *)rec->data)[0] = done;
	((int64_t *)rec->data)[1] = runs;
	gs_attr_setf(rec, "runs_done", "%d", done);
	gs_attr_setf(rec, "runs", "%d", runs);
	gs_attr_setf(rec, "first_run", "%d", first_run);
	gs_attr_set(rec, "signal", sig == SIGINT ? "SIGINT" : "SIGTERM");
}

const char *const adapt_split_name[] = { "planetoid", "per-class", NULL };
const char *const adapt_head_name[] = { "gcn", "sage", "auto", NULL };

const char *const adapt_phase_name[NPH] = { "setup (input, model, buffers)",
					    "features + batch (per run)",
					    "frozen encoder part (per batch)",
					    "encoder forward + mix",
					    "head GCN, evaluation",
					    "link decoder, evaluation",
					    "evaluation scores, best copy",
					    "head GCN forward, training",
					    "link decoder, training",
					    "training loss",
					    "head GCN backward",
					    "mix + encoder backward",
					    "Adam (+ zeroing)" };

static void
decay_and_step(real *p, real *g, real *m, real *v, int64_t n, double lr, double wd, int64_t t)
{
#pragma omp simd
	for (int64_t i = 0; i < n; i++)
		g[i] += (real)(wd * p[i]);
	nn_adam_step(p, g, m, v, n, lr, 0.9, 0.999, 1e-8, t);
}

/* The mean L2 norm of the rows of X (n x k) that are not all zero; 0 if
 * every row is. */
static double
mean_row_norm(const real *X, int64_t n, int64_t k)
{
	double sum = 0;
	int64_t m = 0;
	for (int64_t i = 0; i < n; i++) {
		double q = 0;
		for (int64_t j = 0; j < k; j++)
			q += (double)X[i * k + j] * X[i * k + j];
		if (q > 0) {
			sum += sqrt(q);
			m++;
		}
	}
	return m ? sum / (double)m : 0;
}

/* Link prediction's pairs: the graph's m edges (items 0..m-1) stay, the
 * non-edges (items m..2m-1) are each run's. */
static void
linkpred_init(struct adapt *a)
{
	int64_t m = a->ds->g.m;
	char msg[512];

	/* a graph that cannot be split fails before any output */
	if (split_links_fit(a->ds->g.n, m, a->o->val_fraction, a->o->test_fraction, msg,
			    sizeof msg) != 0)
		die("graph %" PRId64 ": %s", a->ds->id, msg);
	a->pu = xmallocarray((size_t)a->NI, sizeof *a->pu);
	a->pv = xmallocarray((size_t)a->NI, sizeof *a->pv);
	a->sc = xmallocarray((size_t)a->NI, sizeof *a->sc);
	a->sy = xmallocarray((size_t)a->NI, sizeof *a->sy);
	memcpy(a->pu, a->ds->eu, (size_t)m * sizeof *a->pu);
	memcpy(a->pv, a->ds->ev, (size_t)m * sizeof *a->pv);
}

/* Link prediction: the AUC of the pairs idx[0..k) from their logits lg
 * (pairs x 2), each scored by its edge logit z_1 - z_0 (auc.h). */
static double
pair_auc(struct adapt *a, const real *lg, const int32_t *idx, int k)
{
	double auc, ap;

	for (int i = 0; i < k; i++) {
		const real *z = lg + (int64_t)idx[i] * 2;
		a->sc[i] = (double)z[1] - (double)z[0];
		a->sy[i] = a->ds->y[idx[i]];
	}
	auc_scores(a->sc, a->sy, k, &auc, &ap);
	return auc;
}

/* head_init()'s flags of a head kind (ADAPT_HEAD_GCN or _SAGE) for a's task */
static int
head_flags(const struct adapt *a, int kind)
{
	return (a->link ? HEAD_LINK : 0) | (kind == ADAPT_HEAD_SAGE ? HEAD_SELF : 0);
}

void
adapt_init(struct adapt *a, const struct adapt_opts *o, struct pretrained *pt,
	   struct adapt_data *ds, struct prof *prof)
{
	model *M = &pt->M;
	const struct feat_src *fs = &pt->fs;
	char msg[512];
	int L = M->cfg.layers;

	memset(a, 0, sizeof *a);
	a->o = o;
	a->prof = prof;
	a->M = M;
	a->ds = ds;
	a->fs = fs;
	a->stage = pretrained_stage_name(pt);
	a->from = o->no_pretrain ? 0 : (o->freeze < 0 ? 0 : o->freeze);
	a->embed = o->no_pretrain || o->freeze < 0;
	if (a->from > L)
		die_usage("--freeze %d: the model has %d blocks", o->freeze, L);
	a->pre = xmallocarray((size_t)M->n, sizeof *a->pre);
	memcpy(a->pre, M->p, (size_t)M->n * sizeof *a->pre);
	a->link = o->task == ADAPT_LINK || o->task == ADAPT_LINKPRED;
	a->lp = o->task == ADAPT_LINKPRED;

	int ngr = o->task == ADAPT_GRAPH ? ds->ng : 1;
	const graph **gp = xmallocarray((size_t)ngr, sizeof *gp);
	for (int i = 0; i < ngr; i++)
		gp[i] = o->task == ADAPT_GRAPH ? &ds->gs[i] : &ds->g;
	batch_init(&a->b);
	/* the link task builds its batch in each run, from the training edges */
	if (!a->link &&
	    batch_plain(&a->b, gp, ngr, fs, o->task == ADAPT_GRAPH ? ds->gfeat : &ds->feat, msg,
			sizeof msg) != 0)
		die("%s", msg);
	free(gp);

	a->N = a->link ? ds->g.n : a->b.N;
	a->d = M->cfg.d;
	a->C = ds->C;
	a->hid = o->head_width;
	const real *A = o->attributes || o->attr_only ? ds->A : NULL;
	int64_t din = (o->attr_only ? 0 : a->d) + (A ? ds->na : 0);
	/* the heads a run trains: with --head auto both where the labels are
	 * few (the few-label split), the paper's GCN elsewhere */
	if (o->head == ADAPT_HEAD_AUTO && o->task == ADAPT_NODE &&
	    o->split == ADAPT_SPLIT_PER_CLASS) {
		a->kinds[0] = ADAPT_HEAD_GCN;
		a->kinds[1] = ADAPT_HEAD_SAGE;
		a->nkinds = 2;
	} else {
		a->kinds[0] = o->head == ADAPT_HEAD_SAGE ? ADAPT_HEAD_SAGE : ADAPT_HEAD_GCN;
		a->nkinds = 1;
	}
	head_shape(&a->hshape, a->d, din, L, a->hid, a->link ? a->hid : a->C, a->C,
		   head_flags(a, a->kinds[0]));
	head_hbuf_init(&a->hb, &a->hshape, a->N, !o->attr_only, A, ds->na);
	a->NI = ds->nitems;
	graph_init(&a->gtr);
	split_links_init(&a->ls);
	if (a->lp)
		linkpred_init(a);
	else if (a->link) {
		/* the labelled edges are the items of the splits; the others are
		 * in every run's training graph */
		a->lab = xmallocarray((size_t)a->NI + 1, sizeof *a->lab);
		a->unl = xmallocarray((size_t)a->NI + 1, sizeof *a->unl);
		for (int64_t e = 0; e < a->NI; e++) {
			if (ds->y[e] >= 0)
				a->lab[a->nlab++] = (int32_t)e;
			else
				a->unl[a->nunl++] = (int32_t)e;
		}
	}
	if (a->link) {
		head_lbuf_init(&a->lb, a->N, a->hid, a->C);
		/* evaluation scores the validation edges (elg) every epoch and
		 * the test edges (into bestlg) at a new best only; the other
		 * rows of elg stay 0 */
		a->elg = xcalloc((size_t)(a->NI * a->C), sizeof *a->elg);
		a->tu = xmallocarray((size_t)a->NI, sizeof *a->tu);
		a->tv = xmallocarray((size_t)a->NI, sizeof *a->tv);
		a->ty = xmallocarray((size_t)a->NI, sizeof *a->ty);
	}
	a->tr = xmallocarray((size_t)a->NI + 1, sizeof *a->tr);
	a->va = xmallocarray((size_t)a->NI + (size_t)o->nval + 1, sizeof *a->va);
	a->te = xmallocarray((size_t)a->NI + (size_t)o->ntest + 1, sizeof *a->te);
	a->bestlg = xmallocarray((size_t)(a->NI * a->C), sizeof *a->bestlg);
	if (a->nkinds > 1)
		a->altlg = xmallocarray((size_t)(a->NI * a->C), sizeof *a->altlg);
	/* item logits and their gradient: the node rows themselves, or graphs */
	a->glg =
	    o->task == ADAPT_GRAPH ? xmallocarray((size_t)(a->NI * a->C), sizeof *a->glg) : NULL;
	a->dil = o->task == ADAPT_GRAPH ? xmallocarray((size_t)(a->NI * a->C), sizeof *a->dil)
					: a->hb.dlg;
	a->w = model_ws_new();
	a->rr = rng_new(0, 0);
	/* the encoder tensors the runs train: E when embed, blocks from.. */
	a->trained = xcalloc((size_t)M->nt, 1);
	if (a->hb.use_enc)
		model_trained_tensors(M, a->from, a->embed, a->trained);
	progress_init(&a->pr, &o->c);
	a->pr.at_most = 1; /* early stopping may end a run sooner */
	a->kept_run = -1;
	if (o->save_model) {
		/* the heads' parameters: room for the larger of those tried */
		struct head hs;
		head_shape(&hs, a->d, din, L, a->hid, a->hshape.Cout, a->C,
			   head_flags(a, a->kinds[a->nkinds - 1]));
		a->nh = hs.n;
		a->snapM = xmallocarray((size_t)M->n, sizeof *a->snapM);
		a->keepM = xmallocarray((size_t)M->n, sizeof *a->keepM);
		a->snapH = xmallocarray((size_t)a->nh, sizeof *a->snapH);
		a->keepH = xmallocarray((size_t)a->nh, sizeof *a->keepH);
		if (a->nkinds > 1) {
			a->altM = xmallocarray((size_t)M->n, sizeof *a->altM);
			a->altH = xmallocarray((size_t)a->nh, sizeof *a->altH);
		}
	}
}

void
adapt_free(struct adapt *a)
{
	if (a->link)
		head_lbuf_free(&a->lb);
	if (a->o->task == ADAPT_GRAPH) {
		free(a->glg);
		free(a->dil);
	}
	free(a->elg);
	split_links_free(&a->ls);
	free(a->pu);
	free(a->pv);
	free(a->sc);
	free(a->sy);
	free(a->tu);
	free(a->tv);
	free(a->ty);
	free(a->lab);
	free(a->unl);
	free(a->snapM);
	free(a->snapH);
	free(a->keepM);
	free(a->keepH);
	free(a->altM);
	free(a->altH);
	free(a->altlg);
	graph_free(&a->gtr);
	head_hbuf_free(&a->hb);
	free(a->trained);
	free(a->tr);
	free(a->va);
	free(a->te);
	free(a->bestlg);
	free(a->pre);
	gsl_rng_free(a->rr);
	model_ws_free(a->w);
	batch_free(&a->b);
}

/* Link prediction: the run's split (split_links()), its pairs (the
 * edges in canonical order, then the non-edges of each part in turn) and
 * its training graph as the encoder's batch, its features computed on
 * that graph. */
static int
linkpred_split(struct adapt *a)
{
	const struct adapt_opts *o = a->o;
	struct adapt_data *ds = a->ds;
	struct link_split *s = &a->ls;
	int64_t m = ds->g.m, k = m;
	char msg[512];

	if (split_links(s, &ds->g, o->val_fraction, o->test_fraction, a->rr, msg, sizeof msg) != 0)
		die("graph %" PRId64 ": %s", ds->id, msg);
	memcpy(a->pu + m, s->nu, (size_t)m * sizeof *a->pu);
	memcpy(a->pv + m, s->nv, (size_t)m * sizeof *a->pv);
	a->ntr = a->nva = a->nte = 0;
	for (int64_t e = 0; e < m; e++) {
		if (s->part[e] == LSPLIT_TRAIN)
			a->tr[a->ntr++] = (int32_t)e;
		else if (s->part[e] == LSPLIT_VAL)
			a->va[a->nva++] = (int32_t)e;
		else
			a->te[a->nte++] = (int32_t)e;
	}
	for (int64_t i = 0; i < s->n[LSPLIT_TRAIN]; i++)
		a->tr[a->ntr++] = (int32_t)k++;
	for (int64_t i = 0; i < s->n[LSPLIT_VAL]; i++)
		a->va[a->nva++] = (int32_t)k++;
	for (int64_t i = 0; i < s->n[LSPLIT_TEST]; i++)
		a->te[a->nte++] = (int32_t)k++;
	const graph *gp1 = &a->gtr;
	if (graph_build(&a->gtr, ds->g.n, s->n[LSPLIT_TRAIN], s->tu, s->tv, GRAPH_STRICT, NULL, msg,
			sizeof msg) != 0)
		die("%s", msg);
	if (batch_plain(&a->b, &gp1, 1, a->fs, NULL, msg, sizeof msg) != 0) {
		if (stop_signal) /* its feature call was cut short */
			return -1;
		die("%s", msg);
	}
	return 0;
}

/* The split of run `run` (and, for the link tasks, its training graph). */
int
adapt_split_run(struct adapt *a, int run)
{
	const struct adapt_opts *o = a->o;
	struct adapt_data *ds = a->ds;
	char msg[512];

	prof_mark(a->prof, PH_SETUP);
	a->nva = o->nval;
	a->nte = o->ntest;
	rng_reseed(a->rr, o->c.seed, (uint64_t)run);
	if (o->task == ADAPT_GRAPH) {
		split_cv_run(ds->y, ds->ng, ds->C, FOLDS, o->c.seed, run, a->tr, &a->ntr, a->va,
			     &a->nva, a->te, &a->nte);
	} else if (a->lp) {
		if (linkpred_split(a) != 0)
			return -1;
	} else if (a->link) {
		if (split_shares(a->lab, a->nlab, LINK_TEST, LINK_VAL, a->rr, a->tr, &a->ntr, a->va,
				 &a->nva, a->te, &a->nte) != 0)
			die("%" PRId64 " labelled edges: too few to split into training, "
			    "validation and test edges",
			    a->nlab);
		/* the encoder and the head see the training edges only, and the
		 * edges without a class, which are structure and no item */
		for (int i = 0; i < a->ntr; i++) {
			a->tu[i] = ds->eu[a->tr[i]];
			a->tv[i] = ds->ev[a->tr[i]];
			a->ty[i] = ds->y[a->tr[i]];
		}
		for (int64_t i = 0; i < a->nunl; i++) {
			a->tu[a->ntr + i] = ds->eu[a->unl[i]];
			a->tv[a->ntr + i] = ds->ev[a->unl[i]];
		}
		const graph *gp1 = &a->gtr;
		if (graph_build(&a->gtr, ds->g.n, a->ntr + a->nunl, a->tu, a->tv, GRAPH_STRICT,
				NULL, msg, sizeof msg) != 0)
			die("%s", msg);
		if (batch_plain(&a->b, &gp1, 1, a->fs, NULL, msg, sizeof msg) != 0) {
			if (stop_signal) /* its feature call was cut short */
				return -1;
			die("%s", msg);
		}
		/* --train-fraction: the loss sees a share of them */
		int keep = (int)lround(o->train_fraction * a->ntr);
		a->ntr = keep < 1 ? 1 : keep;
	} else if (o->split == ADAPT_SPLIT_PER_CLASS) {
		int64_t ntr, nva, nte;
		split_per_class_val(ds->y, ds->g.n, ds->C, o->train_per_class, o->train_fraction,
				    a->rr, a->tr, &ntr, a->va, &nva, a->te, &nte);
		if (ntr < 1 || nva < 1 || nte < 1)
			die("%" PRId64 " labelled nodes: too few for the few-label split (--split "
			    "per-class: %" PRId64 " training, %" PRId64 " validation and %" PRId64
			    " test nodes; a class needs 3 nodes for one of each)",
			    ds->nlab, ntr, nva, nte);
		a->ntr = (int)ntr;
		a->nva = (int)nva;
		a->nte = (int)nte;
	} else {
		struct split_sizes sz = { .per_class = o->train_per_class,
					  .nval = o->nval,
					  .ntest = o->ntest,
					  .fraction = o->train_fraction };
		if (split_planetoid(ds->y, ds->g.n, ds->C, &sz, a->rr, a->tr, &a->ntr, a->va, a->te,
				    msg, sizeof msg) != 0)
			die("%s", msg);
	}
	prof_mark(a->prof, PH_FEAT);
	return 0;
}

/* The encoder's values at the start of a run: pre-trained, or fresh for
 * the baseline (or above the boundary, --random-above); Adam from 0. */
static void
encoder_start(struct adapt *a)
{
	model *M = a->M;

	memcpy(M->p, a->pre, (size_t)M->n * sizeof *a->pre);
	if (a->o->no_pretrain)
		model_init_params(M, a->rr);
	else if (a->o->random_above) { /* fresh values above the boundary */
		model_init_params(M, a->rr);
		for (int i = 0; i < M->nt; i++)
			if (!a->trained[i])
				memcpy(M->p + M->t[i].off, a->pre + M->t[i].off,
				       (size_t)(M->t[i].rows * M->t[i].cols) * sizeof *a->pre);
	}
	/* Adam's moments of what is trained: the others' (the fixed blocks',
	 * the pre-training heads', most of M) are never read or written, and
	 * stay the zero pages model_init() allocated */
	for (int i = 0; i < M->nt; i++)
		if (a->trained[i]) {
			size_t len = (size_t)(M->t[i].rows * M->t[i].cols) * sizeof *M->m;
			memset(M->m + M->t[i].off, 0, len);
			memset(M->v + M->t[i].off, 0, len);
		}
	M->adam_t = 0;
}

/* The best validation epoch of a run so far. */
struct best {
	double acc, loss;
	int ep;
};

/*
 * The evaluation after ep >= 1 epochs of training, from the encoder pass
 * of this iteration (no dropout): the validation accuracy; at a new best,
 * the test items' logits to a->bestlg (and with --save-model the
 * parameters that gave them).  Returns 1 when the run ends here
 * (--patience or --epochs).
 */
static int
eval_epoch(struct adapt *a, struct head *h, int ep, struct best *bt)
{
	const struct adapt_opts *o = a->o;
	struct adapt_data *ds = a->ds;
	model *M = a->M;
	struct hbuf *hb = &a->hb;
	int64_t N = a->N, hid = a->hid, C = a->C, NI = a->NI;
	const real *ilg = hb->lg;
	double vacc = 0;

	head_forward(M, h, &a->b, a->w, hb, 0, NULL, 0);
	prof_mark(a->prof, PH_HEAD_EVAL);
	if (a->link) { /* the validation edges; the test edges below */
		struct edges ve = { a->lp ? a->pu : ds->eu, a->lp ? a->pv : ds->ev, ds->y, a->va,
				    a->nva };
		nn_relu_fwd(hb->lg, hb->lg, N * hid);
		head_link_eval(h, &a->lb, &ve, hb->lg, a->elg);
		ilg = a->elg;
		prof_mark(a->prof, PH_LINK_EVAL);
	} else if (o->task == ADAPT_GRAPH) {
		head_graph_logits(a->glg, hb->lg, &a->b, C);
		ilg = a->glg;
	}
	double vl = head_xent(ilg, NULL, ds->y, a->va, a->nva, C, NI, &vacc, 0);
	if (a->lp) /* link prediction stops early on the validation AUC */
		vacc = pair_auc(a, ilg, a->va, a->nva);
	if (vacc > bt->acc || (vacc == bt->acc && vl < bt->loss)) {
		bt->acc = vacc;
		bt->loss = vl;
		bt->ep = ep;
		/* the test items' logits of this epoch: the link task decodes
		 * its test edges now, from the same pass, and only at a new
		 * best */
		if (a->link) {
			struct edges te = { a->lp ? a->pu : ds->eu, a->lp ? a->pv : ds->ev, ds->y,
					    a->te, a->nte };
			head_link_logits(h, &a->lb, &te, a->bestlg);
		} else
			memcpy(a->bestlg, ilg, (size_t)(NI * C) * sizeof *a->bestlg);
		if (o->save_model) { /* the parameters that gave them */
			memcpy(a->snapM, M->p, (size_t)M->n * sizeof *a->snapM);
			memcpy(a->snapH, h->p, (size_t)h->n * sizeof *a->snapH);
		}
	}
	progress_note(&a->pr, "val %.3f, best %.3f at epoch %d", vacc, bt->acc, bt->ep);
	progress_update(&a->pr, ep);
	a->n_evals++;
	prof_mark(a->prof, PH_SCORE);
	return ep - bt->ep >= o->patience || ep == o->epochs;
}

/*
 * Training epoch it from the encoder pass of this iteration: the head
 * with dropout, the loss on the training items, the backward pass, Adam
 * with weight decay on what is trained.
 */
static void
train_epoch(struct adapt *a, struct head *h, int it)
{
	const struct adapt_opts *o = a->o;
	struct adapt_data *ds = a->ds;
	model *M = a->M;
	struct hbuf *hb = &a->hb;
	int64_t N = a->N, hid = a->hid, C = a->C, NI = a->NI;
	double tacc;

	/* the gradients: of what is trained (the pre-training heads'
	 * tensors, most of M, get none) */
	for (int i = 0; i < M->nt; i++)
		if (a->trained[i])
			memset(M->g + M->t[i].off, 0,
			       (size_t)(M->t[i].rows * M->t[i].cols) * sizeof *M->g);
	memset(h->g, 0, (size_t)h->n * sizeof *h->g);
	prof_mark(a->prof, PH_ADAM);
	head_forward(M, h, &a->b, a->w, hb, o->dropout, a->rr, 0);
	prof_mark(a->prof, PH_HEAD_FWD);
	if (a->link) {
		/* training edge i is tr[i]: its endpoints and class gathered
		 * once per run, read in order here */
		struct edges tre = a->lp ? (struct edges){ a->pu, a->pv, ds->y, a->tr, a->ntr }
					 : (struct edges){ a->tu, a->tv, a->ty, NULL, a->ntr };
		nn_relu_fwd(hb->lg, hb->lg, N * hid);
		head_link_train(h, &a->lb, &tre, hb->lg, hb->dlg, o->dropout, a->rr);
		nn_relu_bwd(hb->dlg, hb->dlg, hb->lg, N * hid);
		prof_mark(a->prof, PH_LINK_TRAIN);
	} else if (o->task == ADAPT_GRAPH) {
		head_graph_logits(a->glg, hb->lg, &a->b, C);
		head_xent(a->glg, a->dil, ds->y, a->tr, a->ntr, C, NI, &tacc, 1);
		head_graph_bwd(hb->dlg, a->dil, &a->b, C);
	} else
		head_xent(hb->lg, hb->dlg, ds->y, a->tr, a->ntr, C, NI, &tacc, 1);
	prof_mark(a->prof, PH_LOSS);
	head_gcn_backward(M, h, &a->b, hb, o->dropout);
	prof_mark(a->prof, PH_HEAD_BWD);
	head_encode_backward(M, h, &a->b, a->w, hb, a->from, a->embed);
	prof_mark(a->prof, PH_ENC_BWD);
	/* Adam with weight decay on what is trained */
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		if (a->trained[i])
			decay_and_step(M->p + t->off, M->g + t->off, M->m + t->off, M->v + t->off,
				       t->rows * t->cols, o->lr, o->wd, it);
	}
	decay_and_step(h->p, h->g, h->m, h->v, h->n, o->lr, o->wd, it);
	a->n_epochs++;
	prof_mark(a->prof, PH_ADAM);
}

/* Exchange two buffers. */
static void
swap_buf(real **x, real **y)
{
	real *t = *x;
	*x = *y;
	*y = t;
}

/* One head of a run, from the run's initial encoder (encoder_start())
 * and the state of a->rr: epochs until --epochs or --patience; its best
 * epoch into bt, its logits into a->bestlg (and its parameters into
 * a->snapM, a->snapH).  Returns the epochs run, or -1 when a signal
 * stopped it. */
static int
train_head(struct adapt *a, int run, int kind, struct best *bt)
{
	const struct adapt_opts *o = a->o;
	struct adapt_data *ds = a->ds;
	model *M = a->M;
	struct hbuf *hb = &a->hb;
	struct head h;
	int ep;

	progress_start(&a->pr, "epochs", o->epochs, "run %d/%d%s%s", run + 1,
		       o->first_run + o->runs, a->nkinds > 1 ? ", head " : "",
		       a->nkinds > 1 ? adapt_head_name[kind] : "");
	encoder_start(a);
	head_init(&h, a->d, a->hshape.din, M->cfg.layers, a->hid, a->hshape.Cout, a->C,
		  head_flags(a, kind), a->rr);
	/*
	 * Iteration it evaluates the parameters after it - 1 epochs of
	 * training, then trains epoch it from the same encoder pass.
	 */
	prof_mark(a->prof, PH_SETUP);
	/* the encoder below the fix-tune boundary is a constant of the batch:
	 * computed once, or each run where the run makes its batch (the link
	 * tasks' training graph) */
	if (hb->use_enc && (a->link || !a->frozen))
		head_freeze(M, &a->b, a->w, hb, a->from, a->embed);
	a->frozen = 1;
	prof_mark(a->prof, PH_FROZEN);
	for (int it = 1;; it++) {
		ep = it - 1;
		if (hb->use_enc)
			head_encode(M, &h, &a->b, a->w, hb);
		prof_mark(a->prof, PH_ENC_FWD);
		/*
		 * --attributes: the encoder's columns enter the head scaled
		 * to the attributes' mean row norm, fixed for the run from
		 * its initial encoder; raw, its d = 512 columns outweigh
		 * the attributes (Cora's bag of words: 18 ones a row).
		 */
		if (it == 1 && o->attributes && !o->raw_concat) {
			double fa = mean_row_norm(ds->A, a->N, ds->na),
			       fe = mean_row_norm(hb->Fm, a->N, a->d);
			hb->es = fa > 0 && fe > 0 ? (real)(fa / fe) : 1;
		}
		if (stop_signal) { /* the run is left unfinished */
			ep = -1;
			break;
		}
		if (ep > 0 && eval_epoch(a, &h, ep, bt)) /* evaluation: no dropout */
			break;
		train_epoch(a, &h, it);
	}
	progress_done(&a->pr);
	head_free(&h);
	return ep;
}

/* Exchange the best logits and snapshots of the head just trained with
 * those kept of the other (--head auto). */
static void
swap_alt(struct adapt *a)
{
	swap_buf(&a->bestlg, &a->altlg);
	swap_buf(&a->snapM, &a->altM);
	swap_buf(&a->snapH, &a->altH);
}

int
adapt_train_run(struct adapt *a, int run, struct adapt_result *res)
{
	struct best bt[2] = { { .acc = -1, .loss = INFINITY, .ep = 0 },
			      { .acc = -1, .loss = INFINITY, .ep = 0 } };
	int ep[2] = { 0, 0 }, k = 0;
	real es[2] = { 1, 1 };
	size_t n = 0;

	res->heads[0] = 0;
	for (int i = 0; i < a->nkinds; i++) {
		if (i > 0) /* the first head's best kept aside */
			swap_alt(a);
		/* the sage head draws from a stream of its own, alone or not */
		if (a->kinds[i] == ADAPT_HEAD_SAGE)
			rng_reseed(a->rr, a->o->c.seed, rng_mix((uint64_t)run, ADAPT_HEAD_STREAM));
		if ((ep[i] = train_head(a, run, a->kinds[i], &bt[i])) < 0)
			return -1;
		es[i] = a->hb.es;
		if (a->nkinds > 1 && n < sizeof res->heads)
			n += (size_t)snprintf(res->heads + n, sizeof res->heads - n,
					      "%s%s %.6f %.6f", i ? ", " : "",
					      adapt_head_name[a->kinds[i]], bt[i].acc, bt[i].loss);
	}
	if (a->nkinds > 1) { /* the better best epoch; ties: the first */
		k = bt[1].acc > bt[0].acc || (bt[1].acc == bt[0].acc && bt[1].loss < bt[0].loss);
		if (!k)
			swap_alt(a);
		a->hb.es = es[k];
	}
	a->n_runs++;
	res->head = a->kinds[k];
	res->epochs = ep[k];
	res->best_epoch = bt[k].ep;
	res->val_acc = bt[k].acc;
	res->val_loss = bt[k].loss;
	return 0;
}

/*
 * Rows idx[0..n) of the item logits lg (items x C) as a predictions tensor
 * with id id: item, true class (y; -1 for none), predicted class and, up
 * to 64 classes, the softmax probabilities.  Returns how many predicted
 * classes are the true one.
 */
int64_t
adapt_predictions_tensor(gs_rec *rec, int64_t id, const real *lg, const int32_t *idx, int64_t n,
			 const int32_t *y, int64_t C)
{
	char cols[64 + 16 * 64];
	size_t cl = (size_t)snprintf(cols, sizeof cols, "item,true,pred");
	int64_t ok = 0;

	for (int64_t c = 0; c < C && cl < sizeof cols - 24; c++)
		cl += (size_t)snprintf(cols + cl, sizeof cols - cl, ",score_%" PRId64, c);
	int64_t ncol = C <= 64 ? 3 + C : 3;
	if (C > 64)
		snprintf(cols, sizeof cols, "item,true,pred");
	gs_rec_tensor(rec, id, "predictions", n, ncol, GS_F64, cols);
	double *pd = rec->data;
	for (int64_t i = 0; i < n; i++) {
		int64_t it = idx ? idx[i] : i;
		const real *z = lg + it * C;
		double s;
		int best;
		double mx = head_softmax_stats(z, C, &s, &best);
		pd[i * ncol] = (double)it;
		pd[i * ncol + 1] = y[it];
		pd[i * ncol + 2] = best;
		ok += best == y[it];
		for (int64_t c = 0; c < C && ncol > 3; c++)
			pd[i * ncol + 3 + c] = exp(z[c] - mx) / s;
	}
	return ok;
}

/* What a run's training came to, as attributes of its predictions record
 * or of the model saved from it. */
static void
run_attrs(gs_rec *rec, int epochs, int best_epoch, int ntr, double val_acc, int lp)
{
	gs_attr_setf(rec, "epochs", "%d", epochs);
	gs_attr_setf(rec, "best_epoch", "%d", best_epoch);
	gs_attr_setf(rec, "train_labels", "%d", ntr);
	gs_attr_setf(rec, lp ? "val_auc" : "val_acc", "%.6f", val_acc);
}

/*
 * Link prediction's predictions tensor of run `run`: the test pairs with
 * their nodes, class (1 edge, 0 non-edge), predicted class, the two
 * class probabilities and the edge logit score = z_1 - z_0, which ranks
 * them without the rounding of a probability near 1 (evalf1's AUC and
 * AP).  Returns the test AUC.
 */
static double
linkpred_tensor(struct adapt *a, gs_rec *rec, int run)
{
	const int32_t *y = a->ds->y;

	gs_rec_tensor(rec, run, "predictions", a->nte, 8, GS_F64,
		      "item,u,v,true,pred,score_0,score_1,score");
	double *pd = rec->data;
	for (int64_t i = 0; i < a->nte; i++) {
		int64_t it = a->te[i];
		const real *z = a->bestlg + it * 2;
		double sum;
		int best;
		double mx = head_softmax_stats(z, 2, &sum, &best);
		double row[8] = { (double)it,
				  a->pu[it],
				  a->pv[it],
				  y[it],
				  best,
				  exp(z[0] - mx) / sum,
				  exp(z[1] - mx) / sum,
				  (double)z[1] - (double)z[0] };
		memcpy(pd + i * 8, row, sizeof row);
	}
	return pair_auc(a, a->bestlg, a->te, a->nte);
}

/* The predictions record of a run: the test items' true and predicted
 * classes and class probabilities at the best validation epoch. */
void
adapt_write_predictions(struct adapt *a, int run, gs_file *out, gs_rec *rec,
			struct adapt_result *res)
{
	const struct adapt_opts *o = a->o;
	const struct adapt_data *ds = a->ds;
	int64_t C = a->C;

	if (a->lp)
		res->test_acc = linkpred_tensor(a, rec, run);
	else
		res->test_acc =
		    (double)adapt_predictions_tensor(rec, run, a->bestlg, a->te, a->nte, ds->y, C) /
		    a->nte;
	gs_attr_set(rec, "task", adapt_task_name[o->task]);
	gs_attr_set(rec, "dataset", ds->name);
	gs_attr_set(rec, "precision", gemm_precision_name(gemm_precision()));
	gs_attr_setf(rec, "classes", "%" PRId64, C);
	if (ds->class_names && !a->link && !a->lp)
		gs_attr_set(rec, "class_names", ds->class_names);
	if (a->link)
		gs_attr_set(rec, "class_values", ds->cvals);
	if (a->lp) /* the pairs of each part, as many edges as non-edges */
		gs_attr_setf(rec, "pairs", "%d,%d,%d", a->ntr, a->nva, a->nte);
	gs_attr_set(rec, "init",
		    o->attr_only      ? "none"
		    : o->no_pretrain  ? "random"
		    : o->random_above ? "pretrained-below"
				      : "pretrained");
	if (!o->attr_only)
		gs_attr_setf(rec, "freeze", "%d", o->no_pretrain ? -1 : o->freeze);
	gs_attr_set(rec, "input",
		    o->attr_only    ? "attributes"
		    : o->attributes ? "structure+attributes"
				    : "structure");
	if (!o->attr_only)
		gs_attr_set(rec, "features", a->stage);
	if (o->attributes)
		gs_attr_setf(rec, "encoder_scale", "%.6g", (double)a->hb.es);
	gs_attr_set(rec, "head", adapt_head_name[res->head]);
	if (res->heads[0])
		gs_attr_set(rec, "heads", res->heads);
	run_attrs(rec, res->epochs, res->best_epoch, a->ntr, res->val_acc, a->lp);
	adapt_emit(o, ds, out, rec);
}

void
adapt_emit(const struct adapt_opts *o, const struct adapt_data *ds, gs_file *out, const gs_rec *rec)
{
	static int header;
	const double *x = rec->data;
	const char **names = o->task == ADAPT_NODE ? ds->names : NULL;

	if (!o->tsv) {
		gs_write1(out, rec);
		return;
	}
	/* the class names of the true and predicted classes, last */
	int ti = gs_tensor_col(rec, "true"), pi = gs_tensor_col(rec, "pred");
	int cn = ds->names_of != NULL && ti > 0 && pi > 0 && o->task != ADAPT_LINK;

	if (!header++) { /* run, item[, name], then the tensor's columns past item */
		printf("run\titem%s", names ? "\tname" : "");
		for (const char *c = strchr(rec->columns, ','); *c; c++)
			putchar(*c == ',' ? '\t' : *c);
		printf("%s\n", cn ? "\ttrue_name\tpred_name" : "");
	}
	for (int64_t i = 0; i < rec->rows; i++) {
		const double *row = x + i * rec->cols;
		printf("%" PRId64 "\t%.0f", rec->id, row[0]);
		if (names)
			printf("\t%s", names[(int64_t)row[0]]);
		for (int64_t c = 1; c < rec->cols; c++) /* classes, node ids: integers */
			printf(row[c] == floor(row[c]) && fabs(row[c]) < 1e15 ? "\t%.0f" : "\t%.6g",
			       row[c]);
		if (cn) {
			int64_t t = (int64_t)row[ti], p = (int64_t)row[pi];
			printf("\t%s\t%s", t >= 0 && t < ds->nclass_names ? ds->names_of[t] : "",
			       p >= 0 && p < ds->nclass_names ? ds->names_of[p] : "");
		}
		putchar('\n');
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("<stdout>: write error:");
}

/* After a run: keep its best epoch's parameters when its validation
 * accuracy is the best so far (ties: the lower validation loss, then the
 * earlier run). */
void
adapt_keep_run(struct adapt *a, int run, const struct adapt_result *res)
{
	if (a->kept_run >= 0 && (res->val_acc < a->kept_acc ||
				 (res->val_acc == a->kept_acc && res->val_loss >= a->kept_loss)))
		return;
	swap_buf(&a->keepM, &a->snapM);
	swap_buf(&a->keepH, &a->snapH);
	a->kept_run = run;
	a->kept_acc = res->val_acc;
	a->kept_loss = res->val_loss;
	a->kept_epochs = res->epochs;
	a->kept_best = res->best_epoch;
	a->kept_ntr = a->ntr;
	a->kept_es = a->hb.es;
	a->kept_head = res->head;
}

/*
 * The adapted model of the kept run (gcn-adapt(1), Inference): the
 * encoder's settings with the feature stage the runs used, the adapt.*
 * keys, the encoder's and the head's parameters at its best epoch.
 */
void
adapt_write_model(const struct adapt *a, const struct pretrained *pt, gs_file *mf, gs_rec *rec)
{
	const struct adapt_opts *o = a->o;
	const struct adapt_data *ds = a->ds;
	struct train_settings s = pt->ts; /* the strings are borrowed */
	struct adapted_cfg ac;
	int kind = pt->fs.kind;
	char bcols[6 * RWSE_STEPS_MAX];

	feat_src_columns(&pt->fs, bcols, sizeof bcols); /* a built-in set's */
	s.nfeat = a->M->cfg.nfeat;
	/* the runs' precision, which --predict follows (adapt_main_precision()) */
	s.precision = (char *)gemm_precision_name(gemm_precision());
	s.feature_stage = (char *)(kind == FEAT_SRC_GIVEN  ? "stream"
				   : kind == FEAT_SRC_CALL ? "command"
							   : feat_src_name(&pt->fs));
	s.feature_command = (char *)(kind == FEAT_SRC_CALL ? pt->fc.cmd : "");
	s.feature_columns = kind == FEAT_SRC_GIVEN  ? ds->fseen.cols
			    : kind == FEAT_SRC_CALL ? pt->fc.columns
						    : bcols;
	memset(&ac, 0, sizeof ac);
	ac.task = (char *)adapt_task_name[o->task];
	ac.head_width = o->head_width;
	ac.classes = a->C;
	ac.class_values = (char *)(a->link ? ds->cvals : "");
	ac.label = (char *)(a->link ? "" : o->label);
	ac.attributes = o->attributes ? ds->na : 0;
	ac.encoder_scale = a->kept_es;
	ac.scale = (char *)(pt->fs.scale == FEAT_SCALE_LOG ? "log" : "minmax");
	ac.run = a->kept_run;
	ac.init = (char *)(o->no_pretrain    ? "random"
			   : o->random_above ? "pretrained-below"
					     : "pretrained");
	ac.freeze = o->no_pretrain ? -1 : o->freeze;
	ac.head = (char *)adapt_head_name[a->kept_head];
	struct head hs; /* the kept run's head */
	head_shape(&hs, a->d, a->hshape.din, a->M->cfg.layers, a->hid, a->hshape.Cout, a->C,
		   head_flags(a, a->kept_head));
	modelio_adapted_record(rec, &s, a->M, a->keepM, &ac, &hs, a->keepH);
	gs_attr_set(rec, "dataset", ds->name);
	gs_attr_setf(rec, "seed", "%" PRIu64, o->c.seed);
	gs_attr_setf(rec, "runs", "%d..%d", o->first_run, o->first_run + a->runs_done - 1);
	if (a->runs_done < o->runs) /* interrupted: the best of those that finished */
		gs_attr_setf(rec, "partial", "%d of %d runs", a->runs_done, o->runs);
	run_attrs(rec, a->kept_epochs, a->kept_best, a->kept_ntr, a->kept_acc, 0);
	if (ds->class_names && !a->link) /* --predict names its classes by them */
		gs_attr_set(rec, "class_names", ds->class_names);
	gs_write1(mf, rec);
}

void
adapt_prof_print(const struct adapt *a)
{
	char what[128];

	snprintf(what, sizeof what, "%" PRId64 " runs, %" PRId64 " epochs, %" PRId64 " evaluations",
		 a->n_runs, a->n_epochs, a->n_evals);
	prof_print(a->prof, what, a->n_epochs);
}

void
adapt_predict(struct adapt_pred *p, struct pretrained *pt, struct head *h,
	      const struct adapted_cfg *ac, struct adapt_data *ds, int task)
{
	model *M = &pt->M;
	char msg[512];
	int ngr = task == ADAPT_GRAPH ? ds->ng : 1, link = task == ADAPT_LINK;
	const graph **gp = xmallocarray((size_t)ngr, sizeof *gp);

	memset(p, 0, sizeof *p);
	for (int i = 0; i < ngr; i++)
		gp[i] = task == ADAPT_GRAPH ? &ds->gs[i] : &ds->g;
	batch_init(&p->b);
	if (batch_plain(&p->b, gp, ngr, &pt->fs, task == ADAPT_GRAPH ? ds->gfeat : &ds->feat, msg,
			sizeof msg) != 0)
		die("%s", msg);
	free(gp);
	int64_t N = p->b.N, hid = ac->head_width, C = ac->classes, NI = ds->nitems;
	head_hbuf_init(&p->hb, h, N, 1, ac->attributes ? ds->A : NULL, ds->na);
	p->hb.es = (real)ac->encoder_scale;
	p->w = model_ws_new();
	head_forward(M, h, &p->b, p->w, &p->hb, 0, NULL, 1);
	p->ilg = p->hb.lg;
	if (link) {
		struct lbuf lb;
		struct edges all = { ds->eu, ds->ev, ds->y, NULL, NI };
		head_lbuf_init(&lb, N, hid, C);
		p->buf = xmallocarray((size_t)(NI * C), sizeof *p->buf);
		nn_relu_fwd(p->hb.lg, p->hb.lg, N * hid);
		head_link_eval(h, &lb, &all, p->hb.lg, p->buf);
		head_lbuf_free(&lb);
		p->ilg = p->buf;
	} else if (task == ADAPT_GRAPH) {
		p->buf = xmallocarray((size_t)(NI * C), sizeof *p->buf);
		head_graph_logits(p->buf, p->hb.lg, &p->b, C);
		p->ilg = p->buf;
	}
}

void
adapt_pred_free(struct adapt_pred *p)
{
	free(p->buf);
	model_ws_free(p->w);
	head_hbuf_free(&p->hb);
	batch_free(&p->b);
}

void
adapt_fit_split(struct adapt_opts *o, const struct adapt_data *ds)
{
	struct split_sizes sz = { .per_class = o->train_per_class,
				  .nval = o->nval,
				  .ntest = o->ntest,
				  .fraction = o->train_fraction };

	if (o->task != ADAPT_NODE || o->split_set || o->split_given ||
	    !split_fit_sizes(ds->y, ds->g.n, ds->C, &sz))
		return;
	/* the counts of any run: those of run 0 */
	int64_t n = ds->g.n, ntr, nva, nte;
	int32_t *tr = xmallocarray((size_t)n + 1, sizeof *tr),
		*va = xmallocarray((size_t)n + 1, sizeof *va),
		*te = xmallocarray((size_t)n + 1, sizeof *te);
	gsl_rng *r = rng_new(o->c.seed, 0);
	split_per_class_val(ds->y, n, ds->C, o->train_per_class, o->train_fraction, r, tr, &ntr, va,
			    &nva, te, &nte);
	gsl_rng_free(r);
	free(tr);
	free(va);
	free(te);
	o->split = ADAPT_SPLIT_PER_CLASS;
	snprintf(o->split_note, sizeof o->split_note,
		 "%" PRId64 " labelled nodes: the paper's 20 of each class, 500 and 1000 do not "
		 "fit; the few-label split instead (--split per-class): %" PRId64
		 " for training and %" PRId64 " for validation (at most %d of each class "
		 "between them), %" PRId64
		 " for testing (--split, --train-per-class, --val and --test choose)",
		 ds->nlab, ntr, nva, o->train_per_class, nte);
}

/* The validation items of a run of the node or graph task (the fewest
 * of any run), o's split as adapt_fit_split() left it. */
static int64_t
validation_items(const struct adapt_opts *o, const struct adapt_data *ds)
{
	int64_t n = o->task == ADAPT_GRAPH ? ds->ng : ds->g.n, nv = o->nval, a, b;
	int32_t *x = xmallocarray((size_t)n + 1, sizeof *x),
		*v = xmallocarray((size_t)n + 1, sizeof *v),
		*t = xmallocarray((size_t)n + 1, sizeof *t);

	if (o->task == ADAPT_GRAPH) { /* the smallest of the folds */
		int ntr, nva, nte;
		for (int r = 0; r < FOLDS; r++) {
			split_cv_run(ds->y, n, ds->C, FOLDS, o->c.seed, r, x, &ntr, v, &nva, t,
				     &nte);
			nv = r == 0 || nva < nv ? nva : nv;
		}
	} else if (o->split == ADAPT_SPLIT_PER_CLASS) { /* the same count in every run */
		gsl_rng *r = rng_new(o->c.seed, 0);
		split_per_class_val(ds->y, n, ds->C, o->train_per_class, o->train_fraction, r, x,
				    &a, v, &nv, t, &b);
		gsl_rng_free(r);
	}
	free(x);
	free(v);
	free(t);
	return nv;
}

void
adapt_fit_schedule(struct adapt_opts *o, const struct adapt_data *ds)
{
	if (o->schedule_given || (o->task != ADAPT_NODE && o->task != ADAPT_GRAPH))
		return;
	int64_t nv = validation_items(o, ds);
	if (nv >= ADAPT_FEW_VAL)
		return;
	o->epochs = ADAPT_FEW_EPOCHS;
	o->patience = ADAPT_FEW_PATIENCE;
	snprintf(o->schedule_note, sizeof o->schedule_note,
		 "%" PRId64 " validation %s a run, fewer than %d: at most %d epochs, patience %d "
		 "(--epochs and --patience choose)",
		 nv, o->task == ADAPT_GRAPH ? "graphs" : "nodes", ADAPT_FEW_VAL, o->epochs,
		 o->patience);
}

void
adapt_opts_init(struct adapt_opts *o)
{
	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->c.seed_set = 1; /* the default seed is a seed: the pg record shows it */
	o->label = "label";
	o->runs = 10;
	o->epochs = 200;
	o->patience = 50;
	o->head_width = 64;
	o->lr = 0.005;
	o->wd = 5e-4;
	o->dropout = 0.5;
	o->head = ADAPT_HEAD_AUTO;
	o->train_per_class = 20;
	o->nval = 500;
	o->ntest = 1000;
	o->train_fraction = 1;
	o->val_fraction = 0.05;
	o->test_fraction = 0.1;
	o->precision = "auto";
	o->features_timeout = FEATCMD_TIMEOUT;
}

void
adapt_read(struct adapt_data *ds, const struct adapt_opts *o, int nfiles, char **files,
	   void (*check)(void *ctx, gs_file *in, const gs_rec *rec), void *ctx)
{
	struct adapt_ask ask = { .task = o->task,
				 .label = o->label,
				 .attributes = o->attributes || o->attr_only,
				 .quiet = o->c.quiet,
				 .graph_check = check,
				 .check_ctx = ctx };

	adapt_data_read(ds, &ask, nfiles, files);
}

void
adapt_stage(struct pretrained *pt, const struct adapt_opts *o, struct adapt_data *ds)
{
	if (o->attr_only) {
		pt->fs.scale = o->scale;
		return;
	}
	struct stage_ask sa = {
		.features = o->features,
		.allow_command = o->allow_cmd,
		.timeout = o->features_timeout,
		.scale = o->scale,
		.fresh = o->no_pretrain,
		.changes = o->task == ADAPT_LINK || o->task == ADAPT_LINKPRED,
		.quiet = o->c.quiet,
		.g0 = o->task == ADAPT_GRAPH ? &ds->gs[0] : &ds->g,
		.ngraphs = o->task == ADAPT_GRAPH ? ds->ng : 1,
		.nfeat = (int)ds->fseen.n,
		.F = ds->fseen.F,
		.fcols = ds->fseen.cols,
	};
	pretrained_stage(pt, &sa);
}

void
adapt_predict_input(struct adapt_data *ds, const struct adapt_opts *o, struct pretrained *pt,
		    const struct adapted_cfg *ac, int nfiles, char **files)
{
	int task = o->task;

	memset(ds, 0, sizeof *ds);
	ds->predict = 1;
	ds->Cm = (int)ac->classes;
	if (task == ADAPT_LINK)
		ds->mvals = adapt_class_values(ac->class_values, ac->classes);
	else /* the model's class names, before the input's */
		adapt_data_class_names(ds, ac->class_names, ac->classes);
	adapt_read(ds, o, nfiles, files, NULL, NULL);
	if (ac->attributes > 0) {
		if (!ds->A)
			die("graph %" PRId64 ": no 'attributes' tensor: the model was adapted with "
			    "--attributes (%lld columns)",
			    ds->id, ac->attributes);
		if (ds->na != ac->attributes)
			die("graph %" PRId64 ": 'attributes' has %" PRId64
			    " columns; the model was "
			    "adapted on %lld",
			    ds->id, ds->na, ac->attributes);
		if (ds->missing && !o->c.quiet)
			warnx_("graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes have no "
			       "attributes (zeros; the source file is partial)",
			       ds->id, ds->missing, ds->g.n);
	}
	struct stage_ask sa = {
		.features = o->features,
		.allow_command = o->allow_cmd,
		.timeout = o->features_timeout,
		.scale = strcmp(ac->scale, "log") == 0 ? FEAT_SCALE_LOG : FEAT_SCALE_MINMAX,
		.quiet = o->c.quiet,
		.g0 = task == ADAPT_GRAPH ? &ds->gs[0] : &ds->g,
		.ngraphs = task == ADAPT_GRAPH ? ds->ng : 1,
		.nfeat = (int)ds->fseen.n,
		.F = ds->fseen.F,
		.fcols = ds->fseen.cols,
	};
	pretrained_stage(pt, &sa);
}
