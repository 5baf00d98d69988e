// SPDX-License-Identifier: GPL-2.0-only
/* The known-findings list (known.h): parse, load, look up. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "known.h"

void aw_known_free(struct aw_known *k)
{
	for (int i = 0; i < k->nr; i++) {
		for (int j = 0; j < k->e[i].nr_signatures; j++)
			free(k->e[i].signatures[j]);
		free(k->e[i].signatures);
		free(k->e[i].signature);
		free(k->e[i].reproducer);
		free(k->e[i].contract);
		free(k->e[i].explanation);
	}
	free(k->e);
	memset(k, 0, sizeof(*k));
}

/* value of the line, trimmed; *field grows by a space and it when continuing */
static int set_field(char **field, const char *v, size_t n, bool append)
{
	size_t old = append && *field ? strlen(*field) : 0;
	char *s;

	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
		n--;
	if (!append)
		free(*field), *field = NULL;
	s = realloc(*field, old + n + 2);
	if (!s)
		return -1;
	if (old)
		s[old++] = ' ';
	memcpy(s + old, v, n);
	s[old + n] = 0;
	*field = s;
	return 0;
}

/* the signature line just read (and its continuations) joins the entry's list */
static int keep_signature(struct aw_known_entry *e)
{
	char **a;

	if (!e->signature)
		return 0;
	a = aw_grow(e->signatures, &e->cap_signatures, e->nr_signatures, sizeof(*a), 2);
	if (!a)
		return -1;
	e->signatures = a;
	e->signatures[e->nr_signatures++] = e->signature;
	e->signature = NULL;
	return 0;
}

static int finish(struct aw_known *k, int line, char *err, size_t errlen)
{
	struct aw_known_entry *e;

	if (!k->nr)
		return 0;
	e = &k->e[k->nr - 1];
	if (keep_signature(e))
		return -2;
	if (e->nr_signatures && e->reproducer && e->contract && e->explanation)
		return 0;
	snprintf(err, errlen, "known findings: entry ending at line %d lacks %s", line,
		 !e->nr_signatures ? "signature" : !e->reproducer ? "reproducer" :
		 !e->contract ? "contract" : "explanation");
	return -1;
}

static char **field_of(struct aw_known_entry *e, const char *key, size_t n)
{
	if (n == 9 && !memcmp(key, "signature", 9))
		return &e->signature;
	if (n == 10 && !memcmp(key, "reproducer", 10))
		return &e->reproducer;
	if (n == 8 && !memcmp(key, "contract", 8))
		return &e->contract;
	if (n == 11 && !memcmp(key, "explanation", 11))
		return &e->explanation;
	return NULL;
}

/* one pattern listed twice, in one entry or two */
static int twice(const struct aw_known *k, char *err, size_t errlen)
{
	for (int i = 0; i < k->nr; i++)
		for (int a = 0; a < k->e[i].nr_signatures; a++)
			for (int j = 0; j <= i; j++)
				for (int b = 0; b < (j == i ? a : k->e[j].nr_signatures); b++)
					if (!strcmp(k->e[i].signatures[a], k->e[j].signatures[b])) {
						snprintf(err, errlen, "known findings: signature listed twice: %s",
							 k->e[i].signatures[a]);
						return -1;
					}
	return 0;
}

int aw_known_parse(struct aw_known *k, const char *text, char *err, size_t errlen)
{
	char **last = NULL;
	bool in_entry = false;
	int line = 0, r;

	memset(k, 0, sizeof(*k));
	for (const char *p = text; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		const char *colon;
		char **f;

		line++;
		if (n && p[0] == '#') {
			/* a comment */
		} else if (!n || strspn(p, " \t\r") == n) {
			if (in_entry && (r = finish(k, line - 1, err, errlen))) {
				if (r == -2)
					goto oom;
				goto fail;
			}
			in_entry = false;
			last = NULL;
		} else if (n > 2 && p[0] == ' ' && p[1] == ' ') {
			if (!last) {
				snprintf(err, errlen, "known findings: line %d continues no field", line);
				goto fail;
			}
			if (set_field(last, p + strspn(p, " \t"), n - strspn(p, " \t"), true))
				goto oom;
		} else {
			colon = memchr(p, ':', n);
			if (!colon || !(f = field_of(&(struct aw_known_entry){ 0 }, p, (size_t)(colon - p)))) {
				snprintf(err, errlen, "known findings: line %d: expected signature:, reproducer:, "
					 "contract: or explanation:", line);
				goto fail;
			}
			if (!in_entry) {
				struct aw_known_entry *a = aw_grow(k->e, &k->cap, k->nr, sizeof(*a), 8);

				if (!a)
					goto oom;
				k->e = a;
				memset(&k->e[k->nr++], 0, sizeof(k->e[0]));
				in_entry = true;
			}
			f = field_of(&k->e[k->nr - 1], p, (size_t)(colon - p));
			if (f == &k->e[k->nr - 1].signature && keep_signature(&k->e[k->nr - 1]))
				goto oom;
			if (*f) {
				snprintf(err, errlen, "known findings: line %d repeats a key", line);
				goto fail;
			}
			colon++;
			colon += strspn(colon, " \t");
			if (set_field(f, colon, n - (size_t)(colon - p), false))
				goto oom;
			last = f;
		}
		p = eol ? eol + 1 : p + n;
	}
	if (in_entry && (r = finish(k, line, err, errlen))) {
		if (r == -2)
			goto oom;
		goto fail;
	}
	if (twice(k, err, errlen))
		goto fail;
	return 0;
oom:
	snprintf(err, errlen, "known findings: out of memory at line %d", line);
fail:
	aw_known_free(k);
	return -1;
}

