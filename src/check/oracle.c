// SPDX-License-Identifier: GPL-2.0-only
/*
 * The oracles of docs/oracles.md, as shadows kept beside one simulated kernel.
 *
 * The shadows are fed from the *rules*: a filter shadow is reset where the
 * kernel rule says an iteration starts, it learns a key where the cause of
 * an insertion holds (a carried-over table, a young PUD, look-around's
 * suitable window), and it is compared with what the filter answered.  The
 * code under test can therefore disagree with its shadow, and that is what
 * a finding is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle.h"
#include "cause.h"
#include "grow.h"
#include "kernel.h"

/*
 * Out of memory in an oracle aborts.  A shadow that silently missed a key
 * would report a false finding, and a dropped finding would hide a real
 * one; neither is better than stopping with the reason.
 */
void aw_oracle_oom(const char *what)
{
	fprintf(stderr, "agewalk: out of memory in the oracles (%s)\n", what);
	abort();
}

/* ---- a small open-addressing set of 64-bit keys ------------------------ */

struct aw_keyset {
	uint64_t *slot;		/* 0 = empty; key 0 is kept in has_zero */
	uint32_t cap, nr;
	bool has_zero;
	bool null;		/* mirrors a filter that was never allocated */
};

static uint32_t keyset_hash(uint64_t key, uint32_t cap)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);
}

static void keyset_clear(struct aw_keyset *s)
{
	if (s->slot)
		memset(s->slot, 0, s->cap * sizeof(*s->slot));
	s->nr = 0;
	s->has_zero = false;
}

