// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-memcg mm list and its per-node iteration state
 * (mm/vmscan.c: lru_gen_add_mm, lru_gen_del_mm, lru_gen_migrate_mm,
 * get_next_mm, reset_mm_stats, iterate_mm_list).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "kernel.h"

/* mm/vmscan.c: lru_gen_add_mm() */
void lru_gen_add_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	struct lru_gen_mm_list *mm_list = &k->mm_list[mm->memcg];

	mm->lru_gen.memcg = mm->memcg;
	for (int nid = 0; nid < k->nr_nodes; nid++) {
		struct lru_gen_mm_state *mm_state = &aw_lruvec(k, mm->memcg, nid)->mm_state;

		/* the first addition since the last iteration */
		if (mm_state->tail == &mm_list->fifo)
			mm_state->tail = &mm->lru_gen.list;
	}
	list_add_tail(&mm->lru_gen.list, &mm_list->fifo);
}

/* mm/vmscan.c: lru_gen_del_mm() */
void lru_gen_del_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	int memcg = mm->lru_gen.memcg;

	if (memcg < 0 || list_empty(&mm->lru_gen.list))
		return;
	for (int nid = 0; nid < k->nr_nodes; nid++) {
		struct lru_gen_mm_state *mm_state = &aw_lruvec(k, memcg, nid)->mm_state;

		/* where the current iteration continues after */
		if (mm_state->head == &mm->lru_gen.list)
			mm_state->head = mm_state->head->prev;
		/* where the last iteration ended before */
		if (mm_state->tail == &mm->lru_gen.list)
			mm_state->tail = mm_state->tail->next;
	}
	list_del_init(&mm->lru_gen.list);
	mm->lru_gen.memcg = -1;
}

/* mm/vmscan.c: lru_gen_migrate_mm(): the owner moved to another memcg */
void lru_gen_migrate_mm(struct aw_kernel *k, struct mm_struct *mm, int memcg)
{
	if (mm->lru_gen.memcg == memcg)
		return;
	lru_gen_del_mm(k, mm);
	mm->memcg = memcg;
	lru_gen_add_mm(k, mm);
}

/*
 * The seed RFC's empty_map skip (kernel-model.md §11.3, a modelling
 * contract: the RFC has no code).  An mm whose last completed walk for this
 * node found nothing associated is skipped on the next skip_empty - 1
 * passes that find its node bit set, and walked on the skip_empty-th.
 * force_scan overrides the skip.  Each node keeps its own clock.
 */
/*
 * The RFC clears an mm's empty marks, for every node, on its major-fault
 * and migration paths: the mm may have gained memory anywhere.
 */
void aw_clear_empty_marks(struct aw_kernel *k, struct mm_struct *mm)
{
	mm->lru_gen.empty_mask = 0;
	memset(mm->lru_gen.empty_count, 0, sizeof(mm->lru_gen.empty_count));
	trace_lru_gen_clear_empty(k, mm);
}

static bool should_skip_empty_mm(struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	struct aw_kernel *k = walk->k;
	int nid = walk->lruvec->nid;
	/* the RFC's earlier version shared one clock among all nodes */
	int clock = AW_BUG(k, AW_BUG_EMPTYMAP_SHARED_COUNTER) ? 0 : nid;

	if (!(k->features & AW_FEAT_EMPTYMAP) || walk->force_scan)
		return false;
	if (!(mm->lru_gen.empty_mask >> nid & 1))
		return false;
	if (mm->lru_gen.empty_count[clock] < 255)	/* saturate: never wrap back to "skip" */
		mm->lru_gen.empty_count[clock]++;
	return mm->lru_gen.empty_count[clock] < k->skip_empty;
}

/* mm/vmscan.c: get_next_mm() (the current form of should_skip_mm()) */
static struct mm_struct *get_next_mm(struct lru_gen_mm_walk *walk)
{
	struct lru_gen_mm_state *mm_state = &walk->lruvec->mm_state;
	struct mm_struct *mm = container_of(mm_state->head, struct mm_struct, lru_gen.list);
	int key = walk->lruvec->nid % 64;

	if (!walk->force_scan && !(mm->lru_gen.bitmap >> key & 1)) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_BITMAP);
		return NULL;
	}
	/* cleared before walking, even if the walk then fails */
	mm->lru_gen.bitmap &= ~(1ULL << key);
	if (mm->exiting) {	/* mmget_not_zero() failed */
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_EXITING);
		return NULL;
	}
	if (should_skip_empty_mm(walk, mm)) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_EMPTY);
		return NULL;
	}
	trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_TAKEN);
	return mm;
}

/* mm/vmscan.c: reset_mm_stats(): NR_HIST_GENS == 1, cumulative */
static void reset_mm_stats(struct lru_gen_mm_walk *walk)
{
	struct lru_gen_mm_state *mm_state = &walk->lruvec->mm_state;

	aw_pass_add_walk(walk->k, walk);
	for (int i = 0; i < NR_MM_STATS; i++) {
		mm_state->stats[i] += walk->mm_stats[i];
		walk->mm_stats[i] = 0;
	}
	for (int i = 0; i < NR_AW_WALK_STATS; i++)
		walk->aw_stats[i] = 0;
}

/* mm/vmscan.c: iterate_mm_list() */
bool iterate_mm_list(struct lru_gen_mm_walk *walk, struct mm_struct **iter)
{
	struct aw_kernel *k = walk->k;
	struct lruvec *lruvec = walk->lruvec;
	struct lru_gen_mm_list *mm_list = &k->mm_list[lruvec->memcg];
	struct lru_gen_mm_state *mm_state = &lruvec->mm_state;
	struct mm_struct *mm = NULL;
	bool first = false, last = false;

	/* a stale max_seq: someone else finished this iteration */
	if (walk->seq <= mm_state->seq)
		goto done;

	if (!mm_state->head)
		mm_state->head = &mm_list->fifo;
	if (mm_state->head == &mm_list->fifo)
		first = true;

	do {
		mm_state->head = mm_state->head->next;
		if (mm_state->head == &mm_list->fifo) {
			mm_state->seq++;
			last = true;
			break;
		}
		/* force scan for those added after the last iteration: sticky */
		if (!mm_state->tail || mm_state->tail == mm_state->head) {
			mm_state->tail = mm_state->head->next;
			walk->force_scan = true;
		}
	} while (!(mm = get_next_mm(walk)));
done:
	if (*iter || last)
		reset_mm_stats(walk);

	/* only a walker that actually got an mm starts the new filters */
	if (mm && first) {
		trace_lru_gen_iterate_first(k, walk);
		reset_bloom_filter(mm_state, BLOOM_FILTER_PMD, walk->seq + 1);
		if (k->features & AW_FEAT_PUD_FILTER)
			reset_bloom_filter(mm_state, BLOOM_FILTER_PUD,
					   AW_BUG(k, AW_BUG_PUD_RESET_WRONG_SEQ) ? walk->seq : walk->seq + 1);
	}
	*iter = mm;
	return last;
}
