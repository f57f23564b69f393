/* adapt_data.c - gcn-adapt's downstream dataset; see adapt_data.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_data.h"
#include "batch.h"
#include "err.h"
#include "stream.h"

const char *const adapt_task_name[] = { "node", "link", "graph", "linkpred", NULL };

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Link task: the graph record's edges and their labels; the classes are
 * the distinct non-negative label values in ascending order (--predict:
 * the model's).  An edge with a negative label, or any edge of a graph
 * without labels under --predict, has no class (y -1): it is structure,
 * never a training, validation or test item. */
static void
link_labels(struct adapt_data *ds, const gs_rec *r, const char *where)
{
	int64_t m = r->m, *val, *uniq;
	if (r->ltype == GS_NONE && !ds->predict)
		die("%s: graph %" PRId64 " has no edge labels for --task link", where, r->id);
	if (m == 0)
		die("%s: graph %" PRId64 " has no edges", where, r->id);
	val = xmallocarray((size_t)m, sizeof *val);
	uniq = xmallocarray((size_t)m, sizeof *uniq);
	int64_t nu = 0;
	for (int64_t e = 0; e < m; e++) {
		double x = r->ltype == GS_NONE	? -1
			   : r->ltype == GS_I32 ? ((const int32_t *)r->lab)[e]
						: ((const double *)r->lab)[e];
		if (!isfinite(x) || x != floor(x) || fabs(x) > 1e9)
			die("%s: edge %" PRId64 ": label %g is not an integer class", where, e, x);
		val[e] = (int64_t)x;
		if (val[e] >= 0)
			uniq[nu++] = val[e];
	}
	qsort(uniq, (size_t)nu, sizeof *uniq, cmp_i64);
	int64_t nd = 0;
	for (int64_t e = 0; e < nu; e++)
		if (nd == 0 || uniq[e] != uniq[nd - 1])
			uniq[nd++] = uniq[e];
	if (ds->predict) { /* the model's classes */
		nd = ds->Cm;
		memcpy(uniq, ds->mvals, (size_t)nd * sizeof *uniq);
	} else if (nd > 1000)
		die("%s: graph %" PRId64 ": %" PRId64 " distinct edge labels; at most 1000 classes",
		    where, r->id, nd);
	ds->C = (int)nd;
	ds->eu = xmallocarray((size_t)m, sizeof *ds->eu);
	ds->ev = xmallocarray((size_t)m, sizeof *ds->ev);
	ds->y = xmallocarray((size_t)m, sizeof *ds->y);
	size_t cl = 0;
	ds->cvals[0] = 0;
	for (int64_t c = 0; c < nd && cl < sizeof ds->cvals - 24; c++)
		cl += (size_t)snprintf(ds->cvals + cl, sizeof ds->cvals - cl, "%s%" PRId64,
				       c ? "," : "", uniq[c]);
	ds->nlab = 0;
	for (int64_t e = 0; e < m; e++) {
		int64_t *f =
		    val[e] < 0 ? NULL : bsearch(&val[e], uniq, (size_t)nd, sizeof *uniq, cmp_i64);
		if (val[e] >= 0 && !f)
			die("%s: edge %" PRId64 ": label %" PRId64 " is not one of the model's "
			    "classes (%s)",
			    where, e, val[e], ds->cvals);
		ds->eu[e] = r->u[e];
		ds->ev[e] = r->v[e];
		ds->y[e] = f ? (int32_t)(f - uniq) : -1;
		ds->nlab += f != NULL;
	}
	ds->nitems = m;
	free(val);
	free(uniq);
}

/* Link prediction: the items are the m edges of the graph (canonical
 * order, class 1), then m non-edges (class 0) that each run samples. */
