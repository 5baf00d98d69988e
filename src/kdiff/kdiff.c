// SPDX-License-Identifier: GPL-2.0-only
/*
 * Model against kernel text, event by event (kdiff.h).
 *
 * The model applies each event on its machine; this file then makes the
 * same change on the kernel text's machine, reading it off the model's
 * page tables (what a fault mapped, where, with which bits), and compares
 * what MGLRU made of it on each side.  Reading the machine's result, not
 * re-deciding it, is what keeps the comparison about MGLRU: node choice,
 * THP eligibility and zero pages are the machine's, decided once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdiff.h"
#include "kernel.h"

#define BLOOM_WORDS	((1UL << BLOOM_FILTER_SHIFT) / 64)

struct kdiff {
	const struct aw_scenario *sc;
	const struct aw_ktext_ops *ops;
	struct aw_kernel *k;
	struct aw_ktext *kt;
	struct aw_kdiff_result *res;
	unsigned int bugs;
	int *kmm;			/* pid -> kernel-text mm index, -1 none */
	uint32_t *mm_of;		/* kernel-text mm index -> the model's mm id */
	int stat_of[AW_KTEXT_MAX_STATS];	/* the text's stat i -> the model's, -1 none */
	unsigned long *bits;		/* a copy of one kernel-text Bloom filter */
};

static bool differ(struct kdiff *d, const char *fmt, ...)
{
	va_list ap;

	d->res->diverged = true;
	va_start(ap, fmt);
	vsnprintf(d->res->what, sizeof(d->res->what), fmt, ap);
	va_end(ap);
	return true;
}

static bool refuse(struct kdiff *d, const char *why)
{
	d->res->refused = true;
	snprintf(d->res->what, sizeof(d->res->what), "%s", why);
	return true;
}

/* -- mirroring the machine --------------------------------------------- */

static unsigned int access_flags(uint64_t entry, bool write)
{
	return (entry & _PAGE_ACCESSED ? AW_KTEXT_YOUNG : 0) |
	       (entry & _PAGE_DIRTY || write ? AW_KTEXT_DIRTY : 0);
}

/* Page addr of pid's mm as the model has it now, made so on the text's machine. */
static bool mirror_page(struct kdiff *d, struct mm_struct *mm, int kmm, uint64_t addr, bool write)
{
	pmd_t *pmd = aw_pmd_lookup(d->k, mm, addr, false, NULL);
	unsigned int flags = 0;
	struct folio *folio;
	uint64_t entry;
	long kpfn;
	pte_t *pte;

	if (!pmd || !pmd_present(*pmd))
		return false;
	if (pmd_trans_huge(*pmd)) {
		entry = *pmd;
		flags = AW_KTEXT_THP;
		addr &= PMD_MASK;
	} else {
		pte = aw_pte_lookup(d->k, mm, addr, false, NULL);
		if (!pte || !pte_present(*pte))
			return false;
		entry = *pte;
	}
	if (is_zero_pfn(pte_pfn(entry)) || (flags & AW_KTEXT_THP && is_huge_zero_pmd(entry))) {
		/* an anonymous read fault: the (huge) zero page, or an access to it */
		d->ops->map(d->kt, kmm, addr, 0, flags | AW_KTEXT_ZERO | AW_KTEXT_YOUNG, 0);
		d->ops->touch(d->kt, kmm, addr, 0);	/* the access, retried after the fault */
		return false;
	}
	folio = pfn_folio(&d->k->mem, pte_pfn(entry));
	if (!folio)
		return differ(d, "the model maps 0x%llx to a pfn with no folio", (unsigned long long)addr);
	kpfn = d->ops->pfn_at(d->kt, kmm, addr);
	if (kpfn >= 0) {
		/* the same folio: an access; another one: a CoW the small machine cannot unmap */
		if (d->ops->folio_tag(d->kt, kpfn) != folio_pfn(&d->k->mem, folio) + 1)
			return refuse(d, "a mapped page replaced (CoW of a file page): kernel-text runs "
				      "cannot unmap yet");
		d->ops->touch(d->kt, kmm, addr, write ? AW_KTEXT_DIRTY : 0);
		return false;
	}
	/* a fault (a write to the zero page included): the model's folio, node, type and bits */
	flags |= folio_test_anon(folio) ? AW_KTEXT_ANON : AW_KTEXT_FILE;
	if (d->ops->map(d->kt, kmm, addr, folio->nid, flags | access_flags(entry, write),
			folio_pfn(&d->k->mem, folio) + 1) < 0)
		return differ(d, "kernel text could not map 0x%llx as the model did", (unsigned long long)addr);
	/*
	 * The faulting access is retried once the entry is there, and that
	 * hardware walk sets the accessed bit at every level on the way: a
	 * fault in an old PMD makes it young again.
	 */
	d->ops->touch(d->kt, kmm, addr, write ? AW_KTEXT_DIRTY : 0);
	return false;
}

