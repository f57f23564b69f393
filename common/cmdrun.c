/* cmdrun.c - a command that lives and dies with its program; see cmdrun.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmdrun.h"
#include "err.h"
#include "progress.h"

extern char **environ;

/* The signals passed on to the command. */
static const int fwd_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NFWD ((int)(sizeof fwd_sigs / sizeof fwd_sigs[0]))

/* The command running, for the signal handler and for atexit: its process
 * group (0: none), the signal the program got, the helper's wake-up pipe. */
static volatile sig_atomic_t run_pg, got_sig, wake_fd = -1;

/* The helper's escalation: running; ending (cmdrun_end: SIGTERM at the
 * deadline); SIGTERM or a signal sent (SIGKILL at the deadline); killed. */
enum { ST_RUN, ST_ENDING, ST_TERM, ST_KILLED };

#define TICK_MS 100	/* the helper looks at the shell's exit this often */
#define RELAY_BUF 65536 /* bytes of standard output in the relay at a time */
#define LEFT_MAX 400	/* bytes of the description of what was left */

struct watch {
	pthread_t th;
	int err_fd, wake_r, wake_w;
	/* the relay: out_r the command's standard output (non-blocking),
	 * relay_w the pipe the caller reads (non-blocking), buf[pos..len)
	 * read from one and not yet written to the other */
	int out_r, relay_w;
	char *buf;
	size_t pos, len;
	ino_t out_ino, err_ino; /* the command's two pipes, for hunt() */
	pid_t pg;
	int stage;	 /* ST_x */
	double deadline; /* monotonic seconds of the next step, 0 = none */
	double eof_by;	 /* the shell is gone: its pipes end by then, 0 = not yet */
	int timed_out, ended, rest_killed, cut;
	char left[LEFT_MAX]; /* what held its pipes after it ended (hunt()) */
	char *ring;	     /* standard error, byte i at i % CMDRUN_ERR_KEEP */
	long long total;
	struct sigaction old[NFWD];
	int caught[NFWD];
};

/* Pass the signal on to the command's group and wake the helper, which
 * kills the group if it is still there after CMDRUN_GRACE.  kill and write
 * are async-signal-safe. */
static void
on_signal(int sig)
{
	int e = errno;
	pid_t pg = (pid_t)run_pg;

	got_sig = sig;
	if (pg > 0)
		kill(-pg, sig);
	if (wake_fd >= 0 && write(wake_fd, "s", 1) < 0) {
		/* the helper still has its tick */
	}
	errno = e;
}

/* A program leaving through exit() (die()) takes its command with it. */
static void
kill_on_exit(void)
{
	pid_t pg = (pid_t)run_pg;
	if (pg > 0)
		kill(-pg, SIGKILL);
}

static void
poke(struct watch *w, char c)
{
	while (write(w->wake_w, &c, 1) < 0 && errno == EINTR)
		;
}

/* Keep what the command wrote to standard error: the ring holds the last
 * CMDRUN_ERR_KEEP bytes.  Returns 0 at its end (EOF or an error). */
static int
drain_err(struct watch *w)
{
	char buf[16384];
	ssize_t k;

	while ((k = read(w->err_fd, buf, sizeof buf)) > 0) {
		for (ssize_t i = 0; i < k; i++)
			w->ring[(w->total + i) % CMDRUN_ERR_KEEP] = buf[i];
		w->total += k;
	}
	return k < 0 && (errno == EAGAIN || errno == EINTR);
}

/* Stop relaying: the caller gets the end of its input once the buffer is
 * written (or at once, drop set: it stopped reading). */
static void
close_out(struct watch *w, int drop)
{
	if (w->out_r >= 0)
		close(w->out_r);
	w->out_r = -1;
	if (drop || w->pos == w->len) {
		if (w->relay_w >= 0)
			close(w->relay_w);
		w->relay_w = -1;
		w->pos = w->len = 0;
	}
}

/*
 * Move the command's standard output to the caller's pipe, as far as
 * either lets us without waiting.  Its end (EOF), or what is readable
 * now once w->cut is set, ends the caller's input; the caller's end
 * closed (EPIPE: it stopped reading) ends ours, so that a command still
 * writing gets SIGPIPE.  SIGPIPE itself is blocked in this thread.
 */
static void
relay(struct watch *w)
{
	while (w->relay_w >= 0) {
		ssize_t k;
		if (w->pos < w->len) {
			k = write(w->relay_w, w->buf + w->pos, w->len - w->pos);
			if (k > 0)
				w->pos += (size_t)k;
			else if (k < 0 && errno == EAGAIN)
				return;
			else if (k < 0 && errno != EINTR)
				close_out(w, 1);
			continue;
		}
		w->pos = w->len = 0;
		if (w->out_r < 0) {
			close_out(w, 0);
			return;
		}
		k = read(w->out_r, w->buf, RELAY_BUF);
		if (k > 0)
			w->len = (size_t)k;
		else if (k < 0 && errno == EAGAIN && !w->cut)
			return;
		else if (k == 0 || errno != EINTR)
			close_out(w, 0); /* its end, or all we take */
	}
}

