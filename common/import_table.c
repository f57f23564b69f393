/* import_table.c - node and graph tables (TSV, CSV, .npy); see import_table.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import_table.h"
#include "outfile.h"
#include "stream.h"

#define NPY_MAGIC "\x93NUMPY"

void
import_table_free(struct table *t)
{
	for (int c = 0; c < t->ncols; c++)
		free(t->col[c]);
	for (int64_t r = 0; t->rowbuf && r < t->nrows; r++) /* .npy: none */
		free(t->rowbuf[r]);
	free(t->col);
	free(t->cell);
	free(t->rowbuf);
	free(t->line);
	free(t->num);
	memset(t, 0, sizeof *t);
}

/* ---- text tables ---- */

/* The separator of a header line: tab, comma, semicolon, else blanks. */
static int
guess_delim(const char *s)
{
	if (strchr(s, '\t'))
		return '\t';
	if (strchr(s, ','))
		return ',';
	if (strchr(s, ';'))
		return ';';
	return ' ';
}

static void
add_field(fields *fs, char *f)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 16;
		fs->f = xreallocarray(fs->f, (size_t)fs->cap, sizeof *fs->f);
	}
	fs->f[fs->n++] = f;
}

/* A quoted field at *pp (its opening quote): unquoted in place ("" is a
 * quote), *pp left after the closing quote and any blanks.  0 or -1. */
static int
quoted(char **pp, char **field)
{
	char *p = *pp + 1, *w = *pp;

	*field = w;
	for (;;) {
		if (*p == '\0')
			return -1;
		if (*p == '"' && p[1] == '"') {
			*w++ = '"';
			p += 2;
		} else if (*p == '"') {
			p++;
			break;
		} else {
			*w++ = *p++;
		}
	}
	*w = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	*pp = p;
	return 0;
}

/* Split line s on d in place: fields trimmed unless d is a tab, quoted
 * fields unquoted; blanks (d ' ') split on runs of blanks, no quotes.
 * Returns the field count, or -1 (a quote not closed, or text after it). */
static int
split_row(fields *fs, char *s, int d)
{
	char *p = s;

	if (d == ' ')
		return lr_split(fs, s, " ");
	fs->n = 0;
	for (;;) {
		char *f;
		if (d != '\t')
			while (*p == ' ' || *p == '\t')
				p++;
		if (*p == '"') {
			if (quoted(&p, &f) != 0 || (*p != '\0' && *p != d))
				return -1;
		} else {
			f = p;
			while (*p != '\0' && *p != d)
				p++;
		}
		int end = *p == '\0';
		*p = '\0';
		add_field(fs, d == '\t' ? f : lr_trim(f));
		if (end)
			return fs->n;
		p++;
	}
}

