/*
 * stream_int.h - private to the gnnstream reader and writer: the file
 * object and the helpers of its six files, each of which calls only the
 * ones below it:
 *
 *   stream_rw.c      gs_read1, gs_write1, gs_open_out: the dispatch
 *   stream_text.c    the text form, plain edge lists
 *   stream_bin.c     the binary form
 *   stream_header.c  the header-line grammar both forms share
 *   stream_file.c    the file object: the input and output buffers, the
 *                    checks of a record's values, the first error kept
 *   stream_rec.c     records: their arrays, names and attributes
 *
 * Nothing outside those files includes it; the API is stream.h.
 *
 * Ownership: the gs_file owns every buffer in it (gs_close frees them);
 * a gs_rec passed in is the caller's, and its arrays are grown, never
 * replaced by a smaller one.
 *
 * Errors: a reading helper returns 0 (or, where it says so, a count or a
 * kind) on success and the negative code of gsi_fail() on failure: -2 bad
 * data, -3 an I/O error.  The first failure is kept in the gs_file, and
 * later calls return its code again.  Writing helpers die on a write
 * error, as gs_write1 does.
 */
#ifndef GNN_STREAM_INT_H
#define GNN_STREAM_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "pgz.h"
#include "stream.h"

/* Every multi-byte number of the binary form, and the lengths written
 * before binary headers, are little-endian: refuse to build on a
 * big-endian host rather than byte-swap. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "gnnstream binary form is little-endian; this host is not"
#endif

#define BIN_MAGIC "\x89GNS"
#define TXT_MAGIC "##gnnstream"
#define UTF8_BOM "\xef\xbb\xbf"		    /* skipped where a stream or edge list starts */
#define MAX_HEADER (1u << 20)		    /* one record header line */
#define IOBUF (1u << 18)		    /* decoded input buffer */
#define WBUF (1u << 20)			    /* output buffer */
#define GS_PARAM_HEADER (GS_NAME_MAX + 128) /* a model parameter's header */

/* Where a reader is: before the first segment, inside one, between two,
 * or past the one record of a plain edge list. */
enum { ST_START, ST_SEGMENT, ST_BETWEEN, ST_EDGELIST_DONE };

/* gsi_parse_header's kind of an "end" line (the segment trailer). */
enum { K_END = 100 };

struct gs_file {
	int writing;
	char *name; /* display name */

	/* reading: raw bytes from fd, inflated member by member */
	int fd;
	unsigned char *raw;
	size_t rpos, rlen;
	int reof;
	z_stream zs;
	int zinit;    /* inflateInit2 done */
	int zmode;    /* 1 inside a gzip member */
	int boundary; /* a gzip member may start here */
	unsigned char *buf;
	size_t pos, len;
	int eof;
	int state;
	int text; /* form of the current segment */
	int64_t segments;
	int64_t seg_records;	 /* records in the current segment */
	uint32_t crc;		 /* CRC-32 of the current segment's record bytes */
	uint32_t crc_line_start; /* crc before the current text line */
	int64_t recno;		 /* records read, 1-based in messages */
	int64_t graph_id;	 /* the last graph record read: its id, */
	int32_t graph_nodes;	 /* its nodes, */
	int graph_seen;		 /* and whether there was one */
	int64_t lineno;		 /* text form: lines read */
	int64_t rec_line;	 /* text form: line of the current record's header */
	int err;
	char errmsg[600];
	char where[400];
	char *line; /* current line (text form) */
	size_t line_cap, line_len;
	int line_nl; /* the line ended with a newline */
	char *hdr;   /* header line of the current record */
	size_t hdr_cap;
	int64_t el_attrs; /* edge list: edges whose attribute dict was ignored */
	int el_named;	  /* edge list: the nodes have names (not integer ids) */
	char *el_names;	  /* ... which, each ended by '\0', the next record holds */
	size_t el_names_len, el_names_cap;
	int32_t el_nnames;
	int el_commas;		/* edge list: its lines split at commas */
	int el_labels_wanted;	/* edge list: its labels are the program's classes (no warning) */
	int32_t el_first_names; /* edge list: names once its first line made them */
	int64_t el_first_line;
	int64_t rbytes;	     /* bytes read from fd so far */
	struct progress *pr; /* told rbytes / pr_unit as they arrive, or NULL */
	/* gs_set_graph_check()'s: called at a graph's header, or NULL */
	void (*graph_check)(void *ctx, gs_file *fp, const gs_rec *rec);
	void *graph_check_ctx;
	int64_t pr_unit;

	/* writing */
	FILE *fp;   /* level 0 */
	pgz *pz;    /* level > 0 (pgz.h) */
	char *path; /* final path, or NULL for stdout */
	char *tmp;  /* temporary path for -o */
	int wtext;
	char pgid[16];
	unsigned char *wbuf;
	size_t wlen;
	int64_t wrec;
	uint32_t wcrc;
};

/* ---- records (stream_rec.c) ---- */

/* Grow *p (of *cap bytes) to hold n bytes; at least 1 byte is allocated. */
void gsi_grow(void **p, size_t *cap, size_t n);
/* Copy name (NULL: "") into dst of GS_NAME_MAX bytes, cut if longer. */
void gsi_set_name(char *dst, const char *name);
/* Room for m edges or pairs (and their labels of ltype); sets m, ltype. */
void gsi_shape_edges(gs_rec *r, int64_t m, int ltype);
/* Set the columns= text (NULL: none). */
void gsi_set_columns(gs_rec *r, const char *columns);
/* Room for nparams model parameters (new ones zeroed); sets nparams. */
void gsi_shape_params(gs_rec *r, int nparams);

