// SPDX-License-Identifier: GPL-2.0-only
/*
 * `age` and `evict` through /sys/kernel/debug/lru_gen (lru_gen_seq_write()
 * -> run_cmd() -> run_aging() / run_eviction()), with lru_gen_full read
 * just before and just after each command: the pass's walk figures are
 * the difference of the two reads (aw_lg_walk_delta()).  Anything else
 * that walks the same lruvec between the two reads (kswapd, a memcg limit's
 * reclaim) lands in the same difference; the executor is the only thing
 * running, so that is reclaim the scenario itself caused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

/* Read and parse lru_gen_full; a missing file is fatal (no MGLRU debugfs). */
static int snapshot(struct aw_exec *x, const char *file, struct aw_lg_snapshot *snap)
{
	char path[512], why[160];
	char *text;
	int r;

	snprintf(path, sizeof(path), "%s/%s", x->opt.debugfs, file);
	if ((r = aw_read_file(path, &text))) {
		snprintf(x->fatal, sizeof(x->fatal), "cannot read %.160s: %s", path, strerror(-r));
		return -1;
	}
	r = aw_lg_parse(text, snap, why, sizeof(why));
	free(text);
	if (r)
		snprintf(x->fatal, sizeof(x->fatal), "%.160s: %.80s", path, why);
	return r;
}

/* The kernel's mem_cgroup id of scenario memcg m, from lru_gen's "memcg ID PATH" lines. */
static int memcg_id(struct aw_exec *x, int m, unsigned int *id)
{
	char path[512];
	int found;

	if (!x->memcg_known[m]) {
		if (snapshot(x, "lru_gen", x->snap2))
			return -1;
		aw_memcg_path(x, m, path, sizeof(path));
		found = aw_lg_find_memcg(x->snap2, path);
		/* without memcg the one lruvec is printed as memcg 0 with no path */
		if (found < 0 && m == 0 && x->snap2->nr && x->snap2->v[0].path[0] == '\0')
			found = (int)x->snap2->v[0].memcg_id;
		if (found < 0) {
			snprintf(x->fatal, sizeof(x->fatal), "memcg %d (%.160s) is not in lru_gen", m, path);
			return -1;
		}
		x->memcg_id[m] = (unsigned int)found;
		x->memcg_known[m] = true;
	}
	*id = x->memcg_id[m];
	return 0;
}

static int write_cmd(struct aw_exec *x, const char *cmd)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/lru_gen", x->opt.debugfs);
	return aw_write_file(path, cmd);
}

static struct aw_xpass *new_pass(struct aw_exec *x, int node)
{
	struct aw_xnode *xn = &x->node[node];
	struct aw_xpass *p = aw_grow(xn->passes, &xn->cap_passes, xn->nr_passes, sizeof(*p), 16);

	if (!p)
		return NULL;
	xn->passes = p;
	memset(&xn->passes[xn->nr_passes], 0, sizeof(struct aw_xpass));
	xn->passes[xn->nr_passes].pass = xn->nr_passes + 1;
	return &xn->passes[xn->nr_passes++];
}

static void region_residency_after_pass(struct aw_exec *x, int pass, int node);

/*
 * Passes the kernel ran by itself: a memcg limit's reclaim, or kswapd, ages
 * an lruvec that has run out of generations to evict (try_to_shrink_lruvec()
 * -> should_run_aging() -> try_to_inc_max_seq()), and the model counts
 * those passes too.  Whatever moved max_seq since the executor's last read
 * of that lruvec is recorded as that many passes, marked reclaim; one
 * such pass gets the counters' difference, several share it and so get
 * none (null).  Called with x->snap fresh, before the executor's own
 * command, and once at the end.
 */
static int reclaim_passes(struct aw_exec *x)
{
	for (int m = 0; m < x->sc.cfg.nr_memcgs && m < AW_MAX_MEMCGS; m++) {
		for (int n = 0; x->memcg_known[m] && n < x->sc.cfg.nr_nodes; n++) {
			struct aw_lg_lruvec *last = &x->seen[m * AW_MAX_NODES + n];
			const struct aw_lg_lruvec *now = aw_lg_find(x->snap, x->memcg_id[m], n);
			uint64_t k = now && last->max_seq && now->max_seq > last->max_seq ?
				     now->max_seq - last->max_seq : 0;

			for (uint64_t i = 0; i < k; i++) {
				struct aw_xpass *p = new_pass(x, n);

				if (!p)
					return -1;
				*p = (struct aw_xpass){ .pass = p->pass, .event = x->ev, .aged = true,
							.reclaim = true, .seq_before = last->max_seq + i,
							.seq_after = last->max_seq + i + 1 };
				for (int j = 0; j < AW_LG_NR; j++)
					p->stat[j] = -1;
				if (k == 1)
					aw_lg_walk_delta(last, now, p->stat);
				region_residency_after_pass(x, p->pass, n);
			}
			if (now)
				*last = *now;
		}
	}
	return 0;
}

