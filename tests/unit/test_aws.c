/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit tests of the .aws parser and writer (src/event/aws_*.c).  Expected
 * values are worked out by hand from docs/aws-format.md; the comment next to
 * a value says how when it is not obvious.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* open_memstream, mkstemp */
#endif
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aw_test.h"
#include "scenario.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static char err[512];

/* Parse text that must be valid; on failure print why and fail a check. */
static int parse_ok(const char *text, struct aw_scenario *sc)
{
	int r = aw_aws_parse_string("t.aws", text, sc, err, sizeof(err));

	if (r)
		fprintf(stderr, "unexpected parse error: %s\n", err);
	CHECK_EQ(r, 0);
	return r;
}

/* Parse text that must fail with exactly this message. */
static void parse_err(const char *text, const char *msg)
{
	struct aw_scenario sc;

	CHECK_EQ(aw_aws_parse_string("t.aws", text, &sc, err, sizeof(err)), -1);
	CHECK_STR(err, msg);
	/* A failed parse leaves an empty scenario behind. */
	CHECK_EQ(sc.nr_events, 0);
	CHECK(sc.events == NULL);
	aw_scenario_free(&sc);
}

static void test_defaults(void)
{
	struct aw_scenario sc;

	if (parse_ok("# nothing but a comment\n\n   \t\n", &sc))
		return;
	CHECK_EQ(sc.cfg.nr_nodes, 1);
	CHECK_EQ(sc.cfg.node[0].cpu_mask, 0x3);		/* cpus 0-1 */
	CHECK_EQ(sc.cfg.node[0].mem_bytes, 16 * GiB);
	CHECK_EQ(sc.cfg.nr_memcgs, 1);
	CHECK_EQ(sc.cfg.thp, AW_THP_NEVER);
	CHECK_EQ(sc.cfg.thp_modes, 1u << AW_THP_NEVER);
	CHECK_EQ(sc.cfg.swap_bytes, 0);
	CHECK_EQ(sc.cfg.mmap_base, 0x7f0000000000ull);
	CHECK_EQ(sc.cfg.skip_empty, 4);
	CHECK_EQ(sc.cfg.layout, AW_LAYOUT_STANDARD);
	CHECK_EQ(sc.cfg.kernel, AW_KERNEL_MAINLINE);
	CHECK_EQ(sc.nr_events, 0);
	CHECK_EQ(sc.nr_expects, 0);
	CHECK_STR(sc.path, "t.aws");
	aw_scenario_free(&sc);

	CHECK_STR(aw_thp_mode_name(AW_THP_MADVISE), "madvise");
	CHECK_EQ(aw_thp_mode_parse("always"), AW_THP_ALWAYS);
	CHECK_EQ(aw_thp_mode_parse("sometimes"), -1);
	CHECK_STR(aw_event_kind_name(AW_EV_SET_MEMPOLICY), "set_mempolicy");
	CHECK_STR(aw_event_kind_name(AW_EV_NR), "unknown");
}

static void test_header(void)
{
	struct aw_scenario sc;

	if (parse_ok("node 0 cpus 0,2,4-5 mem 8G\n"
		     "node 1 cpus 1 mem 0x40000000\n"
		     "memcg 3 limit 512M\n"
		     "memcg 1 limit max\n"
		     "thp madvise\n"
		     "swap 8G\n"
		     "mmap_base 0x7e0000000000\n"
		     "skip_empty 1\n"
		     "layout small\n"
		     "kernel 6.12\n", &sc))
		return;
	CHECK_EQ(sc.cfg.kernel, AW_KERNEL_6_12);
	CHECK_EQ(sc.cfg.nr_nodes, 2);
	CHECK_EQ(sc.cfg.node[0].cpu_mask, 0x35);	/* bits 0, 2, 4, 5 */
	CHECK_EQ(sc.cfg.node[0].mem_bytes, 8 * GiB);
	CHECK_EQ(sc.cfg.node[1].cpu_mask, 0x2);
	CHECK_EQ(sc.cfg.node[1].mem_bytes, GiB);
	CHECK_EQ(sc.cfg.nr_memcgs, 4);			/* highest id 3, plus one */
	CHECK_EQ(sc.cfg.memcg_limit[3], 512 * MiB);
	CHECK_EQ(sc.cfg.memcg_limit[1], 0);
	CHECK_EQ(sc.cfg.thp, AW_THP_MADVISE);
	/* No modes line: the default mode only. */
	CHECK_EQ(sc.cfg.thp_modes, 1u << AW_THP_MADVISE);
	CHECK_EQ(sc.cfg.swap_bytes, 8 * GiB);
	CHECK_EQ(sc.cfg.mmap_base, 0x7e0000000000ull);
	CHECK_EQ(sc.cfg.skip_empty, 1);
	CHECK_EQ(sc.cfg.layout, AW_LAYOUT_SMALL);
	aw_scenario_free(&sc);

	if (parse_ok("topology T3\nthp always\nmodes always never\n", &sc))
		return;
	CHECK_EQ(sc.cfg.nr_nodes, 3);
	CHECK_EQ(sc.cfg.node[0].cpu_mask, 0x03);	/* cpus 0-1 */
	CHECK_EQ(sc.cfg.node[1].cpu_mask, 0x0c);	/* cpus 2-3 */
	CHECK_EQ(sc.cfg.node[2].cpu_mask, 0x30);	/* cpus 4-5 */
	CHECK_EQ(sc.cfg.node[2].mem_bytes, 16 * GiB);
	CHECK_EQ(sc.cfg.thp_modes, (1u << AW_THP_ALWAYS) | (1u << AW_THP_NEVER));
	aw_scenario_free(&sc);
}

