// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk-exec [options] SCENARIO: run an .aws or .awpb scenario on the
 * kernel this program runs on (docs/lab.md, "The executor").
 *
 *   --json               the report as JSON (the keys of `agewalk run --json`)
 *   --topology           print the machine the scenario needs, then exit
 *   --kernel 6.1|6.12    the debugfs dialect (default: from uname -r)
 *   --cgroup-mount DIR   cgroup2 mount, memcg 0 (default /sys/fs/cgroup)
 *   --cgroup-root DIR    memcg M is DIR/mM (default /sys/fs/cgroup/agewalk)
 *   --debugfs DIR        MGLRU debugfs files (default /sys/kernel/debug)
 *   --thp-dir DIR        THP sysfs (default /sys/kernel/mm/transparent_hugepage)
 *   --sys-dir DIR        nodes and CPUs (default /sys/devices/system)
 *   --tracefs DIR        kprobes for walk visibility (default /sys/kernel/tracing)
 *   --file-dir DIR       `file` mappings' files, on DIR's disk file system
 *                        (default: memfds, which are shmem; exec_file.c)
 *   --no-kprobes         no walk visibility
 *   --kh-wait MS         khugepaged: bounded wait per wake-up event (default 10000)
 *
 * Exit status: 0 done, 1 the run stopped (the report holds what was done),
 * 2 bad command line or scenario.  Errors are one line on stderr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "awpb.h"
#include "exec.h"
#include "output.h"

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "agewalk-exec: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
	return 2;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int load(struct aw_exec *x)
{
	char err[512];
	int r = ends_with(x->opt.input, ".awpb") ? aw_awpb_read_file(x->opt.input, &x->sc, err, sizeof(err))
		: aw_aws_parse_file(x->opt.input, &x->sc, err, sizeof(err));

	if (r)
		fprintf(stderr, "%s\n", err);
	return r;
}

/* 6.1.x speaks 6.1's dialect (can_swap); anything later 6.12's. */
static enum aw_kver kver_of(const char *release)
{
	return aw_kernel_release_profile(release) == AW_KERNEL_6_1 ? AW_KV_6_1 : AW_KV_6_12;
}

static const char *opt_value(int argc, char **argv, int *i)
{
	return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse_args(struct aw_exec *x, int argc, char **argv, bool *topology)
{
	struct aw_exec_opts *o = &x->opt;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		const char **dst = !strcmp(a, "--cgroup-mount") ? &o->cg_mount : !strcmp(a, "--cgroup-root") ? &o->cg_root
			: !strcmp(a, "--debugfs") ? &o->debugfs : !strcmp(a, "--thp-dir") ? &o->thp_dir
			: !strcmp(a, "--sys-dir") ? &o->sys_dir : !strcmp(a, "--tracefs") ? &o->tracefs
			: !strcmp(a, "--file-dir") ? &o->file_dir : NULL;

		if (!strcmp(a, "--json"))
			o->json = true;
		else if (!strcmp(a, "--no-kprobes"))
			o->tracefs = NULL;
		else if (!strcmp(a, "--topology"))
			*topology = true;
		else if (dst || !strcmp(a, "--kernel") || !strcmp(a, "--kh-wait")) {
			if (!(v = opt_value(argc, argv, &i)))
				return usage_error("missing value after", a);
			if (dst)
				*dst = v;
			else if (!strcmp(a, "--kh-wait"))
				o->kh_wait_ms = atoi(v);
			else if (aw_kernel_profile_parse(v) >= 0 &&
				 aw_kernel_profile_numbered((enum aw_kernel_profile)aw_kernel_profile_parse(v)))
				o->kver = kver_of(v);
			else {
				char list[64], msg[96];

				snprintf(msg, sizeof(msg), "--kernel takes %s, not",
					 aw_kernel_release_list(list, sizeof(list), true, ", ", " or "));
				return usage_error(msg, v);
			}
		} else if (a[0] == '-' && a[1])
			return usage_error("unknown option", a);
		else if (o->input)
			return usage_error("more than one scenario:", a);
		else
			o->input = a;
	}
	return o->input ? 0 : usage_error("usage: agewalk-exec [options] SCENARIO.aws|.awpb", NULL);
}

static void defaults(struct aw_exec *x, char *self, size_t len)
{
	struct utsname u;
	ssize_t n = readlink("/proc/self/exe", self, len - 1);

	self[n > 0 ? n : 0] = '\0';
	x->opt = (struct aw_exec_opts){ .cg_mount = "/sys/fs/cgroup", .cg_root = "/sys/fs/cgroup/agewalk",
		.debugfs = "/sys/kernel/debug", .thp_dir = "/sys/kernel/mm/transparent_hugepage",
		.sys_dir = "/sys/devices/system", .tracefs = "/sys/kernel/tracing", .self = self, .kh_wait_ms = 10000 };
	if (!uname(&u))
		snprintf(x->release, sizeof(x->release), "%s", u.release);
}

static int execute(struct aw_exec *x)
{
	char err[512];
	int r;

	if (aw_machine_check(x, err, sizeof(err)))
		return usage_error(err, NULL);
	if (aw_machine_setup(x, err, sizeof(err)))
		return usage_error(err, NULL);
	r = aw_exec_run(x);
	aw_exec_finish(x);
	if (r) {
		long e = x->ev;

		fprintf(stderr, "%s:%u: event %ld (%s): %s\n", x->sc.path ? x->sc.path : x->opt.input,
			x->sc.event_line ? x->sc.event_line[e] : 0, e, aw_event_kind_name(x->sc.events[e].kind),
			x->fatal);
	}
	if (x->opt.json)
		aw_exec_json(stdout, x);
	else
		aw_exec_table(stdout, x);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	static struct aw_exec x;	/* the one controller; static only for its size */
	char self[4096];
	bool topology = false;
	int r;

	if (argc == 3 && !strcmp(argv[1], "--worker"))
		aw_worker_main(atoi(argv[2]), false);
	/* the JSON on stdout is the run's result: a failed write is exit 3, not 0 */
	atexit(aw_close_stdout);
	defaults(&x, self, sizeof(self));
	aw_scenario_init(&x.sc);
	if ((r = parse_args(&x, argc, argv, &topology)) || (r = load(&x) ? 2 : 0)) {
		aw_scenario_free(&x.sc);
		return r;
	}
	if (!x.opt.kver)
		x.opt.kver = kver_of(x.release);
	if (topology)
		aw_topology_print(stdout, &x.sc);
	r = topology ? 0 : execute(&x);
	aw_exec_free(&x);
	return r;
}
