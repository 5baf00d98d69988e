// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program's own texts: `agewalk help [COMMAND]` and `agewalk --help`
 * (agewalk.c's command table, one line each), `agewalk --version`, and
 * the hidden `agewalk --dump-options` (every command's option table, one
 * option a line, for tools/agewalk-completion).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kbind.h"
#include "ktext_kh_api.h"
#include "ktext_variants.h"
#include "version.h"

void aw_usage(FILE *out)
{
	for (size_t i = 0; i < aw_nr_commands; i++)
		fprintf(out, "%sagewalk %s %s\n", i ? "       " : "usage: ", aw_commands[i].name, aw_commands[i].usage);
	fputs("       agewalk --version\n", out);
}

/* run's --help lists the commands other than run and help, as it always has. */
void aw_other_commands(FILE *out)
{
	for (size_t i = 0; i < aw_nr_commands; i++)
		if (aw_commands[i].fn != aw_cmd_run && aw_commands[i].fn != aw_cmd_help)
			fprintf(out, "       agewalk %s %s\n", aw_commands[i].name, aw_commands[i].usage);
}

int aw_unknown_command(const char *name)
{
	fprintf(stderr, "agewalk: '%s' is not a command; commands:", name);
	for (size_t i = 0; i < aw_nr_commands; i++)
		fprintf(stderr, " %s", aw_commands[i].name);
	fputc('\n', stderr);
	return 2;
}

/*
 * The version, and which kernel's MGLRU rules a scenario gets when neither
 * its `kernel` line nor --kernel names one: the default of the scenario
 * configuration itself, so this line cannot disagree with what runs.
 */
int aw_version(void)
{
	struct aw_config cfg;
	const char *sep = "";
	char releases[128];

	aw_config_default(&cfg);
	printf("agewalk %s\n", AW_VERSION);
	printf("kernel profile: %s (default; --kernel %s)\n", aw_kernel_profile_name(cfg.kernel),
	       aw_kernel_release_list(releases, sizeof(releases), false, "|", "|"));
	printf("kernel-text variants:");
	for (const struct aw_ktext_ops *const *v = aw_ktext_variants; *v; v++, sep = ",") {
		struct aw_variant text;

		/* the profile it runs and the model variant it must agree with (src/kbind) */
		if (aw_kbind_find((*v)->name, &text))
			printf("%s %s (%s, agrees with %s)", sep, text.name,
			       aw_kernel_profile_name((enum aw_kernel_profile)(text.kernel - 1)), text.pair);
	}
	printf("%s\n", *aw_ktext_variants ? "" : " none (configure with -DAGEWALK_KERNEL_TREES)");
	printf("khugepaged-text variants:");
	sep = "";
	for (const struct aw_kh_ops *const *v = aw_kh_variants; *v; v++, sep = ",") {
		struct aw_variant text;
		char name[32];

		aw_kbind_kh_name(*v, name, sizeof(name));
		if (aw_kbind_kh_find(name, &text))
			printf("%s %s (%s, agrees with %s)", sep, name,
			       aw_kernel_profile_name((enum aw_kernel_profile)(text.kernel - 1)), text.pair);
	}
	printf("%s\n", *aw_kh_variants ? "" : " none (configure with -DAGEWALK_KERNEL_TREES)");
	return 0;
}

int aw_dump_options(void)
{
	for (size_t i = 0; i < aw_nr_commands; i++)
		if (aw_commands[i].opts)
			aw_po_dump(stdout, aw_commands[i].opts);
	return 0;
}

const struct aw_cmd *aw_cmd_find(const char *name)
{
	for (size_t i = 0; i < aw_nr_commands; i++)
		if (!strcmp(aw_commands[i].name, name))
			return &aw_commands[i];
	return NULL;
}

/* agewalk help [COMMAND]: the program's usage, or COMMAND --help. */
int aw_cmd_help(int argc, char **argv)
{
	const struct aw_cmd *c;

	if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
		aw_usage(stdout);
		return 0;
	}
	c = aw_cmd_find(argv[2]);
	if (!c)
		return aw_unknown_command(argv[2]);
	if (!c->opts)
		aw_usage(stdout);
	else
		aw_po_usage(stdout, c->opts);
	return 0;
}
