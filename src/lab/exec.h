/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * agewalk-exec: a scenario run on the real kernel the program runs on
 * (docs/lab.md, "The executor").  One controller process (struct aw_exec)
 * drives one worker process per scenario process over a socketpair; aging
 * and eviction go through the kernel's MGLRU debugfs files, and the figures
 * come from the kernel's own counters (lru_gen_full, memory.stat, pagemap).
 *
 * All state hangs off struct aw_exec; the worker's state off struct
 * aw_wstate.  No global mutable state.
 */
#ifndef AW_EXEC_H
#define AW_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "grow.h"
#include "scenario.h"

/* ---- worker channel (exec_worker.c) ----------------------------------- */

enum aw_wop {
	AW_W_HELLO = 1,		/* (reply only) a worker image started */
	AW_W_MMAP, AW_W_MUNMAP, AW_W_MREMAP, AW_W_MPROTECT, AW_W_BRK,
	AW_W_MADVISE, AW_W_MBIND, AW_W_SET_MEMPOLICY, AW_W_MIGRATE,
	AW_W_ACCESS, AW_W_AFFINITY, AW_W_PRCTL_THP, AW_W_FLUSH,
	AW_W_FORK, AW_W_VFORK, AW_W_THREAD, AW_W_EXEC, AW_W_EXIT,
	AW_W_MARK,		/* madvise(MADV_NORMAL): the do_madvise kprobe names this task's mm */
};

/* One request; the event's fields, as the worker needs them. */
struct aw_wreq {
	uint32_t op;		/* enum aw_wop */
	uint32_t flags;		/* event flags */
	uint32_t arg;
	uint32_t node;
	uint32_t cpu;		/* AW_CPU_CURRENT: leave the affinity */
	uint32_t repeat;
	uint64_t addr, len, stride, addr2;
};

/* One reply: errno (0 = done), an address, the new task's id. */
struct aw_wrep {
	int32_t err;
	int32_t pid;		/* HELLO: the task's id; FORK/VFORK/THREAD: the child's */
	uint64_t addr;		/* MMAP/MREMAP: where; BRK: the new break */
	uint32_t note;		/* AW_WN_*: what the worker could not do as asked */
	uint32_t pad;
};

#define AW_WN_NO_DROPPABLE	0x1	/* MAP_DROPPABLE refused: mapped without it */
#define AW_WN_SKIPPED		0x2	/* ACCESS: addr = steps outside the VMAs or their protection */

/* Worker entry: serve requests on fd until EXIT; never returns. */
void aw_worker_main(int fd, bool is_thread) __attribute__((noreturn));
/* Pin the calling task to cpu (AW_CPU_CURRENT: leave it); 0 or an errno. */
int aw_set_affinity(uint32_t cpu);
/* Controller side: send a request (with an fd to pass, or -1), read the reply. */
int aw_wsend(int fd, const struct aw_wreq *rq, int pass_fd);
int aw_wrecv(int fd, struct aw_wrep *rp);

/* ---- lru_gen debugfs (exec_lrugen.c) ---------------------------------- */

#define AW_LG_MAX_STATS		9	/* 6.12 + the PUD series' TYFALWEES; 6.1 LOYNFA 6, 6.12 TYFA 4 */
#define AW_LG_MAX_GENS		4	/* MAX_NR_GENS */
#define AW_LG_MAX_LRUVECS	256

/* Which stat is which, by the letters lru_gen_seq_show_full() prints. */
enum aw_lg_stat { AW_LG_LEAF_TOTAL, AW_LG_LEAF_OLD, AW_LG_LEAF_YOUNG, AW_LG_NONLEAF_TOTAL,
		  AW_LG_NONLEAF_FOUND, AW_LG_NONLEAF_ADDED,
		  /* the PUD series (src/ktext/series/pud-v3): L W E E S */
		  AW_LG_LEAF_ASSOCIATED, AW_LG_WALK_TOTAL, AW_LG_WALK_EMPTY, AW_LG_LEAF_EMPTY_WALKS,
		  AW_LG_PUD_SKIPPED, AW_LG_NR };

