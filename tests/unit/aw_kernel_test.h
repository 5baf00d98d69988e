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

/* a one-node machine in one THP mode, with swap_bytes of swap */
static inline struct aw_kernel *aw_test_kernel(enum aw_thp_mode thp, uint64_t swap_bytes,
					       unsigned int features)
{
	struct aw_config cfg;

	aw_config_default(&cfg);
	cfg.nr_nodes = 1;
	cfg.swap_bytes = swap_bytes;
	cfg.thp = thp;
	cfg.thp_modes = 1u << thp;
	return aw_kernel_create(&cfg, 0, features, 0);
}

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
