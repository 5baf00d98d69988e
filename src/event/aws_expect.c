/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The `expect` language of .aws files, read and written:
 *
 *   expect [thp=MODE] [pass=N|N..M|N..] [var=NAME] [node=N] [region=NAME]
 *          KEY OP VALUE ...
 *
 * It is not made of blank-separated words like the other lines (`k<=3` is
 * one condition), so it is scanned here from the raw line rather than from
 * the parser's tokens.  The selectors, the comparison operators and the
 * value syntax each have one table or one function, used by both the
 * reader and aw_expect_write(), so that what the writer prints is by
 * construction what the reader accepts, values included bit for bit.
 *
 * Evaluating an expectation against a run is report.c's business; this
 * file only turns the text into struct aw_expect and back.
 */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws_internal.h"

static const char *const aw_cmp_names[] = {
	[AW_CMP_EQ] = "==", [AW_CMP_NE] = "!=", [AW_CMP_LE] = "<=",
	[AW_CMP_GE] = ">=", [AW_CMP_LT] = "<",  [AW_CMP_GT] = ">",
};

/* The selectors, KEY=VALUE, in the order the writer prints them. */
enum { AW_SEL_THP, AW_SEL_PASS, AW_SEL_VAR, AW_SEL_NODE, AW_SEL_REGION, AW_SEL_NR };

static const char *const aw_sel_names[AW_SEL_NR + 1] = {
	[AW_SEL_THP] = "thp", [AW_SEL_PASS] = "pass", [AW_SEL_VAR] = "var",
	[AW_SEL_NODE] = "node", [AW_SEL_REGION] = "region", [AW_SEL_NR] = NULL,
};

/* ------------------------------------------------------------------ */
/* Values                                                             */
/* ------------------------------------------------------------------ */

/*
 * An expectation value: an integer as aw_parse_num() reads it, or a decimal
 * with optional fraction and exponent, optionally negative.  The syntax is
 * checked here and only then given to strtod(), which alone rounds
 * correctly; aw_wvalue() relies on that to print values that read back bit
 * for bit.
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


/* ------------------------------------------------------------------ */
/* Reading an expect line                                             */
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
	uint64_t n;
	int i = aw_lookup(k, aw_sel_names, AW_SEL_NR);

	if (i < 0)
		return aw_fail(p, p->line, k->col,
			       "unknown selector '%s=' (comparisons are written '%s == VALUE')",
			       AW_Q(k), AW_Q(k));
	if (aw_opt(p, k, aw_sel_names, seen) < 0)
		return -1;
	if (!v->len)
		return aw_fail(p, p->line, v->col, "expected a value after '%s='", AW_Q(k));
	switch (i) {
	case AW_SEL_THP:
		return aw_thp_tok(p, v, &e->thp);
	case AW_SEL_PASS:
		return aw_sel_pass(p, v, e);
	case AW_SEL_VAR:
		return aw_sel_var(p, v, e);
	case AW_SEL_NODE:
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

/* The handler of the `expect` keyword: one struct aw_expect more. */
int aw_h_expect(struct aw_parser *p)
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
/* Writing one                                                        */
/* ------------------------------------------------------------------ */

/* " KEY=" of a selector. */
static void aw_wsel(FILE *out, int sel)
{
	fprintf(out, " %s=", aw_sel_names[sel]);
}

void aw_expect_write(FILE *out, const struct aw_expect *e, const char *region)
{
	char b[40];
	int i;

	fputs("expect", out);
	if (e->thp >= 0) {
		aw_wsel(out, AW_SEL_THP);
		fputs(aw_thp_mode_name((enum aw_thp_mode)e->thp), out);
	}
	if (e->pass_lo) {
		aw_wsel(out, AW_SEL_PASS);
		if (e->pass_hi == e->pass_lo)
			fprintf(out, "%d", e->pass_lo);
		else if (e->pass_hi < 0)
			fprintf(out, "%d..", e->pass_lo);
		else
			fprintf(out, "%d..%d", e->pass_lo, e->pass_hi);
	}
	if (e->var[0]) {
		aw_wsel(out, AW_SEL_VAR);
		fprintf(out, "%.*s", AW_MAX_NAME - 1, e->var);
	}
	if (e->node >= 0) {
		aw_wsel(out, AW_SEL_NODE);
		fprintf(out, "%d", e->node);
	}
	if (region) {
		aw_wsel(out, AW_SEL_REGION);
		fputs(region, out);
	}
	for (i = 0; i < e->nr_conds && i < AW_EXPECT_MAX_CONDS; i++) {
		const struct aw_expect_cond *c = &e->cond[i];

		fprintf(out, " %.*s %s %s", AW_MAX_NAME - 1, c->key,
			(unsigned int)c->op < AW_ARRAY_SIZE(aw_cmp_names) ?
			aw_cmp_names[c->op] : "?", aw_wvalue(c->value, b));
	}
	fputc('\n', out);
}
