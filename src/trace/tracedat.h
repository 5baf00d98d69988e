/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.dat ingestion (libtracecmd + libtraceevent): a recording becomes an
 * agewalk scenario, under stated policies for what a trace cannot say
 * (accesses that do not fault, aging in kernels without the aging
 * tracepoint, memory that existed before the recording started).
 */
#ifndef AW_TRACEDAT_H
#define AW_TRACEDAT_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

struct aw_tguard;

enum aw_access_policy {
	AW_ACCESS_FAULTS_ONLY,		/* a fault is the only access the trace shows */
	AW_ACCESS_RECENT_FAULTS,	/* pages faulted within a window stay hot */
	AW_ACCESS_ALL_RESIDENT,		/* every page faulted and still mapped stays hot */
};

#define AW_TRACE_MAX_FILES	64	/* inputs of one replay */

struct aw_trace_opts {
	const char *path;		/* the first input: its side files describe the machine */
	const char *const *paths;	/* every input (source.h), paths[0] == path */
	int nr_paths;
	bool merge;			/* several inputs interleaved by timestamp, not one after another */
	uint64_t reopen_every;		/* reopen the inputs every N records (AGEWALK_REOPEN_EVERY, tests) */
	struct aw_tguard *guard;	/* guard.h: opens watched by a parent; NULL: each file probed in a child */
	uint64_t age_every_ns;		/* synthesized aging period (trace time) */
	int force_every;		/* every Nth synthesized pass is forced, 0 = none */
	uint64_t memory_limit;		/* bytes; all traced processes in one limited memcg */
	int nr_nodes;			/* --nodes, 0 = side file, else 1 */
	const char *topology;		/* --topology FILE, NULL = OUT.topology if present */
	uint64_t swap_bytes;		/* --swap, UINT64_MAX = side file, else 8G */
	enum aw_access_policy access;
	uint64_t window_ns;		/* recent-faults window */
	bool progress;			/* progress bar on stderr */
	int thp;			/* enum aw_thp_mode, -1 = the recording's (side file), else always */
	uint64_t kh_gap_ns;		/* khugepaged records further apart start a new wake-up */
	uint64_t kh_every_ns;		/* synthesized khugepaged wake-ups (trace time), 0 = recorded */
	int64_t kh_pid;			/* --kh-pid: khugepaged's pid, -1 = by comm */
	/*
	 * The window, trace time from the first event: before start only
	 * process lifetimes and mappings are replayed; reading stops at end.
	 * A share of the duration (start_pct/end_pct >= 0) is resolved
	 * against the file's own span first.  end_ns 0 = the end.
	 */
	uint64_t start_ns, end_ns;
	double start_pct, end_pct;	/* -1 = not a share */
	const uint32_t *pids;		/* --pid (filter.c) */
	int nr_pids;
	const char *const *comms;	/* --comm */
	int nr_comms;
	const char *const *cgroups;	/* --cgroup: v2 paths, a process in one or below it */
	int nr_cgroups;
};

void aw_trace_opts_default(struct aw_trace_opts *o);

#define AW_TRACE_MAX_SKIPPED	32

/* One recorded aging pass: the mm_vmscan_lru_gen_walk events of one (nid, seq). */
struct aw_recorded_pass {
	uint32_t nid;
	uint64_t seq;
	uint32_t walks, empty, ran;
	uint64_t leaf_total, leaf_associated, pud_skipped;
	bool forced;		/* inferred: more walks than processes that ran since */
};

#define AW_KH_MAX_STATUS	40
#define AW_KH_MAX_WAKEUP_LOG	4096

/* Counts of one status string (the kernel's SCAN_STATUS names, from the file's print fmt). */
struct aw_kh_status_count {
	char name[40];
	uint64_t count;
};

/*
 * What the recording says khugepaged did: huge_memory:mm_khugepaged_scan_pmd,
 * mm_collapse_huge_page, mm_collapse_huge_page_swapin and the patched
 * kernel's mm_khugepaged_scan.  Records from the khugepaged thread are
 * grouped into wake-ups by time gap; records from any other task come from
 * MADV_COLLAPSE (process context) and are counted apart.
 */
