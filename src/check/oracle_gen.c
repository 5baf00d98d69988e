// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shadows of the mainline-only generation rules (6.14's "mm/mglru: rework
 * workingset protection"), which no packaged kernel tree (6.1, 6.12) can
 * check by running its text beside the model:
 *
 *  - two-touch-promotion (mm/vmscan.c: folio_update_gen()): the page-table
 *    walk promotes a folio only at its second sighting.  A folio with
 *    neither PG_referenced nor PG_workingset is only marked
 *    (PG_referenced, the refs counter cleared); one with either moves to
 *    the walk's generation, PG_referenced and the counter cleared,
 *    PG_workingset set; an isolated one (no generation) keeps its none.
 *    A sighting is a run of young leaves of one folio the walk cleared
 *    back to back in one PTE table (walk_pte_range()'s `last`), or one
 *    young PMD leaf.  The shadow takes each folio's flags at its first
 *    sighting in a walk, applies the rule once per sighting, and at the
 *    walk's end compares generation, PG_referenced and PG_workingset with
 *    the folio's own flags.  Its inputs are the young bits the walk
 *    cleared (ptep/pmdp_test_and_clear_young()) and the folio flags,
 *    never the walk's promotion counts or folio_update_gen()'s answer.
 *
 *  - folio-seq-placement (include/linux/mm_inline.h: lru_gen_folio_seq()):
 *    the sequence lru_gen_add_folio() adds a folio at, computed from the
 *    folio's flags as they are on entry (PG_active, PG_workingset,
 *    PG_swapcache, PG_reclaim, PG_dirty, PG_writeback) and the lruvec's
 *    max_seq and min_seq, and compared with the generation the folio's
 *    flags hold once it is added.
 *
 * Both run only under a profile with the mainline rules (two_touch,
 * AW_ADD_SEQ_FROM_MAX); 6.1 and 6.12 are checked by their own text.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "kernel.h"

/* one folio seen young by the current walk */
struct sighting {
	uint32_t pfn;
	int gen;		/* the shadow's generation, -1: none (isolated) */
	bool referenced, workingset;
};

struct aw_gen_shadow {
	bool in_walk;
	uint32_t last_pfn;		/* the current run's folio, AW_NIL: none */
	struct sighting *s;
	int nr, cap;
	uint32_t *index;		/* open addressing, pfn -> s[] index + 1 */
	uint32_t index_cap;
	/* folio-seq: the folio being added and where the rule puts it */
	const struct folio *adding;
	int want_gen;
	unsigned long want_seq;
};

void aw_gen_shadow_free(struct aw_gen_shadow *g)
{
	if (!g)
		return;
	free(g->s);
	free(g->index);
	free(g);
}

static struct aw_gen_shadow *shadow(struct aw_kernel *k)
{
	struct aw_gen_shadow **slot = aw_oracle_gen_slot(k);

	if (!slot)
		return NULL;
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot)
			aw_oracle_oom("generation rule shadows");
		(*slot)->last_pfn = AW_NIL;
	}
	return *slot;
}

/* ---- two-touch-promotion -------------------------------------------------- */

