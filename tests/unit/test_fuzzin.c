// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fuzz input format (src/event/fuzzin.h): header fields, record
 * folding, the bounds the decoder enforces, and that every byte string
 * decodes.  Expected values are worked out from the layout documented in
 * fuzzin.h, byte by byte, in the comments.
 */
#include <stdlib.h>
#include <string.h>

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
	/* bytes 7 and 8 left 0: the default profile and khugepaged revision */
	CHECK_EQ(sc.cfg.kernel, AW_KERNEL_MAINLINE);
	CHECK_EQ(sc.cfg.khugepaged_rev, 0);
	CHECK(!sc.cfg.khugepaged_prctl_enter);
	/* no records: only the four processes, P1 and P2 with the layout */
	CHECK_EQ(sc.nr_events, AW_FUZZ_PROCS);
	CHECK_EQ(sc.events[0].kind, AW_EV_PROC);
	CHECK_EQ(sc.events[0].flags & AW_PROC_NOLAYOUT, 0);
	CHECK(sc.events[3].flags & AW_PROC_NOLAYOUT);
	/* P4 runs on CPU (4 - 1) % (2 * 3) = 3 */
	CHECK_EQ(sc.events[3].cpu, 3);
	aw_scenario_free(&sc);
}

/*
 * Header bytes 7 and 8: the options the variants have beyond the machine.
 * byte 7 = 5: profile 5 % 3 = 2 (6.1); byte 8 = 3: bit 0, the khugepaged
 * series' v8, and bit 1, prctl registers; byte 8 = 2: the seed's revision
 * with prctl.  Each survives encode/decode and the .aws text.
 */
static void test_header_options(void)
{
	uint8_t in[AW_FUZZ_HEADER] = { 0 }, out[AW_FUZZ_HEADER];
	struct aw_scenario sc, back;

	in[7] = 5, in[8] = 3;
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.cfg.kernel, AW_KERNEL_6_1);
	CHECK_EQ(sc.cfg.khugepaged_rev, 1);
	CHECK(sc.cfg.khugepaged_prctl_enter);
	CHECK_EQ(aw_fuzz_encode(&sc, "pud", out, sizeof(out)), sizeof(out));
	CHECK_EQ(out[7], AW_KERNEL_6_1);
	CHECK_EQ(out[8], 3);
	aw_scenario_free(&sc);
	in[7] = 1, in[8] = 2;
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.cfg.kernel, AW_KERNEL_6_12);
	CHECK_EQ(sc.cfg.khugepaged_rev, 0);
	CHECK(sc.cfg.khugepaged_prctl_enter);
	{
		char *text = NULL, err[256];
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		CHECK(f != NULL);
		if (f) {
			CHECK_EQ(aw_aws_write(f, &sc), 0);
			fclose(f);
			CHECK(strstr(text, "\nkernel 6.12\n") != NULL);
			CHECK(strstr(text, "\nkhugepaged_prctl_enter on\n") != NULL);
			CHECK(strstr(text, "khugepaged_rev") == NULL);
			CHECK_EQ(aw_aws_parse_string("mem.aws", text, &back, err, sizeof(err)), 0);
			CHECK_EQ(back.cfg.kernel, AW_KERNEL_6_12);
			CHECK(back.cfg.khugepaged_prctl_enter);
			aw_scenario_free(&back);
		}
		free(text);
	}
	aw_scenario_free(&sc);
}