static void
linkpred_items(struct adapt_data *ds, const gs_rec *r, const char *where, int quiet)
{
	int64_t m = ds->g.m;

	if (m == 0)
		die("%s: graph %" PRId64 " has no edges to predict", where, r->id);
	if (r->ltype != GS_NONE && !quiet)
		warnx_("%s: graph %" PRId64 ": its edge labels are not used by --task linkpred "
		       "(every edge is a positive; --task link classifies labelled edges)",
		       where, r->id);
	ds->eu = xmallocarray((size_t)m, sizeof *ds->eu);
	ds->ev = xmallocarray((size_t)m, sizeof *ds->ev);
	ds->y = xmallocarray((size_t)(2 * m), sizeof *ds->y);
	graph_edges(&ds->g, ds->eu, ds->ev);
	for (int64_t i = 0; i < 2 * m; i++)
		ds->y[i] = i < m;
	ds->C = 2;
	ds->nitems = ds->nlab = 2 * m;
	snprintf(ds->cvals, sizeof ds->cvals, "non-edge,edge");
}

/* The graph of a node or link task (one graph in all). */
static void
take_graph(struct adapt_data *ds, const struct adapt_ask *o, gs_file *in, gs_rec *r,
	   const char *path)
{
	if (ds->have_graph)
		die("%s: a second graph: %s classification takes one graph", gs_where(in),
		    adapt_task_name[o->task]);
	if (o->task == ADAPT_LINK)
		gs_edge_labels_wanted(in);
	if (gs_graph_build(in, r, &ds->g, o->quiet) != 0)
		die("%s", gs_strerror(in));
	if (ds->g.n == 0)
		die("%s: graph %" PRId64 " has no nodes", gs_where(in), r->id);
	if (o->task == ADAPT_LINK)
		link_labels(ds, r, gs_where(in));
	else if (o->task == ADAPT_LINKPRED)
		linkpred_items(ds, r, gs_where(in), o->quiet);
	ds->id = r->id;
	const char *nm = gs_attr_get(r, "dataset");
	snprintf(ds->name, sizeof ds->name, "%s", nm ? nm : path);
	ds->have_graph = 1;
}

/* The names of the graph's nodes, for the predictions' TSV. */
static void
take_names(struct adapt_data *ds, gs_file *in, gs_rec *r)
{
	if (!ds->have_graph || r->id != ds->id || r->n != ds->g.n)
		die("%s: names record does not match its graph (%" PRId32 " names)", gs_where(in),
		    r->n);
	if (ds->names)
		die("%s: graph %" PRId64 " has a second names record", gs_where(in), r->id);
	gs_rec t = ds->names_rec; /* take its buffers */
	ds->names_rec = *r;
	*r = t;
	ds->names = gs_names_list(&ds->names_rec);
}

/* The node attributes ('attributes') and which nodes have any
 * ('has_attributes') of the graph. */
static void
take_attributes(struct adapt_data *ds, gs_file *in, const gs_rec *r)
{
	if (!ds->have_graph || r->id != ds->id || r->rows != ds->g.n)
		die("%s: '%s' tensor does not match its graph", gs_where(in), r->name);
	if (strcmp(r->name, "has_attributes") == 0) {
		ds->missing = 0;
		for (int64_t i = 0; i < r->rows; i++)
			ds->missing += r->dtype == GS_I32
					   ? ((const int32_t *)r->data)[i * r->cols] == 0
					   : r->dtype == GS_I64 &&
						 ((const int64_t *)r->data)[i * r->cols] == 0;
		return;
	}
	if (r->dtype != GS_F32 && r->dtype != GS_F64)
		die("%s: 'attributes' is not float", gs_where(in));
	free(ds->A);
	ds->na = r->cols;
	ds->A = xmallocarray((size_t)(r->rows * r->cols) + 1, sizeof *ds->A);
	for (int64_t i = 0; i < r->rows * r->cols; i++) {
		double x =
		    r->dtype == GS_F32 ? ((const float *)r->data)[i] : ((const double *)r->data)[i];
		if (!isfinite(x))
			die("%s: 'attributes' element %" PRId64 " is not finite", gs_where(in), i);
		ds->A[i] = (real)x;
	}
}

