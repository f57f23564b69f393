/*
 * graph-import - turn raw downstream datasets into gnnstream graph streams:
 * the LINQS content/cites format (Cora, CiteSeer, Pubmed-Diabetes), the TU
 * Dortmund graph kernel format (IMDB-BINARY, PROTEINS, ...), MovieLens
 * 100K/1M as a bipartite user-item graph, and plain "u v [label]" edge lists.
 * Every reader checks what it reads and stops at the first bad line with
 * "prog: FILE: line N: what".  Manual: man/man1/graph-import.1.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "err.h"
#include "opt.h"
#include "stream.h"

enum {
	OPT_ATTRIBUTES = COPT_FIRST_TOOL, OPT_ATTR_DIM, OPT_NAME, OPT_NODES,
	OPT_SKIP_UNKNOWN
};

enum fmt { FMT_NONE, FMT_LINQS, FMT_TU, FMT_MOVIELENS, FMT_EDGELIST };

struct opts {
	struct copt c;
	int format;
	const char *attributes;	/* linqs: sparse "node feature value" file */
	int64_t attr_dim;	/* linqs: width of --attributes, 0 = max + 1 */
	const char *name;	/* dataset= attribute */
	int64_t nodes;		/* edgelist: node count, 0 = largest id + 1 */
	int skip_unknown;	/* linqs: drop links to ids not in the content */
};

#define SYNOPSIS "graph-import -f linqs | tu | movielens | edgelist [-qt] [-l level]\n" \
	"                    [-o file] [--attributes file] [--attr-dim n] [--name name]\n" \
	"                    [--nodes n] [--skip-unknown] file ..."

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " SYNOPSIS "\n"
		"  graph-import -f linqs CONTENT CITES    LINQS content/cites (Cora, CiteSeer, Pubmed)\n"
		"  graph-import -f tu PREFIX              TU format: PREFIX_A.txt, PREFIX_graph_indicator.txt, ...\n"
		"  graph-import -f movielens DIR          MovieLens 100K (u.data) or 1M (ratings.dat)\n"
		"  graph-import -f edgelist [FILE]        'u v [label]' lines, one graph\n"
		"  Each FILE may also be stored as FILE.gz.\n"
		"      --attributes FILE  linqs: sparse node attributes, 'id feature value' lines\n"
		"      --attr-dim N       linqs: attribute columns of --attributes [largest feature + 1]\n"
		"  -f, --format NAME      input format (required)\n"
		"  -h, --help             this help\n"
		"  -j, --threads N        accepted for uniformity; import runs on one thread\n"
		"  -l, --level N          gzip level, 0 = plain [1]\n"
		"      --name NAME        dataset= attribute of the graphs [from the file name]\n"
		"      --nodes N          edgelist: number of nodes [largest id + 1]\n"
		"  -o, --output FILE      write to FILE instead of stdout\n"
		"      --progress         accepted for uniformity; no progress to show\n"
		"  -q, --quiet            no warnings\n"
		"  -s, --seed N           accepted for uniformity; import draws nothing at random\n"
		"      --skip-unknown     linqs: drop links that name an id missing from CONTENT\n"
		"  -t, --text             write the text form (plain unless -l is given)\n"
		"      --version          print the version\n");
}

/* ------------------------------------------------------------------ lines */

/* A text file, plain or gzip, read line by line with its line number. */
typedef struct {
	gzFile gz;
	char path[4096];
	int64_t line;
	char *buf;
	size_t cap, len;
} lreader;

static int file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Open path, or path.gz when path does not exist (if gz_ok).  Returns 0 or
 * -1 (no such file, either way); dies on other errors. */
static int lr_try(lreader *r, const char *path, int gz_ok)
{
	memset(r, 0, sizeof *r);
	if (strcmp(path, "-") == 0) {
		snprintf(r->path, sizeof r->path, "<stdin>");
		r->gz = gzdopen(0, "rb");
	} else {
		snprintf(r->path, sizeof r->path, "%s", path);
		if (!file_exists(r->path) && gz_ok) {
			char alt[4096];
			snprintf(alt, sizeof alt, "%s.gz", path);
			if (!file_exists(alt))
				return -1;
			snprintf(r->path, sizeof r->path, "%s", alt);
		}
		errno = 0;
		r->gz = gzopen(r->path, "rb");
		if (r->gz == NULL && errno == ENOENT)
			return -1;
	}
	if (r->gz == NULL)
		die("%s:", r->path);
	gzbuffer(r->gz, 1 << 17);
	return 0;
}

static void lr_open(lreader *r, const char *path)
{
	if (lr_try(r, path, 1) != 0)
		die("%s: No such file or directory", path);
}

static void lr_close(lreader *r)
{
	if (r->gz != NULL)
		gzclose_r(r->gz);
	free(r->buf);
	r->gz = NULL;
	r->buf = NULL;
}

/* "prog: FILE: line N: what" and exit 1. */
static void bad(const lreader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void bad(const lreader *r, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	die("%s: line %" PRId64 ": %s", r->path, r->line, msg);
}

/* Next line into r->buf (no line end), 1; 0 at the end of the file. */
static int lr_next(lreader *r)
{
	r->len = 0;
	for (;;) {
		int got;
		size_t l;

		if (r->cap - r->len < 4096) {
			r->cap = r->cap ? r->cap * 2 : 65536;
			r->buf = xrealloc(r->buf, r->cap);
		}
		if (gzgets(r->gz, r->buf + r->len, (int)(r->cap - r->len > INT_MAX ? INT_MAX : r->cap - r->len)) == NULL) {
			int e;
			const char *m = gzerror(r->gz, &e);
			size_t pl = strlen(r->path);
			/* zlib's message starts with the path: name it once */
			if (strncmp(m, r->path, pl) == 0 && m[pl] == ':' && m[pl + 1] == ' ')
				m += pl + 2;
			if (e != Z_OK && e != Z_STREAM_END)
				die("%s: line %" PRId64 ": %s", r->path, r->line + 1,
				    e == Z_ERRNO ? strerror(errno) : m);
			if (r->len == 0)
				return 0;
			break;
		}
		l = strlen(r->buf + r->len);
		got = l > 0 && r->buf[r->len + l - 1] == '\n';
		r->len += l;
		if (got)
			break;
		if (l == 0) {	/* a NUL byte */
			r->line++;
			bad(r, "NUL byte: not a text file");
		}
	}
	r->line++;
	while (r->len > 0 && (r->buf[r->len - 1] == '\n' || r->buf[r->len - 1] == '\r'))
		r->buf[--r->len] = '\0';
	if (r->line == 1 && strncmp(r->buf, "\xef\xbb\xbf", 3) == 0)
		memmove(r->buf, r->buf + 3, (r->len -= 3) + 1);	/* a byte-order mark */
	return 1;
}

/* Fields of a line, split in place. */
typedef struct {
	char **f;
	int n, cap;
} fields;

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static void fpush(fields *fs, char *s)
{
	if (fs->n == fs->cap) {
		fs->cap = fs->cap ? 2 * fs->cap : 64;
		fs->f = xreallocarray(fs->f, (size_t)fs->cap, sizeof *fs->f);
	}
	fs->f[fs->n++] = s;
}

/*
 * Split s on sep: a single character (tab, comma, '|'), the string "::",
 * or " " for runs of blanks.  Fields of a single-character split are
 * trimmed of blanks; empty fields are kept.
 */
static int split(fields *fs, char *s, const char *sep)
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
		fpush(fs, sep[0] == '\t' ? s : trim(s));
		if (e == NULL)
			break;
		s = e + strlen(sep);
	}
	return fs->n;
}

/* The separator of a delimited line: tab, else comma, else blanks. */
static const char *guess_sep(const char *s)
{
	if (strchr(s, '\t') != NULL)
		return "\t";
	if (strchr(s, ',') != NULL)
		return ",";
	return " ";
}

