/*
 * test_featcmd.c - a feature command: which command lines are the built-in
 * sets (featcmd_builtin), and the child that lives and dies with its
 * program (cmdrun.h): its standard error's kept tail, its timeout, its
 * end, what it leaves in its group.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cmdrun.h"
#include "featcmd.h"

static const char *
builtin(const char *cmd)
{
	const char *s = featcmd_builtin(cmd);
	return s ? s : "(command)";
}

Test(featcmd, builtin_invocations)
{
	cr_expect_str_eq(builtin("nodefeat"), "paper");
	cr_expect_str_eq(builtin("nodefeat -q"), "paper");
	cr_expect_str_eq(builtin("  nodefeat\t--quiet  "), "paper");
	cr_expect_str_eq(builtin("nodefeat --set paper"), "paper");
	cr_expect_str_eq(builtin("nodefeat -q --set rwse"), "rwse");
	cr_expect_str_eq(builtin("nodefeat --set rwse -q"), "rwse");
	cr_expect_str_eq(builtin("nodefeat --set=rwse"), "rwse");
	cr_expect_str_eq(builtin("nodefeat --set rwse --set paper"), "paper"); /* the last */
	/* threads change no value; --scale both is the built-in seven */
	cr_expect_str_eq(builtin("nodefeat -j 1"), "paper");
	cr_expect_str_eq(builtin("nodefeat -j2 --threads 8 --threads=3 -q"), "paper");
	cr_expect_str_eq(builtin("nodefeat -q -j 2 --set rwse"), "rwse");
	cr_expect_str_eq(builtin("nodefeat -q -j 2 --scale both"), "both");
	cr_expect_str_eq(builtin("nodefeat --scale=both --set paper"), "both");
	cr_expect_str_eq(builtin("nodefeat --scale both --scale minmax"), "paper"); /* the last */
}

