// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk: the command-line front end.  commands[] at the bottom names
 * every command, its handler and its one-line usage; `agewalk help`, no
 * command and an unknown command print from it.  `agewalk --version` names
 * the version and the model's default kernel profile.
 *
 * Every --help prints to stdout and exits 0; the man page and the bash
 * completion are generated from these texts at build time (tools/agewalk-man,
 * tools/agewalk-completion), so keep each option in its command's usage.
 *
 * Exit status: 0 fine, 1 an expectation failed or a finding, 2 bad usage or
 * bad input: one line on stderr (the message says file:line:col for input),
 * 3 an output (a file, or standard output) could not be written (output.h),
 * 4 minimize stopped by --max-time before its run budget was spent.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "awpb.h"
#include "commands.h"
#include "fuzzin.h"
#include "kbind.h"
#include "ktext_variants.h"
#include "lockstep.h"
#include "options.h"
#include "output.h"
#include "pipeline.h"
#include "version.h"

enum aw_fmt { AW_FMT_NONE, AW_FMT_AWS, AW_FMT_AWPB, AW_FMT_FUZZ };

static enum aw_fmt fmt_parse(const char *s)
{
	if (!strcmp(s, "aws"))
		return AW_FMT_AWS;
	if (!strcmp(s, "awpb"))
		return AW_FMT_AWPB;
	if (!strcmp(s, "fuzz"))
		return AW_FMT_FUZZ;
	return AW_FMT_NONE;
}

/* A whole file (or stdin) in memory, at most limit bytes (commands.h). */
uint8_t *aw_slurp(const char *path, size_t limit, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = f ? malloc(cap) : NULL;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *b = cap >= limit ? NULL : realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	if (f && f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/* Fuzz inputs decode from any bytes; a crash file becomes a scenario. */
static int load_fuzz(const char *path, struct aw_scenario *sc, char *err, size_t errlen,
		     const char **variant, enum aw_fuzz_target target)
{
	size_t len;
	uint8_t *buf = aw_slurp(path, 1U << 20, &len);
	int ret;

	if (!buf) {
		snprintf(err, errlen, "%s: cannot read (or larger than 1 MiB)", path);
		return -1;
	}
	if (variant)
		*variant = aw_fuzz_variant(buf, len);
	ret = aw_fuzz_decode_target(buf, len, sc, target);
	free(buf);
	if (ret) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	sc->path = strdup(path);
	return 0;
}

static enum aw_fmt fmt_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? fmt_parse(dot + 1) : AW_FMT_NONE;
}

/* Read a scenario in any format; errors are one line in err. */
static int load_input(const char *path, enum aw_fmt fmt, struct aw_scenario *sc, char *err, size_t errlen,
		      enum aw_fuzz_target target, const char **fuzz_variant)
{
	if (fmt == AW_FMT_NONE)
		fmt = fmt_of(path);
	if (fmt == AW_FMT_AWPB)
		return aw_awpb_read_file(path, sc, err, errlen);
	if (fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, fuzz_variant, target);
	if (fmt == AW_FMT_AWS)
		return aw_aws_parse_file(path, sc, err, errlen);
	snprintf(err, errlen, "%s: unknown input format (use .aws, .awpb or .fuzz, or --from)", path);
	return -1;
}

/* A .awpb's header (config, names, expectations) into sc; its events stay in the file. */
static int load_header(const char *path, struct aw_scenario *sc, char *err, size_t errlen)
{
	struct aw_awpb_reader r;
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -1;
	}
	sc->path = strdup(path);
	ret = aw_awpb_open(&r, f, path, sc, err, errlen);
	aw_awpb_close(&r);
	fclose(f);
	return ret;
}

/* Write a scenario in one of the three formats (output.h puts it in place). */
static int write_fuzz(FILE *f, const struct aw_scenario *sc, const char *variant)
{
	size_t cap = AW_FUZZ_HEADER + AW_FUZZ_MAX_EVENTS * AW_FUZZ_RECORD;
	uint8_t *buf = malloc(cap);
	size_t n;
	int ret;

	if (!buf)
		return -1;
	n = aw_fuzz_encode(sc, variant, buf, cap);
	ret = fwrite(buf, 1, n, f) == n ? 0 : -1;
	free(buf);
	return ret;
}