static int blank_line(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* Whole-string decimal integer in [lo, hi]. */
static int parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
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

/* Whole-string finite number that is finite as a float too. */
static int parse_f32(const char *s, float *out)
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

static int64_t need_i64(const lreader *r, const char *s, int64_t lo, int64_t hi, const char *what)
{
	int64_t x;

	if (parse_i64(s, INT64_MIN, INT64_MAX, &x) != 0)
		bad(r, "%s '%.40s' is not an integer in %" PRId64 "..%" PRId64, what, s, lo, hi);
	if (x < lo || x > hi)
		bad(r, "%s %" PRId64 " is out of range %" PRId64 "..%" PRId64, what, x, lo, hi);
	return x;
}

static float need_f32(const lreader *r, const char *s, const char *what)
{
	float x;

	if (parse_f32(s, &x) != 0)
		bad(r, "%s '%.40s' is not a finite number", what, s);
	return x;
}

/* --------------------------------------------------------------- hash maps */

/* String -> int32, open addressing; keys are copied. */
typedef struct {
	char **key;
	int32_t *val;
	size_t cap, n;
} smap;

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static size_t smap_slot(const smap *m, const char *k)
{
	size_t i = (size_t)hash_str(k) & (m->cap - 1);

	while (m->key[i] != NULL && strcmp(m->key[i], k) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int32_t smap_get(const smap *m, const char *k)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = smap_slot(m, k);
	return m->key[i] ? m->val[i] : -1;
}

/* Insert k -> v; returns the value already there, or -1 if k was new. */
static int32_t smap_put(smap *m, const char *k, int32_t v)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		smap old = *m;
		size_t j;
		m->cap = old.cap ? 2 * old.cap : 1024;
		m->key = xcalloc(m->cap, sizeof *m->key);
		m->val = xcalloc(m->cap, sizeof *m->val);
		for (j = 0; j < old.cap; j++)
			if (old.key[j] != NULL) {
				size_t s = smap_slot(m, old.key[j]);
				m->key[s] = old.key[j];
				m->val[s] = old.val[j];
			}
		free(old.key);
		free(old.val);
	}
	i = smap_slot(m, k);
	if (m->key[i] != NULL)
		return m->val[i];
	m->key[i] = xstrdup(k);
	m->val[i] = v;
	m->n++;
	return -1;
}

static void smap_free(smap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

/* A growing list of strings (class names in order of appearance). */
typedef struct {
	char **s;
	int32_t n, cap;
} slist;

static int32_t slist_add(slist *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->s = xreallocarray(l->s, (size_t)l->cap, sizeof *l->s);
	}
	l->s[l->n] = xstrdup(s);
	return l->n++;
}

static void slist_free(slist *l)
{
	int32_t i;

	for (i = 0; i < l->n; i++)
		free(l->s[i]);
	free(l->s);
	memset(l, 0, sizeof *l);
}

/*
 * Classes: names seen in any order, numbered 0..C-1 in sorted order at the
 * end (numerically when every name is an integer, else by strcmp), so the
 * numbering does not depend on the order of the lines.
 */
typedef struct {
	smap idx;	/* name -> order of appearance */
	slist names;	/* by order of appearance */
	int32_t *rank;	/* order of appearance -> class */
	int32_t *order;	/* class -> order of appearance */
} classes;

static int32_t class_add(classes *c, const char *name)
{
	int32_t k = smap_get(&c->idx, name);

	if (k >= 0)
		return k;
	if (c->names.n >= 1 << 24)
		return -1;
	k = c->names.n;
	smap_put(&c->idx, name, k);
	slist_add(&c->names, name);
	return k;
}

static const slist *sort_names;
static int sort_numeric;

static int cmp_class(const void *a, const void *b)
{
	const char *x = sort_names->s[*(const int32_t *)a], *y = sort_names->s[*(const int32_t *)b];

	if (sort_numeric) {
		long long p = strtoll(x, NULL, 10), q = strtoll(y, NULL, 10);
		return (p > q) - (p < q);
	}
	return strcmp(x, y);
}

static void class_finish(classes *c)
{
	int32_t i, n = c->names.n;
	int64_t dummy;

	c->order = xmallocarray((size_t)n + 1, sizeof *c->order);
	c->rank = xmallocarray((size_t)n + 1, sizeof *c->rank);
	sort_numeric = 1;
	for (i = 0; i < n; i++) {
		c->order[i] = i;
		if (parse_i64(c->names.s[i], INT64_MIN, INT64_MAX, &dummy) != 0)
			sort_numeric = 0;
	}
	sort_names = &c->names;
	qsort(c->order, (size_t)n, sizeof *c->order, cmp_class);
	for (i = 0; i < n; i++)
		c->rank[c->order[i]] = i;
}

