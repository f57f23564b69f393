/* motif.c - motif benchmark graphs: shapes, options, the generator; see motif.h. */
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "gen.h"
#include "graph.h"
#include "motif.h"
#include "rng.h"
#include "stream.h"

/* Classes in one graph: class_names= must stay a short header attribute. */
#define MOTIF_MAX_CLASSES 1000

static const struct kind {
	const char *name;
	int32_t min; /* smallest size; 0 = the kind takes none */
} kinds[MOTIF_KINDS] = {
	[MOTIF_HOUSE] = { "house", 0 },	  [MOTIF_HOUSE_X] = { "house-x", 0 },
	[MOTIF_CYCLE] = { "cycle", 3 },	  [MOTIF_STAR] = { "star", 2 },
	[MOTIF_FAN] = { "fan", 4 },	  [MOTIF_GRID] = { "grid", 2 },
	[MOTIF_CLIQUE] = { "clique", 3 },
};

/* ------------------------------------------------------------------ */
/* shapes */

void
motif_shape_init(motif_shape *s)
{
	memset(s, 0, sizeof *s);
}

void
motif_shape_free(motif_shape *s)
{
	if (s == NULL)
		return;
	free(s->u);
	free(s->v);
	free(s->role);
	motif_shape_init(s);
}

/* Nodes, edges and roles of a kind of size k (valid k). */
static void
shape_counts(int kind, int64_t k, int64_t *n, int64_t *m, int *nroles)
{
	int64_t h = (k + 1) / 2;

	switch (kind) {
	case MOTIF_HOUSE:
		*n = 5;
		*m = 6;
		*nroles = 3;
		break;
	case MOTIF_HOUSE_X:
		*n = 5;
		*m = 8;
		*nroles = 3;
		break;
	case MOTIF_CYCLE:
		*n = k;
		*m = k;
		*nroles = 1;
		break;
	case MOTIF_STAR:
		*n = k + 1;
		*m = k;
		*nroles = 2;
		break;
	case MOTIF_FAN:
		*n = k + 1;
		*m = 2 * k - 1;
		*nroles = (int)(1 + h);
		break;
	case MOTIF_GRID:
		*n = k * k;
		*m = 2 * k * (k - 1);
		*nroles = (int)(h * (h + 1) / 2);
		break;
	default:
		*n = k;
		*m = k * (k - 1) / 2;
		*nroles = 1;
		break; /* clique */
	}
}

static void
shape_edge(motif_shape *s, int32_t a, int32_t b)
{
	s->u[s->m] = a < b ? a : b;
	s->v[s->m] = a < b ? b : a;
	s->m++;
}

/* The role of grid node (i, j) of side k: (a, b) in lexicographic order. */
static int
grid_role(int32_t k, int32_t i, int32_t j)
{
	int32_t h = (k + 1) / 2, a = i < k - 1 - i ? i : k - 1 - i;
	int32_t b = j < k - 1 - j ? j : k - 1 - j, t;

	if (a > b) {
		t = a;
		a = b;
		b = t;
	}
	/* rows a' < a hold h - a' pairs each */
	return (int)(a * h - a * (a - 1) / 2 + (b - a));
}

static void
shape_edges(motif_shape *s, int kind, int32_t k)
{
	int32_t i, j;

	switch (kind) {
	case MOTIF_HOUSE:
	case MOTIF_HOUSE_X:
		shape_edge(s, 0, 1);
		shape_edge(s, 1, 2);
		shape_edge(s, 2, 3);
		shape_edge(s, 3, 0);
		shape_edge(s, 4, 0);
		shape_edge(s, 4, 1);
		if (kind == MOTIF_HOUSE_X) {
			shape_edge(s, 0, 2);
			shape_edge(s, 1, 3);
		}
		break;
	case MOTIF_CYCLE:
		for (i = 0; i < k; i++)
			shape_edge(s, i, (i + 1) % k);
		break;
	case MOTIF_STAR:
		for (i = 1; i <= k; i++)
			shape_edge(s, 0, i);
		break;
	case MOTIF_FAN:
		for (i = 1; i <= k; i++)
			shape_edge(s, 0, i);
		for (i = 1; i < k; i++)
			shape_edge(s, i, i + 1);
		break;
	case MOTIF_GRID:
		for (i = 0; i < k; i++)
			for (j = 0; j < k; j++) {
				if (j + 1 < k)
					shape_edge(s, i * k + j, i * k + j + 1);
				if (i + 1 < k)
					shape_edge(s, i * k + j, (i + 1) * k + j);
			}
		break;
	default: /* clique */
		for (i = 0; i < k; i++)
			for (j = i + 1; j < k; j++)
				shape_edge(s, i, j);
	}
}

