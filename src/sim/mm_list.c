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
#include "linux/array_size.h"
#include "linux/bitmap.h"
#include "linux/minmax.h"
#include "warn.h"

/* the memcg's mm list and the lruvec's walk state, as the kernel gets them */
static struct lru_gen_mm_list *get_mm_list(struct aw_kernel *k, int memcg)
{
	return &k->mm_list[memcg];
}

static struct lru_gen_mm_state *get_mm_state(struct lruvec *lruvec)
{
	return &lruvec->mm_state;
}

/* every node has memory: N_MEMORY and N_POSSIBLE are the same */
#define for_each_node(nid)		for ((nid) = 0; (nid) < k->nr_nodes; (nid)++)
#define for_each_node_state(nid, state)	for_each_node(nid)
#ifndef list_entry
#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#endif
#ifndef BITS_PER_TYPE
#define BITS_PER_TYPE(type)		(sizeof(type) * __CHAR_BIT__)
#endif

/*
 * mm/vmscan.c: lru_gen_add_mm().  The model's memcg is the mm's (the
 * owner's, get_mem_cgroup_from_mm()); -1 in mm->lru_gen.memcg is NULL.
 */
void lru_gen_add_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	int nid;
	int memcg = mm->memcg;
	struct lru_gen_mm_list *mm_list = get_mm_list(k, memcg);

	VM_WARN_ON_ONCE(!list_empty(&mm->lru_gen.list));
	VM_WARN_ON_ONCE(mm->lru_gen.memcg >= 0);
	mm->lru_gen.memcg = memcg;

	for_each_node_state(nid, N_MEMORY) {
		struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
		struct lru_gen_mm_state *mm_state = get_mm_state(lruvec);

		/* the first addition since the last iteration */
		if (mm_state->tail == &mm_list->fifo)
			mm_state->tail = &mm->lru_gen.list;
	}

	list_add_tail(&mm->lru_gen.list, &mm_list->fifo);
}

/*
 * 6.1's lru_gen_del_mm(): its head is where the iteration continues
 * (inclusive), so it steps forward past the mm, and a step onto the list
 * head ends the iteration.
 */
static void del_mm_head_inclusive(struct lru_gen_mm_list *mm_list, struct lru_gen_mm_state *mm_state,
				  struct mm_struct *mm)
{
	/* where the last iteration ended (exclusive) */
	if (mm_state->tail == &mm->lru_gen.list)
		mm_state->tail = mm_state->tail->next;

	/* where the current iteration continues (inclusive) */
	if (mm_state->head != &mm->lru_gen.list)
		return;

	mm_state->head = mm_state->head->next;
	/* the deletion ends the current iteration */
	if (mm_state->head == &mm_list->fifo)
		WRITE_ONCE(mm_state->seq, mm_state->seq + 1);
}

