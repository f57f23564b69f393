/*
 * attach.h - what graph-attach does (graph-attach(1)): a table read and
 * its columns coded (classes, clusters, attributes), then written as
 * records onto the nodes of a graph (attach_nodes: a filter, matched by
 * name, id or row order) or onto the graphs of a stream (attach_graphs:
 * label records).  The table itself is import_table.h's.
 *
 * Ownership: the caller owns struct attach; it is zeroed, its options
 * set, then attach_code_table(), attach_nodes() or attach_graphs(), then
 * attach_free(), which releases what those allocated.  Every function
 * dies with one line on bad input ("prog: FILE: where: what"); messages
 * that quote the table have its control bytes as '?'.
 */
#ifndef GNN_ATTACH_H
#define GNN_ATTACH_H

#include <stdint.h>

#include "import.h"
#include "import_table.h"
#include "opt.h"
#include "stream.h"

enum { ATTACH_BY_AUTO = -1 }; /* else TABLE_BY_x */

struct attach {
	struct copt c;
	/* options */
	const char *path, *label, *label_name, *cluster, *attributes, *key, *unknown;
	int by, delim, graphs, skip;
	/* the table, its columns coded */
	struct table t;
	int kcol, lcol, ccol, *acols, na;
	int32_t *lab, *clu; /* (rows) class of each row, -1: none */
	classes lcls, ccls;
	char *class_names; /* the label's, in class order */
	float *attr;	   /* (rows, na) */
	char acolumns[65536];
	/* per graph */
	const char *replaces[5];
	int32_t *row_of;
	char warn[2][8400]; /* the warnings of the graph, said at the end */
	int said_long;	    /* the class names were too long: said once */
	gs_rec out;
};

/* Read the table at a->path and code its columns (the key, --label,
 * --cluster, --attributes; a .npy table's defaults).  Time: O(table). */
void attach_code_table(struct attach *a);

/* The node records of the one graph of files[0..nfiles) (none: standard
 * input) after it, matched by a->by; the output as a->c says.  Time:
 * O(input + n (attributes + 1)). */
void attach_nodes(struct attach *a, int nfiles, char **files, int argc, char **argv);

/* A label record after each graph of the input, its class from the table
 * (by id or order; -1 for none).  Time: O(input + rows). */
void attach_graphs(struct attach *a, int nfiles, char **files, int argc, char **argv);

void attach_free(struct attach *a);

#endif
