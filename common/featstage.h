/*
 * featstage.h - the feature stage: the model's input features of a graph,
 * computed built in (the paper's four, RWSE), given with the graph (its
 * 'features' tensor) or from a command run on a batch of graphs
 * (featcmd.h).  Every program asks here for "the features of this graph
 * under this stage"; batch.h calls it for each batch.
 *
 * Ownership: a struct feat_src holds no memory of its own (a command
 * stage points at its struct featcmd, which the caller owns and frees);
 * featstage_ws_init()/featstage_ws_free() own a workspace's buffers;
 * feat_take() (re)allocates *feat, which the caller frees.
 *
 * Threads: featstage_graph() is thread-safe with one workspace per
 * thread; featstage_graphs() runs a command, one call at a time in a
 * process (featcmd.h).
 */
#ifndef GNN_FEATSTAGE_H
#define GNN_FEATSTAGE_H

#include <stddef.h>
#include <stdint.h>

#include "featcmd.h"
#include "graph.h"
#include "nodefeat.h"
#include "rwse.h"
#include "stream.h"

#define MODEL_NFEAT 4	 /* the paper's input features (nodefeat) */
#define MODEL_MAXF 65536 /* widest input a feature stage may give */

/*
 * Where the model's input features come from: the feature stage.  The
 * features always describe the graph the model sees (the masked graph in
 * pre-training, the training edges' graph in the link task):
 *   FEAT_SRC_PAPER  the paper's four (nodefeat.h), computed here on each
 *                   graph, scaled by `scale` (FEAT_SCALE_x)
 *   FEAT_SRC_RWSE   the random-walk return probabilities of
 *                   `nodefeat --set rwse` with its defaults (rwse.h:
 *                   RWSE_STEPS columns rw1..), computed here; the walks of
 *                   estimated components are seeded as nodefeat -s 0 seeds
 *                   a graph whose id is its place in the batch, so the
 *                   values are the command's to the bit
 *   FEAT_SRC_GIVEN  given with the graph (a 'features' tensor of the
 *                   input): only where the graph is not changed, so a
 *                   graph that is masked afresh is an error
 *   FEAT_SRC_CALL   a function of the graphs, called on every batch's
 *                   graphs at once (featcmd.h runs a command)
 * PAPER and RWSE are the built-in sets: a model records them by name
 * (features.stage), and they need no shell.
 */
enum { FEAT_SRC_PAPER = 0, FEAT_SRC_GIVEN, FEAT_SRC_CALL, FEAT_SRC_RWSE };

/* FEAT_SRC_CALL: fill feat[i] with gs[i]->n x F values for i < G;
 * 0, or -1 with msg. */
typedef int (*feat_call_fn)(void *ctx, const graph *const *gs, int G, double *const *feat,
			    char *msg, size_t msglen);

struct feat_src {
	int kind;	   /* FEAT_SRC_x [PAPER] */
	int F;		   /* width [MODEL_NFEAT] */
	int scale;	   /* PAPER: FEAT_SCALE_x [MINMAX] */
	feat_call_fn call; /* CALL */
	void *ctx;	   /* CALL: its first argument */
};

/* The paper's four features, minmax-scaled. */
void feat_src_default(struct feat_src *fs);

/* The built-in set named name, "paper" or "rwse", as fs (its scale left
 * as it is).  Returns 0, or -1 for another name. */
int feat_src_builtin(struct feat_src *fs, const char *name);

/* The name of a built-in stage fs ("paper", "rwse"), and its columns
 * into buf (len >= 6 * RWSE_STEPS_MAX is enough). */
const char *feat_src_name(const struct feat_src *fs);
void feat_src_columns(const struct feat_src *fs, char *buf, size_t len);

/*
 * Make the command of fc (featcmd_init'ed) the feature stage fs
 * (FEAT_SRC_CALL with fc as its context): its first run, on g0, learns the
 * width.  Returns 0, or -1 with msg (featcmd_call()'s).
 * Time: one run of the command on g0.
 */
int featstage_command(struct featcmd *fc, struct feat_src *fs, const graph *g0, char *msg,
		      size_t msglen);

/* What a built-in set needs besides its graph, one per thread; grown by
 * the calls, kept between them. */
struct featstage_ws {
	features_ws fw;
	rwse_ws rw;
};

void featstage_ws_init(struct featstage_ws *ws);
void featstage_ws_free(struct featstage_ws *ws);

/*
 * The features of g under a built-in stage fs (PAPER or RWSE), g being the
 * pos-th graph of its batch: the paper's four scaled by fs->scale, or RWSE
 * (fs->F columns) with nodefeat's defaults and its seed for a graph of id
 * pos, so that a graph's features do not depend on the thread that
 * computes them.  (g->n x fs->F) into out.  Returns 0, or -1 for bad
 * options (a scaling or width out of range) or another kind of stage.
 * Time: the set's (nodefeat.h, rwse.h).
 */
int featstage_graph(const struct feat_src *fs, const graph *g, int pos, double *out,
		    struct featstage_ws *ws);

/*
 * The features of a batch gs[0..G-1] under a stage that is called
 * (FEAT_SRC_CALL): the command runs once on all of them and fills out[i]
 * (gs[i]->n x fs->F each, allocated by the caller).  Another kind of
 * stage does nothing here (featstage_graph() computes it per graph).
 * Returns 0, or -1 with msg.
 */
int featstage_graphs(const struct feat_src *fs, const graph *const *gs, int G, double *const *out,
		     char *msg, size_t msglen);

/*
 * A 'features' tensor record r of a graph of n nodes as doubles: *feat
 * (allocated, n x *F) and *F.  Returns 0, or -1 with msg (not n rows, not
 * float, too wide).  Time: O(n * F).
 */
int feat_take(const gs_rec *r, int32_t n, double **feat, int *F, char *msg, size_t msglen);

/* 1 if a 'features' record r is nodefeat's default output (the paper's
 * four, minmax-scaled), which FEAT_SRC_PAPER computes the same. */
int feat_is_paper(const gs_rec *r);

#endif
