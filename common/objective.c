/*
 * objective.c - the list of pre-training objectives: parsed, given its
 * defaults and written back (see objective.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "objective.h"

static const char *const paper_word[3] = { "rec", "rank", "cluster" };
static const char *const paper_target[3] = { "", "centrality", "cluster" };

const char *
obj_kind_name(int kind)
{
	static const char *const n[] = { "?", "node", "graph", "contrast", "mask" };
	return kind >= OBJ_NODE && kind <= OBJ_MASK ? n[kind] : n[0];
}

const char *
obj_loss_name(int loss)
{
	static const char *const n[] = { "?", "mse", "xent", "rank", "nce", "sce" };
	return loss >= OBJ_MSE && loss <= OBJ_SCE ? n[loss] : n[0];
}

static int
name_of(const char *const *names, int lo, int hi, const char *s)
{
	for (int i = lo; i <= hi; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* A new objective's defaults; a preset name sets kind, target, loss, level. */
static void
obj_default(struct objective *o, const char *name, int d)
{
	memset(o, 0, sizeof *o);
	snprintf(o->name, sizeof o->name, "%s", name);
	o->hidden = d / 2 > 16 ? d / 2 : 16;
	o->weight = 1;
	o->tau = 0.2;
	o->drop = 0.2;
	o->nodes = 64;
	o->rate = 0.5;
	o->gamma = 2;
	if (strcmp(name, "graphstat") == 0) {
		o->kind = OBJ_GRAPH;
		snprintf(o->target, sizeof o->target, "graphstat");
	} else if (strcmp(name, "graphcl") == 0) {
		o->kind = OBJ_CONTRAST;
		o->level = OBJ_LEVEL_GRAPH;
	} else if (strcmp(name, "gcc") == 0) {
		o->kind = OBJ_CONTRAST;
		o->level = OBJ_LEVEL_NODE;
	} else if (strcmp(name, "graphmae") == 0) {
		o->kind = OBJ_MASK;
	}
}

/* The loss, level and width a kind takes when the item gives none. */
static void
obj_kind_defaults(struct objective *o, int d)
{
	if (!o->loss)
		o->loss = o->kind == OBJ_CONTRAST ? OBJ_NCE
			  : o->kind == OBJ_MASK	  ? OBJ_SCE
						  : OBJ_MSE;
	if (o->kind == OBJ_CONTRAST && !o->level)
		o->level = OBJ_LEVEL_GRAPH;
	if (o->kind == OBJ_CONTRAST && !o->width)
		o->width = d < 128 ? d : 128;
}

/* Settings an item may give: which kinds each applies to (a bit per
 * kind, bit 0 the paper's tasks). */
enum {
	K_PAPER = 1,
	K_NODE = 1 << OBJ_NODE,
	K_GRAPH = 1 << OBJ_GRAPH,
	K_CON = 1 << OBJ_CONTRAST,
	K_MASK = 1 << OBJ_MASK,
	K_ALL = K_NODE | K_GRAPH | K_CON | K_MASK
};

struct okey {
	const char *key;
	int kinds;
};

static const struct okey okeys[] = {
	{ "kind", K_ALL },
	{ "target", K_NODE | K_GRAPH },
	{ "loss", K_NODE | K_GRAPH | K_MASK },
	{ "level", K_CON },
	{ "width", K_NODE | K_GRAPH | K_CON },
	{ "hidden", K_ALL },
	{ "weight", K_ALL },
	{ "tau", K_CON },
	{ "drop", K_CON },
	{ "nodes", K_CON },
	{ "rate", K_MASK },
	{ "gamma", K_MASK },
};
#define NOKEY (sizeof okeys / sizeof okeys[0])

static int
num(const char *s, double lo, double hi, int integer, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v) || v < lo || v > hi ||
	    (integer && v != floor(v)))
		return -1;
	*out = v;
	return 0;
}

/* One KEY=VALUE of an objective item into o (or w, t of a paper task);
 * seen records the keys given, for the kind check after the item. */
