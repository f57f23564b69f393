/* opt.c - bounded number parsing and the shared options; see opt.h. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cblas.h>

#include "err.h"
#include "opt.h"

long long
opt_ll(const char *s, long long min, long long max, const char *name)
{
	char *end;
	long long v;

	if (s == NULL || *s == '\0')
		die_usage("%s: empty value", name);
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		die_usage("%s: '%s' is not an integer", name, s);
	if (errno == ERANGE)
		v = s[0] == '-' ? LLONG_MIN : LLONG_MAX;
	if (v < min)
		die_usage("%s: %s is too small (minimum %lld)", name, s, min);
	if (v > max)
		die_usage("%s: %s is too large (maximum %lld)", name, s, max);
	return v;
}

uint64_t
opt_u64(const char *s, const char *name)
{
	char *end;
	unsigned long long v;

	if (s == NULL || *s == '\0')
		die_usage("%s: empty value", name);
	if (s[0] == '-')
		die_usage("%s: '%s' is negative", name, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0')
		die_usage("%s: '%s' is not an unsigned integer", name, s);
	if (errno == ERANGE)
		die_usage("%s: %s is too large", name, s);
	return (uint64_t)v;
}

int
opt_keyword(const char *s, const char *const *words, const char *name)
{
	char list[256];
	size_t len = 0;
	int n;

	for (n = 0; words[n]; n++)
		if (strcmp(s, words[n]) == 0)
			return n;
	list[0] = 0;
	for (int i = 0; i < n && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
					i == 0	     ? ""
					: i == n - 1 ? " or "
						     : ", ",
					words[i]);
	die_usage("%s: '%s': expected %s", name, s, list);
}

double
opt_double(const char *s, double min, double max, const char *name)
{
	char *end;
	double v;

	if (s == NULL || *s == '\0')
		die_usage("%s: empty value", name);
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || end == s)
		die_usage("%s: '%s' is not a number", name, s);
	if (!isfinite(v))
		die_usage("%s: '%s' is not finite", name, s);
	if (v < min)
		die_usage("%s: %s is too small (minimum %g)", name, s, min);
	if (v > max)
		die_usage("%s: %s is too large (maximum %g)", name, s, max);
	return v;
}

/* Split "LO..HI" into two strings in buf; a single value gives lo = hi. */
static void
split_range(const char *s, const char *name, char *buf, size_t len, const char **lo,
	    const char **hi)
{
	char *dots;

	if (strlen(s) >= len)
		die_usage("%s: '%s' is too long", name, s);
	strcpy(buf, s);
	dots = strstr(buf, "..");
	if (dots == NULL) {
		*lo = *hi = buf;
		return;
	}
	*dots = '\0';
	*lo = buf;
	*hi = dots + 2;
}

void
opt_range_ll(const char *s, long long min, long long max, const char *name, long long *lo,
	     long long *hi)
{
	char buf[128];
	const char *a, *b;

	split_range(s, name, buf, sizeof buf, &a, &b);
	*lo = opt_ll(a, min, max, name);
	*hi = opt_ll(b, min, max, name);
	if (*lo > *hi)
		die_usage("%s: range '%s' is empty (low end above high end)", name, s);
}

void
opt_range_double(const char *s, double min, double max, const char *name, double *lo, double *hi)
{
	char buf[128];
	const char *a, *b;

	split_range(s, name, buf, sizeof buf, &a, &b);
	*lo = opt_double(a, min, max, name);
	*hi = opt_double(b, min, max, name);
	if (*lo > *hi)
		die_usage("%s: range '%s' is empty (low end above high end)", name, s);
}

void
copt_init(struct copt *c)
{
	memset(c, 0, sizeof *c);
	c->level = 1;
}

int
copt_handle(struct copt *c, int ch, const char *arg)
{
	switch (ch) {
	case 'j':
		c->threads = (int)opt_ll(arg, 1, 1024, "-j");
		return 1;
	case 'l':
		c->level = (int)opt_ll(arg, 0, 9, "-l");
		c->level_set = 1;
		return 1;
	case 'o':
		c->output = arg;
		return 1;
	case 'q':
		c->quiet = 1;
		return 1;
	case 's':
		c->seed = opt_u64(arg, "-s");
		c->seed_set = 1;
		return 1;
	case 't':
		c->text = 1;
		return 1;
	case COPT_PROGRESS:
		c->progress = 1;
		return 1;
	case COPT_VERSION:
		printf("%s (gnnpipe) %s\n", err_prog(), GNNPIPE_VERSION);
		copt_exit_ok();
	}
	return 0;
}

int
copt_next(struct copt *c, int argc, char **argv, const char *letters, const struct option *longopts)
{
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, letters, longopts, NULL)) != -1)
		if (!copt_handle(c, ch, optarg))
			return ch;
	return -1;
}

void
copt_no_stream(const struct copt *c, const char *what)
{
	if (c->level_set || c->text || c->seed_set)
		die_usage("%s: %s, not a stream, and draws nothing at random",
			  c->level_set ? "-l"
			  : c->text    ? "-t"
				       : "-s",
			  what);
}

