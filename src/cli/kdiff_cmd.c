// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk kdiff FILE [--tree NAME]... [--bug NAME]: the model against
 * kernel text, one line per tree.  For each kernel-text variant named
 * (all built ones by default) this is `agewalk run FILE --variants
 * PAIR,TREE --kernel RELEASE --keep-going` with every oracle on: the
 * tree's MGLRU text bound onto the model's machine (src/kbind), beside the
 * model variant it must agree with, under its release's profile.  The exact-agreement
 * oracle compares the two after every aging pass and eviction the text
 * ran -- generation lists folio by folio with their flags, every page
 * table entry with its accessed and dirty bits, both Bloom filter levels
 * bit by bit, the walk counters and the mm list -- and names the first
 * field that differs (docs/ktext.md).
 *
 * Exit status: 0 every tree agreed, 1 a finding, 2 bad usage, bad input,
 * a scenario kernel text cannot run, or a build without kernel-text
 * variants.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kbind.h"
#include "kernel.h"
#include "ktext_variants.h"
#include "lockstep.h"
#include "options.h"

#define KDIFF_MAX_TREES	16

struct kdiff {
	const char *trees[KDIFF_MAX_TREES];
	int nr_trees;
	const char *file;
	unsigned int bugs;
};

static int add_tree(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct kdiff *k = dst;

	(void)opt;
	if (!aw_ktext_find(arg)) {
		snprintf(err, errlen, "no kernel-text variant '%s' in this build", arg);
		return AW_PO_FAIL;
	}
	if (k->nr_trees < KDIFF_MAX_TREES)
		k->trees[k->nr_trees++] = arg;
	return 0;
}

static const struct aw_po_option options[] = {
	{ "tree", 0, AW_PO_CALL, "NAME", .cb = add_tree, .flags = AW_PO_MANY },
	{ "bug", 0, AW_PO_CALL, "NAME", .off = offsetof(struct kdiff, bugs), .cb = aw_opt_add_bug },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_kdiff_cmd = {
	.name = "kdiff", .args = "FILE.aws|FILE.awpb", .opts = options, .one = "input file", .one_off = offsetof(struct kdiff, file),
	.flags = AW_PO_DASH_IS_OPTION,
	.notes =
	"  runs FILE with each kernel-text variant built in (-DAGEWALK_KERNEL_TREES)\n"
	"  beside the model variant it must agree with, under its release's profile\n"
	"  (the pairs are the version output's kernel-text variants), every oracle\n"
	"  on, as agewalk run runs that pair; one line per tree that agreed, else\n"
	"  the divergence (the first field that differs) and every finding; --bug\n"
	"  plants one of the model's bugs (agewalk run --help lists them) to show\n"
	"  a divergence is caught\n",
};

/*
 * A finding of the run: the divergence (the agreement oracle's, one at
 * most: the pair is not compared after it) names the field, other oracles'
 * findings (on either side) their oracle.
 */
static void print_finding(const struct aw_scenario *sc, const char *tree, const struct aw_lockstep_finding *f)
{
	bool divergence = f->oracle == AW_OR_KTEXT_AGREEMENT || f->oracle == AW_OR_KH_TEXT_AGREEMENT;

	printf("%s: %s: %s at event %llu (line %u: %s)", sc->path, tree, divergence ? "diverged" : "finding",
	       (unsigned long long)f->event, f->line, f->event_text);
	if (divergence)
		printf(": %s\n", f->msg);
	else
		printf(" [%s]: %s: %s\n", f->variants, aw_oracle_name(f->oracle), f->msg);
}

/*
 * One tree: its pair run as `run --keep-going` runs it, so that the
 * divergence is reported even when an oracle of the model variant fires
 * first; prints its lines (the divergence first), returns the exit status.
 */
static int one(const struct aw_scenario *sc, const char *tree, unsigned int bugs)
{
	struct aw_variant buf;
	const struct aw_variant *v = aw_kbind_find(tree, &buf);
	const char *names[2] = { v->pair, v->name };
	struct aw_lockstep_opts lo = {
		.thp = (int)sc->cfg.thp, .variants = names, .nr_variants = 2, .bugs = bugs,
		.kernel = v->kernel, .oracles = true, .keep_going = true,
	};
	struct aw_lockstep ls;
	int status = 0;

	aw_kbind_opts(&lo);
	if (aw_lockstep_run(&ls, sc, &lo)) {
		fprintf(stderr, "agewalk kdiff: %s: %s\n", sc->path, ls.err);
		status = 2;
	} else if (ls.nr_findings) {
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < ls.nr_findings; i++)
				if ((ls.findings[i].oracle == AW_OR_KTEXT_AGREEMENT ||
				     ls.findings[i].oracle == AW_OR_KH_TEXT_AGREEMENT) == !pass)
					print_finding(sc, tree, &ls.findings[i]);
		status = 1;
	} else {
		printf("%s: %s: agreed with %s on %zu events\n", sc->path, tree, v->pair, sc->nr_events);
	}
	aw_lockstep_free(&ls);
	return status;
}

int aw_cmd_kdiff(int argc, char **argv)
{
	struct kdiff k = { 0 };
	struct aw_scenario sc;
	char err[512];
	int status = aw_po_parse(&aw_kdiff_cmd, &k, argc, argv);

	if (status)
		return status == AW_PO_HELP ? 0 : 2;
	if (!k.file)
		return aw_usage_error("kdiff", "no input file");
	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; !k.nr_trees && *v; v++)
		while (*v && k.nr_trees < KDIFF_MAX_TREES)
			k.trees[k.nr_trees++] = (*v++)->name;
	if (!k.nr_trees) {
		fprintf(stderr, "agewalk kdiff: this build has no kernel-text variants "
				"(configure with -DAGEWALK_KERNEL_TREES=auto)\n");
		return 2;
	}
	if (aw_load_scenario(k.file, NULL, &sc, err, sizeof(err), NULL, AW_FUZZ_LOCKSTEP)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	for (int t = 0; t < k.nr_trees; t++) {
		int s = one(&sc, k.trees[t], k.bugs);

		status = s > status ? s : status;
	}
	aw_scenario_free(&sc);
	return status;
}
