/*
 * mask-edges - remove a random fraction of each graph's edges and write the
 * masked graph, with the removed edges (positives) and sampled non-edges of
 * the original graph (negatives) as a "mask" pair set (paper, Task 1).
 * Manual: man/man1/mask-edges.1.  The sampling lives in common/mask.c,
 * which gcn-train calls too.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "filter.h"
#include "graph.h"
#include "mask.h"
#include "opt.h"
#include "progress.h"
#include "rng.h"
#include "stream.h"

#define PAIRS_NAME "mask"

enum { OPT_STRICT = COPT_FIRST_TOOL };

struct opts {
	struct copt c;
	struct mask_opts m;
	int strict;		/* a shortfall is an error */
	char fraction_text[32]; /* -f, shortest text that reads back exactly */
};

/* Per-run state: buffers reused from graph to graph, shortfall tallies. */
struct state {
	graph g;
	mask_buf b;
	gsl_rng *rng;
	gs_rec out;	 /* the masked graph / the pair set */
	void *alab;	 /* (2m) edge labels by arc position, 8 bytes each */
	uint8_t *aset;	 /* (2m) label already set (first copy wins) */
	size_t cap_alab; /* arcs allocated in alab and aset */
	int64_t graphs, short_pos, short_neg;
	/* the first shortfall of each kind, said at the end: a run that dies
	 * on a later graph then says one line, its error */
	char first_pos[320], first_neg[320];
};

#define SYNOPSIS \
	"mask-edges [-qt] [-f fraction] [-j threads] [-l level] [-n negatives]\n" \
	"                  [-o file] [-p positives | all] [-s seed] [--progress] [--strict]\n" \
	"                  [file ...]"

static void
usage(FILE *f, const struct opts *o)
{
	char pos[32];

	if (o->m.npos == MASK_ALL)
		snprintf(pos, sizeof pos, "all");
	else
		snprintf(pos, sizeof pos, "%" PRId64, o->m.npos);
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  -f, --fraction F    share of each graph's edges to remove, in [0, 1) [%g]\n"
		"  -h, --help          this help\n"
		"  -j, --threads N     accepted for uniformity; masking runs on one thread\n"
		"  -l, --level N       gzip level, 0 = plain [%d]\n"
		"  -n, --negatives N   non-edges of the original graph to sample [%" PRId64 "]\n"
		"  -o, --output FILE   write to FILE instead of stdout\n"
		"  -p, --positives N   removed edges to list, or 'all' [%s]\n"
		"      --progress      progress on stderr even when it is not a terminal\n"
		"  -q, --quiet         no warnings or progress\n"
		"  -s, --seed N        random seed; graph i draws from stream (seed, i) [%" PRIu64
		"]\n"
		"      --strict        exit 1 when a graph cannot give -p or -n pairs\n"
		"  -t, --text          write the text form (plain unless -l is given)\n"
		"      --version       print the version\n",
		o->m.fraction, o->c.level, o->m.nneg, pos, o->c.seed);
}

/* The shortest %g form of x that strtod() reads back as x. */
static void
fmt_exact(char *buf, size_t len, double x)
{
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
	snprintf(buf, len, "%.17g", x);
}

/*
 * Copy the labels of the kept edges into out: the record's labels are
 * indexed by the arc (min, max) of each edge, so the canonical list of the
 * masked graph finds its own.  (An edge list's record is simple by now:
 * gs_graph_build() merged its repeats.)
 */
static void
copy_labels(struct state *s, const gs_rec *rec)
{
	size_t lsz = gs_dtype_size(rec->ltype), arcs = (size_t)(2 * s->g.m);
	int64_t i;

	if (arcs > s->cap_alab || s->alab == NULL) {
		s->alab = xreallocarray(s->alab, arcs ? arcs : 1, 8); /* lsz <= 8 */
		s->aset = xreallocarray(s->aset, arcs ? arcs : 1, 1);
		s->cap_alab = arcs;
	}
	memset(s->aset, 0, arcs);
	for (i = 0; i < rec->m; i++) {
		int32_t a = rec->u[i], c = rec->v[i];
		int64_t p;
		if (a == c)
			continue; /* a self-loop of an edge list, dropped */
		p = a < c ? graph_arc(&s->g, a, c) : graph_arc(&s->g, c, a);
		if (p < 0 || s->aset[p])
			continue;
		s->aset[p] = 1;
		memcpy((char *)s->alab + (size_t)p * lsz, (const char *)rec->lab + (size_t)i * lsz,
		       lsz);
	}
	for (i = 0; i < s->b.m; i++) {
		int64_t p = graph_arc(&s->g, s->b.eu[i], s->b.ev[i]);
		memcpy((char *)s->out.lab + (size_t)i * lsz, (char *)s->alab + (size_t)p * lsz,
		       lsz);
	}
}

