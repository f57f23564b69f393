/*
 * test_head.c - the downstream head's parameter tensors (common/head.c:
 * their names, shapes and places in the parameter buffer) and the adapted
 * model record of common/modelio.c: written and read back exactly, and
 * refused when a tensor, a shape or a config key is wrong.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "head.h"
#include "model.h"
#include "modelio.h"
#include "rng.h"
#include "train_settings.h"

/* The field of h that tensor name stands for. */
static const real *
field(const struct head *h, const char *name)
{
	static const char *const names[HEAD_NT] = {
		"head.mix.alpha", "head.mix.psi", "head.gcn1.W",  "head.gcn1.b",
		"head.gcn2.W",	  "head.gcn2.b",  "head.link1.W", "head.link1.b",
		"head.link2.W",	  "head.link2.b", "head.gcn1.S",  "head.gcn2.S"
	};
	const real *f[HEAD_NT] = { h->alpha, h->psi, h->W1, h->b1, h->W2, h->b2,
				   h->W3,    h->b3,  h->W4, h->b4, h->S1, h->S2 };
	for (int i = 0; i < HEAD_NT; i++)
		if (strcmp(names[i], name) == 0)
			return f[i];
	return NULL;
}

/* The tensors of a head of these sizes tile its buffer, each where its
 * field points, with the shape head.h documents. */
static void
check_tensors(int64_t d, int64_t din, int L, int64_t hid, int64_t C, int flags)
{
	struct head h;
	struct head_tensor t[HEAD_NT];
	gsl_rng *r = rng_new(1, 0);
	int link = (flags & HEAD_LINK) != 0, self = (flags & HEAD_SELF) != 0;
	int64_t Cout = link ? hid : C;
	head_init(&h, d, din, L, hid, Cout, C, flags, r);
	int n = head_tensors(&h, t);
	cr_assert_eq(n, 6 + 4 * link + 2 * self);
	int64_t off = 0;
	for (int i = 0; i < n; i++) {
		cr_expect_eq(t[i].off, off, "%s at %lld, want %lld", t[i].name, (long long)t[i].off,
			     (long long)off);
		cr_expect(field(&h, t[i].name) == h.p + t[i].off, "%s is not where its field is",
			  t[i].name);
		off += t[i].rows * t[i].cols;
	}
	cr_expect_eq(off, h.n, "the tensors cover %lld of %lld values", (long long)off,
		     (long long)h.n);
	const int64_t want[HEAD_NT][2] = { { 1, d },	     { 1, L },	    { din, hid },
					   { 1, hid },	     { hid, Cout }, { 1, Cout },
					   { 2 * hid, hid }, { 1, hid },    { hid, C },
					   { 1, C },	     { din, hid },  { hid, Cout } };
	for (int i = 0; i < n; i++) {
		int k = i < 6 || link ? i : i + 4; /* the list skips the link decoder's */
		cr_expect(t[i].rows == want[k][0] && t[i].cols == want[k][1], "%s is %lld x %lld",
			  t[i].name, (long long)t[i].rows, (long long)t[i].cols);
	}
	head_free(&h);
	gsl_rng_free(r);
}

Test(head, tensors_of_the_node_and_graph_head)
{
	check_tensors(16, 16, 3, 8, 5, 0);
	check_tensors(16, 16 + 7, 2, 4, 2, 0); /* with 7 attribute columns */
}

Test(head, tensors_of_the_link_head)
{
	check_tensors(8, 8, 3, 6, 5, HEAD_LINK);
}

Test(head, tensors_of_the_sage_head)
{
	check_tensors(16, 16, 3, 8, 5, HEAD_SELF);
	check_tensors(16, 16 + 3, 2, 4, 2, HEAD_SELF);
	check_tensors(8, 8, 3, 6, 5, HEAD_LINK | HEAD_SELF);
}

/* a head of the sage kind draws the GCN's weights as a head without it,
 * then its own */
Test(head, sage_head_draws_the_gcn_heads_weights_first)
{
	struct head a, b;
	gsl_rng *r = rng_new(3, 0);
	head_init(&a, 6, 6, 3, 4, 3, 3, 0, r);
	rng_reseed(r, 3, 0);
	head_init(&b, 6, 6, 3, 4, 3, 3, HEAD_SELF, r);
	cr_assert(b.n == a.n + 6 * 4 + 4 * 3);
	cr_expect(memcmp(a.p, b.p, (size_t)a.n * sizeof *a.p) == 0);
	int nz = 0;
	for (int64_t i = a.n; i < b.n; i++)
		nz += b.p[i] != 0;
	cr_expect(nz == b.n - a.n, "S1, S2 drawn: %d of %lld nonzero", nz, (long long)(b.n - a.n));
	head_free(&a);
	head_free(&b);
	gsl_rng_free(r);
}

