/*
 * test_outfile.c - the -o contract (common/outfile.h): temporary and
 * rename for regular files, links kept, standard output through a link,
 * devices written directly, read-only files refused, modes kept, outputs
 * committed together, identity of paths, no output over an input.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

static char dir[4096];

static void
setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/outfile_testXXXXXX", t && *t ? t : "/tmp");
	cr_assert(mkdtemp(dir) != NULL);
	err_setprog("test_outfile");
}

static void
teardown(void)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

TestSuite(outfile, .init = setup, .fini = teardown);

static char *
at(const char *name)
{
	static char buf[4][4200];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
	return buf[k];
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

/* The first line of path, or "" */
static const char *
get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof buf, f))
			buf[0] = '\0';
		fclose(f);
	}
	return buf;
}

/* Write text to path through outfile and commit it. */
static void
write_out(const char *path, const char *text)
{
	char *tmp;
	int fd = outfile_open(path, &tmp);
	cr_assert(fd >= 0);
	cr_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	cr_assert(close(fd) == 0);
	outfile_commit(path, tmp);
}

/* The files of the test directory, as "a b c" (sorted by ls). */
static const char *
listing(void)
{
	static char buf[1024];
	char cmd[4300];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", dir);
	FILE *p = popen(cmd, "r");
	buf[0] = '\0';
	if (p) {
		if (!fgets(buf, sizeof buf, p))
			buf[0] = '\0';
		pclose(p);
	}
	return buf;
}

