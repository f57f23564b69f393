/* filter.c - the per-graph filter loop; see filter.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "progress.h"

static int replaced(const struct filter *f, const gs_rec *r, int64_t graph_id)
{
	const char *const *p;

	if (r->kind != GS_TENSOR || r->id != graph_id || f->replaces == NULL)
		return 0;
	for (p = f->replaces; *p; p++)
		if (strcmp(*p, r->name) == 0)
			return 1;
	return 0;
}

void follows_graph(gs_file *in, const gs_rec *r, int64_t graph_id)
{
	if (graph_id >= 0 && r->id != graph_id &&
	    (r->kind == GS_TENSOR || r->kind == GS_PAIRS || r->kind == GS_LABEL))
		die("%s: %s record for graph %" PRId64 " does not follow its graph "
		    "(it follows graph %" PRId64 ")", gs_where(in), gs_kind_name(r->kind),
		    r->id, graph_id);
}

int64_t filter_run(const struct filter *f, int nfiles, char **files, int argc,
		   char **argv)
{
	struct filter_graph fg;
	struct progress pr;
	gs_file *in, *out = NULL;
	gs_rec rec;
	graph g;
	char msg[512];
	char *stdin_only[] = { "-" };
	int64_t graph_id = -1;
	int i, k;

	memset(&fg, 0, sizeof fg);
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	if (f->tsv) {
		if (f->c->output && strcmp(f->c->output, "-") != 0)
			die_usage("--tsv writes to stdout; redirect it instead of -o");
		fg.tsv = stdout;
	} else {
		out = gs_open_out(f->c, argc, argv);
	}
	fg.out = out;
	gs_rec_init(&rec);
	graph_init(&g);
	progress_init(&pr, f->c);
	progress_start(&pr, "graphs", 0, NULL);
	for (i = 0; i < nfiles; i++) {
		in = gs_open_in(files[i], msg, sizeof msg);
		if (in == NULL)
			die("%s", msg);
		fg.in = in;
		graph_id = -1;
		while ((k = gs_read1(in, &rec)) >= 0) {
			if (k != GS_GRAPH) {
				follows_graph(in, &rec, graph_id);
				if (out && !replaced(f, &rec, graph_id))
					gs_write1(out, &rec);
				continue;
			}
			if (gs_graph_build(in, &rec, &g, f->c->quiet) < 0)
				die("%s", gs_strerror(in));
			graph_id = rec.id;
			if (out)
				gs_write1(out, &rec);
			fg.rec = &rec;
			fg.g = &g;
			f->graph_fn(f->ctx, &fg);
			fg.index++;
			progress_update(&pr, fg.index);
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	progress_done(&pr);
	if (out)
		gs_close(out);
	else if (fflush(stdout) != 0 || ferror(stdout))
		die("<stdout>: write error:");
	graph_free(&g);
	gs_rec_free(&rec);
	return fg.index;
}

void tsv_rows(FILE *f, const struct filter_graph *fg, const char *columns,
	      const double *vals, int32_t n, int cols)
{
	int32_t v;
	int c;

	if (fg->index == 0) {
		fputs("node\t", f);
		for (const char *s = columns; *s; s++)
			fputc(*s == ',' ? '\t' : *s, f);
		fputc('\n', f);
	}
	fprintf(f, "# graph %" PRId64 "\n", fg->rec->id);
	for (v = 0; v < n; v++) {
		fprintf(f, "%" PRId32, v);
		for (c = 0; c < cols; c++)
			fprintf(f, "\t%.17g", vals[(size_t)v * (size_t)cols + (size_t)c]);
		fputc('\n', f);
	}
	if (ferror(f))
		die("<stdout>: write error:");
}
