// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mutator's contract with the fuzz engines (fuzz/mutator.h, fuzz/trim.h,
 * fuzz/afl_mutator.c): libFuzzer's LLVMFuzzerCustomMutator/CustomCrossOver
 * want at most max_size bytes, deterministic in the seed; the fuzz format
 * wants a header and whole records; AFL++'s trim hooks want a step count
 * up front and the next step's index after each one.  Buffers are
 * allocated to the exact max_size so that the sanitizer build catches a
 * write past it; the sizes and trimming schedules expected are worked out
 * in the comments.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "aw_test.h"
#include "fuzzin.h"
#include "mutator.h"
#include "trim.h"

#define H	AW_FUZZ_HEADER
#define R	AW_FUZZ_RECORD

#include "afl_mutator.h"

/*
 * A typical input of n records: an mmap of each region, then accesses,
 * agings and madvises in turn; record i carries i in its reserved byte 12
 * (the decoder ignores it) so that a test can tell which records survived.
 * Header bytes 6-15 (reserved) are 0xA6...: the mutator keeps them.
 */
static void make_input(uint8_t *d, size_t n)
{
	static const uint8_t kinds[] = { AW_FK_READ, AW_FK_WRITE, AW_FK_AGE, AW_FK_MADVISE, AW_FK_EVICT };

	memset(d, 0, H + n * R);
	d[AW_FH_NODES] = 1;
	d[AW_FH_THP] = 1;
	for (int b = AW_FH_NR_USED; b < H; b++)
		d[b] = (uint8_t)(0xA0 + b);
	for (size_t i = 0; i < n; i++) {
		uint8_t *r = aw_fuzz_rec(d, i);

		r[AW_FR_KIND] = i < 8 ? AW_FK_MMAP : kinds[i % 5];
		r[AW_FR_REGION] = (uint8_t)(i % 8);
		aw_fuzz_rec_set_u16(r, AW_FR_OFF, (uint32_t)(i * 37 % 4096));
		aw_fuzz_rec_set_u16(r, AW_FR_LEN, i < 8 ? 1023 : 15);
		r[AW_FR_ARG] = (uint8_t)i;
		r[AW_FR_RESERVED] = (uint8_t)i;
	}
}

static bool whole_records(size_t size)
{
	return size >= H && (size - H) % R == 0;
}

/* One mutation into a buffer of exactly max bytes; returns the new size. */
static size_t mutate_copy(const uint8_t *in, size_t size, size_t max, uint32_t seed, uint8_t *out)
{
	uint8_t *buf = malloc(max ? max : 1);
	size_t n;

	memcpy(buf, in, size);
	n = aw_mutate(buf, size, max, seed);
	memcpy(out, buf, n <= max ? n : max);
	free(buf);
	return n;
}

static void test_mutate_contract(void)
{
	static const size_t maxes[] = { H, H + R - 1, H + R, H + 10 * R, 4096, H + 300 * R };
	size_t cap = H + 300 * R;
	uint8_t *in = malloc(cap), *a = malloc(cap), *b = malloc(cap);
	int bad_size = 0, bad_shape = 0, bad_hdr = 0, nondet = 0, over_cap = 0;

	make_input(in, 40);
	for (size_t m = 0; m < sizeof(maxes) / sizeof(maxes[0]); m++) {
		size_t max = maxes[m], size = H + 40 * R < max ? H + 40 * R : max - (max - H) % R;

		for (uint32_t seed = 0; seed < 500; seed++) {
			size_t na = mutate_copy(in, size, max, seed, a), nb = mutate_copy(in, size, max, seed, b);

			bad_size += na > max;
			bad_shape += !whole_records(na);
			bad_hdr += memcmp(a + AW_FH_NR_USED, in + AW_FH_NR_USED, H - AW_FH_NR_USED) != 0;
			nondet += na != nb || memcmp(a, b, na);
			/* max H .. H + R - 1: no record fits, the header alone comes back */
			if (max < H + R)
				CHECK_EQ(na, H);
		}
	}
	/* 256 records, room for 300: no insertion past the decoder's 256 events */
	make_input(in, AW_FUZZ_MAX_EVENTS);
	for (uint32_t seed = 0; seed < 500; seed++)
		over_cap += aw_fuzz_nr_records(mutate_copy(in, H + AW_FUZZ_MAX_EVENTS * R, cap, seed, a)) >
			    AW_FUZZ_MAX_EVENTS;
	CHECK_EQ(bad_size, 0);
	CHECK_EQ(bad_shape, 0);
	CHECK_EQ(bad_hdr, 0);
	CHECK_EQ(nondet, 0);
	CHECK_EQ(over_cap, 0);
	free(in);
	free(a);
	free(b);
}

