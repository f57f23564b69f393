/*
 * train_val.h - gcn-train's validation (gcn-train(1), Validation): the
 * model scored on the validation graphs, each masked once from the
 * stream (seed, validation, graph id): the AUC of link reconstruction
 * over all pairs (ties count half), the ranking accuracy of each
 * centrality (ties of the targets left out), the cluster accuracy, each
 * task's mean loss, and their score, the mean of the tasks' scores.
 *
 * Ownership: the caller owns the model, the graphs, the scratch batches
 * and workspace (batch.h, model.h) and sc; nothing is kept between calls.
 */
#ifndef GNN_TRAIN_VAL_H
#define GNN_TRAIN_VAL_H

#include <signal.h>
#include <stdint.h>

#include "batch.h"
#include "model.h"
#include "modelio.h"

/*
 * Score M on the validation graphs vg[0..nv-1], in batches of B graphs,
 * one forward pass each (model_step() without the backward pass); b and w
 * are scratch.  Returns 0 with the scores in sc, or -1 when building a
 * batch failed while *stop is set (a signal cut a feature command short;
 * sc not set).  Dies when building a batch fails otherwise.
 * Time complexity: one forward pass over the graphs, and O(P log P) for
 * the AUC of P pairs.
 */
int train_validate(model *M, struct lgraph **vg, int64_t nv, int B, uint64_t seed,
		   const struct batch_opts *bo, batch *b, mws *w, const volatile sig_atomic_t *stop,
		   struct val_scores *sc);

/*
 * The same scores by graph, for the runs that sum the gradient by graph
 * (--reduce graph, MPI; collective): each rank scores its share of the
 * validation graphs (dstep_split()), one graph's forward pass at a time
 * (model_step_part()); every graph's numbers and pair logits are gathered
 * and added up in graph order, so the scores do not depend on the number
 * of processes.  A batch's loss is the mean over its items of its graphs'
 * losses, as train_validate()'s.  b and one are scratch batches (the
 * share's, one graph's).  sc is set on rank 0 only.  Returns 0, or -1 in
 * one process when a signal (*stop) cut a feature command short; a batch
 * that fails otherwise ends every rank with its one line.
 */
int train_validate_by_graph(model *M, struct lgraph **vg, int nv, int B, uint64_t seed,
			    const struct batch_opts *bo, batch *b, batch *one, mws *w,
			    const volatile sig_atomic_t *stop, struct val_scores *sc);

#endif
