/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The .aws writer: aw_aws_write() renders a scenario as text that
 * aw_aws_parse_string() reads back to the same events, ids, header and
 * expectations.  Every word it prints comes from the tables the parser
 * reads (aws_parse.c: keywords through aw_aws_keyword(), value words,
 * reclaim options; aws_lex.c: size and duration units; aws_expect.c:
 * the expect line), so the two cannot drift apart.
 *
 * The output is normalised rather than a copy of some original: events
 * expanded one per line, every target with explicit off and len, sizes in
 * the largest unit that divides them.  That makes .aws -> .aws and
 * .aws -> .awpb -> .aws give the same text.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* strnlen */
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Names                                                              */
/* ------------------------------------------------------------------ */

/*
 * The names the writer prints for one namespace.  A name from the scenario
 * is used when it is valid and the first of its spelling; otherwise (a
 * trace's "kworker/0:1", a fuzz input without names) one is made up as
 * p<id> or r<id>, lengthened with '_' until it differs from every name kept.
 */
struct aw_wnames {
	aw_names_t names;
	int nr;
	char prefix;
	bool *own;		/* names[i] is printed as is */
	struct aw_ntab tab;	/* the names kept */
};

static int aw_wnames_init(struct aw_wnames *w, aw_names_t names, int nr, char prefix)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->names = names;
	w->nr = names && nr > 0 ? nr : 0;
	w->prefix = prefix;
	w->own = calloc((size_t)w->nr + 1, sizeof(*w->own));
	if (!w->own)
		return -1;
	for (i = 0; i < w->nr; i++) {
		size_t len = strnlen(names[i], AW_MAX_NAME);

		if (!aw_name_ok(names[i], len) || aw_ntab_find(&w->tab, names, names[i], len))
			continue;
		if (aw_ntab_add(&w->tab, names, (uint32_t)i + 1))
			return -1;
		w->own[i] = true;
	}
	return 0;
}

static void aw_wnames_free(struct aw_wnames *w)
{
	free(w->own);
	free(w->tab.slot);
}

static void aw_wname(const struct aw_wnames *w, uint32_t id, char buf[AW_MAX_NAME])
{
	int n;

	if (id >= 1 && id <= (uint32_t)w->nr && w->own[id - 1]) {
		memcpy(buf, w->names[id - 1], AW_MAX_NAME);
		return;
	}
	n = snprintf(buf, AW_MAX_NAME, "%c%u", w->prefix, id);
	while (n < AW_MAX_NAME - 1 && aw_ntab_find(&w->tab, w->names, buf, (size_t)n)) {
		buf[n++] = '_';
		buf[n] = '\0';
	}
}

struct aw_writer {
	FILE *out;
	struct aw_wnames procs, regions;
	bool bad;		/* an event the text cannot express */
};

/* ------------------------------------------------------------------ */
/* Numbers and words                                                  */
/* ------------------------------------------------------------------ */

/* The largest binary unit that divides the size exactly. */
static const char *aw_wsize(uint64_t v, char buf[32])
{
	int i;

	for (i = (int)AW_ARRAY_SIZE(aw_size_suffix) - 1; v && i >= 0; i--) {
		unsigned int shift = 10 * ((unsigned int)i + 1);

		if (!(v & ((1ull << shift) - 1))) {
			snprintf(buf, 32, "%llu%c", (unsigned long long)(v >> shift),
				 aw_size_suffix[i]);
			return buf;
		}
	}
	snprintf(buf, 32, "%llu", (unsigned long long)v);
	return buf;
}

/* The largest unit that divides the duration exactly; ns last. */
static const char *aw_wduration(uint64_t ns, char buf[32])
{
	const struct aw_time_unit *u = aw_time_units;
	int i;

	for (i = (int)AW_ARRAY_SIZE(aw_time_units) - 1; ns && i > 0; i--) {
		if (!(ns % u[i].ns)) {
			snprintf(buf, 32, "+%llu%s", (unsigned long long)(ns / u[i].ns), u[i].name);
			return buf;
		}
	}
	snprintf(buf, 32, "+%llu%s", (unsigned long long)ns, u[0].name);
	return buf;
}

