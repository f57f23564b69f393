/* lineread.c - text files line by line, for the importers; see lineread.h. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "lineread.h"
#include "outfile.h"

int
lr_fail(struct lr_err err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err.msg, err.len, fmt, ap);
	va_end(ap);
	err_one_line(err.msg); /* it quotes input bytes: a tab, \v, ESC... */
	return -1;
}

int
lr_bad(const lreader *r, const char *fmt, ...)
{
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return lr_fail(r->err, "%s: line %" PRId64 ": %s", r->path, r->line, what);
}

static int
file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* path from the file system: 0, 1 if absent, -1 (errno) on another error. */
static int
open_fs(lreader *r, const char *path)
{
	snprintf(r->path, sizeof r->path, "%s", path);
	if (!file_exists(r->path)) {
		char alt[4096];
		snprintf(alt, sizeof alt, "%s.gz", path);
		if (!file_exists(alt))
			return 1;
		snprintf(r->path, sizeof r->path, "%s", alt);
	}
	errno = 0;
	r->gz = gzopen(r->path, "rb");
	if (r->gz == NULL && errno == ENOENT)
		return 1;
	if (r->gz)
		outfile_input_path(r->path); /* never an output's file */
	return r->gz ? 0 : -1;
}

/* path from src, the same way. */
static int
open_src(lreader *r, const char *path, const struct lr_src *src)
{
	int fd;

	snprintf(r->path, sizeof r->path, "%s", path);
	if ((fd = src->open(src->ctx, r->path)) < 0 && errno == ENOENT) {
		snprintf(r->path, sizeof r->path, "%s.gz", path);
		fd = src->open(src->ctx, r->path);
	}
	if (fd < 0)
		return errno == ENOENT ? 1 : -1;
	outfile_input_fd(fd, r->path);
	if ((r->gz = gzdopen(fd, "rb")) == NULL) {
		close(fd);
		return -1;
	}
	return 0;
}

int
lr_try(lreader *r, const char *path, const struct lr_src *src, struct lr_err err)
{
	int rc;

	memset(r, 0, sizeof *r);
	r->err = err;
	if (strcmp(path, "-") == 0) {
		snprintf(r->path, sizeof r->path, "<stdin>");
		outfile_input_fd(0, NULL);
		r->gz = gzdopen(0, "rb");
		rc = r->gz ? 0 : -1;
	} else {
		rc = src ? open_src(r, path, src) : open_fs(r, path);
	}
	if (rc < 0)
		return lr_fail(err, "%s: %s", r->path, strerror(errno));
	if (rc == 0)
		gzbuffer(r->gz, 1 << 17);
	return rc;
}

int
lr_open(lreader *r, const char *path, const struct lr_src *src, struct lr_err err)
{
	int rc = lr_try(r, path, src, err);

	if (rc == 1)
		return lr_fail(err, "%s: No such file or directory", path);
	return rc;
}

void
lr_close(lreader *r)
{
	if (r->gz != NULL)
		gzclose_r(r->gz);
	free(r->buf);
	r->gz = NULL;
	r->buf = NULL;
}

/* A failed gzgets: 0 at the end of the file, -1 on a read error. */
static int
gz_end(lreader *r)
{
	int e;
	const char *m = gzerror(r->gz, &e);
	size_t pl = strlen(r->path);

	/* zlib's message starts with the path: name it once */
	if (strncmp(m, r->path, pl) == 0 && m[pl] == ':' && m[pl + 1] == ' ')
		m += pl + 2;
	if (e != Z_OK && e != Z_STREAM_END)
		return lr_fail(r->err, "%s: line %" PRId64 ": %s", r->path, r->line + 1,
			       e == Z_ERRNO ? strerror(errno) : m);
	return 0;
}

int
lr_next(lreader *r)
{
	r->len = 0;
	for (;;) {
		int got;
		size_t l;

		if (r->cap - r->len < 4096) {
			r->cap = r->cap ? r->cap * 2 : 65536;
			r->buf = xrealloc(r->buf, r->cap);
		}
		if (gzgets(r->gz, r->buf + r->len,
			   (int)(r->cap - r->len > INT_MAX ? INT_MAX : r->cap - r->len)) == NULL) {
			if (gz_end(r) != 0)
				return -1;
			if (r->len == 0)
				return 0;
			break;
		}
		l = strlen(r->buf + r->len);
		got = l > 0 && r->buf[r->len + l - 1] == '\n';
		r->len += l;
		if (got)
			break;
		if (l == 0) { /* a NUL byte */
			r->line++;
			return lr_bad(r, "NUL byte: not a text file");
		}
	}
	r->line++;
	while (r->len > 0 && (r->buf[r->len - 1] == '\n' || r->buf[r->len - 1] == '\r'))
		r->buf[--r->len] = '\0';
	if (r->line == 1 && strncmp(r->buf, "\xef\xbb\xbf", 3) == 0)
		memmove(r->buf, r->buf + 3, (r->len -= 3) + 1); /* a byte-order mark */
	return 1;
}

/* ---- fields ---- */

void
lr_fields_free(fields *fs)
{
	free(fs->f);
	memset(fs, 0, sizeof *fs);
}

char *
lr_trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static void
fpush(fields *fs, char *s)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 64;
		fs->f = xreallocarray(fs->f, (size_t)fs->cap, sizeof *fs->f);
	}
	fs->f[fs->n++] = s;
}

int
lr_split(fields *fs, char *s, const char *sep)
{
	fs->n = 0;
	if (strcmp(sep, " ") == 0) {
		for (;;) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (*s == '\0')
				break;
			fpush(fs, s);
			while (*s != '\0' && *s != ' ' && *s != '\t')
				s++;
			if (*s != '\0')
				*s++ = '\0';
		}
		return fs->n;
	}
	for (;;) {
		char *e = strstr(s, sep);
		if (e != NULL)
			*e = '\0';
		fpush(fs, sep[0] == '\t' ? s : lr_trim(s));
		if (e == NULL)
			break;
		s = e + strlen(sep);
	}
	return fs->n;
}

const char *
lr_guess_sep(const char *s)
{
	if (strchr(s, '\t') != NULL)
		return "\t";
	if (strchr(s, ',') != NULL)
		return ",";
	return " ";
}

int
lr_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* ---- numbers ---- */

int
lr_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	char *e;
	long long x;

	if (*s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtoll(s, &e, 10);
	if (errno != 0 || *e != '\0' || x < lo || x > hi)
		return -1;
	*out = x;
	return 0;
}

int
lr_parse_f32(const char *s, float *out)
{
	char *e;
	double x;

	if (*s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	x = strtod(s, &e);
	if (*e != '\0' || !isfinite(x) || !isfinite((float)x) || (errno == ERANGE && fabs(x) > 1))
		return -1;
	*out = (float)x;
	return 0;
}

int
lr_need_i64(const lreader *r, const char *s, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
	int64_t x;

	if (lr_parse_i64(s, INT64_MIN, INT64_MAX, &x) != 0)
		return lr_bad(r, "%s '%.40s' is not an integer in %" PRId64 "..%" PRId64, what, s,
			      lo, hi);
	if (x < lo || x > hi)
		return lr_bad(r, "%s %" PRId64 " is out of range %" PRId64 "..%" PRId64, what, x,
			      lo, hi);
	*out = x;
	return 0;
}

int
lr_need_f32(const lreader *r, const char *s, const char *what, float *out)
{
	if (lr_parse_f32(s, out) != 0)
		return lr_bad(r, "%s '%.40s' is not a finite number", what, s);
	return 0;
}
