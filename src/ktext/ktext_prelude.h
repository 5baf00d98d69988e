/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What kernel text takes for granted before mmzone.h: the language
 * (include/linux/compiler*.h), the types, atomics on one CPU, locks that
 * never contend, and -- from src/kapi, the vocabulary the model includes
 * too -- bit and list helpers, the x86-64 page-table format and struct
 * folio.
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

/*
 * The kernel vocabulary kernel text shares with the model (src/kapi):
 * x86-64 paging and the pure entry accessors, lists, bits, bitmaps and
 * set_mask_bits(), min/max, the vm_flags, the page flags and struct folio
 * itself, so that kernel text can run on the model's own folios and page
 * tables (docs/ktext.md).  A folio's flags written by set_mask_bits() are
 * reported to the host (aw_ktext_flags_written() below).
 */
#define aw_mask_bits_written(p, old, new)	aw_ktext_flags_written(p, old, new)
#include "asm/pgtable_types.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/bitops.h"
#include "linux/build_bug.h"
#include "linux/compiler.h"
#include "linux/container_of.h"
#include "linux/hash.h"
#include "linux/list.h"
#include "linux/math.h"
#include "linux/minmax.h"
#include "linux/mm.h"
#include "linux/mm_types.h"
#include "linux/page-flags.h"
#include "linux/pgtable.h"
#include "linux/swap.h"

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
#define __maybe_unused		__attribute__((unused))
#define __always_inline		inline __attribute__((always_inline))
#define noinline		__attribute__((noinline))
#define __aligned(x)		__attribute__((aligned(x)))
#define __force
#define __rcu
#define __randomize_layout
#define smp_store_release(p, v)	WRITE_ONCE(*(p), v)
#define smp_load_acquire(p)	READ_ONCE(*(p))

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;

/* include/linux/bitops.h, log2.h, minmax.h: what src/kapi does not spell */
#define BITS_PER_TYPE(t)	(sizeof(t) * 8)
#define order_base_2(n)		((n) > 1 ? 64 - __builtin_clzl((unsigned long)(n) - 1) : 0)
#define ilog2(n)		(63 - __builtin_clzl((unsigned long)(n)))
#define swap(a, b)		do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)

/*
 * lib/bitmap.c: __bitmap_weight() and __bitmap_clear() work a word at a
 * time, and so do these.  reset_bloom_filter() clears a whole filter
 * (BIT(BLOOM_FILTER_SHIFT) bits) on every aging pass: bit by bit, with a
 * coverage counter on each step, that was a fifth of agewalk_fuzz_ktext's
 * time (docs/results.md, session 21).
 */
static inline unsigned int bitmap_weight(const unsigned long *map, unsigned int nbits)
{
	unsigned int w = 0, i;

	for (i = 0; i + BITS_PER_LONG <= nbits; i += BITS_PER_LONG)
		w += (unsigned int)__builtin_popcountl(map[BIT_WORD(i)]);
	if (i < nbits)
		w += (unsigned int)__builtin_popcountl(map[BIT_WORD(i)] & (~0UL >> (BITS_PER_LONG - (nbits - i))));
	return w;
}
static inline void bitmap_clear(unsigned long *map, unsigned int start, unsigned int len)
{
	unsigned int i = start, end = start + len;

	for (; i < end && i % BITS_PER_LONG; i++)	/* up to a word boundary */
		clear_bit(i, map);
	for (; i + BITS_PER_LONG <= end; i += BITS_PER_LONG)
		map[BIT_WORD(i)] = 0;
	for (; i < end; i++)
		clear_bit(i, map);
}

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
/*
 * 6.1's try_to_inc_max_seq() sleeps at priority <= DEF_PRIORITY - 2 until
 * the walker of the pass in progress on its lruvec finishes it.  On this
 * machine that walker is a split pass, whose steps run only at the
 * scenario's next age_step: nothing can end the wait, so it ends at once
 * as a wait whose task was killed ends (-ERESTARTSYS), and the caller
 * returns max_seq < lrugen->max_seq, false -- as the model's 6.1 path
 * does (docs/model-notes.md).  Counted (text_ran "waits_cut"), never
 * silent; it was a WARN, which agewalk_fuzz_ktext reached.
 */
#define wait_event_killable(wq, cond)	\
	((cond) ? 0 : (aw_ktext_current()->aw_ran[AW_KTEXT_RAN_WAITS_CUT]++, -ERESTARTSYS))
#define PAGEVEC_SIZE			15	/* include/linux/pagevec.h, 6.1 */

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


/*
 * A non-leaf entry names the table below by the host's table id, the way
 * a kernel entry holds its physical address: pmd_offset() and friends are
 * __va() of that (aw_ktext_table()), so table pointers are real pointers,
 * as walk_pmd_range() and the Bloom filter keys expect.
 */

static inline void *aw_ktext_table(unsigned long entry);	/* the host's table (ktext_objects.h) */
static inline pud_t *pud_offset(p4d_t *p4d, unsigned long a) { return (pud_t *)aw_ktext_table(p4d_val(*p4d)) + pud_index(a); }
static inline pmd_t *pmd_offset(pud_t *pud, unsigned long a) { return (pmd_t *)aw_ktext_table(pud_val(*pud)) + pmd_index(a); }
static inline p4d_t *p4d_offset(pgd_t *pgd, unsigned long a) { return (p4d_t *)pgd; }
static inline pgd_t *pgd_offset_pgd(pgd_t *pgd, unsigned long a) { return pgd + pgd_index(a); }

#define arch_enter_lazy_mmu_mode()	do { } while (0)
#define arch_leave_lazy_mmu_mode()	do { } while (0)
/* x86 sets the accessed bit in hardware and in non-leaf PMD entries */
#define arch_has_hw_pte_young()		true
#define arch_has_hw_nonleaf_pmd_young()	true
#define cache_line_size()		64


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