/* Remember what the executor's own command left in an lruvec (x->snap fresh). */
static void seen_now(struct aw_exec *x, int m, int node, unsigned int id)
{
	const struct aw_lg_lruvec *now = aw_lg_find(x->snap, id, node);

	if (now && m < AW_MAX_MEMCGS)
		x->seen[m * AW_MAX_NODES + node] = *now;
}

/*
 * Before the first event (every memcg's lruvecs as they start) and after
 * the last (reclaim the last events caused).
 */
int aw_exec_reclaim_passes(struct aw_exec *x)
{
	char path[512];
	unsigned int id;

	/* a scenario with no aging or eviction runs without lru_gen: nothing to track */
	snprintf(path, sizeof(path), "%s/lru_gen_full", x->opt.debugfs);
	if (access(path, R_OK))
		return 0;
	for (int m = 0; m < x->sc.cfg.nr_memcgs && m < AW_MAX_MEMCGS; m++)
		if (memcg_id(x, m, &id))
			return -1;
	if (snapshot(x, "lru_gen_full", x->snap))
		return -1;
	return reclaim_passes(x);
}

/* Both reads of one lruvec; -1 fatal, 1 no such lruvec (noted), 0 ok. */
static int lruvec_of(struct aw_exec *x, int m, int node, unsigned int *id, const struct aw_lg_lruvec **v)
{
	if (memcg_id(x, m, id) || snapshot(x, "lru_gen_full", x->snap))
		return -1;
	*v = aw_lg_find(x->snap, *id, node);
	if (!*v) {
		aw_note(x, AW_NOTE_ERROR, "no lruvec for memcg %d node %d in lru_gen_full", m, node);
		return 1;
	}
	return 0;
}

int aw_exec_age(struct aw_exec *x, const struct aw_event *ev)
{
	const struct aw_lg_lruvec *b, *a;
	struct aw_lg_lruvec before;
	unsigned int id, sw;
	struct aw_xpass *p;
	char cmd[128];
	int r;

	if ((r = lruvec_of(x, ev->memcg, ev->node, &id, &b)))
		return r < 0 ? -1 : 0;
	before = *b;
	if (reclaim_passes(x))
		return -1;
	sw = ev->swappiness == AW_SWAPPINESS_DEFAULT ? AW_LG_OWN_SWAPPINESS : ev->swappiness;
	aw_lg_age_cmd(cmd, sizeof(cmd), x->opt.kver, id, ev->node, before.max_seq, sw, ev->flags & AW_AGE_FORCE);
	aw_kprobe_collect(x, NULL);	/* the marks; what walked before this pass */
	r = write_cmd(x, cmd);
	/*
	 * A refused command is no pass, as in the model (apply_aging()): the
	 * node's aging_refused counts it and a note says so.
	 */
	if (r == -ERANGE) {
		/* run_aging(): !force_scan && min_seq + MAX_NR_GENS - 1 <= max_seq */
		x->node[ev->node].aging_refused++;
		aw_note(x, AW_NOTE_REFUSED, "aging refused (ERANGE): max_seq %" PRIu64 " already %d generations"
			" above min_seq, force 0", before.max_seq, 3);
		return 0;
	}
	if (r) {
		aw_note(x, AW_NOTE_ERROR, "'%.*s' failed: %s", (int)strlen(cmd) - 1, cmd, strerror(-r));
		return 0;
	}
	if (snapshot(x, "lru_gen_full", x->snap) || !(p = new_pass(x, ev->node)))
		return -1;
	seen_now(x, ev->memcg, ev->node, id);
	aw_kprobe_collect(x, p);
	a = aw_lg_find(x->snap, id, ev->node);
	p->event = x->ev;
	p->forced = ev->flags & AW_AGE_FORCE;
	p->seq_before = before.max_seq;
	p->seq_after = a ? a->max_seq : before.max_seq;
	p->aged = p->seq_after > p->seq_before;
	if (a)
		aw_lg_walk_delta(&before, a, p->stat);
	else
		for (int i = 0; i < AW_LG_NR; i++)
			p->stat[i] = -1;
	region_residency_after_pass(x, p->pass, ev->node);
	return 0;
}

