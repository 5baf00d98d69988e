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
#include <stdlib.h>
#include <string.h>

#include "afl_mutator.h"
#include "mutator.h"
#include "trim.h"

struct aw_afl {
	uint32_t seed;
	struct aw_mut_weights weights;	/* AGEWALK_MUTATOR_WEIGHTS, read at init */
	uint8_t *buf;
	size_t cap;
	struct aw_trim trim;
};


void *afl_custom_init(void *afl, unsigned int seed)
{
	struct aw_afl *m = calloc(1, sizeof(*m));

	(void)afl;
	if (m) {
		m->seed = seed;
		aw_mut_weights_from_env(&m->weights);
	}
	return m;
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
