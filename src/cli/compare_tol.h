/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-figure tolerances of `agewalk compare`: how far a real kernel's figure
 * may lie from the model's and still count as agreement.
 *
 * A figure agrees when |model - kernel| <= rel * max(|model|, |kernel|) +
 * abs + per_walk * (the model's walks in that pass).  The per-walk term
 * exists because a walk on a real kernel also reads page tables the
 * scenario does not describe: the executor's 64-page TLB-flush scratch VMA
 * and each worker's own text, data and stack, which it touches whenever it
 * runs (docs/lab.md).
 */
#ifndef AW_COMPARE_TOL_H
#define AW_COMPARE_TOL_H

#include <stdbool.h>
#include <stddef.h>

#define AW_TOL_MAX	48

struct aw_tol {
	char key[32];		/* the JSON key, e.g. "leaf_total" */
	double rel;		/* fraction: 0.10 = 10% */
	double abs;		/* pages or counts */
	double per_walk;	/* added per model walk of the pass */
};

struct aw_tols {
	int nr;
	struct aw_tol t[AW_TOL_MAX];
};

/* The defaults, documented in `agewalk compare --help` and docs/lab.md. */
void aw_tols_default(struct aw_tols *tols);

/*
 * Parse "KEY=REL%[+ABS[/walk]]" (e.g. "young=5%", "leaf_total=10%+64/walk",
 * "walks=0%+1") and set KEY's tolerance, adding KEY if new.  Returns 0, or
 * -1 with a message in err.
 */
int aw_tols_parse(struct aw_tols *tols, const char *spec, char *err, size_t errlen);

/* KEY's tolerance, or NULL: a figure without one is shown, never judged. */
const struct aw_tol *aw_tols_find(const struct aw_tols *tols, const char *key);

/* Does kernel lie within tol of model, given the model's walks? */
bool aw_tol_within(const struct aw_tol *tol, double model, double kernel, double model_walks);

#endif /* AW_COMPARE_TOL_H */