static void aw_wprot(FILE *out, uint32_t prot)
{
	size_t i;

	if (!(prot & (AW_PROT_READ | AW_PROT_WRITE | AW_PROT_EXEC))) {
		fputs(" none", out);
		return;
	}
	fputc(' ', out);
	for (i = 0; i < AW_ARRAY_SIZE(aw_prot_letters); i++)
		if (prot & aw_prot_letters[i].bit)
			fputc(aw_prot_letters[i].c, out);
}

/* names[i], or "?" with *bad set when the value has no word. */
static const char *aw_wname_of(const char *const names[], int nr, uint32_t i, bool *bad)
{
	if (i < (uint32_t)nr && names[i])
		return names[i];
	*bad = true;
	return "?";
}

static void aw_wid(FILE *out, const struct aw_wnames *names, uint32_t id)
{
	char name[AW_MAX_NAME];

	aw_wname(names, id, name);
	fprintf(out, " %s", name);
}

static void aw_wproc(struct aw_writer *w, uint32_t pid)
{
	aw_wid(w->out, &w->procs, pid);
}

static void aw_wregion(struct aw_writer *w, uint32_t id)
{
	aw_wid(w->out, &w->regions, id);
}

/* ADDR len SIZE: a target or mremap source without a region. */
static void aw_wabs(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	fprintf(w->out, " 0x%llx len %s", (unsigned long long)ev->addr, aw_wsize(ev->len, b));
}

/* Always with explicit off and len: region lengths change along the way. */
static void aw_wtarget(struct aw_writer *w, const struct aw_event *ev)
{
	char b1[32], b2[32];

	if (!ev->region) {
		aw_wabs(w, ev);
		return;
	}
	aw_wregion(w, ev->region);
	fprintf(w->out, " off %s len %s", aw_wsize(ev->addr, b1), aw_wsize(ev->len, b2));
}

/* ------------------------------------------------------------------ */
/* Events: what follows the keyword                                   */
/* ------------------------------------------------------------------ */

static void aw_wmmap(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];
	size_t i;

	aw_wproc(w, ev->pid);
	if (ev->region)
		aw_wregion(w, ev->region);
	else
		fputs(" -", w->out);
	fprintf(w->out, " %s", aw_wsize(ev->len, b));
	if (ev->addr2)
		fprintf(w->out, " at 0x%llx", (unsigned long long)ev->addr2);
	for (i = 0; i < AW_ARRAY_SIZE(aw_map_flags); i++)
		if (ev->flags & aw_map_flags[i].flag)
			fprintf(w->out, " %s", aw_map_flags[i].name);
	if (ev->arg != AW_PROT_DEFAULT) {
		fputs(" prot", w->out);
		aw_wprot(w->out, ev->arg);
	}
}

static void aw_wmremap(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	aw_wproc(w, ev->pid);
	if (ev->region)
		aw_wregion(w, ev->region);
	else
		aw_wabs(w, ev);
	fprintf(w->out, " %s", aw_wsize(ev->stride, b));
	if (ev->addr2)
		fprintf(w->out, " at 0x%llx", (unsigned long long)ev->addr2);
}

static void aw_waccess(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	aw_wproc(w, ev->pid);
	aw_wtarget(w, ev);
	if (ev->stride)
		fprintf(w->out, " stride %s", aw_wsize(ev->stride, b));
	if (ev->repeat != 1)
		fprintf(w->out, " repeat %u", ev->repeat);
	if (ev->cpu != AW_CPU_CURRENT)
		fprintf(w->out, " cpu %u", ev->cpu);
	if (ev->flags & AW_ACC_RESIDENT)
		fputs(" resident", w->out);
}

