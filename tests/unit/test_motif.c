/*
 * test_motif.c - the motif benchmark generator (common/motif.h): the
 * shapes by hand, their roles against the orbits of the motif's
 * automorphism group found by brute force, the spec parser, the sizes of
 * the presets, the generated graphs (labels, attachment, noise with and
 * without, determinism) and the random draws by their frequencies (bounds
 * of about 5 standard deviations, fixed seeds).
 * Run from the repository root: tests/bin/test_motif
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "motif.h"

/* ---- helpers ---- */

static void
make(motif_shape *s, int kind, int32_t size)
{
	char msg[256];

	motif_shape_init(s);
	cr_assert_eq(motif_shape_make(s, kind, size, msg, sizeof msg), 0, "%s", msg);
}

static void
degrees(const motif_shape *s, int32_t *deg)
{
	int64_t e;

	memset(deg, 0, (size_t)s->n * sizeof *deg);
	for (e = 0; e < s->m; e++) {
		deg[s->u[e]]++;
		deg[s->v[e]]++;
	}
}

/* Dense adjacency of a shape: (n, n) bytes, caller frees. */
static unsigned char *
dense(const motif_shape *s)
{
	unsigned char *a = calloc((size_t)s->n * (size_t)s->n, 1);
	int64_t e;

	for (e = 0; e < s->m; e++) {
		cr_assert(s->u[e] < s->v[e] && s->v[e] < s->n, "edge %lld: %d %d", (long long)e,
			  s->u[e], s->v[e]);
		cr_assert_eq(a[(size_t)s->u[e] * s->n + s->v[e]], 0, "edge %d-%d twice", s->u[e],
			     s->v[e]);
		a[(size_t)s->u[e] * s->n + s->v[e]] = a[(size_t)s->v[e] * s->n + s->u[e]] = 1;
	}
	return a;
}

/*
 * Every automorphism of the graph a (n nodes) by backtracking: node i is
 * mapped to an unused node of the same degree whose adjacencies to the
 * images of 0..i-1 match.  Each automorphism found joins node i with its
 * image in orbit[] (smallest member as the representative).
 */
struct aut {
	const unsigned char *a;
	const int32_t *deg;
	int32_t n, *img, *orbit;
	unsigned char *used;
	long count;
};

static int32_t
find(int32_t *orbit, int32_t x)
{
	while (orbit[x] != x)
		x = orbit[x];
	return x;
}

static void
join(int32_t *orbit, int32_t x, int32_t y)
{
	x = find(orbit, x);
	y = find(orbit, y);
	if (x < y)
		orbit[y] = x;
	else
		orbit[x] = y;
}

static void
search(struct aut *t, int32_t i)
{
	int32_t x, j;

	if (i == t->n) {
		for (j = 0; j < t->n; j++)
			join(t->orbit, j, t->img[j]);
		t->count++;
		return;
	}
	for (x = 0; x < t->n; x++) {
		if (t->used[x] || t->deg[x] != t->deg[i])
			continue;
		for (j = 0; j < i; j++)
			if (t->a[(size_t)i * t->n + j] != t->a[(size_t)x * t->n + t->img[j]])
				break;
		if (j < i)
			continue;
		t->used[x] = 1;
		t->img[i] = x;
		search(t, i + 1);
		t->used[x] = 0;
	}
}

/* The orbits of s's automorphism group: orbit[i] = its smallest member. */
static long
orbits(const motif_shape *s, int32_t *orbit)
{
	struct aut t;
	int32_t *deg = malloc((size_t)s->n * sizeof *deg), i;

	degrees(s, deg);
	t.a = dense(s);
	t.deg = deg;
	t.n = s->n;
	t.img = malloc((size_t)s->n * sizeof *t.img);
	t.orbit = orbit;
	t.used = calloc((size_t)s->n, 1);
	t.count = 0;
	for (i = 0; i < s->n; i++)
		orbit[i] = i;
	search(&t, 0);
	for (i = 0; i < s->n; i++)
		orbit[i] = find(orbit, i);
	free((void *)t.a);
	free(t.img);
	free(t.used);
	free(deg);
	return t.count;
}

