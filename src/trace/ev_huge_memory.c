// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged as recorded (huge_memory:mm_khugepaged_scan_pmd,
 * mm_collapse_huge_page, mm_collapse_huge_page_swapin and the patched
 * kernel's mm_khugepaged_scan): the khugepaged thread's records are
 * grouped into wake-ups, each replayed as one model wake-up, and counted
 * by status for the report; records of other tasks come from
 * MADV_COLLAPSE (madvise_collapse()) and are counted apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tev.h"

/* A record of the khugepaged thread: --kh-pid, else comm "khugepaged"; mm_khugepaged_scan always. */
static bool is_khugepaged(const struct aw_tctx *c)
{
	struct aw_ingest *in = c->in;
	struct aw_recorded_kh *kh = &in->st->kh;

	if (in->o->kh_pid >= 0)
		return (int64_t)c->tid == in->o->kh_pid || c->t == AW_TEV_KH_SCAN;
	if (kh->pid >= 0 && (int64_t)c->tid == kh->pid)
		return true;
	if (c->t == AW_TEV_KH_SCAN || (aw_ing_cur_comm(in) && !strcmp(aw_ing_cur_comm(in), "khugepaged"))) {
		if (kh->pid < 0)
			kh->pid = c->tid;
		return true;
	}
	return false;
}

/*
 * A SCAN_* status as the kernel names it.  The enum's numbering changes
 * between kernels (pmd_null/pmd_none became no_pte_table, the patched one
 * inserts page_lazyfree), so the numbers are decoded with the
 * __print_symbolic() table of the file's own print fmt (the row's
 * symbolic field, resolved by the reader).
 */
static const char *kh_status(const struct aw_tctx *c, int i, char *buf, size_t len)
{
	const struct aw_tsyms *syms = &c->res->syms[c->t];
	long long v;

	if (!aw_tf_has(c, i))
		return "no_status_field";
	v = aw_tf_ret(c, i);
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
		for (char *s = tab[i].name; *s; s++)
			if (*s < 0x21 || *s > 0x7e || *s == '"' || *s == '\\')
				*s = '_';
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
static int kh_wakeup(struct aw_ingest *in)
{
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

/* mm_collapse_huge_page: collapse_huge_page()'s result, "succeeded" or why not. */
static void on_collapse(const struct aw_tctx *c, bool khd)
{
	struct aw_recorded_kh *kh = &c->in->st->kh;
	char buf[32];
	const char *s = kh_status(c, 2, buf, sizeof(buf));
	bool ok = c->res->syms[c->t].nr ? !strcmp(s, "succeeded") : aw_tf_ret(c, 2) == 1;

	if (!khd) {
		kh->other_collapses++;
		kh->other_collapse_succeeded += ok;
		return;
	}
	kh->collapses++;
	kh->collapse_succeeded += ok;
	kh->collapse_failed += !ok;
	count_status(kh->collapse_status, &kh->nr_collapse_status, s);
}

/* mm_khugepaged_scan: one scan_mm_slot() call, its progress in pages */
static void on_scan(const struct aw_tctx *c)
{
	struct aw_recorded_kh *kh = &c->in->st->kh;
	uint64_t progress = aw_tf(c, 1);

	if (progress > UINT32_MAX)
		progress = 0;	/* an unsigned int in the kernel: a corrupt record */
	kh->scan++;
	kh->scan_progress += progress;
	kh->scan_full += aw_tf(c, 2) != 0;
	if (kh->wakeups && kh->wakeup_progress && kh->wakeups <= AW_KH_MAX_WAKEUP_LOG)
		kh->wakeup_progress[kh->wakeups - 1] += progress;
}

int aw_on_khugepaged(const struct aw_tctx *c)
{
	struct aw_recorded_kh *kh = &c->in->st->kh;
	bool khd = is_khugepaged(c);
	char buf[32];

	if (khd && kh_wakeup(c->in))
		return -1;
	switch (c->t) {
	case AW_TEV_KH_SCAN_PMD:	/* hpage_collapse_scan_pmd()'s verdict on one PMD */
		if (!khd) {
			kh->other_scan_pmd++;
			break;
		}
		kh->scan_pmd++;
		count_status(kh->scan_status, &kh->nr_scan_status, kh_status(c, 4, buf, sizeof(buf)));
		break;
	case AW_TEV_KH_COLLAPSE:
		on_collapse(c, khd);
		break;
	case AW_TEV_KH_SWAPIN:
		kh->swapin++;
		kh->swapped_in += (uint64_t)(aw_tf_ret(c, 1) > 0 ? aw_tf_ret(c, 1) : 0);
		break;
	default:
		on_scan(c);
		break;
	}
	return 0;
}
