/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Known findings (corpus/known-findings): signatures accepted as
 * consequences of a series' design, each with its reproducer, the contract
 * it depends on and an explanation.  A campaign counts and reports a known
 * signature and goes on; any other signature stops it.
 *
 * The file is text, one entry per block of "key: value" lines, blocks
 * separated by blank lines, '#' starting a comment line; a line that starts
 * with two spaces continues the value above it:
 *
 *   signature: premature-reclaim-differential [base,pud] PUD skipped: ...
 *   reproducer: corpus/regressions/pud-late-region-hot-eviction.aws
 *   contract: PUD filter (seed v3 3/4), kernel profile mainline
 *   explanation: R0's PUD has no page tables at the first walk, ...
 *     ... continued.
 *
 * Every entry needs all four keys; signature: may repeat, one pattern per
 * line, for the forms one rule takes.  A pattern is a signature in which
 * '*' matches any run of characters (nothing else is special).  A
 * finding's signature is known when each of its causes (a differential's
 * causes are joined by " + ") matches a pattern under the same oracle and
 * variants ("ORACLE [VARIANTS] ", which patterns may also wildcard).  The
 * fuzz targets carry the file as it was at build time.
 */
#ifndef AW_KNOWN_H
#define AW_KNOWN_H

#include <stddef.h>

struct aw_known_entry {
	char **signatures;		/* the patterns, at least one */
	int nr_signatures, cap_signatures;
	char *reproducer, *contract, *explanation;
	char *signature;		/* parser's: the pattern being read */
	unsigned long hits;		/* counted by the caller */
};

struct aw_known {
	struct aw_known_entry *e;
	int nr, cap;
};

/*
 * Parse text into k (zeroed first).  0, or -1 with a one-line message with
 * the line number in err.
 */
int aw_known_parse(struct aw_known *k, const char *text, char *err, size_t errlen);
int aw_known_load(struct aw_known *k, const char *path, char *err, size_t errlen);
void aw_known_free(struct aw_known *k);
/* the entry that makes sig known (its first cause's), NULL if none */
struct aw_known_entry *aw_known_find(const struct aw_known *k, const char *sig);

/* corpus/known-findings as it was when the tool was built */
extern const char aw_known_findings_text[];

#endif /* AW_KNOWN_H */
