// SPDX-License-Identifier: GPL-2.0-only
/* The doubling growth of an array of records (grow.h). */
#include <stdlib.h>
#include <string.h>

#include "grow.h"

void *aw_grow(void *arr, int *cap, int nr, size_t size, int first)
{
	int want = *cap ? 2 * *cap : first;
	void *p;

	if (nr < *cap)
		return arr;
	p = realloc(arr, size * (size_t)want);
	if (p)
		*cap = want;
	return p;
}

void *aw_grow_zeroed(void *arr, int *cap, int index, size_t size, int spare)
{
	int want = index + spare;
	char *p;

	if (index < *cap)
		return arr;
	p = realloc(arr, size * (size_t)want);
	if (!p)
		return NULL;
	memset(p + size * (size_t)*cap, 0, size * (size_t)(want - *cap));
	*cap = want;
	return p;
}
