/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws parser: aw_aws_parse_file() and aw_aws_parse_string().  The
 * grammar is documented in docs/aws-format.md; this file, with aws_lex.c
 * (tokens, numbers, messages) and aws_expect.c (`expect` lines), is its
 * only implementation.
 *
 * It also owns the language's words: the keyword table and the tables of
 * value words (madvise advice, policies, flags...).  aw_aws_write() prints
 * from the same tables, aw_aws_keyword() being the keyword table read
 * backwards, so a word is spelled in one place and the writer cannot print
 * one the parser does not know.
 *
 * The parser reads one line at a time, splits it into tokens and hands them
 * to the handler of the line's first word, which fills one struct aw_event
 * and appends it.  `repeat N {` ... `}` blocks are loops over the text: at
 * the closing brace the parser goes back to the first line of the block,
 * N-1 times.  The events are therefore exactly those of the block written
 * out N times (which is how aw_aws_write() prints them, so its output reads
 * back the same), with names keeping the id of their first definition and
 * region lengths evolving from copy to copy.  Header directives and `expect`
 * lines inside a block take effect once.
 *
 * Header directives may appear anywhere, so a check that depends on them
 * (does node 2 exist, is memcg 3 declared, is CPU 5 on a node) cannot be
 * made when the line that uses the id is read.  Such uses record where an id
 * was first used, and the ids are checked once the whole file has been read.
 *
 * Every failure produces one "FILE:LINE:COL: message" line and -1.  The same
 * code is fed by the fuzzers and by `minimize`, so nothing here may crash,
 * overflow or allocate from an unchecked count on hostile input.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* strdup */
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Words the writer prints too                                        */
/* ------------------------------------------------------------------ */

const char *const aw_madv_names[AW_MADV_NR] = {
	[AW_MADV_FREE]		= "free",
	[AW_MADV_DONTNEED]	= "dontneed",
	[AW_MADV_COLD]		= "cold",
	[AW_MADV_PAGEOUT]	= "pageout",
	[AW_MADV_HUGEPAGE]	= "hugepage",
	[AW_MADV_NOHUGEPAGE]	= "nohugepage",
	[AW_MADV_COLLAPSE]	= "collapse",
};

const char *const aw_mpol_names[AW_MPOL_NR] = {
	[AW_MPOL_DEFAULT]	= "default",
	[AW_MPOL_BIND]		= "bind",
	[AW_MPOL_PREFERRED]	= "preferred",
};

const char *const aw_prctl_names[AW_THP_DISABLE_NR] = {
	[AW_THP_ENABLE]			= "thp_enable",
	[AW_THP_DISABLE_COMPLETELY]	= "thp_disable",
	[AW_THP_DISABLE_EXCEPT_ADVISED]	= "thp_disable_except_advised",
};

const char *const aw_lock_names[AW_LOCK_NR] = {
	[AW_LOCK_MMAP]	= "mmap",
	[AW_LOCK_PTL]	= "ptl",
};

const struct aw_map_flag aw_map_flags[8] = {
	{ "file",	AW_MAP_FILE },
	{ "locked",	AW_MAP_LOCKED },
	{ "seqread",	AW_MAP_SEQ_READ },
	{ "randread",	AW_MAP_RAND_READ },
	{ "droppable",	AW_MAP_DROPPABLE },
	{ "hugepage",	AW_MAP_HUGEPAGE },
	{ "nohugepage",	AW_MAP_NOHUGEPAGE },
	{ "noreserve",	AW_MAP_NORESERVE },
};

const char *const aw_kh_knob_names[AW_KH_KNOB_NR] = {
	[AW_KH_PAGES_TO_SCAN]	= "pages_to_scan",
	[AW_KH_MAX_PTES_NONE]	= "max_ptes_none",
	[AW_KH_MAX_PTES_SWAP]	= "max_ptes_swap",
	[AW_KH_MAX_PTES_SHARED]	= "max_ptes_shared",
};

/* `layout standard|small`: resident pages of new processes' layouts */
const char *const aw_layout_names[AW_LAYOUT_NR] = { "standard", "small" };

const char *const aw_onoff_names[2] = { "off", "on" };

const struct aw_prot_letter aw_prot_letters[3] = {
	{ 'r', AW_PROT_READ }, { 'w', AW_PROT_WRITE }, { 'x', AW_PROT_EXEC },
};

const unsigned int aw_reclaim_allowed[AW_EV_NR] = {
	[AW_EV_AGE]		= AW_RO(NODE) | AW_RO(MEMCG) | AW_RO(FORCE) | AW_RO(SWAPPINESS) |
				  AW_RO(LOST),
	[AW_EV_AGE_BEGIN]	= AW_RO(NODE) | AW_RO(MEMCG) | AW_RO(FORCE) | AW_RO(SWAPPINESS),
	[AW_EV_AGE_STEP]	= AW_RO(NODE) | AW_RO(MEMCG),
	[AW_EV_AGE_END]		= AW_RO(NODE) | AW_RO(MEMCG),
	[AW_EV_EVICT]		= AW_RO(NODE) | AW_RO(MEMCG) | AW_RO(SWAPPINESS) | AW_RO(NR) |
				  AW_RO(DIRECT),
};

/* ------------------------------------------------------------------ */
/* Events                                                             */
/* ------------------------------------------------------------------ */

static void aw_ev_init(struct aw_event *ev, int kind)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = (uint8_t)kind;
}

