/*
 * gen_er.c - Erdos-Renyi graphs G(n, p).  See gen.h and gen_int.h.
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdint.h>

#include "gen_int.h"

/*
 * Every pair an edge independently with probability p, by geometric
 * skipping over the pairs (w, v), w < v, in order (Batagelj and Brandes
 * 2005, "Efficient generation of large random networks", algorithm
 * G(n, p); networkx's fast_gnp_random_graph): one uniform per edge and
 * one more, O(n + m) time.  p = 1 gives the complete graph.
 */
int64_t
geni_er(const struct gen_params *p, struct gen_work *w)
{
	int32_t n = p->n;
	int64_t m = 0, v = 1, x = -1, want;
	double lp, skip, pairs = (double)n * (n - 1) / 2;

	if (n < 2 || !(p->p > 0))
		return 0;
	want = (int64_t)(fmin(1.0, p->p * 1.1) * pairs) + 16;
	w->eu = geni_grow(w->eu, &w->cap_eu, want, sizeof *w->eu);
	w->ev = geni_grow(w->ev, &w->cap_ev, want, sizeof *w->ev);
	lp = log1p(-p->p); /* -inf for p = 1: every skip is 0 */
	while (v < n) {
		skip = p->p >= 1 ? 0 : floor(log1p(-gsl_rng_uniform(w->r)) / lp);
		x += 1 + (int64_t)fmin(skip, 2 * pairs); /* no overflow */
		while (x >= v && v < n) {
			x -= v;
			v++;
		}
		if (v < n) {
			w->eu = geni_grow(w->eu, &w->cap_eu, m + 1, sizeof *w->eu);
			w->ev = geni_grow(w->ev, &w->cap_ev, m + 1, sizeof *w->ev);
			w->eu[m] = (int32_t)x;
			w->ev[m++] = (int32_t)v;
		}
	}
	return m;
}
