// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace events agewalk reads (tev.h): which tracepoint, the fields its
 * handler reads, the handler.  traces/record enables this same list
 * (unit.test_trace_events compares the two); an event not here is counted
 * in the report's skipped list under its name.
 */
#include "tev.h"

#define BEFORE_START	true	/* structural: replayed before --start */

const struct aw_tev_desc aw_tev_table[AW_TEV_NR] = {
	/* faults, DAMON, migrations (ev_access.c) */
	[AW_TEV_FAULT] = { "exceptions", "page_fault_user", { "address", "error_code" }, NULL, aw_on_fault },
	/* address-space syscalls (ev_syscalls.c) */
	[AW_TEV_MMAP_ENTER] = { "syscalls", "sys_enter_mmap", { "addr", "len", "prot", "flags", "fd", "off" }, NULL,
				aw_on_mmap, BEFORE_START },
	[AW_TEV_MMAP_EXIT] = { "syscalls", "sys_exit_mmap", { "ret" }, NULL, aw_on_mmap, BEFORE_START },
	[AW_TEV_MUNMAP] = { "syscalls", "sys_enter_munmap", { "addr", "len" }, NULL, aw_on_range, BEFORE_START },
	[AW_TEV_MREMAP] = { "syscalls", "sys_enter_mremap", { "addr", "old_len", "new_len", "flags", "new_addr" },
			    NULL, aw_on_range, BEFORE_START },
	[AW_TEV_MPROTECT] = { "syscalls", "sys_enter_mprotect", { "start", "len", "prot" }, NULL, aw_on_range,
			      BEFORE_START },
	/* the exit alone carries the new break; the entry is read so it is not reported skipped */
	[AW_TEV_BRK_ENTER] = { "syscalls", "sys_enter_brk", { 0 }, NULL, NULL, BEFORE_START },
	[AW_TEV_BRK_EXIT] = { "syscalls", "sys_exit_brk", { "ret" }, NULL, aw_on_brk, BEFORE_START },
	[AW_TEV_MADVISE] = { "syscalls", "sys_enter_madvise", { "start", "len_in", "behavior" }, NULL,
			     aw_on_range, BEFORE_START },
	[AW_TEV_MBIND] = { "syscalls", "sys_enter_mbind", { "start", "len", "mode" }, NULL, aw_on_range, BEFORE_START },
	[AW_TEV_SET_MEMPOLICY] = { "syscalls", "sys_enter_set_mempolicy", { "mode" }, NULL, aw_on_set_mempolicy,
				   BEFORE_START },
	[AW_TEV_MOVE_PAGES] = { "syscalls", "sys_enter_move_pages", { 0 }, NULL, aw_on_migration },
	[AW_TEV_MIGRATE_PAGES] = { "syscalls", "sys_enter_migrate_pages", { 0 }, NULL, aw_on_migration },
	[AW_TEV_PRCTL] = { "syscalls", "sys_enter_prctl", { "option", "arg2", "arg3" }, NULL, aw_on_prctl,
			   BEFORE_START },
	[AW_TEV_MM_MIGRATE] = { "migrate", "mm_migrate_pages", { 0 }, NULL, aw_on_migration },
	/*
	 * reads and writes through a descriptor that names a file mapping
	 * (ev_syscalls.c); read(2)/write(2) carry no position and are not read
	 */
	[AW_TEV_PREAD] = { "syscalls", "sys_enter_pread64", { "fd", "count", "pos" }, NULL, aw_on_fdio },
	[AW_TEV_PWRITE] = { "syscalls", "sys_enter_pwrite64", { "fd", "count", "pos" }, NULL, aw_on_fdio },
	[AW_TEV_CLOSE] = { "syscalls", "sys_enter_close", { "fd" }, NULL, aw_on_close, BEFORE_START },
	/* process lifetime and scheduling (ev_sched.c) */
	[AW_TEV_FORK] = { "sched", "sched_process_fork", { "pid", "child_pid" }, NULL, aw_on_fork, BEFORE_START },
	[AW_TEV_EXEC] = { "sched", "sched_process_exec", { "pid" }, NULL, aw_on_exec, BEFORE_START },
	[AW_TEV_EXIT] = { "sched", "sched_process_exit", { "pid", "group_dead" }, NULL, aw_on_exit, BEFORE_START },
	[AW_TEV_SWITCH] = { "sched", "sched_switch", { "next_pid" }, NULL, aw_on_switch },
	[AW_TEV_NEWTASK] = { "task", "task_newtask", { "pid", "clone_flags" }, NULL, aw_on_newtask, BEFORE_START },
	/* MGLRU aging (ev_vmscan.c) */
	[AW_TEV_LRU_GEN_WALK] = { "vmscan", "mm_vmscan_lru_gen_walk",
				  { "nid", "seq", "leaf_total", "leaf_associated", "empty", "pud_skipped" }, NULL,
				  aw_on_lru_gen_walk },
	/* DAMON's aggregated regions (ev_access.c) */
	[AW_TEV_DAMON] = { "damon", "damon_aggregated", { "target_id", "start", "end", "nr_accesses" }, NULL,
			   aw_on_damon },
	/*
	 * khugepaged (ev_huge_memory.c), fields by name: older kernels have a
	 * "writable" field in between, later ones may add "order"
	 */
	[AW_TEV_KH_SCAN_PMD] = { "huge_memory", "mm_khugepaged_scan_pmd",
				 { "mm", "pfn", "referenced", "none_or_zero", "status", "unmapped" }, "status",
				 aw_on_khugepaged },
	[AW_TEV_KH_COLLAPSE] = { "huge_memory", "mm_collapse_huge_page", { "mm", "isolated", "status" }, "status",
				 aw_on_khugepaged },
	[AW_TEV_KH_SWAPIN] = { "huge_memory", "mm_collapse_huge_page_swapin",
			       { "mm", "swapped_in", "referenced", "ret" }, NULL, aw_on_khugepaged },
	/* the patched kernel's: one scan_mm_slot() call */
	[AW_TEV_KH_SCAN] = { "huge_memory", "mm_khugepaged_scan", { "mm", "progress", "full_scan_finished" }, NULL,
			     aw_on_khugepaged },
};

bool aw_trace_event(int i, const char **system, const char **event)
{
	if (i < 0 || i >= AW_TEV_NR)
		return false;
	*system = aw_tev_table[i].system;
	*event = aw_tev_table[i].event;
	return true;
}
