// SPDX-License-Identifier: GPL-2.0-only
/*
 * The controller: the scenario's events in order, each turned into a
 * request to the worker of its process, a file write, or a debugfs
 * command.  Region ids map to (address, length, owner) here; a worker only
 * sees addresses.  Events a real kernel cannot be made to do are noted as
 * not executed, never imitated.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

void aw_note(struct aw_exec *x, enum aw_note_kind kind, const char *fmt, ...)
{
	struct aw_note *n;
	va_list ap;

	if (!(n = aw_grow(x->notes, &x->cap_notes, x->nr_notes, sizeof(*n), 32)))
		return;
	x->notes = n;
	n = &x->notes[x->nr_notes++];
	n->kind = kind;
	n->event = kind == AW_NOTE_SETUP ? -1 : x->ev;
	n->line = kind == AW_NOTE_SETUP || !x->sc.event_line ? 0 : x->sc.event_line[x->ev];
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}

static int fatal(struct aw_exec *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fatal(struct aw_exec *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->fatal, sizeof(x->fatal), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- talking to workers ------------------------------------------------ */

static struct aw_xworker *worker(struct aw_exec *x, uint32_t pid)
{
	return pid < (uint32_t)x->nr_workers && x->w[pid].fd >= 0 ? &x->w[pid] : NULL;
}

/*
 * A new, empty address space for a worker (a process or an exec), or a
 * copy of another (fork); -1 when out of memory.  Threads and vfork
 * children share their parent's.
 */
static int new_space(struct aw_exec *x, int copy_of)
{
	struct aw_xspace *sp = realloc(x->space, (size_t)(x->nr_spaces + 1) * sizeof(*sp));

	if (!sp)
		return -1;
	x->space = sp;
	sp[x->nr_spaces] = (struct aw_xspace){ 0 };
	if (copy_of >= 0 && aw_space_copy(&sp[x->nr_spaces], &sp[copy_of]))
		return -1;
	return x->nr_spaces++;
}

static struct aw_xspace *space_of(struct aw_exec *x, uint32_t pid)
{
	struct aw_xworker *w = worker(x, pid);

	return w && w->space >= 0 && w->space < x->nr_spaces ? &x->space[w->space] : NULL;
}

/*
 * One request, one reply, passing pass_fd with it when >= 0 (closed here
 * either way); a dead channel is fatal, a failed call a note.
 */
static int call_fd(struct aw_exec *x, uint32_t pid, const struct aw_wreq *rq, struct aw_wrep *rp, int pass_fd)
{
	struct aw_xworker *w = worker(x, pid);
	int sent = w ? aw_wsend(w->fd, rq, pass_fd) : -1;

	if (pass_fd >= 0)
		close(pass_fd);
	if (!w)
		return fatal(x, "process %s has no running worker", x->sc.proc_name[pid - 1]);
	if (sent || aw_wrecv(w->fd, rp))
		return fatal(x, "worker of process %s is gone", x->sc.proc_name[pid - 1]);
	if (rp->err)
		aw_note(x, AW_NOTE_ERROR, "the system call failed: %s", strerror(rp->err));
	return 0;
}

static int call(struct aw_exec *x, uint32_t pid, const struct aw_wreq *rq, struct aw_wrep *rp)
{
	return call_fd(x, pid, rq, rp, -1);
}

/* mmap: a `file` mapping's request carries its file (exec_file.c) */
static int call_mmap(struct aw_exec *x, uint32_t pid, const struct aw_wreq *rq, struct aw_wrep *rp)
{
	int fd = -1;

	if ((rq->flags & AW_MAP_FILE) && (fd = aw_exec_file(x, rq->len)) < 0)
		return errno == EXDEV ? fatal(x, "--file-dir %s is tmpfs or ramfs: its files would be shmem", x->opt.file_dir)
			: fatal(x, "the file of a file mapping: %s", strerror(errno));
	return call_fd(x, pid, rq, rp, fd);
}

