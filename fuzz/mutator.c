// SPDX-License-Identifier: GPL-2.0-only
/*
 * Structure-aware mutations of fuzz inputs (mutator.h): the table of
 * mutations and their weights, the weights read from a string or a file,
 * and the entry points.  The mutations themselves are in mutate_records.c
 * (generic record operations) and mutate_domain.c (edits that know the
 * event language).  Deterministic in the seed; the state is a local PRNG,
 * so there is nothing global.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mutator.h"
#include "mutator_internal.h"

#define H	AW_FUZZ_HEADER
#define R	AW_FUZZ_RECORD

/*
 * Every mutation, in the order the weights are laid out: a mutation is
 * chosen by a draw below the sum of the weights, walked in this order.  The
 * default weights are all 1, which draws exactly as the switch over 21
 * cases this table replaced, so a seed keeps its mutation: append new
 * mutations at the end, never reorder.
 */
static const struct aw_mutation {
	const char *name;
	aw_mutation_fn *fn;
} aw_mutations[AW_MUT_NR] = {
	{ "insert",		aw_mut_insert },
	{ "delete",		aw_mut_delete },
	{ "duplicate",		aw_mut_duplicate },
	{ "swap",		aw_mut_swap },
	{ "splice",		aw_mut_splice },
	{ "pmd",		aw_mut_pmd },
	{ "pud",		aw_mut_pud },
	{ "node_cpu",		aw_mut_node_cpu },
	{ "force_age",		aw_mut_force_age },
	{ "remap",		aw_mut_remap },
	{ "migrate",		aw_mut_migrate },
	{ "memcg",		aw_mut_memcg },
	{ "split_age",		aw_mut_split_age },
	{ "header",		aw_mut_header },
	{ "kind",		aw_mut_kind },
	{ "delete_run",		aw_mut_delete_run },
	{ "kh_wakeup",		aw_mut_kh_wakeup },
	{ "lazyfree_dirty",	aw_mut_lazyfree_dirty },
	{ "khugepaged",		aw_mut_khugepaged },
	{ "reclaim",		aw_mut_reclaim },
	{ "flip",		aw_mut_flip },
	{ "fd_read",		aw_mut_fd_read },
};

const char *aw_mut_name(unsigned int k)
{
	return k < AW_MUT_NR ? aw_mutations[k].name : NULL;
}

void aw_mut_weights_default(struct aw_mut_weights *w)
{
	for (unsigned int k = 0; k < AW_MUT_NR; k++)
		w->w[k] = 1;
	w->total = AW_MUT_NR;
}

/* One "name=weight" item of s[0..len). */
static int weights_item(struct aw_mut_weights *w, const char *s, size_t len, char *err, size_t errlen)
{
	const char *eq = memchr(s, '=', len);
	unsigned long v = 0;
	size_t nlen, k;

	if (!eq) {
		snprintf(err, errlen, "'%.*s': expected NAME=WEIGHT", (int)len, s);
		return -1;
	}
	nlen = (size_t)(eq - s);
	for (k = 0; k < AW_MUT_NR; k++)
		if (strlen(aw_mutations[k].name) == nlen && !memcmp(aw_mutations[k].name, s, nlen))
			break;
	if (k == AW_MUT_NR) {
		snprintf(err, errlen, "'%.*s': no such mutation (see fuzz/mutator.c)", (int)nlen, s);
		return -1;
	}
	if (eq + 1 == s + len) {
		snprintf(err, errlen, "'%.*s': the weight is missing", (int)len, s);
		return -1;
	}
	for (const char *c = eq + 1; c < s + len; c++) {
		if (*c < '0' || *c > '9' || v > AW_MUT_MAX_WEIGHT) {
			snprintf(err, errlen, "'%.*s': the weight is not a number up to %u", (int)len, s,
				 AW_MUT_MAX_WEIGHT);
			return -1;
		}
		v = v * 10 + (unsigned long)(*c - '0');
	}
	if (v > AW_MUT_MAX_WEIGHT) {
		snprintf(err, errlen, "'%.*s': the weight is not a number up to %u", (int)len, s,
			 AW_MUT_MAX_WEIGHT);
		return -1;
	}
	w->w[k] = (uint32_t)v;
	return 0;
}

/* Items separated by commas or white space; '#' comments to the end of a line. */
static int weights_text(struct aw_mut_weights *w, const char *s, char *err, size_t errlen)
{
	while (*s) {
		size_t len;

		if (*s == '#') {
			s += strcspn(s, "\n");
			continue;
		}
		if (strchr(", \t\r\n", *s)) {
			s++;
			continue;
		}
		len = strcspn(s, ", \t\r\n#");
		if (weights_item(w, s, len, err, errlen))
			return -1;
		s += len;
	}
	return 0;
}

