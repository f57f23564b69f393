/*
 * stream.h - the gnnstream record stream (format: man/man5/gnnstream.5).
 *
 * Ownership: a gs_file is created by gs_open_in()/gs_open_out() and released
 * by gs_close() (gs_close(NULL) is a no-op).  A gs_rec is initialised with
 * gs_rec_init() and owns every buffer it points to; gs_read1() reuses and
 * grows those buffers, so one record serves a whole loop; gs_rec_free()
 * releases them.  Strings returned by gs_strerror()/gs_where() belong to the
 * gs_file and live until the next call on it.
 *
 * A stream is a sequence of segments.  Each segment is a header (magic +
 * version), records, and an "end" trailer holding the record count and a
 * CRC-32 of the record bytes.  `cat a b` of two streams is a stream.  A
 * segment without its trailer is a truncated stream and an error.  Input may
 * be gzip (any number of members) or plain, binary or text form, or a plain
 * "u v [label]" edge list (one graph, id 0): all are detected from the bytes.
 *
 * The loop every program has:
 *
 *	gs_rec rec; gs_rec_init(&rec);
 *	while ((r = gs_read1(in, &rec)) >= 0) { ... gs_write1(out, &rec); }
 *	if (r < -1) die("%s", gs_strerror(in));
 */
#ifndef GNN_STREAM_H
#define GNN_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "opt.h"

#define GS_VERSION 1   /* bump on any incompatible change */
#define GS_NAME_MAX 64 /* names of tensors, pair sets, labels */

/* Hard limits, checked before any allocation. */
/* Nodes in one graph.  Ids are int32, but a bare header's nodes= is the one
 * size that no body bytes back (isolated nodes are legal), and every program
 * allocates per node before it reads an edge: 2*10^9 nodes claimed by a
 * 60-byte file had nodefeat at 11 GB after a minute.  At 2^26 isolated
 * nodes nodefeat took 3.76 GiB and centrality 7.13 GiB (measured); what
 * does not fit the machine is refused before the work (mem.h). */
#define GS_MAX_NODES (1LL << 26)
#define GS_MAX_EDGES (1LL << 34)       /* edges or pairs in one record */
#define GS_MAX_ELEMS (1LL << 36)       /* elements of one tensor */
#define GS_MAX_TEXT (64LL << 20)       /* config text of a model record */
#define GS_MAX_PARAMS 65536	       /* tensors in one model record */
#define GS_MAX_NODE_NAME 1024	       /* bytes of one node name */
#define GS_MAX_NAMES_BYTES (1LL << 36) /* bytes of a names record's body */

enum gs_kind {
	GS_PG = 1, /* provenance: program, version, seed, command line */
	GS_GRAPH,  /* nodes + undirected edge list (+ optional edge labels) */
	GS_TENSOR, /* per-node tensor: rows = nodes, named columns */
	GS_PAIRS,  /* node-pair set (u, v [, label]) */
	GS_LABEL,  /* graph-level label (an integer class) */
	GS_MODEL,  /* model parameters: config text + named tensors */
	GS_NAMES   /* the names of a graph's nodes, one string a node */
};

enum gs_dtype { GS_NONE = 0, GS_F32, GS_F64, GS_I32, GS_I64 };

/* A named dense tensor (rows x cols, row-major): model parameters. */
typedef struct gs_param {
	char name[GS_NAME_MAX];
	int64_t rows, cols;
	int dtype;
	void *data;
	size_t cap; /* bytes allocated at data */
} gs_param;

typedef struct gs_rec {
	int kind;		/* enum gs_kind */
	int64_t id;		/* graph id; -1 for pg and model records */
	char pg[16];		/* id of the pg record that made this record;
				 * "" = made by the program writing it now */
	char name[GS_NAME_MAX]; /* tensor, pairs, label, model: its name */

	/* GS_GRAPH: n nodes, m edges.  GS_PAIRS: m pairs (n unused). */
	int32_t n;
	int64_t m;
	int32_t *u, *v; /* (m) endpoints */
	int ltype;	/* label type of edges/pairs: GS_NONE, GS_I32, GS_F64 */
	void *lab;	/* (m) labels, or NULL when ltype == GS_NONE */

	/* GS_TENSOR: rows x cols of dtype, row-major; columns = "a,b,c". */
	int64_t rows, cols;
	int dtype;
	void *data;
	char *columns;

	/* GS_LABEL */
	int64_t value;

	/* GS_MODEL */
	char *config; /* config text (YAML), NUL-terminated */
	size_t config_len;
	int nparams;
	gs_param *params;

	/* GS_NAMES: n names, node i's the i-th; names holds them each ended
	 * by '\0', names_len bytes in all (the body's bytes: in the stream
	 * each name ends with '\n').  A name is 1..GS_MAX_NODE_NAME bytes with no
	 * tab, CR, newline or NUL, and the names of a graph are distinct. */
	char *names;
	size_t names_len;

	/* Other key=value attributes of the record header, kept in order and
	 * passed through untouched (DCBM parameters of a graph, say).  A
	 * tensor or label record of classes may carry classes=C and
	 * class_names=a,b,c (class 0's name first; a list of another length
	 * is not used): gcn-adapt keeps them, its --tsv and evalf1 print them
	 * (gnnstream(5)). */
	int nattr;
	char **akey, **aval;

	/* Set by the reader: the graph came from a plain edge list, so
	 * self-loops and duplicates are simplified rather than refused. */
	int from_edgelist;

	/* private: allocated sizes */
	size_t cap_m, cap_lab, cap_data, cap_cols, cap_cfg, cap_attr, cap_names;
	int cap_params;
} gs_rec;

