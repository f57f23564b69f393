/*
 * import_tu.c - the TU Dortmund graph kernel format (IMDB-BINARY,
 * PROTEINS, ...); see import.h.  PREFIX_graph_labels.txt holds one class
 * a graph, PREFIX_graph_indicator.txt the graph (1..G) of each node,
 * PREFIX_A.txt the adjacency entries "i, j" (1-based, both directions);
 * optional node labels, node attributes and edge labels, line by line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import.h"

/* Everything an import holds, freed at the end whatever happened. */
struct tu {
	const struct import_opts *o;
	const char *prefix;
	struct lr_err err;
	lreader r, el; /* el: the edge labels, read beside A */
	fields fs;
	classes gcls, ncls;
	edges es;
	int32_t *glab;		  /* (G) class of each graph, by appearance */
	int32_t *gid, *lid;	  /* (N) graph of each node, its index there */
	int32_t *count;		  /* (G) nodes of each graph */
	int32_t *nlab;		  /* (N) node classes */
	int64_t *entries, *loops; /* (G) adjacency entries, self-loops */
	float *nattr;		  /* (N x na) */
	char *nnames;		  /* node class names */
	int64_t G, N, na;
	int has_nlab, has_nattr, has_elab;
};

static void
tu_free(struct tu *t)
{
	lr_close(&t->r);
	lr_close(&t->el);
	lr_fields_free(&t->fs);
	import_class_free(&t->gcls);
	import_class_free(&t->ncls);
	free(t->es.e);
	free(t->glab);
	free(t->gid);
	free(t->lid);
	free(t->count);
	free(t->nlab);
	free(t->entries);
	free(t->loops);
	free(t->nattr);
	free(t->nnames);
}

/* Open PREFIX_what.txt (or .txt.gz) into r: 0; 1 if it is absent and
 * optional; -1 with msg. */
static int
tu_open(struct tu *t, lreader *r, const char *what, int required)
{
	char p[4096];
	int rc;

	snprintf(p, sizeof p, "%s_%s.txt", t->prefix, what);
	if ((rc = lr_try(r, p, t->o->src, t->err)) == 1 && required)
		return lr_fail(t->err, "%s: No such file or directory", p);
	return rc;
}

