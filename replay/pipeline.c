// SPDX-License-Identifier: GPL-2.0-only
/*
 * Producer and consumer of one event stream (pipeline.h).  The queue is a
 * ring of batches so that the lock is taken once per AW_PL_BATCH events,
 * not per event: at a million events a second a per-event handoff would
 * cost more than the conversion it overlaps.  For the same reason the
 * split lanes hand each other whole batches: lane 1 steps a batch once
 * lane 0 has stepped all of it, with lane 0's records of it beside.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipeline.h"

/* The calling thread's CPU time, ns (--mem-stats: where the replay's CPU went). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static void apply(struct aw_pipeline *p, const struct aw_event *ev, uint32_t line)
{
	/* after a finding (without --keep-going) or an error the rest is read and dropped */
	if (!p->failed && aw_lockstep_step(p->ls, ev, line) < 0)
		p->failed = true;
}

/*
 * The next batch at the ring's head once the producer has filled one, or
 * NULL once it has closed the ring and every batch is taken; returns with
 * the lock dropped.  The one consumer and lane 0 wait the same way.
 */
static struct aw_pl_batch *wait_head(struct aw_pipeline *p)
{
	struct aw_pl_batch *b = NULL;

	pthread_mutex_lock(&p->mu);
	while (!p->count && !p->closed)
		pthread_cond_wait(&p->not_empty, &p->mu);
	if (p->count)
		b = &p->ring[p->head];
	pthread_mutex_unlock(&p->mu);
	return b;
}

/*
 * The head batch is done: back to the producer (one consumer), or on to
 * lane 1, which frees it when it is done too.
 */
static void pass_head(struct aw_pipeline *p, bool to_lane1)
{
	pthread_mutex_lock(&p->mu);
	p->head = (p->head + 1) % AW_PL_BATCHES;
	p->count--;
	if (to_lane1) {
		p->count1++;
		pthread_cond_signal(&p->not_empty1);
	} else {
		pthread_cond_signal(&p->not_full);
	}
	pthread_mutex_unlock(&p->mu);
}

static void *consumer(void *arg)
{
	struct aw_pipeline *p = arg;
	struct aw_pl_batch *b;

	while ((b = wait_head(p))) {
		for (int i = 0; i < b->n; i++)
			apply(p, &b->ev[i], b->line[i]);
		pass_head(p, false);
	}
	p->cpu_ns[1] = thread_cpu_ns();
	return NULL;
}

/* Split, lane 0: variant 0 over each batch, then the batch goes to lane 1. */
static void *lane0_main(void *arg)
{
	struct aw_pipeline *p = arg;
	struct aw_pl_batch *b;

	while ((b = wait_head(p))) {
		aw_lockstep_base_reset(&b->base);
		for (int i = 0; i < b->n && !p->lane[0].stopped; i++)
			aw_lockstep_step0(p->ls, &p->lane[0], &b->ev[i], b->line[i], &b->base);
		/* where lane 0 stands after this batch: lane 1 reads this copy, not the live lane */
		b->stop0.stopped = p->lane[0].stopped;
		b->stop0.failed = p->lane[0].failed;
		b->stop0.last_event = p->lane[0].last_event;
		pass_head(p, true);
	}
	/* closed and drained: nothing more can come for lane 1 */
	pthread_mutex_lock(&p->mu);
	p->done0 = true;
	pthread_cond_signal(&p->not_empty1);
	pthread_mutex_unlock(&p->mu);
	p->cpu_ns[1] = thread_cpu_ns();
	return NULL;
}

/* Split, lane 1: the other variants and the cross-variant oracles; frees each batch. */
static void *lane1_main(void *arg)
{
	struct aw_pipeline *p = arg;

	for (;;) {
		struct aw_pl_batch *b;

		pthread_mutex_lock(&p->mu);
		while (!p->count1 && !p->done0)
			pthread_cond_wait(&p->not_empty1, &p->mu);
		if (!p->count1) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		b = &p->ring[p->head1];
		pthread_mutex_unlock(&p->mu);
		/* where lane 0 stopped, if it did by the end of this batch, bounds it (aw_lockstep_step1()) */
		for (int i = 0; i < b->n && !p->lane[1].stopped; i++)
			aw_lockstep_step1(p->ls, &p->lane[1], &b->stop0, &b->ev[i], b->line[i], &b->base);
		pthread_mutex_lock(&p->mu);
		p->head1 = (p->head1 + 1) % AW_PL_BATCHES;
		p->count1--;
		p->used--;
		pthread_cond_signal(&p->not_full);
		pthread_mutex_unlock(&p->mu);
	}
	p->cpu_ns[2] = thread_cpu_ns();
	return NULL;
}

