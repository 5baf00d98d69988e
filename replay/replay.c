// SPDX-License-Identifier: GPL-2.0-only
/*
 * A replay (replay.h): ingest a recording under stated policies, run the
 * variants in lockstep over the converted stream, report side by side.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "awpb.h"
#include "guard.h"
#include "kh_status.h"
#include "lockstep.h"
#include "memstats.h"
#include "output.h"
#include "pipeline.h"
#include "replay.h"
#include "report_html.h"
#include "tracedat.h"

static void fmt_ns(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000000000ULL == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / 1000000000ULL));
	else if (ns % 1000000ULL == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ULL));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

/* The window and the processes kept, when the command line narrowed the replay. */
static void scope_text(const struct aw_replay_opts *o, const struct aw_trace_stats *st, char *buf, size_t len)
{
	int n = 0;

	if (st->window_start_ns || st->window_end_ns) {
		n += snprintf(buf + n, len - n, " window=%.6f-", st->window_start_ns / 1e9);
		n += st->window_end_ns ? snprintf(buf + n, len - n, "%.6fs", st->window_end_ns / 1e9) :
			snprintf(buf + n, len - n, "end");
	}
	for (int i = 0; i < o->t.nr_pids && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, "%s%u", i ? "," : " keep=pid:", o->t.pids[i]);
	for (int i = 0; i < o->t.nr_comms && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "," : o->t.nr_pids ? " comm:" : " keep=comm:",
			      o->t.comms[i]);
	for (int i = 0; i < o->t.nr_cgroups && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "," : o->t.nr_pids || o->t.nr_comms ? " cgroup:" :
			      " keep=cgroup:", o->t.cgroups[i]);
}

/* The policy line every report prints: what produced these figures. */
static void policy_text(const struct aw_replay_opts *o, const struct aw_trace_stats *st, const struct aw_scenario *sc,
			char *buf, size_t len)
{
	char age[32], win[32], kh[64], khd[32];

	fmt_ns(age, sizeof(age), o->t.age_every_ns);
	fmt_ns(win, sizeof(win), o->t.window_ns);
	fmt_ns(khd, sizeof(khd), o->t.kh_every_ns ? o->t.kh_every_ns : o->t.kh_gap_ns);
	snprintf(kh, sizeof(kh), " khugepaged=%s%s%s", o->t.kh_every_ns ? "every " : "recorded (gap ", khd,
		 o->t.kh_every_ns ? "" : ")");
	snprintf(buf, len, "access=%s%s%s%s aging=%s nodes=%d (%s) swap=%lluM (%s) memory_limit=%lluM thp=%s (%s) kernel=%s%s%s%s",
		 aw_access_policy_name(o->t.access),
		 o->t.access == AW_ACCESS_RECENT_FAULTS ? " window=" : "",
		 o->t.access == AW_ACCESS_RECENT_FAULTS ? win : "",
		 st->damon_regions ? "+damon (accessed regions, resident pages)" : "",
		 st->had_aging_events ? "recorded (mm_vmscan_lru_gen_walk)" : age, sc->cfg.nr_nodes,
		 st->topology_source, (unsigned long long)(sc->cfg.swap_bytes >> 20), st->swap_source,
		 (unsigned long long)(o->t.memory_limit >> 20), aw_thp_mode_name(st->thp), st->thp_source,
		 aw_kernel_profile_name(o->model.kernel ? (enum aw_kernel_profile)(o->model.kernel - 1) : sc->cfg.kernel),
		 st->had_snapshots ? " initial-state=snapshots" : " initial-state=empty",
		 o->t.force_every ? " (every Nth pass forced)" : "", kh);
	scope_text(o, st, buf + strlen(buf), len - strlen(buf));
}

static void recorded_json(FILE *f, const struct aw_lockstep *ls, const struct aw_trace_stats *st);
static void recorded_kh_json(FILE *f, const struct aw_replay_opts *o, const struct aw_trace_stats *st);

