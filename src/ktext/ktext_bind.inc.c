/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel text on the host's machine (a fragment ktext_glue.inc.c includes
 * into each generated file): the model's page tables, folios, mm structs and memcgs
 * through struct aw_ktext_host (ktext_api.h), so that a variant whose
 * MGLRU code is the tree's own runs where the model's does
 * (src/kbind/kbind.c).
 *
 * What is the host's and what is the text's:
 *
 *   page tables, folios	the host's, used in place: an entry's pfn
 *				field names a table id (aw_ktext_table()),
 *				pfn_folio() is the host's folio
 *   generations		the host's struct lru_gen_folio, lent to the
 *				text for the length of a call: scalars copied
 *				in and out, folio lists spliced (O(1))
 *   mm list, mm_state		the text's own, with one shadow mm_struct per
 *				host mm: the list and the Bloom filters are
 *				what the text keeps, the host reads them back
 *   reclaim			the host's: shrink_folio_list() hands the
 *				isolated folios over (aw_bound_shrink())
 *
 * A call from the host may call back into the host (reclaim), and the host
 * back into the text (look-around inside reclaim): whoever runs holds the
 * generation scalars (kt->has_scalars), the lists stay lent until the
 * outermost call returns.
 */

/* struct lru_gen_folio, called struct lru_gen_struct in 6.1 */
typedef __typeof__(((struct lruvec *)0)->lrugen) aw_lrugen_t;

/* evicted[] and refaulted[] are atomic_long_t in 6.12, unsigned long in 6.1 */
#define AW_COUNTER_GET(c)	(*(unsigned long *)&(c))
#define AW_COUNTER_SET(c, v)	(*(unsigned long *)&(c) = (v))

/* the text's protected[] counts tier t at [t - 1] where its last dimension is MAX_NR_TIERS - 1 */
#define AW_PROTECTED_SHIFT(lrugen)	(ARRAY_SIZE((lrugen)->protected[0][0]) == MAX_NR_TIERS - 1)

static void aw_scalars_in(aw_lrugen_t *lrugen, const struct aw_ktext_lrugen *v)
{
	int shift = AW_PROTECTED_SHIFT(lrugen);

	lrugen->max_seq = v->max_seq;
	for (int t = 0; t < ANON_AND_FILE; t++)
		lrugen->min_seq[t] = v->min_seq[t];
	for (int g = 0; g < MAX_NR_GENS; g++) {
		lrugen->timestamps[g] = v->timestamps[g];
		for (int t = 0; t < ANON_AND_FILE; t++)
			lrugen->nr_pages[g][t][ZONE_NORMAL] = v->nr_pages[g][t];
	}
	for (int t = 0; t < ANON_AND_FILE; t++) {
		for (int i = 0; i < MAX_NR_TIERS; i++) {
			lrugen->avg_refaulted[t][i] = v->avg_refaulted[t][i];
			lrugen->avg_total[t][i] = v->avg_total[t][i];
			AW_COUNTER_SET(lrugen->evicted[0][t][i], v->evicted[t][i]);
			AW_COUNTER_SET(lrugen->refaulted[0][t][i], v->refaulted[t][i]);
			if (i >= shift)
				lrugen->protected[0][t][i - shift] = v->protected[t][i];
		}
	}
}

static void aw_scalars_out(const aw_lrugen_t *lrugen, struct aw_ktext_lrugen *v)
{
	int shift = AW_PROTECTED_SHIFT(lrugen);

	v->max_seq = lrugen->max_seq;
	for (int t = 0; t < ANON_AND_FILE; t++)
		v->min_seq[t] = lrugen->min_seq[t];
	for (int g = 0; g < MAX_NR_GENS; g++) {
		v->timestamps[g] = lrugen->timestamps[g];
		for (int t = 0; t < ANON_AND_FILE; t++)
			v->nr_pages[g][t] = lrugen->nr_pages[g][t][ZONE_NORMAL];
	}
	for (int t = 0; t < ANON_AND_FILE; t++) {
		for (int i = 0; i < MAX_NR_TIERS; i++) {
			v->avg_refaulted[t][i] = lrugen->avg_refaulted[t][i];
			v->avg_total[t][i] = lrugen->avg_total[t][i];
			v->evicted[t][i] = AW_COUNTER_GET(lrugen->evicted[0][t][i]);
			v->refaulted[t][i] = AW_COUNTER_GET(lrugen->refaulted[0][t][i]);
			v->protected[t][i] = i >= shift ? lrugen->protected[0][t][i - shift] : 0;
		}
	}
}

