/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/minmax.h.  Each operand is evaluated exactly once, as in
 * the kernel.  One difference: min()/max() reject operands of different
 * signedness (after integer promotion) at compile time.  6.12 also lets a
 * non-negative constant of the other signedness through, but the model's
 * -Wsign-compare build would warn on the comparison anyway: write 8UL, or
 * min_t().  Kernel text is built against the same form.
 */
#ifndef AW_KAPI_LINUX_MINMAX_H
#define AW_KAPI_LINUX_MINMAX_H

#include "linux/compiler.h"

/* Signedness of x's type after the integer promotions (what < compares). */
#define __aw_is_signed(x)	((__typeof__((x) + 0))-1 < (__typeof__((x) + 0))1)

#define __aw_cmp_once(op, x, y, ux, uy) ({					\
	__typeof__(x) ux = (x);							\
	__typeof__(y) uy = (y);							\
	_Static_assert(__aw_is_signed(ux) == __aw_is_signed(uy),		\
		       "min/max of mixed signedness: use min_t/max_t");	\
	ux op uy ? ux : uy; })
#define __aw_cmp(op, x, y)	__aw_cmp_once(op, x, y, __AW_UID(x_), __AW_UID(y_))

#define min(x, y)		__aw_cmp(<, x, y)
#define max(x, y)		__aw_cmp(>, x, y)
/* Both operands converted to type first: the deliberate way to mix types. */
#define min_t(type, x, y)	min((type)(x), (type)(y))
#define max_t(type, x, y)	max((type)(x), (type)(y))
/* val limited to [lo, hi]; lo <= hi is the caller's promise, as in the kernel */
#define clamp(val, lo, hi)	min(max(val, lo), hi)
#define clamp_t(type, val, lo, hi)	min_t(type, max_t(type, val, lo), hi)

#endif /* AW_KAPI_LINUX_MINMAX_H */