static char *trace_json(const struct aw_replay_opts *o, const struct aw_trace_stats *st, const char *policy,
			const struct aw_lockstep *ls)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return NULL;
	fprintf(f, "\"trace\":{\"file\":\"");
	for (const char *c = o->t.path; *c; c++)
		fprintf(f, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	fprintf(f, "\",\"events_read\":%llu,\"events_used\":%llu,\"events_emitted\":%llu,"
		"\"lost_events\":%llu,\"processes\":%llu,\"duration_ns\":%llu,\"long_size\":%d,"
		"\"synthesized_passes\":%llu,\"recorded_walks\":%llu,\"implicit_vmas\":%llu,"
		"\"unreplayable_migrations\":%llu,\"damon_regions\":%llu,\"initial_state\":\"%s\","
		"\"events_skipped\":{",
		(unsigned long long)st->events_read, (unsigned long long)st->events_used,
		(unsigned long long)st->events_emitted, (unsigned long long)st->lost_events,
		(unsigned long long)st->processes, (unsigned long long)(st->last_ts - st->first_ts),
		st->long_size, (unsigned long long)st->synthesized_passes,
		(unsigned long long)st->recorded_walks, (unsigned long long)st->implicit_vmas,
		(unsigned long long)st->unreplayable_migrations, (unsigned long long)st->damon_regions,
		st->had_snapshots ? "snapshots" : "empty");
	for (int i = 0; i < st->nr_skipped; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", st->skipped[i].name,
			(unsigned long long)st->skipped[i].count);
	fputc('}', f);
	/* only when the recording lost events: the places (the first AW_TRACE_MAX_LOST) */
	if (st->lost_places) {
		fprintf(f, ",\"lost_places\":%llu,\"lost_ranges\":[", (unsigned long long)st->lost_places);
		for (int i = 0; i < st->nr_lost; i++)
			fprintf(f, "%s{\"cpu\":%d,\"from_ns\":%llu,\"to_ns\":%llu,\"events\":%lld}", i ? "," : "",
				st->lost[i].cpu, (unsigned long long)st->lost[i].from_ns,
				(unsigned long long)st->lost[i].to_ns, (long long)st->lost[i].events);
		fputc(']', f);
	}
	if (st->late_forced)
		fprintf(f, ",\"late_forced_passes\":%llu", (unsigned long long)st->late_forced);
	if (st->window_start_ns || st->window_end_ns)
		fprintf(f, ",\"window\":{\"start_ns\":%llu,\"end_ns\":%llu,\"records_before_start\":%llu}",
			(unsigned long long)st->window_start_ns, (unsigned long long)st->window_end_ns,
			(unsigned long long)st->events_before_start);
	if (o->t.nr_pids || o->t.nr_comms || o->t.nr_cgroups)
		fprintf(f, ",\"filter\":{\"events_filtered\":%llu,\"processes_entered\":%llu}",
			(unsigned long long)st->events_filtered, (unsigned long long)st->processes_entered);
	fprintf(f, "},\"policy\":\"%s\"", policy);
	recorded_json(f, ls, st);
	recorded_kh_json(f, o, st);
	fclose(f);
	return buf;
}

/*
 * The kernel's recorded passes next to the model's: the k-th recorded
 * (nid, seq) group of a node against the model's k-th pass on that node
 * (the model's sequence numbers start elsewhere).  The tracepoint has no
 * mm, memcg or force flag, so only per-pass aggregates compare.
 */
static const struct aw_pass *model_pass(const struct aw_lockstep *ls, int v, uint32_t nid, int k)
{
	const struct aw_node_stats *ns = &ls->k[v]->node_stats[nid];

	return k < ns->nr_passes ? &ns->passes[k] : NULL;
}

