/*
 * import_linqs.c - the LINQS content/cites format (Cora, CiteSeer,
 * Pubmed-Diabetes's tab files, the Planetoid conversions); see import.h.
 *
 * Content: one node a line, "id [attribute ...] class", tab, comma or
 * blank separated (the first line sets the field count); or Pubmed's
 * "NODE\tpaper" header, its attribute declarations, then "id\tNAME=VALUE
 * ...\tlabel=C" lines.  Cites: "a b" links (both directions and repeats
 * merged, self-loops dropped), or Pubmed's "DIRECTED" header and
 * "id\ttype:A\t|\ttype:B" lines.  Optional sparse attributes: "node
 * feature value" lines.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "import.h"

typedef struct {
	int64_t node;
	int64_t feat;
	float val;
	int64_t line;
} sparse;

/* Everything an import holds, freed at the end whatever happened. */
struct linqs {
	const struct import_opts *o;
	char *const *files;
	struct lr_err err;
	lreader r;
	fields fs;
	smap ids, feats, skip;
	slist idn; /* node ids by index, for messages */
	classes cls;
	edges es;
	int32_t *label, *has;
	int64_t *orig;
	float *attr; /* (n x k) */
	sparse *sp;
	int64_t n, cap, k, links, unknown, attributed, unlabelled;
	int64_t line1; /* the first node line (2 after a header) */
	int all_int;
};

static void
linqs_free(struct linqs *L)
{
	lr_close(&L->r);
	lr_fields_free(&L->fs);
	smap_free(&L->ids);
	smap_free(&L->feats);
	smap_free(&L->skip);
	import_slist_free(&L->idn);
	import_class_free(&L->cls);
	free(L->es.e);
	free(L->label);
	free(L->has);
	free(L->orig);
	free(L->attr);
	free(L->sp);
}

/* Strip a LINQS "type:" prefix ("paper:123" -> "123"). */
static const char *
linqs_id(const char *s)
{
	const char *c = strchr(s, ':');

	return c ? c + 1 : s;
}

/* Pubmed-Diabetes: after "NODE\tpaper", the attribute declarations
 * "cat=1,2,3:label\tnumeric:w-rat:0.0\t...". */
static int
content_declarations(struct linqs *L)
{
	lreader *r = &L->r;
	int k = lr_next(r);

	if (k < 0)
		return -1;
	if (k == 0)
		return lr_bad(r, "no attribute declarations after the NODE line");
	lr_split(&L->fs, r->buf, "\t");
	L->k = 0;
	for (int i = 0; i < L->fs.n; i++) {
		char *a = L->fs.f[i], *nm = strchr(a, ':'), *e;
		if (nm == NULL)
			return lr_bad(r, "attribute declaration '%.40s' is not TYPE:NAME[:DEFAULT]",
				      a);
		nm++;
		e = strchr(nm, ':');
		if (e != NULL)
			*e = '\0';
		if (strcmp(nm, "label") == 0)
			continue;
		if (strncmp(a, "numeric:", 8) == 0) {
			if (smap_put(&L->feats, nm, (int32_t)L->k) >= 0)
				return lr_bad(r, "attribute '%.40s' declared twice", nm);
			L->k++;
		} else {
			smap_put(&L->skip, nm, 0);
		}
	}
	return 0;
}

/* Node n's attributes and class name of a Pubmed line ("NAME=VALUE"). */
static int
content_tab_fields(struct linqs *L, const char **cname)
{
	lreader *r = &L->r;
	int64_t n = L->n, k = L->k;

	for (int i = 1; i < L->fs.n; i++) {
		char *a = L->fs.f[i], *eq = strchr(a, '=');
		int32_t j;
		if (eq == NULL)
			return lr_bad(r, "field '%.40s' is not NAME=VALUE", a);
		*eq = '\0';
		if (strcmp(a, "label") == 0) {
			*cname = eq + 1;
			continue;
		}
		if (strcmp(a, "summary") == 0 || smap_get(&L->skip, a) >= 0)
			continue;
		j = smap_get(&L->feats, a);
		if (j < 0)
			return lr_bad(r, "attribute '%.40s' is not declared on line 2", a);
		if (lr_need_f32(r, eq + 1, a, &L->attr[n * k + j]) != 0)
			return -1;
	}
	if (*cname == NULL)
		return lr_bad(r, "no label= field");
	return 0;
}

/* A class field that means no class: empty, or -1 (graph-import(1)). */
static int
unknown_class(const char *s)
{
	return s[0] == '\0' || strcmp(s, "-1") == 0;
}

