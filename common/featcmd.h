/*
 * featcmd.h - a command as the model's feature stage: the graphs the model
 * sees (masked in pre-training, the training edges' graph in the link
 * task) are written to the command's standard input as a stream, and the
 * 'features' tensor it writes for each graph is read back.  Any filter
 * that adds a per-node 'features' tensor to every graph of a stream works
 * (nodefeat(1), nodefeat --set rwse, a script around awk...).
 *
 * Ownership: featcmd_init() copies the command line; featcmd_free()
 * releases it and what the first call learnt.
 *
 * Each call runs `/bin/sh -c COMMAND` once for all the graphs it is given
 * (a training step's batch), its input a temporary file, so there is no
 * pipe to deadlock on and no process left between calls.  The graphs go
 * with ids 0..G-1.  The command must exit 0 and write exactly one
 * 'features' tensor (float64 or float32, finite) of n rows for each graph;
 * every call must give the same columns.  Its standard error is shown for
 * the first call only (its warnings would repeat every step), and on
 * failure its last line goes into the one-line error.
 */
#ifndef GNN_FEATCMD_H
#define GNN_FEATCMD_H

#include <stddef.h>

#include "graph.h"

struct featcmd {
	char *cmd;		/* the shell command line */
	int F;			/* features per node; 0 until a call learns it */
	char *columns;		/* their names, "a,b,c", learnt likewise */
	long long calls;
	int quiet;		/* never show the command's standard error */
};

void featcmd_init(struct featcmd *fc, const char *cmd, int quiet);
void featcmd_free(struct featcmd *fc);

/*
 * Run the command on gs[0..G-1]; fill feat[i] (gs[i]->n x F, allocated by
 * the caller) when feat is not NULL.  The first call sets fc->F and
 * fc->columns (call it with feat NULL to learn the width).  A feat_call_fn
 * (batch.h) with fc as its context.  Returns 0, or -1 with msg
 * ("features: 'COMMAND': what").
 * Time: the command's, plus writing and reading the graphs, O(n + m).
 */
int featcmd_call(void *fc, const graph *const *gs, int G, double *const *feat,
		 char *msg, size_t msglen);

/*
 * The reader of featcmd_call(): the command's output, a stream read from
 * in, gives feat[i] (when feat is not NULL) for gs[0..G-1], and fc->F and
 * fc->columns on the first call.  Records other than 'features' tensors
 * are passed over.  Returns 0, or -1 with msg ("features: 'COMMAND':
 * what"): a tensor for a graph it was not given or given twice, of the
 * wrong shape or type, other columns than earlier graphs', a bad stream,
 * a graph left without one.  It does not close in.
 * Time: O(the stream's size + G).
 */
typedef struct gs_file gs_file;	/* stream.h */
int featcmd_read(struct featcmd *fc, gs_file *in, const graph *const *gs, int G,
		 double *const *feat, char *msg, size_t msglen);

struct feat_src;	/* batch.h */

/*
 * Make the command cmd the feature stage fs (FEAT_SRC_CALL with fc as its
 * context): its first run, on g0, learns the width.  Returns 0, or -1 with
 * msg.
 */
int featcmd_source(struct featcmd *fc, struct feat_src *fs, const char *cmd, int quiet,
		   const graph *g0, char *msg, size_t msglen);

#endif
