// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which processes a replay keeps (--pid, --comm).  A production recording
 * holds the whole machine; a reviewer usually wants one workload.  The
 * unit kept is the process, whole: every thread, every mapping, every
 * fault, from its first event on.  A process is kept when
 *  - its tgid is a --pid, or
 *  - its comm is a --comm, when first seen or after an exec, or
 *  - its cgroup is a --cgroup or below one (cgroup v2 path from the
 *    recording's OUT.procs/TGID/cgroup; a child has its parent's), or
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
	return in->o->nr_pids || in->o->nr_comms || in->o->nr_cgroups;
}

/* In a --cgroup or below it: "/a" keeps "/a" and "/a/b", not "/ab". */
bool aw_ing_cgroup_matches(const struct aw_ingest *in, const char *cgroup)
{
	for (int i = 0; cgroup[0] && i < in->o->nr_cgroups; i++) {
		const char *want = in->o->cgroups[i];
		size_t n = strlen(want);

		while (n > 1 && want[n - 1] == '/')
			n--;
		if (!strncmp(cgroup, want, n) && (cgroup[n] == 0 || cgroup[n] == '/' || n == 1))
			return true;
	}
	return false;
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
