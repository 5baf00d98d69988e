/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the .aws reader and writer share, private to src/event/aws_*.c.  The
 * public contract is aw_aws_parse_file(), aw_aws_parse_string() and
 * aw_aws_write() in scenario.h; nothing here is meant for other callers.
 *
 *   aws_lex.c     characters, numbers, a line's tokens, error messages
 *   aws_ntab.c    the name -> id hash both the parser and the writer use
 *   aws_parse.c   the parser: the words, the keyword table, repeat blocks,
 *                 the checks at the end, files
 *   aws_args.c    what the line handlers read: numbers, ids, names, targets
 *   aws_header.c  header directives (topology, node, memcg, thp, kernel...)
 *   aws_proc.c    processes and mappings (proc, fork, exec, mmap, brk...)
 *   aws_mem.c     policy, access, advice, migration, memcg, prctl lines
 *   aws_reclaim.c reclaim, khugepaged, contention, time, sample lines
 *   aws_expect.c  the `expect` language, read and written
 *   aws_write.c   the writer
 *
 * The spelling of every word the language has is defined once, in the
 * tables below, and used by both directions: the writer prints exactly the
 * words the parser accepts, which is what keeps aw_aws_write()'s output
 * reading back to the same scenario.
 */
#ifndef AW_AWS_INTERNAL_H
#define AW_AWS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"

#define AW_PAGE_SIZE	4096ull
#define AW_USER_LIMIT	(1ull << 47)	/* x86-64 4-level TASK_SIZE */
#define AW_PHYS_LIMIT	(1ull << 52)	/* x86-64 physical address width */
#define AW_MAX_EVENTS	10000000ull	/* after repeat expansion */
#define AW_MAX_REPEAT	10000000ull	/* repeat blocks and access repeat */
#define AW_MAX_DEPTH	16		/* nested repeat blocks */
#define AW_MAX_REPLAY	(1ull << 30)	/* bytes of text re-read by repeat */
#define AW_MAX_TOKS	64		/* tokens on one line */
#define AW_MAX_TEXT	(256u << 20)	/* input size */
#define AW_MAX_PROCS	(1u << 24)
#define AW_MAX_REGIONS	UINT16_MAX	/* event.region is 16 bits */
#define AW_SWAPPINESS_MAX 201		/* MAX_SWAPPINESS + 1: anon only */

#define AW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Words (aws_parse.c): the spellings the parser and the writer share */
/* ------------------------------------------------------------------ */

extern const char *const aw_madv_names[AW_MADV_NR];
extern const char *const aw_mpol_names[AW_MPOL_NR];
extern const char *const aw_prctl_names[AW_THP_DISABLE_NR];
extern const char *const aw_lock_names[AW_LOCK_NR];
extern const char *const aw_kh_knob_names[AW_KH_KNOB_NR];
extern const char *const aw_layout_names[AW_LAYOUT_NR];
extern const char *const aw_onoff_names[2];	/* off, on */

/* The mmap flag words, in the order the writer prints them. */
struct aw_map_flag {
	const char *name;
	uint8_t flag;
};
extern const struct aw_map_flag aw_map_flags[8];

/* Protection letters, in the only order a protection may spell them. */
struct aw_prot_letter {
	char c;
	uint32_t bit;
};
extern const struct aw_prot_letter aw_prot_letters[3];

/* The options of the reclaim keywords (age, age_*, evict), as bits. */
enum {
	AW_RO_NODE, AW_RO_MEMCG, AW_RO_FORCE, AW_RO_SWAPPINESS, AW_RO_NR, AW_RO_DIRECT, AW_RO_LOST
};
#define AW_RO(x) (1u << AW_RO_##x)
/* Which AW_RO_* bits each reclaim kind takes; 0 for other kinds. */
extern const unsigned int aw_reclaim_allowed[AW_EV_NR];

/*
 * The keyword of an event's line: the parser's keyword table read
 * backwards.  NULL when the kind has no line (AW_EV_NONE, out of range).
 */
const char *aw_aws_keyword(const struct aw_event *ev);

/* ------------------------------------------------------------------ */
/* Characters and numbers (aws_lex.c)                                 */
/* ------------------------------------------------------------------ */