/* The header line in r->buf: the column names. */
static int
text_header(struct table *t, lreader *r, fields *fs, int *delim)
{
	char *s = r->buf;

	if ((unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb &&
	    (unsigned char)s[2] == 0xbf)
		s += 3; /* a byte-order mark (Excel's CSV) */
	if (*delim == 0)
		*delim = guess_delim(s);
	if (split_row(fs, s, *delim) < 0)
		return lr_bad(r, "header: a quoted field is not closed where it ends");
	t->ncols = fs->n;
	t->col = xcalloc((size_t)fs->n, sizeof *t->col);
	for (int c = 0; c < fs->n; c++) {
		if (fs->f[c][0] == '\0')
			return lr_bad(r, "header: column %d has no name", c + 1);
		if (import_table_col(t, fs->f[c]) >= 0)
			return lr_bad(r, "header: column '%.40s' twice", fs->f[c]);
		t->col[c] = xstrdup(fs->f[c]);
	}
	return 0;
}

/* A row in r->buf. */
static int
text_row(struct table *t, lreader *r, fields *fs, int delim)
{
	int64_t i = t->nrows;
	char *s;

	if (i >= GS_MAX_NODES)
		return lr_bad(r, "more than %lld rows", (long long)GS_MAX_NODES);
	if (i == t->rowcap) {
		t->rowcap = t->rowcap ? 2 * t->rowcap : 1024;
		t->rowbuf = xreallocarray(t->rowbuf, (size_t)t->rowcap, sizeof *t->rowbuf);
		t->line = xreallocarray(t->line, (size_t)t->rowcap, sizeof *t->line);
		t->cell =
		    xreallocarray(t->cell, (size_t)t->rowcap, (size_t)t->ncols * sizeof *t->cell);
	}
	s = t->rowbuf[i] = xstrdup(r->buf);
	t->line[i] = r->line;
	t->nrows++;
	if (split_row(fs, s, delim) < 0)
		return lr_bad(r, "a quoted field is not closed where it ends (a field "
				 "spanning lines is not read)");
	if (fs->n != t->ncols)
		return lr_bad(r, "%d field%s, want %d as in the header", fs->n,
			      fs->n == 1 ? "" : "s", t->ncols);
	memcpy(t->cell + i * t->ncols, fs->f, (size_t)t->ncols * sizeof *fs->f);
	return 0;
}

static int
read_text(struct table *t, const char *path, int delim, struct lr_err err)
{
	lreader r;
	fields fs = { NULL, 0, 0 };
	int k, rc = 0;

	memset(&r, 0, sizeof r);
	if (lr_open(&r, path, NULL, err) != 0)
		return -1;
	snprintf(t->path, sizeof t->path, "%s", r.path);
	while (rc == 0 && (k = lr_next(&r)) > 0) {
		if (lr_blank(r.buf))
			continue;
		rc = t->col == NULL ? text_header(t, &r, &fs, &delim) : text_row(t, &r, &fs, delim);
	}
	if (rc == 0 && k < 0)
		rc = -1;
	if (rc == 0 && t->col == NULL)
		rc = lr_fail(err, "%s: empty: no header line", t->path);
	if (rc == 0 && t->nrows == 0)
		rc = lr_fail(err, "%s: no rows after the header", t->path);
	lr_fields_free(&fs);
	lr_close(&r);
	return rc;
}

/* ---- .npy ---- */

/* The value of key ('descr', ...) in a .npy header dict, or NULL. */
static const char *
npy_key(const char *h, const char *key)
{
	const char *p = strstr(h, key);

	if (p == NULL)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == ':')
		p++;
	return p;
}

/* Whether the header h is one dict, "{...}" with blanks around, that
 * names each of its keys once; NULL, or what is wrong. */
static const char *
npy_dict_bad(const char *h)
{
	static const char *const keys[] = { "descr", "fortran_order", "shape" };
	size_t n = strlen(h);

	while (*h == ' ')
		h++, n--;
	while (n > 0 && (h[n - 1] == ' ' || h[n - 1] == '\n'))
		n--;
	if (n < 2 || h[0] != '{' || h[n - 1] != '}')
		return "the header is not a dict '{...}'";
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		char q[2][24];
		int seen = 0;
		snprintf(q[0], sizeof q[0], "'%s'", keys[i]);
		snprintf(q[1], sizeof q[1], "\"%s\"", keys[i]);
		for (int j = 0; j < 2; j++)
			for (const char *p = strstr(h, q[j]); p; p = strstr(p + 1, q[j]))
				seen++;
		if (seen > 1)
			return keys[i] == keys[0]   ? "the header names 'descr' twice"
			       : keys[i] == keys[1] ? "the header names 'fortran_order' twice"
						    : "the header names 'shape' twice";
	}
	return NULL;
}

/* The element type of descr ("'<f4'"): kind i, u, b or f, size in *size. */
static int
npy_descr(const char *d, int *kind, int *size)
{
	char order;

	if (d == NULL || (d[0] != '\'' && d[0] != '"'))
		return -1;
	order = d[1];
	if (order != '<' && order != '|' && order != '=' && order != '>')
		return -1;
	if (order == '>')
		return -2;
	*kind = d[2];
	*size = d[3] - '0';
	if (d[4] != d[0] || strchr("iubf", *kind) == NULL || *kind == 0)
		return -1;
	if (*kind == 'f' ? *size != 4 && *size != 8
			 : *size != 1 && *size != 2 && *size != 4 && *size != 8)
		return -1;
	return 0;
}

/* The shape "(n,)" or "(n, k)" into *n, *k (1 for one dimension). */
static int
npy_shape(const char *s, int64_t *n, int64_t *k)
{
	char *e;
	int dims = 0;
	int64_t v[3];

	if (s == NULL || *s++ != '(')
		return -1;
	while (dims < 3) {
		while (*s == ' ')
			s++;
		if (*s == ')')
			break;
		if (*s < '0' || *s > '9')
			return -1;
		v[dims++] = strtoll(s, &e, 10);
		s = e;
		while (*s == ' ')
			s++;
		if (*s == ',')
			s++;
	}
	if (*s != ')' || dims < 1 || dims > 2)
		return -1;
	*n = v[0];
	*k = dims == 2 ? v[1] : 1;
	return 0;
}

