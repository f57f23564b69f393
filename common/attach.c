/* attach.c - what graph-attach does; see attach.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "err.h"
#include "filter.h"

/* die() with a message that quotes the table (its column names, cells,
 * node names): control bytes become '?', so that it stays one line. */
static void __attribute__((format(printf, 1, 2), noreturn)) die_line(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	err_one_line(buf);
	die("%s", buf);
}

/* ---- the table's columns ---- */

static int
need_col(const struct attach *s, const char *name, const char *opt)
{
	int c = import_table_col(&s->t, name);

	if (c < 0)
		die_line("%s: no column '%s' (%s; the columns: %s%s%s%s)", s->t.path, name, opt,
			 s->t.col[0], s->t.ncols > 1 ? ", " : "", s->t.ncols > 1 ? s->t.col[1] : "",
			 s->t.ncols > 2 ? ", ..." : "");
	if (c == s->kcol)
		die_usage("%s: '%s' is the key column (--key)", opt, name);
	return c;
}

/* --attributes: "all" (every column but the key, label and cluster ones)
 * or a list of names. */
static void
attr_cols(struct attach *s)
{
	char *list = xstrdup(s->attributes), *save = NULL;
	size_t at = 0;

	s->acols = xcalloc((size_t)s->t.ncols + 1, sizeof *s->acols);
	if (strcmp(s->attributes, "all") == 0) {
		for (int c = 0; c < s->t.ncols; c++)
			if (c != s->kcol && c != s->lcol && c != s->ccol)
				s->acols[s->na++] = c;
	} else {
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int c = need_col(s, w, "--attributes");
			for (int j = 0; j < s->na; j++)
				if (s->acols[j] == c)
					die_usage("--attributes: '%s' twice", w);
			if (s->na == s->t.ncols)
				break;
			s->acols[s->na++] = c;
		}
	}
	free(list);
	if (s->na == 0)
		die_usage("--attributes: no column left to take");
	for (int j = 0; j < s->na; j++) {
		const char *nm = s->t.col[s->acols[j]];
		if (strchr(nm, ','))
			die_line("%s: column '%.40s' holds a comma: not a tensor column name",
				 s->t.path, nm);
		if (at + strlen(nm) + 2 > sizeof s->acolumns)
			die_line("%s: --attributes: the column names exceed %zu bytes", s->t.path,
				 sizeof s->acolumns);
		at += (size_t)sprintf(s->acolumns + at, "%s%s", j ? "," : "", nm);
	}
}

/* A .npy table without column options: a 1-D integer array is classes,
 * anything else attributes. */
static void
npy_defaults(struct attach *s)
{
	if (s->label || s->cluster || s->attributes)
		return;
	if (s->t.npy_int && s->t.ncols == 1)
		s->label = "c0";
	else if (!s->graphs)
		s->attributes = "all";
}

