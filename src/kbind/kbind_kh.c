// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged's text as a variant (kh6.12, kh6.1, kh6.12+khugepaged): the
 * model's machine with a tree's mm/khugepaged.c behind the khugepaged seam
 * (struct aw_khugepaged_ops), as kbind.c puts a tree's MGLRU code behind
 * struct aw_mglru_ops.  MGLRU, faults and reclaim stay the model's here:
 * the variant isolates khugepaged, so a disagreement with its model pair
 * (khugepaged-base, or khugepaged-patched for a tree with the scan series)
 * is khugepaged's.
 *
 * The text decides: the mm slot list and its cursor, the budget and the
 * progress, every per-PTE rule of hpage_collapse_scan_pmd() and of the
 * isolation, the target node, and the order of a collapse's steps.  The
 * machine acts (struct aw_kh_host): the THP policy of a VMA
 * (thp_vma_allowable_order(), mm/huge_memory.c, not khugepaged's),
 * allocation and charge, LRU isolation and putback, swap-in, the copy,
 * the PMD installed, each through the model's own step (khugepaged.h's
 * aw_kh_* actions).  The text reads and writes the model's page tables in
 * place (pmdp_collapse_flush(), ptep_clear()).
 *
 * Before each call the text's shadow mms are refreshed from the model's
 * (set_mm()): VMAs, the PGD, exiting, MMF_DISABLE_THP, mmap contention.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbind.h"
#include "ktext_kh_api.h"

#define KH_MAX_ISOLATED	HPAGE_PMD_NR

struct aw_kbind_kh {
	struct aw_kernel *k;
	const struct aw_kh_ops *ops;
	struct aw_kh *kh;
	struct aw_ktext_host kthost;
	struct aw_kh_host host;
	struct aw_ktext_vma *vmas;		/* set_mm()'s scratch */
	int cap_vmas;
	unsigned char *shadowed;		/* mm id -> 1 once set_mm() has seen it, 2 once dead */
	uint32_t cap_shadowed;
	/* the collapse in progress: the huge folio, its charge, the pages it took over */
	uint32_t huge_pfn;
	bool charged;
	long resident;
	int collapse_result;			/* trace_mm_collapse_huge_page()'s, -1 none */
	uint32_t isolated[KH_MAX_ISOLATED];	/* folio_isolate_lru()'d, not put back yet */
	bool unevictable[KH_MAX_ISOLATED];	/* ... from the unevictable list */
	int nr_isolated;
	/* the call in progress: a wake-up (madv_mm < 0) or MADV_COLLAPSE of madv_mm from madv_next */
	int madv_mm;
	uint64_t madv_next;
	/* what the text ran (text_ran) */
	unsigned long wakeups, ranges, collapses, collapsed, madvise_calls, swapins, scans_traced;
	unsigned long full_traced;		/* mm_khugepaged_scan records that ended a full scan */
	unsigned long calls, checked;		/* text calls, and the count the oracle last compared at */
	unsigned long warnings;
};

static struct aw_kbind_kh *kh_of(struct aw_kernel *k)
{
	return k->kh_state;
}

/* -- the host: the model's machine as khugepaged's text reaches it -------------- */

static struct vm_area_struct *host_vma(struct aw_kernel *k, int id, uint64_t addr)
{
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);
	struct vm_area_struct *vma = mm ? find_vma(mm, addr) : NULL;

	return vma && vma->vm_start <= addr ? vma : NULL;
}

/* thp_vma_allowable_order(vma, vm_flags, TVA_ENFORCE_SYSFS or 0, PMD_ORDER) */
static bool host_thp_allowable(void *ctx, int id, unsigned long start, unsigned long vm_flags, bool enforce_sysfs)
{
	struct aw_kernel *k = ctx;
	struct vm_area_struct *vma = host_vma(k, id, start);

	return vma && aw_thp_vma_allowable_khugepaged(k, aw_mm(k, (uint32_t)id), vma, vm_flags, !enforce_sysfs);
}

static bool kh_isolated(const struct aw_kbind_kh *b, uint32_t pfn, int *at)
{
	for (int i = 0; i < b->nr_isolated; i++)
		if (b->isolated[i] == pfn) {
			if (at)
				*at = i;
			return true;
		}
	return false;
}

