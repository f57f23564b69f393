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
 *   FEAT_SRC_BOTH   the paper's four min-max scaled and log1p of degree,
 *                   core number and CI_1 (nodefeat_both(): `nodefeat
 *                   --scale both`, FEAT_BOTH_N columns), computed here
 *   FEAT_SRC_GIVEN  given with the graph (a 'features' tensor of the
 *                   input): only where the graph is not changed, so a
 *                   graph that is masked afresh is an error
 *   FEAT_SRC_CALL   a function of the graphs, called on every batch's
 *                   graphs at once (featcmd.h runs a command)
 * PAPER, RWSE and BOTH are the built-in sets: a model records them by name
 * (features.stage: paper, rwse, both), and they need no shell.
 */
enum { FEAT_SRC_PAPER = 0, FEAT_SRC_GIVEN, FEAT_SRC_CALL, FEAT_SRC_RWSE, FEAT_SRC_BOTH };

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

/* The built-in set named name, "paper", "rwse" or "both", as fs (its
 * scale left as it is).  Returns 0, or -1 for another name. */
int feat_src_builtin(struct feat_src *fs, const char *name);

/* The name of a built-in stage fs ("paper", "rwse", "both"), and its columns
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
	double *raw; /* BOTH: the four raw features of a graph */
	size_t cap;  /* rows raw holds */
};

void featstage_ws_init(struct featstage_ws *ws);
void featstage_ws_free(struct featstage_ws *ws);

/*
 * The features of g under a built-in stage fs (PAPER, RWSE or BOTH), g being
 * the pos-th graph of its batch: the paper's four scaled by fs->scale, the
 * seven of nodefeat_both(), or RWSE
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

/* ---- the input's 'features' tensors ---- */

/* The 'features' tensors of an input's graphs as they come: how many
 * graphs had one, and the first one's width, columns ("" for none, owned)
 * and whether it is nodefeat's four.  Zeroed to start;
 * feat_seen_free() releases it. */
struct feat_seen {
	int64_t n;
	int F;
	char *cols;
	int paper;
};

/* How a tensor differs from the first one seen (bits). */
enum { FEAT_SEEN_COLUMNS = 1, FEAT_SEEN_WIDTH = 2, FEAT_SEEN_PAPER = 4 };

/*
 * The 'features' tensor r of a graph of n nodes: read into *feat and *F
 * (feat_take()), and counted in seen.  Returns 0 (the first, or like
 * it); -1 with msg (feat_take()'s; not counted); or the FEAT_SEEN_x bits
 * in which it differs from the first (the caller says which matter).
 * Time: O(n * F).
 */
int featstage_tensor(struct feat_seen *seen, const gs_rec *r, int32_t n, double **feat, int *F,
		     char *msg, size_t msglen);
void feat_seen_free(struct feat_seen *seen);

/* The 'features' tensor among a graph's records recs[0..nrecs-1], or
 * NULL.  Time: O(nrecs). */
const gs_rec *featstage_held(const gs_rec *recs, int nrecs);

/* Why a graph's tensor (has: it has one, F columns) cannot feed fs, a
 * stage of given tensors whose width the first graph set; NULL when it
 * can, or when fs is another kind of stage. */
const char *featstage_misfit(const struct feat_src *fs, int has, int F);

/* ---- the choice of the stage ---- */

/*
 * What gcn-train knows of its stage and its input (gcn-train(1),
 * Features), and, after featstage_for_training(), what it chose.
 */
struct stage_train {
	const char *stage;   /* features.stage: paper, rwse, stream, command */
	const char *command; /* features.command, for command */
	int given;	     /* --features or the config named the stage */
	int width_given;     /* the config's features.width, to check */
	long long width;
	const char *columns; /* the config's features.columns to check, or NULL */
	int quiet;
	double timeout;	    /* --features-timeout */
	int64_t ngraphs;    /* graphs of the input */
	int64_t nfeat;	    /* how many have a 'features' tensor */
	int64_t premasked;  /* how many of those are pre-masked */
	int fpaper;	    /* the tensors are nodefeat's four (feat_is_paper) */
	const char *fcols;  /* their columns */
	int F;		    /* the first graph's width */
	const graph *g0;    /* the first graph, to learn a command's width */
	const char *chosen; /* out: stage, or "paper" or "stream" for the input's */
	const char *cols;   /* out: its columns (bcols, fcols or the command's) */
	char bcols[6 * RWSE_STEPS_MAX];
};

