/* pgz.c - gzip in members compressed side by side; see pgz.h. */
#include "pgz.h"

#include <errno.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"

#define PGZ_MAX_THREADS 8 /* the blocks held: at most 8 x 2 x PGZ_BLOCK */

struct pgz {
	int fd, level, threads;
	size_t block;	   /* bytes a member */
	unsigned char *in; /* up to threads blocks of input */
	size_t len, cap;   /* bytes held, room (grown to threads x block) */
	unsigned char **out;
	size_t *olen, bound; /* a member's bytes, at most bound */
	int64_t written;     /* input bytes so far */
};

pgz *
pgz_open_with(int fd, int level, size_t block, int threads)
{
	pgz *z = xcalloc(1, sizeof *z);
	z_stream s;

	if (threads <= 0)
		threads = omp_get_max_threads();
	z->fd = fd;
	z->level = level;
	z->block = block;
	z->threads = threads < PGZ_MAX_THREADS ? threads : PGZ_MAX_THREADS;
	memset(&s, 0, sizeof s);
	if (deflateInit2(&s, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		die("zlib: cannot start compressing");
	z->bound = deflateBound(&s, (uLong)block);
	deflateEnd(&s);
	z->out = xcalloc((size_t)z->threads, sizeof *z->out);
	z->olen = xcalloc((size_t)z->threads, sizeof *z->olen);
	return z;
}

pgz *
pgz_open(int fd, int level)
{
	return pgz_open_with(fd, level, PGZ_BLOCK, 0);
}

/* One member of in[0 .. n) into out, as gzwrite() writes it: deflate at
 * the level, its default window and memory level, zlib's gzip header.
 * Returns its bytes, or 0 when zlib fails. */
static size_t
member(const unsigned char *in, size_t n, unsigned char *out, size_t cap, int level)
{
	z_stream s;
	size_t k = 0;

	memset(&s, 0, sizeof s);
	if (deflateInit2(&s, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	s.next_in = (unsigned char *)in;
	s.avail_in = (uInt)n;
	s.next_out = out;
	s.avail_out = (uInt)cap;
	if (deflate(&s, Z_FINISH) == Z_STREAM_END)
		k = cap - s.avail_out;
	deflateEnd(&s);
	return k;
}

static int
put(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* The blocks held, compressed side by side, written in their order. */
static int
drain(pgz *z)
{
	int nb = (int)((z->len + z->block - 1) / z->block), bad = 0;

	if (nb == 0)
		return 0;
	for (int i = 0; i < nb; i++)
		if (!z->out[i])
			z->out[i] = xmalloc(z->bound);
#pragma omp parallel for num_threads(nb < z->threads ? nb : z->threads) schedule(static, 1)
	for (int i = 0; i < nb; i++) {
		size_t off = (size_t)i * z->block,
		       n = z->len - off < z->block ? z->len - off : z->block;
		z->olen[i] = member(z->in + off, n, z->out[i], z->bound, z->level);
	}
	for (int i = 0; i < nb && !bad; i++) {
		if (z->olen[i] == 0) {
			errno = 0;
			bad = 1;
		} else if (put(z->fd, z->out[i], z->olen[i]) != 0) {
			bad = 1;
		}
	}
	z->len = 0;
	return bad ? -1 : 0;
}

int
pgz_write(pgz *z, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t full = (size_t)z->threads * z->block;

	z->written += (int64_t)n;
	while (n > 0) {
		if (z->len == full && drain(z) != 0)
			return -1;
		size_t k = full - z->len < n ? full - z->len : n;
		if (z->len + k > z->cap) { /* grown as data comes: a small output holds little */
			size_t c2 = z->cap ? z->cap : 1u << 16;
			while (c2 < z->len + k)
				c2 *= 2;
			z->cap = c2 < full ? c2 : full;
			z->in = xrealloc(z->in, z->cap);
		}
		memcpy(z->in + z->len, c, k);
		z->len += k;
		c += k;
		n -= k;
	}
	return 0;
}

int
pgz_close(pgz *z)
{
	int rc = 0, e = 0;

	if (z->written == 0) { /* gzclose() without a write: one empty member */
		unsigned char *o = xmalloc(z->bound);
		size_t k = member(NULL, 0, o, z->bound, z->level);
		rc = k == 0 ? (errno = 0, -1) : put(z->fd, o, k);
		free(o);
	} else {
		rc = drain(z);
	}
	e = errno;
	if (close(z->fd) != 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	for (int i = 0; i < z->threads; i++)
		free(z->out[i]);
	free(z->out);
	free(z->olen);
	free(z->in);
	free(z);
	errno = e;
	return rc;
}