/*
 * The lruvec's own swappiness as get_swappiness() computes it for the
 * debugfs writer (may_swap set, cgroup v2: vm_swappiness), 0 without swap.
 * Eviction needs the value itself: it picks min_seq[!swappiness].
 */
static unsigned int own_swappiness(void)
{
	int64_t swap_kb = aw_read_key("/proc/meminfo", "SwapTotal:");
	char *text;
	unsigned int sw = 60;

	if (swap_kb <= 0)
		return 0;
	if (!aw_read_file("/proc/sys/vm/swappiness", &text)) {
		sw = (unsigned int)strtoul(text, NULL, 10);
		free(text);
	}
	return sw;
}

/*
 * Reclaimed pages: the memcg's memory.stat pgsteal; without cgroup v2,
 * /proc/vmstat's pgsteal_anon + pgsteal_file (pgsteal_kswapd, _direct and
 * _khugepaged count the same pages again, by reclaimer).
 */
static int64_t pgsteal(const struct aw_exec *x, int m)
{
	char path[512];

	if (!x->cgroup2) {
		int64_t anon = aw_read_key("/proc/vmstat", "pgsteal_anon");
		int64_t file = aw_read_key("/proc/vmstat", "pgsteal_file");

		return anon < 0 || file < 0 ? -1 : anon + file;
	}
	snprintf(path, sizeof(path), "%s/m%d/memory.stat", x->opt.cg_root, m);
	return aw_read_key(path, "pgsteal");
}

/* The eviction record, its "before" half filled in; NULL without memory. */
static struct aw_xevict *new_eviction(struct aw_exec *x, const struct aw_event *ev,
				      const struct aw_lg_lruvec *b, unsigned int sw)
{
	struct aw_xnode *xn = &x->node[ev->node];
	struct aw_xevict *e = aw_grow(xn->evictions, &xn->cap_evictions, xn->nr_evictions, sizeof(*e), 16);

	if (!e)
		return NULL;
	xn->evictions = e;
	e = &xn->evictions[xn->nr_evictions++];
	*e = (struct aw_xevict){ .event = x->ev, .memcg = ev->memcg, .seq = b->min_seq[!sw],
				 .max_seq = b->max_seq, .pages = -1 };
	e->min_seq_before[0] = e->min_seq_after[0] = b->min_seq[0];
	e->min_seq_before[1] = e->min_seq_after[1] = b->min_seq[1];
	return e;
}

int aw_exec_evict(struct aw_exec *x, const struct aw_event *ev)
{
	const struct aw_lg_lruvec *b;
	struct aw_xevict *e;
	unsigned int id, sw;
	int64_t s0, s1;
	char cmd[128];
	int r;

	if ((r = lruvec_of(x, ev->memcg, ev->node, &id, &b)))
		return r < 0 ? -1 : 0;
	if (reclaim_passes(x))
		return -1;
	sw = ev->swappiness == AW_SWAPPINESS_DEFAULT ? own_swappiness() : ev->swappiness;
	/* nr 0 = until min_seq moves: the kernel's own default nr_to_reclaim, -1 */
	aw_lg_evict_cmd(cmd, sizeof(cmd), id, ev->node, b->min_seq[!sw], sw, ev->len ? ev->len : UINT64_MAX);
	if (ev->flags & AW_EVICT_DIRECT)
		aw_note(x, AW_NOTE_APPROXIMATED, "direct: debugfs eviction is its own reclaimer (no direct reclaim)");
	if (!(e = new_eviction(x, ev, b, sw)))
		return -1;
	s0 = pgsteal(x, ev->memcg);
	r = write_cmd(x, cmd);
	s1 = pgsteal(x, ev->memcg);
	e->err = r;
	if (s0 >= 0 && s1 >= s0) {
		x->node[ev->node].evicted += s1 - s0;
		x->pgsteal_cmd[ev->memcg] += s1 - s0;
		e->pages = s1 - s0;
	}
	/* b points into x->snap, which this read replaces: what came before is in e */
	switch (lruvec_of(x, ev->memcg, ev->node, &id, &b)) {
	case -1:
		return -1;
	case 0:
		e->min_seq_after[0] = b->min_seq[0];
		e->min_seq_after[1] = b->min_seq[1];
		seen_now(x, ev->memcg, ev->node, id);
		break;
	}
	if (r == -EINVAL && e->seq + 2 > e->max_seq)
		aw_note(x, AW_NOTE_REFUSED, "eviction refused (EINVAL): min_seq %" PRIu64 " + MIN_NR_GENS > max_seq %"
			PRIu64, e->seq, e->max_seq);
	else if (r)
		aw_note(x, AW_NOTE_ERROR, "'%.*s' failed: %s", (int)strlen(cmd) - 1, cmd, strerror(-r));
	return 0;
}

