/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Causes: why a walk did not see what it should have, named by rule, for
 * the signature of a finding (docs/oracles.md, "Signatures").
 *
 * The log is a history of the skip decisions of one simulated kernel, fed
 * by the oracles' probes: for every (lruvec, mm, PUD) the last pass's
 * outcome, for every (lruvec, mm) the last walk, the last empty-mm skip and
 * why the mark was set, and for every mm the last fault of each kind.  A
 * skip inherits the reason of the skip before it, so that a chain of
 * skips keeps the rule that started it.
 *
 * A cause is text without addresses, pids, sequence numbers or event
 * indexes: two inputs whose findings share a cause share a signature.
 */
#ifndef AW_CAUSE_H
#define AW_CAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* room for one cause; a differential joins up to AW_CAUSES_MAX of them */
#define AW_CAUSE_LEN	192
#define AW_CAUSES_MAX	4

struct aw_kernel;
struct lru_gen_mm_walk;
struct mm_struct;
struct aw_cause_log;

struct aw_cause_log *aw_cause_log_new(int nr_lruvecs);
void aw_cause_log_free(struct aw_cause_log *log);

/* facts, from the probes */
void aw_cause_pud_visit(struct aw_cause_log *log, struct lru_gen_mm_walk *walk, uint64_t addr, bool skipped,
			bool young);
void aw_cause_mm_skipped(struct aw_cause_log *log, struct lru_gen_mm_walk *walk, struct mm_struct *mm);
void aw_cause_walk_done(struct aw_cause_log *log, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			struct mm_struct *mm, int err);
void aw_cause_fault(struct aw_cause_log *log, struct aw_kernel *k, struct mm_struct *mm, int kind);
/* a forked child's tables are copies of its parent's: so is their history */
void aw_cause_fork(struct aw_cause_log *log, uint32_t parent, uint32_t child);
/* mremap moved [old, old + len) of mm to new_addr: the skips of the PUDs it left go with it */
void aw_cause_mremap(struct aw_cause_log *log, uint32_t mm, uint64_t old, uint64_t new_addr, uint64_t len);

/*
 * Why the folio at (mm, addr) of lruvec (memcg, nid) was not seen young:
 * the most recent skip on its path -- its mm's (empty) or its PUD's, in
 * mm or in the mms it was forked from, which may share the folio -- by
 * rule; without one, the last skip of its path in another lruvec (whose
 * non-leaf accessed bits it left as they were), else "no skip on its
 * path" and the last skip of any mm or PUD in the lruvec, whose unseen
 * folios changed the generations the eviction reached.  huge: the folio is a THP (which
 * fault could have brought it in).  Writes the cause to buf.
 */
void aw_cause_of_eviction(const struct aw_cause_log *log, const struct aw_kernel *k, int memcg, int nid,
			  uint32_t mm, uint64_t addr, bool huge, char *buf, size_t len);

#endif /* AW_CAUSE_H */