static bool keyset_has(const struct aw_keyset *s, uint64_t key)
{
	if (!key)
		return s->has_zero;
	if (!s->cap)
		return false;
	for (uint32_t i = keyset_hash(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
		if (!s->slot[i])
			return false;
		if (s->slot[i] == key)
			return true;
	}
}

static void keyset_add(struct aw_keyset *s, uint64_t key)
{
	if (!key) {
		s->has_zero = true;
		return;
	}
	if (keyset_has(s, key))
		return;
	if ((s->nr + 1) * 2 > s->cap) {
		struct aw_keyset bigger = { .cap = s->cap ? s->cap * 2 : 1024 };

		bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
		if (!bigger.slot)
			aw_oracle_oom("filter shadow");
		for (uint32_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				keyset_add(&bigger, s->slot[i]);
		free(s->slot);
		s->slot = bigger.slot;
		s->cap = bigger.cap;
	}
	for (uint32_t i = keyset_hash(key, s->cap);; i = (i + 1) & (s->cap - 1)) {
		if (!s->slot[i]) {
			s->slot[i] = key;
			s->nr++;
			return;
		}
	}
}

/* ---- state --------------------------------------------------------------- */

struct aw_obligation {
	int lruvec;
	uint32_t mm;
	uint64_t pud;
	unsigned long due;
	const char *cause;
};

struct aw_cadence {
	uint8_t mark;		/* bit per node */
	uint8_t count[AW_MAX_NODES];
	unsigned long mark_seq[AW_MAX_NODES];	/* the seq of the walk that set it */
};

struct aw_suppress_run {
	int last_pass, run;
};

struct aw_oracle {
	int nr_lruvecs;
	bool findings_only;		/* skip the metrics that cost a walk (fuzzing) */
	struct aw_keyset *shadow;	/* [lruvec][level][gen] */
	struct aw_obligation *obl;
	int nr_obl, cap_obl;
	struct aw_cadence *cadence;	/* by mm id */
	int cap_cadence;
	struct aw_finding *findings;
	int nr_findings, cap_findings;
	struct aw_oracle_metrics metrics[AW_MAX_NODES];
	struct aw_evicted *evicted;
	int nr_evicted, cap_evicted;
	bool reclaim_young;		/* a mapping was young when the reference check began */
	bool pageout;			/* the event is MADV_PAGEOUT: reclaim_pages() ignores references */
	int reclaim_memcg;
	struct aw_suppress_run *runs;	/* [region][node] */
	unsigned long *max_seq_seen;	/* [lruvec], monotonic check */
	unsigned long (*min_seq_seen)[ANON_AND_FILE];
	uint64_t next_full_check;	/* event index of the next full list walk */
	/*
	 * [lruvec][gen][type]: pages of the folios whose flags say gen, by the
	 * lruvec of their memcg and node, kept at every flag generation write
	 * (aw_or_gen_moved()), never from nr_pages or the walk's batch.
	 */
	long (*flag_pages)[MAX_NR_GENS][ANON_AND_FILE];
	struct aw_cause_log *causes;	/* the skip history, for findings' causes */
	struct aw_gen_shadow *gen;	/* two-touch and folio-seq (oracle_gen.c) */
	struct aw_tier_shadow *tier;	/* tier protection (oracle_tier.c) */
};

static const char *const oracle_names[AW_OR_NR] = {
	[AW_OR_PREMATURE_RECLAIM] = "premature-reclaim",
	[AW_OR_PREMATURE_RECLAIM_DIFF] = "premature-reclaim-differential",
	[AW_OR_STALE_SUPPRESSION] = "stale-suppression",
	[AW_OR_EMPTYMAP_CADENCE] = "emptymap-cadence",
	[AW_OR_FORCE_SCAN_COMPLETE] = "force-scan-complete",
	[AW_OR_EXACT_FILTER] = "exact-filter",
	[AW_OR_STRUCTURAL] = "structural",
	[AW_OR_KH_LAZYFREE] = "khugepaged-lazyfree",
	[AW_OR_KH_PROGRESS] = "khugepaged-progress",
	[AW_OR_KH_SLOT] = "khugepaged-slot",
	[AW_OR_KH_DATA] = "khugepaged-data-loss",
	[AW_OR_KH_DECISION] = "khugepaged-decision",
	[AW_OR_KTEXT_AGREEMENT] = "kernel-text-agreement",
	[AW_OR_FORCED_WALK_EQUIV] = "forced-walk-equivalence",
	[AW_OR_MADV_COLLAPSE_EQUIV] = "madv-collapse-equivalence",
	[AW_OR_TWO_TOUCH] = "two-touch-promotion",
	[AW_OR_FOLIO_SEQ] = "folio-seq-placement",
	[AW_OR_TIER_PROTECTION] = "tier-protection",
	[AW_OR_KH_TEXT_AGREEMENT] = "khugepaged-text-agreement",
};

const char *aw_oracle_name(enum aw_oracle_id id)
{
	return (unsigned int)id < AW_OR_NR ? oracle_names[id] : "unknown";
}

int aw_oracle_attach(struct aw_kernel *k)
{
	struct aw_oracle *o = calloc(1, sizeof(*o));
	int n = k->nr_nodes * k->nr_memcgs;

	if (!o)
		return -1;
	o->nr_lruvecs = n;
	o->shadow = calloc((size_t)n * BLOOM_FILTER_LEVELS * NR_BLOOM_FILTERS, sizeof(*o->shadow));
	o->runs = calloc((size_t)(k->nr_regions + 1) * AW_MAX_NODES, sizeof(*o->runs));
	o->max_seq_seen = calloc(n, sizeof(*o->max_seq_seen));
	o->min_seq_seen = calloc(n, sizeof(*o->min_seq_seen));
	o->flag_pages = calloc(n, sizeof(*o->flag_pages));
	o->causes = aw_cause_log_new(n);
	if (!o->shadow || !o->runs || !o->max_seq_seen || !o->min_seq_seen || !o->flag_pages || !o->causes) {
		aw_cause_log_free(o->causes);
		free(o->flag_pages);
		free(o->min_seq_seen);
		free(o->shadow);
		free(o->runs);
		free(o->max_seq_seen);
		free(o);
		return -1;
	}
	for (int i = 0; i < n * BLOOM_FILTER_LEVELS * NR_BLOOM_FILTERS; i++)
		o->shadow[i].null = true;
	for (int i = 0; i < (k->nr_regions + 1) * AW_MAX_NODES; i++)
		o->runs[i].last_pass = -2;	/* no pass counted yet, not even pass 0 */
	k->oracle = o;
	if (aw_kh_oracle_attach(k) || aw_oracle_probes_register(k)) {
		aw_oracle_detach(k);
		return -1;
	}
	return 0;
}

void aw_oracle_detach(struct aw_kernel *k)
{
	struct aw_oracle *o = k->oracle;

	aw_oracle_probes_unregister(k);
	aw_kh_oracle_detach(k);
	if (!o)
		return;
	for (int i = 0; i < o->nr_lruvecs * BLOOM_FILTER_LEVELS * NR_BLOOM_FILTERS; i++)
		free(o->shadow[i].slot);
	free(o->shadow);
	free(o->obl);
	free(o->cadence);
	free(o->findings);
	free(o->evicted);
	free(o->runs);
	free(o->max_seq_seen);
	free(o->min_seq_seen);
	free(o->flag_pages);
	aw_cause_log_free(o->causes);
	aw_gen_shadow_free(o->gen);
	aw_tier_shadow_free(o->tier);
	free(o);
	k->oracle = NULL;
}

int aw_oracle_nr_findings(const struct aw_kernel *k)
{
	return k->oracle ? k->oracle->nr_findings : 0;
}

struct aw_gen_shadow **aw_oracle_gen_slot(struct aw_kernel *k)
{
	return k->oracle ? &k->oracle->gen : NULL;
}

struct aw_tier_shadow **aw_oracle_tier_slot(struct aw_kernel *k)
{
	return k->oracle ? &k->oracle->tier : NULL;
}

struct aw_cause_log *aw_oracle_causes(const struct aw_kernel *k)
{
	return k->oracle ? k->oracle->causes : NULL;
}

const struct aw_finding *aw_oracle_finding(const struct aw_kernel *k, int i)
{
	if (!k->oracle || i < 0 || i >= k->oracle->nr_findings)
		return NULL;
	return &k->oracle->findings[i];
}

const struct aw_oracle_metrics *aw_oracle_metrics(const struct aw_kernel *k, int nid)
{
	static const struct aw_oracle_metrics none;

	return k->oracle && nid >= 0 && nid < AW_MAX_NODES ? &k->oracle->metrics[nid] : &none;
}

void aw_oracle_report(struct aw_kernel *k, enum aw_oracle_id id, const char *cause, const char *fmt, ...)
{
	struct aw_oracle *o = k->oracle;
	struct aw_finding *f;
	va_list ap;

	if (!o || o->nr_findings >= 1000)
		return;
	if (o->nr_findings == o->cap_findings) {
		int cap = o->cap_findings ? o->cap_findings * 2 : 8;
		struct aw_finding *a = realloc(o->findings, cap * sizeof(*a));

		if (!a)
			aw_oracle_oom("findings");
		o->findings = a;
		o->cap_findings = cap;
	}
	f = &o->findings[o->nr_findings++];
	f->oracle = id;
	f->event = k->event_index;
	snprintf(f->cause, sizeof(f->cause), "%s", cause);
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
}

int aw_oracle_evicted(const struct aw_kernel *k, const struct aw_evicted **list)
{
	if (!k->oracle) {
		*list = NULL;
		return 0;
	}
	*list = k->oracle->evicted;
	return k->oracle->nr_evicted;
}

void aw_oracle_event_begin(struct aw_kernel *k)
{
	if (k->oracle)
		k->oracle->nr_evicted = 0;
}

/* ---- exact-filter --------------------------------------------------------- */

static struct aw_keyset *shadow_of(struct aw_oracle *o, struct lruvec *lruvec, int level,
				   unsigned long seq)
{
	return &o->shadow[(lruvec->index * BLOOM_FILTER_LEVELS + level) * NR_BLOOM_FILTERS +
			  filter_gen_from_seq(seq)];
}

void aw_or_filter_reset(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq)
{
	struct aw_keyset *s;

	if (!k->oracle)
		return;
	s = shadow_of(k->oracle, lruvec, level, seq);
	s->null = false;
	keyset_clear(s);
}

void aw_or_filter_insert(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
			 uint64_t key)
{
	struct aw_keyset *s;

	if (!k->oracle)
		return;
	s = shadow_of(k->oracle, lruvec, level, seq);
	if (!s->null)	/* updating a NULL filter does nothing */
		keyset_add(s, key);
}

void aw_or_filter_test(struct aw_kernel *k, struct lruvec *lruvec, int level, unsigned long seq,
		       uint64_t key, bool answer)
{
	struct aw_keyset *s;
	bool want;

	if (!k->oracle)
		return;
	s = shadow_of(k->oracle, lruvec, level, seq);
	want = s->null || keyset_has(s, key);	/* a NULL filter tests true */
	if (!answer && want)
		aw_oracle_report(k, AW_OR_EXACT_FILTER,
				 s->null ? (level == BLOOM_FILTER_PUD ? "PUD filter never reset: a NULL filter tests true"
								    : "PMD filter never reset: a NULL filter tests true")
					 : (level == BLOOM_FILTER_PUD ? "PUD filter lost a key inserted since its reset"
								      : "PMD filter lost a key inserted since its reset"),
				 "node %d memcg %d: the %s filter for seq %lu says key 0x%llx is absent, but %s "
				 "(a false negative)",
				 lruvec->nid, lruvec->memcg, level == BLOOM_FILTER_PUD ? "PUD" : "PMD", seq,
				 (unsigned long long)key,
				 s->null ? "that filter was never reset, and a NULL filter tests true"
					 : "it was inserted since the filter's reset");
	else if (answer && !want)
		k->oracle->metrics[lruvec->nid].bloom_false_positive++;
}

/* ---- stale-suppression ---------------------------------------------------- */

void aw_or_feedback(struct aw_kernel *k, struct lruvec *lruvec, struct mm_struct *mm, uint64_t addr,
		    unsigned long due_seq, const char *cause)
{
	struct aw_oracle *o = k->oracle;
	struct aw_obligation *ob;

	if (!o)
		return;
	for (int i = 0; i < o->nr_obl; i++) {
		ob = &o->obl[i];
		if (ob->lruvec == lruvec->index && ob->mm == mm->id && ob->pud == (addr & PUD_MASK) &&
		    ob->due == due_seq)
			return;
	}
	if (o->nr_obl == o->cap_obl) {
		int cap = o->cap_obl ? o->cap_obl * 2 : 64;
		struct aw_obligation *a = realloc(o->obl, cap * sizeof(*a));

		if (!a)
			aw_oracle_oom("feedback obligations");
		o->obl = a;
		o->cap_obl = cap;
	}
	o->obl[o->nr_obl++] = (struct aw_obligation){
		.lruvec = lruvec->index, .mm = mm->id, .pud = addr & PUD_MASK,
		.due = due_seq, .cause = cause,
	};
}

/*
 * Does the PUD subtree hold a young leaf of this lruvec (what base would
 * age)?  can_swap: the walk's get_pfn_folio() filter (6.1/6.12 drop anon
 * folios when the walk cannot swap).
 */
static bool subtree_young(struct aw_kernel *k, uint64_t pudval, int memcg, int nid, bool can_swap)
{
	const struct aw_ptable *pmd = aw_table(&k->pt, aw_entry_table(pudval));

	for (int i = 0; i < PTRS_PER_PMD; i++) {
		const struct aw_ptable *pt;

		if (!pmd_present(pmd->e[i]))
			continue;
		if (pmd_trans_huge(pmd->e[i])) {
			if (pmd_young(pmd->e[i]) && !is_huge_zero_pmd(pmd->e[i]) &&
			    get_pfn_folio(k, pmd_pfn(pmd->e[i]), memcg, nid, can_swap))
				return true;
			continue;
		}
		pt = aw_table(&k->pt, aw_entry_table(pmd->e[i]));
		for (int j = 0; j < PTRS_PER_PTE; j++) {
			pte_t pte = pt->e[j];

			if (pte_present(pte) && pte_young(pte) && !is_zero_pfn(pte_pfn(pte)) &&
			    get_pfn_folio(k, pte_pfn(pte), memcg, nid, can_swap))
				return true;
		}
	}
	return false;
}

/* A skipped PUD: count its region-pass if the subtree held a young leaf. */
static void count_suppressed(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t pudval)
{
	struct aw_oracle *o = k->oracle;
	int nid = walk->lruvec->nid;
	int region = walk->vma ? walk->vma->region : 0;
	int pass = walk->pass_idx >= 0 ? k->node_stats[nid].passes[walk->pass_idx].pass : 0;
	struct aw_suppress_run *r;

	if (region > k->nr_regions)
		region = 0;
	r = &o->runs[region * AW_MAX_NODES + nid];
	if (r->last_pass == pass)
		return;	/* one region-pass, however many PUDs */
	/* after the cheap test: the scan costs as much as the walk the skip saved */
	if (!subtree_young(k, pudval, walk->lruvec->memcg, nid,
			   !k->prof->can_swap_arg || walk->swappiness))
		return;
	o->metrics[nid].suppressed_young++;
	r->run = r->last_pass == pass - 1 ? r->run + 1 : 1;
	r->last_pass = pass;
	if (region && (unsigned long)r->run > o->metrics[nid].suppressed_longest)
		o->metrics[nid].suppressed_longest = r->run;
}

void aw_or_pud_visit(struct aw_kernel *k, struct lru_gen_mm_walk *walk, uint64_t addr,
		     uint64_t pudval, bool skipped)
{
	struct aw_oracle *o = k->oracle;

	if (!o)
		return;
	for (int i = 0; i < o->nr_obl; i++) {
		struct aw_obligation *ob = &o->obl[i];

		if (ob->lruvec != walk->lruvec->index || ob->mm != walk->mm->id ||
		    ob->pud != (addr & PUD_MASK) || ob->due != walk->seq)
			continue;
		if (skipped)
			aw_oracle_report(k, AW_OR_STALE_SUPPRESSION, ob->cause,
					 "node %d: the pass for seq %lu skipped PUD 0x%llx of mm %u although %s "
					 "for that pass",
					 walk->lruvec->nid, walk->seq, (unsigned long long)ob->pud, ob->mm,
					 ob->cause);
		else
			o->metrics[walk->lruvec->nid].feedback_kept++;
		o->obl[i--] = o->obl[--o->nr_obl];
	}
	if (skipped && !o->findings_only)
		count_suppressed(k, walk, pudval);
}

/* ---- emptymap-cadence ----------------------------------------------------- */

static struct aw_cadence *cadence_of(struct aw_oracle *o, uint32_t mm)
{
	struct aw_cadence *a = aw_grow_zeroed(o->cadence, &o->cap_cadence, (int)mm, sizeof(*a), 64);

	if (!a)
		aw_oracle_oom("emptymap cadence");
	o->cadence = a;
	return &o->cadence[mm];
}

void aw_or_mm_considered(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
			 bool walked)
{
	struct aw_cadence *c;
	int nid = walk->lruvec->nid;
	bool want = true;

	if (!k->oracle || !(k->features & AW_FEAT_EMPTYMAP) || !(c = cadence_of(k->oracle, mm->id)))
		return;
	if (!walk->force_scan && (c->mark >> nid & 1)) {
		if (c->count[nid] < 255)	/* saturates, as the model's clock does */
			c->count[nid]++;
		/* clock=mm: passes that considered it; clock=pass: the node's passes */
		if (k->cfg.empty.clock == AW_EMPTY_CLOCK_PASS)
			want = walk->seq - c->mark_seq[nid] >= (unsigned long)k->skip_empty;
		else
			want = c->count[nid] >= k->skip_empty;
	}
	if (want != walked)
		aw_oracle_report(k, AW_OR_EMPTYMAP_CADENCE,
				 walked ? "mm walked while marked empty and not yet due"
					: "mm skipped while marked empty although due a walk",
				 "node %d: mm %u %s, but by the contract it is %s (empty since its last walk "
				 "for this node at seq %lu, %d pass%s with its node bit set since, skip_empty %d)",
				 nid, mm->id, walked ? "was walked" : "was skipped",
				 want ? "due a walk" : "still skipped", c->mark_seq[nid],
				 c->count[nid], c->count[nid] == 1 ? "" : "es", k->skip_empty);
}

/*
 * force-scan-complete, at the mm list: get_next_mm() (6.1: should_skip_mm())
 * tests the node bit only when !walk->force_scan -- a forced walker takes
 * an mm that has not run since the last walk.  The size test (6.1) and
 * mmget_not_zero() still apply; the empty skip is emptymap-cadence's.
 */
void aw_or_mm_skipped(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm, int why)
{
	if (!k->oracle || !walk->force_scan || why != AW_MM_SKIP_BITMAP)
		return;
	aw_oracle_report(k, AW_OR_FORCE_SCAN_COMPLETE, "forced walker skipped an mm for its node bit",
			 "node %d: a forced walker skipped mm %u because its node bit was clear",
			 walk->lruvec->nid, mm->id);
}

void aw_or_walk_done(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm, int err)
{
	int nid = walk->lruvec->nid;

	if (!k->oracle)
		return;
	if (walk->mm_stats[MM_LEAF_YOUNG] > walk->mm_stats[MM_LEAF_TOTAL] ||
	    walk->mm_stats[MM_LEAF_ASSOCIATED] > walk->mm_stats[MM_LEAF_TOTAL])
		aw_oracle_report(k, AW_OR_STRUCTURAL, "walk counted more young or associated leaves than leaves",
				 "node %d mm %u: a walk counted Y=%lu A=%lu > T=%lu",
				 nid, mm->id, walk->mm_stats[MM_LEAF_YOUNG],
				 walk->mm_stats[MM_LEAF_ASSOCIATED], walk->mm_stats[MM_LEAF_TOTAL]);
	/* force-scan-complete: a forced walk that ran reads every present PUD */
	if (walk->force_scan && !err && walk->mm_stats[MM_PUD_EMPTY_SKIPPED])
		aw_oracle_report(k, AW_OR_FORCE_SCAN_COMPLETE, "forced walk skipped a PUD subtree",
				 "node %d: a forced walk of mm %u skipped %lu PUD subtree%s", nid, mm->id,
				 walk->mm_stats[MM_PUD_EMPTY_SKIPPED],
				 walk->mm_stats[MM_PUD_EMPTY_SKIPPED] == 1 ? "" : "s");
	if ((k->features & AW_FEAT_EMPTYMAP) && !err) {
		struct aw_cadence *c = cadence_of(k->oracle, mm->id);

		if (!c)
			return;
		/* the contract's "empty", from the walk's own counts */
		if (walk->mm_stats[k->cfg.empty.pred == AW_EMPTY_NO_LEAVES ? MM_LEAF_TOTAL : MM_LEAF_ASSOCIATED] == 0)
			c->mark |= 1U << nid;
		else
			c->mark &= ~(1U << nid);
		c->count[nid] = 0;
		c->mark_seq[nid] = walk->seq;
	}
}

/*
 * Something happened to mm's memory (the aw_mm_fault facts): the shadow
 * clears its marks when the contract names the event -- a major fault
 * always; a migration, a huge or a small first-touch fault, a collapse
 * as the contract's clear= says (contract.h).  The shadow never reads the
 * model's own clearing: a model that clears without a reason, or misses
 * one, then walks or skips where the shadow does not.
 */
void aw_or_mm_event(struct aw_kernel *k, struct mm_struct *mm, int kind)
{
	unsigned int clear = k->cfg.empty.clear;
	struct aw_cadence *c;
	/* a migration comes from aw_or_folio_migrated(), not from the model's report of it */
	bool clears = kind == AW_FAULT_MAJOR ||
		      (kind == AW_FAULT_HUGE && (clear & AW_EMPTY_CLEAR_HUGE)) ||
		      (kind == AW_FAULT_MINOR && (clear & AW_EMPTY_CLEAR_MINOR)) ||
		      (kind == AW_FAULT_COLLAPSED && (clear & AW_EMPTY_CLEAR_COLLAPSE));

	if (!k->oracle || !clears || !(k->features & AW_FEAT_EMPTYMAP) || !(c = cadence_of(k->oracle, mm->id)))
		return;
	c->mark = 0;
	memset(c->count, 0, sizeof(c->count));
}

/*
 * A folio moved to another node: with clear=migration the contract clears
 * the marks of every mm it is mapped in.  The shadow finds those mms in
 * the reverse map itself, so a model that forgets to tell an mm of the
 * migration (or tells the wrong ones) walks or skips where the shadow does
 * not.
 */
void aw_or_folio_migrated(struct aw_kernel *k, const struct folio *folio)
{
	uint32_t idx = 0, mm_id;
	uint64_t addr;

	if (!k->oracle || !(k->features & AW_FEAT_EMPTYMAP) || !(k->cfg.empty.clear & AW_EMPTY_CLEAR_MIGRATION))
		return;
	while (aw_rmap_next(&k->mem, folio, &idx, &mm_id, &addr)) {
		struct aw_cadence *c = cadence_of(k->oracle, mm_id);

		if (!c)
			continue;
		c->mark = 0;
		memset(c->count, 0, sizeof(c->count));
	}
}

/* ---- premature-reclaim ---------------------------------------------------- */

void aw_or_reclaim_decision(struct aw_kernel *k, uint32_t pfn, bool young_before, bool reclaim,
			    bool ignore_references, int target_memcg)
{
	if (!k->oracle || !reclaim || !young_before || ignore_references)
		return;
	aw_oracle_report(k, AW_OR_PREMATURE_RECLAIM, "reclaimed a folio mapped young at the reference check",
			 "folio pfn 0x%x (node %d) was chosen for reclaim although a mapping of it was young "
			 "when folio_check_references() ran", pfn, aw_pfn_nid(&k->mem, pfn));
	(void)target_memcg;
}

/*
 * The premature-reclaim rule's own look at the page tables: is any PTE or
 * PMD mapping this folio, in an mm the reference check looks at, young
 * right now?  Read through the reverse map before the check clears anything.
 */
static bool folio_mapped_young(struct aw_kernel *k, uint32_t pfn, int target_memcg)
{
	struct folio *folio = pfn_folio(&k->mem, pfn);
	uint32_t idx = 0, mm_id;
	uint64_t addr;

	while (aw_rmap_next(&k->mem, folio, &idx, &mm_id, &addr)) {
		struct mm_struct *mm = aw_mm(k, mm_id);
		struct vm_area_struct *vma;
		pmd_t *pmd;
		pte_t *pte;

		if (!mm || (target_memcg >= 0 && mm->memcg != target_memcg))
			continue;
		/*
		 * a mapping the release's folio_referenced() never counts is no
		 * reference: 6.12 and mainline skip a VMA without recency
		 * (vma_has_recency()); 6.1 clears a VM_SEQ_READ PTE uncounted
		 */
		vma = find_vma(mm, addr);
		if (vma && addr < vma->vm_start)
			vma = NULL;
		if (vma && k->prof->referenced_skips_no_recency && (vma->vm_flags & (VM_SEQ_READ | VM_RAND_READ)))
			continue;
		pmd = aw_pmd_lookup(k, mm, addr, false, NULL);
		if (pmd && pmd_trans_huge(*pmd)) {
			if (pmd_young(*pmd))
				return true;
			continue;
		}
		pte = aw_pte_lookup(k, mm, addr, false, NULL);
		if (pte && pte_present(*pte) && pte_young(*pte) && !(vma && (vma->vm_flags & VM_SEQ_READ)))
			return true;
	}
	return false;
}

void aw_or_reclaim_check(struct aw_kernel *k, uint32_t pfn, int target_memcg)
{
	if (!k->oracle)
		return;
	k->oracle->reclaim_young = folio_mapped_young(k, pfn, target_memcg);
	k->oracle->reclaim_memcg = target_memcg;
}

/*
 * Whether the references may be ignored is the request's, not the
 * reclaimer's: only MADV_PAGEOUT (reclaim_pages()) asks for it.  The
 * reclaimer's own ignore_references is not read, so a reclaimer that
 * ignored them elsewhere is judged by the young check like any other.
 */
void aw_or_event_request(struct aw_kernel *k, const struct aw_event *ev)
{
	if (k->oracle)
		k->oracle->pageout = ev && ev->kind == AW_EV_MADVISE && ev->arg == AW_MADV_PAGEOUT;
}

void aw_or_reclaim_decided(struct aw_kernel *k, uint32_t pfn, bool reclaim, bool ignore_references)
{
	if (!k->oracle)
		return;
	(void)ignore_references;
	aw_or_reclaim_decision(k, pfn, k->oracle->reclaim_young, reclaim, k->oracle->pageout,
			       k->oracle->reclaim_memcg);
	k->oracle->reclaim_young = false;
}

void aw_or_evicted(struct aw_kernel *k, const struct folio *folio, uint32_t mm, uint64_t addr, bool hot)
{
	struct aw_oracle *o = k->oracle;

	if (!o || o->nr_evicted >= 1 << 20)
		return;
	if (o->nr_evicted == o->cap_evicted) {
		int cap = o->cap_evicted ? o->cap_evicted * 2 : 256;
		struct aw_evicted *a = realloc(o->evicted, cap * sizeof(*a));

		if (!a)
			aw_oracle_oom("eviction log");
		o->evicted = a;
		o->cap_evicted = cap;
	}
	o->evicted[o->nr_evicted++] = (struct aw_evicted){ .mm = mm, .addr = addr, .hot = hot,
							    .nid = folio->nid, .memcg = folio->memcg,
							    .huge = folio->order > 0 };
}

/* ---- structural ------------------------------------------------------------ */

static void check_window(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	for (int type = 0; type < ANON_AND_FILE; type++) {
		unsigned long n = lrugen->max_seq - lrugen->min_seq[type] + 1;

		if (n < MIN_NR_GENS || n > MAX_NR_GENS)
			aw_oracle_report(k, AW_OR_STRUCTURAL, "generation count out of range",
					 "node %d memcg %d: %s has %lu generations (max_seq %lu, min_seq %lu)",
					 lruvec->nid, lruvec->memcg, type ? "file" : "anon", n,
					 lrugen->max_seq, lrugen->min_seq[type]);
	}
}

/* The size counters vs the pages the folios' flags put in each generation. */
static void check_sizes(struct aw_kernel *k, struct lruvec *lruvec,
			const long (*by_flag)[ANON_AND_FILE])
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	for (int gen = 0; gen < MAX_NR_GENS; gen++)
		for (int type = 0; type < ANON_AND_FILE; type++)
			if (by_flag[gen][type] != lrugen->nr_pages[gen][type])
				aw_oracle_report(k, AW_OR_STRUCTURAL, "nr_pages disagrees with the folios' generations",
						 "node %d memcg %d: nr_pages[gen %d][%s] = %ld but the folios "
						 "whose flags say gen %d hold %ld pages", lruvec->nid,
						 lruvec->memcg, gen, type ? "file" : "anon",
						 lrugen->nr_pages[gen][type], gen, by_flag[gen][type]);
}

/*
 * Each list of the lruvec walked from its head, reporting the first thing
 * wrong; false if it reported one (by_flag is then incomplete).
 */
static bool walk_lists(struct aw_kernel *k, struct lruvec *lruvec, long (*by_flag)[ANON_AND_FILE])
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;

	for (int gen = 0; gen < MAX_NR_GENS; gen++) {
		for (int type = 0; type < ANON_AND_FILE; type++) {
			const struct list_head *head = &lrugen->folios[gen][type];
			const struct list_head *h, *prev = head;
			uint64_t guard = 0, limit = k->mem.nr_folio_structs + 1;

			for (h = head->next; h != head; prev = h, h = h->next) {
				if (guard++ > limit) {
					aw_oracle_report(k, AW_OR_STRUCTURAL, "generation list has a cycle",
							 "node %d memcg %d: list gen %d type %d does not end "
							 "(a cycle)", lruvec->nid, lruvec->memcg, gen, type);
					return false;
				}
				const struct folio *f = list_entry(h, const struct folio, lru);

				/*
				 * on this lruvec's list: linked both ways (what
				 * CONFIG_DEBUG_LIST checks), a flag generation and
				 * its type, its memcg and node.  Being on the list of
				 * [gen][type] is membership itself: the folio keeps
				 * no copy of which list it is on.
				 */
				if (h->prev != prev || folio_lru_gen(f) < 0 || folio_is_file_lru(f) != type ||
				    f->memcg != lruvec->memcg || f->nid != lruvec->nid) {
					aw_oracle_report(k, AW_OR_STRUCTURAL, "folio on the wrong generation list",
							 "node %d memcg %d: folio 0x%x on list gen %d type %d is "
							 "not a well-formed member of it", lruvec->nid,
							 lruvec->memcg, f->pfn, gen, type);
					return false;
				}
				by_flag[folio_lru_gen(f)][type] += folio_nr_pages(f);
			}
			/* the last link back from the head */
			if (head->prev != prev) {
				aw_oracle_report(k, AW_OR_STRUCTURAL, "generation list head's prev is not its last folio",
						 "node %d memcg %d: list gen %d type %d: the head's prev is not "
						 "its last folio", lruvec->nid, lruvec->memcg, gen, type);
				return false;
			}
		}
	}
	return true;
}

