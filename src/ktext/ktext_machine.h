/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine kernel text runs on (included by ktext_glue.h into each
 * generated file): nodes and memcgs with their lruvecs, mm structs with
 * VMAs and page tables, folios; and what the kernel's fault, mmap, munmap,
 * exit and context-switch paths do to them.  MGLRU's own part of those
 * paths -- lru_gen_add_folio(), lru_gen_del_folio(), lru_gen_add_mm() and
 * friends -- is the tree's text, called here.
 */
#ifndef AW_KTEXT_MACHINE_H
#define AW_KTEXT_MACHINE_H

#define AW_KTEXT_START_PFN	0x1000UL	/* node 0's first pfn; 1 is the zero page, 2 the huge one */
#define SWAP_CLUSTER_MAX_AW	32UL		/* include/linux/swap.h: SWAP_CLUSTER_MAX */
#define AW_PT_TABLE	(_PAGE_PRESENT | _PAGE_RW | _PAGE_USER | _PAGE_ACCESSED | _PAGE_DIRTY)

static int aw_read_folio(void *file, struct folio *folio) { return 0; }
static const struct address_space_operations aw_aops = { .read_folio = aw_read_folio };
static struct address_space aw_mapping = { .a_ops = &aw_aops };
static struct file aw_file = { .f_mapping = &aw_mapping };

/* The calls below run kernel text: make kt the machine it runs on. */
#define AW_ENTER(kt)	struct aw_ktext *aw_saved = aw_ktext_cur; aw_ktext_cur = (kt)
#define AW_LEAVE()	(aw_ktext_cur = aw_saved)

/*
 * A zeroed page-table page from the machine's chunks (never freed before
 * the machine), for addr of mm at level, named for the Bloom filters.
 */
static void *aw_table_alloc(struct aw_ktext *kt, int mm, unsigned long addr, int level)
{
	struct aw_pt_chunk *c = kt->nr_pt_chunks ? &kt->pt_chunks[kt->nr_pt_chunks - 1] : NULL;

	if (!c || c->used == AW_PT_CHUNK_PAGES) {
		struct aw_pt_chunk *chunks = realloc(kt->pt_chunks, (kt->nr_pt_chunks + 1) * sizeof(*chunks));
		void *base;

		if (!chunks)
			return NULL;
		kt->pt_chunks = chunks;
		base = aligned_alloc(PAGE_SIZE, AW_PT_CHUNK_PAGES * PAGE_SIZE);
		if (!base)
			return NULL;
		c = &chunks[kt->nr_pt_chunks++];
		c->base = base;
		c->used = 0;
	}
	kt->nr_tables++;
	c->kva[c->used] = kt->table_kva ? kt->table_kva(kt->table_kva_ctx, mm, addr, level) :
			  AW_KTEXT_KVA_TABLES + kt->nr_tables * PAGE_SIZE;
	/* zeroed as handed out: most machines use a handful of the chunk's pages */
	return memset((char *)c->base + (unsigned long)c->used++ * PAGE_SIZE, 0, PAGE_SIZE);
}

static void aw_name_tables(struct aw_ktext *kt, unsigned long (*fn)(void *ctx, int mm, unsigned long addr,
								     int level), void *ctx)
{
	kt->table_kva = fn;
	kt->table_kva_ctx = ctx;
}

static struct lruvec *aw_lruvec(struct aw_ktext *kt, int memcg, int nid)
{
	if (memcg < 0 || memcg >= kt->nr_memcgs || nid < 0 || nid >= kt->nr_nodes)
		return NULL;
	return &kt->memcg[memcg]->nodeinfo[nid]->lruvec;
}

static void aw_split_abort(struct aw_ktext *kt, int i);

static void aw_mm_put(struct mm_struct *mm)
{
	if (!mm)
		return;
	free(mm->owner);
	free(mm->vmas);
	free(mm);
}