/* One lruvec (memcg, node) of a lru_gen_full read. */
struct aw_lg_lruvec {
	unsigned int memcg_id;
	char path[256];
	int node;
	uint64_t max_seq;
	uint64_t min_seq[2];		/* anon, file: the first seq not marked 'x' */
	int nr_stats;			/* 6 (6.1), 4 (6.12), 8/9 (the PUD series), 0: none */
	bool cumulative;		/* upper-case letters on max_seq: NR_HIST_GENS == 1 */
	int64_t stats[AW_LG_NR];	/* cumulative figures (upper case), -1 = none */
	/* the generation lines: seq and the anon and file pages of each (lru_gen_seq_show()) */
	int nr_sizes;
	uint64_t size_seq[AW_LG_MAX_GENS], size[AW_LG_MAX_GENS][2];
	uint64_t gen_seq[AW_LG_MAX_GENS];	/* lower case: per-generation figures */
	int64_t gen_stats[AW_LG_MAX_GENS][AW_LG_NR];
	int nr_gens;
};

struct aw_lg_snapshot {
	int nr;
	struct aw_lg_lruvec v[AW_LG_MAX_LRUVECS];
};

/* Parse lru_gen or lru_gen_full text; -1 with a reason (line number) in err. */
int aw_lg_parse(const char *text, struct aw_lg_snapshot *snap, char *err, size_t errlen);
const struct aw_lg_lruvec *aw_lg_find(const struct aw_lg_snapshot *snap, unsigned int memcg_id, int node);
int aw_lg_find_memcg(const struct aw_lg_snapshot *snap, const char *path);	/* id or -1 */
/* The walk figures of the pass that took before->max_seq to after's: -1 = none. */
void aw_lg_walk_delta(const struct aw_lg_lruvec *before, const struct aw_lg_lruvec *after,
		      int64_t out[AW_LG_NR]);

enum aw_kver { AW_KV_6_1 = 1, AW_KV_6_12 };
#define AW_LG_OWN_SWAPPINESS	4294967295u	/* the %u the kernel reads as -1: get_swappiness() */
/* "+ MEMCG NODE SEQ SWAPPINESS|CAN_SWAP FORCE" and "- MEMCG NODE SEQ SWAPPINESS NR" */
int aw_lg_age_cmd(char *buf, size_t len, enum aw_kver kv, unsigned int memcg_id, int node,
		  uint64_t max_seq, unsigned int swappiness, bool force);
int aw_lg_evict_cmd(char *buf, size_t len, unsigned int memcg_id, int node, uint64_t seq,
		    unsigned int swappiness, uint64_t nr);

/* ---- knobs, cgroups, machine (exec_knobs.c) --------------------------- */

int aw_read_file(const char *path, char **text);	/* 0, or -errno */
int aw_write_file(const char *path, const char *text);	/* 0, or -errno */
int64_t aw_read_key(const char *path, const char *key);	/* "key value" lines; -1 if none */

/* ---- pagemap (exec_pagemap.c) ----------------------------------------- */

struct aw_residency { uint64_t resident, swapped; };
/* The zero page's and the huge zero page's PFNs (0: unknown, PFNs hidden). */
struct aw_zero_pfns { uint64_t zero, huge; };
void aw_zero_pfns(struct aw_zero_pfns *z);
/* Pages of [addr, addr+len) present (zero pages left out when z knows them) and swapped. */
int aw_pagemap_residency(pid_t pid, uint64_t addr, uint64_t len, const struct aw_zero_pfns *z,
			 struct aw_residency *r);

/* ---- the controller (exec_plan.c) ------------------------------------- */

struct aw_exec_opts {
	const char *input;
	const char *cg_mount;		/* cgroup2 mount: memcg 0 */
	const char *cg_root;		/* memcg M = cg_root/mM */
	const char *debugfs;		/* lru_gen, lru_gen_full */
	const char *thp_dir;		/* /sys/kernel/mm/transparent_hugepage */
	const char *sys_dir;		/* /sys/devices/system (nodes, CPUs) */
	const char *tracefs;		/* kprobe_events, trace */
	const char *self;		/* this program, for worker images */
	const char *file_dir;		/* `file` mappings' files: a disk file system (NULL: memfds) */
	int kh_wait_ms;			/* khugepaged: the bounded wait per event */
	enum aw_kver kver;		/* 0: from uname -r */
	bool json;
};

enum aw_note_kind { AW_NOTE_NOT_EXECUTED, AW_NOTE_REFUSED, AW_NOTE_APPROXIMATED, AW_NOTE_ERROR,
		    AW_NOTE_SETUP };

