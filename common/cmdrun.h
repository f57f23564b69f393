/*
 * cmdrun.h - a shell command run as a child that lives and dies with its
 * program: `/bin/sh -c COMMAND` in a process group of its own, so that a
 * signal reaches all it started (a pipeline, a script's children) and
 * nothing it started outlives it.
 *
 * While it runs:
 *   - SIGINT, SIGTERM and SIGHUP that the program gets (and does not
 *     ignore) are passed on to its group; after CMDRUN_GRACE seconds the
 *     group gets SIGKILL.  Once the command is ended, the program's own
 *     action for the signal is restored and the signal raised again
 *     (cmdrun_raise): a program that dies of it dies then, having ended
 *     its child; one that only notes it (gcn-train's graceful stop) goes
 *     on, knowing the command was cut short.
 *   - a timeout (seconds, 0 = none) ends it: SIGTERM to the group, then
 *     SIGKILL after CMDRUN_GRACE.
 *   - its standard error goes to a pipe that a helper thread drains, keeping
 *     the last CMDRUN_ERR_KEEP bytes: a command that writes gigabytes to
 *     standard error costs that much memory, no more, and no disk.
 *   - when the shell exits, whatever it left running in its group (a job
 *     sent to the background) is killed, so that its standard output ends.
 *   - its standard output is relayed by the helper thread to the pipe the
 *     caller reads (cr->out), so that the caller's input ends when the
 *     command's does, or CMDRUN_END_GRACE seconds after the shell has
 *     exited or been killed, whichever comes first: a process that left
 *     the group (setsid, a daemon) and holds its pipes open cannot keep
 *     the program waiting, past its timeout or its signal.  Such
 *     processes are then found (the holders of its pipes in /proc),
 *     killed, and named in cr->left.
 * Its standard input is a descriptor of the caller's.  SIGPIPE has its default action in
 * the command, whatever the program's.
 *
 * Ownership: cmdrun_start() fills a struct cmdrun; cmdrun_wait() reaps the
 * command, restores the signal actions and hands over its standard error
 * (cr->err), which cmdrun_free() releases.  cr->out belongs to the caller,
 * who closes it.  One command at a time in a process, started and waited
 * for by one thread.  A program that exits (die()) while a command runs
 * kills its group on the way out (atexit).
 */
#ifndef GNN_CMDRUN_H
#define GNN_CMDRUN_H

#include <stddef.h>
#include <sys/types.h>

#define CMDRUN_ERR_KEEP (64 * 1024) /* bytes of standard error kept */
#define CMDRUN_GRACE 3.0	    /* seconds from SIGTERM to SIGKILL */
#define CMDRUN_END_GRACE 1.0	    /* seconds to exit by itself after cmdrun_end() */

/* How the command ended (cr->how, set by cmdrun_wait). */
enum {
	CMDRUN_EXITED = 0,  /* by itself: see cr->status */
	CMDRUN_TIMEOUT,	    /* the timeout ended it */
	CMDRUN_INTERRUPTED, /* the program got cr->sig, which ended it */
	CMDRUN_ENDED	    /* the caller ended it (cmdrun_end) */
};

struct cmdrun {
	pid_t pid;	/* the shell, leader of its process group */
	int out;	/* read end of its standard output (the caller's) */
	double timeout; /* seconds, 0 = none */
	/* set by cmdrun_wait(): */
	int status; /* the shell's wait status */
	int how;    /* CMDRUN_x */
	int sig;    /* CMDRUN_INTERRUPTED: the signal */
	char *err;  /* the last err_len bytes of its standard error, NUL-ended */
	size_t err_len;
	long long err_total; /* bytes it wrote to standard error */
	/* NULL, or what held its pipes open after it ended, outside its
	 * group, and what became of it: "pid 42 (sleep), killed" (one line,
	 * entries separated by "; ") */
	char *left;
	void *priv;
};

/*
 * Start `/bin/sh -c cmd` with standard input in_fd (still the caller's to
 * close) and the given timeout.  Returns 0, or -1 with msg (no shell, out
 * of processes).  Dies if a pipe or a thread cannot be made.
 * Time: O(1) (a spawn, a thread).
 */
int cmdrun_start(struct cmdrun *cr, const char *cmd, int in_fd, double timeout, char *msg,
		 size_t msglen);

/*
 * The caller stopped reading (its output was bad): let the command exit by
 * itself for CMDRUN_END_GRACE seconds, then SIGTERM, then SIGKILL.  Its end
 * is then CMDRUN_ENDED unless it exited in the grace.
 */
void cmdrun_end(struct cmdrun *cr);

/*
 * Wait for the shell to exit, kill what it left in its group, reap it,
 * restore the signal actions, and fill status, how, sig and err.  Close
 * cr->out first, or read it to its end: a command blocked writing to it
 * never exits (the timeout excepted).
 */
void cmdrun_wait(struct cmdrun *cr);

/* If a signal ended the command (CMDRUN_INTERRUPTED), raise it again now
 * that the program's own action is back; it may not return. */
void cmdrun_raise(const struct cmdrun *cr);

void cmdrun_free(struct cmdrun *cr);

/*
 * A new temporary file in $TMPDIR (or /tmp when unset or empty), named
 * gnnpipe-WHAT-XXXXXX, mode 0600; unlinked at once when keep is 0, else its
 * name (allocated) goes to *path.  Returns the descriptor, or -1 (errno).
 */
int cmdrun_tmpfile(const char *what, int keep, char **path);

#endif
