/*
 * test_import_table.c - tables as graph-attach reads them (import_table.h):
 * CSV quoting and trimming, the delimiter guess, class numbering with the
 * unknown value, matching rows to nodes, .npy element types written byte
 * by byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "import_table.h"

static char msg[8192];
static const struct lr_err err = { msg, sizeof msg };

/* A temporary file holding len bytes of s; its path (static). */
static const char *
file_of(const void *s, size_t len)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof path, "/tmp/test_import_table.XXXXXX");
	fd = mkstemp(path);
	cr_assert(fd >= 0);
	cr_assert(write(fd, s, len) == (ssize_t)len);
	close(fd);
	return path;
}

static int
read_str(struct table *t, const char *s, int delim)
{
	const char *p = file_of(s, strlen(s));
	int rc = import_table_read(t, p, delim, err);
	unlink(p);
	return rc;
}

static const char *
cell(const struct table *t, int64_t r, int c)
{
	static char b[32];
	return import_table_cell(t, r, c, b, sizeof b);
}

Test(table, csv_quotes_bom_trim)
{
	struct table t;

	cr_assert(read_str(&t,
			   "\xef\xbb\xbfname, club\n"
			   " \"Mr. Hi, sr.\" , \"say \"\"hi\"\"\"\n"
			   "\n"
			   "b,\n",
			   0) == 0,
		  "%s", msg);
	cr_expect(t.ncols == 2 && t.nrows == 2);
	cr_expect_str_eq(t.col[0], "name");
	cr_expect_str_eq(t.col[1], "club");
	cr_expect_str_eq(cell(&t, 0, 0), "Mr. Hi, sr.");
	cr_expect_str_eq(cell(&t, 0, 1), "say \"hi\"");
	cr_expect_str_eq(cell(&t, 1, 1), "");
	cr_expect(t.line[1] == 4, "a blank line is skipped, the line numbers kept");
	import_table_free(&t);
}

Test(table, tab_beats_comma_and_keeps_blanks)
{
	struct table t;

	cr_assert(read_str(&t, "a,b\tc\n x,y \tz\n", 0) == 0, "%s", msg);
	cr_expect(t.ncols == 2);
	cr_expect_str_eq(t.col[0], "a,b");
	cr_expect_str_eq(cell(&t, 0, 0), " x,y ");
	import_table_free(&t);
	cr_assert(read_str(&t, "a b\n1   2\n", 0) == 0, "%s", msg);
	cr_expect(t.ncols == 2 && strcmp(cell(&t, 0, 1), "2") == 0, "runs of blanks");
	import_table_free(&t);
}

Test(table, bad_text)
{
	struct table t;

	cr_expect(read_str(&t, "a,b\n1,2,3\n", 0) == -1);
	cr_expect(strstr(msg, ": line 2: 3 fields, want 2 as in the header") != NULL, "%s", msg);
	import_table_free(&t);
	cr_expect(read_str(&t, "a,b\n\"1,2\n", 0) == -1);
	cr_expect(strstr(msg, "line 2: a quoted field is not closed") != NULL, "%s", msg);
	import_table_free(&t);
	cr_expect(read_str(&t, "a,b\n\"1\"x,2\n", 0) == -1, "text after a closing quote");
	import_table_free(&t);
	cr_expect(read_str(&t, "a,,b\n1,2,3\n", 0) == -1);
	cr_expect(strstr(msg, "column 2 has no name") != NULL, "%s", msg);
	import_table_free(&t);
}

Test(table, classes_numeric_with_unknown)
{
	struct table t;
	classes cl;
	int32_t y[5];
	char *names;

	memset(&cl, 0, sizeof cl);
	cr_assert(read_str(&t, "n\tc\n0\t10\n1\t9\n2\t-1\n3\t\n4\t10\n", 0) == 0, "%s", msg);
	import_table_classes(&t, 1, "-1", y, &cl);
	names = import_class_list(&cl);
	cr_expect_str_eq(names, "9,10", "numeric order, -1 and empty no class");
	cr_expect(y[0] == 1 && y[1] == 0 && y[2] == -1 && y[3] == -1 && y[4] == 1);
	free(names);
	import_class_free(&cl);
	import_table_classes(&t, 1, NULL, y, &cl);
	names = import_class_list(&cl);
	cr_expect_str_eq(names, "-1,9,10", "no unknown value: -1 is a class");
	free(names);
	import_class_free(&cl);
	import_table_free(&t);
}

