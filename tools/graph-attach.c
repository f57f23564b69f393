/*
 * graph-attach - attach a table to the nodes of a graph, or to the graphs
 * of a stream: node classes (a label tensor, -1 for no class), cluster
 * labels (the 'cluster' tensor of gcn-train's cluster task) and numeric
 * attributes (the 'attributes' tensor of gcn-adapt --attributes) from a
 * TSV, CSV or .npy table matched to nodes by name or id; or graph classes
 * (label records, as graph-import -f tu writes them) from a table of
 * graphs.  The table is read by common/import_table.c.
 * Manual: man/man1/graph-attach.1.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "import_table.h"
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
enum { BY_AUTO = -1 }; /* else TABLE_BY_x */

static const char *const bys[] = { "name", "id", "order", NULL };

struct state {
	struct copt c;
	/* options */
	const char *path, *label, *label_name, *cluster, *attributes, *key, *unknown;
	int by, delim, graphs, skip;
	/* the table, its columns coded */
	struct table t;
	int kcol, lcol, ccol, *acols, na;
	int32_t *lab, *clu; /* (rows) class of each row, -1: none */
	classes lcls, ccls;
	char *class_names; /* the label's, in class order */
	float *attr;	   /* (rows, na) */
	char acolumns[65536];
	/* per graph */
	const char *replaces[5];
	int32_t *row_of;
	char warn[2][8400]; /* the warnings of the graph, said at the end */
	int said_long;	    /* the class names were too long: said once */
	gs_rec out;
};

static void
usage(FILE *f, const struct state *s)
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
parse(struct state *s, int argc, char **argv)
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
	s->by = BY_AUTO;
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

/* die() with a message that quotes the table (its column names, cells,
 * node names): control bytes become '?', so that it stays one line. */
static void __attribute__((format(printf, 1, 2), noreturn)) die_line(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	err_one_line(buf);
	die("%s", buf);
}

/* ---- the table's columns ---- */

static int
need_col(const struct state *s, const char *name, const char *opt)
{
	int c = table_col(&s->t, name);

	if (c < 0)
		die_line("%s: no column '%s' (%s; the columns: %s%s%s%s)", s->t.path, name, opt,
			 s->t.col[0], s->t.ncols > 1 ? ", " : "", s->t.ncols > 1 ? s->t.col[1] : "",
			 s->t.ncols > 2 ? ", ..." : "");
	if (c == s->kcol)
		die_usage("%s: '%s' is the key column (--key)", opt, name);
	return c;
}

/* --attributes: "all" (every column but the key, label and cluster ones)
 * or a list of names. */
static void
attr_cols(struct state *s)
{
	char *list = xstrdup(s->attributes), *save = NULL;
	size_t at = 0;

	s->acols = xcalloc((size_t)s->t.ncols + 1, sizeof *s->acols);
	if (strcmp(s->attributes, "all") == 0) {
		for (int c = 0; c < s->t.ncols; c++)
			if (c != s->kcol && c != s->lcol && c != s->ccol)
				s->acols[s->na++] = c;
	} else {
		for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
			int c = need_col(s, w, "--attributes");
			for (int j = 0; j < s->na; j++)
				if (s->acols[j] == c)
					die_usage("--attributes: '%s' twice", w);
			if (s->na == s->t.ncols)
				break;
			s->acols[s->na++] = c;
		}
	}
	free(list);
	if (s->na == 0)
		die_usage("--attributes: no column left to take");
	for (int j = 0; j < s->na; j++) {
		const char *nm = s->t.col[s->acols[j]];
		if (strchr(nm, ','))
			die_line("%s: column '%.40s' holds a comma: not a tensor column name",
				 s->t.path, nm);
		if (at + strlen(nm) + 2 > sizeof s->acolumns)
			die_line("%s: --attributes: the column names exceed %zu bytes", s->t.path,
				 sizeof s->acolumns);
		at += (size_t)sprintf(s->acolumns + at, "%s%s", j ? "," : "", nm);
	}
}

/* A .npy table without column options: a 1-D integer array is classes,
 * anything else attributes. */
static void
npy_defaults(struct state *s)
{
	if (s->label || s->cluster || s->attributes)
		return;
	if (s->t.npy_int && s->t.ncols == 1)
		s->label = "c0";
	else if (!s->graphs)
		s->attributes = "all";
}

