/*
 * import_movielens.c - MovieLens 100K (u.data, u.user, u.item,
 * u.occupation, u.genre, u.info) and 1M (ratings.dat or
 * ratings.triples.dat, users.dat, movies.dat) as one bipartite user-item
 * graph: users 0..U-1, items U..U+I-1, an edge per rating (its label 1..5),
 * and one-hot attributes (age group, gender, occupation; genres); see
 * import.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "import.h"

#define ML_AGES 7
#define ML_OCC_1M 21
static const char *const ml_age_cols[ML_AGES] = { "age_under18", "age_18-24", "age_25-34",
						  "age_35-44",	 "age_45-49", "age_50-55",
						  "age_56+" };
static const int ml_age_codes[ML_AGES] = { 1, 18, 25, 35, 45, 50, 56 };
static const char *const ml_genres_1m[] = { "Action",  "Adventure", "Animation",   "Children's",
					    "Comedy",  "Crime",	    "Documentary", "Drama",
					    "Fantasy", "Film-Noir", "Horror",	   "Musical",
					    "Mystery", "Romance",   "Sci-Fi",	   "Thriller",
					    "War",     "Western",   NULL };

/* Users or items: their ids and attribute rows. */
typedef struct {
	int64_t n, cap, cols;
	int64_t *orig;
	float *x; /* n x cols */
} mlrows;

/* Everything an import holds, freed at the end whatever happened. */
struct ml {
	const struct import_opts *o;
	const char *dir;
	struct lr_err err;
	lreader r;
	fields fs;
	smap uidx, iidx, occ, genre;
	slist occn, genren;
	mlrows users, items;
	edges es;
	char *cols;
	size_t clen;
	const char *sep;
	int v100k, triples;
	int64_t ngenre, nocc, rcount[6], info[3];
	char ratings[4096]; /* the ratings file's name */
};

static void
ml_free(struct ml *m)
{
	lr_close(&m->r);
	lr_fields_free(&m->fs);
	smap_free(&m->uidx);
	smap_free(&m->iidx);
	smap_free(&m->occ);
	smap_free(&m->genre);
	import_slist_free(&m->occn);
	import_slist_free(&m->genren);
	free(m->users.orig);
	free(m->users.x);
	free(m->items.orig);
	free(m->items.x);
	free(m->es.e);
	free(m->cols);
}

/* Age bucket of an ML-100K age: the ML-1M age groups. */
static int
ml_age_bucket(int64_t age)
{
	int i;

	for (i = ML_AGES - 1; i > 0; i--)
		if (age >= ml_age_codes[i])
			return i;
	return 0;
}

/* A new zeroed row for id orig. */
static float *
ml_row(mlrows *m, int64_t orig)
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
static void
cols_add(char **cols, size_t *len, const char *prefix, const char *name)
{
	size_t need = strlen(prefix) + strlen(name) + 2;
	char *p;

	*cols = xrealloc(*cols, *len + need + 1);
	p = *cols + *len;
	if (*len > 0)
		*p++ = ',', (*len)++;
	*len += (size_t)sprintf(p, "%s%s", prefix, name);
	for (; *p; p++) /* column names hold no blanks or commas */
		if (*p == ' ' || *p == ',' || *p == '=' || *p == '"')
			*p = '_';
}

/* Open DIR/name into m->r: 0; 1 if it is absent (when optional); -1. */
static int
ml_open(struct ml *m, const char *name, int required)
{
	char p[4096];

	snprintf(p, sizeof p, "%s/%s", m->dir, name);
	return required ? lr_open(&m->r, p, m->o->src, m->err)
			: lr_try(&m->r, p, m->o->src, m->err);
}