struct aw_note {
	long event;			/* event index, -1 for setup */
	uint32_t line;
	enum aw_note_kind kind;
	char text[160];
};

/* ---- the model's placement of a mapping (exec_place.c) ----------------- */

struct aw_xrange { uint64_t start, end; };
struct aw_xspace { int nr, cap; struct aw_xrange *r; };	/* sorted, disjoint */

int aw_space_add(struct aw_xspace *s, uint64_t start, uint64_t end);
int aw_space_remove(struct aw_xspace *s, uint64_t start, uint64_t end);
int aw_space_copy(struct aw_xspace *dst, const struct aw_xspace *src);
/* The model's top-down address for len below base at align; 0 if none. */
uint64_t aw_space_place(const struct aw_xspace *s, uint64_t base, uint64_t len, uint64_t align);
/* __get_unmapped_area()'s alignment for the kernel version (kver: enum aw_kver). */
uint64_t aw_place_align(int kver, bool file, uint64_t len);

struct aw_xworker {
	pid_t pid;			/* the task (tid for a thread) */
	int fd;				/* channel, -1 when gone */
	bool direct_child;		/* the controller forked it: reap it */
	bool thread;
	unsigned int cpu;
	uint64_t mm;			/* the kernel's mm_struct address, 0 = not seen */
	bool tlb_stale;			/* reclaim ran since its last flush (the QEMU TLB rule) */
	int space;			/* index into aw_exec.space: its mm's scenario mappings */
};

struct aw_xregion {
	uint64_t addr, len;
	uint32_t owner;			/* scenario pid whose pagemap holds it */
	bool mapped;
	uint64_t resident, swapped;	/* at the end */
};

#define AW_MAX_WALKED	16

/* One aging pass, or one eviction, of a node. */
struct aw_xpass {
	int pass;
	long event;
	bool forced, aged, refused;
	bool reclaim;			/* aged by the kernel's own reclaim, not by a command */
	uint64_t seq_before, seq_after;
	int64_t stat[AW_LG_NR];		/* -1 = the kernel has no figure */
	/* walk_pud_range() kprobe hits, by worker (exec_kprobe.c) */
	bool traced;
	int nr_walked;
	struct { uint32_t proc, calls; } walked[AW_MAX_WALKED];
	uint32_t walked_other;		/* hits on mms of no worker, or beyond the array */
};

/*
 * One `evict` event: the debugfs '-' it wrote (seq = min_seq[!swappiness])
 * and the lruvec's generations either side of it, so that an eviction
 * that differs from the model's can be read generation by generation.
 */
struct aw_xevict {
	long event;
	int memcg;
	uint64_t seq, max_seq;
	uint64_t min_seq_before[2], min_seq_after[2];	/* anon, file */
	int64_t pages;			/* pgsteal difference; -1 unknown */
	int err;			/* the write's -errno, 0 done */
};

struct aw_xsample { long event; int region; uint64_t resident, swapped; };

/* exec_memstat.c: a limited memcg's memory.stat counters, event by event */
enum aw_memstat { AW_MS_PGSCAN, AW_MS_PGSTEAL, AW_MS_REFAULT_ANON, AW_MS_REFAULT_FILE,
		  AW_MS_ACTIVATE_ANON, AW_MS_ACTIVATE_FILE, AW_MS_PGMAJFAULT, AW_MS_PGREFILL,
		  AW_MS_PGACTIVATE, AW_MS_PGDEACTIVATE, AW_MS_NR };
/* the generations of the memcg's lruvecs after the event: node, seq, anon, file */
#define AW_XMS_GENS	(AW_MAX_NODES * AW_LG_MAX_GENS)
struct aw_xmemstat {
	long event;
	int memcg;
	int64_t delta[AW_MS_NR];
	int nr_gens;
	uint64_t gen[AW_XMS_GENS][4];
};
struct aw_xrpass { int pass, node, region; uint64_t resident, swapped; };

struct aw_xnode {
	int nr_passes, cap_passes;
	struct aw_xpass *passes;
	unsigned long aging_refused;
	int64_t evicted;		/* pgsteal differences over `evict` events */
	int nr_evictions, cap_evictions;
	struct aw_xevict *evictions;
	int64_t refaults0, refaults;	/* workingset_refault_* at the start; over the run (-1: none) */
};

