// SPDX-License-Identifier: GPL-2.0-only
/*
 * MGLRU aging as recorded (vmscan:mm_vmscan_lru_gen_walk, one record per
 * mm walked by walk_mm() in try_to_inc_max_seq()): the records of one
 * (nid, seq) are one aging pass, replayed as one AGE event of that node.
 */
#include <stdlib.h>
#include <string.h>

#include "tev.h"

/*
 * The event carries no force flag.  A forced pass walks every mm on the
 * list, a normal one only those that ran since the node's last pass, so a
 * group with more walks than processes that ran was forced; the replayed
 * AGE event is marked so once the group is complete.
 */
int aw_lru_gen_close_group(struct aw_ingest *in, int nid)
{
	struct aw_recorded_pass *rp;

	if (!in->seen_walk[nid])
		return 0;
	rp = &in->st->recorded[in->group_index[nid]];
	rp->forced = rp->walks > rp->ran;
	return rp->forced ? aw_ing_group_forced(in, nid) : aw_ing_group_done(in, nid);
}

/* A new (nid, seq): the previous group closes, this one opens with its AGE event. */
static int open_group(struct aw_ingest *in, uint64_t nid, uint64_t seq)
{
	struct aw_trace_stats *st = in->st;
	struct aw_recorded_pass *rp;
	uint32_t ran = 0;

	if (aw_lru_gen_close_group(in, (int)nid))
		return -1;
	if (st->nr_recorded == st->cap_recorded) {
		int cap = st->cap_recorded ? st->cap_recorded * 2 : 64;
		void *a = realloc(st->recorded, cap * sizeof(*st->recorded));

		if (!a)
			return -1;
		st->recorded = a;
		st->cap_recorded = cap;
	}
	for (uint32_t i = 0; i < in->nr_procs; i++)
		ran += in->procs[i].alive && (in->procs[i].ran_nodes >> nid & 1);
	rp = &st->recorded[st->nr_recorded];
	memset(rp, 0, sizeof(*rp));
	rp->nid = (uint32_t)nid;
	rp->seq = seq;
	rp->ran = ran;
	in->group_index[nid] = st->nr_recorded++;
	in->seen_walk[nid] = true;
	in->last_walk_seq[nid] = seq;
	/* aw_ing_aging() may emit re-touches first: its AGE opens the group */
	aw_ing_capture_age(in, (int)nid);
	return aw_ing_aging(in, (int)nid, false);
}

/* mm_vmscan_lru_gen_walk: the kernel aged; replay one pass per (nid, seq). */
int aw_on_lru_gen_walk(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	uint64_t nid = aw_tf(c, 0), seq = aw_tf(c, 1);
	struct aw_recorded_pass *rp;

	in->st->recorded_walks++;
	if (nid >= (uint64_t)in->sc->cfg.nr_nodes)
		return 0;
	if ((!in->seen_walk[nid] || in->last_walk_seq[nid] != seq) && open_group(in, nid, seq))
		return -1;
	rp = &in->st->recorded[in->group_index[nid]];
	/* more walks than processes that ran: forced, whatever follows */
	if (++rp->walks == rp->ran + 1 && aw_ing_group_forced(in, (int)nid))
		return -1;
	rp->leaf_total += aw_tf(c, 2);
	rp->leaf_associated += aw_tf(c, 3);
	rp->empty += aw_tf(c, 4) != 0;
	rp->pud_skipped += aw_tf(c, 5);
	return 0;
}
