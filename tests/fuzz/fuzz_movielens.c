/*
 * fuzz_movielens.c - libFuzzer harness: graph-import's MovieLens reader
 * (import_movielens, common/import_movielens.c).
 *
 * The input holds files as fuzz_import.h describes, those of a MovieLens
 * directory: 100K's u.data, u.occupation, u.genre, u.info, u.user, u.item,
 * or 1M's ratings.dat (or ratings.triples.dat), users.dat, movies.dat
 * (each may be NAME.gz instead).
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/movielens
 * (made by tests/fuzz/make-seeds.sh).
 */
#include "fuzz_import.h"

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	return import_movielens(ctx, "ml", out, msg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_input(data, size, run, NULL);
	return 0;
}