/* One node of the content file, its fields split in L->fs. */
static int
content_node(struct linqs *L, int tabfmt)
{
	lreader *r = &L->r;
	const char *cname = NULL;
	int64_t id, n = L->n, k = L->k;
	int32_t c;

	if (L->fs.f[0][0] == '\0')
		return lr_bad(r, "empty node id");
	if (n >= GS_MAX_NODES)
		return lr_bad(r, "more than %lld nodes", (long long)GS_MAX_NODES);
	if (smap_put(&L->ids, L->fs.f[0], (int32_t)n) >= 0)
		return lr_bad(r, "node id '%.40s' occurs twice", L->fs.f[0]);
	import_slist_add(&L->idn, L->fs.f[0]);
	if (n == L->cap) {
		L->cap = L->cap ? 2 * L->cap : 1024;
		L->label = xreallocarray(L->label, (size_t)L->cap, sizeof *L->label);
		L->orig = xreallocarray(L->orig, (size_t)L->cap, sizeof *L->orig);
		if (k > 0)
			L->attr =
			    xreallocarray(L->attr, (size_t)L->cap, (size_t)k * sizeof *L->attr);
	}
	if (lr_parse_i64(L->fs.f[0], INT64_MIN, INT64_MAX, &id) == 0)
		L->orig[n] = id;
	else
		L->all_int = 0;
	if (k > 0)
		memset(L->attr + n * k, 0, (size_t)k * sizeof *L->attr);
	if (tabfmt) {
		if (content_tab_fields(L, &cname) != 0)
			return -1;
	} else {
		for (int64_t i = 0; i < k; i++)
			if (lr_need_f32(r, L->fs.f[1 + i], "attribute", &L->attr[n * k + i]) != 0)
				return -1;
		cname = L->fs.f[L->fs.n - 1];
	}
	if (unknown_class(cname)) {
		L->label[n] = -1;
		L->unlabelled++;
		L->n++;
		return 0;
	}
	c = import_class_add(&L->cls, cname);
	if (c < 0)
		return lr_bad(r, "too many classes");
	L->label[n] = c;
	L->n++;
	return 0;
}

/* ---- the content (node) file ---- */

/* Lines read ahead to decide whether line 1 is a header. */
#define AHEAD 100

static int
is_int(const char *s)
{
	int64_t v;

	return lr_parse_i64(s, INT64_MIN, INT64_MAX, &v) == 0;
}

/* The first and last fields of line s (split on its own separator; fs
 * keeps the field count). */
static void
first_last(fields *fs, const char *s, char **first, char **last)
{
	char *c = xstrdup(s);

	lr_split(fs, c, lr_guess_sep(c));
	*first = xstrdup(fs->n > 0 ? fs->f[0] : "");
	*last = xstrdup(fs->n > 0 ? fs->f[fs->n - 1] : "");
	free(c);
}

/*
 * Whether line 1 (ahead->s[0]) is a header line ("node label"): it has as
 * many fields as each of the next lines, its class field (the last) is
 * the class of none of them, and its
 * id field is not an integer while theirs all are, or its class field is
 * not an integer while theirs all are (or no class), or it is one of the
 * words label, class, subject, category, target, y, or its id field one of
 * id, node, node_id, name, paper, paper_id (any case).  A node
 * line rarely fits: its class is most often another node's too.
 */
static int
header_line(const slist *ahead)
{
	static const char *const words[] = { "label",  "class", "subject", "category",
					     "target", "y",	NULL };
	static const char *const idw[] = { "id",    "node",	"node_id", "name",
					   "paper", "paper_id", NULL };
	fields fs = { NULL, 0, 0 };
	char *id1, *c1, *id, *c;
	int ids_int = 1, cls_int = 1, seen = 0, word = 0, hdr, nf;

	first_last(&fs, ahead->s[0], &id1, &c1);
	nf = fs.n;
	for (int32_t i = 1; i < ahead->n; i++) {
		first_last(&fs, ahead->s[i], &id, &c);
		seen |= fs.n != nf; /* a ragged file: said as such below */
		ids_int &= is_int(id);
		cls_int &= is_int(c) || unknown_class(c);
		seen |= strcmp(c, c1) == 0;
		free(id);
		free(c);
	}
	for (int w = 0; words[w]; w++)
		word |= strcasecmp(c1, words[w]) == 0;
	for (int w = 0; idw[w]; w++)
		word |= strcasecmp(id1, idw[w]) == 0;
	hdr = ahead->n > 1 && !seen &&
	      ((!is_int(id1) && ids_int) || (!is_int(c1) && !unknown_class(c1) && cls_int) || word);
	free(id1);
	free(c1);
	lr_fields_free(&fs);
	return hdr;
}

