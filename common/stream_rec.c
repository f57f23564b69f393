/*
 * stream_rec.c - gnnstream records (gs_rec, stream.h): their arrays grown and
 * freed, their shapes set, their names, attributes and named columns.
 * The bottom of the stream files; nothing here knows the file object.
 * Above it: the file object and its buffers (stream_file.c), the header
 * grammar (stream_header.c), the two forms (stream_text.c,
 * stream_bin.c) and the dispatch between them (stream_rw.c: gs_read1,
 * gs_write1, gs_open_out).  Format in man/man5/gnnstream.5.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "stream.h"
#include "stream_int.h"

/* ------------------------------------------------------------------ */
/* records                                                            */
/* ------------------------------------------------------------------ */

void
gs_rec_init(gs_rec *r)
{
	memset(r, 0, sizeof *r);
	r->id = -1;
}

void
gs_rec_clear(gs_rec *r)
{
	int i;

	for (i = 0; i < r->nattr; i++) {
		free(r->akey[i]);
		free(r->aval[i]);
	}
	r->nattr = 0;
	r->kind = 0;
	r->id = -1;
	r->pg[0] = '\0';
	r->name[0] = '\0';
	r->n = 0;
	r->m = 0;
	r->ltype = GS_NONE;
	r->rows = r->cols = 0;
	r->dtype = GS_NONE;
	if (r->columns)
		r->columns[0] = '\0';
	r->value = 0;
	if (r->config)
		r->config[0] = '\0';
	r->config_len = 0;
	r->nparams = 0;
	r->names_len = 0;
	r->from_edgelist = 0;
}

void
gs_rec_free(gs_rec *r)
{
	int i;

	if (r == NULL)
		return;
	gs_rec_clear(r);
	free(r->akey);
	free(r->aval);
	free(r->u);
	free(r->v);
	free(r->lab);
	free(r->data);
	free(r->columns);
	free(r->config);
	free(r->names);
	for (i = 0; i < r->cap_params; i++)
		free(r->params[i].data);
	free(r->params);
	gs_rec_init(r);
}

double
gs_rec_bytes(const gs_rec *r)
{
	double b = 2.0 * (double)r->cap_m * sizeof(int32_t) + (double)r->cap_lab +
		   (double)r->cap_data + (double)r->cap_cfg + (double)r->cap_names;

	for (int i = 0; i < r->cap_params; i++)
		b += (double)r->params[i].cap;
	return b;
}

size_t
gs_dtype_size(int dtype)
{
	switch (dtype) {
	case GS_F32:
	case GS_I32:
		return 4;
	case GS_F64:
	case GS_I64:
		return 8;
	}
	return 0;
}
static const char *const kind_names[] = { NULL,	   "pg",    "graph", "tensor",
					  "pairs", "label", "model", "names" };

const char *
gs_kind_name(int kind)
{
	if (kind >= GS_PG && kind <= GS_NAMES)
		return kind_names[kind];
	return "?";
}

/* Grow *p (of *cap bytes) to hold n bytes. */
void
gsi_grow(void **p, size_t *cap, size_t n)
{
	if (n <= *cap && *p != NULL)
		return;
	*p = xrealloc(*p, n ? n : 1);
	*cap = n ? n : 1;
}

void
gsi_set_name(char *dst, const char *name)
{
	snprintf(dst, GS_NAME_MAX, "%s", name ? name : "");
}

void
gsi_shape_edges(gs_rec *r, int64_t m, int ltype)
{
	size_t nb = (size_t)m * sizeof(int32_t);

	if ((size_t)m > r->cap_m || r->u == NULL) {
		r->u = xrealloc(r->u, nb ? nb : 1);
		r->v = xrealloc(r->v, nb ? nb : 1);
		r->cap_m = (size_t)m;
	}
	r->m = m;
	r->ltype = ltype;
	if (ltype != GS_NONE)
		gsi_grow(&r->lab, &r->cap_lab, (size_t)m * gs_dtype_size(ltype));
}

void
gs_rec_graph(gs_rec *r, int64_t id, int32_t n, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_GRAPH;
	r->id = id;
	r->n = n;
	gsi_shape_edges(r, m, ltype);
}

void
gs_rec_pairs(gs_rec *r, int64_t id, const char *name, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_PAIRS;
	r->id = id;
	gsi_set_name(r->name, name);
	gsi_shape_edges(r, m, ltype);
}

void
gsi_set_columns(gs_rec *r, const char *columns)
{
	size_t len = strlen(columns ? columns : "") + 1;

	gsi_grow((void **)&r->columns, &r->cap_cols, len);
	memcpy(r->columns, columns ? columns : "", len);
}

void
gs_rec_tensor(gs_rec *r, int64_t id, const char *name, int64_t rows, int64_t cols, int dtype,
	      const char *columns)
{
	gs_rec_clear(r);
	r->kind = GS_TENSOR;
	r->id = id;
	gsi_set_name(r->name, name);
	r->rows = rows;
	r->cols = cols;
	r->dtype = dtype;
	gsi_grow(&r->data, &r->cap_data, (size_t)(rows * cols) * gs_dtype_size(dtype));
	gsi_set_columns(r, columns);
}

