/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/array_size.h (6.12; include/linux/kernel.h before). */
#ifndef AW_KAPI_LINUX_ARRAY_SIZE_H
#define AW_KAPI_LINUX_ARRAY_SIZE_H

#include "linux/build_bug.h"

/* A pointer passed where an array belongs has the type of &a[0]: refuse it. */
#define __aw_must_be_array(a) \
	BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]) + __aw_must_be_array(a))

#endif /* AW_KAPI_LINUX_ARRAY_SIZE_H */
