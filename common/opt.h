/*
 * opt.h - bounded option parsing and the options every program shares.
 *
 * Ownership: parsed strings point into argv; nothing here allocates.
 * Every numeric option goes through these parsers (no atoi/atof anywhere):
 * on a bad value they print "prog: -k: 0 is too small" and exit 2.
 */
#ifndef GNN_OPT_H
#define GNN_OPT_H

#include <stdint.h>
#include <stdio.h>

#define GNNPIPE_VERSION "0.1.0"

/* Integer in [min, max]; name is the option as the user typed it ("-k"). */
long long opt_ll(const char *s, long long min, long long max, const char *name);
/* Unsigned 64-bit integer (seeds). */
uint64_t opt_u64(const char *s, const char *name);
/* Finite double in [min, max]. */
double opt_double(const char *s, double min, double max, const char *name);
/* The index of s in the NULL-terminated words; anything else is a usage
 * error naming them ("--task: 'x': expected node, link or graph"). */
int opt_keyword(const char *s, const char *const *words, const char *name);

/*
 * A range "LO..HI" or a single value "X" (= "X..X"), each end bounded by
 * [min, max], and LO <= HI.  Used for the DCBM parameter ranges.
 */
void opt_range_ll(const char *s, long long min, long long max, const char *name, long long *lo,
		  long long *hi);
void opt_range_double(const char *s, double min, double max, const char *name, double *lo,
		      double *hi);

/*
 * The options every program spells the same way (docs/style.md, "The
 * contract every program keeps"):
 *   -o/--output FILE  -s/--seed N  -j/--threads N  -l/--level N  -t/--text
 *   -q/--quiet  -h/--help  --version
 * A tool's getopt switch hands these letters to copt_handle().
 */
struct copt {
	const char *output; /* NULL or "-" = stdout */
	uint64_t seed;
	int seed_set;
	int threads;   /* 0 = all cores (OpenMP default) */
	int level;     /* gzip level 0..9, 0 = plain */
	int level_set; /* -l given (else -t writes plain text) */
	int text;      /* write the text form */
	int quiet;
	int progress; /* --progress: force progress on stderr */
};

void copt_init(struct copt *c);
/*
 * Handle one shared option.  Returns 1 if c was one of them, 0 otherwise.
 * --version is handled here too (prints "prog gnnpipe VERSION" and exits 0)
 * when given its long-option value COPT_VERSION.
 */
int copt_handle(struct copt *c, int ch, const char *arg);
/*
 * Misuse reported by getopt (ch is '?' or ':', opterr must be 0): one line
 * on stderr, "prog: unknown option '-x'; usage: SYNOPSIS" with the synopsis
 * squeezed onto one line, and exit 2.
 */
void copt_bad_option(int ch, char **argv, const char *synopsis) __attribute__((noreturn));

struct option; /* getopt.h */

/*
 * The getopt loop's shared part: getopt_long() over argv with letters and
 * longopts (opterr set to 0), every shared option handled on the way
 * (copt_handle()).  Returns the next other option: -h ('h': the tool
 * prints its usage and calls copt_exit_ok()), one of the tool's own, or
 * getopt's '?' or ':' for misuse (copt_bad_option()); -1 after the last.
 *
 *	while ((ch = copt_next(&o->c, argc, argv, ":" COPT_LETTERS, lo)) != -1)
 *		switch (ch) { case 'h': ...; case OPT_X: ...; default: copt_bad_option(...); }
 */
int copt_next(struct copt *c, int argc, char **argv, const char *letters,
	      const struct option *longopts);
/*
 * For a program that writes no stream and draws nothing at random
 * (evalf1, gcn-export): -l, -t and -s are usage errors, "-l: WHAT, not a
 * stream, and draws nothing at random", what being "evalf1 writes a
 * report", say.
 */
void copt_no_stream(const struct copt *c, const char *what);
/* A record name of 1..max-1 characters (max: GS_NAME_MAX), else the usage
 * error "NAME: expected a name of 1..max-1 characters"; returns s. */
const char *opt_name(const char *s, int max, const char *name);

/* Exit 0 after -h or --version output, failing with exit 1 if stdout could
 * not be written (so `prog -h > /dev/full` does not claim success). */
void copt_exit_ok(void) __attribute__((noreturn));

/* Apply -j to OpenMP (not to OpenBLAS: see opt.c). */
void copt_apply_threads(const struct copt *c);
/*
 * Make idle OpenMP threads sleep instead of spinning (OMP_WAIT_POLICY=
 * passive) unless the user set the policy: the training programs alternate
 * OpenMP loops with OpenBLAS calls, whose own threads then compete with
 * spinning OpenMP threads for the cores (measured: a gcn-adapt epoch on Cora
 * 33% shorter, a gcn-train step 4%).  Likewise OPENBLAS_CORETYPE, unless
 * set, when OpenBLAS took kernels older than the CPU's AVX-512 or AVX2 (a
 * virtual CPU of unknown model gets the SSE3 ones, 4 to 8 times slower).
 * Re-executes the program once with the variables set (same pid, same
 * arguments); call it first thing in main().
 */
void copt_passive_wait(char **argv);

/* Apply -j to OpenMP and to OpenBLAS (the training programs: their GEMMs
 * dominate; same -j, same bytes). */
void copt_apply_threads_blas(const struct copt *c);
/* Non-zero if progress lines should go to stderr (a tty, or --progress). */
int copt_show_progress(const struct copt *c);

/*
 * The command line argv (argc words, getopt's operands from optind on)
 * with the precision chosen in place of any --precision given, for the
 * pg record: "--precision bf16" before the operands, which start at
 * *noptind.  A new array of *nargc words (the words themselves are
 * argv's or static); free() it.
 */
char **opt_argv_with_precision(int argc, char **argv, int optind, const char *prec, int *nargc,
			       int *noptind);

enum { COPT_VERSION = 1000, COPT_PROGRESS, COPT_FIRST_TOOL = 1100 };

/* Long options shared by every tool; put COPT_LONGOPTS inside the array. */
#define COPT_LONGOPTS \
	{ "help", no_argument, NULL, 'h' }, { "level", required_argument, NULL, 'l' }, \
	    { "output", required_argument, NULL, 'o' }, \
	    { "progress", no_argument, NULL, COPT_PROGRESS }, { "quiet", no_argument, NULL, 'q' }, \
	    { "seed", required_argument, NULL, 's' }, { "text", no_argument, NULL, 't' }, \
	    { "threads", required_argument, NULL, 'j' }, \
	{ \
		"version", no_argument, NULL, COPT_VERSION \
	}

/* getopt letters of the shared options (each tool adds its own, sorted). */
#define COPT_LETTERS "hj:l:o:qs:t"

#endif
