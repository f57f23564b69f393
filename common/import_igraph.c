/*
 * import_igraph.c - the graph formats igraph's C library reads (GraphML,
 * GML, Pajek, LGL, NCOL, DIMACS), as one graph each; see import.h.
 *
 * The file (plain or gzip, FILE or FILE.gz, "-" standard input) is read
 * through lineread.h into memory and handed to igraph as a FILE from
 * fmemopen(), so that every format takes the same paths as the other
 * importers.  igraph's graph then becomes the stream's: edges in igraph's
 * order with self-loops dropped and repeats merged (a directed graph's two
 * directions too, with a warning), the nodes in igraph's order, which is the
 * file's; the node names in a names record where the format names its
 * nodes, the numeric and boolean node attributes in an 'attributes' tensor.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <igraph/igraph.h> /* its own headers found beside it: no -I */

#include "err.h"
#include "import.h"

/*
 * igraph reports errors and warnings through handlers that take no
 * context argument, so the first error's text is kept here, for the one
 * import running in this thread.  igraph calls the handler where the error
 * is found and again on the way out; the first call is the precise one.
 * Warnings are kept too (the first, and a count: igraph may warn once a
 * node), and said only when the import succeeds, so that a failure is
 * one line.
 */
static _Thread_local char ig_reason[512], ig_warned[512];
static _Thread_local int64_t ig_nwarn;

static void
ig_error(const char *reason, const char *file, int line, igraph_error_t e)
{
	(void)file;
	(void)line;
	if (ig_reason[0] == '\0')
		snprintf(ig_reason, sizeof ig_reason, "%s (igraph: %s)", reason,
			 igraph_strerror(e));
	IGRAPH_FINALLY_FREE(); /* what igraph allocated before the error */
}

static void
ig_warning(const char *reason, const char *file, int line)
{
	(void)file;
	(void)line;
	/* GML's numeric entities: decoded here (xml_unescape), not verbatim */
	if (strncmp(reason, "One or more unknown entities", 28) == 0)
		return;
	if (ig_nwarn++ == 0)
		snprintf(ig_warned, sizeof ig_warned, "%s", reason);
}

/* The formats, by their -f names. */
enum { IG_GRAPHML, IG_GML, IG_PAJEK, IG_LGL, IG_NCOL, IG_DIMACS, IG_NFMT };
static const char *const ig_names[IG_NFMT] = { "graphml", "gml", "pajek", "lgl", "ncol", "dimacs" };

/* Everything an import holds, freed at the end whatever happened. */
struct ig {
	const struct import_opts *o;
	int fmt;
	lreader r;
	char *text; /* the file's bytes */
	size_t len;
	igraph_t g;
	int have_g;
	/* its graph, node and edge attributes: names and types */
	igraph_strvector_t gn, vn, en;
	igraph_vector_int_t gt, vt, et;
	char problem[16]; /* DIMACS: "max" or "edge" */
	int directed;	  /* the input's edges have a direction */
	int64_t n;
	edges es;
	char **names;	     /* (n) or NULL */
	float *attr;	     /* (n x k) */
	int64_t k;	     /* attribute columns */
	char *columns;	     /* "a,b,c" */
	const char *names_a; /* the attribute the names came from */
	char ignored[1024];  /* the attributes not kept, for the warning */
	const char *ign_kind;
	int64_t unlabelled;	/* GML: 1 + the first node without a label, or 0 */
	int ids_named;		/* GML: no label or name attribute: ids are the names */
	const char *unlab_attr; /* the attribute node unlabelled - 1 lacks */
	int32_t *lab;		/* (n) --label: each node's class, -1 none */
	classes cls;		/* --label: the values, numbered */
	int64_t lab_none;	/* --label: nodes without a value */
};

