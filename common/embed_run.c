/*
 * embed_run.c - gcn-embed's work on each graph: the feature stage, the
 * encoder block by block over row blocks, the rows to the output as they
 * are made, and the memory a graph needs (embed_run.h).
 */
#include "embed_run.h"

#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gemm.h"
#include "mem.h"
#include "nn.h"
#include "nodefeat.h"
#include "prof.h"

void
embed_run_init(struct embed_run *er, const struct embed_opts *o)
{
	memset(er, 0, sizeof *er);
	er->o = o;
	batch_init(&er->b);
	embed_out_init(&er->eo);
	embed_store_init(&er->st);
	progress_init(&er->pr, &o->c);
}

void
embed_run_free(struct embed_run *er)
{
	embed_out_free(&er->eo);
	embed_store_free(&er->st);
	batch_free(&er->b);
	pretrained_free(&er->pt);
	free(er->given);
	free(er->T);
	free(er->T2);
	free(er->Tb);
	free(er->mix);
	free(er->H);
	free(er->Wb);
	free(er->istd);
}

/* ---- the stage and the output, at the first graph ---- */

/* The output, once the stage is known: what every record carries (the
 * kind, the stage, the model) and the rows' shape. */
static void
start_output(struct embed_run *er)
{
	const struct embed_opts *o = er->o;
	const model *M = &er->pt.M;
	struct embed_out *eo = &er->eo;

	gs_attr_set(&eo->attrs, "embedding", o->kind_text);
	gs_attr_set(&eo->attrs, "features", pretrained_stage_name(&er->pt));
	gs_attr_set(&eo->attrs, "model", o->shipped ? "shipped" : o->model);
	if (o->no_pretrain) {
		gs_attr_set(&eo->attrs, "init", "random");
		gs_attr_setf(&eo->attrs, "init_seed", "%" PRIu64, o->c.seed);
	}
	gs_attr_set(&eo->attrs, "precision", o->prec);
	eo->kind = o->kind;
	eo->block = o->block;
	eo->layers = M->cfg.layers;
	eo->d = M->cfg.d;
	eo->pool = o->pool;
	eo->npool = o->npool;
	eo->npy_path = o->npy;
	eo->offsets_path = o->offsets;
	eo->names_path = o->names;
	eo->quiet = o->c.quiet;
	embed_out_start(eo);
}

/* The feature stage, at the first graph: the model's unless --features;
 * then the output, which records it. */
static void
choose_stage(struct embed_run *er, const struct filter_graph *fg, int has_feat, int F,
	     const char *cols)
{
	const struct embed_opts *o = er->o;
	struct stage_ask sa = {
		.features = o->features,
		.allow_command = o->allow_cmd,
		.timeout = o->timeout,
		.scale = FEAT_SCALE_MINMAX,
		.quiet = o->c.quiet,
		.g0 = fg->g,
		.ngraphs = 1,
		.nfeat = has_feat,
		.F = F,
		.fcols = cols,
	};
	model *M = &er->pt.M;

	pretrained_stage(&er->pt, &sa);
	if (o->kind == EMB_BLOCK && o->block > M->cfg.layers)
		die_usage("--embedding block%d: the model has %d blocks", o->block, M->cfg.layers);
	if (o->kind == EMB_MIX && !(M->cfg.tasks & 1 << o->task))
		die_usage("--embedding %s: the model was not trained on that task",
			  model_task_name[o->task]);
	start_output(er);
	er->staged = 1;
}

/* ---- the encoder's buffers, sized once a graph ---- */

/* Every buffer of a graph of N nodes, before its first block. */
static void
size_for(struct embed_run *er, int64_t N, int bf)
{
	int64_t d = er->pt.M.cfg.d;
	size_t nd = (size_t)(N * d);

	er->T = embed_store_grow(er->T, &er->cap_T, nd, sizeof *er->T, &er->grows);
	if (!bf)
		er->T2 = embed_store_grow(er->T2, &er->cap_T2, nd, sizeof *er->T2, &er->grows);
	else
		er->Tb = embed_store_grow(er->Tb, &er->cap_Tb, nd, sizeof *er->Tb, &er->grows);
	if (!er->istd) { /* the model's sizes */
		er->istd = xmallocarray((size_t)d, sizeof *er->istd);
		er->grows++;
	}
	if (bf && !er->H) {
		er->H = xmallocarray((size_t)(EMBED_RUN_ROWS * d), sizeof *er->H);
		er->Wb = xmallocarray((size_t)(d * d), sizeof *er->Wb);
		er->grows += 2;
	}
}

