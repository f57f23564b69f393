/*
 * fuzz_common.h - shared by the libFuzzer harnesses of tests/fuzz.
 *
 * The stream reader takes a file descriptor (gs_open_fd), so a harness puts
 * the fuzzer's bytes into an anonymous memory file (memfd) and reads them
 * back as any program reads its input: same buffering, same gzip and form
 * detection, no path and no temporary file on disk.
 */
#ifndef GNN_FUZZ_COMMON_H
#define GNN_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "graph.h"
#include "stream.h"

/*
 * gs_graph_build() allocates O(nodes) scratch whatever the edge count, and
 * nodes= may be up to GS_MAX_NODES (2^26), so a 40-byte header asks for
 * about 1.6 GB.  That is a resource limit, not a memory error (reported
 * separately); the harnesses build only graphs up to this size so the
 * fuzzer explores the reader instead of stopping at libFuzzer's malloc
 * limit.
 */
#define FUZZ_MAX_BUILD_NODES (1 << 20)

/* The bytes (prefix, then data) in a memfd positioned at 0; -1 on failure. */
static inline int
fuzz_memfd(const void *prefix, size_t plen, const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);
	const uint8_t *parts[2] = { prefix, data };
	size_t lens[2] = { plen, size };

	if (fd < 0)
		abort(); /* environment problem, not a finding */
	for (int i = 0; i < 2; i++) {
		size_t off = 0;
		while (off < lens[i]) {
			ssize_t n = write(fd, parts[i] + off, lens[i] - off);
			if (n <= 0)
				abort();
			off += (size_t)n;
		}
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

/* An error message: not empty, one line of printable bytes (no control
 * byte: a message quoting input bytes must not send \r or ESC to a
 * terminal; err_one_line() replaces them). */
static inline void
fuzz_check_line(const char *msg)
{
	if (msg[0] == '\0')
		abort();
	for (; *msg; msg++)
		if ((unsigned char)*msg < 0x20 || *msg == 0x7f)
			abort();
}

/*
 * Read every record as the programs do; graph records are built into a
 * CSR graph.  An error must leave a one-line message naming the input.
 */
static inline void
fuzz_read_all(int fd)
{
	gs_file *in = gs_open_fd(fd, "fuzz");
	gs_rec rec;
	graph g;
	int k;

	gs_rec_init(&rec);
	graph_init(&g);
	while ((k = gs_read1(in, &rec)) >= 0) {
		if (k == GS_GRAPH && rec.n <= FUZZ_MAX_BUILD_NODES &&
		    gs_graph_build(in, &rec, &g, 1) != 0)
			break;
		if (k == GS_TENSOR) /* the accessors the programs use */
			(void)gs_tensor_col(&rec, "degree");
		(void)gs_attr_get(&rec, "k");
		(void)gs_where(in);
	}
	if (k < -1 || (k >= 0 && gs_strerror(in)[0])) {
		const char *m = gs_strerror(in);
		/* every error names the input and is one line */
		if (strncmp(m, "fuzz", 4) != 0 || strchr(m, '\n') != NULL)
			abort();
		/* later calls keep returning the error */
		if (gs_read1(in, &rec) >= -1)
			abort();
	}
	graph_free(&g);
	gs_rec_free(&rec);
	gs_close(in);
}

#endif
