// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports: the side-by-side table, the --json object, and the checks of a
 * scenario's `expect` lines.  Every figure comes from one place, metric(),
 * so the table, the JSON and the checks can never disagree.
 */
#include <math.h>
#include <string.h>

#include "lockstep.h"
#include "known.h"
#include "oracle.h"
#include "json_str.h"

/* What a metric is read from: a node's pass, a node's totals, a region's pass. */
struct aw_src {
	const struct aw_kernel *k;
	int node;
	const struct aw_pass *pass;		/* node per-pass */
	const struct aw_region_pass *rpass;	/* region per-pass */
	const struct aw_region *region;		/* region totals (with node) */
};

/* The model's mm_stats a figure reads (-1: another counter). */
static int key_mm_stat(const char *key)
{
	static const struct { const char *key; int stat; } map[] = {
		{ "walks_with_leaves", MM_WALK_TOTAL }, { "empty_walks", MM_WALK_EMPTY },
		{ "leaf_total", MM_LEAF_TOTAL }, { "leaf_associated", MM_LEAF_ASSOCIATED },
		{ "young", MM_LEAF_YOUNG }, { "nonleaf_found", MM_NONLEAF_FOUND },
		{ "nonleaf_added", MM_NONLEAF_ADDED }, { "leaf_empty_walks", MM_LEAF_EMPTY_WALKS },
		{ "pud_skipped", MM_PUD_EMPTY_SKIPPED },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(key, map[i].key))
			return map[i].stat;
	return -1;
}

/*
 * Whether k's MGLRU code counts the figure (struct aw_mglru_ops.measures):
 * one it does not is '-' in the tables and null in the JSON, never a 0
 * that reads as "none happened".  A region's per-pass figure is asked as
 * "region.KEY", a node pass's as "pass.KEY" (the node's total is KEY).
 */
enum aw_fig_scope { AW_FIG_NODE, AW_FIG_PASS, AW_FIG_REGION };

static bool measured(const struct aw_kernel *k, const char *key, enum aw_fig_scope scope)
{
	static const char *const prefix[] = { "", "pass.", "region." };
	char skey[64];

	if (!strncmp(key, "kh_", 3))
		return !k->khops || !k->khops->measures || k->khops->measures(k, key);
	if (!k->mglru || !k->mglru->measures)
		return true;
	snprintf(skey, sizeof(skey), "%s%s", prefix[scope], key);
	return k->mglru->measures(k, skey, scope == AW_FIG_REGION ? -1 : key_mm_stat(key));
}

bool aw_kh_measured(const struct aw_kernel *k, const char *key)
{
	return measured(k, key, AW_FIG_NODE);
}

/* A figure for the table: its value, or '-' where it is not counted. */
static void put_figure(FILE *out, const char *fmt_num, const struct aw_kernel *k, const char *key, double v)
{
	if (measured(k, key, AW_FIG_NODE))
		fprintf(out, fmt_num, v);
	else
		fputs(" -", out);
}

static double pass_metric(const struct aw_pass *p, const char *key, bool *ok)
{
	*ok = true;
	if (!strcmp(key, "walks")) return (double)p->walks;
	if (!strcmp(key, "walks_with_leaves")) return (double)p->mm_stats[MM_WALK_TOTAL];
	if (!strcmp(key, "empty_walks")) return (double)p->mm_stats[MM_WALK_EMPTY];
	if (!strcmp(key, "forced_walks")) return (double)p->forced_walks;
	if (!strcmp(key, "sticky_forced_walks")) return (double)p->sticky_forced_walks;
	if (!strcmp(key, "leaf_total")) return (double)p->mm_stats[MM_LEAF_TOTAL];
	if (!strcmp(key, "leaf_associated")) return (double)p->mm_stats[MM_LEAF_ASSOCIATED];
	if (!strcmp(key, "young")) return (double)p->mm_stats[MM_LEAF_YOUNG];
	if (!strcmp(key, "nonleaf_found")) return (double)p->mm_stats[MM_NONLEAF_FOUND];
	if (!strcmp(key, "nonleaf_added")) return (double)p->mm_stats[MM_NONLEAF_ADDED];
	if (!strcmp(key, "leaf_empty_walks")) return (double)p->mm_stats[MM_LEAF_EMPTY_WALKS];
	if (!strcmp(key, "pmd_entries_read")) return (double)p->aw_stats[AW_WS_PMD_READ];
	if (!strcmp(key, "bloom_tests_pmd")) return (double)p->aw_stats[AW_WS_BLOOM_PMD];
	if (!strcmp(key, "bloom_tests_pud")) return (double)p->aw_stats[AW_WS_BLOOM_PUD];
	if (!strcmp(key, "pud_skipped")) return (double)p->mm_stats[MM_PUD_EMPTY_SKIPPED];
	if (!strcmp(key, "promoted")) return (double)p->aw_stats[AW_WS_PROMOTED];
	if (!strcmp(key, "forced")) return p->forced;
	if (!strcmp(key, "aged")) return p->success;
	*ok = false;
	return 0;
}

