// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz input decoding and encoding (fuzzin.h).  The decoder folds every
 * field into range, so any byte string is a valid, small scenario; the
 * encoder projects a scenario into the format to seed the corpus.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzzin.h"

#define PAGE		4096ULL
#define GIB		(1ULL << 30)
#define PMD_PAGES	512ULL

static const char *const variants[] = { "pud", "emptymap", "rfc" };

const uint32_t aw_fuzz_kh_pages[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 8, 64, 511, 512, 513, 1024, 4096 };
const uint32_t aw_fuzz_kh_values[8] = { 0, 1, 8, 64, 255, 256, 510, 511 };

enum aw_fuzz_target aw_fuzz_target_of(const char *variant)
{
	return variant && (!strcmp(variant, "khugepaged") || strstr(variant, "khugepaged-")) ?
	       AW_FUZZ_KHUGEPAGED : AW_FUZZ_LOCKSTEP;
}

const char *aw_fuzz_variant(const uint8_t *data, size_t size)
{
	return variants[(size > AW_FH_VARIANT ? aw_fuzz_hdr_get(data, AW_FH_VARIANT) : 0) % 3];
}

static int names(struct aw_scenario *sc)
{
	sc->nr_regions = AW_FUZZ_REGIONS;
	sc->nr_procs = AW_FUZZ_PROCS;
	sc->region_name = calloc(AW_FUZZ_REGIONS, sizeof(*sc->region_name));
	sc->proc_name = calloc(AW_FUZZ_PROCS, sizeof(*sc->proc_name));
	if (!sc->region_name || !sc->proc_name)
		return -1;
	for (int i = 0; i < AW_FUZZ_REGIONS; i++)
		snprintf(sc->region_name[i], AW_MAX_NAME, "R%d", i);
	for (int i = 0; i < AW_FUZZ_PROCS; i++)
		snprintf(sc->proc_name[i], AW_MAX_NAME, "P%d", i + 1);
	return 0;
}

static void empty_contract(uint8_t b, struct aw_empty_contract *c)
{
	c->place = b & AW_FH_EC_AFTER ? AW_EMPTY_AFTER_GET_NEXT_MM : AW_EMPTY_IN_GET_NEXT_MM;
	c->pred = b & AW_FH_EC_NO_LEAVES ? AW_EMPTY_NO_LEAVES : AW_EMPTY_NO_ASSOCIATED;
	c->clock = b & AW_FH_EC_PASS_CLOCK ? AW_EMPTY_CLOCK_PASS : AW_EMPTY_CLOCK_MM;
	c->clear = (uint8_t)((b & AW_FH_EC_NO_MIGRATION ? 0 : AW_EMPTY_CLEAR_MIGRATION) |
			     (((b >> AW_FH_EC_CLEAR_SHIFT) & 7) << 1));
}

static uint8_t empty_contract_byte(const struct aw_empty_contract *c)
{
	return (uint8_t)((c->place ? AW_FH_EC_AFTER : 0) | (c->pred ? AW_FH_EC_NO_LEAVES : 0) |
			 (c->clock ? AW_FH_EC_PASS_CLOCK : 0) |
			 (c->clear & AW_EMPTY_CLEAR_MIGRATION ? 0 : AW_FH_EC_NO_MIGRATION) |
			 (((c->clear >> 1) & 7) << AW_FH_EC_CLEAR_SHIFT));
}

static void config(const uint8_t *h, struct aw_scenario *sc, enum aw_fuzz_target target)
{
	struct aw_config *cfg = &sc->cfg;

	aw_config_default(cfg);
	cfg->nr_nodes = 2 + aw_fuzz_hdr_get(h, AW_FH_NODES) % 2;
	for (int n = 0; n < cfg->nr_nodes; n++) {
		cfg->node[n].mem_bytes = 512ULL << 20;
		cfg->node[n].cpu_mask = 3ULL << (2 * n);
	}
	cfg->thp = (enum aw_thp_mode)(aw_fuzz_hdr_get(h, AW_FH_THP) % 3);
	/* khugepaged does not run with THP never (start_stop_khugepaged()) */
	if (target == AW_FUZZ_KHUGEPAGED && cfg->thp == AW_THP_NEVER)
		cfg->thp = (aw_fuzz_hdr_get(h, AW_FH_THP) / 3) % 2 ? AW_THP_ALWAYS : AW_THP_MADVISE;
	cfg->thp_modes = 1U << cfg->thp;
	cfg->skip_empty = 1 + aw_fuzz_hdr_get(h, AW_FH_SKIP_EMPTY) % 8;
	empty_contract(aw_fuzz_hdr_get(h, AW_FH_EMPTY_CONTRACT), &cfg->empty);
	/* 0, the byte of every input made before it, is the default profile and revision */
	cfg->kernel = (enum aw_kernel_profile)(aw_fuzz_hdr_get(h, AW_FH_KERNEL) % AW_KERNEL_NR);
	cfg->khugepaged_rev = aw_fuzz_hdr_get(h, AW_FH_KHUGEPAGED) & 1;
	cfg->khugepaged_prctl_enter = aw_fuzz_hdr_get(h, AW_FH_KHUGEPAGED) >> 1 & 1;
	cfg->nr_memcgs = 2;
	cfg->memcg_limit[1] = (uint64_t)(aw_fuzz_hdr_get(h, AW_FH_MEMCG_LIMIT) % 64) * (4ULL << 20);
	cfg->swap_bytes = aw_fuzz_hdr_get(h, AW_FH_SWAP) % 4 ? 512ULL << 20 : 0;
	/*
	 * Processes start with a quarter of the standard resident layout:
	 * creating and tearing down processes, and moving their layout
	 * pages through the generations, took a third of an execution.
	 */
	cfg->layout = AW_LAYOUT_SMALL;
}

