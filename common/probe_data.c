/*
 * probe_data.c - a linear probe's items from a stream: the nodes of one
 * graph or every graph, their vectors and classes (probe_data.h).
 */
#include "probe_data.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "probe.h"
#include "split.h"

#define MAX_CLASS 1000000   /* gcn-adapt's bound on a class index */
#define MAX_WIDTH (1 << 24) /* values per vector (LIBLINEAR's indices are int) */

/* Element j of tensor r as a double. */
static double
elem(const gs_rec *r, int64_t j)
{
	switch (r->dtype) {
	case GS_F32:
		return ((const float *)r->data)[j];
	case GS_F64:
		return ((const double *)r->data)[j];
	case GS_I32:
		return ((const int32_t *)r->data)[j];
	default:
		return (double)((const int64_t *)r->data)[j];
	}
}

/* The vector tensor's width, checked against the first one's, and its
 * attributes kept from the first. */
static void
take_width(struct probe_input *in, gs_file *f, const gs_rec *r, int D)
{
	if (r->cols < 1 || r->cols > MAX_WIDTH)
		die("%s: '%s' has %" PRId64 " columns (1..%d)", gs_where(f), r->name, r->cols,
		    MAX_WIDTH);
	if (in->D && D != in->D)
		die("%s: graph %" PRId64 ": '%s' has %d values a row, the first graph's %d",
		    gs_where(f), r->id, r->name, D, in->D);
	if (!in->D)
		for (int i = 0; i < r->nattr; i++)
			gs_attr_set(&in->attrs, r->akey[i], r->aval[i]);
	in->D = D;
}

/* The class of a node or graph: negative = none, refused above MAX_CLASS. */
static int32_t
class_of(gs_file *f, double c, const char *what, int64_t i)
{
	if (c > MAX_CLASS)
		die("%s: %s %" PRId64 ": class %.0f out of range (at most %d)", gs_where(f), what,
		    i, c, MAX_CLASS);
	return c < 0 ? -1 : (int32_t)c;
}

/* Node task: the per-node vectors or the classes (is_label) of the one
 * graph; *vid and *lid: the graph of each so far (-1: none). */
static void
take_node_tensor(struct probe_input *in, const struct probe_ask *a, gs_file *f, const gs_rec *r,
		 int is_label, int64_t *vid, int64_t *lid)
{
	int64_t *id = is_label ? lid : vid, other = is_label ? *vid : *lid;

	if (*id >= 0)
		die("%s: a second '%s' tensor (graph %" PRId64 "): node classification takes "
		    "one graph (--task graph probes graphs)",
		    gs_where(f), r->name, r->id);
	if (other >= 0 && other != r->id)
		die("%s: '%s' is of graph %" PRId64 ", '%s' of graph %" PRId64, gs_where(f),
		    r->name, r->id, is_label ? a->tensor : a->label, other);
	if ((in->graph_n >= 0 && r->rows != in->graph_n) || (other >= 0 && r->rows != in->n))
		die("%s: '%s' has %" PRId64 " rows, the graph %" PRId64 " nodes", gs_where(f),
		    r->name, r->rows, in->graph_n >= 0 ? (int64_t)in->graph_n : in->n);
	*id = r->id;
	in->n = r->rows;
	if (is_label) {
		if (r->cols < 1 || (r->dtype != GS_I32 && r->dtype != GS_I64))
			die("%s: '%s' must be a tensor of integer classes", gs_where(f), r->name);
		in->y = xmallocarray((size_t)r->rows + 1, sizeof *in->y);
		for (int64_t v = 0; v < r->rows; v++)
			in->y[v] = class_of(f, elem(r, v * r->cols), "node", v);
		return;
	}
	take_width(in, f, r, (int)r->cols);
	in->X = xmallocarray((size_t)r->rows + 1, (size_t)in->D * sizeof *in->X);
	for (int64_t j = 0; j < r->rows * r->cols; j++)
		in->X[j] = elem(r, j);
}