struct aw_recorded_kh {
	bool has_scan_pmd, has_collapse, has_scan, has_swapin;	/* the file knows the event */
	int64_t pid;				/* khugepaged's pid, -1 if never seen */
	uint64_t wakeups;			/* groups of khugepaged records */
	uint64_t wakeups_emitted;		/* model wake-ups the stream got from them */
	uint64_t synthesized_wakeups;		/* --khugepaged-every */
	uint64_t scan_pmd, collapses, collapse_succeeded, collapse_failed;
	uint64_t swapin, swapped_in;		/* mm_collapse_huge_page_swapin records, pages */
	uint64_t scan, scan_progress, scan_full;	/* mm_khugepaged_scan */
	uint64_t other_scan_pmd, other_collapses, other_collapse_succeeded;	/* not khugepaged */
	uint64_t madv_collapse;			/* madvise(MADV_COLLAPSE) calls replayed */
	int nr_scan_status, nr_collapse_status;
	struct aw_kh_status_count scan_status[AW_KH_MAX_STATUS];	/* khugepaged's scan_pmd */
	struct aw_kh_status_count collapse_status[AW_KH_MAX_STATUS];	/* khugepaged's collapses */
	int nr_wakeup_log;
	uint64_t *wakeup_progress;		/* mm_khugepaged_scan progress per wake-up (first 4096) */
	uint64_t wakeup_last_ts;		/* trace time of the open wake-up's last record */
	bool wakeup_open;
};

/*
 * Where converted events go as they are made (emit.c), in stream order:
 * event() returns 0, or -1 to stop the ingestion with an error.
 */
struct aw_trace_sink {
	int (*event)(void *ctx, const struct aw_event *ev);
	void *ctx;
};

/* The window a recorded pass's AGE event waits in for its force flag (emit.c), events, a power of 2. */
#define AW_ING_HOLD		65536

#define AW_TRACE_MAX_LOST	64

/*
 * Where the recording lost events: ring-buffer overruns show as a count
 * (or an unknown number) on the first record after the gap, on one CPU.
 * The loss lies between that CPU's previous record and this one.
 */
struct aw_lost_range {
	int cpu;
	uint64_t from_ns, to_ns;	/* trace time, from the first event */
	int64_t events;			/* -1: the ring buffer did not say how many */
};

struct aw_trace_stats {
	uint64_t events_read, events_used, events_emitted, lost_events;
	uint64_t late_forced;			/* recorded forced passes replayed non-forced (emit.c) */
	uint64_t events_filtered;		/* converted events of processes left out (filter.c) */
	uint64_t processes_entered;		/* kept processes that entered mid-stream */
	uint64_t events_before_start;		/* records before --start not replayed */
	uint64_t window_start_ns, window_end_ns;	/* the window as resolved (end 0 = none) */
	int nr_lost;				/* places events were lost, the first AW_TRACE_MAX_LOST kept */
	struct aw_lost_range lost[AW_TRACE_MAX_LOST];
	uint64_t lost_places;			/* all of them */
	uint64_t first_ts, last_ts;
	uint64_t processes;
	uint64_t synthesized_passes, recorded_walks;
	uint64_t unreplayable_migrations;	/* move_pages / mm_migrate_pages: no addresses */
	uint64_t implicit_vmas;			/* faults outside any known mapping */
	uint64_t damon_regions;			/* damon:damon_aggregated regions used */
	int nr_skipped;
	struct { char name[48]; uint64_t count; } skipped[AW_TRACE_MAX_SKIPPED];
	bool had_topology, had_snapshots, had_tgids, had_aging_events;
	char topology_source[64];
	int long_size;				/* 4 or 8: the recording's word size */
	int nr_recorded, cap_recorded;
	struct aw_recorded_pass *recorded;	/* freed by aw_trace_stats_free() */
	int thp;				/* the THP mode the model ran with */
	char thp_source[32];
	char swap_source[48];
	struct aw_recorded_kh kh;
	uint64_t reopens;			/* files closed and reopened to bound libtracecmd's caches */
};

/*
 * Read path into sc (names, config) and its events into sink, as they are
 * made, or into sc's array when sink is NULL.  ready(), if given, is
 * called once sc's config is final and before the first event, so the
 * consumer can start.  Returns 0, or -1 with a one-line message in err
 * ("FILE: ...").
 */
int aw_trace_ingest(const struct aw_trace_opts *o, struct aw_scenario *sc, struct aw_trace_stats *st,
		    const struct aw_trace_sink *sink, int (*ready)(void *ctx, const struct aw_scenario *sc),
		    char *err, size_t errlen);

/*
 * The tracepoints the reader consumes, i from 0 (src/trace/tev.c): false
 * past the last.  traces/record enables the same list (unit.test_trace_events).
 */
bool aw_trace_event(int i, const char **system, const char **event);

const char *aw_access_policy_name(enum aw_access_policy p);
void aw_trace_stats_free(struct aw_trace_stats *st);

#endif /* AW_TRACEDAT_H */
