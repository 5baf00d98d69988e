// SPDX-License-Identifier: GPL-2.0-only
/*
 * khugepaged on the running kernel: its tracepoints read back, and its
 * wake-ups on command.
 *
 * Events (include/trace/events/huge_memory.h): mm_khugepaged_scan_pmd
 * (hpage_collapse_scan_pmd()'s verdict on one range: mm, status),
 * mm_collapse_huge_page (collapse_huge_page()'s result: mm, status) and,
 * on a kernel with the khugepaged series (src/ktext/series/khugepaged-v7,
 * 0001), mm_khugepaged_scan (each khugepaged_scan_mm_slot() call: mm,
 * progress, full_scan_finished).  All three print the mm with %p, which
 * the trace file shows unhashed once the trace option hash-ptr is off;
 * the do_madvise kprobe (exec_kprobe.c) names each worker's mm, and the
 * records are counted for those mms.  What cannot be filtered: the
 * budget of a wake-up is shared with every registered mm (the executor's
 * own, /init's), whose records are counted apart; and a range of a file
 * VMA is traced by mm_khugepaged_scan_file, not read here (the K
 * scenarios are anonymous).
 *
 * Wake-ups: khugepaged sleeps scan_sleep_millisecs between
 * khugepaged_do_scan() calls (khugepaged_wait_work()), and a write of
 * that knob (scan_sleep_millisecs_store()) sets khugepaged_sleep_expire to
 * 0 and wakes it: khugepaged_should_wakeup() is then true and one
 * khugepaged_do_scan() runs.  So the executor sets the knob to an hour --
 * no wake-up on the kernel's own clock while the run lasts -- and wakes
 * khugepaged by writing it again, once it sleeps (state S), waiting until
 * it sleeps again.  Trace markers ("agewalk_kh wake N", "agewalk_kh done
 * N") bracket each commanded wake-up; khugepaged's records outside them
 * are wake-ups on the kernel's own clock (the one an empty list's wait
 * makes at the first registration, khugepaged_wait_event()), grouped by a
 * gap of a second, and counted as spontaneous.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "kh_status.h"

#define KH_SLEEP_MS	3600000		/* an hour: no wake-up but the commanded ones */
#define SPONT_GAP_S	1.0

/* ---- the parser: pure, tested on canned text (tests/lab/test_exec_khtrace.c) ---- */

int aw_kht_add_mm(struct aw_khtrace *t, uint64_t mm)
{
	for (int i = 0; i < t->nr_mms; i++)
		if (t->mm[i] == mm)
			return 0;
	if (t->nr_mms == AW_KHT_MAX_MMS)
		return 0;
	t->mm[t->nr_mms++] = mm;
	return 1;
}

/* The run's mm?  Filtered records (6.1) are the run's by the kernel's filter. */
static bool run_mm(const struct aw_khtrace *t, uint64_t mm)
{
	if (t->filtered)
		return true;
	for (int i = 0; i < t->nr_mms; i++)
		if (t->mm[i] == mm)
			return true;
	return false;
}

uint64_t aw_kht_wakeups(const struct aw_khtrace *t)
{
	uint64_t n = 0;

	for (int i = 0; i < t->nr_wake; i++)
		n += !t->wake[i].spontaneous || t->wake[i].run;
	return n;
}

uint64_t aw_kht_spontaneous_run(const struct aw_khtrace *t)
{
	uint64_t n = 0;

	for (int i = 0; i < t->nr_wake; i++)
		n += t->wake[i].spontaneous && t->wake[i].run;
	return n;
}

void aw_kht_free(struct aw_khtrace *t)
{
	free(t->wake);
	t->wake = NULL;
	t->nr_wake = t->cap_wake = 0;
}

static void count(struct aw_kht_count *tab, int *nr, const char *name)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(tab[i].name, name))
			break;
	if (i == *nr) {
		if (*nr == AW_KHT_MAX_STATUS)
			return;
		snprintf(tab[i].name, sizeof(tab[i].name), "%s", name);
		(*nr)++;
	}
	tab[i].count++;
}

static void new_wake(struct aw_khtrace *t, bool spontaneous)
{
	struct aw_kht_wake *w = aw_grow(t->wake, &t->cap_wake, t->nr_wake, sizeof(*w), 16);

	t->wakeups++;
	t->spontaneous += spontaneous;
	if (!w)
		return;
	t->wake = w;
	t->wake[t->nr_wake++] = (struct aw_kht_wake){ .spontaneous = spontaneous };
}

