/*
 * slow-mkstemp - a test's shim (LD_PRELOAD) that makes mkstemp(3) wait
 * after it has created its file, so that a test can signal a program at
 * the one point where its temporary file exists and it has not yet
 * registered it for removal (tests/cli/outputs.test.sh).
 *
 *   LD_PRELOAD=tests/bin/slow-mkstemp.so GNN_SLOW_MKSTEMP=MS program ...
 *
 * Each mkstemp of an output's temporary file (a template ending in
 * ".tmpXXXXXX", common/outfile.c's) then sleeps MS milliseconds after
 * creating its file; while it sleeps, the file "FILE.slow" beside it
 * exists (so the test waits for an event, not a time).  Other templates,
 * and every mkstemp without GNN_SLOW_MKSTEMP, are plain mkstemp.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int
mkstemp(char *tmpl)
{
	static int (*real)(char *);
	const char *ms = getenv("GNN_SLOW_MKSTEMP");
	char mark[4096];
	int fd;

	if (!real)
		real = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
	size_t n = strlen(tmpl);
	int slow = ms && *ms && n >= 10 && strcmp(tmpl + n - 10, ".tmpXXXXXX") == 0;
	fd = real(tmpl);
	if (fd < 0 || !slow)
		return fd;
	snprintf(mark, sizeof mark, "%s.slow", tmpl);
	close(open(mark, O_WRONLY | O_CREAT, 0644));
	long t = atol(ms);
	struct timespec ts = { t / 1000, (t % 1000) * 1000000L };
	nanosleep(&ts, NULL); /* a signal's handler cuts it short */
	unlink(mark);
	return fd;
}
