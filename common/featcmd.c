/* featcmd.c - a command as the feature stage; see featcmd.h. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmdrun.h"
#include "err.h"
#include "featcmd.h"
#include "stream.h"

#define SHOWN_MAX 160 /* bytes of the command line in messages */
/* cmdrun.h's cr->left, introduced */
#define LEFT_WHAT \
	"something it started left its process group and held its pipes open after it ended"

void
featcmd_init(struct featcmd *fc, const char *cmd, int quiet, double timeout)
{
	size_t n = strlen(cmd);

	memset(fc, 0, sizeof *fc);
	fc->cmd = xstrdup(cmd);
	fc->quiet = quiet;
	fc->timeout = timeout;
	fc->shown = xmalloc(SHOWN_MAX + 4);
	snprintf(fc->shown, SHOWN_MAX + 4, "%.*s%s", SHOWN_MAX, cmd, n > SHOWN_MAX ? "..." : "");
	err_one_line(fc->shown);
}

void
featcmd_free(struct featcmd *fc)
{
	free(fc->cmd);
	free(fc->shown);
	free(fc->columns);
	memset(fc, 0, sizeof *fc);
}

/* 1 if tok is a thread count nodefeat takes: digits, not 0 */
static int
thread_count(const char *tok)
{
	size_t k = strspn(tok, "0123456789");
	return k > 0 && k < 6 && tok[k] == '\0' && atoi(tok) > 0;
}

/* The value of an option given in one word (--set=X, --scale=X,
 * --threads=N, -jN), *want set to its kind (as featcmd_builtin's want);
 * NULL for any other word. */
static const char *
joined_value(const char *tok, int *want)
{
	static const char *const pre[] = { "--set=", "--scale=", "--threads=", "-j" };
	static const int kind[] = { 1, 2, 3, 3 }; /* -jN is --threads=N */
	for (int i = 0; i < 4; i++) {
		size_t k = strlen(pre[i]);
		if (strncmp(tok, pre[i], k) == 0 && (kind[i] != 3 || tok[k])) {
			*want = kind[i];
			return tok + k;
		}
	}
	return NULL;
}

const char *
featcmd_builtin(const char *cmd)
{
	const char *set = "paper", *p = cmd;
	char tok[24];
	int ntok = 0, both = 0, scaled = 0;
	int want = 0; /* the value of: 1 --set, 2 --scale, 3 -j or --threads */

	for (;;) {
		size_t k;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		k = strcspn(p, " \t");
		if (k >= sizeof tok)
			return NULL;
		memcpy(tok, p, k);
		tok[k] = '\0';
		p += k;
		if (ntok++ == 0) {
			if (strcmp(tok, "nodefeat") != 0)
				return NULL;
			continue;
		}
		const char *v = want ? tok : joined_value(tok, &want);
		if (v) {
			if (want == 1 && (strcmp(v, "paper") == 0 || strcmp(v, "rwse") == 0)) {
				set = strcmp(v, "paper") == 0 ? "paper" : "rwse";
			} else if (want == 2 &&
				   (strcmp(v, "minmax") == 0 || strcmp(v, "both") == 0)) {
				both = strcmp(v, "both") == 0;
				scaled = 1;
			} else if (want != 3 || !thread_count(v)) {
				return NULL;
			}
			want = 0;
		} else if (strcmp(tok, "--set") == 0) {
			want = 1;
		} else if (strcmp(tok, "--scale") == 0) {
			want = 2;
		} else if (strcmp(tok, "-j") == 0 || strcmp(tok, "--threads") == 0) {
			want = 3;
		} else if (strcmp(tok, "-q") && strcmp(tok, "--quiet")) {
			return NULL;
		}
	}
	if (ntok == 0 || want || (scaled && strcmp(set, "paper") != 0))
		return NULL;
	return both ? "both" : set;
}

/* The graphs as a plain binary stream in a new temporary file of $TMPDIR,
 * rewound; returns its descriptor. */
static int
write_graphs(const graph *const *gs, int G)
{
	int fd = cmdrun_tmpfile("features-in", 0, NULL), wfd;
	gs_file *out;
	gs_rec r;

	if (fd < 0 || (wfd = dup(fd)) < 0)
		die("features: a temporary file in %s:",
		    getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	out = gs_open_fd_out(wfd, "<feature stage input>");
	gs_rec_init(&r);
	for (int i = 0; i < G; i++) {
		gs_rec_graph(&r, i, gs[i]->n, gs[i]->m, GS_NONE);
		graph_edges(gs[i], r.u, r.v);
		gs_write1(out, &r);
	}
	gs_close(out);
	gs_rec_free(&r);
	if (lseek(fd, 0, SEEK_SET) != 0)
		die("features: temporary file:");
	return fd;
}

/* The last non-empty line of s (cut to fit buf), on one line. */
static void
last_line(const char *s, size_t len, char *buf, size_t buflen)
{
	size_t end = len, beg;

	while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == '\r'))
		end--;
	beg = end;
	while (beg > 0 && s[beg - 1] != '\n')
		beg--;
	snprintf(buf, buflen, "%.*s", (int)(end - beg), s + beg);
	err_one_line(buf);
}

