// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct aw_kernel: creation, teardown, and applying one event.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kernel.h"

static int kerr(struct aw_kernel *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(k->err, sizeof(k->err), fmt, ap);
	va_end(ap);
	return -1;
}

struct lruvec *aw_lruvec(struct aw_kernel *k, int memcg, int nid)
{
	return &k->lruvecs[memcg * k->nr_nodes + nid];
}

struct mm_struct *aw_mm(struct aw_kernel *k, uint32_t id)
{
	return id && id < k->nr_mms ? k->mms[id] : NULL;
}

struct aw_task *aw_task_get(struct aw_kernel *k, uint32_t pid)
{
	return pid && pid < k->nr_tasks ? &k->tasks[pid] : NULL;
}

/*
 * mm/vmscan.c: get_swappiness(): vm_swappiness (60), but 0 when fewer
 * than MIN_LRU_BATCH swap pages are free (mem_cgroup_get_nr_swap_pages();
 * the model has no swap.max, so the machine's free swap) and there is no
 * demotion target.  Every profile has the test.  Reclaim and the debugfs
 * commands without a swappiness take it; with 0 the walk skips anonymous
 * VMAs (should_skip_vma()) and eviction is file-only.
 */
int aw_default_swappiness(const struct aw_kernel *k)
{
	if (k->nr_swap - k->swap_used < MIN_LRU_BATCH)
		return 0;
	return 60;
}

struct aw_region *aw_region_of(struct aw_kernel *k, const struct vm_area_struct *vma)
{
	if (!vma->region || vma->region > k->nr_regions)
		return NULL;
	return &k->regions[vma->region - 1];
}

struct aw_kernel *aw_kernel_create(const struct aw_config *cfg, int nr_regions,
				   unsigned int features, unsigned int bugs)
{
	struct aw_kernel *k = calloc(1, sizeof(*k));
	uint64_t bytes[AW_MAX_NODES];
	int n;

	if (!k)
		return NULL;
	k->cfg = *cfg;
	k->prof = aw_profile(cfg->kernel);
	k->features = features;
	k->bugs = bugs;
	k->mglru = &aw_model_mglru;
	k->khops = &aw_model_khugepaged;
	k->skip_empty = cfg->skip_empty >= 1 && cfg->skip_empty <= 64 ? cfg->skip_empty : 4;
	k->nr_nodes = cfg->nr_nodes;
	k->nr_memcgs = cfg->nr_memcgs;
	for (n = 0; n < k->nr_nodes; n++)
		bytes[n] = cfg->node[n].mem_bytes;
	for (int c = 0; c < AW_MAX_CPUS; c++) {
		k->cpu_node[c] = 0;
		for (n = 0; n < k->nr_nodes; n++)
			if (cfg->node[n].cpu_mask >> c & 1)
				k->cpu_node[c] = n;
	}
	if (aw_mem_init(&k->mem, k->nr_nodes, bytes) || aw_pgtable_alloc_init(&k->pt))
		goto fail;
	k->lruvecs = calloc((size_t)k->nr_nodes * k->nr_memcgs, sizeof(*k->lruvecs));
	k->open_walk = calloc((size_t)k->nr_nodes * k->nr_memcgs, sizeof(*k->open_walk));
	if (!k->lruvecs || !k->open_walk)
		goto fail;
	for (int m = 0; m < k->nr_memcgs; m++) {
		INIT_LIST_HEAD(&k->mm_list[m].fifo);
		k->memcg[m].limit = cfg->memcg_limit[m] / PAGE_SIZE;
		for (n = 0; n < k->nr_nodes; n++) {
			lru_gen_init_lruvec(aw_lruvec(k, m, n), m, n, m * k->nr_nodes + n, 0);
			aw_lruvec(k, m, n)->k = k;
		}
	}
	/*
	 * The slot array grows as slots are first handed out (evict.c:
	 * swap_reserve()): only slots below swap_next are ever indexed, and a
	 * whole-device calloc() would be a memset of megabytes per machine
	 * when the heap recycles the memory (the fuzz targets).
	 */
	k->nr_swap = (uint32_t)(cfg->swap_bytes / PAGE_SIZE);
	k->swap = NULL;
	k->cap_swap = 0;
	k->swap_free = AW_NIL;	/* freed slots; never-used ones come from swap_next */
	k->swap_next = 0;
	khugepaged_init(k);
	k->nr_regions = nr_regions;
	k->regions = calloc(nr_regions ? nr_regions : 1, sizeof(*k->regions));
	if (!k->regions)
		goto fail;
	return k;
fail:
	aw_kernel_destroy(k);
	return NULL;
}

