/* rng.c - per-graph random streams; see rng.h. */
#include <gsl/gsl_rng.h>

#include "err.h"
#include "rng.h"

uint64_t rng_mix(uint64_t a, uint64_t b)
{
	/* SplitMix64 (Steele, Lea, Flood 2014) applied to a combined state. */
	uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	/* a second round so that nearby (a, b) pairs diverge fully */
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_reseed(gsl_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t s = rng_mix(seed, stream);

	/* MT19937 takes 32 bits of seed; fold the high half in. */
	gsl_rng_set(r, (unsigned long)((s ^ (s >> 32)) & 0xffffffffUL));
}

gsl_rng *rng_new(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r == NULL)
		die("out of memory (random generator)");
	rng_reseed(r, seed, stream);
	return r;
}

uint64_t rng_uniform_u64(gsl_rng *r, uint64_t n)
{
	uint64_t x, lim;

	if (n == 0)
		return 0;
	if (n <= 0xffffffffULL)
		return gsl_rng_uniform_int(r, (unsigned long)n);
	/* 64 bits from two 32-bit draws; reject the top partial block. */
	lim = UINT64_MAX - UINT64_MAX % n;
	do {
		x = ((uint64_t)gsl_rng_get(r) << 32) | (uint64_t)gsl_rng_get(r);
	} while (x >= lim);
	return x % n;
}