/* "a,b,c": the class names in class order. */
static char *class_list(const classes *c)
{
	size_t len = 1, at = 0;
	int32_t i;
	char *s;

	for (i = 0; i < c->names.n; i++)
		len += strlen(c->names.s[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (i = 0; i < c->names.n; i++) {
		const char *nm = c->names.s[c->order[i]];
		at += (size_t)sprintf(s + at, "%s%s", i ? "," : "", nm);
	}
	return s;
}

static void class_free(classes *c)
{
	smap_free(&c->idx);
	slist_free(&c->names);
	free(c->rank);
	free(c->order);
}

/* ------------------------------------------------------------------ edges */

typedef struct {
	uint64_t key;	/* graph << 62 would not fit: (u << 32) | v, u < v */
	int32_t g;	/* graph index (TU), else 0 */
	int32_t lab;
	int64_t line;	/* line of the input, for messages and "first wins" */
} edge;

typedef struct {
	edge *e;
	int64_t n, cap;
	int64_t loops, dups;
} edges;

static void edge_add(edges *es, int32_t g, int32_t u, int32_t v, int32_t lab, int64_t line)
{
	edge *e;

	if (u == v) {
		es->loops++;
		return;
	}
	if (es->n == es->cap) {
		es->cap = es->cap ? 2 * es->cap : 4096;
		es->e = xreallocarray(es->e, (size_t)es->cap, sizeof *es->e);
	}
	e = &es->e[es->n++];
	if (u > v) {
		int32_t t = u;
		u = v;
		v = t;
	}
	e->key = (uint64_t)(uint32_t)u << 32 | (uint32_t)v;
	e->g = g;
	e->lab = lab;
	e->line = line;
}

static int cmp_edge(const void *a, const void *b)
{
	const edge *x = a, *y = b;

	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/*
 * Sort and merge repeats.  With labels, repeats must agree: returns the
 * index of the first repeat whose label differs from the kept one, or -1.
 */
static int64_t edges_finish(edges *es, int labelled)
{
	int64_t i, k = 0;

	qsort(es->e, (size_t)es->n, sizeof *es->e, cmp_edge);
	for (i = 0; i < es->n; i++) {
		if (k > 0 && es->e[k - 1].g == es->e[i].g && es->e[k - 1].key == es->e[i].key) {
			if (labelled && es->e[k - 1].lab != es->e[i].lab)
				return i;
			es->dups++;
			continue;
		}
		es->e[k++] = es->e[i];
	}
	es->n = k;
	return -1;
}

/* Write the graph of edges e[0..m) as graph id (labels as i32 if labelled). */
static void put_graph(gs_rec *r, int64_t id, int32_t n, const edge *e, int64_t m, int labelled)
{
	int64_t i;

	gs_rec_graph(r, id, n, m, labelled ? GS_I32 : GS_NONE);
	for (i = 0; i < m; i++) {
		r->u[i] = (int32_t)(e[i].key >> 32);
		r->v[i] = (int32_t)(e[i].key & 0xffffffffu);
		if (labelled)
			((int32_t *)r->lab)[i] = e[i].lab;
	}
}

static void put_i32_col(gs_file *out, gs_rec *r, int64_t id, const char *name,
			const int32_t *x, int64_t n)
{
	gs_rec_tensor(r, id, name, n, 1, GS_I32, name);
	memcpy(r->data, x, (size_t)n * sizeof *x);
	gs_write1(out, r);
}

static void put_i64_col(gs_file *out, gs_rec *r, int64_t id, const char *name,
			const int64_t *x, int64_t n)
{
	gs_rec_tensor(r, id, name, n, 1, GS_I64, name);
	memcpy(r->data, x, (size_t)n * sizeof *x);
	gs_write1(out, r);
}

/* The last path component, less any of the given suffixes. */
static void base_name(char *buf, size_t len, const char *path, const char *const *suffixes)
{
	const char *b = strrchr(path, '/');
	size_t l;
	int i;

	snprintf(buf, len, "%s", b ? b + 1 : path);
	l = strlen(buf);
	while (l > 1 && buf[l - 1] == '/')
		buf[--l] = '\0';
	if (l == 0) {	/* "dir/": take the directory's name */
		snprintf(buf, len, "%s", path);
		l = strlen(buf);
		while (l > 1 && buf[l - 1] == '/')
			buf[--l] = '\0';
		b = strrchr(buf, '/');
		if (b != NULL)
			memmove(buf, b + 1, strlen(b + 1) + 1);
	}
	for (i = 0; suffixes != NULL && suffixes[i] != NULL; i++) {
		size_t s = strlen(suffixes[i]);
		l = strlen(buf);
		if (l > s && strcmp(buf + l - s, suffixes[i]) == 0)
			buf[l - s] = '\0';
	}
}

/* ------------------------------------------------------------------ LINQS */

typedef struct {
	int64_t node;
	int64_t feat;
	float val;
	int64_t line;
} sparse;

static int cmp_sparse(const void *a, const void *b)
{
	const sparse *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->feat != y->feat)
		return x->feat < y->feat ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* Strip a LINQS "type:" prefix ("paper:123" -> "123"). */
static const char *linqs_id(const char *s)
{
	const char *c = strchr(s, ':');

	return c ? c + 1 : s;
}

static int run_linqs(const struct opts *o, char **files, gs_file *out)
{
	lreader r;
	fields fs = { 0 };
	smap ids = { 0 }, feats = { 0 }, skip = { 0 };
	slist idn = { 0 };	/* node ids by index, for messages */
	classes cls = { 0 };
	edges es = { 0 };
	int32_t *label = NULL, *has = NULL;
	int64_t *orig = NULL;
	float *attr = NULL;
	int64_t n = 0, cap = 0, k = -1, links = 0, unknown = 0, attributed = 0, i;
	int tabfmt = 0, all_int = 1, nf0 = -1;
	const char *sep = NULL;
	char dataset[256], *names;
	static const char *const sfx[] = { ".gz", ".content", ".txt", ".labels", ".node_labels",
		".NODE.paper.tab", NULL };
	gs_rec rec;

	/* ---- the content (node) file ---- */
	lr_open(&r, files[0]);
	while (lr_next(&r)) {
		int64_t id;
		int32_t c;
		const char *cname = NULL;

		if (r.line == 1 && strncmp(r.buf, "NODE\t", 5) == 0) {
			/* Pubmed-Diabetes: "NODE\tpaper", then the attribute
			 * declarations "cat=1,2,3:label\tnumeric:w-rat:0.0\t...". */
			tabfmt = 1;
			if (!lr_next(&r))
				bad(&r, "no attribute declarations after the NODE line");
			split(&fs, r.buf, "\t");
			k = 0;
			for (i = 0; i < fs.n; i++) {
				char *a = fs.f[i], *nm = strchr(a, ':'), *e;
				if (nm == NULL)
					bad(&r, "attribute declaration '%.40s' is not TYPE:NAME[:DEFAULT]", a);
				nm++;
				e = strchr(nm, ':');
				if (e != NULL)
					*e = '\0';
				if (strcmp(nm, "label") == 0)
					continue;
				if (strncmp(a, "numeric:", 8) == 0) {
					if (smap_put(&feats, nm, (int32_t)k) >= 0)
						bad(&r, "attribute '%.40s' declared twice", nm);
					k++;
				} else {
					smap_put(&skip, nm, 0);
				}
			}
			continue;
		}
		if (blank_line(r.buf))
			bad(&r, "empty line");
		if (tabfmt) {
			split(&fs, r.buf, "\t");
		} else {
			if (sep == NULL)
				sep = guess_sep(r.buf);
			split(&fs, r.buf, sep);
			if (nf0 < 0) {
				nf0 = fs.n;
				if (nf0 < 2)
					bad(&r, "%d field, want 'id [attributes ...] class'", fs.n);
				k = nf0 - 2;
			}
			if (fs.n != nf0)
				bad(&r, "%d fields, want %d as on line 1", fs.n, nf0);
		}
		if (fs.f[0][0] == '\0')
			bad(&r, "empty node id");
		if (n >= GS_MAX_NODES)
			bad(&r, "more than %lld nodes", (long long)GS_MAX_NODES);
		if (smap_put(&ids, fs.f[0], (int32_t)n) >= 0)
			bad(&r, "node id '%.40s' occurs twice", fs.f[0]);
		slist_add(&idn, fs.f[0]);
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			label = xreallocarray(label, (size_t)cap, sizeof *label);
			orig = xreallocarray(orig, (size_t)cap, sizeof *orig);
			if (k > 0)
				attr = xreallocarray(attr, (size_t)cap, (size_t)k * sizeof *attr);
		}
		if (parse_i64(fs.f[0], INT64_MIN, INT64_MAX, &id) == 0)
			orig[n] = id;
		else
			all_int = 0;
		if (k > 0)
			memset(attr + n * k, 0, (size_t)k * sizeof *attr);
		if (tabfmt) {
			for (i = 1; i < fs.n; i++) {
				char *a = fs.f[i], *eq = strchr(a, '=');
				int32_t j;
				if (eq == NULL)
					bad(&r, "field '%.40s' is not NAME=VALUE", a);
				*eq = '\0';
				if (strcmp(a, "label") == 0) {
					cname = eq + 1;
					continue;
				}
				if (strcmp(a, "summary") == 0 || smap_get(&skip, a) >= 0)
					continue;
				j = smap_get(&feats, a);
				if (j < 0)
					bad(&r, "attribute '%.40s' is not declared on line 2", a);
				attr[n * k + j] = need_f32(&r, eq + 1, a);
			}
			if (cname == NULL)
				bad(&r, "no label= field");
		} else {
			for (i = 0; i < k; i++)
				attr[n * k + i] = need_f32(&r, fs.f[1 + i], "attribute");
			cname = fs.f[fs.n - 1];
		}
		if (cname[0] == '\0')
			bad(&r, "empty class label");
		c = class_add(&cls, cname);
		if (c < 0)
			bad(&r, "too many classes");
		label[n] = c;
		n++;
	}
	if (n == 0)
		die("%s: no nodes", r.path);
	if (k < 0)
		k = 0;
	lr_close(&r);
	class_finish(&cls);
	for (i = 0; i < n; i++)
		label[i] = cls.rank[label[i]];

	/* ---- the cites (link) file ---- */
	lr_open(&r, files[1]);
	sep = NULL;
	tabfmt = 0;
	while (lr_next(&r)) {
		const char *a, *b;
		int32_t u, v;

		if (r.line == 1 && (strncmp(r.buf, "DIRECTED", 8) == 0 ||
				    strncmp(r.buf, "UNDIRECTED", 10) == 0)) {
			/* Pubmed-Diabetes: "DIRECTED\tcites", then "NO_FEATURES"
			 * or the link attribute declarations, then
			 * "id\tpaper:A\t|\tpaper:B[\t...]". */
			tabfmt = 1;
			if (!lr_next(&r))
				bad(&r, "no declaration line after the DIRECTED line");
			continue;
		}
		if (blank_line(r.buf))
			continue;
		if (tabfmt) {
			split(&fs, r.buf, "\t");
			if (fs.n < 4 || strcmp(fs.f[2], "|") != 0)
				bad(&r, "want 'id<TAB>type:A<TAB>|<TAB>type:B'");
			a = linqs_id(fs.f[1]);
			b = linqs_id(fs.f[3]);
		} else {
			if (sep == NULL)
				sep = guess_sep(r.buf);
			split(&fs, r.buf, sep);
			if (fs.n != 2)
				bad(&r, "%d fields, want 2 (two node ids)", fs.n);
			a = fs.f[0];
			b = fs.f[1];
		}
		links++;
		u = smap_get(&ids, a);
		v = smap_get(&ids, b);
		if (u < 0 || v < 0) {
			if (!o->skip_unknown)
				bad(&r, "node '%.40s' is not in %s (--skip-unknown drops such links)",
				    u < 0 ? a : b, files[0]);
			unknown++;
			continue;
		}
		edge_add(&es, 0, u, v, 0, r.line);
	}
	lr_close(&r);
	edges_finish(&es, 0);
	if (links == 0)
		die("%s: no links", files[1]);
	if (unknown > 0 && !o->c.quiet)
		warnx_("%s: dropped %" PRId64 " of %" PRId64 " links naming a node missing from %s",
		       files[1], unknown, links, files[0]);

	/* ---- sparse attributes ---- */
	if (o->attributes != NULL) {
		sparse *sp = NULL;
		int64_t ns = 0, scap = 0, dim = o->attr_dim, j;

		if (k > 0)
			die_usage("--attributes: %s has attributes already (%" PRId64 " columns)",
				  files[0], k);
		lr_open(&r, o->attributes);
		sep = NULL;
		while (lr_next(&r)) {
			int32_t u;
			if (blank_line(r.buf) || r.buf[0] == '#')
				continue;
			if (sep == NULL)
				sep = guess_sep(r.buf);
			split(&fs, r.buf, sep);
			if (fs.n != 3)
				bad(&r, "%d fields, want 3 (node feature value)", fs.n);
			u = smap_get(&ids, fs.f[0]);
			if (u < 0)
				bad(&r, "node '%.40s' is not in %s", fs.f[0], files[0]);
			if (ns == scap) {
				scap = scap ? 2 * scap : 4096;
				sp = xreallocarray(sp, (size_t)scap, sizeof *sp);
			}
			sp[ns].node = u;
			sp[ns].feat = need_i64(&r, fs.f[1], 0, o->attr_dim ? o->attr_dim - 1 : 1 << 24,
					       "feature");
			sp[ns].val = need_f32(&r, fs.f[2], "value");
			sp[ns].line = r.line;
			if (dim < sp[ns].feat + 1 && o->attr_dim == 0)
				dim = sp[ns].feat + 1;
			ns++;
		}
		if (ns == 0)
			die("%s: no attributes", r.path);
		if ((double)n * (double)dim > (double)GS_MAX_ELEMS)
			die("%s: %" PRId64 " x %" PRId64 " attributes exceed the limit", r.path, n, dim);
		qsort(sp, (size_t)ns, sizeof *sp, cmp_sparse);
		k = dim;
		attr = xcalloc((size_t)n * (size_t)k, sizeof *attr);
		has = xcalloc((size_t)n, sizeof *has);
		for (j = 0; j < ns; j++) {
			if (j > 0 && sp[j].node == sp[j - 1].node && sp[j].feat == sp[j - 1].feat) {
				r.line = sp[j].line;
				bad(&r, "node '%.40s' feature %" PRId64 " given twice",
				    idn.s[sp[j].node], sp[j].feat);
			}
			attr[sp[j].node * k + sp[j].feat] = sp[j].val;
			if (!has[sp[j].node]) {
				has[sp[j].node] = 1;
				attributed++;
			}
		}
		if (attributed < n && !o->c.quiet)
			warnx_("%s: attributes for only %" PRId64 " of %" PRId64 " nodes; the "
			       "other %" PRId64 " rows of 'attributes' are zero, tensor "
			       "'has_attributes' marks which", r.path, attributed, n, n - attributed);
		lr_close(&r);
		free(sp);
	} else if (k > 0) {
		attributed = n;
	}

	/* ---- write ---- */
	gs_rec_init(&rec);
	put_graph(&rec, 0, (int32_t)n, es.e, es.n, 0);
	if (o->name != NULL)
		snprintf(dataset, sizeof dataset, "%s", o->name);
	else
		base_name(dataset, sizeof dataset, files[0], sfx);
	gs_attr_set(&rec, "format", "linqs");
	gs_attr_set(&rec, "dataset", dataset);
	gs_attr_setf(&rec, "links", "%" PRId64, links);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, es.loops);
	gs_attr_setf(&rec, "repeated_links", "%" PRId64, es.dups);
	if (unknown > 0)
		gs_attr_setf(&rec, "unknown_links", "%" PRId64, unknown);
	gs_attr_setf(&rec, "classes", "%" PRId32, cls.names.n);
	names = class_list(&cls);
	gs_attr_set(&rec, "class_names", names);
	free(names);
	if (k > 0)
		gs_attr_setf(&rec, "attributed_nodes", "%" PRId64, attributed);
	gs_write1(out, &rec);
	if (all_int)
		put_i64_col(out, &rec, 0, "orig_id", orig, n);
	put_i32_col(out, &rec, 0, "label", label, n);
	if (k > 0) {
		gs_rec_tensor(&rec, 0, "attributes", n, k, GS_F32, NULL);
		memcpy(rec.data, attr, (size_t)n * (size_t)k * sizeof *attr);
		gs_write1(out, &rec);
	}
	if (has != NULL && attributed < n)
		put_i32_col(out, &rec, 0, "has_attributes", has, n);

	gs_rec_free(&rec);
	smap_free(&ids);
	smap_free(&feats);
	smap_free(&skip);
	slist_free(&idn);
	class_free(&cls);
	free(es.e);
	free(fs.f);
	free(label);
	free(orig);
	free(attr);
	free(has);
	return 0;
}

/* --------------------------------------------------------------------- TU */

/* Open PREFIX_what.txt (or .txt.gz): 0, or -1 if it is absent and optional. */
static int tu_open(lreader *r, const char *prefix, const char *what, int required)
{
	char p[4096];

	snprintf(p, sizeof p, "%s_%s.txt", prefix, what);
	if (lr_try(r, p, 1) != 0) {
		if (required)
			die("%s: No such file or directory", p);
		return -1;
	}
	return 0;
}

static int run_tu(const struct opts *o, const char *prefix, gs_file *out)
{
	lreader r;
	fields fs = { 0 };
	classes gcls = { 0 }, ncls = { 0 };
	edges es = { 0 };
	int32_t *glab = NULL, *gid = NULL, *lid = NULL, *count = NULL, *nlab = NULL, *tmp = NULL;
	int64_t *entries = NULL, *loops = NULL;
	float *nattr = NULL;
	int64_t G = 0, gcap = 0, N = 0, ncap = 0, i, g, A = 0, na = -1, bad_g;
	int has_nlab, has_nattr, has_elab;
	lreader el;
	char dataset[256], *gnames = NULL, *nnames = NULL;
	static const char *const sfx[] = { NULL };
	gs_rec rec;

	/* graph labels: G lines, one integer class each */
	tu_open(&r, prefix, "graph_labels", 1);
	while (lr_next(&r)) {
		char *s = trim(r.buf);
		int64_t x;
		int32_t c;
		if (*s == '\0')
			bad(&r, "empty line");
		char canon[32];
		x = need_i64(&r, s, INT32_MIN, INT32_MAX, "graph label");
		snprintf(canon, sizeof canon, "%" PRId64, x);
		if (G == gcap) {
			gcap = gcap ? 2 * gcap : 1024;
			glab = xreallocarray(glab, (size_t)gcap, sizeof *glab);
		}
		if (G >= INT32_MAX)
			bad(&r, "too many graphs");
		c = class_add(&gcls, canon);
		glab[G++] = c;
	}
	if (G == 0)
		die("%s: no graphs", r.path);
	lr_close(&r);
	class_finish(&gcls);

	/* graph indicator: line i holds the graph (1..G) of node i */
	count = xcalloc((size_t)G, sizeof *count);
	tu_open(&r, prefix, "graph_indicator", 1);
	while (lr_next(&r)) {
		char *s = trim(r.buf);
		if (*s == '\0')
			bad(&r, "empty line");
		g = need_i64(&r, s, 1, G, "graph id") - 1;
		if (N == ncap) {
			ncap = ncap ? 2 * ncap : 4096;
			gid = xreallocarray(gid, (size_t)ncap, sizeof *gid);
			lid = xreallocarray(lid, (size_t)ncap, sizeof *lid);
		}
		if (N >= GS_MAX_NODES)
			bad(&r, "too many nodes");
		gid[N] = (int32_t)g;
		lid[N] = count[g]++;
		N++;
	}
	for (g = 0; g < G; g++)
		if (count[g] == 0)
			die("%s: graph %" PRId64 " (of %" PRId64 " in the graph labels) has no nodes",
			    r.path, g + 1, G);
	lr_close(&r);

	/* optional node labels: N lines, an integer each (the first field) */
	has_nlab = tu_open(&r, prefix, "node_labels", 0) == 0;
	if (has_nlab) {
		int64_t n = 0;
		tmp = xmallocarray((size_t)N, sizeof *tmp);
		while (lr_next(&r)) {
			int32_t c;
			split(&fs, r.buf, ",");
			if (n >= N)
				bad(&r, "more lines than the %" PRId64 " nodes of the graph indicator", N);
			char canon[32];
			snprintf(canon, sizeof canon, "%" PRId64,
				 need_i64(&r, fs.f[0], INT32_MIN, INT32_MAX, "node label"));
			c = class_add(&ncls, canon);
			tmp[n++] = c;
		}
		if (n != N)
			die("%s: %" PRId64 " lines, want %" PRId64 " (the nodes of the graph indicator)",
			    r.path, n, N);
		lr_close(&r);
		class_finish(&ncls);
		nlab = xmallocarray((size_t)N, sizeof *nlab);
		for (i = 0; i < N; i++)
			nlab[i] = ncls.rank[tmp[i]];
		free(tmp);
		tmp = NULL;
		nnames = class_list(&ncls);
	}

	/* optional node attributes: N lines of comma-separated numbers */
	has_nattr = tu_open(&r, prefix, "node_attributes", 0) == 0;
	if (has_nattr) {
		int64_t n = 0;
		while (lr_next(&r)) {
			split(&fs, r.buf, ",");
			if (na < 0) {
				na = fs.n;
				nattr = xmallocarray((size_t)N, (size_t)na * sizeof *nattr);
			}
			if (fs.n != na)
				bad(&r, "%d fields, want %" PRId64 " as on line 1", fs.n, na);
			if (n >= N)
				bad(&r, "more lines than the %" PRId64 " nodes of the graph indicator", N);
			for (i = 0; i < na; i++)
				nattr[n * na + i] = need_f32(&r, fs.f[i], "attribute");
			n++;
		}
		if (n != N)
			die("%s: %" PRId64 " lines, want %" PRId64 " (the nodes of the graph indicator)",
			    r.path, n, N);
		lr_close(&r);
	}

	/* adjacency, with optional edge labels line by line */
	has_elab = tu_open(&el, prefix, "edge_labels", 0) == 0;
	entries = xcalloc((size_t)G, sizeof *entries);
	loops = xcalloc((size_t)G, sizeof *loops);
	tu_open(&r, prefix, "A", 1);
	while (lr_next(&r)) {
		int64_t a, b, lab = 0;
		if (blank_line(r.buf))
			bad(&r, "empty line");
		split(&fs, r.buf, ",");
		if (fs.n != 2)
			bad(&r, "%d fields, want 'i, j'", fs.n);
		a = need_i64(&r, fs.f[0], 1, N, "node id") - 1;
		b = need_i64(&r, fs.f[1], 1, N, "node id") - 1;
		if (gid[a] != gid[b])
			bad(&r, "edge between graph %d (node %" PRId64 ") and graph %d (node %" PRId64 ")",
			    gid[a] + 1, a + 1, gid[b] + 1, b + 1);
		if (has_elab) {
			if (!lr_next(&el))
				die("%s: fewer lines than the %" PRId64 "+ entries of %s", el.path,
				    r.line, r.path);
			split(&fs, el.buf, ",");
			lab = need_i64(&el, fs.f[0], INT32_MIN, INT32_MAX, "edge label");
		}
		g = gid[a];
		entries[g]++;
		if (a == b)
			loops[g]++;
		edge_add(&es, (int32_t)g, lid[a], lid[b], (int32_t)lab, r.line);
		A++;
	}
	if (has_elab && lr_next(&el))
		bad(&el, "more lines than the %" PRId64 " entries of %s", A, r.path);
	lr_close(&r);
	if (has_elab)
		lr_close(&el);
	bad_g = edges_finish(&es, has_elab);
	if (bad_g >= 0)
		die("%s: line %" PRId64 ": graph %d: the edge between its nodes %" PRIu32
		    " and %" PRIu32 " (1-based, local) has two different labels",
		    el.path, es.e[bad_g].line, es.e[bad_g].g + 1,
		    (uint32_t)(es.e[bad_g].key >> 32) + 1, (uint32_t)es.e[bad_g].key + 1);
	if (es.loops > 0 && !o->c.quiet)
		warnx_("%s_A.txt: dropped %" PRId64 " self-loop entries", prefix, es.loops);

	/* write: per graph, the graph, its node tensors, its label */
	if (o->name != NULL)
		snprintf(dataset, sizeof dataset, "%s", o->name);
	else
		base_name(dataset, sizeof dataset, prefix, sfx);
	gnames = class_list(&gcls);
	gs_rec_init(&rec);
	{
		int64_t e0 = 0, e1;
		int32_t *ln = NULL;
		float *lnattr = NULL;
		int64_t *pos = xcalloc((size_t)G, sizeof *pos);
		int64_t *start = xcalloc((size_t)G + 1, sizeof *start);

		/* node j of graph g in local order: nodes are listed in file
		 * order, so gather them by graph with a counting pass */
		for (g = 0; g < G; g++)
			start[g + 1] = start[g] + count[g];
		int64_t *perm = xmallocarray((size_t)N, sizeof *perm);
		for (i = 0; i < N; i++)
			perm[start[gid[i]] + pos[gid[i]]++] = i;
		if (has_nlab)
			ln = xmallocarray((size_t)N, sizeof *ln);
		if (has_nattr)
			lnattr = xmallocarray((size_t)N, (size_t)na * sizeof *lnattr);
		for (g = 0; g < G; g++) {
			for (e1 = e0; e1 < es.n && es.e[e1].g == g; e1++)
				;
			put_graph(&rec, g, count[g], es.e + e0, e1 - e0, has_elab);
			gs_attr_set(&rec, "format", "tu");
			gs_attr_set(&rec, "dataset", dataset);
			gs_attr_setf(&rec, "entries", "%" PRId64, entries[g]);
			if (loops[g] > 0)
				gs_attr_setf(&rec, "self_loops", "%" PRId64, loops[g]);
			gs_write1(out, &rec);
			if (has_nlab) {
				for (i = 0; i < count[g]; i++)
					ln[i] = nlab[perm[start[g] + i]];
				gs_rec_tensor(&rec, g, "node_label", count[g], 1, GS_I32, "node_label");
				memcpy(rec.data, ln, (size_t)count[g] * sizeof *ln);
				gs_attr_set(&rec, "class_names", nnames);
				gs_write1(out, &rec);
			}
			if (has_nattr) {
				for (i = 0; i < count[g]; i++)
					memcpy(lnattr + i * na, nattr + perm[start[g] + i] * na,
					       (size_t)na * sizeof *nattr);
				gs_rec_tensor(&rec, g, "attributes", count[g], na, GS_F32, NULL);
				memcpy(rec.data, lnattr, (size_t)(count[g] * na) * sizeof *lnattr);
				gs_write1(out, &rec);
			}
			gs_rec_label(&rec, g, "label", gcls.rank[glab[g]]);
			gs_attr_setf(&rec, "classes", "%" PRId32, gcls.names.n);
			gs_attr_set(&rec, "class_names", gnames);
			gs_write1(out, &rec);
			e0 = e1;
		}
		free(ln);
		free(lnattr);
		free(pos);
		free(start);
		free(perm);
	}
	gs_rec_free(&rec);
	free(gnames);
	free(nnames);
	class_free(&gcls);
	if (has_nlab)
		class_free(&ncls);
	free(es.e);
	free(fs.f);
	free(glab);
	free(gid);
	free(lid);
	free(count);
	free(nlab);
	free(nattr);
	free(entries);
	free(loops);
	return 0;
}

/* -------------------------------------------------------------- MovieLens */

#define ML_AGES 7
#define ML_OCC_1M 21
static const char *const ml_age_cols[ML_AGES] = {
	"age_under18", "age_18-24", "age_25-34", "age_35-44", "age_45-49", "age_50-55", "age_56+"
};
static const int ml_age_codes[ML_AGES] = { 1, 18, 25, 35, 45, 50, 56 };
static const char *const ml_genres_1m[] = {
	"Action", "Adventure", "Animation", "Children's", "Comedy", "Crime", "Documentary",
	"Drama", "Fantasy", "Film-Noir", "Horror", "Musical", "Mystery", "Romance", "Sci-Fi",
	"Thriller", "War", "Western", NULL
};

/* Age bucket of an ML-100K age: the ML-1M age groups. */
static int ml_age_bucket(int64_t age)
{
	int i;

	for (i = ML_AGES - 1; i > 0; i--)
		if (age >= ml_age_codes[i])
			return i;
	return 0;
}

typedef struct {
	int64_t n, cap, cols;
	int64_t *orig;
	float *x;	/* n x cols */
} mlrows;

static float *ml_row(mlrows *m, int64_t orig)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->orig = xreallocarray(m->orig, (size_t)m->cap, sizeof *m->orig);
		m->x = xreallocarray(m->x, (size_t)m->cap, (size_t)m->cols * sizeof *m->x);
	}
	m->orig[m->n] = orig;
	memset(m->x + m->n * m->cols, 0, (size_t)m->cols * sizeof *m->x);
	return m->x + m->n++ * m->cols;
}

