// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lockstep engine: every event goes to every variant's kernel in order;
 * after each event the oracles' findings are collected, and base's and each
 * patched variant's evictions are compared (differential premature-reclaim).
 */
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "cause.h"
#include "grow.h"
#include "walklog.h"

/*
 * The MGLRU variants run the patched khugepaged (issue 7) unless the
 * options say otherwise; the khugepaged pair differs only in khugepaged.
 */
static const struct aw_variant aw_variants[] = {
	{ .name = "base", .features = AW_FEAT_KHUGEPAGED_PATCHED },
	{ .name = "pud", .features = AW_FEAT_PUD_FILTER | AW_FEAT_KHUGEPAGED_PATCHED },
	{ .name = "emptymap", .features = AW_FEAT_EMPTYMAP | AW_FEAT_KHUGEPAGED_PATCHED },
	{ .name = "rfc", .features = AW_FEAT_PUD_FILTER | AW_FEAT_EMPTYMAP | AW_FEAT_KHUGEPAGED_PATCHED },
	{ .name = "khugepaged-base", .features = 0 },
	{ .name = "khugepaged-patched", .features = AW_FEAT_KHUGEPAGED_PATCHED },
};

const struct aw_variant *aw_variant_find(const char *name)
{
	for (size_t i = 0; i < sizeof(aw_variants) / sizeof(aw_variants[0]); i++)
		if (!strcmp(aw_variants[i].name, name))
			return &aw_variants[i];
	return NULL;
}

const char *aw_variant_names(void)
{
	return "base, pud, emptymap, rfc, khugepaged-base, khugepaged-patched";
}

void aw_event_describe(const struct aw_scenario *sc, const struct aw_event *ev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s", aw_event_kind_name(ev->kind));

	if (ev->pid && (size_t)n < len) {
		if (sc->proc_name && ev->pid <= (uint32_t)sc->nr_procs)
			n += snprintf(buf + n, len - n, " %s", sc->proc_name[ev->pid - 1]);
		else
			n += snprintf(buf + n, len - n, " pid %u", ev->pid);
	}
	if (ev->region && (size_t)n < len && sc->region_name && ev->region <= sc->nr_regions)
		n += snprintf(buf + n, len - n, " %s", sc->region_name[ev->region - 1]);
	if ((ev->kind == AW_EV_AGE || ev->kind == AW_EV_AGE_BEGIN || ev->kind == AW_EV_EVICT) &&
	    (size_t)n < len)
		n += snprintf(buf + n, len - n, " node %u memcg %u%s", ev->node, ev->memcg,
			      ev->kind != AW_EV_EVICT ? (ev->flags & AW_AGE_FORCE ? " force 1" : " force 0") : "");
	else if (ev->len && (size_t)n < len)
		snprintf(buf + n, len - n, " +0x%llx len 0x%llx", (unsigned long long)ev->addr,
			 (unsigned long long)ev->len);
}

/*
 * The event a finding names: the one being applied (streams keep no other),
 * or, for a whole scenario in memory, any earlier one.
 */
static const struct aw_event *finding_event(const struct aw_lockstep *ls, const struct aw_lockstep_lane *lane,
					   size_t event, uint32_t *line)
{
	*line = 0;
	if (lane && lane->has_cur && event == lane->cur_index) {
		*line = lane->cur_line;
		return &lane->cur_ev;
	}
	if (!lane && ls->has_cur && event == ls->cur_index) {
		*line = ls->cur_line;
		return &ls->cur_ev;
	}
	if (ls->sc->events && event < ls->sc->nr_events) {
		*line = ls->sc->event_line ? ls->sc->event_line[event] : 0;
		return &ls->sc->events[event];
	}
	return NULL;
}

/* The next slot of a findings list (ls's, or a lane's), grown as needed. */
static struct aw_lockstep_finding *finding_slot(int *nr, int *cap, struct aw_lockstep_finding **findings)
{
	if (*nr == *cap) {
		int c = *cap ? *cap * 2 : 8;
		struct aw_lockstep_finding *a = realloc(*findings, c * sizeof(*a));

		if (!a)
			aw_oracle_oom("lockstep findings");
		*findings = a;
		*cap = c;
	}
	return &(*findings)[(*nr)++];
}

