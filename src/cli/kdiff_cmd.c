// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk kdiff FILE [--tree NAME ...]: the scenario on the model and on
 * each named kernel-text variant (all built ones by default), event by
 * event, with the first disagreement (src/kdiff/kdiff.h, docs/ktext.md).
 *
 * Exit status: 0 every tree agreed on every event, 1 a divergence, 2 bad
 * usage, bad input, a scenario kernel-text runs cannot do yet, or a build
 * without kernel-text variants.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernel.h"
#include "kdiff.h"
#include "ktext_variants.h"

struct kdiff {
	const struct aw_ktext_ops *trees[16];
	int nr_trees;
	const char *file;
	unsigned int bugs;
};

static int add_tree(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	struct kdiff *k = dst;
	const struct aw_ktext_ops *ops = aw_ktext_find(arg);

	if (!ops) {
		snprintf(err, errlen, "no kernel-text variant '%s' in this build", arg);
		return AW_PO_FAIL;
	}
	if (k->nr_trees < 16)
		k->trees[k->nr_trees++] = ops;
	return 0;
}

static int add_bug(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	int b = aw_bug_parse(arg);

	if (b < 0) {
		snprintf(err, errlen, "unknown bug '%s'", arg);
		return AW_PO_FAIL;
	}
	*(unsigned int *)dst |= 1U << b;
	return 0;
}

static int input_file(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct kdiff *k = ctx;

	if (k->file) {
		snprintf(err, errlen, "one input file only");
		return AW_PO_USAGE;
	}
	k->file = arg;
	return 0;
}

static const struct aw_po_option options[] = {
	{ "tree", 0, AW_PO_CALL, "NAME", .cb = add_tree, .flags = AW_PO_MANY },
	{ "bug", 0, AW_PO_CALL, "NAME", .off = offsetof(struct kdiff, bugs), .cb = add_bug },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_kdiff_cmd = {
	.name = "kdiff", .args = "FILE.aws|FILE.awpb", .opts = options, .positional = input_file,
	.flags = AW_PO_DASH_IS_OPTION,
	.notes =
	"  runs FILE on the model and on each kernel-text variant built in\n"
	"  (-DAGEWALK_KERNEL_TREES), comparing after every event; --bug plants\n"
	"  one of the model's bugs (agewalk run --help lists them) to show a\n"
	"  divergence is caught\n",
};

static int one(const struct aw_scenario *sc, const struct aw_ktext_ops *ops, unsigned int bugs)
{
	struct aw_kdiff_result res;

	if (aw_kdiff_run(sc, ops, bugs, &res) < 0) {
		fprintf(stderr, "agewalk kdiff: %s: %s: event %zu: %s\n", sc->path, ops->name, res.event + 1,
			res.what);
		return 2;
	}
	if (res.refused) {
		fprintf(stderr, "agewalk kdiff: %s: %s: event %zu (line %u): %s\n", sc->path, ops->name,
			res.event + 1, sc->event_line ? sc->event_line[res.event] : 0, res.what);
		return 2;
	}
	if (res.diverged) {
		printf("%s: %s: diverged after event %zu (line %u): %s\n", sc->path, ops->name, res.event + 1,
		       sc->event_line ? sc->event_line[res.event] : 0, res.what);
		return 1;
	}
	printf("%s: %s: agreed on %zu events (%lu checks)\n", sc->path, ops->name, sc->nr_events, res.checks);
	return 0;
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
		while (*v && k.nr_trees < 16)
			k.trees[k.nr_trees++] = *v++;
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
