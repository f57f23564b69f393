/*
 * filter.h - the main loop of a per-graph filter (nodefeat, centrality):
 * read every input, build each graph's CSR, let the tool add its own
 * records (or TSV rows) after the graph record, pass every other record on.
 *
 * Ownership: the filter_run() caller owns struct filter and ctx; the
 * records, graph and files handed to the callback belong to filter_run()
 * and live only during the call.
 */
#ifndef GNN_FILTER_H
#define GNN_FILTER_H

#include <stdio.h>

#include "graph.h"
#include "opt.h"
#include "stream.h"

struct filter_graph {
	gs_file *in;	   /* for gs_where() in messages */
	const gs_rec *rec; /* the graph record */
	const graph *g;	   /* its CSR */
	gs_file *out;	   /* stream output, or NULL in TSV mode */
	FILE *tsv;	   /* TSV output, or NULL in stream mode */
	int64_t index;	   /* graphs seen before this one */
	/* With struct filter's wants: the wanted records that followed the
	 * graph (at most one of each name, in input order). */
	const gs_rec *held;
	int nheld;
	/* With struct filter's want_names: the graph's names record (its
	 * nodes' names, gnnstream(5)), or NULL when it has none. */
	const gs_rec *names;
};

struct filter {
	const struct copt *c;
	int tsv;       /* print TSV on stdout instead of a stream */
	int no_output; /* neither: the tool writes a file of its own */
	/* Names of the tensor records this filter writes (NULL-terminated):
	 * records of those names that follow a graph in the input are stale
	 * (they describe an earlier state of the graph) and are dropped. */
	const char *const *replaces;
	/* Names of tensor records of a graph that graph_fn needs (NULL-
	 * terminated; NULL: none): the call then comes after the graph's
	 * records, at the next graph or the end, and sees them in held.  The
	 * output order is kept: the graph, its other records, then the
	 * tool's. */
	const char *const *wants;
	/* Nonzero: graph_fn needs the graph's names record too (fg->names);
	 * the call waits for it as for wants. */
	int want_names;
	/* Called once per graph record; dies on error. */
	void (*graph_fn)(void *ctx, const struct filter_graph *fg);
	/* Or NULL: the bytes the process will hold at most while graph_fn
	 * works on this graph record (the record and its CSR graph
	 * included), from its nodes and edges.  filter_run() checks the
	 * larger of it and what building the graph takes against the memory
	 * the process can get (mem.h) before it builds the graph, and dies in
	 * one line when it does not fit. */
	double (*need_fn)(void *ctx, const gs_rec *rec);
	/* Or NULL: when the graph does not fit, what would make it fit (the
	 * options that need less, with their figure), said after the figure
	 * needed in the one line that refuses it; NULL: nothing would. */
	const char *(*hint_fn)(void *ctx, const gs_rec *rec);
	/* Nonzero: need_fn is also checked at a stream graph's header,
	 * before its edges are read (gs_set_graph_check()): a graph too
	 * large is refused unread, before anything about its body (a
	 * truncated stream, say) is known. */
	int check_header;
	void *ctx;
};

/*
 * Run the filter over files[0..nfiles-1] (none: stdin).  Dies with
 * "prog: FILE: record N: what" on bad input and on write errors.
 * Returns the number of graphs processed.
 */
int64_t filter_run(const struct filter *f, int nfiles, char **files, int argc, char **argv);

/*
 * Die unless a tensor, pairs or label record r read from in carries the id
 * of the graph record it follows, graph_id (-1: no graph read yet from
 * this input, so any id is fine).  Records about a graph follow it
 * (gnnstream(5)).
 */
void filter_follows_graph(gs_file *in, const gs_rec *r, int64_t graph_id);

/*
 * TSV rows of one graph: the header row "node<TAB>col..." before the
 * first graph of the output (and again where the columns change), then a
 * "# graph ID" line, then one row per node: the node id, its name when
 * fg->names is set (a "name" column after "node"), and cols values
 * (%.17g: they read back exactly).
 * vals: (n, cols) row-major.  columns: comma-separated names.
 */
void filter_tsv_rows(FILE *f, const struct filter_graph *fg, const char *columns,
		     const double *vals, int32_t n, int cols);

#endif
