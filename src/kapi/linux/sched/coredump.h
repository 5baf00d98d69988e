/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/sched/coredump.h: the mm->flags bits khugepaged reads, as
 * bit numbers (test_bit()), for the model and kernel text alike.
 */
#ifndef AW_KAPI_LINUX_SCHED_COREDUMP_H
#define AW_KAPI_LINUX_SCHED_COREDUMP_H

#define MMF_VM_HUGEPAGE		16	/* registered with khugepaged */
#define MMF_DISABLE_THP		24	/* prctl(PR_SET_THP_DISABLE) */

#endif /* AW_KAPI_LINUX_SCHED_COREDUMP_H */
