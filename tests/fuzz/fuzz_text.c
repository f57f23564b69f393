/*
 * fuzz_text.c - libFuzzer harness: the text form's record parser.
 *
 * The input is prefixed with the text magic line, so every input is a text
 * segment and the fuzzer spends its time on record headers, quoting, body
 * lines, model records and trailers rather than on finding the magic.
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/text (text
 * streams without their first line).
 */
#include "fuzz_common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char magic[] = "##gnnstream 1\n";

	fuzz_read_all(fuzz_memfd(magic, sizeof magic - 1, data, size));
	return 0;
}
