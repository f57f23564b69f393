/*
 * gen.c - what the random graph families share, below them: the mix of
 * families, the ranges and their checks, the gen_graph and its growing
 * arrays.  The families are in gen_pa.c, gen_ws.c, gen_rgg.c, gen_rmat.c
 * and gen_er.c; the per-graph parameters and the finished graph, which
 * choose among them, in gen_make.c.  See gen.h.
 */
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gen_int.h"

const char *const gen_family_names[] = { "ba", "hk", "ws", "rgg", "rmat", "er", NULL };

void *
geni_grow(void *p, size_t *cap, int64_t want, size_t size)
{
	size_t more;

	if ((size_t)want <= *cap && p != NULL)
		return p;
	more = *cap + *cap / 2; /* a list grown one edge at a time: amortised */
	*cap = (size_t)want > more ? (size_t)want : more;
	if (*cap == 0)
		*cap = 1;
	return xreallocarray(p, *cap, size);
}

void
gen_graph_init(gen_graph *g)
{
	memset(g, 0, sizeof *g);
}

void
gen_graph_free(gen_graph *g)
{
	struct gen_work *w;

	if (g == NULL)
		return;
	w = g->priv;
	if (w != NULL) {
		free(w->eu);
		free(w->ev);
		free(w->rep);
		free(w->mark);
		free(w->head);
		free(w->next);
		free(w->to);
		free(w->set);
		free(w->deg);
		free(w->cstart);
		free(w->corder);
		free(w->cmap);
		graph_free(&w->csr);
		if (w->r)
			gsl_rng_free(w->r);
		free(w);
	}
	free(g->u);
	free(g->v);
	free(g->cluster);
	free(g->x);
	free(g->y);
	gen_graph_init(g);
}

/* ---- the mix ---- */

int
gen_family_parse(const char *text, double *weight, char *msg, size_t msglen)
{
	const char *s = text, *end;
	char *stop;
	size_t len;
	double x;
	int f;

	for (f = 0; f < GEN_FAMILIES; f++)
		weight[f] = 0;
	for (;;) {
		len = strcspn(s, ":,");
		for (f = 0; f < GEN_FAMILIES; f++)
			if (strlen(gen_family_names[f]) == len &&
			    strncmp(s, gen_family_names[f], len) == 0)
				break;
		if (f == GEN_FAMILIES)
			return snprintf(msg, msglen,
					"'%.*s': unknown family (expected ba, hk, ws, rgg, rmat or "
					"er, as in ba:2,ws)",
					(int)len, s),
			       -1;
		if (weight[f] != 0)
			return snprintf(msg, msglen, "'%s': %s given twice", text,
					gen_family_names[f]),
			       -1;
		x = 1;
		end = s + len;
		if (*end == ':') {
			x = strtod(end + 1, &stop);
			if (stop == end + 1 || (*stop != ',' && *stop != '\0') || !(x > 0) ||
			    x > GEN_MAX_WEIGHT)
				return snprintf(msg, msglen,
						"'%s': the weight of %s must be a number above 0 "
						"and at most %g",
						text, gen_family_names[f], GEN_MAX_WEIGHT),
				       -1;
			end = stop;
		}
		weight[f] = x;
		if (*end == '\0')
			return 0;
		s = end + 1;
	}
}

char *
gen_family_list(const double *weight, char *buf, size_t len)
{
	size_t at = 0;
	int f;

	buf[0] = '\0';
	for (f = 0; f < GEN_FAMILIES; f++)
		if (weight[f] > 0 && at < len)
			at += (size_t)snprintf(buf + at, len - at,
					       weight[f] == 1 ? "%s%s" : "%s%s:%g", at ? "," : "",
					       gen_family_names[f], weight[f]);
	return buf;
}

void
gen_ranges_default(struct gen_ranges *R)
{
	*R = (struct gen_ranges){ .nodes = { 100, 2000 },
				  .weight = { [GEN_BA] = 1,
					      [GEN_HK] = 1,
					      [GEN_WS] = 1,
					      [GEN_RGG] = 1,
					      [GEN_RMAT] = 1 },
				  .ba_m = { 1, 8 },
				  .hk_m = { 1, 8 },
				  .hk_p = { 0, 1 },
				  .ws_k = { 2, 16 },
				  .ws_p = { 0, 0.3 },
				  .ws_arcs = { 2, 10 },
				  .rgg_degree = { 2, 16 },
				  .rgg_radius = { 0.05, 0.2 },
				  .rgg_cells = { 2, 3 },
				  .rmat_a = { 0.57, 0.57 },
				  .rmat_b = { 0.19, 0.19 },
				  .rmat_c = { 0.19, 0.19 },
				  .rmat_ef = { 1, 8 },
				  .er_degree = { 2, 16 } };
}

