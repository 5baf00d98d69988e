/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The lockstep engine (docs/oracles.md): one simulated kernel per variant, the
 * same events applied to every kernel in order, the oracles checked after
 * every event.  Deterministic: the same stream gives the same bytes out.
 */
#ifndef AW_LOCKSTEP_H
#define AW_LOCKSTEP_H

#include <stdio.h>

#include "cause.h"
#include "equiv.h"
#include "scenario.h"
#include "oracle.h"
#include "kernel.h"

#define AW_MAX_VARIANTS	4

/*
 * What a kernel-text variant's text executed on its machine (src/kbind
 * counts it on the text's side of the seam): named counters for the
 * reports, and whether the text ran at all.
 */
#define AW_TEXT_RAN_MAX 32
struct aw_text_ran {
	int nr;
	const char *key[AW_TEXT_RAN_MAX];	/* the JSON key: aging_calls */
	const char *label[AW_TEXT_RAN_MAX];	/* the table's words: try_to_inc_max_seq() calls */
	unsigned long value[AW_TEXT_RAN_MAX];
	bool idle;				/* no aging pass, no eviction, no reclaim */
};

struct aw_variant {
	const char *name;
	unsigned int features;
	/*
	 * Kernel text built from a tree (src/kbind; NULL for the model's
	 * variants): bind() puts the tree's MGLRU code into k as its
	 * aw_mglru_ops; agree() is the exact-agreement oracle, comparing text
	 * with model, the kernel of variant pair, after an event: 0, or -1
	 * with msg naming the first field that differs and both values.
	 */
	int (*bind)(struct aw_kernel *k, const struct aw_variant *v);
	int (*agree)(struct aw_kernel *model, struct aw_kernel *text, char *msg, size_t len);
	const void *text;		/* the tree's struct aw_ktext_ops */
	/* what the text executed on k so far (kernel text only) */
	void (*text_ran)(const struct aw_kernel *k, struct aw_text_ran *out);
	const char *pair;		/* the model variant it must agree with: base, pud */
	bool khugepaged;		/* the text is khugepaged's: its oracle is khugepaged-text-agreement */
	int kernel;			/* the profile it runs on: enum aw_kernel_profile + 1 */
};

/* Look a variant up by name; NULL if unknown. */
const struct aw_variant *aw_variant_find(const char *name);
const char *aw_variant_names(void);	/* "base, pud, emptymap, rfc" */

/* A finding with the context the report prints. */
/*
 * A finding, and its signature: the oracle, the variants and the cause by
 * rule (cause.h), "ORACLE [VARIANTS] CAUSE".  The signature holds no
 * address, pid or event index, so campaigns group findings by it.
 */
struct aw_lockstep_finding {
	enum aw_oracle_id oracle;
	uint64_t event;
	uint32_t line;			/* source line of the event, 0 if none */
	char variants[64];
	char event_text[96];
	char cause[AW_CAUSES_MAX * (AW_CAUSE_LEN + 3)];
	char signature[AW_CAUSES_MAX * (AW_CAUSE_LEN + 3) + 128];
	char msg[320];
	struct aw_event ev;		/* the event itself (event_text names it) */
};

struct aw_lockstep_opts {
	int thp;			/* enum aw_thp_mode */
	const char *const *variants;
	int nr_variants;
	unsigned int bugs;		/* 1 << enum aw_bug, applied to every variant */
	unsigned int fixes;		/* AW_FEAT_* fixes tried, to the variants they patch */
	int skip_empty;			/* 0 = the scenario's */
	const struct aw_empty_contract *empty;	/* NULL = the scenario's */
	int kernel;			/* enum aw_kernel_profile + 1; 0 = the scenario's */
	bool oracles;			/* check the oracles (off: figures only) */
	bool keep_going;		/* collect every finding instead of stopping */
	bool findings_only;		/* oracles without the costly metrics (fuzzing) */
	int khugepaged_rev;		/* enum aw_kh_rev: the patched khugepaged's revision */
	bool khugepaged_base;		/* MGLRU variants run base khugepaged */
	bool khugepaged_prctl_enter;	/* prctl enabling THP registers the mm */
	bool warn_abort;		/* a VM_WARN_ON*() hit aborts (fuzzing: a crash) */
	FILE *walk_log;
	/* variants beyond the model's (kernel text, src/kbind): fills buf, NULL if unknown */
	const struct aw_variant *(*find_variant)(const char *name, struct aw_variant *buf);
	const char *more_variant_names;	/* for the error message: ", k6.12, k6.1" */
};

