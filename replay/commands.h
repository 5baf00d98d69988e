/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agewalk commands that live outside agewalk.c (whose commands[] table
 * dispatches to them), and what they share with it.  A command gets the
 * whole argv, argv[1] being its name, and returns the exit status: 0 fine,
 * 1 a finding (or a failed expectation), 2 bad usage or bad input.
 */
#ifndef AW_COMMANDS_H
#define AW_COMMANDS_H

#include <stddef.h>
#include <stdint.h>

#include "fuzzin.h"
#include "scenario.h"

int aw_cmd_replay(int argc, char **argv);	/* replay_cmd.c */
int aw_cmd_minimize(int argc, char **argv);	/* minimize.c */
int aw_cmd_kdiff(int argc, char **argv);	/* kdiff_cmd.c */
int aw_cmd_compare(int argc, char **argv);	/* compare_cmd.c */
int aw_cmd_report(int argc, char **argv);	/* report_html.c */
/*
 * report_html.c: the HTML page of a --json report held in text (named
 * json_path in messages), written to out through output.h.  The exit
 * status: 0, 2 (the JSON is bad) or AW_EXIT_OUTPUT (out cannot be
 * written), with one line in err.
 */
int aw_report_html_write(const char *json_path, const char *text, size_t len, const char *out, char *err,
			 size_t errlen);
/* --html FILE of run and replay: the page of ls's --json report (extra: as aw_report_json()'s); as above. */
struct aw_lockstep;
int aw_report_html_of(const struct aw_lockstep *ls, const char *extra, const char *name, const char *out,
		      char *err, size_t errlen);

/*
 * agewalk.c: a usage error of command cmd as one line on stderr, "agewalk
 * cmd: MESSAGE; see agewalk cmd --help"; returns 2, the exit status.
 */
/*
 * agewalk.c: a whole file ("-": stdin) in memory, malloc'd, its length in
 * *len; NULL if it cannot be opened (errno says why), is read only in
 * part, or is limit bytes or more.
 */
uint8_t *aw_slurp(const char *path, size_t limit, size_t *len);

int aw_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * agewalk.c: aw_usage_error() for an option the parser did not take: "needs
 * a value" when usage (the command's --help text) names it, else "unknown
 * option".
 */
int aw_option_error(const char *cmd, const char *usage, const char *opt);

/*
 * agewalk.c, for minimize: read a scenario in any input format (from =
 * aws, awpb or fuzz, NULL = by the extension); a file with no known
 * extension is a fuzz input (crash files from libFuzzer and AFL++ have
 * none), decoded for target, its variant in *fuzz_variant.
 */
int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target);

#endif /* AW_COMMANDS_H */
