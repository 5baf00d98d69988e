// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz/lf_defaults.c: the libFuzzer settings are added after argv[0]
 * when the command line does not set them, left out one by one when it
 * does (whatever the value), and not at all with
 * AGEWALK_LIBFUZZER_DEFAULTS=0; the caller's arguments keep their order.
 */
#include <stdlib.h>
#include <string.h>

#include "aw_test.h"
#include "lf_defaults.h"

static void test_added(void)
{
	char *in[] = { "fuzzer", "-runs=10", "corpus", NULL };
	char **argv = in;
	int argc = 3;

	unsetenv("AGEWALK_LIBFUZZER_DEFAULTS");
	aw_lf_add_defaults(&argc, &argv);
	CHECK_EQ(argc, 5);
	CHECK_STR(argv[0], "fuzzer");
	CHECK_STR(argv[1], "-use_counters=0");
	CHECK_STR(argv[2], "-entropic_feature_frequency_threshold=16");
	CHECK_STR(argv[3], "-runs=10");
	CHECK_STR(argv[4], "corpus");
	CHECK(argv[5] == NULL);
	free(argv);
}

static void test_given_wins(void)
{
	char *in[] = { "fuzzer", "corpus", "-use_counters=1", NULL };
	char **argv = in;
	int argc = 3;

	unsetenv("AGEWALK_LIBFUZZER_DEFAULTS");
	aw_lf_add_defaults(&argc, &argv);
	CHECK_EQ(argc, 4);
	CHECK_STR(argv[1], "-entropic_feature_frequency_threshold=16");
	CHECK_STR(argv[2], "corpus");
	CHECK_STR(argv[3], "-use_counters=1");
	free(argv);
}

/* a longer flag that begins with a setting's name is not that setting */
static void test_prefix_is_not_the_flag(void)
{
	char *in[] = { "fuzzer", "-use_counters_x=1", NULL };
	char **argv = in;
	int argc = 2;

	unsetenv("AGEWALK_LIBFUZZER_DEFAULTS");
	aw_lf_add_defaults(&argc, &argv);
	CHECK_EQ(argc, 4);
	CHECK_STR(argv[1], "-use_counters=0");
	free(argv);
}

static void test_switched_off(void)
{
	char *in[] = { "fuzzer", "corpus", NULL };
	char **argv = in;
	int argc = 2;

	setenv("AGEWALK_LIBFUZZER_DEFAULTS", "0", 1);
	aw_lf_add_defaults(&argc, &argv);
	CHECK_EQ(argc, 2);
	CHECK(argv == in);
	unsetenv("AGEWALK_LIBFUZZER_DEFAULTS");
}

int main(void)
{
	RUN(test_added);
	RUN(test_given_wins);
	RUN(test_prefix_is_not_the_flag);
	RUN(test_switched_off);
	return aw_test_report("test_lf_defaults");
}