/* ---- khugepaged's tracepoints (exec_khtrace.c) ----------------------- */

#define AW_KHT_MAX_MMS		256
#define AW_KHT_MAX_STATUS	40
#define AW_KHT_FULL_LOG		8	/* the model's AW_KH_FULL_LOG */

struct aw_kht_count { char name[40]; uint64_t count; };

/* One wake-up of khugepaged: commanded by the executor or on the kernel's own clock. */
struct aw_kht_wake {
	uint64_t progress;		/* mm_khugepaged_scan progress on the run's mms */
	bool full;			/* a record with full_scan_finished=1 */
	bool spontaneous;
	bool run;			/* a record of the run's mms */
};

/*
 * huge_memory:mm_khugepaged_scan_pmd, mm_collapse_huge_page and the series'
 * mm_khugepaged_scan, read back from the trace file and counted for the
 * run's mms (the workers' mm_struct addresses, learned from the do_madvise
 * kprobe); records of other mms are counted apart.
 */
struct aw_khtrace {
	bool on;			/* the events are enabled */
	bool has_scan;			/* the kernel has mm_khugepaged_scan (the series) */
	bool filtered;			/* the events' filters keep the run's mms only (6.1) */
	int kh_pid;			/* the khugepaged thread, 0 unknown */
	int nr_mms;
	uint64_t mm[AW_KHT_MAX_MMS];
	int window;			/* the commanded wake-up open (its number), 0 none */
	bool window_seen;		/* its first record came */
	double last_ts;			/* the last khugepaged record's time (s) */
	bool spont_open;		/* a spontaneous wake-up's records are coming */
	uint64_t wakeups, spontaneous;
	int nr_wake, cap_wake;
	struct aw_kht_wake *wake;
	uint64_t calls, progress, full_finished, other_calls, other_progress;
	uint64_t full_other;		/* full scans ended in a spontaneous wake-up of other mms only */
	uint64_t full_acc;		/* the run's progress since the last full scan ended */
	int nr_full;
	uint64_t per_full[AW_KHT_FULL_LOG];
	int nr_ranges;
	struct aw_kht_count ranges[AW_KHT_MAX_STATUS];	/* by the model's result name */
	uint64_t other_ranges;		/* khugepaged's ranges of other mms */
	uint64_t collapses, collapse_ok;
	int nr_cstatus;
	struct aw_kht_count cstatus[AW_KHT_MAX_STATUS];	/* failed collapses, by result */
	uint64_t lazyfree_skips;
	uint64_t madv_scan_pmd, madv_collapsed;	/* records in a worker's own context */
	uint64_t unmapped_status;	/* statuses the model has no name for */
};

/* Parse one line of the trace file into t (0: one of its records or markers, -1: not). */
int aw_kht_line(struct aw_khtrace *t, const char *line);
int aw_kht_add_mm(struct aw_khtrace *t, uint64_t mm);	/* 1: a new one */
/* The wake-ups the run saw: commanded ones with records, spontaneous ones that reached its mms. */
uint64_t aw_kht_wakeups(const struct aw_khtrace *t);
uint64_t aw_kht_spontaneous_run(const struct aw_khtrace *t);	/* the latter only */
void aw_kht_free(struct aw_khtrace *t);

