/*
 * gcn-embed - the structural features a pre-trained encoder extracts: for
 * every graph of the input (a stream or an edge list), each node's
 * embedding from the model's forward pass (common/model.c, the pass
 * training uses, without its backward caches), with the model's feature
 * stage applied to the graph (common/pretrained.c).  It writes a tensor
 * record "embedding" after each graph, a table (--tsv) or a NumPy .npy
 * file (--npy, with --offsets where each graph's rows begin and --names
 * its nodes' names), or one pooled row a graph (--pool), through
 * common/embed_out.c.  Manual: man/man1/gcn-embed.1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embed_run.h"
#include "err.h"
#include "filter.h"
#include "gemm.h"
#include "model.h"
#include "opt.h"
#include "outfile.h"
#include "pretrained.h"
#include "progress.h"
#include "rng.h"
#include "stream.h"

#define SYNOPSIS \
	"gcn-embed [-qt] [-j threads] [-l level] [-o file] [-s seed]\n" \
	"                 [--allow-features-command] [--embedding kind] [--features stage]\n" \
	"                 [--features-timeout s] [--model file] [--names file] [--no-pretrain]\n" \
	"                 [--npy file] [--offsets file] [--pool[=list]] [--precision p]\n" \
	"                 [--progress] [--store s] [--tsv] [file ...]"

enum {
	OPT_ALLOW_CMD = COPT_FIRST_TOOL,
	OPT_EMBEDDING,
	OPT_FEATURES,
	OPT_FEATURES_TIMEOUT,
	OPT_MODEL,
	OPT_NAMES,
	OPT_NO_PRETRAIN,
	OPT_NPY,
	OPT_OFFSETS,
	OPT_POOL,
	OPT_PRECISION,
	OPT_STORE,
	OPT_TSV
};

/* the rng stream of --no-pretrain's initial values */
#define INIT_STREAM 0x696e6974 /* "init" */

static const char *const written[] = { "embedding", "graph_embedding", NULL };
static const char *const wants[] = { "features", NULL };

static void
usage(FILE *f, const struct embed_opts *o)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Writes each node's embedding by a pre-trained model (gcn-train's output).\n"
		"      --allow-features-command  run the feature command the model records\n"
		"                          (a model file runs nothing by itself)\n"
		"      --embedding KIND    blocks (H1..HL side by side), blockN (one block),\n"
		"                          rec, rank or cluster (a task's layer mix) [blocks]\n"
		"      --features STAGE    the encoder's input: paper, rwse, both (built in),\n"
		"                          stream or a command [the model's feature stage]\n"
		"      --features-timeout S  seconds a feature command may take, 0 = no limit\n"
		"                          [%g]\n"
		"  -h, --help              this help\n"
		"  -j, --threads N         threads, OpenMP and BLAS [all cores]\n"
		"  -l, --level N           gzip level, 0 = plain [%d]\n"
		"      --model FILE        the pre-trained model [the shipped one]\n"
		"      --names FILE        with --npy: the rows' node names, a line each\n"
		"      --no-pretrain       the model's architecture with random initial values\n"
		"                          (as gcn-train draws them, from -s): a baseline\n"
		"      --npy FILE          write a NumPy .npy file (the rows of every graph)\n"
		"      --offsets FILE      with --npy: where each graph's rows begin, an int64\n"
		"                          .npy of graphs + 1 values\n"
		"      --pool[=LIST]       one row per graph instead: mean, max and/or sum of\n"
		"                          its node rows, side by side (e.g. mean,max) [mean]\n"
		"  -o, --output FILE       write to FILE instead of stdout\n"
		"      --precision P       products in fp32 or bf16 (bf16 operands, fp32\n"
		"                          accumulation; less accurate, gcn-embed(1)) [fp32]\n"
		"      --progress          progress on stderr even when it is not a terminal\n"
		"  -q, --quiet             no warnings or progress\n"
		"  -s, --seed N            --no-pretrain: seed of the initial values [0]\n"
		"      --store S           the activations: fp32 (the training forward's bytes),\n"
		"                          bf16, file (bf16, the input out of core) or auto\n"
		"                          (the first that fits the memory) [auto]\n"
		"  -t, --text              write the text form (plain unless -l is given)\n"
		"      --tsv               print a table (graph, id, node, one column per value)\n"
		"      --version           print the version\n",
		o->timeout, o->c.level);
}

