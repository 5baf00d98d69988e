/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kernel text takes for granted before mmzone.h: the language
 * (include/linux/compiler*.h), the types, bit and list helpers, atomics on
 * one CPU, locks that never contend, and the x86-64 page-table format.
 *
 * Included first by every file tools/ktext-extract generates; never by the
 * model.  Everything here is our own user-space spelling of a kernel
 * interface (docs/ktext.md); none of it is kernel text.  The rule for
 * what goes here rather than into ktext_objects.h: nothing in this file
 * depends on a type the tree's headers define.
 */
#ifndef AW_KTEXT_PRELUDE_H
#define AW_KTEXT_PRELUDE_H

#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktext_api.h"

/* The objects kernel text names before their definitions (ktext_objects.h). */
struct folio;
struct lruvec;
struct mem_cgroup;
struct mm_struct;
struct mm_walk;
struct page_vma_mapped_walk;
struct pglist_data;
struct scan_control;
struct task_struct;
struct vm_area_struct;

/*
 * include/linux/kconfig.h: IS_ENABLED() for the configuration
 * tools/ktext-extract fixes with unifdef (and =n for everything else).
 */
#define CONFIG_LRU_GEN 1
#define CONFIG_LRU_GEN_WALKS_MMU 1
#define CONFIG_TRANSPARENT_HUGEPAGE 1
#define CONFIG_MEMCG 1
#define CONFIG_NUMA 1
#define CONFIG_MMU 1
#define CONFIG_SWAP 1
#define CONFIG_64BIT 1
#define AW_ARG_PLACEHOLDER_1 0,
#define aw_take_second_arg(ignored, val, ...) val
#define aw_is_defined3(arg1_or_junk) aw_take_second_arg(arg1_or_junk 1, 0)
#define aw_is_defined2(val) aw_is_defined3(AW_ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option) aw_is_defined2(option)

/* include/linux/compiler*.h */
#undef __always_inline
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define __maybe_unused		__attribute__((unused))
#define __always_inline		inline __attribute__((always_inline))
#define noinline		__attribute__((noinline))
#define __aligned(x)		__attribute__((aligned(x)))
#define __force
#define __rcu
#define __randomize_layout
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define smp_store_release(p, v)	WRITE_ONCE(*(p), v)
#define smp_load_acquire(p)	READ_ONCE(*(p))
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;

/* include/linux/bits.h, bitops.h, math.h, minmax.h */
#define BITS_PER_LONG		64
#define BITS_PER_TYPE(t)	(sizeof(t) * 8)
#define BIT(n)			(1UL << (n))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(t, a, b)		min((t)(a), (t)(b))
#define max_t(t, a, b)		max((t)(a), (t)(b))
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	clamp((t)(v), (t)(lo), (t)(hi))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define order_base_2(n)		((n) > 1 ? 64 - __builtin_clzl((unsigned long)(n) - 1) : 0)
#define ilog2(n)		(63 - __builtin_clzl((unsigned long)(n)))
#define swap(a, b)		do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

static inline bool test_bit(long nr, const unsigned long *addr)
{
	return (addr[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG)) & 1;
}
static inline void set_bit(long nr, unsigned long *addr) { addr[nr / BITS_PER_LONG] |= BIT(nr % BITS_PER_LONG); }
static inline void clear_bit(long nr, unsigned long *addr) { addr[nr / BITS_PER_LONG] &= ~BIT(nr % BITS_PER_LONG); }
#define __set_bit(nr, addr)	set_bit(nr, addr)
#define __clear_bit(nr, addr)	clear_bit(nr, addr)
static inline bool test_and_clear_bit(long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	clear_bit(nr, addr);
	return old;
}
static inline unsigned int bitmap_weight(const unsigned long *map, unsigned int nbits)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < nbits; i++)
		w += test_bit(i, map);
	return w;
}
static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}
static inline void bitmap_clear(unsigned long *map, unsigned int start, unsigned int len)
{
	for (unsigned int i = start; i < start + len; i++)
		clear_bit(i, map);
}
static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long offset)
{
	for (; offset < size; offset++)
		if (test_bit(offset, addr))
			return offset;
	return size;
}
#define find_first_bit(addr, size)	find_next_bit(addr, size, 0)
#define for_each_set_bit(bit, addr, size) \
	for ((bit) = find_first_bit(addr, size); (bit) < (size); (bit) = find_next_bit(addr, size, (bit) + 1))