static void grow_workers(struct aw_exec *x, uint32_t pid)
{
	while ((uint32_t)x->nr_workers <= pid) {
		x->w[x->nr_workers] = (struct aw_xworker){ .fd = -1, .cpu = AW_CPU_CURRENT };
		x->nr_workers++;
	}
}

static int hello(struct aw_exec *x, uint32_t pid, int fd, bool direct, bool thread)
{
	struct aw_wrep rp;

	if (aw_wrecv(fd, &rp) || rp.err || rp.pid <= 0) {
		close(fd);
		return fatal(x, "worker of process %s did not start", x->sc.proc_name[pid - 1]);
	}
	grow_workers(x, pid);
	x->w[pid] = (struct aw_xworker){ .pid = rp.pid, .fd = fd, .direct_child = direct, .thread = thread };
	if (x->kprobes && !thread) {
		struct aw_wreq rq = { .op = AW_W_MARK };
		int r = call(x, pid, &rq, &rp);

		/* 6.1 keeps khugepaged's records of the known mms only: learn this one now */
		if (!r && x->kht.filtered)
			aw_kprobe_collect(x, NULL);
		return r;
	}
	return 0;
}

static void end_worker(struct aw_exec *x, uint32_t pid)
{
	struct aw_xworker *w = worker(x, pid);
	struct aw_wreq rq = { .op = AW_W_EXIT };
	struct aw_wrep rp;

	if (!w)
		return;
	if (!aw_wsend(w->fd, &rq, -1))
		(void)aw_wrecv(w->fd, &rp);
	close(w->fd);
	w->fd = -1;
	if (w->direct_child)
		waitpid(w->pid, NULL, 0);
	for (int i = 0; i < x->sc.nr_regions; i++)
		if (x->region[i].owner == pid)
			x->region[i].mapped = false;
}

/* ---- processes --------------------------------------------------------- */

static int ev_proc(struct aw_exec *x, const struct aw_event *ev)
{
	int sv[2], r;
	pid_t child;
	struct aw_wreq rq = { .op = AW_W_AFFINITY, .cpu = ev->cpu };
	struct aw_wrep rp;

	if (ev->flags & AW_PROC_NOLAYOUT)
		aw_note(x, AW_NOTE_APPROXIMATED, "nolayout: a real process has its own text/heap/stack");
	end_worker(x, ev->pid);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return fatal(x, "socketpair: %s", strerror(errno));
	child = fork();
	if (child == 0) {
		char fdarg[16];
		int fd = dup(sv[1]);	/* without CLOEXEC: it survives the exec */

		/*
		 * Into its memcg and onto its CPU before the worker image
		 * faults a page: charges stay where they are made, and the
		 * image's own pages are local to the scenario's CPU, not on
		 * whichever node the controller ran (6.12's first node-1 pass
		 * of calibration-lab found 30 young worker pages there).
		 */
		aw_memcg_place(x, ev->memcg, getpid());
		aw_set_affinity(ev->cpu);

		snprintf(fdarg, sizeof(fdarg), "%d", fd);
		execl(x->opt.self, x->opt.self, "--worker", fdarg, (char *)NULL);
		_exit(127);
	}
	close(sv[1]);
	if (child < 0 || hello(x, ev->pid, sv[0], true, false))
		return child < 0 ? fatal(x, "fork: %s", strerror(errno)) : -1;
	if ((r = aw_memcg_place(x, ev->memcg, x->w[ev->pid].pid)))
		aw_note(x, AW_NOTE_ERROR, "placing the worker in memcg %d: %s", ev->memcg, strerror(-r));
	if ((x->w[ev->pid].space = new_space(x, -1)) < 0)
		return fatal(x, "out of memory");
	return call(x, ev->pid, &rq, &rp);
}