/* 1 if role[] is exactly the orbit partition (same role <=> same orbit)
 * and the roles are 0..nroles-1, each used. */
static int
roles_are_orbits(const int32_t *role, int nroles, const int32_t *orbit, int32_t n)
{
	int32_t i, j;
	int *seen = calloc((size_t)nroles, sizeof *seen), ok = 1;

	for (i = 0; i < n; i++) {
		if (role[i] < 0 || role[i] >= nroles)
			ok = 0;
		else
			seen[role[i]] = 1;
		for (j = 0; j < n; j++)
			if ((role[i] == role[j]) != (orbit[i] == orbit[j]))
				ok = 0;
	}
	for (i = 0; i < nroles; i++)
		ok &= seen[i];
	free(seen);
	return ok;
}

static void
check_orbits(int kind, int32_t size, long want_aut)
{
	motif_shape s;
	int32_t *orbit;
	long count;

	make(&s, kind, size);
	orbit = malloc((size_t)s.n * sizeof *orbit);
	count = orbits(&s, orbit);
	if (want_aut > 0)
		cr_expect_eq(count, want_aut, "kind %d size %d: %ld automorphisms, want %ld", kind,
			     size, count, want_aut);
	cr_expect(roles_are_orbits(s.role, s.nroles, orbit, s.n),
		  "kind %d size %d: the roles are not the automorphism orbits", kind, size);
	free(orbit);
	motif_shape_free(&s);
}

/* ---- shapes by hand ---- */

Test(motif_shape, house)
{
	static const int32_t want_deg[5] = { 3, 3, 2, 2, 2 }, want_role[5] = { 1, 1, 2, 2, 0 };
	motif_shape s;
	int32_t deg[5], i;
	char name[32];

	make(&s, MOTIF_HOUSE, 0);
	cr_assert_eq(s.n, 5);
	cr_assert_eq(s.m, 6);
	cr_assert_eq(s.nroles, 3);
	cr_assert_eq(s.anchor, 0, "anchored at a middle node, as GNNExplainer");
	degrees(&s, deg);
	for (i = 0; i < 5; i++) {
		cr_expect_eq(deg[i], want_deg[i], "house node %d: degree %d, want %d", i, deg[i],
			     want_deg[i]);
		cr_expect_eq(s.role[i], want_role[i], "house node %d: role %d", i, s.role[i]);
	}
	cr_expect_str_eq(motif_role_name(MOTIF_HOUSE, 0, 0, name, sizeof name), "top");
	cr_expect_str_eq(motif_role_name(MOTIF_HOUSE, 0, 1, name, sizeof name), "middle");
	cr_expect_str_eq(motif_role_name(MOTIF_HOUSE, 0, 2, name, sizeof name), "bottom");
	/* the roof joins the two middle nodes, and nothing else */
	for (i = 0; i < s.m; i++)
		if (s.u[i] == 4 || s.v[i] == 4)
			cr_expect(s.u[i] <= 1, "roof edge %d-%d", s.u[i], s.v[i]);
	motif_shape_free(&s);
}

Test(motif_shape, house_x)
{
	static const int32_t want_deg[5] = { 4, 4, 3, 3, 2 };
	motif_shape s;
	int32_t deg[5], i;

	make(&s, MOTIF_HOUSE_X, 0);
	cr_assert_eq(s.m, 8);
	degrees(&s, deg);
	for (i = 0; i < 5; i++)
		cr_expect_eq(deg[i], want_deg[i], "house-x node %d: degree %d", i, deg[i]);
	motif_shape_free(&s);
}

