// SPDX-License-Identifier: GPL-2.0-only
/*
 * What touched or moved memory: exceptions:page_fault_user (an access the
 * trace shows), damon:damon_aggregated (regions DAMON saw accessed) and
 * migrations (move_pages, migrate_pages, migrate:mm_migrate_pages), which
 * carry no addresses and are only counted.
 */
#include "tev.h"

/* page_fault_user: error_code bit 1 is X86_PF_WRITE (arch/x86/include/asm/trap_pf.h) */
int aw_on_fault(const struct aw_tctx *c)
{
	return aw_ing_fault(c->in, c->tid, aw_tf(c, 0), aw_tf(c, 1) & 2, c->cpu);
}

int aw_on_migration(const struct aw_tctx *c)
{
	c->in->st->unreplayable_migrations++;
	return 0;
}

int aw_on_damon(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	int32_t pid;

	/* DAMON names targets by index: OUT.damon_targets maps them to pids */
	if (aw_tidmap_get(&in->damon_targets, (uint32_t)aw_tf(c, 0), &pid)) {
		aw_trace_skipped(in->st, "damon_aggregated (no target map)");
		return 0;
	}
	in->st->damon_regions++;
	return aw_ing_damon(in, (uint32_t)pid, aw_tf(c, 1), aw_tf(c, 2), aw_tf32(c, 3), c->cpu);
}
