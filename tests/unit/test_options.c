// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model options run, replay and minimize share (src/cli/options.h):
 * what each option sets, where it leaves the argument index, which
 * options a command's set lets through, and the one-line message for each
 * bad value.  The expected values and messages are written out by hand
 * from options.h's contract and the variant and planted-bug lists.
 */
#include "aw_test.h"
#include "kbind.h"
#include "options.h"

#define ALL	(AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_THP | AW_OPT_SKIP_EMPTY | AW_OPT_KHUGEPAGED | AW_OPT_KERNEL)
#define KNOWN	"base, pud, emptymap, rfc, khugepaged-base, khugepaged-patched"

/* the message with the known variants: the model's, then the kernel text this build has */
static const char *known(char *buf, const char *what)
{
	snprintf(buf, 256, "%s (known: " KNOWN "%s)", what, aw_kbind_names());
	return buf;
}

static char err[1024];
static char want[256];

/* Offer argv[at] of a NULL-terminated list; *i is where the parser left it. */
static int offer(struct aw_model_opts *o, unsigned int accept, char **argv, int at, int *i)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	*i = at;
	err[0] = 0;
	return aw_model_opts_parse(o, accept, argc, argv, i, err, sizeof(err));
}

static void test_init(void)
{
	struct aw_model_opts o;

	aw_model_opts_init(&o);
	CHECK_EQ(o.nr_variants, 0);	/* the command's default applies */
	CHECK_EQ(o.thp, -1);		/* not given */
	CHECK_EQ(o.bugs, 0);
	CHECK_EQ(o.skip_empty, 0);
	CHECK_EQ(o.kernel, -1);		/* not given: the scenario's */
	CHECK_EQ(o.khugepaged_rev, AW_KH_REV_SEED);
	CHECK(!o.khugepaged_base && !o.khugepaged_prctl_enter);
	aw_model_opts_free(&o);
}

static void test_variants(void)
{
	char *a1[] = { "agewalk", "run", "--variants", "base,pud", "f.aws", NULL };
	char *a2[] = { "agewalk", "run", "--variants", ",emptymap,,rfc,", NULL };
	char *a3[] = { "agewalk", "run", "--variants", "base,nope", NULL };
	char *a4[] = { "agewalk", "run", "--variants", "base,pud,emptymap,rfc,khugepaged-base", NULL };
	char *a5[] = { "agewalk", "run", "--variants", ",", NULL };
	char *a6[] = { "agewalk", "run", "--variants", NULL };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	/* the value is argv[3]: *i is left there, the caller's loop moves on to 4 */
	CHECK_EQ(offer(&o, ALL, a1, 2, &i), 1);
	CHECK_EQ(i, 3);
	CHECK_EQ(o.nr_variants, 2);
	CHECK_STR(o.variants[0], "base");
	CHECK_STR(o.variants[1], "pud");

	/* a second --variants replaces the first; empty names between commas vanish */
	CHECK_EQ(offer(&o, ALL, a2, 2, &i), 1);
	CHECK_EQ(o.nr_variants, 2);
	CHECK_STR(o.variants[0], "emptymap");
	CHECK_STR(o.variants[1], "rfc");

	CHECK_EQ(offer(&o, ALL, a3, 2, &i), -1);
	CHECK_STR(err, known(want, "unknown or too many variants in 'base,nope'"));

	/* AW_MAX_VARIANTS is 4: a fifth name is one too many */
	CHECK_EQ(offer(&o, ALL, a4, 2, &i), -1);
	CHECK_STR(err, known(want, "unknown or too many variants in 'base,pud,emptymap,rfc,khugepaged-base'"));

	CHECK_EQ(offer(&o, ALL, a5, 2, &i), -1);
	CHECK_STR(err, known(want, "--variants ',' names no variant"));

	/* the last argument: no value to take */
	CHECK_EQ(offer(&o, ALL, a6, 2, &i), -1);
	CHECK_STR(err, "--variants needs a value");
	aw_model_opts_free(&o);
	CHECK_EQ(o.nr_variants, 0);
}

