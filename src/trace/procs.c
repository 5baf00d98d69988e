// SPDX-License-Identifier: GPL-2.0-only
/*
 * Traced processes and what they map, turned into agewalk events.
 *
 * The ingester keeps its own small picture of each process's mappings so
 * it can tell when a fault lands outside anything the model knows (memory
 * mapped before the recording started, with no snapshot): it then maps an
 * implicit anonymous 2 MiB chunk there, counted and reported, rather than
 * let the model drop the fault.
 */
#include <stdlib.h>
#include <string.h>

#include "first_above.h"
#include "ingest.h"

#define MB2	(2ULL << 20)
#define USER_TOP	(1ULL << 47)

/* ---- tid map -------------------------------------------------------------- */

static uint32_t tid_hash(uint32_t key, uint32_t cap)
{
	return (key * 2654435761U) & (cap - 1);
}

int aw_tidmap_get(const struct aw_tidmap *m, uint32_t key, int32_t *val)
{
	if (!m->cap)
		return -1;
	for (uint32_t i = tid_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->val[i] == INT32_MIN)
			return -1;
		if (m->key[i] == key && m->val[i] != INT32_MIN + 1) {
			*val = m->val[i];
			return 0;
		}
	}
}

int aw_tidmap_put(struct aw_tidmap *m, uint32_t key, int32_t val)
{
	if ((m->nr + 1) * 2 > m->cap) {
		struct aw_tidmap big = { .cap = m->cap ? m->cap * 2 : 1024 };

		big.key = calloc(big.cap, sizeof(*big.key));
		big.val = malloc(big.cap * sizeof(*big.val));
		if (!big.key || !big.val) {
			free(big.key);
			free(big.val);
			return -1;
		}
		for (uint32_t i = 0; i < big.cap; i++)
			big.val[i] = INT32_MIN;
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->val[i] != INT32_MIN && m->val[i] != INT32_MIN + 1)
				aw_tidmap_put(&big, m->key[i], m->val[i]);
		free(m->key);
		free(m->val);
		*m = big;
	}
	for (uint32_t i = tid_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->val[i] == INT32_MIN || m->val[i] == INT32_MIN + 1 || m->key[i] == key) {
			if (m->val[i] == INT32_MIN)
				m->nr++;
			m->key[i] = key;
			m->val[i] = val;
			return 0;
		}
	}
}

void aw_tidmap_del(struct aw_tidmap *m, uint32_t key)
{
	if (!m->cap)
		return;
	for (uint32_t i = tid_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->val[i] == INT32_MIN)
			return;
		if (m->key[i] == key && m->val[i] != INT32_MIN + 1) {
			m->val[i] = INT32_MIN + 1;	/* tombstone */
			return;
		}
	}
}

void aw_tidmap_free(struct aw_tidmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

/* ---- emitting -------------------------------------------------------------- */

static int emit_time(struct aw_ingest *in)
{
	struct aw_event ev = { .kind = AW_EV_TIME };

	if (in->now <= in->model_time)
		return 0;
	ev.len = in->now - in->model_time;
	in->model_time = in->now;
	return aw_ing_emit(in, &ev);
}

static int name_proc(struct aw_ingest *in, uint32_t id, const char *comm, uint32_t tgid)
{
	struct aw_scenario *sc = in->sc;

	/* id has room: new_proc() grows the names with its own table, by doubling */
	if ((int)id > sc->nr_procs) {
		memset(sc->proc_name + sc->nr_procs, 0, (id - sc->nr_procs) * sizeof(*sc->proc_name));
		sc->nr_procs = (int)id;
	}
	/* a name the .aws writer accepts: letters, digits, '_', '.', '-' */
	snprintf(sc->proc_name[id - 1], AW_MAX_NAME, "%.20s-%u", comm && *comm ? comm : "task", tgid);
	for (char *c = sc->proc_name[id - 1]; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '.' || *c == '-'))
			*c = '_';
	if (sc->proc_name[id - 1][0] >= '0' && sc->proc_name[id - 1][0] <= '9')
		sc->proc_name[id - 1][0] = '_';
	return 0;
}

static struct aw_tproc *new_proc(struct aw_ingest *in, uint32_t tid, uint32_t tgid, const char *comm, int cpu)
{
	struct aw_tproc *p;

