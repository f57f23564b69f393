/*
 * test_embed_out.c - gcn-embed's output (common/embed_out.c): node rows of
 * each kind, pooled rows, the TSV and record forms, by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "embed_out.h"
#include "err.h"
#include "stream.h"

/*
 * Two blocks of d = 2 over n = 3 nodes:
 *   H1 = [1 2; 3 4; 5 6], H2 = [-1 0.5; 2 -3; 0 7]; the mix [9 8; 7 6; 5 4].
 */
static real H1[] = { 1, 2, 3, 4, 5, 6 }, H2[] = { -1, 0.5, 2, -3, 0, 7 };
static real mix[] = { 9, 8, 7, 6, 5, 4 };
static real *const Hs[] = { H1, H2 };

/* One graph (id 5, 3 nodes, the first of the output) as filter_run()
 * hands it, to TSV text in *buf. */
struct one {
	graph g;
	gs_rec rec;
	struct filter_graph fg;
	char *buf;
	size_t len;
};

static void
one_start(struct one *o, int64_t index)
{
	memset(o, 0, sizeof *o);
	o->g.n = 3;
	gs_rec_init(&o->rec);
	o->rec.id = 5;
	o->fg.g = &o->g;
	o->fg.rec = &o->rec;
	o->fg.index = index;
	o->fg.tsv = open_memstream(&o->buf, &o->len);
	cr_assert(o->fg.tsv != NULL);
}

static void
one_free(struct one *o)
{
	gs_rec_free(&o->rec);
	free(o->buf);
}

/* The TSV the output gives for one graph (its nodes named by names, or
 * NULL). */
static void
tsv_named(struct embed_out *eo, int64_t index, const char *const *names, const char *want)
{
	struct one o;

	one_start(&o, index);
	embed_out_graph(eo, &o.fg, Hs, mix, names);
	fclose(o.fg.tsv);
	cr_expect_str_eq(o.buf, want);
	one_free(&o);
}

static void
tsv_of(struct embed_out *eo, int64_t index, const char *want)
{
	tsv_named(eo, index, NULL, want);
}

static void
start(struct embed_out *eo, int kind, int block, const int *pool, int npool)
{
	embed_out_init(eo);
	eo->kind = kind;
	eo->block = block;
	eo->layers = 2;
	eo->d = 2;
	eo->pool = pool;
	eo->npool = npool;
	embed_out_start(eo);
}

Test(embed_out, node_rows_of_each_kind)
{
	struct embed_out eo;

	start(&eo, EMB_BLOCKS, 0, NULL, 0);
	cr_expect(eo.D == 4 && eo.DP == 0);
	tsv_of(&eo, 0,
	       "graph\tid\tnode\te0\te1\te2\te3\n"
	       "0\t5\t0\t1\t2\t-1\t0.5\n0\t5\t1\t3\t4\t2\t-3\n0\t5\t2\t5\t6\t0\t7\n");
	tsv_of(&eo, 1, "1\t5\t0\t1\t2\t-1\t0.5\n1\t5\t1\t3\t4\t2\t-3\n1\t5\t2\t5\t6\t0\t7\n");
	embed_out_free(&eo);

	/* a graph with names: a name column after the node */
	static const char *const abc[] = { "a", "b c", "d" };
	start(&eo, EMB_BLOCK, 1, NULL, 0);
	tsv_named(&eo, 0, abc,
		  "graph\tid\tnode\tname\te0\te1\n"
		  "0\t5\t0\ta\t1\t2\n0\t5\t1\tb c\t3\t4\n0\t5\t2\td\t5\t6\n");
	embed_out_free(&eo);

	start(&eo, EMB_BLOCK, 2, NULL, 0);
	cr_expect(eo.D == 2);
	tsv_of(&eo, 1, "1\t5\t0\t-1\t0.5\n1\t5\t1\t2\t-3\n1\t5\t2\t0\t7\n");
	embed_out_free(&eo);

	start(&eo, EMB_MIX, 0, NULL, 0);
	tsv_of(&eo, 1, "1\t5\t0\t9\t8\n1\t5\t1\t7\t6\n1\t5\t2\t5\t4\n");
	embed_out_free(&eo);
}