/* ---- the file into memory ---- */
static int
read_all(struct ig *I, const char *file)
{
	lreader *r = &I->r;
	size_t cap = 1 << 16;
	int k;

	if (lr_open(r, file, I->o->src, r->err) != 0)
		return -1;
	I->text = xmalloc(cap);
	/* at most 2^30 bytes a call: gzread counts in unsigned int */
	while ((k = gzread(r->gz, I->text + I->len,
			   (unsigned)(cap - I->len < (1u << 30) ? cap - I->len : 1u << 30))) > 0) {
		I->len += (size_t)k;
		if (I->len == cap)
			I->text = xrealloc(I->text, cap *= 2);
	}
	if (k < 0) {
		int zerr;
		const char *why = gzerror(r->gz, &zerr);
		return lr_fail(r->err, "%s: %s", r->path, zerr == Z_ERRNO ? strerror(errno) : why);
	}
	if (I->len >= 3 && memcmp(I->text, "\xef\xbb\xbf", 3) == 0) { /* a byte-order mark */
		memmove(I->text, I->text + 3, I->len - 3);
		I->len -= 3;
	}
	if (I->len == 0)
		return lr_fail(r->err, "%s: empty file", r->path);
	return 0;
}

/* ---- the declared sizes, checked before igraph allocates by them ---- */

/* The line of text[0 .. n) at *pos into buf as a string, cut at len - 1
 * bytes; *pos moves past it.  Returns 0 at the end of text. */
static int
next_line(const char *text, size_t n, size_t *pos, char *buf, size_t len)
{
	size_t a = *pos, b = a, k;

	if (a >= n)
		return 0;
	while (b < n && text[b] != '\n')
		b++;
	k = b - a < len - 1 ? b - a : len - 1;
	memcpy(buf, text + a, k);
	buf[k] = '\0';
	*pos = b + 1;
	return 1;
}

/* The fields of a line (blanks between), at most max; returns how many. */
static int
fields_of(char *line, char **f, int max)
{
	const char *blank = " \t\r\f\v";
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(line, blank, &save); t && n < max; t = strtok_r(NULL, blank, &save))
		f[n++] = t;
	return n;
}

/* A count or node number of a line: an integer in lo..hi, or -1. */
static int64_t
count_of(const char *s, int64_t lo, int64_t hi)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	return end == s || *end != '\0' || errno != 0 || v < lo || v > hi ? -1 : (int64_t)v;
}

/*
 * DIMACS: the problem line "p max|edge NODES EDGES" declares what the
 * other lines hold, and igraph reserves by it; so NODES is held to the
 * node limit, every node a line names ("n", "a", "e") to 1..NODES, and
 * the edge lines counted to EDGES exactly, before igraph reads the file.
 * A file without a problem line is igraph's to refuse.  Time: O(bytes).
 */
static int
check_dimacs(struct ig *I)
{
	char buf[256], *f[5];
	size_t pos = 0;
	int64_t line = 0, nodes = -1, edges = 0, want = 0, pline = 0;

	while (next_line(I->text, I->len, &pos, buf, sizeof buf)) {
		line++;
		int nf = fields_of(buf, f, 5);
		if (nf == 0 || f[0][1] != '\0' || strchr("pnae", f[0][0]) == NULL)
			continue;
		if (f[0][0] == 'p') {
			if (nodes >= 0)
				return lr_fail(I->r.err,
					       "%s: line %" PRId64 ": a second problem line",
					       I->r.path, line);
			if (nf != 4 || (nodes = count_of(f[2], 0, INT64_MAX)) < 0 ||
			    (want = count_of(f[3], 0, INT64_MAX)) < 0)
				return lr_fail(I->r.err,
					       "%s: line %" PRId64
					       ": want the problem line 'p max|edge "
					       "NODES EDGES'",
					       I->r.path, line);
			if (nodes > GS_MAX_NODES)
				return lr_fail(I->r.err,
					       "%s: line %" PRId64 ": %" PRId64
					       " nodes declared exceed the node limit %lld",
					       I->r.path, line, nodes, GS_MAX_NODES);
			pline = line;
			continue;
		}
		if (nodes < 0)
			return 0; /* igraph's to refuse */
		for (int i = 1; i < (f[0][0] == 'n' ? 2 : 3); i++)
			if (i >= nf || count_of(f[i], 1, nodes) < 0)
				return lr_fail(I->r.err,
					       "%s: line %" PRId64
					       ": node '%.20s' is not among the %" PRId64
					       " nodes the problem line declares",
					       I->r.path, line, i < nf ? f[i] : "", nodes);
		if (f[0][0] != 'n' && ++edges > want)
			return lr_fail(I->r.err,
				       "%s: line %" PRId64 ": more edges than the %" PRId64
				       " the problem line (line %" PRId64 ") declares",
				       I->r.path, line, want, pline);
	}
	if (nodes >= 0 && edges < want)
		return lr_fail(I->r.err,
			       "%s: the file ends after %" PRId64 " of the %" PRId64
			       " edges its problem line declares",
			       I->r.path, edges, want);
	return 0;
}

