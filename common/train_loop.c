/*
 * train_loop.c - gcn-train's training run: the model set up, the epochs
 * (shuffle, steps, validation, the best parameters, checkpoints, the
 * log), signals, and --bench-steps' timings (gcn-train(1)).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "mem.h"
#include "prof.h"
#include "rng.h"
#include "train_loop.h"
#include "train_val.h"

#define EPOCH_STREAM 0x65706f6368ULL /* shuffling stream of each epoch */

/*
 * Say once how the training graphs are masked when any carries a 'mask'
 * pair set (mask-edges | nodefeat | gcn-train): those are trained on that
 * one mask at every step, where Algorithm 1 masks afresh each step.
 */
static void
say_masking(struct lgraph **train, int64_t nt, int quiet)
{
	int64_t pre = 0;

	for (int64_t i = 0; i < nt; i++)
		pre += train[i]->premasked;
	if (pre == 0 || quiet)
		return;
	warnx_("%" PRId64 " of %" PRId64 " training graphs are pre-masked (a 'mask' pair set, "
	       "from mask-edges): each is trained on that one mask at every step, not "
	       "masked afresh as in Algorithm 1; give unmasked graphs to re-mask "
	       "(gcn-train(1), Masking)",
	       pre, nt);
}

/* ---- signals ---- */

/* Set by the SIGINT and SIGTERM handler. */
static volatile sig_atomic_t stop_signal;

static void
on_signal(int sig)
{
	stop_signal = sig;
}

int
train_stop_signal(void)
{
	return stop_signal;
}

void
train_catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* ---- --bench-steps ---- */

/* x summed over the ranks. */
static double
sum_ranks(double x)
{
	int R = dist_size();
	double *v = xcalloc((size_t)R, sizeof *v), s = 0;
	v[dist_rank()] = x;
	dist_gather_f64(v, R);
	for (int r = 0; r < R; r++)
		s += v[r];
	free(v);
	return s;
}

/* The timings of a data-parallel step, the slowest rank's, and of the
 * allreduce alone (after the ranks met): one row per value, from rank 0. */
enum { BD_WALL, BD_BUILD, BD_PASS, BD_ADD, BD_WAIT, BD_REDUCE, BD_N };

static void
bench_dstep(struct dstep *d, double *row)
{
	row[BD_BUILD] = dist_max_f64(d->t_build);
	row[BD_PASS] = dist_max_f64(d->t_pass);
	row[BD_ADD] = dist_max_f64(d->t_add);
	row[BD_WAIT] = dist_max_f64(d->t_reduce); /* the allreduce, with waiting */
	dist_max_f64(0);			  /* the ranks meet */
	double t0 = prof_now();
	dist_xsum_allreduce(&d->acc);
	row[BD_REDUCE] = dist_max_f64(prof_now() - t0);
}

/* --bench-steps' run: its batch, workspace and data-parallel step, the
 * batch's sizes and each step's timings. */
struct bench {
	batch b;
	mws *w;
	struct dstep d;
	int G;		   /* graphs a step */
	int64_t P, Q, ncl; /* the last step's pairs, queries, clusters */
	double tprep;	   /* building the batches, in all */
	double tstep[1024], twall[1024], tcpu[1024], bd[BD_N][1024];
};

/* Step s of --bench-steps: the first G graphs masked for step s, a
 * training step, its timings into bt. */
