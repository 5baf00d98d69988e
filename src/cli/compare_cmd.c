// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk compare MODEL.json KERNEL.json: the model's run of a scenario
 * (`agewalk run --json`) beside a real kernel's run of the same scenario
 * (`agewalk-exec --json`, docs/lab.md), per node and pass, each figure
 * judged against its tolerance (compare_tol.h).
 *
 * Both files use the same keys; the kernel's file has null wherever the
 * kernel has no such figure.  A null is shown as "-" and counted as not
 * measured -- never as agreement.  The comparison is only meaningful when
 * the model followed the rules of the kernel that ran (`--kernel 6.1` for
 * a 6.1 kernel), so a mismatch of profiles is refused.
 *
 * Exit status: 0 every measured figure within tolerance, 1 a figure
 * outside, passes that exist on one side only, or nothing measured at all,
 * 2 bad usage or input that is not agewalk JSON.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_tol.h"

#define AW_CMP_MAX_BYTES	(1UL << 30)	/* a run's JSON; a replay's is megabytes */

struct aw_cmp_run {
	const char *path;
	json_object *root;
	json_object *variant;	/* the variant compared */
	char profile[64];	/* "6.1", "6.12", "mainline", or a release the model has none for */
};

struct aw_cmp_tally {
	unsigned long compared, outside, unmeasured, missing;
};

/* Short column names, as `agewalk run` prints them. */
static const char *label(const char *key)
{
	static const char *const map[][2] = {
		{ "leaf_total", "T" }, { "young", "Y" }, { "nonleaf_found", "F" },
		{ "nonleaf_added", "A" }, { "pmd_entries_read", "P" }, { "pud_skipped", "S" },
		{ "promoted", "promo" }, { "walks_with_leaves", "w/leaf" }, { "empty_walks", "empty" },
		{ "forced_walks", "forced" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], key))
			return map[i][1];
	return key;
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static bool is_number(json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double));
}

static bool trailing(const char *buf, size_t len, size_t end)
{
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]))
			return true;
	return false;
}

/* Parse path as JSON, a position in the message when it is not. */
static json_object *parse(const char *path, char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *root = NULL;
	size_t len = 0;
	char *buf = (char *)aw_slurp(path, AW_CMP_MAX_BYTES, &len);

	if (!buf)
		snprintf(err, errlen, "cannot open: %m");
	else if (!len)
		snprintf(err, errlen, "empty file");
	else if (!tok)
		snprintf(err, errlen, "out of memory");
	else {
		root = json_tokener_parse_ex(tok, buf, (int)len);
		if (root && trailing(buf, len, json_tokener_get_parse_end(tok))) {
			snprintf(err, errlen, "byte %zu: data after the JSON value", json_tokener_get_parse_end(tok));
			json_object_put(root);
			root = NULL;
		} else if (!root) {
			enum json_tokener_error e = json_tokener_get_error(tok);

			snprintf(err, errlen, "byte %zu: %s", json_tokener_get_parse_end(tok),
				 e == json_tokener_continue ? "truncated JSON" : json_tokener_error_desc(e));
		}
	}
	json_tokener_free(tok);
	free(buf);
	return root;
}

/* "6.1.0-57-cloud-amd64" and "6.1" are both the 6.1 profile. */
static void profile_of(const char *kernel, char *out, size_t outlen)
{
	int p = aw_kernel_release_profile(kernel);

	snprintf(out, outlen, "%s", p >= 0 ? aw_kernel_profile_name((enum aw_kernel_profile)p) : kernel);
}

static json_object *find_variant(json_object *root, const char *name)
{
	json_object *vars = get(root, "variants");
	size_t n = json_object_is_type(vars, json_type_array) ? json_object_array_length(vars) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *v = json_object_array_get_idx(vars, i);
		json_object *vn = get(v, "name");

		if (!name || (vn && !strcmp(json_object_get_string(vn), name)))
			return v;
	}
	return NULL;
}