static void test_units(void)
{
	struct aw_scenario sc;
	const struct aw_event *ev;

	if (parse_ok("proc P nolayout\n"
		     "mmap P A 4K\n"
		     "mmap P B 128M\n"
		     "mmap P C 1G at 0x7e0000000000\n"
		     "mmap P D 2m\n"
		     "mmap P E 0x3000\n"
		     "mmap P F 8192\n"
		     "mmap P G 1T\n"
		     "time +500ms\n"
		     "time 3s\n"
		     "time 7us\n"
		     "time +12ns\n", &sc))
		return;
	ev = sc.events;
	CHECK_EQ(sc.nr_events, 12);
	CHECK_EQ(ev[1].len, 4096);
	CHECK_EQ(ev[2].len, 134217728);			/* 128 * 1048576 */
	CHECK_EQ(ev[3].len, 1073741824);		/* 1024^3 */
	CHECK_EQ(ev[3].addr2, 138538465099776ull);	/* 0x7e << 40 = 126 * 2^40 */
	CHECK_EQ(ev[4].len, 2097152);			/* suffixes ignore case */
	CHECK_EQ(ev[5].len, 12288);			/* 3 * 4096 */
	CHECK_EQ(ev[6].len, 8192);
	CHECK_EQ(ev[7].len, 1099511627776ull);		/* 2^40 */
	CHECK_EQ(ev[8].len, 500000000);
	CHECK_EQ(ev[9].len, 3000000000ull);
	CHECK_EQ(ev[10].len, 7000);
	CHECK_EQ(ev[11].len, 12);
	aw_scenario_free(&sc);
}

/* One line per event kind, in enum order from PROC to SAMPLE. */
static const char every_kind[] =
	"topology T2\n"					/*  1 */
	"memcg 1 limit 1G\n"				/*  2 */
	"swap 8G\n"					/*  3 */
	"proc W cpu 2 memcg 1 nolayout\n"		/*  4: PROC */
	"fork W C\n"					/*  5: FORK */
	"vfork W V\n"					/*  6: VFORK */
	"thread W T\n"					/*  7: THREAD */
	"exec C\n"					/*  8: EXEC */
	"exit V\n"					/*  9: EXIT */
	"run T cpu 3\n"					/* 10: RUN */
	"mmap W R 64M at 0x7e0000000000 file locked seqread prot rx\n" /* 11: MMAP */
	"munmap W R off 2M len 4K\n"			/* 12: MUNMAP */
	"mremap W R 128M at 0x7d0000000000\n"		/* 13: MREMAP */
	"mprotect W 0x10000 len 8K prot none\n"		/* 14: MPROTECT */
	"brk W -12K\n"					/* 15: BRK */
	"mbind W R off 64M node 1 preferred\n"		/* 16: MBIND */
	"set_mempolicy W default\n"			/* 17: SET_MEMPOLICY */
	"write W R stride 8K repeat 3 cpu 1\n"		/* 18: ACCESS */
	"madvise W R len 2M collapse\n"			/* 19: MADVISE */
	"migrate W R off 4K len 4K node 1\n"		/* 20: MIGRATE */
	"limit memcg 1 max\n"				/* 21: MEMCG_LIMIT */
	"memcg_move W 1\n"				/* 22: MEMCG_MOVE */
	"prctl W thp_disable\n"				/* 23: PRCTL_THP */
	"age node 1 memcg 1 force 1 swappiness 201\n"	/* 24: AGE */
	"age_begin force 0 node 0\n"			/* 25: AGE_BEGIN */
	"age_step node 0\n"				/* 26: AGE_STEP */
	"age_end node 0 memcg 1\n"			/* 27: AGE_END */
	"evict node 1 nr 32 direct\n"			/* 28: EVICT */
	"khugepaged pages 4096\n"			/* 29: KHUGEPAGED */
	"contend W ptl on\n"				/* 30: CONTEND */
	"time +2s\n"					/* 31: TIME */
	"sample R\n"					/* 32: SAMPLE */
	"pwrite W R off 8K len 8K repeat 2\n"		/* 33: FDIO */
	"expect thp=never young>=1\n";			/* 34 */

