/*
 * import_edgelist.c - a plain edge list as one graph: "u v" or "u v label"
 * lines (blank or comma separated, every line of the same arity), '#'
 * comments, networkx's "u v {...}" attribute column ignored; self-loops
 * dropped and repeats merged (a label must then agree); see import.h.
 * Nodes are integer ids, or names (any word that is not an integer makes
 * them all names; --names, --node-list): names are numbered in the order
 * of the node list, else of their first appearance, and written in a
 * names record after the graph.
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
	int64_t lines, attrs;
	int arity; /* 2 or 3, from the first edge line */
	int64_t arity_line;
	/* every node word, numbered in order of first appearance (of the node
	 * list first), and its value when it is an integer id, else -1 */
	smap map;
	slist words;
	int64_t *ival;
	int32_t capival;
	int named;	     /* some word is not an integer id, or --names, --node-list */
	int32_t first_words; /* the words of the first edge line, when it made them names */
	int64_t first_line;
	int commas;	/* a line split at commas (a CSV file?) */
	int tabs;	/* the lines are split at tabs only (names with blanks) */
	int64_t nlab;	/* distinct edge labels, for the warning */
	int32_t listed; /* the node list's length (0: none) */
	struct raw {
		int32_t a, b, lab;
		int64_t line;
	} * raw; /* the edges by word number, until the numbering is known */
	int64_t nraw, capraw;
	int64_t n; /* nodes */
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

/* The number of node word w: new words are numbered next, unless a node
 * list closes the set.  Returns it, or -1 (the message written). */
static int64_t
node_word(struct el *L, const char *w)
{
	lreader *r = &L->r;
	int32_t k = smap_get(&L->map, w);
	int64_t v = -1;
	const char *why;

	if (k >= 0)
		return k;
	if (L->listed)
		return lr_bad(r, "node '%.40s' is not in the node list %s", w, L->o->node_list);
	if ((why = gs_name_invalid(w)) != NULL)
		return lr_bad(r, "node name '%.40s' %s", w, why);
	if (L->words.n >= GS_MAX_NODES)
		return lr_bad(r, "more than %lld nodes", GS_MAX_NODES);
	if (L->named) {
		; /* every word a name */
	} else if (w[(w[0] == '-' && w[1]) + strspn(w + (w[0] == '-' && w[1]), "0123456789")] ==
		   '\0') {
		/* an integer: an id, or out of range (never a name) */
		int64_t lim = L->o->nodes ? L->o->nodes - 1 : GS_MAX_NODES - 1;
		if (lr_need_i64(r, w, 0, lim, "node id", &v) != 0)
			return -1;
	} else {
		L->named = 1;
	}
	k = import_slist_add(&L->words, w);
	smap_put(&L->map, w, k);
	if (L->words.n > L->capival) { /* doubling, as words grows */
		L->capival = 2 * L->words.n;
		L->ival = xreallocarray(L->ival, (size_t)L->capival, sizeof *L->ival);
	}
	L->ival[k] = v;
	return k;
}

/* A word that is an integer (a node id, never a name). */
static int
int_word(const char *w)
{
	int sign = w[0] == '-' && w[1];

	return w[sign] != '\0' && w[sign + strspn(w + sign, "0123456789")] == '\0';
}

/* The fields of an edge line: at tabs only when the first edge line has
 * one and the first line split at blanks has more than three fields
 * (names with blanks; each field trimmed); else at commas where the line
 * has one; else at blanks and tabs. */
static void
split_line(struct el *L, char *buf)
{
	if (L->lines == 0 && strchr(buf, '\t')) {
		char *copy = xstrdup(buf);
		L->tabs = lr_split(&L->fs, copy, " ") > 3;
		free(copy);
	}
	if (L->tabs) {
		lr_split(&L->fs, buf, "\t");
		for (int i = 0; i < L->fs.n; i++)
			L->fs.f[i] = lr_trim(L->fs.f[i]);
	} else if (strchr(buf, ',')) {
		L->commas = 1;
		lr_split(&L->fs, buf, ",");
	} else
		lr_split(&L->fs, buf, " ");
}

