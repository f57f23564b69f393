/*
 * adapt_main.h - what gcn-adapt runs once its options are parsed
 * (gcn-adapt(1)): the products' precision chosen, then the adaptation
 * (every run, its predictions, the model kept; adapt_run.h's runs) or
 * --predict (a saved adapted model applied to every item of the input).
 *
 * Ownership: the options are the caller's (the calls fill in what the
 * input decides: the shipped model's notes, --predict's task and label);
 * each call opens, writes and closes its own outputs and frees what it
 * made.
 */
#ifndef GNN_ADAPT_MAIN_H
#define GNN_ADAPT_MAIN_H

#include "adapt_run.h"

/*
 * The products' precision (gemm.h), chosen with the threads set (auto
 * measures) and set for the process; returns the command line for the pg
 * records, with the precision chosen in place of any --precision given
 * (*first, the index of the operands in argv, moved to theirs in the
 * array; the caller frees the array).  recorded: for --predict, the
 * precision the model was adapted in (its train.precision), which auto
 * follows, so that the saved run's test items get their own predictions
 * back (another precision changes them by its rounding); where that is
 * bf16 and bf16 is not available here, fp32, and o->precision_why says
 * so.  "auto" (models saved before the adaptation's precision was
 * recorded) and NULL (adaptation): auto measures.  Dies with one line on
 * a precision that is not available or a recorded one it cannot read.
 */
char **adapt_main_precision(struct adapt_opts *o, const char *recorded, int argc, char **argv,
			    int *pgargc, int *first);

/*
 * The adaptation, with argv the command line of adapt_main_precision()
 * and argv[first..argc) the input FILEs: the model (an adapted one is
 * refused) and the dataset read, the split and the schedule fitted to
 * the labels, every run trained and its predictions written (-o, or
 * --tsv's table), the best run's model to --save-model; the notes of a
 * successful run on stderr at the end.  A signal (SIGINT, SIGTERM) after
 * the setup keeps the finished runs: written, marked partial, then the
 * process dies of the signal (adapt_catch_signals()); before any run
 * finished, nothing is written.  Returns 0; dies with one line on any
 * error.  Time complexity: the runs' (adapt_train_run()).
 */
int adapt_main_train(struct adapt_opts *o, int argc, char **argv, int first);

/*
 * --predict, with argv the program's command line and argv[first..argc)
 * the input FILEs: the adapted model of --model read, the precision
 * chosen (adapt_main_precision(), following the model's), every item of
 * the input (every node, every edge of the graph record, every graph)
 * through the model's encoder and head, as in the evaluation pass of a
 * run (adapt_predict()); one predictions record (or --tsv's table).  The
 * link task's graph is the input's, all of its edges: a run's model saw
 * its training edges only.  Returns 0; dies with one line on a model or
 * input it cannot take.  Time complexity: one encoder and head pass.
 */
int adapt_main_predict(struct adapt_opts *o, int argc, char **argv, int first);

#endif