	if (in->nr_procs == in->cap_procs) {
		uint32_t cap = in->cap_procs ? in->cap_procs * 2 : 64;
		struct aw_tproc *a = realloc(in->procs, cap * sizeof(*a));
		char (*names)[AW_MAX_NAME];

		if (!a)
			return NULL;
		in->procs = a;
		/*
		 * The scenario's process names, one per process (name_proc()),
		 * grow with it: a build's recording names thousands of
		 * processes, and growing them one name at a time copied the
		 * whole table each time (a sixth of agewalk-build.dat's page
		 * faults).
		 */
		names = realloc(in->sc->proc_name, cap * sizeof(*names));
		if (!names)
			return NULL;
		in->sc->proc_name = names;
		in->cap_procs = cap;
	}
	p = &in->procs[in->nr_procs];
	memset(p, 0, sizeof(*p));
	p->id = in->nr_procs + 1;
	p->tgid = tgid;
	p->tasks = 1;
	p->cpu = cpu;
	p->alive = true;
	p->kept = aw_ing_matches(in, tgid, comm);
	if (name_proc(in, p->id, comm, tgid) || aw_tidmap_put(&in->tids, tid, (int32_t)in->nr_procs))
		return NULL;
	in->nr_procs++;
	in->st->processes++;
	return p;
}

struct aw_tproc *aw_ing_known(struct aw_ingest *in, uint32_t tid)
{
	int32_t idx;

	if (aw_tidmap_get(&in->tids, tid, &idx))
		return NULL;
	return in->procs[idx].alive ? &in->procs[idx] : NULL;
}

/*
 * The process of tid, created on first sight when the recording started
 * after it: a thread of a known tgid (saved_tgids) joins that process;
 * anything else becomes a new process, seeded from its snapshot if any.
 */
struct aw_tproc *aw_ing_proc(struct aw_ingest *in, uint32_t tid, const char *comm, int cpu)
{
	struct aw_tproc *p = aw_ing_known(in, tid);
	int32_t tgid;
	struct aw_event ev = { .kind = AW_EV_PROC, .flags = AW_PROC_NOLAYOUT };

	if (p || tid == 0)
		return p;
	if (!comm)
		comm = aw_ing_cur_comm(in);
	if (!aw_tidmap_get(&in->tgids, tid, &tgid) && (uint32_t)tgid != tid &&
	    (p = aw_ing_known(in, (uint32_t)tgid))) {
		p->tasks++;
		if (aw_tidmap_put(&in->tids, tid, (int32_t)(p - in->procs)))
			return NULL;
		return p;
	}
	p = new_proc(in, tid, aw_tidmap_get(&in->tgids, tid, &tgid) ? tid : (uint32_t)tgid, comm, cpu);
	if (!p)
		return NULL;
	aw_side_cgroup(in, p);
	p->kept |= aw_ing_cgroup_matches(in, p->cgroup);
	ev.pid = p->id;
	ev.cpu = (uint16_t)cpu;
	ev.memcg = in->o->memory_limit ? 1 : 0;
	if (aw_ing_emit(in, &ev))
		return NULL;
	aw_side_snapshot(in, p);
	return p;
}

/* ---- mappings ---------------------------------------------------------------- */

/*
 * What a process has mapped, as the model will have it: ranges sorted by
 * address, none overlapping and none empty (every add follows the removal
 * of its range, and an mmap or mremap length is whole pages, above 0), so
 * a fault's lookup is a binary search.  A build's processes map hundreds
 * of ranges; an unsorted list took a scan per fault and per unmap.
 */

/* The first range that ends above addr: the one holding addr, or the next one; nr_vmas if none. */
static int vma_first_above(const struct aw_tproc *p, uint64_t addr)
{
	/* no ranges: no array either */
	return p->nr_vmas ? aw_first_above(&p->vmas[0].end, sizeof(*p->vmas), p->nr_vmas, addr) : 0;
}

