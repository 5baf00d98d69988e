// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk replay FILE.dat...: the command line of a replay (the policies
 * the recording is ingested under, the model options, the outputs); the
 * replay itself is replay/replay.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "replay.h"

/* What replay takes of the shared model options (the khugepaged switches are run's). */
#define AW_REPLAY_OPTS (AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_THP | AW_OPT_SKIP_EMPTY | AW_OPT_KERNEL)

#define AW_REPLAY_MAX_KEEP	64

struct ropts {
	struct aw_replay_opts r;
	const char *paths[AW_TRACE_MAX_FILES];
	uint32_t pids[AW_REPLAY_MAX_KEEP];
	const char *comms[AW_REPLAY_MAX_KEEP];
	const char *cgroups[AW_REPLAY_MAX_KEEP];
	struct aw_model_opts m;		/* its thp goes to r.t.thp */
};

static int parse_duration(const char *s, uint64_t *ns)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	uint64_t mul;

	if (end == s)
		return -1;
	if (!strcmp(end, "ns"))
		mul = 1;
	else if (!strcmp(end, "us"))
		mul = 1000;
	else if (!strcmp(end, "ms"))
		mul = 1000000;
	else if (!strcmp(end, "s"))
		mul = 1000000000;
	else
		return -1;
	if (v > UINT64_MAX / mul)
		return -1;
	*ns = v * mul;
	return 0;
}

static int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	int shift = 0;

	if (end == s)
		return -1;
	switch (*end) {
	case 0: break;
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	default: return -1;
	}
	if (*end && end[1])
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -1;
	*bytes = v << shift;
	return 0;
}

/* TIME: a duration ("6s", "1500ms") or a share of the trace ("25%", "12.5%"). */
static int parse_when(const char *s, uint64_t *ns, double *pct)
{
	size_t n = strlen(s);

	*pct = -1;
	*ns = 0;
	if (n > 1 && s[n - 1] == '%') {
		char *end;
		double x = strtod(s, &end);

		if (end != s + n - 1 || !(x >= 0 && x <= 100))
			return -1;
		*pct = x;
		return 0;
	}
	return parse_duration(s, ns);
}

static int add_path(void *ctx, const char *path, char *err, size_t errlen)
{
	struct ropts *o = ctx;

	if (o->r.t.nr_paths == AW_TRACE_MAX_FILES) {
		snprintf(err, errlen, "at most %d trace files", AW_TRACE_MAX_FILES);
		return AW_PO_FAIL;
	}
	o->paths[o->r.t.nr_paths++] = path;
	o->r.t.paths = o->paths;
	o->r.t.path = o->paths[0];
	return 0;
}

static int set_access(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	enum aw_access_policy *access = dst;

	if (!strcmp(v, "faults-only"))
		*access = AW_ACCESS_FAULTS_ONLY;
	else if (!strcmp(v, "recent-faults"))
		*access = AW_ACCESS_RECENT_FAULTS;
	else if (!strcmp(v, "all-resident"))
		*access = AW_ACCESS_ALL_RESIDENT;
	else
		return snprintf(err, errlen, "--assume-access takes faults-only, recent-faults or all-resident"),
		       AW_PO_FAIL;
	return 0;
}

/* --kh-gap (above 0) and --khugepaged-every (.val 1: 0 is off) */
static int set_kh_time(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	uint64_t ns;

	if (parse_duration(v, &ns) || (!ns && !opt->val)) {
		snprintf(err, errlen, "--%s takes a duration such as 1s%s", opt->name, opt->val ? " (0 = off)" : "");
		return AW_PO_FAIL;
	}
	*(uint64_t *)dst = ns;
	return 0;
}

/* --window and --age-every: above 0 */
static int set_period(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	uint64_t ns;

	if (parse_duration(v, &ns) || !ns) {
		snprintf(err, errlen, "--%s takes a duration such as 500ms", opt->name);
		return AW_PO_FAIL;
	}
	*(uint64_t *)dst = ns;
	return 0;
}

/* --memory-limit (.val 1: at least 1M) and --swap */
static int set_size(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	uint64_t b;

	if (parse_size(v, &b) || (opt->val && b < (1U << 20))) {
		snprintf(err, errlen, "--%s takes a size such as 2G", opt->name);
		return AW_PO_FAIL;
	}
	*(uint64_t *)dst = b;
	return 0;
}

/* --force-every 0..1000000 (.val 0) and --nodes 1..AW_MAX_NODES (.val 1) */
static int set_count(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (*end || x < opt->val || x > (opt->val ? AW_MAX_NODES : 1000000)) {
		snprintf(err, errlen, "--%s out of range", opt->name);
		return AW_PO_FAIL;
	}
	*(int *)dst = (int)x;
	return 0;
}