/*
 * Fields a kind does not use are zero (event.h), as the .aws parser leaves
 * them: then a decoded stream, rendered as text and parsed back, gives the
 * very same records.
 */
static void zero_unused(struct aw_event *ev)
{
	switch (ev->kind) {
	case AW_EV_PROC: case AW_EV_RUN: case AW_EV_ACCESS:
		break;
	default:
		ev->cpu = 0;
	}
	if (ev->kind != AW_EV_ACCESS && ev->kind != AW_EV_KHUGEPAGED && ev->kind != AW_EV_FDIO)
		ev->repeat = 0;
	/* one wake-up is written "khugepaged", which parses to repeat 0 */
	if (ev->kind == AW_EV_KHUGEPAGED && !(ev->flags & AW_KH_FULL) && ev->repeat == 1)
		ev->repeat = 0;
	if (ev->kind != AW_EV_AGE && ev->kind != AW_EV_AGE_BEGIN && ev->kind != AW_EV_EVICT)
		ev->swappiness = 0;
	switch (ev->kind) {
	case AW_EV_AGE: case AW_EV_AGE_BEGIN: case AW_EV_AGE_STEP: case AW_EV_AGE_END:
	case AW_EV_EVICT: case AW_EV_MIGRATE: case AW_EV_MBIND: case AW_EV_SET_MEMPOLICY:
		break;
	default:
		ev->node = 0;
	}
	if (ev->kind != AW_EV_FORK && ev->kind != AW_EV_VFORK && ev->kind != AW_EV_THREAD)
		ev->pid2 = 0;
}

static int push(struct aw_scenario *sc, struct aw_event *ev, uint32_t line)
{
	zero_unused(ev);
	return aw_scenario_push(sc, ev, line);
}

/*
 * Keep a region-relative range inside the region's length as the .aws
 * parser knows it (the latest mmap or mremap of that region), so that every
 * decoded stream renders to a .aws file that parses back.  The model would
 * take a range beyond the mapping anyway (it skips what no VMA covers); the
 * text format is stricter, to catch typos.
 */
static void fold_into_region(struct aw_event *ev, uint64_t rlen)
{
	uint64_t off = ev->addr / PAGE, len = ev->len / PAGE;

	if (!rlen)
		return;		/* not mapped yet: the text names off and len, unchecked */
	if (off >= rlen)
		off %= rlen;
	if (len > rlen - off)
		len = rlen - off;
	ev->addr = off * PAGE;
	ev->len = len * PAGE;
}

/*
 * One record being decoded: the event so far, and the record's common
 * fields folded into range (kind decoders may narrow off and len further).
 */
struct fuzz_dec {
	struct aw_event ev;
	const uint8_t *r;
	uint64_t off, len;		/* pages */
	uint8_t flags, arg;
	int cpus;
};

/*
 * What a decoded event keeps of the record's target before it is pushed:
 * its process and range (folded into the region as the text knows it), all
 * of it as the kind decoder left it, nothing of the machine (khugepaged),
 * no process (reclaim, limits, time: the target is the machine or the
 * memcg), or the process but no range.
 */
enum fuzz_dec_end {
	DEC_REGION, DEC_AS_IS, DEC_NO_MACHINE, DEC_NO_TARGET, DEC_NO_RANGE
};

static void dec_access(struct fuzz_dec *d)
{
	d->ev.flags = aw_fuzz_rec_kind(d->r) == AW_FK_WRITE ? AW_ACC_WRITE : 0;
	d->ev.stride = d->flags & 1 ? 2ULL << 20 : 0;
	/*
	 * An access touches at most 16 pages (64 KiB, or one page per PMD
	 * across up to 16 MiB with the 2 MiB stride), so that an input of
	 * 256 events costs about a millisecond in lockstep.
	 */
	if (!d->ev.stride && d->len > AW_FUZZ_ACCESS_PAGES)
		d->ev.len = AW_FUZZ_ACCESS_PAGES * PAGE;
	d->ev.repeat = 1 + aw_fuzz_rec_get(d->r, AW_FR_REPEAT) % 4;
	if (d->flags & 2)
		d->ev.cpu = (uint16_t)(aw_fuzz_rec_get(d->r, AW_FR_CPU) % d->cpus);
}

