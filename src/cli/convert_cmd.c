// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk convert IN OUT: a scenario from one format into another (.aws
 * text, .awpb stream, fuzz input), or --check: read and validate only.
 * The output is put in place by output.h: replaced only once complete.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "fuzzin.h"
#include "output.h"

struct convert {
	const char *in, *out;
	enum aw_fmt from, to;
	const char *variant;
	bool check;
};

static int set_fmt(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen)
{
	*(enum aw_fmt *)dst = aw_fmt_parse(arg);	/* an unknown name is as none: the extension decides */
	return 0;
}

static int files(void *ctx, const char *arg, char *err, size_t errlen)
{
	struct convert *c = ctx;

	if (!c->in) {
		c->in = arg;
	} else if (!c->out && !c->check) {
		c->out = arg;
	} else {
		snprintf(err, errlen, "%s", c->check ? "--check takes one input and no output" :
			 "one input and one output only");
		return AW_PO_USAGE;
	}
	return 0;
}

static const struct aw_po_option options[] = {
	{ "from", 0, AW_PO_CALL, "aws|awpb|fuzz", .off = offsetof(struct convert, from), .cb = set_fmt },
	{ "to", 0, AW_PO_CALL, "aws|awpb|fuzz", .off = offsetof(struct convert, to), .cb = set_fmt },
	{ "fuzz-variant", 0, AW_PO_STRING, "pud|emptymap|rfc|khugepaged", .off = offsetof(struct convert, variant) },
	{ "check", 0, AW_PO_FLAG, .off = offsetof(struct convert, check), .val = 1 },
	{ .kind = AW_PO_END },
};

const struct aw_po_cmd aw_convert_cmd = {
	.name = "convert", .args = "IN OUT", .opts = options, .positional = files,
	.notes =
	"       agewalk convert --check IN [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]\n"
	"  formats follow the file extensions (.aws .awpb .fuzz); '-' is stdin/stdout and\n"
	"  needs --from/--to; writing .fuzz projects the scenario into the fuzz format;\n"
	"  --fuzz-variant khugepaged reads and writes agewalk_fuzz_khugepaged's inputs;\n"
	"  --check reads and validates IN and writes nothing (with --to, it also encodes\n"
	"  the scenario in that format, to memory): exit 0 valid, 2 not\n"
	"  OUT is replaced only once it is complete on disk; a symbolic link's target is\n"
	"  written; a device or FIFO is written in place; exit 3 if it cannot be written\n",
};

struct save {
	enum aw_fmt fmt;
	const struct aw_scenario *sc;
	const char *variant;
};

static int write_fmt(FILE *f, void *arg)
{
	const struct save *s = arg;

	return aw_write_fmt(f, s->fmt, s->sc, s->variant);
}

/* The exit status: 0, 2 (no format) or AW_EXIT_OUTPUT, with one line on stderr. */
static int save_output(const char *path, enum aw_fmt fmt, const struct aw_scenario *sc,
		       const char *variant)
{
	struct save s = { fmt == AW_FMT_NONE ? aw_fmt_of(path) : fmt, sc, variant };
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

/* --check --to FMT: the encoding goes nowhere, only its success counts */
static ssize_t discard(void *c, const char *buf, size_t len)
{
	(void)c, (void)buf;
	return (ssize_t)len;
}

static int check_input(const char *in, enum aw_fmt to, const struct aw_scenario *sc, const char *variant)
{
	cookie_io_functions_t io = { .write = discard };
	FILE *f;
	int ret = 0;

	if (to != AW_FMT_NONE) {
		f = fopencookie(NULL, "w", io);
		ret = !f || aw_write_fmt(f, to, sc, variant) ? -1 : 0;
		if (f && fclose(f))
			ret = -1;
	}
	if (ret) {
		fprintf(stderr, "agewalk: %s: cannot be encoded as %s\n", in, aw_fmt_name(to));
		return 2;
	}
	printf("%s: %zu events, valid\n", in, sc->nr_events);
	return 0;
}

int aw_cmd_convert(int argc, char **argv)
{
	struct convert c = { .variant = "pud" };
	struct aw_scenario sc;
	char err[512];
	int status = aw_po_parse(&aw_convert_cmd, &c, argc, argv);

	if (status)
		return status == AW_PO_HELP ? 0 : 2;
	if (c.check && c.out)
		return aw_usage_error("convert", "--check takes one input and no output");
	if (!c.in || (!c.out && !c.check))
		return aw_usage_error("convert", "needs an input and an output");
	if ((!strcmp(c.in, "-") && c.from == AW_FMT_NONE) || (c.out && !strcmp(c.out, "-") && c.to == AW_FMT_NONE))
		return aw_usage_error("convert", "'-' needs --from (input) or --to (output)");
	aw_scenario_init(&sc);
	if (aw_load_input(c.in, c.from, &sc, err, sizeof(err), aw_fuzz_target_of(c.variant), NULL)) {
		fprintf(stderr, "%s\n", err);
		status = 2;
	} else {
		status = c.check ? check_input(c.in, c.to, &sc, c.variant) : save_output(c.out, c.to, &sc, c.variant);
	}
	aw_scenario_free(&sc);
	return status;
}