/*
 * folio_ref_count(): the references the model's machine holds -- one per
 * mapping, the swap cache's, and folio_isolate_lru()'s -- so that
 * is_refcount_suitable() sees no pin the model has not (it has none).
 */
static int host_folio_ref_count(void *ctx, struct folio *folio)
{
	struct aw_kbind_kh *b = kh_of(ctx);
	int refs = folio->mapcount;

	if (folio_test(folio, PG_swapcache))
		refs += (int)folio_nr_pages(folio);
	return refs + kh_isolated(b, folio->pfn, NULL);
}

/*
 * folio_isolate_lru(): off its generation (lru_gen_del_folio() keeps
 * PG_active for an active one).  An unevictable folio is on no generation
 * in the model, which keeps no unevictable list: PG_unevictable stands
 * for its place on one (ktext_kh_state.h folio_test_lru()), cleared while
 * it is isolated.
 */
static bool host_isolate_lru(void *ctx, struct folio *folio)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);

	if (b->nr_isolated == KH_MAX_ISOLATED)
		return false;
	if (folio_test(folio, PG_unevictable) && !folio_test(folio, PG_lru)) {
		/* off the unevictable list the model does not keep: the flag marks it on one */
		folio_clear(folio, PG_unevictable);
		b->unevictable[b->nr_isolated] = true;
	} else if (folio_test(folio, PG_lru) && folio_lru_gen(folio) >= 0) {
		folio_clear(folio, PG_lru);	/* folio_test_clear_lru() */
		lru_gen_del_folio(aw_lruvec(k, folio->memcg, folio->nid), folio, false);
		b->unevictable[b->nr_isolated] = false;
	} else {
		return false;
	}
	b->isolated[b->nr_isolated++] = folio->pfn;
	return true;
}

/* A folio nobody maps is freed by its last reference (__folio_put()). */
static void kh_put_if_unused(struct aw_kernel *k, struct folio *folio)
{
	struct aw_kbind_kh *b = kh_of(k);

	if (folio->mapcount || folio_test(folio, PG_swapcache) || kh_isolated(b, folio->pfn, NULL))
		return;
	if (folio->pfn == b->huge_pfn && !b->charged) {
		aw_folio_free(&k->mem, folio->pfn);	/* never charged: nothing to uncharge */
		b->huge_pfn = AW_NIL;
		return;
	}
	if (folio->pfn == b->huge_pfn)
		b->huge_pfn = AW_NIL;
	aw_folio_put(k, folio->pfn);
}

/* folio_putback_lru(): folio_add_lru() outside a fault, then the isolation's reference goes */
static void host_putback_lru(void *ctx, struct folio *folio)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	int at;

	if (!kh_isolated(b, folio->pfn, &at))
		return;
	if (b->unevictable[at])
		folio_set(folio, PG_unevictable);
	b->nr_isolated--;
	b->isolated[at] = b->isolated[b->nr_isolated];
	b->unevictable[at] = b->unevictable[b->nr_isolated];
	if (folio->mapcount)
		k->mglru->folio_add_lru(k, folio, false);
	else
		kh_put_if_unused(k, folio);
}

static void host_put(void *ctx, struct folio *folio)
{
	kh_put_if_unused(ctx, folio);
}

/* do_swap_page() of one PTE: on the node of the huge folio, as the model's collapse does */
static unsigned int host_swapin(void *ctx, int id, unsigned long addr)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);
	struct vm_area_struct *vma = host_vma(k, id, addr);
	int nid = b->huge_pfn != AW_NIL ? pfn_folio(&k->mem, b->huge_pfn)->nid : 0;

	if (!mm || !vma)
		return 0x000002;	/* VM_FAULT_SIGBUS */
	b->swapins++;
	return aw_kh_swapin_pte(k, mm, vma, addr, nid) == SCAN_SUCCEED ? 0 : 0x000001;	/* VM_FAULT_OOM */
}

static struct folio *host_alloc_huge(void *ctx, int node, unsigned long nodemask)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	uint32_t pfn = aw_kh_alloc_huge(k, node, nodemask);

	b->resident = 0;
	b->charged = false;
	b->huge_pfn = pfn;
	return pfn == AW_NIL ? NULL : pfn_folio(&k->mem, pfn);
}

