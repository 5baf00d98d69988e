/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/build_bug.h.  One difference: BUILD_BUG_ON() needs an
 * integer constant expression (it is a C11 _Static_assert), not merely
 * something the optimizer folds.
 */
#ifndef AW_KAPI_LINUX_BUILD_BUG_H
#define AW_KAPI_LINUX_BUILD_BUG_H

/* A statement, as the kernel's. */
#define BUILD_BUG_ON(cond) \
	do { _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")"); } while (0)
/* 0 of type size_t, or a compile error (a negative bit-field width) if e holds. */
#define BUILD_BUG_ON_ZERO(e)	(0 * sizeof(struct { int __aw_bbz : 1 - 2 * !!(e); }))

#endif /* AW_KAPI_LINUX_BUILD_BUG_H */