/* in: lruvec i's scalars ([memcg * nr_nodes + nid]) from the host; out: back to it */
static void aw_scalars_one(struct aw_ktext *kt, int i, bool in)
{
	aw_lrugen_t *lrugen = &aw_lruvec(kt, i / kt->nr_nodes, i % kt->nr_nodes)->lrugen;

	if (in)
		aw_scalars_in(lrugen, kt->aw_host_lrugen[i]);
	else
		aw_scalars_out(lrugen, kt->aw_host_lrugen[i]);
}

/* in: every lruvec's scalars from the host; out: back to it */
static void aw_scalars(struct aw_ktext *kt, bool in)
{
	for (int i = 0; i < kt->nr_memcgs * kt->nr_nodes; i++)
		aw_scalars_one(kt, i, in);
	kt->has_scalars = in;
}

/* in: splice lruvec i's host lists onto the text's (empty) ones; out: back */
static void aw_lists_one(struct aw_ktext *kt, int i, bool in)
{
	struct aw_ktext_lrugen *v = kt->aw_host_lrugen[i];
	aw_lrugen_t *lrugen = &aw_lruvec(kt, i / kt->nr_nodes, i % kt->nr_nodes)->lrugen;

	for (int g = 0; g < MAX_NR_GENS; g++) {
		for (int t = 0; t < ANON_AND_FILE; t++) {
			struct list_head *host = (struct list_head *)&v->folios[g][t];
			struct list_head *text = &lrugen->folios[g][t][ZONE_NORMAL];

			WARN_ON_ONCE(!list_empty(in ? text : host));
			if (in)
				list_splice_init(host, text);
			else
				list_splice_init(text, host);
		}
	}
}

/* in: every lruvec's lists; out: back */
static void aw_lists(struct aw_ktext *kt, bool in)
{
	for (int i = 0; i < kt->nr_memcgs * kt->nr_nodes; i++)
		aw_lists_one(kt, i, in);
}

/* The shadow of host mm id as the host has it now; false if there is none. */
static bool aw_bound_refresh(struct aw_ktext *kt, struct mm_struct *mm)
{
	struct aw_ktext_mm m;

	if (!kt->host->mm(kt->host->ctx, mm->aw_index, &m) || m.memcg < 0 || m.memcg >= kt->nr_memcgs)
		return false;
	mm->pgd = m.pgd;
	mm->aw_kva = m.kva;
	mm->mm_users.counter = m.exiting ? 0 : 1;
	mm->aw_mmap_contended = m.mmap_contended;
	mm->aw_ptl.contended = m.ptl_contended;
	mm->has_notifiers = m.has_notifiers;
	mm->owner->memcg = kt->memcg[m.memcg];
	return true;
}

/* The host's VMAs of mm, before the text looks at any: a walk, a look-around. */
static void aw_bound_vmas(struct aw_ktext *kt, struct mm_struct *mm)
{
	const struct aw_ktext_host *h = kt->host;
	int n;

	if (!h)
		return;
	while ((n = h->vmas(h->ctx, mm->aw_index, kt->aw_vmas, kt->aw_cap_vmas)) > kt->aw_cap_vmas) {
		struct aw_ktext_vma *v = realloc(kt->aw_vmas, n * sizeof(*v));

		if (!v) {
			n = kt->aw_cap_vmas;	/* a walk of the first ones beats none */
			break;
		}
		kt->aw_vmas = v;
		kt->aw_cap_vmas = n;
	}
	if (n > mm->aw_cap_vmas) {
		struct vm_area_struct *v = realloc(mm->vmas, n * sizeof(*v));

		if (!v)
			n = mm->aw_cap_vmas;
		else
			mm->vmas = v, mm->aw_cap_vmas = n;
	}
	for (int i = 0; i < n; i++)
		mm->vmas[i] = (struct vm_area_struct){ .vm_start = kt->aw_vmas[i].start, .vm_end = kt->aw_vmas[i].end,
						       .vm_mm = mm, .vm_flags = kt->aw_vmas[i].vm_flags,
						       .vm_file = kt->aw_vmas[i].file ? &aw_file : NULL };
	mm->nr_vmas = n;
}