/* A khugepaged record at ts: which wake-up it belongs to. */
static struct aw_kht_wake *wake_of(struct aw_khtrace *t, double ts)
{
	if (t->window) {
		if (!t->window_seen)
			new_wake(t, false);
		t->window_seen = true;
	} else if (!t->spont_open || ts - t->last_ts > SPONT_GAP_S) {
		new_wake(t, true);
		t->spont_open = true;
	}
	t->last_ts = ts;
	return t->nr_wake ? &t->wake[t->nr_wake - 1] : NULL;
}

/* "KEY=VALUE" in args: VALUE's start, or NULL */
static const char *field(const char *args, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = strstr(args, key); p; p = strstr(p + 1, key))
		if ((p == args || p[-1] == ' ' || p[-1] == ',') && p[kl] == '=')
			return p + kl + 1;
	return NULL;
}

/* status=NAME: NAME up to a comma or the end */
static void status_of(const char *args, char *buf, size_t len)
{
	const char *v = field(args, "status");
	size_t n = 0;

	if (!v)
		v = "no_status_field";
	while (v[n] && v[n] != ',' && !isspace((unsigned char)v[n]) && n + 1 < len)
		n++;
	memcpy(buf, v, n);
	buf[n] = 0;
}

/* The model's name for a kernel status (kh_status.h), else the kernel's own. */
static const char *result_name(struct aw_khtrace *t, const char *status)
{
	const char *m = aw_kh_kernel_status_result(status);

	if (!m)
		t->unmapped_status++;
	return m ? m : status;
}

static void on_scan(struct aw_khtrace *t, struct aw_kht_wake *w, uint64_t mm, const char *args)
{
	const char *p = field(args, "progress"), *f = field(args, "full_scan_finished");
	uint64_t progress = p ? strtoull(p, NULL, 10) : 0;

	if (run_mm(t, mm)) {
		if (w)
			w->run = true;
		t->calls++;
		t->progress += progress;
		t->full_acc += progress;
		if (w)
			w->progress += progress;
	} else {
		t->other_calls++;
		t->other_progress += progress;
	}
	if (f && atoi(f)) {
		t->full_finished++;
		if (w)
			w->full = true;
		/* a full scan of the guest's own mms, before or beside the run: none of the model's */
		if (w && w->spontaneous && !w->run) {
			t->full_other++;
			return;
		}
		if (t->nr_full < AW_KHT_FULL_LOG)
			t->per_full[t->nr_full++] = t->full_acc;
		t->full_acc = 0;
	}
}

static void on_scan_pmd(struct aw_khtrace *t, struct aw_kht_wake *w, bool khd, uint64_t mm, const char *args)
{
	char status[48];
	const char *r;

	if (!run_mm(t, mm)) {
		t->other_ranges += khd;
		return;
	}
	if (!khd) {		/* MADV_COLLAPSE, in the worker's context */
		t->madv_scan_pmd++;
		return;
	}
	if (w)
		w->run = true;
	status_of(args, status, sizeof(status));
	r = result_name(t, status);
	count(t->ranges, &t->nr_ranges, r);
	t->lazyfree_skips += !strcmp(r, "page_lazyfree");
}

static void on_collapse(struct aw_khtrace *t, struct aw_kht_wake *w, bool khd, uint64_t mm, const char *args)
{
	char status[48];
	const char *r;

	if (!run_mm(t, mm))
		return;
	if (w && khd)
		w->run = true;
	status_of(args, status, sizeof(status));
	r = result_name(t, status);
	if (!khd) {
		t->madv_collapsed += !strcmp(r, "succeed");
		return;
	}
	t->collapses++;
	if (!strcmp(r, "succeed")) {
		t->collapse_ok++;
		return;
	}
	count(t->cstatus, &t->nr_cstatus, r);
	t->lazyfree_skips += !strcmp(r, "page_lazyfree");	/* __collapse_huge_page_isolate() */
}

/* "agewalk_kh wake N" / "agewalk_kh done N", written to trace_marker by aw_kht_wake_event() */
static void on_marker(struct aw_khtrace *t, const char *text)
{
	if (!strncmp(text, "agewalk_kh wake ", 16)) {
		t->window = atoi(text + 16);
		t->window_seen = false;
		t->spont_open = false;
	} else if (!strncmp(text, "agewalk_kh done ", 16)) {
		t->window = 0;
	}
}