static int load(struct aw_cmp_run *r, const char *variant)
{
	char err[256];
	json_object *k;

	r->root = parse(r->path, err, sizeof(err));
	if (!r->root) {
		fprintf(stderr, "agewalk compare: %s: %s\n", r->path, err);
		return -1;
	}
	k = get(r->root, "kernel");
	if (!json_object_is_type(r->root, json_type_object) || !json_object_is_type(k, json_type_string) ||
	    !json_object_is_type(get(r->root, "variants"), json_type_array)) {
		fprintf(stderr, "agewalk compare: %s: not agewalk JSON (no \"kernel\" and \"variants\")\n",
			r->path);
		return -1;
	}
	/* a kernel's run names its release: its rules are that release's, whatever profile the executor assumed */
	if (json_object_is_type(get(r->root, "release"), json_type_string))
		k = get(r->root, "release");
	profile_of(json_object_get_string(k), r->profile, sizeof(r->profile));
	r->variant = find_variant(r->root, variant);
	if (!r->variant) {
		fprintf(stderr, "agewalk compare: %s: no variant %s\n", r->path, variant ? variant : "at all");
		return -1;
	}
	return 0;
}

static const char *input_name(const struct aw_cmp_run *r)
{
	const char *in = json_object_get_string(get(r->root, "input"));
	const char *slash = in ? strrchr(in, '/') : NULL;

	return slash ? slash + 1 : in ? in : "?";
}

/* The same scenario, under the same kernel's rules; else comparing means nothing. */
static int check_pair(const struct aw_cmp_run *m, const struct aw_cmp_run *k)
{
	int p = aw_kernel_profile_parse(k->profile);
	char releases[128];

	if (p < 0 || !aw_kernel_profile_numbered((enum aw_kernel_profile)p)) {
		fprintf(stderr, "agewalk compare: %s ran on %s: the model has profiles for %s only\n", k->path,
			k->profile, aw_kernel_release_list(releases, sizeof(releases), true, ", ", " and "));
		return -1;
	}
	if (strcmp(m->profile, k->profile)) {
		fprintf(stderr, "agewalk compare: %s ran the %s profile, %s ran on %s: rerun the model with --kernel %s\n",
			m->path, m->profile, k->path, k->profile, k->profile);
		return -1;
	}
	if (strcmp(input_name(m), input_name(k))) {
		fprintf(stderr, "agewalk compare: %s is a run of %s, %s of %s\n", m->path, input_name(m), k->path,
			input_name(k));
		return -1;
	}
	return 0;
}

/* One figure: the cell, and the tally.  A kernel null is "-", never agreement. */
static void cell(const struct aw_tols *tols, const char *key, json_object *mv, json_object *kv, double walks,
		 struct aw_cmp_tally *t)
{
	const struct aw_tol *tol = aw_tols_find(tols, key);
	char mark = ' ';

	if (!is_number(kv)) {
		printf(" %9s %9s ", is_number(mv) ? json_object_get_string(mv) : "-", "-");
		t->unmeasured += is_number(mv);
		return;
	}
	if (!is_number(mv)) {
		printf(" %9s %9s ", "-", json_object_get_string(kv));
		return;
	}
	if (tol) {
		t->compared++;
		if (!aw_tol_within(tol, json_object_get_double(mv), json_object_get_double(kv), walks)) {
			mark = '!';
			t->outside++;
		}
	}
	printf(" %9s %9s%c", json_object_get_string(mv), json_object_get_string(kv), mark);
}

/* The per-pass keys the kernel measured in some pass of this node, in the model's order. */
static int pass_keys(json_object *mpp, json_object *kpp, const char **keys, int max)
{
	json_object *first = json_object_array_length(mpp) ? json_object_array_get_idx(mpp, 0) : NULL;
	int nr = 0;

	if (!first)
		return 0;
	json_object_object_foreach(first, key, val) {
		if (!is_number(val) || !strcmp(key, "pass") || !strcmp(key, "event") || nr == max)
			continue;
		for (size_t i = 0; i < json_object_array_length(kpp); i++)
			if (is_number(get(json_object_array_get_idx(kpp, i), key))) {
				keys[nr++] = key;
				break;
			}
	}
	return nr;
}