/* Not <ctype.h>: its answers depend on the locale and on signed chars. */
static inline bool aw_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline bool aw_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool aw_isalpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* The characters of an expect key. */
static inline bool aw_iskey(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

static inline bool aw_isnamechar(char c)
{
	return aw_isalpha(c) || aw_isdigit(c) || c == '_' || c == '.' || c == '-';
}

bool aw_name_ok(const char *s, size_t len);

/* Binary size suffixes: aw_size_suffix[i] scales by 2^(10 * (i + 1)). */
extern const char aw_size_suffix[4];		/* "KMGT" */
unsigned int aw_suffix_shift(char c);

/* Duration units, smallest first. */
struct aw_time_unit {
	const char *name;
	uint64_t ns;
};
extern const struct aw_time_unit aw_time_units[4];	/* ns, us, ms, s */

/* These return 0, -1 when malformed, -2 when the value is out of range. */
int aw_parse_num(const char *s, size_t len, bool suffix, uint64_t *out);
int aw_parse_duration(const char *s, size_t len, uint64_t *ns);

/* ------------------------------------------------------------------ */
/* Name tables (aws_ntab.c)                                           */
/* ------------------------------------------------------------------ */

/*
 * Open-addressing hash from name to id, the names themselves living in the
 * scenario's name arrays.  A converted trace can define tens of thousands of
 * processes; a linear search per line would make parsing quadratic.
 */
struct aw_ntab {
	uint32_t *slot;		/* id, 0 = empty */
	uint32_t size;		/* power of two, at most half full */
	uint32_t count;
};

typedef const char (*aw_names_t)[AW_MAX_NAME];

/* The id of the name s[0..len), 0 when absent. */
uint32_t aw_ntab_find(const struct aw_ntab *t, aw_names_t names, const char *s, size_t len);
/* names[id - 1] must already hold the name.  -1: out of memory. */
int aw_ntab_add(struct aw_ntab *t, aw_names_t names, uint32_t id);

/* ------------------------------------------------------------------ */
/* Parser state (aws_parse.c)                                         */
/* ------------------------------------------------------------------ */

struct aw_tok {
	const char *s;
	int len;
	int col;		/* 1-based byte column */
};

/* Where an id was first used, for the checks made at the end. */
struct aw_ref {
	int line;		/* 0 = not used */
	int col;
};

struct aw_block {		/* an open `repeat N {` */
	size_t first;		/* first event of the first pass */
	uint64_t count;
	uint64_t left;		/* passes still to run after this one */
	size_t body;		/* text offset of the block's first line */
	int line;		/* of the `repeat` */
	int col;		/* of the '{' */
	int count_col;
	bool again;		/* past the first pass */
};

struct aw_fixup {		/* expect region=NAME, resolved at the end */
	char name[AW_MAX_NAME];
	int col;
};

struct aw_parser {
	const char *file;
	struct aw_scenario *sc;
	char *err;
	size_t errlen;

	/* the current line */
	const char *base;		/* the whole text */
	size_t next;			/* offset of the line to read next */
	int line;
	const char *text;
	int textlen;
	struct aw_tok tok[AW_MAX_TOKS];
	int ntok, pos;
	const struct aw_tok *kw;	/* its first token */
	int kind;			/* enum aw_event_kind of the keyword */
	uint8_t kw_flags;		/* event flags the keyword implies */

	struct aw_ntab procs, regions;
	int cap_procs, cap_regions;
	uint64_t *region_len;		/* as of the latest mmap/mremap line */

	struct aw_block block[AW_MAX_DEPTH];
	int depth;
	int again;			/* blocks on the stack past their first pass */
	uint64_t replay;		/* bytes of text scheduled to be read again */

	bool node_lines, topology, modes;
	uint32_t memcg_declared;	/* bit per id */
	struct aw_ref node_ref[AW_MAX_NODES];
	struct aw_ref cpu_ref[AW_MAX_CPUS];
	struct aw_ref memcg_ref[AW_MAX_MEMCGS];

	struct aw_fixup *fixup;		/* one per expectation */
};

static inline void aw_ref(struct aw_ref *r, int line, int col)
{
	if (!r->line) {
		r->line = line;
		r->col = col;
	}
}

/* The next capacity of a growing array. */
static inline int aw_next_cap(int cap)
{
	return cap ? cap * 2 : 16;
}

/* ------------------------------------------------------------------ */
/* What line handlers read (aws_args.c)                               */
/* ------------------------------------------------------------------ */

/*
 * Each returns 0, or -1 with the message in p->err.  need_* read the next
 * token and name what was expected when it is missing.
 */

/* An event of that kind, every field zero; then appended at the line's end. */
void aw_ev_init(struct aw_event *ev, int kind);
int aw_emit(struct aw_parser *p, const struct aw_event *ev);

/* A number, with binary size suffixes if suffix; its errors name the token. */
int aw_num(struct aw_parser *p, const struct aw_tok *t, bool suffix, uint64_t *v);
int aw_need_num(struct aw_parser *p, const char *what, bool suffix, uint64_t *v,
		const struct aw_tok **t);
/* An integer in [lo, hi]. */
int aw_need_int(struct aw_parser *p, const char *what, uint64_t lo, uint64_t hi, uint64_t *v);
/* A length: nonzero and, when page, a whole number of 4 KiB pages. */
int aw_need_len(struct aw_parser *p, const char *what, bool page, uint64_t *v,
		const struct aw_tok **t);
/* A fixed, page-aligned, nonzero user address (`at ADDR`, mmap_base). */
int aw_need_fixed(struct aw_parser *p, const char *what, uint64_t *v, const struct aw_tok **t);
/* addr + len within the 47-bit user address space; t is blamed if not. */
int aw_range_ok(struct aw_parser *p, const struct aw_tok *t, uint64_t addr, uint64_t len);
/* Node, CPU and memcg ids: their existence is checked at the end of the file. */
int aw_need_node(struct aw_parser *p, uint16_t *node);
int aw_need_cpu(struct aw_parser *p, uint16_t *cpu);
int aw_need_memcg(struct aw_parser *p, uint16_t *memcg);
/* A memcg limit: `max` (0) or a size. */
int aw_need_limit(struct aw_parser *p, uint64_t *v);

/* A process or region name token; `what` names it in the message. */
int aw_name_tok(struct aw_parser *p, const struct aw_tok *t, const char *what);
/* A process already defined (need_proc), or defined by this line (def_proc). */
int aw_need_proc(struct aw_parser *p, uint32_t *pid);
int aw_def_proc(struct aw_parser *p, uint32_t *pid);
/* Region ids: found (0 if unknown), added, or one an earlier mmap defined (aw_region). */
uint32_t aw_find_region(struct aw_parser *p, const char *s, size_t len);
int aw_add_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id);
int aw_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id);
/* TARGET: REGION [off SIZE] [len SIZE] | ADDR len SIZE (aw_target_abs: the latter, ADDR read). */
int aw_target_abs(struct aw_parser *p, const struct aw_tok *at, struct aw_event *ev);
int aw_target(struct aw_parser *p, struct aw_event *ev);
/* An event of the line's kind, its process and TARGET (munmap, mprotect, mbind, ...). */
int aw_proc_target(struct aw_parser *p, struct aw_event *ev);