Test(table, match_by_name_id_order)
{
	struct table t;
	const char *names[] = { "x", "y", "z" };
	int32_t row[8];
	int64_t un;

	cr_assert(read_str(&t, "k,v\nz,1\nx,2\n", 0) == 0, "%s", msg);
	cr_assert(import_table_match(&t, TABLE_BY_NAME, 0, names, 3, 0, row, &un, err) == 0, "%s",
		  msg);
	cr_expect(row[0] == 1 && row[1] == -1 && row[2] == 0 && un == 0);
	import_table_free(&t);

	cr_assert(read_str(&t, "k,v\n07,1\n1,2\n", 0) == 0, "%s", msg);
	cr_expect(import_table_match(&t, TABLE_BY_ID, 0, NULL, 3, 0, row, &un, err) == -1,
		  "7 >= 3");
	cr_expect(strstr(msg, "line 2: '07' is not a node id of the graph") != NULL, "%s", msg);
	cr_assert(import_table_match(&t, TABLE_BY_ID, 0, NULL, 8, 0, row, &un, err) == 0, "%s",
		  msg);
	cr_expect(row[7] == 0 && row[1] == 1 && row[0] == -1, "'07' is node 7");
	cr_assert(import_table_match(&t, TABLE_BY_ID, 0, NULL, 3, 1, row, &un, err) == 0);
	cr_expect(un == 1 && row[1] == 1, "skip: the row of node 7 counted, not an error");
	cr_expect(import_table_match(&t, TABLE_BY_ORDER, -1, NULL, 3, 0, row, &un, err) == -1,
		  "order: 2 rows for 3 nodes");
	cr_assert(import_table_match(&t, TABLE_BY_ORDER, -1, NULL, 2, 0, row, &un, err) == 0);
	cr_expect(row[0] == 0 && row[1] == 1);
	import_table_free(&t);

	cr_assert(read_str(&t, "k,v\n1,1\n01,2\n", 0) == 0, "%s", msg);
	cr_expect(import_table_match(&t, TABLE_BY_ID, 0, NULL, 3, 0, row, &un, err) == -1);
	cr_expect(strstr(msg, "line 3: '1' again (first on line 2)") != NULL, "%s", msg);
	import_table_free(&t);
}

/* A version 1.0 .npy of descr and shape with n data bytes. */
static int
read_npy(struct table *t, const char *descr, const char *shape, const void *data, size_t n)
{
	unsigned char buf[512];
	char dict[118];
	const char *p;
	int rc;

	memset(dict, ' ', sizeof dict);
	int k = snprintf(dict, sizeof dict,
			 "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape);
	dict[k] = ' ';
	dict[117] = '\n';
	memcpy(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
	memcpy(buf + 10, dict, 118);
	memcpy(buf + 128, data, n);
	p = file_of(buf, 128 + n);
	rc = import_table_read(t, p, 0, err);
	unlink(p);
	return rc;
}

Test(table, npy_types)
{
	struct table t;
	unsigned char i2[] = { 0xff, 0xff, 0x02, 0x00, 0x00, 0x80 }; /* -1, 2, -32768 */
	unsigned char u1[] = { 0xff, 0x00 };
	double f8[] = { 0.5, -2, 3, 4 };
	float x[4];
	int cols[] = { 0, 1 };

	cr_assert(read_npy(&t, "<i2", "(3,)", i2, sizeof i2) == 0, "%s", msg);
	cr_expect(t.npy && t.npy_int && t.ncols == 1 && t.nrows == 3);
	cr_expect_str_eq(cell(&t, 0, 0), "-1");
	cr_expect_str_eq(cell(&t, 1, 0), "2");
	cr_expect_str_eq(cell(&t, 2, 0), "-32768", "sign-extended");
	import_table_free(&t);
	cr_assert(read_npy(&t, "|u1", "(2,)", u1, sizeof u1) == 0, "%s", msg);
	cr_expect_str_eq(cell(&t, 0, 0), "255", "unsigned");
	import_table_free(&t);
	cr_assert(read_npy(&t, "<f8", "(2, 2)", f8, sizeof f8) == 0, "%s", msg);
	cr_expect(!t.npy_int && t.ncols == 2 && t.nrows == 2);
	cr_expect_str_eq(t.col[1], "c1");
	cr_assert(import_table_floats(&t, cols, 2, x, err) == 0, "%s", msg);
	cr_expect(x[0] == 0.5f && x[1] == -2 && x[3] == 4);
	import_table_free(&t);
	cr_expect(read_npy(&t, "<f8", "(3, 2)", f8, sizeof f8) == -1);
	cr_expect(strstr(msg, "truncated: shape (3, 2) wants 48 bytes") != NULL, "%s", msg);
	import_table_free(&t);
	cr_expect(read_npy(&t, "<i2", "(2,)", i2, sizeof i2) == -1, "bytes after the data");
	import_table_free(&t);
}
