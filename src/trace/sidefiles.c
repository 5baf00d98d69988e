// SPDX-License-Identifier: GPL-2.0-only
/*
 * The side files traces/record writes next to a trace.dat: the topology
 * (CPU -> node, node memory, swap), the kernel's pid -> tgid table, and
 * /proc/PID/{maps,numa_maps} snapshots taken when recording started.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest.h"

static int parse_cpus(const char *s, uint64_t *mask)
{
	*mask = 0;
	if (!strcmp(s, "none"))
		return 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= AW_MAX_CPUS)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= AW_MAX_CPUS)
				return -1;
			s = end;
		}
		for (long c = a; c <= b; c++)
			*mask |= 1ULL << c;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

/*
 * "node N cpus LIST mem BYTES" lines, "swap BYTES", "thp MODE" and
 * "khugepaged KNOB VALUE" (the khugepaged sysfs knobs traces/record saw)
 */
int aw_side_topology(struct aw_ingest *in, const char *path, char *err, size_t errlen)
{
	struct aw_config *cfg = &in->sc->cfg;
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0, nodes = 0;

	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned int n;
		char cpus[256];
		unsigned long long mem, swap;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "node %u cpus %255s mem %llu", &n, cpus, &mem) == 3) {
			if (n != (unsigned int)nodes || n >= AW_MAX_NODES ||
			    parse_cpus(cpus, &cfg->node[n].cpu_mask) || mem < (2ULL << 20)) {
				snprintf(err, errlen, "%s:%d: bad node line", path, lineno);
				fclose(f);
				return -1;
			}
			cfg->node[n].mem_bytes = mem & ~((2ULL << 20) - 1);
			nodes++;
		} else if (sscanf(line, "swap %llu", &swap) == 1) {
			if (in->o->swap_bytes == UINT64_MAX)
				cfg->swap_bytes = swap & ~4095ULL;
		} else if (sscanf(line, "thp %255s", cpus) == 1 && aw_thp_mode_parse(cpus) >= 0) {
			in->recorded_thp = aw_thp_mode_parse(cpus);
		} else if (sscanf(line, "khugepaged %255s %llu", cpus, &mem) == 2) {
			static const char *const knobs[AW_KH_KNOB_NR] = {
				[AW_KH_PAGES_TO_SCAN] = "pages_to_scan", [AW_KH_MAX_PTES_NONE] = "max_ptes_none",
				[AW_KH_MAX_PTES_SWAP] = "max_ptes_swap", [AW_KH_MAX_PTES_SHARED] = "max_ptes_shared",
			};
			int k;

			for (k = 1; k < AW_KH_KNOB_NR && strcmp(cpus, knobs[k]); k++)
				;
			/* the knobs the model has, in the range sysfs accepts; others (scan_sleep_millisecs...) ignored */
			if (k < AW_KH_KNOB_NR && (k == AW_KH_PAGES_TO_SCAN ? mem >= 1 && mem <= UINT32_MAX : mem <= 511))
				in->kh_knob[k] = (int64_t)mem;
		} else {
			snprintf(err, errlen, "%s:%d: not a topology line", path, lineno);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	if (!nodes) {
		snprintf(err, errlen, "%s: no node lines", path);
		return -1;
	}
	cfg->nr_nodes = nodes;
	return 0;
}

void aw_side_tgids(struct aw_ingest *in, const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned int pid, tgid;

	if (!f)
		return;
	while (fscanf(f, "%u %u", &pid, &tgid) == 2)
		aw_tidmap_put(&in->tgids, pid, (int32_t)tgid);
	in->st->had_tgids = true;
	fclose(f);
}

/* OUT.damon_targets: "TARGET_INDEX PID" lines (traces/record writes them). */
void aw_side_damon_targets(struct aw_ingest *in, const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned int idx, pid;

	if (!f)
		return;
	while (fscanf(f, "%u %u", &idx, &pid) == 2)
		aw_tidmap_put(&in->damon_targets, idx, (int32_t)pid);
	fclose(f);
}