/*
 * Entering from the host: the outermost call borrows the lists, and
 * refreshes the shadow mms (a call on one folio -- its placement,
 * eviction shadow or refault, which read no mm and run on every fault --
 * enters by aw_bound_enter_folio() below and refreshes none); whoever
 * does not hold the scalars takes them.  The refresh writes each field
 * whole (mm_users too), so one skipped leaves the next one's result as it
 * was.  Returns whether this call took the scalars (and so gives them
 * back).
 */
static bool aw_bound_enter(struct aw_ktext *kt)
{
	bool took = !kt->has_scalars;

	WARN_ON_ONCE(kt->aw_lent_few);	/* a call inside a folio's: the lruvecs are not all lent */
	kt->aw_jiffies = kt->host->now(kt->host->ctx);
	if (kt->depth++ == 0) {
		for (int i = 0; i < kt->aw_nr_live; i++)
			aw_bound_refresh(kt, kt->aw_live[i]);
		aw_lists(kt, true);
	}
	if (took)
		aw_scalars(kt, true);
	return took;
}

static void aw_bound_leave(struct aw_ktext *kt, bool took)
{
	if (took)
		aw_scalars(kt, false);
	if (--kt->depth == 0)
		aw_lists(kt, false);
}

#define AW_BOUND_ENTER(kt)	AW_ENTER(kt); bool aw_took = aw_bound_enter(kt)
#define AW_BOUND_LEAVE(kt)	(aw_bound_leave(kt, aw_took), AW_LEAVE())

/*
 * The lruvecs a call on one folio lends (a folio's placement, its
 * eviction shadow, its refault: at most two lruvecs, [memcg * nr_nodes +
 * nid]) and what of them this call took.
 */
struct aw_lent {
	int idx[2];
	int nr;
	bool lists, scalars;
};

/*
 * Entering from the host for a call on one folio: lend the lruvecs it
 * reads and writes, not all of them.  lru_gen_add_folio() and
 * lru_gen_eviction() touch the folio's lruvec; lru_gen_refault() also
 * reads the shadow's (6.12's lru_gen_test_recent() reads its min_seq
 * before comparing the two).  They run on every fault and every eviction
 * of a folio with a shadow, and lending every lruvec each time was a
 * tenth of agewalk_fuzz_ktext's time (docs/results.md, session 21).  At
 * depth 0 the lists are lent too; inside a call (the host's reclaim
 * asking for a shadow) they already are, and only the scalars of the
 * lruvecs named are taken, if the host holds them.  The text's copy of
 * every other lruvec is stale meanwhile and nothing reads it: these
 * calls reach no other lruvec and call no text entry point back.
 */
static struct aw_lent aw_bound_enter_folio(struct aw_ktext *kt, int a, int b)
{
	struct aw_lent l = { .idx = { a, b }, .nr = b >= 0 && b != a ? 2 : 1 };

	kt->aw_jiffies = kt->host->now(kt->host->ctx);
	l.lists = kt->depth++ == 0;
	l.scalars = !kt->has_scalars;
	for (int i = 0; i < l.nr; i++) {
		if (l.lists)
			aw_lists_one(kt, l.idx[i], true);
		if (l.scalars)
			aw_scalars_one(kt, l.idx[i], true);
	}
	kt->aw_lent_few++;
	return l;
}

static void aw_bound_leave_folio(struct aw_ktext *kt, const struct aw_lent *l)
{
	kt->aw_lent_few--;
	for (int i = 0; i < l->nr; i++) {
		if (l->scalars)
			aw_scalars_one(kt, l->idx[i], false);
		if (l->lists)
			aw_lists_one(kt, l->idx[i], false);
	}
	kt->depth--;
}

/* lruvec index of a memcg and node, as aw_host_lrugen[] is laid out */
#define AW_LRUVEC_IDX(kt, memcg, nid)	((memcg) * (kt)->nr_nodes + (nid))
#define AW_BOUND_ENTER_FOLIO(kt, a, b)	AW_ENTER(kt); struct aw_lent aw_lent = aw_bound_enter_folio(kt, a, b)
#define AW_BOUND_LEAVE_FOLIO(kt)	(aw_bound_leave_folio(kt, &aw_lent), AW_LEAVE())

/* what the text executed (ktext_api.h's AW_KTEXT_RAN()), counted where it did it */
#define AW_RAN(kt, id, n)	((kt)->aw_ran[AW_KTEXT_RAN_##id] += (n))

