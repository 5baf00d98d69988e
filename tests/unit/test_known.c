// SPDX-License-Identifier: GPL-2.0-only
/*
 * The known-findings list (src/check/known.c): entries, continuation lines
 * and comments; patterns ('*'), several per entry, and signatures of
 * several causes; every malformed list refused with its line; the list
 * built into the tool parses and names the seeds' findings.
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
	"reproducer: corpus/b.aws\n"
	"\n"
	"signature: diff [base,*] PUD skipped: never inserted, *\n"
	"signature: diff [base,*] no skip on its path; the last skip in its lruvec: PUD skipped: never inserted, *\n"
	"reproducer: corpus/c.aws\n"
	"contract: c3\n"
	"explanation: e3\n"
	"\n"
	"signature: diff [base,emptymap] mm skipped*\n"
	"reproducer: corpus/d.aws\n"
	"contract: c4\n"
	"explanation: e4\n";

static void test_parse(void)
{
	struct aw_known k;
	char err[200] = "";
	struct aw_known_entry *e;

	CHECK_EQ(aw_known_parse(&k, good, err, sizeof(err)), 0);
	CHECK_EQ(k.nr, 4);
	e = aw_known_find(&k, "oracle-a [base,pud] rule one");
	CHECK(e != NULL);
	if (e) {
		CHECK(!strcmp(e->explanation, "first line second line"));
		CHECK(!strcmp(e->reproducer, "corpus/a.aws"));
	}
	e = aw_known_find(&k, "oracle-b [base] rule two");
	CHECK(e && !strcmp(e->contract, "c2"));
	CHECK(aw_known_find(&k, "oracle-b [base] rule") == NULL);	/* whole signatures only */
	CHECK(aw_known_find(&k, "oracle-b [base] rule two + rule") == NULL);	/* every cause known */
	CHECK_EQ(k.e[2].nr_signatures, 2);
	aw_known_free(&k);
}

/* '*' and causes joined by " + ", each matched under the same head */
static void test_patterns(void)
{
	struct aw_known k;
	char err[200] = "";

	CHECK_EQ(aw_known_parse(&k, good, err, sizeof(err)), 0);
	CHECK(aw_known_find(&k, "diff [base,pud] PUD skipped: never inserted, anything") == &k.e[2]);
	CHECK(aw_known_find(&k, "diff [base,rfc] PUD skipped: never inserted, ") == &k.e[2]);
	CHECK(aw_known_find(&k, "diff [base,pud] PUD skipped: inserted and lost") == NULL);
	/* a '*' of the head stays in the head: "no skip" is not "PUD skipped" */
	CHECK(aw_known_find(&k, "diff [base,pud] no skip on its path; PUD skipped: never inserted, x") == NULL);
	CHECK(aw_known_find(&k, "diff [base,pud] no skip on its path; the last skip in its lruvec: "
			    "PUD skipped: never inserted, x") == &k.e[2]);
	CHECK(aw_known_find(&k, "diff [base,emptymap] mm skipped while marked empty") == &k.e[3]);
	CHECK(aw_known_find(&k, "diff [base,rfc] mm skipped while marked empty") == NULL);
	/* both causes known, under entries of their own: the first cause's entry */
	CHECK(aw_known_find(&k, "diff [base,emptymap] mm skipped a + PUD skipped: never inserted, b") == &k.e[3]);
	CHECK(aw_known_find(&k, "diff [base,emptymap] mm skipped a + PUD skipped: lost") == NULL);
	CHECK(aw_known_find(&k, "diff [base,emptymap] PUD skipped: lost + mm skipped a") == NULL);
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
	refused("signature: s\nreproducer: r\nreproducer: t\n", "line 3 repeats a key");
	refused("signature: s\nsignature: s\nreproducer: r\ncontract: c\nexplanation: e\n",
		"signature listed twice: s");
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
	test_patterns();
	test_refused();
	test_built_in();
	return aw_test_report("test_known");
}
