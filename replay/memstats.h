/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a replay's memory went (--mem-stats), measured from glibc's
 * allocator and the kernel's counters, not estimated.
 */
#ifndef AW_MEMSTATS_H
#define AW_MEMSTATS_H

#include <stdint.h>
#include <stdio.h>

struct aw_memstats {
	uint64_t peak_rss;	/* VmHWM of this process */
	uint64_t reader_heap;	/* the main arena's peak: reader, libtracecmd, the process table */
	uint64_t model_heap;	/* the peak of the arenas of other threads: the model's */
	uint64_t mmapped;	/* blocks malloc mapped on their own, at the end */
	int nr_heaps;
};

/* Fill m; -1 if the allocator's statistics cannot be read. */
int aw_memstats_read(struct aw_memstats *m);

/* One line: "memory: peak RSS ... MiB; ..." (threads: the pipeline's, 1 or 2). */
void aw_memstats_print(FILE *f, const struct aw_memstats *m, int threads, uint64_t reopens);

#endif /* AW_MEMSTATS_H */