/* A 'features' tensor r of graph g (its features go to *feat). */
static void
take_features(struct adapt_data *ds, gs_file *in, const gs_rec *r, const graph *g, double **feat)
{
	const char *cols = r->columns ? r->columns : "";
	char msg[256];
	int F, differ;

	if (!ds->have_graph || r->id != ds->id)
		die("%s: 'features' tensor does not follow its graph", gs_where(in));
	if (*feat)
		die("%s: graph %" PRId64 " has a second 'features' tensor", gs_where(in), r->id);
	differ = featstage_tensor(&ds->fseen, r, g->n, feat, &F, msg, sizeof msg);
	if (differ < 0)
		die("%s: %s", gs_where(in), msg);
	if (differ & (FEAT_SEEN_WIDTH | FEAT_SEEN_COLUMNS))
		die("%s: graph %" PRId64 ": 'features' columns '%.80s' differ from earlier "
		    "graphs' '%.80s'",
		    gs_where(in), r->id, cols, ds->fseen.cols);
}

/* The class names of a label tensor or record r (class_names=, as many
 * as its classes=; else none), kept once. */
static void
take_class_names(struct adapt_data *ds, const gs_rec *r)
{
	const char *cs = gs_attr_get(r, "classes");

	if (cs != NULL)
		adapt_data_class_names(ds, gs_attr_get(r, "class_names"), atoll(cs));
}

void
adapt_data_class_names(struct adapt_data *ds, const char *cn, long long C)
{
	long long k = 1;

	if (ds->class_names != NULL || cn == NULL || *cn == '\0')
		return;
	for (const char *c = cn; *c; c++)
		k += *c == ',';
	if (k != C || k > 1000000)
		return; /* a name with a comma: the list cannot be cut */
	ds->class_names = xstrdup(cn);
	ds->names_of = xmallocarray((size_t)k, sizeof *ds->names_of);
	ds->nclass_names = k;
	k = 0;
	ds->class_buf = xstrdup(cn);
	for (char *c = ds->class_buf, *w = c;; c++)
		if (*c == ',' || *c == '\0') {
			int end = *c == '\0';
			*c = '\0';
			ds->names_of[k++] = w;
			w = c + 1;
			if (end)
				break;
		}
}

/* The node classes of a node task: the first column of the --label tensor;
 * a negative class means none (the node is not an item of any split). */
static void
take_node_labels(struct adapt_data *ds, const struct adapt_ask *o, gs_file *in, const gs_rec *r)
{
	if (!ds->have_graph || r->id != ds->id)
		die("%s: '%s' tensor does not follow its graph", gs_where(in), o->label);
	if (r->rows != ds->g.n || r->cols < 1 || (r->dtype != GS_I32 && r->dtype != GS_I64))
		die("%s: '%s' must be %" PRId32 " rows of at least one integer column",
		    gs_where(in), o->label, ds->g.n);
	take_class_names(ds, r);
	free(ds->y);
	ds->y = xmallocarray((size_t)ds->g.n + 1, sizeof *ds->y);
	ds->C = 0;
	ds->nlab = 0;
	for (int32_t v = 0; v < ds->g.n; v++) {
		int64_t c = r->dtype == GS_I32 ? ((const int32_t *)r->data)[(int64_t)v * r->cols]
					       : ((const int64_t *)r->data)[(int64_t)v * r->cols];
		if (c > 1000000)
			die("%s: node %" PRId32 ": class %" PRId64 " out of range", gs_where(in), v,
			    c);
		if (ds->predict && c >= ds->Cm)
			die("%s: node %" PRId32 ": class %" PRId64 " is not one of the model's %d "
			    "classes",
			    gs_where(in), v, c, ds->Cm);
		ds->y[v] = c < 0 ? -1 : (int32_t)c;
		ds->nlab += c >= 0;
		if (c + 1 > ds->C)
			ds->C = (int)c + 1;
	}
}