static double node_total(const struct aw_kernel *k, int node, const char *key, bool *ok)
{
	const struct aw_node_stats *ns = &k->node_stats[node];
	double sum = 0;

	*ok = true;
	if (!strcmp(key, "passes")) return ns->nr_passes;
	if (!strcmp(key, "promoted")) return (double)ns->promoted;
	if (!strcmp(key, "evicted")) return (double)ns->evicted;
	if (!strcmp(key, "evicted_pages")) return (double)ns->evicted_pages;
	if (!strcmp(key, "single_touch_evicted")) return (double)ns->single_touch_evicted;
	if (!strcmp(key, "hot_evicted")) return (double)ns->hot_evicted;
	if (!strcmp(key, "refaults")) return (double)ns->refaults;
	if (!strcmp(key, "workingset_refaults")) return (double)ns->workingset_refaults;
	if (!strcmp(key, "oom_kills")) return (double)ns->oom_kills;
	if (!strcmp(key, "aging_refused")) return (double)ns->aging_refused;
	if (!strcmp(key, "suppressed_young")) return (double)aw_oracle_metrics(k, node)->suppressed_young;
	if (!strcmp(key, "suppressed_longest")) return (double)aw_oracle_metrics(k, node)->suppressed_longest;
	if (!strcmp(key, "bloom_false_positive"))
		return (double)aw_oracle_metrics(k, node)->bloom_false_positive;
	if (!strcmp(key, "feedback_lost")) return (double)aw_oracle_metrics(k, node)->feedback_lost;
	if (!strcmp(key, "feedback_kept")) return (double)aw_oracle_metrics(k, node)->feedback_kept;
	if (!strcmp(key, "filter_fill_pmd") || !strcmp(key, "filter_fill_pud")) {
		int level = !strcmp(key, "filter_fill_pmd") ? BLOOM_FILTER_PMD : BLOOM_FILTER_PUD;

		for (int m = 0; m < k->nr_memcgs; m++) {
			const struct lruvec *l = &k->lruvecs[m * k->nr_nodes + node];

			sum += aw_bloom_weight((aw_bloom_t *)l->mm_state.filters[level], l->lrugen.max_seq);
		}
		return sum;
	}
	for (int i = 0; i < ns->nr_passes; i++) {
		sum += pass_metric(&ns->passes[i], key, ok);
		if (!*ok)
			return 0;
	}
	return sum;
}

static double rpass_metric(const struct aw_region_pass *rp, const char *key, bool *ok)
{
	*ok = true;
	if (!strcmp(key, "leaf_total")) return (double)rp->leaf_total;
	if (!strcmp(key, "young")) return (double)rp->young;
	if (!strcmp(key, "pmd_entries_read")) return (double)rp->pmd_read;
	if (!strcmp(key, "pud_skipped")) return (double)rp->pud_skipped;
	if (!strcmp(key, "resident")) return (double)rp->resident;
	*ok = false;
	return 0;
}

static double region_total(const struct aw_region *r, int node, const char *key, bool *ok)
{
	double sum = 0;

	*ok = true;
	if (!strcmp(key, "resident"))
		return (double)r->resident;
	if (!strcmp(key, "resident_min")) {
		double min = -1;

		for (int i = 0; i < r->nr_samples; i++)
			if (min < 0 || r->samples[i].resident < min)
				min = (double)r->samples[i].resident;
		return min < 0 ? (double)r->resident : min;
	}
	for (int i = 0; i < r->nr_passes; i++) {
		if (node >= 0 && r->passes[i].node != node)
			continue;
		sum += rpass_metric(&r->passes[i], key, ok);
		if (!*ok)
			return 0;
	}
	return sum;
}

static double metric(const struct aw_src *s, const char *key, bool *ok)
{
	if (!strncmp(key, "kh_", 3)) {
		if (s->rpass || s->pass) {
			*ok = false;	/* khugepaged figures are not per aging pass */
			return 0;
		}
		return aw_kh_metric(s->k, s->region ? (int)(s->region - s->k->regions) + 1 : 0, key, ok);
	}
	if (s->rpass)
		return rpass_metric(s->rpass, key, ok);
	if (s->region)
		return region_total(s->region, s->node, key, ok);
	if (s->pass)
		return pass_metric(s->pass, key, ok);
	return node_total(s->k, s->node, key, ok);
}

