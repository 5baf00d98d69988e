// SPDX-License-Identifier: GPL-2.0-only
/*
 * Address-space syscalls (syscalls:sys_enter_* / sys_exit_*): mmap, brk,
 * munmap, mremap, mprotect, madvise, mbind, set_mempolicy and
 * prctl(PR_SET_THP_DISABLE) become the model's mappings and events;
 * pread64/pwrite64 of a descriptor a file mapping was made from become
 * pread/pwrite of its pages (close forgets the descriptor).  The
 * syscall tracepoints carry the raw arguments, so the numbers are the
 * uapi's (include/uapi/asm-generic/mman-common.h, mempolicy.h, prctl.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tev.h"

/* Linux madvise() advice numbers -> agewalk's */
static int madv(uint32_t behavior)
{
	switch (behavior) {
	case 4: return AW_MADV_DONTNEED;
	case 8: return AW_MADV_FREE;
	case 14: return AW_MADV_HUGEPAGE;
	case 15: return AW_MADV_NOHUGEPAGE;
	case 20: return AW_MADV_COLD;
	case 21: return AW_MADV_PAGEOUT;
	case 25: return AW_MADV_COLLAPSE;
	default: return 0;
	}
}

static void note_fdmap(struct aw_tproc *p, int32_t fd, uint64_t addr, uint64_t len, uint64_t off);

/* The task's mmap() in flight: the entry has the arguments, the exit the address. */
static int pending_slot(struct aw_ingest *in, uint32_t tid)
{
	int32_t idx;

	if (!aw_tidmap_get(&in->pending, tid, &idx))
		return idx;
	if (in->nr_pend == in->cap_pend) {
		uint32_t cap = in->cap_pend ? in->cap_pend * 2 : 64;
		void *a = realloc(in->pend, cap * sizeof(*in->pend));

		if (!a)
			return -1;
		in->pend = a;
		in->cap_pend = cap;
	}
	memset(&in->pend[in->nr_pend], 0, sizeof(in->pend[0]));
	if (aw_tidmap_put(&in->pending, tid, (int32_t)in->nr_pend))
		return -1;
	return (int)in->nr_pend++;
}

int aw_on_mmap(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	int slot = pending_slot(in, c->tid);
	struct aw_pending_mmap *pm;
	struct aw_tproc *p;
	int64_t ret;
	uint8_t flags = 0;

	if (slot < 0)
		return -1;
	pm = &in->pend[slot];
	if (c->t == AW_TEV_MMAP_ENTER) {
		pm->addr = aw_tf(c, 0);
		pm->len = aw_tf(c, 1);
		pm->prot = aw_tf32(c, 2);
		pm->flags = aw_tf32(c, 3);
		pm->fd = (int32_t)aw_tf32(c, 4);
		pm->off = aw_tf(c, 5);
		pm->valid = true;
		return 0;
	}
	ret = aw_tf_ret(c, 0);
	if (!pm->valid || (ret < 0 && ret >= -4095) || !(p = aw_ing_proc(in, c->tid, NULL, c->cpu)))
		return pm->valid = false, 0;
	pm->valid = false;
	if (pm->flags & 0x2000)
		flags |= AW_MAP_LOCKED;
	if (pm->flags & 0x4000)
		flags |= AW_MAP_NORESERVE;
	if ((pm->flags & 0x0f) == 0x08)	/* MAP_DROPPABLE is a mapping type */
		flags |= AW_MAP_DROPPABLE;
	if (!(pm->flags & 0x20) && pm->fd >= 0)
		note_fdmap(p, pm->fd, (uint64_t)ret, pm->len, pm->off);
	return aw_ing_mmap(in, p, (uint64_t)ret, pm->len, pm->prot, flags, !(pm->flags & 0x20));
}

static void drop_fdmaps(struct aw_tproc *p, int32_t fd)
{
	int n = 0;

	for (int i = 0; i < p->nr_fdmaps; i++)
		if (p->fdmaps[i].fd != fd)
			p->fdmaps[n++] = p->fdmaps[i];
	p->nr_fdmaps = n;
}

