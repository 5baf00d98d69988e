/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tracepoints agewalk reads, as data: one row per event with its
 * system, its name, the fields its handler reads and the handler, in the
 * spirit of the kernel's include/linux/tracepoint.h (a tracepoint is a
 * name, a record layout and the probes attached to it) and of trace-cmd's
 * trace-mem.c (ids and fields looked up by name once, records dispatched
 * by id).  The reader (reader.c) resolves every row against each buffer's
 * format once; a handler then reads fields by their index in its row.
 *
 * Handlers live one file per subsystem: ev_syscalls.c (mmap, munmap,
 * mremap, mprotect, brk, madvise, mbind, set_mempolicy, prctl), ev_sched.c
 * (process lifetime and scheduling), ev_access.c (faults, DAMON,
 * migrations), ev_vmscan.c (MGLRU aging), ev_huge_memory.c (khugepaged).
 */
#ifndef AW_TEV_H
#define AW_TEV_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <trace-cmd/trace-cmd.h>

#include "ingest.h"

/* Every event of the table, in its order (tev.c). */
enum aw_tev {
	AW_TEV_FAULT, AW_TEV_MMAP_ENTER, AW_TEV_MMAP_EXIT, AW_TEV_MUNMAP, AW_TEV_MREMAP,
	AW_TEV_MPROTECT, AW_TEV_BRK_ENTER, AW_TEV_BRK_EXIT, AW_TEV_MADVISE, AW_TEV_MBIND,
	AW_TEV_SET_MEMPOLICY, AW_TEV_MOVE_PAGES, AW_TEV_MIGRATE_PAGES, AW_TEV_PRCTL, AW_TEV_MM_MIGRATE,
	AW_TEV_FORK, AW_TEV_EXEC, AW_TEV_EXIT, AW_TEV_SWITCH, AW_TEV_NEWTASK, AW_TEV_LRU_GEN_WALK,
	AW_TEV_DAMON, AW_TEV_KH_SCAN_PMD, AW_TEV_KH_COLLAPSE, AW_TEV_KH_SWAPIN, AW_TEV_KH_SCAN,
	AW_TEV_PREAD, AW_TEV_PWRITE, AW_TEV_CLOSE,
	AW_TEV_NR
};

#define AW_TEV_MAX_FIELDS	6
#define AW_TEV_MAX_SYMS		64

/*
 * The names a field's values have in the event's print fmt
 * (__print_symbolic()), for enums whose numbering changes between kernels
 * (khugepaged's SCAN_* status).
 */
struct aw_tsyms {
	int nr;
	struct { long long value; const char *str; } e[AW_TEV_MAX_SYMS];
};

/*
 * What one buffer's format says, resolved once per (re)open: each row's
 * event id (-1: the file lacks it), its fields (NULL: the event lacks the
 * field, read as 0), its symbol table, and for every event id of the file
 * what it is to agewalk (-1: not read, then its entry in the skipped list
 * once met).
 */
struct aw_tres {
	struct tep_handle *tep;
	uint64_t generation;			/* the buffer's (re)open it was resolved for */
	int id[AW_TEV_NR];
	struct tep_format_field *field[AW_TEV_NR][AW_TEV_MAX_FIELDS];
	/*
	 * Where each field lies and its width (1, 2, 4 or 8; 0: a width
	 * tep_read_number_field() refuses, read as 0), and the same for the
	 * common type and pid, read here rather than through libtraceevent on
	 * every record (Debian builds it unoptimized: its readers were a tenth
	 * of the reader thread).  Only when the file's byte order is the
	 * host's (native); otherwise every read goes through libtraceevent.
	 */
	bool native;
	uint32_t off[AW_TEV_NR][AW_TEV_MAX_FIELDS];
	uint8_t size[AW_TEV_NR][AW_TEV_MAX_FIELDS];
	uint32_t type_off, pid_off;
	uint8_t type_size, pid_size;
	struct aw_tsyms syms[AW_TEV_NR];	/* rows with a symbolic field */
	int max_id;
	int8_t *tev_of;				/* event id -> enum aw_tev, -1 */
	int16_t *skip_slot;			/* event id -> st->skipped index, -1 unknown, -2 none */
};

/* One record as its handler sees it. */
struct aw_tctx {
	struct aw_ingest *in;
	const struct aw_tres *res;
	struct tep_record *rec;
	enum aw_tev t;
	uint32_t tid;			/* the record's task */
	int cpu;			/* its CPU, 0 when out of range */
};

