/* featcmd.c - a command as the feature stage; see featcmd.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch.h"
#include "err.h"
#include "featcmd.h"
#include "stream.h"

extern char **environ;

void featcmd_init(struct featcmd *fc, const char *cmd, int quiet)
{
	memset(fc, 0, sizeof *fc);
	fc->cmd = xstrdup(cmd);
	fc->quiet = quiet;
}

void featcmd_free(struct featcmd *fc)
{
	free(fc->cmd);
	free(fc->columns);
	memset(fc, 0, sizeof *fc);
}

/* The graphs as a plain binary stream in a new temporary file, rewound;
 * returns its descriptor. */
static int write_graphs(const graph *const *gs, int G)
{
	FILE *tf = tmpfile();
	int fd;
	gs_file *out;
	gs_rec r;

	if (tf == NULL || (fd = dup(fileno(tf))) < 0)
		die("features: temporary file:");
	out = gs_open_fd_out(fd, "<feature stage input>");
	gs_rec_init(&r);
	for (int i = 0; i < G; i++) {
		gs_rec_graph(&r, i, gs[i]->n, gs[i]->m, GS_NONE);
		graph_edges(gs[i], r.u, r.v);
		gs_write1(out, &r);
	}
	gs_close(out);
	gs_rec_free(&r);
	fd = dup(fileno(tf));
	fclose(tf);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		die("features: temporary file:");
	return fd;
}

/* The last non-empty line of the file at fd, into buf (cut to fit). */
static void last_line(int fd, char *buf, size_t len)
{
	char chunk[4096], cur[300] = "";
	size_t at = 0;
	ssize_t k;

	buf[0] = '\0';
	if (lseek(fd, 0, SEEK_SET) != 0)
		return;
	while ((k = read(fd, chunk, sizeof chunk)) > 0)
		for (ssize_t i = 0; i < k; i++) {
			if (chunk[i] == '\n') {
				if (at > 0)
					snprintf(buf, len, "%s", cur);
				at = 0;
			} else if (at + 1 < sizeof cur) {
				cur[at++] = chunk[i];
				cur[at] = '\0';
			}
		}
	if (at > 0)
		snprintf(buf, len, "%s", cur);
	err_one_line(buf);
}

/* Copy the file at fd to standard error. */
static void show(int fd)
{
	char chunk[4096];
	ssize_t k;

	if (lseek(fd, 0, SEEK_SET) != 0)
		return;
	fflush(stdout);
	while ((k = read(fd, chunk, sizeof chunk)) > 0)
		if (fwrite(chunk, 1, (size_t)k, stderr) != (size_t)k)
			break;
}

/* Read the command's output: one 'features' tensor per graph. */
static int read_features(struct featcmd *fc, gs_file *in, const graph *const *gs, int G,
			 double *const *feat, char *msg, size_t len)
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
			snprintf(msg, len, "features: '%s': a 'features' tensor for graph %" PRId64
				 ", which it was not given or already described", fc->cmd, i);
			rc = -1;
			break;
		}
		got[i] = 1;
		if (r.rows != gs[i]->n || (r.dtype != GS_F64 && r.dtype != GS_F32) ||
		    r.cols < 1 || r.cols > MODEL_MAXF) {
			snprintf(msg, len, "features: '%s': graph %" PRId64 ": a %" PRId64 " x %"
				 PRId64 " %s tensor, want %" PRId32 " rows of floats", fc->cmd, i,
				 r.rows, r.cols, r.dtype == GS_F64 || r.dtype == GS_F32 ? "float"
				 : "integer", gs[i]->n);
			rc = -1;
			break;
		}
		if (fc->F == 0) {
			fc->F = (int)r.cols;
			fc->columns = xstrdup(r.columns ? r.columns : "");
		} else if (r.cols != fc->F || strcmp(r.columns ? r.columns : "", fc->columns)) {
			snprintf(msg, len, "features: '%s': graph %" PRId64 ": columns '%.80s', "
				 "where earlier graphs had '%.80s'", fc->cmd, i,
				 r.columns ? r.columns : "", fc->columns);
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
		snprintf(msg, len, "features: '%s': %s", fc->cmd, gs_strerror(in));
		rc = -1;
	}
	for (int i = 0; rc == 0 && i < G; i++)
		if (!got[i]) {
			snprintf(msg, len, "features: '%s' wrote no 'features' tensor for graph %d "
				 "(%" PRId32 " nodes)", fc->cmd, i, gs[i]->n);
			rc = -1;
		}
	gs_rec_free(&r);
	free(got);
	if (rc != 0)
		err_one_line(msg);	/* it quotes the output's columns: \r, ESC... */
	return rc;
}

int featcmd_call(void *ctx, const graph *const *gs, int G, double *const *feat,
		 char *msg, size_t len)
{
	struct featcmd *fc = ctx;
	char *argv[] = { "sh", "-c", fc->cmd, NULL }, line[300];
	posix_spawn_file_actions_t fa;
	int in_fd, out[2], status, rc, spawned;
	FILE *ef = tmpfile();
	pid_t pid;
	gs_file *in;

	if (ef == NULL)
		die("features: temporary file:");
	in_fd = write_graphs(gs, G);
	if (pipe(out) != 0)
		die("features: pipe:");
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fileno(ef), 2);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	spawned = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(in_fd);
	close(out[1]);
	if (spawned != 0) {
		close(out[0]);
		fclose(ef);
		snprintf(msg, len, "features: '%s': cannot run /bin/sh: %s", fc->cmd,
			 strerror(spawned));
		return -1;
	}
	in = gs_open_fd(out[0], "<feature stage output>");
	rc = read_features(fc, in, gs, G, feat, msg, len);
	gs_close(in);		/* a command still writing gets SIGPIPE */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("features: waitpid:");
	fc->calls++;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		last_line(fileno(ef), line, sizeof line);
		if (WIFSIGNALED(status) && rc != 0)
			;	/* our error says why we stopped reading */
		else if (WIFSIGNALED(status))
			snprintf(msg, len, "features: '%s' died of signal %d%s%s", fc->cmd,
				 WTERMSIG(status), line[0] ? ": " : "", line);
		else
			snprintf(msg, len, "features: '%s' failed (exit %d)%s%s", fc->cmd,
				 WEXITSTATUS(status), line[0] ? ": " : "", line);
		rc = -1;
	} else if (rc == 0 && fc->calls == 1 && !fc->quiet) {
		show(fileno(ef));
	}
	fclose(ef);
	return rc;
}

int featcmd_source(struct featcmd *fc, struct feat_src *fs, const char *cmd, int quiet,
		   const graph *g0, char *msg, size_t msglen)
{
	featcmd_init(fc, cmd, quiet);
	if (featcmd_call(fc, &g0, 1, NULL, msg, msglen) != 0)
		return -1;
	fs->kind = FEAT_SRC_CALL;
	fs->F = fc->F;
	fs->call = featcmd_call;
	fs->ctx = fc;
	return 0;
}

int featcmd_read(struct featcmd *fc, gs_file *in, const graph *const *gs, int G,
		 double *const *feat, char *msg, size_t msglen)
{
	return read_features(fc, in, gs, G, feat, msg, msglen);
}
