/*
 * outfile.c - output files never left half-written (see outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "outfile.h"

#define MAX_PENDING 16
#define MAX_LINKS 40 /* as the kernel's limit (path_resolution(7)) */

/* temporary files to remove on death; read by the signal handler */
static char *volatile pending[MAX_PENDING];
/* the file each one replaces, and whether its rename waits for
 * outfile_release() */
static char *target[MAX_PENDING];
static int waiting[MAX_PENDING];
static int held;

/* A file by identity (outfile_input_fd()): the files read, and the files
 * open outputs replace (slot: their outfile_open() slot, -1 for one
 * written in place). */
struct ident {
	dev_t dev;
	ino_t ino;
	int slot;
	char *name;
};
static struct ident *reads, *writes;
static int nreads, nwrites;
static struct ident exempt = { 0, 0, -2, NULL }; /* slot -2: none */

/* How a path is written (plan()). */
enum { BY_RENAME, DIRECT, DIRECT_TRUNC, VIA_STDOUT };
struct plan {
	int how;
	char *target; /* BY_RENAME: the file replaced or created (allocated) */
	int exists;   /* it exists, with st */
	struct stat st;
};

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

/*
 * The name a chain of symbolic links starting at path leads to: the first
 * name that is not a link, or does not exist (allocated); path itself when
 * it is no link.  A relative link is read from the link's directory, as
 * the kernel reads it.  NULL with errno set on a loop or an unreadable
 * link.
 */
