/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws lines of processes and their address spaces: proc, fork,
 * vfork, thread, exec, exit and run; mmap, munmap, mremap, mprotect and
 * brk.  A process or region name is defined by its first use here and keeps
 * its id (aws_args.c); mmap and mremap set the region's length that later
 * lines' ranges are checked against.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Processes                                                          */
/* ------------------------------------------------------------------ */

/*
 * `proc` may name an existing process: that starts a new process under the
 * old id (the name is reused after an exit).
 */
int aw_h_proc(struct aw_parser *p)
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

int aw_h_fork(struct aw_parser *p)
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
int aw_h_pid(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (aw_need_proc(p, &ev.pid) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

int aw_h_run(struct aw_parser *p)
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

int aw_h_mmap(struct aw_parser *p)
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

int aw_h_munmap(struct aw_parser *p)
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
int aw_h_mremap(struct aw_parser *p)
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

int aw_h_mprotect(struct aw_parser *p)
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

int aw_h_brk(struct aw_parser *p)
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