/*
 * Pajek: "*Vertices N" makes igraph allocate N nodes with their
 * attributes before any other line: N is held to the node limit.  igraph
 * itself refuses an edge to a node above N.  Time: O(bytes).
 */
static int
check_pajek(struct ig *I)
{
	char buf[256], *f[3];
	size_t pos = 0;
	int64_t line = 0, n;

	while (next_line(I->text, I->len, &pos, buf, sizeof buf)) {
		line++;
		if (fields_of(buf, f, 3) < 2 || strcasecmp(f[0], "*vertices") != 0)
			continue;
		if ((n = count_of(f[1], 0, INT64_MAX)) < 0)
			return lr_fail(I->r.err,
				       "%s: line %" PRId64 ": '%.20s' is not a node count",
				       I->r.path, line, f[1]);
		if (n > GS_MAX_NODES)
			return lr_fail(I->r.err,
				       "%s: line %" PRId64 ": %" PRId64
				       " nodes declared exceed the node limit %lld",
				       I->r.path, line, n, GS_MAX_NODES);
	}
	return 0;
}

static int
check_declared(struct ig *I)
{
	return I->fmt == IG_DIMACS ? check_dimacs(I) : I->fmt == IG_PAJEK ? check_pajek(I) : 0;
}

/* ---- igraph reads it ---- */
static igraph_error_t
ig_read(struct ig *I, FILE *f)
{
	igraph_strvector_t prob;
	igraph_integer_t s, t;
	igraph_error_t e;

	switch (I->fmt) {
	case IG_GRAPHML:
		return igraph_read_graph_graphml(&I->g, f, 0);
	case IG_GML:
		return igraph_read_graph_gml(&I->g, f);
	case IG_PAJEK:
		return igraph_read_graph_pajek(&I->g, f);
	case IG_LGL:
		return igraph_read_graph_lgl(&I->g, f, 1, IGRAPH_ADD_WEIGHTS_IF_PRESENT, 0);
	case IG_NCOL:
		return igraph_read_graph_ncol(&I->g, f, NULL, 1, IGRAPH_ADD_WEIGHTS_IF_PRESENT, 0);
	default:
		/* the vertex labels and the capacities are not asked for (NULL);
		 * the source and sink are (s, t), but not kept */
		if (igraph_strvector_init(&prob, 0) != IGRAPH_SUCCESS)
			return IGRAPH_ENOMEM;
		e = igraph_read_graph_dimacs_flow(&I->g, f, &prob, NULL, &s, &t, NULL, 1);
		if (e == IGRAPH_SUCCESS && igraph_strvector_size(&prob) > 0)
			snprintf(I->problem, sizeof I->problem, "%s",
				 igraph_strvector_get(&prob, 0));
		igraph_strvector_destroy(&prob);
		return e;
	}
}

static int
parse(struct ig *I)
{
	igraph_error_t e;
	FILE *f = fmemopen(I->text, I->len, "r");

	if (f == NULL)
		return lr_fail(I->r.err, "%s: %s", I->r.path, strerror(errno));
	e = ig_read(I, f);
	fclose(f);
	if (e != IGRAPH_SUCCESS) {
		if (ig_reason[0] == '\0')
			snprintf(ig_reason, sizeof ig_reason, "%s", igraph_strerror(e));
		err_one_line(ig_reason);
		return lr_fail(I->r.err, "%s: not a readable %s file: %s", I->r.path,
			       ig_names[I->fmt], ig_reason);
	}
	I->have_g = 1;
	igraph_cattribute_list(&I->g, &I->gn, &I->gt, &I->vn, &I->vt, &I->en, &I->et);
	return 0;
}

