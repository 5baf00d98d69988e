/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names of event kinds, for messages, --json output and debugging dumps.
 * They are the enum names in lower case rather than the .aws keywords,
 * because several kinds share a keyword (read/write are both ACCESS) and
 * some keywords are not self-explanatory out of context (`limit`).
 */
#include "event.h"

static const char *const aw_event_kind_names[AW_EV_NR] = {
	[AW_EV_NONE]		= "none",
	[AW_EV_PROC]		= "proc",
	[AW_EV_FORK]		= "fork",
	[AW_EV_VFORK]		= "vfork",
	[AW_EV_THREAD]		= "thread",
	[AW_EV_EXEC]		= "exec",
	[AW_EV_EXIT]		= "exit",
	[AW_EV_RUN]		= "run",
	[AW_EV_MMAP]		= "mmap",
	[AW_EV_MUNMAP]		= "munmap",
	[AW_EV_MREMAP]		= "mremap",
	[AW_EV_MPROTECT]	= "mprotect",
	[AW_EV_BRK]		= "brk",
	[AW_EV_MBIND]		= "mbind",
	[AW_EV_SET_MEMPOLICY]	= "set_mempolicy",
	[AW_EV_ACCESS]		= "access",
	[AW_EV_MADVISE]		= "madvise",
	[AW_EV_MIGRATE]		= "migrate",
	[AW_EV_MEMCG_LIMIT]	= "memcg_limit",
	[AW_EV_MEMCG_MOVE]	= "memcg_move",
	[AW_EV_PRCTL_THP]	= "prctl_thp",
	[AW_EV_AGE]		= "age",
	[AW_EV_AGE_BEGIN]	= "age_begin",
	[AW_EV_AGE_STEP]	= "age_step",
	[AW_EV_AGE_END]		= "age_end",
	[AW_EV_EVICT]		= "evict",
	[AW_EV_KHUGEPAGED]	= "khugepaged",
	[AW_EV_CONTEND]		= "contend",
	[AW_EV_TIME]		= "time",
	[AW_EV_SAMPLE]		= "sample",
	[AW_EV_FDIO]		= "fdio",
};

/*
 * Never returns NULL: a kind read from a corrupt or fuzzed stream must still
 * be printable in the message that rejects it.
 */
const char *aw_event_kind_name(enum aw_event_kind kind)
{
	if ((unsigned int)kind >= AW_EV_NR)
		return "unknown";
	return aw_event_kind_names[kind];
}
