// SPDX-License-Identifier: GPL-2.0-only
/*
 * agewalk: the command-line front end.
 *
 *   agewalk run FILE.aws|FILE.awpb [--variants base,pud] [--thp always|never|madvise]
 *                        [--json] [--check] [--walk-log FILE]
 *   agewalk convert IN OUT [--from aws|awpb] [--to aws|awpb]
 *
 * Exit status: 0 fine, 1 an expectation failed (or, later, a finding),
 * 2 bad usage or bad input (the message says file:line:col).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "awpb.h"
#include "fuzzin.h"
#include "lockstep.h"

int aw_cmd_replay(int argc, char **argv);	/* replay_cmd.c */
int aw_cmd_minimize(int argc, char **argv);	/* minimize.c */

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

/* A whole file (or stdin) in memory, at most limit bytes. */
static uint8_t *slurp(const char *path, size_t limit, size_t *len)
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
	uint8_t *buf = slurp(path, 1U << 20, &len);
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
		      enum aw_fuzz_target target)
{
	if (fmt == AW_FMT_NONE)
		fmt = fmt_of(path);
	if (fmt == AW_FMT_AWPB)
		return aw_awpb_read_file(path, sc, err, errlen);
	if (fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, NULL, target);
	if (fmt == AW_FMT_AWS)
		return aw_aws_parse_file(path, sc, err, errlen);
	snprintf(err, errlen, "%s: unknown input format (use .aws, .awpb or .fuzz, or --from)", path);
	return -1;
}

/*
 * Write a scenario; a file is written under a temporary name and renamed,
 * so an interrupted run never leaves half an output behind.
 */
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

static int write_fmt(FILE *f, enum aw_fmt fmt, const struct aw_scenario *sc, const char *variant)
{
	if (fmt == AW_FMT_AWS)
		return aw_aws_write(f, sc);
	if (fmt == AW_FMT_AWPB)
		return aw_awpb_write(f, sc);
	return write_fuzz(f, sc, variant);
}

static int save_output(const char *path, enum aw_fmt fmt, const struct aw_scenario *sc,
		       const char *variant)
{
	char tmp[4096];
	FILE *f;
	int ret;

	if (fmt == AW_FMT_NONE)
		fmt = fmt_of(path);
	if (fmt == AW_FMT_NONE) {
		fprintf(stderr, "agewalk: %s: unknown output format (use .aws, .awpb or .fuzz, or --to)\n", path);
		return -1;
	}
	if (!strcmp(path, "-"))
		return write_fmt(stdout, fmt, sc, variant);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		fprintf(stderr, "agewalk: cannot write %s\n", tmp);
		return -1;
	}
	ret = write_fmt(f, fmt, sc, variant);
	if (fflush(f) || fsync(fileno(f)))
		ret = -1;
	if (fclose(f))
		ret = -1;
	if (ret || rename(tmp, path)) {
		fprintf(stderr, "agewalk: writing %s failed\n", path);
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * For minimize: any input format; a file with no known extension is taken
 * as a fuzz input (crash files from libFuzzer and AFL++ have none).
 */
int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target);
int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target)
{
	enum aw_fmt fmt = from ? fmt_parse(from) : fmt_of(path);

	aw_scenario_init(sc);
	if (fmt == AW_FMT_NONE || fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, fuzz_variant, target);
	return load_input(path, fmt, sc, err, errlen, target);
}

static int cmd_convert(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	enum aw_fmt from = AW_FMT_NONE, to = AW_FMT_NONE;
	const char *variant = "pud";
	struct aw_scenario sc;
	char err[512];
	int status = 0;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc) {
			from = fmt_parse(argv[++i]);
		} else if (!strcmp(argv[i], "--to") && i + 1 < argc) {
			to = fmt_parse(argv[++i]);
		} else if (!strcmp(argv[i], "--fuzz-variant") && i + 1 < argc) {
			variant = argv[++i];
		} else if (!in) {
			in = argv[i];
		} else if (!out) {
			out = argv[i];
		} else {
			in = NULL;
			break;
		}
	}
	if (!in || !out || (!strcmp(in, "-") && from == AW_FMT_NONE) ||
	    (!strcmp(out, "-") && to == AW_FMT_NONE)) {
		fputs("usage: agewalk convert IN OUT [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]\n"
		      "                      [--fuzz-variant pud|emptymap|rfc|khugepaged]\n"
		      "  formats follow the file extensions (.aws .awpb .fuzz); '-' is stdin/stdout and\n"
		      "  needs --from/--to; writing .fuzz projects the scenario into the fuzz format;\n"
		      "  --fuzz-variant khugepaged reads and writes agewalk_fuzz_khugepaged's inputs\n",
		      stderr);
		return 2;
	}
	aw_scenario_init(&sc);
	if (load_input(in, from, &sc, err, sizeof(err), aw_fuzz_target_of(variant))) {
		fprintf(stderr, "%s\n", err);
		status = 2;
	} else if (save_output(out, to, &sc, variant)) {
		status = 2;
	}
	aw_scenario_free(&sc);
	return status;
}

