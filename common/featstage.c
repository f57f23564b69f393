/* featstage.c - the feature stage; see featstage.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "featstage.h"
#include "rng.h"

/* a command stage's width is checked by featcmd.c, against its own bound */
_Static_assert(MODEL_MAXF == FEATCMD_MAXF, "featcmd.h's bound is the stage's");

void
feat_src_default(struct feat_src *fs)
{
	memset(fs, 0, sizeof *fs);
	fs->kind = FEAT_SRC_PAPER;
	fs->F = MODEL_NFEAT;
	fs->scale = FEAT_SCALE_MINMAX;
}

int
feat_src_builtin(struct feat_src *fs, const char *name)
{
	if (strcmp(name, "paper") == 0) {
		fs->kind = FEAT_SRC_PAPER;
		fs->F = MODEL_NFEAT;
	} else if (strcmp(name, "rwse") == 0) {
		fs->kind = FEAT_SRC_RWSE;
		fs->F = RWSE_STEPS;
	} else {
		return -1;
	}
	return 0;
}

const char *
feat_src_name(const struct feat_src *fs)
{
	return fs->kind == FEAT_SRC_RWSE ? "rwse" : "paper";
}

void
feat_src_columns(const struct feat_src *fs, char *buf, size_t len)
{
	if (fs->kind == FEAT_SRC_RWSE)
		rwse_columns(RWSE_STEPS, buf, len);
	else
		snprintf(buf, len, "%s", FEATURES_COLUMNS);
}

int
featstage_command(struct featcmd *fc, struct feat_src *fs, const graph *g0, char *msg,
		  size_t msglen)
{
	if (featcmd_call(fc, &g0, 1, NULL, msg, msglen) != 0)
		return -1;
	fs->kind = FEAT_SRC_CALL;
	fs->F = fc->F;
	fs->call = featcmd_call;
	fs->ctx = fc;
	return 0;
}

void
featstage_ws_init(struct featstage_ws *ws)
{
	features_ws_init(&ws->fw);
	rwse_ws_init(&ws->rw);
}

void
featstage_ws_free(struct featstage_ws *ws)
{
	features_ws_free(&ws->fw);
	rwse_ws_free(&ws->rw);
}

int
featstage_graph(const struct feat_src *fs, const graph *g, int pos, double *out,
		struct featstage_ws *ws)
{
	struct rwse_opts ro;

	if (fs->kind == FEAT_SRC_PAPER) {
		features_raw(g, out, &ws->fw);
		return features_scale(out, g->n, out, fs->scale);
	}
	if (fs->kind != FEAT_SRC_RWSE)
		return -1;
	rwse_opts_init(&ro);
	ro.steps = fs->F;
	ro.seed = rng_mix(0, (uint64_t)pos); /* nodefeat -s 0 on a graph of id pos */
	return rwse_compute(g, &ro, out, NULL, &ws->rw);
}

int
featstage_graphs(const struct feat_src *fs, const graph *const *gs, int G, double *const *out,
		 char *msg, size_t msglen)
{
	if (fs->kind != FEAT_SRC_CALL)
		return 0;
	return fs->call(fs->ctx, gs, G, out, msg, msglen);
}

int
feat_take(const gs_rec *r, int32_t n, double **feat, int *F, char *msg, size_t msglen)
{
	if (r->rows != n || (r->dtype != GS_F64 && r->dtype != GS_F32) || r->cols < 1 ||
	    r->cols > MODEL_MAXF) {
		snprintf(msg, msglen,
			 "'features' tensor is %lld x %lld %s, want %d rows of "
			 "floats, at most %d columns",
			 (long long)r->rows, (long long)r->cols,
			 r->dtype == GS_F64 || r->dtype == GS_F32 ? "float" : "integer", (int)n,
			 MODEL_MAXF);
		return -1;
	}
	*F = (int)r->cols;
	*feat = xrealloc(*feat, ((size_t)(r->rows * r->cols) + 1) * sizeof **feat);
	for (int64_t j = 0; j < r->rows * r->cols; j++) /* finite: the reader checks */
		(*feat)[j] =
		    r->dtype == GS_F64 ? ((const double *)r->data)[j] : ((const float *)r->data)[j];
	return 0;
}

int
feat_is_paper(const gs_rec *r)
{
	const char *sc = gs_attr_get(r, "scale"), *set = gs_attr_get(r, "set");

	return r->cols == MODEL_NFEAT && r->columns && strcmp(r->columns, FEATURES_COLUMNS) == 0 &&
	       (!sc || strcmp(sc, "minmax") == 0) && (!set || strcmp(set, "paper") == 0);
}