static bool pass_selected(const struct aw_expect *e, int pass);

/* ---- table ------------------------------------------------------------ */

static const char *const table_keys[] = {
	"walks", "walks_with_leaves", "empty_walks", "forced_walks", "leaf_total",
	"leaf_associated", "young", "nonleaf_found", "nonleaf_added", "pmd_entries_read",
	"bloom_tests_pmd", "pud_skipped", "promoted",
};
static const char *const table_heads[] = {
	"walks", "w/leaf", "empty", "forced", "T", "assoc", "Y", "F", "A", "P", "bloom", "S", "promo",
};
#define NR_TABLE_KEYS (int)(sizeof(table_keys) / sizeof(table_keys[0]))

static void table_row(FILE *out, const char *label, const struct aw_src *s)
{
	bool ok;

	fprintf(out, "  %-10s", label);
	for (int i = 0; i < NR_TABLE_KEYS; i++) {
		if (measured(s->k, table_keys[i], s->pass ? AW_FIG_PASS : AW_FIG_NODE))
			fprintf(out, " %9.0f", metric(s, table_keys[i], &ok));
		else
			fprintf(out, " %9s", "-");
	}
	fputc('\n', out);
}

void aw_report_table(FILE *out, const struct aw_lockstep *ls)
{
	fprintf(out, "agewalk run %s  thp=%s  events=%zu", ls->sc->path ? ls->sc->path : "-",
		aw_thp_mode_name(ls->thp), ls->events_applied);
	/* a finding under another contract says which (contract.h) */
	if (!aw_empty_contract_is_default(&ls->empty)) {
		char text[160];

		aw_empty_contract_format(&ls->empty, ',', text, sizeof(text));
		fprintf(out, "  empty-contract=%s", text);
	}
	fputc('\n', out);
	for (int v = 0; v < ls->nr_variants; v++) {
		const struct aw_kernel *k = ls->k[v];

		for (int n = 0; n < k->nr_nodes; n++) {
			const struct aw_node_stats *ns = &k->node_stats[n];
			struct aw_src tot = { .k = k, .node = n };
			bool ok;
			int unreliable;

			fprintf(out, "\nvariant %s, node %d: %d passes", ls->variant[v]->name, n, ns->nr_passes);
			/* 6.1/6.12 run_aging() -ERANGE: shown only when it happened */
			if (ns->aging_refused)
				fprintf(out, " (%lu aging commands refused, -ERANGE)", ns->aging_refused);
			fprintf(out, "\n  %-10s", "pass");
			for (int i = 0; i < NR_TABLE_KEYS; i++)
				fprintf(out, " %9s", table_heads[i]);
			fputc('\n', out);
			unreliable = 0;
			for (int p = 0; p < ns->nr_passes; p++) {
				struct aw_src s = { .k = k, .node = n, .pass = &ns->passes[p] };
				char label[24];

				snprintf(label, sizeof(label), "%d%s%s", ns->passes[p].pass,
					 ns->passes[p].forced ? " forced" : "", ns->passes[p].unreliable ? " !" : "");
				unreliable += ns->passes[p].unreliable;
				table_row(out, label, &s);
			}
			table_row(out, "total", &tot);
			if (unreliable)
				fprintf(out, "  ! %d pass%s after events the trace lost (ring-buffer overrun): "
					"unreliable figures\n", unreliable, unreliable == 1 ? "" : "es");
			fprintf(out, "  evicted %.0f (single-touch %.0f, hot %.0f)  refaults %.0f  oom kills %.0f"
				"  promoted %.0f  filter fill pmd %.0f pud %.0f\n",
				metric(&tot, "evicted", &ok), metric(&tot, "single_touch_evicted", &ok),
				metric(&tot, "hot_evicted", &ok), metric(&tot, "refaults", &ok),
				metric(&tot, "oom_kills", &ok), metric(&tot, "promoted", &ok),
				metric(&tot, "filter_fill_pmd", &ok), metric(&tot, "filter_fill_pud", &ok));
			if (k->oracle) {
				fputs("  suppressed-young region-passes", out);
				put_figure(out, " %.0f", k, "suppressed_young", metric(&tot, "suppressed_young", &ok));
				fputs(" (longest run", out);
				put_figure(out, " %.0f", k, "suppressed_longest",
					   metric(&tot, "suppressed_longest", &ok));
				fputs(")  Bloom false positives", out);
				put_figure(out, " %.0f", k, "bloom_false_positive",
					   metric(&tot, "bloom_false_positive", &ok));
				fputs("  feedback kept", out);
				put_figure(out, " %.0f", k, "feedback_kept", metric(&tot, "feedback_kept", &ok));
				fputs(" lost", out);
				put_figure(out, " %.0f", k, "feedback_lost", metric(&tot, "feedback_lost", &ok));
				fputc('\n', out);
			}
		}
		aw_report_text_ran_table(out, ls, v);
	}
	aw_kh_report_table(out, ls);
}

