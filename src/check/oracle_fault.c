// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a fault was, from the page tables alone.
 *
 * emptymap-cadence clears its shadow marks on the events the RFC's
 * contract names (a major fault always; a huge or a small first touch, a
 * collapse as clear= says).  Which event happened is read here from the
 * leaf entry a fault, a swap-in or a collapse writes (set_pte_at() /
 * set_pmd_at()), before and after the write:
 *
 *	PTE  swap entry or file shadow -> present	major (a swap-in, a re-read)
 *	PTE  none -> present, not the zero page	minor (a first touch)
 *	PTE  none -> the zero page		zero-page read (clears nothing)
 *	PTE  present -> present, another page	copy on write (clears nothing)
 *	PMD  none (or the huge zero page) -> THP	huge first touch
 *	PMD  PTE table -> THP			collapse
 *
 * The fault code's own account of what it did (aw_mm_event(), the
 * aw_mm_fault event) is never read: a model that told a swap-in as a
 * first touch would otherwise agree with its own shadow.  The write is
 * the moment: reclaim can age inside the very access that faults (a
 * memcg charge), so the mark must clear where the entry changes, not at
 * the end of the event.
 */
#include "oracle.h"
#include "cause.h"
#include "kernel.h"

int aw_fault_kind_of_write(uint64_t old, uint64_t new, bool pmd_level)
{
	if (!pmd_level) {
		if (!pte_present(new))
			return -1;
		if (pte_present(old))
			return pte_pfn(old) != pte_pfn(new) ? AW_FAULT_COW : -1;
		if (pte_swp(old) || (old & _PAGE_FILE_SHADOW))
			return AW_FAULT_MAJOR;
		return is_zero_pfn(pte_pfn(new)) ? AW_FAULT_ZERO : AW_FAULT_MINOR;
	}
	if (!pmd_present(new) || !pmd_trans_huge(new))
		return -1;	/* a PTE table installed: no leaf yet */
	if (is_huge_zero_pmd(new))
		return AW_FAULT_ZERO;
	if (pmd_none(old) || (pmd_trans_huge(old) && is_huge_zero_pmd(old)))
		return AW_FAULT_HUGE;
	if (pmd_present(old) && !pmd_trans_huge(old))
		return AW_FAULT_COLLAPSED;
	return -1;
}

void aw_or_entry_set(struct aw_kernel *k, struct mm_struct *mm, uint64_t old, uint64_t new, bool pmd_level)
{
	int kind = aw_fault_kind_of_write(old, new, pmd_level);

	if (kind < 0)
		return;
	aw_or_mm_event(k, mm, kind);
	aw_cause_fault(aw_oracle_causes(k), k, mm, kind);
}