static int ev_task(struct aw_exec *x, const struct aw_event *ev)
{
	static const uint32_t op[] = { [AW_EV_FORK] = AW_W_FORK, [AW_EV_VFORK] = AW_W_VFORK,
				       [AW_EV_THREAD] = AW_W_THREAD };
	struct aw_wreq rq = { .op = op[ev->kind] };
	struct aw_xworker *w = worker(x, ev->pid);
	struct aw_wrep rp;
	int sv[2], space;

	if (!w)
		return fatal(x, "process %s has no running worker", x->sc.proc_name[ev->pid - 1]);
	end_worker(x, ev->pid2);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return fatal(x, "socketpair: %s", strerror(errno));
	if (aw_wsend(w->fd, &rq, sv[1]) || aw_wrecv(w->fd, &rp)) {
		close(sv[0]);
		close(sv[1]);
		return fatal(x, "worker of process %s is gone", x->sc.proc_name[ev->pid - 1]);
	}
	close(sv[1]);
	if (rp.err) {
		close(sv[0]);
		aw_note(x, AW_NOTE_ERROR, "%s failed: %s", aw_event_kind_name(ev->kind), strerror(rp.err));
		return 0;
	}
	space = w->space;
	if (hello(x, ev->pid2, sv[0], false, ev->kind == AW_EV_THREAD))
		return -1;
	if (ev->kind == AW_EV_FORK && (space = new_space(x, space)) < 0)
		return fatal(x, "out of memory");
	x->w[ev->pid2].space = space;
	return 0;
}

static int ev_exec(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_xworker *w = worker(x, ev->pid);
	struct aw_wreq rq = { .op = AW_W_EXEC };
	int fd;

	if (!w)
		return fatal(x, "process %s has no running worker", x->sc.proc_name[ev->pid - 1]);
	fd = w->fd;
	if (aw_wsend(fd, &rq, -1))
		return fatal(x, "worker of process %s is gone", x->sc.proc_name[ev->pid - 1]);
	for (int i = 0; i < x->sc.nr_regions; i++)
		if (x->region[i].owner == ev->pid)
			x->region[i].mapped = false;
	/* the new image says HELLO on the same channel; the pid stays; a fresh mm */
	if (hello(x, ev->pid, fd, w->direct_child, w->thread))
		return -1;
	if ((x->w[ev->pid].space = new_space(x, -1)) < 0)
		return fatal(x, "out of memory");
	return 0;
}

/* ---- memory ------------------------------------------------------------ */

static uint64_t addr_of(const struct aw_exec *x, const struct aw_event *ev)
{
	return ev->region ? x->region[ev->region - 1].addr + ev->addr : ev->addr;
}

/*
 * A mapping without an address goes where the model puts it (exec_place.c);
 * if something real is there already, the kernel places it and a note says
 * so.
 */
/*
 * `mmap ... at ADDR` over the scenario's own mappings replaces them, as
 * MAP_FIXED does and as the model's mmap does: unmap what the scenario
 * mapped in [addr, addr + len) first.  The worker maps with
 * MAP_FIXED_NOREPLACE, so anything else in the way (the worker's own
 * image) still fails the mmap, with a note, and is never clobbered.
 */
static int unmap_own(struct aw_exec *x, const struct aw_event *ev, struct aw_xspace *sp)
{
	uint64_t start = ev->addr2, end = ev->addr2 + ev->len;

	for (int i = 0; i < sp->nr; i++) {
		uint64_t a = sp->r[i].start > start ? sp->r[i].start : start;
		uint64_t b = sp->r[i].end < end ? sp->r[i].end : end;
		struct aw_wreq rq = { .op = AW_W_MUNMAP, .addr = a, .len = b - a };
		struct aw_wrep rp;

		if (a >= b)
			continue;
		if (call(x, ev->pid, &rq, &rp))
			return -1;
		if (!rp.err && aw_space_remove(sp, a, b))
			return fatal(x, "out of memory");
		if (!rp.err)
			i = -1;		/* the ranges moved: look again */
	}
	return 0;
}

