/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/bits.h, include/asm-generic/bitsperlong.h */
#ifndef AW_KAPI_LINUX_BITS_H
#define AW_KAPI_LINUX_BITS_H

/* Usable in #if, unlike a sizeof. */
#define BITS_PER_LONG		(__CHAR_BIT__ * __SIZEOF_LONG__)
#define BIT(nr)			(1UL << (nr))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

#endif /* AW_KAPI_LINUX_BITS_H */
