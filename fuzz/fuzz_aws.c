// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the .aws text parser and writer (src/event/aws_*.c).  Any
 * byte string must either parse or be rejected with one "FILE:LINE:COL:"
 * line; never crash or leak.  What parses is written back with
 * aw_aws_write() and parsed again, and that text written once more: the
 * two texts must be identical (the writer's output is a fixed point) and
 * the two scenarios the same configuration, events, names and
 * expectations, as docs/aws-format.md ("Writing") promises.
 *
 * The bytes are parsed as aw_aws_parse_string() reads them, up to a NUL
 * (`agewalk run` and `convert` read files through aw_aws_parse_file(),
 * which rejects a NUL and then parses the same way).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* open_memstream */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT	(256u << 10)	/* bytes of text */
/*
 * Repeat blocks multiply lines: the parser allows 10^7 events and 1 GiB of
 * text read again, far too slow for one execution.  Inputs whose blocks
 * could expand beyond these are skipped (a static bound, see bounded()).
 */
#define MAX_LINES	20000u		/* lines read, repeats expanded */
#define MAX_BYTES	(4u << 20)	/* bytes read, repeats expanded */

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * An upper bound on what the parser reads: every line counted once per
 * pass of the repeat blocks around it, a block being any line whose first
 * word is `repeat` with a count, up to the next line whose first word is
 * `}`.  Lines the parser would reject only make the bound larger.
 */
static bool bounded(const char *text, size_t len)
{
	uint64_t mult[17] = { 1 }, lines = 0, bytes = 0;
	int depth = 0;
	size_t i = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len, w, e;

		lines += mult[depth];
		bytes += mult[depth] * (end - i + 1);
		if (lines > MAX_LINES || bytes > MAX_BYTES)
			return false;
		for (w = i; w < end && blank(text[w]); w++)
			;
		for (e = w; e < end && !blank(text[e]) && text[e] != '#'; e++)
			;
		if (e - w == 1 && text[w] == '}' && depth) {
			depth--;
		} else if (e - w == 6 && !memcmp(text + w, "repeat", 6) && depth < 16) {
			uint64_t n = 0;
			size_t d = e;

			while (d < end && blank(text[d]))
				d++;
			/* decimal or 0x hex: any count over the limit ends the loop */
			if (d + 1 < end && text[d] == '0' && (text[d + 1] == 'x' || text[d + 1] == 'X')) {
				for (d += 2; d < end && n <= MAX_LINES; d++) {
					char c = text[d];

					if (c >= '0' && c <= '9')
						n = n * 16 + (uint64_t)(c - '0');
					else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
						n = n * 16 + (uint64_t)((c | 0x20) - 'a' + 10);
					else
						break;
				}
			} else {
				for (; d < end && text[d] >= '0' && text[d] <= '9' && n <= MAX_LINES; d++)
					n = n * 10 + (uint64_t)(text[d] - '0');
			}
			mult[depth + 1] = mult[depth] * (n ? n : 1);
			if (mult[depth + 1] > MAX_LINES)
				return false;
			depth++;
		}
		i = end + 1;
	}
	return true;
}

/* The scenario as text: a malloc'ed NUL-terminated string, or NULL. */
static char *render(const struct aw_scenario *sc)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	int r;

	if (!f)
		abort();
	r = aw_aws_write(f, sc);
	if (fclose(f) || r) {
		/* a parsed scenario always has a text form (errno EINVAL otherwise) */
		fprintf(stderr, "aw_aws_write failed on a parsed scenario\n");
		abort();
	}
	return text;
}

static void must(bool ok, const char *what, const char *text)
{
	if (ok)
		return;
	fprintf(stderr, "aws round trip: %s differ; the written text was:\n%s", what, text);
	abort();
}

/*
 * docs/aws-format.md: "Parsing the output again gives the same
 * configuration, byte-identical events (apart from event_line) and the
 * same expectations."  (Both scenarios come from the parser, so their
 * padding is zero: aw_config_default() and the parser memset them.)
 */
static void same(const struct aw_scenario *a, const struct aw_scenario *b, const char *text)
{
	must(!memcmp(&a->cfg, &b->cfg, sizeof(a->cfg)), "configurations", text);
	must(a->nr_events == b->nr_events, "event counts", text);
	for (size_t i = 0; i < a->nr_events; i++)
		must(!memcmp(&a->events[i], &b->events[i], sizeof(a->events[i])), "events", text);
	must(a->nr_procs == b->nr_procs, "process counts", text);
	for (int i = 0; i < a->nr_procs; i++)
		must(!strncmp(a->proc_name[i], b->proc_name[i], AW_MAX_NAME), "process names", text);
	must(a->nr_regions == b->nr_regions, "region counts", text);
	for (int i = 0; i < a->nr_regions; i++)
		must(!strncmp(a->region_name[i], b->region_name[i], AW_MAX_NAME), "region names", text);
	must(a->nr_expects == b->nr_expects, "expectation counts", text);
	for (int i = 0; i < a->nr_expects; i++) {
		const struct aw_expect *x = &a->expects[i], *y = &b->expects[i];

		must(x->thp == y->thp && x->pass_lo == y->pass_lo && x->pass_hi == y->pass_hi &&
		     !strncmp(x->var, y->var, AW_MAX_NAME) && x->node == y->node &&
		     x->region == y->region && x->nr_conds == y->nr_conds, "expectations", text);
		for (int j = 0; j < x->nr_conds; j++)
			must(!strncmp(x->cond[j].key, y->cond[j].key, AW_MAX_NAME) &&
			     x->cond[j].op == y->cond[j].op &&
			     !memcmp(&x->cond[j].value, &y->cond[j].value, sizeof(double)),
			     "expectation conditions", text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aw_scenario a, b;
	char err[512], *text, *text1, *text2;
	size_t len;

	if (size > MAX_INPUT)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	len = strlen(text);
	if (!bounded(text, len)) {
		free(text);
		return 0;
	}
	if (aw_aws_parse_string("fuzz.aws", text, &a, err, sizeof(err))) {
		/* one "fuzz.aws:LINE:COL: message" line, and nothing left behind */
		if (strncmp(err, "fuzz.aws:", 9) || strchr(err, '\n') || a.nr_events || a.events) {
			fprintf(stderr, "bad failure: %s\n", err);
			abort();
		}
		aw_scenario_free(&a);
		free(text);
		return 0;
	}
	free(text);
	text1 = render(&a);
	if (aw_aws_parse_string("written.aws", text1, &b, err, sizeof(err))) {
		fprintf(stderr, "the written text does not parse: %s\n%s", err, text1);
		abort();
	}
	same(&a, &b, text1);
	text2 = render(&b);
	if (strcmp(text1, text2)) {
		fprintf(stderr, "aws round trip: not a fixed point\n--- first\n%s--- second\n%s",
			text1, text2);
		abort();
	}
	free(text1);
	free(text2);
	aw_scenario_free(&a);
	aw_scenario_free(&b);
	return 0;
}
