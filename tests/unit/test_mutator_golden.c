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

/*
 * recorded from the switch-statement mutator (commit cbff480); re-recorded
 * when issue 30 appended the fd_read mutation (a 22nd weight changes every
 * draw) and the pread/pwrite record kinds (26 kinds fold a kind byte
 * differently)
 */
#define AW_GOLDEN	0xcac59cdb2d60821fULL

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

static uint64_t hash_runs(const struct aw_mut_weights *w, const struct seed *seeds, int nseeds)
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
		n = aw_mutate_weighted(w, buf, s->size < max ? s->size : max, max, k * 2654435761U);
		h = fnv(h, &n, sizeof(n));
		h = fnv(h, buf, n);
	}
	/* a chain from the first seed */
	memcpy(buf, seeds[0].buf, seeds[0].size);
	chain = seeds[0].size;
	for (uint32_t k = 0; k < N; k++) {
		chain = aw_mutate_weighted(w, buf, chain, 4096, k);
		h = fnv(h, &chain, sizeof(chain));
		h = fnv(h, buf, chain);
	}
	return h;
}

/*
 * The weights as data: every name spelled out with weight 1 is the
 * default, and draws the same; another weight draws differently; a name
 * or a weight the table does not have is an error that says which.
 */
static void test_weights(const struct seed *seeds, int nseeds, uint64_t golden)
{
	struct aw_mut_weights w, d;
	char spec[1024] = "", err[256];
	size_t used = 0;
	const char *name;
	FILE *f;

	aw_mut_weights_default(&d);
	for (unsigned int k = 0; (name = aw_mut_name(k)); k++)
		used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%s=1", k ? "," : "", name);
	CHECK_EQ(aw_mut_name(AW_MUT_NR - 1) != NULL, 1);
	CHECK_EQ(aw_mut_weights_parse(&w, spec, err, sizeof(err)), 0);
	CHECK(!memcmp(&w, &d, sizeof(w)));
	CHECK_EQ(hash_runs(&w, seeds, nseeds), golden);
	/* weights never set (total 0), as aw_mutate() passes them: the default */
	memset(&w, 0, sizeof(w));
	CHECK_EQ(hash_runs(&w, seeds, nseeds), golden);
	/* one name changed, the others default; white space and comments */
	CHECK_EQ(aw_mut_weights_parse(&w, " khugepaged=5\n# none\nflip=0 ", err, sizeof(err)), 0);
	CHECK_EQ(w.total, AW_MUT_NR - 1 + 5 - 1);
	CHECK(hash_runs(&w, seeds, nseeds) != golden);
	/* from a file */
	f = tmpfile();
	if (f) {
		char path[64];

		snprintf(path, sizeof(path), "@/proc/self/fd/%d", fileno(f));
		fputs("insert=3\nswap=0\n", f);
		fflush(f);
		CHECK_EQ(aw_mut_weights_parse(&w, path, err, sizeof(err)), 0);
		CHECK_EQ(w.w[0], 3);
		CHECK_EQ(w.total, AW_MUT_NR - 1 + 3 - 1);
		fclose(f);
	}
	CHECK_EQ(aw_mut_weights_parse(&w, "nosuch=1", err, sizeof(err)), -1);
	CHECK_STR(err, "'nosuch': no such mutation (see fuzz/mutator.c)");
	CHECK_EQ(aw_mut_weights_parse(&w, "flip", err, sizeof(err)), -1);
	CHECK_STR(err, "'flip': expected NAME=WEIGHT");
	CHECK_EQ(aw_mut_weights_parse(&w, "flip=", err, sizeof(err)), -1);
	CHECK_STR(err, "'flip=': the weight is missing");
	CHECK_EQ(aw_mut_weights_parse(&w, "flip=1x", err, sizeof(err)), -1);
	CHECK_STR(err, "'flip=1x': the weight is not a number up to 1000000");
	CHECK_EQ(aw_mut_weights_parse(&w, "flip=1000001", err, sizeof(err)), -1);
	CHECK_EQ(aw_mut_weights_parse(&w, "flip=1000000", err, sizeof(err)), 0);
	memcpy(spec, "insert=0", 9);
	for (unsigned int k = 1; (name = aw_mut_name(k)); k++)
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), ",%s=0", name);
	CHECK_EQ(aw_mut_weights_parse(&w, spec, err, sizeof(err)), -1);
	CHECK_STR(err, "every weight is 0");
}

int main(int argc, char **argv)
{
	bool print = argc > 1 && !strcmp(argv[1], "--print");
	int first = print ? 2 : 1, nseeds = argc - first;
	struct aw_mut_weights w;
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
	aw_mut_weights_default(&w);
	h = hash_runs(&w, seeds, nseeds);
	if (print) {
		printf("0x%016" PRIx64 "\n", h);
		free(seeds);
		return 0;
	}
	CHECK_EQ(h, AW_GOLDEN);
	test_weights(seeds, nseeds, h);
	free(seeds);
	return aw_test_report("test_mutator_golden");
}
