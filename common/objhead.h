/*
 * objhead.h - the heads of the objectives besides the paper's tasks
 * (objective.h) over a batch (batch.h, struct bobj): each reads its own
 * layer mix of the encoder's outputs at the rows its kind says, computes
 * its loss and, backward, ADDS the gradients of its head and mix into the
 * gradient view and writes the gradient of the mixed rows, which the
 * encoder's backward pass takes as one more source (model.h, struct
 * mix_src).  model.c calls these from model_step_part().
 *
 *   node mse, xent  F = mix(rows) -> relu(F W1 + b1) W2 + b2: C values
 *                   (mean squared error) or C class logits (softmax)
 *   node rank       C MLPs d-h-1 as the rank task's (nn.h nn_rank_fwd) on
 *                   the pair nodes, RankNet on the pairs
 *   graph           the first view's rows pooled by graph, [mean, max]
 *                   (2d) -> MLP -> C values, mean squared error
 *   contrast        level graph: every view's rows pooled -> MLP (2d-h-p)
 *                   -> unit rows -> InfoNCE (one segment: the batch);
 *                   level node: the drawn rows -> MLP (d-h-p) -> unit rows
 *                   -> InfoNCE within each graph
 *   mask            the masked rows -> MLP (d-h-F) -> the inputs,
 *                   standardised: sce or mse
 *
 * Ownership: nothing is kept; the caller owns every buffer.
 */
#ifndef GNN_OBJHEAD_H
#define GNN_OBJHEAD_H

#include <stdint.h>

#include "batch.h"
#include "nn.h"
#include "objective.h"

/* Objective i's tensors in a parameter view (model.h, struct mview: the
 * same layout over the parameters and the gradients). */
struct oview {
	real *alpha, *psi;	 /* its layer mix */
	real *W1, *b1, *W2, *b2; /* its head (a rank head: W2 is w2) */
	real *tok;		 /* kind mask: the token (1 x F) */
};

/* The rows objective i mixes: their indices (NULL: rows 0..R-1) and
 * count, for the head and for the encoder's backward pass. */
const int32_t *ohead_rows(const struct objective *ob, const batch *b, int i, int64_t *R);

/* Scratch (reals) objective i's pass over b needs; d the hidden width,
 * F the input's. */
int64_t ohead_arena(const struct objective *ob, const batch *b, int i, int64_t d, int64_t F);

/*
 * Objective i's forward pass over b (H: the encoder's L outputs), its
 * loss, and with backward the gradients: G += its head's and mix's, dF
 * (R x d, ohead_rows()) the gradient of its mixed rows.  The loss and
 * gradients are its mean times its weight (objective.h); the mean is
 * returned.  stat[4] gets what its validation score adds up (ohead_score).
 * Time complexity: that of its MLP over its rows, plus the InfoNCE's
 * O(p sum n_s^2) for a contrast.
 */
double ohead_step(const struct objective *ob, const struct oview *P, const struct oview *G,
		  const batch *b, int i, real *const *H, int L, int64_t d, real *arena, real *dF,
		  int backward, double stat[4]);

/*
 * The validation score of an objective from its stats summed over the
 * validation batches: the share of R^2 over the targets' variance (mse,
 * clamped at 0), the accuracy (xent, rank: of the pairs that are not
 * ties; contrast: of the positive ranked first), the mean cosine (sce,
 * clamped at 0).  In 0..1.
 */
double ohead_score(const struct objective *ob, const double stat[4]);

/* The tensors of an objective in a model's layout (model.c), in order:
 * mix.NAME.alpha (1 x d), mix.NAME.psi (1 x L), NAME.W1, NAME.b1,
 * NAME.W2 (a rank head's w2), NAME.b2, and for a mask NAME.token
 * (1 x F); each with its shape and the pointer of v it sets.  d, L, F:
 * the model's hidden width, blocks and input width.  Returns the count
 * (at most OHEAD_MAXT). */
#define OHEAD_MAXT 8
struct otensor {
	char name[48];
	int64_t rows, cols;
	real **at; /* the view's pointer this tensor sets */
};
int ohead_tensors(const struct objective *ob, int64_t d, int L, int64_t F, struct oview *v,
		  struct otensor *t);

#endif
