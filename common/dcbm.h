/*
 * dcbm.h - degree-corrected stochastic block model (DCBM): parameters,
 * model and an exact O(n + m) edge sampler.
 *
 * Ownership: the caller initialises a dcbm or dcbm_edges with its _init(),
 * the value owns every array it points to (the functions here resize them,
 * so one value serves a loop over many graphs), and its _free() releases
 * them (a no-op on a value never used).
 *
 * The model (paper, appendix "Details about Pre-training Procedure"; the
 * parameterisation is the one of the shared benchmark, bench/gen_graphs.py):
 *
 *   1. c(u) ~ Uniform{0..K-1}, independently for every node u.
 *   2. theta_u = U^(-1/(gamma-1)), U ~ Uniform(0,1): a Pareto variable with
 *      density proportional to theta^-gamma on [1, inf), the paper's
 *      P(theta) = k theta^-gamma.  Then theta <- theta / mean(theta), so
 *      gamma sets only the shape of the degree distribution (gamma near 2:
 *      heavy tail; gamma = 10: nearly uniform) and not its scale.
 *   3. The paper's k sets the density: the target expected mean degree is
 *      dbar = deg_per_k * k (default 10 k), or is given directly.
 *   4. P_rs = p_in if r == s, else p_out = p_in / p_div_q, with p_in chosen
 *      so that the expected mean degree before clipping is dbar:
 *          p_in = dbar n / sum_{u != v} theta_u theta_v P0_{c(u),c(v)}
 *      where P0 is P with p_in = 1.
 *   5. Each pair u < v is an edge independently with probability
 *          p_uv = min(1, theta_u theta_v P_{c(u),c(v)}).
 *      Clipping at 1 lowers the realised mean degree below dbar when theta
 *      has a heavy tail (gamma near 2) or dbar is close to n; the realised
 *      value is what the caller should report.
 */
#ifndef GNN_DCBM_H
#define GNN_DCBM_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds every parameter is checked against (also the option bounds). */
#define DCBM_MAX_NODES (1LL << 26) /* = GS_MAX_NODES of stream.h */
#define DCBM_MAX_CLUSTERS 1000000
#define DCBM_MIN_GAMMA \
	1.5 /* theta = U^(-1/(gamma-1)) <= 2^64 for
					 * U >= 2^-32, so products stay finite */
#define DCBM_MAX_GAMMA 1000.0
#define DCBM_MAX_PDQ 1e6
#define DCBM_MAX_DEGREE 1e9

/* One graph's parameters (drawn by dcbm_draw_params or set by hand). */
struct dcbm_params {
	int32_t n;	    /* nodes, >= 1 */
	int32_t K;	    /* clusters, >= 1 */
	double p_div_q;	    /* in-cluster / between-cluster probability, >= 1 */
	double k;	    /* the paper's k (informational: dbar / deg_per_k) */
	double gamma;	    /* exponent of P(theta) ~ theta^-gamma, >= 1.5 */
	double mean_degree; /* dbar: expected mean degree before clipping, >= 0 */
};

/*
 * Ranges the per-graph parameters are drawn from, uniformly: integers from
 * {lo..hi}, reals from [lo, hi).  If use_mean_degree is set, dbar is drawn
 * from mean_degree[] and k reported as dbar / deg_per_k; otherwise k is
 * drawn from k[] and dbar = deg_per_k * k.
 */
struct dcbm_ranges {
	long long nodes[2];
	long long clusters[2];
	double p_div_q[2];
	double k[2];
	double gamma[2];
	double deg_per_k;
	double mean_degree[2];
	int use_mean_degree;
};

/* The model of one graph: labels, degree corrections, block matrix. */
typedef struct dcbm {
	struct dcbm_params par;
	int32_t *cluster;   /* (n) cluster of node u, 0..K-1 */
	double *theta;	    /* (n) degree correction, mean 1 */
	double p_in, p_out; /* P_rr and P_rs (r != s) */
	double theta_max;

	/*
	 * Work is split into tasks of about task_size expected candidate
	 * pairs, each with its own random stream, so the edges depend on
	 * task_size but never on the thread count.  dcbm_init() sets
	 * DCBM_TASK_SIZE; tests lower it to exercise the splitting.
	 */
	double task_size;

	/*
	 * private: nodes sorted by (level, cluster), level = floor(2 log2
	 * theta).  A bucket is the nodes of one (level, cluster); a level is a
	 * run of buckets.  Each cluster's buckets are listed in cgblk.
	 */
	int32_t nb;	   /* non-empty buckets */
	int64_t *bstart;   /* (nb+1) offsets into bn */
	int32_t *bcluster; /* (nb) cluster of the bucket */
	double *btmax;	   /* (nb) largest theta in the bucket */
	int32_t nl;	   /* non-empty levels */
	int32_t *lblk;	   /* (nl+1) first bucket of each level */
	double *ltmax;	   /* (nl) largest theta in the level */
	int32_t ncg;	   /* non-empty clusters */
	int32_t *cgstart;  /* (ncg+1) offsets into cgblk */
	int32_t *cgblk;	   /* (nb) buckets cluster by cluster, levels ascending */
	struct dcbm_bnode {
		double theta;
		int32_t node;
	} * bn; /* (n) nodes in bucket order, theta next to
				 * the id: one cache line per random lookup */
	size_t cap_n, cap_b;
} dcbm;

#define DCBM_TASK_SIZE 1048576.0

