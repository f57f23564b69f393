/*
 * rng.h - seeded random streams on GSL.
 *
 * Ownership: rng_new() returns a gsl_rng the caller frees with gsl_rng_free().
 *
 * Every graph gets its own stream, derived from (seed, stream index) by a
 * SplitMix64 hash, so a graph's draws depend only on the seed and its own
 * index: not on the thread count, not on which other graphs are generated
 * in the same run.  Sub-streams of one graph (its parameters, its edges, the
 * masking of training step t...) take further indices through rng_mix().
 */
#ifndef GNN_RNG_H
#define GNN_RNG_H

#include <gsl/gsl_rng.h>
#include <stdint.h>

/* SplitMix64 finaliser of (a, b): a well-mixed 64-bit value. */
uint64_t rng_mix(uint64_t a, uint64_t b);

/* A new MT19937 generator seeded from rng_mix(seed, stream). */
gsl_rng *rng_new(uint64_t seed, uint64_t stream);

/* Re-seed an existing generator as rng_new() would. */
void rng_reseed(gsl_rng *r, uint64_t seed, uint64_t stream);

/* Uniform integer in [0, n) for n up to 2^64-1 (gsl_rng_uniform_int stops at 2^32). */
uint64_t rng_uniform_u64(gsl_rng *r, uint64_t n);

/*
 * The next n values of gsl_rng_get(r) into out, and r advanced past them:
 * the same values and the same state after as n calls.  For MT19937 (the
 * generator of rng_new()) they are taken from its state in blocks, several
 * times faster than a call per value; any other generator is called.
 * Time complexity: O(n).
 */
void rng_get_block(gsl_rng *r, uint32_t *out, size_t n);

#endif