/* every_kind: the process and mapping lines (proc .. brk) */
static void check_proc_kinds(const struct aw_scenario *sc)
{
	const struct aw_event *ev;

	ev = &sc->events[AW_EV_PROC - 1];
	CHECK_EQ(ev->pid, 1);
	CHECK_EQ(ev->cpu, 2);
	CHECK_EQ(ev->memcg, 1);
	CHECK_EQ(ev->flags, AW_PROC_NOLAYOUT);

	ev = &sc->events[AW_EV_VFORK - 1];
	CHECK_EQ(ev->pid, 1);
	CHECK_EQ(ev->pid2, 3);				/* W, C, V: V is the third */

	ev = &sc->events[AW_EV_RUN - 1];
	CHECK_EQ(ev->pid, 4);
	CHECK_EQ(ev->cpu, 3);

	ev = &sc->events[AW_EV_MMAP - 1];
	CHECK_EQ(ev->pid, 1);
	CHECK_EQ(ev->region, 1);
	CHECK_EQ(ev->len, 64 * MiB);
	CHECK_EQ(ev->addr, 0);
	CHECK_EQ(ev->addr2, 0x7e0000000000ull);
	CHECK_EQ(ev->flags, AW_MAP_FILE | AW_MAP_LOCKED | AW_MAP_SEQ_READ);
	CHECK_EQ(ev->arg, AW_PROT_READ | AW_PROT_EXEC);

	ev = &sc->events[AW_EV_MUNMAP - 1];
	CHECK_EQ(ev->region, 1);
	CHECK_EQ(ev->addr, 2 * MiB);
	CHECK_EQ(ev->len, 4096);

	ev = &sc->events[AW_EV_MREMAP - 1];
	CHECK_EQ(ev->region, 1);
	CHECK_EQ(ev->addr, 0);
	CHECK_EQ(ev->len, 64 * MiB);			/* the old length */
	CHECK_EQ(ev->stride, 128 * MiB);		/* the new length */
	CHECK_EQ(ev->addr2, 0x7d0000000000ull);

	ev = &sc->events[AW_EV_MPROTECT - 1];
	CHECK_EQ(ev->region, 0);
	CHECK_EQ(ev->addr, 0x10000);
	CHECK_EQ(ev->len, 8192);
	CHECK_EQ(ev->arg, AW_PROT_NONE);

	ev = &sc->events[AW_EV_BRK - 1];
	CHECK_EQ(ev->len, 12288);
	CHECK_EQ(ev->flags, AW_BRK_SHRINK);
}

/* every_kind: policy, access, advice, migration, memcg and prctl lines */
static void check_mem_kinds(const struct aw_scenario *sc)
{
	const struct aw_event *ev;

	/* After the mremap R is 128M long: off 64M leaves 64M. */
	ev = &sc->events[AW_EV_MBIND - 1];
	CHECK_EQ(ev->addr, 64 * MiB);
	CHECK_EQ(ev->len, 64 * MiB);
	CHECK_EQ(ev->node, 1);
	CHECK_EQ(ev->arg, AW_MPOL_PREFERRED);

	ev = &sc->events[AW_EV_SET_MEMPOLICY - 1];
	CHECK_EQ(ev->node, 0);
	CHECK_EQ(ev->arg, AW_MPOL_DEFAULT);

	ev = &sc->events[AW_EV_ACCESS - 1];
	CHECK_EQ(ev->flags, AW_ACC_WRITE);
	CHECK_EQ(ev->region, 1);
	CHECK_EQ(ev->addr, 0);
	CHECK_EQ(ev->len, 128 * MiB);
	CHECK_EQ(ev->stride, 8192);
	CHECK_EQ(ev->repeat, 3);
	CHECK_EQ(ev->cpu, 1);

	ev = &sc->events[AW_EV_MADVISE - 1];
	CHECK_EQ(ev->len, 2 * MiB);
	CHECK_EQ(ev->arg, AW_MADV_COLLAPSE);

	ev = &sc->events[AW_EV_MIGRATE - 1];
	CHECK_EQ(ev->addr, 4096);
	CHECK_EQ(ev->len, 4096);
	CHECK_EQ(ev->node, 1);

	ev = &sc->events[AW_EV_MEMCG_LIMIT - 1];
	CHECK_EQ(ev->memcg, 1);
	CHECK_EQ(ev->len, 0);				/* max */

	ev = &sc->events[AW_EV_MEMCG_MOVE - 1];
	CHECK_EQ(ev->pid, 1);
	CHECK_EQ(ev->memcg, 1);

	CHECK_EQ(sc->events[AW_EV_PRCTL_THP - 1].arg, AW_THP_DISABLE_COMPLETELY);
}

/* every_kind: reclaim, khugepaged, contention, time and sample lines */
static void check_reclaim_kinds(const struct aw_scenario *sc)
{
	const struct aw_event *ev;

	ev = &sc->events[AW_EV_AGE - 1];
	CHECK_EQ(ev->node, 1);
	CHECK_EQ(ev->memcg, 1);
	CHECK_EQ(ev->flags, AW_AGE_FORCE);
	CHECK_EQ(ev->swappiness, 201);

	ev = &sc->events[AW_EV_AGE_BEGIN - 1];
	CHECK_EQ(ev->flags, 0);
	CHECK_EQ(ev->swappiness, AW_SWAPPINESS_DEFAULT);

	ev = &sc->events[AW_EV_AGE_END - 1];
	CHECK_EQ(ev->memcg, 1);
	CHECK_EQ(ev->swappiness, 0);			/* step/end carry none */

	ev = &sc->events[AW_EV_EVICT - 1];
	CHECK_EQ(ev->node, 1);
	CHECK_EQ(ev->len, 32);
	CHECK_EQ(ev->flags, AW_EVICT_DIRECT);
	CHECK_EQ(ev->swappiness, AW_SWAPPINESS_DEFAULT);

	CHECK_EQ(sc->events[AW_EV_KHUGEPAGED - 1].len, 4096);

	ev = &sc->events[AW_EV_CONTEND - 1];
	CHECK_EQ(ev->arg, AW_LOCK_PTL);
	CHECK_EQ(ev->flags, AW_CONTEND_ON);

	CHECK_EQ(sc->events[AW_EV_TIME - 1].len, 2000000000ull);
	CHECK_EQ(sc->events[AW_EV_SAMPLE - 1].region, 1);

	ev = &sc->events[AW_EV_FDIO - 1];
	CHECK_EQ(ev->region, 1);
	CHECK_EQ(ev->addr, 8192);
	CHECK_EQ(ev->len, 8192);
	CHECK_EQ(ev->repeat, 2);
	CHECK_EQ(ev->flags, AW_ACC_WRITE);
}

