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

static int finish(struct aw_known *k, int line, char *err, size_t errlen)
{
	struct aw_known_entry *e;

	if (!k->nr)
		return 0;
	e = &k->e[k->nr - 1];
	if (e->signature && e->reproducer && e->contract && e->explanation)
		return 0;
	snprintf(err, errlen, "known findings: entry ending at line %d lacks %s", line,
		 !e->signature ? "signature" : !e->reproducer ? "reproducer" :
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

int aw_known_parse(struct aw_known *k, const char *text, char *err, size_t errlen)
{
	char **last = NULL;
	bool in_entry = false;
	int line = 0;

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
			if (in_entry && finish(k, line - 1, err, errlen))
				goto fail;
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
	if (in_entry && finish(k, line, err, errlen))
		goto fail;
	for (int i = 0; i < k->nr; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(k->e[i].signature, k->e[j].signature)) {
				snprintf(err, errlen, "known findings: signature listed twice: %s", k->e[i].signature);
				goto fail;
			}
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

struct aw_known_entry *aw_known_find(const struct aw_known *k, const char *sig)
{
	for (int i = 0; i < k->nr; i++)
		if (!strcmp(k->e[i].signature, sig))
			return &k->e[i];
	return NULL;
}