static int aw_emit(struct aw_parser *p, const struct aw_event *ev)
{
	if (p->sc->nr_events >= AW_MAX_EVENTS)
		return aw_fail(p, p->line, p->kw->col, "more than %llu events",
			       AW_MAX_EVENTS);
	if (aw_scenario_push(p->sc, ev, (uint32_t)p->line))
		return aw_oom(p, p->kw->col);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Numbers, ids and names from tokens                                 */
/* ------------------------------------------------------------------ */

static int aw_num(struct aw_parser *p, const struct aw_tok *t, bool suffix, uint64_t *v)
{
	int r = aw_parse_num(t->s, (size_t)t->len, suffix, v);

	if (r == -2)
		return aw_fail(p, p->line, t->col, "number '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col, "bad number '%s'", AW_Q(t));
	return 0;
}

static int aw_need_num(struct aw_parser *p, const char *what, bool suffix,
		       uint64_t *v, const struct aw_tok **t)
{
	return aw_need(p, what, t) || aw_num(p, *t, suffix, v) ? -1 : 0;
}

/* A plain integer in [lo, hi], named `what` in messages. */
static int aw_need_int(struct aw_parser *p, const char *what, uint64_t lo,
		       uint64_t hi, uint64_t *v)
{
	const struct aw_tok *t;

	if (aw_need_num(p, what, false, v, &t))
		return -1;
	if (*v < lo || *v > hi)
		return aw_fail(p, p->line, t->col, "%s must be %llu..%llu, not %s", what,
			       (unsigned long long)lo, (unsigned long long)hi, AW_Q(t));
	return 0;
}

/* A length: nonzero and, when `page`, a whole number of 4 KiB pages. */
static int aw_need_len(struct aw_parser *p, const char *what, bool page,
		       uint64_t *v, const struct aw_tok **t)
{
	if (aw_need_num(p, what, true, v, t))
		return -1;
	if (!*v)
		return aw_fail(p, p->line, (*t)->col, "%s must be > 0", what);
	if (page && *v % AW_PAGE_SIZE)
		return aw_fail(p, p->line, (*t)->col, "%s %s is not a multiple of 4K",
			       what, AW_Q(*t));
	return 0;
}

static int aw_addr(struct aw_parser *p, const struct aw_tok *t, uint64_t *v)
{
	if (aw_num(p, t, true, v))
		return -1;
	if (*v >= AW_USER_LIMIT)
		return aw_fail(p, p->line, t->col,
			       "address beyond the 47-bit user address space");
	return 0;
}

/* `at ADDR` of mmap and mremap: a fixed, page-aligned, nonzero address. */
static int aw_need_fixed(struct aw_parser *p, const char *what, uint64_t *v,
			 const struct aw_tok **t)
{
	if (aw_need(p, what, t) || aw_addr(p, *t, v))
		return -1;
	if (!*v)
		return aw_fail(p, p->line, (*t)->col, "fixed address must be nonzero");
	if (*v % AW_PAGE_SIZE)
		return aw_fail(p, p->line, (*t)->col, "address %s is not 4K aligned",
			       AW_Q(*t));
	return 0;
}

static int aw_range_ok(struct aw_parser *p, const struct aw_tok *t, uint64_t addr,
		       uint64_t len)
{
	if (len > AW_USER_LIMIT - addr)
		return aw_fail(p, p->line, t->col,
			       "range ends beyond the 47-bit user address space");
	return 0;
}

/*
 * A node, cpu or memcg id: an integer below nr, its first use recorded in
 * refs[] for the checks made once the header is complete.
 */
static int aw_need_id(struct aw_parser *p, const char *what, int nr, struct aw_ref *refs,
		      uint16_t *id)
{
	const struct aw_tok *t = aw_peek(p);
	uint64_t v;

	if (aw_need_int(p, what, 0, (uint64_t)nr - 1, &v))
		return -1;
	aw_ref(&refs[v], p->line, t->col);
	*id = (uint16_t)v;
	return 0;
}

static int aw_need_node(struct aw_parser *p, uint16_t *node)
{
	return aw_need_id(p, "node", AW_MAX_NODES, p->node_ref, node);
}

static int aw_need_cpu(struct aw_parser *p, uint16_t *cpu)
{
	return aw_need_id(p, "cpu", AW_MAX_CPUS, p->cpu_ref, cpu);
}

static int aw_need_memcg(struct aw_parser *p, uint16_t *memcg)
{
	return aw_need_id(p, "memcg", AW_MAX_MEMCGS, p->memcg_ref, memcg);
}

int aw_name_tok(struct aw_parser *p, const struct aw_tok *t, const char *what)
{
	if (t->len >= AW_MAX_NAME)
		return aw_fail(p, p->line, t->col, "%s name '%s' is longer than %d characters",
			       what, AW_Q(t), AW_MAX_NAME - 1);
	if (!aw_name_ok(t->s, (size_t)t->len))
		return aw_fail(p, p->line, t->col, "bad %s name '%s'", what, AW_Q(t));
	return 0;
}

/* Name n of names[] is the token's text, findable in tab. */
static int aw_put_name(struct aw_parser *p, struct aw_ntab *tab, char (*names)[AW_MAX_NAME],
		       int n, const struct aw_tok *t)
{
	memset(names[n], 0, AW_MAX_NAME);
	memcpy(names[n], t->s, (size_t)t->len);
	if (aw_ntab_add(tab, (aw_names_t)names, (uint32_t)n + 1))
		return aw_oom(p, t->col);
	return 0;
}

static int aw_add_proc(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	struct aw_scenario *sc = p->sc;
	int n = sc->nr_procs;

	if ((unsigned int)n >= AW_MAX_PROCS)
		return aw_fail(p, p->line, t->col, "more than %u processes", AW_MAX_PROCS);
	if (n == p->cap_procs) {
		int cap = aw_next_cap(p->cap_procs);
		void *names = realloc(sc->proc_name, (size_t)cap * AW_MAX_NAME);

		if (!names)
			return aw_oom(p, t->col);
		sc->proc_name = names;
		p->cap_procs = cap;
	}
	if (aw_put_name(p, &p->procs, sc->proc_name, n, t))
		return -1;
	*id = (uint32_t)++sc->nr_procs;
	return 0;
}

static uint32_t aw_find_proc(struct aw_parser *p, const struct aw_tok *t)
{
	return aw_ntab_find(&p->procs, (aw_names_t)p->sc->proc_name, t->s, (size_t)t->len);
}

/* A process name that must already be defined. */
static int aw_need_proc(struct aw_parser *p, uint32_t *pid)
{
	const struct aw_tok *t;

	if (aw_need(p, "a process name", &t) || aw_name_tok(p, t, "process"))
		return -1;
	*pid = aw_find_proc(p, t);
	if (!*pid)
		return aw_fail(p, p->line, t->col, "undefined process '%s'", AW_Q(t));
	return 0;
}

/*
 * A process name being defined: a new name gets the next id, an existing one
 * keeps its id.  Reuse cannot be an error: a `fork P C` inside a repeat block
 * is written out by aw_aws_write() once per copy, and must read back.
 */
static int aw_def_proc(struct aw_parser *p, uint32_t *pid)
{
	const struct aw_tok *t;

	if (aw_need(p, "a process name", &t) || aw_name_tok(p, t, "process"))
		return -1;
	*pid = aw_find_proc(p, t);
	return *pid ? 0 : aw_add_proc(p, t, pid);
}

static uint32_t aw_find_region(struct aw_parser *p, const char *s, size_t len)
{
	return aw_ntab_find(&p->regions, (aw_names_t)p->sc->region_name, s, len);
}

static int aw_add_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	struct aw_scenario *sc = p->sc;
	int n = sc->nr_regions;

	if (n >= AW_MAX_REGIONS)
		return aw_fail(p, p->line, t->col, "more than %d regions", AW_MAX_REGIONS);
	if (n == p->cap_regions) {
		int cap = aw_next_cap(p->cap_regions);
		void *len, *names;

		/* Grow both arrays before recording the new capacity. */
		len = realloc(p->region_len, (size_t)cap * sizeof(*p->region_len));
		if (!len)
			return aw_oom(p, t->col);
		p->region_len = len;
		names = realloc(sc->region_name, (size_t)cap * AW_MAX_NAME);
		if (!names)
			return aw_oom(p, t->col);
		sc->region_name = names;
		p->cap_regions = cap;
	}
	p->region_len[n] = 0;
	if (aw_put_name(p, &p->regions, sc->region_name, n, t))
		return -1;
	*id = (uint32_t)++sc->nr_regions;
	return 0;
}

/* A region name that an earlier mmap defined. */
static int aw_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	if (aw_name_tok(p, t, "region"))
		return -1;
	*id = aw_find_region(p, t->s, (size_t)t->len);
	if (!*id)
		return aw_fail(p, p->line, t->col, "undefined region '%s'", AW_Q(t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* TARGET: REGION [off SIZE] [len SIZE] | ADDR len SIZE               */
/* ------------------------------------------------------------------ */

static int aw_target_abs(struct aw_parser *p, const struct aw_tok *at,
			 struct aw_event *ev)
{
	const struct aw_tok *t;

	if (aw_addr(p, at, &ev->addr))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "len"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "an absolute address needs 'len SIZE'");
	if (aw_need_len(p, "len", false, &ev->len, &t))
		return -1;
	ev->region = 0;
	return aw_range_ok(p, t, ev->addr, ev->len);
}

static int aw_target_region(struct aw_parser *p, const struct aw_tok *rt,
			    struct aw_event *ev)
{
	static const char *const opts[] = { "off", "len", NULL };
	const struct aw_tok *t, *off_t = rt, *len_t = NULL;
	unsigned int seen = 0;
	uint32_t id;
	uint64_t rlen;

	if (aw_region(p, rt, &id))
		return -1;
	rlen = p->region_len[id - 1];
	/*
	 * A region declared by a `region` line but not mapped yet has no
	 * length: the target must say off and len, and nothing can be checked
	 * against the mapping (streams from fuzz inputs and traces use
	 * regions before, or without, their mmap).
	 */
	if (!rlen)
		rlen = UINT64_MAX;
	while ((t = aw_peek(p)) && (aw_teq(t, "off") || aw_teq(t, "len"))) {
		p->pos++;
		if (aw_opt(p, t, opts, &seen) == 0) {
			if (aw_need_num(p, "an offset after 'off'", true, &ev->addr, &off_t))
				return -1;
		} else if (aw_need_len(p, "len", false, &ev->len, &len_t)) {
			return -1;
		}
	}
	if (ev->addr >= rlen)
		return aw_fail(p, p->line, off_t->col,
			       "offset is at or beyond the end of region '%s' (%llu bytes)",
			       AW_Q(rt), (unsigned long long)rlen);
	if (!len_t && rlen == UINT64_MAX)
		return aw_fail(p, p->line, rt->col,
			       "region '%s' is not mapped yet: give 'off' and 'len'", AW_Q(rt));
	if (!len_t)
		ev->len = rlen - ev->addr;
	else if (ev->len > rlen - ev->addr)
		return aw_fail(p, p->line, len_t->col,
			       "off + len goes beyond the end of region '%s' (%llu bytes)",
			       AW_Q(rt), (unsigned long long)rlen);
	ev->region = (uint16_t)id;
	return 0;
}

static int aw_target(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;

	if (aw_need(p, "a region name or an address", &t))
		return -1;
	if (aw_isdigit(t->s[0]))
		return aw_target_abs(p, t, ev);
	return aw_target_region(p, t, ev);
}

/* ------------------------------------------------------------------ */
/* Header directives                                                  */
/* ------------------------------------------------------------------ */

static void aw_set_topology(struct aw_config *cfg, int nr_nodes)
{
	int i;

	memset(cfg->node, 0, sizeof(cfg->node));
	cfg->nr_nodes = nr_nodes;
	for (i = 0; i < nr_nodes; i++) {
		cfg->node[i].mem_bytes = 16ull << 30;
		cfg->node[i].cpu_mask = 3ull << (2 * i);
	}
}

static int aw_h_topology(struct aw_parser *p)
{
	const struct aw_tok *t;
	int nr;

	if (p->node_lines)
		return aw_fail(p, p->line, p->kw->col,
			       "'topology' cannot be mixed with 'node' lines");
	if (aw_need(p, "T2 or T3", &t))
		return -1;
	if (aw_teq(t, "T2"))
		nr = 2;
	else if (aw_teq(t, "T3"))
		nr = 3;
	else
		return aw_fail(p, p->line, t->col, "unknown topology '%s' (T2 or T3)",
			       AW_Q(t));
	p->topology = true;
	aw_set_topology(&p->sc->cfg, nr);
	return aw_done(p);
}

/* `0-1`, `0,2,4-5` or `none` (a memory-only node). */
static int aw_cpu_list(struct aw_parser *p, const struct aw_tok *t, uint64_t *mask)
{
	const char *s = t->s;
	size_t i = 0, n = (size_t)t->len;

	*mask = 0;
	if (aw_teq(t, "none"))
		return 0;
	for (;;) {
		uint64_t a, b;
		size_t j = i;

		while (j < n && aw_isdigit(s[j]))
			j++;
		if (aw_parse_num(s + i, j - i, false, &a))
			break;
		b = a;
		if (j < n && s[j] == '-') {
			i = ++j;
			while (j < n && aw_isdigit(s[j]))
				j++;
			if (aw_parse_num(s + i, j - i, false, &b))
				break;
		}
		if (a > b || b >= AW_MAX_CPUS)
			return aw_fail(p, p->line, t->col,
				       "cpu list '%s': cpus must be 0..%d, ranges low-high",
				       AW_Q(t), AW_MAX_CPUS - 1);
		for (; a <= b; a++)
			*mask |= 1ull << a;
		if (j == n)
			return 0;
		if (s[j] != ',')
			break;
		i = j + 1;
	}
	return aw_fail(p, p->line, t->col, "bad cpu list '%s' (like 0-1 or 0,2,4-5)",
		       AW_Q(t));
}

static int aw_node_cpus(struct aw_parser *p, int id, uint64_t *mask)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "a cpu list after 'cpus'", &t) || aw_cpu_list(p, t, mask))
		return -1;
	for (i = 0; i < id; i++) {
		uint64_t both = *mask & p->sc->cfg.node[i].cpu_mask;

		if (both)
			return aw_fail(p, p->line, t->col, "cpu %d is already on node %d",
				       __builtin_ctzll(both), i);
	}
	return 0;
}