/* pread/pwrite: at most AW_FUZZ_ACCESS_PAGES pages, 1..4 calls */
static void dec_fdio(struct fuzz_dec *d)
{
	d->ev.flags = aw_fuzz_rec_kind(d->r) == AW_FK_PWRITE ? AW_ACC_WRITE : 0;
	if (d->len > AW_FUZZ_ACCESS_PAGES)
		d->ev.len = AW_FUZZ_ACCESS_PAGES * PAGE;
	d->ev.repeat = 1 + aw_fuzz_rec_get(d->r, AW_FR_REPEAT) % 4;
}

static void dec_age(struct fuzz_dec *d)
{
	d->ev.flags = aw_fuzz_rec_kind(d->r) == AW_FK_AGE_FORCED ||
		      (d->ev.kind == AW_EV_AGE_BEGIN && (d->flags & 1)) ? AW_AGE_FORCE : 0;
	d->ev.memcg = 1;
}

static void dec_age_step(struct fuzz_dec *d)
{
	d->ev.memcg = 1;
	d->ev.swappiness = 0;
}

static void dec_evict(struct fuzz_dec *d)
{
	d->ev.memcg = 1;
	d->ev.flags = d->flags & 1 ? AW_EVICT_DIRECT : 0;
	d->ev.len = 1 + d->arg;
	d->ev.region = 0;
	d->ev.addr = 0;
	d->ev.pid = 0;
	d->ev.cpu = 0;
}

static void dec_mmap(struct fuzz_dec *d)
{
	uint8_t flags = d->flags;

	d->ev.flags = (flags & 1 ? AW_MAP_HUGEPAGE : 0) | (flags & 2 ? AW_MAP_NOHUGEPAGE : 0) |
		      (flags & 4 ? AW_MAP_FILE : 0);
	if ((d->ev.flags & (AW_MAP_HUGEPAGE | AW_MAP_NOHUGEPAGE)) == (AW_MAP_HUGEPAGE | AW_MAP_NOHUGEPAGE))
		d->ev.flags &= ~AW_MAP_NOHUGEPAGE;
	if ((flags & AW_FUZZ_DROPPABLE) && !(flags & 4))
		d->ev.flags |= AW_MAP_DROPPABLE;
	d->ev.arg = AW_PROT_DEFAULT;
	/* whole 2 MiB ranges unless asked otherwise (AW_FUZZ_MAX_PAGES is a multiple) */
	if (!(flags & AW_FUZZ_EXACT))
		d->len = (d->len + PMD_PAGES - 1) / PMD_PAGES * PMD_PAGES;
	d->ev.len = d->len * PAGE;
	d->ev.addr = 0;
	d->ev.addr2 = AW_FUZZ_REGION_BASE + (uint64_t)(d->ev.region - 1) * GIB;
}

static void dec_madvise(struct fuzz_dec *d)
{
	d->ev.arg = 1 + d->arg % (AW_MADV_NR - 1);
	if (!(d->flags & AW_FUZZ_EXACT) && (d->ev.arg == AW_MADV_HUGEPAGE || d->ev.arg == AW_MADV_NOHUGEPAGE ||
					    d->ev.arg == AW_MADV_COLLAPSE)) {
		uint64_t end = (d->off + d->len + PMD_PAGES - 1) / PMD_PAGES * PMD_PAGES;

		d->off = d->off / PMD_PAGES * PMD_PAGES;
		d->ev.addr = d->off * PAGE;
		d->ev.len = (end - d->off) * PAGE;
	}
}

static void dec_run(struct fuzz_dec *d)
{
	d->ev.cpu = (uint16_t)(aw_fuzz_rec_get(d->r, AW_FR_CPU) % d->cpus);
}

static void dec_fork(struct fuzz_dec *d)
{
	d->ev.pid2 = 1 + (d->ev.pid + aw_fuzz_rec_get(d->r, AW_FR_CPU) % (AW_FUZZ_PROCS - 1)) % AW_FUZZ_PROCS;
}

static void dec_proc(struct fuzz_dec *d)
{
	d->ev.cpu = (uint16_t)(aw_fuzz_rec_get(d->r, AW_FR_CPU) % d->cpus);
	d->ev.memcg = 1;
	d->ev.flags = d->flags & 1 ? AW_PROC_NOLAYOUT : 0;
}

static void dec_contend(struct fuzz_dec *d)
{
	d->ev.arg = d->arg % 2 ? AW_LOCK_PTL : AW_LOCK_MMAP;
	d->ev.flags = d->flags & 1 ? AW_CONTEND_ON : 0;
}

static void dec_mprotect(struct fuzz_dec *d)
{
	d->ev.arg = d->arg & 7;
}