/* Element i of a little-endian array of kind and size at p, as a double. */
static double
npy_elem(const unsigned char *p, int kind, int size)
{
	uint64_t u = 0;

	for (int b = size - 1; b >= 0; b--)
		u = u << 8 | p[b];
	if (kind == 'f') {
		if (size == 4) {
			float f;
			uint32_t w = (uint32_t)u;
			memcpy(&f, &w, 4);
			return f;
		}
		double d;
		memcpy(&d, &u, 8);
		return d;
	}
	if (kind == 'i' && size < 8 && (u >> (8 * size - 1)) & 1)
		u |= ~(uint64_t)0 << (8 * size); /* sign-extend */
	return kind == 'i' ? (double)(int64_t)u : (double)u;
}

/* Whether the integer element at p (kind i or u, 8 bytes: the only ones
 * that can) fits a double exactly, |v| <= 2^53, as every value of a table
 * must: a class or attribute is never a rounded or wrapped number.  The
 * value as text in buf. */
static int
npy_int_fits(const unsigned char *p, int kind, int size, char *buf, size_t len)
{
	uint64_t u = 0;

	if (kind == 'f' || kind == 'b' || size < 8)
		return 1;
	for (int b = 7; b >= 0; b--)
		u = u << 8 | p[b];
	if (kind == 'u') {
		snprintf(buf, len, "%" PRIu64, u);
		return u <= (uint64_t)1 << 53;
	}
	int64_t v = (int64_t)u;
	snprintf(buf, len, "%" PRId64, v);
	return v >= -((int64_t)1 << 53) && v <= (int64_t)1 << 53;
}

/* The header of an open .npy file: its dict into h (hlen bytes). */
static int
npy_header(FILE *f, struct table *t, char **h, struct lr_err err)
{
	unsigned char pre[12];
	size_t hl;
	int v4;

	if (fread(pre, 1, 8, f) != 8) /* the magic, the version */
		return lr_fail(err, "%s: .npy: truncated header", t->path);
	v4 = pre[6] >= 2; /* versions 2 and 3: a 4-byte header length */
	if (pre[6] < 1 || pre[6] > 3)
		return lr_fail(err, "%s: .npy: version %d.%d is not read (1 to 3 are)", t->path,
			       pre[6], pre[7]);
	if (fread(pre + 8, 1, v4 ? 4 : 2, f) != (v4 ? 4u : 2u))
		return lr_fail(err, "%s: .npy: truncated header", t->path);
	hl = (size_t)pre[8] | (size_t)pre[9] << 8;
	if (v4)
		hl |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
	if (hl == 0 || hl > 1 << 20)
		return lr_fail(err, "%s: .npy: header of %zu bytes", t->path, hl);
	*h = xmalloc(hl + 1);
	if (fread(*h, 1, hl, f) != hl)
		return lr_fail(err, "%s: .npy: truncated header", t->path);
	(*h)[hl] = '\0';
	return 0;
}

/* The array's values into t->num, checked. */
static int
npy_values(FILE *f, struct table *t, int kind, int size, struct lr_err err)
{
	int64_t n = t->nrows, k = t->ncols, nk = n * k;
	unsigned char *buf = xmallocarray((size_t)nk + 1, (size_t)size);
	int extra;

	if (fread(buf, (size_t)size, (size_t)nk, f) != (size_t)nk) {
		free(buf);
		return lr_fail(err,
			       "%s: .npy: truncated: shape (%" PRId64 ", %" PRId64
			       ") wants %" PRId64 " bytes of data",
			       t->path, n, k, nk * size);
	}
	extra = fgetc(f) != EOF;
	t->num = xmallocarray((size_t)nk + 1, sizeof *t->num);
	for (int64_t i = 0; i < nk; i++) {
		char v[24];
		if (!npy_int_fits(buf + i * size, kind, size, v, sizeof v)) {
			free(buf);
			return lr_fail(
			    err,
			    "%s: .npy: row %" PRId64 ": value %" PRId64
			    " (%s) does not fit: integers up to 2^53 in magnitude are read",
			    t->path, i / k, i % k, v);
		}
		t->num[i] = npy_elem(buf + i * size, kind, size);
	}
	free(buf);
	if (extra)
		return lr_fail(err, "%s: .npy: bytes after the %" PRId64 " x %" PRId64 " values",
			       t->path, n, k);
	for (int64_t i = 0; i < nk; i++)
		if (!isfinite(t->num[i]))
			return lr_fail(err,
				       "%s: .npy: row %" PRId64 ": value %" PRId64 " is not finite",
				       t->path, i / k, i % k);
	return 0;
}

