// SPDX-License-Identifier: GPL-2.0-only
/*
 * AFL++ custom mutator (AFL_CUSTOM_MUTATOR_LIBRARY): the same structure-
 * aware core as the libFuzzer hooks, and trimming by whole records
 * (trim.h) in place of AFL++'s byte-range trimmer.  Built with the plain
 * host compiler: a .so compiled with afl-clang-fast fails to load
 * (__afl_area_ptr).
 *
 * The trim hooks as AFL++ drives them (AFL++'s docs/custom_mutators.md): init_trim
 * gets the queue entry and returns the number of steps; while the index
 * post_trim returned is below that number, AFL++ calls trim for a
 * candidate, runs it, and tells post_trim whether the coverage stayed the
 * same (then it keeps the candidate as the entry).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afl_mutator.h"
#include "mutator.h"
#include "trim.h"

struct aw_afl {
	uint32_t seed;
	uint32_t fuzz_count;	/* custom mutations per queue entry (afl_custom_fuzz_count) */
	struct aw_mut_weights weights;	/* AGEWALK_MUTATOR_WEIGHTS, read at init */
	uint8_t *buf;
	size_t cap;
	struct aw_trim trim;
};


/* AGEWALK_AFL_FUZZ_COUNT (1-1000000), for A/B runs; else the default */
static uint32_t aw_afl_fuzz_count_from_env(void)
{
	const char *s = getenv("AGEWALK_AFL_FUZZ_COUNT");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return AW_AFL_FUZZ_COUNT;
	v = strtoul(s, &end, 10);
	if (*end || !v || v > 1000000) {
		fprintf(stderr, "AGEWALK_AFL_FUZZ_COUNT: '%s' is not a number from 1 to 1000000\n", s);
		exit(2);
	}
	return (uint32_t)v;
}

void *afl_custom_init(void *afl, unsigned int seed)
{
	struct aw_afl *m = calloc(1, sizeof(*m));

	(void)afl;
	if (m) {
		m->seed = seed;
		aw_mut_weights_from_env(&m->weights);
		m->fuzz_count = aw_afl_fuzz_count_from_env();
	}
	return m;
}

/*
 * Without this hook AFL++ sizes the custom stage from the entry's
 * performance score and doubles it whenever the queue grew during the
 * stage.  On these targets nearly every structure-aware mutation reaches
 * a new map entry, so the first entry picked kept the stage doubling: one
 * seed took a whole two-minute run (258,500 executions, 1,783 new entries
 * that were never fuzzed themselves, max_depth 2).  A fixed count, without
 * the doubling, lets AFL++ go on to the entries the stage found, as
 * libFuzzer does input by input.
 */
uint32_t afl_custom_fuzz_count(void *data, const uint8_t *buf, size_t buf_size)
{
	const struct aw_afl *m = data;

	(void)buf;
	(void)buf_size;
	return m->fuzz_count;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	struct aw_afl *m = data;
	size_t n;

	if (max_size > m->cap) {
		uint8_t *b = realloc(m->buf, max_size);

		if (!b) {
			*out_buf = buf;
			return buf_size;
		}
		m->buf = b;
		m->cap = max_size;
	}
	m->seed = m->seed * 1103515245U + 12345U;
	if (add_buf && add_buf_size && m->seed % 4 == 0) {
		n = aw_crossover(buf, buf_size, add_buf, add_buf_size, m->buf, max_size, m->seed);
	} else {
		n = buf_size < max_size ? buf_size : max_size;
		memcpy(m->buf, buf, n);
		n = aw_mutate_weighted(&m->weights, m->buf, n, max_size, m->seed);
	}
	if (!n) {	/* AFL needs > 0 */
		*out_buf = buf;
		return buf_size;
	}
	*out_buf = m->buf;
	return n;
}

/* The number of trimming steps for buf (0: nothing to trim; -1 makes AFL++ stop). */
int afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size)
{
	struct aw_afl *m = data;

	return aw_trim_init(&m->trim, buf, buf_size);
}

/* The next candidate: the current input less one record or a run of them. */
size_t afl_custom_trim(void *data, uint8_t **out_buf)
{
	struct aw_afl *m = data;

	return aw_trim_step(&m->trim, out_buf);
}

/* success: the candidate becomes the current input, else it is dropped; the next step. */
int afl_custom_post_trim(void *data, unsigned char success)
{
	struct aw_afl *m = data;

	return aw_trim_done(&m->trim, success != 0);
}

void afl_custom_deinit(void *data)
{
	struct aw_afl *m = data;

	if (m) {
		free(m->buf);
		aw_trim_free(&m->trim);
	}
	free(m);
}
