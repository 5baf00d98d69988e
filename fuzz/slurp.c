// SPDX-License-Identifier: GPL-2.0-only
/* A fuzz input file, whole (slurp.h). */
#include <stdio.h>
#include <stdlib.h>

#include "slurp.h"

/*
 * No counters in a libFuzzer build: stable.c reads the edge counters, and
 * the reading of its inputs is not what it measures.
 */
#ifdef __clang__
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

uint8_t *aw_fuzz_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc(n ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#ifdef __clang__
#pragma clang attribute pop
#endif
