/*
 * fuzz_evalf1.c - libFuzzer harness: evalf1's prediction reader
 * (eval_runs_add(), common/evalrun.c).
 *
 * The bytes are a stream (any form); its 'predictions' tensors are read
 * as evalf1 reads them, until the first error, then put in run order;
 * then again keeping each run's scored items (--baseline).
 * Rules checked: errors are one line of printable bytes naming the
 * input; every run kept has items, 1..EVAL_MAX_CLASSES classes, the first
 * run's class count, F1 scores in [0, 1], and its scored items in order.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/evalf1 (made
 * by tests/fuzz/make-seeds.sh).
 */
#include "fuzz_common.h" /* first: it defines _GNU_SOURCE */

#include "evalrun.h"

static int
in01(double x)
{
	return x >= 0 && x <= 1;
}

/* The predictions records of the input read as evalf1 reads them (with
 * want_items, as for --baseline), and the runs kept checked. */
static void
read_runs(const uint8_t *data, size_t size, int want_items)
{
	gs_file *in = gs_open_fd(fuzz_memfd(NULL, 0, data, size), "fuzz");
	struct eval_runs rs;
	char msg[8192];
	gs_rec r;
	int k;

	eval_runs_init(&rs);
	rs.want_items = want_items;
	gs_rec_init(&r);
	while ((k = gs_read1(in, &r)) > 0) {
		if (k != GS_TENSOR || strcmp(r.name, "predictions") != 0)
			continue;
		if (eval_runs_add(&rs, &r, gs_where(in), msg, sizeof msg) != 0) {
			if (strncmp(msg, "fuzz", 4) != 0)
				abort();
			fuzz_check_line(msg);
			break;
		}
	}
	eval_runs_sort(&rs);
	for (int i = 0; i < rs.n; i++) {
		const struct eval_run *u = &rs.r[i];
		if (u->f.n < 1 || u->C < 1 || u->C > EVAL_MAX_CLASSES || u->C != rs.r[0].C ||
		    !in01(u->f.micro) || !in01(u->f.macro) || (i > 0 && rs.r[i - 1].id >= u->id))
			abort();
		/* --baseline's items: its f.n scored items, in order */
		for (int64_t j = 1; want_items && j < u->f.n; j++)
			if (u->item[j - 1] > u->item[j])
				abort();
	}
	eval_runs_free(&rs);
	gs_rec_free(&r);
	gs_close(in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_runs(data, size, 0);
	read_runs(data, size, 1);
	return 0;
}
