/*
 * stream_header.c - the header-line grammar of gnnstream records, which
 * both forms share (gnnstream(5), "Records"): "kind key=value
 * key=\"quoted value\" ...", parsed into a gs_rec with every size checked
 * against the hard limits of stream.h before anything is allocated, and
 * formatted back from one.  Below the two forms (stream_text.c,
 * stream_bin.c), above the records (stream_rec.c) and the file object
 * (stream_file.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "stream.h"
#include "stream_int.h"

/* ------------------------------------------------------------------ */
/* value types                                                        */
/* ------------------------------------------------------------------ */

const char *
gsi_dtype_name(int dtype)
{
	switch (dtype) {
	case GS_F32:
		return "f32";
	case GS_F64:
		return "f64";
	case GS_I32:
		return "i32";
	case GS_I64:
		return "i64";
	}
	return "none";
}

static int
dtype_parse(const char *s)
{
	if (strcmp(s, "f32") == 0)
		return GS_F32;
	if (strcmp(s, "f64") == 0)
		return GS_F64;
	if (strcmp(s, "i32") == 0)
		return GS_I32;
	if (strcmp(s, "i64") == 0)
		return GS_I64;
	if (strcmp(s, "none") == 0)
		return GS_NONE;
	return -1;
}

/* ------------------------------------------------------------------ */
/* header lines: "kind key=value key=\"quoted value\" ..."            */
/* ------------------------------------------------------------------ */

static int
parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (*s == '\0')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Split the next token of *sp into key and value (in place).  Returns 1 for
 * a token, 0 at end of line, -1 on a syntax error.
 */
