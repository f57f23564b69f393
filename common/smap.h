/*
 * smap.h - a map from strings to int32, open addressing: node names and
 * class names to numbers (the importers, the plain edge-list reader, the
 * check that a graph's names are distinct).
 *
 * Ownership: an smap starts zeroed ({0}) and owns a copy of every key;
 * smap_free() releases them and leaves it zeroed, ready for reuse.
 */
#ifndef GNN_SMAP_H
#define GNN_SMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	char **key;
	int32_t *val;
	size_t cap, n;
} smap;

/* The value of k, or -1.  Time: O(1) expected. */
int32_t smap_get(const smap *m, const char *k);
/* Insert k -> v; returns the value already there (m unchanged), or -1 if
 * k was new.  Time: O(1) amortised. */
int32_t smap_put(smap *m, const char *k, int32_t v);
void smap_free(smap *m);

#endif