static void test_access_folding(void)
{
	uint8_t in[AW_FUZZ_HEADER + 2 * AW_FUZZ_RECORD] = { 0 };
	uint8_t *r0 = in + AW_FUZZ_HEADER, *r1 = r0 + AW_FUZZ_RECORD;
	struct aw_scenario sc;
	const struct aw_event *ev;

	/*
	 * Record 0: kind 1 + 26 = 27 → 27 % 26 = 1 (write), process 6 % 4 + 1
	 * = 3, region 11 % 8 + 1 = 4, offset 4096 + 5 → 5 pages, length
	 * 1000 → 1 + 1000 pages, clamped to the 16-page access: 64 KiB at
	 * region offset 20 KiB; repeat 1 + 7 % 4 = 4.
	 */
	r0[0] = 27, r0[2] = 6, r0[3] = 11;
	put_u16(r0 + 6, 4096 + 5);
	put_u16(r0 + 8, 1000);
	r0[11] = 7;
	/*
	 * Record 1: mmap (kind 5) in region 8 (byte 3 = 7), offset 4000,
	 * length 1 + 200 pages → folded to 4096 - 4000 = 96 pages at the
	 * region's fixed address base + 7 GiB (flag 8: the exact length);
	 * flags 1|2 ask for both MADV_HUGEPAGE and NOHUGEPAGE, and HUGEPAGE
	 * wins.
	 */
	r1[0] = 5, r1[1] = 3 | 8, r1[3] = 7;
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

/* mmap lengths and hugepage/collapse advice cover whole 2 MiB ranges unless flag 8 */
static void test_pmd_rounding(void)
{
	uint8_t in[AW_FUZZ_HEADER + 4 * AW_FUZZ_RECORD] = { 0 };
	uint8_t *r = in + AW_FUZZ_HEADER;
	struct aw_scenario sc;
	const struct aw_event *ev;

	/* mmap (kind 5), no flags, length 1 + 600 = 601 pages → 1024 (4 MiB);
	 * flag 0x10 | 4: a file mapping is never droppable */
	r[0] = 5, r[1] = 0x14;
	put_u16(r + 8, 600);
	/* mmap, flag 0x10: droppable; 1 + 4095 pages stay 4096 */
	r += AW_FUZZ_RECORD;
	r[0] = 5 + AW_FUZZ_NR_KINDS, r[1] = 0x10;
	put_u16(r + 8, 4095);
	/*
	 * madvise (kind 7), argument 4 → advice 1 + 4 % 7 = 5 (hugepage),
	 * offset 700 pages, length 1 + 99 = 100: widened to [512, 1024)
	 */
	r += AW_FUZZ_RECORD;
	r[0] = 7, r[10] = 4;
	put_u16(r + 6, 700);
	put_u16(r + 8, 99);
	/* the same as MADV_FREE (argument 0 → advice 1): exact */
	r += AW_FUZZ_RECORD;
	r[0] = 7, r[10] = 0;
	put_u16(r + 6, 700);
	put_u16(r + 8, 99);
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + 4);
	ev = &sc.events[FIRST];
	CHECK_EQ(ev->len, 1024 * PAGE);
	CHECK(ev->flags & AW_MAP_FILE);
	CHECK(!(ev->flags & AW_MAP_DROPPABLE));
	ev = &sc.events[FIRST + 1];
	CHECK_EQ(ev->len, 4096 * PAGE);
	CHECK_EQ(ev->flags, AW_MAP_DROPPABLE);
	ev = &sc.events[FIRST + 2];
	CHECK_EQ(ev->arg, AW_MADV_HUGEPAGE);
	CHECK_EQ(ev->addr, 512 * PAGE);
	CHECK_EQ(ev->len, 512 * PAGE);
	ev = &sc.events[FIRST + 3];
	CHECK_EQ(ev->arg, AW_MADV_FREE);
	CHECK_EQ(ev->addr, 700 * PAGE);
	CHECK_EQ(ev->len, 100 * PAGE);
	aw_scenario_free(&sc);
}

