/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Probes at the kernel's boundaries, after include/linux/tracepoint.h.
 *
 * The model emits facts -- a young bit cleared, a filter tested, an mm
 * skipped, a folio's generation written -- through trace_<name>() calls at
 * the places where kernel text would reach a stub or a tracepoint, and
 * whoever wants them registers a probe: the oracles, the per-pass and
 * per-region figures, the walk log.  The model never calls an observer by
 * name, so a walker built from kernel text can feed the same observers
 * through its stubs, and an oracle decides by its own rule from what really
 * happened instead of from a hook placed beside the code it checks.
 *
 * Unlike the kernel's static keys, the table is per simulated kernel (no
 * global state: several kernels run side by side), and every probe gets
 * that kernel as its second argument:
 *
 *	register_trace_lru_gen_bloom_test(k, my_probe, my_data);
 *	static void my_probe(void *data, struct aw_kernel *k, struct lruvec *lruvec, ...);
 *
 * An unregistered tracepoint costs one load and a predictable branch;
 * trace_<name>_enabled(k) lets a caller skip preparing arguments, as in
 * the kernel.  The events are listed in trace_events.h.
 */
#ifndef AW_TRACEPOINT_H
#define AW_TRACEPOINT_H

#include <stdbool.h>
#include <stdint.h>

#define AW_TRACEPOINT_MAX_PROBES 4

/* the types the events' arguments name */
struct aw_event;
struct aw_kernel;
struct folio;
struct lru_gen_mm_walk;
struct lruvec;
struct mm_struct;
struct vm_area_struct;

/* lru_gen_get_next_mm: what get_next_mm() decided about an mm */
enum aw_mm_skip {
	AW_MM_TAKEN,		/* get_next_mm() returned it */
	AW_MM_SKIP_BITMAP,	/* !force_scan and its bit for this node is clear */
	AW_MM_SKIP_EXITING,	/* mmget_not_zero() failed */
	AW_MM_SKIP_EMPTY,	/* the RFC's empty-mm skip */
	AW_MM_SKIP_SMALL,	/* 6.1 should_skip_mm(): fewer than MIN_LRU_BATCH pages */
	AW_MM_HANDED,		/* returned, the empty-mm test after it (then TAKEN or SKIP_EMPTY) */
};

typedef void (*aw_probe_fn)(void);	/* the type-erased form; cast back before calling */

struct aw_tracepoint_func {
	aw_probe_fn func;
	void *data;
};

struct aw_tracepoint {
	int nr;
	struct aw_tracepoint_func funcs[AW_TRACEPOINT_MAX_PROBES];
};

/* 0, -EEXIST (same func and data twice) or -ENOSPC (table full) */
int aw_tracepoint_probe_register(struct aw_tracepoint *tp, aw_probe_fn func, void *data);
/* 0 or -ENOENT; the remaining probes keep their order */
int aw_tracepoint_probe_unregister(struct aw_tracepoint *tp, aw_probe_fn func, void *data);

#define TP_PROTO(...)	__VA_ARGS__
#define TP_ARGS(...)	__VA_ARGS__

/* the events' ids, in the order of trace_events.h */
enum aw_tracepoint_id {
#define AW_TRACE_EVENT(name, proto, args) AW_TP_##name,
#include "trace_events.h"
#undef AW_TRACE_EVENT
	AW_NR_TRACEPOINTS
};

/* Embedded in struct aw_kernel. */
struct aw_tracepoints {
	struct aw_tracepoint tp[AW_NR_TRACEPOINTS];
};

#endif /* AW_TRACEPOINT_H */
