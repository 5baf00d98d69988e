// SPDX-License-Identifier: GPL-2.0-only
/*
 * Coverage that depends only on the input (issue 32): a driver for
 * libFuzzer builds that runs every input twice in a row, each time on
 * zeroed edge counters, and fails when the two runs' counters differ.
 *
 * Both engines assume that an input's coverage is its own.  AFL++ runs a
 * new queue entry several times (calibration) and flags it "variable"
 * when its map changes; a variable entry is calibrated 40 times and
 * scheduled as unreliable.  libFuzzer keeps an input for features that
 * belonged to the input before it.  Persistent state is how coverage
 * stops being the input's own: a table parsed on the first input only, a
 * count kept across inputs, a search whose path follows the heap's
 * addresses, which the inputs before left behind.  The first run of each
 * pair follows a different input (the previous pair's), and the first
 * input is the process's first, so once-per-process work shows too.
 *
 * Counters are compared in AFL++'s hit-count buckets (1, 2, 3, 4-7, 8-15,
 * 16-31, 32-127, 128+): the finest view either engine takes of them.
 *
 * The build instruments everything with -fsanitize=fuzzer-no-link, whose
 * module constructors hand their counters to
 * __sanitizer_cov_8bit_counters_init() and their PC tables to
 * __sanitizer_cov_pcs_init(): libFuzzer's runtime defines both, and this
 * executable, linked without it, defines them itself.
 *
 *   agewalk_fuzz_TARGET_stable FILE|DIR...
 * exits 0 when every input's two runs agree, 1 naming the first input
 * whose runs differ (the first eight counters that did, each with its
 * buckets in the two runs and its PC, for llvm-symbolizer --obj=EXE), 2
 * on a file it cannot read.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "slurp.h"

/*
 * The driver itself carries no counters, with the ignorelist or without
 * (-DAGEWALK_FUZZ_IGNORELIST=OFF): it reads them.
 */
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end);

#define MAX_MODULES 16

/*
 * The instrumented modules' counters, as their constructors registered
 * them before main(): the one piece of process state, because the ABI
 * calls in with nothing else to hang it off.
 */
static struct {
	uint8_t *start[MAX_MODULES], *stop[MAX_MODULES];
	const uintptr_t *pcs[MAX_MODULES];	/* (PC, flags) per counter, for the report */
	int nr, nr_pcs;
	size_t total;
} counters;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
	if (counters.nr == MAX_MODULES || start >= stop)
		return;
	counters.start[counters.nr] = start;
	counters.stop[counters.nr++] = stop;
	counters.total += (size_t)(stop - start);
}

void __sanitizer_cov_pcs_init(const uintptr_t *beg, const uintptr_t *end)
{
	(void)end;
	if (counters.nr_pcs < MAX_MODULES)
		counters.pcs[counters.nr_pcs++] = beg;
}

/*
 * Counter i's PC as an offset into its object, for llvm-symbolizer
 * --obj=EXE (or addr2line -f -e EXE); 0 when unknown.
 */
static uintptr_t pc_of(size_t i)
{
	for (int m = 0; m < counters.nr; m++) {
		size_t n = (size_t)(counters.stop[m] - counters.start[m]);
		Dl_info info;

		if (i >= n) {
			i -= n;
			continue;
		}
		if (m >= counters.nr_pcs)
			return 0;
		if (dladdr((const void *)counters.pcs[m][2 * i], &info) && info.dli_fbase)
			return counters.pcs[m][2 * i] - (uintptr_t)info.dli_fbase;
		return counters.pcs[m][2 * i];
	}
	return 0;
}

static uint8_t bucket(uint8_t v)
{
	return v == 0 ? 0 : v <= 3 ? v : v <= 7 ? 4 : v <= 15 ? 5 : v <= 31 ? 6 : v <= 127 ? 7 : 8;
}

