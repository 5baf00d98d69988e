// SPDX-License-Identifier: GPL-2.0-only
/*
 * SCAN_STATUS strings -> the model's result names (kh_status.h).  6.1 and
 * 6.12 print pmd_null and pmd_none where the series' base (6.18 on) has
 * SCAN_NO_PTE_TABLE ("no_pte_table"): all three are the model's
 * no_pte_table.  The khugepaged series adds "page_lazyfree".
 */
#include <stddef.h>
#include <string.h>

#include "kh_status.h"

const char *aw_kh_kernel_status_result(const char *kernel_status)
{
	static const struct { const char *kernel, *model; } map[] = {
		{ "failed", "fail" }, { "succeeded", "succeed" },
		{ "pmd_null", "no_pte_table" }, { "pmd_none", "no_pte_table" },
		{ "no_pte_table", "no_pte_table" }, { "page_pmd_mapped", "pmd_mapped" },
		{ "exceed_none_pte", "exceed_none_pte" }, { "exceed_swap_pte", "exceed_swap_pte" },
		{ "exceed_shared_pte", "exceed_shared_pte" }, { "pte_non_present", "pte_non_present" },
		{ "pte_uffd_wp", "pte_uffd_wp" }, { "pte_mapped_hugepage", "pte_mapped_hugepage" },
		{ "no_writable_page", "page_ro" },
		{ "lack_referenced_page", "lack_referenced_page" }, { "page_null", "page_null" },
		{ "scan_aborted", "scan_abort" }, { "not_suitable_page_count", "page_count" },
		{ "page_not_in_lru", "page_lru" }, { "page_locked", "page_lock" },
		{ "page_not_anon", "page_anon" }, { "page_lazyfree", "page_lazyfree" },
		{ "page_compound", "page_compound" }, { "no_process_for_page", "any_process" },
		{ "vma_null", "vma_null" }, { "vma_check_failed", "vma_check" },
		{ "not_suitable_address_range", "address_range" },
		{ "could_not_delete_page_from_lru", "del_page_lru" },
		{ "alloc_huge_page_failed", "alloc_huge_page_fail" },
		{ "ccgroup_charge_failed", "cgroup_charge_fail" }, { "truncated", "truncated" },
		{ "page_has_private", "page_has_private" }, { "store_failed", "store_failed" },
		{ "copy_poisoned_page", "copy_mc" }, { "page_filled", "page_filled" },
		{ "page_dirty_or_writeback", "page_dirty_or_writeback" },
	};

	for (size_t i = 0; kernel_status && i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].kernel, kernel_status))
			return map[i].model;
	return NULL;
}