static void
shape_roles(motif_shape *s, int kind, int32_t k)
{
	static const int house[5] = { 1, 1, 2, 2, 0 };
	int32_t i;

	for (i = 0; i < s->n; i++) {
		switch (kind) {
		case MOTIF_HOUSE:
		case MOTIF_HOUSE_X:
			s->role[i] = house[i];
			break;
		case MOTIF_STAR:
			s->role[i] = i > 0;
			break;
		case MOTIF_FAN: /* blade i is min(i-1, k-i) steps from an end */
			s->role[i] = i == 0 ? 0 : 1 + (i - 1 < k - i ? i - 1 : k - i);
			break;
		case MOTIF_GRID:
			s->role[i] = grid_role(k, i / k, i % k);
			break;
		default:
			s->role[i] = 0;
		}
	}
}

int
motif_shape_make(motif_shape *s, int kind, int32_t size, char *msg, size_t msglen)
{
	int64_t n, m;
	int nroles;

	if (kind < 0 || kind >= MOTIF_KINDS) {
		snprintf(msg, msglen, "unknown motif kind %d", kind);
		return -1;
	}
	if (kinds[kind].min > 0 && (size < kinds[kind].min || size > MOTIF_MAX_SIZE)) {
		snprintf(msg, msglen, "the size of %s is %d to %d", kinds[kind].name,
			 (int)kinds[kind].min, MOTIF_MAX_SIZE);
		return -1;
	}
	shape_counts(kind, size, &n, &m, &nroles);
	if ((size_t)n > s->cap_n) {
		s->cap_n = (size_t)n;
		s->role = xreallocarray(s->role, s->cap_n, sizeof *s->role);
	}
	if ((size_t)m > s->cap_m) {
		s->cap_m = (size_t)m;
		s->u = xreallocarray(s->u, s->cap_m, sizeof *s->u);
		s->v = xreallocarray(s->v, s->cap_m, sizeof *s->v);
	}
	s->n = (int32_t)n;
	s->m = 0;
	s->nroles = nroles;
	s->anchor = 0;
	shape_edges(s, kind, size);
	shape_roles(s, kind, size);
	return 0;
}

char *
motif_role_name(int kind, int32_t size, int role, char *buf, size_t len)
{
	static const char *const house[3] = { "top", "middle", "bottom" };
	int32_t h = (size + 1) / 2, a, b;

	switch (kind) {
	case MOTIF_HOUSE:
	case MOTIF_HOUSE_X:
		snprintf(buf, len, "%s", house[role]);
		break;
	case MOTIF_STAR:
		snprintf(buf, len, "%s", role == 0 ? "centre" : "leaf");
		break;
	case MOTIF_FAN:
		if (role == 0)
			snprintf(buf, len, "centre");
		else
			snprintf(buf, len, "blade%d", role - 1);
		break;
	case MOTIF_GRID:
		for (a = 0; a < h; a++)
			for (b = a; b < h; b++)
				if (grid_role(size, a, b) == role)
					snprintf(buf, len, "%d_%d", (int)a, (int)b);
		break;
	default:
		snprintf(buf, len, "node");
	}
	return buf;
}

/* ------------------------------------------------------------------ */
/* specs and presets */

/* A non-negative decimal integer of at most 18 digits at s[0..len). */
static int
parse_count(const char *s, size_t len, int64_t *x)
{
	size_t i;

	if (len == 0 || len > 18)
		return -1;
	*x = 0;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*x = 10 * *x + (s[i] - '0');
	}
	return 0;
}