/* A THP mode word: always, never or madvise. */
int aw_thp_tok(struct aw_parser *p, const struct aw_tok *t, int *mode);

/* ------------------------------------------------------------------ */
/* Line handlers: the keyword table's (aws_parse.c) functions         */
/* ------------------------------------------------------------------ */

/* Header directives (aws_header.c) */
int aw_h_topology(struct aw_parser *p);
int aw_h_node(struct aw_parser *p);
int aw_h_memcg(struct aw_parser *p);
int aw_h_thp(struct aw_parser *p);
int aw_h_modes(struct aw_parser *p);
int aw_h_swap(struct aw_parser *p);
int aw_h_mmap_base(struct aw_parser *p);
int aw_h_layout(struct aw_parser *p);
int aw_h_kernel(struct aw_parser *p);
int aw_h_khugepaged_rev(struct aw_parser *p);
int aw_h_khugepaged_prctl_enter(struct aw_parser *p);
int aw_h_region(struct aw_parser *p);
int aw_h_skip_empty(struct aw_parser *p);
int aw_h_empty_contract(struct aw_parser *p);

/* Processes and mappings (aws_proc.c) */
int aw_h_proc(struct aw_parser *p);
int aw_h_fork(struct aw_parser *p);	/* fork, vfork, thread */
int aw_h_pid(struct aw_parser *p);	/* exec, exit */
int aw_h_run(struct aw_parser *p);
int aw_h_mmap(struct aw_parser *p);
int aw_h_munmap(struct aw_parser *p);
int aw_h_mremap(struct aw_parser *p);
int aw_h_mprotect(struct aw_parser *p);
int aw_h_brk(struct aw_parser *p);

