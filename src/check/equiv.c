// SPDX-License-Identifier: GPL-2.0-only
/*
 * Equivalence oracles: what a series leaves unchanged comes out as base's
 * whenever the page tables it reads are the same (equiv.h says which
 * paths, docs/oracles.md why).  Each kernel's probes record, for the
 * current event, its forced walks and its MADV_COLLAPSE ranges with a
 * digest of their input; the lockstep engine compares a variant's records
 * with base's after the event.
 */
#include <stdlib.h>
#include <string.h>

#include "equiv.h"
#include "kernel.h"

/* ---- digests ---------------------------------------------------------------- */

/*
 * A word at a time: any stable mixing serves (digests are only compared
 * within one run), and a forced walk digests every PTE of the mm, so a
 * byte-wise hash was a tenth of a replay's time.
 */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* The folio facts walk_pte_range()/get_pfn_folio() and the collapse scan read */
static uint64_t folio_facts(const struct aw_kernel *k, uint64_t pfn)
{
	const unsigned long flags = (1UL << PG_lru) | (1UL << PG_unevictable) | (1UL << PG_swapbacked) |
				    (1UL << PG_anon) | (1UL << PG_referenced);
	const struct folio *f = pfn_folio(&k->mem, pfn);

	if (!f)
		return 1;
	return ((uint64_t)(f->flags & flags) << 24) | ((uint64_t)f->nid << 16) | ((uint64_t)f->memcg << 4) |
	       ((uint64_t)(f->order != 0) << 3) | ((uint64_t)(folio_lru_gen(f) >= 0) << 2) |
	       ((uint64_t)(f->mapcount > 1) << 1);
}

static uint64_t entry_bits(uint64_t e)
{
	return e & (_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_RW | _PAGE_PSE | _PAGE_SWP);
}

/* One entry: its kind and bits, and the folio it maps; never the pfn or slot */
static uint64_t mix_entry(const struct aw_kernel *k, uint64_t h, uint64_t e)
{
	h = mix(h, entry_bits(e));
	if (pte_present(e))
		h = mix(h, is_zero_pfn(pte_pfn(e)) || pte_pfn(e) == HUGE_ZERO_PFN ? 0 : folio_facts(k, pte_pfn(e)));
	return h;
}

/*
 * The entries of PTE table pt that are not none, each with its index: the
 * same digest as of all 512 in order, for the purpose of telling two
 * tables apart, at the cost of what is mapped rather than of the table
 * (most of a fuzzed machine's tables hold a few pages; the full loop was
 * a fifth of agewalk_fuzz_lockstep's time).
 */
static uint64_t mix_pte_table(const struct aw_kernel *k, uint64_t h, const struct aw_ptable *pt)
{
	for (unsigned int i = aw_pt_next_nonzero(pt->e, 0, PTRS_PER_PTE); i < PTRS_PER_PTE;
	     i = aw_pt_next_nonzero(pt->e, i + 1, PTRS_PER_PTE))
		if (entry_bits(pt->e[i]))	/* a file shadow reads as none, as before */
			h = mix_entry(k, mix(h, i), pt->e[i]);
	return mix(h, PTRS_PER_PTE);
}

/* A PMD entry, and its PTE table if it has one */
static uint64_t mix_pmd(const struct aw_kernel *k, uint64_t h, pmd_t pmd)
{
	h = mix_entry(k, h, pmd);
	if (!pmd_present(pmd) || pmd_trans_huge(pmd))
		return h;
	return mix_pte_table(k, h, aw_table(&k->pt, aw_entry_table(pmd)));
}

/* The PMD entry at haddr, and its PTE table if it has one */
static uint64_t mix_pmd_range(struct aw_kernel *k, struct mm_struct *mm, uint64_t h, uint64_t haddr)
{
	pmd_t *pmd = aw_pmd_lookup(k, mm, haddr, false, NULL);

	return pmd ? mix_pmd(k, h, *pmd) : mix(h, 0);
}

/*
 * The PMD entries of [start, end) (start PMD-aligned) that are not none,
 * each with its address, and their PTE tables, and the address of every
 * present PUD.  A none PMD entry is not mixed in: the digest costs what is
 * mapped, not the span of the VMA (a loop over every PMD range with a
 * lookup each was most of aw_equiv_mm_digest()'s time).  But a PMD table
 * of none entries is not the same as no table: a forced walk counts each
 * of its entries in range as a leaf (MM_LEAF_TOTAL), hence the PUDs.
 */
