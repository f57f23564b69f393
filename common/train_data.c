/*
 * train_data.c - gcn-train's input: the graphs of its streams, each with
 * the records that follow it, checked for the tasks (gcn-train(1), INPUT).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "model.h"
#include "modelio.h"
#include "train_data.h"

/* The record the rank or cluster task reads. */
static const char *
target_name(const struct train_data *ds, int t)
{
	return ds->ol ? ds->ol->task_target[t] : t == TASK_RANK ? "centrality" : "cluster";
}

/* A tensor r that objectives of ds->ol name as their target, into lg's
 * targets: n rows (kind node) or one (kind graph), numbers, no NaN. */
static void
attach_targets(gs_file *in, const struct train_data *ds, struct lgraph *lg, const gs_rec *r)
{
	for (int i = 0; ds->ol && i < ds->ol->n; i++) {
		const struct objective *ob = &ds->ol->o[i];
		int64_t rows = ob->kind == OBJ_GRAPH ? 1 : lg->g.n;
		if ((ob->kind != OBJ_NODE && ob->kind != OBJ_GRAPH) ||
		    strcmp(ob->target, r->name) != 0)
			continue;
		if (lg->tg[i].v)
			die("%s: graph %" PRId64 " has a second '%s' tensor", gs_where(in), lg->id,
			    r->name);
		if (r->rows != rows || r->cols < 1 || r->dtype == GS_NONE)
			die("%s: '%s' tensor of graph %" PRId64 " is %" PRId64 " x %" PRId64
			    ": objective %s (kind %s) takes %" PRId64 " row%s",
			    gs_where(in), r->name, lg->id, r->rows, r->cols, ob->name,
			    obj_kind_name(ob->kind), rows,
			    rows == 1 ? " (per=graph)" : "s, one a node");
		double *v = xmallocarray((size_t)(rows * r->cols) + 1, sizeof *v);
		for (int64_t j = 0; j < rows * r->cols; j++) {
			v[j] = r->dtype == GS_F64   ? ((const double *)r->data)[j]
			       : r->dtype == GS_F32 ? ((const float *)r->data)[j]
			       : r->dtype == GS_I32 ? ((const int32_t *)r->data)[j]
						    : (double)((const int64_t *)r->data)[j];
			if (!isfinite(v[j]))
				die("%s: '%s' tensor of graph %" PRId64 ": value %" PRId64
				    " is not finite",
				    gs_where(in), r->name, lg->id, j);
			if (ob->loss == OBJ_XENT &&
			    (v[j] != floor(v[j]) || v[j] < -1 || v[j] > 1e6))
				die("%s: '%s' tensor of graph %" PRId64 ": value %" PRId64
				    " is not a class (0, 1, ..., or -1 for none)",
				    gs_where(in), r->name, lg->id, j);
		}
		lg->tg[i].v = v;
		lg->tg[i].C = (int)r->cols;
	}
}

