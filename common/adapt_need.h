/*
 * adapt_need.h - the memory a gcn-adapt adaptation will hold, estimated
 * from the sizes of its dataset, and checked against what the process can
 * get (mem.h) at each graph's header, before its edges are read, and once
 * the dataset is read (its attributes known), before any run: a dataset
 * that cannot fit is refused in one line with the figure it needs and the
 * options that would fit (gcn-adapt(1), MEMORY).
 *
 * Ownership: struct adapt_need borrows the options and the model, which
 * must outlive it; it allocates nothing.
 */
#ifndef GNN_ADAPT_NEED_H
#define GNN_ADAPT_NEED_H

#include <stdint.h>

#include "adapt_run.h"

struct adapt_need {
	const struct adapt_opts *o;
	const model *M;	 /* the encoder, its configuration */
	double base;	 /* bytes the process held when the check began */
	int64_t n, m, G; /* nodes, edges and graphs of the dataset so far */
	int64_t na;	 /* attribute columns (0 until they are read) */
	int64_t C;	 /* classes (0 until they are known: the head's width) */
};

/* Start the estimate of an adaptation with options o and the model M
 * (read already): what the process holds now is its base. */
void adapt_need_init(struct adapt_need *an, const struct adapt_opts *o, const model *M);

/*
 * The bytes the whole adaptation will hold at its peak: the process's
 * base; the pre-trained copy of the parameters and --save-model's
 * snapshots, the gradients and Adam's moments of what is trained; the dataset (graphs, classes,
 * attributes, features and their scratch) and the encoder's batch (Â,
 * X); the encoder's workspace (model_ws_need(): its caches above the
 * fix-tune boundary, the fixed part below it); the head's buffers; the
 * link tasks' pairs, decoder and training graph.  The libraries'
 * own buffers (OpenBLAS's, oneDNN's) are in the base or not counted.
 * freeze: the boundary (o->freeze, or another to
 * try); bf: the encoder's products in bf16.  Time complexity: O(L).
 */
double adapt_need_bytes(const struct adapt_need *an, int freeze, int bf);

/*
 * gs_set_graph_check()'s callback (ctx a struct adapt_need): the graph
 * whose header rec is adds its nodes and edges to the dataset (graph
 * task: to those before it; else it is the dataset), and the estimate
 * is checked (adapt_need_check()) before its edges are read.
 */
void adapt_need_header(void *ctx, gs_file *in, const gs_rec *rec);

/*
 * Die with mem_require_or()'s line when the estimate does not fit:
 * "WHERE: graph ID (N nodes, M edges) needs about X, this process can
 * have Y (SOURCE); OPTIONS needs about Z; GNNPIPE_MEMORY=off tries
 * anyway", OPTIONS the first of --precision bf16 (where the products are
 * fp32 and the machine has bf16), --freeze L (the encoder fixed: no
 * backward caches) and both that fits, if one does.  where: the input and
 * record, or the dataset's name.  Time complexity: O(L) and mem_room()'s.
 */
void adapt_need_check(const struct adapt_need *an, const char *where, int64_t id);

/*
 * The dataset read (ds): its sizes, attribute columns and classes into an,
 * and adapt_need_check() with them (an edge list, which has no header, is
 * checked here first), before any run.
 */
void adapt_need_dataset(struct adapt_need *an, const struct adapt_data *ds);

#endif
