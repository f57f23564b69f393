/*
 * gcn-export - a model record (gcn-train's pre-trained model, one of its
 * checkpoints, an adapted model saved by gcn-adapt) as a safetensors file,
 * the format PyTorch, NumPy and most model tools load: every parameter
 * becomes a tensor of its name, type and shape [rows, cols], and the
 * model's config, name, attributes and provenance go into __metadata__.
 * Manual: man/man1/gcn-export.1.  The file: common/export.c, common/safetensors.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "export.h"
#include "modelio.h"
#include "opt.h"
#include "outfile.h"
#include "reader.h"
#include "stream.h"

#define SYNOPSIS "gcn-export [-q] [-o file] [--format safetensors] [--name name] [file ...]"

enum { OPT_FORMAT = COPT_FIRST_TOOL, OPT_NAME };
static const char *const formats[] = { "safetensors", NULL };

struct opts {
	struct copt c;
	const char *name; /* --name: the model record to export, or NULL */
	int format;	  /* index in formats */
};

/* What the inputs held: the model record to export and the provenance. */
struct input {
	struct gs_reader rd; /* pg records kept */
	gs_rec model;
	struct model_find f; /* where the model is (f.where); f.n model records
				 * could be exported, f.other is one --name
				 * skipped, f.others are neither pg nor model */
	char *src;	     /* the inputs, for messages */
};

/* The output: a stream of bytes, atomic with -o. */
struct output {
	FILE *f;
	const char *name; /* for messages */
	const char *path; /* -o FILE, or NULL */
	char *tmp;
};

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  Writes the parameters of a model record (gcn-train, gcn-adapt --save-model,\n"
		"  a checkpoint) as a safetensors file: a tensor per parameter; the config,\n"
		"  attributes and provenance in its metadata.\n"
		"      --format F          the file format: safetensors [safetensors]\n"
		"  -h, --help              this help\n"
		"  -j, --threads N         accepted for uniformity; gcn-export runs on one thread\n"
		"      --name NAME         export the model record of this name [the first]\n"
		"  -o, --output FILE       write to FILE instead of stdout\n"
		"      --progress          accepted for uniformity; no progress to show\n"
		"  -q, --quiet             no warnings\n"
		"  -l, --level; -s, --seed; -t, --text\n"
		"                          refused: gcn-export writes a safetensors file, not a\n"
		"                          stream, and draws nothing at random\n"
		"      --version           print the version\n");
}

static void
parse(struct opts *o, int argc, char **argv)
{
	static const struct option lo[] = { COPT_LONGOPTS,
					    { "format", required_argument, NULL, OPT_FORMAT },
					    { "name", required_argument, NULL, OPT_NAME },
					    { NULL, 0, NULL, 0 } };
	int ch;

	memset(o, 0, sizeof *o);
	copt_init(&o->c);
	while ((ch = copt_next(&o->c, argc, argv, ":" COPT_LETTERS, lo)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			copt_exit_ok();
		case OPT_FORMAT:
			o->format = opt_keyword(optarg, formats, "--format");
			break;
		case OPT_NAME:
			o->name = opt_name(optarg, GS_NAME_MAX, "--name");
			break;
		default:
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	copt_no_stream(&o->c, "gcn-export writes a safetensors file");
}

/* Open the output before reading, so that a bad -o fails at once. */
static void
open_output(struct output *out, const struct copt *c)
{
	memset(out, 0, sizeof *out);
	if (c->output && strcmp(c->output, "-") != 0) {
		out->path = out->name = c->output;
		out->f = fdopen(outfile_open(c->output, &out->tmp), "wb");
		if (out->f == NULL)
			die("%s:", out->name);
		return;
	}
	if (isatty(STDOUT_FILENO))
		die_usage("refusing to write binary data to a terminal (use -o FILE or a pipe)");
	out->f = stdout;
	out->name = "<stdout>";
}

/* Flush and close, checking every error, and rename -o's temporary file. */
static void
close_output(struct output *out)
{
	if (fflush(out->f) != 0 || ferror(out->f))
		die("%s: write error:", out->name);
	if (fclose(out->f) != 0)
		die("%s: write error:", out->name);
	outfile_commit(out->path, out->tmp);
}

/*
 * Read every input to its end (so a truncated or corrupt stream fails
 * here), keeping the first model record of the wanted name and the pg
 * records.  Dies when there is no such record.
 */
static void
read_input(struct input *in, const struct opts *o, int nfiles, char **files)
{
	struct model_find *f = &in->f;
	char msg[1024]; /* gs_strerror()'s whole line */

	memset(in, 0, sizeof *in);
	in->src = xstrdup(nfiles > 1				 ? "the inputs"
			  : nfiles == 1 && strcmp(files[0], "-") ? files[0]
								 : "<stdin>");
	gs_reader_init(&in->rd, nfiles, files);
	gs_rec_init(&in->model);
	f->name = o->name;
	if (modelio_find(&in->rd, f, &in->model, msg, sizeof msg) < 0)
		die("%s", msg);
	if (f->n == 0 && o->name)
		die("%s: no model record named '%s'%s%s%s", in->src, o->name,
		    *f->other ? " (there is '" : "", f->other, *f->other ? "')" : "");
	if (f->n == 0)
		die("%s: no model record", in->src);
	if (o->c.quiet)
		return;
	if (f->n > 1 && o->name)
		warnx_("%s: %d model records named '%s'; exported the first (%s)", in->src, f->n,
		       o->name, f->where);
	else if (f->n > 1)
		warnx_("%s: %d model records; exported the first, '%s' (%s; --name chooses "
		       "another)",
		       in->src, f->n, in->model.name, f->where);
	if (f->others > 0)
		warnx_("%s: ignored %lld record%s that %s not a model", in->src, f->others,
		       f->others == 1 ? "" : "s", f->others == 1 ? "is" : "are");
}

static void
input_free(struct input *in)
{
	gs_reader_free(&in->rd);
	gs_rec_free(&in->model);
	free(in->src);
}

/* Write the model of in as a safetensors file to out. */
static void
run(const struct input *in, struct output *out)
{
	char msg[512];
	int rc = export_safetensors(out->f, &in->model, in->rd.pg, in->rd.npg, msg, sizeof msg);

	if (rc == -1)
		die("%s: %s", in->f.where, msg);
	if (rc < -1)
		die("%s: write error:", out->name);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct input in;
	struct output out;

	err_setprog(argv[0]);
	parse(&o, argc, argv);
	open_output(&out, &o.c);
	read_input(&in, &o, argc - optind, argv + optind);
	run(&in, &out);
	close_output(&out);
	input_free(&in);
	return 0;
}
