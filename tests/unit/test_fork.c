// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of fork (kernel/fork.c: dup_mmap(); mm/memory.c:
 * copy_page_range() and below): copy-on-write of what the child shares,
 * which VMAs and pages are copied, which tables the child gets, and the
 * one shadow of a shared page-cache page.
 *
 * Every expected value is derived by hand from the kernel rule (the
 * kernel function each test names; docs/model-notes.md); the comment
 * next to each says how.
 */
#include "aw_events_test.h"

static void test_fork_cow(void)
{
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *pm, *cm;
	pte_t *pp, *cp;
	struct folio *old;
	uint64_t pfn0;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, BASE_ADDR, PG(16));
	ev_access(k, BASE_ADDR, PG(16), true);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	pm = mm_of(k, 1);
	cm = mm_of(k, 2);
	CHECK(pm && cm && pm != cm);
	if (!pm || !cm)
		goto out;
	pp = aw_pte_lookup(k, pm, BASE_ADDR, false, NULL);
	cp = aw_pte_lookup(k, cm, BASE_ADDR, false, NULL);
	CHECK(pp && cp);
	if (!pp || !cp)
		goto out;
	/*
	 * copy_present_pte() for a private anon page: write-protect both, the
	 * child's copy starts old; the folio is mapped twice.
	 */
	for (int i = 0; i < 16; i++) {
		CHECK(pte_present(cp[i]) && !pte_young(cp[i]) && !pte_write(cp[i]));
		CHECK(pte_present(pp[i]) && !pte_write(pp[i]));
		CHECK(pte_young(pp[i]));		/* the parent's bit is kept */
		CHECK_EQ(pte_pfn(cp[i]), pte_pfn(pp[i]));
		CHECK_EQ(pfn_folio(&k->mem, pte_pfn(pp[i]))->mapcount, 2);
	}
	CHECK_EQ(cm->rss, 16);
	pfn0 = pte_pfn(pp[0]);
	old = pfn_folio(&k->mem, pfn0);

	/* child writes page 0: mapcount 2 -> not reusable -> a new folio */
	ev_access_pid(k, 2, BASE_ADDR, PAGE_SIZE, true);
	CHECK(pte_present(cp[0]) && pte_write(cp[0]));
	CHECK(pte_pfn(cp[0]) != pfn0);
	CHECK_EQ(old->mapcount, 1);
	CHECK_EQ(pte_pfn(pp[0]), pfn0);
	CHECK(!pte_write(pp[0]));
	CHECK_EQ(pfn_folio(&k->mem, pte_pfn(cp[0]))->mapcount, 1);
	CHECK_EQ(cm->rss, 16);			/* one page swapped for another */

	/* parent writes page 0: sole mapper -> wp_can_reuse_anon_folio(): same pfn, RW */
	ev_access_pid(k, 1, BASE_ADDR, PAGE_SIZE, true);
	CHECK_EQ(pte_pfn(pp[0]), pfn0);
	CHECK(pte_write(pp[0]));
	CHECK_EQ(old->mapcount, 1);
	/* page 1 untouched: still shared, both write-protected */
	CHECK(!pte_write(pp[1]) && !pte_write(cp[1]));
	CHECK_EQ(pfn_folio(&k->mem, pte_pfn(pp[1]))->mapcount, 2);
out:
	put_kernel(k);
}

/*
 * copy_page_range() (mm/memory.c, 6.1 and 6.12), hand-worked:
 *
 * - vma_needs_copy(): only a VMA with anon_vma is copied.  Z, anonymous
 *   and only read (zero-page PTEs: do_anonymous_page() maps the zero page
 *   without anon_vma_prepare()), and G, a private file mapping only read,
 *   leave the child no entry and no table: its faults fill them.
 * - copy_pmd_range() allocates the child's PMD table for every present
 *   PUD, copy_pte_range() its PTE table for every present non-leaf PMD,
 *   before either looks at an entry: R's second 2 MiB, whose only page
 *   MADV_DONTNEED zapped (the table stays: zap frees no table), has a
 *   PTE table of none entries in the parent, so one in the child.
 * - copy_present_pte() copies every mapped page of a copied VMA, a file
 *   page too: F, a private file mapping whose page 0 a write copied
 *   (wp_page_copy(): anon_vma set), gives the child page 0's anon copy
 *   and pages 1-3 from the page cache, each old and write-protected,
 *   each folio mapped twice.
 *
 * Child rss: R's 1 page + F's 4 = 5 (the zero page is not counted).
 * Tables: the parent has PGD, the PUD table of BASE_ADDR's 512 GiB, and
 * per 1 GiB PUD (R, Z, F and G each in their own) a PMD table; PTE tables
 * R 2, Z 1, F 1, G 1: 1 + 1 + 4 + 5 = 11.  The child: PGD, PUD table, the
 * PMD tables of R and F and their PTE tables (R 2, F 1): 1 + 1 + 2 + 3 = 7.
 */