static void header(const char **keys, int nr, bool by_event)
{
	printf("  pass  ");
	for (int i = 0; i < nr; i++)
		printf(" %9s %9s ", label(keys[i]), "kernel");
	/* one word: tools/agewalk-lab's `known` reads the header's pairs only */
	printf("%s\n", by_event ? "  cause" : "");
}

/* Whether every pass of the array says which event caused it. */
static bool have_events(json_object *pp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_number(get(json_object_array_get_idx(pp, i), "event")))
			return false;
	return true;
}

/* "age@E" or "reclaim@E": what caused a pass, as compare pairs them */
static void cause(json_object *p)
{
	printf("  %s@%lld", json_object_get_boolean(get(p, "reclaim")) ? "reclaim" : "age",
	       (long long)json_object_get_int64(get(p, "event")));
}

/*
 * The next pair of passes, from positions *i (model) and *j (kernel).
 * Paired by cause when both sides say it: a memcg limit's reclaim ages on
 * its own, as often as the lruvec runs out of generations, so that one
 * kernel may run a pass the other does not and every later pass would be
 * off by one if they were paired by position.  Both arrays are in event
 * order; within an event the k-th pass of one side meets the k-th of the
 * other, and a pass of an event the other side has no pass for is on one
 * side only.  Files from before the records are paired by position.
 */
static void next_pair(json_object *mpp, size_t nm, json_object *kpp, size_t nk, bool by_event, size_t *i,
		      size_t *j, json_object **mp, json_object **kp)
{
	*mp = *i < nm ? json_object_array_get_idx(mpp, *i) : NULL;
	*kp = *j < nk ? json_object_array_get_idx(kpp, *j) : NULL;
	if (by_event && *mp && *kp) {
		long long em = json_object_get_int64(get(*mp, "event"));
		long long ek = json_object_get_int64(get(*kp, "event"));

		if (em < ek)
			*kp = NULL;
		else if (ek < em)
			*mp = NULL;
	}
	*i += *mp != NULL;
	*j += *kp != NULL;
}

static void passes(const struct aw_tols *tols, json_object *mn, json_object *kn, struct aw_cmp_tally *t)
{
	json_object *mpp = get(mn, "per_pass"), *kpp = get(kn, "per_pass");
	size_t nm = json_object_is_type(mpp, json_type_array) ? json_object_array_length(mpp) : 0;
	size_t nk = json_object_is_type(kpp, json_type_array) ? json_object_array_length(kpp) : 0;
	bool by_event = have_events(mpp, nm) && have_events(kpp, nk);
	const char *keys[32];
	int nr = nm && nk ? pass_keys(mpp, kpp, keys, 32) : 0;
	size_t i = 0, j = 0;

	if (nr)
		header(keys, nr, by_event);
	for (size_t row = 1; i < nm || j < nk; row++) {
		json_object *mp, *kp;

		next_pair(mpp, nm, kpp, nk, by_event, &i, &j, &mp, &kp);
		if (!mp || !kp) {
			printf("  %-6zu only in the %s", row, mp ? "model" : "kernel");
			if (by_event)
				cause(mp ? mp : kp);
			printf("\n");
			t->missing++;
			continue;
		}
		printf("  %-6zu", row);
		for (int c = 0; c < nr; c++)
			cell(tols, keys[c], get(mp, keys[c]), get(kp, keys[c]),
			     json_object_get_double(get(mp, "walks")), t);
		if (by_event)
			cause(mp);
		printf("\n");
	}
}

/* Node totals the kernel can know exactly or by counting: passes, refusals, evictions. */
static void node_totals(const struct aw_tols *tols, json_object *mn, json_object *kn, struct aw_cmp_tally *t)
{
	static const char *const keys[] = { "passes", "aging_refused", "evicted", "evicted_pages", "refaults",
					    "workingset_refaults" };

	printf("  total ");
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		printf(" %s", keys[i]);
		cell(tols, keys[i], get(mn, keys[i]), get(kn, keys[i]), 0, t);
	}
	printf("\n");
}

/* "a/f" of a [anon, file] pair of generations */
static void gens(json_object *pair, char *buf, size_t len)
{
	if (!json_object_is_type(pair, json_type_array) || json_object_array_length(pair) != 2)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%lld/%lld", (long long)json_object_get_int64(json_object_array_get_idx(pair, 0)),
			 (long long)json_object_get_int64(json_object_array_get_idx(pair, 1)));
}

