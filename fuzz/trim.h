/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trimming fuzz inputs (src/event/fuzzin.h) record by record, for AFL++'s
 * custom trim hooks (afl_mutator.c).  AFL++'s own trimmer removes byte
 * ranges of power-of-two lengths: they cut records in half and shift every
 * later one, so an input it "trims" decodes to other events and the
 * trimming mostly fails.  Here a step removes whole records and keeps the
 * header:
 *
 *  - passes with run lengths L = the largest power of two <= n / 2 (at
 *    least 1), then L / 2, ... 1, over the n records the input had;
 *  - pass L has ceil(n / L) steps, step c removing the records
 *    [c * L, min(n, (c + 1) * L)) that are still there;
 *  - a successful step (the target's coverage did not change) makes the
 *    smaller input the current one; a failed one is undone;
 *  - a step whose records are all gone already is skipped, so every step
 *    that runs removes at least one record.
 *
 * Steps number 0 .. steps - 1 in that order; aw_trim_done() returns the
 * next one to run (steps when finished), as AFL++'s post_trim does.
 * Candidates hold the header and whole records only: a partial record at
 * the end, which the decoder ignores, is dropped.
 */
#ifndef AW_TRIM_H
#define AW_TRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct aw_trim {
	uint8_t *orig;		/* the input at aw_trim_init(): header + n records */
	uint8_t *gone;		/* per record of orig: removed by a successful step */
	uint8_t *out;		/* the candidate aw_trim_step() returns */
	size_t hdr;		/* header bytes in orig (fewer than a header: no records) */
	size_t n;		/* records in orig */
	size_t cap;		/* records the buffers hold */
	int steps;		/* the steps planned for orig */
	int step;		/* the step aw_trim_step() runs */
	size_t from, len;	/* its run of records */
};

/* Inputs of more records are not trimmed (their steps would not fit an int). */
#define AW_TRIM_MAX_RECORDS	(1U << 20)

/* Steps for n records (0 for none, or more than AW_TRIM_MAX_RECORDS). */
int aw_trim_steps(size_t n);
/* Step s's run of records (s below aw_trim_steps(n)). */
void aw_trim_run(size_t n, int s, size_t *from, size_t *len);

/*
 * Start trimming buf (copied): returns the number of steps, 0 when there is
 * no record to remove (size below a header and a record), -1 when out of
 * memory.  t starts zeroed; aw_trim_init() may be called again for the
 * next input and reuses its buffers.
 */
int aw_trim_init(struct aw_trim *t, const uint8_t *buf, size_t size);
/*
 * The current step's candidate: the current input without its run.  Once
 * all steps have run, the current input itself.  Never NULL after a
 * successful aw_trim_init(); the buffer is t's, valid until the next call.
 */
size_t aw_trim_step(struct aw_trim *t, uint8_t **out);
/* The candidate kept the coverage (success) or not; returns the next step. */
int aw_trim_done(struct aw_trim *t, bool success);
void aw_trim_free(struct aw_trim *t);

#endif /* AW_TRIM_H */