static void test_every_kind(void)
{
	struct aw_scenario sc;
	size_t i;

	if (parse_ok(every_kind, &sc))
		return;
	CHECK_EQ(sc.nr_events, AW_EV_NR - 1);
	if (sc.nr_events != AW_EV_NR - 1)
		goto out;
	for (i = 0; i < sc.nr_events; i++) {
		CHECK_EQ(sc.events[i].kind, i + 1);
		CHECK_EQ(sc.event_line[i], i + 4);
	}
	CHECK_EQ(sc.nr_procs, 4);
	CHECK_STR(sc.proc_name[0], "W");
	CHECK_STR(sc.proc_name[3], "T");
	CHECK_EQ(sc.nr_regions, 1);
	CHECK_STR(sc.region_name[0], "R");

	check_proc_kinds(&sc);
	check_mem_kinds(&sc);
	check_reclaim_kinds(&sc);
out:
	aw_scenario_free(&sc);
}

/* Defaults of fields a line does not mention. */
static void test_field_defaults(void)
{
	struct aw_scenario sc;
	const struct aw_event *ev;

	if (parse_ok("proc P\n"
		     "run P\n"
		     "mmap P - 8K\n"
		     "read P 0x1000 len 1\n"
		     "set_mempolicy P node 0\n"
		     "age node 0 force 0\n", &sc))
		return;
	ev = sc.events;
	CHECK_EQ(ev[0].cpu, 0);
	CHECK_EQ(ev[0].memcg, 0);
	CHECK_EQ(ev[0].flags, 0);
	CHECK_EQ(ev[1].cpu, AW_CPU_CURRENT);
	CHECK_EQ(ev[2].region, 0);			/* '-': unnamed */
	CHECK_EQ(ev[2].arg, AW_PROT_DEFAULT);
	CHECK_EQ(ev[2].addr2, 0);
	CHECK_EQ(ev[3].cpu, AW_CPU_CURRENT);
	CHECK_EQ(ev[3].repeat, 1);
	CHECK_EQ(ev[3].stride, 0);
	CHECK_EQ(ev[3].flags, 0);			/* read */
	CHECK_EQ(ev[4].arg, AW_MPOL_BIND);
	CHECK_EQ(ev[5].swappiness, AW_SWAPPINESS_DEFAULT);
	CHECK_EQ(ev[5].memcg, 0);
	CHECK_EQ(sc.nr_regions, 0);
	aw_scenario_free(&sc);
}

static void test_repeat(void)
{
	static const char nested[] =
		"proc P\n"			/* 1 */
		"repeat 2 {\n"			/* 2 */
		"  repeat 3 {\n"		/* 3 */
		"    mmap P A 4K\n"		/* 4: same id in every copy */
		"  }\n"				/* 5 */
		"}\n"				/* 6 */
		"exit P\n";			/* 7 */
	static const char mixed[] =
		"proc P\n"			/* 1 */
		"repeat 2 {\n"			/* 2 */
		"  repeat 3 {\n"		/* 3 */
		"    run P\n"			/* 4 */
		"  }\n"				/* 5 */
		"  time +1ms\n"			/* 6 */
		"}\n";				/* 7 */
	/* 1 + 2 * (3 + 1) = 9 events */
	static const uint32_t mixed_lines[] = { 1, 4, 4, 4, 6, 4, 4, 4, 6 };
	/*
	 * A block reads as if written out N times: the region's length moves
	 * from copy to copy; directives and expect lines count once.
	 */
	static const char evolving[] =
		"proc P\n"			/* 1 */
		"mmap P A 4K\n"			/* 2 */
		"repeat 3 {\n"			/* 3 */
		"  read P A\n"			/* 4: 4K, then 8K, 8K */
		"  mremap P A 8K\n"		/* 5: old length 4K, then 8K, 8K */
		"  fork P C\n"			/* 6: C is id 2 every time */
		"  memcg 1\n"			/* 7: declared once */
		"  expect young==0\n"		/* 8: one expectation */
		"}\n";				/* 9 */
	struct aw_scenario sc;
	size_t i;

	if (parse_ok(evolving, &sc))
		return;
	CHECK_EQ(sc.nr_events, 11);			/* 2 + 3 * 3 */
	if (sc.nr_events == 11) {
		CHECK_EQ(sc.events[2].len, 4096);
		CHECK_EQ(sc.events[3].len, 4096);
		CHECK_EQ(sc.events[3].stride, 8192);
		CHECK_EQ(sc.events[5].len, 8192);
		CHECK_EQ(sc.events[6].len, 8192);
		CHECK_EQ(sc.events[8].len, 8192);
		CHECK_EQ(sc.events[10].pid2, 2);
		CHECK_EQ(sc.event_line[10], 6);
	}
	CHECK_EQ(sc.nr_procs, 2);
	CHECK_EQ(sc.nr_expects, 1);
	CHECK_EQ(sc.cfg.nr_memcgs, 2);
	aw_scenario_free(&sc);

	if (parse_ok(nested, &sc))
		return;
	CHECK_EQ(sc.nr_events, 8);			/* proc, 2 * 3 mmaps, exit */
	for (i = 1; i < 7 && i < sc.nr_events; i++) {
		CHECK_EQ(sc.events[i].kind, AW_EV_MMAP);
		CHECK_EQ(sc.events[i].region, 1);
		CHECK_EQ(sc.event_line[i], 4);
	}
	CHECK_EQ(sc.nr_regions, 1);
	CHECK_EQ(sc.event_line[7], 7);
	aw_scenario_free(&sc);

	if (parse_ok(mixed, &sc))
		return;
	CHECK_EQ(sc.nr_events, 9);
	for (i = 0; i < 9 && i < sc.nr_events; i++) {
		CHECK_EQ(sc.event_line[i], mixed_lines[i]);
		CHECK_EQ(sc.events[i].kind, mixed_lines[i] == 1 ? AW_EV_PROC :
			 mixed_lines[i] == 4 ? AW_EV_RUN : AW_EV_TIME);
	}
	aw_scenario_free(&sc);
}