static void recorded_text(FILE *out, const struct aw_lockstep *ls, const struct aw_trace_stats *st)
{
	int seen[AW_MAX_NODES] = { 0 };

	if (!st->nr_recorded)
		return;
	fprintf(out, "\nrecorded aging (vmscan:mm_vmscan_lru_gen_walk) vs the model (%s), per (nid, seq):\n"
		"forced = more walks than processes that ran since the node's previous pass (inferred)\n"
		"  nid        seq forced | kernel walks T assoc empty S | model walks T assoc empty S\n",
		ls->variant[0]->name);
	for (int i = 0; i < st->nr_recorded; i++) {
		const struct aw_recorded_pass *rp = &st->recorded[i];
		const struct aw_pass *mp = rp->nid < AW_MAX_NODES ? model_pass(ls, 0, rp->nid, seen[rp->nid]++) : NULL;

		fprintf(out, "  %3u %10llu %6s | %12u %llu %llu %u %llu", rp->nid, (unsigned long long)rp->seq,
			rp->forced ? "yes" : "no", rp->walks, (unsigned long long)rp->leaf_total,
			(unsigned long long)rp->leaf_associated, rp->empty, (unsigned long long)rp->pud_skipped);
		if (mp)
			fprintf(out, " | %11lu %lu %lu %lu %lu\n", mp->walks, mp->mm_stats[MM_LEAF_TOTAL],
				mp->mm_stats[MM_LEAF_ASSOCIATED], mp->mm_stats[MM_WALK_EMPTY],
				mp->mm_stats[MM_PUD_EMPTY_SKIPPED]);
		else
			fputs(" | (no model pass)\n", out);
	}
}

static void recorded_json(FILE *f, const struct aw_lockstep *ls, const struct aw_trace_stats *st)
{
	int seen[AW_MAX_NODES] = { 0 };

	fputs(",\"recorded_passes\":[", f);
	for (int i = 0; i < st->nr_recorded; i++) {
		const struct aw_recorded_pass *rp = &st->recorded[i];
		int k = rp->nid < AW_MAX_NODES ? seen[rp->nid]++ : 0;

		fprintf(f, "%s{\"nid\":%u,\"seq\":%llu,\"forced_inferred\":%s,\"walks\":%u,\"leaf_total\":%llu,"
			"\"leaf_associated\":%llu,\"empty\":%u,\"pud_skipped\":%llu,\"model\":{",
			i ? "," : "", rp->nid, (unsigned long long)rp->seq, rp->forced ? "true" : "false",
			rp->walks, (unsigned long long)rp->leaf_total, (unsigned long long)rp->leaf_associated,
			rp->empty, (unsigned long long)rp->pud_skipped);
		for (int v = 0; v < ls->nr_variants; v++) {
			const struct aw_pass *mp = rp->nid < AW_MAX_NODES ? model_pass(ls, v, rp->nid, k) : NULL;

			fprintf(f, "%s\"%s\":", v ? "," : "", ls->variant[v]->name);
			if (mp)
				fprintf(f, "{\"walks\":%lu,\"leaf_total\":%lu,\"leaf_associated\":%lu,\"empty\":%lu,"
					"\"pud_skipped\":%lu}", mp->walks, mp->mm_stats[MM_LEAF_TOTAL],
					mp->mm_stats[MM_LEAF_ASSOCIATED], mp->mm_stats[MM_WALK_EMPTY],
					mp->mm_stats[MM_PUD_EMPTY_SKIPPED]);
			else
				fputs("null", f);
		}
		fputs("}}", f);
	}
	fputc(']', f);
}

/* ---- khugepaged: the recording's figures next to the model's ------------------------- */

