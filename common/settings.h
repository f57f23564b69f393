/*
 * settings.h - gcn-train's settings: the config file's schema (the paper's
 * values by default), kept as YAML text in every model record, and the
 * model and batch options they give.
 *
 * Ownership: a train_settings owns its tasks string (allocated by
 * train_settings_default() and the config loader); the caller frees it.
 */
#ifndef GNN_SETTINGS_H
#define GNN_SETTINGS_H

#include <stddef.h>

#include "batch.h"
#include "model.h"

struct cfg_key;	/* config.h */

struct train_settings {
	long long hidden, layers, ntn_k, rank_hidden, att_hidden;
	double bn_eps;
	char *tasks;		/* "rec,rank,cluster" (allocated) */
	long long batch, epochs, steps, patience, validation, npos, nneg;
	double lr, mask_fraction, support_fraction, tie_rtol;
	long long seed;
};

#define TRAIN_SCHEMA_MAX 32

/* The defaults (the paper's); s->tasks is allocated, the caller frees it. */
void train_settings_default(struct train_settings *s);
/* The config schema over s into k[TRAIN_SCHEMA_MAX]; returns the key count. */
size_t train_schema(struct train_settings *s, struct cfg_key *k);
/* Task bits of a list "rec,rank,cluster"; 0, or -1 if a name is unknown. */
int tasks_parse(const char *list, int *mask);
/* The model part of s; 0, or -1 if the task list is bad. */
int train_settings_model_cfg(const struct train_settings *s, struct model_cfg *mc);

/* The batch part of s. */
void train_settings_batch_opts(const struct train_settings *s, struct batch_opts *bo);

#endif