static void
bench_step(struct bench *bt, const struct train_opts *o, model *M, const struct train_data *ds,
	   const struct batch_opts *bo, long long s)
{
	struct mout out;
	char msg[256];
	double t0 = prof_now(), t1, loss = 0, c0 = prof_cpu_s();

	if (o->by_graph) {
		double l[NTASK];
		dstep_run(&bt->d, M, ds->g, (uint64_t)o->s.seed, (uint64_t)s, bo, &bt->b, bt->w, 0,
			  l, msg, sizeof msg);
		for (int k = 0; k < NTASK; k++)
			loss += l[k];
		bt->P = bt->d.P;
		bt->Q = bt->d.Q;
		bt->ncl = bt->d.ncl;
		t1 = t0 + bt->d.t_build;
	} else {
		if (batch_build(&bt->b, ds->g, bt->G, (uint64_t)o->s.seed, (uint64_t)s, bo, msg,
				sizeof msg))
			die("%s", msg);
		t1 = prof_now();
		model_zero_grad(M);
		loss = model_step(M, &bt->b, bt->w, 1, &out);
		bt->P = bt->b.P;
		bt->Q = bt->b.Q;
		bt->ncl = bt->b.ncl;
	}
	model_adam(M, o->s.lr);
	double t2 = prof_now();
	bt->tprep += t1 - t0;
	bt->tstep[s] = t2 - t1;
	bt->twall[s] = t2 - t0;
	bt->tcpu[s] = sum_ranks(prof_cpu_s() - c0);
	if (o->by_graph) {
		double row[BD_N];
		bench_dstep(&bt->d, row);
		row[BD_WALL] = dist_max_f64(bt->twall[s]);
		for (int k = 0; k < BD_N; k++)
			bt->bd[k][s] = row[k];
	}
	if (!o->c.quiet)
		fprintf(stderr, "%s: bench step %lld: %.3f s, loss %.4f\n", err_prog(), s + 1,
			bt->tstep[s], loss);
}

/* --bench-steps: time steps on the first batch, fresh masks each step. */
void
train_bench(const struct train_opts *o, model *M, const struct train_data *ds,
	    const struct batch_opts *bo)
{
	struct bench bt;
	long long n = o->bench_steps < 1024 ? o->bench_steps : 1024;
	int64_t nodes = 0, edges = 0;

	memset(&bt, 0, sizeof bt);
	bt.G = (int)(ds->n < o->s.batch ? ds->n : o->s.batch);
	bt.w = model_ws_new();
	batch_init(&bt.b);
	if (o->by_graph)
		dstep_init(&bt.d, M->n, bt.G);
	for (int i = 0; i < bt.G; i++) {
		nodes += ds->g[i]->g.n;
		edges += ds->g[i]->g.m;
	}
	for (long long s = 0; s < n; s++)
		bench_step(&bt, o, M, ds, bo, s);
	/* median step time, the first (warm-up: page faults, BLAS buffers)
	 * left out when there are more */
	double first = bt.tstep[0];
	long long total = n, skip = n > 1;
	n -= skip;
	double med = prof_median(bt.tstep + skip, n), wall = prof_median(bt.twall + skip, n),
	       fwd = 0, cpu = prof_median(bt.tcpu + skip, n);
	if (dist_rank() != 0)
		goto out;
	if (!o->by_graph) { /* the forward pass alone, as validation runs it */
		struct mout out;
		double t0 = prof_now();
		model_step(M, &bt.b, bt.w, 0, &out);
		fwd = prof_now() - t0;
	}
	printf(
	    "graphs\t%d\nnodes\t%" PRId64 "\nedges\t%" PRId64 "\npairs\t%" PRId64
	    "\ncluster_queries\t%" PRId64 "\nclusters\t%" PRId64 "\nparams\t%" PRId64
	    "\nsteps\t%lld\ntimed_steps\t%lld\nfirst_step_s\t%.4f\nstep_s_median\t%.4f\nstep_s_min\t%.4f\nstep_s_max\t%.4f\n"
	    "prep_s_mean\t%.4f\nworkspace_mib\t%.0f\npeak_rss_mib\t%.0f\n",
	    bt.G, nodes, edges, bt.P, bt.Q, bt.ncl, M->n, total, n, first, med, bt.tstep[skip],
	    bt.tstep[skip + n - 1], bt.tprep / (double)total,
	    (double)model_ws_bytes(bt.w) / 1048576.0, prof_peak_rss_mib());
	printf("wall_s_median\t%.4f\ncpu_s_median\t%.4f\nreduce\t%s\n", wall, cpu,
	       o->by_graph ? "graph" : "batch");
	if (!o->by_graph)
		printf("forward_s\t%.4f\n", fwd);
	if (o->by_graph) {
		static const char *const name[BD_N] = {
			"wall_slowest", "build", "pass", "add", "allreduce_in_step", "allreduce"
		};
		printf("ranks\t%d\nallreduce_bytes\t%" PRId64 "\n", dist_size(),
		       (int64_t)sizeof(uint64_t) * 2 * M->n);
		for (int k = 0; k < BD_N; k++)
			printf("%s_s_median\t%.4f\n", name[k], prof_median(bt.bd[k] + skip, n));
	}
out:
	batch_free(&bt.b);
	model_ws_free(bt.w);
	if (o->by_graph)
		dstep_free(&bt.d);
}

