/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fuzz input file, whole, for the two drivers that run inputs from files
 * instead of an engine: the file-replay driver (driver.c) and the
 * coverage-stability check (stable.c).
 */
#ifndef AW_FUZZ_SLURP_H
#define AW_FUZZ_SLURP_H

#include <stddef.h>
#include <stdint.h>

/*
 * path's bytes in a malloc()ed buffer (at least one byte long, so an
 * empty file is not NULL), their count in *len; NULL when the file cannot
 * be opened, sized or read whole.  The caller frees the buffer.
 */
uint8_t *aw_fuzz_slurp(const char *path, size_t *len);

#endif
