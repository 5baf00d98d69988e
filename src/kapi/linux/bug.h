/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * include/asm-generic/bug.h, include/linux/mmdebug.h: WARN_ON() and
 * friends, for the model and for kernel text.  Where a warning goes is
 * the includer's: it defines aw_warn_report(once, cond, file, line)
 * before including this header -- the model counts it in its simulated
 * kernel and prints it (src/sim/warn.h), kernel text's shim counts it on
 * its machine for the glue to report (src/ktext/ktext_objects.h).  once is
 * 1 for the _ONCE forms, cond the condition's text.
 *
 * Each macro is an expression with the condition's truth value, evaluated
 * exactly once, so `if (VM_WARN_ON_ONCE(!folio)) return;` works.  The
 * kernel's VM_WARN_ON*() are (void): kernel text never uses their value,
 * so the model's form serves it too.  CONFIG_DEBUG_VM: always on, as the
 * model exists to check itself.
 */
#ifndef AW_KAPI_LINUX_BUG_H
#define AW_KAPI_LINUX_BUG_H

#include <stdbool.h>

#ifndef aw_warn_report
#error "define aw_warn_report(once, cond, file, line) before including linux/bug.h"
#endif

#define __AW_WARN(once, condition) ({						\
	bool __aw_warn_hit = !!(condition);					\
	if (__builtin_expect(__aw_warn_hit, 0))					\
		aw_warn_report(once, #condition, __FILE__, __LINE__);		\
	__aw_warn_hit; })

#define WARN_ON(condition)		__AW_WARN(0, condition)
#define WARN_ON_ONCE(condition)		__AW_WARN(1, condition)
#define VM_WARN_ON(condition)		WARN_ON(condition)
#define VM_WARN_ON_ONCE(condition)	WARN_ON_ONCE(condition)

#endif /* AW_KAPI_LINUX_BUG_H */