/* the khugepaged kinds: wake-ups, knob stores, prctl */
static void test_khugepaged_kinds(void)
{
	uint8_t in[AW_FUZZ_HEADER + 8 * AW_FUZZ_RECORD] = { 0 };
	uint8_t *r = in + AW_FUZZ_HEADER;
	struct aw_scenario sc;
	const struct aw_event *ev;

	/*
	 * Record 0: kind 21 (khugepaged), argument 3 → 3 % 16 = 3: the knob
	 * (len 0); no flag, repeat byte 12 → 1 + 12 % 8 = 5 wake-ups.  The
	 * process, region and node bytes are ignored.
	 */
	r[0] = 21, r[2] = 3, r[3] = 5, r[4] = 1, r[10] = 3, r[11] = 12;
	/* Record 1: kind 21 + 26 = 47, argument 16 + 13 → 13: pages 513;
	 * flag 1: full scans, repeat byte 7 → 1 + 7 % 2 = 2 */
	r += AW_FUZZ_RECORD;
	r[0] = 47, r[1] = 1, r[10] = 29, r[11] = 7;
	/* Record 2: kind 22 (knob store), argument 4 → knob 1 + 4 % 4 = 1
	 * (pages_to_scan), no flag: 1 + bytes 8-9 = 1 + 300 */
	r += AW_FUZZ_RECORD;
	r[0] = 22, r[10] = 4;
	put_u16(r + 8, 300);
	/* Record 3: knob 1 + 1 = 2 (max_ptes_none), no flag: 1000 % 512 = 488 */
	r += AW_FUZZ_RECORD;
	r[0] = 22, r[10] = 1;
	put_u16(r + 8, 1000);
	/* Record 4: knob 1 + 2 = 3 (max_ptes_swap), flag 2: listed value
	 * aw_fuzz_kh_values[11 % 8 = 3] = 64 */
	r += AW_FUZZ_RECORD;
	r[0] = 22, r[1] = 2, r[10] = 2;
	put_u16(r + 8, 11);
	/* Record 5: knob 1 + 3 = 4 (max_ptes_shared), flags 7: illegal,
	 * 512 + 5 % 1024 = 517 */
	r += AW_FUZZ_RECORD;
	r[0] = 22, r[1] = 7, r[10] = 3;
	put_u16(r + 8, 5);
	/* Record 6: pages_to_scan, flags 7: illegal 0 */
	r += AW_FUZZ_RECORD;
	r[0] = 22, r[1] = 0xff, r[10] = 0;
	/* Record 7: kind 23 (prctl), process 1 + 5 % 4 = 2, argument 5 % 3 = 2
	 * (disable except advised) */
	r += AW_FUZZ_RECORD;
	r[0] = 23, r[2] = 5, r[3] = 3, r[10] = 5;
	put_u16(r + 8, 77);
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + 8);
	ev = &sc.events[FIRST];
	CHECK_EQ(ev->kind, AW_EV_KHUGEPAGED);
	CHECK_EQ(ev->arg, AW_KH_RUN);
	CHECK_EQ(ev->len, 0);
	CHECK_EQ(ev->repeat, 5);
	CHECK_EQ(ev->flags, 0);
	CHECK_EQ(ev->pid, 0);
	CHECK_EQ(ev->region, 0);
	CHECK_EQ(ev->node, 0);
	ev = &sc.events[FIRST + 1];
	CHECK_EQ(ev->len, 513);
	CHECK_EQ(ev->flags, AW_KH_FULL);
	CHECK_EQ(ev->repeat, 2);
	ev = &sc.events[FIRST + 2];
	CHECK_EQ(ev->kind, AW_EV_KHUGEPAGED);
	CHECK_EQ(ev->arg, AW_KH_PAGES_TO_SCAN);
	CHECK_EQ(ev->len, 301);
	CHECK_EQ(ev->repeat, 0);
	ev = &sc.events[FIRST + 3];
	CHECK_EQ(ev->arg, AW_KH_MAX_PTES_NONE);
	CHECK_EQ(ev->len, 488);
	ev = &sc.events[FIRST + 4];
	CHECK_EQ(ev->arg, AW_KH_MAX_PTES_SWAP);
	CHECK_EQ(ev->len, 64);
	ev = &sc.events[FIRST + 5];
	CHECK_EQ(ev->arg, AW_KH_MAX_PTES_SHARED);
	CHECK_EQ(ev->len, 517);
	ev = &sc.events[FIRST + 6];
	CHECK_EQ(ev->arg, AW_KH_PAGES_TO_SCAN);
	CHECK_EQ(ev->len, 0);
	ev = &sc.events[FIRST + 7];
	CHECK_EQ(ev->kind, AW_EV_PRCTL_THP);
	CHECK_EQ(ev->pid, 2);
	CHECK_EQ(ev->arg, AW_THP_DISABLE_EXCEPT_ADVISED);
	CHECK_EQ(ev->region, 0);
	CHECK_EQ(ev->len, 0);
	aw_scenario_free(&sc);
}

