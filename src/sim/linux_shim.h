/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel helpers MGLRU code is written with, for user space.
 *
 * The model mirrors functions of mm/vmscan.c, and tools/diff-vmscan
 * measures how much of their text survives.  Every open-coded
 * "(x + a - 1) & ~(a - 1)" where the kernel says round_up() is a line that
 * cannot match, so the model spells these helpers the kernel's way and this
 * header gives them kernel meaning, in the manner of the kernel's own
 * user-space harnesses (tools/include, tools/testing/vma): same names, same
 * results, simplest correct implementation.  Our own text.
 *
 * Where we differ from the kernel:
 *  - min()/max() reject operands of different signedness (after integer
 *    promotion) at compile time.  6.12 also lets a non-negative constant of
 *    the other signedness through, but our -Wsign-compare build would warn
 *    on the comparison anyway: write 8UL, or min_t().
 *  - set_bit()/clear_bit() are the non-atomic __set_bit()/__clear_bit():
 *    a simulated kernel runs on one thread, so atomicity buys nothing.
 *  - BUILD_BUG_ON() needs an integer constant expression (it is a C11
 *    _Static_assert), not merely something the optimizer folds.
 *
 * GNU C (typeof, statement expressions, __builtin_*), as the kernel: gcc
 * and clang both accept it under -std=c11.
 */
#ifndef AW_LINUX_SHIM_H
#define AW_LINUX_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* ---- compiler ---------------------------------------------------------- */

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/* One load / one store the compiler may neither tear, merge nor drop. */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#define __AW_PASTE2(a, b)	a##b
#define __AW_PASTE(a, b)	__AW_PASTE2(a, b)
/* A fresh identifier per expansion, so nested min(min(a, b), c) does not shadow. */
#define __AW_UID(prefix)	__AW_PASTE(__aw_##prefix, __COUNTER__)

/* ---- build-time checks ------------------------------------------------- */

#define BUILD_BUG_ON(cond) \
	do { _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")"); } while (0)
/* 0 of type size_t, or a compile error (a negative bit-field width) if e holds. */
#define BUILD_BUG_ON_ZERO(e)	(0 * sizeof(struct { int __aw_bbz : 1 - 2 * !!(e); }))

/* A pointer passed where an array belongs has the type of &a[0]: refuse it. */
#define __aw_must_be_array(a) \
	BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]) + __aw_must_be_array(a))

/* ---- min, max, clamp --------------------------------------------------- */

/* Signedness of x's type after the integer promotions (what < compares). */
#define __aw_is_signed(x)	((__typeof__((x) + 0))-1 < (__typeof__((x) + 0))1)

/* Each operand evaluated exactly once, as in the kernel. */
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

/* ---- alignment and rounding (y, a: powers of two) ---------------------- */

#define __aw_round_mask(x, y)	((__typeof__(x))((y) - 1))
/* The next multiple of y at or above x; 0 stays 0. */
#define round_up(x, y)		((((x) - 1) | __aw_round_mask(x, y)) + 1)
#define round_down(x, y)	((x) & ~__aw_round_mask(x, y))
#define ALIGN(x, a)		(((x) + __aw_round_mask(x, a)) & ~__aw_round_mask(x, a))
#define IS_ALIGNED(x, a)	(((x) & __aw_round_mask(x, a)) == 0)
/* Any divisor, not only powers of two. */
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* ---- bits and bitmaps -------------------------------------------------- */

/* Usable in #if, unlike a sizeof. */
#define BITS_PER_LONG		(__CHAR_BIT__ * __SIZEOF_LONG__)
#define BIT(nr)			(1UL << (nr))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))
#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (addr[BIT_WORD(nr)] >> (nr % BITS_PER_LONG)) & 1;
}

static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	addr[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* The kernel's are atomic; one simulated CPU at a time needs no atomics. */
static inline void set_bit(unsigned long nr, unsigned long *addr) { __set_bit(nr, addr); }
static inline void clear_bit(unsigned long nr, unsigned long *addr) { __clear_bit(nr, addr); }

/*
 * include/linux/bitops.h: set_mask_bits(): *ptr's bits in mask become bits,
 * the old word is returned.  The kernel's is a cmpxchg loop.
 */
static inline unsigned long set_mask_bits(unsigned long *ptr, unsigned long mask, unsigned long bits)
{
	unsigned long old = *ptr;

	*ptr = (old & ~mask) | bits;
	return old;
}

static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/*
 * The first set bit at or after offset, or size if there is none.  Bits
 * at and past size in the last word are not looked at: a bitmap's tail
 * need not be clear.
 */
static inline unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
					  unsigned long offset)
{
	unsigned long word, bit;

	if (offset >= size)
		return size;
	bit = offset - offset % BITS_PER_LONG;
	word = addr[BIT_WORD(offset)] & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		bit += BITS_PER_LONG;
		if (bit >= size)
			return size;
		word = addr[BIT_WORD(bit)];
	}
	bit += (unsigned long)__builtin_ctzl(word);
	return bit < size ? bit : size;
}

static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)					\
	for ((bit) = find_first_bit(addr, size); (bit) < (size);		\
	     (bit) = find_next_bit(addr, size, (bit) + 1))

#endif /* AW_LINUX_SHIM_H */
