// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged oracles (docs/oracles.md).  Like the MGLRU oracles, they
 * judge the model from the rules, read off the page tables before the code
 * under test acts, never from what that code computed:
 *
 *  - khugepaged-progress: the cost of every range is re-derived from its
 *    page-table state under the selected revision (base: 512; patched: 1
 *    without a PTE table or under a PMD leaf, else the PTEs up to and
 *    including the one that ends the scan), and every wake-up's
 *    mm_khugepaged_scan records must add up to its progress minus the
 *    exhausted-list top-up;
 *  - khugepaged-lazyfree: patched khugepaged never collapses a range that
 *    held a clean PTE of a lazyfree folio (VM_DROPPABLE exempt in v8);
 *  - khugepaged-data-loss: each subpage of a new THP holds what its PTE
 *    mapped before (the page's version, the swap slot's, or zeroes);
 *  - khugepaged-decision: khugepaged collapses a range only if a present
 *    PTE of it was writable (SCAN_PAGE_RO; a swap PTE does not count), and
 *    a PTE of it was young or mapped a PG_referenced folio, and at least half of
 *    them when the collapse must swap pages in (hpage_collapse_scan_pmd():
 *    SCAN_LACK_REFERENCED_PAGE); and it does collapse one without swap
 *    PTEs whose scan passes every PTE, with a writable page and a
 *    referenced one, unless the allocation or the charge fails -- all
 *    read off the tables at the range's start;
 *  - khugepaged-slot: after each wake-up, a live mm has MMF_VM_HUGEPAGE
 *    exactly when a slot on the list names it (an exited mm whose slot
 *    awaits collect_mm_slot() is exempt: the flag is not cleared there).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "kernel.h"

struct aw_kh_oracle {
	bool in_range;
	unsigned int expect_cost;
	const char *why;		/* what decided expect_cost */
	unsigned int referenced;	/* PTEs young or of a PG_referenced folio, at the range's start */
	unsigned int unmapped;		/* swap PTEs, at the range's start */
	bool writable;			/* a present, non-zero-page PTE is writable */
	bool scan_passes;		/* the scan's loop reaches its end (the rules' stopping point) */
	uint32_t mm;
	uint64_t haddr;
	bool in_collapse;
	int clean_lazyfree;		/* first clean lazyfree PTE of the collapsing range, -1 */
	uint32_t token[HPAGE_PMD_NR];	/* contents before the collapse */
	const char *source[HPAGE_PMD_NR];
	uint64_t *counted;		/* by mm id: the slot check that last counted it */
	uint32_t cap_counted;
	uint64_t check;			/* slot checks so far */
};

int aw_kh_oracle_attach(struct aw_kernel *k)
{
	k->kh_oracle = calloc(1, sizeof(*k->kh_oracle));
	return k->kh_oracle ? 0 : -1;
}

void aw_kh_oracle_detach(struct aw_kernel *k)
{
	if (k->kh_oracle)
		free(k->kh_oracle->counted);
	free(k->kh_oracle);
	k->kh_oracle = NULL;
}

/* The rule's lazyfree test, independent of the model's helper. */
static bool clean_lazyfree(const struct aw_kernel *k, const struct vm_area_struct *vma, pte_t pte,
			   const struct folio *folio)
{
	if (!(k->features & AW_FEAT_KHUGEPAGED_PATCHED))
		return false;
	if ((k->features & AW_FEAT_KHUGEPAGED_V8) && (vma->vm_flags & VM_DROPPABLE))
		return false;
	return !pte_dirty(pte) && folio_test_lazyfree(folio);
}

/*
 * Where the patched scan of the range stops, read off the page tables:
 * hpage_collapse_scan_pmd()'s checks in the seed's order, the
 * max_ptes_* limits from the sysfs knobs.
 */
