/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/math.h, include/linux/align.h: rounding (y, a: powers of two). */
#ifndef AW_KAPI_LINUX_MATH_H
#define AW_KAPI_LINUX_MATH_H

#define __aw_round_mask(x, y)	((__typeof__(x))((y) - 1))
/* The next multiple of y at or above x; 0 stays 0. */
#define round_up(x, y)		((((x) - 1) | __aw_round_mask(x, y)) + 1)
#define round_down(x, y)	((x) & ~__aw_round_mask(x, y))
#define ALIGN(x, a)		(((x) + __aw_round_mask(x, a)) & ~__aw_round_mask(x, a))
#define IS_ALIGNED(x, a)	(((x) & __aw_round_mask(x, a)) == 0)
/* Any divisor, not only powers of two. */
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

#endif /* AW_KAPI_LINUX_MATH_H */
