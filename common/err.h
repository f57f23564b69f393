/*
 * err.h - one message format for every program: "prog: where: what".
 *
 * Ownership: nothing here allocates; the program name is a pointer into argv
 * and must outlive every call.
 *
 * Exit codes (documented in every man page):
 *   0  success
 *   1  data or runtime error (bad record, I/O failure, numeric blow-up)
 *   2  usage error (unknown option, value out of range)
 */
#ifndef GNN_ERR_H
#define GNN_ERR_H

#include <stdarg.h>

#define EXIT_DATA 1
#define EXIT_USAGE 2

/* Set the program name once, from argv[0] (its basename is used). */
void err_setprog(const char *argv0);
const char *err_prog(void);

/*
 * Print "prog: " fmt to stderr.  As in sbase eprintf, a format that ends in
 * ':' gets ": strerror(errno)" appended.  stdout is flushed first so data and
 * diagnostics never interleave out of order.
 */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define warn_ warnx_

/* warn and exit(EXIT_DATA). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* warn and exit(EXIT_USAGE). */
void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* warn and exit with status code. */
void die_code(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* A progress line (progress.h) is now (1) or no longer (0) on the terminal
 * without its newline: the next message erases it first. */
void err_tty_line(int on);

/* Replace each control byte of s (newline, tab, DEL...) with '?': a message
 * that quotes input bytes stays on one line. */
void err_one_line(char *s);

/*
 * Hook run by die*() before exit, e.g. to remove a half-written -o file.
 * One hook; NULL clears it.
 */
void err_atexit(void (*fn)(void *), void *arg);

/* Allocation that dies with "prog: out of memory (N bytes)" on failure. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* n * size with overflow check; dies on overflow. */
void *xmallocarray(size_t n, size_t size);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

#endif
