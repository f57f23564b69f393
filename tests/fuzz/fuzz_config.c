/*
 * fuzz_config.c - libFuzzer harness: the YAML config loader (cfg_load_text).
 *
 * Each input is loaded twice: over gcn-train's schema (train_schema, the
 * keys of the pipelines/ YAML files and of every model record's config) and over a
 * local schema with every CFG_ type (int, double, bool, string, int and
 * double ranges, sections nested three deep, dcbm-gen's dashed and
 * underscored spellings).  cfg_load_text never exits: it returns -1 and a
 * message, which must be one line naming the input.  A config that loads
 * is dumped (cfg_dump, as gcn-train writes a model record) and must load
 * back to the same values.  Built and run by `make fuzz`; seeds in
 * tests/fuzz/corpus/config.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "train_settings.h"

#define NAME "fuzz.yaml"

struct local {
	long long count, first_id, seed, irange[2], deep;
	double lr, drange[2], gamma[2];
	int flag, on;
	char *name, *tasks;
};

static size_t
local_schema(struct local *l, struct cfg_key *k, int *seed_set)
{
	struct cfg_key keys[] = {
		{ "count", CFG_INT, &l->count, 0, 1e6, NULL },
		{ "first-id", CFG_INT, &l->first_id, 0, 9e15, NULL },
		{ "first_id", CFG_INT, &l->first_id, 0, 9e15, NULL },
		{ "seed", CFG_INT, &l->seed, -9.2e18, 9.2e18, seed_set },
		{ "nodes", CFG_IRANGE, l->irange, 1, 67108864, NULL },
		{ "p-div-q", CFG_DRANGE, l->drange, 1, 1e6, NULL },
		{ "model.lr", CFG_DOUBLE, &l->lr, -1e300, 1e300, NULL },
		{ "model.flag", CFG_BOOL, &l->flag, 0, 0, NULL },
		{ "model.name", CFG_STRING, &l->name, 0, 0, NULL },
		{ "model.block.gamma", CFG_DRANGE, l->gamma, 2, 10, NULL },
		{ "model.block.deep.x", CFG_INT, &l->deep, -1000, 1000, NULL },
		{ "train.on", CFG_BOOL, &l->on, 0, 0, NULL },
		{ "tasks", CFG_STRING, &l->tasks, 0, 0, NULL },
	};
	memcpy(k, keys, sizeof keys);
	return sizeof keys / sizeof keys[0];
}

/* Defaults within the bounds, as a program's are (its dump must load). */
static void
local_defaults(struct local *l)
{
	memset(l, 0, sizeof *l);
	l->irange[0] = l->irange[1] = 1;
	l->drange[0] = l->drange[1] = 1;
	l->gamma[0] = l->gamma[1] = 2;
}

/* The message of a failed load: one line, naming the input. */
static void
check_msg(const char *msg)
{
	if (strncmp(msg, NAME ": ", sizeof NAME + 1) != 0 && strcmp(msg, NAME) != 0)
		abort();
	if (strchr(msg, '\n') || strchr(msg, '\r'))
		abort();
}

static int
same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static int
train_same(const struct train_settings *s, const struct train_settings *t)
{
	return same_str(s->tasks, t->tasks) && same_str(s->feature_stage, t->feature_stage) &&
	       same_str(s->feature_command, t->feature_command) &&
	       same_str(s->feature_columns, t->feature_columns) &&
	       same_str(s->precision, t->precision) && s->nfeat == t->nfeat &&
	       s->hidden == t->hidden && s->layers == t->layers && s->ntn_k == t->ntn_k &&
	       s->rank_hidden == t->rank_hidden && s->att_hidden == t->att_hidden &&
	       s->bn_eps == t->bn_eps && s->batch == t->batch && s->epochs == t->epochs &&
	       s->steps == t->steps && s->patience == t->patience &&
	       s->validation == t->validation && s->npos == t->npos && s->nneg == t->nneg &&
	       s->lr == t->lr && s->mask_fraction == t->mask_fraction &&
	       s->support_fraction == t->support_fraction && s->tie_rtol == t->tie_rtol &&
	       s->seed == t->seed;
}

static void
train(const char *text, size_t len)
{
	struct train_settings s, t;
	struct cfg_key keys[TRAIN_SCHEMA_MAX], keys2[TRAIN_SCHEMA_MAX];
	char msg[512];
	size_t nk;

	train_settings_default(&s); /* as gcn-train and modelio_from_record do */
	nk = train_schema(&s, keys);
	if (cfg_load_text(text, len, NAME, keys, nk, msg, sizeof msg) != 0) {
		check_msg(msg);
		train_settings_free(&s);
		return;
	}
	/* cfg_dump quotes and escapes every string (config.c, yaml_quote):
	 * whatever loaded must load back from the dump as itself */
	char *dump = cfg_dump(keys, nk);
	train_settings_default(&t);
	train_schema(&t, keys2);
	if (cfg_load_text(dump, strlen(dump), NAME, keys2, nk, msg, sizeof msg) != 0)
		abort();
	if (!train_same(&s, &t))
		abort();
	train_settings_free(&t);
	free(dump);
	train_settings_free(&s);
}

static void
local(const char *text, size_t len)
{
	struct local l, m;
	struct cfg_key keys[16], keys2[16];
	int set = 0, set2 = 0;
	char msg[512];
	size_t nk;

	local_defaults(&l);
	nk = local_schema(&l, keys, &set);
	if (cfg_load_text(text, len, NAME, keys, nk, msg, sizeof msg) != 0) {
		check_msg(msg);
	} else {
		char *dump = cfg_dump(keys, nk);
		local_defaults(&m);
		local_schema(&m, keys2, &set2);
		if (cfg_load_text(dump, strlen(dump), NAME, keys2, nk, msg, sizeof msg) != 0)
			abort();
		/* the dump gives both spellings of first-id: the second wins */
		if (l.count != m.count || l.seed != m.seed || l.irange[0] != m.irange[0] ||
		    l.irange[1] != m.irange[1] || l.drange[0] != m.drange[0] ||
		    l.drange[1] != m.drange[1] || l.gamma[0] != m.gamma[0] ||
		    l.gamma[1] != m.gamma[1] || l.deep != m.deep || l.lr != m.lr ||
		    l.flag != m.flag || l.on != m.on || !same_str(l.name, m.name) ||
		    !same_str(l.tasks, m.tasks))
			abort();
		free(m.name);
		free(m.tasks);
		free(dump);
	}
	free(l.name);
	free(l.tasks);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	train((const char *)data, size);
	local((const char *)data, size);
	return 0;
}
