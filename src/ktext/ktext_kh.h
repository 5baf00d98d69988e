/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What khugepaged's text (mm/khugepaged.c, mm/mm_slot.h,
 * include/linux/khugepaged.h) takes for granted beyond the MGLRU shim:
 * included by each generated khugepaged file after ktext_objects.h (the
 * same folios, VMAs, mm structs and page tables as the MGLRU text) and
 * before the tree's khugepaged types.  Nothing here depends on those
 * types; the per-machine state that does is ktext_kh_state.h.
 *
 * Three kinds of stand-in, each named after the kernel function it is:
 *  - vocabulary (attributes, hash tables, nodemasks, fault codes, GFP
 *    flags, event numbers): the kernel's, spelled for user space;
 *  - one CPU: mmap_lock, the PTL, the anon_vma lock, folio locks and
 *    references, RCU, MMU notifiers and TLB flushes are no-ops or
 *    counters (the model is single-threaded; docs/ktext.md);
 *  - machine actions (allocation and charge of the huge folio, isolation
 *    from the LRU, rmap, the copy, the PMD's installation, swap-in,
 *    counters): the host's, through struct aw_kh_host
 *    (ktext_kh_state.h), as the MGLRU text hands reclaim to the model.
 * File/shmem collapse is not the model's (no CONFIG_SHMEM): its entry
 * points are WARNs here.
 */
#ifndef AW_KTEXT_KH_H
#define AW_KTEXT_KH_H

/* include/linux/compiler_types.h, cache.h, init.h */
#define __read_mostly
#define __ro_after_init
#define __releases(x)
#define __acquires(x)
#define __must_hold(x)
#define __init
#define __user
#define fallthrough		__attribute__((__fallthrough__))
#define BUG_ON(c)		((void)WARN_ON_ONCE(c))
#define BUG()			((void)WARN_ON_ONCE(1))
/* in code the configuration makes dead (file collapse without CONFIG_SHMEM) */
#define BUILD_BUG()		do { WARN_ON_ONCE(1); abort(); } while (0)
#define VM_BUG_ON_MM(c, mm)	((void)(mm), (void)WARN_ON_ONCE(c))
#define VM_BUG_ON_PAGE(c, p)	((void)(p), (void)WARN_ON_ONCE(c))
#define VM_WARN_ON_FOLIO(c, f)	((void)(f), (void)WARN_ON_ONCE(c))

typedef unsigned long pgoff_t;

/*
 * struct page (src/kapi/linux/mm_types.h): a folio's head page is the
 * folio's own first words (&folio->page); any other pfn's page (a tail of
 * the huge folio being filled, a page table) is made when first named and
 * kept by the machine, its pfn in flags with AW_KH_PAGE_MEMMAP set
 * (pfn_to_page(), ktext_kh_state.h).
 */
#define AW_KH_PAGE_MEMMAP	(1UL << 63)
typedef struct page *pgtable_t;

/* include/linux/nodemask.h */
typedef struct { unsigned long bits[BITS_TO_LONGS(MAX_NUMNODES)]; } nodemask_t;
#define nodes_clear(m)		bitmap_zero((m).bits, MAX_NUMNODES)
#define node_set(n, m)		set_bit((n), (m).bits)
#define node_isset(n, m)	test_bit((n), (m).bits)
#define NUMA_NO_NODE		(-1)
#define for_each_online_node(nid)	for_each_node(nid)
#define node_distance(a, b)	((a) == (b) ? 10 : 20)	/* LOCAL_DISTANCE, REMOTE_DISTANCE */
#define node_reclaim_distance	30			/* RECLAIM_DISTANCE */
#define node_reclaim_enabled()	false			/* vm.zone_reclaim_mode 0 */

/* include/linux/hashtable.h, list.h: hlists */
struct hlist_node {
	struct hlist_node *next, **pprev;
};
struct hlist_head {
	struct hlist_node *first;
};
#define HASH_SIZE(name)		(ARRAY_SIZE(name))
#define HASH_BITS(name)		ilog2(HASH_SIZE(name))
#define hash_min(val, bits)	hash_long((unsigned long)(val), (bits))
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (n->next)
		n->next->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}
static inline void hash_del(struct hlist_node *n)
{
	if (!n->pprev)
		return;
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}
#define hash_add(table, node, key)	hlist_add_head((node), &(table)[hash_min((key), HASH_BITS(table))])
#define hlist_entry_safe(ptr, type, member) \
	({ __typeof__(ptr) ____ptr = (ptr); ____ptr ? container_of(____ptr, type, member) : NULL; })