static void
code_table(struct state *s)
{
	char msg[8192];
	struct lr_err err = { msg, sizeof msg };

	if (table_read(&s->t, s->path, s->delim, err) != 0)
		die("%s", msg);
	if (s->t.npy)
		npy_defaults(s);
	if (!s->label && !s->cluster && !s->attributes)
		die_usage("nothing to attach: give --label, --cluster or --attributes");
	if (s->t.npy && s->by == BY_AUTO)
		s->by = TABLE_BY_ORDER;
	if (s->t.npy && s->by != TABLE_BY_ORDER)
		die_usage("--by: a .npy table has no key column: --by order");
	s->kcol = s->lcol = s->ccol = -1;
	if (s->by != TABLE_BY_ORDER && (s->kcol = s->key ? table_col(&s->t, s->key) : 0) < 0)
		die_line("%s: no column '%s' (--key)", s->t.path, s->key);
	if (s->label) {
		s->lcol = need_col(s, s->label, "--label");
		s->lab = xmallocarray((size_t)s->t.nrows, sizeof *s->lab);
		table_classes(&s->t, s->lcol, s->unknown, s->lab, &s->lcls);
		if (s->lcls.names.n == 0)
			die_line(
			    "%s: column '%s': no row has a class (every cell is empty or '%s')",
			    s->t.path, s->label, s->unknown);
		if (s->lcls.names.n > 1000000)
			die_line("%s: column '%s': %" PRId32 " classes; at most 1000000", s->t.path,
				 s->label, s->lcls.names.n);
		s->class_names = class_list(&s->lcls);
	}
	if (s->cluster) {
		s->ccol = need_col(s, s->cluster, "--cluster");
		s->clu = xmallocarray((size_t)s->t.nrows, sizeof *s->clu);
		table_classes(&s->t, s->ccol, s->unknown, s->clu, &s->ccls);
		for (int64_t r = 0; r < s->t.nrows; r++)
			if (s->clu[r] < 0)
				die_line(
				    "%s: column '%s' is empty or '%s' (--unknown): gcn-train's "
				    "cluster task needs every node's cluster",
				    table_where(&s->t, r, msg, sizeof msg), s->cluster, s->unknown);
	}
	if (s->attributes) {
		attr_cols(s);
		s->attr = xmallocarray((size_t)s->t.nrows, (size_t)s->na * sizeof *s->attr);
		if (table_floats(&s->t, s->acols, s->na, s->attr, err) != 0)
			die("%s", msg);
	}
}

/* ---- nodes ---- */

/* The attributes of a label tensor or record: the column, the classes
 * and their names (left out, with one warning, past 64 KiB: the header
 * of a record is at most 1 MiB). */
static void
label_attrs(struct state *s, gs_rec *r)
{
	gs_attr_set(r, "column", s->label);
	gs_attr_setf(r, "classes", "%" PRId32, s->lcls.names.n);
	if (strlen(s->class_names) < 65536)
		gs_attr_set(r, "class_names", s->class_names);
	else if (!s->c.quiet && s->said_long++ == 0)
		warnx_("%s: the class names of '%s' are too long for the record header: "
		       "left out",
		       s->t.path, s->label);
}

static void
put_labels(struct state *s, const struct filter_graph *fg)
{
	int32_t n = fg->rec->n, *y;
	int64_t none = 0;

	gs_rec_tensor(&s->out, fg->rec->id, s->label_name, n, 1, GS_I32, s->label_name);
	y = s->out.data;
	for (int32_t v = 0; v < n; v++) {
		y[v] = s->row_of[v] >= 0 ? s->lab[s->row_of[v]] : -1;
		none += y[v] < 0;
	}
	label_attrs(s, &s->out);
	gs_attr_setf(&s->out, "unlabelled", "%" PRId64, none);
	gs_write1(fg->out, &s->out);
}

static void
put_clusters(struct state *s, const struct filter_graph *fg)
{
	int32_t n = fg->rec->n, *y;
	const char **names = fg->names ? gs_names_list(fg->names) : NULL;

	gs_rec_tensor(&s->out, fg->rec->id, "cluster", n, 1, GS_I32, "cluster");
	y = s->out.data;
	for (int32_t v = 0; v < n; v++) {
		if (s->row_of[v] < 0)
			die_line("%s: graph %" PRId64 ": node %" PRId32 "%s%s%s is not in %s: "
				 "gcn-train's cluster task needs every node's cluster",
				 gs_name(fg->in), fg->rec->id, v, names ? " ('" : "",
				 names ? names[v] : "", names ? "')" : "", s->t.path);
		y[v] = s->clu[s->row_of[v]];
	}
	free(names);
	gs_attr_set(&s->out, "column", s->cluster);
	gs_attr_setf(&s->out, "clusters", "%" PRId32, s->ccls.names.n);
	gs_write1(fg->out, &s->out);
}

