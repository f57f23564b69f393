/*
 * dist.c - data-parallel training across processes (see dist.h).  Built
 * twice: without MPI into libcommon.a, and with -DGNN_MPI (mpicc) into
 * build/dist-mpi.o for gcn-train.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GNN_MPI
#include <mpi.h>
#endif

#include "dist.h"
#include "err.h"

static int d_rank, d_size = 1;

/* ------------------------------------------------------------------ */
/* processes */

/* The launcher's variables: Open MPI's mpirun, PMIx (srun --mpi=pmix,
 * Open MPI 5), PMI (MPICH, srun --mpi=pmi2). */
static const char *const rank_vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK" };
static const char *const size_vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };

static int
env_int(const char *const *vars, int nv, int dflt)
{
	for (int i = 0; i < nv; i++) {
		const char *s = getenv(vars[i]);
		char *end;
		long v;
		if (!s || !*s)
			continue;
		errno = 0;
		v = strtol(s, &end, 10);
		if (!*end && !errno && v >= 0 && v <= INT_MAX)
			return (int)v;
	}
	return dflt;
}

int
dist_launch_rank(void)
{
	return env_int(rank_vars, 3, 0);
}

/* Launched as one of several processes?  PMIx alone names no size, so a
 * PMIx rank without a size counts as launched. */
static int
launched(void)
{
	return env_int(size_vars, 2, 1) > 1 || getenv("PMIX_RANK") != NULL;
}

#ifdef GNN_MPI

static int d_started;

int
dist_init(int *argc, char ***argv)
{
	int provided;

	if (!launched())
		return 1;
	/* FUNNELED: only the main thread calls MPI (an OpenMP thread that
	 * dies calls _exit, not MPI) */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS ||
	    provided < MPI_THREAD_FUNNELED)
		die("MPI_Init_thread: no MPI_THREAD_FUNNELED");
	d_started = 1;
	/* an MPI error ends the job (the default, said here) */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &d_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d_size);
	return d_size;
}

const char *
dist_library(void)
{
	static char v[64];
	int len = 0;
	char lib[MPI_MAX_LIBRARY_VERSION_STRING];

	if (!v[0]) {
		MPI_Get_library_version(lib, &len);
		lib[len < (int)sizeof lib ? len : (int)sizeof lib - 1] = '\0';
		lib[strcspn(lib, ",\n")] = '\0';	/* "Open MPI v4.1.4, package..." */
		snprintf(v, sizeof v, "%.63s", lib);
	}
	return v;
}

void
dist_end(void)
{
	if (d_started)
		MPI_Finalize();
	d_started = 0;
}

/* Wait for a request, sleeping 1 ms between tests. */
static void
wait_idle(MPI_Request *q)
{
	struct timespec ts = { 0, 1000000 };
	int done = 0;

	for (;;) {
		MPI_Test(q, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&ts, NULL);
	}
}

#define CHUNK ((size_t)1 << 30)	/* bytes per MPI call: counts are int */

static void
bcast(void *buf, size_t n, int root, int idle)
{
	char *p = buf;

	if (d_size == 1)
		return;
	for (size_t at = 0; at < n; at += CHUNK) {	/* n is the same in every rank */
		int k = (int)(n - at < CHUNK ? n - at : CHUNK);
		MPI_Request q;
		if (idle) {
			MPI_Ibcast(p + at, k, MPI_BYTE, root, MPI_COMM_WORLD, &q);
			wait_idle(&q);
		} else {
			MPI_Bcast(p + at, k, MPI_BYTE, root, MPI_COMM_WORLD);
		}
	}
}

void
dist_bcast(void *buf, size_t n, int root)
{
	bcast(buf, n, root, 0);
}

void
dist_bcast_idle(void *buf, size_t n, int root)
{
	bcast(buf, n, root, 1);
}

void
dist_sum_i64(int64_t *x, int n)
{
	if (d_size > 1)
		MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
}

void
dist_gather_f64(double *x, int n)
{
	if (d_size > 1)
		MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

double
dist_max_f64(double x)
{
	if (d_size > 1)
		MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return x;
}

/* The reduction of 128-bit sums: a user operation on pairs of words (an
 * integer sum: associative and commutative, so exact in any order). */
static void
xsum_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const uint64_t *a = in;
	uint64_t *b = inout;

	(void)type;
	for (int64_t i = 0; i < *len; i++) {
		uint64_t lo = b[2 * i] + a[2 * i];
		b[2 * i + 1] += a[2 * i + 1] + (lo < a[2 * i]);
		b[2 * i] = lo;
	}
}