/*
 * Different seeds give different outputs for a typical input: of 200
 * seeds, at least 190 distinct results.  (A mutation can come out as a
 * no-op, e.g. "force an aging pass" when the input has none left, or two
 * seeds pick the same edit; the test input has every kind those edits look
 * for, so collisions are rare.)
 */
static void test_mutate_seeds_differ(void)
{
	enum { SEEDS = 200 };
	size_t size = H + 40 * R, max = 4096;
	uint8_t in[H + 40 * R], *out = malloc(SEEDS * max);
	size_t len[SEEDS];
	int distinct = 0;

	make_input(in, 40);
	for (uint32_t s = 0; s < SEEDS; s++)
		len[s] = mutate_copy(in, size, max, s, out + s * max);
	for (int s = 0; s < SEEDS; s++) {
		bool dup = false;

		for (int t = 0; t < s && !dup; t++)
			dup = len[s] == len[t] && !memcmp(out + s * max, out + t * max, len[s]);
		distinct += !dup;
	}
	CHECK(distinct >= 190);
	/* and seeds 1 and 2 in particular */
	CHECK(len[1] != len[2] || memcmp(out + max, out + 2 * max, len[1]));
	free(out);
}

static void test_mutate_degenerate(void)
{
	uint8_t small[8], big[H + 4 * R];
	int bad = 0;

	/* max_size below a header: the input is left alone, cut to max_size */
	memset(small, 0x5A, sizeof(small));
	CHECK_EQ(aw_mutate(small, 5, 8, 1), 5);
	CHECK_EQ(aw_mutate(small, 8, 8, 2), 8);
	CHECK_EQ(aw_mutate(small, 0, 0, 3), 0);
	for (size_t i = 0; i < sizeof(small); i++)
		bad += small[i] != 0x5A;
	CHECK_EQ(bad, 0);
	/*
	 * Size 0 and 5 with room for a header and 4 records: a header grows
	 * (the bytes past the input zeroed), records may be inserted, at most
	 * 4 fit: 16 to 80 bytes, whole records.
	 */
	for (uint32_t seed = 0; seed < 300; seed++) {
		size_t n, in = seed % 2 ? 5 : 0;
		uint8_t *buf = malloc(sizeof(big));

		memset(buf, 0x11, sizeof(big));
		n = aw_mutate(buf, in, sizeof(big), seed);
		CHECK(n >= H && n <= sizeof(big) && whole_records(n));
		/* reserved header bytes: zeroed, never tweaked */
		for (int b = AW_FH_NR_USED; b < H; b++)
			bad += buf[b] != 0;
		free(buf);
	}
	CHECK_EQ(bad, 0);
	/* a partial record at the end is dropped before mutating: 16 + 2 * 16 + 9 bytes, max as much */
	for (uint32_t seed = 0; seed < 100; seed++) {
		size_t n;

		make_input(big, 2);
		n = aw_mutate(big, H + 2 * R + 9, H + 2 * R + 9, seed);
		CHECK(whole_records(n) && n <= H + 2 * R);
	}
}

/*
 * out is a's header, a's first records, then a run of b's records (in
 * order, from some index on, possibly cut short by max_size).  make_input()
 * tagged each record with its index, and b's records have a flag a's lack.
 */