static int
set_key(struct objective *o, const char *k, const char *v, unsigned *seen, char *msg, size_t len)
{
	double x = 0;
	size_t i;
	int bad = 0;

	for (i = 0; i < NOKEY && strcmp(okeys[i].key, k) != 0; i++)
		;
	if (i == NOKEY) {
		snprintf(msg, len, "%s: unknown setting '%.40s'", o->name, k);
		return -1;
	}
	if (*seen & 1u << i) {
		snprintf(msg, len, "%s: %s given twice", o->name, k);
		return -1;
	}
	*seen |= 1u << i;
	if (strcmp(k, "kind") == 0) {
		static const char *const kn[] = { "", "node", "graph", "contrast", "mask" };
		bad = (o->kind = name_of(kn, OBJ_NODE, OBJ_MASK, v)) < 0;
	} else if (strcmp(k, "target") == 0) {
		bad = strlen(v) >= sizeof o->target;
		if (!bad)
			snprintf(o->target, sizeof o->target, "%s", v);
	} else if (strcmp(k, "loss") == 0) {
		static const char *const ln[] = { "", "mse", "xent", "rank", "nce", "sce" };
		bad = (o->loss = name_of(ln, OBJ_MSE, OBJ_SCE, v)) < 0;
	} else if (strcmp(k, "level") == 0) {
		static const char *const vn[] = { "", "graph", "node" };
		bad = (o->level = name_of(vn, OBJ_LEVEL_GRAPH, OBJ_LEVEL_NODE, v)) < 0;
	} else if (strcmp(k, "width") == 0 || strcmp(k, "hidden") == 0 || strcmp(k, "nodes") == 0) {
		bad = num(v, 1, 65536, 1, &x) != 0;
		*(k[0] == 'w' ? &o->width : k[0] == 'h' ? &o->hidden : &o->nodes) = (int)x;
	} else if (strcmp(k, "weight") == 0) {
		bad = num(v, 0, 1e6, 0, &o->weight) != 0;
	} else if (strcmp(k, "tau") == 0) {
		bad = num(v, 1e-4, 1e4, 0, &o->tau) != 0;
	} else if (strcmp(k, "drop") == 0) {
		bad = num(v, 0, 0.99, 0, &o->drop) != 0;
	} else if (strcmp(k, "rate") == 0) {
		bad = num(v, 0.01, 1, 0, &o->rate) != 0;
	} else if (strcmp(k, "gamma") == 0) {
		bad = num(v, 1, 10, 0, &o->gamma) != 0;
	}
	if (bad)
		snprintf(msg, len, "%s: %s: bad value '%.40s'", o->name, k, v);
	return bad ? -1 : 0;
}

/* What an item's settings must satisfy once all are read. */
static int
obj_check(const struct objective *o, unsigned seen, int paper, char *msg, size_t len)
{
	int kb = paper ? K_PAPER : 1 << o->kind;

	if (!paper && !o->kind) {
		snprintf(msg, len,
			 "%s: not rec, rank, cluster or a preset (graphstat, graphcl, gcc, "
			 "graphmae), and no kind= (node, graph, contrast or mask)",
			 o->name);
		return -1;
	}
	for (size_t i = 0; i < NOKEY; i++) {
		const char *k = okeys[i].key;
		int ok = paper ? strcmp(k, "weight") == 0 ||
				     (strcmp(k, "target") == 0 && strcmp(o->name, "rec") != 0)
			       : (okeys[i].kinds & kb) != 0;
		if (seen & 1u << i && !ok) {
			snprintf(msg, len, "%s: %s does not apply to %s", o->name, k,
				 paper ? "this task of the paper" : obj_kind_name(o->kind));
			return -1;
		}
	}
	if (paper)
		return 0;
	if ((o->kind == OBJ_NODE || o->kind == OBJ_GRAPH) && !o->target[0]) {
		snprintf(msg, len, "%s: kind=%s needs target=RECORD", o->name,
			 obj_kind_name(o->kind));
		return -1;
	}
	int ok = o->kind == OBJ_NODE
		     ? o->loss == OBJ_MSE || o->loss == OBJ_XENT || o->loss == OBJ_RANK
		 : o->kind == OBJ_GRAPH	   ? o->loss == OBJ_MSE
		 : o->kind == OBJ_CONTRAST ? o->loss == OBJ_NCE
					   : o->loss == OBJ_SCE || o->loss == OBJ_MSE;
	if (!ok) {
		snprintf(msg, len, "%s: loss=%s does not apply to kind=%s", o->name,
			 obj_loss_name(o->loss), obj_kind_name(o->kind));
		return -1;
	}
	if (o->kind == OBJ_CONTRAST && o->level == OBJ_LEVEL_NODE && o->nodes < 2) {
		snprintf(msg, len, "%s: nodes must be at least 2", o->name);
		return -1;
	}
	return 0;
}