static void status_json(FILE *f, const char *key, const struct aw_kh_status_count *tab, int nr)
{
	fprintf(f, ",\"%s\":{", key);
	for (int i = 0; i < nr; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", tab[i].name, (unsigned long long)tab[i].count);
	fputc('}', f);
}

static void recorded_kh_json(FILE *f, const struct aw_replay_opts *o, const struct aw_trace_stats *st)
{
	const struct aw_recorded_kh *kh = &st->kh;

	fprintf(f, ",\"recorded_khugepaged\":{\"events\":{\"mm_khugepaged_scan_pmd\":%s,"
		"\"mm_collapse_huge_page\":%s,\"mm_collapse_huge_page_swapin\":%s,\"mm_khugepaged_scan\":%s},"
		"\"pid\":%lld,\"gap_ns\":%llu,\"every_ns\":%llu,\"wakeups\":%llu,\"wakeups_emitted\":%llu,"
		"\"synthesized_wakeups\":%llu,\"scan_pmd\":%llu",
		kh->has_scan_pmd ? "true" : "false", kh->has_collapse ? "true" : "false",
		kh->has_swapin ? "true" : "false", kh->has_scan ? "true" : "false", (long long)kh->pid,
		(unsigned long long)o->t.kh_gap_ns, (unsigned long long)o->t.kh_every_ns,
		(unsigned long long)kh->wakeups, (unsigned long long)kh->wakeups_emitted,
		(unsigned long long)kh->synthesized_wakeups, (unsigned long long)kh->scan_pmd);
	status_json(f, "scan_pmd_status", kh->scan_status, kh->nr_scan_status);
	fprintf(f, ",\"collapses\":%llu,\"collapse_succeeded\":%llu,\"collapse_failed\":%llu",
		(unsigned long long)kh->collapses, (unsigned long long)kh->collapse_succeeded,
		(unsigned long long)kh->collapse_failed);
	status_json(f, "collapse_status", kh->collapse_status, kh->nr_collapse_status);
	fprintf(f, ",\"swapin\":%llu,\"swapped_in\":%llu,\"scan\":%llu,\"scan_progress\":%llu,"
		"\"scan_full_finished\":%llu,\"progress_per_wakeup\":[",
		(unsigned long long)kh->swapin, (unsigned long long)kh->swapped_in,
		(unsigned long long)kh->scan, (unsigned long long)kh->scan_progress,
		(unsigned long long)kh->scan_full);
	for (int i = 0; kh->scan && i < kh->nr_wakeup_log; i++)
		fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)kh->wakeup_progress[i]);
	fprintf(f, "],\"other_tasks\":{\"scan_pmd\":%llu,\"collapses\":%llu,\"collapse_succeeded\":%llu},"
		"\"madv_collapse_calls\":%llu}",
		(unsigned long long)kh->other_scan_pmd, (unsigned long long)kh->other_collapses,
		(unsigned long long)kh->other_collapse_succeeded, (unsigned long long)kh->madv_collapse);
}

/* The kernel's SCAN_STATUS string -> the model's enum scan_result, -1 if none (src/event/kh_status.c). */
static int kernel_status_to_model(const char *name)
{
	const char *model = aw_kh_kernel_status_result(name);

	return model ? aw_scan_result_parse(model) : -1;
}

/* The model's failed khugepaged collapses (collapse_huge_page() reached, not SCAN_SUCCEED). */
static unsigned long model_collapse_failed(const struct aw_kernel *k)
{
	unsigned long n = 0;

	for (int i = 0; i < k->kh.nr_collapses; i++)
		n += k->kh.collapses[i].wakeup && k->kh.collapses[i].result != SCAN_SUCCEED;
	return n;
}

/* One row: the recorded figure, then each variant's (metric key, or "-" if none compares). */
static void kh_row(FILE *out, const struct aw_lockstep *ls, const char *label, uint64_t recorded,
		   const char *metric)
{
	fprintf(out, "  %-30s %14llu", label, (unsigned long long)recorded);
	for (int v = 0; v < ls->nr_variants; v++) {
		bool ok = false;
		double x = 0;

		if (metric && !strcmp(metric, "collapse_failed")) {
			x = (double)model_collapse_failed(ls->k[v]);
			ok = true;
		} else if (metric && !strcmp(metric, "ranges")) {
			for (int r = 0; r < SCAN_NR; r++)
				x += (double)ls->k[v]->kh.result[r];
			ok = true;
		} else if (metric) {
			x = aw_kh_metric(ls->k[v], 0, metric, &ok);
		}
		if (ok)
			fprintf(out, " %18.0f", x);
		else
			fprintf(out, " %18s", "-");
	}
	fputc('\n', out);
}

