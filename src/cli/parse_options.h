/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one option parser of the agewalk commands, in the manner of git's
 * parse-options: each command declares its options as a table of struct
 * aw_po_option (name, short name, value, help, where the value goes) and
 * hands argv to aw_po_parse().  The same table is the command's --help
 * (aw_po_usage(): the synopsis is generated from it, then each option's
 * help, then the command's notes) and `agewalk --dump-options`
 * (aw_po_dump(): one line per option, "COMMAND OPTION [VALUE]"), from
 * which the build generates the bash completion (tools/agewalk-completion);
 * the man page (tools/agewalk-man) is the --help texts.  So an option
 * added to a table is parsed, documented and completed, and one not in a
 * table is none of these.
 *
 * Every message is one line on stderr.  A word starting with '-' that no
 * entry names: "agewalk CMD: unknown option 'W'; see agewalk CMD --help";
 * an option that takes a value as the last word: "... W needs a value;
 * see ...".  A callback refuses a value with AW_PO_FAIL (printed as
 * "agewalk CMD: MESSAGE") or AW_PO_USAGE (printed as a usage error, with
 * the "; see agewalk CMD --help" hint).  "--help" and "-h" win wherever
 * they stand (unless an option took them as its value).
 */
#ifndef AW_PARSE_OPTIONS_H
#define AW_PARSE_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* What a callback and the positional handler return besides 0. */
#define AW_PO_FAIL	(-1)	/* err is the message: "agewalk CMD: err" */
#define AW_PO_USAGE	(-2)	/* err is a usage error: "agewalk CMD: err; see agewalk CMD --help" */

/* What aw_po_parse() returns besides 0: the command returns at once with this exit status. */
#define AW_PO_HELP	(-3)	/* --help: the usage went to stdout (exit 0) */
#define AW_PO_ERROR	(-4)	/* a message went to stderr (exit 2) */

enum aw_po_kind {
	AW_PO_END,		/* the end of a table */
	AW_PO_FLAG,		/* no value: the bool at .off becomes .val */
	AW_PO_STRING,		/* the value itself, into the const char * at .off */
	AW_PO_CALL,		/* .cb(base + .off, the option, the value or NULL) */
	AW_PO_GROUP,		/* the entries of .sub whose .set has a bit of .val, at base + .off */
};

struct aw_po_option;

/* dst is the command's struct plus the entry's .off; arg is NULL for an option without value. */
typedef int (*aw_po_cb)(void *dst, const struct aw_po_option *opt, const char *arg, char *err, size_t errlen);

struct aw_po_option {
	const char *name;	/* "walk-log" for --walk-log; NULL: a short name only */
	char short_name;	/* 'o' for -o; 0: none */
	enum aw_po_kind kind;
	const char *arg;	/* the value's name in the synopsis ("FILE", "always|never|madvise"); NULL: none */
	const char *help;	/* a note under the synopsis (lines after the first indented); NULL: none */
	size_t off;		/* where the value goes: an offset in the command's struct */
	int val;		/* FLAG: the value stored; GROUP: the sets taken; CALL: the callback's to read */
	unsigned int set;	/* in a group's table: the set the entry belongs to */
	unsigned int flags;
	aw_po_cb cb;
	const struct aw_po_option *sub;
	const char *syn;	/* the synopsis item, when not "[--name ARG]" ("[--progress|--no-progress]") */
};

#define AW_PO_MANY	(1U << 0)	/* repeatable: "[--bug NAME]..." */
#define AW_PO_NOSYN	(1U << 1)	/* not in the synopsis (another entry's .syn names it) */
#define AW_PO_NEEDED	(1U << 2)	/* not optional: "-o REPORT.html", no brackets */

/* A command's command line. */
struct aw_po_cmd {
	const char *name;		/* "run" */
	const char *args;		/* the positional arguments in the synopsis ("FILE.aws|FILE.awpb") */
	const struct aw_po_option *opts;
	/* each word that is not an option, in order: 0, AW_PO_FAIL or AW_PO_USAGE (err says why) */
	int (*positional)(void *ctx, const char *arg, char *err, size_t errlen);
	/*
	 * Or, for a command that takes one word (run FILE, report RUN.json):
	 * that word goes to the const char * at .one_off, and a second one is
	 * the usage error "one ONE only".  Used when .positional is NULL.
	 */
	const char *one;
	size_t one_off;
	const char *notes;		/* the text after the options' notes, or NULL */
	void (*more_usage)(FILE *out);	/* lines after the synopsis (run: the other commands), or NULL */
	unsigned int flags;
};

#define AW_PO_DASH_IS_OPTION	(1U << 0)	/* a lone "-" is an (unknown) option, not a file name */

/*
 * Parse argv[2..] (argv[1] is the command's name) into ctx.  0: parsed;
 * AW_PO_HELP: --help printed the usage; AW_PO_ERROR: one line on stderr.
 */
int aw_po_parse(const struct aw_po_cmd *c, void *ctx, int argc, char **argv);

/* The command's --help text. */
void aw_po_usage(FILE *out, const struct aw_po_cmd *c);

/* One line per option: "COMMAND --name [ARG]" (and "COMMAND -s [ARG]"), for the completion. */
void aw_po_dump(FILE *out, const struct aw_po_cmd *c);

/*
 * The entry of opts (groups expanded, only their sets in mask) that word
 * names, its destination's offset in *off; NULL if none.  For parsers
 * of a part of a command line (options.h).
 */
const struct aw_po_option *aw_po_find(const struct aw_po_option *opts, unsigned int mask, const char *word,
				      size_t *off);

/* Store arg (NULL for an option without value) as the entry says: 0, AW_PO_FAIL or AW_PO_USAGE. */
int aw_po_take(const struct aw_po_option *opt, void *dst, const char *arg, char *err, size_t errlen);

/* For every command: "agewalk CMD: MESSAGE; see agewalk CMD --help" on stderr; returns 2. */
int aw_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* AW_PARSE_OPTIONS_H */