static int ev_mmap(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_wreq rq = { .op = AW_W_MMAP, .flags = ev->flags, .arg = ev->arg, .len = ev->len,
			      .addr2 = ev->addr2 };
	struct aw_xspace *sp = space_of(x, ev->pid);
	struct aw_wrep rp;
	bool placed = false;

	if (rq.addr2 && sp && unmap_own(x, ev, sp))
		return -1;
	if (!rq.addr2 && sp) {
		rq.addr2 = aw_space_place(sp, x->sc.cfg.mmap_base, ev->len,
					  aw_place_align(x->opt.kver, ev->flags & AW_MAP_FILE, ev->len));
		placed = rq.addr2 != 0;
	}
	if (call_mmap(x, ev->pid, &rq, &rp))
		return -1;
	if (placed && rp.err == EEXIST) {
		aw_note(x, AW_NOTE_APPROXIMATED, "mmap at the model's 0x%" PRIx64 ": taken here, the kernel placed it",
			rq.addr2);
		rq.addr2 = 0;
		if (call_mmap(x, ev->pid, &rq, &rp))
			return -1;
	}
	if (rp.note & AW_WN_NO_DROPPABLE)
		aw_note(x, AW_NOTE_APPROXIMATED, "droppable: this kernel has no MAP_DROPPABLE, mapped without");
	if (rp.err)
		return 0;
	if (sp && aw_space_add(sp, rp.addr, rp.addr + ev->len))
		return fatal(x, "out of memory");
	if (ev->region)
		x->region[ev->region - 1] = (struct aw_xregion){ .addr = rp.addr, .len = ev->len,
								 .owner = ev->pid, .mapped = true };
	return 0;
}

static int ev_simple(struct aw_exec *x, const struct aw_event *ev, uint32_t op);

static int ev_munmap(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_xspace *sp = space_of(x, ev->pid);
	uint64_t addr = addr_of(x, ev);

	if (ev_simple(x, ev, AW_W_MUNMAP))
		return -1;
	if (sp)
		aw_space_remove(sp, addr, addr + ev->len);
	return 0;
}

static int ev_mremap(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_wreq rq = { .op = AW_W_MREMAP, .addr = addr_of(x, ev), .len = ev->len,
			      .stride = ev->stride, .addr2 = ev->addr2 };
	struct aw_wrep rp;

	struct aw_xspace *sp = space_of(x, ev->pid);

	if (call(x, ev->pid, &rq, &rp))
		return -1;
	if (rp.err)
		return 0;
	if (sp && (aw_space_remove(sp, rq.addr, rq.addr + ev->len) ||
		   aw_space_add(sp, rp.addr, rp.addr + ev->stride)))
		return fatal(x, "out of memory");
	if (ev->region) {
		x->region[ev->region - 1].addr = rp.addr;
		x->region[ev->region - 1].len = ev->stride;
	}
	return 0;
}

/* Events that are one request on the process's worker. */
static int ev_simple(struct aw_exec *x, const struct aw_event *ev, uint32_t op)
{
	struct aw_wreq rq = { .op = op, .flags = ev->flags, .arg = ev->arg, .node = ev->node,
			      .cpu = ev->cpu, .repeat = ev->repeat ? ev->repeat : 1,
			      .addr = addr_of(x, ev), .len = ev->len, .stride = ev->stride };
	struct aw_wrep rp;

	return call(x, ev->pid, &rq, &rp);
}

/* ---- reclaim and the TLB rule ----------------------------------------- */

/*
 * The QEMU TLB rule (docs/lab.md): after an age or evict, a worker's next
 * access must not hit a TLB entry that predates the cleared accessed
 * bits.  The flush is done lazily, by the worker that is about to access,
 * because a flush runs the worker -- its stack, its text -- and a worker
 * that ran between two aging passes (node 0's and node 1's, say) sets
 * accessed bits the scenario does not have.  A thread or CLONE_VM child
 * flushes the mm it shares, so each task keeps its own mark.
 */
static void mark_stale(struct aw_exec *x)
{
	for (int p = 1; p < x->nr_workers; p++)
		x->w[p].tlb_stale = true;
}

static int flush_if_stale(struct aw_exec *x, uint32_t pid)
{
	struct aw_wreq rq = { .op = AW_W_FLUSH };
	struct aw_wrep rp;

	if (!worker(x, pid) || !x->w[pid].tlb_stale)
		return 0;
	x->w[pid].tlb_stale = false;
	return call(x, pid, &rq, &rp);
}