typedef struct gs_file gs_file;

/* ---- records ---- */

void gs_rec_init(gs_rec *r);
void gs_rec_free(gs_rec *r);
/* Forget the contents (kind 0, no attributes, pg ""), keep the buffers. */
void gs_rec_clear(gs_rec *r);

/* Size buffers for a record of this shape (contents undefined). */
void gs_rec_graph(gs_rec *r, int64_t id, int32_t n, int64_t m, int ltype);
void gs_rec_pairs(gs_rec *r, int64_t id, const char *name, int64_t m, int ltype);
void gs_rec_tensor(gs_rec *r, int64_t id, const char *name, int64_t rows, int64_t cols, int dtype,
		   const char *columns);
void gs_rec_label(gs_rec *r, int64_t id, const char *name, int64_t value);
void gs_rec_model(gs_rec *r, const char *name, const char *config, int nparams);
/* Room for a names record of count names, bytes bytes in all (their
 * terminators included); the caller fills r->names. */
void gs_rec_names(gs_rec *r, int64_t id, int32_t count, size_t bytes);
/* A names record of graph id from names[0 .. count-1], copied. */
void gs_names_set(gs_rec *r, int64_t id, const char *const *names, int32_t count);
/* The names of a names record as an array of r->n pointers into
 * r->names: the caller frees the array (only), which lives while r
 * keeps its contents.  Time: O(bytes). */
const char **gs_names_list(const gs_rec *r);
/*
 * The rules of a plain edge list's third column and separators, the same
 * in every reader (gs_read1's edge lists, graph-import -f edgelist), each
 * said in one line: a third column is an integer edge label (the link
 * task's edge classes), never a weight; gs_third_column(w) is the message
 * for a third field w that is not one (a static string, overwritten by the
 * next call).  GS_EDGELIST_LABELS is the warning when edge labels were
 * read, GS_EDGELIST_CSV the one when lines were split at commas.
 */
const char *gs_third_column(const char *w);
/* gs_edge_labels_wanted(fp): fp's edge labels are what the program reads
 * (gcn-adapt --task link), so gs_graph_build does not warn that they were
 * read. */
void gs_edge_labels_wanted(gs_file *fp);
#define GS_EDGELIST_LABELS \
	"edge list: the third column read as integer edge labels (weights are not kept)"
#define GS_EDGELIST_CSV \
	"edge list: comma-separated lines, each read as an edge (a CSV table? its " \
	"classes go in with graph-attach --label)"
/* NULL if name is a valid node name, else what is wrong with it ("holds
 * a tab", ...).  The distinctness of a graph's names is the reader's
 * check (and the writer's, before it writes). */
const char *gs_name_invalid(const char *name);
/* Shape model parameter i (0 <= i < r->nparams). */
gs_param *gs_rec_param(gs_rec *r, int i, const char *name, int64_t rows, int64_t cols, int dtype);

