/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every file agewalk writes goes through here (output.c), so that an
 * output never destroys what it replaces and never claims a write that
 * did not happen.
 *
 * Where the bytes go depends on what the path names now:
 *  - "-", /dev/stdout, /dev/fd/N, /proc/self/fd/N: that descriptor, as is;
 *  - a regular file, or nothing yet: an unnamed temporary file in the
 *    same directory (O_TMPFILE; a named ".NAME.agewalk-*" one where the
 *    filesystem has none), flushed, fsync'd, given the old file's mode
 *    and owner, then renamed over the path.  A writer killed before the
 *    rename leaves the old file and no temporary behind.  The path gets
 *    a new inode: other hard links to the old file keep the old bytes;
 *  - a symbolic link: resolved link by link, and its target is written by
 *    the rule above (the link stays a link);
 *  - anything else (a character device, a FIFO): opened and written in
 *    place, never renamed over.  A socket cannot be opened and is an error.
 *
 * Every write, flush, fsync and close is checked.  A failure leaves the
 * previous file as it was, removes the temporary file, and puts one line
 * "PATH: strerror" in err; the commands print it and exit AW_EXIT_OUTPUT.
 */
#ifndef AW_OUTPUT_H
#define AW_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The exit status of a command that could not write an output (stdout too). */
#define AW_EXIT_OUTPUT 3

enum aw_output_how {
	AW_OUT_DESCRIPTOR,	/* "-" or a name of an open descriptor: written as is */
	AW_OUT_REPLACE,		/* a regular file or a new one: temporary + rename */
	AW_OUT_IN_PLACE,	/* a device or FIFO: opened and written */
};

struct aw_output {
	FILE *f;			/* write here; NULL until open succeeded */
	bool active;			/* opened, not yet committed or aborted */
	enum aw_output_how how;
	int fd, dirfd;			/* dirfd: the target's directory (REPLACE) */
	int error;			/* the first errno a write met, 0 none */
	bool tmpfile;			/* fd is O_TMPFILE: linked in at commit */
	bool had_old;			/* the target existed: keep its mode and owner */
	unsigned int old_mode, old_uid, old_gid;
	char name[4096];		/* as given, for messages */
	char target[4096];		/* the file written: name, or its link's target */
	char base[1024];		/* the target's last component (REPLACE) */
	char tmp[1100];			/* a named temporary in dirfd, "" if none */
};

/* Open an output; 0, or -1 with "PATH: reason" in err and nothing created. */
int aw_output_open(struct aw_output *o, const char *path, char *err, size_t errlen);

/*
 * Finish it: flush, fsync, rename into place (REPLACE), close.  0, or -1
 * with "PATH: reason" in err, the temporary removed and the old file kept.
 * The output is closed either way.
 */
int aw_output_commit(struct aw_output *o, char *err, size_t errlen);

/*
 * Drop it: the temporary removed, the old file kept.  Does nothing to an
 * output that is not open (a zeroed struct, a failed open, after commit).
 */
void aw_output_abort(struct aw_output *o);

/*
 * The whole write in one call: open PATH, fn(f, arg) writes (0, or -1 on a
 * failure of its own, which keeps the old file), commit.  0 or -1 with err.
 */
int aw_output_write(const char *path, int (*fn)(FILE *f, void *arg), void *arg, char *err,
		    size_t errlen);

/*
 * Scratch space next to PATH (the spool of a stream whose header comes
 * last): an unnamed file that vanishes when closed or when the process
 * dies.  NULL with err set.
 */
FILE *aw_output_scratch(const char *path, char *err, size_t errlen);

/*
 * coreutils' close_stdout(): registered with atexit() by each program's
 * main.  Flushes and closes standard output; a failure (ENOSPC, EIO, a
 * closed pipe's EPIPE) prints "PROG: standard output: reason" and ends the
 * process with AW_EXIT_OUTPUT whatever status it was leaving with.
 */
void aw_close_stdout(void);

#endif
