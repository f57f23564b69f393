/*
 * reader.h - a program's input streams, read in turn as one sequence of
 * records, with their provenance kept: the pg records of every input are
 * collected (in input order) rather than returned, so a program that
 * writes a new kind of stream (a model, predictions) can pass them on.
 *
 * Ownership: gs_reader_init() starts a reader over files[0..nfiles-1]
 * (none: standard input); gs_reader_free() closes the current input and
 * frees the kept pg records.  The reader does not own files.
 *
 *	struct gs_reader rd;
 *	gs_reader_init(&rd, nfiles, files);
 *	while ((k = gs_reader_next(&rd, &rec)) > 0) { ... gs_where(rd.in) ... }
 *	gs_reader_write_pg(&rd, out);
 *	gs_reader_free(&rd);
 */
#ifndef GNN_READER_H
#define GNN_READER_H

#include <stddef.h>

#include "stream.h"

struct gs_reader {
	char **files;
	int nfiles, i;	  /* i: the input being read */
	const char *path; /* its name as given ("-": stdin) */
	gs_file *in;	  /* it, open; NULL before the first and after the last */
	int file_changed; /* the last record came from a new input */
	gs_rec *pg;	  /* (npg) the pg records read so far */
	int npg, cap_pg;
	/* Or NULL: set on each input as it is opened (gs_set_graph_check()),
	 * so that a graph too large is refused at its header; the caller
	 * sets them after gs_reader_init(). */
	void (*graph_check)(void *ctx, gs_file *in, const gs_rec *rec);
	void *check_ctx;
};

void gs_reader_init(struct gs_reader *rd, int nfiles, char **files);

/*
 * The next record other than a pg record, from this input or the next,
 * into rec (its buffers reused).  Returns its kind (> 0), or 0 after the
 * last input.  Dies with "prog: FILE: record N: what" on a bad stream or
 * an input that cannot be opened.
 */
int gs_reader_next(struct gs_reader *rd, gs_rec *rec);
/* The same, returning -1 with that line (without "prog: ") in msg instead
 * of dying; the reader stays freeable (gs_reader_free()). */
int gs_reader_read(struct gs_reader *rd, gs_rec *rec, char *msg, size_t len);

/* Append the kept pg records to out, in input order. */
void gs_reader_write_pg(const struct gs_reader *rd, gs_file *out);

void gs_reader_free(struct gs_reader *rd);

#endif