/* try_to_inc_max_seq() returned: one call, and a pass if max_seq moved */
static void aw_ran_aging(struct aw_ktext *kt, bool inc)
{
	AW_RAN(kt, AGING_CALLS, 1);
	AW_RAN(kt, AGING_PASSES, inc);
}

/*
 * mm/vmscan.c: shrink_folio_list(), bound: the host reclaims.  The kernel
 * takes folios from the list's tail and keeps the survivors in their
 * order; the host gets them in that order and returns the survivors.
 * While the host runs, it holds the generation scalars (its reclaim reads
 * min_seq for the shadow and counts evictions per tier).
 */
static unsigned int shrink_folio_list(struct list_head *folio_list, struct pglist_data *pgdat,
				      struct scan_control *sc, struct reclaim_stat *stat,
				      bool ignore_references)
{
	struct aw_ktext *kt = aw_ktext_current();
	const struct aw_ktext_host *h = kt->host;
	struct folio *first;
	unsigned long reclaimed;
	int n = 0;

	memset(stat, 0, sizeof(*stat));
	if (!h || list_empty(folio_list))
		return 0;
	for (struct list_head *pos = folio_list->prev; pos != folio_list; pos = pos->prev) {
		if (n == kt->aw_cap_pfns) {
			int cap = n ? 2 * n : 64;
			unsigned long *p = realloc(kt->aw_pfns, cap * sizeof(*p));

			if (!p)
				return 0;	/* none reclaimed: all go back */
			kt->aw_pfns = p;
			kt->aw_cap_pfns = cap;
		}
		kt->aw_pfns[n++] = list_entry(pos, struct folio, lru)->pfn;
	}
	first = lru_to_folio(folio_list);
	aw_scalars(kt, false);
	{
		int isolated = n;

		reclaimed = h->shrink(h->ctx, first->memcg, first->nid, kt->aw_pfns, &n);
		AW_RAN(kt, RECLAIM_CALLS, 1);
		AW_RAN(kt, FOLIOS_EVICTED, isolated - n);
	}
	aw_scalars(kt, true);
	INIT_LIST_HEAD(folio_list);
	for (int i = 0; i < n; i++)
		list_add(&pfn_folio(kt->aw_pfns[i])->lru, folio_list);
	return reclaimed;
}

static void aw_set_walk(bool with_walk)
{
	if (!with_walk) {
		current->reclaim_state->mm_walk = NULL;
		return;
	}
#if AW_KTEXT_FORM_set_mm_walk == 1
	set_mm_walk(NULL, true);
#else
	set_mm_walk(NULL);
#endif
}

static struct aw_ktext *aw_bind(const struct aw_ktext_host *host)
{
	struct aw_ktext *kt;

	if (!host || host->nr_nodes < 1 || host->nr_nodes > MAX_NUMNODES || host->nr_memcgs < 1 ||
	    host->nr_memcgs > AW_KTEXT_MAX_MEMCGS)
		return NULL;
	kt = aw_machine_new(host->nr_nodes, host->nr_memcgs);
	if (!kt)
		return NULL;
	kt->host = host;
	kt->zero_pfn = host->zero_pfn;
	kt->huge_zero_pfn = host->huge_zero_pfn;
	for (int n = 0; n < kt->nr_nodes; n++) {
		kt->node[n]->node_start_pfn = host->node_start_pfn[n];
		kt->node[n]->node_spanned_pages = host->node_spanned[n];
	}
	for (int m = 0; m < kt->nr_memcgs; m++)
		for (int n = 0; n < kt->nr_nodes; n++)
			kt->aw_host_lrugen[m * kt->nr_nodes + n] = host->lrugen(host->ctx, m, n);
	return kt;
}

/* The shadow of host mm id, made on the first lru_gen_add_mm() */
static struct mm_struct *aw_bound_mm(struct aw_ktext *kt, int id, bool create)
{
	struct mm_struct *mm;

