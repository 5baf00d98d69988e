/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws lines of reclaim and the machine's own activity: age,
 * age_begin, age_step, age_end and evict (their options checked against
 * aw_reclaim_allowed[]), khugepaged wake-ups and knob stores, lock
 * contention, time and samples.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Reclaim, khugepaged, contention, time, samples                     */
/* ------------------------------------------------------------------ */

/*
 * The options of age, age_begin, age_step, age_end and evict, in any order;
 * `allowed` is the bit set of AW_RO_* the keyword takes.  node is required
 * by all of them.
 */
static int aw_reclaim_opts(struct aw_parser *p, struct aw_event *ev, unsigned int allowed)
{
	static const char *const opts[] = {	/* indexed by AW_RO_* */
		"node", "memcg", "force", "swappiness", "nr", "direct", "lost", NULL
	};
	const struct aw_tok *t;
	unsigned int seen = 0;
	uint64_t v;
	int i, r = 0;

	while (!r && (t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (!(allowed & (1u << i)))
			return aw_unexpected(p, t);
		switch (i) {
		case AW_RO_NODE: r = aw_need_node(p, &ev->node); break;
		case AW_RO_MEMCG: r = aw_need_memcg(p, &ev->memcg); break;
		case AW_RO_FORCE:
			r = aw_need_int(p, "force", 0, 1, &v);
			ev->flags |= !r && v ? AW_AGE_FORCE : 0;
			break;
		case AW_RO_SWAPPINESS:
			r = aw_need_int(p, "swappiness", 0, AW_SWAPPINESS_MAX, &v);
			ev->swappiness = r ? 0 : (uint16_t)v;
			break;
		case AW_RO_NR: r = aw_need_num(p, "a page count", true, &ev->len, &t); break;
		case AW_RO_DIRECT: ev->flags |= AW_EVICT_DIRECT; break;
		case AW_RO_LOST: ev->flags |= AW_AGE_LOST; break;	/* a replayed trace's mark */
		}
	}
	if (r)
		return -1;
	if (!(seen & AW_RO(NODE)))
		return aw_fail(p, p->line, p->kw->col, "%s needs 'node N'", AW_Q(p->kw));
	/* The kernel's debugfs interface silently forces a scan when unsaid. */
	if ((allowed & AW_RO(FORCE)) && !(seen & AW_RO(FORCE)))
		return aw_fail(p, p->line, p->kw->col,
			       "%s needs 'force 0' or 'force 1' (debugfs defaults force_scan to 1)",
			       AW_Q(p->kw));
	return 0;
}

int aw_h_reclaim(struct aw_parser *p)
{
	unsigned int allowed = aw_reclaim_allowed[p->kind];
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (allowed & AW_RO(SWAPPINESS))
		ev.swappiness = AW_SWAPPINESS_DEFAULT;
	if (aw_reclaim_opts(p, &ev, allowed))
		return -1;
	return aw_emit(p, &ev);
}

/* khugepaged set KNOB VALUE: a sysfs store, range-checked by the model */
static int aw_kh_set(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "pages_to_scan|max_ptes_none|max_ptes_swap|max_ptes_shared", &t))
		return -1;
	i = aw_lookup(t, aw_kh_knob_names, AW_KH_KNOB_NR);
	if (i <= 0)
		return aw_fail(p, p->line, t->col,
			       "expected pages_to_scan, max_ptes_none, max_ptes_swap or max_ptes_shared, not '%s'",
			       AW_Q(t));
	ev->arg = (uint32_t)i;
	if (aw_need_num(p, "a value", false, &ev->len, &t))
		return -1;
	return aw_done(p) ? -1 : aw_emit(p, ev);
}

/* khugepaged [pages N] [times N | full N] | khugepaged set KNOB VALUE */
int aw_h_khugepaged(struct aw_parser *p)
{
	static const char *const opts[] = { "pages", "times", "full", "set", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	uint64_t v;
	int i;

	aw_ev_init(&ev, AW_EV_KHUGEPAGED);
	while ((t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (i == 3) {
			if (seen != 1u << 3)
				return aw_unexpected(p, t);
			return aw_kh_set(p, &ev);
		}
		if (i == 0) {
			if (aw_need_num(p, "a page count", true, &ev.len, &t))
				return -1;
			if (!ev.len || ev.len > UINT32_MAX)
				return aw_fail(p, p->line, t->col, "pages must be 1..4294967295, not %s", AW_Q(t));
			continue;
		}
		if ((seen & 6) == 6)
			return aw_fail(p, p->line, t->col, "'times' and 'full' exclude each other");
		if (aw_need_int(p, i == 1 ? "times" : "full", 1, AW_KH_MAX_WAKEUPS, &v))
			return -1;
		/*
		 * One wake-up is repeat 0, as without `times`: the writer prints
		 * both as a plain `khugepaged` (src/event/fuzzin.c agrees).
		 */
		ev.repeat = i == 1 && v == 1 ? 0 : (uint32_t)v;
		ev.flags |= i == 2 ? AW_KH_FULL : 0;
	}
	return aw_emit(p, &ev);
}

int aw_h_contend(struct aw_parser *p)
{
	struct aw_event ev;
	int i;

	aw_ev_init(&ev, AW_EV_CONTEND);
	if (aw_need_proc(p, &ev.pid) || aw_need_keyword(p, "mmap or ptl", aw_lock_names, AW_LOCK_NR, &i))
		return -1;
	ev.arg = (uint32_t)i;
	if (aw_need_keyword(p, "on or off", aw_onoff_names, 2, &i))
		return -1;
	ev.flags = i ? AW_CONTEND_ON : 0;
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

int aw_h_time(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	int r;

	aw_ev_init(&ev, AW_EV_TIME);
	if (aw_need(p, "a duration like +500ms", &t))
		return -1;
	r = aw_parse_duration(t->s, (size_t)t->len, &ev.len);
	if (r == -2)
		return aw_fail(p, p->line, t->col, "duration '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col,
			       "bad duration '%s' (like +500ms; units ns, us, ms, s)", AW_Q(t));
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

int aw_h_sample(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	uint32_t id;

	aw_ev_init(&ev, AW_EV_SAMPLE);
	if (aw_need(p, "a region name", &t) || aw_region(p, t, &id) || aw_done(p))
		return -1;
	ev.region = (uint16_t)id;
	return aw_emit(p, &ev);
}
