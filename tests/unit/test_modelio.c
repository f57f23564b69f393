/*
 * test_modelio.c - model records and checkpoints (common/modelio.h): a
 * checkpoint loads back exactly; an invalid one (a negative Adam second
 * moment, a value that is not finite, a tensor missing, counters that do
 * not agree) is refused with its reason; a model or checkpoint holding a
 * value that is not finite is never written.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "modelio.h"
#include "rng.h"

/* A small model of the default tasks (d = 8, 2 blocks), its parameters
 * drawn, and a run state that gcn-train could have written. */
struct fixture {
	struct train_settings s;
	model M;
	real *best;
	struct train_state st;
	gs_rec r;
};

static void
make(struct fixture *f)
{
	struct model_cfg mc;

	err_setprog("test_modelio");
	train_settings_default(&f->s);
	f->s.hidden = f->s.rank_hidden = f->s.att_hidden = 8;
	f->s.layers = 2;
	cr_assert(train_settings_model_cfg(&f->s, &mc) == 0 && model_init(&f->M, &mc) == 0);
	gsl_rng *g = rng_new(1, 2);
	model_init_params(&f->M, g);
	gsl_rng_free(g);
	f->best = malloc((size_t)f->M.n * sizeof *f->best);
	for (int64_t j = 0; j < f->M.n; j++) {
		f->best[j] = f->M.p[j] / 2;
		f->M.m[j] = (real)(0.01 * sin((double)j));
		f->M.v[j] = (real)(1e-4 * (1 + cos((double)j)));
	}
	f->M.adam_t = 12;
	memset(&f->st, 0, sizeof f->st);
	f->st.epoch = 3;
	f->st.step = 12;
	f->st.best_epoch = 2;
	f->st.best_step = 8;
	f->st.stale = 1;
	f->st.best_score = 0.625;
	f->st.best_sc.score = 0.625;
	gs_rec_init(&f->r);
	modelio_checkpoint_record(&f->r, &f->s, &f->M, f->best, &f->st);
}

static void
unmake(struct fixture *f)
{
	gs_rec_free(&f->r);
	free(f->best);
	model_free(&f->M);
	train_settings_free(&f->s);
}

/* Load f's record into a model of the same config; the return of
 * modelio_checkpoint_load(), its message in msg. */
static int
load(struct fixture *f, char *msg, size_t len)
{
	struct model_cfg mc;
	struct train_state st;
	model M;

	cr_assert(train_settings_model_cfg(&f->s, &mc) == 0 && model_init(&M, &mc) == 0);
	real *best = malloc((size_t)M.n * sizeof *best);
	msg[0] = '\0';
	int rc = modelio_checkpoint_load(&M, best, &st, &f->r, "ck.gs", msg, len);
	if (rc == 0) {
		cr_assert(memcmp(M.p, f->M.p, (size_t)M.n * sizeof *M.p) == 0);
		cr_assert(memcmp(best, f->best, (size_t)M.n * sizeof *best) == 0);
		cr_assert(memcmp(M.v, f->M.v, (size_t)M.n * sizeof *M.v) == 0);
		cr_assert(M.adam_t == 12 && st.epoch == 3 && st.step == 12 && st.stale == 1);
	}
	free(best);
	model_free(&M);
	return rc;
}

/* The float32 data of f's tensor name. */
static float *
tensor(struct fixture *f, const char *name)
{
	for (int i = 0; i < f->r.nparams; i++)
		if (strcmp(f->r.params[i].name, name) == 0)
			return f->r.params[i].data;
	cr_assert_fail("no tensor %s", name);
	return NULL;
}

Test(modelio, checkpoint_round_trip)
{
	struct fixture f;
	char msg[512];
	make(&f);
	cr_assert_eq(load(&f, msg, sizeof msg), 0, "%s", msg);
	unmake(&f);
}

/* Each bad edit of a valid checkpoint is refused with its reason. */
static void
refused(void (*edit)(struct fixture *), const char *want)
{
	struct fixture f;
	char msg[512];
	make(&f);
	edit(&f);
	cr_assert_eq(load(&f, msg, sizeof msg), -1, "accepted (want '%s')", want);
	cr_assert(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg, want);
	cr_assert(strncmp(msg, "ck.gs: ", 7) == 0, "message '%s' does not name the file", msg);
	unmake(&f);
}