static void dec_mremap(struct fuzz_dec *d)
{
	d->ev.addr = 0;
	d->ev.stride = (1 + (uint64_t)aw_fuzz_rec_get_u16(d->r, AW_FR_NEWSIZE) % AW_FUZZ_MAX_PAGES) * PAGE;
	d->ev.addr2 = d->flags & 1 ?
		      AW_FUZZ_REGION_BASE + (uint64_t)(aw_fuzz_rec_get(d->r, AW_FR_CPU) % AW_FUZZ_REGIONS) * GIB : 0;
}

static void dec_limit(struct fuzz_dec *d)
{
	d->ev.memcg = 1;
	d->ev.len = (uint64_t)d->arg * (4ULL << 20);
}

static void dec_time(struct fuzz_dec *d)
{
	d->ev.len = (uint64_t)(d->arg + 1) * 100000000ULL;
}

static void dec_khugepaged(struct fuzz_dec *d)
{
	d->ev.len = aw_fuzz_kh_pages[d->arg % 16];
	/* a full scan costs at most a few hundred ranges here: two are cheap */
	d->ev.flags = d->flags & 1 ? AW_KH_FULL : 0;
	d->ev.repeat = d->ev.flags ? 1 + aw_fuzz_rec_get(d->r, AW_FR_REPEAT) % 2 :
				     1 + aw_fuzz_rec_get(d->r, AW_FR_REPEAT) % 8;
}

static void dec_kh_set(struct fuzz_dec *d)
{
	uint32_t v = aw_fuzz_rec_get_u16(d->r, AW_FR_KH_VALUE);

	d->ev.arg = AW_KH_PAGES_TO_SCAN + d->arg % 4;
	if ((d->flags & 7) == 7)		/* EINVAL: the model ignores it */
		d->ev.len = d->ev.arg == AW_KH_PAGES_TO_SCAN ? 0 : PMD_PAGES + v % 1024;
	else if (d->flags & 2)
		d->ev.len = d->ev.arg == AW_KH_PAGES_TO_SCAN ? aw_fuzz_kh_pages[8 + v % 8] :
							       aw_fuzz_kh_values[v % 8];
	else
		d->ev.len = d->ev.arg == AW_KH_PAGES_TO_SCAN ? 1 + (uint64_t)v : v % PMD_PAGES;
	d->ev.repeat = 0;
}

static void dec_prctl(struct fuzz_dec *d)
{
	d->ev.arg = d->arg % AW_THP_DISABLE_NR;
	d->ev.cpu = 0;
}

/*
 * Per record kind: the event kind, what completes it (NULL: nothing but
 * the common fields) and what it keeps of the target.  Every kind has an
 * entry: aw_fuzz_rec_kind() folds the kind byte into range.
 */
static const struct fuzz_kind_dec {
	uint8_t kind;			/* enum aw_event_kind */
	uint8_t end;			/* enum fuzz_dec_end */
	void (*fn)(struct fuzz_dec *d);
} fuzz_kinds[AW_FUZZ_NR_KINDS] = {
	[AW_FK_READ]		= { AW_EV_ACCESS,	DEC_REGION,	dec_access },
	[AW_FK_WRITE]		= { AW_EV_ACCESS,	DEC_REGION,	dec_access },
	[AW_FK_AGE]		= { AW_EV_AGE,		DEC_NO_TARGET,	dec_age },
	[AW_FK_AGE_FORCED]	= { AW_EV_AGE,		DEC_NO_TARGET,	dec_age },
	[AW_FK_EVICT]		= { AW_EV_EVICT,	DEC_AS_IS,	dec_evict },
	[AW_FK_MMAP]		= { AW_EV_MMAP,		DEC_REGION,	dec_mmap },
	[AW_FK_MUNMAP]		= { AW_EV_MUNMAP,	DEC_REGION,	NULL },
	[AW_FK_MADVISE]		= { AW_EV_MADVISE,	DEC_REGION,	dec_madvise },
	[AW_FK_MIGRATE]		= { AW_EV_MIGRATE,	DEC_REGION,	NULL },
	[AW_FK_RUN]		= { AW_EV_RUN,		DEC_NO_RANGE,	dec_run },
	[AW_FK_FORK]		= { AW_EV_FORK,		DEC_NO_RANGE,	dec_fork },
	[AW_FK_EXIT]		= { AW_EV_EXIT,		DEC_NO_RANGE,	NULL },
	[AW_FK_PROC]		= { AW_EV_PROC,		DEC_NO_RANGE,	dec_proc },
	[AW_FK_AGE_BEGIN]	= { AW_EV_AGE_BEGIN,	DEC_NO_TARGET,	dec_age },
	[AW_FK_AGE_STEP]	= { AW_EV_AGE_STEP,	DEC_NO_TARGET,	dec_age_step },
	[AW_FK_AGE_END]		= { AW_EV_AGE_END,	DEC_NO_TARGET,	dec_age_step },
	[AW_FK_CONTEND]		= { AW_EV_CONTEND,	DEC_NO_RANGE,	dec_contend },
	[AW_FK_MPROTECT]	= { AW_EV_MPROTECT,	DEC_REGION,	dec_mprotect },
	[AW_FK_MREMAP]		= { AW_EV_MREMAP,	DEC_REGION,	dec_mremap },
	[AW_FK_LIMIT]		= { AW_EV_MEMCG_LIMIT,	DEC_NO_TARGET,	dec_limit },
	[AW_FK_TIME]		= { AW_EV_TIME,		DEC_NO_TARGET,	dec_time },
	[AW_FK_KHUGEPAGED]	= { AW_EV_KHUGEPAGED,	DEC_NO_MACHINE,	dec_khugepaged },
	[AW_FK_KH_SET]		= { AW_EV_KHUGEPAGED,	DEC_NO_MACHINE,	dec_kh_set },
	[AW_FK_PRCTL]		= { AW_EV_PRCTL_THP,	DEC_NO_RANGE,	dec_prctl },
	[AW_FK_PREAD]		= { AW_EV_FDIO,		DEC_REGION,	dec_fdio },
	[AW_FK_PWRITE]		= { AW_EV_FDIO,		DEC_REGION,	dec_fdio },
};