static int aw_node_mem(struct aw_parser *p, int id, uint64_t *mem)
{
	const struct aw_tok *t;
	uint64_t total = 0;
	int i;

	if (aw_need_len(p, "mem", true, mem, &t))
		return -1;
	for (i = 0; i < id; i++)
		total += p->sc->cfg.node[i].mem_bytes;
	if (*mem > AW_PHYS_LIMIT - total)
		return aw_fail(p, p->line, t->col,
			       "total memory beyond the 52-bit physical address space");
	return 0;
}

static int aw_h_node(struct aw_parser *p)
{
	static const char *const opts[] = { "cpus", "mem", NULL };
	struct aw_config *cfg = &p->sc->cfg;
	const struct aw_tok *t;
	struct aw_node_cfg node = { 0, 0 };
	unsigned int seen = 0;
	uint64_t id;
	int r = 0;

	if (p->topology)
		return aw_fail(p, p->line, p->kw->col,
			       "'node' lines cannot be mixed with 'topology'");
	if (!p->node_lines) {
		/* The first node line replaces the default topology. */
		p->node_lines = true;
		aw_set_topology(cfg, 0);
	}
	if (aw_need_num(p, "a node number", false, &id, &t))
		return -1;
	if (cfg->nr_nodes == AW_MAX_NODES)	/* node 8 too: it has no slot */
		return aw_fail(p, p->line, t->col, "more than %d nodes", AW_MAX_NODES);
	if (id != (uint64_t)cfg->nr_nodes)
		return aw_fail(p, p->line, t->col,
			       "nodes must be declared in order: expected node %d", cfg->nr_nodes);
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0: r = aw_node_cpus(p, (int)id, &node.cpu_mask); break;
		case 1: r = aw_node_mem(p, (int)id, &node.mem_bytes); break;
		default: return -1;
		}
	}
	if (r)
		return -1;
	if (seen != 3)
		return aw_fail(p, p->line, p->kw->col, "node needs 'cpus LIST' and 'mem SIZE'");
	cfg->node[cfg->nr_nodes++] = node;
	return 0;
}

/* `max` (0: no limit) or a size; a zero limit would read as `max`. */
static int aw_need_limit(struct aw_parser *p, uint64_t *v)
{
	const struct aw_tok *t = aw_peek(p);

	if (aw_teq(t, "max")) {
		p->pos++;
		*v = 0;
		return 0;
	}
	return aw_need_len(p, "limit (a size or 'max')", false, v, &t);
}

static int aw_h_memcg(struct aw_parser *p)
{
	struct aw_config *cfg = &p->sc->cfg;
	const struct aw_tok *t = aw_peek(p);
	uint64_t id, limit = 0;

	if (aw_need_int(p, "memcg id", 1, AW_MAX_MEMCGS - 1, &id))
		return -1;
	if (p->memcg_declared & (1u << id))
		return aw_fail(p, p->line, t->col, "memcg %d declared twice", (int)id);
	t = aw_next(p);
	if (t && !aw_teq(t, "limit"))
		return aw_unexpected(p, t);
	if (t && aw_need_limit(p, &limit))
		return -1;
	p->memcg_declared |= 1u << id;
	if (cfg->nr_memcgs <= (int)id)
		cfg->nr_memcgs = (int)id + 1;
	cfg->memcg_limit[id] = limit;
	return aw_done(p);
}

