/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reclaim loop of mm/vmscan.c as kernel text (a fragment
 * ktext_glue.inc.c includes; issue 30): the memcg reclaim of one lruvec at
 * a priority, lru_gen_shrink_lruvec() with everything below it --
 * 6.12's try_to_shrink_lruvec(), get_nr_to_scan(), should_run_aging(),
 * should_abort_scan(), get_swappiness(), 6.1's single loop with its own
 * get_nr_to_scan() and should_abort_scan() -- and the debugfs '+' command's
 * run_aging() with its -EINVAL and -ERANGE refusals.
 *
 * The aging those run is the text's own try_to_inc_max_seq(); so that the
 * host records those passes as it records the model's (the pass figures,
 * the report), tools/ktext-extract routes the calls after its definition
 * through aw_pass_hook_begin()/_end(), which tell the host while an entry
 * of this file runs (kt->aw_record_passes).
 *
 * 6.12's memcg LRU (lru_gen_rotate_memcg()) orders root reclaim, which the
 * model has not (no kswapd, no global direct reclaim: docs/ktext.md); the
 * text's call is recorded here, and the host compares the rotation asked
 * with the model's try_to_shrink_lruvec() result.
 */

/* mm/vmscan.c (6.12): lru_gen_rotate_memcg(), recorded (ktext_reclaim.h) */
static void __maybe_unused lru_gen_rotate_memcg(struct lruvec *lruvec, int op)
{
	aw_ktext_current()->aw_rotate = op;
}

/* The host holds the generation scalars while it runs (its pass records read them). */
static void aw_pass_host_call(struct aw_ktext *kt, bool begin, struct lruvec *lruvec, unsigned long seq,
			      int *handle)
{
	const struct aw_ktext_host *h = kt->host;
	bool lent = kt->has_scalars;
	int memcg = lruvec_memcg(lruvec)->id, nid = lruvec_pgdat(lruvec)->node_id;

	if (lent)
		aw_scalars(kt, false);
	if (begin)
		*handle = h->pass_begin(h->ctx, memcg, nid, seq, kt->aw_force_scan);
	else
		h->pass_end(h->ctx, memcg, nid, *handle);
	if (lent)
		aw_scalars(kt, true);
}

/*
 * Around the text's own try_to_inc_max_seq() from reclaim and run_aging():
 * a pass the host records, unless its first test returns at once
 * (seq <= mm_state->seq), as the model's does.
 */
static int aw_pass_hook_begin(struct lruvec *lruvec, unsigned long seq)
{
	struct aw_ktext *kt = aw_ktext_current();
	int handle = -1;

	if (!kt || !kt->aw_record_passes)
		return -1;
	AW_RAN(kt, AGING_CALLS, 1);
	kt->aw_hook_max_seq = READ_ONCE(lruvec->lrugen.max_seq);
	if (!kt->host->pass_begin || seq <= READ_ONCE(lruvec->mm_state.seq))
		return -1;
	aw_pass_host_call(kt, true, lruvec, seq, &handle);
	return handle;
}

static void aw_pass_hook_end(struct lruvec *lruvec, int handle)
{
	struct aw_ktext *kt = aw_ktext_current();

	if (kt && kt->aw_record_passes)
		AW_RAN(kt, AGING_PASSES, READ_ONCE(lruvec->lrugen.max_seq) != kt->aw_hook_max_seq);
	if (handle >= 0)
		aw_pass_host_call(kt, false, lruvec, 0, &handle);
}

/*
 * mm/vmscan.c: lru_gen_shrink_lruvec() for memcg reclaim of target, as
 * try_to_free_mem_cgroup_pages() -> do_try_to_free_pages() ->
 * shrink_node_memcgs() -> shrink_lruvec() calls it: the scan_control that
 * try_to_free_mem_cgroup_pages() fills (may_writepage with laptop_mode
 * off, may_unmap, may_swap as asked), nr_reclaimed carried between calls.
 * Returns the rotation of the memcg LRU asked (1 young, 0 none), -1 for a
 * tree that has no memcg LRU (6.1).
 */