/* Whether /proc/PID/fd holds one of the command's pipes. */
static int
holds_pipe(const char *pid, const struct watch *w)
{
	char path[300], link[64], want[2][40];
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(want[0], sizeof want[0], "pipe:[%llu]", (unsigned long long)w->out_ino);
	snprintf(want[1], sizeof want[1], "pipe:[%llu]", (unsigned long long)w->err_ino);
	snprintf(path, sizeof path, "/proc/%s/fd", pid);
	if (!(d = opendir(path)))
		return 0; /* gone, or another user's */
	while (!found && (e = readdir(d))) {
		char fd[300 + 256];
		ssize_t n;
		snprintf(fd, sizeof fd, "%s/%s", path, e->d_name);
		if ((n = readlink(fd, link, sizeof link - 1)) <= 0)
			continue;
		link[n] = '\0';
		found = strcmp(link, want[0]) == 0 || strcmp(link, want[1]) == 0;
	}
	closedir(d);
	return found;
}

/*
 * The shell is gone and its group killed, yet its pipes have not ended:
 * something it started left the group (setsid, a daemon) and holds them.
 * Find the processes that hold them (/proc/PID/fd), kill those outside
 * the group (the group's own are dying of its SIGKILL), and say which in
 * w->left; then stop reading (w->cut), whatever is left.
 * Time complexity: O(open files of the user's processes), once.
 */
static void
hunt(struct watch *w)
{
	size_t n = 0;
	struct dirent *e;
	DIR *d = opendir("/proc");

	w->cut = 1;
	while (d && (e = readdir(d))) {
		char path[300], stat[512], comm[64] = "?";
		long pid = strtol(e->d_name, NULL, 10);
		int pgrp = 0;
		FILE *f;
		if (pid <= 0 || pid == (long)getpid() || !holds_pipe(e->d_name, w))
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if ((f = fopen(path, "r"))) {
			if (fgets(stat, sizeof stat, f)) {
				char *l = strchr(stat, '('), *r = strrchr(stat, ')');
				if (l && r && r > l) {
					snprintf(comm, sizeof comm, "%.*s", (int)(r - l - 1),
						 l + 1);
					sscanf(r + 1, " %*c %*d %d", &pgrp);
				}
			}
			fclose(f);
		}
		if (pgrp == (int)w->pg)
			continue;
		int killed = kill((pid_t)pid, SIGKILL) == 0;
		if (n < sizeof w->left)
			n += (size_t)snprintf(w->left + n, sizeof w->left - n, "%spid %ld (%s), %s",
					      n ? "; " : "", pid, comm,
					      killed ? "killed" : strerror(errno));
	}
	if (d)
		closedir(d);
	if (!w->left[0])
		snprintf(w->left, sizeof w->left, "a process not found in /proc, left running");
	err_one_line(w->left);
}

/* The next step once the deadline has passed: a timeout or the caller's
 * end sends SIGTERM; SIGTERM (or a signal passed on) unheeded, SIGKILL. */
static void
escalate(struct watch *w)
{
	if (w->stage == ST_RUN || w->stage == ST_ENDING) {
		if (w->stage == ST_RUN)
			w->timed_out = 1;
		else
			w->ended = 1;
		kill(-w->pg, SIGTERM);
		w->stage = ST_TERM;
		w->deadline = progress_now() + CMDRUN_GRACE;
	} else if (w->stage == ST_TERM) {
		kill(-w->pg, SIGKILL);
		w->stage = ST_KILLED;
		w->deadline = 0;
	}
}

/* The caller's and the signal handler's word: 'e' end, 's' a signal was
 * passed on, 'd' done.  Returns 1 on 'd'. */
static int
take_word(struct watch *w)
{
	char c[64];
	ssize_t k = read(w->wake_r, c, sizeof c);
	int done = 0;

	for (ssize_t i = 0; i < k; i++) {
		if (c[i] == 'd')
			done = 1;
		else if (c[i] == 'e' && w->stage == ST_RUN) {
			w->stage = ST_ENDING;
			w->deadline = progress_now() + CMDRUN_END_GRACE;
		} else if (c[i] == 's' && w->stage < ST_TERM) {
			w->stage = ST_TERM;
			w->deadline = progress_now() + CMDRUN_GRACE;
		}
	}
	return done;
}

/* The helper thread: relays standard output, drains standard error,
 * keeps the deadlines, and kills what the shell leaves in its group when
 * it exits.  It ends on the caller's word ('d'), once the pipes have
 * ended or been given up (hunt()). */
