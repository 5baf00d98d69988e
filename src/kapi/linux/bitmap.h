/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/bitmap.h, include/linux/find.h, include/linux/types.h: DECLARE_BITMAP */
#ifndef AW_KAPI_LINUX_BITMAP_H
#define AW_KAPI_LINUX_BITMAP_H

#include <string.h>

#include "linux/bitops.h"

#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

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

#endif /* AW_KAPI_LINUX_BITMAP_H */
