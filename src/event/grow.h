/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The doubling growth of an array of records, for every layer that keeps
 * one (the model's per-node eviction records, the executor's passes, notes
 * and samples): in the base layer so that both use one.
 */
#ifndef AW_GROW_H
#define AW_GROW_H

#include <stddef.h>

/*
 * Room for one more element at index nr of arr (nr of *cap used, each
 * size bytes): arr itself while it has room, else arr reallocated to twice
 * *cap elements (first when *cap is 0) and *cap updated; NULL, arr
 * untouched, without memory.
 */
void *aw_grow(void *arr, int *cap, int nr, size_t size, int first);
/*
 * An array indexed by an id (an mm's, say) that must hold element index:
 * arr while it does, else reallocated to index + spare elements with the
 * new ones zeroed and *cap updated; NULL, arr untouched, without memory.
 */
void *aw_grow_zeroed(void *arr, int *cap, int index, size_t size, int spare);

#endif /* AW_GROW_H */
