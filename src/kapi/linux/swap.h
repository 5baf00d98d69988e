/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/swap.h: the swappiness range (vm.swappiness, memory.swappiness). */
#ifndef AW_KAPI_LINUX_SWAP_H
#define AW_KAPI_LINUX_SWAP_H

#define MAX_SWAPPINESS		200

#endif /* AW_KAPI_LINUX_SWAP_H */
