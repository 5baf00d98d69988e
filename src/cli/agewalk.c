// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk: the command-line front end.  aw_commands[] names every command,
 * its handler, its one-line usage and its option table; main() dispatches
 * on the name, and `agewalk help`, no command and an unknown command print
 * from the table (help_cmd.c).  `agewalk --version` names the version and
 * the model's default kernel profile.
 *
 * Every --help prints to stdout and exits 0.  A command's --help is
 * generated from its option table (parse_options.h); the man page is the
 * --help texts (tools/agewalk-man) and the bash completion is the hidden
 * `agewalk --dump-options` (tools/agewalk-completion), both at build time,
 * so an option in a table is parsed, documented and completed alike.
 *
 * Exit status: 0 fine, 1 an expectation failed or a finding, 2 bad usage or
 * bad input: one line on stderr (the message says file:line:col for input),
 * 3 an output (a file, or standard output) could not be written (output.h),
 * 4 minimize stopped by --max-time before its run budget was spent.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"

const struct aw_cmd aw_commands[] = {
	{ "run",	aw_cmd_run,	 "FILE.aws|FILE.awpb [options]   (agewalk run --help)", &aw_run_cmd },
	{ "convert",	aw_cmd_convert,	 "IN OUT [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]", &aw_convert_cmd },
	{ "replay",	aw_cmd_replay,	 "FILE.dat [options]   (agewalk replay --help)", &aw_replay_cmd },
	{ "minimize",	aw_cmd_minimize, "CRASH [-o OUT.aws] [--max-time S] [--variants V] [--bug NAME] [--kernel K]",
	  &aw_minimize_cmd },
	{ "kdiff",	aw_cmd_kdiff,	 "FILE.aws|FILE.awpb [--tree NAME]...   (model against kernel text)", &aw_kdiff_cmd },
	{ "compare",	aw_cmd_compare,	 "MODEL.json KERNEL.json [--variant NAME] [--tolerance KEY=REL%[+ABS[/walk]]]...",
	  &aw_compare_cmd },
	{ "report",	aw_cmd_report,	 "RUN.json -o REPORT.html   (an HTML page of a --json report)", &aw_report_cmd },
	{ "help",	aw_cmd_help,	 "[COMMAND]   (or agewalk COMMAND --help)", NULL },
};
const size_t aw_nr_commands = sizeof(aw_commands) / sizeof(aw_commands[0]);

int main(int argc, char **argv)
{
	const struct aw_cmd *c;

	if (argc < 2) {
		aw_usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return aw_cmd_help(2, argv);
	if (!strcmp(argv[1], "--version"))
		return aw_version();
	if (!strcmp(argv[1], "--dump-options"))		/* hidden: the completion's source */
		return aw_dump_options();
	if (argv[1][0] == '-') {
		fprintf(stderr, "agewalk: unknown option '%s'; see agewalk --help\n", argv[1]);
		return 2;
	}
	/* every command's stdout is checked at exit, as coreutils' close_stdout() */
	atexit(aw_close_stdout);
	c = aw_cmd_find(argv[1]);
	return c ? c->fn(argc, argv) : aw_unknown_command(argv[1]);
}
