// SPDX-License-Identifier: GPL-2.0-only
/*
 * A worker: the process (or thread) that stands for one scenario process.
 * It does nothing of its own accord; it serves one request at a time from
 * the controller on a SOCK_SEQPACKET socket and answers each with one
 * reply, so the controller always knows the machine is idle between
 * events.  Every request is a plain system call on the worker's own mm,
 * which is the point: the kernel's MGLRU sees a real process.
 *
 * The QEMU TLB rule (docs/lab.md): each worker image keeps SCRATCH_PAGES
 * read-only pages mapped to the zero page; AW_W_FLUSH turns them PROT_NONE
 * and back.  More than tlb_single_page_flush_ceiling (33) pages make
 * flush_tlb_mm_range() flush the whole mm, which drops the stale TLB
 * entries QEMU's software TLB keeps after ptep_test_and_clear_young()
 * cleared an accessed bit without a flush; without it a re-access after an
 * aging pass would not set the bit again and look cold.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec.h"

#define SCRATCH_PAGES	64
#define CLONE_STACK	(256 * 1024)

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE	0x100000
#endif
#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE		0x08
#endif
#ifndef MADV_COLD
#define MADV_COLD		20
#endif
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT		21
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE		25
#endif
#ifndef PR_THP_DISABLE_EXCEPT_ADVISED
#define PR_THP_DISABLE_EXCEPT_ADVISED	(1 << 1)
#endif
#define AW_MPOL_DEFAULT_K	0	/* uapi MPOL_DEFAULT, PREFERRED, BIND */
#define AW_MPOL_PREFERRED_K	1
#define AW_MPOL_BIND_K		2
#define AW_MPOL_MF_MOVE		(1 << 1)

struct aw_wstate {
	int fd;
	bool thread;
	char *scratch;
};

/* ---- channel ------------------------------------------------------------ */

int aw_wsend(int fd, const struct aw_wreq *rq, int pass_fd)
{
	struct iovec iov = { .iov_base = (void *)rq, .iov_len = sizeof(*rq) };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (pass_fd >= 0) {
		struct cmsghdr *c;

		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
	}
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof(*rq) ? 0 : -1;
}

int aw_wrecv(int fd, struct aw_wrep *rp)
{
	ssize_t n;

	do
		n = recv(fd, rp, sizeof(*rp), 0);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(*rp) ? 0 : -1;
}

static int recv_req(int fd, struct aw_wreq *rq, int *passed)
{
	struct iovec iov = { .iov_base = rq, .iov_len = sizeof(*rq) };
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n;

	*passed = -1;
	do
		n = recvmsg(fd, &mh, 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*rq))
		return -1;
	c = CMSG_FIRSTHDR(&mh);
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(passed, CMSG_DATA(c), sizeof(int));
	return 0;
}

static void reply(struct aw_wstate *ws, int err, uint64_t addr, int pid, uint32_t note)
{
	struct aw_wrep rp = { .err = err, .pid = pid, .addr = addr, .note = note };

	if (send(ws->fd, &rp, sizeof(rp), MSG_NOSIGNAL) != (ssize_t)sizeof(rp))
		ws->thread ? syscall(SYS_exit, 1) : _exit(1);
}

/* ---- the scratch VMA and the flush ------------------------------------- */

/*
 * Where the scratch VMA goes: a fixed low address (4 GiB), far from the
 * top-down mmap area, so that it does not shift where the scenario's own
 * mappings land.  Below another mapping a 2 MiB-multiple region would no
 * longer be PMD aligned on 6.1, which places anonymous mappings at page
 * granularity (the first lab runs of s2-forced-pass-6x.aws counted about
 * 510 small pages at the ends of each 128 MiB THP region).  Taken, it goes
 * wherever mmap() puts it.
 */
#define SCRATCH_ADDR	(1UL << 32)