/* Folios on the lists vs the size counters, per flag generation. */
static void check_lruvec(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct lru_gen_folio *lrugen = &lruvec->lrugen;
	long by_flag[MAX_NR_GENS][ANON_AND_FILE] = { { 0 } };
	bool ok = true;

	check_window(k, lruvec);
	/* the same limit as walk_lists()' cycle guard: more folios than there are is a cycle */
	for (int gen = 0; gen < MAX_NR_GENS && ok; gen++)
		for (int type = 0; type < ANON_AND_FILE && ok; type++)
			ok = aw_or_list_well_formed(lruvec, &lrugen->folios[gen][type], type,
						    k->mem.nr_folio_structs + 1, &by_flag[0][0]);
	if (!ok) {
		memset(by_flag, 0, sizeof(by_flag));
		if (!walk_lists(k, lruvec, by_flag))
			return;
	}
	/*
	 * Well-formed lists: the shadow kept at every flag write must count
	 * the same, or the check before inc_max_seq() would be comparing with
	 * the wrong figures: a flag generation written without
	 * aw_or_gen_moved().  Resynchronised after the report.
	 */
	if (memcmp(by_flag, k->oracle->flag_pages[lruvec->index], sizeof(by_flag))) {
		aw_oracle_report(k, AW_OR_STRUCTURAL, "a generation flag write the oracle did not see",
				 "node %d memcg %d: the folios on the lists disagree with the oracle's "
				 "flag-generation shadow (a flag write the oracle did not see)",
				 lruvec->nid, lruvec->memcg);
		memcpy(k->oracle->flag_pages[lruvec->index], by_flag, sizeof(by_flag));
	}
	check_sizes(k, lruvec, (const long (*)[ANON_AND_FILE])by_flag);
}

