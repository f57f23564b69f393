/*
 * import.h - raw downstream datasets as gnnstream records (graph-import(1)):
 * the LINQS content/cites format (Cora, CiteSeer, Pubmed-Diabetes), the TU
 * Dortmund graph kernel format (IMDB-BINARY, PROTEINS, ...), MovieLens
 * 100K/1M as a bipartite user-item graph, plain "u v [label]" edge
 * lists, the graph files of igraph's C library (GraphML, GML, Pajek, LGL,
 * NCOL, DIMACS) and Matrix Market; one file each (import_linqs.c,
 * import_tu.c, import_movielens.c, import_edgelist.c, import_igraph.c,
 * import_mtx.c), their text read by lineread.h.  Every reader checks what
 * it reads and stops at the first bad line.
 *
 * Ownership: an importer owns nothing when it returns; the caller owns
 * out, the options and the message buffer.  The helpers below (string
 * maps, class lists, edge lists) pair an init (a zeroed struct) with a
 * _free().
 *
 * Each importer returns 0 with the records written to out; or -1 (bad
 * data: "FILE: line N: what"; exit 1) or -2 (misuse: exit 2) with one
 * line in msg, and nothing written after the error (what was written
 * before is the caller's to discard, as -o does).  Warnings (dropped
 * links, self-loops, partial attributes) go to stderr unless quiet.
 */
#ifndef GNN_IMPORT_H
#define GNN_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "lineread.h"
#include "smap.h"
#include "stream.h"

struct import_opts {
	const char *attributes;	  /* linqs: sparse "node feature value" file */
	int64_t attr_dim;	  /* linqs: width of attributes, 0 = max + 1 */
	const char *label;	  /* igraph's formats: the node attribute that is the class */
	const char *name;	  /* dataset= attribute (NULL: from the file name) */
	int64_t nodes;		  /* edgelist: node count, 0 = largest id + 1 */
	int names;		  /* edgelist: every node word is a name */
	const char *node_list;	  /* edgelist: the nodes, a name a line */
	int skip_unknown;	  /* linqs: drop links to ids not in the content */
	int quiet;		  /* no warnings */
	const struct lr_src *src; /* where files come from (NULL: the file system) */
};

/* LINQS: files[0] the content (nodes, attributes, class), files[1] the
 * cites (links).  Time: O(lines + m log m). */
int import_linqs(const struct import_opts *o, char *const *files, gs_file *out, char *msg,
		 size_t msglen);
/* TU: PREFIX_graph_labels.txt, PREFIX_graph_indicator.txt, PREFIX_A.txt,
 * optional PREFIX_node_labels.txt, PREFIX_node_attributes.txt,
 * PREFIX_edge_labels.txt (each may be FILE.gz).  Time: O(lines + m log m). */
int import_tu(const struct import_opts *o, const char *prefix, gs_file *out, char *msg,
	      size_t msglen);
/* MovieLens 100K (DIR/u.data ...) or 1M (DIR/ratings.dat, users.dat,
 * movies.dat).  Time: O(lines + m log m). */
int import_movielens(const struct import_opts *o, const char *dir, gs_file *out, char *msg,
		     size_t msglen);
/* An edge list ("-": standard input), one graph.  Time: O(lines + m log m). */
int import_edgelist(const struct import_opts *o, const char *file, gs_file *out, char *msg,
		    size_t msglen);
/*
 * A graph file that igraph's C library reads (import_igraph.c): format
 * "graphml", "gml", "pajek", "lgl", "ncol" or "dimacs" (max-flow or edge
 * problems); file "-" is standard input, plain or gzip.  One graph record
 * (self-loops dropped, repeated and reciprocal edges merged, a directed
 * graph's direction dropped with a warning), a names record where the
 * format names its nodes (GraphML's node ids, GML's labels else ids,
 * Pajek's labels, LGL's and NCOL's names; each valid and distinct, else an
 * error), and the numeric and boolean node attributes as an 'attributes'
 * f32 tensor; the other attributes are listed in a warning.  An unknown
 * format is misuse (-2).  Time: O(file + m log m) after igraph's parse.
 */
int import_igraph(const struct import_opts *o, const char *format, const char *file, gs_file *out,
		  char *msg, size_t msglen);
/*
 * A Matrix Market file (import_mtx.c): a square "coordinate" matrix,
 * pattern, real or integer, general, symmetric or skew-symmetric, as the
 * graph of its nonzeros off the diagonal (node i is row i+1; values are
 * not kept; a general matrix that is not symmetric has its direction
 * dropped, with a warning).  An array-format, complex or non-square matrix
 * is refused.  Time: O(lines + m log m).
 */
int import_mtx(const struct import_opts *o, const char *file, gs_file *out, char *msg,
	       size_t msglen);

/* ---- for the importers ---- */

/* A growing list of strings (class names in order of appearance). */
typedef struct {
	char **s;
	int32_t n, cap;
} slist;

int32_t import_slist_add(slist *l, const char *s);
void import_slist_free(slist *l);

/*
 * Classes: names seen in any order, numbered 0..C-1 in sorted order at the
 * end (numerically when every name is an integer, else by strcmp), so the
 * numbering does not depend on the order of the lines.
 */
typedef struct {
	smap idx;	/* name -> order of appearance */
	slist names;	/* by order of appearance */
	int32_t *rank;	/* order of appearance -> class */
	int32_t *order; /* class -> order of appearance */
} classes;

/* The order of appearance of name, added if new; -1 past 2^24 classes. */
int32_t import_class_add(classes *c, const char *name);
/* Number the classes (rank, order).  Time: O(C log C). */
void import_class_finish(classes *c);
/* "a,b,c": the class names in class order (a new string). */
char *import_class_list(const classes *c);
void import_class_free(classes *c);

typedef struct {
	uint64_t key; /* (u << 32) | v, u < v */
	int32_t g;    /* graph index (TU), else 0 */
	int32_t lab;
	int64_t line; /* line of the input, for messages and "first wins" */
} edge;

typedef struct {
	edge *e;
	int64_t n, cap;
	int64_t loops, dups;
} edges;

/* Add {u, v} of graph g (a self-loop is counted, not added). */
void import_edge_add(edges *es, int32_t g, int32_t u, int32_t v, int32_t lab, int64_t line);
/* Order by graph, pair, line. */
int import_edge_cmp(const void *a, const void *b);
/*
 * Sort and merge repeats.  With labels, repeats must agree: returns the
 * index of the first repeat whose label differs from the kept one, or -1.
 * Time: O(m log m).
 */
int64_t import_edges_finish(edges *es, int labelled);

/* r as graph id of the edges e[0..m) (labels as i32 if labelled). */
void import_put_graph(gs_rec *r, int64_t id, int32_t n, const edge *e, int64_t m, int labelled);
/* Write the n x 1 tensor name (i32, i64) of graph id to out. */
void import_put_i32_col(gs_file *out, gs_rec *r, int64_t id, const char *name, const int32_t *x,
			int64_t n);
void import_put_i64_col(gs_file *out, gs_rec *r, int64_t id, const char *name, const int64_t *x,
			int64_t n);
/* The dataset name into buf: o->name, else the last path component less
 * any of the given suffixes (NULL-terminated). */
void import_dataset(char *buf, size_t len, const struct import_opts *o, const char *path,
		    const char *const *suffixes);

#endif