/* mm/vmscan.c: lru_gen_del_mm() */
void lru_gen_del_mm(struct aw_kernel *k, struct mm_struct *mm)
{
	int nid;
	int memcg;

	if (list_empty(&mm->lru_gen.list))
		return;

	memcg = mm->lru_gen.memcg;

	for_each_node(nid) {
		struct lruvec *lruvec = aw_lruvec(k, memcg, nid);
		struct lru_gen_mm_state *mm_state = get_mm_state(lruvec);

		if (k->prof->mm_iteration_nr_walkers) {
			del_mm_head_inclusive(get_mm_list(k, memcg), mm_state, mm);
			continue;
		}

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

/*
 * mm/vmscan.c: lru_gen_migrate_mm(): the owner moved to memcg (the model
 * passes what mem_cgroup_from_task() returns, and moves the mm's memcg).
 */
void lru_gen_migrate_mm(struct aw_kernel *k, struct mm_struct *mm, int memcg)
{
	if (memcg == mm->lru_gen.memcg)
		return;

	lru_gen_del_mm(k, mm);
	mm->memcg = memcg;
	lru_gen_add_mm(k, mm);
}

/*
 * The seed RFC's empty_map skip (docs/oracles.md, a modelling contract:
 * the RFC has no code; its open choices are options, contract.h).  An mm
 * whose last completed walk for this node found it "empty" is skipped
 * until skip_empty passes have gone by -- counted by its own (mm, node)
 * clock, advanced by each pass that considers it (clock=mm), or by the
 * node's passes since the mark (clock=pass) -- and walked on the
 * skip_empty-th.  force_scan overrides the skip.
 */
/* The RFC clears an mm's empty marks for every node: the mm may have gained memory anywhere. */
static void aw_clear_empty_marks(struct aw_kernel *k, struct mm_struct *mm)
{
	mm->lru_gen.empty_mask = 0;
	memset(mm->lru_gen.empty_count, 0, sizeof(mm->lru_gen.empty_count));
	trace_lru_gen_clear_empty(k, mm);
}

/* Which events clear the marks: major faults always, the rest by the contract. */
static bool clears_marks(const struct aw_kernel *k, int kind)
{
	unsigned int clear = k->cfg.empty.clear;

	switch (kind) {
	case AW_FAULT_MAJOR:	 return true;
	case AW_FAULT_MIGRATED:	 return clear & AW_EMPTY_CLEAR_MIGRATION;
	case AW_FAULT_HUGE:	 return clear & AW_EMPTY_CLEAR_HUGE;
	case AW_FAULT_MINOR:	 return clear & AW_EMPTY_CLEAR_MINOR;
	case AW_FAULT_COLLAPSED: return clear & AW_EMPTY_CLEAR_COLLAPSE;
	default:		 return false;
	}
}

void aw_mm_event(struct aw_kernel *k, struct mm_struct *mm, int kind)
{
	trace_aw_mm_fault(k, mm, kind);
	if ((k->features & AW_FEAT_EMPTYMAP) && mm->lru_gen.empty_mask && clears_marks(k, kind))
		aw_clear_empty_marks(k, mm);
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
	if (k->cfg.empty.clock == AW_EMPTY_CLOCK_PASS)
		return walk->seq - mm->lru_gen.empty_seq[clock] < (unsigned long)k->skip_empty;
	if (mm->lru_gen.empty_count[clock] < 255)	/* saturate: never wrap back to "skip" */
		mm->lru_gen.empty_count[clock]++;
	return mm->lru_gen.empty_count[clock] < k->skip_empty;
}

/*
 * The skip placed after get_next_mm() (place=after): the mm was handed out
 * -- it counts as the iteration's first, so the walker that got it resets
 * the next filters -- and the walker then declines to walk it.
 */
bool aw_empty_skip_after(struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	bool skip;

	if (walk->k->cfg.empty.place != AW_EMPTY_AFTER_GET_NEXT_MM)
		return false;
	skip = should_skip_empty_mm(walk, mm);
	trace_lru_gen_get_next_mm(walk->k, walk, mm, skip ? AW_MM_SKIP_EMPTY : AW_MM_TAKEN);
	return skip;
}

/*
 * 6.1 mm/vmscan.c: should_skip_mm()'s size test, after the node bit is
 * cleared and before mmget_not_zero(): an mm mapping fewer than
 * MIN_LRU_BATCH pages of the types the walk may age (MM_FILEPAGES, plus
 * MM_ANONPAGES + MM_SHMEMPAGES with can_swap) is not worth a walk.
 * 6.12 and mainline (get_next_mm()) have no size test.
 */
static bool should_skip_small_mm(struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	if (!walk->k->prof->skip_small_mm)
		return false;
	return aw_mm_lru_pages(walk->k, mm, walk->swappiness != 0, MIN_LRU_BATCH) < MIN_LRU_BATCH;
}

/*
 * mm/vmscan.c: get_next_mm() (the current form of should_skip_mm(); 6.1's
 * size test in should_skip_small_mm()), with the RFC's empty_map skip
 * after the kernel's tests (place=get-next-mm); each outcome is a fact.
 * NULL: skip mm.
 */
static struct mm_struct *take_mm(struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	int key = walk->lruvec->nid % BITS_PER_TYPE(mm->lru_gen.bitmap);

	if (!walk->force_scan && !test_bit(key, &mm->lru_gen.bitmap)) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_BITMAP);
		return NULL;
	}

	/* cleared before walking, even if the walk then fails */
	clear_bit(key, &mm->lru_gen.bitmap);

	if (should_skip_small_mm(walk, mm)) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_SMALL);
		return NULL;
	}
	if (mm->exiting) {	/* !mmget_not_zero(mm) */
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_EXITING);
		return NULL;
	}
	/* the walker decides after it, in the aging loop (aw_empty_skip_after()) */
	if (walk->k->cfg.empty.place == AW_EMPTY_AFTER_GET_NEXT_MM) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_HANDED);
		return mm;
	}
	if (should_skip_empty_mm(walk, mm)) {
		trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_SKIP_EMPTY);
		return NULL;
	}
	trace_lru_gen_get_next_mm(walk->k, walk, mm, AW_MM_TAKEN);
	return mm;
}

static struct mm_struct *get_next_mm(struct lru_gen_mm_walk *walk)
{
	struct lru_gen_mm_state *mm_state = get_mm_state(walk->lruvec);

	return take_mm(walk, list_entry(mm_state->head, struct mm_struct, lru_gen.list));
}

/*
 * mm/vmscan.c: reset_mm_stats().  NR_HIST_GENS == 1 (no debugfs history):
 * the stats are cumulative, and there is no next generation's to clear.
 * The model also closes the walk's record in its aging pass.
 */
static void reset_mm_stats(struct lru_gen_mm_walk *walk, bool last)
{
	int i;
	struct lruvec *lruvec = walk->lruvec;
	struct lru_gen_mm_state *mm_state = get_mm_state(lruvec);

	aw_pass_add_walk(walk->k, walk);

	for (i = 0; i < NR_MM_STATS; i++) {
		WRITE_ONCE(mm_state->stats[i],
			   mm_state->stats[i] + walk->mm_stats[i]);
		walk->mm_stats[i] = 0;
	}

	for (i = 0; i < NR_AW_WALK_STATS; i++)	/* model */
		walk->aw_stats[i] = 0;

	(void)last;	/* with NR_HIST_GENS > 1: clear the next generation's */
}

