// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cause log (cause.h): the skip history of one kernel, kept from the
 * probes' facts, and the causes of an eviction read from it.
 *
 * A PUD skipped at pass seq was not in the seq PUD filter (seed v3 3/4):
 * nothing inserted it at pass seq - 1.  What pass seq - 1 did with that PUD
 * says why:
 *
 *  - walked, nothing young below it: never inserted, by the rule;
 *  - walked and found young: inserted, then lost (a reset or a lost key);
 *  - skipped too: the reason of that skip, inherited;
 *  - not visited while the mm was walked: the PUD was not present then,
 *    its subtree had no page tables at the last walk;
 *  - not visited and the mm not walked at all: the mm's own skip.
 *
 * An mm skipped while marked empty (the RFC) was marked by a walk whose
 * leaves held nothing associated with the lruvec, either because it had
 * no leaves or none young; the fault since then that could have brought
 * the evicted folio in, and that the contract did not take as a reason to
 * clear the mark, is part of the cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "grow.h"
#include "oracle.h"
#include "kernel.h"

#define EMPTY_SKIP "mm skipped while marked empty"

/* what the walk that set the mark found: the same words in every cause */
static const char *mark_walk(bool no_leaves)
{
	return no_leaves ? "no leaves" : "no young leaf";
}

enum pud_outcome { PUD_WALKED_OLD, PUD_WALKED_YOUNG, PUD_SKIPPED };

enum pud_reason {
	REASON_NOT_YOUNG,	/* walked at the last pass, nothing young below it */
	REASON_LOST,		/* found young at the last pass, so inserted, and lost */
	REASON_NO_TABLES,	/* not present at the last walk of its mm */
	REASON_MM_NOT_WALKED,	/* its mm was not walked at the last pass */
	REASON_MM_EMPTY,	/* its mm was skipped as empty at the last pass */
	REASON_NR
};

static const char *const reason_text[REASON_NR] = {
	[REASON_NOT_YOUNG] = "PUD skipped: never inserted, nothing in its subtree was young at the last walk",
	[REASON_LOST] = "PUD skipped: inserted by the last walk, which found it young, and lost since",
	[REASON_NO_TABLES] = "PUD skipped: never inserted, its subtree had no page tables at the last walk",
	[REASON_MM_NOT_WALKED] = "PUD skipped: never inserted, its mm was not walked at the last pass",
	[REASON_MM_EMPTY] = "PUD skipped: never inserted, its mm was skipped as empty at the last pass",
};

/* one (lruvec, mm, PUD), or with pud ~0 one (lruvec, mm) */
struct cause_entry {
	int lruvec;
	uint32_t mm;
	uint64_t pud;
	/* PUD entries */
	unsigned long seq;		/* the pass of the last outcome */
	uint8_t outcome;
	/* both: the last skip, with its cause */
	bool skipped;
	unsigned long skip_seq;
	uint64_t skip_event;		/* event index of the last skip, to order lruvecs */
	uint8_t skip_reason;		/* PUD entries */
	bool skip_no_leaves;		/* (lruvec, mm): the mark's walk had no leaves */
	uint64_t skip_mark_event;	/* (lruvec, mm): event index when the mark was set */
	/* (lruvec, mm) entries */
	bool walked;
	unsigned long walk_seq;
	bool no_leaves;			/* the last walk had no leaves at all */
	uint64_t mark_event;		/* event index of the last walk */
};

#define MM_ENTRY	(~0ULL)

struct aw_cause_log {
	struct cause_entry *e;
	int nr, cap;
	uint32_t *slot;			/* index + 1, 0 = empty */
	uint32_t nr_slots;
	/* per mm: event index + 1 of the last fault of each kind */
	uint64_t (*last)[AW_FAULT_NR];
	int cap_mm;
	/* per mm: the mm it was forked from, 0 if none */
	uint32_t *parent;
	int cap_parent;
	/* per lruvec: the last skip of any mm or PUD, for a folio whose own path had none */
	struct lruvec_skip {
		bool any, empty_mm, no_leaves;
		uint8_t reason;
		uint64_t event;		/* event index of that skip, to order lruvecs */
	} *last_skip;
	int nr_lruvecs;
};