Test(motif_shape, sizes_and_roles)
{
	motif_shape s;
	int32_t deg[64];
	char name[32];

	make(&s, MOTIF_STAR, 6); /* centre of degree 6, six leaves */
	degrees(&s, deg);
	cr_expect(s.n == 7 && s.m == 6 && deg[0] == 6 && deg[3] == 1 && s.nroles == 2);
	cr_expect(s.role[0] == 0 && s.role[1] == 1 && s.role[6] == 1);
	motif_shape_free(&s);

	make(&s, MOTIF_FAN, 6); /* blades 1..6: roles 1,2,3,3,2,1 */
	degrees(&s, deg);
	cr_expect(s.n == 7 && s.m == 11 && deg[0] == 6 && deg[1] == 2 && deg[3] == 3);
	cr_expect(s.nroles == 4 && s.role[0] == 0 && s.role[1] == 1 && s.role[2] == 2 &&
		  s.role[3] == 3 && s.role[4] == 3 && s.role[5] == 2 && s.role[6] == 1);
	cr_expect_str_eq(motif_role_name(MOTIF_FAN, 6, 3, name, sizeof name), "blade2");
	motif_shape_free(&s);

	make(&s, MOTIF_GRID, 3); /* corner, side, centre */
	degrees(&s, deg);
	cr_expect(s.n == 9 && s.m == 12 && deg[0] == 2 && deg[1] == 3 && deg[4] == 4);
	cr_expect(s.nroles == 3 && s.role[0] == 0 && s.role[8] == 0 && s.role[1] == 1 &&
		  s.role[3] == 1 && s.role[4] == 2);
	cr_expect_str_eq(motif_role_name(MOTIF_GRID, 3, 1, name, sizeof name), "0_1");
	motif_shape_free(&s);

	make(&s, MOTIF_GRID, 4); /* (0,0) (0,1) (1,1) */
	cr_expect(s.nroles == 3 && s.role[0] == 0 && s.role[1] == 1 && s.role[5] == 2 &&
		  s.role[10] == 2 && s.role[15] == 0);
	motif_shape_free(&s);

	make(&s, MOTIF_CYCLE, 6);
	degrees(&s, deg);
	cr_expect(s.n == 6 && s.m == 6 && deg[0] == 2 && deg[5] == 2 && s.nroles == 1);
	motif_shape_free(&s);

	make(&s, MOTIF_CLIQUE, 5);
	degrees(&s, deg);
	cr_expect(s.n == 5 && s.m == 10 && deg[2] == 4 && s.nroles == 1);
	motif_shape_free(&s);
}

Test(motif_shape, sizes_out_of_range)
{
	motif_shape s;
	char msg[256];

	motif_shape_init(&s);
	cr_expect_neq(motif_shape_make(&s, MOTIF_FAN, 3, msg, sizeof msg), 0,
		      "fan 3 (centre and middle blade alike) is refused");
	cr_expect_neq(motif_shape_make(&s, MOTIF_STAR, 1, msg, sizeof msg), 0);
	cr_expect_neq(motif_shape_make(&s, MOTIF_CYCLE, 2, msg, sizeof msg), 0);
	cr_expect_neq(motif_shape_make(&s, MOTIF_GRID, MOTIF_MAX_SIZE + 1, msg, sizeof msg), 0);
	motif_shape_free(&s);
}

/* ---- roles = automorphism orbits ---- */

Test(motif_roles, orbits_of_every_kind)
{
	int32_t k;

	check_orbits(MOTIF_HOUSE, 0, 2);
	check_orbits(MOTIF_HOUSE_X, 0, 4); /* 0 <-> 1 and 2 <-> 3 apart */
	for (k = 3; k <= 8; k++)
		check_orbits(MOTIF_CYCLE, k, 2 * k); /* the dihedral group */
	for (k = 2; k <= 6; k++)
		check_orbits(MOTIF_STAR, k, 0);
	for (k = 4; k <= 9; k++)
		check_orbits(MOTIF_FAN, k, 2);
	for (k = 2; k <= 6; k++)
		check_orbits(MOTIF_GRID, k, 8); /* the square's symmetries */
	for (k = 3; k <= 6; k++)
		check_orbits(MOTIF_CLIQUE, k, 0);
}

