/*
 * stream.c - the gnnstream reader and writer; format in man/man5/gnnstream.5,
 * API in stream.h.
 *
 * Layout of this file: record helpers, the input buffer, header-line
 * parsing, the binary and text record readers, the edge-list reader, then
 * the writer.  Every multi-byte number of the binary form is little-endian;
 * this file refuses to build on a big-endian host rather than byte-swap.
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
#include "stream.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "gnnstream binary form is little-endian; this host is not"
#endif

#define BIN_MAGIC "\x89GNS"
#define TXT_MAGIC "##gnnstream"
#define UTF8_BOM "\xef\xbb\xbf"	/* skipped where a stream or edge list starts */
#define MAX_HEADER (1u << 20)	/* one record header line */
#define IOBUF (1u << 18)
/* Raw bytes are read RAW_FILL at a time into a buffer of RAW_CAP: the spare
 * IOBUF takes back a whole decoded buffer (unread_plain) on top of a full
 * raw buffer. */
#define RAW_FILL (2 * IOBUF)
#define RAW_CAP (3 * IOBUF)

/* ------------------------------------------------------------------ */
/* records                                                            */
/* ------------------------------------------------------------------ */

void gs_rec_init(gs_rec *r)
{
	memset(r, 0, sizeof *r);
	r->id = -1;
}

void gs_rec_clear(gs_rec *r)
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
	r->from_edgelist = 0;
}

void gs_rec_free(gs_rec *r)
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
	for (i = 0; i < r->cap_params; i++)
		free(r->params[i].data);
	free(r->params);
	gs_rec_init(r);
}

double gs_rec_bytes(const gs_rec *r)
{
	double b = 2.0 * (double)r->cap_m * sizeof(int32_t) + (double)r->cap_lab +
		(double)r->cap_data + (double)r->cap_cfg;

	for (int i = 0; i < r->cap_params; i++)
		b += (double)r->params[i].cap;
	return b;
}

size_t gs_dtype_size(int dtype)
{
	switch (dtype) {
	case GS_F32: case GS_I32: return 4;
	case GS_F64: case GS_I64: return 8;
	}
	return 0;
}

static const char *dtype_name(int dtype)
{
	switch (dtype) {
	case GS_F32: return "f32";
	case GS_F64: return "f64";
	case GS_I32: return "i32";
	case GS_I64: return "i64";
	}
	return "none";
}

static int dtype_parse(const char *s)
{
	if (strcmp(s, "f32") == 0) return GS_F32;
	if (strcmp(s, "f64") == 0) return GS_F64;
	if (strcmp(s, "i32") == 0) return GS_I32;
	if (strcmp(s, "i64") == 0) return GS_I64;
	if (strcmp(s, "none") == 0) return GS_NONE;
	return -1;
}

static const char *const kind_names[] = {
	NULL, "pg", "graph", "tensor", "pairs", "label", "model"
};

const char *gs_kind_name(int kind)
{
	if (kind >= GS_PG && kind <= GS_MODEL)
		return kind_names[kind];
	return "?";
}

/* Grow *p (of *cap bytes) to hold n bytes. */
static void grow(void **p, size_t *cap, size_t n)
{
	if (n <= *cap && *p != NULL)
		return;
	*p = xrealloc(*p, n ? n : 1);
	*cap = n ? n : 1;
}

static void set_name(char *dst, const char *name)
{
	snprintf(dst, GS_NAME_MAX, "%s", name ? name : "");
}

static void shape_edges(gs_rec *r, int64_t m, int ltype)
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
		grow(&r->lab, &r->cap_lab, (size_t)m * gs_dtype_size(ltype));
}

void gs_rec_graph(gs_rec *r, int64_t id, int32_t n, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_GRAPH;
	r->id = id;
	r->n = n;
	shape_edges(r, m, ltype);
}

void gs_rec_pairs(gs_rec *r, int64_t id, const char *name, int64_t m, int ltype)
{
	gs_rec_clear(r);
	r->kind = GS_PAIRS;
	r->id = id;
	set_name(r->name, name);
	shape_edges(r, m, ltype);
}

static void set_columns(gs_rec *r, const char *columns)
{
	size_t len = strlen(columns ? columns : "") + 1;

	grow((void **)&r->columns, &r->cap_cols, len);
	memcpy(r->columns, columns ? columns : "", len);
}

void gs_rec_tensor(gs_rec *r, int64_t id, const char *name, int64_t rows,
		   int64_t cols, int dtype, const char *columns)
{
	gs_rec_clear(r);
	r->kind = GS_TENSOR;
	r->id = id;
	set_name(r->name, name);
	r->rows = rows;
	r->cols = cols;
	r->dtype = dtype;
	grow(&r->data, &r->cap_data, (size_t)(rows * cols) * gs_dtype_size(dtype));
	set_columns(r, columns);
}

void gs_rec_label(gs_rec *r, int64_t id, const char *name, int64_t value)
{
	gs_rec_clear(r);
	r->kind = GS_LABEL;
	r->id = id;
	set_name(r->name, name);
	r->value = value;
}

static void set_config(gs_rec *r, const char *text, size_t len)
{
	grow((void **)&r->config, &r->cap_cfg, len + 1);
	memcpy(r->config, text, len);
	r->config[len] = '\0';
	r->config_len = len;
}

static void shape_params(gs_rec *r, int nparams)
{
	if (nparams > r->cap_params) {
		r->params = xreallocarray(r->params, (size_t)nparams, sizeof *r->params);
		memset(r->params + r->cap_params, 0,
		       (size_t)(nparams - r->cap_params) * sizeof *r->params);
		r->cap_params = nparams;
	}
	r->nparams = nparams;
}

void gs_rec_model(gs_rec *r, const char *name, const char *config, int nparams)
{
	gs_rec_clear(r);
	r->kind = GS_MODEL;
	r->id = -1;
	set_name(r->name, name);
	set_config(r, config ? config : "", strlen(config ? config : ""));
	shape_params(r, nparams);
}

gs_param *gs_rec_param(gs_rec *r, int i, const char *name, int64_t rows,
		       int64_t cols, int dtype)
{
	gs_param *p = &r->params[i];

	set_name(p->name, name);
	p->rows = rows;
	p->cols = cols;
	p->dtype = dtype;
	grow(&p->data, &p->cap, (size_t)(rows * cols) * gs_dtype_size(dtype));
	return p;
}

void gs_attr_set(gs_rec *r, const char *key, const char *val)
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

void gs_attr_setf(gs_rec *r, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	gs_attr_set(r, key, buf);
}

const char *gs_attr_get(const gs_rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->nattr; i++)
		if (strcmp(r->akey[i], key) == 0)
			return r->aval[i];
	return NULL;
}

int gs_tensor_col(const gs_rec *r, const char *name)
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
/* the file object                                                    */
/* ------------------------------------------------------------------ */

enum { ST_START, ST_SEGMENT, ST_BETWEEN, ST_EDGELIST_DONE };

struct gs_file {
	int writing;
	char *name;		/* display name */

