/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/bitops.h, include/asm-generic/bitops/: single bits of a
 * bitmap, and set_mask_bits().  The kernel's set_bit(), clear_bit() and
 * test_and_clear_bit() are atomic; one simulated CPU at a time (the model,
 * or kernel text on its machine) needs no atomics, so they are the
 * non-atomic __set_bit()/__clear_bit().
 */
#ifndef AW_KAPI_LINUX_BITOPS_H
#define AW_KAPI_LINUX_BITOPS_H

#include <stdbool.h>

#include "linux/bits.h"
#include "linux/math.h"

#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)

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

static inline void set_bit(unsigned long nr, unsigned long *addr) { __set_bit(nr, addr); }
static inline void clear_bit(unsigned long nr, unsigned long *addr) { __clear_bit(nr, addr); }

static inline bool test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	__clear_bit(nr, addr);
	return old;
}

/*
 * Where a word set_mask_bits() wrote is reported: nowhere, unless the
 * includer says otherwise before including this header.  Kernel text's
 * shim does (src/ktext/ktext_prelude.h): a folio's flags written by the
 * kernel's own code are how the host learns of a generation change, as
 * the model's writes fire trace_folio_update_gen().
 */
#ifndef aw_mask_bits_written
#define aw_mask_bits_written(ptr, old, new)	((void)0)
#endif

/*
 * set_mask_bits(): *ptr's bits in mask become bits, the old word is
 * returned.  The kernel's is a cmpxchg loop; on one CPU one read and one
 * write are the same.
 */
#define set_mask_bits(ptr, mask, bits) ({					\
	__typeof__(*(ptr)) __aw_smb_old = *(ptr);				\
	*(ptr) = (__aw_smb_old & ~(__typeof__(*(ptr)))(mask)) | (bits);	\
	aw_mask_bits_written((ptr), __aw_smb_old, *(ptr));			\
	__aw_smb_old;								\
})

#endif /* AW_KAPI_LINUX_BITOPS_H */
