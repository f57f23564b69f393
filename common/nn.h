/*
 * nn.h - the layers of the pre-training model, forward and backward side by
 * side (paper section 3, appendix A.2 and A.4).
 *
 * Every layer is a pair of plain functions on row-major arrays:
 * nn_name_fwd() computes the output and keeps what the backward pass needs in
 * caller-owned buffers; nn_name_bwd() takes the gradient of the loss with
 * respect to the output and ADDS the gradients of the parameters into their
 * gradient buffers (so the caller zeroes them once per step), and writes or
 * adds the gradient of the input as each function says.  No function
 * allocates more than O(threads * width) scratch; the big buffers belong to
 * the caller (common/model.c), so a training step's memory is known up front.
 *
 * Arguments come in one order (docs/style.md, rule 10).  Forward:
 * outputs, caches, inputs, parameters, sizes.  Backward: d-inputs,
 * d-parameters, d-output, saved tensors (caches, inputs, parameters),
 * sizes.  The arrays that say which rows take part (index arrays, segment
 * offsets) come after the parameters, with the sizes; flags (relu, acc,
 * unique) after the sizes; scratch buffers, where a layer needs them,
 * last.
 *
 * `real` is float in the programs (sgemm); the unit tests compile this file
 * with -DNN_DOUBLE so that central finite differences can check every
 * backward pass to 1e-6.
 *
 * Determinism: every reduction runs in a fixed order whatever the number of
 * OpenMP threads: loops are split over rows when each row is written by one
 * thread, over column blocks when rows are scattered into (gathers with
 * repeated indices), and per-segment partial sums are reduced serially.
 * BLAS results may depend on the BLAS thread count, which gcn-train fixes,
 * and on the precision of the products (gemm.h), which the model records.
 */
#ifndef GNN_NN_H
#define GNN_NN_H

#include <stdint.h>

#ifdef NN_DOUBLE
typedef double real;
#else
typedef float real;
#endif

/* C = alpha op(A) op(B) + beta C, row-major; ta/tb nonzero = transpose.
 * In float, through gemm.h: fp32 (OpenBLAS) or, for the large products
 * when the program chose bf16, bf16 operands with fp32 accumulation; in
 * double (the gradient tests), plain dgemm. */
void nn_gemm(int ta, int tb, int64_t M, int64_t N, int64_t K, real alpha, const real *A,
	     int64_t lda, const real *B, int64_t ldb, real beta, real *C, int64_t ldc);

/* ---- dense layers ---- */

/* Y (N x o) = X (N x i) W (i x o) + b (b may be NULL). */
void nn_lin_fwd(real *Y, const real *X, const real *W, const real *b, int64_t N, int64_t i,
		int64_t o);
/* dW += X^T dY, db += column sums of dY (db may be NULL);
 * dX = dY W^T, or dX += dY W^T when acc (dX may be NULL). */
void nn_lin_bwd(real *dX, real *dW, real *db, const real *dY, const real *X, const real *W,
		int64_t N, int64_t i, int64_t o, int acc);

/* y = tanh(x), y = max(x, 0) (y may be x). */
void nn_tanh_fwd(real *y, const real *x, int64_t n);
void nn_relu_fwd(real *y, const real *x, int64_t n);
/* From the saved output y: dx = dy (1 - y^2), dx = dy [y > 0] (dx may be dy). */
void nn_tanh_bwd(real *dx, const real *dy, const real *y, int64_t n);
void nn_relu_bwd(real *dx, const real *dy, const real *y, int64_t n);

/* ---- graph layers ---- */

/*
 * Per-graph batch normalisation (appendix A.2): the rows of graph g are
 * off[g] .. off[g+1]-1; for each column, mean mu_g and biased variance
 * var_g over those rows; XH = (X - mu_g) / sqrt(var_g + eps) is kept for
 * the backward pass, istd (G x d) = 1 / sqrt(var_g + eps), and
 * Y = gamma XH + beta.  Y may be X.  A graph with one node gives XH = 0.
 */