Test(head, init_without_generator_leaves_weights_zero)
{
	struct head h;
	head_init(&h, 4, 4, 2, 3, 2, 2, 0, NULL);
	for (int64_t i = 0; i < 4; i++)
		cr_expect_eq(h.alpha[i], 1);
	for (int64_t i = 4; i < h.n; i++)
		cr_expect_eq(h.p[i], 0, "value %lld is %g", (long long)i, (double)h.p[i]);
	head_free(&h);
}

/* ---- the adapted model record ---- */

struct fixture {
	struct train_settings ts;
	model M;
	struct head h;
	struct adapted_cfg ac;
	gs_rec r;
};

/* A small encoder and head with random values, as an adapted record. */
static void
make(struct fixture *f, int link)
{
	struct model_cfg mc;
	gsl_rng *r = rng_new(7, 3);
	train_settings_default(&f->ts);
	f->ts.hidden = 8;
	f->ts.layers = 2;
	cr_assert(train_settings_model_cfg(&f->ts, &mc) == 0 && model_init(&f->M, &mc) == 0);
	model_init_params(&f->M, r);
	modelio_adapted_default(&f->ac);
	free(f->ac.task);
	f->ac.task = strdup(link ? "link" : "node");
	f->ac.head_width = 5;
	f->ac.classes = 3;
	if (link) {
		free(f->ac.class_values);
		f->ac.class_values = strdup("1,2,5");
	}
	f->ac.attributes = link ? 0 : 2;
	f->ac.encoder_scale = 0.375;
	f->ac.run = 4;
	int64_t d = f->M.cfg.d, hid = 5;
	head_init(&f->h, d, d + f->ac.attributes, 2, hid, link ? hid : 3, 3, link, r);
	for (int64_t i = 0; i < f->h.n; i++) /* biases and psi too */
		f->h.p[i] += (real)(0.01 * (double)i);
	gs_rec_init(&f->r);
	modelio_adapted_record(&f->r, &f->ts, &f->M, f->M.p, &f->ac, &f->h, f->h.p);
	gsl_rng_free(r);
}

static void
unmake(struct fixture *f)
{
	gs_rec_free(&f->r);
	head_free(&f->h);
	model_free(&f->M);
	modelio_adapted_free(&f->ac);
	train_settings_free(&f->ts);
}

/* Read r back; 0, or -1 with msg. */
static int
load(const gs_rec *r, model *M, struct head *h, struct adapted_cfg *ac, char *msg, size_t len)
{
	struct train_settings s;
	memset(&s, 0, sizeof s);
	int rc = modelio_adapted_from_record(M, &s, ac, h, r, "x.gs", msg, len);
	train_settings_free(&s);
	return rc;
}

static void
round_trip(int link)
{
	struct fixture f;
	model M;
	struct head h;
	struct adapted_cfg ac;
	char msg[512];
	make(&f, link);
	cr_assert_str_eq(f.r.name, ADAPTED_NAME);
	cr_assert_eq(f.r.nparams, f.M.nt + (link ? 10 : 6));
	cr_assert(load(&f.r, &M, &h, &ac, msg, sizeof msg) == 0, "%s", msg);
	cr_expect_str_eq(ac.task, link ? "link" : "node");
	cr_expect(ac.head_width == 5 && ac.classes == 3 && ac.run == 4 &&
		  ac.encoder_scale == 0.375);
	cr_expect_eq(ac.attributes, link ? 0 : 2);
	cr_expect_str_eq(ac.class_values, link ? "1,2,5" : "");
	cr_assert_eq(M.n, f.M.n);
	cr_assert_eq(h.n, f.h.n);
	cr_expect(memcmp(M.p, f.M.p, (size_t)M.n * sizeof *M.p) == 0, "the encoder differs");
	cr_expect(memcmp(h.p, f.h.p, (size_t)h.n * sizeof *h.p) == 0, "the head differs");
	cr_expect(h.din == f.h.din && h.Cout == f.h.Cout && h.link == link);
	head_free(&h);
	model_free(&M);
	/* the generic loader takes the adapted encoder (gcn-embed, say) */
	struct train_settings s;
	cr_assert(modelio_from_record(&M, &s, &f.r, "x.gs", msg, sizeof msg) == 0, "%s", msg);
	cr_expect(M.n == f.M.n && memcmp(M.p, f.M.p, (size_t)M.n * sizeof *M.p) == 0,
		  "modelio_from_record: the encoder differs");
	model_free(&M);
	train_settings_free(&s);
	modelio_adapted_free(&ac);
	unmake(&f);
}

