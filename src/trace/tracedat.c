// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a trace.dat with libtracecmd/libtraceevent: events and fields are
 * resolved by name once per file, records are dispatched by event id in
 * time order across CPUs (tracecmd_iterate_events), and every value is read
 * at its recorded width (tep_read_number_field), so 32-bit recordings work.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "ingest.h"
#include "source.h"

enum aw_tev {
	TEV_FAULT, TEV_MMAP_ENTER, TEV_MMAP_EXIT, TEV_MUNMAP, TEV_MREMAP, TEV_MPROTECT,
	TEV_BRK_ENTER, TEV_BRK_EXIT, TEV_MADVISE, TEV_MBIND, TEV_SET_MEMPOLICY, TEV_MOVE_PAGES,
	TEV_MIGRATE_PAGES, TEV_PRCTL, TEV_MM_MIGRATE, TEV_FORK, TEV_EXEC, TEV_EXIT, TEV_SWITCH,
	TEV_NEWTASK, TEV_LRU_GEN_WALK, TEV_DAMON, TEV_KH_SCAN_PMD, TEV_KH_COLLAPSE, TEV_KH_SWAPIN,
	TEV_KH_SCAN, TEV_NR
};

static const struct { const char *sys, *name; } tev_names[TEV_NR] = {
	[TEV_FAULT] = { "exceptions", "page_fault_user" },
	[TEV_MMAP_ENTER] = { "syscalls", "sys_enter_mmap" },
	[TEV_MMAP_EXIT] = { "syscalls", "sys_exit_mmap" },
	[TEV_MUNMAP] = { "syscalls", "sys_enter_munmap" },
	[TEV_MREMAP] = { "syscalls", "sys_enter_mremap" },
	[TEV_MPROTECT] = { "syscalls", "sys_enter_mprotect" },
	[TEV_BRK_ENTER] = { "syscalls", "sys_enter_brk" },
	[TEV_BRK_EXIT] = { "syscalls", "sys_exit_brk" },
	[TEV_MADVISE] = { "syscalls", "sys_enter_madvise" },
	[TEV_MBIND] = { "syscalls", "sys_enter_mbind" },
	[TEV_SET_MEMPOLICY] = { "syscalls", "sys_enter_set_mempolicy" },
	[TEV_MOVE_PAGES] = { "syscalls", "sys_enter_move_pages" },
	[TEV_MIGRATE_PAGES] = { "syscalls", "sys_enter_migrate_pages" },
	[TEV_PRCTL] = { "syscalls", "sys_enter_prctl" },
	[TEV_MM_MIGRATE] = { "migrate", "mm_migrate_pages" },
	[TEV_FORK] = { "sched", "sched_process_fork" },
	[TEV_EXEC] = { "sched", "sched_process_exec" },
	[TEV_EXIT] = { "sched", "sched_process_exit" },
	[TEV_SWITCH] = { "sched", "sched_switch" },
	[TEV_NEWTASK] = { "task", "task_newtask" },
	[TEV_LRU_GEN_WALK] = { "vmscan", "mm_vmscan_lru_gen_walk" },
	[TEV_DAMON] = { "damon", "damon_aggregated" },
	[TEV_KH_SCAN_PMD] = { "huge_memory", "mm_khugepaged_scan_pmd" },
	[TEV_KH_COLLAPSE] = { "huge_memory", "mm_collapse_huge_page" },
	[TEV_KH_SWAPIN] = { "huge_memory", "mm_collapse_huge_page_swapin" },
	[TEV_KH_SCAN] = { "huge_memory", "mm_khugepaged_scan" },	/* the patched kernel's */
};

/* Field names per event, resolved once: index into the event's field table. */
#define TEV_MAX_FIELDS	6
static const char *const tev_fields[TEV_NR][TEV_MAX_FIELDS] = {
	[TEV_FAULT] = { "address", "error_code" },
	[TEV_MMAP_ENTER] = { "addr", "len", "prot", "flags", "fd" },
	[TEV_MMAP_EXIT] = { "ret" },
	[TEV_MUNMAP] = { "addr", "len" },
	[TEV_MREMAP] = { "addr", "old_len", "new_len", "flags", "new_addr" },
	[TEV_MPROTECT] = { "start", "len", "prot" },
	[TEV_BRK_ENTER] = { "brk" },
	[TEV_BRK_EXIT] = { "ret" },
	[TEV_MADVISE] = { "start", "len_in", "behavior" },
	[TEV_MBIND] = { "start", "len", "mode" },
	[TEV_SET_MEMPOLICY] = { "mode" },
	[TEV_PRCTL] = { "option", "arg2", "arg3" },
	[TEV_FORK] = { "pid", "child_pid" },
	[TEV_EXEC] = { "pid" },
	[TEV_EXIT] = { "pid", "group_dead" },
	[TEV_SWITCH] = { "next_pid" },
	[TEV_NEWTASK] = { "pid", "clone_flags" },
	[TEV_LRU_GEN_WALK] = { "nid", "seq", "leaf_total", "leaf_associated", "empty", "pud_skipped" },
	[TEV_DAMON] = { "target_id", "start", "end", "nr_accesses" },
	/* by name: older kernels have a "writable" field in between, later ones may add "order" */
	[TEV_KH_SCAN_PMD] = { "mm", "pfn", "referenced", "none_or_zero", "status", "unmapped" },
	[TEV_KH_COLLAPSE] = { "mm", "isolated", "status" },
	[TEV_KH_SWAPIN] = { "mm", "swapped_in", "referenced", "ret" },
	[TEV_KH_SCAN] = { "mm", "progress", "full_scan_finished" },
};

/*
 * A SCAN_* status as the kernel names it.  The enum's numbering changes
 * between kernels (pmd_null/pmd_none became no_pte_table, the patched one
 * inserts page_lazyfree), so the numbers are decoded with the
 * __print_symbolic() table of the file's own print fmt.
 */
#define KH_MAX_SYMS	64
struct kh_syms {
	int nr;
	struct { long long value; const char *str; } e[KH_MAX_SYMS];
};

/*
 * What one buffer's format says, resolved once per (re)open: the event
 * ids agewalk reads, their fields, the khugepaged status tables, and for
 * every event id of the file what it is to agewalk (-1: not ingested,
 * its entry in the skipped list once met).
 */