/* ---- the edges ---- */
static int
take_edges(struct ig *I)
{
	igraph_integer_t m = igraph_ecount(&I->g), from, to;

	I->n = igraph_vcount(&I->g);
	if (I->n == 0)
		return lr_fail(I->r.err, "%s: no nodes", I->r.path);
	if (I->n > GS_MAX_NODES)
		return lr_fail(I->r.err, "%s: %" PRId64 " nodes exceed the limit %lld", I->r.path,
			       I->n, GS_MAX_NODES);
	if (m > GS_MAX_EDGES)
		return lr_fail(I->r.err, "%s: %" PRId64 " edges exceed the limit %lld", I->r.path,
			       (int64_t)m, GS_MAX_EDGES);
	for (igraph_integer_t e = 0; e < m; e++) {
		igraph_edge(&I->g, e, &from, &to);
		import_edge_add(&I->es, 0, (int32_t)from, (int32_t)to, 0, e);
	}
	import_edges_finish(&I->es, 0);
	/* DIMACS edge problems are undirected, but igraph gives them the
	 * direction asked for (max-flow problems need it) */
	I->directed = igraph_is_directed(&I->g) && strcmp(I->problem, "edge") != 0;
	return 0;
}

/* ---- the names ---- */

static int
has_vattr(const struct ig *I, const char *a)
{
	return igraph_cattribute_has_attr(&I->g, IGRAPH_ATTRIBUTE_VERTEX, a);
}

/*
 * GML's and GraphML's character entities decoded in place: networkx's GML
 * has every character past ASCII and '&' as "&#NNN;" ("Zo&#235;"), which
 * igraph keeps as it is, and igraph's GraphML reader gives an '&' of a node
 * id as "&#38;"; "&#xHH;", "&lt;", "&gt;", "&quot;" and
 * "&apos;" too.  A code point becomes its UTF-8 bytes; an '&' that starts
 * no entity (or one of code 0, a surrogate or past U+10FFFF) is left as it
 * is.  Time: O(length).
 */
static void
xml_unescape(char *s)
{
	static const char *const ent[] = { "amp;", "lt;", "gt;", "quot;", "apos;" };
	static const char chr[] = "&<>\"'";
	char *w = s;

	while (*s) {
		unsigned long c = 0;
		char *end = NULL;
		int k, done = 0;

		if (*s != '&') {
			*w++ = *s++;
			continue;
		}
		for (k = 0; k < 5 && !done; k++)
			if (strncmp(s + 1, ent[k], strlen(ent[k])) == 0) {
				*w++ = chr[k];
				s += 1 + strlen(ent[k]);
				done = 1;
			}
		if (!done && s[1] == '#') {
			int hex = s[2] == 'x' || s[2] == 'X';
			const char *d = s + 2 + hex;
			if (hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d))
				c = strtoul(d, &end, hex ? 16 : 10);
			if (end != NULL && *end == ';' && end - d <= 8 && c > 0 && c <= 0x10ffff &&
			    (c < 0xd800 || c > 0xdfff)) {
				if (c < 0x80)
					*w++ = (char)c;
				else if (c < 0x800) {
					*w++ = (char)(0xc0 | c >> 6);
					*w++ = (char)(0x80 | (c & 0x3f));
				} else if (c < 0x10000) {
					*w++ = (char)(0xe0 | c >> 12);
					*w++ = (char)(0x80 | (c >> 6 & 0x3f));
					*w++ = (char)(0x80 | (c & 0x3f));
				} else {
					*w++ = (char)(0xf0 | c >> 18);
					*w++ = (char)(0x80 | (c >> 12 & 0x3f));
					*w++ = (char)(0x80 | (c >> 6 & 0x3f));
					*w++ = (char)(0x80 | (c & 0x3f));
				}
				s = end + 1;
				done = 1;
			}
		}
		if (!done)
			*w++ = *s++;
	}
	*w = '\0';
}

/* The attribute that names the nodes: GraphML's 'name' key (else its node
 * id), GML's label (else its name, else its id), Pajek's label (else the vertex number), NCOL's and LGL's
 * names; NULL for DIMACS. */
