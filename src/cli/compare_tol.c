// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tolerances of `agewalk compare` (compare_tol.h).
 *
 * The defaults follow what a real kernel can be expected to match.  Walk
 * counters and evictions get 10%: the issue that asked for the lab set
 * that bar for leaf totals, and a real kernel's young counts move with
 * timing the model does not have (a timer interrupt touching a page, the
 * worker's own stack).  Counts the kernel decides by a rule rather than by
 * sampling -- passes, refusals -- must match exactly.  A limited memcg's
 * reclaim and refaults within one event (memcg_events) get 10% and 64
 * pages besides: a charge reclaims in MEMCG_CHARGE_BATCH (64) pages and
 * evicts in SWAP_CLUSTER_MAX batches, so a few dozen pages can land in the
 * next event on a kernel without any rule differing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_tol.h"

static const struct aw_tol defaults[] = {
	{ "leaf_total",		0.10, 0, 64 },	/* + the scratch VMA, per walked mm */
	{ "young",		0.10, 0, 0 },
	{ "nonleaf_found",	0.10, 0, 4 },	/* + the worker's own text, data, stack, scratch PMDs */
	{ "nonleaf_added",	0.10, 0, 4 },
	{ "pmd_entries_read",	0.10, 0, 0 },
	{ "pud_skipped",	0.10, 0, 0 },
	{ "walks",		0, 0, 0 },
	{ "evicted",		0.10, 0, 0 },	/* folios; a kernel counts pages: */
	{ "evicted_pages",	0.10, 0, 0 },
	{ "refaults",		0.10, 0, 0 },
	{ "workingset_refaults",	0.10, 0, 0 },
	{ "resident",		0.10, 0, 0 },
	{ "swapped",		0.10, 0, 0 },
	{ "passes",		0, 0, 0 },
	{ "aging_refused",	0, 0, 0 },
	{ "pgsteal",		0.10, 64, 0 },	/* per event (memcg_events) */
	{ "workingset_refault",	0.10, 64, 0 },
	/*
	 * khugepaged (the khugepaged section): what the executor commands or
	 * the kernel decides by rule -- wake-ups, full scans, collapses, lazyfree
	 * skips -- must match; per-call figures get 10%: every registered mm
	 * of the guest (the executor's own, /init's) shares the wake-up's
	 * budget, and the workers' own text, data and stack VMAs are not the
	 * model's layout
	 */
	{ "kh_wakeups",		0, 0, 0 },
	{ "kh_full_scans",	0, 0, 0 },
	{ "kh_collapsed",	0, 0, 0 },
	{ "kh_madv_collapsed",	0, 0, 0 },
	{ "kh_lazyfree_skips",	0, 0, 0 },
	{ "kh_calls",		0.10, 0, 0 },
	{ "kh_progress",	0.10, 0, 0 },
	{ "kh_ranges",		0.10, 0, 0 },
	{ "kh_progress_per_full_scan",	0.10, 0, 0 },
};

void aw_tols_default(struct aw_tols *tols)
{
	tols->nr = (int)(sizeof(defaults) / sizeof(defaults[0]));
	memcpy(tols->t, defaults, sizeof(defaults));
}

const struct aw_tol *aw_tols_find(const struct aw_tols *tols, const char *key)
{
	for (int i = 0; i < tols->nr; i++)
		if (!strcmp(tols->t[i].key, key))
			return &tols->t[i];
	return NULL;
}

/* A non-negative finite number at *p, advancing *p; -1 if there is none. */
static double number(const char **p)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(*p, &end);
	if (end == *p || errno || !isfinite(v) || v < 0)
		return -1;
	*p = end;
	return v;
}

static int parse_value(struct aw_tol *t, const char *p, char *err, size_t errlen)
{
	double rel = number(&p), abs = 0;

	if (rel < 0 || *p++ != '%')
		goto bad;
	t->rel = rel / 100;
	t->abs = t->per_walk = 0;
	if (!*p)
		return 0;
	if (*p++ != '+' || (abs = number(&p)) < 0)
		goto bad;
	if (!*p) {
		t->abs = abs;
		return 0;
	}
	if (strcmp(p, "/walk"))
		goto bad;
	t->per_walk = abs;
	return 0;
bad:
	snprintf(err, errlen, "tolerance '%s' is not REL%%[+ABS[/walk]]", t->key);
	return -1;
}

int aw_tols_parse(struct aw_tols *tols, const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	struct aw_tol t = { 0 };
	struct aw_tol *slot;
	size_t n;

	if (!eq || eq == spec || (n = (size_t)(eq - spec)) >= sizeof(t.key)) {
		snprintf(err, errlen, "'%s' is not KEY=REL%%[+ABS[/walk]]", spec);
		return -1;
	}
	memcpy(t.key, spec, n);
	if (parse_value(&t, eq + 1, err, errlen) < 0)
		return -1;
	slot = (struct aw_tol *)aw_tols_find(tols, t.key);
	if (!slot) {
		if (tols->nr == AW_TOL_MAX) {
			snprintf(err, errlen, "more than %d tolerances", AW_TOL_MAX);
			return -1;
		}
		slot = &tols->t[tols->nr++];
	}
	*slot = t;
	return 0;
}

bool aw_tol_within(const struct aw_tol *tol, double model, double kernel, double model_walks)
{
	double scale = fmax(fabs(model), fabs(kernel));

	return fabs(model - kernel) <= tol->rel * scale + tol->abs + tol->per_walk * model_walks;
}