struct aw_tres {
	struct tep_handle *tep;
	uint64_t generation;			/* the buffer's (re)open it was resolved for */
	int id[TEV_NR];
	struct tep_format_field *field[TEV_NR][TEV_MAX_FIELDS];
	bool use_newtask;
	struct kh_syms status_syms[2];		/* scan_pmd, collapse */
	int max_id;
	int8_t *tev_of;				/* event id -> enum aw_tev, -1 */
	int16_t *skip_slot;			/* event id -> st->skipped index, -1 unknown, -2 none */
};

struct aw_reader {
	struct aw_ingest in;
	struct aw_tsource src;
	struct aw_tres *res;			/* the current record's buffer's */
	char *err;
	size_t errlen;
	uint64_t progress_at;
	double started;
};

void aw_trace_opts_default(struct aw_trace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->age_every_ns = 500000000ULL;
	o->swap_bytes = UINT64_MAX;
	o->access = AW_ACCESS_FAULTS_ONLY;
	o->window_ns = 2000000000ULL;
	o->thp = -1;
	o->kh_gap_ns = 1000000000ULL;
	o->kh_pid = -1;
	o->start_pct = o->end_pct = -1;
}

void aw_trace_stats_free(struct aw_trace_stats *st)
{
	free(st->kh.wakeup_progress);
	st->kh.wakeup_progress = NULL;
	st->kh.nr_wakeup_log = 0;
	free(st->recorded);
	st->recorded = NULL;
	st->nr_recorded = st->cap_recorded = 0;
}

const char *aw_access_policy_name(enum aw_access_policy p)
{
	static const char *const names[] = { "faults-only", "recent-faults", "all-resident" };

	return (unsigned int)p < 3 ? names[p] : "unknown";
}

/* Count a record not replayed under name; its slot in the list, -2 when the list is full. */
static int skipped(struct aw_trace_stats *st, const char *name)
{
	for (int i = 0; i < st->nr_skipped; i++) {
		if (!strcmp(st->skipped[i].name, name)) {
			st->skipped[i].count++;
			return i;
		}
	}
	if (st->nr_skipped < AW_TRACE_MAX_SKIPPED) {
		snprintf(st->skipped[st->nr_skipped].name, sizeof(st->skipped[0].name), "%s", name);
		st->skipped[st->nr_skipped].count = 1;
		return st->nr_skipped++;
	}
	return -2;
}

/* A field of the record, 0 if the event lacks it; syscall ints masked to 32 bits. */
static uint64_t fld(struct aw_reader *r, int tev, int i, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!r->res->field[tev][i] || tep_read_number_field(r->res->field[tev][i], rec->data, &v))
		return 0;
	return v;
}

/* A syscall return value, sign-extended from its recorded width (4 on 32-bit). */
static int64_t fld_ret(struct aw_reader *r, int tev, int i, struct tep_record *rec)
{
	uint64_t v = fld(r, tev, i, rec);

	if (r->res->field[tev][i] && r->res->field[tev][i]->size == 4)
		return (int32_t)(uint32_t)v;
	return (int64_t)v;
}

static uint32_t fld32(struct aw_reader *r, int tev, int i, struct tep_record *rec)
{
	return (uint32_t)(fld(r, tev, i, rec) & 0xffffffffULL);
}

static const char *comm_of(struct aw_reader *r, struct tep_record *rec, int pid)
{
	(void)rec;
	return tep_data_comm_from_pid(r->res->tep, pid);
}

/* The symbols of the first __print_symbolic(REC->status, ...) in the event's print fmt. */
static const struct tep_print_arg *find_symbolic(const struct tep_print_arg *a, const char *field, int depth)
{
	for (; a && depth < 8; a = a->next) {
		const struct tep_print_arg *f;

		switch (a->type) {
		case TEP_PRINT_SYMBOL:
			for (f = a->symbol.field; f && f->type == TEP_PRINT_TYPE; f = f->typecast.item)
				;
			if (f && f->type == TEP_PRINT_FIELD && f->field.name && !strcmp(f->field.name, field))
				return a;
			break;
		case TEP_PRINT_TYPE:
			if ((f = find_symbolic(a->typecast.item, field, depth + 1)))
				return f;
			break;
		default:
			break;
		}
	}
	return NULL;
}

static void kh_resolve_syms(struct aw_tres *res, int t, struct kh_syms *syms)
{
	struct tep_event *ev;
	const struct tep_print_arg *a;

	syms->nr = 0;
	if (res->id[t] < 0 || !(ev = tep_find_event(res->tep, res->id[t])))
		return;
	a = find_symbolic(ev->print_fmt.args, "status", 0);
	for (const struct tep_print_flag_sym *s = a ? a->symbol.symbols : NULL; s && syms->nr < KH_MAX_SYMS;
	     s = s->next) {
		char *end;
		long long v;

		if (!s->value || !s->str)
			continue;
		v = strtoll(s->value, &end, 0);
		if (end == s->value || *end)
			continue;	/* an enum name the kernel did not export as a number */
		syms->e[syms->nr].value = v;
		syms->e[syms->nr++].str = s->str;
	}
}

#define AW_TRES_MAX_ID	65535	/* ids above are looked up the slow way */

static void tres_free(struct aw_tres *res)
{
	if (!res)
		return;
	free(res->tev_of);
	free(res->skip_slot);
	free(res);
}

/*
 * A buffer's format, resolved by name once: event ids, fields, status
 * tables, and the id -> event table that makes each record one lookup.
 * What the file knows goes into the stats (any buffer of any file).
 */
static struct aw_tres *resolve(struct aw_reader *r, struct tep_handle *tep, struct aw_tres *res)
{
	int nr_events = tep_get_events_count(tep);
	struct aw_trace_stats *st = r->in.st;