static void note_skip(struct aw_cause_log *log, int lruvec, bool empty_mm, bool no_leaves, int reason,
		      uint64_t event)
{
	if (lruvec < 0 || lruvec >= log->nr_lruvecs)
		return;
	log->last_skip[lruvec] = (struct lruvec_skip){ .any = true, .empty_mm = empty_mm,
						       .no_leaves = no_leaves, .reason = (uint8_t)reason,
						       .event = event };
}

static uint32_t hash(int lruvec, uint32_t mm, uint64_t pud)
{
	uint64_t h = (uint64_t)lruvec * 0x9E3779B97F4A7C15ULL ^ (uint64_t)mm * 0xC2B2AE3D27D4EB4FULL ^ pud;

	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9ULL;
	return (uint32_t)(h >> 32);
}

static void rehash(struct aw_cause_log *log)
{
	uint32_t n = log->nr_slots ? log->nr_slots * 2 : 1024;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		aw_oracle_oom("cause log");
	for (int i = 0; i < log->nr; i++) {
		uint32_t j = hash(log->e[i].lruvec, log->e[i].mm, log->e[i].pud) & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = i + 1;
	}
	free(log->slot);
	log->slot = s;
	log->nr_slots = n;
}

static struct cause_entry *find(const struct aw_cause_log *log, int lruvec, uint32_t mm, uint64_t pud)
{
	if (!log->nr_slots)
		return NULL;
	for (uint32_t j = hash(lruvec, mm, pud) & (log->nr_slots - 1); log->slot[j];
	     j = (j + 1) & (log->nr_slots - 1)) {
		struct cause_entry *e = &log->e[log->slot[j] - 1];

		if (e->lruvec == lruvec && e->mm == mm && e->pud == pud)
			return e;
	}
	return NULL;
}

static struct cause_entry *get(struct aw_cause_log *log, int lruvec, uint32_t mm, uint64_t pud)
{
	struct cause_entry *e = find(log, lruvec, mm, pud);
	uint32_t j;

	if (e)
		return e;
	if ((uint32_t)(log->nr + 1) * 2 > log->nr_slots)
		rehash(log);
	e = aw_grow(log->e, &log->cap, log->nr, sizeof(*e), 256);
	if (!e)
		aw_oracle_oom("cause log");
	log->e = e;
	e = &log->e[log->nr];
	memset(e, 0, sizeof(*e));
	e->lruvec = lruvec;
	e->mm = mm;
	e->pud = pud;
	for (j = hash(lruvec, mm, pud) & (log->nr_slots - 1); log->slot[j]; j = (j + 1) & (log->nr_slots - 1))
		;
	log->slot[j] = (uint32_t)++log->nr;
	return e;
}

struct aw_cause_log *aw_cause_log_new(int nr_lruvecs)
{
	struct aw_cause_log *log = calloc(1, sizeof(*log));

	if (!log)
		return NULL;
	log->last_skip = calloc((size_t)nr_lruvecs, sizeof(*log->last_skip));
	if (!log->last_skip) {
		free(log);
		return NULL;
	}
	log->nr_lruvecs = nr_lruvecs;
	return log;
}

void aw_cause_log_free(struct aw_cause_log *log)
{
	if (!log)
		return;
	free(log->e);
	free(log->slot);
	free(log->last);
	free(log->parent);
	free(log->last_skip);
	free(log);
}

/* What pass seq - 1 did with this PUD, as the reason a pass-seq skip inherits. */
static int skip_reason(struct aw_cause_log *log, int lruvec, uint32_t mm, uint64_t pud, unsigned long seq)
{
	const struct cause_entry *p = find(log, lruvec, mm, pud);
	const struct cause_entry *m = find(log, lruvec, mm, MM_ENTRY);

	if (p && p->seq + 1 == seq) {
		if (p->outcome == PUD_SKIPPED)
			return p->skip_reason;
		return p->outcome == PUD_WALKED_YOUNG ? REASON_LOST : REASON_NOT_YOUNG;
	}
	if (m && m->walked && m->walk_seq + 1 == seq)
		return REASON_NO_TABLES;
	if (m && m->skipped && m->skip_seq + 1 == seq)
		return REASON_MM_EMPTY;
	return REASON_MM_NOT_WALKED;
}

