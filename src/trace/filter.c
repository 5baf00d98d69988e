// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which processes a replay keeps (--pid, --comm).  A production recording
 * holds the whole machine; a reviewer usually wants one workload.  The
 * unit kept is the process, whole: every thread, every mapping, every
 * fault, from its first event on.  A process is kept when
 *  - its tgid is a --pid, or
 *  - its comm is a --comm, when first seen or after an exec, or
 *  - its parent was kept when it forked (a build's compilers follow make).
 * Aging and khugepaged are the machine's and always replayed.  A kept
 * process whose parent is not kept, or that starts being kept at an exec,
 * enters the stream as a process of its own (aw_ing_enter()), with no
 * mappings: what its parent mapped was never replayed.
 */
#include <string.h>

#include "ingest.h"

bool aw_ing_filtering(const struct aw_ingest *in)
{
	return in->o->nr_pids || in->o->nr_comms;
}

bool aw_ing_matches(const struct aw_ingest *in, uint32_t tgid, const char *comm)
{
	const struct aw_trace_opts *o = in->o;

	if (!aw_ing_filtering(in))
		return true;
	for (int i = 0; i < o->nr_pids; i++)
		if (o->pids[i] == tgid)
			return true;
	for (int i = 0; comm && i < o->nr_comms; i++)
		if (!strcmp(o->comms[i], comm))
			return true;
	return false;
}

/* Is the event about a process the filter leaves out?  (emit.c drops it.) */
bool aw_ing_filtered_out(const struct aw_ingest *in, const struct aw_event *ev)
{
	return ev->pid && ev->pid <= in->nr_procs && !in->procs[ev->pid - 1].kept;
}

/*
 * p starts being kept without the model knowing it (its parent was left
 * out, or an exec made it match): it enters as a process of its own,
 * with no mappings, as a process seen first in the middle of a trace.
 */
int aw_ing_enter(struct aw_ingest *in, struct aw_tproc *p, int cpu)
{
	struct aw_event ev = { .kind = AW_EV_PROC, .flags = AW_PROC_NOLAYOUT, .pid = p->id,
			       .cpu = (uint16_t)cpu, .memcg = in->o->memory_limit ? 1 : 0 };

	p->kept = true;
	p->nr_vmas = 0;
	in->st->processes_entered++;
	return aw_ing_emit(in, &ev);
}