/* A finding of the event being applied, into ls's list, or lane's when the variants run split. */
static void add_finding(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, enum aw_oracle_id oracle,
			size_t event, const char *variants, const char *cause, const char *msg)
{
	struct aw_lockstep_finding *f;
	const struct aw_event *ev;

	if (lane) {
		int cap = lane->cap_findings;

		f = finding_slot(&lane->nr_findings, &lane->cap_findings, &lane->findings);
		if (cap != lane->cap_findings) {
			size_t *a = realloc(lane->added_at, lane->cap_findings * sizeof(*a));

			if (!a)
				aw_oracle_oom("lockstep findings");
			lane->added_at = a;
		}
		/* the step that added it orders the lanes' findings (aw_lockstep_join()) */
		lane->added_at[lane->nr_findings - 1] = lane->cur_index;
	} else {
		f = finding_slot(&ls->nr_findings, &ls->cap_findings, &ls->findings);
	}
	memset(f, 0, sizeof(*f));
	f->oracle = oracle;
	f->event = event;
	ev = finding_event(ls, lane, event, &f->line);
	if (ev)
		f->ev = *ev;
	/* a stream's names may still change (exec): described at the end */
	if (!ls->describe_late)
		aw_event_describe(ls->sc, &f->ev, f->event_text, sizeof(f->event_text));
	snprintf(f->variants, sizeof(f->variants), "%s", variants);
	snprintf(f->msg, sizeof(f->msg), "%s", msg);
	snprintf(f->cause, sizeof(f->cause), "%s", cause);
	snprintf(f->signature, sizeof(f->signature), "%s [%s] %s", aw_oracle_name(oracle), variants, cause);
}

void aw_lockstep_describe(struct aw_lockstep *ls)
{
	for (int i = 0; i < ls->nr_findings; i++)
		aw_event_describe(ls->sc, &ls->findings[i].ev, ls->findings[i].event_text,
				  sizeof(ls->findings[i].event_text));
	ls->describe_late = false;
}

static int cause_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/*
 * The hot folios the patched kernel k evicted and base did not (p against
 * b), counted, and their causes, each read from k's skip history: the
 * distinct ones sorted and joined into buf, so that the order of the
 * evictions does not matter.
 */
static unsigned long hot_only_patched(const struct aw_kernel *k, const struct aw_evicted *p, int np,
				      const struct aw_evicted *b, int nb, char *buf, size_t len)
{
	char causes[AW_CAUSES_MAX][AW_CAUSE_LEN];
	int n = 0, used = 0;
	unsigned long hot = 0;

	buf[0] = 0;
	for (int i = 0; i < np; i++) {
		char c[AW_CAUSE_LEN];
		bool in_base = false, seen = false;

		for (int j = 0; j < nb && !in_base; j++)
			in_base = p[i].mm == b[j].mm && p[i].addr == b[j].addr;
		if (!p[i].hot || in_base)
			continue;
		hot++;
		aw_cause_of_eviction(aw_oracle_causes(k), k, p[i].memcg, p[i].nid, p[i].mm, p[i].addr,
				     p[i].huge, c, sizeof(c));
		for (int j = 0; j < n && !seen; j++)
			seen = !strcmp(causes[j], c);
		if (!seen && n < AW_CAUSES_MAX)
			memcpy(causes[n++], c, sizeof(c));
	}
	qsort(causes, n, sizeof(causes[0]), cause_cmp);
	for (int j = 0; j < n && (size_t)used < len; j++)
		used += snprintf(buf + used, len - used, "%s%s", j ? " + " : "", causes[j]);
	return hot;
}

/*
 * A cause from a kernel-text disagreement: the field it names, without the
 * lruvec, the figures and any number in it ("nr_pages[gen N][anon]").
 */