/* Returns 0, or -1: the converted stream is too large or out of memory. */
typedef int (*aw_tev_handler_t)(const struct aw_tctx *c);

struct aw_tev_desc {
	const char *system, *event;
	/*
	 * The fields the handler reads, by index.  None is required: a field
	 * the recording's kernel lacks reads 0 (aw_tf_has() tells), so older
	 * and newer layouts replay alike.
	 */
	const char *fields[AW_TEV_MAX_FIELDS];
	const char *symbolic;		/* a field named by the print fmt's __print_symbolic(), or NULL */
	aw_tev_handler_t handler;	/* NULL: counted as used, nothing to replay */
	bool structural;		/* replayed before --start: processes and their mappings */
};

extern const struct aw_tev_desc aw_tev_table[AW_TEV_NR];

/*
 * size bytes at p, as tep_read_number() reads a native file: unsigned,
 * zero-extended; 0 for a width it does not read.
 */
static inline uint64_t aw_tread(const void *p, unsigned int size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1: memcpy(&v8, p, 1); return v8;
	case 2: memcpy(&v16, p, 2); return v16;
	case 4: memcpy(&v32, p, 4); return v32;
	case 8: memcpy(&v64, p, 8); return v64;
	default: return 0;
	}
}

/* Field i of the record, 0 if the event lacks it; read at its recorded width. */
static inline uint64_t aw_tf(const struct aw_tctx *c, int i)
{
	struct tep_format_field *f = c->res->field[c->t][i];
	unsigned long long v = 0;

	if (!f)
		return 0;
	if (c->res->native)
		return aw_tread((const char *)c->rec->data + c->res->off[c->t][i], c->res->size[c->t][i]);
	if (tep_read_number_field(f, c->rec->data, &v))
		return 0;
	return v;
}

static inline bool aw_tf_has(const struct aw_tctx *c, int i)
{
	return c->res->field[c->t][i] != NULL;
}

/* A syscall int, masked to 32 bits. */
static inline uint32_t aw_tf32(const struct aw_tctx *c, int i)
{
	return (uint32_t)(aw_tf(c, i) & 0xffffffffULL);
}

/* A signed value (syscall return, status), sign-extended from its recorded width (4 on 32-bit). */
static inline int64_t aw_tf_ret(const struct aw_tctx *c, int i)
{
	uint64_t v = aw_tf(c, i);

	if (aw_tf_has(c, i) && c->res->field[c->t][i]->size == 4)
		return (int32_t)(uint32_t)v;
	return (int64_t)v;
}

/* The comm the file's saved cmdlines give the record's task. */
static inline const char *aw_tev_comm(const struct aw_tctx *c)
{
	return tep_data_comm_from_pid(c->res->tep, (int)c->tid);
}

/* reader.c: count a record not replayed under name; its slot in the list, -2 when the list is full. */
int aw_trace_skipped(struct aw_trace_stats *st, const char *name);

/* ev_syscalls.c */
int aw_on_mmap(const struct aw_tctx *c);		/* sys_enter_mmap, sys_exit_mmap */
int aw_on_brk(const struct aw_tctx *c);			/* sys_exit_brk */
int aw_on_range(const struct aw_tctx *c);		/* munmap, mremap, mprotect, madvise, mbind */
int aw_on_set_mempolicy(const struct aw_tctx *c);
int aw_on_prctl(const struct aw_tctx *c);
int aw_on_fdio(const struct aw_tctx *c);		/* sys_enter_pread64, sys_enter_pwrite64 */
int aw_on_close(const struct aw_tctx *c);		/* sys_enter_close */

/* ev_sched.c */
int aw_on_newtask(const struct aw_tctx *c);
int aw_on_fork(const struct aw_tctx *c);
int aw_on_exec(const struct aw_tctx *c);
int aw_on_exit(const struct aw_tctx *c);
int aw_on_switch(const struct aw_tctx *c);

/* ev_access.c */
int aw_on_fault(const struct aw_tctx *c);
int aw_on_migration(const struct aw_tctx *c);		/* move_pages, migrate_pages, mm_migrate_pages */
int aw_on_damon(const struct aw_tctx *c);

/* ev_vmscan.c */
int aw_on_lru_gen_walk(const struct aw_tctx *c);
int aw_lru_gen_close_group(struct aw_ingest *in, int nid);	/* at the end: flag the open pass */

/* ev_huge_memory.c */
int aw_on_khugepaged(const struct aw_tctx *c);		/* every huge_memory row */

#endif /* AW_TEV_H */
