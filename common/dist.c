/*
 * dist.c - data-parallel training across processes (see dist.h).  Built
 * twice: without MPI into libcommon.a, and with -DGNN_MPI (mpicc) into
 * build/dist-mpi.o for gcn-train.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef GNN_MPI
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#endif

#include "dist.h"
#include "err.h"

static int d_rank, d_size = 1;

/* where the run stands, for the lines of a timeout or a signal: two
 * buffers, the one being written and the one a signal handler may read */
#define WHERE_LEN 200
static char d_where[2][WHERE_LEN];
static volatile sig_atomic_t d_wi;

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
static double d_timeout = 600; /* seconds a wait may last; 0: no limit */
/* every rank's process id and machine (a hash of its name), so that a
 * process can see whether another on its machine is stopped or gone */
static int64_t (*d_proc)[2];

/*
 * The watch on waits, a thread of its own (the main thread may be inside
 * an MPI call that never returns); it calls no MPI function.  Times are
 * CLOCK_MONOTONIC nanoseconds.
 */
#define TICK 250000000LL	       /* the watch looks 4 times a second */
#define STOPPED (8 * TICK)	       /* a longer gap: the process was stopped */
static _Atomic int64_t w_since;	       /* the wait under way began; 0: none */
static _Atomic int64_t w_tick;	       /* the watch last looked */
static _Atomic int64_t w_stopped;      /* the watch last found a gap */
static volatile sig_atomic_t d_ending; /* the end is said, or rank 0 says it */

static int64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
watch_on(void)
{
	atomic_store(&w_since, now_ns());
}
static void
watch_off(void)
{
	atomic_store(&w_since, 0);
}
/* A blocking MPI call under the watch. */
#define WATCHED(call) \
	do { \
		watch_on(); \
		call; \
		watch_off(); \
	} while (0)

/* Rank r runs on this process's machine and has ended (async-signal-safe). */
static int
gone(int r)
{
	return d_proc[r][1] == d_proc[d_rank][1] && kill((pid_t)d_proc[r][0], 0) != 0 &&
	       errno == ESRCH;
}

/* Rank r runs on this machine and is stopped (SIGSTOP, a debugger). */
static int
is_stopped(int r)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	if (d_proc[r][1] != d_proc[d_rank][1])
		return 0;
	snprintf(path, sizeof path, "/proc/%lld/stat", (long long)d_proc[r][0]);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* "pid (comm) S ...": comm may hold anything */
	return p && (p[2] == 'T' || p[2] == 't');
}

/* Why the others may be silent: "rank 1 is stopped", or a guess. */
static void
why_silent(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int r = 0; r < d_size && n + 32 < len; r++)
		if (r != d_rank && is_stopped(r))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? ", " : "rank ", r);
	if (n)
		snprintf(buf + n, len - n, " %s stopped", strchr(buf, ',') ? "are" : "is");
	else
		snprintf(buf, len, "one stopped, or its machine lost?");
}

static _Noreturn void
timed_out(double s)
{
	const char *w = d_where[d_wi];
	char why[128], me[32] = "";

	if (d_ending) /* the run's line is out; rank 0 ends it */
		_exit(EXIT_DATA);
	why_silent(why, sizeof why);
	if (d_rank > 0)
		snprintf(me, sizeof me, "rank %d: ", d_rank);
	die("%sno word from the other processes for %.0f s%s%s (%s); ending the run "
	    "(--mpi-timeout)",
	    me, s, *w ? " " : "", w, why);
}

static void *
watch(void *arg)
{
	/* rank 0 speaks first; rank r 5 r seconds later, when it still runs:
	 * rank 0, then, is the one that stopped (the first exit ends the job) */
	int64_t limit = (int64_t)(d_timeout * 1e9) + (int64_t)d_rank * 5000000000LL;
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the program's threads */
	for (;;) {
		struct timespec ts = { 0, TICK };
		nanosleep(&ts, NULL);
		int64_t t = now_ns(), gap = t - atomic_exchange(&w_tick, t);
		int64_t since = atomic_load(&w_since);
		if (gap > STOPPED) { /* this process was stopped: its wait starts over */
			atomic_store(&w_stopped, t);
			if (since)
				atomic_compare_exchange_strong(&w_since, &since, t);
			continue;
		}
		if (d_timeout > 0 && since && t - since > limit)
			timed_out((double)(t - since) / 1e9);
	}
	return NULL;
}

