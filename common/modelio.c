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

const char *const model_cent_cols[MODEL_NCENT] = {
	"eigenvector", "betweenness", "closeness", "subgraph_log"
};

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

/* The config text of s: YAML, as a config file holds it. */
static void
settings_record(gs_rec *r, const struct train_settings *s, const model *M,
		const real *params, const char *name, int extra)
{
	struct train_settings c = *s;
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	size_t nk = train_schema(&c, keys);
	char *cfg = cfg_dump(keys, nk);

	model_to_record(r, M, params, name, cfg, extra);
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
		mix_weights(w, params + (M->P.psi[t] - M->p), M->cfg.layers);
		for (int l = 0; l < M->cfg.layers; l++)
			len += (size_t)snprintf(val + len, sizeof val - len, "%s%.6f",
						l ? "," : "", (double)w[l]);
		snprintf(key, sizeof key, "layer_weights.%s", task_name[t]);
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
				snprintf(key, sizeof key, "val.rank_acc.%s", model_cent_cols[t]);
				gs_attr_setf(r, key, "%.6f", sc->rank[t]);
			}
		}
		if (M->cfg.tasks & 1 << TASK_CLUSTER)
			gs_attr_setf(r, "val.cluster_acc", "%.6f", sc->cluster);
	}
}

void
model_record(gs_rec *r, const char *name, const struct train_settings *s,
	     const model *M, const real *params, const struct val_scores *sc,
	     long long epoch, long long step)
{
	settings_record(r, s, M, params, name, 0);
	record_attrs(r, M, params, sc, epoch, step);
}

static const char *const state_tensor[3] = { "state.best", "state.adam_m", "state.adam_v" };

void
checkpoint_record(gs_rec *r, const struct train_settings *s, const model *M,
		  const real *best, const struct train_state *st)
{
	const real *src[3] = { best, M->m, M->v };

	settings_record(r, s, M, M->p, CKPT_NAME, 3);
	for (int i = 0; i < 3; i++) {
		gs_param *p = gs_rec_param(r, M->nt + i, state_tensor[i], M->n, 1, GS_F32);
		float *d = p->data;
		for (int64_t j = 0; j < M->n; j++)
			d[j] = (float)src[i][j];
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
		snprintf(msg, len, "%s: %s=%.40s is not a whole number in %lld..%lld", where,
			 key, a, lo, hi);
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

int
checkpoint_load(model *M, real *best, struct train_state *st, const gs_rec *r,
		const char *where, char *msg, size_t len)
{
	long long t;

	for (int i = 0; i < r->nparams; i++) {
		const gs_param *p = &r->params[i];
		real *dst = NULL;
		int64_t n = p->rows * p->cols;
		int ti = model_tensor(M, p->name);
		if (p->dtype != GS_F32) {
			snprintf(msg, len, "%s: parameter '%s' is not float32", where, p->name);
			return -1;
		}
		if (ti >= 0) {
			if (p->rows != M->t[ti].rows || p->cols != M->t[ti].cols) {
				snprintf(msg, len, "%s: parameter '%s' is %" PRId64 " x %" PRId64
					 ", the config makes it %" PRId64 " x %" PRId64 " (resume "
					 "with the checkpoint's config)", where, p->name, p->rows,
					 p->cols, M->t[ti].rows, M->t[ti].cols);
				return -1;
			}
			dst = M->p + M->t[ti].off;
		} else if (n == M->n && strcmp(p->name, state_tensor[0]) == 0)
			dst = best;
		else if (n == M->n && strcmp(p->name, state_tensor[1]) == 0)
			dst = M->m;
		else if (n == M->n && strcmp(p->name, state_tensor[2]) == 0)
			dst = M->v;
		else {
			snprintf(msg, len, "%s: unexpected parameter '%s'", where, p->name);
			return -1;
		}
		for (int64_t j = 0; j < n; j++)
			dst[j] = ((const float *)p->data)[j];
	}
	if (attr_ll(r, "state.adam_t", 0, INT64_MAX, &t, where, msg, len) ||
	    attr_ll(r, "epoch", 0, LLONG_MAX, &st->epoch, where, msg, len) ||
	    attr_ll(r, "step", 0, LLONG_MAX, &st->step, where, msg, len) ||
	    attr_ll(r, "state.best_epoch", 0, LLONG_MAX, &st->best_epoch, where, msg, len) ||
	    attr_ll(r, "state.stale_epochs", 0, LLONG_MAX, &st->stale, where, msg, len) ||
	    attr_ll(r, "state.best_step", 0, LLONG_MAX, &st->best_step, where, msg, len) ||
	    attr_num(r, "state.best_score", 0, 0, &st->best_score, where, msg, len))
		return -1;
	M->adam_t = t;
	/* the best model's scores, written as its val.* attributes */
	struct val_scores *b = &st->best_sc;
	memset(b, 0, sizeof *b);
	if (attr_num(r, "val.score", 1, 0, &b->score, where, msg, len) ||
	    attr_num(r, "val.rec_auc", 1, 0, &b->auc, where, msg, len) ||
	    attr_num(r, "val.rank_acc", 1, 0, &b->rank_mean, where, msg, len) ||
	    attr_num(r, "val.cluster_acc", 1, 0, &b->cluster, where, msg, len))
		return -1;
	for (int c = 0; c < MODEL_NCENT; c++) {
		char key[64];
		snprintf(key, sizeof key, "val.rank_acc.%s", model_cent_cols[c]);
		if (attr_num(r, key, 1, 0, &b->rank[c], where, msg, len))
			return -1;
	}
	return 0;
}