/* run the input on zeroed counters; out[] gets their buckets */
static void run(const uint8_t *data, size_t size, uint8_t *out)
{
	size_t at = 0;

	for (int m = 0; m < counters.nr; m++)
		memset(counters.start[m], 0, (size_t)(counters.stop[m] - counters.start[m]));
	LLVMFuzzerTestOneInput(data, size);
	for (int m = 0; m < counters.nr; m++)
		for (uint8_t *c = counters.start[m]; c < counters.stop[m]; c++)
			out[at++] = bucket(*c);
}

/* 0 when the input's two runs agree, 1 (reported) when not, 2 unreadable */
static int check(const char *path, const char *prev, uint8_t *a, uint8_t *b)
{
	size_t len, differ = 0;
	uint8_t *data = aw_fuzz_slurp(path, &len);

	if (!data) {
		fprintf(stderr, "%s: cannot read it\n", path);
		return 2;
	}
	run(data, len, a);
	run(data, len, b);
	free(data);
	for (size_t i = 0; i < counters.total; i++)
		differ += a[i] != b[i];
	if (!differ)
		return 0;
	fprintf(stderr, "%s: its second run's coverage differs from its first (after %s) in %zu counters:", path,
		prev ? prev : "nothing: the process's first input", differ);
	for (size_t i = 0, shown = 0; i < counters.total && shown < 8; i++)
		if (a[i] != b[i]) {
			fprintf(stderr, " #%zu at 0x%jx: %u/%u", i, (uintmax_t)pc_of(i), a[i], b[i]);
			shown++;
		}
	fprintf(stderr, "\n");
	return 1;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* the arguments' files, a directory's sorted by name (so the order, and the result, are the same every run) */
static int collect(int argc, char **argv, char ***files, int *nr)
{
	int cap = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;
		int first = *nr;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: cannot stat it\n", argv[i]);
			return 2;
		}
		d = S_ISDIR(st.st_mode) ? opendir(argv[i]) : NULL;
		if (S_ISDIR(st.st_mode) && !d) {
			fprintf(stderr, "%s: cannot open it\n", argv[i]);
			return 2;
		}
		while (d ? (de = readdir(d)) != NULL : *nr == first) {
			char *path;

			if (d && de->d_name[0] == '.')
				continue;
			if (*nr == cap) {
				char **f = realloc(*files, sizeof(*f) * (size_t)(cap = cap ? 2 * cap : 64));

				if (!f)
					return 2;
				*files = f;
			}
			path = d ? malloc(strlen(argv[i]) + strlen(de->d_name) + 2) : strdup(argv[i]);
			if (!path)
				return 2;
			if (d)
				sprintf(path, "%s/%s", argv[i], de->d_name);
			(*files)[(*nr)++] = path;
		}
		if (d) {
			closedir(d);
			qsort(*files + first, (size_t)(*nr - first), sizeof(**files), by_name);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	char **files = NULL;
	int nr = 0, status;
	uint8_t *a, *b;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	if (!counters.total) {
		fprintf(stderr, "%s: no edge counters registered (not a libFuzzer build?)\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize) {
		/* the target's own set-up (its heap settings among it), without libFuzzer's flags */
		int n = 1;
		char **v = argv;

		setenv("AGEWALK_LIBFUZZER_DEFAULTS", "0", 1);
		LLVMFuzzerInitialize(&n, &v);
	}
	status = collect(argc, argv, &files, &nr);
	a = malloc(counters.total);
	b = malloc(counters.total);
	if (!a || !b)
		status = 2;
	for (int i = 0; i < nr && !status; i++)
		status = check(files[i], i ? files[i - 1] : NULL, a, b);
	if (!status)
		printf("%d inputs, %zu counters: every input's coverage is its own\n", nr, counters.total);
	for (int i = 0; i < nr; i++)
		free(files[i]);
	free(files);
	free(a);
	free(b);
	return status;
}

#pragma clang attribute pop
