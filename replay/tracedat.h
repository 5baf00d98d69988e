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

enum aw_access_policy {
	AW_ACCESS_FAULTS_ONLY,		/* a fault is the only access the trace shows */
	AW_ACCESS_RECENT_FAULTS,	/* pages faulted within a window stay hot */
	AW_ACCESS_ALL_RESIDENT,		/* every page faulted and still mapped stays hot */
};

struct aw_trace_opts {
	const char *path;
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

struct aw_trace_stats {
	uint64_t events_read, events_used, events_emitted, lost_events;
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
};

/*
 * Read path into sc (events, names, config).  Returns 0, or -1 with a
 * one-line message in err ("FILE: ...").
 */
int aw_trace_ingest(const struct aw_trace_opts *o, struct aw_scenario *sc, struct aw_trace_stats *st,
		    char *err, size_t errlen);

const char *aw_access_policy_name(enum aw_access_policy p);
void aw_trace_stats_free(struct aw_trace_stats *st);

#endif /* AW_TRACEDAT_H */