/* the khugepaged target folds THP never; the lockstep target keeps it */
static void test_khugepaged_target(void)
{
	uint8_t in[AW_FUZZ_HEADER] = { 0 };
	struct aw_scenario sc;

	/* byte 1 = 3: 3 % 3 = 0 (never); (3 / 3) % 2 = 1 → always */
	in[1] = 3;
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.cfg.thp, AW_THP_NEVER);
	aw_scenario_free(&sc);
	CHECK_EQ(aw_fuzz_decode_target(in, sizeof(in), &sc, AW_FUZZ_KHUGEPAGED), 0);
	CHECK_EQ(sc.cfg.thp, AW_THP_ALWAYS);
	CHECK_EQ(sc.cfg.thp_modes, 1U << AW_THP_ALWAYS);
	aw_scenario_free(&sc);
	/* byte 1 = 6: never, (6 / 3) % 2 = 0 → madvise; byte 1 = 4: always either way */
	in[1] = 6;
	CHECK_EQ(aw_fuzz_decode_target(in, sizeof(in), &sc, AW_FUZZ_KHUGEPAGED), 0);
	CHECK_EQ(sc.cfg.thp, AW_THP_MADVISE);
	aw_scenario_free(&sc);
	in[1] = 4;
	CHECK_EQ(aw_fuzz_decode_target(in, sizeof(in), &sc, AW_FUZZ_KHUGEPAGED), 0);
	CHECK_EQ(sc.cfg.thp, AW_THP_ALWAYS);
	aw_scenario_free(&sc);
	CHECK_EQ(aw_fuzz_target_of("khugepaged"), AW_FUZZ_KHUGEPAGED);
	CHECK_EQ(aw_fuzz_target_of("khugepaged-base,khugepaged-patched"), AW_FUZZ_KHUGEPAGED);
	CHECK_EQ(aw_fuzz_target_of("pud"), AW_FUZZ_LOCKSTEP);
	CHECK_EQ(aw_fuzz_target_of(NULL), AW_FUZZ_LOCKSTEP);
}

/* the khugepaged kinds survive encode → decode (one wake-up is repeat 0, as the text parses it) */
static void test_khugepaged_roundtrip(void)
{
	static const struct { uint32_t arg, flags, repeat; uint64_t len; } kh[] = {
		{ AW_KH_RUN, 0, 0, 0 }, { AW_KH_RUN, 0, 8, 4096 }, { AW_KH_RUN, AW_KH_FULL, 2, 1 },
		{ AW_KH_RUN, AW_KH_FULL, 1, 513 }, { AW_KH_PAGES_TO_SCAN, 0, 0, 4096 },
		{ AW_KH_PAGES_TO_SCAN, 0, 0, 0 }, { AW_KH_MAX_PTES_NONE, 0, 0, 0 },
		{ AW_KH_MAX_PTES_SWAP, 0, 0, 511 }, { AW_KH_MAX_PTES_SHARED, 0, 0, 600 },
	};
	size_t nk = sizeof(kh) / sizeof(kh[0]);
	uint8_t out[AW_FUZZ_HEADER + 16 * AW_FUZZ_RECORD] = { 0 };
	struct aw_scenario a, b;
	size_t n;

	CHECK_EQ(aw_fuzz_decode(out, AW_FUZZ_HEADER, &a), 0);	/* four processes */
	a.cfg.thp = AW_THP_NEVER;
	for (size_t i = 0; i < nk; i++) {
		struct aw_event ev = { .kind = AW_EV_KHUGEPAGED, .arg = kh[i].arg, .flags = kh[i].flags,
				       .repeat = kh[i].repeat, .len = kh[i].len };

		CHECK_EQ(aw_scenario_push(&a, &ev, 0), 0);
	}
	{
		struct aw_event ev = { .kind = AW_EV_PRCTL_THP, .pid = 3, .arg = AW_THP_DISABLE_COMPLETELY };

		CHECK_EQ(aw_scenario_push(&a, &ev, 0), 0);
	}
	n = aw_fuzz_encode(&a, "khugepaged", out, sizeof(out));
	CHECK_EQ(n, AW_FUZZ_HEADER + (nk + 1) * AW_FUZZ_RECORD);
	CHECK_EQ(aw_fuzz_decode_target(out, n, &b, AW_FUZZ_KHUGEPAGED), 0);
	CHECK_EQ(b.cfg.thp, AW_THP_MADVISE);	/* never → madvise for this target */
	CHECK_EQ(b.nr_events, a.nr_events);
	for (size_t e = FIRST; e < a.nr_events && e < b.nr_events; e++)
		CHECK(!memcmp(&a.events[e], &b.events[e], sizeof(struct aw_event)));
	aw_scenario_free(&a);
	aw_scenario_free(&b);
}