static void test_target(void)
{
	struct aw_scenario sc;
	const struct aw_event *ev;

	if (parse_ok("proc P\n"
		     "mmap P A 1M\n"
		     "read P A off 256K\n"		/* 1M - 256K = 768K */
		     "read P A\n"
		     "read P A len 4K\n"
		     "write P A len 8K off 4K\n"	/* either order */
		     "mremap P A 2M\n"
		     "read P A off 1M\n"		/* the new length counts */
		     "mmap P A 16K\n"			/* redefinition: same id */
		     "read P A off 4K\n"
		     "munmap P 0x10000 len 8K\n", &sc))
		return;
	ev = sc.events;
	CHECK_EQ(ev[2].region, 1);
	CHECK_EQ(ev[2].addr, 262144);
	CHECK_EQ(ev[2].len, 786432);
	CHECK_EQ(ev[3].addr, 0);
	CHECK_EQ(ev[3].len, MiB);
	CHECK_EQ(ev[4].addr, 0);
	CHECK_EQ(ev[4].len, 4096);
	CHECK_EQ(ev[5].addr, 4096);
	CHECK_EQ(ev[5].len, 8192);
	CHECK_EQ(ev[6].len, MiB);			/* mremap: old length */
	CHECK_EQ(ev[6].stride, 2 * MiB);
	CHECK_EQ(ev[7].addr, MiB);
	CHECK_EQ(ev[7].len, MiB);
	CHECK_EQ(ev[8].region, 1);
	CHECK_EQ(ev[9].len, 12288);			/* 16K - 4K */
	CHECK_EQ(ev[10].region, 0);
	CHECK_EQ(ev[10].addr, 65536);
	CHECK_EQ(ev[10].len, 8192);
	CHECK_EQ(sc.nr_regions, 1);
	aw_scenario_free(&sc);
}

static void test_expect(void)
{
	const struct aw_expect *e;
	struct aw_scenario sc;

	if (parse_ok("proc P\n"
		     "mmap P B 4K\n"
		     "expect thp=always pass=3.. var=pud node=0 region=C pud_skipped==1 young==0\n"
		     "expect pass=2..5 walks <= 0.95 young >=4K\tratio!=-1.5e-3 # comment\n"
		     "expect pass=7 var=6.12-base x<1 y>2\n"
		     "mmap P C 1G\n", &sc))			/* region= may come first */
		return;
	CHECK_EQ(sc.nr_expects, 3);
	if (sc.nr_expects != 3)
		goto out;
	e = &sc.expects[0];
	CHECK_EQ(e->line, 3);
	CHECK_EQ(e->thp, AW_THP_ALWAYS);
	CHECK_EQ(e->pass_lo, 3);
	CHECK_EQ(e->pass_hi, -1);
	CHECK_STR(e->var, "pud");
	CHECK_EQ(e->node, 0);
	CHECK_EQ(e->region, 2);				/* B is 1, C is 2 */
	CHECK_EQ(e->nr_conds, 2);
	CHECK_STR(e->cond[0].key, "pud_skipped");
	CHECK_EQ(e->cond[0].op, AW_CMP_EQ);
	CHECK(e->cond[0].value == 1.0);
	/* "expect thp=always pass=3.. var=pud node=0 region=C ": 7+11+9+8+7+9 */
	CHECK_EQ(e->cond[0].col, 52);
	CHECK_STR(e->cond[1].key, "young");
	CHECK_EQ(e->cond[1].op, AW_CMP_EQ);
	CHECK(e->cond[1].value == 0.0);
	CHECK_EQ(e->cond[1].col, 67);			/* 52 + "pud_skipped==1 " */

	e = &sc.expects[1];
	CHECK_EQ(e->thp, -1);
	CHECK_EQ(e->pass_lo, 2);
	CHECK_EQ(e->pass_hi, 5);
	CHECK_STR(e->var, "");
	CHECK_EQ(e->node, -1);
	CHECK_EQ(e->region, 0);
	CHECK_EQ(e->nr_conds, 3);
	CHECK_EQ(e->cond[0].op, AW_CMP_LE);
	CHECK(e->cond[0].value == 0.95);
	CHECK_EQ(e->cond[1].op, AW_CMP_GE);
	CHECK(e->cond[1].value == 4096.0);
	CHECK_EQ(e->cond[2].op, AW_CMP_NE);
	CHECK(e->cond[2].value == -0.0015);

	e = &sc.expects[2];
	CHECK_EQ(e->pass_lo, 7);
	CHECK_EQ(e->pass_hi, 7);
	CHECK_STR(e->var, "6.12-base");
	CHECK_EQ(e->cond[0].op, AW_CMP_LT);
	CHECK_EQ(e->cond[1].op, AW_CMP_GT);
out:
	aw_scenario_free(&sc);
}