void aw_cause_pud_visit(struct aw_cause_log *log, struct lru_gen_mm_walk *walk, uint64_t addr, bool skipped,
			bool young)
{
	int lruvec = walk->lruvec->index;
	uint64_t pud = addr & PUD_MASK;
	int reason = skipped ? skip_reason(log, lruvec, walk->mm->id, pud, walk->seq) : 0;
	struct cause_entry *e = get(log, lruvec, walk->mm->id, pud);

	e->seq = walk->seq;
	e->outcome = skipped ? PUD_SKIPPED : young ? PUD_WALKED_YOUNG : PUD_WALKED_OLD;
	if (skipped) {
		e->skipped = true;
		e->skip_seq = walk->seq;
		e->skip_event = walk->k->event_index;
		e->skip_reason = (uint8_t)reason;
		note_skip(log, lruvec, false, false, reason, walk->k->event_index);
	}
}

void aw_cause_mm_skipped(struct aw_cause_log *log, struct lru_gen_mm_walk *walk, struct mm_struct *mm)
{
	struct cause_entry *e = get(log, walk->lruvec->index, mm->id, MM_ENTRY);

	e->skipped = true;
	e->skip_seq = walk->seq;
	e->skip_event = walk->k->event_index;
	e->skip_no_leaves = e->no_leaves;
	e->skip_mark_event = e->mark_event;
	note_skip(log, walk->lruvec->index, true, e->no_leaves, 0, walk->k->event_index);
}

/*
 * A walk of mm ran: its pass, and whether it had leaves at all, for the
 * cause of a later empty skip (which only the mark's walk can have set).
 */
void aw_cause_walk_done(struct aw_cause_log *log, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			struct mm_struct *mm, int err)
{
	struct cause_entry *e = get(log, walk->lruvec->index, mm->id, MM_ENTRY);

	e->walked = true;
	e->walk_seq = walk->seq;
	if (err)
		return;
	e->no_leaves = walk->mm_stats[MM_LEAF_TOTAL] == 0;
	e->mark_event = k->event_index;
}

static void note_last(struct aw_cause_log *log, struct aw_kernel *k, uint32_t mm, int what)
{
	uint64_t (*a)[AW_FAULT_NR] = aw_grow_zeroed(log->last, &log->cap_mm, (int)mm, sizeof(*a), 64);

	if (!a)
		aw_oracle_oom("cause log");
	log->last = a;
	log->last[mm][what] = k->event_index + 1;
}

void aw_cause_fault(struct aw_cause_log *log, struct aw_kernel *k, struct mm_struct *mm, int kind)
{
	if (kind >= 0 && kind < AW_FAULT_NR)
		note_last(log, k, mm->id, kind);
}

/*
 * The child's page tables are copies of the parent's, and a folio the two
 * share may be evicted through either: every (lruvec, PUD) and (lruvec,
 * mm) entry and the fault history of the parent are the child's too.
 * Indexes, not pointers: get() may move the entries.
 */
void aw_cause_fork(struct aw_cause_log *log, uint32_t parent, uint32_t child)
{
	int nr = log->nr;

	for (int i = 0; i < nr; i++) {
		struct cause_entry copy = log->e[i], *e;

		if (copy.mm != parent)
			continue;
		e = get(log, copy.lruvec, child, copy.pud);
		copy.mm = child;
		*e = copy;
	}
	{
		uint32_t *a = aw_grow_zeroed(log->parent, &log->cap_parent, (int)child, sizeof(*a), 64);

		if (!a)
			aw_oracle_oom("cause log");
		log->parent = a;
		log->parent[child] = parent;
	}
	if ((int)parent < log->cap_mm) {
		uint64_t (*a)[AW_FAULT_NR] = aw_grow_zeroed(log->last, &log->cap_mm, (int)child, sizeof(*a), 64);

		if (!a)
			aw_oracle_oom("cause log");
		log->last = a;
		memcpy(log->last[child], log->last[parent], sizeof(log->last[0]));
	}
}