static bool is_crossover(const uint8_t *out, size_t n, const uint8_t *a, size_t ra, const uint8_t *b, size_t rb)
{
	size_t k = aw_fuzz_nr_records(n), i = 0;

	if (memcmp(out, a, H))
		return false;
	while (i < k && i < ra && !memcmp(aw_fuzz_rec_const(out, i), aw_fuzz_rec_const(a, i), R))
		i++;
	for (size_t j = i, ib = i < k ? aw_fuzz_rec_const(out, i)[AW_FR_RESERVED] : 0; j < k; j++, ib++)
		if (ib >= rb || memcmp(aw_fuzz_rec_const(out, j), aw_fuzz_rec_const(b, ib), R))
			return false;
	return true;
}

static void test_crossover(void)
{
	uint8_t a[H + 10 * R], b[H + 7 * R];
	int bad = 0, nondet = 0;

	make_input(a, 10);
	make_input(b, 7);
	b[AW_FH_THP] = 2;	/* the header comes from a */
	for (size_t i = 0; i < 7; i++)
		aw_fuzz_rec(b, i)[AW_FR_FLAGS] = 0x40;	/* b's records differ from a's */
	for (uint32_t seed = 0; seed < 300; seed++) {
		static const size_t maxes[] = { H, H + R, H + 3 * R + 5, 4096 };
		size_t max = maxes[seed % 4], n, n2;
		uint8_t *out = malloc(max), *out2 = malloc(max);

		n = aw_crossover(a, sizeof(a), b, sizeof(b), out, max, seed);
		n2 = aw_crossover(a, sizeof(a), b, sizeof(b), out2, max, seed);
		bad += n > max || !whole_records(n) || !is_crossover(out, n, a, 10, b, 7);
		/* at most all of a and all of b */
		bad += n > H + 17 * R;
		nondet += n != n2 || memcmp(out, out2, n);
		free(out);
		free(out2);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(nondet, 0);
	/* degenerate parents and room: a below a header, or max below a header, give nothing */
	{
		uint8_t out[H + 17 * R];

		CHECK_EQ(aw_crossover(a, H - 1, b, sizeof(b), out, sizeof(out), 1), 0);
		CHECK_EQ(aw_crossover(a, 0, b, 0, out, sizeof(out), 1), 0);
		CHECK_EQ(aw_crossover(a, sizeof(a), b, sizeof(b), out, H - 1, 1), 0);
		/* b empty: a's header and a prefix of a */
		for (uint32_t seed = 0; seed < 50; seed++) {
			size_t n = aw_crossover(a, sizeof(a), b, 0, out, sizeof(out), seed);

			CHECK(whole_records(n) && n <= sizeof(a) && !memcmp(out, a, n));
		}
		/* a header only (no records) and max exactly a header: the header */
		CHECK_EQ(aw_crossover(a, H, b, sizeof(b), out, H, 5), H);
	}
}

/*
 * The schedule (trim.h): passes of run lengths L = largest power of two
 * <= n / 2 down to 1, ceil(n / L) steps each.
 *   n = 1: L 1: 1 step.        n = 3: L 1: 3.
 *   n = 4: L 2, 1: 2 + 4 = 6.  n = 5: L 2, 1: 3 + 5 = 8.
 *   n = 8: L 4, 2, 1: 2 + 4 + 8 = 14.
 *   n = 256: L 128 .. 1: 2 + 4 + ... + 256 = 510.
 *   n = 300: L 128 .. 1: 3 + 5 + 10 + 19 + 38 + 75 + 150 + 300 = 600.
 */
static void test_trim_schedule(void)
{
	size_t from, len;

	CHECK_EQ(aw_trim_steps(0), 0);
	CHECK_EQ(aw_trim_steps(1), 1);
	CHECK_EQ(aw_trim_steps(3), 3);
	CHECK_EQ(aw_trim_steps(4), 6);
	CHECK_EQ(aw_trim_steps(5), 8);
	CHECK_EQ(aw_trim_steps(8), 14);
	CHECK_EQ(aw_trim_steps(256), 510);
	CHECK_EQ(aw_trim_steps(300), 600);
	CHECK_EQ(aw_trim_steps(AW_TRIM_MAX_RECORDS + 1), 0);
	/* n = 5: [0,2) [2,4) [4,5), then [0,1) .. [4,5) */
	aw_trim_run(5, 0, &from, &len);
	CHECK(from == 0 && len == 2);
	aw_trim_run(5, 2, &from, &len);
	CHECK(from == 4 && len == 1);
	aw_trim_run(5, 3, &from, &len);
	CHECK(from == 0 && len == 1);
	aw_trim_run(5, 7, &from, &len);
	CHECK(from == 4 && len == 1);
}

/* the tags (byte 12) of the records of a candidate, as a bit mask */
static unsigned tags(const uint8_t *d, size_t n)
{
	unsigned m = 0;

	for (size_t i = 0; i < aw_fuzz_nr_records(n); i++)
		m |= 1U << aw_fuzz_rec_const(d, i)[AW_FR_RESERVED];
	return m;
}

/*
 * Through the AFL++ hooks, as trim_case_custom() calls them, with the
 * target's coverage kept while the records tagged in needed are all there
 * (never: no candidate keeps it).  Returns init_trim's step count; final:
 * the tags left, calls: how many times trim ran; bad counts broken
 * candidates and indices that do not go forward.
 */
static int afl_trim(void *m, const uint8_t *in, size_t size, unsigned needed, bool never, unsigned *final,
		    int *calls, int *bad)
{
	uint8_t *copy = malloc(size);	/* AFL++ passes its own buffer: the hooks must copy it */
	int steps, cur = 0, last = 0;
	size_t cur_size = size - (size - H) % R;
	unsigned have = tags(in, size);

	memcpy(copy, in, size);
	steps = afl_custom_init_trim(m, copy, size);
	memset(copy, 0xEE, size);
	*calls = 0;
	while (cur < steps && *calls <= 10000) {
		uint8_t *out = NULL;
		size_t n = afl_custom_trim(m, &out);
		bool ok;

		(*calls)++;
		/* whole records after in's header, strictly fewer than the current input, none added */
		if (!out || !whole_records(n) || memcmp(out, in, H) ||
		    aw_fuzz_nr_records(n) >= aw_fuzz_nr_records(cur_size) || (tags(out, n) & ~have)) {
			(*bad)++;
			break;
		}
		ok = !never && (tags(out, n) & needed) == needed;
		if (ok) {
			have = tags(out, n);
			cur_size = n;
		}
		cur = afl_custom_post_trim(m, ok);
		*bad += cur <= last || cur > steps;	/* indices only go forward */
		last = cur;
	}
	free(copy);
	*final = have;
	return steps;
}

static void test_afl_trim(void)
{
	void *m = afl_custom_init(NULL, 1);
	uint8_t in[H + 300 * R + 7];
	unsigned final;
	int calls, bad = 0;

	CHECK(m != NULL);
	if (!m)
		return;
	make_input(in, 5);
	/* every step fails: all 8 steps run, the input stays whole */
	CHECK_EQ(afl_trim(m, in, H + 5 * R, 0, true, &final, &calls, &bad), 8);
	CHECK_EQ(calls, 8);
	CHECK_EQ(final, 0x1f);
	/*
	 * Every step succeeds: [0,2), [2,4), [4,5) go in the first three
	 * steps; the five one-record steps find their records gone and are
	 * skipped: 3 calls, the header alone is left.
	 */
	CHECK_EQ(afl_trim(m, in, H + 5 * R, 0, false, &final, &calls, &bad), 8);
	CHECK_EQ(calls, 3);
	CHECK_EQ(final, 0);
	/*
	 * Record 2 is needed: [0,2) goes (step 0), [2,4) fails (1), [4,5) goes
	 * (2); steps 3 and 4 ([0,1), [1,2)) are skipped, [2,3) fails (5),
	 * [3,4) goes (6), [4,5) is skipped: 5 calls, record 2 alone is left.
	 */
	CHECK_EQ(afl_trim(m, in, H + 5 * R, 1U << 2, false, &final, &calls, &bad), 8);
	CHECK_EQ(calls, 5);
	CHECK_EQ(final, 1U << 2);
	/*
	 * Records 0 and 4 needed, a partial record at the end (dropped from
	 * every candidate): [0,2) and [4,5) fail, [2,4) goes; [0,1) fails,
	 * [1,2) goes, [2,3) [3,4) are skipped, [4,5) fails: 6 calls.
	 */
	CHECK_EQ(afl_trim(m, in, H + 5 * R + 7, 1U << 0 | 1U << 4, false, &final, &calls, &bad), 8);
	CHECK_EQ(calls, 6);
	CHECK_EQ(final, 1U << 0 | 1U << 4);
	/* nothing to trim: a header alone, less than a header and a record, nothing */
	CHECK_EQ(afl_custom_init_trim(m, in, H), 0);
	CHECK_EQ(afl_custom_init_trim(m, in, H + R - 1), 0);
	CHECK_EQ(afl_custom_init_trim(m, in, 3), 0);
	CHECK_EQ(afl_custom_init_trim(m, in, 0), 0);
	/* 300 records (the buffers grow): 600 steps, all fail, 600 calls */
	make_input(in, 300);
	for (size_t i = 0; i < 300; i++)
		aw_fuzz_rec(in, i)[AW_FR_RESERVED] = (uint8_t)(i % 16);
	CHECK_EQ(afl_trim(m, in, sizeof(in), 0, true, &final, &calls, &bad), 600);
	CHECK_EQ(calls, 600);
	CHECK_EQ(bad, 0);
	afl_custom_deinit(m);
}

/* afl_custom_fuzz: some bytes back, at most max_size, never NULL */
static void test_afl_fuzz(void)
{
	void *m = afl_custom_init(NULL, 7);
	uint8_t a[H + 20 * R], b[H + 9 * R];
	int bad = 0;

	make_input(a, 20);
	make_input(b, 9);
	for (int i = 0; i < 400; i++) {
		size_t max = i % 3 ? 4096 : H + 3 * R, in = sizeof(a) < max ? sizeof(a) : max;
		uint8_t *out = NULL;
		size_t n = afl_custom_fuzz(m, a, in, &out, i % 2 ? b : NULL, i % 2 ? sizeof(b) : 0, max);

		bad += !out || !n || n > max || !whole_records(n);
	}
	CHECK_EQ(bad, 0);
	afl_custom_deinit(m);
}

/*
 * afl_custom_fuzz_count: the fixed number of custom mutations per queue
 * entry (64), whatever the entry, or AGEWALK_AFL_FUZZ_COUNT's when set.
 */
static void test_afl_fuzz_count(void)
{
	uint8_t a[H + 4 * R], b[H + 200 * R];
	void *m;

	make_input(a, 4);
	make_input(b, 200);
	unsetenv("AGEWALK_AFL_FUZZ_COUNT");
	m = afl_custom_init(NULL, 3);
	CHECK_EQ(afl_custom_fuzz_count(m, a, sizeof(a)), 64);
	CHECK_EQ(afl_custom_fuzz_count(m, b, sizeof(b)), 64);
	CHECK_EQ(afl_custom_fuzz_count(m, a, 0), 64);
	afl_custom_deinit(m);
	setenv("AGEWALK_AFL_FUZZ_COUNT", "7", 1);
	m = afl_custom_init(NULL, 3);
	CHECK_EQ(afl_custom_fuzz_count(m, b, sizeof(b)), 7);
	afl_custom_deinit(m);
	unsetenv("AGEWALK_AFL_FUZZ_COUNT");
}

int main(void)
{
	RUN(test_mutate_contract);
	RUN(test_mutate_seeds_differ);
	RUN(test_mutate_degenerate);
	RUN(test_crossover);
	RUN(test_trim_schedule);
	RUN(test_afl_trim);
	RUN(test_afl_fuzz);
	RUN(test_afl_fuzz_count);
	return aw_test_report("test_mutator");
}