static void recorded_kh_text(FILE *out, const struct aw_replay_opts *o, const struct aw_lockstep *ls,
			     const struct aw_trace_stats *st)
{
	const struct aw_recorded_kh *kh = &st->kh;
	char gap[32], label[64], metric[64];

	if (!kh->wakeups && !kh->synthesized_wakeups && !kh->scan_pmd && !kh->collapses && !kh->scan &&
	    !kh->swapin && !kh->other_scan_pmd && !kh->other_collapses && !kh->madv_collapse)
		return;
	fmt_ns(gap, sizeof(gap), o->t.kh_gap_ns);
	fprintf(out, "\nrecorded khugepaged (huge_memory:*) vs the model: wake-ups = records of the khugepaged "
		"thread (pid %lld)\ngrouped by a %s gap; the model %s; scan_pmd statuses are the kernel's "
		"names\n  %-30s %14s", (long long)kh->pid, gap,
		o->t.kh_every_ns ? "woke every --khugepaged-every instead" : "woke once per recorded wake-up",
		"", "recorded");
	for (int v = 0; v < ls->nr_variants; v++)
		fprintf(out, " %18s", ls->variant[v]->name);
	fputc('\n', out);
	kh_row(out, ls, "wake-ups", kh->wakeups + kh->synthesized_wakeups, "kh_wakeups");
	if (kh->synthesized_wakeups)
		kh_row(out, ls, "  of which synthesized", kh->synthesized_wakeups, NULL);
	kh_row(out, ls, "scan_pmd records (ranges)", kh->scan_pmd, "ranges");
	for (int i = 0; i < kh->nr_scan_status; i++) {
		int m = kernel_status_to_model(kh->scan_status[i].name);

		snprintf(label, sizeof(label), "  %s", kh->scan_status[i].name);
		snprintf(metric, sizeof(metric), "kh_result_%s", m >= 0 ? aw_scan_result_name(m) : "");
		kh_row(out, ls, label, kh->scan_status[i].count, m >= 0 ? metric : NULL);
	}
	kh_row(out, ls, "collapses succeeded", kh->collapse_succeeded, "kh_collapsed");
	kh_row(out, ls, "collapses failed", kh->collapse_failed, "collapse_failed");
	kh_row(out, ls, "MADV_COLLAPSE calls", kh->madv_collapse, NULL);
	kh_row(out, ls, "  collapses (other tasks)", kh->other_collapse_succeeded, "kh_madv_collapsed");
	if (kh->swapin)
		kh_row(out, ls, "swap-in records", kh->swapin, NULL);
	if (kh->has_scan || kh->scan) {
		kh_row(out, ls, "mm_khugepaged_scan records", kh->scan, "kh_trace_records");
		kh_row(out, ls, "  progress (sum)", kh->scan_progress, "kh_progress");
		kh_row(out, ls, "  full scans finished", kh->scan_full, "kh_full_scans");
		if (kh->scan) {
			fputs("  progress per wake-up (recorded):", out);
			for (int i = 0; i < kh->nr_wakeup_log && i < 16; i++)
				fprintf(out, " %llu", (unsigned long long)kh->wakeup_progress[i]);
			fputs(kh->nr_wakeup_log > 16 ? " ...\n" : "\n", out);
		}
		for (int v = 0; v < ls->nr_variants; v++) {
			const struct aw_khugepaged *mk = &ls->k[v]->kh;
			uint32_t w = 0;
			unsigned long sum = 0;
			int shown = 0;

			if (!mk->nr_trace)
				continue;
			fprintf(out, "  progress per wake-up (%s):", ls->variant[v]->name);
			/* the model's records carry their wake-up (1-based); wake-ups without one show 0 */
			for (int i = 0; i <= mk->nr_trace && shown < 16; i++) {
				uint32_t tw = i < mk->nr_trace ? mk->trace[i].wakeup : UINT32_MAX;

				if (i && tw != w) {
					fprintf(out, " %lu", sum);
					shown++;
					for (uint32_t gapw = w + 1; gapw < tw && tw != UINT32_MAX && shown < 16; gapw++, shown++)
						fputs(" 0", out);
					sum = 0;
				}
				if (i < mk->nr_trace) {
					w = tw;
					sum += mk->trace[i].progress;
				}
			}
			fputs(shown >= 16 ? " ...\n" : "\n", out);
		}
	}
}

