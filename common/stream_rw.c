/*
 * stream_rw.c - the gnnstream reader and writer as the programs call them
 * (stream.h): gs_read1 finds a segment's form (binary, text, or a plain
 * edge list) and reads each record through it, checking the segment's
 * trailer; gs_write1 writes a record in the writer's form; gs_open_out
 * opens the output with this program's provenance record.  The dispatch
 * above the parts: the forms are stream_text.c and stream_bin.c, the
 * header grammar they share stream_header.c, and the records, the file
 * object, the input buffer, the checks and the output buffer stream_file.c,
 * the records stream_rec.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "outfile.h"
#include "stream.h"
#include "stream_int.h"

/* ------------------------------------------------------------------ */
/* gs_read1                                                           */
/* ------------------------------------------------------------------ */

/* At a segment boundary: read a stream header, or detect an edge list.
 * Returns 1 for a new segment, 0 at clean EOF, 2 for edge-list mode, or
 * an error code. */
static int
read_stream_header(gs_file *fp)
{
	unsigned char *b;
	size_t have;
	int rc;

	if (fp->segments > 0 && !fp->zmode && (rc = gsi_fill(fp, 2)))
		return rc;
	if (fp->segments > 0 && !fp->zmode && fp->len - fp->pos >= 2 && fp->buf[fp->pos] == 0x1f &&
	    fp->buf[fp->pos + 1] == 0x8b)
		gsi_unread_plain(fp); /* a gzip member after plain data */
	if ((rc = gsi_fill(fp, 16)))
		return rc;
	if (fp->len - fp->pos >= 3 && memcmp(fp->buf + fp->pos, UTF8_BOM, 3) == 0) {
		fp->pos += 3; /* a byte-order mark (Windows editors): not data */
		if ((rc = gsi_fill(fp, 16)))
			return rc;
	}
	have = fp->len - fp->pos;
	b = fp->buf + fp->pos;
	if (have == 0) {
		if (fp->segments == 0)
			return gsi_fail(fp, -2, "empty input (no gnnstream header)");
		return 0;
	}
	if (have >= 4 && memcmp(b, BIN_MAGIC, 4) == 0) {
		uint32_t ver, flags;
		if (have < 12)
			return gsi_fail(fp, -2, "truncated stream header");
		memcpy(&ver, b + 4, 4);
		memcpy(&flags, b + 8, 4);
		fp->pos += 12;
		if (ver > GS_VERSION)
			return gsi_fail(fp, -2,
					"stream version %u is newer than this program "
					"reads (%d): upgrade gnnpipe",
					ver, GS_VERSION);
		if (ver == 0)
			return gsi_fail(fp, -2, "bad stream version 0");
		fp->text = 0;
	} else if (have >= sizeof TXT_MAGIC - 1 &&
		   memcmp(b, TXT_MAGIC, sizeof TXT_MAGIC - 1) == 0) {
		char *s, *e;
		long ver;
		if ((rc = gsi_read_line(fp)) < 0)
			return rc;
		s = fp->line + sizeof TXT_MAGIC - 1;
		if (*s != ' ')
			return gsi_fail(fp, -2, "bad stream header '%.60s'", fp->line);
		errno = 0;
		ver = strtol(s + 1, &e, 10);
		if (e == s + 1 || (*e && *e != ' '))
			return gsi_fail(fp, -2, "bad stream header '%.60s'", fp->line);
		if (ver > GS_VERSION)
			return gsi_fail(fp, -2,
					"stream version %ld is newer than this program "
					"reads (%d): upgrade gnnpipe",
					ver, GS_VERSION);
		if (ver <= 0)
			return gsi_fail(fp, -2, "bad stream version %ld", ver);
		fp->text = 1;
	} else if (fp->segments == 0) {
		size_t i;
		/* text, UTF-8 included (a comment may name a place): no control
		 * bytes but tab, CR and LF */
		for (i = 0; i < have; i++)
			if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\r' && b[i] != '\n') ||
			    b[i] == 0x7f)
				return gsi_fail(fp, -2,
						"not a gnnstream (bad magic) and not "
						"an edge list");
		return 2;
	} else {
		return gsi_fail(fp, -2, "garbage after the end of a stream segment");
	}
	fp->segments++;
	fp->seg_records = 0;
	fp->crc = 0;
	fp->state = ST_SEGMENT;
	return 1;
}

/* A names record names the nodes of the graph record it follows
 * (gnnstream(5)), one name a node: one that comes first, follows another
 * graph or counts other nodes would be dropped or misplaced downstream.
 * Returns 0 or -2. */
static int
names_follow(gs_file *fp, const gs_rec *rec)
{
	if (!fp->graph_seen)
		return gsi_fail(fp, -2,
				"names record for graph %" PRId64 " before any graph (a names "
				"record follows its graph)",
				rec->id);
	if (rec->id != fp->graph_id)
		return gsi_fail(fp, -2,
				"names record for graph %" PRId64 " does not follow its graph (it "
				"follows graph %" PRId64 ")",
				rec->id, fp->graph_id);
	if (rec->n != fp->graph_nodes)
		return gsi_fail(fp, -2,
				"names record: count=%" PRId32 ", but graph %" PRId64
				" has %" PRId32 " nodes",
				rec->n, rec->id, fp->graph_nodes);
	return 0;
}

