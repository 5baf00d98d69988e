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
#define AW_KH_MAX_MMS		64

struct aw_kh_machine {
	struct aw_kh kh;
	struct aw_ktext kt;
	struct mm_struct *mms[AW_KH_MAX_MMS];	/* by host id; NULL: none */
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
	for (int i = 0; i < AW_KH_MAX_MMS; i++) {
		if (m->mms[i])
			free(m->mms[i]->vmas);
		free(m->mms[i]);
	}
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

	if (id < 0 || id >= AW_KH_MAX_MMS)
		abort();
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
