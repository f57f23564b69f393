/*
 * graph-import - turn raw downstream datasets into gnnstream graph streams:
 * the LINQS content/cites format (Cora, CiteSeer, Pubmed-Diabetes), the TU
 * Dortmund graph kernel format (IMDB-BINARY, PROTEINS, ...), MovieLens
 * 100K/1M as a bipartite user-item graph, plain "u v [label]" edge lists,
 * the graph files igraph's C library reads (GraphML, GML, Pajek, LGL, NCOL,
 * DIMACS) and Matrix Market matrices.  Every reader checks what it reads and stops at the first bad line with
 * "prog: FILE: line N: what".  Manual: man/man1/graph-import.1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import.h"
#include "opt.h"
#include "stream.h"

enum {
	OPT_ATTRIBUTES = COPT_FIRST_TOOL,
	OPT_ATTR_DIM,
	OPT_LABEL,
	OPT_NAME,
	OPT_NAMES,
	OPT_NODE_LIST,
	OPT_NODES,
	OPT_SKIP_UNKNOWN
};

enum fmt {
	FMT_NONE,
	FMT_LINQS,
	FMT_TU,
	FMT_MOVIELENS,
	FMT_EDGELIST,
	FMT_GRAPHML, /* FMT_GRAPHML..FMT_DIMACS: through igraph (import_igraph.c) */
	FMT_GML,
	FMT_PAJEK,
	FMT_LGL,
	FMT_NCOL,
	FMT_DIMACS,
	FMT_MTX,
	FMT_LAST = FMT_MTX
};

struct opts {
	struct copt c;
	int format;
	struct import_opts io; /* --attributes, --attr-dim, --label, --name, --nodes,
				 * --skip-unknown, -q */
};

#define SYNOPSIS \
	"graph-import -f linqs | tu | movielens | edgelist | graphml | gml | pajek |\n" \
	"                    lgl | ncol | dimacs | mtx [-qt] [-l level]\n" \
	"                    [-o file] [--attributes file] [--attr-dim n] [--label attr]\n" \
	"                    [--name name] [--names] [--node-list file] [--nodes n]\n" \
	"                    [--skip-unknown] file ..."

static void
usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: " SYNOPSIS "\n"
	    "  graph-import -f linqs CONTENT CITES    LINQS content/cites (Cora, CiteSeer, Pubmed)\n"
	    "  graph-import -f tu PREFIX              TU format: PREFIX_A.txt, PREFIX_graph_indicator.txt, ...\n"
	    "  graph-import -f movielens DIR          MovieLens 100K (u.data) or 1M (ratings.dat)\n"
	    "  graph-import -f edgelist [FILE]        'u v [label]' lines, one graph\n"
	    "  graph-import -f graphml|gml|pajek|lgl|ncol|dimacs FILE   read by igraph, one graph\n"
	    "  graph-import -f mtx FILE               Matrix Market: a square coordinate matrix\n"
	    "  Each FILE may also be stored as FILE.gz.\n"
	    "      --attributes FILE  linqs: sparse node attributes, 'id feature value' lines\n"
	    "      --attr-dim N       linqs: attribute columns of --attributes [largest feature + 1]\n"
	    "  -f, --format NAME      input format (required)\n"
	    "  -h, --help             this help\n"
	    "  -j, --threads N        accepted for uniformity; import runs on one thread\n"
	    "  -l, --level N          gzip level, 0 = plain [1]\n"
	    "      --label ATTR       igraph's formats: node attribute ATTR (numbers or text)\n"
	    "                         as the class, a 'label' tensor with its class names\n"
	    "      --name NAME        dataset= attribute of the graphs [from the file name]\n"
	    "      --names            edgelist: every node is a name, integers too\n"
	    "      --node-list FILE   edgelist: the nodes, one name a line, in this order\n"
	    "      --nodes N          edgelist: number of nodes [largest id + 1]\n"
	    "  -o, --output FILE      write to FILE instead of stdout\n"
	    "      --progress         accepted for uniformity; no progress to show\n"
	    "  -q, --quiet            no warnings\n"
	    "  -s, --seed N           accepted for uniformity; import draws nothing at random\n"
	    "      --skip-unknown     linqs: drop links that name an id missing from CONTENT\n"
	    "  -t, --text             write the text form (plain unless -l is given)\n"
	    "      --version          print the version\n");
}

static const char *const fnames[] = { "",    "linqs", "tu",  "movielens", "edgelist", "graphml",
				      "gml", "pajek", "lgl", "ncol",	  "dimacs",   "mtx" };

