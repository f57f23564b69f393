/*
 * compose-gen - draw one case of the composition test
 * (tests/cli/compose.test.sh) from a seed.
 *
 *   compose-gen SEED DIR
 *
 * The case is an input for the graph filters (centrality, mask-edges,
 * nodefeat) and the pipeline to run on it.  The input is made of parts,
 * written to DIR/p1, DIR/p2, ...:
 *   el    a plain edge list, written here (the only part when there is one):
 *         reversed duplicates, exact repeats, self-loops (one on a node no
 *         edge names), gaps in the ids, comments, blank lines, CRLF, tabs,
 *         an integer label column, networkx's dict column, and now and then
 *         a line the documented format does not allow;
 *   txt   one or two segments of the text form, written here: several
 *         graphs, edge labels, isolated nodes, empty graphs, stale
 *         centrality/features tensors, foreign tensors, pairs and labels;
 *   imp   an edge list (DIR/pN.el) that the driver turns into a stream with
 *         graph-import -f edgelist;
 *   dcbm  a stream the driver makes with dcbm-gen.
 * Beside each part, DIR/pN.exp holds what the graphs of that part must be
 * after any pipeline: one line "id nodes edges" per graph, edges counted
 * once in the simple graph (for dcbm the driver writes it).  A part whose
 * graph cannot be known (node names that are not integers) has no .exp file.
 *
 * The recipe goes to stdout as shell assignments for the driver to eval:
 * parts, per-part options, the stages (program and options), how each stage
 * reads and writes, and a description of the input for failure lines.
 *
 * Every choice comes from one splitmix64 sequence seeded with SEED and only
 * integers are printed, so a seed names the same case on every machine (awk's
 * rand() differs between mawk and gawk).  C leaves the order in which a
 * call's arguments are evaluated open: no call here takes two draws.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 40			     /* node ids drawn per graph */
#define MAXE (MAXN * (MAXN - 1) / 2) /* edges of a simple graph on them */
#define MAXL (3 * MAXE + 16)	     /* edge-list lines: edges, copies, loops */

/* ---- the random sequence: splitmix64 (Steele, Lea, Flood 2014) ---- */

static uint64_t rng_state;

static uint64_t
next64(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), by Lemire's multiply-shift (no modulo bias worth
 * naming at these n). */
static int
rnd(int n)
{
	return (int)(((next64() >> 32) * (uint64_t)n) >> 32);
}

static int
pct(int p)
{
	return rnd(100) < p;
}

static const char *
pick(const char *const *v, int n)
{
	return v[rnd(n)];
}

/* ---- the description and the recipe ---- */

static char desc[512];