static int start_split(struct aw_pipeline *p)
{
	aw_lockstep_lanes_init(p->ls, &p->lane[0], &p->lane[1]);
	if (pthread_create(&p->thread, NULL, lane0_main, p))
		return -1;
	if (pthread_create(&p->thread1, NULL, lane1_main, p)) {
		/* lane 0 alone would fill the ring: close it and fall back to one consumer */
		pthread_mutex_lock(&p->mu);
		p->closed = true;
		pthread_cond_signal(&p->not_empty);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
		p->closed = false;
		p->done0 = false;
		return -1;
	}
	return 0;
}

int aw_pipeline_start(struct aw_pipeline *p, struct aw_lockstep *ls, int threads)
{
	memset(p, 0, sizeof(*p));
	p->ls = ls;
	p->threads = threads >= 3 && aw_lockstep_can_split(ls) ? 3 : threads > 1 ? 2 : 1;
	if (p->threads == 1)
		return 0;
	p->ring = calloc(AW_PL_BATCHES, sizeof(*p->ring));
	if (!p->ring)
		return -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->not_empty, NULL);
	pthread_cond_init(&p->not_full, NULL);
	pthread_cond_init(&p->not_empty1, NULL);
	if (p->threads == 3 && !start_split(p)) {
		p->started = true;
		return 0;
	}
	p->threads = 2;
	if (pthread_create(&p->thread, NULL, consumer, p)) {
		p->threads = 1;		/* no thread: the same run, inline */
		free(p->ring);
		p->ring = NULL;
		return 0;
	}
	p->started = true;
	return 0;
}

/* The producer's open batch is complete: hand it over, wait for room for the next. */
static void hand_over(struct aw_pipeline *p)
{
	pthread_mutex_lock(&p->mu);
	p->count++;
	pthread_cond_signal(&p->not_empty);
	/*
	 * fill == (head + count) % AW_PL_BATCHES always: the consumer's moves
	 * keep the sum.  Split: the batches not yet free are lane 1's, lane
	 * 0's and this one, and fill == (head1 + used) % AW_PL_BATCHES.
	 */
	p->fill = (p->fill + 1) % AW_PL_BATCHES;
	if (p->threads == 3) {
		p->used++;
		while (p->used == AW_PL_BATCHES)
			pthread_cond_wait(&p->not_full, &p->mu);
	} else {
		while (p->count == AW_PL_BATCHES)
			pthread_cond_wait(&p->not_full, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	p->ring[p->fill].n = 0;
}

int aw_pipeline_push(struct aw_pipeline *p, const struct aw_event *ev, uint32_t line)
{
	struct aw_pl_batch *b;

	if (p->threads == 1) {
		apply(p, ev, line);
		return 0;
	}
	/* the open batch: the slot after the counted ones, the producer's alone */
	b = &p->ring[p->fill];
	b->ev[b->n] = *ev;
	b->line[b->n++] = line;
	if (b->n == AW_PL_BATCH)
		hand_over(p);
	return 0;
}

int aw_pipeline_finish(struct aw_pipeline *p)
{
	p->cpu_ns[0] = thread_cpu_ns();
	if (p->started) {
		pthread_mutex_lock(&p->mu);
		if (p->ring[p->fill].n) {
			p->count++;
			p->used++;
		}
		p->closed = true;
		pthread_cond_signal(&p->not_empty);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
		if (p->threads == 3)
			pthread_join(p->thread1, NULL);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->not_empty);
		pthread_cond_destroy(&p->not_full);
		pthread_cond_destroy(&p->not_empty1);
		p->started = false;
	}
	for (int i = 0; p->ring && i < AW_PL_BATCHES; i++)
		aw_lockstep_base_free(&p->ring[i].base);
	free(p->ring);
	p->ring = NULL;
	if (p->threads == 3) {
		int r = aw_lockstep_join(p->ls, &p->lane[0], &p->lane[1]);

		p->failed = r < 0;
		p->retry = r > 0;
		if (p->retry)
			return 1;
	}
	if (!p->failed)
		aw_lockstep_end(p->ls);
	return p->failed ? -1 : 0;
}
