/*
 * xsum.h - exact sums of float vectors: each value is rounded to a
 * multiple of 2^-80 (values of magnitude 2^-56 and more are kept exactly)
 * and summed as a 128-bit integer, so a sum does not depend on the order
 * of its terms, on how they were split between ranks, or on the
 * reduction's algorithm: gcn-train's model is the same for any number of
 * processes (dist.h's dist_xsum_allreduce() sums them across processes).  The
 * sum is rounded once, to the nearest float, when read.  Values must be
 * finite and below 2^46 in magnitude; with that, up to 2^80 terms can be
 * added without overflow.  Memory: 16 bytes per element.
 *
 * Ownership: xsum_init() and xsum_free() pair (xsum_free(NULL) is a
 * no-op); the caller owns the struct, the calls its words.  Nothing here
 * communicates.
 */
#ifndef GNN_XSUM_H
#define GNN_XSUM_H

#include <stdint.h>

typedef struct xsum {
	int64_t n;
	uint64_t *w; /* (2n) each sum as two words: low, high */
} xsum;

void xsum_init(xsum *s, int64_t n);
void xsum_free(xsum *s);
/* Every sum 0. */
void xsum_zero(xsum *s);
/*
 * s += x[0..n-1].  Returns -1, or the index of the first value that is
 * not finite or not below 2^46 (such values are left out, the others
 * added).  Time complexity: O(n).
 */
int64_t xsum_add(xsum *s, const float *x);
/* s += t (both of n sums). */
void xsum_merge(xsum *s, const xsum *t);
/* x[0..n-1] = the sums, each rounded to the nearest float (ties to even). */
void xsum_get(const xsum *s, float *x);

#endif