/* ---- JSON ------------------------------------------------------------- */

/*
 * One pass; next is the node's following pass, NULL for the last: the
 * folios evicted and the refaults from this pass's start to the next's
 * (to the end of the run for the last) are the pass's interval.
 */
/* "key":value, or "key":null where k does not count it */
static void json_figure(FILE *out, const struct aw_kernel *k, const char *key, enum aw_fig_scope scope, double v)
{
	if (measured(k, key, scope))
		fprintf(out, ",\"%s\":%.0f", key, v);
	else
		fprintf(out, ",\"%s\":null", key);
}

/* "bloom_tests":{"pmd":N,"pud":N}, or null */
static void json_bloom_tests(FILE *out, const struct aw_kernel *k, double pmd, double pud)
{
	if (measured(k, "bloom_tests_pmd", AW_FIG_NODE))
		fprintf(out, ",\"bloom_tests\":{\"pmd\":%.0f,\"pud\":%.0f}", pmd, pud);
	else
		fputs(",\"bloom_tests\":null", out);
}

static void json_pass(FILE *out, const struct aw_kernel *k, const struct aw_pass *p, const struct aw_pass *next,
		      const struct aw_node_stats *ns)
{
	bool ok;

	fprintf(out, "{\"pass\":%d,\"forced\":%s", p->pass, p->forced ? "true" : "false");
	/* what caused it, as agewalk-exec writes it: compare pairs passes by it */
	fprintf(out, ",\"event\":%llu,\"reclaim\":%s", (unsigned long long)p->event,
		p->reclaim ? "true" : "false");
	for (int i = 0; i < NR_TABLE_KEYS; i++) {
		if (!strcmp(table_keys[i], "bloom_tests_pmd"))
			continue;
		json_figure(out, k, table_keys[i], AW_FIG_PASS, pass_metric(p, table_keys[i], &ok));
	}
	json_bloom_tests(out, k, (double)p->aw_stats[AW_WS_BLOOM_PMD], (double)p->aw_stats[AW_WS_BLOOM_PUD]);
	fprintf(out, ",\"evicted\":%lu,\"refaults\":%lu", (next ? next->evicted_at : ns->evicted) - p->evicted_at,
		(next ? next->refaults_at : ns->refaults) - p->refaults_at);
	/* only where the trace lost events: older readers see the same objects */
	fputs(p->unreliable ? ",\"unreliable\":true}" : "}", out);
}

static void json_evictions(FILE *out, const struct aw_node_stats *ns)
{
	fputs(",\"evictions\":[", out);
	for (int i = 0; i < ns->nr_evictions; i++) {
		const struct aw_eviction *e = &ns->evictions[i];

		fprintf(out, "%s{\"event\":%lu,\"memcg\":%d,\"seq\":%lu,\"max_seq\":%lu,"
			"\"min_seq_before\":[%lu,%lu],\"min_seq_after\":[%lu,%lu],\"evicted_pages\":%lu,"
			"\"refused\":%s}", i ? "," : "", e->event, e->memcg, e->seq, e->max_seq,
			e->min_seq_before[0], e->min_seq_before[1], e->min_seq_after[0], e->min_seq_after[1],
			e->evicted_pages, e->refused ? "true" : "false");
	}
	fputc(']', out);
}