/* Where the recording lost events; the passes after them carry a '!' in the tables. */
static void lost_text(FILE *out, const struct aw_trace_stats *st)
{
	if (!st->lost_places)
		return;
	fprintf(out, "note: the recording lost events (ring-buffer overruns) in %llu place%s; the passes after "
		"them are marked ! (unreliable):", (unsigned long long)st->lost_places,
		st->lost_places == 1 ? "" : "s");
	for (int i = 0; i < st->nr_lost && i < 8; i++) {
		const struct aw_lost_range *l = &st->lost[i];

		fprintf(out, "%s cpu %d %.6f-%.6f s (", i ? ";" : "", l->cpu, l->from_ns / 1e9, l->to_ns / 1e9);
		if (l->events >= 0)
			fprintf(out, "%lld events)", (long long)l->events);
		else
			fputs("count unknown)", out);
	}
	fputs(st->lost_places > 8 ? "; ...\n" : "\n", out);
}

static void trace_text(FILE *out, const struct aw_replay_opts *o, const struct aw_trace_stats *st, const char *policy)
{
	fprintf(out, "agewalk replay %s: %llu events read (%llu used), %llu lost, %llu processes, %.3f s of "
		"trace, %d-byte longs\n", o->t.path, (unsigned long long)st->events_read,
		(unsigned long long)st->events_used, (unsigned long long)st->lost_events,
		(unsigned long long)st->processes, (st->last_ts - st->first_ts) / 1e9, st->long_size);
	fprintf(out, "policy: %s\n", policy);
	if (!st->had_snapshots)
		fprintf(out, "note: no /proc snapshots: the model starts empty; %llu faults landed outside any "
			"known mapping and got an implicit 2 MiB anonymous one\n",
			(unsigned long long)st->implicit_vmas);
	if (st->unreplayable_migrations)
		fprintf(out, "note: %llu migration events carry no addresses and were not replayed\n",
			(unsigned long long)st->unreplayable_migrations);
	lost_text(out, st);
	if (st->events_before_start)
		fprintf(out, "note: %llu records before --start touch or age memory and were not replayed (processes "
			"and mappings were)\n", (unsigned long long)st->events_before_start);
	if (o->t.nr_pids || o->t.nr_comms || o->t.nr_cgroups)
		fprintf(out, "note: %llu converted events of processes the filter leaves out were not replayed; "
			"%llu kept processes entered mid-stream with no mappings\n",
			(unsigned long long)st->events_filtered, (unsigned long long)st->processes_entered);
	if (st->late_forced)
		fprintf(out, "note: %llu recorded forced passes were replayed non-forced: their walks came more "
			"than %d events after the pass began\n", (unsigned long long)st->late_forced, AW_ING_HOLD);
	if (st->nr_skipped) {
		fprintf(out, "skipped:");
		for (int i = 0; i < st->nr_skipped; i++)
			fprintf(out, " %s=%llu", st->skipped[i].name, (unsigned long long)st->skipped[i].count);
		fputc('\n', out);
	}
}

/*
 * The run beside the ingestion: the lockstep engine starts once the
 * machine is known (ready()), and every converted event goes to the
 * stream file (--save-stream) and the engine as it is made (sink_event()).
 */