/* Append ",prefix_name" for each name to a growing column list. */
static void cols_add(char **cols, size_t *len, const char *prefix, const char *name)
{
	size_t need = strlen(prefix) + strlen(name) + 2;
	char *p;

	*cols = xrealloc(*cols, *len + need + 1);
	p = *cols + *len;
	if (*len > 0)
		*p++ = ',', (*len)++;
	*len += (size_t)sprintf(p, "%s%s", prefix, name);
	for (; *p; p++)		/* column names hold no blanks or commas */
		if (*p == ' ' || *p == ',' || *p == '=' || *p == '"')
			*p = '_';
}

static int run_movielens(const struct opts *o, const char *dir, gs_file *out)
{
	char p[4096], dataset[256], *cols = NULL;
	size_t clen = 0;
	lreader r;
	fields fs = { 0 };
	smap uidx = { 0 }, iidx = { 0 }, occ = { 0 }, genre = { 0 };
	slist occn = { 0 }, genren = { 0 };
	mlrows users = { 0 }, items = { 0 };
	edges es = { 0 };
	int v100k, triples = 0;
	int64_t ngenre, nocc, i, rcount[6] = { 0 }, info[3] = { -1, -1, -1 };
	const char *sep;
	static const char *const sfx[] = { NULL };
	gs_rec rec;

	snprintf(p, sizeof p, "%s/u.data", dir);
	v100k = lr_try(&r, p, 1) == 0;
	if (v100k) {
		lr_close(&r);
		sep = "|";
		/* occupations and genres, in file order */
		snprintf(p, sizeof p, "%s/u.occupation", dir);
		lr_open(&r, p);
		while (lr_next(&r)) {
			char *s = trim(r.buf);
			if (*s == '\0')
				continue;
			if (smap_put(&occ, s, occn.n) >= 0)
				bad(&r, "occupation '%.40s' listed twice", s);
			slist_add(&occn, s);
		}
		lr_close(&r);
		snprintf(p, sizeof p, "%s/u.genre", dir);
		lr_open(&r, p);
		while (lr_next(&r)) {
			if (blank_line(r.buf))
				continue;
			split(&fs, r.buf, "|");
			if (fs.n != 2)
				bad(&r, "%d fields, want 'name|index'", fs.n);
			if (need_i64(&r, fs.f[1], 0, 1000, "genre index") != genren.n)
				bad(&r, "genre index %s, want %d", fs.f[1], genren.n);
			slist_add(&genren, fs.f[0]);
		}
		lr_close(&r);
		nocc = occn.n;
		ngenre = genren.n;
		if (nocc == 0 || ngenre == 0)
			die("%s/u.occupation or u.genre: empty", dir);
		/* u.info: "943 users", "1682 items", "100000 ratings" */
		snprintf(p, sizeof p, "%s/u.info", dir);
		if (lr_try(&r, p, 1) == 0) {
			while (lr_next(&r)) {
				static const char *const what[3] = { "users", "items", "ratings" };
				int j;
				if (split(&fs, r.buf, " ") == 0)
					continue;
				for (j = 0; j < 3; j++)
					if (fs.n == 2 && strcmp(fs.f[1], what[j]) == 0)
						info[j] = need_i64(&r, fs.f[0], 0, INT32_MAX, what[j]);
			}
			lr_close(&r);
		}
	} else {
		snprintf(p, sizeof p, "%s/ratings.dat", dir);
		if (lr_try(&r, p, 1) != 0) {
			snprintf(p, sizeof p, "%s/ratings.triples.dat", dir);
			if (lr_try(&r, p, 1) != 0)
				die("%s: no u.data (MovieLens 100K) or ratings.dat (MovieLens 1M): "
				    "not a MovieLens directory", dir);
			triples = 1;
		}
		lr_close(&r);
		sep = "::";
		nocc = ML_OCC_1M;
		for (ngenre = 0; ml_genres_1m[ngenre] != NULL; ngenre++) {
			smap_put(&genre, ml_genres_1m[ngenre], (int32_t)ngenre);
			slist_add(&genren, ml_genres_1m[ngenre]);
		}
		for (i = 0; i < nocc; i++) {
			char b[24];
			snprintf(b, sizeof b, "%" PRId64, i);
			slist_add(&occn, b);
		}
	}
	users.cols = items.cols = ML_AGES + 2 + nocc + ngenre;
	for (i = 0; i < ML_AGES; i++)
		cols_add(&cols, &clen, "", ml_age_cols[i]);
	cols_add(&cols, &clen, "gender_", "M");
	cols_add(&cols, &clen, "gender_", "F");
	for (i = 0; i < nocc; i++)
		cols_add(&cols, &clen, "occ_", occn.s[i]);
	for (i = 0; i < ngenre; i++)
		cols_add(&cols, &clen, "genre_", genren.s[i]);

	/* users */
	snprintf(p, sizeof p, "%s/%s", dir, v100k ? "u.user" : "users.dat");
	lr_open(&r, p);
	while (lr_next(&r)) {
		int64_t id, age, oc;
		const char *gender;
		float *x;
		int b;

		if (blank_line(r.buf))
			continue;
		split(&fs, r.buf, sep);
		if (fs.n != 5)
			bad(&r, "%d fields, want 5 (%s)", fs.n, v100k ? "user|age|gender|occupation|zip"
			    : "UserID::Gender::Age::Occupation::Zip-code");
		id = need_i64(&r, fs.f[0], 0, INT32_MAX, "user id");
		if (smap_put(&uidx, fs.f[0], (int32_t)users.n) >= 0)
			bad(&r, "user %" PRId64 " listed twice", id);
		if (v100k) {
			age = need_i64(&r, fs.f[1], 0, 200, "age");
			b = ml_age_bucket(age);
			gender = fs.f[2];
			oc = smap_get(&occ, fs.f[3]);
			if (oc < 0)
				bad(&r, "occupation '%.40s' is not in u.occupation", fs.f[3]);
		} else {
			gender = fs.f[1];
			age = need_i64(&r, fs.f[2], 0, 200, "age");
			for (b = 0; b < ML_AGES && ml_age_codes[b] != age; b++)
				;
			if (b == ML_AGES)
				bad(&r, "age code %" PRId64 " is not one of 1 18 25 35 45 50 56", age);
			oc = need_i64(&r, fs.f[3], 0, nocc - 1, "occupation");
		}
		x = ml_row(&users, id);
		x[b] = 1;
		if (strcmp(gender, "M") == 0)
			x[ML_AGES] = 1;
		else if (strcmp(gender, "F") == 0)
			x[ML_AGES + 1] = 1;
		else
			bad(&r, "gender '%.10s' is not M or F", gender);
		x[ML_AGES + 2 + oc] = 1;
	}
	if (users.n == 0)
		die("%s: no users", r.path);
	lr_close(&r);

	/* items */
	snprintf(p, sizeof p, "%s/%s", dir, v100k ? "u.item" : "movies.dat");
	lr_open(&r, p);
	while (lr_next(&r)) {
		int64_t id, j;
		float *x;

		if (blank_line(r.buf))
			continue;
		split(&fs, r.buf, sep);
		if (v100k && fs.n != 5 + ngenre)
			bad(&r, "%d fields, want %" PRId64 " (5 + the %" PRId64 " genres of u.genre)",
			    fs.n, 5 + ngenre, ngenre);
		if (!v100k && fs.n != 3)
			bad(&r, "%d fields, want 3 (MovieID::Title::Genres)", fs.n);
		id = need_i64(&r, fs.f[0], 0, INT32_MAX, "item id");
		if (smap_put(&iidx, fs.f[0], (int32_t)items.n) >= 0)
			bad(&r, "item %" PRId64 " listed twice", id);
		x = ml_row(&items, id) + ML_AGES + 2 + nocc;
		if (v100k) {
			for (j = 0; j < ngenre; j++)
				x[j] = (float)need_i64(&r, fs.f[5 + j], 0, 1, "genre flag");
		} else {
			char *s = fs.f[2], *e;
			for (;;) {
				int32_t gi;
				e = strchr(s, '|');
				if (e != NULL)
					*e = '\0';
				gi = smap_get(&genre, s);
				if (gi < 0)
					bad(&r, "genre '%.40s' is not one of the 18 of MovieLens 1M", s);
				x[gi] = 1;
				if (e == NULL)
					break;
				s = e + 1;
			}
		}
	}
	if (items.n == 0)
		die("%s: no items", r.path);
	lr_close(&r);
	if (users.n + items.n > GS_MAX_NODES)
		die("%s: too many users and items", dir);

	/* ratings: user, item, rating [, timestamp] */
	snprintf(p, sizeof p, "%s/%s", dir, v100k ? "u.data" : triples ? "ratings.triples.dat"
		 : "ratings.dat");
	lr_open(&r, p);
	if (triples && !o->c.quiet)
		warnx_("%s/ratings.dat not found, using %s: all ratings but no timestamps "
		       "(graph-import does not use them)", dir, r.path);
	while (lr_next(&r)) {
		int32_t u, it;
		int64_t rt;

		if (blank_line(r.buf))
			continue;
		split(&fs, r.buf, v100k ? "\t" : "::");
		if (fs.n != 4 && fs.n != 3)
			bad(&r, "%d fields, want 4 (user, item, rating, timestamp) or 3", fs.n);
		u = smap_get(&uidx, fs.f[0]);
		if (u < 0)
			bad(&r, "user '%.40s' is not in the user file", fs.f[0]);
		it = smap_get(&iidx, fs.f[1]);
		if (it < 0)
			bad(&r, "item '%.40s' is not in the item file", fs.f[1]);
		rt = need_i64(&r, fs.f[2], 1, 5, "rating");
		if (fs.n == 4)
			need_i64(&r, fs.f[3], 0, INT64_MAX, "timestamp");
		rcount[rt]++;
		edge_add(&es, 0, u, (int32_t)(users.n + it), (int32_t)rt, r.line);
	}
	lr_close(&r);
	if (es.n == 0)
		die("%s: no ratings", p);
	{
		int64_t m0 = es.n, j;
		qsort(es.e, (size_t)es.n, sizeof *es.e, cmp_edge);
		for (j = 1; j < m0; j++)
			if (es.e[j].key == es.e[j - 1].key) {
				r.line = es.e[j].line;
				bad(&r, "user %" PRId64 " rated item %" PRId64 " twice (also on line %" PRId64 ")",
				    users.orig[es.e[j].key >> 32],
				    items.orig[(int64_t)(es.e[j].key & 0xffffffffu) - users.n],
				    es.e[j - 1].line);
			}
	}
	if (info[0] >= 0 && info[0] != users.n)
		die("%s/u.info: %" PRId64 " users, but the user file has %" PRId64, dir, info[0], users.n);
	if (info[1] >= 0 && info[1] != items.n)
		die("%s/u.info: %" PRId64 " items, but the item file has %" PRId64, dir, info[1], items.n);
	if (info[2] >= 0 && info[2] != es.n)
		die("%s/u.info: %" PRId64 " ratings, but %s has %" PRId64, dir, info[2], p, es.n);

	/* write */
	if (o->name != NULL)
		snprintf(dataset, sizeof dataset, "%s", o->name);
	else
		base_name(dataset, sizeof dataset, dir, sfx);
	gs_rec_init(&rec);
	{
		int64_t n = users.n + items.n, j;
		int64_t *orig = xmallocarray((size_t)n, sizeof *orig);
		int32_t *kind = xmallocarray((size_t)n, sizeof *kind);

		put_graph(&rec, 0, (int32_t)n, es.e, es.n, 1);
		gs_attr_set(&rec, "format", "movielens");
		gs_attr_set(&rec, "dataset", dataset);
		gs_attr_setf(&rec, "users", "%" PRId64, users.n);
		gs_attr_setf(&rec, "items", "%" PRId64, items.n);
		gs_attr_setf(&rec, "ratings", "%" PRId64, es.n);
		gs_attr_setf(&rec, "rating_counts", "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
			     ",%" PRId64, rcount[1], rcount[2], rcount[3], rcount[4], rcount[5]);
		gs_write1(out, &rec);
		for (j = 0; j < users.n; j++) {
			orig[j] = users.orig[j];
			kind[j] = 0;
		}
		for (j = 0; j < items.n; j++) {
			orig[users.n + j] = items.orig[j];
			kind[users.n + j] = 1;
		}
		put_i64_col(out, &rec, 0, "orig_id", orig, n);
		put_i32_col(out, &rec, 0, "kind", kind, n);
		gs_rec_tensor(&rec, 0, "attributes", n, users.cols, GS_F32, cols);
		memcpy(rec.data, users.x, (size_t)(users.n * users.cols) * sizeof(float));
		memcpy((float *)rec.data + users.n * users.cols, items.x,
		       (size_t)(items.n * items.cols) * sizeof(float));
		gs_write1(out, &rec);
		free(orig);
		free(kind);
	}
	gs_rec_free(&rec);
	smap_free(&uidx);
	smap_free(&iidx);
	smap_free(&occ);
	smap_free(&genre);
	slist_free(&occn);
	slist_free(&genren);
	free(users.orig);
	free(users.x);
	free(items.orig);
	free(items.x);
	free(es.e);
	free(fs.f);
	free(cols);
	return 0;
}

