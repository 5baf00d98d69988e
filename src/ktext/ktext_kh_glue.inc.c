/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The end of every generated khugepaged file (tools/ktext-extract --kh-out):
 * the text's machine (struct aw_kh: mm/khugepaged.c's state, one shadow
 * mm_struct per host mm, the MGLRU shim's struct aw_ktext for folios and
 * tables) and the entry points the tree exports as aw_<tree>_kh_ops.
 *
 * Not bound onto the model's machine yet (issue 31): a host gives its
 * page tables and folios (struct aw_ktext_host: table(), is_table(),
 * folio()), its machine actions (struct aw_kh_host) and its mms
 * (set_mm()); tests/unit/test_ktext_kh.c is such a host.
 */
#define AW_KH_CAT2(a, b)	a##b
#define AW_KH_CAT(a, b)		AW_KH_CAT2(a, b)

struct aw_kh_machine {
	struct aw_kh kh;
	struct aw_ktext kt;
	struct mm_struct **mms;		/* by host id; NULL: none */
	int nr_mms;
};

/* Run the text on kh's machine: the per-thread current machine, as the MGLRU glue does. */
#define AW_KH_ENTER(kh_)								\
	struct aw_kh *aw_kh_saved_ = aw_kh_cur;						\
	struct aw_ktext *aw_kt_saved_ = aw_ktext_cur;					\
	aw_kh_cur = (kh_);								\
	aw_ktext_cur = (kh_)->kt
#define AW_KH_LEAVE()	(aw_kh_cur = aw_kh_saved_, aw_ktext_cur = aw_kt_saved_)

static struct aw_kh_machine *aw_kh_machine(struct aw_kh *kh)
{
	return container_of(kh, struct aw_kh_machine, kh);
}

static struct aw_kh *aw_kh_create(const struct aw_ktext_host *kt_host, const struct aw_kh_host *host)
{
	struct aw_kh_machine *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->kt.host = kt_host;
	m->kt.zero_pfn = kt_host->zero_pfn;
	m->kt.huge_zero_pfn = kt_host->huge_zero_pfn;
	m->kh.kt = &m->kt;
	m->kh.host = host;
	INIT_LIST_HEAD(&m->kh.scan.mm_head);
	m->kh.slot_cache.size = sizeof(struct khugepaged_mm_slot);
	/* mm/khugepaged.c: khugepaged_init()'s defaults */
	m->kh.pages_to_scan = HPAGE_PMD_NR * 8;
	m->kh.max_ptes_none = HPAGE_PMD_NR - 1;
	m->kh.max_ptes_swap = HPAGE_PMD_NR / 8;
	m->kh.max_ptes_shared = HPAGE_PMD_NR / 2;
	m->kh.scan_sleep_millisecs = 10000;
	m->kh.alloc_sleep_millisecs = 60000;
	return &m->kh;
}

static void aw_kh_destroy(struct aw_kh *kh)
{
	struct aw_kh_machine *m;

	if (!kh)
		return;
	m = aw_kh_machine(kh);
	for (int i = 0; i < m->nr_mms; i++) {
		if (m->mms[i])
			free(m->mms[i]->vmas);
		free(m->mms[i]);
	}
	free(m->mms);
	for (unsigned long c = 0; c < kh->nr_memmap; c++)
		free(kh->memmap[c]);
	free(kh->memmap);
	for (unsigned int b = 0; b < ARRAY_SIZE(kh->slots_hash); b++) {
		while (kh->slots_hash[b].first) {
			struct hlist_node *n = kh->slots_hash[b].first;

			hash_del(n);
			free(container_of(n, struct mm_slot, hash));
		}
	}
	free(m);
}

static void aw_kh_knobs(struct aw_kh *kh, bool thp_enabled, unsigned int pages_to_scan, unsigned int max_ptes_none,
			unsigned int max_ptes_swap, unsigned int max_ptes_shared)
{
	kh->thp_flags = thp_enabled ? BIT(TRANSPARENT_HUGEPAGE_FLAG) : 0;
	kh->orders_inherit = BIT(PMD_ORDER);	/* hugepages-2048kB/enabled: inherit */
	kh->pages_to_scan = pages_to_scan;
	kh->max_ptes_none = max_ptes_none;
	kh->max_ptes_swap = max_ptes_swap;
	kh->max_ptes_shared = max_ptes_shared;
}