static uint64_t mix_pmds(const struct aw_kernel *k, const struct mm_struct *mm, uint64_t h,
			 uint64_t start, uint64_t end)
{
	const struct aw_ptable *pgd = aw_table(&k->pt, mm->pgd);

	for (uint64_t a = start, next; a < end; a = next) {
		const uint64_t pgde = pgd->e[pgd_index(a)];
		const struct aw_ptable *pmdt;
		uint64_t pude;
		unsigned int i, n;

		next = pud_addr_end(a, end);
		if (!(pgde & _PAGE_PRESENT)) {
			next = pgd_addr_end(a, end);
			continue;
		}
		pude = aw_table(&k->pt, aw_entry_table(pgde))->e[pud_index(a)];
		if (!(pude & _PAGE_PRESENT))
			continue;
		/*
		 * A present PUD, whatever its PMD entries: the walk reads each
		 * of them, and counts every none one as a leaf, where it reads
		 * nothing under a missing PMD table.  (Not the PUD's accessed
		 * bit, which the PUD filter clears and base never reads.)
		 */
		h = mix(h, (a & PUD_MASK) | 1);
		pmdt = aw_table(&k->pt, aw_entry_table(pude));
		n = pmd_index(next - 1) + 1;
		for (i = aw_pt_next_nonzero(pmdt->e, pmd_index(a), n); i < n;
		     i = aw_pt_next_nonzero(pmdt->e, i + 1, n))
			h = mix_pmd(k, mix(h, (a & PUD_MASK) + ((uint64_t)i << PMD_SHIFT)), pmdt->e[i]);
	}
	return mix(h, end);
}

uint64_t aw_equiv_range_digest(struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr)
{
	const struct vm_area_struct *vma = find_vma(mm, haddr);
	uint64_t h = 0xcbf29ce484222325ULL;

	if (vma)
		h = mix(mix(mix(h, vma->vm_start), vma->vm_end), vma->vm_flags);
	return mix_pmd_range(k, mm, h, haddr);
}

/*
 * Every VMA (the walk's should_skip_vma() reads the flags) and every PMD
 * range it covers.  The PUD and PGD entries are left out: base never reads
 * their accessed bits, the PUD filter does, so they differ between the two
 * machines whenever the filter ran, without changing what a forced walk
 * reads below them.
 */
uint64_t aw_equiv_mm_digest(struct aw_kernel *k, struct mm_struct *mm)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];

		h = mix(mix(mix(h, vma->vm_start), vma->vm_end), vma->vm_flags);
		h = mix_pmds(k, mm, h, vma->vm_start & PMD_MASK, vma->vm_end);
	}
	return h;
}

/* ---- the probes ----------------------------------------------------------------- */

#define PUSH(arr, nr, cap, what)						\
	do {									\
		if ((nr) == (cap)) {						\
			int c_ = (cap) ? (cap) * 2 : 16;			\
			void *a_ = realloc((arr), (size_t)c_ * sizeof(*(arr)));	\
			if (!a_)						\
				aw_oracle_oom(what);				\
			(arr) = a_;						\
			(cap) = c_;						\
		}								\
	} while (0)

static void probe_walk_begin(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			     struct mm_struct *mm)
{
	struct aw_equiv *eq = data;

	if (!walk->force_scan)
		return;
	eq->walk_digest = aw_equiv_mm_digest(k, mm);
	PUSH(eq->walks, eq->nr_walks, eq->cap_walks, "equivalence walks");
	/* the counters at the start: the walk's own are the difference at its end */
	eq->walks[eq->nr_walks] = (struct aw_equiv_walk){
		.stat = { walk->mm_stats[MM_LEAF_TOTAL], walk->mm_stats[MM_LEAF_YOUNG],
			  walk->mm_stats[MM_NONLEAF_FOUND], walk->mm_stats[MM_NONLEAF_ADDED],
			  walk->aw_stats[AW_WS_PMD_READ] },
	};
}

static void probe_walk_end(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			   struct mm_struct *mm, int err)
{
	struct aw_equiv *eq = data;
	struct aw_equiv_walk *w;
	const unsigned long now[AW_EQ_NR] = {
		walk->mm_stats[MM_LEAF_TOTAL], walk->mm_stats[MM_LEAF_YOUNG],
		walk->mm_stats[MM_NONLEAF_FOUND], walk->mm_stats[MM_NONLEAF_ADDED],
		walk->aw_stats[AW_WS_PMD_READ],
	};

	if (!walk->force_scan || eq->nr_walks == eq->cap_walks)
		return;
	w = &eq->walks[eq->nr_walks];	/* probe_walk_begin() made room and saved the counters */
	w->mm = mm->id;
	w->nid = walk->lruvec->nid;
	w->memcg = walk->lruvec->memcg;
	w->err = err;
	w->digest = eq->walk_digest;
	for (int i = 0; i < AW_EQ_NR; i++)
		w->stat[i] = now[i] - w->stat[i];
	eq->nr_walks++;
}

static void probe_collapse_begin(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr)
{
	struct aw_equiv *eq = data;

	eq->range_digest = aw_equiv_range_digest(k, mm, haddr);
}

static void probe_collapse_end(void *data, struct aw_kernel *k, struct mm_struct *mm, uint64_t haddr,
			       int result)
{
	struct aw_equiv *eq = data;

	PUSH(eq->ranges, eq->nr_ranges, eq->cap_ranges, "equivalence ranges");
	eq->ranges[eq->nr_ranges++] = (struct aw_equiv_range){
		.mm = mm->id, .haddr = haddr, .digest = eq->range_digest, .result = result,
	};
}

