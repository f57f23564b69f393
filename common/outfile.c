/*
 * outfile.c - output files never left half-written (see outfile.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

#define MAX_PENDING 16

static char *pending[MAX_PENDING];	/* temporary files to remove on death */

static void
remove_pending(void *arg)
{
	(void)arg;
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i])
			unlink(pending[i]);
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
