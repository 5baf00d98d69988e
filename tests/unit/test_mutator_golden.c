// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mutator's distribution, pinned: aw_mutate() run 2,000 times on copies
 * of the fuzz seeds named on the command line (the build's projections of
 * corpus scenarios), and 2,000 times in a chain (each output the next
 * input, so that the edits which look for an MADV_FREE, an aging pass or a
 * khugepaged knob find one), every output hashed (FNV-1a 64 over size and
 * bytes).  The expected hash was recorded from the mutator before its
 * weights became a table (fuzz/mutator.c): a change of the default weights,
 * of the order in which an edit draws its random numbers, or of an edit
 * itself shows up here.  A deliberate change of the distribution updates
 * AW_GOLDEN (run with --print) and says why in its commit.
 */
#include <stdbool.h>

#include "aw_test.h"
#include "fuzzin.h"
#include "mutator.h"

#define H	AW_FUZZ_HEADER
#define R	AW_FUZZ_RECORD
#define CAP	(H + 300 * R)
#define N	2000

/* recorded from the switch-statement mutator (commit cbff480) */
#define AW_GOLDEN	0x465d4905ae19750eULL

struct seed {
	uint8_t buf[CAP];
	size_t size;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001B3ULL;
	return h;
}

static bool load(const char *path, struct seed *s)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return false;
	s->size = fread(s->buf, 1, CAP, f);
	fclose(f);
	return true;
}

static uint64_t hash_runs(const struct seed *seeds, int nseeds)
{
	static uint8_t buf[CAP];
	uint64_t h = 0xCBF29CE484222325ULL;
	size_t chain;

	/* fresh copies, under four size limits: roomy, the cap, one record more, none */
	for (uint32_t k = 0; k < N; k++) {
		const struct seed *s = &seeds[k % (uint32_t)nseeds];
		size_t maxes[] = { 4096, CAP, s->size + R, s->size }, max = maxes[k / (uint32_t)nseeds % 4];
		size_t n;

		if (max > CAP)
			max = CAP;
		memcpy(buf, s->buf, s->size);
		n = aw_mutate(buf, s->size < max ? s->size : max, max, k * 2654435761U);
		h = fnv(h, &n, sizeof(n));
		h = fnv(h, buf, n);
	}
	/* a chain from the first seed */
	memcpy(buf, seeds[0].buf, seeds[0].size);
	chain = seeds[0].size;
	for (uint32_t k = 0; k < N; k++) {
		chain = aw_mutate(buf, chain, 4096, k);
		h = fnv(h, &chain, sizeof(chain));
		h = fnv(h, buf, chain);
	}
	return h;
}

int main(int argc, char **argv)
{
	bool print = argc > 1 && !strcmp(argv[1], "--print");
	int first = print ? 2 : 1, nseeds = argc - first;
	struct seed *seeds;
	uint64_t h;

	if (nseeds < 1) {
		fprintf(stderr, "usage: test_mutator_golden [--print] SEED.fuzz...\n");
		return 2;
	}
	seeds = calloc((size_t)nseeds, sizeof(*seeds));
	for (int k = 0; k < nseeds; k++) {
		if (!load(argv[first + k], &seeds[k])) {
			fprintf(stderr, "test_mutator_golden: cannot read %s\n", argv[first + k]);
			return 2;
		}
	}
	h = hash_runs(seeds, nseeds);
	if (print) {
		printf("0x%016" PRIx64 "\n", h);
		free(seeds);
		return 0;
	}
	CHECK_EQ(h, AW_GOLDEN);
	free(seeds);
	return aw_test_report("test_mutator_golden");
}
