/* smap.c - a map from strings to int32; see smap.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "smap.h"

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static size_t
smap_slot(const smap *m, const char *k)
{
	size_t i = (size_t)hash_str(k) & (m->cap - 1);

	while (m->key[i] != NULL && strcmp(m->key[i], k) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int32_t
smap_get(const smap *m, const char *k)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	i = smap_slot(m, k);
	return m->key[i] ? m->val[i] : -1;
}

int32_t
smap_put(smap *m, const char *k, int32_t v)
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

void
smap_free(smap *m)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		free(m->key[i]);
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}