/*
 * pread/pwrite (kinds 24, 25): record 0 an mmap of region 2 (2 MiB, flag 4:
 * a file); record 1 kind 24 + 26 = 50 → 24 (pread), process 1 + 1, region
 * 1 + 1, page 3, length 1 + 40 pages clamped to the 16-page access, repeat
 * 1 + 6 % 4 = 3 calls; record 2 kind 25 (pwrite), one page, repeat 1.
 * Encoded back, both give the same records.
 */
static void test_fdio_kinds(void)
{
	uint8_t in[AW_FUZZ_HEADER + 3 * AW_FUZZ_RECORD] = { 0 }, out[sizeof(in)];
	uint8_t *r = in + AW_FUZZ_HEADER;
	struct aw_scenario sc, back;
	const struct aw_event *ev;
	size_t n;

	r[0] = 5, r[1] = 4, r[2] = 1, r[3] = 1;
	put_u16(r + 8, 511);
	r += AW_FUZZ_RECORD;
	r[0] = 50, r[2] = 1, r[3] = 1, r[11] = 6;
	put_u16(r + 6, 3);
	put_u16(r + 8, 40);
	r += AW_FUZZ_RECORD;
	r[0] = 25, r[2] = 1, r[3] = 1, r[4] = 1, r[5] = 3;
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + 3);
	if (sc.nr_events != FIRST + 3)
		goto out;
	ev = &sc.events[FIRST + 1];
	CHECK_EQ(ev->kind, AW_EV_FDIO);
	CHECK_EQ(ev->flags, 0);
	CHECK_EQ(ev->pid, 2);
	CHECK_EQ(ev->region, 2);
	CHECK_EQ(ev->addr, 3 * PAGE);
	CHECK_EQ(ev->len, 16 * PAGE);
	CHECK_EQ(ev->repeat, 3);
	CHECK_EQ(ev->cpu, 0);
	ev = &sc.events[FIRST + 2];
	CHECK_EQ(ev->kind, AW_EV_FDIO);
	CHECK_EQ(ev->flags, AW_ACC_WRITE);
	CHECK_EQ(ev->len, PAGE);
	CHECK_EQ(ev->repeat, 1);
	CHECK_EQ(ev->node, 0);
	CHECK_EQ(ev->cpu, 0);
	n = aw_fuzz_encode(&sc, "pud", out, sizeof(out));
	CHECK_EQ(n, sizeof(out));
	CHECK_EQ(aw_fuzz_decode(out, n, &back), 0);
	CHECK_EQ(back.nr_events, sc.nr_events);
	for (size_t e = FIRST; e < sc.nr_events && e < back.nr_events; e++)
		CHECK(!memcmp(&sc.events[e], &back.events[e], sizeof(struct aw_event)));
	aw_scenario_free(&back);
out:
	aw_scenario_free(&sc);
}

/*
 * Region-relative ranges stay inside the region's length as the .aws text
 * knows it (latest mmap or mremap), so every stream renders and parses back.
 * Record 0: mmap (kind 5) of region 1, length 1 + 511 = 512 pages (2 MiB).
 * Record 1: read (kind 0) of region 1 at page 600, 16 pages: 600 >= 512, so
 *   600 % 512 = 88, and 88 + 16 <= 512: pages 88..103.
 * Record 2: mremap (kind 18) of region 1 to 1 + 3 = 4 pages: len = the 512
 *   pages the text knows, stride 4 pages.
 * Record 3: read of region 1 at page 2, 16 pages: clipped to 4 - 2 = 2.
 */
