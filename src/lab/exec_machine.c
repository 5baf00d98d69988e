// SPDX-License-Identifier: GPL-2.0-only
/*
 * The machine a scenario asks for, on the machine the executor runs on:
 * its nodes and CPUs must exist (the lab runner configures QEMU from
 * --topology), memcgs are cgroup-v2 directories, the THP mode is the sysfs
 * knob.  What cannot be set is refused in one line before any event runs;
 * what could be set but failed is a note, so a run on a half-configured
 * machine is visible in its JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "exec.h"

#define CGROUP2_SUPER_MAGIC	0x63677270

static bool exists(const char *fmt, const char *dir, int a, int b)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), fmt, dir, a, b);
	return stat(path, &st) == 0;
}

static int check_node(const struct aw_exec *x, int n, char *err, size_t errlen)
{
	const char *sys = x->opt.sys_dir;
	bool numa = exists("%s/node", sys, 0, 0);

	if (numa ? !exists("%s/node/node%d", sys, n, 0) : n > 0) {
		snprintf(err, errlen, "scenario node %d does not exist on this machine", n);
		return -1;
	}
	for (int c = 0; c < AW_MAX_CPUS; c++) {
		if (!(x->sc.cfg.node[n].cpu_mask >> c & 1))
			continue;
		if (!exists("%s/cpu/cpu%d", sys, c, 0) || (numa && !exists("%s/node/node%d/cpu%d", sys, n, c))) {
			snprintf(err, errlen, "scenario CPU %d is not a CPU of node %d on this machine", c, n);
			return -1;
		}
	}
	return 0;
}

int aw_machine_check(struct aw_exec *x, char *err, size_t errlen)
{
	struct statfs fs;

	for (int n = 0; n < x->sc.cfg.nr_nodes; n++)
		if (check_node(x, n, err, errlen))
			return -1;
	x->cgroup2 = statfs(x->opt.cg_mount, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC;
	if (x->sc.cfg.nr_memcgs > 1 && !x->cgroup2) {
		snprintf(err, errlen, "scenario has memcgs but %s is not a cgroup2 mount", x->opt.cg_mount);
		return -1;
	}
	return 0;
}

/*
 * The scenario's memcg 0 is the model's root memcg: it holds the
 * scenario's processes and nothing else.  A real root memcg also holds
 * /init, the initramfs's shmem pages and whatever the kernel charges
 * there, which an aging pass walks and an eviction reclaims; so with
 * cgroup v2, memcg 0 is the empty cgroup ROOT/m0 and M is ROOT/mM.
 */
static void memcg_dir(const struct aw_exec *x, int m, char *buf, size_t len)
{
	if (m == 0 && !x->cgroup2)
		snprintf(buf, len, "%s", x->opt.cg_mount);
	else
		snprintf(buf, len, "%s/m%d", x->opt.cg_root, m);
}

static void knob(struct aw_exec *x, const char *dir, const char *file, const char *val)
{
	char path[512];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((r = aw_write_file(path, val)))
		aw_note(x, AW_NOTE_SETUP, "could not write '%s' to %s: %s", val, path, strerror(-r));
}

static void limit(struct aw_exec *x, int m, uint64_t bytes)
{
	char dir[512], val[32];

	memcg_dir(x, m, dir, sizeof(dir));
	if (bytes)
		snprintf(val, sizeof(val), "%" PRIu64, bytes);
	else
		snprintf(val, sizeof(val), "max");
	knob(x, dir, "memory.max", val);
}

