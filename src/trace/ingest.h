/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internal state of one trace ingestion, shared by tracedat.c (setting it
 * up), reader.c (reading the file) and the event handlers (ev_*.c, tev.h),
 * procs.c (processes, mappings, emitting agewalk events), emit.c,
 * filter.c and sidefiles.c (topology, tgids, /proc snapshots).
 */
#ifndef AW_INGEST_H
#define AW_INGEST_H

#include <stdbool.h>
#include <stdint.h>

#include "tracedat.h"

/* One traced process (thread group) as agewalk sees it. */
#define AW_TPROC_FDMAPS	16	/* file mappings a process's pread/pwrite can name */

struct aw_tproc {
	uint32_t id;		/* scenario process id */
	uint32_t tgid;
	int tasks;		/* live threads mapped to it */
	int cpu;		/* last CPU it ran on */
	bool alive;
	bool kept;		/* the filter keeps it (filter.c): its events are replayed */
	char cgroup[128];	/* its cgroup (OUT.procs/TGID/cgroup, or its parent's), "" = unknown */
	bool ran;		/* a RUN was emitted since the last aging pass */
	uint8_t ran_nodes;	/* ran since that node's last aging pass (bit per node) */
	uint64_t brk;		/* current program break, 0 = unknown */
	int nr_vmas, cap_vmas;
	int vma_hint;		/* vma_covers()' last answer: checked before it is used, never trusted */
	struct { uint64_t start, end; } *vmas;	/* what the model has mapped, sorted (procs.c) */
	int nr_faults, cap_faults;
	struct { uint64_t page, ts; } *faults;	/* recent faults (policy) */
	int nr_damon, cap_damon;
	struct { uint64_t start, end; } *damon;	/* DAMON regions accessed since the last pass */
	/* file mappings by the descriptor they were made from (ev_syscalls.c), newest last */
	int nr_fdmaps;
	struct { int32_t fd; uint64_t addr, len, off; } fdmaps[AW_TPROC_FDMAPS];
};

/* tid -> process index, open addressing */
struct aw_tidmap {
	uint32_t *key;
	int32_t *val;
	uint32_t cap, nr;
};

struct aw_pending_mmap {
	uint64_t addr, len, off;
	uint32_t prot, flags;
	int32_t fd;
	bool valid;
};

struct aw_ingest {
	const struct aw_trace_opts *o;
	struct aw_scenario *sc;
	struct aw_trace_stats *st;
	int cpu_node[AW_MAX_CPUS];
	struct aw_tidmap tids;			/* tid -> proc index */
	struct aw_tidmap tgids;			/* saved_tgids: tid -> tgid */
	struct aw_tidmap pending;		/* tid -> pending mmap index */
	struct aw_pending_mmap *pend;
	uint32_t nr_pend, cap_pend;
	struct aw_tproc *procs;
	uint32_t nr_procs, cap_procs;
	uint64_t now;				/* trace time of the current record */
	uint64_t model_time;			/* time the emitted stream has reached */
	uint64_t next_age;
	uint64_t passes;
	/* recorded aging (mm_vmscan_lru_gen_walk): the open group per node */
	uint64_t last_walk_seq[AW_MAX_NODES];
	bool seen_walk[AW_MAX_NODES];
	uint64_t group_at[AW_MAX_NODES];	/* its AGE event's index while held (emit.c) */
	bool group_spilled[AW_MAX_NODES];	/* its AGE left the hold window unflagged */
	bool lost_since_pass[AW_MAX_NODES];	/* events lost since the node's last AGE */
	uint64_t cpu_last_ts[AW_MAX_CPUS];	/* each CPU's previous record (lost ranges) */
	int capture_node;			/* the next AGE opens this node's group, -1 */
	int group_index[AW_MAX_NODES];		/* its entry in st->recorded */
	uint32_t group_ran[AW_MAX_NODES];	/* processes that ran since the node's last pass */
	const char *snap_dir;			/* OUT.procs, NULL if none */
	int recorded_thp;			/* THP mode from the side file, -1 if none */
	struct aw_tidmap damon_targets;		/* DAMON target index -> pid */
	/* the current record's task: its comm looked up only when needed (aw_ing_cur_comm()) */
	int cur_pid;
	bool cur_comm_known;
	const char *cur_comm;
	const char *(*comm_of)(void *ctx, int pid);	/* the reader's lookup, NULL if none */
	void *comm_ctx;
	uint64_t next_kh;			/* --khugepaged-every: next synthesized wake-up */
	int64_t kh_knob[AW_KH_KNOB_NR];		/* khugepaged knobs from the side file, -1 = unknown */
	/* emit.c: where events go, and the events held behind an open recorded pass */
	const struct aw_trace_sink *sink;	/* NULL: into sc's array */
	struct aw_event *hold;			/* ring of AW_ING_HOLD */
	uint64_t hold_head, hold_n;		/* index of the oldest held event, how many */
};