static void json_node(FILE *out, const struct aw_kernel *k, int n)
{
	static const char *const keys[] = {
		"passes", "walks", "walks_with_leaves", "empty_walks", "forced_walks",
		"sticky_forced_walks", "leaf_total", "leaf_associated", "young", "nonleaf_found",
		"nonleaf_added", "pmd_entries_read", "pud_skipped", "promoted", "evicted",
		"evicted_pages", "single_touch_evicted", "hot_evicted", "refaults", "workingset_refaults",
		"oom_kills", "aging_refused",
	};
	const struct aw_node_stats *ns = &k->node_stats[n];
	bool ok;

	fprintf(out, "{\"node\":%d", n);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		json_figure(out, k, keys[i], AW_FIG_NODE, node_total(k, n, keys[i], &ok));
	json_bloom_tests(out, k, node_total(k, n, "bloom_tests_pmd", &ok), node_total(k, n, "bloom_tests_pud", &ok));
	fprintf(out, ",\"filter_fill\":{\"pmd\":%.0f,\"pud\":%.0f}",
		node_total(k, n, "filter_fill_pmd", &ok), node_total(k, n, "filter_fill_pud", &ok));
	{
		const struct aw_oracle_metrics *m = aw_oracle_metrics(k, n);

		if (measured(k, "suppressed_young", AW_FIG_NODE))
			fprintf(out, ",\"suppressed_young\":{\"region_passes\":%lu,\"longest_run\":%lu}"
				",\"bloom_false_positive\":%lu,\"feedback\":{\"kept\":%lu,\"lost\":%lu}",
				m->suppressed_young, m->suppressed_longest, m->bloom_false_positive,
				m->feedback_kept, m->feedback_lost);
		else
			fputs(",\"suppressed_young\":null,\"bloom_false_positive\":null,\"feedback\":null", out);
	}
	json_evictions(out, ns);
	fputs(",\"per_pass\":[", out);
	for (int p = 0; p < ns->nr_passes; p++) {
		if (p)
			fputc(',', out);
		json_pass(out, k, &ns->passes[p], p + 1 < ns->nr_passes ? &ns->passes[p + 1] : NULL, ns);
	}
	fputs("]}", out);
}

static void json_region(FILE *out, const struct aw_lockstep *ls, const struct aw_kernel *k, int r)
{
	const struct aw_region *reg = &k->regions[r];

	fputs("{\"name\":", out);
	aw_json_str(out, ls->sc->region_name ? ls->sc->region_name[r] : "");
	fprintf(out, ",\"resident\":%llu,\"per_pass\":[", (unsigned long long)reg->resident);
	for (int i = 0; i < reg->nr_passes; i++) {
		const struct aw_region_pass *rp = &reg->passes[i];

		fprintf(out, "%s{\"pass\":%d,\"node\":%d", i ? "," : "", rp->pass, rp->node);
		json_figure(out, k, "leaf_total", AW_FIG_REGION, (double)rp->leaf_total);
		json_figure(out, k, "young", AW_FIG_REGION, (double)rp->young);
		json_figure(out, k, "pmd_entries_read", AW_FIG_REGION, (double)rp->pmd_read);
		json_figure(out, k, "pud_skipped", AW_FIG_REGION, (double)rp->pud_skipped);
		fprintf(out, ",\"resident\":%llu}", (unsigned long long)rp->resident);
	}
	fputs("],\"samples\":[", out);
	for (int i = 0; i < reg->nr_samples; i++)
		fprintf(out, "%s{\"event\":%d,\"resident\":%llu}", i ? "," : "", reg->samples[i].pass,
			(unsigned long long)reg->samples[i].resident);
	fputs("]}", out);
}

/*
 * "known": the corpus/known-findings entry (as built in) that accepts the
 * finding's signature -- its reproducer, contract and explanation -- or
 * null for a signature nobody has explained yet.
 */
static void json_known(FILE *out, const struct aw_known_entry *e)
{
	if (!e) {
		fputs(",\"known\":null", out);
		return;
	}
	fputs(",\"known\":{\"reproducer\":", out);
	aw_json_str(out, e->reproducer);
	fputs(",\"contract\":", out);
	aw_json_str(out, e->contract);
	fputs(",\"explanation\":", out);
	aw_json_str(out, e->explanation);
	fputc('}', out);
}

/*
 * Region-passes where this variant's young count differs from base's, and
 * how many of them the scenario declared (expect ... young_diverges==1).
 */
static bool declared(const struct aw_lockstep *ls, int v, int region, int node, int pass)
{
	for (int i = 0; i < ls->sc->nr_expects; i++) {
		const struct aw_expect *e = &ls->sc->expects[i];

		if ((e->thp >= 0 && e->thp != ls->thp) || (e->var[0] && strcmp(e->var, ls->variant[v]->name)) ||
		    e->region != region + 1 || (e->node >= 0 && e->node != node) || !e->pass_lo ||
		    !pass_selected(e, pass))
			continue;
		for (int c = 0; c < e->nr_conds; c++)
			if (!strcmp(e->cond[c].key, "young_diverges") && e->cond[c].value == 1)
				return true;
	}
	return false;
}