/*
 * name_tables() callback: a table page the text makes for addr at level is
 * named as the model's table there, so both hash the same Bloom keys
 * whatever order either allocated or freed tables in.
 */
static unsigned long model_table_kva(void *ctx, int kmm, unsigned long addr, int level)
{
	struct kdiff *d = ctx;
	struct mm_struct *mm = aw_mm(d->k, d->mm_of[kmm]);
	uint32_t id = mm ? mm->pgd : 0;
	static const int shift[] = { 0, 0, PUD_SHIFT, PGDIR_SHIFT };

	/* down from the PGD: level 3's table hangs off the PGD entry, ... */
	for (int l = 3; id && l >= level; l--) {
		uint64_t e = aw_table(&d->k->pt, id)->e[(addr >> shift[l]) & 511];

		id = (e & _PAGE_PRESENT) && !(e & _PAGE_PSE) ? aw_entry_table(e) : 0;
	}
	return AW_KTEXT_KVA_TABLES + (unsigned long)id * PAGE_SIZE;
}

/* Is the model's entry at level (2 PMD, 3 PUD, 4 PGD) for addr present? */
static bool model_present(struct kdiff *d, struct mm_struct *mm, uint64_t addr, int level)
{
	uint64_t e = aw_table(&d->k->pt, mm->pgd)->e[pgd_index(addr)];

	if (level < 4 && (e & _PAGE_PRESENT))
		e = aw_table(&d->k->pt, aw_entry_table(e))->e[pud_index(addr)];
	if (level < 3 && (e & _PAGE_PRESENT) && !(e & _PAGE_PSE))
		e = aw_table(&d->k->pt, aw_entry_table(e))->e[pmd_index(addr)];
	return e & _PAGE_PRESENT;
}

/*
 * free_pgtables(): after a munmap the model freed the tables no VMA needs
 * any more, between the VMAs around the hole; the text's machine drops the
 * same ones, so that its walk meets pmd_none where the model's does.
 */
static void sync_tables(struct kdiff *d, struct mm_struct *mm, int kmm, uint64_t floor, uint64_t ceiling)
{
	static const uint64_t size[] = { 0, 0, PMD_SIZE, PUD_SIZE, PGDIR_SIZE };

	for (int level = 4; level >= 2; level--)
		for (uint64_t a = floor & ~(size[level] - 1); a < ceiling; a += size[level]) {
			if (level < 4 && !d->ops->present(d->kt, kmm, a, level + 1)) {
				a = (a & ~(size[level + 1] - 1)) + size[level + 1] - size[level];
				continue;	/* nothing below an absent entry */
			}
			if (d->ops->present(d->kt, kmm, a, level) && !model_present(d, mm, a, level))
				d->ops->free_table(d->kt, kmm, a, level);
		}
}

