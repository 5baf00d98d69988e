/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * .aws lexing: how a line of text becomes positioned tokens, and how a
 * position is reported.  The parser and the `expect` scanner both take
 * their words, numbers and sizes from here, and every message they produce
 * goes through aw_fail(), so that "FILE:LINE:COL: message" is spelled once
 * and stays one line whatever the input holds.
 *
 * Numbers are read without strtoull() and characters classified without
 * <ctype.h>: both depend on the locale, and the same code is fed by the
 * fuzzers, so nothing here may overflow or read past a token on hostile
 * input.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "aws_internal.h"

/* ------------------------------------------------------------------ */
/* Names and numbers                                                  */
/* ------------------------------------------------------------------ */

/* [A-Za-z_][A-Za-z0-9_.-]*, short enough for a char[AW_MAX_NAME]. */
bool aw_name_ok(const char *s, size_t len)
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

const char aw_size_suffix[4] = { 'K', 'M', 'G', 'T' };

/* The shift of a size suffix in either case, 0 when c is none. */
unsigned int aw_suffix_shift(char c)
{
	unsigned int i;

	for (i = 0; i < AW_ARRAY_SIZE(aw_size_suffix); i++)
		if (c == aw_size_suffix[i] || c == aw_size_suffix[i] - 'A' + 'a')
			return 10 * (i + 1);
	return 0;
}

/*
 * Decimal or 0x hex, with an optional binary K/M/G/T suffix when `suffix`.
 * Returns 0, -1 when malformed, -2 when the value does not fit in 64 bits.
 */
int aw_parse_num(const char *s, size_t len, bool suffix, uint64_t *out)
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

const struct aw_time_unit aw_time_units[4] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

/* [+]DIGITS(ns|us|ms|s) to nanoseconds; same return convention. */
int aw_parse_duration(const char *s, size_t len, uint64_t *ns)
{
	const struct aw_time_unit *units = aw_time_units;
	size_t i, n = 0;
	uint64_t v;

	if (len && s[0] == '+') {
		s++;
		len--;
	}
	while (n < len && aw_isdigit(s[n]))
		n++;
	for (i = 0; i < AW_ARRAY_SIZE(aw_time_units); i++) {
		size_t ulen = strlen(units[i].name);
		int r;

		if (len - n != ulen || memcmp(s + n, units[i].name, ulen))
			continue;
		r = aw_parse_num(s, n, false, &v);
		if (r)
			return r;
		if (v > UINT64_MAX / units[i].ns)
			return -2;
		*ns = v * units[i].ns;
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Errors and tokens                                                  */
/* ------------------------------------------------------------------ */

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

int aw_errf(char *err, size_t errlen, const char *file, int line, int col,
	    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aw_verr(err, errlen, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int aw_fail(struct aw_parser *p, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	aw_verr(p->err, p->errlen, p->file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

struct aw_quote aw_quote(const char *s, size_t len)
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

int aw_oom(struct aw_parser *p, int col)
{
	return aw_fail(p, p->line, col, "out of memory");
}

int aw_need(struct aw_parser *p, const char *what, const struct aw_tok **t)
{
	*t = aw_next(p);
	if (!*t)
		return aw_fail(p, p->line, aw_endcol(p), "expected %s", what);
	return 0;
}

int aw_unexpected(struct aw_parser *p, const struct aw_tok *t)
{
	return aw_fail(p, p->line, t->col, "unexpected '%s'", AW_Q(t));
}

int aw_done(struct aw_parser *p)
{
	const struct aw_tok *t = aw_next(p);

	return t ? aw_unexpected(p, t) : 0;
}

/* Index of the keyword in names[] (NULL entries skipped), or -1. */
int aw_lookup(const struct aw_tok *t, const char *const names[], int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (names[i] && aw_teq(t, names[i]))
			return i;
	return -1;
}

/*
 * The next word, one of names[]: its index in *i; else "expected WHAT"
 * at the end of the line, or "expected WHAT, not 'X'" at the word.
 */
int aw_need_keyword(struct aw_parser *p, const char *what, const char *const names[], int nr, int *i)
{
	const struct aw_tok *t;

	if (aw_need(p, what, &t))
		return -1;
	*i = aw_lookup(t, names, nr);
	if (*i < 0)
		return aw_fail(p, p->line, t->col, "expected %s, not '%s'", what, AW_Q(t));
	return 0;
}

/*
 * Index of an optional keyword in the NULL-terminated opts[], recording it
 * in *seen so that a keyword given twice is reported rather than silently
 * overriding the first; -1 with the error set otherwise.
 */
int aw_opt(struct aw_parser *p, const struct aw_tok *t,
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

/* Split the line at blanks; a '#' anywhere starts a comment. */
int aw_tokenize(struct aw_parser *p)
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
