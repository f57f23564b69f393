/* import.c - what the dataset importers share; see import.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import.h"

/* ---- string lists and classes ---- */

int32_t
import_slist_add(slist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->s = xreallocarray(l->s, (size_t)l->cap, sizeof *l->s);
	}
	l->s[l->n] = xstrdup(s);
	return l->n++;
}

void
import_slist_free(slist *l)
{
	int32_t i;

	for (i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof *l);
}

int32_t
import_class_add(classes *c, const char *name)
{
	int32_t k = smap_get(&c->idx, name);

	if (k >= 0)
		return k;
	if (c->names.n >= 1 << 24)
		return -1;
	k = c->names.n;
	smap_put(&c->idx, name, k);
	import_slist_add(&c->names, name);
	return k;
}

/* A class name to sort: its number, when every name is one. */
struct cname {
	const char *s;
	long long v;
	int32_t i; /* order of appearance: ties keep it */
};

static int
cmp_numeric(const void *a, const void *b)
{
	const struct cname *x = a, *y = b;

	if (x->v != y->v)
		return (x->v > y->v) - (x->v < y->v);
	return (x->i > y->i) - (x->i < y->i);
}

static int
cmp_string(const void *a, const void *b)
{
	const struct cname *x = a, *y = b;
	int c = strcmp(x->s, y->s);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

void
import_class_finish(classes *c)
{
	int32_t i, n = c->names.n;
	struct cname *cn = xmallocarray((size_t)n + 1, sizeof *cn);
	int numeric = 1;

	c->order = xmallocarray((size_t)n + 1, sizeof *c->order);
	c->rank = xmallocarray((size_t)n + 1, sizeof *c->rank);
	for (i = 0; i < n; i++) {
		int64_t v = 0;
		if (lr_parse_i64(c->names.s[i], INT64_MIN, INT64_MAX, &v) != 0)
			numeric = 0;
		cn[i] = (struct cname){ c->names.s[i], v, i };
	}
	qsort(cn, (size_t)n, sizeof *cn, numeric ? cmp_numeric : cmp_string);
	for (i = 0; i < n; i++) {
		c->order[i] = cn[i].i;
		c->rank[cn[i].i] = i;
	}
	free(cn);
}

char *
import_class_list(const classes *c)
{
	size_t len = 1, at = 0;
	int32_t i;
	char *s;

	for (i = 0; i < c->names.n; i++)
		len += strlen(c->names.s[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < c->names.n; i++) {
		const char *nm = c->names.s[c->order[i]];
		at += (size_t)sprintf(s + at, "%s%s", i ? "," : "", nm);
	}
	return s;
}

void
import_class_free(classes *c)
{
	smap_free(&c->idx);
	import_slist_free(&c->names);
	free(c->rank);
	free(c->order);
	memset(c, 0, sizeof *c);
}

/* ---- edges ---- */

void
import_edge_add(edges *es, int32_t g, int32_t u, int32_t v, int32_t lab, int64_t line)
{
	edge *e;

	if (u == v) {
		es->loops++;
		return;
	}
	if (es->n == es->cap) {
		es->cap = es->cap ? 2 * es->cap : 4096;
		es->e = xreallocarray(es->e, (size_t)es->cap, sizeof *es->e);
	}
	e = &es->e[es->n++];
	if (u > v) {
		int32_t t = u;
		u = v;
		v = t;
	}
	e->key = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
	e->g = g;
	e->lab = lab;
	e->line = line;
}

int
import_edge_cmp(const void *a, const void *b)
{
	const edge *x = a, *y = b;

	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

int64_t
import_edges_finish(edges *es, int labelled)
{
	int64_t i, k = 0;

	if (es->n == 0) /* es->e may be NULL: not for qsort */
		return -1;
	qsort(es->e, (size_t)es->n, sizeof *es->e, import_edge_cmp);
	for (i = 0; i < es->n; i++) {
		if (k > 0 && es->e[k - 1].g == es->e[i].g && es->e[k - 1].key == es->e[i].key) {
			if (labelled && es->e[k - 1].lab != es->e[i].lab)
				return i;
			es->dups++;
			continue;
		}
		es->e[k++] = es->e[i];
	}
	es->n = k;
	return -1;
}

/* ---- records ---- */

void
import_put_graph(gs_rec *r, int64_t id, int32_t n, const edge *e, int64_t m, int labelled)
{
	int64_t i;

	gs_rec_graph(r, id, n, m, labelled ? GS_I32 : GS_NONE);
	for (i = 0; i < m; i++) {
		r->u[i] = (int32_t)(e[i].key >> 32);
		r->v[i] = (int32_t)(e[i].key & 0xffffffffu);
		if (labelled)
			((int32_t *)r->lab)[i] = e[i].lab;
	}
}

void
import_put_i32_col(gs_file *out, gs_rec *r, int64_t id, const char *name, const int32_t *x,
		   int64_t n)
{
	gs_rec_tensor(r, id, name, n, 1, GS_I32, name);
	memcpy(r->data, x, (size_t)n * sizeof *x);
	gs_write1(out, r);
}

void
import_put_i64_col(gs_file *out, gs_rec *r, int64_t id, const char *name, const int64_t *x,
		   int64_t n)
{
	gs_rec_tensor(r, id, name, n, 1, GS_I64, name);
	memcpy(r->data, x, (size_t)n * sizeof *x);
	gs_write1(out, r);
}

/* The last path component, less any of the given suffixes. */
static void
base_name(char *buf, size_t len, const char *path, const char *const *suffixes)
{
	const char *b = strrchr(path, '/');
	size_t l;
	int i;

	snprintf(buf, len, "%s", b ? b + 1 : path);
	l = strlen(buf);
	while (l > 1 && buf[l - 1] == '/')
		buf[--l] = '\0';
	if (l == 0) { /* "dir/": take the directory's name */
		snprintf(buf, len, "%s", path);
		l = strlen(buf);
		while (l > 1 && buf[l - 1] == '/')
			buf[--l] = '\0';
		b = strrchr(buf, '/');
		if (b != NULL)
			memmove(buf, b + 1, strlen(b + 1) + 1);
	}
	for (i = 0; suffixes != NULL && suffixes[i] != NULL; i++) {
		size_t s = strlen(suffixes[i]);
		l = strlen(buf);
		if (l > s && strcmp(buf + l - s, suffixes[i]) == 0)
			buf[l - s] = '\0';
	}
}

void
import_dataset(char *buf, size_t len, const struct import_opts *o, const char *path,
	       const char *const *suffixes)
{
	if (o->name != NULL)
		snprintf(buf, len, "%s", o->name);
	else
		base_name(buf, len, path, suffixes);
}