int
motif_spec_parse(const char *text, struct motif_spec *sp, char *msg, size_t msglen)
{
	size_t nl = strspn(text, "abcdefghijklmnopqrstuvwxyz-"), dl, cl;
	const char *colon = strchr(text, ':');
	int64_t size = 0, count = 1;
	int k;

	for (k = 0; k < MOTIF_KINDS; k++)
		if (strlen(kinds[k].name) == nl && strncmp(text, kinds[k].name, nl) == 0)
			break;
	if (k == MOTIF_KINDS) {
		snprintf(msg, msglen,
			 "'%s': unknown motif (expected house, house-x, cycle, "
			 "star, fan, grid or clique, as in star6:8)",
			 text);
		return -1;
	}
	dl = (colon ? (size_t)(colon - text) : strlen(text)) - nl;
	if (dl > 0 && parse_count(text + nl, dl, &size) != 0) {
		snprintf(msg, msglen, "'%s': expected KIND[SIZE][:COUNT], as in star6:8", text);
		return -1;
	}
	if (kinds[k].min == 0 && dl > 0) {
		snprintf(msg, msglen, "'%s': %s takes no size", text, kinds[k].name);
		return -1;
	}
	if (kinds[k].min > 0 && dl == 0) {
		snprintf(msg, msglen, "'%s': %s needs a size, as in %s%d", text, kinds[k].name,
			 kinds[k].name, (int)(kinds[k].min > 6 ? kinds[k].min : 6));
		return -1;
	}
	if (kinds[k].min > 0 && (size < kinds[k].min || size > MOTIF_MAX_SIZE)) {
		snprintf(msg, msglen, "'%s': the size of %s is %d to %d", text, kinds[k].name,
			 (int)kinds[k].min, MOTIF_MAX_SIZE);
		return -1;
	}
	if (colon) {
		cl = strlen(colon + 1);
		if (parse_count(colon + 1, cl, &count) != 0 || count < 1 || count > GS_MAX_NODES) {
			snprintf(msg, msglen,
				 "'%s': the count after ':' must be an integer "
				 "from 1 to %lld",
				 text, (long long)GS_MAX_NODES);
			return -1;
		}
	}
	sp->kind = k;
	sp->size = (int32_t)size;
	sp->count = count;
	return 0;
}

char *
motif_spec_name(const struct motif_spec *sp, char *buf, size_t len)
{
	if (kinds[sp->kind].min > 0)
		snprintf(buf, len, "%s%d", kinds[sp->kind].name, (int)sp->size);
	else
		snprintf(buf, len, "%s", kinds[sp->kind].name);
	return buf;
}

char *
motif_spec_list(const struct motif_opts *o)
{
	size_t cap = (size_t)o->nspec * 48 + 1, at = 0;
	char *s = xmalloc(cap), name[32];
	int i;

	s[0] = '\0';
	for (i = 0; i < o->nspec; i++)
		at += (size_t)snprintf(s + at, cap - at, "%s%s:%lld", i ? "," : "",
				       motif_spec_name(&o->spec[i], name, sizeof name),
				       (long long)o->spec[i].count);
	return s;
}

const char *const motif_preset_names[] = { "ba-shapes", "cycle-varied", "tree-cycles", "tree-grid",
					   NULL };

static void
preset_base(struct motif_opts *o, int base, int32_t nodes, int attach, double add)
{
	memset(o, 0, sizeof *o);
	o->base = base;
	o->base_nodes = nodes;
	o->ba_m = 5;
	o->branching = 2;
	o->attach = attach;
	o->add_edges = add;
	o->remove_edges = 0;
}

static void
preset_spec(struct motif_opts *o, int kind, int32_t size, int64_t count)
{
	o->spec[o->nspec].kind = kind;
	o->spec[o->nspec].size = size;
	o->spec[o->nspec].count = count;
	o->nspec++;
}

