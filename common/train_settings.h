/*
 * train_settings.h - gcn-train's settings: the config file's schema (the
 * paper's values by default), kept as YAML text in every model record,
 * and the model and batch options they give.
 *
 * Ownership: a train_settings owns its tasks string (allocated by
 * train_settings_default() and the config loader); the caller frees it.
 */
#ifndef GNN_TRAIN_SETTINGS_H
#define GNN_TRAIN_SETTINGS_H

#include <stddef.h>

#include "batch.h"
#include "model.h"

struct cfg_key; /* config.h */

struct train_settings {
	/* the feature stage: "paper", "rwse" or "both" (the built-in sets,
	 * feat_src_builtin()), "stream" (the input's 'features' tensors) or
	 * "command" (feature_command run on every graph the model sees); its
	 * width and column names */
	char *feature_stage, *feature_command, *feature_columns;
	long long nfeat;
	long long hidden, layers, ntn_k, rank_hidden, att_hidden;
	double bn_eps;
	char *tasks; /* the objectives, "rec,rank,cluster" (objective.h; allocated) */
	long long batch, epochs, steps, patience, validation, npos, nneg;
	double lr, mask_fraction, support_fraction, tie_rtol;
	long long seed;
	/* the products' precision (gemm.h): "auto", "fp32" or "bf16" asked;
	 * a model records the one used, fp32 or bf16 (allocated) */
	char *precision;
};

#define TRAIN_SCHEMA_MAX 32

/* The defaults (the paper's); the strings are allocated:
 * train_settings_free() frees them. */
void train_settings_default(struct train_settings *s);
void train_settings_free(struct train_settings *s);
/* The config schema over s into k[TRAIN_SCHEMA_MAX]; returns the key count. */
size_t train_schema(struct train_settings *s, struct cfg_key *k);
/* The objectives of s->tasks (objective.h) into l; 0, or -1 with msg. */
int train_settings_objectives(const struct train_settings *s, struct objlist *l, char *msg,
			      size_t msglen);
/* s->tasks from l, the data's widths included, for the model's config:
 * a list of the paper's words alone stays as it was given. */
void train_settings_set_objectives(struct train_settings *s, const struct objlist *l);
/* The model part of s; 0, or -1 if the task list is bad. */
int train_settings_model_cfg(const struct train_settings *s, struct model_cfg *mc);

/*
 * The feature stage named by arg (--features): "paper", "rwse", "stream",
 * or else a command line, which sets stage "command" (then
 * train_settings_features_builtin).
 */
void train_settings_features(struct train_settings *s, const char *arg);
/*
 * A stage "command" whose command is a built-in set (featcmd_builtin(): a
 * bare nodefeat invocation) becomes that set by name, its command "".
 * Returns 1 when it did (the caller says so), else 0.
 */
int train_settings_features_builtin(struct train_settings *s);
/* 0 if the feature stage of s is one of those (and a command has its
 * command line); else -1 with msg. */
int train_settings_features_check(const struct train_settings *s, char *msg, size_t msglen);

/*
 * The precision asked for (--precision or train.precision: auto, fp32,
 * bf16), chosen on this machine (gemm_choose()) and set for the process;
 * s->precision becomes the one chosen, for the model's config.  Returns
 * 0 with a sentence on the choice in why; -1 with the reason in why when
 * the name is not one of the three (a usage error) or bf16 is not
 * available here (a runtime error: see *unavailable).
 */
int train_settings_precision(struct train_settings *s, int *unavailable, char *why, size_t whylen);

/* The batch part of s. */
void train_settings_batch_opts(const struct train_settings *s, struct batch_opts *bo);

#endif