/* Run fn in a child with stderr to a file; its exit status. */
static int
child(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		int e = open(at("stderr.txt"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 2);
		fn();
		_exit(0);
	}
	int st;
	cr_assert(waitpid(pid, &st, 0) == pid);
	unlink(at("stderr.txt"));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Test(outfile, new_file_and_replaced_file)
{
	write_out(at("a"), "one\n");
	cr_assert_str_eq(get(at("a")), "one\n");
	write_out(at("a"), "two\n");
	cr_assert_str_eq(get(at("a")), "two\n");
	cr_assert_str_eq(listing(), "a ");
}

Test(outfile, replaced_file_keeps_its_mode)
{
	struct stat st;
	put(at("a"), "old\n");
	chmod(at("a"), 0640);
	write_out(at("a"), "new\n");
	cr_assert(stat(at("a"), &st) == 0);
	cr_assert_eq(st.st_mode & 07777, 0640, "mode %o", (unsigned)(st.st_mode & 07777));
	cr_assert_str_eq(get(at("a")), "new\n");
}

static void
open_ro(void)
{
	char *tmp;
	outfile_open(at("ro"), &tmp);
}

Test(outfile, read_only_file_is_refused)
{
	put(at("ro"), "keep\n");
	chmod(at("ro"), 0444);
	cr_assert_eq(child(open_ro), 1);
	cr_assert_str_eq(get(at("ro")), "keep\n");
	cr_assert_str_eq(listing(), "ro ");
}

Test(outfile, link_to_a_file_stays_a_link)
{
	struct stat st;
	put(at("target"), "old\n");
	cr_assert(symlink("target", at("L")) == 0);
	write_out(at("L"), "new\n");
	cr_assert(lstat(at("L"), &st) == 0 && S_ISLNK(st.st_mode), "L is no longer a link");
	cr_assert_str_eq(get(at("target")), "new\n");
	/* a link to a file not there yet creates that file */
	cr_assert(symlink("sub/new", at("D")) == 0 && mkdir(at("sub"), 0755) == 0);
	write_out(at("D"), "made\n");
	cr_assert(lstat(at("D"), &st) == 0 && S_ISLNK(st.st_mode));
	cr_assert_str_eq(get(at("sub/new")), "made\n");
	cr_assert_str_eq(listing(), "D L sub target ");
}

/* stdout redirected to a file; -o a link to /proc/self/fd/1 */
static void
via_stdout(void)
{
	int fd = open(at("real"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	if (write(1, "head\n", 5) != 5)
		_exit(3);
	write_out(at("L"), "data\n");
}

Test(outfile, link_to_standard_output_writes_through_it)
{
	struct stat st;
	cr_assert(symlink("/proc/self/fd/1", at("L")) == 0);
	cr_assert_eq(child(via_stdout), 0);
	cr_assert(lstat(at("L"), &st) == 0 && S_ISLNK(st.st_mode), "L is no longer a link");
	/* written after what the shell had written: the same descriptor */
	FILE *f = fopen(at("real"), "r");
	char buf[64] = "";
	cr_assert(f && fread(buf, 1, sizeof buf - 1, f) == 10);
	fclose(f);
	cr_assert_str_eq(buf, "head\ndata\n");
}

Test(outfile, device_is_written_directly)
{
	struct stat st;
	cr_assert(symlink("/dev/null", at("N")) == 0);
	write_out(at("N"), "x\n");
	write_out("/dev/null", "x\n");
	cr_assert(lstat(at("N"), &st) == 0 && S_ISLNK(st.st_mode));
	cr_assert(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
	cr_assert_str_eq(listing(), "N ");
}

Test(outfile, held_commits_wait_for_release)
{
	put(at("a"), "old a\n");
	outfile_hold();
	write_out(at("a"), "new a\n");
	write_out(at("b"), "new b\n");
	cr_assert_str_eq(get(at("a")), "old a\n", "replaced before outfile_release()");
	cr_assert(access(at("b"), F_OK) != 0);
	outfile_release();
	cr_assert_str_eq(get(at("a")), "new a\n");
	cr_assert_str_eq(get(at("b")), "new b\n");
	cr_assert_str_eq(listing(), "a b ");
}

/* the first output complete, the second fails: die() */
static void
second_fails(void)
{
	outfile_hold();
	write_out(at("a"), "new a\n");
	write_out(at("nodir/b"), "new b\n");
	outfile_release();
}

Test(outfile, a_failing_output_keeps_the_other)
{
	put(at("a"), "old a\n");
	cr_assert_eq(child(second_fails), 1);
	cr_assert_str_eq(get(at("a")), "old a\n");
	cr_assert_str_eq(listing(), "a ");
}

static void
check_nodir(void)
{
	outfile_check(at("nodir/x"));
}

Test(outfile, check_up_front)
{
	outfile_check(at("x"));
	put(at("ro"), "keep\n");
	chmod(at("ro"), 0644);
	outfile_check(at("ro"));
	cr_assert_str_eq(listing(), "ro ", "outfile_check() left something");
	cr_assert_eq(child(check_nodir), 1);
	chmod(at("ro"), 0444);
	cr_assert_eq(child(open_ro), 1);
}

Test(outfile, same_file)
{
	put(at("a"), "a\n");
	cr_assert(symlink("a", at("La")) == 0 && link(at("a"), at("Ha")) == 0);
	cr_assert(symlink("new", at("Ln")) == 0);
	cr_assert(outfile_same(at("a"), at("La")));
	cr_assert(outfile_same(at("Ha"), at("La")));
	cr_assert(!outfile_same(at("a"), at("b")));
	cr_assert(outfile_same(at("b"), at("./b")), "the same name, not there yet");
	cr_assert(outfile_same(at("new"), at("Ln")), "a dangling link is the name it leads to");
	cr_assert(!outfile_same(at("b"), at("c")));
	cr_assert(outfile_same("nodir/x", "nodir/x"));
	cr_assert(!outfile_same("nodir/x", "nodir/y"));
	/* two outputs may share a character device, not a file */
	cr_assert(outfile_same("/dev/null", "/dev/null") &&
		  !outfile_clash("/dev/null", "/dev/null"));
	cr_assert(outfile_clash(at("La"), at("a")));
}

/* An output never replaces an input: by identity, whichever opens first. */
static void
input_then_hard_link_output(void)
{
	char *tmp;
	outfile_input_path(at("a"));
	outfile_open(at("Ha"), &tmp);
}

static void
symlink_output_then_input(void)
{
	char *tmp;
	outfile_open(at("La"), &tmp);
	outfile_input_path(at("a"));
}

static void
stdin_then_output(void)
{
	char *tmp;
	int fd = open(at("a"), O_RDONLY);
	dup2(fd, 0);
	outfile_input_fd(0, NULL);
	outfile_open(at("a"), &tmp);
}

static void
exempt_then_committed(void)
{
	char *tmp;
	outfile_may_replace(at("a"));
	outfile_input_path(at("a"));
	close(outfile_open(at("a"), &tmp)); /* --checkpoint over --resume */
	outfile_commit(at("a"), tmp);
	close(outfile_open(at("b"), &tmp));
	outfile_commit(at("b"), tmp);
	outfile_input_path(at("b")); /* the new b, read after: another file */
	outfile_input_path(at("c"));
	outfile_input_path("/dev/null"); /* a device is never replaced */
	close(outfile_open("/dev/null", &tmp));
}

Test(outfile, output_never_replaces_an_input)
{
	put(at("a"), "a\n");
	put(at("b"), "b\n");
	put(at("c"), "c\n");
	cr_assert(symlink("a", at("La")) == 0 && link(at("a"), at("Ha")) == 0);
	cr_assert_eq(child(input_then_hard_link_output), 2);
	cr_assert_eq(child(symlink_output_then_input), 2);
	cr_assert_eq(child(stdin_then_output), 2);
	cr_assert_str_eq(get(at("a")), "a\n");
	cr_assert_str_eq(listing(), "Ha La a b c ", "a refused output left something");
	cr_assert_eq(child(exempt_then_committed), 0);
}
