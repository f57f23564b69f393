/*
 * embed_out.c - gcn-embed's output: node rows or pooled rows, as a tensor
 * record, TSV or .npy with its offsets and names (embed_out.h).
 */
#include "embed_out.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "outfile.h"
#include "probe.h"

const char *const emb_pool_name[EMB_NPOOL] = { "mean", "max", "sum" };

#define EMB_CHUNK 4096 /* rows converted at a time for --npy and --tsv */
#define POOL_CHUNK 256 /* rows pooled at a time (in double) */

void
embed_out_init(struct embed_out *eo)
{
	memset(eo, 0, sizeof *eo);
	gs_rec_init(&eo->attrs);
	gs_rec_init(&eo->rec);
}

void
embed_out_start(struct embed_out *eo)
{
	int64_t zero = 0;

	eo->D = eo->kind == EMB_BLOCKS ? (int64_t)eo->layers * eo->d : eo->d;
	eo->DP = eo->npool * eo->D;
	for (int i = 0; i < eo->npool; i++) /* names of at most 4 letters */
		snprintf(eo->pool_text + strlen(eo->pool_text),
			 sizeof eo->pool_text - strlen(eo->pool_text), "%s%s", i ? "," : "",
			 emb_pool_name[eo->pool[i]]);
	if (eo->npy_path)
		eo->npy = npy_open(eo->npy_path, eo->npool ? eo->DP : eo->D);
	if (eo->offsets_path) { /* graph g: rows offsets[g] .. offsets[g+1]-1 */
		eo->off = npy_open_as(eo->offsets_path, NPY_I8, 0);
		npy_rows_i64(eo->off, &zero, 1);
	}
	if (eo->names_path &&
	    (eo->names = fdopen(outfile_open(eo->names_path, &eo->names_tmp), "w")) == NULL)
		die("%s:", eo->names_path);
	eo->rows = xmallocarray(EMB_CHUNK, (size_t)eo->D * sizeof *eo->rows);
	if (eo->DP) {
		eo->prow = xmallocarray((size_t)(eo->DP + eo->D), sizeof *eo->prow);
		eo->pchunk = xmallocarray(POOL_CHUNK, (size_t)eo->D * sizeof *eo->pchunk);
	}
}

/* The record's attributes: the caller's, in order. */
static void
write_attrs(struct embed_out *eo)
{
	for (int i = 0; i < eo->attrs.nattr; i++)
		gs_attr_set(&eo->rec, eo->attrs.akey[i], eo->attrs.aval[i]);
	if (eo->store)
		gs_attr_set(&eo->rec, "store", eo->store);
}

/* The table's header row: the graph's place and id, the node and its
 * name (with names), then the values' columns, width of them. */
static void
tsv_header(FILE *f, int node, int name, int64_t width)
{
	fputs(node ? (name ? "graph\tid\tnode\tname" : "graph\tid\tnode") : "graph\tid", f);
	for (int64_t j = 0; j < width; j++)
		fprintf(f, "\te%" PRId64, j);
	fputc('\n', f);
}

/* Names a graph brings that no output keeps, said once: the table's name
 * column is chosen at its first graph; a .npy keeps names only with
 * names_path. */
static void
names_unkept(struct embed_out *eo, const struct filter_graph *fg, const char *const *names)
{
	if (!names || eo->said_names || eo->quiet || (fg->tsv && eo->tsv_names) || eo->names ||
	    (!fg->tsv && !eo->npy))
		return;
	eo->said_names = 1;
	if (fg->tsv)
		warnx_("%s: graph %" PRId64 " has node names and the first graph had none: the "
		       "table has no name column (its header is the first graph's)",
		       gs_name(fg->in), fg->rec->id);
	else
		warnx_("%s: graph %" PRId64 " has node names; --names FILE writes them beside "
		       "the .npy rows",
		       gs_name(fg->in), fg->rec->id);
}