int
gs_read1(gs_file *fp, gs_rec *rec)
{
	int rc, kind;
	int64_t er, ec;

	if (fp->err)
		return fp->err;
	for (;;) {
		if (fp->state == ST_EDGELIST_DONE && fp->el_named == 1) {
			/* the names of the edge list's nodes follow its graph */
			gs_rec_names(rec, 0, fp->el_nnames, fp->el_names_len);
			memcpy(rec->names, fp->el_names, fp->el_names_len);
			fp->el_named = 2;
			fp->recno = 2;
			return GS_NAMES;
		}
		if (fp->state == ST_EDGELIST_DONE)
			return -1;
		if (fp->state != ST_SEGMENT) {
			rc = read_stream_header(fp);
			if (rc == 0)
				return -1;
			if (rc == 2) {
				rc = gsi_read_edgelist(fp, rec);
				fp->state = ST_EDGELIST_DONE;
				return rc;
			}
			if (rc < 0)
				return rc;
		}
		/* a record header */
		fp->recno++;
		if (fp->text) {
			if ((rc = gsi_read_line(fp)) < 0)
				return rc;
			if (rc == 0)
				return gsi_fail(fp, -2, "truncated stream (no end record)");
			if (fp->line[0] != '@')
				return gsi_fail(fp, -2,
						"expected a record header ('@kind ...'), got "
						"'%.40s'",
						fp->line);
			fp->rec_line = fp->lineno;
			kind = gsi_parse_header(fp, fp->line + 1, rec, &er, &ec, 0);
		} else {
			int got;
			uint32_t crc_before = fp->crc;
			if ((rc = gsi_read_bin_header(fp, &got)))
				return rc;
			if (!got)
				return gsi_fail(fp, -2, "truncated stream (no end record)");
			if (strncmp(fp->hdr, "end", 3) == 0 &&
			    (fp->hdr[3] == ' ' || fp->hdr[3] == '\0'))
				fp->crc = crc_before; /* the trailer is not checksummed */
			kind = gsi_parse_header(fp, fp->hdr, rec, &er, &ec, 0);
		}
		if (kind < 0)
			return kind;
		if (kind == K_END) {
			uint32_t crc = fp->crc;
			if (fp->text) /* the end line itself is not checksummed */
				crc = fp->crc_line_start;
			fp->recno--;
			if (fp->text && !fp->line_nl)
				return gsi_fail(fp, -2, "truncated stream (end record cut short)");
			if (!fp->text && (er < 0 || ec < 0))
				return gsi_fail(fp, -2, "end record lacks records= or crc32=");
			if (er >= 0 && er != fp->seg_records)
				return gsi_fail(fp, -2,
						"end record says %" PRId64 " records, the "
						"segment has %" PRId64 " (records lost or added)",
						er, fp->seg_records);
			if (ec >= 0 && (uint32_t)ec != crc)
				return gsi_fail(fp, -2, "checksum mismatch (stream corrupted)");
			fp->state = ST_BETWEEN;
			continue;
		}
		if (kind == GS_GRAPH && fp->graph_check) /* before its edges are read */
			fp->graph_check(fp->graph_check_ctx, fp, rec);
		rc = fp->text ? gsi_read_txt_body(fp, rec) : gsi_read_bin_body(fp, rec);
		if (rc)
			return rc;
		if (kind == GS_NAMES && (rc = names_follow(fp, rec)) != 0)
			return rc;
		if (kind == GS_GRAPH) {
			fp->graph_id = rec->id;
			fp->graph_nodes = rec->n;
			fp->graph_seen = 1;
		}
		fp->seg_records++;
		return kind;
	}
}

/* ------------------------------------------------------------------ */
/* gs_write1, gs_open_out                                             */
/* ------------------------------------------------------------------ */

/* A record header line: "@h\n" in the text form, its length and h in the
 * binary form. */
static void
put_header(gs_file *fp, const char *h)
{
	if (fp->wtext)
		gsi_txt_put_header(fp, h);
	else
		gsi_bin_put_header(fp, h);
}

static void
put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols)
{
	if (fp->wtext)
		gsi_txt_put_matrix(fp, data, dtype, rows, cols);
	else
		gsi_bin_put_matrix(fp, data, dtype, rows, cols);
}