	if (!res && !(res = calloc(1, sizeof(*res))))
		return NULL;
	free(res->tev_of);
	free(res->skip_slot);
	memset(res, 0, sizeof(*res));
	res->tep = tep;
	for (int i = 0; i < nr_events; i++) {
		const struct tep_event *ev = tep_get_event(tep, i);

		if (ev && ev->id > res->max_id && ev->id <= AW_TRES_MAX_ID)
			res->max_id = ev->id;
	}
	res->tev_of = malloc(res->max_id + 1);
	res->skip_slot = malloc((res->max_id + 1) * sizeof(*res->skip_slot));
	if (!res->tev_of || !res->skip_slot) {
		tres_free(res);
		return NULL;
	}
	memset(res->tev_of, -1, res->max_id + 1);
	for (int i = 0; i <= res->max_id; i++)
		res->skip_slot[i] = -1;
	for (int t = 0; t < TEV_NR; t++) {
		struct tep_event *ev = tep_find_event_by_name(tep, tev_names[t].sys, tev_names[t].name);

		res->id[t] = ev ? ev->id : -1;
		if (ev && ev->id >= 0 && ev->id <= res->max_id)
			res->tev_of[ev->id] = (int8_t)t;
		for (int i = 0; ev && i < TEV_MAX_FIELDS && tev_fields[t][i]; i++)
			res->field[t][i] = tep_find_field(ev, tev_fields[t][i]);
	}
	res->use_newtask = res->id[TEV_NEWTASK] >= 0;
	st->had_aging_events |= res->id[TEV_LRU_GEN_WALK] >= 0;
	st->kh.has_scan_pmd |= res->id[TEV_KH_SCAN_PMD] >= 0;
	st->kh.has_collapse |= res->id[TEV_KH_COLLAPSE] >= 0;
	st->kh.has_swapin |= res->id[TEV_KH_SWAPIN] >= 0;
	st->kh.has_scan |= res->id[TEV_KH_SCAN] >= 0;
	kh_resolve_syms(res, TEV_KH_SCAN_PMD, &res->status_syms[0]);
	kh_resolve_syms(res, TEV_KH_COLLAPSE, &res->status_syms[1]);
	return res;
}

static int lookup(const struct aw_tres *res, int id)
{
	if (id >= 0 && id <= res->max_id)
		return res->tev_of[id];
	for (int t = 0; t < TEV_NR; t++)
		if (res->id[t] == id)
			return t;
	return -1;
}

/* A record of an event agewalk does not replay: counted under its name, the name found once per id. */
static void skip_event(struct aw_reader *r, int id)
{
	struct aw_trace_stats *st = r->in.st;
	struct tep_event *ev;
	int slot;

	if (id >= 0 && id <= r->res->max_id && r->res->skip_slot[id] >= 0) {
		st->skipped[r->res->skip_slot[id]].count++;
		return;
	}
	ev = tep_find_event(r->res->tep, id);
	slot = skipped(st, ev ? ev->name : "unknown");
	if (id >= 0 && id <= r->res->max_id && slot >= 0)
		r->res->skip_slot[id] = (int16_t)slot;
}

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

