// SPDX-License-Identifier: GPL-2.0-only
/*
 * The executor's report: the keys of `agewalk run --json`
 * (src/check/report.c) in the same order, with null where the kernel keeps
 * no such figure, one variant named "kernel", and the executor's own
 * fields: "source", "release", "notes", "error".  And the plain table.
 */
#include <inttypes.h>
#include <string.h>

#include "exec.h"
#include "json_str.h"

/* ,"key":N or ,"key":null */
static void jnum(FILE *out, const char *key, int64_t v)
{
	if (v < 0)
		fprintf(out, ",\"%s\":null", key);
	else
		fprintf(out, ",\"%s\":%" PRId64, key, v);
}


/* A node's or a pass's walk figure: the sum, null if any pass has none. */
static int64_t stat_sum(const struct aw_xnode *xn, int s)
{
	int64_t sum = 0;

	for (int p = 0; p < xn->nr_passes; p++) {
		if (xn->passes[p].stat[s] < 0)
			return -1;
		sum += xn->passes[p].stat[s];
	}
	return sum;
}

static void json_walk(FILE *out, int64_t (*get)(const void *, int), const void *src)
{
	jnum(out, "leaf_total", get(src, AW_LG_LEAF_TOTAL));
	jnum(out, "leaf_associated", get(src, AW_LG_LEAF_ASSOCIATED));
	jnum(out, "young", get(src, AW_LG_LEAF_YOUNG));
	jnum(out, "nonleaf_found", get(src, AW_LG_NONLEAF_FOUND));
	jnum(out, "nonleaf_added", get(src, AW_LG_NONLEAF_ADDED));
	fputs(",\"pmd_entries_read\":null", out);
	jnum(out, "pud_skipped", get(src, AW_LG_PUD_SKIPPED));
	fputs(",\"promoted\":null", out);
}

static int64_t pass_get(const void *p, int s) { return ((const struct aw_xpass *)p)->stat[s]; }
static int64_t node_get(const void *n, int s) { return stat_sum(n, s); }

/* walk_pud_range() hits by worker (exec_kprobe.c), null without the kprobes */
static void json_walked(FILE *out, const struct aw_exec *x, const struct aw_xpass *p)
{
	if (!p->traced) {
		fputs(",\"walked\":null,\"walked_other\":null", out);
		return;
	}
	fputs(",\"walked\":[", out);
	for (int i = 0; i < p->nr_walked; i++) {
		fprintf(out, "%s{\"proc\":", i ? "," : "");
		aw_json_str(out, x->sc.proc_name[p->walked[i].proc - 1]);
		fprintf(out, ",\"pud_calls\":%u}", p->walked[i].calls);
	}
	fprintf(out, "],\"walked_other\":%u", p->walked_other);
}

static void json_pass(FILE *out, const struct aw_exec *x, const struct aw_xpass *p)
{
	fprintf(out, "{\"pass\":%d,\"forced\":%s", p->pass, p->forced ? "true" : "false");
	fputs(",\"walks\":null", out);
	/* the PUD series' MM_WALK_TOTAL counts walks that read a leaf: the model's walks_with_leaves */
	jnum(out, "walks_with_leaves", p->stat[AW_LG_WALK_TOTAL]);
	jnum(out, "empty_walks", p->stat[AW_LG_WALK_EMPTY]);
	fputs(",\"forced_walks\":null", out);
	json_walk(out, pass_get, p);
	fputs(",\"bloom_tests\":{\"pmd\":null,\"pud\":null}", out);
	/* the kernel's own: 6.1's L and N columns, the generations, the outcome */
	jnum(out, "leaf_old", p->stat[AW_LG_LEAF_OLD]);
	jnum(out, "nonleaf_total", p->stat[AW_LG_NONLEAF_TOTAL]);
	json_walked(out, x, p);
	fprintf(out, ",\"event\":%ld,\"max_seq_before\":%" PRIu64 ",\"max_seq_after\":%" PRIu64
		",\"aged\":%s,\"refused\":%s,\"reclaim\":%s}", p->event, p->seq_before, p->seq_after,
		p->aged ? "true" : "false", p->refused ? "true" : "false", p->reclaim ? "true" : "false");
}