/* The rows v0 .. v0+k-1 of a graph, in eo->rows, as table rows. */
static void
tsv_node_rows(const struct embed_out *eo, const struct filter_graph *fg, const char *const *names,
	      int32_t v0, int32_t k)
{
	FILE *f = fg->tsv;
	int64_t D = eo->D;

	for (int32_t i = 0; i < k; i++) {
		fprintf(f, "%" PRId64 "\t%" PRId64 "\t%" PRId32, fg->index, fg->rec->id, v0 + i);
		if (eo->tsv_names && names)
			fprintf(f, "\t%s", names[v0 + i]);
		else if (eo->tsv_names) /* a graph without names: its numbers */
			fprintf(f, "\t%" PRId32, v0 + i);
		for (int64_t j = 0; j < D; j++) /* %.9g: a float reads back exactly */
			fprintf(f, "\t%.9g", (double)eo->rows[(int64_t)i * D + j]);
		fputc('\n', f);
	}
	if (ferror(f))
		die("<stdout>: write error:");
}

/* The names of the rows v0 .. v0+k-1 to the names file, a line each. */
static void
names_lines(struct embed_out *eo, const char *const *names, int32_t v0, int32_t k)
{
	for (int32_t i = 0; i < k; i++)
		if (names)
			fprintf(eo->names, "%s\n", names[v0 + i]);
		else
			fprintf(eo->names, "%" PRId32 "\n", v0 + i);
	if (ferror(eo->names))
		die("%s: write error:", eo->names_path);
}

/* The graph's rows are written: where the next graph's begin. */
static void
graph_end(struct embed_out *eo, int64_t rows)
{
	eo->nrows += rows;
	if (eo->off)
		npy_rows_i64(eo->off, &eo->nrows, 1);
}

/* Rows r0 .. r0+k-1 of a graph, complete (D columns, as floats, in
 * eo->rows, k <= EMB_CHUNK), to the .npy file or the table. */
static void
put_rows(struct embed_out *eo, int32_t r0, int32_t k)
{
	if (eo->npy)
		npy_rows(eo->npy, eo->rows, k);
	else
		tsv_node_rows(eo, eo->fg, eo->gnames, r0, k);
	if (eo->names)
		names_lines(eo, eo->gnames, r0, k);
}

/* Block l's rows r0 .. r0+k-1 (H, k x d) as columns l d .. (l+1) d - 1
 * of the .npy file's rows, written in place (npy_cols()); the rows count
 * as written, with their names, after the last block's. */
static void
npy_block(struct embed_out *eo, int l, int64_t r0, int64_t k, const real *H)
{
	int64_t d = eo->d;

	for (int64_t v0 = 0; v0 < k; v0 += EMB_CHUNK) { /* rows holds EMB_CHUNK x D */
		int64_t m = k - v0 < EMB_CHUNK ? k - v0 : EMB_CHUNK;
		for (int64_t i = 0; i < m * d; i++)
			eo->rows[i] = (float)H[v0 * d + i];
		/* npy_cols() counts rows after those done: before the last
		 * block none of the graph's are, and the last block's come in
		 * order, each chunk's first the next to be done */
		npy_cols(eo->npy, l == eo->layers - 1 ? 0 : r0 + v0, m, l * d, d, eo->rows);
		if (l == eo->layers - 1) {
			npy_cols_done(eo->npy, m);
			if (eo->names)
				names_lines(eo, eo->gnames, (int32_t)(r0 + v0), (int32_t)m);
		}
	}
}

/*
 * Pool k rows (r0 a multiple of POOL_CHUNK) of w columns, stride ld, into
 * columns col .. col+w-1 of each pooling's sums or maxima: as floats, by
 * probe_pool() over POOL_CHUNK rows at a time in double, a chunk after
 * the graph's first combined with what the rows before it gave.  Each
 * column's arithmetic is that of the rows pooled whole (probe_pool() works
 * column by column), so a graph's row is the same whatever the blocks.
 */