static int pending_slot(struct aw_reader *r, uint32_t tid)
{
	struct aw_ingest *in = &r->in;
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

static int on_mmap(struct aw_reader *r, int t, uint32_t tid, int cpu, struct tep_record *rec)
{
	struct aw_ingest *in = &r->in;
	int slot = pending_slot(r, tid);
	struct aw_pending_mmap *pm;
	struct aw_tproc *p;
	int64_t ret;
	uint8_t flags = 0;

	if (slot < 0)
		return -1;
	pm = &in->pend[slot];
	if (t == TEV_MMAP_ENTER) {
		pm->addr = fld(r, t, 0, rec);
		pm->len = fld(r, t, 1, rec);
		pm->prot = fld32(r, t, 2, rec);
		pm->flags = fld32(r, t, 3, rec);
		pm->valid = true;
		return 0;
	}
	ret = fld_ret(r, t, 0, rec);
	if (!pm->valid || (ret < 0 && ret >= -4095) || !(p = aw_ing_proc(in, tid, NULL, cpu)))
		return pm->valid = false, 0;
	pm->valid = false;
	if (pm->flags & 0x2000)
		flags |= AW_MAP_LOCKED;
	if (pm->flags & 0x4000)
		flags |= AW_MAP_NORESERVE;
	if ((pm->flags & 0x0f) == 0x08)	/* MAP_DROPPABLE is a mapping type */
		flags |= AW_MAP_DROPPABLE;
	return aw_ing_mmap(in, p, (uint64_t)ret, pm->len, pm->prot, flags, !(pm->flags & 0x20));
}

static int on_brk(struct aw_reader *r, uint32_t tid, int cpu, struct tep_record *rec)
{
	struct aw_tproc *p = aw_ing_proc(&r->in, tid, NULL, cpu);
	uint64_t nb = (uint64_t)fld_ret(r, TEV_BRK_EXIT, 0, rec) & ~4095ULL, old;

	if (!p || nb >= (1ULL << 47))
		return 0;
	old = p->brk;
	p->brk = nb;
	if (!old || nb == old)
		return 0;	/* the first sight only tells where the break is */
	if (nb > old)
		return aw_ing_mmap(&r->in, p, old, nb - old, 3, 0, false);
	return aw_ing_munmap(&r->in, p, nb, old - nb);
}

/* An address-range syscall: munmap, mremap, mprotect, madvise, mbind. */
static int on_range(struct aw_reader *r, int t, uint32_t tid, int cpu, struct tep_record *rec)
{
	struct aw_ingest *in = &r->in;
	struct aw_tproc *p = aw_ing_proc(in, tid, NULL, cpu);
	struct aw_event ev = { .addr = fld(r, t, 0, rec) & ~4095ULL, .len = fld(r, t, 1, rec) };
	int nid = in->cpu_node[cpu < AW_MAX_CPUS ? cpu : 0];

	if (!p)
		return 0;
	ev.pid = p->id;
	ev.len = (ev.len + 4095) & ~4095ULL;
	if (!ev.len || ev.addr >= (1ULL << 47) || ev.len > (1ULL << 47) - ev.addr || !ev.addr)
		return 0;
	switch (t) {
	case TEV_MUNMAP:
		return aw_ing_munmap(in, p, ev.addr, ev.len);
	case TEV_MREMAP:
		ev.kind = AW_EV_MREMAP;
		ev.stride = (fld(r, t, 2, rec) + 4095) & ~4095ULL;
		if (fld32(r, t, 3, rec) & 2)	/* MREMAP_FIXED */
			ev.addr2 = fld(r, t, 4, rec) & ~4095ULL;
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
	case TEV_MPROTECT:
		ev.kind = AW_EV_MPROTECT;
		ev.arg = fld32(r, t, 2, rec) & 7;
		break;
	case TEV_MADVISE:
		ev.kind = AW_EV_MADVISE;
		ev.arg = (uint32_t)madv(fld32(r, t, 2, rec));
		if (!ev.arg) {
			skipped(in->st, "madvise (other advice)");
			return 0;
		}
		in->st->kh.madv_collapse += ev.arg == AW_MADV_COLLAPSE;
		break;
	default:	/* mbind: the node mask is a user pointer the event does not carry */
		ev.kind = AW_EV_MBIND;
		ev.arg = (fld32(r, t, 2, rec) & 0xffff) == 2 ? AW_MPOL_BIND :
			 (fld32(r, t, 2, rec) & 0xffff) == 1 ? AW_MPOL_PREFERRED : AW_MPOL_DEFAULT;
		ev.node = (uint16_t)nid;
		break;
	}
	return aw_ing_emit(in, &ev);
}

/*
 * The event carries no force flag.  A forced pass walks every mm on the
 * list, a normal one only those that ran since the node's last pass, so a
 * group with more walks than processes that ran was forced; the replayed
 * AGE event is marked so once the group is complete.
 */
static int close_group(struct aw_ingest *in, int nid)
{
	struct aw_recorded_pass *rp;

	if (!in->seen_walk[nid])
		return 0;
	rp = &in->st->recorded[in->group_index[nid]];
	rp->forced = rp->walks > rp->ran;
	return rp->forced ? aw_ing_group_forced(in, nid) : aw_ing_group_done(in, nid);
}

/* vmscan:mm_vmscan_lru_gen_walk: the kernel aged; replay one pass per (nid, seq). */
static int on_walk(struct aw_reader *r, struct tep_record *rec)
{
	struct aw_ingest *in = &r->in;
	struct aw_trace_stats *st = in->st;
	uint64_t nid = fld(r, TEV_LRU_GEN_WALK, 0, rec), seq = fld(r, TEV_LRU_GEN_WALK, 1, rec);
	struct aw_recorded_pass *rp;

	st->recorded_walks++;
	if (nid >= (uint64_t)in->sc->cfg.nr_nodes)
		return 0;
	if (!in->seen_walk[nid] || in->last_walk_seq[nid] != seq) {
		uint32_t ran = 0;

		if (close_group(in, (int)nid))
			return -1;
		if (st->nr_recorded == st->cap_recorded) {
			int cap = st->cap_recorded ? st->cap_recorded * 2 : 64;
			void *a = realloc(st->recorded, cap * sizeof(*st->recorded));

			if (!a)
				return -1;
			st->recorded = a;
			st->cap_recorded = cap;
		}
		for (uint32_t i = 0; i < in->nr_procs; i++)
			ran += in->procs[i].alive && (in->procs[i].ran_nodes >> nid & 1);
		rp = &st->recorded[st->nr_recorded];
		memset(rp, 0, sizeof(*rp));
		rp->nid = (uint32_t)nid;
		rp->seq = seq;
		rp->ran = ran;
		in->group_index[nid] = st->nr_recorded++;
		in->seen_walk[nid] = true;
		in->last_walk_seq[nid] = seq;
		/* aw_ing_aging() may emit re-touches first: its AGE opens the group */
		aw_ing_capture_age(in, (int)nid);
		if (aw_ing_aging(in, (int)nid, false))
			return -1;
	}
	rp = &st->recorded[in->group_index[nid]];
	/* more walks than processes that ran: forced, whatever follows */
	if (++rp->walks == rp->ran + 1 && aw_ing_group_forced(in, (int)nid))
		return -1;
	rp->leaf_total += fld(r, TEV_LRU_GEN_WALK, 2, rec);
	rp->leaf_associated += fld(r, TEV_LRU_GEN_WALK, 3, rec);
	rp->empty += fld(r, TEV_LRU_GEN_WALK, 4, rec) != 0;
	rp->pud_skipped += fld(r, TEV_LRU_GEN_WALK, 5, rec);
	return 0;
}

/* ---- khugepaged (huge_memory:*) ------------------------------------------------ */

/* A record of the khugepaged thread: --kh-pid, else comm "khugepaged"; mm_khugepaged_scan always. */
static bool is_khugepaged(struct aw_reader *r, uint32_t tid, int t)
{
	struct aw_recorded_kh *kh = &r->in.st->kh;

	if (r->in.o->kh_pid >= 0)
		return (int64_t)tid == r->in.o->kh_pid || t == TEV_KH_SCAN;
	if (kh->pid >= 0 && (int64_t)tid == kh->pid)
		return true;
	if (t == TEV_KH_SCAN || (aw_ing_cur_comm(&r->in) && !strcmp(aw_ing_cur_comm(&r->in), "khugepaged"))) {
		if (kh->pid < 0)
			kh->pid = tid;
		return true;
	}
	return false;
}

static const char *kh_status(struct aw_reader *r, int t, int i, struct tep_record *rec, char *buf, size_t len)
{
	const struct kh_syms *syms = &r->res->status_syms[t == TEV_KH_SCAN_PMD ? 0 : 1];
	long long v;

	if (!r->res->field[t][i])
		return "no_status_field";
	v = fld_ret(r, t, i, rec);
	for (int k = 0; k < syms->nr; k++)
		if (syms->e[k].value == v)
			return syms->e[k].str;
	snprintf(buf, len, "status_%lld", v);
	return buf;
}

static void count_status(struct aw_kh_status_count *tab, int *nr, const char *name)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(tab[i].name, name))
			break;
	if (i == *nr) {
		if (*nr == AW_KH_MAX_STATUS)
			return;		/* more distinct strings than any kernel has: a corrupt file */
		snprintf(tab[i].name, sizeof(tab[i].name), "%s", name);
		/* JSON keys and table labels: keep it printable, no quotes */
		for (char *c = tab[i].name; *c; c++)
			if (*c < 0x21 || *c > 0x7e || *c == '"' || *c == '\\')
				*c = '_';
		(*nr)++;
	}
	tab[i].count++;
}

/*
 * Wake-ups: khugepaged sleeps scan_sleep_millisecs (10 s) between scans
 * and a scan takes milliseconds, so its records come in bursts; a record
 * more than --kh-gap after the previous one starts a new wake-up, replayed
 * as one model wake-up at the time of its first record.
 */