/*
 * Each `evict`, in order: the pages it reclaimed (compared) and the
 * generations it saw, min_seq anon/file before and after (shown, so that a
 * difference in what was evicted can be read back to which generation the
 * two were in).
 */
static void evictions(const struct aw_tols *tols, json_object *mn, json_object *kn, struct aw_cmp_tally *t)
{
	json_object *me = get(mn, "evictions"), *ke = get(kn, "evictions");
	size_t nm = json_object_is_type(me, json_type_array) ? json_object_array_length(me) : 0;
	size_t nk = json_object_is_type(ke, json_type_array) ? json_object_array_length(ke) : 0;

	/* a run from before the records has no array: nothing to compare, not a difference */
	if (!json_object_is_type(me, json_type_array) || !json_object_is_type(ke, json_type_array) || (!nm && !nk))
		return;
	printf("  evict  %5s %4s %9s %9s  %11s %11s  %11s %11s\n", "event", "seq", "pages", "kernel",
	       "min_seq", "kernel", "after", "kernel");
	for (size_t i = 0; i < (nm > nk ? nm : nk); i++) {
		json_object *m = i < nm ? json_object_array_get_idx(me, i) : NULL;
		json_object *k = i < nk ? json_object_array_get_idx(ke, i) : NULL;
		char g[4][32];

		if (!m || !k) {
			printf("  %-6zu only in the %s\n", i + 1, m ? "model" : "kernel");
			t->missing++;
			continue;
		}
		gens(get(m, "min_seq_before"), g[0], sizeof(g[0]));
		gens(get(k, "min_seq_before"), g[1], sizeof(g[1]));
		gens(get(m, "min_seq_after"), g[2], sizeof(g[2]));
		gens(get(k, "min_seq_after"), g[3], sizeof(g[3]));
		printf("  %-6zu %5lld %4lld", i + 1, (long long)json_object_get_int64(get(m, "event")),
		       (long long)json_object_get_int64(get(m, "seq")));
		cell(tols, "evicted_pages", get(m, "evicted_pages"), get(k, "evicted_pages"), 0, t);
		printf(" %11s %11s  %11s %11s\n", g[0], g[1], g[2], g[3]);
	}
}

static json_object *node_of(json_object *variant, json_object *node)
{
	json_object *nodes = get(variant, "nodes");
	size_t n = json_object_is_type(nodes, json_type_array) ? json_object_array_length(nodes) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(nodes, i);

		if (json_object_get_int64(get(x, "node")) == json_object_get_int64(node))
			return x;
	}
	return NULL;
}

static void nodes(const struct aw_tols *tols, json_object *mv, json_object *kv, struct aw_cmp_tally *t)
{
	json_object *mnodes = get(mv, "nodes");
	size_t n = json_object_is_type(mnodes, json_type_array) ? json_object_array_length(mnodes) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *mn = json_object_array_get_idx(mnodes, i);
		json_object *kn = node_of(kv, get(mn, "node"));

		printf("\nnode %lld: model %lld passes, kernel ", (long long)json_object_get_int64(get(mn, "node")),
		       (long long)json_object_get_int64(get(mn, "passes")));
		if (!kn) {
			printf("no such node\n");
			t->missing++;
			continue;
		}
		printf("%lld\n", (long long)json_object_get_int64(get(kn, "passes")));
		passes(tols, mn, kn, t);
		node_totals(tols, mn, kn, t);
		evictions(tols, mn, kn, t);
	}
}

static json_object *region_of(json_object *variant, const char *name)
{
	json_object *regs = get(variant, "regions");
	size_t n = json_object_is_type(regs, json_type_array) ? json_object_array_length(regs) : 0;

	for (size_t i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(regs, i);

		if (!strcmp(json_object_get_string(get(r, "name")), name))
			return r;
	}
	return NULL;
}

