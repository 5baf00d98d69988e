// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk minimize: shrink a crashing input to the smallest readable event
 * sequence that still gives a finding of the same signature: the same
 * oracle on the same variants, for the same cause (a campaign minimizes
 * each new signature once, and its reproducer must show that one).
 *
 * Delta debugging at the event level (Zeller's ddmin: remove chunks, then
 * single events), then a simpler machine (smaller skip_empty, THP never,
 * no memcg limit; THP stays on for khugepaged-* variants) followed by
 * another round of event removal, then field simplification (shorter
 * lengths, one repeat, no stride, aligned addresses, node 0), each step
 * kept only if the finding survives.  The result is 1-minimal: removing
 * any single event loses the finding.
 *
 * The budget is a number of candidate runs (--max-runs), not a time: the
 * same crash then gives the same reproducer on any machine at any load (a
 * deadline stopped it at a different candidate on a busy machine, and two
 * runs wrote two reproducers).  --max-time is only a safety stop: when it
 * fires the result is written but marked incomplete, and the command exits
 * AW_EXIT_INCOMPLETE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "awpb.h"
#include "cli.h"
#include "fuzzin.h"
#include "lockstep.h"
#include "options.h"
#include "output.h"

/* Exit status when --max-time stopped the minimizer before its run budget. */
#define AW_EXIT_INCOMPLETE 4
/* --max-runs default: every planted bug of the corpus minimizes well within it */
#define AW_MINIMIZE_RUNS 20000UL

struct target {
	enum aw_oracle_id oracle;
	char variants[64];
	char signature[1024];		/* oracle, variants and cause: what must survive */
};