/*
 * trace_aw_kernel_destroy(), by hand: a probe there unregisters itself
 * (and its others) while the list is being walked, so take the first one
 * until none is left.
 */
static void kernel_destroy_observers(struct aw_kernel *k)
{
	struct aw_tracepoint *tp = &k->tracepoints.tp[AW_TP_aw_kernel_destroy];

	while (tp->nr) {
		struct aw_tracepoint_func f = tp->funcs[0];

		((aw_probe_aw_kernel_destroy_t)f.func)(f.data, k);
		(void)aw_tracepoint_probe_unregister(tp, f.func, f.data);
	}
}

void aw_kernel_destroy(struct aw_kernel *k)
{
	if (!k)
		return;
	kernel_destroy_observers(k);
	if (k->mglru && k->mglru->release)
		k->mglru->release(k);
	if (k->khops && k->khops->release)
		k->khops->release(k);
	khugepaged_destroy(k);
	free(k->wb_pending);
	aw_memcg_events_free(k);
	for (uint32_t i = 0; i < k->nr_mms; i++) {
		if (k->mms && k->mms[i]) {
			free(k->mms[i]->vmas);
			free(k->mms[i]);
		}
	}
	free(k->mms);
	free(k->free_mm_kaddr);
	free(k->tasks);
	free(k->swap);
	if (k->lruvecs) {
		for (int i = 0; i < k->nr_nodes * k->nr_memcgs; i++) {
			for (int l = 0; l < BLOOM_FILTER_LEVELS; l++)
				aw_bloom_free(k->lruvecs[i].mm_state.filters[l]);
			if (k->open_walk && k->open_walk[i])
				free(k->open_walk[i]);
		}
	}
	free(k->lruvecs);
	free(k->open_walk);
	for (int n = 0; n < AW_MAX_NODES; n++) {
		free(k->node_stats[n].passes);
		free(k->node_stats[n].evictions);
	}
	for (int r = 0; r < k->nr_regions && k->regions; r++) {
		free(k->regions[r].passes);
		free(k->regions[r].samples);
	}
	free(k->regions);
	aw_mem_destroy(&k->mem);
	aw_pgtable_alloc_destroy(&k->pt);
	free(k);
}

static struct aw_task *task_slot(struct aw_kernel *k, uint32_t pid)
{
	if (pid == 0 || pid > 1000000)
		return NULL;
	if (pid >= k->nr_tasks) {
		uint32_t n = pid + 16;
		struct aw_task *t = realloc(k->tasks, n * sizeof(*t));

		if (!t)
			return NULL;
		memset(t + k->nr_tasks, 0, (n - k->nr_tasks) * sizeof(*t));
		k->tasks = t;
		k->nr_tasks = n;
	}
	return &k->tasks[pid];
}

static int new_process(struct aw_kernel *k, struct aw_task *t, uint32_t pid, int cpu, int memcg,
		       bool layout)
{
	struct mm_struct *mm = aw_mm_alloc(k, memcg);

	if (!mm)
		return kerr(k, "out of memory creating a process");
	t->pid = pid;
	t->mm = mm->id;
	t->cpu = cpu;
	t->memcg = memcg;
	t->alive = true;
	k->mglru->lru_gen_add_mm(k, mm);
	k->mglru->lru_gen_use_mm(k, mm);
	if (layout)
		aw_setup_layout(k, t);
	return 0;
}

static void task_exit(struct aw_kernel *k, struct aw_task *t)
{
	struct mm_struct *mm = aw_mm(k, t->mm);

	t->alive = false;
	t->mm = 0;
	if (mm)
		aw_mm_put(k, mm);
}