static void aw_destroy(struct aw_ktext *kt)
{
	if (!kt)
		return;
	for (int i = 0; i < kt->nr_pt_chunks; i++)
		free(kt->pt_chunks[i].base);
	free(kt->pt_chunks);
	for (int i = 0; i < kt->nr_mms; i++)
		aw_mm_put(kt->mms[i]);
	free(kt->mms);
	free(kt->aw_vmas);
	free(kt->aw_pfns);
	for (int i = 0; i < AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES; i++)
		aw_split_abort(kt, i);
	for (int m = 0; m < kt->nr_memcgs; m++) {
		for (int n = 0; n < kt->nr_nodes && kt->memcg[m]; n++) {
			struct lruvec *lruvec = aw_lruvec(kt, m, n);

			for (int level = 0; lruvec && level < 2; level++)
				for (unsigned long seq = 0; seq < NR_BLOOM_FILTERS; seq++)
					bitmap_free(AW_KTEXT_BLOOM_FILTER(lruvec, level, seq));
			free(kt->memcg[m]->nodeinfo[n]);
		}
		free(kt->memcg[m]);
	}
	for (int n = 0; n < kt->nr_nodes; n++) {
		if (kt->node[n])
			free(kt->node[n]->folios);
		free(kt->node[n]);
	}
	free(kt);
}

/* The nodes (no pfns yet), memcgs and lruvecs both kinds of machine have. */
static struct aw_ktext *aw_machine_new(int nr_nodes, int nr_memcgs)
{
	struct aw_ktext *kt = calloc(1, sizeof(*kt));

	if (!kt)
		return NULL;
	kt->nr_nodes = nr_nodes;
	kt->nr_memcgs = nr_memcgs;
	kt->caps[0] = kt->caps[1] = kt->caps[2] = true;	/* lru_gen/enabled = 0x0007 */
	kt->aw_jiffies = 4294937296UL;			/* INITIAL_JIFFIES, 64-bit */
	kt->task.reclaim_state = &kt->reclaim_state;
	kt->zero_pfn = AW_KTEXT_ZERO_PFN;
	kt->huge_zero_pfn = AW_KTEXT_HUGE_ZERO_PFN;
	for (int n = 0; n < nr_nodes; n++) {
		kt->node[n] = calloc(1, sizeof(*kt->node[n]));
		if (!kt->node[n])
			goto fail;
		kt->node[n]->node_id = n;
	}
	AW_ENTER(kt);
	for (int m = 0; m < nr_memcgs; m++) {
		struct mem_cgroup *memcg = calloc(1, sizeof(*memcg));

		kt->memcg[m] = memcg;
		if (!memcg)
			goto fail_leave;
		memcg->id = m;
		memcg->nr_swap_pages = 1L << 30;
		for (int n = 0; n < nr_nodes; n++) {
			memcg->nodeinfo[n] = calloc(1, sizeof(*memcg->nodeinfo[n]));
			if (!memcg->nodeinfo[n])
				goto fail_leave;
			memcg->nodeinfo[n]->lruvec.pgdat = kt->node[n];
			memcg->nodeinfo[n]->lruvec.memcg = memcg;
			lru_gen_init_lruvec(&memcg->nodeinfo[n]->lruvec);
		}
		lru_gen_init_memcg(memcg);
	}
	AW_LEAVE();
	return kt;
fail_leave:
	AW_LEAVE();
fail:
	aw_destroy(kt);
	return NULL;
}

static struct aw_ktext *aw_create(int nr_nodes, int nr_memcgs, unsigned long pages)
{
	struct aw_ktext *kt;

	if (nr_nodes < 1 || nr_nodes > MAX_NUMNODES || nr_memcgs < 1 ||
	    nr_memcgs > AW_KTEXT_MAX_MEMCGS || !pages || pages > (1UL << 30))
		return NULL;
	kt = aw_machine_new(nr_nodes, nr_memcgs);
	if (!kt)
		return NULL;
	for (int n = 0; n < nr_nodes; n++) {
		pg_data_t *p = kt->node[n];

		if (!(p->folios = calloc(pages, sizeof(struct folio)))) {
			aw_destroy(kt);
			return NULL;
		}
		p->node_start_pfn = AW_KTEXT_START_PFN + n * pages;
		p->node_spanned_pages = pages;
	}
	return kt;
}