static const char *
names_attr(const struct ig *I)
{
	switch (I->fmt) {
	case IG_GRAPHML: /* igraph writes its names as a 'name' key, ids n0 ... */
		return has_vattr(I, "name") ? "name" : "id";
	case IG_GML: /* networkx writes 'label', igraph 'name' */
		if (has_vattr(I, "label"))
			return "label";
		if (has_vattr(I, "name"))
			return "name";
		return "id";
	case IG_PAJEK:
		return igraph_cattribute_has_attr(&I->g, IGRAPH_ATTRIBUTE_VERTEX, "name") ? "name"
											  : NULL;
	case IG_LGL:
	case IG_NCOL:
		return "name";
	default:
		return NULL;
	}
}

/* Node v's name from node attribute a into a new string: a text as it
 * is, a number as %.17g writes it (GML's ids, a label 'label 5'), a
 * boolean as 0 or 1; "" where it has none (a missing number, NaN). */
static char *
node_name(const struct ig *I, const char *a, igraph_integer_t v)
{
	igraph_integer_t i, t = -1;
	char buf[64];
	double x;

	for (i = 0; i < igraph_strvector_size(&I->vn); i++)
		if (strcmp(igraph_strvector_get(&I->vn, i), a) == 0)
			t = VECTOR(I->vt)[i];
	if (t == IGRAPH_ATTRIBUTE_STRING) {
		char *s = xstrdup(VAS(&I->g, a, v));
		if (I->fmt == IG_GML || I->fmt == IG_GRAPHML)
			xml_unescape(s);
		return s;
	}
	x = t == IGRAPH_ATTRIBUTE_BOOLEAN   ? (double)VAB(&I->g, a, v)
	    : t == IGRAPH_ATTRIBUTE_NUMERIC ? VAN(&I->g, a, v)
					    : NAN;
	if (isnan(x))
		return xstrdup("");
	snprintf(buf, sizeof buf, "%.17g", x);
	return xstrdup(buf);
}

/* GML's label or name, GraphML's name: where every node has one, else
 * the ids (said once, as is a GML file whose nodes have neither); Pajek:
 * a vertex without a label is named by its number. */
static const char *
names_fallback(struct ig *I, const char *a)
{
	if (I->fmt == IG_GML && strcmp(a, "id") == 0)
		I->ids_named = 1;
	if ((I->fmt == IG_GML || I->fmt == IG_GRAPHML) && strcmp(a, "id") != 0)
		for (igraph_integer_t v = 0; v < I->n; v++) {
			char *nm = node_name(I, a, v);
			int none = nm[0] == '\0';
			free(nm);
			if (none) {
				I->unlabelled = v + 1;
				I->unlab_attr = a;
				return "id";
			}
		}
	return a;
}

static int
take_names(struct ig *I)
{
	const char *a = names_attr(I), *why;
	smap seen = { 0 };
	int rc = 0;

	if (a == NULL)
		return 0;
	a = I->names_a = names_fallback(I, a);
	I->names = xcalloc((size_t)I->n, sizeof *I->names);
	for (int64_t v = 0; v < I->n && rc == 0; v++) {
		I->names[v] = node_name(I, a, v);
		if (I->fmt == IG_PAJEK && I->names[v][0] == '\0') {
			free(I->names[v]);
			I->names[v] = xmallocarray(24, 1);
			snprintf(I->names[v], 24, "%" PRId64, v + 1);
		}
		if ((why = gs_name_invalid(I->names[v])) != NULL) {
			char q[48];
			snprintf(q, sizeof q, "%.40s", I->names[v]);
			err_one_line(q);
			rc = lr_fail(I->r.err, "%s: node %" PRId64 "'s name ('%s', from '%s') %s",
				     I->r.path, v, q, a, why);
		} else if (smap_put(&seen, I->names[v], (int32_t)v) >= 0) {
			char q[48];
			snprintf(q, sizeof q, "%.40s", I->names[v]);
			err_one_line(q);
			rc = lr_fail(I->r.err,
				     "%s: node %" PRId64 " and node %" PRId32
				     " have the same name '%s' (from '%s'): names must be distinct",
				     I->r.path, v, smap_get(&seen, I->names[v]), q, a);
		}
	}
	smap_free(&seen);
	return rc;
}

/* ---- the attributes ---- */

/* Add name (and why, if given) to the list of ignored attributes, the
 * kind said once per run: "node a (text), b (text); edge w, id".  The list
 * is cut at its size. */