static void
tag(const char *t)
{
	size_t len = strlen(desc), n = strlen(t);
	const char *p;

	for (p = desc; (p = strstr(p, t)) != NULL; p += n)
		if ((p == desc || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return; /* the word is there already */
	snprintf(desc + len, sizeof desc - len, "%s%s", len ? " " : "", t);
}

static FILE *
xopen(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL) {
		perror(path);
		exit(1);
	}
	return f;
}

static void
xclose(FILE *f)
{
	if (ferror(f) || fclose(f) != 0) {
		perror("compose-gen: write");
		exit(1);
	}
}

/* ---- a simple graph over drawn ids ---- */

struct sgraph {
	int k;		      /* ids drawn */
	int64_t id[MAXN];     /* increasing; gaps are isolated nodes */
	int m;		      /* edges, each once */
	int u[MAXE], v[MAXE]; /* indices into id, u < v */
};

/* k nodes, most small, a quarter tiny (1 to 3: often no edge at all);
 * with gaps the ids skip values, which a reader makes isolated nodes. */
static void
draw_graph(struct sgraph *g, int gaps)
{
	static const int density[] = { 50, 150, 300, 600, 1000 }; /* per mille */
	int i, j, p;

	g->k = pct(25) ? 1 + rnd(3) : pct(85) ? 4 + rnd(21) : 25 + rnd(MAXN - 24);
	for (i = 0; i < g->k; i++) {
		if (!gaps)
			g->id[i] = i;
		else if (i == 0)
			g->id[i] = rnd(4);
		else
			g->id[i] = g->id[i - 1] + 1 + (pct(30) ? rnd(6) : 0);
	}
	p = density[rnd(5)];
	g->m = 0;
	for (i = 0; i < g->k; i++)
		for (j = i + 1; j < g->k; j++)
			if (rnd(1000) < p) {
				g->u[g->m] = i;
				g->v[g->m] = j;
				g->m++;
			}
}

/* ---- plain edge lists ---- */

struct line {
	int64_t a, b;
	int lab;
};

static const char *const nx_dicts[] = {
	"{}",
	"{'weight': 4}",
	"{'weight': 1.5}",
	"{'weight': 2, 'color': 'red'}",
	"{\"weight\": 3}",
};

static const char *const snap_head[] = {
	"# Undirected graph: made by compose-gen",
	"# Directed graph (each unordered pair of nodes is saved once)",
	"# Nodes: 12 Edges: 34",
	"# FromNodeId\tToNodeId",
	"#",
	"   # indented comment",
	"#u v",
};

/* What a line's fields are written as. */
struct style {
	int labels;	 /* 0 none, 1 integer, 2 nx dict, 3 nx {}, 4 float weight */
	int sep;	 /* 0 space, 1 tab, 2 mixed per line */
	int eol;	 /* 0 LF, 1 CRLF, 2 mixed */
	int lead, trail; /* leading / trailing blanks now and then */
	int names;	 /* node names "n<id>", not integers */
};

static const char *
eol_of(const struct style *s)
{
	if (s->eol == 2)
		return pct(50) ? "\r\n" : "\n";
	return s->eol ? "\r\n" : "\n";
}

static void
put_node(FILE *f, const struct style *s, int64_t x)
{
	fprintf(f, s->names ? "n%" PRId64 : "%" PRId64, x);
}

static void
put_edge_line(FILE *f, const struct style *s, const struct line *l)
{
	static const char *const seps[] = { " ", "\t", "  ", " \t" };
	const char *sep = s->sep == 2 ? pick(seps, 4) : s->sep ? "\t" : " ";

	if (s->lead && pct(30))
		fputs(pct(50) ? "  " : "\t", f);
	put_node(f, s, l->a);
	fputs(sep, f);
	put_node(f, s, l->b);
	switch (s->labels) {
	case 1:
		fprintf(f, "%s%d", sep, l->lab);
		break;
	case 2:
		fprintf(f, " %s", pick(nx_dicts, 5));
		break;
	case 3:
		fputs(" {}", f);
		break;
	case 4:
		fprintf(f, "%s%d.%d", sep, l->lab, rnd(10));
		break;
	}
	if (s->trail && pct(30))
		fputs(pct(50) ? " " : " \t", f);
}

/* The lines of an edge list of graph g, drawn afresh: each edge in either
 * orientation, reversed duplicates, exact repeats, self-loops (on a node no
 * edge names, too), shuffled or not.  Returns the number of lines. */
static int
draw_lines(struct sgraph *g, struct line *L)
{
	int nl = 0, i, revdup, repeat, loops;

	draw_graph(g, pct(50));
	if (g->k > 1 && g->id[g->k - 1] != g->k - 1)
		tag("gaps");
	revdup = pct(50);
	repeat = pct(30);
	loops = pct(35);
	for (i = 0; i < g->m; i++) {
		int64_t a = g->id[g->u[i]], b = g->id[g->v[i]], t;
		if (pct(50))
			t = a, a = b, b = t;
		L[nl++] = (struct line){ a, b, rnd(20) - 2 };
		if (revdup && pct(50)) {
			L[nl++] = (struct line){ b, a, rnd(20) };
			tag("revdup");
		}
		if (repeat && pct(25)) {
			L[nl++] = (struct line){ a, b, rnd(20) };
			tag("repeat");
		}
	}
	if (loops) {
		int n = 1 + rnd(3);
		for (i = 0; i < n; i++) {
			int64_t x = g->id[rnd(g->k)];
			L[nl++] = (struct line){ x, x, 1 };
		}
		tag("loops");
		if (pct(40)) { /* a node that only a self-loop names */
			int64_t x = g->id[g->k - 1] + 1 + rnd(3);
			L[nl++] = (struct line){ x, x, 1 };
			tag("looponly");
		}
	}
	if (nl == 0 && pct(70)) { /* a graph of isolated nodes: a loop names it */
		L[nl++] = (struct line){ g->id[g->k - 1], g->id[g->k - 1], 0 };
		tag("loops");
	}
	if (g->m == 0)
		tag("noedges");
	if (pct(70))
		for (i = nl - 1; i > 0; i--) { /* Fisher-Yates */
			int j = rnd(i + 1);
			struct line t = L[i];
			L[i] = L[j];
			L[j] = t;
		}
	return nl;
}

/* How the nl lines are written (s) and, with a chance of bad_pct, which
 * line the documented format refuses (the return value: -1 none, else the
 * kind: 0 names, 1 negative, 2 mixedcols, 3 trailingcomment, 4 hugeid). */
static int
draw_style(struct style *s, int nl, int bad_pct)
{
	int i, bad = -1;

	memset(s, 0, sizeof *s);
	i = rnd(100);
	s->labels = i < 55 ? 0 : i < 70 ? 1 : i < 85 ? 2 : i < 95 ? 3 : 4;
	if (s->labels == 1)
		tag("labels");
	if (s->labels == 2 || s->labels == 3)
		tag("nxdict");
	if (s->labels == 4)
		tag("floatlabel");
	s->sep = rnd(10) < 5 ? 0 : rnd(10) < 6 ? 1 : 2;
	if (s->sep)
		tag("tabs");
	s->eol = pct(70) ? 0 : pct(65) ? 1 : 2;
	if (s->eol)
		tag("crlf");
	s->lead = pct(10);
	s->trail = pct(10);
	if (s->lead || s->trail)
		tag("blanks");
	if (pct(bad_pct)) {
		static const char *const kinds[] = { "names", "negative", "mixedcols",
						     "trailingcomment", "hugeid" };
		bad = rnd(5);
		if (bad == 2 && s->labels != 0)
			bad = 3; /* mixed columns need a list without labels */
		if (nl == 0)
			bad = -1; /* no line to spoil */
		else
			tag(kinds[bad]);
		s->names = bad == 0;
	}
	return bad;
}

/* Line i, the bad one of kind bad (draw_style).  Returns 1 when the line
 * is written, 0 when the edge itself follows (names: the names are the
 * fault). */
static int
put_bad_line(FILE *f, const struct style *s, const struct line *l, int bad)
{
	switch (bad) {
	case 1:
		fprintf(f, "-1 %" PRId64 "%s", l->b, eol_of(s));
		break;
	case 2:
		put_edge_line(f, s, l);
		fprintf(f, " 7%s", eol_of(s));
		break;
	case 3:
		put_edge_line(f, s, l);
		fprintf(f, " # trailing note%s", eol_of(s));
		break;
	case 4:
		fprintf(f, "70000000 %" PRId64 "%s", l->b, eol_of(s));
		break;
	}
	return bad != 0;
}

/* The header, then the lines with comments and blank lines between; the
 * bad line (bad >= 0) in the middle. */
static void
put_lines(FILE *f, const struct style *s, const struct line *L, int nl, int bad)
{
	int i;

	if (pct(35)) {
		int n = 1 + rnd(3);
		for (i = 0; i < n; i++) {
			fputs(pick(snap_head, 7), f);
			fputs(eol_of(s), f);
		}
		tag("comments");
	}
	if (pct(5)) {
		fprintf(f,
			"# Gr\xc3\xb6\xc3\x9f"
			"e und Kanten%s",
			eol_of(s));
		tag("utf8comment");
	}
	for (i = 0; i < nl; i++) {
		if (pct(4)) {
			fprintf(f, "# between %d%s", i, eol_of(s));
			tag("comments");
		}
		if (pct(3)) {
			fputs(pick((const char *const[]){ "", " ", "\t", "  \t" }, 4), f);
			fputs(eol_of(s), f);
			tag("blanklines");
		}
		if (bad >= 0 && i == nl / 2 && put_bad_line(f, s, &L[i], bad))
			continue;
		put_edge_line(f, s, &L[i]);
		if (i < nl - 1 || !pct(15))
			fputs(eol_of(s), f);
		else
			tag("nofinalnewline");
	}
	if (pct(5)) {
		fprintf(f, "# the end%s", eol_of(s));
		tag("comments");
	}
}

/*
 * Write an edge list of a fresh graph to f.  *nodes and *edges get what the
 * reader must make of it (largest id + 1, the simple edges); returns 0 when
 * they are unknown (node names) or the list is empty.  bad_pct: the chance
 * of a line the documented format refuses.
 */
static int
gen_edgelist(FILE *f, int64_t *nodes, int64_t *edges, int bad_pct)
{
	static struct sgraph g;
	static struct line L[MAXL];
	struct style s;
	int nl, i, bad;
	int64_t maxid = -1;

	nl = draw_lines(&g, L);
	for (i = 0; i < nl; i++) {
		if (L[i].a > maxid)
			maxid = L[i].a;
		if (L[i].b > maxid)
			maxid = L[i].b;
	}
	bad = draw_style(&s, nl, bad_pct);
	put_lines(f, &s, L, nl, bad);
	*nodes = maxid + 1;
	*edges = g.m;
	return !(nl == 0 || s.names || bad == 1 || bad == 2 || bad == 4);
}

/* ---- the text form ---- */

/* One graph record of a fresh graph with id, and its edges; its
 * expectation to exp.  pg: the segment has a pg record; *masked is set when
 * the graph says it is masked.  Returns its node count. */
static int64_t
put_graph(FILE *f, FILE *exp, int64_t id, int pg, const char *eol, int *masked)
{
	static struct sgraph g;
	const char *sep;
	int64_t n;
	int i, lab;

	draw_graph(&g, pct(50));
	n = g.id[g.k - 1] + 1 + (pct(20) ? rnd(4) : 0);
	if (pct(3)) {
		n = 0;
		g.m = 0;
		tag("emptygraph");
	}
	lab = pct(70) ? 0 : pct(65) ? 1 : 2;
	fprintf(f, "@graph id=%" PRId64 " nodes=%" PRId64 " edges=%d", id, n, g.m);
	if (lab)
		fprintf(f, " labels=%s", lab == 1 ? "i32" : "f64");
	if (pg)
		fputs(" pg=0badc0de", f);
	if (pct(30))
		fprintf(f, " name=g%" PRId64, id);
	if (pct(20))
		fputs(" note=\"two words\"", f);
	if (pct(4)) {
		fputs(" mask_fraction=0.2 masked_edges=0", f);
		*masked = 1;
		tag("maskedinput");
	}
	fputs(eol, f);
	sep = pct(50) ? "\t" : " ";
	for (i = 0; i < g.m; i++) {
		int64_t a = g.id[g.u[i]], b = g.id[g.v[i]];
		if (pct(30))
			fprintf(f, "%" PRId64 "%s%" PRId64, b, sep, a);
		else
			fprintf(f, "%" PRId64 "%s%" PRId64, a, sep, b);
		if (lab == 1)
			fprintf(f, "%s%d", sep, rnd(5));
		if (lab == 2) {
			int whole = rnd(5);
			fprintf(f, "%s%d.%d", sep, whole, rnd(10));
		}
		fputs(eol, f);
	}
	fprintf(exp, "%" PRId64 " %" PRId64 " %d\n", id, n, g.m);
	return n;
}

/* What follows graph id of n nodes, each now and then and in a drawn
 * order: label, cluster, stale features and centrality, a foreign f32
 * tensor, a foreign pair set.  Returns the number of records written. */
static int
put_followers(FILE *f, int64_t id, int64_t n, const char *eol)
{
	int order[6], no = 0, i, j, nrec = 0;
	int64_t v;

	for (i = 0; i < 6; i++)
		if (pct(i >= 2 && i <= 4 ? 25 : 30))
			order[no++] = i;
	for (i = no - 1; i > 0; i--) {
		int t = order[i], r = rnd(i + 1);
		order[i] = order[r];
		order[r] = t;
	}
	for (i = 0; i < no; i++) {
		nrec++;
		switch (order[i]) {
		case 0:
			fprintf(f, "@label id=%" PRId64 " name=class value=%d%s", id, rnd(3), eol);
			break;
		case 1:
			fprintf(f,
				"@tensor id=%" PRId64 " name=cluster rows=%" PRId64
				" cols=1 type=i32 columns=cluster%s",
				id, n, eol);
			for (v = 0; v < n; v++)
				fprintf(f, "%d%s", rnd(3), eol);
			break;
		case 2:
		case 3:
			fprintf(f,
				"@tensor id=%" PRId64 " name=%s rows=%" PRId64 " cols=4 "
				"type=f64 columns=degree,core,ci1,clustering%s",
				id, order[i] == 2 ? "features" : "features_raw", n, eol);
			for (v = 0; v < n; v++)
				fprintf(f, "0.5\t1\t0\t0.25%s", eol);
			tag("stale");
			break;
		case 4:
			fprintf(f,
				"@tensor id=%" PRId64 " name=centrality rows=%" PRId64
				" cols=5 type=f64 columns=eigenvector,betweenness,closeness,"
				"subgraph,subgraph_log%s",
				id, n, eol);
			for (v = 0; v < n; v++)
				fprintf(f, "0.1 0 1 1 0%s", eol);
			tag("stale");
			break;
		case 5:
			if (n < 3) { /* no room for two distinct pairs */
				nrec--;
				break;
			}
			j = 1 + rnd(2);
			fprintf(f, "@pairs id=%" PRId64 " name=test count=%d labels=i32%s", id, j,
				eol);
			fprintf(f, "0 %" PRId64 " 1%s", n - 1, eol);
			if (j == 2)
				fprintf(f, "1 %" PRId64 " 0%s", n - 1, eol);
			break;
		}
	}
	return nrec;
}

/* One segment of the text form with 1 to 3 graphs and the records that
 * follow them; writes the expectations of its graphs to exp.  *next_id is
 * the next free graph id; *masked is set when a graph says it is masked. */
static void
gen_segment(FILE *f, FILE *exp, int64_t *next_id, int *masked)
{
	const char *eol = pct(15) ? "\r\n" : "\n";
	int ng = 1 + rnd(3), gi, nrec = 0, pg = pct(30);

	if (eol[0] == '\r')
		tag("crlf");
	fprintf(f, "##gnnstream 1%s", eol);
	if (pg) {
		fprintf(f,
			"@pg id=0badc0de prog=handmade version=1 seed=- "
			"cmd=\"awk -f make.awk\"%s",
			eol);
		nrec++;
	}
	for (gi = 0; gi < ng; gi++) {
		int64_t id = *next_id, n;
		*next_id += 1 + (pct(30) ? rnd(5) : 0);
		n = put_graph(f, exp, id, pg, eol, masked);
		nrec++;
		nrec += put_followers(f, id, n, eol);
	}
	if (pct(50))
		fprintf(f, "@end%s", eol);
	else
		fprintf(f, "@end records=%d%s", nrec, eol);
}

/* ---- the pipeline ---- */

static const char *const progs[] = { "centrality", "mask-edges", "nodefeat" };

/* Options of one stage: a little of what matters (output form, mask sizes
 * small enough for tiny graphs, estimates on small graphs). */
static void
stage_opts(char *buf, size_t len, int prog)
{
	static const char *const forms[] = { "", "", "-l 0", "-t", "-t -l 1", "-l 9" };
	static const char *const fracs[] = { "0", "0.1", "0.2", "0.5", "0.9", "0.99" };
	static const char *const npos[] = { "0", "1", "2", "5", "all" };
	static const char *const nneg[] = { "0", "1", "3", "8" };
	size_t o = 0;

#define ADD(...) (o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__))
	buf[0] = '\0';
	ADD("%s", pick(forms, 6));
	if (pct(30))
		ADD(" -q");
	if (pct(25))
		ADD(" -j %d", 1 + rnd(2));
	switch (prog) {
	case 0:
		if (pct(25))
			ADD(" --exact-max %d", rnd(10));
		if (pct(20))
			ADD(" --samples %d", 2 + rnd(6));
		if (pct(30))
			ADD(" -s %d", rnd(1000));
		break;
	case 1:
		if (pct(60))
			ADD(" -f %s", pick(fracs, 6));
		if (pct(60))
			ADD(" -p %s", pick(npos, 5));
		if (pct(60))
			ADD(" -n %s", pick(nneg, 4));
		if (pct(50))
			ADD(" -s %d", rnd(1000));
		break;
	case 2:
		if (pct(25))
			ADD(" --scale log");
		break;
	}
#undef ADD
}

/* Part p, an edge list (k 0) or one to import (k 3), into DIR/pN or
 * DIR/pN.el, its expectation into DIR/pN.exp when it can be known; an
 * import's options to stdout. */
static void
gen_el_part(const char *dir, int p, int k)
{
	char name[32], opts[256];
	int64_t nodes, edges;
	FILE *f, *exp;
	int r;

	snprintf(name, sizeof name, k == 3 ? "p%d.el" : "p%d", p);
	f = xopen(dir, name);
	r = gen_edgelist(f, &nodes, &edges, k == 0 ? 12 : 4);
	xclose(f);
	if (k == 3) {
		static const char *const forms[] = { "", "-l 0", "-t" };
		snprintf(opts, sizeof opts, "%s", pick(forms, 3));
		if (r && pct(30)) {
			int64_t want = nodes + rnd(3);
			if (pct(10) && nodes > 1) {
				want = nodes - 1; /* too few: refused */
				r = 0;
				tag("importnodes");
			}
			nodes = want;
			snprintf(opts + strlen(opts), sizeof opts - strlen(opts),
				 " --nodes %" PRId64, want);
		}
		printf("imp%d='%s'\n", p, opts);
		tag("import");
	} else {
		tag("edgelist");
	}
	if (r) {
		snprintf(name, sizeof name, "p%d.exp", p);
		exp = xopen(dir, name);
		fprintf(exp, "0 %" PRId64 " %" PRId64 "\n", nodes, edges);
		xclose(exp);
	}
}

/* The input: one edge list, or one to three stream parts (text segments
 * written here, dcbm-gen's recipe printed); *masked is set when a text
 * graph says it is masked. */
static void
gen_input(const char *dir, int *masked)
{
	static const char *const kn[] = { "el", "txt", "dcbm", "imp" };
	int64_t next_id = 0;
	int kind, nparts, p, r, part[3];
	char name[32];
	FILE *f, *exp;

	r = rnd(100);
	kind = r < 45 ? 0 : r < 65 ? 1 : r < 77 ? 2 : r < 85 ? 3 : 4;
	nparts = kind == 4 ? 2 + rnd(2) : 1;
	printf("parts='");
	for (p = 1; p <= nparts; p++) {
		int k = kind == 4 ? 1 + rnd(3) : kind;
		printf("%s%s", p > 1 ? " " : "", kn[k]);
		part[p - 1] = k;
	}
	printf("'\n");
	for (p = 1; p <= nparts; p++) {
		int k = part[p - 1];
		if (k == 0 || k == 3) {
			gen_el_part(dir, p, k);
		} else if (k == 1) {
			snprintf(name, sizeof name, "p%d", p);
			f = xopen(dir, name);
			snprintf(name, sizeof name, "p%d.exp", p);
			exp = xopen(dir, name);
			gen_segment(f, exp, &next_id, masked);
			if (pct(25)) {
				gen_segment(f, exp, &next_id, masked);
				tag("segments");
			}
			xclose(f);
			xclose(exp);
			tag("text");
		} else {
			static const char *const forms[] = { "", "-l 0", "-t", "-t -l 1" };
			int count = 1 + rnd(3), tiny = pct(25), kmax = 1 + rnd(2);
			printf("dcbm%d='--count %d --nodes %s -k 0.1..%d -s %d --first-id %" PRId64
			       " -q'\n",
			       p, count, tiny ? "1..3" : "4..40", kmax, rnd(1000), next_id);
			printf("form%d='%s'\n", p, pick(forms, 4));
			next_id += count + rnd(3);
			tag("dcbm");
		}
	}
	if (nparts > 1)
		tag("multipart");
}

/* The pipeline: now and then a stage before the combination, so the
 * combination reads a stream that already holds its records; each stage's
 * program, options, input and output. */
static void
gen_pipeline(void)
{
	static const int combos[][3] = {
		/* program indices, -1 ends */
		{ 0, 1, -1 }, { 0, 2, -1 }, { 1, 0, -1 }, { 1, 2, -1 }, { 2, 0, -1 },
		{ 2, 1, -1 }, { 0, 1, 2 },  { 0, 0, -1 }, { 2, 2, -1 }, { 1, 1, -1 },
	};
	/* weights: the six pairs of distinct programs 2 each, the paper's
	 * triple 3, the self-pairs 2, 2 and 1 (mask twice is refused by design) */
	static const int weight[] = { 2, 2, 2, 2, 2, 2, 3, 2, 2, 1 };
	char opts[256], combo[80] = "";
	int c, r, i, nst = 0, stage[4];

	for (r = rnd(20), c = 0; r >= weight[c]; c++)
		r -= weight[c];
	if (pct(20)) {
		stage[nst++] = pct(80) ? rnd(2) * 2 : 1;
		printf("pre='%s'\n", progs[stage[0]]);
	} else {
		printf("pre=''\n");
	}
	for (i = 0; i < 3 && combos[c][i] >= 0; i++) {
		stage[nst++] = combos[c][i];
		snprintf(combo + strlen(combo), sizeof combo - strlen(combo), "%s%s",
			 i ? " | " : "", progs[combos[c][i]]);
	}
	printf("combo='%s'\nnst=%d\n", combo, nst);
	for (i = 0; i < nst; i++) {
		stage_opts(opts, sizeof opts, stage[i]);
		printf("prog%d='%s'\nopt%d='%s'\n", i + 1, progs[stage[i]], i + 1, opts);
		/* input: stage 1 reads the parts as file arguments, '-', stdin
		 * or a pipe; later stages the previous output the same ways */
		r = rnd(4);
		printf("in%d='%s'\n", i + 1,
		       (const char *const[]){ "file", "dash", "stdin", "pipe" }[r]);
		printf("out%d='%s'\n", i + 1, pct(20) ? "o" : "stdout");
	}
}

int
main(int argc, char **argv)
{
	char *end;
	uint64_t seed;
	int masked = 0;

	if (argc != 3) {
		fputs("usage: compose-gen seed dir\n", stderr);
		return 2;
	}
	seed = strtoull(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0') {
		fprintf(stderr, "compose-gen: seed: '%s' is not a number\n", argv[1]);
		return 2;
	}
	rng_state = seed;
	gen_input(argv[2], &masked);
	printf("masked=%d\n", masked);
	gen_pipeline();
	printf("desc='%s'\n", desc);
	if (ferror(stdout) || fflush(stdout) != 0) {
		perror("compose-gen: stdout");
		return 1;
	}
	return 0;
}