/* A "id [attributes ...] class" line s (line of the file). */
static int
content_line(struct linqs *L, char *s, const char **sep, int *nf0)
{
	lreader *r = &L->r;

	if (lr_blank(s))
		return lr_bad(r, "empty line");
	if (*sep == NULL)
		*sep = lr_guess_sep(s);
	lr_split(&L->fs, s, *sep);
	if (*nf0 < 0) {
		*nf0 = L->fs.n;
		if (*nf0 < 2)
			return lr_bad(r, "%d field, want 'id [attributes ...] class'", L->fs.n);
		L->k = *nf0 - 2;
	}
	if (L->fs.n != *nf0)
		return lr_bad(r, "%d fields, want %d as on line %" PRId64, L->fs.n, *nf0, L->line1);
	return content_node(L, 0);
}

/* The first lines, read ahead: line 1 skipped if it is a header, the
 * others as nodes.  Returns lr_next()'s last value (1: more lines). */
static int
content_ahead(struct linqs *L, const char **sep, int *nf0)
{
	lreader *r = &L->r;
	slist ahead = { NULL, 0, 0 };
	int k = 1, rc = 0, skip;

	import_slist_add(&ahead, r->buf);
	while (ahead.n < AHEAD && (k = lr_next(r)) > 0)
		import_slist_add(&ahead, r->buf);
	skip = k >= 0 && header_line(&ahead);
	for (char *p = ahead.s[0]; skip && *p; p++) /* line 1 is not read again */
		if ((unsigned char)*p < 0x20)	    /* a tab: the message stays one line */
			*p = '?';
	if (skip && !L->o->quiet)
		warnx_("%s: line 1: '%.60s' taken for a header line and skipped (its class "
		       "is no other line's; graph-import(1), LINQS)",
		       r->path, ahead.s[0]);
	L->line1 = 1 + skip;
	for (int32_t i = skip; i < ahead.n && k >= 0 && rc == 0; i++) {
		int64_t line = r->line;
		r->line = i + 1;
		rc = content_line(L, ahead.s[i], sep, nf0);
		if (rc == 0)
			r->line = line;
	}
	import_slist_free(&ahead);
	return rc != 0 ? -1 : k;
}

static int
read_content(struct linqs *L)
{
	lreader *r = &L->r;
	const char *sep = NULL;
	int tabfmt = 0, nf0 = -1, k;

	L->k = -1;
	if (lr_open(r, L->files[0], L->o->src, L->err) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		if (r->line == 1 && strncmp(r->buf, "NODE\t", 5) == 0) {
			tabfmt = 1;
			if (content_declarations(L) != 0)
				return -1;
			continue;
		}
		if (tabfmt) {
			if (lr_blank(r->buf))
				return lr_bad(r, "empty line");
			lr_split(&L->fs, r->buf, "\t");
			if (content_node(L, 1) != 0)
				return -1;
		} else if (r->line == 1) {
			if ((k = content_ahead(L, &sep, &nf0)) <= 0)
				break;
		} else if (content_line(L, r->buf, &sep, &nf0) != 0) {
			return -1;
		}
	}
	if (k < 0)
		return -1;
	if (L->n == 0)
		return lr_fail(L->err, "%s: no nodes", r->path);
	if (L->k < 0)
		L->k = 0;
	lr_close(r);
	import_class_finish(&L->cls);
	for (int64_t i = 0; i < L->n; i++)
		if (L->label[i] >= 0)
			L->label[i] = L->cls.rank[L->label[i]];
	return 0;
}

/* The two node ids of a link line, into *a and *b. */
static int
link_ids(struct linqs *L, int tabfmt, const char **sep, const char **a, const char **b)
{
	lreader *r = &L->r;

	if (tabfmt) {
		lr_split(&L->fs, r->buf, "\t");
		if (L->fs.n < 4 || strcmp(L->fs.f[2], "|") != 0)
			return lr_bad(r, "want 'id<TAB>type:A<TAB>|<TAB>type:B'");
		*a = linqs_id(L->fs.f[1]);
		*b = linqs_id(L->fs.f[3]);
		return 0;
	}
	if (*sep == NULL)
		*sep = lr_guess_sep(r->buf);
	lr_split(&L->fs, r->buf, *sep);
	if (L->fs.n != 2)
		return lr_bad(r, "%d fields, want 2 (two node ids)", L->fs.n);
	*a = L->fs.f[0];
	*b = L->fs.f[1];
	return 0;
}

