/*
 * embed_out.h - gcn-embed's output: the rows an encoder's forward pass
 * gives for each graph, one a node or one pooled row a graph, written as a
 * tensor record after the graph, as a table (TSV) or as the rows of a
 * NumPy .npy file, with where each graph's rows begin (a graph column in
 * the table, an offsets .npy beside the rows) and the nodes' names
 * (gcn-embed(1)).
 *
 * Ownership: embed_out_init() and embed_out_free() pair; the caller sets
 * the fields marked "the caller's" (attrs belongs to the struct: fill it
 * with gs_attr_set()), then embed_out_start() allocates the buffers and
 * opens the files, which embed_out_close() completes.  The block outputs,
 * the mix and the names handed to embed_out_graph() stay the caller's.
 *
 *	struct embed_out eo;
 *	embed_out_init(&eo);
 *	eo.kind = EMB_BLOCKS; eo.layers = L; eo.d = d; gs_attr_set(&eo.attrs, ...);
 *	eo.npy_path = path_or_NULL; (and offsets_path, names_path)
 *	embed_out_start(&eo);
 *	for each graph: embed_out_graph(&eo, fg, Hs, mix, names_or_NULL);
 *	or, the rows as they are made (embed_run.c):
 *	embed_out_begin(&eo, fg, names_or_NULL);
 *	for each block l, for each row block: embed_out_rows(&eo, l, r0, k, H);
 *	embed_out_end(&eo);
 *	embed_out_close(&eo);
 *	embed_out_free(&eo);
 */
#ifndef GNN_EMBED_OUT_H
#define GNN_EMBED_OUT_H

#include <stdint.h>

#include "filter.h"
#include "nn.h"
#include "npy.h"
#include "stream.h"

/* What each node's row holds: every block's output side by side (H1 ..
 * HL), one block's, or a task's layer mix. */
enum { EMB_BLOCKS = 0, EMB_BLOCK, EMB_MIX };

/* A graph's row from its node rows (column-wise, --pool): at most
 * EMB_MAXPOOL of them side by side. */
enum { EMB_POOL_MEAN = 0, EMB_POOL_MAX, EMB_POOL_SUM, EMB_NPOOL };
#define EMB_MAXPOOL 8

/* "mean", "max", "sum" */
extern const char *const emb_pool_name[EMB_NPOOL];

struct embed_out {
	/* the caller's, before embed_out_start() */
	int kind;		  /* EMB_x */
	int block;		  /* EMB_BLOCK: which, 1..layers */
	int layers;		  /* the encoder's blocks, L */
	int64_t d;		  /* columns of a block's output */
	const int *pool;	  /* (npool) EMB_POOL_x, in the order of the row */
	int npool;		  /* 0: a row per node */
	gs_rec attrs;		  /* the attributes of every record written, in order */
	const char *npy_path;	  /* the rows' .npy file, or NULL: a stream or TSV */
	const char *offsets_path; /* with npy_path: the graphs' first rows, or NULL */
	const char *names_path;	  /* with npy_path: the rows' node names, or NULL */
	int quiet;		  /* no warnings */
	const char *store;	  /* the caller's, each graph: its records' attribute
				   * "store" (gcn-embed --store), or NULL: none */

	/* embed_out_start()'s */
	int64_t D;	 /* columns of a node's row: L d (EMB_BLOCKS) or d */
	int64_t DP;	 /* columns of a graph's row: npool D */
	npy_writer *npy; /* the .npy file, or NULL */
	npy_writer *off; /* the offsets .npy file, or NULL */
	FILE *names;	 /* the names file, or NULL */
	char *names_tmp; /* its temporary path (outfile.h) */
	int64_t nrows;	 /* rows written so far */
	int tsv_names;	 /* the table has a name column (its first graph had names) */
	int said_names;	 /* the warning about names not written is given */
	float *rows;	 /* (4096 x D) node rows, converted 4096 at a time */
	double *prow;	 /* (DP + D) a graph's pooled row in double, then a chunk's */
	double *pchunk;	 /* (256 x D) node rows in double, pooled 256 at a time */
	gs_rec rec;	 /* the record written */
	/* the graph between embed_out_begin() and embed_out_end() */
	const struct filter_graph *fg;
	const char *const *gnames; /* its nodes' names, or NULL */
	float *keep;		   /* (n x (L-1) d) EMB_BLOCKS to .npy or TSV: the blocks
			  * before the last, until its rows complete theirs */
	size_t keep_cap;	   /* floats allocated at keep */
	/* the poolings' names, "mean,max" say: the records' "pool" */
	char pool_text[EMB_MAXPOOL * 5];
};