static int
next_token(char **sp, char **key, char **val)
{
	char *s = *sp, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return 0;
	*key = s;
	while (*s && *s != '=' && *s != ' ' && *s != '\t')
		s++;
	if (*s != '=')
		return -1;
	*s++ = '\0';
	if (*s == '"') {
		*val = w = ++s;
		for (;;) {
			if (*s == '\0')
				return -1;
			if (*s == '"')
				break;
			if (*s == '\\') {
				s++;
				switch (*s) {
				case 'n':
					*w++ = '\n';
					break;
				case 't':
					*w++ = '\t';
					break;
				case '\\':
				case '"':
					*w++ = *s;
					break;
				default:
					return -1;
				}
				s++;
				continue;
			}
			*w++ = *s++;
		}
		*w = '\0';
		s++;
		if (*s != '\0' && *s != ' ' && *s != '\t')
			return -1;
	} else {
		*val = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	if (*s)
		*s++ = '\0';
	*sp = s;
	return 1;
}

/* The keys a record's kind requires, as far as a header line has given
 * them, and the sizes of a model record that its body reads. */
struct hdr_keys {
	int id, n, m, rows, cols, type, value, cfg, params, bytes; /* the key was given */
	int64_t cfg_len, nparams;
};

/* The kind a header line's first word names (K_END for the trailer, a
 * model parameter's "param" as GS_TENSOR), the word in *kw; *sp moves past
 * it.  Returns the kind or an error code. */
static int
header_kind(gs_file *fp, char **sp, int is_param, char **kw)
{
	char *s = *sp;
	int kind = 0, t;

	while (*s == ' ')
		s++;
	*kw = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*sp = s;
	for (t = GS_PG; t <= GS_NAMES; t++)
		if (strcmp(*kw, gs_kind_name(t)) == 0)
			kind = t;
	if (strcmp(*kw, "end") == 0 && !is_param)
		kind = K_END;
	if (is_param)
		kind = strcmp(*kw, "param") == 0 ? GS_TENSOR : 0;
	if (kind == 0)
		return gsi_fail(fp, -2, "unknown record kind '%.40s'", *kw);
	return kind;
}

/* One key of the trailer "end records=N crc32=HEX". */
static int
end_key(gs_file *fp, const char *key, const char *val, int64_t *end_records, int64_t *end_crc)
{
	if (strcmp(key, "records") == 0) {
		if (parse_i64(val, 0, INT64_MAX, end_records))
			return gsi_fail(fp, -2, "end: bad records=%.40s", val);
	} else if (strcmp(key, "crc32") == 0) {
		char *e;
		unsigned long c = strtoul(val, &e, 16);
		if (*e || e == val || strlen(val) > 8)
			return gsi_fail(fp, -2, "end: bad crc32=%.40s", val);
		*end_crc = (int64_t)c;
	} else {
		return gsi_fail(fp, -2, "end: unknown key '%.40s'", key);
	}
	return 0;
}

/* A size key (nodes=, edges=, count=, rows=, cols=) of its kind, checked
 * against the hard limits.  Returns 1 if key is one, 0 if not, or an error
 * code. */
static int
size_key(gs_file *fp, int kind, const char *key, const char *val, gs_rec *rec, struct hdr_keys *h)
{
	int64_t x;

	if (strcmp(key, "nodes") == 0 && kind == GS_GRAPH) {
		if (parse_i64(val, 0, INT64_MAX, &x))
			return gsi_fail(fp, -2, "bad nodes=%.40s", val);
		if (x > GS_MAX_NODES)
			return gsi_fail(fp, -2, "nodes=%" PRId64 " exceeds the limit %lld", x,
					GS_MAX_NODES);
		rec->n = (int32_t)x;
		h->n = 1;
	} else if ((strcmp(key, "edges") == 0 && kind == GS_GRAPH) ||
		   (strcmp(key, "count") == 0 && kind == GS_PAIRS)) {
		if (parse_i64(val, 0, INT64_MAX, &x))
			return gsi_fail(fp, -2, "bad %s=%.40s", key, val);
		if (x > GS_MAX_EDGES)
			return gsi_fail(fp, -2, "%s=%" PRId64 " exceeds the limit %lld", key, x,
					GS_MAX_EDGES);
		rec->m = x;
		h->m = 1;
	} else if (strcmp(key, "count") == 0 && kind == GS_NAMES) {
		if (parse_i64(val, 0, GS_MAX_NODES, &x))
			return gsi_fail(fp, -2, "bad count=%.40s (at most %lld names)", val,
					GS_MAX_NODES);
		rec->n = (int32_t)x;
		h->n = 1;
	} else if (strcmp(key, "bytes") == 0 && kind == GS_NAMES) {
		if (parse_i64(val, 0, GS_MAX_NAMES_BYTES, &x))
			return gsi_fail(fp, -2, "bad bytes=%.40s (at most %lld)", val,
					GS_MAX_NAMES_BYTES);
		rec->names_len = (size_t)x;
		h->bytes = 1;
	} else if ((strcmp(key, "rows") == 0 || strcmp(key, "cols") == 0) && kind == GS_TENSOR) {
		if (parse_i64(val, 0, INT64_MAX, &x))
			return gsi_fail(fp, -2, "bad %s=%.40s", key, val);
		if (x > GS_MAX_ELEMS)
			return gsi_fail(fp, -2, "%s=%" PRId64 " exceeds the limit %lld", key, x,
					GS_MAX_ELEMS);
		if (key[0] == 'r')
			rec->rows = x, h->rows = 1;
		else
			rec->cols = x, h->cols = 1;
	} else {
		return 0;
	}
	return 1;
}

/* One key=value of a record header of kind: a field of rec, or else an
 * attribute.  Returns 0 or an error code. */
static int
header_key(gs_file *fp, int kind, const char *key, const char *val, gs_rec *rec, struct hdr_keys *h)
{
	int rc;

	if (strcmp(key, "id") == 0) {
		if (kind == GS_PG) {
			snprintf(rec->pg, sizeof rec->pg, "%s", val);
		} else if (parse_i64(val, 0, INT64_MAX, &rec->id)) {
			return gsi_fail(fp, -2, "bad id=%.40s (want an integer >= 0)", val);
		}
		h->id = 1;
	} else if (strcmp(key, "pg") == 0 && kind != GS_PG) {
		snprintf(rec->pg, sizeof rec->pg, "%s", val);
	} else if (strcmp(key, "name") == 0 && kind != GS_PG && kind != GS_GRAPH) {
		if (strlen(val) >= GS_NAME_MAX)
			return gsi_fail(fp, -2, "name too long (max %d)", GS_NAME_MAX - 1);
		gsi_set_name(rec->name, val);
	} else if ((rc = size_key(fp, kind, key, val, rec, h)) != 0) {
		return rc < 0 ? rc : 0;
	} else if (strcmp(key, "labels") == 0 && (kind == GS_GRAPH || kind == GS_PAIRS)) {
		int d = dtype_parse(val);
		if (d != GS_NONE && d != GS_I32 && d != GS_F64)
			return gsi_fail(fp, -2, "bad labels=%.40s (none, i32 or f64)", val);
		rec->ltype = d;
	} else if (strcmp(key, "type") == 0 && kind == GS_TENSOR) {
		rec->dtype = dtype_parse(val);
		if (rec->dtype <= 0)
			return gsi_fail(fp, -2, "bad type=%.40s (f32, f64, i32 or i64)", val);
		h->type = 1;
	} else if (strcmp(key, "columns") == 0 && kind == GS_TENSOR) {
		gsi_set_columns(rec, val);
	} else if (strcmp(key, "value") == 0 && kind == GS_LABEL) {
		if (parse_i64(val, INT64_MIN, INT64_MAX, &rec->value))
			return gsi_fail(fp, -2, "bad value=%.40s (want an integer)", val);
		h->value = 1;
	} else if (strcmp(key, "config") == 0 && kind == GS_MODEL) {
		if (parse_i64(val, 0, GS_MAX_TEXT, &h->cfg_len))
			return gsi_fail(fp, -2, "bad config=%.40s (bytes, at most %lld)", val,
					GS_MAX_TEXT);
		h->cfg = 1;
	} else if (strcmp(key, "params") == 0 && kind == GS_MODEL) {
		if (parse_i64(val, 0, GS_MAX_PARAMS, &h->nparams))
			return gsi_fail(fp, -2, "bad params=%.40s (at most %d)", val,
					GS_MAX_PARAMS);
		h->params = 1;
	} else {
		gs_attr_set(rec, key, val);
	}
	return 0;
}

/* A tensor's shape within the element limit, and its columns= naming as
 * many columns as cols=. */
static int
tensor_complete(gs_file *fp, const gs_rec *rec)
{
	if (rec->cols > 0 && rec->rows > GS_MAX_ELEMS / rec->cols)
		return gsi_fail(fp, -2,
				"tensor of %" PRId64 " x %" PRId64
				" exceeds the limit of %lld elements",
				rec->rows, rec->cols, GS_MAX_ELEMS);
	if (rec->columns && rec->columns[0]) {
		int64_t names = 1;
		for (const char *c = rec->columns; *c; c++)
			names += *c == ',';
		if (names != rec->cols)
			return gsi_fail(fp, -2,
					"columns= names %" PRId64 " column%s, but cols=%" PRId64,
					names, names == 1 ? "" : "s", rec->cols);
	}
	return 0;
}

/* The keys kind requires are all there (kw, the line's first word, names
 * it).  Returns kind or an error code. */
static int
header_complete(gs_file *fp, int kind, const char *kw, int is_param, const struct hdr_keys *h,
		gs_rec *rec)
{
	int rc;

	if (!h->id && kind != GS_MODEL && !is_param)
		return gsi_fail(fp, -2, "%s record without id=", kw);
	switch (kind) {
	case GS_GRAPH:
		if (!h->n || !h->m)
			return gsi_fail(fp, -2, "graph record needs nodes= and edges=");
		break;
	case GS_PAIRS:
		if (!h->m)
			return gsi_fail(fp, -2, "pairs record needs count=");
		break;
	case GS_TENSOR:
		if (!h->rows || !h->cols || !h->type)
			return gsi_fail(fp, -2, "tensor record needs rows=, cols= and type=");
		if ((rc = tensor_complete(fp, rec)))
			return rc;
		break;
	case GS_LABEL:
		if (!h->value)
			return gsi_fail(fp, -2, "label record needs value=");
		break;
	case GS_NAMES: /* bytes= frames the binary body; text has a name a line */
		if (!h->n || (!h->bytes && !fp->text))
			return gsi_fail(fp, -2, "names record needs count= and bytes=");
		if (!h->bytes)
			rec->names_len = 0;
		break;
	case GS_MODEL:
		if (!h->cfg || !h->params)
			return gsi_fail(fp, -2, "model record needs config= and params=");
		rec->config_len = (size_t)h->cfg_len;
		rec->nparams = (int)h->nparams;
		break;
	}
	return kind;
}

/* In phases: the kind, each key (of the trailer, or of a record), then the
 * keys the kind requires. */
int
gsi_parse_header(gs_file *fp, char *hdr, gs_rec *rec, int64_t *end_records, int64_t *end_crc,
		 int is_param)
{
	struct hdr_keys h = { 0 };
	char *s = hdr, *kw, *key, *val;
	int kind, t, rc;

	kind = header_kind(fp, &s, is_param, &kw);
	if (kind < 0)
		return kind;
	gs_rec_clear(rec);
	rec->kind = kind == K_END ? 0 : kind;
	*end_records = -1;
	*end_crc = -1;
	while ((t = next_token(&s, &key, &val)) == 1) {
		if (kind == K_END)
			rc = end_key(fp, key, val, end_records, end_crc);
		else
			rc = header_key(fp, kind, key, val, rec, &h);
		if (rc)
			return rc;
	}
	if (t < 0)
		return gsi_fail(fp, -2, "malformed record header (want key=value pairs)");
	if (kind == K_END)
		return K_END;
	return header_complete(fp, kind, kw, is_param, &h, rec);
}

/* ------------------------------------------------------------------ */
/* header text, as a writer puts it                                   */
/* ------------------------------------------------------------------ */

/* A value is quoted when it holds blanks, quotes, '=' or is empty. */
static void
put_value(char *dst, size_t cap, const char *v)
{
	size_t k = 0;
	const char *c;
	int quote = *v == '\0' || strpbrk(v, " \t\n\"\\=") != NULL;

	if (!quote) {
		snprintf(dst, cap, "%s", v);
		return;
	}
	dst[k++] = '"';
	for (c = v; *c && k + 4 < cap; c++) {
		if (*c == '"' || *c == '\\')
			dst[k++] = '\\', dst[k++] = *c;
		else if (*c == '\n')
			dst[k++] = '\\', dst[k++] = 'n';
		else if (*c == '\t')
			dst[k++] = '\\', dst[k++] = 't';
		else
			dst[k++] = *c;
	}
	dst[k++] = '"';
	dst[k] = '\0';
}

/* Header text of a record (without the '@' of the text form). */
char *
gsi_format_header(const gs_file *fp, const gs_rec *r, char **buf, size_t *cap)
{
	size_t len = 0;
	int i;
	const char *pg = r->pg[0] ? r->pg : fp->pgid;

#define APPEND(...) \
	do { \
		int n_ = snprintf(*buf + len, *cap - len, __VA_ARGS__); \
		if (n_ < 0) \
			die("internal error: header format"); \
		if ((size_t)n_ >= *cap - len) { \
			*cap = 2 * (*cap + (size_t)n_); \
			*buf = xrealloc(*buf, *cap); \
			n_ = snprintf(*buf + len, *cap - len, __VA_ARGS__); \
		} \
		len += (size_t)n_; \
	} while (0)

	if (*buf == NULL) {
		*cap = 1024;
		*buf = xmalloc(*cap);
	}
	switch (r->kind) {
	case GS_PG:
		APPEND("pg id=%s", r->pg);
		break;
	case GS_GRAPH:
		APPEND("graph id=%" PRId64 " nodes=%d edges=%" PRId64, r->id, r->n, r->m);
		if (r->ltype != GS_NONE)
			APPEND(" labels=%s", gsi_dtype_name(r->ltype));
		APPEND(" pg=%s", pg);
		break;
	case GS_PAIRS:
		APPEND("pairs id=%" PRId64 " name=%s count=%" PRId64, r->id, r->name, r->m);
		if (r->ltype != GS_NONE)
			APPEND(" labels=%s", gsi_dtype_name(r->ltype));
		APPEND(" pg=%s", pg);
		break;
	case GS_TENSOR:
		APPEND("tensor id=%" PRId64 " name=%s rows=%" PRId64 " cols=%" PRId64 " type=%s",
		       r->id, r->name, r->rows, r->cols, gsi_dtype_name(r->dtype));
		if (r->columns && r->columns[0])
			APPEND(" columns=%s", r->columns);
		APPEND(" pg=%s", pg);
		break;
	case GS_LABEL:
		APPEND("label id=%" PRId64 " name=%s value=%" PRId64 " pg=%s", r->id, r->name,
		       r->value, pg);
		break;
	case GS_MODEL:
		APPEND("model name=%s config=%zu params=%d pg=%s", r->name, r->config_len,
		       r->nparams, pg);
		break;
	case GS_NAMES:
		APPEND("names id=%" PRId64 " count=%" PRId32 " bytes=%zu pg=%s", r->id, r->n,
		       r->names_len, pg);
		break;
	default:
		die("internal error: writing a record of kind %d", r->kind);
	}
	for (i = 0; i < r->nattr; i++) {
		/* room for every byte escaped, the quotes and the NUL: a value
		 * is never cut (a long command line, say) */
		size_t vc = 2 * strlen(r->aval[i]) + 3;
		char *v = xmalloc(vc);
		put_value(v, vc, r->aval[i]);
		APPEND(" %s=%s", r->akey[i], v);
		free(v);
	}
#undef APPEND
	return *buf;
}

/* Header text of a model parameter. */
char *
gsi_format_param(const gs_param *p, char *h, size_t cap)
{
	snprintf(h, cap, "param name=%s rows=%" PRId64 " cols=%" PRId64 " type=%s", p->name,
		 p->rows, p->cols, gsi_dtype_name(p->dtype));
	return h;
}