/* The first call's standard error, when it succeeded: its end, at most
 * FEATCMD_SHOW_LINES lines and FEATCMD_SHOW_BYTES bytes, said to be an end
 * when that is not all. */
static void
show_err(const struct featcmd *fc, const struct cmdrun *cr)
{
	size_t len = cr->err_len, beg = len, min;
	int lines = 0;

	if (len == 0)
		return;
	min = len > FEATCMD_SHOW_BYTES ? len - FEATCMD_SHOW_BYTES : 0;
	if (cr->err[beg - 1] == '\n')
		beg--;
	while (beg > min && lines < FEATCMD_SHOW_LINES)
		if (cr->err[--beg] == '\n')
			lines++;
	beg += beg < len && cr->err[beg] == '\n';
	if (beg > 0 || cr->err_total > (long long)len)
		warnx_("features: '%s': the end of its standard error follows (the last %zu of "
		       "%lld bytes)",
		       fc->shown, len - beg, cr->err_total);
	fflush(stdout);
	fwrite(cr->err + beg, 1, len - beg, stderr);
	if (cr->err[len - 1] != '\n')
		fputc('\n', stderr);
}

/* Read the command's output: one 'features' tensor per graph. */
static int
read_features(struct featcmd *fc, gs_file *in, const graph *const *gs, int G, double *const *feat,
	      char *msg, size_t len)
{
	unsigned char *got = xcalloc((size_t)G + 1, 1);
	gs_rec r;
	int k, rc = 0;

	gs_rec_init(&r);
	while (rc == 0 && (k = gs_read1(in, &r)) > 0) {
		if (k != GS_TENSOR || strcmp(r.name, "features") != 0)
			continue;
		int64_t i = r.id;
		if (i < 0 || i >= G || got[i]) {
			snprintf(msg, len,
				 "features: '%s': a 'features' tensor for graph %" PRId64
				 ", which it was not given or already described",
				 fc->shown, i);
			rc = -1;
			break;
		}
		got[i] = 1;
		if (r.rows != gs[i]->n || (r.dtype != GS_F64 && r.dtype != GS_F32) || r.cols < 1 ||
		    r.cols > FEATCMD_MAXF) {
			snprintf(msg, len,
				 "features: '%s': graph %" PRId64 ": a %" PRId64 " x %" PRId64
				 " %s tensor, want %" PRId32 " rows of floats",
				 fc->shown, i, r.rows, r.cols,
				 r.dtype == GS_F64 || r.dtype == GS_F32 ? "float" : "integer",
				 gs[i]->n);
			rc = -1;
			break;
		}
		if (fc->F == 0) {
			fc->F = (int)r.cols;
			fc->columns = xstrdup(r.columns ? r.columns : "");
		} else if (r.cols != fc->F || strcmp(r.columns ? r.columns : "", fc->columns)) {
			snprintf(msg, len,
				 "features: '%s': graph %" PRId64 ": columns '%.80s', "
				 "where earlier graphs had '%.80s'",
				 fc->shown, i, r.columns ? r.columns : "", fc->columns);
			rc = -1;
			break;
		}
		for (int64_t j = 0; feat && j < r.rows * r.cols; j++) {
			double x = r.dtype == GS_F64 ? ((const double *)r.data)[j]
						     : ((const float *)r.data)[j];
			feat[i][j] = x;
		}
	}
	if (rc == 0 && k < -1) {
		snprintf(msg, len, "features: '%s': %s", fc->shown, gs_strerror(in));
		rc = -1;
	}
	for (int i = 0; rc == 0 && i < G; i++)
		if (!got[i]) {
			snprintf(msg, len,
				 "features: '%s' wrote no 'features' tensor for graph %d "
				 "(%" PRId32 " nodes)",
				 fc->shown, i, gs[i]->n);
			rc = -1;
		}
	gs_rec_free(&r);
	free(got);
	if (rc != 0)
		err_one_line(msg); /* it quotes the output's columns: \r, ESC... */
	return rc;
}

/* Where the kept standard error went, for a message: " (its standard
 * error: PATH)" when it wrote more than its last line, else "". */
