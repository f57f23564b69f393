/* featstage.c - the feature stage; see featstage.h. */
#include <inttypes.h>
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
	} else if (strcmp(name, "both") == 0) {
		fs->kind = FEAT_SRC_BOTH;
		fs->F = FEAT_BOTH_N;
	} else {
		return -1;
	}
	return 0;
}

const char *
feat_src_name(const struct feat_src *fs)
{
	return fs->kind == FEAT_SRC_RWSE ? "rwse" : fs->kind == FEAT_SRC_BOTH ? "both" : "paper";
}

void
feat_src_columns(const struct feat_src *fs, char *buf, size_t len)
{
	if (fs->kind == FEAT_SRC_RWSE)
		rwse_columns(RWSE_STEPS, buf, len);
	else if (fs->kind == FEAT_SRC_BOTH)
		snprintf(buf, len, "%s", FEATURES_BOTH_COLUMNS);
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
	nodefeat_ws_init(&ws->fw);
	rwse_ws_init(&ws->rw);
	ws->raw = NULL;
	ws->cap = 0;
}

void
featstage_ws_free(struct featstage_ws *ws)
{
	nodefeat_ws_free(&ws->fw);
	rwse_ws_free(&ws->rw);
	free(ws->raw);
	ws->raw = NULL;
	ws->cap = 0;
}

int
featstage_graph(const struct feat_src *fs, const graph *g, int pos, double *out,
		struct featstage_ws *ws)
{
	struct rwse_opts ro;