static void agreement_cause(const char *msg, char *buf, size_t len)
{
	const char *p = strstr(msg, ": ");
	const char *end;
	size_t n = 0;

	p = p ? p + 2 : msg;
	end = strstr(p, " model ");
	if (!end)
		end = strstr(p, ": model");
	if (!end)
		end = p + strlen(p);
	n = (size_t)snprintf(buf, len, "kernel text and model disagree on ");
	for (bool digits = false; p < end && n + 2 < len; p++) {
		if (*p >= '0' && *p <= '9') {
			if (!digits)
				buf[n++] = 'N';
			digits = true;
			continue;
		}
		digits = false;
		buf[n++] = *p;
	}
	buf[n < len ? n : len - 1] = 0;
}

/*
 * Differential premature-reclaim: up to the first event at which base and
 * a patched variant evict different folios, count the hot folios (two or
 * more accesses in the last two aging intervals) the patched variant
 * evicts and base keeps.  After the divergence the two runs no longer
 * describe the same memory, so the comparison stops there.
 */
static void check_differential(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, size_t event,
			       const struct aw_evicted *b, int nb)
{
	const struct aw_evicted *p;

	for (int v = 1; v < ls->nr_variants; v++) {
		int np = aw_oracle_evicted(ls->k[v], &p);
		unsigned long hot;
		bool same = np == nb;
		char cause[AW_CAUSES_MAX * (AW_CAUSE_LEN + 3)];

		if (ls->diverged[v])
			continue;
		for (int i = 0; same && i < np; i++)
			same = p[i].mm == b[i].mm && p[i].addr == b[i].addr;
		if (same)
			continue;
		hot = hot_only_patched(ls->k[v], p, np, b, nb, cause, sizeof(cause));
		ls->diverged[v] = true;
		ls->divergence_event[v] = event;
		ls->hot_only_patched[v] = hot;
		if (hot) {
			char vars[64], msg[200];

			snprintf(vars, sizeof(vars), "base,%s", ls->variant[v]->name);
			snprintf(msg, sizeof(msg), "%s evicted %lu hot folio%s that base kept, at the first "
				 "event where their evictions differ", ls->variant[v]->name, hot,
				 hot == 1 ? "" : "s");
			add_finding(ls, lane, AW_OR_PREMATURE_RECLAIM_DIFF, event, vars, cause, msg);
		}
	}
}

static int pair_variants(struct aw_lockstep *ls);

/*
 * Whether a khugepaged text runs: its tree carries the seed's revision of
 * the scan series (src/ktext/series/khugepaged-v7), so its model pair
 * runs that revision whatever the scenario's khugepaged_rev line says.
 */
static bool runs_kh_text(const struct aw_lockstep_opts *o)
{
	for (int v = 0; v < o->nr_variants && v < AW_MAX_VARIANTS; v++) {
		struct aw_variant buf;
		const struct aw_variant *var = aw_variant_find(o->variants[v]);

		if (!var && o->find_variant)
			var = o->find_variant(o->variants[v], &buf);
		if (var && var->khugepaged)
			return true;
	}
	return false;
}