/* Insert [start, end), which overlaps no range, in address order. */
static int vma_add(struct aw_tproc *p, uint64_t start, uint64_t end)
{
	int at;

	if (p->nr_vmas == p->cap_vmas) {
		int cap = p->cap_vmas ? p->cap_vmas * 2 : 16;
		void *a = realloc(p->vmas, cap * sizeof(*p->vmas));

		if (!a)
			return -1;
		p->vmas = a;
		p->cap_vmas = cap;
	}
	at = vma_first_above(p, start);
	memmove(&p->vmas[at + 1], &p->vmas[at], (size_t)(p->nr_vmas - at) * sizeof(*p->vmas));
	p->vmas[at].start = start;
	p->vmas[at].end = end;
	p->nr_vmas++;
	return 0;
}

static void vma_remove(struct aw_tproc *p, uint64_t start, uint64_t end)
{
	int i = vma_first_above(p, start), gone = i;

	if (start > end)
		return;
	/*
	 * a hole in the middle of one range: split it (an empty hole, mremap's
	 * old length 0, splits the range there, as the unsorted list did)
	 */
	if (i < p->nr_vmas && p->vmas[i].start < start && p->vmas[i].end > end) {
		uint64_t e = p->vmas[i].end;

		p->vmas[i].end = start;
		vma_add(p, end, e);
		return;
	}
	if (i < p->nr_vmas && p->vmas[i].start < start) {
		p->vmas[i].end = start;
		gone = ++i;
	}
	while (i < p->nr_vmas && p->vmas[i].end <= end)
		i++;
	if (i < p->nr_vmas && p->vmas[i].start < end)
		p->vmas[i].start = end;
	/* [gone, i) lay wholly inside the range (none: no move, and a process with no vma has no array) */
	if (i == gone)
		return;
	memmove(&p->vmas[gone], &p->vmas[i], (size_t)(p->nr_vmas - i) * sizeof(*p->vmas));
	p->nr_vmas -= i - gone;
}

/*
 * vma_first_above() for a fault: its last answer, or a neighbour of it,
 * before the search (first_above.h; the model's aw_vma_index() does the
 * same), and the answer remembered for the next.
 */
static int vma_first_above_hinted(struct aw_tproc *p, uint64_t addr)
{
	int h = p->nr_vmas ? aw_first_above_hinted(&p->vmas[0].end, sizeof(*p->vmas), p->nr_vmas,
						   p->vma_hint, addr) : 0;

	if (h < p->nr_vmas)
		p->vma_hint = h;
	return h;
}

static bool vma_covers(struct aw_tproc *p, uint64_t addr)
{
	int i = vma_first_above_hinted(p, addr);

	return i < p->nr_vmas && p->vmas[i].start <= addr;
}

int aw_ing_mmap(struct aw_ingest *in, struct aw_tproc *p, uint64_t addr, uint64_t len, uint32_t prot,
		uint32_t flags, bool file)
{
	struct aw_event ev = { .kind = AW_EV_MMAP, .pid = p->id, .arg = prot & 7, .flags = (uint8_t)flags };

	addr &= ~4095ULL;
	len = (len + 4095) & ~4095ULL;
	if (!len || addr >= USER_TOP || len > USER_TOP - addr || !addr)
		return 0;
	if (file)
		ev.flags |= AW_MAP_FILE;
	ev.len = len;
	ev.addr2 = addr;
	vma_remove(p, addr, addr + len);	/* MAP_FIXED semantics: replaces */
	if (vma_add(p, addr, addr + len))
		return -1;
	return aw_ing_emit(in, &ev);
}

int aw_ing_munmap(struct aw_ingest *in, struct aw_tproc *p, uint64_t addr, uint64_t len)
{
	struct aw_event ev = { .kind = AW_EV_MUNMAP, .pid = p->id };

	addr &= ~4095ULL;
	len = (len + 4095) & ~4095ULL;
	if (!len || addr >= USER_TOP || len > USER_TOP - addr)
		return 0;
	ev.addr = addr;
	ev.len = len;
	vma_remove(p, addr, addr + len);
	return aw_ing_emit(in, &ev);
}

void aw_ing_remap(struct aw_ingest *in, struct aw_tproc *p, uint64_t old, uint64_t old_len,
		  uint64_t new_addr, uint64_t new_len)
{
	(void)in;
	vma_remove(p, old, old + old_len);
	vma_remove(p, new_addr, new_addr + new_len);
	vma_add(p, new_addr, new_addr + new_len);
}

/* ---- lifetimes --------------------------------------------------------------- */