Test(featcmd, commands_are_not_builtin)
{
	static const char *const cmds[] = {
		"",
		"   ",
		"nodefeat --set",
		"nodefeat --set foo",
		"nodefeat --set=",
		"nodefeat -j 0",
		"nodefeat -j",
		"nodefeat -j x",
		"nodefeat -j 2x",
		"nodefeat -j 1000000",
		"nodefeat --threads",
		"nodefeat -jq",
		"nodefeat -q --set rwse --rw-steps 8",
		"nodefeat --scale log",
		"nodefeat --scale",
		"nodefeat --scale=",
		"nodefeat --scale both --set rwse",
		"nodefeat --set refex --scale both",
		"nodefeat --scale both --tsv",
		"nodefeat --scale both -l 1",
		"--scale both nodefeat",
		"-j 2 nodefeat",
		"/usr/bin/nodefeat",
		"./nodefeat",
		"nodefeat | cat",
		"nodefeat -q; touch x",
		"nodefeat -q --set rwse|cat",
		"nodefeat --se rwse",
		"nodefeatx",
		"-q nodefeat",
		"nodefeat\n-q",
		"nodefeat -qq",
		"NODEFEAT",
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		cr_expect(featcmd_builtin(cmds[i]) == NULL, "'%s' is not a built-in set", cmds[i]);
}

/* Run cmd with standard input /dev/null and its output read to the end;
 * the output (up to len bytes) into out. */
static void
run(struct cmdrun *cr, const char *cmd, double timeout, char *out, size_t len)
{
	char msg[256];
	FILE *in = fopen("/dev/null", "r");
	size_t at = 0;
	ssize_t k;

	cr_assert(in != NULL);
	cr_assert(cmdrun_start(cr, cmd, fileno(in), timeout, msg, sizeof msg) == 0, "%s", msg);
	fclose(in);
	while (at + 1 < len && (k = read(cr->out, out + at, len - 1 - at)) > 0)
		at += (size_t)k;
	out[at] = '\0';
	close(cr->out);
	cmdrun_wait(cr);
}

Test(cmdrun, exit_status_and_output)
{
	struct cmdrun cr;
	char out[64];

	run(&cr, "echo hello; exit 3", 0, out, sizeof out);
	cr_expect_str_eq(out, "hello\n");
	cr_expect(cr.how == CMDRUN_EXITED);
	cr_expect(WIFEXITED(cr.status) && WEXITSTATUS(cr.status) == 3);
	cr_expect(cr.err_len == 0 && cr.err_total == 0);
	cmdrun_free(&cr);
}

Test(cmdrun, stderr_keeps_its_last_bytes)
{
	struct cmdrun cr;
	char out[8], *want;
	size_t n = 0, cap = 1 << 20;

	/* seq 1 100000: 588895 bytes; the kept part is its last CMDRUN_ERR_KEEP */
	want = malloc(cap);
	for (int i = 1; i <= 100000; i++)
		n += (size_t)snprintf(want + n, cap - n, "%d\n", i);
	run(&cr, "seq 1 100000 >&2", 0, out, sizeof out);
	cr_expect(cr.err_total == (long long)n, "%lld bytes counted, want %zu", cr.err_total, n);
	cr_assert(cr.err_len == CMDRUN_ERR_KEEP);
	cr_expect(memcmp(cr.err, want + n - CMDRUN_ERR_KEEP, CMDRUN_ERR_KEEP) == 0,
		  "the kept bytes are the last ones, in order");
	cr_expect(cr.err[cr.err_len] == '\0');
	cmdrun_free(&cr);
	free(want);
}

Test(cmdrun, stderr_shorter_than_the_ring)
{
	struct cmdrun cr;
	char out[8];

	run(&cr, "printf 'a\\nb\\n' >&2", 0, out, sizeof out);
	cr_expect(cr.err_total == 4 && cr.err_len == 4);
	cr_expect_str_eq(cr.err, "a\nb\n");
	cmdrun_free(&cr);
}

/* A command the timeout ends, by the signal sig. */
static void
timed_out(const char *cmd, int sig)
{
	struct cmdrun cr;
	char out[8];

	run(&cr, cmd, 0.2, out, sizeof out);
	cr_expect(cr.how == CMDRUN_TIMEOUT, "'%s' timed out", cmd);
	cr_expect(WIFSIGNALED(cr.status) && WTERMSIG(cr.status) == sig, "'%s' ended by signal %d",
		  cmd, sig);
	cmdrun_free(&cr);
}

Test(cmdrun, timeout_ends_it)
{
	timed_out("sleep 1000", SIGTERM);
}

/* The command ignores SIGTERM from its start: it inherits the ignored
 * signal from this process (cmdrun keeps an ignored signal ignored).  A
 * trap set by the command's own shell could come after the 0.2 s timeout
 * on a loaded machine, and SIGTERM would end it. */
Test(cmdrun, timeout_kills_what_ignores_sigterm, .timeout = 60)
{
	signal(SIGTERM, SIG_IGN);
	timed_out("sleep 1000", SIGKILL);
	signal(SIGTERM, SIG_DFL);
}

Test(cmdrun, end_after_grace, .timeout = 60)
{
	struct cmdrun cr;
	char msg[256];
	FILE *in = fopen("/dev/null", "r");

	cr_assert(cmdrun_start(&cr, "sleep 1000", fileno(in), 0, msg, sizeof msg) == 0);
	fclose(in);
	close(cr.out);
	cmdrun_end(&cr);
	cmdrun_wait(&cr);
	cr_expect(cr.how == CMDRUN_ENDED);
	cr_expect(WIFSIGNALED(cr.status) && WTERMSIG(cr.status) == SIGTERM);
	cmdrun_free(&cr);
}

/* A command that has exited when its end is asked is not counted as ended:
 * the test waits for its exit first (a zombie until cmdrun_wait reaps it),
 * as a loaded machine may take longer than the grace to start a shell. */
Test(cmdrun, exits_in_the_grace)
{
	struct cmdrun cr;
	char msg[256];
	FILE *in = fopen("/dev/null", "r");
	siginfo_t si;

	cr_assert(cmdrun_start(&cr, "exit 7", fileno(in), 0, msg, sizeof msg) == 0);
	fclose(in);
	close(cr.out);
	while (waitid(P_PID, (id_t)cr.pid, &si, WEXITED | WNOWAIT) != 0)
		cr_assert(errno == EINTR, "waitid: %s", strerror(errno));
	cmdrun_end(&cr);
	cmdrun_wait(&cr);
	cr_expect(cr.how == CMDRUN_EXITED, "it exited by itself before the grace ran out");
	cr_expect(WIFEXITED(cr.status) && WEXITSTATUS(cr.status) == 7);
	cmdrun_free(&cr);
}

Test(cmdrun, what_it_leaves_is_killed, .timeout = 120)
{
	struct cmdrun cr;
	char out[64];
	pid_t bg;
	int gone = 0;

	/* a job sent to the background, its output elsewhere: the shell exits,
	 * the job would live on */
	run(&cr, "sleep 1000 >/dev/null 2>&1 & echo $!", 0, out, sizeof out);
	bg = (pid_t)atol(out);
	cr_assert(bg > 0, "the job's pid: '%s'", out);
	for (int i = 0; i < 6000 && !gone; i++) { /* init reaps it (60 s at most) */
		struct timespec ts = { 0, 10000000 };
		gone = kill(bg, 0) != 0 && errno == ESRCH;
		nanosleep(&ts, NULL);
	}
	if (!gone)
		kill(bg, SIGKILL);
	cr_expect(gone, "the background job %d outlived the command", (int)bg);
	cmdrun_free(&cr);
}

Test(cmdrun, tmpfile_in_tmpdir)
{
	char dir[] = "/tmp/featcmd-test-XXXXXX", *path = NULL;
	int fd;

	cr_assert(mkdtemp(dir) != NULL);
	setenv("TMPDIR", dir, 1);
	fd = cmdrun_tmpfile("x", 1, &path);
	cr_assert(fd >= 0);
	cr_expect(strncmp(path, dir, strlen(dir)) == 0 && strstr(path, "/gnnpipe-x-"),
		  "%s is in %s", path, dir);
	close(fd);
	unlink(path);
	free(path);
	fd = cmdrun_tmpfile("x", 0, NULL);
	cr_expect(fd >= 0);
	close(fd);
	cr_expect(rmdir(dir) == 0, "the file without keep is gone at once");
	setenv("TMPDIR", "/nonexistent-featcmd-test", 1);
	cr_expect(cmdrun_tmpfile("x", 0, NULL) < 0 && errno == ENOENT);
	unsetenv("TMPDIR");
}
