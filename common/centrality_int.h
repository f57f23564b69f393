/*
 * centrality_int.h - private to the centrality files, each of which calls
 * only the ones below it:
 *
 *   centrality_compute.c   the entry points: components, then the parts
 *   centrality_paths.c     betweenness and closeness: the searches and
 *                          their estimators
 *   centrality_spectral.c  eigenvector and subgraph centrality: the dense
 *                          and Lanczos eigensolvers
 *   centrality.c           the options' defaults, the workspace
 *
 * Nothing outside those files includes it; the API is centrality.h.
 *
 * Ownership: every buffer lives in the caller's cent_ws, in the slots
 * named below; a phase takes its slots with centi_wsget and does not free
 * them (centrality_compute trims the large ones between phases).  The
 * component arrays of struct comps point into the workspace too.
 */
#ifndef GNN_CENTRALITY_INT_H
#define GNN_CENTRALITY_INT_H

#include <stddef.h>
#include <stdint.h>

#include "centrality.h"
#include "graph.h"

/* Workspace slots (cent_ws.buf). */
enum {
	W_NODES,    /* int32 (n): nodes grouped by component, BFS order */
	W_START,    /* int32 (n + 1): component c is nodes[start[c] .. start[c+1]) */
	W_COMPOF,   /* int32 (n): component of each node */
	W_LOCAL,    /* int32 (n): index of each node inside its component */
	W_SRC,	    /* int32 (n): BFS sources of a round */
	W_REACH,    /* int32 (n): nodes reached from each */
	W_DTOT,	    /* int64 (n): their distance sums */
	W_ISSRC,    /* char (n): 1 if the node is a source */
	W_CSTATE,   /* char (ncomp): C_NONE, C_EXACT, C_SAMPLED */
	W_KC,	    /* int64 (ncomp): sources drawn per component */
	W_ALLOC,    /* int64 (ncomp): a fixed budget's draws per component */
	W_FRAC,	    /* double (ncomp): their remainders */
	W_ECC,	    /* int32 (n): eccentricity bounds */
	W_ACC,	    /* double (B n): betweenness block accumulators */
	W_ACC2,	    /* double (B n): the same for the squares */
	W_THR,	    /* per-thread BFS state, see struct srch */
	W_DSUM,	    /* int64 (threads n): distance sums to sources */
	W_DSUM2,    /* int64 (threads n): sums of squared distances */
	W_EMIN,	    /* int32 (threads n): eccentricity bounds from the sources */
	W_DENSE,    /* double (nc^2): adjacency, then eigenvectors */
	W_EVAL,	    /* double (nc): eigenvalues */
	W_WORK,	    /* double: LAPACK work */
	W_IWORK,    /* lapack_int: LAPACK iwork */
	W_BUCKET,   /* double (K nc): subgraph sums per exponent bucket */
	W_AR_RESID, /* ARPACK: double (nc) */
	W_AR_V,	    /* ARPACK: double (nc ncv) Lanczos basis */
	W_AR_WORKD, /* ARPACK: double (3 nc) */
	W_AR_WORKL, /* ARPACK: double (ncv (ncv + 8)) */
	W_AR_SEL,   /* ARPACK: a_int (ncv) */
	W_AR_D,	    /* ARPACK: double (nev) eigenvalues */
	W_AR_WATCH, /* double (3 ncv): the restarts' Ritz estimates seen (lz_watch) */
	W_CLAM,	    /* double (ncomp): lambda_max per component */
	W_CORD,	    /* struct cbound (ncomp): visiting order */
	W_C_OFF,    /* int64 (nc + 1): component CSR offsets */
	W_C_ADJ,    /* int32 (2 m_c): component CSR neighbours */
	W_SCALE,    /* double (nc): D^-1/2 of cent_top_eigenvalues */
	W_COUNT
};
_Static_assert(W_COUNT <= CENT_WS_NBUF, "cent_ws has too few slots");

/* Node + arc visits between two calls of the progress hook (at most 1024
 * sources): some tens of milliseconds. */
#define PROGRESS_WORK 16777216.0

/* The connected components of a graph (find_components in
 * centrality_compute.c). */
struct comps {
	int32_t n; /* number of components */
	const int32_t *nodes, *start, *compof, *local;
};

/* Slot i of ws with at least n elements of size sz (contents undefined);
 * dies when n sz overflows. */
void *centi_wsget(cent_ws *ws, int i, size_t n, size_t sz);
/* Free the slots from..to (enum order) that hold more than 1 MiB: the
 * buffers of a phase that is over, so that the next phase's, and the
 * caller's, do not come on top of them (the searches of a 10^6-node graph
 * hold some 200 MB that the eigensolver does not use).  Small slots stay
 * for the next call. */
void centi_ws_trim(cent_ws *ws, int from, int to);

/*
 * Betweenness (bc) and closeness (cl), either NULL, of the components cp
 * of g: exact up to o->exact_max nodes, else sampled (the estimators of
 * centrality_compute); the counts and bounds go to out.  Returns 0, or -1
 * with msg set (a path count past the range of double).
 * Time complexity: O(n m) exact, O(K m) for K sampled sources.
 */
int centi_paths(const graph *g, const struct cent_opts *o, const struct comps *cp, double *bc,
		double *cl, cent_out *out, cent_ws *ws, char *msg, size_t msglen);
/* The workspace bytes centi_paths writes for bc and cl on threads threads
 * (an estimate ahead of the call: cent_ws_bytes). */
double centi_search_bytes(const graph *g, const struct cent_opts *o, const struct comps *cp, int bc,
			  int cl, int threads);

/*
 * Eigenvector (ev), subgraph (sc) and log subgraph (sclog) centrality,
 * any of them NULL, of the components cp of g: dense below o->exact_max
 * nodes, Lanczos above; lambda_max, the clamped count and the bound go to
 * out.  Returns 0, or -1 with msg set (an eigensolver failed).
 * Time complexity: O(n_c^3) a dense component, O(k n_c) a Lanczos
 * iteration.
 */
int centi_spectral(const graph *g, const struct cent_opts *o, const struct comps *cp, double *ev,
		   double *sc, double *sclog, cent_out *out, cent_ws *ws, char *msg, size_t msglen);
/* The workspace bytes centi_spectral writes (cent_ws_bytes). */
double centi_spectral_bytes(const graph *g, const struct cent_opts *o, const struct comps *cp,
			    int ev, int sc);

#endif