	if (id < 0 || id > (1 << 24))	/* the host's mm ids stay far below (and cap doubling cannot overflow) */
		return NULL;
	if (id < kt->nr_mms && kt->mms[id])
		return kt->mms[id];
	if (!create)
		return NULL;
	if (id >= kt->cap_mms) {
		int cap = kt->cap_mms ? kt->cap_mms : 8;
		struct mm_struct **mms;

		while (cap <= id)
			cap *= 2;
		mms = realloc(kt->mms, cap * sizeof(*mms));
		if (!mms)
			return NULL;
		kt->mms = mms;
		kt->cap_mms = cap;
	}
	for (; kt->nr_mms <= id; kt->nr_mms++)
		kt->mms[kt->nr_mms] = NULL;
	mm = calloc(1, sizeof(*mm));
	if (mm)
		mm->owner = calloc(1, sizeof(*mm->owner));
	if (!mm || !mm->owner) {
		free(mm);
		return NULL;
	}
	mm->aw_index = id;
	mm->owner->mm = mm;
	INIT_LIST_HEAD(&mm->lru_gen.list);	/* lru_gen_init_mm() */
	if (!aw_bound_refresh(kt, mm)) {
		aw_mm_put(mm);
		return NULL;
	}
	kt->mms[id] = mm;
	return mm;
}

/* The debugfs '+' and reclaim's aging: try_to_inc_max_seq() with a walk, as the model has one */
static bool aw_bound_age(struct aw_ktext *kt, int memcg, int nid, unsigned long seq, int swappiness,
			 bool force_scan)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	bool ok;

	if (!lruvec)
		return false;
	AW_BOUND_ENTER(kt);
	aw_set_walk(true);
#if AW_KTEXT_FORM_try_to_inc_max_seq == 1
	ok = try_to_inc_max_seq(lruvec, seq, swappiness != 0, force_scan);
#elif AW_KTEXT_FORM_try_to_inc_max_seq == 2
	ok = try_to_inc_max_seq(lruvec, seq, swappiness, force_scan);
#elif AW_KTEXT_FORM_try_to_inc_max_seq == 3
	{
		/*
		 * priority DEF_PRIORITY: a 6.1 walker that did not finish the
		 * iteration would otherwise sleep (priority <= DEF_PRIORITY - 2)
		 * until the walker that does moves max_seq -- which, with the
		 * walkers taking turns, never comes.  It returns instead, as
		 * the model's does (docs/ktext.md).
		 */
		struct scan_control sc = { .may_writepage = true, .may_unmap = true, .may_swap = true,
					   .reclaim_idx = MAX_NR_ZONES - 1, .gfp_mask = GFP_KERNEL,
					   .priority = 12 };

		ok = try_to_inc_max_seq(lruvec, seq, &sc, swappiness != 0, force_scan);
	}
#else
#error "unknown try_to_inc_max_seq() form"
#endif
	aw_ran_aging(kt, ok);
	clear_mm_walk();
	AW_BOUND_LEAVE(kt);
	return ok;
}

/*
 * Split aging (the model's age_begin/step/end): the text's own
 * try_to_inc_max_seq(), on a walker thread of its own, stopped before each
 * iterate_mm_list() after the first -- where a walker sits between two mms
 * while other CPUs evict.  Only one side runs at a time (the turn), so the
 * run stays deterministic; the walker runs inside the host's step calls,
 * with the generations lent.  The task's walk (current's reclaim_state) is
 * the walker's while it runs and the host's otherwise.
 */
struct aw_split {
	struct aw_ktext *kt;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int turn;			/* 0 the host's, 1 the walker's */
	bool started, done, abort;
	int iterations;			/* iterate_mm_list() calls so far */
	struct lruvec *lruvec;
	unsigned long seq;
	int swappiness;
	bool force_scan;
	struct lru_gen_mm_walk *other_walk;	/* the side not running: its walk */
};

static void aw_reap_mms(struct aw_ktext *kt);

static __thread struct aw_split *aw_split_cur;	/* set on the walker thread */

static void aw_split_wait(struct aw_split *s, int who)
{
	pthread_mutex_lock(&s->lock);
	while (s->turn != who)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
}

