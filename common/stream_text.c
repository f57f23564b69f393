/*
 * stream_text.c - the text form of gnnstream records (gnnstream(5), "Text
 * form") and plain "u v [label]" edge lists.  Reading and writing; the
 * header-line grammar is stream_header.c's, the file object and the
 * checks of a record's values stream_file.c's, the choice of a segment's
 * form stream_rw.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "smap.h"
#include "stream.h"
#include "stream_int.h"

/* ------------------------------------------------------------------ */
/* lines                                                              */
/* ------------------------------------------------------------------ */

/* Read one text line (without its newline) into fp->line; crc'd when in a
 * segment.  Returns 1 for a line, 0 at end of input, or an error code. */
int
gsi_read_line(gs_file *fp)
{
	size_t len = 0;

	fp->crc_line_start = fp->crc;
	for (;;) {
		unsigned char *s, *nl;
		size_t have;
		if (fp->pos == fp->len) {
			int rc = gsi_fill(fp, 1);
			if (rc)
				return rc;
			if (fp->pos == fp->len) {
				if (len == 0)
					return 0;
				break; /* last line without newline */
			}
		}
		s = fp->buf + fp->pos;
		have = fp->len - fp->pos;
		nl = memchr(s, '\n', have);
		if (nl)
			have = (size_t)(nl - s) + 1;
		if (len + have + 1 > fp->line_cap) {
			if (len + have + 1 > MAX_HEADER * 64)
				return gsi_fail(fp, -2, "line longer than %u bytes",
						MAX_HEADER * 64);
			fp->line_cap = 2 * (len + have + 1);
			fp->line = xrealloc(fp->line, fp->line_cap);
		}
		memcpy(fp->line + len, s, have);
		if (fp->state == ST_SEGMENT)
			fp->crc = (uint32_t)crc32_z(fp->crc, s, have);
		fp->pos += have;
		len += have;
		if (nl)
			break;
	}
	fp->lineno++;
	fp->line_nl = len > 0 && fp->line[len - 1] == '\n';
	if (fp->line_nl)
		len--;
	if (len > 0 && fp->line[len - 1] == '\r')
		len--;
	fp->line[len] = '\0';
	fp->line_len = len;
	if (memchr(fp->line, '\0', len))
		return gsi_fail(fp, -2, "NUL byte in text (binary data where text was expected)");
	return 1;
}

/* ------------------------------------------------------------------ */
/* text form                                                          */
/* ------------------------------------------------------------------ */

/* Fast integer field parser: skips blanks, reads [-]digits. */
static int
field_i64(char **sp, int64_t *out)
{
	char *s = *sp;
	int neg = 0;
	uint64_t v = 0;
	int nd = 0;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '-')
		neg = 1, s++;
	while (*s >= '0' && *s <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s++ - '0');
		nd++;
	}
	if (nd == 0 || (*s && *s != ' ' && *s != '\t' && *s != ','))
		return -1;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*sp = s;
	return 0;
}

static int
field_f64(char **sp, double *out)
{
	char *s = *sp, *end;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || (*end && *end != ' ' && *end != '\t' && *end != ','))
		return -1;
	*sp = end;
	return 0;
}

