/*
 * stream.c - the gnnstream reader and writer; format in man/man5/gnnstream.5,
 * API in stream.h.  The text form and the header-line grammar are in
 * stream_text.c, the binary form in stream_bin.c; the three share the file
 * object of stream_int.h.
 *
 * Layout of this file: record helpers, the file object, the input buffer,
 * the checks of a record's values, gs_read1 (segments, records, the end
 * record), then the writer (buffer, checksum, provenance, trailer).
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
 * IOBUF takes back a whole decoded buffer (unread_plain) on top of a full
 * raw buffer. */
#define RAW_FILL (2 * IOBUF)
#define RAW_CAP (3 * IOBUF)

/* ------------------------------------------------------------------ */
/* records                                                            */
/* ------------------------------------------------------------------ */

void
gs_rec_init(gs_rec *r)
{
	memset(r, 0, sizeof *r);
	r->id = -1;
}

void
gs_rec_clear(gs_rec *r)
{
	int i;

	for (i = 0; i < r->nattr; i++) {
		free(r->akey[i]);
		free(r->aval[i]);
	}
	r->nattr = 0;
	r->kind = 0;
	r->id = -1;
	r->pg[0] = '\0';
	r->name[0] = '\0';
	r->n = 0;
	r->m = 0;
	r->ltype = GS_NONE;
	r->rows = r->cols = 0;
	r->dtype = GS_NONE;
	if (r->columns)
		r->columns[0] = '\0';
	r->value = 0;
	if (r->config)
		r->config[0] = '\0';
	r->config_len = 0;
	r->nparams = 0;
	r->names_len = 0;
	r->from_edgelist = 0;
}

void
gs_rec_free(gs_rec *r)
{
	int i;

	if (r == NULL)
		return;
	gs_rec_clear(r);
	free(r->akey);
	free(r->aval);
	free(r->u);
	free(r->v);
	free(r->lab);
	free(r->data);
	free(r->columns);
	free(r->config);
	free(r->names);
	for (i = 0; i < r->cap_params; i++)
		free(r->params[i].data);
	free(r->params);
	gs_rec_init(r);
}

double
gs_rec_bytes(const gs_rec *r)
{
	double b = 2.0 * (double)r->cap_m * sizeof(int32_t) + (double)r->cap_lab +
		   (double)r->cap_data + (double)r->cap_cfg + (double)r->cap_names;

	for (int i = 0; i < r->cap_params; i++)
		b += (double)r->params[i].cap;
	return b;
}

size_t
gs_dtype_size(int dtype)
{
	switch (dtype) {
	case GS_F32:
	case GS_I32:
		return 4;
	case GS_F64:
	case GS_I64:
		return 8;
	}
	return 0;
}
static const char *const kind_names[] = { NULL,	   "pg",    "graph", "tensor",
					  "pairs", "label", "model", "names" };

const char *
gs_kind_name(int kind)
{
	if (kind >= GS_PG && kind <= GS_NAMES)
		return kind_names[kind];
	return "?";
}

/* Grow *p (of *cap bytes) to hold n bytes. */
void
gsi_grow(void **p, size_t *cap, size_t n)
{
	if (n <= *cap && *p != NULL)
		return;
	*p = xrealloc(*p, n ? n : 1);
	*cap = n ? n : 1;
}

void
gsi_set_name(char *dst, const char *name)
{
	snprintf(dst, GS_NAME_MAX, "%s", name ? name : "");
}

void
gsi_shape_edges(gs_rec *r, int64_t m, int ltype)
{
	size_t nb = (size_t)m * sizeof(int32_t);

	if ((size_t)m > r->cap_m || r->u == NULL) {
		r->u = xrealloc(r->u, nb ? nb : 1);
		r->v = xrealloc(r->v, nb ? nb : 1);
		r->cap_m = (size_t)m;
	}
	r->m = m;
	r->ltype = ltype;
	if (ltype != GS_NONE)
		gsi_grow(&r->lab, &r->cap_lab, (size_t)m * gs_dtype_size(ltype));
}