void aw_or_gen_moved(struct aw_kernel *k, const struct folio *folio, int old_gen, int new_gen)
{
	int idx = folio->memcg * k->nr_nodes + folio->nid;
	int type = folio_is_file_lru(folio);
	long nr = folio_nr_pages(folio);

	if (idx >= k->oracle->nr_lruvecs)
		return;
	if (old_gen >= 0 && old_gen < MAX_NR_GENS)
		k->oracle->flag_pages[idx][old_gen][type] -= nr;
	if (new_gen >= 0 && new_gen < MAX_NR_GENS)
		k->oracle->flag_pages[idx][new_gen][type] += nr;
}

void aw_or_gen_moved_batch(struct aw_kernel *k, const struct lruvec *lruvec, const long *pages)
{
	long *sh = &k->oracle->flag_pages[lruvec->index][0][0];

	for (int i = 0; i < MAX_NR_GENS * ANON_AND_FILE; i++)
		sh[i] += pages[i];
}

void aw_or_check_structure(struct aw_kernel *k)
{
	struct aw_oracle *o = k->oracle;

	if (!o)
		return;
	for (int i = 0; i < o->nr_lruvecs; i++) {
		struct lruvec *l = &k->lruvecs[i];

		if (l->lrugen.max_seq < o->max_seq_seen[i])
			aw_oracle_report(k, AW_OR_STRUCTURAL, "max_seq went back", "node %d memcg %d: max_seq went back to %lu",
					 l->nid, l->memcg, l->lrugen.max_seq);
		o->max_seq_seen[i] = l->lrugen.max_seq;
		for (int t = 0; t < ANON_AND_FILE; t++) {
			if (l->lrugen.min_seq[t] < o->min_seq_seen[i][t])
				aw_oracle_report(k, AW_OR_STRUCTURAL, "min_seq went back",
						 "node %d memcg %d: min_seq[%s] went back to %lu",
						 l->nid, l->memcg, t ? "file" : "anon", l->lrugen.min_seq[t]);
			o->min_seq_seen[i][t] = l->lrugen.min_seq[t];
		}
	}
}