static void *
watch_main(void *arg)
{
	struct watch *w = arg;
	int done = 0;

	while (!done || (w->eof_by > 0 && !w->cut && (w->err_fd >= 0 || w->out_r >= 0))) {
		struct pollfd pf[3] = { { w->err_fd, POLLIN, 0 },
					{ w->wake_r, POLLIN, 0 },
					{ -1, 0, 0 } };
		int tmo = TICK_MS;
		double next = w->deadline;
		siginfo_t si;

		if (w->relay_w >= 0 && w->pos < w->len)
			pf[2] = (struct pollfd){ w->relay_w, POLLOUT, 0 };
		else if (w->out_r >= 0)
			pf[2] = (struct pollfd){ w->out_r, POLLIN, 0 };
		if (w->eof_by > 0 && !w->cut && (next == 0 || w->eof_by < next))
			next = w->eof_by;
		if (next > 0) {
			double left = next - progress_now();
			if (left * 1000 < tmo)
				tmo = left <= 0 ? 0 : (int)(left * 1000) + 1;
		}
		if (poll(pf, 3, tmo) < 0)
			continue; /* EINTR */
		if (pf[0].revents && !drain_err(w)) {
			close(w->err_fd);
			w->err_fd = -1; /* poll ignores it from now on */
		}
		if (pf[1].revents)
			done |= take_word(w);
		relay(w);
		si.si_pid = 0;
		if (!w->rest_killed &&
		    waitid(P_PID, (id_t)w->pg, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == w->pg) {
			/* the shell is a zombie until reaped, so the group id is
			 * still its own */
			kill(-w->pg, SIGKILL);
			w->rest_killed = 1;
			w->eof_by = progress_now() + CMDRUN_END_GRACE;
		}
		if (w->eof_by > 0 && !w->cut && (w->err_fd >= 0 || w->out_r >= 0) &&
		    progress_now() >= w->eof_by) {
			hunt(w);
			relay(w); /* what the pipe holds now, then the caller's end */
		}
		if (w->deadline > 0 && progress_now() >= w->deadline)
			escalate(w);
	}
	if (w->err_fd >= 0)
		drain_err(w); /* what is left in the pipe (non-blocking) */
	close_out(w, 1);
	return NULL;
}

/* Put back the program's own signal actions. */
static void
restore_signals(struct watch *w)
{
	for (int i = 0; i < NFWD; i++)
		if (w->caught[i])
			sigaction(fwd_sigs[i], &w->old[i], NULL);
	wake_fd = -1;
}

/* Pass SIGINT, SIGTERM, SIGHUP on while the command runs, where the
 * program does not ignore them. */
static void
catch_signals(struct watch *w)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NFWD; i++) {
		w->caught[i] = 0;
		if (sigaction(fwd_sigs[i], NULL, &w->old[i]) != 0 ||
		    w->old[i].sa_handler == SIG_IGN)
			continue;
		sigaction(fwd_sigs[i], &sa, NULL);
		w->caught[i] = 1;
	}
}

/* A pipe whose ends the command does not inherit (but as the descriptors
 * spawn() gives it). */