/* ---- the cites (link) file ---- */
static int
read_cites(struct linqs *L)
{
	lreader *r = &L->r;
	const char *sep = NULL;
	int tabfmt = 0, k;

	if (lr_open(r, L->files[1], L->o->src, L->err) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		const char *a = NULL, *b = NULL;
		int32_t u, v;

		if (r->line == 1 && (strncmp(r->buf, "DIRECTED", 8) == 0 ||
				     strncmp(r->buf, "UNDIRECTED", 10) == 0)) {
			/* Pubmed-Diabetes: "DIRECTED\tcites", then "NO_FEATURES"
			 * or the link attribute declarations, then
			 * "id\tpaper:A\t|\tpaper:B[\t...]". */
			tabfmt = 1;
			if ((k = lr_next(r)) <= 0)
				return k < 0
					   ? -1
					   : lr_bad(r,
						    "no declaration line after the DIRECTED line");
			continue;
		}
		if (lr_blank(r->buf))
			continue;
		if (link_ids(L, tabfmt, &sep, &a, &b) != 0)
			return -1;
		L->links++;
		u = smap_get(&L->ids, a);
		v = smap_get(&L->ids, b);
		if (u < 0 || v < 0) {
			if (!L->o->skip_unknown)
				return lr_bad(r,
					      "node '%.40s' is not in %s (--skip-unknown drops "
					      "such links)",
					      u < 0 ? a : b, L->files[0]);
			L->unknown++;
			continue;
		}
		import_edge_add(&L->es, 0, u, v, 0, r->line);
	}
	if (k < 0)
		return -1;
	lr_close(r);
	import_edges_finish(&L->es, 0);
	if (L->links == 0)
		return lr_fail(L->err, "%s: no links", L->files[1]);
	if (L->unknown > 0 && !L->o->quiet)
		warnx_("%s: dropped %" PRId64 " of %" PRId64 " links naming a node missing from %s",
		       L->files[1], L->unknown, L->links, L->files[0]);
	return 0;
}

static int
cmp_sparse(const void *a, const void *b)
{
	const sparse *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->feat != y->feat)
		return x->feat < y->feat ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* The sparse attribute lines, into L->sp[0..*ns) (width into *dim). */
static int
read_sparse(struct linqs *L, int64_t *ns, int64_t *dim)
{
	lreader *r = &L->r;
	const struct import_opts *o = L->o;
	const char *sep = NULL;
	int64_t scap = 0;
	int k;

	*ns = 0;
	*dim = o->attr_dim;
	if (lr_open(r, o->attributes, o->src, L->err) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		int32_t u;
		sparse *s;
		if (lr_blank(r->buf) || r->buf[0] == '#')
			continue;
		if (sep == NULL)
			sep = lr_guess_sep(r->buf);
		lr_split(&L->fs, r->buf, sep);
		if (L->fs.n != 3)
			return lr_bad(r, "%d fields, want 3 (node feature value)", L->fs.n);
		u = smap_get(&L->ids, L->fs.f[0]);
		if (u < 0)
			return lr_bad(r, "node '%.40s' is not in %s", L->fs.f[0], L->files[0]);
		if (*ns == scap) {
			scap = scap ? 2 * scap : 4096;
			L->sp = xreallocarray(L->sp, (size_t)scap, sizeof *L->sp);
		}
		s = &L->sp[*ns];
		s->node = u;
		if (lr_need_i64(r, L->fs.f[1], 0, o->attr_dim ? o->attr_dim - 1 : 1 << 24,
				"feature", &s->feat) != 0 ||
		    lr_need_f32(r, L->fs.f[2], "value", &s->val) != 0)
			return -1;
		s->line = r->line;
		if (*dim < s->feat + 1 && o->attr_dim == 0)
			*dim = s->feat + 1;
		(*ns)++;
	}
	if (k < 0)
		return -1;
	if (*ns == 0)
		return lr_fail(L->err, "%s: no attributes", r->path);
	return 0;
}