/* Attach a tensor or pairs record to the graph it follows. */
static void
attach(gs_file *in, struct train_data *ds, struct lgraph *lg, const gs_rec *r)
{
	int32_t n = lg->g.n;
	char msg[256];
	if (r->kind == GS_TENSOR && strcmp(r->name, "features") == 0) {
		const char *cols = r->columns ? r->columns : "";
		int differ;
		if (lg->feat)
			die("%s: graph %" PRId64 " has a second 'features' tensor", gs_where(in),
			    lg->id);
		differ = featstage_tensor(&ds->fseen, r, n, &lg->feat, &lg->F, msg, sizeof msg);
		if (differ < 0)
			die("%s: %s", gs_where(in), msg);
		if (differ & (FEAT_SEEN_COLUMNS | FEAT_SEEN_PAPER))
			die("%s: graph %" PRId64 ": 'features' columns '%.80s' (or scaling) differ "
			    "from earlier graphs' '%.80s'",
			    gs_where(in), lg->id, cols, ds->fseen.cols);
	} else if (r->kind == GS_TENSOR && strcmp(r->name, target_name(ds, TASK_CLUSTER)) == 0) {
		if (r->rows != n || r->cols < 1 || r->dtype != GS_I32)
			die("%s: '%s' tensor is not %" PRId32 " x 1 int32", gs_where(in), r->name,
			    n);
		free(lg->cluster);
		lg->cluster = xmallocarray((size_t)n + 1, sizeof *lg->cluster);
		lg->K = 0;
		for (int32_t v = 0; v < n; v++) {
			int32_t c = ((const int32_t *)r->data)[(int64_t)v * r->cols];
			if (c < 0 || c >= n)
				die("%s: node %" PRId32 ": cluster %" PRId32
				    " out of range 0..%" PRId32,
				    gs_where(in), v, c, n - 1);
			lg->cluster[v] = c;
			if (c + 1 > lg->K)
				lg->K = c + 1;
		}
	} else if (r->kind == GS_TENSOR && strcmp(r->name, target_name(ds, TASK_RANK)) == 0) {
		int col[MODEL_NCENT];
		if (r->rows != n || r->dtype != GS_F64)
			die("%s: '%s' tensor is not %" PRId32 " rows of float64", gs_where(in),
			    r->name, n);
		for (int t = 0; t < MODEL_NCENT; t++) {
			col[t] = gs_tensor_col(r, modelio_cent_cols[t]);
			if (col[t] < 0 && t == MODEL_NCENT - 1)
				col[t] = gs_tensor_col(r, "subgraph");
			if (col[t] < 0)
				die("%s: '%s' tensor has no column '%s'", gs_where(in), r->name,
				    modelio_cent_cols[t]);
		}
		free(lg->cent);
		lg->cent = xmallocarray((size_t)n * MODEL_NCENT + 1, sizeof *lg->cent);
		for (int32_t v = 0; v < n; v++)
			for (int t = 0; t < MODEL_NCENT; t++) {
				double x = ((const double *)r->data)[(int64_t)v * r->cols + col[t]];
				if (isnan(x))
					die("%s: node %" PRId32 ": %s is NaN", gs_where(in), v,
					    modelio_cent_cols[t]);
				lg->cent[(int64_t)v * MODEL_NCENT + t] = x;
			}
	} else if (r->kind == GS_PAIRS && strcmp(r->name, "mask") == 0) {
		if (r->ltype != GS_I32)
			die("%s: 'mask' pairs have no 0/1 labels", gs_where(in));
		lg->premasked = 1;
		lg->npairs = r->m;
		lg->pu = xreallocarray(lg->pu, (size_t)r->m + 1, sizeof *lg->pu);
		lg->pv = xreallocarray(lg->pv, (size_t)r->m + 1, sizeof *lg->pv);
		lg->plab = xreallocarray(lg->plab, (size_t)r->m + 1, 1);
		for (int64_t i = 0; i < r->m; i++) {
			int32_t l = ((const int32_t *)r->lab)[i];
			if (r->u[i] < 0 || r->u[i] >= n || r->v[i] < 0 || r->v[i] >= n ||
			    r->u[i] == r->v[i] || (l != 0 && l != 1))
				die("%s: pair %" PRId64 ": bad node or label", gs_where(in), i);
			lg->pu[i] = r->u[i];
			lg->pv[i] = r->v[i];
			lg->plab[i] = (uint8_t)l;
		}
	}
	if (r->kind == GS_TENSOR)
		attach_targets(in, ds, lg, r);
	/* other records (nodefeat_raw, ...) are not needed */
}