static bool mirror_munmap(struct kdiff *d, const struct aw_event *ev)
{
	struct aw_task *t = aw_task_get(d->k, ev->pid);
	struct mm_struct *mm = t ? aw_mm(d->k, t->mm) : NULL;
	uint64_t start = ev->addr, end, floor = 0, ceiling = TASK_SIZE;
	int kmm = d->kmm[ev->pid];

	if (!mm || kmm < 0)
		return false;
	if (ev->region)
		start += d->k->regions[ev->region - 1].start;	/* the model's resolve_range() */
	start &= ~(PAGE_SIZE - 1);
	end = start + ((ev->addr & (PAGE_SIZE - 1)) + ev->len + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;
	if (d->ops->unmap(d->kt, kmm, start, end) < 0)
		return refuse(d, "munmap of part of a THP: kernel-text runs do not split yet");
	for (int i = 0; i < mm->nr_vmas; i++) {
		if (mm->vmas[i].vm_end <= start)
			floor = mm->vmas[i].vm_end;
		else if (mm->vmas[i].vm_start >= end && ceiling == TASK_SIZE)
			ceiling = mm->vmas[i].vm_start;
	}
	sync_tables(d, mm, kmm, floor, ceiling);
	return false;
}

static bool mirror_exit(struct kdiff *d, const struct aw_event *ev)
{
	if (d->kmm[ev->pid] >= 0)
		d->ops->mm_exit(d->kt, d->kmm[ev->pid]);
	d->kmm[ev->pid] = -1;
	return false;
}

static bool mirror_access(struct kdiff *d, const struct aw_event *ev)
{
	struct aw_task *t = aw_task_get(d->k, ev->pid);
	struct mm_struct *mm = t ? aw_mm(d->k, t->mm) : NULL;
	uint64_t start = ev->addr, stride = ev->stride < PAGE_SIZE ? PAGE_SIZE : ev->stride;
	int kmm = d->kmm[ev->pid];

	if (!mm || kmm < 0)
		return false;
	if (ev->region)
		start += d->k->regions[ev->region - 1].start;
	start &= ~(PAGE_SIZE - 1);
	for (uint64_t a = start; a < start + ev->len; a += stride)
		if (mirror_page(d, mm, kmm, a, ev->flags & AW_ACC_WRITE))
			return true;
	d->ops->use_mm(d->kt, kmm);	/* the model's aw_access(): the process ran */
	return false;
}

static unsigned long vm_flags_of(const struct aw_event *ev)
{
	return (ev->arg & AW_PROT_READ ? VM_READ : 0) | (ev->arg & AW_PROT_WRITE ? VM_WRITE : 0) |
	       (ev->arg & AW_PROT_EXEC ? VM_EXEC : 0) | (ev->flags & AW_MAP_SEQ_READ ? VM_SEQ_READ : 0) |
	       (ev->flags & AW_MAP_RAND_READ ? VM_RAND_READ : 0);
}

static bool mirror_mmap(struct kdiff *d, const struct aw_event *ev)
{
	const struct aw_region *r = ev->region ? &d->k->regions[ev->region - 1] : NULL;
	uint64_t start = r ? r->start : ev->addr2;

	if (ev->flags & (AW_MAP_LOCKED | AW_MAP_DROPPABLE))
		return refuse(d, "mmap locked/droppable: kernel-text runs do not support it yet");
	if (!start || d->kmm[ev->pid] < 0)
		return refuse(d, "mmap without a region or a fixed address");
	if (d->ops->vma_add(d->kt, d->kmm[ev->pid], start, start + ev->len, vm_flags_of(ev),
			    ev->flags & AW_MAP_FILE) < 0)
		return differ(d, "kernel text could not add the VMA 0x%llx+0x%llx", (unsigned long long)start,
			      (unsigned long long)ev->len);
	return false;
}

static bool mirror_proc(struct kdiff *d, const struct aw_event *ev)
{
	struct aw_task *t = aw_task_get(d->k, ev->pid);
	struct mm_struct *mm = t ? aw_mm(d->k, t->mm) : NULL;
	int kmm;

	if (!(ev->flags & AW_PROC_NOLAYOUT))
		return refuse(d, "proc with a layout: kernel-text runs need `nolayout` processes");
	if (!mm)
		return false;
	/* the model's slab address of the mm: the PUD filter's key */
	kmm = d->ops->mm_create(d->kt, ev->memcg, mm->kaddr);
	if (kmm < 0 || kmm > d->sc->nr_procs)
		return differ(d, "kernel text could not create the mm");
	d->kmm[ev->pid] = kmm;
	d->mm_of[kmm] = mm->id;
	d->ops->use_mm(d->kt, kmm);	/* new_process(): lru_gen_use_mm() */
	return false;
}

static int swappiness_of(struct kdiff *d, const struct aw_event *ev)
{
	return ev->swappiness == AW_SWAPPINESS_DEFAULT ? aw_default_swappiness(d->k) : ev->swappiness;
}

/* debugfs '+' on the text: run_aging() at the text's own max_seq. */
static bool mirror_age(struct kdiff *d, const struct aw_event *ev)
{
	unsigned long seq = d->ops->max_seq(d->kt, ev->memcg, ev->node);

	d->ops->age(d->kt, ev->memcg, ev->node, seq, swappiness_of(d, ev), ev->flags & AW_AGE_FORCE);
	return false;
}

/*
 * Eviction the text's machine cannot finish (it has no reclaim): allowed
 * only when neither side has anything to reclaim -- the model evicted
 * nothing, and the text's evict_folios() isolated nothing; then both only
 * sorted promoted folios out of the oldest generation and retired the
 * empty ones.
 */
static bool mirror_evict(struct kdiff *d, const struct aw_event *ev, unsigned long evicted_before)
{
	long isolated = d->ops->evict(d->kt, ev->memcg, ev->node, swappiness_of(d, ev));

	if (d->k->node_stats[ev->node].evicted != evicted_before || isolated)
		return refuse(d, "evict has folios to reclaim: kernel-text runs have no reclaim yet");
	return false;
}

static bool mirror(struct kdiff *d, const struct aw_event *ev, unsigned long evicted_before)
{
	switch (ev->kind) {
	case AW_EV_PROC:
		return mirror_proc(d, ev);
	case AW_EV_MMAP:
		return mirror_mmap(d, ev);
	case AW_EV_ACCESS:
		return mirror_access(d, ev);
	case AW_EV_RUN:
		if (d->kmm[ev->pid] >= 0)
			d->ops->use_mm(d->kt, d->kmm[ev->pid]);
		return false;
	case AW_EV_MUNMAP:
		return mirror_munmap(d, ev);
	case AW_EV_EXIT:
		return mirror_exit(d, ev);
	case AW_EV_MEMCG_MOVE:
		if (d->kmm[ev->pid] >= 0)
			d->ops->memcg_move(d->kt, d->kmm[ev->pid], ev->memcg);
		return false;
	case AW_EV_AGE:
		return mirror_age(d, ev);
	case AW_EV_EVICT:
		return mirror_evict(d, ev, evicted_before);
	case AW_EV_TIME:
	case AW_EV_SAMPLE:
		return false;
	default:
		snprintf(d->res->what, sizeof(d->res->what), "%s: kernel-text runs do not support it yet",
			 aw_event_kind_name(ev->kind));
		d->res->refused = true;
		return true;
	}
}

/* -- comparing ---------------------------------------------------------- */

static bool compare_bloom(struct kdiff *d, struct lruvec *lruvec, int level, int klevel, unsigned long seq)
{
	const unsigned long *m = lruvec->mm_state.filters[level][filter_gen_from_seq(seq)];
	bool has = d->ops->bloom_bits(d->kt, lruvec->memcg, lruvec->nid, klevel, seq, d->bits);

	d->res->checks++;
	if (!m && !has)
		return false;
	if (!m != !has)
		return differ(d, "memcg %d node %d: %s filter for seq %lu: model %s, kernel %s", lruvec->memcg,
			      lruvec->nid, klevel ? "PUD" : "PMD", seq, m ? "allocated" : "none",
			      has ? "allocated" : "none");
	for (unsigned long w = 0; w < BLOOM_WORDS; w++)
		if (m[w] != d->bits[w])
			return differ(d, "memcg %d node %d: %s filter for seq %lu differs at bit %lu.. "
				      "(model %016lx, kernel %016lx)", lruvec->memcg, lruvec->nid,
				      klevel ? "PUD" : "PMD", seq, w * 64, m[w], d->bits[w]);
	return false;
}

static bool compare_lruvec(struct kdiff *d, struct lruvec *lruvec)
{
	const struct aw_ktext_ops *o = d->ops;
	int memcg = lruvec->memcg, nid = lruvec->nid;
	unsigned long ks[AW_KTEXT_MAX_STATS];
	unsigned long seq = lruvec->lrugen.max_seq;

	d->res->checks += 3;
	if (o->max_seq(d->kt, memcg, nid) != seq)
		return differ(d, "memcg %d node %d: max_seq model %lu, kernel %lu", memcg, nid, seq,
			      o->max_seq(d->kt, memcg, nid));
	for (int type = 0; type < ANON_AND_FILE; type++)
		if (o->min_seq(d->kt, memcg, nid, type) != lruvec->lrugen.min_seq[type])
			return differ(d, "memcg %d node %d: min_seq[%s] model %lu, kernel %lu", memcg, nid,
				      type ? "file" : "anon", lruvec->lrugen.min_seq[type],
				      o->min_seq(d->kt, memcg, nid, type));
	for (int gen = 0; gen < MAX_NR_GENS; gen++)
		for (int type = 0; type < ANON_AND_FILE; type++) {
			d->res->checks++;
			if (o->nr_pages(d->kt, memcg, nid, gen, type) != lruvec->lrugen.nr_pages[gen][type])
				return differ(d, "memcg %d node %d: nr_pages[gen %d][%s] model %ld, kernel %ld",
					      memcg, nid, gen, type ? "file" : "anon",
					      lruvec->lrugen.nr_pages[gen][type],
					      o->nr_pages(d->kt, memcg, nid, gen, type));
		}
	o->mm_stats(d->kt, memcg, nid, ks);
	for (int i = 0; i < o->nr_mm_stats; i++) {
		if (d->stat_of[i] < 0)
			continue;
		d->res->checks++;
		if (ks[i] != lruvec->mm_state.stats[d->stat_of[i]])
			return differ(d, "memcg %d node %d: %s model %lu, kernel %lu", memcg, nid,
				      o->mm_stat_names[i], lruvec->mm_state.stats[d->stat_of[i]], ks[i]);
	}
	for (unsigned long s = seq; s <= seq + 1; s++)
		if (compare_bloom(d, lruvec, BLOOM_FILTER_PMD, 0, s) ||
		    (o->series && compare_bloom(d, lruvec, BLOOM_FILTER_PUD, 1, s)))
			return true;
	return false;
}

static unsigned long model_flags(const struct folio *f)
{
	return (folio_test(f, PG_lru) ? AW_KTEXT_F_LRU : 0) | (folio_test(f, PG_active) ? AW_KTEXT_F_ACTIVE : 0) |
	       (folio_test(f, PG_referenced) ? AW_KTEXT_F_REFERENCED : 0) |
	       (folio_test(f, PG_workingset) ? AW_KTEXT_F_WORKINGSET : 0);
}

/* Every mapped page of mm: the same folio state and accessed bit on both sides. */
static bool compare_page(struct kdiff *d, struct mm_struct *mm, int kmm, uint64_t addr, uint64_t entry)
{
	const unsigned long mask = AW_KTEXT_F_LRU | AW_KTEXT_F_ACTIVE | AW_KTEXT_F_REFERENCED |
				   AW_KTEXT_F_WORKINGSET;
	struct folio *f = pfn_folio(&d->k->mem, pte_pfn(entry));
	long kpfn = d->ops->pfn_at(d->kt, kmm, addr);
	unsigned long mf, kf;
	int kgen;

	d->res->checks++;
	if (((entry & _PAGE_ACCESSED) != 0) != d->ops->pte_young(d->kt, kmm, addr))
		return differ(d, "mm %u 0x%llx: accessed bit model %d, kernel %d", mm->id,
			      (unsigned long long)addr, !!(entry & _PAGE_ACCESSED), !(entry & _PAGE_ACCESSED) ? 1 : 0);
	if (!f || is_zero_pfn(pte_pfn(entry)) || is_huge_zero_pmd(entry))
		return false;
	kgen = d->ops->folio_gen(d->kt, kpfn);
	mf = model_flags(f);
	kf = d->ops->folio_flags(d->kt, kpfn) & mask;
	d->res->checks += 2;
	if (kgen != folio_lru_gen(f))
		return differ(d, "mm %u 0x%llx: generation model %d, kernel %d", mm->id,
			      (unsigned long long)addr, folio_lru_gen(f), kgen);
	if (mf != kf)
		return differ(d, "mm %u 0x%llx: flags model %#lx, kernel %#lx (lru 1, active 2, referenced 4, "
			      "workingset 8)", mm->id, (unsigned long long)addr, mf, kf);
	return false;
}

static bool compare_mm(struct kdiff *d, struct mm_struct *mm, int kmm)
{
	for (int v = 0; v < mm->nr_vmas; v++) {
		const struct vm_area_struct *vma = &mm->vmas[v];

		for (uint64_t a = vma->vm_start; a < vma->vm_end;) {
			pmd_t *pmd = aw_pmd_lookup(d->k, mm, a, false, NULL);
			uint64_t next = (a & PMD_MASK) + PMD_SIZE;
			pte_t *pte;

			if (!pmd || !pmd_present(*pmd)) {
				a = next;
				continue;
			}
			if (pmd_trans_huge(*pmd)) {
				if (compare_page(d, mm, kmm, a & PMD_MASK, *pmd))
					return true;
				a = next;
				continue;
			}
			pte = aw_pte_lookup(d->k, mm, a, false, NULL);
			if (pte && pte_present(*pte) && compare_page(d, mm, kmm, a, *pte))
				return true;
			a += PAGE_SIZE;
		}
	}
	return false;
}

static bool compare(struct kdiff *d)
{
	const char *last = NULL;

	if (d->ops->warnings(d->kt, &last))
		return differ(d, "kernel text warned: %s", last ? last : "?");
	for (int i = 0; i < d->k->nr_memcgs * d->k->nr_nodes; i++)
		if (compare_lruvec(d, &d->k->lruvecs[i]))
			return true;
	for (int pid = 1; pid <= d->sc->nr_procs; pid++) {
		struct aw_task *t = aw_task_get(d->k, pid);
		struct mm_struct *mm = t && t->alive ? aw_mm(d->k, t->mm) : NULL;

		if (mm && d->kmm[pid] >= 0 && compare_mm(d, mm, d->kmm[pid]))
			return true;
	}
	return false;
}

/* -- the run ------------------------------------------------------------ */

/*
 * The model's rules for the tree's release (scenario.h's kernel profiles):
 * 6.1.y and 6.12.y have their own, any other release is compared with
 * mainline's.
 */
static enum aw_kernel_profile profile_of(unsigned int version)
{
	if (version >> 8 == 0x0601)
		return AW_KERNEL_6_1;
	if (version >> 8 == 0x060c)
		return AW_KERNEL_6_12;
	return AW_KERNEL_MAINLINE;
}

static int setup(struct kdiff *d)
{
	struct aw_config cfg_buf = d->sc->cfg, *cfg = &cfg_buf;
	unsigned long pages = 0;

	for (int n = 0; n < cfg->nr_nodes; n++)
		pages = cfg->node[n].mem_bytes / PAGE_SIZE > pages ? cfg->node[n].mem_bytes / PAGE_SIZE : pages;
	d->kmm = malloc((d->sc->nr_procs + 1) * sizeof(*d->kmm));
	d->mm_of = calloc(d->sc->nr_procs + 1, sizeof(*d->mm_of));
	d->bits = malloc(BLOOM_WORDS * sizeof(*d->bits));
	cfg->kernel = profile_of(d->ops->version);
	d->k = aw_kernel_create(cfg, d->sc->nr_regions, d->ops->series ? AW_FEAT_PUD_FILTER : 0, d->bugs);
	d->kt = d->ops->create(cfg->nr_nodes, cfg->nr_memcgs, pages);
	if (!d->kmm || !d->mm_of || !d->bits || !d->k || !d->kt) {
		snprintf(d->res->what, sizeof(d->res->what), "cannot set up the model and %s "
			 "(%d nodes, %d memcgs, %lu pages a node)", d->ops->name, cfg->nr_nodes,
			 cfg->nr_memcgs, pages);
		return -1;
	}
	for (int pid = 0; pid <= d->sc->nr_procs; pid++)
		d->kmm[pid] = -1;
	d->ops->name_tables(d->kt, model_table_kva, d);
	for (int i = 0; i < d->ops->nr_mm_stats; i++)
		d->stat_of[i] = aw_mm_stat_index(d->ops->mm_stat_names[i]);
	return 0;
}

int aw_kdiff_run(const struct aw_scenario *sc, const struct aw_ktext_ops *ops, unsigned int bugs,
		 struct aw_kdiff_result *res)
{
	struct kdiff d = { .sc = sc, .ops = ops, .res = res, .bugs = bugs };
	int ret = 0;

	memset(res, 0, sizeof(*res));
	if (setup(&d) == 0) {
		for (size_t i = 0; i < sc->nr_events && !res->diverged && !res->refused; i++) {
			const struct aw_event *ev = &sc->events[i];
			unsigned long evicted = ev->kind == AW_EV_EVICT ? d.k->node_stats[ev->node].evicted : 0;

			res->event = i;
			if (aw_kernel_apply(d.k, ev)) {
				snprintf(res->what, sizeof(res->what), "the model refused the event: %s", d.k->err);
				ret = -1;
				break;
			}
			if (!mirror(&d, ev, evicted))
				compare(&d);
		}
	} else {
		ret = -1;
	}
	if (d.kt)
		ops->destroy(d.kt);
	if (d.k)
		aw_kernel_destroy(d.k);
	free(d.kmm);
	free(d.mm_of);
	free(d.bits);
	return ret;
}