int aw_equiv_attach(struct aw_equiv *eq, struct aw_kernel *k)
{
	memset(eq, 0, sizeof(*eq));
	eq->k = k;
	if (register_trace_lru_gen_walk_begin(k, probe_walk_begin, eq) ||
	    register_trace_mm_vmscan_lru_gen_walk(k, probe_walk_end, eq) ||
	    register_trace_aw_madvise_collapse_begin(k, probe_collapse_begin, eq) ||
	    register_trace_aw_madvise_collapse_end(k, probe_collapse_end, eq))
		return -1;
	return 0;
}

void aw_equiv_free(struct aw_equiv *eq)
{
	free(eq->walks);
	free(eq->ranges);
	memset(eq, 0, sizeof(*eq));
}

void aw_equiv_event_begin(struct aw_equiv *eq)
{
	eq->nr_walks = 0;
	eq->nr_ranges = 0;
}

/* ---- the comparison ---------------------------------------------------------- */

static const char *const stat_names[AW_EQ_NR] = {
	"MM_LEAF_TOTAL", "MM_LEAF_YOUNG", "MM_NONLEAF_FOUND", "MM_NONLEAF_ADDED", "PMD entries read",
};

/* The n-th forced walk of (mm, lruvec) in e's records, or NULL */
static const struct aw_equiv_walk *nth_walk(const struct aw_equiv *e, const struct aw_equiv_walk *like, int n)
{
	for (int i = 0; i < e->nr_walks; i++) {
		const struct aw_equiv_walk *w = &e->walks[i];

		if (w->mm == like->mm && w->nid == like->nid && w->memcg == like->memcg && n-- == 0)
			return w;
	}
	return NULL;
}

static enum aw_oracle_id compare_walks(const struct aw_equiv *b, const struct aw_equiv *v,
				       char *cause, size_t clen, char *msg, size_t mlen)
{
	for (int i = 0; i < b->nr_walks; i++) {
		const struct aw_equiv_walk *bw = &b->walks[i], *vw;
		int n = 0;

		for (int j = 0; j < i; j++)
			n += b->walks[j].mm == bw->mm && b->walks[j].nid == bw->nid && b->walks[j].memcg == bw->memcg;
		vw = nth_walk(v, bw, n);
		/* an mm left out is the skip rules' business (force-scan-complete, emptymap-cadence) */
		if (!vw)
			continue;
		if (vw->digest != bw->digest || vw->err != bw->err)
			continue;
		for (int s = 0; s < AW_EQ_NR; s++) {
			if (vw->stat[s] == bw->stat[s])
				continue;
			snprintf(cause, clen, "forced walk read the same page tables differently from base: %s",
				 stat_names[s]);
			snprintf(msg, mlen, "node %d memcg %d mm %u: %s %lu, base %lu", bw->nid, bw->memcg, bw->mm,
				 stat_names[s], vw->stat[s], bw->stat[s]);
			return AW_OR_FORCED_WALK_EQUIV;
		}
	}
	return AW_OR_NR;
}

/* Results that depend on free memory or a charge, which two machines need not share */
static bool result_depends_on_memory(int result)
{
	return result == SCAN_ALLOC_HUGE_PAGE_FAIL || result == SCAN_CGROUP_CHARGE_FAIL || result == SCAN_FAIL;
}

/*
 * madvise_collapse() takes its ranges in order and stops at the first
 * result it cannot continue after, so the two lists match pairwise up to
 * the first range whose input differs.
 */
static enum aw_oracle_id compare_ranges(const struct aw_equiv *b, const struct aw_equiv *v,
					char *cause, size_t clen, char *msg, size_t mlen)
{
	for (int i = 0; i < b->nr_ranges && i < v->nr_ranges; i++) {
		const struct aw_equiv_range *br = &b->ranges[i], *vr = &v->ranges[i];

		if (br->mm != vr->mm || br->haddr != vr->haddr || br->digest != vr->digest ||
		    result_depends_on_memory(br->result) || result_depends_on_memory(vr->result))
			break;
		if (br->result == vr->result)
			continue;
		snprintf(cause, clen, "MADV_COLLAPSE decided the same range differently from base: %s, base %s",
			 aw_scan_result_name(vr->result), aw_scan_result_name(br->result));
		snprintf(msg, mlen, "mm %u range 0x%llx: %s, base %s", br->mm, (unsigned long long)br->haddr,
			 aw_scan_result_name(vr->result), aw_scan_result_name(br->result));
		return AW_OR_MADV_COLLAPSE_EQUIV;
	}
	return AW_OR_NR;
}

enum aw_oracle_id aw_equiv_compare(const struct aw_equiv *base, const struct aw_equiv *v,
				   char *cause, size_t clen, char *msg, size_t mlen)
{
	enum aw_oracle_id id = compare_walks(base, v, cause, clen, msg, mlen);


	if (id == AW_OR_NR)
		id = compare_ranges(base, v, cause, clen, msg, mlen);
	return id;
}