/* Every field 0 (no pooling, EMB_BLOCKS), attrs and rec empty. */
void embed_out_init(struct embed_out *eo);

/* The widths from the caller's fields, the buffers, and the files opened:
 * npy_path for rows of DP columns when pooling, D otherwise;
 * offsets_path for int64 offsets, its first 0; names_path.  Dies with one
 * line when a file cannot be created. */
void embed_out_start(struct embed_out *eo);

/*
 * The rows of the graph fg to the output in use: the .npy file when open,
 * else fg->tsv when set, else a tensor record to fg->out ("embedding", n x
 * D float32, or with pooling "graph_embedding", 1 x DP, with the attribute
 * "pool", pool_text, after attrs).  Hs: the L block outputs, each (n x d); mix: the
 * layer mix (n x d) for EMB_MIX, else unused; names: the n nodes' names,
 * or NULL when the graph has none (its nodes are then named by their
 * numbers).
 *
 * The table: a header row before the first graph of the output (fg->index
 * 0), "graph id node e0 e1 ...", with a column "name" after "node" when
 * that first graph has names; then a row per node: the graph's place in
 * the output (fg->index: 0, 1, ... over every input, distinct where ids
 * repeat, as every edge list is graph 0), its id, the node, its name, the
 * values (%.9g, so a float reads back exactly).  Pooled: "graph id e0
 * ...", a row per graph.  The offsets file gets, after each graph, the
 * number of rows written so far, so that graph g's rows are
 * offsets[g] .. offsets[g+1]-1; the names file a line per node row.
 * Names that no output keeps (a graph's in a table whose first graph had
 * none, any in a .npy without names_path) are said once on stderr unless
 * quiet.  A pooled row is the column-wise mean, max or sum of the node
 * rows as floats (probe_pool(), in double, 256 rows at a time) rounded
 * to float.  Dies with one line on a write error.  n >= 1.
 * Time complexity: O(n D), times npool when pooling.
 */
void embed_out_graph(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs,
		     const real *mix, const char *const *names);

/*
 * The same in parts, the rows handed over as the encoder makes them:
 * embed_out_begin() for the graph fg (names as above), then
 * embed_out_rows() for the rows r0 .. r0+k-1 (H: k x d, row-major) of
 * block l's output (0 .. L-1) or, with l -1, of the layer mix, each
 * block's rows in order (r0 a multiple of 256 when pooling), and
 * embed_out_end() after the last.  Rows the kind does not use are
 * ignored.  What the output holds meanwhile: nothing beyond its buffers
 * for one block or the mix (rows written as they come: the .npy file, the
 * table; pooled sums and maxima gathered) or for every block side by side
 * (EMB_BLOCKS) to a .npy file (each block's columns written in place,
 * npy_cols()), the record's n x D values for a tensor record, and, for
 * EMB_BLOCKS to a table, the blocks before the last (n (L-1) d floats in
 * keep) until the last completes their rows.  The bytes written are
 * embed_out_graph()'s.  Time complexity: O(k d) a call, times npool when
 * pooling.
 */
void embed_out_begin(struct embed_out *eo, const struct filter_graph *fg, const char *const *names);
void embed_out_rows(struct embed_out *eo, int l, int64_t r0, int64_t k, const real *H);
void embed_out_end(struct embed_out *eo);

/* The files completed, when open (npy_close(); the offsets, the names),
 * and renamed into place together (outfile_hold()); dies on a write
 * error. */
void embed_out_close(struct embed_out *eo);

void embed_out_free(struct embed_out *eo);

#endif