static int
valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= OBJ_NAME_MAX)
		return 0;
	for (const char *c = s; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
		      (*c >= 'A' && *c <= 'Z')))
			return 0;
	return !(s[0] >= '0' && s[0] <= '9');
}

/* A name that would give an objective's tensors or val.* attribute the
 * name of another's: the encoder's (embed.W, blockN.W1), the mixes', a
 * checkpoint's (state.best), an adapted head's (head.W1), the scores'. */
static int
reserved(const char *s)
{
	static const char *const r[] = { "embed", "mix",     "head",	 "state",
					 "score", "rec_auc", "rank_acc", "cluster_acc" };
	for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
		if (strcmp(s, r[i]) == 0)
			return 1;
	return strncmp(s, "block", 5) == 0 && s[5] && strspn(s + 5, "0123456789") == strlen(s + 5);
}

/* One item, "NAME" or "NAME(K=V ...)", of len bytes at s, into l. */
static int
parse_item(struct objlist *l, const char *s, size_t n, int d, char *msg, size_t len)
{
	char buf[512], *open, *close;
	struct objective o;
	unsigned seen = 0;

	if (n >= sizeof buf) {
		snprintf(msg, len, "an item is too long: '%.40s...'", s);
		return -1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	open = strchr(buf, '(');
	close = open ? strrchr(buf, ')') : NULL;
	if (open && (!close || close[1] != '\0')) {
		snprintf(msg, len, "'%.60s': expected NAME(KEY=VALUE ...)", buf);
		return -1;
	}
	if (open)
		*open = *close = '\0';
	if (!valid_name(buf)) {
		snprintf(msg, len, "'%.40s': a name is 1..%d letters, digits or _", buf,
			 OBJ_NAME_MAX - 1);
		return -1;
	}
	if (reserved(buf)) {
		snprintf(msg, len,
			 "'%s': a name the model's other tensors or scores use (embed, blockN, "
			 "mix, head, state, score, rec_auc, rank_acc, cluster_acc)",
			 buf);
		return -1;
	}
	int t = name_of(paper_word, 0, 2, buf);
	if ((t >= 0 && (l->tasks & 1 << t)) || (t < 0 && objlist_find(l, buf) >= 0)) {
		snprintf(msg, len, "%s: given twice", buf);
		return -1;
	}
	if (t < 0 && l->n == OBJ_MAX) {
		snprintf(msg, len, "%s: more than %d objectives besides rec, rank, cluster", buf,
			 OBJ_MAX);
		return -1;
	}
	obj_default(&o, buf, d);
	if (t >= 0)
		snprintf(o.target, sizeof o.target, "%s", paper_target[t]);
	for (char *save = NULL, *kv = open ? strtok_r(open + 1, " \t", &save) : NULL; kv;
	     kv = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq) {
			snprintf(msg, len, "%s: '%.40s': expected KEY=VALUE", o.name, kv);
			return -1;
		}
		*eq = '\0';
		if (set_key(&o, kv, eq + 1, &seen, msg, len) != 0)
			return -1;
	}
	if (t < 0)
		obj_kind_defaults(&o, d);
	if (obj_check(&o, seen, t >= 0, msg, len) != 0)
		return -1;
	if (t >= 0) {
		l->tasks |= 1 << t;
		l->task_w[t] = o.weight;
		snprintf(l->task_target[t], sizeof l->task_target[t], "%s", o.target);
		return 0;
	}
	l->o[l->n++] = o;
	return 0;
}

int
objlist_parse(struct objlist *l, const char *list, int d, char *msg, size_t msglen)
{
	char why[300];
	const char *s = list;

	memset(l, 0, sizeof *l);
	for (int t = 0; t < 3; t++) {
		l->task_w[t] = 1;
		snprintf(l->task_target[t], sizeof l->task_target[t], "%s", paper_target[t]);
	}
	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		if (!*s)
			break;
		/* an item ends at a comma outside parentheses */
		const char *e = s;
		int depth = 0;
		for (; *e && (depth > 0 || *e != ','); e++)
			depth += (*e == '(') - (*e == ')');
		size_t n = (size_t)(e - s);
		while (n > 0 && s[n - 1] == ' ')
			n--;
		if (parse_item(l, s, n, d, why, sizeof why) != 0) {
			snprintf(msg, msglen, "tasks: %s", why);
			return -1;
		}
		s = e;
	}
	/* the contrasts share one second view, one token masks the inputs */
	for (int i = 0, con = -1, mask = -1; i < l->n; i++) {
		const struct objective *o = &l->o[i];
		if (o->kind == OBJ_CONTRAST && con >= 0 && o->drop != l->o[con].drop) {
			snprintf(msg, msglen,
				 "tasks: %s and %s: the contrasts share their views, so "
				 "their drop must be the same",
				 l->o[con].name, o->name);
			return -1;
		}
		if (o->kind == OBJ_MASK && mask >= 0) {
			snprintf(msg, msglen,
				 "tasks: %s and %s: one objective of kind mask at most",
				 l->o[mask].name, o->name);
			return -1;
		}
		if (o->kind == OBJ_CONTRAST && con < 0)
			con = i;
		if (o->kind == OBJ_MASK)
			mask = i;
	}
	if (!l->tasks && !l->n) {
		snprintf(msg, msglen, "tasks: '%.60s': no objective (rec, rank, cluster, ...)",
			 list);
		return -1;
	}
	return 0;
}