static void
pool_part(struct embed_out *eo, int64_t r0, int64_t k, int64_t col, int64_t w, const real *H,
	  int64_t ld)
{
	int64_t D = eo->D;
	double *part = eo->prow + eo->DP; /* a later chunk's maxima or sums */

	if (r0 % POOL_CHUNK)
		die("internal error: pooled rows from %" PRId64, r0);
	for (int64_t v0 = r0; v0 < r0 + k; v0 += POOL_CHUNK) {
		int64_t m = r0 + k - v0 < POOL_CHUNK ? r0 + k - v0 : POOL_CHUNK;
		for (int64_t r = 0; r < m; r++)
			for (int64_t j = 0; j < w; j++)
				eo->pchunk[r * w + j] = (float)H[(v0 - r0 + r) * ld + j];
		for (int i = 0; i < eo->npool; i++) {
			double *acc = eo->prow + i * D + col;
			int max = eo->pool[i] == EMB_POOL_MAX;
			double *out = v0 == 0 ? acc : part;
			probe_pool(eo->pchunk, m, (int)w, max ? PROBE_POOL_MAX : PROBE_POOL_SUM,
				   out);
			if (v0 > 0)
				for (int64_t j = 0; j < w; j++)
					acc[j] = max ? (part[j] > acc[j] ? part[j] : acc[j])
						     : acc[j] + part[j];
		}
	}
}

void
embed_out_begin(struct embed_out *eo, const struct filter_graph *fg, const char *const *names)
{
	int32_t n = fg->g->n;
	int64_t D = eo->D;

	eo->fg = fg;
	eo->gnames = names;
	if (eo->npool)
		return;
	if (!eo->npy && !fg->tsv) { /* a tensor record after the graph */
		gs_rec_tensor(&eo->rec, fg->rec->id, "embedding", n, D, GS_F32, NULL);
		return;
	}
	if (fg->tsv && fg->index == 0) {
		eo->tsv_names = names != NULL;
		tsv_header(fg->tsv, 1, eo->tsv_names, D);
	}
	names_unkept(eo, fg, names);
	if (eo->kind == EMB_BLOCKS && eo->layers > 1 && !eo->npy) { /* a table */
		size_t want = (size_t)n * (size_t)(D - eo->d);
		if (want > eo->keep_cap) {
			free(eo->keep);
			eo->keep = xmallocarray(want, sizeof *eo->keep);
			eo->keep_cap = want;
		}
	}
}

void
embed_out_rows(struct embed_out *eo, int l, int64_t r0, int64_t k, const real *H)
{
	int64_t d = eo->d, D = eo->D, col = 0;
	int last;

	switch (eo->kind) {
	case EMB_BLOCKS:
		if (l < 0)
			return;
		col = l * d;
		last = l == eo->layers - 1;
		break;
	case EMB_BLOCK:
		if (l != eo->block - 1)
			return;
		last = 1;
		break;
	default:
		if (l != -1)
			return;
		last = 1;
	}
	if (eo->npool) {
		pool_part(eo, r0, k, col, d, H, d);
		return;
	}
	if (!eo->npy && !eo->fg->tsv) { /* the record's columns col .. col+d-1 */
		float *dst = (float *)eo->rec.data;
		for (int64_t i = 0; i < k; i++)
			for (int64_t j = 0; j < d; j++)
				dst[(r0 + i) * D + col + j] = (float)H[i * d + j];
		return;
	}
	if (eo->npy && eo->kind == EMB_BLOCKS) { /* each block's columns in place */
		npy_block(eo, l, r0, k, H);
		return;
	}
	int64_t K = D - d; /* the kept blocks' columns in a row */
	if (!last) {	   /* EMB_BLOCKS: kept until the last block's rows */
		for (int64_t i = 0; i < k; i++)
			for (int64_t j = 0; j < d; j++)
				eo->keep[(r0 + i) * K + col + j] = (float)H[i * d + j];
		return;
	}
	for (int64_t v0 = 0; v0 < k; v0 += EMB_CHUNK) {
		int64_t m = k - v0 < EMB_CHUNK ? k - v0 : EMB_CHUNK;
		for (int64_t i = 0; i < m; i++) {
			float *row = eo->rows + i * D;
			if (K)
				memcpy(row, eo->keep + (r0 + v0 + i) * K, (size_t)K * sizeof *row);
			for (int64_t j = 0; j < d; j++)
				row[K + j] = (float)H[(v0 + i) * d + j];
		}
		put_rows(eo, (int32_t)(r0 + v0), (int32_t)m);
	}
}

