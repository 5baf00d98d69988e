/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workingset side on the host's machine (a fragment ktext_glue.inc.c
 * includes after the tree's text): mm/workingset.c's lru_gen_eviction()
 * and lru_gen_refault(), and folio_add_lru()'s lru_gen_add_folio() for a
 * new folio, the tree's own code on the host's folios and generations.
 *
 * A shadow crosses to the host as its fields, taken apart and put back
 * together by the tree's own unpack_shadow()/pack_shadow(): the host keeps
 * them where it keeps its own shadows (a swap slot, a page-cache entry),
 * so both sides of a pair leave shadows the agreement oracle compares
 * field by field.
 */

static void aw_shadow_out(void *shadow, struct aw_ktext_shadow *out)
{
	int memcg_id;
	pg_data_t *pgdat;
	unsigned long token;
	bool workingset;

	unpack_shadow(shadow, &memcg_id, &pgdat, &token, &workingset);
	*out = (struct aw_ktext_shadow){ .token = token, .memcg = memcg_id, .nid = pgdat->node_id,
					 .workingset = workingset };
}

/* mm/workingset.c: workingset_eviction() under lru_gen_enabled(), from the host's reclaim */
static void aw_bound_eviction(struct aw_ktext *kt, struct folio *folio, struct aw_ktext_shadow *out)
{
	AW_BOUND_ENTER_FOLIO(kt, AW_LRUVEC_IDX(kt, folio->memcg, folio->nid), -1);
	AW_RAN(kt, SHADOWS_LEFT, 1);
	aw_shadow_out(lru_gen_eviction(folio), out);
	AW_BOUND_LEAVE_FOLIO(kt);
}

/*
 * mm/workingset.c: workingset_refault() under lru_gen_enabled().  The
 * host's shadow fields are packed back into the tree's xa_value form; a
 * node or memcg the machine does not have is no shadow of its.
 */
static void aw_bound_refault(struct aw_ktext *kt, struct folio *folio, const struct aw_ktext_shadow *s,
			     bool in_fault)
{
	if (s->nid < 0 || s->nid >= kt->nr_nodes || s->memcg < 0 || s->memcg >= kt->nr_memcgs)
		return;
	AW_BOUND_ENTER_FOLIO(kt, AW_LRUVEC_IDX(kt, folio->memcg, folio->nid), AW_LRUVEC_IDX(kt, s->memcg, s->nid));
	AW_RAN(kt, REFAULT_CALLS, 1);
	current->in_lru_fault = in_fault;	/* mm/memory.c: lru_gen_enter_fault() */
	lru_gen_refault(folio, pack_shadow(s->memcg, NODE_DATA(s->nid), s->token, s->workingset));
	current->in_lru_fault = false;		/* lru_gen_exit_fault() */
	AW_BOUND_LEAVE_FOLIO(kt);
}

/* mm/swap.c: folio_add_lru() -> lru_add() -> lruvec_add_folio() -> lru_gen_add_folio() */
static bool aw_bound_add_folio(struct aw_ktext *kt, struct folio *folio, bool in_fault)
{
	bool added;

	AW_BOUND_ENTER_FOLIO(kt, AW_LRUVEC_IDX(kt, folio->memcg, folio->nid), -1);
	AW_RAN(kt, PLACEMENTS, 1);
	current->in_lru_fault = in_fault;
	added = lru_gen_add_folio(folio_lruvec(folio), folio, false);
	/*
	 * folio_batch_move_lru() sets PG_lru after the move; an unevictable
	 * folio MGLRU declines has no list on the host's machine (nor the
	 * model's), so no PG_lru either
	 */
	if (added)
		folio_set_lru(folio);
	current->in_lru_fault = false;
	AW_BOUND_LEAVE_FOLIO(kt);
	return added;
}