/* The shadow mm of host mm id, made on first use; its VMAs and root refreshed. */
static void aw_kh_set_mm(struct aw_kh *kh, int id, const struct aw_kh_mm *d)
{
	struct aw_kh_machine *m = aw_kh_machine(kh);
	struct mm_struct *mm;

	if (id < 0)
		abort();
	if (id >= m->nr_mms) {
		int n = id + 1 > 2 * m->nr_mms ? id + 1 : 2 * m->nr_mms;
		struct mm_struct **a = realloc(m->mms, (size_t)n * sizeof(*a));

		if (!a)
			abort();
		memset(a + m->nr_mms, 0, (size_t)(n - m->nr_mms) * sizeof(*a));
		m->mms = a;
		m->nr_mms = n;
	}
	if (!m->mms[id]) {
		m->mms[id] = calloc(1, sizeof(*mm));
		if (!m->mms[id])
			abort();
		m->mms[id]->aw_index = id;
	}
	mm = m->mms[id];
	if (d->nr_vmas > mm->aw_cap_vmas) {
		free(mm->vmas);
		mm->vmas = calloc(d->nr_vmas, sizeof(*mm->vmas));
		if (!mm->vmas)
			abort();
		mm->aw_cap_vmas = d->nr_vmas;
	}
	mm->pgd = d->pgd;
	mm->nr_vmas = d->nr_vmas;
	for (int i = 0; i < d->nr_vmas; i++)
		mm->vmas[i] = (struct vm_area_struct){
			.vm_start = d->vmas[i].start, .vm_end = d->vmas[i].end, .vm_mm = mm,
			.vm_flags = d->vmas[i].vm_flags, .anon_vma = d->vmas[i].file ? NULL : mm,
		};
	mm->mm_users.counter = d->exiting ? 0 : 1;
	mm->aw_mmap_contended = d->mmap_contended;
	if (d->thp_disabled)
		set_bit(MMF_DISABLE_THP, &mm->flags);
	else
		clear_bit(MMF_DISABLE_THP, &mm->flags);
}

static void aw_kh_enter(struct aw_kh *kh, int id)
{
	AW_KH_ENTER(kh);
	__khugepaged_enter(aw_kh_machine(kh)->mms[id]);
	AW_KH_LEAVE();
}

static void aw_kh_exit(struct aw_kh *kh, int id)
{
	AW_KH_ENTER(kh);
	khugepaged_exit(aw_kh_machine(kh)->mms[id]);
	AW_KH_LEAVE();
}

/* khugepaged_enter_vma(): the VMA of host mm id starting at start */
static void aw_kh_enter_vma(struct aw_kh *kh, int id, unsigned long start, unsigned long vm_flags)
{
	struct vm_area_struct *vma;

	AW_KH_ENTER(kh);
	vma = find_vma(aw_kh_machine(kh)->mms[id], start);
	if (vma && vma->vm_start == start)
		khugepaged_enter_vma(vma, vm_flags);
	AW_KH_LEAVE();
}

/* khugepaged_fork() (dup_mmap()) */
static void aw_kh_fork(struct aw_kh *kh, int id, int parent)
{
	AW_KH_ENTER(kh);
	khugepaged_fork(aw_kh_machine(kh)->mms[id], aw_kh_machine(kh)->mms[parent]);
	AW_KH_LEAVE();
}

/* madvise_collapse() over [start, end) of host mm id: 0 or -errno, -EINVAL without a VMA at start */
static int aw_kh_madvise(struct aw_kh *kh, int id, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma, *prev = NULL;
	int ret = -EINVAL;

	AW_KH_ENTER(kh);
	/* madvise_walk_vmas(): find_vma_prev(); a hole at start is -ENOMEM there, and no call */
	vma = find_vma(aw_kh_machine(kh)->mms[id], start);
	if (vma && vma->vm_start <= start)
		ret = madvise_collapse(vma, &prev, start, end);
	AW_KH_LEAVE();
	return ret;
}