void
train_data_read(struct train_data *ds, const struct objlist *ol, int nfiles, char **files,
		int quiet, void (*check)(void *ctx, gs_file *in, const gs_rec *rec), void *ctx)
{
	struct lgraph *cur = NULL;
	gs_rec r;
	int k;

	ds->ol = ol;
	gs_rec_init(&r);
	gs_reader_init(&ds->rd, nfiles, files);
	ds->rd.graph_check = check;
	ds->rd.check_ctx = ctx;
	while ((k = gs_reader_next(&ds->rd, &r)) > 0) {
		gs_file *in = ds->rd.in;
		if (ds->rd.file_changed)
			cur = NULL; /* records follow a graph of their own input */
		if (k == GS_GRAPH) {
			struct lgraph *lg = batch_lgraph_new(r.id);
			if (gs_graph_build(in, &r, &lg->g, quiet) != 0)
				die("%s", gs_strerror(in));
			if (ds->n == ds->cap) {
				ds->cap = ds->cap ? 2 * ds->cap : 64;
				ds->g = xreallocarray(ds->g, (size_t)ds->cap, sizeof *ds->g);
			}
			ds->g[ds->n++] = cur = lg;
			continue;
		}
		if (k == GS_MODEL)
			die("%s: a model record is not training data", gs_where(in));
		if (!cur || r.id != cur->id)
			die("%s: %s record for graph %" PRId64 " does not follow its graph",
			    gs_where(in), gs_kind_name(k), r.id);
		attach(in, ds, cur, &r);
	}
	gs_rec_free(&r);
}

/* Objective i's width from graph lg's targets: its columns, or its
 * classes (kind node, loss xent: the largest class + 1). */
static int
target_width(const struct objective *ob, const struct lgraph *lg, int i)
{
	if (!(ob->kind == OBJ_NODE && ob->loss == OBJ_XENT))
		return lg->tg[i].C;
	double mx = -1;
	for (int32_t v = 0; v < lg->g.n; v++)
		mx = lg->tg[i].v[v] > mx ? lg->tg[i].v[v] : mx;
	return (int)mx + 1;
}

/* The width of objective i's targets over ds, checked, into ob->width;
 * the means and deviations of its columns for loss mse. */
static void
check_targets(struct train_data *ds, struct objective *ob, int i)
{
	int C = 0, xent = ob->kind == OBJ_NODE && ob->loss == OBJ_XENT;

	for (int64_t g = 0; g < ds->n; g++) {
		const struct lgraph *lg = ds->g[g];
		if (!lg->tg[i].v)
			die("graph %" PRId64 ": no '%s' tensor, the target of objective %s (%s)",
			    lg->id, ob->target, ob->name,
			    ob->kind == OBJ_GRAPH ? "graphstat(1) makes one" : "a node tensor");
		if (!xent && g > 0 && lg->tg[i].C != C)
			die("graph %" PRId64 ": '%s' has %d columns, graph %" PRId64 "'s %d",
			    lg->id, ob->target, lg->tg[i].C, ds->g[0]->id, C);
		if (xent && lg->tg[i].C != 1)
			die("graph %" PRId64 ": '%s' has %d columns: objective %s takes one class "
			    "a node",
			    lg->id, ob->target, lg->tg[i].C, ob->name);
		int w = target_width(ob, lg, i);
		C = xent ? (w > C ? w : C) : w;
	}
	if (xent && C < 2)
		die("objective %s: '%s' holds %d class%s: at least 2 are needed", ob->name,
		    ob->target, C, C == 1 ? "" : "es");
	if (ob->width && ob->width != C && !(xent && ob->width > C))
		die("objective %s: width=%d, but its targets '%s' have %d %s", ob->name, ob->width,
		    ob->target, C, xent ? "classes" : "columns");
	if (!ob->width)
		ob->width = C;
	if (ob->loss != OBJ_MSE)
		return;
	/* each column standardised over the input's graphs (a constant
	 * column: centred only) */
	double *mu = xcalloc((size_t)C, sizeof *mu), *sd = xcalloc((size_t)C, sizeof *sd), cnt = 0;
	for (int64_t g = 0; g < ds->n; g++) {
		const struct lgraph *lg = ds->g[g];
		int64_t rows = ob->kind == OBJ_GRAPH ? 1 : lg->g.n;
		for (int64_t r = 0; r < rows; r++)
			for (int c = 0; c < C; c++)
				mu[c] += lg->tg[i].v[r * C + c];
		cnt += (double)rows;
	}
	for (int c = 0; c < C; c++)
		mu[c] /= cnt;
	for (int64_t g = 0; g < ds->n; g++) {
		const struct lgraph *lg = ds->g[g];
		int64_t rows = ob->kind == OBJ_GRAPH ? 1 : lg->g.n;
		for (int64_t r = 0; r < rows; r++)
			for (int c = 0; c < C; c++) {
				double e = lg->tg[i].v[r * C + c] - mu[c];
				sd[c] += e * e;
			}
	}
	for (int c = 0; c < C; c++)
		sd[c] = sd[c] > 0 ? sqrt(sd[c] / cnt) : 1;
	ds->mu[i] = mu;
	ds->sd[i] = sd;
}

