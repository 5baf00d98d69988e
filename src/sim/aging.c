// SPDX-License-Identifier: GPL-2.0-only
/*
 * Aging: one pass of try_to_inc_max_seq() (mm/vmscan.c), atomic or split
 * into begin / step / end so that eviction can run in the middle of an
 * iteration (the window in which a look-around mark can land in a filter
 * that the next iteration resets).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"
#include "warn.h"

void aw_walk_init(struct lru_gen_mm_walk *walk, struct aw_kernel *k)
{
	memset(walk, 0, sizeof(*walk));
	walk->k = k;
	walk->pass_idx = -1;
}

static struct aw_pass *walk_pass(struct lru_gen_mm_walk *walk)
{
	if (walk->pass_idx < 0)
		return NULL;
	return &walk->k->node_stats[walk->lruvec->nid].passes[walk->pass_idx];
}

/*
 * The seed's per-walk accounting (v3 1/4, in try_to_inc_max_seq() after
 * walk_mm()): computed for every variant so that they compare on equal terms.
 */
static void account_walk(struct lru_gen_mm_walk *walk, struct mm_struct *mm, int err, bool forced)
{
	struct aw_pass *pass = walk_pass(walk);

	if (walk->mm_stats[MM_LEAF_TOTAL]) {
		walk->mm_stats[MM_WALK_TOTAL]++;
		if (walk->mm_stats[MM_LEAF_ASSOCIATED] == 0) {
			walk->mm_stats[MM_WALK_EMPTY]++;
			walk->mm_stats[MM_LEAF_EMPTY_WALKS] += walk->mm_stats[MM_LEAF_TOTAL];
		}
	}
	/*
	 * The RFC's empty mark (docs/oracles.md): a completed walk sets
	 * or clears this node's mark from its own result and restarts the
	 * node's clock.  A walk that never ran (trylock failed, seq moved on)
	 * leaves both alone -- unless the planted bug marks it anyway.
	 */
	if (walk->k->features & AW_FEAT_EMPTYMAP) {
		int nid = walk->lruvec->nid;
		int clock = AW_BUG(walk->k, AW_BUG_EMPTYMAP_SHARED_COUNTER) ? 0 : nid;
		bool failed_trylock = err == -EBUSY;

		/* empty=associated: nothing of this lruvec; empty=no-leaves: nothing at all */
		int stat = walk->k->cfg.empty.pred == AW_EMPTY_NO_LEAVES ? MM_LEAF_TOTAL : MM_LEAF_ASSOCIATED;

		if (!err || (failed_trylock && AW_BUG(walk->k, AW_BUG_EMPTYMAP_MARK_ON_FAILED_TRYLOCK))) {
			if (err || walk->mm_stats[stat] == 0)
				mm->lru_gen.empty_mask |= 1U << nid;
			else
				mm->lru_gen.empty_mask &= ~(1U << nid);
			mm->lru_gen.empty_count[clock] = 0;
			mm->lru_gen.empty_seq[clock] = walk->seq;
		}
	}
	trace_mm_vmscan_lru_gen_walk(walk->k, walk, mm, err);
	if (pass) {
		pass->walks++;
		if (forced) {
			pass->forced_walks++;
			if (!pass->forced)
				pass->sticky_forced_walks++;
		}
	}
}

/*
 * One turn of the do-while loop in try_to_inc_max_seq(): take the next mm
 * and walk it.  Returns true once this walker has no mm left; *last tells
 * whether it was the one that finished the iteration.
 */
static bool aging_turn(struct lru_gen_mm_walk *walk, bool *last)
{
	struct mm_struct *mm = walk->iter;
	int err;

	*last = iterate_mm_list(walk, &mm);
	walk->iter = mm;
	if (!mm)
		return true;
	if (aw_empty_skip_after(walk, mm))
		return false;
	err = walk_mm(mm, walk);
	account_walk(walk, mm, err, walk->force_scan);
	return false;
}

static void aging_finish(struct aw_kernel *k, struct lru_gen_mm_walk *walk, bool success, int swappiness)
{
	if (success) {
		success = inc_max_seq(k, walk->lruvec, walk->seq, swappiness);
		WARN_ON_ONCE(!success);
	}
	if (walk->batched)	/* only with the planted bug: the batch waited */
		reset_batch_size(walk);
	trace_lru_gen_aging_done(k, walk->lruvec, success);
	if (walk->pass_idx >= 0)
		aw_pass_end(k, walk->lruvec, walk->pass_idx, success);
}

/*
 * mm/vmscan.c: try_to_inc_max_seq().  The walk is on the stack
 * (set_mm_walk() never fails, should_walk_mmu() is true); the model adds
 * the seed's per-walk accounting after walk_mm() and records the pass.
 */
bool try_to_inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq,
			int swappiness, bool force_scan)
{
	bool success;
	struct lru_gen_mm_walk walk_struct;
	struct lru_gen_mm_walk *walk = &walk_struct;
	struct mm_struct *mm = NULL;
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	struct lru_gen_mm_state *mm_state = &lruvec->mm_state;
	int idx;

	VM_WARN_ON_ONCE(seq > READ_ONCE(lrugen->max_seq));

	/* see the comment in iterate_mm_list() */
	if (seq <= READ_ONCE(mm_state->seq))
		return false;

	idx = aw_pass_begin(k, lruvec, force_scan, seq);
	aw_walk_init(walk, k);
	walk->lruvec = lruvec;
	walk->seq = seq;
	walk->swappiness = swappiness;
	walk->force_scan = force_scan;
	walk->pass_idx = idx;

	do {
		success = iterate_mm_list(walk, &mm);
		if (mm && !aw_empty_skip_after(walk, mm)) {
			int err = walk_mm(mm, walk);

			account_walk(walk, mm, err, walk->force_scan);
		}
	} while (mm);

	aging_finish(k, walk, success, swappiness);	/* done: inc_max_seq() */
	return success && lrugen->max_seq == seq + 1;
}