static int host_charge(void *ctx, int id, struct folio *folio)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);

	if (!mm || aw_kh_charge(k, mm, folio->pfn))
		return -12;	/* -ENOMEM */
	b->charged = true;
	return 0;
}

/* pgtable_trans_huge_deposit(): the model deposits no table; it goes (docs/model-notes.md) */
static void host_deposit(void *ctx, int id, unsigned long table)
{
	aw_pgtable_free(ctx, (uint32_t)table);
}

static void host_install_pmd(void *ctx, int id, unsigned long haddr, struct folio *folio, bool writable)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);
	struct vm_area_struct *vma = host_vma(k, id, haddr);

	if (!mm || !vma)
		return;
	aw_kh_install_pmd(k, mm, vma, haddr, folio->pfn, b->resident);
	aw_mm_event(k, mm, AW_FAULT_COLLAPSED);
	b->huge_pfn = AW_NIL;	/* mapped now: no longer the collapse's to free */
	b->collapsed++;
}

/* the copy's contents: each subpage takes its source's version (0: zeroed) */
static void host_copy_page(void *ctx, struct folio *huge, int i, unsigned long src_pfn)
{
	struct aw_kernel *k = ctx;
	struct folio *src = src_pfn ? pfn_folio(&k->mem, src_pfn) : NULL;

	*folio_page_version(huge, i) = src ? src->version : 0;
	if (src && src->version)
		folio_clear(huge, PG_zeroed);
}

/* ptep_clear() after the copy: the rmap of a mapped page goes (the text cleared the entry) */
static void host_unmap_pte(void *ctx, int id, unsigned long addr, unsigned long pfn)
{
	struct aw_kernel *k = ctx;
	struct folio *folio = is_zero_pfn(pfn) ? NULL : pfn_folio(&k->mem, pfn);

	if (!folio)
		return;
	kh_of(k)->resident++;
	aw_rmap_remove(&k->mem, folio, (uint32_t)id, addr);
}

static void host_event(void *ctx, int item)
{
	(void)ctx;
	(void)item;	/* THP_* vm events: the model keeps none of khugepaged's */
}

/* The range a trace record belongs to: khugepaged's cursor, or MADV_COLLAPSE's next range. */
static uint64_t kh_range(struct aw_kbind_kh *b)
{
	struct aw_kh_state st;

	if (b->madv_mm >= 0) {
		uint64_t addr = b->madv_next;

		b->madv_next += PMD_SIZE;
		return addr;
	}
	b->ops->state(b->kh, &st);
	return st.address;
}

/* trace_mm_khugepaged_scan_pmd(): one range's result, after its collapse if there was one */
static void host_trace_scan_pmd(void *ctx, int id, int writable, int referenced, int none_or_zero, int status,
				int unmapped)
{
	struct aw_kernel *k = ctx;
	struct aw_kbind_kh *b = kh_of(k);
	int result = aw_scan_result_parse(b->ops->result_name(status));
	uint64_t haddr = kh_range(b);
	struct mm_struct *mm = aw_mm(k, (uint32_t)id);

	if (b->madv_mm < 0) {
		b->ranges++;
		aw_kh_note_range(k, result);
	} else if (result == SCAN_SUCCEED) {
		k->kh.madv_collapsed++;
	}
	if (b->collapse_result >= 0 && mm) {
		struct vm_area_struct none = { 0 }, *vma = host_vma(k, id, haddr);

		aw_kh_record_collapse(k, mm, vma ? vma : &none, haddr, b->madv_mm < 0, result);
		trace_mm_collapse_huge_page(k, mm, haddr, result);
	}
	b->collapse_result = -1;
}

static void host_trace_collapse(void *ctx, int id, int isolated, int status)
{
	struct aw_kbind_kh *b = kh_of(ctx);

	b->collapses++;
	b->collapse_result = status;
}

/* the series' mm_khugepaged_scan: the model's own record of it */
static void host_trace_scan(void *ctx, int id, unsigned int progress, bool full)
{
	struct aw_kernel *k = ctx;

	struct aw_kbind_kh *b = kh_of(k);

	b->scans_traced++;
	k->kh.calls++;
	k->kh.progress += progress;
	/* what each full scan took, for kh_scan_progress_first ... (the model's at the same point) */
	if (full && b->full_traced < AW_KH_FULL_LOG) {
		k->kh.progress_at_full[b->full_traced] = k->kh.progress;
		k->kh.calls_at_full[b->full_traced] = k->kh.calls;
	}
	b->full_traced += full;
	aw_kh_trace_scan(k, (uint32_t)id, progress, full);
}