Test(adapted, node_model_round_trip)
{
	round_trip(0);
}

Test(adapted, link_model_round_trip)
{
	round_trip(1);
}

/* A copy of src with config cfg and parameter skip left out (-1: none). */
static void
copy_record(gs_rec *dst, const gs_rec *src, const char *cfg, int skip)
{
	gs_rec_init(dst);
	gs_rec_model(dst, src->name, cfg, src->nparams - (skip >= 0));
	for (int i = 0, k = 0; i < src->nparams; i++) {
		const gs_param *p = &src->params[i];
		if (i == skip)
			continue;
		gs_param *q = gs_rec_param(dst, k++, p->name, p->rows, p->cols, p->dtype);
		memcpy(q->data, p->data, (size_t)(p->rows * p->cols) * gs_dtype_size(p->dtype));
	}
}

/* cfg with the line of key replaced by "key: value" */
static char *
set_key(const char *cfg, const char *key, const char *value)
{
	size_t len = strlen(cfg) + strlen(value) + 64;
	char *out = malloc(len), *line = strstr(cfg, key);
	cr_assert(line, "no %s in the config", key);
	const char *eol = strchr(line, '\n');
	snprintf(out, len, "%.*s%s: %s%s", (int)(line - cfg), cfg, key, value, eol);
	return out;
}

/* src with config key set to value must be refused with a message holding want */
static void
refused_key(const gs_rec *src, const char *key, const char *value, const char *want)
{
	gs_rec r;
	model M;
	struct head h;
	struct adapted_cfg ac;
	char msg[512];
	char *cfg = set_key(src->config, key, value);
	copy_record(&r, src, cfg, -1);
	cr_expect(load(&r, &M, &h, &ac, msg, sizeof msg) != 0, "%s: %s accepted", key, value);
	cr_expect(strstr(msg, want) != NULL, "%s: %s: '%s' lacks '%s'", key, value, msg, want);
	modelio_adapted_free(&ac);
	gs_rec_free(&r);
	free(cfg);
}

Test(adapted, refuses_what_does_not_fit)
{
	struct fixture f;
	model M;
	struct head h;
	struct adapted_cfg ac;
	char msg[512];
	gs_rec r;

	make(&f, 1);
	/* each head tensor missing */
	for (int i = f.M.nt; i < f.r.nparams; i++) {
		copy_record(&r, &f.r, f.r.config, i);
		cr_expect(load(&r, &M, &h, &ac, msg, sizeof msg) != 0);
		cr_expect(strstr(msg, "is missing") && strstr(msg, f.r.params[i].name),
			  "without %s: '%s'", f.r.params[i].name, msg);
		modelio_adapted_free(&ac);
		gs_rec_free(&r);
	}
	/* sizes that do not match the tensors, keys out of their domain */
	refused_key(&f.r, "adapt.head_width", "6", "'head.gcn1.W' has the wrong shape");
	refused_key(&f.r, "adapt.classes", "4", "adapt.class_values lists 3 values for 4 classes");
	refused_key(&f.r, "adapt.class_values", "\"1,5,2\"", "not a list of ascending");
	refused_key(&f.r, "adapt.task", "\"edge\"",
		    "adapt.task 'edge': expected node, link or graph");
	refused_key(&f.r, "adapt.scale", "\"cube\"", "adapt.scale 'cube'");
	refused_key(&f.r, "adapt.encoder_scale", "0", "adapt.encoder_scale must be above 0");
	refused_key(&f.r, "adapt.attributes", "3", "adapt.attributes is for the node task");
	refused_key(&f.r, "model.hidden", "9", "'embed.W' has the wrong shape");
	/* a value that is not finite */
	copy_record(&r, &f.r, f.r.config, -1);
	((float *)r.params[r.nparams - 1].data)[0] = NAN;
	cr_expect(load(&r, &M, &h, &ac, msg, sizeof msg) != 0 && strstr(msg, "is not finite"),
		  "NaN: '%s'", msg);
	modelio_adapted_free(&ac);
	gs_rec_free(&r);
	unmake(&f);
}
