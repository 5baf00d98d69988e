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

#include "commands.h"
#include "kernel.h"
#include "kdiff.h"
#include "ktext_variants.h"

static const char usage[] =
	"usage: agewalk kdiff FILE.aws|FILE.awpb [--tree NAME]... [--bug NAME]\n"
	"  runs FILE on the model and on each kernel-text variant built in\n"
	"  (-DAGEWALK_KERNEL_TREES), comparing after every event; --bug plants\n"
	"  one of the model's bugs (agewalk run --help lists them) to show a\n"
	"  divergence is caught\n";

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
	const struct aw_ktext_ops *trees[16];
	int nr_trees = 0, status = 0;
	const char *file = NULL;
	unsigned int bugs = 0;
	struct aw_scenario sc;
	char err[512];

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return fputs(usage, stdout) < 0;
		if (!strcmp(argv[i], "--tree") && i + 1 < argc) {
			const struct aw_ktext_ops *ops = aw_ktext_find(argv[++i]);

			if (!ops) {
				fprintf(stderr, "agewalk kdiff: no kernel-text variant '%s' in this build\n", argv[i]);
				return 2;
			}
			if (nr_trees < 16)
				trees[nr_trees++] = ops;
		} else if (!strcmp(argv[i], "--bug") && i + 1 < argc) {
			int b = aw_bug_parse(argv[++i]);

			if (b < 0) {
				fprintf(stderr, "agewalk kdiff: unknown bug '%s'\n", argv[i]);
				return 2;
			}
			bugs |= 1U << b;
		} else if (argv[i][0] != '-' && !file) {
			file = argv[i];
		} else if (argv[i][0] != '-') {
			return aw_usage_error("kdiff", "one input file only");
		} else {
			return aw_option_error("kdiff", usage, argv[i]);
		}
	}
	if (!file)
		return aw_usage_error("kdiff", "no input file");
	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; !nr_trees && *v; v++)
		while (*v && nr_trees < 16)
			trees[nr_trees++] = *v++;
	if (!nr_trees) {
		fprintf(stderr, "agewalk kdiff: this build has no kernel-text variants "
				"(configure with -DAGEWALK_KERNEL_TREES=auto)\n");
		return 2;
	}
	if (aw_load_scenario(file, NULL, &sc, err, sizeof(err), NULL, AW_FUZZ_LOCKSTEP)) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	for (int t = 0; t < nr_trees; t++) {
		int s = one(&sc, trees[t], bugs);

		status = s > status ? s : status;
	}
	aw_scenario_free(&sc);
	return status;
}