/* ---- training ---- */

/* Where the run stands, for the line of a timeout or a signal under MPI
 * (dist_set_where): the step, its epoch, the last checkpoint. */
static void
say_where(const struct trainer *t, const char *what, long long step, long long epoch)
{
	if (dist_size() == 1)
		return;
	if (t->ck_epoch > 0)
		dist_set_where("%s %lld (epoch %lld; %s holds epoch %lld)", what, step, epoch,
			       t->o->checkpoint, t->ck_epoch);
	else
		dist_set_where("%s %lld (epoch %lld)", what, step, epoch);
}

/* The validation graphs of n asked for: --validation, or 124 of every
 * 1024. */
static int64_t
validation_asked(const struct train_opts *o, int64_t n)
{
	return o->s.validation >= 0 ? o->s.validation
				    : (int64_t)llround((double)n * 124.0 / 1024.0);
}

/* The validation graphs of n, or a usage error when none or all would be. */
int64_t
train_validation_count(const struct train_opts *o, int64_t n)
{
	int64_t nv = validation_asked(o, n);

	if (nv < 1 || nv >= n)
		die_usage("%" PRId64 " graphs: cannot keep %" PRId64
			  " for validation and train on the rest (--validation)",
			  n, nv);
	return nv;
}

/* The model of the settings, with its initial values (stream "init"); the
 * link head's output bias at the base rate of the training graphs' pairs
 * (all the graphs' with --bench-steps, which validates nothing). */
void
train_model_setup(const struct train_opts *o, model *M, struct train_data *ds,
		  const struct batch_opts *bo)
{
	struct model_cfg mc;
	gsl_rng *r;
	int64_t pos, neg, nv = o->bench_steps ? 0 : validation_asked(o, ds->n);

	if (train_settings_model_cfg(&o->s, &mc) != 0 || model_init(M, &mc) != 0)
		die_usage("model settings out of range");
	r = rng_new((uint64_t)o->s.seed, 0x696e6974ULL); /* "init" */
	model_init_params(M, r);
	gsl_rng_free(r);
	if (mc.tasks & 1 << TASK_REC) {
		/* a bad count is said by train_validation_count(), once, after this */
		batch_pair_counts(ds->g, nv >= 0 && nv < ds->n ? ds->n - nv : ds->n, bo, &pos,
				  &neg);
		model_init_rec_prior(M, (double)pos, (double)neg);
	}
}

/* The last --validation graphs validate, the others train. */
void
trainer_init(struct trainer *t, struct train_opts *o, model *M, struct train_data *ds,
	     const struct batch_opts *bo)
{
	int64_t nv = train_validation_count(o, ds->n);

	o->s.validation = nv; /* the model's config says what was used */
	memset(t, 0, sizeof *t);
	t->o = o;
	t->M = M;
	t->nv = nv;
	t->nt = ds->n - nv;
	t->train = ds->g;
	t->val = ds->g + t->nt;
	t->B = (int)(o->s.batch < t->nt ? o->s.batch : t->nt);
	t->bo = *bo;
	batch_init(&t->b);
	t->w = model_ws_new();
	t->perm = xmallocarray((size_t)t->nt, sizeof *t->perm);
	t->er = rng_new(0, 0);
	t->best = xmallocarray((size_t)M->n, sizeof *t->best);
	memcpy(t->best, M->p, (size_t)M->n * sizeof *t->best);
	t->st.best_score = -1;
	t->by_graph = o->by_graph;
	if (t->by_graph)
		dstep_init(&t->dp, M->n, t->B);
	say_masking(t->train, t->nt, o->c.quiet);
}

