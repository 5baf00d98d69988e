/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * .aws name tables: name -> id for processes and regions.  The parser looks
 * up every name it reads; the writer uses the same table to find which of a
 * scenario's names it can print as they are and to make up names that
 * differ from them.  One hash for both keeps the two agreeing on what "the
 * same name" means (byte equality within AW_MAX_NAME).
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* strnlen */
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

static uint32_t aw_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static bool aw_name_eq(const char *name, const char *s, size_t len)
{
	return strnlen(name, AW_MAX_NAME) == len && !memcmp(name, s, len);
}

uint32_t aw_ntab_find(const struct aw_ntab *t, aw_names_t names, const char *s, size_t len)
{
	uint32_t i, mask = t->size - 1;

	if (!t->size)
		return 0;
	for (i = aw_hash(s, len) & mask;; i = (i + 1) & mask) {
		uint32_t id = t->slot[i];

		if (!id || aw_name_eq(names[id - 1], s, len))
			return id;
	}
}

static void aw_ntab_put(struct aw_ntab *t, aw_names_t names, uint32_t id)
{
	const char *name = names[id - 1];
	uint32_t mask = t->size - 1;
	uint32_t i = aw_hash(name, strnlen(name, AW_MAX_NAME)) & mask;

	while (t->slot[i])
		i = (i + 1) & mask;
	t->slot[i] = id;
	t->count++;
}

/* Doubles the table before it gets more than half full. */
int aw_ntab_add(struct aw_ntab *t, aw_names_t names, uint32_t id)
{
	if (((uint64_t)t->count + 1) * 2 > t->size) {
		struct aw_ntab n = { NULL, t->size ? t->size * 2 : 64, 0 };
		uint32_t i;

		if (!n.size)
			return -1;
		n.slot = calloc(n.size, sizeof(*n.slot));
		if (!n.slot)
			return -1;
		for (i = 0; i < t->size; i++)
			if (t->slot[i])
				aw_ntab_put(&n, names, t->slot[i]);
		free(t->slot);
		*t = n;
	}
	aw_ntab_put(t, names, id);
	return 0;
}
