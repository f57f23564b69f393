/*
 * safetensors.c - the safetensors writer (see safetensors.h): a JSON
 * header written by hand (the format needs objects, arrays, integers and
 * escaped strings, nothing more) and the raw data.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "safetensors.h"
#include "stream.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors data are little-endian; this host is not"
#endif

const char *
st_dtype_name(int dtype)
{
	switch (dtype) {
	case GS_F32:
		return "F32";
	case GS_F64:
		return "F64";
	case GS_I32:
		return "I32";
	case GS_I64:
		return "I64";
	}
	return NULL;
}

/* Bytes of t's data, or UINT64_MAX when they overflow 64 bits. */
static uint64_t
nbytes(const struct st_tensor *t)
{
	uint64_t n = gs_dtype_size(t->dtype);
	for (int i = 0; i < t->ndim; i++) {
		uint64_t d = (uint64_t)t->shape[i];
		if (d != 0 && n > UINT64_MAX / d)
			return UINT64_MAX;
		n *= d;
	}
	return n;
}

/* Index of the first byte of s[0..n-1] that does not start a valid UTF-8
 * sequence (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF), or n when s is valid. */
static size_t
utf8_bad(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		unsigned c = s[i];
		size_t k;
		uint32_t cp, min;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1, cp = c & 0x1f, min = 0x80;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, cp = c & 0x0f, min = 0x800;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, cp = c & 0x07, min = 0x10000;
		else
			return i;
		if (n - i <= k)
			return i;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return i;
		i += k + 1;
	}
	return n;
}

/* ---- a growing JSON text ---- */

struct jbuf {
	char *p;
	size_t len, cap;
};

