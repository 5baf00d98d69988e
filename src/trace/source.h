/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The records of one or more trace.dat files, in replay order, read with
 * libtracecmd a record at a time (source.c).  Each file contributes its
 * top buffer and every instance buffer (trace-cmd -B), merged by
 * timestamp: they share the machine's clock.  Several files are replayed
 * one after another (consecutive recordings: each file's times continue
 * where the previous one ended) or, with merge, interleaved by timestamp
 * (recordings of one machine at the same time).
 *
 * Memory stays bounded whatever the length: libtracecmd 1.3 keeps every
 * decompressed chunk of a compressed file (and every mapped page of an
 * uncompressed one) until the file is closed, so the files are closed and
 * reopened, every buffer resuming at its next record (tracecmd_read_at()),
 * once the process has grown by AW_TSRC_BUDGET_MIN since they were
 * (re)opened.  A reopen costs what an open costs (every event format and
 * the kallsyms of a file written by trace-cmd extract: 0.1 s and more),
 * so it also waits until the CPU time spent since the last (re)open is
 * AW_TSRC_REOPEN_SHARE times what that (re)open took: reopening then
 * costs at most a tenth of the replay, unless the growth reaches
 * AW_TSRC_BUDGET_MAX first.  The growth is read every AW_TSRC_CHECK
 * records, as the heap in use (mallinfo2(): a compressed file's chunks)
 * plus the resident file-backed pages (/proc/self/statm: an uncompressed
 * file's), not as the resident size: what a reopen frees stays in the
 * heap and holds the next chunks, instead of going back to the system
 * (malloc_trim()) and being faulted in again (agewalk-build.dat took
 * 27 k page faults, 17 k with this and procs.c's doubling name table).
 */
#ifndef AW_TRACE_SOURCE_H
#define AW_TRACE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include <trace-cmd/trace-cmd.h>

#include "guard.h"
#include "tracedat.h"

#define AW_TSRC_MAX_FILES	AW_TRACE_MAX_FILES
#define AW_TSRC_MAX_BUFS	16	/* top + instances per file */
#define AW_TSRC_CHECK		(1u << 16)	/* records between two looks at the memory */
#define AW_TSRC_BUDGET_MIN	(8u << 20)	/* growth, bytes, before the files may reopen */
#define AW_TSRC_BUDGET_MAX	(64u << 20)	/* growth that makes them reopen, whatever the cost */
#define AW_TSRC_REOPEN_SHARE	10		/* CPU since the last (re)open, in (re)open costs */

/* One buffer of one file: its CPUs' next records. */
struct aw_tbuf {
	struct tracecmd_input *h;	/* the file's handle, or an instance's */
	struct tep_handle *tep;		/* changes when the file is reopened */
	uint64_t generation;		/* a new one at each (re)open: the tep may reuse an address */
	int file, index;		/* index 0 = the top buffer */
	int ncpu;
	struct tep_record **next;	/* per CPU, NULL when done */
	void *user;			/* the reader's per-buffer state (event ids, fields) */
};

struct aw_tfile {
	const char *path;
	struct tracecmd_input *h;
	int nr_bufs;
	struct aw_tbuf bufs[AW_TSRC_MAX_BUFS];
	uint64_t size;			/* bytes, for progress */
	uint64_t since_open;		/* records read since the last (re)open */
	uint64_t first_ts, last_ts;	/* raw timestamps seen */
	int64_t shift;			/* added to its timestamps (sequential files) */
	bool started, done;
};

struct aw_tsource {
	int nr_files;
	struct aw_tfile files[AW_TSRC_MAX_FILES];
	bool merge;
	int cur;			/* sequential: the file being read */
	uint64_t reopens;
	uint64_t generations;		/* buffers opened so far (aw_tbuf.generation) */
	uint64_t records, check_at;	/* records given; the next memory check */
	uint64_t heap_base;		/* bytes in use (source.c: in_use()) after the last (re)open */
	uint64_t open_ns;		/* CPU the last (re)open of the files took */
	uint64_t opened_cpu_ns;		/* the process's CPU time when it ended */
	uint64_t reopen_every;		/* also reopen every this many records (tests), 0 = never */
	uint64_t reopened_at;
	uint64_t last_out;		/* the replay timestamp of the last record given */
};

/*
 * Open the files.  Corrupt headers can crash libtracecmd itself: with an
 * active guard (guard.h) the opens are watched by the parent process,
 * else each file is first probed in a child (aw_tsource_probe()).
 * Returns 0, or -1 with "FILE: ..." in err.
 */
int aw_tsource_open(struct aw_tsource *s, const char *const *paths, int n, bool merge, struct aw_tguard *guard,
		    char *err, size_t errlen);
/*
 * The next record: 1 with *rec, *buf and *ts (the replay timestamp:
 * shifted for files after the first when they are replayed in sequence),
 * 0 at the end, -1 with err set (a file that cannot be reopened).  The
 * record is the caller's until aw_tsource_put().
 */
int aw_tsource_next(struct aw_tsource *s, struct tep_record **rec, struct aw_tbuf **buf, uint64_t *ts,
		    char *err, size_t errlen);
void aw_tsource_put(struct aw_tsource *s, struct tep_record *rec);
/* How far through the input, 0..1 (bytes of finished files and file offsets). */
double aw_tsource_progress(const struct aw_tsource *s, const struct tep_record *rec, const struct aw_tbuf *buf);
void aw_tsource_close(struct aw_tsource *s);

/* Open path's headers in a child first: the signal that killed it, -1 for a sanitizer's exit, 0 if fine. */
int aw_tsource_probe(const char *path);

#endif /* AW_TRACE_SOURCE_H */