struct aw_exec {
	struct aw_exec_opts opt;
	struct aw_scenario sc;
	char release[65];
	int nr_workers;
	struct aw_xworker *w;		/* index = scenario pid */
	struct aw_xregion *region;	/* index = region id - 1 */
	unsigned int memcg_id[AW_MAX_MEMCGS];	/* the kernel's mem_cgroup ids */
	bool memcg_known[AW_MAX_MEMCGS];
	/*
	 * The last lru_gen_full record of each lruvec (memcg * AW_MAX_NODES +
	 * node; max_seq 0: not read yet): max_seq moving between two of the
	 * executor's reads is aging by the kernel's reclaim (exec_aging.c).
	 */
	struct aw_lg_lruvec *seen;
	/* pgsteal of each memcg at the start, and what `evict` commands took of it */
	int64_t pgsteal0[AW_MAX_MEMCGS], pgsteal_cmd[AW_MAX_MEMCGS];
	bool pageout;		/* an MADV_PAGEOUT ran: reclaim that pgsteal does not see */
	bool file_memfd_noted;	/* the setup note "file mappings are memfds" is out */
	/* a memcg is limited: its reclaim is read after every event (exec_memstat.c) */
	bool limited;
	int64_t memstat_last[AW_MAX_MEMCGS][AW_MS_NR];
	int nr_memstat, cap_memstat;
	struct aw_xmemstat *memstat;
	bool cgroup2;
	struct aw_xnode node[AW_MAX_NODES];
	int nr_notes, cap_notes;
	struct aw_note *notes;
	int nr_samples, cap_samples;
	struct aw_xsample *samples;
	int nr_rpass, cap_rpass;
	struct aw_xrpass *rpass;
	int64_t kh_full_scans0, kh_collapsed0, kh_full_scans, kh_collapsed;
	size_t events_done;
	long ev;			/* event being executed */
	char fatal[256];		/* the one-line error that stopped the run */
	struct aw_lg_snapshot *snap;	/* scratch for two reads */
	struct aw_lg_snapshot *snap2;
	bool kprobes;			/* walk visibility is on */
	struct aw_khtrace kht;		/* khugepaged's tracepoints */
	int kh_sleep_ms;		/* scan_sleep_millisecs while the run lasts: wake-ups on command */
	int kh_commanded;		/* wake-ups the executor asked for */
	int kh_woken;			/* of those, the ones khugepaged was seen to run and sleep again */
	int nr_spaces;
	struct aw_xspace *space;	/* one per mm the scenario made */
	struct aw_zero_pfns zero;	/* learned at the start (exec_pagemap.c) */
};

/* The file a `file` mapping maps: on opt.file_dir, else a memfd (exec_file.c). */
int aw_exec_file(struct aw_exec *x, uint64_t len);
void aw_note(struct aw_exec *x, enum aw_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Run every event; 0, or -1 with x->fatal set (results so far kept). */
int aw_exec_run(struct aw_exec *x);
void aw_exec_finish(struct aw_exec *x);		/* end residency, reap workers */
void aw_exec_free(struct aw_exec *x);

/* exec_machine.c: the machine the scenario asks for */
int aw_machine_check(struct aw_exec *x, char *err, size_t errlen);
int aw_machine_setup(struct aw_exec *x, char *err, size_t errlen);
int aw_memcg_place(struct aw_exec *x, int memcg, pid_t pid);
int aw_memcg_limit(struct aw_exec *x, int memcg, uint64_t bytes);
void aw_memcg_path(const struct aw_exec *x, int memcg, char *buf, size_t len);
void aw_topology_print(FILE *out, const struct aw_scenario *sc);

/* exec_aging.c: age and evict through debugfs */
int aw_exec_age(struct aw_exec *x, const struct aw_event *ev);
int aw_exec_evict(struct aw_exec *x, const struct aw_event *ev);
int aw_exec_reclaim_passes(struct aw_exec *x);
void aw_exec_reclaim_pages(struct aw_exec *x, bool end);
/* Refaults on node so far in the scenario's memcgs (memory.numa_stat), -1 if unknown. */
int64_t aw_refaults_node(const struct aw_exec *x, int node);

/* exec_memstat.c: a memcg limit's reclaim, read after every event */
bool aw_exec_limited(const struct aw_exec *x);
void aw_exec_memstat(struct aw_exec *x);
const char *aw_memstat_key(int i);

/* exec_kprobe.c: which mms an aging pass walked */
void aw_kprobe_setup(struct aw_exec *x);
void aw_kprobe_collect(struct aw_exec *x, struct aw_xpass *p);
void aw_kprobe_teardown(struct aw_exec *x);
int aw_kprobe_parse_line(const char *line, int *task, bool *walk, uint64_t *mm, int *behavior);

/* exec_khtrace.c: the events, and khugepaged woken on command */
void aw_kht_setup(struct aw_exec *x);
void aw_kht_teardown(struct aw_exec *x);
/* 6.1: the events' filters, mm == each run mm (a new one learned) */
void aw_kht_refilter(struct aw_exec *x);
/* `khugepaged [times N|full N]`: wake-ups on command; 0 */
int aw_kht_wake_event(struct aw_exec *x, const struct aw_event *ev);

/* exec_json.c */
void aw_exec_json(FILE *out, const struct aw_exec *x);
void aw_exec_table(FILE *out, const struct aw_exec *x);

#endif /* AW_EXEC_H */
