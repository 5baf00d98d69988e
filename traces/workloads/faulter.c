// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark workload (bench/replay_bench.sh): about a million page faults
 * in a few seconds -- map 64 MiB, touch every page, keep a quarter hot,
 * unmap, 64 times.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 64;
	size_t len = 64UL << 20;
	unsigned long sum = 0;

	for (int r = 0; r < rounds; r++) {
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		madvise(p, len, MADV_NOHUGEPAGE);	/* one fault per 4 KiB page */
		for (size_t i = 0; i < len; i += 4096)
			p[i] = (char)i;
		for (int k = 0; k < 4; k++)
			for (size_t i = 0; i < len / 4; i += 4096)
				sum += (unsigned char)p[i];
		munmap(p, len);
	}
	printf("%lu\n", sum);
	return 0;
}