/* One edge line. */
static int
edge_line(struct el *L)
{
	lreader *r = &L->r;
	int64_t a, b, lab = 0;
	int was_named = L->named;

	if (cut_dict(L) != 0)
		return -1;
	split_line(L, r->buf);
	if (L->fs.n != 2 && L->fs.n != 3)
		return lr_bad(r, "%d fields, want 'u v' or 'u v label'%s", L->fs.n,
			      L->fs.n > 3 ? " (names with blanks: separate the fields by tabs, or "
					    "use GraphML)"
					  : "");
	if (L->arity == 0) {
		L->arity = L->fs.n;
		L->arity_line = r->line;
	}
	if (L->fs.n != L->arity)
		return lr_bad(r, "%d fields, but line %" PRId64 " had %d", L->fs.n, L->arity_line,
			      L->arity);
	if ((a = node_word(L, L->fs.f[0])) < 0 || (b = node_word(L, L->fs.f[1])) < 0)
		return -1;
	if (L->arity == 3 && lr_parse_i64(L->fs.f[2], INT32_MIN, INT32_MAX, &lab) != 0)
		return lr_bad(r, "%s", gs_third_column(L->fs.f[2]));
	if (L->lines == 0 && !was_named && L->named && !L->listed && !L->o->names) {
		L->first_words = L->words.n;
		L->first_line = r->line;
	}
	if (L->nraw == L->capraw) {
		L->capraw = L->capraw ? 2 * L->capraw : 4096;
		L->raw = xreallocarray(L->raw, (size_t)L->capraw, sizeof *L->raw);
	}
	L->raw[L->nraw++] = (struct raw){ (int32_t)a, (int32_t)b, (int32_t)lab, r->line };
	L->lines++;
	return 0;
}

/* --node-list: the nodes, one name (or id) a line, numbered in its order;
 * isolated nodes are kept, and an edge may name no other node. */
static int
read_node_list(struct el *L, const char *file)
{
	lreader *r = &L->r;
	int k;

	if (lr_open(r, file, L->o->src, r->err) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		char *w = lr_trim(r->buf);
		if (w[0] == '\0' || w[0] == '#')
			continue;
		if (smap_get(&L->map, w) >= 0)
			return lr_bad(r, "node '%.40s' listed twice", w);
		if (node_word(L, w) < 0)
			return -1;
	}
	lr_close(r);
	if (k < 0)
		return -1;
	if (L->words.n == 0)
		return lr_fail(r->err, "%s: no nodes", file);
	L->listed = L->words.n;
	return 0;
}

/* The edges by node number: integer ids as they are, else the words'
 * numbers; the node count. */
static int64_t
number_edges(struct el *L)
{
	int64_t n = L->words.n;

	if (!L->named) {
		n = L->o->nodes;
		for (int32_t k = 0; k < L->words.n; k++)
			if (L->ival[k] >= n)
				n = L->ival[k] + 1;
	}
	for (int64_t i = 0; i < L->nraw; i++) {
		struct raw *e = &L->raw[i];
		int32_t a = L->named ? e->a : (int32_t)L->ival[e->a];
		int32_t b = L->named ? e->b : (int32_t)L->ival[e->b];
		import_edge_add(&L->es, 0, a, b, e->lab, e->line);
	}
	return n;
}

/* Integer ids that never occur are nodes without edges: say so (a list
 * whose ids start at 1, or at 10005, gains nodes its user never had). */
static void
warn_isolated(const struct el *L)
{
	unsigned char *seen = xcalloc((size_t)L->n, 1);
	int64_t iso = 0;

	for (int64_t i = 0; i < L->es.n; i++) {
		seen[L->es.e[i].key >> 32] = 1;
		seen[L->es.e[i].key & 0xffffffffu] = 1;
	}
	for (int64_t v = 0; v < L->n; v++)
		iso += !seen[v];
	free(seen);
	if (iso)
		warnx_("%s: %" PRId64 " of the node ids 0..%" PRId64
		       " have no edge and are kept as isolated nodes (--names numbers only the "
		       "nodes listed)",
		       L->r.path, iso, L->n - 1);
}

