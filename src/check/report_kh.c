// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged figures: the metrics `expect` lines can name (all prefixed
 * kh_), the table block and the "khugepaged" object of each variant in
 * --json.  Like report.c, every figure comes from aw_kh_metric() so the
 * three can never disagree.
 */
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"

/* Successful collapses, optionally only by khugepaged, in region (0 = all). */
static double collapses(const struct aw_kernel *k, int region, const char *what)
{
	const struct aw_khugepaged *kh = &k->kh;
	double n = 0, first = 0, last = 0;

	for (int i = 0; i < kh->nr_collapses; i++) {
		const struct aw_kh_collapse *c = &kh->collapses[i];

		if (c->result != SCAN_SUCCEED || (region && c->region != region))
			continue;
		if (!strcmp(what, "madvise")) {
			n += c->wakeup == 0;
			continue;
		}
		if (!c->wakeup)
			continue;
		n++;
		if (!first)
			first = c->wakeup;
		last = c->wakeup;
	}
	if (!strcmp(what, "first"))
		return first;
	if (!strcmp(what, "last"))
		return last;
	return n;
}

/* kh_scan_progress_first / kh_scan_calls_second ...: what full scan N took. */
static double per_full_scan(const struct aw_khugepaged *kh, const char *key, bool *ok)
{
	static const char *const nth[AW_KH_FULL_LOG] = {
		"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
	};
	bool prog = !strncmp(key, "kh_scan_progress_", 17);
	const unsigned long *at = prog ? kh->progress_at_full : kh->calls_at_full;
	const char *word = key + (prog ? 17 : 14);

	for (unsigned long n = 0; n < AW_KH_FULL_LOG; n++) {
		if (strcmp(word, nth[n]))
			continue;
		if (n >= kh->full_scans)
			return 0;	/* not finished */
		return (double)(at[n] - (n ? at[n - 1] : 0));
	}
	*ok = false;
	return 0;
}

double aw_kh_metric(const struct aw_kernel *k, int region, const char *key, bool *ok)
{
	const struct aw_khugepaged *kh = &k->kh;

	*ok = true;
	if (!strcmp(key, "kh_collapsed")) return collapses(k, region, "khugepaged");
	if (!strcmp(key, "kh_first_collapse_wakeup")) return collapses(k, region, "first");
	if (!strcmp(key, "kh_last_collapse_wakeup")) return collapses(k, region, "last");
	if (!strcmp(key, "kh_madv_collapsed")) return collapses(k, region, "madvise");
	if (region) {
		*ok = false;
		return 0;
	}
	if (!strcmp(key, "kh_wakeups")) return (double)kh->wakeups;
	if (!strcmp(key, "kh_calls")) return (double)kh->calls;
	if (!strcmp(key, "kh_full_scans")) return (double)kh->full_scans;
	if (!strcmp(key, "kh_progress")) return (double)kh->progress;
	if (!strcmp(key, "kh_topup")) return (double)kh->topup;
	if (!strcmp(key, "kh_pages_collapsed")) return (double)kh->pages_collapsed;
	if (!strcmp(key, "kh_lazyfree_skips")) return (double)kh->lazyfree_skips;
	if (!strcmp(key, "kh_trace_records")) return kh->nr_trace;
	if (!strncmp(key, "kh_scan_progress_", 17) || !strncmp(key, "kh_scan_calls_", 14))
		return per_full_scan(kh, key, ok);
	if (!strncmp(key, "kh_result_", 10)) {
		int r = aw_scan_result_parse(key + 10);

		if (r >= 0)
			return (double)kh->result[r];
	}
	*ok = false;
	return 0;
}

static bool kh_active(const struct aw_kernel *k)
{
	return k->kh.wakeups || k->kh.nr_collapses || !list_empty(&k->kh.scan.mm_head);
}

