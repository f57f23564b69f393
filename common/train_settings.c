/*
 * train_settings.c - gcn-train's settings, their config schema and the
 * model and batch options they give (see train_settings.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "err.h"
#include "featcmd.h"
#include "gemm.h"
#include "train_settings.h"

void
train_settings_default(struct train_settings *s)
{
	struct model_cfg mc;
	struct batch_opts bo;
	model_cfg_default(&mc);
	batch_opts_default(&bo);
	s->feature_stage = xstrdup("paper");
	s->feature_command = xstrdup("");
	s->feature_columns = xstrdup(FEATURES_COLUMNS);
	s->nfeat = mc.nfeat;
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
	s->validation = -1; /* 124 of every 1024 graphs */
	s->npos = bo.npos;
	s->nneg = bo.nneg;
	s->lr = 1e-3;
	s->mask_fraction = bo.mask_fraction;
	s->support_fraction = bo.support_fraction;
	s->tie_rtol = bo.tie_rtol;
	s->seed = 0;
	s->precision = xstrdup("auto");
}

size_t
train_schema(struct train_settings *s, struct cfg_key *k)
{
	struct cfg_key keys[] = {
		{ "features.stage", CFG_STRING, &s->feature_stage, 0, 0, NULL },
		{ "features.command", CFG_STRING, &s->feature_command, 0, 0, NULL },
		{ "features.width", CFG_INT, &s->nfeat, 1, MODEL_MAXF, NULL },
		{ "features.columns", CFG_STRING, &s->feature_columns, 0, 0, NULL },
		{ "model.hidden", CFG_INT, &s->hidden, 1, 8192, NULL },
		{ "model.layers", CFG_INT, &s->layers, 1, MODEL_MAXL, NULL },
		{ "model.ntn_slices", CFG_INT, &s->ntn_k, 1, 16, NULL },
		{ "model.rank_hidden", CFG_INT, &s->rank_hidden, 1, 65536, NULL },
		{ "model.attention_hidden", CFG_INT, &s->att_hidden, 1, 65536, NULL },
		{ "model.bn_eps", CFG_DOUBLE, &s->bn_eps, 1e-12, 1, NULL },
		{ "tasks", CFG_LIST, &s->tasks, 0, 0, NULL },
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
		{ "train.precision", CFG_STRING, &s->precision, 0, 0, NULL },
		{ "seed", CFG_INT, &s->seed, 0, 9.2e18, NULL },
	};
	memcpy(k, keys, sizeof keys);
	return sizeof keys / sizeof keys[0];
}

int
train_settings_objectives(const struct train_settings *s, struct objlist *l, char *msg,
			  size_t msglen)
{
	return objlist_parse(l, s->tasks, (int)s->hidden, msg, msglen);
}

void
train_settings_set_objectives(struct train_settings *s, const struct objlist *l)
{
	if (objlist_plain(l))
		return; /* the paper's words, as given */
	free(s->tasks);
	s->tasks = objlist_format(l);
}

int
train_settings_model_cfg(const struct train_settings *s, struct model_cfg *mc)
{
	struct objlist l;
	char msg[300];

	model_cfg_default(mc);
	mc->nfeat = (int)s->nfeat;
	mc->d = (int)s->hidden;
	mc->layers = (int)s->layers;
	mc->ntn_k = (int)s->ntn_k;
	mc->rank_hidden = (int)s->rank_hidden;
	mc->att_hidden = (int)s->att_hidden;
	mc->bn_eps = s->bn_eps;
	if (train_settings_objectives(s, &l, msg, sizeof msg) != 0)
		return -1;
	mc->tasks = l.tasks;
	for (int t = 0; t < NTASK; t++)
		mc->task_w[t] = l.task_w[t];
	mc->nobj = l.n;
	memcpy(mc->obj, l.o, sizeof l.o);
	return 0;
}

void
train_settings_free(struct train_settings *s)
{
	free(s->tasks);
	free(s->feature_stage);
	free(s->feature_command);
	free(s->feature_columns);
	free(s->precision);
	s->tasks = s->feature_stage = s->feature_command = s->feature_columns = NULL;
	s->precision = NULL;
}

void
train_settings_batch_opts(const struct train_settings *s, struct batch_opts *bo)
{
	batch_opts_default(bo);
	bo->mask_fraction = s->mask_fraction;
	bo->npos = s->npos;
	bo->nneg = s->nneg;
	bo->support_fraction = s->support_fraction;
	bo->tie_rtol = s->tie_rtol;
}

/* 1 if st names a stage: a built-in set (feat_src_builtin()) or stream */
static int
stage_named(const char *st)
{
	struct feat_src fs;

	return strcmp(st, "stream") == 0 || feat_src_builtin(&fs, st) == 0;
}

void
train_settings_features(struct train_settings *s, const char *arg)
{
	int named = stage_named(arg);

	free(s->feature_stage);
	free(s->feature_command);
	s->feature_stage = xstrdup(named ? arg : "command");
	s->feature_command = xstrdup(named ? "" : arg);
}

int
train_settings_features_builtin(struct train_settings *s)
{
	const char *set;

	if (strcmp(s->feature_stage, "command") != 0 ||
	    !(set = featcmd_builtin(s->feature_command)))
		return 0;
	free(s->feature_stage);
	free(s->feature_command);
	s->feature_stage = xstrdup(set);
	s->feature_command = xstrdup("");
	return 1;
}

int
train_settings_features_check(const struct train_settings *s, char *msg, size_t msglen)
{
	const char *st = s->feature_stage;

	if (!stage_named(st) && strcmp(st, "command") != 0) {
		snprintf(msg, msglen,
			 "features.stage: '%.60s': expected paper, rwse, both, stream or "
			 "command",
			 st);
		return -1;
	}
	if (strcmp(st, "command") == 0 && s->feature_command[0] == '\0') {
		snprintf(msg, msglen, "features.stage is command, but features.command is empty");
		return -1;
	}
	return 0;
}

int
train_settings_precision(struct train_settings *s, int *unavailable, char *why, size_t whylen)
{
	int want = gemm_precision_parse(s->precision), p;

	*unavailable = 0;
	if (want < 0) {
		snprintf(why, whylen, "'%.40s': expected auto, fp32 or bf16", s->precision);
		return -1;
	}
	if ((p = gemm_choose(want, why, whylen)) < 0) {
		*unavailable = 1;
		return -1;
	}
	gemm_set_precision(p);
	free(s->precision);
	s->precision = xstrdup(gemm_precision_name(p));
	return 0;
}
