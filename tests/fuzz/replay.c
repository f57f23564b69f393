/*
 * replay.c - a fuzz harness without libFuzzer: each FILE given is read and
 * passed to the harness's LLVMFuzzerTestOneInput() once, as libFuzzer
 * replays an input (`build/fuzz/fuzz_NAME FILE`).  Linked with each
 * tests/fuzz/fuzz_NAME.c into tests/bin/replay_NAME by `make test` (and
 * with ASan into build/asan/tests/bin by `make test-asan`), so the
 * regression inputs of tests/fuzz/regress/NAME run through the same
 * harness, with its checks, on every test run (tests/cli/fuzz.test.sh).
 * A harness that finds a broken rule aborts; exit 1 if a file cannot be
 * read (or the library dies: out of memory), 2 on misuse.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The bytes of path (a new buffer, *len of them), or NULL. */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, k;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			uint8_t *b = realloc(buf, cap = cap ? 2 * cap : 65536);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		k = fread(buf + n, 1, cap - n, f);
		n += k;
	} while (k > 0);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s file ...\n", argv[0]);
		return 2;
	}
#ifndef UNDER_ASAN
	/* libFuzzer stops at a 2 GB allocation (make fuzz: -rss_limit_mb);
	 * here 4 GB of address space, so that an input that makes the library
	 * ask for more (a size taken from the input before it is checked)
	 * fails the replay too, as "out of memory" (exit 1), even where a
	 * large calloc would succeed lazily.  ASan reserves terabytes of
	 * address space for its shadow: no limit under it. */
	struct rlimit rl = { 4UL << 30, 4UL << 30 };
	if (setrlimit(RLIMIT_AS, &rl) != 0)
		perror("setrlimit");
#endif
	for (int i = 1; i < argc; i++) {
		size_t len;
		uint8_t *buf = slurp(argv[i], &len);
		if (!buf) {
			fprintf(stderr, "%s: %s: cannot read\n", argv[0], argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