#define hlist_for_each_entry(pos, head, member)						\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member); pos;		\
	     pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
#define hash_for_each_possible(name, obj, member, key) \
	hlist_for_each_entry(obj, &(name)[hash_min((key), HASH_BITS(name))], member)
#define list_for_each_entry_safe(pos, n, head, member)					\
	for (pos = list_first_entry(head, __typeof__(*(pos)), member),			\
	     n = list_next_entry(pos, member); &(pos)->member != (head);			\
	     pos = n, n = list_next_entry(n, member))

/* mm/slab.h: mm_slot_cache is a name; each slot is calloc'd */
struct kmem_cache { size_t size; };
struct rcu_head { void *next; };
static inline void *kmem_cache_zalloc(struct kmem_cache *c, gfp_t gfp) { return calloc(1, c->size); }
static inline void kmem_cache_free(struct kmem_cache *c, void *p) { free(p); }
#define kmalloc(size, gfp)	malloc(size)
#define get_file(f)		(f)
#define fput(f)			((void)(f))

/* include/linux/sched/coredump.h: mm->flags bits, shared with the model */
#include "linux/sched/coredump.h"
static inline int test_and_set_bit(long nr, unsigned long *addr)
{
	int old = test_bit(nr, addr);

	set_bit(nr, addr);
	return old;
}

/* include/linux/huge_mm.h: sizes; the policy (thp_vma_allowable_order()) is the host's */
#ifndef HPAGE_PMD_SIZE
#define HPAGE_PMD_SIZE		PMD_SIZE
#endif
#ifndef HPAGE_PMD_MASK
#define HPAGE_PMD_MASK		(~(HPAGE_PMD_SIZE - 1))
#endif
#define PMD_ORDER		HPAGE_PMD_ORDER
#ifndef HPAGE_PMD_SHIFT
#define HPAGE_PMD_SHIFT		PMD_SHIFT
#endif
#define TVA_SMAPS		(1 << 0)
#define TVA_IN_PF		(1 << 1)
#define TVA_ENFORCE_SYSFS	(1 << 2)
enum transparent_hugepage_flag {
	TRANSPARENT_HUGEPAGE_UNSUPPORTED, TRANSPARENT_HUGEPAGE_FLAG,
	TRANSPARENT_HUGEPAGE_REQ_MADV_FLAG, TRANSPARENT_HUGEPAGE_DEFRAG_DIRECT_FLAG,
	TRANSPARENT_HUGEPAGE_DEFRAG_KSWAPD_FLAG, TRANSPARENT_HUGEPAGE_DEFRAG_KSWAPD_OR_MADV_FLAG,
	TRANSPARENT_HUGEPAGE_DEFRAG_REQ_MADV_FLAG, TRANSPARENT_HUGEPAGE_DEFRAG_KHUGEPAGED_FLAG,
	TRANSPARENT_HUGEPAGE_USE_ZERO_PAGE_FLAG,
};

/* include/linux/gfp_types.h: the huge folio's allocation flags (the host ignores them) */
#define __GFP_THISNODE		0x200000u
#define __GFP_DIRECT_RECLAIM	0x400u
#define __GFP_KSWAPD_RECLAIM	0x800u
#define GFP_TRANSHUGE_LIGHT	0x1u
#define GFP_TRANSHUGE		(GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

/* include/linux/mm_types.h: vm_fault_t and the fault flags do_swap_page() takes */
typedef unsigned int vm_fault_t;
enum vm_fault_reason {
	VM_FAULT_OOM = 0x000001, VM_FAULT_SIGBUS = 0x000002, VM_FAULT_MAJOR = 0x000004,
	VM_FAULT_HWPOISON = 0x000010, VM_FAULT_HWPOISON_LARGE = 0x000020,
	VM_FAULT_SIGSEGV = 0x000040, VM_FAULT_NOPAGE = 0x000100, VM_FAULT_LOCKED = 0x000200,
	VM_FAULT_RETRY = 0x000400, VM_FAULT_FALLBACK = 0x000800,
};
#define VM_FAULT_ERROR	(VM_FAULT_OOM | VM_FAULT_SIGBUS | VM_FAULT_SIGSEGV | \
			 VM_FAULT_HWPOISON | VM_FAULT_HWPOISON_LARGE | VM_FAULT_FALLBACK)
