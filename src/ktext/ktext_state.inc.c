/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text's own state on the host's machine (a fragment ktext_glue.inc.c
 * includes into each generated file): one pglist_data per host node, one
 * mem_cgroup per host memcg with its lruvecs, initialised by the tree's
 * own lru_gen_init_lruvec() and lru_gen_init_memcg(), as
 * mem_cgroup_alloc() and the node setup call them.  Page tables and
 * folios are the host's (ktext_bind.inc.c); the shadow mm structs are made
 * there on the first lru_gen_add_mm() and freed here.
 */

/* page cache a file VMA maps: MGLRU only asks whether read_folio is set */
static int aw_read_folio(void *file, struct folio *folio) { return 0; }
static const struct address_space_operations aw_aops = { .read_folio = aw_read_folio };
static struct address_space aw_mapping = { .a_ops = &aw_aops };
static struct file aw_file = { .f_mapping = &aw_mapping };

/* The calls below run kernel text: make kt the machine it runs on. */
#define AW_ENTER(kt)	struct aw_ktext *aw_saved = aw_ktext_cur; aw_ktext_cur = (kt)
#define AW_LEAVE()	(aw_ktext_cur = aw_saved)

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
	for (int i = 0; i < kt->nr_mms; i++)
		aw_mm_put(kt->mms[i]);
	free(kt->mms);
	free(kt->aw_live);
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
	for (int n = 0; n < kt->nr_nodes; n++)
		free(kt->node[n]);
	free(kt);
}

/* The nodes (their pfn ranges are the host's, set by aw_bind()), memcgs and lruvecs. */
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
