/*
 * export.c - a model record as a file other tools load (see export.h):
 * its parameters as tensors, its config, attributes and provenance as
 * metadata.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "export.h"
#include "opt.h"
#include "safetensors.h"

/* ---- metadata: strings, owned by the list ---- */

struct meta {
	struct st_meta *m;
	int n, cap;
};

static void
meta_add(struct meta *l, const char *key, const char *val, size_t vlen)
{
	char *v = xmalloc(vlen + 1);

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->m = xreallocarray(l->m, (size_t)l->cap, sizeof *l->m);
	}
	memcpy(v, val, vlen);
	v[vlen] = '\0';
	l->m[l->n++] = (struct st_meta){ xstrdup(key), v, vlen };
}

static void
meta_adds(struct meta *l, const char *key, const char *val)
{
	meta_add(l, key, val, strlen(val));
}

static void
meta_free(struct meta *l)
{
	for (int i = 0; i < l->n; i++) {
		free((char *)l->m[i].key);
		free((char *)l->m[i].val);
	}
	free(l->m);
}

/* A header value as gnnstream(5)'s text form writes it: in double quotes,
 * with \" \\ \n \t escapes, when it holds blanks, quotes, '=' or nothing. */
static void
put_value(FILE *f, const char *v)
{
	if (*v && !strpbrk(v, " \t\n\"\\=")) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fprintf(f, "\\%c", *v);
		else if (*v == '\n' || *v == '\t')
			fputs(*v == '\n' ? "\\n" : "\\t", f);
		else
			fputc(*v, f);
	}
	fputc('"', f);
}

/* The pg records as the lines of a text stream, without the '@'. */
static char *
pg_lines(const gs_rec *pg, int npg, size_t *len)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	if (f == NULL)
		die("out of memory");
	for (int i = 0; i < npg; i++) {
		const gs_rec *p = &pg[i];
		fprintf(f, "%spg id=", i ? "\n" : "");
		put_value(f, p->pg);
		for (int a = 0; a < p->nattr; a++) {
			fprintf(f, " %s=", p->akey[a]);
			put_value(f, p->aval[a]);
		}
	}
	if (fclose(f) != 0)
		die("out of memory");
	return s;
}

/* __metadata__: gcn-export(1), The file, lists the keys. */
static void
metadata(struct meta *l, const gs_rec *r, const gs_rec *pgs, int npg)
{
	char key[GS_NAME_MAX + 1100], *pg;
	size_t len;

	meta_adds(l, "producer", "gcn-export (gnnpipe) " GNNPIPE_VERSION);
	meta_adds(l, "gnnpipe.export_version", EXPORT_VERSION);
	meta_adds(l, "gnnpipe.model", r->name);
	if (r->pg[0])
		meta_adds(l, "gnnpipe.model.pg", r->pg);
	for (int a = 0; a < r->nattr; a++) {
		snprintf(key, sizeof key, "gnnpipe.model.%s", r->akey[a]);
		meta_adds(l, key, r->aval[a]);
	}
	meta_add(l, "gnnpipe.config", r->config ? r->config : "", r->config_len);
	pg = pg_lines(pgs, npg, &len);
	meta_add(l, "gnnpipe.pg", pg, len);
	free(pg);
}

int
export_safetensors(FILE *f, const gs_rec *r, const gs_rec *pg, int npg, char *msg, size_t msglen)
{
	struct st_tensor *t = xcalloc((size_t)r->nparams + 1, sizeof *t);
	struct meta l = { 0 };
	struct st_file sf;
	int rc = -1;

	for (int i = 0; i < r->nparams; i++) {
		const gs_param *p = &r->params[i];
		t[i] = (struct st_tensor){ .name = p->name,
					   .dtype = p->dtype,
					   .ndim = 2,
					   .shape = { p->rows, p->cols },
					   .data = p->data };
	}
	metadata(&l, r, pg, npg);
	if (st_prepare(&sf, t, r->nparams, l.m, l.n, msg, msglen) == 0) {
		rc = st_write(f, &sf, t) == 0 ? 0 : -2;
		st_free(&sf);
	}
	meta_free(&l);
	free(t);
	return rc;
}
