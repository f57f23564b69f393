/*
 * config.c - YAML configuration files checked against a schema; see config.h.
 *
 * The file is walked as libyaml events.  A stack of mapping keys gives the
 * dotted name of each scalar; sequences are allowed only as [LO, HI] values
 * of range keys.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "config.h"
#include "err.h"
#include "outfile.h"

#define MAX_DEPTH 8
#define KEY_MAX 256

struct walk {
	const char *path;
	const struct cfg_key *keys;
	size_t nkeys;
	char *msg;
	size_t msglen;
	char prefix[KEY_MAX];	/* dotted name of the enclosing mappings */
	size_t plen[MAX_DEPTH]; /* prefix length at each depth */
	int depth;
	unsigned long *seen;	       /* per key: line of its first value + 1, or 0 */
	char key[KEY_MAX];	       /* dotted name of the key just read */
	int have_key;		       /* key waits for its value */
	const struct cfg_key *seq_key; /* the range key of an open [LO, HI] */
	char seq_name[KEY_MAX];	       /* its dotted name */
	int seq_end;		       /* numbers of the range read so far */
	/* a CFG_LIST's open sequence: the string so far, and its item's
	 * mapping (in_item), its name and settings, and the key read */
	const struct cfg_key *list_key;
	char *list;
	size_t list_len;
	int in_item, item_has_key;
	char item_name[KEY_MAX], item_kv[1024], item_key[KEY_MAX];
};

static int
bad(struct walk *w, const yaml_event_t *ev, const char *fmt, const char *a, const char *b)
{
	char what[400];

	if (snprintf(what, sizeof what, fmt, a, b) < 0) /* a long key is cut */
		what[0] = '\0';
	snprintf(w->msg, w->msglen, "%s: line %lu: %s", w->path,
		 (unsigned long)ev->start_mark.line + 1, what);
	return -1;
}

static const struct cfg_key *
find(struct walk *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->nkeys; i++)
		if (strcmp(w->keys[i].key, name) == 0)
			return &w->keys[i];
	return NULL;
}

/* Whether name is the section of dotted keys (name.x). */
static int
is_section(struct walk *w, const char *name)
{
	size_t i, n = strlen(name);

	for (i = 0; i < w->nkeys; i++)
		if (strncmp(w->keys[i].key, name, n) == 0 && w->keys[i].key[n] == '.')
			return 1;
	return 0;
}

/* A key may be given once ("a: {b: 1}" and "a.b: 1" are the same key):
 * a second value would silently override the first. */
static int
once(struct walk *w, const yaml_event_t *ev, const struct cfg_key *k, const char *name)
{
	unsigned long *first = &w->seen[k - w->keys];
	char at[32];

	if (*first) {
		snprintf(at, sizeof at, "%lu", *first);
		return bad(w, ev, "%s: given twice (first at line %s)", name, at);
	}
	*first = (unsigned long)ev->start_mark.line + 1;
	return 0;
}

static int
num(const char *s, double *out)
{
	char *end;

	if (*s == '\0')
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(*out))
		return -1;
	return 0;
}

/* Store one number into a key (or one end of a range). */
static int
store_num(struct walk *w, const yaml_event_t *ev, const struct cfg_key *k, const char *name,
	  const char *s, int end)
{
	double v;
	char lim[64];
	int is_int = k->type == CFG_INT || k->type == CFG_IRANGE;

	if (num(s, &v) != 0)
		return bad(w, ev, "%s: '%s' is not a number", name, s);
	if (is_int && v != floor(v))
		return bad(w, ev, "%s: '%s' is not an integer", name, s);
	if (v < k->min || v > k->max) {
		snprintf(lim, sizeof lim, "%s (allowed %g..%g)", s, k->min, k->max);
		return bad(w, ev, "%s: %s is out of range", name, lim);
	}
	switch (k->type) {
	case CFG_INT:
		*(long long *)k->dst = (long long)v;
		break;
	case CFG_DOUBLE:
		*(double *)k->dst = v;
		break;
	case CFG_IRANGE:
		((long long *)k->dst)[end] = (long long)v;
		break;
	case CFG_DRANGE:
		((double *)k->dst)[end] = v;
		break;
	}
	return 0;
}

static int
check_order(struct walk *w, const yaml_event_t *ev, const struct cfg_key *k, const char *name)
{
	int inverted = k->type == CFG_IRANGE ? ((long long *)k->dst)[0] > ((long long *)k->dst)[1]
					     : ((double *)k->dst)[0] > ((double *)k->dst)[1];

	if (inverted)
		return bad(w, ev, "%s: range is empty (low end above high end)%s", name, "");
	return 0;
}