static int setup(struct aw_lockstep *ls, const struct aw_scenario *sc, const struct aw_lockstep_opts *o)
{
	struct aw_config cfg = sc->cfg;
	bool kh_text;

	cfg.thp = (enum aw_thp_mode)o->thp;
	if (o->skip_empty)
		cfg.skip_empty = o->skip_empty;
	if (o->empty)
		cfg.empty = *o->empty;
	if (o->kernel > 0 && o->kernel <= AW_KERNEL_NR)
		cfg.kernel = (enum aw_kernel_profile)(o->kernel - 1);
	ls->kernel = cfg.kernel;
	ls->empty = cfg.empty;
	kh_text = runs_kh_text(o);
	if (kh_text && o->khugepaged_rev == AW_KH_REV_V8) {
		snprintf(ls->err, sizeof(ls->err), "khugepaged's text is the seed's revision of the scan series: "
			 "--khugepaged-rev v8 has no text to agree with");
		return -1;
	}
	if (o->nr_variants < 1 || o->nr_variants > AW_MAX_VARIANTS) {
		snprintf(ls->err, sizeof(ls->err), "between 1 and %d variants can run", AW_MAX_VARIANTS);
		return -1;
	}
	for (int v = 0; v < o->nr_variants; v++) {
		unsigned int features;

		ls->variant[v] = aw_variant_find(o->variants[v]);
		if (!ls->variant[v] && o->find_variant)
			ls->variant[v] = o->find_variant(o->variants[v], &ls->variant_buf[v]);
		if (!ls->variant[v]) {
			snprintf(ls->err, sizeof(ls->err), "unknown variant '%s' (known: %s%s)", o->variants[v],
				 aw_variant_names(), o->more_variant_names ? o->more_variant_names : "");
			return -1;
		}
		if (ls->variant[v]->kernel && ls->variant[v]->kernel != (int)cfg.kernel + 1) {
			snprintf(ls->err, sizeof(ls->err), "%s is kernel text of %s: the machine must run that "
				 "profile (--kernel %s)", ls->variant[v]->name,
				 aw_kernel_profile_name((enum aw_kernel_profile)(ls->variant[v]->kernel - 1)),
				 aw_kernel_profile_name((enum aw_kernel_profile)(ls->variant[v]->kernel - 1)));
			return -1;
		}
		features = ls->variant[v]->features;
		if (o->khugepaged_base && strncmp(ls->variant[v]->name, "khugepaged-", 11))
			features &= ~AW_FEAT_KHUGEPAGED_PATCHED;
		/* the command line's choice, or the scenario's */
		if (o->khugepaged_rev == AW_KH_REV_V8 || (cfg.khugepaged_rev == AW_KH_REV_V8 && !kh_text))
			features |= AW_FEAT_KHUGEPAGED_V8;
		if (o->khugepaged_prctl_enter || cfg.khugepaged_prctl_enter)
			features |= AW_FEAT_KH_PRCTL_ENTER;
		/* a fix of the PUD filter patches the variants that have one */
		if (features & AW_FEAT_PUD_FILTER)
			features |= o->fixes & AW_FEAT_PUD_YOUNG_FIX;
		ls->k[v] = aw_kernel_create(&cfg, sc->nr_regions, features, o->bugs);
		if (ls->k[v] && ls->variant[v]->bind && ls->variant[v]->bind(ls->k[v], ls->variant[v])) {
			snprintf(ls->err, sizeof(ls->err), "%s: %s", ls->variant[v]->name, ls->k[v]->err);
			ls->nr_variants = v + 1;
			return -1;
		}
		if (!ls->k[v] || (o->oracles && aw_oracle_attach(ls->k[v]))) {
			snprintf(ls->err, sizeof(ls->err), "cannot create the simulated machine");
			return -1;
		}
		if (o->findings_only)
			aw_oracle_findings_only(ls->k[v]);
		ls->k[v]->warn.abort = o->warn_abort;
		ls->nr_variants = v + 1;
		/* every variant's walks, each line naming its variant (walklog.h) */
		if (o->walk_log && aw_walk_log_attach(ls->k[v], o->walk_log, ls->variant[v]->name)) {
			snprintf(ls->err, sizeof(ls->err), "cannot attach the walk log");
			return -1;
		}
	}
	return pair_variants(ls);
}

/*
 * Each kernel-text variant agrees with its model variant, which must run
 * too: kernel text alone, or beside another model variant, would run with
 * its only oracle off and look like a pass.
 */
static int pair_variants(struct aw_lockstep *ls)
{
	for (int v = 0; v < ls->nr_variants; v++) {
		const struct aw_variant *text = ls->variant[v];

		ls->pair[v] = -1;
		for (int u = 0; text->pair && u < ls->nr_variants; u++)
			if (!strcmp(ls->variant[u]->name, text->pair))
				ls->pair[v] = u;
		if (text->pair && ls->pair[v] < 0) {
			snprintf(ls->err, sizeof(ls->err), "%s is kernel text checked against %s: run the two "
				 "together (--variants %s,%s)", text->name, text->pair, text->pair, text->name);
			return -1;
		}
	}
	return 0;
}