/* ---- the forward pass ---- */

/* Block l's output rows r0 .. r0+k-1 (H) to the output, or to the layer
 * mix (nn_mix_fwd()'s arithmetic, a block at a time: w_0 H_1, + w_l H_(l+1),
 * times alpha after the last), whose rows go out with the last block. */
static void
emit_rows(struct embed_run *er, int l, int64_t r0, int64_t k, const real *H, const real *w)
{
	const model *M = &er->pt.M;
	int64_t d = M->cfg.d;
	int L = M->cfg.layers;

	if (er->o->kind != EMB_MIX) {
		embed_out_rows(&er->eo, l, r0, k, H);
		return;
	}
	const real *alpha = M->P.alpha[er->o->task];
	real *F = er->mix + r0 * d;
	for (int64_t i = 0; i < k * d; i++)
		F[i] = l == 0 ? w[0] * H[i] : F[i] + w[l] * H[i];
	if (l < L - 1)
		return;
	for (int64_t r = 0; r < k; r++)
		for (int64_t c = 0; c < d; c++)
			F[r * d + c] *= alpha[c];
	embed_out_rows(&er->eo, -1, r0, k, F);
}

/*
 * The encoder in fp32, two N x d arrays: block l's input H in T2, A =
 * relu(H W1) into T, relu(H W1) W2 into T2 (H read already), normalised
 * in place; Â's product into T, the block's output, handed on and the
 * next block's input (the arrays swap).  The calls are model.c's
 * encoder_fwd(), on the same arrays' values.
 */
static void
encode_fp32(struct embed_run *er, const real *w)
{
	model *M = &er->pt.M;
	const batch *b = &er->b;
	int64_t N = b->N, d = M->cfg.d;
	int L = M->cfg.layers;
	real *H = er->T2, *A = er->T;

	nn_lin_fwd(H, b->X, M->P.E, M->P.Eb, N, M->cfg.nfeat, d); /* H0 = tanh(X E + e) */
	nn_tanh_fwd(H, H, N * d);
	for (int l = 0; l < L; l++) {
		nn_lin_fwd(A, H, M->P.W1[l], NULL, N, d, d);
		nn_relu_fwd(A, A, N * d);
		nn_lin_fwd(H, A, M->P.W2[l], NULL, N, d, d);
		/* the normalisation over the graph's nodes: the whole of T */
		nn_gnorm_fwd(H, H, er->istd, H, M->P.gam[l], M->P.bet[l], b->off, b->G, d,
			     (real)M->cfg.bn_eps);
		nn_csr_spmm(A, b->rp, b->ci, b->av, H, N, d, 1); /* relu(Â T) */
		emit_rows(er, l, 0, N, A, w);
		real *t = H;
		H = A;
		A = t;
	}
}

/*
 * The encoder in bf16, an N x d fp32 array T and a bf16 one Tb: block l's
 * input in bf16 in T's first half, relu(H W1) in bf16 into Tb (relu in
 * the product's epilogue), relu(H W1) W2 into T (its input read
 * already), normalised into Tb; Â's product a row block at a time into
 * H, each block handed on and rounded into T's first half, the next
 * block's input.  The calls and roundings are model.c's encoder_fwd()
 * without backward caches (H0 made EMBED_RUN_ROWS rows at a time, as
 * embed_fwd_bf16()).
 */
static void
encode_bf16(struct embed_run *er, const real *w)
{
	model *M = &er->pt.M;
	const batch *b = &er->b;
	int64_t N = b->N, d = M->cfg.d, F = M->cfg.nfeat;
	int L = M->cfg.layers;
	uint16_t *Xb = (uint16_t *)er->T, *Tb = er->Tb;

	for (int64_t r0 = 0; r0 < N; r0 += EMBED_RUN_ROWS) {
		int64_t k = N - r0 < EMBED_RUN_ROWS ? N - r0 : EMBED_RUN_ROWS;
		nn_lin_fwd(er->H, b->X + r0 * F, M->P.E, M->P.Eb, k, F, d);
		nn_tanh_fwd(er->H, er->H, k * d);
		gemm_to_bf16(Xb + r0 * d, er->H, k * d);
	}
	for (int l = 0; l < L; l++) {
		gemm_to_bf16(er->Wb, M->P.W1[l], d * d);
		gemm_bf16(0, 0, N, d, d, 1, Xb, d, er->Wb, d, 0, Tb, d, GEMM_OUT_BF16 | GEMM_RELU);
		gemm_to_bf16(er->Wb, M->P.W2[l], d * d);
		gemm_bf16(0, 0, N, d, d, 1, Tb, d, er->Wb, d, 0, er->T, d, 0);
		nn_gnorm_fwd_xb(Tb, Tb, er->istd, er->T, M->P.gam[l], M->P.bet[l], b->off, b->G, d,
				(real)M->cfg.bn_eps);
		for (int64_t r0 = 0; r0 < N; r0 += EMBED_RUN_ROWS) {
			int64_t k = N - r0 < EMBED_RUN_ROWS ? N - r0 : EMBED_RUN_ROWS;
			nn_csr_spmm_xb(er->H, NULL, b->rp + r0, b->ci, b->av, Tb, k, d, 1);
			emit_rows(er, l, r0, k, er->H, w);
			if (l + 1 < L)
				gemm_to_bf16(Xb + r0 * d, er->H, k * d);
		}
	}
}

