/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws parser: aw_aws_parse_file() and aw_aws_parse_string().  The
 * grammar is documented in docs/aws-format.md; this file, with aws_lex.c
 * (tokens, numbers, messages), aws_args.c (what the line handlers read),
 * the line handlers by section of the language (aws_header.c,
 * aws_proc.c, aws_mem.c, aws_reclaim.c) and aws_expect.c (`expect` lines),
 * is its only implementation.
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
	/* pwrite before pread: the writer takes the first row whose flags the event has */
	{ "pwrite",		aw_h_fdio,		AW_EV_FDIO,		AW_ACC_WRITE },
	{ "pread",		aw_h_fdio,		AW_EV_FDIO,		0 },
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
