/*
 * import_edgelist.c - a plain edge list as one graph: "u v" or "u v label"
 * lines (blank or comma separated, every line of the same arity), '#'
 * comments, networkx's "u v {...}" attribute column ignored; self-loops
 * dropped and repeats merged (a label must then agree); see import.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import.h"

/* Everything an import holds, freed at the end whatever happened. */
struct el {
	const struct import_opts *o;
	lreader r;
	fields fs;
	edges es;
	int64_t maxid, lines, attrs;
	int arity; /* 2 or 3, from the first edge line */
	int64_t arity_line;
};

/* networkx's write_edgelist: "u v {'weight': 4}" (or "{}"): the column is
 * cut off and counted when it holds anything. */
static int
cut_dict(struct el *L)
{
	char *dict = strchr(L->r.buf, '{');

	if (dict == NULL)
		return 0;
	char *end = lr_trim(dict);
	if (end[strlen(end) - 1] != '}')
		return lr_bad(&L->r, "an unclosed '{' (want 'u v', 'u v label' or networkx's "
				     "'u v {...}')");
	L->attrs += strspn(dict + 1, " \t}") < strlen(dict + 1);
	*dict = '\0';
	return 0;
}

/* One edge line. */
static int
edge_line(struct el *L)
{
	lreader *r = &L->r;
	int64_t a, b, lab = 0, lim = L->o->nodes ? L->o->nodes - 1 : GS_MAX_NODES - 1;

	if (cut_dict(L) != 0)
		return -1;
	lr_split(&L->fs, r->buf, strchr(r->buf, ',') ? "," : " ");
	if (L->fs.n != 2 && L->fs.n != 3)
		return lr_bad(r, "%d fields, want 'u v' or 'u v label'", L->fs.n);
	if (L->arity == 0) {
		L->arity = L->fs.n;
		L->arity_line = r->line;
	}
	if (L->fs.n != L->arity)
		return lr_bad(r, "%d fields, but line %" PRId64 " had %d", L->fs.n, L->arity_line,
			      L->arity);
	for (int i = 0; i < 2; i++)
		if (strspn(L->fs.f[i], "-0123456789") != strlen(L->fs.f[i]))
			return lr_bad(r,
				      "node '%.40s' is not an integer id: number the nodes "
				      "0..n-1 first (gnnstream(5), Plain edge lists, shows how)",
				      L->fs.f[i]);
	if (lr_need_i64(r, L->fs.f[0], 0, lim, "node id", &a) != 0 ||
	    lr_need_i64(r, L->fs.f[1], 0, lim, "node id", &b) != 0 ||
	    (L->arity == 3 && lr_need_i64(r, L->fs.f[2], INT32_MIN, INT32_MAX, "label", &lab) != 0))
		return -1;
	if (a > L->maxid)
		L->maxid = a;
	if (b > L->maxid)
		L->maxid = b;
	L->lines++;
	edge_add(&L->es, 0, (int32_t)a, (int32_t)b, (int32_t)lab, r->line);
	return 0;
}

/* ---- the lines ---- */
static int
read_edges(struct el *L, const char *file)
{
	lreader *r = &L->r;
	int64_t bad_i;
	int k;

	if (lr_open(r, file, L->o->src, r->err) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		if (lr_blank(r->buf) || lr_trim(r->buf)[0] == '#')
			continue;
		if (edge_line(L) != 0)
			return -1;
	}
	if (k < 0)
		return -1;
	if (L->lines == 0 && L->o->nodes == 0)
		return lr_fail(r->err, "%s: no edges (give --nodes for a graph without edges)",
			       r->path);
	bad_i = edges_finish(&L->es, L->arity == 3);
	if (bad_i >= 0) {
		const edge *e = &L->es.e[bad_i];
		r->line = e->line;
		return lr_bad(r, "edge %u %u repeated with another label", (unsigned)(e->key >> 32),
			      (unsigned)(e->key & 0xffffffffu));
	}
	if ((L->es.loops > 0 || L->es.dups > 0) && !L->o->quiet)
		warnx_("%s: dropped %" PRId64 " self-loop(s), merged %" PRId64 " duplicate edge(s)",
		       r->path, L->es.loops, L->es.dups);
	if (L->attrs > 0 && !L->o->quiet)
		warnx_("%s: ignored the attributes of %" PRId64 " edge(s) (networkx's {...} "
		       "column)",
		       r->path, L->attrs);
	lr_close(r);
	return 0;
}

/* ---- write: the graph ---- */
static void
write_edgelist(struct el *L, gs_file *out)
{
	int64_t n = L->o->nodes ? L->o->nodes : L->maxid + 1;
	gs_rec rec;

	gs_rec_init(&rec);
	put_graph(&rec, 0, (int32_t)n, L->es.e, L->es.n, L->arity == 3);
	gs_attr_set(&rec, "format", "edgelist");
	if (L->o->name != NULL)
		gs_attr_set(&rec, "dataset", L->o->name);
	gs_attr_setf(&rec, "lines", "%" PRId64, L->lines);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, L->es.loops);
	gs_attr_setf(&rec, "duplicates", "%" PRId64, L->es.dups);
	gs_write1(out, &rec);
	gs_rec_free(&rec);
}

int
import_edgelist(const struct import_opts *o, const char *file, gs_file *out, char *msg,
		size_t msglen)
{
	struct el L;
	int rc;

	memset(&L, 0, sizeof L);
	L.o = o;
	L.maxid = -1;
	L.r.err = (struct lr_err){ msg, msglen };
	rc = read_edges(&L, file);
	if (rc == 0)
		write_edgelist(&L, out);
	lr_close(&L.r);
	fields_free(&L.fs);
	free(L.es.e);
	return rc;
}
