/*
 * featcmd.h - a command as the model's feature stage: the graphs the model
 * sees (masked in pre-training, the training edges' graph in the link
 * task) are written to the command's standard input as a stream, and the
 * 'features' tensor it writes for each graph is read back.  Any filter
 * that adds a per-node 'features' tensor to every graph of a stream works
 * (nodefeat(1), a script around awk...).
 *
 * Ownership: featcmd_init() copies the command line; featcmd_free()
 * releases it and what the first call learnt.
 *
 * Each call runs the command once for all the graphs it is given (a
 * training step's batch) through cmdrun.h: in a process group of its own,
 * signals passed on, a timeout, its standard error kept (the last
 * CMDRUN_ERR_KEEP bytes, in memory).  Its input is a temporary file in
 * $TMPDIR (removed at once), so there is no pipe to deadlock on and no
 * process left between calls.  The graphs go with ids 0..G-1.  The command
 * must exit 0 and write exactly one 'features' tensor (float64 or float32,
 * finite) of n rows for each graph; every call must give the same columns.
 * Its standard error is shown for the first call only (its warnings would
 * repeat every step), its end: FEATCMD_SHOW_LINES lines, FEATCMD_SHOW_BYTES
 * bytes at most.  On
 * failure its last line ends the one-line error, and when it wrote more,
 * the kept part is left in a file of $TMPDIR that the error names.
 * When we stop reading its output (it is not a stream of features), that
 * is the error, whatever the command's exit status then (SIGPIPE).
 *
 * Not thread-safe: one call at a time in a process (cmdrun.h).
 */
#ifndef GNN_FEATCMD_H
#define GNN_FEATCMD_H

#include <stddef.h>

#include "graph.h"

#define FEATCMD_TIMEOUT 600	/* default seconds a call may take (0: no limit) */
#define FEATCMD_SHOW_LINES 20	/* its standard error shown on success: the last */
#define FEATCMD_SHOW_BYTES 4096 /* lines, and bytes at most */
#define FEATCMD_MAXF 65536	/* widest tensor taken (featstage.h's MODEL_MAXF) */

struct featcmd {
	char *cmd;	/* the shell command line */
	char *shown;	/* it in messages: one line, cut to 160 bytes */
	double timeout; /* seconds a call may take, 0 = no limit */
	int F;		/* features per node; 0 until a call learns it */
	char *columns;	/* their names, "a,b,c", learnt likewise */
	long long calls;
	int quiet; /* never show the command's standard error */
};

void featcmd_init(struct featcmd *fc, const char *cmd, int quiet, double timeout);
void featcmd_free(struct featcmd *fc);

/*
 * Run the command on gs[0..G-1]; fill feat[i] (gs[i]->n x F, allocated by
 * the caller) when feat is not NULL.  The first call sets fc->F and
 * fc->columns (call it with feat NULL to learn the width).  A feat_call_fn
 * (featstage.h) with fc as its context.  Returns 0, or -1 with msg
 * ("features: 'COMMAND': what").  A signal that ends the call is raised
 * again before it returns (cmdrun_raise): a program whose handler only
 * notes it gets -1 and "interrupted" in msg.
 * Time: the command's, plus writing and reading the graphs, O(n + m).
 */
int featcmd_call(void *fc, const graph *const *gs, int G, double *const *feat, char *msg,
		 size_t msglen);

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
typedef struct gs_file gs_file; /* stream.h */
int featcmd_read(struct featcmd *fc, gs_file *in, const graph *const *gs, int G,
		 double *const *feat, char *msg, size_t msglen);

/*
 * The built-in feature set a command line stands for: "paper", "rwse" or
 * "both" when cmd is exactly `nodefeat` with nothing but -q, --quiet,
 * -j N or --threads N (N > 0: threads change no value), --set paper|rwse
 * and, with the paper set, --scale minmax|both (or --set=..., --scale=...,
 * -jN) after it, in any order, separated by blanks; else NULL.  Such a
 * command computes what the built-in set computes (featstage.h,
 * FEAT_SRC_PAPER, FEAT_SRC_RWSE and FEAT_SRC_BOTH), to the bit, so it is
 * computed in-process and needs no shell.  Anything else (another
 * option, a path, a pipe) is a command.  Time: O(length of cmd).
 */
const char *featcmd_builtin(const char *cmd);

#endif