static char *
link_end(const char *path)
{
	char *cur = xstrdup(path), buf[PATH_MAX];
	struct stat st;
	int e = ELOOP;

	for (int i = 0; i < MAX_LINKS; i++) {
		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		ssize_t n = readlink(cur, buf, sizeof buf - 1);
		if (n < 0) {
			e = errno;
			break;
		}
		buf[n] = '\0';
		char *slash = strrchr(cur, '/'), *next;
		if (buf[0] == '/' || !slash) {
			next = xstrdup(buf);
		} else {
			size_t d = (size_t)(slash - cur) + 1;
			next = xmalloc(d + (size_t)n + 1);
			memcpy(next, cur, d);
			memcpy(next + d, buf, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = e;
	return NULL;
}

/* Whether st is the file open as standard output. */
static int
is_stdout(const struct stat *st)
{
	struct stat so;
	return fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st->st_dev && so.st_ino == st->st_ino;
}

/* Where path leads when it is a symbolic link (outfile.h). */
static void
plan_link(const char *path, struct plan *p)
{
	struct stat st, ts;

	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			die("%s:", path);
		if (!(p->target = link_end(path))) /* dangling: create its file */
			die("%s:", path);
		return;
	}
	if (is_stdout(&st)) {
		p->how = VIA_STDOUT;
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		p->how = DIRECT;
		return;
	}
	if (!(p->target = link_end(path)))
		die("%s:", path);
	if (lstat(p->target, &ts) != 0 || ts.st_dev != st.st_dev || ts.st_ino != st.st_ino) {
		/* a link the kernel resolves by other means than a name
		 * (/proc/PID/fd/N of a deleted file): written through, as a
		 * shell's > would */
		free(p->target);
		p->target = NULL;
		p->how = DIRECT_TRUNC;
		return;
	}
	p->exists = 1;
	p->st = st;
}

/* How path is written (outfile.h); dies when it cannot be looked at. */
static void
plan(const char *path, struct plan *p)
{
	struct stat ls;

	memset(p, 0, sizeof *p);
	if (lstat(path, &ls) != 0) {
		if (errno != ENOENT)
			die("%s:", path);
		p->target = xstrdup(path); /* a new file */
	} else if (S_ISLNK(ls.st_mode)) {
		plan_link(path, p);
	} else if (!S_ISREG(ls.st_mode)) {
		p->how = DIRECT;
	} else {
		p->target = xstrdup(path);
		p->exists = 1;
		p->st = ls;
	}
}

/* An existing file that may not be written is not replaced: no write
 * bit at all (as root, for whom access() allows everything), or none
 * for this user. */
static void
check_writable(const char *path, const struct plan *p)
{
	unsigned mode = (unsigned)(p->st.st_mode & 07777);

	if (!p->exists)
		return;
	if ((mode & 0222) == 0)
		die("%s: read-only file (mode %04o): not replaced (make it writable or remove "
		    "it first)",
		    path, mode);
	if (access(p->target, W_OK) != 0 && errno == EACCES)
		die("%s: not writable for this user (mode %04o): not replaced", path, mode);
}

/* Open the temporary file beside p->target, registered for removal;
 * returns its descriptor and slot, the temporary path in *tmp.  The slot
 * takes p->target over. */
static int
open_tmp(const char *path, struct plan *p, char **tmp, int *slotp)
{
	int fd, slot;
	mode_t um = umask(0);

	umask(um);
	check_writable(path, p);
	for (slot = 0; slot < MAX_PENDING && pending[slot]; slot++)
		;
	if (slot == MAX_PENDING)
		die("%s: too many output files open at once", path);
	size_t n = strlen(p->target) + 16;
	*tmp = xmalloc(n);
	snprintf(*tmp, n, "%s.tmpXXXXXX", p->target);
	/* registered before it exists: mkstemp writes the name into *tmp
	 * before it creates the file, so a signal at any point after finds
	 * it (a process stopped between the two, then ended by its launcher,
	 * left it behind) */
	pending[slot] = *tmp;
	err_atexit(remove_pending, NULL);
	catch_fatal_signals();
	fd = mkstemp(*tmp);
	if (fd < 0) {
		int e = errno;
		pending[slot] = NULL;
		free(*tmp);
		*tmp = NULL;
		errno = e;
		if (strcmp(path, p->target) != 0)
			die("%s: cannot write %s (the link's file):", path, p->target);
		die("%s:", path);
	}
	/* the file replaced keeps its permissions, and its owner where root
	 * replaces it (as root, anyone's file could become root's) */
	fchmod(fd, p->exists ? p->st.st_mode & 0777 : 0666 & ~um);
	if (p->exists && geteuid() == 0 && fchown(fd, p->st.st_uid, p->st.st_gid) != 0)
		warnx_("%s: cannot keep the owner of the file replaced:", path);
	target[slot] = p->target;
	waiting[slot] = 0;
	p->target = NULL;
	*slotp = slot;
	return fd;
}

/* The entry of v[0 .. n) for the file st, or NULL. */
static const struct ident *
ident_find(const struct ident *v, int n, const struct stat *st)
{
	for (int i = 0; i < n; i++)
		if (v[i].dev == st->st_dev && v[i].ino == st->st_ino)
			return &v[i];
	return NULL;
}

static void
ident_add(struct ident **v, int *n, const struct stat *st, int slot, const char *name)
{
	if (ident_find(*v, *n, st))
		return;
	*v = xreallocarray(*v, (size_t)*n + 1, sizeof **v);
	(*v)[*n] = (struct ident){ st->st_dev, st->st_ino, slot, xstrdup(name) };
	(*n)++;
}

/* Whether the file st takes part in the input/output check. */
static int
ident_counts(const struct stat *st)
{
	return S_ISREG(st->st_mode) &&
	       !(exempt.slot != -2 && exempt.dev == st->st_dev && exempt.ino == st->st_ino);
}

/* An output to the file st, named path: dies when it is an input. */
static void
output_check(const struct stat *st, const char *path)
{
	const struct ident *r;

	if (ident_counts(st) && (r = ident_find(reads, nreads, st)))
		die_usage("%s: the same file as the input %s, which it would replace: give the "
			  "output a file of its own",
			  path, r->name);
}

/* Register the output to the file st (slot: its temporary's, or -1). */
static void
output_add(const struct stat *st, int slot, const char *path)
{
	output_check(st, path);
	if (ident_counts(st))
		ident_add(&writes, &nwrites, st, slot, path);
}

static void
input_stat(const struct stat *st, const char *name)
{
	const struct ident *w;

	if (!ident_counts(st))
		return;
	if ((w = ident_find(writes, nwrites, st)))
		die_usage("%s: the same file as the output %s, which would write over it: give the "
			  "output a file of its own",
			  name, w->name);
	ident_add(&reads, &nreads, st, -1, name);
}

void
outfile_input_fd(int fd, const char *name)
{
	struct stat st;

	if (fstat(fd, &st) == 0)
		input_stat(&st, name ? name : "<stdin>");
}

void
outfile_input_path(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0)
		input_stat(&st, path);
}

void
outfile_may_replace(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return;
	exempt = (struct ident){ st.st_dev, st.st_ino, -1, NULL };
}

void
outfile_stdout(void)
{
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) == 0)
		output_add(&st, -1, "<stdout>");
}

/* Forget slot's temporary file, renamed or removed. */
static void
release_slot(int slot)
{
	for (int i = 0; i < nwrites; i++)
		if (writes[i].slot == slot) { /* its file is replaced or kept */
			free(writes[i].name);
			writes[i--] = writes[--nwrites];
		}
	char *tmp = pending[slot];
	pending[slot] = NULL;
	free(tmp);
	free(target[slot]);
	target[slot] = NULL;
	waiting[slot] = 0;
}