/* Every rank's process and machine, and the watch started. */
static void
start_watch(void)
{
	char host[MPI_MAX_PROCESSOR_NAME + 1] = "";
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
	pthread_attr_t a;
	pthread_t th;
	int len = 0;

	MPI_Get_processor_name(host, &len);
	for (int i = 0; i < len; i++)
		h = (h ^ (unsigned char)host[i]) * 0x100000001b3ULL;
	d_proc = xcalloc((size_t)d_size, sizeof *d_proc);
	d_proc[d_rank][0] = getpid();
	d_proc[d_rank][1] = (int64_t)h;
	MPI_Allgather(MPI_IN_PLACE, 2, MPI_INT64_T, d_proc, 2, MPI_INT64_T, MPI_COMM_WORLD);
	atomic_store(&w_tick, now_ns());
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &a, watch, NULL) != 0)
		die("a thread to watch the other processes:");
	pthread_attr_destroy(&a);
}

int
dist_init(int *argc, char ***argv)
{
	int provided;

	if (!launched())
		return 1;
	/* FUNNELED: only the main thread calls MPI (an OpenMP thread that
	 * dies calls _exit, not MPI; the watch calls none) */
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS ||
	    provided < MPI_THREAD_FUNNELED)
		die("MPI_Init_thread: no MPI_THREAD_FUNNELED");
	d_started = 1;
	/* an MPI error ends the job (the default, said here) */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &d_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &d_size);
	if (d_size > 1)
		start_watch();
	return d_size;
}

void
dist_set_timeout(double seconds)
{
	d_timeout = seconds;
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
		lib[strcspn(lib, ",\n")] = '\0'; /* "Open MPI v4.1.4, package..." */
		snprintf(v, sizeof v, "%.63s", lib);
	}
	return v;
}

void
dist_end(void)
{
	if (d_started)
		WATCHED(MPI_Finalize());
	d_started = 0;
}