/* Residency at the end of the run, per named region. */
static void regions(const struct aw_tols *tols, json_object *mv, json_object *kv, struct aw_cmp_tally *t)
{
	json_object *regs = get(mv, "regions");
	size_t n = json_object_is_type(regs, json_type_array) ? json_object_array_length(regs) : 0;

	if (n)
		printf("\nregion     %9s %9s  %9s %9s\n", "resident", "kernel", "swapped", "kernel");
	for (size_t i = 0; i < n; i++) {
		json_object *mr = json_object_array_get_idx(regs, i);
		const char *name = json_object_get_string(get(mr, "name"));
		json_object *kr = region_of(kv, name);

		printf("%-10s", name);
		cell(tols, "resident", get(mr, "resident"), get(kr, "resident"), 0, t);
		cell(tols, "swapped", get(mr, "swapped"), get(kr, "swapped"), 0, t);
		printf("\n");
	}
}

/* What the executor could not do, as it wrote it: never hidden. */
static void notes(const struct aw_cmp_run *k)
{
	json_object *ns = get(k->root, "notes");
	size_t n = json_object_is_type(ns, json_type_array) ? json_object_array_length(ns) : 0;

	if (n)
		printf("\nkernel notes:\n");
	for (size_t i = 0; i < n; i++) {
		json_object *x = json_object_array_get_idx(ns, i);
		json_object *text = get(x, "text");

		if (!text) {
			printf("  %s\n", json_object_get_string(x));
			continue;
		}
		if (json_object_get_int64(get(x, "event")) >= 0)
			printf("  event %lld (line %lld): ", (long long)json_object_get_int64(get(x, "event")),
			       (long long)json_object_get_int64(get(x, "line")));
		else
			printf("  ");
		printf("%s: %s\n", json_object_get_string(get(x, "kind")), json_object_get_string(text));
	}
}

/* The record of (event, memcg) at *i of arr, or NULL when the next one is later. */
static json_object *mce_at(json_object *arr, size_t n, size_t *i, long long ev, long long mc)
{
	json_object *r = *i < n ? json_object_array_get_idx(arr, *i) : NULL;

	if (!r || json_object_get_int64(get(r, "event")) != ev || json_object_get_int64(get(r, "memcg")) != mc)
		return NULL;
	++*i;
	return r;
}

/* a record's refaults, anon and file; 0 where there is no record (nothing moved) */
static json_object *mce_refaults(json_object *r)
{
	return json_object_new_int64(r ? json_object_get_int64(get(r, "workingset_refault_anon")) +
					 json_object_get_int64(get(r, "workingset_refault_file")) : 0);
}

static json_object *mce_get(json_object *r, const char *key)
{
	return r ? json_object_get(get(r, key)) : json_object_new_int64(0);
}

/*
 * A limited memcg's reclaim event by event (memcg_events: agewalk-exec's
 * memory.stat differences, the model's own record of the same counters),
 * paired by event and memcg; an event one side has no record of moved
 * nothing there, so it is compared with 0.  pgsteal and the refaults are
 * judged with their per-event tolerances (compare_tol.c), major
 * faults shown only (the kernel's readahead makes a file re-read's
 * faults minor where the model's are not).  The first event outside
 * tolerance is named: where the two parted, which a total cannot say.
 */
