/*
 * fuzz_linqs.c - libFuzzer harness: graph-import's LINQS reader
 * (import_linqs, common/import_linqs.c).
 *
 * The input holds files as fuzz_import.h describes: d.content and d.cites
 * (absent ones do not exist), optionally d.attr (then --attributes
 * d.attr) and opts, whose bytes choose the options: 's' anywhere
 * --skip-unknown, a number after 'D' --attr-dim (1..64).
 * Built and run by `make fuzz`; seeds in tests/fuzz/corpus/linqs (made by
 * tests/fuzz/make-seeds.sh).
 */
#include "fuzz_import.h"

static int
run(void *ctx, gs_file *out, char *msg, size_t len)
{
	static char *const files[2] = { "d.content", "d.cites" };

	return import_linqs(ctx, files, out, msg, len);
}

/* The options of the opts file (as graph-import allows them: --attr-dim
 * only with --attributes). */
static void
options(struct import_opts *o, const struct fuzz_files *fs)
{
	if (fuzz_files_has(fs, "d.attr"))
		o->attributes = "d.attr";
	for (int i = 0; i < fs->n; i++) {
		const uint8_t *d = fs->data[i], *D;
		size_t len = fs->len[i];
		if (strcmp(fs->name[i], "opts") != 0)
			continue;
		o->skip_unknown = memchr(d, 's', len) != NULL;
		if ((D = memchr(d, 'D', len)) != NULL && o->attributes) {
			int64_t dim = 0;
			for (D++; D < d + len && *D >= '0' && *D <= '9' && dim < 1000; D++)
				dim = 10 * dim + (*D - '0');
			o->attr_dim = 1 + dim % 64;
		}
		break;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_import_input(data, size, run, options);
	return 0;
}
