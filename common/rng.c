/* rng.c - per-graph random streams; see rng.h. */
#include <gsl/gsl_rng.h>

#include "err.h"
#include "rng.h"

uint64_t
rng_mix(uint64_t a, uint64_t b)
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

void
rng_reseed(gsl_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t s = rng_mix(seed, stream);

	/* MT19937 takes 32 bits of seed; fold the high half in. */
	gsl_rng_set(r, (unsigned long)((s ^ (s >> 32)) & 0xffffffffUL));
}

gsl_rng *
rng_new(uint64_t seed, uint64_t stream)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r == NULL)
		die("out of memory (random generator)");
	rng_reseed(r, seed, stream);
	return r;
}

uint64_t
rng_uniform_u64(gsl_rng *r, uint64_t n)
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

/*
 * GSL's MT19937 state (gsl 2.x, rng/mt.c; unchanged since 1998): the 624
 * words, each held in an unsigned long, and the index of the next one.
 * rng_get_block() uses it only when the generator is gsl_rng_mt19937 and
 * its state has exactly this size; tests/unit/test_nn.c checks the values
 * and the state after against gsl_rng_get().
 */
#define MT_N 624
#define MT_M 397
struct gsl_mt_state {
	unsigned long mt[MT_N];
	int mti;
};

/* The next 624 words (Matsumoto and Nishimura's genrand_int32, as GSL's
 * mt_get() regenerates them). */
static void
mt_regenerate(unsigned long *mt)
{
	const unsigned long up = 0x80000000UL, lo = 0x7fffffffUL;
	/* without a branch: the low bit of y is a coin flip, which a
	 * branch would mispredict half the time */
#define MAGIC(y) ((0UL - ((y)&0x1UL)) & 0x9908b0dfUL)
	int kk;
	for (kk = 0; kk < MT_N - MT_M; kk++) {
		unsigned long y = (mt[kk] & up) | (mt[kk + 1] & lo);
		mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ MAGIC(y);
	}
	for (; kk < MT_N - 1; kk++) {
		unsigned long y = (mt[kk] & up) | (mt[kk + 1] & lo);
		mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ MAGIC(y);
	}
	unsigned long y = (mt[MT_N - 1] & up) | (mt[0] & lo);
	mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ MAGIC(y);
#undef MAGIC
}

void
rng_get_block(gsl_rng *r, uint32_t *out, size_t n)
{
	struct gsl_mt_state *s = gsl_rng_state(r);

	if (r->type != gsl_rng_mt19937 || gsl_rng_size(r) != sizeof *s || s->mti < 0 ||
	    s->mti > MT_N) {
		for (size_t i = 0; i < n; i++)
			out[i] = (uint32_t)gsl_rng_get(r);
		return;
	}
	while (n > 0) {
		if (s->mti >= MT_N) {
			mt_regenerate(s->mt);
			s->mti = 0;
		}
		size_t k = (size_t)(MT_N - s->mti);
		if (k > n)
			k = n;
		const unsigned long *m = s->mt + s->mti;
		for (size_t i = 0; i < k; i++) { /* tempering */
			unsigned long y = m[i];
			y ^= y >> 11;
			y ^= (y << 7) & 0x9d2c5680UL;
			y ^= (y << 15) & 0xefc60000UL;
			y ^= y >> 18;
			out[i] = (uint32_t)y;
		}
		s->mti += (int)k;
		out += k;
		n -= k;
	}
}