struct save {
	enum aw_fmt fmt;
	const struct aw_scenario *sc;
	const char *variant;
};

static int write_fmt(FILE *f, void *arg)
{
	const struct save *s = arg;

	if (s->fmt == AW_FMT_AWS)
		return aw_aws_write(f, s->sc);
	if (s->fmt == AW_FMT_AWPB)
		return aw_awpb_write(f, s->sc);
	return write_fuzz(f, s->sc, s->variant);
}

/* The exit status: 0, 2 (no format) or AW_EXIT_OUTPUT, with one line on stderr. */
static int save_output(const char *path, enum aw_fmt fmt, const struct aw_scenario *sc,
		       const char *variant)
{
	struct save s = { fmt == AW_FMT_NONE ? fmt_of(path) : fmt, sc, variant };
	char err[512];

	if (s.fmt == AW_FMT_NONE) {
		fprintf(stderr, "agewalk: %s: unknown output format (use .aws, .awpb or .fuzz, or --to)\n", path);
		return 2;
	}
	if (aw_output_write(path, write_fmt, &s, err, sizeof(err))) {
		fprintf(stderr, "agewalk: %s\n", err);
		return AW_EXIT_OUTPUT;
	}
	return 0;
}

/* For minimize (commands.h). */
int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target)
{
	enum aw_fmt fmt = from ? fmt_parse(from) : fmt_of(path);

	aw_scenario_init(sc);
	if (fmt == AW_FMT_NONE || fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, fuzz_variant, target);
	return load_input(path, fmt, sc, err, errlen, target, NULL);
}

static const char convert_usage[] =
	"usage: agewalk convert IN OUT [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]\n"
	"                      [--fuzz-variant pud|emptymap|rfc|khugepaged]\n"
	"       agewalk convert --check IN [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]\n"
	"  formats follow the file extensions (.aws .awpb .fuzz); '-' is stdin/stdout and\n"
	"  needs --from/--to; writing .fuzz projects the scenario into the fuzz format;\n"
	"  --fuzz-variant khugepaged reads and writes agewalk_fuzz_khugepaged's inputs;\n"
	"  --check reads and validates IN and writes nothing (with --to, it also encodes\n"
	"  the scenario in that format, to memory): exit 0 valid, 2 not\n"
	"  OUT is replaced only once it is complete on disk; a symbolic link's target is\n"
	"  written; a device or FIFO is written in place; exit 3 if it cannot be written\n";

/* --check --to FMT: the encoding goes nowhere, only its success counts */
static ssize_t discard(void *c, const char *buf, size_t len)
{
	(void)c, (void)buf;
	return (ssize_t)len;
}

