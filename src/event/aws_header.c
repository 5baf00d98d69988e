/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws header directives (docs/aws-format.md): the machine (topology,
 * node, memcg, swap), THP (thp, modes), address-space layout (mmap_base,
 * layout, region), the kernel release, the khugepaged series' revision and
 * prctl entry, skip_empty and the empty-PMD contract.  They set the
 * scenario's struct aw_config (a region line declares a name), may appear
 * anywhere in the file and, inside a repeat block, take effect once.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

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

int aw_h_topology(struct aw_parser *p)
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

int aw_h_node(struct aw_parser *p)
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

int aw_h_memcg(struct aw_parser *p)
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

int aw_h_thp(struct aw_parser *p)
{
	int mode;

	if (aw_need_thp_mode(p, &mode))
		return -1;
	p->sc->cfg.thp = (enum aw_thp_mode)mode;
	return aw_done(p);
}

int aw_h_modes(struct aw_parser *p)
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

int aw_h_swap(struct aw_parser *p)
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

int aw_h_mmap_base(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint64_t v;

	if (aw_need_fixed(p, "an address", &v, &t))
		return -1;
	p->sc->cfg.mmap_base = v;
	return aw_done(p);
}

int aw_h_layout(struct aw_parser *p)
{
	int i;

	if (aw_need_keyword(p, "standard|small", aw_layout_names, AW_LAYOUT_NR, &i))
		return -1;
	p->sc->cfg.layout = (enum aw_layout)i;
	return aw_done(p);
}

/* `kernel 6.1|6.12|mainline`: whose MGLRU rules the model follows */
int aw_h_kernel(struct aw_parser *p)
{
	int i;

	if (aw_need_keyword(p, AW_KERNEL_RELEASE_WORDS, aw_kernel_profile_names, AW_KERNEL_NR, &i))
		return -1;
	p->sc->cfg.kernel = (enum aw_kernel_profile)i;
	return aw_done(p);
}

/* `khugepaged_rev seed|v8`: which revision of the khugepaged series is patched in */
int aw_h_khugepaged_rev(struct aw_parser *p)
{
	static const char *const revs[] = { "seed", "v8" };
	int i;

	if (aw_need_keyword(p, "seed|v8", revs, 2, &i))
		return -1;
	p->sc->cfg.khugepaged_rev = (uint8_t)i;
	return aw_done(p);
}

/* `khugepaged_prctl_enter on|off`: prctl(PR_SET_THP_DISABLE, 0) registers the mm */
int aw_h_khugepaged_prctl_enter(struct aw_parser *p)
{
	static const char *const onoff[] = { "off", "on" };
	int i;

	if (aw_need_keyword(p, "on|off", onoff, 2, &i))
		return -1;
	p->sc->cfg.khugepaged_prctl_enter = i;
	return aw_done(p);
}

/* `region NAME`: declare a region id before (or without) its mmap */
int aw_h_region(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint32_t id;

	if (aw_need(p, "a region name", &t) || aw_name_tok(p, t, "region"))
		return -1;
	if (!aw_find_region(p, t->s, (size_t)t->len) && aw_add_region(p, t, &id))
		return -1;
	return aw_done(p);
}

int aw_h_skip_empty(struct aw_parser *p)
{
	uint64_t v;

	if (aw_need_int(p, "skip_empty", 1, 64, &v))
		return -1;
	p->sc->cfg.skip_empty = (int)v;
	return aw_done(p);
}

/* empty_contract place=... empty=... clock=... clear=... (contract.h) */
int aw_h_empty_contract(struct aw_parser *p)
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