/* ---- checks ---- */

/* lo <= hi within [min, max] (each end); else msg names the option. */
static int
bad_range(const double *r, double min, double max, const char *name, char *msg, size_t msglen)
{
	if (r[0] >= min && r[1] <= max && r[0] <= r[1])
		return 0;
	if (r[0] == r[1])
		snprintf(msg, msglen, "%s: %g is out of range %g..%g", name, r[0], min, max);
	else
		snprintf(msg, msglen, "%s: %g..%g is out of range %g..%g", name, r[0], r[1], min,
			 max);
	return -1;
}

static int
bad_irange(const long long *r, double min, double max, const char *name, char *msg, size_t msglen)
{
	double d[2] = { (double)r[0], (double)r[1] };

	return bad_range(d, min, max, name, msg, msglen);
}

int
gen_ranges_check(const struct gen_ranges *R, char *msg, size_t msglen)
{
	double sum = 0;
	int f;

	for (f = 0; f < GEN_FAMILIES; f++) {
		if (!(R->weight[f] >= 0 && R->weight[f] <= GEN_MAX_WEIGHT))
			return snprintf(msg, msglen, "--family: bad weight of %s",
					gen_family_names[f]),
			       -1;
		sum += R->weight[f];
	}
	if (!(sum > 0))
		return snprintf(msg, msglen, "--family: no family to draw"), -1;
	if (bad_irange(R->nodes, 1, (double)GEN_MAX_NODES, "--nodes", msg, msglen) ||
	    bad_irange(R->ba_m, 1, GEN_MAX_DEGREE, "--ba-m", msg, msglen) ||
	    bad_irange(R->hk_m, 1, GEN_MAX_DEGREE, "--hk-m", msg, msglen) ||
	    bad_range(R->hk_p, 0, 1, "--hk-p", msg, msglen) ||
	    bad_irange(R->ws_k, 2, GEN_MAX_DEGREE, "--ws-k", msg, msglen) ||
	    bad_range(R->ws_p, 0, 1, "--ws-p", msg, msglen) ||
	    bad_irange(R->ws_arcs, 1, (double)GEN_MAX_NODES, "--ws-arcs", msg, msglen) ||
	    bad_range(R->rgg_degree, 0, GEN_MAX_DEGREE, "--rgg-degree", msg, msglen) ||
	    bad_range(R->rgg_radius, 0, R->rgg_torus ? 0.5 : 1,
		      R->rgg_torus ? "--rgg-radius (on the torus)" : "--rgg-radius", msg, msglen) ||
	    bad_irange(R->rgg_cells, 1, GEN_MAX_CELLS, "--rgg-cells", msg, msglen) ||
	    bad_range(R->rmat_a, 0, 1, "--rmat-a", msg, msglen) ||
	    bad_range(R->rmat_b, 0, 1, "--rmat-b", msg, msglen) ||
	    bad_range(R->rmat_c, 0, 1, "--rmat-c", msg, msglen) ||
	    bad_range(R->rmat_ef, 0, GEN_MAX_DEGREE, "--rmat-edge-factor", msg, msglen) ||
	    bad_range(R->er_degree, 0, GEN_MAX_DEGREE, "--er-degree", msg, msglen))
		return -1;
	if (R->ws_k[0] == R->ws_k[1] && R->ws_k[0] % 2 != 0)
		return snprintf(msg, msglen, "--ws-k: %lld is odd (the lattice degree is even)",
				R->ws_k[0]),
		       -1;
	/* every draw: d = 1 - a - b - c >= 0, a >= b, a >= c, a >= d */
	if (R->rmat_a[1] + R->rmat_b[1] + R->rmat_c[1] > 1 + 1e-12)
		return snprintf(msg, msglen,
				"--rmat-a, -b, -c: a + b + c may reach %g, above 1 (d = 1 - a - b "
				"- c)",
				R->rmat_a[1] + R->rmat_b[1] + R->rmat_c[1]),
		       -1;
	if (R->rmat_a[0] < R->rmat_b[1] || R->rmat_a[0] < R->rmat_c[1] ||
	    2 * R->rmat_a[0] + R->rmat_b[0] + R->rmat_c[0] < 1 - 1e-12)
		return snprintf(msg, msglen,
				"--rmat-a: a may fall below b, c or d = 1 - a - b - c (R-MAT's a "
				"is the largest quadrant)"),
		       -1;
	return 0;
}