static void aw_split_give(struct aw_split *s, int who)
{
	pthread_mutex_lock(&s->lock);
	s->turn = who;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* Hand the turn over and take it back, trading the task's walk with the other side. */
static void aw_split_switch(struct aw_split *s, int to)
{
	struct lru_gen_mm_walk *mine = current->reclaim_state->mm_walk;

	current->reclaim_state->mm_walk = s->other_walk;
	aw_split_give(s, to);
	aw_split_wait(s, !to);
	s->other_walk = current->reclaim_state->mm_walk;
	current->reclaim_state->mm_walk = mine;
}

static void aw_split_yield(void)
{
	struct aw_split *s = aw_split_cur;

	if (!s || s->iterations++ == 0)
		return;
	aw_split_switch(s, 0);
	if (s->abort) {
		/* the kernel goes away mid-pass: the walker ends here, its walk freed */
		clear_mm_walk();
		aw_split_give(s, 0);
		pthread_exit(NULL);
	}
}

static void *aw_split_main(void *arg)
{
	struct aw_split *s = arg;
	bool inc;

	aw_ktext_cur = s->kt;
	aw_split_cur = s;
	aw_split_wait(s, 1);
	s->other_walk = current->reclaim_state->mm_walk;
	current->reclaim_state->mm_walk = NULL;	/* try_to_inc_max_seq() sets its own */
#if AW_KTEXT_FORM_try_to_inc_max_seq == 1
	inc = try_to_inc_max_seq(s->lruvec, s->seq, s->swappiness != 0, s->force_scan);
#elif AW_KTEXT_FORM_try_to_inc_max_seq == 2
	inc = try_to_inc_max_seq(s->lruvec, s->seq, s->swappiness, s->force_scan);
#else
	{
		/*
		 * priority DEF_PRIORITY: a 6.1 walker that did not finish the
		 * iteration would otherwise sleep (priority <= DEF_PRIORITY - 2)
		 * until the walker that does moves max_seq -- which, with the
		 * walkers taking turns, never comes.  It returns instead, as
		 * the model's does (docs/ktext.md).
		 */
		struct scan_control sc = { .may_writepage = true, .may_unmap = true, .may_swap = true,
					   .reclaim_idx = MAX_NR_ZONES - 1, .gfp_mask = GFP_KERNEL,
					   .priority = 12 };

		inc = try_to_inc_max_seq(s->lruvec, s->seq, &sc, s->swappiness != 0, s->force_scan);
	}
#endif
	aw_ran_aging(s->kt, inc);
	clear_mm_walk();
	current->reclaim_state->mm_walk = s->other_walk;
	s->done = true;
	aw_split_give(s, 0);
	return NULL;
}

static void aw_split_free(struct aw_ktext *kt, int i)
{
	struct aw_split *s = kt->split[i];

	if (s->started)
		pthread_join(s->thread, NULL);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
	kt->split[i] = NULL;
}

/* A kernel destroyed mid-pass: the walker, if it started, leaves at its next stop. */
static void aw_split_abort(struct aw_ktext *kt, int i)
{
	struct aw_split *s = kt->split[i];

	if (!s)
		return;
	if (s->started && !s->done) {
		s->abort = true;
		aw_split_give(s, 1);
		aw_split_wait(s, 0);
	}
	aw_split_free(kt, i);
}

/* begin: 1 opened, 0 nothing to do (max_seq already retired), -EBUSY one is open */
static int aw_bound_age_begin(struct aw_ktext *kt, int memcg, int nid, int swappiness, bool force_scan)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	int i = memcg * kt->nr_nodes + nid, ret = 0;
	struct aw_split *s;

	if (!lruvec)
		return -EINVAL;
	if (kt->split[i]) {
		AW_RAN(kt, AGING_REFUSED_EBUSY, 1);
		return -EBUSY;
	}
	AW_BOUND_ENTER(kt);
	if (lruvec->lrugen.max_seq <= lruvec->mm_state.seq) {
		ret = 0;	/* try_to_inc_max_seq()'s first test */
	} else if (!(s = calloc(1, sizeof(*s)))) {
		ret = -ENOMEM;
	} else {
		*s = (struct aw_split){ .kt = kt, .lruvec = lruvec, .seq = lruvec->lrugen.max_seq,
					.swappiness = swappiness, .force_scan = force_scan };
		pthread_mutex_init(&s->lock, NULL);
		pthread_cond_init(&s->cond, NULL);
		kt->split[i] = s;
		ret = 1;
	}
	AW_BOUND_LEAVE(kt);
	return ret;
}

/* step: 0 walked an mm, 1 the pass ended, -ENOENT none open */
static int aw_bound_age_step(struct aw_ktext *kt, int memcg, int nid)
{
	int i = memcg * kt->nr_nodes + nid;
	struct aw_split *s = aw_lruvec(kt, memcg, nid) ? kt->split[i] : NULL;
	bool done;

	if (!s)
		return -ENOENT;
	AW_BOUND_ENTER(kt);
	if (!s->started) {
		if (pthread_create(&s->thread, NULL, aw_split_main, s)) {
			WARN_ON_ONCE(1);
			AW_BOUND_LEAVE(kt);
			return -ENOMEM;
		}
		s->started = true;
	}
	aw_split_switch(s, 1);
	AW_RAN(kt, SPLIT_STEPS, 1);
	done = s->done;
	if (done)
		aw_split_free(kt, i);
	AW_BOUND_LEAVE(kt);
	if (done)
		aw_reap_mms(kt);	/* its walker held an mm no more */
	return done;
}

