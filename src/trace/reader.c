// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a trace.dat with libtracecmd/libtraceevent, in the manner of
 * trace-cmd's trace-mem.c: the event table's ids and fields (tev.h) are
 * resolved by name once per buffer, records are dispatched by event id in
 * time order across CPUs and files (source.c) to the table's handlers,
 * and every value is read at its recorded width (tep_read_number_field),
 * so 32-bit recordings work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reader.h"

/* Count a record not replayed under name; its slot in the list, -2 when the list is full. */
int aw_trace_skipped(struct aw_trace_stats *st, const char *name)
{
	for (int i = 0; i < st->nr_skipped; i++) {
		if (!strcmp(st->skipped[i].name, name)) {
			st->skipped[i].count++;
			return i;
		}
	}
	if (st->nr_skipped < AW_TRACE_MAX_SKIPPED) {
		snprintf(st->skipped[st->nr_skipped].name, sizeof(st->skipped[0].name), "%s", name);
		st->skipped[st->nr_skipped].count = 1;
		return st->nr_skipped++;
	}
	return -2;
}

/* The symbols of the first __print_symbolic(REC->field, ...) in the event's print fmt. */
static const struct tep_print_arg *find_symbolic(const struct tep_print_arg *a, const char *field, int depth)
{
	for (; a && depth < 8; a = a->next) {
		const struct tep_print_arg *f;

		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			for (f = a->symbol.field; f && f->type == TEP_PRINT_TYPE; f = f->typecast.item)
				;
			if (f && f->type == TEP_PRINT_FIELD && f->field.name && !strcmp(f->field.name, field))
				return a;
			break;
		case TEP_PRINT_TYPE:
			if ((f = find_symbolic(a->typecast.item, field, depth + 1)))
				return f;
			break;
		default:
			break;
		}
	}
	return NULL;
}

/* The names the print fmt gives the values of the row's symbolic field (struct aw_tsyms). */
static void resolve_syms(struct aw_tres *res, int t, const char *field)
{
	struct aw_tsyms *syms = &res->syms[t];
	struct tep_event *ev;
	const struct tep_print_arg *a;

	syms->nr = 0;
	if (res->id[t] < 0 || !(ev = tep_find_event(res->tep, res->id[t])))
		return;
	a = find_symbolic(ev->print_fmt.args, field, 0);
	for (const struct tep_print_flag_sym *s = a ? a->symbol.symbols : NULL; s && syms->nr < AW_TEV_MAX_SYMS;
	     s = s->next) {
		char *end;
		long long v;

		if (!s->value || !s->str)
			continue;
		v = strtoll(s->value, &end, 0);
		if (end == s->value || *end)
			continue;	/* an enum name the kernel did not export as a number */
		syms->e[syms->nr].value = v;
		syms->e[syms->nr++].str = s->str;
	}
}

#define AW_TRES_MAX_ID	65535	/* ids above are looked up the slow way */
_Static_assert(AW_TEV_NR <= INT8_MAX, "aw_tres.tev_of holds a row index in an int8_t");

static void tres_free(struct aw_tres *res)
{
	if (!res)
		return;
	free(res->tev_of);
	free(res->skip_slot);
	free(res);
}

/* What the file knows goes into the stats (any buffer of any file). */
static void note_known(struct aw_trace_stats *st, const struct aw_tres *res)
{
	st->had_aging_events |= res->id[AW_TEV_LRU_GEN_WALK] >= 0;
	st->kh.has_scan_pmd |= res->id[AW_TEV_KH_SCAN_PMD] >= 0;
	st->kh.has_collapse |= res->id[AW_TEV_KH_COLLAPSE] >= 0;
	st->kh.has_swapin |= res->id[AW_TEV_KH_SWAPIN] >= 0;
	st->kh.has_scan |= res->id[AW_TEV_KH_SCAN] >= 0;
}

/* A field's place for aw_tf() (tev.h): width 0 where tep_read_number_field() would refuse it. */
static void field_place(const struct tep_format_field *f, uint32_t *off, uint8_t *size)
{
	*off = f ? (uint32_t)f->offset : 0;
	*size = f && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) ? (uint8_t)f->size : 0;
}

