/* err.c - diagnostics and checked allocation; see err.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"

static const char *prog = "gnnpipe";
static void (*hook_fn)(void *);
static void *hook_arg;
static int tty_line; /* a progress line is on the terminal, unterminated */

void
err_setprog(const char *argv0)
{
	const char *s;

	if (argv0 == NULL || *argv0 == '\0')
		return;
	s = strrchr(argv0, '/');
	prog = s ? s + 1 : argv0;
}

const char *
err_prog(void)
{
	return prog;
}

void
err_atexit(void (*fn)(void *), void *arg)
{
	hook_fn = fn;
	hook_arg = arg;
}

static void
vwarn(const char *fmt, va_list ap)
{
	int saved = errno;
	size_t len = strlen(fmt);

	fflush(stdout);
	if (tty_line) { /* the message replaces it; the next update redraws it */
		fputs("\r\033[K", stderr);
		tty_line = 0;
	}
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	if (len > 0 && fmt[len - 1] == ':')
		fprintf(stderr, " %s", strerror(saved));
	fputc('\n', stderr);
}

void
warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
err_tty_line(int on)
{
	tty_line = on;
}

void
err_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void
run_hook(void)
{
	void (*fn)(void *) = hook_fn;

	hook_fn = NULL; /* never twice, even if the hook dies */
	if (fn)
		fn(hook_arg);
}

/*
 * End the process after an error: the message is out and the hook has
 * removed the temporary output files.  _exit, not exit: a program may die
 * inside an OpenMP region while other threads still run, and exit's
 * handlers and stdio teardown would race them; the output is incomplete
 * anyway, so nothing buffered is worth flushing (stdout was flushed before
 * the message).  It also keeps LeakSanitizer from reporting, at an error
 * exit, buffers that only a dead stack frame still held.
 */
static _Noreturn void
finish(int code)
{
	run_hook();
	fflush(stderr);
	_exit(code);
}

void
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	finish(EXIT_DATA);
}

void
die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	finish(EXIT_USAGE);
}

void
die_code(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	finish(code);
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (q == NULL)
		die("out of memory (%zu bytes)", n);
	return q;
}

void *
xmallocarray(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes overflows)", n, size);
	return xmalloc(n * size);
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		die("out of memory (%zu x %zu bytes overflows)", n, size);
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}
