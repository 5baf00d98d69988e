// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/kapi's helpers and warn.h: every helper against values worked out by hand
 * from its kernel definition (the comment says how).
 */
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aw_test.h"
#include "kernel.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"

/* ---- min, max, clamp ---------------------------------------------------- */

static void test_minmax(void)
{
	int i = 3;
	unsigned long a = 10, b = 20;

	CHECK_EQ(min(a, b), 10);
	CHECK_EQ(max(a, b), 20);
	CHECK_EQ(min(-5, 3), -5);
	CHECK_EQ(max(-5, 3), 3);
	/* int and long are both signed: allowed, compared as long */
	CHECK_EQ(min(-1, 7L), -1);
	/* nested: no shadowing, each level its own temporaries */
	CHECK_EQ(min(min(5, 9), min(7, 2)), 2);
	CHECK_EQ(max(max(5, 9), max(7, 2)), 9);
	/* each operand evaluated once: i++ runs once, the old value 3 wins */
	CHECK_EQ(min(i++, 100), 3);
	CHECK_EQ(i, 4);
	/* min_t converts first: (int)4294967295U is -1 */
	CHECK_EQ(min_t(int, 4294967295U, 0), -1);
	/* ... and (unsigned long)-1 is the largest unsigned long */
	CHECK(max_t(unsigned long, -1, 5) == ~0UL);
	CHECK_EQ(min_t(unsigned long, 512, a), 10);
	/* clamp_t(int, v, 2, 8): 1 -> 2, 5 -> 5, 64 -> 8 (walk.c's batch size rule) */
	CHECK_EQ(clamp_t(int, 1, 2, 8), 2);
	CHECK_EQ(clamp_t(int, 5, 2, 8), 5);
	CHECK_EQ(clamp_t(int, 64, 2, 8), 8);
	/* 64-byte line / 8-byte pte = 8, clamped to [2, 8] stays 8 */
	CHECK_EQ(clamp_t(int, 64 / sizeof(uint64_t), 2, 8), 8);
	/* clamp_t(unsigned char, 300, 0, 255): (unsigned char)300 is 44, inside */
	CHECK_EQ(clamp_t(unsigned char, 300, 0, 255), 44);
	CHECK_EQ(clamp(-3, 0, 10), 0);
	CHECK_EQ(clamp(30, 0, 10), 10);
}

/* ---- rounding ---------------------------------------------------------- */

static void test_rounding(void)
{
	unsigned long pmd = 1UL << 21;

	CHECK_EQ(round_up(4097, 4096), 8192);
	CHECK_EQ(round_up(4096, 4096), 4096);
	CHECK_EQ(round_up(1, 4096), 4096);
	CHECK_EQ(round_up(0UL, 4096), 0);
	CHECK_EQ(round_down(4097, 4096), 4096);
	CHECK_EQ(round_down(8191, 4096), 4096);
	CHECK_EQ(round_down(4095, 4096), 0);
	/* 0x7f0000201000 up to 2 MiB: 0x7f0000400000; down: 0x7f0000200000 */
	CHECK(round_up(0x7f0000201000UL, pmd) == 0x7f0000400000UL);
	CHECK(round_down(0x7f0000201000UL, pmd) == 0x7f0000200000UL);
	/* walk.c's end: round_up(end, P4D_SIZE) with P4D_SIZE = 2^39 */
	CHECK(round_up(0x7fffffffe000UL, 1UL << 39) == 0x800000000000UL);
	CHECK_EQ(ALIGN(13, 8), 16);
	CHECK_EQ(ALIGN(16, 8), 16);
	CHECK_EQ(ALIGN(0, 8), 0);
	CHECK(IS_ALIGNED(0x200000UL, pmd));
	CHECK(!IS_ALIGNED(0x201000UL, pmd));
	CHECK(IS_ALIGNED(0, 4096));
	/* any divisor: 10 / 3 rounds up to 4, 9 / 3 is 3, 0 / 3 is 0 */
	CHECK_EQ(DIV_ROUND_UP(10, 3), 4);
	CHECK_EQ(DIV_ROUND_UP(9, 3), 3);
	CHECK_EQ(DIV_ROUND_UP(0, 3), 0);
	/* 513 PTEs in 512-entry tables: 2 tables */
	CHECK_EQ(DIV_ROUND_UP(513, 512), 2);
}

/* ---- bits -------------------------------------------------------------- */