static void usage(FILE *out)
{
	fputs("usage: agewalk run FILE.aws|FILE.awpb [--variants base,pud,emptymap,rfc]\n"
	      "                 [--thp always|never|madvise] [--bug NAME]... [--skip-empty N]\n"
	      "                 [--khugepaged-rev seed|v8] [--khugepaged base|patched]\n"
	      "                 [--khugepaged-prctl-enter]\n"
	      "                 [--json] [--check] [--keep-going] [--no-oracles] [--walk-log FILE]\n"
	      "       agewalk convert IN OUT [--from aws|awpb|fuzz] [--to aws|awpb|fuzz]\n"
	      "       agewalk replay FILE.dat [options]   (agewalk replay --help)\n"
	      "       agewalk minimize CRASH [-o OUT.aws] [--max-time S] [--variants V] [--bug NAME]\n"
	      "  --check   verify the file's expect lines (every THP mode it supports\n"
	      "            unless --thp picks one); exit 1 if one fails\n"
	      "  variants: base, pud, emptymap, rfc (MGLRU; patched khugepaged unless\n"
	      "            --khugepaged base), khugepaged-base, khugepaged-patched\n", out);
}

struct opts {
	const char *file;
	const char *variants[AW_MAX_VARIANTS];
	int nr_variants;
	char *variant_buf;
	int thp;
	bool json, check, keep_going, no_oracles;
	unsigned int bugs;
	int skip_empty;
	const char *walk_log;
	int khugepaged_rev;
	bool khugepaged_base, khugepaged_prctl_enter;
};

static int parse_variants(struct opts *o, const char *arg)
{
	char *save = NULL, *tok;

	free(o->variant_buf);
	o->variant_buf = strdup(arg);
	o->nr_variants = 0;
	for (tok = strtok_r(o->variant_buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_variants == AW_MAX_VARIANTS || !aw_variant_find(tok)) {
			fprintf(stderr, "agewalk: unknown or too many variants in '%s' (known: %s)\n", arg,
				aw_variant_names());
			return -1;
		}
		o->variants[o->nr_variants++] = tok;
	}
	return o->nr_variants ? 0 : -1;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	o->thp = -1;
	o->variants[0] = "base";
	o->nr_variants = 1;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "--check")) {
			o->check = true;
		} else if (!strcmp(a, "--keep-going")) {
			o->keep_going = true;
		} else if (!strcmp(a, "--no-oracles")) {
			o->no_oracles = true;
		} else if (!strcmp(a, "--variants") && i + 1 < argc) {
			if (parse_variants(o, argv[++i]))
				return -1;
		} else if (!strcmp(a, "--bug") && i + 1 < argc) {
			int b = aw_bug_parse(argv[++i]);

			if (b < 0) {
				fprintf(stderr, "agewalk: unknown planted bug '%s'; known:", argv[i]);
				for (int j = 0; j < AW_BUG_NR; j++)
					fprintf(stderr, " %s", aw_bug_name(j));
				fputc('\n', stderr);
				return -1;
			}
			o->bugs |= 1U << b;
		} else if (!strcmp(a, "--skip-empty") && i + 1 < argc) {
			if (parse_int(argv[++i], 1, 64, &o->skip_empty)) {
				fprintf(stderr, "agewalk: --skip-empty takes 1..64, not '%s'\n", argv[i]);
				return -1;
			}
		} else if (!strcmp(a, "--thp") && i + 1 < argc) {
			o->thp = aw_thp_mode_parse(argv[++i]);
			if (o->thp < 0) {
				fprintf(stderr, "agewalk: --thp takes always, never or madvise\n");
				return -1;
			}
		} else if (!strcmp(a, "--khugepaged-rev") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "seed") && strcmp(argv[i], "v8")) {
				fprintf(stderr, "agewalk: --khugepaged-rev takes seed or v8\n");
				return -1;
			}
			o->khugepaged_rev = !strcmp(argv[i], "v8") ? AW_KH_REV_V8 : AW_KH_REV_SEED;
		} else if (!strcmp(a, "--khugepaged-prctl-enter")) {
			o->khugepaged_prctl_enter = true;
		} else if (!strcmp(a, "--khugepaged") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "base") && strcmp(argv[i], "patched")) {
				fprintf(stderr, "agewalk: --khugepaged takes base or patched\n");
				return -1;
			}
			o->khugepaged_base = !strcmp(argv[i], "base");
		} else if (!strcmp(a, "--walk-log") && i + 1 < argc) {
			o->walk_log = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "agewalk: unknown option '%s'\n", a);
			return -1;
		} else if (!o->file) {
			o->file = a;
		} else {
			fprintf(stderr, "agewalk: one input file only\n");
			return -1;
		}
	}
	if (!o->file) {
		fprintf(stderr, "agewalk: no input file\n");
		return -1;
	}
	return 0;
}