/*
 * An event with a process and a range: mmap and mremap set the region's
 * length as the text tracks it, any other kind is folded into it.
 */
static int push_in_region(struct aw_scenario *sc, struct aw_event *ev, uint32_t line, uint64_t *rlen)
{
	if (ev->kind == AW_EV_MMAP) {
		rlen[ev->region - 1] = ev->len / PAGE;
	} else if (ev->kind == AW_EV_MREMAP) {
		/*
		 * "mremap P REGION NEWSIZE": the whole region as the text knows
		 * it.  A region no mmap has named yet is not mapped at run time
		 * either, so the event would do nothing: leave it out.
		 */
		if (!rlen[ev->region - 1])
			return 0;
		ev->len = rlen[ev->region - 1] * PAGE;
		rlen[ev->region - 1] = ev->stride / PAGE;
	} else {
		fold_into_region(ev, rlen[ev->region - 1]);
	}
	return push(sc, ev, line);
}

/* khugepaged: no process, range, node or swappiness; len, arg, repeat, flags set */
static int push_no_machine(struct aw_scenario *sc, struct aw_event *ev, uint32_t line)
{
	ev->pid = 0;
	ev->cpu = 0;
	ev->region = 0;
	ev->addr = 0;
	ev->node = 0;
	ev->swappiness = 0;
	return push(sc, ev, line);
}

/* No range (and with no_target, no process either): the fields that go with them cleared. */
static int push_no_range(struct aw_scenario *sc, struct aw_event *ev, uint32_t line, bool no_target)
{
	if (no_target) {
		ev->pid = 0;
		ev->cpu = 0;
	}
	ev->region = 0;
	ev->addr = 0;
	if (ev->kind != AW_EV_MEMCG_LIMIT && ev->kind != AW_EV_TIME)
		ev->len = 0;
	if (ev->kind != AW_EV_AGE && ev->kind != AW_EV_AGE_BEGIN)
		ev->swappiness = ev->kind == AW_EV_EVICT ? AW_SWAPPINESS_DEFAULT : 0;
	if (ev->kind != AW_EV_ACCESS)
		ev->repeat = 0;
	if (ev->kind != AW_EV_AGE && ev->kind != AW_EV_AGE_BEGIN && ev->kind != AW_EV_AGE_STEP &&
	    ev->kind != AW_EV_AGE_END)
		ev->node = 0;
	return push(sc, ev, line);
}

/* One record into zero or one event (line = record index + 1, for messages).
 * rlen: each region's length in pages as the text format tracks it. */
static int decode_record(const uint8_t *r, struct aw_scenario *sc, uint32_t line, uint64_t *rlen)
{
	const struct fuzz_kind_dec *k = &fuzz_kinds[aw_fuzz_rec_kind(r)];
	struct fuzz_dec d = {
		.ev = { .repeat = 1, .swappiness = AW_SWAPPINESS_DEFAULT, .cpu = AW_CPU_CURRENT },
		.r = r,
		.off = aw_fuzz_rec_get_u16(r, AW_FR_OFF) % AW_FUZZ_MAX_PAGES,
		.len = 1 + aw_fuzz_rec_get_u16(r, AW_FR_LEN) % AW_FUZZ_MAX_PAGES,
		.flags = aw_fuzz_rec_get(r, AW_FR_FLAGS),
		.arg = aw_fuzz_rec_get(r, AW_FR_ARG),
		.cpus = 2 * sc->cfg.nr_nodes,
	};

	if (d.off + d.len > AW_FUZZ_MAX_PAGES)
		d.len = AW_FUZZ_MAX_PAGES - d.off;
	d.ev.pid = 1 + aw_fuzz_rec_get(r, AW_FR_PROC) % AW_FUZZ_PROCS;
	d.ev.region = (uint16_t)(1 + aw_fuzz_rec_get(r, AW_FR_REGION) % AW_FUZZ_REGIONS);
	d.ev.node = (uint16_t)(aw_fuzz_rec_get(r, AW_FR_NODE) % sc->cfg.nr_nodes);
	d.ev.addr = d.off * PAGE;
	d.ev.len = d.len * PAGE;
	d.ev.kind = k->kind;
	if (k->fn)
		k->fn(&d);
	switch (k->end) {
	case DEC_REGION:
		return push_in_region(sc, &d.ev, line, rlen);
	case DEC_AS_IS:
		return push(sc, &d.ev, line);
	case DEC_NO_MACHINE:
		return push_no_machine(sc, &d.ev, line);
	default:
		return push_no_range(sc, &d.ev, line, k->end == DEC_NO_TARGET);
	}
}