void
gs_write1(gs_file *fp, const gs_rec *r)
{
	static __thread char *hbuf;
	static __thread size_t hcap;
	int k;

	put_header(fp, gsi_format_header(fp, r, &hbuf, &hcap));
	switch (r->kind) {
	case GS_GRAPH:
	case GS_PAIRS:
		if (fp->wtext)
			gsi_txt_put_pairs(fp, r);
		else
			gsi_bin_put_pairs(fp, r);
		break;
	case GS_TENSOR:
		put_matrix(fp, r->data, r->dtype, r->rows, r->cols);
		break;
	case GS_NAMES: /* the same bytes in both forms: a name a line */
		for (const char *p = r->names; p < r->names + r->names_len;) {
			size_t len = strlen(p);
			gsi_wput(fp, p, len);
			gsi_wput(fp, "\n", 1);
			p += len + 1;
		}
		break;
	case GS_MODEL:
		gsi_wput(fp, r->config, r->config_len);
		for (k = 0; k < r->nparams; k++) {
			const gs_param *p = &r->params[k];
			char h[GS_PARAM_HEADER];
			put_header(fp, gsi_format_param(p, h, sizeof h));
			put_matrix(fp, p->data, p->dtype, p->rows, p->cols);
		}
		break;
	}
	fp->wrec++;
}

/* Options that cannot change a program's output: left out of the recorded
 * command line, so the same data gives the same bytes on any thread count. */
static int
neutral_option(char **argv, int i, int *skip)
{
	const char *a = argv[i];

	*skip = 0;
	if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0 || strcmp(a, "--progress") == 0 ||
	    strncmp(a, "--threads=", 10) == 0 || (strncmp(a, "-j", 2) == 0 && a[2] != '\0'))
		return 1;
	if (strcmp(a, "-j") == 0 || strcmp(a, "--threads") == 0) {
		*skip = 1; /* and its value */
		return 1;
	}
	return 0;
}

/* The command line, each argument quoted when needed, less the neutral
 * options (until a "--", after which everything is an operand). */
static char *
join_argv(int argc, char **argv)
{
	size_t cap = 1, len = 0;
	char *s;
	int i, skip, operands = 0;

	for (i = 0; i < argc; i++)
		cap += strlen(argv[i]) + 3;
	s = xmalloc(cap);
	s[0] = '\0';
	for (i = 0; i < argc; i++) {
		int q;
		if (i > 0 && !operands && strcmp(argv[i], "--") == 0)
			operands = 1;
		else if (i > 0 && !operands && neutral_option(argv, i, &skip)) {
			i += skip;
			continue;
		}
		/* the program by its name: where it is installed says nothing
		 * of the data, and would put the machine's paths in the stream */
		const char *a = argv[i];
		if (i == 0 && strrchr(a, '/'))
			a = strrchr(a, '/') + 1;
		q = a[0] == '\0' || strpbrk(a, " \t\n\"'\\") != NULL;
		len += (size_t)snprintf(s + len, cap - len, "%s%s%s%s", len ? " " : "",
					q ? "'" : "", a, q ? "'" : "");
	}
	return s;
}

gs_file *
gs_open_out(const struct copt *c, int argc, char **argv)
{
	gs_file *fp = xcalloc(1, sizeof *fp);
	const char *path = c->output;
	int fd, level = c->level;
	char *cmd, seed[32], line[64];
	gs_rec pg;
	uint32_t h;

	if (c->text && !c->level_set)
		level = 0; /* -t alone writes readable text */
	fp->writing = 1;
	fp->wtext = c->text;
	if (path && strcmp(path, "-") == 0)
		path = NULL;
	if (path == NULL) {
		if (isatty(STDOUT_FILENO) && (!c->text || level > 0))
			die_usage("refusing to write binary data to a terminal "
				  "(use -t, -o FILE or a pipe)");
		fp->name = xstrdup("<stdout>");
		outfile_stdout();
		fd = dup(STDOUT_FILENO);
		if (fd < 0)
			die("<stdout>:");
	} else {
		fp->name = xstrdup(path);
		fd = outfile_open(path, &fp->tmp);
		if (fp->tmp)
			fp->path = xstrdup(path);
	}
	gsi_open_writer(fp, fd, level);

	/* this program's provenance record; its id is a hash of its content,
	 * so reruns of the same command give identical streams */
	cmd = join_argv(argc, argv);
	if (c->seed_set)
		snprintf(seed, sizeof seed, "%" PRIu64, c->seed);
	else
		snprintf(seed, sizeof seed, "-");
	snprintf(line, sizeof line, "%s\t%s\t%s\t", err_prog(), GNNPIPE_VERSION, seed);
	h = (uint32_t)crc32_z(0, (const unsigned char *)line, strlen(line));
	h = (uint32_t)crc32_z(h, (const unsigned char *)cmd, strlen(cmd));
	snprintf(fp->pgid, sizeof fp->pgid, "%08x", h);
	gs_rec_init(&pg);
	pg.kind = GS_PG;
	snprintf(pg.pg, sizeof pg.pg, "%s", fp->pgid);
	gs_attr_set(&pg, "prog", err_prog());
	gs_attr_set(&pg, "version", GNNPIPE_VERSION);
	gs_attr_set(&pg, "seed", seed);
	gs_attr_set(&pg, "cmd", cmd);
	gs_write1(fp, &pg);
	gs_rec_free(&pg);
	free(cmd);
	return fp;
}
