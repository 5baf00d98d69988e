/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTML page of a --json report (report_html.c): `agewalk report`, and
 * --html FILE of run and replay.
 */
#ifndef AW_REPORT_HTML_H
#define AW_REPORT_HTML_H

#include <stddef.h>

/* The largest report read: a replay's is megabytes. */
#define AW_REPORT_MAX_BYTES	(1UL << 30)

/*
 * The page of a --json report held in text (named json_path in
 * messages), written to out through output.h.  The exit status: 0, 2
 * (the JSON is bad) or AW_EXIT_OUTPUT (out cannot be written), with one
 * line in err.
 */
int aw_report_html_write(const char *json_path, const char *text, size_t len, const char *out, char *err,
			 size_t errlen);

/* The page of ls's --json report (extra: as aw_report_json()'s); as above. */
struct aw_lockstep;
int aw_report_html_of(const struct aw_lockstep *ls, const char *extra, const char *name, const char *out,
		      char *err, size_t errlen);

#endif /* AW_REPORT_HTML_H */
