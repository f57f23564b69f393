/*
 * safetensors.h - writing Hugging Face's safetensors format, the tensor
 * file that PyTorch, NumPy, JAX and most model tools load (gcn-export(1)
 * describes the file this writes).
 *
 * Ownership: the caller owns the tensors, names and metadata it passes,
 * which must live until st_write(); st_prepare() fills a struct st_file
 * (the header text and the data order) that st_free() releases
 * (st_free of a zeroed struct is a no-op).
 *
 * The format: 8 bytes N, an unsigned 64-bit little-endian integer; N bytes
 * of UTF-8 JSON, an object that maps each tensor's name to its "dtype",
 * "shape" and "data_offsets" [begin, end) in the byte buffer that follows
 * the header, plus an optional "__metadata__" object of strings; then the
 * byte buffer: every tensor's values, row-major and little-endian, back to
 * back with no gap, the buffer ending with the last tensor.  Readers refuse
 * a header over 100,000,000 bytes, offsets that leave gaps or overlap, and
 * a size that does not match shape and dtype.
 *
 * Choices of this writer, all within the format: the header is padded
 * with spaces to a multiple of 8 bytes (as the reference writer does), so
 * the byte buffer starts 8-aligned in the file; tensors are laid out by
 * element size, largest first, keeping the caller's order among equals,
 * so each tensor starts at a multiple of its element size (what a reader
 * that maps the file needs); the header lists "__metadata__" first, then
 * the tensors in data order.
 */
#ifndef GNN_SAFETENSORS_H
#define GNN_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ST_MAX_HEADER 100000000 /* the reference reader's limit, in bytes */
#define ST_MAXDIM 8

/* A tensor to write: dtype is a gs_dtype (stream.h): GS_F32, GS_F64,
 * GS_I32 or GS_I64, written as "F32", "F64", "I32", "I64". */
struct st_tensor {
	const char *name; /* UTF-8, unique, not "__metadata__" */
	int dtype;
	int ndim; /* 0 (a scalar) .. ST_MAXDIM */
	int64_t shape[ST_MAXDIM];
	const void *data; /* product(shape) values, little-endian */
};

/* A metadata entry: key and value are UTF-8 text (the value may hold any
 * byte but invalid UTF-8, NUL included: vlen gives its length). */
struct st_meta {
	const char *key;
	const char *val;
	size_t vlen;
};

struct st_file {
	char *header; /* the JSON header, padded: hlen bytes, no NUL */
	size_t hlen;  /* a multiple of 8 */
	int *order;   /* (nt) tensor indices in data order */
	int nt;
	uint64_t data_bytes; /* size of the byte buffer */
};

/* "F32" ... for a gs_dtype, NULL for any other. */
const char *st_dtype_name(int dtype);

/*
 * Lay out tensors t[0..nt-1] and metadata m[0..nm-1] (nm = 0: no
 * "__metadata__") and build the header.  Returns 0, or -1 with msg when
 * the file cannot be written: a repeated tensor name or metadata key, a
 * tensor named "__metadata__", a string that is not UTF-8 (the header is
 * UTF-8 JSON: "metadata 'config': byte 17 is not UTF-8"), an unsupported
 * dtype or negative dimension, or a header over ST_MAX_HEADER bytes.
 * JSON strings escape '"', '\' and every byte below 0x20 (as \n, \t, \r,
 * \b, \f or \u00XX); other UTF-8 is written as is.
 * Time complexity: O(header bytes + nt log nt).
 */
int st_prepare(struct st_file *sf, const struct st_tensor *t, int nt, const struct st_meta *m,
	       int nm, char *msg, size_t msglen);

/*
 * Write the file prepared in sf from the same tensors t to f: the length,
 * the header, then the data in sf->order.  Returns 0, or -1 with errno
 * set on a write error (the caller still checks fclose()).
 */
int st_write(FILE *f, const struct st_file *sf, const struct st_tensor *t);

void st_free(struct st_file *sf);

#endif