/* u.occupation and u.genre: the names, in file order */
static int
read_names_100k(struct ml *m)
{
	lreader *r = &m->r;
	int64_t x;
	int k;

	if (ml_open(m, "u.occupation", 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		char *s = lr_trim(r->buf);
		if (*s == '\0')
			continue;
		if (smap_put(&m->occ, s, m->occn.n) >= 0)
			return lr_bad(r, "occupation '%.40s' listed twice", s);
		import_slist_add(&m->occn, s);
	}
	if (k < 0)
		return -1;
	lr_close(r);
	if (ml_open(m, "u.genre", 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		if (lr_blank(r->buf))
			continue;
		lr_split(&m->fs, r->buf, "|");
		if (m->fs.n != 2)
			return lr_bad(r, "%d fields, want 'name|index'", m->fs.n);
		if (lr_need_i64(r, m->fs.f[1], 0, 1000, "genre index", &x) != 0)
			return -1;
		if (x != m->genren.n)
			return lr_bad(r, "genre index %s, want %d", m->fs.f[1], m->genren.n);
		import_slist_add(&m->genren, m->fs.f[0]);
	}
	if (k < 0)
		return -1;
	lr_close(r);
	return 0;
}

/* u.info (optional): "943 users", "1682 items", "100000 ratings" */
static int
read_info_100k(struct ml *m)
{
	static const char *const what[3] = { "users", "items", "ratings" };
	lreader *r = &m->r;
	int k;

	if ((k = ml_open(m, "u.info", 0)) != 0)
		return k < 0 ? -1 : 0;
	while ((k = lr_next(r)) > 0) {
		if (lr_split(&m->fs, r->buf, " ") == 0)
			continue;
		for (int j = 0; j < 3; j++)
			if (m->fs.n == 2 && strcmp(m->fs.f[1], what[j]) == 0 &&
			    lr_need_i64(r, m->fs.f[0], 0, INT32_MAX, what[j], &m->info[j]) != 0)
				return -1;
	}
	if (k < 0)
		return -1;
	lr_close(r);
	return 0;
}

/* ---- which version: names, genres, occupations, the column list ---- */
static int
read_version(struct ml *m)
{
	int k;

	if ((k = ml_open(m, "u.data", 0)) < 0)
		return -1;
	m->v100k = k == 0;
	lr_close(&m->r);
	if (m->v100k) {
		m->sep = "|";
		if (read_names_100k(m) != 0)
			return -1;
		m->nocc = m->occn.n;
		m->ngenre = m->genren.n;
		if (m->nocc == 0 || m->ngenre == 0)
			return lr_fail(m->err, "%s/u.occupation or u.genre: empty", m->dir);
		if (read_info_100k(m) != 0)
			return -1;
	} else {
		if ((k = ml_open(m, "ratings.dat", 0)) == 1) {
			if ((k = ml_open(m, "ratings.triples.dat", 0)) == 1)
				return lr_fail(m->err,
					       "%s: no u.data (MovieLens 100K) or ratings.dat "
					       "(MovieLens 1M): not a MovieLens directory",
					       m->dir);
			m->triples = 1;
		}
		if (k < 0)
			return -1;
		lr_close(&m->r);
		m->sep = "::";
		m->nocc = ML_OCC_1M;
		for (m->ngenre = 0; ml_genres_1m[m->ngenre] != NULL; m->ngenre++) {
			smap_put(&m->genre, ml_genres_1m[m->ngenre], (int32_t)m->ngenre);
			import_slist_add(&m->genren, ml_genres_1m[m->ngenre]);
		}
		for (int64_t i = 0; i < m->nocc; i++) {
			char b[24];
			snprintf(b, sizeof b, "%" PRId64, i);
			import_slist_add(&m->occn, b);
		}
	}
	m->users.cols = m->items.cols = ML_AGES + 2 + m->nocc + m->ngenre;
	for (int i = 0; i < ML_AGES; i++)
		cols_add(&m->cols, &m->clen, "", ml_age_cols[i]);
	cols_add(&m->cols, &m->clen, "gender_", "M");
	cols_add(&m->cols, &m->clen, "gender_", "F");
	for (int64_t i = 0; i < m->nocc; i++)
		cols_add(&m->cols, &m->clen, "occ_", m->occn.s[i]);
	for (int64_t i = 0; i < m->ngenre; i++)
		cols_add(&m->cols, &m->clen, "genre_", m->genren.s[i]);
	return 0;
}

/* One user line, split in m->fs. */
static int
read_user(struct ml *m)
{
	lreader *r = &m->r;
	int64_t id, age, oc;
	const char *gender;
	float *x;
	int b;

	if (m->fs.n != 5)
		return lr_bad(r, "%d fields, want 5 (%s)", m->fs.n,
			      m->v100k ? "user|age|gender|occupation|zip"
				       : "UserID::Gender::Age::Occupation::Zip-code");
	if (lr_need_i64(r, m->fs.f[0], 0, INT32_MAX, "user id", &id) != 0)
		return -1;
	if (smap_put(&m->uidx, m->fs.f[0], (int32_t)m->users.n) >= 0)
		return lr_bad(r, "user %" PRId64 " listed twice", id);
	if (m->v100k) {
		if (lr_need_i64(r, m->fs.f[1], 0, 200, "age", &age) != 0)
			return -1;
		b = ml_age_bucket(age);
		gender = m->fs.f[2];
		oc = smap_get(&m->occ, m->fs.f[3]);
		if (oc < 0)
			return lr_bad(r, "occupation '%.40s' is not in u.occupation", m->fs.f[3]);
	} else {
		gender = m->fs.f[1];
		if (lr_need_i64(r, m->fs.f[2], 0, 200, "age", &age) != 0)
			return -1;
		for (b = 0; b < ML_AGES && ml_age_codes[b] != age; b++)
			;
		if (b == ML_AGES)
			return lr_bad(r, "age code %" PRId64 " is not one of 1 18 25 35 45 50 56",
				      age);
		if (lr_need_i64(r, m->fs.f[3], 0, m->nocc - 1, "occupation", &oc) != 0)
			return -1;
	}
	x = ml_row(&m->users, id);
	x[b] = 1;
	if (strcmp(gender, "M") == 0)
		x[ML_AGES] = 1;
	else if (strcmp(gender, "F") == 0)
		x[ML_AGES + 1] = 1;
	else
		return lr_bad(r, "gender '%.10s' is not M or F", gender);
	x[ML_AGES + 2 + oc] = 1;
	return 0;
}

/* An item's genres: 100K's flags, 1M's "A|B|C". */
static int
item_genres(struct ml *m, float *x)
{
	lreader *r = &m->r;
	int64_t flag;

	if (m->v100k) {
		for (int64_t j = 0; j < m->ngenre; j++) {
			if (lr_need_i64(r, m->fs.f[5 + j], 0, 1, "genre flag", &flag) != 0)
				return -1;
			x[j] = (float)flag;
		}
		return 0;
	}
	for (char *s = m->fs.f[2], *e;; s = e + 1) {
		int32_t gi;
		e = strchr(s, '|');
		if (e != NULL)
			*e = '\0';
		gi = smap_get(&m->genre, s);
		if (gi < 0)
			return lr_bad(r, "genre '%.40s' is not one of the 18 of MovieLens 1M", s);
		x[gi] = 1;
		if (e == NULL)
			return 0;
	}
}

/* One item line, split in m->fs. */
static int
read_item(struct ml *m)
{
	lreader *r = &m->r;
	int64_t id;

	if (m->v100k && m->fs.n != 5 + m->ngenre)
		return lr_bad(r,
			      "%d fields, want %" PRId64 " (5 + the %" PRId64 " genres of "
			      "u.genre)",
			      m->fs.n, 5 + m->ngenre, m->ngenre);
	if (!m->v100k && m->fs.n != 3)
		return lr_bad(r, "%d fields, want 3 (MovieID::Title::Genres)", m->fs.n);
	if (lr_need_i64(r, m->fs.f[0], 0, INT32_MAX, "item id", &id) != 0)
		return -1;
	if (smap_put(&m->iidx, m->fs.f[0], (int32_t)m->items.n) >= 0)
		return lr_bad(r, "item %" PRId64 " listed twice", id);
	return item_genres(m, ml_row(&m->items, id) + ML_AGES + 2 + m->nocc);
}

/* ---- users, then items: one line each, through read1 ---- */
static int
read_rows(struct ml *m, const char *name, int (*read1)(struct ml *), const mlrows *rows,
	  const char *none)
{
	lreader *r = &m->r;
	int k;

	if (ml_open(m, name, 1) != 0)
		return -1;
	while ((k = lr_next(r)) > 0) {
		if (lr_blank(r->buf))
			continue;
		lr_split(&m->fs, r->buf, m->sep);
		if (read1(m) != 0)
			return -1;
	}
	if (k < 0)
		return -1;
	if (rows->n == 0)
		return lr_fail(m->err, "%s: %s", r->path, none);
	lr_close(r);
	return 0;
}

/* One rating "user, item, rating [, timestamp]". */
static int
read_rating(struct ml *m)
{
	lreader *r = &m->r;
	int32_t u, it;
	int64_t rt, ts;

	lr_split(&m->fs, r->buf, m->v100k ? "\t" : "::");
	if (m->fs.n != 4 && m->fs.n != 3)
		return lr_bad(r, "%d fields, want 4 (user, item, rating, timestamp) or 3", m->fs.n);
	u = smap_get(&m->uidx, m->fs.f[0]);
	if (u < 0)
		return lr_bad(r, "user '%.40s' is not in the user file", m->fs.f[0]);
	it = smap_get(&m->iidx, m->fs.f[1]);
	if (it < 0)
		return lr_bad(r, "item '%.40s' is not in the item file", m->fs.f[1]);
	if (lr_need_i64(r, m->fs.f[2], 1, 5, "rating", &rt) != 0 ||
	    (m->fs.n == 4 && lr_need_i64(r, m->fs.f[3], 0, INT64_MAX, "timestamp", &ts) != 0))
		return -1;
	m->rcount[rt]++;
	import_edge_add(&m->es, 0, u, (int32_t)(m->users.n + it), (int32_t)rt, r->line);
	return 0;
}

/* A user who rated an item twice: an error. */
static int
check_repeats(struct ml *m)
{
	edges *es = &m->es;

	qsort(es->e, (size_t)es->n, sizeof *es->e, import_edge_cmp);
	for (int64_t j = 1; j < es->n; j++)
		if (es->e[j].key == es->e[j - 1].key) {
			m->r.line = es->e[j].line;
			return lr_bad(
			    &m->r,
			    "user %" PRId64 " rated item %" PRId64 " twice (also on "
			    "line %" PRId64 ")",
			    m->users.orig[es->e[j].key >> 32],
			    m->items.orig[(int64_t)(es->e[j].key & 0xffffffffu) - m->users.n],
			    es->e[j - 1].line);
		}
	return 0;
}

/* ---- ratings: user, item, rating [, timestamp] ---- */
static int
read_ratings(struct ml *m)
{
	lreader *r = &m->r;
	int k;

	snprintf(m->ratings, sizeof m->ratings, "%s/%s", m->dir,
		 m->v100k     ? "u.data"
		 : m->triples ? "ratings.triples.dat"
			      : "ratings.dat");
	if (lr_open(r, m->ratings, m->o->src, m->err) != 0)
		return -1;
	if (m->triples && !m->o->quiet)
		warnx_("%s/ratings.dat not found, using %s: all ratings but no timestamps "
		       "(graph-import does not use them)",
		       m->dir, r->path);
	while ((k = lr_next(r)) > 0)
		if (!lr_blank(r->buf) && read_rating(m) != 0)
			return -1;
	if (k < 0)
		return -1;
	lr_close(r);
	if (m->es.n == 0)
		return lr_fail(m->err, "%s: no ratings", m->ratings);
	return check_repeats(m);
}

/* u.info's counts against the files' */
static int
check_info(struct ml *m)
{
	const char *d = m->dir;

	if (m->info[0] >= 0 && m->info[0] != m->users.n)
		return lr_fail(m->err,
			       "%s/u.info: %" PRId64 " users, but the user file has %" PRId64, d,
			       m->info[0], m->users.n);
	if (m->info[1] >= 0 && m->info[1] != m->items.n)
		return lr_fail(m->err,
			       "%s/u.info: %" PRId64 " items, but the item file has %" PRId64, d,
			       m->info[1], m->items.n);
	if (m->info[2] >= 0 && m->info[2] != m->es.n)
		return lr_fail(m->err, "%s/u.info: %" PRId64 " ratings, but %s has %" PRId64, d,
			       m->info[2], m->ratings, m->es.n);
	return 0;
}

/* ---- write: the graph, orig_id, kind, attributes ---- */
static void
write_movielens(struct ml *m, gs_file *out)
{
	static const char *const sfx[] = { NULL };
	const mlrows *U = &m->users, *I = &m->items;
	int64_t n = U->n + I->n, j;
	int64_t *orig = xmallocarray((size_t)n, sizeof *orig);
	int32_t *kind = xmallocarray((size_t)n, sizeof *kind);
	int64_t *rc = m->rcount;
	char dataset[256];
	gs_rec rec;

	import_dataset(dataset, sizeof dataset, m->o, m->dir, sfx);
	gs_rec_init(&rec);
	import_put_graph(&rec, 0, (int32_t)n, m->es.e, m->es.n, 1);
	gs_attr_set(&rec, "format", "movielens");
	gs_attr_set(&rec, "dataset", dataset);
	gs_attr_setf(&rec, "users", "%" PRId64, U->n);
	gs_attr_setf(&rec, "items", "%" PRId64, I->n);
	gs_attr_setf(&rec, "ratings", "%" PRId64, m->es.n);
	gs_attr_setf(&rec, "rating_counts",
		     "%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64, rc[1], rc[2],
		     rc[3], rc[4], rc[5]);
	gs_write1(out, &rec);
	for (j = 0; j < U->n; j++) {
		orig[j] = U->orig[j];
		kind[j] = 0;
	}
	for (j = 0; j < I->n; j++) {
		orig[U->n + j] = I->orig[j];
		kind[U->n + j] = 1;
	}
	import_put_i64_col(out, &rec, 0, "orig_id", orig, n);
	import_put_i32_col(out, &rec, 0, "kind", kind, n);
	gs_rec_tensor(&rec, 0, "attributes", n, U->cols, GS_F32, m->cols);
	memcpy(rec.data, U->x, (size_t)(U->n * U->cols) * sizeof(float));
	memcpy((float *)rec.data + U->n * U->cols, I->x, (size_t)(I->n * I->cols) * sizeof(float));
	gs_write1(out, &rec);
	free(orig);
	free(kind);
	gs_rec_free(&rec);
}

int
import_movielens(const struct import_opts *o, const char *dir, gs_file *out, char *msg,
		 size_t msglen)
{
	struct ml m;
	int rc;

	memset(&m, 0, sizeof m);
	m.o = o;
	m.dir = dir;
	m.err = (struct lr_err){ msg, msglen };
	m.info[0] = m.info[1] = m.info[2] = -1;
	rc = read_version(&m);
	if (rc == 0)
		rc = read_rows(&m, m.v100k ? "u.user" : "users.dat", read_user, &m.users,
			       "no users");
	if (rc == 0)
		rc = read_rows(&m, m.v100k ? "u.item" : "movies.dat", read_item, &m.items,
			       "no items");
	if (rc == 0 && m.users.n + m.items.n > GS_MAX_NODES)
		rc = lr_fail(m.err, "%s: too many users and items", dir);
	if (rc == 0)
		rc = read_ratings(&m);
	if (rc == 0)
		rc = check_info(&m);
	if (rc == 0)
		write_movielens(&m, out);
	ml_free(&m);
	return rc;
}