static void test_region_folding(void)
{
	uint8_t in[AW_FUZZ_HEADER + 4 * AW_FUZZ_RECORD] = { 0 };
	uint8_t *r = in + AW_FUZZ_HEADER;
	struct aw_scenario sc;

	r[0] = AW_FK_MMAP;
	put_u16(r + 8, 511);
	r += AW_FUZZ_RECORD;
	r[0] = AW_FK_READ;
	put_u16(r + 6, 600);
	put_u16(r + 8, 15);
	r += AW_FUZZ_RECORD;
	r[0] = AW_FK_MREMAP;
	r[10] = 3;
	put_u16(r + 8, 9);
	r += AW_FUZZ_RECORD;
	r[0] = AW_FK_READ;
	put_u16(r + 6, 2);
	put_u16(r + 8, 15);
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.nr_events, FIRST + 4);
	CHECK_EQ(sc.events[FIRST].len, 512 * PAGE);
	CHECK_EQ(sc.events[FIRST + 1].addr, 88 * PAGE);
	CHECK_EQ(sc.events[FIRST + 1].len, 16 * PAGE);
	CHECK_EQ(sc.events[FIRST + 2].kind, AW_EV_MREMAP);
	CHECK_EQ(sc.events[FIRST + 2].len, 512 * PAGE);
	CHECK_EQ(sc.events[FIRST + 2].stride, 4 * PAGE);
	CHECK_EQ(sc.events[FIRST + 3].addr, 2 * PAGE);
	CHECK_EQ(sc.events[FIRST + 3].len, 2 * PAGE);
	aw_scenario_free(&sc);
}

/*
 * Any byte string renders to .aws text that parses back to the same events
 * (agewalk convert --from fuzz: every crash must be readable and rerunnable).
 */
static void test_any_bytes_render(void)
{
	uint8_t in[AW_FUZZ_HEADER + 128 * AW_FUZZ_RECORD];
	uint64_t x = 0x2545f4914f6cdd1dULL;
	int unparsable = 0, changed = 0;

	for (int round = 0; round < 300; round++) {
		struct aw_scenario sc, back;
		char *text = NULL, err[256];
		size_t n = 0;
		FILE *f;

		for (size_t i = 0; i < sizeof(in); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = (uint8_t)x;
		}
		CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
		f = open_memstream(&text, &n);
		aw_aws_write(f, &sc);
		fclose(f);
		if (aw_aws_parse_string("render", text, &back, err, sizeof(err))) {
			if (unparsable++ < 3)
				fprintf(stderr, "round %d: %s\n", round, err);
		} else if (back.nr_events != sc.nr_events) {
			changed++;
		} else {
			for (size_t e = 0; e < sc.nr_events; e++) {
				const struct aw_event *a = &sc.events[e], *b = &back.events[e];

				if (memcmp(a, b, sizeof(*a)) && changed++ < 5)
					fprintf(stderr, "round %d: event %zu (kind %u) differs after the text\n",
						round, e, a->kind);
			}
		}
		aw_scenario_free(&back);
		aw_scenario_free(&sc);
		free(text);
	}
	CHECK_EQ(unparsable, 0);
	CHECK_EQ(changed, 0);
}

int main(void)
{
	RUN(test_header);
	RUN(test_header_options);
	RUN(test_access_folding);
	RUN(test_bounds);
	RUN(test_any_bytes);
	RUN(test_encode_roundtrip);
	RUN(test_pmd_rounding);
	RUN(test_khugepaged_kinds);
	RUN(test_khugepaged_target);
	RUN(test_khugepaged_roundtrip);
	RUN(test_region_folding);
	RUN(test_fdio_kinds);
	RUN(test_any_bytes_render);
	return aw_test_report("test_fuzzin");
}
