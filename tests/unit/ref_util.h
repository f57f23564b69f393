/*
 * ref_util.h - helpers shared by the graph tests (test_features.c,
 * test_centrality.c, test_refex.c, test_graphstat.c...): load the
 * reference graphs and values of tests/ref/ (written by
 * tests/ref/make_ref.py with networkx), build small graphs by hand or
 * DCBM graphs, and compare arrays with a report (label, max diff, first
 * mismatch).
 *
 * Ownership: ref_load_* return arrays the caller frees with free(); graphs
 * are initialised here and freed by the caller with graph_free().
 * Header-only (static functions, marked unused: a test need not call
 * every one), included by one test file each.
 */
#ifndef GNN_TEST_REF_UTIL_H
#define GNN_TEST_REF_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <zlib.h>

#include "dcbm.h"
#include "graph.h"

#ifndef REF_DIR
#define REF_DIR "tests/ref"
#endif

/* Build g from m edges given as a flat list u0 v0 u1 v1 ... */
static __attribute__((unused)) void
ref_graph(graph *g, int32_t n, int64_t m, const int32_t *uv)
{
	int32_t *u = malloc(sizeof *u * (size_t)(m ? m : 1));
	int32_t *v = malloc(sizeof *v * (size_t)(m ? m : 1));
	char msg[256];
	int64_t i;

	for (i = 0; i < m; i++) {
		u[i] = uv[2 * i];
		v[i] = uv[2 * i + 1];
	}
	graph_init(g);
	cr_assert_eq(graph_build(g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg), 0,
		     "graph_build: %s", msg);
	free(u);
	free(v);
}

/* A DCBM graph (dcbm.h) into g: n nodes, mean degree about deg, the
 * given clusters at in/between-cluster probability ratio p_div_q, gamma
 * 2.5, graph 0 of seed. */
static __attribute__((unused)) void
ref_dcbm_graph(graph *g, int32_t n, double deg, int32_t clusters, double p_div_q, uint64_t seed)
{
	struct dcbm_ranges R = { .nodes = { n, n },
				 .clusters = { clusters, clusters },
				 .p_div_q = { p_div_q, p_div_q },
				 .k = { 1, 1 },
				 .gamma = { 2.5, 2.5 },
				 .deg_per_k = deg,
				 .mean_degree = { deg, deg } };
	dcbm d;
	dcbm_edges e;
	char msg[256];

	dcbm_init(&d);
	dcbm_edges_init(&e);
	dcbm_generate(&R, seed, 0, &d, &e);
	graph_init(g);
	cr_assert_eq(graph_build(g, d.par.n, e.m, e.u, e.v, GRAPH_STRICT, NULL, msg, sizeof msg), 0,
		     "%s", msg);
	dcbm_free(&d);
	dcbm_edges_free(&e);
}

/*
 * Load REF_DIR/name.edges.gz (format in make_ref.py: "# n N", optional
 * "# clique LO HI" with "- u v" exceptions, then "u v" edges).
 */
static __attribute__((unused)) void
ref_load_graph(const char *name, graph *g)
{
	char path[512], line[256], msg[256];
	gzFile f;
	int32_t n = -1, lo = 0, hi = 0, *u = NULL, *v = NULL;
	int64_t m = 0, cap = 0, i, j, w;
	unsigned char *miss = NULL; /* (hi-lo)^2 bitmap of non-edges */

	snprintf(path, sizeof path, "%s/%s.edges.gz", REF_DIR, name);
	f = gzopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s (run the tests from the repository root)", path);
	while (gzgets(f, line, sizeof line)) {
		long a, b;
		if (sscanf(line, "# n %ld", &a) == 1) {
			n = (int32_t)a;
		} else if (sscanf(line, "# clique %ld %ld", &a, &b) == 2) {
			lo = (int32_t)a;
			hi = (int32_t)b;
			miss = calloc((size_t)(hi - lo) * (size_t)(hi - lo), 1);
		} else if (sscanf(line, "- %ld %ld", &a, &b) == 2) {
			cr_assert_not_null(miss, "%s: '-' line before '# clique'", path);
			miss[(size_t)(a - lo) * (size_t)(hi - lo) + (size_t)(b - lo)] = 1;
		} else if (sscanf(line, "%ld %ld", &a, &b) == 2) {
			if (m == cap) {
				cap = cap ? 2 * cap : 1024;
				u = realloc(u, sizeof *u * (size_t)cap);
				v = realloc(v, sizeof *v * (size_t)cap);
			}
			u[m] = (int32_t)a;
			v[m] = (int32_t)b;
			m++;
		}
	}
	gzclose(f);
	cr_assert(n >= 0, "%s: no '# n' line", path);
	if (miss) {
		for (i = lo; i < hi; i++)
			for (j = i + 1; j < hi; j++) {
				if (miss[(size_t)(i - lo) * (size_t)(hi - lo) + (size_t)(j - lo)])
					continue;
				if (m == cap) {
					cap = cap ? 2 * cap : 1024;
					u = realloc(u, sizeof *u * (size_t)cap);
					v = realloc(v, sizeof *v * (size_t)cap);
				}
				u[m] = (int32_t)i;
				v[m] = (int32_t)j;
				m++;
			}
		free(miss);
	}
	graph_init(g);
	w = graph_build(g, n, m, u, v, GRAPH_STRICT, NULL, msg, sizeof msg);
	cr_assert_eq(w, 0, "%s: %s", path, msg);
	free(u);
	free(v);
}

