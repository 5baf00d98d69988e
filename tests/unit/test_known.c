// SPDX-License-Identifier: GPL-2.0-only
/*
 * The known-findings list (src/check/known.c): entries, continuation lines
 * and comments; every malformed list refused with its line; the list built
 * into the tool parses and names the seeds' two findings.
 */
#include <string.h>

#include "aw_test.h"
#include "known.h"

static const char good[] =
	"# a comment\n"
	"signature: oracle-a [base,pud] rule one\n"
	"reproducer: corpus/a.aws\n"
	"contract: c1\n"
	"explanation: first line\n"
	"  second line\n"
	"\n"
	"# another\n"
	"signature: oracle-b [base] rule two\n"
	"explanation: e2\n"
	"contract: c2\n"
	"reproducer: corpus/b.aws\n";

static void test_parse(void)
{
	struct aw_known k;
	char err[200] = "";
	struct aw_known_entry *e;

	CHECK_EQ(aw_known_parse(&k, good, err, sizeof(err)), 0);
	CHECK_EQ(k.nr, 2);
	e = aw_known_find(&k, "oracle-a [base,pud] rule one");
	CHECK(e != NULL);
	if (e) {
		CHECK(!strcmp(e->explanation, "first line second line"));
		CHECK(!strcmp(e->reproducer, "corpus/a.aws"));
	}
	e = aw_known_find(&k, "oracle-b [base] rule two");
	CHECK(e && !strcmp(e->contract, "c2"));
	CHECK(aw_known_find(&k, "oracle-b [base] rule") == NULL);	/* whole signatures only */
	aw_known_free(&k);
}

static void refused(const char *text, const char *want)
{
	struct aw_known k;
	char err[200] = "";

	CHECK_EQ(aw_known_parse(&k, text, err, sizeof(err)), -1);
	CHECK(strstr(err, want) != NULL);
	if (!strstr(err, want))
		fprintf(stderr, "  got '%s', want '%s'\n", err, want);
	CHECK_EQ(k.nr, 0);
}

static void test_refused(void)
{
	refused("signature: s\nreproducer: r\ncontract: c\n\n", "entry ending at line 3 lacks explanation");
	refused("signature: s\nwhatever: x\n", "line 2: expected signature:");
	refused("  dangling\n", "line 1 continues no field");
	refused("signature: s\nsignature: t\n", "line 2 repeats a key");
	refused("signature: s\nreproducer: r\ncontract: c\nexplanation: e\n\n"
		"signature: s\nreproducer: r\ncontract: c\nexplanation: e\n", "signature listed twice: s");
}

static void test_built_in(void)
{
	struct aw_known k;
	char err[200] = "";

	CHECK_EQ(aw_known_parse(&k, aw_known_findings_text, err, sizeof(err)), 0);
	CHECK(aw_known_find(&k, "premature-reclaim-differential [base,pud] PUD skipped: never inserted, "
			    "its subtree had no page tables at the last walk") != NULL);
	CHECK(aw_known_find(&k, "premature-reclaim-differential [base,emptymap] mm skipped while marked "
			    "empty: mark set by a walk with no young leaf, not cleared by a huge "
			    "first-touch fault") != NULL);
	aw_known_free(&k);
}

int main(void)
{
	test_parse();
	test_refused();
	test_built_in();
	return aw_test_report("test_known");
}