static void json_divergences(FILE *out, const struct aw_lockstep *ls, int v)
{
	const struct aw_kernel *k = ls->k[v], *b = NULL;
	unsigned long met = 0, undeclared = 0;

	for (int i = 0; i < ls->nr_variants; i++)
		if (!strcmp(ls->variant[i]->name, "base"))
			b = ls->k[i];
	for (int r = 0; b && b != k && r < k->nr_regions; r++) {
		const struct aw_region *mine = &k->regions[r], *theirs = &b->regions[r];

		for (int i = 0; i < mine->nr_passes && i < theirs->nr_passes; i++) {
			const struct aw_region_pass *p = &mine->passes[i], *q = &theirs->passes[i];

			if (p->pass != q->pass || p->node != q->node || p->young == q->young)
				continue;
			if (declared(ls, v, r, p->node, p->pass))
				met++;
			else
				undeclared++;
		}
	}
	fprintf(out, ",\"young_divergences\":{\"declared_met\":%lu,\"undeclared\":%lu}", met, undeclared);
}

/*
 * A limited memcg's reclaim, event by event (memcg_events.h): the keys
 * agewalk-exec writes for a kernel (memory.stat's names), the ones the
 * model has; only in a run that limits a memcg.
 */
static void json_memcg_events(FILE *out, const struct aw_kernel *k)
{
	if (!k->nr_memcg_events)
		return;
	fputs(",\"memcg_events\":[", out);
	for (int i = 0; i < k->nr_memcg_events; i++) {
		const struct aw_memcg_event *r = &k->memcg_events[i];

		fprintf(out, "%s{\"event\":%llu,\"memcg\":%d,\"pgsteal\":%lu,\"workingset_refault_anon\":%lu,"
			"\"workingset_refault_file\":%lu,\"pgmajfault\":%lu,\"lru_gen\":[", i ? "," : "",
			(unsigned long long)r->event, r->memcg, r->d.pgsteal, r->d.workingset_refault[0],
			r->d.workingset_refault[1], r->d.pgmajfault);
		for (int g = 0; g < r->nr_gens; g++)
			fprintf(out, "%s[%lu,%lu,%lu,%lu]", g ? "," : "", r->gen[g][0], r->gen[g][1], r->gen[g][2],
				r->gen[g][3]);
		fputs("]}", out);
	}
	fputc(']', out);
}

void aw_report_json(FILE *out, const struct aw_lockstep *ls, const char *extra)
{
	struct aw_known known;
	char err[160], contract[160];
	bool have_known;

	fputs("{\"input\":", out);
	aw_json_str(out, ls->sc->path ? ls->sc->path : "-");
	fputs(",\"thp\":", out);
	aw_json_str(out, aw_thp_mode_name(ls->thp));
	fputs(",\"kernel\":", out);
	aw_json_str(out, aw_kernel_profile_name(ls->kernel));
	aw_empty_contract_format(&ls->empty, ' ', contract, sizeof(contract));
	fputs(",\"empty_contract\":", out);
	aw_json_str(out, contract);
	fprintf(out, ",\"events\":%zu,\"variants\":[", ls->events_applied);
	for (int v = 0; v < ls->nr_variants; v++) {
		const struct aw_kernel *k = ls->k[v];

		fprintf(out, "%s{\"name\":", v ? "," : "");
		aw_json_str(out, ls->variant[v]->name);
		fputs(",\"nodes\":[", out);
		for (int n = 0; n < k->nr_nodes; n++) {
			if (n)
				fputc(',', out);
			json_node(out, k, n);
		}
		fputs("],\"regions\":[", out);
		for (int r = 0; r < k->nr_regions; r++) {
			if (r)
				fputc(',', out);
			json_region(out, ls, k, r);
		}
		fprintf(out, "],\"ignored_events\":%lu", k->ignored_events);
		aw_report_text_ran_json(out, ls, v);
		aw_kh_report_json(out, k);
		json_divergences(out, ls, v);
		json_memcg_events(out, k);
		fputc('}', out);
	}
	fputs("],\"findings\":[", out);
	have_known = ls->nr_findings && !aw_known_parse(&known, aw_known_findings_text, err, sizeof(err));
	for (int i = 0; i < ls->nr_findings; i++) {
		const struct aw_lockstep_finding *f = &ls->findings[i];
		const struct aw_known_entry *e = have_known ? aw_known_find(&known, f->signature) : NULL;

		fprintf(out, "%s{\"oracle\":", i ? "," : "");
		aw_json_str(out, aw_oracle_name(f->oracle));
		fprintf(out, ",\"event\":%llu,\"line\":%u,\"variants\":", (unsigned long long)f->event,
			f->line);
		aw_json_str(out, f->variants);
		fputs(",\"event_text\":", out);
		aw_json_str(out, f->event_text);
		fputs(",\"signature\":", out);
		aw_json_str(out, f->signature);
		fputs(",\"cause\":", out);
		aw_json_str(out, f->cause);
		fputs(",\"explanation\":", out);
		aw_json_str(out, f->msg);
		json_known(out, e);
		fputc('}', out);
	}
	fputc(']', out);
	if (have_known)
		aw_known_free(&known);
	if (extra)
		fprintf(out, ",%s", extra);
	fputs("}\n", out);
}