static int check_input(const char *in, enum aw_fmt to, const struct aw_scenario *sc, const char *variant)
{
	cookie_io_functions_t io = { .write = discard };
	struct save s = { to, sc, variant };
	FILE *f;
	int ret = 0;

	if (to != AW_FMT_NONE) {
		f = fopencookie(NULL, "w", io);
		ret = !f || write_fmt(f, &s) ? -1 : 0;
		if (f && fclose(f))
			ret = -1;
	}
	if (ret) {
		fprintf(stderr, "agewalk: %s: cannot be encoded as %s\n", in,
			to == AW_FMT_AWS ? "aws" : to == AW_FMT_AWPB ? "awpb" : "fuzz");
		return 2;
	}
	printf("%s: %zu events, valid\n", in, sc->nr_events);
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	enum aw_fmt from = AW_FMT_NONE, to = AW_FMT_NONE;
	const char *variant = "pud";
	struct aw_scenario sc;
	char err[512];
	bool check = false;
	int status;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help")) {
			fputs(convert_usage, stdout);
			return 0;
		} else if (!strcmp(a, "--check")) {
			check = true;
		} else if (!strcmp(a, "--from") && i + 1 < argc) {
			from = fmt_parse(argv[++i]);
		} else if (!strcmp(a, "--to") && i + 1 < argc) {
			to = fmt_parse(argv[++i]);
		} else if (!strcmp(a, "--fuzz-variant") && i + 1 < argc) {
			variant = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return aw_option_error("convert", convert_usage, a);
		} else if (!in) {
			in = a;
		} else if (!out && !check) {
			out = a;
		} else {
			return aw_usage_error("convert", check ? "--check takes one input and no output" :
					      "one input and one output only");
		}
	}
	if (check && out)
		return aw_usage_error("convert", "--check takes one input and no output");
	if (!in || (!out && !check))
		return aw_usage_error("convert", "needs an input and an output");
	if ((!strcmp(in, "-") && from == AW_FMT_NONE) || (out && !strcmp(out, "-") && to == AW_FMT_NONE))
		return aw_usage_error("convert", "'-' needs --from (input) or --to (output)");
	aw_scenario_init(&sc);
	if (load_input(in, from, &sc, err, sizeof(err), aw_fuzz_target_of(variant), NULL)) {
		fprintf(stderr, "%s\n", err);
		status = 2;
	} else {
		status = check ? check_input(in, to, &sc, variant) : save_output(out, to, &sc, variant);
	}
	aw_scenario_free(&sc);
	return status;
}

static const char run_options[];
static void run_usage(FILE *out);

/* What run takes of the shared model options: all of them. */
#define AW_RUN_OPTS (AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_THP | AW_OPT_SKIP_EMPTY | AW_OPT_KHUGEPAGED | \
		     AW_OPT_KERNEL)

struct opts {
	const char *file;
	struct aw_model_opts m;
	bool json, check, keep_going, no_oracles, help;
	bool default_variants;		/* no --variants: base, or a fuzz input's own */
	bool stream;			/* a .awpb file: events read as the run goes */
	const char *walk_log, *from, *html;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	char err[512];

	aw_model_opts_init(&o->m);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int r;

		if (!strcmp(a, "--help")) {
			o->help = true;
			return 0;
		} else if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--check")) {
			o->check = true;
		} else if (!strcmp(a, "--keep-going")) {
			o->keep_going = true;
		} else if (!strcmp(a, "--no-oracles")) {
			o->no_oracles = true;
		} else if ((r = aw_model_opts_parse(&o->m, AW_RUN_OPTS, argc, argv, &i, err, sizeof(err)))) {
			if (r < 0) {
				fprintf(stderr, "agewalk run: %s\n", err);
				return -1;
			}
		} else if (!strcmp(a, "--walk-log") && i + 1 < argc) {
			o->walk_log = argv[++i];
		} else if (!strcmp(a, "--html") && i + 1 < argc) {
			o->html = argv[++i];
		} else if (!strcmp(a, "--from") && i + 1 < argc) {
			o->from = argv[++i];
			if (fmt_parse(o->from) == AW_FMT_NONE) {
				fprintf(stderr, "agewalk run: --from %s: not aws, awpb or fuzz\n", o->from);
				return -1;
			}
		} else if (a[0] == '-' && a[1]) {
			aw_option_error("run", run_options, a);
			return -1;
		} else if (!o->file) {
			o->file = a;
		} else {
			aw_usage_error("run", "one input file only");
			return -1;
		}
	}
	if (!o->m.nr_variants) {
		o->m.variants[0] = "base";
		o->m.nr_variants = 1;
		o->default_variants = true;
	}
	if (!o->file) {
		aw_usage_error("run", "no input file");
		return -1;
	}
	return 0;
}

/*
 * A .awpb file run as a stream: its events are decoded as the run goes
 * (pipeline.h), so a stream larger than memory runs in the memory of the
 * model.  sc has the header already (load_header()).  Returns 0; -1 with
 * ls->err set when the model refuses an event; -2 with err set when the
 * file is malformed (the message the whole-file reader gives).
 */
