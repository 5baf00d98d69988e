// SPDX-License-Identifier: GPL-2.0-only
/* aw_ktext_find(): a kernel-text variant by name (ktext_variants.h). */
#include <string.h>

#include "ktext_variants.h"

const struct aw_ktext_ops *aw_ktext_find(const char *name)
{
	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; *v; v++)
		if (!strcmp((*v)->name, name))
			return *v;
	return NULL;
}