/* The tree's enum scan_result by the model's name for it (aw_scan_result_name()) */
static const char *aw_kh_result_name(int status)
{
	static const char *const names[] = {
		[SCAN_FAIL] = "fail", [SCAN_SUCCEED] = "succeed",
		/* 6.1 and 6.12 tell a missing PUD/PMD from a none PMD; the model has one result */
		[SCAN_PMD_NULL] = "no_pte_table", [SCAN_PMD_NONE] = "no_pte_table",
		[SCAN_PMD_MAPPED] = "pmd_mapped", [SCAN_EXCEED_NONE_PTE] = "exceed_none_pte",
		[SCAN_EXCEED_SWAP_PTE] = "exceed_swap_pte", [SCAN_EXCEED_SHARED_PTE] = "exceed_shared_pte",
		[SCAN_PTE_NON_PRESENT] = "pte_non_present", [SCAN_PTE_UFFD_WP] = "pte_uffd_wp",
		[SCAN_PTE_MAPPED_HUGEPAGE] = "pte_mapped_hugepage", [SCAN_PAGE_RO] = "page_ro",
		[SCAN_LACK_REFERENCED_PAGE] = "lack_referenced_page", [SCAN_PAGE_NULL] = "page_null",
		[SCAN_SCAN_ABORT] = "scan_abort", [SCAN_PAGE_COUNT] = "page_count", [SCAN_PAGE_LRU] = "page_lru",
		[SCAN_PAGE_LOCK] = "page_lock", [SCAN_PAGE_ANON] = "page_anon",
		[SCAN_PAGE_COMPOUND] = "page_compound", [SCAN_ANY_PROCESS] = "any_process",
		[SCAN_VMA_NULL] = "vma_null", [SCAN_VMA_CHECK] = "vma_check", [SCAN_ADDRESS_RANGE] = "address_range",
		[SCAN_DEL_PAGE_LRU] = "del_page_lru", [SCAN_ALLOC_HUGE_PAGE_FAIL] = "alloc_huge_page_fail",
		[SCAN_CGROUP_CHARGE_FAIL] = "cgroup_charge_fail", [SCAN_TRUNCATED] = "truncated",
		[SCAN_PAGE_HAS_PRIVATE] = "page_has_private", [SCAN_STORE_FAILED] = "store_failed",
#ifdef AW_KH_HAS_LAZYFREE
		[SCAN_PAGE_LAZYFREE] = "page_lazyfree",
#endif
	};

	if (status < 0 || (size_t)status >= ARRAY_SIZE(names) || !names[status])
		return "unknown";
	return names[status];
}

static void aw_kh_do_scan(struct aw_kh *kh)
{
	struct collapse_control cc = { .is_khugepaged = true };	/* khugepaged_collapse_control */

	AW_KH_ENTER(kh);
	khugepaged_do_scan(&cc);
	AW_KH_LEAVE();
}

static void aw_kh_state(struct aw_kh *kh, struct aw_kh_state *out)
{
	struct khugepaged_mm_slot *cur = kh->scan.mm_slot;
	struct list_head *p;

	*out = (struct aw_kh_state){
		.cursor_mm = cur ? cur->slot.mm->aw_index : -1,
		.address = kh->scan.address,
		.pages_collapsed = kh->pages_collapsed,
		.full_scans = kh->full_scans,
		.warnings = kh->kt->warnings,
		.last_warning = kh->kt->last_warning,
	};
	for (p = kh->scan.mm_head.next; p != &kh->scan.mm_head; p = p->next)
		out->nr_slots++;
}

const struct aw_kh_ops AW_KH_CAT(AW_KTEXT_PREFIX, _kh_ops) = {
	.name = AW_KTEXT_NAME,
	.version = AW_KTEXT_VERSION,
	.create = aw_kh_create,
	.destroy = aw_kh_destroy,
	.knobs = aw_kh_knobs,
	.set_mm = aw_kh_set_mm,
	.enter = aw_kh_enter,
	.exit = aw_kh_exit,
	.do_scan = aw_kh_do_scan,
	.state = aw_kh_state,
	.enter_vma = aw_kh_enter_vma,
	.fork = aw_kh_fork,
	.madvise = aw_kh_madvise,
	.result_name = aw_kh_result_name,
	.patched = AW_KTEXT_KH_SERIES,
};

/* the other roots, by address: what the binding will call (docs/ktext.md "khugepaged text") */
const void *const AW_KH_CAT(AW_KTEXT_PREFIX, _kh_roots)[] = {
	(const void *)khugepaged_scan_mm_slot,
	(const void *)hpage_collapse_scan_pmd,
	(const void *)collapse_huge_page,
	(const void *)madvise_collapse,
	(const void *)khugepaged_enter_vma,
	(const void *)khugepaged_fork,
	NULL
};
