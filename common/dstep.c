/*
 * dstep.c - one step of data-parallel pre-training by graph (see dstep.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "dstep.h"
#include "err.h"
#include "progress.h"

void
dstep_init(struct dstep *d, int64_t nparams, int B)
{
	memset(d, 0, sizeof *d);
	d->B = B;
	xsum_init(&d->acc, nparams);
	batch_init(&d->one);
	d->rank_of = xmallocarray((size_t)B, sizeof *d->rank_of);
	d->mine = xmallocarray((size_t)B, sizeof *d->mine);
	d->mg = xmallocarray((size_t)B, sizeof *d->mg);
	d->gl = xmallocarray((size_t)B * NTASK, sizeof *d->gl);
}

void
dstep_free(struct dstep *d)
{
	if (!d)
		return;
	xsum_free(&d->acc);
	batch_free(&d->one);
	free(d->rank_of);
	free(d->mine);
	free(d->mg);
	free(d->gl);
	memset(d, 0, sizeof *d);
}

/* Graphs by nodes, descending, then by their place in the step. */
static int
cmp_size(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;
	return x[0] != y[0] ? (x[0] < y[0]) - (x[0] > y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

void
dstep_split(struct lgraph *const *g, int n, int *rank_of)
{
	int R = dist_size();
	int64_t(*ord)[2] = xmallocarray((size_t)n + 1, sizeof *ord);
	int64_t *load = xcalloc((size_t)R, sizeof *load);

	for (int i = 0; i < n; i++) {
		ord[i][0] = g[i]->g.n;
		ord[i][1] = i;
	}
	qsort(ord, (size_t)n, sizeof *ord, cmp_size);
	for (int k = 0; k < n; k++) {
		int best = 0;
		for (int r = 1; r < R; r++)
			if (load[r] < load[best])
				best = r;
		rank_of[ord[k][1]] = best;
		load[best] += ord[k][0];
	}
	free(ord);
	free(load);
}

/* This rank's graphs of the step into d->mine/mg; returns their count. */
static int
split(struct dstep *d, struct lgraph *const *bg)
{
	int B = d->B, me = dist_rank(), n = 0;

	dstep_split(bg, B, d->rank_of);
	for (int i = 0; i < B; i++)
		if (d->rank_of[i] == me) {
			d->mine[n] = i;
			d->mg[n++] = bg[i];
		}
	return n;
}

int
dstep_run(struct dstep *d, model *M, struct lgraph *const *bg, uint64_t seed, uint64_t step,
	  const struct batch_opts *bo, batch *b, mws *w, int stop, double *loss, char *msg,
	  size_t msglen)
{
	int n = split(d, bg);
	int64_t c[4];
	double t0 = progress_now();

	/* a rank that cannot build its batch (a feature command failed, say)
	 * ends the run with its line before the others wait for it; one
	 * process returns, for its caller to tell an error from a feature
	 * command that a signal cut short */
	int nobatch = n > 0 && batch_build(b, d->mg, n, seed, step, bo, msg, msglen);
	if (nobatch && dist_size() == 1)
		return -1;
	dist_fail_if_any(nobatch, msg);
	d->t_build = progress_now() - t0;
	/* the step's items (each task's mean is over all of them), and
	 * whether a rank stops the run here */
	c[0] = n > 0 ? b->P : 0;
	c[1] = n > 0 ? b->Q : 0;
	c[2] = n > 0 ? b->ncl : 0;
	c[3] = stop != 0;
	dist_sum_i64(c, 4);
	if (c[3])
		return 1;
	d->P = c[0];
	d->Q = c[1];
	d->ncl = c[2];
	int64_t tot[NTASK] = { c[0], c[0], c[1] };
	memset(d->gl, 0, (size_t)d->B * NTASK * sizeof *d->gl);
	xsum_zero(&d->acc);
	d->t_pass = d->t_add = 0;
	int bad = 0;
	for (int j = 0; j < n && !bad; j++) {
		struct mout out;
		double ta = progress_now(), tb;
		batch_graph(&d->one, b, j);
		model_zero_grad(M);
		model_step_part(M, &d->one, w, 1, &out, tot);
		tb = progress_now();
		int64_t at = xsum_add(&d->acc, M->g);
		if (at >= 0) {
			snprintf(msg, msglen,
				 "step %" PRIu64 ": graph %" PRId64 ": a gradient is %g "
				 "(not finite, or too large to sum); try a smaller --lr",
				 step + 1, d->mg[j]->id, (double)M->g[at]);
			bad = 1;
		}
		for (int k = 0; k < NTASK; k++)
			d->gl[(int64_t)d->mine[j] * NTASK + k] = out.loss[k];
		d->t_pass += tb - ta;
		d->t_add += progress_now() - tb;
	}
	t0 = progress_now();
	dist_fail_if_any(bad, msg); /* the wait for the slowest rank is here now */
	dist_xsum_allreduce(&d->acc);
	d->t_reduce = progress_now() - t0;
	xsum_get(&d->acc, M->g);
	/* the losses: every graph's share, added in the step's order */
	dist_gather_f64(d->gl, d->B * NTASK);
	for (int k = 0; k < NTASK; k++) {
		loss[k] = 0;
		for (int i = 0; i < d->B; i++)
			loss[k] += d->gl[(int64_t)i * NTASK + k];
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the same input in every rank */

/* d's CRC-32 and Adler-32 after the n bytes at p (a 64-bit digest). */
static void
digest_add(uint32_t d[2], const void *p, size_t n)
{
	d[0] = (uint32_t)crc32_z(d[0], p, n);
	d[1] = (uint32_t)adler32_z(d[1], p, n);
}

/* What training reads of a graph; sizes first, so that no two graphs of
 * other shapes give the same bytes. */
static uint64_t
graph_digest(const struct lgraph *lg)
{
	const graph *g = &lg->g;
	int64_t n = g->n, head[8] = {
		lg->id, n, g->m, lg->K, lg->premasked, lg->npairs, lg->feat ? lg->F : -1, 0
	};
	uint32_t d[2] = { 0, 1 };

	digest_add(d, head, sizeof head);
	digest_add(d, g->off, (size_t)(n + 1) * sizeof *g->off);
	digest_add(d, g->adj, (size_t)(2 * g->m) * sizeof *g->adj);
	digest_add(d, lg->cluster, (size_t)n * sizeof *lg->cluster);
	digest_add(d, lg->cent, (size_t)n * MODEL_NCENT * sizeof *lg->cent);
	if (lg->premasked) {
		digest_add(d, lg->pu, (size_t)lg->npairs * sizeof *lg->pu);
		digest_add(d, lg->pv, (size_t)lg->npairs * sizeof *lg->pv);
		digest_add(d, lg->plab, (size_t)lg->npairs);
	}
	if (lg->feat)
		digest_add(d, lg->feat, (size_t)(n * lg->F) * sizeof *lg->feat);
	return (uint64_t)d[0] << 32 | d[1];
}

int
dstep_same_input(struct lgraph *const *g, int64_t n, char *msg, size_t msglen)
{
	int64_t n0 = n;
	uint64_t *h, *h0;
	int rc = 0;

	if (dist_size() == 1)
		return 0;
	h = xmallocarray((size_t)n + 1, sizeof *h);
	for (int64_t i = 0; i < n; i++)
		h[i] = graph_digest(g[i]);
	dist_bcast_idle(&n0, sizeof n0, 0);
	h0 = xmallocarray((size_t)n0 + 1, sizeof *h0);
	if (dist_rank() == 0)
		memcpy(h0, h, (size_t)n * sizeof *h);
	dist_bcast(h0, (size_t)n0 * sizeof *h0, 0);
	for (int64_t i = 0; i < n && i < n0 && rc == 0; i++)
		if (h[i] != h0[i]) {
			snprintf(msg, msglen,
				 "its input differs from rank 0's at graph %" PRId64 " (id %" PRId64
				 ")",
				 i + 1, g[i]->id);
			rc = -1;
		}
	if (rc == 0 && n != n0) {
		snprintf(msg, msglen, "its input has %" PRId64 " graphs, rank 0's %" PRId64, n, n0);
		rc = -1;
	}
	free(h);
	free(h0);
	return rc;
}
