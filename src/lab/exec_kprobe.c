// SPDX-License-Identifier: GPL-2.0-only
/*
 * Walk visibility: which mms an aging pass walked, from two kprobes.
 *
 * walk_pud_range() is MGLRU's mm_walk_ops.p4d_entry in 6.1 and 6.12, so
 * it is called through a pointer and never inlined away; its fourth
 * argument is the struct mm_walk, whose second member (offset 8 on 64-bit,
 * after ops) is the mm.  do_madvise(mm, start, len, behavior) names the mm
 * of the task that calls madvise(); each worker image calls it once with
 * MADV_NORMAL (AW_W_MARK), so a trace line's task id maps an mm address to
 * a worker.  The argument registers are x86-64's (di, si, dx, cx).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

static const char *const probes[] = {
	"p:agewalk/walk_pud walk_pud_range mm=+8(%cx):x64 start=%si:x64 end=%dx:x64\n",
	"p:agewalk/madvise do_madvise mm=%di:x64 behavior=%cx:s32\n",
};

static int tfs_write(const struct aw_exec *x, const char *file, const char *text, int flags)
{
	char path[512];
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/%s", x->opt.tracefs, file);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		e = errno;
	close(fd);
	return -e;
}

void aw_kprobe_setup(struct aw_exec *x)
{
	int r = 0;

	if (!x->opt.tracefs)
		return;
	aw_kprobe_teardown(x);	/* a previous run's probes */
	for (size_t i = 0; !r && i < sizeof(probes) / sizeof(probes[0]); i++)
		r = tfs_write(x, "kprobe_events", probes[i], O_APPEND);
	if (!r)
		r = tfs_write(x, "events/agewalk/enable", "1", 0);
	if (!r)
		r = tfs_write(x, "tracing_on", "1", 0);
	if (r) {
		aw_note(x, AW_NOTE_SETUP, "walk visibility off: kprobes in %s: %s", x->opt.tracefs, strerror(-r));
		return;
	}
	x->kprobes = true;
	tfs_write(x, "trace", "", O_TRUNC);
}

void aw_kprobe_teardown(struct aw_exec *x)
{
	if (!x->opt.tracefs)
		return;
	tfs_write(x, "events/agewalk/enable", "0", 0);
	tfs_write(x, "kprobe_events", "-:agewalk/walk_pud\n", O_APPEND);
	tfs_write(x, "kprobe_events", "-:agewalk/madvise\n", O_APPEND);
}

/*
 * One line of the trace file: "  TASK-PID  [CPU] FLAGS  TS: EVENT: (sym) mm=0x.. ...".
 * Returns 0 for one of the two probes' lines, -1 for anything else.
 */
int aw_kprobe_parse_line(const char *line, int *task, bool *walk, uint64_t *mm, int *behavior)
{
	const char *br = strstr(line, " ["), *dash, *m, *b;

	if (line[0] == '#' || !br)
		return -1;
	for (dash = br; dash > line && dash[-1] != '-'; dash--)
		;
	if (dash == line)
		return -1;
	*task = atoi(dash);
	*walk = strstr(br, " walk_pud: ") != NULL;
	if (!*walk && !strstr(br, " madvise: "))
		return -1;
	if (!(m = strstr(br, " mm=0x")))
		return -1;
	*mm = strtoull(m + 6, NULL, 16);
	b = strstr(br, " behavior=");
	*behavior = b ? atoi(b + 10) : -1;
	return 0;
}

static int worker_of_task(const struct aw_exec *x, int task)
{
	for (int p = 1; p < x->nr_workers; p++)
		if (x->w[p].fd >= 0 && x->w[p].pid == task)
			return p;
	return 0;
}

static int worker_of_mm(const struct aw_exec *x, uint64_t mm)
{
	for (int p = 1; p < x->nr_workers; p++)
		if (x->w[p].fd >= 0 && x->w[p].mm == mm)
			return p;
	return 0;
}

static void count_walk(struct aw_xpass *p, int proc)
{
	for (int i = 0; proc && i < p->nr_walked; i++)
		if (p->walked[i].proc == (uint32_t)proc) {
			p->walked[i].calls++;
			return;
		}
	if (!proc || p->nr_walked == AW_MAX_WALKED) {
		p->walked_other++;
		return;
	}
	p->walked[p->nr_walked].proc = (uint32_t)proc;
	p->walked[p->nr_walked++].calls = 1;
}

static void take_line(struct aw_exec *x, struct aw_xpass *p, const char *line)
{
	int task, behavior, w;
	uint64_t mm;
	bool walk;

	if (x->kht.on && !aw_kht_line(&x->kht, line))
		return;
	if (aw_kprobe_parse_line(line, &task, &walk, &mm, &behavior))
		return;
	if (!walk) {
		if (behavior == 0 && (w = worker_of_task(x, task))) {
			x->w[w].mm = mm;
			/* khugepaged's records of this mm are the run's */
			if (aw_kht_add_mm(&x->kht, mm) && x->kht.filtered)
				aw_kht_refilter(x);
		}
		return;
	}
	if (p)
		count_walk(p, worker_of_mm(x, mm));
}

/* After a pass (or to learn marks, or after khugepaged ran): read the buffer, then empty it. */
void aw_kprobe_collect(struct aw_exec *x, struct aw_xpass *p)
{
	char path[512], *text, *line, *save = NULL;

	if (!x->kprobes && !x->kht.on)
		return;
	snprintf(path, sizeof(path), "%s/trace", x->opt.tracefs);
	if (aw_read_file(path, &text))
		return;
	if (p && x->kprobes)
		p->traced = true;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		take_line(x, p, line);
	free(text);
	tfs_write(x, "trace", "", O_TRUNC);
}