static void
read_nodes(struct probe_input *in, const struct probe_ask *a)
{
	gs_rec r;
	int64_t gid = -1, vid = -1, lid = -1;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&in->rd, &r)) > 0) {
		gs_file *f = in->rd.in;
		if (k == GS_GRAPH) {
			if (in->ngraphs++)
				die("%s: a second graph: node classification takes one graph "
				    "(--task graph probes graphs)",
				    gs_where(f));
			if (vid >= 0 || lid >= 0)
				die("%s: a graph after the tensors of graph %" PRId64 ": a graph's "
				    "records follow it",
				    gs_where(f), vid >= 0 ? vid : lid);
			gid = r.id;
			in->graph_n = r.n;
			const char *nm = gs_attr_get(&r, "dataset");
			snprintf(in->dataset, sizeof in->dataset, "%s", nm ? nm : in->rd.path);
		} else if (k == GS_TENSOR &&
			   (strcmp(r.name, a->tensor) == 0 || strcmp(r.name, a->label) == 0)) {
			filter_follows_graph(f, &r, gid);
			take_node_tensor(in, a, f, &r, strcmp(r.name, a->label) == 0, &vid, &lid);
		}
	}
	gs_rec_free(&r);
	if (vid < 0)
		die("no '%s' tensor in the input (gcn-embed writes 'embedding', nodefeat "
		    "'features'; --tensor)",
		    a->tensor);
	if (lid < 0)
		die("graph %" PRId64 ": no '%s' tensor of node classes (--label)", vid, a->label);
	if (!*in->dataset)
		snprintf(in->dataset, sizeof in->dataset, "%s", in->rd.path);
}

/* Graph task: the vector of the graph in hand (item n - 1) from its tensor
 * r, pooled unless --pool none. */
static void
take_graph_vector(struct probe_input *in, const struct probe_ask *a, gs_file *f, const gs_rec *r)
{
	int64_t rows = a->pool == PROBE_POOL_NONE ? 1 : in->graph_n;
	int D = (int)r->cols * (a->pool == PROBE_POOL_MEANMAX ? 2 : 1);

	if (rows == 0)
		die("%s: graph %" PRId64 " has no nodes to pool", gs_where(f), r->id);
	if (r->rows != rows)
		die("%s: graph %" PRId64 ": '%s' is %" PRId64 " x %" PRId64 " for %" PRId32
		    " nodes; %s",
		    gs_where(f), r->id, r->name, r->rows, r->cols, in->graph_n,
		    a->pool == PROBE_POOL_NONE ? "--pool none takes one row a graph"
		    : r->rows == 1	       ? "one vector a graph? --pool none takes it as it is"
					       : "--pool pools one row a node");
	take_width(in, f, r, D);
	if (in->n > in->cap) {
		in->cap = 2 * in->n;
		in->X = xreallocarray(in->X, (size_t)in->cap, (size_t)D * sizeof *in->X);
	}
	in->tmp = xreallocarray(in->tmp, (size_t)(r->rows * r->cols) + 1, sizeof *in->tmp);
	for (int64_t j = 0; j < r->rows * r->cols; j++)
		in->tmp[j] = elem(r, j);
	double *x = in->X + (size_t)(in->n - 1) * (size_t)D;
	if (a->pool == PROBE_POOL_NONE)
		memcpy(x, in->tmp, (size_t)D * sizeof *x);
	else
		probe_pool(in->tmp, r->rows, (int)r->cols, a->pool, x);
}

/* Graph task: a new graph record r, item in->n. */
static void
new_graph(struct probe_input *in, const gs_rec *r)
{
	if (in->n == 0) {
		const char *nm = gs_attr_get(r, "dataset");
		snprintf(in->dataset, sizeof in->dataset, "%s", nm ? nm : in->rd.path);
	}
	if (in->n % 256 == 0)
		in->y = xreallocarray(in->y, (size_t)in->n + 256, sizeof *in->y);
	in->y[in->n++] = -1;
	in->ngraphs++;
	in->graph_n = r->n;
}