/*
 * A file mapping made from descriptor fd: a later pread64/pwrite64 of fd
 * at a file position inside [off, off + len) reads the pages it maps.
 * The oldest entry goes when the table is full.
 */
static void note_fdmap(struct aw_tproc *p, int32_t fd, uint64_t addr, uint64_t len, uint64_t off)
{
	if (p->nr_fdmaps == AW_TPROC_FDMAPS) {
		memmove(&p->fdmaps[0], &p->fdmaps[1], (AW_TPROC_FDMAPS - 1) * sizeof(p->fdmaps[0]));
		p->nr_fdmaps--;
	}
	p->fdmaps[p->nr_fdmaps].fd = fd;
	p->fdmaps[p->nr_fdmaps].addr = addr & ~4095ULL;
	p->fdmaps[p->nr_fdmaps].len = (len + 4095) & ~4095ULL;
	p->fdmaps[p->nr_fdmaps].off = off & ~4095ULL;
	p->nr_fdmaps++;
}

/*
 * sys_enter_pread64/pwrite64 (fd, count, pos): a read or write of the file
 * range [pos, pos + count) becomes a pread/pwrite of the pages a mapping
 * of that descriptor shows (the newest that covers pos; the part beyond it
 * is cut).  A descriptor the trace never saw mapped names no page the
 * model knows: the call is counted skipped (docs/model-notes.md, "File
 * descriptors").
 */
int aw_on_fdio(const struct aw_tctx *c)
{
	struct aw_tproc *p = aw_ing_proc(c->in, c->tid, NULL, c->cpu);
	int32_t fd = (int32_t)aw_tf32(c, 0);
	uint64_t count = aw_tf(c, 1), pos = aw_tf(c, 2);

	if (!p || !count)
		return 0;
	for (int i = p->nr_fdmaps - 1; i >= 0; i--) {
		struct aw_event ev = { .kind = AW_EV_FDIO, .pid = p->id, .repeat = 1 };
		uint64_t off = p->fdmaps[i].off, len = p->fdmaps[i].len;

		if (p->fdmaps[i].fd != fd || pos < off || pos - off >= len)
			continue;
		ev.flags = c->t == AW_TEV_PWRITE ? AW_ACC_WRITE : 0;
		ev.addr = p->fdmaps[i].addr + (pos - off);
		ev.len = count < len - (pos - off) ? count : len - (pos - off);
		return aw_ing_emit(c->in, &ev);
	}
	aw_trace_skipped(c->in->st, c->t == AW_TEV_PWRITE ? "pwrite64 of an unmapped file" :
							    "pread64 of an unmapped file");
	return 0;
}

/* sys_enter_close: the descriptor no longer names the file its mappings came from. */
int aw_on_close(const struct aw_tctx *c)
{
	struct aw_tproc *p = aw_ing_proc(c->in, c->tid, NULL, c->cpu);

	if (p)
		drop_fdmaps(p, (int32_t)aw_tf32(c, 0));
	return 0;
}

/* sys_exit_brk: the new break; the heap grew or shrank by the difference (do_brk_flags(), do_vmi_munmap()). */
int aw_on_brk(const struct aw_tctx *c)
{
	struct aw_tproc *p = aw_ing_proc(c->in, c->tid, NULL, c->cpu);
	uint64_t nb = (uint64_t)aw_tf_ret(c, 0) & ~4095ULL, old;

	if (!p || nb >= (1ULL << 47))
		return 0;
	old = p->brk;
	p->brk = nb;
	if (!old || nb == old)
		return 0;	/* the first sight only tells where the break is */
	if (nb > old)
		return aw_ing_mmap(c->in, p, old, nb - old, 3, 0, false);
	return aw_ing_munmap(c->in, p, nb, old - nb);
}