void
gs_rec_graph(gs_rec *r, int64_t id, int32_t n, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_GRAPH;
	r->id = id;
	r->n = n;
	gsi_shape_edges(r, m, ltype);
}

void
gs_rec_pairs(gs_rec *r, int64_t id, const char *name, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_PAIRS;
	r->id = id;
	gsi_set_name(r->name, name);
	gsi_shape_edges(r, m, ltype);
}

void
gsi_set_columns(gs_rec *r, const char *columns)
{
	size_t len = strlen(columns ? columns : "") + 1;

	gsi_grow((void **)&r->columns, &r->cap_cols, len);
	memcpy(r->columns, columns ? columns : "", len);
}

void
gs_rec_tensor(gs_rec *r, int64_t id, const char *name, int64_t rows, int64_t cols, int dtype,
	      const char *columns)
{
	gs_rec_clear(r);
	r->kind = GS_TENSOR;
	r->id = id;
	gsi_set_name(r->name, name);
	r->rows = rows;
	r->cols = cols;
	r->dtype = dtype;
	gsi_grow(&r->data, &r->cap_data, (size_t)(rows * cols) * gs_dtype_size(dtype));
	gsi_set_columns(r, columns);
}

void
gs_rec_label(gs_rec *r, int64_t id, const char *name, int64_t value)
{
	gs_rec_clear(r);
	r->kind = GS_LABEL;
	r->id = id;
	gsi_set_name(r->name, name);
	r->value = value;
}

static void
set_config(gs_rec *r, const char *text, size_t len)
{
	gsi_grow((void **)&r->config, &r->cap_cfg, len + 1);
	memcpy(r->config, text, len);
	r->config[len] = '\0';
	r->config_len = len;
}

void
gsi_shape_params(gs_rec *r, int nparams)
{
	if (nparams > r->cap_params) {
		r->params = xreallocarray(r->params, (size_t)nparams, sizeof *r->params);
		memset(r->params + r->cap_params, 0,
		       (size_t)(nparams - r->cap_params) * sizeof *r->params);
		r->cap_params = nparams;
	}
	r->nparams = nparams;
}

void
gs_rec_model(gs_rec *r, const char *name, const char *config, int nparams)
{
	gs_rec_clear(r);
	r->kind = GS_MODEL;
	r->id = -1;
	gsi_set_name(r->name, name);
	set_config(r, config ? config : "", strlen(config ? config : ""));
	gsi_shape_params(r, nparams);
}

void
gs_rec_names(gs_rec *r, int64_t id, int32_t count, size_t bytes)
{
	gs_rec_clear(r);
	r->kind = GS_NAMES;
	r->id = id;
	r->n = count;
	gsi_grow((void **)&r->names, &r->cap_names, bytes + 1);
	r->names[bytes] = '\0';
	r->names_len = bytes;
}

void
gs_names_set(gs_rec *r, int64_t id, const char *const *names, int32_t count)
{
	size_t bytes = 0, k = 0;

	for (int32_t i = 0; i < count; i++)
		bytes += strlen(names[i]) + 1;
	gs_rec_names(r, id, count, bytes);
	for (int32_t i = 0; i < count; i++) {
		size_t len = strlen(names[i]) + 1;
		memcpy(r->names + k, names[i], len);
		k += len;
	}
}

const char **
gs_names_list(const gs_rec *r)
{
	const char **p = xreallocarray(NULL, (size_t)r->n + 1, sizeof *p);
	size_t k = 0;

	for (int32_t i = 0; i < r->n; i++) {
		p[i] = r->names + k;
		k += strlen(p[i]) + 1;
	}
	return p;
}