static int
read_npy(struct table *t, FILE *f, struct lr_err err)
{
	char *h = NULL;
	const char *fo, *bad;
	int kind = 0, size = 0, rc;
	int64_t n = 0, k = 0;

	t->npy = 1;
	rc = npy_header(f, t, &h, err);
	if (rc == 0 && (bad = npy_dict_bad(h)) != NULL)
		rc = lr_fail(err, "%s: .npy: %s", t->path, bad);
	if (rc == 0 && (rc = npy_descr(npy_key(h, "'descr'"), &kind, &size)) != 0)
		rc = lr_fail(err, "%s: .npy: %s", t->path,
			     rc == -2 ? "big-endian data is not read"
				      : "dtype is not an integer, boolean or float32/64 one");
	fo = rc == 0 ? npy_key(h, "'fortran_order'") : NULL;
	if (rc == 0 && (fo == NULL || strncmp(fo, "False", 5) != 0))
		rc = lr_fail(err, "%s: .npy: Fortran order is not read (np.ascontiguousarray)",
			     t->path);
	if (rc == 0 && npy_shape(npy_key(h, "'shape'"), &n, &k) != 0)
		rc = lr_fail(err, "%s: .npy: shape is not one or two dimensions", t->path);
	if (rc == 0 && (n < 1 || n > GS_MAX_NODES || k < 1 || k > 1 << 20))
		rc = lr_fail(err, "%s: .npy: shape (%" PRId64 ", %" PRId64 ") out of range",
			     t->path, n, k);
	free(h);
	if (rc != 0)
		return -1;
	t->nrows = n;
	t->ncols = (int)k;
	t->npy_int = kind != 'f';
	t->col = xcalloc((size_t)k, sizeof *t->col);
	for (int c = 0; c < t->ncols; c++) {
		char b[24];
		snprintf(b, sizeof b, "c%d", c);
		t->col[c] = xstrdup(b);
	}
	return npy_values(f, t, kind, size, err);
}

int
import_table_read(struct table *t, const char *path, int delim, struct lr_err err)
{
	char magic[6];
	FILE *f;
	int rc;

	memset(t, 0, sizeof *t);
	snprintf(t->path, sizeof t->path, "%s", strcmp(path, "-") == 0 ? "<stdin>" : path);
	if (strcmp(path, "-") == 0)
		return read_text(t, path, delim, err);
	if ((f = fopen(path, "rb")) == NULL)
		return lr_fail(err, "%s: %s", path, strerror(errno));
	outfile_input_fd(fileno(f), path); /* never an output's file */
	if (fread(magic, 1, 6, f) == 6 && memcmp(magic, NPY_MAGIC, 6) == 0) {
		rewind(f);
		rc = read_npy(t, f, err);
		fclose(f);
		return rc;
	}
	fclose(f);
	return read_text(t, path, delim, err);
}

/* ---- columns ---- */

int
import_table_col(const struct table *t, const char *name)
{
	for (int c = 0; c < t->ncols; c++)
		if (t->col[c] != NULL && strcmp(t->col[c], name) == 0)
			return c;
	return -1;
}

const char *
import_table_cell(const struct table *t, int64_t r, int c, char *buf, size_t len)
{
	double x;

	if (!t->npy)
		return t->cell[r * t->ncols + c];
	x = t->num[r * t->ncols + c];
	if (t->npy_int)
		snprintf(buf, len, "%lld", (long long)x);
	else
		snprintf(buf, len, "%.9g", x);
	return buf;
}

const char *
import_table_where(const struct table *t, int64_t r, char *buf, size_t len)
{
	if (t->npy)
		snprintf(buf, len, "%s: row %" PRId64, t->path, r);
	else
		snprintf(buf, len, "%s: line %" PRId64, t->path, t->line[r]);
	return buf;
}