/* The attributes; the nodes the table misses get zeros, marked in a
 * 'has_attributes' tensor as graph-import -f linqs marks them. */
static void
put_attributes(struct state *s, const struct filter_graph *fg, int64_t missing)
{
	int32_t n = fg->rec->n, *has;
	size_t k = (size_t)s->na;
	float *x;

	gs_rec_tensor(&s->out, fg->rec->id, "attributes", n, s->na, GS_F32, s->acolumns);
	x = s->out.data;
	for (int32_t v = 0; v < n; v++)
		if (s->row_of[v] >= 0)
			memcpy(x + v * k, s->attr + (size_t)s->row_of[v] * k, k * sizeof *x);
		else
			memset(x + v * k, 0, k * sizeof *x);
	gs_write1(fg->out, &s->out);
	if (missing == 0)
		return;
	gs_rec_tensor(&s->out, fg->rec->id, "has_attributes", n, 1, GS_I32, "has_attributes");
	has = s->out.data;
	for (int32_t v = 0; v < n; v++)
		has[v] = s->row_of[v] >= 0;
	gs_write1(fg->out, &s->out);
}

static void
one_graph(void *ctx, const struct filter_graph *fg)
{
	struct state *s = ctx;
	int32_t n = fg->rec->n;
	int by = s->by;
	char msg[8192];
	int64_t unmatched, missing = 0;
	const char **names = NULL;

	if (fg->index > 0)
		die("%s: a second graph (id %" PRId64 "): a node table describes one graph "
		    "(--graphs: a table of graphs)",
		    gs_name(fg->in), fg->rec->id);
	if (by == BY_AUTO)
		by = fg->names ? TABLE_BY_NAME : TABLE_BY_ID;
	if (by == TABLE_BY_NAME && !fg->names)
		die("%s: graph %" PRId64 " has no node names (no names record): --by id",
		    gs_name(fg->in), fg->rec->id);
	if (fg->names)
		names = gs_names_list(fg->names);
	s->row_of = xreallocarray(s->row_of, (size_t)n + 1, sizeof *s->row_of);
	if (table_match(&s->t, by, s->kcol, names, n, s->skip, s->row_of, &unmatched,
			(struct lr_err){ msg, sizeof msg }) != 0)
		die("%s%s", msg,
		    by == TABLE_BY_ID && fg->names && s->by == BY_AUTO ? " (--by name?)" : "");
	free(names);
	for (int32_t v = 0; v < n; v++)
		missing += s->row_of[v] < 0;
	/* said at the end, so that an error (a second graph) is the one line */
	s->warn[0][0] = s->warn[1][0] = '\0';
	if (unmatched > 0)
		snprintf(s->warn[0], sizeof s->warn[0],
			 "%s: dropped %" PRId64 " of %" PRId64 " rows naming no node of graph "
			 "%" PRId64 " (--skip-unknown)",
			 s->t.path, unmatched, s->t.nrows, fg->rec->id);
	if (missing > 0 && (s->label || s->attributes))
		snprintf(
		    s->warn[1], sizeof s->warn[1],
		    "%s: graph %" PRId64 ": %" PRId64 " of %" PRId32 " nodes are not in %s: %s",
		    gs_name(fg->in), fg->rec->id, missing, n, s->t.path,
		    s->label ? "class -1 (none)" : "zero attributes ('has_attributes' marks them)");
	if (s->label)
		put_labels(s, fg);
	if (s->cluster)
		put_clusters(s, fg);
	if (s->attributes)
		put_attributes(s, fg, missing);
}

static void
attach_nodes(struct state *s, int nfiles, char **files, int argc, char **argv)
{
	struct filter f;
	int k = 0;

	if (s->label)
		s->replaces[k++] = s->label_name;
	if (s->cluster)
		s->replaces[k++] = "cluster";
	if (s->attributes) {
		s->replaces[k++] = "attributes";
		s->replaces[k++] = "has_attributes";
	}
	memset(&f, 0, sizeof f);
	f.c = &s->c;
	f.replaces = s->replaces;
	f.want_names = 1;
	f.graph_fn = one_graph;
	f.ctx = s;
	if (filter_run(&f, nfiles, files, argc, argv) == 0)
		die("no graph in the input");
	for (int i = 0; i < 2 && !s->c.quiet; i++)
		if (s->warn[i][0])
			warnx_("%s", s->warn[i]);
}

