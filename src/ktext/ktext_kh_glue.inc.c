/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end of every generated khugepaged file (tools/ktext-extract --kh-out):
 * the entry points the tree exports under its prefix.  Not bound onto the
 * model's machine yet (issue 31, step 1): the file proves the text
 * compiles against the shim, and each entry point is referenced here so
 * the compiler checks its whole closure.
 */
#define AW_KH_CAT2(a, b)	a##b
#define AW_KH_CAT(a, b)		AW_KH_CAT2(a, b)

/* the roots, by address: what step 2 binds (docs/ktext.md "khugepaged text") */
const void *const AW_KH_CAT(AW_KTEXT_PREFIX, _kh_roots)[] = {
	(const void *)khugepaged_do_scan,
	(const void *)khugepaged_scan_mm_slot,
	(const void *)hpage_collapse_scan_pmd,
	(const void *)collapse_huge_page,
	(const void *)madvise_collapse,
	(const void *)khugepaged_enter_vma,
	(const void *)khugepaged_fork,
	(const void *)khugepaged_exit,
	NULL
};