static int kh_wakeup(struct aw_reader *r)
{
	struct aw_ingest *in = &r->in;
	struct aw_recorded_kh *kh = &in->st->kh;

	if (kh->wakeup_open && (in->now <= kh->wakeup_last_ts ||
				in->now - kh->wakeup_last_ts <= in->o->kh_gap_ns)) {
		kh->wakeup_last_ts = in->now > kh->wakeup_last_ts ? in->now : kh->wakeup_last_ts;
		return 0;
	}
	kh->wakeup_open = true;
	kh->wakeup_last_ts = in->now;
	kh->wakeups++;
	if (!kh->wakeup_progress)
		kh->wakeup_progress = calloc(AW_KH_MAX_WAKEUP_LOG, sizeof(*kh->wakeup_progress));
	if (kh->wakeup_progress && kh->nr_wakeup_log < AW_KH_MAX_WAKEUP_LOG)
		kh->nr_wakeup_log++;
	if (in->o->kh_every_ns)
		return 0;	/* the model's wake-ups are synthesized instead */
	kh->wakeups_emitted++;
	return aw_ing_khugepaged(in, 1);
}

static int on_kh(struct aw_reader *r, int t, uint32_t tid, struct tep_record *rec)
{
	struct aw_recorded_kh *kh = &r->in.st->kh;
	bool khd = is_khugepaged(r, tid, t);
	char buf[32];

	if (khd && kh_wakeup(r))
		return -1;
	switch (t) {
	case TEV_KH_SCAN_PMD:
		if (!khd) {
			kh->other_scan_pmd++;
			break;
		}
		kh->scan_pmd++;
		count_status(kh->scan_status, &kh->nr_scan_status, kh_status(r, t, 4, rec, buf, sizeof(buf)));
		break;
	case TEV_KH_COLLAPSE: {
		const char *s = kh_status(r, t, 2, rec, buf, sizeof(buf));
		bool ok = r->res->status_syms[1].nr ? !strcmp(s, "succeeded") : fld_ret(r, t, 2, rec) == 1;

		if (!khd) {
			kh->other_collapses++;
			kh->other_collapse_succeeded += ok;
			break;
		}
		kh->collapses++;
		kh->collapse_succeeded += ok;
		kh->collapse_failed += !ok;
		count_status(kh->collapse_status, &kh->nr_collapse_status, s);
		break;
	}
	case TEV_KH_SWAPIN:
		kh->swapin++;
		kh->swapped_in += (uint64_t)(fld_ret(r, t, 1, rec) > 0 ? fld_ret(r, t, 1, rec) : 0);
		break;
	default: {	/* mm_khugepaged_scan: one scan_mm_slot() call */
		uint64_t progress = fld(r, t, 1, rec);

		if (progress > UINT32_MAX)
			progress = 0;	/* an unsigned int in the kernel: a corrupt record */
		kh->scan++;
		kh->scan_progress += progress;
		kh->scan_full += fld(r, t, 2, rec) != 0;
		if (kh->wakeups && kh->wakeup_progress && kh->wakeups <= AW_KH_MAX_WAKEUP_LOG)
			kh->wakeup_progress[kh->wakeups - 1] += progress;
		break;
	}
	}
	return 0;
}

/* What the model must know before a --start window: processes and their mappings. */
static bool structural(int t)
{
	switch (t) {
	case TEV_MMAP_ENTER: case TEV_MMAP_EXIT: case TEV_BRK_ENTER: case TEV_BRK_EXIT:
	case TEV_MUNMAP: case TEV_MREMAP: case TEV_MPROTECT: case TEV_MADVISE: case TEV_MBIND:
	case TEV_SET_MEMPOLICY: case TEV_PRCTL: case TEV_NEWTASK: case TEV_FORK: case TEV_EXEC:
	case TEV_EXIT:
		return true;
	default:
		return false;
	}
}

