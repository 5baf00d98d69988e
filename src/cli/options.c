// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model options run, replay and minimize share (options.h).  Each
 * option is one small function from its value to the struct, so the
 * message for a bad value is written once, and one entry of
 * aw_model_options, so the synopsis, the notes and the completion say it
 * once (parse_options.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbind.h"
#include "options.h"

void aw_model_opts_init(struct aw_model_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->thp = -1;
	o->kernel = -1;
}

void aw_model_opts_free(struct aw_model_opts *o)
{
	free(o->variant_buf);
	o->variant_buf = NULL;
	o->nr_variants = 0;
}

/* Names stay in variant_buf: aw_lockstep_opts and reports point at them. */
static int set_variants(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	char *save = NULL, *tok;

	free(o->variant_buf);
	o->variant_buf = strdup(arg);
	o->nr_variants = 0;
	if (!o->variant_buf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tok = strtok_r(o->variant_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct aw_variant text;

		if (o->nr_variants == AW_MAX_VARIANTS || (!aw_variant_find(tok) && !aw_kbind_find(tok, &text))) {
			snprintf(err, errlen, "unknown or too many variants in '%s' (known: %s%s)", arg,
				 aw_variant_names(), aw_kbind_names());
			o->nr_variants = 0;
			return -1;
		}
		o->variants[o->nr_variants++] = tok;
	}
	if (!o->nr_variants) {
		snprintf(err, errlen, "--variants '%s' names no variant (known: %s%s)", arg, aw_variant_names(),
			 aw_kbind_names());
		return -1;
	}
	return 0;
}

/* Fixes tried in the model for a finding (docs/findings/), by name: variant features */
static int add_fix(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	if (!strcmp(arg, "pud-young")) {
		o->fixes |= AW_FEAT_PUD_YOUNG_FIX;
		return 0;
	}
	snprintf(err, errlen, "unknown fix '%s'; known: pud-young", arg);
	return -1;
}

int aw_opt_add_bug(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	unsigned int *bugs = dst;
	int b = aw_bug_parse(arg);
	size_t n;

	if (b >= 0) {
		*bugs |= 1U << b;
		return 0;
	}
	n = (size_t)snprintf(err, errlen, "unknown planted bug '%s'; known:", arg);
	for (int j = 0; j < AW_BUG_NR && n < errlen; j++)
		n += (size_t)snprintf(err + n, errlen - n, " %s", aw_bug_name(j));
	return -1;
}

static int set_thp(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	int mode = aw_thp_mode_parse(arg);

	if (mode < 0) {
		snprintf(err, errlen, "--thp takes always, never or madvise");
		return -1;
	}
	o->thp = mode;
	return 0;
}

static int set_skip_empty(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < 1 || v > 64) {
		snprintf(err, errlen, "--skip-empty takes 1..64, not '%s'", arg);
		return -1;
	}
	o->skip_empty = (int)v;
	return 0;
}

static int set_empty_contract(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	if (aw_empty_contract_parse(arg, ',', &o->empty, err, errlen))
		return -1;
	o->has_empty = true;
	return 0;
}

static int set_kernel(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	int profile = aw_kernel_profile_parse(arg);
	char releases[64];

	if (profile < 0) {
		snprintf(err, errlen, "--kernel takes %s, not '%s'",
			 aw_kernel_release_list(releases, sizeof(releases), false, ", ", " or "), arg);
		return -1;
	}
	o->kernel = profile;
	return 0;
}

static int set_kh_rev(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	if (!strcmp(arg, "seed")) {
		o->khugepaged_rev = AW_KH_REV_SEED;
	} else if (!strcmp(arg, "v8")) {
		o->khugepaged_rev = AW_KH_REV_V8;
	} else {
		snprintf(err, errlen, "--khugepaged-rev takes seed or v8");
		return -1;
	}
	return 0;
}

static int set_khugepaged(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct aw_model_opts *o = dst;
	if (strcmp(arg, "base") && strcmp(arg, "patched")) {
		snprintf(err, errlen, "--khugepaged takes base or patched");
		return -1;
	}
	o->khugepaged_base = !strcmp(arg, "base");
	return 0;
}

const struct aw_po_option aw_model_options[] = {
	{ "variants", 0, AW_PO_CALL, "base,pud,emptymap,rfc", .set = AW_OPT_VARIANTS, .cb = set_variants },
	{ "thp", 0, AW_PO_CALL, "always|never|madvise", .set = AW_OPT_THP, .cb = set_thp },
	{ "bug", 0, AW_PO_CALL, "NAME", .set = AW_OPT_BUG, .flags = AW_PO_MANY, .cb = aw_opt_add_bug,
	  .off = offsetof(struct aw_model_opts, bugs) },
	{ "fix", 0, AW_PO_CALL, "pud-young", .set = AW_OPT_BUG, .cb = add_fix,
	  .help = "a fix tried in the model for a finding (docs/findings/):\n"
		  "pud-young walks a PUD the filter lacks if its accessed bit is set" },
	{ "skip-empty", 0, AW_PO_CALL, "N", .set = AW_OPT_SKIP_EMPTY, .cb = set_skip_empty },
	{ "empty-contract", 0, AW_PO_CALL, "place=..,empty=..,clock=..,clear=..", .set = AW_OPT_SKIP_EMPTY,
	  .cb = set_empty_contract,
	  .help = "the RFC empty-mm skip's open choices (default\n"
		  "place=get-next-mm,empty=associated,clock=mm,clear=major+migration;\n"
		  "place=after, empty=no-leaves, clock=pass, clear=major[+migration]\n"
		  "[+huge][+minor][+collapse])" },
	{ "khugepaged-rev", 0, AW_PO_CALL, "seed|v8", .set = AW_OPT_KHUGEPAGED, .cb = set_kh_rev },
	{ "khugepaged", 0, AW_PO_CALL, "base|patched", .set = AW_OPT_KHUGEPAGED, .cb = set_khugepaged },
	{ "khugepaged-prctl-enter", 0, AW_PO_FLAG, .set = AW_OPT_KHUGEPAGED,
	  .off = offsetof(struct aw_model_opts, khugepaged_prctl_enter), .val = 1 },
	{ "kernel", 0, AW_PO_CALL, AW_KERNEL_RELEASE_WORDS, .set = AW_OPT_KERNEL, .cb = set_kernel },
	{ .kind = AW_PO_END },
};

int aw_model_opts_parse(struct aw_model_opts *o, unsigned int accept, int argc, char **argv, int *i,
			char *err, size_t errlen)
{
	const char *a = argv[*i];
	size_t off = 0;
	const struct aw_po_option *opt = aw_po_find(aw_model_options, accept, a, &off);

	if (!opt)
		return 0;
	if (opt->arg && *i + 1 >= argc) {
		snprintf(err, errlen, "%s needs a value", a);
		return -1;
	}
	return aw_po_take(opt, (char *)o + off, opt->arg ? argv[++*i] : NULL, err, errlen) ? -1 : 1;
}

void aw_model_opts_apply(const struct aw_model_opts *o, struct aw_lockstep_opts *lo)
{
	lo->variants = o->variants;
	lo->nr_variants = o->nr_variants;
	lo->bugs = o->bugs;
	lo->fixes = o->fixes;
	lo->skip_empty = o->skip_empty;
	lo->empty = o->has_empty ? &o->empty : NULL;
	lo->kernel = o->kernel + 1;
	lo->khugepaged_rev = o->khugepaged_rev;
	lo->khugepaged_base = o->khugepaged_base;
	lo->khugepaged_prctl_enter = o->khugepaged_prctl_enter;
	aw_kbind_opts(lo);
}