int aw_ing_fork(struct aw_ingest *in, uint32_t parent, uint32_t child, uint64_t clone_flags,
		const char *comm, int cpu)
{
	struct aw_tproc *pp = aw_ing_proc(in, parent, comm, cpu), *cp;
	struct aw_event ev = { .pid = 0 };
	size_t pidx;

	if (!pp)
		return 0;
	pidx = (size_t)(pp - in->procs);
	if (clone_flags & 0x10000) {	/* CLONE_THREAD: same process, same mm */
		pp->tasks++;
		return aw_tidmap_put(&in->tids, child, (int32_t)pidx);
	}
	cp = new_proc(in, child, child, comm, cpu);
	if (!cp)
		return -1;
	pp = &in->procs[pidx];		/* new_proc() may have moved the array */
	memcpy(cp->cgroup, pp->cgroup, sizeof(cp->cgroup));	/* fork stays in the parent's cgroup */
	cp->kept |= pp->kept;		/* a kept process's children are kept */
	if (cp->kept && !pp->kept)
		return aw_ing_enter(in, cp, cpu);
	/* CLONE_VM without CLONE_THREAD (vfork, posix_spawn): shares the mm until exec */
	ev.kind = (clone_flags & 0x100) ? AW_EV_VFORK : AW_EV_FORK;
	ev.pid = pp->id;
	ev.pid2 = cp->id;
	cp->brk = pp->brk;
	cp->cpu = cpu;
	if (!(clone_flags & 0x100)) {
		for (int i = 0; i < pp->nr_vmas; i++)
			if (vma_add(cp, pp->vmas[i].start, pp->vmas[i].end))
				return -1;
	}
	return aw_ing_emit(in, &ev);
}

int aw_ing_exec(struct aw_ingest *in, uint32_t tid, const char *comm, int cpu)
{
	struct aw_tproc *p = aw_ing_proc(in, tid, comm, cpu);
	struct aw_event ev = { .kind = AW_EV_EXEC };

	if (!p)
		return 0;
	p->nr_vmas = 0;	/* a fresh mm: the model gives it its default layout */
	p->brk = 0;
	name_proc(in, p->id, comm, p->tgid);
	if (!p->kept && aw_ing_matches(in, p->tgid, comm) && aw_ing_enter(in, p, cpu))
		return -1;
	ev.pid = p->id;
	if (aw_ing_emit(in, &ev))
		return -1;
	/* the layout the model maps at exec is known to it */
	vma_add(p, 0x555555554000ULL, 0x555555574000ULL);
	vma_add(p, 0x555555600000ULL, 0x555555621000ULL);
	vma_add(p, 0x7f8000000000ULL, 0x7f8000200000ULL);
	vma_add(p, 0x7ffffffde000ULL, 0x7ffffffff000ULL);
	return 0;
}

int aw_ing_exit(struct aw_ingest *in, uint32_t tid, bool group_dead)
{
	struct aw_tproc *p = aw_ing_known(in, tid);
	struct aw_event ev = { .kind = AW_EV_EXIT };

	if (!p)
		return 0;
	aw_tidmap_del(&in->tids, tid);
	if (--p->tasks > 0 && !group_dead)
		return 0;
	p->alive = false;
	free(p->vmas);
	free(p->faults);
	free(p->damon);
	p->vmas = NULL;
	p->faults = NULL;
	p->damon = NULL;
	p->nr_vmas = p->nr_faults = p->nr_damon = 0;
	ev.pid = p->id;
	return aw_ing_emit(in, &ev);
}

int aw_ing_run(struct aw_ingest *in, uint32_t tid, int cpu)
{
	struct aw_tproc *p = aw_ing_proc(in, tid, NULL, cpu);
	struct aw_event ev = { .kind = AW_EV_RUN };

	if (!p)
		return 0;
	/*
	 * lru_gen_use_mm() sets every node bit; a second switch before the
	 * next aging pass changes nothing, so only the first is emitted.
	 */
	if (p->ran && p->cpu == cpu)
		return 0;
	p->ran = true;
	p->ran_nodes = 0xff;
	p->cpu = cpu;
	ev.pid = p->id;
	ev.cpu = (uint16_t)cpu;
	return aw_ing_emit(in, &ev);
}