int aw_thp_tok(struct aw_parser *p, const struct aw_tok *t, int *mode)
{
	char buf[16];

	*mode = -1;
	if ((size_t)t->len < sizeof(buf)) {
		memcpy(buf, t->s, (size_t)t->len);
		buf[t->len] = '\0';
		*mode = aw_thp_mode_parse(buf);
	}
	if (*mode < 0)
		return aw_fail(p, p->line, t->col,
			       "unknown THP mode '%s' (always, never or madvise)", AW_Q(t));
	return 0;
}

static int aw_need_thp_mode(struct aw_parser *p, int *mode)
{
	const struct aw_tok *t;

	return aw_need(p, "always, never or madvise", &t) || aw_thp_tok(p, t, mode) ? -1 : 0;
}

static int aw_h_thp(struct aw_parser *p)
{
	int mode;

	if (aw_need_thp_mode(p, &mode))
		return -1;
	p->sc->cfg.thp = (enum aw_thp_mode)mode;
	return aw_done(p);
}

static int aw_h_modes(struct aw_parser *p)
{
	unsigned int bits = 0;
	int mode;

	do {
		if (aw_need_thp_mode(p, &mode))
			return -1;
		bits |= 1u << mode;
	} while (aw_peek(p));
	p->modes = true;
	p->sc->cfg.thp_modes = bits;
	return 0;
}

static int aw_h_swap(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint64_t v;

	if (aw_need_num(p, "a swap size", true, &v, &t))
		return -1;
	if (v % AW_PAGE_SIZE)
		return aw_fail(p, p->line, t->col, "swap %s is not a multiple of 4K", AW_Q(t));
	p->sc->cfg.swap_bytes = v;
	return aw_done(p);
}

static int aw_h_mmap_base(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint64_t v;

	if (aw_need_fixed(p, "an address", &v, &t))
		return -1;
	p->sc->cfg.mmap_base = v;
	return aw_done(p);
}

static int aw_h_layout(struct aw_parser *p)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "standard|small", &t))
		return -1;
	i = aw_lookup(t, aw_layout_names, AW_LAYOUT_NR);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected standard|small, not '%s'", AW_Q(t));
	p->sc->cfg.layout = (enum aw_layout)i;
	return aw_done(p);
}

/* `kernel 6.1|6.12|mainline`: whose MGLRU rules the model follows */
static int aw_h_kernel(struct aw_parser *p)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "6.1|6.12|mainline", &t))
		return -1;
	i = aw_lookup(t, aw_kernel_profile_names, AW_KERNEL_NR);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected 6.1|6.12|mainline, not '%s'", AW_Q(t));
	p->sc->cfg.kernel = (enum aw_kernel_profile)i;
	return aw_done(p);
}

/* `khugepaged_rev seed|v8`: which revision of the khugepaged series is patched in */
static int aw_h_khugepaged_rev(struct aw_parser *p)
{
	static const char *const revs[] = { "seed", "v8" };
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "seed|v8", &t))
		return -1;
	i = aw_lookup(t, revs, 2);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected seed|v8, not '%s'", AW_Q(t));
	p->sc->cfg.khugepaged_rev = (uint8_t)i;
	return aw_done(p);
}

/* `khugepaged_prctl_enter on|off`: prctl(PR_SET_THP_DISABLE, 0) registers the mm */
static int aw_h_khugepaged_prctl_enter(struct aw_parser *p)
{
	static const char *const onoff[] = { "off", "on" };
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "on|off", &t))
		return -1;
	i = aw_lookup(t, onoff, 2);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected on|off, not '%s'", AW_Q(t));
	p->sc->cfg.khugepaged_prctl_enter = i;
	return aw_done(p);
}

/* `region NAME`: declare a region id before (or without) its mmap */
static int aw_h_region(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint32_t id;

	if (aw_need(p, "a region name", &t) || aw_name_tok(p, t, "region"))
		return -1;
	if (!aw_find_region(p, t->s, (size_t)t->len) && aw_add_region(p, t, &id))
		return -1;
	return aw_done(p);
}

static int aw_h_skip_empty(struct aw_parser *p)
{
	uint64_t v;

	if (aw_need_int(p, "skip_empty", 1, 64, &v))
		return -1;
	p->sc->cfg.skip_empty = (int)v;
	return aw_done(p);
}

/* empty_contract place=... empty=... clock=... clear=... (contract.h) */
static int aw_h_empty_contract(struct aw_parser *p)
{
	char text[256] = "", msg[300];
	size_t used = 0;
	const struct aw_tok *t;
	int col = p->kw->col;

	while ((t = aw_next(p))) {
		if (used + (size_t)t->len + 2 > sizeof(text))
			return aw_fail(p, p->line, t->col, "empty_contract: line too long");
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%.*s", used ? " " : "", t->len, t->s);
	}
	if (aw_empty_contract_parse(text, ' ', &p->sc->cfg.empty, msg, sizeof(msg)))
		return aw_fail(p, p->line, col, "%s", msg);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Processes                                                          */
/* ------------------------------------------------------------------ */

/*
 * `proc` may name an existing process: that starts a new process under the
 * old id (the name is reused after an exit).
 */
static int aw_h_proc(struct aw_parser *p)
{
	static const char *const opts[] = { "cpu", "memcg", "nolayout", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	int r = 0;

	aw_ev_init(&ev, AW_EV_PROC);
	if (aw_def_proc(p, &ev.pid))
		return -1;
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0: r = aw_need_cpu(p, &ev.cpu); break;
		case 1: r = aw_need_memcg(p, &ev.memcg); break;
		case 2: ev.flags |= AW_PROC_NOLAYOUT; break;
		default: return -1;
		}
	}
	if (r)
		return -1;
	if (!(seen & 1))
		aw_ref(&p->cpu_ref[0], p->line, p->kw->col);
	return aw_emit(p, &ev);
}