static void
neg_v(struct fixture *f)
{
	tensor(f, "state.adam_v")[5] = -1e-7f;
}
static void
nan_m(struct fixture *f)
{
	tensor(f, "state.adam_m")[0] = NAN;
}
static void
inf_best(struct fixture *f)
{
	tensor(f, "state.best")[7] = INFINITY;
}
static void
nan_param(struct fixture *f)
{
	tensor(f, "embed.W")[1] = NAN;
}
static void
no_v(struct fixture *f)
{
	f->r.nparams--;
} /* state.adam_v is last */
static void
adam_t(struct fixture *f)
{
	gs_attr_set(&f->r, "state.adam_t", "13");
}
static void
best_epoch(struct fixture *f)
{
	gs_attr_set(&f->r, "state.best_epoch", "4");
}
static void
best_step(struct fixture *f)
{
	gs_attr_set(&f->r, "state.best_step", "13");
}
static void
stale(struct fixture *f)
{
	gs_attr_set(&f->r, "state.stale_epochs", "4");
}
static void
step_lt_epoch(struct fixture *f)
{
	gs_attr_set(&f->r, "epoch", "30");
}
static void
score(struct fixture *f)
{
	gs_attr_set(&f->r, "state.best_score", "1.5");
}
static void
val_score(struct fixture *f)
{
	gs_attr_set(&f->r, "val.cluster_acc", "-0.1");
}
static void
epochs(struct fixture *f)
{
	gs_attr_set(&f->r, "epoch", "2000000000");
}

Test(modelio, negative_adam_v_refused)
{
	refused(neg_v, "'state.adam_v' element 5 is -1e-07");
}
Test(modelio, non_finite_state_refused)
{
	refused(nan_m, "'state.adam_m' element 0 is not finite");
	refused(inf_best, "'state.best' element 7 is not finite");
	refused(nan_param, "'embed.W' element 1 is not finite");
}
Test(modelio, missing_state_refused)
{
	refused(no_v, "'state.adam_v' is missing");
}
Test(modelio, counters_that_disagree_refused)
{
	refused(adam_t, "state.adam_t is not step");
	refused(best_epoch, "the best epoch or step is after the last one done");
	refused(best_step, "the best epoch or step is after the last one done");
	refused(stale, "state.stale_epochs is above epoch");
	refused(step_lt_epoch, "step is below epoch");
	refused(score, "state.best_score is neither -1");
	refused(val_score, "val.cluster_acc=-0.1 is not in [0, 1]");
	refused(epochs, "epoch=2000000000 is not a whole number in 0..1000000000");
}

/* A model or checkpoint about to hold a value that is not finite: an
 * error (exit 1), not a record. */
Test(modelio, non_finite_model_not_written, .exit_code = 1)
{
	struct fixture f;
	make(&f);
	f.M.p[3] = NAN;
	modelio_record(&f.r, MODEL_NAME, &f.s, &f.M, f.M.p, NULL, 1, 1);
	cr_assert_fail("a model holding NaN was written");
}

Test(modelio, non_finite_checkpoint_not_written, .exit_code = 1)
{
	struct fixture f;
	make(&f);
	f.M.v[2] = INFINITY;
	modelio_checkpoint_record(&f.r, &f.s, &f.M, f.best, &f.st);
	cr_assert_fail("a checkpoint holding inf was written");
}

/* ---- modelio_find(): the one loop that finds a model record ---- */

/* A stream file of a graph, model records "a" (config "1"), "b" ("2") and
 * "a" ("3"), and a label (records 1 to 5); its path (static storage). */