void
train_data_check(struct train_data *ds, struct objlist *ol, int quiet)
{
	int tasks = ol->tasks;

	if (ds->n == 0)
		die("no graphs in the input");
	/* the cluster task needs clusters; a mixed corpus has some graphs
	 * without (graph-gen's families without a planted partition), which
	 * it leaves out, when at least one has them */
	int64_t unclustered = 0, first = -1;
	for (int64_t i = 0; i < ds->n; i++)
		if (!ds->g[i]->cluster && unclustered++ == 0)
			first = ds->g[i]->id;
	if ((tasks & 1 << TASK_CLUSTER) && unclustered == ds->n)
		die("graph %" PRId64 ": no '%s' tensor (graphs from dcbm-gen have one); "
		    "or leave out the cluster task with --tasks",
		    first, ol->task_target[TASK_CLUSTER]);
	if ((tasks & 1 << TASK_CLUSTER) && unclustered && !quiet)
		warnx_("%" PRId64 " of %" PRId64 " graphs (the first: %" PRId64 ") have no '%s' "
		       "tensor: the cluster task leaves them out (its loss and accuracy count "
		       "the others)",
		       unclustered, ds->n, first, ol->task_target[TASK_CLUSTER]);
	for (int64_t i = 0; i < ds->n; i++) {
		struct lgraph *lg = ds->g[i];
		if ((tasks & 1 << TASK_RANK) && !lg->cent)
			die("graph %" PRId64 ": no '%s' tensor (run centrality first); "
			    "or leave out the rank task with --tasks",
			    lg->id, ol->task_target[TASK_RANK]);
		/* tasks that are off still get harmless placeholders; a graph
		 * the cluster task leaves out, no cluster (K = 0) */
		if (!lg->cluster) {
			lg->cluster = xcalloc((size_t)lg->g.n + 1, sizeof *lg->cluster);
			lg->K = tasks & 1 << TASK_CLUSTER ? 0 : 1;
		}
		if (!lg->cent)
			lg->cent = xcalloc((size_t)lg->g.n * MODEL_NCENT + 1, sizeof *lg->cent);
		if (lg->g.n == 0)
			die("graph %" PRId64 ": no nodes", lg->id);
	}
	for (int i = 0; i < ol->n; i++)
		if (ol->o[i].kind == OBJ_NODE || ol->o[i].kind == OBJ_GRAPH)
			check_targets(ds, &ol->o[i], i);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void
train_data_renumber(struct train_data *ds, int quiet)
{
	int64_t *ids = xmallocarray((size_t)ds->n + 1, sizeof *ids), distinct = 0;

	for (int64_t i = 0; i < ds->n; i++)
		ids[i] = ds->g[i]->id;
	qsort(ids, (size_t)ds->n, sizeof *ids, cmp_i64);
	for (int64_t i = 0; i < ds->n; i++)
		distinct += i == 0 || ids[i] != ids[i - 1];
	free(ids);
	if (distinct == ds->n)
		return;
	for (int64_t i = 0; i < ds->n; i++)
		ds->g[i]->id = i;
	if (!quiet)
		warnx_("%" PRId64 " graphs carry %" PRId64 " distinct ids (cat of edge lists or "
		       "of streams numbered from 0?), and masks are drawn by graph id: the "
		       "graphs are numbered 0..%" PRId64 " in input order instead",
		       ds->n, distinct, ds->n - 1);
}

void
train_data_free(struct train_data *ds)
{
	for (int64_t i = 0; i < ds->n; i++)
		batch_lgraph_free(ds->g[i]);
	free(ds->g);
	feat_seen_free(&ds->fseen);
	gs_reader_free(&ds->rd);
	for (int i = 0; i < OBJ_MAX; i++) {
		free(ds->mu[i]);
		free(ds->sd[i]);
	}
}
