/*
 * test_safetensors.c - the safetensors writer's header, byte for byte, on
 * small cases worked by hand: JSON escapes, UTF-8 checks, the data order
 * and offsets, the padding, the bytes written.  (tests/cli/export.test.sh
 * reads whole files with an independent reader.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "safetensors.h"
#include "stream.h"

/* The header without its padding, as a string. */
static char *
header_text(const struct st_file *sf)
{
	size_t n = sf->hlen;
	char *s = malloc(n + 1);
	memcpy(s, sf->header, n);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	s[n] = '\0';
	return s;
}

Test(safetensors, order_offsets_padding)
{
	float a[2] = { 1, 2 };
	double b[3] = { 3, 4, 5 };
	int32_t c[1] = { 6 };
	int64_t d[2] = { 7, 8 };
	struct st_tensor t[] = {
		{ "a", GS_F32, 2, { 1, 2 }, a }, { "b", GS_F64, 1, { 3 }, b },
		{ "c", GS_I32, 0, { 0 }, c },					     /* a scalar */
		{ "d", GS_I64, 2, { 2, 1 }, d }, { "e", GS_F32, 2, { 0, 5 }, NULL }, /* empty */
	};
	struct st_file sf;
	char msg[256];

	cr_assert(st_prepare(&sf, t, 5, NULL, 0, msg, sizeof msg) == 0, "%s", msg);
	/* 8-byte types first (b, d), then a, c, e, each group in order */
	char *h = header_text(&sf);
	cr_expect_str_eq(h, "{\"b\":{\"dtype\":\"F64\",\"shape\":[3],\"data_offsets\":[0,24]},"
			    "\"d\":{\"dtype\":\"I64\",\"shape\":[2,1],\"data_offsets\":[24,40]},"
			    "\"a\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[40,48]},"
			    "\"c\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[48,52]},"
			    "\"e\":{\"dtype\":\"F32\",\"shape\":[0,5],\"data_offsets\":[52,52]}}");
	cr_expect(sf.hlen % 8 == 0 && sf.hlen - strlen(h) < 8);
	cr_expect(sf.data_bytes == 52);
	int order[] = { 1, 3, 0, 2, 4 };
	cr_expect(memcmp(sf.order, order, sizeof order) == 0);

	/* the bytes: length, header, data in that order */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(st_write(f, &sf, t) == 0);
	fclose(f);
	cr_assert(len == 8 + sf.hlen + 52);
	uint64_t n = 0;
	for (int i = 7; i >= 0; i--)
		n = n << 8 | (unsigned char)buf[i];
	cr_expect(n == sf.hlen);
	const char *data = buf + 8 + sf.hlen;
	cr_expect(memcmp(data, b, 24) == 0 && memcmp(data + 24, d, 16) == 0 &&
		  memcmp(data + 40, a, 8) == 0 && memcmp(data + 48, c, 4) == 0);
	free(buf);
	free(h);
	st_free(&sf);
}

Test(safetensors, json_escapes)
{
	/* quote, backslash, the named control escapes, other control bytes as
	 * \u00XX, DEL and UTF-8 as they are, a NUL inside a value */
	static const char val[] =
	    "a\"b\\c\n\t\r\b\f\001\037\177 caf\303\251 \360\237\230\200 \000z";
	struct st_meta m[] = { { "k\"ey", val, sizeof val - 1 } };
	struct st_file sf;
	char msg[256];

	cr_assert(st_prepare(&sf, NULL, 0, m, 1, msg, sizeof msg) == 0, "%s", msg);
	char *h = header_text(&sf);
	cr_expect_str_eq(h, "{\"__metadata__\":{\"k\\\"ey\":\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001"
			    "\\u001f\177 caf\303\251 \360\237\230\200 \\u0000z\"}}");
	free(h);
	st_free(&sf);
}

/* st_prepare's message for one metadata value, or "" when it is accepted. */
static const char *
value_msg(const char *v, size_t n, char *msg, size_t len)
{
	struct st_meta m[] = { { "key", v, n } };
	struct st_file sf;

	msg[0] = '\0';
	if (st_prepare(&sf, NULL, 0, m, 1, msg, len) == 0)
		st_free(&sf);
	return msg;
}

Test(safetensors, utf8_refused_where_invalid)
{
	char msg[256];
	/* RFC 3629: overlong forms, surrogates, beyond U+10FFFF, cut short,
	 * a stray continuation byte, bytes that never occur */
	static const struct {
		const char *s;
		size_t bad;
	} cases[] = {
		{ "ab\300\200", 2 },	{ "\340\200\200", 0 },
		{ "x\355\240\200", 1 }, { "\364\220\200\200", 0 },
		{ "ok\342\202", 2 },	{ "\200", 0 },
		{ "\377", 0 },		{ "\370\210\200\200\200", 0 },
		{ "\303(", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char want[128];
		snprintf(want, sizeof want, "metadata 'key': byte %zu of the value is not UTF-8",
			 cases[i].bad);
		value_msg(cases[i].s, strlen(cases[i].s), msg, sizeof msg);
		cr_expect(strncmp(msg, want, strlen(want)) == 0, "case %zu: %s", i, msg);
	}
	/* the edges that are valid: U+0080, U+07FF, U+E000, U+FFFF, U+10FFFF */
	static const char ok[] = "\302\200\337\277\356\200\200\357\277\277\364\217\277\277";
	cr_expect_str_eq(value_msg(ok, sizeof ok - 1, msg, sizeof msg), "");
}

Test(safetensors, names_refused)
{
	float x = 0;
	struct st_tensor two[] = { { "w", GS_F32, 1, { 1 }, &x },
				   { "v", GS_F32, 1, { 1 }, &x },
				   { "w", GS_F32, 1, { 1 }, &x } };
	struct st_tensor meta[] = { { "__metadata__", GS_F32, 1, { 1 }, &x } };
	struct st_tensor neg[] = { { "n", GS_F32, 2, { 2, -1 }, &x } };
	struct st_meta m2[] = { { "k", "1", 1 }, { "k", "2", 1 } };
	struct st_file sf;
	char msg[256];

	cr_expect(st_prepare(&sf, two, 3, NULL, 0, msg, sizeof msg) == -1);
	cr_expect_str_eq(msg, "tensor 'w' appears twice");
	cr_expect(st_prepare(&sf, meta, 1, NULL, 0, msg, sizeof msg) == -1);
	cr_expect_str_eq(msg, "a tensor may not be named '__metadata__'");
	cr_expect(st_prepare(&sf, neg, 1, NULL, 0, msg, sizeof msg) == -1);
	cr_expect_str_eq(msg, "tensor 'n': negative dimension");
	cr_expect(st_prepare(&sf, NULL, 0, m2, 2, msg, sizeof msg) == -1);
	cr_expect_str_eq(msg, "metadata key 'k' appears twice");
}