void
trainer_free(struct trainer *t)
{
	free(t->perm);
	free(t->best);
	gsl_rng_free(t->er);
	batch_free(&t->b);
	model_ws_free(t->w);
	if (t->by_graph)
		dstep_free(&t->dp);
}

/* Load one checkpoint record of --resume into the trainer ctx. */
static int
take_checkpoint(const gs_rec *r, const char *where, void *ctx, char *msg, size_t len)
{
	struct trainer *t = ctx;

	(void)where; /* the messages name the file, not the record */
	return modelio_checkpoint_load(t->M, t->best, &t->st, r, t->o->resume, msg, len);
}

/* --resume: the parameters, the best ones, Adam's moments and the state,
 * from the last checkpoint record of path (each one is loaded, and so
 * checked, in turn).  msg holds a stream error in full (up to 599 bytes). */
void
trainer_resume(struct trainer *t, const char *path)
{
	char *files[1] = { (char *)path }, msg[1024];
	struct model_find f = { .name = CKPT_NAME, .last = 1, .take = take_checkpoint, .ctx = t };
	struct gs_reader rd;
	int k;

	gs_reader_init(&rd, 1, files);
	k = modelio_find(&rd, &f, NULL, msg, sizeof msg);
	if (k < 0)
		die("%s", msg);
	if (k == 0)
		die("%s: no %s record", path, CKPT_NAME);
	gs_reader_free(&rd);
}

/* Write a checkpoint atomically (a temporary file renamed over it). */
static void
write_checkpoint(const struct trainer *t, int argc, char **argv)
{
	struct copt c = t->o->c;
	gs_file *out;
	gs_rec r;

	c.output = t->o->checkpoint;
	c.quiet = 1;
	out = gs_open_out(&c, argc, argv);
	gs_rec_init(&r);
	modelio_checkpoint_record(&r, &t->o->s, t->M, t->best, &t->st);
	gs_write1(out, &r);
	gs_close(out);
	gs_rec_free(&r);
}

/* --log: its header, unless the run resumes and appends. */
FILE *
train_open_log(const struct train_opts *o, const model *M)
{
	FILE *f;

	if (!o->log)
		return NULL;
	if (!(f = fopen(o->log, o->resume ? "a" : "w")))
		die("%s: %s", o->log, strerror(errno));
	if (o->resume)
		return f;
	fprintf(f, "epoch\tstep\tseconds\tloss_rec\tloss_rank\tloss_cluster"
		   "\tval_loss_rec\tval_loss_rank\tval_loss_cluster\tval_rec_auc"
		   "\tval_rank_acc\tval_rank_eigenvector\tval_rank_betweenness"
		   "\tval_rank_closeness\tval_rank_subgraph\tval_cluster_acc"
		   "\tval_score\tbest");
	/* softmax(psi) of each task and layer: the paper's Figure 2 */
	for (int t = 0; t < NTASK; t++)
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\tw_%s_%d", model_task_name[t], l + 1);
	/* the objectives besides the tasks, after the paper's columns */
	for (int i = 0; i < M->cfg.nobj; i++) {
		const char *nm = M->cfg.obj[i].name;
		fprintf(f, "\tloss_%s\tval_loss_%s\tval_%s", nm, nm, nm);
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\tw_%s_%d", nm, l + 1);
	}
	fputc('\n', f);
	return f;
}