/* -- the seam ---------------------------------------------------------------- */

static void kh_set_mm(struct aw_kbind_kh *b, uint32_t id, struct mm_struct *mm)
{
	struct aw_kernel *k = b->k;
	struct aw_kh_mm d = { .exiting = true };

	if (mm) {
		if (mm->nr_vmas > b->cap_vmas) {
			struct aw_ktext_vma *v = realloc(b->vmas, (size_t)mm->nr_vmas * 2 * sizeof(*v));

			if (!v)
				abort();
			b->vmas = v;
			b->cap_vmas = mm->nr_vmas * 2;
		}
		for (int i = 0; i < mm->nr_vmas; i++)
			b->vmas[i] = (struct aw_ktext_vma){ .start = mm->vmas[i].vm_start, .end = mm->vmas[i].vm_end,
							    .vm_flags = mm->vmas[i].vm_flags,
							    .file = mm->vmas[i].file };
		d = (struct aw_kh_mm){
			.pgd = aw_table(&k->pt, mm->pgd)->e, .vmas = b->vmas, .nr_vmas = mm->nr_vmas,
			.exiting = mm->exiting, .thp_disabled = mm->thp_disable == AW_THP_DISABLE_COMPLETELY,
			.mmap_contended = mm->mmap_contended,
		};
	}
	b->ops->set_mm(b->kh, (int)id, &d);
}

/*
 * The text's shadow mms from the model's, before each call: an mm that
 * is gone keeps its shadow as an exiting mm with no VMAs and no tables,
 * since the text may hold its slot until collect_mm_slot() (refreshed
 * once).  mm ids are never reused.
 */
static void kh_refresh(struct aw_kbind_kh *b)
{
	struct aw_kernel *k = b->k;

	if (k->nr_mms > b->cap_shadowed) {
		unsigned char *s = realloc(b->shadowed, k->nr_mms * 2);

		if (!s)
			abort();
		memset(s + b->cap_shadowed, 0, k->nr_mms * 2 - b->cap_shadowed);
		b->shadowed = s;
		b->cap_shadowed = k->nr_mms * 2;
	}
	for (uint32_t id = 0; id < k->nr_mms; id++) {
		struct mm_struct *mm = aw_mm(k, id);

		if (b->shadowed[id] == 2)
			continue;
		kh_set_mm(b, id, mm);
		b->shadowed[id] = mm ? 1 : 2;
	}
	b->ops->knobs(b->kh, k->cfg.thp != AW_THP_NEVER, k->kh.pages_to_scan, k->kh.max_ptes_none,
		      k->kh.max_ptes_swap, k->kh.max_ptes_shared);
}

/* a WARN of khugepaged's text is a finding like the MGLRU text's (kbind.c kb_warnings()) */
static void kh_warnings(struct aw_kbind_kh *b)
{
	struct aw_kh_state st;

	b->ops->state(b->kh, &st);
	if (st.warnings != b->warnings) {
		b->warnings = st.warnings;
		aw_warn_always(&b->k->warn, st.last_warning ? st.last_warning : "khugepaged text", b->ops->name, 0);
	}
}

static void kb_kh_enter_vma(struct aw_kernel *k, struct mm_struct *mm, const struct vm_area_struct *vma,
			    uint64_t vm_flags)
{
	struct aw_kbind_kh *b = kh_of(k);

	kh_refresh(b);
	b->ops->enter_vma(b->kh, (int)mm->id, vma->vm_start, vm_flags);
	kh_warnings(b);
}

static void kb_kh_fork(struct aw_kernel *k, struct mm_struct *mm, struct mm_struct *oldmm)
{
	struct aw_kbind_kh *b = kh_of(k);

	kh_refresh(b);
	b->ops->fork(b->kh, (int)mm->id, (int)oldmm->id);
	kh_warnings(b);
}

/* khugepaged_exit() from __mmput(): the mm is still whole, its users gone */
static void kb_kh_exit(struct aw_kernel *k, struct mm_struct *mm)
{
	struct aw_kbind_kh *b = kh_of(k);

	kh_refresh(b);
	b->ops->exit(b->kh, (int)mm->id);
	kh_warnings(b);
}