static struct mm_struct *aw_mm(struct aw_ktext *kt, int mm)
{
	return mm >= 0 && mm < kt->nr_mms && !kt->mms[mm]->aw_dead ? kt->mms[mm] : NULL;
}

static int aw_mm_create(struct aw_ktext *kt, int memcg, unsigned long kva)
{
	struct mm_struct *mm;

	if (memcg < 0 || memcg >= kt->nr_memcgs)
		return -1;
	if (kt->nr_mms == kt->cap_mms) {
		int cap = kt->cap_mms ? 2 * kt->cap_mms : 8;
		struct mm_struct **mms = realloc(kt->mms, cap * sizeof(*mms));

		if (!mms)
			return -1;
		kt->mms = mms;
		kt->cap_mms = cap;
	}
	mm = calloc(1, sizeof(*mm));
	if (mm)
		mm->owner = calloc(1, sizeof(*mm->owner));
	if (mm && mm->owner)
		mm->pgd = aw_table_alloc(kt, kt->nr_mms, 0, 4);
	if (!mm || !mm->owner || !mm->pgd) {
		if (mm)
			free(mm->owner);
		free(mm);
		return -1;
	}
	mm->mm_users = 1;
	mm->aw_index = kt->nr_mms;
	mm->aw_kva = kva ? kva : AW_KTEXT_KVA_MMS + (unsigned long)kt->nr_mms * AW_KTEXT_MM_OBJ_SIZE;
	mm->owner->mm = mm;
	mm->owner->memcg = kt->memcg[memcg];
	INIT_LIST_HEAD(&mm->lru_gen.list);	/* lru_gen_init_mm() */
	kt->mms[kt->nr_mms] = mm;
	AW_ENTER(kt);
	lru_gen_add_mm(mm);			/* as dup_mm() and exec_mmap() do */
	AW_LEAVE();
	return kt->nr_mms++;
}

static int aw_vma_add(struct aw_ktext *kt, int mmi, unsigned long start, unsigned long end,
		      unsigned long vm_flags, bool file)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	struct vm_area_struct *vmas;
	int i;

	if (!mm || start >= end || (start | end) & (PAGE_SIZE - 1) || end > (1UL << 47))
		return -1;
	for (i = 0; i < mm->nr_vmas && mm->vmas[i].vm_start < end; i++)
		if (mm->vmas[i].vm_end > start)
			return -1;	/* overlaps */
	vmas = realloc(mm->vmas, (mm->nr_vmas + 1) * sizeof(*vmas));
	if (!vmas)
		return -1;
	mm->vmas = vmas;
	memmove(&vmas[i + 1], &vmas[i], (mm->nr_vmas - i) * sizeof(*vmas));
	vmas[i] = (struct vm_area_struct){ .vm_start = start, .vm_end = end, .vm_mm = mm,
					   .vm_flags = vm_flags, .vm_file = file ? &aw_file : NULL };
	mm->nr_vmas++;
	return 0;
}

/* The entry for addr at level 1 (PTE) or 2 (PMD), allocating tables down to it. */
static unsigned long *aw_entry(struct aw_ktext *kt, struct mm_struct *mm, unsigned long addr, int level,
			       bool alloc)
{
	unsigned long *table = (unsigned long *)mm->pgd;
	static const int shift[] = { 0, PAGE_SHIFT, PMD_SHIFT, PUD_SHIFT, PGDIR_SHIFT };

	for (int l = 4; l > level; l--) {
		unsigned long *e = &table[(addr >> shift[l]) & 511];

		if (!(*e & _PAGE_PRESENT)) {
			void *t = alloc ? aw_table_alloc(kt, mm->aw_index, addr, l - 1) : NULL;

			if (!t)
				return NULL;
			*e = (unsigned long)t | AW_PT_TABLE;
		}
		if (*e & _PAGE_PSE)
			return l == 2 ? e : NULL;
		table = __aw_table(*e);
	}
	return &table[(addr >> shift[level]) & 511];
}

