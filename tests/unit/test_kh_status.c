// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/event/kh_status.c: the kernel's SCAN_STATUS strings (6.12's
 * include/trace/events/huge_memory.h, and the series' page_lazyfree) to
 * the model's result names, which replay and the lab's executor both
 * use.  Every string 6.12 prints maps to a name the model parses; the
 * pairs checked by hand are the ones whose names differ.
 */
#include <stdio.h>
#include <string.h>

#include "kh_status.h"
#include "khugepaged.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static const char *m(const char *k)
{
	const char *r = aw_kh_kernel_status_result(k);

	return r ? r : "(none)";
}

int main(void)
{
	/* 6.12's SCAN_STATUS, in its order, plus the series' and 6.18's */
	static const char *const kernel[] = {
		"failed", "succeeded", "pmd_null", "pmd_none", "page_pmd_mapped", "exceed_none_pte",
		"exceed_swap_pte", "exceed_shared_pte", "pte_non_present", "pte_uffd_wp", "pte_mapped_hugepage",
		"no_writable_page", "lack_referenced_page", "page_null", "scan_aborted", "not_suitable_page_count",
		"page_not_in_lru", "page_locked", "page_not_anon", "page_compound", "no_process_for_page",
		"vma_null", "vma_check_failed", "not_suitable_address_range", "could_not_delete_page_from_lru",
		"alloc_huge_page_failed", "ccgroup_charge_failed", "truncated", "page_has_private",
		"store_failed", "copy_poisoned_page", "page_filled", "page_lazyfree", "no_pte_table",
	};

	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++)
		if (aw_scan_result_parse(m(kernel[i])) < 0) {
			printf("FAIL %s -> %s: not a model result\n", kernel[i], m(kernel[i]));
			failures++;
		}
	CHECK(!strcmp(m("pmd_null"), "no_pte_table"));
	CHECK(!strcmp(m("pmd_none"), "no_pte_table"));
	CHECK(!strcmp(m("page_pmd_mapped"), "pmd_mapped"));
	CHECK(!strcmp(m("no_writable_page"), "page_ro"));
	CHECK(!strcmp(m("succeeded"), "succeed"));
	CHECK(!strcmp(m("page_not_anon"), "page_anon"));
	CHECK(!strcmp(m("scan_aborted"), "scan_abort"));
	CHECK(!strcmp(m("copy_poisoned_page"), "copy_mc"));
	CHECK(aw_kh_kernel_status_result("weird_status") == NULL);
	CHECK(aw_kh_kernel_status_result(NULL) == NULL);
	if (!failures)
		printf("ok   kh_status: 34 kernel strings map to model results\n");
	return failures != 0;
}
