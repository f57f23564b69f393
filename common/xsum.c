/* xsum.c - exact sums of float vectors; see xsum.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "xsum.h"

/* 128-bit integers (a GCC and Clang extension on 64-bit targets); in
 * memory each is two words, low first, so that MPI moves plain words. */
__extension__ typedef unsigned __int128 u128;

/*
 * x 2^80 as a 128-bit two's complement integer.  A float x = m 2^(e-150)
 * (m the 24-bit significand with its hidden bit, e the biased exponent)
 * gives x 2^80 = m 2^(e-70): shifted left when e >= 70 (|x| >= 2^-56: kept
 * exactly), else rounded to the nearest integer, ties to even.  x must be
 * below 2^46 in magnitude (finite): xsum_add() checks first.
 */
static inline u128
to_fixed(float x)
{
	uint32_t u, e, m;
	u128 a;

	memcpy(&u, &x, sizeof u);
	e = (u >> 23) & 0xff;
	m = (u & 0x7fffff) | 0x800000;
	if (e == 0) /* zero, subnormal: |x| 2^80 < 2^-46 */
		return 0;
	if (e >= 70) {
		a = (u128)m << (e - 70);
	} else {
		uint32_t s = 70 - e, q, r, half; /* s = 1 .. 69 */
		if (s > 24) {
			q = 0; /* m 2^-s < 1/2 */
		} else {
			q = m >> s;
			r = m & ((1u << s) - 1);
			half = 1u << (s - 1);
			q += r > half || (r == half && (q & 1));
		}
		a = q;
	}
	return u >> 31 ? -a : a;
}

/* The float nearest to v 2^-80 (v two's complement), ties to even. */
static float
from_fixed(u128 v)
{
	int neg = (int)(v >> 127), p, s;
	u128 a = neg ? -v : v;
	uint64_t hi = (uint64_t)(a >> 64), lo = (uint64_t)a, q;

	if (a == 0)
		return 0;
	p = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo); /* top bit */
	s = p > 23 ? p - 23 : 0;				       /* bits below the 24 kept */
	q = (uint64_t)(a >> s);
	if (s > 0) {
		u128 r = a & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
		q += r > half || (r == half && (q & 1)); /* 2^24 is exact too */
	}
	return (neg ? -1.0f : 1.0f) * ldexpf((float)q, s - 80);
}

static inline u128
word_get(const uint64_t *w)
{
	return (u128)w[1] << 64 | w[0];
}

static inline void
word_put(uint64_t *w, u128 v)
{
	w[0] = (uint64_t)v;
	w[1] = (uint64_t)(v >> 64);
}

void
xsum_init(xsum *s, int64_t n)
{
	s->n = n;
	s->w = xcalloc(2 * (size_t)n + 2, sizeof *s->w);
}

void
xsum_free(xsum *s)
{
	if (!s)
		return;
	free(s->w);
	s->w = NULL;
	s->n = 0;
}

void
xsum_zero(xsum *s)
{
	memset(s->w, 0, 2 * (size_t)s->n * sizeof *s->w);
}

int64_t
xsum_add(xsum *s, const float *x)
{
	int64_t bad = INT64_MAX;

/* one pass: memory-bound (20 bytes read, 16 written a value) */
#pragma omp parallel for schedule(static) reduction(min : bad)
	for (int64_t i = 0; i < s->n; i++) {
		uint32_t u;
		memcpy(&u, &x[i], sizeof u);
		if ((u & 0x7fffffff) == 0)
			continue; /* zeros are common: no write */
		if (((u >> 23) & 0xff) >= 173) {
			if (i < bad)
				bad = i;
			continue;
		}
		word_put(s->w + 2 * i, word_get(s->w + 2 * i) + to_fixed(x[i]));
	}
	return bad == INT64_MAX ? -1 : bad;
}

void
xsum_merge(xsum *s, const xsum *t)
{
#pragma omp parallel for schedule(static)
	for (int64_t i = 0; i < s->n; i++)
		word_put(s->w + 2 * i, word_get(s->w + 2 * i) + word_get(t->w + 2 * i));
}

void
xsum_get(const xsum *s, float *x)
{
#pragma omp parallel for schedule(static)
	for (int64_t i = 0; i < s->n; i++)
		x[i] = from_fixed(word_get(s->w + 2 * i));
}