static uint32_t pfn_hash(uint32_t pfn, uint32_t cap)
{
	return (uint32_t)(((uint64_t)pfn * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static void index_rebuild(struct aw_gen_shadow *g, uint32_t cap)
{
	uint32_t *idx = calloc(cap, sizeof(*idx));

	if (!idx)
		aw_oracle_oom("two-touch shadow");
	free(g->index);
	g->index = idx;
	g->index_cap = cap;
	for (int i = 0; i < g->nr; i++) {
		uint32_t h = pfn_hash(g->s[i].pfn, cap);

		while (idx[h])
			h = (h + 1) & (cap - 1);
		idx[h] = (uint32_t)i + 1;
	}
}

/* the folio's record in this walk, taken from its flags at its first sighting */
static struct sighting *sighting_of(struct aw_gen_shadow *g, const struct folio *folio)
{
	uint32_t h;

	if ((uint32_t)(g->nr + 1) * 2 > g->index_cap)
		index_rebuild(g, g->index_cap ? g->index_cap * 2 : 256);
	for (h = pfn_hash(folio->pfn, g->index_cap); g->index[h]; h = (h + 1) & (g->index_cap - 1))
		if (g->s[g->index[h] - 1].pfn == folio->pfn)
			return &g->s[g->index[h] - 1];
	if (g->nr == g->cap) {
		int cap = g->cap ? g->cap * 2 : 128;
		struct sighting *a = realloc(g->s, cap * sizeof(*a));

		if (!a)
			aw_oracle_oom("two-touch shadow");
		g->s = a;
		g->cap = cap;
	}
	g->s[g->nr] = (struct sighting){
		.pfn = folio->pfn, .gen = folio_lru_gen(folio),
		.referenced = folio_test(folio, PG_referenced),
		.workingset = folio_test(folio, PG_workingset),
	};
	g->index[h] = (uint32_t)++g->nr;
	return &g->s[g->nr - 1];
}

void aw_or_walk_begin(struct aw_kernel *k, struct lru_gen_mm_walk *walk)
{
	struct aw_gen_shadow *g;

	if (!k->oracle || !k->prof->two_touch || !(g = shadow(k)))
		return;
	g->in_walk = true;
	g->last_pfn = AW_NIL;
	g->nr = 0;
	if (g->index)
		memset(g->index, 0, g->index_cap * sizeof(*g->index));
}

/*
 * A young leaf the walk cleared.  The walk clears only leaves of folios
 * of its lruvec (get_pfn_folio() comes first), so every one is a sighting
 * or the continuation of one.
 */
void aw_or_young_cleared(struct aw_kernel *k, uint64_t entry, bool pmd_level)
{
	struct aw_gen_shadow *g;
	struct sighting *s;
	struct folio *folio;
	uint64_t pfn;

	if (!k->oracle || !k->prof->two_touch || !(g = shadow(k)) || !g->in_walk)
		return;
	if (pmd_level && !pmd_trans_huge(entry))
		return;	/* a non-leaf PMD's accessed bit: no folio */
	pfn = pmd_level ? pmd_pfn(entry) : pte_pfn(entry);
	if (is_zero_pfn(pfn) || (pmd_level && is_huge_zero_pmd(entry)) || !(folio = pfn_folio(&k->mem, pfn)))
		return;
	pfn = folio->pfn;	/* a large folio's PTEs name its pages: the folio is the head */
	if (!pmd_level && pfn == g->last_pfn)
		return;	/* the same run: one walk_update_folio() */
	g->last_pfn = pmd_level ? AW_NIL : (uint32_t)pfn;
	s = sighting_of(g, folio);
	/* folio_update_gen(), mainline */
	if (!s->referenced && !s->workingset) {
		s->referenced = true;
	} else if (s->gen >= 0) {
		s->gen = lru_gen_from_seq(aw_lruvec(k, folio->memcg, folio->nid)->lrugen.max_seq);
		s->referenced = false;
		s->workingset = true;
	}
}

/* walk_pte_range() is over for a table: its last run was flushed */
void aw_or_walk_table_done(struct aw_kernel *k)
{
	struct aw_gen_shadow **slot = k->oracle ? aw_oracle_gen_slot(k) : NULL;

	if (slot && *slot)
		(*slot)->last_pfn = AW_NIL;
}

void aw_or_walk_end(struct aw_kernel *k, struct lru_gen_mm_walk *walk)
{
	struct aw_gen_shadow **slot = k->oracle ? aw_oracle_gen_slot(k) : NULL;
	struct aw_gen_shadow *g = slot ? *slot : NULL;

	if (!g || !g->in_walk)
		return;
	g->in_walk = false;
	/* one finding per walk: the first folio off the rule stands for the rest */
	for (int i = 0; i < g->nr; i++) {
		const struct sighting *s = &g->s[i];
		const struct folio *folio = pfn_folio(&k->mem, s->pfn);
		int gen = folio_lru_gen(folio);
		bool ref = folio_test(folio, PG_referenced), ws = folio_test(folio, PG_workingset);

		if (gen == s->gen && ref == s->referenced && ws == s->workingset)
			continue;
		aw_oracle_report(k, AW_OR_TWO_TOUCH,
				 gen != s->gen ? "the walk moved a folio where the two-touch rule does not"
					       : "the walk left a folio's reference flags off the two-touch rule",
				 "node %d memcg %d: folio 0x%x after the walk of mm %u: gen %d, PG_referenced %d, "
				 "PG_workingset %d; by folio_update_gen()'s rule, from its flags at its first "
				 "sighting: gen %d, PG_referenced %d, PG_workingset %d",
				 folio->nid, folio->memcg, s->pfn, walk->mm ? walk->mm->id : 0, gen, ref, ws,
				 s->gen, s->referenced, s->workingset);
		break;
	}
	g->nr = 0;
	if (g->index)
		memset(g->index, 0, g->index_cap * sizeof(*g->index));
}

/* ---- folio-seq-placement --------------------------------------------------- */

/* include/linux/mm_inline.h (mainline, 6.14+): lru_gen_folio_seq() */
static unsigned long mainline_folio_seq(const struct lruvec *lruvec, const struct folio *folio,
					bool reclaiming)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;
	int type = folio_is_file_lru(folio);
	unsigned long seq;
	int gen;

	if (folio_test(folio, PG_active))
		gen = MIN_NR_GENS - folio_test(folio, PG_workingset);
	else if (reclaiming)
		gen = MAX_NR_GENS;
	else if ((!folio_is_file_lru(folio) && !folio_test(folio, PG_swapcache)) ||
		 (folio_test(folio, PG_reclaim) &&
		  (folio_test(folio, PG_dirty) || folio_test(folio, PG_writeback))))
		gen = MIN_NR_GENS;
	else
		gen = MAX_NR_GENS - folio_test(folio, PG_workingset);
	seq = lrugen->max_seq - gen + 1;
	return seq > lrugen->min_seq[type] ? seq : lrugen->min_seq[type];
}

void aw_or_add_folio(struct aw_kernel *k, const struct lruvec *lruvec, const struct folio *folio,
		     bool reclaiming)
{
	struct aw_gen_shadow *g;

	if (!k->oracle || k->prof->add_folio_seq_form != AW_ADD_SEQ_FROM_MAX || !(g = shadow(k)))
		return;
	g->adding = folio;
	g->want_seq = mainline_folio_seq(lruvec, folio, reclaiming);
	g->want_gen = lru_gen_from_seq(g->want_seq);
}

/* the folio has a generation again: the one its flags hold now */
void aw_or_folio_added(struct aw_kernel *k, const struct folio *folio)
{
	struct aw_gen_shadow **slot = aw_oracle_gen_slot(k);
	struct aw_gen_shadow *g = slot ? *slot : NULL;
	int gen;

	if (!g || g->adding != folio)
		return;
	g->adding = NULL;
	gen = folio_lru_gen(folio);
	if (gen != g->want_gen)
		aw_oracle_report(k, AW_OR_FOLIO_SEQ, "lru_gen_add_folio() placed a folio off lru_gen_folio_seq()",
				 "node %d memcg %d: folio 0x%x was added to gen %d, but lru_gen_folio_seq() "
				 "puts it at seq %lu (gen %d) by its flags on entry",
				 folio->nid, folio->memcg, folio->pfn, gen, g->want_seq, g->want_gen);
}