static int ev_access(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_wreq rq = { .op = AW_W_ACCESS, .flags = ev->flags, .cpu = ev->cpu,
			      .repeat = ev->repeat ? ev->repeat : 1, .addr = addr_of(x, ev), .len = ev->len,
			      .stride = ev->stride };
	struct aw_wrep rp;

	if (flush_if_stale(x, ev->pid) || call(x, ev->pid, &rq, &rp))
		return -1;
	if (rp.note & AW_WN_SKIPPED)
		aw_note(x, AW_NOTE_NOT_EXECUTED, "%" PRIu64 " of the access's steps outside the process's"
			" mappings or against their protection: skipped, as the model skips them", rp.addr);
	return 0;
}

static int64_t kh_stat(const struct aw_exec *x, const char *name)
{
	char path[512], *text;
	int64_t v;

	snprintf(path, sizeof(path), "%s/khugepaged/%s", x->opt.thp_dir, name);
	if (aw_read_file(path, &text))
		return -1;
	v = strtoll(text, NULL, 10);
	free(text);
	return v;
}

/*
 * khugepaged cannot be woken on command.  Knobs are set; a wake-up event
 * waits, at most kh_wait_ms, for full_scans to grow by the asked number
 * (`full N`) or by one (`times N`), and is marked approximated.
 */
static int ev_khugepaged(struct aw_exec *x, const struct aw_event *ev)
{
	static const char *const knob[AW_KH_KNOB_NR] = { [AW_KH_PAGES_TO_SCAN] = "pages_to_scan",
		[AW_KH_MAX_PTES_NONE] = "max_ptes_none", [AW_KH_MAX_PTES_SWAP] = "max_ptes_swap",
		[AW_KH_MAX_PTES_SHARED] = "max_ptes_shared" };
	int64_t start = kh_stat(x, "full_scans"), want;
	char path[512], val[32];
	int r;

	if (ev->arg > 0 && ev->arg < AW_KH_KNOB_NR) {
		snprintf(path, sizeof(path), "%s/khugepaged/%s", x->opt.thp_dir, knob[ev->arg]);
		snprintf(val, sizeof(val), "%" PRIu64, ev->len);
		if ((r = aw_write_file(path, val)))
			aw_note(x, AW_NOTE_ERROR, "writing %s: %s", path, strerror(-r));
		return 0;
	}
	if (!aw_kht_wake_event(x, ev))
		return 0;
	want = ev->flags & AW_KH_FULL ? (int64_t)ev->repeat : 1;
	for (int ms = 0; start >= 0 && kh_stat(x, "full_scans") < start + want && ms < x->opt.kh_wait_ms; ms += 10)
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	aw_note(x, AW_NOTE_APPROXIMATED, "khugepaged cannot be woken: waited for full_scans %" PRId64
		" -> %" PRId64 " (asked +%" PRId64 ")", start, kh_stat(x, "full_scans"), want);
	return 0;
}

static int ev_sample(struct aw_exec *x, const struct aw_event *ev)
{
	struct aw_xregion *rg = &x->region[ev->region - 1];
	struct aw_residency res = { 0 };
	struct aw_xsample *smp;
	int r;

	if (!rg->mapped || !worker(x, rg->owner)) {
		aw_note(x, AW_NOTE_ERROR, "sample: region %s is not mapped", x->sc.region_name[ev->region - 1]);
		return 0;
	}
	if ((r = aw_pagemap_residency(x->w[rg->owner].pid, rg->addr, rg->len, &x->zero, &res)))
		aw_note(x, AW_NOTE_ERROR, "pagemap: %s", strerror(-r));
	smp = aw_grow(x->samples, &x->cap_samples, x->nr_samples, sizeof(*smp), 16);
	if (!smp)
		return fatal(x, "out of memory");
	x->samples = smp;
	x->samples[x->nr_samples++] = (struct aw_xsample){ .event = x->ev, .region = ev->region - 1,
							   .resident = res.resident, .swapped = res.swapped };
	return 0;
}