int aw_fuzz_decode(const uint8_t *data, size_t size, struct aw_scenario *sc)
{
	return aw_fuzz_decode_target(data, size, sc, AW_FUZZ_LOCKSTEP);
}

int aw_fuzz_decode_target(const uint8_t *data, size_t size, struct aw_scenario *sc,
			  enum aw_fuzz_target target)
{
	uint8_t h[AW_FUZZ_HEADER] = { 0 };
	uint64_t rlen[AW_FUZZ_REGIONS] = { 0 };
	size_t n;

	aw_scenario_init(sc);
	memcpy(h, data, size < AW_FUZZ_HEADER ? size : AW_FUZZ_HEADER);
	config(h, sc, target);
	if (names(sc))
		return -1;
	/* the four processes exist from the start: two with the default layout */
	for (uint32_t p = 1; p <= AW_FUZZ_PROCS; p++) {
		struct aw_event ev = { .kind = AW_EV_PROC, .pid = p, .memcg = 1,
				       .cpu = (uint16_t)((p - 1) % (2 * sc->cfg.nr_nodes)),
				       .flags = p > 2 ? AW_PROC_NOLAYOUT : 0 };

		if (push(sc, &ev, 0))
			return -1;
	}
	if (size <= AW_FUZZ_HEADER)
		return 0;
	n = (size - AW_FUZZ_HEADER) / AW_FUZZ_RECORD;
	if (n > AW_FUZZ_MAX_EVENTS)
		n = AW_FUZZ_MAX_EVENTS;
	for (size_t i = 0; i < n; i++)
		if (decode_record(aw_fuzz_rec_const(data, i), sc, (uint32_t)(i + 1), rlen))
			return -1;
	return 0;
}

/* ---- encoding ------------------------------------------------------------ */

static uint8_t fkind(const struct aw_event *ev)
{
	switch (ev->kind) {
	case AW_EV_ACCESS: return ev->flags & AW_ACC_WRITE ? AW_FK_WRITE : AW_FK_READ;
	case AW_EV_AGE: return ev->flags & AW_AGE_FORCE ? AW_FK_AGE_FORCED : AW_FK_AGE;
	case AW_EV_EVICT: return AW_FK_EVICT;
	case AW_EV_MMAP: return AW_FK_MMAP;
	case AW_EV_MUNMAP: return AW_FK_MUNMAP;
	case AW_EV_MADVISE: return AW_FK_MADVISE;
	case AW_EV_MIGRATE: return AW_FK_MIGRATE;
	case AW_EV_RUN: return AW_FK_RUN;
	case AW_EV_FORK: case AW_EV_VFORK: case AW_EV_THREAD: return AW_FK_FORK;
	case AW_EV_EXIT: return AW_FK_EXIT;
	case AW_EV_PROC: case AW_EV_EXEC: return AW_FK_PROC;
	case AW_EV_AGE_BEGIN: return AW_FK_AGE_BEGIN;
	case AW_EV_AGE_STEP: return AW_FK_AGE_STEP;
	case AW_EV_AGE_END: return AW_FK_AGE_END;
	case AW_EV_CONTEND: return AW_FK_CONTEND;
	case AW_EV_MPROTECT: return AW_FK_MPROTECT;
	case AW_EV_MREMAP: return AW_FK_MREMAP;
	case AW_EV_MEMCG_LIMIT: return AW_FK_LIMIT;
	case AW_EV_TIME: return AW_FK_TIME;
	case AW_EV_KHUGEPAGED: return ev->arg ? AW_FK_KH_SET : AW_FK_KHUGEPAGED;
	case AW_EV_PRCTL_THP: return AW_FK_PRCTL;
	case AW_EV_FDIO: return ev->flags & AW_ACC_WRITE ? AW_FK_PWRITE : AW_FK_PREAD;
	default: return 0xff;
	}
}

