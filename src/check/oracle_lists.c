// SPDX-License-Identifier: GPL-2.0-only
/*
 * The structural oracle's list walk, read from both ends of a list at once
 * (docs/oracles.md, "The structural list walk"): check_lruvec() in
 * oracle.c asks it first and walks from the head, reporting, only when it
 * says no.
 */
#include <stdint.h>

#include "oracle.h"
#include "kernel.h"

/*
 * A well-formed member of lruvec's [gen][type] list (what walk_lists()
 * checks of each folio besides its links): a flag generation, its type,
 * its memcg and node.  Being on the list of [gen][type] is membership
 * itself: the folio keeps no copy of which list it is on.
 */
static bool lru_member_ok(const struct lruvec *lruvec, const struct folio *f, int type)
{
	return folio_lru_gen(f) >= 0 && folio_lru_gen(f) < MAX_NR_GENS && folio_is_file_lru(f) == type &&
	       f->memcg == lruvec->memcg && f->nid == lruvec->nid;
}

/*
 * A link that may be followed: a list_del()'d entry of kernel text holds
 * LIST_POISON (above the user address space), and walk_lists() never
 * follows a prev link, only compares it.
 */
static bool lru_link_plausible(const struct list_head *h)
{
	uintptr_t a = (uintptr_t)h;

	return a >= 4096 && a < (1ULL << 47) && !(a & 7);
}

/*
 * oracle.c's walk_lists()' verdict on one list when it finds nothing,
 * reached from both ends at once: the list walk is a chain of cache
 * misses, one per folio, and two chains (next links from the head, prev
 * links from its tail) overlap their misses.  True only if walk_lists()
 * would pass the list: from the front each folio's prev is the one before
 * it, from the back each folio's next is the one after it, where the two
 * meet both links agree, every folio is a well-formed member, and there
 * are no more folios than limit (walk_lists()' cycle guard); so following
 * next links from the head meets exactly these folios, each with the prev
 * walk_lists() wants, and comes back to the head, whose prev is the last.
 * Adds each folio's pages to by_flag[gen * ANON_AND_FILE + type].  False
 * on anything else, having
 * reported nothing: walk_lists() then finds and reports it as ever.
 */
bool aw_or_list_well_formed(const struct lruvec *lruvec, const struct list_head *head, int type,
			    uint64_t limit, long *by_flag)
{
	const struct list_head *f = head, *b = head;	/* the last reached from the front, from the back */
	uint64_t seen = 0;

	for (;;) {
		const struct list_head *next = f->next, *prev;
		const struct folio *folio;

		if (next == b)
			return b->prev == f;
		folio = list_entry(next, const struct folio, lru);
		if (next->prev != f || !lru_member_ok(lruvec, folio, type) || ++seen > limit)
			return false;
		by_flag[folio_lru_gen(folio) * ANON_AND_FILE + type] += folio_nr_pages(folio);
		f = next;
		prev = b->prev;
		if (prev == f)
			return f->next == b;
		if (!lru_link_plausible(prev))
			return false;
		folio = list_entry(prev, const struct folio, lru);
		if (prev->next != b || !lru_member_ok(lruvec, folio, type) || ++seen > limit)
			return false;
		by_flag[folio_lru_gen(folio) * ANON_AND_FILE + type] += folio_nr_pages(folio);
		b = prev;
	}
}
