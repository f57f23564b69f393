/*
 * modelio.h - a model in a stream: the model record (config text plus the
 * parameters as named float32 tensors, gnnstream(5)) and back; the
 * pre-trained model of gcn-train and the adapted model of gcn-adapt
 * --save-model (encoder and head).
 *
 * Ownership: the caller owns the records and models passed in; a model
 * made by modelio_from_record() or modelio_adapted_from_record() is released with
 * model_free(), a head with head_free(), an adapted_cfg with
 * modelio_adapted_free().  modelio_find() reads through a gs_reader the
 * caller owns, into a record the caller owns.
 */
#ifndef GNN_MODELIO_H
#define GNN_MODELIO_H

#include <stddef.h>

#include "head.h"
#include "model.h"
#include "reader.h"
#include "stream.h"
#include "train_settings.h"

#define MODEL_NAME "gcn-pretrain"	    /* gcn-train's model record */
#define CKPT_NAME "gcn-pretrain-checkpoint" /* and its checkpoint */
#define ADAPTED_NAME "gcn-adapted"	    /* gcn-adapt --save-model's */

/* Columns of the ranking targets in a 'centrality' tensor (centrality(1)),
 * in the order of the model's rank heads. */
extern const char *const modelio_cent_cols[MODEL_NCENT];

/* Validation scores of a pre-trained model (gcn-train(1), Training). */
struct val_scores {
	double auc, rank[MODEL_NCENT], rank_mean, cluster, score;
	double loss[NTASK];
	/* the objectives besides the tasks: each one's score (objhead.h,
	 * ohead_score()) and mean loss */
	double obj[OBJ_MAX], obj_loss[OBJ_MAX];
};

/* Where a training run stands: what a checkpoint holds besides the
 * parameters, the best parameters and the Adam moments. */
struct train_state {
	long long epoch, step; /* done */
	long long best_epoch, best_step, stale;
	double best_score;	   /* -1: nothing scored yet */
	struct val_scores best_sc; /* the best model's scores */
};

/*
 * Fill r as a model record named name holding config and the parameters
 * params (M's layout; M->p or a copy) as float32 tensors by name, with
 * room for extra more tensors after them (gs_rec_param(r, M->nt + i, ...)).
 */
void modelio_to_record(gs_rec *r, const model *M, const real *params, const char *name,
		       const char *config, int extra);

/*
 * Rebuild a model from a record made by modelio_to_record(): the sizes come
 * from the record's config (into s; free s->tasks), the parameters from
 * its tensors.  An adapted model's record (ADAPTED_NAME) gives its encoder
 * as adapted: its adapt.* keys are checked as config keys and left aside,
 * its head tensors are not read.  Returns 0, or -1 with msg ("WHERE:
 * parameter 'x' is missing", a bad config...) and M left empty.
 */
int modelio_from_record(model *M, struct train_settings *s, const gs_rec *r, const char *where,
			char *msg, size_t msglen);

/*
 * Fill r as the record of a pre-trained model named name (MODEL_NAME): s
 * as its config, params (M's
 * layout) as its tensors, and the attributes epoch, step, the layer
 * weights softmax(psi) of each enabled task and, when sc is not NULL, the
 * val.* scores (gcn-train(1) lists them).
 */
void modelio_record(gs_rec *r, const char *name, const struct train_settings *s, const model *M,
		    const real *params, const struct val_scores *sc, long long epoch,
		    long long step);

/*
 * Fill r as a checkpoint (CKPT_NAME): M's current parameters, then the
 * tensors state.best (best), state.adam_m and state.adam_v, the state of
 * st as attributes, and those of modelio_record() with st's best scores.
 */
void modelio_checkpoint_record(gs_rec *r, const struct train_settings *s, const model *M,
			       const real *best, const struct train_state *st);

/*
 * Load the checkpoint record r into M (laid out by the config the run
 * uses, which must match the checkpoint's shapes), best (M->n) and st.
 * Every number is checked.  Returns 0, or -1 with msg ("WHERE: what").
 */
int modelio_checkpoint_load(model *M, real *best, struct train_state *st, const gs_rec *r,
			    const char *where, char *msg, size_t msglen);

/*
 * What modelio_find() looks for and what it saw on the way.  The
 * caller sets the first six fields (zero: the first model record of any
 * name, the input read to its end); the others are filled.
 */