static int
at_eol(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static int
need_line(gs_file *fp, const char *what)
{
	int rc = gsi_read_line(fp);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return gsi_fail(fp, -2,
				"truncated stream (input ends inside a record, "
				"expected %s)",
				what);
	if (fp->line[0] == '@')
		return gsi_fail(fp, -2, "record ends early: expected %s, got a record header",
				what);
	return 0;
}

/* One value of dtype from a text field into dst[i]. */
static int
field_value(char **sp, int dtype, void *dst, int64_t i)
{
	int64_t iv;
	double dv;

	switch (dtype) {
	case GS_I32:
		if (field_i64(sp, &iv) || iv < INT32_MIN || iv > INT32_MAX)
			return -1;
		((int32_t *)dst)[i] = (int32_t)iv;
		return 0;
	case GS_I64:
		if (field_i64(sp, &iv))
			return -1;
		((int64_t *)dst)[i] = iv;
		return 0;
	case GS_F32:
		if (field_f64(sp, &dv))
			return -1;
		((float *)dst)[i] = (float)dv;
		return 0;
	case GS_F64:
		if (field_f64(sp, &dv))
			return -1;
		((double *)dst)[i] = dv;
		return 0;
	}
	return -1;
}

/*
 * rows x cols values of dtype, one row per line, into *data (*cap bytes).
 * The buffer grows with the rows that arrive (at first by at most 1 MiB or
 * one row), and a row wider than 1 MiB is sized only once its line is long
 * enough to hold it, so a header that lies about the shape costs memory in
 * proportion to the text read.  Each row is checked as it is read, so a
 * message names the line of the bad value.
 */
static int
read_txt_matrix(gs_file *fp, void **data, size_t *cap, int dtype, int64_t rows, int64_t cols,
		const char *what)
{
	size_t rowb = (size_t)cols * gs_dtype_size(dtype);
	int64_t first = rowb ? (int64_t)((1u << 20) / rowb) : 1;
	int64_t r, c;
	int rc;

	if (first < 1)
		first = 1;
	if (first > 4096)
		first = 4096;
	gsi_grow(data, cap, 0);
	for (r = 0; r < rows; r++) {
		char *s;
		if ((rc = need_line(fp, "a row of values")))
			return rc;
		if (rowb > (1u << 20) && (int64_t)fp->line_len < 2 * cols - 1)
			return gsi_fail(fp, -2,
					"%s: row %" PRId64 ": bad or missing value %" PRId64
					" (want %" PRId64 " of type %s)",
					what, r, (int64_t)(fp->line_len + 1) / 2, cols,
					gsi_dtype_name(dtype));
		if ((size_t)(r + 1) * rowb > *cap) {
			int64_t want = r ? 2 * r : first;
			if (want > rows)
				want = rows;
			gsi_grow(data, cap, (size_t)want * rowb);
		}
		s = fp->line;
		for (c = 0; c < cols; c++)
			if (field_value(&s, dtype, *data, r * cols + c))
				return gsi_fail(fp, -2,
						"%s: row %" PRId64 ": bad or missing value %" PRId64
						" (want %" PRId64 " of type %s)",
						what, r, c, cols, gsi_dtype_name(dtype));
		if (!at_eol(s))
			return gsi_fail(fp, -2, "%s: row %" PRId64 ": more than %" PRId64 " values",
					what, r, cols);
		if ((rc = gsi_check_finite(fp, *data, dtype, r * cols, cols, what)))
			return rc;
	}
	return 0;
}

/* The n lines of a names record, gathered as the binary body would be
 * (each name ended by '\n'; bytes=, if given, must agree), then checked. */
static int
read_txt_names(gs_file *fp, gs_rec *rec)
{
	size_t want = rec->names_len, len = 0;
	int rc;

	for (int32_t i = 0; i < rec->n; i++) {
		if ((rc = gsi_read_line(fp)) < 0)
			return rc;
		if (rc == 0)
			return gsi_fail(fp, -2, "names: %" PRId32 " names where count=%" PRId32, i,
					rec->n);
		if (len + fp->line_len + 2 > rec->cap_names) /* doubling: O(bytes) in all */
			gsi_grow((void **)&rec->names, &rec->cap_names,
				 len + fp->line_len + 2 + rec->cap_names);
		memcpy(rec->names + len, fp->line, fp->line_len);
		len += fp->line_len;
		rec->names[len++] = '\n';
	}
	if (want && want != len)
		return gsi_fail(fp, -2, "names: bytes=%zu but the names are %zu bytes", want, len);
	gsi_grow((void **)&rec->names, &rec->cap_names, len + 1);
	rec->names[len] = '\0';
	rec->names_len = len;
	return gsi_check_names(fp, rec);
}

/* Body arrays are sized from the header here, but only after the first
 * line of data has arrived, and text costs more bytes per value than the
 * array does, so a lying header is caught at the first missing line with
 * at most one array's worth of memory. */
int
gsi_read_txt_body(gs_file *fp, gs_rec *rec)
{
	int64_t i, a, b;
	int rc, k;

	switch (rec->kind) {
	case GS_GRAPH:
	case GS_PAIRS: {
		int64_t m = rec->m, cap = 0;
		int ltype = rec->ltype;
		for (i = 0; i < m; i++) {
			char *s;
			if ((rc = need_line(fp, rec->kind == GS_GRAPH ? "an edge" : "a pair")))
				return rc;
			if (i >= cap) {
				cap = cap ? 2 * cap : 4096;
				if (cap > m)
					cap = m;
				gsi_shape_edges(rec, cap, ltype);
				rec->m = m;
			}
			s = fp->line;
			if (field_i64(&s, &a) || field_i64(&s, &b) || a < INT32_MIN ||
			    a > INT32_MAX || b < INT32_MIN || b > INT32_MAX)
				return gsi_fail(fp, -2, "%s %" PRId64 ": want two node ids",
						rec->kind == GS_GRAPH ? "edge" : "pair", i);
			rec->u[i] = (int32_t)a;
			rec->v[i] = (int32_t)b;
			if (ltype != GS_NONE && field_value(&s, ltype, rec->lab, i))
				return gsi_fail(fp, -2, "%s %" PRId64 ": bad or missing label",
						rec->kind == GS_GRAPH ? "edge" : "pair", i);
			if (!at_eol(s))
				return gsi_fail(fp, -2, "%s %" PRId64 ": extra fields",
						rec->kind == GS_GRAPH ? "edge" : "pair", i);
			if ((rc = gsi_check_pair(fp, rec, i)))
				return rc;
		}
		if (m == 0)
			gsi_shape_edges(rec, 0, ltype);
		return 0;
	}
	case GS_TENSOR:
		return read_txt_matrix(fp, &rec->data, &rec->cap_data, rec->dtype, rec->rows,
				       rec->cols, rec->name);
	case GS_NAMES:
		return read_txt_names(fp, rec);
	case GS_MODEL: {
		int np = rec->nparams;
		if ((rc = gsi_read_config(fp, rec)))
			return rc;
		for (i = 0; i < (int64_t)rec->config_len; i++)
			fp->lineno += rec->config[i] == '\n';
		for (k = 0; k < np; k++) {
			gs_param *p = &rec->params[k];
			gs_rec tmp;
			int64_t er, ec;
			int kk;
			if ((rc = gsi_read_line(fp)) < 0)
				return rc;
			if (rc == 0 || strncmp(fp->line, "@param ", 7) != 0)
				return gsi_fail(fp, -2, "model parameter %d: expected '@param'", k);
			gs_rec_init(&tmp);
			kk = gsi_parse_header(fp, fp->line + 1, &tmp, &er, &ec, 1);
			if (kk != GS_TENSOR) {
				gs_rec_free(&tmp);
				return kk < 0
					   ? kk
					   : gsi_fail(fp, -2, "model parameter %d: bad header", k);
			}
			gsi_set_name(p->name, tmp.name);
			p->rows = tmp.rows;
			p->cols = tmp.cols;
			p->dtype = tmp.dtype;
			gs_rec_free(&tmp);
			if ((rc = read_txt_matrix(fp, &p->data, &p->cap, p->dtype, p->rows, p->cols,
						  p->name)))
				return rc;
		}
		return 0;
	}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* plain edge list: "u v [label]" per line, '#' comments               */
/* ------------------------------------------------------------------ */

/* What follows the two node ids of an edge-list line: the end of the line
 * (or a '#' comment), a third field, or networkx's attribute dict. */
enum { EL_EOL, EL_FIELD, EL_DICT_EMPTY, EL_DICT };

static int
el_rest(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '\0' || *s == '#')
		return EL_EOL;
	if (*s != '{')
		return EL_FIELD;
	/* nx.write_edgelist writes str(dict): "{}" or "{'weight': 4, ...}" */
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (s[n - 1] != '}')
		return EL_FIELD;
	for (s++; *s == ' ' || *s == '\t'; s++)
		;
	return *s == '}' ? EL_DICT_EMPTY : EL_DICT;
}

/* The words of s before any '{' or '#' (the first line of a file decides
 * whether it is an edge list: two or three words). */
static int
el_nwords(const char *s)
{
	int k = 0;

	for (const char *t = s + strspn(s, " \t,"); *t && *t != '{' && *t != '#';
	     t += strspn(t, " \t,")) {
		t += strcspn(t, " \t,");
		k++;
	}
	return k;
}

/* The next word of *sp (NUL-terminated in place), or NULL at the end of
 * the fields (the line's end or a '#' comment). */
static char *
el_word(char **sp)
{
	char *s = *sp + strspn(*sp, " \t,"), *w = s;

	if (*s == '\0' || *s == '#' || *s == '{')
		return NULL;
	s += strcspn(s, " \t,");
	if (*s)
		*s++ = '\0';
	*sp = s;
	return w;
}

/* Named nodes: node w's number, in order of first appearance; a new name
 * is added to the names the next record will hold. */
static int
el_name_id(gs_file *fp, smap *map, const char *w, int64_t *id)
{
	const char *why = gs_name_invalid(w);
	size_t len = strlen(w) + 1;
	int32_t k;

	if (why)
		return gsi_fail(fp, -2, "node name '%.40s' %s", w, why);
	if ((k = smap_get(map, w)) >= 0) {
		*id = k;
		return 0;
	}
	if (fp->el_nnames >= GS_MAX_NODES)
		return gsi_fail(fp, -2, "more than %lld nodes", GS_MAX_NODES);
	smap_put(map, w, fp->el_nnames);
	if (fp->el_names_len + len > fp->el_names_cap)
		gsi_grow((void **)&fp->el_names, &fp->el_names_cap, 2 * (fp->el_names_len + len));
	memcpy(fp->el_names + fp->el_names_len, w, len);
	fp->el_names_len += len;
	*id = fp->el_nnames++;
	return 0;
}

/* The first word that is not an integer id makes every id a name: the
 * ids of the m edges before it become names too ("7"), numbered in order
 * of first appearance like the rest. */
static int
el_go_named(gs_file *fp, gs_rec *rec, int64_t m, smap *map)
{
	char w[24];
	int64_t id;
	int rc;

	fp->el_named = 1;
	for (int64_t i = 0; i < 2 * m; i++) {
		int32_t *x = i % 2 ? &rec->v[i / 2] : &rec->u[i / 2];
		snprintf(w, sizeof w, "%" PRId32, *x);
		if ((rc = el_name_id(fp, map, w, &id)))
			return rc;
		*x = (int32_t)id;
	}
	return 0;
}

/* The two node ids of line s: integers while every id so far was one,
 * else names.  *s moves past them. */
static int
el_ids(gs_file *fp, gs_rec *rec, int64_t m, smap *map, char **s, int64_t *a, int64_t *b)
{
	char *line = *s, *wa, *wb;
	int rc;

	if (m == 0 && line[strcspn(line, ",{#")] == ',')
		fp->el_commas = 1;
	if (!fp->el_named) {
		if (field_i64(s, a) == 0 && field_i64(s, b) == 0)
			return 0;
		if (m == 0 && (el_nwords(line) < 2 || el_nwords(line) > 3))
			return gsi_fail(fp, -2,
					"not a gnnstream, and not an edge list "
					"(want 'u v [label]' lines%s)",
					el_nwords(line) > 3
					    ? "; names with blanks: graph-import -f edgelist "
					      "with tab-separated fields, or GraphML"
					    : "");
		if ((rc = el_go_named(fp, rec, m, map)))
			return rc;
		*s = line;
		if (m == 0)
			fp->el_first_line = fp->lineno;
	}
	if ((wa = el_word(s)) == NULL || (wb = el_word(s)) == NULL)
		return gsi_fail(fp, -2, "want 'u v [label]': two node names or ids");
	if ((rc = el_name_id(fp, map, wa, a)) || (rc = el_name_id(fp, map, wb, b)))
		return rc;
	if (m == 0 && fp->el_first_line > 0)
		fp->el_first_names = fp->el_nnames;
	else if (*a < fp->el_first_names || *b < fp->el_first_names)
		fp->el_first_names = 0; /* the first line's names are nodes: no header */
	return 0;
}

/* A word that is an integer. */
static int
el_int_word(const char *w)
{
	int sign = w[0] == '-' && w[1];

	return w[sign] != '\0' && w[sign + strspn(w + sign, "0123456789")] == '\0';
}

/* Names on the first line only, integers on every other (none of them
 * naming the first line's words again): a header line ("source target"),
 * refused rather than read as an edge. */
static int
el_header(gs_file *fp, int64_t m)
{
	const char *w = fp->el_names, *first = w;
	char q[88];

	if (fp->el_first_names == 0 || m < 2)
		return 0;
	for (int32_t k = 0; k < fp->el_nnames; k++, w += strlen(w) + 1)
		if (k >= fp->el_first_names && !el_int_word(w))
			return 0;
	snprintf(q, sizeof q, "%.40s%s%.40s", first, fp->el_first_names > 1 ? " " : "",
		 fp->el_first_names > 1 ? first + strlen(first) + 1 : "");
	err_one_line(q);
	fp->lineno = fp->el_first_line;
	return gsi_fail(fp, -2,
			"'%s' looks like a header: the other lines hold integer ids (leave it "
			"out: tail -n +2)",
			q);
}

/* The optional third field of an edge-list line: an integer label, or
 * networkx's attribute dict.  Returns the fields (2 or 3) or an error. */
static int
el_label(gs_file *fp, char *s, int64_t *l)
{
	int rest = el_rest(s);

	if (rest == EL_FIELD) {
		int words = 2 + el_nwords(s);
		char *w = s, *word;
		if (words > 3)
			return gsi_fail(fp, -2,
					"%d fields, want 'u v [label]' (names with blanks: "
					"graph-import -f edgelist with tab-separated fields, or "
					"GraphML)",
					words);
		if (field_i64(&s, l) || el_rest(s) != EL_EOL || *l < INT32_MIN || *l > INT32_MAX)
			return gsi_fail(fp, -2, "%s",
					gs_third_column((word = el_word(&w)) ? word : ""));
		return 3;
	}
	if (rest == EL_DICT)
		fp->el_attrs++;
	return 2;
}

int
gsi_read_edgelist(gs_file *fp, gs_rec *rec)
{
	int64_t m = 0, cap = 0, a, b, l = 0, maxid = -1;
	int ncol = 0, rc, cols;
	smap map = { 0 };

	gs_rec_graph(rec, 0, 0, 0, GS_NONE);
	rec->from_edgelist = 1;
	fp->el_attrs = 0;
	fp->el_commas = 0;
	fp->el_first_names = 0;
	fp->el_first_line = 0;
	while ((rc = gsi_read_line(fp)) == 1) {
		char *s = fp->line;
		if (strncmp(s, UTF8_BOM, 3) == 0)
			s += 3; /* `cat` of files that each begin with one */
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\0')
			continue;
		if (*s == '@') {
			rc = gsi_fail(fp, -2,
				      "record header outside a stream "
				      "(missing '##gnnstream' line?)");
			break;
		}
		if ((rc = el_ids(fp, rec, m, &map, &s, &a, &b)) ||
		    (rc = cols = el_label(fp, s, &l)) < 0)
			break;
		if (ncol == 0)
			ncol = cols;
		else if (cols != ncol) {
			rc = gsi_fail(fp, -2, "%d fields where earlier lines have %d", cols, ncol);
			break;
		}
		if (a < 0 || b < 0 || a >= GS_MAX_NODES || b >= GS_MAX_NODES) {
			rc = gsi_fail(fp, -2, "node id %" PRId64 " out of range (0..%lld)",
				      (a < 0 || a >= GS_MAX_NODES) ? a : b, GS_MAX_NODES - 1);
			break;
		}
		if (m == cap) {
			cap = cap ? 2 * cap : 4096;
			gsi_shape_edges(rec, cap, ncol == 3 ? GS_I32 : GS_NONE);
		}
		rec->u[m] = (int32_t)a;
		rec->v[m] = (int32_t)b;
		if (ncol == 3)
			((int32_t *)rec->lab)[m] = (int32_t)l;
		maxid = a > maxid ? a : maxid;
		maxid = b > maxid ? b : maxid;
		m++;
	}
	smap_free(&map);
	if (rc == 0)
		rc = el_header(fp, m);
	if (rc < 0)
		return rc;
	if (m == 0)
		return gsi_fail(fp, -2, "empty input (no gnnstream header and no edges)");
	rec->m = m;
	rec->ltype = ncol == 3 ? GS_I32 : GS_NONE;
	rec->n = fp->el_named ? fp->el_nnames : (int32_t)(maxid + 1);
	fp->recno = 1;
	return GS_GRAPH;
}
/* ------------------------------------------------------------------ */
/* writing                                                            */
/* ------------------------------------------------------------------ */

/* Text form of one value. */
static int
fmt_value(char *s, size_t cap, int dtype, const void *data, int64_t i)
{
	switch (dtype) {
	case GS_I32:
		return snprintf(s, cap, "%" PRId32, ((const int32_t *)data)[i]);
	case GS_I64:
		return snprintf(s, cap, "%" PRId64, ((const int64_t *)data)[i]);
	case GS_F32:
		return snprintf(s, cap, "%.9g", (double)((const float *)data)[i]);
	case GS_F64:
		return snprintf(s, cap, "%.17g", ((const double *)data)[i]);
	}
	return 0;
}

/* Decimal of a non-negative int32 into s (returns length), fast path for
 * edge lists. */
static int
put_i32(char *s, int32_t v)
{
	char t[12];
	int n = 0, k = 0;
	uint32_t x = v < 0 ? (uint32_t)(-(int64_t)v) : (uint32_t)v;

	if (v < 0)
		s[k++] = '-';
	do {
		t[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	while (n)
		s[k++] = t[--n];
	return k;
}

void
gsi_txt_put_header(gs_file *fp, const char *h)
{
	gsi_wputs(fp, "@");
	gsi_wputs(fp, h);
	gsi_wputs(fp, "\n");
}

void
gsi_txt_put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols)
{
	int64_t r, c;
	char line[64];

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			int n = fmt_value(line, sizeof line - 1, dtype, data, r * cols + c);
			line[n++] = c + 1 == cols ? '\n' : '\t';
			gsi_wput(fp, line, (size_t)n);
		}
}

/* "u\tv[\tlabel]\n" a line. */
void
gsi_txt_put_pairs(gs_file *fp, const gs_rec *r)
{
	int64_t i;

	for (i = 0; i < r->m; i++) {
		char line[96];
		int n = put_i32(line, r->u[i]);
		line[n++] = '\t';
		n += put_i32(line + n, r->v[i]);
		if (r->ltype != GS_NONE) {
			line[n++] = '\t';
			n += fmt_value(line + n, sizeof line - (size_t)n - 1, r->ltype, r->lab, i);
		}
		line[n++] = '\n';
		gsi_wput(fp, line, (size_t)n);
	}
}