static void check_agreement(struct aw_lockstep *ls, size_t event)
{
	for (int v = 0; v < ls->nr_variants; v++) {
		char vars[64], msg[320], cause[160];

		if (ls->pair[v] < 0 || !ls->variant[v]->agree(ls->k[ls->pair[v]], ls->k[v], msg, sizeof(msg)))
			continue;
		snprintf(vars, sizeof(vars), "%s,%s", ls->variant[ls->pair[v]]->name, ls->variant[v]->name);
		agreement_cause(msg, cause, sizeof(cause));
		add_finding(ls, NULL, ls->variant[v]->khugepaged ? AW_OR_KH_TEXT_AGREEMENT : AW_OR_KTEXT_AGREEMENT,
			    event, vars, cause, msg);
		ls->pair[v] = -1;	/* after the first divergence the two describe different machines */
	}
}

/*
 * The equivalence oracles (equiv.h): between base and each model variant,
 * wherever both start from the same page tables.  Kernel-text variants
 * have the agreement oracle instead.
 */
static int equiv_setup(struct aw_lockstep *ls)
{
	ls->equiv_on = ls->nr_variants > 1 && (!strcmp(ls->variant[0]->name, "base") ||
						!strcmp(ls->variant[0]->name, "khugepaged-base"));
	for (int v = 0; ls->equiv_on && v < ls->nr_variants; v++)
		if (!ls->variant[v]->bind && aw_equiv_attach(&ls->equiv[v], ls->k[v]))
			return -1;
	return 0;
}

static void check_equivalence(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, size_t event,
			      const struct aw_equiv *base)
{
	for (int v = 1; v < ls->nr_variants; v++) {
		char vars[64], cause[160], msg[320];
		enum aw_oracle_id id;

		if (!ls->equiv[v].k || ls->equiv_fired[v])
			continue;
		id = aw_equiv_compare(base, &ls->equiv[v], cause, sizeof(cause), msg, sizeof(msg));
		if (id == AW_OR_NR)
			continue;
		snprintf(vars, sizeof(vars), "%s,%s", ls->variant[0]->name, ls->variant[v]->name);
		add_finding(ls, lane, id, event, vars, cause, msg);
		ls->equiv_fired[v] = true;
	}
}

static void collect(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, int v, int *seen)
{
	int n = aw_oracle_nr_findings(ls->k[v]);

	for (; seen[v] < n; seen[v]++) {
		const struct aw_finding *f = aw_oracle_finding(ls->k[v], seen[v]);

		if (!f)
			break;
		add_finding(ls, lane, f->oracle, f->event, ls->variant[v]->name, f->cause, f->msg);
	}
}

/* The passes ev began on its node rest on a trace that lost events (AW_AGE_LOST). */
static void mark_unreliable(struct aw_kernel *k, int node, int before)
{
	struct aw_node_stats *ns = &k->node_stats[node];

	for (int p = before; p < ns->nr_passes; p++)
		ns->passes[p].unreliable = true;
}

int aw_lockstep_begin(struct aw_lockstep *ls, const struct aw_scenario *sc,
		      const struct aw_lockstep_opts *o)
{
	memset(ls, 0, sizeof(*ls));
	ls->sc = sc;
	ls->thp = o->thp;
	ls->failed_event = -1;
	ls->oracles = o->oracles;
	ls->keep_going = o->keep_going;
	if (setup(ls, sc, o))
		return -1;
	if (o->oracles && equiv_setup(ls)) {
		snprintf(ls->err, sizeof(ls->err), "cannot attach the equivalence oracles");
		return -1;
	}
	ls->differential = o->oracles && !strcmp(ls->variant[0]->name, "base");
	return 0;
}