static int aw_bound_evict(struct aw_ktext *kt, int memcg, int nid, unsigned long nr_to_scan, int swappiness,
			  bool with_walk, bool memcg_reclaim, unsigned long *nr_reclaimed)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);
	struct scan_control sc = { .gfp_mask = GFP_KERNEL, .reclaim_idx = MAX_NR_ZONES - 1, .may_swap = 1,
				   .may_unmap = 1, .may_writepage = 1, .swappiness = swappiness,
				   .priority = 12, .nr_to_reclaim = nr_to_scan };	/* DEF_PRIORITY */
	int scanned;

	if (!lruvec)
		return 0;
	AW_BOUND_ENTER(kt);
	sc.target_mem_cgroup = memcg_reclaim ? kt->memcg[memcg] : NULL;
	aw_set_walk(with_walk);
#if AW_KTEXT_FORM_evict_folios == 1
	{
		bool need_swapping = false;

		scanned = evict_folios(lruvec, &sc, swappiness, &need_swapping);
	}
#elif AW_KTEXT_FORM_evict_folios == 2
	scanned = evict_folios(lruvec, &sc, swappiness);
#elif AW_KTEXT_FORM_evict_folios == 3
	scanned = evict_folios(nr_to_scan, lruvec, &sc, swappiness);
#else
#error "unknown evict_folios() form"
#endif
	AW_RAN(kt, EVICT_CALLS, 1);
	if (with_walk)
		clear_mm_walk();
	*nr_reclaimed += sc.nr_reclaimed;
	AW_BOUND_LEAVE(kt);
	return scanned;
}

/*
 * mm/rmap.c: folio_referenced_one() for a PTE mapping, with the host's
 * entries: 6.1 looks around a young PTE and then clears it (one
 * reference for the mapping either way; see docs/ktext.md), later
 * releases leave the PTE to lru_gen_look_around() itself.
 */
static bool aw_bound_look_around(struct aw_ktext *kt, int id, unsigned long addr, unsigned long pfn,
				 void *pte, void *pmd)
{
	struct mm_struct *mm = aw_bound_mm(kt, id, false);
	struct page_vma_mapped_walk pvmw = { .pfn = pfn, .address = addr, .pte = pte, .pmd = pmd };
	bool young;

	if (!mm || !pte || !pmd)
		return false;
	AW_BOUND_ENTER(kt);
	aw_bound_vmas(kt, mm);
	pvmw.vma = aw_find_vma(mm, addr);
	if (!pvmw.vma || addr < pvmw.vma->vm_start) {
		WARN_ON_ONCE(1);
		AW_BOUND_LEAVE(kt);
		return false;
	}
	pvmw.ptl = pmd_lockptr(mm, pmd);
	spin_lock(pvmw.ptl);
#if AW_KTEXT_FORM_lru_gen_look_around == 1
	young = false;
	if (pte_young(*pvmw.pte) && !(pvmw.vma->vm_flags & (VM_SEQ_READ | VM_RAND_READ))) {
		lru_gen_look_around(&pvmw);
		AW_RAN(kt, LOOK_AROUND_CALLS, 1);
		young = true;
	}
	if (ptep_test_and_clear_young(pvmw.vma, addr, pvmw.pte) && !(pvmw.vma->vm_flags & VM_SEQ_READ))
		young = true;
#elif AW_KTEXT_FORM_lru_gen_look_around == 2
	young = lru_gen_look_around(&pvmw);
	AW_RAN(kt, LOOK_AROUND_CALLS, 1);
#else
#error "unknown lru_gen_look_around() form"
#endif
	spin_unlock(pvmw.ptl);
	AW_BOUND_LEAVE(kt);
	return young;
}

/* mm joins the shadows each call refreshes (aw_bound_enter()); false if out of memory */
static bool aw_live_add(struct aw_ktext *kt, struct mm_struct *mm)
{
	if (mm->aw_live)
		return true;
	if (kt->aw_nr_live == kt->aw_cap_live) {
		int cap = kt->aw_cap_live ? 2 * kt->aw_cap_live : 8;
		struct mm_struct **live = realloc(kt->aw_live, cap * sizeof(*live));

		if (!live)
			return false;
		kt->aw_live = live;
		kt->aw_cap_live = cap;
	}
	kt->aw_live[kt->aw_nr_live++] = mm;
	mm->aw_live = kt->aw_nr_live;
	return true;
}