static void
ignore(struct ig *I, const char *kind, const char *name, const char *why)
{
	size_t at = strlen(I->ignored);
	int same = I->ign_kind != NULL && strcmp(I->ign_kind, kind) == 0;

	snprintf(I->ignored + at, sizeof I->ignored - at, "%s%s%s%s%s%s%s",
		 at == 0 ? "" : (same ? ", " : "; "), same ? "" : kind, same ? "" : " ", name,
		 why ? " (" : "", why ? why : "", why ? ")" : "");
	I->ign_kind = kind;
}

/* A name fit for a tensor's columns= (no comma, blank, '=' or control). */
static int
column_name_ok(const char *s)
{
	if (*s == '\0' || strlen(s) >= GS_NAME_MAX)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == ',' || *s == '=' || *s == 0x7f)
			return 0;
	return 1;
}

/* Node attribute a of type t as column j of I->attr, or why not (NULL: taken). */
static const char *
take_column(struct ig *I, const char *a, igraph_integer_t t, int64_t j, int64_t k)
{
	if (t == IGRAPH_ATTRIBUTE_STRING)
		return "text: a class with --label";
	if (t != IGRAPH_ATTRIBUTE_NUMERIC && t != IGRAPH_ATTRIBUTE_BOOLEAN)
		return "not a number";
	if (!column_name_ok(a))
		return "not a column name";
	for (int64_t v = 0; v < I->n; v++) {
		double x =
		    t == IGRAPH_ATTRIBUTE_BOOLEAN ? (double)VAB(&I->g, a, v) : VAN(&I->g, a, v);
		if (!isfinite(x) || fabs(x) > 3.4028234663852886e38)
			return "missing or not a finite float at some node";
		I->attr[v * k + j] = (float)x;
	}
	return NULL;
}

/* Node attributes other than the names (and igraph's 'id') become columns
 * of 'attributes'; the others, and every edge and graph attribute, are
 * listed in one warning. */
static int
take_attributes(struct ig *I)
{
	int64_t nv = igraph_strvector_size(&I->vn), j = 0;

	I->attr = xcalloc((size_t)I->n * (size_t)(nv ? nv : 1), sizeof *I->attr);
	I->columns = xcalloc(1, 1);
	for (int64_t i = 0; i < nv; i++) {
		const char *a = igraph_strvector_get(&I->vn, i), *why;
		if (strcmp(a, "id") == 0 || (I->names_a && strcmp(a, I->names_a) == 0) ||
		    (I->o->label && strcmp(a, I->o->label) == 0) ||
		    (I->fmt == IG_GML && strcmp(a, "label") == 0) ||
		    (I->fmt == IG_PAJEK && strcmp(a, "name") == 0))
			continue;
		why = take_column(I, a, VECTOR(I->vt)[i], j, nv);
		if (why != NULL) {
			ignore(I, "node", a, why);
			continue;
		}
		I->columns = xrealloc(I->columns, strlen(I->columns) + strlen(a) + 2);
		strcat(strcat(I->columns, j ? "," : ""), a);
		j++;
	}
	/* the columns were placed with stride nv: pack them to stride j */
	for (int64_t v = 0; v < I->n && j < nv; v++)
		memmove(I->attr + v * j, I->attr + v * nv, (size_t)j * sizeof *I->attr);
	I->k = j;
	for (int64_t i = 0; i < igraph_strvector_size(&I->en); i++)
		ignore(I, "edge", igraph_strvector_get(&I->en, i), NULL);
	if (strcmp(I->problem, "max") == 0) { /* what a flow problem has beside its graph */
		ignore(I, "edge", "capacity", NULL);
		ignore(I, "graph", "source", NULL);
		ignore(I, "graph", "sink", NULL);
	}
	for (int64_t i = 0; i < igraph_strvector_size(&I->gn); i++)
		ignore(I, "graph", igraph_strvector_get(&I->gn, i), NULL);
	return 0;
}

/* ---- --label: a node attribute as the class ---- */

/*
 * The node attribute o->label, numeric or text, as each node's class: the
 * values (a number as %.17g writes it, a text decoded as a name is) are
 * numbered as graph-attach numbers a table's (import_class_finish: numerically
 * when every value is an integer, else by strcmp), and a node without a
 * value (an empty text, NaN) has none (-1).
 */