/* --embedding: blocks, blockN, rec, rank or cluster. */
static void
parse_kind(struct embed_opts *o, const char *s)
{
	o->kind_text = s;
	if (strcmp(s, "blocks") == 0) {
		o->kind = EMB_BLOCKS;
		return;
	}
	if (strncmp(s, "block", 5) == 0 && s[5]) {
		o->kind = EMB_BLOCK;
		o->block = (int)opt_ll(s + 5, 1, MODEL_MAXL, "--embedding blockN");
		return;
	}
	for (int t = 0; t < NTASK; t++)
		if (strcmp(s, model_task_name[t]) == 0) {
			o->kind = EMB_MIX;
			o->task = t;
			return;
		}
	die_usage("--embedding: '%s': expected blocks, blockN, rec, rank or cluster", s);
}

/* The word after a bare --pool is its list when it is made of lowercase
 * letters and commas only ("mean,max", or a misspelt one, which is then
 * refused); otherwise it is left to be a file (an input named so is
 * ./mean). */
static int
looks_like_pool(const char *s)
{
	return s && strspn(s, "abcdefghijklmnopqrstuvwxyz,") == strlen(s);
}

/* --pool: a comma-separated list of mean, max and sum, each at most once;
 * none: mean, the readout of gcn-adapt's graph task. */
static void
parse_pool(struct embed_opts *o, const char *s)
{
	const char *p = s;

	if (!s) {
		o->pool[0] = EMB_POOL_MEAN;
		o->npool = 1;
		return;
	}
	o->npool = 0;
	for (;;) {
		size_t len = strcspn(p, ",");
		int k;
		for (k = 0; k < EMB_NPOOL; k++)
			if (strlen(emb_pool_name[k]) == len &&
			    strncmp(p, emb_pool_name[k], len) == 0)
				break;
		if (k == EMB_NPOOL)
			die_usage("--pool: '%.40s': expected a list of mean, max and sum", s);
		for (int i = 0; i < o->npool; i++)
			if (o->pool[i] == k)
				die_usage("--pool: '%.40s': %s twice", s, emb_pool_name[k]);
		o->pool[o->npool++] = k;
		if (!p[len])
			break;
		p += len + 1;
	}
}

/* --names, --offsets: a file, not standard output (they go beside --npy). */
static const char *
file_arg(const char *s, const char *opt)
{
	if (!*s || strcmp(s, "-") == 0)
		die_usage("%s: expected a file", opt);
	return s;
}

/* The options together: the model (the shipped one without --model) and
 * one output, with the files that go beside --npy. */
static void
check_opts(struct embed_opts *o)
{
	if (!o->model) { /* the shipped model, said at the first graph */
		o->model = pretrained_default();
		o->shipped = 1;
		if (!o->model)
			die_usage(
			    "no --model, and the shipped model (models/gcn-pretrain.gs) is not "
			    "found beside the program: give --model");
	}
	if (o->npy && o->tsv)
		die_usage("--npy and --tsv: choose one output");
	if (o->npy && o->c.output)
		die_usage("--npy names the output file; -o is for the stream");
	if (!o->npy && (o->offsets || o->names))
		die_usage("%s goes with --npy (it describes the .npy file's rows)",
			  o->offsets ? "--offsets" : "--names");
	if (o->names && o->npool)
		die_usage("--names lists the nodes' names, and with --pool the rows are graphs");
}