/* Policy, access, advice, migration, memcg, prctl (aws_mem.c) */
int aw_h_mbind(struct aw_parser *p);
int aw_h_set_mempolicy(struct aw_parser *p);
int aw_h_access(struct aw_parser *p);	/* read, write */
int aw_h_fdio(struct aw_parser *p);	/* pread, pwrite */
int aw_h_madvise(struct aw_parser *p);
int aw_h_migrate(struct aw_parser *p);
int aw_h_limit(struct aw_parser *p);
int aw_h_memcg_move(struct aw_parser *p);
int aw_h_prctl(struct aw_parser *p);

/* Reclaim, khugepaged, contention, time, samples (aws_reclaim.c) */
int aw_h_reclaim(struct aw_parser *p);	/* age, age_begin, age_step, age_end, evict */
int aw_h_khugepaged(struct aw_parser *p);
int aw_h_contend(struct aw_parser *p);
int aw_h_time(struct aw_parser *p);
int aw_h_sample(struct aw_parser *p);

/* The `expect` line (aws_expect.c) */
int aw_h_expect(struct aw_parser *p);
/* One expectation as a line; `region` is its region's name, if any. */
void aw_expect_write(FILE *out, const struct aw_expect *e, const char *region);

/* ------------------------------------------------------------------ */
/* Errors and tokens (aws_lex.c)                                      */
/* ------------------------------------------------------------------ */

/* "FILE:LINE:COL: message" into err; always -1. */
__attribute__((format(printf, 6, 7)))
int aw_errf(char *err, size_t errlen, const char *file, int line, int col,
	    const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
int aw_fail(struct aw_parser *p, int line, int col, const char *fmt, ...);
int aw_oom(struct aw_parser *p, int col);

/* A token quoted in a message, cut short so the message stays readable. */
struct aw_quote {
	char s[48];
};

struct aw_quote aw_quote(const char *s, size_t len);

/* Valid until the end of the full expression (C11 6.2.4p8). */
#define AW_Q(t) (aw_quote((t)->s, (size_t)(t)->len).s)

/* Split the current line into p->tok; a '#' anywhere starts a comment. */
int aw_tokenize(struct aw_parser *p);

static inline bool aw_teq(const struct aw_tok *t, const char *s)
{
	size_t n = strlen(s);

	return t && (size_t)t->len == n && !memcmp(t->s, s, n);
}

static inline const struct aw_tok *aw_next(struct aw_parser *p)
{
	return p->pos < p->ntok ? &p->tok[p->pos++] : NULL;
}

static inline const struct aw_tok *aw_peek(struct aw_parser *p)
{
	return p->pos < p->ntok ? &p->tok[p->pos] : NULL;
}

/* Column just after the line's last token: where a missing word belongs. */
static inline int aw_endcol(const struct aw_parser *p)
{
	const struct aw_tok *t = &p->tok[p->ntok - 1];

	return t->col + t->len;
}

int aw_need(struct aw_parser *p, const char *what, const struct aw_tok **t);
int aw_unexpected(struct aw_parser *p, const struct aw_tok *t);
int aw_done(struct aw_parser *p);
int aw_lookup(const struct aw_tok *t, const char *const names[], int nr);
int aw_need_keyword(struct aw_parser *p, const char *what, const char *const names[], int nr, int *i);
int aw_opt(struct aw_parser *p, const struct aw_tok *t, const char *const opts[],
	   unsigned int *seen);

#endif /* AW_AWS_INTERNAL_H */
