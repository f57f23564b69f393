/*
 * train_mpi.h - gcn-train under MPI (gcn-train(1), MPI): the options
 * parsed by every process, the ranks started, and what every process must
 * share and agree on (the settings, the input, the precision, the
 * starting state) so that the collectives of each step match.  In one
 * process train_mpi_agree() and the share functions do nothing.
 *
 * Ownership: the caller owns struct train_opts and the strings and argv
 * vectors it passes; train_mpi_settings() returns a new string, and
 * train_mpi_pg() replaces the caller's vector (see there).
 */
#ifndef GNN_TRAIN_MPI_H
#define GNN_TRAIN_MPI_H

#include "train_data.h"
#include "train_loop.h"

/*
 * The options, parsed by parse(o, argc, argv) in every process before MPI
 * starts (so that -h and --version end a run of several processes
 * cleanly); the processes a launcher started as ranks other than 0 parse
 * them without a word, but for an error that rank 0 does not share
 * (their options differ: mpirun's MPMD form), which such a rank says
 * five seconds later as "rank N: ..." if it still runs.
 */
void train_mpi_parse(struct train_opts *o, int argc, char **argv,
		     void (*parse)(struct train_opts *, int, char **));

/*
 * MPI, when a launcher started several processes (the nfiles inputs
 * files, none: standard input): the step goes by graph in every rank
 * (o->by_graph); rank 0 reads the input first (a bad input is said once),
 * and standard input, which only rank 0 gets, is copied to the others;
 * the other ranks are quiet.  Usage errors: --reduce batch, and a model
 * to standard output (the launcher passes rank 0's standard output
 * through a terminal) unless --bench-steps.
 */
void train_mpi_start(struct train_opts *o, int nfiles, char **files);

/*
 * What every process must share, as lines "key: value": the settings as
 * given (options over --config, before auto or a default is resolved),
 * and the options outside them that change the run or that rank 0 alone
 * uses.  -q, --progress and --mpi-timeout may differ.  A new string, the
 * caller's to free.
 */
char *train_mpi_settings(struct train_opts *o);

/*
 * Several processes must train on rank 0's settings (train_mpi_settings())
 * and input ds: checked once every process has read its input, before
 * anything is written; a difference ends the run with one line naming
 * the first rank and what differs (collective).
 */
void train_mpi_agree(const char *settings, const struct train_data *ds);

/*
 * The pg record's command line (*pargc words at *pargv, options first, as
 * getopt left them; a malloc'ed vector of borrowed words, freed and
 * replaced by another): --mpi-timeout left out, and for several processes
 * --reduce graph put first unless --reduce was given.
 */
void train_mpi_pg(const struct train_opts *o, int *pargc, char ***pargv);

/* Every rank multiplies in rank 0's precision (auto measured there). */
void train_mpi_share_precision(void);

/* Every rank starts from rank 0's parameters, Adam state and step (after
 * --resume); the best parameters stay with rank 0. */
void train_mpi_share_state(struct trainer *t);

#endif
