// SPDX-License-Identifier: GPL-2.0-only
/*
 * The model's MGLRU code as one implementation of struct aw_mglru_ops:
 * the base walk with the seed series' changes behind k->features.
 */
#include "kernel.h"

const struct aw_mglru_ops aw_model_mglru = {
	.name = "model",
	.try_to_inc_max_seq = try_to_inc_max_seq,
	.age_begin = aw_age_begin,
	.age_step = aw_age_step,
	.age_end = aw_age_end,
	.lru_gen_look_around = lru_gen_look_around,
	.evict_folios = evict_folios,
	.lru_gen_add_mm = lru_gen_add_mm,
	.lru_gen_del_mm = lru_gen_del_mm,
	.lru_gen_migrate_mm = lru_gen_migrate_mm,
	.lru_gen_use_mm = aw_lru_gen_use_mm,
	/* the workingset side (workingset.c) */
	.lru_gen_eviction = aw_lru_gen_eviction,
	.lru_gen_refault = aw_lru_gen_refault,
	.folio_add_lru = aw_folio_add_lru,
	/* the reclaim loop (memcg.c, kernel.c) */
	.lru_gen_shrink_lruvec = aw_model_shrink_lruvec,
	.run_aging = aw_model_run_aging,
	/* shrink_folio_list()'s reference check (references.c) */
	.folio_check_references = aw_folio_check_references,
};

void aw_lru_gen_use_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	lru_gen_use_mm(mm);
}
