/*
 * fuzz_tu.c - libFuzzer harness: graph-import's TU reader (import_tu,
 * common/import_tu.c).
 *
 * The input holds files as fuzz_import.h describes, named after the
 * prefix t: t_graph_labels.txt, t_graph_indicator.txt, t_A.txt and the
 * optional t_node_labels.txt, t_node_attributes.txt, t_edge_labels.txt
 * (each may be NAME.gz instead).
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/tu (made by
 * tests/fuzz/make-seeds.sh).
 */
#include "fuzz_import.h"

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	return import_tu(ctx, "t", out, msg, len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_input(data, size, run, NULL);
	return 0;
}