static int
store_scalar(struct walk *w, const yaml_event_t *ev, const struct cfg_key *k, const char *name)
{
	const char *s = (const char *)ev->data.scalar.value;

	switch (k->type) {
	case CFG_INT:
	case CFG_DOUBLE:
		return store_num(w, ev, k, name, s, 0);
	case CFG_BOOL: {
		static const char *const yes[] = { "true", "yes", "on", "1" };
		static const char *const no[] = { "false", "no", "off", "0" };
		size_t i;
		for (i = 0; i < 4; i++) {
			if (strcmp(s, yes[i]) == 0) {
				*(int *)k->dst = 1;
				return 0;
			}
			if (strcmp(s, no[i]) == 0) {
				*(int *)k->dst = 0;
				return 0;
			}
		}
		return bad(w, ev, "%s: '%s' is not true or false", name, s);
	}
	case CFG_STRING:
	case CFG_LIST:
		/* replaces the caller's value (a default from xstrdup, say) */
		free(*(char **)k->dst);
		*(char **)k->dst = xstrdup(s);
		return 0;
	case CFG_IRANGE:
	case CFG_DRANGE: {
		char buf[128];
		char *dots;
		if (strlen(s) >= sizeof buf)
			return bad(w, ev, "%s: value '%s' is too long", name, s);
		strcpy(buf, s);
		dots = strstr(buf, "..");
		if (dots == NULL) {
			if (store_num(w, ev, k, name, buf, 0) || store_num(w, ev, k, name, buf, 1))
				return -1;
		} else {
			*dots = '\0';
			if (store_num(w, ev, k, name, buf, 0) ||
			    store_num(w, ev, k, name, dots + 2, 1))
				return -1;
		}
		return check_order(w, ev, k, name);
	}
	}
	return bad(w, ev, "%s: internal error: bad key type%s", name, "");
}

/* Append s to the open list's string. */
static void
list_cat(struct walk *w, const char *s)
{
	size_t n = strlen(s);
	w->list = xrealloc(w->list, w->list_len + n + 1);
	memcpy(w->list + w->list_len, s, n + 1);
	w->list_len += n;
}

/* A list item's word or value: no character of the list's own syntax. */
static int
list_word(struct walk *w, const yaml_event_t *ev, const char *s)
{
	if (*s == '\0' || strpbrk(s, " \t\n,()="))
		return bad(w, ev, "%s: '%s': a list value holds no blank, comma, '(', ')' or '='",
			   w->list_key->key, s);
	return 0;
}

/* A scalar inside a CFG_LIST's sequence: an item, or a key or value of
 * an item's mapping. */
static int
list_scalar(struct walk *w, const yaml_event_t *ev, const char *s)
{
	if (list_word(w, ev, s))
		return -1;
	if (!w->in_item) {
		if (w->list_len)
			list_cat(w, ",");
		list_cat(w, s);
		return 0;
	}
	if (!w->item_has_key) {
		snprintf(w->item_key, sizeof w->item_key, "%s", s);
		w->item_has_key = 1;
		return 0;
	}
	w->item_has_key = 0;
	if (strcmp(w->item_key, "name") == 0) {
		snprintf(w->item_name, sizeof w->item_name, "%s", s);
		return 0;
	}
	size_t n = strlen(w->item_kv);
	if (snprintf(w->item_kv + n, sizeof w->item_kv - n, "%s%s=%s", n ? " " : "", w->item_key,
		     s) >= (int)(sizeof w->item_kv - n))
		return bad(w, ev, "%s: an item's settings are too long%s", w->list_key->key, "");
	return 0;
}

/* An item's mapping closes: "name(k=v ...)" joins the list. */
static int
list_item_end(struct walk *w, const yaml_event_t *ev)
{
	if (!w->item_name[0])
		return bad(w, ev, "%s: a mapping in the list needs a name%s", w->list_key->key, "");
	if (w->list_len)
		list_cat(w, ",");
	list_cat(w, w->item_name);
	if (w->item_kv[0]) {
		list_cat(w, "(");
		list_cat(w, w->item_kv);
		list_cat(w, ")");
	}
	w->in_item = 0;
	return 0;
}

/* A mapping opens: the file itself, or the section of the key just read
 * (the prefix becomes "key."). */
static int
mapping_start(struct walk *w, const yaml_event_t *ev)
{
	if (w->list_key) { /* an item of a list */
		if (w->in_item)
			return bad(w, ev, "%s: an item's settings are scalars%s", w->list_key->key,
				   "");
		w->in_item = 1;
		w->item_has_key = 0;
		w->item_name[0] = w->item_kv[0] = '\0';
		return 0;
	}
	if (w->seq_key)
		return bad(w, ev, "%s: a range is [LO, HI]%s", w->seq_name, "");
	if (w->depth + 1 >= MAX_DEPTH)
		return bad(w, ev, "nesting deeper than %s levels%s", "8", "");
	if (w->depth >= 0) {
		if (!w->have_key)
			return bad(w, ev, "a mapping cannot be a key%s%s", "", "");
		/* descend: the prefix becomes "key." */
		if (snprintf(w->prefix, sizeof w->prefix, "%s.", w->key) < 0)
			w->prefix[0] = '\0'; /* (a bad format only) */
		w->have_key = 0;
	}
	w->depth++;
	w->plen[w->depth] = strlen(w->prefix);
	return 0;
}

