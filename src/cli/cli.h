/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The agewalk command line (src/cli): the command table agewalk.c holds,
 * the commands, and the helpers they share (cli_util.c).  A command gets
 * the whole argv, argv[1] being its name, and returns the exit status: 0
 * fine, 1 a finding (or a failed expectation), 2 bad usage or bad input,
 * AW_EXIT_OUTPUT (output.h) an output that cannot be written.
 *
 * Adding a command: a *_cmd.c with its aw_cmd_NAME() and its option table
 * (struct aw_po_cmd, parse_options.h), declared here, one line in
 * agewalk.c's table, the file in CMakeLists.txt.
 */
#ifndef AW_CLI_H
#define AW_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fuzzin.h"
#include "parse_options.h"
#include "scenario.h"

/* A command: its name, its handler, its arguments on one line, its options. */
struct aw_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;		/* `agewalk --help` (the command's own --help has the rest) */
	const struct aw_po_cmd *opts;	/* NULL: help, which takes a command name only */
};

/* agewalk.c: every command, in the order `agewalk --help` lists them. */
extern const struct aw_cmd aw_commands[];
extern const size_t aw_nr_commands;

int aw_cmd_run(int argc, char **argv);		/* run_cmd.c */
int aw_cmd_convert(int argc, char **argv);	/* convert_cmd.c */
int aw_cmd_replay(int argc, char **argv);	/* replay_cmd.c */
int aw_cmd_minimize(int argc, char **argv);	/* minimize_cmd.c */
int aw_cmd_kdiff(int argc, char **argv);	/* kdiff_cmd.c */
int aw_cmd_compare(int argc, char **argv);	/* compare_cmd.c */
int aw_cmd_report(int argc, char **argv);	/* report_cmd.c */
int aw_cmd_help(int argc, char **argv);		/* help_cmd.c */

/* The commands' option tables (parse_options.h), for --help and --dump-options. */
extern const struct aw_po_cmd aw_run_cmd, aw_convert_cmd, aw_replay_cmd, aw_minimize_cmd, aw_kdiff_cmd,
	aw_compare_cmd, aw_report_cmd;

/*
 * help_cmd.c: the program's usage (the table's lines, then --version);
 * the command of that name, or NULL; "agewalk: 'NAME' is not a command; commands: ..." on stderr, returning
 * 2; --version; --dump-options (every command's options, one a line: the
 * completion's source, tools/agewalk-completion); the lines of the
 * commands other than run and help (run's --help lists them).
 */
void aw_usage(FILE *out);
const struct aw_cmd *aw_cmd_find(const char *name);
int aw_unknown_command(const char *name);
int aw_version(void);
int aw_dump_options(void);
void aw_other_commands(FILE *out);

/*
 * cli_util.c: a whole file ("-": stdin) in memory, malloc'd, its length in
 * *len; NULL if it cannot be opened (errno says why), is read only in
 * part, or is limit bytes or more.
 */
uint8_t *aw_slurp(const char *path, size_t limit, size_t *len);

/* cli_util.c: the scenario formats, by name (--from, --to) or by a file's extension. */
enum aw_fmt { AW_FMT_NONE, AW_FMT_AWS, AW_FMT_AWPB, AW_FMT_FUZZ };
enum aw_fmt aw_fmt_parse(const char *s);
enum aw_fmt aw_fmt_of(const char *path);
const char *aw_fmt_name(enum aw_fmt fmt);

/*
 * cli_util.c: read a scenario in fmt (AW_FMT_NONE: by the extension);
 * a fuzz input is decoded for target, its variant in *fuzz_variant when
 * not NULL.  0, or -1 with one line in err.
 */
int aw_load_input(const char *path, enum aw_fmt fmt, struct aw_scenario *sc, char *err, size_t errlen,
		  enum aw_fuzz_target target, const char **fuzz_variant);

/* cli_util.c: a .awpb's header (config, names, expectations) into sc; its events stay in the file. */
int aw_load_header(const char *path, struct aw_scenario *sc, char *err, size_t errlen);

/*
 * cli_util.c, for minimize and kdiff: read a scenario in any input format
 * (from = aws, awpb or fuzz, NULL = by the extension); a file with no
 * known extension is a fuzz input (crash files from libFuzzer and AFL++
 * have none), decoded for target, its variant in *fuzz_variant.
 */
int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target);

/* cli_util.c: write sc to f in fmt (a fuzz input for variant): 0 or -1. */
int aw_write_fmt(FILE *f, enum aw_fmt fmt, const struct aw_scenario *sc, const char *variant);

#endif /* AW_CLI_H */
