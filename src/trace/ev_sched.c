// SPDX-License-Identifier: GPL-2.0-only
/*
 * Process lifetime and scheduling (sched:sched_process_fork/exec/exit,
 * sched:sched_switch, task:task_newtask): who exists, which thread group
 * a task belongs to, and who ran where.
 */
#include "tev.h"

/* task:task_newtask, in the parent at copy_process(): it carries the clone flags (CLONE_VM, CLONE_THREAD). */
int aw_on_newtask(const struct aw_tctx *c)
{
	uint32_t child = (uint32_t)aw_tf(c, 0);

	return aw_ing_fork(c->in, c->tid, child, aw_tf(c, 1), aw_tev_comm(c), c->cpu);
}

/* sched_process_fork: used only when the file lacks task_newtask, which says more. */
int aw_on_fork(const struct aw_tctx *c)
{
	if (c->res->id[AW_TEV_NEWTASK] >= 0)
		return 0;	/* task_newtask carries the clone flags */
	return aw_ing_fork(c->in, (uint32_t)aw_tf(c, 0), (uint32_t)aw_tf(c, 1), 0, aw_tev_comm(c), c->cpu);
}

int aw_on_exec(const struct aw_tctx *c)
{
	return aw_ing_exec(c->in, (uint32_t)aw_tf(c, 0), aw_tev_comm(c), c->cpu);
}

/* sched_process_exit: group_dead, where the kernel has the field, says the whole thread group is gone. */
int aw_on_exit(const struct aw_tctx *c)
{
	return aw_ing_exit(c->in, (uint32_t)aw_tf(c, 0), aw_tf_has(c, 1) ? aw_tf(c, 1) != 0 : false);
}

/* sched_switch: the next task runs on this CPU (the idle task, pid 0, is no process) */
int aw_on_switch(const struct aw_tctx *c)
{
	uint32_t next = (uint32_t)aw_tf(c, 0);

	return next ? aw_ing_run(c->in, next, c->cpu) : 0;
}