static int
cloexec_pipe(int p[2])
{
	if (pipe(p) != 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* posix_spawn of sh -c cmd in a new process group; 0 or an errno. */
static int
spawn(pid_t *pid, const char *cmd, int in_fd, int out_fd, int err_fd)
{
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, def;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE); /* `yes | head` works as in a shell */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					  POSIX_SPAWN_SETSIGDEF);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	rc = posix_spawn(pid, "/bin/sh", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

int
cmdrun_start(struct cmdrun *cr, const char *cmd, int in_fd, double timeout, char *msg,
	     size_t msglen)
{
	static int registered;
	int outp[2], errp[2], wakep[2], relp[2], rc;
	struct watch *w;
	struct stat st;
	sigset_t block, prev;
	pid_t pid;

	memset(cr, 0, sizeof *cr);
	cr->out = -1;
	if (cloexec_pipe(outp) != 0 || cloexec_pipe(errp) != 0 || cloexec_pipe(wakep) != 0 ||
	    cloexec_pipe(relp) != 0)
		die("pipe:");
	if (!registered++)
		atexit(kill_on_exit);
	fcntl(errp[0], F_SETFL, O_NONBLOCK);
	fcntl(outp[0], F_SETFL, O_NONBLOCK);
	fcntl(relp[1], F_SETFL, O_NONBLOCK);
	w = xcalloc(1, sizeof *w);
	w->ring = xmalloc(CMDRUN_ERR_KEEP);
	w->buf = xmalloc(RELAY_BUF);
	w->out_r = outp[0];
	w->relay_w = relp[1];
	w->out_ino = fstat(outp[0], &st) == 0 ? st.st_ino : 0;
	w->err_ino = fstat(errp[0], &st) == 0 ? st.st_ino : 0;
	w->err_fd = errp[0];
	w->wake_r = wakep[0];
	w->wake_w = wakep[1];
	w->stage = ST_RUN;
	w->deadline = timeout > 0 ? progress_now() + timeout : 0;
	cr->priv = w;
	cr->timeout = timeout;

	/* the helper thread starts with these blocked: the handler runs on
	 * another thread; and SIGPIPE, which a write to the caller's closed
	 * pipe would raise (the helper takes EPIPE) */
	sigemptyset(&block);
	for (int i = 0; i < NFWD; i++)
		sigaddset(&block, fwd_sigs[i]);
	sigaddset(&block, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &block, &prev);
	got_sig = 0;
	wake_fd = wakep[1];
	catch_signals(w);
	rc = spawn(&pid, cmd, in_fd, outp[1], errp[1]);
	close(outp[1]);
	close(errp[1]);
	if (rc != 0) {
		restore_signals(w);
		pthread_sigmask(SIG_SETMASK, &prev, NULL);
		close(outp[0]);
		close(errp[0]);
		close(wakep[0]);
		close(wakep[1]);
		close(relp[0]);
		close(relp[1]);
		free(w->buf);
		free(w->ring);
		free(w);
		cr->priv = NULL;
		snprintf(msg, msglen, "cannot run /bin/sh: %s", strerror(rc));
		if (got_sig)
			raise(got_sig);
		return -1;
	}
	run_pg = pid;
	w->pg = pid;
	if (pthread_create(&w->th, NULL, watch_main, w) != 0) {
		kill(-pid, SIGKILL);
		die("cannot start a thread:");
	}
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (got_sig) /* it came before the group was known */
		kill(-pid, got_sig);
	cr->pid = pid;
	cr->out = relp[0];
	return 0;
}

void
cmdrun_end(struct cmdrun *cr)
{
	if (cr->priv)
		poke(cr->priv, 'e');
}

/* The kept standard error in order, into cr->err. */
static void
take_err(struct cmdrun *cr, const struct watch *w)
{
	size_t keep = w->total < CMDRUN_ERR_KEEP ? (size_t)w->total : CMDRUN_ERR_KEEP;
	long long first = w->total - (long long)keep;

	cr->err = xmalloc(keep + 1);
	for (size_t i = 0; i < keep; i++)
		cr->err[i] = w->ring[(first + (long long)i) % CMDRUN_ERR_KEEP];
	cr->err[keep] = '\0';
	cr->err_len = keep;
	cr->err_total = w->total;
}

void
cmdrun_wait(struct cmdrun *cr)
{
	struct watch *w = cr->priv;
	siginfo_t si;

	while (waitid(P_PID, (id_t)cr->pid, &si, WEXITED | WNOWAIT) != 0)
		if (errno != EINTR)
			die("waitid:");
	kill(-cr->pid, SIGKILL); /* what it left running in its group */
	poke(w, 'd');
	pthread_join(w->th, NULL);
	while (waitpid(cr->pid, &cr->status, 0) < 0)
		if (errno != EINTR)
			die("waitpid:");
	run_pg = 0;
	restore_signals(w);
	close(w->wake_r);
	close(w->wake_w);
	if (w->err_fd >= 0)
		close(w->err_fd);
	cr->sig = got_sig;
	cr->how = cr->sig	 ? CMDRUN_INTERRUPTED
		  : w->timed_out ? CMDRUN_TIMEOUT
		  : w->ended	 ? CMDRUN_ENDED
				 : CMDRUN_EXITED;
	take_err(cr, w);
	cr->left = w->left[0] ? xstrdup(w->left) : NULL;
	free(w->buf);
	free(w->ring);
	free(w);
	cr->priv = NULL;
}

void
cmdrun_raise(const struct cmdrun *cr)
{
	if (cr->how == CMDRUN_INTERRUPTED && cr->sig > 0)
		raise(cr->sig);
}

void
cmdrun_free(struct cmdrun *cr)
{
	free(cr->err);
	free(cr->left);
	cr->err = NULL;
	cr->left = NULL;
}

int
cmdrun_tmpfile(const char *what, int keep, char **path)
{
	const char *dir = getenv("TMPDIR");
	size_t n;
	char *p;
	int fd, e;

	if (!dir || !*dir)
		dir = "/tmp";
	n = strlen(dir) + strlen(what) + 24;
	p = xmalloc(n);
	snprintf(p, n, "%s/gnnpipe-%s-XXXXXX", dir, what);
	fd = mkstemp(p);
	e = errno;
	if (fd >= 0)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (fd >= 0 && !keep)
		unlink(p);
	if (fd >= 0 && keep)
		*path = p;
	else
		free(p);
	errno = e;
	return fd;
}