int aw_known_load(struct aw_known *k, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	memset(k, 0, sizeof(*k));
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *t = realloc(text, cap = cap ? cap * 2 : 8192);

			if (!t) {
				free(text);
				fclose(f);
				snprintf(err, errlen, "%s: out of memory", path);
				return -1;
			}
			text = t;
		}
		size_t n = fread(text + len, 1, 4096, f);

		len += n;
		if (n < 4096)
			break;
	}
	text[len] = 0;
	rc = ferror(f) ? -1 : 0;
	fclose(f);
	if (rc) {
		snprintf(err, errlen, "%s: read error", path);
		free(text);
		return -1;
	}
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: not a text file (a NUL byte)", path);
		free(text);
		return -1;
	}
	rc = aw_known_parse(k, text, err, errlen);
	free(text);
	return rc;
}

/*
 * Does text match pattern, where '*' matches any run of characters and
 * nothing else is special?  The classic greedy match with one backtrack
 * point: on a mismatch, the last '*' takes one more character.
 */
static bool glob_match(const char *pat, size_t np, const char *text, size_t nt)
{
	size_t p = 0, t = 0, star = (size_t)-1, mark = 0;

	while (t < nt) {
		if (p < np && pat[p] == '*') {
			star = p++;
			mark = t;
		} else if (p < np && pat[p] == text[t]) {
			p++, t++;
		} else if (star != (size_t)-1) {
			p = star + 1;
			t = ++mark;
		} else {
			return false;
		}
	}
	while (p < np && pat[p] == '*')
		p++;
	return p == np;
}

/* "ORACLE [VARIANTS] " of a signature: its length, 0 if it has none */
static size_t head_len(const char *s)
{
	const char *h = strstr(s, "] ");

	return h && strchr(s, '[') && strchr(s, '[') < h ? (size_t)(h - s) + 2 : 0;
}

/* the entry with a pattern whose head matches head and whose cause matches c */
static struct aw_known_entry *find_cause(const struct aw_known *k, const char *head, size_t nh,
					 const char *c, size_t nc)
{
	for (int i = 0; i < k->nr; i++)
		for (int j = 0; j < k->e[i].nr_signatures; j++) {
			const char *pat = k->e[i].signatures[j];
			size_t ph = head_len(pat);

			if (!nh && glob_match(pat, strlen(pat), c, nc))
				return &k->e[i];
			if (nh && ph && glob_match(pat, ph, head, nh) &&
			    glob_match(pat + ph, strlen(pat + ph), c, nc))
				return &k->e[i];
		}
	return NULL;
}

/*
 * A signature "ORACLE [VARIANTS] CAUSE + CAUSE ..." is known when every
 * cause, under the same oracle and variants, matches a listed pattern: a
 * finding that several known rules produced together is known as well.
 * The entry of the first cause is the one returned.
 */
struct aw_known_entry *aw_known_find(const struct aw_known *k, const char *sig)
{
	size_t nh = head_len(sig);
	const char *c = sig + nh;
	struct aw_known_entry *first = NULL;

	for (;;) {
		const char *plus = nh ? strstr(c, " + ") : NULL;
		size_t nc = plus ? (size_t)(plus - c) : strlen(c);
		struct aw_known_entry *e = find_cause(k, sig, nh, c, nc);

		if (!e)
			return NULL;
		if (!first)
			first = e;
		if (!plus)
			return first;
		c = plus + 3;
	}
}
