/*
 * outfile.h - output files that are never left half-written (the -o
 * contract): a regular file, or a path that does not exist yet, is written
 * as a temporary file PATH.tmpXXXXXX beside it and renamed over PATH only
 * when complete; if the program dies first (die(), an error exit through
 * err.c, or SIGINT, SIGTERM or SIGHUP where the program left their default
 * action), every temporary file still open is removed.  A device or a FIFO
 * (/dev/null, a named pipe) is written directly: renaming a file over it
 * would replace it (as root, /dev/null itself).
 *
 * Several outputs may be open at once (gcn-train's model and its
 * checkpoints).  Not thread-safe: open and commit from one thread.
 */
#ifndef GNN_OUTFILE_H
#define GNN_OUTFILE_H

/*
 * Open path for writing; returns the file descriptor, and in *tmp the
 * temporary path to pass to outfile_commit() (NULL when path is written
 * directly).  The new file gets mode 0666 less the umask.  Dies on failure.
 */
int outfile_open(const char *path, char **tmp);

/* Rename tmp over path and free tmp (nothing when tmp is NULL).  Call it
 * after the descriptor is closed without error.  Dies on failure. */
void outfile_commit(const char *path, char *tmp);

#endif
