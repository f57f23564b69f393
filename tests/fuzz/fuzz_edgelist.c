/*
 * fuzz_edgelist.c - libFuzzer harness: graph-import's edge list reader
 * (import_edgelist, common/import_edgelist.c).
 *
 * The input is the edge list (plain or gzip), read twice: with the node
 * count from the largest id, and with --nodes 64.  Rules as fuzz_import.h.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/edgelist (made
 * by tests/fuzz/make-seeds.sh).
 */
#include "fuzz_import.h"

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	return import_edgelist(ctx, "e.txt", out, msg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files fs = { .n = 1, .name = { "e.txt" }, .data = { data }, .len = { size } };
	struct lr_src src = { fuzz_files_open, &fs };
	struct import_opts o = { .quiet = 1, .src = &src };

	fuzz_import(run, &o);
	o.nodes = 64;
	fuzz_import(run, &o);
	return 0;
}
