/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws lines that act on memory already mapped: mbind and
 * set_mempolicy, read and write (the accesses), madvise, migrate, the
 * memcg's limit and memcg_move, and prctl (PR_SET_THP_DISABLE).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

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

int aw_h_mbind(struct aw_parser *p)
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

int aw_h_set_mempolicy(struct aw_parser *p)
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

/*
 * The options after an access's TARGET until the end of the line: opts[]
 * is a prefix of the memory access's { repeat, stride, cpu, resident },
 * so that a pread/pwrite line takes `repeat` the same way and nothing else.
 */
static int aw_access_opts(struct aw_parser *p, struct aw_event *ev, const char *const opts[])
{
	const struct aw_tok *t;
	unsigned int seen = 0;
	uint64_t v;
	int r = 0;

	ev->repeat = 1;
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0:
			r = aw_need_int(p, "repeat", 1, AW_MAX_REPEAT, &v);
			ev->repeat = r ? 0 : (uint32_t)v;
			break;
		case 1:
			r = aw_need_num(p, "a stride", true, &ev->stride, &t);
			if (!r && ev->stride % AW_PAGE_SIZE)
				r = aw_fail(p, p->line, t->col,
					    "stride %s is not a multiple of 4K", AW_Q(t));
			break;
		case 2: r = aw_need_cpu(p, &ev->cpu); break;
		case 3: ev->flags |= AW_ACC_RESIDENT; break;	/* no value: a flag */
		default: return -1;
		}
	}
	return r;
}

int aw_h_access(struct aw_parser *p)
{
	static const char *const opts[] = { "repeat", "stride", "cpu", "resident", NULL };
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	ev.flags |= p->kw_flags;	/* `write` */
	ev.cpu = AW_CPU_CURRENT;
	return aw_access_opts(p, &ev, opts) ? -1 : aw_emit(p, &ev);
}

/*
 * `pread NAME TARGET [repeat N]`, `pwrite ...`: N calls of pread(2)/pwrite(2)
 * of the file range TARGET (a file-backed region) through its descriptor.
 */
int aw_h_fdio(struct aw_parser *p)
{
	static const char *const opts[] = { "repeat", NULL };
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	ev.flags |= p->kw_flags;	/* `pwrite` */
	return aw_access_opts(p, &ev, opts) ? -1 : aw_emit(p, &ev);
}

/* The one keyword of a fixed set that ends a line; stored in *arg. */
static int aw_need_word(struct aw_parser *p, const char *what, const char *const names[],
			int nr, uint32_t *arg)
{
	int i;

	if (aw_need_keyword(p, what, names, nr, &i))
		return -1;
	*arg = (uint32_t)i;
	return aw_done(p);
}

int aw_h_madvise(struct aw_parser *p)
{
	struct aw_event ev;

	if (aw_proc_target(p, &ev) ||
	    aw_need_word(p, "free|dontneed|cold|pageout|hugepage|nohugepage|collapse",
			 aw_madv_names, AW_MADV_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}

int aw_h_migrate(struct aw_parser *p)
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

int aw_h_limit(struct aw_parser *p)
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

int aw_h_memcg_move(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_MEMCG_MOVE);
	if (aw_need_proc(p, &ev.pid) || aw_need_memcg(p, &ev.memcg) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

int aw_h_prctl(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_PRCTL_THP);
	if (aw_need_proc(p, &ev.pid) ||
	    aw_need_word(p, "thp_disable|thp_disable_except_advised|thp_enable",
			 aw_prctl_names, AW_THP_DISABLE_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}
