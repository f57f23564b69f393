/*
 * modelio.c - model records: the parameters and config of a model in a
 * stream, and back (see modelio.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "err.h"
#include "modelio.h"

const char *const modelio_cent_cols[MODEL_NCENT] = { "eigenvector", "betweenness", "closeness",
						     "subgraph_log" };

/*
 * The n values src as the float32 data of p, a tensor of the model record
 * r.  A value that is not finite there (a diverged run, a double beyond
 * float's range) is an error, never a file: dies naming the tensor.
 */
static void
put_f32(gs_param *p, const real *src, int64_t n, const gs_rec *r)
{
	float *d = p->data;
	for (int64_t j = 0; j < n; j++) {
		d[j] = (float)src[j];
		if (!isfinite(d[j]))
			die("%s: parameter '%s' element %" PRId64 " is %g: not written (a model "
			    "holds finite values only)",
			    r->name, p->name, j, (double)src[j]);
	}
}

void
modelio_to_record(gs_rec *r, const model *M, const real *params, const char *name,
		  const char *config, int extra)
{
	gs_rec_clear(r);
	gs_rec_model(r, name, config, M->nt + extra);
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		gs_param *p = gs_rec_param(r, i, t->name, t->rows, t->cols, GS_F32);
		put_f32(p, params + t->off, t->rows * t->cols, r);
	}
}

/* Tensor name of r, or NULL. */
static const gs_param *
find_param(const gs_rec *r, const char *name)
{
	for (int j = 0; j < r->nparams; j++)
		if (strcmp(r->params[j].name, name) == 0)
			return &r->params[j];
	return NULL;
}

/* The rows x cols float32 tensor name of r, or NULL with msg. */
static const gs_param *
check_param(const gs_rec *r, const char *name, int64_t rows, int64_t cols, const char *where,
	    char *msg, size_t msglen)
{
	const gs_param *p = find_param(r, name);
	if (!p || p->dtype != GS_F32 || p->rows != rows || p->cols != cols) {
		snprintf(msg, msglen,
			 "%s: parameter '%s' %s (want %" PRId64 " x %" PRId64 " float32)", where,
			 name, p ? "has the wrong shape or type" : "is missing", rows, cols);
		return NULL;
	}
	return p;
}

/* The rows x cols float32 tensor name of r into dst, every value finite;
 * 0, or -1 with msg. */
static int
load_param(real *dst, const gs_rec *r, const char *name, int64_t rows, int64_t cols,
	   const char *where, char *msg, size_t msglen)
{
	const gs_param *p = check_param(r, name, rows, cols, where, msg, msglen);
	if (!p)
		return -1;
	const float *src = p->data;
	for (int64_t k = 0; k < rows * cols; k++) {
		if (!isfinite(src[k])) {
			snprintf(msg, msglen,
				 "%s: parameter '%s' element %" PRId64 " is not finite", where,
				 name, k);
			return -1;
		}
		dst[k] = src[k];
	}
	return 0;
}

/* modelio_from_record() with the keys extra[0..nextra) in the config too. */
static int
model_from_record_keys(model *M, struct train_settings *s, const struct cfg_key *extra,
		       size_t nextra, const gs_rec *r, const char *where, char *msg, size_t msglen)
{
	struct cfg_key keys[TRAIN_SCHEMA_MAX + ADAPT_SCHEMA_MAX];
	struct model_cfg mc;
	char m2[400];

	if (r->kind != GS_MODEL || !r->config) {
		snprintf(msg, msglen, "%s: not a model record", where);
		return -1;
	}
	train_settings_default(s);
	size_t nk = train_schema(s, keys);
	for (size_t i = 0; i < nextra; i++)
		keys[nk++] = extra[i];
	if (cfg_load_text(r->config, r->config_len, where, keys, nk, m2, sizeof m2) != 0) {
		snprintf(msg, msglen, "config: %s", m2);
		return -1;
	}
	if (train_settings_model_cfg(s, &mc) != 0 || model_layout(M, &mc) != 0) {
		snprintf(msg, msglen, "%s: config: model settings out of range", where);
		return -1;
	}
	/* the shapes first, from the sizes alone: a config that claims a huge
	 * model (d = 8192 and 16 NTN slices: 4 x 9 GB) is refused by the
	 * tensors the record holds, before any allocation */
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		if (!check_param(r, t->name, t->rows, t->cols, where, msg, msglen)) {
			model_free(M);
			return -1;
		}
	}
	model_free(M);
	model_init(M, &mc); /* the layout above: in range */
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		if (load_param(M->p + t->off, r, t->name, t->rows, t->cols, where, msg, msglen) !=
		    0) {
			model_free(M);
			return -1;
		}
	}
	return 0;
}

