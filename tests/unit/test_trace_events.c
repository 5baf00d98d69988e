// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace events the reader consumes (src/trace/tev.c) and the events
 * traces/record enables (its events=( ... ) list) are the same set, so a
 * row added to the table is recorded and a recorded event is read.  The
 * table's rows are also checked for what the reader assumes: no event
 * twice, a symbolic field among the row's fields, a handler or a reason.
 *
 *   test_trace_events traces/record
 */
#include "aw_test.h"
#include "tev.h"

#define MAX_RECORDED	128

/* The words of the script's events=( ... ) array, comments left out. */
static int recorded_events(const char *path, char names[][64], int max)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool in_list = false;
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#'), *tok, *save;

		if (!in_list) {
			in_list = !strncmp(line, "events=(", 8);
			continue;
		}
		if (hash)
			*hash = 0;
		for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(tok, ")")) {
				fclose(f);
				return n;
			}
			if (n < max)
				snprintf(names[n++], 64, "%s", tok);
		}
	}
	fclose(f);
	return in_list ? -1 : -2;	/* no closing parenthesis, or no list */
}

static bool in_table(const char *name)
{
	const char *sys, *ev;
	char full[128];

	for (int i = 0; aw_trace_event(i, &sys, &ev); i++) {
		snprintf(full, sizeof(full), "%s:%s", sys, ev);
		if (!strcmp(full, name))
			return true;
	}
	return false;
}

static void test_record_matches_table(const char *script)
{
	static char names[MAX_RECORDED][64];
	int n = recorded_events(script, names, MAX_RECORDED);
	const char *sys, *ev;
	int rows = 0;

	CHECK(n > 0);
	for (int i = 0; i < n; i++) {
		if (!in_table(names[i]))
			fprintf(stderr, "traces/record enables %s, which the reader does not read\n", names[i]);
		CHECK(in_table(names[i]));
	}
	for (int i = 0; aw_trace_event(i, &sys, &ev); i++, rows++) {
		char full[128];
		bool found = false;

		snprintf(full, sizeof(full), "%s:%s", sys, ev);
		for (int k = 0; k < n && !found; k++)
			found = !strcmp(names[k], full);
		if (!found)
			fprintf(stderr, "the reader reads %s, which traces/record does not enable\n", full);
		CHECK(found);
	}
	CHECK_EQ(rows, AW_TEV_NR);
	CHECK_EQ(n, rows);	/* and neither lists an event twice (below) */
}

static void test_rows(void)
{
	for (int t = 0; t < AW_TEV_NR; t++) {
		const struct aw_tev_desc *d = &aw_tev_table[t];
		bool sym_listed = !d->symbolic;

		CHECK(d->system && d->event);
		for (int u = 0; u < t; u++)
			CHECK(strcmp(d->system, aw_tev_table[u].system) || strcmp(d->event, aw_tev_table[u].event));
		for (int i = 0; i < AW_TEV_MAX_FIELDS && d->fields[i]; i++)
			sym_listed |= d->symbolic && !strcmp(d->symbolic, d->fields[i]);
		CHECK(sym_listed);
		/* a row without a handler is read only to be counted as used: sys_enter_brk */
		CHECK(d->handler || t == AW_TEV_BRK_ENTER);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_trace_events traces/record\n");
		return 2;
	}
	RUN(test_rows);
	test_record_matches_table(argv[1]);
	return aw_test_report("test_trace_events");
}
