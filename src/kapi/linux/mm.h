/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/mm.h: the vm_flags bits the model and kernel text use,
 * folio_nr_pages() and lru_to_folio().
 * The values are the kernel's, except VM_DROPPABLE: the kernel's bit
 * depends on the configuration, and only its presence matters.
 */
#ifndef AW_KAPI_LINUX_MM_H
#define AW_KAPI_LINUX_MM_H

#include "linux/list.h"
#include "linux/mm_types.h"

#define VM_READ		0x00000001UL
#define VM_WRITE	0x00000002UL
#define VM_EXEC		0x00000004UL
#define VM_SHARED	0x00000008UL
#define VM_GROWSDOWN	0x00000100UL
#define VM_PFNMAP	0x00000400UL
#define VM_LOCKED	0x00002000UL
#define VM_IO		0x00004000UL
#define VM_SEQ_READ	0x00008000UL
#define VM_RAND_READ	0x00010000UL
#define VM_DONTEXPAND	0x00040000UL
#define VM_NORESERVE	0x00200000UL
#define VM_HUGETLB	0x00400000UL
#define VM_DROPPABLE	0x00800000UL
#define VM_HUGEPAGE	0x20000000UL
#define VM_NOHUGEPAGE	0x40000000UL
#define VM_MIXEDMAP	0x10000000UL
#define VM_SPECIAL	(VM_IO | VM_DONTEXPAND | VM_PFNMAP | VM_MIXEDMAP)

/* folio_nr_pages(): 1 or HPAGE_PMD_NR, a long as the kernel's (mm.h) */
static inline long folio_nr_pages(const struct folio *f) { return 1L << f->order; }

/* lru_to_folio(): the folio at the tail end of list head */
#define lru_to_folio(head)	list_entry((head)->prev, struct folio, lru)

#endif /* AW_KAPI_LINUX_MM_H */
