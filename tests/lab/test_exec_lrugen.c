// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk-exec's debugfs dialect: lru_gen_full text in the layout of
 * 6.1's and 6.12's lru_gen_seq_show_full() (tests/lab/lru_gen_full-*.txt)
 * parsed, and the per-walk figures against hand-computed differences; the
 * `+` and `-` command lines of both kernels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static void load(const char *dir, const char *name, struct aw_lg_snapshot *s)
{
	char path[1024], err[256], *text;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (aw_read_file(path, &text)) {
		printf("FAIL cannot read %s\n", path);
		exit(1);
	}
	if (aw_lg_parse(text, s, err, sizeof(err))) {
		printf("FAIL %s: %s\n", name, err);
		exit(1);
	}
	free(text);
}

/*
 * 6.12 with the PUD series: TYFALWEES cumulative (patch 1's LWEE, patch 4's
 * S).  Before 1000 200 30 10 150 6 2 300 4, after 1700 260 41 12 190 9 4
 * 812 11: the pass read 700 leaves, 60 young, 11 found, 2 added, 40
 * associated, 3 walks with leaves, 2 of them empty (512 leaves), 7 PUDs
 * skipped.
 */
static void test_612_series(const char *dir, struct aw_lg_snapshot *b, struct aw_lg_snapshot *a)
{
	const struct aw_lg_lruvec *vb, *va;
	int64_t d[AW_LG_NR];

	load(dir, "lru_gen_full-6.12pud-before.txt", b);
	load(dir, "lru_gen_full-6.12pud-after.txt", a);
	vb = aw_lg_find(b, 3, 0);
	va = aw_lg_find(a, 3, 0);
	CHECK(vb && va && vb->nr_stats == 9 && vb->cumulative && vb->max_seq == 4 && va->max_seq == 5);
	if (!vb || !va)
		return;
	aw_lg_walk_delta(vb, va, d);
	CHECK(d[AW_LG_LEAF_TOTAL] == 700 && d[AW_LG_LEAF_YOUNG] == 60 && d[AW_LG_NONLEAF_FOUND] == 11 &&
	      d[AW_LG_NONLEAF_ADDED] == 2);
	CHECK(d[AW_LG_LEAF_ASSOCIATED] == 40 && d[AW_LG_WALK_TOTAL] == 3 && d[AW_LG_WALK_EMPTY] == 2 &&
	      d[AW_LG_LEAF_EMPTY_WALKS] == 512 && d[AW_LG_PUD_SKIPPED] == 7);
	CHECK(d[AW_LG_LEAF_OLD] == -1 && d[AW_LG_NONLEAF_TOTAL] == -1);
}

/*
 * The model's placement (aw_get_unmapped_area()): top-down below base.
 * base 0x7f0000000000: 4 KiB at base - 4K; then 2 MiB below it: 6.12
 * aligns, (base - 4K - 2M) rounded down to 2M = base - 4M; 6.1 does not:
 * base - 2M - 4K.  A hole of 2 MiB - 4 KiB between two ranges is too
 * small for 2 MiB; unmapping the 4 KiB range frees the top again.
 */
static void test_place(void)
{
	const uint64_t base = 0x7f0000000000ULL, M2 = 2ULL << 20;
	struct aw_xspace s = { 0 };

	CHECK(aw_place_align(AW_KV_6_12, false, M2) == M2 && aw_place_align(AW_KV_6_1, false, M2) == 4096);
	CHECK(aw_place_align(AW_KV_6_12, true, M2) == 4096 && aw_place_align(AW_KV_6_12, false, M2 + 4096) == 4096);
	CHECK(aw_space_place(&s, base, 4096, 4096) == base - 4096);
	CHECK(aw_space_add(&s, base - 4096, base) == 0);
	CHECK(aw_space_place(&s, base, M2, M2) == base - 2 * M2);
	CHECK(aw_space_place(&s, base, M2, 4096) == base - M2 - 4096);
	CHECK(aw_space_add(&s, base - 2 * M2 - 4096 - M2, base - 2 * M2 - 4096) == 0);
	/* the gap [base-4M-4K, base-4K) is 4 MiB: 8 MiB goes below base-6M-4K */
	CHECK(aw_space_place(&s, base, 4 * M2, 4096) == base - 3 * M2 - 4096 - 4 * M2);
	CHECK(aw_space_remove(&s, base - 4096, base) == 0 && s.nr == 1);
	CHECK(aw_space_place(&s, base, M2, M2) == base - M2);
	/* a split: remove the middle of the remaining range */
	CHECK(aw_space_remove(&s, base - 2 * M2 - 4096 - M2 + 4096, base - 2 * M2 - 8192) == 0 && s.nr == 2);
	free(s.r);
}