/* graph labels: G lines, one integer class each */
static int
read_graph_labels(struct tu *t)
{
	lreader *r = &t->r;
	int64_t gcap = 0;
	int k;

	if (tu_open(t, r, "graph_labels", 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		char *s = lr_trim(r->buf), canon[32];
		int64_t x;
		if (*s == '\0')
			return lr_bad(r, "empty line");
		if (lr_need_i64(r, s, INT32_MIN, INT32_MAX, "graph label", &x) != 0)
			return -1;
		snprintf(canon, sizeof canon, "%" PRId64, x);
		if (t->G == gcap) {
			gcap = gcap ? 2 * gcap : 1024;
			t->glab = xreallocarray(t->glab, (size_t)gcap, sizeof *t->glab);
		}
		if (t->G >= INT32_MAX)
			return lr_bad(r, "too many graphs");
		t->glab[t->G++] = import_class_add(&t->gcls, canon);
	}
	if (k < 0)
		return -1;
	if (t->G == 0)
		return lr_fail(t->err, "%s: no graphs", r->path);
	lr_close(r);
	import_class_finish(&t->gcls);
	return 0;
}

/* graph indicator: line i holds the graph (1..G) of node i */
static int
read_indicator(struct tu *t)
{
	lreader *r = &t->r;
	int64_t ncap = 0, g;
	int k;

	t->count = xcalloc((size_t)t->G, sizeof *t->count);
	if (tu_open(t, r, "graph_indicator", 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		char *s = lr_trim(r->buf);
		if (*s == '\0')
			return lr_bad(r, "empty line");
		if (lr_need_i64(r, s, 1, t->G, "graph id", &g) != 0)
			return -1;
		g--;
		if (t->N == ncap) {
			ncap = ncap ? 2 * ncap : 4096;
			t->gid = xreallocarray(t->gid, (size_t)ncap, sizeof *t->gid);
			t->lid = xreallocarray(t->lid, (size_t)ncap, sizeof *t->lid);
		}
		if (t->N >= GS_MAX_NODES)
			return lr_bad(r, "too many nodes");
		t->gid[t->N] = (int32_t)g;
		t->lid[t->N] = t->count[g]++;
		t->N++;
	}
	if (k < 0)
		return -1;
	for (g = 0; g < t->G; g++)
		if (t->count[g] == 0)
			return lr_fail(t->err,
				       "%s: graph %" PRId64 " (of %" PRId64 " in the graph "
				       "labels) has no nodes",
				       r->path, g + 1, t->G);
	lr_close(r);
	return 0;
}

/* optional node labels: N lines, an integer each (the first field) */
static int
read_node_labels(struct tu *t)
{
	lreader *r = &t->r;
	int64_t n = 0, x;
	int32_t *tmp;
	int k;

	if ((k = tu_open(t, r, "node_labels", 0)) != 0)
		return k < 0 ? -1 : 0;
	t->has_nlab = 1;
	tmp = xmallocarray((size_t)t->N, sizeof *tmp);
	while ((k = lr_next(r)) > 0) {
		char canon[32];
		lr_split(&t->fs, r->buf, ",");
		if (n >= t->N) {
			k = lr_bad(r,
				   "more lines than the %" PRId64 " nodes of the graph indicator",
				   t->N);
			break;
		}
		if ((k = lr_need_i64(r, t->fs.f[0], INT32_MIN, INT32_MAX, "node label", &x)) != 0)
			break;
		snprintf(canon, sizeof canon, "%" PRId64, x);
		tmp[n++] = import_class_add(&t->ncls, canon);
	}
	if (k == 0 && n != t->N)
		k = lr_fail(t->err,
			    "%s: %" PRId64 " lines, want %" PRId64 " (the nodes of the "
			    "graph indicator)",
			    r->path, n, t->N);
	if (k == 0) {
		lr_close(r);
		import_class_finish(&t->ncls);
		t->nlab = xmallocarray((size_t)t->N, sizeof *t->nlab);
		for (int64_t i = 0; i < t->N; i++)
			t->nlab[i] = t->ncls.rank[tmp[i]];
		t->nnames = import_class_list(&t->ncls);
	}
	free(tmp);
	return k;
}

/* optional node attributes: N lines of comma-separated numbers */
static int
read_node_attributes(struct tu *t)
{
	lreader *r = &t->r;
	int64_t n = 0;
	int k;

	t->na = -1;
	if ((k = tu_open(t, r, "node_attributes", 0)) != 0)
		return k < 0 ? -1 : 0;
	t->has_nattr = 1;
	while ((k = lr_next(r)) > 0) {
		lr_split(&t->fs, r->buf, ",");
		if (t->na < 0) {
			t->na = t->fs.n;
			t->nattr = xmallocarray((size_t)t->N, (size_t)t->na * sizeof *t->nattr);
		}
		if (t->fs.n != t->na)
			return lr_bad(r, "%d fields, want %" PRId64 " as on line 1", t->fs.n,
				      t->na);
		if (n >= t->N)
			return lr_bad(r,
				      "more lines than the %" PRId64 " nodes of the graph "
				      "indicator",
				      t->N);
		for (int64_t i = 0; i < t->na; i++)
			if (lr_need_f32(r, t->fs.f[i], "attribute", &t->nattr[n * t->na + i]) != 0)
				return -1;
		n++;
	}
	if (k < 0)
		return -1;
	if (n != t->N)
		return lr_fail(t->err,
			       "%s: %" PRId64 " lines, want %" PRId64 " (the nodes of the "
			       "graph indicator)",
			       r->path, n, t->N);
	lr_close(r);
	return 0;
}

/* The label of the adjacency entry on line `line` of A (edge labels). */
static int
edge_label(struct tu *t, int64_t *lab)
{
	int k = lr_next(&t->el);

	if (k < 0)
		return -1;
	if (k == 0)
		return lr_fail(t->err, "%s: fewer lines than the %" PRId64 "+ entries of %s",
			       t->el.path, t->r.line, t->r.path);
	lr_split(&t->fs, t->el.buf, ",");
	return lr_need_i64(&t->el, t->fs.f[0], INT32_MIN, INT32_MAX, "edge label", lab);
}

/* One adjacency entry "i, j" of A. */
static int
adjacency_entry(struct tu *t)
{
	lreader *r = &t->r;
	int64_t a, b, g, lab = 0;

	if (lr_blank(r->buf))
		return lr_bad(r, "empty line");
	lr_split(&t->fs, r->buf, ",");
	if (t->fs.n != 2)
		return lr_bad(r, "%d fields, want 'i, j'", t->fs.n);
	if (lr_need_i64(r, t->fs.f[0], 1, t->N, "node id", &a) != 0 ||
	    lr_need_i64(r, t->fs.f[1], 1, t->N, "node id", &b) != 0)
		return -1;
	a--;
	b--;
	if (t->gid[a] != t->gid[b])
		return lr_bad(
		    r, "edge between graph %d (node %" PRId64 ") and graph %d (node %" PRId64 ")",
		    t->gid[a] + 1, a + 1, t->gid[b] + 1, b + 1);
	if (t->has_elab && edge_label(t, &lab) != 0)
		return -1;
	g = t->gid[a];
	t->entries[g]++;
	if (a == b)
		t->loops[g]++;
	import_edge_add(&t->es, (int32_t)g, t->lid[a], t->lid[b], (int32_t)lab, r->line);
	return 0;
}

/* adjacency, with optional edge labels line by line */
static int
read_adjacency(struct tu *t)
{
	lreader *r = &t->r;
	int64_t A = 0, bad_g;
	int k;

	if ((k = tu_open(t, &t->el, "edge_labels", 0)) < 0)
		return -1;
	t->has_elab = k == 0;
	t->entries = xcalloc((size_t)t->G, sizeof *t->entries);
	t->loops = xcalloc((size_t)t->G, sizeof *t->loops);
	if (tu_open(t, r, "A", 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		if (adjacency_entry(t) != 0)
			return -1;
		A++;
	}
	if (k < 0)
		return -1;
	if (t->has_elab && (k = lr_next(&t->el)) != 0)
		return k < 0 ? -1
			     : lr_bad(&t->el, "more lines than the %" PRId64 " entries of %s", A,
				      r->path);
	lr_close(r);
	bad_g = import_edges_finish(&t->es, t->has_elab);
	if (bad_g >= 0) {
		const edge *e = &t->es.e[bad_g];
		return lr_fail(t->err,
			       "%s: line %" PRId64 ": graph %d: the edge between its nodes %" PRIu32
			       " and %" PRIu32 " (1-based, local) has two different labels",
			       t->el.path, e->line, e->g + 1, (uint32_t)(e->key >> 32) + 1,
			       (uint32_t)e->key + 1);
	}
	lr_close(&t->el);
	if (t->es.loops > 0 && !t->o->quiet)
		warnx_("%s_A.txt: dropped %" PRId64 " self-loop entries", t->prefix, t->es.loops);
	return 0;
}

/* Graph g's node tensors: node_label, attributes (nodes in local order,
 * perm). */
static void
write_node_tensors(struct tu *t, gs_file *out, gs_rec *rec, int64_t g, const int64_t *perm,
		   int32_t *ln, float *lnattr)
{
	int64_t na = t->na, c = t->count[g];

	if (t->has_nlab) {
		for (int64_t i = 0; i < c; i++)
			ln[i] = t->nlab[perm[i]];
		gs_rec_tensor(rec, g, "node_label", c, 1, GS_I32, "node_label");
		memcpy(rec->data, ln, (size_t)c * sizeof *ln);
		gs_attr_set(rec, "class_names", t->nnames);
		gs_write1(out, rec);
	}
	if (t->has_nattr) {
		for (int64_t i = 0; i < c; i++)
			memcpy(lnattr + i * na, t->nattr + perm[i] * na,
			       (size_t)na * sizeof *lnattr);
		gs_rec_tensor(rec, g, "attributes", c, na, GS_F32, NULL);
		memcpy(rec->data, lnattr, (size_t)(c * na) * sizeof *lnattr);
		gs_write1(out, rec);
	}
}

/* write: per graph, the graph, its node tensors, its label */
static void
write_tu(struct tu *t, gs_file *out)
{
	static const char *const sfx[] = { NULL };
	int64_t G = t->G, N = t->N, e0 = 0, e1, g, i;
	char dataset[256], *gnames = import_class_list(&t->gcls);
	int64_t *pos = xcalloc((size_t)G, sizeof *pos);
	int64_t *start = xcalloc((size_t)G + 1, sizeof *start);
	int64_t *perm = xmallocarray((size_t)N, sizeof *perm);
	int32_t *ln = t->has_nlab ? xmallocarray((size_t)N, sizeof *ln) : NULL;
	float *lnattr =
	    t->has_nattr ? xmallocarray((size_t)N, (size_t)t->na * sizeof *lnattr) : NULL;
	gs_rec rec;

	import_dataset(dataset, sizeof dataset, t->o, t->prefix, sfx);
	gs_rec_init(&rec);
	/* node j of graph g in local order: nodes are listed in file order,
	 * so gather them by graph with a counting pass */
	for (g = 0; g < G; g++)
		start[g + 1] = start[g] + t->count[g];
	for (i = 0; i < N; i++)
		perm[start[t->gid[i]] + pos[t->gid[i]]++] = i;
	for (g = 0; g < G; g++) {
		for (e1 = e0; e1 < t->es.n && t->es.e[e1].g == g; e1++)
			;
		/* no edges at all: es.e is NULL, and NULL + 0 is undefined */
		import_put_graph(&rec, g, t->count[g], e1 > e0 ? t->es.e + e0 : NULL, e1 - e0,
				 t->has_elab);
		gs_attr_set(&rec, "format", "tu");
		gs_attr_set(&rec, "dataset", dataset);
		gs_attr_setf(&rec, "entries", "%" PRId64, t->entries[g]);
		if (t->loops[g] > 0)
			gs_attr_setf(&rec, "self_loops", "%" PRId64, t->loops[g]);
		gs_write1(out, &rec);
		write_node_tensors(t, out, &rec, g, perm + start[g], ln, lnattr);
		gs_rec_label(&rec, g, "label", t->gcls.rank[t->glab[g]]);
		gs_attr_setf(&rec, "classes", "%" PRId32, t->gcls.names.n);
		gs_attr_set(&rec, "class_names", gnames);
		gs_write1(out, &rec);
		e0 = e1;
	}
	free(ln);
	free(lnattr);
	free(pos);
	free(start);
	free(perm);
	free(gnames);
	gs_rec_free(&rec);
}

int
import_tu(const struct import_opts *o, const char *prefix, gs_file *out, char *msg, size_t msglen)
{
	struct tu t;
	int rc;

	memset(&t, 0, sizeof t);
	t.o = o;
	t.prefix = prefix;
	t.err = (struct lr_err){ msg, msglen };
	rc = read_graph_labels(&t);
	if (rc == 0)
		rc = read_indicator(&t);
	if (rc == 0)
		rc = read_node_labels(&t);
	if (rc == 0)
		rc = read_node_attributes(&t);
	if (rc == 0)
		rc = read_adjacency(&t);
	if (rc == 0)
		write_tu(&t, out);
	tu_free(&t);
	return rc;
}
