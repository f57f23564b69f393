/*
 * outfile.c - output files never left half-written (see outfile.h).
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

#define MAX_PENDING 16

/* temporary files to remove on death; read by the signal handler */
static char *volatile pending[MAX_PENDING];

static void
remove_pending(void *arg)
{
	(void)arg;
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i])
			unlink(pending[i]);
}

/* Killed (SIGINT, SIGTERM, SIGHUP): remove the temporary files, then die
 * of the signal as the default action would.  unlink, signal and raise are
 * async-signal-safe. */
static void
on_fatal_signal(int sig)
{
	remove_pending(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Install on_fatal_signal where the program left the default action (a
 * program with its own handler, like gcn-train's graceful stop, keeps it;
 * an ignored signal stays ignored). */
static void
catch_fatal_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old, sa;
		if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

int
outfile_open(const char *path, char **tmp)
{
	struct stat st;
	int fd, slot;

	*tmp = NULL;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY);
		if (fd < 0)
			die("%s:", path);
		return fd;
	}
	for (slot = 0; slot < MAX_PENDING && pending[slot]; slot++)
		;
	if (slot == MAX_PENDING)
		die("%s: too many output files open at once", path);
	size_t n = strlen(path) + 16;
	mode_t um = umask(0);
	umask(um);
	*tmp = xmalloc(n);
	snprintf(*tmp, n, "%s.tmpXXXXXX", path);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
		die("%s:", path);
	}
	fchmod(fd, 0666 & ~um);
	pending[slot] = *tmp;
	err_atexit(remove_pending, NULL);
	catch_fatal_signals();
	return fd;
}

void
outfile_commit(const char *path, char *tmp)
{
	if (!tmp)
		return;
	if (rename(tmp, path) != 0)
		die("%s: cannot rename %s into place:", path, tmp);
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
	free(tmp);
}