static void aw_wfdio(struct aw_writer *w, const struct aw_event *ev)
{
	aw_wproc(w, ev->pid);
	aw_wtarget(w, ev);
	if (ev->repeat != 1)
		fprintf(w->out, " repeat %u", ev->repeat);
}

/* The options the parser's aw_reclaim_allowed[] gives the kind. */
static void aw_wreclaim(struct aw_writer *w, const struct aw_event *ev)
{
	unsigned int allowed = aw_reclaim_allowed[ev->kind];

	fprintf(w->out, " node %u", ev->node);
	if (ev->memcg)
		fprintf(w->out, " memcg %u", ev->memcg);
	if (allowed & AW_RO(FORCE))
		fprintf(w->out, " force %d", ev->flags & AW_AGE_FORCE ? 1 : 0);
	if ((allowed & AW_RO(NR)) && ev->len)
		fprintf(w->out, " nr %llu", (unsigned long long)ev->len);
	if ((allowed & AW_RO(SWAPPINESS)) && ev->swappiness != AW_SWAPPINESS_DEFAULT)
		fprintf(w->out, " swappiness %u", ev->swappiness);
	if ((allowed & AW_RO(LOST)) && (ev->flags & AW_AGE_LOST))
		fputs(" lost", w->out);
	if ((allowed & AW_RO(DIRECT)) && (ev->flags & AW_EVICT_DIRECT))
		fputs(" direct", w->out);
}

static void aw_wkhugepaged(struct aw_writer *w, const struct aw_event *ev)
{
	if (ev->arg) {
		fprintf(w->out, " set %s %llu",
			aw_wname_of(aw_kh_knob_names, AW_KH_KNOB_NR, ev->arg, &w->bad),
			(unsigned long long)ev->len);
		return;
	}
	if (ev->len)
		fprintf(w->out, " pages %llu", (unsigned long long)ev->len);
	if (ev->repeat > 1 || (ev->flags & AW_KH_FULL))
		fprintf(w->out, " %s %u", ev->flags & AW_KH_FULL ? "full" : "times",
			ev->repeat ? ev->repeat : 1);
}

/* Events on a target: PROC TARGET, then a word or two. */
static void aw_wranged(struct aw_writer *w, const struct aw_event *ev)
{
	aw_wproc(w, ev->pid);
	aw_wtarget(w, ev);
	switch (ev->kind) {
	case AW_EV_MPROTECT:
		fputs(" prot", w->out);
		aw_wprot(w->out, ev->arg);
		break;
	case AW_EV_MBIND:
		fprintf(w->out, " node %u %s", ev->node,
			aw_wname_of(aw_mpol_names, AW_MPOL_NR, ev->arg, &w->bad));
		break;
	case AW_EV_MADVISE:
		fprintf(w->out, " %s", aw_wname_of(aw_madv_names, AW_MADV_NR, ev->arg, &w->bad));
		break;
	case AW_EV_MIGRATE:
		fprintf(w->out, " node %u", ev->node);
		break;
	}
}

/* Events on a process without a target. */
static void aw_wprocess(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	aw_wproc(w, ev->pid);
	switch (ev->kind) {
	case AW_EV_PROC:
		if (ev->cpu)
			fprintf(w->out, " cpu %u", ev->cpu);
		if (ev->memcg)
			fprintf(w->out, " memcg %u", ev->memcg);
		if (ev->flags & AW_PROC_NOLAYOUT)
			fputs(" nolayout", w->out);
		break;
	case AW_EV_FORK:
	case AW_EV_VFORK:
	case AW_EV_THREAD:
		aw_wproc(w, ev->pid2);
		break;
	case AW_EV_RUN:
		if (ev->cpu != AW_CPU_CURRENT)
			fprintf(w->out, " cpu %u", ev->cpu);
		break;
	case AW_EV_BRK:
		fprintf(w->out, " %c%s", ev->flags & AW_BRK_SHRINK ? '-' : '+',
			aw_wsize(ev->len, b));
		break;
	case AW_EV_SET_MEMPOLICY:
		if (ev->arg != AW_MPOL_DEFAULT || ev->node)
			fprintf(w->out, " node %u", ev->node);
		fprintf(w->out, " %s", aw_wname_of(aw_mpol_names, AW_MPOL_NR, ev->arg, &w->bad));
		break;
	case AW_EV_MEMCG_MOVE:
		fprintf(w->out, " %u", ev->memcg);
		break;
	case AW_EV_PRCTL_THP:
		fprintf(w->out, " %s",
			aw_wname_of(aw_prctl_names, AW_THP_DISABLE_NR, ev->arg, &w->bad));
		break;
	case AW_EV_CONTEND:
		fprintf(w->out, " %s %s", aw_wname_of(aw_lock_names, AW_LOCK_NR, ev->arg, &w->bad),
			aw_onoff_names[!!(ev->flags & AW_CONTEND_ON)]);
		break;
	}
}