/*
 * The finding lines, each with its signature, and for a signature in
 * corpus/known-findings (as built in) the reproducer and the contract it
 * was accepted under.
 */
void aw_report_findings(FILE *out, const struct aw_lockstep *ls)
{
	struct aw_known known;
	char err[160];
	bool have_known = ls->nr_findings && !aw_known_parse(&known, aw_known_findings_text, err, sizeof(err));

	for (int i = 0; i < ls->nr_findings; i++) {
		const struct aw_known_entry *e;
		const struct aw_lockstep_finding *f = &ls->findings[i];

		fprintf(out, "finding: %s at event %llu (%s:%u: %s) [%s]: %s\n", aw_oracle_name(f->oracle),
			(unsigned long long)f->event, ls->sc->path ? ls->sc->path : "-", f->line,
			f->event_text, f->variants, f->msg);
		fprintf(out, "  signature: %s\n", f->signature);
		if (have_known && (e = aw_known_find(&known, f->signature)))
			fprintf(out, "  known finding: %s (contract: %s)\n", e->reproducer, e->contract);
	}
	if (have_known)
		aw_known_free(&known);
}

/* ---- expectations ----------------------------------------------------- */

static bool compare(double got, enum aw_cmp op, double want)
{
	switch (op) {
	case AW_CMP_EQ: return fabs(got - want) < 1e-9;
	case AW_CMP_NE: return fabs(got - want) >= 1e-9;
	case AW_CMP_LE: return got <= want + 1e-9;
	case AW_CMP_GE: return got >= want - 1e-9;
	case AW_CMP_LT: return got < want;
	default: return got > want;
	}
}

static const char *op_name(enum aw_cmp op)
{
	static const char *const names[] = { "==", "!=", "<=", ">=", "<", ">" };

	return names[op];
}

static bool pass_selected(const struct aw_expect *e, int pass)
{
	return pass >= e->pass_lo && (e->pass_hi < 0 || pass <= e->pass_hi);
}

/* The same place in base's run: same node, pass number and region. */
static bool base_src(const struct aw_lockstep *ls, const struct aw_src *s, int node, int pass,
		     int region, struct aw_src *b)
{
	const struct aw_kernel *k = NULL;

	/* the baseline: base, or khugepaged-base in a khugepaged comparison */
	for (int v = 0; v < ls->nr_variants; v++)
		if (!strcmp(ls->variant[v]->name, "base"))
			k = ls->k[v];
	for (int v = 0; !k && v < ls->nr_variants; v++)
		if (!strcmp(ls->variant[v]->name, "khugepaged-base"))
			k = ls->k[v];
	if (!k)
		return false;
	memset(b, 0, sizeof(*b));
	b->k = k;
	b->node = node;
	if (s->rpass) {
		const struct aw_region *r = &k->regions[region - 1];

		for (int i = 0; i < r->nr_passes; i++)
			if (r->passes[i].node == node && r->passes[i].pass == pass)
				b->rpass = &r->passes[i];
		return b->rpass != NULL;
	}
	if (s->region) {
		b->region = &k->regions[region - 1];
		return true;
	}
	if (s->pass) {
		const struct aw_node_stats *ns = &k->node_stats[node];

		for (int i = 0; i < ns->nr_passes; i++)
			if (ns->passes[i].pass == pass)
				b->pass = &ns->passes[i];
		return b->pass != NULL;
	}
	return true;
}

/*
 * A condition's value.  "ratio_KEY" is this variant's KEY over base's KEY at
 * the same node, pass and region (1 when both are 0), which is how a
 * scenario states "drops by 90%" or "within 5% of base".
 */
static double cond_value(const struct aw_lockstep *ls, const struct aw_src *s, const char *key,
			 int node, int pass, int region, bool *ok)
{
	struct aw_src b;
	double mine, theirs;

	/*
	 * "young_diverges": 1 when this variant found a different number of
	 * young leaves than base at the same place -- how a scenario declares
	 * a divergence the design accepts (the S4 and S12 scenario files say so).
	 */
	if (!strcmp(key, "young_diverges")) {
		mine = metric(s, "young", ok);
		if (!*ok || !(*ok = base_src(ls, s, node, pass, region, &b)))
			return 0;
		return metric(&b, "young", ok) != mine;
	}
	if (strncmp(key, "ratio_", 6))
		return metric(s, key, ok);
	mine = metric(s, key + 6, ok);
	if (!*ok || !(*ok = base_src(ls, s, node, pass, region, &b)))
		return 0;
	theirs = metric(&b, key + 6, ok);
	if (theirs == 0)
		return mine == 0 ? 1 : HUGE_VAL;
	return mine / theirs;
}