/* 6.1, CONFIG_LRU_GEN_STATS off: LOYNFA cumulative on the max_seq line. */
static void test_61(const char *dir, struct aw_lg_snapshot *b, struct aw_lg_snapshot *a)
{
	const struct aw_lg_lruvec *vb, *va;
	int64_t d[AW_LG_NR];

	load(dir, "lru_gen_full-6.1-before.txt", b);
	load(dir, "lru_gen_full-6.1-after.txt", a);
	CHECK(b->nr == 2);
	CHECK(aw_lg_find_memcg(b, "/") == 1);
	vb = aw_lg_find(b, 1, 0);
	va = aw_lg_find(a, 1, 0);
	CHECK(vb && va);
	if (!vb || !va)
		return;
	CHECK(vb->max_seq == 7 && vb->min_seq[0] == 4 && vb->min_seq[1] == 5);
	CHECK(vb->nr_stats == 6 && vb->cumulative && vb->stats[AW_LG_LEAF_TOTAL] == 1000);
	CHECK(va->max_seq == 8);
	aw_lg_walk_delta(vb, va, d);
	/* 1576-1000, 220-200, 356-300, 47-40, 9-5, 7-6 */
	CHECK(d[AW_LG_LEAF_TOTAL] == 576 && d[AW_LG_LEAF_OLD] == 20 && d[AW_LG_LEAF_YOUNG] == 56);
	CHECK(d[AW_LG_NONLEAF_TOTAL] == 7 && d[AW_LG_NONLEAF_FOUND] == 4 && d[AW_LG_NONLEAF_ADDED] == 1);
	/* node 1: generations 1..4, seq 1 below both min_seqs */
	vb = aw_lg_find(b, 1, 1);
	CHECK(vb && vb->max_seq == 4 && vb->min_seq[0] == 2 && vb->min_seq[1] == 2);
	/* a refused pass: the same read twice, no walk */
	aw_lg_walk_delta(va, va, d);
	CHECK(d[AW_LG_LEAF_TOTAL] == 0 && d[AW_LG_NONLEAF_ADDED] == 0);
}

/* 6.12: TYFA, cumulative; and lower-case tyfa per generation (CONFIG_LRU_GEN_STATS). */
static void test_612(const char *dir, struct aw_lg_snapshot *b, struct aw_lg_snapshot *a)
{
	const struct aw_lg_lruvec *v;
	struct aw_lg_lruvec before;
	int64_t d[AW_LG_NR];

	load(dir, "lru_gen_full-6.12-cumulative.txt", b);
	CHECK(b->nr == 2 && aw_lg_find_memcg(b, "/agewalk/m1") == 3 && aw_lg_find_memcg(b, "/") == 1);
	v = aw_lg_find(b, 3, 0);
	CHECK(v && v->nr_stats == 4 && v->cumulative && v->max_seq == 4);
	CHECK(v && v->stats[AW_LG_LEAF_TOTAL] == 10 && v->stats[AW_LG_LEAF_YOUNG] == 2 &&
	      v->stats[AW_LG_LEAF_OLD] == -1 && v->stats[AW_LG_NONLEAF_TOTAL] == -1);
	load(dir, "lru_gen_full-6.12-pergen.txt", a);
	v = aw_lg_find(a, 3, 0);
	CHECK(v && v->max_seq == 6 && !v->cumulative && v->nr_gens == 3);
	if (!v)
		return;
	/* the walk that made max_seq 6 ran for seq 5: generation 5's tyfa line */
	memset(&before, 0, sizeof(before));
	before.max_seq = 5;
	aw_lg_walk_delta(&before, v, d);
	CHECK(d[AW_LG_LEAF_TOTAL] == 128 && d[AW_LG_LEAF_YOUNG] == 32 && d[AW_LG_NONLEAF_FOUND] == 2 &&
	      d[AW_LG_NONLEAF_ADDED] == 1 && d[AW_LG_LEAF_OLD] == -1);
	/* max_seq did not move by one: no figure */
	before.max_seq = 6;
	aw_lg_walk_delta(&before, v, d);
	CHECK(d[AW_LG_LEAF_TOTAL] == -1);
}