/* The graph's pooled row (sums and maxima complete) to the output. */
static void
write_pooled(struct embed_out *eo, const struct filter_graph *fg)
{
	int32_t n = fg->g->n;
	int64_t D = eo->D, DP = eo->DP;
	float *row;

	if (!eo->npy && !fg->tsv) {
		gs_rec_tensor(&eo->rec, fg->rec->id, "graph_embedding", 1, DP, GS_F32, NULL);
		row = (float *)eo->rec.data;
	} else {
		row = xmallocarray((size_t)DP, sizeof *row);
	}
	for (int i = 0; i < eo->npool; i++)
		for (int64_t j = 0; j < D; j++) {
			double a = eo->prow[i * D + j];
			row[i * D + j] = (float)(eo->pool[i] == EMB_POOL_MEAN ? a / n : a);
		}
	if (!eo->npy && !fg->tsv) {
		write_attrs(eo);
		gs_attr_set(&eo->rec, "pool", eo->pool_text);
		gs_write1(fg->out, &eo->rec);
		return;
	}
	if (eo->npy) {
		npy_rows(eo->npy, row, 1);
	} else {
		if (fg->index == 0)
			tsv_header(fg->tsv, 0, 0, DP);
		fprintf(fg->tsv, "%" PRId64 "\t%" PRId64, fg->index, fg->rec->id);
		for (int64_t j = 0; j < DP; j++)
			fprintf(fg->tsv, "\t%.9g", (double)row[j]);
		fputc('\n', fg->tsv);
		if (ferror(fg->tsv))
			die("<stdout>: write error:");
	}
	free(row);
	graph_end(eo, 1);
}

void
embed_out_end(struct embed_out *eo)
{
	const struct filter_graph *fg = eo->fg;

	if (eo->npool) {
		write_pooled(eo, fg);
	} else if (!eo->npy && !fg->tsv) {
		write_attrs(eo);
		gs_write1(fg->out, &eo->rec);
	} else {
		graph_end(eo, fg->g->n);
	}
	eo->fg = NULL;
	eo->gnames = NULL;
}

void
embed_out_graph(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs,
		const real *mix, const char *const *names)
{
	int64_t n = fg->g->n;

	embed_out_begin(eo, fg, names);
	if (eo->kind == EMB_MIX)
		embed_out_rows(eo, -1, 0, n, mix);
	else
		for (int l = 0; l < eo->layers; l++)
			embed_out_rows(eo, l, 0, n, Hs[l]);
	embed_out_end(eo);
}

void
embed_out_close(struct embed_out *eo)
{
	outfile_hold(); /* the rows, their offsets and names: all or none */
	if (eo->npy)
		npy_close(eo->npy);
	if (eo->off)
		npy_close(eo->off);
	if (eo->names) {
		if (fflush(eo->names) != 0 || ferror(eo->names) || fclose(eo->names) != 0)
			die("%s: write error:", eo->names_path);
		outfile_commit(eo->names_path, eo->names_tmp);
	}
	outfile_release();
	eo->npy = eo->off = NULL;
	eo->names = NULL;
	eo->names_tmp = NULL;
}

void
embed_out_free(struct embed_out *eo)
{
	gs_rec_free(&eo->attrs);
	gs_rec_free(&eo->rec);
	free(eo->rows);
	free(eo->prow);
	free(eo->pchunk);
	free(eo->keep);
}