void aw_kh_report_table(FILE *out, const struct aw_lockstep *ls)
{
	static const char *const keys[] = {
		"kh_wakeups", "kh_calls", "kh_full_scans", "kh_progress", "kh_topup",
		"kh_pages_collapsed", "kh_madv_collapsed", "kh_lazyfree_skips",
	};
	bool any = false, ok;

	for (int v = 0; v < ls->nr_variants; v++)
		any |= kh_active(ls->k[v]);
	if (!any)
		return;
	fprintf(out, "\n%-28s", "khugepaged");
	for (int v = 0; v < ls->nr_variants; v++)
		fprintf(out, " %18s", ls->variant[v]->name);
	fputc('\n', out);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		fprintf(out, "  %-26s", keys[i] + 3);
		for (int v = 0; v < ls->nr_variants; v++) {
			if (aw_kh_measured(ls->k[v], keys[i]))
				fprintf(out, " %18.0f", aw_kh_metric(ls->k[v], 0, keys[i], &ok));
			else
				fprintf(out, " %18s", "-");
		}
		fputc('\n', out);
	}
	for (int r = 0; r < SCAN_NR; r++) {
		bool seen = false;

		for (int v = 0; v < ls->nr_variants; v++)
			seen |= ls->k[v]->kh.result[r] != 0;
		if (!seen)
			continue;
		char label[40];

		snprintf(label, sizeof(label), "ranges %s", aw_scan_result_name(r));
		fprintf(out, "  %-26s", label);
		for (int v = 0; v < ls->nr_variants; v++)
			fprintf(out, " %18lu", ls->k[v]->kh.result[r]);
		fputc('\n', out);
	}
}

/* ,"name":N, or null where k's khugepaged does not count it (a tree's text without the series) */
static void json_kh_count(FILE *out, const struct aw_kernel *k, const char *name, const char *key, unsigned long n)
{
	if (aw_kh_measured(k, key))
		fprintf(out, ",\"%s\":%lu", name, n);
	else
		fprintf(out, ",\"%s\":null", name);
}

void aw_kh_report_json(FILE *out, const struct aw_kernel *k)
{
	const struct aw_khugepaged *kh = &k->kh;
	bool first = true;

	fprintf(out, ",\"khugepaged\":{\"patched\":%s,\"wakeups\":%lu", aw_kh_patched(k) ? "true" : "false",
		kh->wakeups);
	json_kh_count(out, k, "calls", "kh_calls", kh->calls);
	fprintf(out, ",\"full_scans\":%lu", kh->full_scans);
	json_kh_count(out, k, "progress", "kh_progress", kh->progress);
	json_kh_count(out, k, "topup", "kh_topup", kh->topup);
	fprintf(out, ",\"collapsed\":%lu,\"madv_collapsed\":%lu", kh->pages_collapsed, kh->madv_collapsed);
	json_kh_count(out, k, "lazyfree_skips", "kh_lazyfree_skips", kh->lazyfree_skips);
	fputs(",\"ranges\":{", out);
	for (int r = 0; r < SCAN_NR; r++) {
		if (!kh->result[r])
			continue;
		fprintf(out, "%s\"%s\":%lu", first ? "" : ",", aw_scan_result_name(r), kh->result[r]);
		first = false;
	}
	fputs("},\"progress_per_full_scan\":[", out);
	for (unsigned long n = 0; n < kh->full_scans && n < AW_KH_FULL_LOG; n++)
		fprintf(out, "%s%lu", n ? "," : "", kh->progress_at_full[n] - (n ? kh->progress_at_full[n - 1] : 0));
	fputs("],\"collapses\":[", out);
	for (int i = 0; i < kh->nr_collapses; i++) {
		const struct aw_kh_collapse *c = &kh->collapses[i];

		fprintf(out, "%s{\"mm\":%u,\"addr\":\"0x%llx\",\"wakeup\":%u,\"result\":\"%s\"}", i ? "," : "",
			c->mm, (unsigned long long)c->haddr, c->wakeup, aw_scan_result_name(c->result));
	}
	fprintf(out, "],\"trace_records\":%d}", kh->nr_trace);
}
