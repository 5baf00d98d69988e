// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: khugepaged, the model's two revisions against each other
 * and against each tree's own text.  The input is the lockstep format
 * (src/event/fuzzin.h) decoded for AW_FUZZ_KHUGEPAGED: THP never is folded
 * into always or madvise, since no khugepaged thread runs with THP never.
 * The header's variant byte picks the pair:
 *  - 0: khugepaged-base and khugepaged-patched, with every oracle (the
 *    khugepaged ones: progress, lazyfree, data-loss, slot; and the MGLRU
 *    ones, which both run as base);
 *  - i > 0: the build's i-th khugepaged text (kh6.12, kh6.1, and
 *    kh6.12+khugepaged with the scan series) beside the model variant it
 *    must match, under its release's profile, checked by
 *    khugepaged-text-agreement after every call into the text.
 * AGEWALK_KH_TREE=NAME fuzzes that text variant alone ("model": the model
 * pair alone; "text": the texts only, the variant byte picking the tree).  A finding prints the report and aborts unless
 * it is a known finding.  AGEWALK_BUG, AGEWALK_ORACLE and
 * AGEWALK_KNOWN_COUNTS as for agewalk_fuzz_lockstep.  Crashes convert
 * with `agewalk convert CRASH OUT.aws --from fuzz --fuzz-variant
 * khugepaged` and minimize with `agewalk minimize CRASH --variants
 * khugepaged-base,khugepaged-patched` (or the pair the report names, with
 * its --kernel).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "kbind.h"
#include "ktext_kh_api.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the text variant to run, written into name; false for the model pair */
static bool pick(const uint8_t *data, size_t size, char *name, size_t len)
{
	const char *only = getenv("AGEWALK_KH_TREE");
	size_t nr = 0, byte = size > AW_FH_VARIANT ? aw_fuzz_hdr_get(data, AW_FH_VARIANT) : 0, i;

	while (aw_kh_variants[nr])
		nr++;
	i = byte % (nr + 1);
	if (only && *only) {
		struct aw_variant buf;

		if (!strcmp(only, "model"))
			return false;
		if (!strcmp(only, "text") && nr) {
			aw_kbind_kh_name(aw_kh_variants[byte % nr], name, len);
			return true;
		}
		if (!aw_kbind_kh_find(only, &buf)) {
			fprintf(stderr, "AGEWALK_KH_TREE: this build has no variant '%s' (it has: model, text%s)\n", only,
				aw_kh_variant_names);
			abort();
		}
		snprintf(name, len, "%s", only);
		return true;
	}
	if (!i)
		return false;
	aw_kbind_kh_name(aw_kh_variants[i - 1], name, len);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const model[2] = { "khugepaged-base", "khugepaged-patched" };
	struct aw_lockstep_opts o = { .nr_variants = 2 };
	const char *variants[2];
	struct aw_variant text;
	char name[32];

	if (!pick(data, size, name, sizeof(name)) || !aw_kbind_kh_find(name, &text)) {
		aw_fuzz_run(data, size, AW_FUZZ_KHUGEPAGED, model, "agewalk_fuzz_khugepaged");
		return 0;
	}
	variants[0] = text.pair;
	variants[1] = name;
	o.variants = variants;
	o.kernel = text.kernel;
	aw_kbind_opts(&o);
	aw_fuzz_run_opts(data, size, AW_FUZZ_KHUGEPAGED, &o, "agewalk_fuzz_khugepaged");
	return 0;
}
