/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel text as variants of the lockstep engine (docs/ktext.md).
 *
 * A kernel-text variant (k6.12, k6.12+pud, k6.1: whatever trees the build
 * was given) is the model's machine with the tree's own MGLRU code behind
 * the seam (struct aw_mglru_ops): faults, mmap, fork, madvise, migration,
 * memcg limits, khugepaged and reclaim are the model's, aging, the mm
 * list, look-around and the eviction scan are the kernel's text, running
 * on the model's page tables and folios (ktext_bind.inc.c).
 *
 * Each one pairs with the model variant the tree should match (base, or
 * pud for a tree with the PUD-filter series) and runs the profile of its
 * release; the exact-agreement oracle then compares the two after every
 * event in which the text aged or evicted.
 */
#ifndef AW_KBIND_H
#define AW_KBIND_H

#include "ktext_api.h"
#include "ktext_kh_api.h"
#include "lockstep.h"

/* The kernel-text variant called name, written into buf; NULL if this build has none by that name. */
const struct aw_variant *aw_kbind_find(const char *name, struct aw_variant *buf);

/* ", k6.12, k6.12+pud, k6.1" (the variants this build has), or "" */
const char *aw_kbind_names(void);

/* Fill o->find_variant and o->more_variant_names. */
void aw_kbind_opts(struct aw_lockstep_opts *o);

/*
 * The tree's ops and its state behind kernel k, NULL if k runs no kernel
 * text; *calls counts the aging passes, evictions, refaults, folio
 * placements and mm list changes the text ran, and
 * *checked is where the agreement oracle notes the count it last compared
 * at (kbind_agree.c).  Tests read the text's own counters through it.
 */
const struct aw_ktext_ops *aw_kbind_ops(struct aw_kernel *k, struct aw_ktext **kt, unsigned long *calls,
					 unsigned long **checked);

/*
 * The model's walk counter (lru_gen.h's NR_MM_STATS index) for each of
 * the tree's ops->mm_stat_names, -1 for one the model does not count;
 * resolved once when the text is bound.  k must run kernel text.
 */
const int *aw_kbind_stat_of(struct aw_kernel *k);

/*
 * What the agreement oracle compares after the text's calls since it last
 * looked (kbind_agree.c), by what they may have written: placements
 * alone (folio_add_lru()) the folios placed and the generations; a
 * refault or a change to the mm list also every other folio and swap
 * slot; an aging pass or an eviction the page tables too.
 */
enum aw_kbind_look { AW_KBIND_LOOK_PLACED, AW_KBIND_LOOK_UNTABLED, AW_KBIND_LOOK_WHOLE };

/* placements since the last look that are compared one by one */
#define AW_KBIND_PLACED	8

/*
 * What to compare since the last call (k must run kernel text); for
 * AW_KBIND_LOOK_PLACED the *nr folios placed, their pfns in
 * pfns[AW_KBIND_PLACED] (a look at more of them is AW_KBIND_LOOK_UNTABLED).
 */
enum aw_kbind_look aw_kbind_since(struct aw_kernel *k, uint32_t *pfns, int *nr);

/*
 * What the agreement oracle saw of the two machines' page tables at its
 * last look at them (kbind_agree.c): each table's write count
 * (struct aw_pgtable_alloc's writes[]) on the model's machine [0] and the
 * text's [1], by id; a table neither count moved for since is as the
 * look found it on both, and is not read again.  With
 * AGEWALK_KBIND_AUDIT_TABLES=1 in the environment when the text is bound,
 * a copy of every table of both machines is kept too, and each look
 * checks that no table whose count stood still changed: a write that was
 * not counted is a finding ("kernel-text-agreement: ... not counted").
 */
struct aw_kbind_tables {
	uint64_t *seen[2];
	uint32_t cap;			/* ids seen[] (and copy[]) hold */
	bool audit;
	struct aw_ptable *copy[2];	/* the audit's copies, by id */
};

/* k's struct aw_kbind_tables (k must run kernel text) */
struct aw_kbind_tables *aw_kbind_tables(struct aw_kernel *k);

/* The machine part of a struct aw_ktext_host over k: tables, folios, lrugens, mms and VMAs. */
void aw_kbind_machine_host(struct aw_kernel *k, struct aw_ktext_host *h);

/*
 * The machines two variants left, compared field by field: every
 * lruvec's generations and lists, evictions and refaults, folios, page
 * tables and swap slots (kbind_agree.c).  0, or -1 with msg.
 */
int aw_kbind_agree_machine(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len);

/* An agreement oracle's verdict: msg printed from fmt, and -1. */
__attribute__((format(printf, 3, 4)))
int aw_kbind_differ(char *msg, size_t len, const char *fmt, ...);

/* The variant name of a tree's khugepaged text: "kh6.12" for the tree k6.12. */
void aw_kbind_kh_name(const struct aw_kh_ops *ops, char *buf, size_t len);

/* khugepaged's text as a variant (kh6.12, kh6.1, kh6.12+series; kbind_kh.c), NULL if not built */
const struct aw_variant *aw_kbind_kh_find(const char *name, struct aw_variant *buf);

#endif /* AW_KBIND_H */
