// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz input format (src/event/fuzzin.h): header fields, record
 * folding, the bounds the decoder enforces, and that every byte string
 * decodes.  Expected values are worked out from the layout documented in
 * fuzzin.h, byte by byte, in the comments.
 */
#include "aw_test.h"
#include "fuzzin.h"

#define PAGE	4096ULL
#define GIB	(1ULL << 30)

static void put_u16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* the four processes the decoder always creates come first */
#define FIRST	AW_FUZZ_PROCS

static void test_header(void)
{
	uint8_t in[AW_FUZZ_HEADER] = { 0 };
	struct aw_scenario sc;

	/*
	 * byte 0 = 5: 2 + 5 % 2 = 3 nodes; byte 1 = 4: THP 4 % 3 = 1;
	 * byte 2 = 7: variant 7 % 3 = 1 (emptymap); byte 3 = 10: skip_empty
	 * 1 + 10 % 8 = 3; byte 4 = 65: 65 % 64 = 1 unit of 4 MiB; byte 5 = 4:
	 * 4 % 4 == 0, no swap.
	 */
	in[0] = 5, in[1] = 4, in[2] = 7, in[3] = 10, in[4] = 65, in[5] = 4;
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.cfg.nr_nodes, 3);
	CHECK_EQ(sc.cfg.thp, 1);
	CHECK_EQ(sc.cfg.skip_empty, 3);
	CHECK_EQ(sc.cfg.memcg_limit[1], 4ULL << 20);
	CHECK_EQ(sc.cfg.swap_bytes, 0);
	CHECK_EQ(sc.cfg.node[2].mem_bytes, 512ULL << 20);
	CHECK_STR(aw_fuzz_variant(in, sizeof(in)), "emptymap");
	/* no records: only the four processes, P1 and P2 with the layout */
	CHECK_EQ(sc.nr_events, AW_FUZZ_PROCS);
	CHECK_EQ(sc.events[0].kind, AW_EV_PROC);
	CHECK_EQ(sc.events[0].flags & AW_PROC_NOLAYOUT, 0);
	CHECK(sc.events[3].flags & AW_PROC_NOLAYOUT);
	/* P4 runs on CPU (4 - 1) % (2 * 3) = 3 */
	CHECK_EQ(sc.events[3].cpu, 3);
	aw_scenario_free(&sc);
}

static void test_access_folding(void)
{
	uint8_t in[AW_FUZZ_HEADER + 2 * AW_FUZZ_RECORD] = { 0 };
	uint8_t *r0 = in + AW_FUZZ_HEADER, *r1 = r0 + AW_FUZZ_RECORD;
	struct aw_scenario sc;
	const struct aw_event *ev;

	/*
	 * Record 0: kind 1 + 21 = 22 → 22 % 21 = 1 (write), process 6 % 4 + 1
	 * = 3, region 11 % 8 + 1 = 4, offset 4096 + 5 → 5 pages, length
	 * 1000 → 1 + 1000 pages, clamped to the 16-page access: 64 KiB at
	 * region offset 20 KiB; repeat 1 + 7 % 4 = 4.
	 */
	r0[0] = 22, r0[2] = 6, r0[3] = 11;
	put_u16(r0 + 6, 4096 + 5);
	put_u16(r0 + 8, 1000);
	r0[11] = 7;
	/*
	 * Record 1: mmap (kind 5) in region 8 (byte 3 = 7), offset 4000,
	 * length 1 + 200 pages → folded to 4096 - 4000 = 96 pages at the
	 * region's fixed address base + 7 GiB; flags 1|2 ask for both
	 * MADV_HUGEPAGE and NOHUGEPAGE, and HUGEPAGE wins.
	 */
	r1[0] = 5, r1[1] = 3, r1[3] = 7;
	put_u16(r1 + 6, 4000);
	put_u16(r1 + 8, 200);
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + 2);
	ev = &sc.events[FIRST];
	CHECK_EQ(ev->kind, AW_EV_ACCESS);
	CHECK(ev->flags & AW_ACC_WRITE);
	CHECK_EQ(ev->pid, 3);
	CHECK_EQ(ev->region, 4);
	CHECK_EQ(ev->addr, 5 * PAGE);
	CHECK_EQ(ev->len, 16 * PAGE);
	CHECK_EQ(ev->repeat, 4);
	ev = &sc.events[FIRST + 1];
	CHECK_EQ(ev->kind, AW_EV_MMAP);
	CHECK_EQ(ev->region, 8);
	CHECK_EQ(ev->len, 96 * PAGE);
	CHECK_EQ(ev->addr2, AW_FUZZ_REGION_BASE + 7 * GIB);
	CHECK(ev->flags & AW_MAP_HUGEPAGE);
	CHECK(!(ev->flags & AW_MAP_NOHUGEPAGE));
	aw_scenario_free(&sc);
}