static long aw_alloc_pfns(struct aw_ktext *kt, int nid, unsigned int order)
{
	pg_data_t *p = kt->node[nid];
	unsigned long n = 1UL << order;

	/* a bump allocator: folios are never freed on this machine */
	unsigned long at = round_up(kt->node_used[nid], n);

	if (at + n > p->node_spanned_pages)
		return -1;
	kt->node_used[nid] = at + n;
	return p->node_start_pfn + at;
}

static long aw_map(struct aw_ktext *kt, int mmi, unsigned long addr, int nid, unsigned int flags,
		   unsigned long tag)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	bool thp = flags & AW_KTEXT_THP;
	struct vm_area_struct *vma;
	unsigned long *e, bits, zero;
	struct folio *folio;
	long pfn;

	if (!mm || nid < 0 || nid >= kt->nr_nodes)
		return -1;
	vma = aw_find_vma(mm, addr);
	if (!vma || addr < vma->vm_start || (thp && ((addr & ~PMD_MASK) || addr + PMD_SIZE > vma->vm_end)))
		return -1;
	e = aw_entry(kt, mm, addr, thp ? 2 : 1, true);
	/* a write to the (huge) zero page replaces it (do_wp_page(), do_huge_zero_wp_pmd()) */
	zero = thp ? AW_KTEXT_HUGE_ZERO_PFN : AW_KTEXT_ZERO_PFN;
	if (!e || (*e && (flags & AW_KTEXT_ZERO || (*e & PTE_PFN_MASK) >> PAGE_SHIFT != zero)))
		return -1;
	if (flags & AW_KTEXT_ZERO) {
		*e = zero << PAGE_SHIFT | _PAGE_PRESENT | _PAGE_USER | (thp ? _PAGE_PSE : 0) |
		     (flags & AW_KTEXT_YOUNG ? _PAGE_ACCESSED : 0);
		return 0;
	}
	pfn = aw_alloc_pfns(kt, nid, thp ? HPAGE_PMD_ORDER : 0);
	if (pfn < 0)
		return -1;
	bits = _PAGE_PRESENT | _PAGE_RW | _PAGE_USER | (thp ? _PAGE_PSE : 0) |
	       (flags & AW_KTEXT_YOUNG ? _PAGE_ACCESSED : 0) | (flags & AW_KTEXT_DIRTY ? _PAGE_DIRTY : 0);
	*e = (unsigned long)pfn << PAGE_SHIFT | bits;

	AW_ENTER(kt);
	folio = pfn_folio(pfn);
	/* this machine has no reverse map: rmap_addr holds what the folio stands for */
	*folio = (struct folio){ .nid = nid, .memcg = get_mem_cgroup_from_mm(mm)->id, .pfn = pfn,
				 .order = thp ? HPAGE_PMD_ORDER : 0, .mapcount = 1, .rmap_addr = tag };
	INIT_LIST_HEAD(&folio->lru);
	if (flags & AW_KTEXT_ANON || (!vma->vm_file && !(flags & AW_KTEXT_FILE))) {
		folio_set_anon(folio);
		folio_set_swapbacked(folio);
	}
	mm->rss[folio_test_anon(folio) ? MM_ANONPAGES : MM_FILEPAGES] += folio_nr_pages(folio);
	/* folio_add_lru() inside a fault: lru_gen_in_fault() sets PG_active */
	folio_set_active(folio);
	folio_set_lru(folio);
	lru_gen_add_folio(mem_cgroup_lruvec(folio_memcg(folio), folio_pgdat(folio)), folio, false);
	AW_LEAVE();
	return pfn;
}

