// SPDX-License-Identifier: GPL-2.0-only
/*
 * Emitting converted events, in order, to the ingestion's sink (a running
 * lockstep engine, a stream file) or into the scenario's array.
 *
 * One decision needs look-ahead.  vmscan:mm_vmscan_lru_gen_walk carries no
 * force flag: a recorded pass was forced when its (nid, seq) group has
 * more walks than processes that ran since the node's previous pass
 * (aw_lru_gen_close_group() in ev_vmscan.c), and that is known only after the AGE
 * event the group became.  So from a group's AGE event on, the stream is
 * held in a ring of AW_ING_HOLD events until the group turns out forced
 * (its AGE is flagged then) or closes.  The kernel emits a pass's walks
 * back to back, so the window is rarely more than a few thousand events;
 * if it fills, the oldest event goes out as it stands, and a group whose
 * AGE left that way and later proved forced was replayed non-forced
 * (counted: st->late_forced, and the report says so).  Memory stays
 * fixed: the ring, whatever the trace's length.
 */
#include <stdlib.h>
#include <string.h>

#include "ingest.h"

#define AW_ING_NO_HOLD	UINT64_MAX

void aw_ing_emit_init(struct aw_ingest *in, const struct aw_trace_sink *sink)
{
	in->sink = sink;
	in->capture_node = -1;
	for (int n = 0; n < AW_MAX_NODES; n++)
		in->group_at[n] = AW_ING_NO_HOLD;
}

static int deliver(struct aw_ingest *in, const struct aw_event *ev)
{
	if (in->sink)
		return in->sink->event(in->sink->ctx, ev);
	if (in->sc->nr_events >= 50000000)
		return -1;	/* in memory, a stream this long would not fit comfortably; stop */
	return aw_scenario_push(in->sc, ev, 0);
}

static uint64_t first_hold(const struct aw_ingest *in)
{
	uint64_t at = AW_ING_NO_HOLD;

	for (int n = 0; n < AW_MAX_NODES; n++)
		at = in->group_at[n] < at ? in->group_at[n] : at;
	return at;
}

/* Everything before the first held AGE event goes out. */
static int flush(struct aw_ingest *in)
{
	uint64_t until = first_hold(in);

	while (in->hold_n && in->hold_head < until) {
		if (deliver(in, &in->hold[in->hold_head & (AW_ING_HOLD - 1)]))
			return -1;
		in->hold_head++;
		in->hold_n--;
	}
	return 0;
}

/* The ring is full: the oldest event leaves as it stands. */
static int spill(struct aw_ingest *in)
{
	for (int n = 0; n < AW_MAX_NODES; n++)
		if (in->group_at[n] == in->hold_head) {
			in->group_at[n] = AW_ING_NO_HOLD;
			in->group_spilled[n] = true;
		}
	if (deliver(in, &in->hold[in->hold_head & (AW_ING_HOLD - 1)]))
		return -1;
	in->hold_head++;
	in->hold_n--;
	return flush(in);
}

int aw_ing_emit(struct aw_ingest *in, const struct aw_event *ev)
{
	uint64_t abs;

	if (aw_ing_filtered_out(in, ev)) {
		in->st->events_filtered++;
		return 0;
	}
	abs = in->st->events_emitted++;

	if (in->capture_node >= 0 && ev->kind == AW_EV_AGE) {
		in->group_at[in->capture_node] = abs;	/* a recorded group's AGE: held */
		in->group_spilled[in->capture_node] = false;
		in->capture_node = -1;
	}
	if (in->hold_n == AW_ING_HOLD && spill(in))
		return -1;
	if (!in->hold_n && first_hold(in) != abs)
		return deliver(in, ev);
	if (!in->hold && !(in->hold = malloc(AW_ING_HOLD * sizeof(*in->hold))))
		return -1;
	if (!in->hold_n)
		in->hold_head = abs;
	in->hold[(in->hold_head + in->hold_n) & (AW_ING_HOLD - 1)] = *ev;
	in->hold_n++;
	return 0;
}

void aw_ing_capture_age(struct aw_ingest *in, int nid)
{
	in->capture_node = nid;
}

int aw_ing_group_forced(struct aw_ingest *in, int nid)
{
	if (in->group_at[nid] == AW_ING_NO_HOLD) {
		/* its AGE left the window before the group showed it was forced */
		if (in->group_spilled[nid]) {
			in->st->late_forced++;
			in->group_spilled[nid] = false;
		}
		return 0;
	}
	in->hold[in->group_at[nid] & (AW_ING_HOLD - 1)].flags |= AW_AGE_FORCE;
	return aw_ing_group_done(in, nid);
}

int aw_ing_group_done(struct aw_ingest *in, int nid)
{
	in->group_at[nid] = AW_ING_NO_HOLD;
	return flush(in);
}

int aw_ing_emit_finish(struct aw_ingest *in)
{
	for (int n = 0; n < AW_MAX_NODES; n++)
		in->group_at[n] = AW_ING_NO_HOLD;
	return flush(in);
}

void aw_ing_emit_free(struct aw_ingest *in)
{
	free(in->hold);
	in->hold = NULL;
}