static void test_bits(void)
{
	DECLARE_BITMAP(map, 200);	/* 200 bits: 4 longs of 64 */
	unsigned long bit, seen[8];
	int n = 0;

	CHECK_EQ(BITS_PER_LONG, 64);
#if BITS_PER_LONG != 64
	CHECK(0);	/* BITS_PER_LONG must work in #if */
#endif
	CHECK_EQ(BIT(0), 1);
	CHECK(BIT(63) == 0x8000000000000000UL);
	CHECK_EQ(BITS_TO_LONGS(1), 1);
	CHECK_EQ(BITS_TO_LONGS(64), 1);
	CHECK_EQ(BITS_TO_LONGS(65), 2);
	CHECK_EQ(BITS_TO_LONGS(1 << 15), 512);	/* a Bloom filter: 32768 bits */
	CHECK_EQ(sizeof(map), 4 * sizeof(unsigned long));
	CHECK_EQ(ARRAY_SIZE(map), 4);

	memset(map, 0xff, sizeof(map));
	bitmap_zero(map, 200);
	CHECK(!map[0] && !map[1] && !map[2] && !map[3]);
	CHECK_EQ(find_first_bit(map, 200), 200);	/* empty: size */

	/* bits 3, 64, 65, 130, 199: words 0, 1, 1, 2, 3 */
	__set_bit(3, map);
	set_bit(64, map);
	__set_bit(65, map);
	set_bit(130, map);
	__set_bit(199, map);
	CHECK(map[0] == 0x8UL);
	CHECK(map[1] == 0x3UL);
	CHECK(map[2] == 0x4UL);		/* 130 - 128 = bit 2 */
	CHECK(map[3] == 1UL << 7);	/* 199 - 192 = bit 7 */
	CHECK(test_bit(3, map) && test_bit(64, map) && test_bit(199, map));
	CHECK(!test_bit(4, map) && !test_bit(63, map) && !test_bit(198, map));

	CHECK_EQ(find_first_bit(map, 200), 3);
	CHECK_EQ(find_next_bit(map, 200, 3), 3);	/* offset itself counts */
	CHECK_EQ(find_next_bit(map, 200, 4), 64);	/* across the word boundary */
	CHECK_EQ(find_next_bit(map, 200, 66), 130);	/* skips word 1's rest */
	CHECK_EQ(find_next_bit(map, 200, 131), 199);
	CHECK_EQ(find_next_bit(map, 200, 200), 200);	/* offset == size */
	CHECK_EQ(find_next_bit(map, 200, 500), 200);	/* offset past size */
	/* size 199 excludes bit 199, in the middle of the last word */
	CHECK_EQ(find_next_bit(map, 199, 131), 199);
	/* size 100 stops inside word 1: 130 is beyond it */
	CHECK_EQ(find_next_bit(map, 100, 66), 100);

	for_each_set_bit(bit, map, 200)
		if (n < 8)
			seen[n++] = bit;
	CHECK_EQ(n, 5);
	CHECK(seen[0] == 3 && seen[1] == 64 && seen[2] == 65 && seen[3] == 130 && seen[4] == 199);

	__clear_bit(64, map);
	clear_bit(199, map);
	CHECK(map[1] == 0x2UL && map[3] == 0);
	n = 0;
	for_each_set_bit(bit, map, 200)
		n++;
	CHECK_EQ(n, 3);
	/* a tail bit past size in the last word is ignored */
	__set_bit(250, map);
	CHECK_EQ(find_next_bit(map, 200, 131), 200);
}

static void test_compiler(void)
{
	long v = 5;
	int arr[7];

	WRITE_ONCE(v, 9);
	CHECK_EQ(READ_ONCE(v), 9);
	CHECK_EQ(likely(7), 1);		/* !!(7) */
	CHECK_EQ(unlikely(0), 0);
	CHECK_EQ(ARRAY_SIZE(arr), 7);
	CHECK_EQ(BUILD_BUG_ON_ZERO(0), 0);
	BUILD_BUG_ON(sizeof(long) != 8);
	(void)arr;
}

/* ---- warnings ---------------------------------------------------------- */