/* Resolve an event's address range: region-relative or absolute. */
static int resolve_range(struct aw_kernel *k, const struct aw_event *ev, uint64_t *start, uint64_t *len)
{
	uint64_t base = 0;

	if (ev->region) {
		struct aw_region *r;

		if (ev->region > k->nr_regions)
			return kerr(k, "region %u is not defined", ev->region);
		r = &k->regions[ev->region - 1];
		if (!r->mm)
			return 1;	/* not mapped (any more): nothing to do */
		base = r->start;
	}
	*start = (base + ev->addr) & ~(PAGE_SIZE - 1);
	*len = ev->len;
	if (*len == 0 || *start >= TASK_SIZE || *len > TASK_SIZE || *start + *len > TASK_SIZE)
		return kerr(k, "address range 0x%llx+0x%llx is outside the 47-bit user address space",
			    (unsigned long long)*start, (unsigned long long)*len);
	*len = ((ev->addr & (PAGE_SIZE - 1)) + *len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	return 0;
}

static int apply_mmap(struct aw_kernel *k, const struct aw_event *ev, struct aw_task *t)
{
	struct mm_struct *mm = aw_mm(k, t->mm);
	uint64_t addr;

	if (ev->len == 0 || ev->len > TASK_SIZE || ev->addr2 >= TASK_SIZE)
		return kerr(k, "mmap of 0x%llx bytes at 0x%llx is impossible",
			    (unsigned long long)ev->len, (unsigned long long)ev->addr2);
	if (ev->region > k->nr_regions)
		return kerr(k, "region %u is not defined", ev->region);
	if (aw_do_mmap(k, mm, ev->addr2, ev->len, ev->flags, ev->arg, ev->region, AW_VMA_MMAP, &addr)) {
		k->ignored_events++;	/* ENOMEM: no room in the address space */
		return 0;
	}
	if (ev->region) {
		struct aw_region *r = &k->regions[ev->region - 1];

		r->pid = ev->pid;
		r->f_prev_pos = -1;	/* file_ra_state_init(): a fresh descriptor */
		r->mm = mm->id;
		r->start = addr;
		r->len = (ev->len + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	}
	return 0;
}

static int swappiness_of(struct aw_kernel *k, const struct aw_event *ev)
{
	return ev->swappiness == AW_SWAPPINESS_DEFAULT ? aw_default_swappiness(k) : ev->swappiness;
}

/*
 * mm/vmscan.c: run_cmd(): a swappiness above MAX_SWAPPINESS is -EINVAL in
 * 6.1/6.12 (201, "anon only", is mainline's, 6.14+).
 */
static bool swappiness_rejected(const struct aw_kernel *k, const struct aw_event *ev)
{
	return !k->prof->swappiness_anon_only && ev->swappiness != AW_SWAPPINESS_DEFAULT &&
	       ev->swappiness > MAX_SWAPPINESS;
}

/*
 * 6.1/6.12 mm/vmscan.c: run_aging(): unless forced, the debugfs '+'
 * command is refused with -ERANGE while the type it would evict already
 * has MAX_NR_GENS generations (min_seq[!can_swap] + MAX_NR_GENS - 1 <=
 * max_seq).  Mainline has no such test since "mm/mglru: rework aging
 * feedback" (6.14): try_to_inc_max_seq() makes room with inc_min_seq().
 * The model's age events are that command (seq = max_seq, so its
 * seq < max_seq and seq > max_seq cases cannot arise); a refusal is
 * counted per node (aging_refused), never silently dropped.
 */
static bool run_aging_refused(const struct aw_kernel *k, const struct lruvec *lruvec, int can_swap,
			      bool force_scan)
{
	const struct lru_gen_folio *lrugen = &lruvec->lrugen;

	if (!k->prof->aging_refused_at_max_gens || force_scan)
		return false;
	if (AW_BUG(k, AW_BUG_AGING_REFUSED_OFF_BY_ONE))	/* planted: one generation late */
		return lrugen->min_seq[!can_swap] + MAX_NR_GENS - 1 < lrugen->max_seq;
	return lrugen->min_seq[!can_swap] + MAX_NR_GENS - 1 <= lrugen->max_seq;
}

/*
 * mm/vmscan.c: run_aging(), the model's (behind the seam, mglru_ops.h):
 * seq < max_seq is done already, seq > max_seq is -EINVAL, then the
 * -ERANGE refusal above, then the model's try_to_inc_max_seq().
 */
int aw_model_run_aging(struct aw_kernel *k, struct lruvec *lruvec, unsigned long seq, int swappiness,
		       bool force_scan)
{
	unsigned long max_seq = lruvec->lrugen.max_seq;

	if (seq < max_seq)
		return 0;
	if (seq > max_seq)
		return -EINVAL;
	if (run_aging_refused(k, lruvec, swappiness, force_scan))
		return -ERANGE;
	try_to_inc_max_seq(k, lruvec, max_seq, swappiness, force_scan);
	return 0;
}

/* A '+' as the agreement oracle compares it; a refusal is counted per node, never silently dropped. */
static void log_aging(struct aw_kernel *k, const struct lruvec *lruvec, int ret)
{
	struct aw_reclaim_call c = { .kind = AW_RC_AGE, .memcg = lruvec->memcg, .nid = lruvec->nid,
				     .priority = -1, .result = ret, .rotate = -1,
				     .max_seq = lruvec->lrugen.max_seq };

	for (int type = 0; type < ANON_AND_FILE; type++)
		c.min_seq[type] = lruvec->lrugen.min_seq[type];
	if (ret == -ERANGE)
		k->node_stats[lruvec->nid].aging_refused++;
	aw_reclaim_log_add(k, &c);
}

static int apply_aging(struct aw_kernel *k, const struct aw_event *ev)
{
	struct lruvec *lruvec = aw_lruvec(k, ev->memcg, ev->node);
	int swp = swappiness_of(k, ev);
	bool force = ev->flags & AW_AGE_FORCE;

	if ((ev->kind == AW_EV_AGE || ev->kind == AW_EV_AGE_BEGIN) && swappiness_rejected(k, ev)) {
		k->ignored_events++;
		return 0;
	}
	/* 6.1/6.12: try_to_inc_max_seq(..., bool can_swap, ...) */
	if (k->prof->can_swap_arg)
		swp = !!swp;
	if (ev->kind == AW_EV_AGE_BEGIN && run_aging_refused(k, lruvec, swp, force)) {
		k->node_stats[lruvec->nid].aging_refused++;	/* -ERANGE */
		return 0;
	}

	switch (ev->kind) {
	case AW_EV_AGE:
		/* debugfs '+': run_aging() with the current max_seq, through the variant's code */
		log_aging(k, lruvec, k->mglru->run_aging(k, lruvec, lruvec->lrugen.max_seq, swp, force));
		return 0;
	case AW_EV_AGE_BEGIN:
		if (k->mglru->age_begin(k, lruvec, swp, force) == -EBUSY)
			k->ignored_events++;
		return 0;
	case AW_EV_AGE_STEP:
		if (k->mglru->age_step(k, lruvec) < 0)
			k->ignored_events++;
		return 0;
	default:
		if (k->mglru->age_end(k, lruvec) < 0)
			k->ignored_events++;
		return 0;
	}
}

/*
 * khugepaged: arg 0 = `repeat` wake-ups (or, with AW_KH_FULL, wake-ups until
 * full_scans has grown by `repeat`), len = pages_to_scan for them (0 = the
 * knob); arg AW_KH_* = a sysfs store of len.  No khugepaged thread runs
 * while THP is "never" (start_stop_khugepaged()).
 */
static int apply_khugepaged(struct aw_kernel *k, const struct aw_event *ev)
{
	uint32_t n = ev->repeat ? ev->repeat : 1;
	unsigned int pages = ev->len > UINT32_MAX ? UINT32_MAX : (unsigned int)ev->len;
	unsigned long target;
	bool full;

	if (ev->arg) {
		if (aw_khugepaged_set(k, (int)ev->arg, ev->len))
			k->ignored_events++;	/* EINVAL */
		return 0;
	}
	if (k->cfg.thp == AW_THP_NEVER)
		return 0;
	full = ev->flags & AW_KH_FULL;
	target = k->kh.full_scans + n;
	for (uint32_t w = 0; w < AW_KH_MAX_WAKEUPS && (full ? k->kh.full_scans < target : w < n); w++)
		if (!khugepaged_wake(k, pages))
			break;
	trace_aw_khugepaged_event_end(k);
	return 0;
}

/* The record of one `evict`, its "before" half filled in; NULL without memory. */
static struct aw_eviction *new_eviction(struct aw_kernel *k, const struct aw_event *ev,
					const struct lruvec *lruvec, unsigned long seq)
{
	struct aw_node_stats *ns = &k->node_stats[ev->node];
	struct aw_eviction *e = aw_grow(ns->evictions, &ns->cap_evictions, ns->nr_evictions, sizeof(*e), 16);

	if (!e)
		return NULL;
	ns->evictions = e;
	e = &ns->evictions[ns->nr_evictions++];
	*e = (struct aw_eviction){ .event = k->event_index, .memcg = ev->memcg, .seq = seq,
				   .max_seq = lruvec->lrugen.max_seq,
				   .evicted_pages = ns->evicted_pages };
	for (int type = 0; type < ANON_AND_FILE; type++)
		e->min_seq_before[type] = lruvec->lrugen.min_seq[type];
	return e;
}

static int apply_evict(struct aw_kernel *k, const struct aw_event *ev)
{
	struct lruvec *lruvec = aw_lruvec(k, ev->memcg, ev->node);
	int swp = swappiness_of(k, ev);
	unsigned long seq = evictable_min_seq(lruvec->lrugen.min_seq, swp);
	struct aw_eviction *e;

	if (swappiness_rejected(k, ev)) {
		k->ignored_events++;
		return 0;
	}
	if (!(e = new_eviction(k, ev, lruvec, seq)))
		return kerr(k, "out of memory");
	if (aw_run_eviction(k, lruvec, seq, swp, ev->len ? ev->len : (unsigned long)-1,
			    !(ev->flags & AW_EVICT_DIRECT))) {
		k->ignored_events++;	/* -EINVAL: only two generations, age first */
		e->refused = true;
	}
	e->evicted_pages = k->node_stats[ev->node].evicted_pages - e->evicted_pages;
	for (int type = 0; type < ANON_AND_FILE; type++)
		e->min_seq_after[type] = lruvec->lrugen.min_seq[type];
	return 0;
}

static int check_ids(struct aw_kernel *k, const struct aw_event *ev)
{
	if (ev->kind >= AW_EV_NR || ev->kind == AW_EV_NONE)
		return kerr(k, "unknown event kind %u", ev->kind);
	switch (ev->kind) {
	case AW_EV_AGE: case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP: case AW_EV_AGE_END:
	case AW_EV_EVICT: case AW_EV_MIGRATE: case AW_EV_MBIND: case AW_EV_SET_MEMPOLICY:
		if (ev->node >= k->nr_nodes)
			return kerr(k, "node %u is not in the topology (%d nodes)", ev->node, k->nr_nodes);
		break;
	default:
		break;
	}
	if ((ev->kind == AW_EV_AGE || ev->kind == AW_EV_AGE_BEGIN || ev->kind == AW_EV_EVICT) &&
	    ev->swappiness != AW_SWAPPINESS_DEFAULT && ev->swappiness > MAX_SWAPPINESS + 1)
		return kerr(k, "swappiness %u is out of range 0..201", ev->swappiness);
	if (ev->memcg >= k->nr_memcgs &&
	    (ev->kind == AW_EV_PROC || ev->kind == AW_EV_AGE || ev->kind == AW_EV_AGE_BEGIN ||
	     ev->kind == AW_EV_AGE_STEP || ev->kind == AW_EV_AGE_END || ev->kind == AW_EV_EVICT ||
	     ev->kind == AW_EV_MEMCG_LIMIT || ev->kind == AW_EV_MEMCG_MOVE))
		return kerr(k, "memcg %u is not declared", ev->memcg);
	if (ev->cpu != AW_CPU_CURRENT && ev->cpu >= AW_MAX_CPUS &&
	    (ev->kind == AW_EV_PROC || ev->kind == AW_EV_RUN || ev->kind == AW_EV_ACCESS))
		return kerr(k, "cpu %u is out of range", ev->cpu);
	return 0;
}

static int apply_task_event(struct aw_kernel *k, const struct aw_event *ev, struct aw_task *t)
{
	uint64_t start = 0, len = 0;
	int cpu = ev->cpu == AW_CPU_CURRENT ? t->cpu : ev->cpu;
	struct mm_struct *mm = aw_mm(k, t->mm);
	int r;

	switch (ev->kind) {
	case AW_EV_RUN:
		t->cpu = cpu;
		k->mglru->lru_gen_use_mm(k, mm);	/* kernel/sched/core.c: context_switch() */
		return 0;
	case AW_EV_MMAP:
		return apply_mmap(k, ev, t);
	case AW_EV_BRK:
		return aw_apply_mm_event(k, ev, t, 0, 0) ? (k->ignored_events++, 0) : 0;
	case AW_EV_SET_MEMPOLICY:
		mm->mpol = (uint8_t)ev->arg;
		mm->mpol_node = (uint8_t)ev->node;
		return 0;
	case AW_EV_MEMCG_MOVE:
		t->memcg = ev->memcg;
		k->mglru->lru_gen_migrate_mm(k, mm, ev->memcg);	/* the charges stay (cgroup v2) */
		return 0;
	case AW_EV_PRCTL_THP:
		/* prctl_set_thp_disable(): the mm's flags only ... */
		mm->thp_disable = (uint8_t)(ev->arg < AW_THP_DISABLE_NR ? ev->arg : 0);
		/* ... unless asked to model the unmerged proposal's (docs/oracles.md) "prctl re-enabling
		 * THP" registration (not in mainline at the seed's base) */
		if ((k->features & AW_FEAT_KH_PRCTL_ENTER) && mm->thp_disable != AW_THP_DISABLE_COMPLETELY)
			for (int i = 0; i < mm->nr_vmas; i++)
				khugepaged_enter_vma(k, mm, &mm->vmas[i], mm->vmas[i].vm_flags);
		return 0;
	case AW_EV_CONTEND:
		if (ev->arg == AW_LOCK_MMAP)
			mm->mmap_contended = ev->flags & AW_CONTEND_ON;
		else
			mm->ptl_contended = ev->flags & AW_CONTEND_ON;
		return 0;
	default:
		break;
	}
	r = resolve_range(k, ev, &start, &len);
	if (r)
		return r < 0 ? -1 : 0;
	switch (ev->kind) {
	case AW_EV_ACCESS:
		t->cpu = cpu;
		aw_access(k, t, start, len, ev->stride, ev->repeat, ev->flags, cpu);
		return 0;
	case AW_EV_FDIO:
		aw_file_rw(k, t, start, len, ev->repeat, ev->flags & AW_ACC_WRITE, t->cpu);
		return 0;
	case AW_EV_MADVISE:
		if (aw_madvise(k, mm, start, len, (int)ev->arg))
			k->ignored_events++;
		return 0;
	case AW_EV_MIGRATE:
		aw_migrate_range(k, mm, start, len, ev->node);
		return 0;
	default:
		if (aw_apply_mm_event(k, ev, t, start, len))
			k->ignored_events++;
		return 0;
	}
}

static const char *const bug_names[AW_BUG_NR] = {
	[AW_BUG_PUD_FORCE_NO_BYPASS] = "pud-force-no-bypass",
	[AW_BUG_PUD_FORCE_NO_REMARK] = "pud-force-no-remark",
	[AW_BUG_PUD_LOOKAROUND_NO_MARK] = "pud-lookaround-no-mark",
	[AW_BUG_EMPTYMAP_SHARED_COUNTER] = "emptymap-shared-counter",
	[AW_BUG_EVICT_IGNORE_PMD_YOUNG] = "evict-ignore-pmd-young",
	[AW_BUG_PUD_RESET_WRONG_SEQ] = "pud-reset-wrong-seq",
	[AW_BUG_EMPTYMAP_MARK_ON_FAILED_TRYLOCK] = "emptymap-mark-on-failed-trylock",
	[AW_BUG_WALK_BATCH_NOT_FLUSHED] = "walk-batch-not-flushed",
	[AW_BUG_KHUGEPAGED_COLLAPSE_LAZYFREE] = "khugepaged-collapse-lazyfree",
	[AW_BUG_KHUGEPAGED_PROGRESS_512] = "khugepaged-progress-512",
	[AW_BUG_KHUGEPAGED_SKIP_UNCOUNTED] = "khugepaged-skip-uncounted",
	[AW_BUG_KHUGEPAGED_COPY_PRESENT_ONLY] = "khugepaged-copy-present-only",
	[AW_BUG_PUD_FORCE_PMD_TEST] = "pud-force-pmd-test",
	[AW_BUG_KHUGEPAGED_MADV_LAZYFREE] = "khugepaged-madv-lazyfree",
	[AW_BUG_REFAULT_COUNTED_BEFORE_TEST] = "refault-counted-before-test",
	[AW_BUG_SHOULD_RUN_AGING_CMP] = "should-run-aging-cmp",
	[AW_BUG_AGING_REFUSED_OFF_BY_ONE] = "aging-refused-off-by-one",
	[AW_BUG_SWAPIN_REPORTED_MINOR] = "swapin-reported-minor",
	[AW_BUG_TWO_TOUCH_FIRST_PROMOTES] = "two-touch-first-promotes",
	[AW_BUG_FOLIO_SEQ_WORKINGSET] = "folio-seq-workingset",
	[AW_BUG_CHECK_REFS_PTES_GE] = "check-refs-ptes-ge",
	[AW_BUG_TIER_PROTECT_OFF_BY_ONE] = "tier-protect-off-by-one",
	[AW_BUG_TIER_CTRL_ERR_INVERTED] = "tier-ctrl-err-inverted",
};

const char *aw_bug_name(enum aw_bug bug)
{
	return (unsigned int)bug < AW_BUG_NR ? bug_names[bug] : "unknown";
}

int aw_bug_parse(const char *name)
{
	for (int i = 0; i < AW_BUG_NR; i++)
		if (!strcmp(bug_names[i], name))
			return i;
	return -1;
}

static int kernel_apply(struct aw_kernel *k, const struct aw_event *ev);

/* Apply one event, with its begin and end facts around it. */
int aw_kernel_apply(struct aw_kernel *k, const struct aw_event *ev)
{
	int ret;

	trace_aw_event_begin(k, ev);
	ret = kernel_apply(k, ev);
	trace_aw_event_end(k, ev);
	if (aw_memcg_events_record(k))
		return kerr(k, "out of memory recording memcg figures");
	return ret;
}

static int kernel_apply(struct aw_kernel *k, const struct aw_event *ev)
{
	struct aw_task *t, *c;

	k->err[0] = 0;
	if (check_ids(k, ev))
		return -1;
	switch (ev->kind) {
	case AW_EV_TIME:
		k->now_ns += ev->len;
		return 0;
	case AW_EV_AGE: case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP: case AW_EV_AGE_END:
		return apply_aging(k, ev);
	case AW_EV_EVICT:
		return apply_evict(k, ev);
	case AW_EV_MEMCG_LIMIT:
		k->memcg[ev->memcg].limit = ev->len / PAGE_SIZE;
		return 0;
	case AW_EV_SAMPLE:
		return aw_region_sample(k, ev->region) ? kerr(k, "region %u is not defined", ev->region) : 0;
	case AW_EV_KHUGEPAGED:
		return apply_khugepaged(k, ev);
	case AW_EV_PROC:
		t = task_slot(k, ev->pid);
		if (!t)
			return kerr(k, "process id %u is out of range", ev->pid);
		if (t->alive)
			task_exit(k, t);
		return new_process(k, t, ev->pid, ev->cpu == AW_CPU_CURRENT ? 0 : ev->cpu, ev->memcg,
				   !(ev->flags & AW_PROC_NOLAYOUT));
	default:
		break;
	}
	t = aw_task_get(k, ev->pid);
	if (!t || !t->alive || !aw_mm(k, t->mm)) {
		k->ignored_events++;	/* the process is gone (exited, OOM-killed) */
		return 0;
	}
	switch (ev->kind) {
	case AW_EV_FORK: case AW_EV_VFORK: case AW_EV_THREAD:
		c = task_slot(k, ev->pid2);
		if (!c || ev->pid2 == ev->pid)
			return kerr(k, "child process id %u is invalid", ev->pid2);
		t = aw_task_get(k, ev->pid);	/* task_slot() may have moved the array */
		if (c->alive)
			task_exit(k, c);
		if (ev->kind == AW_EV_FORK)
			return aw_fork(k, t, ev->pid2) ? kerr(k, "fork failed") : 0;
		*c = *t;
		c->pid = ev->pid2;
		c->vfork_shared = ev->kind == AW_EV_VFORK;
		aw_mm(k, t->mm)->users++;
		return 0;
	case AW_EV_EXEC: {
		/* PR_SET_THP_DISABLE survives execve (MMF_INIT_MASK) */
		uint8_t thp_disable = aw_mm(k, t->mm)->thp_disable;
		struct mm_struct *mm;

		task_exit(k, t);
		if (new_process(k, t, ev->pid, t->cpu, t->memcg, false))
			return -1;
		mm = aw_mm(k, t->mm);
		if (mm) {
			mm->thp_disable = thp_disable;
			aw_setup_layout(k, t);
		}
		return 0;
	}
	case AW_EV_EXIT:
		task_exit(k, t);
		return 0;
	default:
		return apply_task_event(k, ev, t);
	}
}