/* One line of --log: the epoch's mean losses and its validation. */
static void
log_epoch(struct trainer *t, long long epoch, const double *lsum, int nb,
	  const struct val_scores *sc, int better)
{
	FILE *f = t->log;
	const model *M = t->M;

	if (!f)
		return;
	fprintf(f, "%lld\t%lld\t%.3f", epoch + 1, t->st.step, prof_now() - t->t_start);
	for (int k = 0; k < NTASK; k++)
		fprintf(f, "\t%.6f", nb ? lsum[k] / nb : 0.0);
	for (int k = 0; k < NTASK; k++)
		fprintf(f, "\t%.6f", sc->loss[k]);
	fprintf(f, "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%d", sc->auc, sc->rank_mean,
		sc->rank[0], sc->rank[1], sc->rank[2], sc->rank[3], sc->cluster, sc->score, better);
	for (int k = 0; k < NTASK; k++) {
		real lw[MODEL_MAXL];
		nn_mix_weights(lw, M->P.psi[k], M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\t%.6f", (double)lw[l]);
	}
	for (int i = 0; i < M->cfg.nobj; i++) {
		real lw[MODEL_MAXL];
		fprintf(f, "\t%.6f\t%.6f\t%.6f", nb ? lsum[NTASK + i] / nb : 0.0, sc->obj_loss[i],
			sc->obj[i]);
		nn_mix_weights(lw, M->P.ob[i].psi, M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			fprintf(f, "\t%.6f", (double)lw[l]);
	}
	fputc('\n', f);
	if (fflush(f) != 0)
		die("%s: %s", t->o->log, strerror(errno));
}

/* The epoch's line on stderr: its validation scores, '*' when best. */
static void
say_epoch(const struct trainer *t, long long epoch, double seconds, const struct val_scores *sc,
	  int better)
{
	int tasks = t->M->cfg.tasks;
	char line[512];
	size_t len = 0;

	if (t->o->c.quiet)
		return;
	if (tasks & 1 << TASK_REC)
		len += (size_t)snprintf(line + len, sizeof line - len, " rec AUC %.3f", sc->auc);
	if (tasks & 1 << TASK_RANK)
		len += (size_t)snprintf(line + len, sizeof line - len,
					" rank acc %.3f (%.3f %.3f %.3f %.3f)", sc->rank_mean,
					sc->rank[0], sc->rank[1], sc->rank[2], sc->rank[3]);
	if (tasks & 1 << TASK_CLUSTER)
		len += (size_t)snprintf(line + len, sizeof line - len, " cluster acc %.3f",
					sc->cluster);
	for (int i = 0; i < t->M->cfg.nobj && len < sizeof line; i++)
		len += (size_t)snprintf(line + len, sizeof line - len, " %s %.3f",
					t->M->cfg.obj[i].name, sc->obj[i]);
	warnx_("epoch %lld (step %lld, %.1f s): val%s%s", epoch + 1, t->st.step, seconds, line,
	       better ? " *" : "");
}

/* A signal stops the run: in a data-parallel run, once the ranks agreed. */
static int
stopping(const struct trainer *t)
{
	return t->by_graph ? t->stop : stop_signal != 0;
}

/*
 * The training steps of one epoch: the training graphs shuffled with the
 * stream (seed, epoch), cut into batches of B (the remainder left out),
 * each masked afresh, one Adam update each.  Adds each task's loss to
 * lsum; returns the steps taken.  Stops early at --steps (*budget_hit)
 * or on a signal.
 */
static int
train_epoch(struct trainer *t, long long epoch, double *lsum, int *budget_hit)
{
	const struct train_opts *o = t->o;
	struct lgraph **bg = xmallocarray((size_t)t->B, sizeof *bg);
	char msg[256];
	int nb = 0;

	rng_reseed(t->er, (uint64_t)o->s.seed, rng_mix(EPOCH_STREAM, (uint64_t)epoch));
	for (int64_t i = 0; i < t->nt; i++)
		t->perm[i] = (int32_t)i;
	for (int64_t i = t->nt - 1; i > 0; i--) {
		int64_t j = (int64_t)rng_uniform_u64(t->er, (uint64_t)i + 1);
		int32_t x = t->perm[i];
		t->perm[i] = t->perm[j];
		t->perm[j] = x;
	}
	const struct model_cfg *mc = &t->M->cfg;
	for (int64_t i0 = 0; i0 + t->B <= t->nt && !stopping(t); i0 += t->B) {
		double l[NTASK + OBJ_MAX] = { 0 }, loss = 0;
		if (o->s.steps && t->st.step >= o->s.steps) {
			*budget_hit = 1;
			break;
		}
		for (int i = 0; i < t->B; i++)
			bg[i] = t->train[t->perm[i0 + i]];
		if (t->by_graph) {
			say_where(t, "at step", t->st.step + 1, epoch + 1);
			int rc =
			    dstep_run(&t->dp, t->M, bg, (uint64_t)o->s.seed, (uint64_t)t->st.step,
				      &t->bo, &t->b, t->w, stop_signal != 0, l, msg, sizeof msg);
			if (rc < 0 && stop_signal && dist_size() == 1) {
				t->stop = t->cut = 1; /* a feature command cut short */
				break;
			}
			if (rc < 0)
				die("%s", msg);
			if ((t->stop = rc))
				break;
		} else {
			struct mout out1;
			if (batch_build(&t->b, bg, t->B, (uint64_t)o->s.seed, (uint64_t)t->st.step,
					&t->bo, msg, sizeof msg)) {
				if (stop_signal) { /* a feature command cut short */
					t->cut = 1;
					break;
				}
				die("%s", msg);
			}
			model_zero_grad(t->M);
			model_step(t->M, &t->b, t->w, 1, &out1);
			memcpy(l, out1.loss, sizeof out1.loss);
			memcpy(l + NTASK, out1.oloss, sizeof out1.oloss);
		}
		/* the loss trained: the weighted sum (model_step()'s) */
		for (int k = 0; k < NTASK; k++)
			loss += mc->task_w[k] == 1 ? l[k] : mc->task_w[k] * l[k];
		for (int k = 0; k < mc->nobj; k++)
			loss += mc->obj[k].weight * l[NTASK + k];
		if (!isfinite(loss)) /* every rank has the same losses */
			dist_die_all("step %lld: the loss is %g; try a smaller --lr",
				     t->st.step + 1, loss);
		model_adam(t->M, o->s.lr);
		t->st.step++;
		nb++;
		for (int k = 0; k < NTASK + OBJ_MAX; k++)
			lsum[k] += l[k];
		progress_note(&t->pr,
			      "epoch %lld, step %lld: loss %.4f (rec %.4f rank %.4f "
			      "cluster %.4f)",
			      epoch + 1, t->st.step, loss, l[0], l[1], l[2]);
		progress_update(&t->pr, t->pr.done + 1);
		if (o->s.steps && t->st.step >= o->s.steps) {
			*budget_hit = 1;
			break;
		}
	}
	free(bg);
	return nb;
}

/*
 * The end of an epoch of lsum's nb steps, scored sc on the validation
 * graphs: the best parameters kept, its lines on stderr and in --log, the
 * checkpoint.  Returns 1 when --patience ends the run.
 */
static int
epoch_end(struct trainer *t, long long epoch, const double *lsum, int nb, double t_ep,
	  struct val_scores sc, int argc, char **argv)
{
	const struct train_opts *o = t->o;
	struct train_state *st = &t->st;

	int better = sc.score > st->best_score;
	if (better) {
		st->best_score = sc.score;
		st->best_epoch = epoch + 1;
		st->best_step = st->step;
		st->best_sc = sc;
		memcpy(t->best, t->M->p, (size_t)t->M->n * sizeof *t->best);
		st->stale = 0;
	} else
		st->stale++;
	st->epoch = epoch + 1;
	say_epoch(t, epoch, prof_now() - t_ep, &sc, better);
	log_epoch(t, epoch, lsum, nb, &sc, better);
	if (o->checkpoint && !stopping(t))
		write_checkpoint(t, argc, argv);
	if (st->stale >= o->s.patience) {
		if (!o->c.quiet)
			warnx_("no better validation score for %lld epochs; stopping", st->stale);
		return 1;
	}
	return 0;
}

/*
 * Epochs until --epochs, --steps, --patience or a signal ends the run:
 * each scored on the validation graphs; the best parameters are kept and
 * a checkpoint written after each.
 */
void
train_epochs(struct trainer *t, int argc, char **argv)
{
	const struct train_opts *o = t->o;
	struct train_state *st = &t->st;
	long long epoch, todo = (o->s.epochs - st->epoch) * (t->nt / t->B);
	int budget_hit = 0;

	/* progress: the steps this run has left, over every epoch */
	if (o->s.steps && o->s.steps - st->step < todo)
		todo = o->s.steps - st->step;
	progress_init(&t->pr, &o->c);
	progress_start(&t->pr, "steps", todo, NULL);
	t->t_start = prof_now();
	for (epoch = st->epoch; epoch < o->s.epochs && !budget_hit && !stopping(t); epoch++) {
		double lsum[NTASK + OBJ_MAX] = { 0 }, t_ep = prof_now();
		int nb = train_epoch(t, epoch, lsum, &budget_hit), end = 0;
		if (nb == 0 || t->cut) /* a signal or the step budget came first */
			break;
		/* every rank scores its share when the step goes by graph;
		 * rank 0 alone writes, and the others wait for its word on
		 * whether the run goes on */
		struct val_scores sc;
		int cut;

		say_where(t, "validating after step", st->step, epoch + 1);
		if (t->by_graph)
			cut = train_validate_by_graph(t->M, t->val, (int)t->nv, t->B,
						      (uint64_t)o->s.seed, &t->bo, &t->b,
						      &t->dp.one, t->w, &stop_signal, &sc);
		else
			cut = train_validate(t->M, t->val, t->nv, t->B, (uint64_t)o->s.seed, &t->bo,
					     &t->b, t->w, &stop_signal, &sc);
		if (cut) /* a signal cut a feature command short */
			break;
		if (dist_rank() == 0)
			end = epoch_end(t, epoch, lsum, nb, t_ep, sc, argc, argv);
		else
			st->epoch = epoch + 1;
		dist_bcast_idle(&end, sizeof end, 0);
		if (o->checkpoint)
			t->ck_epoch = epoch + 1; /* rank 0 wrote it before its word */
		if (end)
			break;
	}
	progress_done(&t->pr);
	if ((stop_signal || t->stop) && dist_rank() == 0)
		fprintf(stderr, "%s: %s at step %lld; writing the best model so far (epoch %lld)\n",
			err_prog(), stop_signal == SIGINT ? "interrupted" : "terminated", st->step,
			st->best_epoch);
}

/* The run's first line on stderr. */
void
trainer_say_start(const struct trainer *t)
{
	const struct train_opts *o = t->o;
	char how[160] = "";

	if (o->c.quiet)
		return;
	if (dist_size() > 1)
		snprintf(how, sizeof how,
			 ", %d processes (%s), the gradient summed graph by "
			 "graph",
			 dist_size(), dist_library());
	else if (t->by_graph)
		snprintf(how, sizeof how, ", the gradient summed graph by graph");
	char sz[32];
	fprintf(stderr,
		"%s: %" PRId64 " training and %" PRId64 " validation graphs, %" PRId64
		" parameters, tasks %s%s; memory: about %s at most\n",
		err_prog(), t->nt, t->nv, t->M->n, o->s.tasks, how,
		mem_size(sz, sizeof sz, o->need));
}

/* The output: the inputs' provenance, then the best model. */
void
trainer_write_model(gs_file *out, const struct train_data *ds, const struct trainer *t)
{
	const struct train_state *st = &t->st;
	gs_rec r;

	gs_rec_init(&r);
	gs_reader_write_pg(&ds->rd, out);
	modelio_record(&r, MODEL_NAME, &t->o->s, t->M, t->best,
		       st->best_score >= 0 ? &st->best_sc : NULL, st->best_epoch, st->best_step);
	gs_attr_setf(&r, "trained_steps", "%lld", st->step);
	gs_attr_setf(&r, "processes", "%d", dist_size());
	gs_attr_set(&r, "reduce", t->by_graph ? "graph" : "batch");
	gs_write1(out, &r);
	gs_rec_free(&r);
}
