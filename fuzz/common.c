// SPDX-License-Identifier: GPL-2.0-only
/* Shared by the lockstep fuzz targets (common.h). */
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

unsigned int aw_fuzz_bugs_from_env(void)
{
	const char *env = getenv("AGEWALK_BUG");
	char buf[256], *save = NULL, *tok;
	unsigned int bugs = 0;

	if (!env || !*env)
		return 0;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int b = aw_bug_parse(tok);

		if (b < 0) {
			fprintf(stderr, "AGEWALK_BUG: unknown planted bug '%s'\n", tok);
			abort();
		}
		bugs |= 1U << b;
	}
	return bugs;
}

/*
 * Every input builds and tears down two simulated machines: folio blocks,
 * page tables and Bloom filters, a few MiB in all.  With glibc's defaults
 * the frees hand that memory back to the kernel (brk trim, munmap of large
 * chunks) and the next input faults it in again, which cost more than the
 * simulation itself.  Keep it in the heap instead.  (Process-wide, but
 * this is a fuzzer's own process; the agewalk tool does not do this.)
 */
void aw_fuzz_keep_heap(void)
{
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
}

void aw_fuzz_check_findings(struct aw_lockstep *ls)
{
	const char *only = getenv("AGEWALK_ORACLE");
	bool hit = !only || !*only;

	if (!ls->nr_findings)
		return;
	for (int i = 0; !hit && i < ls->nr_findings; i++)
		hit = !strcmp(aw_oracle_name(ls->findings[i].oracle), only);
	if (hit) {
		aw_report_findings(stderr, ls);
		abort();
	}
}