static void
mapping_end(struct walk *w)
{
	w->depth--;
	if (w->depth >= 0) /* back to the parent's prefix */
		w->prefix[w->plen[w->depth]] = '\0';
}

/* A sequence opens: only as the [LO, HI] value of a range key. */
static int
sequence_start(struct walk *w, const yaml_event_t *ev)
{
	const struct cfg_key *k;

	if (w->depth < 0)
		return bad(w, ev, "the file must be a mapping of key: value%s%s", "", "");
	if (!w->have_key || w->seq_key)
		return bad(w, ev, "unexpected sequence%s%s", "", "");
	if (w->list_key)
		return bad(w, ev, "%s: a list inside a list%s", w->list_key->key, "");
	k = find(w, w->key);
	if (k == NULL)
		return bad(w, ev, "unknown key '%s'%s", w->key, "");
	if (k->type == CFG_LIST) {
		if (once(w, ev, k, w->key))
			return -1;
		w->list_key = k;
		w->list_len = 0;
		free(w->list);
		w->list = xstrdup("");
		return 0;
	}
	if (k->type != CFG_IRANGE && k->type != CFG_DRANGE)
		return bad(w, ev, "%s: a list is only allowed for ranges%s", w->key, "");
	if (once(w, ev, k, w->key))
		return -1;
	w->seq_key = k;
	snprintf(w->seq_name, sizeof w->seq_name, "%s", w->key);
	w->seq_end = 0;
	return 0;
}

/* A range's sequence closes: two numbers, in order. */
static int
sequence_end(struct walk *w, const yaml_event_t *ev)
{
	if (w->list_key) { /* the list's string is the key's value */
		const struct cfg_key *k = w->list_key;
		if (!w->list_len)
			return bad(w, ev, "%s: an empty list%s", k->key, "");
		free(*(char **)k->dst);
		*(char **)k->dst = w->list;
		w->list = NULL;
		w->list_key = NULL;
		if (k->set)
			*k->set = 1;
		w->have_key = 0;
		return 0;
	}
	if (w->seq_end != 2)
		return bad(w, ev, "%s: a range is [LO, HI] (two numbers)%s", w->seq_name, "");
	if (check_order(w, ev, w->seq_key, w->seq_name))
		return -1;
	if (w->seq_key->set)
		*w->seq_key->set = 1;
	w->seq_key = NULL;
	w->have_key = 0;
	return 0;
}

/* The value of the key just read. */
static int
key_value(struct walk *w, const yaml_event_t *ev)
{
	const struct cfg_key *k = find(w, w->key);

	if (k == NULL && is_section(w, w->key))
		return bad(w, ev,
			   "%s: a section of settings (%s.KEY: value), "
			   "not a value",
			   w->key, w->key);
	if (k == NULL)
		return bad(w, ev, "unknown key '%s'%s", w->key, "");
	if (once(w, ev, k, w->key) || store_scalar(w, ev, k, w->key))
		return -1;
	if (k->set)
		*k->set = 1;
	w->have_key = 0;
	return 0;
}

/* A scalar: a number of a range, a key (its dotted name), or a value. */
static int
scalar(struct walk *w, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;

	if (w->depth < 0)
		return bad(w, ev, "the file must be a mapping of key: value%s%s", "", "");
	if (w->list_key)
		return list_scalar(w, ev, s);
	if (w->seq_key) {
		if (w->seq_end >= 2)
			return bad(w, ev, "%s: a range is [LO, HI] (two numbers)%s", w->seq_name,
				   "");
		if (store_num(w, ev, w->seq_key, w->seq_name, s, w->seq_end))
			return -1;
		w->seq_end++;
	} else if (!w->have_key) {
		int n = snprintf(w->key, sizeof w->key, "%s%s", w->prefix, s);
		if (n < 0 || (size_t)n >= sizeof w->key)
			return bad(w, ev, "key too long%s%s", "", "");
		w->have_key = 1;
	} else {
		return key_value(w, ev);
	}
	return 0;
}

/* One parser event.  Returns 0, 1 at the end of the stream, or -1 with
 * the message set. */
