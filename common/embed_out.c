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

/* Row v of the output: the block outputs, one block, or a task's mix. */
static void
node_row(const struct embed_out *eo, real *const *Hs, const real *mix, int64_t v, float *dst)
{
	int64_t d = eo->d;

	switch (eo->kind) {
	case EMB_BLOCKS:
		for (int l = 0; l < eo->layers; l++)
			for (int64_t j = 0; j < d; j++)
				dst[l * d + j] = (float)Hs[l][v * d + j];
		break;
	case EMB_BLOCK:
		for (int64_t j = 0; j < d; j++)
			dst[j] = (float)Hs[eo->block - 1][v * d + j];
		break;
	case EMB_MIX:
		for (int64_t j = 0; j < d; j++)
			dst[j] = (float)mix[v * d + j];
		break;
	}
}

/* The record's attributes: the caller's, in order. */
static void
write_attrs(struct embed_out *eo)
{
	for (int i = 0; i < eo->attrs.nattr; i++)
		gs_attr_set(&eo->rec, eo->attrs.akey[i], eo->attrs.aval[i]);
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

/* The rows of one graph to the output in use. */
static void
write_rows(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs, const real *mix,
	   const char *const *names)
{
	int32_t n = fg->g->n;
	int64_t D = eo->D;

	if (!eo->npy && !fg->tsv) { /* a tensor record after the graph */
		gs_rec_tensor(&eo->rec, fg->rec->id, "embedding", n, D, GS_F32, NULL);
		for (int32_t v = 0; v < n; v++)
			node_row(eo, Hs, mix, v, (float *)eo->rec.data + (int64_t)v * D);
		write_attrs(eo);
		gs_write1(fg->out, &eo->rec);
		return;
	}
	if (fg->tsv && fg->index == 0) {
		eo->tsv_names = names != NULL;
		tsv_header(fg->tsv, 1, eo->tsv_names, D);
	}
	names_unkept(eo, fg, names);
	for (int32_t v0 = 0; v0 < n; v0 += EMB_CHUNK) {
		int32_t k = n - v0 < EMB_CHUNK ? n - v0 : EMB_CHUNK;
		for (int32_t i = 0; i < k; i++)
			node_row(eo, Hs, mix, v0 + i, eo->rows + (int64_t)i * D);
		if (eo->npy)
			npy_rows(eo->npy, eo->rows, k);
		else
			tsv_node_rows(eo, fg, names, v0, k);
		if (eo->names)
			names_lines(eo, names, v0, k);
	}
	graph_end(eo, n);
}

/*
 * The graph's row (--pool): for each pooling in order, the column-wise
 * mean, max or sum of its node rows (as floats, the rows written without
 * pooling), by probe_pool() over POOL_CHUNK rows at a time in double, the
 * chunks' maxima or sums then combined, rounded to float at the end.
 * Time: O(n D) per pooling.
 */
static void
pool_rows(struct embed_out *eo, int32_t n, real *const *Hs, const real *mix, float *dst)
{
	int64_t D = eo->D;
	double *part = eo->prow + eo->DP; /* a later chunk's maxima or sums */

	for (int i = 0; i < eo->npool; i++) {
		double *acc = eo->prow + i * D;
		int max = eo->pool[i] == EMB_POOL_MAX;
		for (int32_t v0 = 0; v0 < n; v0 += POOL_CHUNK) {
			int32_t m = n - v0 < POOL_CHUNK ? n - v0 : POOL_CHUNK;
			for (int32_t r = 0; r < m; r++) {
				node_row(eo, Hs, mix, v0 + r, eo->rows);
				for (int64_t j = 0; j < D; j++)
					eo->pchunk[r * D + j] = eo->rows[j];
			}
			double *out = v0 == 0 ? acc : part;
			probe_pool(eo->pchunk, m, (int)D, max ? PROBE_POOL_MAX : PROBE_POOL_SUM,
				   out);
			if (v0 > 0)
				for (int64_t j = 0; j < D; j++)
					acc[j] = max ? (part[j] > acc[j] ? part[j] : acc[j])
						     : acc[j] + part[j];
		}
		for (int64_t j = 0; j < D; j++)
			dst[i * D + j] =
			    (float)(eo->pool[i] == EMB_POOL_MEAN ? acc[j] / n : acc[j]);
	}
}

/* The graph's pooled row to the output in use. */
static void
write_pooled(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs, const real *mix)
{
	int32_t n = fg->g->n;
	int64_t DP = eo->DP;
	float *row;

	if (!eo->npy && !fg->tsv) {
		gs_rec_tensor(&eo->rec, fg->rec->id, "graph_embedding", 1, DP, GS_F32, NULL);
		pool_rows(eo, n, Hs, mix, (float *)eo->rec.data);
		write_attrs(eo);
		gs_attr_set(&eo->rec, "pool", eo->pool_text);
		gs_write1(fg->out, &eo->rec);
		return;
	}
	row = xmallocarray((size_t)DP, sizeof *row);
	pool_rows(eo, n, Hs, mix, row);
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
embed_out_graph(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs,
		const real *mix, const char *const *names)
{
	if (eo->npool)
		write_pooled(eo, fg, Hs, mix);
	else
		write_rows(eo, fg, Hs, mix, names);
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
}
