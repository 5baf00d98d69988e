// SPDX-License-Identifier: GPL-2.0-only
/*
 * memcg_events.c: a limited memcg's reclaim, event by event (memcg_events.h).
 *
 * The counters are the ones the lab reads from memory.stat: pgsteal
 * (shrink_folio_list()'s reclaimed pages, counted where the model frees
 * an evicted folio), workingset_refault_anon/file (lru_gen_refault()'s
 * mod_lruvec_state()), pgmajfault (the model's refaults: a swap-in or
 * re-read of an evicted page).  The generations are what lru_gen_full
 * prints for the memcg (lru_gen_seq_show()): for each node, every seq
 * from the lower of the two min_seq to max_seq, with the pages of each
 * type in that generation's slot.
 */
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kernel.h"
#include "memcg_events.h"

static bool any_limit(const struct aw_kernel *k)
{
	for (int m = 0; m < k->nr_memcgs; m++)
		if (k->memcg[m].limit)
			return true;
	return false;
}

/* lru_gen_seq_show()'s sizes: one row per seq of each node's lruvec */
static void record_gens(struct aw_kernel *k, int m, struct aw_memcg_event *r)
{
	r->nr_gens = 0;
	for (int n = 0; n < k->nr_nodes; n++) {
		struct lru_gen_folio *g = &aw_lruvec(k, m, n)->lrugen;
		unsigned long lo = g->min_seq[0] < g->min_seq[1] ? g->min_seq[0] : g->min_seq[1];

		for (unsigned long seq = lo; seq <= g->max_seq && r->nr_gens < AW_MCE_GENS; seq++) {
			unsigned long *e = r->gen[r->nr_gens++];
			int gen = lru_gen_from_seq(seq);

			e[0] = (unsigned long)n;
			e[1] = seq;
			e[2] = g->nr_pages[gen][0] > 0 ? (unsigned long)g->nr_pages[gen][0] : 0;
			e[3] = g->nr_pages[gen][1] > 0 ? (unsigned long)g->nr_pages[gen][1] : 0;
		}
	}
}

static struct aw_memcg_event *push(struct aw_kernel *k)
{
	struct aw_memcg_event *p = aw_grow(k->memcg_events, &k->cap_memcg_events, k->nr_memcg_events,
					   sizeof(*p), 64);

	if (!p)
		return NULL;
	k->memcg_events = p;
	return &p[k->nr_memcg_events++];
}

int aw_memcg_events_record(struct aw_kernel *k)
{
	if (!any_limit(k))
		return 0;
	for (int m = 0; m < k->nr_memcgs; m++) {
		struct aw_memcg *mc = &k->memcg[m];
		struct aw_memcg_event *r;

		if (!memcmp(&mc->stat, &mc->stat_seen, sizeof(mc->stat)))
			continue;
		if (!(r = push(k)))
			return -1;
		r->event = k->event_index;
		r->memcg = m;
		r->d.pgsteal = mc->stat.pgsteal - mc->stat_seen.pgsteal;
		for (int t = 0; t < 2; t++)
			r->d.workingset_refault[t] = mc->stat.workingset_refault[t] - mc->stat_seen.workingset_refault[t];
		r->d.pgmajfault = mc->stat.pgmajfault - mc->stat_seen.pgmajfault;
		record_gens(k, m, r);
		mc->stat_seen = mc->stat;
	}
	return 0;
}

void aw_memcg_events_free(struct aw_kernel *k)
{
	free(k->memcg_events);
	k->memcg_events = NULL;
	k->nr_memcg_events = k->cap_memcg_events = 0;
}