static int
step(struct walk *w, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_MAPPING_START_EVENT:
		return mapping_start(w, ev);
	case YAML_MAPPING_END_EVENT:
		if (w->list_key && w->in_item)
			return list_item_end(w, ev);
		mapping_end(w);
		return 0;
	case YAML_SEQUENCE_START_EVENT:
		return sequence_start(w, ev);
	case YAML_SEQUENCE_END_EVENT:
		return sequence_end(w, ev);
	case YAML_SCALAR_EVENT:
		return scalar(w, ev);
	case YAML_ALIAS_EVENT:
		return bad(w, ev, "aliases are not supported%s%s", "", "");
	default:
		return 0;
	}
}

/* Load from a file (f) or a string (text, len); path names it in messages. */
static int
load(const char *path, FILE *f, const char *text, size_t len, const struct cfg_key *keys,
     size_t nkeys, char *msg, size_t msglen)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct walk w;
	int rc = -1, done = 0;

	memset(&w, 0, sizeof w);
	w.path = path;
	w.keys = keys;
	w.nkeys = nkeys;
	w.msg = msg;
	w.msglen = msglen;
	w.depth = -1;
	w.seq_end = -1;
	w.seen = xcalloc(nkeys + 1, sizeof *w.seen);

	if (!yaml_parser_initialize(&parser)) {
		snprintf(msg, msglen, "%s: cannot initialise the YAML parser", path);
		free(w.seen);
		return -1;
	}
	if (f)
		yaml_parser_set_input_file(&parser, f);
	else
		yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			snprintf(msg, msglen, "%s: line %lu: %s", path,
				 (unsigned long)parser.problem_mark.line + 1,
				 parser.problem ? parser.problem : "YAML syntax error");
			goto out;
		}
		done = step(&w, &ev);
		yaml_event_delete(&ev);
		if (done < 0)
			goto out;
	}
	rc = 0;
out:
	yaml_parser_delete(&parser);
	free(w.seen);
	free(w.list);
	if (rc != 0 && msglen > 0)
		err_one_line(msg); /* quoted keys and values may hold newlines */
	return rc;
}

int
cfg_load(const char *path, const struct cfg_key *keys, size_t nkeys, char *msg, size_t msglen)
{
	FILE *f = fopen(path, "rb");
	int rc;

	if (f == NULL) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		return -1;
	}
	outfile_input_fd(fileno(f), path); /* never an output's file */
	rc = load(path, f, NULL, 0, keys, nkeys, msg, msglen);
	fclose(f);
	return rc;
}

int
cfg_load_text(const char *text, size_t len, const char *name, const struct cfg_key *keys,
	      size_t nkeys, char *msg, size_t msglen)
{
	return load(name, NULL, text, len, keys, nkeys, msg, msglen);
}

char *
cfg_quote(const char *str)
{
	size_t n = strlen(str), j = 0;
	char *q = xmalloc(4 * n + 3);
	q[j++] = '"';
	for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
		if (*c == '"' || *c == '\\') {
			q[j++] = '\\';
			q[j++] = (char)*c;
		} else if (*c < 0x20 || *c == 0x7f) {
			snprintf(q + j, 5, "\\x%02x", *c);
			j += 4;
		} else
			q[j++] = (char)*c;
	}
	q[j++] = '"';
	q[j] = '\0';
	return q;
}

char *
cfg_dump(const struct cfg_key *keys, size_t nkeys)
{
	size_t cap = 256, len = 0, i;
	char *s = xmalloc(cap);

	s[0] = '\0';
	for (i = 0; i < nkeys; i++) {
		const struct cfg_key *k = &keys[i];
		char v[512], *str = NULL; /* str: a quoted string value */
		int n;
		switch (k->type) {
		case CFG_INT:
			snprintf(v, sizeof v, "%lld", *(long long *)k->dst);
			break;
		case CFG_DOUBLE:
			snprintf(v, sizeof v, "%.17g", *(double *)k->dst);
			break;
		case CFG_BOOL:
			snprintf(v, sizeof v, "%s", *(int *)k->dst ? "true" : "false");
			break;
		case CFG_STRING:
		case CFG_LIST: {
			const char *val = *(char **)k->dst;
			str = cfg_quote(val ? val : "");
			break;
		}
		case CFG_IRANGE:
			snprintf(v, sizeof v, "[%lld, %lld]", ((long long *)k->dst)[0],
				 ((long long *)k->dst)[1]);
			break;
		case CFG_DRANGE:
			snprintf(v, sizeof v, "[%.17g, %.17g]", ((double *)k->dst)[0],
				 ((double *)k->dst)[1]);
			break;
		default:
			v[0] = '\0';
		}
		/* dotted keys are written flat; cfg_load reads them back as given */
		const char *val = str ? str : v;
		n = snprintf(NULL, 0, "%s: %s\n", k->key, val);
		if (len + (size_t)n + 1 > cap) {
			cap = 2 * (len + (size_t)n + 1);
			s = xrealloc(s, cap);
		}
		snprintf(s + len, cap - len, "%s: %s\n", k->key, val);
		len += (size_t)n;
		free(str);
	}
	return s;
}