enum { KT_SCAN, KT_SCAN_PMD, KT_COLLAPSE, KT_MARK };

/*
 * One line of the trace file: "  COMM-PID  [CPU] FLAGS  TS: EVENT: ARGS".
 * The comm may hold '-' and spaces: the pid is what follows the last '-'
 * before " [".
 */
int aw_kht_line(struct aw_khtrace *t, const char *line)
{
	static const char *const ev[] = { [KT_SCAN] = ": mm_khugepaged_scan: ",
		[KT_SCAN_PMD] = ": mm_khugepaged_scan_pmd: ", [KT_COLLAPSE] = ": mm_collapse_huge_page: ",
		[KT_MARK] = ": tracing_mark_write: " };
	const char *br = strstr(line, " ["), *dash, *e = NULL, *ts, *args, *m;
	const char *comm = line;
	bool khd;
	int k, pid;
	uint64_t mm;
	struct aw_kht_wake *w;

	if (line[0] == '#' || !br)
		return -1;
	for (k = 0; k < 4 && !(e = strstr(br, ev[k])); k++)
		;
	if (k == 4)
		return -1;
	args = e + strlen(ev[k]);
	if (k == KT_MARK) {
		on_marker(t, args);
		return 0;
	}
	for (dash = br; dash > line && dash[-1] != '-'; dash--)
		;
	if (dash == line)
		return -1;
	pid = atoi(dash);
	while (*comm == ' ')
		comm++;
	khd = (t->kh_pid && pid == t->kh_pid) ||
	      (dash - 1 - comm == 10 && !strncmp(comm, "khugepaged", 10));
	for (ts = e; ts > br && ts[-1] != ' '; ts--)
		;
	if (!(m = field(args, "mm")))
		return -1;
	mm = strtoull(m, NULL, 16);
	w = khd || k == KT_SCAN ? wake_of(t, strtod(ts, NULL)) : NULL;
	switch (k) {
	case KT_SCAN: on_scan(t, w, mm, args); break;
	case KT_SCAN_PMD: on_scan_pmd(t, w, khd, mm, args); break;
	default: on_collapse(t, w, khd, mm, args); break;
	}
	return 0;
}

/* ---- the driver: in the guest ------------------------------------------ */

static int tfs(const struct aw_exec *x, const char *file, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", x->opt.tracefs, file);
	return aw_write_file(path, text);
}

static int kh_knob(const struct aw_exec *x, const char *name, const char *val)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/khugepaged/%s", x->opt.thp_dir, name);
	return aw_write_file(path, val);
}

/* The khugepaged thread's pid from /proc/PID/comm, 0 if none. */
static int find_khugepaged(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int pid = 0;

	while (d && !pid && (de = readdir(d))) {
		char path[300], *comm;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", de->d_name);
		if (aw_read_file(path, &comm))
			continue;
		if (!strcmp(comm, "khugepaged\n"))
			pid = atoi(de->d_name);
		free(comm);
	}
	if (d)
		closedir(d);
	return pid;
}

/* The thread's state letter (/proc/PID/stat) and voluntary switches; -1 if gone. */
static int kh_state(int pid, char *state)
{
	char path[64], *text, *p;
	int64_t nvcsw;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (aw_read_file(path, &text))
		return -1;
	p = strrchr(text, ')');
	*state = p && p[1] == ' ' ? p[2] : '?';
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	nvcsw = aw_read_key(path, "voluntary_ctxt_switches:");
	return nvcsw < 0 ? -1 : (int)(nvcsw & 0x3fffffff);
}

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L }, NULL);
}

/* Until khugepaged sleeps interruptibly (its wait, or an allocation's); its switches then, -1 if not within ms. */
static int wait_asleep(int pid, int after, int ms)
{
	char st;
	int n;

	for (int t = 0; t <= ms; t++) {
		n = kh_state(pid, &st);
		if (n < 0)
			return -1;
		if (st == 'S' && n != after)
			return n;
		sleep_ms(1);
	}
	return -1;
}

