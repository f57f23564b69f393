/*
 * config.h - YAML configuration files (libyaml), checked against a schema.
 *
 * Ownership: the caller owns the schema and every destination it points to.
 * A CFG_STRING destination *(char **)dst is NULL or a string from malloc
 * (a default made with xstrdup, say), never a literal: a value from the file
 * frees it and puts a new xstrdup() copy in its place, which the caller
 * frees.
 *
 * A config file is a YAML mapping.  Nested mappings are flattened to dotted
 * keys ("model: {hidden: 64}" is the key "model.hidden").  Every key must be
 * in the schema: an unknown key is an error that names it and the line.
 * Values are checked against the key's type and bounds:
 *   CFG_INT, CFG_DOUBLE   a scalar, bounded by [min, max]
 *   CFG_BOOL              true/false/yes/no/on/off/1/0
 *   CFG_STRING            any scalar
 *   CFG_IRANGE, CFG_DRANGE  a range: "LO..HI", a flow sequence [LO, HI],
 *                         or a single value X meaning X..X; dst points to
 *                         two values (lo, hi)
 *   CFG_LIST              a string as CFG_STRING, or a sequence of items,
 *                         each a scalar or a mapping of scalars with a
 *                         "name" key, stored as the string
 *                         "a,b(k=v k2=v2)": item a, then the mapping
 *                         {name: b, k: v, k2: v2}; a value holding a
 *                         blank, comma, parenthesis or '=' is an error.
 *                         Written back (cfg_dump) as that string.
 */
#ifndef GNN_CONFIG_H
#define GNN_CONFIG_H

#include <stddef.h>

enum cfg_type { CFG_INT = 1, CFG_DOUBLE, CFG_BOOL, CFG_STRING, CFG_IRANGE, CFG_DRANGE, CFG_LIST };

struct cfg_key {
	const char *key; /* dotted name, e.g. "nodes" or "model.hidden" */
	int type;	 /* enum cfg_type */
	void *dst;	 /* long long*, double*, int*, char**, long long[2], double[2] */
	double min, max; /* bounds for numbers and range ends */
	int *set;	 /* optional: set to 1 when the file gives the key */
};

/*
 * Load path into the destinations of keys[0..nkeys-1].  Returns 0, or -1
 * with msg = "FILE: line L: what" (unknown key 'x', expected a number...).
 * Time complexity: O(file size * nkeys).
 */
int cfg_load(const char *path, const struct cfg_key *keys, size_t nkeys, char *msg, size_t msglen);

/*
 * As cfg_load(), from the len bytes at text (the config of a model record,
 * say); name stands for the file in messages.
 */
int cfg_load_text(const char *text, size_t len, const char *name, const struct cfg_key *keys,
		  size_t nkeys, char *msg, size_t msglen);

/*
 * Write the effective configuration (every key and its current value) as
 * YAML text into a new string (caller frees): used to record the config a
 * record or model was made with.
 */
char *cfg_dump(const struct cfg_key *keys, size_t nkeys);

/*
 * str as a YAML double-quoted scalar: quote and backslash escaped, control
 * bytes as \xNN, so any string reads back as itself.  Returns a new string
 * (caller frees).  Time: O(length).
 */
char *cfg_quote(const char *str);

#endif