/* Run fn with stderr going to a file; returns what it printed. */
static void capture_stderr(void (*fn)(struct aw_kernel *), struct aw_kernel *k, char *out, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn(k);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, len - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

static int once_line, always_line, once_values[3], always_values[2];

/* three hits at one _ONCE site (one false), two at a WARN_ON site */
static void warn_sites(struct aw_kernel *k)
{
	for (int i = 0; i < 3; i++) {
		int x = i == 1 ? 0 : i + 1;	/* 1, 0, 3 */

		once_line = __LINE__ + 1;
		once_values[i] = VM_WARN_ON_ONCE(x > 0);
	}
	for (int i = 0; i < 2; i++) {
		always_line = __LINE__ + 1;
		always_values[i] = VM_WARN_ON(k->nr_nodes != 99);
	}
}

static void test_warn(void)
{
	struct aw_config cfg;
	struct aw_kernel *k, *k2;
	char out[1024], expect[1024];
	int taken = 0;

	aw_config_default(&cfg);
	k = aw_kernel_create(&cfg, 0, 0, 0);
	k2 = aw_kernel_create(&cfg, 0, 0, 0);
	CHECK(k && k2);
	if (!k || !k2)
		return;
	CHECK_EQ(aw_warn_count(&k->warn), 0);
	CHECK_STR(k->warn.first, "");

	/* false: value 0, nothing counted; true: value 1 even for a non-bool */
	CHECK_EQ(VM_WARN_ON_ONCE(k->nr_nodes == 0), 0);
	CHECK_EQ(aw_warn_count(&k->warn), 0);
	if (VM_WARN_ON_ONCE(0))
		taken = 1;
	CHECK_EQ(taken, 0);

	capture_stderr(warn_sites, k, out, sizeof(out));
	/* values 1, 0, 1 at the _ONCE site: two hits; 1, 1 at the WARN_ON site */
	CHECK(once_values[0] == 1 && once_values[1] == 0 && once_values[2] == 1);
	CHECK(always_values[0] == 1 && always_values[1] == 1);
	/* 2 + 2 hits counted; printed: the _ONCE site once, the WARN_ON site twice */
	CHECK_EQ(aw_warn_count(&k->warn), 4);
	snprintf(expect, sizeof(expect),
		 "agewalk: WARNING: %s:%d: x > 0\n"
		 "agewalk: WARNING: %s:%d: k->nr_nodes != 99\n"
		 "agewalk: WARNING: %s:%d: k->nr_nodes != 99\n",
		 __FILE__, once_line, __FILE__, always_line, __FILE__, always_line);
	CHECK_STR(out, expect);
	snprintf(expect, sizeof(expect), "%s:%d: x > 0", __FILE__, once_line);
	CHECK_STR(k->warn.first, expect);
	/* only the _ONCE site takes a slot */
	CHECK_EQ(k->warn.nr_sites, 1);
	/* __FILE__ is tree-relative (-fmacro-prefix-map): no build path in messages */
	CHECK_STR(__FILE__, "tests/unit/test_shim.c");

	/* a second run on the same kernel: the _ONCE site stays quiet */
	capture_stderr(warn_sites, k, out, sizeof(out));
	snprintf(expect, sizeof(expect),
		 "agewalk: WARNING: %s:%d: k->nr_nodes != 99\n"
		 "agewalk: WARNING: %s:%d: k->nr_nodes != 99\n",
		 __FILE__, always_line, __FILE__, always_line);
	CHECK_STR(out, expect);
	CHECK_EQ(aw_warn_count(&k->warn), 8);

	/* the state is per kernel: k2 prints the _ONCE site again */
	capture_stderr(warn_sites, k2, out, sizeof(out));
	CHECK(!strncmp(out, "agewalk: WARNING: ", 18) && strstr(out, ": x > 0\n"));
	CHECK_EQ(aw_warn_count(&k2->warn), 4);
	aw_kernel_destroy(k);
	aw_kernel_destroy(k2);
}

/* More sites than the table holds: the overflow sites print every hit. */
static void test_warn_sites_bound(void)
{
	struct aw_warn w = { 0 };
	char out[256];
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	for (int line = 1; line <= AW_WARN_SITES + 1; line++)
		aw_warn(&w, "c", "f.c", line);
	aw_warn(&w, "c", "f.c", AW_WARN_SITES);		/* tracked: quiet */
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	CHECK_EQ(w.count, AW_WARN_SITES + 2);
	CHECK_EQ(w.nr_sites, AW_WARN_SITES);
	/* 33 prints so far, one per line; site 33 hit again prints again */
	fseek(tmp, 0, SEEK_SET);
	n = 0;
	while (fgets(out, sizeof(out), tmp))
		n++;
	CHECK_EQ(n, AW_WARN_SITES + 1);
	fclose(tmp);
	CHECK_STR(w.first, "f.c:1: c");
}

/* abort set (fuzzing): the message, then SIGABRT. */
static void test_warn_abort(void)
{
	int fds[2], status = 0;
	char out[256] = "";
	ssize_t n;
	pid_t pid;

	CHECK_EQ(pipe(fds), 0);
	pid = fork();
	if (pid == 0) {
		struct aw_warn w = { .abort = true };

		dup2(fds[1], 2);
		aw_warn(&w, "pmd_none(*pmd)", "src/sim/walk.c", 42);
		_exit(0);	/* not reached if it aborted */
	}
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
	CHECK_STR(out, "agewalk: WARNING: src/sim/walk.c:42: pmd_none(*pmd)\n");
}

int main(void)
{
	RUN(test_minmax);
	RUN(test_rounding);
	RUN(test_bits);
	RUN(test_compiler);
	RUN(test_warn);
	RUN(test_warn_sites_bound);
	RUN(test_warn_abort);
	return aw_test_report("test_shim");
}