/*
 * Always before inc_max_seq(): the walk's batched counts must be flushed
 * by then (reset_batch_size()), and a later walk could hide a miss.
 */
void aw_or_before_inc_max_seq(struct aw_kernel *k, struct lruvec *lruvec)
{
	/*
	 * The flag-generation shadow stands for the list walk here; the walk
	 * itself (cycles, well-formed members) runs on the sampled schedule
	 * of aw_oracle_event_end() and at the end of a run.
	 */
	if (!k->oracle)
		return;
	check_window(k, lruvec);
	check_sizes(k, lruvec, (const long (*)[ANON_AND_FILE])k->oracle->flag_pages[lruvec->index]);
}

void aw_or_pass_finished(struct aw_kernel *k, struct lruvec *lruvec)
{
	struct aw_oracle *o = k->oracle;

	if (!o)
		return;
	/* obligations whose pass has come and gone unchecked were exempt */
	for (int i = 0; i < o->nr_obl; i++) {
		struct aw_obligation *ob = &o->obl[i];

		if (ob->lruvec != lruvec->index || ob->due >= lruvec->lrugen.max_seq)
			continue;
		o->metrics[lruvec->nid].feedback_lost++;
		o->obl[i--] = o->obl[--o->nr_obl];
	}
}

static void check_all_lruvecs(struct aw_kernel *k)
{
	for (int i = 0; i < k->oracle->nr_lruvecs; i++)
		check_lruvec(k, &k->lruvecs[i]);
}

