/*
 * pretrained.h - a pre-trained model as the downstream programs use it
 * (gcn-adapt, gcn-embed): loaded with its settings and provenance, and its
 * feature stage applied to the downstream graphs (gcn-train(1), Features).
 *
 * Ownership: pretrained_load() fills a struct pretrained that
 * pretrained_free() releases (the model, its settings, the kept pg
 * records, a command stage).
 */
#ifndef GNN_PRETRAINED_H
#define GNN_PRETRAINED_H

#include <stddef.h>

#include "batch.h"
#include "featcmd.h"
#include "model.h"
#include "reader.h"
#include "train_settings.h"

struct pretrained {
	model M;
	struct train_settings ts; /* the model's config (defaults: no model) */
	struct gs_reader rd;	  /* its file; the pg records kept */
	const char *path;	  /* NULL: no model file */
	struct featcmd fc;	  /* a command stage */
	struct feat_src fs;	  /* the stage in use */
	char *recorded;		  /* the command the model records for a
					 * built-in set (featcmd_builtin), or NULL */
};

/* The shipped model (models/gcn-pretrain.gs, installed under
 * share/gnnpipe/): GNNPIPE_MODEL when set, else beside the running
 * program, bin/../models/ in a build tree, bin/../share/gnnpipe/ when
 * installed.  Returns the path found (static storage), or NULL. */
const char *pretrained_default(void);

/*
 * Load the first model record of path (NULL: no model, the default
 * config, for --no-pretrain).  Dies with one line on a bad file.
 */
void pretrained_load(struct pretrained *p, const char *path);
/* The same, returning -1 with that line (without "prog: ") in msg and
 * nothing left to free, instead of dying. */
int pretrained_read(struct pretrained *p, const char *path, char *msg, size_t len);

struct adapted_cfg; /* modelio.h */
struct head;	    /* head.h */

/*
 * The adapted model of path (gcn-adapt --save-model, for --predict) into
 * p (its encoder, settings and provenance, as pretrained_read() fills
 * them), ac and h: its first model record, which must be an adapted one
 * (modelio_adapted_from_record()).  Returns 0 (free with head_free(h),
 * modelio_adapted_free(ac) and pretrained_free(p)), or -1 with one line in msg
 * and nothing left to free.
 */
int pretrained_read_adapted(struct pretrained *p, struct adapted_cfg *ac, struct head *h,
			    const char *path, char *msg, size_t len);
void pretrained_free(struct pretrained *p);

/*
 * Choose p->fs (gcn-adapt(1), Features) by featstage_for_model()
 * (featstage.h, struct stage_ask) from what the model records: --features,
 * else the model's stage, else the built-in four.  A pre-trained model
 * must get its width and columns; a fresh one is remade here for the
 * stage's width.  Every choice but the built-in default is said on stderr
 * (unless quiet).  Dies with one line when the stage cannot be used.
 */
void pretrained_stage(struct pretrained *p, const struct stage_ask *a);

/* The stage in use, for records: "paper", "rwse", "stream" or the
 * command. */
const char *pretrained_stage_name(const struct pretrained *p);

#endif