Test(embed_out, pooled_rows_in_the_order_asked)
{
	static const int mms[] = { EMB_POOL_MEAN, EMB_POOL_MAX, EMB_POOL_SUM };
	static const int sm[] = { EMB_POOL_SUM, EMB_POOL_MEAN };
	struct embed_out eo;

	/* block 2: mean (1/3, 1.5), max (2, 7), sum (1, 4.5) */
	start(&eo, EMB_BLOCK, 2, mms, 3);
	cr_expect(eo.D == 2 && eo.DP == 6);
	cr_expect_str_eq(eo.pool_text, "mean,max,sum");
	tsv_of(&eo, 0, "graph\tid\te0\te1\te2\te3\te4\te5\n0\t5\t0.333333343\t1.5\t2\t7\t1\t4.5\n");
	embed_out_free(&eo);

	/* every block, sum then mean: the sums of H1 (9, 12) and H2 (1, 4.5) */
	start(&eo, EMB_BLOCKS, 0, sm, 2);
	cr_expect(eo.D == 4 && eo.DP == 8);
	cr_expect_str_eq(eo.pool_text, "sum,mean");
	tsv_of(&eo, 3, "3\t5\t9\t12\t1\t4.5\t3\t4\t0.333333343\t1.5\n");
	embed_out_free(&eo);
}

/* The record form: "graph_embedding" after the graph, the caller's
 * attributes in order, then "pool". */
Test(embed_out, pooled_record_carries_the_attributes)
{
	static const int mx[] = { EMB_POOL_MAX };
	char dir[] = "/tmp/embed_outXXXXXX", path[64], msg[256], *argv[] = { "test" };
	struct embed_out eo;
	struct copt c;
	struct one o;
	gs_rec r;
	int k;

	err_setprog("test_embed_out");
	cr_assert(mkdtemp(dir) != NULL);
	snprintf(path, sizeof path, "%s/e.gs", dir);
	embed_out_init(&eo);
	gs_attr_set(&eo.attrs, "embedding", "rec");
	gs_attr_set(&eo.attrs, "model", "m.gs");
	eo.kind = EMB_MIX;
	eo.layers = 2;
	eo.d = 2;
	eo.pool = mx;
	eo.npool = 1;
	embed_out_start(&eo);
	copt_init(&c);
	c.output = path;
	c.text = 1;
	one_start(&o, 0);
	fclose(o.fg.tsv);
	o.fg.tsv = NULL;
	o.fg.out = gs_open_out(&c, 1, argv);
	embed_out_graph(&eo, &o.fg, Hs, mix, NULL);
	gs_close(o.fg.out);

	gs_file *in = gs_open_in(path, msg, sizeof msg);
	cr_assert(in != NULL, "%s", msg);
	gs_rec_init(&r);
	while ((k = gs_read1(in, &r)) == GS_PG)
		;
	cr_assert(k == GS_TENSOR && strcmp(r.name, "graph_embedding") == 0 && r.id == 5);
	cr_expect(r.rows == 1 && r.cols == 2 && r.dtype == GS_F32);
	cr_expect(((float *)r.data)[0] == 9 && ((float *)r.data)[1] == 8);
	cr_assert(r.nattr == 3);
	cr_expect_str_eq(r.akey[0], "embedding");
	cr_expect_str_eq(r.akey[1], "model");
	cr_expect_str_eq(r.aval[1], "m.gs");
	cr_expect_str_eq(r.akey[2], "pool");
	cr_expect_str_eq(r.aval[2], "max");
	cr_expect(gs_read1(in, &r) == -1);
	gs_close(in);
	gs_rec_free(&r);
	one_free(&o);
	embed_out_free(&eo);
	unlink(path);
	rmdir(dir);
}
