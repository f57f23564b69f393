/*
 * fuzz_table.c - libFuzzer harness: graph-attach's table reader
 * (common/import_table.c): a text table (CSV/TSV, quotes) or a .npy file.
 *
 * The input is the table's bytes in a memfd, read through its
 * /proc/self/fd path as graph-attach reads a file, with the delimiter
 * guessed and given (a comma).  A table that reads is coded as the tool
 * codes it: each of its first columns as classes, as floats, and as the
 * key matching rows to 16 named nodes, to node ids and in row order.
 * Every error must be one line of printable bytes.  Built and run by
 * `make fuzz`; seeds in tests/fuzz/corpus/table.
 */
#include "fuzz_common.h" /* first: it defines _GNU_SOURCE (memfd_create) */

#include <stdio.h>

#include "import_table.h"

static const char *const names[16] = { "alice", "bob",	  "0",	"1",  "2", "x", "a b", "\"q\"",
				       "c,d",	"Mr. Hi", "-1", "07", "7", "",	"z",   "y" };

/* The codings of column c; errors checked. */
static void
code_column(const struct table *t, int c, struct lr_err err)
{
	int32_t *cls = malloc((size_t)t->nrows * sizeof *cls), row[16];
	float *x = malloc((size_t)t->nrows * sizeof *x);
	classes cl;
	int64_t un;
	char *list;

	memset(&cl, 0, sizeof cl);
	import_table_classes(t, c, "-1", cls, &cl);
	for (int64_t r = 0; r < t->nrows; r++)
		if (cls[r] < -1 || cls[r] >= cl.names.n)
			abort();
	list = import_class_list(&cl);
	free(list);
	import_class_free(&cl);
	if (import_table_floats(t, &c, 1, x, err) != 0)
		fuzz_check_line(err.msg);
	for (int by = TABLE_BY_NAME; by <= TABLE_BY_ORDER; by++) {
		if (import_table_match(t, by, by == TABLE_BY_ORDER ? -1 : c, names + 1, 15, by & 1,
				       row, &un, err) != 0) {
			fuzz_check_line(err.msg);
			continue;
		}
		for (int i = 0; i < 15; i++)
			if (row[i] < -1 || row[i] >= t->nrows)
				abort();
	}
	free(cls);
	free(x);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], msg[8192];
	struct lr_err err = { msg, sizeof msg };
	int fd = fuzz_memfd(NULL, 0, data, size);

	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	for (int delim = 0; delim <= ','; delim += ',') {
		struct table t;
		if (import_table_read(&t, path, delim, err) != 0) {
			fuzz_check_line(msg);
		} else {
			if (t.ncols < 1 || t.nrows < 1)
				abort();
			for (int c = 0; c < t.ncols && c < 3; c++)
				code_column(&t, c, err);
		}
		import_table_free(&t);
	}
	close(fd);
	return 0;
}
