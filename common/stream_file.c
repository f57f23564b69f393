/*
 * stream_file.c - the gnnstream file object (struct gs_file, stream_int.h):
 * opening an input, its buffer (plain and gzip, member by member), the
 * checks of a record's values as they are read, the first error kept;
 * edge-list simplification; the output buffer (checksum, segment header,
 * trailer) and closing.  Above the records (stream_rec.c), below the header
 * grammar (stream_header.c), the two forms (stream_text.c,
 * stream_bin.c) and the dispatch between them (stream_rw.c).  Nothing
 * here calls those files.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "err.h"
#include "outfile.h"
#include "progress.h"
#include "smap.h"
#include "stream.h"
#include "stream_int.h"

/* Raw bytes are read RAW_FILL at a time into a buffer of RAW_CAP: the spare
 * IOBUF takes back a whole decoded buffer (gsi_unread_plain) on top of a full
 * raw buffer. */
#define RAW_FILL (2 * IOBUF)
#define RAW_CAP (3 * IOBUF)

/* ------------------------------------------------------------------ */
/* the file object (struct gs_file is in stream_int.h)                */
/* ------------------------------------------------------------------ */

const char *
gs_name(const gs_file *fp)
{
	return fp->name;
}

const char *
gs_strerror(const gs_file *fp)
{
	return fp->errmsg;
}

const char *
gs_pg_id(const gs_file *fp)
{
	return fp->pgid;
}

const char *
gs_where(gs_file *fp)
{
	if (fp->state == ST_EDGELIST_DONE || (fp->state == ST_START && fp->lineno))
		snprintf(fp->where, sizeof fp->where, "%s: line %" PRId64, fp->name, fp->lineno);
	else
		snprintf(fp->where, sizeof fp->where, "%s: record %" PRId64, fp->name, fp->recno);
	return fp->where;
}

/* Record a data error (-2) once; returns the code for "return gsi_fail(...)". */
int
gsi_fail(gs_file *fp, int code, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	if (fp->err)
		return fp->err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (fp->state == ST_SEGMENT && fp->text)
		snprintf(fp->errmsg, sizeof fp->errmsg,
			 "%s: record %" PRId64 " (line %" PRId64 "): %s", fp->name, fp->recno,
			 fp->lineno, what);
	else if (fp->state == ST_SEGMENT)
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: record %" PRId64 ": %s", fp->name,
			 fp->recno, what);
	else if (fp->lineno > 0)
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: line %" PRId64 ": %s", fp->name,
			 fp->lineno, what);
	else
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: %s", fp->name, what);
	err_one_line(fp->errmsg); /* it may quote a record kind, a value, a line */
	fp->err = code;
	return code;
}

/* ------------------------------------------------------------------ */
/* input buffer                                                       */
/* ------------------------------------------------------------------ */

gs_file *
gs_open_in(const char *path, char *msg, size_t msglen)
{
	int fd;

	if (path == NULL || strcmp(path, "-") == 0) {
		fd = dup(STDIN_FILENO);
		path = NULL;
	} else {
		fd = open(path, O_RDONLY);
	}
	if (fd < 0) {
		snprintf(msg, msglen, "%s: %s", path ? path : "<stdin>", strerror(errno));
		return NULL;
	}
	outfile_input_fd(fd, path); /* never an output's file (outfile.h) */
	return gs_open_fd(fd, path);
}

gs_file *
gs_open_fd(int fd, const char *name)
{
	gs_file *fp;

	fp = xcalloc(1, sizeof *fp);
	fp->name = xstrdup(name ? name : "<stdin>");
	fp->fd = fd;
	fp->raw = xmalloc(RAW_CAP);
	fp->boundary = 1;
	fp->buf = xmalloc(IOBUF);
	fp->state = ST_START;
	return fp;
}

