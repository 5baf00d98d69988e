/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcg_events.h: a limited memcg's reclaim, event by event.
 *
 * agewalk-exec reads each limited memcg's memory.stat after every event
 * and keeps the differences (src/lab/exec_memstat.c); the model keeps the
 * same record of itself, so that `agewalk compare` can set the two side
 * by side event by event and name the first event where a kernel's
 * reclaim parts from the model's -- a total says only that it did.
 */
#ifndef AW_MEMCG_EVENTS_H
#define AW_MEMCG_EVENTS_H

#include <stdint.h>

/* The memory.stat counters the model has (memcontrol.c names). */
struct aw_memcg_stat {
	unsigned long pgsteal;			/* pages reclaimed from the memcg's lruvecs */
	unsigned long workingset_refault[2];	/* [anon, file]: what lru_gen_refault() counted */
	unsigned long pgmajfault;		/* swap-ins and re-reads of evicted pages */
};

#define AW_MCE_GENS	16	/* generations kept per record: 4 per node, 4 nodes */

/* One event's differences for one memcg, and its generations after it. */
struct aw_memcg_event {
	uint64_t event;
	int memcg;
	struct aw_memcg_stat d;
	int nr_gens;
	unsigned long gen[AW_MCE_GENS][4];	/* node, seq, anon pages, file pages */
};

struct aw_kernel;

/*
 * After an event: a record for each memcg whose counters moved, when the
 * scenario limits a memcg (no limit, no reclaim to follow: no records).
 * Returns 0, or -1 when out of memory (the record is lost, nothing else).
 */
int aw_memcg_events_record(struct aw_kernel *k);
void aw_memcg_events_free(struct aw_kernel *k);

#endif
