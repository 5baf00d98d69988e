/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the lockstep fuzz targets share: the planted bugs from AGEWALK_BUG,
 * the allocator setup, and the decision to abort on a finding
 * (AGEWALK_ORACLE waits for one oracle).
 */
#ifndef AW_FUZZ_COMMON_H
#define AW_FUZZ_COMMON_H

#include "lockstep.h"

/* AGEWALK_BUG (comma-separated planted bug names) as a bug mask; aborts on an unknown name */
unsigned int aw_fuzz_bugs_from_env(void);
/* mallopt() so that the per-input machines stay in the heap */
void aw_fuzz_keep_heap(void);
/* Print the findings and abort if one is of AGEWALK_ORACLE's oracle (any, if unset). */
void aw_fuzz_check_findings(struct aw_lockstep *ls);

#endif /* AW_FUZZ_COMMON_H */
