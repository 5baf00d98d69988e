// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table page allocator (models pte_alloc_one()/pte_free() and the
 * PMD/PUD equivalents as far as MGLRU can see them: a table page's address).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pgtable.h"

int aw_pgtable_alloc_init(struct aw_pgtable_alloc *pa)
{
	memset(pa, 0, sizeof(*pa));
	pa->cap = 64;
	pa->tables = calloc(pa->cap, sizeof(*pa->tables));
	pa->memcg = malloc(pa->cap * sizeof(*pa->memcg));
	pa->writes = calloc(pa->cap, sizeof(*pa->writes));
	if (!pa->tables || !pa->memcg || !pa->writes) {
		free(pa->tables);
		free(pa->memcg);
		free(pa->writes);
		return -1;
	}
	pa->nr = 1;	/* id 0 means "no table" */
	return 0;
}

void aw_pgtable_alloc_destroy(struct aw_pgtable_alloc *pa)
{
	for (uint32_t i = 0; i < pa->nr_chunks; i++)
		free(pa->chunks[i].base);
	free(pa->chunks);
	free(pa->tables);
	free(pa->memcg);
	free(pa->writes);
	free(pa->free_ids);
	memset(pa, 0, sizeof(*pa));
}

/*
 * A new chunk whose first table is id (ids 1.. fill chunks in order, so
 * chunk n holds ids n * AW_PT_CHUNK + 1 ...), kept in address order.
 */
static bool chunk_add(struct aw_pgtable_alloc *pa, uint32_t id)
{
	struct aw_pt_chunk c = { .first_id = id };
	uint32_t at;

	if (pa->nr_chunks == pa->cap_chunks) {
		uint32_t cap = pa->cap_chunks ? 2 * pa->cap_chunks : 8;
		struct aw_pt_chunk *a = realloc(pa->chunks, cap * sizeof(*a));

		if (!a)
			return false;
		pa->chunks = a;
		pa->cap_chunks = cap;
	}
	/* page-aligned, as a table page is: &pmd[i] / PAGE_SIZE names the page */
	c.base = aligned_alloc(PAGE_SIZE, AW_PT_CHUNK * sizeof(struct aw_ptable));
	if (!c.base)
		return false;
	pa->tables[id] = c.base;
	for (at = pa->nr_chunks; at && pa->chunks[at - 1].base > c.base; at--)
		pa->chunks[at] = pa->chunks[at - 1];
	pa->chunks[at] = c;
	pa->nr_chunks++;
	return true;
}

/* The chunk p points into, NULL if none: a binary search over the chunks in address order. */
static const struct aw_pt_chunk *chunk_of(const struct aw_pgtable_alloc *pa, const char *q)
{
	uint32_t lo = 0, hi = pa->nr_chunks;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const char *base = (const char *)pa->chunks[mid].base;

		if (q < base)
			hi = mid;
		else if (q >= base + AW_PT_CHUNK * sizeof(struct aw_ptable))
			lo = mid + 1;
		else
			return &pa->chunks[mid];
	}
	return NULL;
}

/* The id of the table q points into inside chunk c (and the entry's index), 0 if none. */
static uint32_t id_in_chunk(const struct aw_pgtable_alloc *pa, const struct aw_pt_chunk *c, const char *q,
			    unsigned int *index)
{
	size_t off;
	uint32_t id;

	if (!c)
		return 0;
	off = (size_t)(q - (const char *)c->base);
	id = c->first_id + (uint32_t)(off / sizeof(struct aw_ptable));
	if (id >= pa->nr)
		return 0;
	if (index)
		*index = (unsigned int)(off % sizeof(struct aw_ptable) / sizeof(uint64_t));
	return id;
}

uint32_t aw_table_id_of(const struct aw_pgtable_alloc *pa, const void *p, unsigned int *index)
{
	return id_in_chunk(pa, chunk_of(pa, p), p, index);
}

uint32_t aw_table_id_rehint(struct aw_pgtable_alloc *pa, const void *entry)
{
	const struct aw_pt_chunk *c = chunk_of(pa, entry);
	uint32_t id = id_in_chunk(pa, c, entry, NULL);

	if (id)
		pa->hint = *c;
	return id;
}

uint32_t aw_table_alloc(struct aw_pgtable_alloc *pa)
{
	uint32_t id, first;

	/*
	 * Reuse the most recently freed table page first: in the kernel a
	 * freed page table goes back to the per-CPU free list and is the
	 * next one handed out, so a new PTE table often lands at the same
	 * kernel address as the one munmap just freed.
	 */
	if (pa->nr_free) {
		id = pa->free_ids[--pa->nr_free];
		memset(pa->tables[id], 0, sizeof(struct aw_ptable));
		pa->memcg[id] = -1;
		pa->writes[id]++;
		pa->live++;
		return id;
	}
	if (pa->nr == pa->cap) {
		uint32_t cap = pa->cap * 2;
		struct aw_ptable **t = realloc(pa->tables, cap * sizeof(*t));
		int16_t *m;
		uint64_t *w;

		if (!t)
			return 0;
		memset(t + pa->cap, 0, (cap - pa->cap) * sizeof(*t));
		pa->tables = t;
		m = realloc(pa->memcg, cap * sizeof(*m));
		if (!m)
			return 0;
		pa->memcg = m;
		w = realloc(pa->writes, cap * sizeof(*w));
		if (!w)
			return 0;
		memset(w + pa->cap, 0, (cap - pa->cap) * sizeof(*w));
		pa->writes = w;
		pa->cap = cap;
	}
	id = pa->nr;
	first = id - (id - 1) % AW_PT_CHUNK;	/* the first id of its chunk */
	if (id == first && !chunk_add(pa, id))
		return 0;
	pa->tables[id] = pa->tables[first] + (id - first);
	memset(pa->tables[id], 0, sizeof(struct aw_ptable));
	pa->memcg[id] = -1;
	pa->writes[id]++;
	pa->nr++;
	pa->live++;
	return id;
}

void aw_table_free(struct aw_pgtable_alloc *pa, uint32_t id)
{
	if (pa->nr_free == pa->cap_free) {
		uint32_t cap = pa->cap_free ? pa->cap_free * 2 : 64;
		uint32_t *f = realloc(pa->free_ids, cap * sizeof(*f));

		if (!f)
			return;	/* leak the id rather than lose track of memory */
		pa->free_ids = f;
		pa->cap_free = cap;
	}
	pa->free_ids[pa->nr_free++] = id;
	pa->live--;
}