struct replay_run {
	const struct aw_replay_opts *o;
	const struct aw_trace_stats *st;
	struct aw_lockstep ls;
	struct aw_lockstep_opts lo;
	struct aw_pipeline pl;
	struct aw_awpb_spool spool;
	struct aw_output walk_log;	/* --walk-log; .f NULL without */
	int threads;			/* this attempt's (pipeline.h) */
	bool begun, started, saving;
};

static int ready(void *ctx, const struct aw_scenario *sc)
{
	struct replay_run *rr = ctx;

	rr->lo = rr->o->model;
	rr->lo.thp = rr->st->thp;
	rr->lo.oracles = true;
	rr->lo.keep_going = rr->o->keep_going;
	rr->lo.walk_log = rr->walk_log.f;
	rr->begun = true;
	if (aw_lockstep_begin(&rr->ls, sc, &rr->lo))
		return -1;
	rr->ls.describe_late = true;	/* exec renames processes as the trace goes */
	if (aw_pipeline_start(&rr->pl, &rr->ls, rr->threads))
		return -1;
	rr->started = true;
	return 0;
}

static int sink_event(void *ctx, const struct aw_event *ev)
{
	struct replay_run *rr = ctx;

	if (rr->saving && aw_awpb_spool_event(&rr->spool, ev, 0))
		return -1;
	return aw_pipeline_push(&rr->pl, ev, 0);
}

/* --html FILE: the page of the --json report (report_html.c). */
static int html_page(const struct aw_replay_opts *o, struct replay_run *rr, const struct aw_trace_stats *st,
		     const char *policy)
{
	char *extra = trace_json(o, st, policy, &rr->ls), err[512];
	int ret = AW_EXIT_OUTPUT;

	snprintf(err, sizeof(err), "%s: out of memory", o->html);
	if (extra)
		ret = aw_report_html_of(&rr->ls, extra, o->t.path, o->html, err, sizeof(err));
	if (ret)
		fprintf(stderr, "agewalk: %s\n", err);
	free(extra);
	return ret;
}

static int report(const struct aw_replay_opts *o, struct replay_run *rr, const struct aw_trace_stats *st,
		  const struct aw_scenario *sc)
{
	char policy[2048];

	policy_text(o, st, sc, policy, sizeof(policy));
	if (o->json) {
		char *extra = trace_json(o, st, policy, &rr->ls);

		aw_report_json(stdout, &rr->ls, extra);
		free(extra);
	} else {
		trace_text(stdout, o, st, policy);
		aw_report_table(stdout, &rr->ls);
		recorded_text(stdout, &rr->ls, st);
		recorded_kh_text(stdout, o, &rr->ls, st);
	}
	aw_report_findings(o->json ? stderr : stdout, &rr->ls);
	aw_report_text_idle(stderr, &rr->ls, false);
	return o->html ? html_page(o, rr, st, policy) : 0;
}

/*
 * --mem-stats: each thread's CPU time, one line on stderr after the memory
 * line (the longest thread bounds the wall time when each has a core).
 */
static void cpu_text(FILE *f, const struct replay_run *rr)
{
	const uint64_t *ns = rr->pl.cpu_ns;
	int threads = rr->started ? rr->pl.threads : 1;

	if (threads == 3)
		fprintf(f, "cpu: reading %.2f s, base %.2f s, the other variants %.2f s\n", ns[0] / 1e9,
			ns[1] / 1e9, ns[2] / 1e9);
	else if (threads == 2)
		fprintf(f, "cpu: reading %.2f s, the variants %.2f s\n", ns[0] / 1e9, ns[1] / 1e9);
	else
		fprintf(f, "cpu: reading and the variants %.2f s (one thread)\n", ns[0] / 1e9);
}