/* Mask one graph record and write the masked graph and its pair set. */
static void
mask_one(const struct opts *o, struct state *s, gs_file *in, gs_file *out, gs_rec *rec)
{
	int64_t i, npairs;
	int32_t *lab;
	int rc;

	if (gs_attr_get(rec, "mask_fraction") != NULL)
		die("%s: graph %" PRId64 " is masked already (mask_fraction=%s); "
		    "mask the clean graph",
		    gs_where(in), rec->id, gs_attr_get(rec, "mask_fraction"));
	if (gs_graph_build(in, rec, &s->g, o->c.quiet) != 0)
		die("%s", gs_strerror(in));
	rng_reseed(s->rng, o->c.seed, (uint64_t)rec->id);
	rc = mask_edges(&s->g, s->rng, &o->m, &s->b);
	if (rc < 0)
		die("internal error: mask options rejected");
	s->graphs++;
	if (rc & MASK_SHORT_POS) {
		if (o->strict)
			die("%s: graph %" PRId64 ": %" PRId64 " removed edges, fewer than "
			    "-p %" PRId64 " (--strict)",
			    gs_where(in), rec->id, s->b.r, o->m.npos);
		if (s->short_pos++ == 0)
			snprintf(s->first_pos, sizeof s->first_pos,
				 "%s: graph %" PRId64 ": %" PRId64
				 " positives, fewer than -p %" PRId64 " (only %" PRId64
				 " edges removed)",
				 gs_where(in), rec->id, s->b.npos, o->m.npos, s->b.r);
	}
	if (rc & MASK_SHORT_NEG) {
		if (o->strict)
			die("%s: graph %" PRId64 ": %" PRId64 " non-edges, fewer than "
			    "-n %" PRId64 " (--strict)",
			    gs_where(in), rec->id, s->b.nneg, o->m.nneg);
		if (s->short_neg++ == 0)
			snprintf(s->first_neg, sizeof s->first_neg,
				 "%s: graph %" PRId64 ": %" PRId64
				 " negatives, fewer than -n %" PRId64 " (the graph has no "
				 "more non-edges)",
				 gs_where(in), rec->id, s->b.nneg, o->m.nneg);
	}

	/* The masked graph: same id, name and attributes, plus the masking. */
	gs_rec_graph(&s->out, rec->id, s->g.n, s->b.m, rec->ltype);
	memcpy(s->out.name, rec->name, sizeof s->out.name);
	memcpy(s->out.u, s->b.eu, (size_t)s->b.m * sizeof *s->out.u);
	memcpy(s->out.v, s->b.ev, (size_t)s->b.m * sizeof *s->out.v);
	if (rec->ltype != GS_NONE)
		copy_labels(s, rec);
	for (i = 0; i < rec->nattr; i++)
		gs_attr_set(&s->out, rec->akey[i], rec->aval[i]);
	gs_attr_set(&s->out, "mask_fraction", o->fraction_text);
	gs_attr_setf(&s->out, "masked_edges", "%" PRId64, s->b.r);
	gs_write1(out, &s->out);

	/* The pair set: positives (label 1) first, then negatives (label 0). */
	npairs = s->b.npos + s->b.nneg;
	gs_rec_pairs(&s->out, rec->id, PAIRS_NAME, npairs, GS_I32);
	memcpy(s->out.u, s->b.pu, (size_t)npairs * sizeof *s->out.u);
	memcpy(s->out.v, s->b.pv, (size_t)npairs * sizeof *s->out.v);
	lab = s->out.lab;
	for (i = 0; i < npairs; i++)
		lab[i] = i < s->b.npos;
	gs_attr_setf(&s->out, "positives", "%" PRId64, s->b.npos);
	gs_attr_setf(&s->out, "negatives", "%" PRId64, s->b.nneg);
	gs_write1(out, &s->out);
}

