/*
 * embed_store.h - gcn-embed's encoder in bounded memory (gcn-embed(1),
 * --store): each block in two passes over row blocks, the activations
 * between them kept in bf16, and the block's input, read in order, in a
 * scratch file when asked (out of core).  embed_run.c chooses between
 * this and its fp32 pass, whose bytes are the training forward's.
 *
 * Ownership: embed_store_init() and embed_store_free() pair; the struct
 * owns its arrays and its scratch file (unlinked when made, so that
 * nothing is left behind by a process that dies).  The arrays are sized
 * for a graph before its first block (grown, never shrunk), and nothing
 * is allocated between the blocks.
 *
 * Block l, H_(l+1) = relu(Â norm(relu(H_l W1) W2)), one graph:
 *   pass 1, a row block at a time: T = relu(H W1) W2 in fp32, the
 *     normalisation's column means and spreads gathered from it in
 *     double (each row block's, merged in order: Chan, Golub and
 *     LeVeque's pairwise update), and T less c, the first row block's
 *     column means, rounded to bf16 into the store T;
 *   pass 2, a row block at a time: Â's product over the store (any row),
 *     the normalisation applied after it (Â (a T' + 1 b') = a (Â T') +
 *     (Â 1) b', so the values are rounded once, before it), relu; the
 *     rows handed on as they come, and, less their first row block's
 *     column means, rounded to bf16 into the next block's input (memory,
 *     or the scratch file).
 * The shifts keep the rounding to the part of a value that differs
 * between nodes: the normalisation divides by the spread, which can be
 * small beside the mean.  Block 1's input, tanh(X E + e), is made a row
 * block at a time from X and never stored.
 *
 * Memory: the store T (N x d bf16) and, in memory, the input (N x d
 * bf16): 4 N d bytes, 2 N d out of core (the input, read and written in
 * order, goes to the file; T, which Â's product reads anywhere, stays);
 * and two row blocks in fp32 (embed_store_bytes()).
 */
#ifndef GNN_EMBED_STORE_H
#define GNN_EMBED_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "model.h"

/* --store: chosen by the memory (fp32 where it fits, else bf16, else
 * file), the training forward's arrays, bf16, bf16 with the input out of
 * core */
enum { EMBED_STORE_AUTO = 0, EMBED_STORE_FP32, EMBED_STORE_BF16, EMBED_STORE_FILE, EMBED_NSTORE };

/* "auto", "fp32", "bf16", "file" */
extern const char *const embed_store_name[EMBED_NSTORE];

/* A --store word to EMBED_STORE_x; -1 for anything else. */
int embed_store_parse(const char *s);

/* p, of *cap elements of size sz, or a new allocation of want when that
 * is more (its contents not kept; one more in *grows): a buffer sized
 * for a graph, grown, never shrunk.  Time complexity: O(1). */
void *embed_store_grow(void *p, size_t *cap, size_t want, size_t sz, size_t *grows);

/* A block's rows r0 .. r0+k-1 (k x d, fp32), l from 0, to the output. */
typedef void (*embed_store_emit_fn)(void *ctx, int l, int64_t r0, int64_t k, const real *H);

struct embed_store {
	uint16_t *T;	     /* (N x d) bf16: a block's relu(H W1) W2 less cT */
	uint16_t *H;	     /* (N x d) bf16: a block's input less cH; NULL out of core */
	real *R1, *R2;	     /* (EMBED_STORE_ROWS x d) fp32: a row block's values */
	uint16_t *Rb;	     /* (EMBED_STORE_ROWS x d) bf16: a row block to or from the file */
	double *mu, *m2;     /* (d) the column means, sums of squared deviations
				     * (one allocation) */
	real *cT, *cH, *u;   /* (d) the shifts; cH W1, the next product's bias */
	real *a, *b;	     /* (d) the normalisation after Â: a Z + rowsum b
				     * (cT .. b one allocation) */
	int fd;		     /* the scratch file out of core, or -1 */
	size_t cap_T, cap_H; /* values allocated at T and H */
	int64_t file_cap;    /* bytes the file was made for */
	size_t grows;	     /* allocations, for the tests */
};

#define EMBED_STORE_ROWS 4096 /* rows of a row block (a multiple of 256, for pooling) */

void embed_store_init(struct embed_store *s);
void embed_store_free(struct embed_store *s);

/*
 * The bytes the store holds for a graph of n nodes at width d, in
 * memory (file 0) or with the input out of core (file 1); *disk, when
 * not NULL, gets the scratch file's.  Time complexity: O(1).
 */
double embed_store_bytes(double n, double d, int file, double *disk);

/*
 * The encoder's forward pass over the one graph of b (b->G == 1), its
 * features in b->X, each block's rows to emit(ctx, l, r0, k, rows) in
 * order of l and r0; out of core (file nonzero) the input in a scratch
 * file made in $TMPDIR (default /tmp), its room taken at once
 * (posix_fallocate).  Dies in one line when the file cannot be made or
 * written.  The values differ from the training forward's by the bf16
 * roundings (gcn-embed(1) states the measured difference); in memory and
 * out of core they are the same bytes.  Time complexity: O(L (N d^2 +
 * nnz(Â) d)).
 */
void embed_store_encode(struct embed_store *s, int file, const model *M, const batch *b,
			embed_store_emit_fn emit, void *ctx);

#endif