static unsigned int patched_cost(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
				 uint64_t haddr, const char **why)
{
	const struct aw_khugepaged *kh = &k->kh;
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	unsigned int none = 0, swap = 0, shared = 0;
	const struct aw_ptable *pt;

	if (!pmd || !pmd_present(*pmd)) {
		*why = "no PTE table";
		return 1;
	}
	if (pmd_trans_huge(*pmd)) {
		*why = "PMD-mapped";
		return 1;
	}
	pt = aw_table(&k->pt, aw_entry_table(*pmd));
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		/* a run of none entries at once: each counts toward max_ptes_none */
		unsigned int next = aw_pt_next_nonzero(pt->e, i, HPAGE_PMD_NR), run;
		pte_t pte;
		const struct folio *folio;

		*why = "PTE limit";
		run = (next < HPAGE_PMD_NR ? next : HPAGE_PMD_NR) - i;
		if (run > kh->max_ptes_none - none)	/* none <= max_ptes_none here */
			return i + (kh->max_ptes_none - none) + 1;
		none += run;
		i += run;
		if (i == HPAGE_PMD_NR)
			break;
		pte = pt->e[i];
		if (pte_none(pte) || (pte_present(pte) && is_zero_pfn(pte_pfn(pte)))) {
			if (++none > kh->max_ptes_none)
				return i + 1;
			continue;
		}
		if (!pte_present(pte)) {
			if (++swap > kh->max_ptes_swap)
				return i + 1;
			continue;
		}
		folio = pfn_folio(&k->mem, pte_pfn(pte));
		*why = "a PTE the scan rejects";
		if (!folio || clean_lazyfree(k, vma, pte, folio) || !folio_test(folio, PG_anon))
			return i + 1;
		if (folio->mapcount > 1 && ++shared > kh->max_ptes_shared)
			return i + 1;
		if (!folio_test(folio, PG_lru) && !folio_test(folio, PG_unevictable))
			return i + 1;
	}
	*why = "all 512 PTEs examined";
	return HPAGE_PMD_NR;
}

/* The referenced test's inputs, read off the range's PTE table */
static void count_referenced(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr, struct aw_kh_oracle *o)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	const struct aw_ptable *pt;

	o->referenced = o->unmapped = 0;
	o->writable = false;
	if (!pmd || !pmd_present(*pmd) || pmd_trans_huge(*pmd))
		return;
	pt = aw_table(&k->pt, aw_entry_table(*pmd));
	/* a none entry counts for nothing here */
	for (unsigned int i = aw_pt_next_nonzero(pt->e, 0, HPAGE_PMD_NR); i < HPAGE_PMD_NR;
	     i = aw_pt_next_nonzero(pt->e, i + 1, HPAGE_PMD_NR)) {
		pte_t pte = pt->e[i];
		const struct folio *folio;

		if (pte_swp(pte))
			o->unmapped++;
		if (!pte_present(pte) || is_zero_pfn(pte_pfn(pte)))
			continue;
		folio = pfn_folio(&k->mem, pte_pfn(pte));
		if (pte_young(pte) || (folio && folio_test(folio, PG_referenced)))
			o->referenced++;
		if (pte_write(pte))
			o->writable = true;
	}
}

/*
 * khugepaged-decision at the range's end: a collapse the referenced test
 * refuses, or none where the scan's rules reach a collapse.
 */
static void check_decision(struct aw_kernel *k, const struct aw_kh_oracle *o, int result)
{
	bool refused = !o->referenced || (o->unmapped && o->referenced < HPAGE_PMD_NR / 2);
	bool memory = result == SCAN_ALLOC_HUGE_PAGE_FAIL || result == SCAN_CGROUP_CHARGE_FAIL ||
		      result == SCAN_FAIL;

	if (result == SCAN_SUCCEED && !o->writable)
		aw_oracle_report(k, AW_OR_KH_DECISION, "khugepaged collapsed a range with no writable page",
				 "mm %u range 0x%llx: collapsed, but no present PTE of it was writable at the start "
				 "of its scan (%u swap PTEs)", o->mm, (unsigned long long)o->haddr, o->unmapped);
	else if (result == SCAN_SUCCEED && refused)
		aw_oracle_report(k, AW_OR_KH_DECISION,
				 o->referenced ? "khugepaged collapsed a range to swap in with few referenced pages"
					       : "khugepaged collapsed a range with no referenced page",
				 "mm %u range 0x%llx: collapsed with %u referenced PTEs and %u swap PTEs at the "
				 "start of its scan", o->mm, (unsigned long long)o->haddr, o->referenced, o->unmapped);
	/*
	 * Only without swap PTEs: the swap-in between the scan and the
	 * isolation makes new folios the isolation checks again (in a
	 * VM_DROPPABLE VMA they are born lazyfree, and the seed's revision
	 * refuses them there).
	 */
	else if (o->scan_passes && o->writable && !refused && !o->unmapped && result != SCAN_SUCCEED &&
		 !memory) {
		char cause[96];

		snprintf(cause, sizeof(cause), "khugepaged did not collapse a range its scan passes (%s)",
			 aw_scan_result_name(result));
		aw_oracle_report(k, AW_OR_KH_DECISION, cause,
				 "mm %u range 0x%llx: %s, but every PTE passes the scan, one is writable and %u "
				 "are referenced (%u swap PTEs)", o->mm, (unsigned long long)o->haddr,
				 aw_scan_result_name(result), o->referenced, o->unmapped);
	}
}