	if (fs->kind == FEAT_SRC_PAPER) {
		nodefeat_raw(g, out, &ws->fw);
		return nodefeat_scale(out, g->n, out, fs->scale);
	}
	if (fs->kind == FEAT_SRC_BOTH) {
		if (fs->scale != FEAT_SCALE_MINMAX)
			return -1;
		if ((size_t)g->n > ws->cap) {
			ws->cap = (size_t)g->n;
			ws->raw = xreallocarray(ws->raw, ws->cap, FEAT_N * sizeof *ws->raw);
		}
		nodefeat_raw(g, ws->raw, &ws->fw);
		nodefeat_both(ws->raw, g->n, out);
		return 0;
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

/* ---- the choice of the stage ---- */

/* The stage of the input's tensors, when no stage is given: nodefeat's
 * four are computed on each graph instead, pre-masked graphs' tensors
 * are taken, others refused. */
static const char *
training_default(const struct stage_train *t)
{
	if (t->given || t->nfeat == 0)
		return t->stage;
	if (t->fpaper) {
		/* nodefeat's four: the built-in stage computes the same, and
		 * a model of stage paper needs nothing from its users */
		if (!t->quiet && t->premasked < t->ngraphs)
			warnx_("features: the input's 'features' are nodefeat's four of the "
			       "unmasked graphs; computing them on each masked graph instead "
			       "(--features paper)");
		return "paper";
	}
	if (t->premasked == t->ngraphs)
		return "stream";
	die("the input's 'features' tensors (columns '%.80s') describe the graphs "
	    "before masking, and %" PRId64 " of them are masked afresh every step: "
	    "give --features 'COMMAND' (the stage that made them) to compute them "
	    "on each masked graph, or pre-mask the graphs (mask-edges)",
	    t->fcols, t->ngraphs - t->premasked);
}

/* The input's tensors as gcn-train's stage. */
static void
training_stream(struct feat_src *fs, struct stage_train *t)
{
	int64_t n = t->ngraphs, pre = t->premasked;

	if (t->nfeat == 0)
		die("--features stream: the input has no 'features' tensors");
	if (pre < n)
		die("--features stream: %" PRId64 " graphs are masked afresh every step, "
		    "so their 'features' describe another graph; pre-mask them "
		    "(mask-edges) or give --features 'COMMAND'",
		    n - pre);
	fs->kind = FEAT_SRC_GIVEN;
	fs->F = t->F;
	t->cols = t->fcols;
	if (!t->quiet)
		warnx_("features: the input's 'features' tensors (%d columns: %.80s); the "
		       "graphs are pre-masked, so they describe what the model sees",
		       fs->F, t->fcols);
}

void
featstage_for_training(struct feat_src *fs, struct featcmd *fc, struct stage_train *t)
{
	char msg[512];

	feat_src_default(fs);
	if (t->nfeat > 0 && t->nfeat < t->ngraphs)
		die("%" PRId64 " of %" PRId64 " graphs have a 'features' tensor: give all "
		    "or none",
		    t->nfeat, t->ngraphs);
	t->chosen = training_default(t);
	if (strcmp(t->chosen, "stream") == 0) {
		training_stream(fs, t);
	} else if (strcmp(t->chosen, "command") == 0) {
		featcmd_init(fc, t->command, t->quiet, t->timeout);
		if (featstage_command(fc, fs, t->g0, msg, sizeof msg))
			die("%s", msg);
		t->cols = fc->columns;
		if (!t->quiet)
			warnx_("features: '%s' on every graph the model sees (%d columns: %.80s)%s",
			       fc->shown, fc->F, fc->columns,
			       t->nfeat ? "; the input's "
					  "'features' tensors are not used"
					: "");
	} else {
		feat_src_builtin(fs, t->chosen); /* the caller checked the name */
		feat_src_columns(fs, t->bcols, sizeof t->bcols);
		t->cols = t->bcols;
		if (t->nfeat > 0 && t->given && !t->quiet)
			warnx_("features: the built-in set %s (--features %s); the input's "
			       "'features' tensors are not used",
			       t->chosen, t->chosen);
	}
	/* what the config expects of the stage, checked */
	if (t->width_given && t->width != fs->F)
		die_usage("features.width: the config says %lld, the stage gives %d", t->width,
			  fs->F);
	if (t->columns && strcmp(t->columns, t->cols) != 0)
		die_usage("features.columns: the config says '%.80s', the stage gives '%.80s'",
			  t->columns, t->cols);
}

/* The model's own stage: a built-in set's name, "stream" or its command. */
static const char *
rec_stage(const struct stage_rec *rec)
{
	return strcmp(rec->stage, "command") == 0 ? rec->command : rec->stage;
}

const char *
featstage_name(const struct feat_src *fs, const struct featcmd *fc)
{
	return fs->kind == FEAT_SRC_GIVEN  ? "stream"
	       : fs->kind == FEAT_SRC_CALL ? fc->cmd
					   : feat_src_name(fs);
}

/*
 * A model file is data: the command it records runs only on the user's
 * word, --allow-features-command or a --features of their own.  The flag
 * given where it allows nothing is said.
 */
static void
refuse_command(const struct stage_rec *rec, const struct stage_ask *a)
{
	int recorded = rec->path && strcmp(rec->stage, "command") == 0;
	const char *cmd = rec->command;
	char shown[200];

	if (recorded && !a->features && !a->allow_command) {
		snprintf(shown, sizeof shown, "%.160s%s", cmd, strlen(cmd) > 160 ? "..." : "");
		err_one_line(shown);
		die("%s: the model's feature stage is the command '%s', and a model file runs "
		    "nothing by itself: give --features '%s' to run it, or "
		    "--allow-features-command",
		    rec->path, shown, shown);
	}
	if (a->allow_command && (!recorded || a->features) && !a->quiet)
		warnx_("--allow-features-command: %s; nothing to allow",
		       a->features ? "--features chooses the stage"
		       : rec->path ? "the model records no command"
				   : "no model");
}

/* Why the stage is what it is, into said->why. */
static void
model_why(const struct stage_rec *rec, const struct stage_ask *a, struct stage_said *said)
{
	if (a->features || !rec->path)
		snprintf(said->why, sizeof said->why, "%s",
			 a->features ? "--features" : "the default");
	else if (rec->recorded)
		snprintf(said->why, sizeof said->why,
			 "the model's feature stage, recorded as '%.160s': "
			 "computed built in",
			 rec->recorded);
	else
		snprintf(said->why, sizeof said->why, "the model's feature stage");
	err_one_line(said->why);
}

/* The input's tensors as a downstream program's stage. */
static void
model_stream(struct feat_src *fs, const struct stage_rec *rec, const struct stage_ask *a,
	     struct stage_said *said)
{
	if (a->changes)
		die("features: %s is the input's 'features' tensors, which describe the "
		    "whole graph; the link task computes features on each run's training "
		    "edges: give --features 'COMMAND'",
		    said->why);
	if (a->nfeat == 0 && (!rec->path || a->fresh))
		die("features: --features stream: the input has no 'features' tensors");
	if (a->nfeat == 0)
		die("features: %s is the input's 'features' tensors (%d columns: %.80s), "
		    "and the input has none: add them with the stage that made them, or "
		    "give --features 'COMMAND' with those columns",
		    said->why, rec->width, rec->columns);
	fs->kind = FEAT_SRC_GIVEN;
	fs->F = a->F;
	said->cols = a->fcols;
}

void
featstage_for_model(struct feat_src *fs, struct featcmd *fc, const struct stage_rec *rec,
		    const struct stage_ask *a, struct stage_said *said)
{
	const char *arg, *set;
	char msg[512];

	arg = a->features ? a->features : rec->path ? rec_stage(rec) : "paper";
	model_why(rec, a, said);
	said->cols = FEATURES_COLUMNS;
	feat_src_default(fs);
	fs->scale = a->scale;
	if (a->nfeat > 0 && a->nfeat < a->ngraphs)
		die("%d of %d graphs have a 'features' tensor: give all or none", a->nfeat,
		    a->ngraphs);
	refuse_command(rec, a);
	if (strcmp(arg, "stream") == 0) {
		model_stream(fs, rec, a, said);
	} else if (feat_src_builtin(fs, arg) == 0 ||
		   ((set = featcmd_builtin(arg)) && feat_src_builtin(fs, set) == 0)) {
		feat_src_columns(fs, said->bcols, sizeof said->bcols);
		said->cols = said->bcols;
	} else {
		featcmd_init(fc, arg, a->quiet, a->timeout);
		if (featstage_command(fc, fs, a->g0, msg, sizeof msg) != 0)
			die("%s", msg);
		said->cols = fc->columns;
	}
	if (fs->kind != FEAT_SRC_PAPER && a->scale != FEAT_SCALE_MINMAX)
		die_usage("--scale is for the paper's four features (--features paper)");
	/* the model's input must be what the stage gives */
	if (rec->path && !a->fresh &&
	    (fs->F != rec->width || strcmp(said->cols, rec->columns) != 0))
		die("features: the model was trained on %d columns (%.80s) from its stage '%.80s'; "
		    "%s gives %d (%.80s): use the model's stage or one with its columns",
		    rec->width, rec->columns, rec_stage(rec), a->features ? a->features : said->why,
		    fs->F, said->cols);
}

void
featstage_tell_model(const struct feat_src *fs, const struct featcmd *fc,
		     const struct stage_rec *rec, const struct stage_ask *a,
		     const struct stage_said *said)
{
	if (a->quiet)
		return;
	const char *used = featstage_name(fs, fc), *mine = rec_stage(rec);
	int other = rec->path && strcmp(used, mine) != 0;
	int builtin = fs->kind != FEAT_SRC_GIVEN && fs->kind != FEAT_SRC_CALL;
	/* the model's own built-in stage, recorded by its name, or the
	 * paper's four without a model: no news */
	int plain = builtin && !a->features && !other &&
		    (rec->path ? !rec->recorded : fs->kind == FEAT_SRC_PAPER);
	if (!plain)
		warnx_("features: %s (%s): %d columns (%.80s)%s%s%s", used, said->why, fs->F,
		       said->cols, other ? "; the model was trained with '" : "", other ? mine : "",
		       other ? "'" : "");
	if (a->nfeat > 0 && fs->kind != FEAT_SRC_GIVEN)
		warnx_("features: the input's 'features' tensors are not used "
		       "(--features stream uses them)");
}

/* ---- the input's 'features' tensors ---- */

int
featstage_tensor(struct feat_seen *seen, const gs_rec *r, int32_t n, double **feat, int *F,
		 char *msg, size_t msglen)
{
	const char *cols = r->columns ? r->columns : "";
	int paper, differ = 0;

	if (feat_take(r, n, feat, F, msg, msglen) != 0)
		return -1;
	paper = feat_is_paper(r);
	if (seen->n == 0) {
		seen->F = *F;
		seen->cols = xstrdup(cols);
		seen->paper = paper;
	} else {
		differ = (strcmp(cols, seen->cols) != 0 ? FEAT_SEEN_COLUMNS : 0) |
			 (*F != seen->F ? FEAT_SEEN_WIDTH : 0) |
			 (paper != seen->paper ? FEAT_SEEN_PAPER : 0);
	}
	seen->n++;
	return differ;
}

void
feat_seen_free(struct feat_seen *seen)
{
	free(seen->cols);
	memset(seen, 0, sizeof *seen);
}

const gs_rec *
featstage_held(const gs_rec *recs, int nrecs)
{
	for (int i = 0; i < nrecs; i++)
		if (strcmp(recs[i].name, "features") == 0)
			return &recs[i];
	return NULL;
}

const char *
featstage_misfit(const struct feat_src *fs, int has, int F)
{
	if (fs->kind != FEAT_SRC_GIVEN || (has && F == fs->F))
		return NULL;
	return has ? "its 'features' tensor has another width than the first graph's"
		   : "no 'features' tensor (the stage is the input's tensors)";
}
