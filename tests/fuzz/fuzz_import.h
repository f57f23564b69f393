/*
 * fuzz_import.h - shared by the harnesses of graph-import's readers
 * (fuzz_linqs, fuzz_tu, fuzz_movielens, fuzz_edgelist: common/import_*.c).
 *
 * An importer reads several files by name (PREFIX_A.txt, DIR/u.data, ...),
 * so an input holds several files: sections that each start with the byte
 * 0x1E (ASCII record separator), then the file's name and a newline, then
 * its bytes (plain or gzip).  Bytes before the first section are not a
 * file.  The importer opens files through an lr_src (lineread.h) that
 * gives the section whose name is the path's last component, as a memfd;
 * a name no section has does not exist.  0x1E is then the one byte a
 * file cannot hold.
 *
 * The importer writes to a memfd; rules checked: it returns 0, -1 or -2;
 * an error is one line of printable bytes (no control byte: the stream
 * reader's rule); and what it writes on success is a stream that reads
 * back without error, graphs included (fuzz_read_back).  With FUZZ_SAY
 * set in the environment, each import's outcome is printed (to see what a
 * seed or a regression input does).
 */
#ifndef GNN_FUZZ_IMPORT_H
#define GNN_FUZZ_IMPORT_H

#include "fuzz_common.h" /* first: it defines _GNU_SOURCE */

#include <errno.h>
#include <stdio.h>

#include "import.h"

#define FUZZ_MAX_FILES 16

struct fuzz_files {
	int n;
	const char *name[FUZZ_MAX_FILES]; /* NUL-terminated copies */
	const uint8_t *data[FUZZ_MAX_FILES];
	size_t len[FUZZ_MAX_FILES];
	char names[FUZZ_MAX_FILES][65];
};

/* Split the input into its files (at most FUZZ_MAX_FILES; names of 1..64
 * bytes, without '/' or NUL; a later file of the same name is ignored). */
static inline void
fuzz_files_split(struct fuzz_files *fs, const uint8_t *data, size_t size)
{
	const uint8_t *p = memchr(data, 0x1e, size), *end = data + size;

	fs->n = 0;
	while (p && fs->n < FUZZ_MAX_FILES) {
		const uint8_t *nm = p + 1, *nl = memchr(nm, '\n', (size_t)(end - nm));
		const uint8_t *next;
		if (!nl)
			break;
		next = memchr(nl + 1, 0x1e, (size_t)(end - nl - 1));
		size_t nlen = (size_t)(nl - nm);
		if (nlen >= 1 && nlen <= 64 && !memchr(nm, '/', nlen) && !memchr(nm, 0, nlen)) {
			char *c = fs->names[fs->n];
			memcpy(c, nm, nlen);
			c[nlen] = '\0';
			fs->name[fs->n] = c;
			fs->data[fs->n] = nl + 1;
			fs->len[fs->n] = (size_t)((next ? next : end) - (nl + 1));
			fs->n++;
		}
		p = next;
	}
}

/* The section named as path's last component, or -1 with errno ENOENT. */
static inline int
fuzz_files_open(void *ctx, const char *path)
{
	const struct fuzz_files *fs = ctx;
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (int i = 0; i < fs->n; i++)
		if (strcmp(fs->name[i], base) == 0)
			return fuzz_memfd(NULL, 0, fs->data[i], fs->len[i]);
	errno = ENOENT;
	return -1;
}

static inline int
fuzz_files_has(const struct fuzz_files *fs, const char *name)
{
	for (int i = 0; i < fs->n; i++)
		if (strcmp(fs->name[i], name) == 0)
			return 1;
	return 0;
}

/* What an importer wrote: a stream that reads back without an error. */
static inline void
fuzz_read_back(int fd)
{
	gs_file *in = gs_open_fd(fd, "fuzz-out");
	gs_rec rec;
	graph g;
	int k;

	gs_rec_init(&rec);
	graph_init(&g);
	while ((k = gs_read1(in, &rec)) >= 0)
		if (k == GS_GRAPH && rec.n <= FUZZ_MAX_BUILD_NODES &&
		    gs_graph_build(in, &rec, &g, 1) != 0)
			abort();
	if (k != -1)
		abort();
	graph_free(&g);
	gs_rec_free(&rec);
	gs_close(in);
}

/* One import: run(ctx, out, msg, len) calls an importer (import_linqs...)
 * with its output in a memfd; its rules are checked. */
static inline void
fuzz_import(int (*run)(void *, gs_file *, char *, size_t), void *ctx)
{
	int ofd = fuzz_memfd(NULL, 0, NULL, 0), rfd = dup(ofd);
	gs_file *out = gs_open_fd_out(ofd, "fuzz-out");
	char msg[8192] = "";
	int rc;

	if (rfd < 0)
		abort();
	rc = run(ctx, out, msg, sizeof msg);
	gs_close(out);
	if (getenv("FUZZ_SAY")) /* when replaying by hand: what it gave */
		fprintf(stderr, "import: %d %s\n", rc, msg);
	if (rc == 0) {
		if (lseek(rfd, 0, SEEK_SET) != 0)
			abort();
		fuzz_read_back(rfd); /* closes rfd */
		return;
	}
	if (rc != -1 && rc != -2)
		abort();
	fuzz_check_line(msg);
	close(rfd);
}

/* The usual harness: the input's files, the options (options() may set
 * more), one import. */
static inline void
fuzz_import_input(const uint8_t *data, size_t size, int (*run)(void *, gs_file *, char *, size_t),
		  void (*options)(struct import_opts *, const struct fuzz_files *))
{
	struct fuzz_files fs;
	struct lr_src src = { fuzz_files_open, &fs };
	struct import_opts o = { .quiet = 1, .src = &src };

	fuzz_files_split(&fs, data, size);
	if (options)
		options(&o, &fs);
	fuzz_import(run, &o);
}

#endif