/* ---- sparse attributes ---- */
static int
read_attributes(struct linqs *L)
{
	lreader *r = &L->r;
	int64_t ns, dim, n = L->n;

	if (L->k > 0) { /* a misuse: -2 */
		lr_fail(L->err, "--attributes: %s has attributes already (%" PRId64 " columns)",
			L->files[0], L->k);
		return -2;
	}
	if (read_sparse(L, &ns, &dim) != 0)
		return -1;
	if ((double)n * (double)dim > (double)GS_MAX_ELEMS)
		return lr_fail(L->err, "%s: %" PRId64 " x %" PRId64 " attributes exceed the limit",
			       r->path, n, dim);
	qsort(L->sp, (size_t)ns, sizeof *L->sp, cmp_sparse);
	L->k = dim;
	L->attr = xcalloc((size_t)n * (size_t)dim, sizeof *L->attr);
	L->has = xcalloc((size_t)n, sizeof *L->has);
	for (int64_t j = 0; j < ns; j++) {
		const sparse *s = &L->sp[j];
		if (j > 0 && s->node == s[-1].node && s->feat == s[-1].feat) {
			r->line = s->line;
			return lr_bad(r, "node '%.40s' feature %" PRId64 " given twice",
				      L->idn.s[s->node], s->feat);
		}
		L->attr[s->node * dim + s->feat] = s->val;
		if (!L->has[s->node]) {
			L->has[s->node] = 1;
			L->attributed++;
		}
	}
	if (L->attributed < n && !L->o->quiet)
		warnx_("%s: attributes for only %" PRId64 " of %" PRId64 " nodes; the "
		       "other %" PRId64 " rows of 'attributes' are zero, tensor "
		       "'has_attributes' marks which",
		       r->path, L->attributed, n, n - L->attributed);
	lr_close(r);
	return 0;
}

/* ---- write: the graph, orig_id, label, attributes, has_attributes ---- */
static void
write_linqs(struct linqs *L, gs_file *out)
{
	static const char *const sfx[] = { ".gz",	   ".content",	      ".txt", ".labels",
					   ".node_labels", ".NODE.paper.tab", NULL };
	int64_t n = L->n, k = L->k;
	char dataset[256], *names;
	gs_rec rec;

	gs_rec_init(&rec);
	import_put_graph(&rec, 0, (int32_t)n, L->es.e, L->es.n, 0);
	import_dataset(dataset, sizeof dataset, L->o, L->files[0], sfx);
	gs_attr_set(&rec, "format", "linqs");
	gs_attr_set(&rec, "dataset", dataset);
	gs_attr_setf(&rec, "links", "%" PRId64, L->links);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, L->es.loops);
	gs_attr_setf(&rec, "repeated_links", "%" PRId64, L->es.dups);
	if (L->unknown > 0)
		gs_attr_setf(&rec, "unknown_links", "%" PRId64, L->unknown);
	gs_attr_setf(&rec, "classes", "%" PRId32, L->cls.names.n);
	if (L->unlabelled > 0)
		gs_attr_setf(&rec, "unlabelled", "%" PRId64, L->unlabelled);
	names = import_class_list(&L->cls);
	gs_attr_set(&rec, "class_names", names);
	free(names);
	if (k > 0)
		gs_attr_setf(&rec, "attributed_nodes", "%" PRId64, L->attributed);
	gs_write1(out, &rec);
	if (L->all_int)
		import_put_i64_col(out, &rec, 0, "orig_id", L->orig, n);
	import_put_i32_col(out, &rec, 0, "label", L->label, n);
	if (k > 0) {
		gs_rec_tensor(&rec, 0, "attributes", n, k, GS_F32, NULL);
		memcpy(rec.data, L->attr, (size_t)n * (size_t)k * sizeof *L->attr);
		gs_write1(out, &rec);
	}
	if (L->has != NULL && L->attributed < n)
		import_put_i32_col(out, &rec, 0, "has_attributes", L->has, n);
	gs_rec_free(&rec);
}

int
import_linqs(const struct import_opts *o, char *const *files, gs_file *out, char *msg,
	     size_t msglen)
{
	struct linqs L;
	int rc;

	memset(&L, 0, sizeof L);
	L.o = o;
	L.files = files;
	L.err = (struct lr_err){ msg, msglen };
	L.all_int = 1;
	rc = read_content(&L);
	if (rc == 0)
		rc = read_cites(&L);
	if (rc == 0 && o->attributes != NULL)
		rc = read_attributes(&L);
	else if (rc == 0 && L.k > 0)
		L.attributed = L.n;
	if (rc == 0)
		write_linqs(&L, out);
	linqs_free(&L);
	return rc;
}
