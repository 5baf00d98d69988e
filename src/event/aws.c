/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * .aws text scenarios: parser and writer.  The grammar is documented in
 * docs/aws-format.md; this file is its only implementation.
 *
 * The parser reads one line at a time, splits it into tokens and hands them
 * to the handler of the line's first word, which fills one struct aw_event
 * and appends it.  `repeat N {` ... `}` blocks are loops over the text: at
 * the closing brace the parser goes back to the first line of the block,
 * N-1 times.  The events are therefore exactly those of the block written
 * out N times (which is how aw_aws_write() prints them, so its output reads
 * back the same), with names keeping the id of their first definition and
 * region lengths evolving from copy to copy.  Header directives and `expect`
 * lines inside a block take effect once.
 *
 * Header directives may appear anywhere, so a check that depends on them
 * (does node 2 exist, is memcg 3 declared, is CPU 5 on a node) cannot be
 * made when the line that uses the id is read.  Such uses record where an id
 * was first used, and the ids are checked once the whole file has been read.
 *
 * Every failure produces one "FILE:LINE:COL: message" line and -1.  The same
 * code is fed by the fuzzers and by `minimize`, so nothing here may crash,
 * overflow or allocate from an unchecked count on hostile input.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L	/* strdup, strnlen */
#endif
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Keyword spellings shared by the parser and the writer. */
static const char *const aw_madv_names[AW_MADV_NR] = {
	[AW_MADV_FREE]		= "free",
	[AW_MADV_DONTNEED]	= "dontneed",
	[AW_MADV_COLD]		= "cold",
	[AW_MADV_PAGEOUT]	= "pageout",
	[AW_MADV_HUGEPAGE]	= "hugepage",
	[AW_MADV_NOHUGEPAGE]	= "nohugepage",
	[AW_MADV_COLLAPSE]	= "collapse",
};

static const char *const aw_mpol_names[AW_MPOL_NR] = {
	[AW_MPOL_DEFAULT]	= "default",
	[AW_MPOL_BIND]		= "bind",
	[AW_MPOL_PREFERRED]	= "preferred",
};

static const char *const aw_prctl_names[AW_THP_DISABLE_NR] = {
	[AW_THP_ENABLE]			= "thp_enable",
	[AW_THP_DISABLE_COMPLETELY]	= "thp_disable",
	[AW_THP_DISABLE_EXCEPT_ADVISED]	= "thp_disable_except_advised",
};

static const char *const aw_lock_names[AW_LOCK_NR] = {
	[AW_LOCK_MMAP]	= "mmap",
	[AW_LOCK_PTL]	= "ptl",
};

static const char *const aw_cmp_names[] = {
	[AW_CMP_EQ] = "==", [AW_CMP_NE] = "!=", [AW_CMP_LE] = "<=",
	[AW_CMP_GE] = ">=", [AW_CMP_LT] = "<",  [AW_CMP_GT] = ">",
};

static const struct {
	const char *name;
	uint8_t flag;
} aw_map_flags[] = {
	{ "file",	AW_MAP_FILE },
	{ "locked",	AW_MAP_LOCKED },
	{ "seqread",	AW_MAP_SEQ_READ },
	{ "randread",	AW_MAP_RAND_READ },
	{ "droppable",	AW_MAP_DROPPABLE },
	{ "hugepage",	AW_MAP_HUGEPAGE },
	{ "nohugepage",	AW_MAP_NOHUGEPAGE },
	{ "noreserve",	AW_MAP_NORESERVE },
};

#define AW_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Characters, names and numbers                                      */
/* ------------------------------------------------------------------ */