static int
take_label(struct ig *I)
{
	const char *a = I->o->label;

	if (a == NULL)
		return 0;
	if (!has_vattr(I, a)) {
		char list[512] = "";
		size_t at = 0;
		for (int64_t i = 0; i < igraph_strvector_size(&I->vn) && at < sizeof list - 64; i++)
			at += (size_t)snprintf(list + at, sizeof list - at, "%s%.40s",
					       i ? ", " : "", igraph_strvector_get(&I->vn, i));
		err_one_line(list);
		return lr_fail(I->r.err, "%s: --label: no node attribute '%s' (the nodes have: %s)",
			       I->r.path, a, list[0] ? list : "none");
	}
	I->lab = xmallocarray((size_t)I->n, sizeof *I->lab);
	for (int64_t v = 0; v < I->n; v++) {
		char *val = node_name(I, a, v);
		int32_t k = val[0] == '\0' ? -1 : import_class_add(&I->cls, val);
		int bad = val[0] != '\0' && k < 0;
		free(val);
		if (bad)
			return lr_fail(I->r.err, "%s: --label %s: more than 2^24 classes",
				       I->r.path, a);
		I->lab[v] = k;
		I->lab_none += k < 0;
	}
	if (I->cls.names.n == 0)
		return lr_fail(I->r.err, "%s: --label %s: no node has a value", I->r.path, a);
	import_class_finish(&I->cls);
	for (int64_t v = 0; v < I->n; v++)
		if (I->lab[v] >= 0)
			I->lab[v] = I->cls.rank[I->lab[v]];
	return 0;
}

/* ---- what was changed or left out, said once the import succeeded ---- */
static void
tell(struct ig *I)
{
	const char *p = I->r.path;

	if (I->o->quiet)
		return;
	if (ig_nwarn > 0) {
		err_one_line(ig_warned);
		if (ig_nwarn == 1)
			warnx_("%s: igraph: %s", p, ig_warned);
		else
			warnx_("%s: igraph: %s (and %" PRId64 " more warnings)", p, ig_warned,
			       ig_nwarn - 1);
	}
	if (I->directed)
		warnx_("%s: a directed graph: direction dropped, each pair of nodes linked "
		       "either way is one edge",
		       p);
	if (I->es.loops > 0 || I->es.dups > 0)
		warnx_("%s: dropped %" PRId64 " self-loop(s), merged %" PRId64
		       " repeated or reciprocal edge(s)",
		       p, I->es.loops, I->es.dups);
	if (I->unlabelled > 0)
		warnx_("%s: node %" PRId64 " has no %s: the nodes are named by their ids", p,
		       I->unlabelled - 1, I->unlab_attr);
	if (I->ids_named)
		warnx_("%s: the nodes have no label or name: they are named by their ids", p);
	if (I->lab_none > 0)
		warnx_("%s: --label %s: %" PRId64 " node(s) have no value: no class (-1)", p,
		       I->o->label, I->lab_none);
	if (I->ignored[0] != '\0') {
		err_one_line(I->ignored);
		warnx_("%s: ignored attributes: %s", p, I->ignored);
	}
}

/* ---- write: the graph, its names, its attributes ---- */
static void
write_graph(struct ig *I, gs_file *out, const char *file)
{
	static const char *const sfx[] = { ".gz",    ".graphml", ".xml",  ".gml", ".net",    ".paj",
					   ".pajek", ".lgl",	 ".ncol", ".max", ".dimacs", NULL };
	char dataset[256];
	gs_rec rec;

	gs_rec_init(&rec);
	import_dataset(dataset, sizeof dataset, I->o, file, sfx);
	import_put_graph(&rec, 0, (int32_t)I->n, I->es.e, I->es.n, 0);
	gs_attr_set(&rec, "format", ig_names[I->fmt]);
	gs_attr_set(&rec, "dataset", dataset);
	gs_attr_setf(&rec, "input_edges", "%" PRId64, (int64_t)igraph_ecount(&I->g));
	gs_attr_setf(&rec, "self_loops", "%" PRId64, I->es.loops);
	gs_attr_setf(&rec, "duplicates", "%" PRId64, I->es.dups);
	gs_attr_set(&rec, "directed_input", I->directed ? "1" : "0");
	gs_write1(out, &rec);
	if (I->names != NULL) {
		gs_names_set(&rec, 0, (const char *const *)I->names, (int32_t)I->n);
		gs_write1(out, &rec);
	}
	if (I->lab != NULL) {
		char *cn = import_class_list(&I->cls);
		gs_rec_tensor(&rec, 0, "label", I->n, 1, GS_I32, "label");
		memcpy(rec.data, I->lab, (size_t)I->n * sizeof *I->lab);
		gs_attr_set(&rec, "column", I->o->label);
		gs_attr_setf(&rec, "classes", "%" PRId32, I->cls.names.n);
		if (strlen(cn) < 65536)
			gs_attr_set(&rec, "class_names", cn);
		gs_attr_setf(&rec, "unlabelled", "%" PRId64, I->lab_none);
		free(cn);
		gs_write1(out, &rec);
	}
	if (I->k > 0) {
		gs_rec_tensor(&rec, 0, "attributes", I->n, I->k, GS_F32, I->columns);
		memcpy(rec.data, I->attr, (size_t)I->n * (size_t)I->k * sizeof *I->attr);
		gs_write1(out, &rec);
	}
	gs_rec_free(&rec);
}

