/*
 * embed_out.c - gcn-embed's output: node rows or pooled rows, as a tensor
 * record, TSV or .npy (embed_out.h).
 */
#include "embed_out.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

const char *const emb_pool_name[EMB_NPOOL] = { "mean", "max", "sum" };

#define EMB_CHUNK 4096 /* rows converted at a time for --npy and --tsv */

void
embed_out_init(struct embed_out *eo)
{
	memset(eo, 0, sizeof *eo);
	gs_rec_init(&eo->attrs);
	gs_rec_init(&eo->rec);
}

void
embed_out_start(struct embed_out *eo, const char *npy)
{
	eo->D = eo->kind == EMB_BLOCKS ? (int64_t)eo->layers * eo->d : eo->d;
	eo->DP = eo->npool * eo->D;
	for (int i = 0; i < eo->npool; i++) /* names of at most 4 letters */
		snprintf(eo->pool_text + strlen(eo->pool_text),
			 sizeof eo->pool_text - strlen(eo->pool_text), "%s%s", i ? "," : "",
			 emb_pool_name[eo->pool[i]]);
	if (npy)
		eo->npy = npy_open(npy, eo->npool ? eo->DP : eo->D);
	eo->rows = xmallocarray(EMB_CHUNK, (size_t)eo->D * sizeof *eo->rows);
	if (eo->DP)
		eo->prow = xmallocarray((size_t)eo->DP, sizeof *eo->prow);
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

/* The rows of one graph to the output in use. */
static void
write_rows(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs, const real *mix)
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
		fputs("node", fg->tsv);
		for (int64_t j = 0; j < D; j++)
			fprintf(fg->tsv, "\te%" PRId64, j);
		fputc('\n', fg->tsv);
	}
	if (fg->tsv)
		fprintf(fg->tsv, "# graph %" PRId64 "\n", fg->rec->id);
	for (int32_t v0 = 0; v0 < n; v0 += EMB_CHUNK) {
		int32_t k = n - v0 < EMB_CHUNK ? n - v0 : EMB_CHUNK;
		for (int32_t i = 0; i < k; i++)
			node_row(eo, Hs, mix, v0 + i, eo->rows + (int64_t)i * D);
		if (eo->npy) {
			npy_rows(eo->npy, eo->rows, k);
			continue;
		}
		for (int32_t i = 0; i < k; i++) {
			fprintf(fg->tsv, "%" PRId32, v0 + i);
			for (int64_t j = 0; j < D; j++) /* %.9g: a float reads back exactly */
				fprintf(fg->tsv, "\t%.9g", (double)eo->rows[(int64_t)i * D + j]);
			fputc('\n', fg->tsv);
		}
		if (ferror(fg->tsv))
			die("<stdout>: write error:");
	}
}

/*
 * The graph's row (--pool): for each pooling in order, the column-wise
 * mean, max or sum of its node rows, in double then rounded to float as
 * the node rows are.  Time: O(n D) per pooling.
 */
static void
pool_rows(struct embed_out *eo, int32_t n, real *const *Hs, const real *mix, float *dst)
{
	int64_t D = eo->D;

	for (int i = 0; i < eo->npool; i++) {
		double *acc = eo->prow + i * D;
		int k = eo->pool[i];
		for (int32_t v0 = 0; v0 < n; v0 += EMB_CHUNK) {
			int32_t m = n - v0 < EMB_CHUNK ? n - v0 : EMB_CHUNK;
			for (int32_t r = 0; r < m; r++)
				node_row(eo, Hs, mix, v0 + r, eo->rows + (int64_t)r * D);
			for (int32_t r = 0; r < m; r++) {
				const float *x = eo->rows + (int64_t)r * D;
				if (v0 + r == 0)
					for (int64_t j = 0; j < D; j++)
						acc[j] = x[j];
				else if (k == EMB_POOL_MAX)
					for (int64_t j = 0; j < D; j++)
						acc[j] = x[j] > acc[j] ? x[j] : acc[j];
				else
					for (int64_t j = 0; j < D; j++)
						acc[j] += x[j];
			}
		}
		for (int64_t j = 0; j < D; j++)
			dst[i * D + j] = (float)(k == EMB_POOL_MEAN ? acc[j] / n : acc[j]);
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
		if (fg->index == 0) {
			fputs("graph", fg->tsv);
			for (int64_t j = 0; j < DP; j++)
				fprintf(fg->tsv, "\te%" PRId64, j);
			fputc('\n', fg->tsv);
		}
		fprintf(fg->tsv, "%" PRId64, fg->rec->id);
		for (int64_t j = 0; j < DP; j++)
			fprintf(fg->tsv, "\t%.9g", (double)row[j]);
		fputc('\n', fg->tsv);
		if (ferror(fg->tsv))
			die("<stdout>: write error:");
	}
	free(row);
}

void
embed_out_graph(struct embed_out *eo, const struct filter_graph *fg, real *const *Hs,
		const real *mix)
{
	if (eo->npool)
		write_pooled(eo, fg, Hs, mix);
	else
		write_rows(eo, fg, Hs, mix);
}

void
embed_out_close(struct embed_out *eo)
{
	if (eo->npy)
		npy_close(eo->npy);
	eo->npy = NULL;
}

void
embed_out_free(struct embed_out *eo)
{
	gs_rec_free(&eo->attrs);
	gs_rec_free(&eo->rec);
	free(eo->rows);
	free(eo->prow);
}