static void test_bug(void)
{
	char *a[] = { "agewalk", "replay", "--bug", "pud-force-no-bypass", "--bug", "walk-batch-not-flushed",
		      "--bug", "pud-force-no-bypass", "--bug", "nope", NULL };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	CHECK_EQ(offer(&o, AW_OPT_BUG, a, 2, &i), 1);
	CHECK_EQ(i, 3);
	CHECK_EQ(offer(&o, AW_OPT_BUG, a, 4, &i), 1);
	CHECK_EQ(i, 5);
	/* bit 0 (the first planted bug) and bit 7 (the eighth): 0x81; the repeat changes nothing */
	CHECK_EQ(o.bugs, 0x81);
	CHECK_EQ(offer(&o, AW_OPT_BUG, a, 6, &i), 1);
	CHECK_EQ(o.bugs, 0x81);
	CHECK_EQ(offer(&o, AW_OPT_BUG, a, 8, &i), -1);
	CHECK_STR(err, "unknown planted bug 'nope'; known: pud-force-no-bypass pud-force-no-remark "
		  "pud-lookaround-no-mark emptymap-shared-counter evict-ignore-pmd-young pud-reset-wrong-seq "
		  "emptymap-mark-on-failed-trylock walk-batch-not-flushed khugepaged-collapse-lazyfree "
		  "khugepaged-progress-512 khugepaged-copy-present-only pud-force-pmd-test khugepaged-madv-lazyfree "
		  "refault-counted-before-test should-run-aging-cmp aging-refused-off-by-one "
		  "swapin-reported-minor two-touch-first-promotes folio-seq-workingset check-refs-ptes-ge "
		  "tier-protect-off-by-one tier-ctrl-err-inverted khugepaged-skip-uncounted");
	CHECK_EQ(o.bugs, 0x81);
	aw_model_opts_free(&o);
}

static void test_thp(void)
{
	char *a[] = { "agewalk", "run", "--thp", "madvise", "--thp", "never", "--thp", "sometimes", "--thp",
		      NULL };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	CHECK_EQ(offer(&o, AW_OPT_THP, a, 2, &i), 1);
	CHECK_EQ(o.thp, AW_THP_MADVISE);
	CHECK_EQ(offer(&o, AW_OPT_THP, a, 4, &i), 1);
	CHECK_EQ(o.thp, AW_THP_NEVER);
	CHECK_EQ(offer(&o, AW_OPT_THP, a, 6, &i), -1);
	CHECK_STR(err, "--thp takes always, never or madvise");
	CHECK_EQ(offer(&o, AW_OPT_THP, a, 8, &i), -1);
	CHECK_STR(err, "--thp needs a value");
	aw_model_opts_free(&o);
}

static void test_skip_empty(void)
{
	struct { const char *arg; int ret, want; const char *msg; } c[] = {
		{ "1", 1, 1, NULL },
		{ "64", 1, 64, NULL },
		{ "0", -1, 0, "--skip-empty takes 1..64, not '0'" },
		{ "65", -1, 0, "--skip-empty takes 1..64, not '65'" },
		{ "-3", -1, 0, "--skip-empty takes 1..64, not '-3'" },
		{ "3x", -1, 0, "--skip-empty takes 1..64, not '3x'" },
		{ "", -1, 0, "--skip-empty takes 1..64, not ''" },
		{ "99999999999999999999", -1, 0, "--skip-empty takes 1..64, not '99999999999999999999'" },
	};

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		char *a[] = { "agewalk", "run", "--skip-empty", (char *)c[k].arg, NULL };
		struct aw_model_opts o;
		int i;

		aw_model_opts_init(&o);
		CHECK_EQ(offer(&o, AW_OPT_SKIP_EMPTY, a, 2, &i), c[k].ret);
		CHECK_EQ(o.skip_empty, c[k].want);
		if (c[k].msg)
			CHECK_STR(err, c[k].msg);
		aw_model_opts_free(&o);
	}
}

/* --kernel: the three profile names, nothing else (a version prefix is not a profile) */
static void test_kernel(void)
{
	struct { const char *arg; int ret, want; const char *msg; } c[] = {
		{ "6.1", 1, AW_KERNEL_6_1, NULL },
		{ "6.12", 1, AW_KERNEL_6_12, NULL },
		{ "mainline", 1, AW_KERNEL_MAINLINE, NULL },
		{ "6.13", -1, -1, "--kernel takes 6.1, 6.12 or mainline, not '6.13'" },
		{ "6", -1, -1, "--kernel takes 6.1, 6.12 or mainline, not '6'" },
		{ "Mainline", -1, -1, "--kernel takes 6.1, 6.12 or mainline, not 'Mainline'" },
		{ "", -1, -1, "--kernel takes 6.1, 6.12 or mainline, not ''" },
	};
	char *last[] = { "agewalk", "minimize", "crash", "--kernel", NULL };
	struct aw_lockstep_opts lo = { 0 };
	struct aw_model_opts o;
	int i;

	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		char *a[] = { "agewalk", "run", "--kernel", (char *)c[k].arg, NULL };

		aw_model_opts_init(&o);
		CHECK_EQ(offer(&o, AW_OPT_KERNEL, a, 2, &i), c[k].ret);
		CHECK_EQ(o.kernel, c[k].want);
		if (c[k].msg)
			CHECK_STR(err, c[k].msg);
		/* the lockstep's field is the profile + 1, 0 = the scenario's */
		aw_model_opts_apply(&o, &lo);
		CHECK_EQ(lo.kernel, c[k].want + 1);
		aw_model_opts_free(&o);
	}
	aw_model_opts_init(&o);
	CHECK_EQ(offer(&o, ALL, last, 3, &i), -1);
	CHECK_STR(err, "--kernel needs a value");
	/* outside the command's set it is the command's argument */
	CHECK_EQ(offer(&o, AW_OPT_THP, last, 3, &i), 0);
	aw_model_opts_free(&o);
}