/*
 * One run of the replay.  Returns the exit status, or -1 (nothing printed
 * yet, every output abandoned) when the variants ran split and stopped
 * where one thread's run would not (aw_pipeline_finish()): the caller
 * runs it again with fewer threads.
 */
static int attempt(const struct aw_replay_opts *o, struct aw_tguard *guard, int threads)
{
	struct replay_run *rr = calloc(1, sizeof(*rr));	/* big: the lockstep engine */
	struct aw_scenario sc;
	struct aw_trace_stats st;
	struct aw_trace_sink sink = { sink_event, rr };
	struct aw_trace_opts t = o->t;	/* with the guard */
	char err[512];
	int status = 0, ingested;

	if (!rr) {
		fprintf(stderr, "agewalk replay: out of memory\n");
		return 2;
	}
	rr->o = o;
	rr->st = &st;
	rr->threads = threads;
	t.guard = guard;
	aw_scenario_init(&sc);
	if (o->save && aw_awpb_spool_open(&rr->spool, o->save)) {
		fprintf(stderr, "agewalk: %s\n", rr->spool.err);
		status = AW_EXIT_OUTPUT;
	}
	rr->saving = o->save != NULL;
	if (!status && o->walk_log && aw_output_open(&rr->walk_log, o->walk_log, err, sizeof(err))) {
		fprintf(stderr, "agewalk: %s\n", err);
		status = AW_EXIT_OUTPUT;
	}
	if (!status) {
		int stepped;

		ingested = aw_trace_ingest(&t, &sc, &st, &sink, ready, err, sizeof(err));
		/* the consumer drains what was queued, even after a failed read */
		stepped = rr->started ? aw_pipeline_finish(&rr->pl) : 0;
		if (!ingested && stepped > 0)
			status = -1;
		else if (ingested || stepped) {
			/* a spool that met a full disk is why the stream stopped, not memory */
			bool disk = rr->spool.failed;

			fprintf(stderr, "agewalk: %s\n", disk ? rr->spool.err : rr->ls.err[0] ? rr->ls.err : err);
			status = disk ? AW_EXIT_OUTPUT : 2;
		}
		if (!status && o->save && aw_awpb_spool_commit(&rr->spool, &sc)) {
			fprintf(stderr, "agewalk: %s\n", rr->spool.err);
			status = AW_EXIT_OUTPUT;
		}
		if (!status && rr->walk_log.f && aw_output_commit(&rr->walk_log, err, sizeof(err))) {
			fprintf(stderr, "agewalk: %s\n", err);
			status = AW_EXIT_OUTPUT;
		}
		if (!status) {
			aw_lockstep_describe(&rr->ls);
			status = report(o, rr, &st, &sc);
			if (!status && rr->ls.nr_findings)
				status = 1;
		}
		if (o->mem_stats && status >= 0) {
			struct aw_memstats m;

			if (!aw_memstats_read(&m))
				aw_memstats_print(stderr, &m, rr->started ? rr->pl.threads : 1, st.reopens);
			cpu_text(stderr, rr);
		}
		aw_trace_stats_free(&st);
	}
	if (rr->begun)
		aw_lockstep_free(&rr->ls);
	aw_awpb_spool_abort(&rr->spool);
	aw_output_abort(&rr->walk_log);
	aw_scenario_free(&sc);
	free(rr);
	return status;
}

int aw_replay(const struct aw_replay_opts *o)
{
	struct aw_tguard guard;
	int status;

	/*
	 * The rest runs in a child its parent watches, so that each file is
	 * opened once, not probed first (guard.h); before any output file
	 * exists and before the pipeline's threads.
	 */
	status = attempt(o, aw_tguard_start(&guard, 2) ? NULL : &guard, o->threads);
	/*
	 * The split variants met a finding where one thread would have
	 * stopped earlier (rare: a finding of a patched variant alone, without
	 * --keep-going): the same replay again, the variants on one thread
	 */
	if (status < 0)
		status = attempt(o, guard.page ? &guard : NULL, 2);
	return status;
}