static void memcg_events(const struct aw_tols *tols, json_object *mv, json_object *kroot, struct aw_cmp_tally *t)
{
	json_object *me = get(mv, "memcg_events"), *ke = get(kroot, "memcg_events");
	size_t nm = json_object_is_type(me, json_type_array) ? json_object_array_length(me) : 0;
	size_t nk = json_object_is_type(ke, json_type_array) ? json_object_array_length(ke) : 0;
	size_t i = 0, j = 0;
	long long first = -1;

	if (!nm || !json_object_is_type(ke, json_type_array))
		return;
	printf("\nmemcg events: a limited memcg's reclaim, event by event\n");
	printf("  event memcg %9s %9s  %9s %9s  %9s %9s\n", "pgsteal", "kernel", "refaults", "kernel",
	       "majfault", "kernel");
	while (i < nm || j < nk) {
		json_object *a = i < nm ? json_object_array_get_idx(me, i) : NULL;
		json_object *b = j < nk ? json_object_array_get_idx(ke, j) : NULL;
		long long ea = a ? json_object_get_int64(get(a, "event")) : -1, eb = b ? json_object_get_int64(get(b, "event")) : -1;
		long long ca = a ? json_object_get_int64(get(a, "memcg")) : -1, cb = b ? json_object_get_int64(get(b, "memcg")) : -1;
		bool take_a = a && (!b || ea < eb || (ea == eb && ca <= cb));
		long long ev = take_a ? ea : eb, mc = take_a ? ca : cb;
		json_object *mr = mce_at(me, nm, &i, ev, mc), *kr = mce_at(ke, nk, &j, ev, mc);
		json_object *x[6] = { mce_get(mr, "pgsteal"), mce_get(kr, "pgsteal"), mce_refaults(mr),
				      mce_refaults(kr), mce_get(mr, "pgmajfault"), mce_get(kr, "pgmajfault") };
		unsigned long outside = t->outside;

		printf("  %5lld %5lld", ev, mc);
		cell(tols, "pgsteal", x[0], x[1], 0, t);
		printf(" ");
		cell(tols, "workingset_refault", x[2], x[3], 0, t);
		printf(" ");
		cell(tols, "pgmajfault", x[4], x[5], 0, t);
		printf("\n");
		if (first < 0 && t->outside != outside)
			first = ev;
		for (int n = 0; n < 6; n++)
			json_object_put(x[n]);
	}
	if (first >= 0)
		printf("  first event apart: %lld\n", first);
}

/* ---- khugepaged: the model's block beside the kernel's tracepoints' ---- */

