/*
 * train_mpi.c - what gcn-train's processes share and agree on under MPI
 * (gcn-train(1), MPI): the options, parsed by every process, rank 0's
 * input, settings, precision and starting state.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "dist.h"
#include "dstep.h"
#include "err.h"
#include "gemm.h"
#include "train_mpi.h"

/* The standard error of a rank other than 0 while it parses the options:
 * its own and a file that keeps its message. */
static int parse_err = -1, parse_msg = -1;

/*
 * A rank other than 0 that fails to parse its options: rank 0, with the
 * same options, fails the same way and says so, and the first exit ends
 * the job; so this one waits, then says its message as its own ("rank 1:
 * ...") only when it is still running: its options differ from rank 0's
 * (mpirun's MPMD form).
 */
static void
linger(void *arg)
{
	char buf[1024], out[1100];
	ssize_t n;
	int k, p = (int)strlen(err_prog()) + 2; /* after "gcn-train: " */

	(void)arg;
	sleep(5);
	if (parse_err < 0 || (n = pread(parse_msg, buf, sizeof buf - 1, 0)) <= p)
		return;
	buf[n] = '\0';
	k = snprintf(out, sizeof out, "%.*srank %d: %s", p, buf, dist_launch_rank(), buf + p);
	if (write(parse_err, out, (size_t)(k < (int)sizeof out ? k : (int)sizeof out - 1)) < 0)
		return;
}

/*
 * The options, parsed by every process before MPI starts (so that -h and
 * --version end a run of several processes cleanly); the processes a
 * launcher started as ranks other than 0 parse them without a word, but
 * for an error that rank 0 does not share (linger()).
 */
void
train_mpi_parse(struct train_opts *o, int argc, char **argv,
		void (*parse)(struct train_opts *, int, char **))
{
	int fd1 = -1, nul;
	const char *dir = getenv("TMPDIR");
	char path[4096];

	snprintf(path, sizeof path, "%s/gcn-train-parse.XXXXXX", dir && *dir ? dir : "/tmp");
	if (dist_launch_rank() != 0 && (nul = open("/dev/null", O_WRONLY)) >= 0) {
		fd1 = dup(STDOUT_FILENO);
		parse_err = dup(STDERR_FILENO);
		dup2(nul, STDOUT_FILENO);
		if ((parse_msg = mkstemp(path)) >= 0) {
			unlink(path);
			dup2(parse_msg, STDERR_FILENO);
		} else {
			dup2(nul, STDERR_FILENO);
		}
		close(nul);
		err_atexit(linger, NULL);
	}
	parse(o, argc, argv);
	if (fd1 >= 0 && parse_err >= 0) {
		fflush(stdout);
		dup2(fd1, STDOUT_FILENO);
		dup2(parse_err, STDERR_FILENO);
		close(fd1);
		close(parse_err);
		if (parse_msg >= 0)
			close(parse_msg);
		parse_err = parse_msg = -1;
		err_atexit(NULL, NULL);
	}
}

/*
 * MPI, when a launcher started several processes: the step goes by graph
 * in every rank; rank 0 reads the input first (a bad input is said once),
 * and standard input, which only rank 0 gets, is copied to the others;
 * the other ranks wait for rank 0's setup, then do theirs without a word.
 * The model goes to -o FILE: the launcher passes rank 0's standard output
 * through a terminal.
 */
void
train_mpi_start(struct train_opts *o, int nfiles, char **files)
{
	int std = nfiles == 0;

	dist_set_timeout(o->mpi_timeout);
	if (dist_init(NULL, NULL) == 1)
		return;
	if (o->reduce_given && !o->by_graph && dist_rank() == 0)
		die_usage("%d processes: --reduce batch is one process's step; several always "
			  "sum by graph (gcn-train(1), MPI)",
			  dist_size());
	o->by_graph = 1;
	for (int i = 0; i < nfiles; i++)
		std |= strcmp(files[i], "-") == 0;
	if (dist_rank() != 0) {
		o->c.quiet = 1;
		dist_stdin_share();
		return;
	}
	if (!o->bench_steps && (!o->c.output || strcmp(o->c.output, "-") == 0))
		die_usage("%d processes: write the model with -o FILE (the launcher passes "
			  "standard output through a terminal)",
			  dist_size());
	if (std)
		dist_stdin_read();
}

/*
 * What every process must share, as lines "key: value": the settings as
 * given (options over --config, before auto or a default is resolved),
 * and the options outside them that change the run or that rank 0 alone
 * uses (one process's different -o would go unused without a word).
 * -q, --progress and --mpi-timeout may differ.  A new string.
 */
