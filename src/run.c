// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario runner: every event goes to every variant's kernel in order.
 */
#include <string.h>

#include "run.h"

static const struct aw_variant aw_variants[] = {
	{ "base", 0 },
	{ "pud", AW_FEAT_PUD_FILTER },
};

const struct aw_variant *aw_variant_find(const char *name)
{
	for (size_t i = 0; i < sizeof(aw_variants) / sizeof(aw_variants[0]); i++)
		if (!strcmp(aw_variants[i].name, name))
			return &aw_variants[i];
	return NULL;
}

int aw_run_scenario(struct aw_run *run, const struct aw_scenario *sc, int thp,
		    const char *const *variants, int nr_variants, FILE *walk_log)
{
	struct aw_config cfg = sc->cfg;

	memset(run, 0, sizeof(*run));
	run->sc = sc;
	run->thp = thp;
	run->failed_event = -1;
	cfg.thp = (enum aw_thp_mode)thp;
	if (nr_variants < 1 || nr_variants > AW_MAX_VARIANTS) {
		snprintf(run->err, sizeof(run->err), "between 1 and %d variants can run", AW_MAX_VARIANTS);
		return -1;
	}
	for (int v = 0; v < nr_variants; v++) {
		run->variant[v] = aw_variant_find(variants[v]);
		if (!run->variant[v]) {
			snprintf(run->err, sizeof(run->err), "unknown variant '%s'", variants[v]);
			return -1;
		}
		run->k[v] = aw_kernel_create(&cfg, sc->nr_regions, run->variant[v]->features, 0);
		if (!run->k[v]) {
			snprintf(run->err, sizeof(run->err), "cannot create the simulated machine");
			return -1;
		}
		run->nr_variants = v + 1;
		/* the walk log follows the first variant only, to stay readable */
		if (v == 0)
			run->k[v]->walk_log = walk_log;
	}
	for (size_t i = 0; i < sc->nr_events; i++) {
		for (int v = 0; v < run->nr_variants; v++) {
			run->k[v]->event_index = i;
			if (aw_kernel_apply(run->k[v], &sc->events[i])) {
				run->failed_event = (long)i;
				snprintf(run->err, sizeof(run->err), "%s:%u: event %zu (%s): %s",
					 sc->path ? sc->path : "-", sc->event_line ? sc->event_line[i] : 0, i,
					 aw_event_kind_name(sc->events[i].kind), run->k[v]->err);
				return -1;
			}
		}
		run->events_applied = i + 1;
	}
	return 0;
}

void aw_run_free(struct aw_run *run)
{
	for (int v = 0; v < run->nr_variants; v++)
		aw_kernel_destroy(run->k[v]);
	memset(run, 0, sizeof(*run));
}
