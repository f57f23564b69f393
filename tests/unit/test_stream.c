/*
 * test_stream.c - the gnnstream reader and writer: round trips in every form,
 * concatenation, truncation at every byte, corruption, limits, edge lists.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "config.h"
#include "err.h"
#include "stream.h"

/* A 5000-byte attribute value that needs quoting and escapes: values are
 * never cut (a long feature command, a long command line). */
static const char *
long_value(void)
{
	static char v[5001];
	for (int i = 0; i < 5000; i++)
		v[i] = "ab \"\\=x"[i % 7];
	v[5000] = '\0';
	return v;
}

static char tmpdir[] = "/tmp/gs_testXXXXXX";

static void
setup(void)
{
	cr_assert(mkdtemp(tmpdir) != NULL);
	err_setprog("test_stream");
}

static void
teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

TestSuite(stream, .init = setup, .fini = teardown);

static char *
path_of(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
	return buf[k];
}

/* Write a stream with one record of every kind. */
static void
write_sample(const char *path, int text, int level, int64_t base_id)
{
	struct copt c;
	gs_file *out;
	gs_rec r;
	char *argv[] = { "test", "--x", "a b" };
	int64_t i;

	copt_init(&c);
	c.output = path;
	c.text = text;
	c.level = level;
	c.level_set = 1;
	c.seed = 42;
	c.seed_set = 1;
	out = gs_open_out(&c, 3, argv);
	gs_rec_init(&r);

	gs_rec_graph(&r, base_id, 5, 4, GS_I32);
	for (i = 0; i < 4; i++) {
		r.u[i] = (int32_t)i;
		r.v[i] = (int32_t)i + 1;
		((int32_t *)r.lab)[i] = (int32_t)(i + 1);
	}
	gs_attr_set(&r, "K", "3");
	gs_attr_set(&r, "note", "has spaces \"and\" quotes");
	gs_attr_set(&r, "long", long_value());
	gs_write1(out, &r);

	gs_rec_tensor(&r, base_id, "feat", 5, 2, GS_F64, "a,b");
	for (i = 0; i < 10; i++)
		((double *)r.data)[i] = (double)i / 3.0 + 1e-300 * (double)i;
	gs_write1(out, &r);

	gs_rec_tensor(&r, base_id, "cluster", 5, 1, GS_I32, "cluster");
	for (i = 0; i < 5; i++)
		((int32_t *)r.data)[i] = (int32_t)(i % 2);
	gs_write1(out, &r);

	gs_rec_pairs(&r, base_id, "mask", 3, GS_I32);
	for (i = 0; i < 3; i++) {
		r.u[i] = 0;
		r.v[i] = (int32_t)i + 2;
		((int32_t *)r.lab)[i] = i == 0;
	}
	gs_write1(out, &r);

	gs_rec_label(&r, base_id, "class", -7);
	gs_write1(out, &r);

	gs_rec_model(&r, "gcn", "d: 4\nlayers: 2\n", 2);
	{
		gs_param *p = gs_rec_param(&r, 0, "W1", 2, 3, GS_F32);
		for (i = 0; i < 6; i++)
			((float *)p->data)[i] = (float)i * 0.1f;
		p = gs_rec_param(&r, 1, "b", 1, 3, GS_F32);
		for (i = 0; i < 3; i++)
			((float *)p->data)[i] = -(float)i;
	}
	gs_write1(out, &r);
	gs_rec_free(&r);
	gs_close(out);
}

