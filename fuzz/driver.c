// SPDX-License-Identifier: GPL-2.0-only
/*
 * Standalone driver (AGEWALK_FUZZ_ENGINE=none): runs a fuzz target over
 * files and directories given on the command line, so corpora replay as
 * regression tests in every normal and sanitizer build.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "slurp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
	size_t len;
	uint8_t *buf = aw_fuzz_slurp(path, &len);

	if (!buf)
		return -1;
	if (getenv("AGEWALK_DRIVER_TIMES")) {
		/* per-input cost in microseconds, for profiling a corpus */
		struct timespec a, b;

		clock_gettime(CLOCK_MONOTONIC, &a);
		LLVMFuzzerTestOneInput(buf, len);
		clock_gettime(CLOCK_MONOTONIC, &b);
		fprintf(stderr, "%.1f %zu %s\n",
			(double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3, len, path);
	} else {
		LLVMFuzzerTestOneInput(buf, len);
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, failed = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: cannot stat\n", argv[i]);
			failed++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed += run_file(argv[i]) != 0;
			files++;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (de = readdir(d))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			failed += run_file(path) != 0;
			files++;
		}
		if (d)
			closedir(d);
	}
	printf("%d passed, %d failed\n", files - failed, failed);
	return failed || !files;
}