/* The orbit check is not vacuous: a labelling that merges two orbits, or
 * splits one, fails it. */
Test(motif_roles, check_can_fail)
{
	motif_shape s;
	int32_t orbit[9], role[9];

	make(&s, MOTIF_HOUSE, 0);
	orbits(&s, orbit);
	memcpy(role, s.role, sizeof role[0] * 5);
	cr_assert(roles_are_orbits(role, 3, orbit, 5));
	role[4] = 2; /* the top merged with the bottom */
	cr_expect(!roles_are_orbits(role, 3, orbit, 5));
	motif_shape_free(&s);

	make(&s, MOTIF_GRID, 3);
	orbits(&s, orbit);
	memcpy(role, s.role, sizeof role[0] * 9);
	role[8] = 3; /* one corner split off */
	cr_expect(!roles_are_orbits(role, 4, orbit, 9));
	motif_shape_free(&s);
}

/* ---- specs, presets, checks ---- */

Test(motif_spec, parse)
{
	struct motif_spec sp;
	char msg[256], name[32];

	cr_assert_eq(motif_spec_parse("house:80", &sp, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sp.kind == MOTIF_HOUSE && sp.size == 0 && sp.count == 80);
	cr_assert_eq(motif_spec_parse("star6:8", &sp, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sp.kind == MOTIF_STAR && sp.size == 6 && sp.count == 8);
	cr_expect_str_eq(motif_spec_name(&sp, name, sizeof name), "star6");
	cr_assert_eq(motif_spec_parse("cycle6", &sp, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sp.kind == MOTIF_CYCLE && sp.size == 6 && sp.count == 1);
	cr_assert_eq(motif_spec_parse("house-x:3", &sp, msg, sizeof msg), 0, "%s", msg);
	cr_expect(sp.kind == MOTIF_HOUSE_X && sp.count == 3);

	cr_expect_neq(motif_spec_parse("blob:3", &sp, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "unknown motif") != NULL, "%s", msg);
	cr_expect_neq(motif_spec_parse("star:3", &sp, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "needs a size") != NULL, "%s", msg);
	cr_expect_neq(motif_spec_parse("house6", &sp, msg, sizeof msg), 0);
	cr_expect(strstr(msg, "takes no size") != NULL, "%s", msg);
	cr_expect_neq(motif_spec_parse("fan3", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("house:0", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("house:-1", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("house:", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("star6x", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("", &sp, msg, sizeof msg), 0);
	cr_expect_neq(motif_spec_parse("star99999999999999999999", &sp, msg, sizeof msg), 0);
}

Test(motif_preset, sizes)
{
	struct motif_opts o;
	struct motif_sizes sz;
	char msg[256], *names;

	/* BA-Shapes: 300 + 80 x 5 nodes; 5 x 295 + 80 x (6 + 1) edges; 10% added */
	cr_assert_eq(motif_preset("ba-shapes", &o), 0);
	cr_assert_eq(motif_opts_check(&o, msg, sizeof msg), 0, "%s", msg);
	motif_sizes(&o, &sz);
	cr_expect(sz.nodes == 700 && sz.base_edges == 1475 && sz.clean_edges == 2035,
		  "%lld nodes, %lld clean edges", (long long)sz.nodes, (long long)sz.clean_edges);
	cr_expect(sz.added == 204 && sz.removed == 0 && sz.edges == 2239 && sz.classes == 4);
	names = motif_class_names(&o);
	cr_expect_str_eq(names, "base,house_top,house_middle,house_bottom");
	free(names);

	/* cycle 40, 8 fans of 6 (7 nodes, 11 edges), 8 stars of 6 (7, 6),
	 * 8 houses with diagonals (5, 8) */
	cr_assert_eq(motif_preset("cycle-varied", &o), 0);
	motif_sizes(&o, &sz);
	cr_expect(sz.nodes == 192 && sz.clean_edges == 40 + 8 * 12 + 8 * 7 + 8 * 9 &&
		  sz.classes == 10);
	names = motif_class_names(&o);
	cr_expect_str_eq(names,
			 "base,fan6_centre,fan6_blade0,fan6_blade1,fan6_blade2,"
			 "star6_centre,star6_leaf,house-x_top,house-x_middle,house-x_bottom");
	free(names);

	cr_assert_eq(motif_preset("tree-cycles", &o), 0);
	motif_sizes(&o, &sz);
	cr_expect(sz.nodes == 871 && sz.classes == 2); /* GNNExplainer's counts */
	cr_assert_eq(motif_preset("tree-grid", &o), 0);
	motif_sizes(&o, &sz);
	cr_expect(sz.nodes == 1231 && sz.classes == 4);
	cr_expect_neq(motif_preset("ba-shape", &o), 0);
}

Test(motif_opts, checks)
{
	struct motif_opts o;
	char msg[256];

	motif_preset("ba-shapes", &o);
	o.spec[0].count = 301;
	cr_expect_neq(motif_opts_check(&o, msg, sizeof msg), 0, "301 motifs on 300 nodes");
	cr_expect(strstr(msg, "--attach uniform") != NULL, "%s", msg);
	o.attach = MOTIF_ATTACH_SPREAD;
	cr_expect_eq(motif_opts_check(&o, msg, sizeof msg), 0, "spread shares: %s", msg);

	motif_preset("ba-shapes", &o);
	o.ba_m = 300;
	cr_expect_neq(motif_opts_check(&o, msg, sizeof msg), 0, "m = B");
	motif_preset("ba-shapes", &o);
	o.spec[1] = o.spec[0];
	o.nspec = 2;
	cr_expect_neq(motif_opts_check(&o, msg, sizeof msg), 0, "house twice");
	cr_expect(strstr(msg, "twice") != NULL, "%s", msg);

	/* a cycle of 3 and one house: 8 nodes, 10 edges of 28 pairs: 18 to add */
	motif_preset("cycle-varied", &o);
	o.base_nodes = 3;
	o.nspec = 1;
	o.spec[0].kind = MOTIF_HOUSE;
	o.spec[0].count = 1;
	o.add_edges = 1.8;
	cr_expect_eq(motif_opts_check(&o, msg, sizeof msg), 0, "%s", msg);
	o.add_edges = 1.9;
	cr_expect_neq(motif_opts_check(&o, msg, sizeof msg), 0, "19 > 18 non-edges");

	motif_preset("tree-grid", &o);
	o.spec[0].size = 100; /* 1275 roles */
	o.spec[0].count = 1;
	cr_expect_neq(motif_opts_check(&o, msg, sizeof msg), 0, "classes limit");
}

/* ---- generated graphs ---- */

static void
gen(const struct motif_opts *o, uint64_t seed, uint64_t stream, motif_graph *g)
{
	char msg[256];

	cr_assert_eq(motif_opts_check(o, msg, sizeof msg), 0, "%s", msg);
	motif_graph_init(g);
	motif_generate(o, seed, stream, g);
}

/* The CSR of g (also proves it simple: GRAPH_STRICT). */
static void
csr(const motif_graph *g, graph *c)
{
	char msg[256];
	int64_t e;

	for (e = 1; e < g->m; e++)
		cr_assert(g->u[e - 1] < g->u[e] ||
			      (g->u[e - 1] == g->u[e] && g->v[e - 1] < g->v[e]),
			  "edge %lld out of canonical order", (long long)e);
	graph_init(c);
	cr_assert_eq(graph_build(c, g->n, g->m, g->u, g->v, GRAPH_STRICT, NULL, msg, sizeof msg), 0,
		     "%s", msg);
}

Test(motif_graph, ba_shapes_labels_and_attachment)
{
	struct motif_opts o;
	motif_graph g;
	graph c;
	int64_t cnt[4] = { 0 }, p;
	int32_t i, x, base_nbrs;
	unsigned char *used;

	motif_preset("ba-shapes", &o);
	o.add_edges = 0; /* the clean graph */
	gen(&o, 7, 0, &g);
	cr_assert(g.n == 700 && g.m == 2035, "%d nodes, %lld edges", g.n, (long long)g.m);
	csr(&g, &c);
	for (i = 0; i < g.n; i++)
		cnt[g.label[i]]++;
	cr_expect(cnt[0] == 300 && cnt[1] == 80 && cnt[2] == 160 && cnt[3] == 160,
		  "class counts %lld %lld %lld %lld", (long long)cnt[0], (long long)cnt[1],
		  (long long)cnt[2], (long long)cnt[3]);
	/* BA: node s > m has exactly m neighbours among the nodes before it */
	for (i = 6; i < 300; i++) {
		int32_t before = 0;
		for (p = c.off[i]; p < c.off[i + 1]; p++)
			before += c.adj[p] < i;
		cr_expect_eq(before, 5, "base node %d: %d earlier neighbours", i, before);
	}
	/* each house: nodes 300 + 5h .. +4, one edge to the base, from its
	 * first middle node, to a base node no other house took */
	used = calloc(300, 1);
	for (i = 300; i < 700; i++) {
		int32_t h = (i - 300) / 5, r = (i - 300) % 5;
		static const int32_t want[5] = { 2, 2, 3, 3, 1 };

		cr_expect_eq(g.label[i], want[r], "node %d: class %d", i, g.label[i]);
		cr_expect_eq(g.motif[i], h);
		base_nbrs = 0;
		for (p = c.off[i]; p < c.off[i + 1]; p++) {
			x = c.adj[p];
			if (x < 300) {
				base_nbrs++;
				cr_expect_eq(used[x], 0, "base node %d takes two houses", x);
				used[x] = 1;
			} else {
				cr_expect_eq((x - 300) / 5, h, "edge %d-%d between houses", i, x);
			}
		}
		cr_expect_eq(base_nbrs, r == 0, "house node %d: %d base neighbours", i, base_nbrs);
		/* degrees in the clean graph: the house's plus the anchor's edge */
		cr_expect_eq(graph_degree(&c, i), r < 2 ? 3 + (r == 0) : 2);
	}
	for (i = 0; i < 300; i++)
		cr_expect_eq(g.motif[i], -1);
	free(used);
	graph_free(&c);
	motif_graph_free(&g);
}

/* Edges of b that are edges of a. */
static int64_t
common_edges(const motif_graph *a, const motif_graph *b)
{
	int64_t i = 0, j = 0, k = 0;

	while (i < a->m && j < b->m) {
		int64_t ka = (int64_t)a->u[i] << 32 | a->v[i],
			kb = (int64_t)b->u[j] << 32 | b->v[j];
		if (ka == kb)
			k++;
		if (ka <= kb)
			i++;
		if (kb <= ka)
			j++;
	}
	return k;
}

Test(motif_graph, noise_counts)
{
	struct motif_opts o;
	motif_graph clean, add, rm, both;
	graph c;

	motif_preset("ba-shapes", &o);
	o.add_edges = 0;
	gen(&o, 3, 5, &clean);
	o.add_edges = 0.1; /* 204 added, none removed */
	gen(&o, 3, 5, &add);
	cr_expect_eq(add.m, 2035 + 204);
	cr_expect_eq(common_edges(&clean, &add), 2035, "the clean graph is kept");
	o.add_edges = 0;
	o.remove_edges = 0.2; /* 407 removed */
	gen(&o, 3, 5, &rm);
	cr_expect_eq(rm.m, 2035 - 407);
	cr_expect_eq(common_edges(&clean, &rm), 2035 - 407, "only clean edges remain");
	o.add_edges = 0.5; /* 1018 (1017.5 rounded up) added to the 1628 kept */
	gen(&o, 3, 5, &both);
	cr_expect_eq(both.m, 2035 - 407 + 1018);
	cr_expect_eq(common_edges(&clean, &both), 2035 - 407, "added edges are new pairs");
	csr(&both, &c);
	graph_free(&c);
	/* the labels are the clean graph's (roles are set before the noise) */
	cr_expect_eq(memcmp(clean.label, both.label, 700 * sizeof *clean.label), 0);
	motif_graph_free(&clean);
	motif_graph_free(&add);
	motif_graph_free(&rm);
	motif_graph_free(&both);
}

Test(motif_graph, determinism)
{
	struct motif_opts o;
	motif_graph a, b, d;

	motif_preset("ba-shapes", &o);
	gen(&o, 11, 4, &a);
	gen(&o, 11, 4, &b);
	gen(&o, 11, 5, &d);
	cr_assert_eq(a.m, b.m);
	cr_expect(memcmp(a.u, b.u, (size_t)a.m * 4) == 0 && memcmp(a.v, b.v, (size_t)a.m * 4) == 0,
		  "same (seed, stream): same graph");
	cr_expect(d.m != a.m || memcmp(a.u, d.u, (size_t)a.m * 4) != 0 ||
		      memcmp(a.v, d.v, (size_t)a.m * 4) != 0,
		  "another stream: another graph");
	/* a work value reused for another graph gives what a fresh one gives */
	motif_generate(&o, 11, 5, &a);
	cr_expect(a.m == d.m && memcmp(a.u, d.u, (size_t)a.m * 4) == 0);
	motif_graph_free(&a);
	motif_graph_free(&b);
	motif_graph_free(&d);
}

Test(motif_graph, cycle_spread_and_tree)
{
	struct motif_opts o;
	motif_graph g;
	graph c;
	int32_t i, M = 24;
	int64_t p;

	/* cycle-varied: motif i hangs from cycle node floor(40 i / 24) */
	motif_preset("cycle-varied", &o);
	gen(&o, 1, 0, &g);
	cr_assert(g.n == 192 && g.m == 264);
	csr(&g, &c);
	for (i = 0; i < 40; i++)
		cr_expect(graph_has_edge(&c, i, (i + 1) % 40), "cycle edge %d", i);
	{
		int32_t node = 40;
		for (i = 0; i < M; i++) {
			int32_t size = i < 16 ? 7 : 5;
			cr_expect(graph_has_edge(&c, node, i * 40 / M), "motif %d at %d", i,
				  i * 40 / M);
			node += size;
		}
	}
	graph_free(&c);
	motif_graph_free(&g);

	/* tree-cycles: node i > 0 hangs from (i - 1) / 2 */
	motif_preset("tree-cycles", &o);
	gen(&o, 1, 0, &g);
	csr(&g, &c);
	for (i = 1; i < 511; i++)
		cr_expect(graph_has_edge(&c, i, (i - 1) / 2), "tree edge %d", i);
	for (i = 511; i < 871; i++) {
		int32_t base = 0;
		for (p = c.off[i]; p < c.off[i + 1]; p++)
			base += c.adj[p] < 511;
		cr_expect_eq(base, (i - 511) % 6 == 0, "cycle node %d", i);
		cr_expect_eq(g.label[i], 1);
	}
	graph_free(&c);
	motif_graph_free(&g);
}

/* ---- the draws, by their frequencies ---- */

/* |x - n p| within 5 sd of a binomial count. */
static void
near_binomial(const char *what, double x, double n, double p)
{
	double sd = sqrt(n * p * (1 - p));

	cr_expect(fabs(x - n * p) <= 5 * sd, "%s: %g, expected %g +- %g", what, x, n * p, 5 * sd);
}

/* One kind of motif on a base of B nodes (ba: m = 1), no noise. */
static void
tiny(struct motif_opts *o, int base, int32_t B, int kind, int32_t size, int64_t count, int attach)
{
	memset(o, 0, sizeof *o);
	o->base = base;
	o->base_nodes = B;
	o->ba_m = 1;
	o->branching = 2;
	o->nspec = 1;
	o->spec[0].kind = kind;
	o->spec[0].size = size;
	o->spec[0].count = count;
	o->attach = attach;
}

Test(motif_draws, ba_preferential)
{
	/* m = 1, B = 4: node 2 joins 0 or 1 (1/2 each); node 3 draws from the
	 * edge ends [0, 1, x, 2]: P(0) = P(1) = 3/8, P(2) = 1/4 */
	struct motif_opts o;
	motif_graph g;
	int64_t n3[3] = { 0 }, n2 = 0, t, T = 8000, e;

	tiny(&o, MOTIF_BASE_BA, 4, MOTIF_CYCLE, 3, 1, MOTIF_ATTACH_SPREAD);
	gen(&o, 5, 0, &g);
	for (t = 0; t < T; t++) {
		motif_generate(&o, 5, (uint64_t)t, &g);
		for (e = 0; e < g.m; e++) {
			if (g.v[e] == 2 && g.u[e] == 0)
				n2++;
			if (g.v[e] == 3)
				n3[g.u[e]]++;
		}
	}
	near_binomial("node 2 joins node 0", (double)n2, (double)T, 0.5);
	near_binomial("node 3 joins node 0", (double)n3[0], (double)T, 3.0 / 8);
	near_binomial("node 3 joins node 1", (double)n3[1], (double)T, 3.0 / 8);
	near_binomial("node 3 joins node 2", (double)n3[2], (double)T, 1.0 / 4);
	motif_graph_free(&g);
}

Test(motif_draws, uniform_attachment_and_added_pairs)
{
	/* a cycle of 10 with 3 stars of 2: 19 nodes, 10 + 3 x 3 = 19 clean
	 * edges.  Uniform attachment takes each base node with probability
	 * 3/10; 4 added edges fall on each of the 171 - 19 = 152 non-edges
	 * with probability 4/152 */
	struct motif_opts o;
	motif_graph g;
	int64_t taken[10] = { 0 }, *hit, t, T = 6000, e, k = 0;
	int32_t i, j, n = 19;

	tiny(&o, MOTIF_BASE_CYCLE, 10, MOTIF_STAR, 2, 3, MOTIF_ATTACH_UNIFORM);
	gen(&o, 9, 0, &g);
	for (t = 0; t < T; t++) {
		motif_generate(&o, 9, (uint64_t)t, &g);
		cr_assert_eq(g.m, 19);
		for (e = 0; e < g.m; e++)
			if (g.u[e] < 10 && g.v[e] >= 10)
				taken[g.u[e]]++;
	}
	for (i = 0; i < 10; i++)
		near_binomial("base node taken", (double)taken[i], (double)T, 0.3);
	hit = calloc((size_t)n * n, sizeof *hit);
	o.add_edges = 4.0 / 19;
	for (t = 0; t < T; t++) {
		motif_generate(&o, 9, (uint64_t)t, &g);
		cr_assert_eq(g.m, 23);
		for (e = 0; e < g.m; e++)
			hit[g.u[e] * n + g.v[e]]++;
	}
	/* the pairs that are a clean edge in no graph: not on the cycle, not
	 * in a star, not a base node with a star centre */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			int cyc = j < 10 && (j == i + 1 || (i == 0 && j == 9));
			int star = i >= 10 && (i - 10) % 3 == 0 && j <= i + 2;
			int plug = i < 10 && j >= 10 && (j - 10) % 3 == 0;
			if (cyc || star || plug)
				continue;
			near_binomial("added pair", (double)hit[i * n + j], (double)T, 4.0 / 152);
			k++;
		}
	cr_expect_eq(k, 171 - 10 - 6 - 30, "pairs checked");
	free(hit);
	motif_graph_free(&g);
}