/* --start (.val 0) and --end (.val 1), into the trace options */
static int set_when(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	struct aw_trace_opts *t = dst;
	bool end = opt->val;

	if (parse_when(v, end ? &t->end_ns : &t->start_ns, end ? &t->end_pct : &t->start_pct) ||
	    (end && !t->end_ns && t->end_pct <= 0)) {
		snprintf(err, errlen, "--%s takes a time after the first event (6s, 500ms) or a share of the trace "
			 "(25%%)%s", opt->name, end ? ", after 0" : "");
		return AW_PO_FAIL;
	}
	return 0;
}

static int set_kh_pid(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	char *end;
	long x = strtol(v, &end, 10);

	if (*end || end == v || x < 1 || x > 0x7fffffff) {
		snprintf(err, errlen, "--kh-pid takes a pid");
		return AW_PO_FAIL;
	}
	*(int64_t *)dst = x;
	return 0;
}

static int add_pid(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	struct ropts *o = dst;
	char *end;
	long x = strtol(v, &end, 10);

	if (*end || end == v || x < 1 || x > 0x7fffffff || o->r.t.nr_pids == AW_REPLAY_MAX_KEEP) {
		snprintf(err, errlen, "--pid takes a pid (at most %d)", AW_REPLAY_MAX_KEEP);
		return AW_PO_FAIL;
	}
	o->pids[o->r.t.nr_pids++] = (uint32_t)x;
	o->r.t.pids = o->pids;
	return 0;
}

static int add_comm(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	struct ropts *o = dst;

	if (!*v || strlen(v) > 15 || o->r.t.nr_comms == AW_REPLAY_MAX_KEEP) {
		snprintf(err, errlen, "--comm takes a task name (1 to 15 characters, at most %d)", AW_REPLAY_MAX_KEEP);
		return AW_PO_FAIL;
	}
	o->comms[o->r.t.nr_comms++] = v;
	o->r.t.comms = o->comms;
	return 0;
}

static int add_cgroup(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	struct ropts *o = dst;

	if (v[0] != '/' || o->r.t.nr_cgroups == AW_REPLAY_MAX_KEEP) {
		snprintf(err, errlen, "--cgroup takes a cgroup v2 path such as /system.slice/foo.service (at most %d)",
			 AW_REPLAY_MAX_KEEP);
		return AW_PO_FAIL;
	}
	o->cgroups[o->r.t.nr_cgroups++] = v;
	o->r.t.cgroups = o->cgroups;
	return 0;
}

static int set_threads(void *dst, const struct aw_po_option *opt, const char *v, char *err, size_t errlen)
{
	if (strcmp(v, "1") && strcmp(v, "2") && strcmp(v, "3")) {
		snprintf(err, errlen, "--threads takes 1, 2 or 3");
		return AW_PO_FAIL;
	}
	*(int *)dst = v[0] - '0';
	return 0;
}

#define T(member)	offsetof(struct ropts, r.t.member)
#define R(member)	offsetof(struct ropts, r.member)
#define TIME(name_, member, cb_, val_, arg_) \
	{ name_, 0, AW_PO_CALL, arg_, .off = T(member), .cb = cb_, .val = val_ }