/*
 * Load column `col` of REF_DIR/name.suffix.tsv.gz (header row names the
 * columns, '#' lines are comments, first column is the node 0..n-1).
 * Returns a malloc'd array of n values ("inf" parses as HUGE_VAL).
 */
static __attribute__((unused)) double *
ref_load_col(const char *name, const char *suffix, const char *col, int32_t n)
{
	char path[512], line[4096];
	gzFile f;
	int k = -1, rows = 0;
	double *x = malloc(sizeof *x * (size_t)(n ? n : 1));

	snprintf(path, sizeof path, "%s/%s.%s.tsv.gz", REF_DIR, name, suffix);
	f = gzopen(path, "rb");
	cr_assert_not_null(f, "cannot open %s", path);
	while (gzgets(f, line, sizeof line)) {
		char *s, *tok, *save = NULL;
		int c = 0;
		if (line[0] == '#')
			continue;
		if (k < 0) { /* header */
			for (tok = strtok_r(line, "\t\n", &save); tok;
			     tok = strtok_r(NULL, "\t\n", &save), c++)
				if (strcmp(tok, col) == 0)
					k = c;
			cr_assert(k > 0, "%s: no column %s", path, col);
			continue;
		}
		s = line;
		{
			long node = strtol(s, &s, 10);
			cr_assert(node == rows && node < n, "%s: row %d has node %ld", path, rows,
				  node);
		}
		for (c = 1; c <= k; c++) {
			char *end;
			double val = strtod(s, &end);
			cr_assert(end != s, "%s: row %d: bad number", path, rows);
			s = end;
			if (c == k)
				x[rows] = val;
		}
		rows++;
	}
	gzclose(f);
	cr_assert_eq(rows, n, "%s: %d rows, graph has %d nodes", path, rows, (int)n);
	return x;
}

/*
 * Compare got with want on n entries and fail the test on a mismatch.
 * Entry i matches when |got - want| <= rtol * max(|want_i|, floor), with
 * floor = 1e-6 * max_i |want_i| (values six orders below the largest are
 * compared absolutely: networkx leaves ~1e-17 noise where the exact value is
 * 0).  Prints label, the max relative difference, max |diff| / max |want|
 * (the bench's agreement measure) and the first mismatching index.  Returns
 * the max relative difference.
 */
static __attribute__((unused)) double
ref_check(const char *label, const double *got, const double *want, int32_t n, double rtol)
{
	double scale = 0.0, floor_, maxrel = 0.0, maxabs = 0.0;
	int32_t i, first = -1, bad = 0;

	for (i = 0; i < n; i++)
		if (isfinite(want[i]) && fabs(want[i]) > scale)
			scale = fabs(want[i]);
	floor_ = 1e-6 * scale;
	for (i = 0; i < n; i++) {
		double d = fabs(got[i] - want[i]), den = fmax(fabs(want[i]), floor_);
		double rel;
		if (!isfinite(got[i]) || !isfinite(want[i])) {
			if (got[i] != want[i] && first < 0)
				first = i;
			bad += got[i] != want[i];
			continue;
		}
		rel = den > 0 ? d / den : d;
		if (rel > maxrel)
			maxrel = rel;
		if (d > maxabs)
			maxabs = d;
		if (!(rel <= rtol)) {
			bad++;
			if (first < 0)
				first = i;
		}
	}
	fprintf(stderr, "%-44s n=%-5d maxrel %.3g  maxabs/max %.3g  %s", label, (int)n, maxrel,
		scale > 0 ? maxabs / scale : maxabs, bad ? "MISMATCH" : "ok");
	if (bad)
		fprintf(stderr, " (%d nodes, first %d: got %.17g want %.17g)", (int)bad, (int)first,
			got[first], want[first]);
	fputc('\n', stderr);
	cr_expect(bad == 0,
		  "%s: %d mismatches (tolerance %g), max rel diff %.3g, "
		  "first at node %d: got %.17g, want %.17g",
		  label, (int)bad, rtol, maxrel, (int)first, first >= 0 ? got[first] : 0.0,
		  first >= 0 ? want[first] : 0.0);
	return maxrel;
}

#endif