/* One CPU, no preemption: an atomic is a plain access, a cmpxchg always sees its old value. */
/*
 * A folio's flags are only written through these two (set_mask_bits() and
 * try_cmpxchg() on &folio->flags): a generation change is reported to the
 * host there, as the model's writes fire trace_folio_update_gen().
 */
static inline void aw_ktext_flags_written(void *p, unsigned long old, unsigned long new);
#define try_cmpxchg(ptr, oldp, new) ({					\
	__typeof__(*(ptr)) __cur = *(ptr);				\
	bool __ok = __cur == *(oldp);					\
	if (__ok) {							\
		*(ptr) = (new);						\
		aw_ktext_flags_written((ptr), __cur, *(ptr));		\
	} else {							\
		*(oldp) = __cur;					\
	}								\
	__ok;								\
})
#define set_mask_bits(ptr, mask, bits) ({				\
	__typeof__(*(ptr)) __old = *(ptr);				\
	*(ptr) = (__old & ~(__typeof__(*(ptr)))(mask)) | (bits);	\
	aw_ktext_flags_written((ptr), __old, *(ptr));			\
	__old;								\
})
typedef struct { long counter; } atomic_long_t;
typedef struct { int counter; } atomic_t;
#define atomic_long_read(v)	READ_ONCE((v)->counter)
#define atomic_long_set(v, i)	WRITE_ONCE((v)->counter, (i))
#define atomic_long_add(i, v)	((v)->counter += (i))
#define atomic_read(v)		READ_ONCE((v)->counter)
#define atomic_inc_not_zero(v)	((v)->counter ? ++(v)->counter : 0)

/* lib/string.c: memchr_inv(): the first byte that is not c, or NULL */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const unsigned char *p = start;

	for (size_t i = 0; i < bytes; i++)
		if (p[i] != (unsigned char)c)
			return (void *)(p + i);
	return NULL;
}

/* include/linux/hash.h: hash_64_generic(), the multiplicative hash */
#define GOLDEN_RATIO_64		0x61C8864680B583EBull
static inline u32 hash_64(u64 val, unsigned int bits) { return (u32)(val * GOLDEN_RATIO_64 >> (64 - bits)); }
static inline u32 hash_long(unsigned long val, unsigned int bits) { return hash_64(val, bits); }

/* include/linux/list.h */
struct list_head {
	struct list_head *next, *prev;
};
struct hlist_nulls_node {
	struct hlist_nulls_node *next, **pprev;
};
struct hlist_nulls_head {
	struct hlist_nulls_node *first;
};
#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(h, type, member)	list_entry((h)->next, type, member)
#define list_last_entry(h, type, member)	list_entry((h)->prev, type, member)
#define list_next_entry(pos, member)	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member)	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_for_each_entry(pos, head, member)					\
	for (pos = list_first_entry(head, __typeof__(*pos), member);		\
	     &pos->member != (head); pos = list_next_entry(pos, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)			\
	for (pos = list_last_entry(head, __typeof__(*pos), member),		\
	     n = list_prev_entry(pos, member);					\
	     &pos->member != (head); pos = n, n = list_prev_entry(n, member))

static inline void INIT_LIST_HEAD(struct list_head *h) { h->next = h->prev = h; }
static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}
static inline void list_add(struct list_head *n, struct list_head *h) { __list_add(n, h, h->next); }
static inline void list_add_tail(struct list_head *n, struct list_head *h) { __list_add(n, h->prev, h); }
static inline void __list_del_entry(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
}
/* list_del() poisons; NULL links fault the same way in user space */
static inline void list_del(struct list_head *e)
{
	__list_del_entry(e);
	e->next = e->prev = NULL;
}
static inline void list_del_init(struct list_head *e)
{
	__list_del_entry(e);
	INIT_LIST_HEAD(e);
}
static inline void list_move(struct list_head *e, struct list_head *h)
{
	__list_del_entry(e);
	list_add(e, h);
}
static inline void list_move_tail(struct list_head *e, struct list_head *h)
{
	__list_del_entry(e);
	list_add_tail(e, h);
}
static inline bool list_empty(const struct list_head *h) { return READ_ONCE(h->next) == h; }
static inline bool list_is_singular(const struct list_head *h) { return !list_empty(h) && h->next == h->prev; }
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev, *at = head->next;

		first->prev = head;
		head->next = first;
		last->next = at;
		at->prev = last;
	}
}
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	list_splice(list, head);
	INIT_LIST_HEAD(list);
}