static void aw_live_del(struct aw_ktext *kt, struct mm_struct *mm)
{
	struct mm_struct *last = kt->aw_live[kt->aw_nr_live - 1];

	if (!mm->aw_live)
		return;
	kt->aw_live[mm->aw_live - 1] = last;
	last->aw_live = mm->aw_live;
	kt->aw_nr_live--;
	mm->aw_live = 0;
}

/*
 * Free the deleted mms' shadows.  Not while a split pass is open: its
 * walker, stopped in iterate_mm_list(), still holds the mm it walked last
 * (mmput_async() on its way on).  The host never reuses an id.
 */
static void aw_reap_mms(struct aw_ktext *kt)
{
	if (!kt->aw_nr_dead)
		return;
	for (int i = 0; i < AW_KTEXT_MAX_MEMCGS * AW_KTEXT_MAX_NODES; i++)
		if (kt->split[i])
			return;
	for (int i = 0; i < kt->nr_mms; i++) {
		if (kt->mms[i] && kt->mms[i]->aw_dead) {
			aw_mm_put(kt->mms[i]);
			kt->mms[i] = NULL;
		}
	}
	kt->aw_nr_dead = 0;
}

static int aw_bound_add_mm(struct aw_ktext *kt, int id)
{
	struct mm_struct *mm = aw_bound_mm(kt, id, true);

	if (!mm || !aw_live_add(kt, mm))
		return -1;
	AW_BOUND_ENTER(kt);
	if (mm->aw_dead)
		kt->aw_nr_dead--;
	mm->aw_dead = false;
	lru_gen_add_mm(mm);
	AW_BOUND_LEAVE(kt);
	return 0;
}

static void aw_bound_del_mm(struct aw_ktext *kt, int id)
{
	struct mm_struct *mm = aw_bound_mm(kt, id, false);

	if (!mm || mm->aw_dead)
		return;
	AW_BOUND_ENTER(kt);
	lru_gen_del_mm(mm);
	AW_BOUND_LEAVE(kt);
	mm->aw_dead = true;
	aw_live_del(kt, mm);
	kt->aw_nr_dead++;
	aw_reap_mms(kt);
}

/* the owner moved: the host has the new memcg (refreshed on entry) */
static void aw_bound_migrate_mm(struct aw_ktext *kt, int id)
{
	struct mm_struct *mm = aw_bound_mm(kt, id, false);

	if (!mm)
		return;
	AW_BOUND_ENTER(kt);
	lru_gen_migrate_mm(mm);
	AW_BOUND_LEAVE(kt);
}

static void aw_bound_use_mm(struct aw_ktext *kt, int id)
{
	struct mm_struct *mm = aw_bound_mm(kt, id, false);

	if (mm)
		lru_gen_use_mm(mm);
}

static int aw_mm_list(struct aw_ktext *kt, int memcg, int *out, int cap)
{
	struct list_head *head, *pos;
	int n = 0;

	if (memcg < 0 || memcg >= kt->nr_memcgs)
		return 0;
	head = &kt->memcg[memcg]->mm_list.fifo;
	for (pos = head->next; pos != head; pos = pos->next, n++)
		if (n < cap)
			out[n] = list_entry(pos, struct mm_struct, lru_gen.list)->aw_index;
	return n;
}

static int aw_mm_of_pos(struct aw_ktext *kt, int memcg, struct list_head *pos)
{
	if (!pos)
		return -1;
	if (pos == &kt->memcg[memcg]->mm_list.fifo)
		return 0;
	return list_entry(pos, struct mm_struct, lru_gen.list)->aw_index;
}

static void aw_mm_state(struct aw_ktext *kt, int memcg, int nid, unsigned long *seq, int *head, int *tail)
{
	struct lruvec *lruvec = aw_lruvec(kt, memcg, nid);

	if (!lruvec)
		return;
	*seq = lruvec->mm_state.seq;
	*head = aw_mm_of_pos(kt, memcg, lruvec->mm_state.head);
	*tail = aw_mm_of_pos(kt, memcg, lruvec->mm_state.tail);
}