static void test_fork_copy_page_range(void)
{
	const uint64_t r = BASE_ADDR, z = BASE_ADDR + (1ULL << 30);
	const uint64_t f = BASE_ADDR + (2ULL << 30), g = BASE_ADDR + (3ULL << 30);
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *cm;
	pmd_t *pmd;
	pte_t *pp, *cp;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, r, 2 * PMD_SIZE);
	ev_access(k, r, PAGE_SIZE, true);
	ev_access(k, r + PMD_SIZE, PAGE_SIZE, true);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MADVISE, .pid = 1, .addr = r + PMD_SIZE,
					     .len = PAGE_SIZE, .arg = AW_MADV_DONTNEED }), 0);
	ev_mmap(k, z, PG(16));
	ev_access(k, z, PG(16), false);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = i ? g : f,
						     .len = PG(4), .arg = AW_PROT_DEFAULT,
						     .flags = AW_MAP_FILE }), 0);
	ev_access(k, f, PG(4), false);
	ev_access(k, f, PAGE_SIZE, true);
	ev_access(k, g, PG(4), false);
	CHECK_EQ(k->pt.live, 11);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	CHECK_EQ(k->pt.live, 11 + 7);
	cm = mm_of(k, 2);
	CHECK(cm != NULL);
	if (!cm)
		goto out;
	CHECK_EQ(cm->rss, 5);

	/* R: page 0 shared, the second PMD's PTE table present and empty */
	cp = aw_pte_lookup(k, cm, r, false, NULL);
	CHECK(cp && pte_present(*cp) && !pte_young(*cp) && !pte_write(*cp));
	pmd = aw_pmd_lookup(k, cm, r + PMD_SIZE, false, NULL);
	CHECK(pmd && pmd_present(*pmd) && !pmd_trans_huge(*pmd));
	if (pmd && pmd_present(*pmd))
		for (int i = 0; i < PTRS_PER_PTE; i++)
			CHECK_EQ(aw_table(&k->pt, aw_entry_table(*pmd))->e[i], 0);

	/* Z and G: not even a PMD table */
	CHECK(aw_pmd_lookup(k, cm, z, false, NULL) == NULL || pmd_none(*aw_pmd_lookup(k, cm, z, false, NULL)));
	CHECK_EQ(aw_pmd_entry_kva(k, cm, z), 0);
	CHECK_EQ(aw_pmd_entry_kva(k, cm, g), 0);

	/* F: every page, old and write-protected, the folios mapped twice */
	pp = aw_pte_lookup(k, mm_of(k, 1), f, false, NULL);
	cp = aw_pte_lookup(k, cm, f, false, NULL);
	CHECK(pp && cp);
	if (!pp || !cp)
		goto out;
	for (int i = 0; i < 4; i++) {
		struct folio *fo = pfn_folio(&k->mem, pte_pfn(pp[i]));

		CHECK(pte_present(cp[i]) && !pte_young(cp[i]) && !pte_write(cp[i]) && !pte_write(pp[i]));
		CHECK_EQ(pte_pfn(cp[i]), pte_pfn(pp[i]));
		CHECK(fo && fo->mapcount == 2);
		CHECK(fo && (i == 0) == folio_test(fo, PG_anon));
	}
out:
	put_kernel(k);
}

/*
 * dup_mmap() and copy_pud_range(), hand-worked:
 *
 * - A: 2 GiB of anonymous memory at BASE_ADDR, its first page written,
 *   then its first GiB unmapped: free_pgtables() frees that GiB's PMD and
 *   PTE tables, the PUD table stays (the second GiB's VMA is under it,
 *   with anon_vma, no page).  copy_pud_range() allocates the child's PUD
 *   table for the present PGD entry before looking at the (none) PUDs.
 * - D: 8 written pages MAP_DROPPABLE, which do_mmap() makes VM_WIPEONFORK:
 *   dup_mmap() gives the child's VMA no anon_vma and copies nothing.
 * - L: 4 written pages MAP_LOCKED: copied (anon_vma), but dup_mmap()
 *   clears VM_LOCKED_MASK from the child's VMA.
 *
 * D and L are in the next 512 GiB (a PGD entry of their own), so nothing
 * else puts a PUD table under A's PGD entry in the child.  Parent tables:
 * PGD, A's PUD table, D and L's PUD table, D's and L's PMD and PTE
 * tables (each in a GiB of its own): 7.  The child: PGD, A's PUD table
 * (empty), D and L's, L's PMD and PTE tables: 5.  Child rss: L's 4.
 */