static int dispatch(struct aw_reader *r, int t, struct tep_record *rec)
{
	struct aw_ingest *in = &r->in;
	uint32_t tid = (uint32_t)r->in.cur_pid;
	int cpu = rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0;

	switch (t) {
	case TEV_FAULT:
		return aw_ing_fault(in, tid, fld(r, t, 0, rec), fld(r, t, 1, rec) & 2, cpu);
	case TEV_MMAP_ENTER:
	case TEV_MMAP_EXIT:
		return on_mmap(r, t, tid, cpu, rec);
	case TEV_BRK_EXIT:
		return on_brk(r, tid, cpu, rec);
	case TEV_MUNMAP: case TEV_MREMAP: case TEV_MPROTECT: case TEV_MADVISE: case TEV_MBIND:
		return on_range(r, t, tid, cpu, rec);
	case TEV_SET_MEMPOLICY: {
		struct aw_tproc *p = aw_ing_proc(in, tid, NULL, cpu);
		uint32_t mode = fld32(r, t, 0, rec) & 0xffff;
		struct aw_event ev = { .kind = AW_EV_SET_MEMPOLICY, .node = (uint16_t)in->cpu_node[cpu],
				       .arg = mode == 2 ? AW_MPOL_BIND : mode == 1 ? AW_MPOL_PREFERRED : 0 };

		if (!p)
			return 0;
		ev.pid = p->id;
		return aw_ing_emit(in, &ev);
	}
	case TEV_PRCTL: {
		struct aw_tproc *p;
		struct aw_event ev = { .kind = AW_EV_PRCTL_THP };

		if (fld32(r, t, 0, rec) != 41 || !(p = aw_ing_proc(in, tid, NULL, cpu)))	/* PR_SET_THP_DISABLE */
			return 0;
		ev.pid = p->id;
		ev.arg = !fld(r, t, 1, rec) ? AW_THP_ENABLE :
			 (fld(r, t, 2, rec) & 2) ? AW_THP_DISABLE_EXCEPT_ADVISED : AW_THP_DISABLE_COMPLETELY;
		return aw_ing_emit(in, &ev);
	}
	case TEV_MOVE_PAGES: case TEV_MIGRATE_PAGES: case TEV_MM_MIGRATE:
		in->st->unreplayable_migrations++;
		return 0;
	case TEV_NEWTASK: {
		uint32_t child = (uint32_t)fld(r, t, 0, rec);

		return aw_ing_fork(in, tid, child, fld(r, t, 1, rec), comm_of(r, rec, (int)tid), cpu);
	}
	case TEV_FORK:
		if (r->res->use_newtask)
			return 0;	/* task_newtask carries the clone flags */
		return aw_ing_fork(in, (uint32_t)fld(r, t, 0, rec), (uint32_t)fld(r, t, 1, rec), 0,
				   comm_of(r, rec, (int)tid), cpu);
	case TEV_EXEC:
		return aw_ing_exec(in, (uint32_t)fld(r, t, 0, rec), comm_of(r, rec, (int)tid), cpu);
	case TEV_EXIT:
		return aw_ing_exit(in, (uint32_t)fld(r, t, 0, rec),
				   r->res->field[t][1] ? fld(r, t, 1, rec) != 0 : false);
	case TEV_SWITCH: {
		uint32_t next = (uint32_t)fld(r, t, 0, rec);

		return next ? aw_ing_run(in, next, cpu) : 0;
	}
	case TEV_LRU_GEN_WALK:
		return on_walk(r, rec);
	case TEV_KH_SCAN_PMD: case TEV_KH_COLLAPSE: case TEV_KH_SWAPIN: case TEV_KH_SCAN:
		return on_kh(r, t, tid, rec);
	case TEV_DAMON: {
		int32_t pid;

		/* DAMON names targets by index: OUT.damon_targets maps them to pids */
		if (aw_tidmap_get(&in->damon_targets, (uint32_t)fld(r, t, 0, rec), &pid)) {
			skipped(in->st, "damon_aggregated (no target map)");
			return 0;
		}
		in->st->damon_regions++;
		return aw_ing_damon(in, (uint32_t)pid, fld(r, t, 1, rec), fld(r, t, 2, rec),
				    fld32(r, t, 3, rec), cpu);
	}
	default:
		return 0;
	}
}

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* percent of the file, events/s, ETA: on a terminal only (--progress) */
static void progress(struct aw_reader *r, struct tep_record *rec, const struct aw_tbuf *buf)
{
	double now, frac, rate;

	if (!r->in.o->progress || r->in.st->events_read < r->progress_at)
		return;
	if (!r->started)
		r->started = wall();
	r->progress_at = r->in.st->events_read + 100000;
	now = wall() - r->started;
	frac = aw_tsource_progress(&r->src, rec, buf);
	rate = now > 0 ? r->in.st->events_read / now : 0;
	fprintf(stderr, "\ragewalk replay: %5.1f%%  %llu events  %.0f events/s  ETA %.0f s   ",
		100.0 * frac, (unsigned long long)r->in.st->events_read, rate,
		frac > 0.01 ? now * (1 - frac) / frac : 0.0);
}

/*
 * Events were lost on rec's CPU before rec (the ring buffer overran): a
 * count, or -1 when the buffer could not say.  The place is kept for the
 * report, and every node's next pass is marked as resting on a gap.
 */
static void note_lost(struct aw_ingest *in, const struct tep_record *rec)
{
	struct aw_trace_stats *st = in->st;
	int cpu = rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0;

	if (rec->missed_events > 0)
		st->lost_events += (uint64_t)rec->missed_events;
	if (st->nr_lost < AW_TRACE_MAX_LOST) {
		struct aw_lost_range *l = &st->lost[st->nr_lost++];

		l->cpu = rec->cpu;
		l->from_ns = in->cpu_last_ts[cpu];
		l->to_ns = in->now;
		l->events = rec->missed_events > 0 ? rec->missed_events : -1;
	}
	st->lost_places++;
	for (int n = 0; n < AW_MAX_NODES; n++)
		in->lost_since_pass[n] = true;
}

/*
 * One record, at replay timestamp ts (the file's own, or shifted to follow
 * the previous file).  Returns 0, 1 at the end of the window, -1 on error.
 */
static int on_record(struct aw_reader *r, struct tep_record *rec, const struct aw_tbuf *buf, uint64_t ts)
{
	struct aw_ingest *in = &r->in;
	int id = tep_data_type(r->res->tep, rec);
	int t = lookup(r->res, id);
	bool before;

	if (!in->st->events_read)
		in->st->first_ts = ts;
	/* --end: the window closes at the first record past it */
	if (in->st->window_end_ns && ts - in->st->first_ts >= in->st->window_end_ns)
		return 1;
	in->st->events_read++;
	if (ts > in->st->last_ts)
		in->st->last_ts = ts;
	in->now = ts - in->st->first_ts;
	if (rec->missed_events)
		note_lost(in, rec);
	in->cpu_last_ts[rec->cpu >= 0 && rec->cpu < AW_MAX_CPUS ? rec->cpu : 0] = in->now;
	before = in->now < in->st->window_start_ns;
	progress(r, rec, buf);
	/*
	 * Synthesized aging: one pass per period of trace time.  An idle gap
	 * longer than 64 periods (or a corrupt timestamp) gets 64 passes, not
	 * one per period: after that many every page is as old as it gets.
	 */
	if (!before && !in->st->had_aging_events && in->now >= in->next_age) {
		int catch_up = 0;

		while (in->now >= in->next_age && catch_up++ < 64) {
			bool force = in->o->force_every && (in->passes + 1) % in->o->force_every == 0;

			if (aw_ing_aging(in, -1, force)) {
				snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large",
					 in->o->path, (unsigned long long)in->st->events_read);
				return -1;
			}
			in->st->synthesized_passes++;
			in->next_age += in->o->age_every_ns;
		}
		if (in->now >= in->next_age)
			in->next_age = in->now - in->now % in->o->age_every_ns + in->o->age_every_ns;
	}
	/* --khugepaged-every: wake-ups every period of trace time, at most 64 for one gap */
	if (!before && in->o->kh_every_ns && in->now >= in->next_kh) {
		uint64_t periods = (in->now - in->next_kh) / in->o->kh_every_ns + 1;

		if (periods > 64)
			periods = 64;
		if (aw_ing_khugepaged(in, (uint32_t)periods)) {
			snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large",
				 in->o->path, (unsigned long long)in->st->events_read);
			return -1;
		}
		in->st->kh.synthesized_wakeups += periods;
		/* a corrupt timestamp near the end of time: no further wake-ups, not a wrap to 0 */
		in->next_kh = in->now - in->now % in->o->kh_every_ns > UINT64_MAX - in->o->kh_every_ns ?
			      UINT64_MAX : in->now - in->now % in->o->kh_every_ns + in->o->kh_every_ns;
	}
	if (t < 0) {
		skip_event(r, id);
		return 0;
	}
	/* before --start: who exists and what is mapped, nothing that touches or ages memory */
	if (before && !structural(t)) {
		in->st->events_before_start++;
		return 0;
	}
	in->st->events_used++;
	/* a task seen for the first time is named after its saved comm, looked up then */
	in->cur_pid = tep_data_pid(r->res->tep, rec);
	in->cur_comm_known = false;
	if (dispatch(r, t, rec)) {
		snprintf(r->err, r->errlen, "%s: event %llu: the converted stream is too large or out of memory",
			 in->o->path, (unsigned long long)in->st->events_read);
		return -1;
	}
	return 0;
}