void aw_or_kh_range_begin(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			  uint64_t haddr)
{
	struct aw_kh_oracle *o = k->kh_oracle;

	if (!o)
		return;
	o->in_range = true;
	o->mm = mm->id;
	o->haddr = haddr;
	count_referenced(k, mm, haddr, o);
	/* where the scan stops is the same rule in both revisions; only its cost differs */
	o->expect_cost = patched_cost(k, mm, vma, haddr, &o->why);
	o->scan_passes = o->expect_cost == HPAGE_PMD_NR && !strcmp(o->why, "all 512 PTEs examined");
	if (!(k->features & AW_FEAT_KHUGEPAGED_PATCHED)) {
		o->expect_cost = HPAGE_PMD_NR;
		o->why = "base: HPAGE_PMD_NR per range";
	}
}

void aw_or_kh_range_end(struct aw_kernel *k, int result, unsigned int cost)
{
	struct aw_kh_oracle *o = k->kh_oracle;

	if (!o || !o->in_range)
		return;
	o->in_range = false;
	check_decision(k, o, result);
	if (cost != o->expect_cost) {
		char cause[96];

		snprintf(cause, sizeof(cause), "%s range cost differs from its accounting (%s)",
			 k->features & AW_FEAT_KHUGEPAGED_PATCHED ? "patched" : "base", aw_scan_result_name(result));
		aw_oracle_report(k, AW_OR_KH_PROGRESS, cause,
				 "mm %u range 0x%llx: progress +%u (%s), the %s accounting gives +%u (%s)",
				 o->mm, (unsigned long long)o->haddr, cost, aw_scan_result_name(result),
				 k->features & AW_FEAT_KHUGEPAGED_PATCHED ? "patched" : "base", o->expect_cost,
				 o->why);
	}
}

/* What page i of the range holds now: a content token and where it lives. */
static uint32_t pte_token(struct aw_kernel *k, pte_t pte, const char **source)
{
	struct folio *folio;

	if (pte_none(pte) || (pte_present(pte) && is_zero_pfn(pte_pfn(pte)))) {
		*source = "none";
		return 0;
	}
	if (!pte_present(pte)) {
		*source = "swap";
		return pte_swp(pte) ? k->swap[pte_swp_slot(pte)].version : 0;
	}
	*source = "page";
	folio = pfn_folio(&k->mem, pte_pfn(pte));
	if (!folio)
		return 0;
	/* a PTE into a large folio: its own subpage */
	return *folio_page_version(folio, (unsigned int)(pte_pfn(pte) - folio_pfn(&k->mem, folio)));
}

void aw_or_kh_collapse_begin(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			     uint64_t haddr, bool is_khugepaged)
{
	struct aw_kh_oracle *o = k->kh_oracle;
	pmd_t *pmd;
	const struct aw_ptable *pt;

	if (!o)
		return;
	pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	o->in_collapse = pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd);
	o->clean_lazyfree = -1;
	if (!o->in_collapse)
		return;
	pt = aw_table(&k->pt, aw_entry_table(*pmd));
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		pte_t pte = pt->e[i];

		o->token[i] = pte_token(k, pte, &o->source[i]);
		if (is_khugepaged && o->clean_lazyfree < 0 && pte_present(pte) && !is_zero_pfn(pte_pfn(pte))) {
			struct folio *folio = pfn_folio(&k->mem, pte_pfn(pte));

			if (folio && clean_lazyfree(k, vma, pte, folio))
				o->clean_lazyfree = (int)i;
		}
	}
}