char *
train_mpi_settings(struct train_opts *o)
{
	struct cfg_key keys[TRAIN_SCHEMA_MAX];
	size_t nk = train_schema(&o->s, keys), len;
	char *cfg = cfg_dump(keys, nk), *text = NULL;
	FILE *f = open_memstream(&text, &len);
	const char *none = "(none)";

	if (!f)
		die("open_memstream:");
	fprintf(f,
		"%s-j: %d\n-l: %d\n-t: %d\n--bench-steps: %lld\n--reduce: %s\n"
		"-o: %s\n--checkpoint: %s\n--log: %s\n--resume: %s\n",
		cfg, o->c.threads, o->c.level, o->c.text, o->bench_steps,
		o->reduce_given ? (o->by_graph ? "graph" : "batch") : none,
		o->c.output ? o->c.output : none, o->checkpoint ? o->checkpoint : none,
		o->log ? o->log : none, o->resume ? o->resume : none);
	if (fclose(f) != 0)
		die("open_memstream:");
	free(cfg);
	return text;
}

/*
 * Several processes must train on rank 0's settings and input, or the
 * collectives of a step no longer match (a deadlock, MPI's own error, or
 * a model that differs without a word).  Checked once every process has
 * read its input, before anything is written: a difference ends the run
 * with one line naming the first rank and what differs.
 */
void
train_mpi_agree(const char *settings, const struct train_data *ds)
{
	/* the options of the config's keys, to name what differs */
	static const char *const opt_of[][2] = {
		{ "features.stage", "--features" },
		{ "features.command", "--features" },
		{ "model.hidden", "--hidden" },
		{ "model.layers", "--layers" },
		{ "tasks", "--tasks" },
		{ "train.batch_graphs", "--batch" },
		{ "train.epochs", "--epochs" },
		{ "train.steps", "--steps" },
		{ "train.patience", "--patience" },
		{ "train.validation_graphs", "--validation" },
		{ "train.lr", "--lr" },
		{ "train.precision", "--precision" },
		{ "seed", "-s" },
	};
	char msg[640] = "";
	int bad;

	if (dist_size() == 1)
		return;
	bad = dist_same_lines(settings, opt_of, sizeof opt_of / sizeof opt_of[0], msg,
			      sizeof msg) != 0;
	dist_fail_if_any(bad, msg);
	bad = dstep_same_input(ds->g, ds->n, msg, sizeof msg) != 0;
	dist_fail_if_any(bad, msg);
}

/*
 * The pg record's command line (*pargc words at *pargv, options first, as
 * getopt left them) under MPI: --mpi-timeout left out (it cannot change
 * the model, as -j and -q, which the stream leaves out), and, for several
 * processes, --reduce graph, which they always use: so it tells their
 * model from one process's (--reduce batch by default), and makes the
 * same model in one process.
 */
void
train_mpi_pg(const struct train_opts *o, int *pargc, char ***pargv)
{
	char **a = *pargv, **v = xmallocarray((size_t)*pargc + 3, sizeof *v);
	int n = 0, opts = 1;

	v[n++] = a[0];
	if (dist_size() > 1 && !o->reduce_given) {
		v[n++] = (char *)"--reduce";
		v[n++] = (char *)"graph";
	}
	for (int i = 1; i < *pargc; i++) {
		size_t len = strcspn(a[i], "=");
		opts &= strcmp(a[i], "--") != 0;
		/* --mpi-timeout S, --mpi-timeout=S and their abbreviations */
		if (opts && len >= 5 && len <= 13 && strncmp(a[i], "--mpi-timeout", len) == 0) {
			i += a[i][len] != '=';
			continue;
		}
		v[n++] = a[i];
	}
	v[n] = NULL;
	free(a);
	*pargv = v;
	*pargc = n;
}

/* Every rank multiplies in rank 0's precision (auto measured there). */
void
train_mpi_share_precision(void)
{
	int p = gemm_precision();

	if (dist_size() == 1)
		return;
	dist_bcast_idle(&p, sizeof p, 0); /* rank 0 may still be setting up */
	gemm_set_precision(p);
}

/* Every rank starts from rank 0's parameters, Adam state and step (after
 * --resume); the best parameters stay with rank 0. */
void
train_mpi_share_state(struct trainer *t)
{
	model *M = t->M;

	if (dist_size() == 1)
		return;
	dist_bcast_idle(&t->st, sizeof t->st, 0); /* the others may still read */
	dist_bcast(&M->adam_t, sizeof M->adam_t, 0);
	dist_bcast(M->p, (size_t)M->n * sizeof *M->p, 0);
	dist_bcast(M->m, (size_t)M->n * sizeof *M->m, 0);
	dist_bcast(M->v, (size_t)M->n * sizeof *M->v, 0);
}
