// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the model against kernel text (src/kdiff).  The input is a
 * small program over what kernel-text runs support -- processes without a
 * layout, fixed mappings in their own PMD slots, accesses, context
 * switches, aging passes and generation retirement -- run on the model
 * and on one of the build's kernel-text variants; a divergence prints
 * where and aborts.  An event the small machine cannot mirror (an
 * eviction that reclaims) ends the input quietly: it is not a finding.
 *
 * Input: byte 0 picks the variant (of aw_ktext_variants), byte 1 the
 * machine (bit 0: two nodes; bit 1: THP always; bit 2: two memcgs); then
 * 4-byte records: op, a, b, c.  Ops (op % 9): 0 proc, 1 mmap, 2 access,
 * 3 run, 4 age, 5 evict, 6 munmap, 7 exit, 8 memcg move.
 *
 * AGEWALK_KTEXT_TREE=NAME fuzzes that variant alone (byte 0 is then
 * ignored).  Without kernel-text variants in the build every input is a
 * no-op.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdiff.h"
#include "ktext_variants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PROCS	4
#define MAX_REGIONS	16
#define MAX_EVENTS	96

struct prog {
	struct aw_scenario sc;
	int nr_procs;
	int region_pid[MAX_REGIONS + 1];	/* region id -> its process */
	uint64_t region_len[MAX_REGIONS + 1];
	uint32_t slots;				/* PUD slots taken, bit n = (n + 1) GiB */
};

static void push(struct prog *p, struct aw_event *ev)
{
	if (aw_scenario_push(&p->sc, ev, 0)) {
		fprintf(stderr, "agewalk_fuzz_ktext: out of memory\n");
		abort();
	}
}

static void op_proc(struct prog *p, uint8_t a, uint8_t b)
{
	struct aw_event ev = { .kind = AW_EV_PROC, .flags = AW_PROC_NOLAYOUT };

	if (p->nr_procs == MAX_PROCS)
		return;
	ev.pid = ++p->nr_procs;
	ev.memcg = a % p->sc.cfg.nr_memcgs;
	ev.cpu = p->sc.cfg.nr_nodes > 1 && b & 1 ? 2 : 0;	/* CPU 2 is on node 1 */
	push(p, &ev);
}

/* A mapping of 1-4 PMDs at the start of its own 1 GiB slot (own PUD entry). */
static void op_mmap(struct prog *p, uint8_t a, uint8_t b, uint8_t c)
{
	struct aw_event ev = { .kind = AW_EV_MMAP, .arg = AW_PROT_DEFAULT };
	int slot = c % 16;

	if (!p->nr_procs || p->sc.nr_regions == MAX_REGIONS || p->slots & (1u << slot))
		return;
	p->slots |= 1u << slot;
	ev.pid = 1 + a % p->nr_procs;
	ev.region = ++p->sc.nr_regions;
	ev.len = (uint64_t)(1 + b % 4) << 21;
	ev.addr2 = (uint64_t)(slot + 1) << 30;
	ev.flags = b & 0x10 ? AW_MAP_FILE : 0;
	p->region_pid[ev.region] = (int)ev.pid;
	p->region_len[ev.region] = ev.len;
	push(p, &ev);
}

/*
 * Region 1 + a % regions, from page b * mult % pages, len_pages long (cut
 * at the region's end): the span an access or a munmap covers.  False if
 * no region exists yet.
 */
static bool region_span(struct prog *p, struct aw_event *ev, uint8_t a, uint8_t b, unsigned int mult,
			uint64_t len_pages)
{
	uint64_t pages;

	if (!p->sc.nr_regions)
		return false;
	ev->region = 1 + a % p->sc.nr_regions;
	ev->pid = p->region_pid[ev->region];
	pages = p->region_len[ev->region] >> 12;
	ev->addr = ((uint64_t)b * mult % pages) << 12;
	ev->len = len_pages << 12;
	if (ev->addr + ev->len > p->region_len[ev->region])
		ev->len = p->region_len[ev->region] - ev->addr;
	return true;
}

/* A read or write of 1-64 pages of a region, possibly strided. */
static void op_access(struct prog *p, uint8_t a, uint8_t b, uint8_t c)
{
	struct aw_event ev = { .kind = AW_EV_ACCESS, .repeat = 1, .cpu = AW_CPU_CURRENT };

	if (!region_span(p, &ev, a, b, 37, 1 + c % 64))
		return;
	ev.stride = (uint64_t)(1 + (c >> 6)) << 12;
	ev.flags = a & 0x80 ? AW_ACC_WRITE : 0;
	push(p, &ev);
}