/* Graph task: every graph's vector and class (its label record; none: no
 * class). */
static void
read_graphs(struct probe_input *in, const struct probe_ask *a)
{
	gs_rec r;
	int64_t gid = -1;
	int k, have_vec = 1, have_label = 0;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&in->rd, &r)) > 0) {
		gs_file *f = in->rd.in;
		int vec = k == GS_TENSOR && strcmp(r.name, a->tensor) == 0;
		if (k == GS_GRAPH) {
			if (!have_vec)
				die("%s: graph %" PRId64 " (before this record) has no '%s' tensor",
				    gs_where(f), gid, a->tensor);
			new_graph(in, &r);
			gid = r.id;
			have_vec = have_label = 0;
		} else if (vec || (k == GS_LABEL && strcmp(r.name, a->label) == 0)) {
			if (gid < 0)
				die("%s: a '%s' record before any graph (--task graph: the items are "
				    "the graphs)",
				    gs_where(f), r.name);
			filter_follows_graph(f, &r, gid);
			if (vec ? have_vec++ : have_label++)
				die("%s: graph %" PRId64 " has a second '%s' record", gs_where(f),
				    gid, r.name);
			if (vec)
				take_graph_vector(in, a, f, &r);
			else
				in->y[in->n - 1] = class_of(f, (double)r.value, "graph", gid);
		}
	}
	gs_rec_free(&r);
	if (in->ngraphs == 0)
		die("no graph in the input (--task graph: the items are the graphs)");
	if (!have_vec)
		die("%s: graph %" PRId64 " has no '%s' tensor", in->rd.path, gid, a->tensor);
}

/* The classes: C, and every class splittable.  Says once how many items
 * have none. */
static void
check_classes(struct probe_input *in, const struct probe_ask *a)
{
	static const char *const item[] = { "nodes", "graphs" }, *const one[] = { "node", "graph" };
	int64_t *cnt, m, kinds = 0;

	in->C = 0;
	for (int64_t i = 0; i < in->n; i++)
		if (in->y[i] + 1 > in->C)
			in->C = in->y[i] + 1;
	if (in->C == 0)
		die("no %s has a class (every one is negative or missing: --label)", one[a->task]);
	cnt = xmallocarray((size_t)in->C, sizeof *cnt);
	m = split_class_counts(in->y, in->n, in->C, cnt);
	for (int c = 0; c < in->C; c++) {
		kinds += cnt[c] > 0;
		if (cnt[c] == 1 && !a->folds)
			die("class %d has one item: a hold-out run needs one to train on and one "
			    "to test (give it class -1 to leave it out)",
			    c);
	}
	if (kinds < 2)
		die("one class only among the %s", item[a->task]);
	for (int c = 0; c < in->C && a->folds && !a->quiet; c++)
		if (cnt[c] > 0 && cnt[c] < a->folds) {
			warnx_("class %d has %" PRId64 " items, fewer than --folds %d: some folds "
			       "do not test it",
			       c, cnt[c], a->folds);
			break;
		}
	if (m < in->n && !a->quiet)
		warnx_("%" PRId64 " of %" PRId64 " %s have no class: never trained on or tested",
		       in->n - m, in->n, item[a->task]);
	free(cnt);
}

void
probe_input_read(struct probe_input *in, const struct probe_ask *a, int nfiles, char **files)
{
	memset(in, 0, sizeof *in);
	gs_rec_init(&in->attrs);
	in->graph_n = -1;
	gs_reader_init(&in->rd, nfiles, files);
	if (a->task == PROBE_TASK_NODE)
		read_nodes(in, a);
	else
		read_graphs(in, a);
	check_classes(in, a);
}

void
probe_input_free(struct probe_input *in)
{
	gs_rec_free(&in->attrs);
	gs_reader_free(&in->rd);
	free(in->X);
	free(in->y);
	free(in->tmp);
}
