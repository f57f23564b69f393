/*
 * fuzz_model.c - libFuzzer harness: the model record loaders.
 *
 * The bytes are a stream (any form) that should hold model records: a
 * pre-trained model (gcn-train), a checkpoint (gcn-train --checkpoint) or
 * an adapted model (gcn-adapt --save-model).  Each is loaded as the
 * programs load it:
 *   - the file as gcn-embed and gcn-adapt read --model (pretrained_read:
 *     provenance kept, the first model record's config, names, shapes and
 *     values) and as gcn-adapt --predict reads it (pretrained_read_adapted:
 *     the encoder, the adapt.* keys and the head);
 *   - every model record by itself: modelio_from_record(), then
 *     modelio_checkpoint_load() into that model (gcn-train --resume: the
 *     parameters, state.best, Adam's moments, the state attributes), and
 *     modelio_adapted_from_record().
 * Rules checked: errors are one line of printable bytes; a model that
 * loads has finite parameters, and written back as a record
 * (modelio_record()) it loads again to the same values; a checkpoint that
 * loads has finite parameters, best parameters and Adam moments, and no
 * negative second moment.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/model.
 */
#include "fuzz_common.h" /* first: it defines _GNU_SOURCE */

#include <math.h>
#include <stdio.h>

#include "err.h"
#include "head.h"
#include "modelio.h"
#include "pretrained.h"

static void
all_finite(const real *x, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			abort();
}

/* M written as a pre-trained model record loads back to the same values. */
static void
round_trip(const model *M, const struct train_settings *s)
{
	struct train_settings s2;
	char msg[1024];
	gs_rec r;
	model M2;

	gs_rec_init(&r);
	modelio_record(&r, MODEL_NAME, s, M, M->p, NULL, 0, 0);
	if (modelio_from_record(&M2, &s2, &r, "round trip", msg, sizeof msg) != 0)
		abort();
	if (M2.n != M->n || memcmp(M2.p, M->p, (size_t)M->n * sizeof *M->p) != 0)
		abort();
	model_free(&M2);
	train_settings_free(&s2);
	gs_rec_free(&r);
}

/* One model record through each loader that takes a record. */
static void
one_record(const gs_rec *r)
{
	struct train_settings s;
	struct train_state st;
	struct adapted_cfg a;
	struct head h;
	char msg[1024];
	model M;

	if (modelio_from_record(&M, &s, r, "fuzz", msg, sizeof msg) != 0) {
		fuzz_check_line(msg);
	} else {
		all_finite(M.p, M.n);
		round_trip(&M, &s);
		real *best = xmallocarray((size_t)M.n, sizeof *best);
		if (modelio_checkpoint_load(&M, best, &st, r, "fuzz", msg, sizeof msg) != 0) {
			fuzz_check_line(msg);
		} else { /* a state to resume from: finite, Adam's v >= 0 */
			all_finite(M.p, M.n);
			all_finite(best, M.n);
			all_finite(M.m, M.n);
			all_finite(M.v, M.n);
			for (int64_t i = 0; i < M.n; i++)
				if (M.v[i] < 0)
					abort();
		}
		free(best);
		model_free(&M);
	}
	train_settings_free(&s);

	if (modelio_adapted_from_record(&M, &s, &a, &h, r, "fuzz", msg, sizeof msg) != 0) {
		fuzz_check_line(msg);
	} else {
		all_finite(M.p, M.n);
		all_finite(h.p, h.n);
		head_free(&h);
		model_free(&M);
	}
	modelio_adapted_free(&a);
	train_settings_free(&s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fuzz_memfd(NULL, 0, data, size);
	char path[64], msg[1024];
	struct pretrained p;
	struct adapted_cfg a;
	struct head h;
	gs_file *in;
	gs_rec r;

	/* the programs' readers open a path: this process's view of the memfd */
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (pretrained_read(&p, path, msg, sizeof msg) != 0) {
		fuzz_check_line(msg);
	} else {
		all_finite(p.M.p, p.M.n);
		pretrained_free(&p);
	}
	if (pretrained_read_adapted(&p, &a, &h, path, msg, sizeof msg) != 0) {
		fuzz_check_line(msg);
	} else {
		all_finite(h.p, h.n);
		head_free(&h);
		modelio_adapted_free(&a);
		pretrained_free(&p);
	}

	in = gs_open_fd(fd, "fuzz");
	gs_rec_init(&r);
	while (gs_read1(in, &r) > 0)
		if (r.kind == GS_MODEL)
			one_record(&r);
	gs_rec_free(&r);
	gs_close(in);
	return 0;
}