void
import_table_classes(const struct table *t, int c, const char *unknown, int32_t *cls, classes *cl)
{
	char b[32];

	for (int64_t r = 0; r < t->nrows; r++) {
		const char *s = import_table_cell(t, r, c, b, sizeof b);
		cls[r] = s[0] == '\0' || (unknown && strcmp(s, unknown) == 0)
			     ? -1
			     : import_class_add(cl, s);
	}
	import_class_finish(cl);
	for (int64_t r = 0; r < t->nrows; r++)
		if (cls[r] >= 0)
			cls[r] = cl->rank[cls[r]];
}

int
import_table_floats(const struct table *t, const int *cols, int k, float *x, struct lr_err err)
{
	char b[32], w[4200];

	for (int64_t r = 0; r < t->nrows; r++)
		for (int j = 0; j < k; j++) {
			const char *s = import_table_cell(t, r, cols[j], b, sizeof b);
			if (lr_parse_f32(s, &x[r * k + j]) != 0)
				return lr_fail(
				    err, "%s: column '%.40s': '%.40s' is not a finite number",
				    import_table_where(t, r, w, sizeof w), t->col[cols[j]], s);
		}
	return 0;
}

int
import_table_keys(const struct table *t, int key, int ids, smap *m, struct lr_err err)
{
	char b[32], w[4200], w2[4200];

	for (int64_t r = 0; r < t->nrows; r++) {
		const char *s = import_table_cell(t, r, key, b, sizeof b);
		int64_t v;
		int32_t old;
		if (ids && lr_parse_i64(s, INT64_MIN, INT64_MAX, &v) != 0)
			return lr_fail(err, "%s: id '%.40s' is not an integer",
				       import_table_where(t, r, w, sizeof w), s);
		if (ids) /* "07" is 7 */
			snprintf(b, sizeof b, "%" PRId64, v), s = b;
		if ((old = smap_put(m, s, (int32_t)r)) >= 0)
			return lr_fail(err, "%s: '%.40s' again (first on %s)",
				       import_table_where(t, r, w, sizeof w), s,
				       import_table_where(t, old, w2, sizeof w2) + strlen(t->path) +
					   2);
	}
	return 0;
}

int
import_table_unused(const struct table *t, int key, const int32_t *row_of, int64_t n,
		    const char *what, int skip, int64_t *unmatched, struct lr_err err)
{
	char *used = xcalloc((size_t)t->nrows + 1, 1), b[32], w[4200];
	int64_t first = -1;

	for (int64_t i = 0; i < n; i++)
		if (row_of[i] >= 0)
			used[row_of[i]] = 1;
	*unmatched = 0;
	for (int64_t r = 0; r < t->nrows; r++)
		if (!used[r] && (*unmatched)++ == 0)
			first = r;
	free(used);
	if (first < 0 || skip)
		return 0;
	return lr_fail(err, "%s: '%.40s' is not %s (--skip-unknown drops such rows)",
		       import_table_where(t, first, w, sizeof w),
		       key >= 0 ? import_table_cell(t, first, key, b, sizeof b) : "?", what);
}

int
import_table_match(const struct table *t, int by, int key, const char *const *names, int64_t n,
		   int skip, int32_t *row_of, int64_t *unmatched, struct lr_err err)
{
	smap m = { 0 };
	char b[32];
	int rc;

	*unmatched = 0;
	if (by == TABLE_BY_ORDER) {
		for (int64_t i = 0; i < n; i++)
			row_of[i] = i < t->nrows ? (int32_t)i : -1;
		return t->nrows == n ? 0
				     : lr_fail(err,
					       "%s: %" PRId64 " rows for %" PRId64 " nodes: in "
					       "row order (--by order), row i describes node i",
					       t->path, t->nrows, n);
	}
	rc = import_table_keys(t, key, by == TABLE_BY_ID, &m, err);
	for (int64_t i = 0; i < n && rc == 0; i++) {
		if (by == TABLE_BY_ID)
			snprintf(b, sizeof b, "%" PRId64, i);
		row_of[i] = smap_get(&m, by == TABLE_BY_ID ? b : names[i]);
	}
	smap_free(&m);
	if (rc == 0)
		rc = import_table_unused(t, key, row_of, n,
					 by == TABLE_BY_ID ? "a node id of the graph (0 to nodes-1)"
							   : "a node name of the graph",
					 skip, unmatched, err);
	return rc;
}