static const struct aw_po_option options[] = {
	{ "merge", 0, AW_PO_FLAG, .off = T(merge), .val = 1 },
	AW_MODEL_OPTIONS(struct ropts, m, AW_REPLAY_OPTS),
	{ "assume-access", 0, AW_PO_CALL, "faults-only|recent-faults|all-resident", .off = T(access),
	  .cb = set_access },
	TIME("window", window_ns, set_period, 0, "DURATION"),
	TIME("age-every", age_every_ns, set_period, 0, "DURATION"),
	{ "force-every", 0, AW_PO_CALL, "N", .off = T(force_every), .cb = set_count, .val = 0 },
	{ "memory-limit", 0, AW_PO_CALL, "SIZE", .off = T(memory_limit), .cb = set_size, .val = 1 },
	{ "swap", 0, AW_PO_CALL, "SIZE", .off = T(swap_bytes), .cb = set_size, .val = 0 },
	{ "nodes", 0, AW_PO_CALL, "N", .off = T(nr_nodes), .cb = set_count, .val = 1,
	  .syn = "[--nodes N | --topology FILE]" },
	{ "topology", 0, AW_PO_STRING, "FILE", .off = T(topology), .flags = AW_PO_NOSYN },
	{ "keep-going", 0, AW_PO_FLAG, .off = R(keep_going), .val = 1 },
	{ "json", 0, AW_PO_FLAG, .off = R(json), .val = 1 },
	{ "html", 0, AW_PO_STRING, "REPORT.html", .off = R(html) },
	{ "save-stream", 0, AW_PO_STRING, "OUT.awpb", .off = R(save) },
	{ "walk-log", 0, AW_PO_STRING, "FILE", .off = R(walk_log) },
	{ "progress", 0, AW_PO_FLAG, .off = T(progress), .val = 1, .syn = "[--progress|--no-progress]" },
	{ "no-progress", 0, AW_PO_FLAG, .off = T(progress), .val = 0, .flags = AW_PO_NOSYN },
	TIME("kh-gap", kh_gap_ns, set_kh_time, 0, "DURATION"),
	{ "kh-pid", 0, AW_PO_CALL, "PID", .off = T(kh_pid), .cb = set_kh_pid },
	TIME("khugepaged-every", kh_every_ns, set_kh_time, 1, "DURATION"),
	{ "threads", 0, AW_PO_CALL, "1|2|3", .off = R(threads), .cb = set_threads },
	{ "mem-stats", 0, AW_PO_FLAG, .off = R(mem_stats), .val = 1 },
	{ "start", 0, AW_PO_CALL, "TIME", .off = R(t), .cb = set_when, .val = 0 },
	{ "end", 0, AW_PO_CALL, "TIME", .off = R(t), .cb = set_when, .val = 1 },
	{ "pid", 0, AW_PO_CALL, "PID", .cb = add_pid, .flags = AW_PO_MANY },
	{ "comm", 0, AW_PO_CALL, "COMM", .cb = add_comm, .flags = AW_PO_MANY },
	{ "cgroup", 0, AW_PO_CALL, "PATH", .cb = add_cgroup, .flags = AW_PO_MANY },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_replay_cmd = {
	.name = "replay", .args = "FILE.dat...", .opts = options, .positional = add_path,
	.flags = AW_PO_DASH_IS_OPTION,
	.notes =
	"Aging is synthesized every --age-every of trace time (default 500ms, all nodes,\n"
	"non-forced) unless the trace recorded vmscan:mm_vmscan_lru_gen_walk.\n"
	"khugepaged: records of the khugepaged thread (comm khugepaged, or --kh-pid) more than\n"
	"--kh-gap apart (default 1s) are separate wake-ups, each replayed as one model wake-up;\n"
	"--khugepaged-every synthesizes wake-ups instead (default: off).\n"
	"--start/--end: a window, TIME after the first event (6s, 500ms) or a share of the\n"
	"trace's duration (25%); before --start only processes and mappings are replayed.\n"
	"Several files: replayed one after another, each continuing where the previous\n"
	"ended (consecutive recordings), or with --merge interleaved by timestamp (one\n"
	"machine, one clock); the first file's side files describe the machine.  Every\n"
	"file's instance buffers (trace-cmd -B) are merged with its top buffer.\n"
	"--pid/--comm/--cgroup: replay only those processes (tgid, comm at first sight or\n"
	"exec, cgroup from the recording's OUT.procs/PID/cgroup or below) and their\n"
	"children, whole; aging and khugepaged stay the machine's.\n",
};

/* 0, or AW_PO_HELP / AW_PO_ERROR (parse_options.h). */
static int parse(int argc, char **argv, struct ropts *o)
{
	int ret;

	aw_trace_opts_default(&o->r.t);
	aw_model_opts_init(&o->m);
	o->r.threads = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 3 : 1;
	/* a test's knob: reopen the inputs this often, to check that reading resumes exactly */
	if (getenv("AGEWALK_REOPEN_EVERY"))
		o->r.t.reopen_every = strtoull(getenv("AGEWALK_REOPEN_EVERY"), NULL, 10);
	o->r.t.progress = isatty(2);
	ret = aw_po_parse(&aw_replay_cmd, o, argc, argv);
	if (ret)
		return ret;
	if (!o->m.nr_variants) {
		o->m.variants[0] = "base";
		o->m.variants[1] = "pud";
		o->m.nr_variants = 2;
	}
	o->r.t.thp = o->m.thp;
	if (!o->r.t.path) {
		aw_usage_error("replay", "no trace file");
		return AW_PO_ERROR;
	}
	aw_model_opts_apply(&o->m, &o->r.model);
	return 0;
}

int aw_cmd_replay(int argc, char **argv)
{
	struct ropts *o = calloc(1, sizeof(*o));
	int status;

	if (!o) {
		fprintf(stderr, "agewalk replay: out of memory\n");
		return 2;
	}
	status = parse(argc, argv, o);
	if (!status)
		status = aw_replay(&o->r);
	else
		status = status == AW_PO_HELP ? 0 : 2;
	aw_model_opts_free(&o->m);
	free(o);
	return status;
}
