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
 * Learn the zero page's PFN, and the huge zero page's first PFN when THP
 * maps one: read-fault a fresh anonymous page, then a 2 MiB-aligned
 * MADV_HUGEPAGE extent, and ask pagemap.  Either stays 0 when unknown.
 */
void aw_zero_pfns(struct aw_zero_pfns *z)
{
	volatile const char *p;
	char *m;

	z->zero = z->huge = 0;
	/*
	 * The zero page from a one-page mapping, which no THP can back: a read
	 * of a 2 MiB-aligned range would map the huge zero page instead (6.12
	 * aligns an anonymous mapping of a 2 MiB multiple), and then only its
	 * head would be excluded -- 511 "resident" pages per untouched THP
	 * range that was read.
	 */
	m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED) {
		p = m;
		(void)p[0];
		z->zero = own_pfn(m);
		munmap(m, 4096);
	}
	m = mmap(NULL, 2 * HPAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return;
	p = (const char *)(((uintptr_t)m + HPAGE - 1) & ~(HPAGE - 1));
	madvise((void *)p, HPAGE, MADV_HUGEPAGE);
	(void)p[0];
	z->huge = own_pfn((const void *)p);
	if (z->huge == z->zero)
		z->huge = 0;	/* THP never: the read mapped the zero page */
	munmap(m, 2 * HPAGE);
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