/* 300 bytes: "run P # ...\n" is 309, and 4999999 more passes * 309 > 2^30 */
#define LONG_COMMENT30 ".............................."
#define LONG_COMMENT LONG_COMMENT30 LONG_COMMENT30 LONG_COMMENT30 LONG_COMMENT30 \
	LONG_COMMENT30 LONG_COMMENT30 LONG_COMMENT30 LONG_COMMENT30 LONG_COMMENT30 \
	LONG_COMMENT30

static void test_errors(void)
{
	/* The message names the line and the 1-based column of the culprit. */
	parse_err("proc P\n  frob P\n", "t.aws:2:3: unknown keyword 'frob'");
	parse_err("layout tiny\n", "t.aws:1:8: expected standard|small, not 'tiny'");
	parse_err("kernel 6.6\n", "t.aws:1:8: expected 6.1|6.12|mainline, not '6.6'");
	parse_err("khugepaged_rev v7\n", "t.aws:1:16: expected seed|v8, not 'v7'");
	parse_err("khugepaged_prctl_enter yes\n", "t.aws:1:24: expected on|off, not 'yes'");
	parse_err("proc P\nrun Q\n", "t.aws:2:5: undefined process 'Q'");
	parse_err("proc P\nage node 0\n",
		  "t.aws:2:1: age needs 'force 0' or 'force 1' (debugfs defaults force_scan to 1)");
	parse_err("proc P\nmmap P A 12Q\n", "t.aws:2:10: bad number '12Q'");
	parse_err("proc P\nmmap P A 99999999999999999999\n",
		  "t.aws:2:10: number '99999999999999999999' does not fit in 64 bits");
	parse_err("proc P\nmmap P A 16777216T\n",		/* 2^24 * 2^40 */
		  "t.aws:2:10: number '16777216T' does not fit in 64 bits");
	parse_err("proc P\nmmap P A 4K at 0x800000000000\n",
		  "t.aws:2:16: address beyond the 47-bit user address space");
	parse_err("proc P\nread P 0x800000000000 len 4K\n",
		  "t.aws:2:8: address beyond the 47-bit user address space");
	/* Unbalanced braces: at the unclosed '{', or at the stray '}'. */
	parse_err("proc P\nrepeat 2 {\nrun P\n", "t.aws:2:10: '{' is never closed");
	parse_err("proc P\nrepeat 2 {\n  repeat 2 {\n  }\nrun P\n",
		  "t.aws:2:10: '{' is never closed");
	parse_err("proc P\nrun P\n  }\n", "t.aws:3:3: '}' without a matching 'repeat N {'");
	/* Other limits. */
	parse_err("proc P\nrepeat 10000000 {\nrepeat 2 {\nrun P\n}\n}\n",
		  "t.aws:2:8: repeat expands to more than 10000000 events");
	parse_err("proc P\nrepeat 5000000 {\nrun P # " LONG_COMMENT "\n}\n",
		  "t.aws:2:8: repeat expands to more than 1024 MiB of text");
	parse_err("repeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\n"
		  "repeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\n"
		  "repeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\nrepeat 1 {\n",
		  "t.aws:17:1: repeat blocks nested deeper than 16");
	parse_err("proc P\nmmap P A 4K\nread P A off 4K\n",
		  "t.aws:3:14: offset is at or beyond the end of region 'A' (4096 bytes)");
	parse_err("proc P\nmmap P A 4K\nread P A len 8K\n",
		  "t.aws:3:14: off + len goes beyond the end of region 'A' (4096 bytes)");
	parse_err("proc P\nmmap P A 6K\n", "t.aws:2:10: mmap length 6K is not a multiple of 4K");
	parse_err("proc P\nfork P P\n", "t.aws:2:8: a process cannot be its own child");
	/* Checks made at the end, reported where the id was first used. */
	parse_err("proc P\nmigrate P 0x1000 len 4K node 1\n",
		  "t.aws:2:30: node 1 does not exist (1 node)");
	parse_err("proc P memcg 2\n",
		  "t.aws:1:14: memcg 2 is not declared (add a 'memcg 2' line)");
	parse_err("topology T2\nproc P cpu 4\n", "t.aws:2:12: cpu 4 is not on any node");
	parse_err("expect region=Z young==0\n", "t.aws:1:15: undefined region 'Z'");
	parse_err("expect young=0\n", "t.aws:1:8: unknown selector 'young=' "
		  "(comparisons are written 'young == VALUE')");
	parse_err("expect thp=always\n",
		  "t.aws:1:1: expect needs at least one condition KEY OP VALUE");
}