static void test_fork_wipe_lock_pud_table(void)
{
	const uint64_t a = BASE_ADDR, d = BASE_ADDR + PGDIR_SIZE, l = d + (1ULL << 30);
	struct aw_kernel *k = new_kernel(1ULL << 30);
	struct mm_struct *cm;
	pte_t *cp;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	ev_mmap(k, a, 2ULL << 30);
	ev_access(k, a, PAGE_SIZE, true);
	ev_munmap(k, a, 1ULL << 30);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = d, .len = PG(8),
					     .arg = AW_PROT_DEFAULT, .flags = AW_MAP_DROPPABLE }), 0);
	ev_access(k, d, PG(8), true);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = l, .len = PG(4),
					     .arg = AW_PROT_DEFAULT, .flags = AW_MAP_LOCKED }), 0);
	ev_access(k, l, PG(4), true);
	CHECK_EQ(k->pt.live, 7);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	CHECK_EQ(k->pt.live, 7 + 5);
	cm = mm_of(k, 2);
	CHECK(cm != NULL);
	if (!cm)
		goto out;
	CHECK_EQ(cm->rss, 4);
	/* A: the child's PGD entry has a PUD table, its entry for A none */
	CHECK(aw_pud_lookup(k, cm, a + (1ULL << 30), false) != NULL);
	CHECK(aw_pud_lookup(k, cm, a + (1ULL << 30), false) && !*aw_pud_lookup(k, cm, a + (1ULL << 30), false));
	CHECK(find_vma(cm, d) && !find_vma(cm, d)->anon_vma);
	CHECK_EQ(aw_pmd_entry_kva(k, cm, d), 0);
	CHECK(find_vma(cm, l) && !(find_vma(cm, l)->vm_flags & VM_LOCKED));
	CHECK(find_vma(mm_of(k, 1), l) && (find_vma(mm_of(k, 1), l)->vm_flags & VM_LOCKED));
	cp = aw_pte_lookup(k, cm, l, false, NULL);
	CHECK(cp && pte_present(*cp) && pfn_folio(&k->mem, pte_pfn(*cp))->mapcount == 2);
out:
	put_kernel(k);
}

/*
 * A page-cache page that fork shared has one shadow when reclaim drops
 * it (workingset_eviction() stores it in the page cache, once): the
 * model keeps it in the first mapper's PTE and clears the other's, so
 * the two reads after it refault once, as the kernel's would (its second
 * read finds the folio the first brought back).
 */
static void test_fork_shared_file_shadow(void)
{
	const uint64_t f = BASE_ADDR;
	struct aw_kernel *k = new_kernel(1ULL << 30);
	pte_t *pp, *cp;
	unsigned long refaults;
	int shadows = 0;

	CHECK(k != NULL);
	if (!k)
		return;
	ev_proc_pid(k, 1, 0);
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = f, .len = PG(4),
					     .arg = AW_PROT_DEFAULT, .flags = AW_MAP_FILE }), 0);
	ev_access(k, f, PG(4), false);
	ev_access(k, f, PAGE_SIZE, true);	/* page 0 copied: anon_vma */
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_FORK, .pid = 1, .pid2 = 2 }), 0);
	pp = aw_pte_lookup(k, mm_of(k, 1), f, false, NULL);
	cp = aw_pte_lookup(k, mm_of(k, 2), f, false, NULL);
	CHECK(pp && cp);
	if (!pp || !cp)
		goto out;
	CHECK(pte_present(pp[1]) && pte_pfn(pp[1]) == pte_pfn(cp[1]));
	/* age and evict file pages until page 1 is gone */
	for (int i = 0; i < 8 && pte_present(pp[1]); i++) {
		ev_age(k, false);
		CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_EVICT, .node = 0, .memcg = 0, .len = 64,
						     .swappiness = 0 }), 0);
	}
	CHECK(!pte_present(pp[1]) && !pte_present(cp[1]));
	shadows = !!(pp[1] & _PAGE_FILE_SHADOW) + !!(cp[1] & _PAGE_FILE_SHADOW);
	CHECK_EQ(shadows, 1);
	CHECK((pp[1] & _PAGE_FILE_SHADOW) ? cp[1] == 0 : pp[1] == 0);
	refaults = k->node_stats[0].refaults;
	ev_access_pid(k, 1, f + PAGE_SIZE, PAGE_SIZE, false);
	ev_access_pid(k, 2, f + PAGE_SIZE, PAGE_SIZE, false);
	CHECK_EQ(k->node_stats[0].refaults, refaults + 1);
out:
	put_kernel(k);
}

int main(void)
{
	RUN(test_fork_cow);
	RUN(test_fork_copy_page_range);
	RUN(test_fork_wipe_lock_pud_table);
	RUN(test_fork_shared_file_shadow);
	return aw_test_report("test_fork");
}