/* Node and link tasks: one graph, its attributes, its classes. */
static void
read_one_graph(struct adapt_data *ds, const struct adapt_ask *o)
{
	gs_rec r;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (k == GS_GRAPH)
			take_graph(ds, o, in, &r, ds->rd.path);
		else if (k == GS_TENSOR && (strcmp(r.name, "attributes") == 0 ||
					    strcmp(r.name, "has_attributes") == 0))
			take_attributes(ds, in, &r);
		else if (k == GS_TENSOR && strcmp(r.name, "features") == 0)
			take_features(ds, in, &r, &ds->g, &ds->feat);
		else if (k == GS_TENSOR && o->task == ADAPT_NODE && strcmp(r.name, o->label) == 0)
			take_node_labels(ds, o, in, &r);
		else if (k == GS_NAMES && o->task == ADAPT_NODE)
			take_names(ds, in, &r);
	}
	gs_rec_free(&r);
}

/* Graph task: every graph and its --label record (node tensors unused). */
static void
read_graphs(struct adapt_data *ds, const struct adapt_ask *o)
{
	gs_rec r;
	int k;

	gs_rec_init(&r);
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (k == GS_GRAPH) {
			if (ds->ng == ds->cap_g) {
				ds->cap_g = ds->cap_g ? 2 * ds->cap_g : 256;
				ds->gs = xreallocarray(ds->gs, (size_t)ds->cap_g, sizeof *ds->gs);
				ds->y = xreallocarray(ds->y, (size_t)ds->cap_g, sizeof *ds->y);
				ds->gfeat =
				    xreallocarray(ds->gfeat, (size_t)ds->cap_g, sizeof *ds->gfeat);
			}
			ds->gfeat[ds->ng] = NULL;
			graph_init(&ds->gs[ds->ng]);
			if (gs_graph_build(in, &r, &ds->gs[ds->ng], o->quiet) != 0)
				die("%s", gs_strerror(in));
			if (ds->gs[ds->ng].n == 0)
				die("%s: graph %" PRId64 " has no nodes", gs_where(in), r.id);
			ds->y[ds->ng] = -1;
			ds->id = r.id;
			if (!ds->have_graph) {
				const char *nm = gs_attr_get(&r, "dataset");
				snprintf(ds->name, sizeof ds->name, "%s", nm ? nm : ds->rd.path);
			}
			ds->ng++;
			ds->have_graph = 1;
		} else if (k == GS_TENSOR && strcmp(r.name, "features") == 0) {
			take_features(ds, in, &r, &ds->gs[ds->ng - 1], &ds->gfeat[ds->ng - 1]);
		} else if (k == GS_LABEL && strcmp(r.name, o->label) == 0) {
			take_class_names(ds, &r);
			if (!ds->have_graph || r.id != ds->id)
				die("%s: label record does not follow its graph", gs_where(in));
			if (r.value > 1000000)
				die("%s: graph %" PRId64 ": class %" PRId64 " out of range",
				    gs_where(in), r.id, r.value);
			if (ds->predict && r.value >= ds->Cm)
				die("%s: graph %" PRId64 ": class %" PRId64 " is not one of the "
				    "model's %d classes",
				    gs_where(in), r.id, r.value, ds->Cm);
			/* a negative class: the graph has none */
			ds->y[ds->ng - 1] = r.value < 0 ? -1 : (int32_t)r.value;
			if (r.value + 1 > ds->C)
				ds->C = (int)r.value + 1;
		}
	}
	gs_rec_free(&r);
}

/*
 * The dataset of the task, checked.  Adaptation: a class for some items
 * at least (how many have none is said on stderr), two classes at least.
 * --predict: classes are optional, the model's (ds->Cm) where given.
 */