/* A khugepaged wake-up or knob store (fkind() chose which) into record r. */
static void encode_khugepaged(const struct aw_event *ev, uint8_t *r)
{
	/* no process, region, node, cpu or range */
	aw_fuzz_rec_set(r, AW_FR_PROC, 0);
	aw_fuzz_rec_set(r, AW_FR_REGION, 0);
	aw_fuzz_rec_set(r, AW_FR_NODE, 0);
	aw_fuzz_rec_set(r, AW_FR_CPU, 0);
	aw_fuzz_rec_set_u16(r, AW_FR_OFF, 0);
	aw_fuzz_rec_set_u16(r, AW_FR_LEN, 0);
	if (ev->arg) {
		uint64_t val = ev->len;

		aw_fuzz_rec_set(r, AW_FR_ARG, ev->arg - AW_KH_PAGES_TO_SCAN);
		if (ev->arg == AW_KH_PAGES_TO_SCAN ? !val : val >= PMD_PAGES) {
			aw_fuzz_rec_set(r, AW_FR_FLAGS, 7);	/* illegal */
			val = val >= PMD_PAGES ? (val - PMD_PAGES) % 1024 : 0;
		} else if (ev->arg == AW_KH_PAGES_TO_SCAN) {
			val = val > 65536 ? 65535 : val - 1;
		}
		aw_fuzz_rec_set_u16(r, AW_FR_KH_VALUE, (uint32_t)val);
		return;
	}
	/* the listed pages_to_scan nearest from below (0 = the knob) */
	for (int p = 15; p >= 8; p--)
		if (ev->len >= aw_fuzz_kh_pages[p]) {
			aw_fuzz_rec_set(r, AW_FR_ARG, (uint32_t)p);
			break;
		}
	if (ev->flags & AW_KH_FULL) {
		aw_fuzz_rec_set(r, AW_FR_FLAGS, 1);
		aw_fuzz_rec_set(r, AW_FR_REPEAT, ev->repeat > 1 ? 1 : 0);
	} else {
		aw_fuzz_rec_set(r, AW_FR_REPEAT, ev->repeat > 8 ? 7 : ev->repeat ? ev->repeat - 1 : 0);
	}
}

/* One event into record r, whose kind fkind() chose: the decoder's inverse where it has one. */
static void encode_record(const struct aw_event *ev, uint8_t k, uint8_t *r)
{
	uint64_t off = ev->addr / PAGE, len = ev->len / PAGE;

	memset(r, 0, AW_FUZZ_RECORD);
	aw_fuzz_rec_set(r, AW_FR_KIND, k);
	aw_fuzz_rec_set(r, AW_FR_PROC, (ev->pid ? ev->pid - 1 : 0) % AW_FUZZ_PROCS);
	aw_fuzz_rec_set(r, AW_FR_REGION, (ev->region ? ev->region - 1 : 0) % AW_FUZZ_REGIONS);
	aw_fuzz_rec_set(r, AW_FR_NODE, ev->node);
	aw_fuzz_rec_set(r, AW_FR_CPU, ev->cpu == AW_CPU_CURRENT ? 0 : ev->cpu);
	if (len > AW_FUZZ_MAX_PAGES)
		len = AW_FUZZ_MAX_PAGES;
	aw_fuzz_rec_set_u16(r, AW_FR_OFF, (uint32_t)(off % AW_FUZZ_MAX_PAGES));
	aw_fuzz_rec_set_u16(r, AW_FR_LEN, (uint32_t)(len ? len - 1 : 0));
	switch (ev->kind) {
	case AW_EV_ACCESS:
		aw_fuzz_rec_set(r, AW_FR_FLAGS, (ev->stride >= (2ULL << 20) ? 1 : 0) |
						(ev->cpu != AW_CPU_CURRENT ? 2 : 0));
		aw_fuzz_rec_set(r, AW_FR_REPEAT, ev->repeat ? (ev->repeat - 1) % 4 : 0);
		break;
	case AW_EV_FDIO:
		aw_fuzz_rec_set(r, AW_FR_CPU, 0);
		aw_fuzz_rec_set(r, AW_FR_REPEAT, ev->repeat ? (ev->repeat - 1) % 4 : 0);
		break;
	case AW_EV_MMAP:
		aw_fuzz_rec_set(r, AW_FR_FLAGS, (ev->flags & AW_MAP_HUGEPAGE ? 1 : 0) |
						(ev->flags & AW_MAP_NOHUGEPAGE ? 2 : 0) |
						(ev->flags & AW_MAP_FILE ? 4 : 0) |
						(len % PMD_PAGES ? AW_FUZZ_EXACT : 0) |
						(ev->flags & AW_MAP_DROPPABLE ? AW_FUZZ_DROPPABLE : 0));
		break;
	case AW_EV_MADVISE:
		aw_fuzz_rec_set(r, AW_FR_ARG, ev->arg ? ev->arg - 1 : 0);
		if (off % PMD_PAGES || len % PMD_PAGES)
			aw_fuzz_rec_set(r, AW_FR_FLAGS, AW_FUZZ_EXACT);
		break;
	case AW_EV_KHUGEPAGED:
		encode_khugepaged(ev, r);
		break;
	case AW_EV_PRCTL_THP:
		/* the process only */
		aw_fuzz_rec_set(r, AW_FR_REGION, 0);
		aw_fuzz_rec_set(r, AW_FR_NODE, 0);
		aw_fuzz_rec_set(r, AW_FR_CPU, 0);
		aw_fuzz_rec_set_u16(r, AW_FR_OFF, 0);
		aw_fuzz_rec_set_u16(r, AW_FR_LEN, 0);
		aw_fuzz_rec_set(r, AW_FR_ARG, ev->arg);
		break;
	case AW_EV_EVICT:
		aw_fuzz_rec_set(r, AW_FR_FLAGS, ev->flags & AW_EVICT_DIRECT ? 1 : 0);
		aw_fuzz_rec_set(r, AW_FR_ARG, (uint32_t)(ev->len ? (ev->len > 256 ? 255 : ev->len - 1) : 255));
		break;
	case AW_EV_AGE_BEGIN:
		aw_fuzz_rec_set(r, AW_FR_FLAGS, ev->flags & AW_AGE_FORCE ? 1 : 0);
		break;
	case AW_EV_CONTEND:
		aw_fuzz_rec_set(r, AW_FR_ARG, ev->arg == AW_LOCK_PTL ? 1 : 0);
		aw_fuzz_rec_set(r, AW_FR_FLAGS, ev->flags & AW_CONTEND_ON ? 1 : 0);
		break;
	case AW_EV_PROC:
		aw_fuzz_rec_set(r, AW_FR_FLAGS, ev->flags & AW_PROC_NOLAYOUT ? 1 : 0);
		break;
	case AW_EV_MPROTECT:
		aw_fuzz_rec_set(r, AW_FR_ARG, ev->arg);
		break;
	case AW_EV_MEMCG_LIMIT: {
		uint64_t units = ev->len / (4ULL << 20);

		aw_fuzz_rec_set(r, AW_FR_ARG, units > 255 ? 255 : (uint32_t)units);
		break;
	}
	case AW_EV_TIME: {
		uint64_t ticks = ev->len / 100000000ULL;	/* 0.1 s */

		aw_fuzz_rec_set(r, AW_FR_ARG, ticks ? (ticks - 1 > 255 ? 255 : (uint32_t)(ticks - 1)) : 0);
		break;
	}
	case AW_EV_MREMAP: {
		uint64_t nl = ev->stride / PAGE;

		nl = nl ? (nl - 1) % AW_FUZZ_MAX_PAGES : 0;
		aw_fuzz_rec_set_u16(r, AW_FR_NEWSIZE, (uint32_t)nl);
		aw_fuzz_rec_set(r, AW_FR_FLAGS, ev->addr2 ? 1 : 0);
		break;
	}
	default:
		break;
	}
}