static void kb_kh_do_scan(struct aw_kernel *k, unsigned int pages)
{
	struct aw_kbind_kh *b = kh_of(k);
	struct aw_kh_state st;

	kh_refresh(b);
	/* a wake-up with its own budget (the event's PAGES) scans that many: the knob for this call */
	if (pages)
		b->ops->knobs(b->kh, k->cfg.thp != AW_THP_NEVER, pages, k->kh.max_ptes_none, k->kh.max_ptes_swap,
			      k->kh.max_ptes_shared);
	b->madv_mm = -1;
	b->collapse_result = -1;
	b->wakeups++;
	b->calls++;
	k->kh.wakeups++;
	b->ops->do_scan(b->kh);
	b->ops->state(b->kh, &st);
	k->kh.pages_collapsed = st.pages_collapsed;
	k->kh.full_scans = st.full_scans;
	kh_warnings(b);
}

static bool kb_kh_list_empty(struct aw_kernel *k)
{
	struct aw_kbind_kh *b = kh_of(k);
	struct aw_kh_state st;

	b->ops->state(b->kh, &st);
	return !st.nr_slots;
}

static int kb_kh_madvise_collapse(struct aw_kernel *k, struct mm_struct *mm, uint64_t start, uint64_t end)
{
	struct aw_kbind_kh *b = kh_of(k);
	int ret;

	kh_refresh(b);
	b->madv_mm = (int)mm->id;
	b->madv_next = (start + PMD_SIZE - 1) & PMD_MASK;
	b->collapse_result = -1;
	b->madvise_calls++;
	b->calls++;
	ret = b->ops->madvise(b->kh, (int)mm->id, start, end);
	b->madv_mm = -1;
	kh_warnings(b);
	return ret ? -1 : 0;
}

/* the sysfs stores are mm/khugepaged.c's under CONFIG_SYSFS, which the text leaves out: the model's */
static int kb_kh_set(struct aw_kernel *k, int knob, uint64_t val)
{
	return aw_model_khugepaged.set(k, knob, val);
}

static void kb_kh_release(struct aw_kernel *k)
{
	struct aw_kbind_kh *b = kh_of(k);

	if (!b)
		return;
	b->ops->destroy(b->kh);
	free(b->vmas);
	free(b->shadowed);
	free(b);
	k->kh_state = NULL;
}

/*
 * What the text's runs report: what its tracepoints and state give --
 * wake-ups, full scans, collapses, each range's result; and with the
 * scan series, mm_khugepaged_scan's calls and progress.  Not the model's
 * own instrumentation: the budget a tree without the series consumes (no
 * tracepoint reports it), the exhausted list's top-up, the lazyfree skips
 * (a result, counted as page_lazyfree).
 */
static bool kb_kh_measures(const struct aw_kernel *k, const char *key)
{
	static const char *const unmeasured[] = { "kh_topup", "kh_lazyfree_skips" };
	bool series = k->features & AW_FEAT_KHUGEPAGED_PATCHED;

	for (size_t i = 0; i < sizeof(unmeasured) / sizeof(unmeasured[0]); i++)
		if (!strcmp(key, unmeasured[i]))
			return false;
	if (!strcmp(key, "kh_calls") || !strcmp(key, "kh_progress") || !strcmp(key, "kh_trace_records") ||
	    !strncmp(key, "kh_scan_progress_", 17) || !strncmp(key, "kh_scan_calls_", 14))
		return series;
	return true;
}

static const struct aw_khugepaged_ops kb_kh_ops = {
	.name = "kernel text",
	.enter_vma = kb_kh_enter_vma,
	.fork = kb_kh_fork,
	.exit = kb_kh_exit,
	.do_scan = kb_kh_do_scan,
	.list_empty = kb_kh_list_empty,
	.madvise_collapse = kb_kh_madvise_collapse,
	.set = kb_kh_set,
	.release = kb_kh_release,
	.measures = kb_kh_measures,
};

