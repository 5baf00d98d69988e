/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lockstep engine fed as a stream: events pushed one at a time by
 * whatever reads them (a trace.dat, a .awpb) and applied in that order,
 * either inline (1 thread) or by a consumer thread behind a bounded queue
 * of event batches (2 threads: reading and converting overlap with the
 * simulation).  Order is the only thing shared, so both give the same
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
};

struct aw_pipeline {
	struct aw_lockstep *ls;
	int threads;
	bool failed;			/* a step returned -1: ls->err says why */
	/* 2 threads: the ring, the producer's open batch is ring[tail] and not yet counted */
	struct aw_pl_batch *ring;
	unsigned int head, count, fill;
	bool closed, started;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t not_empty, not_full;
};

/* ls must have begun (aw_lockstep_begin()).  threads: 1 or 2.  0 or -1. */
int aw_pipeline_start(struct aw_pipeline *p, struct aw_lockstep *ls, int threads);
/* The next event.  0, or -1 when out of memory (a failed step is not an error here). */
int aw_pipeline_push(struct aw_pipeline *p, const struct aw_event *ev, uint32_t line);
/*
 * The end of the stream: everything queued is applied, then the
 * end-of-stream checks (aw_lockstep_end()).  0, or -1 if a step failed
 * (ls->err).  Also the way to stop after the producer failed.
 */
int aw_pipeline_finish(struct aw_pipeline *p);

#endif /* AW_PIPELINE_H */