static void json_evictions(FILE *out, const struct aw_xnode *xn)
{
	fputs(",\"evictions\":[", out);
	for (int i = 0; i < xn->nr_evictions; i++) {
		const struct aw_xevict *e = &xn->evictions[i];

		fprintf(out, "%s{\"event\":%ld,\"memcg\":%d,\"seq\":%" PRIu64 ",\"max_seq\":%" PRIu64
			",\"min_seq_before\":[%" PRIu64 ",%" PRIu64 "],\"min_seq_after\":[%" PRIu64 ",%" PRIu64 "]",
			i ? "," : "", e->event, e->memcg, e->seq, e->max_seq, e->min_seq_before[0],
			e->min_seq_before[1], e->min_seq_after[0], e->min_seq_after[1]);
		jnum(out, "evicted_pages", e->pages);
		fprintf(out, ",\"refused\":%s}", e->err ? "true" : "false");
	}
	fputc(']', out);
}

static void json_node(FILE *out, const struct aw_exec *x, int n)
{
	const struct aw_xnode *xn = &x->node[n];

	fprintf(out, "{\"node\":%d,\"passes\":%d", n, xn->nr_passes);
	fputs(",\"walks\":null", out);
	jnum(out, "walks_with_leaves", stat_sum(xn, AW_LG_WALK_TOTAL));
	jnum(out, "empty_walks", stat_sum(xn, AW_LG_WALK_EMPTY));
	fputs(",\"forced_walks\":null,\"sticky_forced_walks\":null", out);
	json_walk(out, node_get, xn);
	/* pgsteal counts pages; the model's evicted counts folios, its evicted_pages pages */
	fputs(",\"evicted\":null", out);
	jnum(out, "evicted_pages", xn->evicted);
	fputs(",\"single_touch_evicted\":null,\"hot_evicted\":null", out);
	/* the kernel counts refaults that pass lru_gen_refault()'s token test, not every swap-in */
	fputs(",\"refaults\":null", out);
	jnum(out, "workingset_refaults", xn->refaults);
	fputs(",\"oom_kills\":null", out);
	fprintf(out, ",\"aging_refused\":%lu", xn->aging_refused);
	fputs(",\"bloom_tests\":{\"pmd\":null,\"pud\":null},\"filter_fill\":{\"pmd\":null,\"pud\":null}"
	      ",\"suppressed_young\":{\"region_passes\":null,\"longest_run\":null}"
	      ",\"bloom_false_positive\":null,\"feedback\":{\"kept\":null,\"lost\":null}", out);
	jnum(out, "leaf_old", stat_sum(xn, AW_LG_LEAF_OLD));
	jnum(out, "nonleaf_total", stat_sum(xn, AW_LG_NONLEAF_TOTAL));
	json_evictions(out, xn);
	fputs(",\"per_pass\":[", out);
	for (int p = 0; p < xn->nr_passes; p++) {
		fputs(p ? "," : "", out);
		json_pass(out, x, &xn->passes[p]);
	}
	fputs("]}", out);
}