static void
ig_free(struct ig *I)
{
	if (I->have_g)
		igraph_destroy(&I->g);
	igraph_strvector_destroy(&I->gn);
	igraph_strvector_destroy(&I->vn);
	igraph_strvector_destroy(&I->en);
	igraph_vector_int_destroy(&I->gt);
	igraph_vector_int_destroy(&I->vt);
	igraph_vector_int_destroy(&I->et);
	for (int64_t v = 0; I->names != NULL && v < I->n; v++)
		free(I->names[v]);
	free(I->names);
	free(I->attr);
	free(I->columns);
	free(I->lab);
	import_class_free(&I->cls);
	free(I->es.e);
	free(I->text);
	lr_close(&I->r);
}

/* igraph's handlers, this file's while an import runs (igraph's default
 * error handler aborts the program). */
struct ig_handlers {
	igraph_error_handler_t *err;
	igraph_warning_handler_t *warn;
	igraph_attribute_table_t *attr;
};

static struct ig_handlers
ig_handlers_set(void)
{
	struct ig_handlers old;

	ig_reason[0] = '\0';
	ig_warned[0] = '\0';
	ig_nwarn = 0;
	old.err = igraph_set_error_handler(ig_error);
	old.warn = igraph_set_warning_handler(ig_warning);
	old.attr = igraph_set_attribute_table(&igraph_cattribute_table);
	return old;
}

static void
ig_handlers_restore(struct ig_handlers old)
{
	igraph_set_attribute_table(old.attr);
	igraph_set_warning_handler(old.warn);
	igraph_set_error_handler(old.err);
}

int
import_igraph(const struct import_opts *o, const char *format, const char *file, gs_file *out,
	      char *msg, size_t msglen)
{
	struct ig_handlers old;
	struct ig I;
	int rc;

	memset(&I, 0, sizeof I);
	I.o = o;
	I.r.err = (struct lr_err){ msg, msglen };
	for (I.fmt = 0; I.fmt < IG_NFMT && strcmp(format, ig_names[I.fmt]) != 0; I.fmt++)
		;
	if (I.fmt == IG_NFMT) {
		snprintf(msg, msglen, "-f %s: not a format of igraph's", format);
		return -2;
	}
	old = ig_handlers_set();
	igraph_strvector_init(&I.gn, 0);
	igraph_strvector_init(&I.vn, 0);
	igraph_strvector_init(&I.en, 0);
	igraph_vector_int_init(&I.gt, 0);
	igraph_vector_int_init(&I.vt, 0);
	igraph_vector_int_init(&I.et, 0);
	rc = read_all(&I, file);
	if (rc == 0)
		rc = check_declared(&I);
	if (rc == 0)
		rc = parse(&I);
	if (rc == 0)
		rc = take_edges(&I);
	if (rc == 0)
		rc = take_names(&I);
	if (rc == 0)
		rc = take_label(&I);
	if (rc == 0)
		rc = take_attributes(&I);
	if (rc == 0) {
		tell(&I);
		write_graph(&I, out, file);
	}
	ig_free(&I);
	ig_handlers_restore(old);
	return rc;
}