/* Not <ctype.h>: its answers depend on the locale and on signed chars. */
static bool aw_isspace(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool aw_isdigit(char c)
{
	return c >= '0' && c <= '9';
}

static bool aw_isalpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool aw_iskey(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

static bool aw_isnamechar(char c)
{
	return aw_isalpha(c) || aw_isdigit(c) || c == '_' || c == '.' || c == '-';
}

/* [A-Za-z_][A-Za-z0-9_.-]*, short enough for a char[AW_MAX_NAME]. */
static bool aw_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= AW_MAX_NAME || !(aw_isalpha(s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!aw_isnamechar(s[i]))
			return false;
	return true;
}

static int aw_digit(char c, unsigned int base)
{
	int d = -1;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	return d >= 0 && (unsigned int)d < base ? d : -1;
}

static unsigned int aw_suffix_shift(char c)
{
	switch (c) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	case 't': case 'T': return 40;
	}
	return 0;
}

/*
 * Decimal or 0x hex, with an optional binary K/M/G/T suffix when `suffix`.
 * Returns 0, -1 when malformed, -2 when the value does not fit in 64 bits.
 */
static int aw_parse_num(const char *s, size_t len, bool suffix, uint64_t *out)
{
	unsigned int base = 10, shift = 0;
	uint64_t v = 0;
	size_t i = 0, digits = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (suffix && len > i && (shift = aw_suffix_shift(s[len - 1])))
		len--;
	for (; i < len; i++, digits++) {
		int d = aw_digit(s[i], base);

		if (d < 0)
			return -1;
		if (v > (UINT64_MAX - (unsigned int)d) / base)
			return -2;
		v = v * base + (unsigned int)d;
	}
	if (!digits)
		return -1;
	if (v > UINT64_MAX >> shift)
		return -2;
	*out = v << shift;
	return 0;
}

/* [+]DIGITS(ns|us|ms|s) to nanoseconds; same return convention. */
static int aw_parse_duration(const char *s, size_t len, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mul; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	size_t i, n = 0;
	uint64_t v;

	if (len && s[0] == '+') {
		s++;
		len--;
	}
	while (n < len && aw_isdigit(s[n]))
		n++;
	for (i = 0; i < AW_ARRAY_SIZE(units); i++) {
		size_t ulen = strlen(units[i].unit);
		int r;

		if (len - n != ulen || memcmp(s + n, units[i].unit, ulen))
			continue;
		r = aw_parse_num(s, n, false, &v);
		if (r)
			return r;
		if (v > UINT64_MAX / units[i].mul)
			return -2;
		*ns = v * units[i].mul;
		return 0;
	}
	return -1;
}

/*
 * An expectation value: an integer as above, or a decimal with optional
 * fraction and exponent, optionally negative.  The syntax is checked here
 * and only then given to strtod(), which alone rounds correctly; the writer
 * relies on that to print values that read back bit for bit.
 */
static int aw_parse_value(const char *s, size_t len, double *out)
{
	char buf[64];
	bool neg = false;
	unsigned int shift = 0;
	uint64_t u;
	size_t i = 0;
	double d;
	int r;

	if (len && s[0] == '-') {
		neg = true;
		s++;
		len--;
	}
	r = aw_parse_num(s, len, true, &u);
	if (r != -1) {
		if (!r)
			*out = neg ? -(double)u : (double)u;
		return r;
	}
	if (len && (shift = aw_suffix_shift(s[len - 1])))
		len--;
	while (i < len && aw_isdigit(s[i]))
		i++;
	if (!i)
		return -1;
	if (i < len && s[i] == '.') {
		size_t f = ++i;

		while (i < len && aw_isdigit(s[i]))
			i++;
		if (i == f)
			return -1;
	}
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t e;

		if (++i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		e = i;
		while (i < len && aw_isdigit(s[i]))
			i++;
		if (i == e)
			return -1;
	}
	if (i != len || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* Scaling by a power of two is exact; no libm needed. */
	d = strtod(buf, NULL) * (double)(1ull << shift);
	if (!isfinite(d))
		return -2;
	*out = neg ? -d : d;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Name tables                                                        */
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

static uint32_t aw_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

static bool aw_name_eq(const char *name, const char *s, size_t len)
{
	return strnlen(name, AW_MAX_NAME) == len && !memcmp(name, s, len);
}

static uint32_t aw_ntab_find(const struct aw_ntab *t, aw_names_t names,
			     const char *s, size_t len)
{
	uint32_t i, mask = t->size - 1;

	if (!t->size)
		return 0;
	for (i = aw_hash(s, len) & mask;; i = (i + 1) & mask) {
		uint32_t id = t->slot[i];

		if (!id || aw_name_eq(names[id - 1], s, len))
			return id;
	}
}

static void aw_ntab_put(struct aw_ntab *t, aw_names_t names, uint32_t id)
{
	const char *name = names[id - 1];
	uint32_t mask = t->size - 1;
	uint32_t i = aw_hash(name, strnlen(name, AW_MAX_NAME)) & mask;

	while (t->slot[i])
		i = (i + 1) & mask;
	t->slot[i] = id;
	t->count++;
}

/* names[id - 1] must already hold the name. */
static int aw_ntab_add(struct aw_ntab *t, aw_names_t names, uint32_t id)
{
	if (((uint64_t)t->count + 1) * 2 > t->size) {
		struct aw_ntab n = { NULL, t->size ? t->size * 2 : 64, 0 };
		uint32_t i;

		if (!n.size)
			return -1;
		n.slot = calloc(n.size, sizeof(*n.slot));
		if (!n.slot)
			return -1;
		for (i = 0; i < t->size; i++)
			if (t->slot[i])
				aw_ntab_put(&n, names, t->slot[i]);
		free(t->slot);
		*t = n;
	}
	aw_ntab_put(t, names, id);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parser state, errors and tokens                                    */
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

struct aw_parser;
typedef int (*aw_handler_t)(struct aw_parser *p);

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

/* Control characters in a message would break the one-line contract. */
static void aw_oneline(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void aw_verr(char *err, size_t errlen, const char *file, int line, int col,
		    const char *fmt, va_list ap)
{
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s:%d:%d: ", file, line, col);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	aw_oneline(err);
}

__attribute__((format(printf, 6, 7)))
static int aw_errf(char *err, size_t errlen, const char *file, int line, int col,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aw_verr(err, errlen, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

__attribute__((format(printf, 4, 5)))
static int aw_fail(struct aw_parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aw_verr(p->err, p->errlen, p->file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

/* A token quoted in a message, cut short so the message stays readable. */
struct aw_quote {
	char s[48];
};

static struct aw_quote aw_quote(const char *s, size_t len)
{
	struct aw_quote q;

	if (len > 40) {
		memcpy(q.s, s, 37);
		memcpy(q.s + 37, "...", 4);
	} else {
		memcpy(q.s, s, len);
		q.s[len] = '\0';
	}
	return q;
}

/* Valid until the end of the full expression (C11 6.2.4p8). */
#define AW_Q(t) (aw_quote((t)->s, (size_t)(t)->len).s)

static int aw_oom(struct aw_parser *p, int col)
{
	return aw_fail(p, p->line, col, "out of memory");
}

static bool aw_teq(const struct aw_tok *t, const char *s)
{
	size_t n = strlen(s);

	return t && (size_t)t->len == n && !memcmp(t->s, s, n);
}

static const struct aw_tok *aw_next(struct aw_parser *p)
{
	return p->pos < p->ntok ? &p->tok[p->pos++] : NULL;
}

static const struct aw_tok *aw_peek(struct aw_parser *p)
{
	return p->pos < p->ntok ? &p->tok[p->pos] : NULL;
}

/* Column just after the line's last token: where a missing word belongs. */
static int aw_endcol(const struct aw_parser *p)
{
	const struct aw_tok *t = &p->tok[p->ntok - 1];

	return t->col + t->len;
}

static int aw_need(struct aw_parser *p, const char *what, const struct aw_tok **t)
{
	*t = aw_next(p);
	if (!*t)
		return aw_fail(p, p->line, aw_endcol(p), "expected %s", what);
	return 0;
}

static int aw_unexpected(struct aw_parser *p, const struct aw_tok *t)
{
	return aw_fail(p, p->line, t->col, "unexpected '%s'", AW_Q(t));
}

static int aw_done(struct aw_parser *p)
{
	const struct aw_tok *t = aw_next(p);

	return t ? aw_unexpected(p, t) : 0;
}

/* Index of the keyword in names[] (NULL entries skipped), or -1. */
static int aw_lookup(const struct aw_tok *t, const char *const names[], int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (names[i] && aw_teq(t, names[i]))
			return i;
	return -1;
}

/*
 * Index of an optional keyword in the NULL-terminated opts[], recording it
 * in *seen so that a keyword given twice is reported rather than silently
 * overriding the first; -1 with the error set otherwise.
 */
static int aw_opt(struct aw_parser *p, const struct aw_tok *t,
		  const char *const opts[], unsigned int *seen)
{
	int i;

	for (i = 0; opts[i]; i++) {
		if (!aw_teq(t, opts[i]))
			continue;
		if (*seen & (1u << i))
			return aw_fail(p, p->line, t->col, "'%s' given twice", opts[i]);
		*seen |= 1u << i;
		return i;
	}
	return aw_unexpected(p, t);
}

static void aw_ev_init(struct aw_event *ev, int kind)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = (uint8_t)kind;
}

static int aw_emit(struct aw_parser *p, const struct aw_event *ev)
{
	if (p->sc->nr_events >= AW_MAX_EVENTS)
		return aw_fail(p, p->line, p->kw->col, "more than %llu events",
			       AW_MAX_EVENTS);
	if (aw_scenario_push(p->sc, ev, (uint32_t)p->line))
		return aw_oom(p, p->kw->col);
	return 0;
}

static void aw_ref(struct aw_ref *r, int line, int col)
{
	if (!r->line) {
		r->line = line;
		r->col = col;
	}
}

/* ------------------------------------------------------------------ */
/* Numbers, ids and names from tokens                                 */
/* ------------------------------------------------------------------ */

static int aw_num(struct aw_parser *p, const struct aw_tok *t, bool suffix, uint64_t *v)
{
	int r = aw_parse_num(t->s, (size_t)t->len, suffix, v);

	if (r == -2)
		return aw_fail(p, p->line, t->col, "number '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col, "bad number '%s'", AW_Q(t));
	return 0;
}

static int aw_need_num(struct aw_parser *p, const char *what, bool suffix,
		       uint64_t *v, const struct aw_tok **t)
{
	return aw_need(p, what, t) || aw_num(p, *t, suffix, v) ? -1 : 0;
}

/* A plain integer in [lo, hi], named `what` in messages. */
static int aw_need_int(struct aw_parser *p, const char *what, uint64_t lo,
		       uint64_t hi, uint64_t *v)
{
	const struct aw_tok *t;

	if (aw_need_num(p, what, false, v, &t))
		return -1;
	if (*v < lo || *v > hi)
		return aw_fail(p, p->line, t->col, "%s must be %llu..%llu, not %s", what,
			       (unsigned long long)lo, (unsigned long long)hi, AW_Q(t));
	return 0;
}

/* A length: nonzero and, when `page`, a whole number of 4 KiB pages. */
static int aw_need_len(struct aw_parser *p, const char *what, bool page,
		       uint64_t *v, const struct aw_tok **t)
{
	if (aw_need_num(p, what, true, v, t))
		return -1;
	if (!*v)
		return aw_fail(p, p->line, (*t)->col, "%s must be > 0", what);
	if (page && *v % AW_PAGE_SIZE)
		return aw_fail(p, p->line, (*t)->col, "%s %s is not a multiple of 4K",
			       what, AW_Q(*t));
	return 0;
}

static int aw_addr(struct aw_parser *p, const struct aw_tok *t, uint64_t *v)
{
	if (aw_num(p, t, true, v))
		return -1;
	if (*v >= AW_USER_LIMIT)
		return aw_fail(p, p->line, t->col,
			       "address beyond the 47-bit user address space");
	return 0;
}

/* `at ADDR` of mmap and mremap: a fixed, page-aligned, nonzero address. */
static int aw_need_fixed(struct aw_parser *p, const char *what, uint64_t *v,
			 const struct aw_tok **t)
{
	if (aw_need(p, what, t) || aw_addr(p, *t, v))
		return -1;
	if (!*v)
		return aw_fail(p, p->line, (*t)->col, "fixed address must be nonzero");
	if (*v % AW_PAGE_SIZE)
		return aw_fail(p, p->line, (*t)->col, "address %s is not 4K aligned",
			       AW_Q(*t));
	return 0;
}

static int aw_range_ok(struct aw_parser *p, const struct aw_tok *t, uint64_t addr,
		       uint64_t len)
{
	if (len > AW_USER_LIMIT - addr)
		return aw_fail(p, p->line, t->col,
			       "range ends beyond the 47-bit user address space");
	return 0;
}

static int aw_need_node(struct aw_parser *p, uint16_t *node)
{
	const struct aw_tok *t = aw_peek(p);
	uint64_t v;

	if (aw_need_int(p, "node", 0, AW_MAX_NODES - 1, &v))
		return -1;
	aw_ref(&p->node_ref[v], p->line, t->col);
	*node = (uint16_t)v;
	return 0;
}

static int aw_need_cpu(struct aw_parser *p, uint16_t *cpu)
{
	const struct aw_tok *t = aw_peek(p);
	uint64_t v;

	if (aw_need_int(p, "cpu", 0, AW_MAX_CPUS - 1, &v))
		return -1;
	aw_ref(&p->cpu_ref[v], p->line, t->col);
	*cpu = (uint16_t)v;
	return 0;
}

static int aw_need_memcg(struct aw_parser *p, uint16_t *memcg)
{
	const struct aw_tok *t = aw_peek(p);
	uint64_t v;

	if (aw_need_int(p, "memcg", 0, AW_MAX_MEMCGS - 1, &v))
		return -1;
	aw_ref(&p->memcg_ref[v], p->line, t->col);
	*memcg = (uint16_t)v;
	return 0;
}

static int aw_name_tok(struct aw_parser *p, const struct aw_tok *t, const char *what)
{
	if (t->len >= AW_MAX_NAME)
		return aw_fail(p, p->line, t->col, "%s name '%s' is longer than %d characters",
			       what, AW_Q(t), AW_MAX_NAME - 1);
	if (!aw_name_ok(t->s, (size_t)t->len))
		return aw_fail(p, p->line, t->col, "bad %s name '%s'", what, AW_Q(t));
	return 0;
}

static int aw_next_cap(int cap)
{
	return cap ? cap * 2 : 16;
}

static int aw_add_proc(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	struct aw_scenario *sc = p->sc;
	int n = sc->nr_procs;

	if ((unsigned int)n >= AW_MAX_PROCS)
		return aw_fail(p, p->line, t->col, "more than %u processes", AW_MAX_PROCS);
	if (n == p->cap_procs) {
		int cap = aw_next_cap(p->cap_procs);
		void *names = realloc(sc->proc_name, (size_t)cap * AW_MAX_NAME);

		if (!names)
			return aw_oom(p, t->col);
		sc->proc_name = names;
		p->cap_procs = cap;
	}
	memset(sc->proc_name[n], 0, AW_MAX_NAME);
	memcpy(sc->proc_name[n], t->s, (size_t)t->len);
	if (aw_ntab_add(&p->procs, (aw_names_t)sc->proc_name, (uint32_t)n + 1))
		return aw_oom(p, t->col);
	*id = (uint32_t)++sc->nr_procs;
	return 0;
}

static uint32_t aw_find_proc(struct aw_parser *p, const struct aw_tok *t)
{
	return aw_ntab_find(&p->procs, (aw_names_t)p->sc->proc_name, t->s, (size_t)t->len);
}

/* A process name that must already be defined. */
static int aw_need_proc(struct aw_parser *p, uint32_t *pid)
{
	const struct aw_tok *t;

	if (aw_need(p, "a process name", &t) || aw_name_tok(p, t, "process"))
		return -1;
	*pid = aw_find_proc(p, t);
	if (!*pid)
		return aw_fail(p, p->line, t->col, "undefined process '%s'", AW_Q(t));
	return 0;
}

/*
 * A process name being defined: a new name gets the next id, an existing one
 * keeps its id.  Reuse cannot be an error: a `fork P C` inside a repeat block
 * is written out by aw_aws_write() once per copy, and must read back.
 */
static int aw_def_proc(struct aw_parser *p, uint32_t *pid)
{
	const struct aw_tok *t;

	if (aw_need(p, "a process name", &t) || aw_name_tok(p, t, "process"))
		return -1;
	*pid = aw_find_proc(p, t);
	return *pid ? 0 : aw_add_proc(p, t, pid);
}

static uint32_t aw_find_region(struct aw_parser *p, const char *s, size_t len)
{
	return aw_ntab_find(&p->regions, (aw_names_t)p->sc->region_name, s, len);
}

static int aw_add_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	struct aw_scenario *sc = p->sc;
	int n = sc->nr_regions;

	if (n >= AW_MAX_REGIONS)
		return aw_fail(p, p->line, t->col, "more than %d regions", AW_MAX_REGIONS);
	if (n == p->cap_regions) {
		int cap = aw_next_cap(p->cap_regions);
		void *len, *names;

		/* Grow both arrays before recording the new capacity. */
		len = realloc(p->region_len, (size_t)cap * sizeof(*p->region_len));
		if (!len)
			return aw_oom(p, t->col);
		p->region_len = len;
		names = realloc(sc->region_name, (size_t)cap * AW_MAX_NAME);
		if (!names)
			return aw_oom(p, t->col);
		sc->region_name = names;
		p->cap_regions = cap;
	}
	memset(sc->region_name[n], 0, AW_MAX_NAME);
	memcpy(sc->region_name[n], t->s, (size_t)t->len);
	p->region_len[n] = 0;
	if (aw_ntab_add(&p->regions, (aw_names_t)sc->region_name, (uint32_t)n + 1))
		return aw_oom(p, t->col);
	*id = (uint32_t)++sc->nr_regions;
	return 0;
}

/* A region name that an earlier mmap defined. */
static int aw_region(struct aw_parser *p, const struct aw_tok *t, uint32_t *id)
{
	if (aw_name_tok(p, t, "region"))
		return -1;
	*id = aw_find_region(p, t->s, (size_t)t->len);
	if (!*id)
		return aw_fail(p, p->line, t->col, "undefined region '%s'", AW_Q(t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* TARGET: REGION [off SIZE] [len SIZE] | ADDR len SIZE               */
/* ------------------------------------------------------------------ */

static int aw_target_abs(struct aw_parser *p, const struct aw_tok *at,
			 struct aw_event *ev)
{
	const struct aw_tok *t;

	if (aw_addr(p, at, &ev->addr))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "len"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "an absolute address needs 'len SIZE'");
	if (aw_need_len(p, "len", false, &ev->len, &t))
		return -1;
	ev->region = 0;
	return aw_range_ok(p, t, ev->addr, ev->len);
}

static int aw_target_region(struct aw_parser *p, const struct aw_tok *rt,
			    struct aw_event *ev)
{
	static const char *const opts[] = { "off", "len", NULL };
	const struct aw_tok *t, *off_t = rt, *len_t = NULL;
	unsigned int seen = 0;
	uint32_t id;
	uint64_t rlen;

	if (aw_region(p, rt, &id))
		return -1;
	rlen = p->region_len[id - 1];
	/*
	 * A region declared by a `region` line but not mapped yet has no
	 * length: the target must say off and len, and nothing can be checked
	 * against the mapping (streams from fuzz inputs and traces use
	 * regions before, or without, their mmap).
	 */
	if (!rlen)
		rlen = UINT64_MAX;
	while ((t = aw_peek(p)) && (aw_teq(t, "off") || aw_teq(t, "len"))) {
		p->pos++;
		if (aw_opt(p, t, opts, &seen) == 0) {
			if (aw_need_num(p, "an offset after 'off'", true, &ev->addr, &off_t))
				return -1;
		} else if (aw_need_len(p, "len", false, &ev->len, &len_t)) {
			return -1;
		}
	}
	if (ev->addr >= rlen)
		return aw_fail(p, p->line, off_t->col,
			       "offset is at or beyond the end of region '%s' (%llu bytes)",
			       AW_Q(rt), (unsigned long long)rlen);
	if (!len_t && rlen == UINT64_MAX)
		return aw_fail(p, p->line, rt->col,
			       "region '%s' is not mapped yet: give 'off' and 'len'", AW_Q(rt));
	if (!len_t)
		ev->len = rlen - ev->addr;
	else if (ev->len > rlen - ev->addr)
		return aw_fail(p, p->line, len_t->col,
			       "off + len goes beyond the end of region '%s' (%llu bytes)",
			       AW_Q(rt), (unsigned long long)rlen);
	ev->region = (uint16_t)id;
	return 0;
}

static int aw_target(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;

	if (aw_need(p, "a region name or an address", &t))
		return -1;
	if (aw_isdigit(t->s[0]))
		return aw_target_abs(p, t, ev);
	return aw_target_region(p, t, ev);
}

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

static int aw_h_topology(struct aw_parser *p)
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

static int aw_h_node(struct aw_parser *p)
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
	if (id != (uint64_t)cfg->nr_nodes && cfg->nr_nodes == AW_MAX_NODES)
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

/* `max` (0: no limit) or a size; a zero limit would read as `max`. */
static int aw_need_limit(struct aw_parser *p, uint64_t *v)
{
	const struct aw_tok *t = aw_peek(p);

	if (aw_teq(t, "max")) {
		p->pos++;
		*v = 0;
		return 0;
	}
	return aw_need_len(p, "limit (a size or 'max')", false, v, &t);
}

static int aw_h_memcg(struct aw_parser *p)
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

static int aw_need_thp_mode(struct aw_parser *p, int *mode)
{
	const struct aw_tok *t;
	char buf[16];

	if (aw_need(p, "always, never or madvise", &t))
		return -1;
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

static int aw_h_thp(struct aw_parser *p)
{
	int mode;

	if (aw_need_thp_mode(p, &mode))
		return -1;
	p->sc->cfg.thp = (enum aw_thp_mode)mode;
	return aw_done(p);
}

static int aw_h_modes(struct aw_parser *p)
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

static int aw_h_swap(struct aw_parser *p)
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

static int aw_h_mmap_base(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint64_t v;

	if (aw_need_fixed(p, "an address", &v, &t))
		return -1;
	p->sc->cfg.mmap_base = v;
	return aw_done(p);
}

/* `layout standard|small`: resident pages of new processes' layouts */
static const char *const aw_layout_names[AW_LAYOUT_NR] = { "standard", "small" };

static int aw_h_layout(struct aw_parser *p)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "standard|small", &t))
		return -1;
	i = aw_lookup(t, aw_layout_names, AW_LAYOUT_NR);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected standard|small, not '%s'", AW_Q(t));
	p->sc->cfg.layout = (enum aw_layout)i;
	return aw_done(p);
}

/* `region NAME`: declare a region id before (or without) its mmap */
static int aw_h_region(struct aw_parser *p)
{
	const struct aw_tok *t;
	uint32_t id;

	if (aw_need(p, "a region name", &t) || aw_name_tok(p, t, "region"))
		return -1;
	if (!aw_find_region(p, t->s, (size_t)t->len) && aw_add_region(p, t, &id))
		return -1;
	return aw_done(p);
}

static int aw_h_skip_empty(struct aw_parser *p)
{
	uint64_t v;

	if (aw_need_int(p, "skip_empty", 1, 64, &v))
		return -1;
	p->sc->cfg.skip_empty = (int)v;
	return aw_done(p);
}

/* ------------------------------------------------------------------ */
/* Processes                                                          */
/* ------------------------------------------------------------------ */

/*
 * `proc` may name an existing process: that starts a new process under the
 * old id (the name is reused after an exit).
 */
static int aw_h_proc(struct aw_parser *p)
{
	static const char *const opts[] = { "cpu", "memcg", "nolayout", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	int r = 0;

	aw_ev_init(&ev, AW_EV_PROC);
	if (aw_def_proc(p, &ev.pid))
		return -1;
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0: r = aw_need_cpu(p, &ev.cpu); break;
		case 1: r = aw_need_memcg(p, &ev.memcg); break;
		case 2: ev.flags |= AW_PROC_NOLAYOUT; break;
		default: return -1;
		}
	}
	if (r)
		return -1;
	if (!(seen & 1))
		aw_ref(&p->cpu_ref[0], p->line, p->kw->col);
	return aw_emit(p, &ev);
}

static int aw_h_fork(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (aw_need_proc(p, &ev.pid) || aw_def_proc(p, &ev.pid2))
		return -1;
	if (ev.pid2 == ev.pid)
		return aw_fail(p, p->line, p->tok[2].col, "a process cannot be its own child");
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

/* exec, exit: just the process. */
static int aw_h_pid(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (aw_need_proc(p, &ev.pid) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_run(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_RUN);
	ev.cpu = AW_CPU_CURRENT;
	if (aw_need_proc(p, &ev.pid))
		return -1;
	t = aw_next(p);
	if (t && !aw_teq(t, "cpu"))
		return aw_unexpected(p, t);
	if (t && aw_need_cpu(p, &ev.cpu))
		return -1;
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Mappings                                                           */
/* ------------------------------------------------------------------ */

/* `none`, or r, w, x in that order (r, rw, rx, rwx, ...). */
static int aw_need_prot(struct aw_parser *p, uint32_t *prot)
{
	const struct aw_tok *t;
	int i = 0;

	if (aw_need(p, "a protection (none, r, rw, rx, rwx)", &t))
		return -1;
	*prot = AW_PROT_NONE;
	if (aw_teq(t, "none"))
		return 0;
	if (i < t->len && t->s[i] == 'r' && ++i)
		*prot |= AW_PROT_READ;
	if (i < t->len && t->s[i] == 'w' && ++i)
		*prot |= AW_PROT_WRITE;
	if (i < t->len && t->s[i] == 'x' && ++i)
		*prot |= AW_PROT_EXEC;
	if (!i || i != t->len)
		return aw_fail(p, p->line, t->col,
			       "bad protection '%s' (none, r, rw, rx, rwx)", AW_Q(t));
	return 0;
}

static int aw_map_flag(const struct aw_tok *t)
{
	size_t i;

	for (i = 0; i < AW_ARRAY_SIZE(aw_map_flags); i++)
		if (aw_teq(t, aw_map_flags[i].name))
			return aw_map_flags[i].flag;
	return 0;
}

/* The mmap options after SIZE: `at ADDR`, flags and `prot P`. */
static int aw_mmap_opts(struct aw_parser *p, struct aw_event *ev)
{
	static const char *const opts[] = { "at", "prot", NULL };
	const struct aw_tok *t, *at = NULL;
	unsigned int seen = 0;
	int flag, r = 0;

	while (!r && (t = aw_next(p))) {
		flag = aw_map_flag(t);
		if (flag && (ev->flags & flag))
			return aw_fail(p, p->line, t->col, "'%s' given twice", AW_Q(t));
		ev->flags |= (uint8_t)flag;
		if (flag)
			continue;
		switch (aw_opt(p, t, opts, &seen)) {
		case 0: r = aw_need_fixed(p, "an address after 'at'", &ev->addr2, &at); break;
		case 1: r = aw_need_prot(p, &ev->arg); break;
		default: return -1;
		}
	}
	if (r || (at && aw_range_ok(p, at, ev->addr2, ev->len)))
		return -1;
	/* Each pair is exclusive in the kernel: the later madvise wins. */
	if ((ev->flags & AW_MAP_HUGEPAGE) && (ev->flags & AW_MAP_NOHUGEPAGE))
		return aw_fail(p, p->line, p->kw->col,
			       "'hugepage' and 'nohugepage' exclude each other");
	if ((ev->flags & AW_MAP_SEQ_READ) && (ev->flags & AW_MAP_RAND_READ))
		return aw_fail(p, p->line, p->kw->col,
			       "'seqread' and 'randread' exclude each other");
	return 0;
}

static int aw_h_mmap(struct aw_parser *p)
{
	const struct aw_tok *rt, *t;
	struct aw_event ev;
	uint32_t id = 0;

	aw_ev_init(&ev, AW_EV_MMAP);
	ev.arg = AW_PROT_DEFAULT;
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "a region name or '-'", &rt) ||
	    (!aw_teq(rt, "-") && aw_name_tok(p, rt, "region")) ||
	    aw_need_len(p, "mmap length", true, &ev.len, &t) || aw_mmap_opts(p, &ev))
		return -1;
	if (!aw_teq(rt, "-")) {
		id = aw_find_region(p, rt->s, (size_t)rt->len);
		if (!id && aw_add_region(p, rt, &id))
			return -1;
		/* A later mmap of the same name redefines the region. */
		p->region_len[id - 1] = ev.len;
	}
	ev.region = (uint16_t)id;
	return aw_emit(p, &ev);
}

/* munmap, and the shared start of mprotect, mbind, madvise, migrate. */
static int aw_proc_target(struct aw_parser *p, struct aw_event *ev)
{
	aw_ev_init(ev, p->kind);
	return aw_need_proc(p, &ev->pid) || aw_target(p, ev) ? -1 : 0;
}

static int aw_h_munmap(struct aw_parser *p)
{
	struct aw_event ev;

	if (aw_proc_target(p, &ev) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

/*
 * `mremap NAME REGION NEWSIZE [at ADDR]` moves or resizes the whole region;
 * `mremap NAME ADDR len OLDSIZE NEWSIZE [at ADDR]` is the absolute form the
 * writer needs for mappings that have no name.
 */
static int aw_h_mremap(struct aw_parser *p)
{
	const struct aw_tok *t, *nt, *at = NULL;
	struct aw_event ev;
	uint32_t id = 0;

	aw_ev_init(&ev, AW_EV_MREMAP);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "a region name or an address", &t))
		return -1;
	if (aw_isdigit(t->s[0])) {
		if (aw_target_abs(p, t, &ev))
			return -1;
	} else {
		if (aw_region(p, t, &id))
			return -1;
		ev.region = (uint16_t)id;
		ev.len = p->region_len[id - 1];
	}
	if (aw_need_len(p, "new length", true, &ev.stride, &nt))
		return -1;
	t = aw_next(p);
	if (t && !aw_teq(t, "at"))
		return aw_unexpected(p, t);
	if (t && (aw_need_fixed(p, "an address after 'at'", &ev.addr2, &at) ||
		  aw_range_ok(p, at, ev.addr2, ev.stride)))
		return -1;
	if (aw_done(p))
		return -1;
	if (id)
		p->region_len[id - 1] = ev.stride;
	return aw_emit(p, &ev);
}

static int aw_h_mprotect(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "prot"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "mprotect needs 'prot none|r|rw|rx|rwx'");
	if (aw_need_prot(p, &ev.arg) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_brk(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	struct aw_tok size;

	aw_ev_init(&ev, AW_EV_BRK);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "+SIZE or -SIZE", &t))
		return -1;
	if (t->s[0] != '+' && t->s[0] != '-')
		return aw_fail(p, p->line, t->col, "expected +SIZE or -SIZE, not '%s'",
			       AW_Q(t));
	if (t->s[0] == '-')
		ev.flags |= AW_BRK_SHRINK;
	size.s = t->s + 1;
	size.len = t->len - 1;
	size.col = t->col + 1;
	if (aw_num(p, &size, true, &ev.len) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Policy, access, advice, migration, memcg, prctl                    */
/* ------------------------------------------------------------------ */

/*
 * `node N` and at most one of bind|preferred|default; the mode defaults to
 * bind.  Returns the seen bits (1 = node) or -1.
 */
static int aw_policy_opts(struct aw_parser *p, struct aw_event *ev)
{
	static const char *const opts[] = { "node", "bind", "preferred", "default", NULL };
	const struct aw_tok *t;
	unsigned int seen = 0;
	int i;

	ev->arg = AW_MPOL_BIND;
	while ((t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0 || (i == 0 && aw_need_node(p, &ev->node)))
			return -1;
		if (i == 0)
			continue;
		if (seen & ~(1u | (1u << i)))
			return aw_fail(p, p->line, t->col,
				       "only one of bind, preferred or default");
		ev->arg = (uint32_t)aw_lookup(t, aw_mpol_names, AW_MPOL_NR);
	}
	return (int)seen;
}

static int aw_h_mbind(struct aw_parser *p)
{
	struct aw_event ev;
	int seen;

	if (aw_proc_target(p, &ev))
		return -1;
	seen = aw_policy_opts(p, &ev);
	if (seen < 0)
		return -1;
	if (!(seen & 1))
		return aw_fail(p, p->line, p->kw->col, "mbind needs 'node N'");
	return aw_emit(p, &ev);
}

static int aw_h_set_mempolicy(struct aw_parser *p)
{
	struct aw_event ev;
	int seen;

	aw_ev_init(&ev, AW_EV_SET_MEMPOLICY);
	if (aw_need_proc(p, &ev.pid))
		return -1;
	seen = aw_policy_opts(p, &ev);
	if (seen < 0)
		return -1;
	if (!(seen & 1) && ev.arg != AW_MPOL_DEFAULT)
		return aw_fail(p, p->line, p->kw->col,
			       "set_mempolicy needs 'node N' or 'default'");
	return aw_emit(p, &ev);
}

static int aw_h_access(struct aw_parser *p)
{
	static const char *const opts[] = { "stride", "repeat", "cpu", "resident", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	uint64_t v;
	int r = 0;

	if (aw_proc_target(p, &ev))
		return -1;
	if (aw_teq(p->kw, "write"))
		ev.flags |= AW_ACC_WRITE;
	ev.cpu = AW_CPU_CURRENT;
	ev.repeat = 1;
	while (!r && (t = aw_next(p))) {
		switch (aw_opt(p, t, opts, &seen)) {
		case 0:
			r = aw_need_num(p, "a stride", true, &ev.stride, &t);
			if (!r && ev.stride % AW_PAGE_SIZE)
				r = aw_fail(p, p->line, t->col,
					    "stride %s is not a multiple of 4K", AW_Q(t));
			break;
		case 1:
			r = aw_need_int(p, "repeat", 1, AW_MAX_REPEAT, &v);
			ev.repeat = r ? 0 : (uint32_t)v;
			break;
		case 2: r = aw_need_cpu(p, &ev.cpu); break;
		case 3: ev.flags |= AW_ACC_RESIDENT; break;	/* no value: a flag */
		default: return -1;
		}
	}
	return r ? -1 : aw_emit(p, &ev);
}

/* The one keyword of a fixed set that ends a line; stored in *arg. */
static int aw_need_word(struct aw_parser *p, const char *what, const char *const names[],
			int nr, uint32_t *arg)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, what, &t))
		return -1;
	i = aw_lookup(t, names, nr);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected %s, not '%s'", what, AW_Q(t));
	*arg = (uint32_t)i;
	return aw_done(p);
}

static int aw_h_madvise(struct aw_parser *p)
{
	struct aw_event ev;

	if (aw_proc_target(p, &ev) ||
	    aw_need_word(p, "free|dontneed|cold|pageout|hugepage|nohugepage|collapse",
			 aw_madv_names, AW_MADV_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_migrate(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	if (aw_proc_target(p, &ev))
		return -1;
	t = aw_next(p);
	if (!aw_teq(t, "node"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "migrate needs 'node N'");
	if (aw_need_node(p, &ev.node) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_limit(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_MEMCG_LIMIT);
	t = aw_next(p);
	if (!aw_teq(t, "memcg"))
		return aw_fail(p, p->line, t ? t->col : aw_endcol(p),
			       "expected 'limit memcg M SIZE|max'");
	t = aw_peek(p);
	if (aw_need_memcg(p, &ev.memcg))
		return -1;
	if (!ev.memcg)
		return aw_fail(p, p->line, t->col, "the root memcg (0) has no limit");
	if (aw_need_limit(p, &ev.len) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_memcg_move(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_MEMCG_MOVE);
	if (aw_need_proc(p, &ev.pid) || aw_need_memcg(p, &ev.memcg) || aw_done(p))
		return -1;
	return aw_emit(p, &ev);
}

static int aw_h_prctl(struct aw_parser *p)
{
	struct aw_event ev;

	aw_ev_init(&ev, AW_EV_PRCTL_THP);
	if (aw_need_proc(p, &ev.pid) ||
	    aw_need_word(p, "thp_disable|thp_disable_except_advised|thp_enable",
			 aw_prctl_names, AW_THP_DISABLE_NR, &ev.arg))
		return -1;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* Reclaim, khugepaged, contention, time, samples                     */
/* ------------------------------------------------------------------ */

enum {
	AW_RO_NODE, AW_RO_MEMCG, AW_RO_FORCE, AW_RO_SWAPPINESS, AW_RO_NR, AW_RO_DIRECT
};

/*
 * The options of age, age_begin, age_step, age_end and evict, in any order;
 * `allowed` is the bit set of AW_RO_* the keyword takes.  node is required
 * by all of them.
 */
static int aw_reclaim_opts(struct aw_parser *p, struct aw_event *ev, unsigned int allowed)
{
	static const char *const opts[] = {
		"node", "memcg", "force", "swappiness", "nr", "direct", NULL
	};
	const struct aw_tok *t;
	unsigned int seen = 0;
	uint64_t v;
	int i, r = 0;

	while (!r && (t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (!(allowed & (1u << i)))
			return aw_unexpected(p, t);
		switch (i) {
		case AW_RO_NODE: r = aw_need_node(p, &ev->node); break;
		case AW_RO_MEMCG: r = aw_need_memcg(p, &ev->memcg); break;
		case AW_RO_FORCE:
			r = aw_need_int(p, "force", 0, 1, &v);
			ev->flags |= !r && v ? AW_AGE_FORCE : 0;
			break;
		case AW_RO_SWAPPINESS:
			r = aw_need_int(p, "swappiness", 0, AW_SWAPPINESS_MAX, &v);
			ev->swappiness = r ? 0 : (uint16_t)v;
			break;
		case AW_RO_NR: r = aw_need_num(p, "a page count", true, &ev->len, &t); break;
		case AW_RO_DIRECT: ev->flags |= AW_EVICT_DIRECT; break;
		}
	}
	if (r)
		return -1;
	if (!(seen & (1u << AW_RO_NODE)))
		return aw_fail(p, p->line, p->kw->col, "%s needs 'node N'", AW_Q(p->kw));
	/* The kernel's debugfs interface silently forces a scan when unsaid. */
	if ((allowed & (1u << AW_RO_FORCE)) && !(seen & (1u << AW_RO_FORCE)))
		return aw_fail(p, p->line, p->kw->col,
			       "%s needs 'force 0' or 'force 1' (debugfs defaults force_scan to 1)",
			       AW_Q(p->kw));
	return 0;
}

static int aw_h_reclaim(struct aw_parser *p)
{
	static const unsigned int allowed[AW_EV_NR] = {
		[AW_EV_AGE]		= 0xf,
		[AW_EV_AGE_BEGIN]	= 0xf,
		[AW_EV_AGE_STEP]	= 0x3,
		[AW_EV_AGE_END]		= 0x3,
		[AW_EV_EVICT]		= 0x3b,
	};
	struct aw_event ev;

	aw_ev_init(&ev, p->kind);
	if (allowed[p->kind] & (1u << AW_RO_SWAPPINESS))
		ev.swappiness = AW_SWAPPINESS_DEFAULT;
	if (aw_reclaim_opts(p, &ev, allowed[p->kind]))
		return -1;
	return aw_emit(p, &ev);
}

static const char *const aw_kh_knob_names[AW_KH_KNOB_NR] = {
	[AW_KH_PAGES_TO_SCAN]	= "pages_to_scan",
	[AW_KH_MAX_PTES_NONE]	= "max_ptes_none",
	[AW_KH_MAX_PTES_SWAP]	= "max_ptes_swap",
	[AW_KH_MAX_PTES_SHARED]	= "max_ptes_shared",
};

/* khugepaged set KNOB VALUE: a sysfs store, range-checked by the model */
static int aw_kh_set(struct aw_parser *p, struct aw_event *ev)
{
	const struct aw_tok *t;
	int i;

	if (aw_need(p, "pages_to_scan|max_ptes_none|max_ptes_swap|max_ptes_shared", &t))
		return -1;
	i = aw_lookup(t, aw_kh_knob_names, AW_KH_KNOB_NR);
	if (i <= 0)
		return aw_fail(p, p->line, t->col,
			       "expected pages_to_scan, max_ptes_none, max_ptes_swap or max_ptes_shared, not '%s'",
			       AW_Q(t));
	ev->arg = (uint32_t)i;
	if (aw_need_num(p, "a value", false, &ev->len, &t))
		return -1;
	return aw_done(p) ? -1 : aw_emit(p, ev);
}

/* khugepaged [pages N] [times N | full N] | khugepaged set KNOB VALUE */
static int aw_h_khugepaged(struct aw_parser *p)
{
	static const char *const opts[] = { "pages", "times", "full", "set", NULL };
	const struct aw_tok *t;
	struct aw_event ev;
	unsigned int seen = 0;
	uint64_t v;
	int i;

	aw_ev_init(&ev, AW_EV_KHUGEPAGED);
	while ((t = aw_next(p))) {
		i = aw_opt(p, t, opts, &seen);
		if (i < 0)
			return -1;
		if (i == 3) {
			if (seen != 1u << 3)
				return aw_unexpected(p, t);
			return aw_kh_set(p, &ev);
		}
		if (i == 0) {
			if (aw_need_num(p, "a page count", true, &ev.len, &t))
				return -1;
			if (!ev.len || ev.len > UINT32_MAX)
				return aw_fail(p, p->line, t->col, "pages must be 1..4294967295, not %s", AW_Q(t));
			continue;
		}
		if ((seen & 6) == 6)
			return aw_fail(p, p->line, t->col, "'times' and 'full' exclude each other");
		if (aw_need_int(p, i == 1 ? "times" : "full", 1, AW_KH_MAX_WAKEUPS, &v))
			return -1;
		ev.repeat = (uint32_t)v;
		ev.flags |= i == 2 ? AW_KH_FULL : 0;
	}
	return aw_emit(p, &ev);
}

static int aw_h_contend(struct aw_parser *p)
{
	static const char *const onoff[] = { "off", "on" };
	struct aw_event ev;
	const struct aw_tok *t;
	int i;

	aw_ev_init(&ev, AW_EV_CONTEND);
	if (aw_need_proc(p, &ev.pid) || aw_need(p, "mmap or ptl", &t))
		return -1;
	i = aw_lookup(t, aw_lock_names, AW_LOCK_NR);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected mmap or ptl, not '%s'", AW_Q(t));
	ev.arg = (uint32_t)i;
	if (aw_need(p, "on or off", &t))
		return -1;
	i = aw_lookup(t, onoff, 2);
	if (i < 0)
		return aw_fail(p, p->line, t->col, "expected on or off, not '%s'", AW_Q(t));
	ev.flags = i ? AW_CONTEND_ON : 0;
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

static int aw_h_time(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	int r;

	aw_ev_init(&ev, AW_EV_TIME);
	if (aw_need(p, "a duration like +500ms", &t))
		return -1;
	r = aw_parse_duration(t->s, (size_t)t->len, &ev.len);
	if (r == -2)
		return aw_fail(p, p->line, t->col, "duration '%s' does not fit in 64 bits",
			       AW_Q(t));
	if (r)
		return aw_fail(p, p->line, t->col,
			       "bad duration '%s' (like +500ms; units ns, us, ms, s)", AW_Q(t));
	return aw_done(p) ? -1 : aw_emit(p, &ev);
}

static int aw_h_sample(struct aw_parser *p)
{
	const struct aw_tok *t;
	struct aw_event ev;
	uint32_t id;

	aw_ev_init(&ev, AW_EV_SAMPLE);
	if (aw_need(p, "a region name", &t) || aw_region(p, t, &id) || aw_done(p))
		return -1;
	ev.region = (uint16_t)id;
	return aw_emit(p, &ev);
}

/* ------------------------------------------------------------------ */
/* repeat N { ... }                                                   */
/* ------------------------------------------------------------------ */

static int aw_h_repeat(struct aw_parser *p)
{
	const struct aw_tok *t, *brace;
	struct aw_block *b;
	uint64_t n;

	t = aw_peek(p);
	if (aw_need_int(p, "repeat count", 1, AW_MAX_REPEAT, &n))
		return -1;
	if (aw_need(p, "'{' after the repeat count", &brace))
		return -1;
	if (!aw_teq(brace, "{"))
		return aw_fail(p, p->line, brace->col, "expected '{', not '%s'", AW_Q(brace));
	if (aw_done(p))
		return -1;
	if (p->depth == AW_MAX_DEPTH)
		return aw_fail(p, p->line, p->kw->col,
			       "repeat blocks nested deeper than %d", AW_MAX_DEPTH);
	b = &p->block[p->depth++];
	b->first = p->sc->nr_events;
	b->count = n;
	b->left = n - 1;
	b->body = p->next;
	b->line = p->line;
	b->col = brace->col;
	b->count_col = t->col;
	b->again = false;
	return 0;
}

/*
 * At the end of a block's first pass, check that the remaining passes stay
 * within the limits, counting both the events they will add and the text
 * they will read again: a block of comments has no events but still costs
 * time on every pass.  A block without events is not run again at all,
 * since its directives and expectations take effect once anyway.
 */
static int aw_block_plan(struct aw_parser *p, struct aw_block *b)
{
	size_t n = p->sc->nr_events - b->first;
	uint64_t bytes = (uint64_t)(p->text - p->base) - b->body;

	if (!n) {
		b->left = 0;
		return 0;
	}
	if (b->left > (AW_MAX_EVENTS - p->sc->nr_events) / n)
		return aw_fail(p, b->line, b->count_col,
			       "repeat expands to more than %llu events", AW_MAX_EVENTS);
	if (bytes && b->left > (AW_MAX_REPLAY - p->replay) / bytes)
		return aw_fail(p, b->line, b->count_col,
			       "repeat expands to more than %llu MiB of text",
			       AW_MAX_REPLAY >> 20);
	p->replay += bytes * b->left;
	return 0;
}

/* Go back to the start of the block, or leave it after its last pass. */
static int aw_h_close(struct aw_parser *p)
{
	struct aw_block *b;

	if (aw_done(p))
		return -1;
	if (!p->depth)
		return aw_fail(p, p->line, p->kw->col, "'}' without a matching 'repeat N {'");
	b = &p->block[p->depth - 1];
	if (!b->again && aw_block_plan(p, b))
		return -1;
	if (b->left) {
		b->left--;
		if (!b->again)
			p->again++;
		b->again = true;
		p->next = b->body;
		p->line = b->line;
		return 0;
	}
	if (b->again)
		p->again--;
	p->depth--;
	return 0;
}

/* ------------------------------------------------------------------ */
/* expect                                                             */
/* ------------------------------------------------------------------ */

/* Where the expect line is scanned: text[i..n) with n at any comment. */
struct aw_scan {
	struct aw_parser *p;
	const char *s;
	int i, n;
};

static void aw_skip_space(struct aw_scan *sc)
{
	while (sc->i < sc->n && aw_isspace(sc->s[sc->i]))
		sc->i++;
}

/* The word at i up to blank space; its token. */
static struct aw_tok aw_scan_word(struct aw_scan *sc)
{
	struct aw_tok t = { sc->s + sc->i, 0, sc->i + 1 };

	while (sc->i < sc->n && !aw_isspace(sc->s[sc->i]))
		sc->i++;
	t.len = (int)(sc->s + sc->i - t.s);
	return t;
}

/* N, N.. or N..M */
static int aw_sel_pass(struct aw_parser *p, const struct aw_tok *v, struct aw_expect *e)
{
	const char *dots = NULL;
	uint64_t lo, hi = 0;
	size_t nlo = (size_t)v->len;
	int i;

	for (i = 0; i + 1 < v->len; i++) {
		if (v->s[i] == '.' && v->s[i + 1] == '.') {
			dots = v->s + i;
			nlo = (size_t)i;
			break;
		}
	}
	if (aw_parse_num(v->s, nlo, false, &lo) || lo < 1 || lo > INT_MAX)
		goto bad;
	if (dots && dots + 2 < v->s + v->len &&
	    (aw_parse_num(dots + 2, (size_t)(v->s + v->len - dots - 2), false, &hi) ||
	     hi < lo || hi > INT_MAX))
		goto bad;
	e->pass_lo = (int)lo;
	e->pass_hi = !dots ? (int)lo : hi ? (int)hi : -1;
	return 0;
bad:
	return aw_fail(p, p->line, v->col,
		       "bad pass '%s' (N, N.. or N..M with 1 <= N <= M)", AW_Q(v));
}

static int aw_sel_var(struct aw_parser *p, const struct aw_tok *v, struct aw_expect *e)
{
	int i;

	/* Variant names may start with a digit ("6.12-base"). */
	for (i = 0; i < v->len; i++)
		if (!aw_isnamechar(v->s[i]) || (!i && (v->s[0] == '.' || v->s[0] == '-')))
			break;
	if (!v->len || i < v->len || v->len >= AW_MAX_NAME)
		return aw_fail(p, p->line, v->col, "bad variant name '%s'", AW_Q(v));
	memcpy(e->var, v->s, (size_t)v->len);
	return 0;
}

static int aw_selector(struct aw_parser *p, const struct aw_tok *k, const struct aw_tok *v,
		       struct aw_expect *e, unsigned int *seen)
{
	static const char *const sels[] = { "thp", "pass", "var", "node", "region", NULL };
	char buf[16];
	uint64_t n;
	int i = aw_lookup(k, sels, 5);

	if (i < 0)
		return aw_fail(p, p->line, k->col,
			       "unknown selector '%s=' (comparisons are written '%s == VALUE')",
			       AW_Q(k), AW_Q(k));
	if (aw_opt(p, k, sels, seen) < 0)
		return -1;
	if (!v->len)
		return aw_fail(p, p->line, v->col, "expected a value after '%s='", AW_Q(k));
	switch (i) {
	case 0:
		e->thp = -1;
		if ((size_t)v->len < sizeof(buf)) {
			memcpy(buf, v->s, (size_t)v->len);
			buf[v->len] = '\0';
			e->thp = aw_thp_mode_parse(buf);
		}
		if (e->thp < 0)
			return aw_fail(p, p->line, v->col,
				       "unknown THP mode '%s' (always, never or madvise)", AW_Q(v));
		return 0;
	case 1:
		return aw_sel_pass(p, v, e);
	case 2:
		return aw_sel_var(p, v, e);
	case 3:
		if (aw_parse_num(v->s, (size_t)v->len, false, &n) || n >= AW_MAX_NODES)
			return aw_fail(p, p->line, v->col, "node must be 0..%d, not %s",
				       AW_MAX_NODES - 1, AW_Q(v));
		aw_ref(&p->node_ref[n], p->line, v->col);
		e->node = (int)n;
		return 0;
	}
	if (aw_name_tok(p, v, "region"))
		return -1;
	memcpy(p->fixup[p->sc->nr_expects].name, v->s, (size_t)v->len);
	p->fixup[p->sc->nr_expects].col = v->col;
	return 0;
}

/* `==`, `!=`, `<=`, `>=`, `<`, `>` at s; returns its length or 0. */
static int aw_cmp_op(const char *s, int avail, enum aw_cmp *op)
{
	int i;

	for (i = 0; i < (int)AW_ARRAY_SIZE(aw_cmp_names); i++) {
		int len = (int)strlen(aw_cmp_names[i]);

		if (len <= avail && !memcmp(s, aw_cmp_names[i], (size_t)len)) {
			*op = (enum aw_cmp)i;
			return len;
		}
	}
	return 0;
}

/* KEY OP VALUE with the key already scanned; spaces around OP optional. */
static int aw_condition(struct aw_scan *sc, const struct aw_tok *k, struct aw_expect *e)
{
	struct aw_parser *p = sc->p;
	struct aw_expect_cond *c;
	struct aw_tok v;
	enum aw_cmp op;
	int oplen, r;
	double value;

	oplen = aw_cmp_op(sc->s + sc->i, sc->n - sc->i, &op);
	if (!oplen)
		return aw_fail(p, p->line, sc->i + 1,
			       "expected a comparison (== != <= >= < >) after '%s'", AW_Q(k));
	sc->i += oplen;
	aw_skip_space(sc);
	v = aw_scan_word(sc);
	if (!v.len)
		return aw_fail(p, p->line, v.col, "expected a value after '%s'",
			       aw_cmp_names[op]);
	r = aw_parse_value(v.s, (size_t)v.len, &value);
	if (r)
		return aw_fail(p, p->line, v.col, r == -2 ? "value '%s' is out of range" :
			       "bad value '%s'", AW_Q(&v));
	if (k->len >= AW_MAX_NAME)
		return aw_fail(p, p->line, k->col, "key '%s' is too long", AW_Q(k));
	if (e->nr_conds == AW_EXPECT_MAX_CONDS)
		return aw_fail(p, p->line, k->col, "more than %d conditions",
			       AW_EXPECT_MAX_CONDS);
	c = &e->cond[e->nr_conds++];
	memcpy(c->key, k->s, (size_t)k->len);
	c->op = op;
	c->value = value;
	c->col = k->col;
	return 0;
}

/* One selector or condition starting at sc->i. */
static int aw_expect_item(struct aw_scan *sc, struct aw_expect *e, unsigned int *seen)
{
	struct aw_parser *p = sc->p;
	struct aw_tok k = { sc->s + sc->i, 0, sc->i + 1 }, v;

	while (sc->i < sc->n && aw_iskey(sc->s[sc->i]))
		sc->i++;
	k.len = (int)(sc->s + sc->i - k.s);
	if (!k.len) {
		v = aw_scan_word(sc);
		return aw_fail(p, p->line, k.col, "expected KEY OP VALUE, not '%s'", AW_Q(&v));
	}
	aw_skip_space(sc);
	if (sc->i < sc->n && sc->s[sc->i] == '=' &&
	    !(sc->i + 1 < sc->n && sc->s[sc->i + 1] == '=')) {
		sc->i++;
		aw_skip_space(sc);
		v = aw_scan_word(sc);
		return aw_selector(p, &k, &v, e, seen);
	}
	return aw_condition(sc, &k, e);
}

static int aw_grow_expects(struct aw_parser *p)
{
	struct aw_scenario *sc = p->sc;
	int cap = aw_next_cap(sc->cap_expects);
	void *fixup, *expects;

	if (sc->nr_expects < sc->cap_expects)
		return 0;
	fixup = realloc(p->fixup, (size_t)cap * sizeof(*p->fixup));
	if (!fixup)
		return -1;
	p->fixup = fixup;
	expects = realloc(sc->expects, (size_t)cap * sizeof(*sc->expects));
	if (!expects)
		return -1;
	sc->expects = expects;
	sc->cap_expects = cap;
	return 0;
}

static int aw_h_expect(struct aw_parser *p)
{
	struct aw_scenario *sc = p->sc;
	struct aw_scan s = { p, p->text, p->kw->col - 1 + p->kw->len, p->textlen };
	const char *hash = memchr(p->text, '#', (size_t)p->textlen);
	struct aw_expect *e;
	unsigned int seen = 0;

	if (hash)
		s.n = (int)(hash - p->text);
	if (aw_grow_expects(p))
		return aw_oom(p, p->kw->col);
	e = &sc->expects[sc->nr_expects];
	memset(e, 0, sizeof(*e));
	memset(&p->fixup[sc->nr_expects], 0, sizeof(*p->fixup));
	e->line = p->line;
	e->thp = -1;
	e->node = -1;
	for (aw_skip_space(&s); s.i < s.n; aw_skip_space(&s))
		if (aw_expect_item(&s, e, &seen))
			return -1;
	if (!e->nr_conds)
		return aw_fail(p, p->line, p->kw->col,
			       "expect needs at least one condition KEY OP VALUE");
	sc->nr_expects++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Lines and the end of the file                                      */
/* ------------------------------------------------------------------ */

/*
 * Keywords of kind AW_EV_NONE other than `repeat` and `}` are header
 * directives or expectations: on the later passes of a repeat block they
 * are skipped, so that `memcg 1` is not declared twice, nor an `expect`
 * checked N times.
 */
static const struct aw_keyword {
	const char *name;
	aw_handler_t fn;
	int kind;
} aw_keywords[] = {
	{ "topology",		aw_h_topology,		AW_EV_NONE },
	{ "node",		aw_h_node,		AW_EV_NONE },
	{ "memcg",		aw_h_memcg,		AW_EV_NONE },
	{ "thp",		aw_h_thp,		AW_EV_NONE },
	{ "modes",		aw_h_modes,		AW_EV_NONE },
	{ "swap",		aw_h_swap,		AW_EV_NONE },
	{ "mmap_base",		aw_h_mmap_base,		AW_EV_NONE },
	{ "skip_empty",		aw_h_skip_empty,	AW_EV_NONE },
	{ "layout",		aw_h_layout,		AW_EV_NONE },
	{ "region",		aw_h_region,		AW_EV_NONE },
	{ "proc",		aw_h_proc,		AW_EV_PROC },
	{ "fork",		aw_h_fork,		AW_EV_FORK },
	{ "vfork",		aw_h_fork,		AW_EV_VFORK },
	{ "thread",		aw_h_fork,		AW_EV_THREAD },
	{ "exec",		aw_h_pid,		AW_EV_EXEC },
	{ "exit",		aw_h_pid,		AW_EV_EXIT },
	{ "run",		aw_h_run,		AW_EV_RUN },
	{ "mmap",		aw_h_mmap,		AW_EV_MMAP },
	{ "munmap",		aw_h_munmap,		AW_EV_MUNMAP },
	{ "mremap",		aw_h_mremap,		AW_EV_MREMAP },
	{ "mprotect",		aw_h_mprotect,		AW_EV_MPROTECT },
	{ "brk",		aw_h_brk,		AW_EV_BRK },
	{ "mbind",		aw_h_mbind,		AW_EV_MBIND },
	{ "set_mempolicy",	aw_h_set_mempolicy,	AW_EV_SET_MEMPOLICY },
	{ "read",		aw_h_access,		AW_EV_ACCESS },
	{ "write",		aw_h_access,		AW_EV_ACCESS },
	{ "madvise",		aw_h_madvise,		AW_EV_MADVISE },
	{ "migrate",		aw_h_migrate,		AW_EV_MIGRATE },
	{ "limit",		aw_h_limit,		AW_EV_MEMCG_LIMIT },
	{ "memcg_move",		aw_h_memcg_move,	AW_EV_MEMCG_MOVE },
	{ "prctl",		aw_h_prctl,		AW_EV_PRCTL_THP },
	{ "age",		aw_h_reclaim,		AW_EV_AGE },
	{ "age_begin",		aw_h_reclaim,		AW_EV_AGE_BEGIN },
	{ "age_step",		aw_h_reclaim,		AW_EV_AGE_STEP },
	{ "age_end",		aw_h_reclaim,		AW_EV_AGE_END },
	{ "evict",		aw_h_reclaim,		AW_EV_EVICT },
	{ "khugepaged",		aw_h_khugepaged,	AW_EV_KHUGEPAGED },
	{ "contend",		aw_h_contend,		AW_EV_CONTEND },
	{ "time",		aw_h_time,		AW_EV_TIME },
	{ "sample",		aw_h_sample,		AW_EV_SAMPLE },
	{ "repeat",		aw_h_repeat,		AW_EV_NONE },
	{ "}",			aw_h_close,		AW_EV_NONE },
	{ "expect",		aw_h_expect,		AW_EV_NONE },
};

/* Split the line at blanks; a '#' anywhere starts a comment. */
static int aw_tokenize(struct aw_parser *p)
{
	int i = 0, n = p->textlen;

	p->ntok = p->pos = 0;
	for (;;) {
		struct aw_tok *t;

		while (i < n && aw_isspace(p->text[i]))
			i++;
		if (i >= n || p->text[i] == '#')
			return 0;
		if (p->ntok == AW_MAX_TOKS)
			return aw_fail(p, p->line, i + 1, "more than %d words on one line",
				       AW_MAX_TOKS);
		t = &p->tok[p->ntok++];
		t->s = p->text + i;
		t->col = i + 1;
		while (i < n && !aw_isspace(p->text[i]) && p->text[i] != '#')
			i++;
		t->len = (int)(p->text + i - t->s);
	}
}

static int aw_line(struct aw_parser *p)
{
	size_t i;

	if (aw_tokenize(p))
		return -1;
	if (!p->ntok)
		return 0;
	p->kw = aw_next(p);
	for (i = 0; i < AW_ARRAY_SIZE(aw_keywords); i++) {
		const struct aw_keyword *k = &aw_keywords[i];

		if (!aw_teq(p->kw, k->name))
			continue;
		if (p->again && k->kind == AW_EV_NONE && k->fn != aw_h_repeat &&
		    k->fn != aw_h_close)
			return 0;
		p->kind = k->kind;
		return k->fn(p);
	}
	return aw_fail(p, p->line, p->kw->col, "unknown keyword '%s'", AW_Q(p->kw));
}

static int aw_check_refs(struct aw_parser *p)
{
	const struct aw_config *cfg = &p->sc->cfg;
	uint64_t cpus = 0;
	int i;

	for (i = 0; i < cfg->nr_nodes; i++)
		cpus |= cfg->node[i].cpu_mask;
	for (i = 0; i < AW_MAX_NODES; i++)
		if (p->node_ref[i].line && i >= cfg->nr_nodes)
			return aw_fail(p, p->node_ref[i].line, p->node_ref[i].col,
				       "node %d does not exist (%d node%s)", i,
				       cfg->nr_nodes, cfg->nr_nodes == 1 ? "" : "s");
	for (i = 0; i < AW_MAX_CPUS; i++)
		if (p->cpu_ref[i].line && !(cpus & (1ull << i)))
			return aw_fail(p, p->cpu_ref[i].line, p->cpu_ref[i].col,
				       "cpu %d is not on any node", i);
	for (i = 1; i < AW_MAX_MEMCGS; i++)
		if (p->memcg_ref[i].line && !(p->memcg_declared & (1u << i)))
			return aw_fail(p, p->memcg_ref[i].line, p->memcg_ref[i].col,
				       "memcg %d is not declared (add a 'memcg %d' line)", i, i);
	return 0;
}

static int aw_finish(struct aw_parser *p)
{
	struct aw_scenario *sc = p->sc;
	int i;

	if (p->depth)
		return aw_fail(p, p->block[p->depth - 1].line, p->block[p->depth - 1].col,
			       "'{' is never closed");
	for (i = 0; i < sc->nr_expects; i++) {
		const struct aw_fixup *f = &p->fixup[i];

		if (!f->name[0])
			continue;
		sc->expects[i].region = (int)aw_find_region(p, f->name, strlen(f->name));
		if (!sc->expects[i].region)
			return aw_fail(p, sc->expects[i].line, f->col,
				       "undefined region '%s'", f->name);
	}
	if (aw_check_refs(p))
		return -1;
	if (!p->modes)
		sc->cfg.thp_modes = 1u << sc->cfg.thp;
	return 0;
}

static int aw_parse(struct aw_parser *p, const char *text, size_t len)
{
	p->base = text;
	while (p->next < len) {
		size_t i = p->next;
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		p->line++;
		p->text = text + i;
		p->textlen = (int)(end - i);
		/* A closing brace may move this back to the top of its block. */
		p->next = end + 1;
		if (aw_line(p))
			return -1;
	}
	return aw_finish(p);
}

static int aw_parse_text(const char *name, const char *text, size_t len,
			 struct aw_scenario *sc, char *err, size_t errlen)
{
	struct aw_parser p;
	int r;

	memset(&p, 0, sizeof(p));
	p.file = name;
	p.sc = sc;
	p.err = err;
	p.errlen = errlen;
	if (len > AW_MAX_TEXT)
		r = aw_fail(&p, 0, 0, "input larger than %u MiB", AW_MAX_TEXT >> 20);
	else if (!(sc->path = strdup(name)))
		r = aw_fail(&p, 0, 0, "out of memory");
	else
		r = aw_parse(&p, text, len);
	free(p.procs.slot);
	free(p.regions.slot);
	free(p.region_len);
	free(p.fixup);
	if (r)
		aw_scenario_free(sc);
	return r;
}

/*
 * The scenario is (re)initialised here, not freed: pass a fresh or freed
 * one.  On failure it is left empty, so freeing it is always safe.
 */
int aw_aws_parse_string(const char *name, const char *text, struct aw_scenario *sc,
			char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = '\0';
	aw_scenario_init(sc);
	if (!name)
		name = "<string>";
	if (!text)
		return aw_errf(err, errlen, name, 0, 0, "no text");
	return aw_parse_text(name, text, strlen(text), sc, err, errlen);
}

static int aw_read_all(FILE *f, char **buf, size_t *len)
{
	size_t cap = 0, n;

	*buf = NULL;
	*len = 0;
	for (;;) {
		if (*len == cap) {
			char *nb;

			if (cap > AW_MAX_TEXT) {
				errno = EFBIG;
				return -1;
			}
			cap = cap ? cap * 2 : 65536;
			nb = realloc(*buf, cap);
			if (!nb)
				return -1;
			*buf = nb;
		}
		n = fread(*buf + *len, 1, cap - *len, f);
		*len += n;
		if (n == 0)
			return ferror(f) ? -1 : 0;
	}
}

/* A NUL would end the text early and silently: report where it is. */
static int aw_check_nul(const char *path, const char *buf, size_t len, char *err,
			size_t errlen)
{
	const char *nul = memchr(buf, '\0', len);
	const char *s;
	int line = 1;
	const char *bol = buf;

	if (!nul)
		return 0;
	for (s = buf; s < nul; s++) {
		if (*s == '\n') {
			line++;
			bol = s + 1;
		}
	}
	return aw_errf(err, errlen, path, line, (int)(nul - bol) + 1, "NUL byte in input");
}

int aw_aws_parse_file(const char *path, struct aw_scenario *sc, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t len;
	int r;

	if (err && errlen)
		err[0] = '\0';
	aw_scenario_init(sc);
	if (!path)
		return aw_errf(err, errlen, "<null>", 0, 0, "no file name");
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return aw_errf(err, errlen, path, 0, 0, "cannot open: %s", strerror(errno));
	r = aw_read_all(f, &buf, &len);
	if (r)
		aw_errf(err, errlen, path, 0, 0, "cannot read: %s", strerror(errno));
	if (f != stdin)
		fclose(f);
	if (!r)
		r = aw_check_nul(path, buf, len, err, errlen);
	if (!r)
		r = aw_parse_text(path, buf, len, sc, err, errlen);
	free(buf);
	return r;
}

/* ------------------------------------------------------------------ */
/* Writer                                                             */
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

/* The largest binary unit that divides the size exactly. */
static const char *aw_wsize(uint64_t v, char buf[32])
{
	static const char units[] = "TGMK";
	int i;

	for (i = 0; v && i < 4; i++) {
		unsigned int shift = 10 * (4 - i);

		if (!(v & ((1ull << shift) - 1))) {
			snprintf(buf, 32, "%llu%c", (unsigned long long)(v >> shift), units[i]);
			return buf;
		}
	}
	snprintf(buf, 32, "%llu", (unsigned long long)v);
	return buf;
}

static const char *aw_wduration(uint64_t ns, char buf[32])
{
	static const struct { const char *unit; uint64_t div; } units[] = {
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 },
	};
	size_t i;

	for (i = 0; ns && i < AW_ARRAY_SIZE(units); i++) {
		if (!(ns % units[i].div)) {
			snprintf(buf, 32, "+%llu%s", (unsigned long long)(ns / units[i].div),
				 units[i].unit);
			return buf;
		}
	}
	snprintf(buf, 32, "+%lluns", (unsigned long long)ns);
	return buf;
}

/* The shortest decimal that strtod() reads back as the same double. */
static const char *aw_wvalue(double v, char buf[40])
{
	int prec;

	if (v > -1e15 && v < 1e15 && v == (double)(long long)v) {
		snprintf(buf, 40, "%lld", (long long)v);
		if (v == 0 && signbit(v))
			snprintf(buf, 40, "-0");
		return buf;
	}
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, 40, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, 40, "%.17g", v);
	return buf;
}

static void aw_wprot(FILE *out, uint32_t prot)
{
	if (!(prot & (AW_PROT_READ | AW_PROT_WRITE | AW_PROT_EXEC))) {
		fputs(" none", out);
		return;
	}
	fprintf(out, " %s%s%s", prot & AW_PROT_READ ? "r" : "",
		prot & AW_PROT_WRITE ? "w" : "", prot & AW_PROT_EXEC ? "x" : "");
}

static void aw_wproc(struct aw_writer *w, uint32_t pid)
{
	char name[AW_MAX_NAME];

	aw_wname(&w->procs, pid, name);
	fprintf(w->out, " %s", name);
}

static void aw_wregion(struct aw_writer *w, uint32_t id)
{
	char name[AW_MAX_NAME];

	aw_wname(&w->regions, id, name);
	fprintf(w->out, " %s", name);
}

/* Always with explicit off and len: region lengths change along the way. */
static void aw_wtarget(struct aw_writer *w, const struct aw_event *ev)
{
	char b1[32], b2[32];

	if (ev->region) {
		aw_wregion(w, ev->region);
		fprintf(w->out, " off %s len %s", aw_wsize(ev->addr, b1), aw_wsize(ev->len, b2));
	} else {
		fprintf(w->out, " 0x%llx len %s", (unsigned long long)ev->addr,
			aw_wsize(ev->len, b2));
	}
}

static const char *aw_wname_of(const char *const names[], int nr, uint32_t i, bool *bad)
{
	if (i < (uint32_t)nr && names[i])
		return names[i];
	*bad = true;
	return "?";
}

static void aw_wmmap(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];
	size_t i;

	fputs("mmap", w->out);
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

	fputs("mremap", w->out);
	aw_wproc(w, ev->pid);
	if (ev->region) {
		aw_wregion(w, ev->region);
	} else {
		fprintf(w->out, " 0x%llx len %s", (unsigned long long)ev->addr,
			aw_wsize(ev->len, b));
	}
	fprintf(w->out, " %s", aw_wsize(ev->stride, b));
	if (ev->addr2)
		fprintf(w->out, " at 0x%llx", (unsigned long long)ev->addr2);
}

static void aw_waccess(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	fputs(ev->flags & AW_ACC_WRITE ? "write" : "read", w->out);
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

static void aw_wreclaim(struct aw_writer *w, const struct aw_event *ev)
{
	fprintf(w->out, "%s node %u", aw_event_kind_name(ev->kind), ev->node);
	if (ev->memcg)
		fprintf(w->out, " memcg %u", ev->memcg);
	if (ev->kind == AW_EV_AGE || ev->kind == AW_EV_AGE_BEGIN)
		fprintf(w->out, " force %d", ev->flags & AW_AGE_FORCE ? 1 : 0);
	if (ev->kind == AW_EV_EVICT && ev->len)
		fprintf(w->out, " nr %llu", (unsigned long long)ev->len);
	if (ev->kind != AW_EV_AGE_STEP && ev->kind != AW_EV_AGE_END &&
	    ev->swappiness != AW_SWAPPINESS_DEFAULT)
		fprintf(w->out, " swappiness %u", ev->swappiness);
	if (ev->kind == AW_EV_EVICT && (ev->flags & AW_EVICT_DIRECT))
		fputs(" direct", w->out);
}

/* Events that name a process and maybe a target, then a word or two. */
static void aw_wsimple(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	switch (ev->kind) {
	case AW_EV_MUNMAP:
		fputs("munmap", w->out);
		aw_wproc(w, ev->pid);
		aw_wtarget(w, ev);
		break;
	case AW_EV_MPROTECT:
		fputs("mprotect", w->out);
		aw_wproc(w, ev->pid);
		aw_wtarget(w, ev);
		fputs(" prot", w->out);
		aw_wprot(w->out, ev->arg);
		break;
	case AW_EV_MBIND:
		fputs("mbind", w->out);
		aw_wproc(w, ev->pid);
		aw_wtarget(w, ev);
		fprintf(w->out, " node %u %s", ev->node,
			aw_wname_of(aw_mpol_names, AW_MPOL_NR, ev->arg, &w->bad));
		break;
	case AW_EV_SET_MEMPOLICY:
		fputs("set_mempolicy", w->out);
		aw_wproc(w, ev->pid);
		if (ev->arg != AW_MPOL_DEFAULT || ev->node)
			fprintf(w->out, " node %u", ev->node);
		fprintf(w->out, " %s", aw_wname_of(aw_mpol_names, AW_MPOL_NR, ev->arg, &w->bad));
		break;
	case AW_EV_MADVISE:
		fputs("madvise", w->out);
		aw_wproc(w, ev->pid);
		aw_wtarget(w, ev);
		fprintf(w->out, " %s", aw_wname_of(aw_madv_names, AW_MADV_NR, ev->arg, &w->bad));
		break;
	case AW_EV_MIGRATE:
		fputs("migrate", w->out);
		aw_wproc(w, ev->pid);
		aw_wtarget(w, ev);
		fprintf(w->out, " node %u", ev->node);
		break;
	case AW_EV_MEMCG_LIMIT:
		fprintf(w->out, "limit memcg %u %s", ev->memcg,
			ev->len ? aw_wsize(ev->len, b) : "max");
		break;
	case AW_EV_MEMCG_MOVE:
		fputs("memcg_move", w->out);
		aw_wproc(w, ev->pid);
		fprintf(w->out, " %u", ev->memcg);
		break;
	case AW_EV_PRCTL_THP:
		fputs("prctl", w->out);
		aw_wproc(w, ev->pid);
		fprintf(w->out, " %s",
			aw_wname_of(aw_prctl_names, AW_THP_DISABLE_NR, ev->arg, &w->bad));
		break;
	case AW_EV_CONTEND:
		fputs("contend", w->out);
		aw_wproc(w, ev->pid);
		fprintf(w->out, " %s %s", aw_wname_of(aw_lock_names, AW_LOCK_NR, ev->arg, &w->bad),
			ev->flags & AW_CONTEND_ON ? "on" : "off");
		break;
	default:
		fprintf(w->out, "# cannot express event kind %u", ev->kind);
		w->bad = true;
		break;
	}
}

static void aw_wevent(struct aw_writer *w, const struct aw_event *ev)
{
	char b[32];

	switch (ev->kind) {
	case AW_EV_PROC:
		fputs("proc", w->out);
		aw_wproc(w, ev->pid);
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
		fputs(aw_event_kind_name(ev->kind), w->out);
		aw_wproc(w, ev->pid);
		aw_wproc(w, ev->pid2);
		break;
	case AW_EV_EXEC:
	case AW_EV_EXIT:
		fputs(aw_event_kind_name(ev->kind), w->out);
		aw_wproc(w, ev->pid);
		break;
	case AW_EV_RUN:
		fputs("run", w->out);
		aw_wproc(w, ev->pid);
		if (ev->cpu != AW_CPU_CURRENT)
			fprintf(w->out, " cpu %u", ev->cpu);
		break;
	case AW_EV_MMAP: aw_wmmap(w, ev); break;
	case AW_EV_MREMAP: aw_wmremap(w, ev); break;
	case AW_EV_BRK:
		fputs("brk", w->out);
		aw_wproc(w, ev->pid);
		fprintf(w->out, " %c%s", ev->flags & AW_BRK_SHRINK ? '-' : '+',
			aw_wsize(ev->len, b));
		break;
	case AW_EV_ACCESS: aw_waccess(w, ev); break;
	case AW_EV_AGE:
	case AW_EV_AGE_BEGIN:
	case AW_EV_AGE_STEP:
	case AW_EV_AGE_END:
	case AW_EV_EVICT:
		aw_wreclaim(w, ev);
		break;
	case AW_EV_KHUGEPAGED:
		fputs("khugepaged", w->out);
		if (ev->arg) {
			fprintf(w->out, " set %s %llu", aw_wname_of(aw_kh_knob_names, AW_KH_KNOB_NR, ev->arg, &w->bad),
				(unsigned long long)ev->len);
			break;
		}
		if (ev->len)
			fprintf(w->out, " pages %llu", (unsigned long long)ev->len);
		if (ev->repeat > 1 || (ev->flags & AW_KH_FULL))
			fprintf(w->out, " %s %u", ev->flags & AW_KH_FULL ? "full" : "times", ev->repeat ? ev->repeat : 1);
		break;
	case AW_EV_TIME:
		fprintf(w->out, "time %s", aw_wduration(ev->len, b));
		break;
	case AW_EV_SAMPLE:
		fputs("sample", w->out);
		aw_wregion(w, ev->region);
		break;
	default:
		aw_wsimple(w, ev);
		break;
	}
	fputc('\n', w->out);
}

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
	if (cfg->layout == AW_LAYOUT_SMALL)
		fputs("layout small\n", out);
}

static void aw_wexpect(struct aw_writer *w, const struct aw_expect *e)
{
	char b[40];
	int i;

	fputs("expect", w->out);
	if (e->thp >= 0)
		fprintf(w->out, " thp=%s", aw_thp_mode_name((enum aw_thp_mode)e->thp));
	if (e->pass_lo && e->pass_hi == e->pass_lo)
		fprintf(w->out, " pass=%d", e->pass_lo);
	else if (e->pass_lo && e->pass_hi < 0)
		fprintf(w->out, " pass=%d..", e->pass_lo);
	else if (e->pass_lo)
		fprintf(w->out, " pass=%d..%d", e->pass_lo, e->pass_hi);
	if (e->var[0])
		fprintf(w->out, " var=%.*s", AW_MAX_NAME - 1, e->var);
	if (e->node >= 0)
		fprintf(w->out, " node=%d", e->node);
	if (e->region > 0) {
		fputs(" region=", w->out);
		aw_wname(&w->regions, (uint32_t)e->region, b);
		fputs(b, w->out);
	}
	for (i = 0; i < e->nr_conds && i < AW_EXPECT_MAX_CONDS; i++) {
		const struct aw_expect_cond *c = &e->cond[i];

		fprintf(w->out, " %.*s %s %s", AW_MAX_NAME - 1, c->key,
			(unsigned int)c->op < AW_ARRAY_SIZE(aw_cmp_names) ?
			aw_cmp_names[c->op] : "?", aw_wvalue(c->value, b));
	}
	fputc('\n', w->out);
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
