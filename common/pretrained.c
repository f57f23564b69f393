/* pretrained.c - a pre-trained model downstream; see pretrained.h. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "modelio.h"
#include "pretrained.h"

#define SHIPPED "gcn-pretrain.gs"

const char *
pretrained_default(void)
{
	static char found[PATH_MAX + 64];
	static const char *const rel[] = { "../models/" SHIPPED, "../share/gnnpipe/" SHIPPED };
	char exe[PATH_MAX];
	const char *env = getenv("GNNPIPE_MODEL");
	ssize_t n;

	if (env && *env)
		return env;
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) <= 0)
		return NULL;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0'; /* the program's directory */
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		snprintf(found, sizeof found, "%s/%s", exe, rel[i]);
		if (access(found, R_OK) == 0) {
			char *r = realpath(found, NULL); /* without the .. */
			if (r) {
				snprintf(found, sizeof found, "%s", r);
				free(r);
			}
			return found;
		}
	}
	return NULL;
}

/* Start p on path (NULL: none) with the default settings. */
static void
pretrained_start(struct pretrained *p, const char *path, char **files)
{
	memset(p, 0, sizeof *p);
	p->path = path;
	train_settings_default(&p->ts);
	feat_src_default(&p->fs);
	gs_reader_init(&p->rd, 1, files);
}

/*
 * Read every record of p's file (pg records kept) and give the first model
 * record to f->take.  0, or -1 with msg: a bad stream, take()'s error, or
 * no model record.
 */
static int
read_model(struct pretrained *p, struct model_find *f, char *msg, size_t len)
{
	int k = modelio_find(&p->rd, f, NULL, msg, len);

	if (k == 0)
		snprintf(msg, len, "%s: no model record", p->path);
	if (k <= 0)
		err_one_line(msg); /* it may quote a record's name */
	return k <= 0 ? -1 : 0;
}

static int
load_pretrained(const gs_rec *r, const char *where, void *ctx, char *msg, size_t len)
{
	struct pretrained *p = ctx;

	/* a checkpoint's parameters are the current ones, not the best:
	 * refused rather than taken for the model */
	if (strcmp(r->name, CKPT_NAME) == 0) {
		snprintf(msg, len,
			 "%s: a gcn-train checkpoint (%s), not a model: use the model "
			 "gcn-train wrote (-o), or go on training with gcn-train --resume",
			 where, CKPT_NAME);
		return -1;
	}
	train_settings_free(&p->ts);
	return modelio_from_record(&p->M, &p->ts, r, where, msg, len);
}

int
pretrained_read(struct pretrained *p, const char *path, char *msg, size_t len)
{
	char *files[1] = { (char *)path };

	pretrained_start(p, path, files);
	if (!path) {
		struct model_cfg mc;
		if (train_settings_model_cfg(&p->ts, &mc) == 0 && model_init(&p->M, &mc) == 0)
			return 0;
		snprintf(msg, len, "model settings out of range");
		pretrained_free(p);
		return -1;
	}
	struct model_find f = { .take = load_pretrained, .ctx = p };
	if (read_model(p, &f, msg, len) != 0) {
		pretrained_free(p);
		return -1;
	}
	return 0;
}

void
pretrained_load(struct pretrained *p, const char *path)
{
	char msg[1024];

	if (pretrained_read(p, path, msg, sizeof msg) != 0)
		die("%s", msg);
}

/* What pretrained_read_adapted() fills. */
struct adapted_out {
	struct pretrained *p;
	struct adapted_cfg *ac;
	struct head *h;
	int loaded; /* h holds a head */
};

static int
load_adapted(const gs_rec *r, const char *where, void *ctx, char *msg, size_t len)
{
	struct adapted_out *o = ctx;

	if (strcmp(r->name, ADAPTED_NAME) != 0) {
		snprintf(msg, len,
			 "%s: a '%s' model record: --predict takes an adapted model, "
			 "which gcn-adapt --save-model writes",
			 where, r->name);
		return -1;
	}
	train_settings_free(&o->p->ts);
	if (modelio_adapted_from_record(&o->p->M, &o->p->ts, o->ac, o->h, r, where, msg, len) != 0)
		return -1;
	free(o->ac->class_names);
	o->ac->class_names = NULL;
	if (gs_attr_get(r, "class_names") != NULL)
		o->ac->class_names = xstrdup(gs_attr_get(r, "class_names"));
	o->loaded = 1;
	return 0;
}

int
pretrained_read_adapted(struct pretrained *p, struct adapted_cfg *ac, struct head *h,
			const char *path, char *msg, size_t len)
{
	char *files[1] = { (char *)path };
	struct adapted_out o = { p, ac, h, 0 };
	struct model_find f = { .take = load_adapted, .ctx = &o };

	pretrained_start(p, path, files);
	memset(ac, 0, sizeof *ac); /* modelio_adapted_from_record() fills it */
	if (read_model(p, &f, msg, len) != 0) {
		if (o.loaded)
			head_free(h);
		modelio_adapted_free(ac);
		pretrained_free(p);
		return -1;
	}
	return 0;
}

void
pretrained_free(struct pretrained *p)
{
	model_free(&p->M);
	train_settings_free(&p->ts);
	gs_reader_free(&p->rd);
	featcmd_free(&p->fc);
	free(p->recorded);
}

const char *
pretrained_stage_name(const struct pretrained *p)
{
	return featstage_name(&p->fs, &p->fc);
}

/*
 * The model's stage, checked: a known stage name (an unknown one is not
 * taken for a command), a recorded built-in invocation as its set.
 */
static void
model_stage_check(struct pretrained *p)
{
	char msg[256], *cmd;

	if (!p->path)
		return;
	if (train_settings_features_check(&p->ts, msg, sizeof msg) != 0)
		die("%s: %s", p->path, msg);
	cmd = xstrdup(p->ts.feature_command);
	if (train_settings_features_builtin(&p->ts))
		p->recorded = cmd;
	else
		free(cmd);
}

/* What p's model records of its stage (model_stage_check'ed), in rec. */
static void
stage_rec_of(const struct pretrained *p, struct stage_rec *rec)
{
	rec->path = p->path;
	rec->stage = p->ts.feature_stage;
	rec->command = p->ts.feature_command;
	rec->columns = p->ts.feature_columns;
	rec->width = p->M.cfg.nfeat;
	rec->recorded = p->recorded;
}

void
pretrained_stage(struct pretrained *p, const struct stage_ask *a)
{
	model *M = &p->M;
	struct stage_rec rec;
	struct stage_said said;

	model_stage_check(p);
	stage_rec_of(p, &rec);
	featstage_for_model(&p->fs, &p->fc, &rec, a, &said);
	if (p->fs.F != M->cfg.nfeat) { /* a fresh encoder: the architecture for this input */
		struct model_cfg mc = M->cfg;
		model_free(M);
		mc.nfeat = p->fs.F;
		if (model_init(M, &mc) != 0)
			die("model settings out of range");
	}
	featstage_tell_model(&p->fs, &p->fc, &rec, a, &said);
}