struct model_find {
	const char *name; /* model records of this name only, or NULL: any */
	int last;	  /* take every such record in turn (a checkpoint's
				 * file: the last one stands); 0: the first only */
	int stop;	  /* the first taken ends the reading: the rest of
				 * the input is not read (for a quick look) */
	int no_stdin;	  /* read nothing when the input is standard input
				 * (no file or "-"): it can be read once only */
	/* Called on each record taken while the reader is on it (where is
	 * "FILE: record N"): 0, or -1 with msg, which ends the reading.
	 * NULL: nothing to call. */
	int (*take)(const gs_rec *r, const char *where, void *ctx, char *msg, size_t len);
	void *ctx;		 /* take()'s */
	int n;			 /* model records of that name read */
	long long others;	 /* records read that are neither pg nor model */
	char other[GS_NAME_MAX]; /* the last model record of another name, or "" */
	char where[400];	 /* where the (last) record taken is, or "": a
				 * copy of gs_where()'s line (at most 399) */
};

/*
 * The one loop that finds a model record: read rd's inputs (their pg
 * records kept by rd) and take the first model record named f->name, or
 * with f->last each of them in turn, counting the others in f.  A record
 * taken is passed to f->take() at once (so its error comes before a later
 * bad record's), then, when out is not NULL (a record gs_rec_init() made),
 * moved into out by swapping their buffers: out keeps the first record
 * taken or, with f->last, the last.  Returns 1 when a record was taken, 0
 * when none was (no model record of that name, or standard input left
 * alone for f->no_stdin), or -1 with msg: a bad or missing input
 * (gs_reader_read()), or take()'s error.  Time: one pass over the input,
 * or up to the first record taken with f->stop.
 */
int modelio_find(struct gs_reader *rd, struct model_find *f, gs_rec *out, char *msg, size_t len);

/*
 * What an adapted model was made for and how to apply it: the adapt.*
 * keys of its config (gcn-adapt(1), Inference).  The encoder's own keys
 * are a train_settings (train_settings.h) beside it.
 */
struct adapted_cfg {
	char *task;	      /* "node", "link" or "graph" */
	long long head_width; /* the GCN head's hidden width */
	long long classes;    /* C */
	char *class_values;   /* link task: the edge label of each class, "1,2,3" */
	char *label;	      /* the class tensor or label record it was adapted on */
	long long attributes; /* attribute columns after the encoder's (0: none) */
	double encoder_scale; /* the encoder's columns enter the head times this */
	char *scale;	      /* the paper stage's scaling: "minmax" or "log" */
	long long run;	      /* the run saved */
	char *init;	      /* the run's initial encoder: pretrained, random, ... */
	long long freeze;     /* its fix-tune boundary (-1: everything trained) */
	char *head;	      /* the head's kind: "gcn" or "sage" (HEAD_SELF) */
	char *class_names;    /* the record's class_names= attribute, or NULL
			       * (not a config key: older readers skip it) */
};

#define ADAPT_SCHEMA_MAX 16

/* Defaults (node task, no attributes, scale 1, minmax); the strings are
 * allocated: modelio_adapted_free() frees them. */
void modelio_adapted_default(struct adapted_cfg *a);
void modelio_adapted_free(struct adapted_cfg *a);
/* The config schema over a into k[ADAPT_SCHEMA_MAX]; returns the key count. */
size_t modelio_adapted_schema(struct adapted_cfg *a, struct cfg_key *k);

/*
 * Fill r as an adapted model record (ADAPTED_NAME): the config is s's keys
 * (the encoder, its feature stage) then a's; the tensors are M's, with the
 * values mp (M's layout), then the head's (head_tensors(): head.mix.alpha,
 * ..., their values hp in h's layout), all float32.
 */
void modelio_adapted_record(gs_rec *r, const struct train_settings *s, const model *M,
			    const real *mp, const struct adapted_cfg *a, const struct head *h,
			    const real *hp);

/*
 * Rebuild an adapted model from a record made by modelio_adapted_record(): the
 * encoder into M and s (as modelio_from_record()), a (from its defaults:
 * the caller frees it in any case) with its keys checked (a known
 * task, at least 2 classes, as many class values as classes for the link
 * task, a finite positive scale...), and the head into h (head_init() with
 * the sizes of the config, every head tensor present, of its shape and
 * finite).  Returns 0, or -1 with msg ("WHERE: what") and nothing left to
 * free but a and s.
 */
int modelio_adapted_from_record(model *M, struct train_settings *s, struct adapted_cfg *a,
				struct head *h, const gs_rec *r, const char *where, char *msg,
				size_t msglen);

#endif