static void
parse(struct embed_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "allow-features-command", no_argument, NULL, OPT_ALLOW_CMD },
		{ "embedding", required_argument, NULL, OPT_EMBEDDING },
		{ "features", required_argument, NULL, OPT_FEATURES },
		{ "features-timeout", required_argument, NULL, OPT_FEATURES_TIMEOUT },
		{ "model", required_argument, NULL, OPT_MODEL },
		{ "names", required_argument, NULL, OPT_NAMES },
		{ "no-pretrain", no_argument, NULL, OPT_NO_PRETRAIN },
		{ "npy", required_argument, NULL, OPT_NPY },
		{ "offsets", required_argument, NULL, OPT_OFFSETS },
		{ "pool", optional_argument, NULL, OPT_POOL },
		{ "precision", required_argument, NULL, OPT_PRECISION },
		{ "store", required_argument, NULL, OPT_STORE },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	o->kind_text = "blocks";
	o->want_prec = GEMM_FP32;
	o->timeout = FEATCMD_TIMEOUT;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, o);
			copt_exit_ok();
		case OPT_ALLOW_CMD:
			o->allow_cmd = 1;
			break;
		case OPT_EMBEDDING:
			parse_kind(o, optarg);
			break;
		case OPT_FEATURES:
			if (!*optarg)
				die_usage(
				    "--features: expected paper, rwse, both, stream or a command");
			o->features = optarg;
			break;
		case OPT_FEATURES_TIMEOUT:
			o->timeout = opt_double(optarg, 0, 1e9, "--features-timeout");
			break;
		case OPT_MODEL:
			o->model = optarg;
			break;
		case OPT_NAMES:
			o->names = file_arg(optarg, "--names");
			break;
		case OPT_NO_PRETRAIN:
			o->no_pretrain = 1;
			break;
		case OPT_NPY:
			if (!*optarg || strcmp(optarg, "-") == 0)
				die_usage(
				    "--npy: expected a file (the header is rewritten at the end)");
			o->npy = optarg;
			break;
		case OPT_OFFSETS:
			o->offsets = file_arg(optarg, "--offsets");
			break;
		case OPT_POOL:
			if (!optarg && optind < argc && looks_like_pool(argv[optind]))
				optarg = argv[optind++];
			parse_pool(o, optarg);
			break;
		case OPT_PRECISION:
			/* no auto: bf16's error depends on the graph (gcn-embed(1)),
			 * so it is never chosen for the user */
			if ((o->want_prec = gemm_precision_parse(optarg)) < 0 ||
			    o->want_prec == GEMM_AUTO)
				die_usage("--precision: '%.40s': expected fp32 or bf16", optarg);
			break;
		case OPT_STORE:
			if ((o->store = embed_store_parse(optarg)) < 0)
				die_usage("--store: '%.40s': expected fp32, bf16, file or auto",
					  optarg);
			break;
		case OPT_TSV:
			o->tsv = 1;
			break;
		default:
			if (copt_handle(&o->c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	check_opts(o);
}

/*
 * The output (-o), the .npy file, its offsets and names are files of
 * their own, none an input (standard input too) or the model, which they
 * would replace (outfile_clash(): by identity); each can be written
 * (outfile_check()), before any work.  Time complexity: O(number of
 * FILEs).
 */
static void
check_files(const struct embed_opts *o, int nfiles, char **files)
{
	const char *opt[4] = { "-o", "--npy", "--offsets", "--names" };
	const char *out[4] = { o->c.output, o->npy, o->offsets, o->names };

	if (out[0] && strcmp(out[0], "-") == 0)
		out[0] = NULL;
	for (int i = 0; i < 4; i++) {
		if (!out[i])
			continue;
		outfile_distinct(i, opt, out, nfiles, files);
		outfile_not_input(opt[i], out[i], "--model", o->shipped ? NULL : o->model);
		outfile_check(out[i]);
	}
}

int
main(int argc, char **argv)
{
	struct embed_opts o;
	struct filter f;
	struct embed_run er;

	copt_passive_wait(argv);
	err_setprog(argv[0]);
	parse(&o, argc, argv);
	check_files(&o, argc - optind, argv + optind);
	copt_apply_threads_blas(&o.c);
	/* the precision: is bf16 there? */
	char why[256];
	int prec = gemm_choose(o.want_prec, why, sizeof why);
	if (prec < 0)
		die("--precision bf16: %s", why);
	gemm_set_precision(prec);
	o.prec = gemm_precision_name(prec);
	embed_run_init(&er, &o);
	pretrained_load(&er.pt, o.model);
	if (o.no_pretrain) { /* the same architecture, fresh values */
		gsl_rng *r = rng_new(o.c.seed, INIT_STREAM);
		model_init_params(&er.pt.M, r);
		gsl_rng_free(r);
	}
	memset(&f, 0, sizeof f);
	f.c = &o.c;
	f.tsv = o.tsv;
	f.no_output = o.npy != NULL; /* the rows go to the .npy file */
	f.replaces = written;
	f.wants = wants;
	f.want_names = 1; /* the table's name column, --names */
	f.graph_fn = embed_run_graph;
	f.need_fn = embed_run_need;
	f.hint_fn = embed_run_hint;
	f.check_header = 1; /* refused unread: issue 49 */
	f.ctx = &er;
	filter_run(&f, argc - optind, argv + optind, argc, argv);
	if (o.npy && !er.staged)
		die("no graph in the input");
	embed_out_close(&er.eo);
	if (o.shipped && !o.c.quiet) /* at the end: a failing run says one line */
		warnx_("model: %s (the shipped model; --model to choose another)", o.model);
	embed_run_free(&er);
	gemm_release();
	return 0;
}
