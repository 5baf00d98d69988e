// SPDX-License-Identifier: GPL-2.0-only
/*
 * Residency of a range of a worker from /proc/PID/pagemap: one 64-bit
 * entry per page, bit 63 present, bit 62 swapped (pagemap_pte_range() /
 * pte_to_pagemap_entry()).  The flags are readable without privilege; the
 * PFN bits (0-54) only with CAP_SYS_ADMIN, as in the lab's guest.  A THP
 * counts 512 present pages, as the model's `resident` does.  A read of
 * never-written anonymous memory maps the shared zero page (or the huge
 * zero page): present in pagemap, but no memory of the process's, and the
 * model's `resident` leaves it out; so do we, when the PFNs are visible.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define PM_PRESENT	(1ULL << 63)
#define PM_SWAP		(1ULL << 62)
#define PM_PFN		((1ULL << 55) - 1)
#define PM_BATCH	4096
#define HPAGE		(2UL << 20)

/* The PFN this process's pagemap shows for addr, 0 when hidden or absent. */
static uint64_t own_pfn(const void *addr)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, (off_t)((uintptr_t)addr / 4096 * 8)) != 8)
		e = 0;
	close(fd);
	return e & PM_PRESENT ? e & PM_PFN : 0;
}

/*
 * The PFN two read faults share, in two extents of `step` bytes (2 MiB
 * aligned with MADV_HUGEPAGE when huge), 0 if they differ.  A zero page is
 * shared by every read fault it serves; a kernel that gives a read fault a
 * page of its own (some do: then there is no zero page to leave out) gives
 * two different PFNs, and nothing is taken for a zero page.
 */
static uint64_t shared_read_pfn(uint64_t step, bool huge)
{
	uint64_t len = 3 * step, pa, pb;
	volatile const char *a, *b;
	char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return 0;
	a = huge ? (const char *)(((uintptr_t)m + step - 1) & ~(step - 1)) : m;
	b = a + step;
	if (huge)
		madvise((void *)a, 2 * step, MADV_HUGEPAGE);
	(void)a[0];
	(void)b[0];
	pa = own_pfn((const void *)a);
	pb = own_pfn((const void *)b);
	munmap(m, len);
	return pa && pa == pb ? pa : 0;
}

/*
 * Learn the zero page's PFN from two one-page extents, which no THP can
 * back, and the huge zero page's first PFN from two 2 MiB-aligned
 * MADV_HUGEPAGE extents.  Either stays 0 when unknown: without THP the
 * second read is the zero page again.  (A single read of a 2 MiB-aligned
 * range would map the huge zero page, and only its head would be left
 * out: 511 "resident" pages per untouched THP range that was read, on
 * 6.12, which aligns an anonymous mapping of a 2 MiB multiple.)
 */
void aw_zero_pfns(struct aw_zero_pfns *z)
{
	z->zero = shared_read_pfn(4096, false);
	z->huge = shared_read_pfn(HPAGE, true);
	if (z->huge == z->zero)
		z->huge = 0;
}

static bool zero_page(const struct aw_zero_pfns *z, uint64_t e)
{
	uint64_t pfn = e & PM_PFN;

	return z && ((z->zero && pfn == z->zero) || (z->huge && pfn >= z->huge && pfn < z->huge + 512));
}

int aw_pagemap_residency(pid_t pid, uint64_t addr, uint64_t len, const struct aw_zero_pfns *z,
			 struct aw_residency *r)
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
			r->resident += (buf[i] & PM_PRESENT) && !zero_page(z, buf[i]);
			r->swapped += !!(buf[i] & PM_SWAP);
		}
		done += (uint64_t)n / 8;
	}
	close(fd);
	return 0;
}
