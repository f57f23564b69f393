/*
 * fuzz_stream.c - libFuzzer harness: arbitrary bytes as a stream input.
 *
 * Binary and text forms, gzip members and plain edge lists are all detected
 * from the bytes, so one harness covers every reader path: gs_read1 over
 * each record, gs_graph_build on graph records (as the programs do).
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/stream.
 */
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_all(fuzz_memfd(NULL, 0, data, size));
	return 0;
}