static void aw_wevent(struct aw_writer *w, const struct aw_event *ev)
{
	const char *kw = aw_aws_keyword(ev);
	char b[32];

	if (!kw) {
		fprintf(w->out, "# cannot express event kind %u\n", ev->kind);
		w->bad = true;
		return;
	}
	fputs(kw, w->out);
	switch (ev->kind) {
	case AW_EV_MMAP: aw_wmmap(w, ev); break;
	case AW_EV_MREMAP: aw_wmremap(w, ev); break;
	case AW_EV_ACCESS: aw_waccess(w, ev); break;
	case AW_EV_FDIO: aw_wfdio(w, ev); break;
	case AW_EV_AGE:
	case AW_EV_AGE_BEGIN:
	case AW_EV_AGE_STEP:
	case AW_EV_AGE_END:
	case AW_EV_EVICT:
		aw_wreclaim(w, ev);
		break;
	case AW_EV_KHUGEPAGED: aw_wkhugepaged(w, ev); break;
	case AW_EV_MEMCG_LIMIT:
		fprintf(w->out, " memcg %u %s", ev->memcg, ev->len ? aw_wsize(ev->len, b) : "max");
		break;
	case AW_EV_TIME:
		fprintf(w->out, " %s", aw_wduration(ev->len, b));
		break;
	case AW_EV_SAMPLE:
		aw_wregion(w, ev->region);
		break;
	case AW_EV_MUNMAP:
	case AW_EV_MPROTECT:
	case AW_EV_MBIND:
	case AW_EV_MADVISE:
	case AW_EV_MIGRATE:
		aw_wranged(w, ev);
		break;
	default:
		aw_wprocess(w, ev);
		break;
	}
	fputc('\n', w->out);
}

/* ------------------------------------------------------------------ */
/* The header and the whole scenario                                  */
/* ------------------------------------------------------------------ */

static void aw_wcpus(FILE *out, uint64_t mask)
{
	int c = 0, first = 1;

	if (!mask) {
		fputs("none", out);
		return;
	}
	while (c < 64) {
		int lo;

		if (!(mask & (1ull << c))) {
			c++;
			continue;
		}
		lo = c;
		while (c < 64 && (mask & (1ull << c)))
			c++;
		fprintf(out, first ? "%d" : ",%d", lo);
		if (c - 1 > lo)
			fprintf(out, "-%d", c - 1);
		first = 0;
	}
}

