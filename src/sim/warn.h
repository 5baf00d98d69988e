/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where WARN_ON() and friends (src/kapi/linux/bug.h: include/asm-generic/bug.h,
 * include/linux/mmdebug.h) land in model code.
 *
 * The kernel's WARN_ON_ONCE() keeps its "already warned" flag in a static
 * variable at the call site.  The model has no global mutable state (two
 * kernels run side by side, a fuzzer runs millions of them in one
 * process), so the flags, the count and the first message live in a
 * struct aw_warn inside struct aw_kernel, and the macros find it through
 * AW_WARN_STATE: &k->warn by default, for the `struct aw_kernel *k` every
 * model function has in scope.  A file whose functions reach the kernel
 * another way defines AW_WARN_STATE before including this header.
 *
 * As in the kernel, each macro is an expression with the condition's truth
 * value, so `if (VM_WARN_ON_ONCE(!folio)) return;` works.  The condition
 * is evaluated exactly once.  Printed: "agewalk: WARNING: FILE:LINE: COND"
 * on stderr; the _ONCE forms print once per call site per kernel, the
 * others at every hit.  Every hit counts.
 *
 * Fuzzing sets abort: a warning is a model invariant that broke, and
 * abort() right after the message is what libFuzzer and AFL++ record as a
 * crash, with the message as its title.
 */
#ifndef AW_WARN_H
#define AW_WARN_H

#include <stdbool.h>

/* Call sites remembered for the _ONCE forms; past this they print every time. */
#define AW_WARN_SITES	32

struct aw_warn_site {
	const char *file;
	int line;
};

struct aw_warn {
	unsigned long count;		/* hits of every form, every site */
	bool abort;			/* abort() after printing a warning (fuzzing) */
	int nr_sites;
	struct aw_warn_site sites[AW_WARN_SITES];	/* _ONCE sites that printed */
	char first[200];		/* "FILE:LINE: COND" of the first hit, "" if none */
};

/* A hit at a _ONCE site: counts it, prints it the first time for that site. */
void aw_warn(struct aw_warn *w, const char *cond, const char *file, int line);
/* A hit at a WARN_ON() site: counts it and prints it. */
void aw_warn_always(struct aw_warn *w, const char *cond, const char *file, int line);

static inline unsigned long aw_warn_count(const struct aw_warn *w) { return w->count; }

#ifndef AW_WARN_STATE
#define AW_WARN_STATE	(&k->warn)
#endif

/* WARN_ON() and friends are src/kapi/linux/bug.h's; a hit lands here */
#define aw_warn_report(once, cond, file, line) \
	((once) ? aw_warn : aw_warn_always)(AW_WARN_STATE, cond, file, line)
#include "linux/bug.h"

#endif /* AW_WARN_H */