static void op_age(struct prog *p, int kind, uint8_t a, uint8_t b)
{
	struct aw_event ev = { .kind = (uint8_t)kind, .swappiness = AW_SWAPPINESS_DEFAULT };

	ev.node = a % p->sc.cfg.nr_nodes;
	ev.memcg = b % p->sc.cfg.nr_memcgs;
	if (kind == AW_EV_AGE)
		ev.flags = b & 0x80 ? AW_AGE_FORCE : 0;
	push(p, &ev);
}

/* munmap of 1-64 pages of a region, or to its end (a THP cut in part is refused by kdiff) */
static void op_munmap(struct prog *p, uint8_t a, uint8_t b, uint8_t c)
{
	struct aw_event ev = { .kind = AW_EV_MUNMAP };

	/* c bit 7: to the region's end */
	if (region_span(p, &ev, a, b, 61, c & 0x80 ? 1u << 20 : 1u + c % 64))
		push(p, &ev);
}

static void decode(struct prog *p, const uint8_t *data, size_t size)
{
	struct aw_config *cfg = &p->sc.cfg;

	aw_scenario_init(&p->sc);
	cfg->nr_nodes = data[1] & 1 ? 2 : 1;
	for (int n = 0; n < cfg->nr_nodes; n++) {
		cfg->node[n].mem_bytes = 64ull << 20;
		cfg->node[n].cpu_mask = 0x3ull << (2 * n);
	}
	cfg->thp = data[1] & 2 ? AW_THP_ALWAYS : AW_THP_NEVER;
	cfg->nr_memcgs = data[1] & 4 ? 2 : 1;
	cfg->swap_bytes = 1ull << 30;
	for (size_t i = 2; i + 4 <= size && p->sc.nr_events < MAX_EVENTS; i += 4) {
		const uint8_t *r = data + i;

		switch (r[0] % 9) {
		case 0: op_proc(p, r[1], r[2]); break;
		case 1: op_mmap(p, r[1], r[2], r[3]); break;
		case 2: op_access(p, r[1], r[2], r[3]); break;
		case 3:
			if (p->nr_procs)
				push(p, &(struct aw_event){ .kind = AW_EV_RUN, .pid = 1 + r[1] % p->nr_procs,
							    .cpu = AW_CPU_CURRENT });
			break;
		case 4: op_age(p, AW_EV_AGE, r[1], r[2]); break;
		case 5: op_age(p, AW_EV_EVICT, r[1], r[2]); break;
		case 6: op_munmap(p, r[1], r[2], r[3]); break;
		case 7:
			if (p->nr_procs)
				push(p, &(struct aw_event){ .kind = AW_EV_EXIT, .pid = 1 + r[1] % p->nr_procs });
			break;
		default:
			if (p->nr_procs)
				push(p, &(struct aw_event){ .kind = AW_EV_MEMCG_MOVE, .pid = 1 + r[1] % p->nr_procs,
							    .memcg = r[2] % p->sc.cfg.nr_memcgs });
			break;
		}
	}
	p->sc.nr_procs = p->nr_procs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct aw_ktext_ops *ops;
	struct aw_kdiff_result res;
	struct prog p = { 0 };
	int nr = 0;

	while (aw_ktext_variants[nr])
		nr++;
	if (!nr || size < 2)
		return 0;
	ops = aw_ktext_variants[data[0] % nr];
	if (getenv("AGEWALK_KTEXT_TREE")) {
		ops = aw_ktext_find(getenv("AGEWALK_KTEXT_TREE"));
		if (!ops) {
			fprintf(stderr, "agewalk_fuzz_ktext: AGEWALK_KTEXT_TREE=%s is not in this build\n",
				getenv("AGEWALK_KTEXT_TREE"));
			abort();
		}
	}
	decode(&p, data, size);
	p.sc.path = (char *)"fuzz";
	if (aw_kdiff_run(&p.sc, ops, 0, &res) == 0 && res.diverged) {
		fprintf(stderr, "agewalk_fuzz_ktext: %s: diverged after event %zu: %s\n", ops->name,
			res.event + 1, res.what);
		abort();
	}
	p.sc.path = NULL;
	aw_scenario_free(&p.sc);
	return 0;
}