static const char *
stream_of_models(void)
{
	static char path[32];
	static const char *const names[] = { "a", "b", "a" }, *const cfg[] = { "1", "2", "3" };
	gs_file *out;
	int fd;
	gs_rec r;

	snprintf(path, sizeof path, "/tmp/test_modelio.XXXXXX");
	cr_assert((fd = mkstemp(path)) >= 0);
	out = gs_open_fd_out(fd, path);
	gs_rec_init(&r);
	gs_rec_graph(&r, 0, 3, 0, GS_NONE);
	gs_write1(out, &r);
	for (int i = 0; i < 3; i++) {
		gs_rec_clear(&r);
		gs_rec_model(&r, names[i], cfg[i], 0);
		gs_write1(out, &r);
	}
	gs_rec_clear(&r);
	gs_rec_label(&r, 0, "y", 1);
	gs_write1(out, &r);
	gs_close(out);
	gs_rec_free(&r);
	return path;
}

/* find over path with f; its return, the config of the record kept. */
static int
find(const char *path, struct model_find *f, char *cfg, char *msg)
{
	char *files[1] = { (char *)path };
	struct gs_reader rd;
	gs_rec out;
	int k;

	gs_reader_init(&rd, 1, files);
	gs_rec_init(&out);
	k = modelio_find(&rd, f, &out, msg, 512);
	strcpy(cfg, k > 0 ? out.config : "");
	gs_rec_free(&out);
	gs_reader_free(&rd);
	return k;
}

/* take(): counts its calls, refuses config "2". */
static int
take(const gs_rec *r, const char *where, void *ctx, char *msg, size_t len)
{
	++*(int *)ctx;
	if (strcmp(r->config, "2") != 0)
		return 0;
	snprintf(msg, len, "%s: refused", where);
	return -1;
}

Test(modelio, find_first_last_and_counts)
{
	const char *path = stream_of_models();
	struct model_find f = { 0 };
	char cfg[8], msg[512];

	err_setprog("test_modelio");
	cr_assert_eq(find(path, &f, cfg, msg), 1); /* the first of any name */
	cr_assert_str_eq(cfg, "1");
	cr_assert(f.n == 3 && f.others == 2 && f.other[0] == '\0');
	cr_assert(strstr(f.where, ": record 2") != NULL, "where '%s'", f.where);
	f = (struct model_find){ .name = "a", .last = 1 };
	cr_assert_eq(find(path, &f, cfg, msg), 1); /* the last of a name */
	cr_assert_str_eq(cfg, "3");
	cr_assert(f.n == 2 && f.others == 2 && strcmp(f.other, "b") == 0);
	cr_assert(strstr(f.where, ": record 4") != NULL, "where '%s'", f.where);
	f = (struct model_find){ .name = "b", .stop = 1 };
	cr_assert_eq(find(path, &f, cfg, msg), 1); /* stops there */
	cr_assert_str_eq(cfg, "2");
	cr_assert(f.n == 1 && f.others == 1 && strcmp(f.other, "a") == 0);
	f = (struct model_find){ .name = "c" };
	cr_assert_eq(find(path, &f, cfg, msg), 0);
	cr_assert(f.n == 0 && strcmp(f.other, "a") == 0);
	unlink(path);
}

Test(modelio, find_take_error_ends_the_reading)
{
	const char *path = stream_of_models();
	int calls = 0;
	struct model_find f = { .last = 1, .take = take, .ctx = &calls };
	char cfg[8], msg[512];

	err_setprog("test_modelio");
	cr_assert_eq(find(path, &f, cfg, msg), -1);
	cr_assert(calls == 2 && f.n == 2 && f.others == 1);
	cr_assert(strstr(msg, ": record 3: refused") != NULL, "msg '%s'", msg);
	calls = 0;
	f = (struct model_find){ .take = take, .ctx = &calls };
	cr_assert_eq(find(path, &f, cfg, msg), 1); /* the first only: "2" not taken */
	cr_assert(calls == 1 && f.n == 3);
	unlink(path);
}

Test(modelio, find_leaves_stdin_alone)
{
	struct model_find f = { .no_stdin = 1 };
	char cfg[8], msg[512];

	cr_assert_eq(find("-", &f, cfg, msg), 0);
	cr_assert(f.n == 0 && f.where[0] == '\0');
	cr_assert_eq(find("/nonexistent/model.gs", &f, cfg, msg), -1);
	cr_assert(strstr(msg, "/nonexistent/model.gs") != NULL, "msg '%s'", msg);
}