/* The comm of the current record's task (saved cmdlines), or NULL: looked up once, on demand. */
static inline const char *aw_ing_cur_comm(struct aw_ingest *in)
{
	if (!in->cur_comm_known) {
		in->cur_comm = in->comm_of && in->cur_pid > 0 ? in->comm_of(in->comm_ctx, in->cur_pid) : NULL;
		in->cur_comm_known = true;
	}
	return in->cur_comm;
}

/* tidmap.c-like helpers (procs.c) */
int aw_tidmap_get(const struct aw_tidmap *m, uint32_t key, int32_t *val);
int aw_tidmap_put(struct aw_tidmap *m, uint32_t key, int32_t val);
void aw_tidmap_del(struct aw_tidmap *m, uint32_t key);
void aw_tidmap_free(struct aw_tidmap *m);

/* emit.c: emitting events in order, holding a recorded pass's AGE until its force flag is known */
void aw_ing_emit_init(struct aw_ingest *in, const struct aw_trace_sink *sink);
int aw_ing_emit(struct aw_ingest *in, const struct aw_event *ev);
void aw_ing_capture_age(struct aw_ingest *in, int nid);	/* the next AGE event opens nid's group */
int aw_ing_group_forced(struct aw_ingest *in, int nid);	/* flag its AGE forced, stop holding */
int aw_ing_group_done(struct aw_ingest *in, int nid);		/* stop holding it as it is */
int aw_ing_emit_finish(struct aw_ingest *in);			/* the end: everything held goes out */
void aw_ing_emit_free(struct aw_ingest *in);

/* procs.c: events from what the trace says */
struct aw_tproc *aw_ing_proc(struct aw_ingest *in, uint32_t tid, const char *comm, int cpu);
struct aw_tproc *aw_ing_known(struct aw_ingest *in, uint32_t tid);
int aw_ing_fork(struct aw_ingest *in, uint32_t parent, uint32_t child, uint64_t clone_flags,
		const char *comm, int cpu);
int aw_ing_exec(struct aw_ingest *in, uint32_t tid, const char *comm, int cpu);
int aw_ing_exit(struct aw_ingest *in, uint32_t tid, bool group_dead);
int aw_ing_run(struct aw_ingest *in, uint32_t tid, int cpu);
int aw_ing_fault(struct aw_ingest *in, uint32_t tid, uint64_t addr, bool write, int cpu);
int aw_ing_mmap(struct aw_ingest *in, struct aw_tproc *p, uint64_t addr, uint64_t len, uint32_t prot,
		uint32_t flags, bool file);
int aw_ing_munmap(struct aw_ingest *in, struct aw_tproc *p, uint64_t addr, uint64_t len);
void aw_ing_remap(struct aw_ingest *in, struct aw_tproc *p, uint64_t old, uint64_t old_len,
		  uint64_t new_addr, uint64_t new_len);
int aw_ing_aging(struct aw_ingest *in, int only_node, bool force);
int aw_ing_khugepaged(struct aw_ingest *in, uint32_t repeat);
int aw_ing_khugepaged_set(struct aw_ingest *in, int knob, uint64_t val);
int aw_ing_damon(struct aw_ingest *in, uint32_t pid, uint64_t start, uint64_t end, uint32_t nr_accesses,
		 int cpu);
void aw_ing_free(struct aw_ingest *in);

/* filter.c: --pid, --comm */
bool aw_ing_filtering(const struct aw_ingest *in);
bool aw_ing_matches(const struct aw_ingest *in, uint32_t tgid, const char *comm);
bool aw_ing_cgroup_matches(const struct aw_ingest *in, const char *cgroup);
bool aw_ing_filtered_out(const struct aw_ingest *in, const struct aw_event *ev);
int aw_ing_enter(struct aw_ingest *in, struct aw_tproc *p, int cpu);

/* sidefiles.c */
int aw_side_topology(struct aw_ingest *in, const char *path, char *err, size_t errlen);
void aw_side_tgids(struct aw_ingest *in, const char *path);
void aw_side_damon_targets(struct aw_ingest *in, const char *path);
int aw_side_snapshot(struct aw_ingest *in, struct aw_tproc *p);
void aw_side_cgroup(struct aw_ingest *in, struct aw_tproc *p);

#endif /* AW_INGEST_H */
