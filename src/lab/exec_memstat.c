// SPDX-License-Identifier: GPL-2.0-only
/*
 * A memcg limit's reclaim, event by event.  When a scenario limits a memcg
 * (a `memcg M limit` header or a `limit` line), its reclaim runs inside
 * whichever event charged past the limit (try_charge_memcg() ->
 * try_to_free_mem_cgroup_pages()), not at an `age` or `evict` line.  After
 * each event of such a scenario the executor therefore reads lru_gen_full
 * (so that a pass the reclaim ran is recorded with the event inside which
 * it ran: exec_aging.c) and each limited memcg's memory.stat, keeping the
 * differences of the counters below as one record per event and memcg
 * that moved: what the reclaim scanned and took, and the refaults that
 * followed, where they happened.  `agewalk compare` pairs passes by that
 * event; the records are the figures docs/validation.md reads 6.1's and
 * 6.12's reclaim from.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

/* memory.stat keys (memcontrol.c memory_stats[] and memcg_vm_event_stat[]) */
static const char *const memstat_keys[AW_MS_NR] = {
	[AW_MS_PGSCAN] = "pgscan", [AW_MS_PGSTEAL] = "pgsteal",
	[AW_MS_REFAULT_ANON] = "workingset_refault_anon", [AW_MS_REFAULT_FILE] = "workingset_refault_file",
	[AW_MS_ACTIVATE_ANON] = "workingset_activate_anon", [AW_MS_ACTIVATE_FILE] = "workingset_activate_file",
	[AW_MS_PGMAJFAULT] = "pgmajfault", [AW_MS_PGREFILL] = "pgrefill",
	[AW_MS_PGACTIVATE] = "pgactivate", [AW_MS_PGDEACTIVATE] = "pgdeactivate",
};

/*
 * The generations of memcg m's lruvecs in the executor's last lru_gen_full
 * read (aw_exec_reclaim_passes() reads it after every event of a limited
 * scenario, before this record): which generation the limit's reclaim
 * left each page count in.
 */
static void record_gens(const struct aw_exec *x, int m, struct aw_xmemstat *r)
{
	r->nr_gens = 0;
	if (!x->memcg_known[m])
		return;
	for (int n = 0; n < x->sc.cfg.nr_nodes && n < AW_MAX_NODES; n++) {
		const struct aw_lg_lruvec *v = aw_lg_find(x->snap, x->memcg_id[m], n);

		for (int g = 0; v && g < v->nr_sizes && r->nr_gens < AW_XMS_GENS; g++) {
			uint64_t *e = r->gen[r->nr_gens++];

			e[0] = (uint64_t)n;
			e[1] = v->size_seq[g];
			e[2] = v->size[g][0];
			e[3] = v->size[g][1];
		}
	}
}

const char *aw_memstat_key(int i)
{
	return i >= 0 && i < AW_MS_NR ? memstat_keys[i] : "?";
}

bool aw_exec_limited(const struct aw_exec *x)
{
	for (int m = 1; m < x->sc.cfg.nr_memcgs && m < AW_MAX_MEMCGS; m++)
		if (x->sc.cfg.memcg_limit[m])
			return true;
	for (size_t i = 0; i < x->sc.nr_events; i++)
		if (x->sc.events[i].kind == AW_EV_MEMCG_LIMIT && x->sc.events[i].len)
			return true;
	return false;
}

/* memory.stat of memcg m, the keys above; false when it cannot be read */
static bool memstat_read(const struct aw_exec *x, int m, int64_t v[AW_MS_NR])
{
	char path[512], *text;

	snprintf(path, sizeof(path), "%s/m%d/memory.stat", x->opt.cg_root, m);
	if (aw_read_file(path, &text))
		return false;
	for (int i = 0; i < AW_MS_NR; i++) {
		size_t kl = strlen(memstat_keys[i]);

		v[i] = -1;
		for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
			if (!strncmp(p, memstat_keys[i], kl) && p[kl] == ' ') {
				v[i] = strtoll(p + kl + 1, NULL, 10);
				break;
			}
	}
	free(text);
	return true;
}

/*
 * After event x->ev (or, x->ev < 0, before the first): a record for each
 * memcg whose counters moved since the last read.  Memory for the records
 * running out only ends the records (a note), never the run.
 */
void aw_exec_memstat(struct aw_exec *x)
{
	if (!x->cgroup2 || !x->limited)
		return;
	for (int m = 1; m < x->sc.cfg.nr_memcgs && m < AW_MAX_MEMCGS; m++) {
		int64_t now[AW_MS_NR];
		struct aw_xmemstat *r;
		bool moved = false;

		if (!memstat_read(x, m, now))
			continue;
		for (int i = 0; x->ev >= 0 && i < AW_MS_NR; i++)
			moved |= now[i] >= 0 && x->memstat_last[m][i] >= 0 && now[i] != x->memstat_last[m][i];
		if (moved) {
			r = aw_grow(x->memstat, &x->cap_memstat, x->nr_memstat, sizeof(*r), 64);
			if (!r) {
				aw_note(x, AW_NOTE_ERROR, "out of memory for the per-event memory.stat records");
				x->limited = false;
				return;
			}
			x->memstat = r;
			r = &x->memstat[x->nr_memstat++];
			r->event = x->ev;
			r->memcg = m;
			for (int i = 0; i < AW_MS_NR; i++)
				r->delta[i] = now[i] >= 0 && x->memstat_last[m][i] >= 0 ?
					      now[i] - x->memstat_last[m][i] : -1;
			record_gens(x, m, r);
		}
		memcpy(x->memstat_last[m], now, sizeof(now));
	}
}
