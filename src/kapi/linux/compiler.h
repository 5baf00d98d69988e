/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/linux/compiler.h, include/asm-generic/rwonce.h: the branch hints
 * and the one-access READ_ONCE()/WRITE_ONCE(), for the model (src/sim) and
 * for kernel text's shim (src/ktext) alike.  Our own user-space spelling;
 * GNU C (typeof, statement expressions), as the kernel.
 */
#ifndef AW_KAPI_LINUX_COMPILER_H
#define AW_KAPI_LINUX_COMPILER_H

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)

/* One load / one store the compiler may neither tear, merge nor drop. */
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
/* A statement, as the kernel's (do { } while (0)): never an expression. */
#define WRITE_ONCE(x, val)	do { *(volatile __typeof__(x) *)&(x) = (val); } while (0)

#define __AW_PASTE2(a, b)	a##b
#define __AW_PASTE(a, b)	__AW_PASTE2(a, b)
/* A fresh identifier per expansion, so nested min(min(a, b), c) does not shadow. */
#define __AW_UID(prefix)	__AW_PASTE(__aw_##prefix, __COUNTER__)

#endif /* AW_KAPI_LINUX_COMPILER_H */