/* Read more raw bytes from the file descriptor.  Returns 0 or -3. */
static int
raw_fill(gs_file *fp)
{
	ssize_t n;

	if (fp->rpos > 0) {
		memmove(fp->raw, fp->raw + fp->rpos, fp->rlen - fp->rpos);
		fp->rlen -= fp->rpos;
		fp->rpos = 0;
	}
	if (fp->rlen >= RAW_FILL)
		return 0;
	do
		n = read(fp->fd, fp->raw + fp->rlen, RAW_FILL - fp->rlen);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return gsi_fail(fp, -3, "read error: %s", strerror(errno));
	if (n == 0)
		fp->reof = 1;
	fp->rlen += (size_t)n;
	fp->rbytes += n;
	if (fp->pr)
		progress_update(fp->pr, fp->rbytes / fp->pr_unit);
	return 0;
}

void
gs_set_progress(gs_file *fp, struct progress *p, int64_t unit)
{
	fp->pr = p;
	fp->pr_unit = unit > 0 ? unit : 1;
}

void
gs_set_graph_check(gs_file *fp, void (*fn)(void *ctx, gs_file *fp, const gs_rec *rec), void *ctx)
{
	fp->graph_check = fn;
	fp->graph_check_ctx = ctx;
}

int64_t
gs_in_bytes(const gs_file *fp)
{
	return fp->rbytes;
}