/*
 * The last put of a mapped folio (__folio_put() -> lruvec_del_folio()):
 * off its generation list by lru_gen_del_folio(lruvec, folio, false).
 */
static void aw_folio_free(struct aw_ktext *kt, struct mm_struct *mm, struct folio *folio)
{
	if (folio_test_clear_lru(folio))
		lru_gen_del_folio(mem_cgroup_lruvec(folio_memcg(folio), folio_pgdat(folio)), folio, false);
	mm->rss[folio_test_anon(folio) ? MM_ANONPAGES : MM_FILEPAGES] -= folio_nr_pages(folio);
	folio->mapcount = 0;
}

/* Clear the leaf at e (a PTE, or a PMD leaf covering addr), freeing its folio. */
static void aw_zap(struct aw_ktext *kt, struct mm_struct *mm, unsigned long *e, unsigned long addr)
{
	unsigned long pfn = (*e & PTE_PFN_MASK) >> PAGE_SHIFT;

	if (pfn != AW_KTEXT_ZERO_PFN && pfn != AW_KTEXT_HUGE_ZERO_PFN && pfn_valid(pfn))
		aw_folio_free(kt, mm, pfn_folio(pfn));
	*e = 0;
}

/* Take [start, end) out of mm's VMAs, splitting one that straddles an end. */
static int aw_vma_cut(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *v = &mm->vmas[i];

		if (v->vm_end <= start || v->vm_start >= end)
			continue;
		if (v->vm_start < start && v->vm_end > end) {	/* split in two */
			struct vm_area_struct *vmas = realloc(mm->vmas, (mm->nr_vmas + 1) * sizeof(*vmas));

			if (!vmas)
				return -1;
			mm->vmas = vmas;
			memmove(&vmas[i + 1], &vmas[i], (mm->nr_vmas - i) * sizeof(*vmas));
			mm->nr_vmas++;
			vmas[i].vm_end = start;
			vmas[i + 1].vm_start = end;
			return 0;
		}
		if (v->vm_start < start) {
			v->vm_end = start;
		} else if (v->vm_end > end) {
			v->vm_start = end;
		} else {
			memmove(v, v + 1, (mm->nr_vmas - i - 1) * sizeof(*v));
			mm->nr_vmas--;
			i--;
		}
	}
	return 0;
}

static int aw_unmap(struct aw_ktext *kt, int mmi, unsigned long start, unsigned long end)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	int ret = 0;

	if (!mm || start >= end || (start | end) & (PAGE_SIZE - 1))
		return -1;
	AW_ENTER(kt);
	for (unsigned long a = start; a < end && !ret;) {
		unsigned long *pmd = aw_entry(kt, mm, a, 2, false), next = (a & PMD_MASK) + PMD_SIZE;
		unsigned long *pte;

		if (!pmd || !(*pmd & _PAGE_PRESENT)) {
			a = next;
		} else if (*pmd & _PAGE_PSE) {
			if ((a & ~PMD_MASK) || next > end)
				ret = -1;	/* part of a THP: the machine does not split */
			else
				aw_zap(kt, mm, pmd, a);
			a = next;
		} else {
			pte = aw_entry(kt, mm, a, 1, false);
			if (*pte & _PAGE_PRESENT)
				aw_zap(kt, mm, pte, a);
			a += PAGE_SIZE;
		}
	}
	AW_LEAVE();
	return ret ? ret : aw_vma_cut(mm, start, end);
}

static bool aw_present(struct aw_ktext *kt, int mmi, unsigned long addr, int level)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *e;

	if (!mm || level < 1 || level > 4)
		return false;
	if (level == 4)
		e = &((unsigned long *)mm->pgd)[pgd_index(addr)];
	else
		e = aw_entry(kt, mm, addr, level, false);
	return e && (*e & _PAGE_PRESENT);
}

