/* filter.c - the per-graph filter loop; see filter.h. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "mem.h"
#include "progress.h"

static int
replaced(const struct filter *f, const gs_rec *r, int64_t graph_id)
{
	const char *const *p;

	if (r->kind != GS_TENSOR || r->id != graph_id || f->replaces == NULL)
		return 0;
	for (p = f->replaces; *p; p++)
		if (strcmp(*p, r->name) == 0)
			return 1;
	return 0;
}

void
filter_follows_graph(gs_file *in, const gs_rec *r, int64_t graph_id)
{
	if (graph_id >= 0 && r->id != graph_id &&
	    (r->kind == GS_TENSOR || r->kind == GS_PAIRS || r->kind == GS_LABEL ||
	     r->kind == GS_NAMES))
		die("%s: %s record for graph %" PRId64 " does not follow its graph "
		    "(it follows graph %" PRId64 ")",
		    gs_where(in), gs_kind_name(r->kind), r->id, graph_id);
}

static int
wanted(const struct filter *f, const gs_rec *r)
{
	const char *const *p;

	if (r->kind == GS_NAMES)
		return f->want_names;
	if (r->kind != GS_TENSOR || f->wants == NULL)
		return 0;
	for (p = f->wants; *p; p++)
		if (strcmp(*p, r->name) == 0)
			return 1;
	return 0;
}

/* The wanted records of the graph in hand, kept until its call. */
struct held {
	gs_rec *r;
	int n, cap;
};

static void
hold(struct held *h, gs_file *in, gs_rec *rec)
{
	for (int i = 0; i < h->n; i++)
		if (h->r[i].kind == rec->kind && strcmp(h->r[i].name, rec->name) == 0)
			die("%s: graph %" PRId64 " has a second '%s' record", gs_where(in), rec->id,
			    rec->kind == GS_NAMES ? "names" : rec->name);
	if (h->n == h->cap) {
		h->r = xreallocarray(h->r, (size_t)h->cap + 1, sizeof *h->r);
		gs_rec_init(&h->r[h->cap++]);
	}
	/* take its buffers; rec gets the spare record's */
	gs_rec t = h->r[h->n];
	h->r[h->n++] = *rec;
	*rec = t;
}

/* Before a graph is built (and, for a stream, at its header, before its
 * edges are read, with f->check_header): will the tool's work on it fit?
 * Building holds the record (at the header its buffers are the last
 * record's: 8 bytes an edge at least), the graph and graph_build's
 * scratch, or, for an edge list to be simplified, 16 bytes an edge of
 * gs_graph_build's own. */
static void
check_memory(const struct filter *f, gs_file *in, const gs_rec *rec)
{
	double m = (double)rec->m,
	       build = fmax(gs_rec_bytes(rec), 8 * m) + graph_bytes(rec->n, rec->m) +
		       fmax(graph_build_scratch(rec->n, rec->m), rec->from_edgelist ? 16 * m : 0);
	double need = fmax(build, f->need_fn(f->ctx, rec));
	char src[64];

	mem_require_or(
	    need, need > mem_room(src, sizeof src) && f->hint_fn ? f->hint_fn(f->ctx, rec) : NULL,
	    "%s: graph %" PRId64 " (%" PRId32 " nodes, %" PRId64 " edges)", gs_where(in), rec->id,
	    rec->n, rec->m);
}

/* check_memory() at a graph's header (gs_set_graph_check()). */
static void
check_header(void *ctx, gs_file *in, const gs_rec *rec)
{
	check_memory(ctx, in, rec);
}

/* The progress line: the bytes of an input file read, with the graphs
 * done as a note, or, in a pipe, whose size is not known, the graphs
 * done, counted over all inputs. */
static void
start_progress(struct progress *pr, gs_file *in, int first)
{
	int64_t size = gs_in_size(in);
	int u = size >= 100000000 ? 2 : size >= 1000000;
	static const char *const name[] = { "bytes", "kB", "MB" };
	static const int64_t unit[] = { 1, 1000, 1000000 };

	if (size > 0) {
		progress_start(pr, name[u], size / unit[u], "%s", gs_name(in));
		gs_set_progress(in, pr, unit[u]);
	} else if (first || strcmp(pr->unit, "graphs") != 0) {
		progress_start(pr, "graphs", 0, NULL);
	}
}

static void
graph_done(struct progress *pr, gs_file *in, int64_t graphs)
{
	if (gs_in_size(in) > 0) {
		progress_note(pr, "%" PRId64 " graph%s", graphs, graphs == 1 ? "" : "s");
		progress_update(pr, pr->done);
	} else {
		progress_update(pr, graphs);
	}
}

