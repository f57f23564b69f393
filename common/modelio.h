/*
 * modelio.h - a model in a stream: the model record (config text plus the
 * parameters as named float32 tensors, gnnstream(5)) and back.
 *
 * Ownership: the caller owns the records and models passed in; a model
 * made by model_from_record() is released with model_free().
 */
#ifndef GNN_MODELIO_H
#define GNN_MODELIO_H

#include <stddef.h>

#include "model.h"
#include "settings.h"
#include "stream.h"

#define MODEL_NAME "gcn-pretrain"		/* gcn-train's model record */
#define CKPT_NAME "gcn-pretrain-checkpoint"	/* and its checkpoint */

/* Columns of the ranking targets in a 'centrality' tensor (centrality(1)),
 * in the order of the model's rank heads. */
extern const char *const model_cent_cols[MODEL_NCENT];

/* Validation scores of a pre-trained model (gcn-train(1), Training). */
struct val_scores {
	double auc, rank[MODEL_NCENT], rank_mean, cluster, score;
	double loss[NTASK];
};

/* Where a training run stands: what a checkpoint holds besides the
 * parameters, the best parameters and the Adam moments. */
struct train_state {
	long long epoch, step;		/* done */
	long long best_epoch, best_step, stale;
	double best_score;		/* -1: nothing scored yet */
	struct val_scores best_sc;	/* the best model's scores */
};

/*
 * Fill r as a model record named name holding config and the parameters
 * params (M's layout; M->p or a copy) as float32 tensors by name, with
 * room for extra more tensors after them (gs_rec_param(r, M->nt + i, ...)).
 */
void model_to_record(gs_rec *r, const model *M, const real *params,
		     const char *name, const char *config, int extra);

/*
 * Rebuild a model from a record made by model_to_record(): the sizes come
 * from the record's config (into s; free s->tasks), the parameters from
 * its tensors.  Returns 0, or -1 with msg ("WHERE: parameter 'x' is
 * missing", a bad config...) and M left empty.
 */
int model_from_record(model *M, struct train_settings *s, const gs_rec *r,
		      const char *where, char *msg, size_t msglen);

/*
 * Fill r as the record of a pre-trained model named name (MODEL_NAME): s
 * as its config, params (M's
 * layout) as its tensors, and the attributes epoch, step, the layer
 * weights softmax(psi) of each enabled task and, when sc is not NULL, the
 * val.* scores (gcn-train(1) lists them).
 */
void model_record(gs_rec *r, const char *name, const struct train_settings *s,
		  const model *M, const real *params, const struct val_scores *sc,
		  long long epoch, long long step);

/*
 * Fill r as a checkpoint (CKPT_NAME): M's current parameters, then the
 * tensors state.best (best), state.adam_m and state.adam_v, the state of
 * st as attributes, and those of model_record() with st's best scores.
 */
void checkpoint_record(gs_rec *r, const struct train_settings *s, const model *M,
		       const real *best, const struct train_state *st);

/*
 * Load the checkpoint record r into M (laid out by the config the run
 * uses, which must match the checkpoint's shapes), best (M->n) and st.
 * Every number is checked.  Returns 0, or -1 with msg ("WHERE: what").
 */
int checkpoint_load(model *M, real *best, struct train_state *st, const gs_rec *r,
		    const char *where, char *msg, size_t msglen);

#endif