void
adapt_data_read(struct adapt_data *ds, const struct adapt_ask *o, int nfiles, char **files)
{
	static const char *const item[] = { "nodes", "edges", "graphs", "pairs" };

	graph_init(&ds->g);
	gs_reader_init(&ds->rd, nfiles, files);
	ds->rd.graph_check = o->graph_check;
	ds->rd.check_ctx = o->check_ctx;
	if (o->task == ADAPT_GRAPH)
		read_graphs(ds, o);
	else
		read_one_graph(ds, o);
	if (!ds->have_graph)
		die("no graph in the input");
	if (o->task == ADAPT_GRAPH) {
		ds->nitems = ds->ng;
		ds->nlab = 0;
		for (int i = 0; i < ds->ng; i++)
			ds->nlab += ds->y[i] >= 0;
	} else if (o->task == ADAPT_NODE) {
		ds->nitems = ds->g.n;
		if (!ds->y && ds->predict) { /* no truth at all */
			ds->y = xmallocarray((size_t)ds->g.n, sizeof *ds->y);
			for (int32_t v = 0; v < ds->g.n; v++)
				ds->y[v] = -1;
			ds->nlab = 0;
		}
	}
	if (ds->predict) {
		ds->C = ds->Cm;
		return;
	}
	if (o->task == ADAPT_LINKPRED) {
		if (o->attributes && !ds->A)
			die("graph %" PRId64
			    ": no 'attributes' tensor for --attributes/--attr-only",
			    ds->id);
		return;
	}
	if (o->task == ADAPT_GRAPH) {
		if (ds->nlab == 0)
			die("graphs of the input have no '%s' label record (--label)", o->label);
		if (ds->C < 2)
			die("one class only among the graphs");
		if (o->attributes)
			die_usage("--attributes and --attr-only are for node classification");
	} else {
		if (o->task == ADAPT_NODE && !ds->y)
			die("graph %" PRId64 ": no '%s' tensor of node classes (--label)", ds->id,
			    o->label);
		if (ds->nlab == 0)
			die("graph %" PRId64 ": no %s has a class (every %s is negative)", ds->id,
			    o->task == ADAPT_LINK ? "edge" : "node",
			    o->task == ADAPT_LINK ? "edge label" : "class");
		if (ds->C < 2)
			die("graph %" PRId64 ": one class only among the %s", ds->id,
			    o->task == ADAPT_LINK ? "edge labels" : "nodes");
		if (o->attributes && !ds->A)
			die("graph %" PRId64
			    ": no 'attributes' tensor for --attributes/--attr-only",
			    ds->id);
		if (o->attributes && ds->missing && !o->quiet)
			warnx_("graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes have no "
			       "attributes (zeros; the source file is partial)",
			       ds->id, ds->missing, ds->g.n);
	}
	if (ds->nlab < ds->nitems && !o->quiet)
		warnx_("%" PRId64 " of %" PRId64 " %s have no class (%s): never trained on, "
		       "validated or tested",
		       ds->nitems - ds->nlab, ds->nitems, item[o->task],
		       o->task == ADAPT_GRAPH  ? "no label record, or a negative one"
		       : o->task == ADAPT_LINK ? "a negative edge label: structure only"
					       : "a negative class");
}

void
adapt_data_free(struct adapt_data *ds)
{
	free(ds->class_names);
	free(ds->class_buf);
	free(ds->names_of);
	free(ds->y);
	graph_free(&ds->g);
	for (int i = 0; i < ds->ng; i++)
		graph_free(&ds->gs[i]);
	free(ds->gs);
	free(ds->eu);
	free(ds->ev);
	free(ds->A);
	free(ds->feat);
	for (int i = 0; i < ds->ng; i++)
		free(ds->gfeat[i]);
	free(ds->gfeat);
	feat_seen_free(&ds->fseen);
	free(ds->mvals);
	gs_reader_free(&ds->rd);
	free(ds->names);
	gs_rec_free(&ds->names_rec);
}

int64_t *
adapt_class_values(const char *list, int64_t C)
{
	int64_t *v = xmallocarray((size_t)C + 1, sizeof *v);
	const char *c = list;
	for (int64_t i = 0; i < C; i++) {
		char *end;
		v[i] = strtoll(c, &end, 10);
		c = *end ? end + 1 : end;
	}
	return v;
}