static int kb_kh_bind(struct aw_kernel *k, const struct aw_variant *v)
{
	struct aw_kbind_kh *b = calloc(1, sizeof(*b));

	if (!b) {
		snprintf(k->err, sizeof(k->err), "out of memory binding khugepaged's text");
		return -1;
	}
	b->k = k;
	b->ops = v->text;
	b->huge_pfn = AW_NIL;
	b->madv_mm = -1;
	b->collapse_result = -1;
	aw_kbind_machine_host(k, &b->kthost);
	b->host = (struct aw_kh_host){
		.ctx = k, .thp_allowable = host_thp_allowable, .folio_ref_count = host_folio_ref_count,
		.isolate_lru = host_isolate_lru, .putback_lru = host_putback_lru, .put = host_put,
		.swapin = host_swapin, .alloc_huge = host_alloc_huge, .install_pmd = host_install_pmd,
		.copy_page = host_copy_page, .unmap_pte = host_unmap_pte, .event = host_event,
		.trace_scan_pmd = host_trace_scan_pmd, .trace_collapse = host_trace_collapse,
		.charge = host_charge, .deposit = host_deposit, .trace_scan = host_trace_scan,
	};
	b->kh = b->ops->create(&b->kthost, &b->host);
	if (!b->kh) {
		free(b);
		snprintf(k->err, sizeof(k->err), "out of memory binding khugepaged's text");
		return -1;
	}
	k->khops = &kb_kh_ops;
	k->kh_state = b;
	return 0;
}

/* -- the agreement oracle ---------------------------------------------------- */

static int nr_slots(struct aw_kernel *k)
{
	int n = 0;

	for (const struct list_head *p = k->kh.scan.mm_head.next; p && p != &k->kh.scan.mm_head; p = p->next)
		n++;
	return n;
}

/*
 * khugepaged-text-agreement: after each call into the text, the text's
 * khugepaged state against the model's -- the cursor (mm slot, address),
 * the mm slots, khugepaged_pages_collapsed, khugepaged_full_scans, each
 * range's result and the collapses' -- then the machine both left:
 * every page table, folio, generation and swap slot (kbind_agree.c).
 */
static int kb_kh_agree(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len)
{
	struct aw_kbind_kh *b = text->khops == &kb_kh_ops ? kh_of(text) : NULL;
	struct aw_kh_state st;
	int model_mm;

	if (!b || b->calls == b->checked)
		return 0;
	b->checked = b->calls;
	b->ops->state(b->kh, &st);
	model_mm = model->kh.scan.mm_slot ? (int)model->kh.scan.mm_slot->mm : -1;
	if (model_mm != st.cursor_mm)
		return aw_kbind_differ(msg, len, "khugepaged_scan.mm_slot: model mm %d, kernel text mm %d", model_mm,
			      st.cursor_mm);
	if (model_mm >= 0 && model->kh.scan.address != st.address)
		return aw_kbind_differ(msg, len, "khugepaged_scan.address: model %#llx, kernel text %#lx",
			      (unsigned long long)model->kh.scan.address, st.address);
	if (nr_slots(model) != st.nr_slots)
		return aw_kbind_differ(msg, len, "khugepaged mm slots: model %d, kernel text %d", nr_slots(model), st.nr_slots);
	if (model->kh.pages_collapsed != st.pages_collapsed)
		return aw_kbind_differ(msg, len, "khugepaged_pages_collapsed: model %lu, kernel text %lu",
			      model->kh.pages_collapsed, st.pages_collapsed);
	if (model->kh.full_scans != st.full_scans)
		return aw_kbind_differ(msg, len, "khugepaged_full_scans: model %lu, kernel text %lu", model->kh.full_scans,
			      st.full_scans);
	for (int r = 0; r < SCAN_NR; r++)
		if (model->kh.result[r] != text->kh.result[r])
			return aw_kbind_differ(msg, len, "ranges with result %s: model %lu, kernel text %lu",
				      aw_scan_result_name(r), model->kh.result[r], text->kh.result[r]);
	if (model->kh.madv_collapsed != text->kh.madv_collapsed)
		return aw_kbind_differ(msg, len, "MADV_COLLAPSE ranges collapsed: model %lu, kernel text %lu",
			      model->kh.madv_collapsed, text->kh.madv_collapsed);
	for (int i = 0; i < model->kh.nr_collapses && i < text->kh.nr_collapses; i++) {
		const struct aw_kh_collapse *m = &model->kh.collapses[i], *t = &text->kh.collapses[i];

		if (m->mm != t->mm || m->haddr != t->haddr || m->result != t->result)
			return aw_kbind_differ(msg, len, "collapse %d: model mm %u %#llx %s, kernel text mm %u %#llx %s", i,
				      m->mm, (unsigned long long)m->haddr, aw_scan_result_name(m->result), t->mm,
				      (unsigned long long)t->haddr, aw_scan_result_name(t->result));
	}
	if (model->kh.nr_collapses != text->kh.nr_collapses)
		return aw_kbind_differ(msg, len, "collapse attempts: model %d, kernel text %d", model->kh.nr_collapses,
			      text->kh.nr_collapses);
	if (aw_kh_patched(model)) {
		if (model->kh.calls != text->kh.calls || model->kh.progress != text->kh.progress)
			return aw_kbind_differ(msg, len, "mm_khugepaged_scan: model %lu calls, progress %lu; kernel text %lu "
				      "calls, progress %lu", model->kh.calls, model->kh.progress, text->kh.calls,
				      text->kh.progress);
	}
	return aw_kbind_agree_machine(model, text, msg, len);
}

