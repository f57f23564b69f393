/* test_graph.c - CSR construction: sorted rows, the self-loop/duplicate policy. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "graph.h"
#include "rng.h"

Test(graph, rows_sorted_and_symmetric)
{
	int32_t u[] = { 3, 0, 2, 1, 4 }, v[] = { 0, 1, 0, 3, 2 };
	graph g;
	char msg[128];
	int32_t x;
	int64_t p;

	graph_init(&g);
	cr_assert_eq(graph_build(&g, 6, 5, u, v, GRAPH_STRICT, NULL, msg, sizeof msg), 0, "%s",
		     msg);
	cr_expect_eq(g.n, 6);
	cr_expect_eq(g.m, 5);
	cr_expect_eq(graph_degree(&g, 0), 3);
	cr_expect_eq(graph_degree(&g, 5), 0, "isolated node keeps an empty row");
	for (x = 0; x < g.n; x++)
		for (p = g.off[x]; p + 1 < g.off[x + 1]; p++)
			cr_expect_lt(g.adj[p], g.adj[p + 1], "row %d not strictly sorted", x);
	cr_expect(graph_has_edge(&g, 1, 3));
	cr_expect(graph_has_edge(&g, 3, 1));
	cr_expect(!graph_has_edge(&g, 1, 2));
	{
		int32_t eu[5], ev[5];
		graph_edges(&g, eu, ev);
		cr_expect(eu[0] == 0 && ev[0] == 1);
		cr_expect(eu[4] == 2 && ev[4] == 4);
	}
	graph_free(&g);
}

Test(graph, policy)
{
	int32_t u[] = { 0, 1, 2, 2 }, v[] = { 1, 0, 2, 1 };
	graph g;
	struct graph_fix fix;
	char msg[128];

	graph_init(&g);
	cr_expect_eq(graph_build(&g, 3, 4, u, v, GRAPH_STRICT, NULL, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "self-loop on node 2") != NULL, "%s", msg);
	cr_assert_eq(graph_build(&g, 3, 4, u, v, GRAPH_SIMPLIFY, &fix, msg, sizeof msg), 0);
	cr_expect_eq(fix.self_loops, 1);
	cr_expect_eq(fix.duplicates, 1);
	cr_expect_eq(g.m, 2);
	u[2] = 5;
	cr_expect_eq(graph_build(&g, 3, 4, u, v, GRAPH_SIMPLIFY, &fix, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "out of range") != NULL, "%s", msg);
	graph_free(&g);
}

/* Random multigraphs: the CSR matches a dense adjacency built by hand. */
Test(graph, random_against_dense)
{
	gsl_rng *r = rng_new(7, 0);
	int trial;

	for (trial = 0; trial < 50; trial++) {
		int32_t n = 1 + (int32_t)gsl_rng_uniform_int(r, 40);
		int64_t m = (int64_t)gsl_rng_uniform_int(r, 200), i, p;
		int32_t *u = malloc(sizeof *u * (size_t)(m + 1)),
			*v = malloc(sizeof *v * (size_t)(m + 1));
		char *dense = calloc((size_t)n * (size_t)n, 1), msg[128];
		int64_t edges = 0;
		graph g;
		int32_t a, b;

		for (i = 0; i < m; i++) {
			u[i] = (int32_t)gsl_rng_uniform_int(r, (unsigned long)n);
			v[i] = (int32_t)gsl_rng_uniform_int(r, (unsigned long)n);
			if (u[i] != v[i]) {
				dense[u[i] * n + v[i]] = dense[v[i] * n + u[i]] = 1;
			}
		}
		graph_init(&g);
		cr_assert_eq(graph_build(&g, n, m, u, v, GRAPH_SIMPLIFY, NULL, msg, sizeof msg), 0);
		for (a = 0; a < n; a++) {
			int32_t deg = 0;
			for (b = 0; b < n; b++) {
				deg += dense[a * n + b];
				edges += b > a && dense[a * n + b];
				cr_assert_eq(graph_has_edge(&g, a, b), dense[a * n + b]);
			}
			cr_assert_eq(graph_degree(&g, a), deg);
			for (p = g.off[a]; p < g.off[a + 1]; p++)
				cr_assert(dense[a * n + g.adj[p]]);
		}
		cr_assert_eq(g.m, edges);
		graph_free(&g);
		free(u);
		free(v);
		free(dense);
	}
	gsl_rng_free(r);
}