int aw_lockstep_step(struct aw_lockstep *ls, const struct aw_event *ev, uint32_t line)
{
	size_t i = ls->events_applied;

	if (ls->stopped)
		return 1;
	ls->cur_ev = *ev;
	ls->cur_index = i;
	ls->cur_line = line;
	ls->has_cur = true;
	for (int v = 0; ls->equiv_on && v < ls->nr_variants; v++)
		aw_equiv_event_begin(&ls->equiv[v]);
	for (int v = 0; v < ls->nr_variants; v++) {
		int before = ev->node < AW_MAX_NODES ? ls->k[v]->node_stats[ev->node].nr_passes : 0;

		ls->k[v]->event_index = i;
		if (aw_kernel_apply(ls->k[v], ev)) {
			ls->failed_event = (long)i;
			snprintf(ls->err, sizeof(ls->err), "%s:%u: event %zu (%s): %s",
				 ls->sc->path ? ls->sc->path : "-", line, i, aw_event_kind_name(ev->kind),
				 ls->k[v]->err);
			ls->stopped = true;
			return -1;
		}
		if (ev->kind == AW_EV_AGE && (ev->flags & AW_AGE_LOST))
			mark_unreliable(ls->k[v], ev->node, before);
		collect(ls, NULL, v, ls->seen);
	}
	if (ls->differential) {
		const struct aw_evicted *b;
		int nb = aw_oracle_evicted(ls->k[0], &b);

		check_differential(ls, NULL, i, b, nb);
	}
	if (ls->oracles)
		check_agreement(ls, i);
	if (ls->equiv_on)
		check_equivalence(ls, NULL, i, &ls->equiv[0]);
	ls->events_applied = i + 1;
	if (ls->nr_findings && !ls->keep_going) {
		ls->stopped = true;
		return 1;
	}
	return 0;
}

void aw_lockstep_end(struct aw_lockstep *ls)
{
	if (ls->stopped)
		return;
	/* the sampled list check may have skipped the last events */
	for (int v = 0; v < ls->nr_variants; v++) {
		aw_oracle_run_end(ls->k[v]);
		collect(ls, NULL, v, ls->seen);
	}
	ls->stopped = true;
}

int aw_lockstep_run(struct aw_lockstep *ls, const struct aw_scenario *sc,
		    const struct aw_lockstep_opts *o)
{
	if (aw_lockstep_begin(ls, sc, o))
		return -1;
	for (size_t i = 0; i < sc->nr_events; i++) {
		int r = aw_lockstep_step(ls, &sc->events[i], sc->event_line ? sc->event_line[i] : 0);

		if (r < 0)
			return -1;
		if (r > 0)
			return 0;
	}
	aw_lockstep_end(ls);
	return 0;
}

void aw_lockstep_free(struct aw_lockstep *ls)
{
	for (int v = 0; v < ls->nr_variants; v++) {
		aw_kernel_destroy(ls->k[v]);
		aw_equiv_free(&ls->equiv[v]);
	}
	free(ls->findings);
	memset(ls, 0, sizeof(*ls));
}

/* ---- the variants split over two threads (lockstep.h) ------------------------------- */

bool aw_lockstep_can_split(const struct aw_lockstep *ls)
{
	if (ls->nr_variants < 2)
		return false;
	/*
	 * Kernel text's agreement oracle reads both machines at once, and the
	 * walk log's lines of all variants share one file in one thread's
	 * order (walklog.h): one thread.
	 */
	for (int v = 0; v < ls->nr_variants; v++)
		if (ls->variant[v]->bind || ls->pair[v] >= 0 || ls->k[v]->walk_log)
			return false;
	return true;
}

void aw_lockstep_lanes_init(struct aw_lockstep *ls, struct aw_lockstep_lane *lane0, struct aw_lockstep_lane *lane1)
{
	memset(lane0, 0, sizeof(*lane0));
	memset(lane1, 0, sizeof(*lane1));
	lane0->lo = 0;
	lane0->hi = 1;
	lane1->lo = 1;
	lane1->hi = ls->nr_variants;
}

void aw_lockstep_base_reset(struct aw_lockstep_base *b)
{
	b->n = 0;
	b->nr_evicted = b->nr_walks = b->nr_ranges = 0;
	b->cursor = 0;
}

void aw_lockstep_base_free(struct aw_lockstep_base *b)
{
	free(b->ev);
	free(b->evicted);
	free(b->walks);
	free(b->ranges);
	memset(b, 0, sizeof(*b));
}