#define FAULT_FLAG_ALLOW_RETRY	0x04u
#define FAULT_FLAG_RETRY_NOWAIT	0x08u
struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address;
	pgoff_t pgoff;
	unsigned int flags;
	pmd_t *pmd;
	pte_t orig_pte;
	pte_t *pte;
	spinlock_t *ptl;
};
#define linear_page_index(vma, addr)	((pgoff_t)((addr) >> PAGE_SHIFT))

/* include/linux/vm_event_item.h, mmzone.h: khugepaged's events and node counters (the host's) */
enum aw_kh_event {
	THP_COLLAPSE_ALLOC, THP_COLLAPSE_ALLOC_FAILED, THP_SCAN_EXCEED_NONE_PTE,
	THP_SCAN_EXCEED_SWAP_PTE, THP_SCAN_EXCEED_SHARED_PTE, AW_KH_NR_EVENTS
};
enum aw_kh_node_stat { NR_ISOLATED_ANON = 100, NR_ISOLATED_FILE };

/* a non-leaf entry's bits as the model writes them (present, writable, user, accessed, dirty) */
#define AW_KH_PAGE_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | _PAGE_DIRTY)
#define p4d_present(p4d)	(p4d_val(p4d) & _PAGE_PRESENT)

/* include/linux/mm.h: VMA iterator at an address (madvise_collapse()) */
#define vma_iter_init(vmi, mm_, addr_)	((vmi)->mm = (mm_), (vmi)->addr = (addr_))

/* include/linux/mmu_notifier.h: no notifiers */
struct mmu_notifier_range { unsigned long start, end; };
#define MMU_NOTIFY_CLEAR	0
#define mmu_notifier_range_init(r, ...)		((void)(r))	/* 6.1 names the VMA too */
#define mmu_notifier_invalidate_range_start(r)		((void)(r))
#define mmu_notifier_invalidate_range_end(r)		((void)(r))
#define mmu_notifier_test_young(mm, addr)		false

/* include/linux/mmap_lock.h, sched/mm.h, rmap.h: one CPU, the model runs nothing between */
#define mmap_read_lock(mm)	((void)(mm))
#define mmap_write_lock(mm)	((void)(mm))
#define mmap_write_unlock(mm)	((void)(mm))
#define mmap_assert_locked(mm)	((void)(mm))
#define mmap_assert_write_locked(mm)	((void)(mm))
#define vma_start_write(vma)	((void)(vma))
#define mmgrab(mm)		((void)(mm))
#define mmdrop(mm)		((void)(mm))
#define anon_vma_lock_write(av)		((void)(av))
#define anon_vma_unlock_write(av)	((void)(av))
#define tlb_remove_table_sync_one()	do { } while (0)
#define update_mmu_cache_pmd(vma, addr, pmd)	((void)(pmd))
#define lru_add_drain_all()	do { } while (0)
#define might_sleep()		do { } while (0)
#define RMAP_EXCLUSIVE		1
#define RMAP_NONE		0

/* include/linux/userfaultfd_k.h, ksm.h, mm.h: features the model has not */
#define userfaultfd_armed(vma)		false
#define pte_uffd_wp(pte)		false
#define pte_swp_uffd_wp(pte)		false
#define pte_swp_uffd_wp_any(pte)	false
#define ksm_might_unmap_zero_page(mm, pte)	do { } while (0)
#define is_zone_device_page(p)		false
#define folio_test_private(f)		false
#define folio_likely_mapped_shared_unused	0

/* include/linux/wait.h, sched.h, freezer.h: khugepaged_do_scan()'s wait; one CPU never sleeps */
#define TASK_INTERRUPTIBLE	1
#define TASK_FREEZABLE		0x2000
#define DEFINE_WAIT(name)	int name = 0
#define add_wait_queue(wq, w)	((void)(wq), (void)(w))
#define remove_wait_queue(wq, w)	((void)(wq), (void)(w))
#define __set_current_state(s)	((void)(s))
#define schedule_timeout(t)	({ (void)(t); 0L; })
#define wake_up_interruptible(wq)	((void)(wq))
#define msecs_to_jiffies(ms)	((unsigned long)(ms))
#define kthread_should_stop()	false
#define try_to_freeze()		false
#define freezing(t)		false
#define signal_pending(t)	false

#endif /* AW_KTEXT_KH_H */