/* Whether the source's variant counts what the condition reads (ratio_KEY: KEY; young_diverges: young). */
static bool cond_measured(const struct aw_src *s, const char *key)
{
	if (!strcmp(key, "young_diverges"))
		key = "young";
	else if (!strncmp(key, "ratio_", 6))
		key += 6;
	return measured(s->k, key, s->rpass || s->region ? AW_FIG_REGION : s->pass ? AW_FIG_PASS : AW_FIG_NODE);
}

/* Check every condition of e against one source; print failures. */
static int check_src(FILE *out, const struct aw_lockstep *ls, const struct aw_expect *e, const char *var,
		     int node, int pass, const struct aw_src *s)
{
	int fails = 0;

	for (int c = 0; c < e->nr_conds; c++) {
		const struct aw_expect_cond *cond = &e->cond[c];
		bool ok;
		double got = cond_value(ls, s, cond->key, node, pass, e->region, &ok);

		if (!ok) {
			fprintf(out, "%s:%d:%d: unknown metric '%s' here\n", ls->sc->path, e->line,
				cond->col, cond->key);
			fails++;
		} else if (!cond_measured(s, cond->key)) {
			fprintf(out, "%s:%d:%d: %s does not count '%s' (var=%s)\n", ls->sc->path, e->line,
				cond->col, s->k->mglru->name, cond->key, var);
			fails++;
		} else if (!compare(got, cond->op, cond->value)) {
			fprintf(out, "%s:%d:%d: expect failed (thp=%s var=%s node=%d%s%.0d): %s %s %g, got %g\n",
				ls->sc->path, e->line, cond->col, aw_thp_mode_name(ls->thp), var, node,
				pass ? " pass=" : "", pass, cond->key, op_name(cond->op), cond->value, got);
			fails++;
		}
	}
	return fails;
}

static int check_one(FILE *out, const struct aw_lockstep *ls, const struct aw_expect *e, int v, int n)
{
	const struct aw_kernel *k = ls->k[v];
	const char *var = ls->variant[v]->name;
	int fails = 0, matched = 0;

	if (e->region) {
		const struct aw_region *reg = &k->regions[e->region - 1];

		if (!e->pass_lo) {
			struct aw_src s = { .k = k, .node = n, .region = reg };

			return check_src(out, ls, e, var, n, 0, &s);
		}
		for (int i = 0; i < reg->nr_passes; i++) {
			struct aw_src s = { .k = k, .node = n, .rpass = &reg->passes[i] };

			if (reg->passes[i].node != n || !pass_selected(e, reg->passes[i].pass))
				continue;
			matched++;
			fails += check_src(out, ls, e, var, n, reg->passes[i].pass, &s);
		}
	} else {
		const struct aw_node_stats *ns = &k->node_stats[n];

		if (!e->pass_lo) {
			struct aw_src s = { .k = k, .node = n };

			return check_src(out, ls, e, var, n, 0, &s);
		}
		for (int i = 0; i < ns->nr_passes; i++) {
			struct aw_src s = { .k = k, .node = n, .pass = &ns->passes[i] };

			if (!pass_selected(e, ns->passes[i].pass))
				continue;
			matched++;
			fails += check_src(out, ls, e, var, n, ns->passes[i].pass, &s);
		}
	}
	if (!matched) {
		fprintf(out, "%s:%d: expect failed (thp=%s var=%s node=%d): no pass %d%s on this node\n",
			ls->sc->path, e->line, aw_thp_mode_name(ls->thp), var, n, e->pass_lo,
			e->pass_hi < 0 ? ".." : "");
		fails++;
	}
	return fails;
}

int aw_check_expectations(FILE *out, const struct aw_lockstep *ls)
{
	int fails = 0;

	for (int i = 0; i < ls->sc->nr_expects; i++) {
		const struct aw_expect *e = &ls->sc->expects[i];

		if (e->thp >= 0 && e->thp != ls->thp)
			continue;
		for (int v = 0; v < ls->nr_variants; v++) {
			if (e->var[0] && strcmp(e->var, ls->variant[v]->name))
				continue;
			for (int n = 0; n < ls->k[v]->nr_nodes; n++) {
				if (e->node >= 0 && e->node != n)
					continue;
				fails += check_one(out, ls, e, v, n);
			}
		}
	}
	return fails;
}
