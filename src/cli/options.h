/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options that say which model runs, shared by `agewalk run`, `replay`
 * and `minimize`: the variants, planted bugs, THP mode, skip-empty, the
 * kernel profile and the khugepaged switches.  One table (aw_model_options,
 * parse_options.h), so a value means the same and a bad value gets the
 * same message whichever command reads it, and each command's --help
 * names them the same way.
 *
 * A command puts AW_MODEL_OPTIONS() in its option table with the set of
 * options it accepts; the entries store into the struct aw_model_opts
 * at that member of the command's struct.
 */
#ifndef AW_OPTIONS_H
#define AW_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "lockstep.h"
#include "parse_options.h"

/* The options, by flag; a command accepts a union of them. */
enum aw_model_opt {
	AW_OPT_VARIANTS		= 1 << 0,	/* --variants A,B,... */
	AW_OPT_BUG		= 1 << 1,	/* --bug NAME, --fix NAME, repeatable */
	AW_OPT_THP		= 1 << 2,	/* --thp always|never|madvise */
	AW_OPT_SKIP_EMPTY	= 1 << 3,	/* --skip-empty 1..64, --empty-contract SPEC */
	AW_OPT_KHUGEPAGED	= 1 << 4,	/* --khugepaged-rev, --khugepaged, --khugepaged-prctl-enter */
	AW_OPT_KERNEL		= 1 << 5,	/* --kernel 6.1|6.12|mainline */
};

struct aw_model_opts {
	const char *variants[AW_MAX_VARIANTS];	/* point into variant_buf */
	int nr_variants;			/* 0 = not given: the command's default */
	char *variant_buf;
	unsigned int bugs;			/* 1 << enum aw_bug */
	unsigned int fixes;			/* --fix: AW_FEAT_* of a fix tried in the model */
	int thp;				/* enum aw_thp_mode, -1 = not given */
	int skip_empty;				/* 0 = the scenario's */
	bool has_empty;				/* --empty-contract given: it replaces the scenario's */
	struct aw_empty_contract empty;
	int kernel;				/* enum aw_kernel_profile, -1 = the scenario's */
	int khugepaged_rev;			/* enum aw_kh_rev */
	bool khugepaged_base, khugepaged_prctl_enter;
};

/* The table, in the order the synopses list them; each entry's .set is its enum aw_model_opt. */
extern const struct aw_po_option aw_model_options[];

/* The entry of a command's table: the options in accept, into the struct aw_model_opts type.member. */
#define AW_MODEL_OPTIONS(type, member, accept) \
	{ .kind = AW_PO_GROUP, .sub = aw_model_options, .off = offsetof(type, member), .val = (int)(accept) }

void aw_model_opts_init(struct aw_model_opts *o);
void aw_model_opts_free(struct aw_model_opts *o);

/*
 * Offer argv[*i]: if it is one of the options in accept (enum
 * aw_model_opt), parse it and its value, leave *i on the last argument
 * taken and return 1.  Return 0 if it is not one of them (nothing
 * changes), -1 with a one-line message in err (no prefix, no newline)
 * if its value is missing or bad.  A later --variants replaces an earlier
 * one; --bug adds up.  (The commands parse through their tables; this is
 * the same table, one argument at a time.)
 */
int aw_model_opts_parse(struct aw_model_opts *o, unsigned int accept, int argc, char **argv, int *i,
			char *err, size_t errlen);

/*
 * --bug NAME's callback: dst is an unsigned int of 1 << enum aw_bug;
 * an unknown name is refused with the list of known ones.  kdiff's --bug
 * is the same option outside the model options' table.
 */
int aw_opt_add_bug(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen);

/* The lockstep options these set: variants, bugs, skip_empty, empty, kernel, khugepaged_*. */
void aw_model_opts_apply(const struct aw_model_opts *o, struct aw_lockstep_opts *lo);

#endif /* AW_OPTIONS_H */