static int
run(const struct opts *o, int nfiles, char **files, gs_file *out)
{
	struct state s;
	struct progress pr;
	gs_rec rec;
	int f;

	progress_init(&pr, &o->c);
	progress_start(&pr, "graphs", 0, NULL);
	memset(&s, 0, sizeof s);
	graph_init(&s.g);
	mask_buf_init(&s.b);
	gs_rec_init(&s.out);
	gs_rec_init(&rec);
	s.rng = rng_new(o->c.seed, 0);
	for (f = 0; f < (nfiles ? nfiles : 1); f++) {
		char msg[512];
		gs_file *in = gs_open_in(nfiles ? files[f] : "-", msg, sizeof msg);
		int64_t graph_id = -1;
		int r;

		if (in == NULL)
			die("%s", msg);
		while ((r = gs_read1(in, &rec)) >= 0) {
			if (r == GS_GRAPH) {
				mask_one(o, &s, in, out, &rec);
				graph_id = rec.id;
				progress_update(&pr, s.graphs);
			} else {
				filter_follows_graph(in, &rec, graph_id);
				gs_write1(out, &rec);
			}
		}
		if (r < -1)
			die("%s", gs_strerror(in));
		gs_close(in);
	}
	progress_done(&pr);
	if (!o->c.quiet && s.short_pos > 0)
		warnx_("%s", s.first_pos);
	if (!o->c.quiet && s.short_neg > 0)
		warnx_("%s", s.first_neg);
	if (!o->c.quiet && (s.short_pos > 1 || s.short_neg > 1))
		warnx_("%" PRId64 " of %" PRId64 " graphs had fewer positives than -p, %" PRId64
		       " fewer negatives than -n (see the positives= and negatives= "
		       "of their '" PAIRS_NAME "' pair sets)",
		       s.short_pos, s.graphs, s.short_neg);
	gs_rec_free(&rec);
	gs_rec_free(&s.out);
	mask_buf_free(&s.b);
	graph_free(&s.g);
	gsl_rng_free(s.rng);
	free(s.alab);
	free(s.aset);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = { COPT_LONGOPTS,
						  { "fraction", required_argument, NULL, 'f' },
						  { "negatives", required_argument, NULL, 'n' },
						  { "positives", required_argument, NULL, 'p' },
						  { "strict", no_argument, NULL, OPT_STRICT },
						  { NULL, 0, NULL, 0 } };
	struct opts o;
	gs_file *out;
	int ch, rc;

	err_setprog(argv[0]);
	copt_init(&o.c);
	mask_opts_init(&o.m);
	o.m.want = MASK_EDGES;
	o.strict = 0;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:n:p:" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			o.m.fraction = opt_double(optarg, 0, HUGE_VAL, "-f");
			if (o.m.fraction >= 1)
				die_usage("-f: %s is too large (the fraction must be below 1)",
					  optarg);
			o.m.fraction += 0.0; /* -0 reads as 0 */
			break;
		case 'h':
			usage(stdout, &o);
			copt_exit_ok();
		case 'n':
			o.m.nneg = opt_ll(optarg, 0, GS_MAX_EDGES, "-n");
			break;
		case 'p':
			if (strcmp(optarg, "all") == 0)
				o.m.npos = MASK_ALL;
			else
				o.m.npos = opt_ll(optarg, 0, GS_MAX_EDGES, "-p");
			break;
		case OPT_STRICT:
			o.strict = 1;
			break;
		default:
			if (copt_handle(&o.c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	fmt_exact(o.fraction_text, sizeof o.fraction_text, o.m.fraction);
	/* A default seed is still a seed: let the pg record show it. */
	o.c.seed_set = 1;
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	rc = run(&o, argc - optind, argv + optind, out);
	gs_close(out);
	return rc;
}