/* Append n elements of size sz to a pool; the offset of the first. */
static int pool_add(void **pool, int *nr, int *cap, const void *src, int n, size_t sz)
{
	int at = *nr;

	if (!n)		/* nothing of this kind: the pool may not exist yet, and memcpy() takes no NULL */
		return at;
	if (*nr + n > *cap) {
		int c = *cap ? *cap : 64;
		void *a;

		while (c < *nr + n)
			c *= 2;
		a = realloc(*pool, (size_t)c * sz);
		if (!a)
			aw_oracle_oom("lockstep base records");
		*pool = a;
		*cap = c;
	}
	memcpy((char *)*pool + (size_t)at * sz, src, (size_t)n * sz);
	*nr += n;
	return at;
}

/* What the cross-variant oracles will read of base's event i, if anything. */
static void record_base(struct aw_lockstep *ls, size_t i, struct aw_lockstep_base *out)
{
	const struct aw_evicted *ev = NULL;
	int ne = ls->differential ? aw_oracle_evicted(ls->k[0], &ev) : 0;
	const struct aw_equiv *eq = &ls->equiv[0];
	int nw = ls->equiv_on ? eq->nr_walks : 0, nr = ls->equiv_on ? eq->nr_ranges : 0;
	struct aw_lockstep_base_ev *e;

	if (!ne && !nw && !nr)
		return;
	e = aw_grow(out->ev, &out->cap, out->n, sizeof(*out->ev), 64);
	if (!e)
		aw_oracle_oom("lockstep base records");
	out->ev = e;
	e = &out->ev[out->n++];
	e->event = i;
	e->nr_evicted = ne;
	e->evicted = pool_add((void **)&out->evicted, &out->nr_evicted, &out->cap_evicted, ev, ne, sizeof(*ev));
	e->nr_walks = nw;
	e->walks = pool_add((void **)&out->walks, &out->nr_walks, &out->cap_walks, eq->walks, nw, sizeof(*eq->walks));
	e->nr_ranges = nr;
	e->ranges = pool_add((void **)&out->ranges, &out->nr_ranges, &out->cap_ranges, eq->ranges, nr,
			     sizeof(*eq->ranges));
}

/* Apply ev to lane's variants, as aw_lockstep_step() does; -1 on an error (lane->err). */
static int lane_apply(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, const struct aw_event *ev,
		      uint32_t line)
{
	size_t i = lane->events_applied;

	lane->cur_ev = *ev;
	lane->cur_index = i;
	lane->cur_line = line;
	lane->has_cur = true;
	for (int v = lane->lo; ls->equiv_on && v < lane->hi; v++)
		aw_equiv_event_begin(&ls->equiv[v]);
	for (int v = lane->lo; v < lane->hi; v++) {
		int before = ev->node < AW_MAX_NODES ? ls->k[v]->node_stats[ev->node].nr_passes : 0;

		ls->k[v]->event_index = i;
		if (aw_kernel_apply(ls->k[v], ev)) {
			snprintf(lane->err, sizeof(lane->err), "%s:%u: event %zu (%s): %s",
				 ls->sc->path ? ls->sc->path : "-", line, i, aw_event_kind_name(ev->kind),
				 ls->k[v]->err);
			lane->stopped = lane->failed = true;
			lane->last_event = i;
			return -1;
		}
		if (ev->kind == AW_EV_AGE && (ev->flags & AW_AGE_LOST))
			mark_unreliable(ls->k[v], ev->node, before);
		collect(ls, lane, v, ls->seen);
	}
	return 0;
}

/* After lane's event i: stop there at a finding, unless the run keeps going. */
static int lane_done(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, size_t i)
{
	lane->events_applied = i + 1;
	if (lane->nr_findings && !ls->keep_going) {
		lane->stopped = true;
		lane->last_event = i;
		return 1;
	}
	return 0;
}

int aw_lockstep_step0(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, const struct aw_event *ev,
		      uint32_t line, struct aw_lockstep_base *out)
{
	size_t i = lane->events_applied;

	if (lane->stopped)
		return 1;
	if (lane_apply(ls, lane, ev, line))
		return -1;
	record_base(ls, i, out);
	return lane_done(ls, lane, i);
}