void aw_oracle_event_end(struct aw_kernel *k)
{
	long pages = 0;

	if (!k->oracle)
		return;
	aw_or_check_structure(k);
	/*
	 * The full list walk costs one step per folio and one per list head
	 * (MAX_NR_GENS x ANON_AND_FILE per lruvec).  Run it once per as many
	 * events as it has steps, so it costs about one step per event
	 * whatever the size (a replay of a million events would otherwise
	 * spend most of its time here, and a small machine's many list heads
	 * would dominate its events).  inc_max_seq() always checks the sizes
	 * of the lruvec it is about to age against the flag shadow, and the
	 * end of a run walks everything.
	 */
	if (k->event_index < k->oracle->next_full_check)
		return;
	for (int i = 0; i < k->oracle->nr_lruvecs; i++)
		for (int g = 0; g < MAX_NR_GENS; g++)
			pages += k->lruvecs[i].lrugen.nr_pages[g][0] + k->lruvecs[i].lrugen.nr_pages[g][1];
	k->oracle->next_full_check = k->event_index + (uint64_t)pages +
				     (uint64_t)k->oracle->nr_lruvecs * MAX_NR_GENS * ANON_AND_FILE;
	check_all_lruvecs(k);
}

void aw_oracle_run_end(struct aw_kernel *k)
{
	if (k->oracle)
		check_all_lruvecs(k);
}

void aw_oracle_findings_only(struct aw_kernel *k)
{
	if (k->oracle)
		k->oracle->findings_only = true;
}
