/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal unit-test helpers: each test program runs its cases, prints one
 * line per failed check with file:line, and exits non-zero if any failed.
 * Expected values in the tests are computed by hand from the kernel rules
 * (the comment next to each says how), never copied from program output.
 */
#ifndef AW_TEST_H
#define AW_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int aw_test_failures;
static int aw_test_checks;

#define CHECK(cond) do { \
	aw_test_checks++; \
	if (!(cond)) { \
		aw_test_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long _a = (long long)(a), _b = (long long)(b); \
	aw_test_checks++; \
	if (_a != _b) { \
		aw_test_failures++; \
		fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
			__FILE__, __LINE__, #a, #b, _a, _b); \
	} \
} while (0)

#define CHECK_STR(a, b) do { \
	const char *_a = (a), *_b = (b); \
	aw_test_checks++; \
	if (!_a || !_b || strcmp(_a, _b)) { \
		aw_test_failures++; \
		fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
			__FILE__, __LINE__, #a, #b, _a ? _a : "(null)", _b ? _b : "(null)"); \
	} \
} while (0)

#define RUN(fn) do { fn(); } while (0)

static inline int aw_test_report(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, aw_test_checks, aw_test_failures);
	return aw_test_failures ? 1 : 0;
}

#endif