static int stream_awpb(struct aw_lockstep *ls, const struct aw_scenario *sc, const struct aw_lockstep_opts *lo,
		       char *err, size_t errlen)
{
	struct aw_scenario hdr;
	struct aw_awpb_reader r;
	struct aw_pipeline pl;
	struct aw_event ev;
	uint32_t line;
	FILE *f = fopen(sc->path, "rb");
	int got = -1, stepped;

	aw_scenario_init(&hdr);
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", sc->path);
		return -2;
	}
	if (aw_lockstep_begin(ls, sc, lo)) {
		fclose(f);
		return -1;
	}
	if (aw_pipeline_start(&pl, ls, sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1)) {
		snprintf(ls->err, sizeof(ls->err), "out of memory");
		fclose(f);
		return -1;
	}
	if (!aw_awpb_open(&r, f, sc->path, &hdr, err, errlen))
		while ((got = aw_awpb_next(&r, &ev, &line, err, errlen)) > 0)
			aw_pipeline_push(&pl, &ev, line);
	stepped = aw_pipeline_finish(&pl);
	aw_awpb_close(&r);
	fclose(f);
	aw_scenario_free(&hdr);
	return got < 0 ? -2 : stepped;
}

/* Exit status: 0 fine, 1 a finding or a failed expectation, 2 bad input. */
static int run_mode(const struct opts *o, const struct aw_scenario *sc, int thp, FILE *walk_log)
{
	struct aw_lockstep ls;
	struct aw_lockstep_opts lo = {
		.thp = thp, .oracles = !o->no_oracles, .keep_going = o->keep_going,
		.walk_log = walk_log,
	};
	int status = 0;

	char err[512];
	int r;

	aw_model_opts_apply(&o->m, &lo);

	r = o->stream ? stream_awpb(&ls, sc, &lo, err, sizeof(err)) : aw_lockstep_run(&ls, sc, &lo);
	if (r) {
		if (r == -2)
			fprintf(stderr, "%s\n", err);
		else
			fprintf(stderr, "agewalk: %s\n", ls.err);
		aw_lockstep_free(&ls);
		return 2;
	}
	if (o->json)
		aw_report_json(stdout, &ls, NULL);
	else if (!o->check)
		aw_report_table(stdout, &ls);
	if (o->html && (r = aw_report_html_of(&ls, NULL, sc->path ? sc->path : "-", o->html, err, sizeof(err)))) {
		fprintf(stderr, "agewalk: %s\n", err);
		status = r;
	}
	aw_report_findings(o->json ? stderr : stdout, &ls);
	if (ls.nr_findings)
		status = 1;
	if (o->check) {
		int fails = aw_check_expectations(stderr, &ls);

		if (fails)
			status = 1;
		if (!o->json)
			printf("%s thp=%s: %d expectation%s failed, %d finding%s\n", sc->path,
			       aw_thp_mode_name(thp), fails, fails == 1 ? "" : "s", ls.nr_findings,
			       ls.nr_findings == 1 ? "" : "s");
	}
	aw_lockstep_free(&ls);
	return status;
}