void aw_or_kh_collapse_end(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr, int result)
{
	struct aw_kh_oracle *o = k->kh_oracle;
	pmd_t *pmd;
	struct folio *thp;

	if (!o || !o->in_collapse)
		return;
	o->in_collapse = false;
	if (result != SCAN_SUCCEED)
		return;
	if (o->clean_lazyfree >= 0)
		aw_oracle_report(k, AW_OR_KH_LAZYFREE, "khugepaged collapsed over a clean lazyfree PTE",
				 "mm %u range 0x%llx collapsed by khugepaged although PTE %d was clean and its "
				 "folio lazyfree (MADV_FREE)", mm->id, (unsigned long long)haddr, o->clean_lazyfree);
	pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);
	if (!pmd || !pmd_trans_huge(*pmd) || !(thp = pfn_folio(&k->mem, pmd_pfn(*pmd)))) {
		aw_oracle_report(k, AW_OR_KH_DATA, "collapse succeeded without a PMD mapping",
				 "mm %u range 0x%llx: collapse succeeded without a PMD mapping",
				 mm->id, (unsigned long long)haddr);
		return;
	}
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		uint32_t now = *folio_page_version(thp, i);

		if (now != o->token[i]) {
			char cause[96];

			snprintf(cause, sizeof(cause), "collapse lost the contents of a subpage from a %s",
				 o->source[i]);
			aw_oracle_report(k, AW_OR_KH_DATA, cause,
					 "mm %u range 0x%llx: subpage %u of the new THP holds version %u, the %s "
					 "it replaced held %u", mm->id, (unsigned long long)haddr, i, now,
					 o->source[i], o->token[i]);
			return;
		}
	}
}

/*
 * Live mms with MMF_VM_HUGEPAGE, each counted once.  Every live mm has a
 * task (mm_users), so walking the tasks finds them all without visiting
 * the ids of every mm that ever existed.
 */
static unsigned long count_flagged_mms(struct aw_kernel *k)
{
	struct aw_kh_oracle *o = k->kh_oracle;
	unsigned long n = 0;

	o->check++;
	for (uint32_t pid = 1; pid < k->nr_tasks; pid++) {
		struct aw_task *t = &k->tasks[pid];
		struct mm_struct *mm = t->alive ? aw_mm(k, t->mm) : NULL;

		if (!mm || !(test_bit(MMF_VM_HUGEPAGE, &mm->flags)))
			continue;
		if (mm->id >= o->cap_counted) {
			uint32_t cap = mm->id * 2 + 16;
			uint64_t *a = realloc(o->counted, cap * sizeof(*a));

			if (!a)
				return n;
			memset(a + o->cap_counted, 0, (cap - o->cap_counted) * sizeof(*a));
			o->counted = a;
			o->cap_counted = cap;
		}
		if (o->counted[mm->id] != o->check) {
			o->counted[mm->id] = o->check;
			n++;
		}
	}
	return n;
}

/* MMF_VM_HUGEPAGE <=> a slot on the list names the mm, one slot per mm. */
static void check_slots(struct aw_kernel *k)
{
	struct list_head *h = &k->kh.scan.mm_head;
	unsigned long slots = 0, flagged = 0;

	for (struct list_head *n = h->next; n != h; n = n->next) {
		struct khugepaged_mm_slot *slot = container_of(n, struct khugepaged_mm_slot, mm_node);
		struct mm_struct *mm = slot->dead ? NULL : aw_mm(k, slot->mm);

		if (slot->dead)
			continue;
		slots++;
		if (!mm || !(test_bit(MMF_VM_HUGEPAGE, &mm->flags)) || mm->kh_slot != slot)
			aw_oracle_report(k, AW_OR_KH_SLOT, "khugepaged slot without its mm's MMF_VM_HUGEPAGE",
					 "slot for mm %u: the mm %s", slot->mm,
					 !mm ? "is gone" : !(test_bit(MMF_VM_HUGEPAGE, &mm->flags)) ?
					 "lacks MMF_VM_HUGEPAGE" : "points at another slot");
	}
	flagged = count_flagged_mms(k);
	if (flagged != slots)
		aw_oracle_report(k, AW_OR_KH_SLOT, "MMF_VM_HUGEPAGE without a khugepaged slot",
				 "%lu live mms have MMF_VM_HUGEPAGE but %lu slots are listed",
				 flagged, slots);
}

void aw_or_kh_wakeup_end(struct aw_kernel *k, unsigned long progress, unsigned long topup,
			 unsigned long traced)
{
	if (!k->kh_oracle)
		return;
	if ((k->features & AW_FEAT_KHUGEPAGED_PATCHED) && traced + topup != progress)
		aw_oracle_report(k, AW_OR_KH_PROGRESS, "wake-up progress differs from its traced ranges",
				 "wake-up %lu: mm_khugepaged_scan reports %lu in all, plus a top-up of %lu, but "
				 "the wake-up consumed %lu", k->kh.wakeups, traced, topup, progress);
}

/*
 * After a khugepaged event's wake-ups, not after each: only the wake-ups
 * themselves change the list in between (collect_mm_slot()), a violation
 * stays visible at the event's end, and a "full" event can run thousands
 * of wake-ups, each of which would walk every task.
 */
void aw_or_kh_event_end(struct aw_kernel *k)
{
	if (k->kh_oracle)
		check_slots(k);
}
