/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lockstep engine fed as a stream: events pushed one at a time by
 * whatever reads them (a trace.dat, a .awpb) and applied in that order,
 * either inline (1 thread) or by a consumer thread behind a bounded queue
 * of event batches (2 threads: reading and converting overlap with the
 * simulation), or with the variants split over two consumer threads
 * (3 threads).  Order is the only thing shared, so all give the same
 * bytes out.  Memory is the queue's, AW_PL_BATCHES x AW_PL_BATCH events,
 * whatever the stream's length.
 */
#ifndef AW_PIPELINE_H
#define AW_PIPELINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "lockstep.h"

#define AW_PL_BATCH	4096
#define AW_PL_BATCHES	8

struct aw_pl_batch {
	int n;
	struct aw_event ev[AW_PL_BATCH];
	uint32_t line[AW_PL_BATCH];
	struct aw_lockstep_base base;	/* split: lane 0's records of these events for lane 1 */
	struct aw_lockstep_lane stop0;	/* split: whether and where lane 0 had stopped after them */
};

/*
 * 3 threads ("split", aw_lockstep_can_split()): the reader fills a batch,
 * lane 0 (variant 0) steps it, then lane 1 (the other variants) steps it
 * against lane 0's records; a batch is free again once lane 1 is done.
 * The lanes' findings are merged at the end (aw_lockstep_join()).
 */
struct aw_pipeline {
	struct aw_lockstep *ls;
	int threads;			/* 1, 2, or 3 (split) */
	bool failed;			/* a step returned -1: ls->err says why */
	bool retry;			/* split: stopped where one thread would not; run again on one */
	/* 2 threads: the ring, the producer's open batch is ring[tail] and not yet counted */
	struct aw_pl_batch *ring;
	unsigned int head, count, fill;
	/* split: lane 1's next batch, batches lane 0 is done with, batches not yet free */
	unsigned int head1, count1, used;
	bool done0;			/* lane 0 has stepped everything */
	struct aw_lockstep_lane lane[2];
	bool closed, started;
	/* CPU time, ns, of the producer (up to the end of the stream) and of each consumer thread */
	uint64_t cpu_ns[3];
	pthread_t thread, thread1;
	pthread_mutex_t mu;
	pthread_cond_t not_empty, not_full, not_empty1;
};

/*
 * ls must have begun (aw_lockstep_begin()).  threads: 1, 2, or 3 (the
 * variants split over two threads where ls allows, else 2).  0 or -1.
 */
int aw_pipeline_start(struct aw_pipeline *p, struct aw_lockstep *ls, int threads);
/* The next event.  0, or -1 when out of memory (a failed step is not an error here). */
int aw_pipeline_push(struct aw_pipeline *p, const struct aw_event *ev, uint32_t line);
/*
 * The end of the stream: everything queued is applied, then the
 * end-of-stream checks (aw_lockstep_end()).  0, or -1 if a step failed
 * (ls->err).  Also the way to stop after the producer failed.  Split, 1:
 * the run stopped at a finding where the lanes cannot stand as one
 * thread's run would (aw_lockstep_join()): run the stream again with
 * fewer threads for the same bytes out.
 */
int aw_pipeline_finish(struct aw_pipeline *p);

#endif /* AW_PIPELINE_H */
