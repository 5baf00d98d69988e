// SPDX-License-Identifier: GPL-2.0-only
/* The empty-mm skip's contract options, as text (contract.h). */
#include <stdio.h>
#include <string.h>

#include "contract.h"

static const char *const place_names[] = { "get-next-mm", "after" };
static const char *const pred_names[] = { "associated", "no-leaves" };
static const char *const clock_names[] = { "mm", "pass" };
/* bit i of .clear is clear_names[i] */
static const char *const clear_names[] = { "migration", "huge", "minor", "collapse" };

static int pick(const char *v, size_t n, const char *const *names, int nr)
{
	for (int i = 0; i < nr; i++)
		if (strlen(names[i]) == n && !memcmp(v, names[i], n))
			return i;
	return -1;
}

/* "major+migration+huge": major is implied (and accepted), every other word a bit */
static int parse_clear(const char *v, size_t n, uint8_t *clear)
{
	*clear = 0;
	while (n) {
		const char *plus = memchr(v, '+', n);
		size_t w = plus ? (size_t)(plus - v) : n;
		int b = pick(v, w, clear_names, 4);

		if (b >= 0)
			*clear |= (uint8_t)(1U << b);
		else if (!(w == 5 && !memcmp(v, "major", 5)))
			return -1;
		if (!plus)
			break;
		n -= w + 1;
		v = plus + 1;
	}
	return 0;
}

static int parse_word(const char *w, size_t n, struct aw_empty_contract *c)
{
	const char *eq = memchr(w, '=', n);
	size_t k, vn;
	int i;

	if (!eq)
		return -1;
	k = (size_t)(eq - w);
	vn = n - k - 1;
	if (k == 5 && !memcmp(w, "place", 5) && (i = pick(eq + 1, vn, place_names, 2)) >= 0)
		c->place = (uint8_t)i;
	else if (k == 5 && !memcmp(w, "empty", 5) && (i = pick(eq + 1, vn, pred_names, 2)) >= 0)
		c->pred = (uint8_t)i;
	else if (k == 5 && !memcmp(w, "clock", 5) && (i = pick(eq + 1, vn, clock_names, 2)) >= 0)
		c->clock = (uint8_t)i;
	else if (k == 5 && !memcmp(w, "clear", 5))
		return parse_clear(eq + 1, vn, &c->clear);
	else
		return -1;
	return 0;
}

int aw_empty_contract_parse(const char *s, char sep, struct aw_empty_contract *c, char *err, size_t errlen)
{
	*c = AW_EMPTY_CONTRACT_DEFAULT;
	while (*s) {
		const char *end = strchr(s, sep);
		size_t n = end ? (size_t)(end - s) : strlen(s);

		if (n && parse_word(s, n, c)) {
			snprintf(err, errlen, "empty-mm contract: '%.*s' is not place=get-next-mm|after, "
				 "empty=associated|no-leaves, clock=mm|pass or clear=major[+migration][+huge]"
				 "[+minor][+collapse]", (int)n, s);
			return -1;
		}
		s += n + (end ? 1 : 0);
	}
	return 0;
}

void aw_empty_contract_format(const struct aw_empty_contract *c, char sep, char *buf, size_t len)
{
	int used = snprintf(buf, len, "place=%s%cempty=%s%cclock=%s%cclear=major", place_names[c->place & 1], sep,
			    pred_names[c->pred & 1], sep, clock_names[c->clock & 1], sep);

	for (int b = 0; b < 4 && used > 0 && (size_t)used < len; b++)
		if (c->clear >> b & 1)
			used += snprintf(buf + used, len - used, "+%s", clear_names[b]);
}

int aw_empty_contract_is_default(const struct aw_empty_contract *c)
{
	struct aw_empty_contract d = AW_EMPTY_CONTRACT_DEFAULT;

	return c->place == d.place && c->pred == d.pred && c->clock == d.clock && c->clear == d.clear;
}