/*
 * Choose fs for gcn-train: t->stage when given; else the input's
 * 'features' tensors where the graphs are pre-masked (they describe what
 * the model sees), the built-in four where the tensors are nodefeat's four
 * computed before masking, the built-in four without tensors.  A command
 * stage is fc (initialised here, the caller frees it with featcmd_free()).
 * The config's width and columns, when given, must be the stage's.
 * Everything but the last default is said on stderr (unless quiet).  Dies
 * with one line when the stage cannot be used.  Time: a command's run on
 * t->g0, else O(1).
 */
void featstage_for_training(struct feat_src *fs, struct featcmd *fc, struct stage_train *t);

/* What a model records of its stage, as plain values. */
struct stage_rec {
	const char *path;     /* its file, or NULL: no model (the defaults) */
	const char *stage;    /* features.stage */
	const char *command;  /* features.command */
	const char *columns;  /* features.columns */
	int width;	      /* the encoder's input width */
	const char *recorded; /* the command it records for a built-in set
			       * (featcmd_builtin), or NULL */
};

/* What a downstream program knows of its graphs and its options. */
struct stage_ask {
	const char *features; /* --features, or NULL: the model's stage */
	int allow_command;    /* --allow-features-command: the model's command
			       * may run */
	double timeout;	      /* --features-timeout: seconds a command's call
			       * may take, 0 = no limit */
	int scale;	      /* --scale: the paper stage's scaling */
	int fresh;	      /* the encoder is drawn anew (--no-pretrain): the
			       * stage may have another width, the model is
			       * remade for it */
	int changes;	      /* the graph the encoder sees is not the input's
			       * (the link task's training edges): no 'features'
			       * tensors */
	int quiet;
	const graph *g0;   /* a graph of the input, to learn a command's width */
	int ngraphs;	   /* graphs of the input */
	int nfeat;	   /* how many of them have a 'features' tensor */
	int F;		   /* their width */
	const char *fcols; /* and columns */
};

/* Why featstage_for_model() chose its stage, and the stage's columns, for
 * featstage_tell_model(). */
struct stage_said {
	char why[240];
	const char *cols; /* bcols, the input's or the command's */
	char bcols[6 * RWSE_STEPS_MAX];
};

/*
 * Choose fs for a downstream program (gcn-adapt(1), Features):
 * --features, else the model's stage, else the built-in four.  A model
 * file is data: the command it records runs only with a->allow_command, or
 * when --features gives a stage (the same command, say); without either
 * it is an error that names the command and both ways (gcn-embed(1),
 * SECURITY).  A recorded command that is a built-in set is that set,
 * computed here.  A pre-trained model (not a->fresh) must get its width
 * and columns; a fresh one is the caller's to remake for fs->F.  A command
 * stage is fc (initialised here; the caller frees it).  Dies with one line
 * when the stage cannot be used.  Time: a command's run on a->g0, else
 * O(1).
 */
void featstage_for_model(struct feat_src *fs, struct featcmd *fc, const struct stage_rec *rec,
			 const struct stage_ask *a, struct stage_said *said);

/* Say the stage featstage_for_model() chose on stderr, unless a->quiet:
 * every choice but a model's own built-in stage recorded by its name (or
 * the paper's four without a model), and input tensors left unused. */
void featstage_tell_model(const struct feat_src *fs, const struct featcmd *fc,
			  const struct stage_rec *rec, const struct stage_ask *a,
			  const struct stage_said *said);

/* The stage fs in use, for records: "paper", "rwse", "stream" or fc's
 * command. */
const char *featstage_name(const struct feat_src *fs, const struct featcmd *fc);

#endif