/*
 * The common type and pid, read here for every record instead of by
 * tep_data_type() and tep_data_pid().  Those take them from the file's
 * first event; the formats of events outside agewalk's table are parsed
 * without their common fields in a file of the host's byte order
 * (source.c), so they are taken from the first event that has them (an
 * event of the table or of the ftrace system: the kernel lays the common
 * fields out alike in every event).  Not native when none has them, or
 * the byte order is foreign: libtraceevent then reads.
 */
static void resolve_native(struct aw_tres *res, struct tep_handle *tep)
{
	const struct tep_format_field *type = NULL, *pid = NULL;
	int n = tep_get_events_count(tep);

	for (int i = 0; i < n && !(type && pid); i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		type = ev ? tep_find_common_field(ev, "common_type") : NULL;
		pid = ev ? tep_find_common_field(ev, "common_pid") : NULL;
	}
	res->native = type && pid && tep_is_file_bigendian(tep) == tep_is_local_bigendian(tep);
	field_place(type, &res->type_off, &res->type_size);
	field_place(pid, &res->pid_off, &res->pid_size);
	res->native = res->native && res->type_size && res->pid_size;
}

/*
 * A buffer's format, resolved by name once: each row's event id, fields
 * and symbol table, and the id -> row table that makes each record one
 * lookup.
 */
static struct aw_tres *resolve(struct aw_reader *r, struct tep_handle *tep, struct aw_tres *res)
{
	int nr_events = tep_get_events_count(tep);

	if (!res && !(res = calloc(1, sizeof(*res))))
		return NULL;
	free(res->tev_of);
	free(res->skip_slot);
	memset(res, 0, sizeof(*res));
	res->tep = tep;
	for (int i = 0; i < nr_events; i++) {
		const struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id > res->max_id && ev->id <= AW_TRES_MAX_ID)
			res->max_id = ev->id;
	}
	res->tev_of = malloc(res->max_id + 1);
	res->skip_slot = malloc((res->max_id + 1) * sizeof(*res->skip_slot));
	if (!res->tev_of || !res->skip_slot) {
		tres_free(res);
		return NULL;
	}
	memset(res->tev_of, -1, res->max_id + 1);
	for (int i = 0; i <= res->max_id; i++)
		res->skip_slot[i] = -1;
	for (int t = 0; t < AW_TEV_NR; t++) {
		const struct aw_tev_desc *d = &aw_tev_table[t];
		struct tep_event *ev = tep_find_event_by_name(tep, d->system, d->event);

		res->id[t] = ev ? ev->id : -1;
		if (ev && ev->id >= 0 && ev->id <= res->max_id)
			res->tev_of[ev->id] = (int8_t)t;
		for (int i = 0; ev && i < AW_TEV_MAX_FIELDS && d->fields[i]; i++) {
			res->field[t][i] = tep_find_field(ev, d->fields[i]);
			field_place(res->field[t][i], &res->off[t][i], &res->size[t][i]);
		}
		if (d->symbolic)
			resolve_syms(res, t, d->symbolic);
	}
	resolve_native(res, tep);
	note_known(r->in.st, res);
	return res;
}

static int lookup(const struct aw_tres *res, int id)
{
	if (id >= 0 && id <= res->max_id)
		return res->tev_of[id];
	for (int t = 0; t < AW_TEV_NR; t++)
		if (res->id[t] == id)
			return t;
	return -1;
}

/* A record of an event agewalk does not replay: counted under its name, the name found once per id. */
static void skip_event(struct aw_reader *r, int id)
{
	struct aw_trace_stats *st = r->in.st;
	struct tep_event *ev;
	int slot;

	if (id >= 0 && id <= r->res->max_id && r->res->skip_slot[id] >= 0) {
		st->skipped[r->res->skip_slot[id]].count++;
		return;
	}
	ev = tep_find_event(r->res->tep, id);
	slot = aw_trace_skipped(st, ev ? ev->name : "unknown");
	if (id >= 0 && id <= r->res->max_id && slot >= 0)
		r->res->skip_slot[id] = (int16_t)slot;
}

