// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-table page allocator (models pte_alloc_one()/pte_free() and the
 * PMD/PUD equivalents as far as MGLRU can see them: a table page's address).
 */
#include <stdlib.h>
#include <string.h>

#include "pgtable.h"

int aw_pgtable_alloc_init(struct aw_pgtable_alloc *pa)
{
	memset(pa, 0, sizeof(*pa));
	pa->cap = 64;
	pa->tables = calloc(pa->cap, sizeof(*pa->tables));
	if (!pa->tables)
		return -1;
	pa->nr = 1;	/* id 0 means "no table" */
	return 0;
}

void aw_pgtable_alloc_destroy(struct aw_pgtable_alloc *pa)
{
	for (uint32_t i = 0; i < pa->nr; i++)
		free(pa->tables[i]);
	free(pa->tables);
	free(pa->free_ids);
	memset(pa, 0, sizeof(*pa));
}

uint32_t aw_table_alloc(struct aw_pgtable_alloc *pa)
{
	uint32_t id;

	/*
	 * Reuse the most recently freed table page first: in the kernel a
	 * freed page table goes back to the per-CPU free list and is the
	 * next one handed out, so a new PTE table often lands at the same
	 * kernel address as the one munmap just freed.
	 */
	if (pa->nr_free) {
		id = pa->free_ids[--pa->nr_free];
		memset(pa->tables[id], 0, sizeof(struct aw_ptable));
		pa->live++;
		return id;
	}
	if (pa->nr == pa->cap) {
		uint32_t cap = pa->cap * 2;
		struct aw_ptable **t = realloc(pa->tables, cap * sizeof(*t));

		if (!t)
			return 0;
		memset(t + pa->cap, 0, (cap - pa->cap) * sizeof(*t));
		pa->tables = t;
		pa->cap = cap;
	}
	id = pa->nr;
	pa->tables[id] = calloc(1, sizeof(struct aw_ptable));
	if (!pa->tables[id])
		return 0;
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