void
attach_code_table(struct attach *s)
{
	char msg[8192];
	struct lr_err err = { msg, sizeof msg };

	if (import_table_read(&s->t, s->path, s->delim, err) != 0)
		die("%s", msg);
	if (s->t.npy)
		npy_defaults(s);
	if (!s->label && !s->cluster && !s->attributes)
		die_usage("nothing to attach: give --label, --cluster or --attributes");
	if (s->t.npy && s->by == ATTACH_BY_AUTO)
		s->by = TABLE_BY_ORDER;
	if (s->t.npy && s->by != TABLE_BY_ORDER)
		die_usage("--by: a .npy table has no key column: --by order");
	s->kcol = s->lcol = s->ccol = -1;
	if (s->by != TABLE_BY_ORDER && (s->kcol = s->key ? import_table_col(&s->t, s->key) : 0) < 0)
		die_line("%s: no column '%s' (--key)", s->t.path, s->key);
	if (s->label) {
		s->lcol = need_col(s, s->label, "--label");
		s->lab = xmallocarray((size_t)s->t.nrows, sizeof *s->lab);
		import_table_classes(&s->t, s->lcol, s->unknown, s->lab, &s->lcls);
		if (s->lcls.names.n == 0)
			die_line(
			    "%s: column '%s': no row has a class (every cell is empty or '%s')",
			    s->t.path, s->label, s->unknown);
		if (s->lcls.names.n > 1000000)
			die_line("%s: column '%s': %" PRId32 " classes; at most 1000000", s->t.path,
				 s->label, s->lcls.names.n);
		s->class_names = import_class_list(&s->lcls);
	}
	if (s->cluster) {
		s->ccol = need_col(s, s->cluster, "--cluster");
		s->clu = xmallocarray((size_t)s->t.nrows, sizeof *s->clu);
		import_table_classes(&s->t, s->ccol, s->unknown, s->clu, &s->ccls);
		for (int64_t r = 0; r < s->t.nrows; r++)
			if (s->clu[r] < 0)
				die_line(
				    "%s: column '%s' is empty or '%s' (--unknown): gcn-train's "
				    "cluster task needs every node's cluster",
				    import_table_where(&s->t, r, msg, sizeof msg), s->cluster,
				    s->unknown);
	}
	if (s->attributes) {
		attr_cols(s);
		s->attr = xmallocarray((size_t)s->t.nrows, (size_t)s->na * sizeof *s->attr);
		if (import_table_floats(&s->t, s->acols, s->na, s->attr, err) != 0)
			die("%s", msg);
	}
}

/* ---- nodes ---- */

/* The attributes of a label tensor or record: the column, the classes
 * and their names (left out, with one warning, past 64 KiB: the header
 * of a record is at most 1 MiB). */
static void
label_attrs(struct attach *s, gs_rec *r)
{
	gs_attr_set(r, "column", s->label);
	gs_attr_setf(r, "classes", "%" PRId32, s->lcls.names.n);
	if (strlen(s->class_names) < 65536)
		gs_attr_set(r, "class_names", s->class_names);
	else if (!s->c.quiet && s->said_long++ == 0)
		warnx_("%s: the class names of '%s' are too long for the record header: "
		       "left out",
		       s->t.path, s->label);
}

static void
put_labels(struct attach *s, const struct filter_graph *fg)
{
	int32_t n = fg->rec->n, *y;
	int64_t none = 0;

	gs_rec_tensor(&s->out, fg->rec->id, s->label_name, n, 1, GS_I32, s->label_name);
	y = s->out.data;
	for (int32_t v = 0; v < n; v++) {
		y[v] = s->row_of[v] >= 0 ? s->lab[s->row_of[v]] : -1;
		none += y[v] < 0;
	}
	label_attrs(s, &s->out);
	gs_attr_setf(&s->out, "unlabelled", "%" PRId64, none);
	gs_write1(fg->out, &s->out);
}

static void
put_clusters(struct attach *s, const struct filter_graph *fg)
{
	int32_t n = fg->rec->n, *y;
	const char **names = fg->names ? gs_names_list(fg->names) : NULL;

	gs_rec_tensor(&s->out, fg->rec->id, "cluster", n, 1, GS_I32, "cluster");
	y = s->out.data;
	for (int32_t v = 0; v < n; v++) {
		if (s->row_of[v] < 0)
			die_line("%s: graph %" PRId64 ": node %" PRId32 "%s%s%s is not in %s: "
				 "gcn-train's cluster task needs every node's cluster",
				 gs_name(fg->in), fg->rec->id, v, names ? " ('" : "",
				 names ? names[v] : "", names ? "')" : "", s->t.path);
		y[v] = s->clu[s->row_of[v]];
	}
	free(names);
	gs_attr_set(&s->out, "column", s->cluster);
	gs_attr_setf(&s->out, "clusters", "%" PRId32, s->ccls.names.n);
	gs_write1(fg->out, &s->out);
}

/* The attributes; the nodes the table misses get zeros, marked in a
 * 'has_attributes' tensor as graph-import -f linqs marks them. */