/* embed_store.c's rows to the output: emit_rows() with the mix's weights */
struct emit_ctx {
	struct embed_run *er;
	const real *w;
};

static void
emit_store(void *ctx, int l, int64_t r0, int64_t k, const real *H)
{
	struct emit_ctx *ec = ctx;

	emit_rows(ec->er, l, r0, k, H, ec->w);
}

/* The store of the graph: --store's, or under auto embed_run_need()'s
 * choice (fp32 when it made none). */
static int
store_of(const struct embed_run *er)
{
	int s = er->o->store != EMBED_STORE_AUTO ? er->o->store : er->pick;

	return s == EMBED_STORE_AUTO ? EMBED_STORE_FP32 : s;
}

void
embed_run_encode(struct embed_run *er)
{
	model *M = &er->pt.M;
	int64_t N = er->b.N;
	int bf = model_encoder_bf16(N, M->cfg.d), store = store_of(er);
	real w[MODEL_MAXL];

	if (er->b.F != M->cfg.nfeat) /* the programs check this with a message */
		die("internal error: a batch of %d features for a model of %d", er->b.F,
		    M->cfg.nfeat);
	if (er->o->kind == EMB_MIX) {
		er->mix = embed_store_grow(er->mix, &er->cap_mix, (size_t)(N * M->cfg.d),
					   sizeof *er->mix, &er->grows);
		nn_mix_weights(w, M->P.psi[er->o->task], M->cfg.layers);
	}
	if (store != EMBED_STORE_FP32) {
		struct emit_ctx ec = { er, w };
		embed_store_encode(&er->st, store == EMBED_STORE_FILE, M, &er->b, emit_store, &ec);
		return;
	}
	size_for(er, N, bf);
	if (bf)
		encode_bf16(er, w);
	else
		encode_fp32(er, w);
}

/* ---- a graph ---- */

void
embed_run_graph(void *ctx, const struct filter_graph *fg)
{
	struct embed_run *er = ctx;
	const gs_rec *fr = featstage_held(fg->held, fg->nheld);
	model *M = &er->pt.M;
	int32_t n = fg->g->n;
	double *given[1];
	char msg[512];
	int F = 0;

	if (n == 0)
		die("%s: graph %" PRId64 " has no nodes", gs_where(fg->in), fg->rec->id);
	if (fr && feat_take(fr, n, &er->given, &F, msg, sizeof msg) != 0)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, msg);
	if (!er->staged)
		choose_stage(er, fg, fr != NULL, F, fr && fr->columns ? fr->columns : "");
	const char *misfit = featstage_misfit(&er->pt.fs, fr != NULL, F);
	if (misfit)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, misfit);
	progress_start(&er->pr, "steps", 2, "graph %" PRId64 " (%" PRId32 " nodes)", fg->rec->id,
		       n);
	progress_note(&er->pr, "features");
	given[0] = er->given;
	if (batch_plain(&er->b, &fg->g, 1, &er->pt.fs, given, msg, sizeof msg) != 0)
		die("%s: graph %" PRId64 ": %s", gs_where(fg->in), fg->rec->id, msg);
	progress_note(&er->pr, "the encoder's %d blocks, written as made", M->cfg.layers);
	progress_update(&er->pr, 1);
	const char **names = fg->names ? gs_names_list(fg->names) : NULL;
	int store = store_of(er);
	if (store != EMBED_STORE_FP32 && er->o->store == EMBED_STORE_AUTO && !er->o->c.quiet) {
		char src[64], a[32], b[32];
		double room = mem_room(src, sizeof src);
		warnx_("%s: graph %" PRId64 " (%" PRId32 " nodes): with fp32 arrays it needs "
		       "about %s, this process can have %s (%s): the activations go in bf16%s "
		       "(--store %s; gcn-embed(1))",
		       gs_where(fg->in), fg->rec->id, n, mem_size(a, sizeof a, er->need_fp32),
		       mem_size(b, sizeof b, room), src,
		       store == EMBED_STORE_FILE ? ", the block's input in a scratch file" : "",
		       embed_store_name[store]);
	}
	/* the values are not the training forward's: the records say so */
	er->eo.store = store == EMBED_STORE_FP32 ? NULL : embed_store_name[store];
	embed_out_begin(&er->eo, fg, names);
	embed_run_encode(er);
	embed_out_end(&er->eo);
	free(names);
	progress_update(&er->pr, 2);
	progress_done(&er->pr);
}