/*
 * Pages reclaimed outside `evict` commands: a memcg limit's reclaim or
 * kswapd, which the model's evicted_pages counts too.  pgsteal has no node
 * (a vm event, per memcg), so the pages can be put on a node only when the
 * machine has one; otherwise every node's evicted_pages becomes null, with
 * a note saying how many pages went where no node is known.
 */
void aw_exec_reclaim_pages(struct aw_exec *x, bool end)
{
	/*
	 * MADV_PAGEOUT reclaims through reclaim_pages() -> shrink_folio_list(),
	 * and only shrink_inactive_list() / evict_folios() count PGSTEAL: the
	 * pages it swapped out are in no counter the executor can read per node.
	 */
	if (end && x->pageout) {
		for (int n = 0; n < x->sc.cfg.nr_nodes; n++)
			x->node[n].evicted = -1;
		aw_note(x, AW_NOTE_APPROXIMATED, "MADV_PAGEOUT reclaims outside pgsteal (reclaim_pages()):"
			" evicted_pages not measured");
	}
	for (int m = 0; m < x->sc.cfg.nr_memcgs && m < AW_MAX_MEMCGS; m++) {
		int64_t now = pgsteal(x, m), extra;

		if (!end) {
			x->pgsteal0[m] = now;
			continue;
		}
		if (now < 0 || x->pgsteal0[m] < 0)
			continue;
		extra = now - x->pgsteal0[m] - x->pgsteal_cmd[m];
		if (extra <= 0)
			continue;
		if (x->sc.cfg.nr_nodes == 1 && x->node[0].evicted >= 0) {
			x->node[0].evicted += extra;
			continue;
		}
		for (int n = 0; n < x->sc.cfg.nr_nodes; n++)
			x->node[n].evicted = -1;
		aw_note(x, AW_NOTE_APPROXIMATED, "memcg %d: %" PRId64 " pages reclaimed outside evict commands"
			" (its limit's reclaim or kswapd) on no node pgsteal can tell: evicted_pages not measured", m,
			extra);
	}
}

static void region_residency_after_pass(struct aw_exec *x, int pass, int node)
{
	for (int i = 0; i < x->sc.nr_regions; i++) {
		struct aw_xregion *rg = &x->region[i];
		struct aw_residency res;
		struct aw_xrpass *rp;

		if (!rg->mapped || x->w[rg->owner].fd < 0 ||
		    aw_pagemap_residency(x->w[rg->owner].pid, rg->addr, rg->len, &x->zero, &res))
			continue;
		if (!(rp = aw_grow(x->rpass, &x->cap_rpass, x->nr_rpass, sizeof(*rp), 64)))
			return;
		x->rpass = rp;
		rp = &x->rpass[x->nr_rpass++];
		*rp = (struct aw_xrpass){ .pass = pass, .node = node, .region = i,
					  .resident = res.resident, .swapped = res.swapped };
	}
}

/* The node's figure of a "KEY N0=a N1=b ..." line of memory.numa_stat; -1 if none. */
static int64_t numa_stat(const char *text, const char *key, int node)
{
	size_t kl = strlen(key);
	char want[16];

	snprintf(want, sizeof(want), " N%d=", node);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *eol = strchr(p, '\n'), *n;

		if (strncmp(p, key, kl) || p[kl] != ' ')
			continue;
		n = strstr(p, want);
		return n && (!eol || n < eol) ? strtoll(n + strlen(want), NULL, 10) : -1;
	}
	return -1;
}

/*
 * Refaults: workingset_refault_anon + workingset_refault_file of every
 * scenario memcg on node (memory.numa_stat, cgroup v2): the pages
 * lru_gen_refault() counted, those evicted recently enough for their
 * token to match (the model's workingset_refaults; its refaults counts
 * every swap-in).  Read at the start and the end of the run.
 */
int64_t aw_refaults_node(const struct aw_exec *x, int node)
{
	int64_t sum = 0;

	if (!x->cgroup2)
		return -1;
	for (int m = 0; m < x->sc.cfg.nr_memcgs; m++) {
		char path[512], *text;
		int64_t a, f;

		snprintf(path, sizeof(path), "%s/m%d/memory.numa_stat", x->opt.cg_root, m);
		if (aw_read_file(path, &text))
			return -1;
		a = numa_stat(text, "workingset_refault_anon", node);
		f = numa_stat(text, "workingset_refault_file", node);
		free(text);
		if (a < 0 || f < 0)
			return -1;
		sum += a + f;
	}
	return sum;
}