static int make_dir(const char *dir, char *err, size_t errlen)
{
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The controller leaves the memcgs the scenario ages: MGLRU's mm list is
 * per memcg (lru_gen_add_mm() files an mm under its owner's memcg), so a
 * controller in the root memcg would be walked by every pass of memcg 0
 * -- an mm the model does not have.  It moves to the leaf ROOT/controller
 * (a cgroup with controllers on can hold no tasks itself).
 */
static int setup_controller(struct aw_exec *x, char *err, size_t errlen)
{
	char dir[512], pid[24];

	snprintf(dir, sizeof(dir), "%s/controller", x->opt.cg_root);
	if (make_dir(dir, err, errlen))
		return -1;
	strncat(dir, "/cgroup.procs", sizeof(dir) - strlen(dir) - 1);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (aw_write_file(dir, pid))
		aw_note(x, AW_NOTE_SETUP, "the controller stays in its cgroup: cannot write %s", dir);
	return 0;
}

static int setup_cgroups(struct aw_exec *x, char *err, size_t errlen)
{
	char dir[512];

	if (!x->cgroup2) {
		aw_note(x, AW_NOTE_SETUP, "no cgroup2 at %s: workers stay in the executor's cgroup",
			x->opt.cg_mount);
		return 0;
	}
	knob(x, x->opt.cg_mount, "cgroup.subtree_control", "+memory");
	if (make_dir(x->opt.cg_root, err, errlen))
		return -1;
	knob(x, x->opt.cg_root, "cgroup.subtree_control", "+memory");
	for (int m = 0; m < x->sc.cfg.nr_memcgs; m++) {
		memcg_dir(x, m, dir, sizeof(dir));
		if (make_dir(dir, err, errlen))
			return -1;
		limit(x, m, x->sc.cfg.memcg_limit[m]);
	}
	return setup_controller(x, err, errlen);
}

static void check_swap(struct aw_exec *x)
{
	int64_t kb = aw_read_key("/proc/meminfo", "SwapTotal:");

	if (kb >= 0 && (uint64_t)kb * 1024 != x->sc.cfg.swap_bytes)
		aw_note(x, AW_NOTE_SETUP, "swap is %" PRId64 " bytes here, the scenario says %" PRIu64,
			kb * 1024, x->sc.cfg.swap_bytes);
}

int aw_machine_setup(struct aw_exec *x, char *err, size_t errlen)
{
	if (setup_cgroups(x, err, errlen))
		return -1;
	knob(x, x->opt.thp_dir, "enabled", aw_thp_mode_name(x->sc.cfg.thp));
	check_swap(x);
	return 0;
}

/* memcg placement: the worker's pid into the memcg's cgroup.procs (v2 moves the charge-less task). */
int aw_memcg_place(struct aw_exec *x, int m, pid_t pid)
{
	char dir[512], val[24];

	if (!x->cgroup2)
		return m == 0 ? 0 : -ENOENT;
	memcg_dir(x, m, dir, sizeof(dir));
	snprintf(val, sizeof(val), "%d", (int)pid);
	strncat(dir, "/cgroup.procs", sizeof(dir) - strlen(dir) - 1);
	return aw_write_file(dir, val);
}

/* `limit memcg M SIZE|max` */
int aw_memcg_limit(struct aw_exec *x, int m, uint64_t bytes)
{
	int before = x->nr_notes;

	limit(x, m, bytes);
	return x->nr_notes == before ? 0 : -1;
}

/* The cgroup path lru_gen prints for memcg m: cgroup_path() relative to the mount. */
void aw_memcg_path(const struct aw_exec *x, int m, char *buf, size_t len)
{
	size_t ml = strlen(x->opt.cg_mount);

	bool under = !strncmp(x->opt.cg_root, x->opt.cg_mount, ml);

	if (m == 0 && !x->cgroup2)
		snprintf(buf, len, "/");
	else
		snprintf(buf, len, "%s/m%d", under ? x->opt.cg_root + ml : x->opt.cg_root, m);
}

/* --topology: what the lab runner needs to build the QEMU machine. */
void aw_topology_print(FILE *out, const struct aw_scenario *sc)
{
	for (int n = 0; n < sc->cfg.nr_nodes; n++) {
		bool first = true;

		fprintf(out, "node %d mem %" PRIu64 " cpus ", n, sc->cfg.node[n].mem_bytes);
		for (int c = 0; c < AW_MAX_CPUS; c++)
			if (sc->cfg.node[n].cpu_mask >> c & 1) {
				fprintf(out, "%s%d", first ? "" : ",", c);
				first = false;
			}
		fprintf(out, "%s\n", first ? "none" : "");
	}
	fprintf(out, "swap %" PRIu64 "\nthp %s\nmemcgs %d\n", sc->cfg.swap_bytes,
		aw_thp_mode_name(sc->cfg.thp), sc->cfg.nr_memcgs);
}