/* ---- the memory a graph needs ---- */

/*
 * The peak bytes of a graph of n nodes and m edges with output kind
 * (EMB_x), to a tensor record (record), with the blocks before the last
 * kept (keep: EMB_BLOCKS to a table), the products in bf16 (bf) and the
 * activations in store (EMBED_STORE_x):
 *   the process so far    its peak resident set (the model, the libraries);
 *   the graph             its record (8 bytes an edge) and CSR (filter.c);
 * then the largest of three phases (batch_plain() frees the features'
 * workspace before it builds X and Â, and the features once they are in
 * X):
 *   features              n F doubles and the feature stage's workspace;
 *   X, Â                  the n F doubles, X (n F reals), Â's n + 1
 *                         offsets and 2 m + n entries of 8 bytes;
 *   the encoder           X and Â (and the n F doubles of features given
 *                         in the stream, which the run keeps), and:
 *                         fp32: T and T2 (8 n d), or T and Tb (6 n d) with
 *                         bf16 products, and their row block and weight;
 *                         bf16 and file: embed_store_bytes() (4 n d, 2 n d);
 *                         fp32 products: OpenBLAS's buffers (about 100 MiB a
 *                         thread at d = 512, measured; taken as growing with
 *                         d^2); the mix's sums (4 n d);
 *                         the output's: a record's 4 n D, the kept blocks'
 *                         4 n (D - d).
 * Time complexity: O(1).
 */
static double
need_of(const struct embed_run *er, const gs_rec *rec, int kind, int record, int keep, int bf,
	int store)
{
	const model *M = &er->pt.M;
	double n = rec->n, m = (double)rec->m, d = M->cfg.d, F = M->cfg.nfeat;
	double D = kind == EMB_BLOCKS ? M->cfg.layers * d : d;
	/* the record: at a stream graph's header its buffers are the last
	 * record's, and it will hold 8 bytes an edge (filter.c) */
	double base = prof_peak_rss_mib() * 0x1p20 + fmax(gs_rec_bytes(rec), 8 * m) +
		      graph_bytes(rec->n, rec->m);
	double ahat = 8 * (n + 1) + 8 * (2 * m + n);
	double feat = nodefeat_ws_bytes(rec->n, rec->m) + 8 * n * F,
	       xa = 8 * n * F + 4 * n * F + ahat;
	/* features given in the stream stay (er->given); before the first
	 * graph's stage is chosen, --features stream says so (a model
	 * trained on the stream's features is taken for a built-in stage
	 * there: 8 n F bytes short, 32 a node for the paper's four) */
	int kept = er->staged ? er->pt.fs.kind == FEAT_SRC_GIVEN
			      : er->o->features && strcmp(er->o->features, "stream") == 0;
	double need = (kept ? 8 * n * F : 0) + 4 * n * F + ahat;

	if (store == EMBED_STORE_FP32)
		need += (bf ? 6 : 8) * n * d + (bf ? 4 * EMBED_RUN_ROWS * d + 2 * d * d : 0);
	else
		need += embed_store_bytes(n, d, store == EMBED_STORE_FILE, NULL);
	if (!bf) /* OpenBLAS's buffers: about 100 MiB a thread at d = 512, measured */
		need += 0x1p20 * 100 * fmin(1, d * d / (512.0 * 512)) * omp_get_max_threads();
	need += (kind == EMB_MIX ? 4 * n * d : 0) + 4 * 4096 * D; /* embed_out's rows */
	if (record && !er->o->npool)
		need += 4 * n * D;
	if (keep)
		need += 4 * n * (D - d);
	return base + fmax(need, fmax(feat, xa));
}

