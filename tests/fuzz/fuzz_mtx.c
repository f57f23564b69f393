/*
 * fuzz_mtx.c - libFuzzer harness: graph-import's Matrix Market reader
 * (import_mtx, common/import_mtx.c).
 *
 * The input is the .mtx file (plain or gzip).  Rules as fuzz_import.h.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/mtx (the
 * matrices of tests/cli/data/formats-*.mtx).
 */
#include "fuzz_import.h"

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	return import_mtx(ctx, "m.mtx", out, msg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files fs = { .n = 1, .name = { "m.mtx" }, .data = { data }, .len = { size } };
	struct lr_src src = { fuzz_files_open, &fs };
	struct import_opts o = { .quiet = 1, .src = &src };

	fuzz_import(run, &o);
	return 0;
}
