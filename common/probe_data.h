/*
 * probe_data.h - what a linear probe reads (linprobe(1)): the items'
 * vectors and classes from a stream, either the nodes of one graph (a
 * vector tensor and a tensor of classes) or every graph of the input (a
 * vector tensor, pooled over the nodes or one row a graph, and a label
 * record), with the checks that every class can be split.
 *
 * Ownership: probe_input_read() fills a struct probe_input (its reader
 * left open on the inputs, for their pg records) that probe_input_free()
 * releases; the caller owns struct probe_ask and the file names.
 *
 *	struct probe_input in;
 *	probe_input_read(&in, &ask, nfiles, files);
 *	struct probe_data d = { .n = in.n, .D = in.D, .X = in.X, .y = in.y, .C = in.C };
 *	... gs_reader_write_pg(&in.rd, out); probe_run(...) ...
 *	probe_input_free(&in);
 */
#ifndef GNN_PROBE_DATA_H
#define GNN_PROBE_DATA_H

#include <stdint.h>

#include "reader.h"
#include "stream.h"

/* The items: the nodes of one graph, or the graphs. */
enum { PROBE_TASK_NODE = 0, PROBE_TASK_GRAPH };

/* What to read. */
struct probe_ask {
	int task;	    /* PROBE_TASK_x */
	const char *tensor; /* the vectors' tensor */
	const char *label;  /* the classes: a tensor (node task), label records (graph task) */
	int pool;	    /* graph task: PROBE_POOL_x (probe.h) */
	int folds;	    /* the runs are this many folds (0: hold-out runs) */
	int quiet;	    /* no warnings */
};

/* What the input gives. */
struct probe_input {
	struct gs_reader rd; /* the inputs, their pg records kept */
	double *X;	     /* (n x D) the vectors */
	int32_t *y;	     /* (n) their classes, negative: none */
	int64_t n;	     /* items */
	int D, C;	     /* values per vector; classes: 1 + the largest */
	char dataset[128];   /* the first graph's "dataset" attribute, or the input's name */
	gs_rec attrs;	     /* the attributes of the first vector tensor */
	/* private to the reading */
	int64_t cap;	 /* graph task: rows X holds */
	int ngraphs;	 /* graph records read */
	int32_t graph_n; /* the nodes of the graph in hand (-1: none yet) */
	double *tmp;	 /* graph task: one graph's tensor */
};

/*
 * Read files[0..nfiles-1] (none: standard input) into in, as a says.
 * Node task: the input holds at most one graph and, after it, a tensor
 * a->tensor (n x D, any numeric type, 1 <= D <= 2^24) and a tensor
 * a->label of integer classes (n x 1 or more columns: the first is the
 * class) of that graph, in either order.  Graph task: every graph record
 * is an item, its vector from the tensor a->tensor that follows it (one
 * row a node, pooled by a->pool: 2 D values for meanmax; or, with
 * PROBE_POOL_NONE, 1 x D as it is) and its class from a label record
 * a->label (none: no class); every graph has the same width.  Classes
 * above 1,000,000 are refused; negative ones mean none.  Then the
 * classes: C, at least two of them present, none with a single item for
 * hold-out runs (a->folds 0); a warning (unless a->quiet) when a class
 * has fewer items than a->folds and when some items have no class.  Dies
 * with one line on any of these and on a bad stream.
 * Time complexity: O(the input's size).
 */
void probe_input_read(struct probe_input *in, const struct probe_ask *a, int nfiles, char **files);

void probe_input_free(struct probe_input *in);

#endif
