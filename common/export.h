/*
 * export.h - a model record (gnnstream(5)) in a format other tools load:
 * safetensors, for PyTorch, NumPy and the rest (gcn-export(1) describes
 * the file).
 *
 * Ownership: the caller owns the record, the pg records and the FILE;
 * nothing allocated here outlives a call.
 */
#ifndef GNN_EXPORT_H
#define GNN_EXPORT_H

#include <stdio.h>

#include "stream.h"

/* The version of the metadata's list of keys (gcn-export(1), The file);
 * bumped on a change a reader of the file would notice. */
#define EXPORT_VERSION "1"

/*
 * Write model record r as a safetensors file to f: a tensor per parameter,
 * of its name, type and shape [rows, cols], and __metadata__ holding the
 * producer, EXPORT_VERSION, the record's name, pg id and attributes, its
 * config text, and the provenance pg[0..npg-1] as the lines of the text
 * form.  Returns 0; -1 with msg when the record cannot be written (a
 * parameter name twice, text that is not UTF-8: safetensors.h); -2 on a
 * write error, errno set (the caller still checks fclose()).
 * Time complexity: O(bytes of the record).
 */
int export_safetensors(FILE *f, const gs_rec *r, const gs_rec *pg, int npg, char *msg,
		       size_t msglen);

#endif