/* ---- graphs ---- */

/* Graph g of the input (its id): its class, or -1. */
static int32_t
graph_class(struct state *s, const smap *keys, int64_t g, int64_t id)
{
	char b[32];
	int32_t row;

	if (s->by == TABLE_BY_ORDER) {
		row = g < s->t.nrows ? (int32_t)g : -1;
	} else {
		snprintf(b, sizeof b, "%" PRId64, id);
		row = smap_get(keys, b);
	}
	if (g % 256 == 0)
		s->row_of = xreallocarray(s->row_of, (size_t)g + 256, sizeof *s->row_of);
	s->row_of[g] = row;
	return row >= 0 ? s->lab[row] : -1;
}

/* The rows that named no graph, the graphs that had no row. */
static void
graphs_checked(struct state *s, int64_t n)
{
	char msg[8192];
	int64_t unmatched, missing = 0;

	if (n == 0)
		die("no graph in the input");
	if (table_unused(&s->t, s->kcol, s->row_of, n, "a graph of the input", s->skip, &unmatched,
			 (struct lr_err){ msg, sizeof msg }) != 0)
		die("%s", msg);
	if (unmatched > 0 && !s->c.quiet)
		warnx_("%s: dropped %" PRId64 " of %" PRId64 " rows naming no graph of the input "
		       "(--skip-unknown)",
		       s->t.path, unmatched, s->t.nrows);
	for (int64_t g = 0; g < n; g++)
		missing += s->row_of[g] < 0;
	if (missing > 0 && !s->c.quiet)
		warnx_("%" PRId64 " of %" PRId64 " graphs are not in %s: class -1 (none)", missing,
		       n, s->t.path);
}

/* --graphs: each graph, then its label record; a label record of that
 * name in the input is dropped (replaced).  The rows that name no graph
 * are known at the end: the error then comes after the records (with -o,
 * no file is left). */
static void
attach_graphs(struct state *s, int nfiles, char **files, int argc, char **argv)
{
	char msg[8192], *std[] = { "-" };
	smap keys = { 0 };
	gs_file *out;
	int64_t g = 0;
	graph csr;
	gs_rec r;
	int k;

	if (s->by == BY_AUTO)
		s->by = TABLE_BY_ID;
	if (s->by == TABLE_BY_ID &&
	    table_keys(&s->t, s->kcol, 1, &keys, (struct lr_err){ msg, sizeof msg }) != 0)
		die("%s", msg);
	if (nfiles == 0) {
		files = std;
		nfiles = 1;
	}
	out = gs_open_out(&s->c, argc, argv);
	gs_rec_init(&r);
	graph_init(&csr);
	for (int i = 0; i < nfiles; i++) {
		gs_file *in = gs_open_in(files[i], msg, sizeof msg);
		if (in == NULL)
			die("%s", msg);
		while ((k = gs_read1(in, &r)) >= 0) {
			if (k == GS_LABEL && strcmp(r.name, s->label_name) == 0)
				continue;
			if (k == GS_GRAPH && gs_graph_build(in, &r, &csr, s->c.quiet) < 0)
				die("%s", gs_strerror(in)); /* an edge list is simplified */
			gs_write1(out, &r);
			if (k != GS_GRAPH)
				continue;
			int64_t id = r.id;
			gs_rec_label(&r, id, s->label_name, graph_class(s, &keys, g++, id));
			label_attrs(s, &r);
			gs_write1(out, &r);
		}
		if (k < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	graphs_checked(s, g);
	gs_close(out);
	smap_free(&keys);
	graph_free(&csr);
	gs_rec_free(&r);
}

static void
state_free(struct state *s)
{
	table_free(&s->t);
	class_free(&s->lcls);
	class_free(&s->ccls);
	free(s->lab);
	free(s->clu);
	free(s->attr);
	free(s->acols);
	free(s->class_names);
	free(s->row_of);
	gs_rec_free(&s->out);
}

int
main(int argc, char **argv)
{
	struct state s;

	err_setprog(argv[0]);
	memset(&s, 0, sizeof s);
	parse(&s, argc, argv);
	code_table(&s);
	gs_rec_init(&s.out);
	if (s.graphs)
		attach_graphs(&s, argc - optind, argv + optind, argc, argv);
	else
		attach_nodes(&s, argc - optind, argv + optind, argc, argv);
	state_free(&s);
	return 0;
}