size_t aw_fuzz_encode(const struct aw_scenario *sc, const char *variant, uint8_t *out, size_t cap)
{
	const struct aw_config *cfg = &sc->cfg;
	size_t n = 0;
	int v = 0;

	if (cap < AW_FUZZ_HEADER)
		return 0;
	for (int i = 0; i < 3; i++)
		if (variant && !strcmp(variant, variants[i]))
			v = i;
	memset(out, 0, AW_FUZZ_HEADER);
	aw_fuzz_hdr_set(out, AW_FH_NODES, cfg->nr_nodes > 2);
	aw_fuzz_hdr_set(out, AW_FH_THP, cfg->thp);
	/* the khugepaged target reads THP never as madvise (never = 0, (0 / 3) % 2 = 0) */
	aw_fuzz_hdr_set(out, AW_FH_VARIANT, (uint32_t)v);
	aw_fuzz_hdr_set(out, AW_FH_SKIP_EMPTY, (cfg->skip_empty + 7) % 8);
	aw_fuzz_hdr_set(out, AW_FH_EMPTY_CONTRACT, empty_contract_byte(&cfg->empty));
	aw_fuzz_hdr_set(out, AW_FH_KERNEL, cfg->kernel);
	aw_fuzz_hdr_set(out, AW_FH_KHUGEPAGED, (uint32_t)(cfg->khugepaged_rev & 1) |
			(uint32_t)cfg->khugepaged_prctl_enter << 1);
	for (int m = 1; m < cfg->nr_memcgs; m++)
		if (cfg->memcg_limit[m]) {
			uint64_t units = cfg->memcg_limit[m] / (4ULL << 20);

			aw_fuzz_hdr_set(out, AW_FH_MEMCG_LIMIT, units < 1 ? 1 : units > 63 ? 63 : (uint32_t)units);
		}
	aw_fuzz_hdr_set(out, AW_FH_SWAP, cfg->swap_bytes ? 1 : 0);
	n = AW_FUZZ_HEADER;
	for (size_t i = 0; i < sc->nr_events && n + AW_FUZZ_RECORD <= cap &&
	     aw_fuzz_nr_records(n) < AW_FUZZ_MAX_EVENTS; i++) {
		const struct aw_event *ev = &sc->events[i];
		uint8_t k = fkind(ev), *r = out + n;

		/* the decoder creates the processes: leading proc events add nothing */
		if (k == 0xff || (ev->kind == AW_EV_PROC && ev->pid <= AW_FUZZ_PROCS && i < AW_FUZZ_PROCS))
			continue;
		encode_record(ev, k, r);
		n += AW_FUZZ_RECORD;
	}
	return n;
}
