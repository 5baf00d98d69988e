// SPDX-License-Identifier: GPL-2.0-only
/*
 * Residency of a range of a worker from /proc/PID/pagemap: one 64-bit
 * entry per page, bit 63 present, bit 62 swapped (pagemap_pte_range() /
 * pte_to_pagemap_entry()).  The flags are readable without privilege; only
 * the PFN bits are hidden, which this does not use.  A THP counts 512
 * present pages, as the model's `resident` does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "exec.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_SWAP		(1ULL << 62)
#define PM_BATCH	4096

int aw_pagemap_residency(pid_t pid, uint64_t addr, uint64_t len, struct aw_residency *r)
{
	char path[64];
	uint64_t buf[PM_BATCH];
	uint64_t first = addr / 4096, nr = len / 4096;
	int fd;

	r->resident = r->swapped = 0;
	snprintf(path, sizeof(path), "/proc/%d/pagemap", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (uint64_t done = 0; done < nr;) {
		uint64_t want = nr - done < PM_BATCH ? nr - done : PM_BATCH;
		ssize_t n = pread(fd, buf, want * 8, (off_t)((first + done) * 8));

		if (n <= 0) {
			close(fd);
			return n < 0 ? -errno : -EIO;
		}
		for (ssize_t i = 0; i < n / 8; i++) {
			r->resident += !!(buf[i] & PM_PRESENT);
			r->swapped += !!(buf[i] & PM_SWAP);
		}
		done += (uint64_t)n / 8;
	}
	close(fd);
	return 0;
}
