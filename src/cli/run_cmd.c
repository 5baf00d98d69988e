// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk run FILE: a scenario (.aws, .awpb, a fuzz input) on the model's
 * variants in lockstep, every THP mode asked for, with the oracles after
 * every event; the report as a table, JSON or an HTML page, and with
 * --check the scenario's own expectations.  A .awpb file is a stream:
 * its events are decoded as the run goes (replay/pipeline.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "awpb.h"
#include "cli.h"
#include "lockstep.h"
#include "options.h"
#include "output.h"
#include "pipeline.h"
#include "report_html.h"

/* What run takes of the shared model options: all of them. */
#define AW_RUN_OPTS (AW_OPT_VARIANTS | AW_OPT_BUG | AW_OPT_THP | AW_OPT_SKIP_EMPTY | AW_OPT_KHUGEPAGED | \
		     AW_OPT_KERNEL)

struct opts {
	const char *file;
	struct aw_model_opts m;
	bool json, check, keep_going, no_oracles;
	bool default_variants;		/* no --variants: base, or a fuzz input's own */
	bool stream;			/* a .awpb file: events read as the run goes */
	const char *walk_log, *from, *html;
};

static int set_from(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	if (aw_fmt_parse(arg) == AW_FMT_NONE) {
		snprintf(err, errlen, "--from %s: not aws, awpb or fuzz", arg);
		return AW_PO_FAIL;
	}
	*(const char **)dst = arg;
	return 0;
}

#define RUN_FLAG(name_, member, help_) \
	{ name_, 0, AW_PO_FLAG, .off = offsetof(struct opts, member), .val = 1, .help = help_ }

static const struct aw_po_option options[] = {
	AW_MODEL_OPTIONS(struct opts, m, AW_RUN_OPTS),
	RUN_FLAG("json", json, NULL),
	RUN_FLAG("check", check, "verify the file's expect lines (every THP mode it supports\n"
				 "unless --thp picks one); exit 1 if one fails"),
	RUN_FLAG("keep-going", keep_going, NULL),
	RUN_FLAG("no-oracles", no_oracles, NULL),
	{ "walk-log", 0, AW_PO_STRING, "FILE", .off = offsetof(struct opts, walk_log) },
	{ "from", 0, AW_PO_CALL, "aws|awpb|fuzz", .off = offsetof(struct opts, from), .cb = set_from,
	  .help = "the input's format when its name does not say (a fuzzer's\n"
		  "crash file: --from fuzz runs base beside the variant it chose)" },
	{ "html", 0, AW_PO_STRING, "REPORT.html", .off = offsetof(struct opts, html) },
	{ .kind = AW_PO_END },
};

/*
 * run's usage has always been the program's: run's options in full, the
 * lines of the other commands that read input, then notes on the options
 * and the variants.  A bad command line gets one line instead
 * (aw_usage_error()); the usage is for --help.
 */
const struct aw_po_cmd aw_run_cmd = {
	.name = "run", .args = "FILE.aws|FILE.awpb", .opts = options, .one = "input file", .one_off = offsetof(struct opts, file),
	.more_usage = aw_other_commands,
	.notes =
	"  variants: base, pud, emptymap, rfc (MGLRU; patched khugepaged unless\n"
	"            --khugepaged base), khugepaged-base, khugepaged-patched;\n"
	"            kernel-text variants built from trees (k6.12 ...), each\n"
	"            beside the model variant it agrees with, under its profile\n",
};

/*
 * A .awpb file run as a stream: its events are decoded as the run goes
 * (pipeline.h), so a stream larger than memory runs in the memory of the
 * model.  sc has the header already (aw_load_header()).  Returns 0; -1 with
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
	int status = 0, idle;

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
	/* a kernel-text pair whose text ran nothing checked nothing: an error under --check */
	idle = aw_report_text_idle(stderr, &ls, o->check);
	if (idle && o->check)
		status = 1;
	if (o->check) {
		int fails = aw_check_expectations(stderr, &ls);

		if (fails)
			status = 1;
		if (!o->json)
			printf("%s thp=%s: %d expectation%s failed, %d finding%s%s\n", sc->path,
			       aw_thp_mode_name(thp), fails, fails == 1 ? "" : "s", ls.nr_findings,
			       ls.nr_findings == 1 ? "" : "s", idle ? ", kernel text idle" : "");
	}
	aw_lockstep_free(&ls);
	return status;
}

int aw_cmd_run(int argc, char **argv)
{
	struct opts o = { 0 };
	struct aw_scenario sc;
	char err[512];
	const char *fuzz_variant = NULL;
	struct aw_output walk_log = { 0 };
	int status = 0;

	aw_model_opts_init(&o.m);
	status = aw_po_parse(&aw_run_cmd, &o, argc, argv);
	if (!status && !o.file) {
		aw_usage_error("run", "no input file");
		status = AW_PO_ERROR;
	}
	if (status) {
		aw_model_opts_free(&o.m);
		return status == AW_PO_HELP ? 0 : 2;
	}
	if (!o.m.nr_variants) {
		o.m.variants[0] = "base";
		o.m.nr_variants = 1;
		o.default_variants = true;
	}
	aw_scenario_init(&sc);
	o.stream = strcmp(o.file, "-") && (o.from ? aw_fmt_parse(o.from) : aw_fmt_of(o.file)) == AW_FMT_AWPB;
	/*
	 * A fuzz input run with khugepaged-* variants reads as that target's
	 * input; without --variants, it runs base beside the variant it
	 * chose, as its fuzz target did.
	 */
	if (o.stream ? aw_load_header(o.file, &sc, err, sizeof(err)) :
	    aw_load_input(o.file, o.from ? aw_fmt_parse(o.from) : AW_FMT_NONE, &sc, err, sizeof(err),
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

