// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ingestion's emitter (src/trace/emit.c): events reach the sink in the
 * order they were made; a recorded pass's AGE event, and everything after
 * it, waits until the pass turns out forced (the AGE then carries
 * AW_AGE_FORCE) or closes; a window of AW_ING_HOLD events bounds the wait.
 * Expected orders and flags are worked out by hand from that rule.
 */
#include "aw_test.h"
#include "ingest.h"

struct rec {
	size_t n, cap;
	struct aw_event *ev;
};

static int sink_event(void *ctx, const struct aw_event *ev)
{
	struct rec *r = ctx;

	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 1024;
		r->ev = realloc(r->ev, r->cap * sizeof(*r->ev));
		if (!r->ev)
			return -1;
	}
	r->ev[r->n++] = *ev;
	return 0;
}

struct fixture {
	struct aw_scenario sc;
	struct aw_trace_stats st;
	struct aw_trace_opts o;
	struct aw_ingest in;
	struct rec rec;
	struct aw_trace_sink sink;
};

static void setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	aw_scenario_init(&f->sc);
	aw_trace_opts_default(&f->o);
	f->in.o = &f->o;
	f->in.sc = &f->sc;
	f->in.st = &f->st;
	f->sink.event = sink_event;
	f->sink.ctx = &f->rec;
	aw_ing_emit_init(&f->in, &f->sink);
}

static void teardown(struct fixture *f)
{
	aw_ing_emit_free(&f->in);
	free(f->rec.ev);
	aw_scenario_free(&f->sc);
}

/* An event that says where it came from: TIME with len = its number. */
static void emit_time(struct fixture *f, uint64_t tag)
{
	struct aw_event ev = { .kind = AW_EV_TIME, .len = tag };

	CHECK_EQ(aw_ing_emit(&f->in, &ev), 0);
}

static void emit_age(struct fixture *f, int nid)
{
	struct aw_event ev = { .kind = AW_EV_AGE, .node = (uint16_t)nid };

	CHECK_EQ(aw_ing_emit(&f->in, &ev), 0);
}

/* Nothing held: each event goes out as it is made. */
static void test_passthrough(void)
{
	struct fixture f;

	setup(&f);
	emit_time(&f, 1);
	emit_age(&f, 0);		/* not a recorded group's: no capture */
	emit_time(&f, 2);
	CHECK_EQ(f.rec.n, 3);
	CHECK_EQ(f.rec.ev[1].kind, AW_EV_AGE);
	CHECK_EQ(f.st.events_emitted, 3);
	teardown(&f);
}

/* A forced group: its AGE and the 5 events after it wait, then go out in order, flagged. */
static void test_forced_group(void)
{
	struct fixture f;

	setup(&f);
	emit_time(&f, 1);
	aw_ing_capture_age(&f.in, 0);
	emit_time(&f, 2);		/* a re-touch before the AGE: not held */
	emit_age(&f, 0);
	for (int i = 0; i < 5; i++)
		emit_time(&f, 10 + i);
	CHECK_EQ(f.rec.n, 2);		/* 1 and 2 */
	CHECK_EQ(aw_ing_group_forced(&f.in, 0), 0);
	CHECK_EQ(f.rec.n, 8);
	CHECK_EQ(f.rec.ev[2].kind, AW_EV_AGE);
	CHECK(f.rec.ev[2].flags & AW_AGE_FORCE);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(f.rec.ev[3 + i].len, 10 + i);
	/* the group's close after that changes nothing */
	CHECK_EQ(aw_ing_group_forced(&f.in, 0), 0);
	CHECK_EQ(f.st.late_forced, 0);
	emit_time(&f, 20);
	CHECK_EQ(f.rec.n, 9);
	teardown(&f);
}

/* A normal group: released unflagged when it closes. */
static void test_normal_group(void)
{
	struct fixture f;

	setup(&f);
	aw_ing_capture_age(&f.in, 1);
	emit_age(&f, 1);
	emit_time(&f, 1);
	CHECK_EQ(f.rec.n, 0);
	CHECK_EQ(aw_ing_group_done(&f.in, 1), 0);
	CHECK_EQ(f.rec.n, 2);
	CHECK(!(f.rec.ev[0].flags & AW_AGE_FORCE));
	teardown(&f);
}

/*
 * Two nodes: node 1's group opens after node 0's; closing node 1 first
 * releases nothing (node 0's AGE is older), closing node 0 releases all.
 */
static void test_two_nodes(void)
{
	struct fixture f;

	setup(&f);
	aw_ing_capture_age(&f.in, 0);
	emit_age(&f, 0);
	emit_time(&f, 1);
	aw_ing_capture_age(&f.in, 1);
	emit_age(&f, 1);
	emit_time(&f, 2);
	CHECK_EQ(aw_ing_group_forced(&f.in, 1), 0);
	CHECK_EQ(f.rec.n, 0);
	CHECK_EQ(aw_ing_group_done(&f.in, 0), 0);
	CHECK_EQ(f.rec.n, 4);
	CHECK(!(f.rec.ev[0].flags & AW_AGE_FORCE));	/* node 0: closed normal */
	CHECK(f.rec.ev[2].flags & AW_AGE_FORCE);	/* node 1: forced */
	CHECK_EQ(f.rec.ev[3].len, 2);
	teardown(&f);
}

/*
 * The window: the AGE and AW_ING_HOLD - 1 events fill the ring; the next
 * event pushes the AGE out unflagged; the group proving forced later is
 * counted as replayed non-forced, and everything still comes out in order.
 */
static void test_window_spill(void)
{
	struct fixture f;

	setup(&f);
	aw_ing_capture_age(&f.in, 0);
	emit_age(&f, 0);
	for (uint64_t i = 1; i < AW_ING_HOLD; i++)
		emit_time(&f, i);
	CHECK_EQ(f.rec.n, 0);
	emit_time(&f, AW_ING_HOLD);
	CHECK_EQ(f.rec.n, AW_ING_HOLD + 1);	/* the AGE left, and with no hold left, the rest */
	CHECK_EQ(f.rec.ev[0].kind, AW_EV_AGE);
	CHECK(!(f.rec.ev[0].flags & AW_AGE_FORCE));
	CHECK_EQ(aw_ing_group_forced(&f.in, 0), 0);
	CHECK_EQ(f.st.late_forced, 1);
	CHECK_EQ(aw_ing_group_forced(&f.in, 0), 0);	/* counted once */
	CHECK_EQ(f.st.late_forced, 1);
	for (size_t i = 1; i < f.rec.n; i++)
		CHECK_EQ(f.rec.ev[i].len, i);
	teardown(&f);
}

/* Without a sink the events land in the scenario's array, held the same way. */
static void test_into_scenario(void)
{
	struct fixture f;

	setup(&f);
	aw_ing_emit_init(&f.in, NULL);
	aw_ing_capture_age(&f.in, 0);
	emit_age(&f, 0);
	emit_time(&f, 1);
	CHECK_EQ(f.sc.nr_events, 0);
	CHECK_EQ(aw_ing_emit_finish(&f.in), 0);
	CHECK_EQ(f.sc.nr_events, 2);
	CHECK(!(f.sc.events[0].flags & AW_AGE_FORCE));
	teardown(&f);
}

int main(void)
{
	RUN(test_passthrough);
	RUN(test_forced_group);
	RUN(test_normal_group);
	RUN(test_two_nodes);
	RUN(test_window_spill);
	RUN(test_into_scenario);
	return aw_test_report("test_emit");
}