	/* reading: raw bytes from fd, inflated member by member */
	int fd;
	unsigned char *raw;
	size_t rpos, rlen;
	int reof;
	z_stream zs;
	int zinit;		/* inflateInit2 done */
	int zmode;		/* 1 inside a gzip member */
	int boundary;		/* a gzip member may start here */
	unsigned char *buf;
	size_t pos, len;
	int eof;
	int state;
	int text;		/* form of the current segment */
	int64_t segments;
	int64_t seg_records;	/* records in the current segment */
	uint32_t crc;		/* CRC-32 of the current segment's record bytes */
	uint32_t crc_line_start;	/* crc before the current text line */
	int64_t recno;		/* records read, 1-based in messages */
	int64_t lineno;		/* text form: lines read */
	int64_t rec_line;	/* text form: line of the current record's header */
	int err;
	char errmsg[600];
	char where[400];
	char *line;		/* current line (text form) */
	size_t line_cap, line_len;
	int line_nl;		/* the line ended with a newline */
	char *hdr;		/* header line of the current record */
	size_t hdr_cap;
	int64_t el_attrs;	/* edge list: edges whose attribute dict was ignored */
	int64_t rbytes;		/* bytes read from fd so far */
	struct progress *pr;	/* told rbytes / pr_unit as they arrive, or NULL */
	int64_t pr_unit;

	/* writing */
	FILE *fp;		/* level 0 */
	gzFile gzw;		/* level > 0 */
	char *path;		/* final path, or NULL for stdout */
	char *tmp;		/* temporary path for -o */
	int wtext;
	char pgid[16];
	unsigned char *wbuf;
	size_t wlen;
	int64_t wrec;
	uint32_t wcrc;
};

const char *gs_name(const gs_file *fp)
{
	return fp->name;
}

const char *gs_strerror(const gs_file *fp)
{
	return fp->errmsg;
}

const char *gs_pg_id(const gs_file *fp)
{
	return fp->pgid;
}

const char *gs_where(gs_file *fp)
{
	if (fp->state == ST_EDGELIST_DONE || (fp->state == ST_START && fp->lineno))
		snprintf(fp->where, sizeof fp->where, "%s: line %" PRId64, fp->name,
			 fp->lineno);
	else
		snprintf(fp->where, sizeof fp->where, "%s: record %" PRId64, fp->name,
			 fp->recno);
	return fp->where;
}

/* Record a data error (-2) once; returns the code for "return fail(...)". */
static int fail(gs_file *fp, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(gs_file *fp, int code, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	if (fp->err)
		return fp->err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (fp->state == ST_SEGMENT && fp->text)
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: record %" PRId64 " (line %"
			 PRId64 "): %s", fp->name, fp->recno, fp->lineno, what);
	else if (fp->state == ST_SEGMENT)
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: record %" PRId64 ": %s",
			 fp->name, fp->recno, what);
	else if (fp->lineno > 0)
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: line %" PRId64 ": %s",
			 fp->name, fp->lineno, what);
	else
		snprintf(fp->errmsg, sizeof fp->errmsg, "%s: %s", fp->name, what);
	err_one_line(fp->errmsg);	/* it may quote a record kind, a value, a line */
	fp->err = code;
	return code;
}

/* ------------------------------------------------------------------ */
/* input buffer                                                       */
/* ------------------------------------------------------------------ */

gs_file *gs_open_in(const char *path, char *msg, size_t msglen)
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
	return gs_open_fd(fd, path);
}

gs_file *gs_open_fd(int fd, const char *name)
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
static int raw_fill(gs_file *fp)
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
		return fail(fp, -3, "read error: %s", strerror(errno));
	if (n == 0)
		fp->reof = 1;
	fp->rlen += (size_t)n;
	fp->rbytes += n;
	if (fp->pr)
		progress_update(fp->pr, fp->rbytes / fp->pr_unit);
	return 0;
}

void gs_set_progress(gs_file *fp, struct progress *p, int64_t unit)
{
	fp->pr = p;
	fp->pr_unit = unit > 0 ? unit : 1;
}

int64_t gs_in_bytes(const gs_file *fp)
{
	return fp->rbytes;
}

