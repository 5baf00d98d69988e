// SPDX-License-Identifier: GPL-2.0-only
/*
 * A small memory-heavy workload to record (traces/README.md): threads,
 * fork, mmap/munmap, madvise (HUGEPAGE, DONTNEED, FREE, COLD) and a hot /
 * cold working set, for about three seconds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB (1UL << 20)

static void touch(char *p, size_t len, size_t stride)
{
	for (size_t i = 0; i < len; i += stride)
		p[i]++;
}

static void *worker(void *arg)
{
	size_t len = 16 * MB;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	if (p == MAP_FAILED)
		return NULL;
	for (int round = 0; round < 20; round++) {
		touch(p, len, 4096);
		usleep(50000);
	}
	madvise(p, len / 2, MADV_DONTNEED);
	touch(p, len, 4096);
	munmap(p, len);
	return NULL;
}

int main(void)
{
	size_t hot = 32 * MB, cold = 64 * MB, thp = 8 * MB;
	char *h = mmap(NULL, hot, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *c = mmap(NULL, cold, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *t = mmap(NULL, thp, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t th[2];
	pid_t child;

	if (h == MAP_FAILED || c == MAP_FAILED || t == MAP_FAILED)
		return 1;
	madvise(t, thp, MADV_HUGEPAGE);
	touch(t, thp, 4096);
	touch(c, cold, 4096);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	child = fork();
	if (child == 0) {
		touch(h, hot, 4096);	/* CoW copies in the child */
		_exit(0);
	}
	for (int round = 0; round < 30; round++) {
		touch(h, hot, 4096);
		usleep(100000);
	}
	madvise(c, cold / 2, MADV_COLD);
	madvise(c + cold / 2, cold / 2, MADV_FREE);
	touch(c + cold / 2, cold / 4, 4096);
	waitpid(child, NULL, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	munmap(c, cold);
	printf("memhog done\n");
	return 0;
}
