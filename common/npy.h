/*
 * npy.h - NumPy's .npy format (version 1.0), written: one little-endian
 * float32 array of shape (rows, cols), or an int64 one (rows, cols) or
 * (rows,), C order, rows appended as they come
 * (a stream of graphs, say); the header is written with room to spare and
 * rewritten with the final row count when the file is closed, so
 * np.load() opens it.  The file goes through outfile.h: a temporary file
 * renamed into place when complete, never a partial file.
 *
 * Ownership: npy_open() returns a writer that npy_close() finishes and
 * frees.  The path must be a regular file or a new one (the header is
 * rewritten in place, so not a pipe).
 */
#ifndef GNN_NPY_H
#define GNN_NPY_H

#include <stdint.h>

typedef struct npy_writer npy_writer;

/* The element types: float32 ('<f4'), int64 ('<i8'). */
enum { NPY_F4 = 0, NPY_I8 };

/* Start path for a float32 array of cols columns; dies on failure. */
npy_writer *npy_open(const char *path, int64_t cols);
/* Start path for an array of type NPY_x: cols columns, or, with cols 0, a
 * one-dimensional array (rows,); dies on failure. */
npy_writer *npy_open_as(const char *path, int type, int64_t cols);
/* Append n rows (n x cols values, row-major) to a float32 array; dies on
 * a write error. */
void npy_rows(npy_writer *w, const float *rows, int64_t n);
/* Append n values (cols 0) or rows of an int64 array; dies as npy_rows(). */
void npy_rows_i64(npy_writer *w, const int64_t *rows, int64_t n);
/*
 * Columns c0 .. c0+k-1 of the rows r0 .. r0+n-1 after those appended so
 * far (x: n x k floats), written in place, so that a row's columns can
 * come at different times (gcn-embed's blocks, each as it is made);
 * npy_cols_done(w, n) then counts n rows, every column of each written,
 * as appended.  A regular file only (pwrite()); dies on a write error.
 * Time complexity: O(n k), one write a row.
 */
void npy_cols(npy_writer *w, int64_t r0, int64_t n, int64_t c0, int64_t k, const float *x);
void npy_cols_done(npy_writer *w, int64_t n);
/* The final header, then the file in place; dies on failure. */
void npy_close(npy_writer *w);

#endif