/*
 * mremap (move_page_tables()): the folios of [old, old + len) now sit at
 * new_addr + offset, under other PUDs, with the young bits and generations
 * the skips of their old PUDs left them (move_huge_pmd() and
 * move_ptes() carry the entries as they are).  Each destination PUD takes
 * the most recent skip of the source PUDs that moved into it, per lruvec,
 * so that an eviction there still names it.  Only the skip history moves:
 * the filter keys on the address, so the destination's own walk history
 * (seq, outcome) still decides the reason of its later skips.
 */
void aw_cause_mremap(struct aw_cause_log *log, uint32_t mm, uint64_t old, uint64_t new_addr, uint64_t len)
{
	int nr = log->nr;

	if (!len || old == new_addr)
		return;
	for (int i = 0; i < nr; i++) {
		struct cause_entry src = log->e[i];
		uint64_t lo, hi;

		if (src.mm != mm || src.pud == MM_ENTRY || !src.skipped)
			continue;
		lo = src.pud > old ? src.pud : old;
		hi = src.pud + PUD_SIZE < old + len ? src.pud + PUD_SIZE : old + len;
		if (lo >= hi)
			continue;
		for (uint64_t d = (new_addr + (lo - old)) & PUD_MASK; d < new_addr + (hi - old); d += PUD_SIZE) {
			struct cause_entry *e = get(log, src.lruvec, mm, d);	/* may move log->e */

			if (e->skipped && e->skip_event >= src.skip_event)
				continue;
			e->skipped = true;
			e->skip_seq = src.skip_seq;
			e->skip_event = src.skip_event;
			e->skip_reason = src.skip_reason;
		}
	}
}

/* did mm take a fault of this kind after the event of the mark's walk? */
static bool faulted_since(const struct aw_cause_log *log, uint32_t mm, int what, uint64_t mark_event)
{
	return (int)mm < log->cap_mm && log->last[mm][what] > mark_event + 1;
}

/*
 * "mm skipped while marked empty: mark set by ..., not cleared by ...".
 * The fault named is the one that could have brought the evicted folio in
 * after the mark -- a huge first-touch fault for a THP, a first-touch fault
 * for a small page -- so that the cause does not depend on whatever else
 * the mm did; without one, the folio was there already and only its young
 * bit came back.
 */
static void empty_cause(const struct aw_cause_log *log, const struct cause_entry *m, bool huge,
			char *buf, size_t len)
{
	int kind = huge ? AW_FAULT_HUGE : AW_FAULT_MINOR;

	snprintf(buf, len, EMPTY_SKIP ": mark set by a walk with %s, %s%s",
		 mark_walk(m->skip_no_leaves),
		 faulted_since(log, m->mm, kind, m->skip_mark_event) ? "not cleared by " : "",
		 faulted_since(log, m->mm, kind, m->skip_mark_event) ? aw_fault_kind_name(kind) :
		 "then accessed without a fault");
}

/* "WHERE: " and a skip's cause: the empty mark and its walk, or the PUD skip's reason */
static void skip_text(char *buf, size_t len, const char *where, bool empty_mm, bool no_leaves, int reason)
{
	if (empty_mm)
		snprintf(buf, len, "%s: %s, mark set by a walk with %s", where, EMPTY_SKIP, mark_walk(no_leaves));
	else
		snprintf(buf, len, "%s: %s", where, reason_text[reason]);
}

/*
 * The folio's own path (its mm, its PUD) skipped by another lruvec's walk
 * -- another node's, or another memcg's -- the most recent such skip.  A
 * walk clears the accessed bits of the non-leaf PMD entries it passes for
 * every lruvec (walk_pmd_range(): the bit is the PTE table's, not a
 * folio's), so a skip there leaves a bit set that this lruvec's next walk
 * then follows or, without the skip, would have found cleared: what this
 * lruvec's walk saw of the folio changed with it.
 */