static void test_khugepaged(void)
{
	char *a[] = { "agewalk", "run", "--khugepaged-rev", "v8", "--khugepaged", "base",
		      "--khugepaged-prctl-enter", "--khugepaged-rev", "v7", "--khugepaged", "both",
		      "--khugepaged", "patched", "--khugepaged-rev", "seed", NULL };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 2, &i), 1);
	CHECK_EQ(o.khugepaged_rev, AW_KH_REV_V8);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 4, &i), 1);
	CHECK(o.khugepaged_base);
	/* the one flag: takes no value, *i stays on it */
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 6, &i), 1);
	CHECK_EQ(i, 6);
	CHECK(o.khugepaged_prctl_enter);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 7, &i), -1);
	CHECK_STR(err, "--khugepaged-rev takes seed or v8");
	CHECK_EQ(o.khugepaged_rev, AW_KH_REV_V8);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 9, &i), -1);
	CHECK_STR(err, "--khugepaged takes base or patched");
	CHECK(o.khugepaged_base);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 11, &i), 1);
	CHECK(!o.khugepaged_base);
	CHECK_EQ(offer(&o, AW_OPT_KHUGEPAGED, a, 13, &i), 1);
	CHECK_EQ(o.khugepaged_rev, AW_KH_REV_SEED);
	aw_model_opts_free(&o);
}

/* An option outside the command's set, or no shared option at all, is the command's. */
static void test_not_ours(void)
{
	char *a[] = { "agewalk", "replay", "--khugepaged", "base", "--khugepaged-prctl-enter", "--json",
		      "--variantsx", "base", "--skip-empty", "5", "f.dat", NULL };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	CHECK_EQ(offer(&o, AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_THP | AW_OPT_SKIP_EMPTY, a, 2, &i), 0);
	CHECK_EQ(i, 2);
	CHECK(!o.khugepaged_base);
	CHECK_EQ(offer(&o, AW_OPT_VARIANTS, a, 4, &i), 0);
	CHECK(!o.khugepaged_prctl_enter);
	CHECK_EQ(offer(&o, ALL, a, 5, &i), 0);
	CHECK_EQ(offer(&o, ALL, a, 6, &i), 0);
	CHECK_EQ(o.nr_variants, 0);
	/* minimize's set has no --skip-empty */
	CHECK_EQ(offer(&o, AW_OPT_VARIANTS | AW_OPT_BUG, a, 8, &i), 0);
	CHECK_EQ(i, 8);
	CHECK_EQ(o.skip_empty, 0);
	CHECK_EQ(offer(&o, ALL, a, 10, &i), 0);
	aw_model_opts_free(&o);
}

static void test_apply(void)
{
	char *a[] = { "agewalk", "run", "--variants", "khugepaged-base,khugepaged-patched", "--bug",
		      "khugepaged-progress-512", "--skip-empty", "7", "--khugepaged-rev", "v8",
		      "--khugepaged", "base", "--khugepaged-prctl-enter", "--thp", "always", NULL };
	struct aw_lockstep_opts lo = { .thp = AW_THP_NEVER, .oracles = true, .keep_going = true };
	struct aw_model_opts o;
	int i;

	aw_model_opts_init(&o);
	for (int at = 2; a[at]; at = i + 1)
		CHECK_EQ(offer(&o, ALL, a, at, &i), 1);
	aw_model_opts_apply(&o, &lo);
	CHECK_EQ(lo.nr_variants, 2);
	CHECK_STR(lo.variants[0], "khugepaged-base");
	CHECK_STR(lo.variants[1], "khugepaged-patched");
	CHECK_EQ(lo.bugs, 1U << 9);	/* the tenth planted bug */
	CHECK_EQ(lo.skip_empty, 7);
	CHECK_EQ(lo.khugepaged_rev, AW_KH_REV_V8);
	CHECK(lo.khugepaged_base && lo.khugepaged_prctl_enter);
	/* the THP mode and everything else stays the command's */
	CHECK_EQ(o.thp, AW_THP_ALWAYS);
	CHECK_EQ(lo.thp, AW_THP_NEVER);
	CHECK(lo.oracles && lo.keep_going && !lo.findings_only);
	aw_model_opts_free(&o);
}

int main(void)
{
	RUN(test_init);
	RUN(test_variants);
	RUN(test_bug);
	RUN(test_thp);
	RUN(test_skip_empty);
	RUN(test_kernel);
	RUN(test_khugepaged);
	RUN(test_not_ours);
	RUN(test_apply);
	return aw_test_report("test_options");
}