int64_t
gs_in_size(const gs_file *fp)
{
	struct stat st;

	if (fstat(fp->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	return (int64_t)st.st_size;
}

/*
 * Decoded bytes into dst: plain data is copied, gzip members are inflated
 * (their CRC and length checked by zlib).  After each member, and at the
 * start, the next bytes decide: another gzip member or plain data, so any
 * `cat` of plain and compressed streams reads back.  zlib's gzread() is not
 * used because it ignores plain data after a member and accepts a member
 * whose trailer is missing.  Returns bytes produced (0 at the end) or an
 * error code.
 */
static long
src_read(gs_file *fp, unsigned char *dst, size_t cap)
{
	int rc;

	for (;;) {
		if (!fp->zmode) {
			if (fp->rlen - fp->rpos < 2 && !fp->reof) {
				if ((rc = raw_fill(fp)))
					return rc;
				continue;
			}
			if (fp->rpos == fp->rlen)
				return 0;
			if (fp->boundary && fp->rlen - fp->rpos >= 2 && fp->raw[fp->rpos] == 0x1f &&
			    fp->raw[fp->rpos + 1] == 0x8b) {
				int z = fp->zinit ? inflateReset(&fp->zs)
						  : inflateInit2(&fp->zs, 15 + 16);
				if (z != Z_OK)
					return gsi_fail(fp, -3, "cannot start gzip decoding");
				fp->zinit = 1;
				fp->zmode = 1;
				fp->boundary = 0;
				continue;
			}
			fp->boundary = 0;
			{
				size_t n = fp->rlen - fp->rpos;
				if (n > cap)
					n = cap;
				memcpy(dst, fp->raw + fp->rpos, n);
				fp->rpos += n;
				return (long)n;
			}
		} else {
			size_t produced;
			int z;
			if (fp->rpos == fp->rlen) {
				if (fp->reof)
					return gsi_fail(fp, -2,
							"truncated gzip data (input ends "
							"inside a compressed member)");
				if ((rc = raw_fill(fp)))
					return rc;
				continue;
			}
			fp->zs.next_in = fp->raw + fp->rpos;
			fp->zs.avail_in = (uInt)(fp->rlen - fp->rpos);
			fp->zs.next_out = dst;
			fp->zs.avail_out = (uInt)cap;
			z = inflate(&fp->zs, Z_NO_FLUSH);
			fp->rpos = fp->rlen - fp->zs.avail_in;
			produced = cap - fp->zs.avail_out;
			if (z == Z_STREAM_END) {
				fp->zmode = 0;
				fp->boundary = 1;
			} else if (z != Z_OK && z != Z_BUF_ERROR) {
				return gsi_fail(fp, -2, "corrupt gzip data (%s)",
						fp->zs.msg ? fp->zs.msg : "inflate failed");
			}
			if (produced > 0)
				return (long)produced;
		}
	}
}

/*
 * Give the decoded-but-unread bytes back to the raw layer and mark a
 * boundary: used between segments, where plain data may be followed by a
 * gzip member (`cat plain.gs packed.gs`).  Only plain data can be handed
 * back, and only plain data is in the buffer when the raw layer is not
 * inside a member.
 */
void
gsi_unread_plain(gs_file *fp)
{
	size_t n = fp->len - fp->pos, keep = fp->rlen - fp->rpos;

	if (fp->zmode || n == 0)
		return;
	if (n + keep > RAW_CAP || fp->raw == NULL)
		return; /* cannot happen: buf and raw never hold more */
	memmove(fp->raw + n, fp->raw + fp->rpos, keep);
	memcpy(fp->raw, fp->buf + fp->pos, n);
	fp->rpos = 0;
	fp->rlen = n + keep;
	fp->pos = fp->len = 0;
	fp->eof = 0;
	fp->boundary = 1;
}

/* Refill so that at least want bytes are buffered if the input has them.
 * Returns 0, or an error code (I/O, corrupt gzip). */
int
gsi_fill(gs_file *fp, size_t want)
{
	if (fp->len - fp->pos >= want || fp->eof)
		return 0;
	if (fp->pos > 0) {
		memmove(fp->buf, fp->buf + fp->pos, fp->len - fp->pos);
		fp->len -= fp->pos;
		fp->pos = 0;
	}
	while (fp->len < want && !fp->eof) {
		long n = src_read(fp, fp->buf + fp->len, IOBUF - fp->len);
		if (n < 0)
			return (int)n;
		if (n == 0)
			fp->eof = 1;
		fp->len += (size_t)n;
	}
	return 0;
}

/* Copy n bytes of record data into dst (crc'd). Large reads bypass the
 * buffer.  Returns 0 or an error code; short input is a truncated stream. */
int
gsi_read_bytes(gs_file *fp, void *dst, size_t n)
{
	unsigned char *d = dst;
	size_t have;

	while (n > 0) {
		if (fp->pos == fp->len) {
			int rc = gsi_fill(fp, n < IOBUF ? n : IOBUF);
			if (rc)
				return rc;
			if (fp->pos == fp->len)
				return gsi_fail(fp, -2,
						"truncated stream (input ends inside a record)");
		}
		have = fp->len - fp->pos;
		if (have > n)
			have = n;
		memcpy(d, fp->buf + fp->pos, have);
		fp->crc = (uint32_t)crc32_z(fp->crc, fp->buf + fp->pos, have);
		fp->pos += have;
		d += have;
		n -= have;
	}
	return 0;
}

/*
 * Read a body array of n bytes into *p (capacity *cap).  The buffer grows
 * only as data actually arrives (at most doubling), so a header that lies
 * about its size cannot make us allocate more than twice the input.
 */
int
gsi_read_array(gs_file *fp, void **p, size_t *cap, size_t n)
{
	size_t done = 0;

	while (done < n) {
		size_t step, target = n;
		int rc;
		if (*cap < n) {
			size_t want = *cap ? *cap * 2 : (1u << 20);
			if (want < done + (1u << 20))
				want = done + (1u << 20);
			target = want < n ? want : n;
			gsi_grow(p, cap, target);
		}
		step = target - done;
		rc = gsi_read_bytes(fp, (unsigned char *)*p + done, step);
		if (rc)
			return rc;
		done += step;
	}
	return 0;
}

/* A names record's body as read, each name ended by '\n' (names_len
 * bytes): check it and end each name by '\0' instead.  Time: O(bytes). */
int
gsi_check_names(gs_file *fp, gs_rec *rec)
{
	smap seen = { 0 };
	char *s = rec->names, *end = rec->names + rec->names_len;
	int32_t i;
	int rc = 0;

	for (i = 0; i < rec->n && rc == 0; i++) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *why;
		if (nl == NULL) {
			rc = gsi_fail(fp, -2,
				      "names: %" PRId64 " bytes hold %" PRId32
				      " names, not count=%" PRId32,
				      (int64_t)rec->names_len, i, rec->n);
			break;
		}
		*nl = '\0';
		if (memchr(s, '\0', (size_t)(nl - s)))
			why = "holds a NUL byte";
		else
			why = gs_name_invalid(s);
		if (why)
			rc = gsi_fail(fp, -2, "names: name %" PRId32 " %s", i, why);
		else if (smap_put(&seen, s, i) >= 0)
			rc = gsi_fail(
			    fp, -2, "names: name %" PRId32 " ('%.40s') is also node %" PRId32 "'s",
			    i, s, smap_get(&seen, s));
		s = nl + 1;
	}
	if (rc == 0 && s != end)
		rc = gsi_fail(fp, -2,
			      "names: bytes=%" PRId64 " but the %" PRId32
			      " names end at byte %" PRId64,
			      (int64_t)rec->names_len, rec->n, (int64_t)(s - rec->names));
	smap_free(&seen);
	return rc;
}

/* Check edge or pair i: ids in range, no self-loop in a graph, a finite
 * label. */
int
gsi_check_pair(gs_file *fp, const gs_rec *rec, int64_t i)
{
	int32_t lim = rec->kind == GS_GRAPH ? rec->n : (int32_t)GS_MAX_NODES;
	int32_t a = rec->u[i], b = rec->v[i];

	if (a < 0 || a >= lim || b < 0 || b >= lim) {
		int32_t bad = (a < 0 || a >= lim) ? a : b;
		if (rec->kind == GS_GRAPH)
			return gsi_fail(fp, -2,
					"edge %" PRId64 ": node %d out of range "
					"(nodes %d)",
					i, bad, rec->n);
		return gsi_fail(fp, -2, "pair %" PRId64 ": bad node id %d", i, bad);
	}
	if (a == b && rec->kind == GS_GRAPH)
		return gsi_fail(fp, -2, "edge %" PRId64 ": self-loop on node %d", i, a);
	if (rec->ltype == GS_F64 && !isfinite(((const double *)rec->lab)[i]))
		return gsi_fail(fp, -2, "label %" PRId64 " is not finite", i);
	return 0;
}

/* Check the edges or pairs just read (binary form). */
int
gsi_check_pairs(gs_file *fp, const gs_rec *rec)
{
	int64_t i;
	int rc;

	for (i = 0; i < rec->m; i++)
		if ((rc = gsi_check_pair(fp, rec, i)))
			return rc;
	return 0;
}

/* Values from .. from + n - 1 of a tensor must be finite; messages count
 * from the tensor's first value. */
int
gsi_check_finite(gs_file *fp, const void *data, int dtype, int64_t from, int64_t n,
		 const char *what)
{
	int64_t i;

	if (dtype == GS_F32) {
		const float *x = data;
		for (i = from; i < from + n; i++)
			if (!isfinite(x[i]))
				return gsi_fail(fp, -2, "%s: value %" PRId64 " is not finite", what,
						i);
	} else if (dtype == GS_F64) {
		const double *x = data;
		for (i = from; i < from + n; i++)
			if (!isfinite(x[i]))
				return gsi_fail(fp, -2, "%s: value %" PRId64 " is not finite", what,
						i);
	}
	return 0;
}
/* The config text of a model record (raw bytes in both forms), and room for
 * its parameters. */
int
gsi_read_config(gs_file *fp, gs_rec *rec)
{
	size_t len = rec->config_len;
	int rc;

	gsi_grow((void **)&rec->config, &rec->cap_cfg, len + 1);
	if ((rc = gsi_read_bytes(fp, rec->config, len)))
		return rc;
	rec->config[len] = '\0';
	gsi_shape_params(rec, rec->nparams);
	return 0;
}

/* Rewrite the edge-list record rec as the simple graph g built from it:
 * self-loops dropped, a pair listed more than once (in either orientation)
 * kept once, at its first line and in its first orientation, so the record
 * a filter passes on is the graph it computed on.  A pair listed with two
 * different labels is an error.  Time: O(m log d); memory: 8 bytes an arc. */
static int
simplify_edgelist(gs_file *fp, gs_rec *rec, const graph *g)
{
	int32_t *lab = rec->ltype == GS_I32 ? rec->lab : NULL;
	int64_t *kept = xmallocarray((size_t)(2 * g->m + 1), sizeof *kept);
	int64_t i, w = 0;

	for (i = 0; i < 2 * g->m; i++)
		kept[i] = -1;
	for (i = 0; i < rec->m; i++) {
		int32_t a = rec->u[i], b = rec->v[i];
		int64_t p;
		if (a == b)
			continue;
		p = graph_arc(g, a < b ? a : b, a < b ? b : a);
		if (kept[p] >= 0) {
			int64_t k = kept[p];
			if (lab && lab[k] != lab[i]) {
				free(kept);
				return gsi_fail(fp, -2,
						"edge %d-%d is listed with labels %d and %d",
						rec->u[k], rec->v[k], lab[k], lab[i]);
			}
			continue;
		}
		kept[p] = w;
		rec->u[w] = a;
		rec->v[w] = b;
		if (lab)
			lab[w] = lab[i];
		w++;
	}
	free(kept);
	rec->m = w;
	return 0;
}

/* Integer ids that never occur are nodes without edges: say so, since a
 * list whose ids start at 1, or at 10005, gains nodes its user never had. */
static void
warn_isolated(gs_file *fp, const graph *g)
{
	int32_t v, iso = 0;

	for (v = 0; v < g->n; v++)
		iso += g->off[v + 1] == g->off[v];
	if (iso)
		warnx_("%s: edge list: %" PRId32 " of the node ids 0..%" PRId32
		       " have no edge and are kept as isolated nodes (ids are row numbers; "
		       "graph-import -f edgelist --names numbers only the nodes listed)",
		       fp->name, iso, g->n - 1);
}

void
gs_edge_labels_wanted(gs_file *fp)
{
	fp->el_labels_wanted = 1;
}

int
gs_graph_build(gs_file *fp, gs_rec *rec, graph *g, int quiet)
{
	char msg[300];
	struct graph_fix fix;
	int policy = rec->from_edgelist ? GRAPH_SIMPLIFY : GRAPH_STRICT;
	int rc;

	if (graph_build(g, rec->n, rec->m, rec->u, rec->v, policy, &fix, msg, sizeof msg) != 0) {
		/* the whole record is at fault: name the line of its header (0,
		 * no line, for an edge list), not the last line read */
		int64_t last = fp->lineno;
		fp->err = 0;
		fp->lineno = fp->state == ST_SEGMENT ? fp->rec_line : 0;
		rc = gsi_fail(fp, -2, "%s", msg);
		fp->lineno = last;
		return rc;
	}
	if (!rec->from_edgelist)
		return 0;
	if (fix.self_loops || fix.duplicates) {
		int64_t last = fp->lineno;
		fp->lineno = 0;
		rc = simplify_edgelist(fp, rec, g);
		fp->lineno = last;
		if (rc)
			return rc;
		gs_attr_setf(rec, "self_loops", "%" PRId64, fix.self_loops);
		gs_attr_setf(rec, "duplicates", "%" PRId64, fix.duplicates);
	}
	if (!quiet && (fix.self_loops || fix.duplicates))
		warnx_("%s: edge list: dropped %" PRId64 " self-loop(s), merged %" PRId64
		       " duplicate edge(s)",
		       fp->name, fix.self_loops, fix.duplicates);
	if (!quiet && !fp->el_named)
		warn_isolated(fp, g);
	if (!quiet && fp->el_commas)
		warnx_("%s: %s", fp->name, GS_EDGELIST_CSV);
	if (!quiet && rec->ltype != GS_NONE && !fp->el_labels_wanted)
		warnx_("%s: %s", fp->name, GS_EDGELIST_LABELS);
	if (!quiet && fp->el_attrs)
		warnx_("%s: edge list: ignored the attributes of %" PRId64 " edge(s) "
		       "(networkx's {...} column)",
		       fp->name, fp->el_attrs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* writing                                                            */
/* ------------------------------------------------------------------ */

static void
sink(gs_file *fp, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (fp->pz) {
		if (pgz_write(fp->pz, p, n) != 0)
			die(errno ? "%s: write error:" : "%s: write error (zlib)", fp->name);
	} else if (fwrite(p, 1, n, fp->fp) != n) {
		die("%s: write error:", fp->name);
	}
}

static void
wflush(gs_file *fp)
{
	sink(fp, fp->wbuf, fp->wlen);
	fp->wlen = 0;
}

/* Append record bytes (checksummed). */
void
gsi_wput(gs_file *fp, const void *p, size_t n)
{
	if (n == 0) /* and p may be NULL, for which crc32_z() restarts at 0 */
		return;
	fp->wcrc = (uint32_t)crc32_z(fp->wcrc, p, n);
	if (n >= WBUF / 2) {
		wflush(fp);
		sink(fp, p, n);
		return;
	}
	if (fp->wlen + n > WBUF)
		wflush(fp);
	memcpy(fp->wbuf + fp->wlen, p, n);
	fp->wlen += n;
}

void
gsi_wputs(gs_file *fp, const char *s)
{
	gsi_wput(fp, s, strlen(s));
}

/* Writing to fd from now on, at this level (0: plain), in the text form or
 * not: the compressor or stdio, and the segment header. */
void
gsi_open_writer(gs_file *fp, int fd, int level)
{
	char line[64];

	if (level > 0) {
		fp->pz = pgz_open(fd, level);
	} else {
		fp->fp = fdopen(fd, "wb");
		if (fp->fp == NULL)
			die("%s:", fp->name);
	}
	fp->wbuf = xmalloc(WBUF);

	/* segment header (not checksummed) */
	if (fp->wtext) {
		snprintf(line, sizeof line, "%s %d\n", TXT_MAGIC, GS_VERSION);
		sink(fp, line, strlen(line));
	} else {
		uint32_t hdr[2] = { GS_VERSION, 0 };
		sink(fp, BIN_MAGIC, 4);
		sink(fp, hdr, 8);
	}
}

gs_file *
gs_open_fd_out(int fd, const char *name)
{
	gs_file *fp = xcalloc(1, sizeof *fp);

	fp->writing = 1;
	fp->name = xstrdup(name);
	gsi_open_writer(fp, fd, 0);
	return fp;
}

int
gs_close(gs_file *fp)
{
	char h[96];
	int rc = 0;

	if (fp == NULL)
		return 0;
	if (!fp->writing) {
		if (fp->zinit)
			inflateEnd(&fp->zs);
		close(fp->fd);
		free(fp->raw);
		free(fp->el_names);
		free(fp->buf);
		free(fp->line);
		free(fp->hdr);
		free(fp->name);
		free(fp);
		return 0;
	}
	snprintf(h, sizeof h, "end records=%" PRId64 " crc32=%08x", fp->wrec, fp->wcrc);
	if (fp->wtext) {
		wflush(fp);
		sink(fp, "@", 1);
		sink(fp, h, strlen(h));
		sink(fp, "\n", 1);
	} else {
		uint32_t n = (uint32_t)strlen(h);
		wflush(fp);
		sink(fp, &n, 4);
		sink(fp, h, n);
	}
	if (fp->pz) {
		if (pgz_close(fp->pz) != 0)
			die(errno ? "%s: write error:" : "%s: write error (zlib)", fp->name);
	} else {
		if (fflush(fp->fp) != 0 || ferror(fp->fp))
			die("%s: write error:", fp->name);
		if (fclose(fp->fp) != 0)
			die("%s: write error:", fp->name);
	}
	outfile_commit(fp->path, fp->tmp);
	fp->tmp = NULL;
	free(fp->wbuf);
	free(fp->path);
	free(fp->name);
	free(fp);
	return rc;
}
