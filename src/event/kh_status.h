/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's SCAN_STATUS strings (include/trace/events/huge_memory.h,
 * what mm_khugepaged_scan_pmd and mm_collapse_huge_page print) and the
 * model's result names (src/sim/khugepaged.c: the enum scan_result
 * identifiers in lower case, "pmd_mapped", "page_ro").  The two differ, so
 * whatever reads a kernel's records -- replay's recorded khugepaged block,
 * agewalk-exec in the lab -- translates through this one table.  It sits
 * in the base layer because the lab's executor never links the model.
 */
#ifndef AW_KH_STATUS_H
#define AW_KH_STATUS_H

/* The model's result name for a kernel status string, NULL if the model has none. */
const char *aw_kh_kernel_status_result(const char *kernel_status);

#endif /* AW_KH_STATUS_H */
