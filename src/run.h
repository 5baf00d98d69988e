/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Running a scenario: one simulated kernel per variant, the same events
 * applied to each in order (the lockstep engine grows oracles on top).
 */
#ifndef AW_RUN_H
#define AW_RUN_H

#include <stdio.h>

#include "event/scenario.h"
#include "sim/kernel.h"

#define AW_MAX_VARIANTS	4

struct aw_variant {
	const char *name;
	unsigned int features;
};

/* Look a variant up by name; NULL if unknown. */
const struct aw_variant *aw_variant_find(const char *name);

struct aw_run {
	const struct aw_scenario *sc;
	int thp;				/* enum aw_thp_mode the run used */
	int nr_variants;
	const struct aw_variant *variant[AW_MAX_VARIANTS];
	struct aw_kernel *k[AW_MAX_VARIANTS];
	size_t events_applied;
	long failed_event;			/* index of a malformed event, -1 */
	char err[400];
};

/*
 * Run sc under the given THP mode with the named variants.  Returns 0, or
 * -1 with run->err set ("event N (line L): why") when an event is malformed.
 */
int aw_run_scenario(struct aw_run *run, const struct aw_scenario *sc, int thp,
		    const char *const *variants, int nr_variants, FILE *walk_log);
void aw_run_free(struct aw_run *run);

/* report.c */
void aw_report_json(FILE *out, const struct aw_run *run);
void aw_report_table(FILE *out, const struct aw_run *run);
/* Check the scenario's expectations for run->thp; prints failures; returns their number. */
int aw_check_expectations(FILE *out, const struct aw_run *run);

#endif /* AW_RUN_H */