/* Split aging: start an iteration for the current max_seq; walk nothing yet. */
int aw_age_begin(struct aw_kernel *k, struct lruvec *lruvec, int swappiness, bool force_scan)
{
	struct lru_gen_mm_walk *walk;
	unsigned long seq = lruvec->lrugen.max_seq;

	if (k->open_walk[lruvec->index])
		return -EBUSY;
	if (seq <= lruvec->mm_state.seq)
		return 0;	/* nothing to do, as try_to_inc_max_seq() would say */
	walk = malloc(sizeof(*walk));
	if (!walk)
		return -ENOMEM;
	aw_walk_init(walk, k);
	walk->lruvec = lruvec;
	walk->seq = seq;
	walk->swappiness = swappiness;
	walk->force_scan = force_scan;
	walk->pass_idx = aw_pass_begin(k, lruvec, force_scan, seq);
	k->open_walk[lruvec->index] = walk;
	return 0;
}

/* Walk the next mm of the open iteration; finish the pass when none is left. */
int aw_age_step(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct lru_gen_mm_walk *walk = k->open_walk[lruvec->index];
	bool last;

	if (!walk)
		return -ENOENT;
	if (!aging_turn(walk, &last))
		return 0;
	aging_finish(k, walk, last, walk->swappiness);
	k->open_walk[lruvec->index] = NULL;
	free(walk);
	return 1;
}

int aw_age_end(struct aw_kernel *k, struct lruvec *lruvec)
{
	int ret;

	if (!k->open_walk[lruvec->index])
		return -ENOENT;
	while ((ret = aw_age_step(k, lruvec)) == 0)
		;
	return ret < 0 ? ret : 0;
}

int aw_pass_begin(struct aw_kernel *k, struct lruvec *lruvec, bool force_scan, unsigned long seq)
{
	struct aw_node_stats *ns = &k->node_stats[lruvec->nid];
	struct aw_pass *p;

	if (ns->nr_passes == ns->cap_passes) {
		int cap = ns->cap_passes ? ns->cap_passes * 2 : 64;
		struct aw_pass *np = realloc(ns->passes, cap * sizeof(*np));

		if (!np)
			return -1;
		ns->passes = np;
		ns->cap_passes = cap;
	}
	p = &ns->passes[ns->nr_passes];
	memset(p, 0, sizeof(*p));
	p->pass = ns->nr_passes + 1;
	p->node = lruvec->nid;
	p->memcg = lruvec->memcg;
	p->forced = force_scan;
	p->seq = seq;
	p->event = k->event_index;
	/* try_to_inc_max_seq() from get_nr_to_scan(), under try_charge_memcg() */
	p->reclaim = lruvec->memcg < k->nr_memcgs && k->memcg[lruvec->memcg].reclaiming;
	/* what follows the pass until the next one on the node, for the report */
	p->evicted_at = ns->evicted;
	p->refaults_at = ns->refaults;
	return ns->nr_passes++;
}

void aw_pass_add_walk(struct aw_kernel *k, struct lru_gen_mm_walk *walk)
{
	struct aw_pass *p = walk->pass_idx >= 0 ?
		&k->node_stats[walk->lruvec->nid].passes[walk->pass_idx] : NULL;

	if (!p)
		return;
	for (int i = 0; i < NR_MM_STATS; i++)
		p->mm_stats[i] += walk->mm_stats[i];
	for (int i = 0; i < NR_AW_WALK_STATS; i++)
		p->aw_stats[i] += walk->aw_stats[i];
}

static int region_push(struct aw_region_pass **arr, int *nr, int *cap, const struct aw_region_pass *rp)
{
	if (*nr == *cap) {
		int ncap = *cap ? *cap * 2 : 32;
		struct aw_region_pass *a = realloc(*arr, ncap * sizeof(*a));

		if (!a)
			return -1;
		*arr = a;
		*cap = ncap;
	}
	(*arr)[(*nr)++] = *rp;
	return 0;
}

/* Close a pass: record each region's share of it on this node. */
void aw_pass_end(struct aw_kernel *k, struct lruvec *lruvec, int pass_idx, bool success)
{
	struct aw_pass *p = &k->node_stats[lruvec->nid].passes[pass_idx];
	int nid = lruvec->nid;

	p->success = success;
	for (int r = 0; r < k->nr_regions; r++) {
		struct aw_region *reg = &k->regions[r];
		struct aw_region_acc *acc = &reg->acc[nid];
		struct aw_region_pass rp = {
			.pass = p->pass, .node = nid,
			.leaf_total = acc->leaf_total, .young = acc->young,
			.pmd_read = acc->pmd_read, .pud_skipped = acc->pud_skipped,
			.resident = reg->resident,
		};

		region_push(&reg->passes, &reg->nr_passes, &reg->cap_passes, &rp);
		memset(acc, 0, sizeof(*acc));
	}
}

/* A residency sample of one region (the `sample` event). */
int aw_region_sample(struct aw_kernel *k, int region_id)
{
	struct aw_region *reg;
	struct aw_region_pass rp = { 0 };

	if (region_id < 1 || region_id > k->nr_regions)
		return -1;
	reg = &k->regions[region_id - 1];
	rp.pass = (int)k->event_index;
	rp.node = -1;
	rp.resident = reg->resident;
	return region_push(&reg->samples, &reg->nr_samples, &reg->cap_samples, &rp);
}