/* Wait for a request, sleeping 1 ms between tests. */
static void
wait_idle(MPI_Request *q)
{
	struct timespec ts = { 0, 1000000 };
	int done = 0;

	watch_on();
	for (;;) {
		MPI_Test(q, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		nanosleep(&ts, NULL);
	}
	watch_off();
}

#define CHUNK ((size_t)1 << 30) /* bytes per MPI call: counts are int */

static void
bcast(void *buf, size_t n, int root, int idle)
{
	char *p = buf;

	if (d_size == 1)
		return;
	for (size_t at = 0; at < n; at += CHUNK) { /* n is the same in every rank */
		int k = (int)(n - at < CHUNK ? n - at : CHUNK);
		MPI_Request q;
		if (idle) {
			MPI_Ibcast(p + at, k, MPI_BYTE, root, MPI_COMM_WORLD, &q);
			wait_idle(&q);
		} else {
			WATCHED(MPI_Bcast(p + at, k, MPI_BYTE, root, MPI_COMM_WORLD));
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
		WATCHED(MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD));
}

void
dist_gather_f64(double *x, int n)
{
	if (d_size > 1)
		WATCHED(MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
}

double
dist_max_f64(double x)
{
	if (d_size > 1)
		WATCHED(MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
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
dist_xsum_allreduce(xsum *s)
{
	static MPI_Datatype pair;
	static MPI_Op op;
	const int64_t chunk = 1 << 26; /* pairs per call: 1 GiB */

	if (d_size == 1)
		return;
	if (!op) {
		MPI_Type_contiguous(2, MPI_UINT64_T, &pair);
		MPI_Type_commit(&pair);
		MPI_Op_create(xsum_op, 1, &op);
	}
	for (int64_t at = 0; at < s->n; at += chunk) {
		int k = (int)(s->n - at < chunk ? s->n - at : chunk);
		WATCHED(MPI_Allreduce(MPI_IN_PLACE, s->w + 2 * at, k, pair, op, MPI_COMM_WORLD));
	}
}

/* Wait, silently, for the job to end (another rank's exit ends it). */
static _Noreturn void
wait_end(void)
{
	MPI_Request q;

	d_ending = 1;
	fflush(stdout);
	MPI_Ibarrier(MPI_COMM_WORLD, &q); /* rank 0 never joins it */
	wait_idle(&q);
	_exit(EXIT_DATA);
}

void
dist_fail_if_any(int bad, const char *msg)
{
	int who = bad ? d_rank : INT_MAX;
	char m[1024];

	if (d_size == 1) {
		if (bad)
			die("%s", msg);
		return;
	}
	WATCHED(MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
	if (who == INT_MAX)
		return;
	d_ending = 1;
	if (d_rank == who)
		snprintf(m, sizeof m, "%s", msg);
	dist_bcast(m, sizeof m, who);
	if (d_rank != 0)
		wait_end();
	if (who > 0)
		die("rank %d: %s", who, m);
	die("%s", m);
}

/* ---- a signal that ends the run ---- */

static const int d_sigs[3] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction d_old[3];
static int d_caught[3];

/* Append s to line[*n..len-1]; async-signal-safe. */
static void
put(char *line, size_t *n, size_t len, const char *s)
{
	size_t k = strlen(s);
	if (k > len - *n)
		k = len - *n;
	memcpy(line + *n, s, k);
	*n += k;
}

/* This process was stopped until just now: its watch has not looked
 * since, or has just found the gap.  Async-signal-safe. */
static int
was_stopped(void)
{
	int64_t t = now_ns(), st = atomic_load(&w_stopped);
	return t - atomic_load(&w_tick) > STOPPED || (st && t - st < 5000000000LL);
}

static void
on_signal(int sig)
{
	static const char *const name[3] = { "SIGINT", "SIGTERM", "SIGHUP" };
	int e = errno, k = 0;
	char line[512];
	size_t n = 0;

	while (k < 2 && d_sigs[k] != sig)
		k++;
	/* a process stopped until the launcher's SIGCONT and SIGTERM has
	 * nothing to say: another has said why the run ended */
	if (!d_ending && !was_stopped()) {
		const char *w = d_where[d_wi];
		put(line, &n, sizeof line - 1, err_prog());
		if (d_rank == 0) {
			put(line, &n, sizeof line - 1, ": ended by the launcher (");
			put(line, &n, sizeof line - 1, name[k]);
			put(line, &n, sizeof line - 1, *w ? ") " : ")");
			put(line, &n, sizeof line - 1, w);
			put(line, &n, sizeof line - 1,
			    ": another process ended (killed?), "
			    "or mpirun was signalled");
		} else if (d_rank == 1 && gone(0)) {
			put(line, &n, sizeof line - 1, ": rank 1: rank 0 ended (killed?)");
			put(line, &n, sizeof line - 1, *w ? " " : "");
			put(line, &n, sizeof line - 1, w);
		} else {
			n = 0;
		}
		if (n > 0) {
			line[n++] = '\n';
			if (write(STDERR_FILENO, line, n) < 0)
				n = 0; /* nothing more to do */
		}
	}
	/* the action the signal had (outfile.h's removal of temporary files,
	 * or death), once this handler returns */
	sigaction(sig, &d_old[k], NULL);
	errno = e;
	raise(sig);
}

/*
 * SIGCONT (the launcher sends it before SIGTERM, to wake a stopped
 * process): when this process was stopped and another on its machine has
 * ended since (the run is over: the others' watch ended it), end now,
 * silently, before MPI resumes a collective with a process that is gone
 * (Open MPI would say so).  Runs on the main thread, which the kernel
 * prefers for a signal to the process.
 */
static void
on_cont(int sig)
{
	int e = errno;

	(void)sig;
	if (was_stopped())
		for (int r = 0; r < d_size; r++)
			if (r != d_rank && gone(r)) {
				d_ending = 1;
				raise(SIGTERM); /* its action: temporary files removed */
				break;
			}
	errno = e;
}

void
dist_catch_signals(void)
{
	struct sigaction sa;

	if (d_size == 1)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_cont;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCONT, &sa, NULL);
	sa.sa_handler = on_signal;
	for (int k = 0; k < 3; k++) {
		if (d_caught[k] || sigaction(d_sigs[k], NULL, &d_old[k]) != 0 ||
		    d_old[k].sa_handler == SIG_IGN)
			continue; /* an ignored signal stays ignored */
		sigaction(d_sigs[k], &sa, NULL);
		d_caught[k] = 1;
	}
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
		sleep(2); /* rank 0's line first; its exit ends the job */
		_exit(EXIT_DATA);
	}
	return 1;
}

const char *
dist_library(void)
{
	return NULL;
}
void
dist_end(void)
{
}
void
dist_bcast(void *buf, size_t n, int root)
{
	(void)buf;
	(void)n;
	(void)root;
}
void
dist_bcast_idle(void *buf, size_t n, int root)
{
	(void)buf;
	(void)n;
	(void)root;
}
void
dist_sum_i64(int64_t *x, int n)
{
	(void)x;
	(void)n;
}
void
dist_gather_f64(double *x, int n)
{
	(void)x;
	(void)n;
}
double
dist_max_f64(double x)
{
	return x;
}
void
dist_xsum_allreduce(xsum *s)
{
	(void)s;
}

static _Noreturn void
wait_end(void)
{
	_exit(EXIT_DATA);
}

void
dist_fail_if_any(int bad, const char *msg)
{
	if (bad)
		die("%s", msg);
}

void
dist_set_timeout(double seconds)
{
	(void)seconds;
}
void
dist_catch_signals(void)
{
}

#endif

int
dist_rank(void)
{
	return d_rank;
}
int
dist_size(void)
{
	return d_size;
}

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

void
dist_set_where(const char *fmt, ...)
{
	int k = !d_wi;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d_where[k], WHERE_LEN, fmt, ap);
	va_end(ap);
	d_wi = k;
}

/* A value of a config line at its shortest: "0.01", not what %.17g
 * wrote, "0.010000000000000000208"; other values stay. */
static void
short_number(char *v, size_t len)
{
	char *end, b[40];
	double x = strtod(v, &end);

	if (end == v || *end || !strpbrk(v, ".eE"))
		return;
	for (int p = 1; p <= 17; p++) {
		snprintf(b, sizeof b, "%.*g", p, x);
		if (strtod(b, NULL) == x) {
			snprintf(v, len, "%s", b);
			return;
		}
	}
}

/* The message on this rank's line mine (la bytes) against rank 0's
 * theirs (lb bytes). */
static void
say_differ(const char *mine, int la, const char *theirs, int lb, const char *const names[][2],
	   size_t n, char *msg, size_t msglen)
{
	int k = (int)strcspn(mine, ":\n"), k0 = (int)strcspn(theirs, ":\n");
	char a[256], b[256];

	if (k != k0 || strncmp(mine, theirs, (size_t)k) != 0 || k >= la || k0 >= lb) {
		snprintf(msg, msglen,
			 "its settings differ from rank 0's: '%.*s' against '%.*s' "
			 "(another version?)",
			 la < 100 ? la : 100, mine, lb < 100 ? lb : 100, theirs);
		return;
	}
	snprintf(a, sizeof a, "%.*s", la - k - 1, mine + k + 1);
	snprintf(b, sizeof b, "%.*s", lb - k - 1, theirs + k + 1);
	short_number(a + (a[0] == ' '), sizeof a - 1);
	short_number(b + (b[0] == ' '), sizeof b - 1);
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(names[i][0]) == k && strncmp(names[i][0], mine, (size_t)k) == 0) {
			snprintf(msg, msglen, "%s (%.*s)%.100s differs from rank 0's%.100s",
				 names[i][1], k, mine, a, b);
			return;
		}
	snprintf(msg, msglen, "%.*s%.100s differs from rank 0's%.100s", k, mine, a, b);
}

int
dist_same_lines(const char *text, const char *const names[][2], size_t n, char *msg, size_t msglen)
{
	int64_t len = (int64_t)strlen(text);
	const char *a = text, *b;
	char *t0;
	int rc = 0;

	if (d_size == 1)
		return 0;
	dist_bcast_idle(&len, sizeof len, 0);
	t0 = xmalloc((size_t)len + 1);
	if (d_rank == 0)
		memcpy(t0, text, (size_t)len);
	t0[len] = '\0';
	dist_bcast(t0, (size_t)len, 0);
	for (b = t0; (*a || *b) && rc == 0;) {
		int la = (int)strcspn(a, "\n"), lb = (int)strcspn(b, "\n");
		if (la != lb || memcmp(a, b, (size_t)la) != 0) {
			say_differ(a, la, b, lb, names, n, msg, msglen);
			rc = -1;
		}
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	free(t0);
	return rc;
}

/* ------------------------------------------------------------------ */
/* standard input to every rank */

static char *stdin_buf;
static int64_t stdin_len = -1; /* -1: rank 0 did not read it */

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
	stdin_from(stdin_buf, len); /* rank 0 reads the copy too */
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