void
gs_rec_label(gs_rec *r, int64_t id, const char *name, int64_t value)
{
	gs_rec_clear(r);
	r->kind = GS_LABEL;
	r->id = id;
	gsi_set_name(r->name, name);
	r->value = value;
}

static void
set_config(gs_rec *r, const char *text, size_t len)
{
	gsi_grow((void **)&r->config, &r->cap_cfg, len + 1);
	memcpy(r->config, text, len);
	r->config[len] = '\0';
	r->config_len = len;
}

void
gsi_shape_params(gs_rec *r, int nparams)
{
	if (nparams > r->cap_params) {
		r->params = xreallocarray(r->params, (size_t)nparams, sizeof *r->params);
		memset(r->params + r->cap_params, 0,
		       (size_t)(nparams - r->cap_params) * sizeof *r->params);
		r->cap_params = nparams;
	}
	r->nparams = nparams;
}

void
gs_rec_model(gs_rec *r, const char *name, const char *config, int nparams)
{
	gs_rec_clear(r);
	r->kind = GS_MODEL;
	r->id = -1;
	gsi_set_name(r->name, name);
	set_config(r, config ? config : "", strlen(config ? config : ""));
	gsi_shape_params(r, nparams);
}

void
gs_rec_names(gs_rec *r, int64_t id, int32_t count, size_t bytes)
{
	gs_rec_clear(r);
	r->kind = GS_NAMES;
	r->id = id;
	r->n = count;
	gsi_grow((void **)&r->names, &r->cap_names, bytes + 1);
	r->names[bytes] = '\0';
	r->names_len = bytes;
}

void
gs_names_set(gs_rec *r, int64_t id, const char *const *names, int32_t count)
{
	size_t bytes = 0, k = 0;

	for (int32_t i = 0; i < count; i++)
		bytes += strlen(names[i]) + 1;
	gs_rec_names(r, id, count, bytes);
	for (int32_t i = 0; i < count; i++) {
		size_t len = strlen(names[i]) + 1;
		memcpy(r->names + k, names[i], len);
		k += len;
	}
}

const char **
gs_names_list(const gs_rec *r)
{
	const char **p = xreallocarray(NULL, (size_t)r->n + 1, sizeof *p);
	size_t k = 0;

	for (int32_t i = 0; i < r->n; i++) {
		p[i] = r->names + k;
		k += strlen(p[i]) + 1;
	}
	return p;
}

const char *
gs_third_column(const char *w)
{
	static _Thread_local char msg[200];

	snprintf(msg, sizeof msg,
		 "third column '%.40s' is not an integer: it is an edge label, and weights are "
		 "not kept (drop the column: cut -f1,2)",
		 w);
	err_one_line(msg);
	return msg;
}

const char *
gs_name_invalid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0)
		return "is empty";
	if (len > GS_MAX_NODE_NAME)
		return "is longer than 1024 bytes";
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "holds a control character (a tab, a newline, ...)";
	return NULL;
}

gs_param *
gs_rec_param(gs_rec *r, int i, const char *name, int64_t rows, int64_t cols, int dtype)
{
	gs_param *p = &r->params[i];

	gsi_set_name(p->name, name);
	p->rows = rows;
	p->cols = cols;
	p->dtype = dtype;
	gsi_grow(&p->data, &p->cap, (size_t)(rows * cols) * gs_dtype_size(dtype));
	return p;
}

void
gs_attr_set(gs_rec *r, const char *key, const char *val)
{
	int i;

	for (i = 0; i < r->nattr; i++)
		if (strcmp(r->akey[i], key) == 0) {
			free(r->aval[i]);
			r->aval[i] = xstrdup(val);
			return;
		}
	if ((size_t)r->nattr == r->cap_attr) {
		r->cap_attr = r->cap_attr ? 2 * r->cap_attr : 8;
		r->akey = xreallocarray(r->akey, r->cap_attr, sizeof *r->akey);
		r->aval = xreallocarray(r->aval, r->cap_attr, sizeof *r->aval);
	}
	r->akey[r->nattr] = xstrdup(key);
	r->aval[r->nattr] = xstrdup(val);
	r->nattr++;
}

void
gs_attr_setf(gs_rec *r, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	gs_attr_set(r, key, buf);
}

const char *
gs_attr_get(const gs_rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nattr; i++)
		if (strcmp(r->akey[i], key) == 0)
			return r->aval[i];
	return NULL;
}

int
gs_tensor_col(const gs_rec *r, const char *name)
{
	const char *s = r->columns;
	size_t len = strlen(name);
	int i = 0;

	if (s == NULL)
		return -1;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == len && strncmp(s, name, len) == 0)
			return i;
		i++;
		if (e == NULL)
			break;
		s = e + 1;
	}
	return -1;
}