/* Locks: one CPU, so a lock is a counter that must balance (checked at the glue). */
typedef struct { int locked; bool contended; } spinlock_t;	/* contended: another CPU holds it */
#define __SPIN_LOCK_UNLOCKED(name)	{ 0 }
#define spin_lock(l)		((l)->locked++)
#define spin_unlock(l)		((l)->locked--)
#define spin_lock_irq(l)	spin_lock(l)
#define spin_unlock_irq(l)	spin_unlock(l)
#define spin_trylock(l)		((l)->contended ? 0 : (spin_lock(l), 1))
#define spin_is_contended(l)	((l)->contended)
#define lockdep_assert_held(l)	((void)(l))
#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define rcu_read_lock_held()	1
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference(p)	(p)
#define cond_resched()		do { } while (0)
#define barrier()		__asm__ __volatile__("" ::: "memory")
#define need_resched()		false

/*
 * include/linux/wait.h: 6.1 lets a second aging walker sleep until the first
 * is done.  One CPU has no second walker: a wait whose condition is false
 * would sleep forever, so it is a warning and -ERESTARTSYS instead.
 */
struct wait_queue_head {
	int sleepers;
};
typedef struct wait_queue_head wait_queue_head_t;
#define init_waitqueue_head(wq)		((wq)->sleepers = 0)
#define wq_has_sleeper(wq)		((wq)->sleepers > 0)
#define wake_up_all(wq)			do { } while (0)
#define ERESTARTSYS			512
#define wait_event_killable(wq, cond)	(WARN_ON_ONCE(!(cond)) ? -ERESTARTSYS : 0)
#define PAGEVEC_SIZE			15	/* include/linux/pagevec.h, 6.1 */
#define MAX_SWAPPINESS			200	/* include/linux/swap.h */

/* include/linux/gfp_types.h: the flags kernel text passes to allocators we ignore */
#define __GFP_HIGH		0x20u
#define __GFP_IO		0x40u
#define __GFP_NOWARN		0x2000u
#define __GFP_NOMEMALLOC	0x10000u
#define GFP_KERNEL		0xcc0u
#define kzalloc(size, gfp)	calloc(1, size)
#define kfree(p)		free(p)
#define bitmap_zalloc(bits, gfp)	((unsigned long *)calloc(BITS_TO_LONGS(bits), sizeof(unsigned long)))
#define bitmap_free(p)		free(p)

#define jiffies			(aw_ktext_current()->aw_jiffies)

/* x86-64, 4-level paging (arch/x86/include/asm/pgtable*.h) */
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)
#define PMD_SHIFT		21
#define PMD_SIZE		(1UL << PMD_SHIFT)
#define PMD_MASK		(~(PMD_SIZE - 1))
#define PUD_SHIFT		30
#define PUD_SIZE		(1UL << PUD_SHIFT)
#define PUD_MASK		(~(PUD_SIZE - 1))
#define PGDIR_SHIFT		39
#define PGDIR_SIZE		(1UL << PGDIR_SHIFT)
#define P4D_SIZE		PGDIR_SIZE
#define P4D_MASK		(~(P4D_SIZE - 1))
#define PTRS_PER_PTE		512
#define PTRS_PER_PMD		512
#define PTRS_PER_PUD		512
#define PTRS_PER_PGD		512
#define HPAGE_PMD_ORDER		9
#define HPAGE_PMD_NR		512
#define FIRST_USER_ADDRESS	0UL