static void scratch_setup(struct aw_wstate *ws)
{
	volatile char sink = 0;

	ws->scratch = mmap((void *)SCRATCH_ADDR, SCRATCH_PAGES * 4096, PROT_READ,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (ws->scratch == MAP_FAILED)
		ws->scratch = mmap(NULL, SCRATCH_PAGES * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ws->scratch == MAP_FAILED) {
		ws->scratch = NULL;
		return;
	}
	/* a read fault of an anonymous page maps the shared zero page */
	for (int i = 0; i < SCRATCH_PAGES; i++)
		sink += ws->scratch[i * 4096];
	(void)sink;
}

static int tlb_flush(struct aw_wstate *ws)
{
	if (!ws->scratch)
		return ENOMEM;
	if (mprotect(ws->scratch, SCRATCH_PAGES * 4096, PROT_NONE) ||
	    mprotect(ws->scratch, SCRATCH_PAGES * 4096, PROT_READ))
		return errno;
	return 0;
}

/* ---- memory requests --------------------------------------------------- */

static int prot_of(uint32_t p)
{
	return (p & AW_PROT_READ ? PROT_READ : 0) | (p & AW_PROT_WRITE ? PROT_WRITE : 0) |
	       (p & AW_PROT_EXEC ? PROT_EXEC : 0);
}

static int mmap_advice(void *p, uint64_t len, uint32_t flags)
{
	if ((flags & AW_MAP_HUGEPAGE) && madvise(p, len, MADV_HUGEPAGE))
		return errno;
	if ((flags & AW_MAP_NOHUGEPAGE) && madvise(p, len, MADV_NOHUGEPAGE))
		return errno;
	if ((flags & AW_MAP_SEQ_READ) && madvise(p, len, MADV_SEQUENTIAL))
		return errno;
	if ((flags & AW_MAP_RAND_READ) && madvise(p, len, MADV_RANDOM))
		return errno;
	return 0;
}

/* `file`: a private mapping of the file the controller passed (exec_file.c) */
static void do_mmap(struct aw_wstate *ws, const struct aw_wreq *rq, int passed)
{
	int mf = MAP_PRIVATE, fd = -1, err;
	uint32_t note = 0;
	void *p;

	mf |= (rq->flags & AW_MAP_LOCKED ? MAP_LOCKED : 0) | (rq->flags & AW_MAP_NORESERVE ? MAP_NORESERVE : 0);
	mf |= rq->addr2 ? MAP_FIXED_NOREPLACE : 0;
	if (rq->flags & AW_MAP_FILE) {
		if ((fd = passed) < 0)
			return reply(ws, EBADF, 0, 0, 0);
	} else {
		if (passed >= 0)
			close(passed);
		mf |= MAP_ANONYMOUS;
	}
	/* MAP_DROPPABLE is a map type of its own, in place of MAP_PRIVATE */
	p = mmap((void *)rq->addr2, rq->len, prot_of(rq->arg),
		 rq->flags & AW_MAP_DROPPABLE ? (mf & ~MAP_PRIVATE) | MAP_DROPPABLE : mf, fd, 0);
	if (p == MAP_FAILED && (rq->flags & AW_MAP_DROPPABLE) && errno == EINVAL) {
		/* MAP_DROPPABLE (6.11+) is its own map type: without it the mapping
		 * is mapped plainly and the row is marked */
		note |= AW_WN_NO_DROPPABLE;
		p = mmap((void *)rq->addr2, rq->len, prot_of(rq->arg), mf, fd, 0);
	}
	err = p == MAP_FAILED ? errno : 0;
	if (fd >= 0)
		close(fd);
	if (!err && rq->addr2 && (uint64_t)p != rq->addr2)
		err = EEXIST;	/* pre-4.17 kernels ignore MAP_FIXED_NOREPLACE */
	if (!err)
		err = mmap_advice(p, rq->len, rq->flags);
	reply(ws, err, err ? 0 : (uint64_t)p, 0, note);
}

static void do_mremap(struct aw_wstate *ws, const struct aw_wreq *rq)
{
	int f = MREMAP_MAYMOVE | (rq->addr2 ? MREMAP_FIXED : 0);
	void *p = mremap((void *)rq->addr, rq->len, rq->stride, f, (void *)rq->addr2);

	reply(ws, p == MAP_FAILED ? errno : 0, p == MAP_FAILED ? 0 : (uint64_t)p, 0, 0);
}

static void do_brk(struct aw_wstate *ws, const struct aw_wreq *rq)
{
	uint64_t cur = (uint64_t)syscall(SYS_brk, 0);
	uint64_t want = rq->flags & AW_BRK_SHRINK ? cur - rq->len : cur + rq->len;
	uint64_t got = (uint64_t)syscall(SYS_brk, want);

	reply(ws, got == want ? 0 : ENOMEM, got, 0, 0);
}

static int advice_of(uint32_t a)
{
	static const int adv[AW_MADV_NR] = {
		[AW_MADV_FREE] = MADV_FREE, [AW_MADV_DONTNEED] = MADV_DONTNEED,
		[AW_MADV_COLD] = MADV_COLD, [AW_MADV_PAGEOUT] = MADV_PAGEOUT,
		[AW_MADV_HUGEPAGE] = MADV_HUGEPAGE, [AW_MADV_NOHUGEPAGE] = MADV_NOHUGEPAGE,
		[AW_MADV_COLLAPSE] = MADV_COLLAPSE,
	};
	return a < AW_MADV_NR ? adv[a] : -1;
}

static int mode_of(uint32_t mpol)
{
	return mpol == AW_MPOL_BIND ? AW_MPOL_BIND_K : mpol == AW_MPOL_PREFERRED ? AW_MPOL_PREFERRED_K
	       : AW_MPOL_DEFAULT_K;
}

static int do_policy(const struct aw_wreq *rq)
{
	unsigned long mask = 1UL << rq->node;
	int mode = mode_of(rq->arg);
	long r;

	if (rq->op == AW_W_SET_MEMPOLICY)
		r = syscall(SYS_set_mempolicy, mode, mode ? &mask : NULL, mode ? 64 : 0);
	else
		r = syscall(SYS_mbind, rq->addr, rq->len, mode, mode ? &mask : NULL, mode ? 64 : 0, 0);
	return r ? errno : 0;
}

/* `migrate`: move_pages() of every page; pages not present are skipped (-ENOENT). */
static int do_migrate(const struct aw_wreq *rq)
{
	enum { BATCH = 512 };
	void *pages[BATCH];
	int nodes[BATCH], status[BATCH];

	for (uint64_t off = 0; off < rq->len; off += BATCH * 4096ULL) {
		int n = 0;

		for (; n < BATCH && off + n * 4096ULL < rq->len; n++) {
			pages[n] = (void *)(rq->addr + off + n * 4096ULL);
			nodes[n] = (int)rq->node;
		}
		if (syscall(SYS_move_pages, 0, n, pages, nodes, status, AW_MPOL_MF_MOVE) < 0)
			return errno;
	}
	return 0;
}

int aw_set_affinity(uint32_t cpu)
{
	cpu_set_t set;

	if (cpu == AW_CPU_CURRENT)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? errno : 0;
}

/* One line of /proc/self/maps: a VMA and whether it can be read and written. */
struct aw_vma_perm { uint64_t start, end; bool r, w; };

/*
 * The process's VMAs, in address order; NULL (and *nr 0) if maps cannot be
 * read, and then nothing is skipped.
 */
static struct aw_vma_perm *read_maps(int *nr)
{
	struct aw_vma_perm *v = NULL;
	char *text = NULL;
	int cap = 0;

	*nr = 0;
	if (aw_read_file("/proc/self/maps", &text))
		return NULL;
	for (char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		unsigned long long start, end;
		char perm[5];
		struct aw_vma_perm *g;

		if (sscanf(line, "%llx-%llx %4s", &start, &end, perm) != 3)
			continue;
		if (!(g = aw_grow(v, &cap, *nr, sizeof(*v), 64)))
			break;
		v = g;
		v[(*nr)++] = (struct aw_vma_perm){ start, end, perm[0] == 'r', perm[1] == 'w' };
	}
	free(text);
	return v;
}

/*
 * read/write: one byte per stride step, repeat times, faulting as the
 * model's access does.  An address outside every VMA, or against its
 * protection, would be a SIGSEGV: the model's aw_access() skips it and
 * goes on, and so does this, counting the skipped steps in *skipped.
 */
static int do_access(const struct aw_wreq *rq, uint64_t *skipped)
{
	uint64_t stride = rq->stride ? rq->stride : 4096;
	bool write = rq->flags & AW_ACC_WRITE;
	int err = aw_set_affinity(rq->cpu), nr;
	struct aw_vma_perm *vma;

	*skipped = 0;
	if (err)
		return err;
	vma = read_maps(&nr);
	for (uint32_t r = 0; r < rq->repeat; r++)
		for (uint64_t off = 0, i = 0; off < rq->len; off += stride) {
			volatile char *p = (volatile char *)(rq->addr + off);

			while (vma && i < (uint64_t)nr && vma[i].end <= rq->addr + off)
				i++;
			if (vma && (i == (uint64_t)nr || vma[i].start > rq->addr + off ||
				    !(write ? vma[i].w : vma[i].r))) {
				*skipped += r == 0;
				continue;
			}

			/*
			 * A write is a plain store: a read-modify-write would
			 * first read-fault the (huge) zero page in, and the write
			 * to a huge zero PMD splits it (do_huge_pmd_wp_page()), so
			 * a THP region would end up in small pages.
			 */
			if (write)
				*p = 1;
			else
				(void)*p;
		}
	free(vma);
	return 0;
}

static int do_prctl(const struct aw_wreq *rq)
{
	unsigned long v = rq->arg == AW_THP_ENABLE ? 0 : rq->arg == AW_THP_DISABLE_COMPLETELY ? 1
			  : 1 | PR_THP_DISABLE_EXCEPT_ADVISED;

	return prctl(PR_SET_THP_DISABLE, v, 0, 0, 0) ? errno : 0;
}

/* ---- tasks ------------------------------------------------------------- */

static int clone_child(void *arg)
{
	aw_worker_main((int)(intptr_t)arg, false);
}

static void *thread_child(void *arg)
{
	aw_worker_main((int)(intptr_t)arg, true);
}

/*
 * fork: a copy of the mm (CoW), the controller's new channel end passed in
 * with SCM_RIGHTS; vfork: a process sharing the mm (CLONE_VM, without
 * CLONE_VFORK, which would stop this worker until the child execs);
 * thread: a thread of this worker (CLONE_THREAD by pthread_create()).
 */
static void do_task(struct aw_wstate *ws, const struct aw_wreq *rq, int chfd)
{
	pid_t pid;

	if (chfd < 0)
		return reply(ws, EBADF, 0, 0, 0);
	if (rq->op == AW_W_FORK) {
		pid = fork();
		if (pid == 0) {
			close(ws->fd);
			aw_worker_main(chfd, false);
		}
	} else if (rq->op == AW_W_VFORK) {
		char *stack = malloc(CLONE_STACK);

		pid = stack ? clone(clone_child, stack + CLONE_STACK, CLONE_VM | SIGCHLD,
				    (void *)(intptr_t)chfd) : -1;
	} else {
		pthread_t t;

		pid = pthread_create(&t, NULL, thread_child, (void *)(intptr_t)chfd) ? -1 : 0;
		if (!pid)
			pthread_detach(t);
	}
	if (rq->op != AW_W_THREAD)
		close(chfd);	/* the thread shares this fd table: it keeps the end */
	reply(ws, pid < 0 ? errno : 0, 0, pid, 0);
}

/* exec: the same program as a new worker image (fresh mm); it says HELLO. */
static void do_exec(struct aw_wstate *ws, const char *self)
{
	char fdarg[16];
	char *argv[] = { (char *)self, "--worker", fdarg, NULL };

	snprintf(fdarg, sizeof(fdarg), "%d", ws->fd);
	execv(self, argv);
	reply(ws, errno, 0, 0, 0);
}

static void do_exit(struct aw_wstate *ws)
{
	reply(ws, 0, 0, 0, 0);
	if (ws->thread)
		syscall(SYS_exit, 0);	/* this thread only */
	_exit(0);
}

/* ---- the loop ---------------------------------------------------------- */

static int serve_memory(struct aw_wstate *ws, const struct aw_wreq *rq)
{
	void *a = (void *)rq->addr;

	switch (rq->op) {
	case AW_W_MUNMAP: return munmap(a, rq->len) ? errno : 0;
	case AW_W_MPROTECT: return mprotect(a, rq->len, prot_of(rq->arg)) ? errno : 0;
	case AW_W_MADVISE: return madvise(a, rq->len, advice_of(rq->arg)) ? errno : 0;
	case AW_W_MBIND:
	case AW_W_SET_MEMPOLICY: return do_policy(rq);
	case AW_W_MIGRATE: return do_migrate(rq);
	case AW_W_AFFINITY: return aw_set_affinity(rq->cpu);
	case AW_W_PRCTL_THP: return do_prctl(rq);
	case AW_W_FLUSH: return tlb_flush(ws);
	case AW_W_MARK:
		/* the kprobe fires on entry, whatever madvise() then says */
		(void)madvise(ws->scratch, 4096, MADV_NORMAL);
		return 0;
	}
	return EINVAL;
}

void aw_worker_main(int fd, bool is_thread)
{
	struct aw_wstate ws = { .fd = fd, .thread = is_thread };
	char self[4096];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[sl > 0 ? sl : 0] = '\0';
	signal(SIGCHLD, SIG_IGN);	/* fork children are reaped by the kernel */
	if (!is_thread)
		scratch_setup(&ws);
	/* a thread shares its leader's mm, and so its scratch VMA */
	reply(&ws, 0, 0, (int)syscall(SYS_gettid), 0);
	for (;;) {
		struct aw_wreq rq;
		int chfd;

		if (recv_req(fd, &rq, &chfd))
			is_thread ? syscall(SYS_exit, 0) : _exit(0);
		switch (rq.op) {
		case AW_W_MMAP: do_mmap(&ws, &rq, chfd); break;
		case AW_W_MREMAP: do_mremap(&ws, &rq); break;
		case AW_W_BRK: do_brk(&ws, &rq); break;
		case AW_W_FORK: case AW_W_VFORK: case AW_W_THREAD: do_task(&ws, &rq, chfd); break;
		case AW_W_EXEC: do_exec(&ws, self); break;
		case AW_W_EXIT: do_exit(&ws); break;
		case AW_W_ACCESS: {
			uint64_t skipped;
			int err = do_access(&rq, &skipped);

			reply(&ws, err, skipped, 0, skipped ? AW_WN_SKIPPED : 0);
			break;
		}
		default: reply(&ws, serve_memory(&ws, &rq), 0, 0, 0);
		}
	}
}