/* ---- the lines ---- */
static int
read_edges(struct el *L, const char *file)
{
	lreader *r = &L->r;
	int64_t bad_i;
	int k;

	L->named = L->o->names || L->o->node_list;
	if (L->o->node_list && read_node_list(L, L->o->node_list) != 0)
		return -1;
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
	if (L->first_words > 0 && L->lines > 1) { /* names on line 1 only: a header */
		int32_t k2 = L->first_words;
		int64_t i = 1;
		while (k2 < L->words.n && int_word(L->words.s[k2]))
			k2++;
		while (i < L->nraw && L->raw[i].a >= L->first_words &&
		       L->raw[i].b >= L->first_words)
			i++;
		if (k2 == L->words.n && i == L->nraw) {
			char q[88];
			snprintf(q, sizeof q, "%.40s%s%.40s", L->words.s[0],
				 L->first_words > 1 ? " " : "",
				 L->first_words > 1 ? L->words.s[1] : "");
			err_one_line(q);
			r->line = L->first_line;
			return lr_bad(r,
				      "'%s' looks like a header: the other lines hold integer ids "
				      "(leave it out: tail -n +2)",
				      q);
		}
	}
	if (L->lines == 0 && L->o->nodes == 0 && !L->listed)
		return lr_fail(r->err,
			       "%s: no edges (give --nodes or --node-list for a graph without "
			       "edges)",
			       r->path);
	if (L->named && L->o->nodes)
		return lr_fail(r->err,
			       "%s: --nodes counts integer ids, and the nodes here have names "
			       "(give --node-list to keep isolated nodes)",
			       r->path);
	L->n = number_edges(L);
	if (L->n > GS_MAX_NODES)
		return lr_fail(r->err, "%s: %" PRId64 " nodes exceed the limit %lld", r->path, L->n,
			       GS_MAX_NODES);
	bad_i = import_edges_finish(&L->es, L->arity == 3);
	if (bad_i >= 0) {
		const edge *e = &L->es.e[bad_i];
		r->line = e->line;
		return lr_bad(r, "edge %u %u repeated with another label", (unsigned)(e->key >> 32),
			      (unsigned)(e->key & 0xffffffffu));
	}
	if ((L->es.loops > 0 || L->es.dups > 0) && !L->o->quiet)
		warnx_("%s: dropped %" PRId64 " self-loop(s), merged %" PRId64 " duplicate edge(s)",
		       r->path, L->es.loops, L->es.dups);
	if (!L->named && !L->o->nodes && !L->o->quiet)
		warn_isolated(L);
	if (L->commas && !L->o->quiet)
		warnx_("%s: %s", r->path, GS_EDGELIST_CSV);
	if (L->arity == 3 && !L->o->quiet)
		warnx_("%s: %s", r->path, GS_EDGELIST_LABELS);
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
	gs_rec rec;

	gs_rec_init(&rec);
	import_put_graph(&rec, 0, (int32_t)L->n, L->es.e, L->es.n, L->arity == 3);
	gs_attr_set(&rec, "format", "edgelist");
	if (L->o->name != NULL)
		gs_attr_set(&rec, "dataset", L->o->name);
	gs_attr_setf(&rec, "lines", "%" PRId64, L->lines);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, L->es.loops);
	gs_attr_setf(&rec, "duplicates", "%" PRId64, L->es.dups);
	gs_write1(out, &rec);
	if (L->named) {
		gs_names_set(&rec, 0, (const char *const *)L->words.s, L->words.n);
		gs_write1(out, &rec);
	}
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
	L.r.err = (struct lr_err){ msg, msglen };
	rc = read_edges(&L, file);
	if (rc == 0)
		write_edgelist(&L, out);
	lr_close(&L.r);
	lr_fields_free(&L.fs);
	free(L.es.e);
	free(L.raw);
	free(L.ival);
	smap_free(&L.map);
	import_slist_free(&L.words);
	return rc;
}