/* An address-range syscall: munmap, mremap, mprotect, madvise, mbind. */
int aw_on_range(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	struct aw_tproc *p = aw_ing_proc(in, c->tid, NULL, c->cpu);
	struct aw_event ev = { .addr = aw_tf(c, 0) & ~4095ULL, .len = aw_tf(c, 1) };
	int nid = in->cpu_node[c->cpu < AW_MAX_CPUS ? c->cpu : 0];

	if (!p)
		return 0;
	ev.pid = p->id;
	ev.len = (ev.len + 4095) & ~4095ULL;
	if (!ev.len || ev.addr >= (1ULL << 47) || ev.len > (1ULL << 47) - ev.addr || !ev.addr)
		return 0;
	switch (c->t) {
	case AW_TEV_MUNMAP:
		return aw_ing_munmap(in, p, ev.addr, ev.len);
	case AW_TEV_MREMAP:
		ev.kind = AW_EV_MREMAP;
		ev.stride = (aw_tf(c, 2) + 4095) & ~4095ULL;
		if (aw_tf32(c, 3) & 2)	/* MREMAP_FIXED */
			ev.addr2 = aw_tf(c, 4) & ~4095ULL;
		if (!ev.stride || ev.stride > (1ULL << 47) || ev.addr2 >= (1ULL << 47) ||
		    (ev.addr2 ? ev.addr2 : ev.addr) + ev.stride > (1ULL << 47))
			return 0;
		/*
		 * The ingester's picture follows: the old range goes, the new one
		 * is at the fixed address, or in place (sys_exit_mremap is not
		 * recorded, so a kernel-chosen move is assumed to grow in place,
		 * as the model also tries first).
		 */
		aw_ing_remap(in, p, ev.addr, ev.len, ev.addr2 ? ev.addr2 : ev.addr, ev.stride);
		break;
	case AW_TEV_MPROTECT:
		ev.kind = AW_EV_MPROTECT;
		ev.arg = aw_tf32(c, 2) & 7;
		break;
	case AW_TEV_MADVISE:
		ev.kind = AW_EV_MADVISE;
		ev.arg = (uint32_t)madv(aw_tf32(c, 2));
		if (!ev.arg) {
			aw_trace_skipped(in->st, "madvise (other advice)");
			return 0;
		}
		in->st->kh.madv_collapse += ev.arg == AW_MADV_COLLAPSE;
		break;
	default:	/* mbind: the node mask is a user pointer the event does not carry */
		ev.kind = AW_EV_MBIND;
		ev.arg = (aw_tf32(c, 2) & 0xffff) == 2 ? AW_MPOL_BIND :
			 (aw_tf32(c, 2) & 0xffff) == 1 ? AW_MPOL_PREFERRED : AW_MPOL_DEFAULT;
		ev.node = (uint16_t)nid;
		break;
	}
	return aw_ing_emit(in, &ev);
}

/* set_mempolicy(): the mode only; the node mask is a user pointer, the task's node stands in. */
int aw_on_set_mempolicy(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	struct aw_tproc *p = aw_ing_proc(in, c->tid, NULL, c->cpu);
	uint32_t mode = aw_tf32(c, 0) & 0xffff;
	struct aw_event ev = { .kind = AW_EV_SET_MEMPOLICY, .node = (uint16_t)in->cpu_node[c->cpu],
			       .arg = mode == 2 ? AW_MPOL_BIND : mode == 1 ? AW_MPOL_PREFERRED : 0 };

	if (!p)
		return 0;
	ev.pid = p->id;
	return aw_ing_emit(in, &ev);
}

/* prctl(PR_SET_THP_DISABLE, on, flags): arg3 may carry PR_THP_DISABLE_EXCEPT_ADVISED */
int aw_on_prctl(const struct aw_tctx *c)
{
	struct aw_tproc *p;
	struct aw_event ev = { .kind = AW_EV_PRCTL_THP };

	if (aw_tf32(c, 0) != 41 || !(p = aw_ing_proc(c->in, c->tid, NULL, c->cpu)))	/* PR_SET_THP_DISABLE */
		return 0;
	ev.pid = p->id;
	ev.arg = !aw_tf(c, 1) ? AW_THP_ENABLE :
		 (aw_tf(c, 2) & 2) ? AW_THP_DISABLE_EXCEPT_ADVISED : AW_THP_DISABLE_COMPLETELY;
	return aw_ing_emit(c->in, &ev);
}