#define _PAGE_PRESENT		0x001UL
#define _PAGE_RW		0x002UL
#define _PAGE_USER		0x004UL
#define _PAGE_ACCESSED		0x020UL
#define _PAGE_DIRTY		0x040UL
#define _PAGE_PSE		0x080UL
#define _PAGE_SPECIAL		0x200UL
#define PTE_PFN_MASK		0x000ffffffffff000UL

typedef struct { unsigned long pte; } pte_t;
typedef struct { unsigned long pmd; } pmd_t;
typedef struct { unsigned long pud; } pud_t;
typedef struct { unsigned long p4d; } p4d_t;
typedef struct { unsigned long pgd; } pgd_t;
#define pte_val(x)	((x).pte)
#define pmd_val(x)	((x).pmd)
#define pud_val(x)	((x).pud)
#define p4d_val(x)	((x).p4d)

static inline unsigned long pte_index(unsigned long a) { return (a >> PAGE_SHIFT) & (PTRS_PER_PTE - 1); }
static inline unsigned long pmd_index(unsigned long a) { return (a >> PMD_SHIFT) & (PTRS_PER_PMD - 1); }
static inline unsigned long pud_index(unsigned long a) { return (a >> PUD_SHIFT) & (PTRS_PER_PUD - 1); }
static inline unsigned long pgd_index(unsigned long a) { return (a >> PGDIR_SHIFT) & (PTRS_PER_PGD - 1); }

/* include/linux/pgtable.h: the *_addr_end() helpers */
#define __aw_addr_end(addr, end, size) ({					\
	unsigned long __b = ((addr) + (size)) & ~((size) - 1);			\
	(__b - 1 < (end) - 1) ? __b : (end);					\
})
#define pmd_addr_end(a, e)	__aw_addr_end(a, e, PMD_SIZE)
#define pud_addr_end(a, e)	__aw_addr_end(a, e, PUD_SIZE)
#define p4d_addr_end(a, e)	__aw_addr_end(a, e, P4D_SIZE)
#define pgd_addr_end(a, e)	__aw_addr_end(a, e, PGDIR_SIZE)

/*
 * A non-leaf entry names the table below by the host's table id, the way
 * a kernel entry holds its physical address: pmd_offset() and friends are
 * __va() of that (aw_ktext_table()), so table pointers are real pointers,
 * as walk_pmd_range() and the Bloom filter keys expect.
 */
