/*
 * graph-attach - attach a table to the nodes of a graph, or to the graphs
 * of a stream: node classes (a label tensor, -1 for no class), cluster
 * labels (the 'cluster' tensor of gcn-train's cluster task) and numeric
 * attributes (the 'attributes' tensor of gcn-adapt --attributes) from a
 * TSV, CSV or .npy table matched to nodes by name or id; or graph classes
 * (label records, as graph-import -f tu writes them) from a table of
 * graphs.  The options are parsed here; the work is common/attach.c's,
 * the table common/import_table.c's.  Manual: man/man1/graph-attach.1.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attach.h"
#include "err.h"
#include "opt.h"
#include "stream.h"

#define SYNOPSIS \
	"graph-attach [-qt] [-l level] [-o file] [--attributes cols] [--by name|id|order]\n" \
	"                    [--cluster col] [--delimiter c] [--graphs] [--key col]\n" \
	"                    [--label col] [--label-name name] [--skip-unknown]\n" \
	"                    [--unknown value] table [file ...]"

enum {
	OPT_ATTRIBUTES = COPT_FIRST_TOOL,
	OPT_BY,
	OPT_CLUSTER,
	OPT_DELIMITER,
	OPT_GRAPHS,
	OPT_KEY,
	OPT_LABEL,
	OPT_LABEL_NAME,
	OPT_SKIP_UNKNOWN,
	OPT_UNKNOWN
};

static const char *const bys[] = { "name", "id", "order", NULL };

static void
usage(FILE *f, const struct attach *s)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Attaches a TSV, CSV or .npy table to the nodes of a graph (classes, clusters,\n"
		"  attributes) or, with --graphs, to the graphs of a stream (classes).\n"
		"      --attributes COLS  numeric columns (comma-separated, or all) into the\n"
		"                         'attributes' tensor\n"
		"      --by HOW           match rows to nodes by name (the graph's names), id\n"
		"                         (the key is the node or graph id) or order (row i is\n"
		"                         item i) [name if the graph has names, else id; .npy:\n"
		"                         order]\n"
		"      --cluster COL      column into the 'cluster' tensor (gcn-train)\n"
		"      --delimiter C      tab, comma, semicolon, space or one character\n"
		"                         [the header's]\n"
		"      --graphs           a table of graphs: --label into label records\n"
		"  -h, --help             this help\n"
		"  -j, --threads N        accepted for uniformity; it runs on one thread\n"
		"      --key COL          the column that names the node or graph [the first]\n"
		"  -l, --level N          gzip level, 0 = plain [%d]\n"
		"      --label COL        column of classes into the label tensor (or record)\n"
		"      --label-name NAME  name of the label tensor or record [%s]\n"
		"  -o, --output FILE      write to FILE instead of stdout\n"
		"      --progress         progress even when stderr is not a terminal\n"
		"  -q, --quiet            no warnings\n"
		"  -s, --seed N           accepted for uniformity; nothing is drawn at random\n"
		"      --skip-unknown     drop rows naming no node (or graph), with a warning\n"
		"  -t, --text             write the text form (plain unless -l is given)\n"
		"      --unknown VALUE    the cell value meaning no class, besides the empty\n"
		"                         cell ('' for none) [%s]\n"
		"      --version          print the version\n",
		s->c.level, s->label_name, s->unknown);
}

static int
parse_delim(const char *a)
{
	static const char *const w[] = { "tab", "comma", "semicolon", "space", NULL };
	static const char ch[] = { '\t', ',', ';', ' ' };

	if (strlen(a) == 1 && a[0] != '"' && a[0] != '\n' && a[0] != '\r')
		return a[0] == '\t' ? '\t' : a[0];
	return ch[opt_keyword(a, w, "--delimiter")];
}

static void
parse(struct attach *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "attributes", required_argument, NULL, OPT_ATTRIBUTES },
		{ "by", required_argument, NULL, OPT_BY },
		{ "cluster", required_argument, NULL, OPT_CLUSTER },
		{ "delimiter", required_argument, NULL, OPT_DELIMITER },
		{ "graphs", no_argument, NULL, OPT_GRAPHS },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "label-name", required_argument, NULL, OPT_LABEL_NAME },
		{ "skip-unknown", no_argument, NULL, OPT_SKIP_UNKNOWN },
		{ "unknown", required_argument, NULL, OPT_UNKNOWN },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	copt_init(&s->c);
	s->by = ATTACH_BY_AUTO;
	s->label_name = "label";
	s->unknown = "-1";
	while ((ch = copt_next(&s->c, argc, argv, ":" COPT_LETTERS, longopts)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout, s);
			copt_exit_ok();
		case OPT_ATTRIBUTES:
			s->attributes = optarg;
			break;
		case OPT_BY:
			s->by = opt_keyword(optarg, bys, "--by");
			break;
		case OPT_CLUSTER:
			s->cluster = optarg;
			break;
		case OPT_DELIMITER:
			s->delim = parse_delim(optarg);
			break;
		case OPT_GRAPHS:
			s->graphs = 1;
			break;
		case OPT_KEY:
			s->key = optarg;
			break;
		case OPT_LABEL:
			s->label = optarg;
			break;
		case OPT_LABEL_NAME:
			s->label_name = opt_name(optarg, GS_NAME_MAX, "--label-name");
			break;
		case OPT_SKIP_UNKNOWN:
			s->skip = 1;
			break;
		case OPT_UNKNOWN:
			s->unknown = optarg;
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	if (optind >= argc)
		die_usage("no table given; usage: graph-attach [options] table [file ...]");
	s->path = argv[optind++];
	if (strcmp(s->path, "-") == 0) { /* is an input the standard input too? */
		int std = optind == argc;
		for (int i = optind; i < argc; i++)
			std |= strcmp(argv[i], "-") == 0;
		if (std)
			die_usage("the table and the graphs cannot both be the standard input");
	}
	if (s->graphs && (s->cluster || s->attributes))
		die_usage("--graphs: a table of graphs gives --label only");
	if (s->graphs && s->by == TABLE_BY_NAME)
		die_usage("--graphs: graphs have no names: --by id or order");
	if (s->by == TABLE_BY_ORDER && s->key)
		die_usage("--key: --by order has no key column");
	if (strcmp(s->label_name, "cluster") == 0 || strcmp(s->label_name, "attributes") == 0 ||
	    strcmp(s->label_name, "has_attributes") == 0)
		die_usage("--label-name: '%s' is another tensor of graph-attach", s->label_name);
}

int
main(int argc, char **argv)
{
	struct attach s;

	err_setprog(argv[0]);
	memset(&s, 0, sizeof s);
	parse(&s, argc, argv);
	attach_code_table(&s);
	gs_rec_init(&s.out);
	if (s.graphs)
		attach_graphs(&s, argc - optind, argv + optind, argc, argv);
	else
		attach_nodes(&s, argc - optind, argv + optind, argc, argv);
	attach_free(&s);
	return 0;
}
