// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks on a decoded event, shared by every binary decoder: whatever a
 * file claims, the model only ever sees ids that exist and addresses inside
 * the 47-bit user address space.
 */
#include <stdbool.h>

#include "awpb.h"

#define AW_USER_TOP	(1ULL << 47)

static bool uses_range(int kind)
{
	switch (kind) {
	case AW_EV_MUNMAP: case AW_EV_MREMAP: case AW_EV_MPROTECT: case AW_EV_MBIND:
	case AW_EV_ACCESS: case AW_EV_MADVISE: case AW_EV_MIGRATE: case AW_EV_FDIO:
		return true;
	default:
		return false;
	}
}

static bool uses_node(int kind)
{
	switch (kind) {
	case AW_EV_AGE: case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP: case AW_EV_AGE_END:
	case AW_EV_EVICT: case AW_EV_MIGRATE: case AW_EV_MBIND: case AW_EV_SET_MEMPOLICY:
		return true;
	default:
		return false;
	}
}

static bool uses_pid(int kind)
{
	switch (kind) {
	case AW_EV_TIME: case AW_EV_AGE: case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP:
	case AW_EV_AGE_END: case AW_EV_EVICT: case AW_EV_KHUGEPAGED: case AW_EV_MEMCG_LIMIT:
	case AW_EV_SAMPLE:
		return false;
	default:
		return true;
	}
}

int aw_event_validate(const struct aw_config *cfg, int nr_regions, const struct aw_event *ev,
		      char *why, size_t whylen)
{
#define BAD(...) do { snprintf(why, whylen, __VA_ARGS__); return -1; } while (0)
	if (ev->kind == AW_EV_NONE || ev->kind >= AW_EV_NR)
		BAD("unknown event kind %u", ev->kind);
	if (uses_pid(ev->kind) && ev->pid == 0)
		BAD("%s needs a process id", aw_event_kind_name(ev->kind));
	if (ev->region > nr_regions)
		BAD("region %u is not defined (%d regions)", ev->region, nr_regions);
	if (ev->addr >= AW_USER_TOP || ev->addr2 >= AW_USER_TOP)
		BAD("address 0x%llx is beyond the 47-bit user address space",
		    (unsigned long long)(ev->addr >= AW_USER_TOP ? ev->addr : ev->addr2));
	if (uses_range(ev->kind) || ev->kind == AW_EV_MMAP) {
		if (ev->len == 0)
			BAD("%s of length 0", aw_event_kind_name(ev->kind));
		if (ev->len > AW_USER_TOP || (!ev->region && ev->addr + ev->len > AW_USER_TOP))
			BAD("%s range 0x%llx+0x%llx is beyond the 47-bit user address space",
			    aw_event_kind_name(ev->kind), (unsigned long long)ev->addr,
			    (unsigned long long)ev->len);
	}
	if (ev->kind == AW_EV_MREMAP && (ev->stride == 0 || ev->stride > AW_USER_TOP))
		BAD("mremap to length 0x%llx", (unsigned long long)ev->stride);
	if (uses_node(ev->kind) && ev->node >= cfg->nr_nodes)
		BAD("node %u is not in the topology (%d nodes)", ev->node, cfg->nr_nodes);
	if (ev->memcg >= cfg->nr_memcgs)
		BAD("memcg %u is not declared (%d memcgs)", ev->memcg, cfg->nr_memcgs);
	if (ev->cpu != AW_CPU_CURRENT && ev->cpu >= AW_MAX_CPUS)
		BAD("cpu %u is out of range", ev->cpu);
	if (ev->swappiness != AW_SWAPPINESS_DEFAULT && ev->swappiness > 201)
		BAD("swappiness %u is out of range 0..201", ev->swappiness);
	if (ev->kind == AW_EV_ACCESS && ev->stride && (ev->stride & 4095))
		BAD("access stride %llu is not a multiple of 4K", (unsigned long long)ev->stride);
	if (ev->kind == AW_EV_MADVISE && (ev->arg == 0 || ev->arg >= AW_MADV_NR))
		BAD("unknown madvise advice %u", ev->arg);
	if (ev->kind == AW_EV_KHUGEPAGED && ev->arg >= AW_KH_KNOB_NR)
		BAD("unknown khugepaged knob %u", ev->arg);
	if (ev->kind == AW_EV_KHUGEPAGED && !ev->arg && ev->repeat > AW_KH_MAX_WAKEUPS)
		BAD("%u khugepaged wake-ups in one event (at most %u)", ev->repeat, AW_KH_MAX_WAKEUPS);
	return 0;
#undef BAD
}