static void test_files(void)
{
	char path[] = "/tmp/test_aws_XXXXXX";
	struct aw_scenario sc;
	char want[128];
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	/* A NUL byte on line 2, column 4. */
	CHECK_EQ(write(fd, "proc P\nrun\0P\n", 13), 13);
	close(fd);
	CHECK_EQ(aw_aws_parse_file(path, &sc, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:2:4: NUL byte in input", path);
	CHECK_STR(err, want);
	aw_scenario_free(&sc);

	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, "proc P\r\nrun P\r\n", 15), 15);	/* CRLF is fine */
	close(fd);
	CHECK_EQ(aw_aws_parse_file(path, &sc, err, sizeof(err)), 0);
	CHECK_EQ(sc.nr_events, 2);
	CHECK_STR(sc.path, path);
	aw_scenario_free(&sc);
	unlink(path);

	CHECK_EQ(aw_aws_parse_file(path, &sc, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:0:0: cannot open: No such file or directory", path);
	CHECK_STR(err, want);
	aw_scenario_free(&sc);
}

/* Render sc, parse the text again; *out gets the text (free it). */
static int reparse(const struct aw_scenario *sc, struct aw_scenario *again, char **out)
{
	size_t size;
	FILE *f = open_memstream(out, &size);
	int r;

	CHECK(f != NULL);
	if (!f)
		return -1;
	r = aw_aws_write(f, sc);
	CHECK_EQ(r, 0);
	fclose(f);
	if (r)
		return -1;
	r = aw_aws_parse_string("written.aws", *out, again, err, sizeof(err));
	if (r)
		fprintf(stderr, "written text does not parse: %s\n%s", err, *out);
	CHECK_EQ(r, 0);
	return r;
}

static void check_same(const struct aw_scenario *a, const struct aw_scenario *b)
{
	int i, j;

	CHECK(!memcmp(&a->cfg, &b->cfg, sizeof(a->cfg)));
	CHECK_EQ(a->nr_events, b->nr_events);
	if (a->nr_events == b->nr_events)
		CHECK(!memcmp(a->events, b->events, a->nr_events * sizeof(*a->events)));
	CHECK_EQ(a->nr_procs, b->nr_procs);
	for (i = 0; i < a->nr_procs && i < b->nr_procs; i++)
		CHECK_STR(a->proc_name[i], b->proc_name[i]);
	CHECK_EQ(a->nr_regions, b->nr_regions);
	for (i = 0; i < a->nr_regions && i < b->nr_regions; i++)
		CHECK_STR(a->region_name[i], b->region_name[i]);
	CHECK_EQ(a->nr_expects, b->nr_expects);
	for (i = 0; i < a->nr_expects && i < b->nr_expects; i++) {
		const struct aw_expect *x = &a->expects[i], *y = &b->expects[i];

		CHECK_EQ(x->thp, y->thp);
		CHECK_EQ(x->pass_lo, y->pass_lo);
		CHECK_EQ(x->pass_hi, y->pass_hi);
		CHECK_STR(x->var, y->var);
		CHECK_EQ(x->node, y->node);
		CHECK_EQ(x->region, y->region);
		CHECK_EQ(x->nr_conds, y->nr_conds);
		for (j = 0; j < x->nr_conds && j < y->nr_conds; j++) {
			CHECK_STR(x->cond[j].key, y->cond[j].key);
			CHECK_EQ(x->cond[j].op, y->cond[j].op);
			CHECK(x->cond[j].value == y->cond[j].value);
		}
	}
}

static const char round_trip_text[] =
	"node 0 cpus 0-1 mem 8G\n"
	"node 1 cpus 2,3,5 mem 0x40001000\n"
	"memcg 2 limit 3000K\n"
	"thp always\n"
	"modes always madvise\n"
	"swap 1G\n"
	"mmap_base 0x7ff000000000\n"
	"skip_empty 8\n"
	"layout small\n"
	"kernel 6.1\n"
	"proc W1 cpu 5 memcg 2\n"
	"repeat 2 {\n"
	"  fork W1 K\n"			/* written twice: the child keeps its id */
	"  mmap W1 H 6M at 0x600000000000 hugepage droppable prot rwx\n"
	"  write W1 H off 12K len 20K stride 12K repeat 10000000\n"
	"  mmap W1 - 4K nohugepage randread noreserve prot w\n"
	"}\n"
	"mremap W1 H 2M\n"
	"mremap W1 0x1000 len 4K 8K at 0x2000\n"
	"read W1 H off 1M\n"
	"brk W1 +5000\n"
	"mbind W1 H node 1 default\n"
	"set_mempolicy W1 node 1 preferred\n"
	"madvise W1 0x7000 len 1 free\n"
	"time 1500us\n"
	"time 0s\n"
	"time 18446744073709551615ns\n"
	"evict node 0 nr 1024\n"
	"khugepaged\n"
	"limit memcg 2 1G\n"
	"expect thp=madvise pass=1..2 node=1 region=H a==0.1 b!=1e300 c>-7 d<18446744073709551615\n"
	"expect var=x.y e>=123456789012345678 f<=0x10\n";

static void test_round_trip(void)
{
	struct aw_scenario a, b, c;
	char *text1 = NULL, *text2 = NULL;

	if (parse_ok(round_trip_text, &a))
		return;
	if (!reparse(&a, &b, &text1)) {
		check_same(&a, &b);
		/* Writing what was read back gives the same text again. */
		if (!reparse(&b, &c, &text2)) {
			CHECK_STR(text1, text2);
			aw_scenario_free(&c);
		}
		aw_scenario_free(&b);
	}
	free(text1);
	free(text2);
	aw_scenario_free(&a);

	text1 = NULL;
	if (parse_ok(every_kind, &a))
		return;
	if (!reparse(&a, &b, &text1)) {
		check_same(&a, &b);
		aw_scenario_free(&b);
	}
	free(text1);
	aw_scenario_free(&a);
}

/* Names the writer must invent: missing, invalid or duplicated ones. */
static void test_write_names(void)
{
	struct aw_scenario a, b;
	char *text = NULL;

	if (parse_ok("proc p2\nproc A\nproc B\nmmap A R 4K\nsample R\n", &a))
		return;
	strcpy(a.proc_name[1], "kworker/0:1");		/* invalid: becomes p2_ */
	strcpy(a.proc_name[2], "p2");			/* duplicate of id 1: p3 */
	a.region_name[0][0] = '\0';			/* missing: r1 */
	if (reparse(&a, &b, &text))
		goto out;
	CHECK(strstr(text, "proc p2_\n") != NULL);
	CHECK(strstr(text, "proc p3\n") != NULL);
	CHECK(strstr(text, "mmap p2_ r1 4K\n") != NULL);
	CHECK_EQ(b.nr_events, a.nr_events);
	if (b.nr_events == a.nr_events)
		CHECK(!memcmp(a.events, b.events, a.nr_events * sizeof(*a.events)));
	aw_scenario_free(&b);
out:
	free(text);
	aw_scenario_free(&a);
}

/*
 * Inputs that failed agewalk_fuzz_aws (fuzz/fuzz_aws.c) when it was
 * written: each crashed the parser or did not read back the same after
 * aw_aws_write().
 */
static void test_fuzz_findings(void)
{
	struct aw_scenario a, b;
	char *text = NULL;

	/* A ninth node was stored past cfg.node[7]: "more than 8" at node 8 too. */
	parse_err("node 0 cpus 0 mem 4K\nnode 1 cpus 1 mem 4K\nnode 2 cpus 2 mem 4K\n"
		  "node 3 cpus 3 mem 4K\nnode 4 cpus 4 mem 4K\nnode 5 cpus 5 mem 4K\n"
		  "node 6 cpus 6 mem 4K\nnode 7 cpus 7 mem 4K\nnode 8 cpus 8 mem 4K\n",
		  "t.aws:9:6: more than 8 nodes");
	/*
	 * `times 1` gave repeat 1, which the writer prints as a plain
	 * `khugepaged` (repeat 0): one wake-up is repeat 0 either way.  `full 1`
	 * keeps its count (flags say full).
	 */
	if (parse_ok("khugepaged times 1\nkhugepaged\nkhugepaged times 2\nkhugepaged full 1\n", &a))
		return;
	CHECK_EQ(a.nr_events, 4);
	if (a.nr_events == 4) {
		CHECK_EQ(a.events[0].repeat, 0);
		CHECK(!memcmp(&a.events[0], &a.events[1], sizeof(a.events[0])));
		CHECK_EQ(a.events[2].repeat, 2);
		CHECK_EQ(a.events[3].repeat, 1);
		CHECK_EQ(a.events[3].flags, AW_KH_FULL);
	}
	if (!reparse(&a, &b, &text)) {
		check_same(&a, &b);
		CHECK(strstr(text, "\nkhugepaged\nkhugepaged\nkhugepaged times 2\nkhugepaged full 1\n") != NULL);
		aw_scenario_free(&b);
	}
	free(text);
	aw_scenario_free(&a);
}

/*
 * Every prefix of a valid scenario either parses or fails with one
 * "t.aws:LINE:COL: " line: no crash, no half-filled scenario.  Run under
 * ASan/UBSan this is a small deterministic fuzz test.
 */
static void test_prefixes(void)
{
	size_t len = strlen(round_trip_text), i;
	char *buf = malloc(len + 1);
	int bad = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	for (i = 0; i <= len; i++) {
		struct aw_scenario sc;
		int r;

		memcpy(buf, round_trip_text, i);
		buf[i] = '\0';
		r = aw_aws_parse_string("t.aws", buf, &sc, err, sizeof(err));
		if (r && (strncmp(err, "t.aws:", 6) || strchr(err, '\n')))
			bad++;
		if (r && sc.nr_events)
			bad++;
		aw_scenario_free(&sc);
	}
	CHECK_EQ(bad, 0);
	free(buf);
}

int main(void)
{
	RUN(test_defaults);
	RUN(test_header);
	RUN(test_units);
	RUN(test_every_kind);
	RUN(test_field_defaults);
	RUN(test_repeat);
	RUN(test_target);
	RUN(test_expect);
	RUN(test_errors);
	RUN(test_files);
	RUN(test_round_trip);
	RUN(test_write_names);
	RUN(test_fuzz_findings);
	RUN(test_prefixes);
	return aw_test_report("test_aws");
}