static void test_commands(void)
{
	char buf[128];

	/* 6.1: the fourth field is can_swap */
	aw_lg_age_cmd(buf, sizeof(buf), AW_KV_6_1, 1, 0, 7, 60, false);
	CHECK(!strcmp(buf, "+ 1 0 7 1 0\n"));
	aw_lg_age_cmd(buf, sizeof(buf), AW_KV_6_1, 1, 0, 7, 0, true);
	CHECK(!strcmp(buf, "+ 1 0 7 0 1\n"));
	aw_lg_age_cmd(buf, sizeof(buf), AW_KV_6_1, 2, 1, 9, AW_LG_OWN_SWAPPINESS, false);
	CHECK(!strcmp(buf, "+ 2 1 9 4294967295 0\n"));
	/* 6.12: the swappiness */
	aw_lg_age_cmd(buf, sizeof(buf), AW_KV_6_12, 1, 0, 7, 60, false);
	CHECK(!strcmp(buf, "+ 1 0 7 60 0\n"));
	aw_lg_age_cmd(buf, sizeof(buf), AW_KV_6_12, 3, 1, 9, 200, true);
	CHECK(!strcmp(buf, "+ 3 1 9 200 1\n"));
	/* eviction, both: nr 0 in the scenario is the kernel's default -1 */
	aw_lg_evict_cmd(buf, sizeof(buf), 1, 0, 4, 60, UINT64_MAX);
	CHECK(!strcmp(buf, "- 1 0 4 60 18446744073709551615\n"));
	aw_lg_evict_cmd(buf, sizeof(buf), 3, 1, 5, 0, 128);
	CHECK(!strcmp(buf, "- 3 1 5 0 128\n"));
}

/* trace lines of the two kprobes (exec_kprobe.c), as the trace file prints them */
static void test_kprobe_lines(void)
{
	uint64_t mm;
	int task, behavior;
	bool walk;

	CHECK(!aw_kprobe_parse_line("    agewalk-exec-1234    [001] d..1.    56.789012: walk_pud: "
				    "(walk_pud_range+0x0/0x2a0) mm=0xffff888003a1c000 start=0x7f0000000000 "
				    "end=0x7f8000000000", &task, &walk, &mm, &behavior));
	CHECK(task == 1234 && walk && mm == 0xffff888003a1c000ULL);
	CHECK(!aw_kprobe_parse_line("    agewalk-exec-77      [000] .....    12.000001: madvise: "
				    "(do_madvise+0x0/0x1b0) mm=0xffff888004000000 behavior=0",
				    &task, &walk, &mm, &behavior));
	CHECK(task == 77 && !walk && mm == 0xffff888004000000ULL && behavior == 0);
	CHECK(aw_kprobe_parse_line("# tracer: nop", &task, &walk, &mm, &behavior) == -1);
	CHECK(aw_kprobe_parse_line("  kswapd0-40  [001] d..1.  1.0: sched_switch: prev=x", &task, &walk, &mm,
				   &behavior) == -1);
}

/*
 * The generation lines' page counts, which the per-event memory.stat
 * records carry (exec_memstat.c): 6.1-before's memcg 1, node 0 prints
 * seqs 4..7 with anon 40, 50, 60, 70 and file 41 (marked 'x': below the
 * file min_seq, still printed), 51, 61, 71; node 1 seqs 1..4, anon 10
 * (marked) to 40, file 11 to 41.
 */
static void test_gen_sizes(const char *dir, struct aw_lg_snapshot *s)
{
	const struct aw_lg_lruvec *v;

	load(dir, "lru_gen_full-6.1-before.txt", s);
	v = aw_lg_find(s, 1, 0);
	CHECK(v && v->nr_sizes == 4);
	if (!v || v->nr_sizes != 4)
		return;
	for (int g = 0; g < 4; g++)
		CHECK(v->size_seq[g] == 4 + (uint64_t)g && v->size[g][0] == 40 + 10 * (uint64_t)g &&
		      v->size[g][1] == 41 + 10 * (uint64_t)g);
	v = aw_lg_find(s, 1, 1);
	CHECK(v && v->nr_sizes == 4 && v->size_seq[0] == 1 && v->size[0][0] == 10 && v->size[3][1] == 41);
}

int main(int argc, char **argv)
{
	static struct aw_lg_snapshot b, a;
	char err[128];

	if (argc != 2) {
		printf("usage: test_exec_lrugen FIXTURE_DIR\n");
		return 2;
	}
	test_61(argv[1], &b, &a);
	test_612(argv[1], &b, &a);
	test_612_series(argv[1], &b, &a);
	test_gen_sizes(argv[1], &b);
	test_place();
	test_commands();
	test_kprobe_lines();
	CHECK(aw_lg_parse("memcg     1 /\n node     0\n  garbage\n", &b, err, sizeof(err)) == -1);
	CHECK(strstr(err, "line 3") != NULL);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