void
xsum_allreduce(xsum *s)
{
	static MPI_Datatype pair;
	static MPI_Op op;
	const int64_t chunk = 1 << 26;	/* pairs per call: 1 GiB */

	if (d_size == 1)
		return;
	if (!op) {
		MPI_Type_contiguous(2, MPI_UINT64_T, &pair);
		MPI_Type_commit(&pair);
		MPI_Op_create(xsum_op, 1, &op);
	}
	for (int64_t at = 0; at < s->n; at += chunk) {
		int k = (int)(s->n - at < chunk ? s->n - at : chunk);
		MPI_Allreduce(MPI_IN_PLACE, s->w + 2 * at, k, pair, op, MPI_COMM_WORLD);
	}
}

/* Wait, silently, for the job to end (another rank's exit ends it). */
static _Noreturn void
wait_end(void)
{
	MPI_Request q;

	fflush(stdout);
	MPI_Ibarrier(MPI_COMM_WORLD, &q);	/* rank 0 never joins it */
	wait_idle(&q);
	_exit(EXIT_DATA);
}

#else /* no MPI */

int
dist_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (launched()) {
		if (dist_launch_rank() == 0)
			die("started as one of %d MPI processes, but built without MPI: "
			    "install Open MPI (Debian: libopenmpi-dev openmpi-bin) and rebuild",
			    env_int(size_vars, 2, 2));
		sleep(2);	/* rank 0's line first; its exit ends the job */
		_exit(EXIT_DATA);
	}
	return 1;
}

const char *dist_library(void) { return NULL; }
void dist_end(void) { }
void dist_bcast(void *buf, size_t n, int root) { (void)buf; (void)n; (void)root; }
void dist_bcast_idle(void *buf, size_t n, int root) { (void)buf; (void)n; (void)root; }
void dist_sum_i64(int64_t *x, int n) { (void)x; (void)n; }
void dist_gather_f64(double *x, int n) { (void)x; (void)n; }
double dist_max_f64(double x) { return x; }
void xsum_allreduce(xsum *s) { (void)s; }

static _Noreturn void
wait_end(void)
{
	_exit(EXIT_DATA);
}

#endif

int dist_rank(void) { return d_rank; }
int dist_size(void) { return d_size; }

void
dist_die_all(const char *fmt, ...)
{
	va_list ap;
	char msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (d_rank == 0)
		die("%s", msg);
	wait_end();
}

/* ------------------------------------------------------------------ */
/* standard input to every rank */

static char *stdin_buf;
static int64_t stdin_len = -1;	/* -1: rank 0 did not read it */

/* Standard input becomes a copy of buf, in an unlinked temporary file. */
static void
stdin_from(const char *buf, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof path, "%s/gcn-train-stdin.XXXXXX", dir && *dir ? dir : "/tmp");
	if ((fd = mkstemp(path)) < 0)
		die("%s:", path);
	unlink(path);
	for (size_t at = 0; at < len;) {
		ssize_t k = write(fd, buf + at, len - at);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("%s: a copy of the standard input:", path);
		at += (size_t)k;
	}
	if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, STDIN_FILENO) < 0)
		die("%s:", path);
	close(fd);
}

void
dist_stdin_read(void)
{
	size_t cap = 1 << 20, len = 0;
	ssize_t k;

	stdin_buf = xmalloc(cap);
	while ((k = read(STDIN_FILENO, stdin_buf + len, cap - len)) != 0) {
		if (k < 0) {
			if (errno == EINTR)
				continue;
			die("<stdin>:");
		}
		len += (size_t)k;
		if (len == cap)
			stdin_buf = xrealloc(stdin_buf, cap *= 2);
	}
	stdin_len = (int64_t)len;
	stdin_from(stdin_buf, len);	/* rank 0 reads the copy too */
}

void
dist_stdin_share(void)
{
	int64_t n = stdin_len;

	dist_bcast_idle(&n, sizeof n, 0);
	if (n >= 0 && d_size > 1) {
		if (d_rank != 0)
			stdin_buf = xmalloc((size_t)n + 1);
		dist_bcast(stdin_buf, (size_t)n, 0);
		if (d_rank != 0)
			stdin_from(stdin_buf, (size_t)n);
	}
	free(stdin_buf);
	stdin_buf = NULL;
}