/* ---- reading (stream_file.c) ---- */

/*
 * Record a data error once, as one line "NAME: record R (line L): what"
 * (the place as far as it is known), and return code; once a failure is
 * recorded, return its code and keep the first message.
 */
int gsi_fail(gs_file *fp, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Refill so that at least want bytes are buffered if the input has them.
 * Returns 0, or an error code (I/O, corrupt gzip). */
int gsi_fill(gs_file *fp, size_t want);
/* Copy n bytes of record data into dst, adding them to the segment's CRC.
 * Returns 0 or an error code; short input is a truncated stream. */
int gsi_read_bytes(gs_file *fp, void *dst, size_t n);
/* Read n bytes into *p (capacity *cap), growing it only as data arrives
 * (at most doubling), so a lying header costs at most twice the input. */
int gsi_read_array(gs_file *fp, void **p, size_t *cap, size_t n);
/* Edge or pair i: ids in range, no self-loop in a graph, a finite label. */
int gsi_check_pair(gs_file *fp, const gs_rec *rec, int64_t i);
/* gsi_check_pair on every edge or pair of rec.  Time: O(m). */
int gsi_check_pairs(gs_file *fp, const gs_rec *rec);
/* Values from .. from + n - 1 of a tensor of dtype must be finite;
 * messages name the tensor what and count from its first value. */
int gsi_check_finite(gs_file *fp, const void *data, int dtype, int64_t from, int64_t n,
		     const char *what);
/* A names record's body as read (each name ended by '\n'): check the
 * names (count, form, distinct) and end each by '\0' instead. */
int gsi_check_names(gs_file *fp, gs_rec *rec);
/* The config text of a model record (raw bytes in both forms), and room
 * for its parameters. */
int gsi_read_config(gs_file *fp, gs_rec *rec);
/* Give the decoded but unread bytes back to the raw input and mark a
 * boundary where a gzip member may start (between segments). */
void gsi_unread_plain(gs_file *fp);

/* ---- writing (stream_file.c) ---- */

/* Append record bytes, adding them to the segment's CRC; n == 0 writes
 * nothing (p may then be NULL). */
void gsi_wput(gs_file *fp, const void *p, size_t n);
void gsi_wputs(gs_file *fp, const char *s);
/* Writing to fd from now on at level (0: plain), in fp->wtext's form:
 * the compressor or stdio, and the segment header. */
void gsi_open_writer(gs_file *fp, int fd, int level);

/* ---- header lines (stream_header.c) ---- */

/*
 * Parse the header line hdr ("kind key=value ...", modified in place)
 * into rec, which is cleared first.  Sizes are checked against the hard
 * limits of stream.h here, before anything is allocated.  is_param: the
 * line must be a model parameter's "param" header.  Returns the kind
 * (GS_*, or K_END for the trailer, whose records= and crc32= go to
 * *end_records and *end_crc, -1 where absent) or an error code.
 */
int gsi_parse_header(gs_file *fp, char *hdr, gs_rec *rec, int64_t *end_records, int64_t *end_crc,
		     int is_param);
/* "f32", "f64", "i32", "i64", or "none" for anything else. */
const char *gsi_dtype_name(int dtype);
/* The header text of record r (without the '@' of the text form) in *buf
 * of *cap bytes, grown as needed; r's pg, or else this writer's. */
char *gsi_format_header(const gs_file *fp, const gs_rec *r, char **buf, size_t *cap);
/* The header text of model parameter p in h of cap bytes; returns h. */
char *gsi_format_param(const gs_param *p, char *h, size_t cap);

/* ---- the text form (stream_text.c) ---- */

/* Read one text line (without its newline or CR) into fp->line; CRC'd
 * inside a segment.  Returns 1 for a line, 0 at end of input, or an
 * error code (a NUL byte, a line over 64 MiB). */
int gsi_read_line(gs_file *fp);
/* The body of the record whose header rec holds, in the text form. */
int gsi_read_txt_body(gs_file *fp, gs_rec *rec);
/* The whole input as one plain edge list ("u v [label]" lines): a graph
 * record of max id + 1 nodes.  Returns GS_GRAPH or an error code. */
int gsi_read_edgelist(gs_file *fp, gs_rec *rec);
void gsi_txt_put_header(gs_file *fp, const char *h);
void gsi_txt_put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols);
void gsi_txt_put_pairs(gs_file *fp, const gs_rec *r);

/* ---- the binary form (stream_bin.c) ---- */

/* The next binary record header into fp->hdr: *got is 0 at the end of
 * the input (nothing read), 1 for a header.  Returns 0 or an error code. */
int gsi_read_bin_header(gs_file *fp, int *got);
/* The body of the record whose header rec holds, in the binary form. */
int gsi_read_bin_body(gs_file *fp, gs_rec *rec);
void gsi_bin_put_header(gs_file *fp, const char *h);
void gsi_bin_put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols);
void gsi_bin_put_pairs(gs_file *fp, const gs_rec *r);

#endif