/* free_pgtables(): the table below a non-leaf entry goes (its page is not reused) */
static void aw_free_table(struct aw_ktext *kt, int mmi, unsigned long addr, int level)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *e;

	if (!mm || level < 2 || level > 4)
		return;
	e = level == 4 ? &((unsigned long *)mm->pgd)[pgd_index(addr)] : aw_entry(kt, mm, addr, level, false);
	if (e && (*e & _PAGE_PRESENT) && !(*e & _PAGE_PSE))
		*e = 0;
}

/* __mmput(): exit_mmap() unmaps everything, then lru_gen_del_mm() */
static void aw_mm_exit(struct aw_ktext *kt, int mmi)
{
	struct mm_struct *mm = aw_mm(kt, mmi);

	if (!mm)
		return;
	while (mm->nr_vmas)
		if (aw_unmap(kt, mmi, mm->vmas[0].vm_start, mm->vmas[0].vm_end) < 0)
			break;
	AW_ENTER(kt);
	lru_gen_del_mm(mm);
	AW_LEAVE();
	mm->aw_dead = true;
}

/* mem_cgroup_move_task(): the owner's memcg changes, then lru_gen_migrate_mm() */
static void aw_memcg_move(struct aw_ktext *kt, int mmi, int memcg)
{
	struct mm_struct *mm = aw_mm(kt, mmi);

	if (!mm || memcg < 0 || memcg >= kt->nr_memcgs)
		return;
	mm->owner->memcg = kt->memcg[memcg];
	AW_ENTER(kt);
	lru_gen_migrate_mm(mm);
	AW_LEAVE();
}

static void aw_touch(struct aw_ktext *kt, int mmi, unsigned long addr, unsigned int flags)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *table, *e;

	if (!mm)
		return;
	/* the hardware walk sets the accessed bit at every level it passes */
	table = (unsigned long *)mm->pgd;
	for (int shift = PGDIR_SHIFT; shift >= PAGE_SHIFT; shift -= 9) {
		e = &table[(addr >> shift) & 511];
		if (!(*e & _PAGE_PRESENT))
			return;
		*e |= _PAGE_ACCESSED;
		if (*e & _PAGE_PSE || shift == PAGE_SHIFT) {
			if (flags & AW_KTEXT_DIRTY)
				*e |= _PAGE_DIRTY;
			break;
		}
		table = __aw_table(*e);
	}
}

static void aw_use_mm(struct aw_ktext *kt, int mmi)
{
	struct mm_struct *mm = aw_mm(kt, mmi);

	if (!mm)
		return;
	AW_ENTER(kt);
	lru_gen_use_mm(mm);
	AW_LEAVE();
}

static long aw_pfn_at(struct aw_ktext *kt, int mmi, unsigned long addr)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *e = mm ? aw_entry(kt, mm, addr, 1, false) : NULL;
	unsigned long pfn;

	if (!e && mm)
		e = aw_entry(kt, mm, addr, 2, false);
	if (!e || !(*e & _PAGE_PRESENT))
		return -1;
	pfn = (*e & PTE_PFN_MASK) >> PAGE_SHIFT;
	if (*e & _PAGE_PSE)
		pfn += (addr & ~PMD_MASK) >> PAGE_SHIFT;
	return pfn == AW_KTEXT_ZERO_PFN || (*e & _PAGE_PSE && pfn - ((addr & ~PMD_MASK) >> PAGE_SHIFT) ==
		AW_KTEXT_HUGE_ZERO_PFN) ? -1 : (long)pfn;
}

static bool aw_pte_young(struct aw_ktext *kt, int mmi, unsigned long addr)
{
	struct mm_struct *mm = aw_mm(kt, mmi);
	unsigned long *e = mm ? aw_entry(kt, mm, addr, 1, false) : NULL;

	if (!e && mm)
		e = aw_entry(kt, mm, addr, 2, false);
	return e && (*e & _PAGE_ACCESSED);
}

#endif /* AW_KTEXT_MACHINE_H */
