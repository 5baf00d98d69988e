/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arguments every .aws line handler reads (aws_internal.h): numbers,
 * lengths and fixed addresses from tokens, node, CPU and memcg ids (whose
 * existence is checked at the end of the file, aw_check_refs()), process
 * and region names, and an event's target (a region and an offset, or an
 * absolute address).  Also the two steps every event line ends with:
 * aw_ev_init() and aw_emit().
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Events                                                             */
/* ------------------------------------------------------------------ */

void aw_ev_init(struct aw_event *ev, int kind)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = (uint8_t)kind;
}

int aw_emit(struct aw_parser *p, const struct aw_event *ev)
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

int aw_num(struct aw_parser *p, const struct aw_tok *t, bool suffix, uint64_t *v)
{
	int r = aw_parse_num(t->s, (size_t)t->len, suffix, v);

	if (r == -2)
		return aw_fail(p, p->line, t->col, "number '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col, "bad number '%s'", AW_Q(t));
	return 0;
}

int aw_need_num(struct aw_parser *p, const char *what, bool suffix,
		       uint64_t *v, const struct aw_tok **t)
{
	return aw_need(p, what, t) || aw_num(p, *t, suffix, v) ? -1 : 0;
}

/* A plain integer in [lo, hi], named `what` in messages. */
int aw_need_int(struct aw_parser *p, const char *what, uint64_t lo,
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
int aw_need_len(struct aw_parser *p, const char *what, bool page,
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
int aw_need_fixed(struct aw_parser *p, const char *what, uint64_t *v,
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

int aw_range_ok(struct aw_parser *p, const struct aw_tok *t, uint64_t addr,
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

int aw_need_node(struct aw_parser *p, uint16_t *node)
{
	return aw_need_id(p, "node", AW_MAX_NODES, p->node_ref, node);
}

int aw_need_cpu(struct aw_parser *p, uint16_t *cpu)
{
	return aw_need_id(p, "cpu", AW_MAX_CPUS, p->cpu_ref, cpu);
}

int aw_need_memcg(struct aw_parser *p, uint16_t *memcg)
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
int aw_need_proc(struct aw_parser *p, uint32_t *pid)
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
int aw_def_proc(struct aw_parser *p, uint32_t *pid)
{
	const struct aw_tok *t;

	if (aw_need(p, "a process name", &t) || aw_name_tok(p, t, "process"))
		return -1;
	*pid = aw_find_proc(p, t);
	return *pid ? 0 : aw_add_proc(p, t, pid);
}

uint32_t aw_find_region(struct aw_parser *p, const char *s, size_t len)
{
	return aw_ntab_find(&p->regions, (aw_names_t)p->sc->region_name, s, len);
}

int aw_add_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
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
int aw_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
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

int aw_target_abs(struct aw_parser *p, const struct aw_tok *at,
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

int aw_target(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;

	if (aw_need(p, "a region name or an address", &t))
		return -1;
	if (aw_isdigit(t->s[0]))
		return aw_target_abs(p, t, ev);
	return aw_target_region(p, t, ev);
}

/* munmap, and the shared start of mprotect, mbind, madvise, migrate. */
int aw_proc_target(struct aw_parser *p, struct aw_event *ev)
{
	aw_ev_init(ev, p->kind);
	return aw_need_proc(p, &ev->pid) || aw_target(p, ev) ? -1 : 0;
}

/* `max` (0: no limit) or a size; a zero limit would read as `max`. */
int aw_need_limit(struct aw_parser *p, uint64_t *v)
{
	const struct aw_tok *t = aw_peek(p);

	if (aw_teq(t, "max")) {
		p->pos++;
		*v = 0;
		return 0;
	}
	return aw_need_len(p, "limit (a size or 'max')", false, v, &t);
}