/* The record's row: its handler, with the record's task and CPU. */
static int dispatch(struct aw_reader *r, enum aw_tev t, struct tep_record *rec)
{
	struct aw_tctx c = {
		.in = &r->in, .res = r->res, .rec = rec, .t = t, .tid = (uint32_t)r->in.cur_pid,
		.cpu = rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0,
	};

	return aw_tev_table[t].handler ? aw_tev_table[t].handler(&c) : 0;
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* percent of the file, events/s, ETA: on a terminal only (--progress) */
static void progress(struct aw_reader *r, struct tep_record *rec, const struct aw_tbuf *buf)
{
	double now, frac, rate;

	if (!r->in.o->progress || r->in.st->events_read < r->progress_at)
		return;
	if (!r->started)
		r->started = wall();
	r->progress_at = r->in.st->events_read + 100000;
	now = wall() - r->started;
	frac = aw_tsource_progress(&r->src, rec, buf);
	rate = now > 0 ? r->in.st->events_read / now : 0;
	fprintf(stderr, "\ragewalk replay: %5.1f%%  %llu events  %.0f events/s  ETA %.0f s   ",
		100.0 * frac, (unsigned long long)r->in.st->events_read, rate,
		frac > 0.01 ? now * (1 - frac) / frac : 0.0);
}

/*
 * Events were lost on rec's CPU before rec (the ring buffer overran): a
 * count, or -1 when the buffer could not say.  The place is kept for the
 * report, and every node's next pass is marked as resting on a gap.
 */
static void note_lost(struct aw_ingest *in, const struct tep_record *rec)
{
	struct aw_trace_stats *st = in->st;
	int cpu = rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0;

	if (rec->missed_events > 0)
		st->lost_events += (uint64_t)rec->missed_events;
	if (st->nr_lost < AW_TRACE_MAX_LOST) {
		struct aw_lost_range *l = &st->lost[st->nr_lost++];

		l->cpu = rec->cpu;
		l->from_ns = in->cpu_last_ts[cpu];
		l->to_ns = in->now;
		l->events = rec->missed_events > 0 ? rec->missed_events : -1;
	}
	st->lost_places++;
	for (int n = 0; n < AW_MAX_NODES; n++)
		in->lost_since_pass[n] = true;
}

/*
 * What the trace cannot say, synthesized as trace time passes (not before
 * --start): aging passes without the aging tracepoint, and
 * --khugepaged-every wake-ups.  Returns 0, or -1 with r->err set.
 */
static int synthesize(struct aw_reader *r)
{
	struct aw_ingest *in = &r->in;

	/*
	 * Synthesized aging: one pass per period of trace time.  An idle gap
	 * longer than 64 periods (or a corrupt timestamp) gets 64 passes, not
	 * one per period: after that many every page is as old as it gets.
	 */
	if (!in->st->had_aging_events && in->now >= in->next_age) {
		int catch_up = 0;

		while (in->now >= in->next_age && catch_up++ < 64) {
			bool force = in->o->force_every && (in->passes + 1) % in->o->force_every == 0;

			if (aw_ing_aging(in, -1, force)) {
				snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large",
					 in->o->path, (unsigned long long)in->st->events_read);
				return -1;
			}
			in->st->synthesized_passes++;
			in->next_age += in->o->age_every_ns;
		}
		if (in->now >= in->next_age)
			in->next_age = in->now - in->now % in->o->age_every_ns + in->o->age_every_ns;
	}
	/* --khugepaged-every: wake-ups every period of trace time, at most 64 for one gap */
	if (in->o->kh_every_ns && in->now >= in->next_kh) {
		uint64_t periods = (in->now - in->next_kh) / in->o->kh_every_ns + 1;

		if (periods > 64)
			periods = 64;
		if (aw_ing_khugepaged(in, (uint32_t)periods)) {
			snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large",
				 in->o->path, (unsigned long long)in->st->events_read);
			return -1;
		}
		in->st->kh.synthesized_wakeups += periods;
		/* a corrupt timestamp near the end of time: no further wake-ups, not a wrap to 0 */
		in->next_kh = in->now - in->now % in->o->kh_every_ns > UINT64_MAX - in->o->kh_every_ns ?
			      UINT64_MAX : in->now - in->now % in->o->kh_every_ns + in->o->kh_every_ns;
	}
	return 0;
}