const char *
gs_third_column(const char *w)
{
	static _Thread_local char msg[200];

	snprintf(msg, sizeof msg,
		 "third column '%.40s' is not an integer: it is an edge label, and weights are "
		 "not kept (drop the column: cut -f1,2)",
		 w);
	err_one_line(msg);
	return msg;
}

const char *
gs_name_invalid(const char *name)
{
	size_t len = strlen(name);

	if (len == 0)
		return "is empty";
	if (len > GS_MAX_NODE_NAME)
		return "is longer than 1024 bytes";
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "holds a control character (a tab, a newline, ...)";
	return NULL;
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

gs_param *
gs_rec_param(gs_rec *r, int i, const char *name, int64_t rows, int64_t cols, int dtype)
{
	gs_param *p = &r->params[i];

	gsi_set_name(p->name, name);
	p->rows = rows;
	p->cols = cols;
	p->dtype = dtype;
	gsi_grow(&p->data, &p->cap, (size_t)(rows * cols) * gs_dtype_size(dtype));
	return p;
}

void
gs_attr_set(gs_rec *r, const char *key, const char *val)
{
	int i;

	for (i = 0; i < r->nattr; i++)
		if (strcmp(r->akey[i], key) == 0) {
			free(r->aval[i]);
			r->aval[i] = xstrdup(val);
			return;
		}
	if ((size_t)r->nattr == r->cap_attr) {
		r->cap_attr = r->cap_attr ? 2 * r->cap_attr : 8;
		r->akey = xreallocarray(r->akey, r->cap_attr, sizeof *r->akey);
		r->aval = xreallocarray(r->aval, r->cap_attr, sizeof *r->aval);
	}
	r->akey[r->nattr] = xstrdup(key);
	r->aval[r->nattr] = xstrdup(val);
	r->nattr++;
}

void
gs_attr_setf(gs_rec *r, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	gs_attr_set(r, key, buf);
}

const char *
gs_attr_get(const gs_rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nattr; i++)
		if (strcmp(r->akey[i], key) == 0)
			return r->aval[i];
	return NULL;
}

int
gs_tensor_col(const gs_rec *r, const char *name)
{
	const char *s = r->columns;
	size_t len = strlen(name);
	int i = 0;

	if (s == NULL)
		return -1;
	while (*s) {
		const char *e = strchr(s, ',');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == len && strncmp(s, name, len) == 0)
			return i;
		i++;
		if (e == NULL)
			break;
		s = e + 1;
	}
	return -1;
}
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
static void
unread_plain(gs_file *fp)
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
		unread_plain(fp); /* a gzip member after plain data */
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
	if (fp->gzw) {
		const unsigned char *c = p;
		while (n > 0) {
			unsigned chunk = n > (1u << 30) ? (1u << 30) : (unsigned)n;
			if (gzwrite(fp->gzw, c, chunk) != (int)chunk) {
				int zerr;
				const char *s = gzerror(fp->gzw, &zerr);
				if (zerr == Z_ERRNO)
					die("%s: write error:", fp->name);
				die("%s: write error (%s)", fp->name, s);
			}
			c += chunk;
			n -= chunk;
		}
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

/* Writing to fd from now on, at this level (0: plain), in the text form or
 * not: the compressor or stdio, and the segment header. */
static void
open_writer(gs_file *fp, int fd, int level)
{
	char mode[16], line[64];

	if (level > 0) {
		snprintf(mode, sizeof mode, "wb%d", level);
		fp->gzw = gzdopen(fd, mode);
		if (fp->gzw == NULL)
			die("%s: cannot open for writing", fp->name);
		gzbuffer(fp->gzw, IOBUF);
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
	open_writer(fp, fd, 0);
	return fp;
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
	open_writer(fp, fd, level);

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
	if (fp->gzw) {
		int z = gzclose(fp->gzw);
		if (z != Z_OK)
			die(z == Z_ERRNO ? "%s: write error:" : "%s: write error", fp->name);
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