/* --------------------------------------------------------------- edgelist */

static int run_edgelist(const struct opts *o, const char *file, gs_file *out)
{
	lreader r;
	fields fs = { 0 };
	edges es = { 0 };
	int64_t maxid = -1, lines = 0, attrs = 0, bad_i, n;
	int arity = 0;
	int64_t arity_line = 0;
	gs_rec rec;

	lr_open(&r, file);
	while (lr_next(&r)) {
		int64_t a, b, lab = 0, lim = o->nodes ? o->nodes - 1 : GS_MAX_NODES - 1;

		char *dict = strchr(r.buf, '{');

		if (blank_line(r.buf) || trim(r.buf)[0] == '#')
			continue;
		/* networkx's write_edgelist: "u v {'weight': 4}" (or "{}") */
		if (dict != NULL) {
			char *end = trim(dict);
			if (end[strlen(end) - 1] != '}')
				bad(&r, "an unclosed '{' (want 'u v', 'u v label' or "
				    "networkx's 'u v {...}')");
			attrs += strspn(dict + 1, " \t}") < strlen(dict + 1);
			*dict = '\0';
		}
		split(&fs, r.buf, strchr(r.buf, ',') ? "," : " ");
		if (fs.n != 2 && fs.n != 3)
			bad(&r, "%d fields, want 'u v' or 'u v label'", fs.n);
		if (arity == 0) {
			arity = fs.n;
			arity_line = r.line;
		}
		if (fs.n != arity)
			bad(&r, "%d fields, but line %" PRId64 " had %d", fs.n, arity_line, arity);
		for (int i = 0; i < 2; i++)
			if (strspn(fs.f[i], "-0123456789") != strlen(fs.f[i]))
				bad(&r, "node '%.40s' is not an integer id: number the nodes "
				    "0..n-1 first (gnnstream(5), Plain edge lists, shows how)",
				    fs.f[i]);
		a = need_i64(&r, fs.f[0], 0, lim, "node id");
		b = need_i64(&r, fs.f[1], 0, lim, "node id");
		if (arity == 3)
			lab = need_i64(&r, fs.f[2], INT32_MIN, INT32_MAX, "label");
		if (a > maxid)
			maxid = a;
		if (b > maxid)
			maxid = b;
		lines++;
		edge_add(&es, 0, (int32_t)a, (int32_t)b, (int32_t)lab, r.line);
	}
	if (lines == 0 && o->nodes == 0)
		die("%s: no edges (give --nodes for a graph without edges)", r.path);
	bad_i = edges_finish(&es, arity == 3);
	if (bad_i >= 0) {
		r.line = es.e[bad_i].line;
		bad(&r, "edge %u %u repeated with another label", (unsigned)(es.e[bad_i].key >> 32),
		    (unsigned)(es.e[bad_i].key & 0xffffffffu));
	}
	if ((es.loops > 0 || es.dups > 0) && !o->c.quiet)
		warnx_("%s: dropped %" PRId64 " self-loop(s), merged %" PRId64 " duplicate edge(s)",
		       r.path, es.loops, es.dups);
	if (attrs > 0 && !o->c.quiet)
		warnx_("%s: ignored the attributes of %" PRId64 " edge(s) (networkx's {...} "
		       "column)", r.path, attrs);
	lr_close(&r);
	n = o->nodes ? o->nodes : maxid + 1;
	gs_rec_init(&rec);
	put_graph(&rec, 0, (int32_t)n, es.e, es.n, arity == 3);
	gs_attr_set(&rec, "format", "edgelist");
	if (o->name != NULL)
		gs_attr_set(&rec, "dataset", o->name);
	gs_attr_setf(&rec, "lines", "%" PRId64, lines);
	gs_attr_setf(&rec, "self_loops", "%" PRId64, es.loops);
	gs_attr_setf(&rec, "duplicates", "%" PRId64, es.dups);
	gs_write1(out, &rec);
	gs_rec_free(&rec);
	free(es.e);
	free(fs.f);
	return 0;
}