static int aw_bound_shrink_lruvec(struct aw_ktext *kt, int memcg, int nid, int target, int priority,
				  unsigned long nr_to_reclaim, bool may_swap, int memcg_swappiness,
				  unsigned long *nr_reclaimed)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	struct scan_control sc = { .gfp_mask = GFP_KERNEL, .reclaim_idx = MAX_NR_ZONES - 1, .may_unmap = 1,
				   .may_writepage = 1, .may_swap = may_swap, .priority = priority,
				   .nr_to_reclaim = nr_to_reclaim, .nr_reclaimed = *nr_reclaimed };
	struct lru_gen_mm_walk *outer;

	if (!lruvec || target < 0 || target >= kt->nr_memcgs)
		return -1;
	AW_BOUND_ENTER(kt);
	AW_RAN(kt, SHRINK_LRUVEC_CALLS, 1);
	sc.target_mem_cgroup = kt->memcg[target];
	sc.memcgs_need_aging = 1;	/* 6.1: shrink_node() sets it before the memcgs */
	outer = current->reclaim_state->mm_walk;
	current->reclaim_state->mm_walk = NULL;	/* lru_gen_shrink_lruvec() sets its own */
	kt->aw_swappiness = memcg_swappiness;
	kt->aw_rotate = 0;
	kt->aw_record_passes = true;
	kt->aw_force_scan = false;	/* get_nr_to_scan()'s try_to_inc_max_seq(..., false) */
	lru_gen_shrink_lruvec(lruvec, &sc);
	kt->aw_record_passes = false;
	current->reclaim_state->mm_walk = outer;
	*nr_reclaimed = sc.nr_reclaimed;
	AW_BOUND_LEAVE(kt);
#if AW_KTEXT_FORM_get_nr_to_scan == 1
	return -1;	/* 6.1: no memcg LRU */
#else
	return kt->aw_rotate == MEMCG_LRU_YOUNG;
#endif
}

/*
 * mm/vmscan.c: run_aging(), the debugfs '+' command (lru_gen_seq_write()
 * -> run_cmd()): 0 (done, or nothing to do), -EINVAL (seq is not max_seq
 * yet), -ERANGE (6.1/6.12: the type it would evict already has
 * MAX_NR_GENS generations).  6.1's scan_control is the glue's aging one
 * (aw_bound_age(): DEF_PRIORITY, docs/ktext.md).
 */
static int aw_bound_run_aging(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness,
			      bool force_scan)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	int ret;

	if (!lruvec)
		return -EINVAL;
	AW_BOUND_ENTER(kt);
	AW_RAN(kt, RUN_AGING_CALLS, 1);
	aw_set_walk(true);	/* lru_gen_seq_write(): set_mm_walk(NULL, true) */
	kt->aw_record_passes = true;
	kt->aw_force_scan = force_scan;
#if AW_KTEXT_FORM_run_aging == 1
	ret = run_aging(lruvec, seq, swappiness != 0, force_scan);
#elif AW_KTEXT_FORM_run_aging == 2
	ret = run_aging(lruvec, seq, swappiness, force_scan);
#elif AW_KTEXT_FORM_run_aging == 3
	{
		struct scan_control sc = { .may_writepage = true, .may_unmap = true, .may_swap = true,
					   .reclaim_idx = MAX_NR_ZONES - 1, .gfp_mask = GFP_KERNEL,
					   .priority = 12 };

		ret = run_aging(lruvec, seq, &sc, swappiness != 0, force_scan);
	}
#else
#error "unknown run_aging() form"
#endif
	kt->aw_record_passes = false;
	clear_mm_walk();
	AW_BOUND_LEAVE(kt);
	return ret;
}