int
modelio_from_record(model *M, struct train_settings *s, const gs_rec *r, const char *where,
		    char *msg, size_t msglen)
{
	struct cfg_key keys[ADAPT_SCHEMA_MAX];
	struct adapted_cfg a;
	size_t nk = 0;
	int rc;

	/* an adapted model's encoder: its adapt.* keys are read and left */
	modelio_adapted_default(&a);
	if (strcmp(r->name, ADAPTED_NAME) == 0)
		nk = modelio_adapted_schema(&a, keys);
	rc = model_from_record_keys(M, s, keys, nk, r, where, msg, msglen);
	modelio_adapted_free(&a);
	if (rc != 0)
		err_one_line(msg); /* it may quote the record's bytes */
	return rc;
}

/* The config text of s: YAML, as a config file holds it. */
static void
settings_record(gs_rec *r, const struct train_settings *s, const model *M, const real *params,
		const char *name, int extra)
{
	struct train_settings c = *s;
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	size_t nk = train_schema(&c, keys);
	char *cfg = cfg_dump(keys, nk);

	modelio_to_record(r, M, params, name, cfg, extra);
	free(cfg);
}

/* epoch, step, the layer weights and the scores, as attributes of r */
static void
record_attrs(gs_rec *r, const model *M, const real *params, const struct val_scores *sc,
	     long long epoch, long long step)
{
	gs_attr_setf(r, "epoch", "%lld", epoch);
	gs_attr_setf(r, "step", "%lld", step);
	for (int t = 0; t < NTASK; t++) {
		char key[64], val[256];
		size_t len = 0;
		real w[MODEL_MAXL];
		if (!(M->cfg.tasks & 1 << t))
			continue;
		/* the paper's Figure 2: softmax(psi) of each task */
		nn_mix_weights(w, params + (M->P.psi[t] - M->p), M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			len += (size_t)snprintf(val + len, sizeof val - len, "%s%.6f", l ? "," : "",
						(double)w[l]);
		snprintf(key, sizeof key, "layer_weights.%s", model_task_name[t]);
		gs_attr_set(r, key, val);
	}
	if (sc) {
		gs_attr_setf(r, "val.score", "%.6f", sc->score);
		if (M->cfg.tasks & 1 << TASK_REC)
			gs_attr_setf(r, "val.rec_auc", "%.6f", sc->auc);
		if (M->cfg.tasks & 1 << TASK_RANK) {
			gs_attr_setf(r, "val.rank_acc", "%.6f", sc->rank_mean);
			for (int t = 0; t < MODEL_NCENT; t++) {
				char key[64];
				snprintf(key, sizeof key, "val.rank_acc.%s", modelio_cent_cols[t]);
				gs_attr_setf(r, key, "%.6f", sc->rank[t]);
			}
		}
		if (M->cfg.tasks & 1 << TASK_CLUSTER)
			gs_attr_setf(r, "val.cluster_acc", "%.6f", sc->cluster);
		for (int i = 0; i < M->cfg.nobj; i++) {
			char key[64];
			snprintf(key, sizeof key, "val.%s", M->cfg.obj[i].name);
			gs_attr_setf(r, key, "%.6f", sc->obj[i]);
		}
	}
	for (int i = 0; i < M->cfg.nobj; i++) { /* its layer weights, as a task's */
		char key[64], val[256];
		size_t len = 0;
		real w[MODEL_MAXL];
		nn_mix_weights(w, params + (M->P.ob[i].psi - M->p), M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			len += (size_t)snprintf(val + len, sizeof val - len, "%s%.6f", l ? "," : "",
						(double)w[l]);
		snprintf(key, sizeof key, "layer_weights.%s", M->cfg.obj[i].name);
		gs_attr_set(r, key, val);
	}
}

void
modelio_record(gs_rec *r, const char *name, const struct train_settings *s, const model *M,
	       const real *params, const struct val_scores *sc, long long epoch, long long step)
{
	settings_record(r, s, M, params, name, 0);
	record_attrs(r, M, params, sc, epoch, step);
}

static const char *const state_tensor[3] = { "state.best", "state.adam_m", "state.adam_v" };

void
modelio_checkpoint_record(gs_rec *r, const struct train_settings *s, const model *M,
			  const real *best, const struct train_state *st)
{
	const real *src[3] = { best, M->m, M->v };

	settings_record(r, s, M, M->p, CKPT_NAME, 3);
	for (int i = 0; i < 3; i++) {
		gs_param *p = gs_rec_param(r, M->nt + i, state_tensor[i], M->n, 1, GS_F32);
		put_f32(p, src[i], M->n, r);
	}
	gs_attr_setf(r, "state.adam_t", "%" PRId64, M->adam_t);
	gs_attr_setf(r, "state.best_score", "%.17g", st->best_score);
	gs_attr_setf(r, "state.best_epoch", "%lld", st->best_epoch);
	gs_attr_setf(r, "state.best_step", "%lld", st->best_step);
	gs_attr_setf(r, "state.stale_epochs", "%lld", st->stale);
	record_attrs(r, M, M->p, &st->best_sc, st->epoch, st->step);
}

/* Attribute key of r as a whole number in [lo, hi]; 0, or -1 with msg. */
static int
attr_ll(const gs_rec *r, const char *key, long long lo, long long hi, long long *out,
	const char *where, char *msg, size_t len)
{
	const char *a = gs_attr_get(r, key);
	char *end;
	long long x;

	if (a == NULL) {
		snprintf(msg, len, "%s: checkpoint lacks '%s'", where, key);
		return -1;
	}
	errno = 0;
	x = strtoll(a, &end, 10);
	if (end == a || *end != '\0' || errno != 0 || x < lo || x > hi) {
		snprintf(msg, len, "%s: %s=%.40s is not a whole number in %lld..%lld", where, key,
			 a, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

/* Attribute key of r as a finite number (dflt when absent and optional). */
static int
attr_num(const gs_rec *r, const char *key, int optional, double dflt, double *out,
	 const char *where, char *msg, size_t len)
{
	const char *a = gs_attr_get(r, key);
	char *end;
	double x;

	if (a == NULL) {
		if (optional) {
			*out = dflt;
			return 0;
		}
		snprintf(msg, len, "%s: checkpoint lacks '%s'", where, key);
		return -1;
	}
	errno = 0;
	x = strtod(a, &end);
	if (end == a || *end != '\0' || !isfinite(x)) {
		snprintf(msg, len, "%s: %s=%.40s is not a finite number", where, key, a);
		return -1;
	}
	*out = x;
	return 0;
}

/* Each tensor of the checkpoint r is one M holds (of the shape the run's
 * config makes) or one of the state's, of M->n values; 0, or -1 with msg. */
static int
checkpoint_names(const model *M, const gs_rec *r, const char *where, char *msg, size_t len)
{
	for (int i = 0; i < r->nparams; i++) {
		const gs_param *p = &r->params[i];
		int ti = model_tensor(M, p->name), si = 0;
		while (si < 3 && strcmp(p->name, state_tensor[si]) != 0)
			si++;
		if (ti >= 0 && (p->rows != M->t[ti].rows || p->cols != M->t[ti].cols)) {
			snprintf(msg, len,
				 "%s: parameter '%s' is %" PRId64 " x %" PRId64 ", the "
				 "config makes it %" PRId64 " x %" PRId64 " (resume with the "
				 "checkpoint's config)",
				 where, p->name, p->rows, p->cols, M->t[ti].rows, M->t[ti].cols);
			return -1;
		}
		if (ti < 0 && si == 3) {
			snprintf(msg, len, "%s: unexpected parameter '%s'", where, p->name);
			return -1;
		}
	}
	return 0;
}

/* The counters of a checkpoint (gcn-train(1), OUTPUT) into M->adam_t and
 * st, each in range and consistent with the others: a run writes one Adam
 * step per step, its best epoch and step among those done.  0, or -1. */
static int
checkpoint_counters(model *M, struct train_state *st, const gs_rec *r, const char *where, char *msg,
		    size_t len)
{
	long long t;
	const char *bad = NULL;

	if (attr_ll(r, "state.adam_t", 0, LLONG_MAX, &t, where, msg, len) ||
	    attr_ll(r, "epoch", 0, 1000000000, &st->epoch, where, msg, len) ||
	    attr_ll(r, "step", 0, LLONG_MAX, &st->step, where, msg, len) ||
	    attr_ll(r, "state.best_epoch", 0, LLONG_MAX, &st->best_epoch, where, msg, len) ||
	    attr_ll(r, "state.stale_epochs", 0, LLONG_MAX, &st->stale, where, msg, len) ||
	    attr_ll(r, "state.best_step", 0, LLONG_MAX, &st->best_step, where, msg, len) ||
	    attr_num(r, "state.best_score", 0, 0, &st->best_score, where, msg, len))
		return -1;
	if (t != st->step)
		bad = "state.adam_t is not step (one Adam step a training step)";
	else if (st->step < st->epoch)
		bad = "step is below epoch (every epoch takes a step or more)";
	else if (st->best_epoch > st->epoch || st->best_step > st->step)
		bad = "the best epoch or step is after the last one done";
	else if (st->stale > st->epoch)
		bad = "state.stale_epochs is above epoch";
	else if (st->best_score != -1 && !(st->best_score >= 0 && st->best_score <= 1))
		bad = "state.best_score is neither -1 (none yet) nor in [0, 1]";
	if (bad) {
		snprintf(msg, len, "%s: %s: not a checkpoint gcn-train wrote", where, bad);
		return -1;
	}
	M->adam_t = t;
	return 0;
}

/* An optional score attribute (an accuracy or an AUC, in [0, 1]; 0 when
 * absent); 0, or -1 with msg. */
static int
attr_score(const gs_rec *r, const char *key, double *out, const char *where, char *msg, size_t len)
{
	if (attr_num(r, key, 1, 0, out, where, msg, len) != 0)
		return -1;
	if (*out < 0 || *out > 1) {
		snprintf(msg, len, "%s: %s=%g is not in [0, 1]", where, key, *out);
		return -1;
	}
	return 0;
}

/* modelio_checkpoint_load(), its message as written */
static int
checkpoint_check(model *M, real *best, struct train_state *st, const gs_rec *r, const char *where,
		 char *msg, size_t len)
{
	real *state[3] = { best, M->m, M->v };

	if (checkpoint_names(M, r, where, msg, len) != 0)
		return -1;
	/* every tensor present, every value finite (load_param) */
	for (int i = 0; i < M->nt; i++) {
		const struct mtensor *t = &M->t[i];
		if (load_param(M->p + t->off, r, t->name, t->rows, t->cols, where, msg, len) != 0)
			return -1;
	}
	for (int i = 0; i < 3; i++)
		if (load_param(state[i], r, state_tensor[i], M->n, 1, where, msg, len) != 0)
			return -1;
	/* Adam's second moment is a running mean of squared gradients: a
	 * negative one would make the next step's sqrt NaN */
	for (int64_t j = 0; j < M->n; j++)
		if (M->v[j] < 0) {
			snprintf(msg, len,
				 "%s: parameter '%s' element %" PRId64 " is %g: Adam's "
				 "second moment cannot be negative",
				 where, state_tensor[2], j, (double)M->v[j]);
			return -1;
		}
	if (checkpoint_counters(M, st, r, where, msg, len) != 0)
		return -1;
	/* the best model's scores, written as its val.* attributes */
	struct val_scores *b = &st->best_sc;
	memset(b, 0, sizeof *b);
	if (attr_score(r, "val.score", &b->score, where, msg, len) ||
	    attr_score(r, "val.rec_auc", &b->auc, where, msg, len) ||
	    attr_score(r, "val.rank_acc", &b->rank_mean, where, msg, len) ||
	    attr_score(r, "val.cluster_acc", &b->cluster, where, msg, len))
		return -1;
	for (int c = 0; c < MODEL_NCENT; c++) {
		char key[64];
		snprintf(key, sizeof key, "val.rank_acc.%s", modelio_cent_cols[c]);
		if (attr_score(r, key, &b->rank[c], where, msg, len))
			return -1;
	}
	for (int i = 0; i < M->cfg.nobj; i++) {
		char key[64];
		snprintf(key, sizeof key, "val.%s", M->cfg.obj[i].name);
		if (attr_score(r, key, &b->obj[i], where, msg, len))
			return -1;
	}
	return 0;
}

int
modelio_checkpoint_load(model *M, real *best, struct train_state *st, const gs_rec *r,
			const char *where, char *msg, size_t len)
{
	if (checkpoint_check(M, best, st, r, where, msg, len) == 0)
		return 0;
	err_one_line(msg); /* it quotes a record's names and attributes */
	return -1;
}

/* ---- the adapted model (gcn-adapt --save-model, --predict) ---- */

/* The reader's inputs include standard input (no file named, or "-"). */
static int
reads_stdin(const struct gs_reader *rd)
{
	for (int i = 0; i < rd->nfiles; i++)
		if (strcmp(rd->files[i], "-") == 0)
			return 1;
	return rd->nfiles == 0;
}

int
modelio_find(struct gs_reader *rd, struct model_find *f, gs_rec *out, char *msg, size_t len)
{
	gs_rec r;
	int k, found = 0;

	f->n = 0;
	f->others = 0;
	f->other[0] = f->where[0] = '\0';
	if (f->no_stdin && reads_stdin(rd))
		return 0;
	gs_rec_init(&r);
	while ((k = gs_reader_read(rd, &r, msg, len)) > 0) {
		if (k != GS_MODEL) {
			f->others++;
			continue;
		}
		if (f->name && strcmp(r.name, f->name) != 0) {
			snprintf(f->other, sizeof f->other, "%s", r.name);
			continue;
		}
		if (f->n++ > 0 && !f->last)
			continue;
		snprintf(f->where, sizeof f->where, "%s", gs_where(rd->in));
		if (f->take && f->take(&r, f->where, f->ctx, msg, len) != 0) {
			k = -1;
			break;
		}
		found = 1;
		if (out) { /* keep it: swap the buffers */
			gs_rec t = *out;
			*out = r;
			r = t;
		}
		if (f->stop)
			break;
	}
	gs_rec_free(&r);
	return k < 0 ? -1 : found;
}

void
modelio_adapted_default(struct adapted_cfg *a)
{
	memset(a, 0, sizeof *a);
	a->task = xstrdup("node");
	a->head_width = 64;
	a->class_values = xstrdup("");
	a->label = xstrdup("label");
	a->encoder_scale = 1;
	a->scale = xstrdup("minmax");
	a->init = xstrdup("pretrained");
	a->head = xstrdup("gcn");
}

void
modelio_adapted_free(struct adapted_cfg *a)
{
	free(a->task);
	free(a->class_values);
	free(a->label);
	free(a->scale);
	free(a->init);
	free(a->head);
	free(a->class_names);
	a->task = a->class_values = a->label = a->scale = a->init = a->head = NULL;
	a->class_names = NULL;
}

size_t
modelio_adapted_schema(struct adapted_cfg *a, struct cfg_key *k)
{
	struct cfg_key keys[] = {
		{ "adapt.task", CFG_STRING, &a->task, 0, 0, NULL },
		{ "adapt.head_width", CFG_INT, &a->head_width, 1, 65536, NULL },
		{ "adapt.classes", CFG_INT, &a->classes, 2, 1000001, NULL },
		{ "adapt.class_values", CFG_STRING, &a->class_values, 0, 0, NULL },
		{ "adapt.label", CFG_STRING, &a->label, 0, 0, NULL },
		{ "adapt.attributes", CFG_INT, &a->attributes, 0, GS_MAX_ELEMS, NULL },
		{ "adapt.encoder_scale", CFG_DOUBLE, &a->encoder_scale, 0, 1e30, NULL },
		{ "adapt.scale", CFG_STRING, &a->scale, 0, 0, NULL },
		{ "adapt.run", CFG_INT, &a->run, 0, 1e9, NULL },
		{ "adapt.init", CFG_STRING, &a->init, 0, 0, NULL },
		{ "adapt.freeze", CFG_INT, &a->freeze, -1, MODEL_MAXL, NULL },
		{ "adapt.head", CFG_STRING, &a->head, 0, 0, NULL },
	};
	size_t n = sizeof keys / sizeof keys[0];
	memcpy(k, keys, sizeof keys);
	return n;
}

void
modelio_adapted_record(gs_rec *r, const struct train_settings *s, const model *M, const real *mp,
		       const struct adapted_cfg *a, const struct head *h, const real *hp)
{
	struct train_settings sc = *s;
	struct adapted_cfg ac = *a;
	struct cfg_key keys[TRAIN_SCHEMA_MAX + ADAPT_SCHEMA_MAX];
	struct head_tensor ht[HEAD_NT];
	size_t nk = train_schema(&sc, keys);
	nk += modelio_adapted_schema(&ac, keys + nk);
	char *cfg = cfg_dump(keys, nk);
	int nh = head_tensors(h, ht);

	modelio_to_record(r, M, mp, ADAPTED_NAME, cfg, nh);
	free(cfg);
	for (int i = 0; i < nh; i++) {
		gs_param *p =
		    gs_rec_param(r, M->nt + i, ht[i].name, ht[i].rows, ht[i].cols, GS_F32);
		put_f32(p, hp + ht[i].off, ht[i].rows * ht[i].cols, r);
	}
}

/* The checks of an adapted config that its schema's bounds do not make. */
static int
adapted_check(const struct adapted_cfg *a, const char *where, char *msg, size_t len)
{
	int link = strcmp(a->task, "link") == 0, nv = 0;

	if (!link && strcmp(a->task, "node") != 0 && strcmp(a->task, "graph") != 0) {
		snprintf(msg, len, "%s: config: adapt.task '%.40s': expected node, link or graph",
			 where, a->task);
		return -1;
	}
	if (strcmp(a->scale, "minmax") != 0 && strcmp(a->scale, "log") != 0) {
		snprintf(msg, len, "%s: config: adapt.scale '%.40s': expected minmax or log", where,
			 a->scale);
		return -1;
	}
	if (strcmp(a->head, "gcn") != 0 && strcmp(a->head, "sage") != 0) {
		snprintf(msg, len, "%s: config: adapt.head '%.40s': expected gcn or sage", where,
			 a->head);
		return -1;
	}
	if (!(a->encoder_scale > 0)) {
		snprintf(msg, len, "%s: config: adapt.encoder_scale must be above 0", where);
		return -1;
	}
	if (a->attributes > 0 && strcmp(a->task, "node") != 0) {
		snprintf(msg, len, "%s: config: adapt.attributes is for the node task", where);
		return -1;
	}
	if (!link)
		return 0;
	/* the link task's classes: as many whole numbers, ascending */
	const char *c = a->class_values;
	long long prev = 0;
	while (*c) {
		char *end;
		errno = 0;
		long long v = strtoll(c, &end, 10);
		if (end == c || errno || (*end && *end != ',') || (nv > 0 && v <= prev) || v < 0 ||
		    v > 1000000000) {
			snprintf(msg, len,
				 "%s: config: adapt.class_values '%.60s' is not a list "
				 "of ascending whole numbers from 0",
				 where, a->class_values);
			return -1;
		}
		prev = v;
		nv++;
		c = *end ? end + 1 : end;
	}
	if (nv != a->classes) {
		snprintf(msg, len,
			 "%s: config: adapt.class_values lists %d values for %lld "
			 "classes",
			 where, nv, a->classes);
		return -1;
	}
	return 0;
}

/* modelio_adapted_from_record(), its message as written */
static int
adapted_read(model *M, struct train_settings *s, struct adapted_cfg *a, struct head *h,
	     const gs_rec *r, const char *where, char *msg, size_t msglen)
{
	struct cfg_key keys[ADAPT_SCHEMA_MAX];
	struct head_tensor ht[HEAD_NT];

	modelio_adapted_default(a);
	size_t nk = modelio_adapted_schema(a, keys);
	if (model_from_record_keys(M, s, keys, nk, r, where, msg, msglen) != 0)
		return -1;
	if (adapted_check(a, where, msg, msglen) != 0) {
		model_free(M);
		return -1;
	}
	int link = strcmp(a->task, "link") == 0;
	int64_t d = M->cfg.d, hid = a->head_width, C = a->classes;
	/* the shapes first, from the sizes alone: a config that claims a
	 * huge head is refused by the tensors the record holds, before any
	 * allocation */
	struct head shape = { .d = d,
			      .din = d + a->attributes,
			      .hid = hid,
			      .Cout = link ? hid : C,
			      .C = C,
			      .L = M->cfg.layers,
			      .link = link,
			      .self = strcmp(a->head, "sage") == 0 };
	int nh = head_tensors(&shape, ht);
	for (int i = 0; i < nh; i++)
		if (!check_param(r, ht[i].name, ht[i].rows, ht[i].cols, where, msg, msglen)) {
			model_free(M);
			return -1;
		}
	head_init(h, d, shape.din, shape.L, hid, shape.Cout, C,
		  (link ? HEAD_LINK : 0) | (shape.self ? HEAD_SELF : 0), NULL);
	for (int i = 0; i < nh; i++)
		if (load_param(h->p + ht[i].off, r, ht[i].name, ht[i].rows, ht[i].cols, where, msg,
			       msglen) != 0) {
			head_free(h);
			model_free(M);
			return -1;
		}
	return 0;
}

int
modelio_adapted_from_record(model *M, struct train_settings *s, struct adapted_cfg *a,
			    struct head *h, const gs_rec *r, const char *where, char *msg,
			    size_t msglen)
{
	if (adapted_read(M, s, a, h, r, where, msg, msglen) == 0)
		return 0;
	err_one_line(msg); /* it may quote the record's bytes */
	return -1;
}