const char *
opt_name(const char *s, int max, const char *name)
{
	if (!*s || strlen(s) >= (size_t)max)
		die_usage("%s: expected a name of 1..%d characters", name, max - 1);
	return s;
}

void
copt_exit_ok(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		die("stdout: write error");
	exit(0);
}

void
copt_bad_option(int ch, char **argv, const char *synopsis)
{
	char syn[1024], *q = syn;
	const char *p;

	/* the synopsis on one line: drop newlines, squeeze indentation */
	for (p = synopsis; *p && q < syn + sizeof syn - 1; p++)
		if (*p != '\n' && !(*p == ' ' && q > syn && q[-1] == ' '))
			*q++ = *p;
	*q = '\0';
	if (ch == ':')
		die_usage("%s needs a value; usage: %s", argv[optind - 1], syn);
	if (optopt != 0)
		die_usage("unknown option '-%c'; usage: %s", optopt, syn);
	die_usage("unknown option '%s'; usage: %s", argv[optind - 1], syn);
}

/*
 * -j sets our OpenMP threads only.  OpenBLAS keeps its own pool
 * (OPENBLAS_NUM_THREADS, default all cores): a LAPACK eigensolver's last
 * bits depend on its thread count, and output must not depend on -j.
 */
void
copt_apply_threads(const struct copt *c)
{
#ifdef _OPENMP
	if (c->threads > 0)
		omp_set_num_threads(c->threads);
#else
	(void)c;
#endif
}

/*
 * The OpenBLAS core to ask for when the library chose a lesser one: Debian's
 * OpenBLAS (DYNAMIC_ARCH) picks its kernels by the CPU's model number, and
 * a virtual CPU that reports an unknown model gets the SSE3 kernels of
 * "Prescott", 4 to 8 times slower at SGEMM than the AVX-512 or AVX2 ones
 * the CPU runs (measured: 20 against 86 to 155 GFLOPS on one core of a
 * virtual Xeon with AVX-512).  __builtin_cpu_supports checks that the
 * operating system enabled the registers too.  NULL: keep the library's.
 */
static const char *
blas_core_wanted(void)
{
	const char *core = openblas_get_corename();
	static const char *const avx512[] = { "skylakex", "cooperlake", "sapphirerapids", NULL };
	static const char *const avx2[] = { "haswell",	      "zen", "skylakex", "cooperlake",
					    "sapphirerapids", NULL };
	const char *const *ok;
	const char *want;

	if (core == NULL)
		return NULL;
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
		ok = avx512;
		want = "SkylakeX";
	} else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
		ok = avx2;
		want = "Haswell";
	} else {
		return NULL;
	}
	for (; *ok; ok++)
		if (strcasecmp(core, *ok) == 0)
			return NULL;
	return want;
}

void
copt_passive_wait(char **argv)
{
	/* libgomp reads OMP_WAIT_POLICY and OpenBLAS reads OPENBLAS_CORETYPE
	 * once, when they are loaded, so the only way to change them is to
	 * start again with them set; if that fails, carry on as we are. */
	int again = 0;
	const char *core;

	if (getenv("OMP_WAIT_POLICY") == NULL && setenv("OMP_WAIT_POLICY", "passive", 1) == 0)
		again = 1;
	if (getenv("OPENBLAS_CORETYPE") == NULL && (core = blas_core_wanted()) != NULL &&
	    setenv("OPENBLAS_CORETYPE", core, 1) == 0)
		again = 1;
	if (again)
		execv("/proc/self/exe", argv);
}

void
copt_apply_threads_blas(const struct copt *c)
{
	int n = 1;

	copt_apply_threads(c);
#ifdef _OPENMP
	n = omp_get_max_threads();
#endif
	openblas_set_num_threads(n);
}

int
copt_show_progress(const struct copt *c)
{
	if (c->quiet)
		return 0;
	return c->progress || isatty(STDERR_FILENO);
}

char **
opt_argv_with_precision(int argc, char **argv, int optind, const char *prec, int *nargc,
			int *noptind)
{
	char **v = xmallocarray((size_t)argc + 3, sizeof *v);
	int n = 0, at = optind;

	/* getopt has put the options before optind (and a "--" last) */
	if (at > 1 && at <= argc && strcmp(argv[at - 1], "--") == 0)
		at--;
	for (int i = 0; i < argc; i++) {
		if (i == optind)
			*noptind = n + (at == optind ? 2 : 0);
		if (i == at) {
			v[n++] = "--precision";
			v[n++] = (char *)prec;
		}
		/* --precision X, --precision=X and their abbreviations (--prec) */
		size_t len = i > 0 && i < at ? strcspn(argv[i], "=") : 0;
		if (len >= 5 && len <= 11 && strncmp(argv[i], "--precision", len) == 0) {
			if (argv[i][len] != '=')
				i++; /* and its value */
			continue;
		}
		v[n++] = argv[i];
	}
	if (at >= argc) {
		v[n++] = "--precision";
		v[n++] = (char *)prec;
	}
	if (optind >= argc)
		*noptind = n;
	v[n] = NULL;
	*nargc = n;
	return v;
}
