/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one event type every input format decodes into.
 *
 * An event is a fixed-size record so that a stream of millions of them is an
 * array, the fuzz input format can map onto it one to one, and the lockstep
 * engine can hand the same record to every variant.  Fields that a kind does
 * not use are zero.  Addresses are user virtual addresses: absolute when
 * `region` is 0, otherwise an offset into the named region (the region's
 * base is only known once the model has placed the mmap that created it).
 */
#ifndef AW_EVENT_H
#define AW_EVENT_H

#include <stdint.h>
#include <stddef.h>

enum aw_event_kind {
	AW_EV_NONE = 0,
	AW_EV_PROC,		/* pid: new process, fresh mm; cpu, memcg; flags AW_PROC_* */
	AW_EV_FORK,		/* pid: parent, pid2: child (copy of the mm, CoW) */
	AW_EV_VFORK,		/* pid: parent, pid2: child sharing the mm (CLONE_VM) */
	AW_EV_THREAD,		/* pid: parent, pid2: thread (CLONE_VM|CLONE_THREAD) */
	AW_EV_EXEC,		/* pid: replaces the mm with a fresh one */
	AW_EV_EXIT,		/* pid */
	AW_EV_RUN,		/* pid switched in on cpu: lru_gen_use_mm() */
	AW_EV_MMAP,		/* pid, region, len, flags AW_MAP_*, addr2: fixed address or 0 */
	AW_EV_MUNMAP,		/* pid, region/addr, len */
	AW_EV_MREMAP,		/* pid, region/addr (old start), len: old len, stride: new len, addr2: new fixed address or 0 */
	AW_EV_MPROTECT,		/* pid, region/addr, len, arg: AW_PROT_* */
	AW_EV_BRK,		/* pid, len: bytes to grow (flags AW_BRK_SHRINK: shrink) */
	AW_EV_MBIND,		/* pid, region/addr, len, node, arg: AW_MPOL_* */
	AW_EV_SET_MEMPOLICY,	/* pid, node, arg: AW_MPOL_* */
	AW_EV_ACCESS,		/* pid, cpu, region/addr, len, stride, repeat, flags AW_ACC_WRITE */
	AW_EV_MADVISE,		/* pid, region/addr, len, arg: AW_MADV_* */
	AW_EV_MIGRATE,		/* pid, region/addr, len, node: destination */
	AW_EV_MEMCG_LIMIT,	/* memcg, len: limit in bytes (0 = unlimited) */
	AW_EV_MEMCG_MOVE,	/* pid, memcg */
	AW_EV_PRCTL_THP,	/* pid, arg: AW_THP_DISABLE_* */
	AW_EV_AGE,		/* memcg, node, swappiness, flags AW_AGE_FORCE: one whole aging pass */
	AW_EV_AGE_BEGIN,	/* same fields as AGE: start an iteration, walk nothing yet */
	AW_EV_AGE_STEP,		/* memcg, node: walk the next mm of the open iteration */
	AW_EV_AGE_END,		/* memcg, node: walk the remaining mms and finish */
	AW_EV_EVICT,		/* memcg, node, len: nr_to_reclaim pages (0 = until min_seq moves), swappiness, flags AW_EVICT_* */
	AW_EV_KHUGEPAGED,	/* arg 0: repeat wake-ups, len pages_to_scan (0 = knob), flags AW_KH_FULL;
				   arg AW_KH_* (khugepaged.h): set that sysfs knob to len */
	AW_EV_CONTEND,		/* pid, arg: AW_LOCK_*, flags AW_CONTEND_ON: lock held by someone else */
	AW_EV_TIME,		/* len: nanoseconds to advance */
	AW_EV_SAMPLE,		/* region: record its residency now */
	AW_EV_FDIO,		/* pid, region/addr: file range, len, repeat: calls, flags AW_ACC_WRITE:
				   pread(2)/pwrite(2) of a file-backed region through its descriptor */
	AW_EV_NR
};

/* AW_EV_PROC flags */
#define AW_PROC_NOLAYOUT	0x01	/* no text/heap/library/stack mappings */

/* AW_EV_MMAP flags (arg carries AW_PROT_*, node unused) */
#define AW_MAP_FILE		0x01	/* file-backed private mapping (page cache) */
#define AW_MAP_LOCKED		0x02	/* VM_LOCKED */
#define AW_MAP_SEQ_READ		0x04	/* VM_SEQ_READ (MADV_SEQUENTIAL): no recency */
#define AW_MAP_DROPPABLE	0x08	/* MAP_DROPPABLE (VM_DROPPABLE) */
#define AW_MAP_HUGEPAGE		0x10	/* MADV_HUGEPAGE right after mmap (VM_HUGEPAGE) */
#define AW_MAP_NOHUGEPAGE	0x20	/* MADV_NOHUGEPAGE right after mmap (VM_NOHUGEPAGE) */
#define AW_MAP_NORESERVE	0x40	/* MAP_NORESERVE (no effect on the model's walk) */
#define AW_MAP_RAND_READ	0x80	/* VM_RAND_READ: no recency */