void nn_gnorm_fwd(real *Y, real *XH, real *istd, const real *X, const real *gamma, const real *beta,
		  const int64_t *off, int G, int64_t d, real eps);
/* dX = istd/n (n dXH - sum dXH - XH sum(dXH XH)), dXH = gamma dY
 * (dX may be dY); dgamma += sum dY XH, dbeta += sum dY. */
void nn_gnorm_bwd(real *dX, real *dgamma, real *dbeta, const real *dY, const real *XH,
		  const real *istd, const real *gamma, const int64_t *off, int G, int64_t d);
/* The same pair with XH kept and Y written in bf16 (gemm.h), half their
 * memory: the bf16 encoder's.  The statistics (mu, var, istd) stay in
 * full precision; the saved XH and the output Y are rounded.  Y must not
 * alias X.  Backward, dX is written in bf16 too (it is the operand of the
 * next bf16 products): the fp32 values rounded, as gemm_to_bf16 would. */
void nn_gnorm_fwd_xb(uint16_t *Y, uint16_t *XH, real *istd, const real *X, const real *gamma,
		     const real *beta, const int64_t *off, int G, int64_t d, real eps);
void nn_gnorm_bwd_xb(uint16_t *dX, real *dgamma, real *dbeta, const real *dY, const uint16_t *XH,
		     const real *istd, const real *gamma, const int64_t *off, int G, int64_t d);

/*
 * Y = A X for a sparse N x N matrix in CSR form (rp, ci, av), followed by
 * relu when relu is nonzero.  Y must not alias X.  A is symmetric in the
 * model (D^-1/2 (A+I) D^-1/2), so the same call (relu 0) is its own
 * backward: dX = A dY.
 */
void nn_csr_spmm(real *Y, const int64_t *rp, const int32_t *ci, const real *av, const real *X,
		 int64_t N, int64_t d, int relu);
/* The same with X in bf16 (half the bytes gathered), summed in full
 * precision; with Yb not NULL, Y rounded to bf16 is written there too
 * (the next bf16 product's operand, made while the row is in cache). */
void nn_csr_spmm_xb(real *Y, uint16_t *Yb, const int64_t *rp, const int32_t *ci, const real *av,
		    const uint16_t *X, int64_t N, int64_t d, int relu);
/* dx = dy [y > 0] rounded to bf16 (nn_relu_bwd fused with the rounding of
 * the gradient for nn_csr_spmm_xb). */
void nn_relu_bwd_xb(uint16_t *dx, const real *dy, const real *y, int64_t n);

/* ---- layer mixing (paper eq. 2) ---- */

/* w = softmax(psi) (L). */
void nn_mix_weights(real *w, const real *psi, int L);
/* F[r] = alpha * sum_l w_l H[l][idx[r]], r < R (rows of H are d wide).
 * Here and in the two backward functions, idx NULL means idx[r] = r. */
void nn_mix_fwd(real *F, real *const *H, const real *alpha, const real *psi, const int32_t *idx,
		int L, int64_t R, int64_t d);
/* dalpha += sum_r dF[r] * sum_l w_l H_l[idx[r]];  dpsi += softmax
 * backward of dw_l = sum_r <dF[r] * alpha, H_l[idx[r]]>. */
void nn_mix_bwd_params(real *dalpha, real *dpsi, const real *dF, real *const *H, const real *alpha,
		       const real *psi, const int32_t *idx, int L, int64_t R, int64_t d);
/* dH[idx[r]] += w_l alpha * dF[r] for layer l.  idx may repeat rows
 * unless unique is nonzero (then rows are split between threads). */
void nn_mix_bwd_input(real *dH, const real *dF, const real *alpha, const real *psi,
		      const int32_t *idx, int l, int L, int64_t R, int64_t d, int unique);

/* ---- neural tensor network (appendix A.4) ---- */

