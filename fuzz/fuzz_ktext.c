// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the model against kernel text, on the model's machine
 * (src/kbind).  The input is the lockstep targets' (src/event/fuzzin.h):
 * its machine, its events -- faults, mmap and munmap, fork and exit,
 * madvise, migration, memcg limits and reclaim, khugepaged, whole and
 * split aging passes.  Its variant byte picks one of the build's
 * kernel-text variants, which runs beside the model variant it must match
 * (base, or pud for a tree with the PUD-filter series) under its release's
 * profile, with every oracle live: a divergence the exact-agreement
 * oracle finds, a WARN of the kernel's own, or any other finding prints
 * the report and aborts.
 *
 * AGEWALK_KTEXT_TREE=NAME fuzzes that variant alone.  Without kernel-text
 * variants in the build every input is a no-op.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "kbind.h"
#include "ktext_variants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct aw_ktext_ops *pick(const uint8_t *data, size_t size)
{
	const char *only = getenv("AGEWALK_KTEXT_TREE");
	size_t nr = 0;

	if (only && *only) {
		const struct aw_ktext_ops *ops = aw_ktext_find(only);

		if (!ops) {
			fprintf(stderr, "AGEWALK_KTEXT_TREE: this build has no variant '%s' (it has:%s)\n", only,
				aw_ktext_variant_names);
			abort();
		}
		return ops;
	}
	while (aw_ktext_variants[nr])
		nr++;
	if (!nr)
		return NULL;
	return aw_ktext_variants[(size > AW_FH_VARIANT ? aw_fuzz_hdr_get(data, AW_FH_VARIANT) : 0) % nr];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct aw_ktext_ops *ops = pick(data, size);
	struct aw_variant text;
	const char *variants[2];
	struct aw_lockstep_opts o = { .nr_variants = 2 };

	if (!ops || !aw_kbind_find(ops->name, &text))
		return 0;
	variants[0] = text.pair;
	variants[1] = text.name;
	o.variants = variants;
	o.kernel = text.kernel;
	aw_kbind_opts(&o);
	aw_fuzz_run_opts(data, size, AW_FUZZ_LOCKSTEP, &o, "agewalk_fuzz_ktext");
	return 0;
}