/*
 * --start/--end as trace time from the first event.  A share of the
 * duration needs the duration: one pass over the records first, on a
 * source of its own.
 */
static int resolve_window(struct aw_reader *r, char *err, size_t errlen)
{
	const struct aw_trace_opts *o = r->in.o;
	struct aw_trace_stats *st = r->in.st;
	uint64_t first = 0, last = 0, ts, dur;
	bool seen = false;

	st->window_start_ns = o->start_ns;
	st->window_end_ns = o->end_ns;
	if (o->start_pct >= 0 || o->end_pct >= 0) {
		struct aw_tsource *span = calloc(1, sizeof(*span));
		struct tep_record *rec;
		struct aw_tbuf *buf;
		int got;

		if (!span || aw_tsource_open(span, o->paths, o->nr_paths, o->merge, o->guard, err, errlen)) {
			if (!span)
				snprintf(err, errlen, "%s: out of memory", o->path);
			free(span);
			return -1;
		}
		while ((got = aw_tsource_next(span, &rec, &buf, &ts, err, errlen)) > 0) {
			first = seen ? first : ts;
			last = ts > last ? ts : last;
			seen = true;
			aw_tsource_put(span, rec);
		}
		aw_tsource_close(span);
		free(span);
		if (got < 0)
			return -1;
		dur = last - first;
		if (o->start_pct >= 0)
			st->window_start_ns = (uint64_t)(dur * (o->start_pct / 100.0));
		/* the last record itself is inside a 100% window */
		if (o->end_pct >= 0)
			st->window_end_ns = o->end_pct >= 100 ? dur + 1 : (uint64_t)(dur * (o->end_pct / 100.0));
	}
	if (st->window_end_ns && st->window_end_ns <= st->window_start_ns) {
		snprintf(err, errlen, "%s: the window is empty: --end (%.6f s) is not after --start (%.6f s)",
			 o->path, st->window_end_ns / 1e9, st->window_start_ns / 1e9);
		return -1;
	}
	return 0;
}

static char *side_path(const char *trace, const char *suffix)
{
	size_t n = strlen(trace);
	char *p = malloc(n + strlen(suffix) + 1);

	if (!p)
		return NULL;
	memcpy(p, trace, n + 1);
	if (n > 4 && !strcmp(p + n - 4, ".dat"))
		p[n - 4] = 0;
	strcat(p, suffix);
	return p;
}

static int setup_topology(struct aw_reader *r, char *err, size_t errlen)
{
	struct aw_ingest *in = &r->in;
	const struct aw_trace_opts *o = in->o;
	struct aw_config *cfg = &in->sc->cfg;
	char *path = o->topology ? strdup(o->topology) : side_path(o->path, ".topology");
	int ret = 1;

	if (path && !o->nr_nodes)
		ret = aw_side_topology(in, path, err, errlen);
	if (ret < 0) {
		free(path);
		return -1;
	}
	if (ret == 0) {
		in->st->had_topology = true;
		snprintf(in->st->topology_source, sizeof(in->st->topology_source), "%s",
			 o->topology ? "--topology" : "side file");
	} else {
		/* --nodes N, or one node: CPUs spread evenly */
		int n = o->nr_nodes ? o->nr_nodes : 1;
		struct tep_handle *tep = r->src.files[0].bufs[0].tep;
		int cpus = tep && tep_get_cpus(tep) > 0 ? tep_get_cpus(tep) : 1;

		cfg->nr_nodes = n;
		for (int i = 0; i < n; i++) {
			cfg->node[i].mem_bytes = 16ULL << 30;
			cfg->node[i].cpu_mask = 0;
		}
		for (int c = 0; c < cpus && c < AW_MAX_CPUS; c++)
			cfg->node[c * n / cpus].cpu_mask |= 1ULL << c;
		snprintf(in->st->topology_source, sizeof(in->st->topology_source), "%s",
			 o->nr_nodes ? "--nodes" : "assumed: one node");
	}
	free(path);
	for (int c = 0; c < AW_MAX_CPUS; c++)
		for (int n = 0; n < cfg->nr_nodes; n++)
			if (cfg->node[n].cpu_mask >> c & 1)
				in->cpu_node[c] = n;
	/*
	 * Without swap the walk skips every anonymous VMA (swappiness 0), so a
	 * recording from a swapless machine would show only file pages; the
	 * default assumes 8 GiB and the report says so (--swap 0 for the
	 * machine's own behaviour).
	 */
	if (o->swap_bytes != UINT64_MAX) {
		cfg->swap_bytes = o->swap_bytes;
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "--swap");
	} else if (!in->st->had_topology || !cfg->swap_bytes) {
		cfg->swap_bytes = 8ULL << 30;
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "assumed%s",
			 in->st->had_topology ? "; the recording machine had none" : "");
	} else {
		snprintf(in->st->swap_source, sizeof(in->st->swap_source), "side file");
	}
	return 0;
}

/* The comm the saved cmdlines give pid (ingest.h: looked up on demand), NULL if none. */
static const char *comm_lookup(void *ctx, int pid)
{
	struct aw_reader *r = ctx;

	return tep_is_pid_registered(r->res->tep, pid) ? tep_data_comm_from_pid(r->res->tep, pid) : NULL;
}

