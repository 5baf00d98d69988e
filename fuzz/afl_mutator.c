// SPDX-License-Identifier: GPL-2.0-only
/*
 * AFL++ custom mutator (AFL_CUSTOM_MUTATOR_LIBRARY): the same structure-
 * aware core as the libFuzzer hooks.  Built with the plain host compiler:
 * a .so compiled with afl-clang-fast fails to load (__afl_area_ptr).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"

struct aw_afl {
	uint32_t seed;
	uint8_t *buf;
	size_t cap;
};

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

void *afl_custom_init(void *afl, unsigned int seed)
{
	struct aw_afl *m = calloc(1, sizeof(*m));

	(void)afl;
	if (m)
		m->seed = seed;
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
		n = aw_mutate(m->buf, n, max_size, m->seed);
	}
	if (!n) {	/* AFL needs > 0 */
		*out_buf = buf;
		return buf_size;
	}
	*out_buf = m->buf;
	return n;
}

void afl_custom_deinit(void *data)
{
	struct aw_afl *m = data;

	if (m)
		free(m->buf);
	free(m);
}