/* Attributes: set (replace or append) and get (NULL if absent). */
void gs_attr_set(gs_rec *r, const char *key, const char *val);
void gs_attr_setf(gs_rec *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *gs_attr_get(const gs_rec *r, const char *key);

/* Bytes of data the record's buffers hold (their capacity: a record
 * reused for smaller ones keeps its largest), for memory checks. */
double gs_rec_bytes(const gs_rec *r);

/* Index of a tensor column by name, or -1. */
int gs_tensor_col(const gs_rec *r, const char *name);
size_t gs_dtype_size(int dtype);
const char *gs_kind_name(int kind);

/* ---- reading ---- */

/*
 * Open path for reading ("-" or NULL = stdin).  Returns NULL and fills
 * msg on failure ("FILE: No such file or directory").
 */
gs_file *gs_open_in(const char *path, char *msg, size_t msglen);

/*
 * Read from an open file descriptor (a pipe, a memfd, a socket): the
 * gs_file takes fd over and gs_close() closes it.  name is the display
 * name in messages (NULL = "<stdin>").  Never fails.  Used by the fuzz
 * harnesses (tests/fuzz), which read bytes from memory without a path.
 */
gs_file *gs_open_fd(int fd, const char *name);

/*
 * Read the next record into rec.
 * Returns the record kind (> 0) on success, -1 at a clean end of input
 * (every segment complete), or < -1 on error: -2 data error (bad magic,
 * future version, corrupt or truncated stream, bad record), -3 I/O error.
 * After an error gs_strerror() gives "FILE: record N: what"; later calls
 * keep returning the same error.  pg records are returned like any other,
 * so a filter passes them on (gs_write1) and provenance accumulates.
 */
int gs_read1(gs_file *fp, gs_rec *rec);

/* "FILE: record N: what" of the last error. */
const char *gs_strerror(const gs_file *fp);
/* "FILE: record N" of the record last read, for the caller's own checks. */
const char *gs_where(gs_file *fp);
/* The display name of the input ("<stdin>" for stdin). */
const char *gs_name(const gs_file *fp);

/*
 * Reading progress: gs_in_bytes() is the count of bytes read from the
 * input so far (compressed, as they are in the file), gs_in_size() the
 * file's size when it is a regular file, else -1.  With
 * gs_set_progress(fp, p, unit) each read passes the count in units of
 * unit bytes (1000: kB) to progress_update(p), so that the line of a long
 * record moves while it is read (the caller started p; NULL stops it; p
 * must outlive the reads).
 */
struct progress;
void gs_set_progress(gs_file *fp, struct progress *p, int64_t unit);
/* gs_set_graph_check(fp, fn, ctx): gs_read1() calls fn(ctx, fp, rec) at
 * each graph record of fp once its header is read (rec->id, n and m set,
 * gs_where() naming it), before its edges: fn may die, so that a graph too
 * large is refused before it is read.  An edge list has no header: its
 * graph is not checked so.  fn NULL: none. */
void gs_set_graph_check(gs_file *fp, void (*fn)(void *ctx, gs_file *fp, const gs_rec *rec),
			void *ctx);
int64_t gs_in_bytes(const gs_file *fp);
int64_t gs_in_size(const gs_file *fp);

/*
 * Build the CSR graph of a GS_GRAPH record: GRAPH_STRICT for stream
 * records, GRAPH_SIMPLIFY for edge-list input.  An edge-list record is then
 * rewritten as the simple graph built (self-loops dropped, each repeated
 * pair kept once at its first line, attributes self_loops= and duplicates=
 * giving the counts), so a filter passes on the graph it computed on; a
 * warning says what was changed or ignored unless quiet.  A pair listed
 * with two different labels is an error.  Returns 0, or -2 with
 * gs_strerror() set.
 */
int gs_graph_build(gs_file *fp, gs_rec *rec, graph *g, int quiet);

/* ---- writing ---- */

/*
 * Open the output named by c->output ("-"/NULL = stdout) in the form and
 * level of c (-t, -l), and write the segment header and this program's pg
 * record (program, version, seed if c->seed_set, the command line).
 * With -o FILE the data goes to a temporary file in the same directory
 * that gs_close() renames over FILE on success; if the program dies first
 * the temporary file is removed, so FILE is never left truncated.
 * Refuses to write the binary form to a terminal.  Dies on failure.
 */
gs_file *gs_open_out(const struct copt *c, int argc, char **argv);

/*
 * Write a plain binary stream to fd (a pipe, a temporary file), which the
 * gs_file takes over: no pg record, no -o renaming; name is for messages.
 * Used to hand graphs to another program (featcmd.h).
 */
gs_file *gs_open_fd_out(int fd, const char *name);

/*
 * Append one record.  A record whose pg is "" is tagged with this
 * program's pg id.  Dies on a write error (disk full, closed pipe).
 */
void gs_write1(gs_file *fp, const gs_rec *rec);

/*
 * Reading: close and free.  Writing: write the trailer, flush, close,
 * check every error, rename the temporary file.  Dies on a write error;
 * returns 0.
 */
int gs_close(gs_file *fp);

/* The pg id this output tags its new records with. */
const char *gs_pg_id(const gs_file *fp);

#endif
