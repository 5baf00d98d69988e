/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A replay that survives libtracecmd crashing on a corrupt file (guard.c).
 *
 * libtracecmd trusts a trace.dat's headers: some corruptions make
 * tracecmd_open() crash in its own error path or ask for absurd
 * allocations before agewalk can check anything.  Opening every file
 * first in a throwaway child (aw_tsource_probe()) protects the replay but
 * parses the headers twice, and on a recording made with trace-cmd
 * extract (every event format and the whole kallsyms) that second parse
 * costs as much as the model's work on 100 k events.
 *
 * So a command that opens trace.dat files can run as a guarded worker
 * instead: aw_tguard_start() forks, the child goes on with the command
 * and the parent only watches.  The worker brackets each first open with
 * aw_tguard_enter()/aw_tguard_leave(), which mark a page shared with the
 * watcher.  If the worker dies inside that bracket (a signal, or a
 * sanitizer's exit), the watcher prints the one-line corrupt-headers
 * error and exits with the command's error status; otherwise it exits as
 * the worker did (the same status, or the same signal).  Signals sent to
 * the watcher (Ctrl-C, timeout's SIGTERM) are passed on to the worker.
 *
 * aw_tguard_start() must run while the process has a single thread, and
 * before the command creates files it must clean up on failure: the
 * watcher only reports, it never touches the worker's outputs.
 */
#ifndef AW_TRACE_GUARD_H
#define AW_TRACE_GUARD_H

#include <stdbool.h>
#include <stddef.h>

struct aw_tguard_page;

struct aw_tguard {
	struct aw_tguard_page *page;	/* shared with the watcher; NULL: not guarded */
};

/*
 * Fork: returns 0 in the worker, guarded.  The watcher never returns; it
 * exits with error_status when the worker dies opening a file.  Returns
 * -1 (not guarded, callers probe instead) if the fork or the shared page
 * cannot be had.
 */
int aw_tguard_start(struct aw_tguard *g, int error_status);
/* Whether opens are guarded (g may be NULL). */
bool aw_tguard_active(const struct aw_tguard *g);
/*
 * The worker is about to open path with libtracecmd: stderr is silenced
 * until leave.  Both do nothing when g is not active.
 */
void aw_tguard_enter(struct aw_tguard *g, const char *path);
void aw_tguard_leave(struct aw_tguard *g);
/* The one-line error for a file whose headers killed libtracecmd (sig 0: a sanitizer stopped it). */
void aw_tguard_corrupt(char *buf, size_t len, const char *path, int sig);

#endif /* AW_TRACE_GUARD_H */
