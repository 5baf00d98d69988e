// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aging-walk cost and memory per resident page (docs/results.md).
 *
 * One process writes a dense 16 GiB anonymous mapping (small pages), then
 * forced aging passes walk all 4 Mi PTEs.  The same run times a reference
 * loop that reads as many 8-byte entries and tests-and-clears one bit in
 * each; the figure that matters is the ratio of the two, measured in one
 * run on one machine.  Memory is the RSS growth per resident simulated page
 * (folio + PTE + lists + tables).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lockstep.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long rss_kib(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
			rss = 0;
		fclose(f);
	}
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

static void apply(struct aw_kernel *k, struct aw_event ev)
{
	if (aw_kernel_apply(k, &ev)) {
		fprintf(stderr, "walk_bench: %s\n", k->err);
		exit(1);
	}
}

static double timed_pass(struct aw_kernel *k)
{
	struct aw_event ev = { .kind = AW_EV_AGE_BEGIN, .swappiness = AW_SWAPPINESS_DEFAULT,
			       .flags = AW_AGE_FORCE };
	double t0;

	apply(k, ev);
	ev.kind = AW_EV_AGE_STEP;
	t0 = now();
	apply(k, ev);		/* takes the mm and walks it */
	t0 = now() - t0;
	apply(k, ev);		/* no mm left: inc_max_seq() */
	return t0;
}

/* The reference: read n 8-byte entries, test-and-clear bit 5 in each. */
static unsigned long reference_loop(uint64_t *e, size_t n, int reps)
{
	unsigned long young = 0;

	for (int r = 0; r < reps; r++) {
		for (size_t i = 0; i < n; i++) {
			if (e[i] & 0x20) {
				e[i] &= ~0x20ULL;
				young++;
			}
		}
		for (size_t i = 0; i < n; i += 7)
			e[i] |= 0x20;	/* some young entries again, like the walk sees */
	}
	return young;
}

int main(int argc, char **argv)
{
	uint64_t gib = argc > 1 ? strtoull(argv[1], NULL, 0) : 16;
	uint64_t len = gib << 30, npages = len / 4096;
	struct aw_config cfg;
	struct aw_kernel *k;
	long rss0, rss1;
	double t0, t_walk_young, t_walk_old, t_ref;
	uint64_t *ref;
	unsigned long T;
	int passes = 3;

	aw_config_default(&cfg);
	cfg.node[0].mem_bytes = len + (1ULL << 30);
	cfg.swap_bytes = 1ULL << 30;
	rss0 = rss_kib();
	k = aw_kernel_create(&cfg, 0, 0, 0);
	apply(k, (struct aw_event){ .kind = AW_EV_PROC, .pid = 1, .flags = AW_PROC_NOLAYOUT });
	apply(k, (struct aw_event){ .kind = AW_EV_MMAP, .pid = 1, .len = len, .addr2 = 0x100000000000ULL,
				    .arg = AW_PROT_DEFAULT });
	apply(k, (struct aw_event){ .kind = AW_EV_ACCESS, .pid = 1, .addr = 0x100000000000ULL, .len = len,
				    .repeat = 1, .flags = AW_ACC_WRITE });
	rss1 = rss_kib();

	/*
	 * Time only the mm walk: split aging takes the mm and walks it in the
	 * first step; the second step finishes the pass (inc_max_seq(), which
	 * sorts the oldest generation and is not the walk's cost).
	 */
	t_walk_young = timed_pass(k);	/* every PTE young after the writes */
	t_walk_old = 0;
	for (int i = 0; i < passes; i++)
		t_walk_old += timed_pass(k);	/* forced passes over old PTEs */
	t_walk_old /= passes;
	T = k->node_stats[0].passes[1].mm_stats[MM_LEAF_TOTAL];

	ref = malloc(npages * sizeof(*ref));
	for (size_t i = 0; i < npages; i++)
		ref[i] = (i << 12) | 0x67;
	t0 = now();
	reference_loop(ref, npages, passes);
	t_ref = (now() - t0) / passes;

	printf("dense anon %llu GiB, %llu PTEs per forced pass (T = %lu)\n",
	       (unsigned long long)gib, (unsigned long long)npages, T);
	printf("walk, all young:  %.3f s  %.1f M entries/s\n", t_walk_young, npages / t_walk_young / 1e6);
	printf("walk, all old:    %.3f s  %.1f M entries/s\n", t_walk_old, npages / t_walk_old / 1e6);
	printf("reference loop:   %.3f s  %.1f M entries/s\n", t_ref, npages / t_ref / 1e6);
	printf("ratio walk(old)/reference: %.2fx   walk(young)/reference: %.2fx\n",
	       t_walk_old / t_ref, t_walk_young / t_ref);
	printf("memory: %.1f bytes per resident 4 KiB page (RSS growth %ld MiB for %llu pages)\n",
	       (rss1 - rss0) * 1024.0 / npages, (rss1 - rss0) / 1024, (unsigned long long)npages);
	free(ref);
	aw_kernel_destroy(k);
	return 0;
}