static int remember_fault(struct aw_tproc *p, uint64_t page, uint64_t ts)
{
	if (p->nr_faults == p->cap_faults) {
		int cap = p->cap_faults ? p->cap_faults * 2 : 256;
		void *a = realloc(p->faults, cap * sizeof(*p->faults));

		if (!a)
			return -1;
		p->faults = a;
		p->cap_faults = cap;
	}
	p->faults[p->nr_faults].page = page;
	p->faults[p->nr_faults].ts = ts;
	p->nr_faults++;
	return 0;
}

int aw_ing_fault(struct aw_ingest *in, uint32_t tid, uint64_t addr, bool write, int cpu)
{
	struct aw_tproc *p = aw_ing_proc(in, tid, NULL, cpu);
	struct aw_event ev = { .kind = AW_EV_ACCESS, .repeat = 1, .len = 4096 };
	uint64_t page = addr & ~4095ULL;

	if (!p || addr >= USER_TOP || addr < 4096)
		return 0;
	if (!vma_covers(p, page)) {
		/* mapped before the recording started and no snapshot said so */
		uint64_t s = page & ~(MB2 - 1), e = s + MB2;

		for (int i = 0; i < p->nr_vmas; i++) {
			if (p->vmas[i].end <= page && p->vmas[i].end > s)
				s = p->vmas[i].end;
			if (p->vmas[i].start > page && p->vmas[i].start < e)
				e = p->vmas[i].start;
		}
		if (aw_ing_mmap(in, p, s, e - s, 3, 0, false))
			return -1;
		in->st->implicit_vmas++;
	}
	ev.pid = p->id;
	ev.addr = page;
	ev.cpu = (uint16_t)cpu;
	ev.flags = write ? AW_ACC_WRITE : 0;
	p->cpu = cpu;
	p->ran = true;	/* faulting means running */
	p->ran_nodes = 0xff;
	if (in->o->access != AW_ACCESS_FAULTS_ONLY && remember_fault(p, page, in->now))
		return -1;
	return aw_ing_emit(in, &ev);
}

/* ---- synthesized aging and the access policy ------------------------------------ */