struct aw_lockstep {
	const struct aw_scenario *sc;
	int thp;
	enum aw_kernel_profile kernel;	/* the profile the kernels run */
	struct aw_empty_contract empty;	/* the empty-mm contract they run */
	int nr_variants;
	const struct aw_variant *variant[AW_MAX_VARIANTS];
	struct aw_variant variant_buf[AW_MAX_VARIANTS];	/* kernel-text variants live here */
	int pair[AW_MAX_VARIANTS];		/* kernel text: its model variant's index; -1 for model
						 * variants, and after a divergence */
	struct aw_kernel *k[AW_MAX_VARIANTS];
	size_t events_applied;
	long failed_event;			/* index of a malformed event, -1 */
	char err[400];
	int nr_findings, cap_findings;
	struct aw_lockstep_finding *findings;
	bool diverged[AW_MAX_VARIANTS];		/* eviction sets differ from base's */
	uint64_t divergence_event[AW_MAX_VARIANTS];
	unsigned long hot_only_patched[AW_MAX_VARIANTS];
	/* equivalence records of the current event (model variants, with base first) */
	bool equiv_on;
	struct aw_equiv equiv[AW_MAX_VARIANTS];
	bool equiv_fired[AW_MAX_VARIANTS];	/* one equivalence finding per variant */
	/* stepping (aw_lockstep_step): the event being applied, and where the run stands */
	bool oracles, keep_going;
	bool differential;			/* base runs first: the differential oracle is on */
	bool stopped;				/* a finding (without keep_going), an error, or the end */
	bool describe_late;			/* findings' event_text filled by aw_lockstep_describe() */
	bool has_cur;
	struct aw_event cur_ev;
	size_t cur_index;
	uint32_t cur_line;
	int seen[AW_MAX_VARIANTS];		/* oracle findings collected per variant */
};

/*
 * Run sc.  Returns 0 (check nr_findings), or -1 with ls->err set
 * ("FILE:LINE: event N (kind): why") when an event is malformed.
 */
int aw_lockstep_run(struct aw_lockstep *ls, const struct aw_scenario *sc,
		    const struct aw_lockstep_opts *opts);
/*
 * The same run an event at a time, for streams that are never in memory
 * whole (replay, .awpb): begin() takes sc for its config and names (its
 * events are not read); step() applies the next event and returns 0, 1
 * once the run has stopped at a finding (further events are ignored), or
 * -1 with ls->err set; end() runs the end-of-stream checks.  run() is
 * begin(), step() over sc's events, end().  With describe_late set after
 * begin(), findings keep their event and aw_lockstep_describe() names it
 * once the names are final (a trace renames a process at exec).
 */
int aw_lockstep_begin(struct aw_lockstep *ls, const struct aw_scenario *sc,
		      const struct aw_lockstep_opts *opts);
int aw_lockstep_step(struct aw_lockstep *ls, const struct aw_event *ev, uint32_t line);
void aw_lockstep_end(struct aw_lockstep *ls);
void aw_lockstep_describe(struct aw_lockstep *ls);
void aw_lockstep_free(struct aw_lockstep *ls);
void aw_event_describe(const struct aw_scenario *sc, const struct aw_event *ev, char *buf, size_t len);

/*
 * The variants split over two threads (replay/pipeline.c): lane 0 runs
 * variant 0 (base), lane 1 the others an event behind it.  Everything the
 * cross-variant oracles (differential, equivalence) read of base for one
 * event is what base evicted and the equivalence records of its forced
 * walks and MADV_COLLAPSE ranges, so lane 0 copies those out per event
 * (struct aw_lockstep_base, non-empty events only) and lane 1 runs the
 * oracles against the copy, with its own variants as they are at that
 * event: the same comparisons, in the same order, as aw_lockstep_step().
 * Each lane keeps its findings; aw_lockstep_join() merges them in the
 * order the one-thread run adds them (by event; lane 0's first).
 */
struct aw_lockstep_base_ev {
	size_t event;
	int evicted, nr_evicted;	/* offsets and counts into the pools */
	int walks, nr_walks;
	int ranges, nr_ranges;
};