static int cmd_run(int argc, char **argv)
{
	struct opts o = { 0 };
	struct aw_scenario sc;
	char err[512];
	const char *fuzz_variant = NULL;
	struct aw_output walk_log = { 0 };
	int status = 0;

	if (parse_opts(argc, argv, &o) || o.help) {
		if (o.help)
			run_usage(stdout);
		aw_model_opts_free(&o.m);
		return o.help ? 0 : 2;
	}
	aw_scenario_init(&sc);
	o.stream = strcmp(o.file, "-") && (o.from ? fmt_parse(o.from) : fmt_of(o.file)) == AW_FMT_AWPB;
	/*
	 * A fuzz input run with khugepaged-* variants reads as that target's
	 * input; without --variants, it runs base beside the variant it
	 * chose, as its fuzz target did.
	 */
	if (o.stream ? load_header(o.file, &sc, err, sizeof(err)) :
	    load_input(o.file, o.from ? fmt_parse(o.from) : AW_FMT_NONE, &sc, err, sizeof(err),
		       aw_fuzz_target_of(o.m.variants[o.m.nr_variants - 1]) == AW_FUZZ_KHUGEPAGED ?
		       AW_FUZZ_KHUGEPAGED : AW_FUZZ_LOCKSTEP, &fuzz_variant)) {
		fprintf(stderr, "%s\n", err);
		aw_model_opts_free(&o.m);
		aw_scenario_free(&sc);
		return 2;
	}
	if (o.default_variants && fuzz_variant) {
		o.m.variants[1] = fuzz_variant;
		o.m.nr_variants = 2;
	}
	if (o.walk_log && aw_output_open(&walk_log, o.walk_log, err, sizeof(err))) {
		fprintf(stderr, "agewalk: %s\n", err);
		status = AW_EXIT_OUTPUT;
	}
	for (int mode = 0; !status && mode < AW_THP_NR_MODES; mode++) {
		bool want = o.m.thp >= 0 ? mode == o.m.thp :
			    o.check ? (sc.cfg.thp_modes >> mode & 1) : mode == (int)sc.cfg.thp;
		int s;

		if (!want)
			continue;
		s = run_mode(&o, &sc, mode, walk_log.f);
		if (s > status)
			status = s;
	}
	/* a finding still keeps its walk log: it is what explains the finding */
	if (walk_log.active && status <= 1 && aw_output_commit(&walk_log, err, sizeof(err))) {
		fprintf(stderr, "agewalk: %s\n", err);
		status = AW_EXIT_OUTPUT;
	}
	aw_output_abort(&walk_log);
	aw_model_opts_free(&o.m);
	aw_scenario_free(&sc);
	return status;
}

static int cmd_help(int argc, char **argv);

/*
 * Every command: its name, its handler and its arguments on one line (a
 * command's own --help has the rest).  main() dispatches on the name; the
 * program's usage is this table.
 */
static const struct aw_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
} commands[] = {
	{ "run",	cmd_run,	 "FILE.aws|FILE.awpb [options]   (agewalk run --help)" },
	{ "convert",	cmd_convert,	 "IN OUT [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]" },
	{ "replay",	aw_cmd_replay,	 "FILE.dat [options]   (agewalk replay --help)" },
	{ "minimize",	aw_cmd_minimize, "CRASH [-o OUT.aws] [--max-time S] [--variants V] [--bug NAME] [--kernel K]" },
	{ "kdiff",	aw_cmd_kdiff,	 "FILE.aws|FILE.awpb [--tree NAME]...   (model against kernel text)" },
	{ "compare",	aw_cmd_compare,	 "MODEL.json KERNEL.json [--variant NAME] [--tolerance KEY=REL%[+ABS[/walk]]]..." },
	{ "report",	aw_cmd_report,	 "RUN.json -o REPORT.html   (an HTML page of a --json report)" },
	{ "help",	cmd_help,	 "[COMMAND]   (or agewalk COMMAND --help)" },
};
#define AW_NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct aw_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < AW_NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *out)
{
	for (size_t i = 0; i < AW_NR_COMMANDS; i++)
		fprintf(out, "%sagewalk %s %s\n", i ? "       " : "usage: ", commands[i].name, commands[i].usage);
	fputs("       agewalk --version\n", out);
}

/* For every command (commands.h): one line, and where the options are. */
int aw_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "agewalk %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see agewalk %s --help\n", cmd);
	return 2;
}

/* Does usage name opt as an option ("[--opt", " --opt ", "|--opt]" ...)? */
static bool names_option(const char *usage, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = strstr(usage, opt); n && p; p = strstr(p + 1, opt))
		if ((p == usage || strchr("[ |\n", p[-1])) && strchr(" ]|\n=", p[n]))
			return true;
	return false;
}

int aw_option_error(const char *cmd, const char *usage, const char *opt)
{
	if (names_option(usage, opt))
		return aw_usage_error(cmd, "%s needs a value", opt);
	return aw_usage_error(cmd, "unknown option '%s'", opt);
}

