/* npy.c - .npy writer; see npy.h.  Format: numpy.lib.format, version 1.0:
 * the magic "\x93NUMPY", the version bytes 1 0, a little-endian uint16
 * header length, the header (a Python dict literal, padded with spaces
 * and ended by a newline so that the data starts at a multiple of 64
 * bytes), then the data. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "npy.h"
#include "outfile.h"

#define NPY_HEAD 128 /* bytes before the data: room for any row count */

struct npy_writer {
	FILE *f;
	char *path, *tmp;
	int type;	    /* NPY_x */
	int64_t cols, rows; /* cols 0: (rows,) */
	off_t start;	    /* where the header is: 0, or further on in a file
			 * that is standard output (-o /dev/stdout, outfile.h) */
};

static const char *const descr[] = { "<f4", "<i8" };
static const size_t item[] = { 4, 8 };

/* The 128 bytes before the data, for rows x cols of type (cols 0: a
 * vector of rows). */
static void
header(char *h, int type, int64_t rows, int64_t cols)
{
	char shape[48];
	int n;

	if (cols)
		snprintf(shape, sizeof shape, "(%" PRId64 ", %" PRId64 ")", rows, cols);
	else
		snprintf(shape, sizeof shape, "(%" PRId64 ",)", rows);

	memset(h, ' ', NPY_HEAD);
	memcpy(h, "\x93NUMPY\x01\x00", 8);
	h[8] = (char)(NPY_HEAD - 10); /* header length, little-endian */
	h[9] = 0;
	n = snprintf(h + 10, NPY_HEAD - 10,
		     "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr[type], shape);
	h[10 + n] = ' '; /* snprintf's NUL */
	h[NPY_HEAD - 1] = '\n';
}

npy_writer *
npy_open(const char *path, int64_t cols)
{
	return npy_open_as(path, NPY_F4, cols);
}

npy_writer *
npy_open_as(const char *path, int type, int64_t cols)
{
	npy_writer *w = xcalloc(1, sizeof *w);
	char h[NPY_HEAD];
	int fd;
	uint32_t one = 1;

	if (*(unsigned char *)&one != 1)
		die("%s: .npy is written little-endian; this host is not", path);
	w->path = xstrdup(path);
	w->type = type;
	w->cols = cols;
	fd = outfile_open(path, &w->tmp);
	if ((w->f = fdopen(fd, "wb")) == NULL)
		die("%s:", path);
	if ((w->start = lseek(fd, 0, SEEK_CUR)) < 0)
		w->start = 0; /* a pipe: npy_close() says so */
	header(h, type, 0, cols);
	if (fwrite(h, 1, NPY_HEAD, w->f) != NPY_HEAD)
		die("%s: write error:", path);
	return w;
}

/* n rows of the writer's type, raw (the host is little-endian). */
static void
put(npy_writer *w, const void *rows, int64_t n)
{
	size_t k = (size_t)(n * (w->cols ? w->cols : 1));

	if (fwrite(rows, item[w->type], k, w->f) != k)
		die("%s: write error:", w->path);
	w->rows += n;
}

void
npy_rows(npy_writer *w, const float *rows, int64_t n)
{
	put(w, rows, n);
}

void
npy_rows_i64(npy_writer *w, const int64_t *rows, int64_t n)
{
	put(w, rows, n);
}

void
npy_cols(npy_writer *w, int64_t r0, int64_t n, int64_t c0, int64_t k, const float *x)
{
	int fd = fileno(w->f);

	if (w->type != NPY_F4 || c0 < 0 || c0 + k > w->cols)
		die("internal error: npy_cols(%" PRId64 " + %" PRId64 " of %" PRId64 ")", c0, k,
		    w->cols);
	if (fflush(w->f) != 0)
		die("%s: write error:", w->path);
	for (int64_t i = 0; i < n; i++) {
		off_t at = w->start + NPY_HEAD + (off_t)(((w->rows + r0 + i) * w->cols + c0) * 4);
		const char *p = (const char *)(x + i * k);
		size_t left = (size_t)k * 4;
		while (left > 0) {
			ssize_t got = pwrite(fd, p, left, at);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				die("%s: write error (a pipe? columns are written in place):",
				    w->path);
			p += got;
			at += got;
			left -= (size_t)got;
		}
	}
}

void
npy_cols_done(npy_writer *w, int64_t n)
{
	w->rows += n;
	if (fseeko(w->f, w->start + NPY_HEAD + (off_t)(w->rows * w->cols * 4), SEEK_SET) != 0)
		die("%s: cannot seek (a pipe?):", w->path);
}

void
npy_close(npy_writer *w)
{
	char h[NPY_HEAD];

	header(h, w->type, w->rows, w->cols);
	if (fflush(w->f) != 0 || fseeko(w->f, w->start, SEEK_SET) != 0)
		die("%s: the header cannot be rewritten (a pipe?):", w->path);
	if (fwrite(h, 1, NPY_HEAD, w->f) != NPY_HEAD || fflush(w->f) != 0 || ferror(w->f))
		die("%s: write error:", w->path);
	if (fclose(w->f) != 0)
		die("%s: write error:", w->path);
	outfile_commit(w->path, w->tmp);
	free(w->path);
	free(w);
}