/* Read the sample back and check every field; returns records read. */
static int
check_sample(gs_file *in, gs_rec *r, int64_t base_id)
{
	int k, n = 0;
	int64_t i;

	while ((k = gs_read1(in, r)) >= 0) {
		n++;
		switch (k) {
		case GS_PG:
			cr_expect_str_eq(gs_attr_get(r, "prog"), "test_stream");
			cr_expect_str_eq(gs_attr_get(r, "cmd"), "test --x 'a b'");
			cr_expect_str_eq(gs_attr_get(r, "seed"), "42");
			cr_expect_eq(strlen(r->pg), 8);
			break;
		case GS_GRAPH:
			cr_expect_eq(r->id, base_id);
			cr_expect_eq(r->n, 5);
			cr_expect_eq(r->m, 4);
			cr_expect_eq(r->ltype, GS_I32);
			for (i = 0; i < 4; i++) {
				cr_expect_eq(r->u[i], i);
				cr_expect_eq(r->v[i], i + 1);
				cr_expect_eq(((int32_t *)r->lab)[i], i + 1);
			}
			cr_expect_str_eq(gs_attr_get(r, "K"), "3");
			cr_expect_str_eq(gs_attr_get(r, "note"), "has spaces \"and\" quotes");
			cr_expect(gs_attr_get(r, "long") &&
				      strcmp(gs_attr_get(r, "long"), long_value()) == 0,
				  "a 5000-byte value, quotes and all, read back whole");
			break;
		case GS_TENSOR:
			if (strcmp(r->name, "feat") == 0) {
				cr_expect_eq(r->rows, 5);
				cr_expect_eq(r->cols, 2);
				cr_expect_eq(gs_tensor_col(r, "b"), 1);
				cr_expect_eq(gs_tensor_col(r, "c"), -1);
				for (i = 0; i < 10; i++)
					cr_expect_eq(((double *)r->data)[i],
						     (double)i / 3.0 + 1e-300 * (double)i,
						     "value %ld", (long)i);
			} else {
				cr_expect_str_eq(r->name, "cluster");
				for (i = 0; i < 5; i++)
					cr_expect_eq(((int32_t *)r->data)[i], i % 2);
			}
			break;
		case GS_PAIRS:
			cr_expect_str_eq(r->name, "mask");
			cr_expect_eq(r->m, 3);
			cr_expect_eq(r->v[2], 4);
			cr_expect_eq(((int32_t *)r->lab)[0], 1);
			cr_expect_eq(((int32_t *)r->lab)[1], 0);
			break;
		case GS_LABEL:
			cr_expect_eq(r->value, -7);
			cr_expect_str_eq(r->name, "class");
			break;
		case GS_MODEL:
			cr_expect_str_eq(r->config, "d: 4\nlayers: 2\n");
			cr_expect_eq(r->nparams, 2);
			cr_expect_str_eq(r->params[0].name, "W1");
			cr_expect_eq(r->params[0].rows, 2);
			cr_expect_eq(((float *)r->params[0].data)[5], 0.5f);
			cr_expect_eq(((float *)r->params[1].data)[2], -2.0f);
			break;
		}
	}
	cr_expect_eq(k, -1, "read ended with %d: %s", k, gs_strerror(in));
	return n;
}

static void
roundtrip(int text, int level)
{
	char msg[256];
	gs_file *in;
	gs_rec r;
	char *p = path_of("rt.gs");

	write_sample(p, text, level, 3);
	in = gs_open_in(p, msg, sizeof msg);
	cr_assert(in, "%s", msg);
	gs_rec_init(&r);
	cr_expect_eq(check_sample(in, &r, 3), 7);
	gs_rec_free(&r);
	gs_close(in);
}

Test(stream, roundtrip_binary_plain)
{
	roundtrip(0, 0);
}
Test(stream, roundtrip_binary_gzip)
{
	roundtrip(0, 6);
}
Test(stream, roundtrip_text_plain)
{
	roundtrip(1, 0);
}
Test(stream, roundtrip_text_gzip)
{
	roundtrip(1, 1);
}