/* Hand the graph in fg, with the held records of its wants, to the tool. */
static void
graph_call(const struct filter *f, struct filter_graph *fg, const struct held *h,
	   struct progress *pr, gs_file *in)
{
	fg->held = h->r;
	fg->nheld = h->n;
	fg->names = NULL;
	for (int i = 0; i < h->n; i++)
		if (h->r[i].kind == GS_NAMES)
			fg->names = &h->r[i];
	if (fg->names && fg->names->n != fg->rec->n)
		die("%s: graph %" PRId64 " has %" PRId32 " nodes but %" PRId32 " names",
		    gs_name(in), fg->rec->id, fg->rec->n, fg->names->n);
	f->graph_fn(f->ctx, fg);
	fg->index++;
	graph_done(pr, in, fg->index);
}

int64_t
filter_run(const struct filter *f, int nfiles, char **files, int argc, char **argv)
{
	struct filter_graph fg;
	struct progress pr;
	struct held h = { NULL, 0, 0 };
	gs_file *in, *out = NULL;
	gs_rec rec, grec; /* grec: the graph whose call waits (wants) */
	graph g;
	char msg[512];
	char *stdin_only[] = { "-" };
	int64_t graph_id = -1;
	int i, k, pending = 0;

	memset(&fg, 0, sizeof fg);
	if (nfiles == 0) {
		files = stdin_only;
		nfiles = 1;
	}
	if (f->tsv) {
		if (f->c->output && strcmp(f->c->output, "-") != 0)
			die_usage("--tsv writes to stdout; redirect it instead of -o");
		fg.tsv = stdout;
	} else if (!f->no_output) {
		out = gs_open_out(f->c, argc, argv);
	}
	fg.out = out;
	gs_rec_init(&rec);
	gs_rec_init(&grec);
	graph_init(&g);
	progress_init(&pr, f->c);
	for (i = 0; i < nfiles; i++) {
		in = gs_open_in(files[i], msg, sizeof msg);
		if (in == NULL)
			die("%s", msg);
		fg.in = in;
		if (f->need_fn && f->check_header)
			gs_set_graph_check(in, check_header, (void *)f);
		start_progress(&pr, in, i == 0);
		graph_id = -1;
		while ((k = gs_read1(in, &rec)) >= 0) {
			if (k != GS_GRAPH) {
				filter_follows_graph(in, &rec, graph_id);
				if (out && !replaced(f, &rec, graph_id))
					gs_write1(out, &rec);
				if (pending && rec.id == graph_id && wanted(f, &rec))
					hold(&h, in, &rec);
				continue;
			}
			if (pending) { /* the graph before: its records are all in */
				graph_call(f, &fg, &h, &pr, in);
				pending = 0;
			}
			if (f->need_fn)
				check_memory(f, in, &rec);
			if (gs_graph_build(in, &rec, &g, f->c->quiet) < 0)
				die("%s", gs_strerror(in));
			graph_id = rec.id;
			if (out)
				gs_write1(out, &rec);
			if (f->wants || f->want_names) {
				gs_rec t = grec; /* hold the graph record */
				grec = rec;
				rec = t;
				h.n = 0;
				fg.rec = &grec;
				fg.g = &g;
				pending = 1;
				continue;
			}
			fg.rec = &rec;
			fg.g = &g;
			graph_call(f, &fg, &h, &pr, in); /* nothing held */
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		if (pending) { /* a graph's records end with its input */
			graph_call(f, &fg, &h, &pr, in);
			pending = 0;
		}
		if (gs_in_size(in) > 0 || i == nfiles - 1)
			progress_done(&pr);
		gs_close(in);
	}
	if (out)
		gs_close(out);
	else if (fg.tsv && (fflush(stdout) != 0 || ferror(stdout)))
		die("<stdout>: write error:");
	graph_free(&g);
	gs_rec_free(&rec);
	gs_rec_free(&grec);
	for (i = 0; i < h.cap; i++)
		gs_rec_free(&h.r[i]);
	free(h.r);
	return fg.index;
}

void
filter_tsv_rows(FILE *f, const struct filter_graph *fg, const char *columns, const double *vals,
		int32_t n, int cols)
{
	static int named = -1; /* the header row printed had a name column */
	const char **names = fg->names ? gs_names_list(fg->names) : NULL;
	int32_t v;
	int c;

	if (fg->index == 0 || named != (names != NULL)) {
		named = names != NULL;
		fputs(named ? "node\tname\t" : "node\t", f);
		for (const char *s = columns; *s; s++)
			fputc(*s == ',' ? '\t' : *s, f);
		fputc('\n', f);
	}
	fprintf(f, "# graph %" PRId64 "\n", fg->rec->id);
	for (v = 0; v < n; v++) {
		fprintf(f, "%" PRId32, v);
		if (names)
			fprintf(f, "\t%s", names[v]);
		for (c = 0; c < cols; c++)
			fprintf(f, "\t%.17g", vals[(size_t)v * (size_t)cols + (size_t)c]);
		fputc('\n', f);
	}
	free(names);
	if (ferror(f))
		die("<stdout>: write error:");
}