/* ------------------------------------------------------------------ */
/* exact sums */

/* 128-bit integers (a GCC and Clang extension on 64-bit targets); in
 * memory each is two words, low first, so that MPI moves plain words. */
__extension__ typedef unsigned __int128 u128;

/*
 * x 2^80 as a 128-bit two's complement integer.  A float x = m 2^(e-150)
 * (m the 24-bit significand with its hidden bit, e the biased exponent)
 * gives x 2^80 = m 2^(e-70): shifted left when e >= 70 (|x| >= 2^-56: kept
 * exactly), else rounded to the nearest integer, ties to even.  x must be
 * below 2^46 in magnitude (finite): xsum_add() checks first.
 */
static inline u128
to_fixed(float x)
{
	uint32_t u, e, m;
	u128 a;

	memcpy(&u, &x, sizeof u);
	e = (u >> 23) & 0xff;
	m = (u & 0x7fffff) | 0x800000;
	if (e == 0)		/* zero, subnormal: |x| 2^80 < 2^-46 */
		return 0;
	if (e >= 70) {
		a = (u128)m << (e - 70);
	} else {
		uint32_t s = 70 - e, q, r, half;	/* s = 1 .. 69 */
		if (s > 24) {
			q = 0;		/* m 2^-s < 1/2 */
		} else {
			q = m >> s;
			r = m & ((1u << s) - 1);
			half = 1u << (s - 1);
			q += r > half || (r == half && (q & 1));
		}
		a = q;
	}
	return u >> 31 ? -a : a;
}

/* The float nearest to v 2^-80 (v two's complement), ties to even. */
static float
from_fixed(u128 v)
{
	int neg = (int)(v >> 127), p, s;
	u128 a = neg ? -v : v;
	uint64_t hi = (uint64_t)(a >> 64), lo = (uint64_t)a, q;

	if (a == 0)
		return 0;
	p = hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(lo);	/* top bit */
	s = p > 23 ? p - 23 : 0;	/* bits below the 24 kept */
	q = (uint64_t)(a >> s);
	if (s > 0) {
		u128 r = a & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
		q += r > half || (r == half && (q & 1));	/* 2^24 is exact too */
	}
	return (neg ? -1.0f : 1.0f) * ldexpf((float)q, s - 80);
}

static inline u128
word_get(const uint64_t *w)
{
	return (u128)w[1] << 64 | w[0];
}

static inline void
word_put(uint64_t *w, u128 v)
{
	w[0] = (uint64_t)v;
	w[1] = (uint64_t)(v >> 64);
}

void
xsum_init(xsum *s, int64_t n)
{
	s->n = n;
	s->w = xcalloc(2 * (size_t)n + 2, sizeof *s->w);
}

void
xsum_free(xsum *s)
{
	if (!s)
		return;
	free(s->w);
	s->w = NULL;
	s->n = 0;
}

void
xsum_zero(xsum *s)
{
	memset(s->w, 0, 2 * (size_t)s->n * sizeof *s->w);
}

int64_t
xsum_add(xsum *s, const float *x)
{
	int64_t bad = INT64_MAX;

	/* one pass: memory-bound (20 bytes read, 16 written a value) */
	#pragma omp parallel for schedule(static) reduction(min : bad)
	for (int64_t i = 0; i < s->n; i++) {
		uint32_t u;
		memcpy(&u, &x[i], sizeof u);
		if ((u & 0x7fffffff) == 0)
			continue;	/* zeros are common: no write */
		if (((u >> 23) & 0xff) >= 173) {
			if (i < bad)
				bad = i;
			continue;
		}
		word_put(s->w + 2 * i, word_get(s->w + 2 * i) + to_fixed(x[i]));
	}
	return bad == INT64_MAX ? -1 : bad;
}

void
xsum_merge(xsum *s, const xsum *t)
{
	#pragma omp parallel for schedule(static)
	for (int64_t i = 0; i < s->n; i++)
		word_put(s->w + 2 * i, word_get(s->w + 2 * i) + word_get(t->w + 2 * i));
}

void
xsum_get(const xsum *s, float *x)
{
	#pragma omp parallel for schedule(static)
	for (int64_t i = 0; i < s->n; i++)
		x[i] = from_fixed(word_get(s->w + 2 * i));
}

/* ------------------------------------------------------------------ */
/* a batch cut by graph */