static void
keep_err(const struct cmdrun *cr, char *note, size_t len)
{
	const char *nl = memchr(cr->err, '\n', cr->err_len);
	char *path = NULL;
	int fd;

	note[0] = '\0';
	if (cr->err_len == 0 || !nl || (size_t)(nl - cr->err) + 1 >= cr->err_len)
		return; /* one line at most: the message holds it */
	if ((fd = cmdrun_tmpfile("features-stderr", 1, &path)) < 0)
		return;
	if (write(fd, cr->err, cr->err_len) == (ssize_t)cr->err_len && close(fd) == 0)
		snprintf(note, len, " (its standard error%s: %s)",
			 cr->err_total > (long long)cr->err_len ? ", the last 64 KiB" : "", path);
	else
		unlink(path);
	free(path);
}

/* Why the call failed, in msg; ours (what we read) unless the command
 * ended by itself with an error of its own, which comes first. */
static void
why_failed(const struct featcmd *fc, const struct cmdrun *cr, int rc, const char *ours, char *msg,
	   size_t len)
{
	int st = cr->status, pipe_died = (WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE) ||
					 (WIFEXITED(st) && WEXITSTATUS(st) == 128 + SIGPIPE);
	char line[300], note[600];

	last_line(cr->err, cr->err_len, line, sizeof line);
	keep_err(cr, note, sizeof note);
	if (cr->how == CMDRUN_INTERRUPTED)
		snprintf(msg, len, "features: '%s': interrupted (%s)", fc->shown,
			 strsignal(cr->sig));
	else if (cr->how == CMDRUN_TIMEOUT)
		snprintf(msg, len,
			 "features: '%s': no result after %g s (--features-timeout); "
			 "ended it%s%s%s",
			 fc->shown, fc->timeout, note, line[0] ? ": " : "", line);
	else if (rc != 0 &&
		 (cr->how == CMDRUN_ENDED || pipe_died || (WIFEXITED(st) && WEXITSTATUS(st) == 0)))
		snprintf(msg, len, "%s%s", ours, note);
	else if (WIFSIGNALED(st))
		snprintf(msg, len, "features: '%s' died of signal %d (%s)%s%s%s", fc->shown,
			 WTERMSIG(st), strsignal(WTERMSIG(st)), note, line[0] ? ": " : "", line);
	else
		snprintf(msg, len, "features: '%s' failed (exit %d)%s%s%s", fc->shown,
			 WEXITSTATUS(st), note, line[0] ? ": " : "", line);
}

int
featcmd_call(void *ctx, const graph *const *gs, int G, double *const *feat, char *msg, size_t len)
{
	struct featcmd *fc = ctx;
	struct cmdrun cr;
	char ours[512] = "";
	int in_fd, rc;
	gs_file *in;

	in_fd = write_graphs(gs, G);
	if (cmdrun_start(&cr, fc->cmd, in_fd, fc->timeout, ours, sizeof ours) != 0) {
		close(in_fd);
		snprintf(msg, len, "features: '%s': %s", fc->shown, ours);
		return -1;
	}
	close(in_fd);
	in = gs_open_fd(cr.out, "<feature stage output>");
	rc = read_features(fc, in, gs, G, feat, ours, sizeof ours);
	gs_close(in); /* a command still writing gets SIGPIPE */
	if (rc != 0)
		cmdrun_end(&cr);
	cmdrun_wait(&cr);
	fc->calls++;
	if (rc != 0 || cr.how != CMDRUN_EXITED || !WIFEXITED(cr.status) ||
	    WEXITSTATUS(cr.status) != 0) {
		why_failed(fc, &cr, rc, ours, msg, len);
		if (cr.left && cr.how == CMDRUN_INTERRUPTED) /* the program may go on */
			warnx_("features: '%s': %s: %s", fc->shown, LEFT_WHAT, cr.left);
		else if (cr.left) { /* what it left, in the same line */
			size_t n = strlen(msg);
			snprintf(msg + n, len - n, "; %s: %s", LEFT_WHAT, cr.left);
		}
		rc = -1;
	} else {
		if (fc->calls == 1 && !fc->quiet)
			show_err(fc, &cr);
		if (cr.left) /* said whatever -q: it may have been killed */
			warnx_("features: '%s': %s: %s", fc->shown, LEFT_WHAT, cr.left);
	}
	cmdrun_free(&cr);
	cmdrun_raise(&cr);
	return rc;
}

int
featcmd_read(struct featcmd *fc, gs_file *in, const graph *const *gs, int G, double *const *feat,
	     char *msg, size_t msglen)
{
	return read_features(fc, in, gs, G, feat, msg, msglen);
}
