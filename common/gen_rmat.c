/*
 * gen_rmat.c - R-MAT graphs (Chakrabarti, Zhan and Faloutsos 2004,
 * "R-MAT: A Recursive Model for Graph Mining"; the generator of Graph500
 * without its noise and node permutation).  See gen.h and gen_int.h.
 */
#include <gsl/gsl_rng.h>
#include <stdint.h>

#include "gen_int.h"

/*
 * round(edge factor * n) edges drawn independently.  An edge picks one
 * quadrant of the adjacency matrix at each of s = ceil(log2 n) levels,
 * a (top left), b (top right), c (bottom left) or d (bottom right), which
 * sets bit s-1, s-2, ... of its two ends (row u, column v).  n need not be
 * a power of two: an edge with an end at n or above is drawn again, so
 * the edges follow R-MAT's law on the 2^s ids restricted to the first n
 * (the top-left n x n block of the Kronecker matrix); with a >= d that
 * block holds at least the share a >= 1/4 of the law, so a draw is kept
 * with probability a or more.  An edge is dropped as soon as its prefix
 * passes n - 1.  The self-loops and repeated pairs among the drawn edges
 * are left in: gen_make() drops and merges them (they are counted).
 * Time complexity: O(drawn log n / a) expected.
 */
int64_t
geni_rmat(const struct gen_params *p, struct gen_work *w)
{
	int64_t top = p->n - 1, e, u, v;
	double ab = p->a + p->b, abc = ab + p->c, x;
	int s = 0, l;

	while ((1LL << s) < p->n)
		s++;
	w->eu = geni_grow(w->eu, &w->cap_eu, p->drawn, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, p->drawn, sizeof *w->ev);
	for (e = 0; e < p->drawn;) {
		u = v = 0;
		for (l = s - 1; l >= 0; l--) {
			x = gsl_rng_uniform(w->r);
			if (x >= abc) {
				u |= 1LL << l;
				v |= 1LL << l;
			} else if (x >= ab) {
				u |= 1LL << l;
			} else if (x >= p->a) {
				v |= 1LL << l;
			}
			if ((u >> l) > (top >> l) || (v >> l) > (top >> l))
				break; /* an end at n or above: draw again */
		}
		if (l >= 0)
			continue;
		w->eu[e] = (int32_t)u;
		w->ev[e++] = (int32_t)v;
	}
	return p->drawn;
}
