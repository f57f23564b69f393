/*
 * adapt_data.h - gcn-adapt's downstream dataset read from streams: the
 * graph of a node or link task (its classes, attributes and 'features'),
 * or every graph of a graph task and its label record; the link task's
 * edges and their classes; link prediction's edges (its items are the
 * edges and as many non-edges, which each run samples).
 *
 * Ownership: adapt_data_read() fills a struct adapt_data that
 * adapt_data_free() releases (graphs, classes, attributes, features, the
 * kept pg records, mvals).  The caller zeroes the struct first and may
 * set predict, Cm and mvals (then owned by the struct) before the read.
 */
#ifndef GNN_ADAPT_DATA_H
#define GNN_ADAPT_DATA_H

#include <stdint.h>

#include "featstage.h"
#include "graph.h"
#include "nn.h"
#include "reader.h"

/* The tasks (--task) and their names; NULL ends the list (opt_keyword). */
enum { ADAPT_NODE = 0, ADAPT_LINK, ADAPT_GRAPH, ADAPT_LINKPRED };
extern const char *const adapt_task_name[];

/* What the reading takes from gcn-adapt's options. */
struct adapt_ask {
	int task;	   /* ADAPT_NODE, ADAPT_LINK, ADAPT_GRAPH or ADAPT_LINKPRED */
	const char *label; /* the node tensor (node task) or label record
			    * (graph task) of the classes */
	int attributes;	   /* --attributes or --attr-only: the node task's
			    * graph must have an 'attributes' tensor */
	int quiet;	   /* no warnings */
	/* Or NULL: called at each graph's header, before its edges are read
	 * (gs_set_graph_check()); it may die (a graph too large) */
	void (*graph_check)(void *ctx, gs_file *in, const gs_rec *rec);
	void *check_ctx;
};

struct adapt_data {
	graph g;   /* node task: the graph */
	graph *gs; /* graph task: every graph (ng) */
	int ng, cap_g;
	int64_t id;
	int32_t *y;	  /* class of each item: node, graph or edge */
	int32_t *eu, *ev; /* link task: every edge (y: its class or -1), input order;
			   * linkpred: every edge of g, canonical order */
	char cvals[256];  /* link task: the edge label of each class */
	int64_t nitems;
	int64_t nlab; /* items with a class (y >= 0); the others have -1 */
	/* --predict: the model's classes (link task: their edge labels) */
	int predict, Cm;
	int64_t *mvals;
	real *A;	     /* (n x na) node attributes, or NULL */
	int64_t na, missing; /* attribute columns; nodes without any */
	int C;
	char name[128];
	int have_graph;
	struct gs_reader rd; /* the inputs; their provenance records */
	/* the input's 'features' tensors: of the graph (node and link tasks)
	 * or of each graph (graph task); their width, columns, and whether
	 * they are nodefeat's four */
	double *feat, **gfeat;
	struct feat_seen fseen;
	/* node task: the names of the graph's nodes (a names record), or
	 * NULL: node i's is names[i], pointing into names_rec */
	const char **names;
	gs_rec names_rec;
	/* the class names of the label tensor or records (class_names=,
	 * gnnstream(5)), or NULL; names_of[c] points into it (nclass_names) */
	char *class_names;
	char *class_buf; /* a copy of it, cut at the commas */
	const char **names_of;
	int nclass_names;
};

/*
 * Read the dataset of the task from files[0..nfiles) (none: the standard
 * input) into ds, checked.  Node and link tasks: one graph record, its
 * 'attributes' and 'has_attributes' tensors, its 'features' tensor and
 * (node task) its classes, the first column of the ask->label tensor; the
 * link task's classes are the distinct non-negative edge labels in
 * ascending order.  Link prediction (ADAPT_LINKPRED): the graph's m
 * edges in canonical order (graph_edges()) are items 0..m-1 of class 1,
 * items m..2m-1 (the non-edges a run samples) have class 0; edge labels
 * are not used (said on stderr).  Graph task: every graph, its 'features' tensor and its
 * ask->label record.  A negative class means none: such an item is never
 * trained on, validated or tested.  Adaptation (ds->predict 0) needs a
 * class for some items (how many have none is said on stderr) and two
 * classes at least; with ds->predict, classes are optional and must be
 * the model's (ds->Cm; the link task's edge labels ds->mvals), and ds->C
 * is ds->Cm.  Dies with one line on bad input ("FILE: record N: what").
 * Time complexity O(input size + m log m) for m edges of a link task.
 */
void adapt_data_read(struct adapt_data *ds, const struct adapt_ask *ask, int nfiles, char **files);

/* Release everything adapt_data_read() (and the caller) put in ds. */
void adapt_data_free(struct adapt_data *ds);

/* The link task's class values of an adapted model ("1,2,5", as
 * modelio_adapted_from_record() checked them) as a new array of C, for mvals.
 * Time complexity O(length of list). */
int64_t *adapt_class_values(const char *list, int64_t C);

/*
 * Keep cn, a class_names= list (gnnstream(5)), as ds's class names when
 * it has C names and ds has none yet; else nothing (a name holding a
 * comma makes the list one that cannot be cut).  Time: O(length).
 */
void adapt_data_class_names(struct adapt_data *ds, const char *cn, long long C);

#endif
