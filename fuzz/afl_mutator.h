/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AFL++ custom mutator hooks (AFL++'s docs/custom_mutators.md): AFL++
 * finds them with dlsym() in the library afl_mutator.c builds; the unit
 * test calls them directly.
 */
#ifndef AW_AFL_MUTATOR_H
#define AW_AFL_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

/* custom mutations per queue entry unless AGEWALK_AFL_FUZZ_COUNT says otherwise */
#define AW_AFL_FUZZ_COUNT	64

void *afl_custom_init(void *afl, unsigned int seed);
uint32_t afl_custom_fuzz_count(void *data, const uint8_t *buf, size_t buf_size);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size);
int afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size);
size_t afl_custom_trim(void *data, uint8_t **out_buf);
int afl_custom_post_trim(void *data, unsigned char success);
void afl_custom_deinit(void *data);

#endif /* AW_AFL_MUTATOR_H */