static void json_region(FILE *out, const struct aw_exec *x, int r)
{
	const struct aw_xregion *rg = &x->region[r];
	bool first = true;

	fputs("{\"name\":", out);
	aw_json_str(out, x->sc.region_name[r]);
	fprintf(out, ",\"resident\":%" PRIu64 ",\"swapped\":%" PRIu64 ",\"per_pass\":[", rg->resident, rg->swapped);
	for (int i = 0; i < x->nr_rpass; i++) {
		const struct aw_xrpass *rp = &x->rpass[i];

		if (rp->region != r)
			continue;
		fprintf(out, "%s{\"pass\":%d,\"node\":%d,\"leaf_total\":null,\"young\":null,"
			"\"pmd_entries_read\":null,\"pud_skipped\":null,\"resident\":%" PRIu64
			",\"swapped\":%" PRIu64 "}", first ? "" : ",", rp->pass, rp->node, rp->resident, rp->swapped);
		first = false;
	}
	fputs("],\"samples\":[", out);
	first = true;
	for (int i = 0; i < x->nr_samples; i++)
		if (x->samples[i].region == r) {
			fprintf(out, "%s{\"event\":%ld,\"resident\":%" PRIu64 ",\"swapped\":%" PRIu64 "}",
				first ? "" : ",", x->samples[i].event, x->samples[i].resident, x->samples[i].swapped);
			first = false;
		}
	fputs("]}", out);
}

static int64_t delta(int64_t a, int64_t b)
{
	return a >= 0 && b >= a ? b - a : -1;
}

static void json_counts(FILE *out, const char *key, const struct aw_kht_count *tab, int nr)
{
	fprintf(out, ",\"%s\":{", key);
	for (int i = 0; i < nr; i++) {
		fputs(i ? "," : "", out);
		aw_json_str(out, tab[i].name);
		fprintf(out, ":%" PRIu64, tab[i].count);
	}
	fputc('}', out);
}

/*
 * What the kernel's tracepoints said (exec_khtrace.c), the run's mms only;
 * "lab" holds what the model has no key for: the wake-ups one by one, the
 * spontaneous ones, the other mms' share, the collapse records.
 */
static void json_kh_lab(FILE *out, const struct aw_exec *x)
{
	const struct aw_khtrace *t = &x->kht;

	fprintf(out, ",\"lab\":{\"has_scan_event\":%s,\"commanded_wakeups\":%d,\"bracketed_wakeups\":%" PRIu64
		",\"spontaneous_wakeups\":%" PRIu64
		",\"spontaneous_full_scans\":%" PRIu64 ",\"per_wakeup\":", t->has_scan ? "true" : "false",
		x->kh_commanded, aw_kht_wakeups(t) - aw_kht_spontaneous_run(t), t->spontaneous, t->full_other);
	/* without mm_khugepaged_scan a wake-up has neither progress nor a full scan to show */
	fputs(t->has_scan ? "[" : "null", out);
	for (int i = 0; t->has_scan && i < t->nr_wake; i++) {
		fprintf(out, "%s{\"progress\":%" PRIu64, i ? "," : "", t->wake[i].progress);
		fprintf(out, ",\"full_scan_finished\":%s,\"spontaneous\":%s,\"run\":%s}",
			t->wake[i].full ? "true" : "false", t->wake[i].spontaneous ? "true" : "false",
			t->wake[i].run ? "true" : "false");
	}
	fprintf(out, "%s,\"other_mms\":{\"calls\":%" PRIu64 ",\"progress\":%" PRIu64 ",\"ranges\":%" PRIu64 "}"
		",\"run_mms\":%d,\"collapse_records\":%" PRIu64 ",\"collapse_succeeded\":%" PRIu64,
		t->has_scan ? "]" : "", t->other_calls, t->other_progress, t->other_ranges, t->nr_mms, t->collapses,
		t->collapse_ok);
	json_counts(out, "collapse_failed", t->cstatus, t->nr_cstatus);
	fprintf(out, ",\"madv_scan_pmd\":%" PRIu64 ",\"unmapped_status\":%" PRIu64 "}", t->madv_scan_pmd,
		t->unmapped_status);
}