/* The first i in [lo, hi) with key(i) >= v, keys ascending: the start of a
 * graph's rows in an array of node ids grouped by graph. */
static int64_t
first_at(const int32_t *ids, int64_t lo, int64_t hi, int64_t v)
{
	while (lo < hi && ids[lo] < v)
		lo++;
	return lo;
}

#define TAKE(dst, src, n) do { \
	(dst) = xreallocarray((dst), (size_t)(n) + 1, sizeof *(dst)); \
	memcpy((dst), (src), (size_t)(n) * sizeof *(dst)); \
} while (0)

void
batch_graph(batch *out, const batch *b, int g)
{
	int64_t n0 = b->off[g], n1 = b->off[g + 1], n = n1 - n0;
	int64_t e0 = b->rp[n0], e1 = b->rp[n1];
	/* pairs, rank rows, support rows and queries come graph by graph, each
	 * graph's among its own nodes */
	int64_t p0 = first_at(b->pu, 0, b->P, n0), p1 = first_at(b->pu, p0, b->P, n1);
	int64_t u0 = first_at(b->uidx, 0, b->U, n0), u1 = first_at(b->uidx, u0, b->U, n1);
	int64_t s0 = first_at(b->sidx, 0, b->Ns, n0), s1 = first_at(b->sidx, s0, b->Ns, n1);
	int64_t q0 = first_at(b->qidx, 0, b->Q, n0), q1 = first_at(b->qidx, q0, b->Q, n1);
	int64_t c0 = 0, c1;

	/* clusters: each has a support row, so its first row tells its graph */
	while (c0 < b->ncl && b->soff[c0] < s0)
		c0++;
	c1 = c0;
	while (c1 < b->ncl && b->soff[c1] < s1)
		c1++;

	out->G = 1;
	out->N = n;
	out->F = b->F;
	out->off = xreallocarray(out->off, 2, sizeof *out->off);
	out->off[0] = 0;
	out->off[1] = n;
	TAKE(out->X, b->X + n0 * b->F, n * b->F);
	TAKE(out->rp, b->rp + n0, n + 1);
	TAKE(out->ci, b->ci + e0, e1 - e0);
	TAKE(out->av, b->av + e0, e1 - e0);
	for (int64_t v = 0; v <= n; v++)
		out->rp[v] -= e0;
	for (int64_t e = 0; e < e1 - e0; e++)
		out->ci[e] -= (int32_t)n0;

	out->P = p1 - p0;
	TAKE(out->pu, b->pu + p0, out->P);
	TAKE(out->pv, b->pv + p0, out->P);
	TAKE(out->y, b->y + p0, out->P);
	TAKE(out->ru, b->ru + p0, out->P);
	TAKE(out->rv, b->rv + p0, out->P);
	TAKE(out->R, b->R + p0 * MODEL_NCENT, out->P * MODEL_NCENT);
	for (int64_t i = 0; i < out->P; i++) {
		out->pu[i] -= (int32_t)n0;
		out->pv[i] -= (int32_t)n0;
		out->ru[i] -= (int32_t)u0;
		out->rv[i] -= (int32_t)u0;
	}
	out->U = u1 - u0;
	TAKE(out->uidx, b->uidx + u0, out->U);
	for (int64_t i = 0; i < out->U; i++)
		out->uidx[i] -= (int32_t)n0;

	out->Ns = s1 - s0;
	out->ncl = c1 - c0;
	out->kmax = out->ncl > 1 ? (int)out->ncl : 1;
	TAKE(out->sidx, b->sidx + s0, out->Ns);
	TAKE(out->soff, b->soff + c0, out->ncl);
	out->soff[out->ncl] = out->Ns;
	for (int64_t i = 0; i < out->Ns; i++)
		out->sidx[i] -= (int32_t)n0;
	for (int64_t c = 0; c < out->ncl; c++)
		out->soff[c] -= s0;

	out->Q = q1 - q0;
	TAKE(out->qidx, b->qidx + q0, out->Q);
	TAKE(out->qbeg, b->qbeg + q0, out->Q);
	TAKE(out->qnum, b->qnum + q0, out->Q);
	TAKE(out->qtgt, b->qtgt + q0, out->Q);
	for (int64_t i = 0; i < out->Q; i++) {
		out->qidx[i] -= (int32_t)n0;
		out->qbeg[i] -= (int32_t)c0;
	}
}
