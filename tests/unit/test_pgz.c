/*
 * test_pgz.c - gzip in members compressed side by side (pgz.h): the
 * same bytes whatever the number of threads; one member a block, each of
 * which zlib inflates back to its block; below a block, the bytes of
 * zlib's gzwrite(); a write error said.  (The stream tests and python's
 * read what the programs write with it.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <criterion/criterion.h>

#include "pgz.h"

#define B 4096 /* a small block, so that a test holds many */

/* n bytes that compress somewhat, as a stream's numbers do. */
static unsigned char *
data(size_t n, unsigned seed)
{
	unsigned char *p = malloc(n + 1);
	uint32_t x = seed * 2654435761u + 1;
	for (size_t i = 0; i < n; i++) {
		x = x * 1664525u + 1013904223u;
		p[i] = (unsigned char)((x >> 24) & (i % 7 ? 0x0f : 0xff));
	}
	return p;
}

/* What fd (a file at its end) holds, from its start. */
static unsigned char *
slurp(int fd, size_t *n)
{
	off_t end = lseek(fd, 0, SEEK_END);
	unsigned char *p = malloc((size_t)end + 1);
	cr_assert(pread(fd, p, (size_t)end, 0) == end);
	*n = (size_t)end;
	return p;
}

/* in[0 .. n) through pgz in members of B bytes with t threads, written
 * in pieces of step bytes; the file's bytes. */
static unsigned char *
pack(const unsigned char *in, size_t n, int t, size_t step, size_t *len)
{
	FILE *f = tmpfile();
	int fd = dup(fileno(f));
	pgz *z = pgz_open_with(fd, 1, B, t);
	for (size_t at = 0; at < n; at += step)
		cr_assert(pgz_write(z, in + at, n - at < step ? n - at : step) == 0);
	cr_assert(pgz_close(z) == 0);
	unsigned char *out = slurp(fileno(f), len);
	fclose(f);
	return out;
}

/* Inflated, member after member: the bytes and the members' count. */
static unsigned char *
unpack(const unsigned char *gz, size_t len, size_t cap, size_t *n, int *members)
{
	unsigned char *out = malloc(cap + 1);
	z_stream s;
	size_t at = 0;

	*n = 0;
	*members = 0;
	while (at < len) {
		memset(&s, 0, sizeof s);
		cr_assert(inflateInit2(&s, 15 + 16) == Z_OK);
		s.next_in = (unsigned char *)gz + at;
		s.avail_in = (uInt)(len - at);
		s.next_out = out + *n;
		s.avail_out = (uInt)(cap + 1 - *n);
		cr_assert(inflate(&s, Z_FINISH) == Z_STREAM_END, "member %d ends", *members);
		at = len - s.avail_in;
		*n = cap + 1 - s.avail_out;
		inflateEnd(&s);
		++*members;
	}
	return out;
}

Test(pgz, threads_members_round_trip)
{
	const size_t sizes[] = { 0, 1, 1000, B - 1, B, B + 1, 3 * B + 17, 20 * B + 5 };
	const int threads[] = { 1, 2, 3, 8 };

	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k], len1, len, got;
		int members;
		unsigned char *in = data(n, (unsigned)k);
		unsigned char *one = pack(in, n, 1, 777, &len1);
		for (size_t j = 1; j < sizeof threads / sizeof *threads; j++) {
			/* written whole, or in pieces that cross the blocks */
			const size_t steps[] = { 1, 777, B + 3, n + 1 };
			for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
				size_t step = steps[i];
				unsigned char *o = pack(in, n, threads[j], step, &len);
				cr_assert(len == len1 && memcmp(o, one, len) == 0,
					  "%zu bytes, %d threads, pieces of %zu: the bytes of one "
					  "thread",
					  n, threads[j], step);
				free(o);
			}
		}
		unsigned char *back = unpack(one, len1, n, &got, &members);
		cr_assert(got == n && memcmp(back, in, n) == 0, "%zu bytes: inflated back", n);
		cr_assert_eq(members, n == 0 ? 1 : (int)((n + B - 1) / B), "%zu bytes: members", n);
		free(back);
		free(one);
		free(in);
	}
}

/* An output shorter than a block: zlib's gzwrite() bytes, at each level. */
Test(pgz, one_member_is_gzwrite)
{
	size_t n = B - 10, len, zlen;
	unsigned char *in = data(n, 7);

	for (int level = 1; level <= 9; level += 4) {
		FILE *f = tmpfile(), *g = tmpfile();
		pgz *z = pgz_open_with(dup(fileno(f)), level, B, 2);
		cr_assert(pgz_write(z, in, n) == 0 && pgz_close(z) == 0);
		char mode[16];
		snprintf(mode, sizeof mode, "wb%d", level);
		gzFile gz = gzdopen(dup(fileno(g)), mode);
		cr_assert(gzwrite(gz, in, (unsigned)n) == (int)n && gzclose(gz) == Z_OK);
		unsigned char *a = slurp(fileno(f), &len), *b = slurp(fileno(g), &zlen);
		cr_assert(len == zlen && memcmp(a, b, len) == 0, "level %d: gzwrite's bytes",
			  level);
		free(a);
		free(b);
		fclose(f);
		fclose(g);
	}
	free(in);
}

Test(pgz, write_error)
{
	int fd = open("/dev/full", O_WRONLY);
	if (fd < 0)
		cr_skip_test("no /dev/full");
	size_t n = 5 * B;
	unsigned char *in = data(n, 3);
	pgz *z = pgz_open_with(fd, 1, B, 2);
	int rc = pgz_write(z, in, n), e = errno;
	if (rc == 0) {
		rc = pgz_close(z);
		e = errno;
	} else {
		pgz_close(z);
	}
	cr_assert(rc == -1 && e == ENOSPC, "/dev/full: -1 and ENOSPC (rc %d, errno %d)", rc, e);
	free(in);
}