struct aw_lockstep_base {
	int n, cap;
	struct aw_lockstep_base_ev *ev;
	int nr_evicted, cap_evicted;
	struct aw_evicted *evicted;
	int nr_walks, cap_walks;
	struct aw_equiv_walk *walks;
	int nr_ranges, cap_ranges;
	struct aw_equiv_range *ranges;
	int cursor;			/* lane 1's next entry */
};

struct aw_lockstep_lane {
	int lo, hi;			/* the variants it runs, [lo, hi) */
	size_t events_applied;
	bool stopped, failed;		/* stopped at last_event (a finding, or failed: an error) */
	size_t last_event;
	char err[400];
	int nr_findings, cap_findings;
	struct aw_lockstep_finding *findings;
	size_t *added_at;		/* the step each finding was added at */
	bool has_cur;
	struct aw_event cur_ev;
	size_t cur_index;
	uint32_t cur_line;
};

/* Whether ls's variants can run split (model variants only, two or more). */
bool aw_lockstep_can_split(const struct aw_lockstep *ls);
void aw_lockstep_lanes_init(struct aw_lockstep *ls, struct aw_lockstep_lane *lane0, struct aw_lockstep_lane *lane1);
/* Forget the entries of a batch already stepped by both lanes. */
void aw_lockstep_base_reset(struct aw_lockstep_base *b);
void aw_lockstep_base_free(struct aw_lockstep_base *b);
/* Lane 0: the next event for variant 0, its records for lane 1 into out.  0, 1 stopped, -1 error (lane->err). */
int aw_lockstep_step0(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, const struct aw_event *ev,
		      uint32_t line, struct aw_lockstep_base *out);
/*
 * Lane 1: the same event for the other variants, then the cross-variant
 * oracles against base's records in b.  lane0 must have stepped it (or
 * stopped): an event lane 0 stopped before is not applied.  0, 1, -1.
 */
int aw_lockstep_step1(struct aw_lockstep *ls, struct aw_lockstep_lane *lane, const struct aw_lockstep_lane *lane0,
		      const struct aw_event *ev, uint32_t line, struct aw_lockstep_base *b);
/*
 * After both lanes ended: their findings and state into ls, as
 * aw_lockstep_step() would have left them.  Returns 0; -1 when the run
 * stopped at an error (ls->err, as one thread reports it); or 1 when lane
 * 1 stopped at a finding before an event lane 0 had already applied: the
 * kernels do not stand where a one-thread run stops, and the run must be
 * repeated on one thread (a finding without --keep-going only).
 */
int aw_lockstep_join(struct aw_lockstep *ls, struct aw_lockstep_lane *lane0, struct aw_lockstep_lane *lane1);

/* report.c */
/* extra: a JSON fragment (\"key\":value,...) added to the object, or NULL */
void aw_report_json(FILE *out, const struct aw_lockstep *ls, const char *extra);
void aw_report_table(FILE *out, const struct aw_lockstep *ls);
void aw_report_findings(FILE *out, const struct aw_lockstep *ls);
/*
 * What each kernel-text variant's text executed (report_text_ran.c): a
 * table line, a ,"text_ran":{...} member; and one line on out per pair in
 * which the text ran nothing (a warning, or an error): how many.
 */
void aw_report_text_ran_table(FILE *out, const struct aw_lockstep *ls, int v);
void aw_report_text_ran_json(FILE *out, const struct aw_lockstep *ls, int v);
int aw_report_text_idle(FILE *out, const struct aw_lockstep *ls, bool error);
/* report_kh.c: khugepaged figures (keys kh_*), region 0 = the whole machine */
double aw_kh_metric(const struct aw_kernel *k, int region, const char *key, bool *ok);
/* whether k's khugepaged counts figure key (a tree's text counts what its tracepoints give) */
bool aw_kh_measured(const struct aw_kernel *k, const char *key);
void aw_kh_report_table(FILE *out, const struct aw_lockstep *ls);
void aw_kh_report_json(FILE *out, const struct aw_kernel *k);
/* Check the scenario's expectations for ls->thp; prints failures; returns their number. */
int aw_check_expectations(FILE *out, const struct aw_lockstep *ls);

#endif /* AW_LOCKSTEP_H */
