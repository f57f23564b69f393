/*
 * reheader.c - a maintainer's tool, not an installed program: copy a
 * stream from stdin to stdout (plain binary; pipe it through gzip) with its
 * provenance made machine-independent: in the cmd of every pg record, each
 * word that starts with DIR/ loses that prefix, and a path to a gnnpipe
 * program (ending in /bin/PROG) becomes PROG.  Everything else, the
 * parameters of a model above all, is copied bit for bit.  Used to ship a
 * model made before the programs recorded their names only (models/README).
 *   mk/reheader DIR < model.gs | gzip -9n > shipped.gs
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "stream.h"

/* cmd with DIR/ prefixes and the program's directory taken off, into a
 * new string (words are separated by blanks; a quoted word keeps its
 * quote). */
static char *
scrub(const char *cmd, const char *dir)
{
	size_t dl = strlen(dir);
	char *out = xmalloc(strlen(cmd) + 1), *o = out;
	const char *w = cmd;

	for (int first = 1; *w; first = 0) {
		size_t len = strcspn(w, " ");
		const char *q = w + (*w == '"' || *w == '\''), *end = w + len;
		if (q > w)
			*o++ = *w;
		if ((size_t)(end - q) > dl && strncmp(q, dir, dl) == 0 && q[dl] == '/')
			q += dl + 1;
		if (first && memchr(q, '/', (size_t)(end - q)))
			for (const char *p = q; p < end; p++)
				if (*p == '/')
					q = p + 1;
		memcpy(o, q, (size_t)(end - q));
		o += end - q;
		for (w = end; *w == ' '; w++)
			*o++ = ' ';
	}
	*o = '\0';
	return out;
}

int
main(int argc, char **argv)
{
	char msg[512];
	gs_file *in, *out;
	gs_rec r;
	int k;

	err_setprog(argv[0]);
	if (argc != 2)
		die_usage("usage: reheader DIR < stream > stream");
	if ((in = gs_open_in("-", msg, sizeof msg)) == NULL)
		die("%s", msg);
	out = gs_open_fd_out(dup(1), "<stdout>");
	gs_rec_init(&r);
	while ((k = gs_read1(in, &r)) > 0) {
		if (k == GS_PG && gs_attr_get(&r, "cmd")) {
			char *c = scrub(gs_attr_get(&r, "cmd"), argv[1]);
			gs_attr_set(&r, "cmd", c);
			free(c);
		}
		gs_write1(out, &r);
	}
	if (k < -1)
		die("%s", gs_strerror(in));
	gs_close(in);
	gs_close(out);
	gs_rec_free(&r);
	return 0;
}