static void
j_raw(struct jbuf *b, const char *s, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = 2 * (b->len + n) + 256;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static void
j_put(struct jbuf *b, const char *s)
{
	j_raw(b, s, strlen(s));
}

/* A JSON string (RFC 8259, section 7): '"' and '\' escaped, and every
 * control byte (below 0x20), which JSON does not allow raw. */
static void
j_str(struct jbuf *b, const char *s, size_t n)
{
	j_raw(b, "\"", 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		char e[8];
		switch (c) {
		case '"':
			j_raw(b, "\\\"", 2);
			break;
		case '\\':
			j_raw(b, "\\\\", 2);
			break;
		case '\n':
			j_raw(b, "\\n", 2);
			break;
		case '\t':
			j_raw(b, "\\t", 2);
			break;
		case '\r':
			j_raw(b, "\\r", 2);
			break;
		case '\b':
			j_raw(b, "\\b", 2);
			break;
		case '\f':
			j_raw(b, "\\f", 2);
			break;
		default:
			if (c < 0x20) {
				snprintf(e, sizeof e, "\\u%04x", c);
				j_raw(b, e, 6);
			} else {
				j_raw(b, (const char *)&c, 1);
			}
		}
	}
	j_raw(b, "\"", 1);
}

static void
j_u64(struct jbuf *b, uint64_t x)
{
	char s[24];
	j_raw(b, s, (size_t)snprintf(s, sizeof s, "%" PRIu64, x));
}

/* ---- checks ---- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first name that appears twice in names[0..n-1] (sorted here), or
 * NULL. */
static const char *
repeated(const char **names, int n)
{
	qsort(names, (size_t)n, sizeof *names, cmp_str);
	for (int i = 1; i < n; i++)
		if (strcmp(names[i - 1], names[i]) == 0)
			return names[i];
	return NULL;
}

static int
check(const struct st_tensor *t, int nt, const struct st_meta *m, int nm, char *msg, size_t msglen)
{
	const char **names = xmallocarray((size_t)(nt > nm ? nt : nm) + 1, sizeof *names);
	const char *dup;
	int rc = -1;

	for (int i = 0; i < nt; i++) {
		size_t len = strlen(t[i].name),
		       bad = utf8_bad((const unsigned char *)t[i].name, len);
		if (bad < len) {
			snprintf(msg, msglen, "tensor '%s': byte %zu of the name is not UTF-8",
				 t[i].name, bad);
			goto out;
		}
		if (strcmp(t[i].name, "__metadata__") == 0) {
			snprintf(msg, msglen, "a tensor may not be named '__metadata__'");
			goto out;
		}
		if (!st_dtype_name(t[i].dtype) || t[i].ndim < 0 || t[i].ndim > ST_MAXDIM) {
			snprintf(msg, msglen, "tensor '%s': unsupported type or rank", t[i].name);
			goto out;
		}
		for (int k = 0; k < t[i].ndim; k++)
			if (t[i].shape[k] < 0) {
				snprintf(msg, msglen, "tensor '%s': negative dimension", t[i].name);
				goto out;
			}
		if (nbytes(&t[i]) == UINT64_MAX) {
			snprintf(msg, msglen, "tensor '%s': size overflows", t[i].name);
			goto out;
		}
		names[i] = t[i].name;
	}
	if ((dup = repeated(names, nt))) {
		snprintf(msg, msglen, "tensor '%s' appears twice", dup);
		goto out;
	}
	for (int i = 0; i < nm; i++) {
		size_t klen = strlen(m[i].key);
		size_t kb = utf8_bad((const unsigned char *)m[i].key, klen);
		size_t vb = utf8_bad((const unsigned char *)m[i].val, m[i].vlen);
		if (kb < klen || vb < m[i].vlen) {
			snprintf(msg, msglen,
				 "metadata '%s': byte %zu of the %s is not UTF-8 "
				 "(a safetensors header is UTF-8 text)",
				 m[i].key, kb < klen ? kb : vb, kb < klen ? "key" : "value");
			goto out;
		}
		names[i] = m[i].key;
	}
	if ((dup = repeated(names, nm))) {
		snprintf(msg, msglen, "metadata key '%s' appears twice", dup);
		goto out;
	}
	rc = 0;
out:
	free(names);
	if (rc)
		err_one_line(msg);
	return rc;
}

/* ---- the header ---- */

int
st_prepare(struct st_file *sf, const struct st_tensor *t, int nt, const struct st_meta *m, int nm,
	   char *msg, size_t msglen)
{
	static const size_t sizes[] = { 8, 4, 2, 1 };
	struct jbuf b = { 0 };
	uint64_t off = 0;
	int k = 0;

	memset(sf, 0, sizeof *sf);
	if (check(t, nt, m, nm, msg, msglen))
		return -1;

	/* data order: element size, largest first, stable */
	sf->order = xmallocarray((size_t)nt + 1, sizeof *sf->order);
	sf->nt = nt;
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int i = 0; i < nt; i++)
			if (gs_dtype_size(t[i].dtype) == sizes[s])
				sf->order[k++] = i;

	j_put(&b, "{");
	if (nm > 0) {
		j_put(&b, "\"__metadata__\":{");
		for (int i = 0; i < nm; i++) {
			if (i)
				j_put(&b, ",");
			j_str(&b, m[i].key, strlen(m[i].key));
			j_put(&b, ":");
			j_str(&b, m[i].val, m[i].vlen);
		}
		j_put(&b, "}");
	}
	for (int j = 0; j < nt; j++) {
		const struct st_tensor *x = &t[sf->order[j]];
		uint64_t n = nbytes(x);
		if (off > UINT64_MAX - n) {
			snprintf(msg, msglen, "the tensors' data overflow 64 bits");
			st_free(sf);
			free(b.p);
			return -1;
		}
		if (j || nm > 0)
			j_put(&b, ",");
		j_str(&b, x->name, strlen(x->name));
		j_put(&b, ":{\"dtype\":\"");
		j_put(&b, st_dtype_name(x->dtype));
		j_put(&b, "\",\"shape\":[");
		for (int d = 0; d < x->ndim; d++) {
			if (d)
				j_put(&b, ",");
			j_u64(&b, (uint64_t)x->shape[d]);
		}
		j_put(&b, "],\"data_offsets\":[");
		j_u64(&b, off);
		j_put(&b, ",");
		j_u64(&b, off + n);
		j_put(&b, "]}");
		off += n;
	}
	j_put(&b, "}");
	/* spaces up to a multiple of 8: the data start 8-aligned in the file */
	while (b.len % 8)
		j_raw(&b, " ", 1);
	if (b.len > ST_MAX_HEADER) {
		snprintf(msg, msglen,
			 "the header would be %zu bytes, over the format's "
			 "limit of %d",
			 b.len, ST_MAX_HEADER);
		st_free(sf);
		free(b.p);
		return -1;
	}
	sf->header = b.p;
	sf->hlen = b.len;
	sf->data_bytes = off;
	return 0;
}

int
st_write(FILE *f, const struct st_file *sf, const struct st_tensor *t)
{
	unsigned char len[8];

	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)((uint64_t)sf->hlen >> 8 * i);
	if (fwrite(len, 1, 8, f) != 8 || fwrite(sf->header, 1, sf->hlen, f) != sf->hlen)
		return -1;
	for (int j = 0; j < sf->nt; j++) {
		const struct st_tensor *x = &t[sf->order[j]];
		size_t n = (size_t)nbytes(x);
		if (n && fwrite(x->data, 1, n, f) != n)
			return -1;
	}
	return 0;
}

void
st_free(struct st_file *sf)
{
	free(sf->header);
	free(sf->order);
	memset(sf, 0, sizeof *sf);
}