/* Exit status: 0 fine, 1 a finding or a failed expectation, 2 bad input. */
static int run_mode(const struct opts *o, const struct aw_scenario *sc, int thp, FILE *walk_log)
{
	struct aw_lockstep ls;
	struct aw_lockstep_opts lo = {
		.thp = thp, .variants = o->variants, .nr_variants = o->nr_variants,
		.bugs = o->bugs, .skip_empty = o->skip_empty, .oracles = !o->no_oracles,
		.keep_going = o->keep_going, .diff_threshold = 0, .walk_log = walk_log,
		.khugepaged_rev = o->khugepaged_rev, .khugepaged_base = o->khugepaged_base,
		.khugepaged_prctl_enter = o->khugepaged_prctl_enter,
	};
	int status = 0;

	if (aw_lockstep_run(&ls, sc, &lo)) {
		fprintf(stderr, "agewalk: %s\n", ls.err);
		aw_lockstep_free(&ls);
		return 2;
	}
	if (o->json)
		aw_report_json(stdout, &ls, NULL);
	else if (!o->check)
		aw_report_table(stdout, &ls);
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
	FILE *walk_log = NULL;
	int status = 0;

	if (parse_opts(argc, argv, &o)) {
		usage(stderr);
		free(o.variant_buf);
		return 2;
	}
	aw_scenario_init(&sc);
	/* a .fuzz file run with khugepaged-* variants reads as that target's input */
	if (load_input(o.file, AW_FMT_NONE, &sc, err, sizeof(err),
		       o.nr_variants && aw_fuzz_target_of(o.variants[o.nr_variants - 1]) == AW_FUZZ_KHUGEPAGED ?
		       AW_FUZZ_KHUGEPAGED : AW_FUZZ_LOCKSTEP)) {
		fprintf(stderr, "%s\n", err);
		free(o.variant_buf);
		aw_scenario_free(&sc);
		return 2;
	}
	if (o.walk_log && !(walk_log = fopen(o.walk_log, "w"))) {
		fprintf(stderr, "agewalk: cannot write %s\n", o.walk_log);
		status = 2;
	}
	for (int mode = 0; !status && mode < AW_THP_NR_MODES; mode++) {
		bool want = o.thp >= 0 ? mode == o.thp :
			    o.check ? (sc.cfg.thp_modes >> mode & 1) : mode == (int)sc.cfg.thp;
		int s;

		if (!want)
			continue;
		s = run_mode(&o, &sc, mode, walk_log);
		if (s > status)
			status = s;
	}
	if (walk_log)
		fclose(walk_log);
	free(o.variant_buf);
	aw_scenario_free(&sc);
	return status;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return cmd_run(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "convert"))
		return cmd_convert(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "replay"))
		return aw_cmd_replay(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "minimize"))
		return aw_cmd_minimize(argc, argv);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