static int aw_h_fork(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (aw_need_proc(p, &ev.pid) || aw_def_proc(p, &ev.pid2))
		return -1;
	if (ev.pid2 == ev.pid)
		return aw_fail(p, p->line, p->tok[2].col, "a process cannot be its own child");
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

/* exec, exit: just the process. */
static int aw_h_pid(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (aw_need_proc(p, &ev.pid) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_run(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_RUN);
	ev.cpu = AW_CPU_CURRENT;
	if (aw_need_proc(p, &ev.pid))
		return -1;
	t = aw_next(p);
	if (t && !aw_teq(t, "cpu"))
		return aw_unexpected(p, t);
	if (t && aw_need_cpu(p, &ev.cpu))
		return -1;
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Mappings                                                           */
/* ------------------------------------------------------------------ */

/* `none`, or r, w, x in that order (r, rw, rx, rwx, ...). */
static int aw_need_prot(struct aw_parser *p, uint32_t *prot)
{
	const struct aw_tok *t;
	size_t l;
	int i = 0;

	if (aw_need(p, "a protection (none, r, rw, rx, rwx)", &t))
		return -1;
	*prot = AW_PROT_NONE;
	if (aw_teq(t, "none"))
		return 0;
	for (l = 0; l < AW_ARRAY_SIZE(aw_prot_letters); l++) {
		if (i < t->len && t->s[i] == aw_prot_letters[l].c) {
			*prot |= aw_prot_letters[l].bit;
			i++;
		}
	}
	if (!i || i != t->len)
		return aw_fail(p, p->line, t->col,
			       "bad protection '%s' (none, r, rw, rx, rwx)", AW_Q(t));
	return 0;
}

static int aw_map_flag(const struct aw_tok *t)
{
	size_t i;

	for (i = 0; i < AW_ARRAY_SIZE(aw_map_flags); i++)
		if (aw_teq(t, aw_map_flags[i].name))
			return aw_map_flags[i].flag;
	return 0;
}

/* The mmap options after SIZE: `at ADDR`, flags and `prot P`. */
static int aw_mmap_opts(struct aw_parser *p, struct aw_event *ev)
{
	static const char *const opts[] = { "at", "prot", NULL };
	const struct aw_tok *t, *at = NULL;
	unsigned int seen = 0;
	int flag, r = 0;

	while (!r && (t = aw_next(p))) {
		flag = aw_map_flag(t);
		if (flag && (ev->flags & flag))
			return aw_fail(p, p->line, t->col, "'%s' given twice", AW_Q(t));
		ev->flags |= (uint8_t)flag;
		if (flag)
			continue;
		switch (aw_opt(p, t, opts, &seen)) {
		case 0: r = aw_need_fixed(p, "an address after 'at'", &ev->addr2, &at); break;
		case 1: r = aw_need_prot(p, &ev->arg); break;
		default: return -1;
		}
	}
	if (r || (at && aw_range_ok(p, at, ev->addr2, ev->len)))
		return -1;
	/* Each pair is exclusive in the kernel: the later madvise wins. */
	if ((ev->flags & AW_MAP_HUGEPAGE) && (ev->flags & AW_MAP_NOHUGEPAGE))
		return aw_fail(p, p->line, p->kw->col,
			       "'hugepage' and 'nohugepage' exclude each other");
	if ((ev->flags & AW_MAP_SEQ_READ) && (ev->flags & AW_MAP_RAND_READ))
		return aw_fail(p, p->line, p->kw->col,
			       "'seqread' and 'randread' exclude each other");
	return 0;
}

static int aw_h_mmap(struct aw_parser *p)
{
	const struct aw_tok *rt, *t;
	struct aw_event ev;
	uint32_t id = 0;

	aw_ev_init(&ev, AW_EV_MMAP);
	ev.arg = AW_PROT_DEFAULT;
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "a region name or '-'", &rt) ||
	    (!aw_teq(rt, "-") && aw_name_tok(p, rt, "region")) ||
	    aw_need_len(p, "mmap length", true, &ev.len, &t) || aw_mmap_opts(p, &ev))
		return -1;
	if (!aw_teq(rt, "-")) {
		id = aw_find_region(p, rt->s, (size_t)rt->len);
		if (!id && aw_add_region(p, rt, &id))
			return -1;
		/* A later mmap of the same name redefines the region. */
		p->region_len[id - 1] = ev.len;
	}
	ev.region = (uint16_t)id;
	return aw_emit(p, &ev);
}

/* munmap, and the shared start of mprotect, mbind, madvise, migrate. */
static int aw_proc_target(struct aw_parser *p, struct aw_event *ev)
{
	aw_ev_init(ev, p->kind);
	return aw_need_proc(p, &ev->pid) || aw_target(p, ev) ? -1 : 0;
}

static int aw_h_munmap(struct aw_parser *p)
{
	struct aw_event ev;

	if (aw_proc_target(p, &ev) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

/*
 * `mremap NAME REGION NEWSIZE [at ADDR]` moves or resizes the whole region;
 * `mremap NAME ADDR len OLDSIZE NEWSIZE [at ADDR]` is the absolute form the
 * writer needs for mappings that have no name.
 */
static int aw_h_mremap(struct aw_parser *p)
{
	const struct aw_tok *t, *nt, *at = NULL;
	struct aw_event ev;
	uint32_t id = 0;

	aw_ev_init(&ev, AW_EV_MREMAP);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "a region name or an address", &t))
		return -1;
	if (aw_isdigit(t->s[0])) {
		if (aw_target_abs(p, t, &ev))
			return -1;
	} else {
		if (aw_region(p, t, &id))
			return -1;
		ev.region = (uint16_t)id;
		ev.len = p->region_len[id - 1];
	}
	if (aw_need_len(p, "new length", true, &ev.stride, &nt))
		return -1;
	t = aw_next(p);
	if (t && !aw_teq(t, "at"))
		return aw_unexpected(p, t);
	if (t && (aw_need_fixed(p, "an address after 'at'", &ev.addr2, &at) ||
		  aw_range_ok(p, at, ev.addr2, ev.stride)))
		return -1;
	if (aw_done(p))
		return -1;
	if (id)
		p->region_len[id - 1] = ev.stride;
	return aw_emit(p, &ev);
}

static int aw_h_mprotect(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "prot"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "mprotect needs 'prot none|r|rw|rx|rwx'");
	if (aw_need_prot(p, &ev.arg) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_brk(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	struct aw_tok size;

	aw_ev_init(&ev, AW_EV_BRK);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "+SIZE or -SIZE", &t))
		return -1;
	if (t->s[0] != '+' && t->s[0] != '-')
		return aw_fail(p, p->line, t->col, "expected +SIZE or -SIZE, not '%s'",
			       AW_Q(t));
	if (t->s[0] == '-')
		ev.flags |= AW_BRK_SHRINK;
	size.s = t->s + 1;
	size.len = t->len - 1;
	size.col = t->col + 1;
	if (aw_num(p, &size, true, &ev.len) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Policy, access, advice, migration, memcg, prctl                    */
/* ------------------------------------------------------------------ */

/*
 * `node N` and at most one of bind|preferred|default; the mode defaults to
 * bind.  Returns the seen bits (1 = node) or -1.
 */
static int aw_policy_opts(struct aw_parser *p, struct aw_event *ev)
{
	static const char *const opts[] = { "node", "bind", "preferred", "default", NULL };
	const struct aw_tok *t;
	unsigned int seen = 0;
	int i;

	ev->arg = AW_MPOL_BIND;
	while ((t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0 || (i == 0 && aw_need_node(p, &ev->node)))
			return -1;
		if (i == 0)
			continue;
		if (seen & ~(1u | (1u << i)))
			return aw_fail(p, p->line, t->col,
				       "only one of bind, preferred or default");
		ev->arg = (uint32_t)aw_lookup(t, aw_mpol_names, AW_MPOL_NR);
	}
	return (int)seen;
}

static int aw_h_mbind(struct aw_parser *p)
{
	struct aw_event ev;
	int seen;

	if (aw_proc_target(p, &ev))
		return -1;
	seen = aw_policy_opts(p, &ev);
	if (seen < 0)
		return -1;
	if (!(seen & 1))
		return aw_fail(p, p->line, p->kw->col, "mbind needs 'node N'");
	return aw_emit(p, &ev);
}

static int aw_h_set_mempolicy(struct aw_parser *p)
{
	struct aw_event ev;
	int seen;

	aw_ev_init(&ev, AW_EV_SET_MEMPOLICY);
	if (aw_need_proc(p, &ev.pid))
		return -1;
	seen = aw_policy_opts(p, &ev);
	if (seen < 0)
		return -1;
	if (!(seen & 1) && ev.arg != AW_MPOL_DEFAULT)
		return aw_fail(p, p->line, p->kw->col,
			       "set_mempolicy needs 'node N' or 'default'");
	return aw_emit(p, &ev);
}

static int aw_h_access(struct aw_parser *p)
{
	static const char *const opts[] = { "stride", "repeat", "cpu", "resident", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	uint64_t v;
	int r = 0;

	if (aw_proc_target(p, &ev))
		return -1;
	ev.flags |= p->kw_flags;	/* `write` */
	ev.cpu = AW_CPU_CURRENT;
	ev.repeat = 1;
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0:
			r = aw_need_num(p, "a stride", true, &ev.stride, &t);
			if (!r && ev.stride % AW_PAGE_SIZE)
				r = aw_fail(p, p->line, t->col,
					    "stride %s is not a multiple of 4K", AW_Q(t));
			break;
		case 1:
			r = aw_need_int(p, "repeat", 1, AW_MAX_REPEAT, &v);
			ev.repeat = r ? 0 : (uint32_t)v;
			break;
		case 2: r = aw_need_cpu(p, &ev.cpu); break;
		case 3: ev.flags |= AW_ACC_RESIDENT; break;	/* no value: a flag */
		default: return -1;
		}
	}
	return r ? -1 : aw_emit(p, &ev);
}

/* The one keyword of a fixed set that ends a line; stored in *arg. */
static int aw_need_word(struct aw_parser *p, const char *what, const char *const names[],
			int nr, uint32_t *arg)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, what, &t))
		return -1;
	i = aw_lookup(t, names, nr);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected %s, not '%s'", what, AW_Q(t));
	*arg = (uint32_t)i;
	return aw_done(p);
}