static void reset_first(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct lru_gen_mm_state *mm_state)
{
	trace_lru_gen_iterate_first(k, walk);
	reset_bloom_filter(mm_state, BLOOM_FILTER_PMD, walk->seq + 1);
	if (k->features & AW_FEAT_PUD_FILTER)
		reset_bloom_filter(mm_state, BLOOM_FILTER_PUD,
				   AW_BUG(k, AW_BUG_PUD_RESET_WRONG_SEQ) ? walk->seq : walk->seq + 1);
}

/*
 * 6.1 mm/vmscan.c: iterate_mm_list().  Walkers of one iteration are
 * counted (nr_walkers); the first starts it at the list's first mm, head
 * is where it continues (inclusive) and moves past each mm taken, and
 * only the last walker to leave finishes the iteration ("last"), even if
 * another reached the list's end first.
 */
static bool iterate_mm_list_nr_walkers(struct lru_gen_mm_walk *walk, struct mm_struct **iter)
{
	bool first = false;
	bool last = true;
	struct mm_struct *mm = NULL;
	struct lruvec *lruvec = walk->lruvec;
	struct aw_kernel *k = walk->k;
	struct lru_gen_mm_list *mm_list = get_mm_list(k, lruvec->memcg);
	struct lru_gen_mm_state *mm_state = get_mm_state(lruvec);

	VM_WARN_ON_ONCE(mm_state->seq + 1 < walk->seq);
	VM_WARN_ON_ONCE(*iter && mm_state->seq > walk->seq);
	VM_WARN_ON_ONCE(*iter && !mm_state->nr_walkers);

	if (walk->seq <= mm_state->seq) {
		if (!*iter)
			last = false;
		goto done;
	}

	if (!mm_state->nr_walkers) {
		VM_WARN_ON_ONCE(mm_state->head && mm_state->head != &mm_list->fifo);

		mm_state->head = mm_list->fifo.next;
		first = true;
	}

	while (!mm && mm_state->head != &mm_list->fifo) {
		mm = list_entry(mm_state->head, struct mm_struct, lru_gen.list);

		mm_state->head = mm_state->head->next;

		/* force scan for those added after the last iteration */
		if (!mm_state->tail || mm_state->tail == &mm->lru_gen.list) {
			mm_state->tail = mm_state->head;
			walk->force_scan = true;
		}

		/* should_skip_mm(): the node bit, the size test, mmget_not_zero() */
		mm = take_mm(walk, mm);
	}

	if (mm_state->head == &mm_list->fifo)
		WRITE_ONCE(mm_state->seq, mm_state->seq + 1);
done:
	if (*iter && !mm)
		mm_state->nr_walkers--;
	if (!*iter && mm)
		mm_state->nr_walkers++;

	if (mm_state->nr_walkers)
		last = false;

	if (*iter || last)
		reset_mm_stats(walk, last);

	if (mm && first)
		reset_first(k, walk, mm_state);

	*iter = mm;

	return last;
}

/* mm/vmscan.c: iterate_mm_list() */
bool iterate_mm_list(struct lru_gen_mm_walk *walk, struct mm_struct **iter)
{
	bool first = false;
	bool last = false;
	struct mm_struct *mm = NULL;
	struct lruvec *lruvec = walk->lruvec;
	struct aw_kernel *k = walk->k;
	struct lru_gen_mm_list *mm_list = get_mm_list(k, lruvec->memcg);
	struct lru_gen_mm_state *mm_state = get_mm_state(lruvec);

	/*
	 * mm_state->seq is incremented after each iteration of mm_list. There
	 * are three interesting cases for this page table walker:
	 * 1. It tries to start a new iteration with a stale max_seq: there is
	 *    nothing left to do.
	 * 2. It started the next iteration: it needs to reset the Bloom filter
	 *    so that a fresh set of PTE tables can be recorded.
	 * 3. It ended the current iteration: it needs to reset the mm stats
	 *    counters and tell its caller to increment max_seq.
	 */
	if (k->prof->mm_iteration_nr_walkers)
		return iterate_mm_list_nr_walkers(walk, iter);

	VM_WARN_ON_ONCE(mm_state->seq + 1 < walk->seq);

	if (walk->seq <= mm_state->seq)
		goto done;

	if (!mm_state->head)
		mm_state->head = &mm_list->fifo;

	if (mm_state->head == &mm_list->fifo)
		first = true;

	do {
		mm_state->head = mm_state->head->next;
		if (mm_state->head == &mm_list->fifo) {
			WRITE_ONCE(mm_state->seq, mm_state->seq + 1);
			last = true;
			break;
		}

		/* force scan for those added after the last iteration */
		if (!mm_state->tail || mm_state->tail == mm_state->head) {
			mm_state->tail = mm_state->head->next;
			walk->force_scan = true;
		}
	} while (!(mm = get_next_mm(walk)));
done:
	if (*iter || last)
		reset_mm_stats(walk, last);

	if (mm && first)
		reset_first(k, walk, mm_state);

	*iter = mm;

	return last;
}
