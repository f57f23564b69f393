/*
 * train_loop.h - gcn-train's training run (gcn-train(1)): the model set
 * up from the settings, the epochs (each a shuffle of the training graphs
 * cut into steps, then a validation), the best parameters kept, a
 * checkpoint and a --log line after each epoch, --resume, SIGINT and
 * SIGTERM, and --bench-steps' timings.
 *
 * Ownership: the caller owns struct train_opts (filled by the tool's
 * option parsing), the model, the input (train_data.h) and the output
 * stream; trainer_init() and trainer_free() own a struct trainer's
 * batch, workspace, order, RNG and best parameters.  --log's FILE, which
 * train_open_log() opens, is the caller's to close.  Rank 0 alone writes
 * and speaks in a run of several processes (MPI).
 */
#ifndef GNN_TRAIN_LOOP_H
#define GNN_TRAIN_LOOP_H

#include <stdint.h>
#include <stdio.h>

#include "batch.h"
#include "dstep.h"
#include "model.h"
#include "modelio.h"
#include "opt.h"
#include "progress.h"
#include "stream.h"
#include "train_data.h"
#include "train_settings.h"

/* gcn-train's options: the settings (options over --config) and the rest. */
struct train_opts {
	struct copt c;
	struct train_settings s;
	const char *config, *log, *checkpoint, *resume;
	long long bench_steps;
	int features_given;	 /* --features or features.stage chose the stage */
	int features_cli;	 /* --features chose it */
	int allow_cmd;		 /* --allow-features-command */
	double features_timeout; /* --features-timeout */
	int width_given;	 /* the config states features.width / .columns */
	int columns_given;
	int precision_opt;	 /* --precision given */
	char precision_why[300]; /* what auto chose, for stderr, or "" */
	int by_graph;		 /* --reduce graph, or more than one process */
	int reduce_given;	 /* --reduce given */
	double mpi_timeout;	 /* --mpi-timeout: seconds a process waits for the others */
	double need;		 /* the run's memory estimate (train_need.h), said at the start */
};

/* A training run: the model, the two sets, the step's batch and
 * workspace, the best parameters so far and where the run stands. */
struct trainer {
	const struct train_opts *o;
	model *M;
	struct lgraph **train, **val;
	int64_t nt, nv;
	int B; /* graphs a step */
	struct batch_opts bo;
	batch b;
	mws *w;
	int32_t *perm; /* (nt) this epoch's order of the training graphs */
	gsl_rng *er;   /* its stream */
	real *best;    /* (M->n) the best parameters */
	struct train_state st;
	FILE *log; /* --log, or NULL */
	double t_start;
	struct progress pr;
	int by_graph; /* the data-parallel step (dp) */
	struct dstep dp;
	int stop;	    /* a signal stops the run (all ranks agree) */
	int cut;	    /* a signal cut a feature command short: no score */
	long long ck_epoch; /* the epoch --checkpoint holds, or 0 */
};

/*
 * Catch SIGINT and SIGTERM (one process): the run ends after the step
 * under way, writes the best model so far, and the tool then dies of the
 * signal (train_stop_signal()).  Several processes keep mpirun's action
 * (dist_catch_signals()).
 */
void train_catch_signals(void);

/* The signal that stopped the run, or 0. */
int train_stop_signal(void);

/*
 * The validation graphs of n: --validation, or 124 of every 1024; dies
 * with a usage error when none or all would be.
 */
int64_t train_validation_count(const struct train_opts *o, int64_t n);

/*
 * M, the model of o's settings, with its initial values (stream "init");
 * the link head's output bias at the base rate of the training graphs'
 * pairs (all of ds's graphs with --bench-steps, which validates nothing).
 * Dies with a usage error when the settings make no model.
 */
void train_model_setup(const struct train_opts *o, model *M, struct train_data *ds,
		       const struct batch_opts *bo);

/*
 * --bench-steps: time o->bench_steps steps (at most 1024) on the first
 * batch of ds, masked afresh each step, and print the timings as
 * "name<TAB>value" lines on standard output (rank 0); one line a step on
 * stderr unless quiet.  Collective under MPI.  Writes no model.
 */
void train_bench(const struct train_opts *o, model *M, const struct train_data *ds,
		 const struct batch_opts *bo);

/*
 * t for a run of M on ds: the last train_validation_count() graphs
 * validate (o->s.validation is set to their number, for the model's
 * config), the others train.  Says on stderr when training graphs are
 * pre-masked.
 */
void trainer_init(struct trainer *t, struct train_opts *o, model *M, struct train_data *ds,
		  const struct batch_opts *bo);
void trainer_free(struct trainer *t);

/* --resume: the parameters, the best ones, Adam's moments and the state
 * of path's last checkpoint record; dies when it has none or is bad. */
void trainer_resume(struct trainer *t, const char *path);

/* --log, or NULL without it: its header line, unless the run resumes and
 * appends.  Dies when it cannot be opened. */
FILE *train_open_log(const struct train_opts *o, const model *M);

/* The run's first line on stderr (unless quiet): the graphs, the
 * parameters, the tasks, how the gradient is summed. */
void trainer_say_start(const struct trainer *t);

/*
 * Epochs until --epochs, --steps, --patience or a signal ends the run:
 * each scored on the validation graphs; the best parameters are kept, and
 * after each epoch a checkpoint written (argc, argv: its pg record's
 * command line) and a --log line.  Collective under MPI.
 */
void train_epochs(struct trainer *t, int argc, char **argv);

/* The output: the inputs' provenance, then the best model. */
void trainer_write_model(gs_file *out, const struct train_data *ds, const struct trainer *t);

#endif