static int weights_file(struct aw_mut_weights *w, const char *path, char *err, size_t errlen)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	if (n == sizeof(buf) - 1) {
		snprintf(err, errlen, "%s: longer than %zu bytes", path, sizeof(buf) - 2);
		return -1;
	}
	buf[n] = '\0';
	if (strlen(buf) != n) {
		snprintf(err, errlen, "%s: not a text file", path);
		return -1;
	}
	return weights_text(w, buf, err, errlen);
}

int aw_mut_weights_parse(struct aw_mut_weights *w, const char *spec, char *err, size_t errlen)
{
	uint64_t total = 0;

	aw_mut_weights_default(w);
	if (spec[0] == '@' ? weights_file(w, spec + 1, err, errlen) : weights_text(w, spec, err, errlen))
		return -1;
	for (unsigned int k = 0; k < AW_MUT_NR; k++)
		total += w->w[k];
	if (!total) {
		snprintf(err, errlen, "every weight is 0");
		return -1;
	}
	w->total = (uint32_t)total;
	return 0;
}

void aw_mut_weights_from_env(struct aw_mut_weights *w)
{
	const char *spec = getenv("AGEWALK_MUTATOR_WEIGHTS");
	char err[256];

	if (!spec || !*spec) {
		aw_mut_weights_default(w);
		return;
	}
	if (aw_mut_weights_parse(w, spec, err, sizeof(err))) {
		fprintf(stderr, "AGEWALK_MUTATOR_WEIGHTS: %s\n", err);
		exit(2);
	}
}

static size_t mutate_once(const struct aw_mut_weights *w, uint8_t *d, size_t size, size_t max, struct aw_rng *g)
{
	size_t n = aw_fuzz_nr_records(size), i = n ? aw_rng_below(g, (uint32_t)n) : 0;
	uint32_t x = aw_rng_below(g, w->total);
	unsigned int k = 0;

	while (x >= w->w[k]) {
		x -= w->w[k];
		k++;
	}
	return aw_mutations[k].fn(d, size, max, g, i);
}

size_t aw_mutate_weighted(const struct aw_mut_weights *w, uint8_t *data, size_t size, size_t max_size,
			  uint32_t seed)
{
	struct aw_rng g = { .s = 0x9E3779B97F4A7C15ULL ^ seed };
	int rounds = 1 + (int)aw_rng_below(&g, 4);
	struct aw_mut_weights def;

	if (!w->total) {	/* never set (a hook called before its init): the default */
		aw_mut_weights_default(&def);
		w = &def;
	}
	if (max_size < H)
		return size < max_size ? size : max_size;
	if (size < H) {	/* grow a header out of nothing */
		memset(data + size, 0, H - size);
		size = H;
	}
	size = H + aw_fuzz_nr_records(size) * R;	/* drop a partial record */
	while (rounds--)
		size = mutate_once(w, data, size, max_size, &g);
	return size;
}

size_t aw_mutate(uint8_t *data, size_t size, size_t max_size, uint32_t seed)
{
	static const struct aw_mut_weights unset;	/* total 0: the default weights */

	return aw_mutate_weighted(&unset, data, size, max_size, seed);
}

size_t aw_crossover(const uint8_t *a, size_t na, const uint8_t *b, size_t nb, uint8_t *out,
		    size_t max_size, uint32_t seed)
{
	struct aw_rng g = { .s = 0xD1B54A32D192ED03ULL ^ seed };
	size_t ra = aw_fuzz_nr_records(na), rb = aw_fuzz_nr_records(nb), size = H;
	size_t ia, ib;

	if (max_size < H || na < H)
		return 0;
	/*
	 * One-point crossover: a's first events, then b's events from a
	 * random point on.  a's prefix builds a machine state (mappings,
	 * generations, marks) and b's suffix acts on it, and the child is
	 * as long as its parents on average.  (Interleaving both parents
	 * whole doubled the length at every crossover, so the corpus soon
	 * held nothing but inputs at the 256-event cap.)
	 */
	ia = aw_rng_below(&g, (uint32_t)ra + 1);
	ib = aw_rng_below(&g, (uint32_t)rb + 1);
	memcpy(out, a, H);
	for (size_t i = 0; i < ia && size + R <= max_size && aw_fuzz_nr_records(size) < AW_FUZZ_MAX_EVENTS;
	     i++, size += R)
		memcpy(out + size, a + H + i * R, R);
	for (size_t i = ib; i < rb && size + R <= max_size && aw_fuzz_nr_records(size) < AW_FUZZ_MAX_EVENTS;
	     i++, size += R)
		memcpy(out + size, b + H + i * R, R);
	return size;
}