/* -- what the text ran ------------------------------------------------------- */

static void kb_kh_text_ran(const struct aw_kernel *k, struct aw_text_ran *out)
{
	const struct aw_kbind_kh *b = k->khops == &kb_kh_ops ? k->kh_state : NULL;
	static const char *const key[] = {
		"kh_wakeups", "kh_ranges", "kh_collapse_attempts", "kh_collapsed", "kh_madvise_calls",
		"kh_swapins", "kh_scan_records",
	};
	static const char *const label[] = {
		"khugepaged_do_scan() calls", "ranges scanned by khugepaged", "collapse_huge_page() calls",
		"THPs installed", "madvise_collapse() calls", "do_swap_page() calls",
		"mm_khugepaged_scan records",
	};

	*out = (struct aw_text_ran){ .idle = true };
	if (!b)
		return;
	out->nr = 7;
	for (int i = 0; i < out->nr; i++) {
		out->key[i] = key[i];
		out->label[i] = label[i];
	}
	out->value[0] = b->wakeups;
	out->value[1] = b->ranges;
	out->value[2] = b->collapses;
	out->value[3] = b->collapsed;
	out->value[4] = b->madvise_calls;
	out->value[5] = b->swapins;
	out->value[6] = b->scans_traced;
	/* a wake-up that found no slot scanned nothing: ranges and MADV_COLLAPSE calls are the work */
	out->idle = !b->ranges && !b->madvise_calls;
}

/* -- the variants ------------------------------------------------------------ */

void aw_kbind_kh_name(const struct aw_kh_ops *ops, char *buf, size_t len)
{
	snprintf(buf, len, "kh%s", ops->name[0] == 'k' ? ops->name + 1 : ops->name);
}

/* kh6.12 -> the tree named k6.12; kh6.12+series -> the tree with the khugepaged series */
static const struct aw_kh_ops *kh_find(const char *name)
{
	if (strncmp(name, "kh", 2) || !strncmp(name, "khugepaged-", 11))
		return NULL;
	for (const struct aw_kh_ops *const *v = aw_kh_variants; *v; v++) {
		if ((*v)->name[0] == 'k' && !strcmp((*v)->name + 1, name + 2))
			return *v;
		if (!strcmp(name + 2, "6.12+series") && (*v)->patched)
			return *v;
	}
	return NULL;
}

const struct aw_variant *aw_kbind_kh_find(const char *name, struct aw_variant *buf)
{
	const struct aw_kh_ops *ops = kh_find(name);
	bool patched;
	char release[16];
	int profile;

	if (!ops)
		return NULL;
	patched = ops->patched;
	snprintf(release, sizeof(release), "%u.%u", ops->version >> 16, ops->version >> 8 & 0xff);
	profile = aw_kernel_release_profile(release);
	/* name: the caller's spelling (kh6.12+series too), which outlives the run (options, fuzz targets) */
	*buf = (struct aw_variant){
		.name = name, .features = patched ? AW_FEAT_KHUGEPAGED_PATCHED : 0, .bind = kb_kh_bind,
		.agree = kb_kh_agree, .text = ops, .text_ran = kb_kh_text_ran,
		.pair = patched ? "khugepaged-patched" : "khugepaged-base", .khugepaged = true,
		.kernel = (profile >= 0 ? profile : AW_KERNEL_MAINLINE) + 1,
	};
	return buf;
}