static inline bool pte_present(pte_t p) { return p.pte & _PAGE_PRESENT; }
static inline bool pte_none(pte_t p) { return !p.pte; }
static inline bool pte_young(pte_t p) { return p.pte & _PAGE_ACCESSED; }
static inline bool pte_dirty(pte_t p) { return p.pte & _PAGE_DIRTY; }
static inline bool pte_special(pte_t p) { return p.pte & _PAGE_SPECIAL; }
static inline bool pte_devmap(pte_t p) { return false; }
static inline unsigned long pte_pfn(pte_t p) { return (p.pte & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline pte_t ptep_get(pte_t *p) { return READ_ONCE(*p); }

static inline bool pmd_present(pmd_t p) { return p.pmd & _PAGE_PRESENT; }
static inline bool pmd_none(pmd_t p) { return !p.pmd; }
static inline bool pmd_trans_huge(pmd_t p) { return (p.pmd & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE); }
static inline bool pmd_leaf(pmd_t p) { return pmd_trans_huge(p); }
static inline bool pmd_young(pmd_t p) { return p.pmd & _PAGE_ACCESSED; }
static inline bool pmd_dirty(pmd_t p) { return p.pmd & _PAGE_DIRTY; }
static inline bool pmd_devmap(pmd_t p) { return false; }
static inline unsigned long pmd_pfn(pmd_t p) { return (p.pmd & PTE_PFN_MASK) >> PAGE_SHIFT; }
static inline pmd_t pmdp_get_lockless(pmd_t *p) { return READ_ONCE(*p); }
static inline pmd_t pmdp_get(pmd_t *p) { return READ_ONCE(*p); }
#define pmd_read_atomic(p)	pmdp_get(p)

static inline bool pud_present(pud_t p) { return p.pud & _PAGE_PRESENT; }
static inline bool pud_none(pud_t p) { return !p.pud; }
static inline bool pud_leaf(pud_t p) { return (p.pud & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE); }
static inline pud_t pudp_get(pud_t *p) { return READ_ONCE(*p); }
static inline bool p4d_leaf(p4d_t p) { return false; }
static inline bool p4d_none(p4d_t p) { return !p.p4d; }

static inline void *aw_ktext_table(unsigned long entry);	/* the host's table (ktext_objects.h) */
static inline pud_t *pud_offset(p4d_t *p4d, unsigned long a) { return (pud_t *)aw_ktext_table(p4d->p4d) + pud_index(a); }
static inline pmd_t *pmd_offset(pud_t *pud, unsigned long a) { return (pmd_t *)aw_ktext_table(pud->pud) + pmd_index(a); }
static inline p4d_t *p4d_offset(pgd_t *pgd, unsigned long a) { return (p4d_t *)pgd; }
static inline pgd_t *pgd_offset_pgd(pgd_t *pgd, unsigned long a) { return pgd + pgd_index(a); }

#define arch_enter_lazy_mmu_mode()	do { } while (0)
#define arch_leave_lazy_mmu_mode()	do { } while (0)
/* x86 sets the accessed bit in hardware and in non-leaf PMD entries */
#define arch_has_hw_pte_young()		true
#define arch_has_hw_nonleaf_pmd_young()	true
#define cache_line_size()		64

/*
 * include/linux/page-flags.h, page-flags-layout.h, mm_types.h: the page
 * flags, where the generation and refs fields sit, and struct folio are
 * the model's (src/sim/folio_layout.h), so that kernel text can run on the
 * model's own folios (docs/ktext.md).  Only the widths matter to MGLRU.
 */
#include "../sim/folio_layout.h"

/* include/linux/mmzone.h: one zone per node (docs/ktext.md) */
enum zone_type { ZONE_NORMAL, __MAX_NR_ZONES };
#define MAX_NR_ZONES		1
#define MAX_NUMNODES		AW_KTEXT_MAX_NODES
#define N_MEMORY		0

/* include/linux/vm_event_item.h: the events MGLRU counts (counted, not kept) */
enum vm_event_item { PGREFILL, PGSCAN_KSWAPD, PGSCAN_DIRECT, PGSCAN_KHUGEPAGED, PGSCAN_ANON,
		     PGSCAN_FILE, PGSCAN_SKIP, PGSTEAL_KSWAPD, PGSTEAL_DIRECT, PGSTEAL_KHUGEPAGED,
		     PGSTEAL_ANON, PGSTEAL_FILE, NR_VM_EVENT_ITEMS };
/* include/linux/mmzone.h: the node_stat_item demotion counters 6.12's evict_folios() bumps */
#define PGDEMOTE_KSWAPD		0
#define PGDEMOTE_DIRECT		1
#define PGDEMOTE_KHUGEPAGED	2
#define trace_mm_vmscan_lru_shrink_inactive(...)	do { } while (0)
#define __count_vm_events(item, n)		((void)(item), (void)(n))
#define __count_zid_vm_events(item, zid, n)	((void)(item), (void)(zid), (void)(n))
#define __count_memcg_events(memcg, item, n)	((void)(memcg), (void)(item), (void)(n))
#define trace_mm_vmscan_lru_isolate(...)	do { } while (0)
/* the PUD filter series' tracepoint (include/trace/events/vmscan.h after the series) */
#define trace_mm_vmscan_lru_gen_walk(...)	do { } while (0)
enum lru_list { LRU_INACTIVE_ANON, LRU_ACTIVE_ANON, LRU_INACTIVE_FILE, LRU_ACTIVE_FILE,
		LRU_UNEVICTABLE, NR_LRU_LISTS };
#define LRU_ACTIVE		1

#endif /* AW_KTEXT_PRELUDE_H */
