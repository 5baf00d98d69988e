// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exact-agreement oracle: kernel text and the model, each on its own
 * copy of the same machine after the same events, must be in the same
 * state after every aging pass, eviction, refault and folio placement the
 * text ran:
 *
 *   per lruvec	max_seq, min_seq, nr_pages, the walk counters (by the
 *		kernel's names), both Bloom filter levels for the two
 *		live generations, the mm_state's seq and position
 *   per memcg	the mm list, in order
 *   per folio	presence (evicted folios are gone), flags (the LRU and
 *		reference bits, the generation and refs fields), and
 *		each generation list, in order
 *   per lruvec	also the timestamps and the tier counters (the PID
 *		controller's inputs, evictions and refaults by tier)
 *   machine	every page-table entry (accessed and dirty bits, swap
 *		entries, page-cache shadows) and every swap slot's shadow
 *   per node	folios evicted, and the pages lru_gen_refault() counted
 *		as WORKINGSET_REFAULT (workingset_refaults)
 *
 * and, before the state, what the reclaim loop decided, call by call
 * (struct aw_reclaim_log): each memcg reclaim of an lruvec (pages
 * reclaimed, the memcg LRU rotation asked, max_seq and min_seq after it)
 * and each debugfs '+' (run_aging()'s errno), also inside a fault's
 * charge; and each reference check of shrink_folio_list() (the verdict
 * of folio_check_references(), the mappings found young, the folio's
 * flags after it: struct aw_refs_log).
 *
 * The first difference is reported with the field and both values; the
 * lockstep engine stops comparing the pair after it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbind.h"
#include "ktext_api.h"

int aw_kbind_agree(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len);

#define BLOOM_WORDS	((1UL << BLOOM_FILTER_SHIFT) / 64)

/* the flags both keep alike: the rest are the model's own bookkeeping (PG_zeroed) */
#define AW_BIT(n)	(1UL << (n))
#define AGREE_FLAGS	(AW_BIT(PG_lru) | AW_BIT(PG_active) | AW_BIT(PG_referenced) | AW_BIT(PG_workingset) | \
			 AW_BIT(PG_swapbacked) | AW_BIT(PG_dirty) | AW_BIT(PG_reclaim) | AW_BIT(PG_swapcache) | \
			 AW_BIT(PG_anon) | AW_BIT(PG_unevictable) | AW_BIT(PG_mlocked) | LRU_GEN_MASK | LRU_REFS_MASK)

int aw_kbind_differ(char *msg, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int agree_bloom(const struct lruvec *m, const struct lruvec *t, int level, unsigned long seq,
		       char *msg, size_t len)
{
	const unsigned long *a = m->mm_state.filters[level][filter_gen_from_seq(seq)];
	const unsigned long *b = t->mm_state.filters[level][filter_gen_from_seq(seq)];
	const char *name = level == BLOOM_FILTER_PMD ? "PMD" : "PUD";

	if (!a != !b)
		return aw_kbind_differ(msg, len, "memcg %d node %d: %s filter for seq %lu: model %s, kernel text %s",
			      m->memcg, m->nid, name, seq, a ? "allocated" : "none", b ? "allocated" : "none");
	/* most filters agree: libc's memcmp() over the whole, then word by word to name the first difference */
	if (!a || !memcmp(a, b, BLOOM_WORDS * sizeof(*a)))
		return 0;
	for (unsigned long w = 0; w < BLOOM_WORDS; w++)
		if (a[w] != b[w])
			return aw_kbind_differ(msg, len, "memcg %d node %d: %s filter for seq %lu, bits %lu..%lu: "
				      "model %016lx, kernel text %016lx", m->memcg, m->nid, name, seq, w * 64,
				      w * 64 + 63, a[w], b[w]);
	return 0;
}

/* The PID controller's inputs and the eviction/refault counters by tier (lent with the scalars). */
static int agree_tiers(const struct lruvec *m, const struct lruvec *t, char *msg, size_t len)
{
	static const char *const names[] = { "avg_refaulted", "avg_total", "protected", "evicted", "refaulted" };
	const struct lru_gen_folio *a = &m->lrugen, *b = &t->lrugen;
	const unsigned long (*x[])[MAX_NR_TIERS] = { a->avg_refaulted, a->avg_total, a->protected, a->evicted,
						     a->refaulted };
	const unsigned long (*y[])[MAX_NR_TIERS] = { b->avg_refaulted, b->avg_total, b->protected, b->evicted,
						     b->refaulted };

	for (int c = 0; c < 5; c++)
		for (int type = 0; type < ANON_AND_FILE; type++)
			for (int tier = 0; tier < MAX_NR_TIERS; tier++)
				if (x[c][type][tier] != y[c][type][tier])
					return aw_kbind_differ(msg, len, "memcg %d node %d: %s[%s][tier %d] model %lu, "
						      "kernel text %lu", m->memcg, m->nid, names[c],
						      type ? "file" : "anon", tier, x[c][type][tier], y[c][type][tier]);
	return 0;
}

static int agree_lruvec(const struct lruvec *m, const struct lruvec *t, bool pud, char *msg, size_t len)
{
	const struct lru_gen_folio *a = &m->lrugen, *b = &t->lrugen;

	if (a->max_seq != b->max_seq)
		return aw_kbind_differ(msg, len, "memcg %d node %d: max_seq model %lu, kernel text %lu", m->memcg, m->nid,
			      a->max_seq, b->max_seq);
	for (int type = 0; type < ANON_AND_FILE; type++)
		if (a->min_seq[type] != b->min_seq[type])
			return aw_kbind_differ(msg, len, "memcg %d node %d: min_seq[%s] model %lu, kernel text %lu",
				      m->memcg, m->nid, type ? "file" : "anon", a->min_seq[type], b->min_seq[type]);
	for (int gen = 0; gen < MAX_NR_GENS; gen++)
		for (int type = 0; type < ANON_AND_FILE; type++)
			if (a->nr_pages[gen][type] != b->nr_pages[gen][type])
				return aw_kbind_differ(msg, len, "memcg %d node %d: nr_pages[gen %d][%s] model %ld, "
					      "kernel text %ld", m->memcg, m->nid, gen, type ? "file" : "anon",
					      a->nr_pages[gen][type], b->nr_pages[gen][type]);
	for (int gen = 0; gen < MAX_NR_GENS; gen++)
		if (a->timestamps[gen] != b->timestamps[gen])
			return aw_kbind_differ(msg, len, "memcg %d node %d: timestamps[gen %d] model %llu, kernel text %llu",
				      m->memcg, m->nid, gen, (unsigned long long)a->timestamps[gen],
				      (unsigned long long)b->timestamps[gen]);
	if (agree_tiers(m, t, msg, len))
		return -1;
	if (m->mm_state.seq != t->mm_state.seq)
		return aw_kbind_differ(msg, len, "memcg %d node %d: mm_state seq model %lu, kernel text %lu", m->memcg,
			      m->nid, m->mm_state.seq, t->mm_state.seq);
	for (unsigned long seq = a->max_seq; seq <= a->max_seq + 1; seq++)
		if (agree_bloom(m, t, BLOOM_FILTER_PMD, seq, msg, len) ||
		    (pud && agree_bloom(m, t, BLOOM_FILTER_PUD, seq, msg, len)))
			return -1;
	return 0;
}

/*
 * The walk counters the tree has, by its names (stat_of: the model's
 * counter of each, resolved at bind time: a name lookup here, a strcmp()
 * per counter and lruvec after every placed folio, cost agewalk_fuzz_ktext
 * a tenth of its throughput under libFuzzer's strcmp hook).
 */
static int agree_stats(const struct lruvec *m, const struct lruvec *t, const struct aw_ktext_ops *ops,
		       const int *stat_of, char *msg, size_t len)
{
	for (int i = 0; i < ops->nr_mm_stats; i++) {
		int s = stat_of[i];

		if (s >= 0 && m->mm_state.stats[s] != t->mm_state.stats[s])
			return aw_kbind_differ(msg, len, "memcg %d node %d: %s model %lu, kernel text %lu", m->memcg, m->nid,
				      ops->mm_stat_names[i], m->mm_state.stats[s], t->mm_state.stats[s]);
	}
	return 0;
}

/* an mm id, 0 for the list head, -1 for none yet (NULL: lru_gen_add_mm() treats it apart) */
static int mm_at(const struct lru_gen_mm_list *list, const struct list_head *pos)
{
	if (!pos)
		return -1;
	return pos == &list->fifo ? 0 : (int)list_entry(pos, struct mm_struct, lru_gen.list)->id;
}

/* The mm list in order, and where each lruvec's iteration stands. */
static int agree_mm_list(struct aw_kernel *model, struct aw_kernel *text, const struct aw_ktext_ops *ops,
			 struct aw_ktext *kt, char *msg, size_t len)
{
	for (int memcg = 0; memcg < model->nr_memcgs; memcg++) {
		const struct list_head *head = &model->mm_list[memcg].fifo, *pos = head->next;
		int ids[256], n = ops->mm_list(kt, memcg, ids, 256), i;

		for (i = 0; pos != head; pos = pos->next, i++) {
			uint32_t id = list_entry(pos, struct mm_struct, lru_gen.list)->id;

			if (i >= n || (i < 256 && (uint32_t)ids[i] != id))
				return aw_kbind_differ(msg, len, "memcg %d: mm list entry %d: model mm %u, kernel text %s%d",
					      memcg, i, id, i >= n ? "none" : "mm ", i >= n ? 0 : ids[i]);
		}
		if (i != n)
			return aw_kbind_differ(msg, len, "memcg %d: mm list: model %d mms, kernel text %d", memcg, i, n);
		for (int nid = 0; nid < model->nr_nodes; nid++) {
			const struct lru_gen_mm_state *ms = &aw_lruvec(model, memcg, nid)->mm_state;
			unsigned long seq;
			int h, t;

			ops->mm_state(kt, memcg, nid, &seq, &h, &t);
			if (mm_at(&model->mm_list[memcg], ms->head) != h ||
			    mm_at(&model->mm_list[memcg], ms->tail) != t)
				return aw_kbind_differ(msg, len, "memcg %d node %d: mm_state head/tail model mm %d/%d, "
					      "kernel text mm %d/%d", memcg, nid,
					      mm_at(&model->mm_list[memcg], ms->head),
					      mm_at(&model->mm_list[memcg], ms->tail), h, t);
		}
	}
	return 0;
}

/* Every generation list, folio by folio, in order: membership, order and flags at once. */
static int agree_lists(const struct lruvec *m, const struct lruvec *t, char *msg, size_t len)
{
	for (int gen = 0; gen < MAX_NR_GENS; gen++) {
		for (int type = 0; type < ANON_AND_FILE; type++) {
			const struct list_head *ha = &m->lrugen.folios[gen][type], *a = ha->next;
			const struct list_head *hb = &t->lrugen.folios[gen][type], *b = hb->next;

			for (int i = 0; a != ha || b != hb; a = a->next, b = b->next, i++) {
				const struct folio *fa = a != ha ? list_entry(a, struct folio, lru) : NULL;
				const struct folio *fb = b != hb ? list_entry(b, struct folio, lru) : NULL;

				if (!fa || !fb || fa->pfn != fb->pfn)
					return aw_kbind_differ(msg, len, "memcg %d node %d: list gen %d %s, entry %d: model "
						      "pfn %s%x, kernel text pfn %s%x", m->memcg, m->nid, gen,
						      type ? "file" : "anon", i, fa ? "0x" : "none ",
						      fa ? fa->pfn : 0, fb ? "0x" : "none ", fb ? fb->pfn : 0);
				if ((fa->flags ^ fb->flags) & AGREE_FLAGS)
					return aw_kbind_differ(msg, len, "folio pfn 0x%x: flags model %#lx, kernel text %#lx",
						      fa->pfn, fa->flags & AGREE_FLAGS, fb->flags & AGREE_FLAGS);
			}
		}
	}
	return 0;
}

/* One pfn of both machines: a folio on both or on neither, with the same flags. */
static int agree_pfn(const struct folio *fa, const struct folio *fb, uint64_t p, char *msg, size_t len)
{
	/* a free pfn of a used block has a zeroed struct: present means it names itself */
	fa = fa && fa->pfn == p ? fa : NULL;
	fb = fb && fb->pfn == p ? fb : NULL;
	if (!fa != !fb)
		return aw_kbind_differ(msg, len, "pfn 0x%llx: model %s, kernel text %s", (unsigned long long)p,
			      fa ? "a folio" : "free", fb ? "a folio" : "free");
	if (fa && (fa->flags ^ fb->flags) & AGREE_FLAGS)
		return aw_kbind_differ(msg, len, "folio pfn 0x%llx: flags model %#lx, kernel text %#lx",
			      (unsigned long long)p, fa->flags & AGREE_FLAGS, fb->flags & AGREE_FLAGS);
	return 0;
}

/* pfn_folio() of pfn i of a block (src/sim/folio.h), the node already found */
static const struct folio *block_folio(const struct aw_block *blk, unsigned int i)
{
	if (!blk->folios || blk->state == AW_BLOCK_UNUSED)
		return NULL;
	return blk->state == AW_BLOCK_THP ? &blk->folios[0] : &blk->folios[i];
}

/*
 * Two blocks of order-0 folios that agree pfn by pfn as agree_pfn() sees
 * it, in one pass without its calls and tests per pfn (false: look again
 * the slow way, which names the first difference).  Every small block
 * is read whole after each aging pass and eviction.
 */
static bool small_blocks_agree(const struct aw_block *ba, const struct aw_block *bb, uint64_t pfn)
{
	const struct folio *fa = ba->folios, *fb = bb->folios;
	unsigned long differ = 0;

	if (ba->state != AW_BLOCK_SMALL || bb->state != AW_BLOCK_SMALL || !fa || !fb)
		return false;
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		bool pa = fa[i].pfn == pfn + i, pb = fb[i].pfn == pfn + i;

		differ |= (unsigned long)(pa != pb) | ((fa[i].flags ^ fb[i].flags) & AGREE_FLAGS & -(unsigned long)pa);
	}
	return !differ;
}

/*
 * Folios on no list (isolated for good, unevictable, being freed):
 * presence and flags, pfn by pfn, block by block of the two machines'
 * identical node layouts.  Where neither block holds order-0 folios only
 * the first pfn can name a folio (a THP's tail pfns find its head, which
 * names its own pfn): the oracle runs after every fault that places a
 * folio, and a pfn-by-pfn look through THP blocks cost agewalk_fuzz_ktext
 * a third of its throughput (docs/results.md, 2026-12-04).
 */
static int agree_folios(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	for (int nid = 0; nid < model->mem.nr_nodes; nid++) {
		const struct aw_node_mem *na = &model->mem.node[nid], *nb = &text->mem.node[nid];

		if (na->start_pfn != nb->start_pfn || na->spanned != nb->spanned)
			return aw_kbind_differ(msg, len, "node %d: pfns model %#llx+%llu, kernel text %#llx+%llu", nid,
				      (unsigned long long)na->start_pfn, (unsigned long long)na->spanned,
				      (unsigned long long)nb->start_pfn, (unsigned long long)nb->spanned);
		for (uint64_t b = 0; b * HPAGE_PMD_NR < na->spanned; b++) {
			const struct aw_block *ba = &na->blocks[b], *bb = &nb->blocks[b];
			uint64_t pfn = na->start_pfn + b * HPAGE_PMD_NR;
			unsigned int n = ba->state == AW_BLOCK_SMALL || bb->state == AW_BLOCK_SMALL ? HPAGE_PMD_NR : 1;

			if (!ba->folios && !block_folio(bb, 0) && b >= na->next_block)
				break;	/* never used on either side from here on */
			if (n == HPAGE_PMD_NR && small_blocks_agree(ba, bb, pfn))
				continue;
			for (unsigned int i = 0; i < n; i++)
				if (agree_pfn(block_folio(ba, i), block_folio(bb, i), pfn + i, msg, len))
					return -1;
		}
	}
	return 0;
}

/*
 * After placements alone (folio_add_lru(): the tree's lru_gen_add_folio()
 * on a new folio), the folios placed, pfn by pfn as agree_folios() looks
 * at them.  A placement writes only its folio's flags and its lruvec's
 * list and counts, which the caller compared; a refault its folio's flags
 * and its lruvec's tier counters; a change to the mm list the list and
 * the mm_state.  None maps, unmaps or leaves a shadow, so after them the
 * page tables (and after placements alone every other folio and swap
 * slot) are as the last look found them but for the model's own code,
 * run alike on both sides of the pair: what the oracle never compares
 * after by itself, since an event that runs no text is not looked after.
 * Comparing the whole machine after each of those cost agewalk_fuzz_ktext
 * a quarter of its time (docs/results.md, session 20).
 */
static int agree_placed(struct aw_kernel *model, struct aw_kernel *text, const uint32_t *pfns, int nr,
			char *msg, size_t len)
{
	for (int i = 0; i < nr; i++)
		if (agree_pfn(pfn_folio(&model->mem, pfns[i]), pfn_folio(&text->mem, pfns[i]), pfns[i], msg, len))
			return -1;
	return 0;
}

/* Table id of both machines, entry by entry. */
static int agree_table(struct aw_kernel *model, struct aw_kernel *text, uint32_t id, char *msg, size_t len)
{
	const uint64_t *a = aw_table(&model->pt, id)->e, *b = aw_table(&text->pt, id)->e;

	if (!memcmp(a, b, sizeof(struct aw_ptable)))
		return 0;
	for (int i = 0; i < PTRS_PER_PTE; i++)
		if (a[i] != b[i])
			return aw_kbind_differ(msg, len, "page table %u entry %d: model %#llx, kernel text %#llx", id, i,
				      (unsigned long long)a[i], (unsigned long long)b[i]);
	return 0;
}

/*
 * Every page table, entry by entry: accessed and dirty bits, swap entries
 * and the page-cache shadows a reclaim leaves (the refs and workingset of
 * the evicted folio).  Both machines allocate tables in the same order
 * while they agree, so a table id names the same table on both.
 */
static int agree_tables(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	if (model->pt.nr != text->pt.nr)
		return aw_kbind_differ(msg, len, "page tables allocated: model %u, kernel text %u", model->pt.nr, text->pt.nr);
	for (uint32_t id = 1; id < model->pt.nr; id++)
		if (agree_table(model, text, id, msg, len))
			return -1;
	return 0;
}

/* seen[] (and the audit's copies) for ids below nr; false if out of memory */
static bool tables_fit(struct aw_kbind_tables *t, uint32_t nr)
{
	uint32_t cap = t->cap ? t->cap : 64;

	if (nr <= t->cap)
		return true;
	while (cap < nr)
		cap *= 2;
	for (int s = 0; s < 2; s++) {
		uint64_t *seen = realloc(t->seen[s], cap * sizeof(*seen));

		if (!seen)
			return false;
		memset(seen + t->cap, 0, (cap - t->cap) * sizeof(*seen));
		t->seen[s] = seen;
		if (t->audit) {
			struct aw_ptable *copy = realloc(t->copy[s], cap * sizeof(*copy));

			if (!copy)
				return false;
			memset(copy + t->cap, 0, (cap - t->cap) * sizeof(*copy));
			t->copy[s] = copy;
		}
	}
	t->cap = cap;
	return true;
}

/*
 * AGEWALK_KBIND_AUDIT_TABLES: a table whose write count stood still on
 * one machine since the last look must hold what that look copied, or
 * some write of an entry was not counted and agree_tables_since() could
 * miss a difference (the tests run the corpus so).
 */
static int audit_tables(struct aw_kbind_tables *t, struct aw_kernel *model, struct aw_kernel *text, char *msg,
			size_t len)
{
	struct aw_kernel *side[2] = { model, text };

	for (int s = 0; s < 2; s++) {
		const struct aw_pgtable_alloc *pa = &side[s]->pt;

		for (uint32_t id = 1; id < pa->nr; id++) {
			if (pa->writes[id] == t->seen[s][id] &&
			    memcmp(&t->copy[s][id], aw_table(pa, id), sizeof(struct aw_ptable)))
				return aw_kbind_differ(msg, len, "page table %u of the %s changed without a write "
					      "counted since the last look (AGEWALK_KBIND_AUDIT_TABLES)", id,
					      s ? "kernel text" : "model");
			memcpy(&t->copy[s][id], aw_table(pa, id), sizeof(struct aw_ptable));
		}
	}
	return 0;
}

/*
 * agree_tables() for the tables either machine wrote since the oracle
 * last compared them (pgtable.h's writes[]: the model's own code counts
 * every write of an entry, and so does the text's, through
 * ktext_objects.h's young-bit helpers): the rest hold on both what that
 * look found equal.  After an aging pass or an eviction most tables are
 * untouched, and reading every table after each cost agewalk_fuzz_ktext
 * a tenth of its time (docs/results.md, session 21).
 */
static int agree_tables_since(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	struct aw_kbind_tables *t = aw_kbind_tables(text);
	const uint64_t *ma = model->pt.writes, *mb = text->pt.writes;

	if (model->pt.nr != text->pt.nr)
		return aw_kbind_differ(msg, len, "page tables allocated: model %u, kernel text %u", model->pt.nr, text->pt.nr);
	if (!tables_fit(t, model->pt.nr))
		return agree_tables(model, text, msg, len);	/* no memory to remember: compare them all */
	if (t->audit && audit_tables(t, model, text, msg, len))
		return -1;
	for (uint32_t id = 1; id < model->pt.nr; id++) {
		if (ma[id] == t->seen[0][id] && mb[id] == t->seen[1][id])
			continue;
		if (agree_table(model, text, id, msg, len))
			return -1;
		t->seen[0][id] = ma[id];
		t->seen[1][id] = mb[id];
	}
	return 0;
}

/* Swap slots: the shadow each eviction left (generation, tier, workingset) and the map count. */
static int agree_swap(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	if (model->swap_next != text->swap_next || model->swap_used != text->swap_used ||
	    model->swap_free != text->swap_free)
		return aw_kbind_differ(msg, len, "swap slots used: model %u, kernel text %u", model->swap_used, text->swap_used);
	for (uint32_t i = 0; i < model->swap_next; i++) {
		const struct aw_swap_slot *a = &model->swap[i], *b = &text->swap[i];

		if (a->next != b->next || a->version != b->version || a->evict_seq != b->evict_seq ||
		    a->memcg != b->memcg || a->nid != b->nid || a->workingset != b->workingset ||
		    a->refs != b->refs)
			return aw_kbind_differ(msg, len, "swap slot %u: model seq %u refs %u workingset %u, kernel text seq %u "
				      "refs %u workingset %u", i, a->evict_seq, a->refs, a->workingset, b->evict_seq,
				      b->refs, b->workingset);
	}
	return 0;
}

static const char *errno_name(long err, char *buf, size_t len)
{
	if (err == -ERANGE)
		return "-ERANGE";
	if (err == -EINVAL)
		return "-EINVAL";
	snprintf(buf, len, "%ld", err);
	return buf;
}

static int agree_call(unsigned long i, const struct aw_reclaim_call *a, const struct aw_reclaim_call *b,
		      char *msg, size_t len)
{
	char x[24], y[24];

	if (a->kind != b->kind || a->memcg != b->memcg || a->nid != b->nid || a->priority != b->priority)
		return aw_kbind_differ(msg, len, "reclaim call %lu: model %s memcg %d node %d priority %d, kernel text %s "
			      "memcg %d node %d priority %d", i, a->kind == AW_RC_AGE ? "run_aging" : "shrink",
			      a->memcg, a->nid, a->priority, b->kind == AW_RC_AGE ? "run_aging" : "shrink",
			      b->memcg, b->nid, b->priority);
	if (a->kind == AW_RC_AGE && a->result != b->result)
		return aw_kbind_differ(msg, len, "reclaim call %lu: run_aging() on memcg %d node %d: model %s, kernel text %s",
			      i, a->memcg, a->nid, errno_name(a->result, x, sizeof(x)),
			      errno_name(b->result, y, sizeof(y)));
	if (a->result != b->result)
		return aw_kbind_differ(msg, len, "reclaim call %lu: lru_gen_shrink_lruvec() memcg %d node %d priority %d: "
			      "nr_reclaimed model %ld, kernel text %ld", i, a->memcg, a->nid, a->priority,
			      a->result, b->result);
	if (b->rotate >= 0 && a->rotate != b->rotate)
		return aw_kbind_differ(msg, len, "reclaim call %lu: lru_gen_shrink_lruvec() memcg %d node %d priority %d: "
			      "rotate model %d, kernel text %d", i, a->memcg, a->nid, a->priority, a->rotate,
			      b->rotate);
	if (a->max_seq != b->max_seq || a->min_seq[0] != b->min_seq[0] || a->min_seq[1] != b->min_seq[1])
		return aw_kbind_differ(msg, len, "reclaim call %lu (%s memcg %d node %d priority %d): max_seq/min_seq "
			      "model %lu/%lu/%lu, kernel text %lu/%lu/%lu", i,
			      a->kind == AW_RC_AGE ? "run_aging" : "shrink", a->memcg, a->nid, a->priority,
			      a->max_seq, a->min_seq[0], a->min_seq[1], b->max_seq, b->min_seq[0], b->min_seq[1]);
	return 0;
}

/*
 * The entries of two ring logs of cap entries (model_total and
 * text_total ever written) that both sides wrote since *seen: from
 * *from to the return value.  Entries the ring has overwritten are only
 * in the logs' sums; *seen moves to the end.
 */
static unsigned long log_since(unsigned long model_total, unsigned long text_total, unsigned long cap,
			       unsigned long *seen, unsigned long *from)
{
	unsigned long n = model_total < text_total ? model_total : text_total;

	*from = *seen;
	if (n > cap && *from < n - cap)
		*from = n - cap;
	*seen = n;
	return n;
}

/* The reclaim loop's decisions since the last check, call by call, then their sums. */
static int agree_reclaim(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	const struct aw_reclaim_log *a = &model->reclaim_log;
	struct aw_reclaim_log *b = &text->reclaim_log;
	unsigned long from, n = log_since(a->total, b->total, AW_RECLAIM_LOG, &b->seen, &from);

	for (unsigned long i = from; i < n; i++)
		if (agree_call(i, &a->calls[i % AW_RECLAIM_LOG], &b->calls[i % AW_RECLAIM_LOG], msg, len))
			return -1;
	if (a->total != b->total)
		return aw_kbind_differ(msg, len, "reclaim calls (memcg reclaim of an lruvec, run_aging()): model %lu, "
			      "kernel text %lu", a->total, b->total);
	if (a->reclaimed != b->reclaimed || a->refused != b->refused)
		return aw_kbind_differ(msg, len, "reclaim: pages reclaimed model %lu, kernel text %lu; refused run_aging() "
			      "model %lu, kernel text %lu", a->reclaimed, b->reclaimed, a->refused, b->refused);
	return 0;
}

static const char *folioref_name(enum folio_references ref)
{
	static const char *const names[] = { "FOLIOREF_RECLAIM", "FOLIOREF_RECLAIM_CLEAN", "FOLIOREF_KEEP",
					     "FOLIOREF_ACTIVATE" };

	return (unsigned int)ref < sizeof(names) / sizeof(names[0]) ? names[ref] : "?";
}

/*
 * shrink_folio_list()'s reference checks since the last look, check by
 * check (struct aw_refs_log): the folio, folio_check_references()'s
 * verdict, the mappings the machine found young, the folio's flags after
 * it; then the counts by verdict.  The verdict itself leaves no trace in
 * 6.1/6.12's state (the putback activates kept folios too), so only this
 * sees a wrong one.
 */
static int agree_refs(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	const struct aw_refs_log *a = &model->refs_log;
	struct aw_refs_log *b = &text->refs_log;
	unsigned long from, n = log_since(a->total, b->total, AW_REFS_LOG, &b->seen, &from);

	for (unsigned long i = from; i < n; i++) {
		const struct aw_refs_check *x = &a->checks[i % AW_REFS_LOG], *y = &b->checks[i % AW_REFS_LOG];

		if (x->pfn != y->pfn)
			return aw_kbind_differ(msg, len, "reference check %lu: model on pfn %u, kernel text on pfn %u", i,
				      x->pfn, y->pfn);
		if (x->young != y->young)
			return aw_kbind_differ(msg, len, "reference check %lu (pfn %u): young mappings model %d, kernel text %d",
				      i, x->pfn, x->young, y->young);
		if (x->ref != y->ref)
			return aw_kbind_differ(msg, len, "reference check %lu (pfn %u, %d young): folio_check_references() "
				      "model %s, kernel text %s", i, x->pfn, x->young, folioref_name(x->ref),
				      folioref_name(y->ref));
		if ((x->flags ^ y->flags) & AGREE_FLAGS)
			return aw_kbind_differ(msg, len, "reference check %lu (pfn %u, %s): flags after it model %#lx, "
				      "kernel text %#lx", i, x->pfn, folioref_name(x->ref), x->flags & AGREE_FLAGS,
				      y->flags & AGREE_FLAGS);
	}
	if (a->total != b->total)
		return aw_kbind_differ(msg, len, "reference checks (folio_check_references()): model %lu, kernel text %lu",
			      a->total, b->total);
	for (int r = FOLIOREF_RECLAIM; r <= FOLIOREF_ACTIVATE; r++)
		if (a->by_ref[r] != b->by_ref[r])
			return aw_kbind_differ(msg, len, "reference checks returning %s: model %lu, kernel text %lu",
				      folioref_name(r), a->by_ref[r], b->by_ref[r]);
	return 0;
}

/*
 * Each pass's mm walks, forced ones and sticky forced ones (aging.c's
 * account_walk() on the walker's pass; the text's walk_mm() calls, which
 * kbind.c adds to the pass whose walker ran: a split pass's per step).
 * A split pass still open compares too: both sides have counted the
 * steps taken so far.
 */
static int agree_walks(const struct aw_node_stats *m, const struct aw_node_stats *t, int nid, char *msg,
		       size_t len)
{
	if (m->nr_passes != t->nr_passes)
		return aw_kbind_differ(msg, len, "node %d: aging passes model %d, kernel text %d", nid, m->nr_passes,
			      t->nr_passes);
	for (int i = 0; i < m->nr_passes; i++) {
		const struct aw_pass *a = &m->passes[i], *b = &t->passes[i];

		if (a->walks != b->walks || a->forced_walks != b->forced_walks ||
		    a->sticky_forced_walks != b->sticky_forced_walks)
			return aw_kbind_differ(msg, len, "node %d pass %d: mm walks (forced, sticky) model %lu (%lu, %lu), "
				      "kernel text %lu (%lu, %lu)", nid, a->pass, a->walks, a->forced_walks,
				      a->sticky_forced_walks, b->walks, b->forced_walks, b->sticky_forced_walks);
	}
	return 0;
}

int aw_kbind_agree(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	struct aw_ktext *kt;
	unsigned long calls, *checked;
	const struct aw_ktext_ops *ops = aw_kbind_ops(text, &kt, &calls, &checked);
	const int *stat_of;
	uint32_t placed[AW_KBIND_PLACED];
	enum aw_kbind_look look;
	int nr_placed;

	if (!ops)
		return 0;
	if (agree_reclaim(model, text, msg, len) || agree_refs(model, text, msg, len))
		return -1;
	if (calls == *checked)
		return 0;	/* the text has not aged or evicted since the last check */
	*checked = calls;
	look = aw_kbind_since(text, placed, &nr_placed);
	stat_of = aw_kbind_stat_of(text);
	if (model->nr_nodes != text->nr_nodes || model->nr_memcgs != text->nr_memcgs)
		return aw_kbind_differ(msg, len, "the machines differ in shape");
	for (int memcg = 0; memcg < model->nr_memcgs; memcg++) {
		for (int nid = 0; nid < model->nr_nodes; nid++) {
			const struct lruvec *m = aw_lruvec(model, memcg, nid), *t = aw_lruvec(text, memcg, nid);

			if (agree_lruvec(m, t, ops->series, msg, len) || agree_stats(m, t, ops, stat_of, msg, len) ||
			    agree_lists(m, t, msg, len))
				return -1;
		}
	}
	for (int nid = 0; nid < model->nr_nodes; nid++) {
		if (model->node_stats[nid].evicted != text->node_stats[nid].evicted)
			return aw_kbind_differ(msg, len, "node %d: folios evicted model %lu, kernel text %lu", nid,
				      model->node_stats[nid].evicted, text->node_stats[nid].evicted);
		/*
		 * The report's promotions and walks: the text's counted by its
		 * call hooks (folio_update_gen(), folio_activate(), walk_mm()),
		 * so a table never shows a figure only one side counts alike.
		 */
		if (model->node_stats[nid].promoted != text->node_stats[nid].promoted)
			return aw_kbind_differ(msg, len, "node %d: folios promoted model %lu, kernel text %lu", nid,
				      model->node_stats[nid].promoted, text->node_stats[nid].promoted);
		if (agree_walks(&model->node_stats[nid], &text->node_stats[nid], nid, msg, len))
			return -1;
		/* lru_gen_refault()'s WORKINGSET_REFAULT (the text's mod_lruvec_state()) */
		if (model->node_stats[nid].workingset_refaults != text->node_stats[nid].workingset_refaults)
			return aw_kbind_differ(msg, len, "node %d: workingset_refaults model %lu, kernel text %lu", nid,
				      model->node_stats[nid].workingset_refaults,
				      text->node_stats[nid].workingset_refaults);
	}
	if (agree_mm_list(model, text, ops, kt, msg, len))
		return -1;
	if (look == AW_KBIND_LOOK_PLACED)
		return agree_placed(model, text, placed, nr_placed, msg, len);
	if (agree_folios(model, text, msg, len) ||
	    (look == AW_KBIND_LOOK_WHOLE && agree_tables_since(model, text, msg, len)))
		return -1;
	return agree_swap(model, text, msg, len);
}

int aw_kbind_agree_machine(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	if (model->nr_nodes != text->nr_nodes || model->nr_memcgs != text->nr_memcgs)
		return aw_kbind_differ(msg, len, "the machines differ in shape");
	for (int memcg = 0; memcg < model->nr_memcgs; memcg++) {
		for (int nid = 0; nid < model->nr_nodes; nid++) {
			const struct lruvec *m = aw_lruvec(model, memcg, nid), *t = aw_lruvec(text, memcg, nid);

			if (agree_lruvec(m, t, false, msg, len) || agree_lists(m, t, msg, len))
				return -1;
		}
	}
	for (int nid = 0; nid < model->nr_nodes; nid++) {
		if (model->node_stats[nid].evicted != text->node_stats[nid].evicted)
			return aw_kbind_differ(msg, len, "node %d: folios evicted model %lu, kernel text %lu", nid,
				      model->node_stats[nid].evicted, text->node_stats[nid].evicted);
		if (model->node_stats[nid].refaults != text->node_stats[nid].refaults)
			return aw_kbind_differ(msg, len, "node %d: refaults model %lu, kernel text %lu", nid,
				      model->node_stats[nid].refaults, text->node_stats[nid].refaults);
	}
	if (agree_folios(model, text, msg, len) || agree_tables(model, text, msg, len))
		return -1;
	return agree_swap(model, text, msg, len);
}