static void json_khugepaged(FILE *out, const struct aw_exec *x)
{
	const struct aw_khtrace *t = &x->kht;
	int64_t full;

	if (!t->on) {
		fputs(",\"khugepaged\":{\"patched\":null,\"wakeups\":null,\"calls\":null", out);
		jnum(out, "full_scans", delta(x->kh_full_scans0, x->kh_full_scans));
		fputs(",\"progress\":null,\"topup\":null", out);
		jnum(out, "collapsed", delta(x->kh_collapsed0, x->kh_collapsed));
		fputs(",\"madv_collapsed\":null,\"lazyfree_skips\":null,\"ranges\":null,"
		      "\"progress_per_full_scan\":null,\"collapses\":null,\"trace_records\":null}", out);
		return;
	}
	/* patched: the series' event is there (its other rules have no sysfs trace of their own) */
	/*
	 * wake-ups by command, not by the markers' brackets: on 6.12's k1, 4
	 * of 1921 commanded wake-ups had no record inside theirs (their
	 * records came in the next one's), so the brackets order records
	 * into wake-ups only approximately (per_wakeup)
	 */
	fprintf(out, ",\"khugepaged\":{\"patched\":%s,\"wakeups\":%" PRIu64, t->has_scan ? "true" : "false",
		(uint64_t)x->kh_woken + aw_kht_spontaneous_run(t));
	jnum(out, "calls", t->has_scan ? (int64_t)t->calls : -1);
	full = delta(x->kh_full_scans0, x->kh_full_scans);
	jnum(out, "full_scans", full >= (int64_t)t->full_other ? full - (int64_t)t->full_other : full);
	jnum(out, "progress", t->has_scan ? (int64_t)t->progress : -1);
	fputs(",\"topup\":null", out);
	jnum(out, "collapsed", delta(x->kh_collapsed0, x->kh_collapsed));
	fprintf(out, ",\"madv_collapsed\":%" PRIu64 ",\"lazyfree_skips\":%" PRIu64, t->madv_collapsed,
		t->lazyfree_skips);
	json_counts(out, "ranges", t->ranges, t->nr_ranges);
	if (t->has_scan) {
		fputs(",\"progress_per_full_scan\":[", out);
		for (int i = 0; i < t->nr_full; i++)
			fprintf(out, "%s%" PRIu64, i ? "," : "", t->per_full[i]);
		fputc(']', out);
	} else {
		fputs(",\"progress_per_full_scan\":null", out);
	}
	fputs(",\"collapses\":null", out);
	jnum(out, "trace_records", t->has_scan ? (int64_t)t->calls : -1);
	json_kh_lab(out, x);
	fputc('}', out);
}

static const char *const note_kind[] = {
	[AW_NOTE_NOT_EXECUTED] = "not_executed", [AW_NOTE_REFUSED] = "refused",
	[AW_NOTE_APPROXIMATED] = "approximated", [AW_NOTE_ERROR] = "error", [AW_NOTE_SETUP] = "setup",
};

static void json_notes(FILE *out, const struct aw_exec *x)
{
	fputs(",\"notes\":[", out);
	for (int i = 0; i < x->nr_notes; i++) {
		const struct aw_note *n = &x->notes[i];

		fprintf(out, "%s{\"event\":%ld,\"line\":%u,\"kind\":\"%s\",\"text\":", i ? "," : "", n->event,
			n->line, note_kind[n->kind]);
		aw_json_str(out, n->text);
		fputc('}', out);
	}
	fputs("],\"error\":", out);
	if (x->fatal[0])
		aw_json_str(out, x->fatal);
	else
		fputs("null", out);
}

/* A limited memcg's memory.stat differences, per event that moved them (exec_memstat.c). */
static void json_memstat(FILE *out, const struct aw_exec *x)
{
	fputs(",\"memcg_events\":[", out);
	for (int i = 0; i < x->nr_memstat; i++) {
		const struct aw_xmemstat *r = &x->memstat[i];

		fprintf(out, "%s{\"event\":%ld,\"memcg\":%d", i ? "," : "", r->event, r->memcg);
		for (int k = 0; k < AW_MS_NR; k++)
			jnum(out, aw_memstat_key(k), r->delta[k]);
		fputs(",\"lru_gen\":[", out);
		for (int g = 0; g < r->nr_gens; g++)
			fprintf(out, "%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]", g ? "," : "",
				r->gen[g][0], r->gen[g][1], r->gen[g][2], r->gen[g][3]);
		fputs("]}", out);
	}
	fputc(']', out);
}

