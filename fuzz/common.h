/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the lockstep fuzz targets share: the planted bugs from AGEWALK_BUG,
 * the allocator setup, one lockstep execution with the decision to abort on
 * a finding (AGEWALK_ORACLE waits for one oracle), and the libFuzzer hooks
 * (LLVMFuzzerInitialize, the custom mutator and cross-over) defined in
 * common.c for every target that links it.
 */
#ifndef AW_FUZZ_COMMON_H
#define AW_FUZZ_COMMON_H

#include "fuzzin.h"
#include "lockstep.h"

/* AGEWALK_BUG (comma-separated planted bug names) as a bug mask; aborts on an unknown name */
unsigned int aw_fuzz_bugs_from_env(void);
/* mallopt() so that the per-input machines stay in the heap */
void aw_fuzz_keep_heap(void);
/*
 * Count the known findings (corpus/known-findings, as built in); print the
 * findings and abort if one of AGEWALK_ORACLE's oracle (any, if unset) is
 * not known.
 */
void aw_fuzz_check_findings(struct aw_lockstep *ls);
/*
 * One execution: decode the input for target, run variants[0] and
 * variants[1] in lockstep with every oracle (findings only), abort on a
 * finding (aw_fuzz_check_findings) or on an event the decoder should never
 * have made.  name prefixes that message.
 */
void aw_fuzz_run(const uint8_t *data, size_t size, enum aw_fuzz_target target,
		 const char *const variants[2], const char *name);
/* The same with the caller's variants, profile and variant lookup (kernel text) */
void aw_fuzz_run_opts(const uint8_t *data, size_t size, enum aw_fuzz_target target,
		      const struct aw_lockstep_opts *opts, const char *name);

#endif /* AW_FUZZ_COMMON_H */