/*
 * The version, and which kernel's MGLRU rules a scenario gets when neither
 * its `kernel` line nor --kernel names one: the default of the scenario
 * configuration itself, so this line cannot disagree with what runs.
 */
static int version(void)
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
	return 0;
}

/*
 * run's usage has always been the program's: run's options in full, the
 * lines of the other commands that read input, then notes on --check and
 * the variants.  A bad command line gets one line instead
 * (aw_usage_error()); the usage is for --help.
 */
static const char run_options[] =
	"usage: agewalk run FILE.aws|FILE.awpb [--variants base,pud,emptymap,rfc]\n"
	"                 [--thp always|never|madvise] [--bug NAME]... [--fix pud-young]\n"
	"                 [--skip-empty N] [--empty-contract place=..,empty=..,clock=..,clear=..]\n"
	"                 [--khugepaged-rev seed|v8] [--khugepaged base|patched]\n"
	"                 [--khugepaged-prctl-enter] [--kernel 6.1|6.12|mainline]\n"
	"                 [--json] [--check] [--keep-going] [--no-oracles] [--walk-log FILE]\n"
	"                 [--from aws|awpb|fuzz] [--html REPORT.html]\n";

static void run_usage(FILE *out)
{
	fputs(run_options, out);
	for (size_t i = 0; i < AW_NR_COMMANDS; i++)
		if (commands[i].fn != cmd_run && commands[i].fn != cmd_help)
			fprintf(out, "       agewalk %s %s\n", commands[i].name, commands[i].usage);
	fputs("  --check   verify the file's expect lines (every THP mode it supports\n"
	      "            unless --thp picks one); exit 1 if one fails\n"
	      "  --fix     a fix tried in the model for a finding (docs/findings/):\n"
	      "            pud-young walks a PUD the filter lacks if its accessed bit is set\n"
	      "  --empty-contract  the RFC empty-mm skip's open choices (default\n"
	      "            place=get-next-mm,empty=associated,clock=mm,clear=major+migration;\n"
	      "            place=after, empty=no-leaves, clock=pass, clear=major[+migration]\n"
	      "            [+huge][+minor][+collapse])\n"
	      "  --from    the input's format when its name does not say (a fuzzer's\n"
	      "            crash file: --from fuzz runs base beside the variant it chose)\n"
	      "  variants: base, pud, emptymap, rfc (MGLRU; patched khugepaged unless\n"
	      "            --khugepaged base), khugepaged-base, khugepaged-patched;\n"
	      "            kernel-text variants built from trees (k6.12 ...), each\n"
	      "            beside the model variant it agrees with, under its profile\n", out);
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "agewalk: '%s' is not a command; commands:", name);
	for (size_t i = 0; i < AW_NR_COMMANDS; i++)
		fprintf(stderr, " %s", commands[i].name);
	fputc('\n', stderr);
	return 2;
}

/* agewalk help [COMMAND]: the program's usage, or COMMAND --help. */
static int cmd_help(int argc, char **argv)
{
	const struct aw_cmd *c;
	char *args[] = { argv[0], NULL, (char *)"--help", NULL };

	if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
		usage(stdout);
		return 0;
	}
	c = cmd_find(argv[2]);
	if (!c)
		return unknown_command(argv[2]);
	if (c->fn == cmd_help) {
		usage(stdout);
		return 0;
	}
	args[1] = argv[2];
	return c->fn(3, args);
}

int main(int argc, char **argv)
{
	const struct aw_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(2, argv);
	if (!strcmp(argv[1], "--version"))
		return version();
	if (argv[1][0] == '-') {
		fprintf(stderr, "agewalk: unknown option '%s'; see agewalk --help\n", argv[1]);
		return 2;
	}
	/* every command's stdout is checked at exit, as coreutils' close_stdout() */
	atexit(aw_close_stdout);
	c = cmd_find(argv[1]);
	return c ? c->fn(argc, argv) : unknown_command(argv[1]);
}