/* arg of MMAP / MPROTECT */
#define AW_PROT_READ		0x1
#define AW_PROT_WRITE		0x2
#define AW_PROT_EXEC		0x4
#define AW_PROT_NONE		0x0
#define AW_PROT_DEFAULT		(AW_PROT_READ | AW_PROT_WRITE)

/* AW_EV_ACCESS flags */
#define AW_ACC_WRITE		0x01
#define AW_ACC_RESIDENT		0x02	/* touch resident pages only, never fault (DAMON replay) */

/* AW_EV_BRK flags */
#define AW_BRK_SHRINK		0x01

/* arg of MADVISE */
enum aw_madv {
	AW_MADV_FREE = 1,
	AW_MADV_DONTNEED,
	AW_MADV_COLD,
	AW_MADV_PAGEOUT,
	AW_MADV_HUGEPAGE,
	AW_MADV_NOHUGEPAGE,
	AW_MADV_COLLAPSE,
	AW_MADV_NR
};

/* arg of MBIND / SET_MEMPOLICY */
enum aw_mpol {
	AW_MPOL_DEFAULT = 0,	/* local node of the faulting CPU */
	AW_MPOL_BIND,		/* the given node only */
	AW_MPOL_PREFERRED,	/* the given node, fall back elsewhere */
	AW_MPOL_NR
};

/* arg of PRCTL_THP */
enum aw_thp_disable {
	AW_THP_ENABLE = 0,		/* PR_SET_THP_DISABLE 0 */
	AW_THP_DISABLE_COMPLETELY,	/* PR_SET_THP_DISABLE 1 */
	AW_THP_DISABLE_EXCEPT_ADVISED,	/* ... | PR_THP_DISABLE_EXCEPT_ADVISED */
	AW_THP_DISABLE_NR
};

/* AW_EV_AGE* flags */
#define AW_AGE_FORCE		0x01	/* force_scan */
/*
 * AW_EV_AGE from a trace: events were lost (ring-buffer overrun) since the
 * node's previous pass, so this pass's figures rest on an incomplete
 * record.  The model ignores it; the lockstep engine marks the pass.
 */
#define AW_AGE_LOST		0x02

/* AW_EV_EVICT flags */
#define AW_EVICT_DIRECT		0x01	/* reclaimer without an mm_walk (direct/memcg reclaim) */

/* arg of KHUGEPAGED: 0 = wake-ups, else the sysfs knob
 * /sys/kernel/mm/transparent_hugepage/khugepaged/<name> to set to len */
enum aw_kh_knob {
	AW_KH_RUN = 0,
	AW_KH_PAGES_TO_SCAN,
	AW_KH_MAX_PTES_NONE,
	AW_KH_MAX_PTES_SWAP,
	AW_KH_MAX_PTES_SHARED,
	AW_KH_KNOB_NR
};

/* AW_EV_KHUGEPAGED flags */
#define AW_KH_FULL		0x01	/* wake up until full_scans grew by repeat */
#define AW_KH_MAX_WAKEUPS	(1U << 16)	/* per event, a bound for absurd inputs */

/* arg of CONTEND */
enum aw_lock {
	AW_LOCK_MMAP = 1,	/* mmap_read_trylock() fails while held */
	AW_LOCK_PTL,		/* PTE/PMD spin_trylock() fails while held */
	AW_LOCK_NR
};
#define AW_CONTEND_ON		0x01

#define AW_SWAPPINESS_DEFAULT	0xffff	/* the lruvec's own swappiness (60, 0 without swap) */
#define AW_CPU_CURRENT		0xffff	/* run/access: the CPU the process last ran on */

struct aw_event {
	uint8_t  kind;		/* enum aw_event_kind */
	uint8_t  flags;		/* per-kind AW_* flags above */
	uint16_t region;	/* named region (1-based) or 0: addr is absolute */
	uint16_t node;		/* target node (age, evict, migrate, mbind, policy) */
	uint16_t cpu;		/* CPU the process runs on (proc, run, access) */
	uint16_t memcg;		/* memcg id (proc, age, evict, limit, move); 0 is the root */
	uint16_t swappiness;	/* age/evict; AW_SWAPPINESS_DEFAULT */
	uint32_t pid;		/* scenario process id */
	uint32_t pid2;		/* child of fork/vfork/thread */
	uint32_t arg;		/* advice, prot, policy, prctl mode, lock kind */
	uint32_t repeat;	/* access repeat count, >= 1 */
	uint64_t addr;		/* absolute address, or offset into region */
	uint64_t len;		/* bytes; or limit; or pages to reclaim; or ns */
	uint64_t stride;	/* access stride in bytes (0 = 4 KiB); mremap new len */
	uint64_t addr2;		/* mmap/mremap fixed address, 0 = kernel places it */
};

_Static_assert(sizeof(struct aw_event) == 64, "aw_event is a fixed 64-byte record");

const char *aw_event_kind_name(enum aw_event_kind kind);

#endif /* AW_EVENT_H */
