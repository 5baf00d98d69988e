/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the unit tests that drive one process's address space with
 * events (test_mm_events.c, test_fork.c): a one-node machine, process 1
 * without a layout, its mmaps and accesses at BASE_ADDR, and the end of
 * every test (no model warning may have fired).
 */
#ifndef AW_EVENTS_TEST_H
#define AW_EVENTS_TEST_H

#include "aw_kernel_test.h"

#define BASE_ADDR	0x7e0000000000ULL	/* 1 GiB (hence 2 MiB) aligned */
#define PG(n)		((uint64_t)(n) * PAGE_SIZE)

static inline struct aw_kernel *new_kernel_cfg(struct aw_config *cfg)
{
	return aw_kernel_create(cfg, 0, 0, 0);
}

static inline struct aw_kernel *new_kernel(uint64_t swap_bytes)
{
	return aw_test_kernel(AW_THP_NEVER, swap_bytes, 0);
}

static inline void ev_proc_pid(struct aw_kernel *k, uint32_t pid, int memcg)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = pid, .cpu = 0,
					     .memcg = (uint16_t)memcg,
					     .flags = AW_PROC_NOLAYOUT }), 0);
}

static inline void ev_mmap(struct aw_kernel *k, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .addr2 = addr,
					     .len = len, .arg = AW_PROT_DEFAULT }), 0);
}

static inline void ev_munmap(struct aw_kernel *k, uint64_t addr, uint64_t len)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_MUNMAP, .pid = 1, .addr = addr,
					     .len = len }), 0);
}

static inline void ev_access_pid(struct aw_kernel *k, uint32_t pid, uint64_t addr, uint64_t len, bool write)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = pid, .cpu = 0,
					     .addr = addr, .len = len, .repeat = 1,
					     .flags = write ? AW_ACC_WRITE : 0 }), 0);
}

static inline void ev_access(struct aw_kernel *k, uint64_t addr, uint64_t len, bool write)
{
	ev_access_pid(k, 1, addr, len, write);
}

static inline void ev_run_pid(struct aw_kernel *k, uint32_t pid)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_RUN, .pid = pid, .cpu = 0 }), 0);
}

static inline struct mm_struct *mm_of(struct aw_kernel *k, uint32_t pid)
{
	struct aw_task *t = aw_task_get(k, pid);

	return t && t->alive ? aw_mm(k, t->mm) : NULL;
}

/*
 * Every scenario here ends through this: no VM_WARN_ON_ONCE()/WARN_ON()
 * of the model may have fired (each is a kernel invariant the model
 * checks on itself; warn.h), then the kernel goes.
 */
static inline void put_kernel(struct aw_kernel *k)
{
	CHECK_EQ(aw_warn_count(&k->warn), 0);
	CHECK_STR(k->warn.first, "");
	aw_kernel_destroy(k);
}

#endif /* AW_EVENTS_TEST_H */