static int ev_memcg(struct aw_exec *x, const struct aw_event *ev)
{
	int r;

	if (ev->kind == AW_EV_MEMCG_LIMIT)
		return aw_memcg_limit(x, ev->memcg, ev->len), 0;
	if (!worker(x, ev->pid))
		return fatal(x, "process %s has no running worker", x->sc.proc_name[ev->pid - 1]);
	if ((r = aw_memcg_place(x, ev->memcg, x->w[ev->pid].pid)))
		aw_note(x, AW_NOTE_ERROR, "moving to memcg %d: %s", ev->memcg, strerror(-r));
	return 0;
}

static int not_executed(struct aw_exec *x, const char *why)
{
	aw_note(x, AW_NOTE_NOT_EXECUTED, "%s", why);
	return 0;
}

static int ev_run(struct aw_exec *x, const struct aw_event *ev)
{
	switch (ev->kind) {
	case AW_EV_PROC: return ev_proc(x, ev);
	case AW_EV_FORK: case AW_EV_VFORK: case AW_EV_THREAD: return ev_task(x, ev);
	case AW_EV_EXEC: return ev_exec(x, ev);
	case AW_EV_EXIT: end_worker(x, ev->pid); return 0;
	case AW_EV_RUN: return ev_simple(x, ev, AW_W_AFFINITY);
	case AW_EV_MMAP: return ev_mmap(x, ev);
	case AW_EV_MUNMAP: return ev_munmap(x, ev);
	case AW_EV_MREMAP: return ev_mremap(x, ev);
	case AW_EV_MPROTECT: return ev_simple(x, ev, AW_W_MPROTECT);
	case AW_EV_BRK: return ev_simple(x, ev, AW_W_BRK);
	case AW_EV_MBIND: return ev_simple(x, ev, AW_W_MBIND);
	case AW_EV_SET_MEMPOLICY: return ev_simple(x, ev, AW_W_SET_MEMPOLICY);
	case AW_EV_ACCESS: return ev_access(x, ev);
	case AW_EV_MADVISE:
		x->pageout |= ev->arg == AW_MADV_PAGEOUT;
		return ev_simple(x, ev, AW_W_MADVISE);
	case AW_EV_MIGRATE: return ev_simple(x, ev, AW_W_MIGRATE);
	case AW_EV_MEMCG_LIMIT: case AW_EV_MEMCG_MOVE: return ev_memcg(x, ev);
	case AW_EV_PRCTL_THP: return ev_simple(x, ev, AW_W_PRCTL_THP);
	case AW_EV_AGE: return aw_exec_age(x, ev) ? -1 : (mark_stale(x), 0);
	case AW_EV_EVICT: return aw_exec_evict(x, ev) ? -1 : (mark_stale(x), 0);
	case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP: case AW_EV_AGE_END:
		return not_executed(x, "split aging: the kernel walks a whole pass in one command");
	case AW_EV_CONTEND: return not_executed(x, "contend: a lock cannot be held from user space");
	case AW_EV_KHUGEPAGED: return ev_khugepaged(x, ev);
	case AW_EV_TIME:
		nanosleep(&(struct timespec){ .tv_sec = (time_t)(ev->len / 1000000000ULL),
					      .tv_nsec = (long)(ev->len % 1000000000ULL) }, NULL);
		return 0;
	case AW_EV_SAMPLE: return ev_sample(x, ev);
	case AW_EV_FDIO:
		return not_executed(x, "pread/pwrite: the lab's worker maps anonymous files it holds no descriptor of");
	}
	return not_executed(x, "unknown event kind");
}

static int nr_passes(const struct aw_exec *x)
{
	int n = 0;

	for (int i = 0; i < x->sc.cfg.nr_nodes; i++)
		n += x->node[i].nr_passes;
	return n;
}