/* An edge list: m edges u[i] < v[i], sorted by (u, v). */
typedef struct dcbm_edges {
	int64_t m;
	int32_t *u, *v; /* (m) */
	size_t cap;
	/* private: packed keys and radix-sort scratch */
	uint64_t *key, *tmp;
	size_t cap_key, cap_tmp;
} dcbm_edges;

/*
 * Initialise an empty model / edge list (no allocation; task_size set to
 * DCBM_TASK_SIZE), and release one (then it is empty again and may be
 * reused; NULL is a no-op).  Time complexity: O(1).
 */
void dcbm_init(dcbm *d);
void dcbm_free(dcbm *d);
void dcbm_edges_init(dcbm_edges *e);
void dcbm_edges_free(dcbm_edges *e);

/*
 * Check p against the bounds above (n >= 1, K >= 1, p_div_q >= 1,
 * gamma in [DCBM_MIN_GAMMA, DCBM_MAX_GAMMA], mean_degree >= 0, all finite).
 * Returns 0, or -1 with a one-line reason in msg.
 * Time complexity: O(1).
 */
int dcbm_params_check(const struct dcbm_params *p, char *msg, size_t msglen);

/*
 * Draw one graph's parameters from the ranges R with r, in a fixed order
 * (n, K, p_div_q, k or dbar, gamma), one draw each even when a range is a
 * single value, so changing one range never shifts the others' draws.
 * Time complexity: O(1).
 */
void dcbm_draw_params(const struct dcbm_ranges *R, gsl_rng *r, struct dcbm_params *p);

/*
 * Draw the model of p into d: labels c(u), then theta (steps 1, 2 of the
 * model), then p_in and p_out (step 4), and group the nodes into buckets
 * for dcbm_sample().  p must pass dcbm_params_check().
 * Edge cases: n == 1, or every theta mass in one node, leaves no pair to
 * scale, and p_in = p_out = 0 (an empty graph).  dbar = 0 gives p_in = 0.
 * Time complexity: O(n + K + L) with L the number of theta levels
 * (about 2 log2(max theta / min theta), at most a few hundred).
 */
void dcbm_model(dcbm *d, const struct dcbm_params *p, gsl_rng *r);

/* p_uv = min(1, theta_u theta_v P_{c(u),c(v)}) for u != v.  Time: O(1). */
static inline double
dcbm_prob(const dcbm *d, int32_t u, int32_t v)
{
	double P = d->cluster[u] == d->cluster[v] ? d->p_in : d->p_out;
	double p = d->theta[u] * d->theta[v] * P;

	return p < 1.0 ? p : 1.0;
}

/*
 * Sample the edges of d into e: every pair u < v independently with
 * probability dcbm_prob(d, u, v), exactly (no approximation).
 *
 * Method: nodes are bucketed by (level, cluster), level = floor(2 log2
 * theta), so theta varies by less than sqrt(2) inside a bucket.  The pairs
 * are cut into units:
 *   - inside one cluster, every pair of that cluster's buckets (a, b);
 *   - between clusters, every pair of levels (x, y), taking the pairs of
 *     nodes of different clusters only (rows grouped by cluster, so the
 *     pairs of a unit are indexed without visiting the excluded ones).
 * Every pair of a unit has p_uv <= p_max = min(1, tmax tmax' P) with the
 * unit's largest thetas; candidates are visited by geometric skipping at
 * rate p_max (each pair is a candidate independently with probability
 * p_max) and kept with probability p_uv / p_max >= 1/2.  Candidates are
 * distinct by construction, so no de-duplication is needed.  One 64-bit
 * seed is drawn from r; the units are cut into tasks of about
 * d->task_size expected candidates, task t using its own stream
 * rng_new(seed, t), and the tasks run on OpenMP threads unless the caller
 * is already inside a parallel region.  The edges are then sorted
 * canonically with an LSD radix sort, so the result depends on r and d
 * only, never on the number of threads.
 *
 * Edge cases: n < 2, dbar = 0: m = 0.  p_uv = 1 pairs are always edges.
 * K = 1 has no between-cluster unit; K >= n is fine.
 * Time complexity: O(n + m + L^2 + L B + sum_c L_c^2) expected, with L the
 * number of levels (about 2 log2(max theta / min theta)), B <= min(n, K L)
 * the number of buckets and L_c the levels present in cluster c: a few
 * hundred operations per level pair, never quadratic in n or K.
 * Memory: at most 40 bytes per edge at the peak (packed keys with room to
 * grow, the radix-sort scratch, the result), plus O(L^2 + sum_c L_c^2)
 * for the plan of units.
 */
void dcbm_sample(const dcbm *d, gsl_rng *r, dcbm_edges *e);

/*
 * Reference sampler of the same distribution: one uniform per pair u < v,
 * in order.  For tests and small graphs only.
 * Time complexity: O(n^2).
 */
void dcbm_sample_dense(const dcbm *d, gsl_rng *r, dcbm_edges *e);

/*
 * One whole graph: r = rng_new(seed, stream), then dcbm_draw_params(),
 * dcbm_model() and dcbm_sample() on r.  The result depends on (R, seed,
 * stream) only, which is what makes graph i the same whatever the number
 * of graphs generated with it, and whatever the thread count.
 * Time complexity: that of dcbm_model() + dcbm_sample().
 */
void dcbm_generate(const struct dcbm_ranges *R, uint64_t seed, uint64_t stream, dcbm *d,
		   dcbm_edges *e);

#endif
