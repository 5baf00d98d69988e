/* SPDX-License-Identifier: GPL-2.0-only */
/* include/linux/container_of.h: the structure a member is embedded in. */
#ifndef AW_KAPI_LINUX_CONTAINER_OF_H
#define AW_KAPI_LINUX_CONTAINER_OF_H

#include <stddef.h>

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#endif /* AW_KAPI_LINUX_CONTAINER_OF_H */