void aw_exec_json(FILE *out, const struct aw_exec *x)
{
	fputs("{\"input\":", out);
	aw_json_str(out, x->sc.path ? x->sc.path : "-");
	fputs(",\"thp\":", out);
	aw_json_str(out, aw_thp_mode_name(x->sc.cfg.thp));
	fprintf(out, ",\"kernel\":\"%s\",\"events\":%zu,\"variants\":[{\"name\":\"kernel\",\"nodes\":[",
		x->opt.kver == AW_KV_6_1 ? "6.1" : "6.12", x->events_done);
	for (int n = 0; n < x->sc.cfg.nr_nodes; n++) {
		fputs(n ? "," : "", out);
		json_node(out, x, n);
	}
	fputs("],\"regions\":[", out);
	for (int r = 0; x->region && r < x->sc.nr_regions; r++) {
		fputs(r ? "," : "", out);
		json_region(out, x, r);
	}
	fputs("],\"ignored_events\":null", out);
	json_khugepaged(out, x);
	fputs(",\"young_divergences\":null}],\"findings\":[],\"source\":\"kernel\",\"release\":", out);
	aw_json_str(out, x->release);
	json_memstat(out, x);
	json_notes(out, x);
	fputs("}\n", out);
}

static void cell(FILE *out, int64_t v)
{
	if (v < 0)
		fprintf(out, " %9s", "-");
	else
		fprintf(out, " %9" PRId64, v);
}

void aw_exec_table(FILE *out, const struct aw_exec *x)
{
	static const int cols[] = { AW_LG_LEAF_TOTAL, AW_LG_LEAF_OLD, AW_LG_LEAF_YOUNG, AW_LG_NONLEAF_TOTAL,
				    AW_LG_NONLEAF_FOUND, AW_LG_NONLEAF_ADDED };

	fprintf(out, "agewalk-exec %s  thp=%s  events=%zu  kernel %s\n", x->sc.path ? x->sc.path : "-",
		aw_thp_mode_name(x->sc.cfg.thp), x->events_done, x->release);
	for (int n = 0; n < x->sc.cfg.nr_nodes; n++) {
		const struct aw_xnode *xn = &x->node[n];

		fprintf(out, "\nvariant kernel, node %d: %d passes", n, xn->nr_passes);
		if (xn->aging_refused)
			fprintf(out, " (%lu aging commands refused, -ERANGE)", xn->aging_refused);
		fprintf(out, "\n  %-10s %9s %9s %9s %9s %9s %9s %9s\n", "pass", "max_seq", "T", "O", "Y", "N", "F", "A");
		for (int p = 0; p < xn->nr_passes; p++) {
			const struct aw_xpass *ps = &xn->passes[p];
			char label[24];

			snprintf(label, sizeof(label), "%d%s", ps->pass, ps->refused ? " refused" : ps->forced ? " forced" :
				 ps->reclaim ? " reclaim" : "");
			fprintf(out, "  %-10s %9" PRIu64, label, ps->seq_after);
			for (int c = 0; c < 6; c++)
				cell(out, ps->stat[cols[c]]);
			fputc('\n', out);
		}
		fprintf(out, "  %-10s %9s", "total", "");
		for (int c = 0; c < 6; c++)
			cell(out, stat_sum(xn, cols[c]));
		fprintf(out, "\n  evicted %" PRId64 " (pgsteal)\n", xn->evicted);
	}
	for (int i = 0; i < x->nr_notes; i++)
		fprintf(out, "note: event %ld line %u: %s: %s\n", x->notes[i].event, x->notes[i].line,
			note_kind[x->notes[i].kind], x->notes[i].text);
	if (x->fatal[0])
		fprintf(out, "error: %s\n", x->fatal);
}