static bool kh_active(json_object *kh)
{
	static const char *const keys[] = { "wakeups", "calls", "madv_collapsed", "collapsed" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (json_object_get_int64(get(kh, keys[i])) > 0)
			return true;
	return false;
}

static void kh_row(const struct aw_tols *tols, const char *label, const char *tol, json_object *mv, json_object *kv,
		   struct aw_cmp_tally *t)
{
	printf("  %-28s", label);
	cell(tols, tol, mv, kv, 0, t);
	printf("\n");
}

/* ranges by the model's result name: the union of both sides' names, a missing one 0 */
static void kh_ranges(const struct aw_tols *tols, json_object *mr, json_object *kr, struct aw_cmp_tally *t)
{
	json_object *zero = json_object_new_int64(0);
	char label[64];

	if (json_object_is_type(mr, json_type_object)) {
		json_object_object_foreach(mr, key, val) {
			json_object *k = !json_object_is_type(kr, json_type_object) ? NULL : get(kr, key) ? get(kr, key) : zero;

			snprintf(label, sizeof(label), "ranges %s", key);
			kh_row(tols, label, "kh_ranges", val, k, t);
		}
	}
	if (json_object_is_type(kr, json_type_object)) {
		json_object_object_foreach(kr, key2, val2) {
			if (get(mr, key2))
				continue;
			snprintf(label, sizeof(label), "ranges %s", key2);
			kh_row(tols, label, "kh_ranges", zero, val2, t);
		}
	}
	json_object_put(zero);
}

/*
 * Progress of each full scan, in order; a kernel without the series has
 * null (not measured); a full scan one side did not finish shows "-" there
 * (the full_scans row judges that).
 */
static void kh_per_full_scan(const struct aw_tols *tols, json_object *ma, json_object *ka, struct aw_cmp_tally *t)
{
	bool karr = json_object_is_type(ka, json_type_array);
	size_t nm = json_object_is_type(ma, json_type_array) ? json_object_array_length(ma) : 0;
	size_t nk = karr ? json_object_array_length(ka) : 0;
	char label[64];

	for (size_t i = 0; i < (nm > nk ? nm : nk); i++) {
		snprintf(label, sizeof(label), "progress, full scan %zu", i + 1);
		kh_row(tols, label, "kh_progress_per_full_scan", i < nm ? json_object_array_get_idx(ma, i) : NULL,
		       i < nk ? json_object_array_get_idx(ka, i) : NULL, t);
	}
}

/* The kernel's wake-ups one by one: progress (null without the series' event), F = a full scan ended, s = spontaneous. */
static void kh_wakeups(json_object *lab)
{
	json_object *pw = get(lab, "per_wakeup");
	size_t n = json_object_is_type(pw, json_type_array) ? json_object_array_length(pw) : 0;

	if (!lab)
		return;
	printf("  kernel: %lld wake-ups commanded, %lld on its own clock; other mms: %lld calls, progress %lld, %lld ranges\n",
	       (long long)json_object_get_int64(get(lab, "commanded_wakeups")),
	       (long long)json_object_get_int64(get(lab, "spontaneous_wakeups")),
	       (long long)json_object_get_int64(get(get(lab, "other_mms"), "calls")),
	       (long long)json_object_get_int64(get(get(lab, "other_mms"), "progress")),
	       (long long)json_object_get_int64(get(get(lab, "other_mms"), "ranges")));
	if (!n)
		return;
	printf("  kernel progress per wake-up (F full scan ended, s spontaneous):");
	for (size_t i = 0; i < n && i < 32; i++) {
		json_object *w = json_object_array_get_idx(pw, i);

		printf(" %s%s%s", is_number(get(w, "progress")) ? json_object_get_string(get(w, "progress")) : "-",
		       json_object_get_boolean(get(w, "full_scan_finished")) ? "F" : "",
		       json_object_get_boolean(get(w, "spontaneous")) ? "s" : "");
	}
	printf("%s\n", n > 32 ? " ..." : "");
}

/*
 * khugepaged: the model's figures (its "khugepaged" block) beside the
 * kernel's (agewalk-exec's, from the huge_memory tracepoints), when either
 * did anything; judged with the kh_* tolerances.  A model patched and a
 * kernel without the series (or the other way) is said: their figures are
 * not meant to agree.
 */
static void khugepaged(const struct aw_tols *tols, json_object *mv, json_object *kv, struct aw_cmp_tally *t)
{
	static const struct { const char *key, *tol; } rows[] = {
		{ "wakeups", "kh_wakeups" }, { "calls", "kh_calls" }, { "progress", "kh_progress" },
		{ "full_scans", "kh_full_scans" }, { "collapsed", "kh_collapsed" },
		{ "madv_collapsed", "kh_madv_collapsed" }, { "lazyfree_skips", "kh_lazyfree_skips" },
	};
	json_object *mk = get(mv, "khugepaged"), *kk = get(kv, "khugepaged");
	struct aw_cmp_tally before = *t;
	json_object *mp = get(mk, "patched"), *kp = get(kk, "patched");

	if (!mk || !kk || (!kh_active(mk) && !kh_active(kk)))
		return;
	printf("\nkhugepaged: model %s vs kernel %s\n",
	       json_object_get_boolean(mp) ? "patched" : "base",
	       !kp || json_object_is_type(kp, json_type_null) ? "(not traced)" :
	       json_object_get_boolean(kp) ? "with the series (mm_khugepaged_scan)" : "without the series");
	if (kp && !json_object_is_type(kp, json_type_null) && json_object_get_boolean(mp) != json_object_get_boolean(kp))
		printf("  note: the model's khugepaged is %s, the kernel's %s: these figures are not meant to agree\n",
		       json_object_get_boolean(mp) ? "patched" : "base", json_object_get_boolean(kp) ? "patched" : "base");
	printf("  %-28s %9s %9s\n", "", "model", "kernel");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		kh_row(tols, rows[i].key, rows[i].tol, get(mk, rows[i].key), get(kk, rows[i].key), t);
	kh_ranges(tols, get(mk, "ranges"), get(kk, "ranges"), t);
	kh_per_full_scan(tols, get(mk, "progress_per_full_scan"), get(kk, "progress_per_full_scan"), t);
	kh_wakeups(get(kk, "lab"));
	printf("  judgement: %lu figures compared, %lu within tolerance, %lu outside, %lu not measured by the kernel\n",
	       t->compared - before.compared, (t->compared - before.compared) - (t->outside - before.outside),
	       t->outside - before.outside, t->unmeasured - before.unmeasured);
}

static int report(const struct aw_cmp_run *m, const struct aw_cmp_run *k, const struct aw_tols *tols)
{
	struct aw_cmp_tally t = { 0 };
	json_object *rel = get(k->root, "release");

	printf("agewalk compare %s: model %s (profile %s) vs kernel %s\n", input_name(m),
	       json_object_get_string(get(m->variant, "name")), m->profile,
	       rel ? json_object_get_string(rel) : json_object_get_string(get(k->root, "kernel")));
	printf("each figure: model, kernel; '!' outside tolerance, '-' not measured\n");
	nodes(tols, m->variant, k->variant, &t);
	regions(tols, m->variant, k->variant, &t);
	memcg_events(tols, m->variant, k->root, &t);
	khugepaged(tols, m->variant, k->variant, &t);
	notes(k);
	printf("\ncompared %lu figures: %lu within tolerance, %lu outside; %lu not measured by the kernel",
	       t.compared, t.compared - t.outside, t.outside, t.unmeasured);
	if (t.missing)
		printf("; %lu passes or nodes on one side only", t.missing);
	printf("\n");
	if (!t.compared)
		printf("nothing was measured: no agreement to report\n");
	return t.outside || t.missing || !t.compared ? 1 : 0;
}

struct compare {
	struct aw_cmp_run m, k;
	const char *variant;
	struct aw_tols tols;
};

static int add_tolerance(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	return aw_tols_parse(dst, arg, err, errlen) < 0 ? AW_PO_USAGE : 0;
}

static int files(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct compare *c = ctx;

	if (!c->m.path) {
		c->m.path = arg;
	} else if (!c->k.path) {
		c->k.path = arg;
	} else {
		snprintf(err, errlen, "two files only: MODEL.json KERNEL.json");
		return AW_PO_USAGE;
	}
	return 0;
}

static const struct aw_po_option options[] = {
	{ "variant", 0, AW_PO_STRING, "NAME", .off = offsetof(struct compare, variant) },
	{ "tolerance", 0, AW_PO_CALL, "KEY=REL%[+ABS[/walk]]", .off = offsetof(struct compare, tols),
	  .cb = add_tolerance, .flags = AW_PO_MANY },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_compare_cmd = {
	.name = "compare", .args = "MODEL.json KERNEL.json", .opts = options, .positional = files,
	.notes =
	"  MODEL.json: the model's run of a scenario, under the profile of the kernel\n"
	"  that ran:\n"
	"       agewalk run --json --kernel PROFILE SCENARIO.aws >MODEL.json\n"
	"  KERNEL.json: the kernel's run of the same scenario, agewalk-exec's JSON\n"
	"  report (docs/lab.md).  Prints both per node and pass; '!' marks a figure\n"
	"  outside its tolerance, '-' one the kernel does not measure.  --variant\n"
	"  picks the model's variant (default base).  Defaults:\n"
	"  leaf_total=10%+64/walk, nonleaf_found and nonleaf_added=10%+4/walk, young,\n"
	"  pmd_entries_read, pud_skipped, evicted, evicted_pages, refaults,\n"
	"  workingset_refaults, resident,\n"
	"  swapped =10%,\n"
	"  walks, passes, aging_refused =0%;\n"
	"  khugepaged: kh_wakeups, kh_full_scans, kh_collapsed, kh_madv_collapsed,\n"
	"  kh_lazyfree_skips =0%, kh_calls, kh_progress, kh_ranges,\n"
	"  kh_progress_per_full_scan =10%\n",
};

int aw_cmd_compare(int argc, char **argv)
{
	struct compare c = { .variant = "base" };
	int status;

	aw_tols_default(&c.tols);
	status = aw_po_parse(&aw_compare_cmd, &c, argc, argv);
	if (status)
		return status == AW_PO_HELP ? 0 : 2;
	if (!c.k.path)
		return aw_usage_error("compare", "needs MODEL.json and KERNEL.json");
	status = 2;
	if (load(&c.m, c.variant) == 0 && load(&c.k, NULL) == 0 && check_pair(&c.m, &c.k) == 0)
		status = report(&c.m, &c.k, &c.tols);
	json_object_put(c.m.root);
	json_object_put(c.k.root);
	return status;
}
