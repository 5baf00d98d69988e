/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the kernel-profile unit tests (test_profiles.c,
 * test_profiles_aging.c): a kernel of one profile, anonymous pages at
 * BASE, an eviction, a PTE.
 */
#ifndef AW_PROFILE_TEST_H
#define AW_PROFILE_TEST_H

#include "aw_kernel_test.h"

#define BASE	0x10000000ULL

/* the three profiles, mainline first */
static const enum aw_kernel_profile all_profiles[3] = { AW_KERNEL_MAINLINE, AW_KERNEL_6_12, AW_KERNEL_6_1 };

static inline struct aw_kernel *profile_kernel(enum aw_kernel_profile profile, uint64_t swap_bytes,
					       int memcgs)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.swap_bytes = swap_bytes;
	cfg.nr_memcgs = memcgs;
	cfg.kernel = profile;
	return aw_kernel_create(&cfg, 0, 0, 0);
}

static inline void ev(struct aw_kernel *k, struct aw_event e)
{
	CHECK_EQ(apply(k, e), 0);
}

/* one process (no layout) with n anonymous pages written at BASE */
static inline void anon_pages(struct aw_kernel *k, unsigned int n)
{
	ev(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	ev(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = BASE, .len = n * PAGE_SIZE,
				 .arg = AW_PROT_DEFAULT });
	ev(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = BASE, .len = n * PAGE_SIZE,
				 .repeat = 1, .flags = AW_ACC_WRITE });
}

static inline void evict_nr(struct aw_kernel *k, uint64_t nr)
{
	ev(k, (struct aw_event){ .kind = AW_EV_EVICT, .swappiness = AW_SWAPPINESS_DEFAULT, .len = nr });
}

static inline pte_t *pte_at(struct aw_kernel *k, uint64_t addr)
{
	struct aw_task *t = aw_task_get(k, 1);
	struct mm_struct *mm = t ? aw_mm(k, t->mm) : NULL;

	return mm ? aw_pte_lookup(k, mm, addr, false, NULL) : NULL;
}

#endif /* AW_PROFILE_TEST_H */