static size_t
slurp(const char *path, unsigned char **buf)
{
	FILE *f = fopen(path, "rb");
	long n;

	cr_assert(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*buf = malloc((size_t)n + 1);
	cr_assert(fread(*buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	return (size_t)n;
}

static void
spit(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	cr_assert(f);
	cr_assert(fwrite(buf, 1, n, f) == n);
	fclose(f);
}

/* Read a whole file; returns the final code (-1 clean, < -1 error). */
static int
read_all(const char *path, int *nrec, char *msg, size_t msglen)
{
	gs_file *in = gs_open_in(path, msg, msglen);
	gs_rec r;
	int k;

	cr_assert(in, "%s", msg);
	gs_rec_init(&r);
	*nrec = 0;
	while ((k = gs_read1(in, &r)) >= 0)
		(*nrec)++;
	snprintf(msg, msglen, "%s", gs_strerror(in));
	gs_rec_free(&r);
	gs_close(in);
	return k;
}

Test(stream, concatenation_of_forms)
{
	unsigned char *a, *b, *cbuf;
	size_t na, nb;
	char msg[256];
	int n;

	write_sample(path_of("a.gs"), 0, 1, 1);
	write_sample(path_of("b.gs"), 1, 0, 2);
	na = slurp(path_of("a.gs"), &a);
	nb = slurp(path_of("b.gs"), &b);
	cbuf = malloc(na + nb);
	memcpy(cbuf, a, na);
	memcpy(cbuf + na, b, nb);
	spit(path_of("ab.gs"), cbuf, na + nb);
	cr_expect_eq(read_all(path_of("ab.gs"), &n, msg, sizeof msg), -1, "%s", msg);
	cr_expect_eq(n, 14);
	free(a);
	free(b);
	free(cbuf);
}

/* Every proper prefix of a stream must be reported as an error, never as
 * a clean end: the trailer is what proves completeness. */
static void
truncate_everywhere(int text, int level)
{
	unsigned char *buf;
	size_t n, cut;
	char msg[256];
	int nrec, k;

	write_sample(path_of("full.gs"), text, level, 0);
	n = slurp(path_of("full.gs"), &buf);
	for (cut = 0; cut < n; cut++) {
		spit(path_of("cut.gs"), buf, cut);
		k = read_all(path_of("cut.gs"), &nrec, msg, sizeof msg);
		cr_assert_lt(k, -1, "prefix of %zu/%zu bytes read as complete (%d records)", cut, n,
			     nrec);
		cr_assert(strstr(msg, "cut.gs") != NULL, "message lacks the file: %s", msg);
	}
	free(buf);
}

Test(stream, truncation_binary_plain)
{
	truncate_everywhere(0, 0);
}
Test(stream, truncation_text_plain)
{
	truncate_everywhere(1, 0);
}
Test(stream, truncation_binary_gzip)
{
	truncate_everywhere(0, 6);
}

Test(stream, corrupt_byte_detected)
{
	unsigned char *buf;
	size_t n, i;
	char msg[256];
	int nrec, k, caught = 0, total = 0;

	write_sample(path_of("full.gs"), 0, 0, 0);
	n = slurp(path_of("full.gs"), &buf);
	/* flip one bit in each byte of the record area (after the 12-byte
	 * segment header); the reader must notice every single one */
	for (i = 12; i < n; i++) {
		buf[i] ^= 0x10;
		spit(path_of("bad.gs"), buf, n);
		k = read_all(path_of("bad.gs"), &nrec, msg, sizeof msg);
		total++;
		caught += k < -1;
		buf[i] ^= 0x10;
	}
	cr_expect_eq(caught, total, "%d of %d single-bit corruptions went unnoticed",
		     total - caught, total);
	free(buf);
}

static int
read_text(const char *text, size_t len, char *msg, size_t msglen)
{
	int n;

	spit(path_of("t.gs"), text, len ? len : strlen(text));
	return read_all(path_of("t.gs"), &n, msg, msglen);
}

Test(stream, bad_inputs_named)
{
	static const struct {
		const char *in, *want;
		size_t len; /* 0 = strlen */
	} cases[] = {
		{ "", "empty input", 0 },
		{ "\x89GNT\x01\0\0\0\0\0\0\0", "bad magic", 12 },
		{ "\x89GNS\x02\0\0\0\0\0\0\0", "newer than this program", 12 },
		{ "\x89GNS\x01\0\0\0\0\0\0\0", "no end record", 12 },
		{ "##gnnstream 9\n@end records=0\n", "newer than this program", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=1000000000000 edges=1\n0 1\n@end\n",
		  "exceeds the limit", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=10 edges=1000000000000\n0 1\n@end\n",
		  "exceeds the limit", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=-5 edges=1\n0 1\n@end\n", "bad nodes", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=3 edges=1\n0 3\n@end\n", "out of range", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=3 edges=1\n1 1\n@end\n", "self-loop", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=3 edges=2\n0 1\n@end\n", "record ends early",
		  0 },
		{ "##gnnstream 1\n@tensor id=0 name=x rows=1 cols=2 type=f64\n1 nan\n@end\n",
		  "not finite", 0 },
		{ "##gnnstream 1\n@tensor id=0 name=x rows=1 cols=2 type=f64\n1 inf\n@end\n",
		  "not finite", 0 },
		{ "##gnnstream 1\n@tensor id=0 name=x rows=1 cols=2 type=f64\n1\n@end\n",
		  "missing value", 0 },
		{ "##gnnstream 1\n@label id=0 name=c value=1\n@end records=2\n", "records lost",
		  0 },
		{ "##gnnstream 1\n@label id=0 name=c value=1\n@end crc32=0\n", "checksum", 0 },
		{ "##gnnstream 1\n@blob id=0\n@end\n", "unknown record kind", 0 },
		{ "##gnnstream 1\n@label id=0 name=c value=1\n", "no end record", 0 },
		{ "##gnnstream 1\n@end\ngarbage\n", "garbage after", 0 },
		{ "hello big wide world\n", "not an edge list", 0 },
		{ "hello world\nthis is not a graph\n", "line 2: 5 fields, want 'u v [label]'", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=2 edges=0\n@names id=0 count=2\na\na\n@end\n",
		  "name 1 ('a') is also node 0's", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=2 edges=0\n@names id=0 count=2\na\n@end\n",
		  "no end record", 0 },
		/* a names record before any graph, after another, of another count */
		{ "##gnnstream 1\n@names id=0 count=1\na\n@end\n",
		  "record 1 (line 3): names record for graph 0 before any graph", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=1 edges=0\n@names id=1 count=1\na\n@end\n",
		  "names record for graph 1 does not follow its graph (it follows graph 0)", 0 },
		{ "##gnnstream 1\n@graph id=0 nodes=2 edges=0\n@names id=0 count=1\na\n@end\n",
		  "names record: count=1, but graph 0 has 2 nodes", 0 },
		{ "##gnnstream 1\n@names id=0 count=2\na\n", "1 names where count=2", 0 },
		{ "##gnnstream 1\n@names id=0 count=1 bytes=9\na\n@end\n", "bytes=9 but", 0 },
		{ "##gnnstream 1\n@names id=0 count=1\n\n@end\n", "name 0 is empty", 0 },
		{ "##gnnstream 1\n@names id=0 count=1\na\tb\n@end\n", "control character", 0 },
		{ "0 1\n1 x y z\n", "line 2: 4 fields", 0 },
		{ "0 1\n1 2 3\n", "fields", 0 },
		{ "0 -1\n", "out of range", 0 },
		{ "# only a comment\n", "no edges", 0 },
		{ "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "truncated gzip", 10 },
	};
	size_t i;
	char msg[256];

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int k = read_text(cases[i].in, cases[i].len, msg, sizeof msg);
		cr_expect_lt(k, -1, "case %zu read cleanly", i);
		cr_expect(strstr(msg, cases[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, msg,
			  cases[i].want);
	}
}

Test(stream, edge_list_input)
{
	const char *text = "# a comment\n0 1\n1\t2\n\n2 0\n2 0\n3 3\n";
	char msg[256];
	gs_file *in;
	gs_rec r;
	graph g;

	spit(path_of("e.txt"), text, strlen(text));
	in = gs_open_in(path_of("e.txt"), msg, sizeof msg);
	cr_assert(in);
	gs_rec_init(&r);
	graph_init(&g);
	cr_assert_eq(gs_read1(in, &r), GS_GRAPH, "%s", gs_strerror(in));
	cr_expect_eq(r.n, 4);
	cr_expect_eq(r.m, 5);
	cr_expect(r.from_edgelist);
	cr_assert_eq(gs_graph_build(in, &r, &g, 1), 0, "%s", gs_strerror(in));
	cr_expect_eq(g.m, 3, "duplicates merged and the self-loop dropped");
	cr_expect_eq(graph_degree(&g, 3), 0);
	/* the record itself is now the simple graph, first lines first */
	cr_expect_eq(r.m, 3, "the record holds the simple graph");
	cr_expect(r.u[0] == 0 && r.v[0] == 1 && r.u[1] == 1 && r.v[1] == 2 && r.u[2] == 2 &&
		      r.v[2] == 0,
		  "kept at their first line and orientation");
	cr_expect_str_eq(gs_attr_get(&r, "self_loops"), "1");
	cr_expect_str_eq(gs_attr_get(&r, "duplicates"), "1");
	cr_expect_eq(gs_read1(in, &r), -1);
	graph_free(&g);
	gs_rec_free(&r);
	gs_close(in);
}

/* One edge list, built: returns gs_graph_build's result and the record. */
static int
build_text(const char *text, gs_rec *r, graph *g, char *msg, size_t len)
{
	gs_file *in;
	int rc;

	spit(path_of("el.txt"), text, strlen(text));
	in = gs_open_in(path_of("el.txt"), msg, len);
	cr_assert(in);
	rc = gs_read1(in, r);
	if (rc == GS_GRAPH)
		rc = gs_graph_build(in, r, g, 1);
	snprintf(msg, len, "%s", gs_strerror(in));
	gs_close(in);
	return rc;
}

Test(stream, edge_list_both_directions_labels_and_networkx)
{
	char msg[256];
	gs_rec r;
	graph g;

	gs_rec_init(&r);
	graph_init(&g);
	/* SNAP style: both directions, CRLF, a trailing comment */
	cr_assert_eq(build_text("0 1\r\n1 0\r\n1 2 # x\r\n2 1\r\n", &r, &g, msg, sizeof msg), 0,
		     "%s", msg);
	cr_expect(r.m == 2 && g.m == 2, "both directions: %lld edges", (long long)r.m);
	/* networkx's write_edgelist: the attribute dict is ignored */
	cr_assert_eq(build_text("0 1 {'weight': 4}\n1 2 {}\n", &r, &g, msg, sizeof msg), 0, "%s",
		     msg);
	cr_expect(r.m == 2 && r.ltype == GS_NONE, "networkx dicts");
	/* labels follow their edges; the same label twice merges */
	cr_assert_eq(build_text("0 1 5\n1 0 5\n1 2 7\n", &r, &g, msg, sizeof msg), 0, "%s", msg);
	cr_expect(r.m == 2 && ((int32_t *)r.lab)[0] == 5 && ((int32_t *)r.lab)[1] == 7,
		  "labels kept with their edges");
	/* two labels for one pair, named nodes, weights: one clear error each */
	cr_expect_lt(build_text("0 1 5\n1 0 6\n", &r, &g, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "edge 0-1 is listed with labels 5 and 6") != NULL, "%s", msg);
	cr_expect_lt(build_text("0 1 0.5\n", &r, &g, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "is not an integer: it is an edge label") != NULL, "%s", msg);
	graph_free(&g);
	gs_rec_free(&r);
}

/* Named nodes: numbered in order of first appearance, the names in a
 * names record after the graph; integer ids met before the first name
 * become names too. */
Test(stream, edge_list_named_nodes)
{
	const char *text = "7 alice\nalice bob {}\n# c\nbob 7\ncarol carol\n";
	const char *want[] = { "7", "alice", "bob", "carol" };
	char msg[256];
	const char **names;
	gs_file *in;
	gs_rec r;

	gs_rec_init(&r);
	spit(path_of("named.el"), text, strlen(text));
	in = gs_open_in(path_of("named.el"), msg, sizeof msg);
	cr_assert(in);
	cr_assert_eq(gs_read1(in, &r), GS_GRAPH, "%s", gs_strerror(in));
	cr_expect(r.n == 4 && r.m == 4, "%d nodes, %lld edges", r.n, (long long)r.m);
	cr_expect(r.u[0] == 0 && r.v[0] == 1 && r.u[2] == 2 && r.v[2] == 0 && r.u[3] == 3,
		  "numbered by first appearance");
	cr_assert_eq(gs_read1(in, &r), GS_NAMES, "%s", gs_strerror(in));
	cr_assert_eq(r.n, 4);
	names = gs_names_list(&r);
	for (int i = 0; i < 4; i++)
		cr_expect_str_eq(names[i], want[i]);
	free(names);
	cr_expect_eq(gs_read1(in, &r), -1, "%s", gs_strerror(in));
	gs_close(in);
	gs_rec_free(&r);
}

/* A names record survives both forms, and gs_names_set builds one. */
Test(stream, names_round_trip)
{
	const char *nm[] = { "Napoleon", "Mlle Baptistine", "\xc3\x89ponine" };
	char msg[256];
	gs_rec r;

	gs_rec_init(&r);
	for (int text = 0; text < 2; text++) {
		struct copt c = { 0 };
		char *argv[] = { "t", NULL };
		const char **got;
		gs_file *out, *in;
		/* a file of each form: what a process read, it never writes over */
		c.output = path_of(text ? "names.txt" : "names.gs");
		c.text = text;
		c.level = text ? 0 : 1;
		out = gs_open_out(&c, 1, argv);
		gs_rec_graph(&r, 3, 3, 0, GS_NONE);
		gs_write1(out, &r);
		gs_names_set(&r, 3, nm, 3);
		gs_write1(out, &r);
		gs_close(out);
		in = gs_open_in(c.output, msg, sizeof msg);
		cr_assert(in, "%s", msg);
		while (gs_read1(in, &r) == GS_PG || r.kind == GS_GRAPH)
			;
		cr_assert_eq(r.kind, GS_NAMES, "%s", gs_strerror(in));
		cr_expect(r.id == 3 && r.n == 3);
		got = gs_names_list(&r);
		for (int i = 0; i < 3; i++)
			cr_expect_str_eq(got[i], nm[i], "form %d", text);
		free(got);
		gs_close(in);
	}
	gs_rec_free(&r);
}

Test(stream, duplicate_edge_in_stream_is_error)
{
	const char *text = "##gnnstream 1\n@graph id=0 nodes=3 edges=2\n0 1\n1 0\n@end\n";
	char msg[256];
	gs_file *in;
	gs_rec r;
	graph g;

	spit(path_of("d.gs"), text, strlen(text));
	in = gs_open_in(path_of("d.gs"), msg, sizeof msg);
	gs_rec_init(&r);
	graph_init(&g);
	cr_assert_eq(gs_read1(in, &r), GS_GRAPH);
	cr_expect_lt(gs_graph_build(in, &r, &g, 1), -1);
	cr_expect(strstr(gs_strerror(in), "duplicate edge 0-1") != NULL, "%s", gs_strerror(in));
	graph_free(&g);
	gs_rec_free(&r);
	gs_close(in);
}

/* A header claiming a huge body followed by little data must fail without
 * allocating the claimed size (a 10^10-edge claim would need 80 GB). */
Test(stream, lying_size_does_not_allocate)
{
	unsigned char buf[64];
	const char *h = "graph id=0 nodes=100 edges=10000000000";
	uint32_t n = (uint32_t)strlen(h), v[2] = { 1, 0 };
	size_t k = 0;
	char msg[256];
	int nrec;

	memcpy(buf, "\x89GNS", 4);
	memcpy(buf + 4, v, 8);
	k = 12;
	memcpy(buf + k, &n, 4);
	k += 4;
	{
		unsigned char *all = malloc(k + n + 16);
		memcpy(all, buf, k);
		memcpy(all + k, h, n);
		memset(all + k + n, 0, 16);
		spit(path_of("lie.gs"), all, k + n + 16);
		free(all);
	}
	cr_expect_lt(read_all(path_of("lie.gs"), &nrec, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "truncated") != NULL, "%s", msg);
}

/* ---- config ---- */

Test(stream, config_schema)
{
	long long count = 0, nodes[2] = { 0, 0 };
	double gamma[2] = { 0, 0 }, lr = 0;
	int flag = 0, set_lr = 0;
	char *name = NULL, msg[256];
	struct cfg_key keys[] = {
		{ "count", CFG_INT, &count, 1, 1e6, NULL },
		{ "nodes", CFG_IRANGE, nodes, 2, 1e7, NULL },
		{ "gamma", CFG_DRANGE, gamma, 2, 10, NULL },
		{ "model.lr", CFG_DOUBLE, &lr, 0, 1, &set_lr },
		{ "model.flag", CFG_BOOL, &flag, 0, 0, NULL },
		{ "name", CFG_STRING, &name, 0, 0, NULL },
	};
	const char *good = "count: 12\nnodes: 100..2000\ngamma: [2.5, 3]\n"
			   "model:\n  lr: 0.001\n  flag: yes\nname: x y\n";
	char *dump;

	spit(path_of("c.yaml"), good, strlen(good));
	cr_assert_eq(cfg_load(path_of("c.yaml"), keys, 6, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(count, 12);
	cr_expect_eq(nodes[0], 100);
	cr_expect_eq(nodes[1], 2000);
	cr_expect_eq(gamma[0], 2.5);
	cr_expect_eq(gamma[1], 3.0);
	cr_expect_eq(lr, 0.001);
	cr_expect(set_lr);
	cr_expect_eq(flag, 1);
	cr_expect_str_eq(name, "x y");
	free(name);
	name = NULL;

	/* the dump reads back to the same values */
	dump = cfg_dump(keys, 6);
	spit(path_of("d.yaml"), dump, strlen(dump));
	count = 0;
	lr = 0;
	cr_assert_eq(cfg_load(path_of("d.yaml"), keys, 6, msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(count, 12);
	cr_expect_eq(lr, 0.001);
	/* and from memory, as a model record's config is read */
	count = 0;
	lr = 0;
	free(name);
	name = NULL;
	cr_assert_eq(cfg_load_text(dump, strlen(dump), "model record", keys, 6, msg, sizeof msg), 0,
		     "%s", msg);
	cr_expect_eq(count, 12);
	cr_expect_eq(lr, 0.001);
	cr_expect_eq(
	    cfg_load_text("count: 1\nhue: 3\n", 16, "model record", keys, 6, msg, sizeof msg), -1);
	cr_expect(strstr(msg, "model record: line 2: unknown key 'hue'") != NULL, "%s", msg);
	free(dump);
	free(name);

	/* a string with quotes, backslashes and control bytes reads back as
	 * itself */
	const char *tricky = "a \"b\" c\\d: #e\nf\tg\x01";
	name = strdup(tricky);
	dump = cfg_dump(keys, 6);
	free(name);
	name = NULL;
	cr_assert_eq(cfg_load_text(dump, strlen(dump), "dump", keys, 6, msg, sizeof msg), 0,
		     "%s\n%s", msg, dump);
	cr_expect_str_eq(name, tricky, "%s", dump);
	free(dump);
	free(name);
	name = NULL;

	static const struct {
		const char *in, *want;
	} bad[] = {
		{ "count: 1\ncolour: red\n", "line 2: unknown key 'colour'" },
		{ "model:\n  lrr: 1\n", "unknown key 'model.lrr'" },
		{ "count: ten\n", "not a number" },
		{ "count: 1.5\n", "not an integer" },
		{ "count: 0\n", "out of range" },
		{ "nodes: 50..10\n", "range is empty" },
		{ "nodes: [10, 20, 30]\n", "two numbers" },
		{ "model:\n  flag: maybe\n", "not true or false" },
		{ "count: [1\n", "line" },
		{ "- 1\n- 2\n", "" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		name = NULL;
		spit(path_of("b.yaml"), bad[i].in, strlen(bad[i].in));
		cr_expect_eq(cfg_load(path_of("b.yaml"), keys, 6, msg, sizeof msg), -1,
			     "case %zu accepted", i);
		cr_expect(strstr(msg, bad[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, msg,
			  bad[i].want);
		free(name);
	}
}

/*
 * `cat plain.gs packed.gs` where the plain part ends one byte before a
 * 512 KiB read boundary and the packed part is longer than a read: the
 * reader must hand the gzip magic back to the raw layer with a full raw
 * buffer behind it (it used to drop the hand-back and report "garbage after
 * the end of a stream segment").  Plain parts of 2^19 - 2, - 1 and + 0
 * bytes, then a gzip member of about 760 KB.
 */
Test(stream, concatenation_at_read_boundary)
{
	static const char head[] = "##gnnstream 1\n",
			  pre[] = "@label id=0 name=x value=1 pad=", end[] = "\n@end\n";
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t big = 1000000, i;
	char *pad = malloc(big + 1), msg[256];
	uint64_t x = 88172645463325252ULL;
	gzFile gz;

	cr_assert(pad);
	for (i = 0; i < big; i++) { /* xorshift: incompressible text */
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pad[i] = b64[x & 63];
	}
	pad[big] = '\0';
	for (long d = -2; d <= 0; d++) {
		size_t X = (1u << 19) + d, fixed = strlen(head) + strlen(pre) + strlen(end);
		FILE *f = fopen(path_of("cat.gs"), "wb");
		int n;

		cr_assert(f);
		fprintf(f, "%s%s%.*s%s", head, pre, (int)(X - fixed), pad, end);
		cr_assert_eq(ftell(f), (long)X);
		fclose(f);
		gz = gzopen(path_of("cat.gs"), "ab1");
		cr_assert(gz);
		gzprintf(gz, "%s", head);
		gzputs(gz, "@label id=1 name=x value=2 pad=");
		gzwrite(gz, pad, (unsigned)big);
		gzputs(gz, end);
		cr_assert_eq(gzclose(gz), Z_OK);
		cr_expect_eq(read_all(path_of("cat.gs"), &n, msg, sizeof msg), -1,
			     "plain part of %zu bytes: %s", X, msg);
		cr_expect_eq(n, 2);
	}
	free(pad);
}

/* ---- fuzz regressions (tests/fuzz/regress, see tests/fuzz/README) ---- */

#include <dirent.h>

#include "train_settings.h"

/* Every file of a regress directory, sorted; returns the count. */
static int
regress_files(const char *dir, char names[][256], int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	cr_assert(d, "%s: run the tests from the repository root", dir);
	while ((e = readdir(d)) != NULL && n < max)
		if (e->d_name[0] != '.' && snprintf(names[n], 256, "%s/%s", dir, e->d_name) < 256)
			n++;
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
	return n;
}

/* Inputs the fuzzers found: each must end in a clean error, one line
 * naming the file, never a crash (the sanitizer builds check the rest). */
Test(stream, fuzz_regress_streams)
{
	static char names[64][256];
	int n = regress_files("tests/fuzz/regress/stream", names, 64);

	cr_expect_gt(n, 0);
	for (int i = 0; i < n; i++) {
		char msg[256];
		gs_file *in = gs_open_in(names[i], msg, sizeof msg);
		gs_rec r;
		graph g;
		int k;

		cr_assert(in, "%s", msg);
		gs_rec_init(&r);
		graph_init(&g);
		while ((k = gs_read1(in, &r)) >= 0)
			if (k == GS_GRAPH && r.n <= (1 << 20) &&
			    gs_graph_build(in, &r, &g, 1) != 0) {
				k = -2;
				break;
			}
		cr_expect_lt(k, -1, "%s: read without an error", names[i]);
		cr_expect(strncmp(gs_strerror(in), names[i], strlen(names[i])) == 0,
			  "%s: message does not name the file: %s", names[i], gs_strerror(in));
		cr_expect(strpbrk(gs_strerror(in), "\n\r") == NULL,
			  "%s: message is not one line: %s", names[i], gs_strerror(in));
		graph_free(&g);
		gs_rec_free(&r);
		gs_close(in);
	}
}

Test(stream, fuzz_regress_configs)
{
	static char names[64][256];
	int n = regress_files("tests/fuzz/regress/config", names, 64);

	cr_expect_gt(n, 0);
	for (int i = 0; i < n; i++) {
		struct train_settings s;
		struct cfg_key keys[TRAIN_SCHEMA_MAX];
		char msg[512];
		size_t nk;

		train_settings_default(&s);
		nk = train_schema(&s, keys);
		cr_expect_eq(cfg_load(names[i], keys, nk, msg, sizeof msg), -1,
			     "%s: loaded without an error", names[i]);
		cr_expect(strncmp(msg, names[i], strlen(names[i])) == 0,
			  "%s: message does not name the file: %s", names[i], msg);
		cr_expect(strpbrk(msg, "\n\r") == NULL, "%s: message is not one line: %s", names[i],
			  msg);
		train_settings_free(&s);
	}
}