static void
put_attributes(struct attach *s, const struct filter_graph *fg, int64_t missing)
{
	int32_t n = fg->rec->n, *has;
	size_t k = (size_t)s->na;
	float *x;

	gs_rec_tensor(&s->out, fg->rec->id, "attributes", n, s->na, GS_F32, s->acolumns);
	x = s->out.data;
	for (int32_t v = 0; v < n; v++)
		if (s->row_of[v] >= 0)
			memcpy(x + v * k, s->attr + (size_t)s->row_of[v] * k, k * sizeof *x);
		else
			memset(x + v * k, 0, k * sizeof *x);
	gs_write1(fg->out, &s->out);
	if (missing == 0)
		return;
	gs_rec_tensor(&s->out, fg->rec->id, "has_attributes", n, 1, GS_I32, "has_attributes");
	has = s->out.data;
	for (int32_t v = 0; v < n; v++)
		has[v] = s->row_of[v] >= 0;
	gs_write1(fg->out, &s->out);
}

static void
one_graph(void *ctx, const struct filter_graph *fg)
{
	struct attach *s = ctx;
	int32_t n = fg->rec->n;
	int by = s->by;
	char msg[8192];
	int64_t unmatched, missing = 0;
	const char **names = NULL;

	if (fg->index > 0)
		die("%s: a second graph (id %" PRId64 "): a node table describes one graph "
		    "(--graphs: a table of graphs)",
		    gs_name(fg->in), fg->rec->id);
	if (by == ATTACH_BY_AUTO)
		by = fg->names ? TABLE_BY_NAME : TABLE_BY_ID;
	if (by == TABLE_BY_NAME && !fg->names)
		die("%s: graph %" PRId64 " has no node names (no names record): --by id",
		    gs_name(fg->in), fg->rec->id);
	if (fg->names)
		names = gs_names_list(fg->names);
	s->row_of = xreallocarray(s->row_of, (size_t)n + 1, sizeof *s->row_of);
	if (import_table_match(&s->t, by, s->kcol, names, n, s->skip, s->row_of, &unmatched,
			       (struct lr_err){ msg, sizeof msg }) != 0)
		die("%s%s", msg,
		    by == TABLE_BY_ID && fg->names && s->by == ATTACH_BY_AUTO ? " (--by name?)"
									      : "");
	free(names);
	for (int32_t v = 0; v < n; v++)
		missing += s->row_of[v] < 0;
	/* said at the end, so that an error (a second graph) is the one line */
	s->warn[0][0] = s->warn[1][0] = '\0';
	if (unmatched > 0)
		snprintf(s->warn[0], sizeof s->warn[0],
			 "%s: dropped %" PRId64 " of %" PRId64 " rows naming no node of graph "
			 "%" PRId64 " (--skip-unknown)",
			 s->t.path, unmatched, s->t.nrows, fg->rec->id);
	if (missing > 0 && (s->label || s->attributes))
		snprintf(
		    s->warn[1], sizeof s->warn[1],
		    "%s: graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes are not in %s: %s",
		    gs_name(fg->in), fg->rec->id, missing, n, s->t.path,
		    s->label ? "class -1 (none)" : "zero attributes ('has_attributes' marks them)");
	if (s->label)
		put_labels(s, fg);
	if (s->cluster)
		put_clusters(s, fg);
	if (s->attributes)
		put_attributes(s, fg, missing);
}

void
attach_nodes(struct attach *s, int nfiles, char **files, int argc, char **argv)
{
	struct filter f;
	int k = 0;

	if (s->label)
		s->replaces[k++] = s->label_name;
	if (s->cluster)
		s->replaces[k++] = "cluster";
	if (s->attributes) {
		s->replaces[k++] = "attributes";
		s->replaces[k++] = "has_attributes";
	}
	memset(&f, 0, sizeof f);
	f.c = &s->c;
	f.replaces = s->replaces;
	f.want_names = 1;
	f.graph_fn = one_graph;
	f.ctx = s;
	if (filter_run(&f, nfiles, files, argc, argv) == 0)
		die("no graph in the input");
	for (int i = 0; i < 2 && !s->c.quiet; i++)
		if (s->warn[i][0])
			warnx_("%s", s->warn[i]);
}

