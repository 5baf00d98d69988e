// SPDX-License-Identifier: GPL-2.0-only
/*
 * The agewalk commands' option parser, usage text and option dump
 * (parse_options.h): one walk over a command's table serves all three, so
 * what is parsed is what --help, the man page and the completion name.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "parse_options.h"

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

/* Does word ("--name" or "-s") name the entry? */
static bool names(const struct aw_po_option *o, const char *word)
{
	if (word[0] != '-')
		return false;
	if (word[1] == '-')
		return o->name && !strcmp(word + 2, o->name);
	return o->short_name && word[1] == o->short_name && !word[2];
}

const struct aw_po_option *aw_po_find(const struct aw_po_option *opts, unsigned int mask, const char *word,
				      size_t *off)
{
	for (const struct aw_po_option *o = opts; o->kind != AW_PO_END; o++) {
		if (o->kind == AW_PO_GROUP) {
			const struct aw_po_option *s = aw_po_find(o->sub, (unsigned int)o->val, word, off);

			if (s) {
				*off += o->off;
				return s;
			}
		} else if ((!o->set || (o->set & mask)) && names(o, word)) {
			*off = o->off;
			return o;
		}
	}
	return NULL;
}

int aw_po_take(const struct aw_po_option *opt, void *dst, const char *arg, char *err, size_t errlen)
{
	switch (opt->kind) {
	case AW_PO_FLAG:
		*(bool *)dst = opt->val;
		return 0;
	case AW_PO_STRING:
		*(const char **)dst = arg;
		return 0;
	case AW_PO_CALL:
		return opt->cb(dst, opt, arg, err, errlen);
	default:
		return 0;
	}
}

/* A callback's refusal, as it asked; AW_PO_ERROR. */
static int refused(const struct aw_po_cmd *c, int r, const char *err)
{
	if (r == AW_PO_USAGE)
		aw_usage_error(c->name, "%s", err);
	else
		fprintf(stderr, "agewalk %s: %s\n", c->name, err);
	return AW_PO_ERROR;
}

/* The word of a command that takes one (struct aw_po_cmd's .one). */
static int take_one(const struct aw_po_cmd *c, void *ctx, const char *arg, char *err, size_t errlen)
{
	const char **dst = (const char **)((char *)ctx + c->one_off);

	if (*dst) {
		snprintf(err, errlen, "one %s only", c->one);
		return AW_PO_USAGE;
	}
	*dst = arg;
	return 0;
}

int aw_po_parse(const struct aw_po_cmd *c, void *ctx, int argc, char **argv)
{
	char err[1024];	/* "unknown planted bug" lists every name */

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const struct aw_po_option *o;
		size_t off = 0;
		int r;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			aw_po_usage(stdout, c);
			return AW_PO_HELP;
		}
		if (a[0] != '-' || (!a[1] && !(c->flags & AW_PO_DASH_IS_OPTION))) {
			err[0] = 0;
			r = c->positional ? c->positional(ctx, a, err, sizeof(err)) : take_one(c, ctx, a, err, sizeof(err));
			if (r)
				return refused(c, r, err);
			continue;
		}
		o = aw_po_find(c->opts, ~0U, a, &off);
		if (!o) {
			aw_usage_error(c->name, "unknown option '%s'", a);
			return AW_PO_ERROR;
		}
		if (o->arg && i + 1 >= argc) {
			aw_usage_error(c->name, "%s needs a value", a);
			return AW_PO_ERROR;
		}
		err[0] = 0;
		r = aw_po_take(o, (char *)ctx + off, o->arg ? argv[++i] : NULL, err, sizeof(err));
		if (r)
			return refused(c, r, err);
	}
	return 0;
}

/* "--name" or "-s", as the synopsis and the notes spell the entry. */
static const char *spelling(const struct aw_po_option *o, char *buf, size_t len)
{
	if (o->name)
		snprintf(buf, len, "--%s", o->name);
	else
		snprintf(buf, len, "-%c", o->short_name);
	return buf;
}

/* The synopsis: "usage: agewalk CMD ARGS" then each option's item, filled to 79 columns. */
struct fill {
	FILE *out;
	int col, indent;
	bool fresh;		/* at the start of a continuation line */
};

static void put_item(struct fill *f, const char *item)
{
	int n = (int)strlen(item);

	if (f->col + 1 + n > 79 && !f->fresh) {
		fprintf(f->out, "\n%*s", f->indent, "");
		f->col = f->indent;
		f->fresh = true;
	}
	if (!f->fresh) {
		fputc(' ', f->out);
		f->col++;
	}
	fputs(item, f->out);
	f->col += n;
	f->fresh = false;
}

static void synopsis(struct fill *f, const struct aw_po_option *opts, unsigned int mask)
{
	char name[64], item[256];

	for (const struct aw_po_option *o = opts; o->kind != AW_PO_END; o++) {
		if (o->kind == AW_PO_GROUP) {
			synopsis(f, o->sub, (unsigned int)o->val);
			continue;
		}
		if ((o->set && !(o->set & mask)) || (o->flags & AW_PO_NOSYN))
			continue;
		if (o->syn) {
			put_item(f, o->syn);
			continue;
		}
		spelling(o, name, sizeof(name));
		snprintf(item, sizeof(item), "%s%s%s%s%s%s", o->flags & AW_PO_NEEDED ? "" : "[", name,
			 o->arg ? " " : "", o->arg ? o->arg : "", o->flags & AW_PO_NEEDED ? "" : "]",
			 o->flags & AW_PO_MANY ? "..." : "");
		put_item(f, item);
	}
}

/* Each option's note: the name in a column of 10, the note's further lines under the first. */
static void notes(FILE *out, const struct aw_po_option *opts, unsigned int mask)
{
	char name[64];

	for (const struct aw_po_option *o = opts; o->kind != AW_PO_END; o++) {
		if (o->kind == AW_PO_GROUP) {
			notes(out, o->sub, (unsigned int)o->val);
			continue;
		}
		if ((o->set && !(o->set & mask)) || !o->help)
			continue;
		spelling(o, name, sizeof(name));
		fprintf(out, "  %-8s  ", name);
		for (const char *p = o->help; *p; p++) {
			fputc(*p, out);
			if (*p == '\n' && p[1])
				fprintf(out, "%12s", "");
		}
		fputc('\n', out);
	}
}

void aw_po_usage(FILE *out, const struct aw_po_cmd *c)
{
	struct fill f = { out, 0, 0, false };

	f.col = fprintf(out, "usage: agewalk %s", c->name);
	f.indent = f.col + 1;
	if (c->args)
		put_item(&f, c->args);
	synopsis(&f, c->opts, ~0U);
	fputc('\n', out);
	if (c->more_usage)
		c->more_usage(out);
	notes(out, c->opts, ~0U);
	if (c->notes)
		fputs(c->notes, out);
}

static void dump(FILE *out, const char *cmd, const struct aw_po_option *opts, unsigned int mask)
{
	for (const struct aw_po_option *o = opts; o->kind != AW_PO_END; o++) {
		if (o->kind == AW_PO_GROUP) {
			dump(out, cmd, o->sub, (unsigned int)o->val);
			continue;
		}
		if (o->set && !(o->set & mask))
			continue;
		if (o->name)
			fprintf(out, "%s --%s%s%s\n", cmd, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->short_name)
			fprintf(out, "%s -%c%s%s\n", cmd, o->short_name, o->arg ? " " : "", o->arg ? o->arg : "");
	}
}

void aw_po_dump(FILE *out, const struct aw_po_cmd *c)
{
	dump(out, c->name, c->opts, ~0U);
}
