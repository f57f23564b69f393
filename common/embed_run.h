/*
 * embed_run.h - what gcn-embed does to each graph (gcn-embed(1)): the
 * model's feature stage chosen at the first graph, the graph's features,
 * the encoder's forward pass block by block over row blocks, each block's
 * rows handed to the output (embed_out.h) as they are made; and the memory
 * a graph will need, known from its node and edge counts, checked before
 * its features are computed.
 *
 * Ownership: embed_run_init() and embed_run_free() pair; the struct
 * borrows the options, which must outlive it, and owns the model, the
 * batch, the output and the encoder's buffers.  The buffers are sized for
 * a graph before its first block (grown, never shrunk: the next graph of
 * the same size or smaller allocates nothing) and none is allocated
 * between the blocks.
 *
 * What the forward pass holds: block l (H_(l+1) = relu(Â norm(relu(H_l
 * W1) W2))) needs two N x d arrays, and nothing of the blocks before it:
 * in fp32 the block's input H and A = relu(H W1); then T = A W2 over H
 * (read already), normalised in place (norm is over every node of the
 * graph: its means and deviations come from the whole of T, nn_gnorm_fwd(),
 * before any row of the output can be made), and Â T, whose rows read any
 * row of T, over A: the block's output, handed to the output at once
 * (rows written or pooled as they come) and the next block's input.  In
 * bf16 (--precision bf16) an fp32 array T and a bf16 one (relu(H W1),
 * then T normalised, Â's operand), the input in bf16 in T's first half:
 * 6 N d bytes against 8.  The dense products run over the whole graph:
 * OpenBLAS's sgemm over a row block does not give the bits of the same
 * rows in a product over the graph (its kernels' tails and its threads'
 * parts depend on where the rows are), and the output is the bytes of
 * model_encode_fwd(), the forward pass training uses.  Â's product runs
 * a row block at a time in bf16 (its rows are independent).
 *
 * The graph's record, CSR, features and Â come on top (filter.c,
 * batch.c), and the output's own (embed_out.h): a tensor record's n x D
 * values, or the blocks before the last for every block side by side to a
 * .npy file or a table.  embed_run_need() adds them up.
 */
#ifndef GNN_EMBED_RUN_H
#define GNN_EMBED_RUN_H

#include <stdint.h>

#include "batch.h"
#include "embed_out.h"
#include "embed_store.h"
#include "filter.h"
#include "model.h"
#include "opt.h"
#include "pretrained.h"
#include "progress.h"

#define EMBED_RUN_ROWS 4096 /* rows of a row block (a multiple of 256) */

/* gcn-embed's options: the tool parses them, the run reads them. */
struct embed_opts {
	struct copt c;
	const char *model, *features, *npy;
	const char *offsets, *names; /* --offsets, --names: beside --npy */
	const char *kind_text;	     /* --embedding as given */
	int allow_cmd;		     /* --allow-features-command */
	double timeout;		     /* --features-timeout */
	int kind, block, task;	     /* EMB_x; the block (1..L) or the task */
	int tsv;
	int shipped;	       /* no --model: the shipped one */
	int no_pretrain;       /* --no-pretrain: the model's architecture, drawn anew */
	int pool[EMB_MAXPOOL]; /* --pool: EMB_POOL_x in order */
	int npool;	       /* 0: a row per node */
	int want_prec;	       /* --precision: GEMM_x */
	int store;	       /* --store: EMBED_STORE_x */
	const char *prec;      /* the precision used */
};

struct embed_run {
	const struct embed_opts *o;
	struct pretrained pt; /* the model, its stage */
	int staged;	      /* the feature stage is chosen (at the first graph) */
	batch b;
	double *given;	     /* the graph's 'features' tensor */
	struct embed_out eo; /* the rows' output, from the first graph */
	struct progress pr;
	/* the encoder's buffers (embed_run.c's size_for()), grown to a graph */
	real *T;      /* (N x d) fp32: a block's relu(H W1) W2, normalised in
			* place; in bf16 its first half holds the block's input */
	real *T2;     /* (N x d) fp32: the block's input, then its output */
	uint16_t *Tb; /* (N x d) bf16: relu(H W1), then T normalised */
	real *mix;    /* (N x d) EMB_MIX: the layer mix's sums */
	real *H;      /* (EMBED_RUN_ROWS x d) bf16 path: a row block of output */
	uint16_t *Wb; /* (d x d) bf16 path: a weight rounded */
	real *istd;   /* (d) the normalisation's inverse deviations */
	size_t cap_T, cap_T2, cap_Tb, cap_mix; /* values allocated at each */
	size_t grows;			       /* allocations of these buffers, for the tests */
	struct embed_store st; /* the encoder in bf16 over row blocks (--store bf16, file) */
	int pick;	       /* the store of the graph (EMBED_STORE_x, embed_run_need()'s
				* choice under auto; AUTO: fp32) */
	double need_fp32;      /* with pick: what fp32 would have needed, for the note */
};

/* The run of o (whose model is loaded, --no-pretrain's values drawn),
 * the output not started yet (at the first graph). */
void embed_run_init(struct embed_run *er, const struct embed_opts *o);
void embed_run_free(struct embed_run *er);

/*
 * One graph of filter_run() (a filter's graph_fn, ctx the struct
 * embed_run): its stage chosen at the first graph, its features, the
 * forward pass, its rows to the output.  Dies with one line on a graph
 * without nodes, features that do not fit the model, a write error.
 * Time complexity: O(L (N d^2 + nnz(Â) d)) and the feature stage's.
 */
void embed_run_graph(void *ctx, const struct filter_graph *fg);

/* The encoder's forward pass over er->b (one graph, its features in),
 * each block's rows to er->eo, which embed_out_begin() has begun for the
 * graph; the buffers grown to it first.  Time complexity: O(L (N d^2 +
 * nnz(Â) d)). */
void embed_run_encode(struct embed_run *er);

/*
 * The peak bytes of the whole process for a graph of n nodes and m edges
 * (filter's need_fn, ctx the struct embed_run): the graph's record and
 * CSR, its features and Â, the encoder's buffers for the precision in
 * use, and the output's (a record's n x D values, the kept blocks of
 * EMB_BLOCKS to a .npy file or a table, the mix).  When the process
 * cannot have that much (mem_room()), filter_run() dies in one line with the
 * figure (filter_run(), with embed_run_hint()'s options that would fit):
 * the graph is refused before its features are computed.  Time
 * complexity: O(1).
 */
double embed_run_need(void *ctx, const gs_rec *rec);
/* What would make a graph that does not fit fit, with its figure: one
 * block (the last) written as it is made, then in bf16 (filter.h's
 * hint_fn; a static string); NULL when none would. */
const char *embed_run_hint(void *ctx, const gs_rec *rec);

#endif