/* A number written so that strtod() gives it back. */
static void
fmt_num(char *b, size_t n, double x)
{
	for (int p = 6; p <= 17; p++) {
		snprintf(b, n, "%.*g", p, x);
		if (strtod(b, NULL) == x)
			return;
	}
}

/* Append fmt's output to the growing string *s (length *len). */
static void cat(char **s, size_t *len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
cat(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*s = xrealloc(*s, *len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(*s + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
}

char *
objlist_format(const struct objlist *l)
{
	char *s = xstrdup(""), w[40];
	size_t len = 0;

	for (int t = 0; t < 3; t++) {
		if (!(l->tasks & 1 << t))
			continue;
		cat(&s, &len, "%s%s", len ? "," : "", paper_word[t]);
		int tg = strcmp(l->task_target[t], paper_target[t]) != 0;
		if (l->task_w[t] == 1 && !tg)
			continue;
		fmt_num(w, sizeof w, l->task_w[t]);
		if (tg)
			cat(&s, &len, "(target=%s weight=%s)", l->task_target[t], w);
		else
			cat(&s, &len, "(weight=%s)", w);
	}
	for (int i = 0; i < l->n; i++) {
		const struct objective *o = &l->o[i];
		cat(&s, &len, "%s%s(kind=%s", len ? "," : "", o->name, obj_kind_name(o->kind));
		if (o->kind == OBJ_NODE || o->kind == OBJ_GRAPH)
			cat(&s, &len, " target=%s", o->target);
		if (o->kind != OBJ_CONTRAST)
			cat(&s, &len, " loss=%s", obj_loss_name(o->loss));
		if (o->kind == OBJ_CONTRAST)
			cat(&s, &len, " level=%s", o->level == OBJ_LEVEL_NODE ? "node" : "graph");
		if (o->width && o->kind != OBJ_MASK)
			cat(&s, &len, " width=%d", o->width);
		cat(&s, &len, " hidden=%d", o->hidden);
		fmt_num(w, sizeof w, o->weight);
		cat(&s, &len, " weight=%s", w);
		if (o->kind == OBJ_CONTRAST) {
			fmt_num(w, sizeof w, o->tau);
			cat(&s, &len, " tau=%s", w);
			fmt_num(w, sizeof w, o->drop);
			cat(&s, &len, " drop=%s", w);
			if (o->level == OBJ_LEVEL_NODE)
				cat(&s, &len, " nodes=%d", o->nodes);
		}
		if (o->kind == OBJ_MASK) {
			fmt_num(w, sizeof w, o->rate);
			cat(&s, &len, " rate=%s", w);
			fmt_num(w, sizeof w, o->gamma);
			if (o->loss == OBJ_SCE)
				cat(&s, &len, " gamma=%s", w);
		}
		cat(&s, &len, ")");
	}
	return s;
}

int
objlist_find(const struct objlist *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(l->o[i].name, name) == 0)
			return i;
	return -1;
}

int
objlist_plain(const struct objlist *l)
{
	if (l->n)
		return 0;
	for (int t = 0; t < 3; t++)
		if (l->task_w[t] != 1 || strcmp(l->task_target[t], paper_target[t]) != 0)
			return 0;
	return 1;
}

int
objlist_views(const struct objlist *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->o[i].kind == OBJ_CONTRAST)
			return 1;
	return 0;
}

int
objlist_masks(const struct objlist *l)
{
	for (int i = 0; i < l->n; i++)
		if (l->o[i].kind == OBJ_MASK)
			return 1;
	return 0;
}