/* The first CPU of a node, for accesses that must land on it. */
static int node_cpu(const struct aw_config *cfg, int nid)
{
	for (int c = 0; c < AW_MAX_CPUS; c++)
		if (cfg->node[nid].cpu_mask >> c & 1)
			return c;
	return 0;
}

/* Touch n pages of [*start, end) from a CPU of node nid; *start moves past them. */
static int touch_resident(struct aw_ingest *in, struct aw_tproc *p, uint64_t *start, uint64_t end,
			  uint64_t pages, int nid, bool write)
{
	struct aw_event ev = { .kind = AW_EV_ACCESS, .pid = p->id, .repeat = 1 };
	uint64_t len = pages * 4096;

	if (!pages || nid >= in->sc->cfg.nr_nodes || *start >= end)
		return 0;
	if (len > end - *start)
		len = end - *start;
	ev.addr = *start;
	*start += len;
	ev.len = len;
	ev.cpu = (uint16_t)node_cpu(&in->sc->cfg, nid);
	ev.flags = write ? AW_ACC_WRITE : 0;
	return aw_ing_emit(in, &ev);
}

/*
 * Seed a process from PROCS/PID/maps and numa_maps: its mappings, and as
 * many resident pages per node as numa_maps counts (placed at the start of
 * each mapping: the snapshot gives counts, not addresses -- the report
 * says so).
 */
/*
 * OUT.procs/TGID/cgroup as /proc/PID/cgroup had it at the start: the v2
 * line "0::PATH", else the first line's path (v1).
 */
void aw_side_cgroup(struct aw_ingest *in, struct aw_tproc *p)
{
	char path[4096], line[512];
	FILE *f;

	if (!in->snap_dir)
		return;
	snprintf(path, sizeof(path), "%s/%u/cgroup", in->snap_dir, p->tgid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');
		char *s = c ? strchr(c + 1, ':') : NULL;

		if (!s)
			continue;
		s[strcspn(s, "\n")] = 0;
		if (!p->cgroup[0] || !strncmp(line, "0::", 3))
			snprintf(p->cgroup, sizeof(p->cgroup), "%s", s + 1);
		if (!strncmp(line, "0::", 3))
			break;
	}
	fclose(f);
}

int aw_side_snapshot(struct aw_ingest *in, struct aw_tproc *p)
{
	char path[4096], line[1024];
	FILE *maps, *numa;

	if (!in->snap_dir)
		return 0;
	snprintf(path, sizeof(path), "%s/%u/maps", in->snap_dir, p->tgid);
	maps = fopen(path, "r");
	if (!maps)
		return 0;
	in->st->had_snapshots = true;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long s, e;
		char perms[8] = "", name[512] = "";
		unsigned int prot = 0;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %511[^\n]", &s, &e, perms, name) < 3)
			continue;
		if (e >= (1ULL << 47) || !strncmp(name, "[v", 2))
			continue;	/* vsyscall, vvar, vdso: special mappings the walk skips */
		prot = (perms[0] == 'r' ? 1 : 0) | (perms[1] == 'w' ? 2 : 0) | (perms[2] == 'x' ? 4 : 0);
		if (aw_ing_mmap(in, p, s, e - s, prot, 0, name[0] == '/'))
			break;
	}
	fclose(maps);
	snprintf(path, sizeof(path), "%s/%u/numa_maps", in->snap_dir, p->tgid);
	numa = fopen(path, "r");
	if (!numa)
		return 0;
	while (fgets(line, sizeof(line), numa)) {
		unsigned long long s;
		char *tok, *save = NULL;
		bool anon = strstr(line, " anon=") != NULL;

		if (sscanf(line, "%llx", &s) != 1)
			continue;
		for (int i = 0; i < p->nr_vmas; i++) {
			uint64_t cursor = p->vmas[i].start;

			if (p->vmas[i].start != s)
				continue;
			for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
				unsigned int nid;
				unsigned long long cnt;

				if (tok[0] == 'N' && isdigit((unsigned char)tok[1]) &&
				    sscanf(tok, "N%u=%llu", &nid, &cnt) == 2)
					touch_resident(in, p, &cursor, p->vmas[i].end, cnt, (int)nid, anon);
			}
			break;
		}
	}
	fclose(numa);
	return 0;
}
