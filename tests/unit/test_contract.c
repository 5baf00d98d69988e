// SPDX-License-Identifier: GPL-2.0-only
/*
 * The empty-mm contract's options (src/event/contract.c) in every form a
 * user or a fuzzer writes them: the text of .aws and --empty-contract,
 * with its defaults and refusals; the .aws line read and written back;
 * the fuzz header's byte, where 0 (every older input) is the default.
 */
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "contract.h"
#include "fuzzin.h"
#include "fuzzrec.h"
#include "scenario.h"

static void test_text(void)
{
	struct aw_empty_contract c;
	char err[300] = "", buf[160];

	CHECK_EQ(aw_empty_contract_parse("", ' ', &c, err, sizeof(err)), 0);
	CHECK(aw_empty_contract_is_default(&c));
	aw_empty_contract_format(&c, ' ', buf, sizeof(buf));
	CHECK(!strcmp(buf, "place=get-next-mm empty=associated clock=mm clear=major+migration"));

	CHECK_EQ(aw_empty_contract_parse("clock=pass,place=after,clear=major+huge+collapse,empty=no-leaves", ',',
					 &c, err, sizeof(err)), 0);
	CHECK_EQ(c.place, AW_EMPTY_AFTER_GET_NEXT_MM);
	CHECK_EQ(c.pred, AW_EMPTY_NO_LEAVES);
	CHECK_EQ(c.clock, AW_EMPTY_CLOCK_PASS);
	CHECK_EQ(c.clear, AW_EMPTY_CLEAR_HUGE | AW_EMPTY_CLEAR_COLLAPSE);	/* no migration: not named */
	aw_empty_contract_format(&c, ',', buf, sizeof(buf));
	CHECK(!strcmp(buf, "place=after,empty=no-leaves,clock=pass,clear=major+huge+collapse"));

	/* one key alone keeps the others' defaults; "clear=major" is major faults only */
	CHECK_EQ(aw_empty_contract_parse("clear=major", ' ', &c, err, sizeof(err)), 0);
	CHECK_EQ(c.clear, 0);
	CHECK_EQ(c.place, AW_EMPTY_IN_GET_NEXT_MM);

	CHECK_EQ(aw_empty_contract_parse("place=before", ' ', &c, err, sizeof(err)), -1);
	CHECK(strstr(err, "'place=before'") != NULL);
	CHECK_EQ(aw_empty_contract_parse("clear=major+sometimes", ' ', &c, err, sizeof(err)), -1);
	CHECK_EQ(aw_empty_contract_parse("clock", ' ', &c, err, sizeof(err)), -1);
}

static void test_aws(void)
{
	static const char text[] =
		"# agewalk scenario\n"
		"node 0 cpus 0-1 mem 512M\n"
		"empty_contract clear=major+minor place=after\n"
		"proc P1\n";
	struct aw_scenario sc;
	char err[300] = "";
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	CHECK_EQ(aw_aws_parse_string("t.aws", text, &sc, err, sizeof(err)), 0);
	CHECK_EQ(sc.cfg.empty.place, AW_EMPTY_AFTER_GET_NEXT_MM);
	CHECK_EQ(sc.cfg.empty.clear, AW_EMPTY_CLEAR_MINOR);
	f = open_memstream(&out, &len);
	CHECK(f && aw_aws_write(f, &sc) == 0);
	if (f)
		fclose(f);
	CHECK(out && strstr(out, "empty_contract place=after empty=associated clock=mm clear=major+minor\n"));
	free(out);
	aw_scenario_free(&sc);

	CHECK_EQ(aw_aws_parse_string("bad.aws", "# agewalk scenario\nempty_contract clock=hourly\n", &sc, err,
				     sizeof(err)), -1);
	CHECK(strstr(err, "bad.aws:2:") != NULL);
	aw_scenario_free(&sc);
}

/* header byte 6: 0 is the default; each bit one choice; encode(decode(b)) == b */
static void test_fuzz_byte(void)
{
	uint8_t in[AW_FUZZ_HEADER] = { 0 }, out[AW_FUZZ_HEADER + 64];
	struct aw_scenario sc;

	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK(aw_empty_contract_is_default(&sc.cfg.empty));
	aw_scenario_free(&sc);

	in[AW_FH_EMPTY_CONTRACT] = AW_FH_EC_AFTER | AW_FH_EC_NO_MIGRATION | (2 << AW_FH_EC_CLEAR_SHIFT);
	CHECK_EQ(aw_fuzz_decode(in, sizeof(in), &sc), 0);
	CHECK_EQ(sc.cfg.empty.place, AW_EMPTY_AFTER_GET_NEXT_MM);
	CHECK_EQ(sc.cfg.empty.clear, AW_EMPTY_CLEAR_MINOR);	/* bit 5 = minor; no migration */
	CHECK_EQ(sc.cfg.empty.pred, AW_EMPTY_NO_ASSOCIATED);
	CHECK(aw_fuzz_encode(&sc, "emptymap", out, sizeof(out)) >= AW_FUZZ_HEADER);
	CHECK_EQ(out[AW_FH_EMPTY_CONTRACT], in[AW_FH_EMPTY_CONTRACT]);
	aw_scenario_free(&sc);
}

int main(void)
{
	test_text();
	test_aws();
	test_fuzz_byte();
	return aw_test_report("test_contract");
}