static int aw_h_madvise(struct aw_parser *p)
{
	struct aw_event ev;

	if (aw_proc_target(p, &ev) ||
	    aw_need_word(p, "free|dontneed|cold|pageout|hugepage|nohugepage|collapse",
			 aw_madv_names, AW_MADV_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_migrate(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "node"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "migrate needs 'node N'");
	if (aw_need_node(p, &ev.node) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_limit(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_MEMCG_LIMIT);
	t = aw_next(p);
	if (!aw_teq(t, "memcg"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "expected 'limit memcg M SIZE|max'");
	t = aw_peek(p);
	if (aw_need_memcg(p, &ev.memcg))
		return -1;
	if (!ev.memcg)
		return aw_fail(p, p->line, t->col, "the root memcg (0) has no limit");
	if (aw_need_limit(p, &ev.len) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_memcg_move(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_MEMCG_MOVE);
	if (aw_need_proc(p, &ev.pid) || aw_need_memcg(p, &ev.memcg) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_prctl(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_PRCTL_THP);
	if (aw_need_proc(p, &ev.pid) ||
	    aw_need_word(p, "thp_disable|thp_disable_except_advised|thp_enable",
			 aw_prctl_names, AW_THP_DISABLE_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Reclaim, khugepaged, contention, time, samples                     */
/* ------------------------------------------------------------------ */

/*
 * The options of age, age_begin, age_step, age_end and evict, in any order;
 * `allowed` is the bit set of AW_RO_* the keyword takes.  node is required
 * by all of them.
 */
static int aw_reclaim_opts(struct aw_parser *p, struct aw_event *ev, unsigned int allowed)
{
	static const char *const opts[] = {	/* indexed by AW_RO_* */
		"node", "memcg", "force", "swappiness", "nr", "direct", "lost", NULL
	};
	const struct aw_tok *t;
	unsigned int seen = 0;
	uint64_t v;
	int i, r = 0;

	while (!r && (t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (!(allowed & (1u << i)))
			return aw_unexpected(p, t);
		switch (i) {
		case AW_RO_NODE: r = aw_need_node(p, &ev->node); break;
		case AW_RO_MEMCG: r = aw_need_memcg(p, &ev->memcg); break;
		case AW_RO_FORCE:
			r = aw_need_int(p, "force", 0, 1, &v);
			ev->flags |= !r && v ? AW_AGE_FORCE : 0;
			break;
		case AW_RO_SWAPPINESS:
			r = aw_need_int(p, "swappiness", 0, AW_SWAPPINESS_MAX, &v);
			ev->swappiness = r ? 0 : (uint16_t)v;
			break;
		case AW_RO_NR: r = aw_need_num(p, "a page count", true, &ev->len, &t); break;
		case AW_RO_DIRECT: ev->flags |= AW_EVICT_DIRECT; break;
		case AW_RO_LOST: ev->flags |= AW_AGE_LOST; break;	/* a replayed trace's mark */
		}
	}
	if (r)
		return -1;
	if (!(seen & AW_RO(NODE)))
		return aw_fail(p, p->line, p->kw->col, "%s needs 'node N'", AW_Q(p->kw));
	/* The kernel's debugfs interface silently forces a scan when unsaid. */
	if ((allowed & AW_RO(FORCE)) && !(seen & AW_RO(FORCE)))
		return aw_fail(p, p->line, p->kw->col,
			       "%s needs 'force 0' or 'force 1' (debugfs defaults force_scan to 1)",
			       AW_Q(p->kw));
	return 0;
}

static int aw_h_reclaim(struct aw_parser *p)
{
	unsigned int allowed = aw_reclaim_allowed[p->kind];
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (allowed & AW_RO(SWAPPINESS))
		ev.swappiness = AW_SWAPPINESS_DEFAULT;
	if (aw_reclaim_opts(p, &ev, allowed))
		return -1;
	return aw_emit(p, &ev);
}

/* khugepaged set KNOB VALUE: a sysfs store, range-checked by the model */
static int aw_kh_set(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "pages_to_scan|max_ptes_none|max_ptes_swap|max_ptes_shared", &t))
		return -1;
	i = aw_lookup(t, aw_kh_knob_names, AW_KH_KNOB_NR);
	if (i <= 0)
		return aw_fail(p, p->line, t->col,
			       "expected pages_to_scan, max_ptes_none, max_ptes_swap or max_ptes_shared, not '%s'",
			       AW_Q(t));
	ev->arg = (uint32_t)i;
	if (aw_need_num(p, "a value", false, &ev->len, &t))
		return -1;
	return aw_done(p) ? -1 : aw_emit(p, ev);
}

/* khugepaged [pages N] [times N | full N] | khugepaged set KNOB VALUE */
static int aw_h_khugepaged(struct aw_parser *p)
{
	static const char *const opts[] = { "pages", "times", "full", "set", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	uint64_t v;
	int i;

	aw_ev_init(&ev, AW_EV_KHUGEPAGED);
	while ((t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (i == 3) {
			if (seen != 1u << 3)
				return aw_unexpected(p, t);
			return aw_kh_set(p, &ev);
		}
		if (i == 0) {
			if (aw_need_num(p, "a page count", true, &ev.len, &t))
				return -1;
			if (!ev.len || ev.len > UINT32_MAX)
				return aw_fail(p, p->line, t->col, "pages must be 1..4294967295, not %s", AW_Q(t));
			continue;
		}
		if ((seen & 6) == 6)
			return aw_fail(p, p->line, t->col, "'times' and 'full' exclude each other");
		if (aw_need_int(p, i == 1 ? "times" : "full", 1, AW_KH_MAX_WAKEUPS, &v))
			return -1;
		/*
		 * One wake-up is repeat 0, as without `times`: the writer prints
		 * both as a plain `khugepaged` (src/event/fuzzin.c agrees).
		 */
		ev.repeat = i == 1 && v == 1 ? 0 : (uint32_t)v;
		ev.flags |= i == 2 ? AW_KH_FULL : 0;
	}
	return aw_emit(p, &ev);
}

static int aw_h_contend(struct aw_parser *p)
{
	struct aw_event ev;
	const struct aw_tok *t;
	int i;

	aw_ev_init(&ev, AW_EV_CONTEND);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "mmap or ptl", &t))
		return -1;
	i = aw_lookup(t, aw_lock_names, AW_LOCK_NR);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected mmap or ptl, not '%s'", AW_Q(t));
	ev.arg = (uint32_t)i;
	if (aw_need(p, "on or off", &t))
		return -1;
	i = aw_lookup(t, aw_onoff_names, 2);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected on or off, not '%s'", AW_Q(t));
	ev.flags = i ? AW_CONTEND_ON : 0;
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

static int aw_h_time(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	int r;

	aw_ev_init(&ev, AW_EV_TIME);
	if (aw_need(p, "a duration like +500ms", &t))
		return -1;
	r = aw_parse_duration(t->s, (size_t)t->len, &ev.len);
	if (r == -2)
		return aw_fail(p, p->line, t->col, "duration '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col,
			       "bad duration '%s' (like +500ms; units ns, us, ms, s)", AW_Q(t));
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

static int aw_h_sample(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	uint32_t id;

	aw_ev_init(&ev, AW_EV_SAMPLE);
	if (aw_need(p, "a region name", &t) || aw_region(p, t, &id) || aw_done(p))
		return -1;
	ev.region = (uint16_t)id;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* repeat N { ... }                                                   */
/* ------------------------------------------------------------------ */

static int aw_h_repeat(struct aw_parser *p)
{
	const struct aw_tok *t, *brace;
	struct aw_block *b;
	uint64_t n;

	t = aw_peek(p);
	if (aw_need_int(p, "repeat count", 1, AW_MAX_REPEAT, &n))
		return -1;
	if (aw_need(p, "'{' after the repeat count", &brace))
		return -1;
	if (!aw_teq(brace, "{"))
		return aw_fail(p, p->line, brace->col, "expected '{', not '%s'", AW_Q(brace));
	if (aw_done(p))
		return -1;
	if (p->depth == AW_MAX_DEPTH)
		return aw_fail(p, p->line, p->kw->col,
			       "repeat blocks nested deeper than %d", AW_MAX_DEPTH);
	b = &p->block[p->depth++];
	b->first = p->sc->nr_events;
	b->count = n;
	b->left = n - 1;
	b->body = p->next;
	b->line = p->line;
	b->col = brace->col;
	b->count_col = t->col;
	b->again = false;
	return 0;
}

/*
 * At the end of a block's first pass, check that the remaining passes stay
 * within the limits, counting both the events they will add and the text
 * they will read again: a block of comments has no events but still costs
 * time on every pass.  A block without events is not run again at all,
 * since its directives and expectations take effect once anyway.
 */
static int aw_block_plan(struct aw_parser *p, struct aw_block *b)
{
	size_t n = p->sc->nr_events - b->first;
	uint64_t bytes = (uint64_t)(p->text - p->base) - b->body;

	if (!n) {
		b->left = 0;
		return 0;
	}
	if (b->left > (AW_MAX_EVENTS - p->sc->nr_events) / n)
		return aw_fail(p, b->line, b->count_col,
			       "repeat expands to more than %llu events", AW_MAX_EVENTS);
	if (bytes && b->left > (AW_MAX_REPLAY - p->replay) / bytes)
		return aw_fail(p, b->line, b->count_col,
			       "repeat expands to more than %llu MiB of text",
			       AW_MAX_REPLAY >> 20);
	p->replay += bytes * b->left;
	return 0;
}

/* Go back to the start of the block, or leave it after its last pass. */
static int aw_h_close(struct aw_parser *p)
{
	struct aw_block *b;

	if (aw_done(p))
		return -1;
	if (!p->depth)
		return aw_fail(p, p->line, p->kw->col, "'}' without a matching 'repeat N {'");
	b = &p->block[p->depth - 1];
	if (!b->again && aw_block_plan(p, b))
		return -1;
	if (b->left) {
		b->left--;
		if (!b->again)
			p->again++;
		b->again = true;
		p->next = b->body;
		p->line = b->line;
		return 0;
	}
	if (b->again)
		p->again--;
	p->depth--;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lines and the end of the file                                      */
/* ------------------------------------------------------------------ */

typedef int (*aw_handler_t)(struct aw_parser *p);

/*
 * Keywords of kind AW_EV_NONE other than `repeat` and `}` are header
 * directives or expectations: on the later passes of a repeat block they
 * are skipped, so that `memcg 1` is not declared twice, nor an `expect`
 * checked N times.
 *
 * Read backwards by aw_aws_keyword(), an event's keyword is the first
 * entry of its kind whose flags the event has: `write` therefore comes
 * before `read`.
 */
static const struct aw_keyword {
	const char *name;
	aw_handler_t fn;
	int kind;
	uint8_t flags;		/* event flags the keyword implies */
} aw_keywords[] = {
	{ "topology",		aw_h_topology,		AW_EV_NONE,		0 },
	{ "node",		aw_h_node,		AW_EV_NONE,		0 },
	{ "memcg",		aw_h_memcg,		AW_EV_NONE,		0 },
	{ "thp",		aw_h_thp,		AW_EV_NONE,		0 },
	{ "modes",		aw_h_modes,		AW_EV_NONE,		0 },
	{ "swap",		aw_h_swap,		AW_EV_NONE,		0 },
	{ "mmap_base",		aw_h_mmap_base,		AW_EV_NONE,		0 },
	{ "skip_empty",		aw_h_skip_empty,	AW_EV_NONE,		0 },
	{ "empty_contract",	aw_h_empty_contract,	AW_EV_NONE,		0 },
	{ "layout",		aw_h_layout,		AW_EV_NONE,		0 },
	{ "kernel",		aw_h_kernel,		AW_EV_NONE,		0 },
	{ "khugepaged_rev",	aw_h_khugepaged_rev,	AW_EV_NONE,		0 },
	{ "khugepaged_prctl_enter", aw_h_khugepaged_prctl_enter, AW_EV_NONE,	0 },
	{ "region",		aw_h_region,		AW_EV_NONE,		0 },
	{ "proc",		aw_h_proc,		AW_EV_PROC,		0 },
	{ "fork",		aw_h_fork,		AW_EV_FORK,		0 },
	{ "vfork",		aw_h_fork,		AW_EV_VFORK,		0 },
	{ "thread",		aw_h_fork,		AW_EV_THREAD,		0 },
	{ "exec",		aw_h_pid,		AW_EV_EXEC,		0 },
	{ "exit",		aw_h_pid,		AW_EV_EXIT,		0 },
	{ "run",		aw_h_run,		AW_EV_RUN,		0 },
	{ "mmap",		aw_h_mmap,		AW_EV_MMAP,		0 },
	{ "munmap",		aw_h_munmap,		AW_EV_MUNMAP,		0 },
	{ "mremap",		aw_h_mremap,		AW_EV_MREMAP,		0 },
	{ "mprotect",		aw_h_mprotect,		AW_EV_MPROTECT,		0 },
	{ "brk",		aw_h_brk,		AW_EV_BRK,		0 },
	{ "mbind",		aw_h_mbind,		AW_EV_MBIND,		0 },
	{ "set_mempolicy",	aw_h_set_mempolicy,	AW_EV_SET_MEMPOLICY,	0 },
	{ "write",		aw_h_access,		AW_EV_ACCESS,		AW_ACC_WRITE },
	{ "read",		aw_h_access,		AW_EV_ACCESS,		0 },
	{ "madvise",		aw_h_madvise,		AW_EV_MADVISE,		0 },
	{ "migrate",		aw_h_migrate,		AW_EV_MIGRATE,		0 },
	{ "limit",		aw_h_limit,		AW_EV_MEMCG_LIMIT,	0 },
	{ "memcg_move",		aw_h_memcg_move,	AW_EV_MEMCG_MOVE,	0 },
	{ "prctl",		aw_h_prctl,		AW_EV_PRCTL_THP,	0 },
	{ "age",		aw_h_reclaim,		AW_EV_AGE,		0 },
	{ "age_begin",		aw_h_reclaim,		AW_EV_AGE_BEGIN,	0 },
	{ "age_step",		aw_h_reclaim,		AW_EV_AGE_STEP,		0 },
	{ "age_end",		aw_h_reclaim,		AW_EV_AGE_END,		0 },
	{ "evict",		aw_h_reclaim,		AW_EV_EVICT,		0 },
	{ "khugepaged",		aw_h_khugepaged,	AW_EV_KHUGEPAGED,	0 },
	{ "contend",		aw_h_contend,		AW_EV_CONTEND,		0 },
	{ "time",		aw_h_time,		AW_EV_TIME,		0 },
	{ "sample",		aw_h_sample,		AW_EV_SAMPLE,		0 },
	{ "repeat",		aw_h_repeat,		AW_EV_NONE,		0 },
	{ "}",			aw_h_close,		AW_EV_NONE,		0 },
	{ "expect",		aw_h_expect,		AW_EV_NONE,		0 },
};


static int aw_line(struct aw_parser *p)
{
	size_t i;

	if (aw_tokenize(p))
		return -1;
	if (!p->ntok)
		return 0;
	p->kw = aw_next(p);
	for (i = 0; i < AW_ARRAY_SIZE(aw_keywords); i++) {
		const struct aw_keyword *k = &aw_keywords[i];

		if (!aw_teq(p->kw, k->name))
			continue;
		if (p->again && k->kind == AW_EV_NONE && k->fn != aw_h_repeat &&
		    k->fn != aw_h_close)
			return 0;
		p->kind = k->kind;
		p->kw_flags = k->flags;
		return k->fn(p);
	}
	return aw_fail(p, p->line, p->kw->col, "unknown keyword '%s'", AW_Q(p->kw));
}

const char *aw_aws_keyword(const struct aw_event *ev)
{
	size_t i;

	for (i = 0; ev->kind != AW_EV_NONE && i < AW_ARRAY_SIZE(aw_keywords); i++) {
		const struct aw_keyword *k = &aw_keywords[i];

		if (k->kind == ev->kind && (ev->flags & k->flags) == k->flags)
			return k->name;
	}
	return NULL;
}

static int aw_check_refs(struct aw_parser *p)
{
	const struct aw_config *cfg = &p->sc->cfg;
	uint64_t cpus = 0;
	int i;

	for (i = 0; i < cfg->nr_nodes; i++)
		cpus |= cfg->node[i].cpu_mask;
	for (i = 0; i < AW_MAX_NODES; i++)
		if (p->node_ref[i].line && i >= cfg->nr_nodes)
			return aw_fail(p, p->node_ref[i].line, p->node_ref[i].col,
				       "node %d does not exist (%d node%s)", i,
				       cfg->nr_nodes, cfg->nr_nodes == 1 ? "" : "s");
	for (i = 0; i < AW_MAX_CPUS; i++)
		if (p->cpu_ref[i].line && !(cpus & (1ull << i)))
			return aw_fail(p, p->cpu_ref[i].line, p->cpu_ref[i].col,
				       "cpu %d is not on any node", i);
	for (i = 1; i < AW_MAX_MEMCGS; i++)
		if (p->memcg_ref[i].line && !(p->memcg_declared & (1u << i)))
			return aw_fail(p, p->memcg_ref[i].line, p->memcg_ref[i].col,
				       "memcg %d is not declared (add a 'memcg %d' line)", i, i);
	return 0;
}

static int aw_finish(struct aw_parser *p)
{
	struct aw_scenario *sc = p->sc;
	int i;

	if (p->depth)
		return aw_fail(p, p->block[p->depth - 1].line, p->block[p->depth - 1].col,
			       "'{' is never closed");
	for (i = 0; i < sc->nr_expects; i++) {
		const struct aw_fixup *f = &p->fixup[i];

		if (!f->name[0])
			continue;
		sc->expects[i].region = (int)aw_find_region(p, f->name, strlen(f->name));
		if (!sc->expects[i].region)
			return aw_fail(p, sc->expects[i].line, f->col,
				       "undefined region '%s'", f->name);
	}
	if (aw_check_refs(p))
		return -1;
	if (!p->modes)
		sc->cfg.thp_modes = 1u << sc->cfg.thp;
	return 0;
}

static int aw_parse(struct aw_parser *p, const char *text, size_t len)
{
	p->base = text;
	while (p->next < len) {
		size_t i = p->next;
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		p->line++;
		p->text = text + i;
		p->textlen = (int)(end - i);
		/* A closing brace may move this back to the top of its block. */
		p->next = end + 1;
		if (aw_line(p))
			return -1;
	}
	return aw_finish(p);
}

static int aw_parse_text(const char *name, const char *text, size_t len,
			 struct aw_scenario *sc, char *err, size_t errlen)
{
	struct aw_parser p;
	int r;

	memset(&p, 0, sizeof(p));
	p.file = name;
	p.sc = sc;
	p.err = err;
	p.errlen = errlen;
	if (len > AW_MAX_TEXT)
		r = aw_fail(&p, 0, 0, "input larger than %u MiB", AW_MAX_TEXT >> 20);
	else if (!(sc->path = strdup(name)))
		r = aw_fail(&p, 0, 0, "out of memory");
	else
		r = aw_parse(&p, text, len);
	free(p.procs.slot);
	free(p.regions.slot);
	free(p.region_len);
	free(p.fixup);
	if (r)
		aw_scenario_free(sc);
	return r;
}

/*
 * The scenario is (re)initialised here, not freed: pass a fresh or freed
 * one.  On failure it is left empty, so freeing it is always safe.
 */
int aw_aws_parse_string(const char *name, const char *text, struct aw_scenario *sc,
			char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	aw_scenario_init(sc);
	if (!name)
		name = "<string>";
	if (!text)
		return aw_errf(err, errlen, name, 0, 0, "no text");
	return aw_parse_text(name, text, strlen(text), sc, err, errlen);
}

static int aw_read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 0, n;

	*buf = NULL;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			char *nb;

			if (cap > AW_MAX_TEXT) {
				errno = EFBIG;
				return -1;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(*buf, cap);
			if (!nb)
				return -1;
			*buf = nb;
		}
		n = fread(*buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			return ferror(f) ? -1 : 0;
	}
}

/* A NUL would end the text early and silently: report where it is. */
static int aw_check_nul(const char *path, const char *buf, size_t len, char *err,
			size_t errlen)
{
	const char *nul = memchr(buf, '\0', len);
	const char *s;
	int line = 1;
	const char *bol = buf;

	if (!nul)
		return 0;
	for (s = buf; s < nul; s++) {
		if (*s == '\n') {
			line++;
			bol = s + 1;
		}
	}
	return aw_errf(err, errlen, path, line, (int)(nul - bol) + 1, "NUL byte in input");
}

int aw_aws_parse_file(const char *path, struct aw_scenario *sc, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t len;
	int r;

	if (err && errlen)
		err[0] = '\0';
	aw_scenario_init(sc);
	if (!path)
		return aw_errf(err, errlen, "<null>", 0, 0, "no file name");
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return aw_errf(err, errlen, path, 0, 0, "cannot open: %s", strerror(errno));
	r = aw_read_all(f, &buf, &len);
	if (r)
		aw_errf(err, errlen, path, 0, 0, "cannot read: %s", strerror(errno));
	if (f != stdin)
		fclose(f);
	if (!r)
		r = aw_check_nul(path, buf, len, err, errlen);
	if (!r)
		r = aw_parse_text(path, buf, len, sc, err, errlen);
	free(buf);
	return r;
}