int64_t gs_in_size(const gs_file *fp)
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
static long src_read(gs_file *fp, unsigned char *dst, size_t cap)
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
			if (fp->boundary && fp->rlen - fp->rpos >= 2 &&
			    fp->raw[fp->rpos] == 0x1f && fp->raw[fp->rpos + 1] == 0x8b) {
				int z = fp->zinit ? inflateReset(&fp->zs)
					: inflateInit2(&fp->zs, 15 + 16);
				if (z != Z_OK)
					return fail(fp, -3, "cannot start gzip decoding");
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
					return fail(fp, -2, "truncated gzip data (input ends "
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
				return fail(fp, -2, "corrupt gzip data (%s)",
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
static void unread_plain(gs_file *fp)
{
	size_t n = fp->len - fp->pos, keep = fp->rlen - fp->rpos;

	if (fp->zmode || n == 0)
		return;
	if (n + keep > RAW_CAP || fp->raw == NULL)
		return;		/* cannot happen: buf and raw never hold more */
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
static int fill(gs_file *fp, size_t want)
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
static int read_bytes(gs_file *fp, void *dst, size_t n)
{
	unsigned char *d = dst;
	size_t have;

	while (n > 0) {
		if (fp->pos == fp->len) {
			int rc = fill(fp, n < IOBUF ? n : IOBUF);
			if (rc)
				return rc;
			if (fp->pos == fp->len)
				return fail(fp, -2, "truncated stream (input ends inside a record)");
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
static int read_array(gs_file *fp, void **p, size_t *cap, size_t n)
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
			grow(p, cap, target);
		}
		step = target - done;
		rc = read_bytes(fp, (unsigned char *)*p + done, step);
		if (rc)
			return rc;
		done += step;
	}
	return 0;
}

/* Read one text line (without its newline) into fp->line; crc'd when in a
 * segment.  Returns 1 for a line, 0 at end of input, or an error code. */
static int read_line(gs_file *fp)
{
	size_t len = 0;

	fp->crc_line_start = fp->crc;
	for (;;) {
		unsigned char *s, *nl;
		size_t have;
		if (fp->pos == fp->len) {
			int rc = fill(fp, 1);
			if (rc)
				return rc;
			if (fp->pos == fp->len) {
				if (len == 0)
					return 0;
				break;	/* last line without newline */
			}
		}
		s = fp->buf + fp->pos;
		have = fp->len - fp->pos;
		nl = memchr(s, '\n', have);
		if (nl)
			have = (size_t)(nl - s) + 1;
		if (len + have + 1 > fp->line_cap) {
			if (len + have + 1 > MAX_HEADER * 64)
				return fail(fp, -2, "line longer than %u bytes", MAX_HEADER * 64);
			fp->line_cap = 2 * (len + have + 1);
			fp->line = xrealloc(fp->line, fp->line_cap);
		}
		memcpy(fp->line + len, s, have);
		if (fp->state == ST_SEGMENT)
			fp->crc = (uint32_t)crc32_z(fp->crc, s, have);
		fp->pos += have;
		len += have;
		if (nl)
			break;
	}
	fp->lineno++;
	fp->line_nl = len > 0 && fp->line[len - 1] == '\n';
	if (fp->line_nl)
		len--;
	if (len > 0 && fp->line[len - 1] == '\r')
		len--;
	fp->line[len] = '\0';
	fp->line_len = len;
	if (memchr(fp->line, '\0', len))
		return fail(fp, -2, "NUL byte in text (binary data where text was expected)");
	return 1;
}

/* ------------------------------------------------------------------ */
/* header lines: "kind key=value key=\"quoted value\" ..."            */
/* ------------------------------------------------------------------ */

static int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (*s == '\0')
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/*
 * Split the next token of *sp into key and value (in place).  Returns 1 for
 * a token, 0 at end of line, -1 on a syntax error.
 */
static int next_token(char **sp, char **key, char **val)
{
	char *s = *sp, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return 0;
	*key = s;
	while (*s && *s != '=' && *s != ' ' && *s != '\t')
		s++;
	if (*s != '=')
		return -1;
	*s++ = '\0';
	if (*s == '"') {
		*val = w = ++s;
		for (;;) {
			if (*s == '\0')
				return -1;
			if (*s == '"')
				break;
			if (*s == '\\') {
				s++;
				switch (*s) {
				case 'n': *w++ = '\n'; break;
				case 't': *w++ = '\t'; break;
				case '\\': case '"': *w++ = *s; break;
				default: return -1;
				}
				s++;
				continue;
			}
			*w++ = *s++;
		}
		*w = '\0';
		s++;
		if (*s != '\0' && *s != ' ' && *s != '\t')
			return -1;
	} else {
		*val = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	if (*s)
		*s++ = '\0';
	*sp = s;
	return 1;
}

enum { K_END = 100 };

/* Parse the header line hdr (modified in place) into rec; sizes are
 * validated against the hard limits here, before any allocation. */
static int parse_header(gs_file *fp, char *hdr, gs_rec *rec, int64_t *end_records,
			int64_t *end_crc, int is_param)
{
	char *s = hdr, *kw, *key, *val;
	int kind = 0, t, have_id = 0, have_n = 0, have_m = 0, have_rows = 0,
	    have_cols = 0, have_type = 0, have_value = 0, have_cfg = 0,
	    have_params = 0;
	int64_t x, cfg_len = 0, nparams = 0;

	while (*s == ' ')
		s++;
	kw = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	for (t = GS_PG; t <= GS_MODEL; t++)
		if (strcmp(kw, kind_names[t]) == 0)
			kind = t;
	if (strcmp(kw, "end") == 0 && !is_param)
		kind = K_END;
	if (is_param)
		kind = strcmp(kw, "param") == 0 ? GS_TENSOR : 0;
	if (kind == 0)
		return fail(fp, -2, "unknown record kind '%.40s'", kw);

	gs_rec_clear(rec);
	rec->kind = kind == K_END ? 0 : kind;
	*end_records = -1;
	*end_crc = -1;
	while ((t = next_token(&s, &key, &val)) == 1) {
		if (kind == K_END) {
			if (strcmp(key, "records") == 0) {
				if (parse_i64(val, 0, INT64_MAX, end_records))
					return fail(fp, -2, "end: bad records=%.40s", val);
			} else if (strcmp(key, "crc32") == 0) {
				char *e;
				unsigned long c = strtoul(val, &e, 16);
				if (*e || e == val || strlen(val) > 8)
					return fail(fp, -2, "end: bad crc32=%.40s", val);
				*end_crc = (int64_t)c;
			} else {
				return fail(fp, -2, "end: unknown key '%.40s'", key);
			}
			continue;
		}
		if (strcmp(key, "id") == 0) {
			if (kind == GS_PG) {
				snprintf(rec->pg, sizeof rec->pg, "%s", val);
			} else if (parse_i64(val, 0, INT64_MAX, &rec->id)) {
				return fail(fp, -2, "bad id=%.40s (want an integer >= 0)", val);
			}
			have_id = 1;
		} else if (strcmp(key, "pg") == 0 && kind != GS_PG) {
			snprintf(rec->pg, sizeof rec->pg, "%s", val);
		} else if (strcmp(key, "name") == 0 && kind != GS_PG && kind != GS_GRAPH) {
			if (strlen(val) >= GS_NAME_MAX)
				return fail(fp, -2, "name too long (max %d)", GS_NAME_MAX - 1);
			set_name(rec->name, val);
		} else if (strcmp(key, "nodes") == 0 && kind == GS_GRAPH) {
			if (parse_i64(val, 0, INT64_MAX, &x))
				return fail(fp, -2, "bad nodes=%.40s", val);
			if (x > GS_MAX_NODES)
				return fail(fp, -2, "nodes=%" PRId64 " exceeds the limit %lld",
					    x, GS_MAX_NODES);
			rec->n = (int32_t)x;
			have_n = 1;
		} else if ((strcmp(key, "edges") == 0 && kind == GS_GRAPH) ||
			   (strcmp(key, "count") == 0 && kind == GS_PAIRS)) {
			if (parse_i64(val, 0, INT64_MAX, &x))
				return fail(fp, -2, "bad %s=%.40s", key, val);
			if (x > GS_MAX_EDGES)
				return fail(fp, -2, "%s=%" PRId64 " exceeds the limit %lld",
					    key, x, GS_MAX_EDGES);
			rec->m = x;
			have_m = 1;
		} else if (strcmp(key, "labels") == 0 &&
			   (kind == GS_GRAPH || kind == GS_PAIRS)) {
			int d = dtype_parse(val);
			if (d != GS_NONE && d != GS_I32 && d != GS_F64)
				return fail(fp, -2, "bad labels=%.40s (none, i32 or f64)", val);
			rec->ltype = d;
		} else if ((strcmp(key, "rows") == 0 || strcmp(key, "cols") == 0) &&
			   kind == GS_TENSOR) {
			if (parse_i64(val, 0, INT64_MAX, &x))
				return fail(fp, -2, "bad %s=%.40s", key, val);
			if (x > GS_MAX_ELEMS)
				return fail(fp, -2, "%s=%" PRId64 " exceeds the limit %lld",
					    key, x, GS_MAX_ELEMS);
			if (key[0] == 'r')
				rec->rows = x, have_rows = 1;
			else
				rec->cols = x, have_cols = 1;
		} else if (strcmp(key, "type") == 0 && kind == GS_TENSOR) {
			rec->dtype = dtype_parse(val);
			if (rec->dtype <= 0)
				return fail(fp, -2, "bad type=%.40s (f32, f64, i32 or i64)", val);
			have_type = 1;
		} else if (strcmp(key, "columns") == 0 && kind == GS_TENSOR) {
			set_columns(rec, val);
		} else if (strcmp(key, "value") == 0 && kind == GS_LABEL) {
			if (parse_i64(val, INT64_MIN, INT64_MAX, &rec->value))
				return fail(fp, -2, "bad value=%.40s (want an integer)", val);
			have_value = 1;
		} else if (strcmp(key, "config") == 0 && kind == GS_MODEL) {
			if (parse_i64(val, 0, GS_MAX_TEXT, &cfg_len))
				return fail(fp, -2, "bad config=%.40s (bytes, at most %lld)",
					    val, GS_MAX_TEXT);
			have_cfg = 1;
		} else if (strcmp(key, "params") == 0 && kind == GS_MODEL) {
			if (parse_i64(val, 0, GS_MAX_PARAMS, &nparams))
				return fail(fp, -2, "bad params=%.40s (at most %d)", val,
					    GS_MAX_PARAMS);
			have_params = 1;
		} else {
			gs_attr_set(rec, key, val);
		}
	}
	if (t < 0)
		return fail(fp, -2, "malformed record header (want key=value pairs)");
	if (kind == K_END)
		return K_END;
	if (!have_id && kind != GS_MODEL && !is_param)
		return fail(fp, -2, "%s record without id=", kw);
	switch (kind) {
	case GS_GRAPH:
		if (!have_n || !have_m)
			return fail(fp, -2, "graph record needs nodes= and edges=");
		break;
	case GS_PAIRS:
		if (!have_m)
			return fail(fp, -2, "pairs record needs count=");
		break;
	case GS_TENSOR:
		if (!have_rows || !have_cols || !have_type)
			return fail(fp, -2, "tensor record needs rows=, cols= and type=");
		if (rec->cols > 0 && rec->rows > GS_MAX_ELEMS / rec->cols)
			return fail(fp, -2, "tensor of %" PRId64 " x %" PRId64
				    " exceeds the limit of %lld elements",
				    rec->rows, rec->cols, GS_MAX_ELEMS);
		if (rec->columns && rec->columns[0]) {
			int64_t names = 1;
			for (const char *c = rec->columns; *c; c++)
				names += *c == ',';
			if (names != rec->cols)
				return fail(fp, -2, "columns= names %" PRId64 " column%s, but "
					    "cols=%" PRId64, names, names == 1 ? "" : "s",
					    rec->cols);
		}
		break;
	case GS_LABEL:
		if (!have_value)
			return fail(fp, -2, "label record needs value=");
		break;
	case GS_MODEL:
		if (!have_cfg || !have_params)
			return fail(fp, -2, "model record needs config= and params=");
		rec->config_len = (size_t)cfg_len;
		rec->nparams = (int)nparams;
		break;
	}
	return kind;
}

/* Check edge or pair i: ids in range, no self-loop in a graph, a finite
 * label. */
static int check_pair1(gs_file *fp, const gs_rec *rec, int64_t i)
{
	int32_t lim = rec->kind == GS_GRAPH ? rec->n : (int32_t)GS_MAX_NODES;
	int32_t a = rec->u[i], b = rec->v[i];

	if (a < 0 || a >= lim || b < 0 || b >= lim) {
		int32_t bad = (a < 0 || a >= lim) ? a : b;
		if (rec->kind == GS_GRAPH)
			return fail(fp, -2, "edge %" PRId64 ": node %d out of range "
				    "(nodes %d)", i, bad, rec->n);
		return fail(fp, -2, "pair %" PRId64 ": bad node id %d", i, bad);
	}
	if (a == b && rec->kind == GS_GRAPH)
		return fail(fp, -2, "edge %" PRId64 ": self-loop on node %d", i, a);
	if (rec->ltype == GS_F64 && !isfinite(((const double *)rec->lab)[i]))
		return fail(fp, -2, "label %" PRId64 " is not finite", i);
	return 0;
}

/* Check the edges or pairs just read (binary form). */
static int check_pairs(gs_file *fp, const gs_rec *rec)
{
	int64_t i;
	int rc;

	for (i = 0; i < rec->m; i++)
		if ((rc = check_pair1(fp, rec, i)))
			return rc;
	return 0;
}

/* Values from .. from + n - 1 of a tensor must be finite; messages count
 * from the tensor's first value. */
static int check_finite(gs_file *fp, const void *data, int dtype, int64_t from,
			int64_t n, const char *what)
{
	int64_t i;

	if (dtype == GS_F32) {
		const float *x = data;
		for (i = from; i < from + n; i++)
			if (!isfinite(x[i]))
				return fail(fp, -2, "%s: value %" PRId64 " is not finite", what, i);
	} else if (dtype == GS_F64) {
		const double *x = data;
		for (i = from; i < from + n; i++)
			if (!isfinite(x[i]))
				return fail(fp, -2, "%s: value %" PRId64 " is not finite", what, i);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* binary form                                                        */
/* ------------------------------------------------------------------ */

/*
 * Read the u and v arrays of a graph or pairs record.  u grows as data
 * arrives (read_array); once it is complete, v is sized to match.
 */
static int read_ids(gs_file *fp, gs_rec *rec)
{
	size_t nb = (size_t)rec->m * 4, capu = rec->u ? rec->cap_m * 4 : 0;
	int rc;

	if ((rc = read_array(fp, (void **)&rec->u, &capu, nb)))
		return rc;
	if (capu / 4 > rec->cap_m || rec->v == NULL) {
		rec->v = xrealloc(rec->v, capu ? capu : 1);
		rec->cap_m = capu / 4;
	}
	return read_bytes(fp, rec->v, nb);
}

static int read_bin_header(gs_file *fp, int *got)
{
	uint32_t hlen;
	int rc;

	*got = 0;
	rc = fill(fp, 4);
	if (rc)
		return rc;
	if (fp->pos == fp->len)
		return 0;
	if ((rc = read_bytes(fp, &hlen, 4)))
		return rc;
	if (hlen == 0 || hlen > MAX_HEADER)
		return fail(fp, -2, "corrupt record (header length %u)", hlen);
	if (hlen + 1 > fp->hdr_cap) {
		fp->hdr_cap = hlen + 1;
		fp->hdr = xrealloc(fp->hdr, fp->hdr_cap);
	}
	if ((rc = read_bytes(fp, fp->hdr, hlen)))
		return rc;
	fp->hdr[hlen] = '\0';
	if (memchr(fp->hdr, '\0', hlen))
		return fail(fp, -2, "corrupt record header (NUL byte)");
	*got = 1;
	return 0;
}

/* The config text of a model record (raw bytes in both forms), and room for
 * its parameters. */
static int read_config(gs_file *fp, gs_rec *rec)
{
	size_t len = rec->config_len;
	int rc;

	grow((void **)&rec->config, &rec->cap_cfg, len + 1);
	if ((rc = read_bytes(fp, rec->config, len)))
		return rc;
	rec->config[len] = '\0';
	shape_params(rec, rec->nparams);
	return 0;
}

static int read_bin_body(gs_file *fp, gs_rec *rec)
{
	int rc, i;
	size_t nb;

	switch (rec->kind) {
	case GS_GRAPH:
	case GS_PAIRS:
		if ((rc = read_ids(fp, rec)))
			return rc;
		if (rec->ltype != GS_NONE &&
		    (rc = read_array(fp, &rec->lab, &rec->cap_lab,
				     (size_t)rec->m * gs_dtype_size(rec->ltype))))
			return rc;
		return check_pairs(fp, rec);
	case GS_TENSOR:
		nb = (size_t)(rec->rows * rec->cols) * gs_dtype_size(rec->dtype);
		if ((rc = read_array(fp, &rec->data, &rec->cap_data, nb)))
			return rc;
		return check_finite(fp, rec->data, rec->dtype, 0, rec->rows * rec->cols,
				    rec->name);
	case GS_MODEL: {
		int np = rec->nparams;
		if ((rc = read_config(fp, rec)))
			return rc;
		for (i = 0; i < np; i++) {
			gs_param *p = &rec->params[i];
			gs_rec tmp;
			int got, k;
			int64_t er, ec;
			if ((rc = read_bin_header(fp, &got)))
				return rc;
			if (!got)
				return fail(fp, -2, "truncated stream (model parameter %d missing)", i);
			gs_rec_init(&tmp);
			k = parse_header(fp, fp->hdr, &tmp, &er, &ec, 1);
			if (k != GS_TENSOR) {
				gs_rec_free(&tmp);
				return k < 0 ? k : fail(fp, -2, "model parameter %d: "
							"expected a param header", i);
			}
			set_name(p->name, tmp.name);
			p->rows = tmp.rows;
			p->cols = tmp.cols;
			p->dtype = tmp.dtype;
			gs_rec_free(&tmp);
			nb = (size_t)(p->rows * p->cols) * gs_dtype_size(p->dtype);
			if ((rc = read_array(fp, &p->data, &p->cap, nb)))
				return rc;
			if ((rc = check_finite(fp, p->data, p->dtype, 0, p->rows * p->cols,
					       p->name)))
				return rc;
		}
		return 0;
	}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* text form                                                          */
/* ------------------------------------------------------------------ */

/* Fast integer field parser: skips blanks, reads [-]digits. */
static int field_i64(char **sp, int64_t *out)
{
	char *s = *sp;
	int neg = 0;
	uint64_t v = 0;
	int nd = 0;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '-')
		neg = 1, s++;
	while (*s >= '0' && *s <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s++ - '0');
		nd++;
	}
	if (nd == 0 || (*s && *s != ' ' && *s != '\t' && *s != ','))
		return -1;
	if (v > (uint64_t)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*sp = s;
	return 0;
}

static int field_f64(char **sp, double *out)
{
	char *s = *sp, *end;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || (*end && *end != ' ' && *end != '\t' && *end != ','))
		return -1;
	*sp = end;
	return 0;
}

static int at_eol(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static int need_line(gs_file *fp, const char *what)
{
	int rc = read_line(fp);

	if (rc < 0)
		return rc;
	if (rc == 0)
		return fail(fp, -2, "truncated stream (input ends inside a record, "
			    "expected %s)", what);
	if (fp->line[0] == '@')
		return fail(fp, -2, "record ends early: expected %s, got a record header", what);
	return 0;
}

/* One value of dtype from a text field into dst[i]. */
static int field_value(char **sp, int dtype, void *dst, int64_t i)
{
	int64_t iv;
	double dv;

	switch (dtype) {
	case GS_I32:
		if (field_i64(sp, &iv) || iv < INT32_MIN || iv > INT32_MAX)
			return -1;
		((int32_t *)dst)[i] = (int32_t)iv;
		return 0;
	case GS_I64:
		if (field_i64(sp, &iv))
			return -1;
		((int64_t *)dst)[i] = iv;
		return 0;
	case GS_F32:
		if (field_f64(sp, &dv))
			return -1;
		((float *)dst)[i] = (float)dv;
		return 0;
	case GS_F64:
		if (field_f64(sp, &dv))
			return -1;
		((double *)dst)[i] = dv;
		return 0;
	}
	return -1;
}

/*
 * rows x cols values of dtype, one row per line, into *data (*cap bytes).
 * The buffer grows with the rows that arrive (at first by at most 1 MiB or
 * one row), and a row wider than 1 MiB is sized only once its line is long
 * enough to hold it, so a header that lies about the shape costs memory in
 * proportion to the text read.  Each row is checked as it is read, so a
 * message names the line of the bad value.
 */
static int read_txt_matrix(gs_file *fp, void **data, size_t *cap, int dtype,
			   int64_t rows, int64_t cols, const char *what)
{
	size_t rowb = (size_t)cols * gs_dtype_size(dtype);
	int64_t first = rowb ? (int64_t)((1u << 20) / rowb) : 1;
	int64_t r, c;
	int rc;

	if (first < 1)
		first = 1;
	if (first > 4096)
		first = 4096;
	grow(data, cap, 0);
	for (r = 0; r < rows; r++) {
		char *s;
		if ((rc = need_line(fp, "a row of values")))
			return rc;
		if (rowb > (1u << 20) && (int64_t)fp->line_len < 2 * cols - 1)
			return fail(fp, -2, "%s: row %" PRId64 ": bad or missing value %" PRId64
				    " (want %" PRId64 " of type %s)", what, r,
				    (int64_t)(fp->line_len + 1) / 2, cols, dtype_name(dtype));
		if ((size_t)(r + 1) * rowb > *cap) {
			int64_t want = r ? 2 * r : first;
			if (want > rows)
				want = rows;
			grow(data, cap, (size_t)want * rowb);
		}
		s = fp->line;
		for (c = 0; c < cols; c++)
			if (field_value(&s, dtype, *data, r * cols + c))
				return fail(fp, -2, "%s: row %" PRId64 ": bad or missing value %"
					    PRId64 " (want %" PRId64 " of type %s)", what, r, c,
					    cols, dtype_name(dtype));
		if (!at_eol(s))
			return fail(fp, -2, "%s: row %" PRId64 ": more than %" PRId64 " values",
				    what, r, cols);
		if ((rc = check_finite(fp, *data, dtype, r * cols, cols, what)))
			return rc;
	}
	return 0;
}

/* Body arrays are sized from the header here, but only after the first
 * line of data has arrived, and text costs more bytes per value than the
 * array does, so a lying header is caught at the first missing line with
 * at most one array's worth of memory. */
static int read_txt_body(gs_file *fp, gs_rec *rec)
{
	int64_t i, a, b;
	int rc, k;

	switch (rec->kind) {
	case GS_GRAPH:
	case GS_PAIRS: {
		int64_t m = rec->m, cap = 0;
		int ltype = rec->ltype;
		for (i = 0; i < m; i++) {
			char *s;
			if ((rc = need_line(fp, rec->kind == GS_GRAPH ? "an edge" : "a pair")))
				return rc;
			if (i >= cap) {
				cap = cap ? 2 * cap : 4096;
				if (cap > m)
					cap = m;
				shape_edges(rec, cap, ltype);
				rec->m = m;
			}
			s = fp->line;
			if (field_i64(&s, &a) || field_i64(&s, &b) || a < INT32_MIN ||
			    a > INT32_MAX || b < INT32_MIN || b > INT32_MAX)
				return fail(fp, -2, "%s %" PRId64 ": want two node ids",
					    rec->kind == GS_GRAPH ? "edge" : "pair", i);
			rec->u[i] = (int32_t)a;
			rec->v[i] = (int32_t)b;
			if (ltype != GS_NONE && field_value(&s, ltype, rec->lab, i))
				return fail(fp, -2, "%s %" PRId64 ": bad or missing label",
					    rec->kind == GS_GRAPH ? "edge" : "pair", i);
			if (!at_eol(s))
				return fail(fp, -2, "%s %" PRId64 ": extra fields",
					    rec->kind == GS_GRAPH ? "edge" : "pair", i);
			if ((rc = check_pair1(fp, rec, i)))
				return rc;
		}
		if (m == 0)
			shape_edges(rec, 0, ltype);
		return 0;
	}
	case GS_TENSOR:
		return read_txt_matrix(fp, &rec->data, &rec->cap_data, rec->dtype,
				       rec->rows, rec->cols, rec->name);
	case GS_MODEL: {
		int np = rec->nparams;
		if ((rc = read_config(fp, rec)))
			return rc;
		for (i = 0; i < (int64_t)rec->config_len; i++)
			fp->lineno += rec->config[i] == '\n';
		for (k = 0; k < np; k++) {
			gs_param *p = &rec->params[k];
			gs_rec tmp;
			int64_t er, ec;
			int kk;
			if ((rc = read_line(fp)) < 0)
				return rc;
			if (rc == 0 || strncmp(fp->line, "@param ", 7) != 0)
				return fail(fp, -2, "model parameter %d: expected '@param'", k);
			gs_rec_init(&tmp);
			kk = parse_header(fp, fp->line + 1, &tmp, &er, &ec, 1);
			if (kk != GS_TENSOR) {
				gs_rec_free(&tmp);
				return kk < 0 ? kk : fail(fp, -2, "model parameter %d: bad header", k);
			}
			set_name(p->name, tmp.name);
			p->rows = tmp.rows;
			p->cols = tmp.cols;
			p->dtype = tmp.dtype;
			gs_rec_free(&tmp);
			if ((rc = read_txt_matrix(fp, &p->data, &p->cap, p->dtype, p->rows,
						  p->cols, p->name)))
				return rc;
		}
		return 0;
	}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* plain edge list: "u v [label]" per line, '#' comments               */
/* ------------------------------------------------------------------ */

/* What follows the two node ids of an edge-list line: the end of the line
 * (or a '#' comment), a third field, or networkx's attribute dict. */
enum { EL_EOL, EL_FIELD, EL_DICT_EMPTY, EL_DICT };

static int el_rest(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == ',')
		s++;
	if (*s == '\0' || *s == '#')
		return EL_EOL;
	if (*s != '{')
		return EL_FIELD;
	/* nx.write_edgelist writes str(dict): "{}" or "{'weight': 4, ...}" */
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (s[n - 1] != '}')
		return EL_FIELD;
	for (s++; *s == ' ' || *s == '\t'; s++)
		;
	return *s == '}' ? EL_DICT_EMPTY : EL_DICT;
}

/* The first line of a file decides whether it is an edge list; a line of
 * two or three words whose ids are not integers is one with named nodes. */
static int el_bad_ids(gs_file *fp, int64_t m, char *s)
{
	char word[2][48];
	int k = 0;

	/* the words before a '{' or '#': two or three make an edge-list line */
	for (char *t = s + strspn(s, " \t,"); *t && *t != '{' && *t != '#';
	     t += strspn(t, " \t,")) {
		size_t len = strcspn(t, " \t,");
		if (k < 2)
			snprintf(word[k], sizeof word[k], "%.*s", (int)len, t);
		k++;
		t += len;
	}
	if (m == 0 && (k < 2 || k > 3))
		return fail(fp, -2, "not a gnnstream, and not an edge list "
			    "(want 'u v [label]' with integer node ids)");
	for (int i = 0; i < 2 && i < k; i++) {
		char *e;
		errno = 0;
		(void)strtoll(word[i], &e, 10);
		if (e == word[i] || *e != '\0' || errno)
			return fail(fp, -2, "node '%s' is not an integer id: number the nodes "
				    "0..n-1 first (gnnstream(5), Plain edge lists, shows how)",
				    word[i]);
	}
	return fail(fp, -2, "want 'u v [label]' with integer node ids");
}

static int read_edgelist(gs_file *fp, gs_rec *rec)
{
	int64_t m = 0, cap = 0, a, b, l, maxid = -1;
	int ncol = 0, rc;

	gs_rec_graph(rec, 0, 0, 0, GS_NONE);
	rec->from_edgelist = 1;
	fp->el_attrs = 0;
	while ((rc = read_line(fp)) == 1) {
		char *s = fp->line;
		int cols = 2, rest;
		if (strncmp(s, UTF8_BOM, 3) == 0)
			s += 3;	/* `cat` of files that each begin with one */
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\0')
			continue;
		if (*s == '@')
			return fail(fp, -2, "record header outside a stream "
				    "(missing '##gnnstream' line?)");
		if (field_i64(&s, &a) || field_i64(&s, &b))
			return el_bad_ids(fp, m, fp->line);
		rest = el_rest(s);
		if (rest == EL_FIELD) {
			if (field_i64(&s, &l) || el_rest(s) != EL_EOL || l < INT32_MIN ||
			    l > INT32_MAX)
				return fail(fp, -2, "want 'u v [label]' with an integer label "
					    "(a weight column is not used: drop it, e.g. "
					    "cut -d' ' -f1,2)");
			cols = 3;
		} else if (rest == EL_DICT) {
			fp->el_attrs++;
		}
		if (ncol == 0)
			ncol = cols;
		else if (cols != ncol)
			return fail(fp, -2, "%d fields where earlier lines have %d", cols, ncol);
		if (a < 0 || b < 0 || a >= GS_MAX_NODES || b >= GS_MAX_NODES)
			return fail(fp, -2, "node id %" PRId64 " out of range (0..%lld)",
				    (a < 0 || a >= GS_MAX_NODES) ? a : b, GS_MAX_NODES - 1);
		if (m == cap) {
			cap = cap ? 2 * cap : 4096;
			shape_edges(rec, cap, ncol == 3 ? GS_I32 : GS_NONE);
		}
		rec->u[m] = (int32_t)a;
		rec->v[m] = (int32_t)b;
		if (ncol == 3)
			((int32_t *)rec->lab)[m] = (int32_t)l;
		if (a > maxid)
			maxid = a;
		if (b > maxid)
			maxid = b;
		m++;
	}
	if (rc < 0)
		return rc;
	if (m == 0)
		return fail(fp, -2, "empty input (no gnnstream header and no edges)");
	rec->m = m;
	rec->ltype = ncol == 3 ? GS_I32 : GS_NONE;
	rec->n = (int32_t)(maxid + 1);
	fp->recno = 1;
	return GS_GRAPH;
}

/* ------------------------------------------------------------------ */
/* gs_read1                                                           */
/* ------------------------------------------------------------------ */

/* At a segment boundary: read a stream header, or detect an edge list.
 * Returns 1 for a new segment, 0 at clean EOF, 2 for edge-list mode, or
 * an error code. */
static int read_stream_header(gs_file *fp)
{
	unsigned char *b;
	size_t have;
	int rc;

	if (fp->segments > 0 && !fp->zmode && (rc = fill(fp, 2)))
		return rc;
	if (fp->segments > 0 && !fp->zmode && fp->len - fp->pos >= 2 &&
	    fp->buf[fp->pos] == 0x1f && fp->buf[fp->pos + 1] == 0x8b)
		unread_plain(fp);	/* a gzip member after plain data */
	if ((rc = fill(fp, 16)))
		return rc;
	if (fp->len - fp->pos >= 3 && memcmp(fp->buf + fp->pos, UTF8_BOM, 3) == 0) {
		fp->pos += 3;	/* a byte-order mark (Windows editors): not data */
		if ((rc = fill(fp, 16)))
			return rc;
	}
	have = fp->len - fp->pos;
	b = fp->buf + fp->pos;
	if (have == 0) {
		if (fp->segments == 0)
			return fail(fp, -2, "empty input (no gnnstream header)");
		return 0;
	}
	if (have >= 4 && memcmp(b, BIN_MAGIC, 4) == 0) {
		uint32_t ver, flags;
		if (have < 12)
			return fail(fp, -2, "truncated stream header");
		memcpy(&ver, b + 4, 4);
		memcpy(&flags, b + 8, 4);
		fp->pos += 12;
		if (ver > GS_VERSION)
			return fail(fp, -2, "stream version %u is newer than this program "
				    "reads (%d): upgrade gnnpipe", ver, GS_VERSION);
		if (ver == 0)
			return fail(fp, -2, "bad stream version 0");
		fp->text = 0;
	} else if (have >= sizeof TXT_MAGIC - 1 &&
		   memcmp(b, TXT_MAGIC, sizeof TXT_MAGIC - 1) == 0) {
		char *s, *e;
		long ver;
		if ((rc = read_line(fp)) < 0)
			return rc;
		s = fp->line + sizeof TXT_MAGIC - 1;
		if (*s != ' ')
			return fail(fp, -2, "bad stream header '%.60s'", fp->line);
		errno = 0;
		ver = strtol(s + 1, &e, 10);
		if (e == s + 1 || (*e && *e != ' '))
			return fail(fp, -2, "bad stream header '%.60s'", fp->line);
		if (ver > GS_VERSION)
			return fail(fp, -2, "stream version %ld is newer than this program "
				    "reads (%d): upgrade gnnpipe", ver, GS_VERSION);
		if (ver <= 0)
			return fail(fp, -2, "bad stream version %ld", ver);
		fp->text = 1;
	} else if (fp->segments == 0) {
		size_t i;
		/* text, UTF-8 included (a comment may name a place): no control
		 * bytes but tab, CR and LF */
		for (i = 0; i < have; i++)
			if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\r' && b[i] != '\n') ||
			    b[i] == 0x7f)
				return fail(fp, -2, "not a gnnstream (bad magic) and not "
					    "an edge list");
		return 2;
	} else {
		return fail(fp, -2, "garbage after the end of a stream segment");
	}
	fp->segments++;
	fp->seg_records = 0;
	fp->crc = 0;
	fp->state = ST_SEGMENT;
	return 1;
}

int gs_read1(gs_file *fp, gs_rec *rec)
{
	int rc, kind;
	int64_t er, ec;

	if (fp->err)
		return fp->err;
	for (;;) {
		if (fp->state == ST_EDGELIST_DONE)
			return -1;
		if (fp->state != ST_SEGMENT) {
			rc = read_stream_header(fp);
			if (rc == 0)
				return -1;
			if (rc == 2) {
				rc = read_edgelist(fp, rec);
				fp->state = ST_EDGELIST_DONE;
				return rc;
			}
			if (rc < 0)
				return rc;
		}
		/* a record header */
		fp->recno++;
		if (fp->text) {
			if ((rc = read_line(fp)) < 0)
				return rc;
			if (rc == 0)
				return fail(fp, -2, "truncated stream (no end record)");
			if (fp->line[0] != '@')
				return fail(fp, -2, "expected a record header ('@kind ...'), got "
					    "'%.40s'", fp->line);
			fp->rec_line = fp->lineno;
			kind = parse_header(fp, fp->line + 1, rec, &er, &ec, 0);
		} else {
			int got;
			uint32_t crc_before = fp->crc;
			if ((rc = read_bin_header(fp, &got)))
				return rc;
			if (!got)
				return fail(fp, -2, "truncated stream (no end record)");
			if (strncmp(fp->hdr, "end", 3) == 0 &&
			    (fp->hdr[3] == ' ' || fp->hdr[3] == '\0'))
				fp->crc = crc_before;	/* the trailer is not checksummed */
			kind = parse_header(fp, fp->hdr, rec, &er, &ec, 0);
		}
		if (kind < 0)
			return kind;
		if (kind == K_END) {
			uint32_t crc = fp->crc;
			if (fp->text)	/* the end line itself is not checksummed */
				crc = fp->crc_line_start;
			fp->recno--;
			if (fp->text && !fp->line_nl)
				return fail(fp, -2, "truncated stream (end record cut short)");
			if (!fp->text && (er < 0 || ec < 0))
				return fail(fp, -2, "end record lacks records= or crc32=");
			if (er >= 0 && er != fp->seg_records)
				return fail(fp, -2, "end record says %" PRId64 " records, the "
					    "segment has %" PRId64 " (records lost or added)",
					    er, fp->seg_records);
			if (ec >= 0 && (uint32_t)ec != crc)
				return fail(fp, -2, "checksum mismatch (stream corrupted)");
			fp->state = ST_BETWEEN;
			continue;
		}
		rc = fp->text ? read_txt_body(fp, rec) : read_bin_body(fp, rec);
		if (rc)
			return rc;
		fp->seg_records++;
		return kind;
	}
}

/* Rewrite the edge-list record rec as the simple graph g built from it:
 * self-loops dropped, a pair listed more than once (in either orientation)
 * kept once, at its first line and in its first orientation, so the record
 * a filter passes on is the graph it computed on.  A pair listed with two
 * different labels is an error.  Time: O(m log d); memory: 8 bytes an arc. */
static int simplify_edgelist(gs_file *fp, gs_rec *rec, const graph *g)
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
				return fail(fp, -2, "edge %d-%d is listed with labels %d and %d",
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

int gs_graph_build(gs_file *fp, gs_rec *rec, graph *g, int quiet)
{
	char msg[300];
	struct graph_fix fix;
	int policy = rec->from_edgelist ? GRAPH_SIMPLIFY : GRAPH_STRICT;
	int rc;

	if (graph_build(g, rec->n, rec->m, rec->u, rec->v, policy, &fix, msg,
			sizeof msg) != 0) {
		/* the whole record is at fault: name the line of its header (0,
		 * no line, for an edge list), not the last line read */
		int64_t last = fp->lineno;
		fp->err = 0;
		fp->lineno = fp->state == ST_SEGMENT ? fp->rec_line : 0;
		rc = fail(fp, -2, "%s", msg);
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
		       " duplicate edge(s)", fp->name, fix.self_loops, fix.duplicates);
	if (!quiet && fp->el_attrs)
		warnx_("%s: edge list: ignored the attributes of %" PRId64 " edge(s) "
		       "(networkx's {...} column)", fp->name, fp->el_attrs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* writing                                                            */
/* ------------------------------------------------------------------ */

#define WBUF (1u << 20)

static void sink(gs_file *fp, const void *p, size_t n)
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

static void wflush(gs_file *fp)
{
	sink(fp, fp->wbuf, fp->wlen);
	fp->wlen = 0;
}

/* Append record bytes (checksummed). */
static void wput(gs_file *fp, const void *p, size_t n)
{
	if (n == 0)	/* and p may be NULL, for which crc32_z() restarts at 0 */
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

static void wputs(gs_file *fp, const char *s)
{
	wput(fp, s, strlen(s));
}

/* A value is quoted when it holds blanks, quotes, '=' or is empty. */
static void put_value(char *dst, size_t cap, const char *v)
{
	size_t k = 0;
	const char *c;
	int quote = *v == '\0' || strpbrk(v, " \t\n\"\\=") != NULL;

	if (!quote) {
		snprintf(dst, cap, "%s", v);
		return;
	}
	dst[k++] = '"';
	for (c = v; *c && k + 4 < cap; c++) {
		if (*c == '"' || *c == '\\')
			dst[k++] = '\\', dst[k++] = *c;
		else if (*c == '\n')
			dst[k++] = '\\', dst[k++] = 'n';
		else if (*c == '\t')
			dst[k++] = '\\', dst[k++] = 't';
		else
			dst[k++] = *c;
	}
	dst[k++] = '"';
	dst[k] = '\0';
}

/* Header text of a record (without the '@' of the text form). */
static char *format_header(const gs_file *fp, const gs_rec *r, char **buf, size_t *cap)
{
	size_t len = 0;
	int i;
	const char *pg = r->pg[0] ? r->pg : fp->pgid;

#define APPEND(...) do { \
	int n_ = snprintf(*buf + len, *cap - len, __VA_ARGS__); \
	if (n_ < 0) die("internal error: header format"); \
	if ((size_t)n_ >= *cap - len) { \
		*cap = 2 * (*cap + (size_t)n_); \
		*buf = xrealloc(*buf, *cap); \
		n_ = snprintf(*buf + len, *cap - len, __VA_ARGS__); \
	} \
	len += (size_t)n_; \
} while (0)

	if (*buf == NULL) {
		*cap = 1024;
		*buf = xmalloc(*cap);
	}
	switch (r->kind) {
	case GS_PG:
		APPEND("pg id=%s", r->pg);
		break;
	case GS_GRAPH:
		APPEND("graph id=%" PRId64 " nodes=%d edges=%" PRId64, r->id, r->n, r->m);
		if (r->ltype != GS_NONE)
			APPEND(" labels=%s", dtype_name(r->ltype));
		APPEND(" pg=%s", pg);
		break;
	case GS_PAIRS:
		APPEND("pairs id=%" PRId64 " name=%s count=%" PRId64, r->id, r->name, r->m);
		if (r->ltype != GS_NONE)
			APPEND(" labels=%s", dtype_name(r->ltype));
		APPEND(" pg=%s", pg);
		break;
	case GS_TENSOR:
		APPEND("tensor id=%" PRId64 " name=%s rows=%" PRId64 " cols=%" PRId64
		       " type=%s", r->id, r->name, r->rows, r->cols, dtype_name(r->dtype));
		if (r->columns && r->columns[0])
			APPEND(" columns=%s", r->columns);
		APPEND(" pg=%s", pg);
		break;
	case GS_LABEL:
		APPEND("label id=%" PRId64 " name=%s value=%" PRId64 " pg=%s", r->id,
		       r->name, r->value, pg);
		break;
	case GS_MODEL:
		APPEND("model name=%s config=%zu params=%d pg=%s", r->name,
		       r->config_len, r->nparams, pg);
		break;
	default:
		die("internal error: writing a record of kind %d", r->kind);
	}
	for (i = 0; i < r->nattr; i++) {
		/* room for every byte escaped, the quotes and the NUL: a value
		 * is never cut (a long command line, say) */
		size_t vc = 2 * strlen(r->aval[i]) + 3;
		char *v = xmalloc(vc);
		put_value(v, vc, r->aval[i]);
		APPEND(" %s=%s", r->akey[i], v);
		free(v);
	}
#undef APPEND
	return *buf;
}

static void put_header(gs_file *fp, const char *h)
{
	if (fp->wtext) {
		wputs(fp, "@");
		wputs(fp, h);
		wputs(fp, "\n");
	} else {
		uint32_t n = (uint32_t)strlen(h);
		wput(fp, &n, 4);
		wput(fp, h, n);
	}
}

/* Text form of one value. */
static int fmt_value(char *s, size_t cap, int dtype, const void *data, int64_t i)
{
	switch (dtype) {
	case GS_I32: return snprintf(s, cap, "%" PRId32, ((const int32_t *)data)[i]);
	case GS_I64: return snprintf(s, cap, "%" PRId64, ((const int64_t *)data)[i]);
	case GS_F32: return snprintf(s, cap, "%.9g", (double)((const float *)data)[i]);
	case GS_F64: return snprintf(s, cap, "%.17g", ((const double *)data)[i]);
	}
	return 0;
}

static void put_matrix(gs_file *fp, const void *data, int dtype, int64_t rows, int64_t cols)
{
	int64_t r, c;
	char line[64];

	if (!fp->wtext) {
		wput(fp, data, (size_t)(rows * cols) * gs_dtype_size(dtype));
		return;
	}
	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++) {
			int n = fmt_value(line, sizeof line - 1, dtype, data, r * cols + c);
			line[n++] = c + 1 == cols ? '\n' : '\t';
			wput(fp, line, (size_t)n);
		}
}

/* Decimal of a non-negative int32 into s (returns length), fast path for
 * edge lists. */
static int put_i32(char *s, int32_t v)
{
	char t[12];
	int n = 0, k = 0;
	uint32_t x = v < 0 ? (uint32_t)(-(int64_t)v) : (uint32_t)v;

	if (v < 0)
		s[k++] = '-';
	do {
		t[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	while (n)
		s[k++] = t[--n];
	return k;
}

void gs_write1(gs_file *fp, const gs_rec *r)
{
	static __thread char *hbuf;
	static __thread size_t hcap;
	int64_t i;
	int k;

	put_header(fp, format_header(fp, r, &hbuf, &hcap));
	switch (r->kind) {
	case GS_GRAPH:
	case GS_PAIRS:
		if (!fp->wtext) {
			wput(fp, r->u, (size_t)r->m * 4);
			wput(fp, r->v, (size_t)r->m * 4);
			if (r->ltype != GS_NONE)
				wput(fp, r->lab, (size_t)r->m * gs_dtype_size(r->ltype));
			break;
		}
		for (i = 0; i < r->m; i++) {
			char line[96];
			int n = put_i32(line, r->u[i]);
			line[n++] = '\t';
			n += put_i32(line + n, r->v[i]);
			if (r->ltype != GS_NONE) {
				line[n++] = '\t';
				n += fmt_value(line + n, sizeof line - (size_t)n - 1, r->ltype,
					       r->lab, i);
			}
			line[n++] = '\n';
			wput(fp, line, (size_t)n);
		}
		break;
	case GS_TENSOR:
		put_matrix(fp, r->data, r->dtype, r->rows, r->cols);
		break;
	case GS_MODEL:
		wput(fp, r->config, r->config_len);
		for (k = 0; k < r->nparams; k++) {
			const gs_param *p = &r->params[k];
			char h[GS_NAME_MAX + 128];
			snprintf(h, sizeof h, "param name=%s rows=%" PRId64 " cols=%" PRId64
				 " type=%s", p->name, p->rows, p->cols, dtype_name(p->dtype));
			put_header(fp, h);
			put_matrix(fp, p->data, p->dtype, p->rows, p->cols);
		}
		break;
	}
	fp->wrec++;
}

/* Options that cannot change a program's output: left out of the recorded
 * command line, so the same data gives the same bytes on any thread count. */
static int neutral_option(char **argv, int i, int *skip)
{
	const char *a = argv[i];

	*skip = 0;
	if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0 ||
	    strcmp(a, "--progress") == 0 || strncmp(a, "--threads=", 10) == 0 ||
	    (strncmp(a, "-j", 2) == 0 && a[2] != '\0'))
		return 1;
	if (strcmp(a, "-j") == 0 || strcmp(a, "--threads") == 0) {
		*skip = 1;	/* and its value */
		return 1;
	}
	return 0;
}

/* The command line, each argument quoted when needed, less the neutral
 * options (until a "--", after which everything is an operand). */
static char *join_argv(int argc, char **argv)
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
static void open_writer(gs_file *fp, int fd, int level)
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

gs_file *gs_open_fd_out(int fd, const char *name)
{
	gs_file *fp = xcalloc(1, sizeof *fp);

	fp->writing = 1;
	fp->name = xstrdup(name);
	open_writer(fp, fd, 0);
	return fp;
}

gs_file *gs_open_out(const struct copt *c, int argc, char **argv)
{
	gs_file *fp = xcalloc(1, sizeof *fp);
	const char *path = c->output;
	int fd, level = c->level;
	char *cmd, seed[32], line[64];
	gs_rec pg;
	uint32_t h;

	if (c->text && !c->level_set)
		level = 0;	/* -t alone writes readable text */
	fp->writing = 1;
	fp->wtext = c->text;
	if (path && strcmp(path, "-") == 0)
		path = NULL;
	if (path == NULL) {
		if (isatty(STDOUT_FILENO) && (!c->text || level > 0))
			die_usage("refusing to write binary data to a terminal "
				  "(use -t, -o FILE or a pipe)");
		fp->name = xstrdup("<stdout>");
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

int gs_close(gs_file *fp)
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
