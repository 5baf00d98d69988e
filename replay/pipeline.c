// SPDX-License-Identifier: GPL-2.0-only
/*
 * Producer and consumer of one event stream (pipeline.h).  The queue is a
 * ring of batches so that the lock is taken once per AW_PL_BATCH events,
 * not per event: at a million events a second a per-event handoff would
 * cost more than the conversion it overlaps.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

static void apply(struct aw_pipeline *p, const struct aw_event *ev, uint32_t line)
{
	/* after a finding (without --keep-going) or an error the rest is read and dropped */
	if (!p->failed && aw_lockstep_step(p->ls, ev, line) < 0)
		p->failed = true;
}

static void *consumer(void *arg)
{
	struct aw_pipeline *p = arg;

	for (;;) {
		struct aw_pl_batch *b;

		pthread_mutex_lock(&p->mu);
		while (!p->count && !p->closed)
			pthread_cond_wait(&p->not_empty, &p->mu);
		if (!p->count) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		b = &p->ring[p->head];
		pthread_mutex_unlock(&p->mu);
		for (int i = 0; i < b->n; i++)
			apply(p, &b->ev[i], b->line[i]);
		pthread_mutex_lock(&p->mu);
		p->head = (p->head + 1) % AW_PL_BATCHES;
		p->count--;
		pthread_cond_signal(&p->not_full);
		pthread_mutex_unlock(&p->mu);
	}
	return NULL;
}

int aw_pipeline_start(struct aw_pipeline *p, struct aw_lockstep *ls, int threads)
{
	memset(p, 0, sizeof(*p));
	p->ls = ls;
	p->threads = threads > 1 ? 2 : 1;
	if (p->threads == 1)
		return 0;
	p->ring = calloc(AW_PL_BATCHES, sizeof(*p->ring));
	if (!p->ring)
		return -1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->not_empty, NULL);
	pthread_cond_init(&p->not_full, NULL);
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
	/* fill == (head + count) % AW_PL_BATCHES always: the consumer's moves keep the sum */
	p->fill = (p->fill + 1) % AW_PL_BATCHES;
	while (p->count == AW_PL_BATCHES)
		pthread_cond_wait(&p->not_full, &p->mu);
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
	if (p->started) {
		pthread_mutex_lock(&p->mu);
		if (p->ring[p->fill].n)
			p->count++;
		p->closed = true;
		pthread_cond_signal(&p->not_empty);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->thread, NULL);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->not_empty);
		pthread_cond_destroy(&p->not_full);
		p->started = false;
	}
	free(p->ring);
	p->ring = NULL;
	if (!p->failed)
		aw_lockstep_end(p->ls);
	return p->failed ? -1 : 0;
}
