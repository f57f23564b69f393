/*
 * settings.c - gcn-train's settings, their config schema and the model
 * and batch options they give (see settings.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "err.h"
#include "settings.h"

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
