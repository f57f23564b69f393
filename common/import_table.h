/*
 * import_table.h - a table about the nodes (or the graphs) of a stream, as
 * graph-attach(1) reads it: TSV or CSV with a header line (the delimiter
 * detected or given, simple quoted fields), or a NumPy .npy array (row i
 * is item i); its columns coded as classes (import.h's numbering), as
 * floats, or as the keys that match its rows to nodes by name or by id.
 *
 * Ownership: import_table_read() fills a struct table that import_table_free() releases
 * (import_table_free() on a zeroed table is a no-op); the column names and cells
 * belong to the table.  The caller owns every output array and the
 * message buffer.  Functions that can fail return 0, or -1 with one line
 * "TABLE: line N: what" in the message buffer (err).
 */
#ifndef GNN_IMPORT_TABLE_H
#define GNN_IMPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "import.h"
#include "lineread.h"

struct table {
	char path[4096]; /* as named in messages */
	int npy;	 /* from a .npy file: no header, columns c0, c1, ... */
	int npy_int;	 /* .npy: an integer (or boolean) array */
	int ncols;
	char **col; /* (ncols) column names */
	int64_t nrows;
	/* Text: the cells, (nrows, ncols) pointers into rowbuf's lines. */
	char **cell;
	char **rowbuf;	/* (nrows) each row's line, split in place */
	int64_t *line;	/* (nrows) its line in the file */
	double *num;	/* .npy: (nrows, ncols) values */
	int64_t rowcap; /* private: rows allocated */
};

/*
 * Read path ("-": standard input, always text) into t.  A file that
 * starts with NumPy's magic bytes is a .npy array (version 1 to 3,
 * little-endian integer, boolean or float, one or two dimensions, C
 * order); anything else is a text table: its first line that is not
 * blank is the header (a UTF-8 byte-order mark dropped), every other line
 * that is not blank a row of as many fields.  delim: the field
 * separator, or 0 to take the header's first tab, else comma, else
 * semicolon, else runs of blanks.  A field may be quoted ("a, b",
 * "say ""hi""") when delim is not blanks; fields are trimmed of blanks
 * unless delim is a tab.  Column names are distinct and not empty.
 * Time: O(bytes).
 */
int import_table_read(struct table *t, const char *path, int delim, struct lr_err err);
void import_table_free(struct table *t);

/* The index of column name, or -1. */
int import_table_col(const struct table *t, const char *name);
/* Row r's cell of column c as text: a text table's cell as written, a
 * .npy value printed (%lld for integers, %.9g for floats) into buf. */
const char *import_table_cell(const struct table *t, int64_t r, int c, char *buf, size_t len);
/* "PATH: line N" of row r (.npy: "PATH: row N"), into buf; returns buf. */
const char *import_table_where(const struct table *t, int64_t r, char *buf, size_t len);

/*
 * Column c as classes: cls[r] is the class of row r's cell, or -1 when
 * the cell is empty or equals unknown (NULL: none), numbered over all the
 * rows as import.h's classes are (sorted; numerically when every name is
 * an integer); cl receives the names (import_class_list() gives them in class
 * order); cl must be zeroed, the caller import_class_free()s it.  Time:
 * O(rows log rows).
 */
void import_table_classes(const struct table *t, int c, const char *unknown, int32_t *cls,
			  classes *cl);

/*
 * Columns cols[0..k) of every row as floats, into x (nrows, k): each cell
 * a finite number.  Time: O(rows k).
 */
int import_table_floats(const struct table *t, const int *cols, int k, float *x, struct lr_err err);

/*
 * The key column's cells into m (zeroed by the caller, who smap_free()s
 * it): cell -> row.  ids: every key is an integer, entered as its decimal
 * text ("07" as "7").  A key twice is an error, and with ids a key that
 * is not an integer.  Time: O(rows) expected.
 */
int import_table_keys(const struct table *t, int key, int ids, smap *m, struct lr_err err);

/*
 * After the rows were matched (row_of[i]: item i's row, or -1): the rows
 * no item took, counted in *unmatched; an error naming the first of them
 * ("TABLE: line N: 'KEY' is not WHAT", what being "a graph of the
 * input", say) unless skip.  key:
 * the key column, or -1.  Time: O(rows + n).
 */
int import_table_unused(const struct table *t, int key, const int32_t *row_of, int64_t n,
			const char *what, int skip, int64_t *unmatched, struct lr_err err);

/*
 * Which row describes each of n nodes: row_of[i] = the row, or -1.  by
 * TABLE_BY_NAME: key column key's cell equals names[i]; TABLE_BY_ID: it
 * is the integer i; TABLE_BY_ORDER: row i describes node i (the table
 * then has n rows).  As import_table_keys() and import_table_unused() (the rows that
 * name no node) check.  Time: O(rows + n) expected.
 */
enum { TABLE_BY_NAME, TABLE_BY_ID, TABLE_BY_ORDER };
int import_table_match(const struct table *t, int by, int key, const char *const *names, int64_t n,
		       int skip, int32_t *row_of, int64_t *unmatched, struct lr_err err);

#endif