/*
 * One record, at replay timestamp ts (the file's own, or shifted to follow
 * the previous file).  Returns 0, 1 at the end of the window, -1 on error.
 */
static int on_record(struct aw_reader *r, struct tep_record *rec, const struct aw_tbuf *buf, uint64_t ts)
{
	struct aw_ingest *in = &r->in;
	int id = r->res->native ? (int)aw_tread((const char *)rec->data + r->res->type_off, r->res->type_size) :
				  tep_data_type(r->res->tep, rec);
	int t = lookup(r->res, id);
	bool before;

	if (!in->st->events_read)
		in->st->first_ts = ts;
	/* --end: the window closes at the first record past it */
	if (in->st->window_end_ns && ts - in->st->first_ts >= in->st->window_end_ns)
		return 1;
	in->st->events_read++;
	if (ts > in->st->last_ts)
		in->st->last_ts = ts;
	in->now = ts - in->st->first_ts;
	if (rec->missed_events)
		note_lost(in, rec);
	in->cpu_last_ts[rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0] = in->now;
	before = in->now < in->st->window_start_ns;
	progress(r, rec, buf);
	if (!before && synthesize(r))
		return -1;
	if (t < 0) {
		skip_event(r, id);
		return 0;
	}
	/* before --start: who exists and what is mapped, nothing that touches or ages memory */
	if (before && !aw_tev_table[t].structural) {
		in->st->events_before_start++;
		return 0;
	}
	in->st->events_used++;
	/* a task seen for the first time is named after its saved comm, looked up then */
	in->cur_pid = r->res->native ? (int)aw_tread((const char *)rec->data + r->res->pid_off, r->res->pid_size) :
				       tep_data_pid(r->res->tep, rec);
	in->cur_comm_known = false;
	if (dispatch(r, t, rec)) {
		snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large or out of memory",
			 in->o->path, (unsigned long long)in->st->events_read);
		return -1;
	}
	return 0;
}

const char *aw_reader_comm(void *ctx, int pid)
{
	struct aw_reader *r = ctx;

	return tep_is_pid_registered(r->res->tep, pid) ? tep_data_comm_from_pid(r->res->tep, pid) : NULL;
}

int aw_reader_resolve_buf(struct aw_reader *r, struct aw_tbuf *buf)
{
	struct aw_tres *res = buf->user;

	/* after a reopen the new tep may sit where the old one was: compare generations */
	if (res && res->generation == buf->generation)
		return 0;
	res = resolve(r, buf->tep, res);
	buf->user = res;
	if (!res)
		return -1;
	res->generation = buf->generation;
	return 0;
}

/* Every record of every input, in replay order, through on_record(). */
int aw_reader_read(struct aw_reader *r)
{
	struct tep_record *rec;
	struct aw_tbuf *buf;
	uint64_t ts;
	int got, stop = 0;

	while (!stop && (got = aw_tsource_next(&r->src, &rec, &buf, &ts, r->err, r->errlen)) > 0) {
		if (aw_reader_resolve_buf(r, buf)) {
			aw_tsource_put(&r->src, rec);
			snprintf(r->err, r->errlen, "%s: out of memory", r->src.files[buf->file].path);
			return -1;
		}
		r->res = buf->user;
		stop = on_record(r, rec, buf, ts);
		aw_tsource_put(&r->src, rec);
	}
	return stop < 0 || got < 0 ? -1 : 0;
}

void aw_reader_free(struct aw_reader *r)
{
	for (int i = 0; i < r->src.nr_files; i++)
		for (int b = 0; b < AW_TSRC_MAX_BUFS; b++)
			tres_free(r->src.files[i].bufs[b].user);
}