/*
 * NTN(x, y) = tanh(s x^T W[1:k] y + V [x; y] + b), then o . h + ob, one
 * logit.  W is stored d x (k d): W_t[a][b] = W[a][t d + b]; V is 2d x k
 * (rows 0..d-1 act on x, d..2d-1 on y).  s scales the bilinear term (the
 * model uses 1/sqrt(d); see model_init_params); it is read from the parameter
 * view p only.
 */
typedef struct ntn {
	real *W, *V, *b, *o, *ob;
	real s;
} ntn;

/* Paired rows: logit[i] = NTN(X[i], Y[i]), i < P.  Keeps XW (P x kd) and
 * h (P x k). */
void nn_ntn_pair_fwd(real *logit, real *XW, real *h, const real *X, const real *Y, ntn p, int64_t P,
		     int64_t d, int k);
/* dX, dY (both overwritten) and g += parameter gradients.
 * dXW is min(P, NTN_CHUNK) x kd scratch. */
#define NTN_CHUNK 1024
void nn_ntn_pair_bwd(real *dX, real *dY, ntn g, const real *dlogit, const real *XW, const real *h,
		     const real *X, const real *Y, ntn p, int64_t P, int64_t d, int k, real *dXW);

/*
 * Candidates: query q (row X[q]) against candidates C[cbeg[q] + j],
 * j < cnum[q] <= kmax: logit[q kmax + j] = NTN(X[q], C[cbeg[q] + j]).
 * W_t c is computed once per candidate (CW, S x kd), not per pair.  Keeps
 * CW, XV (Q x k), CV (S x k) and h (Q x kmax x k).
 */
void nn_ntn_cand_fwd(real *logit, real *CW, real *XV, real *CV, real *h, const real *X,
		     const real *C, ntn p, const int32_t *cbeg, const int32_t *cnum, int64_t Q,
		     int64_t S, int kmax, int64_t d, int k);
/* dX (Q x d) and dC (S x d) overwritten; g += parameter gradients.
 * Scratch: dCW (S x kd), dXV (Q x k), dCV (S x k). */
void nn_ntn_cand_bwd(real *dX, real *dC, ntn g, const real *dlogit, const real *CW, const real *h,
		     const real *X, const real *C, ntn p, const int32_t *cbeg, const int32_t *cnum,
		     int64_t Q, int64_t S, int kmax, int64_t d, int k, real *dCW, real *dXV,
		     real *dCV);

/* ---- centrality ranking heads (appendix A.4) ---- */

/*
 * nh MLPs d-hd-1 evaluated together: Z = relu(X W1 + b1) (R x nh hd),
 * S[r][t] = w2[t] . Z[r][t hd ..] + b2[t] (S is R x nh).
 */
void nn_rank_fwd(real *S, real *Z, const real *X, const real *W1, const real *b1, const real *w2,
		 const real *b2, int64_t R, int64_t d, int nh, int64_t hd);
/* dX overwritten; dW1, db1, dw2, db2 added; dZ (R x nh hd) scratch,
 * which may be Z itself (Z is then overwritten). */
void nn_rank_bwd(real *dX, real *dW1, real *db1, real *dw2, real *db2, const real *dS,
		 const real *Z, const real *X, const real *W1, const real *w2, int64_t R, int64_t d,
		 int nh, int64_t hd, real *dZ);

/* ---- attention aggregator (cluster task) ---- */

/*
 * Segment s is rows soff[s] .. soff[s+1]-1 of X (Ns x d):
 * e = w . tanh(X Wa + ba), a = softmax of e within each segment,
 * C[s] = sum a_r X[r].  Keeps T = tanh(X Wa + ba) (Ns x hd) and a (Ns).
 * An empty segment gives C[s] = 0.
 */
void nn_attn_fwd(real *C, real *T, real *a, const real *X, const real *Wa, const real *ba,
		 const real *w, const int64_t *soff, int64_t nseg, int64_t Ns, int64_t d,
		 int64_t hd);