static int cmp_page(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Re-touch what the policy says stays hot: pages faulted within the window
 * (recent-faults) or every page faulted and still mapped (all-resident),
 * coalesced into ranges, as reads from the CPU the process last ran on.
 */
static int retouch(struct aw_ingest *in, struct aw_tproc *p)
{
	uint64_t *pages;
	int n = 0, kept = 0;

	if (!p->alive || !p->nr_faults)
		return 0;
	pages = malloc(p->nr_faults * sizeof(*pages));
	if (!pages)
		return -1;
	for (int i = 0; i < p->nr_faults; i++) {
		bool keep = in->o->access == AW_ACCESS_ALL_RESIDENT ? vma_covers(p, p->faults[i].page) :
			    p->faults[i].ts + in->o->window_ns >= in->now;

		if (!keep)
			continue;
		p->faults[kept++] = p->faults[i];
		pages[n++] = p->faults[i].page;
	}
	p->nr_faults = kept;
	qsort(pages, n, sizeof(*pages), cmp_page);
	for (int i = 0; i < n;) {
		int j = i + 1;
		struct aw_event ev = { .kind = AW_EV_ACCESS, .pid = p->id, .repeat = 1,
				       .cpu = (uint16_t)p->cpu };

		while (j < n && pages[j] <= pages[j - 1] + 4096)
			j++;
		ev.addr = pages[i];
		ev.len = pages[j - 1] + 4096 - pages[i];
		if (aw_ing_emit(in, &ev)) {
			free(pages);
			return -1;
		}
		i = j;
	}
	free(pages);
	return 0;
}

/*
 * damon:damon_aggregated: DAMON saw [start, end) of a target accessed in
 * nr_accesses sampling intervals.  Accessed regions are remembered and
 * read, resident pages only, just before the next aging pass: what DAMON
 * measured, without inventing faults for memory it never populated.
 */
int aw_ing_damon(struct aw_ingest *in, uint32_t pid, uint64_t start, uint64_t end, uint32_t nr_accesses,
		 int cpu)
{
	struct aw_tproc *p = aw_ing_known(in, pid);

	(void)cpu;
	if (!p || !nr_accesses || end <= start || end > USER_TOP)
		return 0;
	if (p->nr_damon == p->cap_damon) {
		int cap = p->cap_damon ? p->cap_damon * 2 : 32;
		void *a = realloc(p->damon, cap * sizeof(*p->damon));

		if (!a)
			return -1;
		p->damon = a;
		p->cap_damon = cap;
	}
	p->damon[p->nr_damon].start = start & ~4095ULL;
	p->damon[p->nr_damon].end = (end + 4095) & ~4095ULL;
	p->nr_damon++;
	return 0;
}

static int damon_retouch(struct aw_ingest *in, struct aw_tproc *p)
{
	for (int i = 0; i < p->nr_damon; i++) {
		struct aw_event ev = { .kind = AW_EV_ACCESS, .pid = p->id, .repeat = 1,
				       .cpu = (uint16_t)p->cpu, .flags = AW_ACC_RESIDENT };

		ev.addr = p->damon[i].start;
		ev.len = p->damon[i].end - p->damon[i].start;
		if (aw_ing_emit(in, &ev))
			return -1;
	}
	p->nr_damon = 0;
	return 0;
}

/* One aging pass on every node (or one), after the policy's re-touches. */
int aw_ing_aging(struct aw_ingest *in, int only_node, bool force)
{
	struct aw_event ev = { .kind = AW_EV_AGE, .swappiness = AW_SWAPPINESS_DEFAULT };

	if (emit_time(in))
		return -1;
	if (in->o->access != AW_ACCESS_FAULTS_ONLY)
		for (uint32_t i = 0; i < in->nr_procs; i++)
			if (retouch(in, &in->procs[i]))
				return -1;
	for (uint32_t i = 0; i < in->nr_procs; i++)
		if (in->procs[i].alive && damon_retouch(in, &in->procs[i]))
			return -1;
	ev.memcg = in->o->memory_limit ? 1 : 0;
	for (int n = 0; n < in->sc->cfg.nr_nodes; n++) {
		if (only_node >= 0 && n != only_node)
			continue;
		ev.node = (uint16_t)n;
		/* the trace lost events since this node's last pass: the report marks this one */
		ev.flags = (force ? AW_AGE_FORCE : 0) | (in->lost_since_pass[n] ? AW_AGE_LOST : 0);
		in->lost_since_pass[n] = false;
		if (aw_ing_emit(in, &ev))
			return -1;
	}
	for (uint32_t i = 0; i < in->nr_procs; i++) {
		in->procs[i].ran = false;
		if (only_node >= 0)
			in->procs[i].ran_nodes &= ~(1U << only_node);
		else
			in->procs[i].ran_nodes = 0;
	}
	in->passes++;
	return 0;
}

/*
 * khugepaged wake-ups (recorded or synthesized) at the current trace time:
 * each scans the model's pages_to_scan knob, as the recording machine's did.
 */
int aw_ing_khugepaged(struct aw_ingest *in, uint32_t repeat)
{
	struct aw_event ev = { .kind = AW_EV_KHUGEPAGED, .repeat = repeat };

	if (!repeat)
		return 0;
	if (repeat > AW_KH_MAX_WAKEUPS)
		ev.repeat = AW_KH_MAX_WAKEUPS;
	if (emit_time(in))
		return -1;
	return aw_ing_emit(in, &ev);
}

/* /sys/kernel/mm/transparent_hugepage/khugepaged/<knob> as the recording machine had it */
int aw_ing_khugepaged_set(struct aw_ingest *in, int knob, uint64_t val)
{
	struct aw_event ev = { .kind = AW_EV_KHUGEPAGED, .arg = (uint32_t)knob, .len = val };

	return aw_ing_emit(in, &ev);
}

void aw_ing_free(struct aw_ingest *in)
{
	for (uint32_t i = 0; i < in->nr_procs; i++) {
		free(in->procs[i].vmas);
		free(in->procs[i].faults);
		free(in->procs[i].damon);
	}
	aw_tidmap_free(&in->damon_targets);
	free(in->procs);
	free(in->pend);
	aw_tidmap_free(&in->tids);
	aw_tidmap_free(&in->tgids);
	aw_tidmap_free(&in->pending);
}