int aw_lockstep_step1(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, const struct aw_lockstep_lane *lane0,
		      const struct aw_event *ev, uint32_t line, struct aw_lockstep_base *b)
{
	size_t i = lane->events_applied;
	const struct aw_lockstep_base_ev *e = NULL;
	struct aw_equiv base = { 0 };

	if (lane->stopped)
		return 1;
	/*
	 * one thread stops after all variants applied the event of a finding,
	 * and before any variant applies the event after an error
	 */
	if (lane0->stopped && (i > lane0->last_event || (lane0->failed && i == lane0->last_event))) {
		lane->stopped = true;
		lane->last_event = i ? i - 1 : 0;
		return 1;
	}
	if (lane_apply(ls, lane, ev, line))
		return -1;
	if (b->cursor < b->n && b->ev[b->cursor].event == i)
		e = &b->ev[b->cursor++];
	if (ls->differential)
		check_differential(ls, lane, i, e ? b->evicted + e->evicted : NULL, e ? e->nr_evicted : 0);
	if (ls->equiv_on) {
		base.nr_walks = e ? e->nr_walks : 0;
		base.walks = e ? b->walks + e->walks : NULL;
		base.nr_ranges = e ? e->nr_ranges : 0;
		base.ranges = e ? b->ranges + e->ranges : NULL;
		check_equivalence(ls, lane, i, &base);
	}
	return lane_done(ls, lane, i);
}

/* lane's findings added at steps up to upto, appended to ls's */
static void take_findings(struct aw_lockstep *ls, const struct aw_lockstep_lane *lane, int *at, size_t upto)
{
	for (; *at < lane->nr_findings && lane->added_at[*at] <= upto; (*at)++)
		*finding_slot(&ls->nr_findings, &ls->cap_findings, &ls->findings) = lane->findings[*at];
}

/*
 * One thread's run stops at the first of: an error of variant 0 at event
 * i (the others do not apply i), an error of another variant at i, or
 * the end of the event i at which a finding was added.  Lane 1 never runs
 * past where lane 0 stopped (aw_lockstep_step1()), so lane 1's own stop,
 * if any, is the first; lane 0's otherwise.
 */
int aw_lockstep_join(struct aw_lockstep *ls, struct aw_lockstep_lane *lane0, struct aw_lockstep_lane *lane1)
{
	int a = 0, b = 0, ret = 0;

	if (lane1->failed) {
		ret = -1;
		ls->failed_event = (long)lane1->last_event;
		snprintf(ls->err, sizeof(ls->err), "%s", lane1->err);
	} else if (!ls->keep_going && lane1->nr_findings) {
		/* lane 0 ran past lane 1's finding (or failed past it): the kernels stand elsewhere */
		if (lane0->events_applied > lane1->events_applied ||
		    (lane0->failed && lane0->last_event > lane1->last_event))
			ret = 1;
	} else if (lane0->failed) {
		ret = -1;
		ls->failed_event = (long)lane0->last_event;
		snprintf(ls->err, sizeof(ls->err), "%s", lane0->err);
	}
	/* in the order one thread adds them: by step, lane 0's first */
	while (a < lane0->nr_findings || b < lane1->nr_findings) {
		size_t sa = a < lane0->nr_findings ? lane0->added_at[a] : SIZE_MAX;
		size_t sb = b < lane1->nr_findings ? lane1->added_at[b] : SIZE_MAX;
		size_t step = sa < sb ? sa : sb;

		take_findings(ls, lane0, &a, step);
		take_findings(ls, lane1, &b, step);
	}
	ls->events_applied = lane1->events_applied;
	ls->stopped = lane0->stopped || lane1->stopped;
	for (struct aw_lockstep_lane *l = lane0; l; l = l == lane0 ? lane1 : NULL) {
		free(l->findings);
		free(l->added_at);
		l->findings = NULL;
		l->added_at = NULL;
		l->nr_findings = l->cap_findings = 0;
	}
	return ret;
}
