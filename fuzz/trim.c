// SPDX-License-Identifier: GPL-2.0-only
/*
 * Record-granularity trimming (trim.h).  The state is the input as it came
 * and a mark per record removed since: the current input is orig without
 * the marked records, so undoing a failed step costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzzrec.h"
#include "trim.h"

/* The first pass's run length: the largest power of two <= n / 2, at least 1. */
static size_t first_len(size_t n)
{
	size_t len = 1;

	while (len * 2 <= n / 2)
		len *= 2;
	return len;
}

int aw_trim_steps(size_t n)
{
	int steps = 0;

	if (n > AW_TRIM_MAX_RECORDS)
		return 0;
	for (size_t len = n ? first_len(n) : 0; len; len /= 2)
		steps += (int)((n + len - 1) / len);
	return steps;
}

void aw_trim_run(size_t n, int s, size_t *from, size_t *len)
{
	*from = 0;
	*len = 0;
	for (size_t l = n ? first_len(n) : 0; l; l /= 2) {
		size_t runs = (n + l - 1) / l;

		if ((size_t)s < runs) {
			*from = (size_t)s * l;
			*len = n - *from < l ? n - *from : l;
			return;
		}
		s -= (int)runs;
	}
}

/* Whether step s would remove nothing: all records of its run are gone. */
static bool run_gone(const struct aw_trim *t, int s)
{
	size_t from, len;

	aw_trim_run(t->n, s, &from, &len);
	for (size_t i = from; i < from + len; i++)
		if (!t->gone[i])
			return false;
	return true;
}

static int grow(struct aw_trim *t, size_t n)
{
	uint8_t *orig, *out, *gone;

	if (n <= t->cap && t->orig)
		return 0;
	/* +1: a pointer to return even for an input of no bytes */
	orig = realloc(t->orig, AW_FUZZ_HEADER + n * AW_FUZZ_RECORD + 1);
	if (orig)
		t->orig = orig;
	out = realloc(t->out, AW_FUZZ_HEADER + n * AW_FUZZ_RECORD + 1);
	if (out)
		t->out = out;
	gone = realloc(t->gone, n + 1);
	if (gone)
		t->gone = gone;
	if (!orig || !out || !gone)
		return -1;
	t->cap = n;
	return 0;
}

int aw_trim_init(struct aw_trim *t, const uint8_t *buf, size_t size)
{
	size_t n = aw_fuzz_nr_records(size);

	if (n > AW_TRIM_MAX_RECORDS)
		n = 0;		/* not trimmed: the candidate is the header */
	if (grow(t, n))
		return -1;
	t->hdr = size < AW_FUZZ_HEADER ? size : AW_FUZZ_HEADER;
	t->n = n;
	memcpy(t->orig, buf, t->hdr + n * AW_FUZZ_RECORD);
	memset(t->gone, 0, n);
	t->steps = aw_trim_steps(n);
	t->step = 0;
	aw_trim_run(n, 0, &t->from, &t->len);
	return t->steps;
}

size_t aw_trim_step(struct aw_trim *t, uint8_t **out)
{
	bool last = t->step >= t->steps;
	size_t size = t->hdr;

	memcpy(t->out, t->orig, t->hdr);
	for (size_t i = 0; i < t->n; i++) {
		if (t->gone[i] || (!last && i >= t->from && i < t->from + t->len))
			continue;
		memcpy(t->out + size, aw_fuzz_rec(t->orig, i), AW_FUZZ_RECORD);
		size += AW_FUZZ_RECORD;
	}
	*out = t->out;
	return size;
}

int aw_trim_done(struct aw_trim *t, bool success)
{
	if (t->step >= t->steps)
		return t->steps;
	if (success)
		memset(t->gone + t->from, 1, t->len);
	while (++t->step < t->steps && run_gone(t, t->step))
		;
	aw_trim_run(t->n, t->step, &t->from, &t->len);
	return t->step;
}

void aw_trim_free(struct aw_trim *t)
{
	free(t->orig);
	free(t->out);
	free(t->gone);
	memset(t, 0, sizeof(*t));
}
