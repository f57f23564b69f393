/*
 * import_mtx.c - a Matrix Market matrix as a graph (SuiteSparse, the NIST
 * Matrix Market); see import.h.
 *
 * The banner "%%MatrixMarket matrix coordinate FIELD SYMMETRY", comment
 * lines ('%'), a size line "rows cols entries", then one "i j [value]"
 * line per stored entry, 1-based.  A square matrix is the graph of its
 * nonzeros off the diagonal: node i-1 is row and column i.  igraph reads
 * no Matrix Market, hence this reader.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err.h"
#include "import.h"

/* Everything an import holds, freed at the end whatever happened. */
struct mtx {
	const struct import_opts *o;
	lreader r;
	fields fs;
	edges es;
	char field[16], symmetry[16];
	int values;	      /* entries carry a value (real, integer) */
	int general;	      /* a general matrix: direction to check */
	int64_t n, want, got; /* order, entries announced, entries read */
	int64_t zeros, oneway;
};

/* ---- the banner ---- */
static int
banner(struct mtx *M)
{
	lreader *r = &M->r;
	static const char *const fields_ok[] = { "pattern", "real", "integer", NULL };
	static const char *const sym_ok[] = { "general", "symmetric", "skew-symmetric", NULL };
	int i = lr_next(r);

	if (i <= 0)
		return i < 0 ? -1 : lr_fail(r->err, "%s: empty file", r->path);
	if (strncmp(r->buf, "%%MatrixMarket", 14) != 0)
		return lr_bad(r, "not a Matrix Market file (no '%%%%MatrixMarket' banner)");
	lr_split(&M->fs, r->buf, " ");
	if (M->fs.n != 5 || strcasecmp(M->fs.f[1], "matrix") != 0)
		return lr_bad(r, "want '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
	if (strcasecmp(M->fs.f[2], "coordinate") != 0)
		return lr_bad(r,
			      "format '%.20s' is not read (a graph is a sparse 'coordinate' "
			      "matrix)",
			      M->fs.f[2]);
	for (i = 0; fields_ok[i] && strcasecmp(M->fs.f[3], fields_ok[i]) != 0; i++)
		;
	if (fields_ok[i] == NULL)
		return lr_bad(r, "field '%.20s' is not read (pattern, real or integer)",
			      M->fs.f[3]);
	M->values = i > 0;
	snprintf(M->field, sizeof M->field, "%s", fields_ok[i]);
	for (i = 0; sym_ok[i] && strcasecmp(M->fs.f[4], sym_ok[i]) != 0; i++)
		;
	if (sym_ok[i] == NULL)
		return lr_bad(r,
			      "symmetry '%.20s' is not read (general, symmetric or "
			      "skew-symmetric)",
			      M->fs.f[4]);
	M->general = i == 0;
	snprintf(M->symmetry, sizeof M->symmetry, "%s", sym_ok[i]);
	return 0;
}

/* The next line that is not a comment or blank: 1, or 0 at the end. */
static int
next_data(lreader *r)
{
	int k;

	while ((k = lr_next(r)) > 0)
		if (!lr_blank(r->buf) && lr_trim(r->buf)[0] != '%')
			return 1;
	return k;
}

/* ---- the size line ---- */
static int
size_line(struct mtx *M)
{
	lreader *r = &M->r;
	int64_t rows, cols;
	int k = next_data(r);

	if (k <= 0)
		return k < 0 ? -1 : lr_fail(r->err, "%s: no size line", r->path);
	lr_split(&M->fs, lr_trim(r->buf), " ");
	if (M->fs.n != 3)
		return lr_bad(r, "%d fields, want the size line 'rows columns entries'", M->fs.n);
	if (lr_need_i64(r, M->fs.f[0], 1, INT64_MAX, "rows", &rows) != 0 ||
	    lr_need_i64(r, M->fs.f[1], 1, INT64_MAX, "columns", &cols) != 0 ||
	    lr_need_i64(r, M->fs.f[2], 0, INT64_MAX, "entries", &M->want) != 0)
		return -1;
	if (rows != cols)
		return lr_bad(r,
			      "a %" PRId64 " x %" PRId64 " matrix is not a graph (want a "
			      "square matrix)",
			      rows, cols);
	if (rows > GS_MAX_NODES)
		return lr_bad(r, "%" PRId64 " rows exceed the node limit %lld", rows, GS_MAX_NODES);
	M->n = rows;
	return 0;
}

/* ---- the entries ---- */
static int
entry(struct mtx *M)
{
	lreader *r = &M->r;
	int64_t i, j;
	double x = 1;
	char *end;

	lr_split(&M->fs, lr_trim(r->buf), " ");
	if (M->fs.n != 2 + M->values)
		return lr_bad(r, "%d fields, want '%s'", M->fs.n, M->values ? "i j value" : "i j");
	if (lr_need_i64(r, M->fs.f[0], 1, M->n, "row", &i) != 0 ||
	    lr_need_i64(r, M->fs.f[1], 1, M->n, "column", &j) != 0)
		return -1;
	if (M->values) {
		x = strtod(M->fs.f[2], &end);
		if (end == M->fs.f[2] || *end != '\0' || !isfinite(x))
			return lr_bad(r, "value '%.40s' is not a finite number", M->fs.f[2]);
	}
	if (++M->got > M->want)
		return lr_bad(r, "more entries than the %" PRId64 " the size line announces",
			      M->want);
	if (x == 0) { /* a stored zero is no edge */
		M->zeros++;
		return 0;
	}
	/* lab: which way the entry points, for a general matrix's check */
	import_edge_add(&M->es, 0, (int32_t)(i - 1), (int32_t)(j - 1), i < j ? 1 : 2, r->line);
	return 0;
}

/* A general matrix: count the pairs stored one way only (edges sorted). */
static void
count_oneway(struct mtx *M)
{
	int64_t a = 0, b;

	if (M->es.n > 0)
		qsort(M->es.e, (size_t)M->es.n, sizeof *M->es.e, import_edge_cmp);
	while (a < M->es.n) {
		int ways = 0;
		for (b = a; b < M->es.n && M->es.e[b].key == M->es.e[a].key; b++)
			ways |= M->es.e[b].lab;
		M->oneway += ways != 3;
		a = b;
	}
}

static int
read_mtx(struct mtx *M, const char *file)
{
	lreader *r = &M->r;
	int k;

	if (lr_open(r, file, M->o->src, r->err) != 0 || banner(M) != 0 || size_line(M) != 0)
		return -1;
	while ((k = next_data(r)) > 0)
		if (entry(M) != 0)
			return -1;
	if (k < 0)
		return -1;
	if (M->got < M->want)
		return lr_fail(r->err, "%s: the file ends after %" PRId64 " of %" PRId64 " entries",
			       r->path, M->got, M->want);
	if (M->general)
		count_oneway(M);
	import_edges_finish(&M->es, 0);
	return 0;
}

static void
warn_changes(const struct mtx *M)
{
	if (M->o->quiet)
		return;
	if (M->oneway > 0)
		warnx_("%s: the matrix is not symmetric (%" PRId64 " pair(s) stored one way): "
		       "direction dropped, each pair linked either way is one edge",
		       M->r.path, M->oneway);
	if (M->es.loops > 0 || M->zeros > 0)
		warnx_("%s: dropped %" PRId64 " diagonal entr%s and %" PRId64 " stored zero(s)%s",
		       M->r.path, M->es.loops, M->es.loops == 1 ? "y" : "ies", M->zeros,
		       M->values ? "; the values are not kept (the graph is the pattern)" : "");
	else if (M->values)
		warnx_("%s: the values are not kept (the graph is the pattern)", M->r.path);
}

/* ---- write: the graph ---- */
static void
write_mtx(const struct mtx *M, gs_file *out, const char *file)
{
	static const char *const sfx[] = { ".gz", ".mtx", ".mm", NULL };
	char dataset[256];
	gs_rec rec;

	import_dataset(dataset, sizeof dataset, M->o, file, sfx);
	gs_rec_init(&rec);
	import_put_graph(&rec, 0, (int32_t)M->n, M->es.e, M->es.n, 0);
	gs_attr_set(&rec, "format", "mtx");
	gs_attr_set(&rec, "dataset", dataset);
	gs_attr_set(&rec, "field", M->field);
	gs_attr_set(&rec, "symmetry", M->symmetry);
	gs_attr_setf(&rec, "entries", "%" PRId64, M->got);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, M->es.loops);
	gs_attr_setf(&rec, "zeros", "%" PRId64, M->zeros);
	gs_attr_setf(&rec, "duplicates", "%" PRId64, M->es.dups);
	gs_write1(out, &rec);
	gs_rec_free(&rec);
}

int
import_mtx(const struct import_opts *o, const char *file, gs_file *out, char *msg, size_t msglen)
{
	struct mtx M;
	int rc;

	memset(&M, 0, sizeof M);
	M.o = o;
	M.r.err = (struct lr_err){ msg, msglen };
	rc = read_mtx(&M, file);
	if (rc == 0) {
		warn_changes(&M);
		write_mtx(&M, out, file);
	}
	lr_close(&M.r);
	lr_fields_free(&M.fs);
	free(M.es.e);
	return rc;
}