int
motif_preset(const char *name, struct motif_opts *o)
{
	if (strcmp(name, "ba-shapes") == 0) {
		preset_base(o, MOTIF_BASE_BA, 300, MOTIF_ATTACH_UNIFORM, 0.1);
		preset_spec(o, MOTIF_HOUSE, 0, 80);
	} else if (strcmp(name, "cycle-varied") == 0) {
		preset_base(o, MOTIF_BASE_CYCLE, 40, MOTIF_ATTACH_SPREAD, 0);
		preset_spec(o, MOTIF_FAN, 6, 8);
		preset_spec(o, MOTIF_STAR, 6, 8);
		preset_spec(o, MOTIF_HOUSE_X, 0, 8);
	} else if (strcmp(name, "tree-cycles") == 0) {
		preset_base(o, MOTIF_BASE_TREE, 511, MOTIF_ATTACH_UNIFORM, 0);
		preset_spec(o, MOTIF_CYCLE, 6, 60);
	} else if (strcmp(name, "tree-grid") == 0) {
		preset_base(o, MOTIF_BASE_TREE, 511, MOTIF_ATTACH_UNIFORM, 0);
		preset_spec(o, MOTIF_GRID, 3, 80);
	} else {
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* sizes and checks */

static int64_t
base_edges(const struct motif_opts *o)
{
	int64_t b = o->base_nodes;

	switch (o->base) {
	case MOTIF_BASE_BA:
		return (int64_t)o->ba_m * (b - o->ba_m);
	case MOTIF_BASE_CYCLE:
		return b;
	default:
		return b > 0 ? b - 1 : 0;
	}
}

/* floor(x + 0.5), capped far above any limit so that it stays an int64 */
static int64_t
round_count(double x)
{
	x = floor(x + 0.5);
	return x < 4e18 ? (int64_t)x : (int64_t)4e18;
}

void
motif_sizes(const struct motif_opts *o, struct motif_sizes *sz)
{
	int64_t n, m;
	int nroles, i;

	memset(sz, 0, sizeof *sz);
	sz->nodes = o->base_nodes;
	sz->base_edges = sz->clean_edges = base_edges(o);
	sz->classes = 1;
	for (i = 0; i < o->nspec; i++) {
		shape_counts(o->spec[i].kind, o->spec[i].size, &n, &m, &nroles);
		sz->motifs += o->spec[i].count;
		sz->nodes += o->spec[i].count * n;
		sz->clean_edges += o->spec[i].count * (m + 1);
		sz->classes += nroles;
	}
	sz->removed = round_count(o->remove_edges * (double)sz->clean_edges);
	sz->added = round_count(o->add_edges * (double)sz->clean_edges);
	sz->edges = sz->clean_edges - sz->removed + sz->added;
}

/* The per-field checks of motif_opts_check. */
static int
check_fields(const struct motif_opts *o, char *msg, size_t msglen)
{
	int i, j;

	if (o->base_nodes < 1 || o->base_nodes > GS_MAX_NODES)
		return snprintf(msg, msglen, "--base-nodes: %d is out of range 1..%lld",
				(int)o->base_nodes, (long long)GS_MAX_NODES),
		       -1;
	if (o->base == MOTIF_BASE_CYCLE && o->base_nodes < 3)
		return snprintf(msg, msglen,
				"--base-nodes: a cycle needs at least 3 nodes, "
				"not %d",
				(int)o->base_nodes),
		       -1;
	if (o->base == MOTIF_BASE_BA && (o->ba_m < 1 || o->ba_m >= o->base_nodes))
		return snprintf(msg, msglen,
				"--ba-m: %d must be at least 1 and below "
				"--base-nodes %d",
				(int)o->ba_m, (int)o->base_nodes),
		       -1;
	if (o->base == MOTIF_BASE_TREE && (o->branching < 1 || o->branching > GS_MAX_NODES))
		return snprintf(msg, msglen, "--branching: %d is out of range", (int)o->branching),
		       -1;
	if (!(o->add_edges >= 0 && o->add_edges <= MOTIF_MAX_ADD) ||
	    !(o->remove_edges >= 0 && o->remove_edges <= 1))
		return snprintf(msg, msglen, "noise out of range"), -1;
	if (o->nspec < 1 || o->nspec > MOTIF_MAX_SPECS)
		return snprintf(msg, msglen, "--motif: give 1 to %d motifs", MOTIF_MAX_SPECS), -1;
	for (i = 0; i < o->nspec; i++)
		for (j = 0; j < i; j++)
			if (o->spec[i].kind == o->spec[j].kind &&
			    o->spec[i].size == o->spec[j].size) {
				char name[32];
				return snprintf(msg, msglen,
						"--motif: %s given twice (give one "
						"count)",
						motif_spec_name(&o->spec[i], name, sizeof name)),
				       -1;
			}
	return 0;
}

int
motif_opts_check(const struct motif_opts *o, char *msg, size_t msglen)
{
	struct motif_sizes sz;
	double pairs;

	if (check_fields(o, msg, msglen) != 0)
		return -1;
	motif_sizes(o, &sz);
	if (o->attach == MOTIF_ATTACH_UNIFORM && sz.motifs > o->base_nodes)
		return snprintf(msg, msglen,
				"--attach uniform: %lld motifs but %d base nodes "
				"(each base node takes at most one; --attach spread shares them)",
				(long long)sz.motifs, (int)o->base_nodes),
		       -1;
	if (sz.nodes > GS_MAX_NODES)
		return snprintf(msg, msglen, "%lld nodes exceed the limit %lld",
				(long long)sz.nodes, (long long)GS_MAX_NODES),
		       -1;
	if (sz.classes > MOTIF_MAX_CLASSES)
		return snprintf(msg, msglen,
				"--motif: %d classes exceed the limit %d (a large grid "
				"or fan has many roles)",
				sz.classes, MOTIF_MAX_CLASSES),
		       -1;
	if (sz.clean_edges + sz.added > GS_MAX_EDGES)
		return snprintf(msg, msglen, "%lld edges exceed the limit %lld",
				(long long)(sz.clean_edges + sz.added), (long long)GS_MAX_EDGES),
		       -1;
	pairs = (double)sz.nodes * (double)(sz.nodes - 1) / 2;
	if ((double)sz.added > pairs - (double)sz.clean_edges)
		return snprintf(msg, msglen,
				"--add-edges: %lld edges to add, but only %.0f node "
				"pairs are not edges",
				(long long)sz.added, pairs - (double)sz.clean_edges),
		       -1;
	return 0;
}

char *
motif_class_names(const struct motif_opts *o)
{
	struct motif_sizes sz;
	size_t cap, at;
	char *s, name[32], role[32];
	int i, r;

	motif_sizes(o, &sz);
	cap = 5 + (size_t)sz.classes * 64;
	s = xmalloc(cap);
	at = (size_t)snprintf(s, cap, "base");
	for (i = 0; i < o->nspec; i++) {
		const struct motif_spec *sp = &o->spec[i];
		int64_t n, m;
		int nroles;

		shape_counts(sp->kind, sp->size, &n, &m, &nroles);
		motif_spec_name(sp, name, sizeof name);
		for (r = 0; r < nroles; r++)
			at += (size_t)snprintf(
			    s + at, cap - at, ",%s_%s", name,
			    motif_role_name(sp->kind, sp->size, r, role, sizeof role));
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* the generator */

/* A motif_graph's private work arrays, reused from graph to graph. */
struct mwork {
	motif_shape shape; /* the spec being placed */
	int32_t *plug;	   /* (M) the base node of motif i */
	int32_t *perm;	   /* uniform: (B) a partial shuffle of the base */
	int32_t *rep;	   /* ba: (2 base edges) every edge end, as drawn */
	int32_t *mark;	   /* ba: (B) the last new node that drew the node */
	int32_t *eu, *ev;  /* (m0 + added) the edges as made */
	uint64_t *set;	   /* added edges: hash set of every edge key */
	graph csr;
	gsl_rng *r;
	size_t cap_plug, cap_perm, cap_rep, cap_mark, cap_eu, cap_ev, cap_set;
	size_t cap_label, cap_motif, cap_u, cap_v; /* of the motif_graph's arrays */
};

void
motif_graph_init(motif_graph *g)
{
	memset(g, 0, sizeof *g);
}

void
motif_graph_free(motif_graph *g)
{
	struct mwork *w;

	if (g == NULL)
		return;
	w = g->priv;
	if (w != NULL) {
		motif_shape_free(&w->shape);
		free(w->plug);
		free(w->perm);
		free(w->rep);
		free(w->mark);
		free(w->eu);
		free(w->ev);
		free(w->set);
		graph_free(&w->csr);
		if (w->r)
			gsl_rng_free(w->r);
		free(w);
	}
	free(g->u);
	free(g->v);
	free(g->label);
	free(g->motif);
	motif_graph_init(g);
}

/* p grown to at least want elements of size bytes (cap in elements). */
static void *
grow(void *p, size_t *cap, int64_t want, size_t size)
{
	if ((size_t)want > *cap) {
		*cap = (size_t)want;
		p = xreallocarray(p, *cap, size);
	}
	return p;
}

/* Size every array of g and its work for the sizes sz. */
static struct mwork *
reserve(motif_graph *g, const struct motif_opts *o, const struct motif_sizes *sz)
{
	struct mwork *w = g->priv;

	if (w == NULL) {
		w = g->priv = xcalloc(1, sizeof *w);
		motif_shape_init(&w->shape);
		graph_init(&w->csr);
		w->r = gsl_rng_alloc(gsl_rng_mt19937);
		if (w->r == NULL)
			die("out of memory (random generator)");
	}
	g->label = grow(g->label, &w->cap_label, sz->nodes, sizeof *g->label);
	g->motif = grow(g->motif, &w->cap_motif, sz->nodes, sizeof *g->motif);
	g->u = grow(g->u, &w->cap_u, sz->edges, sizeof *g->u);
	g->v = grow(g->v, &w->cap_v, sz->edges, sizeof *g->v);
	w->plug = grow(w->plug, &w->cap_plug, sz->motifs, sizeof *w->plug);
	if (o->attach == MOTIF_ATTACH_UNIFORM)
		w->perm = grow(w->perm, &w->cap_perm, o->base_nodes, sizeof *w->perm);
	if (o->base == MOTIF_BASE_BA) {
		w->rep = grow(w->rep, &w->cap_rep, 2 * sz->base_edges, sizeof *w->rep);
		w->mark = grow(w->mark, &w->cap_mark, o->base_nodes, sizeof *w->mark);
	}
	w->eu = grow(w->eu, &w->cap_eu, sz->clean_edges + sz->added, sizeof *w->eu);
	w->ev = grow(w->ev, &w->cap_ev, sz->clean_edges + sz->added, sizeof *w->ev);
	return w;
}

static int64_t
base_graph(const struct motif_opts *o, struct mwork *w)
{
	int32_t B = o->base_nodes, i;
	int64_t m = 0;

	switch (o->base) {
	case MOTIF_BASE_BA:
		return gen_ba(w->r, B, o->ba_m, w->eu, w->ev, w->rep, w->mark);
	case MOTIF_BASE_CYCLE:
		for (i = 0; i < B; i++) {
			w->eu[m] = i;
			w->ev[m++] = (i + 1) % B;
		}
		return m;
	default: /* tree: node i > 0 hangs from (i-1) / branching */
		for (i = 1; i < B; i++) {
			w->eu[m] = (int32_t)((i - 1) / o->branching);
			w->ev[m++] = i;
		}
		return m;
	}
}

/* The base node of every motif: distinct uniform draws, or spread. */
static void
plugs(const struct motif_opts *o, struct mwork *w, int64_t M)
{
	int32_t B = o->base_nodes, t;
	int64_t i, j;

	if (o->attach == MOTIF_ATTACH_SPREAD) {
		for (i = 0; i < M; i++)
			w->plug[i] = (int32_t)(i * B / M);
		return;
	}
	for (i = 0; i < B; i++)
		w->perm[i] = (int32_t)i;
	for (i = 0; i < M; i++) { /* partial Fisher-Yates: M <= B (checked) */
		j = i + (int64_t)rng_uniform_u64(w->r, (uint64_t)(B - i));
		t = w->perm[i];
		w->perm[i] = w->perm[j];
		w->perm[j] = t;
		w->plug[i] = w->perm[i];
	}
}

/* Copy every motif after the base: nodes, labels, edges, the joining edge.
 * Returns the edge count. */
static int64_t
place_motifs(const struct motif_opts *o, struct mwork *w, motif_graph *g, int64_t m)
{
	int64_t node = o->base_nodes, idx = 0, c, e;
	int32_t cls = 1, j;
	char msg[128];
	int i;

	for (j = 0; j < o->base_nodes; j++) {
		g->label[j] = 0;
		g->motif[j] = -1;
	}
	for (i = 0; i < o->nspec; i++) {
		const struct motif_spec *sp = &o->spec[i];
		const motif_shape *s = &w->shape;

		if (motif_shape_make(&w->shape, sp->kind, sp->size, msg, sizeof msg) != 0)
			die("motif: %s", msg); /* motif_opts_check() passed: a bug */
		for (c = 0; c < sp->count; c++, idx++, node += s->n) {
			for (j = 0; j < s->n; j++) {
				g->label[node + j] = cls + s->role[j];
				g->motif[node + j] = (int32_t)idx;
			}
			for (e = 0; e < s->m; e++, m++) {
				w->eu[m] = (int32_t)(node + s->u[e]);
				w->ev[m] = (int32_t)(node + s->v[e]);
			}
			w->eu[m] = w->plug[idx];
			w->ev[m++] = (int32_t)(node + s->anchor);
		}
		cls += s->nroles;
	}
	return m;
}

/* Move k edges drawn uniformly without replacement to the front. */
static void
pick_removed(struct mwork *w, int64_t m, int64_t k)
{
	int64_t i, j;
	int32_t t;

	for (i = 0; i < k; i++) {
		j = i + (int64_t)rng_uniform_u64(w->r, (uint64_t)(m - i));
		t = w->eu[i];
		w->eu[i] = w->eu[j];
		w->eu[j] = t;
		t = w->ev[i];
		w->ev[i] = w->ev[j];
		w->ev[j] = t;
	}
}

static uint64_t
edge_key(int32_t a, int32_t b)
{
	return a < b ? (uint64_t)a << 32 | (uint32_t)b : (uint64_t)b << 32 | (uint32_t)a;
}

/* Insert key into the set (open addressing, mask + 1 slots); 1 if new. */
static int
set_insert(uint64_t *set, uint64_t mask, uint64_t key)
{
	uint64_t h = rng_mix(key, 0) & mask;

	while (set[h] != UINT64_MAX) {
		if (set[h] == key)
			return 0;
		h = (h + 1) & mask;
	}
	set[h] = key;
	return 1;
}

/*
 * Append k node pairs drawn uniformly among those that are not among the
 * m edges made so far (the clean graph, removed edges included) nor drawn
 * before.  Rejection: the graphs are sparse, so a draw is nearly always
 * new; motif_opts_check() made sure that k such pairs exist.
 */
static int64_t
add_pairs(struct mwork *w, int32_t n, int64_t m, int64_t k)
{
	uint64_t slots = 2, mask;
	int64_t i;
	int32_t a, b;

	if (k == 0)
		return m;
	while (slots < 2 * (uint64_t)(m + k))
		slots *= 2;
	w->set = grow(w->set, &w->cap_set, (int64_t)slots, sizeof *w->set);
	memset(w->set, 0xff, (size_t)slots * sizeof *w->set); /* UINT64_MAX: empty */
	mask = slots - 1;
	for (i = 0; i < m; i++)
		set_insert(w->set, mask, edge_key(w->eu[i], w->ev[i]));
	for (i = 0; i < k;) {
		a = (int32_t)rng_uniform_u64(w->r, (uint64_t)n);
		b = (int32_t)rng_uniform_u64(w->r, (uint64_t)n);
		if (a == b || !set_insert(w->set, mask, edge_key(a, b)))
			continue;
		w->eu[m + i] = a;
		w->ev[m + i] = b;
		i++;
	}
	return m + k;
}

void
motif_generate(const struct motif_opts *o, uint64_t seed, uint64_t stream, motif_graph *g)
{
	struct motif_sizes sz;
	struct mwork *w;
	uint64_t s = rng_mix(seed, stream);
	int64_t m;
	char msg[256];

	motif_sizes(o, &sz);
	w = reserve(g, o, &sz);
	g->n = (int32_t)sz.nodes;
	rng_reseed(w->r, s, 1);
	m = base_graph(o, w);
	rng_reseed(w->r, s, 2);
	plugs(o, w, sz.motifs);
	m = place_motifs(o, w, g, m);
	rng_reseed(w->r, s, 3);
	pick_removed(w, m, sz.removed);
	rng_reseed(w->r, s, 4);
	m = add_pairs(w, g->n, m, sz.added);
	/* The CSR sorts the edges in O(n + m) and proves the graph simple. */
	if (graph_build(&w->csr, g->n, m - sz.removed, w->eu + sz.removed, w->ev + sz.removed,
			GRAPH_STRICT, NULL, msg, sizeof msg) != 0)
		die("motif: internal error: %s", msg);
	g->m = w->csr.m;
	graph_edges(&w->csr, g->u, g->v);
}
