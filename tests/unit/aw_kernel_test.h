/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the unit tests that drive the model with events:
 * apply one event (printing the model's error), age node 0, read a pass.
 */
#ifndef AW_KERNEL_TEST_H
#define AW_KERNEL_TEST_H

#include <stdbool.h>

#include "aw_test.h"
#include "event.h"
#include "kernel.h"
#include "scenario.h"

static inline int apply(struct aw_kernel *k, struct aw_event ev)
{
	int r = aw_kernel_apply(k, &ev);

	if (r)
		fprintf(stderr, "event %u failed: %s\n", ev.kind, k->err);
	return r;
}

/* one aging pass of node 0, root memcg, default swappiness */
static inline void ev_age(struct aw_kernel *k, bool force)
{
	CHECK_EQ(apply(k, (struct aw_event){ .kind = AW_EV_AGE, .node = 0, .memcg = 0,
					     .swappiness = AW_SWAPPINESS_DEFAULT,
					     .flags = force ? AW_AGE_FORCE : 0 }), 0);
}

/* node 0's pass i, or NULL (and a failed check) if there is none */
static inline const struct aw_pass *pass_of(struct aw_kernel *k, int i)
{
	CHECK(k->node_stats[0].nr_passes > i);
	if (k->node_stats[0].nr_passes <= i)
		return NULL;
	return &k->node_stats[0].passes[i];
}

#endif /* AW_KERNEL_TEST_H */