struct mini {
	const struct aw_scenario *orig;
	struct aw_config cfg;		/* the original's, simplified as we go */
	struct aw_model_opts opt;	/* variants and planted bugs */
	struct target want;
	enum aw_oracle_id only;		/* --oracle: keep this oracle's finding, AW_OR_NR = the first */
	const char *signature;		/* --signature: keep the finding with this signature */
	double deadline;		/* --max-time's safety stop, 0 none */
	unsigned long tests, max_runs;	/* candidates run, and the budget */
	bool timed_out;			/* the safety stop fired: incomplete */
	bool khugepaged;		/* khugepaged-* variants: khugepaged needs THP on */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A scenario with the original's config and names and the given events. */
static int build(const struct mini *m, const struct aw_event *ev, size_t n, struct aw_scenario *sc)
{
	aw_scenario_init(sc);
	sc->cfg = m->cfg;
	sc->path = strdup("minimize");
	sc->nr_regions = m->orig->nr_regions;
	sc->nr_procs = m->orig->nr_procs;
	sc->region_name = calloc(sc->nr_regions + 1, AW_MAX_NAME);
	sc->proc_name = calloc(sc->nr_procs + 1, AW_MAX_NAME);
	if (!sc->region_name || !sc->proc_name)
		return -1;
	if (m->orig->region_name)
		memcpy(sc->region_name, m->orig->region_name, (size_t)sc->nr_regions * AW_MAX_NAME);
	if (m->orig->proc_name)
		memcpy(sc->proc_name, m->orig->proc_name, (size_t)sc->nr_procs * AW_MAX_NAME);
	for (size_t i = 0; i < n; i++)
		if (aw_scenario_push(sc, &ev[i], 0))
			return -1;
	return 0;
}

/*
 * Would the candidate, written as .aws, parse back?  The event checks of
 * the .aws parser know more than the engine asks for (a madvise within
 * its region's current mapping, say), so removing an event can leave one
 * the engine runs and the parser refuses; such a candidate is no
 * reproducer, whatever it finds.
 */
static bool parses_back(const struct aw_scenario *sc)
{
	struct aw_scenario back;
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok;

	if (!f)
		return false;
	ok = !aw_aws_write(f, sc);
	ok = !fclose(f) && ok;
	ok = ok && !aw_aws_parse_string("minimize", text, &back, err, sizeof(err));
	if (ok)
		aw_scenario_free(&back);
	free(text);
	return ok;
}

/*
 * Run; *got is the first finding (or the first of m->only's oracle, or the
 * one with m->signature, when set).  Returns 1 if a finding has want's
 * signature: the same oracle on the same variants for the same cause, so
 * that a smaller input which breaks another rule does not pass for it.
 */
static int run(struct mini *m, const struct aw_event *ev, size_t n, struct target *got)
{
	struct aw_scenario sc;
	struct aw_lockstep ls;
	struct aw_lockstep_opts o = {
		.thp = m->cfg.thp, .oracles = true, .findings_only = true,
	};
	int match = 0;

	aw_model_opts_apply(&m->opt, &o);
	m->tests++;
	if (build(m, ev, n, &sc) || !parses_back(&sc)) {
		aw_scenario_free(&sc);
		return 0;
	}
	o.keep_going = m->only != AW_OR_NR || m->signature;
	if (!aw_lockstep_run(&ls, &sc, &o) && ls.nr_findings) {
		for (int i = 0; got && i < ls.nr_findings; i++) {
			const struct aw_lockstep_finding *f = &ls.findings[i];

			if ((m->only != AW_OR_NR && f->oracle != m->only) ||
			    (m->signature && strcmp(f->signature, m->signature)))
				continue;
			got->oracle = f->oracle;
			snprintf(got->variants, sizeof(got->variants), "%s", f->variants);
			snprintf(got->signature, sizeof(got->signature), "%s", f->signature);
			break;
		}
		for (int i = 0; i < ls.nr_findings; i++)
			if (!strcmp(ls.findings[i].signature, m->want.signature))
				match = 1;
	}
	aw_lockstep_free(&ls);
	aw_scenario_free(&sc);
	return match;
}

/* Stop: the run budget is spent, or (sticky) the safety stop fired. */
static bool out_of_time(struct mini *m)
{
	if (m->tests >= m->max_runs)
		return true;
	if (m->deadline > 0 && !m->timed_out && now() > m->deadline)
		m->timed_out = true;
	return m->timed_out;
}

/* ddmin: remove chunks of decreasing size, keep what still reproduces. */
static size_t ddmin(struct mini *m, struct aw_event *ev, size_t n)
{
	struct aw_event *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t chunks = 2;

	if (!tmp)
		return n;
	while (n >= 2 && !out_of_time(m)) {
		size_t size = (n + chunks - 1) / chunks;
		bool reduced = false;

		for (size_t start = 0; start < n && !out_of_time(m); start += size) {
			size_t end = start + size < n ? start + size : n, k = 0;

			for (size_t i = 0; i < n; i++)
				if (i < start || i >= end)
					tmp[k++] = ev[i];
			if (k < n && run(m, tmp, k, NULL)) {
				memcpy(ev, tmp, k * sizeof(*ev));
				n = k;
				chunks = chunks > 2 ? chunks - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (!reduced) {
			if (size == 1)
				break;
			chunks = chunks * 2 < n ? chunks * 2 : n;
		}
	}
	free(tmp);
	return n;
}

/* Single-event removal until no event can go: 1-minimal. */
static size_t one_minimal(struct mini *m, struct aw_event *ev, size_t n)
{
	bool changed = true;

	while (changed && !out_of_time(m)) {
		changed = false;
		for (size_t i = n; i-- > 0 && !out_of_time(m);) {
			struct aw_event save = ev[i];

			memmove(&ev[i], &ev[i + 1], (n - i - 1) * sizeof(*ev));
			if (run(m, ev, n - 1, NULL)) {
				n--;
				changed = true;
			} else {
				memmove(&ev[i + 1], &ev[i], (n - i - 1) * sizeof(*ev));
				ev[i] = save;
			}
		}
	}
	return n;
}

/* Try one field edit; keep it if the finding survives. */
static void try_edit(struct mini *m, struct aw_event *ev, size_t n, size_t i, const struct aw_event *cand)
{
	struct aw_event save = ev[i];

	if (!memcmp(&save, cand, sizeof(save)) || out_of_time(m))
		return;
	ev[i] = *cand;
	if (!run(m, ev, n, NULL))
		ev[i] = save;
}

/* Readable values: smaller lengths, one repeat, no stride, aligned addresses, node 0. */
static void simplify(struct mini *m, struct aw_event *ev, size_t n)
{
	for (size_t i = 0; i < n && !out_of_time(m); i++) {
		struct aw_event c;

		if (ev[i].repeat > 1) {
			c = ev[i];
			c.repeat = 1;
			try_edit(m, ev, n, i, &c);
		}
		if (ev[i].stride) {
			c = ev[i];
			c.stride = 0;
			try_edit(m, ev, n, i, &c);
		}
		for (uint64_t align = 1ULL << 30; align >= 4096 && ev[i].addr; align >>= 9) {
			c = ev[i];
			c.addr &= ~(align - 1);
			try_edit(m, ev, n, i, &c);
		}
		while (ev[i].len > 4096 && ev[i].kind != AW_EV_TIME && !out_of_time(m)) {
			uint64_t before = ev[i].len;

			c = ev[i];
			c.len = (c.len / 2 + 4095) & ~4095ULL;
			try_edit(m, ev, n, i, &c);
			if (ev[i].len == before)
				break;
		}
		if (ev[i].node) {
			c = ev[i];
			c.node = 0;
			try_edit(m, ev, n, i, &c);
		}
	}
}

/*
 * A simpler machine often needs fewer events: a smaller skip_empty needs
 * fewer empty passes before the emptymap skip, no memcg limit and no THP
 * take whole mechanisms out.  Each change is kept only if the finding
 * survives; the caller minimizes the events again afterwards.
 */
static bool simplify_config(struct mini *m, const struct aw_event *ev, size_t n)
{
	struct aw_config save = m->cfg;

	for (int se = 1; se < save.skip_empty && !out_of_time(m); se++) {
		m->cfg.skip_empty = se;
		if (run(m, ev, n, NULL))
			break;
		m->cfg.skip_empty = save.skip_empty;
	}
	/* khugepaged does not run with THP never, and its fuzz target never uses it */
	if (m->cfg.thp != AW_THP_NEVER && !m->khugepaged && !out_of_time(m)) {
		struct aw_config before = m->cfg;

		m->cfg.thp = AW_THP_NEVER;
		m->cfg.thp_modes = 1U << AW_THP_NEVER;
		if (!run(m, ev, n, NULL))
			m->cfg = before;
	}
	for (int c = 1; c < m->cfg.nr_memcgs && !out_of_time(m); c++) {
		uint64_t limit = m->cfg.memcg_limit[c];

		if (!limit)
			continue;
		m->cfg.memcg_limit[c] = 0;
		if (!run(m, ev, n, NULL))
			m->cfg.memcg_limit[c] = limit;
	}
	return memcmp(&save, &m->cfg, sizeof(save)) != 0;
}

struct result {
	const struct mini *m;
	const struct aw_scenario *sc;
	const char *crash, *vars;
	size_t n;
};

static int write_aws(FILE *f, void *arg)
{
	const struct result *r = arg;
	const struct mini *m = r->m;

	fprintf(f, "# minimized by agewalk minimize from %s: %zu event%s\n", r->crash, r->n, r->n == 1 ? "" : "s");
	if (m->timed_out)
		fprintf(f, "# incomplete: stopped by --max-time after %lu runs; may not be minimal\n", m->tests);
	else if (m->tests >= m->max_runs)
		fprintf(f, "# the run budget (--max-runs %lu) was spent; may not be 1-minimal\n", m->max_runs);
	fprintf(f, "# the %s oracle fires on %s\n", aw_oracle_name(m->want.oracle), m->want.variants);
	fprintf(f, "# signature: %s\n", m->want.signature);
	for (int b = 0; b < AW_BUG_NR; b++)
		if (m->opt.bugs >> b & 1)
			fprintf(f, "# finding: %s with --bug %s --variants %s\n", aw_oracle_name(m->want.oracle),
				aw_bug_name(b), r->vars);
	if (!m->opt.bugs)
		fprintf(f, "# expect-finding: %s --variants %s\n", aw_oracle_name(m->want.oracle), r->vars);
	if (m->khugepaged)	/* CTest runs the file with these instead of the MGLRU four */
		fprintf(f, "# variants: %s\n", r->vars);
	return aw_aws_write(f, r->sc);
}

/* 0, or the exit status with one line on stderr */
static int write_result(const char *out, const struct mini *m, const struct aw_event *ev, size_t n,
			const char *crash)
{
	struct aw_scenario sc;
	char vars[128] = "", err[512];
	struct result r = { m, &sc, crash, vars, n };
	int ret = 0;

	for (int v = 0; v < m->opt.nr_variants; v++)
		snprintf(vars + strlen(vars), sizeof(vars) - strlen(vars), "%s%s", v ? "," : "", m->opt.variants[v]);
	if (build(m, ev, n, &sc)) {
		fprintf(stderr, "agewalk minimize: out of memory\n");
		ret = 2;
	} else if (aw_output_write(out, write_aws, &r, err, sizeof(err))) {
		fprintf(stderr, "agewalk minimize: %s\n", err);
		ret = AW_EXIT_OUTPUT;
	}
	aw_scenario_free(&sc);
	return ret;
}

/* What minimize takes of the shared model options. */
#define AW_MINIMIZE_OPTS (AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_KERNEL)

/* The command line: the input, the output, the budget, and what must survive (in m). */
struct args {
	const char *crash, *out, *from;
	double max_time;
	unsigned long max_runs;
	struct mini m;
};

static int set_max_time(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	char *end;
	double t = strtod(v, &end);

	if (end == v || *end || !(t > 0) || t > 1e9) {
		snprintf(err, errlen, "--max-time '%s': a number of seconds above 0", v);
		return AW_PO_FAIL;
	}
	*(double *)dst = t;
	return 0;
}

static int set_max_runs(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (end == v || *end || *v == '-' || errno || !n) {
		snprintf(err, errlen, "--max-runs '%s': a whole number above 0", v);
		return AW_PO_FAIL;
	}
	*(unsigned long *)dst = n;
	return 0;
}

static int set_oracle(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	enum aw_oracle_id *only = dst;

	*only = AW_OR_NR;
	for (int o = 0; o < AW_OR_NR; o++)
		if (!strcmp(aw_oracle_name(o), v))
			*only = o;
	if (*only == AW_OR_NR) {
		snprintf(err, errlen, "unknown oracle '%s'", v);
		return AW_PO_FAIL;
	}
	return 0;
}

static const struct aw_po_option options[] = {
	{ NULL, 'o', AW_PO_STRING, "OUT.aws", .off = offsetof(struct args, out) },
	{ "max-runs", 0, AW_PO_CALL, "N", .off = offsetof(struct args, max_runs), .cb = set_max_runs },
	{ "max-time", 0, AW_PO_CALL, "SECONDS", .off = offsetof(struct args, max_time), .cb = set_max_time },
	{ "from", 0, AW_PO_STRING, "fuzz|awpb|aws", .off = offsetof(struct args, from) },
	AW_MODEL_OPTIONS(struct args, m.opt, AW_MINIMIZE_OPTS),
	{ "oracle", 0, AW_PO_CALL, "NAME", .off = offsetof(struct args, m.only), .cb = set_oracle },
	{ "signature", 0, AW_PO_STRING, "SIG", .off = offsetof(struct args, m.signature) },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_minimize_cmd = {
	.name = "minimize", .args = "CRASH", .opts = options, .one = "input", .one_off = offsetof(struct args, crash),
	.flags = AW_PO_DASH_IS_OPTION,
	.notes =
	"  CRASH is a fuzz input (the variants come from it), an .awpb or an .aws;\n"
	"  the first finding's signature (or --oracle's, or SIG) must survive;\n"
	"  the budget is N candidate runs (default 20000): the same input gives the\n"
	"  same reproducer on any machine; --max-time is a safety stop only (default\n"
	"  none): if it fires the result is marked incomplete and the exit status is 4\n",
};

int aw_cmd_minimize(int argc, char **argv)
{
	struct args a = { .out = "-", .max_runs = AW_MINIMIZE_RUNS, .m = { .only = AW_OR_NR } };
	struct mini m;
	const char *crash, *out, *from, *fuzz_variant = NULL;
	char err[512];
	struct aw_scenario sc;
	struct aw_event *ev;
	struct target got;
	size_t n;
	int status;

	aw_model_opts_init(&a.m.opt);
	status = aw_po_parse(&aw_minimize_cmd, &a, argc, argv);
	if (!status && !a.crash) {
		aw_usage_error("minimize", "no input");
		status = AW_PO_ERROR;
	}
	if (status) {
		aw_model_opts_free(&a.m.opt);
		return status == AW_PO_HELP ? 0 : 2;
	}
	m = a.m;
	crash = a.crash, out = a.out, from = a.from;
	/* a crash of agewalk_fuzz_khugepaged decodes as that target does (no THP never) */
	for (int v = 0; v < m.opt.nr_variants; v++)
		if (aw_fuzz_target_of(m.opt.variants[v]) == AW_FUZZ_KHUGEPAGED)
			m.khugepaged = true;
	if (aw_load_scenario(crash, from, &sc, err, sizeof(err), &fuzz_variant,
			     m.khugepaged ? AW_FUZZ_KHUGEPAGED : AW_FUZZ_LOCKSTEP)) {
		fprintf(stderr, "%s\n", err);
		aw_model_opts_free(&m.opt);
		return 2;
	}
	if (!m.opt.nr_variants) {
		m.opt.variants[0] = "base";
		m.opt.variants[1] = fuzz_variant ? fuzz_variant : "pud";
		m.opt.nr_variants = 2;
	}
	m.orig = &sc;
	/* --kernel is part of the reproducer: the written scenario says it */
	if (m.opt.kernel >= 0)
		sc.cfg.kernel = (enum aw_kernel_profile)m.opt.kernel;
	m.cfg = sc.cfg;
	m.deadline = a.max_time > 0 ? now() + a.max_time : 0;
	m.max_runs = a.max_runs;
	/* the AGEWALK_BUG of a fuzzing campaign, when the crash came from one */
	if (!m.opt.bugs && getenv("AGEWALK_BUG")) {
		int b = aw_bug_parse(getenv("AGEWALK_BUG"));

		if (b >= 0)
			m.opt.bugs = 1U << b;
	}
	n = sc.nr_events;
	ev = malloc((n ? n : 1) * sizeof(*ev));
	if (!ev) {
		aw_scenario_free(&sc);
		aw_model_opts_free(&m.opt);
		return 2;
	}
	memcpy(ev, sc.events, n * sizeof(*ev));
	/* learn the finding: its oracle and variants are what must survive */
	m.want.oracle = AW_OR_NR;
	m.want.signature[0] = 0;
	got.oracle = AW_OR_NR;
	run(&m, ev, n, &got);
	m.want = got;
	if (m.want.oracle == AW_OR_NR) {
		if (m.signature)
			fprintf(stderr, "agewalk minimize: %s: no finding with signature '%s'\n", crash, m.signature);
		else
			fprintf(stderr, "agewalk minimize: %s: no finding to minimize\n", crash);
		status = 1;
		goto done;
	}
	n = ddmin(&m, ev, n);
	n = one_minimal(&m, ev, n);
	if (simplify_config(&m, ev, n)) {
		n = ddmin(&m, ev, n);
		n = one_minimal(&m, ev, n);
	}
	simplify(&m, ev, n);
	n = one_minimal(&m, ev, n);
	fprintf(stderr, "agewalk minimize: %s: %zu -> %zu events in %lu runs%s\n",
		m.want.signature, sc.nr_events, n, m.tests,
		m.timed_out ? " (INCOMPLETE: stopped by --max-time, may not be minimal)" :
		m.tests >= m.max_runs ? " (the run budget was spent: may not be 1-minimal)" : "");
	status = write_result(out, &m, ev, n, crash);
	if (!status && m.timed_out)
		status = AW_EXIT_INCOMPLETE;
done:
	free(ev);
	aw_scenario_free(&sc);
	aw_model_opts_free(&m.opt);
	return status;
}
