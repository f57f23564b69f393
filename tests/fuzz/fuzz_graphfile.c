/*
 * fuzz_graphfile.c - libFuzzer harness: graph-import's formats read by
 * igraph's C library (import_igraph, common/import_igraph.c): GraphML,
 * GML, Pajek, LGL, NCOL, DIMACS.
 *
 * The first byte of the input chooses the format (its value mod 6, in
 * that order); the rest is the file (plain or gzip).  Rules as
 * fuzz_import.h: whatever igraph makes of the bytes, the import returns
 * 0, -1 or -2 with one printable line, never aborts, and what it writes
 * reads back.  Built and run by `make fuzz`; seeds in
 * tests/fuzz/corpus/graphfile (tests/cli/data/formats-*, each after its
 * format's byte, and declared-*: DIMACS and Pajek files whose declared
 * sizes the file does not hold, the paths that check them before igraph
 * allocates; tests/fuzz/regress/graphfile replays those).
 */
#include "fuzz_import.h"

static const char *const formats[] = { "graphml", "gml", "pajek", "lgl", "ncol", "dimacs" };

struct graphfile {
	struct import_opts o;
	const char *format;
};

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	struct graphfile *g = ctx;

	return import_igraph(&g->o, g->format, "g.txt", out, msg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct fuzz_files fs = {
		.n = 1, .name = { "g.txt" }, .data = { data + 1 }, .len = { size - 1 }
	};
	struct lr_src src = { fuzz_files_open, &fs };
	struct graphfile g = { { .quiet = 1, .src = &src }, formats[data[0] % 6] };

	fuzz_import(run, &g);
	return 0;
}
