/*
 * pgz.h - gzip written in members of a fixed size, compressed side by
 * side by the program's threads.
 *
 * The bytes written are cut into blocks of PGZ_BLOCK bytes (the last
 * shorter); each block is one gzip member of its own (RFC 1952 allows any
 * number; zcat, Python's gzip, zlib's gzread and the stream reader read
 * them one after another).  A block is compressed as zlib's gzwrite()
 * would compress it (deflate, its default window and memory level, the
 * header it writes), so an output shorter than a block is the bytes
 * gzwrite() gives, and every output is the same bytes whatever the number
 * of threads.  Compression waits until as many blocks as threads are
 * held, then runs them in an OpenMP loop: about 2 x PGZ_BLOCK bytes a
 * thread are held.
 *
 * Ownership: the pgz owns its buffers and the descriptor it was given
 * (pgz_close closes it).  Errors: pgz_write and pgz_close return 0, or -1
 * with errno set (a write error) or with errno 0 (zlib failed: out of
 * memory); the caller says so.
 */
#ifndef GNN_PGZ_H
#define GNN_PGZ_H

#include <stddef.h>

#define PGZ_BLOCK ((size_t)1 << 22) /* 4 MiB a member */

typedef struct pgz pgz;

/* Writing gzip at level (1..9) to fd, in members of PGZ_BLOCK bytes. */
pgz *pgz_open(int fd, int level);
/* The same in members of block bytes, with at most threads compressing
 * (0: OpenMP's); for the unit test. */
pgz *pgz_open_with(int fd, int level, size_t block, int threads);
int pgz_write(pgz *z, const void *p, size_t n);
/* The last member, then the descriptor closed; z freed in any case. */
int pgz_close(pgz *z);

#endif