/* The options into o; returns the number of file operands (argv + optind). */
static int
parse(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "attr-dim", required_argument, NULL, OPT_ATTR_DIM },
		{ "attributes", required_argument, NULL, OPT_ATTRIBUTES },
		{ "format", required_argument, NULL, 'f' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "name", required_argument, NULL, OPT_NAME },
		{ "names", no_argument, NULL, OPT_NAMES },
		{ "node-list", required_argument, NULL, OPT_NODE_LIST },
		{ "nodes", required_argument, NULL, OPT_NODES },
		{ "skip-unknown", no_argument, NULL, OPT_SKIP_UNKNOWN },
		{ NULL, 0, NULL, 0 }
	};
	int ch, f;

	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			o->format = FMT_NONE;
			for (f = 1; f <= FMT_LAST; f++)
				if (strcmp(optarg, fnames[f]) == 0)
					o->format = f;
			if (o->format == FMT_NONE)
				die_usage(
				    "-f: unknown format '%s' (linqs, tu, movielens, edgelist, "
				    "graphml, gml, pajek, lgl, ncol, dimacs or mtx)",
				    optarg);
			break;
		case 'h':
			usage(stdout);
			copt_exit_ok();
		case OPT_ATTRIBUTES:
			o->io.attributes = optarg;
			break;
		case OPT_ATTR_DIM:
			o->io.attr_dim = opt_ll(optarg, 1, 1 << 24, "--attr-dim");
			break;
		case OPT_LABEL:
			if (*optarg == '\0')
				die_usage("--label: empty attribute name");
			o->io.label = optarg;
			break;
		case OPT_NAME:
			if (*optarg == '\0')
				die_usage("--name: empty name");
			o->io.name = optarg;
			break;
		case OPT_NAMES:
			o->io.names = 1;
			break;
		case OPT_NODE_LIST:
			o->io.node_list = optarg;
			break;
		case OPT_NODES:
			o->io.nodes = opt_ll(optarg, 1, GS_MAX_NODES, "--nodes");
			break;
		case OPT_SKIP_UNKNOWN:
			o->io.skip_unknown = 1;
			break;
		default:
			if (copt_handle(&o->c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	o->io.quiet = o->c.quiet;
	return argc - optind;
}

/* The checks of the options against the format and the file count. */
static void
validate(const struct opts *o, int nfiles)
{
	static const int want_lo[] = { 0, 2, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1 },
			 want_hi[] = { 0, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	static const char *const args[] = { "",	      "CONTENT CITES", "PREFIX", "DIR",
					    "[FILE]", "FILE",	       "FILE",	 "FILE",
					    "FILE",   "FILE",	       "FILE",	 "FILE" };

	if (o->format == FMT_NONE)
		die_usage("no -f FORMAT (linqs, tu, movielens, edgelist, graphml, gml, pajek, lgl, "
			  "ncol, dimacs or mtx)");
	if (nfiles < want_lo[o->format] || nfiles > want_hi[o->format])
		die_usage("-f %s takes %s, not %d file argument%s", fnames[o->format],
			  args[o->format], nfiles, nfiles == 1 ? "" : "s");
	if ((o->io.attributes || o->io.attr_dim || o->io.skip_unknown) && o->format != FMT_LINQS)
		die_usage("--attributes, --attr-dim and --skip-unknown are for -f linqs");
	if (o->io.attr_dim && !o->io.attributes)
		die_usage("--attr-dim needs --attributes");
	if (o->io.label && (o->format < FMT_GRAPHML || o->format > FMT_DIMACS))
		die_usage(
		    "--label is for igraph's formats (graphml, gml, pajek, lgl, ncol, dimacs); "
		    "a table's classes: graph-attach --label");
	if (o->io.nodes && o->format != FMT_EDGELIST)
		die_usage("--nodes is for -f edgelist");
	if ((o->io.names || o->io.node_list) && o->format != FMT_EDGELIST)
		die_usage("--names and --node-list are for -f edgelist");
	if (o->io.nodes && (o->io.names || o->io.node_list))
		die_usage("--nodes counts integer ids; with --names or --node-list the nodes are "
			  "named");
}

/* The importer of the format; 0, or -1 / -2 with msg (import.h). */
static int
import(const struct opts *o, char **files, int nfiles, gs_file *out, char *msg, size_t len)
{
	switch (o->format) {
	case FMT_LINQS:
		return import_linqs(&o->io, files, out, msg, len);
	case FMT_TU:
		return import_tu(&o->io, files[0], out, msg, len);
	case FMT_MOVIELENS:
		return import_movielens(&o->io, files[0], out, msg, len);
	case FMT_GRAPHML:
	case FMT_GML:
	case FMT_PAJEK:
	case FMT_LGL:
	case FMT_NCOL:
	case FMT_DIMACS:
		return import_igraph(&o->io, fnames[o->format], files[0], out, msg, len);
	case FMT_MTX:
		return import_mtx(&o->io, files[0], out, msg, len);
	default:
		return import_edgelist(&o->io, nfiles ? files[0] : "-", out, msg, len);
	}
}

int
main(int argc, char **argv)
{
	struct opts o;
	gs_file *out;
	int nfiles, rc;
	char msg[8192]; /* a path (4096) and a line's message */

	err_setprog(argv[0]);
	nfiles = parse(&o, argc, argv);
	validate(&o, nfiles);
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	rc = import(&o, argv + optind, nfiles, out, msg, sizeof msg);
	if (rc == -2)
		die_usage("%s", msg);
	if (rc != 0)
		die("%s", msg);
	gs_close(out);
	return 0;
}