static void aw_wheader(FILE *out, const struct aw_config *cfg)
{
	int nr_nodes = cfg->nr_nodes < AW_MAX_NODES ? cfg->nr_nodes : AW_MAX_NODES;
	int nr_memcgs = cfg->nr_memcgs < AW_MAX_MEMCGS ? cfg->nr_memcgs : AW_MAX_MEMCGS;
	char b[32];
	int i;

	for (i = 0; i < nr_nodes; i++) {
		fprintf(out, "node %d cpus ", i);
		aw_wcpus(out, cfg->node[i].cpu_mask);
		fprintf(out, " mem %s\n", aw_wsize(cfg->node[i].mem_bytes, b));
	}
	for (i = 1; i < nr_memcgs; i++) {
		fprintf(out, "memcg %d", i);
		if (cfg->memcg_limit[i])
			fprintf(out, " limit %s", aw_wsize(cfg->memcg_limit[i], b));
		fputc('\n', out);
	}
	fprintf(out, "thp %s\n", aw_thp_mode_name(cfg->thp));
	if (cfg->thp_modes & ((1u << AW_THP_NR_MODES) - 1)) {
		fputs("modes", out);
		for (i = 0; i < AW_THP_NR_MODES; i++)
			if (cfg->thp_modes & (1u << i))
				fprintf(out, " %s", aw_thp_mode_name((enum aw_thp_mode)i));
		fputc('\n', out);
	}
	fprintf(out, "swap %s\n", aw_wsize(cfg->swap_bytes, b));
	fprintf(out, "mmap_base 0x%llx\n", (unsigned long long)cfg->mmap_base);
	fprintf(out, "skip_empty %d\n", cfg->skip_empty);
	if (!aw_empty_contract_is_default(&cfg->empty)) {
		char text[160];

		aw_empty_contract_format(&cfg->empty, ' ', text, sizeof(text));
		fprintf(out, "empty_contract %s\n", text);
	}
	if (cfg->layout == AW_LAYOUT_SMALL)
		fprintf(out, "layout %s\n", aw_layout_names[cfg->layout]);
	if (cfg->kernel != AW_KERNEL_MAINLINE)
		fprintf(out, "kernel %s\n", aw_kernel_profile_name(cfg->kernel));
	if (cfg->khugepaged_rev)
		fprintf(out, "khugepaged_rev v8\n");
	if (cfg->khugepaged_prctl_enter)
		fprintf(out, "khugepaged_prctl_enter on\n");
}

static void aw_wexpect(struct aw_writer *w, const struct aw_expect *e)
{
	char b[AW_MAX_NAME];

	if (e->region > 0)
		aw_wname(&w->regions, (uint32_t)e->region, b);
	aw_expect_write(w->out, e, e->region > 0 ? b : NULL);
}

/*
 * Events are written expanded, one per line, and every target with
 * explicit off and len, so the output does not depend on where the
 * original's repeat blocks or region redefinitions were.  Scenarios the
 * parser produced read back identical (ids included, since ids follow the
 * order of first definition).  Streams from elsewhere are rendered as
 * closely as the text allows; -1 with errno EINVAL says some field had no
 * text form, -1 with errno from stdio a write error.
 */
int aw_aws_write(FILE *out, const struct aw_scenario *sc)
{
	struct aw_writer w = { .out = out };
	size_t i;
	int i2;

	if (aw_wnames_init(&w.procs, (aw_names_t)sc->proc_name, sc->nr_procs, 'p') ||
	    aw_wnames_init(&w.regions, (aw_names_t)sc->region_name, sc->nr_regions, 'r')) {
		aw_wnames_free(&w.procs);
		aw_wnames_free(&w.regions);
		errno = ENOMEM;
		return -1;
	}
	fputs("# agewalk scenario\n", out);
	aw_wheader(out, &sc->cfg);
	/* regions in id order, so that ids survive streams that use a region first */
	for (i2 = 0; i2 < sc->nr_regions; i2++) {
		char b[AW_MAX_NAME];

		aw_wname(&w.regions, (uint32_t)i2 + 1, b);
		fprintf(out, "region %s\n", b);
	}
	for (i = 0; i < sc->nr_events; i++)
		aw_wevent(&w, &sc->events[i]);
	for (i2 = 0; i2 < sc->nr_expects; i2++)
		aw_wexpect(&w, &sc->expects[i2]);
	aw_wnames_free(&w.procs);
	aw_wnames_free(&w.regions);
	if (ferror(out))
		return -1;
	if (w.bad) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