/* Each buffer's format, once per (re)open of its file. */
static int resolve_buf(struct aw_reader *r, struct aw_tbuf *buf)
{
	struct aw_tres *res = buf->user;

	/* after a reopen the new tep may sit where the old one was: compare generations */
	if (res && res->generation == buf->generation)
		return 0;
	res = resolve(r, buf->tep, res);
	buf->user = res;
	if (!res)
		return -1;
	res->generation = buf->generation;
	return 0;
}

/* Every record of every input, in replay order, through on_record(). */
static int read_records(struct aw_reader *r)
{
	struct tep_record *rec;
	struct aw_tbuf *buf;
	uint64_t ts;
	int got, stop = 0;

	while (!stop && (got = aw_tsource_next(&r->src, &rec, &buf, &ts, r->err, r->errlen)) > 0) {
		if (resolve_buf(r, buf)) {
			aw_tsource_put(&r->src, rec);
			snprintf(r->err, r->errlen, "%s: out of memory", r->src.files[buf->file].path);
			return -1;
		}
		r->res = buf->user;
		stop = on_record(r, rec, buf, ts);
		aw_tsource_put(&r->src, rec);
	}
	return stop < 0 || got < 0 ? -1 : 0;
}

int aw_trace_ingest(const struct aw_trace_opts *o, struct aw_scenario *sc, struct aw_trace_stats *st,
		    const struct aw_trace_sink *sink, int (*ready)(void *ctx, const struct aw_scenario *sc),
		    char *err, size_t errlen)
{
	struct aw_reader *r = calloc(1, sizeof(*r));
	struct stat sb;
	char *snap, *tg;
	int ret = -1;

	if (!r) {
		snprintf(err, errlen, "%s: out of memory", o->path);
		return -1;
	}
	memset(st, 0, sizeof(*st));
	r->in.o = o;
	r->in.sc = sc;
	r->in.st = st;
	aw_ing_emit_init(&r->in, sink);
	r->in.recorded_thp = -1;
	for (int k = 0; k < AW_KH_KNOB_NR; k++)
		r->in.kh_knob[k] = -1;
	st->kh.pid = o->kh_pid;
	r->err = err;
	r->errlen = errlen;
	if (aw_tsource_open(&r->src, o->paths, o->nr_paths, o->merge, o->guard, err, errlen))
		goto out;
	r->src.reopen_every = o->reopen_every;
	r->in.comm_of = comm_lookup;
	r->in.comm_ctx = r;
	/* every buffer's format now: what the files know decides the stream's header */
	for (int i = 0; i < r->src.nr_files; i++)
		for (int b = 0; b < r->src.files[i].nr_bufs; b++)
			if (resolve_buf(r, &r->src.files[i].bufs[b])) {
				snprintf(err, errlen, "%s: out of memory", o->path);
				goto out;
			}
	r->res = r->src.files[0].bufs[0].user;
	st->long_size = tep_get_long_size(r->res->tep);
	sc->path = strdup(o->path);
	aw_config_default(&sc->cfg);
	if (setup_topology(r, err, errlen))
		goto out;
	/* THP: --thp, else the recording machine's mode, else always */
	st->thp = o->thp >= 0 ? o->thp : r->in.recorded_thp >= 0 ? r->in.recorded_thp : AW_THP_ALWAYS;
	snprintf(st->thp_source, sizeof(st->thp_source), "%s",
		 o->thp >= 0 ? "--thp" : r->in.recorded_thp >= 0 ? "side file" : "assumed");
	sc->cfg.thp = (enum aw_thp_mode)st->thp;
	sc->cfg.thp_modes = 1U << st->thp;
	if (o->memory_limit) {
		sc->cfg.nr_memcgs = 2;
		sc->cfg.memcg_limit[1] = o->memory_limit;
	}
	tg = side_path(o->path, ".saved_tgids");
	if (tg)
		aw_side_tgids(&r->in, tg);
	free(tg);
	tg = side_path(o->path, ".damon_targets");
	if (tg)
		aw_side_damon_targets(&r->in, tg);
	free(tg);
	snap = side_path(o->path, ".procs");
	if (snap && !stat(snap, &sb) && S_ISDIR(sb.st_mode))
		r->in.snap_dir = snap;
	else
		free(snap);
	/* the machine is known: the consumer can start before the first event */
	if (ready && ready(sink ? sink->ctx : NULL, sc)) {
		snprintf(err, errlen, "%s: cannot start the run", o->path);
		goto out;
	}
	/* the recording machine's khugepaged knobs (side file), before anything runs */
	for (int k = 1; k < AW_KH_KNOB_NR; k++)
		if (r->in.kh_knob[k] >= 0 && aw_ing_khugepaged_set(&r->in, k, (uint64_t)r->in.kh_knob[k])) {
			snprintf(err, errlen, "%s: out of memory", o->path);
			goto out;
		}
	if (resolve_window(r, err, errlen))
		goto out;
	/* synthesized aging and khugepaged start their clocks at the window */
	r->in.next_age = o->age_every_ns ? st->window_start_ns + o->age_every_ns : UINT64_MAX;
	r->in.next_kh = o->kh_every_ns ? st->window_start_ns + o->kh_every_ns : UINT64_MAX;
	/* a truncated data section simply ends the iteration early */
	if (read_records(r)) {
		if (o->progress)
			fputc('\n', stderr);
		goto out;
	}
	if (o->progress)
		fputc('\n', stderr);
	for (int n = 0; n < AW_MAX_NODES; n++)
		if (close_group(&r->in, n))
			goto oom;
	/* a final pass after the last event, so the tail of the trace is aged too */
	if (!st->had_aging_events && st->events_used && aw_ing_aging(&r->in, -1, false) == 0)
		st->synthesized_passes++;
	if (aw_ing_emit_finish(&r->in))
		goto oom;
	ret = 0;
	goto out;
oom:
	snprintf(err, errlen, "%s: the converted stream is too large or out of memory", o->path);
out:
	free((void *)r->in.snap_dir);
	for (int i = 0; i < r->src.nr_files; i++)
		for (int b = 0; b < AW_TSRC_MAX_BUFS; b++)
			tres_free(r->src.files[i].bufs[b].user);
	aw_tsource_close(&r->src);
	aw_ing_free(&r->in);
	aw_ing_emit_free(&r->in);
	free(r);
	return ret;
}