void aw_kht_setup(struct aw_exec *x)
{
	static const char *const events[] = { "mm_khugepaged_scan_pmd", "mm_collapse_huge_page",
					      "mm_khugepaged_scan" };
	struct aw_khtrace *t = &x->kht;
	char path[512], val[32], st;
	int r, n;

	if (!x->opt.tracefs) {
		aw_note(x, AW_NOTE_SETUP, "khugepaged records off: no tracefs (--no-kprobes)");
		return;
	}
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "events/huge_memory/%s/enable", events[i]);
		r = tfs(x, path, "1");
		if (i == 2 && r == -ENOENT) {
			aw_note(x, AW_NOTE_SETUP, "khugepaged progress null: this kernel has no "
				"huge_memory/mm_khugepaged_scan (the khugepaged series' event)");
			continue;
		}
		if (r) {
			aw_note(x, AW_NOTE_SETUP, "khugepaged records off: enabling %s: %s", events[i], strerror(-r));
			return;
		}
		t->has_scan |= i == 2;
	}
	/*
	 * %p unhashed (trace_event_printf()), so the records' mm equals the
	 * kprobe's.  Not on 6.1: there, with hash-ptr off, the records'
	 * __print_symbolic() status prints as an empty string (seen on
	 * Debian's 6.1.0-57: "status=,"), and with it on the mm prints as
	 * "(____ptrval____)" (no hashing key so early in the guest), so the
	 * run's mms are kept by the events' filters instead (the raw field,
	 * aw_kht_refilter()) and records of other mms are not seen at all.
	 */
	if (x->opt.kver == AW_KV_6_1) {
		t->filtered = true;
		aw_note(x, AW_NOTE_SETUP, "khugepaged records: kept to the run's mms by event filters (6.1 prints "
			"status empty with hash-ptr off): other mms' records are not seen");
	} else if ((r = tfs(x, "trace_options", "nohash-ptr"))) {
		aw_note(x, AW_NOTE_SETUP, "khugepaged records: hash-ptr stays on (%s): no record is the run's",
			strerror(-r));
	}
	if (t->filtered)
		aw_kht_refilter(x);	/* "mm == 0": nothing until a worker is known */
	/*
	 * markers (the executor's CPU) and khugepaged's records (another) are
	 * ordered by time: the default per-CPU "local" clock need not agree
	 * across CPUs (6.12's k1: one commanded wake-up of 1921 came out
	 * empty, its records in the next one's brackets)
	 */
	if ((r = tfs(x, "trace_clock", "global")))
		aw_note(x, AW_NOTE_SETUP, "khugepaged records: trace_clock global: %s", strerror(-r));
	tfs(x, "buffer_size_kb", "8192");
	tfs(x, "tracing_on", "1");
	t->on = true;
	if (!x->kprobes)
		aw_note(x, AW_NOTE_SETUP, "khugepaged records: no do_madvise kprobe: the workers' mms are "
			"unknown, every record is counted as another mm's");
	t->kh_pid = find_khugepaged();
	snprintf(val, sizeof(val), "%d", KH_SLEEP_MS);
	n = t->kh_pid && wait_asleep(t->kh_pid, -1, 5000) >= 0 ? kh_state(t->kh_pid, &st) : -1;
	if (n >= 0 && !kh_knob(x, "scan_sleep_millisecs", val)) {
		x->kh_sleep_ms = KH_SLEEP_MS;
		/*
		 * the wake-up this write made, over before the buffer is
		 * emptied (found in the lab: without the switch count, the
		 * first poll saw the state S of before the wake-up, and its
		 * records were taken for a spontaneous wake-up of the run)
		 */
		wait_asleep(t->kh_pid, n, 5000);
	} else {
		aw_note(x, AW_NOTE_SETUP, "khugepaged cannot be woken on command: %s",
			t->kh_pid ? "scan_sleep_millisecs not writable" : "no khugepaged thread");
	}
	snprintf(path, sizeof(path), "%s/trace", x->opt.tracefs);
	close(open(path, O_WRONLY | O_TRUNC | O_CLOEXEC));	/* what came before the run */
}