/* ---- graphs ---- */

/* Graph g of the input (its id): its class, or -1. */
static int32_t
graph_class(struct attach *s, const smap *keys, int64_t g, int64_t id)
{
	char b[32];
	int32_t row;

	if (s->by == TABLE_BY_ORDER) {
		row = g < s->t.nrows ? (int32_t)g : -1;
	} else {
		snprintf(b, sizeof b, "%" PRId64, id);
		row = smap_get(keys, b);
	}
	if (g % 256 == 0)
		s->row_of = xreallocarray(s->row_of, (size_t)g + 256, sizeof *s->row_of);
	s->row_of[g] = row;
	return row >= 0 ? s->lab[row] : -1;
}

/* The rows that named no graph, the graphs that had no row. */
static void
graphs_checked(struct attach *s, int64_t n)
{
	char msg[8192];
	int64_t unmatched, missing = 0;

	if (n == 0)
		die("no graph in the input");
	if (import_table_unused(&s->t, s->kcol, s->row_of, n, "a graph of the input", s->skip,
				&unmatched, (struct lr_err){ msg, sizeof msg }) != 0)
		die("%s", msg);
	if (unmatched > 0 && !s->c.quiet)
		warnx_("%s: dropped %" PRId64 " of %" PRId64 " rows naming no graph of the input "
		       "(--skip-unknown)",
		       s->t.path, unmatched, s->t.nrows);
	for (int64_t g = 0; g < n; g++)
		missing += s->row_of[g] < 0;
	if (missing > 0 && !s->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " graphs are not in %s: class -1 (none)", missing,
		       n, s->t.path);
}

/* --graphs: each graph, then its label record; a label record of that
 * name in the input is dropped (replaced).  The rows that name no graph
 * are known at the end: the error then comes after the records (with -o,
 * no file is left). */
void
attach_graphs(struct attach *s, int nfiles, char **files, int argc, char **argv)
{
	char msg[8192], *std[] = { "-" };
	smap keys = { 0 };
	gs_file *out;
	int64_t g = 0;
	graph csr;
	gs_rec r;
	int k;

	if (s->by == ATTACH_BY_AUTO)
		s->by = TABLE_BY_ID;
	if (s->by == TABLE_BY_ID &&
	    import_table_keys(&s->t, s->kcol, 1, &keys, (struct lr_err){ msg, sizeof msg }) != 0)
		die("%s", msg);
	if (nfiles == 0) {
		files = std;
		nfiles = 1;
	}
	out = gs_open_out(&s->c, argc, argv);
	gs_rec_init(&r);
	graph_init(&csr);
	for (int i = 0; i < nfiles; i++) {
		gs_file *in = gs_open_in(files[i], msg, sizeof msg);
		if (in == NULL)
			die("%s", msg);
		while ((k = gs_read1(in, &r)) >= 0) {
			if (k == GS_LABEL && strcmp(r.name, s->label_name) == 0)
				continue;
			if (k == GS_GRAPH && gs_graph_build(in, &r, &csr, s->c.quiet) < 0)
				die("%s", gs_strerror(in)); /* an edge list is simplified */
			gs_write1(out, &r);
			if (k != GS_GRAPH)
				continue;
			int64_t id = r.id;
			gs_rec_label(&r, id, s->label_name, graph_class(s, &keys, g++, id));
			label_attrs(s, &r);
			gs_write1(out, &r);
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	graphs_checked(s, g);
	gs_close(out);
	smap_free(&keys);
	graph_free(&csr);
	gs_rec_free(&r);
}

void
attach_free(struct attach *s)
{
	import_table_free(&s->t);
	import_class_free(&s->lcls);
	import_class_free(&s->ccls);
	free(s->lab);
	free(s->clu);
	free(s->attr);
	free(s->acols);
	free(s->class_names);
	free(s->row_of);
	gs_rec_free(&s->out);
}