int
outfile_open(const char *path, char **tmp)
{
	struct plan p;
	struct stat st;
	int fd, slot;

	*tmp = NULL;
	plan(path, &p);
	switch (p.how) {
	case VIA_STDOUT:
		fd = dup(STDOUT_FILENO);
		break;
	case DIRECT:
		fd = open(path, O_WRONLY);
		break;
	case DIRECT_TRUNC:
		if (stat(path, &st) == 0) /* before the truncation */
			output_check(&st, path);
		fd = open(path, O_WRONLY | O_TRUNC);
		break;
	default:
		if (p.exists)
			output_check(&p.st, path);
		fd = open_tmp(path, &p, tmp, &slot);
		if (p.exists)
			output_add(&p.st, slot, path);
		return fd;
	}
	if (fd < 0)
		die("%s:", path);
	if (fstat(fd, &st) == 0)
		output_add(&st, -1, path);
	return fd;
}

/* The rename of slot; dies on failure. */
static void
rename_slot(const char *path, int slot)
{
	if (rename(pending[slot], target[slot]) != 0)
		die("%s: cannot rename %s into place:", path ? path : target[slot], pending[slot]);
	release_slot(slot);
}

void
outfile_commit(const char *path, char *tmp)
{
	int slot;

	if (!tmp)
		return;
	for (slot = 0; slot < MAX_PENDING && pending[slot] != tmp; slot++)
		;
	if (slot == MAX_PENDING)
		die("%s: %s is not an output of outfile_open()", path, tmp);
	if (held)
		waiting[slot] = 1;
	else
		rename_slot(path, slot);
}

void
outfile_hold(void)
{
	held = 1;
}

void
outfile_release(void)
{
	held = 0;
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending[i] && waiting[i])
			rename_slot(NULL, i);
}

void
outfile_check(const char *path)
{
	struct plan p;
	char *tmp;
	int slot;

	plan(path, &p);
	if (p.how != BY_RENAME)
		return;
	if (p.exists)
		output_check(&p.st, path);
	close(open_tmp(path, &p, &tmp, &slot));
	unlink(tmp);
	release_slot(slot);
}

/* Whether a and b, which do not exist, are the same name in the same
 * directory. */
static int
same_name(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	const char *ba = sa ? sa + 1 : a, *bb = sb ? sb + 1 : b;
	char da[PATH_MAX], db[PATH_MAX];
	struct stat xa, xb;

	if (strcmp(ba, bb) != 0)
		return 0;
	snprintf(da, sizeof da, "%.*s", sa ? (int)(sa - a) + 1 : 1, sa ? a : ".");
	snprintf(db, sizeof db, "%.*s", sb ? (int)(sb - b) + 1 : 1, sb ? b : ".");
	if (stat(da, &xa) == 0 && stat(db, &xb) == 0)
		return xa.st_dev == xb.st_dev && xa.st_ino == xb.st_ino;
	return strcmp(da, db) == 0;
}

int
outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;

	if (ea || eb)
		return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char *na = link_end(a), *nb = link_end(b);
	int same = na && nb && same_name(na, nb);
	free(na);
	free(nb);
	return same;
}

int
outfile_clash(const char *a, const char *b)
{
	struct stat st;
	return outfile_same(a, b) && !(stat(a, &st) == 0 && S_ISCHR(st.st_mode));
}

void
outfile_not_input(const char *opt, const char *out, const char *in_opt, const char *in)
{
	if (in && outfile_clash(out, in))
		die_usage("%s %s: the same file as %s %s, which it would replace", opt, out, in_opt,
			  in);
}

void
outfile_distinct(int i, const char *const *opt, const char *const *out, int nfiles,
		 char *const *files)
{
	for (int j = 0; j < i; j++)
		if (out[j] && outfile_clash(out[i], out[j]))
			die_usage(
			    "%s %s: the same file as %s %s: give each output a file of its own",
			    opt[i], out[i], opt[j], out[j]);
	for (int k = 0; k < nfiles; k++)
		if (strcmp(files[k], "-") != 0 && outfile_clash(out[i], files[k]))
			die_usage("%s %s: the same file as the input %s, which it would replace",
				  opt[i], out[i], files[k]);
	int stdin_read = nfiles == 0;
	for (int k = 0; k < nfiles; k++)
		stdin_read |= strcmp(files[k], "-") == 0;
	struct stat so, si;
	if (stdin_read && stat(out[i], &so) == 0 && S_ISREG(so.st_mode) &&
	    fstat(STDIN_FILENO, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino)
		die_usage("%s %s: the same file as the standard input, which it would replace",
			  opt[i], out[i]);
}
