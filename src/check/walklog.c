// SPDX-License-Identifier: GPL-2.0-only
/*
 * The walk log as an observer (walklog.h).  It reads only what the facts
 * carry -- the walk, its lruvec and stats, the mm -- and the pass figures
 * the machine keeps for the report.
 */
#include <errno.h>
#include <stdlib.h>

#include "kernel.h"
#include "walklog.h"

struct aw_walk_log {
	FILE *out;
	const char *variant;	/* the name each line carries */
};

static void log_line(struct aw_kernel *k, struct lru_gen_mm_walk *walk, struct mm_struct *mm,
		     const char *what, const char *why)
{
	const struct aw_pass *p;

	if (walk->pass_idx < 0)
		return;
	p = &k->node_stats[walk->lruvec->nid].passes[walk->pass_idx];
	fprintf(k->walk_log->out, "walk variant=%s pass=%d node=%d memcg=%d seq=%lu mm=%u mm_addr=0x%llx %s%s%s\n",
		k->walk_log->variant, p->pass, walk->lruvec->nid, walk->lruvec->memcg, walk->seq, mm->id,
		(unsigned long long)mm->kaddr, what, why ? " why=" : "", why ? why : "");
}

static void probe_get_next_mm(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			      struct mm_struct *mm, enum aw_mm_skip why)
{
	static const char *const reason[] = {
		[AW_MM_SKIP_BITMAP] = "bitmap",
		[AW_MM_SKIP_EXITING] = "exiting",
		[AW_MM_SKIP_EMPTY] = "empty",
		[AW_MM_SKIP_SMALL] = "small",
	};

	/* AW_MM_HANDED: the decision follows, as TAKEN or SKIP_EMPTY */
	if (why != AW_MM_TAKEN && why != AW_MM_HANDED)
		log_line(k, walk, mm, "skipped", reason[why]);
}

static void probe_walk_end(void *data, struct aw_kernel *k, struct lru_gen_mm_walk *walk,
			   struct mm_struct *mm, int err)
{
	char buf[160];

	if (err == -EBUSY) {
		log_line(k, walk, mm, "skipped", "trylock");
		return;
	}
	if (err) {
		log_line(k, walk, mm, "skipped", "seq");
		return;
	}
	snprintf(buf, sizeof(buf), "%s T=%lu Y=%lu A=%lu P=%lu S=%lu", walk->force_scan ? "forced" : "walked",
		 walk->mm_stats[MM_LEAF_TOTAL], walk->mm_stats[MM_LEAF_YOUNG],
		 walk->mm_stats[MM_LEAF_ASSOCIATED], walk->aw_stats[AW_WS_PMD_READ],
		 walk->mm_stats[MM_PUD_EMPTY_SKIPPED]);
	log_line(k, walk, mm, buf, NULL);
}

static void probe_kernel_destroy(void *data, struct aw_kernel *k)
{
	aw_walk_log_detach(k);
}

void aw_walk_log_detach(struct aw_kernel *k)
{
	if (!k->walk_log)
		return;
	(void)unregister_trace_lru_gen_get_next_mm(k, probe_get_next_mm, NULL);
	(void)unregister_trace_mm_vmscan_lru_gen_walk(k, probe_walk_end, NULL);
	(void)unregister_trace_aw_kernel_destroy(k, probe_kernel_destroy, NULL);
	free(k->walk_log);
	k->walk_log = NULL;
}

int aw_walk_log_attach(struct aw_kernel *k, FILE *out, const char *variant)
{
	if (k->walk_log)
		return -1;
	k->walk_log = calloc(1, sizeof(*k->walk_log));
	if (!k->walk_log)
		return -1;
	k->walk_log->out = out;
	k->walk_log->variant = variant;
	if (register_trace_lru_gen_get_next_mm(k, probe_get_next_mm, NULL) ||
	    register_trace_mm_vmscan_lru_gen_walk(k, probe_walk_end, NULL) ||
	    register_trace_aw_kernel_destroy(k, probe_kernel_destroy, NULL)) {
		aw_walk_log_detach(k);
		return -1;
	}
	return 0;
}
