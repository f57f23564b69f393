/*
 * train_data.h - gcn-train's input (gcn-train(1), INPUT): every graph of
 * its streams with the records that follow it (a 'cluster' and a
 * 'centrality' tensor, a 'mask' pair set, a 'features' tensor), checked
 * for the pre-training tasks, their ids made distinct.
 *
 * Ownership: a zeroed struct train_data is filled by train_data_read()
 * and released by train_data_free(): the graphs (struct lgraph, batch.h),
 * the features' columns and the reader with the inputs' provenance
 * records.  Every function dies with one line on bad input.
 */
#ifndef GNN_TRAIN_DATA_H
#define GNN_TRAIN_DATA_H

#include <stdint.h>

#include "batch.h"
#include "objective.h"
#include "reader.h"

struct train_data {
	struct lgraph **g; /* (n) the graphs in input order */
	int64_t n, cap;
	/* the objectives whose targets are read (objective.h), and for each
	 * of loss mse its target columns' means and standard deviations over
	 * the input's graphs (train_data_check()) */
	const struct objlist *ol;
	double *mu[OBJ_MAX], *sd[OBJ_MAX];
	struct gs_reader rd; /* the inputs; their provenance records */
	/* the input's 'features' tensors: how many graphs have one, their
	 * columns (the same for all), whether all are nodefeat's four */
	struct feat_seen fseen;
};

/*
 * Every graph of files[0..nfiles-1] (none: standard input) into ds, with
 * the tensor and pairs records that follow it: 'features', 'mask', the
 * rank and cluster tasks' targets ('centrality' and 'cluster' unless ol
 * names others) and the targets ol's objectives name; other records are
 * skipped.
 * Dies when a record does not follow its graph (by id, within one input),
 * on a model record, on a second 'features' tensor of a graph, on
 * 'features' columns or scaling that differ between graphs, and on
 * tensors of the wrong shape or out-of-range values.  quiet: no warnings
 * from building the graphs.  check (or NULL) is called with ctx at each
 * graph's header, before its edges are read (train_need_header()).
 * Time complexity: O(size of the input).
 */
void train_data_read(struct train_data *ds, const struct objlist *ol, int nfiles, char **files,
		     int quiet, void (*check)(void *ctx, gs_file *in, const gs_rec *rec),
		     void *ctx);

/*
 * Die when ds has no graphs, when a graph has no nodes, or lacks the
 * tensor that a task or objective of ol needs ('centrality' for the rank
 * task, or the target it names; each objective's target), when no graph
 * has the cluster task's 'cluster', or when an objective's targets differ
 * in width between graphs.  The cluster task leaves out the graphs
 * without clusters (K = 0: no support, no query), said once on stderr
 * unless quiet.  Graphs without them get zero placeholders (one cluster,
 * centralities 0) for the tasks that are off.  Sets each
 * objective's width from its targets where ol has none (columns; kind
 * node, loss xent: the classes, at least 2), dies where one was given and
 * differs, and computes the means and deviations of loss mse's targets.
 * Time complexity: O(total nodes x target columns).
 */
void train_data_check(struct train_data *ds, struct objlist *ol, int quiet);

/*
 * Graphs that share an id (cat of edge lists, or of streams each numbered
 * from 0) would draw alike masks, which are seeded by (seed, step, graph
 * id): when an id repeats, every graph takes its position in the input as
 * its id instead, said once on stderr unless quiet.  Records were paired
 * with their graph by position as they were read, so nothing else
 * changes; inputs whose ids all differ keep them, and their masks.
 * Time complexity: O(G log G).
 */
void train_data_renumber(struct train_data *ds, int quiet);

/* Free what train_data_read() filled; a zeroed ds is fine. */
void train_data_free(struct train_data *ds);

#endif