void aw_kht_refilter(struct aw_exec *x)
{
	static const char *const events[] = { "mm_khugepaged_scan_pmd", "mm_collapse_huge_page",
					      "mm_khugepaged_scan" };
	const struct aw_khtrace *t = &x->kht;
	char *f = malloc(AW_KHT_MAX_MMS * 32 + 16), path[128];
	size_t n = 0;
	int r;

	if (!f)
		return;
	n += (size_t)sprintf(f, "mm == 0");
	for (int i = 0; i < t->nr_mms; i++)
		n += (size_t)sprintf(f + n, " || mm == 0x%" PRIx64, t->mm[i]);
	for (int i = 0; i < 3; i++) {
		if (i == 2 && !t->has_scan)
			continue;
		snprintf(path, sizeof(path), "events/huge_memory/%s/filter", events[i]);
		if ((r = tfs(x, path, f)))
			aw_note(x, AW_NOTE_ERROR, "khugepaged records: the %s filter: %s", events[i], strerror(-r));
	}
	free(f);
}

void aw_kht_teardown(struct aw_exec *x)
{
	if (!x->kht.on)
		return;
	for (int i = 0; i < 3; i++) {
		static const char *const e[] = { "mm_khugepaged_scan_pmd", "mm_collapse_huge_page",
						 "mm_khugepaged_scan" };
		char path[128];

		snprintf(path, sizeof(path), "events/huge_memory/%s/enable", e[i]);
		tfs(x, path, "0");
	}
}

static void marker(const struct aw_exec *x, const char *what, int n)
{
	char text[64];

	snprintf(text, sizeof(text), "agewalk_kh %s %d\n", what, n);
	tfs(x, "trace_marker", text);
}

/* One khugepaged_do_scan() on command; -1 if khugepaged did not sleep before or after. */
static int wake_once(struct aw_exec *x, int ms)
{
	int pid = x->kht.kh_pid, n;
	char st, val[32];

	if (wait_asleep(pid, -1, ms) < 0 || (n = kh_state(pid, &st)) < 0)
		return -1;
	marker(x, "wake", ++x->kh_commanded);
	snprintf(val, sizeof(val), "%d", x->kh_sleep_ms);
	kh_knob(x, "scan_sleep_millisecs", val);
	n = wait_asleep(pid, n, ms);
	marker(x, "done", x->kh_commanded);
	x->kh_woken += n >= 0;
	return n < 0 ? -1 : 0;
}

static int64_t full_scans(const struct aw_exec *x)
{
	char path[512], *text;
	int64_t v;

	snprintf(path, sizeof(path), "%s/khugepaged/full_scans", x->opt.thp_dir);
	if (aw_read_file(path, &text))
		return -1;
	v = strtoll(text, NULL, 10);
	free(text);
	return v;
}

/*
 * `khugepaged [times N | full N] [pages P]`, as the model's
 * apply_khugepaged(): N wake-ups, or wake-ups until full_scans grew by N
 * (at most AW_KH_MAX_WAKEUPS, the model's bound), with pages_to_scan P for
 * them (the knob restored after); each wake-up within kh_wait_ms.  Returns
 * 1 when khugepaged cannot be woken on command (the caller then waits for
 * its own clock).
 */
int aw_kht_wake_event(struct aw_exec *x, const struct aw_event *ev)
{
	uint32_t n = ev->repeat ? ev->repeat : 1, woken = 0;
	bool full = ev->flags & AW_KH_FULL;
	int64_t start = full_scans(x);
	bool late = false;
	char path[512], *old = NULL, val[32];

	if (!x->kh_sleep_ms || !x->kht.kh_pid)
		return 1;
	if (ev->len) {
		snprintf(path, sizeof(path), "%s/khugepaged/pages_to_scan", x->opt.thp_dir);
		if (!aw_read_file(path, &old)) {
			snprintf(val, sizeof(val), "%" PRIu64, ev->len);
			aw_write_file(path, val);
		}
	}
	while (woken < AW_KH_MAX_WAKEUPS && (full ? full_scans(x) < start + (int64_t)n : woken < n)) {
		if ((late = wake_once(x, x->opt.kh_wait_ms)))
			break;
		woken++;
		if (woken % 64 == 0)
			aw_kprobe_collect(x, NULL);	/* keep the ring buffer from wrapping */
	}
	if (old) {
		aw_write_file(path, old);
		free(old);
	}
	aw_kprobe_collect(x, NULL);
	aw_note(x, AW_NOTE_APPROXIMATED, "khugepaged woken %u times on command (scan_sleep_millisecs written):"
		" full_scans %" PRId64 " -> %" PRId64 "%s", woken, start, full_scans(x),
		late ? " (khugepaged did not sleep within --kh-wait)" : "");
	return 0;
}