int aw_exec_run(struct aw_exec *x)
{
	for (int n = 0; n < AW_MAX_NODES; n++)
		x->node[n].refaults0 = -1;	/* until read below */
	x->w = calloc((size_t)x->sc.nr_procs + 2, sizeof(*x->w));
	x->region = calloc((size_t)x->sc.nr_regions + 1, sizeof(*x->region));
	x->snap = malloc(sizeof(*x->snap));
	x->snap2 = malloc(sizeof(*x->snap2));
	x->seen = calloc((size_t)AW_MAX_MEMCGS * AW_MAX_NODES, sizeof(*x->seen));
	if (!x->w || !x->region || !x->snap || !x->snap2 || !x->seen)
		return fatal(x, "out of memory");
	x->snap->nr = 0;	/* no lru_gen_full read yet (exec_memstat.c reads the last) */
	/*
	 * the zero pages first: the huge zero page's read registers this
	 * process's mm with khugepaged, whose wake-up on an empty list
	 * (khugepaged_wait_event()) is then over before its records count
	 */
	aw_zero_pfns(&x->zero);
	aw_kprobe_setup(x);
	aw_kht_setup(x);
	x->kh_full_scans0 = kh_stat(x, "full_scans");
	x->kh_collapsed0 = kh_stat(x, "pages_collapsed");
	for (int n = 0; n < x->sc.cfg.nr_nodes; n++)
		x->node[n].refaults0 = aw_refaults_node(x, n);
	x->ev = -1;
	x->limited = aw_exec_limited(x);
	if (aw_exec_reclaim_passes(x))
		return -1;
	aw_exec_reclaim_pages(x, false);
	aw_exec_memstat(x);
	for (size_t i = 0; i < x->sc.nr_events; i++) {
		x->ev = (long)i;
		if (ev_run(x, &x->sc.events[i]))
			return -1;
		x->events_done++;
		/*
		 * a memcg limit's reclaim ran inside this event, if at all: its
		 * passes are this event's (compare pairs passes by event)
		 */
		if (x->limited) {
			int before = nr_passes(x);

			if (aw_exec_reclaim_passes(x))
				return -1;
			/*
			 * the reclaim's aging cleared accessed bits as an age
			 * line does: the QEMU TLB rule holds for it too, or the
			 * next access through a stale TLB entry leaves a page
			 * that is in use looking cold to the next pass
			 */
			if (nr_passes(x) != before)
				mark_stale(x);
		}
		aw_exec_memstat(x);
	}
	aw_exec_reclaim_pages(x, true);
	return aw_exec_reclaim_passes(x);
}

/* End-of-run residency of every region, khugepaged totals, then the workers go. */
void aw_exec_finish(struct aw_exec *x)
{
	for (int i = 0; x->region && i < x->sc.nr_regions; i++) {
		struct aw_xregion *rg = &x->region[i];
		struct aw_residency res;

		if (rg->mapped && worker(x, rg->owner) &&
		    !aw_pagemap_residency(x->w[rg->owner].pid, rg->addr, rg->len, &x->zero, &res)) {
			rg->resident = res.resident;
			rg->swapped = res.swapped;
		}
	}
	aw_kprobe_collect(x, NULL);	/* khugepaged's last records */
	aw_kht_teardown(x);
	if (x->kprobes)
		aw_kprobe_teardown(x);
	x->kh_full_scans = kh_stat(x, "full_scans");
	x->kh_collapsed = kh_stat(x, "pages_collapsed");
	for (int n = 0; n < x->sc.cfg.nr_nodes; n++) {
		int64_t now = aw_refaults_node(x, n);

		x->node[n].refaults = now < 0 || x->node[n].refaults0 < 0 ? -1 : now - x->node[n].refaults0;
	}
	/* threads and CLONE_VM children first: the leader's exit would take them */
	for (int p = x->nr_workers - 1; p >= 1; p--)
		if (x->w[p].thread)
			end_worker(x, (uint32_t)p);
	for (int p = x->nr_workers - 1; p >= 1; p--)
		end_worker(x, (uint32_t)p);
}

void aw_exec_free(struct aw_exec *x)
{
	for (int n = 0; n < AW_MAX_NODES; n++) {
		free(x->node[n].passes);
		free(x->node[n].evictions);
	}
	free(x->seen);
	free(x->w);
	free(x->region);
	free(x->notes);
	free(x->samples);
	free(x->rpass);
	free(x->memstat);
	free(x->snap);
	free(x->snap2);
	aw_kht_free(&x->kht);
	aw_scenario_free(&x->sc);
}