/* dX += gradient; dWa, dba, dw added; dT (Ns x hd) and de (Ns) scratch. */
void nn_attn_bwd(real *dX, real *dWa, real *dba, real *dw, const real *dC, const real *T,
		 const real *a, const real *X, const real *Wa, const real *w, const int64_t *soff,
		 int64_t nseg, int64_t Ns, int64_t d, int64_t hd, real *dT, real *de);

/* ---- readouts and projections (objective.h's heads) ---- */

/*
 * Segment s is rows seg[s] .. seg[s+1]-1 of X (R x d): P[s] = [mean of the
 * rows, their maximum] (nseg x 2d), arg[s][j] the row of the maximum of
 * column j (the first on ties; -1 and 0 for an empty segment, whose mean
 * is 0 too).
 */
void nn_pool_fwd(real *P, int32_t *arg, const real *X, const int64_t *seg, int64_t nseg, int64_t d);
/* dX (R x d, R = seg[nseg]) overwritten: the mean's share of dP spread
 * over the segment's rows, the maximum's to its row. */
void nn_pool_bwd(real *dX, const real *dP, const int32_t *arg, const int64_t *seg, int64_t nseg,
		 int64_t d);

/* Y = X / max(|X|, 1e-12) row by row (R x d); Y may be X. */
void nn_l2norm_fwd(real *Y, const real *X, int64_t R, int64_t d);
/* dX = (dY - Y (Y . dY)) / max(|X|, 1e-12), from the output Y and the
 * input X (dX may be dY). */
void nn_l2norm_bwd(real *dX, const real *dY, const real *Y, const real *X, int64_t R, int64_t d);

/* ---- losses (means over the items; gradients scaled accordingly) ---- */

/*
 * InfoNCE over the unit rows Z (R x p): row r of segment s (rows seg[s]
 * .. seg[s+1]-1) is scored against every other row j of its segment,
 * z_r . z_j / tau, and its positive is pos[r]: loss_r = -log softmax at
 * pos[r].  Returns the mean over the R rows; dZ (R x p) written, its
 * gradient; *correct counts rows whose best-scored row is their positive.
 * sim is scratch of the longest segment's length squared.
 * Time complexity: O(p * sum of the segments' squared lengths).
 */
double nn_nce_loss(real *dZ, int64_t *correct, const real *Z, const int32_t *pos,
		   const int64_t *seg, int64_t nseg, int64_t p, double tau, real *sim);
/*
 * Scaled cosine error (GraphMAE): the mean over the rows r of T (R x F)
 * with |T_r| > 0 of (1 - cos(Y_r, T_r))^gamma; dY written (0 in rows left
 * out, and where |Y_r| = 0); *cos_sum adds the rows' cosines and *cnt
 * counts them.
 */
double nn_sce_loss(real *dY, double *cos_sum, int64_t *cnt, const real *Y, const real *T, int64_t R,
		   int64_t F, double gamma);
/* Mean squared error over n values: mean (y - t)^2, dy = 2 (y - t) / n;
 * *sse adds the squared errors. */
double nn_mse_loss(real *dy, double *sse, const real *y, const real *t, int64_t n);

/* Binary cross-entropy with logits z against targets y in [0, 1] over the
 * n items with weight wt[i] != 0 (wt NULL: all); dz = (sigmoid(z) - y) / cnt.
 * Returns the mean loss (0 when no item counts). */
double nn_bce_logits(real *dz, const real *z, const real *y, const real *wt, int64_t n);
/* Softmax cross-entropy: query q has cnum[q] logits at z[q kmax ..], the
 * true one at tgt[q].  dz written for those entries (others 0).  Returns
 * the mean loss; *correct counts queries whose argmax is the target. */
double nn_softmax_xent(real *dz, int64_t *correct, const real *z, const int32_t *cnum,
		       const int32_t *tgt, int64_t Q, int kmax);

/* ---- optimiser ---- */

/* One Adam step (bias-corrected, step t >= 1) over n parameters. */
void nn_adam_step(real *p, const real *g, real *m, real *v, int64_t n, double lr, double b1,
		  double b2, double eps, int64_t t);

#endif