/* The products in bf16 for a graph of n nodes: --precision bf16, and
 * large enough for the fp32 store's (model_encoder_bf16()). */
static int
bf_of(const struct embed_run *er, const gs_rec *rec, int store)
{
	if (er->o->want_prec != GEMM_BF16)
		return 0;
	return store != EMBED_STORE_FP32 || model_encoder_bf16(rec->n, er->pt.M.cfg.d);
}

/* The store auto takes for an output (kind, record, keep): the first of
 * fp32, bf16 and file that fits room, else file; its need in *need. */
static int
auto_store(const struct embed_run *er, const gs_rec *rec, int kind, int record, int keep,
	   double room, double *need)
{
	for (int s = EMBED_STORE_FP32; s < EMBED_NSTORE; s++) {
		*need = need_of(er, rec, kind, record, keep, bf_of(er, rec, s), s);
		if (*need <= room || s == EMBED_NSTORE - 1)
			return s;
	}
	return EMBED_STORE_FILE;
}

/* What the options ask of a graph: the output's form, the precision, the
 * store (under auto, chosen here and kept in er->pick for the graph). */
double
embed_run_need(void *ctx, const gs_rec *rec)
{
	struct embed_run *er = ctx;
	const struct embed_opts *o = er->o;
	int record = !o->npy && !o->tsv;
	int keep = o->kind == EMB_BLOCKS && o->tsv && !o->npool;
	int fp = EMBED_STORE_FP32;
	double need;
	char src[64];

	er->need_fp32 = need_of(er, rec, o->kind, record, keep, bf_of(er, rec, fp), fp);
	if (o->store != EMBED_STORE_AUTO) {
		er->pick = o->store;
		return need_of(er, rec, o->kind, record, keep, bf_of(er, rec, o->store), o->store);
	}
	er->pick = auto_store(er, rec, o->kind, record, keep, mem_room(src, sizeof src), &need);
	return need;
}

/*
 * When a graph does not fit: the first of these that would, with its
 * figure: the output asked with a smaller store (--store bf16, then
 * file; under auto it has the smallest that fits already), then one
 * block (the last, --embedding blockL) written as it is made (--npy FILE
 * in place of a record), with the store auto would take (the one asked,
 * when not auto).  filter.h's hint_fn.  NULL when none fits or none asks
 * less.
 */
const char *
embed_run_hint(void *ctx, const gs_rec *rec)
{
	static char hint[200];
	struct embed_run *er = ctx;
	const struct embed_opts *o = er->o;
	char src[64], sz[32];
	double room = mem_room(src, sizeof src), asked = embed_run_need(er, rec), need = HUGE_VAL;
	int record = !o->npy && !o->tsv, keep = o->kind == EMB_BLOCKS && o->tsv && !o->npool;

	/* the kind asked when it holds no more than one block, else the
	 * last block alone */
	int kind = o->kind == EMB_MIX || (o->kind == EMB_BLOCKS && !o->npy && !o->npool) ? EMB_BLOCK
											 : o->kind;
	int npy = !o->npy && !o->tsv && !o->npool; /* a record: --npy instead */

	if (o->store != EMBED_STORE_AUTO) /* the output asked, a smaller store */
		for (int s = o->store + 1; s < EMBED_NSTORE; s++) {
			need = need_of(er, rec, o->kind, record, keep, bf_of(er, rec, s), s);
			if (need > room || need >= asked)
				continue;
			snprintf(hint, sizeof hint, "--store %s needs about %s",
				 embed_store_name[s], mem_size(sz, sizeof sz, need));
			return hint;
		}
	int s = o->store;
	if (s == EMBED_STORE_AUTO)
		auto_store(er, rec, kind, 0, 0, room, &need);
	else
		for (; s < EMBED_NSTORE; s++)
			if ((need = need_of(er, rec, kind, 0, 0, bf_of(er, rec, s), s)) <= room)
				break;
	if (s == EMBED_NSTORE || need > room || need >= asked)
		return NULL;
	hint[0] = 0;
	if (kind != o->kind)
		snprintf(hint, sizeof hint, "--embedding block%d ", er->pt.M.cfg.layers);
	if (npy)
		strcat(hint, "--npy FILE ");
	if (s != o->store && o->store != EMBED_STORE_AUTO)
		snprintf(hint + strlen(hint), sizeof hint - strlen(hint), "--store %s ",
			 embed_store_name[s]);
	snprintf(hint + strlen(hint), sizeof hint - strlen(hint), "needs about %s",
		 mem_size(sz, sizeof sz, need));
	return hint;
}
