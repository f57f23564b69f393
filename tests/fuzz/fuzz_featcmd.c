/*
 * fuzz_featcmd.c - libFuzzer harness: what a feature command's output is
 * read as (featcmd_read(), the reader of featcmd_call(): common/featcmd.c).
 *
 * The first byte gives the number of graphs G (1..4) the command was
 * given, the next G bytes their node counts (1..32); the rest is the
 * command's standard output, a stream in any form.  It is read as the
 * first call reads it (no buffers: the width and columns learnt), then,
 * when that succeeds, again as every later call (into buffers of that
 * width).  Rules checked: errors are one line of printable bytes that
 * names the command; a read that succeeds learns a width of
 * 1..MODEL_MAXF columns, succeeds the second time too and gives finite
 * values.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/featcmd (made
 * by tests/fuzz/make-seeds.sh).
 */
#include "fuzz_common.h" /* first: it defines _GNU_SOURCE */

#include <math.h>
#include <stdio.h>

#include "err.h"
#include "featcmd.h"
#include "model.h"

#define CMD "fuzz-command"
#define MAXG 4

static void
check_msg(const char *msg)
{
	if (strncmp(msg, "features: '" CMD "'", sizeof "features: '" CMD "'" - 1) != 0)
		abort();
	fuzz_check_line(msg);
}

/* Read the output (data) once; 0, or -1 after checking the message. */
static int
read_once(struct featcmd *fc, const graph *const *gs, int G, double *const *feat,
	  const uint8_t *data, size_t size)
{
	gs_file *in = gs_open_fd(fuzz_memfd(NULL, 0, data, size), "<feature stage output>");
	char msg[1024];
	int rc = featcmd_read(fc, in, gs, G, feat, msg, sizeof msg);

	if (rc != 0)
		check_msg(msg);
	gs_close(in);
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	graph g[MAXG];
	const graph *gs[MAXG];
	double *feat[MAXG] = { NULL };
	struct featcmd fc;
	char msg[256];
	int G;

	if (size < 1 + MAXG)
		return 0;
	G = 1 + data[0] % MAXG;
	for (int i = 0; i < G; i++) {
		graph_init(&g[i]);
		if (graph_build(&g[i], 1 + data[1 + i] % 32, 0, NULL, NULL, GRAPH_STRICT, NULL, msg,
				sizeof msg) != 0)
			abort();
		gs[i] = &g[i];
	}
	data += 1 + MAXG;
	size -= 1 + MAXG;

	featcmd_init(&fc, CMD, 1, 0);
	if (read_once(&fc, gs, G, NULL, data, size) == 0) {
		if (fc.F < 1 || fc.F > MODEL_MAXF || !fc.columns)
			abort();
		for (int i = 0; i < G; i++)
			feat[i] = xmallocarray((size_t)g[i].n * (size_t)fc.F, sizeof *feat[i]);
		if (read_once(&fc, gs, G, feat, data, size) != 0)
			abort(); /* the same output, read again */
		for (int i = 0; i < G; i++)
			for (int64_t j = 0; j < (int64_t)g[i].n * fc.F; j++)
				if (!isfinite(feat[i][j]))
					abort();
	}
	for (int i = 0; i < G; i++) {
		free(feat[i]);
		graph_free(&g[i]);
	}
	featcmd_free(&fc);
	return 0;
}