static void test_bounds(void)
{
	/* 300 records + 7 stray bytes: 256 events decode, the tail is ignored */
	size_t size = AW_FUZZ_HEADER + 300 * AW_FUZZ_RECORD + 7;
	uint8_t *in = calloc(1, size);
	struct aw_scenario sc;

	CHECK(in != NULL);
	if (!in)
		return;
	CHECK_EQ(aw_fuzz_decode(in, size, &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + AW_FUZZ_MAX_EVENTS);
	aw_scenario_free(&sc);
	/* a 3-byte input is a header prefix: 2 nodes, THP mode 0, pud */
	in[0] = 2, in[1] = 3, in[2] = 3;
	CHECK_EQ(aw_fuzz_decode(in, 3, &sc), 0);
	CHECK_EQ(sc.cfg.nr_nodes, 2);
	CHECK_EQ(sc.cfg.thp, 0);
	CHECK_STR(aw_fuzz_variant(in, 3), "pud");
	CHECK_EQ(sc.nr_events, FIRST);
	aw_scenario_free(&sc);
	free(in);
}

/* Every byte string decodes, and every event stays inside the bounds. */
static void test_any_bytes(void)
{
	uint8_t in[AW_FUZZ_HEADER + 64 * AW_FUZZ_RECORD];
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int bad = 0;

	for (int round = 0; round < 200; round++) {
		struct aw_scenario sc;

		for (size_t i = 0; i < sizeof(in); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = (uint8_t)x;
		}
		if (aw_fuzz_decode(in, sizeof(in) - (size_t)round % 17, &sc)) {
			bad++;
			continue;
		}
		for (size_t e = 0; e < sc.nr_events; e++) {
			const struct aw_event *ev = &sc.events[e];

			if (ev->region > AW_FUZZ_REGIONS || ev->pid > AW_FUZZ_PROCS ||
			    ev->node >= sc.cfg.nr_nodes ||
			    (ev->region && ev->addr + ev->len > AW_FUZZ_MAX_PAGES * PAGE) ||
			    (ev->kind == AW_EV_ACCESS && !ev->stride && ev->len > AW_FUZZ_ACCESS_PAGES * PAGE))
				bad++;
		}
		aw_scenario_free(&sc);
	}
	CHECK_EQ(bad, 0);
}

/* encode folds a scenario into range; decoding gives the same events back */
static void test_encode_roundtrip(void)
{
	uint8_t in[AW_FUZZ_HEADER + 3 * AW_FUZZ_RECORD] = { 0 }, out[sizeof(in)];
	struct aw_scenario a, b;
	size_t n;

	in[0] = 1, in[1] = 2, in[4] = 16;	/* 3 nodes, THP mode 2, 64 MiB */
	in[AW_FUZZ_HEADER] = 5;					/* mmap */
	put_u16(in + AW_FUZZ_HEADER + 8, 511);			/* 512 pages */
	in[AW_FUZZ_HEADER + AW_FUZZ_RECORD] = 0;		/* read */
	put_u16(in + AW_FUZZ_HEADER + AW_FUZZ_RECORD + 8, 15);	/* 16 pages */
	in[AW_FUZZ_HEADER + 2 * AW_FUZZ_RECORD] = 3;		/* forced aging */
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &a), 0);
	CHECK_EQ(a.cfg.memcg_limit[1], 64ULL << 20);
	n = aw_fuzz_encode(&a, "pud", out, sizeof(out));
	CHECK_EQ(n, sizeof(in));
	CHECK_EQ(aw_fuzz_decode(out, n, &b), 0);
	CHECK_EQ(b.cfg.memcg_limit[1], 64ULL << 20);
	CHECK_EQ(b.cfg.nr_nodes, 3);
	CHECK_EQ(b.cfg.thp, 2);
	CHECK_EQ(b.nr_events, a.nr_events);
	for (size_t e = 0; e < a.nr_events && e < b.nr_events; e++)
		CHECK(!memcmp(&a.events[e], &b.events[e], sizeof(struct aw_event)));
	CHECK(b.events[FIRST + 2].flags & AW_AGE_FORCE);
	aw_scenario_free(&a);
	aw_scenario_free(&b);
}

int main(void)
{
	RUN(test_header);
	RUN(test_access_folding);
	RUN(test_bounds);
	RUN(test_any_bytes);
	RUN(test_encode_roundtrip);
	return aw_test_report("test_fuzzin");
}
