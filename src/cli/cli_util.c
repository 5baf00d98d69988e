// SPDX-License-Identifier: GPL-2.0-only
/*
 * What several agewalk commands share (cli.h): reading a whole file, and
 * reading and writing a scenario in any of its three formats (.aws text,
 * .awpb protobuf stream, fuzz input).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "awpb.h"
#include "cli.h"
#include "fuzzin.h"

enum aw_fmt aw_fmt_parse(const char *s)
{
	if (!strcmp(s, "aws"))
		return AW_FMT_AWS;
	if (!strcmp(s, "awpb"))
		return AW_FMT_AWPB;
	if (!strcmp(s, "fuzz"))
		return AW_FMT_FUZZ;
	return AW_FMT_NONE;
}

enum aw_fmt aw_fmt_of(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? aw_fmt_parse(dot + 1) : AW_FMT_NONE;
}

const char *aw_fmt_name(enum aw_fmt fmt)
{
	return fmt == AW_FMT_AWS ? "aws" : fmt == AW_FMT_AWPB ? "awpb" : "fuzz";
}

/* A whole file (or stdin) in memory, at most limit bytes (cli.h). */
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

/* Read a scenario in any format; errors are one line in err. */
int aw_load_input(const char *path, enum aw_fmt fmt, struct aw_scenario *sc, char *err, size_t errlen,
		  enum aw_fuzz_target target, const char **fuzz_variant)
{
	if (fmt == AW_FMT_NONE)
		fmt = aw_fmt_of(path);
	if (fmt == AW_FMT_AWPB)
		return aw_awpb_read_file(path, sc, err, errlen);
	if (fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, fuzz_variant, target);
	if (fmt == AW_FMT_AWS)
		return aw_aws_parse_file(path, sc, err, errlen);
	snprintf(err, errlen, "%s: unknown input format (use .aws, .awpb or .fuzz, or --from)", path);
	return -1;
}

int aw_load_header(const char *path, struct aw_scenario *sc, char *err, size_t errlen)
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

int aw_load_scenario(const char *path, const char *from, struct aw_scenario *sc, char *err,
		     size_t errlen, const char **fuzz_variant, enum aw_fuzz_target target)
{
	enum aw_fmt fmt = from ? aw_fmt_parse(from) : aw_fmt_of(path);

	aw_scenario_init(sc);
	if (fmt == AW_FMT_NONE || fmt == AW_FMT_FUZZ)
		return load_fuzz(path, sc, err, errlen, fuzz_variant, target);
	return aw_load_input(path, fmt, sc, err, errlen, target, NULL);
}

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

int aw_write_fmt(FILE *f, enum aw_fmt fmt, const struct aw_scenario *sc, const char *variant)
{
	if (fmt == AW_FMT_AWS)
		return aw_aws_write(f, sc);
	if (fmt == AW_FMT_AWPB)
		return aw_awpb_write(f, sc);
	return write_fuzz(f, sc, variant);
}