/* ------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		COPT_LONGOPTS,
		{ "attr-dim",     required_argument, NULL, OPT_ATTR_DIM },
		{ "attributes",   required_argument, NULL, OPT_ATTRIBUTES },
		{ "format",       required_argument, NULL, 'f' },
		{ "name",         required_argument, NULL, OPT_NAME },
		{ "nodes",        required_argument, NULL, OPT_NODES },
		{ "skip-unknown", no_argument,       NULL, OPT_SKIP_UNKNOWN },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const fnames[] = { "", "linqs", "tu", "movielens", "edgelist" };
	static const int want_lo[] = { 0, 2, 1, 1, 0 }, want_hi[] = { 0, 2, 1, 1, 1 };
	struct opts o;
	gs_file *out;
	int ch, rc = 0, nfiles, f;
	char **files;

	err_setprog(argv[0]);
	memset(&o, 0, sizeof o);
	copt_init(&o.c);
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":f:" COPT_LETTERS, longopts, NULL)) != -1) {
		switch (ch) {
		case 'f':
			o.format = FMT_NONE;
			for (f = 1; f <= FMT_EDGELIST; f++)
				if (strcmp(optarg, fnames[f]) == 0)
					o.format = f;
			if (o.format == FMT_NONE)
				die_usage("-f: unknown format '%s' (linqs, tu, movielens or edgelist)",
					  optarg);
			break;
		case 'h':
			usage(stdout);
			copt_exit_ok();
		case OPT_ATTRIBUTES:
			o.attributes = optarg;
			break;
		case OPT_ATTR_DIM:
			o.attr_dim = opt_ll(optarg, 1, 1 << 24, "--attr-dim");
			break;
		case OPT_NAME:
			if (*optarg == '\0')
				die_usage("--name: empty name");
			o.name = optarg;
			break;
		case OPT_NODES:
			o.nodes = opt_ll(optarg, 1, GS_MAX_NODES, "--nodes");
			break;
		case OPT_SKIP_UNKNOWN:
			o.skip_unknown = 1;
			break;
		default:
			if (copt_handle(&o.c, ch, optarg))
				break;
			copt_bad_option(ch, argv, SYNOPSIS);
		}
	}
	nfiles = argc - optind;
	files = argv + optind;
	if (o.format == FMT_NONE)
		die_usage("no -f FORMAT (linqs, tu, movielens or edgelist)");
	if (nfiles < want_lo[o.format] || nfiles > want_hi[o.format]) {
		static const char *const args[] = { "", "CONTENT CITES", "PREFIX", "DIR", "[FILE]" };
		die_usage("-f %s takes %s, not %d file argument%s", fnames[o.format],
			  args[o.format], nfiles, nfiles == 1 ? "" : "s");
	}
	if ((o.attributes || o.attr_dim || o.skip_unknown) && o.format != FMT_LINQS)
		die_usage("--attributes, --attr-dim and --skip-unknown are for -f linqs");
	if (o.attr_dim && !o.attributes)
		die_usage("--attr-dim needs --attributes");
	if (o.nodes && o.format != FMT_EDGELIST)
		die_usage("--nodes is for -f edgelist");
	copt_apply_threads(&o.c);
	out = gs_open_out(&o.c, argc, argv);
	switch (o.format) {
	case FMT_LINQS:
		rc = run_linqs(&o, files, out);
		break;
	case FMT_TU:
		rc = run_tu(&o, files[0], out);
		break;
	case FMT_MOVIELENS:
		rc = run_movielens(&o, files[0], out);
		break;
	case FMT_EDGELIST:
		rc = run_edgelist(&o, nfiles ? files[0] : "-", out);
		break;
	}
	gs_close(out);
	return rc;
}