static bool path_skip_elsewhere(const struct aw_cause_log *log, int lruvec, uint32_t mm, uint64_t pud,
				char *buf, size_t len)
{
	const struct cause_entry *best = NULL;

	for (int l = 0; l < log->nr_lruvecs; l++) {
		const struct cause_entry *c[2] = { find(log, l, mm, MM_ENTRY), find(log, l, mm, pud) };

		if (l == lruvec)
			continue;
		for (int i = 0; i < 2; i++)
			if (c[i] && c[i]->skipped && (!best || c[i]->skip_event > best->skip_event))
				best = c[i];
	}
	if (!best)
		return false;
	skip_text(buf, len, "no skip on its path; the last skip on its path, in another lruvec", best->pud == MM_ENTRY,
		  best->skip_no_leaves, best->skip_reason);
	return true;
}

/* the most recent skip on the path (mm, its PUD) in lruvec: its mm's, or its PUD's */
static bool own_path_cause(const struct aw_cause_log *log, int lruvec, uint32_t mm, uint64_t addr, bool huge,
			   char *buf, size_t len)
{
	const struct cause_entry *m = find(log, lruvec, mm, MM_ENTRY);
	const struct cause_entry *p = find(log, lruvec, mm, addr & PUD_MASK);

	if (m && m->skipped && (!p || !p->skipped || m->skip_seq > p->skip_seq)) {
		empty_cause(log, m, huge, buf, len);
		return true;
	}
	if (p && p->skipped) {
		snprintf(buf, len, "%s", reason_text[p->skip_reason]);
		return true;
	}
	return false;
}

/*
 * The most recent skip of any lruvec but this one.  When nothing in the
 * evicted folio's own lruvec was skipped, a skip in another can still
 * explain it: it left folios there young or unpromoted, so that lruvec
 * gave back less at each priority (shrink_folio_list() keeps what the
 * reference check finds young), and a reclaim that spans lruvecs -- a
 * memcg's over every node (shrink_zones()), the global one over every
 * memcg -- went on to lower priorities and took more from this one.
 */
static const struct lruvec_skip *last_skip_elsewhere(const struct aw_cause_log *log, int lruvec)
{
	const struct lruvec_skip *best = NULL;

	for (int l = 0; l < log->nr_lruvecs; l++)
		if (l != lruvec && log->last_skip[l].any && (!best || log->last_skip[l].event > best->event))
			best = &log->last_skip[l];
	return best;
}

/* the mm fork copied mm from, 0 if none (or after too many generations: a reused id) */
static uint32_t parent_of(const struct aw_cause_log *log, uint32_t mm, int hops)
{
	return hops < 8 && (int)mm < log->cap_parent ? log->parent[mm] : 0;
}

void aw_cause_of_eviction(const struct aw_cause_log *log, const struct aw_kernel *k, int memcg, int nid,
			  uint32_t mm, uint64_t addr, bool huge, char *buf, size_t len)
{
	int lruvec = memcg * k->nr_nodes + nid;
	const struct lruvec_skip *s;
	uint32_t a;
	int hops;

	/*
	 * The folio's path is its mm's and, for a folio a fork left shared,
	 * its ancestors' at the same address: the eviction names one mapping,
	 * the parent's walks see the folio through their own.
	 */
	for (a = mm, hops = 0; a; a = parent_of(log, a, hops++))
		if (own_path_cause(log, lruvec, a, addr, huge, buf, len))
			return;
	for (a = mm, hops = 0; a; a = parent_of(log, a, hops++))
		if (path_skip_elsewhere(log, lruvec, a, addr & PUD_MASK, buf, len))
			return;
	/*
	 * Nothing on its own path: a skip elsewhere in the lruvec left other
	 * folios unpromoted, the generations' sizes changed, and the eviction
	 * reached this one.  The last such skip names the cause.
	 */
	if (lruvec < log->nr_lruvecs && log->last_skip[lruvec].any) {
		s = &log->last_skip[lruvec];
		skip_text(buf, len, "no skip on its path; the last skip in its lruvec", s->empty_mm, s->no_leaves,
			  s->reason);
	} else if ((s = last_skip_elsewhere(log, lruvec))) {
		skip_text(buf, len, "no skip on its path or in its lruvec; the last skip in another lruvec",
			  s->empty_mm, s->no_leaves, s->reason);
	} else {
		snprintf(buf, len, "no skip on its path");
	}
}
