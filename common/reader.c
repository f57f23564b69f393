/* reader.c - a program's inputs in turn, pg records kept; see reader.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "reader.h"

void
gs_reader_init(struct gs_reader *rd, int nfiles, char **files)
{
	memset(rd, 0, sizeof *rd);
	rd->files = files;
	rd->nfiles = nfiles;
	rd->i = -1;
}

int
gs_reader_read(struct gs_reader *rd, gs_rec *rec, char *msg, size_t len)
{
	int k;

	rd->file_changed = 0;
	for (;;) {
		if (rd->in == NULL) {
			if (rd->i + 1 >= (rd->nfiles ? rd->nfiles : 1))
				return 0;
			rd->i++;
			rd->path = rd->nfiles ? rd->files[rd->i] : "-";
			if ((rd->in = gs_open_in(rd->path, msg, len)) == NULL)
				return -1;
			if (rd->graph_check)
				gs_set_graph_check(rd->in, rd->graph_check, rd->check_ctx);
			rd->file_changed = 1;
		}
		k = gs_read1(rd->in, rec);
		if (k == GS_PG) {
			if (rd->npg == rd->cap_pg) {
				rd->cap_pg = rd->cap_pg ? 2 * rd->cap_pg : 8;
				rd->pg = xreallocarray(rd->pg, (size_t)rd->cap_pg, sizeof *rd->pg);
			}
			/* keep it: the record's buffers move to the list */
			rd->pg[rd->npg++] = *rec;
			gs_rec_init(rec);
			continue;
		}
		if (k > 0)
			return k;
		if (k < -1) {
			snprintf(msg, len, "%s", gs_strerror(rd->in));
			return -1;
		}
		gs_close(rd->in);
		rd->in = NULL;
	}
}

int
gs_reader_next(struct gs_reader *rd, gs_rec *rec)
{
	char msg[1024]; /* gs_strerror()'s whole line */
	int k = gs_reader_read(rd, rec, msg, sizeof msg);

	if (k < 0)
		die("%s", msg);
	return k;
}

void
gs_reader_write_pg(const struct gs_reader *rd, gs_file *out)
{
	for (int i = 0; i < rd->npg; i++)
		gs_write1(out, &rd->pg[i]);
}

void
gs_reader_free(struct gs_reader *rd)
{
	gs_close(rd->in);
	for (int i = 0; i < rd->npg; i++)
		gs_rec_free(&rd->pg[i]);
	free(rd->pg);
	memset(rd, 0, sizeof *rd);
}
