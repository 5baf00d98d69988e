/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mm_struct, VMAs, tasks and the per-memcg mm list
 * (include/linux/mm_types.h, mm/vmscan.c: lru_gen_add_mm/del_mm/migrate_mm,
 * include/linux/mm_types.h: lru_gen_use_mm).
 */
#ifndef AW_MM_H
#define AW_MM_H

#include <stdbool.h>
#include <stdint.h>

#include "linux/list.h"
#include "linux/mm.h"
#include "pgtable.h"

/* the vm_flags (VM_READ ...): src/kapi/linux/mm.h */

struct vm_area_struct {
	uint64_t vm_start, vm_end;
	uint64_t vm_flags;
	bool file;		/* file-backed (page cache) vs anonymous */
	uint16_t region;	/* scenario region id this VMA came from, 0 = none */
	uint8_t mpol;		/* enum aw_mpol from mbind, AW_MPOL_DEFAULT = task policy */
	uint8_t mpol_node;
	uint8_t kind;		/* enum aw_vma_kind: what created it (layout or mmap) */
	bool anon_vma;		/* vma->anon_vma: set by the first anonymous fault (anon_vma_prepare) */
};

enum aw_vma_kind { AW_VMA_MMAP, AW_VMA_TEXT, AW_VMA_HEAP, AW_VMA_LIB, AW_VMA_STACK };

/* The per-mm MGLRU fields (CONFIG_LRU_GEN_WALKS_MMU) */
struct lru_gen_mm {
	struct list_head list;	/* node in the memcg's fifo */
	uint64_t bitmap;	/* bit nid: used since that node's walker took it */
	int memcg;		/* the memcg whose list it is on, -1 = none */
	/* seed RFC empty_map (docs/oracles.md), emptymap/rfc variants */
	uint8_t empty_mask;	/* bit nid: the last walk for nid found nothing associated */
	uint8_t empty_count[8];	/* passes with the node bit set since that walk */
	unsigned long empty_seq[8];	/* clock=pass: the seq of that walk */
};

/* mm->flags bits the model uses: MMF_VM_HUGEPAGE (a bit number, test_bit()) */
#include "linux/sched/coredump.h"

struct khugepaged_mm_slot;

struct mm_struct {
	uint32_t id;		/* model handle; 0 is never used */
	unsigned long flags;	/* MMF_* */
	struct khugepaged_mm_slot *kh_slot;	/* its khugepaged slot (mm_slots_hash), or NULL */
	uint64_t kaddr;		/* synthetic slab address of the mm_struct (PUD key) */
	uint32_t pgd;		/* table id of the PGD */
	int users;		/* mm_users: tasks using it */
	bool exiting;		/* mm_users dropped to 0: mmget_not_zero() fails */
	bool mmap_contended;	/* mmap_read_trylock() fails while set */
	bool ptl_contended;	/* spin_trylock() on its PTLs fails while set */
	bool has_notifiers;	/* mm_has_notifiers(): never set by scenarios */
	int memcg;		/* mm->owner's memcg */
	uint8_t thp_disable;	/* enum aw_thp_disable */
	uint8_t mpol, mpol_node;	/* task policy (set_mempolicy) */
	uint64_t mmap_base;	/* top-down allocation starts below here */
	uint64_t brk_start, brk;
	uint64_t rss;		/* resident pages */
	struct lru_gen_mm lru_gen;
	int nr_vmas, cap_vmas;
	struct vm_area_struct *vmas;	/* sorted by vm_start, non-overlapping */
	int vma_hint;		/* find_vma()'s last answer: checked before it is used, never trusted */
};

struct aw_task {
	uint32_t pid;
	uint32_t mm;		/* mm id, 0 = exited */
	int cpu;
	int memcg;
	bool alive;
	bool vfork_shared;	/* CLONE_VM without CLONE_THREAD: shares until exec/exit */
};

struct lru_gen_mm_list {
	struct list_head fifo;	/* mm_structs (lru_gen.list) */
};

/* VMA lookup helpers (mm/mmap.c: find_vma and friends) */
struct vm_area_struct *find_vma(struct mm_struct *mm, uint64_t addr);	/* first vma with vm_end > addr */
int aw_vma_index(const struct mm_struct *mm, uint64_t addr);		/* index of first vma with vm_end > addr, nr_vmas if none */
struct vm_area_struct *aw_vma_insert(struct mm_struct *mm, const struct vm_area_struct *vma);
void aw_vma_remove_at(struct mm_struct *mm, int idx);
/* Split the vma containing addr so that a VMA boundary falls on addr. */
int aw_vma_split(struct mm_struct *mm, uint64_t addr);
/* Top-down search for a free range of len, aligned to align (mm/mmap.c: unmapped_area_topdown). */
uint64_t aw_get_unmapped_area(struct mm_struct *mm, uint64_t len, uint64_t align);
bool aw_range_free(const struct mm_struct *mm, uint64_t start, uint64_t end);

#endif /* AW_MM_H */
